//! Upcoming-repetition detection (`Position::has_upcoming_repetition`, Stockfish's
//! `has_game_cycle` through cuckoo tables) judged by playing every legal move: each move that
//! repeats a position of the search tree must be found, and hand-worked cases that must not be.

use clio_board::Position;
use shakmaty::Position as _;

/// Whether some legal move of the side to move reaches a position of the search tree after
/// the root, within the fifty-move count: what `has_upcoming_repetition` predicts, by playing
/// every move.
fn repeats_by_a_legal_move(pos: &mut Position, tree_keys: &[u64]) -> bool {
    pos.legal_moves().iter().any(|m| {
        pos.play(m);
        let hit = tree_keys.contains(&pos.key());
        pos.undo();
        hit
    })
}

#[test]
fn upcoming_repetition_finds_every_legal_repeating_move_on_random_walks() {
    // Random walks in piece endings, where most moves are reversible. Every legal move that
    // repeats a position of the tree must be found; the cuckoo tables may also flag a move
    // that is not legal (a pinned piece, a king into check), as Stockfish's do.
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let (mut found, mut nodes) = (0, 0);
    for fen in [
        "4k3/8/8/8/8/8/8/R3K1N1 w - - 0 1",
        "r3k3/2n5/8/8/8/8/5B2/R3K1N1 w - - 0 1",
        "4k3/3q4/8/8/8/8/3Q4/4K3 w - - 0 1",
        "6k1/5ppp/8/8/8/8/2n2PPP/R5K1 b - - 0 1",
    ] {
        for _ in 0..20 {
            let mut pos = Position::from_fen(fen).expect("test FEN");
            pos.set_root();
            let mut tree = vec![pos.key()];
            for _ in 0..24 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let m = moves[(seed >> 33) as usize % moves.len()];
                pos.play(&m);
                tree.push(pos.key());
                // Positions strictly after the root, within the fifty-move count, with the
                // other side to move (odd distances back), but not the current one.
                let n = tree.len() - 1;
                let halfmoves = pos.chess().halfmoves() as usize;
                let earlier: Vec<u64> = (3..=n.min(halfmoves))
                    .step_by(2)
                    .filter(|&back| n - back >= 1)
                    .map(|back| tree[n - back])
                    .collect();
                let legal = repeats_by_a_legal_move(&mut pos, &earlier);
                nodes += 1;
                if legal {
                    found += 1;
                    assert!(pos.has_upcoming_repetition(), "missed in {}", pos.fen());
                }
            }
        }
    }
    assert!(
        found > 50,
        "only {found} repeating positions in {nodes} nodes"
    );
}

/// Plays `moves` (UCI) as search moves.
fn play(pos: &mut Position, moves: &[&str]) {
    for m in moves {
        let mv = clio_board::Move16::from_uci(m, pos.chess()).expect("legal");
        pos.play(&mv);
    }
}

#[test]
fn upcoming_repetition_needs_the_path_free_and_a_position_after_the_root() {
    // After 1. e4 e5 2. Nf3 Nc6 3. Ng1, ...Nb8 repeats the position after 1...e5.
    let mut pos = Position::startpos();
    pos.set_root();
    play(&mut pos, &["e2e4", "e7e5", "g1f3", "b8c6", "f3g1"]);
    assert!(pos.has_upcoming_repetition());
    // The same position with the root after 1...e5: that position is the root, not after it.
    let mut pos = Position::startpos();
    play(&mut pos, &["e2e4", "e7e5"]);
    pos.set_root();
    play(&mut pos, &["g1f3", "b8c6", "f3g1"]);
    assert!(!pos.has_upcoming_repetition());
    // Ra1-a3 would repeat the position after 1. Na2 (black's king is back on e8), but the
    // knight on a2 blocks the rook; no other earlier position is one move away.
    let mut pos = Position::from_fen("4k3/8/8/8/8/R7/8/2N1K3 w - - 0 1").expect("FEN");
    pos.set_root();
    play(
        &mut pos,
        &[
            "c1a2", "e8d8", "a3b3", "d8d7", "b3b1", "d7e7", "b1a1", "e7e8",
        ],
    );
    assert!(!pos.has_upcoming_repetition());
    // With the rook on b1 instead, Rb1-b3 repeats the position after 2. Rb3 (king on d8).
    let mut pos = Position::from_fen("4k3/8/8/8/8/R7/8/2N1K3 w - - 0 1").expect("FEN");
    pos.set_root();
    play(&mut pos, &["c1a2", "e8d8", "a3b3", "d8d7", "b3b1", "d7d8"]);
    assert!(pos.has_upcoming_repetition());
    // A null move cuts the history: after 3. Ng1 and black's pass, Nf3 would repeat the
    // position after 2. Nf3, but that lies before the null move.
    let mut pos = Position::startpos();
    pos.set_root();
    play(&mut pos, &["e2e4", "e7e5", "g1f3", "b8c6", "f3g1"]);
    assert!(pos.play_null());
    assert!(!pos.has_upcoming_repetition());
    pos.undo();
    assert!(
        pos.has_upcoming_repetition(),
        "...Nb8 repeats the position after 1...e5"
    );
}

/// A repetition is looked for only after the last null move (Stockfish's `pliesFromNull`): a
/// king that triangulates while the other side passes reaches the root position again, but the
/// line went through a pass, so the search may not score it a draw. A repetition after the pass
/// still counts.
#[test]
fn repetition_is_not_looked_for_across_a_null_move() {
    let fen = "7k/8/8/8/8/8/8/K7 w - - 10 1";
    let mut pos = Position::from_fen(fen).expect("FEN");
    let root_key = pos.key();
    pos.set_root();
    play(&mut pos, &["a1a2", "h8g8", "a2b2"]);
    assert!(pos.play_null());
    play(&mut pos, &["b2a1", "g8h8"]);
    assert_eq!(
        pos.key(),
        root_key,
        "the root position, White to move, again"
    );
    assert!(
        !pos.is_repetition(),
        "the root position again, but through a pass"
    );
    // After the pass, a shuffle that returns to the position right after it repeats.
    let mut pos = Position::from_fen(fen).expect("FEN");
    pos.set_root();
    assert!(pos.play_null());
    let after_pass = pos.key();
    play(&mut pos, &["h8g8", "a1a2", "g8h8", "a2a1"]);
    assert_eq!(pos.key(), after_pass);
    assert!(
        pos.is_repetition(),
        "the position after the pass, four plies later"
    );
}
