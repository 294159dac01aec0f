//! A hang under a node limit is found at a stall limit derived from the run's own move times
//! (100 times the median, at least 2 s), not after a fixed minute; `--stall-ms` fixes the limit
//! instead; the results say which limit was in force.

mod runner_common;

use runner_common::*;

/// dev = a relay of stockfish that stops answering at its 12th `go` of each game, after enough
/// timed moves for a median; returns stdout.
fn run(extra: &[&str]) -> Option<String> {
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
            "hang",
        ])
        .args(["--dev-arg", "12", "--dev-name", "fake", "--base-cmd", &sf])
        .args(["--base-name", "sf", "--nodes", "1500", "--concurrency", "1"])
        .args([
            "--openings",
            &seed_book(),
            "--seed",
            "3",
            "--max-games",
            "2",
        ])
        .args(["--option", "Threads=1", "--elo0", "0", "--elo1", "10"])
        .args(["--rating-interval", "0"])
        .args(extra)
        .output()
        .expect("run arena");
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    Some(o)
}

#[test]
fn a_hang_at_a_node_limit_stalls_at_a_limit_from_the_median_move_time() {
    let Some(o) = run(&[]) else { return };
    assert!(
        o.contains("fake's connection stalls")
            || o.contains("White's connection stalls")
            || o.contains("Black's connection stalls"),
        "{o}"
    );
    let line = o
        .lines()
        .find(|l| l.starts_with("Stall limit: "))
        .expect("a stall line");
    assert!(line.contains("x the median move time"), "{line}");
    let ms: u64 = line["Stall limit: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((2_000..60_000).contains(&ms), "{line}");
    assert!(o.trim_end().ends_with("Finished match"), "{o}");
}

#[test]
fn stall_ms_fixes_the_limit() {
    let Some(o) = run(&["--stall-ms", "1500"]) else {
        return;
    };
    assert!(o.contains("connection stalls"), "{o}");
    assert!(o.contains("Stall limit: 1500 ms (--stall-ms)"), "{o}");
}
