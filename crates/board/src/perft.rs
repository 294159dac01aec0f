//! Perft: counts leaf nodes of the legal move tree, with bulk counting at depth 1.

use shakmaty::{Chess, Move, Position as _};

/// Leaf nodes at `depth` (bulk-counted: the last ply counts moves instead of playing them).
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Leaf nodes under each root move, in move-generation order (Stockfish's `go perft` output).
pub fn perft_divide(pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
