//! The pieces a move takes off the board and puts on it: what the Zobrist key and the network's
//! accumulators both update from.

use shakmaty::{CastlingSide, Color, Move, Piece, Role, Square};

/// What fills an unused slot of [`PieceChanges`]; never read.
const UNUSED: (Piece, Square) = (
    Piece {
        color: Color::White,
        role: Role::Pawn,
    },
    Square::A1,
);

/// The board changes of one move: at most two pieces removed and two placed (a castling moves
/// king and rook; a capture removes the mover from its square and the captured piece).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceChanges {
    removed: [(Piece, Square); 2],
    added: [(Piece, Square); 2],
    n_removed: u8,
    n_added: u8,
}

impl PieceChanges {
    /// No change: the null move's.
    pub const NONE: PieceChanges = PieceChanges {
        removed: [UNUSED; 2],
        added: [UNUSED; 2],
        n_removed: 0,
        n_added: 0,
    };

    /// The changes of `m`, played by `us`. A drop (`Move::Put`, not in standard chess or
    /// Chess960) changes nothing here.
    #[inline]
    pub fn of(us: Color, m: &Move) -> PieceChanges {
        let them = !us;
        let own = |role| Piece { color: us, role };
        let mut c = PieceChanges {
            n_removed: 1,
            n_added: 1,
            ..PieceChanges::NONE
        };
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                c.removed[0] = (own(role), from);
                c.added[0] = (own(promotion.unwrap_or(role)), to);
                if let Some(captured) = capture {
                    c.removed[1] = (
                        Piece {
                            color: them,
                            role: captured,
                        },
                        to,
                    );
                    c.n_removed = 2;
                }
            }
            Move::EnPassant { from, to } => {
                c.removed[0] = (own(Role::Pawn), from);
                c.removed[1] = (
                    Piece {
                        color: them,
                        role: Role::Pawn,
                    },
                    Square::from_coords(to.file(), from.rank()),
                );
                c.added[0] = (own(Role::Pawn), to);
                c.n_removed = 2;
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                c.removed = [(own(Role::King), king), (own(Role::Rook), rook)];
                c.added = [
                    (own(Role::King), side.king_to(us)),
                    (own(Role::Rook), side.rook_to(us)),
                ];
                c.n_removed = 2;
                c.n_added = 2;
            }
            Move::Put { .. } => return PieceChanges::NONE,
        }
        c
    }

    /// The pieces taken off, each with the square it leaves.
    #[inline]
    pub fn removed(&self) -> &[(Piece, Square)] {
        &self.removed[..usize::from(self.n_removed)]
    }

    /// The pieces put on, each with the square it lands on.
    #[inline]
    pub fn added(&self) -> &[(Piece, Square)] {
        &self.added[..usize::from(self.n_added)]
    }
}
