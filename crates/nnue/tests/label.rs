//! `scripts/label.py`, run for real with Debian's Stockfish 15.1: each unique position once, in
//! input order, with its result and Stockfish's evaluation from White's view (the start position
//! about level, a queen up far ahead, Black a queen up far behind); positions in check are
//! dropped; a missing Stockfish or input is refused by name. Skipped with a note when python3
//! or Stockfish is absent (a failure under CI).

use std::path::Path;
use std::process::Command;

#[path = "../../arena/tests/runner_common/tools.rs"]
mod tools;
use tools::{find_stockfish, root, skip};

/// Debian's stockfish (ci/find-engine.sh) and python3.
fn tools() -> Option<String> {
    if !Command::new("python3")
        .arg("-c")
        .arg("pass")
        .status()
        .is_ok_and(|s| s.success())
    {
        skip("python3 is not available");
        return None;
    }
    let found = find_stockfish();
    if found.is_none() {
        skip("stockfish is not installed (bash ci/setup.sh installs it)");
    }
    found
}

fn label(sf: &str, input: &Path, output: &Path) -> (bool, String) {
    let out = Command::new("python3")
        .arg(root().join("crates/nnue/scripts/label.py"))
        .arg(input)
        .arg(output)
        .arg("2")
        .env("STOCKFISH", sf)
        .output()
        .expect("python3 runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn each_unique_position_gets_stockfish_s_evaluation_from_white_s_view() {
    let Some(sf) = tools() else { return };
    let dir = std::env::temp_dir().join(format!("clio-label-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.epd");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let white_queen_up = "4k3/8/8/8/8/8/8/3QK3 b - -";
    let black_queen_up = "3qk3/8/8/8/8/8/8/4K3 w - -";
    let check = "4k3/8/8/8/8/8/8/4R1K1 b - -";
    std::fs::write(
        &input,
        format!(
            "{start} 0 1 [0.5]\n{white_queen_up} 0 40 [1.0]\n{start} 4 3 [0.5]\n{check} 0 30 [1.0]\n\
             {black_queen_up} 0 50 [0.0]\n"
        ),
    )
    .unwrap();
    let output = dir.join("out.txt");
    let (ok, e) = label(&sf, &input, &output);
    assert!(ok, "{e}");
    assert!(e.contains("4 unique positions"), "{e}");
    let text = std::fs::read_to_string(&output).unwrap();
    let mut rows: Vec<(String, String, i32)> = text
        .lines()
        .map(|l| {
            let i = l.rfind(" [").expect(l);
            let (fen, rest) = (&l[..i], &l[i + 1..]);
            let (res, cp) = rest.split_once(' ').expect(l);
            (fen.to_string(), res.to_string(), cp.parse().expect(l))
        })
        .collect();
    // Two processes write their halves as they finish: compare by position.
    rows.sort();
    assert_eq!(
        rows.len(),
        3,
        "the duplicate and the check are dropped: {text}"
    );
    let find = |fen: &str| {
        rows.iter()
            .find(|r| r.0.starts_with(fen))
            .unwrap_or_else(|| panic!("{fen} not in {text}"))
    };
    let s = find(start);
    assert_eq!(s.1, "[0.5]");
    assert!(s.2.abs() < 100, "the start position is about level: {text}");
    let w = find(white_queen_up);
    assert_eq!(w.1, "[1.0]");
    assert!(w.2 > 500, "White a queen up, Black to move: {text}");
    let b = find(black_queen_up);
    assert_eq!(b.1, "[0.0]");
    assert!(b.2 < -500, "Black a queen up, White to move: {text}");
    assert!(
        !text.contains("4R1K1"),
        "a position in check has no NNUE line: {text}"
    );

    let (ok, e) = label("/nonexistent/stockfish", &input, &dir.join("none.txt"));
    assert!(!ok);
    assert!(e.contains("no Stockfish at /nonexistent/stockfish"), "{e}");
    assert!(!dir.join("none.txt").exists());
    let (ok, e) = label(&sf, &dir.join("missing.epd"), &dir.join("none.txt"));
    assert!(!ok);
    assert!(
        e.contains("cannot read") && e.contains("missing.epd"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
