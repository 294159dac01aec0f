//! The Texel method: the expected score of a position is `sigmoid(K * eval / 400)` with
//! `sigmoid(x) = 1 / (1 + 10^-x)`; K is fitted first with the shipped weights, then the weights
//! minimise the mean squared error between that and the game results, by Adam (Kingma & Ba
//! 2015) on the full batch. Evaluations come from traces, so no board is touched while fitting.

use clio_search::eval::{
    Terms, Trace, Weights, KING_DANGER, KING_DANGER_EG_DIV, KING_DANGER_MG_DIV, S,
};

/// One position's linear features and fixed non-linear parts.
#[derive(Debug, Clone)]
pub struct Entry {
    /// `(weight index, White's count - Black's count)`, zero counts left out.
    features: Vec<(u32, f32)>,
    /// Middlegame share (phase / 24).
    mg_share: f32,
    /// Share of the score kept when Black (0) or White (1) is ahead.
    scale: [f32; 2],
    /// +1 with White to move, -1 with Black (the tempo's sign for White).
    stm: f32,
    /// What the complexity weighs ([`Trace::complexity`]).
    complexity: [i32; 3],
    /// What the king danger weighs, per side ([`Trace::king_danger`]).
    danger: [[i16; KING_DANGER]; 2],
    /// The game's result for White.
    result: f32,
}

impl Entry {
    /// The entry for a traced position, `None` for a trace the draw rule scores 0 (no weight
    /// moves its evaluation).
    pub fn new(trace: &Trace, result: f64) -> Option<Entry> {
        if trace.draw {
            return None;
        }
        let mut features = Vec::new();
        let mut index = 0u32;
        for (name, counts) in trace.terms.groups() {
            let div = Terms::<S>::divisor(name) as f32;
            for [black, white] in counts {
                if white != black {
                    features.push((index, (white - black) as f32 / div));
                }
                index += 1;
            }
        }
        Some(Entry {
            features,
            mg_share: trace.phase as f32 / 24.0,
            scale: trace.scale.map(|s| s as f32 / 64.0),
            stm: if trace.white_to_move { 1.0 } else { -1.0 },
            complexity: trace.complexity,
            danger: trace.king_danger.map(|side| side.map(|n| n as i16)),
            result: result as f32,
        })
    }
}

impl Entry {
    /// Makes the target `lambda * result + (1 - lambda) * expected`: the game's result blended
    /// with the score a search expected (less noisy than a result, as many tuners blend).
    pub fn blend(&mut self, lambda: f64, expected: f64) {
        self.result = (lambda * f64::from(self.result) + (1.0 - lambda) * expected) as f32;
    }
}

/// The weights as real numbers: one `[mg, eg]` pair per entry of [`Weights::groups`], in that
/// order, and the tempo.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Middlegame and endgame value per weight.
    pub terms: Vec<[f64; 2]>,
    /// The side-to-move bonus.
    pub tempo: f64,
    /// Where the `complexity` group starts in `terms` (its four endgame values are applied by
    /// their non-linear rule, not as linear features).
    complexity_at: usize,
    /// Where the `king_danger` group starts in `terms` (applied by its non-linear rule).
    danger_at: usize,
}

/// What the gradient needs of one entry's evaluation.
struct Parts {
    /// The evaluation for White.
    eval: f64,
    /// Its factor on the middlegame and endgame sums (each linear weight's `[mg, eg]`).
    to_sums: [f64; 2],
    /// Its derivative by each complexity weight's endgame value.
    to_complexity: [f64; 4],
    /// Per side, the derivative of the middlegame and endgame sums by that side's danger.
    to_danger: [[f64; 2]; 2],
}

/// Where the group `name` starts in a flattened [`Weights`].
fn group_start(weights: &Weights, name: &str) -> usize {
    weights
        .groups()
        .into_iter()
        .take_while(|(group, _)| *group != name)
        .map(|(_, group)| group.len())
        .sum()
}

impl Model {
    /// The model of integer weights.
    pub fn from_weights(weights: &Weights, tempo: i32) -> Model {
        let terms = weights
            .groups()
            .into_iter()
            .flat_map(|(_, group)| group.iter().map(|w| [f64::from(w.mg), f64::from(w.eg)]))
            .collect();
        Model {
            terms,
            tempo: f64::from(tempo),
            complexity_at: group_start(weights, "complexity"),
            danger_at: group_start(weights, "king_danger"),
        }
    }

    /// The weights rounded to integers (shaped like `like`, whose values are replaced).
    pub fn to_weights(&self, like: &Weights) -> (Weights, i32) {
        let mut weights = like.clone();
        let mut values = self.terms.iter();
        for (_, group) in weights.groups_mut() {
            for (w, [mg, eg]) in group.iter_mut().zip(values.by_ref()) {
                *w = S {
                    mg: mg.round() as i32,
                    eg: eg.round() as i32,
                };
            }
        }
        (weights, self.tempo.round() as i32)
    }

    /// The evaluation of `entry` for White, with what the gradient needs of it.
    fn eval(&self, entry: &Entry) -> Parts {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, count) in &entry.features {
            let [m, e] = self.terms[i as usize];
            mg += m * f64::from(count);
            eg += e * f64::from(count);
        }
        // The king danger (from the middlegame weights): its square in the middlegame, itself
        // in the endgame, nothing below 0, for the attacker (White adds, Black subtracts).
        let weights = &self.terms[self.danger_at..self.danger_at + KING_DANGER];
        let mut to_danger = [[0.0; 2]; 2];
        for (side, features) in entry.danger.iter().enumerate() {
            let sign = if side == 1 { 1.0 } else { -1.0 };
            let danger: f64 = weights
                .iter()
                .zip(features)
                .map(|(w, &n)| w[0] * f64::from(n))
                .sum();
            if danger > 0.0 {
                mg += sign * danger * danger / f64::from(KING_DANGER_MG_DIV);
                eg += sign * danger / f64::from(KING_DANGER_EG_DIV);
                to_danger[side] = [
                    sign * 2.0 * danger / f64::from(KING_DANGER_MG_DIV),
                    sign / f64::from(KING_DANGER_EG_DIV),
                ];
            }
        }
        // The complexity: the endgame sum moves towards the side it favours, never past 0;
        // where a penalty reaches 0, no weight moves the endgame sum.
        let counts = entry.complexity.map(f64::from);
        let counts = [counts[0], counts[1], counts[2], 1.0];
        let weights = &self.terms[self.complexity_at..self.complexity_at + 4];
        let c: f64 = weights.iter().zip(counts).map(|(w, n)| w[1] * n).sum();
        let sign = if eg > 0.0 {
            1.0
        } else if eg < 0.0 {
            -1.0
        } else {
            0.0
        };
        let (eg, to_eg, to_c) = if c > -eg.abs() {
            (eg + sign * c, 1.0, sign)
        } else {
            (0.0, 0.0, 0.0)
        };
        let share = f64::from(entry.mg_share);
        let tapered = mg * share + eg * (1.0 - share);
        let scale = f64::from(entry.scale[usize::from(tapered > 0.0)]);
        let eval = tapered * scale + self.tempo * f64::from(entry.stm);
        let to_tapered_eg = (1.0 - share) * scale;
        Parts {
            eval,
            to_sums: [share * scale, to_tapered_eg * to_eg],
            to_complexity: counts.map(|n| to_tapered_eg * to_c * n),
            to_danger,
        }
    }
}

/// The expected score for an evaluation of `eval` centipawns at scale `k`.
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Mean squared error between the expected scores of `evals` (for White) and `results`.
pub fn error_of_evals(k: f64, evals: &[f64], results: &[f64]) -> f64 {
    let sum: f64 = evals
        .iter()
        .zip(results)
        .map(|(&e, &r)| (r - sigmoid(k, e)).powi(2))
        .sum();
    sum / evals.len().max(1) as f64
}

/// The K in `[0.05, 10]` that minimises [`error_of_evals`], by golden-section search (the error
/// is unimodal in K).
pub fn fit_k(evals: &[f64], results: &[f64]) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.05, 10.0);
    while hi - lo > 1e-4 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error_of_evals(a, evals, results) < error_of_evals(b, evals, results) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Mean squared error of `model` on `entries` at scale `k`.
pub fn error(model: &Model, k: f64, entries: &[Entry]) -> f64 {
    let sum: f64 = entries
        .iter()
        .map(|e| (f64::from(e.result) - sigmoid(k, model.eval(e).eval)).powi(2))
        .sum();
    sum / entries.len().max(1) as f64
}

/// The error's gradient for each weight's `[mg, eg]` and for the tempo.
fn gradient(model: &Model, k: f64, entries: &[Entry]) -> (Vec<[f64; 2]>, f64) {
    let mut grad = vec![[0.0; 2]; model.terms.len()];
    let mut tempo = 0.0;
    // d/d eval of (r - s)^2 / n, with s' = s (1 - s) K ln 10 / 400.
    let factor = 2.0 * k * std::f64::consts::LN_10 / 400.0 / entries.len().max(1) as f64;
    for entry in entries {
        let parts = model.eval(entry);
        let [to_mg, to_eg] = parts.to_sums;
        let s = sigmoid(k, parts.eval);
        let g = (s - f64::from(entry.result)) * s * (1.0 - s) * factor;
        for &(i, count) in &entry.features {
            let gc = g * f64::from(count);
            grad[i as usize][0] += gc * to_mg;
            grad[i as usize][1] += gc * to_eg;
        }
        for (slot, d) in grad[model.complexity_at..]
            .iter_mut()
            .zip(parts.to_complexity)
        {
            slot[1] += g * d;
        }
        for (features, [dm, de]) in entry.danger.iter().zip(parts.to_danger) {
            if dm == 0.0 && de == 0.0 {
                continue;
            }
            for (slot, &n) in grad[model.danger_at..].iter_mut().zip(features) {
                slot[0] += g * f64::from(n) * (to_mg * dm + to_eg * de);
            }
        }
        tempo += g * f64::from(entry.stm);
    }
    (grad, tempo)
}

/// How the weights are fitted.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Per weight (in [`Model::terms`] order): kept at its starting value.
    pub frozen: Vec<bool>,
    /// The tempo kept at its starting value.
    pub freeze_tempo: bool,
    /// Full passes over the training entries.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub learning_rate: f64,
    /// Weight of the penalty `sum (w - start)^2` (centipawns squared) added to the error, which
    /// keeps weights the data says little about near their starting values.
    pub l2: f64,
}

/// The outcome of a fit.
#[derive(Debug, Clone)]
pub struct Fitted {
    /// The weights with the least validation error met (the training error's when there is
    /// no validation set).
    pub model: Model,
    /// The epoch they come from.
    pub epoch: usize,
}

/// Fits `start` to `train` by Adam, keeping the weights with the least error on `validation`
/// (on `train` when it is empty); `report` is called every 100 epochs with the epoch and the
/// two errors.
pub fn fit(
    start: &Model,
    k: f64,
    train: &[Entry],
    validation: &[Entry],
    settings: Settings,
    mut report: impl FnMut(usize, f64, f64),
) -> Fitted {
    let (beta1, beta2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut model = start.clone();
    let n = model.terms.len() * 2 + 1;
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let held_out = if validation.is_empty() {
        train
    } else {
        validation
    };
    let mut best = (error(&model, k, held_out), model.clone(), 0);
    for epoch in 1..=settings.epochs {
        let (mut grad, mut tempo_grad) = gradient(&model, k, train);
        if settings.freeze_tempo {
            tempo_grad = 0.0;
        }
        for ((g, frozen), (w, w0)) in grad
            .iter_mut()
            .zip(&settings.frozen)
            .zip(model.terms.iter().zip(&start.terms))
        {
            if *frozen {
                *g = [0.0; 2];
            } else {
                g[0] += 2.0 * settings.l2 * (w[0] - w0[0]);
                g[1] += 2.0 * settings.l2 * (w[1] - w0[1]);
            }
        }
        let flat_grad = grad.iter().flatten().copied().chain([tempo_grad]);
        let params = model
            .terms
            .iter_mut()
            .flat_map(|t| t.iter_mut())
            .chain([&mut model.tempo]);
        let (c1, c2) = (
            1.0 - beta1.powi(epoch as i32),
            1.0 - beta2.powi(epoch as i32),
        );
        for (((p, g), m), v) in params.zip(flat_grad).zip(&mut m).zip(&mut v) {
            *m = beta1 * *m + (1.0 - beta1) * g;
            *v = beta2 * *v + (1.0 - beta2) * g * g;
            *p -= settings.learning_rate * (*m / c1) / ((*v / c2).sqrt() + eps);
        }
        if epoch % 10 == 0 || epoch == settings.epochs {
            let err = error(&model, k, held_out);
            if err < best.0 {
                best = (err, model.clone(), epoch);
            }
            if epoch % 100 == 0 {
                report(epoch, error(&model, k, train), err);
            }
        }
    }
    Fitted {
        model: best.1,
        epoch: best.2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clio_board::parse_fen;
    use clio_search::eval::{evaluate, trace, TEMPO, WEIGHTS};

    fn entry(fen: &str, result: f64) -> Entry {
        Entry::new(&trace(&parse_fen(fen).expect(fen)), result).expect("not a draw")
    }

    #[test]
    fn the_model_evaluates_like_the_engine_up_to_rounding() {
        let model = Model::from_weights(&WEIGHTS, TEMPO);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 11",
            "r4rk1/5ppp/8/6NQ/8/8/8/6K1 w - - 0 1",
        ] {
            let pos = parse_fen(fen).expect(fen);
            let white = if fen.contains(" w ") { 1 } else { -1 };
            let eval = model.eval(&entry(fen, 0.5)).eval;
            let engine = f64::from(white * evaluate(&pos));
            assert!((eval - engine).abs() <= 2.0, "{fen}: {eval} vs {engine}");
        }
        assert_eq!(model.to_weights(&WEIGHTS), (WEIGHTS.clone(), TEMPO));
    }

    #[test]
    fn k_fits_the_scale_the_results_were_drawn_with() {
        let evals: Vec<f64> = (-300..=300).map(f64::from).collect();
        let results: Vec<f64> = evals.iter().map(|&e| sigmoid(1.3, e)).collect();
        assert!((fit_k(&evals, &results) - 1.3).abs() < 1e-3);
    }

    #[test]
    fn the_fit_lowers_the_error_on_a_small_synthetic_set() {
        // White wins every game with the extra knight, loses every one a knight down, and the
        // shipped weights think too little of it.
        let mut train = Vec::new();
        for (fen, result) in [
            ("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1", 1.0),
            ("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 b - - 0 1", 1.0),
            ("1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.0),
            ("1n2k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1", 0.0),
            ("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.5),
        ] {
            train.push(entry(fen, result));
        }
        let start = Model::from_weights(&WEIGHTS, TEMPO);
        let k = 1.0;
        let settings = Settings {
            frozen: vec![false; start.terms.len()],
            freeze_tempo: false,
            epochs: 200,
            learning_rate: 2.0,
            l2: 0.0,
        };
        let fitted = fit(&start, k, &train, &[], settings, |_, _, _| {});
        let (before, after) = (error(&start, k, &train), error(&fitted.model, k, &train));
        assert!(after < before * 0.9, "{before} -> {after}");
        assert!(
            fitted.model.terms[1][0] > start.terms[1][0],
            "the knight gains value"
        );
    }

    #[test]
    fn the_gradient_matches_finite_differences_including_the_non_linear_groups() {
        // Endgames with and without pieces, pawns on one or both flanks, a lead either way, a
        // pawn up in an endgame-only entry where the complexity penalty stops at 0, and attacks
        // on a king (queen and knight on g8's zone) for the king danger.
        let lone_pawn = Entry {
            features: vec![(0, 1.0)],
            mg_share: 0.0,
            scale: [1.0; 2],
            stm: 1.0,
            complexity: [1, 0, 0],
            danger: [[0; KING_DANGER]; 2],
            result: 0.5,
        };
        let mut entries: Vec<Entry> = [
            ("8/5pk1/6p1/8/8/6P1/5PKP/8 w - - 0 1", 1.0),
            ("8/p4pk1/6p1/8/8/6P1/P4PKP/3R4 b - - 0 1", 0.5),
            ("3r4/p4pk1/6p1/8/8/6P1/5PKP/8 w - - 0 1", 0.0),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
                0.5,
            ),
            ("r4rk1/5ppp/8/6NQ/8/8/8/6K1 w - - 0 1", 1.0),
            ("6k1/5ppp/8/6NQ/8/8/r4PPP/6K1 b - - 0 1", 0.5),
        ]
        .into_iter()
        .map(|(fen, result)| entry(fen, result))
        .collect();
        entries.push(lone_pawn.clone());
        let model = Model::from_weights(&WEIGHTS, TEMPO);
        let k = 1.2;
        let (grad, _) = gradient(&model, k, &entries);
        let at = model.complexity_at;
        let danger =
            (model.danger_at..model.danger_at + KING_DANGER).flat_map(|i| [(i, 0), (i, 1)]);
        // Every complexity and king-danger weight, and some linear ones (a pawn's and a
        // rook's material).
        for (i, side) in [
            (at, 1),
            (at + 1, 1),
            (at + 2, 1),
            (at + 3, 1),
            (0, 1),
            (3, 0),
            (3, 1),
        ]
        .into_iter()
        .chain(danger)
        {
            let h = 1e-3;
            let mut plus = model.clone();
            plus.terms[i][side] += h;
            let mut minus = model.clone();
            minus.terms[i][side] -= h;
            let numeric = (error(&plus, k, &entries) - error(&minus, k, &entries)) / (2.0 * h);
            let analytic = grad[i][side];
            assert!(
                (numeric - analytic).abs() <= 1e-9 + 1e-4 * numeric.abs(),
                "weight {i}[{side}]: numeric {numeric:e}, analytic {analytic:e}"
            );
        }
        // The lone pawn's penalty reaches 0: its endgame sum is 0, so no weight moves it.
        let parts = model.eval(&lone_pawn);
        assert_eq!(parts.eval, f64::from(TEMPO));
        assert_eq!((parts.to_sums[1], parts.to_complexity), (0.0, [0.0; 4]));
    }

    #[test]
    fn the_fit_moves_the_complexity_towards_the_results() {
        // A pawn up with rooks on one flank is drawn; a pawn up in a pawn endgame with pawns on
        // both flanks is won: only the complexity tells them apart.
        let mut train = Vec::new();
        for (fen, result) in [
            ("3r2k1/5pp1/8/8/8/8/5PPP/3R2K1 w - - 0 1", 0.5),
            ("3r2k1/5pp1/8/8/8/8/5PPP/3R2K1 b - - 0 1", 0.5),
            ("6k1/p4pp1/8/8/8/8/P4PPP/6K1 w - - 0 1", 1.0),
            ("6k1/p4pp1/8/8/8/8/P4PPP/6K1 b - - 0 1", 1.0),
        ] {
            train.push(entry(fen, result));
        }
        let start = Model::from_weights(&WEIGHTS, TEMPO);
        let at = start.complexity_at;
        let frozen = (0..start.terms.len()).map(|i| i < at).collect();
        let settings = Settings {
            frozen,
            freeze_tempo: true,
            epochs: 300,
            learning_rate: 1.0,
            l2: 0.0,
        };
        let k = 1.0;
        let fitted = fit(&start, k, &train, &[], settings, |_, _, _| {});
        let (before, after) = (error(&start, k, &train), error(&fitted.model, k, &train));
        assert!(after < before * 0.9, "{before} -> {after}");
        assert_eq!(
            fitted.model.terms[..at],
            start.terms[..at],
            "frozen groups stay"
        );
        assert_eq!(fitted.model.tempo, start.tempo, "a frozen tempo stays");
        // The pawn ending's bonus grows.
        assert!(fitted.model.terms[at + 2][1] > start.terms[at + 2][1]);
    }
}
