//! clio-board: a thin, fast layer over `shakmaty::Chess` — a position with an incrementally kept
//! Zobrist key and repetition history, a compact 16-bit move, static exchange evaluation, a
//! gives-check test, the pieces a move removes and places, perft, and FEN/EPD parsing with errors
//! that name the bad field.

mod changes;
mod check;
mod cuckoo;
mod fen;
mod mv;
mod noisy;
mod perft;
mod position;
mod see;

pub use changes::PieceChanges;
pub use check::gives_check;
pub use fen::{parse_epd, parse_fen, parse_fen_in, FenError};
pub use mv::Move16;
pub use noisy::{is_noisy, noisy_moves, partition_noisy, quiet_moves};
pub use perft::{perft, perft_divide, perft_divide_until};
pub use position::Position;
pub use see::{see_ge, see_value};
pub use shakmaty;

/// Index of a piece for history tables: white P..K are 0..6, black P..K are 6..12.
#[inline]
pub fn piece_index(piece: shakmaty::Piece) -> usize {
    (piece.role as usize - 1) + 6 * piece.color.fold_wb(0, 1)
}

/// Number of distinct values `piece_index` returns.
pub const PIECE_COUNT: usize = 12;
