//! A simulated objective for testing the tuner without engines: a quadratic Elo curve per
//! parameter with a known optimum, and games drawn from the BayesElo model (Coulom 2005), a
//! logistic model with draws: with d the Elo difference and `draw_elo` the draw margin,
//! `P(win) = 1/(1+10^((draw_elo−d)/400))`, `P(loss) = 1/(1+10^((draw_elo+d)/400))`, the rest
//! draws.

use std::sync::atomic::AtomicBool;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::tuner::Evaluator;
use crate::state::Tally;

/// Self-play against a known quadratic strength curve.
#[derive(Debug, Clone)]
pub struct Simulated {
    /// The optimum of each parameter.
    pub optimum: Vec<f64>,
    /// Elo lost per squared unit of distance from the optimum, per parameter.
    pub curvature: Vec<f64>,
    /// The BayesElo draw margin in Elo (200 gives 52% draws between equal sides).
    pub draw_elo: f64,
    rng: ChaCha8Rng,
}

impl Simulated {
    /// A simulated engine; games are drawn from ChaCha8 seeded with `seed`.
    pub fn new(optimum: Vec<f64>, curvature: Vec<f64>, draw_elo: f64, seed: u64) -> Simulated {
        Simulated {
            optimum,
            curvature,
            draw_elo,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Strength of a parameter vector: `−Σ curvature_i·(x_i − optimum_i)²` Elo.
    pub fn elo(&self, x: &[f64]) -> f64 {
        x.iter()
            .zip(&self.optimum)
            .zip(&self.curvature)
            .map(|((x, o), c)| -c * (x - o) * (x - o))
            .sum()
    }

    /// Win, draw and loss probabilities at Elo difference `d`.
    pub fn probabilities(&self, d: f64) -> [f64; 3] {
        let win = 1.0 / (1.0 + 10f64.powf((self.draw_elo - d) / 400.0));
        let loss = 1.0 / (1.0 + 10f64.powf((self.draw_elo + d) / 400.0));
        [win, 1.0 - win - loss, loss]
    }

    /// One game at Elo difference `d` for the first side, in half-points (0, 1 or 2).
    fn game(&mut self, d: f64) -> u8 {
        let [win, draw, _] = self.probabilities(d);
        let u: f64 = self.rng.gen();
        if u < win {
            2
        } else if u < win + draw {
            1
        } else {
            0
        }
    }
}

impl Evaluator for Simulated {
    fn play(
        &mut self,
        _k: u64,
        plus: &[f64],
        minus: &[f64],
        pairs: u32,
        _stop: &AtomicBool,
    ) -> anyhow::Result<Option<Tally>> {
        let d = self.elo(plus) - self.elo(minus);
        let mut tally = Tally::default();
        for _ in 0..pairs {
            let pair = [self.game(d), self.game(d)];
            tally.add_pair(pair);
        }
        Ok(Some(tally))
    }
}
