//! The neural evaluation (NNUE): a `768 → HIDDEN ×2 → 1` network with squared clipped ReLU
//! (SCReLU), the shape most engines start with (bullet's `simple` example, Carp, Viridithas'
//! early nets). Each side has an accumulator, the first layer's sum over the pieces seen from
//! that side (own pieces first, the board mirrored for Black); the search keeps one pair per ply
//! and updates it by the few features a move changes. The output layer reads the side to move's
//! accumulator, then the other's.
//!
//! Quantised as bullet writes it: the first layer in `i16` at `QA` = 255, the output weights at
//! `QB` = 64, its bias at `QA·QB`; the score is `out · SCALE / (QA·QB)` centipawns.
//!
//! A network is either the whole evaluation or a correction added to the hand-written one
//! (trained with `nnue-train --residual`); the file says which.
//!
//! File format (`crates/search/nets/*.nnue`, written by `nnue-train`): the 8 bytes `CLIONNUE`
//! (the whole evaluation) or `CLIONNUR` (a correction to the hand-written one),
//! the hidden size as a little-endian `u32`, then little-endian `i16`s: the first layer's
//! weights feature by feature (`768 × HIDDEN`), its biases (`HIDDEN`), the output weights
//! (`2 × HIDDEN`); last the output bias as an `i32`.

use std::sync::LazyLock;

use clio_board::shakmaty::{Board, CastlingSide, Color, Move, Role, Square};

/// Neurons per side of the hidden layer.
pub const HIDDEN: usize = 256;
/// Input features: 2 colours × 6 roles × 64 squares.
pub const FEATURES: usize = 768;
/// The first layer's quantisation.
pub const QA: i32 = 255;
/// The output layer's quantisation.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The file's first bytes: a network that is the whole evaluation.
pub const MAGIC: &[u8; 8] = b"CLIONNUE";
/// The file's first bytes: a network that corrects the hand-written evaluation.
pub const MAGIC_RESIDUAL: &[u8; 8] = b"CLIONNUR";

/// The network the engine ships (trained by `nnue-train`; see crates/nnue/README.md).
static EMBEDDED: &[u8] = include_bytes!("../nets/clio-2.nnue");

/// A quantised network.
#[derive(Clone)]
pub struct Network {
    /// First layer, `[feature][neuron]`.
    pub ft_weights: Vec<[i16; HIDDEN]>,
    /// First layer's biases.
    pub ft_bias: [i16; HIDDEN],
    /// Output weights: the side to move's neurons, then the other side's.
    pub out_weights: [i16; 2 * HIDDEN],
    /// Output bias, at `QA·QB`.
    pub out_bias: i32,
    /// Whether the output is a correction added to the hand-written evaluation.
    pub residual: bool,
}

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not a Clio network.
    #[error("not a Clio network (no CLIONNUE or CLIONNUR header)")]
    Magic,
    /// Another hidden size than this build's.
    #[error("hidden layer of {0} neurons; this build reads {HIDDEN}")]
    Hidden(u32),
    /// Too short or too long.
    #[error("{0} bytes; a network of {HIDDEN} neurons has {1}")]
    Size(usize, usize),
}

impl Network {
    /// The byte length of a network file of this build's shape.
    pub const FILE_LEN: usize = 8 + 4 + 2 * (FEATURES * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 12 || (&bytes[..8] != MAGIC && &bytes[..8] != MAGIC_RESIDUAL) {
            return Err(NetError::Magic);
        }
        let residual = &bytes[..8] == MAGIC_RESIDUAL;
        let hidden = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        if hidden as usize != HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        if bytes.len() != Self::FILE_LEN {
            return Err(NetError::Size(bytes.len(), Self::FILE_LEN));
        }
        let mut words = bytes[12..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut next = || words.next().unwrap_or(0);
        let mut ft_weights = vec![[0i16; HIDDEN]; FEATURES];
        for row in &mut ft_weights {
            for w in row.iter_mut() {
                *w = next();
            }
        }
        let mut ft_bias = [0i16; HIDDEN];
        for b in &mut ft_bias {
            *b = next();
        }
        let mut out_weights = [0i16; 2 * HIDDEN];
        for w in &mut out_weights {
            *w = next();
        }
        let tail = &bytes[bytes.len() - 4..];
        let out_bias = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        Ok(Network {
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            residual,
        })
    }

    /// The network file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::FILE_LEN);
        out.extend_from_slice(if self.residual { MAGIC_RESIDUAL } else { MAGIC });
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let words = self
            .ft_weights
            .iter()
            .flatten()
            .chain(&self.ft_bias)
            .chain(&self.out_weights);
        for w in words {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        out
    }

    /// The accumulators of `board` from scratch.
    pub fn refresh(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            v: [self.ft_bias; 2],
        };
        for sq in board.occupied() {
            if let Some(piece) = board.piece_at(sq) {
                for persp in Color::ALL {
                    add(
                        &mut acc.v[persp as usize],
                        &self.ft_weights[feature(persp, piece.color, piece.role, sq)],
                    );
                }
            }
        }
        acc
    }

    /// The evaluation in centipawns for `turn`, the side to move, from its accumulators.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, turn: Color) -> i32 {
        let (us, them) = (&acc.v[turn as usize], &acc.v[(!turn) as usize]);
        let mut sum = 0i32;
        for (x, w) in us.iter().zip(&self.out_weights[..HIDDEN]) {
            let v = i32::from(*x).clamp(0, QA);
            sum += v * (v * i32::from(*w));
        }
        for (x, w) in them.iter().zip(&self.out_weights[HIDDEN..]) {
            let v = i32::from(*x).clamp(0, QA);
            sum += v * (v * i32::from(*w));
        }
        (sum / QA + self.out_bias) * SCALE / (QA * QB)
    }

    /// Writes to `next` the accumulators after `m`, played by `us` from the position whose
    /// accumulators are `prev`.
    #[inline]
    pub fn update_into(&self, prev: &Accumulator, next: &mut Accumulator, us: Color, m: &Move) {
        next.v = prev.v;
        let them = !us;
        let mut adds: [(Color, Role, Square); 2] = [(us, Role::Pawn, Square::A1); 2];
        let mut subs: [(Color, Role, Square); 2] = [(us, Role::Pawn, Square::A1); 2];
        let (na, ns) = match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                adds[0] = (us, promotion.unwrap_or(role), to);
                subs[0] = (us, role, from);
                match capture {
                    Some(c) => {
                        subs[1] = (them, c, to);
                        (1, 2)
                    }
                    None => (1, 1),
                }
            }
            Move::EnPassant { from, to } => {
                adds[0] = (us, Role::Pawn, to);
                subs[0] = (us, Role::Pawn, from);
                subs[1] = (
                    them,
                    Role::Pawn,
                    Square::from_coords(to.file(), from.rank()),
                );
                (1, 2)
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                adds[0] = (us, Role::King, side.king_to(us));
                adds[1] = (us, Role::Rook, side.rook_to(us));
                subs[0] = (us, Role::King, king);
                subs[1] = (us, Role::Rook, rook);
                (2, 2)
            }
            Move::Put { .. } => (0, 0),
        };
        for persp in Color::ALL {
            let v = &mut next.v[persp as usize];
            for &(c, r, sq) in &subs[..ns] {
                sub(v, &self.ft_weights[feature(persp, c, r, sq)]);
            }
            for &(c, r, sq) in &adds[..na] {
                add(v, &self.ft_weights[feature(persp, c, r, sq)]);
            }
        }
    }
}

/// The first layer's sums seen from White (`v[0]`) and from Black (`v[1]`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(align(64))]
pub struct Accumulator {
    /// Indexed by [`Color`] as `usize` (Black 0, White 1 in shakmaty).
    pub v: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            v: [[0; HIDDEN]; 2],
        }
    }
}

#[inline]
fn add(v: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (a, b) in v.iter_mut().zip(w) {
        *a = a.wrapping_add(*b);
    }
}

#[inline]
fn sub(v: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (a, b) in v.iter_mut().zip(w) {
        *a = a.wrapping_sub(*b);
    }
}

/// The input index of a `color` `role` on `sq` seen from `persp`: own pieces first, then the
/// other side's, by role (pawn first) and square, the board mirrored vertically for Black.
#[inline]
pub fn feature(persp: Color, color: Color, role: Role, sq: Square) -> usize {
    let side = usize::from(color != persp);
    let sq = if persp == Color::White {
        sq as usize
    } else {
        sq as usize ^ 56
    };
    side * 384 + (role as usize - 1) * 64 + sq
}

/// The shipped network.
pub static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes(EMBEDDED).expect("the embedded network matches this build's shape")
});

/// The shipped network's evaluation of `board` with `turn` to move, from scratch (tests, tools).
pub fn evaluate_board(board: &Board, turn: Color) -> i32 {
    let net = &*NETWORK;
    net.evaluate(&net.refresh(board), turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clio_board::parse_epd;
    use clio_board::shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};
    use rand::{Rng, SeedableRng};

    /// A network with random weights of the sizes training produces (the shipped one may be
    /// small in places; random weights exercise every neuron).
    fn random_net() -> Network {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut net = NETWORK.clone();
        for row in &mut net.ft_weights {
            for w in row.iter_mut() {
                *w = rng.gen_range(-120..120);
            }
        }
        for b in &mut net.ft_bias {
            *b = rng.gen_range(-60..200);
        }
        for w in &mut net.out_weights {
            *w = rng.gen_range(-126..=126);
        }
        net.out_bias = rng.gen_range(-5000..5000);
        net
    }

    fn positions() -> Vec<Chess> {
        [
            include_str!("../data/bench.epd"),
            include_str!("../../board/data/perft.epd"),
        ]
        .iter()
        .flat_map(|text| text.lines())
        .filter(|line| !line.trim().is_empty())
        .map(|line| parse_epd(line).expect(line).0)
        .collect()
    }

    #[test]
    fn the_embedded_network_reads_and_writes_back_byte_for_byte() {
        assert_eq!(NETWORK.to_bytes(), EMBEDDED);
        assert_eq!(EMBEDDED.len(), Network::FILE_LEN);
    }

    #[test]
    fn bad_network_files_are_refused() {
        assert_eq!(
            Network::from_bytes(b"NOTANNUE").err(),
            Some(NetError::Magic)
        );
        let mut bytes = EMBEDDED.to_vec();
        bytes[8] = 7;
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::Hidden(_))
        ));
        let short = &EMBEDDED[..EMBEDDED.len() - 2];
        assert!(matches!(
            Network::from_bytes(short),
            Err(NetError::Size(..))
        ));
    }

    /// Every move of every bench and perft position and of their children (castling, en
    /// passant, promotions with and without capture among them): the accumulators the search
    /// updates equal those computed from scratch.
    #[test]
    fn incremental_updates_equal_a_refresh_two_plies_deep() {
        let net = random_net();
        let mut checked = 0;
        for pos in positions() {
            let acc = net.refresh(pos.board());
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let mut next = Accumulator::default();
                net.update_into(&acc, &mut next, pos.turn(), &m);
                assert_eq!(next, net.refresh(child.board()), "{m:?}");
                for m2 in child.legal_moves() {
                    let mut grandchild = child.clone();
                    grandchild.play_unchecked(m2);
                    let mut after = Accumulator::default();
                    net.update_into(&next, &mut after, child.turn(), &m2);
                    assert_eq!(after, net.refresh(grandchild.board()), "{m:?} {m2:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// The evaluation sees the position from the side to move: the colour-flipped position
    /// (pieces mirrored, colours and the side to move swapped) evaluates the same.
    #[test]
    fn evaluation_is_colour_symmetric() {
        let net = random_net();
        let mut nonzero = 0;
        for pos in positions() {
            let mut setup = pos.to_setup(EnPassantMode::Legal);
            setup.mirror();
            let Ok(mirror) = setup.position::<Chess>(CastlingMode::Chess960) else {
                continue;
            };
            let a = net.evaluate(&net.refresh(pos.board()), pos.turn());
            let b = net.evaluate(&net.refresh(mirror.board()), mirror.turn());
            assert_eq!(a, b, "{:?}", pos.board());
            nonzero += usize::from(a != 0);
        }
        assert!(nonzero > 40, "{nonzero}");
    }
}
