//! `--variant fischerandom`: clio against Stockfish from the shipped FRC and DFRC books (every
//! engine gets `UCI_Chess960`, castling goes king-takes-rook both ways), the games legal by
//! shakmaty (arena referees every move, and the PGN's moves replay in Chess960 mode), the PGN
//! tagged as fastchess and python-chess expect; an engine without `UCI_Chess960` is refused.

mod runner_common;

use std::fs;

use clio_arena::book::parse_pgn_in;
use runner_common::*;
use shakmaty::CastlingMode;

#[test]
fn chess960_games_from_the_frc_and_dfrc_books_are_legal_and_tagged() {
    let Some(clio) = clio_release() else { return };
    let Some(sf) = stockfish() else { return };
    let dir = scratch("chess960");
    for book in ["frc", "dfrc"] {
        let pgn = dir.join(format!("{book}.pgn"));
        let out = arena()
            .args(["gauntlet", "--engine", "name=clio", &format!("cmd={clio}")])
            .args([
                "--engine",
                "name=sf",
                &format!("cmd={sf}"),
                "option.Skill Level=5",
            ])
            .args([
                "--variant",
                "fischerandom",
                "--nodes",
                "3000",
                "--rounds",
                "4",
            ])
            .args([
                "--concurrency",
                "2",
                "--rating-interval",
                "0",
                "--seed",
                "3",
            ])
            .arg("--openings")
            .arg(root().join(format!("openings/{book}.epd")))
            .arg("--pgn")
            .arg(&pgn)
            .output()
            .unwrap();
        let (o, e) = texts(&out);
        assert!(out.status.success(), "{o}\n{e}");
        assert_eq!(games_line(&o).0, 8, "{o}");
        for fault in ["illegal", "disconnects", "stalls", "Timeouts: 1"] {
            assert!(!o.contains(fault), "{fault}: {o}");
        }
        let text = fs::read_to_string(&pgn).unwrap();
        assert_eq!(text.matches("[Variant \"Chess960\"]").count(), 8, "{text}");
        assert_eq!(text.matches("[SetUp \"1\"]").count(), 8);
        // Every game's moves replay legally from its FEN in Chess960 mode (the book reader
        // skips a game that ends in mate, as an opening with no move to play, and nothing else).
        let (games, skipped) = parse_pgn_in(&text, CastlingMode::Chess960);
        assert!(
            skipped.iter().all(|s| s.reason.contains("no legal move")),
            "{skipped:?}"
        );
        assert_eq!(games.len() + skipped.len(), 8);
        // python-chess reads each game as Chess960, replays it, and finds no error.
        if python_chess() {
            let check = "import chess.pgn, sys\nf = open(sys.argv[1])\nn = 0\nwhile True:\n    g = chess.pgn.read_game(f)\n    if g is None: break\n    b = g.board()\n    assert b.chess960 and not g.errors, g.errors\n    for m in g.mainline_moves(): b.push(m)\n    n += 1\nprint(n)\n";
            let out = std::process::Command::new("python3")
                .args(["-c", check])
                .arg(&pgn)
                .output()
                .unwrap();
            let (po, pe) = texts(&out);
            assert!(out.status.success(), "{po}\n{pe}");
            assert_eq!(po.trim(), "8", "{pe}");
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_without_uci_chess960_is_refused() {
    let Some(python) = python() else { return };
    let Some(clio) = clio_release() else { return };
    // A minimal UCI engine that declares no option at all.
    let dir = scratch("chess960-refused");
    let script = dir.join("plain.py");
    fs::write(
        &script,
        "import sys\nfor l in sys.stdin:\n    l = l.strip()\n    if l == 'uci': print('id name plain'); print('uciok', flush=True)\n    elif l == 'isready': print('readyok', flush=True)\n    elif l == 'quit': break\n",
    )
    .unwrap();
    let out = arena()
        .args(["sprt", "--dev-cmd", &clio, "--base-cmd", &python])
        .arg("--base-arg")
        .arg(&script)
        .args([
            "--variant",
            "fischerandom",
            "--nodes",
            "1000",
            "--max-games",
            "2",
        ])
        .arg("--openings")
        .arg(root().join("openings/frc.epd"))
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(!out.status.success(), "{o}");
    assert!(e.contains("no such UCI option \"UCI_Chess960\""), "{e}");
    let _ = fs::remove_dir_all(&dir);
}
