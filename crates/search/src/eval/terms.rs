//! The shape of the evaluation's linear part: score pairs, the [`Terms`] every weight belongs
//! to, and the [`Trace`] of a position (how often each term occurs for each side), from which
//! the evaluation can be recomputed under any weights without the board. The Texel tuner works
//! on traces.

use super::{king_danger_bonus, KING_ATTACK_DIV, KING_DANGER, PHASE_MAX, SCALE_FULL};

/// A middlegame/endgame score pair in centipawns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct S {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

/// A score pair (usable in constants).
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl std::ops::AddAssign for S {
    #[inline]
    fn add_assign(&mut self, other: S) {
        self.mg += other.mg;
        self.eg += other.eg;
    }
}

impl std::ops::Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, n: i32) -> S {
        s(self.mg * n, self.eg * n)
    }
}

/// Every linear term of the evaluation, one entry per weight: [`Weights`] holds score pairs,
/// a [`Trace`] holds per-side counts in the same shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms<T> {
    /// Material per role (P, N, B, R, Q, K), counted once per piece.
    pub material: [T; 6],
    /// Piece-square tables per role, laid out as printed: a8..h8 first, a1..h1 last, seen from
    /// the piece's own side (Black's pieces are flipped vertically).
    pub pst: [[T; 64]; 6],
    /// A pawn with an own pawn ahead on its file.
    pub doubled: T,
    /// A pawn without own pawns on the neighbouring files.
    pub isolated: T,
    /// A passed pawn (not the rear one of a doubled pair), by relative rank 1..8.
    pub passed: [T; 8],
    /// Per attacked square in the mobility area above a fixed offset (N, B, R, Q).
    pub mobility: [T; 4],
    /// Per attack on the enemy king zone (N, B, R, Q), the sum scaled by a percentage that
    /// grows with the number of attackers ([`KING_ATTACK_DIV`] is its 100%).
    pub king_attack: [T; 4],
    /// An own pawn one rank ahead of the king, on its file or a neighbouring one.
    pub shield_near: T,
    /// An own pawn two ranks ahead of the king, on its file or a neighbouring one.
    pub shield_far: T,
    /// Bishops on both square colours.
    pub bishop_pair: T,
    /// A rook on a file without pawns.
    pub rook_open_file: T,
    /// A rook on a file without own pawns but with enemy ones.
    pub rook_semi_open_file: T,
    /// Enemy pieces attacked: a knight, bishop, rook or queen by a pawn; a knight or bishop
    /// by a knight or bishop; a rook by a knight or bishop; a queen by a knight, bishop or rook.
    pub threats: [T; 4],
    /// A passed pawn whose stop square (the one ahead) is empty, by relative rank 1..8.
    pub passed_free: [T; 8],
    /// Per passed pawn on relative rank 4..7: its stop square's distance to the own king (`[0]`)
    /// and to the enemy king (`[1]`), times the rank less 3 (1 on the 4th rank, 4 on the 7th).
    pub passed_king: [T; 2],
    /// Safe checks (N, B, R, Q): squares a piece reaches from which it would give check, that
    /// no enemy piece attacks and no own piece stands on, counted per piece.
    pub safe_check: [T; 4],
    /// Enemy pieces we attack that no enemy piece, pawn or king defends: knights, bishops,
    /// rooks and queens (`[0]`), pawns (`[1]`).
    pub hanging: [T; 2],
    /// A backward pawn: no own pawn beside or behind it on the neighbouring files, its stop
    /// square attacked by an enemy pawn (isolated pawns are not counted again).
    pub backward: T,
    /// Per bishop, the own pawns on squares of its colour.
    pub bishop_pawns: T,
    /// A rook on the relative 7th rank with enemy pawns there or the enemy king on the 8th.
    pub rook_seventh: T,
    /// The king's distance to the nearest own pawn (none without pawns).
    pub king_pawn_distance: T,
    /// A pawn with an own pawn beside it on its rank (a phalanx) or defending it, by relative
    /// rank 1..8 (counted once per pawn).
    pub connected: [T; 8],
    /// A knight (`[0]`) or bishop (`[1]`) on an outpost: on relative rank 4..6, defended by an
    /// own pawn, on a square no enemy pawn can ever attack (none ahead on the neighbouring files).
    pub outpost: [T; 2],
    /// A knight or bishop with a pawn of either colour on the square ahead of it.
    pub minor_behind_pawn: T,
    /// Complexity (Ethereal 12's, after Stockfish's initiative), endgame values only: per pawn
    /// on the board, pawns on both flanks, a pawn endgame, and a constant. Not linear: their
    /// sum moves the endgame score towards the side it favours, never past 0
    /// ([`super::with_complexity`]), so a trace counts them in [`Trace::complexity`] and its
    /// per-side counts here stay 0.
    pub complexity: [T; 4],
    /// A passed pawn whose stop square (the one ahead) no enemy pawn, piece or king attacks,
    /// by relative rank 1..8 (Ethereal 12's safe advance; counted whether or not the square is
    /// empty, which [`Terms::passed_free`] counts).
    pub passed_safe: [T; 8],
    /// A passed pawn whose every square ahead up to the last rank is empty and attacked by no
    /// enemy pawn, piece or king (Ethereal 12's safe promotion path).
    pub passed_path: T,
    /// A rook on a passed pawn's file behind it, nothing between them: an own rook (`[0]`),
    /// an enemy rook (`[1]`) (Tarrasch's rule).
    pub rook_behind_passer: [T; 2],
    /// King danger (Ethereal 12's shape), middlegame values only: per side attacking the
    /// enemy king, the features [`super::KING_DANGER_FEATURES`] names sum to a danger under
    /// these weights, turned into a bonus by a non-linear rule ([`super::king_danger_bonus`]:
    /// its square in the middlegame, itself in the endgame, nothing below 0). A trace counts
    /// the features in [`Trace::king_danger`]; its per-side counts here stay 0.
    pub king_danger: [T; KING_DANGER],
}

/// The evaluation's weights.
pub type Weights = Terms<S>;

/// The groups of a [`Terms`] as `(name, entries)` in one fixed order, the tuner's parameter
/// order: `$one` makes a slice of one field, `$flat` flattens the piece-square tables and `$r` is
/// `&` or `&mut`.
macro_rules! groups {
    ($t:expr, $one:path, $flat:ident, $($r:tt)+) => {
        [
            ("material", $($r)+ $t.material[..]),
            ("pst", $t.pst.$flat()),
            ("doubled", $one($($r)+ $t.doubled)),
            ("isolated", $one($($r)+ $t.isolated)),
            ("passed", $($r)+ $t.passed[..]),
            ("mobility", $($r)+ $t.mobility[..]),
            ("king_attack", $($r)+ $t.king_attack[..]),
            ("shield_near", $one($($r)+ $t.shield_near)),
            ("shield_far", $one($($r)+ $t.shield_far)),
            ("bishop_pair", $one($($r)+ $t.bishop_pair)),
            ("rook_open_file", $one($($r)+ $t.rook_open_file)),
            ("rook_semi_open_file", $one($($r)+ $t.rook_semi_open_file)),
            ("threats", $($r)+ $t.threats[..]),
            ("passed_free", $($r)+ $t.passed_free[..]),
            ("passed_king", $($r)+ $t.passed_king[..]),
            ("safe_check", $($r)+ $t.safe_check[..]),
            ("hanging", $($r)+ $t.hanging[..]),
            ("backward", $one($($r)+ $t.backward)),
            ("bishop_pawns", $one($($r)+ $t.bishop_pawns)),
            ("rook_seventh", $one($($r)+ $t.rook_seventh)),
            ("king_pawn_distance", $one($($r)+ $t.king_pawn_distance)),
            ("connected", $($r)+ $t.connected[..]),
            ("outpost", $($r)+ $t.outpost[..]),
            ("minor_behind_pawn", $one($($r)+ $t.minor_behind_pawn)),
            ("complexity", $($r)+ $t.complexity[..]),
            ("passed_safe", $($r)+ $t.passed_safe[..]),
            ("passed_path", $one($($r)+ $t.passed_path)),
            ("rook_behind_passer", $($r)+ $t.rook_behind_passer[..]),
            ("king_danger", $($r)+ $t.king_danger[..]),
        ]
    };
}

/// Number of groups in a [`Terms`].
pub const GROUPS: usize = 29;

impl<T> Terms<T> {
    /// Each group with its name, in the tuner's order.
    pub fn groups(&self) -> [(&'static str, &[T]); GROUPS] {
        groups!(self, std::slice::from_ref, as_flattened, &)
    }

    /// What a group's traced sum is divided by: [`KING_ATTACK_DIV`] for the king attack units
    /// (traced as attacks times the percentage), 1 for every other group.
    pub fn divisor(group: &str) -> i32 {
        if group == "king_attack" {
            KING_ATTACK_DIV
        } else {
            1
        }
    }

    /// Each group with its name, writable, in the same order as [`Terms::groups`].
    pub fn groups_mut(&mut self) -> [(&'static str, &mut [T]); GROUPS] {
        groups!(self, std::slice::from_mut, as_flattened_mut, &mut)
    }
}

impl<T: Copy + Default> Default for Terms<T> {
    fn default() -> Self {
        let z = T::default();
        Terms {
            material: [z; 6],
            pst: [[z; 64]; 6],
            doubled: z,
            isolated: z,
            passed: [z; 8],
            mobility: [z; 4],
            king_attack: [z; 4],
            shield_near: z,
            shield_far: z,
            bishop_pair: z,
            rook_open_file: z,
            rook_semi_open_file: z,
            threats: [z; 4],
            passed_free: [z; 8],
            passed_king: [z; 2],
            safe_check: [z; 4],
            hanging: [z; 2],
            backward: z,
            bishop_pawns: z,
            rook_seventh: z,
            king_pawn_distance: z,
            connected: [z; 8],
            outpost: [z; 2],
            minor_behind_pawn: z,
            complexity: [z; 4],
            passed_safe: [z; 8],
            passed_path: z,
            rook_behind_passer: [z; 2],
            king_danger: [z; KING_DANGER],
        }
    }
}

/// What the evaluation of one position is made of: how often each term occurs for each side
/// (indexed Black 0, White 1), and the non-linear parts, fixed per position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace {
    /// Count of each term per side; `king_attack` counts are attacks times the percentage.
    pub terms: Terms<[i32; 2]>,
    /// Game phase, 0 (bare kings and pawns) to 24 (all pieces): the middlegame share in 24ths.
    pub phase: i32,
    /// Share of the score kept, in 64ths, when Black (0) or White (1) is the side ahead.
    pub scale: [i32; 2],
    /// Neither side can win (no pawns, less than a rook each): the evaluation is 0.
    pub draw: bool,
    /// What [`Terms::complexity`] weighs: pawns, pawns on both flanks, a pawn endgame.
    pub complexity: [i32; 3],
    /// White is to move (the tempo bonus goes to the side to move).
    pub white_to_move: bool,
    /// What [`Terms::king_danger`] weighs, per side (Black 0, White 1) attacking the enemy
    /// king; all 0 where the attack is too weak to count.
    pub king_danger: [[i32; KING_DANGER]; 2],
}

impl Trace {
    /// The evaluation, from the side to move's point of view, under `weights` and `tempo`:
    /// exactly [`super::evaluate`] when they are the shipped ones.
    pub fn evaluate(&self, weights: &Weights, tempo: i32) -> i32 {
        if self.draw {
            return 0;
        }
        let mut total = [S::default(); 2];
        for (side, sum) in total.iter_mut().enumerate() {
            for ((name, counts), (_, values)) in
                self.terms.groups().into_iter().zip(weights.groups())
            {
                let mut group = S::default();
                for (count, value) in counts.iter().zip(values) {
                    group += *value * count[side];
                }
                let div = Terms::<S>::divisor(name);
                group = s(group.mg / div, group.eg / div);
                *sum += group;
            }
            *sum += king_danger_bonus(&self.king_danger[side], &weights.king_danger);
        }
        let mg = total[1].mg - total[0].mg;
        let eg = super::with_complexity(
            total[1].eg - total[0].eg,
            self.complexity,
            &weights.complexity,
        );
        let score = (mg * self.phase + eg * (PHASE_MAX - self.phase)) / PHASE_MAX;
        let score = score * self.scale[usize::from(score > 0)] / SCALE_FULL;
        if self.white_to_move {
            score + tempo
        } else {
            tempo - score
        }
    }
}
