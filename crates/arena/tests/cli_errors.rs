//! Bad inputs stop `arena` before any game with an error naming the input.

mod runner_common;

use runner_common::*;

/// Runs `arena sprt` with stockfish on both sides plus `extra`; returns (status ok, stdout,
/// stderr).
fn sprt(extra: &[&str]) -> Option<(bool, String, String)> {
    let sf = stockfish()?;
    let out = arena()
        .args([
            "sprt",
            "--dev-cmd",
            &sf,
            "--base-cmd",
            &sf,
            "--nodes",
            "100",
        ])
        .args(["--max-games", "2"])
        .args(extra)
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    Some((out.status.success(), o, e))
}

fn assert_refused(extra: &[&str], needles: &[&str]) {
    let Some((ok, out, err)) = sprt(extra) else {
        return;
    };
    assert!(!ok, "{extra:?} was accepted:\n{out}");
    assert!(!out.contains("Started game"), "{out}");
    for n in needles {
        assert!(err.contains(n), "{extra:?}: {n:?} not in {err}");
    }
}

#[test]
fn an_unknown_option_is_named() {
    assert_refused(&["--dev-option", "Hyper Drive=3"], &["Hyper Drive"]);
}

#[test]
fn an_out_of_range_value_is_named() {
    assert_refused(&["--option", "Threads=100000"], &["Threads", "100000"]);
}

#[test]
fn a_bad_option_syntax_is_named() {
    assert_refused(&["--base-option", "Threads"], &["Threads", "Name=Value"]);
}

#[test]
fn a_missing_book_is_named() {
    assert_refused(
        &["--openings", "/nonexistent/book.epd"],
        &["/nonexistent/book.epd"],
    );
}

#[test]
fn a_book_without_usable_lines_is_an_error_and_bad_lines_are_reported() {
    let dir = scratch("badbook");
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "not a position\n8/8/8/8/8/8/8/8 w - -\n").unwrap();
    assert_refused(
        &["--openings", bad.to_str().unwrap()],
        &["bad.epd:1:", "bad.epd:2:", "no usable opening"],
    );
    let mixed = dir.join("mixed.epd");
    let good = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
    std::fs::write(&mixed, format!("{good}\nrnbqkbnr/ppp w KQkq -\n{good}\n")).unwrap();
    if let Some((ok, out, err)) = sprt(&["--openings", mixed.to_str().unwrap()]) {
        assert!(ok, "{out}\n{err}");
        assert!(err.contains("mixed.epd:2:"), "{err}");
        assert!(
            err.contains("1 malformed entries skipped, 2 openings loaded"),
            "{err}"
        );
        assert_eq!(games_line(&out).0, 2);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_ref_is_named_before_any_build() {
    let out = arena()
        .args([
            "sprt",
            "--dev-ref",
            "no-such-branch-xyz",
            "--base-ref",
            "HEAD",
        ])
        .args(["--nodes", "100"])
        .arg("--repo")
        .arg(root())
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(!out.status.success(), "{o}");
    assert!(e.contains("no-such-branch-xyz"), "{e}");
    assert!(!e.contains("building"), "{e}");
}

#[test]
fn no_limit_is_an_error() {
    let out = arena()
        .args(["sprt", "--dev-cmd", "x", "--base-cmd", "y"])
        .output()
        .unwrap();
    let (_, e) = texts(&out);
    assert!(!out.status.success());
    assert!(e.contains("--tc, --nodes, --depth or --movetime"), "{e}");
}

#[test]
fn a_bad_time_control_is_named() {
    let out = arena()
        .args(["sprt", "--dev-cmd", "x", "--base-cmd", "y", "--tc", "fast"])
        .output()
        .unwrap();
    let (_, e) = texts(&out);
    assert!(!out.status.success());
    assert!(e.contains("\"fast\""), "{e}");
}

#[test]
fn a_bad_adjudication_rule_is_named() {
    let out = arena()
        .args(["sprt", "--dev-cmd", "x", "--base-cmd", "y", "--nodes", "10"])
        .args(["--resign", "movecount=3,scor=400"])
        .output()
        .unwrap();
    let (_, e) = texts(&out);
    assert!(!out.status.success());
    assert!(e.contains("scor"), "{e}");
}

#[test]
fn concurrency_out_of_range_is_an_error_before_any_game() {
    assert_refused(
        &["--concurrency", "5000"],
        &["--concurrency 5000", "1 to 1024"],
    );
    assert_refused(&["--concurrency", "0"], &["--concurrency 0", "1 to 1024"]);
}

#[test]
fn every_output_path_is_checked_before_the_first_game() {
    let missing = std::env::temp_dir().join(format!("arena-no-such-dir-{}", std::process::id()));
    for flag in ["--json", "--plot", "--state", "--pgn", "--epdout"] {
        let path = missing.join("out").to_string_lossy().into_owned();
        assert_refused(&[flag, &path], &[flag, &path, "cannot write there"]);
    }
    assert!(!missing.exists());
}

#[test]
fn a_book_line_that_is_not_utf8_is_skipped_by_number() {
    let book = std::env::temp_dir().join(format!("arena-utf8-{}.epd", std::process::id()));
    let mut bytes = b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n".to_vec();
    bytes.extend_from_slice(b"\xff\xfe not text\n");
    bytes.extend_from_slice(b"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n");
    std::fs::write(&book, bytes).unwrap();
    let path = book.to_string_lossy().into_owned();
    let Some((ok, out, err)) = sprt(&["--openings", &path]) else {
        return;
    };
    let _ = std::fs::remove_file(&book);
    assert!(ok, "{out}\n{err}");
    assert!(
        err.contains(&format!("{path}:2: skipped: not valid UTF-8")),
        "{err}"
    );
    assert!(
        err.contains("1 malformed entries skipped, 2 openings loaded"),
        "{err}"
    );
    assert!(out.contains("Finished match"), "{out}");
}

#[test]
fn a_count_too_large_for_the_statistics_is_named() {
    let out = arena()
        .args(["stats", "--penta", "9223372036854775808,0,0,0,0"])
        .args(["--elo0", "0", "--elo1", "2"])
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{o}\n{e}");
    assert!(!e.contains("panicked"), "{e}");
    assert!(
        e.contains("count \"9223372036854775808\" is too large"),
        "{e}"
    );
}

#[test]
fn an_error_says_its_cause_once() {
    let Some(sf) = stockfish() else { return };
    let out = arena()
        .args([
            "sprt",
            "--dev-cmd",
            "/nonexistent/engine",
            "--base-cmd",
            &sf,
        ])
        .args(["--nodes", "100", "--max-games", "2"])
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(!out.status.success(), "{o}");
    assert!(e.contains("cannot start \"/nonexistent/engine\""), "{e}");
    assert_eq!(e.matches("(os error 2)").count(), 1, "{e}");
}
