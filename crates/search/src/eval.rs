//! Static evaluation (placeholder: material only, replaced by the tapered evaluation).

use shakmaty::{Chess, Position as _, Role};

use clio_board::shakmaty;

/// Score of `pos` in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let us = board.by_color(pos.turn());
    let value = |r: Role| match r {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 0,
    };
    Role::ALL
        .into_iter()
        .map(|r| {
            let pieces = board.by_role(r);
            value(r) * ((pieces & us).count() as i32 - (pieces & !us).count() as i32)
        })
        .sum()
}
