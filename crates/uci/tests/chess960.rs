//! Chess960 (`UCI_Chess960`): perft and its divide against Debian's Stockfish on Chess960
//! positions — the counts and the move text, castling written king-takes-rook as Stockfish
//! writes it — and the option's effect on what clio accepts and prints. Needs stockfish (found
//! with ci/find-engine.sh); without it the tests say so, and fail under CI=true.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;
use shakmaty::Position as _;

fn stockfish() -> Option<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ci/find-engine.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg("stockfish")
        .output()
        .ok();
    match out {
        Some(o) if o.status.success() && !o.stdout.is_empty() => {
            Some(String::from_utf8_lossy(&o.stdout).trim().to_string())
        }
        _ => {
            skip("stockfish is not installed (bash ci/setup.sh installs it)");
            None
        }
    }
}

/// Chess960 positions: four from the Chess Programming Wiki's Chess960 perft list (castling
/// rights in Shredder-FEN), a start position in X-FEN, and two with the king next to or one
/// file from its rooks, where castling moves the king little or not at all.
const POSITIONS: [&str; 7] = [
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
    "1r4kr/8/8/8/8/8/8/1R4KR b KQkq - 0 1",
];

/// `go perft N` in Chess960 mode: the divide (move text → count) and the total.
fn divide(cmd: &mut Command, fen: &str, depth: u32) -> (BTreeMap<String, u64>, u64) {
    let mut e = Engine::start_command(cmd);
    e.send("uci");
    e.read_until(|l| l == "uciok", QUICK);
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen}"));
    e.send(&format!("go perft {depth}"));
    let lines = e.read_until(|l| l.starts_with("Nodes searched"), Duration::from_secs(60));
    let total = lines
        .last()
        .and_then(|l| l.split(':').nth(1))
        .and_then(|n| n.trim().parse().ok())
        .expect("Nodes searched: N");
    let moves = lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| m.len() >= 4 && !m.contains(' '))
        .filter_map(|(m, n)| Some((m.to_string(), n.trim().parse().ok()?)))
        .collect();
    e.send("quit");
    (moves, total)
}

#[test]
fn perft_and_divide_agree_with_stockfish_on_chess960_positions() {
    let Some(sf) = stockfish() else { return };
    let mut castles = 0;
    for fen in POSITIONS {
        for depth in [1, 3] {
            let (ours, our_total) = divide(&mut Command::new(clio_path()), fen, depth);
            let (theirs, their_total) = divide(&mut Command::new(&sf), fen, depth);
            assert_eq!(ours, theirs, "{fen} divide at depth {depth}");
            assert_eq!(our_total, their_total, "{fen} perft {depth}");
            assert!(our_total > 0, "{fen}");
            if depth == 1 {
                // A castling move is the king onto its own rook's square.
                castles += ours
                    .keys()
                    .filter(|m| {
                        let c = chess960(fen);
                        let (from, to) = (&m[..2], &m[2..4]);
                        let sq = |s: &str| s.parse::<shakmaty::Square>().unwrap();
                        c.board().king_of(c.turn()) == Some(sq(from))
                            && c.board().rooks() & c.us() & shakmaty::Bitboard::from(sq(to))
                                != shakmaty::Bitboard::EMPTY
                    })
                    .count();
            }
        }
    }
    assert!(
        castles >= 4,
        "the positions castle {castles} ways at depth 1"
    );
}

fn chess960(fen: &str) -> shakmaty::Chess {
    shakmaty::fen::Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(shakmaty::CastlingMode::Chess960)
        .unwrap()
}

/// Without the option a Chess960 FEN is refused by name and castling is `e1g1`; with it
/// castling reads king-takes-rook, also where the king barely moves.
#[test]
fn the_option_switches_fen_and_castling_notation() {
    let mut e = Engine::ready();
    let fen = "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok", QUICK);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string invalid FEN") && l.contains("rk5r")),
        "{lines:?}"
    );
    // Standard chess: castling is e1g1.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1");
    assert!(e.fen().contains("RNBQ1RK1"), "standard castling played");

    e.send("setoption name UCI_Chess960 value true");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1");
    assert!(
        e.fen().contains("RNBQ1RK1"),
        "king-takes-rook castling played"
    );
    // King b1, rooks a1 and h1: castling long is b1a1 (king to c1, rook to d1).
    e.send(&format!("position fen {fen} moves b1a1"));
    let after = e.fen();
    assert!(after.starts_with("rk5r/8/8/8/8/8/8/2KR3R b"), "{after}");
    assert!(e.quit());
}

/// `clio perft N FEN` on the command line: Chess960 castling rights are recognised without a
/// flag (Shredder-FEN, or X-FEN with the rooks off the corners), `--chess960` forces the mode,
/// and the divide and total are Stockfish's.
#[test]
fn the_perft_command_reads_chess960_fens_as_stockfish_counts_them() {
    let Some(sf) = stockfish() else { return };
    for fen in POSITIONS {
        let (theirs, their_total) = divide(&mut Command::new(&sf), fen, 3);
        for flag in [None, Some("--chess960")] {
            let mut cmd = Command::new(clio_path());
            cmd.args(["perft", "3"]).args(flag).arg(fen);
            let out = cmd.output().expect("clio perft");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{fen} {flag:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let ours: BTreeMap<String, u64> = text
                .lines()
                .filter_map(|l| l.split_once(": "))
                .filter(|(m, _)| m.len() >= 4 && !m.contains(' '))
                .filter_map(|(m, n)| Some((m.to_string(), n.trim().parse().ok()?)))
                .collect();
            let total = text.lines().last().unwrap_or_default();
            assert_eq!(
                total,
                format!("Nodes searched: {their_total}"),
                "{fen} {flag:?}"
            );
            assert_eq!(ours, theirs, "{fen} {flag:?}");
        }
    }
}
