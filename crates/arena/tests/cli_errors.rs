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
