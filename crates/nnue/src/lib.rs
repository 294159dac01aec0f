//! nnue-train: trains Clio's neural evaluation (`clio_search::nnue`, `768 → HIDDEN ×2 → 1`
//! with SCReLU) on positions from games arena wrote, each labelled with a blend of its game's
//! result and the search score recorded in the PGN, and writes the quantised network file the
//! engine embeds. Plain CPU training: Adam on mini-batches, the batch split across threads.

use std::fmt::Write as _;

use clio_board::shakmaty::fen::Fen;
use clio_board::shakmaty::{Chess, Color, EnPassantMode, Position as _};
use clio_search::nnue::{self, Network, FEATURES, HIDDEN, QA, QB, SCALE};
use clio_texel::data::Sample;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// The largest weight magnitude (bullet's clip): keeps the quantised output layer's `i32`
/// sums and the `i16` accumulators in range.
pub const CLIP: f32 = 1.98;

/// One training position: the active features from the side to move's view and from the
/// other side's, and the target win probability for the side to move.
#[derive(Clone, Debug)]
pub struct Position {
    /// Pieces on the board (entries used in `stm` and `nstm`).
    pub n: u8,
    /// Feature indices seen from the side to move.
    pub stm: [u16; 32],
    /// Feature indices seen from the other side.
    pub nstm: [u16; 32],
    /// The target win expectation for the side to move (see [`set_targets`]).
    pub target: f32,
    /// The game's result for the side to move.
    pub result: f32,
    /// The recorded search score for the side to move, in centipawns.
    pub score: f32,
    /// The hand-written evaluation for the side to move, in centipawns (for comparison).
    pub hce: f32,
}

/// `FEN [result]` lines of `samples` (White's result, `1.0`, `0.5` or `0.0`; the en passant
/// square only where a capture is legal), as arena's `--epdout` writes them: the input of
/// `scripts/label.py`.
pub fn epd_lines(samples: &[Sample]) -> String {
    let mut out = String::new();
    for s in samples {
        let fen = Fen::from_position(&s.pos, EnPassantMode::Legal);
        // Writing to a String cannot fail.
        let _ = writeln!(out, "{fen} [{:.1}]", s.result);
    }
    out
}

/// `1 / (1 + e^−x)`.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The features of `pos`, its score, result and hand-written evaluation from the side to move's
/// view (the target is set later); `None` for a position with more than 32 pieces. `score` is
/// White's centipawns, `result` White's result.
pub fn encode(pos: &Chess, score: f64, result: f64) -> Option<Position> {
    let board = pos.board();
    let turn = pos.turn();
    let mut p = Position {
        n: 0,
        stm: [0; 32],
        nstm: [0; 32],
        target: 0.0,
        result: 0.0,
        score: 0.0,
        hce: clio_search::eval::evaluate(pos) as f32,
    };
    for sq in board.occupied() {
        let piece = board.piece_at(sq)?;
        let i = usize::from(p.n);
        if i == 32 {
            return None;
        }
        p.stm[i] = nnue::feature(turn, piece.color, piece.role, sq) as u16;
        p.nstm[i] = nnue::feature(!turn, piece.color, piece.role, sq) as u16;
        p.n += 1;
    }
    let (score, result) = if turn == Color::White {
        (score, result)
    } else {
        (-score, 1.0 - result)
    };
    p.result = result as f32;
    p.score = score as f32;
    Some(p)
}

/// Centipawns per unit of logit that best predict `results` from `cps` (all from the side to
/// move's view): texel's K by golden-section search, as `400 / (K · ln 10)`.
pub fn fit_scale(cps: &[f32], results: &[f32]) -> f32 {
    let evals: Vec<f64> = cps.iter().map(|&c| f64::from(c)).collect();
    let results: Vec<f64> = results.iter().map(|&r| f64::from(r)).collect();
    let k = clio_texel::fit::fit_k(&evals, &results);
    (400.0 / (k * std::f64::consts::LN_10)) as f32
}

/// Sets each target to `λ · result + (1 − λ) · sigmoid(score / score_scale)`.
pub fn set_targets(data: &mut [Position], lambda: f32, score_scale: f32) {
    for p in data {
        p.target = lambda * p.result + (1.0 - lambda) * sigmoid(p.score / score_scale);
    }
}

/// Which samples train: those with a score no larger than `max_score`, not in check and quiet
/// (their quiescence leaf is themselves: no capture or promotion pending), one per position
/// of each game. Returns the positions with the opening each came from.
pub fn select(samples: &[Sample], max_score: f64) -> Vec<(Position, u64)> {
    samples
        .iter()
        .filter_map(|s| Some((trainable(&s.pos, s.score?, s.result, max_score)?, s.opening)))
        .collect()
}

/// `pos` encoded with its score and result if it trains: its score is no larger than
/// `max_score`, it is not in check and it is quiet (its quiescence leaf is itself).
fn trainable(pos: &Chess, score: f64, result: f64, max_score: f64) -> Option<Position> {
    if score.abs() > max_score || pos.is_check() {
        return None;
    }
    let leaf = clio_texel::quiet::quiet_leaf(pos)?;
    if leaf.board() != pos.board() {
        return None;
    }
    encode(pos, score, result)
}

/// Reads labelled positions, one a line: `FEN [result] CP`, the result White's (`[1.0]`,
/// `[0.5]`, `[0.0]`) and CP a score in White's centipawns (a teacher engine's evaluation). A
/// position trains if its score is no larger than `max_score`, it is not in check and it is
/// quiet (its quiescence leaf is itself). Returns each with its block of `block` lines (the
/// lines of one game are consecutive, so holding out whole blocks holds out whole games but at
/// the edges). A malformed line is an error naming the file and the line.
pub fn read_labelled(
    text: &str,
    path: &str,
    max_score: f64,
    block: u64,
) -> anyhow::Result<Labelled> {
    let all: Vec<&str> = text.lines().collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per = all.len().div_ceil(threads).max(1);
    let parts: Vec<anyhow::Result<Labelled>> = std::thread::scope(|scope| {
        let handles: Vec<_> = all
            .chunks(per)
            .enumerate()
            .map(|(k, chunk)| {
                scope.spawn(move || read_lines(chunk, k * per, path, max_score, block))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("{path}: a reader thread failed")))
            })
            .collect()
    });
    let mut out = Vec::new();
    let mut lines = 0;
    for part in parts {
        let (mut got, n) = part?;
        out.append(&mut got);
        lines += n;
    }
    Ok((out, lines))
}

/// [`read_labelled`] of the lines `chunk`, the first of them line `first` (from 0) of `path`.
fn read_lines(
    chunk: &[&str],
    first: usize,
    path: &str,
    max_score: f64,
    block: u64,
) -> anyhow::Result<Labelled> {
    use anyhow::Context;
    use clio_board::shakmaty::{fen::Fen, CastlingMode};
    let mut out = Vec::new();
    let mut lines = 0;
    for (i, line) in chunk.iter().enumerate() {
        let i = first + i;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        lines += 1;
        let at = || format!("{path}:{}: {line}", i + 1);
        let open = line
            .rfind('[')
            .with_context(|| format!("{}: no [result]", at()))?;
        let close = line
            .rfind(']')
            .filter(|&c| c > open)
            .with_context(|| format!("{}: no [result]", at()))?;
        let result: f64 = line[open + 1..close]
            .trim()
            .parse()
            .with_context(|| format!("{}: bad result", at()))?;
        let cp: f64 = line[close + 1..]
            .trim()
            .parse()
            .with_context(|| format!("{}: bad score", at()))?;
        let fen: Fen = line[..open]
            .trim()
            .parse()
            .with_context(|| format!("{}: bad FEN", at()))?;
        let pos: Chess = fen
            .into_position(CastlingMode::Standard)
            .with_context(|| format!("{}: illegal position", at()))?;
        if let Some(p) = trainable(&pos, cp, result, max_score) {
            out.push((p, i as u64 / block.max(1)));
        }
    }
    Ok((out, lines))
}

/// Labelled positions with their blocks, and the number of lines read.
pub type Labelled = (Vec<(Position, u64)>, usize);

/// The network in floating point.
#[derive(Clone, Debug)]
pub struct Model {
    /// First layer, `[feature · HIDDEN + neuron]`.
    pub w1: Vec<f32>,
    /// First layer's biases.
    pub b1: Vec<f32>,
    /// Output weights, bucket by bucket: side to move's neurons, then the other side's.
    pub w2: Vec<f32>,
    /// Output bias per bucket.
    pub b2: Vec<f32>,
    /// Output buckets by material (`clio_search::nnue::bucket`); 1 for none.
    pub buckets: usize,
    /// Centipawns per unit of logit of the predicted win expectation (fitted to the hand-written
    /// evaluation, so that the network speaks the centipawns the search's margins were tuned in).
    pub eval_scale: f32,
    /// Whether the network learns a correction added to the hand-written evaluation (its
    /// output plus `Position::hce`) rather than the whole evaluation.
    pub residual: bool,
}

impl Model {
    /// Uniform random weights in ±1/√fan-in, biases 0, `buckets` output buckets (each starting
    /// from the same output weights).
    pub fn random(seed: u64, eval_scale: f32, buckets: usize) -> Model {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let a1 = 1.0 / (FEATURES as f32).sqrt();
        let a2 = 1.0 / ((2 * HIDDEN) as f32).sqrt();
        Model {
            w1: (0..FEATURES * HIDDEN)
                .map(|_| rng.gen_range(-a1..a1))
                .collect(),
            b1: vec![0.0; HIDDEN],
            w2: (0..2 * HIDDEN).map(|_| rng.gen_range(-a2..a2)).collect(),
            b2: vec![0.0],
            buckets: 1,
            eval_scale,
            residual: false,
        }
        .with_buckets(buckets)
    }

    /// Zeros of `buckets`' shape (gradients, Adam's moments).
    fn zeros(buckets: usize) -> Model {
        Model {
            w1: vec![0.0; FEATURES * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; buckets * 2 * HIDDEN],
            b2: vec![0.0; buckets],
            buckets,
            eval_scale: 1.0,
            residual: false,
        }
    }

    /// This model with `buckets` output buckets: a model of one bucket has its output layer
    /// copied into each (so the new model evaluates as the old did, and training then tells
    /// the buckets apart); a model that has `buckets` already is returned as it is.
    pub fn with_buckets(mut self, buckets: usize) -> Model {
        if buckets != self.buckets && self.buckets == 1 {
            self.w2 = self.w2.repeat(buckets);
            self.b2 = self.b2.repeat(buckets);
            self.buckets = buckets;
        }
        self
    }

    /// The output bucket of `p`.
    #[inline]
    fn bucket(&self, p: &Position) -> usize {
        nnue::bucket(u32::from(p.n), self.buckets)
    }

    fn accumulate(&self, features: &[u16], acc: &mut [f32; HIDDEN]) {
        acc.copy_from_slice(&self.b1);
        for &f in features {
            let row = &self.w1[usize::from(f) * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output (centipawns / `SCALE`) for `p`'s side to move.
    pub fn forward(&self, p: &Position) -> f32 {
        self.layers(p).2
    }

    /// The hidden layer's sums from the side to move's view and the other side's, and the output.
    fn layers(&self, p: &Position) -> ([f32; HIDDEN], [f32; HIDDEN], f32) {
        let n = usize::from(p.n);
        let mut us = [0f32; HIDDEN];
        let mut them = [0f32; HIDDEN];
        self.accumulate(&p.stm[..n], &mut us);
        self.accumulate(&p.nstm[..n], &mut them);
        let k = self.bucket(p);
        let w2 = &self.w2[k * 2 * HIDDEN..][..2 * HIDDEN];
        let mut out = self.b2[k] + self.base(p);
        for i in 0..HIDDEN {
            let a = us[i].clamp(0.0, 1.0);
            let b = them[i].clamp(0.0, 1.0);
            out += a * a * w2[i] + b * b * w2[HIDDEN + i];
        }
        (us, them, out)
    }

    /// The hand-written evaluation in output units when the network learns a correction to it.
    #[inline]
    fn base(&self, p: &Position) -> f32 {
        if self.residual {
            p.hce / SCALE as f32
        } else {
            0.0
        }
    }

    /// The predicted win expectation for `p`'s side to move.
    pub fn predict(&self, p: &Position) -> f32 {
        sigmoid(self.forward(p) * SCALE as f32 / self.eval_scale)
    }

    /// Adds the gradient of `p`'s squared error to `grad`; returns the error.
    fn backward(&self, p: &Position, grad: &mut Model) -> f32 {
        let n = usize::from(p.n);
        let (us, them, out) = self.layers(p);
        let c = SCALE as f32 / self.eval_scale;
        let pred = sigmoid(out * c);
        let err = pred - p.target;
        let g = 2.0 * err * pred * (1.0 - pred) * c;
        let k = self.bucket(p);
        grad.b2[k] += g;
        let w2 = &self.w2[k * 2 * HIDDEN..][..2 * HIDDEN];
        let g2 = &mut grad.w2[k * 2 * HIDDEN..][..2 * HIDDEN];
        let mut d_us = [0f32; HIDDEN];
        let mut d_them = [0f32; HIDDEN];
        for i in 0..HIDDEN {
            let a = us[i].clamp(0.0, 1.0);
            let b = them[i].clamp(0.0, 1.0);
            g2[i] += g * a * a;
            g2[HIDDEN + i] += g * b * b;
            // d(x²)/dx = 2x inside (0, 1), 0 where clipped.
            d_us[i] = g * w2[i] * 2.0 * a;
            d_them[i] = g * w2[HIDDEN + i] * 2.0 * b;
        }
        for i in 0..HIDDEN {
            grad.b1[i] += d_us[i] + d_them[i];
        }
        for (features, d) in [(&p.stm[..n], &d_us), (&p.nstm[..n], &d_them)] {
            for &f in features {
                let row = &mut grad.w1[usize::from(f) * HIDDEN..][..HIDDEN];
                for (w, dv) in row.iter_mut().zip(d.iter()) {
                    *w += dv;
                }
            }
        }
        err * err
    }

    /// The mean squared error of the predictions against the targets (`against_result`: the
    /// game results) over `data`.
    pub fn error(&self, data: &[Position], against_result: bool) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let sum: f64 = data
            .iter()
            .map(|p| {
                let t = if against_result { p.result } else { p.target };
                f64::from((self.predict(p) - t).powi(2))
            })
            .sum();
        sum / data.len() as f64
    }

    /// The float model a quantised network stands for (each weight divided by its scale), to
    /// go on training from it: `from_network(n, s).quantise()` is `n` again.
    pub fn from_network(net: &Network, eval_scale: f32) -> Model {
        let d = |x: i16, s: i32| f32::from(x) / s as f32;
        Model {
            w1: (net.ft_weights.iter())
                .flat_map(|row| row.iter().map(|&w| d(w, QA)))
                .collect(),
            b1: net.ft_bias.iter().map(|&b| d(b, QA)).collect(),
            w2: (net.out_weights.iter().flatten().flatten())
                .map(|&w| d(w, QB))
                .collect(),
            b2: (net.out_bias.iter())
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
            buckets: net.buckets(),
            eval_scale,
            residual: net.residual,
        }
    }

    /// The quantised network (rounded, as the engine reads it).
    pub fn quantise(&self) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round() as i16;
        let mut ft_weights = vec![[0i16; HIDDEN]; FEATURES];
        for (f, row) in ft_weights.iter_mut().enumerate() {
            for (i, w) in row.iter_mut().enumerate() {
                *w = q(self.w1[f * HIDDEN + i], QA);
            }
        }
        let mut ft_bias = [0i16; HIDDEN];
        for (b, x) in ft_bias.iter_mut().zip(&self.b1) {
            *b = q(*x, QA);
        }
        let mut out_weights = vec![[[0i16; HIDDEN]; 2]; self.buckets];
        for (w, x) in out_weights.iter_mut().flatten().flatten().zip(&self.w2) {
            *w = q(*x, QB);
        }
        Network::new(
            ft_weights,
            ft_bias,
            out_weights,
            (self.b2.iter())
                .map(|b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
            self.residual,
        )
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's step size.
    pub lr: f32,
    /// The step size is multiplied by `lr_drop` after `drop_at` of the epochs (a fraction).
    pub lr_drop: f32,
    /// When the step size drops, as a fraction of the epochs.
    pub drop_at: f32,
    /// Threads each batch is split across.
    pub threads: usize,
    /// Seed of the initial weights and of the shuffles.
    pub seed: u64,
}

/// Adam's running moments.
struct Adam {
    m: Model,
    v: Model,
    t: i32,
}

impl Adam {
    fn step(&mut self, model: &mut Model, grad: &Model, lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let upd = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
            *w = w.clamp(-CLIP, CLIP);
        };
        let layers = [
            (&mut model.w1, &grad.w1, &mut self.m.w1, &mut self.v.w1),
            (&mut model.b1, &grad.b1, &mut self.m.b1, &mut self.v.b1),
            (&mut model.w2, &grad.w2, &mut self.m.w2, &mut self.v.w2),
            (&mut model.b2, &grad.b2, &mut self.m.b2, &mut self.v.b2),
        ];
        for (ws, gs, ms, vs) in layers {
            for (((w, g), m), v) in ws.iter_mut().zip(gs).zip(ms.iter_mut()).zip(vs.iter_mut()) {
                upd(w, *g, m, v);
            }
        }
    }
}

/// What one epoch left: the training error (against the targets), the held-out error against
/// the targets and against the results.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// Epoch number, from 1.
    pub epoch: usize,
    /// Mean squared error on the training positions during the epoch.
    pub train: f64,
    /// Held-out error against the blended targets.
    pub held_out: f64,
    /// Held-out error against the game results alone.
    pub held_out_result: f64,
}

/// Trains from `model` on `train`, reporting each epoch; returns the model of the epoch with
/// the least held-out error (against the targets) and that epoch's report.
pub fn train(
    mut model: Model,
    train: &mut [Position],
    held_out: &[Position],
    s: &Settings,
    mut report: impl FnMut(&EpochReport),
) -> (Model, Option<EpochReport>) {
    let mut adam = Adam {
        m: Model::zeros(model.buckets),
        v: Model::zeros(model.buckets),
        t: 0,
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(s.seed ^ 0x5eed);
    let threads = s.threads.max(1);
    let mut grads: Vec<Model> = (0..threads).map(|_| Model::zeros(model.buckets)).collect();
    let mut best: Option<(Model, EpochReport)> = None;
    for epoch in 1..=s.epochs {
        train.shuffle(&mut rng);
        let lr = if (epoch as f32) > s.drop_at * s.epochs as f32 {
            s.lr * s.lr_drop
        } else {
            s.lr
        };
        let mut total = 0.0f64;
        for batch in train.chunks(s.batch.max(1)) {
            let per = batch.len().div_ceil(threads);
            let errors: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(per)
                    .zip(grads.iter_mut())
                    .map(|(chunk, grad)| {
                        let model = &model;
                        scope.spawn(move || {
                            grad.w1.fill(0.0);
                            grad.b1.fill(0.0);
                            grad.w2.fill(0.0);
                            grad.b2.fill(0.0);
                            chunk
                                .iter()
                                .map(|p| f64::from(model.backward(p, grad)))
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(0.0))
                    .collect()
            });
            total += errors.iter().sum::<f64>();
            let used = batch.chunks(per).count();
            let (first, rest) = grads.split_at_mut(1);
            let sum = &mut first[0];
            for g in &rest[..used - 1] {
                for (a, b) in sum.w1.iter_mut().zip(&g.w1) {
                    *a += b;
                }
                for (a, b) in sum.b1.iter_mut().zip(&g.b1) {
                    *a += b;
                }
                for (a, b) in sum.w2.iter_mut().zip(&g.w2) {
                    *a += b;
                }
                for (a, b) in sum.b2.iter_mut().zip(&g.b2) {
                    *a += b;
                }
            }
            let inv = 1.0 / batch.len() as f32;
            sum.w1.iter_mut().for_each(|g| *g *= inv);
            sum.b1.iter_mut().for_each(|g| *g *= inv);
            sum.w2.iter_mut().for_each(|g| *g *= inv);
            sum.b2.iter_mut().for_each(|g| *g *= inv);
            adam.step(&mut model, sum, lr);
        }
        let r = EpochReport {
            epoch,
            train: total / train.len().max(1) as f64,
            held_out: model.error(held_out, false),
            held_out_result: model.error(held_out, true),
        };
        report(&r);
        if best.as_ref().is_none_or(|(_, b)| r.held_out < b.held_out) {
            best = Some((model.clone(), r));
        }
    }
    match best {
        Some((m, r)) => (m, Some(r)),
        None => (model, None),
    }
}

/// The largest difference, in centipawns, between the float model and its quantised network
/// over `data`, and the mean.
pub fn quantisation_error(model: &Model, net: &Network, data: &[Position]) -> (f64, f64) {
    let mut max = 0f64;
    let mut sum = 0f64;
    for p in data {
        let float = f64::from((model.forward(p) - model.base(p)) * SCALE as f32);
        let n = usize::from(p.n);
        let mut acc = clio_search::nnue::Accumulator::default();
        for (v, features) in acc.v.iter_mut().zip([&p.stm[..n], &p.nstm[..n]]) {
            *v = net.ft_bias;
            for &f in features {
                for (a, w) in v.iter_mut().zip(&net.ft_weights[usize::from(f)]) {
                    *a = a.wrapping_add(*w);
                }
            }
        }
        // `v[0]` holds the side to move's view here; `evaluate` reads `v[turn]` first, and
        // shakmaty's Black is 0.
        let q = f64::from(net.evaluate(&acc, Color::Black, u32::from(p.n)));
        let d = (q - float).abs();
        max = max.max(d);
        sum += d;
    }
    (max, sum / data.len().max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labelled(lines: &str) -> anyhow::Result<Vec<Position>> {
        Ok(read_labelled(lines, "t.txt", 3000.0, 1000)?
            .0
            .into_iter()
            .map(|(p, _)| p)
            .collect())
    }

    /// `epd_lines` writes each position after each move as FEN (the en passant square only
    /// where a capture is legal, as `--epdout` writes it) with White's result: the FENs of
    /// these moves as the FEN standard gives them.
    #[test]
    fn every_position_of_a_game_is_written_with_its_result() {
        let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
                   [Result \"1/2-1/2\"]\n\n1. e4 Nf6 2. e5 d5 1/2-1/2\n\n\
                   [Result \"*\"]\n\n1. d4 *\n";
        let (mut samples, mut stats) = (Vec::new(), clio_texel::data::ReadStats::default());
        clio_texel::data::read_pgn(pgn.as_bytes(), "t.pgn", 0, &mut samples, &mut stats).unwrap();
        assert_eq!((stats.games, stats.skipped_games), (2, 1));
        let lines = epd_lines(&samples);
        let want = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 [1.0]",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 [1.0]",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 [1.0]",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 [0.5]",
            "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2 [0.5]",
            "rnbqkb1r/pppppppp/5n2/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2 [0.5]",
            "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3 [0.5]",
        ];
        assert_eq!(lines.lines().collect::<Vec<_>>(), want);
    }

    /// A labelled line trains from the side to move's view: with Black to move, the score
    /// (White's) is negated and the result (White's) flipped; the features are
    /// `clio_search::nnue::feature` of every piece from each side.
    #[test]
    fn labelled_lines_read_from_the_side_to_move() {
        let white = labelled("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 [1.0] 250").expect("a line");
        let black = labelled("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 [1.0] 250").expect("a line");
        assert_eq!((white.len(), black.len()), (1, 1));
        assert_eq!((white[0].score, white[0].result), (250.0, 1.0));
        assert_eq!((black[0].score, black[0].result), (-250.0, 0.0));
        let p = &black[0];
        assert_eq!(p.n, 3);
        let pawn = nnue::feature(
            Color::Black,
            Color::White,
            clio_board::shakmaty::Role::Pawn,
            clio_board::shakmaty::Square::E2,
        );
        assert!(p.stm[..3].contains(&(pawn as u16)));
        // From Black's view a white pawn is an enemy pawn on the mirrored square (e7).
        assert_eq!(pawn, 384 + 52);
    }

    /// Positions in check and positions with a winning capture pending (not quiet) do not
    /// train, nor scores beyond the limit.
    #[test]
    fn checks_captures_and_large_scores_are_left_out() {
        // White to move, in check from the rook.
        assert!(labelled("4k3/8/8/8/8/8/8/r3K3 w - - 0 1 [0.0] -900")
            .expect("ok")
            .is_empty());
        // White to move can take a free queen: its quiescence leaf is another position.
        assert!(labelled("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1 [1.0] 100")
            .expect("ok")
            .is_empty());
        assert!(labelled("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 [1.0] 3500")
            .expect("ok")
            .is_empty());
    }

    /// A malformed line is refused with the file and line number.
    #[test]
    fn malformed_lines_name_the_file_and_line() {
        let good = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 [1.0] 250\n";
        for bad in [
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 250",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 [x] 250",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 [1.0] +2.5pawns",
            "4k3/8/8/8/8/8/4P3/9K w - - 0 1 [1.0] 25",
            "8/8/8/8/8/8/4P3/4K3 w - - 0 1 [1.0] 25",
        ] {
            let err = labelled(&format!("{good}{bad}\n")).expect_err(bad);
            assert!(format!("{err:#}").contains("t.txt:2:"), "{err:#}");
        }
    }

    /// The gradient `backward` adds is the derivative of the squared error: each parameter
    /// checked against a central finite difference.
    #[test]
    fn a_network_read_back_into_a_model_quantises_to_itself() {
        let mut model = Model::random(7, 140.0, 1);
        model.b2[0] = 0.37;
        for (i, b) in model.b1.iter_mut().enumerate() {
            *b = 0.2 + 0.5 * (i as f32 / HIDDEN as f32);
        }
        let net = model.quantise();
        let one = Model::from_network(&net, 140.0);
        let again = one.quantise();
        assert_eq!(again.to_bytes(), net.to_bytes());
        // The shipped network too, and its float model predicts what the engine evaluates.
        let shipped = clio_search::nnue::NETWORK.clone();
        let model = Model::from_network(&shipped, 140.0);
        assert_eq!(model.quantise().to_bytes(), shipped.to_bytes());
        let pos = labelled(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 [0.5] 40",
        )
        .expect("a line");
        let (max, _) = quantisation_error(&model, &shipped, &pos);
        assert!(max < 2.0, "float and quantised differ by {max} cp");
        // A network of one bucket split into eight evaluates as before; trained apart, each
        // bucket reads and writes back, and the engine's evaluation follows the float model.
        let mut eight = one.clone().with_buckets(8);
        assert_eq!(eight.b2.len(), 8);
        assert_eq!(eight.forward(&pos[0]), one.forward(&pos[0]));
        for (i, b) in eight.b2.iter_mut().enumerate() {
            *b += 0.05 * i as f32;
        }
        let net = eight.quantise();
        assert_eq!(net.buckets(), 8);
        let back = Network::from_bytes(&net.to_bytes()).expect("a bucketed network");
        assert_eq!(
            Model::from_network(&back, 140.0).quantise().to_bytes(),
            net.to_bytes()
        );
        let k = nnue::bucket(u32::from(pos[0].n), 8);
        assert_eq!(k, 7, "a 32-piece position is in the last bucket");
        let (max, _) = quantisation_error(&eight, &back, &pos);
        assert!(max < 2.0, "bucketed float and quantised differ by {max} cp");
        let shift = (eight.forward(&pos[0]) - one.forward(&pos[0])) * SCALE as f32;
        assert!((shift - 0.35 * SCALE as f32).abs() < 0.01, "{shift}");
    }

    #[test]
    fn backward_matches_finite_differences() {
        // One bucket, and eight with a 12-piece position (bucket 2).
        for (line, buckets) in [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 [0.5] 40",
                1,
            ),
            ("6k1/pp3ppp/8/8/8/8/PP3PPP/6K1 w - - 0 30 [0.5] 10", 8),
        ] {
            backward_matches_finite_differences_for(line, buckets);
        }
    }

    fn backward_matches_finite_differences_for(line: &str, buckets: usize) {
        let pos = labelled(line).expect("a line");
        let mut p = pos[0].clone();
        p.target = 0.8;
        let mut model = Model::random(3, 400.0, buckets);
        let k = nnue::bucket(u32::from(p.n), buckets);
        let o = k * 2 * HIDDEN;
        // Biases that keep every neuron inside (0, 1), away from the clipped kinks.
        for (i, b) in model.b1.iter_mut().enumerate() {
            *b = 0.3 + 0.4 * (i as f32 / HIDDEN as f32);
        }
        let mut grad = Model::zeros(buckets);
        model.backward(&p, &mut grad);
        let loss = |m: &Model| f64::from((m.predict(&p) - p.target).powi(2));
        let eps = 1e-2f32;
        let mut checked = 0;
        let check = |analytic: f32, set: &mut dyn FnMut(&mut Model, f32)| {
            let (mut plus, mut minus) = (model.clone(), model.clone());
            set(&mut plus, eps);
            set(&mut minus, -eps);
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * f64::from(eps));
            let a = f64::from(analytic);
            assert!(
                (a - numeric).abs() <= 1e-3 * a.abs().max(1e-4) + 1e-6,
                "{a} vs {numeric}"
            );
        };
        check(grad.b2[k], &mut |m, d| m.b2[k] += d);
        // The other buckets take no gradient.
        assert!((0..buckets).filter(|&b| b != k).all(|b| grad.b2[b] == 0.0));
        assert!(grad.w2[..o]
            .iter()
            .chain(&grad.w2[o + 2 * HIDDEN..])
            .all(|g| *g == 0.0));
        for i in [0, 5, HIDDEN - 1] {
            check(grad.w2[o + i], &mut |m, d| m.w2[o + i] += d);
            check(grad.w2[o + HIDDEN + i], &mut |m, d| {
                m.w2[o + HIDDEN + i] += d
            });
            check(grad.b1[i], &mut |m, d| m.b1[i] += d);
            for &f in &[p.stm[0], p.nstm[3]] {
                let k = usize::from(f) * HIDDEN + i;
                check(grad.w1[k], &mut |m, d| m.w1[k] += d);
                checked += 1;
            }
        }
        assert_eq!(checked, 6);
    }
}
