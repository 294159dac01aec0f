//! Whole games Stockfish vs Stockfish at 1000 nodes a move: each ends by a rule or an
//! adjudication, every move is legal, and the PGN reads back in python-chess with the same
//! moves, result and termination. Skipped with a note when Stockfish or python-chess is missing
//! (`bash ci/setup.sh` installs both).

mod runner_common;
use runner_common::*;

use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clio_arena::engine::{Engine, EngineConfig, Timeouts};
use clio_arena::game::{
    fen_of, parse_uci_move, play_game, Adjudication, GameOutcome, GameRecord, GameSettings, Limits,
    Opening, Termination,
};
use clio_arena::pgn::to_pgn;
use shakmaty::{Chess, Position};

fn engine(path: &str, name: &str) -> Engine {
    let config = EngineConfig {
        name: name.into(),
        cmd: path.into(),
        args: vec![],
        dir: None,
        options: vec![("Threads".into(), "1".into()), ("Hash".into(), "8".into())],
        shared_options: Vec::new(),
        cpus: None,
    };
    let t = Timeouts {
        handshake: Duration::from_secs(20),
        ready: Duration::from_secs(20),
        ..Timeouts::default()
    };
    Engine::start_with(config, t).expect("stockfish starts")
}

/// Replays the game with shakmaty: every move legal, SAN as recorded, and the final position
/// agrees with a rule ending.
fn check_legal(g: &GameRecord) {
    let start = Opening {
        fen: Some(g.start_fen.clone()),
        moves: g.opening.moves.clone(),
    };
    let mut pos: Chess = start.play().expect("opening replays").position;
    for m in &g.moves {
        let mv = parse_uci_move(&pos, &m.uci)
            .unwrap_or_else(|| panic!("illegal {} in {}", m.uci, fen_of(&pos)));
        let san = shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut pos, mv);
        assert_eq!(san.to_string(), m.san);
    }
    match g.termination {
        Termination::Checkmate => assert!(pos.is_checkmate()),
        Termination::Stalemate => assert!(pos.is_stalemate()),
        Termination::InsufficientMaterial => assert!(pos.is_insufficient_material()),
        Termination::FiftyMoves => assert!(pos.halfmoves() >= 100),
        t => assert!(
            matches!(
                t,
                Termination::ThreefoldRepetition
                    | Termination::AdjudicatedDraw
                    | Termination::AdjudicatedResign
                    | Termination::MaxMoves
            ),
            "unexpected ending {t:?}: {}",
            g.reason
        ),
    }
}

#[test]
fn stockfish_games_end_by_rule_or_adjudication_and_pgn_reads_back() {
    let Some(path) = stockfish() else { return };
    let mut a = engine(&path, "sf-a");
    let mut b = engine(&path, "sf-b");
    let stop = AtomicBool::new(false);
    let adjudication = Adjudication {
        resign: Some("movecount=3,score=600".parse().unwrap()),
        draw: Some("movenumber=40,movecount=8,score=10".parse().unwrap()),
        maxmoves: Some(200),
    };
    let games = [
        (
            Opening::startpos(),
            Limits {
                nodes: Some(1000),
                ..Limits::default()
            },
        ),
        (
            Opening {
                fen: Some(
                    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".into(),
                ),
                moves: vec!["f1b5".into(), "a7a6".into(), "b5a4".into()],
            },
            Limits {
                tc: Some("10+0.1".parse().unwrap()),
                nodes: Some(1000),
                margin_ms: 1000,
                ..Limits::default()
            },
        ),
        (
            Opening {
                fen: Some("8/5k2/8/3K4/8/8/5P2/8 b - - 0 60".into()),
                moves: vec![],
            },
            Limits {
                nodes: Some(1000),
                ..Limits::default()
            },
        ),
    ];
    let mut records = Vec::new();
    for (i, (opening, limits)) in games.iter().enumerate() {
        let settings = GameSettings {
            variant: Default::default(),
            limits: *limits,
            adjudication,
        };
        let (w, bl) = if i % 2 == 0 {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let g = match play_game(w, bl, opening, &settings, &stop) {
            Ok(GameOutcome::Finished(g)) => *g,
            other => panic!("game {i}: {other:?}"),
        };
        assert!(!g.termination.is_engine_fault(), "game {i}: {}", g.reason);
        assert!(!g.moves.is_empty());
        check_legal(&g);
        let thinking: u64 = g.engine_time_us.iter().sum::<u64>() / 1000;
        eprintln!(
            "game {i}: {} {{{}}} after {} moves; {} ms, {} ms outside the engines' searches",
            g.result.pgn(),
            g.reason,
            g.moves.len(),
            g.duration_us / 1000,
            (g.duration_us / 1000).saturating_sub(thinking)
        );
        records.push(g);
    }

    if !python_chess() {
        return;
    }
    let file = std::env::temp_dir().join(format!("arena-game-full-{}.pgn", std::process::id()));
    let pgn: String = records
        .iter()
        .enumerate()
        .map(|(i, g)| to_pgn(g, "arena test", i as u64 + 1))
        .collect();
    std::fs::write(&file, &pgn).unwrap();
    let script = r#"
import sys, chess.pgn
with open(sys.argv[1]) as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        assert not g.errors, g.errors
        print(g.headers["Result"], "|", g.headers["Termination"], "|",
              " ".join(m.uci() for m in g.mainline_moves()), "|", g.end().board().fen())
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "python-chess: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), records.len(), "{text}");
    for (g, line) in records.iter().zip(lines) {
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts[0], g.result.pgn());
        assert_eq!(parts[1], g.termination.class());
        let ucis: Vec<String> = g
            .opening
            .moves
            .iter()
            .cloned()
            .chain(g.moves.iter().map(|m| m.uci.clone()))
            .collect();
        assert_eq!(parts[2], ucis.join(" "));
        let end: Chess = Opening {
            fen: Some(g.start_fen.clone()),
            moves: ucis.clone(),
        }
        .play()
        .unwrap()
        .position;
        assert_eq!(parts[3], fen_of(&end));
    }
}
