//! The pair scheduler every mode hands its games to (`sprt`, `match`, `gauntlet`, `spsa`): a
//! queue of game pairs, one worker thread per [`Seats`], Ctrl-C, the failure policy and the
//! restart of a failed engine (like fastchess's `matchmaking/tournament` base).
//!
//! A pair is one opening played twice with colours swapped, the pair's first engine White in
//! the first game. Workers take pairs from the queue and hand finished pairs to the calling
//! thread, which counts them. An engine that crashed or hung is restarted before its next game;
//! one that cannot be (re)started, or a bad opening, stops the run with that failure. Ctrl-C
//! raises the run's stop flag: games in flight are abandoned and never handed over.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use crossbeam::channel;
use shakmaty::Color;

use crate::engine::{Engine, EngineConfig};
use crate::game::{self, GameOutcome, GameRecord, GameSettings, Opening};

/// The most games a run plays at once (`--concurrency`, `match.concurrency`).
pub const MAX_CONCURRENCY: usize = 1024;

/// One game pair to play: `engines.0` is White in the first game, Black in the second.
#[derive(Clone, Debug)]
pub struct PairJob {
    /// The pair's number in its run (games `2·index + 1` and `2·index + 2`).
    pub index: u64,
    /// Indices into the run's engine configurations.
    pub engines: (usize, usize),
    /// Where both games start.
    pub opening: Opening,
}

/// A finished pair as the scheduler hands it over.
#[derive(Debug)]
pub struct PairDone {
    /// The job's index.
    pub index: u64,
    /// The two games, `engines.0` White in the first.
    pub games: [Box<GameRecord>; 2],
    /// The score of `engines.0` in each game, in half points (0, 1 or 2).
    pub half_points: [u8; 2],
}

/// One worker's engine processes, by index into the run's configurations: started on first
/// use, restarted when dead. A worker that outlives one run (SPSA) keeps its seats.
///
/// With `--affinity` a seat is a game slot with CPUs of its own: the pair's first engine runs
/// on `cpus[0]`, its second on `cpus[1]`.
#[derive(Default)]
pub struct Seats {
    engines: HashMap<usize, Engine>,
    cpus: Option<crate::affinity::SlotCpus>,
    /// The side of the slot (0 or 1) each started engine was pinned for.
    sides: HashMap<usize, usize>,
}

impl Seats {
    /// A seat whose engines are pinned to the slot's CPUs.
    pub fn pinned(cpus: crate::affinity::SlotCpus) -> Seats {
        Seats {
            cpus: Some(cpus),
            ..Seats::default()
        }
    }

    /// Engine `i` plays on `side` of the slot next: one pinned for the other side is quit
    /// (a round robin seats an engine first in one pair and second in another).
    pub fn seat(&mut self, i: usize, side: usize) {
        if self.cpus.is_none() {
            return;
        }
        if self.sides.insert(i, side).is_some_and(|was| was != side) {
            if let Some(mut e) = self.engines.remove(&i) {
                e.quit();
            }
        }
    }

    /// A live engine `i` (started, or restarted if it died); the error names the engine.
    pub fn ready(&mut self, configs: &[EngineConfig], i: usize) -> Result<&mut Engine, String> {
        let name = &configs[i].name;
        let e = match self.engines.entry(i) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(slot) => {
                let mut config = configs[i].clone();
                if let Some(cpus) = &self.cpus {
                    config.cpus = Some(cpus[self.sides.get(&i).copied().unwrap_or(0)].clone());
                }
                slot.insert(
                    Engine::start(config)
                        .map_err(|err| format!("engine {name} cannot be started: {err}"))?,
                )
            }
        };
        // One more try from scratch before giving up on this engine.
        if e.ensure_alive().is_err() {
            e.ensure_alive()
                .map_err(|err| format!("engine {name} cannot be restarted: {err}"))?;
        }
        Ok(e)
    }

    /// Engine `i` if it was started.
    pub fn get(&self, i: usize) -> Option<&Engine> {
        self.engines.get(&i)
    }

    /// Quits every engine but `keep` (a round robin worker holds only its game's two).
    fn keep_only(&mut self, keep: (usize, usize)) {
        let drop: Vec<usize> = (self.engines.keys().copied())
            .filter(|k| *k != keep.0 && *k != keep.1)
            .collect();
        for k in drop {
            if let Some(mut e) = self.engines.remove(&k) {
                e.quit();
            }
        }
    }

    /// Quits every engine.
    pub fn quit(&mut self) {
        for (_, mut e) in self.engines.drain() {
            e.quit();
        }
    }
}

/// What a mode does around each game; every hook is optional.
pub trait Hooks: Sync {
    /// Before each game, on each of its engines (SPSA sends θ± as `setoption`).
    fn prepare(&self, _engine: &mut Engine, _index: usize) -> Result<(), String> {
        Ok(())
    }
    /// A game starts: its number in the run, White's and Black's names.
    fn started(&self, _number: u64, _white: &str, _black: &str) {}
    /// A game ended.
    fn finished(&self, _number: u64, _game: &GameRecord) {}
}

/// Hooks that do nothing.
pub struct Quiet;

impl Hooks for Quiet {}

/// Where the games of a run are played: the engines, the settings, the hooks and the stop flag.
pub struct Scheduler<'a, H: Hooks> {
    /// The run's engines.
    pub configs: &'a [EngineConfig],
    /// Limits and adjudication of every game.
    pub settings: &'a GameSettings,
    /// The mode's hooks.
    pub hooks: &'a H,
    /// Raised by Ctrl-C, by a failure, or when the counter ends the run.
    pub stop: &'a AtomicBool,
}

impl<H: Hooks> Scheduler<'_, H> {
    /// Plays `jobs` on one thread per seat. `count` runs on this thread for each finished pair
    /// in finishing order; `Ok(false)` ends the run (later pairs are dropped uncounted). Returns
    /// the failure that stopped the workers, if one did.
    pub fn run<I, F>(
        &self,
        seats: &mut [Seats],
        jobs: I,
        mut count: F,
    ) -> anyhow::Result<Option<String>>
    where
        I: Iterator<Item = PairJob> + Send,
        F: FnMut(PairDone) -> anyhow::Result<bool>,
    {
        let jobs = Mutex::new(jobs);
        let failure: Mutex<Option<String>> = Mutex::new(None);
        let (tx, rx) = channel::unbounded::<PairDone>();
        let counted = crossbeam::scope(|scope| {
            for seat in seats.iter_mut() {
                let (tx, jobs, failure) = (tx.clone(), &jobs, &failure);
                scope.spawn(move |_| loop {
                    if self.stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Some(job) = jobs.lock().ok().and_then(|mut j| j.next()) else {
                        break;
                    };
                    match self.play_pair(seat, &job) {
                        Ok(Some(done)) => {
                            if tx.send(done).is_err() {
                                break;
                            }
                        }
                        Ok(None) => break,
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(e);
                            }
                            self.stop.store(true, Ordering::SeqCst);
                            break;
                        }
                    }
                });
            }
            drop(tx);
            let mut open = true;
            for pair in rx.iter() {
                if !open {
                    continue;
                }
                match count(pair) {
                    Ok(true) => {}
                    Ok(false) => {
                        open = false;
                        self.stop.store(true, Ordering::SeqCst);
                    }
                    Err(e) => {
                        self.stop.store(true, Ordering::SeqCst);
                        return Err(e);
                    }
                }
            }
            Ok(())
        })
        .map_err(|_| anyhow::anyhow!("a worker thread panicked"))?;
        counted?;
        Ok(failure.into_inner().ok().flatten())
    }

    /// Plays both games of `job`; `Ok(None)` when the stop flag abandoned one.
    fn play_pair(&self, seat: &mut Seats, job: &PairJob) -> Result<Option<PairDone>, String> {
        let (a, b) = job.engines;
        seat.keep_only(job.engines);
        seat.seat(a, 0);
        seat.seat(b, 1);
        let mut games = Vec::with_capacity(2);
        for (g, sides) in [(a, b), (b, a)].into_iter().enumerate() {
            let number = 2 * job.index + g as u64 + 1;
            let names = (&self.configs[sides.0].name, &self.configs[sides.1].name);
            self.hooks.started(number, names.0, names.1);
            let Some(record) = self.play_game(seat, sides, &job.opening)? else {
                return Ok(None);
            };
            self.hooks.finished(number, &record);
            games.push(record);
        }
        let half_points = [
            games[0].result.half_points(Color::White),
            games[1].result.half_points(Color::Black),
        ];
        let games = <[Box<GameRecord>; 2]>::try_from(games)
            .map_err(|_| "internal: a pair without two games".to_string())?;
        Ok(Some(PairDone {
            index: job.index,
            games,
            half_points,
        }))
    }

    /// One game on the seat's engines `white` and `black`, each readied and prepared first.
    fn play_game(
        &self,
        seat: &mut Seats,
        (white, black): (usize, usize),
        opening: &Opening,
    ) -> Result<Option<Box<GameRecord>>, String> {
        for i in [white, black] {
            let engine = seat.ready(self.configs, i)?;
            self.hooks.prepare(engine, i)?;
        }
        let (mut w, mut b) = match (seat.engines.remove(&white), seat.engines.remove(&black)) {
            (Some(w), Some(b)) => (w, b),
            _ => return Err("internal: engine missing after start".into()),
        };
        let outcome = game::play_game(&mut w, &mut b, opening, self.settings, self.stop);
        seat.engines.insert(white, w);
        seat.engines.insert(black, b);
        match outcome.map_err(|e| e.to_string())? {
            GameOutcome::Finished(record) => Ok(Some(record)),
            GameOutcome::Interrupted => Ok(None),
        }
    }
}

/// Ctrl-C: the process-wide "interrupted" flag and the stop flags of the runs in progress.
struct Interrupts {
    interrupted: Arc<AtomicBool>,
    stops: Mutex<Vec<Weak<AtomicBool>>>,
}

fn interrupts() -> &'static Interrupts {
    static INTERRUPTS: OnceLock<Interrupts> = OnceLock::new();
    INTERRUPTS.get_or_init(|| {
        if let Err(e) = ctrlc::set_handler(|| {
            let i = interrupts();
            i.interrupted.store(true, Ordering::SeqCst);
            if let Ok(stops) = i.stops.lock() {
                for s in stops.iter().filter_map(Weak::upgrade) {
                    s.store(true, Ordering::SeqCst);
                }
            }
        }) {
            eprintln!("warning: cannot install the Ctrl-C handler: {e}");
        }
        Interrupts {
            interrupted: Arc::new(AtomicBool::new(false)),
            stops: Mutex::new(Vec::new()),
        }
    })
}

/// A run's stop flag, which Ctrl-C raises, and the flag telling whether Ctrl-C was pressed.
pub fn stop_flag() -> (Arc<AtomicBool>, Arc<AtomicBool>) {
    let i = interrupts();
    let stop = Arc::new(AtomicBool::new(i.interrupted.load(Ordering::SeqCst)));
    if let Ok(mut stops) = i.stops.lock() {
        stops.retain(|w| w.strong_count() > 0);
        stops.push(Arc::downgrade(&stop));
    }
    (stop, i.interrupted.clone())
}
