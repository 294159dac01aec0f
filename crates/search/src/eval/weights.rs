//! The evaluation's weights: every linear term of [`super::evaluate`] as a middlegame/endgame pair,
//! in centipawns. `texel` (crates/texel) fits them to game results and rewrites this file;
//! regenerate it rather than edit it by hand.
//!
//! Fitted by `texel --skip-plies 8 --holdout 10 --epochs 1000 --lr 2 --l2 0 --lambda 0 --freeze
//! tempo,material,pst,doubled,isolated,passed,mobility,shield_near,shield_far,bishop_pair,rook_open_file,rook_semi_open_file,threats,passed_free,passed_king,hanging,backward,bishop_pawns,rook_seventh,king_pawn_distance,connected,outpost,minor_behind_pawn,complexity`
//! to 1403343 quiet positions from 1574278 EPD positions (1,574,278 positions of the 22,362 games
//! (the committed gauntlets, five SPRTs and 484 self-play games), labelled by Stockfish 15.1 at
//! depth 6), starting from the weights this file held before (the first fit started from published
//! values: PeSTO's material and piece-square tables, Fruit 2.1's pawn structure, mobility and rook
//! files, chessprogramming.org's king attack units); kept as they were: tempo, material, pst,
//! doubled, isolated, passed, mobility, shield_near, shield_far, bishop_pair, rook_open_file,
//! rook_semi_open_file, threats, passed_free, passed_king, hanging, backward, bishop_pawns,
//! rook_seventh, king_pawn_distance, connected, outpost, minor_behind_pawn, complexity. K = 1.4334
//! (K of the comment scores 1.3056); mean squared error against the results 0.090738 -> 0.090265 on
//! 1241817 positions to fit, 0.090417 -> 0.089935 on 161526 held out (best at epoch 920 of 1000).

use super::{s, Weights};

/// Bonus for the side to move, in centipawns, added after tapering and scaling.
pub const TEMPO: i32 = 9;

/// Every linear weight of the evaluation (see [`Weights`] for what each group counts).
#[rustfmt::skip]
pub const WEIGHTS: Weights = Weights {
    material: [s(84, 79), s(294, 356), s(316, 378), s(411, 617), s(1150, 949), s(0, 0)],
    pst: [
        [
            s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
            s( 123,   93), s(  85,  144), s(  52,  175), s(  96,  155), s( 154,  132), s( 111,  129), s(  54,  147), s(  15,  138),
            s(   9,   34), s(  15,   50), s(  13,   47), s(  35,   47), s(  51,   25), s(  81,   21), s(  45,   38), s(  20,   43),
            s(  14,   24), s(   4,   31), s(   8,   19), s(  19,   22), s(  18,   16), s(  26,   14), s(   9,   22), s(  -8,   26),
            s(   2,   19), s( -12,   26), s(   2,   14), s(   8,   12), s(   7,   12), s(  13,   13), s(   0,   16), s( -11,   20),
            s(  -7,   13), s( -17,   16), s( -15,   16), s( -19,   13), s( -16,   24), s(  -9,   13), s(   5,    6), s( -17,   15),
            s(  -7,   18), s(  -8,   19), s( -12,   22), s( -28,   33), s( -23,   28), s(  14,   22), s(  15,   12), s( -17,   12),
            s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
        ],
        [
            s(-131,  -43), s(-127,   21), s( -32,   10), s( -32,   17), s(  66,   -4), s(-108,    9), s(  35,  -20), s( -62,  -27),
            s(  10,  -16), s( -21,    1), s(  20,    3), s(   6,   22), s(  28,   -5), s(  49,    4), s(  30,  -23), s(  32,   -9),
            s(   5,   -6), s(  16,   -4), s(  26,    7), s(  37,   12), s(  57,    9), s(  29,   -2), s(  23,   -3), s(  12,  -17),
            s(  11,   -5), s(  21,    1), s(  20,    6), s(  37,   12), s(  32,   15), s(  36,    5), s(  22,   -1), s(  27,  -16),
            s(   6,  -22), s(  17,    3), s(  18,    6), s(  18,    8), s(  25,    5), s(  21,   10), s(  31,   -6), s(  11,  -18),
            s( -14,  -34), s(   5,   -9), s(   0,  -12), s(  28,   -6), s(  18,    1), s(  17,  -16), s(  11,  -16), s( -11,  -35),
            s( -17,  -26), s( -22,   -2), s(   0,  -26), s(  11,  -17), s(   9,  -18), s(   8,  -32), s(   1,  -46), s(   7,  -36),
            s( -62,  -57), s( -24,  -54), s( -18,  -26), s( -26,  -12), s(  -9,  -43), s(  -3,  -34), s( -17,  -44), s( -38,  -68),
        ],
        [
            s(  -4,   25), s( -36,   33), s(  33,    2), s( -40,   20), s( -29,   27), s( -82,   18), s( -48,   32), s(  40,   22),
            s(   5,   -5), s( -17,   20), s(  -9,   14), s( -17,   23), s(   2,   15), s( -14,   21), s( -10,   11), s( -17,   14),
            s(   9,   11), s(  21,    8), s(   2,   16), s(  24,   10), s(  29,    2), s(  36,   14), s(   6,   14), s(   3,    7),
            s( -12,   -4), s(   2,   16), s(   3,   17), s(  19,   13), s(  20,   12), s(  29,   -8), s(   6,   16), s(   1,   10),
            s(   0,   -2), s( -13,   11), s(   9,   13), s(  18,   13), s(  17,    4), s(   8,    9), s(   4,    3), s(   8,   -3),
            s(   0,  -17), s(   9,    3), s(  12,    4), s(  17,    4), s(  10,   16), s(  22,    0), s(  16,   -5), s(   2,   -2),
            s(  31,   -7), s(  16,  -12), s(  19,   -9), s(   6,   -1), s(  18,   -3), s(  24,  -10), s(  26,  -19), s(  12,  -36),
            s(  27,  -28), s(  -4,  -24), s(  -4,  -21), s(   4,  -11), s(  -7,    1), s( -11,   -4), s(  12,  -12), s(  10,  -21),
        ],
        [
            s(  26,    7), s(  26,   20), s(  77,    1), s(  65,    9), s(  19,   22), s(  43,   16), s(   0,   25), s(  32,   12),
            s(  26,   18), s(  16,   19), s(  43,   19), s(  66,   11), s(  59,   16), s(  35,   11), s(  28,   12), s(  27,    9),
            s(  -6,   31), s(  14,   23), s(  -4,   33), s(  19,   25), s(  39,   12), s(  46,   12), s(  56,    8), s(  -8,   18),
            s( -14,   19), s( -16,   25), s(  12,   15), s(   1,   18), s(   4,   16), s(   9,   18), s(  19,   14), s( -12,   12),
            s( -19,   13), s( -27,   25), s( -30,   26), s( -21,   16), s( -13,    8), s( -12,    9), s(  -8,    3), s( -26,    9),
            s( -27,  -17), s( -35,   16), s( -29,   11), s(  -5,   -7), s( -16,   -2), s(  -5,   -3), s(   6,  -22), s( -22,  -17),
            s( -30,  -13), s( -26,   -5), s( -14,   -3), s( -10,  -12), s( -16,  -11), s(  -4,  -13), s(   0,  -25), s( -62,   -3),
            s( -10,  -11), s( -13,   -9), s(  -1,  -11), s(   0,  -10), s(   8,  -21), s(   5,  -15), s( -21,    0), s( -12,  -35),
        ],
        [
            s( -28,   35), s(  23,   -1), s(  -1,   41), s( -20,   66), s(  38,   29), s(  23,   32), s(  20,   14), s(  70,  -12),
            s(  -3,    9), s( -46,   57), s( -21,   72), s( -46,   98), s( -16,   99), s(   7,   56), s( -26,   86), s(  -5,   34),
            s(  -9,    6), s( -11,   42), s( -27,   66), s(   5,   47), s(  13,   47), s(  31,   50), s(  22,   61), s(  24,   44),
            s( -20,   13), s(  -8,   24), s( -17,   42), s( -14,   63), s(  14,   34), s(  17,   34), s(  10,   44), s(  14,   25),
            s(  -5,    5), s(  -8,   11), s(  -9,   40), s(  -7,   42), s(   4,   22), s(  13,   -4), s(  13,   12), s(  20,   -7),
            s(   3,  -23), s(   8,  -32), s(  -9,   17), s(   7,  -16), s( -11,    9), s(  14,   -6), s(  18,  -24), s(  -2,   16),
            s(  -3,  -27), s(  10,  -46), s(  16,  -51), s(  14,  -46), s(  14,  -38), s(  25,  -56), s(  25,  -70), s(  11,  -72),
            s(   8,  -46), s(  18,  -72), s(  16,  -75), s(  12,  -50), s(   1,  -44), s(  14, -102), s(   6, -155), s(   5,  -87),
        ],
        [
            s(-218,  -73), s(  99,   27), s( 154,   -1), s(  24,   24), s( 111,   13), s(  89,  -17), s( 122,   18), s(-105, -131),
            s(  52,  -38), s(  34,   31), s(  96,   15), s( 129,    6), s( 136,   -2), s( 101,   39), s(  62,   26), s(  13,   -3),
            s(  10,   26), s(   9,   33), s(  -8,   37), s(  59,   18), s(  47,   22), s(  24,   37), s(  78,   33), s( -20,   33),
            s(  62,    8), s(  24,   17), s(   5,   31), s(  -4,   27), s( -34,   36), s(  38,   28), s(  42,   20), s(  31,    4),
            s(  12,   -1), s(  43,    6), s(   3,   21), s( -42,   28), s( -14,   23), s( -23,   29), s( -12,   17), s( -73,   14),
            s( -22,    7), s(  25,    1), s( -36,   15), s( -37,   14), s( -43,   20), s( -23,   13), s( -15,   10), s( -55,    0),
            s(  -2,   -3), s( -22,    5), s( -14,   -1), s( -53,    7), s( -51,    3), s( -36,    7), s( -17,    3), s(  -2,  -18),
            s( -38,   -5), s(   7,  -17), s(   5,  -13), s( -49,  -15), s( -23,  -24), s( -52,   -7), s(   2,  -10), s(  -8,  -34),
        ],
    ],
    doubled: s(-20, -7),
    isolated: s(-5, -14),
    passed: [s(0, 0), s(-6, 22), s(-8, 19), s(2, 2), s(43, -5), s(95, -8), s(142, -104), s(0, 0)],
    mobility: [s(6, 3), s(5, 4), s(3, 3), s(3, -1)],
    king_attack: [s(6, -16), s(-5, -10), s(-11, -17), s(16, -2)],
    shield_near: s(19, -12),
    shield_far: s(13, -5),
    bishop_pair: s(24, 42),
    rook_open_file: s(46, -9),
    rook_semi_open_file: s(24, 8),
    threats: [s(44, 22), s(21, 28), s(39, 2), s(30, 14)],
    passed_free: [s(0, 0), s(-1, 3), s(-2, 5), s(8, 10), s(6, 21), s(16, 30), s(128, 27), s(0, 0)],
    passed_king: [s(-1, -4), s(-5, 15)],
    safe_check: [s(51, -5), s(21, 11), s(71, -8), s(23, 8)],
    hanging: [s(10, 17), s(4, 29)],
    backward: s(-2, -13),
    bishop_pawns: s(-2, -9),
    rook_seventh: s(-32, 19),
    king_pawn_distance: s(2, -14),
    connected: [s(0, 0), s(2, 2), s(10, 5), s(11, 4), s(13, 11), s(42, 19), s(55, 63), s(0, 0)],
    outpost: [s(18, 16), s(17, 9)],
    minor_behind_pawn: s(5, 13),
    complexity: [s(0, 5), s(0, 50), s(0, 46), s(0, -96)],
    passed_safe: [s(0, 0), s(-18, 7), s(-13, 8), s(-12, 10), s(-8, 11), s(11, 18), s(3, 12), s(0, 0)],
    passed_path: s(1, 17),
    rook_behind_passer: [s(16, 6), s(-19, -19)],
    king_danger: [s(56, 0), s(85, 0), s(100, 0), s(43, 0), s(21, 0), s(27, 0), s(50, 0), s(10, 0), s(19, 0), s(37, 0), s(-37, 0), s(-111, 0), s(27, 0)],
};
