//! `arena sprt`, `arena match` and `arena gauntlet`: their arguments, and how each becomes a
//! [`Plan`] for the runner.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::Args;

use super::args::{
    check_name, default_name, parse_engine_spec, parse_options, CommonArgs, SprtBoundsArgs,
};
use super::{run, Ending, Plan};
use crate::book::{Book, Sequence};
use crate::db::recorder::Meta;
use crate::engine::EngineConfig;
use crate::game::{Adjudication, DrawRule, GameSettings, Limits, ResignRule, TimeControl};
use crate::refs;
use crate::scheduler::MAX_CONCURRENCY;
use crate::state::State;
use crate::stats::SprtConfig;

/// `arena sprt`: dev against base until the SPRT accepts H0 or H1, or the game cap.
#[derive(Args, Clone, Debug)]
pub struct SprtArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Dev engine command.
    #[arg(long, value_name = "PATH", conflicts_with = "dev_ref")]
    pub dev_cmd: Option<String>,
    /// Base engine command.
    #[arg(long, value_name = "PATH", conflicts_with = "base_ref")]
    pub base_cmd: Option<String>,
    /// Dev as a git ref of --repo, built in its own worktree (see --build; cached by commit).
    #[arg(long, value_name = "REF")]
    pub dev_ref: Option<String>,
    /// Base as a git ref of --repo.
    #[arg(long, value_name = "REF")]
    pub base_ref: Option<String>,
    /// Dev's display name (no spaces).
    #[arg(long, value_name = "NAME")]
    pub dev_name: Option<String>,
    /// Base's display name (no spaces).
    #[arg(long, value_name = "NAME")]
    pub base_name: Option<String>,
    /// UCI option for dev only, `Name=Value` (repeatable; applied after --option).
    #[arg(long = "dev-option", value_name = "NAME=VALUE")]
    pub dev_options: Vec<String>,
    /// UCI option for base only, `Name=Value` (repeatable; applied after --option).
    #[arg(long = "base-option", value_name = "NAME=VALUE")]
    pub base_options: Vec<String>,
    /// Command-line argument for the dev engine (repeatable).
    #[arg(long = "dev-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub dev_args: Vec<String>,
    /// Command-line argument for the base engine (repeatable).
    #[arg(long = "base-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub base_args: Vec<String>,
    #[command(flatten)]
    pub bounds: SprtBoundsArgs,
    /// Stop without a decision after this many games.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_games: u64,
    /// Git repository for --dev-ref/--base-ref (default: the one containing the current directory).
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// Where ref builds are cached (default: <repo>/target/arena-builds).
    #[arg(long, value_name = "DIR")]
    pub build_cache: Option<PathBuf>,
    /// How a ref is built, a shell command run in the worktree's root: `{out}` is the binary
    /// to make, `{jobs}` the CPU count [default: `cargo build --release -p clio` in Clio's
    /// repository, else OpenBench's `make -j{jobs} EXE={out}`].
    #[arg(long, value_name = "COMMAND")]
    pub build: Option<String>,
    /// Play a ref whose binary's `bench` differs from the `Bench: N` of its commit message
    /// (OpenBench refuses such a test; so does arena without this flag).
    #[arg(long)]
    pub allow_bench_mismatch: bool,
}

/// `arena match` (every engine against every other) and `arena gauntlet` (the first engine
/// against each of the others): a fixed number of game pairs per encounter.
#[derive(Args, Clone, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// An engine: `--engine name=NAME cmd=PATH [arg=ARG]… [dir=DIR] ["option.Name=Value"]…`
    /// (repeat --engine for each engine).
    #[arg(
        long = "engine",
        num_args = 1..,
        value_name = "KEY=VALUE",
        required = true,
        action = clap::ArgAction::Append
    )]
    pub engine_words: Vec<String>,
    /// The words of each `--engine`, one list per occurrence (filled by [`MatchArgs::group`]).
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,
    /// Game pairs (one opening, colours swapped) per encounter.
    #[arg(long, value_name = "N", conflicts_with = "games")]
    pub rounds: Option<u64>,
    /// Games per encounter (rounded up to whole pairs).
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
}

impl MatchArgs {
    /// Splits the `--engine` words by occurrence, from the parsed matches of this subcommand.
    pub fn group(&mut self, matches: &clap::ArgMatches) {
        if let Ok(Some(occurrences)) = matches.try_get_occurrences::<String>("engine_words") {
            self.engines = occurrences.map(|o| o.cloned().collect()).collect();
        }
    }
}

/// Limits and adjudication from the common options.
pub fn settings(c: &CommonArgs) -> anyhow::Result<(GameSettings, String)> {
    let tc: Option<TimeControl> = c.tc.as_deref().map(str::parse).transpose()?;
    if tc.is_none() && c.nodes.is_none() && c.depth.is_none() && c.movetime.is_none() {
        bail!("no limit given: use --tc, --nodes, --depth or --movetime");
    }
    let limits = Limits {
        tc,
        nodes: c.nodes,
        depth: c.depth,
        movetime_ms: c.movetime,
        margin_ms: c.timemargin,
        stall_ms: c.stall_ms.unwrap_or(Limits::default().stall_ms),
        derive_stall: c.stall_ms.is_none(),
    };
    let resign: Option<ResignRule> = c.resign.as_deref().map(str::parse).transpose()?;
    let draw: Option<DrawRule> = c.draw.as_deref().map(str::parse).transpose()?;
    let text = if let Some(tc) = &tc {
        tc.to_string()
    } else if let Some(ms) = c.movetime {
        format!("{}/move", ms as f64 / 1000.0)
    } else if let Some(n) = c.nodes {
        format!("{n} nodes")
    } else if let Some(d) = c.depth {
        format!("{d} plies")
    } else {
        String::new()
    };
    Ok((
        GameSettings {
            variant: c.variant,
            limits,
            adjudication: Adjudication {
                resign,
                draw,
                maxmoves: c.maxmoves,
            },
        },
        text,
    ))
}

/// Loads the book (or the start position when none is given) and warns about skipped lines.
fn load_book(c: &CommonArgs) -> anyhow::Result<Book> {
    match &c.openings {
        Some(path) => {
            let book = Book::load_in(path, c.variant.castling_mode())?;
            book.warn_skipped();
            Ok(book)
        }
        None => {
            eprintln!("warning: no --openings: every pair starts from the initial position");
            Ok(Book::startpos())
        }
    }
}

/// The seed: given, else the resumed state's, else from the clock.
fn seed(c: &CommonArgs) -> u64 {
    if let Some(s) = c.seed {
        return s;
    }
    if let Some(path) = &c.state {
        if let Ok(st) = State::load(path) {
            return st.seed;
        }
    }
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}

/// Builds the plan common to every command.
pub fn plan(
    c: &CommonArgs,
    engines: Vec<EngineConfig>,
    pairings: Vec<(usize, usize)>,
    total_pairs: u64,
    sprt: Option<SprtConfig>,
    event: &str,
) -> anyhow::Result<Plan> {
    let (settings, tc_text) = settings(c)?;
    if !(1..=MAX_CONCURRENCY).contains(&c.concurrency) {
        bail!(
            "--concurrency {}: give 1 to {MAX_CONCURRENCY} games at once",
            c.concurrency
        );
    }
    if c.start == 0 {
        bail!("--start is 1-based: give 1 or more");
    }
    for (i, e) in engines.iter().enumerate() {
        if engines[..i].iter().any(|o| o.name == e.name) {
            bail!(
                "two engines are named {:?}: give them distinct names",
                e.name
            );
        }
    }
    let book = load_book(c)?;
    let seed = seed(c);
    let mut engines = engines;
    for e in &mut engines {
        e.options.extend(c.variant.engine_options());
    }
    let affinity = if c.affinity {
        Some(affinity_slots(&engines, c.concurrency)?)
    } else {
        None
    };
    let concurrency = affinity.as_ref().map_or(c.concurrency, Vec::len);
    let sequence = Sequence::new(book.entries.len(), c.order, seed, c.start - 1);
    let mut fp = BTreeMap::new();
    for (i, e) in engines.iter().enumerate() {
        fp.insert(format!("engine{i}"), serde_json::to_string(e)?);
    }
    fp.insert("pairings".into(), format!("{pairings:?}"));
    fp.insert("settings".into(), serde_json::to_string(&settings)?);
    fp.insert(
        "book".into(),
        format!("{} ({} openings)", book.path.display(), book.entries.len()),
    );
    fp.insert("order".into(), c.order.to_string());
    fp.insert("seed".into(), seed.to_string());
    fp.insert("start".into(), c.start.to_string());
    fp.insert(
        "sprt".into(),
        sprt.map(|s| serde_json::to_string(&s).unwrap_or_default())
            .unwrap_or_default(),
    );
    Ok(Plan {
        engines,
        pairings,
        total_pairs,
        sprt,
        book,
        sequence,
        seed,
        settings,
        concurrency,
        affinity,
        fingerprint: fp,
        tc_text,
        rating_interval: c.rating_interval,
        event: c.event.clone().unwrap_or_else(|| event.to_string()),
        pgn: c.pgn.clone(),
        epdout: c.epdout.clone(),
        state: c.state.clone(),
        json: c.json.clone(),
        plot: c.plot.clone(),
        record: Meta {
            max_games: Some(total_pairs.saturating_mul(2)),
            ..Meta::new(&c.db, kind_of(event))
        },
    })
}

/// `--affinity`: the CPUs of each game slot, as many per engine as the most `Threads` any
/// engine is given; the concurrency is cut to the slots that fit, with a warning.
pub(crate) fn affinity_slots(
    engines: &[EngineConfig],
    concurrency: usize,
) -> anyhow::Result<Vec<crate::affinity::SlotCpus>> {
    let threads = |e: &EngineConfig| {
        (e.options.iter().chain(&e.shared_options))
            .filter(|(n, _)| n.eq_ignore_ascii_case("Threads"))
            .filter_map(|(_, v)| v.trim().parse::<usize>().ok())
            .max()
            .unwrap_or(1)
    };
    let per_engine = engines.iter().map(threads).max().unwrap_or(1);
    let cpus = crate::affinity::available()
        .map_err(|e| anyhow::anyhow!("--affinity: the CPUs arena may use are unknown: {e}"))?;
    let slots =
        crate::affinity::slots(&cpus, concurrency, per_engine).map_err(anyhow::Error::msg)?;
    if slots.len() < concurrency {
        eprintln!(
            "arena: --affinity: {} CPUs ({}) hold {} games of {per_engine}-thread engines at \
             once; --concurrency {concurrency} is lowered to {}",
            cpus.len(),
            crate::affinity::list(&cpus),
            slots.len(),
            slots.len()
        );
    }
    Ok(slots)
}

/// The database's kind of a run from its default event name.
fn kind_of(event: &str) -> &'static str {
    match event {
        "arena sprt" => "sprt",
        "arena match" => "match",
        "arena gauntlet" => "gauntlet",
        e if e.starts_with("arena ablate") => "ablate-row",
        _ => "match",
    }
}

/// Where an engine built from `r` came from: the ref, its commit and the `Bench: N` of the
/// commit's message (OpenBench's rule).
fn provenance(repo: &Path, r: &Option<String>) -> (Option<String>, Option<String>, Option<u64>) {
    let Some(r) = r else {
        return (None, None, None);
    };
    let sha = refs::resolve(repo, r).ok();
    let bench = sha.as_deref().and_then(|sha| {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(["log", "-1", "--format=%B", sha])
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .rev()
            .find_map(|l| l.trim().strip_prefix("Bench:")?.trim().parse().ok())
    });
    (Some(r.clone()), sha, bench)
}

/// OpenBench's rule: the `Bench: N` of the ref's tip commit message is its signature. Where
/// the binary answers `bench` with another node count, the ref is refused before any game (as
/// OpenBench's client refuses a wrong bench), unless `allow` is set: then it is a warning.
fn check_bench(repo: &Path, r: &str, sha: &str, bin: &Path, allow: bool) -> anyhow::Result<()> {
    let (_, _, claimed) = provenance(repo, &Some(r.to_string()));
    let Some(claimed) = claimed else {
        eprintln!(
            "arena: note: ref {r} ({}) has no `Bench: N` in its commit message",
            &sha[..12]
        );
        return Ok(());
    };
    match crate::db::recorder::run_bench(bin, std::time::Duration::from_secs(120)) {
        Some(n) if n == claimed => {
            eprintln!("arena: ref {r}: bench {n} matches its commit message")
        }
        Some(n) => {
            let what = format!(
                "ref {r} ({}): its commit message says Bench: {claimed}, its binary's bench \
                 gives {n}",
                &sha[..12]
            );
            if !allow {
                bail!(
                    "{what}; the signature is wrong or the build is not the commit's (OpenBench \
                     refuses such a test too). Amend the message, or pass \
                     --allow-bench-mismatch to play it anyway"
                );
            }
            eprintln!("arena: warning: {what} (played: --allow-bench-mismatch)")
        }
        None => eprintln!(
            "arena: note: ref {r}: the binary does not answer `bench`; Bench: {claimed} from its \
             commit message is not checked"
        ),
    }
    Ok(())
}

/// A display name from a ref: `/` and other unsafe characters become `-`.
fn ref_name(r: &str) -> String {
    r.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// One side of an SPRT: its command (built from a ref if need be) and default name.
fn side(
    which: &str,
    cmd: &Option<String>,
    r: &Option<String>,
    repo: &Path,
    cache: &Path,
    how: &refs::BuildCmd,
    allow_mismatch: bool,
) -> anyhow::Result<(String, String)> {
    match (cmd, r) {
        (Some(cmd), None) => Ok((cmd.clone(), default_name(cmd))),
        (None, Some(r)) => {
            let (sha, bin) = refs::build_with(repo, cache, r, how)?;
            check_bench(repo, r, &sha, &bin, allow_mismatch)?;
            Ok((bin.to_string_lossy().into_owned(), ref_name(r)))
        }
        _ => bail!("give exactly one of --{which}-cmd and --{which}-ref"),
    }
}

/// Outcome as a process exit code: 0 done, 130 interrupted.
fn exit_code(e: Ending) -> i32 {
    match e {
        Ending::Interrupted => 130,
        _ => 0,
    }
}

/// An SPRT's game cap must leave room for one pair.
pub fn validate_sprt_cap(max_games: u64) -> anyhow::Result<()> {
    if max_games < 2 {
        bail!("the game cap must be at least 2 (one pair), not {max_games}");
    }
    Ok(())
}

/// `--dry-run`: prints the plan and plays nothing.
fn dry_run(plan: &Plan) -> anyhow::Result<i32> {
    println!("{}", serde_json::to_string_pretty(&plan.to_json())?);
    Ok(0)
}

/// Runs `arena sprt`; returns the process exit code.
pub fn run_sprt(a: &SprtArgs) -> anyhow::Result<i32> {
    let sprt = a.bounds.config()?;
    validate_sprt_cap(a.max_games)?;
    // Validate everything cheap before building any ref.
    settings(&a.common)?;
    let common = parse_options(&a.common.options)?;
    let dev_opts = parse_options(&a.dev_options)?;
    let base_opts = parse_options(&a.base_options)?;
    if let Some(p) = &a.common.openings {
        if !p.is_file() {
            bail!(
                "opening book {} {}",
                p.display(),
                crate::book::not_a_file(p)
            );
        }
    }
    let (repo, cache, how) = if a.dev_ref.is_some() || a.base_ref.is_some() {
        let start = match &a.repo {
            Some(r) => r.clone(),
            None => std::env::current_dir()?,
        };
        let repo = refs::toplevel(&start)?;
        // Resolve both refs first so a bad one fails before any build.
        for r in [&a.dev_ref, &a.base_ref].into_iter().flatten() {
            refs::resolve(&repo, r)?;
        }
        let cache = a
            .build_cache
            .clone()
            .unwrap_or_else(|| refs::default_cache(&repo));
        let how = refs::BuildCmd::for_repo(&repo, a.build.as_deref());
        (repo, cache, how)
    } else {
        if a.build.is_some() {
            bail!("--build builds a --dev-ref or --base-ref; give one");
        }
        (PathBuf::from("."), PathBuf::from("."), refs::BuildCmd::Clio)
    };
    let (dev_cmd, mut dev_name) = side(
        "dev",
        &a.dev_cmd,
        &a.dev_ref,
        &repo,
        &cache,
        &how,
        a.allow_bench_mismatch,
    )?;
    let (base_cmd, mut base_name) = side(
        "base",
        &a.base_cmd,
        &a.base_ref,
        &repo,
        &cache,
        &how,
        a.allow_bench_mismatch,
    )?;
    if dev_name == base_name {
        dev_name = format!("{dev_name}-dev");
        base_name = format!("{base_name}-base");
    }
    let dev_name = a.dev_name.clone().unwrap_or(dev_name);
    let base_name = a.base_name.clone().unwrap_or(base_name);
    check_name(&dev_name)?;
    check_name(&base_name)?;
    let dev = EngineConfig {
        name: dev_name,
        cmd: dev_cmd,
        args: a.dev_args.clone(),
        dir: None,
        options: common.iter().cloned().chain(dev_opts).collect(),
        shared_options: Vec::new(),
        cpus: None,
    };
    let base = EngineConfig {
        name: base_name,
        cmd: base_cmd,
        args: a.base_args.clone(),
        dir: None,
        options: common.into_iter().chain(base_opts).collect(),
        shared_options: Vec::new(),
        cpus: None,
    };
    let mut plan = plan(
        &a.common,
        vec![dev, base],
        vec![(0, 1)],
        a.max_games.div_ceil(2),
        Some(sprt),
        "arena sprt",
    )?;
    plan.record.refs = vec![
        provenance(&repo, &a.dev_ref),
        provenance(&repo, &a.base_ref),
    ];
    if a.common.dry_run {
        return dry_run(&plan);
    }
    let (_, ending) = run(&plan)?;
    Ok(exit_code(ending))
}

/// Runs `arena match` (round robin) or, with `gauntlet`, `arena gauntlet`.
pub fn run_match(a: &MatchArgs, gauntlet: bool) -> anyhow::Result<i32> {
    let common = parse_options(&a.common.options)?;
    let mut engines = Vec::new();
    let groups = if a.engines.is_empty() {
        vec![a.engine_words.clone()]
    } else {
        a.engines.clone()
    };
    for spec in &groups {
        let mut cfg = parse_engine_spec(spec)?;
        cfg.shared_options = common.clone();
        engines.push(cfg);
    }
    if engines.len() < 2 {
        bail!("give at least two --engine");
    }
    let pairings: Vec<(usize, usize)> = if gauntlet {
        (1..engines.len()).map(|j| (0, j)).collect()
    } else {
        (0..engines.len())
            .flat_map(|i| (i + 1..engines.len()).map(move |j| (i, j)))
            .collect()
    };
    let rounds = match (a.rounds, a.games) {
        (Some(r), _) => r,
        (None, Some(g)) => g.div_ceil(2),
        (None, None) => 1,
    };
    if rounds == 0 {
        bail!("--rounds/--games must be positive");
    }
    let total = rounds
        .checked_mul(pairings.len() as u64)
        .context("too many games")?;
    let event = if gauntlet {
        "arena gauntlet"
    } else {
        "arena match"
    };
    let plan = plan(&a.common, engines, pairings, total, None, event)?;
    if a.common.dry_run {
        return dry_run(&plan);
    }
    let (_, ending) = run(&plan)?;
    Ok(exit_code(ending))
}
