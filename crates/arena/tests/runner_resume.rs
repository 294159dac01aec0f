//! Resume: a run interrupted by SIGINT and resumed with the same --state ends with the same
//! totals and the same PGN as an uninterrupted run with the same seed (stockfish at fixed nodes
//! with one thread is deterministic).

mod runner_common;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use runner_common::*;

fn args(sf: &str, dir: &Path, tag: &str) -> Vec<String> {
    let s = |x: &str| x.to_string();
    vec![
        s("sprt"),
        s("--dev-cmd"),
        s(sf),
        s("--base-cmd"),
        s(sf),
        s("--dev-option"),
        s("Skill Level=20"),
        s("--base-option"),
        s("Skill Level=20"),
        s("--option"),
        s("Threads=1"),
        s("--option"),
        s("Hash=16"),
        s("--nodes"),
        s("1500"),
        s("--maxmoves"),
        s("50"),
        s("--openings"),
        seed_book(),
        s("--seed"),
        s("11"),
        s("--max-games"),
        s("12"),
        s("--alpha"),
        s("0.001"),
        s("--beta"),
        s("0.001"),
        s("--elo0"),
        s("-1000"),
        s("--elo1"),
        s("1000"),
        s("--rating-interval"),
        s("0"),
        s("--pgn"),
        dir.join(format!("{tag}.pgn"))
            .to_string_lossy()
            .into_owned(),
        s("--state"),
        dir.join(format!("{tag}.json"))
            .to_string_lossy()
            .into_owned(),
    ]
}

/// The PGN without what differs between runs: date and time tags and the comments (which hold
/// move times); tags, moves and results stay.
fn stable_pgn(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("pgn");
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.lines()
        .filter(|l| {
            ![
                "[Date ",
                "[Time ",
                "[UTCDate ",
                "[UTCTime ",
                "[GameStartTime ",
                "[GameEndTime ",
                "[GameDuration ",
            ]
            .iter()
            .any(|t| l.starts_with(t))
        })
        .flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .collect::<Vec<_>>()
        .join(" ")
}

fn state_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("state")).expect("json")
}

fn pairs_done(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["done"].as_array().map(|a| a.len()))
        .unwrap_or(0)
}

#[test]
fn an_interrupted_run_resumes_to_the_same_result() {
    let Some(sf) = stockfish() else { return };
    let dir = scratch("resume");

    let full = arena().args(args(&sf, &dir, "full")).output().unwrap();
    let (out, err) = texts(&full);
    assert!(full.status.success(), "{out}\n{err}");
    assert_eq!(games_line(&out).0, 12, "{out}");

    let mut child = arena()
        .args(args(&sf, &dir, "cut"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let state = dir.join("cut.json");
    let t0 = Instant::now();
    while pairs_done(&state) < 2 {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "run never got going"
        );
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let cut = child.wait_with_output().unwrap();
    let (cut_out, cut_err) = texts(&cut);
    assert_eq!(cut.status.code(), Some(130), "{cut_out}\n{cut_err}");
    assert!(cut_out.contains("Run interrupted"), "{cut_out}");
    assert!(
        cut_out.contains("Results of stockfish-dev vs stockfish-base"),
        "{cut_out}"
    );
    let counted = pairs_done(&state);
    assert!(
        (2..6).contains(&counted),
        "{counted} pairs at the interrupt"
    );
    let (games_at_cut, ..) = games_line(&cut_out);
    assert_eq!(games_at_cut as usize, 2 * counted);

    let resumed = arena().args(args(&sf, &dir, "cut")).output().unwrap();
    let (res_out, res_err) = texts(&resumed);
    assert!(resumed.status.success(), "{res_out}\n{res_err}");
    assert!(res_err.contains("resuming"), "{res_err}");
    let started = res_out
        .lines()
        .filter(|l| l.starts_with("Started game"))
        .count();
    assert_eq!(
        started,
        12 - 2 * counted,
        "only the missing pairs are played"
    );

    assert_eq!(games_line(&res_out), games_line(&out));
    assert_eq!(ptnml(&res_out), ptnml(&out));
    let (a, b) = (state_json(&dir.join("full.json")), state_json(&state));
    assert_eq!(a["tallies"], b["tallies"]);
    assert_eq!(a["done"], b["done"]);
    assert_eq!(a["failures"], b["failures"]);
    assert_eq!(
        stable_pgn(&dir.join("full.pgn")),
        stable_pgn(&dir.join("cut.pgn"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_state_file_of_another_run_is_refused() {
    let Some(sf) = stockfish() else { return };
    let dir = scratch("mismatch");
    let state = dir.join("s.json");
    let mut a = args(&sf, &dir, "s");
    let i = a.iter().position(|x| x == "--max-games").unwrap();
    a[i + 1] = "2".into();
    let first = arena().args(&a).output().unwrap();
    assert!(first.status.success(), "{:?}", texts(&first));
    assert!(state.exists(), "{:?}", texts(&first));
    let j = a.iter().position(|x| x == "--nodes").unwrap();
    a[j + 1] = "3000".into();
    let second = arena().args(&a).output().unwrap();
    let (_, err) = texts(&second);
    assert!(!second.status.success());
    assert!(
        err.contains("different run") && err.contains("settings"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
