//! Quiet positions for fitting: the static evaluation is only meaningful where no capture is
//! pending, so each position is replaced by the leaf of its quiescence search's principal
//! variation (the Texel method as described by Peter Österlund, chessprogramming.org "Texel's
//! Tuning Method"); positions in check are dropped.

use clio_board::see_ge;
use clio_board::see_value;
use clio_board::shakmaty::{Chess, Move, Position as _};
use clio_search::eval::evaluate;

/// Plies of captures the search follows at most (a leaf this deep is taken as it is).
const MAX_PLIES: usize = 16;

/// The quiet position `pos` resolves to: itself when standing pat is best, else the leaf the
/// best capture sequence reaches. `None` when `pos` or that leaf is in check, or the game is
/// over.
pub fn quiet_leaf(pos: &Chess) -> Option<Chess> {
    if pos.is_check() || pos.is_game_over() {
        return None;
    }
    let (_, leaf) = qsearch(pos, -i32::MAX, i32::MAX, 0);
    let leaf = leaf.unwrap_or_else(|| pos.clone());
    (!leaf.is_check()).then_some(leaf)
}

/// Fail-hard quiescence search over captures and promotions that do not lose material by
/// static exchange, ordered most valuable victim first. Returns the score and, when a move
/// beat standing pat, the leaf of the line it starts.
fn qsearch(pos: &Chess, mut alpha: i32, beta: i32, ply: usize) -> (i32, Option<Chess>) {
    let stand_pat = evaluate(pos);
    if stand_pat >= beta || ply >= MAX_PLIES {
        return (stand_pat, None);
    }
    alpha = alpha.max(stand_pat);
    let mut moves: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| (m.is_capture() || m.is_promotion()) && see_ge(pos, m, 0))
        .collect();
    moves.sort_by_key(|m| -m.capture().map_or(0, see_value));
    let mut best_leaf = None;
    for m in moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let (score, leaf) = qsearch(&child, -beta, -alpha, ply + 1);
        let score = -score;
        if score > alpha {
            alpha = score;
            best_leaf = Some(leaf.unwrap_or(child));
            if score >= beta {
                break;
            }
        }
    }
    (alpha, best_leaf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clio_board::parse_fen;

    #[test]
    fn a_hanging_queen_is_taken_before_the_position_counts() {
        // White's queen on d5 hangs to the e6 pawn.
        let pos = parse_fen("4k3/8/4p3/3Q4/8/8/8/4K3 b - - 0 1").expect("legal");
        let leaf = quiet_leaf(&pos).expect("not in check");
        assert!(leaf.board().queens().is_empty(), "{:?}", leaf.board());
    }

    #[test]
    fn a_quiet_position_is_its_own_leaf_and_checks_are_dropped() {
        let start = Chess::default();
        assert_eq!(quiet_leaf(&start).expect("quiet").board(), start.board());
        let check = parse_fen("4k3/8/8/8/8/8/8/4RK2 b - - 0 1").expect("legal");
        assert!(quiet_leaf(&check).is_none());
    }
}
