//! A full game of `clio` against itself at a short clock, every `bestmove` checked legal by
//! shakmaty, played to a rule ending (mate, stalemate, fifty moves, threefold, insufficient
//! material) or 200 plies.

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::{legal, Engine};
use shakmaty::{fen::Fen, Chess, Color, EnPassantMode, Position};

const BASE_MS: i64 = 2000;
const INC_MS: i64 = 20;

/// The repetition key of a position: the FEN without the move counters.
fn repetition_key(pos: &Chess) -> String {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

#[test]
fn a_full_game_against_itself_is_legal_throughout() {
    let mut white = Engine::ready();
    let mut black = Engine::ready();
    for e in [&mut white, &mut black] {
        e.send("ucinewgame");
        e.sync();
    }
    let mut pos = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    let mut seen: HashMap<String, u32> = HashMap::new();
    seen.insert(repetition_key(&pos), 1);
    let (mut wtime, mut btime) = (BASE_MS, BASE_MS);
    let mut overruns = 0;
    let ending = loop {
        if pos.is_checkmate() {
            break "checkmate";
        }
        if pos.is_stalemate() {
            break "stalemate";
        }
        if pos.is_insufficient_material() {
            break "insufficient material";
        }
        if pos.halfmoves() >= 100 {
            break "fifty-move rule";
        }
        if seen.get(&repetition_key(&pos)).copied().unwrap_or(0) >= 3 {
            break "threefold repetition";
        }
        if moves.len() >= 200 {
            break "200 plies";
        }
        let engine = if pos.turn() == Color::White {
            &mut white
        } else {
            &mut black
        };
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        engine.send(&position);
        engine.send(&format!(
            "go wtime {} btime {} winc {INC_MS} binc {INC_MS}",
            wtime.max(1),
            btime.max(1)
        ));
        let asked = Instant::now();
        let (text, _) = engine.bestmove(Duration::from_secs(10));
        let spent = asked.elapsed().as_millis() as i64;
        let clock = if pos.turn() == Color::White {
            &mut wtime
        } else {
            &mut btime
        };
        *clock -= spent;
        if *clock < 0 {
            // Not asserted (no timing assertions in tests); reported for the reader.
            overruns += 1;
            *clock = 1;
        }
        *clock += INC_MS;
        let m = legal(&pos, &text).unwrap_or_else(|| {
            panic!(
                "illegal bestmove {text:?} after {}:\n{}",
                moves.join(" "),
                engine.transcript.join("\n")
            )
        });
        pos.play_unchecked(m);
        moves.push(text);
        *seen.entry(repetition_key(&pos)).or_insert(0) += 1;
    };
    println!(
        "self-play: {} plies, ended by {ending}; clocks left w {wtime} ms b {btime} ms; \
         {overruns} moves past the clock (as measured by this test, pipes included)",
        moves.len()
    );
    assert!(!moves.is_empty());
    assert!(white.quit());
    assert!(black.quit());
}
