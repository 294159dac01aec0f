//! arena under hostile inputs, through the binary: hand-edited SPSA checkpoints (an empty θ,
//! NaN, a value outside its range), a state path that is a device, two runs on one state file,
//! a state file whose counts disagree, an ablation whose last row names no such option, and a
//! book that is a device. Each is refused with a message naming the file (or the row) and the
//! field, never a panic, never an unbounded read, never a game played on bad terms.

mod runner_common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use runner_common::*;
use serde_json::Value;

/// A two-parameter campaign on Clio at a tiny node limit.
fn campaign(clio: &str, dir: &Path) -> std::path::PathBuf {
    let path = dir.join("tune.toml");
    let text = format!(
        r#"[spsa]
iterations = 4
pairs_per_iteration = 1
seed = 3

[match]
engine = {clio:?}
nodes = 300
concurrency = 1
openings = {book:?}
options = {{ Hash = 4, Threads = 1 }}
maxmoves = 80

[[param]]
name = "HistBonusMul"
value = 300
min = 100
max = 600
step = 20

[[param]]
name = "ContWeight1"
value = 1024
min = 256
max = 2048
step = 64
"#,
        book = seed_book()
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn spsa(config: &Path, out: &Path, extra: &[&str]) -> Output {
    arena()
        .arg("spsa")
        .arg(config)
        .arg("--out")
        .arg(out)
        .arg("--no-db")
        .args(extra)
        .output()
        .unwrap()
}

fn refused(out: &Output) -> String {
    let (o, e) = texts(out);
    assert!(!out.status.success(), "accepted:\n{o}\n{e}");
    assert_ne!(out.status.code(), Some(101), "a panic:\n{e}");
    assert!(!e.contains("panicked"), "{e}");
    e
}

#[test]
fn a_hand_edited_checkpoint_is_refused_naming_the_field() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("hostile-checkpoint");
    let config = campaign(&clio, &dir);
    let out = dir.join("run");
    let first = spsa(&config, &out, &["--stop-after", "1"]);
    assert!(first.status.success(), "{:?}", texts(&first));
    let cp_path = out.join("checkpoint.json");
    let good = std::fs::read_to_string(&cp_path).unwrap();
    let cp: Value = serde_json::from_str(&good).unwrap();
    for (theta, want) in [
        (serde_json::json!([]), "theta has 0 values"),
        (serde_json::json!(["NaN", "1024"]), "not a number"),
        (
            serde_json::json!(["9000", "1024"]),
            "outside its range [100, 600]",
        ),
        (
            serde_json::json!(["300"]),
            "theta has 1 values, the campaign 2",
        ),
    ] {
        let mut bad = cp.clone();
        bad["theta"] = theta;
        std::fs::write(&cp_path, bad.to_string()).unwrap();
        let e = refused(&spsa(&config, &out, &["--stop-after", "1"]));
        assert!(
            e.contains("checkpoint.json") && e.contains(want),
            "{want}: {e}"
        );
    }
    // The good checkpoint resumes.
    std::fs::write(&cp_path, good).unwrap();
    let again = spsa(&config, &out, &["--stop-after", "1"]);
    assert!(again.status.success(), "{:?}", texts(&again));
    let _ = std::fs::remove_dir_all(&dir);
}

/// An sprt of Clio against itself at a node limit with `extra` flags.
fn sprt(clio: &str, extra: &[&str]) -> Command {
    let mut c = arena();
    c.args(["sprt", "--dev-cmd", clio, "--base-cmd", clio, "--no-db"])
        .args(["--nodes", "1000", "--concurrency", "1", "--seed", "2"])
        .args(["--elo0", "0", "--elo1", "10", "--rating-interval", "0"])
        .arg("--openings")
        .arg(root().join("openings/clio-balanced.epd"))
        .args(extra);
    c
}

#[test]
fn a_state_path_that_is_a_device_is_refused_without_reading_it() {
    let Some(clio) = clio_release() else { return };
    for dev in ["/dev/zero", "/dev/full"] {
        if !Path::new(dev).exists() {
            continue;
        }
        let out = sprt(&clio, &["--state", dev, "--max-games", "2"])
            .output()
            .unwrap();
        let e = refused(&out);
        assert!(e.contains(dev) && e.contains("not a regular file"), "{e}");
    }
    let out = arena()
        .args(["sprt", "--dev-cmd", &clio, "--base-cmd", &clio, "--no-db"])
        .args([
            "--nodes",
            "1000",
            "--max-games",
            "2",
            "--openings",
            "/dev/zero",
        ])
        .output()
        .unwrap();
    let e = refused(&out);
    assert!(
        e.contains("/dev/zero")
            && e.contains("not a regular file")
            && !e.contains("does not exist"),
        "{e}"
    );
}

#[test]
fn a_second_run_on_the_same_state_file_stops_at_once_naming_the_holder() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("hostile-lock");
    let state = dir.join("state.json");
    let pgn = dir.join("games.pgn");
    let flags = |c: &mut Command| {
        c.arg("--state")
            .arg(&state)
            .arg("--pgn")
            .arg(&pgn)
            .args(["--max-games", "400"]);
    };
    let mut first = sprt(&clio, &[]);
    flags(&mut first);
    let mut holder = first
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = dir.join("state.json.lock");
    let t0 = Instant::now();
    while !std::fs::read_to_string(&lock).is_ok_and(|s| !s.is_empty()) {
        assert!(t0.elapsed() < Duration::from_secs(60), "no lock taken");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut second = sprt(&clio, &[]);
    flags(&mut second);
    let out = second.output().unwrap();
    let e = refused(&out);
    assert!(
        e.contains("state.json") && e.contains(&format!("pid {}", holder.id())),
        "{e}"
    );
    // Another state file but the same PGN: refused too.
    let out = sprt(&clio, &["--max-games", "2"])
        .arg("--state")
        .arg(dir.join("other.json"))
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let e = refused(&out);
    assert!(e.contains("games.pgn") && e.contains("in use"), "{e}");
    holder.kill().unwrap();
    holder.wait().unwrap();
    // Once the holder is gone (even killed), the state resumes.
    let mut resume = sprt(&clio, &[]);
    resume
        .arg("--state")
        .arg(&state)
        .arg("--pgn")
        .arg(&pgn)
        .args(["--max-games", "4"]);
    let out = resume.output().unwrap();
    let (o, e) = texts(&out);
    // The state may already hold more than 4 games (then the cap refuses it) or fewer.
    assert!(!e.contains("in use"), "{o}\n{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_state_file_whose_counts_disagree_is_refused() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("hostile-counts");
    let state = dir.join("state.json");
    let run = |max: &str| {
        sprt(&clio, &["--max-games", max])
            .arg("--state")
            .arg(&state)
            .output()
            .unwrap()
    };
    let out = run("6");
    assert!(out.status.success(), "{:?}", texts(&out));
    let good: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    type Edit = Box<dyn Fn(&mut Value)>;
    let edits: Vec<(&str, Edit)> = vec![
        (
            "wins",
            Box::new(|v: &mut Value| v["tallies"][0]["wins"] = 1_000_000.into()),
        ),
        (
            "pentanomial",
            Box::new(|v: &mut Value| {
                let p = v["tallies"][0]["penta"][2].as_u64().unwrap();
                v["tallies"][0]["penta"][2] = (p + 1).into();
                let w = v["tallies"][0]["wins"].as_u64().unwrap();
                v["tallies"][0]["wins"] = (w + 2).into();
            }),
        ),
        (
            "marked done",
            Box::new(|v: &mut Value| {
                let d = v["done"].as_array_mut().unwrap();
                d.pop();
                d.push(999_999.into());
            }),
        ),
    ];
    for (what, edit) in edits {
        let mut bad = good.clone();
        edit(&mut bad);
        std::fs::write(&state, bad.to_string()).unwrap();
        let e = refused(&run("20"));
        assert!(e.contains("state.json"), "{what}: {e}");
        let names_it = match what {
            "wins" => e.contains("1000000 wins"),
            "pentanomial" => e.contains("pentanomial"),
            _ => e.contains("999999"),
        };
        assert!(names_it, "{what}: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_ablation_row_with_no_such_option_stops_before_any_game() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("hostile-ablate");
    let out = arena()
        .args(["ablate", "--engine-cmd", &clio, "--name", "clio", "--no-db"])
        .args(["--flip", "UseMalus=false", "--flip", "NoSuch=false"])
        .args([
            "--nodes",
            "1000",
            "--row-games",
            "200",
            "--concurrency",
            "1",
        ])
        .arg("--openings")
        .arg(seed_book())
        .arg("--state")
        .arg(dir.join("state.json"))
        .arg("--pgn")
        .arg(dir.join("g.pgn"))
        .output()
        .unwrap();
    let e = refused(&out);
    let (o, _) = texts(&out);
    assert!(e.contains("NoSuch") && e.contains("row 2"), "{e}");
    assert!(!o.contains("Finished game"), "no game is played: {o}");
    assert!(!dir.join("g-01.pgn").exists() && !dir.join("g.pgn").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pgn_write_that_fails_ends_the_run_with_its_results_block() {
    let Some(clio) = clio_release() else { return };
    if !Path::new("/dev/full").exists() {
        return skip("/dev/full is missing");
    }
    let dir = scratch("hostile-full");
    let state = dir.join("state.json");
    let out = sprt(&clio, &["--max-games", "4", "--pgn", "/dev/full"])
        .arg("--state")
        .arg(&state)
        .output()
        .unwrap();
    let e = refused(&out);
    let (o, _) = texts(&out);
    assert!(e.contains("/dev/full"), "{e}");
    assert!(
        o.contains("Finished match"),
        "the results block is printed: {o}"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|f| f.ok())
        .filter(|f| f.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
