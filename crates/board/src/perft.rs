//! Perft: counts leaf nodes of the legal move tree, with bulk counting at depth 1.

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Move, Position as _};

/// Leaf nodes at `depth` (bulk-counted: the last ply counts moves instead of playing them).
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    count(pos, depth, &AtomicBool::new(false))
}

/// Leaf nodes at `depth`, giving up (with a partial count) once `stop` is set.
fn count(pos: &Chess, depth: u32, stop: &AtomicBool) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ if stop.load(Ordering::Relaxed) => 0,
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                count(&child, depth - 1, stop)
            })
            .sum(),
    }
}

/// Leaf nodes under each root move, in move-generation order (Stockfish's `go perft` output).
pub fn perft_divide(pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    perft_divide_until(pos, depth, &AtomicBool::new(false), |m, n| out.push((m, n)));
    out
}

/// `perft_divide` that hands each root move's count to `each` as soon as it is known and gives
/// up once `stop` is set (a move whose count was cut short is not reported); false if stopped.
pub fn perft_divide_until(
    pos: &Chess,
    depth: u32,
    stop: &AtomicBool,
    mut each: impl FnMut(Move, u64),
) -> bool {
    if depth == 0 {
        return true;
    }
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let n = count(&child, depth - 1, stop);
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        each(m, n);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_stop_flag_ends_perft_early() {
        let stop = AtomicBool::new(true);
        let mut reported = 0;
        assert!(!perft_divide_until(&Chess::default(), 9, &stop, |_, _| {
            reported += 1
        }));
        assert_eq!(reported, 0);
        let go_on = AtomicBool::new(false);
        assert!(perft_divide_until(&Chess::default(), 2, &go_on, |_, n| {
            assert_eq!(n, 20);
            reported += 1;
        }));
        assert_eq!(reported, 20);
    }
}
