//! Tapered static evaluation: material and piece-square tables (PeSTO), pawn structure
//! (doubled, isolated, backward, connected), passed-pawn detail, the king's distance to its
//! pawns, mobility, king safety (attack units, safe checks and Ethereal 12's king danger),
//! threats and hanging pieces, knight and bishop outposts, minors behind pawns, bishop pair and
//! bishops' own pawns on their colour, rooks on open files and on the 7th, and a tempo bonus;
//! the score is scaled down in endgames a side cannot win without pawns and in those of
//! opposite-coloured bishops.
//!
//! Every term is a middlegame/endgame pair; the two sums are blended by the game phase, counted
//! from non-pawn material on the 24-point scale of Fruit and PeSTO (minor 1, rook 2, queen 4):
//! `score = (mg * phase + eg * (24 - phase)) / 24`. Terms are computed for each colour from its
//! own point of view, so the evaluation of a position equals that of its colour-flipped mirror.
//!
//! Every linear weight is in [`WEIGHTS`] (the generated `eval/weights.rs`); [`trace`] records
//! how often each one counts in a position, which is what the Texel tuner (crates/texel) fits.
//! The non-linear rules (the king-attack percentages, the complexity, the king danger, the
//! drawish-endgame scale, the draw rule) are fixed here; the complexity's and the king danger's
//! weights are in [`WEIGHTS`] too, and the tuner fits them through their rules.
//!
//! The search evaluates through [`evaluate_cached`]: the terms that depend on the pawns alone
//! are kept per pawn structure in a per-thread [`PawnCache`] (exact keys, so the score is
//! always [`evaluate`]'s).

mod terms;
mod weights;

pub use terms::{s, Terms, Trace, Weights, GROUPS, S};
pub use weights::{TEMPO, WEIGHTS};

use clio_board::shakmaty;
use shakmaty::{attacks, Bitboard, Board, Chess, Color, Position as _, Role, Square};

// ---------------------------------------------------------------------------------------------
// Fixed, non-linear parts.
// ---------------------------------------------------------------------------------------------

// Game phase: the 24-point scheme of Fruit 2.1 and PeSTO (indexed P, N, B, R, Q, K).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;

// Mobility: `(attacked squares in the mobility area - offset) * weight` per piece, with Fruit
// 2.1's offsets. The area excludes own pieces and squares enemy pawns attack. Indexed N, B, R, Q.
const MOBILITY_OFFSET: [i32; 4] = [4, 6, 7, 13];

// King safety (chessprogramming.org, "King Safety", attacking the king zone): each attack on the
// king zone (the king's square and its neighbours) is worth a unit per attacker type, and the
// sum is scaled by a percentage that grows with the number of attacking pieces.
const KING_ATTACK_PERCENT: [i32; 8] = [0, 0, 50, 75, 88, 94, 97, 99];
/// The king-attack percentages' 100%: the divisor of the scaled sum of units.
pub const KING_ATTACK_DIV: i32 = 100;

// King danger (Ethereal 12's shape): the features of an attack on the enemy king, weighed by
// the middlegame values of [`Terms::king_danger`], sum to a danger; if it is above 0, the
// attacker gets danger² / KING_DANGER_MG_DIV in the middlegame and danger / KING_DANGER_EG_DIV
// in the endgame. It counts only with two attackers on the king zone, or one beside an own
// queen on the board.
/// Features of [`Terms::king_danger`].
pub const KING_DANGER: usize = 13;
/// What each feature of [`Terms::king_danger`] counts, in order.
pub const KING_DANGER_FEATURES: [&str; KING_DANGER] = [
    "knights attacking the king zone",
    "bishops attacking the king zone",
    "rooks attacking the king zone",
    "queens attacking the king zone",
    "attacks on king-zone squares",
    "king-zone squares we attack that no enemy pawn, knight, bishop or rook defends",
    "safe knight checks",
    "safe bishop checks",
    "safe rook checks",
    "safe queen checks",
    "the defender's pawns in its king zone",
    "no own queen",
    "a constant",
];
/// The middlegame king danger's divisor of its square.
pub const KING_DANGER_MG_DIV: i32 = 720;
/// The endgame king danger's divisor.
pub const KING_DANGER_EG_DIV: i32 = 20;

/// The bonus of an attack on the king with `features` under `weights`
/// ([`Terms::king_danger`]; their endgame values are not used).
#[inline]
pub fn king_danger_bonus(features: &[i32; KING_DANGER], weights: &[S; KING_DANGER]) -> S {
    let danger: i32 = features.iter().zip(weights).map(|(f, w)| f * w.mg).sum();
    if danger <= 0 {
        return S::default();
    }
    s(
        danger * danger / KING_DANGER_MG_DIV,
        danger / KING_DANGER_EG_DIV,
    )
}

// Drawish-endgame scaling of the whole score, in 64ths: a side without pawns and with less than
// a rook of non-pawn material, or with two knights at most, cannot win; one without pawns whose
// non-pawn lead is at most a minor piece rarely does.
const SCALE_FULL: i32 = 64;
const SCALE_CANNOT_WIN: i32 = 0;
const SCALE_DRAWISH: i32 = 16;
// Opposite-coloured bishops with pawns (Ethereal 12's factors, in 64ths): the bishops alone keep
// half the score, beside one knight each 53/64, beside one rook each 48/64.
const SCALE_OCB_BISHOPS_ONLY: i32 = 32;
const SCALE_OCB_ONE_KNIGHT: i32 = 53;
const SCALE_OCB_ONE_ROOK: i32 = 48;
// The piece values those rules count with (PeSTO's middlegame values, N, B, R, Q), fixed so that
// fitting the material weights cannot move the rules.
const SCALE_PIECE_VALUE: [i32; 4] = [337, 365, 477, 1025];

/// The counts [`Terms::complexity`] weighs: pawns on the board, pawns on both flanks (0 or 1),
/// a pawn endgame (0 or 1).
fn complexity_counts(board: &Board) -> [i32; 3] {
    const QUEENSIDE: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let pawns = board.pawns().0;
    let both_flanks = pawns & QUEENSIDE != 0 && pawns & !QUEENSIDE != 0;
    let pieces = board.occupied() & !board.pawns() & !board.kings();
    [
        pawns.count_ones() as i32,
        i32::from(both_flanks),
        i32::from(pieces.is_empty()),
    ]
}

/// `eg` with the complexity of a position with `counts` ([`complexity_counts`]) applied under
/// the endgame values of `weights` ([`Terms::complexity`]): their sum moves it towards the side
/// it favours, and a net penalty never takes it past 0.
#[inline]
pub fn with_complexity(eg: i32, counts: [i32; 3], weights: &[S; 4]) -> i32 {
    let c = weights[0].eg * counts[0]
        + weights[1].eg * counts[1]
        + weights[2].eg * counts[2]
        + weights[3].eg;
    eg + eg.signum() * c.max(-eg.abs())
}

// ---------------------------------------------------------------------------------------------
// Tables derived once, at compile time.
// ---------------------------------------------------------------------------------------------

const DOUBLED: S = WEIGHTS.doubled;
const ISOLATED: S = WEIGHTS.isolated;
const PASSED: [S; 8] = WEIGHTS.passed;
const MOBILITY_WEIGHT: [S; 4] = WEIGHTS.mobility;
const KING_ATTACK_UNIT: [S; 4] = WEIGHTS.king_attack;
const SHIELD_NEAR: S = WEIGHTS.shield_near;
const SHIELD_FAR: S = WEIGHTS.shield_far;
const BISHOP_PAIR: S = WEIGHTS.bishop_pair;
const ROOK_OPEN_FILE: S = WEIGHTS.rook_open_file;
const ROOK_SEMI_OPEN_FILE: S = WEIGHTS.rook_semi_open_file;
const THREATS: [S; 4] = WEIGHTS.threats;
const PASSED_FREE: [S; 8] = WEIGHTS.passed_free;
const PASSED_KING: [S; 2] = WEIGHTS.passed_king;
const SAFE_CHECK: [S; 4] = WEIGHTS.safe_check;
const HANGING: [S; 2] = WEIGHTS.hanging;
const BACKWARD: S = WEIGHTS.backward;
const BISHOP_PAWNS: S = WEIGHTS.bishop_pawns;
const ROOK_SEVENTH: S = WEIGHTS.rook_seventh;
const KING_PAWN_DISTANCE: S = WEIGHTS.king_pawn_distance;
const CONNECTED: [S; 8] = WEIGHTS.connected;
const OUTPOST: [S; 2] = WEIGHTS.outpost;
const MINOR_BEHIND_PAWN: S = WEIGHTS.minor_behind_pawn;
const COMPLEXITY: [S; 4] = WEIGHTS.complexity;
const PASSED_SAFE: [S; 8] = WEIGHTS.passed_safe;
const PASSED_PATH: S = WEIGHTS.passed_path;
const ROOK_BEHIND_PASSER: [S; 2] = WEIGHTS.rook_behind_passer;
const KING_DANGER_WEIGHTS: [S; KING_DANGER] = WEIGHTS.king_danger;

/// Material plus piece-square value per role, indexed by the square relative to the piece's
/// own side (a1 = 0 from White's view; Black's squares are flipped vertically first).
const PSQ: [[S; 64]; 6] = build_psq();

const fn build_psq() -> [[S; 64]; 6] {
    let mut table = [[s(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            // The printed layout starts at a8, so a relative square's row is flipped.
            let (value, square) = (WEIGHTS.material[role], WEIGHTS.pst[role][sq ^ 56]);
            table[role][sq] = s(value.mg + square.mg, value.eg + square.eg);
            sq += 1;
        }
        role += 1;
    }
    table
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// For White (index 1) and Black (index 0): the squares strictly ahead of each square on its
/// own file and on the neighbouring files (a pawn there with no enemy pawn in it is passed).
const PASSED_SPAN: [[u64; 64]; 2] = build_spans(true);
/// For White (index 1) and Black (index 0): the squares strictly ahead on the same file.
const FRONT_SPAN: [[u64; 64]; 2] = build_spans(false);

const fn ranks_ahead(white: bool, rank: usize) -> u64 {
    if white {
        if rank == 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        }
    } else {
        (1u64 << (8 * rank)) - 1
    }
}

const fn adjacent_files(file: usize) -> u64 {
    let f = FILE_A << file;
    ((f << 1) & !FILE_A) | ((f >> 1) & !FILE_H)
}

const fn build_spans(with_adjacent: bool) -> [[u64; 64]; 2] {
    let mut table = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        let mut files = FILE_A << file;
        if with_adjacent {
            files |= adjacent_files(file);
        }
        table[0][sq] = ranks_ahead(false, rank) & files;
        table[1][sq] = ranks_ahead(true, rank) & files;
        sq += 1;
    }
    table
}

/// Pawn-shield squares for a king per colour (index as above) and square: one rank ahead
/// (`.0`) and two ranks ahead (`.1`) on the king's file and its neighbours.
const SHIELD: [[(u64, u64); 64]; 2] = build_shield();

const fn rank_bb(rank: usize) -> u64 {
    0xff << (8 * rank)
}

const fn build_shield() -> [[(u64, u64); 64]; 2] {
    let mut table = [[(0u64, 0u64); 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        let files = (FILE_A << file) | adjacent_files(file);
        if rank < 7 {
            table[1][sq].0 = files & rank_bb(rank + 1);
        }
        if rank < 6 {
            table[1][sq].1 = files & rank_bb(rank + 2);
        }
        if rank > 0 {
            table[0][sq].0 = files & rank_bb(rank - 1);
        }
        if rank > 1 {
            table[0][sq].1 = files & rank_bb(rank - 2);
        }
        sq += 1;
    }
    table
}

// ---------------------------------------------------------------------------------------------
// Evaluation.
// ---------------------------------------------------------------------------------------------

/// Score of `pos` in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let parts = [Color::White, Color::Black].map(|us| pawn_part(board, us, &mut NoTrace));
    evaluate_with_pawns(pos, parts)
}

/// [`evaluate`], with the pawn-only part of the evaluation looked up in (or stored into)
/// `cache`: the same score, computed faster where pawn structures repeat (they do in a search).
pub fn evaluate_cached(pos: &Chess, cache: &mut PawnCache) -> i32 {
    let board = pos.board();
    let pawns = board.pawns();
    let (white, black) = ((pawns & board.white()).0, (pawns & board.black()).0);
    let entry =
        &mut cache.entries[crate::history::pawn_key(white, black) as usize & (PAWN_CACHE_SIZE - 1)];
    if entry.pawns != [white, black] {
        *entry = PawnEntry {
            pawns: [white, black],
            parts: [Color::White, Color::Black].map(|us| pawn_part(board, us, &mut NoTrace)),
        };
    }
    evaluate_with_pawns(pos, entry.parts)
}

/// The evaluation given each side's pawn-only part (`[White, Black]`).
#[inline]
fn evaluate_with_pawns(pos: &Chess, parts: [PawnPart; 2]) -> i32 {
    let board = pos.board();
    if board.pawns().is_empty() && cannot_win_either(board) {
        return 0;
    }
    let white = side(board, Color::White, parts[0], &mut NoTrace);
    let black = side(board, Color::Black, parts[1], &mut NoTrace);
    let mg = white.mg - black.mg;
    let eg = with_complexity(white.eg - black.eg, complexity_counts(board), &COMPLEXITY);

    let phase = phase(board);
    let score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    let score = score * endgame_scale(board, strong) / SCALE_FULL;
    pos.turn().fold_wb(score, -score) + TEMPO
}

/// Entries of a [`PawnCache`] (a power of two).
const PAWN_CACHE_SIZE: usize = 4096;

/// One side's evaluation terms that depend on the pawns alone: their material and squares,
/// doubled, connected, isolated, backward and passed pawns; and which pawns are passed, for the
/// passed-pawn terms that also depend on the kings and the other pieces.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct PawnPart {
    score: S,
    passed: u64,
}

/// One cached pawn structure: both colours' pawns (the key, exact) and their parts.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    pawns: [u64; 2],
    parts: [PawnPart; 2],
}

/// A per-thread cache of the pawn-only part of the evaluation, indexed by the pawn key. An
/// entry is used only when both colours' pawns match it exactly, so the cached evaluation is
/// always the uncached one (an empty entry is that of a position without pawns, which is right).
pub struct PawnCache {
    entries: Box<[PawnEntry]>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache {
            entries: vec![PawnEntry::default(); PAWN_CACHE_SIZE].into_boxed_slice(),
        }
    }
}

/// How often each linear term counts in `pos` for each side, with the position's non-linear
/// parts: [`Trace::evaluate`] under [`WEIGHTS`] and [`TEMPO`] equals [`evaluate`].
pub fn trace(pos: &Chess) -> Trace {
    let board = pos.board();
    let mut trace = Trace {
        phase: phase(board),
        scale: [
            endgame_scale(board, Color::Black),
            endgame_scale(board, Color::White),
        ],
        draw: board.pawns().is_empty() && cannot_win_either(board),
        complexity: complexity_counts(board),
        white_to_move: pos.turn() == Color::White,
        ..Trace::default()
    };
    if !trace.draw {
        let mut tracer = TraceTo(&mut trace.terms, &mut trace.king_danger);
        for us in [Color::White, Color::Black] {
            let part = pawn_part(board, us, &mut tracer);
            side(board, us, part, &mut tracer);
        }
    }
    trace
}

/// Receives each linear term the evaluation counts; the engine's [`NoTrace`] ignores them.
trait Tracer {
    /// `us` has `n` more of the term `term` picks.
    fn add(&mut self, us: Color, n: i32, term: impl FnOnce(&mut Terms<[i32; 2]>) -> &mut [i32; 2]);
    /// `us`'s attack on the enemy king has the king-danger `features`.
    fn danger(&mut self, us: Color, features: &[i32; KING_DANGER]);
}

/// The engine's tracer: records nothing, and compiles to nothing.
struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: Color, _: i32, _: impl FnOnce(&mut Terms<[i32; 2]>) -> &mut [i32; 2]) {}
    #[inline(always)]
    fn danger(&mut self, _: Color, _: &[i32; KING_DANGER]) {}
}

/// The tuner's tracer: counts into a trace's terms and king-danger features.
struct TraceTo<'a>(&'a mut Terms<[i32; 2]>, &'a mut [[i32; KING_DANGER]; 2]);

impl Tracer for TraceTo<'_> {
    fn add(&mut self, us: Color, n: i32, term: impl FnOnce(&mut Terms<[i32; 2]>) -> &mut [i32; 2]) {
        term(self.0)[color_index(us)] += n;
    }
    fn danger(&mut self, us: Color, features: &[i32; KING_DANGER]) {
        self.1[color_index(us)] = *features;
    }
}

/// Game phase from non-pawn material, capped at [`PHASE_MAX`].
fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += PHASE_WEIGHT[role as usize - 1] * board.by_role(role).count() as i32;
    }
    phase.min(PHASE_MAX)
}

#[inline]
fn color_index(color: Color) -> usize {
    color.fold_wb(1, 0)
}

/// Square as seen from `color`'s side of the board (White's view for White).
#[inline]
fn relative(color: Color, sq: Square) -> usize {
    color.fold_wb(sq, sq.flip_vertical()) as usize
}

/// Squares attacked by `color`'s pawns.
#[inline]
pub(crate) fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

/// Every square `color`'s pawns, pieces and king attack (the evaluation's squares the enemy
/// defends, the butterfly history's threats).
#[inline]
pub(crate) fn attacks_of(board: &Board, color: Color) -> u64 {
    attacks_split(board, color).0
}

/// The squares `color` attacks: with everything (its pawns, pieces and king), and with its
/// pawns, knights, bishops and rooks alone (the guards of the king danger's weak squares).
#[inline]
fn attacks_split(board: &Board, color: Color) -> (u64, u64) {
    let occupied = board.occupied();
    let theirs = board.by_color(color);
    let mut guarded = pawn_attacks(color, (board.pawns() & theirs).0);
    for sq in board.knights() & theirs {
        guarded |= attacks::knight_attacks(sq).0;
    }
    for sq in board.bishops() & theirs {
        guarded |= attacks::bishop_attacks(sq, occupied).0;
    }
    for sq in board.rooks() & theirs {
        guarded |= attacks::rook_attacks(sq, occupied).0;
    }
    let mut all = guarded;
    for sq in board.queens() & theirs {
        all |= attacks::queen_attacks(sq, occupied).0;
    }
    for sq in board.kings() & theirs {
        all |= attacks::king_attacks(sq).0;
    }
    (all, guarded)
}

/// The squares from which a knight, bishop, rook or queen would check a king on `king`.
#[inline]
pub(crate) fn checks_on(king: Square, occupied: Bitboard) -> [u64; 4] {
    let diagonal = attacks::bishop_attacks(king, occupied).0;
    let straight = attacks::rook_attacks(king, occupied).0;
    [
        attacks::knight_attacks(king).0,
        diagonal,
        straight,
        diagonal | straight,
    ]
}

/// Non-pawn material of `color`, by the fixed values of the endgame rules.
fn non_pawn_material(board: &Board, color: Color) -> i32 {
    let ours = board.by_color(color);
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|role| {
            SCALE_PIECE_VALUE[role as usize - 2] * (board.by_role(role) & ours).count() as i32
        })
        .sum()
}

/// True when neither side has a rook's worth of non-pawn material (called when no pawns are
/// left: then neither side can force mate).
fn cannot_win_either(board: &Board) -> bool {
    let rook = SCALE_PIECE_VALUE[2];
    non_pawn_material(board, Color::White) < rook && non_pawn_material(board, Color::Black) < rook
}

/// The scale of a position with pawns: less than full only with one bishop each, on squares of
/// opposite colours, and at most one knight or one rook each beside them (no queens).
fn opposite_bishops_scale(board: &Board) -> i32 {
    let one_each =
        |bb: Bitboard| (bb & board.white()).count() == 1 && (bb & board.black()).count() == 1;
    let bishops = board.bishops();
    if !one_each(bishops) || (bishops & Bitboard::LIGHT_SQUARES).count() != 1 {
        return SCALE_FULL;
    }
    let (knights, rooks, queens) = (board.knights(), board.rooks(), board.queens());
    if queens.any() {
        SCALE_FULL
    } else if (knights | rooks).is_empty() {
        SCALE_OCB_BISHOPS_ONLY
    } else if rooks.is_empty() && one_each(knights) {
        SCALE_OCB_ONE_KNIGHT
    } else if knights.is_empty() && one_each(rooks) {
        SCALE_OCB_ONE_ROOK
    } else {
        SCALE_FULL
    }
}

/// How much of the score `strong` (the side it favours) can expect to keep, in 64ths.
fn endgame_scale(board: &Board, strong: Color) -> i32 {
    if (board.pawns() & board.by_color(strong)).any() {
        return opposite_bishops_scale(board);
    }
    let ours = non_pawn_material(board, strong);
    let theirs = non_pawn_material(board, !strong);
    let pieces = board.by_color(strong) & !board.kings();
    let two_knights_at_most = (pieces & !board.knights()).is_empty() && pieces.count() <= 2;
    if ours < SCALE_PIECE_VALUE[2] || two_knights_at_most {
        SCALE_CANNOT_WIN
    } else if ours - theirs <= SCALE_PIECE_VALUE[1] {
        SCALE_DRAWISH
    } else {
        SCALE_FULL
    }
}

/// Every term for `us`, from `us`'s point of view.
fn side(board: &Board, us: Color, pawns: PawnPart, t: &mut impl Tracer) -> S {
    let ours = board.by_color(us);
    let our_pawns = (board.pawns() & ours).0;
    let their_pawns = (board.pawns() & board.by_color(!us)).0;

    // Every square the enemy attacks: the passed pawns' safe squares, the safe checks and the
    // undefended pieces.
    let (defended, guarded) = attacks_split(board, !us);
    let mut total = pawns.score;
    total += pawn_dynamic(board, us, pawns.passed, defended, t);
    // The pawns' material and squares are in their part.
    for role in [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ] {
        let r = role as usize - 1;
        for sq in board.by_role(role) & ours {
            let rel = relative(us, sq);
            total += PSQ[r][rel];
            t.add(us, 1, |w| &mut w.material[r]);
            t.add(us, 1, |w| &mut w.pst[r][rel ^ 56]);
        }
    }
    let (mobility, king_attack, threats) = activity(board, us, defended, guarded, t);
    total += mobility;
    total += king_attack;
    total += threats;

    // Outposts: a knight or bishop on relative rank 4 to 6, defended by an own pawn, that no
    // enemy pawn can ever attack (none ahead on the neighbouring files).
    let s_i = color_index(us);
    let outpost_squares =
        (rank_bb(us.fold_wb(3, 4)) | rank_bb(us.fold_wb(4, 3)) | rank_bb(us.fold_wb(5, 2)))
            & pawn_attacks(us, our_pawns);
    for (i, role) in [Role::Knight, Role::Bishop].into_iter().enumerate() {
        for sq in Bitboard((board.by_role(role) & ours).0 & outpost_squares) {
            let sq = sq as usize;
            if (PASSED_SPAN[s_i][sq] & !FRONT_SPAN[s_i][sq]) & their_pawns == 0 {
                total += OUTPOST[i];
                t.add(us, 1, |w| &mut w.outpost[i]);
            }
        }
    }
    // Minors with a pawn of either colour on the square ahead.
    let all_pawns = board.pawns().0;
    let behind_pawns = us.fold_wb(all_pawns >> 8, all_pawns << 8);
    let minors = ((board.knights() | board.bishops()) & ours).0;
    let n = (minors & behind_pawns).count_ones() as i32;
    if n > 0 {
        total += MINOR_BEHIND_PAWN * n;
        t.add(us, n, |w| &mut w.minor_behind_pawn);
    }

    let bishops = board.bishops() & ours;
    if (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any() {
        total += BISHOP_PAIR;
        t.add(us, 1, |w| &mut w.bishop_pair);
    }
    for sq in bishops {
        let colour = if sq.is_light() {
            Bitboard::LIGHT_SQUARES
        } else {
            Bitboard::DARK_SQUARES
        };
        let n = (colour.0 & our_pawns).count_ones() as i32;
        total += BISHOP_PAWNS * n;
        t.add(us, n, |w| &mut w.bishop_pawns);
    }
    let our_rooks = (board.rooks() & ours).0;
    total += rook_files(us, our_rooks, our_pawns, their_pawns, t);
    // Rooks on the 7th: relative rank index 6, with enemy pawns there or their king on the 8th.
    let seventh = rank_bb(us.fold_wb(6, 1));
    let eighth = rank_bb(us.fold_wb(7, 0));
    let their_king = board.king_of(!us).map_or(0, |k| Bitboard::from_square(k).0);
    if seventh & their_pawns != 0 || eighth & their_king != 0 {
        let n = (our_rooks & seventh).count_ones() as i32;
        if n > 0 {
            total += ROOK_SEVENTH * n;
            t.add(us, n, |w| &mut w.rook_seventh);
        }
    }
    if let Some(king) = board.king_of(us) {
        let (near, far) = SHIELD[color_index(us)][king as usize];
        let (near, far) = (
            (near & our_pawns).count_ones() as i32,
            (far & our_pawns).count_ones() as i32,
        );
        total += SHIELD_NEAR * near;
        total += SHIELD_FAR * far;
        t.add(us, near, |w| &mut w.shield_near);
        t.add(us, far, |w| &mut w.shield_far);
    }
    total
}

/// Mobility of `us`'s knights, bishops, rooks and queens, the bonus for their attacks on the
/// enemy king zone, and `us`'s threats on enemy pieces.
fn activity(
    board: &Board,
    us: Color,
    defended: u64,
    guarded: u64,
    t: &mut impl Tracer,
) -> (S, S, S) {
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let their_pawns = (board.pawns() & board.by_color(!us)).0;
    let mobility_area = !ours.0 & !pawn_attacks(!us, their_pawns);
    let their_king = board.king_of(!us);
    let king_zone = their_king.map_or(0, |k| {
        (attacks::king_attacks(k) | Bitboard::from_square(k)).0
    });
    let theirs = board.by_color(!us);
    // Safe checks: the squares from which each piece type would check the enemy king, less
    // those an enemy piece attacks or an own piece occupies.
    let mut check_squares = [0u64; 4];
    let mut safe = 0u64;
    if let Some(k) = their_king {
        check_squares = checks_on(k, occupied);
        safe = !defended & !ours.0;
    }
    let mut safe_checks = [0i32; 4];

    let mut mobility = S::default();
    let mut minor_reach = 0u64;
    let mut rook_reach = 0u64;
    let mut all_reach = 0u64;
    let mut attackers = 0;
    let mut attack_units = S::default();
    let mut attacks_by = [0; 4];
    let mut attackers_by = [0; 4];
    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        for sq in board.by_role(role) & ours {
            let reach = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, occupied),
                Role::Rook => attacks::rook_attacks(sq, occupied),
                _ => attacks::queen_attacks(sq, occupied),
            }
            .0;
            all_reach |= reach;
            match role {
                Role::Knight | Role::Bishop => minor_reach |= reach,
                Role::Rook => rook_reach |= reach,
                _ => {}
            }
            let count = (reach & mobility_area).count_ones() as i32 - MOBILITY_OFFSET[i];
            mobility += MOBILITY_WEIGHT[i] * count;
            t.add(us, count, |w| &mut w.mobility[i]);
            safe_checks[i] += (reach & check_squares[i] & safe).count_ones() as i32;
            let hits = (reach & king_zone).count_ones() as i32;
            if hits > 0 {
                attackers += 1;
                attack_units += KING_ATTACK_UNIT[i] * hits;
                attacks_by[i] += hits;
                attackers_by[i] += 1;
            }
        }
    }
    let percent = KING_ATTACK_PERCENT[attackers.min(7)];
    for (i, hits) in attacks_by.into_iter().enumerate() {
        t.add(us, hits * percent, |w| &mut w.king_attack[i]);
    }
    let mut king_attack = s(
        attack_units.mg * percent / KING_ATTACK_DIV,
        attack_units.eg * percent / KING_ATTACK_DIV,
    );
    for (i, n) in safe_checks.into_iter().enumerate() {
        if n > 0 {
            king_attack += SAFE_CHECK[i] * n;
            t.add(us, n, |w| &mut w.safe_check[i]);
        }
    }
    // King danger: with two attackers on the zone, or one beside an own queen.
    let has_queen = (board.queens() & ours).any();
    if attackers > 1 || (attackers == 1 && has_queen) {
        let features = danger_features(DangerCounts {
            zone: king_zone,
            reach: all_reach,
            guarded,
            their_pawns,
            attackers_by,
            attacks: attacks_by.iter().sum(),
            safe_checks,
            no_queen: !has_queen,
        });
        king_attack += king_danger_bonus(&features, &KING_DANGER_WEIGHTS);
        t.danger(us, &features);
    }

    // Threats: enemy pieces attacked by something cheaper (or, for the queen, by any piece).
    let theirs = theirs.0;
    let their_minors = (board.knights() | board.bishops()).0 & theirs;
    let their_rooks = board.rooks().0 & theirs;
    let their_queens = board.queens().0 & theirs;
    let by_pawn = pawn_attacks(us, (board.pawns() & ours).0);
    let counts = [
        ((their_minors | their_rooks | their_queens) & by_pawn).count_ones() as i32,
        (their_minors & minor_reach).count_ones() as i32,
        (their_rooks & minor_reach).count_ones() as i32,
        (their_queens & (minor_reach | rook_reach)).count_ones() as i32,
    ];
    let mut threats = S::default();
    for (i, n) in counts.into_iter().enumerate() {
        if n > 0 {
            threats += THREATS[i] * n;
            t.add(us, n, |w| &mut w.threats[i]);
        }
    }

    // Hanging: enemy pieces and pawns we attack that nothing of theirs defends.
    let our_king_reach = board.king_of(us).map_or(0, |k| attacks::king_attacks(k).0);
    let weak = (all_reach | by_pawn | our_king_reach) & !defended;
    let their_pawns_and_pieces = [their_minors | their_rooks | their_queens, their_pawns];
    for (i, targets) in their_pawns_and_pieces.into_iter().enumerate() {
        let n = (targets & weak).count_ones() as i32;
        if n > 0 {
            threats += HANGING[i] * n;
            t.add(us, n, |w| &mut w.hanging[i]);
        }
    }
    (mobility, king_attack, threats)
}

/// What [`activity`] has counted of `us`'s attack on the enemy king.
struct DangerCounts {
    /// The enemy king's square and its neighbours.
    zone: u64,
    /// Every square `us`'s knights, bishops, rooks and queens attack.
    reach: u64,
    /// Every square the enemy's pawns, knights, bishops and rooks attack.
    guarded: u64,
    /// The enemy's pawns.
    their_pawns: u64,
    attackers_by: [i32; 4],
    attacks: i32,
    safe_checks: [i32; 4],
    no_queen: bool,
}

/// The king-danger features ([`KING_DANGER_FEATURES`]) of `us`'s attack on the enemy king.
fn danger_features(c: DangerCounts) -> [i32; KING_DANGER] {
    let weak = (c.zone & c.reach & !c.guarded).count_ones() as i32;
    // No pawn stands on the king's own square: every pawn in the zone is beside the king.
    let shelter = (c.their_pawns & c.zone).count_ones() as i32;
    let [n, b, r, q] = c.attackers_by;
    let [cn, cb, cr, cq] = c.safe_checks;
    [
        n,
        b,
        r,
        q,
        c.attacks,
        weak,
        cn,
        cb,
        cr,
        cq,
        shelter,
        i32::from(c.no_queen),
        1,
    ]
}

/// Bonus for `us`'s rooks on files without pawns (open) or without own pawns (semi-open).
fn rook_files(us: Color, rooks: u64, our_pawns: u64, their_pawns: u64, t: &mut impl Tracer) -> S {
    let mut total = S::default();
    for sq in Bitboard(rooks) {
        let file = FILE_A << sq.file() as u32;
        if file & (our_pawns | their_pawns) == 0 {
            total += ROOK_OPEN_FILE;
            t.add(us, 1, |w| &mut w.rook_open_file);
        } else if file & our_pawns == 0 {
            total += ROOK_SEMI_OPEN_FILE;
            t.add(us, 1, |w| &mut w.rook_semi_open_file);
        }
    }
    total
}

/// `us`'s pawn-only part: the pawns' material and squares, doubled, connected, isolated,
/// backward and passed pawns (from `us`'s point of view), and which pawns are passed.
fn pawn_part(board: &Board, us: Color, t: &mut impl Tracer) -> PawnPart {
    let our_pawns = (board.pawns() & board.by_color(us)).0;
    let their_pawns = (board.pawns() & board.by_color(!us)).0;
    let side = color_index(us);
    let their_pawn_attacks = Bitboard(pawn_attacks(!us, their_pawns));
    let our_pawn_attacks = pawn_attacks(us, our_pawns);
    let mut total = S::default();
    let mut passed = 0;
    let r = Role::Pawn as usize - 1;
    for sq in Bitboard(our_pawns) {
        let i = sq as usize;
        let rel = relative(us, sq);
        total += PSQ[r][rel];
        t.add(us, 1, |w| &mut w.material[r]);
        t.add(us, 1, |w| &mut w.pst[r][rel ^ 56]);
        // The square ahead (a pawn is never on the last rank).
        let Some(stop) = sq.offset(us.fold_wb(8, -8)) else {
            continue;
        };
        let doubled = FRONT_SPAN[side][i] & our_pawns != 0;
        if doubled {
            total += DOUBLED;
            t.add(us, 1, |w| &mut w.doubled);
        }
        let beside = adjacent_files(sq.file() as usize);
        let bb = Bitboard::from_square(sq).0;
        let phalanx = beside & rank_bb(sq.rank() as usize) & our_pawns != 0;
        if phalanx || our_pawn_attacks & bb != 0 {
            let rank = rel / 8;
            total += CONNECTED[rank];
            t.add(us, 1, |w| &mut w.connected[rank]);
        }
        if beside & our_pawns == 0 {
            total += ISOLATED;
            t.add(us, 1, |w| &mut w.isolated);
        } else if beside & !ranks_ahead(us.is_white(), sq.rank() as usize) & our_pawns == 0 {
            // Backward: the neighbours have all advanced past it, and an enemy pawn guards
            // the square ahead.
            if their_pawn_attacks.contains(stop) {
                total += BACKWARD;
                t.add(us, 1, |w| &mut w.backward);
            }
        }
        // The rear pawn of a doubled pair is not counted as passed.
        if !doubled && PASSED_SPAN[side][i] & their_pawns == 0 {
            let rank = rel / 8;
            total += PASSED[rank];
            t.add(us, 1, |w| &mut w.passed[rank]);
            passed |= bb;
        }
    }
    PawnPart {
        score: total,
        passed,
    }
}

/// `us`'s pawn terms that depend on more than the pawns: its king's distance to the nearest own
/// pawn, and for each `passed` pawn whether the square ahead is free, whether the enemy
/// (whose attacks are `defended`) attacks it, whether its whole path is free and safe, which
/// rooks stand behind it and, from the 4th rank on, each king's distance to that square.
fn pawn_dynamic(board: &Board, us: Color, passed: u64, defended: u64, t: &mut impl Tracer) -> S {
    let our_pawns = (board.pawns() & board.by_color(us)).0;
    let occupied = board.occupied();
    let kings = [board.king_of(us), board.king_of(!us)];
    let mut total = S::default();
    if let Some(king) = kings[0] {
        if let Some(n) = Bitboard(our_pawns)
            .into_iter()
            .map(|sq| king.distance(sq) as i32)
            .min()
        {
            total += KING_PAWN_DISTANCE * n;
            t.add(us, n, |w| &mut w.king_pawn_distance);
        }
    }
    for sq in Bitboard(passed) {
        // A passed pawn is never on the last rank: it has a square ahead.
        let Some(stop) = sq.offset(us.fold_wb(8, -8)) else {
            continue;
        };
        let rank = relative(us, sq) / 8;
        if !occupied.contains(stop) {
            total += PASSED_FREE[rank];
            t.add(us, 1, |w| &mut w.passed_free[rank]);
        }
        if defended & Bitboard::from_square(stop).0 == 0 {
            total += PASSED_SAFE[rank];
            t.add(us, 1, |w| &mut w.passed_safe[rank]);
        }
        let path = FRONT_SPAN[color_index(us)][sq as usize];
        if path & (occupied.0 | defended) == 0 {
            total += PASSED_PATH;
            t.add(us, 1, |w| &mut w.passed_path);
        }
        // The first piece behind the pawn on its file, if a rook.
        let behind =
            attacks::rook_attacks(sq, occupied).0 & FRONT_SPAN[color_index(!us)][sq as usize];
        let rook = behind & board.rooks().0;
        if rook != 0 {
            let k = usize::from(rook & board.by_color(us).0 == 0);
            total += ROOK_BEHIND_PASSER[k];
            t.add(us, 1, |w| &mut w.rook_behind_passer[k]);
        }
        if rank >= 3 {
            let weight = rank as i32 - 2;
            for (k, king) in kings.iter().enumerate() {
                if let Some(king) = king {
                    let n = weight * king.distance(stop) as i32;
                    total += PASSED_KING[k] * n;
                    t.add(us, n, |w| &mut w.passed_king[k]);
                }
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use clio_board::{parse_epd, parse_fen};
    use shakmaty::{fen::Epd, CastlingMode, EnPassantMode};

    fn mirrored(pos: &Chess) -> Chess {
        let mut setup = pos.to_setup(EnPassantMode::Legal);
        setup.mirror();
        setup
            .position(CastlingMode::Standard)
            .expect("the mirror of a legal position is legal")
    }

    fn fen(text: &str) -> Chess {
        parse_fen(text).expect(text)
    }

    fn epd_positions() -> Vec<Chess> {
        let files = [
            include_str!("../data/bench.epd"),
            include_str!("../../board/data/perft.epd"),
        ];
        let positions: Vec<Chess> = files
            .iter()
            .flat_map(|text| text.lines())
            .filter(|line| !line.trim().is_empty())
            .map(|line| parse_epd(line).expect(line).0)
            .collect();
        assert!(positions.len() >= 50, "only {} positions", positions.len());
        positions
    }

    /// The EPD positions, their children and their grandchildren.
    fn positions_two_plies_deep() -> Vec<Chess> {
        let mut all = Vec::new();
        for pos in epd_positions() {
            for m in pos.legal_moves() {
                let child = pos.clone().play(m).expect("legal move");
                all.extend(child.legal_moves().into_iter().map(|m2| {
                    let grandchild: Chess = child.clone().play(m2).expect("legal move");
                    grandchild
                }));
                all.push(child);
            }
            all.push(pos);
        }
        assert!(all.len() > 10_000, "only {} positions", all.len());
        all
    }

    #[test]
    fn eval_is_colour_symmetric_on_epd_positions_and_their_children() {
        for p in positions_two_plies_deep() {
            let flipped = mirrored(&p);
            assert_eq!(
                evaluate(&p),
                evaluate(&flipped),
                "{} vs its mirror {}",
                Epd::from_position(&p, EnPassantMode::Legal),
                Epd::from_position(&flipped, EnPassantMode::Legal)
            );
        }
    }

    #[test]
    fn pawn_cache_never_changes_the_eval() {
        // One cache across more positions than it has entries: hits, misses, and slots that
        // positions with other pawns have taken (their pawns differ, so they are recomputed).
        let mut cache = PawnCache::default();
        let positions = positions_two_plies_deep();
        assert!(positions.len() > 2 * PAWN_CACHE_SIZE);
        for round in 0..2 {
            for p in &positions {
                assert_eq!(
                    evaluate_cached(p, &mut cache),
                    evaluate(p),
                    "round {round}: {}",
                    Epd::from_position(p, EnPassantMode::Legal)
                );
            }
        }
    }

    #[test]
    fn trace_reproduces_eval_on_epd_positions_and_their_children() {
        for p in positions_two_plies_deep() {
            assert_eq!(
                trace(&p).evaluate(&WEIGHTS, TEMPO),
                evaluate(&p),
                "{}",
                Epd::from_position(&p, EnPassantMode::Legal)
            );
        }
    }

    #[test]
    fn trace_counts_each_term_once_per_piece_and_feature() {
        // White: pawns a2 b2 (doubled on no file), rook on the open e-file; Black: king only.
        let t = trace(&fen("7k/8/8/8/8/8/PP6/4R2K b - - 0 1"));
        let [black, white] = [0, 1];
        assert_eq!(t.terms.material[0], [0, 2]);
        assert_eq!(t.terms.material[3][white], 1);
        assert_eq!(t.terms.material[5], [1, 1]);
        // a2 and b2 as printed (from a8): row 6.
        assert_eq!(t.terms.pst[0][48], [0, 1]);
        assert_eq!(t.terms.pst[0][49], [0, 1]);
        assert_eq!(t.terms.rook_open_file, [0, 1]);
        assert_eq!(t.terms.passed[1], [0, 2]);
        assert_eq!(t.terms.isolated, [0, 0]);
        assert_eq!(
            (t.phase, t.scale[black], t.draw, t.white_to_move),
            (2, 0, false, false)
        );
        // Two pawns, on one flank, with a rook: the complexity counts.
        assert_eq!(t.complexity, [2, 0, 0]);
        // Twice the weights give twice the score before the tempo (up to the rounding): the
        // complexity weights double too, and White's endgame lead takes their sum whole.
        assert!(with_complexity(10_000, t.complexity, &COMPLEXITY) < 10_000);
        let mut doubled = WEIGHTS.clone();
        for (_, group) in doubled.groups_mut() {
            for w in group {
                *w = *w * 2;
            }
        }
        let (once, twice) = (t.evaluate(&WEIGHTS, 0), t.evaluate(&doubled, 0));
        assert!((twice - 2 * once).abs() <= 2, "{once} {twice}");
    }

    #[test]
    fn complexity_moves_the_endgame_score_towards_its_side_and_never_past_zero() {
        let [per_pawn, flanks, _, base] = COMPLEXITY.map(|w| w.eg);
        let cx = |eg, counts| with_complexity(eg, counts, &COMPLEXITY);
        // Sixteen pawns on both flanks: the leader's lead grows (Ethereal's signs).
        let busy = 16 * per_pawn + flanks + base;
        assert!(busy > 0);
        assert_eq!(cx(-300, [16, 1, 0]), -300 - busy);
        assert_eq!(cx(300, [16, 1, 0]), 300 + busy);
        // Few pawns on one flank with pieces: a penalty, which stops at a draw score.
        assert_eq!(cx(200, [2, 0, 0]), 200 + 2 * per_pawn + base);
        assert_eq!(cx(50, [2, 0, 0]), 0);
        assert_eq!(cx(-50, [2, 0, 0]), 0);
        assert_eq!(cx(0, [16, 1, 1]), 0);
        // The counts: the start position has 16 pawns on both flanks and pieces.
        let start = trace(&Chess::default());
        assert_eq!(start.complexity, [16, 1, 0]);
        let ending = trace(&fen("4k3/p7/8/8/8/8/7P/4K3 w - - 0 1"));
        assert_eq!(ending.complexity, [2, 1, 1]);
    }

    #[test]
    fn trace_counts_threats_and_passed_pawn_detail() {
        // White pawns c4 and e4 attack the knight on d5: one piece attacked by pawns.
        let t = trace(&fen("4k3/8/8/3n4/2P1P3/3P4/8/4K3 w - - 0 1"));
        assert_eq!(t.terms.threats, [[0, 1], [0, 0], [0, 0], [0, 0]]);
        // All three white pawns are passed with an empty square ahead.
        assert_eq!(t.terms.passed_free[3], [0, 2]);
        assert_eq!(t.terms.passed_free[2], [0, 1]);
        // Fourth-rank pawns weigh 1: stop squares c5 and e5 are 4 from the king on e1 each and
        // 3 from the king on e8 each; d3 is too far back to count.
        assert_eq!(t.terms.passed_king, [[0, 8], [0, 6]]);
        // No stop square is attacked (the knight reaches neither c5, d4 nor e5), but every path
        // is: the knight attacks c7 and e7 and stands on d5.
        assert_eq!(t.terms.passed_safe[3], [0, 2]);
        assert_eq!(t.terms.passed_safe[2], [0, 1]);
        assert_eq!(t.terms.passed_path, [0, 0]);
        // A rook behind a passed pawn with the file between them clear: White's own on a1 behind
        // a3 (the path a4..a8 free and safe), then Black's on a1 behind a5; a knight between
        // them hides the rook.
        let t = trace(&fen("4k3/8/8/8/8/P7/8/R3K3 w - - 0 1"));
        assert_eq!(t.terms.rook_behind_passer, [[0, 1], [0, 0]]);
        assert_eq!(t.terms.passed_path, [0, 1]);
        assert_eq!(t.terms.passed_safe[2], [0, 1]);
        let t = trace(&fen("4k3/8/8/P7/8/8/7K/r7 w - - 0 1"));
        assert_eq!(t.terms.rook_behind_passer, [[0, 0], [0, 1]]);
        assert_eq!(t.terms.passed_safe[4], [0, 1]);
        let t = trace(&fen("4k3/8/8/P7/8/N7/8/R3K3 w - - 0 1"));
        assert_eq!(t.terms.rook_behind_passer, [[0, 0], [0, 0]]);
        // Black's king on b7 attacks a6 (the stop square) and a7, a8 on the path.
        let t = trace(&fen("8/1k6/8/P7/8/8/8/4K3 w - - 0 1"));
        assert_eq!(t.terms.passed_safe[4], [0, 0]);
        assert_eq!(t.terms.passed_path, [0, 0]);
        assert_eq!(t.terms.passed_free[4], [0, 1]);
        // The bishop on b2 attacks the rook on d4, the rook on c1 the queen on c4; Black's
        // queen attacks the rook on c1, which no term counts (a rook attacked by a queen).
        let t = trace(&fen("4k3/8/8/8/2qr4/8/1B6/2R1K3 w - - 0 1"));
        assert_eq!(t.terms.threats, [[0, 0], [0, 0], [0, 1], [0, 1]]);
    }

    #[test]
    fn trace_counts_safe_checks() {
        // Black king g8 behind pawns f7 g7 h7. White's knight on d5 reaches the knight checks
        // e7 and f6; the g7 pawn guards f6, nothing guards e7: one. The rook on e1 reaches e8,
        // a check along the back rank that nothing guards: one.
        let t = trace(&fen("6k1/5ppp/8/3N4/8/8/8/4R1K1 w - - 0 1"));
        assert_eq!(t.terms.safe_check, [[0, 1], [0, 0], [0, 1], [0, 0]]);
        // A black rook on e8 guards e7, so the knight's check is no longer safe; White's rook
        // still checks by taking it on e8, and Black's rook checks by taking White's on e1.
        let t = trace(&fen("4r1k1/5ppp/8/3N4/8/8/8/4R1K1 w - - 0 1"));
        assert_eq!(t.terms.safe_check, [[0, 0], [0, 0], [1, 1], [0, 0]]);
    }

    #[test]
    fn trace_counts_pawn_and_piece_terms() {
        // White: the b2 pawn is backward (c3 is past it, a4 guards b3; Black's a4 is isolated,
        // not backward), the dark-squared bishop on d2 has two own pawns on its colour (b2, c3),
        // the rook on b7 stands on the 7th with Black's king on the 8th, and White's king is 2
        // from its nearest pawn (c3), Black's 4 from a4.
        let t = trace(&fen("4k3/1R6/8/8/p7/2P5/1P1B4/4K3 w - - 0 1"));
        assert_eq!(t.terms.backward, [0, 1]);
        assert_eq!(t.terms.isolated, [1, 0]);
        assert_eq!(t.terms.bishop_pawns, [0, 2]);
        assert_eq!(t.terms.rook_seventh, [0, 1]);
        assert_eq!(t.terms.king_pawn_distance, [4, 2]);
        // Black's king off the 8th and no black pawn on the 7th: the rook there counts nothing.
        let t = trace(&fen("8/1R6/5k2/8/p7/2P5/1P1B4/4K3 w - - 0 1"));
        assert_eq!(t.terms.rook_seventh, [0, 0]);
        assert_eq!(t.terms.king_pawn_distance, [5, 2]);
    }

    #[test]
    fn trace_counts_connected_pawns_outposts_and_minors_behind_pawns() {
        // White: d4 and e4 stand side by side (d4 is also defended by c3), so both are connected
        // on the 4th; c3 has no neighbour on its rank and no defender. The knight on e5 and the
        // bishop on d5 are on the 5th, defended by d4 and e4, with no black pawn ahead on the
        // neighbouring files: both are outposts. The bishop on d3 stands behind the d4 pawn.
        let t = trace(&fen("7k/p6p/8/3BN3/3PP3/2PB4/8/6K1 w - - 0 1"));
        assert_eq!(t.terms.connected[3], [0, 2]);
        assert_eq!(t.terms.connected.iter().map(|c| c[1]).sum::<i32>(), 2);
        assert_eq!(t.terms.connected.iter().map(|c| c[0]).sum::<i32>(), 0);
        assert_eq!(t.terms.outpost, [[0, 1], [0, 1]]);
        assert_eq!(t.terms.minor_behind_pawn, [0, 1]);
        // A black pawn on f7 can reach f6 and drive the knight away: no longer an outpost.
        let t = trace(&fen("7k/p4p1p/8/3BN3/3PP3/2PB4/8/6K1 w - - 0 1"));
        assert_eq!(t.terms.outpost, [[0, 0], [0, 1]]);
    }

    #[test]
    fn trace_counts_hanging_pieces_and_pawns() {
        // White's knight on d3 attacks Black's bishop on b4, and the rook on e1 the pawn on e6;
        // nothing of Black's defends either. Black's bishop attacks the rook on e1, which the
        // knight defends: nothing of White's hangs.
        let t = trace(&fen("6k1/8/4p3/8/1b6/3N4/8/4R1K1 w - - 0 1"));
        assert_eq!(t.terms.hanging, [[0, 1], [0, 1]]);
        // A black pawn on a5 defends the bishop; the e6 pawn still hangs.
        let t = trace(&fen("6k1/8/4p3/p7/1b6/3N4/8/4R1K1 w - - 0 1"));
        assert_eq!(t.terms.hanging, [[0, 0], [0, 1]]);
        // A king defends too: with Black's king on f7, e6 is guarded.
        let t = trace(&fen("8/5k2/4p3/p7/1b6/3N4/8/4R1K1 w - - 0 1"));
        assert_eq!(t.terms.hanging, [[0, 0], [0, 0]]);
    }

    #[test]
    fn groups_cover_every_weight_once() {
        let names: Vec<&str> = WEIGHTS.groups().iter().map(|(n, _)| *n).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), GROUPS);
        let len: usize = WEIGHTS.groups().iter().map(|(_, g)| g.len()).sum();
        let added = 8 + 1 + 2 + KING_DANGER;
        assert_eq!(
            len,
            6 + 6 * 64 + 2 + 8 + 4 + 4 + 5 + 4 + 8 + 2 + 4 + 2 + 4 + 8 + 2 + 1 + 4 + added
        );
        assert_eq!(WEIGHTS.groups()[1].1[0], WEIGHTS.pst[0][0]);
    }

    #[test]
    fn eval_of_start_position_is_tempo() {
        assert_eq!(evaluate(&Chess::default()), TEMPO);
    }

    #[test]
    fn eval_queen_up_is_strongly_positive_and_negates_with_side_to_move() {
        let white_to_move = fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let black_to_move = fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        let (w, b) = (evaluate(&white_to_move), evaluate(&black_to_move));
        assert!(w > 800, "queen up with White to move: {w}");
        assert!(b < -800, "queen up with Black to move: {b}");
        assert_eq!(w - TEMPO, -(b - TEMPO));
    }

    #[test]
    fn eval_prefers_a_passed_pawn_on_the_seventh_to_one_on_the_third() {
        let seventh = fen("7k/P7/8/8/8/8/8/7K w - - 0 1");
        let third = fen("7k/8/8/8/8/P7/8/7K w - - 0 1");
        assert!(evaluate(&seventh) > evaluate(&third));
        // White's pawn terms, the pawns' material and squares left out.
        let passed = |f: &str| {
            let pos = fen(f);
            let board = pos.board();
            let part = pawn_part(board, Color::White, &mut NoTrace);
            let mut total = part.score;
            let defended = attacks_of(board, Color::Black);
            total += pawn_dynamic(board, Color::White, part.passed, defended, &mut NoTrace);
            for sq in board.pawns() & board.white() {
                let v = PSQ[Role::Pawn as usize - 1][relative(Color::White, sq)];
                total += s(-v.mg, -v.eg);
            }
            total
        };
        let (p7, p3) = (
            passed("7k/P7/8/8/8/8/8/7K w - - 0 1"),
            passed("7k/8/8/8/8/P7/8/7K w - - 0 1"),
        );
        assert!(p7.eg > p3.eg && p7.mg > p3.mg, "{p7:?} vs {p3:?}");
        // The same pawn facing an enemy pawn on the next file is no longer passed: what is left
        // is its isolation and the king's distance (7) to it.
        let blocked = passed("7k/8/1p6/8/8/P7/8/7K w - - 0 1");
        let mut expected = ISOLATED;
        expected += KING_PAWN_DISTANCE * 7;
        assert_eq!(blocked, expected);
    }

    #[test]
    fn scale_of_opposite_bishops() {
        let scale = |f: &str| trace(&fen(f)).scale;
        // Bishops on c8 (light) and e3 (dark), pawns for both: half either way.
        let t = scale("2b1k3/p7/8/3P4/4P3/4B3/8/4K3 w - - 0 1");
        assert_eq!(t, [SCALE_OCB_BISHOPS_ONLY; 2]);
        // Same-coloured bishops (c8 and d3 are both light): the whole score.
        assert_eq!(
            scale("2b1k3/p7/8/3P4/4P3/3B4/8/4K3 w - - 0 1")[1],
            SCALE_FULL
        );
        // With a knight each, a rook each, or a knight against a rook.
        let knights = scale("2b1kn2/p7/8/3P4/4P3/4B3/8/4K1N1 w - - 0 1");
        assert_eq!(knights[1], SCALE_OCB_ONE_KNIGHT);
        let rooks = scale("2b1kr2/p7/8/3P4/4P3/4B3/8/4K1R1 w - - 0 1");
        assert_eq!(rooks[1], SCALE_OCB_ONE_ROOK);
        assert_eq!(
            scale("2b1kr2/p7/8/3P4/4P3/4B3/8/4K1N1 w - - 0 1")[1],
            SCALE_FULL
        );
        // A queen each: the whole score.
        assert_eq!(
            scale("2bqk3/p7/8/3P4/4P3/4B3/8/3QK3 w - - 0 1")[1],
            SCALE_FULL
        );
    }

    #[test]
    fn eval_of_insufficient_material_is_near_zero() {
        for f in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/7N b - - 0 1",
            "7b/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "k7/8/8/8/8/8/8/6BK w - - 0 1",
            "k7/8/8/8/8/8/8/n5BK w - - 0 1",
            // Not a dead draw by the rules, but two knights cannot force mate.
            "k7/8/8/8/8/8/8/5NNK w - - 0 1",
        ] {
            let e = evaluate(&fen(f));
            assert!(e.abs() <= TEMPO, "{f}: {e}");
        }
    }

    #[test]
    fn eval_king_attack_needs_two_attackers_and_king_danger_one_beside_a_queen() {
        let attack = |f: &str| {
            let pos = fen(f);
            let board = pos.board();
            let (defended, guarded) = attacks_split(board, Color::Black);
            activity(board, Color::White, defended, guarded, &mut NoTrace).1
        };
        let danger = |f: &str| trace(&fen(f)).king_danger;
        // Queen h5 hits f7 and h7, knight g5 hits f7 and h7: the king zone of g8. The rook on
        // f8 guards f7, only the king guards h7 (weak); no check is safe; three pawns shelter.
        let both = "r4rk1/5ppp/8/6NQ/8/8/8/6K1 w - - 0 1";
        let queen_alone = "r4rk1/5ppp/8/7Q/8/8/8/1N4K1 w - - 0 1";
        let features = [1, 0, 0, 1, 4, 1, 0, 0, 0, 0, 3, 0, 1];
        assert_eq!(danger(both), [[0; KING_DANGER], features]);
        let alone = [0, 0, 0, 1, 2, 1, 0, 0, 0, 0, 3, 0, 1];
        assert_eq!(danger(queen_alone), [[0; KING_DANGER], alone]);
        assert_eq!(
            attack(queen_alone),
            king_danger_bonus(&alone, &KING_DANGER_WEIGHTS)
        );
        let mut units = KING_ATTACK_UNIT[3] * 2;
        units += KING_ATTACK_UNIT[0] * 2;
        let percent = KING_ATTACK_PERCENT[2];
        let mut expected = s(units.mg * percent / 100, units.eg * percent / 100);
        expected += king_danger_bonus(&features, &KING_DANGER_WEIGHTS);
        assert_eq!(attack(both), expected);
        // Without the queen, the knight alone counts nothing.
        let knight_alone = "r4rk1/5ppp/8/6N1/8/8/8/6K1 w - - 0 1";
        assert_eq!(danger(knight_alone), [[0; KING_DANGER]; 2]);
        assert_eq!(attack(knight_alone), S::default());
        // The bonus: the danger squared over 720, the danger over 20, nothing below 0; the
        // endgame weights play no part.
        let w = [s(10, 20); KING_DANGER];
        let mut one = [0; KING_DANGER];
        one[4] = 6;
        assert_eq!(king_danger_bonus(&one, &w), s(3600 / 720, 60 / 20));
        one[4] = -6;
        assert_eq!(king_danger_bonus(&one, &w), S::default());
    }

    #[test]
    fn eval_rook_open_file_beats_semi_open_beats_closed() {
        let e_file = FILE_A << 4;
        let rook = 1u64 << 4; // e1
        let rooks =
            |ours: u64, theirs: u64| rook_files(Color::White, rook, ours, theirs, &mut NoTrace);
        let open = rooks(0, 0);
        let semi_open = rooks(0, e_file & (1 << 44));
        let closed = rooks(e_file & (1 << 12), e_file & (1 << 44));
        assert_eq!(
            (open, semi_open, closed),
            (ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE, S::default())
        );
    }
}
