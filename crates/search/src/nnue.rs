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
//! The output layer may be split into buckets by material (bullet's `MaterialCount`): the
//! pieces on the board, kings included, choose one of `B` output layers, `(pieces − 2) /
//! ⌈32 / B⌉`, so that an endgame and a middlegame weigh the same hidden neurons differently.
//! The accumulators are shared, so the incremental updates do not change.
//!
//! File format (`crates/search/nets/*.nnue`, written by `nnue-train`): the 8 bytes `CLIONNUE`
//! (the whole evaluation) or `CLIONNUR` (a correction to the hand-written one), the hidden size
//! as a little-endian `u32`, then little-endian `i16`s: the first layer's weights feature by
//! feature (`768 × HIDDEN`), its biases (`HIDDEN`), the output weights (`2 × HIDDEN`); last the
//! output bias as an `i32`. A bucketed network begins `CLIONNBE` (or `CLIONNBR`), then the
//! hidden size and the number of buckets as `u32`s, the first layer as above, each bucket's
//! output weights in turn and each bucket's bias as an `i32`.

use std::sync::LazyLock;

use clio_board::shakmaty::{Board, Color, Piece, Role, Square};
use clio_board::PieceChanges;

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
/// The file's first bytes: a network with output buckets.
pub const MAGIC_BUCKETS: &[u8; 8] = b"CLIONNBE";
/// The file's first bytes: a correction with output buckets.
pub const MAGIC_BUCKETS_RESIDUAL: &[u8; 8] = b"CLIONNBR";
/// The most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;

/// The output bucket of a position with `pieces` pieces (kings included) in a network of
/// `buckets` buckets: `(pieces − 2) / ⌈32 / buckets⌉`, at most the last bucket.
#[inline]
pub fn bucket(pieces: u32, buckets: usize) -> usize {
    let per = 32usize.div_ceil(buckets.max(1));
    ((pieces.saturating_sub(2) as usize) / per).min(buckets.max(1) - 1)
}

/// The network the engine ships (trained by `nnue-train`; see crates/nnue/README.md).
static EMBEDDED: &[u8] = include_bytes!("../nets/clio-4.nnue");

/// A quantised network.
#[derive(Clone)]
pub struct Network {
    /// First layer, `[feature][neuron]`.
    pub ft_weights: Vec<[i16; HIDDEN]>,
    /// First layer's biases.
    pub ft_bias: [i16; HIDDEN],
    /// Output weights per bucket (one without buckets): `[0]` for the side to move's neurons,
    /// `[1]` for the other side's.
    pub out_weights: Vec<[[i16; HIDDEN]; 2]>,
    /// Output bias per bucket, at `QA·QB`.
    pub out_bias: Vec<i32>,
    /// Whether the output is a correction added to the hand-written evaluation.
    pub residual: bool,
    /// The output bucket of each piece count, 0 to 32 ([`bucket`] over the network's buckets,
    /// kept so that an evaluation reads a table instead of dividing).
    bucket_of: [u8; 33],
}

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not a Clio network.
    #[error("not a Clio network (no CLIONNUE, CLIONNUR, CLIONNBE or CLIONNBR header)")]
    Magic,
    /// No output bucket, or more than [`MAX_BUCKETS`].
    #[error("{0} output buckets; a network has 1 to {MAX_BUCKETS}")]
    Buckets(u32),
    /// Another hidden size than this build's.
    #[error("hidden layer of {0} neurons; this build reads {HIDDEN}")]
    Hidden(u32),
    /// Too short or too long.
    #[error("{0} bytes; a network of {HIDDEN} neurons and its output buckets has {1}")]
    Size(usize, usize),
    /// An output weight beyond ±`OUT_WEIGHT_MAX` (the trainer clips to ±1.98·QB = ±127).
    #[error("output weight {value} at {index} is beyond ±{OUT_WEIGHT_MAX}")]
    OutWeight {
        /// Its index among the output weights (bucket by bucket, the side to move's `HIDDEN`
        /// first, as in the file).
        index: usize,
        /// The weight.
        value: i16,
    },
}

/// The largest output weight magnitude a network may have: with it, a clipped neuron times its
/// weight (at most `QA · 128` = 32,640) fits in an `i16`, which lets [`Network::evaluate`]
/// multiply in 16 bits and sum pairs in 32 (SSE2's `pmullw` and `pmaddwd`) with the same result
/// as 32-bit products.
pub const OUT_WEIGHT_MAX: i16 = 128;

impl Network {
    /// The byte length of a network file of this build's shape without buckets.
    pub const FILE_LEN: usize = Self::file_len(1);

    /// The byte length of a network file of this build's shape with `buckets` output buckets.
    pub const fn file_len(buckets: usize) -> usize {
        let header = if buckets == 1 { 8 + 4 } else { 8 + 4 + 4 };
        header + 2 * (FEATURES * HIDDEN + HIDDEN) + buckets * (2 * 2 * HIDDEN + 4)
    }

    /// The number of output buckets (1 without).
    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// A network of these layers (`out_weights` and `out_bias` of one length, the buckets).
    pub fn new(
        ft_weights: Vec<[i16; HIDDEN]>,
        ft_bias: [i16; HIDDEN],
        out_weights: Vec<[[i16; HIDDEN]; 2]>,
        out_bias: Vec<i32>,
        residual: bool,
    ) -> Network {
        debug_assert_eq!(out_weights.len(), out_bias.len());
        let mut net = Network {
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            residual,
            bucket_of: [0; 33],
        };
        net.set_buckets(net.out_bias.len());
        net
    }

    /// Gives the network `buckets` output layers, each a copy of the first (tests, tools).
    pub fn set_buckets(&mut self, buckets: usize) {
        let buckets = buckets.clamp(1, MAX_BUCKETS);
        self.out_weights.resize(buckets, self.out_weights[0]);
        self.out_bias.resize(buckets, self.out_bias[0]);
        for (n, b) in self.bucket_of.iter_mut().enumerate() {
            *b = bucket(n as u32, buckets) as u8;
        }
    }

    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let u32_at = |i: usize| {
            bytes
                .get(i..i + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let magic = bytes.get(..8).ok_or(NetError::Magic)?;
        let (residual, bucketed) = match magic {
            m if m == MAGIC => (false, false),
            m if m == MAGIC_RESIDUAL => (true, false),
            m if m == MAGIC_BUCKETS => (false, true),
            m if m == MAGIC_BUCKETS_RESIDUAL => (true, true),
            _ => return Err(NetError::Magic),
        };
        let hidden = u32_at(8).ok_or(NetError::Magic)?;
        if hidden as usize != HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        let buckets = if bucketed {
            let b = u32_at(12).ok_or(NetError::Magic)?;
            if b == 0 || b as usize > MAX_BUCKETS {
                return Err(NetError::Buckets(b));
            }
            b as usize
        } else {
            1
        };
        let len = Self::file_len(buckets);
        if bytes.len() != len {
            return Err(NetError::Size(bytes.len(), len));
        }
        let header = if bucketed { 16 } else { 12 };
        let mut words = bytes[header..]
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
        let mut out_weights = vec![[[0i16; HIDDEN]; 2]; buckets];
        for (index, w) in out_weights.iter_mut().flatten().flatten().enumerate() {
            *w = next();
            if w.unsigned_abs() > OUT_WEIGHT_MAX.unsigned_abs() {
                return Err(NetError::OutWeight { index, value: *w });
            }
        }
        let tail = bytes.len() - 4 * buckets;
        let out_bias = (0..buckets)
            .map(|b| u32_at(tail + 4 * b).unwrap_or(0) as i32)
            .collect();
        Ok(Network::new(
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            residual,
        ))
    }

    /// The network file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.buckets();
        let mut out = Vec::with_capacity(Self::file_len(buckets));
        out.extend_from_slice(match (buckets > 1, self.residual) {
            (false, false) => MAGIC,
            (false, true) => MAGIC_RESIDUAL,
            (true, false) => MAGIC_BUCKETS,
            (true, true) => MAGIC_BUCKETS_RESIDUAL,
        });
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        if buckets > 1 {
            out.extend_from_slice(&(buckets as u32).to_le_bytes());
        }
        let words = self
            .ft_weights
            .iter()
            .flatten()
            .chain(&self.ft_bias)
            .chain(self.out_weights.iter().flatten().flatten());
        for w in words {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
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

    /// The evaluation in centipawns for `turn`, the side to move, from its accumulators, with
    /// `pieces` pieces on the board (kings included; it chooses the output bucket).
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, turn: Color, pieces: u32) -> i32 {
        self.evaluate_with(*SIMD, acc, turn, pieces)
    }

    /// [`Network::evaluate`] on the given instruction set (the tests compare them).
    #[inline]
    fn evaluate_with(&self, simd: Simd, acc: &Accumulator, turn: Color, pieces: u32) -> i32 {
        let (us, them) = (&acc.v[turn as usize], &acc.v[(!turn) as usize]);
        let b = usize::from(self.bucket_of[(pieces as usize).min(32)]);
        let [w_us, w_them] = &self.out_weights[b];
        let sum = match simd {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Simd::Avx2` is only chosen where the CPU reports AVX2.
            Simd::Avx2 => unsafe {
                screlu_dot_avx2(us, w_us).wrapping_add(screlu_dot_avx2(them, w_them))
            },
            #[cfg(target_arch = "x86_64")]
            Simd::Sse2 => screlu_dot(us, w_us).wrapping_add(screlu_dot(them, w_them)),
            Simd::Portable => {
                screlu_dot_plain(us, w_us).wrapping_add(screlu_dot_plain(them, w_them))
            }
        };
        (sum / QA + self.out_bias[b]) * SCALE / (QA * QB)
    }

    /// Writes to `next` the accumulators after a move with these `changes`, from the position
    /// whose accumulators are `prev`: one pass over each side's sums (read `prev`, subtract the
    /// removed pieces' weights, add the placed ones', write `next`), not a copy and then a pass
    /// per piece.
    #[inline]
    pub fn apply(&self, prev: &Accumulator, next: &mut Accumulator, changes: &PieceChanges) {
        self.apply_with(*SIMD, prev, next, changes);
    }

    /// [`Network::apply`] on the given instruction set (the tests compare them).
    #[inline]
    fn apply_with(
        &self,
        simd: Simd,
        prev: &Accumulator,
        next: &mut Accumulator,
        changes: &PieceChanges,
    ) {
        match simd {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Simd::Avx2` is only chosen where the CPU reports AVX2.
            Simd::Avx2 => unsafe { apply_avx2(self, prev, next, changes) },
            _ => self.apply_plain(prev, next, changes),
        }
    }

    /// The update in plain Rust, vectorised by the compiler for whatever target features the
    /// function it is inlined into has (SSE4.2 in the x86-64-v2 build, AVX2 in `apply_avx2`).
    #[inline(always)]
    fn apply_plain(&self, prev: &Accumulator, next: &mut Accumulator, changes: &PieceChanges) {
        let (removed, added) = (changes.removed(), changes.added());
        for persp in Color::ALL {
            let (src, dst) = (&prev.v[persp as usize], &mut next.v[persp as usize]);
            let w =
                |&(p, sq): &(Piece, Square)| &self.ft_weights[feature(persp, p.color, p.role, sq)];
            match (removed, added) {
                ([r0], [a0]) => {
                    let (r0, a0) = (w(r0), w(a0));
                    for i in 0..HIDDEN {
                        dst[i] = src[i].wrapping_sub(r0[i]).wrapping_add(a0[i]);
                    }
                }
                ([r0, r1], [a0]) => {
                    let (r0, r1, a0) = (w(r0), w(r1), w(a0));
                    for i in 0..HIDDEN {
                        dst[i] = src[i]
                            .wrapping_sub(r0[i])
                            .wrapping_sub(r1[i])
                            .wrapping_add(a0[i]);
                    }
                }
                _ => {
                    *dst = *src;
                    for r in removed {
                        sub(dst, w(r));
                    }
                    for a in added {
                        add(dst, w(a));
                    }
                }
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

#[inline(always)]
fn add(v: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (a, b) in v.iter_mut().zip(w) {
        *a = a.wrapping_add(*b);
    }
}

#[inline(always)]
fn sub(v: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (a, b) in v.iter_mut().zip(w) {
        *a = a.wrapping_sub(*b);
    }
}

/// Σ clamp(x, 0, QA)² · w over one side's sums, wrapping in `i32`: the clipped value times
/// the weight in 16 bits (exact, as |w| ≤ `OUT_WEIGHT_MAX`), then times the clipped value
/// again and summed in pairs into 32 bits (SSE2's `pmullw` and `pmaddwd`, eight neurons an
/// instruction). The compiler does not find that form on its own: it widens to 32 bits first,
/// four neurons an instruction.
#[cfg(target_arch = "x86_64")]
#[inline]
fn screlu_dot(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    use std::arch::x86_64::{
        _mm_add_epi32, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_madd_epi16, _mm_max_epi16,
        _mm_min_epi16, _mm_mullo_epi16, _mm_set1_epi16, _mm_setzero_si128, _mm_shuffle_epi32,
    };
    const { assert!(HIDDEN.is_multiple_of(8)) };
    // SAFETY: SSE2 is part of every x86_64 target; each load reads 8 `i16`s at an offset
    // below HIDDEN - 7 of a `[i16; HIDDEN]` (unaligned loads, so any address will do).
    unsafe {
        let (zero, qa) = (_mm_setzero_si128(), _mm_set1_epi16(QA as i16));
        let mut sum = _mm_setzero_si128();
        for i in (0..HIDDEN).step_by(8) {
            let x = _mm_loadu_si128(acc.as_ptr().add(i).cast());
            let w = _mm_loadu_si128(weights.as_ptr().add(i).cast());
            let v = _mm_min_epi16(_mm_max_epi16(x, zero), qa);
            sum = _mm_add_epi32(sum, _mm_madd_epi16(v, _mm_mullo_epi16(v, w)));
        }
        let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b01_00_11_10>(sum));
        let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b10_11_00_01>(sum));
        _mm_cvtsi128_si32(sum)
    }
}

/// The instruction set the evaluation runs on, chosen once at run time from what the CPU
/// reports, so one binary is fast on every worker: AVX2 where there is one (sixteen neurons an
/// instruction), else SSE2 (part of every x86-64 CPU), else plain Rust. Every choice gives the
/// same sums (the tests compare them on random networks and every move of the test positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simd {
    /// 256-bit AVX2, detected at run time.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// 128-bit SSE2 (the output layer by hand, the updates as the compiler vectorises them).
    #[cfg(target_arch = "x86_64")]
    Sse2,
    /// Plain Rust, for other targets.
    Portable,
}

impl Simd {
    /// The best this CPU has.
    pub fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                return Simd::Avx2;
            }
            Simd::Sse2
        }
        #[cfg(not(target_arch = "x86_64"))]
        Simd::Portable
    }
}

/// The instruction set this process evaluates with.
pub static SIMD: LazyLock<Simd> = LazyLock::new(Simd::detect);

/// [`Network::apply_plain`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn apply_avx2(
    net: &Network,
    prev: &Accumulator,
    next: &mut Accumulator,
    changes: &PieceChanges,
) {
    net.apply_plain(prev, next, changes);
}

/// `screlu_dot` on AVX2: the same steps on sixteen neurons an instruction, then the eight
/// 32-bit lanes summed.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_avx2(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    use std::arch::x86_64::{
        _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256,
        _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16,
        _mm256_set1_epi16, _mm256_setzero_si256, _mm_add_epi32, _mm_cvtsi128_si32,
        _mm_shuffle_epi32,
    };
    const { assert!(HIDDEN.is_multiple_of(16)) };
    let (zero, qa) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let mut sum = _mm256_setzero_si256();
    for i in (0..HIDDEN).step_by(16) {
        // SAFETY: each load reads 16 `i16`s at an offset below HIDDEN - 15 of a
        // `[i16; HIDDEN]` (unaligned loads, so any address will do).
        let (x, w) = unsafe {
            (
                _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                _mm256_loadu_si256(weights.as_ptr().add(i).cast()),
            )
        };
        let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, _mm256_mullo_epi16(v, w)));
    }
    let sum = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256::<1>(sum),
    );
    let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b01_00_11_10>(sum));
    let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b10_11_00_01>(sum));
    _mm_cvtsi128_si32(sum)
}

/// `screlu_dot` in plain Rust: the same sum, for other targets (and as the tests' reference).
#[inline]
fn screlu_dot_plain(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (x, w) in acc.iter().zip(weights) {
        let v = (*x).clamp(0, QA as i16);
        sum = sum.wrapping_add(i32::from(v) * i32::from(v.wrapping_mul(*w)));
    }
    sum
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
    net.evaluate(&net.refresh(board), turn, board.occupied().count() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clio_board::parse_epd;
    use clio_board::shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};
    use rand::{Rng, SeedableRng};

    /// A network with random weights of the sizes training produces (the shipped one may be
    /// small in places; random weights exercise every neuron), with `buckets` output buckets.
    fn random_net(buckets: usize) -> Network {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut net = NETWORK.clone();
        net.set_buckets(buckets);
        for row in &mut net.ft_weights {
            for w in row.iter_mut() {
                *w = rng.gen_range(-120..120);
            }
        }
        for b in &mut net.ft_bias {
            *b = rng.gen_range(-60..200);
        }
        for w in net.out_weights.iter_mut().flatten().flatten() {
            *w = rng.gen_range(-126..=126);
        }
        for b in &mut net.out_bias {
            *b = rng.gen_range(-5000..5000);
        }
        net
    }

    /// Every instruction set this CPU can run: the tests compare them all.
    fn sets() -> Vec<Simd> {
        let mut sets = vec![Simd::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            sets.push(Simd::Sse2);
            if std::arch::is_x86_feature_detected!("avx2") {
                sets.push(Simd::Avx2);
            } else {
                println!("this CPU has no AVX2: its path is not compared here");
            }
        }
        sets
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
        assert_eq!(EMBEDDED.len(), Network::file_len(NETWORK.buckets()));
        for buckets in [1, 2, 8, MAX_BUCKETS] {
            let net = random_net(buckets);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), Network::file_len(buckets));
            assert_eq!(
                &bytes[..8],
                if buckets == 1 { MAGIC } else { MAGIC_BUCKETS }
            );
            let back = Network::from_bytes(&bytes).expect("a bucketed network reads back");
            assert_eq!(back.buckets(), buckets);
            assert_eq!(back.to_bytes(), bytes);
            assert_eq!(back.out_bias, net.out_bias);
        }
    }

    /// bullet's `MaterialCount<8>`: (pieces − 2) / 4.
    #[test]
    fn buckets_follow_the_piece_count() {
        let eight: Vec<usize> = (2..=32).map(|n| bucket(n, 8)).collect();
        let want: Vec<usize> = (2..=32).map(|n| (n as usize - 2) / 4).collect();
        assert_eq!(eight, want);
        assert_eq!(
            (bucket(2, 8), bucket(5, 8), bucket(6, 8), bucket(32, 8)),
            (0, 0, 1, 7)
        );
        assert!((2..=32).all(|n| bucket(n, 1) == 0));
        assert!((2..=32).all(|n| bucket(n, 3) < 3) && bucket(32, 3) == 2);
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
        let mut wide = NETWORK.clone();
        wide.out_weights[0][0][5] = 129;
        assert_eq!(
            Network::from_bytes(&wide.to_bytes()).err(),
            Some(NetError::OutWeight {
                index: 5,
                value: 129
            })
        );
        wide.out_weights[0][0][5] = -128;
        assert!(Network::from_bytes(&wide.to_bytes()).is_ok());
        wide.out_weights[0][1][2] = -130;
        assert_eq!(
            Network::from_bytes(&wide.to_bytes()).err(),
            Some(NetError::OutWeight {
                index: HIDDEN + 2,
                value: -130
            })
        );
        wide.out_weights[0][1][2] = 0;
        assert!(Network::from_bytes(&wide.to_bytes()).is_ok());
        // Bucketed files: the count in range, the length to match, every bucket's weights checked.
        let mut eight = random_net(8);
        let bytes = eight.to_bytes();
        for bad in [0u32, MAX_BUCKETS as u32 + 1] {
            let mut b = bytes.clone();
            b[12..16].copy_from_slice(&bad.to_le_bytes());
            assert_eq!(Network::from_bytes(&b).err(), Some(NetError::Buckets(bad)));
        }
        let mut b = bytes.clone();
        b[12..16].copy_from_slice(&7u32.to_le_bytes());
        assert!(matches!(Network::from_bytes(&b), Err(NetError::Size(..))));
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 4]),
            Err(NetError::Size(..))
        ));
        assert_eq!(
            Network::from_bytes(&bytes[..14]).err(),
            Some(NetError::Magic)
        );
        eight.out_weights[6][0][3] = 200;
        assert_eq!(
            Network::from_bytes(&eight.to_bytes()).err(),
            Some(NetError::OutWeight {
                index: 6 * 2 * HIDDEN + 3,
                value: 200
            })
        );
    }

    /// The 16-bit evaluation equals the formula in 64-bit arithmetic, Σ clamp(x)² · w, for
    /// random accumulators over the whole i16 range and output weights at ±`OUT_WEIGHT_MAX`,
    /// with the weights and bias of the bucket the piece count chooses.
    #[test]
    fn evaluation_equals_the_wide_formula() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for i in 0..300 {
            let mut net = random_net([1, 8, 5][i % 3]);
            let pieces: u32 = rng.gen_range(2..=32);
            let b = bucket(pieces, net.buckets());
            for w in net.out_weights.iter_mut().flatten().flatten() {
                *w = rng.gen_range(-OUT_WEIGHT_MAX..=OUT_WEIGHT_MAX);
            }
            net.out_weights[b][0][0] = OUT_WEIGHT_MAX;
            net.out_weights[b][1][1] = -OUT_WEIGHT_MAX;
            let mut acc = Accumulator::default();
            for side in &mut acc.v {
                for x in side.iter_mut() {
                    *x = rng.gen_range(-400..400);
                }
                side[0] = i16::MAX;
                side[1] = QA as i16;
            }
            for turn in Color::ALL {
                let (us, them) = (&acc.v[turn as usize], &acc.v[(!turn) as usize]);
                let wide: i64 = us
                    .iter()
                    .chain(them)
                    .zip(net.out_weights[b].iter().flatten())
                    .map(|(x, w)| i64::from(*x).clamp(0, QA.into()).pow(2) * i64::from(*w))
                    .sum();
                let wide = (wide / i64::from(QA) + i64::from(net.out_bias[b])) * i64::from(SCALE)
                    / i64::from(QA * QB);
                assert_eq!(i64::from(net.evaluate(&acc, turn, pieces)), wide);
                for simd in sets() {
                    let e = net.evaluate_with(simd, &acc, turn, pieces);
                    assert_eq!(i64::from(e), wide, "{simd:?}");
                }
            }
        }
    }

    /// Every move of every bench and perft position and of their children (castling, en
    /// passant, promotions with and without capture among them): the accumulators the search
    /// updates equal those computed from scratch.
    #[test]
    fn incremental_updates_equal_a_refresh_two_plies_deep() {
        let net = random_net(1);
        let mut checked = 0;
        for simd in sets() {
            for pos in positions() {
                let acc = net.refresh(pos.board());
                for m in pos.legal_moves() {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    let mut next = Accumulator::default();
                    net.apply_with(simd, &acc, &mut next, &PieceChanges::of(pos.turn(), &m));
                    assert_eq!(next, net.refresh(child.board()), "{simd:?} {m:?}");
                    for m2 in child.legal_moves() {
                        let mut grandchild = child.clone();
                        grandchild.play_unchecked(m2);
                        let mut after = Accumulator::default();
                        let changes = PieceChanges::of(child.turn(), &m2);
                        net.apply_with(simd, &next, &mut after, &changes);
                        let want = net.refresh(grandchild.board());
                        assert_eq!(after, want, "{simd:?} {m:?} {m2:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000 * sets().len(), "{checked}");
    }

    /// The evaluation sees the position from the side to move: the colour-flipped position
    /// (pieces mirrored, colours and the side to move swapped) evaluates the same.
    #[test]
    fn evaluation_is_colour_symmetric() {
        let net = random_net(8);
        let mut nonzero = 0;
        for pos in positions() {
            let mut setup = pos.to_setup(EnPassantMode::Legal);
            setup.mirror();
            let Ok(mirror) = setup.position::<Chess>(CastlingMode::Chess960) else {
                continue;
            };
            let n = pos.board().occupied().count() as u32;
            let a = net.evaluate(&net.refresh(pos.board()), pos.turn(), n);
            let b = net.evaluate(&net.refresh(mirror.board()), mirror.turn(), n);
            assert_eq!(a, b, "{:?}", pos.board());
            nonzero += usize::from(a != 0);
        }
        assert!(nonzero > 40, "{nonzero}");
    }
}
