//! A compact 16-bit move for history tables and the transposition table.

use shakmaty::{uci::UciMove, CastlingMode, Chess, Move, Position as _, Role, Square};

/// A move in 16 bits: `from` (6) | `to` (6) | kind (4). Castling is stored as king-takes-rook
/// (shakmaty's representation), so the conversion back is lossless given the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move16(u16);

const KIND_NORMAL: u16 = 0;
const KIND_PROMO_KNIGHT: u16 = 1; // 1..=4: knight, bishop, rook, queen
const KIND_EN_PASSANT: u16 = 5;
const KIND_CASTLE: u16 = 6;

impl Move16 {
    /// The null move (`0000`): also "no move" in tables.
    pub const NONE: Move16 = Move16(0);

    /// Packs a shakmaty move. Drops (`Put`) do not occur in standard chess and map to `NONE`.
    #[inline]
    pub fn new(m: &Move) -> Move16 {
        let (from, to, kind) = match *m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => {
                let kind = match promotion {
                    Some(role) => KIND_PROMO_KNIGHT + (role as u16 - Role::Knight as u16),
                    None => KIND_NORMAL,
                };
                (from, to, kind)
            }
            Move::EnPassant { from, to } => (from, to, KIND_EN_PASSANT),
            Move::Castle { king, rook } => (king, rook, KIND_CASTLE),
            Move::Put { .. } => return Move16::NONE,
        };
        Move16(from as u16 | (to as u16) << 6 | kind << 12)
    }

    /// The raw 16 bits.
    #[inline]
    pub fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds from raw bits (as stored in the TT).
    #[inline]
    pub fn from_raw(raw: u16) -> Move16 {
        Move16(raw)
    }

    /// Whether this is the null move.
    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Origin square (the king's square for castling).
    #[inline]
    pub fn from_sq(self) -> Square {
        Square::new(u32::from(self.0 & 63))
    }

    /// Destination square (the rook's square for castling).
    #[inline]
    pub fn to_sq(self) -> Square {
        Square::new(u32::from((self.0 >> 6) & 63))
    }

    /// Index `from*64 + to` for butterfly tables.
    #[inline]
    pub fn butterfly(self) -> usize {
        (self.0 & 0xfff) as usize
    }

    /// Rebuilds the full shakmaty move in `pos`, or `None` if it is not legal there (so a stale
    /// TT or killer move can never be played).
    pub fn to_move(self, pos: &Chess) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        let (from, to) = (self.from_sq(), self.to_sq());
        let board = pos.board();
        let kind = self.0 >> 12;
        let m = match kind {
            KIND_NORMAL | 1..=4 => Move::Normal {
                role: board.role_at(from)?,
                from,
                capture: board.role_at(to),
                to,
                promotion: match kind {
                    KIND_NORMAL => None,
                    k => Some(Role::ALL[(Role::Knight as usize - 1) + (k - 1) as usize]),
                },
            },
            KIND_EN_PASSANT => Move::EnPassant { from, to },
            KIND_CASTLE => Move::Castle {
                king: from,
                rook: to,
            },
            _ => return None,
        };
        pos.is_legal(m).then_some(m)
    }

    /// Parses UCI text (`e2e4`, `e7e8q`, `e1g1`) in `pos`; `None` if unparsable or illegal.
    pub fn from_uci(text: &str, pos: &Chess) -> Option<Move> {
        let uci = UciMove::from_ascii(text.as_bytes()).ok()?;
        uci.to_move(pos).ok()
    }
}

impl Move16 {
    /// UCI text of a shakmaty move in standard (non-960) notation: castling as `e1g1`.
    pub fn uci(m: &Move) -> String {
        Move16::uci_in(m, CastlingMode::Standard)
    }

    /// UCI text in a castling mode: under `Chess960` castling is king-takes-rook (`e1h1`).
    pub fn uci_in(m: &Move, mode: CastlingMode) -> String {
        UciMove::from_move(*m, mode).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_legal_move_of_the_perft_positions() {
        for line in include_str!("../data/perft.epd").lines() {
            let fen = line.split(';').next().unwrap_or_default();
            let pos = crate::parse_fen(fen).expect("perft.epd is valid");
            for m in pos.legal_moves() {
                let packed = Move16::new(&m);
                assert_eq!(packed.to_move(&pos), Some(m), "{fen} {m:?}");
                let text = Move16::uci(&m);
                assert_eq!(Move16::from_uci(&text, &pos), Some(m), "{fen} {text}");
            }
        }
    }

    #[test]
    fn refuses_illegal_and_garbage() {
        let pos = Chess::default();
        assert_eq!(Move16::from_uci("e2e5", &pos), None);
        assert_eq!(Move16::from_uci("zz", &pos), None);
        assert_eq!(Move16::from_uci("0000", &pos), None);
        assert_eq!(Move16::NONE.to_move(&pos), None);
        // e7e5 packed is not legal for white.
        let black = Move16::from_raw(52 | 36 << 6);
        assert_eq!(black.to_move(&pos), None);
    }
}
