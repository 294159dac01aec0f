//! Tapered static evaluation: material and piece-square tables (PeSTO), pawn structure,
//! mobility, king safety, bishop pair, rooks on open files and a tempo bonus.
//!
//! Every term is a middlegame/endgame pair; the two sums are blended by the game phase, counted
//! from non-pawn material on the 24-point scale of Fruit and PeSTO (minor 1, rook 2, queen 4):
//! `score = (mg * phase + eg * (24 - phase)) / 24`. Terms are computed for each colour from its
//! own point of view, so the evaluation of a position equals that of its colour-flipped mirror.

use clio_board::shakmaty;
use shakmaty::{attacks, Bitboard, Board, Chess, Color, Position as _, Role, Square};

// ---------------------------------------------------------------------------------------------
// Weights. Every number the evaluation uses is here.
// ---------------------------------------------------------------------------------------------

/// A middlegame/endgame score pair in centipawns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct S {
    mg: i32,
    eg: i32,
}

const fn s(mg: i32, eg: i32) -> S {
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

// Game phase: the 24-point scheme of Fruit 2.1 and PeSTO (indexed P, N, B, R, Q, K).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;

// Material and piece-square tables: PeSTO by Ronald Friederich (Rofchade), as published at
// https://www.chessprogramming.org/PeSTO%27s_Evaluation_Function (indexed P, N, B, R, Q, K).
const MG_VALUE: [i32; 6] = [82, 337, 365, 477, 1025, 0];
const EG_VALUE: [i32; 6] = [94, 281, 297, 512, 936, 0];

// Pawn structure (Fruit 2.1's doubled/isolated values; passed pawns by relative rank 1..8).
const DOUBLED: S = s(-10, -20);
const ISOLATED: S = s(-10, -20);
const PASSED: [S; 8] = [
    s(0, 0),
    s(0, 5),
    s(5, 10),
    s(10, 25),
    s(25, 45),
    s(45, 80),
    s(70, 120),
    s(0, 0),
];

// Mobility: `(attacked squares in the mobility area - offset) * weight` per piece, with Fruit
// 2.1's offsets and weights. The area excludes own pieces and squares enemy pawns attack.
// Indexed N, B, R, Q.
const MOBILITY_OFFSET: [i32; 4] = [4, 6, 7, 13];
const MOBILITY_WEIGHT: [S; 4] = [s(4, 4), s(5, 5), s(2, 4), s(1, 2)];

// King safety (chessprogramming.org, "King Safety", attacking the king zone): each attack on the
// king zone (the king's square and its neighbours) is worth a unit per attacker type, and the
// sum is scaled by a percentage that grows with the number of attacking pieces. Middlegame only.
// Units indexed N, B, R, Q.
const KING_ATTACK_UNIT: [i32; 4] = [20, 20, 40, 80];
const KING_ATTACK_PERCENT: [i32; 8] = [0, 0, 50, 75, 88, 94, 97, 99];
// Pawn shield: own pawns on the three files around the king, one and two ranks ahead.
const SHIELD_NEAR: S = s(12, 0);
const SHIELD_FAR: S = s(6, 0);

// Pieces (Fruit 2.1's rook file bonuses). The pair needs bishops on both square colours.
const BISHOP_PAIR: S = s(30, 50);
const ROOK_OPEN_FILE: S = s(20, 10);
const ROOK_SEMI_OPEN_FILE: S = s(10, 5);

/// Bonus for the side to move, in centipawns.
pub const TEMPO: i32 = 10;

// Drawish-endgame scaling of the whole score, in 64ths: a side without pawns and with less than
// a rook of non-pawn material, or with two knights at most, cannot win; one without pawns whose
// non-pawn lead is at most a minor piece rarely does.
const SCALE_FULL: i32 = 64;
const SCALE_CANNOT_WIN: i32 = 0;
const SCALE_DRAWISH: i32 = 16;

// PeSTO piece-square tables, laid out as published: a8..h8 first, a1..h1 last.
#[rustfmt::skip]
const MG_PST: [[i32; 64]; 6] = [
    [
          0,   0,   0,   0,   0,   0,  0,   0,
         98, 134,  61,  95,  68, 126, 34, -11,
         -6,   7,  26,  31,  65,  56, 25, -20,
        -14,  13,   6,  21,  23,  12, 17, -23,
        -27,  -2,  -5,  12,  17,   6, 10, -25,
        -26,  -4,  -4, -10,   3,   3, 33, -12,
        -35,  -1, -20, -23, -15,  24, 38, -22,
          0,   0,   0,   0,   0,   0,  0,   0,
    ],
    [
        -167, -89, -34, -49,  61, -97, -15, -107,
         -73, -41,  72,  36,  23,  62,   7,  -17,
         -47,  60,  37,  65,  84, 129,  73,   44,
          -9,  17,  19,  53,  37,  69,  18,   22,
         -13,   4,  16,  13,  28,  19,  21,   -8,
         -23,  -9,  12,  10,  19,  17,  25,  -16,
         -29, -53, -12,  -3,  -1,  18, -14,  -19,
        -105, -21, -58, -33, -17, -28, -19,  -23,
    ],
    [
        -29,   4, -82, -37, -25, -42,   7,  -8,
        -26,  16, -18, -13,  30,  59,  18, -47,
        -16,  37,  43,  40,  35,  50,  37,  -2,
         -4,   5,  19,  50,  37,  37,   7,  -2,
         -6,  13,  13,  26,  34,  12,  10,   4,
          0,  15,  15,  15,  14,  27,  18,  10,
          4,  15,  16,   0,   7,  21,  33,   1,
        -33,  -3, -14, -21, -13, -12, -39, -21,
    ],
    [
         32,  42,  32,  51, 63,  9,  31,  43,
         27,  32,  58,  62, 80, 67,  26,  44,
         -5,  19,  26,  36, 17, 45,  61,  16,
        -24, -11,   7,  26, 24, 35,  -8, -20,
        -36, -26, -12,  -1,  9, -7,   6, -23,
        -45, -25, -16, -17,  3,  0,  -5, -33,
        -44, -16, -20,  -9, -1, 11,  -6, -71,
        -19, -13,   1,  17, 16,  7, -37, -26,
    ],
    [
        -28,   0,  29,  12,  59,  44,  43,  45,
        -24, -39,  -5,   1, -16,  57,  28,  54,
        -13, -17,   7,   8,  29,  56,  47,  57,
        -27, -27, -16, -16,  -1,  17,  -2,   1,
         -9, -26,  -9, -10,  -2,  -4,   3,  -3,
        -14,   2, -11,  -2,  -5,   2,  14,   5,
        -35,  -8,  11,   2,   8,  15,  -3,   1,
         -1, -18,  -9,  10, -15, -25, -31, -50,
    ],
    [
        -65,  23,  16, -15, -56, -34,   2,  13,
         29,  -1, -20,  -7,  -8,  -4, -38, -29,
         -9,  24,   2, -16, -20,   6,  22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49,  -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
          1,   7,  -8, -64, -43, -16,   9,   8,
        -15,  36,  12, -54,   8, -28,  24,  14,
    ],
];

#[rustfmt::skip]
const EG_PST: [[i32; 64]; 6] = [
    [
          0,   0,   0,   0,   0,   0,   0,   0,
        178, 173, 158, 134, 147, 132, 165, 187,
         94, 100,  85,  67,  56,  53,  82,  84,
         32,  24,  13,   5,  -2,   4,  17,  17,
         13,   9,  -3,  -7,  -7,  -8,   3,  -1,
          4,   7,  -6,   1,   0,  -5,  -1,  -8,
         13,   8,   8,  10,  13,   0,   2,  -7,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25,  -8, -25,  -2,  -9, -25, -24, -52,
        -24, -20,  10,   9,  -1,  -9, -19, -41,
        -17,   3,  22,  22,  22,  11,   8, -18,
        -18,  -6,  16,  25,  16,  17,   4, -18,
        -23,  -3,  -1,  15,  10,  -3, -20, -22,
        -42, -20, -10,  -5,  -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ],
    [
        -14, -21, -11,  -8, -7,  -9, -17, -24,
         -8,  -4,   7, -12, -3, -13,  -4, -14,
          2,  -8,   0,  -1, -2,   6,   0,   4,
         -3,   9,  12,   9, 14,  10,   3,   2,
         -6,   3,  13,  19,  7,  10,  -3,  -9,
        -12,  -3,   8,  10, 13,   3,  -7, -15,
        -14, -18,  -7,  -1,  4,  -9, -15, -27,
        -23,  -9, -23,  -5, -9, -16,  -5, -17,
    ],
    [
        13, 10, 18, 15, 12,  12,   8,   5,
        11, 13, 13, 11, -3,   3,   8,   3,
         7,  7,  7,  5,  4,  -3,  -5,  -3,
         4,  3, 13,  1,  2,   1,  -1,   2,
         3,  5,  8,  4, -5,  -6,  -8, -11,
        -4,  0, -5, -1, -7, -12,  -8, -16,
        -6, -6,  0,  2, -9,  -9, -11,  -3,
        -9,  2,  3, -1, -5, -13,   4, -20,
    ],
    [
         -9,  22,  22,  27,  27,  19,  10,  20,
        -17,  20,  32,  41,  58,  25,  30,   0,
        -20,   6,   9,  49,  47,  35,  19,   9,
          3,  22,  24,  45,  57,  40,  57,  36,
        -18,  28,  19,  47,  31,  34,  39,  23,
        -16, -27,  15,   6,   9,  17,  10,   5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43,  -5, -32, -20, -41,
    ],
    [
        -74, -35, -18, -18, -11,  15,   4, -17,
        -12,  17,  14,  17,  17,  38,  23,  11,
         10,  17,  23,  15,  20,  45,  44,  13,
         -8,  22,  24,  27,  26,  33,  26,   3,
        -18,  -4,  21,  24,  27,  23,   9, -11,
        -19,  -3,  11,  21,  23,  16,   7,  -9,
        -27, -11,   4,  13,  14,   4,  -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ],
];

// ---------------------------------------------------------------------------------------------
// Tables derived once, at compile time.
// ---------------------------------------------------------------------------------------------

/// Material plus piece-square value per role, indexed by the square relative to the piece's
/// own side (a1 = 0 from White's view; Black's squares are flipped vertically first).
const PSQ: [[S; 64]; 6] = build_psq();

const fn build_psq() -> [[S; 64]; 6] {
    let mut table = [[s(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            // The published layout starts at a8, so a relative square's row is flipped.
            table[role][sq] = s(
                MG_VALUE[role] + MG_PST[role][sq ^ 56],
                EG_VALUE[role] + EG_PST[role][sq ^ 56],
            );
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
    if board.pawns().is_empty() && cannot_win_either(board) {
        return 0;
    }
    let white = side(board, Color::White);
    let black = side(board, Color::Black);
    let mg = white.mg - black.mg;
    let eg = white.eg - black.eg;

    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += PHASE_WEIGHT[role as usize - 1] * board.by_role(role).count() as i32;
    }
    let phase = phase.min(PHASE_MAX);

    let score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    let score = score * endgame_scale(board, strong) / SCALE_FULL;
    pos.turn().fold_wb(score, -score) + TEMPO
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
fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

/// Non-pawn material of `color`, by middlegame values.
fn non_pawn_material(board: &Board, color: Color) -> i32 {
    let ours = board.by_color(color);
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|role| MG_VALUE[role as usize - 1] * (board.by_role(role) & ours).count() as i32)
        .sum()
}

/// True when neither side has a rook's worth of non-pawn material (called when no pawns are
/// left: then neither side can force mate).
fn cannot_win_either(board: &Board) -> bool {
    let rook = MG_VALUE[Role::Rook as usize - 1];
    non_pawn_material(board, Color::White) < rook && non_pawn_material(board, Color::Black) < rook
}

/// How much of the score `strong` (the side it favours) can expect to keep, in 64ths.
fn endgame_scale(board: &Board, strong: Color) -> i32 {
    if (board.pawns() & board.by_color(strong)).any() {
        return SCALE_FULL;
    }
    let ours = non_pawn_material(board, strong);
    let theirs = non_pawn_material(board, !strong);
    let pieces = board.by_color(strong) & !board.kings();
    let two_knights_at_most = (pieces & !board.knights()).is_empty() && pieces.count() <= 2;
    if ours < MG_VALUE[Role::Rook as usize - 1] || two_knights_at_most {
        SCALE_CANNOT_WIN
    } else if ours - theirs <= MG_VALUE[Role::Bishop as usize - 1] {
        SCALE_DRAWISH
    } else {
        SCALE_FULL
    }
}

/// Every term for `us`, from `us`'s point of view.
fn side(board: &Board, us: Color) -> S {
    let ours = board.by_color(us);
    let our_pawns = (board.pawns() & ours).0;
    let their_pawns = (board.pawns() & board.by_color(!us)).0;

    let mut total = pawn_structure(board, us);
    for role in Role::ALL {
        for sq in board.by_role(role) & ours {
            total += PSQ[role as usize - 1][relative(us, sq)];
        }
    }
    let (mobility, king_attack) = activity(board, us);
    total += mobility;
    total.mg += king_attack;

    let bishops = board.bishops() & ours;
    if (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any() {
        total += BISHOP_PAIR;
    }
    total += rook_files((board.rooks() & ours).0, our_pawns, their_pawns);
    if let Some(king) = board.king_of(us) {
        let (near, far) = SHIELD[color_index(us)][king as usize];
        total += SHIELD_NEAR * (near & our_pawns).count_ones() as i32;
        total += SHIELD_FAR * (far & our_pawns).count_ones() as i32;
    }
    total
}

/// Mobility of `us`'s knights, bishops, rooks and queens, and the middlegame bonus for their
/// attacks on the enemy king zone.
fn activity(board: &Board, us: Color) -> (S, i32) {
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let their_pawns = (board.pawns() & board.by_color(!us)).0;
    let mobility_area = !ours.0 & !pawn_attacks(!us, their_pawns);
    let king_zone = board.king_of(!us).map_or(0, |k| {
        (attacks::king_attacks(k) | Bitboard::from_square(k)).0
    });

    let mut mobility = S::default();
    let mut attackers = 0;
    let mut attack_units = 0;
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
            let count = (reach & mobility_area).count_ones() as i32 - MOBILITY_OFFSET[i];
            mobility += MOBILITY_WEIGHT[i] * count;
            let hits = (reach & king_zone).count_ones() as i32;
            if hits > 0 {
                attackers += 1;
                attack_units += hits * KING_ATTACK_UNIT[i];
            }
        }
    }
    let king_attack = attack_units * KING_ATTACK_PERCENT[attackers.min(7)] / 100;
    (mobility, king_attack)
}

/// Bonus for rooks on files without pawns (open) or without own pawns (semi-open).
fn rook_files(rooks: u64, our_pawns: u64, their_pawns: u64) -> S {
    let mut total = S::default();
    for sq in Bitboard(rooks) {
        let file = FILE_A << sq.file() as u32;
        if file & (our_pawns | their_pawns) == 0 {
            total += ROOK_OPEN_FILE;
        } else if file & our_pawns == 0 {
            total += ROOK_SEMI_OPEN_FILE;
        }
    }
    total
}

/// Doubled, isolated and passed pawns of `us`, from `us`'s point of view.
fn pawn_structure(board: &Board, us: Color) -> S {
    let our_pawns = (board.pawns() & board.by_color(us)).0;
    let their_pawns = (board.pawns() & board.by_color(!us)).0;
    let side = color_index(us);
    let mut total = S::default();
    for sq in Bitboard(our_pawns) {
        let i = sq as usize;
        let doubled = FRONT_SPAN[side][i] & our_pawns != 0;
        if doubled {
            total += DOUBLED;
        }
        if adjacent_files(sq.file() as usize) & our_pawns == 0 {
            total += ISOLATED;
        }
        // The rear pawn of a doubled pair is not counted as passed.
        if !doubled && PASSED_SPAN[side][i] & their_pawns == 0 {
            total += PASSED[relative(us, sq) / 8];
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

    #[test]
    fn eval_is_colour_symmetric_on_epd_positions_and_their_children() {
        let mut checked = 0;
        for pos in epd_positions() {
            let mut todo = vec![pos.clone()];
            for m in pos.legal_moves() {
                let child = pos.clone().play(m).expect("legal move");
                todo.extend(child.legal_moves().into_iter().map(|m2| {
                    let grandchild: Chess = child.clone().play(m2).expect("legal move");
                    grandchild
                }));
                todo.push(child);
            }
            for p in todo {
                let flipped = mirrored(&p);
                assert_eq!(
                    evaluate(&p),
                    evaluate(&flipped),
                    "{} vs its mirror {}",
                    Epd::from_position(&p, EnPassantMode::Legal),
                    Epd::from_position(&flipped, EnPassantMode::Legal)
                );
                checked += 1;
            }
        }
        assert!(checked > 10_000, "only {checked} positions checked");
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
        let passed = |f: &str| pawn_structure(fen(f).board(), Color::White);
        let (p7, p3) = (
            passed("7k/P7/8/8/8/8/8/7K w - - 0 1"),
            passed("7k/8/8/8/8/P7/8/7K w - - 0 1"),
        );
        assert!(p7.eg > p3.eg && p7.mg > p3.mg, "{p7:?} vs {p3:?}");
        // The same pawn facing an enemy pawn on the next file is no longer passed.
        let blocked = passed("7k/8/1p6/8/8/P7/8/7K w - - 0 1");
        assert_eq!(blocked, ISOLATED);
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
    fn eval_king_attack_needs_two_attackers() {
        let attack = |f: &str| activity(fen(f).board(), Color::White).1;
        // Queen h5 hits f7 and h7, knight g5 hits f7 and h7: the king zone of g8.
        let both = attack("r4rk1/5ppp/8/6NQ/8/8/8/6K1 w - - 0 1");
        let queen_alone = attack("r4rk1/5ppp/8/7Q/8/8/8/1N4K1 w - - 0 1");
        assert_eq!(queen_alone, 0);
        assert_eq!(
            both,
            (2 * KING_ATTACK_UNIT[3] + 2 * KING_ATTACK_UNIT[0]) * KING_ATTACK_PERCENT[2] / 100
        );
    }

    #[test]
    fn eval_rook_open_file_beats_semi_open_beats_closed() {
        let e_file = FILE_A << 4;
        let rook = 1u64 << 4; // e1
        let open = rook_files(rook, 0, 0);
        let semi_open = rook_files(rook, 0, e_file & (1 << 44));
        let closed = rook_files(rook, e_file & (1 << 12), e_file & (1 << 44));
        assert_eq!(
            (open, semi_open, closed),
            (ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE, S::default())
        );
    }
}
