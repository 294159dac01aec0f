//! Candidate openings: a seeded random walk of legal moves from a start position, steered away
//! from obvious blunders by static exchange evaluation.
//!
//! Candidate `i` of a run draws every choice from ChaCha8 seeded with the run's seed on stream
//! `i`, so it is the same position whatever the thread count, and ChaCha8's output does not
//! change across `rand` versions.

use clio_board::see_ge;
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Move, Position};

pub use crate::game::fen_of;

/// A capture that wins at least this much (SEE units, a pawn is 100) leaves material hanging.
const HANG_MARGIN: i32 = 100;

/// The random-number generator of candidate `index` in a run with `seed`.
pub fn candidate_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// Whether a move is no obvious blunder: it does not lose its own exchange (SEE ≥ 0) and leaves
/// the opponent no capture that wins material.
pub fn is_sound(pos: &Chess, m: &Move) -> bool {
    if !see_ge(pos, m, 0) {
        return false;
    }
    let mut after = pos.clone();
    after.play_unchecked(*m);
    !after
        .capture_moves()
        .iter()
        .any(|c| see_ge(&after, c, HANG_MARGIN))
}

/// The moves a walk chooses from: the sound ones; if there are none, those that at least do
/// not lose their own exchange; if there are none either, every legal move.
pub fn candidate_moves(pos: &Chess) -> Vec<Move> {
    let legal = pos.legal_moves();
    let sound: Vec<Move> = legal.iter().filter(|m| is_sound(pos, m)).copied().collect();
    if !sound.is_empty() {
        return sound;
    }
    let even: Vec<Move> = legal
        .iter()
        .filter(|m| see_ge(pos, m, 0))
        .copied()
        .collect();
    if !even.is_empty() {
        return even;
    }
    legal.iter().copied().collect()
}

/// Plays `plies` random moves from `start`, each uniform among [`candidate_moves`]. Returns
/// `None` if the game ends (no legal move) before the last ply.
pub fn random_walk(start: &Chess, plies: u32, rng: &mut impl Rng) -> Option<Chess> {
    let mut pos = start.clone();
    for _ in 0..plies {
        let moves = candidate_moves(&pos);
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        pos.play_unchecked(m);
    }
    Some(pos)
}

/// The duplicate key of a FEN: its first four fields (placement, side, castling, en passant),
/// the move counters ignored.
pub fn position_key(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn pos(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .expect("test FEN parses")
            .into_position(CastlingMode::Standard)
            .expect("test FEN is legal")
    }

    #[test]
    fn hanging_the_queen_is_not_sound() {
        // White queen d1; Qd1-d5 walks into the e6 pawn's capture.
        let p = pos("4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1");
        let moves = candidate_moves(&p);
        assert!(!moves.is_empty());
        assert!(moves
            .iter()
            .all(|m| !(m.to() == shakmaty::Square::D5 && m.role() == shakmaty::Role::Queen)));
        let qd5 = p
            .legal_moves()
            .iter()
            .find(|m| m.to() == shakmaty::Square::D5)
            .copied()
            .expect("Qd5 is legal");
        assert!(!is_sound(&p, &qd5));
    }

    #[test]
    fn walk_is_seeded() {
        let start = Chess::default();
        let a = random_walk(&start, 10, &mut candidate_rng(5, 3)).map(|p| fen_of(&p));
        let b = random_walk(&start, 10, &mut candidate_rng(5, 3)).map(|p| fen_of(&p));
        let others: Vec<_> = (4..10)
            .map(|i| random_walk(&start, 10, &mut candidate_rng(5, i)).map(|p| fen_of(&p)))
            .collect();
        assert_eq!(a, b);
        assert!(others.iter().any(|o| *o != a));
    }

    #[test]
    fn key_ignores_counters() {
        assert_eq!(
            position_key("8/8/8/4k3/8/8/8/4K3 w - - 12 40"),
            position_key("8/8/8/4k3/8/8/8/4K3 w - - 0 1")
        );
    }
}
