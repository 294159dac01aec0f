//! The SPSA loop, independent of how games are played: an [`Evaluator`] plays an iteration's
//! game pairs between θ+ and θ− (real engines in `games`, a simulated objective in `sim`), the
//! [`Tuner`] draws the probe and applies the update.
//!
//! Iteration k's random draws come from ChaCha8 seeded with the campaign seed on stream k, so
//! they depend only on (seed, k): a resumed run draws exactly what an uninterrupted one would.

use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::checkpoint::Checkpoint;
use super::config::{Config, Param};
use super::schedule::{self, Probe, Schedule};
use crate::state::Tally;

/// Plays the games of one iteration.
pub trait Evaluator {
    /// Plays `pairs` game pairs of θ+ (values `plus`, one per parameter) against θ− (`minus`)
    /// for iteration `k`; returns the results from θ+'s side, or `None` when `stop` was raised
    /// (then nothing of the iteration counts).
    fn play(
        &mut self,
        k: u64,
        plus: &[f64],
        minus: &[f64],
        pairs: u32,
        stop: &AtomicBool,
    ) -> anyhow::Result<Option<Tally>>;
}

/// The random source of iteration `k`: ChaCha8 (portable across `rand` versions) seeded with
/// `seed`, on stream `k`.
pub fn iteration_rng(seed: u64, k: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(k);
    rng
}

/// A tune in progress: the parameters, the schedule and the saved state.
#[derive(Debug, Clone)]
pub struct Tuner {
    /// The parameters in file order.
    pub params: Vec<Param>,
    /// The schedule.
    pub schedule: Schedule,
    /// The campaign seed.
    pub seed: u64,
    /// Game pairs per iteration.
    pub pairs: u32,
    /// θ, counts and trajectory.
    pub state: Checkpoint,
}

/// One finished iteration.
#[derive(Debug, Clone)]
pub struct Step {
    /// The probe that was played.
    pub probe: Probe,
    /// Its games, from θ+'s side.
    pub tally: Tally,
}

impl Tuner {
    /// A fresh tune at the start values of `config`.
    pub fn new(config: &Config) -> Tuner {
        let start = config.params.iter().map(|p| p.value).collect();
        Tuner::resume(config, Checkpoint::new(config.fingerprint(), start))
    }

    /// A tune continuing from `state` (already checked against the config).
    pub fn resume(config: &Config, state: Checkpoint) -> Tuner {
        Tuner {
            params: config.params.clone(),
            schedule: Schedule::of(config),
            seed: config.spsa.seed,
            pairs: config.spsa.pairs_per_iteration,
            state,
        }
    }

    /// Whether all N iterations are done.
    pub fn finished(&self) -> bool {
        self.state.iterations_done >= self.schedule.iterations
    }

    /// The probe of the next iteration.
    pub fn next_probe(&self) -> Probe {
        let k = self.state.iterations_done;
        let mut rng = iteration_rng(self.seed, k);
        schedule::probe(&self.params, &self.schedule, &self.state.theta, k, &mut rng)
    }

    /// Plays and applies the next iteration; `None` if it was interrupted (state unchanged).
    pub fn step(
        &mut self,
        eval: &mut dyn Evaluator,
        stop: &AtomicBool,
    ) -> anyhow::Result<Option<Step>> {
        let probe = self.next_probe();
        let Some(tally) = eval.play(probe.k, &probe.plus, &probe.minus, self.pairs, stop)? else {
            return Ok(None);
        };
        let wl = tally.wins as i64 - tally.losses as i64;
        schedule::update(&self.params, &mut self.state.theta, &probe, wl);
        self.state.totals = self.state.totals.merged(&tally);
        self.state.trajectory.push(self.state.theta.clone());
        self.state.iterations_done += 1;
        Ok(Some(Step { probe, tally }))
    }
}
