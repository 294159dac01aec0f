//! The runner's link to the database: a row when the run starts, its figures and a chart
//! point after every counted pair, its verdict at the end.
//!
//! Recording never costs a game: a database that cannot be opened or written is one warning,
//! then the run goes on unrecorded (the PGN, the state and the results are written as
//! always). A resumed run (same state file, same settings) continues its row.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::record::{self, hostname, pid_start, EncounterRow, IterationRow, PointRow};
use super::{now, Db, DbArgs, DbError, RunRow};
use crate::snapshot::Snapshot;
use crate::state::{State, Tally};

/// What a command knows about its run beyond the plan: set by `sprt`, `match`, `gauntlet`,
/// `ablate` and `spsa` before the run starts.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// The database, `None` with `--no-db`.
    pub db: Option<PathBuf>,
    /// Whether `db` is the default one (seeded from the committed export when new).
    pub default_db: bool,
    /// sprt, match, gauntlet, ablate-row, ablate or spsa.
    pub kind: String,
    /// The run's name (`--run-name`), else made from the engines' names.
    pub name: Option<String>,
    /// The parent run (an ablation's rows).
    pub parent_uid: Option<String>,
    /// Git ref and commit of each engine, by engine index, where built from a ref.
    pub refs: Vec<(Option<String>, Option<String>, Option<u64>)>,
    /// The run's game cap.
    pub max_games: Option<u64>,
    /// Kind-specific details.
    pub extra: Option<Value>,
}

impl Meta {
    /// The metadata of a run of `kind` recorded as `args` says.
    pub fn new(args: &DbArgs, kind: &str) -> Meta {
        Meta {
            db: args.path(),
            default_db: args.db.is_none(),
            kind: kind.to_string(),
            name: args.run_name.clone(),
            ..Meta::default()
        }
    }
}

/// The command line of this process, quoted as a shell would need it.
pub fn command_line() -> String {
    let args: Vec<String> = std::env::args().collect();
    shell_words::join(args)
}

/// An absolute path as text (relative to the current directory).
pub fn abs(p: &Path) -> String {
    std::path::absolute(p)
        .unwrap_or_else(|_| p.to_path_buf())
        .to_string_lossy()
        .into_owned()
}

/// A fresh run id: time, pid and a random tail.
fn new_uid() -> String {
    format!(
        "{}-{}-{:08x}",
        now().replace([':', '-'], ""),
        std::process::id(),
        rand::random::<u32>()
    )
}

/// Figures of a tally, written into `row`.
pub fn set_figures(row: &mut RunRow, snap: &Snapshot) {
    let t = snap.tally;
    row.games = t.games() as i64;
    row.wins = t.wins as i64;
    row.draws = t.draws as i64;
    row.losses = t.losses as i64;
    row.penta = Some(t.penta.iter().map(|&n| n as i64).collect());
    let e = snap.estimate;
    row.elo = e.elo;
    row.elo_error = e.elo_error;
    row.nelo = e.nelo;
    row.nelo_error = e.nelo_error;
    row.los = e.los;
    row.draw_ratio = e.draw_ratio;
    row.score = e.score;
    if let Some((cfg, status)) = snap.sprt {
        row.llr = Some(status.llr);
        row.lower = Some(status.lower);
        row.upper = Some(status.upper);
        row.elo0 = Some(cfg.elo0);
        row.elo1 = Some(cfg.elo1);
        row.alpha = Some(cfg.alpha);
        row.beta = Some(cfg.beta);
        row.model = serde_json::to_value(cfg.model)
            .ok()
            .and_then(|v| v.as_str().map(String::from));
    }
}

/// One encounter's row for a multi-engine run.
pub fn encounter(first: &str, second: &str, t: &Tally) -> EncounterRow {
    let snap = Snapshot::new(*t, None);
    EncounterRow {
        first: first.into(),
        second: second.into(),
        games: t.games() as i64,
        wins: t.wins as i64,
        draws: t.draws as i64,
        losses: t.losses as i64,
        penta: t.penta.iter().map(|&n| n as i64).collect(),
        elo: snap.estimate.elo,
        elo_error: snap.estimate.elo_error,
        score: snap.estimate.score,
    }
}

/// Records one run.
pub struct Recorder {
    /// The database, until a write fails.
    db: Option<Db>,
    /// The row as last written.
    pub row: RunRow,
    /// Time spent writing pairs, and how many.
    spent: std::time::Duration,
    pairs: u32,
}

impl Recorder {
    /// A recorder that records nothing.
    pub fn off() -> Recorder {
        Recorder {
            db: None,
            row: RunRow::default(),
            spent: std::time::Duration::ZERO,
            pairs: 0,
        }
    }

    /// Opens the database of `meta` and writes the run's first row (or finds the row of the
    /// run this one resumes: same kind, state file and settings). Any failure is a warning
    /// and a recorder that records nothing.
    pub fn start(meta: &Meta, mut row: RunRow) -> Recorder {
        let Some(path) = &meta.db else {
            return Recorder::off();
        };
        let args = DbArgs {
            db: (!meta.default_db).then(|| path.clone()),
            no_db: false,
            run_name: None,
        };
        let opened = if meta.default_db {
            Db::open_args(&args).map(|d| d.expect("a database path was given"))
        } else {
            Db::open(path)
        };
        let mut db = match opened {
            Ok(db) => db,
            Err(e) => {
                warn(&e);
                return Recorder::off();
            }
        };
        row.kind = meta.kind.clone();
        row.parent_uid = meta.parent_uid.clone();
        row.source = "arena".into();
        row.status = "running".into();
        row.host = Some(hostname());
        row.pid = Some(i64::from(std::process::id()));
        row.pid_start = pid_start(std::process::id());
        row.command = Some(command_line());
        row.cwd = std::env::current_dir().ok().map(|d| abs(&d));
        row.max_games = meta.max_games.map(|g| g as i64);
        if row.extra.is_none() {
            row.extra = meta.extra.clone();
        }
        for (e, (r, c, b)) in row.engines.iter_mut().zip(&meta.refs) {
            e.git_ref = r.clone();
            e.git_commit = c.clone();
            e.bench = e.bench.or(*b);
        }
        if std::env::var_os("ARENA_NO_BENCH").is_none() {
            for e in &mut row.engines {
                if e.bench.is_none() {
                    e.bench = bench_of(&mut db, &e.cmd);
                }
            }
        }
        let now = now();
        row.updated_at = Some(now.clone());
        let resumed = match previous(&db, &row) {
            Ok(p) => p,
            Err(e) => {
                warn(&e);
                return Recorder::off();
            }
        };
        if let Some(prev) = resumed {
            row.uid = prev.uid;
            row.started_at = prev.started_at;
            row.name = prev.name;
            if row.extra.is_none() {
                row.extra = prev.extra;
            }
        } else {
            row.uid = new_uid();
            row.started_at = Some(now);
        }
        if let Some(name) = &meta.name {
            row.name = name.clone();
        }
        let mut rec = Recorder {
            db: Some(db),
            row,
            ..Recorder::off()
        };
        rec.write(&[], true);
        rec
    }

    /// Whether the run is being recorded.
    pub fn active(&self) -> bool {
        self.db.is_some()
    }

    /// The row's database id.
    pub fn id(&self) -> Option<i64> {
        self.row.id
    }

    /// Writes the row and `points`; with `trim`, drops points beyond the row's games (a
    /// resumed run's state is the truth).
    pub fn write(&mut self, points: &[PointRow], trim: bool) {
        self.write_with(points, &[], trim);
    }

    /// Writes the row, `points` and SPSA `iterations`.
    pub fn write_with(&mut self, points: &[PointRow], iterations: &[IterationRow], trim: bool) {
        let Some(db) = self.db.as_mut() else { return };
        self.row.updated_at = Some(now());
        let row = &self.row;
        let result = db.write(|tx| {
            let id = record::upsert(tx, row)?;
            if trim {
                tx.execute(
                    "DELETE FROM points WHERE run_id = ?1 AND games > ?2",
                    rusqlite::params![id, row.games],
                )?;
            }
            for p in points {
                record::put_point(tx, id, p)?;
            }
            for it in iterations {
                record::put_iteration(tx, id, it)?;
            }
            Ok(id)
        });
        match result {
            Ok(id) => self.row.id = Some(id),
            Err(e) => {
                warn(&e);
                self.db = None;
            }
        }
    }

    /// After a counted pair: the figures of `snap` and its chart point.
    pub fn pair(&mut self, snap: &Snapshot, st: &State) {
        if self.db.is_none() {
            return;
        }
        let t0 = std::time::Instant::now();
        set_figures(&mut self.row, snap);
        self.row.pgn_bytes = st.pgn_bytes.map(|b| b as i64);
        self.row.elapsed_s = Some(st.elapsed_s);
        self.row.failures = serde_json::to_value(&st.failures).ok();
        let p = snap.point();
        let point = PointRow {
            games: p.games as i64,
            llr: snap.sprt.map(|(_, s)| s.llr),
            elo: p.elo,
            elo_error: p.elo_error,
        };
        self.write(&[point], false);
        self.spent += t0.elapsed();
        self.pairs += 1;
    }

    /// Forgets the time spent so far (the first row's write is not a pair's).
    pub fn reset_cost(&mut self) {
        self.spent = std::time::Duration::ZERO;
        self.pairs = 0;
    }

    /// The run ended with `status` (H0, H1, complete or stopped).
    pub fn finish(&mut self, status: &str) {
        if self.db.is_none() {
            return;
        }
        self.row.status = status.to_string();
        self.row.ended_at = Some(now());
        self.row.pid = None;
        self.write(&[], false);
        if let Some(id) = self.row.id {
            let cost = if self.pairs > 0 {
                format!(
                    "; recording took {:.2} ms a pair over {} pairs",
                    self.spent.as_secs_f64() * 1e3 / f64::from(self.pairs),
                    self.pairs
                )
            } else {
                String::new()
            };
            eprintln!(
                "arena: recorded as run {id} in {} (`arena results show {id}`){cost}",
                self.db
                    .as_ref()
                    .map_or(String::new(), |d| d.path.display().to_string())
            );
        }
    }
}

/// Says once why the run is not recorded.
fn warn(e: &DbError) {
    eprintln!(
        "arena: warning: {e}; this run is not recorded in the database (games, state and \
         results are written as usual)"
    );
}

/// The row a resumed run continues: the newest of the same kind with the same state file and
/// settings.
fn previous(db: &Db, row: &RunRow) -> Result<Option<RunRow>, DbError> {
    let Some(state) = &row.state_path else {
        return Ok(None);
    };
    let uid: Option<String> = db
        .conn
        .query_row(
            "SELECT uid FROM runs WHERE kind = ?1 AND state_path = ?2 AND fingerprint IS ?3 \
             AND source = 'arena' ORDER BY id DESC LIMIT 1",
            rusqlite::params![row.kind, state, row.fingerprint],
            |r| r.get(0),
        )
        .map(Some)
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            e => Err(e),
        })
        .map_err(db.err())?;
    match uid {
        Some(u) => db.run(&u),
        None => Ok(None),
    }
}

/// The bench signature `cmd bench` prints, cached by the binary's path, size and mtime;
/// `None` when the engine has no bench command (or takes longer than 20 s).
fn bench_of(db: &mut Db, cmd: &str) -> Option<u64> {
    let path = std::fs::canonicalize(cmd).ok()?;
    let meta = std::fs::metadata(&path).ok()?;
    let mtime = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs() as i64;
    let key = (
        path.to_string_lossy().into_owned(),
        meta.len() as i64,
        mtime,
    );
    let cached: Option<Option<i64>> = db
        .conn
        .query_row(
            "SELECT bench FROM bench_cache WHERE path = ?1 AND size = ?2 AND mtime = ?3",
            rusqlite::params![key.0, key.1, key.2],
            |r| r.get(0),
        )
        .ok();
    if let Some(b) = cached {
        return b.map(|n| n as u64);
    }
    let bench = run_bench(&path, Duration::from_secs(20));
    let _ = db.conn.execute(
        "INSERT OR REPLACE INTO bench_cache (path, size, mtime, bench) VALUES (?1, ?2, ?3, ?4)",
        rusqlite::params![key.0, key.1, key.2, bench.map(|n| n as i64)],
    );
    bench
}

/// Runs `bin bench` with no input and reads the node count it ends with.
pub fn run_bench(bin: &Path, limit: Duration) -> Option<u64> {
    let mut child = Command::new(bin)
        .arg("bench")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() < limit => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let out = child.wait_with_output().ok()?;
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    bench_nodes(&text)
}

/// The node count of a bench report: the last line that names nodes (`589642 nodes 1260000
/// nps`, `Nodes searched  : 589642`, `Bench: 589642`).
pub fn bench_nodes(text: &str) -> Option<u64> {
    text.lines().rev().find_map(|line| {
        let lower = line.to_ascii_lowercase();
        if !(lower.contains("nodes") || lower.starts_with("bench")) {
            return None;
        }
        let words: Vec<&str> = lower
            .split(|c: char| c.is_whitespace() || c == ':' || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        // The number right before "nodes", else right after it, else after "bench".
        let at = words.iter().position(|w| *w == "nodes" || *w == "bench")?;
        let before = at.checked_sub(1).and_then(|i| words[i].parse().ok());
        before.or_else(|| words[at + 1..].iter().find_map(|w| w.parse().ok()))
    })
}

/// The details of a run kind that has several encounters.
pub fn encounters_extra(list: &[EncounterRow]) -> Value {
    json!({ "encounters": list })
}

#[cfg(test)]
mod tests {
    use super::bench_nodes;

    #[test]
    fn bench_lines_of_several_engines() {
        // Clio, Stockfish 15.1 (stderr) and an OpenBench-style `Bench: N` line.
        assert_eq!(bench_nodes("589642 nodes 1262000 nps"), Some(589_642));
        let sf = "===========================\nTotal time (ms) : 1880\nNodes searched  : 3247094\nNodes/second    : 1727177";
        assert_eq!(bench_nodes(sf), Some(3_247_094));
        assert_eq!(bench_nodes("Bench: 123456"), Some(123_456));
        assert_eq!(bench_nodes("id name tiny\nuciok"), None);
    }
}
