//! The win-rate model behind `UCI_ShowWDL`: the chance that a score of `x` centipawns for the
//! side to move ends in a win, as Stockfish models it since version 16 (the logistic
//! `1 / (1 + exp((a − x) / b))`, with `a` and `b` cubic polynomials in the material left).
//!
//! `material` counts both sides' pieces as 1, 3, 3, 5 and 9 (pawn to queen), clamped to
//! 17..=78 and divided by 58; a win is `w(x)`, a loss `w(−x)`, a draw what remains, each in
//! permille. The coefficients are fitted by `tuning/wdl/fit.py` (maximum likelihood over the
//! outcomes of Clio's self-play games, every scored position of them) and kept in
//! `tuning/wdl/model.json`, which a test checks against [`A`] and [`B`];
//! docs/engine.md#win-draw-loss says how the data was made and how to fit it again.

use clio_board::shakmaty::{Board, Role};

use clio_search::Score;

/// `a(m) = ((A[0]·m + A[1])·m + A[2])·m + A[3]`: the score with even chances of a win.
pub const A: [f64; 4] = [39.2278, -100.9393, -29.0482, 187.2549];
/// `b(m)`, as `a(m)`: how quickly the win chance rises with the score.
pub const B: [f64; 4] = [-45.6073, 27.5917, 63.5338, 27.4122];

/// The model's material count of `board`: pawns 1, knights and bishops 3, rooks 5, queens 9.
pub fn material(board: &Board) -> u32 {
    [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(role, value)| board.by_role(role).count() as u32 * value)
    .sum()
}

fn poly(c: &[f64; 4], m: f64) -> f64 {
    ((c[0] * m + c[1]) * m + c[2]) * m + c[3]
}

/// The chance of a win, from 0 to 1, for `cp` centipawns with `material` on the board.
pub fn win_rate(cp: f64, material: u32) -> f64 {
    let m = f64::from(material.clamp(17, 78)) / 58.0;
    let (a, b) = (poly(&A, m), poly(&B, m));
    1.0 / (1.0 + ((a - cp) / b).exp())
}

/// `(win, draw, loss)` in permille, summing to 1000, for the side to move: a mate for it is a
/// win, a mate against it a loss.
pub fn wdl(score: Score, material: u32) -> (u32, u32, u32) {
    match score {
        Score::Mate(m) if m > 0 => (1000, 0, 0),
        Score::Mate(_) => (0, 0, 1000),
        Score::Cp(cp) => {
            let cp = f64::from(cp);
            let win = (1000.0 * win_rate(cp, material)).round() as u32;
            let loss = (1000.0 * win_rate(-cp, material)).round() as u32;
            // Each rounds from below 1000; together they may round one past it.
            let loss = loss.min(1000 - win);
            (win, 1000 - win - loss, loss)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clio_board::shakmaty::Chess;
    use clio_board::shakmaty::Position;

    #[test]
    fn the_start_position_counts_78() {
        assert_eq!(material(Chess::default().board()), 78);
    }

    #[test]
    fn wdl_sums_to_1000_and_moves_with_the_score() {
        for material in [0, 17, 40, 78, 100] {
            let mut last = (0, 1000);
            for cp in (-3000..=3000).step_by(25) {
                let (w, d, l) = wdl(Score::Cp(cp), material);
                assert_eq!(w + d + l, 1000, "{cp} {material}");
                assert!(w >= last.0 && l <= last.1, "{cp} {material}");
                last = (w, l);
                let (w2, d2, l2) = wdl(Score::Cp(-cp), material);
                assert_eq!((w2, d2, l2), (l, d, w), "symmetric at {cp}");
            }
        }
        assert_eq!(wdl(Score::Mate(3), 40), (1000, 0, 0));
        assert_eq!(wdl(Score::Mate(-1), 40), (0, 0, 1000));
    }

    /// The constants are the fit's: `tuning/wdl/model.json`, as `tuning/wdl/fit.py` wrote it.
    #[test]
    fn the_constants_are_the_committed_fit() {
        let model: serde_json::Value =
            serde_json::from_str(include_str!("../../../tuning/wdl/model.json")).unwrap();
        for (name, ours) in [("a", A), ("b", B)] {
            let fitted: Vec<f64> = model[name]
                .as_array()
                .unwrap_or_else(|| panic!("model.json has no {name}"))
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            assert_eq!(fitted, ours.to_vec(), "{name}");
        }
    }
}
