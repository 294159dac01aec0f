//! The results database, driven through the real binary: a run's recorded figures are the ones
//! its Results block printed; a SIGKILLed run shows as stopped and its resume continues the same
//! row; two processes record into one database at once; a truncated database is a clear error
//! while the games still reach the PGN; a database of the first schema is migrated; deleted runs
//! leave the database and the export, and a run still playing is not deleted.

mod runner_common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use runner_common::*;
use serde_json::Value;

/// An `arena sprt` of Clio against Clio with its history heuristic off, at a node limit, into
/// the database `db`, with `extra` flags.
fn sprt(clio: &str, db: &Path, extra: &[&str]) -> Command {
    let mut c = arena();
    c.args(["sprt", "--dev-cmd", clio, "--base-cmd", clio])
        .args(["--dev-name", "dev", "--base-name", "base"])
        .args(["--base-option", "UseHistory=false"])
        .args(["--nodes", "1000", "--concurrency", "1", "--seed", "3"])
        .args(["--elo0", "0", "--elo1", "10", "--rating-interval", "0"])
        .arg("--openings")
        .arg(root().join("openings/clio-balanced.epd"))
        .arg("--db")
        .arg(db)
        .args(extra);
    c
}

/// `arena results --format json` of `db`: every run, newest first.
fn listed(db: &Path, filter: &[&str]) -> Vec<Value> {
    let out = arena()
        .args(["results", "--format", "json", "--limit", "1000"])
        .arg("--db")
        .arg(db)
        .args(filter)
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    serde_json::from_str::<Value>(&o)
        .unwrap_or_else(|err| panic!("{err}: {o}"))
        .as_array()
        .unwrap()
        .clone()
}

/// `arena results ARGS --db DB`, run to the end.
fn results<S: AsRef<OsStr>>(db: &Path, args: &[S]) -> std::process::Output {
    arena()
        .arg("results")
        .args(args)
        .arg("--db")
        .arg(db)
        .output()
        .unwrap()
}

fn num(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or_else(|| panic!("no {k} in {v}"))
}

/// The `Elo: X +/- Y` figures of the last results block.
fn elo_line(stdout: &str) -> (String, String) {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("Elo: "))
        .unwrap();
    let w: Vec<&str> = line.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    (w[1].to_string(), w[3].to_string())
}

/// The LLR of the last `LLR:` line, as printed.
fn llr_line(stdout: &str) -> String {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("LLR: "))
        .unwrap();
    line.split(' ').nth(1).unwrap().to_string()
}

fn pgn_games(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .matches("[Result \"")
        .count()
}

#[test]
fn a_recorded_run_has_the_figures_its_results_block_printed() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("db-figures");
    let db = dir.join("r.sqlite");
    let pgn = dir.join("g.pgn");
    let out = sprt(&clio, &db, &["--max-games", "16", "--run-name", "figures"])
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    assert!(e.contains("arena: recorded as run 1 in "), "{e}");
    let (games, w, l, d) = games_line(&o);
    let runs = listed(&db, &[]);
    assert_eq!(runs.len(), 1, "{runs:?}");
    let r = &runs[0];
    assert_eq!(r["name"], "figures");
    assert_eq!(r["kind"], "sprt");
    assert_eq!(
        r["status"], "stopped",
        "max games reached without a decision"
    );
    assert_eq!(
        (
            num(r, "games"),
            num(r, "wins"),
            num(r, "losses"),
            num(r, "draws")
        ),
        (games, w, l, d)
    );
    assert_eq!(r["penta"], serde_json::json!(ptnml(&o)));
    let (elo, err) = elo_line(&o);
    assert_eq!(format!("{:.2}", r["elo"].as_f64().unwrap()), elo);
    assert_eq!(format!("{:.2}", r["elo_error"].as_f64().unwrap()), err);
    assert_eq!(format!("{:.2}", r["llr"].as_f64().unwrap()), llr_line(&o));
    assert_eq!(r["tc"], "1000 nodes");
    assert_eq!(
        r["engines"][1]["options"],
        serde_json::json!([["UseHistory", "false"]]),
        "{r}"
    );
    assert!(r["command"].as_str().unwrap().contains("--nodes 1000"));
    assert_eq!(num(r, "pgn_bytes"), std::fs::metadata(&pgn).unwrap().len());
    // The table and the Markdown export name the same figures.
    let table = arena()
        .args(["results", "--format", "markdown", "--name", "figur"])
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    let (t, _) = texts(&table);
    assert!(t.contains(&format!("{elo} ± {err}")), "{t}");
    assert!(t.lines().any(|l| l.starts_with("| 1 ")), "{t}");
    let show = arena()
        .args(["results", "show", "1"])
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    let (s, e) = texts(&show);
    assert!(show.status.success(), "{e}");
    assert!(
        s.contains(&format!("games        {games} (W {w} D {d} L {l})")),
        "{s}"
    );
    // Filters: nothing matches another kind or a name that is not there.
    assert!(listed(&db, &["--kind", "gauntlet"]).is_empty());
    assert!(listed(&db, &["--name", "nosuch"]).is_empty());
    assert_eq!(listed(&db, &["--option", "UseHistory"]).len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `pairs done` of a state file, 0 while it is absent or being replaced.
fn state_pairs(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| serde_json::from_str::<Value>(&s).ok())
        .and_then(|v| v["done"].as_array().map(Vec::len))
        .unwrap_or(0)
}

#[test]
fn a_killed_run_shows_as_stopped_and_its_resume_continues_the_same_row() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("db-kill");
    let db = dir.join("r.sqlite");
    let state = dir.join("state.json");
    let flags = |c: &mut Command| {
        c.arg("--state")
            .arg(&state)
            .arg("--pgn")
            .arg(dir.join("g.pgn"))
            .args(["--max-games", "12"]);
    };
    let mut first = sprt(&clio, &db, &[]);
    flags(&mut first);
    let mut child = first
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while state_pairs(&state) < 2 {
        assert!(t0.elapsed() < Duration::from_secs(120), "no pairs played");
        assert!(child.try_wait().unwrap().is_none(), "arena ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL, mid-pair most likely
    child.wait().unwrap();
    let runs = listed(&db, &[]);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0]["status"], "stopped", "a dead run is not running");
    let killed_games = num(&runs[0], "games");
    assert!(killed_games >= 4, "{}", runs[0]);

    let mut again = sprt(&clio, &db, &[]);
    flags(&mut again);
    let out = again.output().unwrap();
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    assert!(format!("{o}{e}").contains("arena: resuming"), "{o}\n{e}");
    let (games, w, l, d) = games_line(&o);
    assert_eq!(games, 12);
    let runs = listed(&db, &[]);
    assert_eq!(runs.len(), 1, "the resume continues the same row: {runs:?}");
    let r = &runs[0];
    assert_eq!(
        (
            num(r, "games"),
            num(r, "wins"),
            num(r, "losses"),
            num(r, "draws")
        ),
        (games, w, l, d)
    );
    assert_eq!(r["penta"], serde_json::json!(ptnml(&o)));
    assert!(pgn_games(&dir.join("g.pgn")) >= 12);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_runs_record_into_one_database_at_once() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("db-concurrent");
    let db = dir.join("r.sqlite");
    let children: Vec<_> = ["left", "right"]
        .iter()
        .map(|name| {
            sprt(&clio, &db, &["--max-games", "20", "--run-name", name])
                .arg("--pgn")
                .arg(dir.join(format!("{name}.pgn")))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut printed = Vec::new();
    for c in children {
        let out = c.wait_with_output().unwrap();
        let (o, e) = texts(&out);
        assert!(out.status.success(), "{o}\n{e}");
        assert!(!e.contains("database"), "no database trouble: {e}");
        printed.push(games_line(&o));
    }
    let runs = listed(&db, &[]);
    assert_eq!(runs.len(), 2, "{runs:?}");
    for (name, p) in ["left", "right"].iter().zip(&printed) {
        let r = runs.iter().find(|r| r["name"] == *name).unwrap();
        assert_eq!(
            (
                num(r, "games"),
                num(r, "wins"),
                num(r, "losses"),
                num(r, "draws")
            ),
            *p
        );
        assert_eq!(r["status"], "stopped");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_truncated_database_is_a_clear_error_and_the_games_still_reach_the_pgn() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("db-truncated");
    let db = dir.join("r.sqlite");
    // A real database, with a run, cut to its first 1,500 bytes.
    let out = sprt(&clio, &db, &["--max-games", "2", "--no-db"]).output();
    assert!(out.is_ok());
    let ok = sprt(&clio, &db, &["--max-games", "2"]).output().unwrap();
    assert!(ok.status.success(), "{:?}", texts(&ok));
    // Fold the write-ahead log in, so the main file holds the run, then truncate it.
    for side in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(PathBuf::from(format!("{}{side}", db.display())));
    }
    let bytes = std::fs::read(&db).unwrap();
    std::fs::write(&db, &bytes[..bytes.len().min(1500)]).unwrap();
    let pgn = dir.join("g.pgn");
    let out = sprt(&clio, &db, &["--max-games", "4"])
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    assert!(e.contains(&db.display().to_string()), "names the file: {e}");
    assert!(!e.contains("panicked"), "{e}");
    assert_eq!(games_line(&o).0, 4);
    assert_eq!(pgn_games(&pgn), 4, "the games still go to the PGN");
    let list = arena()
        .args(["results"])
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    let (_, le) = texts(&list);
    assert!(!list.status.success());
    assert!(le.contains(&db.display().to_string()), "{le}");
    assert!(!le.contains("panicked"), "{le}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_that_is_not_a_database_is_refused_by_name() {
    let dir = scratch("db-garbage");
    let db = dir.join("notes.sqlite");
    std::fs::write(&db, "these are my notes, not a database\n".repeat(200)).unwrap();
    let out = arena()
        .args(["results"])
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(!out.status.success(), "{o}");
    assert!(e.contains("notes.sqlite"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    // Nothing was written over it.
    assert!(std::fs::read_to_string(&db)
        .unwrap()
        .starts_with("these are my notes"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_database_of_the_first_schema_is_migrated_with_its_runs() {
    let dir = scratch("db-migrate");
    let db = dir.join("v1.sqlite");
    {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute_batch(clio_arena::db::schema::V1).unwrap();
        c.execute_batch(
            "INSERT INTO runs (uid, name, kind, status, started_at, updated_at, source, games,
                               wins, draws, losses, engines)
             VALUES ('old-1', 'from the first schema', 'sprt', 'H1', '2026-11-01T00:00:00Z',
                     '2026-11-01T00:00:00Z', 'arena', 10, 5, 3, 2, '[]');
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let runs = listed(&db, &[]);
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_eq!(runs[0]["name"], "from the first schema");
    assert_eq!(num(&runs[0], "games"), 10);
    let c = rusqlite::Connection::open(&db).unwrap();
    let v: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, clio_arena::db::schema::VERSION);
    // A database from a newer arena is refused, not rewritten.
    c.execute_batch("PRAGMA user_version = 99").unwrap();
    drop(c);
    let out = arena()
        .args(["results"])
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    let (_, e) = texts(&out);
    assert!(!out.status.success());
    assert!(e.contains("v1.sqlite") && e.contains("99"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_export_imports_back_to_the_same_listing() {
    let dir = scratch("db-export");
    let db = dir.join("r.sqlite");
    let export = root().join("results/runs.jsonl");
    let out = results(&db, &[OsStr::new("import"), export.as_os_str()]);
    assert!(out.status.success(), "{:?}", texts(&out));
    let back = dir.join("back.jsonl");
    let out = results(&db, &[OsStr::new("export"), back.as_os_str()]);
    assert!(out.status.success(), "{:?}", texts(&out));
    let (a, b) = (
        std::fs::read_to_string(&export).unwrap(),
        std::fs::read_to_string(&back).unwrap(),
    );
    assert_eq!(a.lines().count(), b.lines().count());
    for (x, y) in a.lines().zip(b.lines()) {
        assert!(x == y, "export → import → export changed a line:\n{x}\n{y}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The uids of the runs listed in `db`.
fn uids(db: &Path) -> Vec<String> {
    listed(db, &[])
        .iter()
        .map(|r| r["uid"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn deleted_runs_leave_the_database_and_the_export_with_their_ablation_rows() {
    let dir = scratch("db-delete");
    let db = dir.join("r.sqlite");
    let export = root().join("results/runs.jsonl");
    let out = results(&db, &[OsStr::new("import"), export.as_os_str()]);
    assert!(out.status.success(), "{:?}", texts(&out));
    let runs = listed(&db, &[]);
    let before = runs.len();
    // An ablation table (its rows name it as parent) and an SPRT without children.
    let parent_of = |r: &Value| r["parent_uid"].as_str().map(str::to_string);
    let table = runs
        .iter()
        .find(|r| {
            r["kind"] == "ablate"
                && runs
                    .iter()
                    .any(|c| parent_of(c).as_deref() == r["uid"].as_str())
        })
        .expect("the committed export has an ablation with rows");
    let rows = runs
        .iter()
        .filter(|c| parent_of(c).as_deref() == table["uid"].as_str())
        .count();
    let sprt = runs
        .iter()
        .find(|r| r["kind"] == "sprt" && r["status"] != "running")
        .unwrap();
    let (table_id, sprt_uid) = (num(table, "id").to_string(), sprt["uid"].as_str().unwrap());

    // One id that is not there: refused by name, nothing removed.
    let out = results(&db, &["delete", &table_id, "999999"]);
    let (_, e) = texts(&out);
    assert!(!out.status.success());
    assert!(
        e.contains("no run \"999999\"") && e.contains("nothing was deleted"),
        "{e}"
    );
    assert_eq!(listed(&db, &[]).len(), before);

    // By id and by uid.
    let out = results(&db, &["delete", &table_id, sprt_uid]);
    let (_, e) = texts(&out);
    assert!(out.status.success(), "{e}");
    assert!(
        e.contains(&format!("{} runs deleted from", rows + 2)),
        "{e}"
    );
    let left = uids(&db);
    assert_eq!(left.len(), before - rows - 2);
    assert!(!left.iter().any(|u| u == sprt_uid));
    assert!(!left
        .iter()
        .any(|u| Some(u.as_str()) == table["uid"].as_str()));
    let show = results(&db, &["show", &table_id]);
    assert!(!show.status.success());
    // The export written afterwards has exactly the runs left, and reads back.
    let back = dir.join("back.jsonl");
    let out = results(&db, &[OsStr::new("export"), back.as_os_str()]);
    assert!(out.status.success(), "{:?}", texts(&out));
    let text = std::fs::read_to_string(&back).unwrap();
    assert_eq!(text.lines().count(), left.len());
    assert!(!text.contains(sprt_uid));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_still_playing_is_not_deleted() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("db-delete-live");
    let db = dir.join("r.sqlite");
    let state = dir.join("state.json");
    let mut c = sprt(&clio, &db, &["--max-games", "2000", "--run-name", "live"]);
    c.arg("--state").arg(&state);
    let mut child = c
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while state_pairs(&state) < 1 {
        assert!(t0.elapsed() < Duration::from_secs(120), "no pairs played");
        assert!(child.try_wait().unwrap().is_none(), "arena ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = results(&db, &["delete", "1"]);
    let (_, e) = texts(&out);
    assert!(!out.status.success());
    assert!(
        e.contains("run 1 (live) is still running") && e.contains("stop it first"),
        "{e}"
    );
    assert_eq!(listed(&db, &[]).len(), 1);
    // Exported while it plays, the run is a record: stopped, and the export reads back as it is.
    let export = dir.join("live.jsonl");
    let out = results(&db, &[OsStr::new("export"), export.as_os_str()]);
    let (_, e) = texts(&out);
    assert!(
        e.contains("still playing, written as stopped with the figures so far: 1 (live)"),
        "{e}"
    );
    let line = std::fs::read_to_string(&export).unwrap();
    assert!(line.contains("\"status\":\"stopped\""), "{line}");
    let copy = dir.join("copy.sqlite");
    assert!(results(&copy, &[OsStr::new("import"), export.as_os_str()])
        .status
        .success());
    let again = dir.join("again.jsonl");
    assert!(results(&copy, &[OsStr::new("export"), again.as_os_str()])
        .status
        .success());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), line);
    child.kill().unwrap();
    child.wait().unwrap();
    let out = results(&db, &["delete", "1"]);
    assert!(out.status.success(), "{:?}", texts(&out));
    assert!(listed(&db, &[]).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
