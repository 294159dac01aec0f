//! Whether a move gives check, before it is played: a direct check by the piece on its new
//! square, or a discovered one by a slider the move unmasks. Castling and en passant (rare, and
//! each with its own geometry) are played on a copy instead.

use shakmaty::{attacks, Bitboard, Chess, Move, Piece, Position as _};

/// Whether `m` (legal in `pos`) checks the side not to move.
pub fn gives_check(pos: &Chess, m: &Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    match *m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => {
            let occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
            let piece = Piece {
                color: us,
                role: promotion.unwrap_or(role),
            };
            if attacks::attacks(to, piece, occupied).contains(king) {
                return true;
            }
            let ours = board.by_color(us) & !Bitboard::from(from) & !Bitboard::from(to);
            let rays = (attacks::rook_attacks(king, occupied) & board.rooks_and_queens())
                | (attacks::bishop_attacks(king, occupied) & board.bishops_and_queens());
            (rays & ours).any()
        }
        _ => {
            let mut after = pos.clone();
            after.play_unchecked(*m);
            after.is_check()
        }
    }
}
