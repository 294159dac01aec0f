//! Cuckoo tables of reversible moves for upcoming-repetition detection (Marcel van Kervinck's
//! method, as Stockfish's `has_game_cycle` uses it): the key difference of every move of a
//! knight, bishop, rook, queen or king from one square to another on an empty board, for
//! either colour, with the turn flipped. A position whose key differs from that of an earlier
//! position by one of these differences is one such move away from repeating it.

use std::sync::LazyLock;

use shakmaty::{
    attacks,
    zobrist::{Zobrist64, ZobristValue},
    Bitboard, Color, Piece, Role, Square,
};

/// Table size: a power of two above twice the 3,668 entries.
const SIZE: usize = 8192;

#[inline]
fn h1(key: u64) -> usize {
    (key & (SIZE as u64 - 1)) as usize
}

#[inline]
fn h2(key: u64) -> usize {
    ((key >> 16) & (SIZE as u64 - 1)) as usize
}

pub(crate) struct Cuckoo {
    keys: Box<[u64; SIZE]>,
    /// The two squares of each entry's move (either may be the origin).
    squares: Box<[(Square, Square); SIZE]>,
}

impl Cuckoo {
    fn build() -> Cuckoo {
        let mut c = Cuckoo {
            keys: Box::new([0; SIZE]),
            squares: Box::new([(Square::A1, Square::A1); SIZE]),
        };
        let turn = Zobrist64::zobrist_for_white_turn().0;
        for color in Color::ALL {
            for role in [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ] {
                let piece = Piece { color, role };
                for s1 in Square::ALL {
                    for s2 in Square::ALL {
                        if s2 <= s1 || !attacks::attacks(s1, piece, Bitboard::EMPTY).contains(s2) {
                            continue;
                        }
                        let key = Zobrist64::zobrist_for_piece(s1, piece).0
                            ^ Zobrist64::zobrist_for_piece(s2, piece).0
                            ^ turn;
                        c.insert(key, (s1, s2));
                    }
                }
            }
        }
        c
    }

    fn insert(&mut self, mut key: u64, mut squares: (Square, Square)) {
        let mut i = h1(key);
        loop {
            std::mem::swap(&mut self.keys[i], &mut key);
            std::mem::swap(&mut self.squares[i], &mut squares);
            if key == 0 {
                break;
            }
            i = if i == h1(key) { h2(key) } else { h1(key) };
        }
    }

    /// The squares of the reversible move whose key difference is `diff`, if any.
    #[inline]
    pub(crate) fn lookup(&self, diff: u64) -> Option<(Square, Square)> {
        let i = h1(diff);
        if self.keys[i] == diff {
            return Some(self.squares[i]);
        }
        let i = h2(diff);
        (self.keys[i] == diff).then(|| self.squares[i])
    }
}

pub(crate) static CUCKOO: LazyLock<Cuckoo> = LazyLock::new(Cuckoo::build);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_holds_stockfishs_3668_reversible_moves() {
        // Stockfish asserts the same count when it fills its tables.
        // No key difference is 0 (two squares' keys never cancel), so 0 marks an empty slot.
        assert_eq!(CUCKOO.keys.iter().filter(|&&k| k != 0).count(), 3668);
    }
}
