//! The real evaluator: two copies of one engine binary per worker, θ+ and θ−, the tuned values
//! sent as `setoption` before every game, game pairs played through `game::play_game` on
//! `concurrency` threads. Pair j of iteration k takes the book's opening for round
//! `k·pairs + j` (the runner's seeded `book::Sequence`), θ+ White in the first game.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;

use anyhow::{anyhow, Context};

use super::config::Param;
use super::schedule::format_value;
use super::tuner::Evaluator;
use crate::book::{Book, Sequence};
use crate::engine::{Engine, EngineConfig};
use crate::game::{self, GameOutcome, GameResult, GameSettings, Opening};
use crate::state::Tally;
use crate::uci::UciOption;

/// Display names of the two sides (no spaces, as fastchess output expects).
pub const PLUS_NAME: &str = "theta_plus";
/// See [`PLUS_NAME`].
pub const MINUS_NAME: &str = "theta_minus";

/// θ+ and θ− engines of one worker.
struct Slot {
    plus: Engine,
    minus: Engine,
}

/// Games between θ+ and θ− on real engines.
pub struct EngineMatch {
    slots: Vec<Slot>,
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
    /// for its side.
    pub fn start(
        base: &EngineConfig,
        concurrency: usize,
        params: Vec<Param>,
        book: Book,
        sequence: Sequence,
        settings: GameSettings,
    ) -> anyhow::Result<EngineMatch> {
        let mut slots = Vec::with_capacity(concurrency);
        for i in 0..concurrency.max(1) {
            let named = |name: &str| EngineConfig {
                name: name.to_string(),
                ..base.clone()
            };
            let plus = Engine::start(named(PLUS_NAME))
                .with_context(|| format!("starting θ+ engine of worker {i}"))?;
            let minus = Engine::start(named(MINUS_NAME))
                .with_context(|| format!("starting θ− engine of worker {i}"))?;
            slots.push(Slot { plus, minus });
        }
        Ok(EngineMatch {
            slots,
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
        self.slots.first().map(|s| s.plus.options()).unwrap_or(&[])
    }

    /// Quits every engine.
    pub fn quit(&mut self) {
        for s in &mut self.slots {
            s.plus.quit();
            s.minus.quit();
        }
    }
}

/// What one pair produced.
struct PairResult {
    half_points: [u8; 2],
    faults: u64,
}

/// Sets θ's values on an engine (restarted first if it died).
fn apply(engine: &mut Engine, params: &[Param], values: &[f64]) -> anyhow::Result<()> {
    engine
        .ensure_alive()
        .with_context(|| format!("restarting {}", engine.name()))?;
    for (p, v) in params.iter().zip(values) {
        engine
            .set_option(&p.name, &format_value(p, *v))
            .with_context(|| format!("setting {} on {}", p.name, engine.name()))?;
    }
    Ok(())
}

/// Plays one pair on a worker's engines; `None` if interrupted.
fn play_pair(
    slot: &mut Slot,
    params: &[Param],
    opening: &Opening,
    values: (&[f64], &[f64]),
    settings: &GameSettings,
    stop: &AtomicBool,
) -> anyhow::Result<Option<PairResult>> {
    let mut result = PairResult {
        half_points: [0; 2],
        faults: 0,
    };
    for g in 0..2 {
        apply(&mut slot.plus, params, values.0)?;
        apply(&mut slot.minus, params, values.1)?;
        let plus_white = g == 0;
        let outcome = if plus_white {
            game::play_game(&mut slot.plus, &mut slot.minus, opening, settings, stop)
        } else {
            game::play_game(&mut slot.minus, &mut slot.plus, opening, settings, stop)
        }
        .map_err(|e| anyhow!("{e}"))?;
        let record = match outcome {
            GameOutcome::Finished(r) => r,
            GameOutcome::Interrupted => return Ok(None),
        };
        let white_points = match record.result {
            GameResult::WhiteWins => 2,
            GameResult::Draw => 1,
            GameResult::BlackWins => 0,
        };
        result.half_points[g] = if plus_white {
            white_points
        } else {
            2 - white_points
        };
        if record.termination.is_engine_fault() {
            result.faults += 1;
        }
    }
    Ok(Some(result))
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
        let n = pairs as usize;
        let openings: Vec<Opening> = (0..n)
            .map(|j| {
                let round = k * u64::from(pairs) + j as u64;
                let e = &self.book.entries[self.sequence.index(round)];
                Opening {
                    fen: e.fen.clone(),
                    moves: e.moves.clone(),
                }
            })
            .collect();
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<PairResult>>> = Mutex::new((0..n).map(|_| None).collect());
        let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
        let interrupted = AtomicBool::new(false);
        let params = &self.params;
        let settings = &self.settings;
        thread::scope(|s| {
            for slot in &mut self.slots {
                let (next, results, failure, interrupted, openings) =
                    (&next, &results, &failure, &interrupted, &openings);
                s.spawn(move || loop {
                    if interrupted.load(Ordering::SeqCst) || stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let j = next.fetch_add(1, Ordering::SeqCst);
                    if j >= n {
                        return;
                    }
                    match play_pair(slot, params, &openings[j], (plus, minus), settings, stop) {
                        Ok(Some(r)) => {
                            if let Ok(mut v) = results.lock() {
                                v[j] = Some(r);
                            }
                        }
                        Ok(None) => {
                            interrupted.store(true, Ordering::SeqCst);
                            return;
                        }
                        Err(e) => {
                            interrupted.store(true, Ordering::SeqCst);
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(e);
                            }
                            return;
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().ok().flatten() {
            return Err(e);
        }
        let results = results
            .into_inner()
            .map_err(|_| anyhow!("a game worker panicked"))?;
        if interrupted.load(Ordering::SeqCst) || results.iter().any(Option::is_none) {
            return Ok(None);
        }
        let mut tally = Tally::default();
        for r in results.into_iter().flatten() {
            tally.add_pair(r.half_points);
            self.faults += r.faults;
            self.games += 2;
        }
        Ok(Some(tally))
    }
}
