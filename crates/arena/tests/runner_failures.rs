//! Engines that fail: each failure costs the failing engine its game with the right reason, the
//! run goes on (the engine is restarted), the failure is counted, and the totals add up.

mod runner_common;

use runner_common::*;

/// Runs dev = fake engine in `mode` (misbehaving on its 3rd move of each game) against
/// stockfish for `games` games; returns (exit ok, stdout, stderr).
fn run_fake(mode: &str, games: u32, tc: &str) -> Option<(bool, String, String)> {
    let sf = stockfish()?;
    python()?;
    let out = arena()
        .args([
            "sprt",
            "--dev-cmd",
            &fake(),
            "--dev-arg",
            &sf,
            "--dev-arg",
            mode,
        ])
        .args(["--dev-name", "fake", "--base-cmd", &sf, "--base-name", "sf"])
        .args(["--nodes", "1500", "--tc", tc, "--maxmoves", "25"])
        .args([
            "--openings",
            &seed_book(),
            "--seed",
            "3",
            "--concurrency",
            "2",
        ])
        .args(["--max-games", &games.to_string(), "--option", "Threads=1"])
        .args(["--elo0", "0", "--elo1", "2", "--rating-interval", "0"])
        .output()
        .expect("run arena");
    let (o, e) = texts(&out);
    Some((out.status.success(), o, e))
}

/// Checks a run in which the fake engine lost every game by `reason` and `counter` counts them.
fn check_all_lost(mode: &str, games: u64, reason: &str, counter: &str, tc: &str) {
    let Some((ok, out, err)) = run_fake(mode, games as u32, tc) else {
        return;
    };
    assert!(ok, "arena failed for {mode}:\n{out}\n{err}");
    let (n, w, l, d) = games_line(&out);
    assert_eq!((n, w, l, d), (games, 0, games, 0), "{mode}:\n{out}");
    let p = ptnml(&out);
    assert_eq!(p.iter().sum::<u64>() * 2, n, "W+D+L = 2 pairs:\n{out}");
    assert_eq!(p[0], games / 2, "{out}");
    let finished: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Finished game "))
        .collect();
    assert_eq!(finished.len() as u64, games, "{out}");
    for line in &finished {
        assert!(line.contains(reason), "{mode}: {line:?} lacks {reason:?}");
        let white_is_fake = line.contains("(fake vs sf)");
        let expected = if white_is_fake { "0-1" } else { "1-0" };
        assert!(line.contains(expected), "{line}");
    }
    let block = &out[out.find("Player: fake").expect("failure block")..];
    assert!(
        block.contains(&format!("{counter}: {games}")),
        "{mode}: expected {counter}: {games} in\n{block}"
    );
    assert!(
        out.contains("Player: sf\n  Timeouts: 0\n  Crashed: 0"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("Finished match"), "{out}");
}

#[test]
fn a_crash_costs_the_game_and_the_engine_is_restarted() {
    check_all_lost("crash", 4, "disconnects", "Crashed", "10+0.1");
}

#[test]
fn an_illegal_move_costs_the_game() {
    check_all_lost(
        "illegal",
        4,
        "makes an illegal move",
        "Illegal moves",
        "10+0.1",
    );
}

#[test]
fn garbage_costs_the_game() {
    check_all_lost("garbage", 2, "illegal move", "Illegal moves", "10+0.1");
}

#[test]
fn a_hang_is_a_stalled_connection() {
    check_all_lost("hang", 2, "connection stalls", "Stalls", "1+0.01");
}

#[test]
fn an_engine_without_uciok_stops_the_run_before_any_game() {
    let Some((ok, out, err)) = run_fake("nouciok", 2, "10+0.1") else {
        return;
    };
    assert!(!ok);
    assert!(!out.contains("Started game"), "{out}");
    assert!(err.contains("fake") && err.contains("uciok"), "{err}");
}
