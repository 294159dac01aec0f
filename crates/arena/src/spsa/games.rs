//! The real evaluator: two copies of one engine binary per worker, θ+ and θ−, the tuned values
//! sent as `setoption` before every game (a scheduler hook), game pairs played by the pair
//! scheduler on `concurrency` workers that keep their engines between iterations. Pair j of iteration k takes the book's opening for round
//! `k·pairs + j` (the runner's seeded `book::Sequence`), θ+ White in the first game.

use std::sync::atomic::AtomicBool;

use anyhow::Context;

use super::config::Param;
use super::schedule::format_value;
use super::tuner::Evaluator;
use crate::book::{Book, Sequence};
use crate::engine::{Engine, EngineConfig};
use crate::game::GameSettings;
use crate::scheduler::{Hooks, PairJob, Scheduler, Seats};
use crate::state::Tally;
use crate::uci::UciOption;

/// Display names of the two sides (no spaces, as fastchess output expects).
pub const PLUS_NAME: &str = "theta_plus";
/// See [`PLUS_NAME`].
pub const MINUS_NAME: &str = "theta_minus";

/// Games between θ+ and θ− on real engines.
pub struct EngineMatch {
    /// θ+ (index 0) and θ− (index 1): the same engine under two names.
    configs: [EngineConfig; 2],
    /// One per worker; kept alive from one iteration to the next.
    seats: Vec<Seats>,
    params: Vec<Param>,
    book: Book,
    sequence: Sequence,
    settings: GameSettings,
    /// Games lost to an engine fault (time, illegal move, crash, hang) so far this session.
    pub faults: u64,
    /// Games played so far this session.
    pub games: u64,
}

impl EngineMatch {
    /// Starts `2·concurrency` engines from `base` (fixed options included in it), each named
    /// for its side. With `slots` (`--affinity`) there is one worker a slot, its θ+ engine on
    /// the slot's first CPUs and its θ− engine on the second's.
    pub fn start(
        base: &EngineConfig,
        concurrency: usize,
        slots: Option<Vec<crate::affinity::SlotCpus>>,
        params: Vec<Param>,
        book: Book,
        sequence: Sequence,
        settings: GameSettings,
    ) -> anyhow::Result<EngineMatch> {
        let named = |name: &str| EngineConfig {
            name: name.to_string(),
            ..base.clone()
        };
        let configs = [named(PLUS_NAME), named(MINUS_NAME)];
        let fresh: Vec<Seats> = match slots {
            Some(slots) => slots.into_iter().map(Seats::pinned).collect(),
            None => (0..concurrency.max(1)).map(|_| Seats::default()).collect(),
        };
        let mut seats = Vec::with_capacity(fresh.len());
        for (i, mut seat) in fresh.into_iter().enumerate() {
            for side in 0..2 {
                seat.seat(side, side);
                seat.ready(&configs, side)
                    .map_err(anyhow::Error::msg)
                    .with_context(|| format!("starting the engines of worker {i}"))?;
            }
            seats.push(seat);
        }
        Ok(EngineMatch {
            configs,
            seats,
            params,
            book,
            sequence,
            settings,
            faults: 0,
            games: 0,
        })
    }

    /// The options the engine declared (from the first worker's θ+ engine).
    pub fn engine_options(&self) -> &[UciOption] {
        (self.seats.first().and_then(|s| s.get(0))).map_or(&[], Engine::options)
    }

    /// Quits every engine.
    pub fn quit(&mut self) {
        for s in &mut self.seats {
            s.quit();
        }
    }
}

/// Sends θ+ to engine 0 and θ− to engine 1 before every game.
struct Theta<'a> {
    params: &'a [Param],
    values: [&'a [f64]; 2],
}

impl Hooks for Theta<'_> {
    fn prepare(&self, engine: &mut Engine, index: usize) -> Result<(), String> {
        for (p, v) in self.params.iter().zip(self.values[index]) {
            engine
                .set_option(&p.name, &format_value(p, *v))
                .map_err(|e| format!("setting {} on {}: {e}", p.name, engine.name()))?;
        }
        Ok(())
    }
}

impl Evaluator for EngineMatch {
    fn play(
        &mut self,
        k: u64,
        plus: &[f64],
        minus: &[f64],
        pairs: u32,
        stop: &AtomicBool,
    ) -> anyhow::Result<Option<Tally>> {
        let jobs = (0..u64::from(pairs)).map(|j| PairJob {
            index: j,
            engines: (0, 1),
            opening: self.book.entries[self.sequence.index(k * u64::from(pairs) + j)].clone(),
        });
        let theta = Theta {
            params: &self.params,
            values: [plus, minus],
        };
        let scheduler = Scheduler {
            configs: &self.configs,
            settings: &self.settings,
            hooks: &theta,
            stop,
        };
        let mut tally = Tally::default();
        let (mut counted, mut faults) = (0u32, 0u64);
        let failure = scheduler.run(&mut self.seats, jobs, |pair| {
            tally.add_pair(pair.half_points);
            counted += 1;
            faults += pair
                .games
                .iter()
                .filter(|g| g.termination.is_engine_fault())
                .count() as u64;
            Ok(true)
        })?;
        if let Some(e) = failure {
            anyhow::bail!("{e}");
        }
        if counted < pairs {
            return Ok(None);
        }
        self.faults += faults;
        self.games += 2 * u64::from(pairs);
        Ok(Some(tally))
    }
}
