//! The match runner: the pair scheduler plays game pairs, this thread counts them.
//!
//! A run is a list of pairings (engine `a` against engine `b`) and a number of pair slots. Pair
//! `k` is pairing `k % P` on opening `k / P` of the book's walk, played twice with colours
//! swapped (`a` white first). Each worker keeps its own engine processes. Only complete pairs are
//! counted; each counted pair is appended to the PGN (and its positions to the EPD file), then
//! the state file is saved, so a resumed run cuts both back to their saved lengths and plays
//! exactly the pairs not yet counted. With an SPRT the test is checked after every pair and the
//! run stops at H0, H1 or the game cap. Ctrl-C stops the games in flight (they are not counted),
//! prints the results and saves the state.

pub mod args;
pub mod commands;

use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context};
use shakmaty::Color;

use crate::book::{Book, Sequence};
use crate::db::recorder::{self, Recorder};
use crate::db::{EngineRow, RunRow};
use crate::engine::{Engine, EngineConfig};
use crate::epd;
use crate::game::{GameRecord, GameSettings};
use crate::output::{self, Heading};
use crate::report::{self, Progress, Standing, Summary};
use crate::scheduler::{self, Hooks, PairJob, Scheduler, Seats};
use crate::snapshot::Snapshot;
use crate::state::{Failures, Point, State, Tally};
use crate::stats::{Decision, SprtConfig};
use crate::uci::UciOption;

/// Everything a run needs, resolved and checked.
pub struct Plan {
    /// The engines (unique names).
    pub engines: Vec<EngineConfig>,
    /// Encounters as (first, second) indices into `engines`.
    pub pairings: Vec<(usize, usize)>,
    /// Number of pair slots (the run plays pairs `0..total_pairs`).
    pub total_pairs: u64,
    /// The SPRT, if the run is one.
    pub sprt: Option<SprtConfig>,
    /// The opening book.
    pub book: Book,
    /// The walk through it.
    pub sequence: Sequence,
    /// The opening seed (saved in the state).
    pub seed: u64,
    /// Limits and adjudication of every game.
    pub settings: GameSettings,
    /// Games at once.
    pub concurrency: usize,
    /// With `--affinity`, the CPUs of each game slot (one slot per concurrent game).
    pub affinity: Option<Vec<crate::affinity::SlotCpus>>,
    /// Settings that must agree for a resume.
    pub fingerprint: BTreeMap<String, String>,
    /// Limits as text for the results heading (`8+0.08`, `2000 nodes`).
    pub tc_text: String,
    /// Results block every this many games (0: only at the end).
    pub rating_interval: u64,
    /// PGN event name.
    pub event: String,
    /// PGN output file.
    pub pgn: Option<PathBuf>,
    /// EPD output file: the position after every move of every counted game, with its result.
    pub epdout: Option<PathBuf>,
    /// State file.
    pub state: Option<PathBuf>,
    /// JSON summary file.
    pub json: Option<PathBuf>,
    /// SVG chart file.
    pub plot: Option<PathBuf>,
    /// How the run is recorded in the results database.
    pub record: crate::db::recorder::Meta,
}

impl Plan {
    /// The plan as JSON, for `--dry-run`: everything that decides which games are played and
    /// where they are written (two command lines that give the same JSON play the same run).
    pub fn to_json(&self) -> serde_json::Value {
        let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
        serde_json::json!({
            "engines": self.engines,
            "pairings": self.pairings,
            "pairs": self.total_pairs,
            "sprt": self.sprt,
            "book": { "file": self.book.path.display().to_string(),
                      "openings": self.book.entries.len() },
            "order": self.fingerprint.get("order"),
            "start": self.fingerprint.get("start"),
            "seed": self.seed,
            "settings": self.settings,
            "limits": self.tc_text,
            "concurrency": self.concurrency,
            "affinity": self.affinity,
            "rating_interval": self.rating_interval,
            "event": self.event,
            "pgn": path(&self.pgn),
            "epdout": path(&self.epdout),
            "state": path(&self.state),
            "json": path(&self.json),
            "plot": path(&self.plot),
        })
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The SPRT accepted a hypothesis.
    Decided(Decision),
    /// Every pair slot was played (fixed match or SPRT game cap).
    Complete,
    /// Ctrl-C.
    Interrupted,
}

/// Truncates the `what` (PGN or EPD) file to the length the state recorded (drops games not
/// counted).
fn cut_file(what: &str, path: &Path, len: u64) -> anyhow::Result<()> {
    let f = OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {what} file {} to resume", path.display()))?;
    let now = f
        .metadata()
        .with_context(|| format!("cannot read the length of {what} file {}", path.display()))?
        .len();
    if now < len {
        bail!(
            "{what} file {} is shorter ({now} bytes) than the state file records ({len} bytes)",
            path.display()
        );
    }
    f.set_len(len)
        .with_context(|| format!("cannot truncate {what} file {}", path.display()))
}

/// A file the run appends every counted pair's games to (`--pgn`, `--epdout`), flushed after
/// each pair.
struct Appended<'a> {
    /// `PGN` or `EPD`, for messages.
    what: &'static str,
    /// Where it is.
    path: &'a Path,
    /// The file, open for appending.
    file: File,
}

impl<'a> Appended<'a> {
    /// Opens `path` for appending, created if need be; `None` without a path.
    fn open(what: &'static str, path: Option<&'a Path>) -> anyhow::Result<Option<Appended<'a>>> {
        let Some(path) = path else { return Ok(None) };
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open {what} file {}", path.display()))?;
        Ok(Some(Appended { what, path, file }))
    }

    /// Appends `text` and flushes; returns the file's length after it.
    fn append(&mut self, text: &str) -> anyhow::Result<u64> {
        let (what, path) = (self.what, self.path.display());
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.flush())
            .with_context(|| format!("cannot append to the {what} file {path}"))?;
        let meta = self.file.metadata();
        Ok(meta
            .with_context(|| format!("cannot read the length of {what} file {path}"))?
            .len())
    }
}

/// Checks before any game that every output file can be written (an existing file is left as
/// it is; a new one is created and removed again).
fn check_outputs(plan: &Plan) -> anyhow::Result<()> {
    let outputs = [
        ("--pgn", &plan.pgn),
        ("--epdout", &plan.epdout),
        ("--state", &plan.state),
        ("--json", &plan.json),
        ("--plot", &plan.plot),
    ];
    for (flag, path) in outputs {
        let Some(path) = path else { continue };
        let writable = if path.exists() {
            OpenOptions::new().append(true).open(path).map(drop)
        } else {
            std::fs::File::create(path).and_then(|_| std::fs::remove_file(path))
        };
        writable.with_context(|| format!("{flag} {}: cannot write there", path.display()))?;
    }
    Ok(())
}

/// An exclusive lock on one of a run's files, held for the run's life: `FILE.lock` beside it,
/// locked (`flock`) and holding the holder's pid; removed when the run ends. A lock file left by
/// a killed run is not locked any more, so it never blocks a resume.
pub struct OutputLock {
    path: PathBuf,
    _file: std::fs::File,
}

impl OutputLock {
    /// Takes the lock of `file` (named `flag` in messages), or says who holds it.
    pub fn take(flag: &str, file: &Path) -> anyhow::Result<OutputLock> {
        let mut name = file.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let mut f = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| {
                format!(
                    "{flag} {}: cannot create the lock file {}",
                    file.display(),
                    path.display()
                )
            })?;
        match f.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let holder = std::fs::read_to_string(&path).unwrap_or_default();
                let holder = holder.trim();
                bail!(
                    "{flag} {} is in use by another arena run (pid {}); wait for it to end or use \
                     another file",
                    file.display(),
                    if holder.is_empty() { "unknown" } else { holder }
                );
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| {
                    format!("{flag} {}: cannot lock {}", file.display(), path.display())
                });
            }
        }
        f.set_len(0)?;
        write!(f, "{}", std::process::id())?;
        f.flush()?;
        Ok(OutputLock { path, _file: f })
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Locks the state, PGN and EPD files of a run against a second run on the same files.
fn lock_outputs(plan: &Plan) -> anyhow::Result<Vec<OutputLock>> {
    let files = [
        ("--state", &plan.state),
        ("--pgn", &plan.pgn),
        ("--epdout", &plan.epdout),
    ];
    files
        .into_iter()
        .filter_map(|(flag, p)| p.as_deref().map(|p| (flag, p)))
        // A device (`--pgn /dev/null`) is nobody's to lock, and no lock file goes beside it.
        .filter(|(_, p)| std::fs::metadata(p).map_or(true, |m| m.is_file()))
        .map(|(flag, p)| OutputLock::take(flag, p))
        .collect()
}

/// Loads the state to resume, or makes a fresh one.
fn open_state(plan: &Plan) -> anyhow::Result<State> {
    if let Some(path) = &plan.state {
        if path.exists() {
            let st = State::load(path)?;
            st.check_config(path, &plan.fingerprint)?;
            st.check_counts(path, plan.total_pairs)?;
            if st.tallies.len() != plan.pairings.len() {
                bail!(
                    "state file {} has a different number of pairings",
                    path.display()
                );
            }
            if let (Some(pgn), Some(len)) = (&plan.pgn, st.pgn_bytes) {
                cut_file("PGN", pgn, len)?;
            }
            if let (Some(epd), Some(len)) = (&plan.epdout, st.epd_bytes) {
                cut_file("EPD", epd, len)?;
            }
            eprintln!(
                "arena: resuming {} ({} games, {} pairs counted)",
                path.display(),
                st.games(),
                st.done.len()
            );
            return Ok(st);
        }
    }
    let mut st = State::new(plan.fingerprint.clone(), plan.seed, plan.pairings.len());
    if plan.state.is_some() {
        // A fresh stateful run owns its PGN and EPD files from byte 0 of what it appends.
        let len = |path: &Path| std::fs::metadata(path).map_or(0, |m| m.len());
        st.pgn_bytes = plan.pgn.as_deref().map(len);
        st.epd_bytes = plan.epdout.as_deref().map(len);
    }
    Ok(st)
}

/// Starts each engine once (handshake and option check) before any game; an unknown option or
/// a value out of range is an error naming it. Returns the options each engine declared.
pub fn check_engines(engines: &[EngineConfig]) -> anyhow::Result<Vec<Vec<UciOption>>> {
    let mut declared = Vec::with_capacity(engines.len());
    for cfg in engines {
        let mut e = Engine::start(cfg.clone()).with_context(|| {
            format!(
                "engine {} ({}) failed its start-up check",
                cfg.name, cfg.cmd
            )
        })?;
        declared.push(e.options().to_vec());
        e.quit();
    }
    Ok(declared)
}

/// Per-engine standings from the pairing tallies.
fn standings(plan: &Plan, st: &State) -> Vec<Standing> {
    let mut per: Vec<Tally> = vec![Tally::default(); plan.engines.len()];
    for (p, &(a, b)) in plan.pairings.iter().enumerate() {
        let t = st.tallies.get(p).copied().unwrap_or_default();
        per[a] = per[a].merged(&t);
        per[b] = per[b].merged(&t.flipped());
    }
    plan.engines
        .iter()
        .zip(per)
        .map(|(e, tally)| Standing {
            name: e.name.clone(),
            tally,
        })
        .collect()
}

/// Threads and Hash of each engine for the `Results of` line, as fastchess prints them (`1t`,
/// `16MB`): the value given for the engine or with --option (where it declares the option), else
/// the default the engine declared, else `NULL`.
fn engine_labels(plan: &Plan, declared: Option<&[Vec<UciOption>]>) -> Vec<[String; 2]> {
    let value = |i: usize, name: &str, suffix: &str| {
        let named = |list: &[(String, String)]| {
            list.iter()
                .rfind(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let declared = declared.and_then(|d| d.get(i));
        let has = |o: &&UciOption| o.name.eq_ignore_ascii_case(name);
        // A shared --option counts only where the engine declares it (it is skipped elsewhere).
        let shared = named(&plan.engines[i].shared_options)
            .filter(|_| declared.is_none_or(|d| d.iter().any(|o| has(&o))));
        named(&plan.engines[i].options)
            .or(shared)
            .or_else(|| {
                (declared.into_iter().flatten())
                    .filter(has)
                    .find_map(UciOption::default_text)
            })
            .map_or_else(|| "NULL".to_string(), |v| format!("{v}{suffix}"))
    };
    (0..plan.engines.len())
        .map(|i| [value(i, "Threads", "t"), value(i, "Hash", "MB")])
        .collect()
}

/// The results block of pairing `p` from its snapshot.
fn results_block(plan: &Plan, labels: &[[String; 2]], p: usize, snap: &Snapshot) -> String {
    let (a, b) = plan.pairings[p];
    let both = |k: usize| match (&labels[a][k], &labels[b][k]) {
        (x, y) if x == y => x.clone(),
        (x, y) => format!("{x} - {y}"),
    };
    let book = plan.book.path.file_name().map(|s| s.to_string_lossy());
    let h = Heading {
        first: &plan.engines[a].name,
        second: &plan.engines[b].name,
        tc: &plan.tc_text,
        threads: &both(0),
        hash: &both(1),
        book: book.as_deref().unwrap_or_default(),
    };
    let block = output::results_block(&h, snap);
    match &plan.affinity {
        // After the `Results of …` line, which parsers of fastchess's output read as it is.
        Some(slots) => {
            let mut lines: Vec<&str> = block.lines().collect();
            let described = crate::affinity::describe(slots);
            lines.insert(2.min(lines.len()), &described);
            lines.join("\n") + "\n"
        }
        None => block,
    }
}

/// The snapshot of pairing `p`.
fn snapshot(plan: &Plan, st: &State, p: usize) -> Snapshot {
    let tally = st.tallies.get(p).copied().unwrap_or_default();
    Snapshot::new(tally, plan.sprt.as_ref())
}

/// The runner's hooks: the `Started game` and `Finished game` lines.
struct Lines<'a> {
    progress: &'a Progress,
    total_games: u64,
    stdout: Mutex<()>,
}

impl Hooks for Lines<'_> {
    fn started(&self, number: u64, white: &str, black: &str) {
        let _l = self.stdout.lock();
        let line = output::started_line(number, self.total_games, white, black);
        self.progress.println(&line);
    }

    fn finished(&self, number: u64, g: &GameRecord) {
        let _l = self.stdout.lock();
        let line = output::finished_line(number, &g.white, &g.black, g.result.pgn(), &g.reason);
        self.progress.println(&line);
    }
}

/// The pairs of the plan not yet counted in `st`, in order.
fn jobs<'a>(plan: &'a Plan, st: &State) -> impl Iterator<Item = PairJob> + Send + 'a {
    let done: HashSet<u64> = st.done.iter().copied().collect();
    let p = plan.pairings.len() as u64;
    (0..plan.total_pairs)
        .filter(move |k| !done.contains(k))
        .map(move |k| PairJob {
            index: k,
            engines: plan.pairings[(k % p) as usize],
            opening: plan.book.entries[plan.sequence.index(k / p)].clone(),
        })
}

/// The database row of a run as its plan describes it (figures come after each pair).
fn initial_row(plan: &Plan) -> RunRow {
    let abs = |p: &Option<PathBuf>| p.as_deref().map(recorder::abs);
    let (a, b) = plan.pairings.first().copied().unwrap_or((0, 1));
    let name = match plan.record.kind.as_str() {
        "sprt" | "ablate-row" => format!(
            "{} vs {}",
            plan.engines.get(a).map_or("", |e| e.name.as_str()),
            plan.engines.get(b).map_or("", |e| e.name.as_str())
        ),
        _ => plan
            .engines
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>()
            .join(" vs "),
    };
    RunRow {
        name,
        tc: Some(plan.tc_text.clone()),
        limits: serde_json::to_value(plan.settings.limits).ok(),
        adjudication: serde_json::to_value(plan.settings.adjudication).ok(),
        book: Some(format!(
            "{} ({} openings)",
            plan.book.path.display(),
            plan.book.entries.len()
        )),
        seed: Some(plan.seed.to_string()),
        book_order: plan.fingerprint.get("order").cloned(),
        concurrency: Some(plan.concurrency as i64),
        state_path: abs(&plan.state),
        pgn_path: abs(&plan.pgn),
        epd_path: abs(&plan.epdout),
        fingerprint: serde_json::to_string(&plan.fingerprint).ok(),
        engines: plan
            .engines
            .iter()
            .map(|e| EngineRow {
                name: e.name.clone(),
                cmd: e.cmd.clone(),
                args: e.args.clone(),
                options: e.shared_options.iter().chain(&e.options).cloned().collect(),
                ..EngineRow::default()
            })
            .collect(),
        ..RunRow::default()
    }
}

/// Writes the figures of `st` into the recorder: the first encounter's (a gauntlet's: the
/// first engine's over all its encounters) and, with several, every encounter's.
fn record_pair(rec: &mut Recorder, plan: &Plan, st: &State, snap: &Snapshot) {
    if !rec.active() {
        return;
    }
    if plan.pairings.len() > 1 {
        let list: Vec<_> = plan
            .pairings
            .iter()
            .enumerate()
            .map(|(p, &(a, b))| {
                let t = st.tallies.get(p).copied().unwrap_or_default();
                recorder::encounter(&plan.engines[a].name, &plan.engines[b].name, &t)
            })
            .collect();
        rec.row.extra = Some(recorder::encounters_extra(&list));
        if plan.pairings.iter().all(|&(a, _)| a == 0) {
            let all = st
                .tallies
                .iter()
                .fold(Tally::default(), |acc, t| acc.merged(t));
            rec.pair(&Snapshot::new(all, None), st);
            return;
        }
    }
    rec.pair(snap, st);
}

/// The database's status of a run that ended so.
fn status_of(plan: &Plan, ending: Ending) -> &'static str {
    match ending {
        Ending::Decided(Decision::H0) => "H0",
        Ending::Decided(Decision::H1) => "H1",
        Ending::Complete if plan.sprt.is_none() => "complete",
        _ => "stopped",
    }
}

/// Runs the plan to its end; returns the final state and how it ended. The run is recorded
/// in the results database its plan names (a failure to record is a warning, never a lost
/// game).
pub fn run(plan: &Plan) -> anyhow::Result<(State, Ending)> {
    if plan.pairings.is_empty() {
        bail!("nothing to play: no pairings");
    }
    check_outputs(plan)?;
    let _locks = lock_outputs(plan)?;
    let st = open_state(plan)?;
    let mut rec = Recorder::start(&plan.record, initial_row(plan));
    if rec.active() {
        record_pair(&mut rec, plan, &st, &snapshot(plan, &st, 0));
        rec.reset_cost();
    }
    let out = play(plan, st, &mut rec);
    match &out {
        Ok((_, ending)) => rec.finish(status_of(plan, *ending)),
        Err(_) => rec.finish("stopped"),
    }
    out
}

/// Plays the pairs `st` has not counted; see [`run`].
fn play(plan: &Plan, mut st: State, rec: &mut Recorder) -> anyhow::Result<(State, Ending)> {
    let session_start = Instant::now();
    let elapsed_before = st.elapsed_s;

    if let Some(d) = st.decision {
        eprintln!("arena: this run already ended ({d:?} accepted); printing its results");
        let labels = engine_labels(plan, check_engines(&plan.engines).ok().as_deref());
        finish(plan, &labels, &mut st, Ending::Decided(d), elapsed_before)?;
        return Ok((st, Ending::Decided(d)));
    }

    let labels = engine_labels(plan, Some(&check_engines(&plan.engines)?));

    let (stop, interrupted) = scheduler::stop_flag();
    let total_games = plan.total_pairs * 2;
    let progress = Progress::new(total_games);
    let lines = Lines {
        progress: &progress,
        total_games,
        stdout: Mutex::new(()),
    };
    let scheduler = Scheduler {
        configs: &plan.engines,
        settings: &plan.settings,
        hooks: &lines,
        stop: &stop,
    };
    let mut seats: Vec<Seats> = match &plan.affinity {
        Some(slots) => {
            progress.println(&crate::affinity::describe(slots));
            slots.iter().cloned().map(Seats::pinned).collect()
        }
        None => (0..plan.concurrency.max(1))
            .map(|_| Seats::default())
            .collect(),
    };

    let mut ending = Ending::Complete;
    let mut last_reported = st.games();
    let session_games_start = st.games();
    let mut pgn_file = Appended::open("PGN", plan.pgn.as_deref())?;
    let mut epd_file = Appended::open("EPD", plan.epdout.as_deref())?;
    let jobs = jobs(plan, &st);
    let failure = scheduler.run(&mut seats, jobs, |pair| {
        let p = (pair.index % plan.pairings.len() as u64) as usize;
        if let Some(f) = pgn_file.as_mut() {
            let mut text = String::new();
            for (g, game) in pair.games.iter().enumerate() {
                text.push_str(&pgn_text(game, &plan.event, 2 * pair.index + g as u64 + 1));
            }
            st.pgn_bytes = Some(f.append(&text)?);
        }
        if let Some(f) = epd_file.as_mut() {
            let lines = pair.games.iter().map(|g| epd::game_lines(g));
            st.epd_bytes = Some(f.append(&lines.collect::<Result<String, _>>()?)?);
        }
        st.tallies[p].add_pair(pair.half_points);
        st.done.insert(pair.index);
        for game in &pair.games {
            st.game_wall_ms += game.duration_us as f64 / 1000.0;
            st.game_engine_ms += game.engine_time_us.iter().sum::<u64>() as f64 / 1000.0;
            if let Some(loser) = game.result.loser() {
                let name = if loser == Color::White {
                    &game.white
                } else {
                    &game.black
                };
                if game.termination.is_engine_fault() {
                    let f: &mut Failures = st.failures.entry(name.clone()).or_default();
                    f.count(game.termination);
                }
            }
        }
        // The one snapshot every sink reads: chart history, state, progress, results block.
        let snap = snapshot(plan, &st, 0);
        st.history.push(snap.point());
        st.elapsed_s = elapsed_before + session_start.elapsed().as_secs_f64();
        st.decision = snap.decision();
        if let Some(d) = st.decision {
            ending = Ending::Decided(d);
        }
        if let Some(path) = &plan.state {
            st.save(path)?;
        }
        record_pair(rec, plan, &st, &snap);
        let games_now = st.games();
        let secs = session_start.elapsed().as_secs_f64();
        let gpm = if secs > 0.0 {
            (games_now - session_games_start) as f64 / secs * 60.0
        } else {
            0.0
        };
        progress.update(&snap, gpm, total_games.saturating_sub(games_now));
        if plan.rating_interval > 0
            && games_now >= last_reported + plan.rating_interval
            && ending == Ending::Complete
        {
            last_reported = games_now;
            let _l = lines.stdout.lock();
            progress.println(results_block(plan, &labels, 0, &snap).trim_end());
        }
        // Pairs finishing after the decision are not counted (as fastchess).
        Ok(ending == Ending::Complete)
    });
    for seat in &mut seats {
        seat.quit();
    }
    let failure = match failure {
        Ok(f) => f,
        Err(e) => {
            // A write that failed (a full disk for the state or the PGN) ends the run; what
            // was counted is still printed, then the error.
            progress.finish();
            st.elapsed_s = elapsed_before + session_start.elapsed().as_secs_f64();
            let elapsed = st.elapsed_s;
            if let Err(e2) = finish(plan, &labels, &mut st, Ending::Interrupted, elapsed) {
                eprintln!("arena: {e2:#}");
            }
            return Err(e);
        }
    };
    progress.finish();
    if let Some(e) = failure {
        eprintln!("arena: stopping: {e}");
    }

    if ending == Ending::Complete && interrupted.load(Ordering::SeqCst) {
        ending = Ending::Interrupted;
    } else if ending == Ending::Complete && (st.done.len() as u64) < plan.total_pairs {
        // Workers stopped early without a decision (e.g. an engine that cannot be restarted).
        ending = Ending::Interrupted;
    }
    st.elapsed_s = elapsed_before + session_start.elapsed().as_secs_f64();
    let elapsed = st.elapsed_s;
    finish(plan, &labels, &mut st, ending, elapsed)?;
    Ok((st, ending))
}

/// The PGN of a counted game, ending with a blank line.
fn pgn_text(game: &GameRecord, event: &str, round: u64) -> String {
    let mut s = crate::pgn::to_pgn(game, event, round);
    while !s.ends_with("\n\n") {
        s.push('\n');
    }
    s
}

/// Writes the chart of LLR and Elo ± error against games (`plot::history_svg`).
fn write_plot(path: &Path, history: &[Point], sprt: Option<&SprtConfig>) -> anyhow::Result<()> {
    let svg = crate::plot::history_svg(history, sprt);
    std::fs::write(path, svg)
        .map_err(|e| anyhow::anyhow!("cannot write chart {}: {e}", path.display()))
}

/// Prints the final blocks, saves state, writes JSON and chart.
fn finish(
    plan: &Plan,
    labels: &[[String; 2]],
    st: &mut State,
    ending: Ending,
    elapsed: f64,
) -> anyhow::Result<()> {
    let mut out = String::new();
    for p in 0..plan.pairings.len() {
        out.push_str(&results_block(plan, labels, p, &snapshot(plan, st, p)));
    }
    if plan.pairings.len() > 1 {
        out.push_str(&report::standings_table(&standings(plan, st)));
    }
    if let (Ending::Decided(d), Some(cfg)) = (ending, plan.sprt.as_ref()) {
        out.push_str(&output::sprt_verdict(cfg, d));
        out.push('\n');
    }
    if ending == Ending::Interrupted {
        out.push_str("Run interrupted: games in flight were not counted");
        if let Some(path) = &plan.state {
            out.push_str(&format!("; resume with --state {}", path.display()));
        }
        out.push('\n');
    }
    let names: Vec<String> = plan.engines.iter().map(|e| e.name.clone()).collect();
    out.push_str(&report::failures_block(&names, &st.failures));
    let games = st.games();
    let secs = elapsed.max(0.0) as u64;
    out.push_str(&format!(
        "Total Time: {:02}:{:02}:{:02} (hours:minutes:seconds), {:.1} games/min\n",
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        if elapsed > 0.0 {
            games as f64 / elapsed * 60.0
        } else {
            0.0
        }
    ));
    if games > 0 {
        let wall = st.game_wall_ms / games as f64;
        let think = st.game_engine_ms / games as f64;
        out.push_str(&format!(
            "Per game: {wall:.0} ms wall, {think:.0} ms engine think time, {:.1} ms runner overhead\n",
            wall - think
        ));
    }
    if plan.settings.limits.tc.is_none() {
        out.push_str(&stall_line(&plan.settings.limits));
    }
    out.push_str("Finished match\n");
    print!("{out}");
    let _ = std::io::stdout().flush();

    if let Some(path) = &plan.state {
        st.save(path)?;
    }
    if let Some(path) = &plan.json {
        let (a, b) = plan.pairings[0];
        let mut s = Summary::new(
            &plan.engines[a].name,
            &plan.engines[b].name,
            &plan.tc_text,
            &snapshot(plan, st, 0),
            &st.failures,
        );
        if plan.pairings.len() > 1 {
            s.standings = standings(plan, st);
        }
        s.elapsed_s = elapsed;
        if games > 0 {
            let g = games as f64;
            s.games_per_minute = (elapsed > 0.0).then(|| g / elapsed * 60.0);
            s.game_wall_ms = Some(st.game_wall_ms / g);
            s.overhead_ms_per_game = Some((st.game_wall_ms - st.game_engine_ms).max(0.0) / g);
        }
        s.write(path)?;
    }
    if let Some(path) = &plan.plot {
        write_plot(path, &st.history, plan.sprt.as_ref())?;
    }
    Ok(())
}

/// The stall limit in force for clockless games, for the end of the results.
fn stall_line(limits: &crate::game::Limits) -> String {
    use crate::game::stall;
    if !limits.derive_stall {
        return format!("Stall limit: {} ms (--stall-ms)\n", limits.stall_ms);
    }
    match stall::median_ms() {
        Some(m) => format!(
            "Stall limit: {} ms ({}x the median move time, {m} ms; --stall-ms fixes it)\n",
            stall::limit_ms(limits.stall_ms),
            stall::STALL_MEDIAN_FACTOR
        ),
        None => format!(
            "Stall limit: {} ms (too few moves timed for a median; --stall-ms fixes it)\n",
            limits.stall_ms
        ),
    }
}
