//! `arena openings`: makes an EPD opening book. Each candidate is a seeded random walk of
//! `--plies` sound moves (see [`walk`]) from the start position or from a position of an input
//! EPD/PGN book; it is kept if it is not in check, not over, not a duplicate (placement, side,
//! castling and en passant; move counters ignored), and a fixed-limit search by a UCI engine
//! scores it within `[--min-cp, --max-cp]` from the side to move's point of view.
//!
//! Deterministic for a given seed, engine and limit, whatever `--threads`: candidate `i` draws
//! from its own RNG stream, each search starts from a fresh engine state, results are taken in
//! candidate order, and the book is the first `--count` accepted candidates.
//!
//! Output lines are EPD with the score as the standard `ce` operation (centipawn evaluation,
//! side to move's view) and the move counters as `hmvc`/`fmvn`, e.g.
//! `rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - ce 18; hmvc 1; fmvn 2;`.

pub mod chess960;
pub mod cli;
pub mod probe;
pub mod walk;

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crossbeam::channel::{self, RecvTimeoutError, SendTimeoutError};
use indicatif::ProgressBar;
use rand::Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::book::{Book, BookError, Skipped};
use crate::engine::EngineConfig;
use crate::uci::Score;

pub use cli::{engine_config, run, summary, OpeningsArgs, DEFAULT_NODES};
pub use probe::{Limit, ProbeError, Prober};

/// Everything a generation run needs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The scoring engine (one process per thread).
    pub engine: EngineConfig,
    /// The search limit of each probe.
    pub limit: Limit,
    /// Random plies per candidate.
    pub plies: u32,
    /// Positions wanted.
    pub count: usize,
    /// Seed of the random walks.
    pub seed: u64,
    /// Engine processes.
    pub threads: usize,
    /// Accepted score window (side to move, centipawns, inclusive).
    pub min_cp: i64,
    /// See `min_cp`.
    pub max_cp: i64,
    /// Candidates tried at most.
    pub max_candidates: u64,
    /// Start positions; each candidate picks one at random, or with `plies == 0` candidate `i`
    /// is start `i` (and there are no more candidates than starts).
    pub starts: Vec<Chess>,
    /// Longest wait for one search.
    pub deadline: Duration,
}

impl Config {
    /// A run from the standard start position with 1 thread and a 60 s search deadline.
    pub fn new(engine: EngineConfig, limit: Limit, count: usize) -> Config {
        Config {
            engine,
            limit,
            plies: 8,
            count,
            seed: 1,
            threads: 1,
            min_cp: -30,
            max_cp: 30,
            max_candidates: (count as u64).saturating_mul(1000).max(1000),
            starts: vec![Chess::default()],
            deadline: Duration::from_secs(60),
        }
    }
}

/// One accepted position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// Full FEN (move counters included).
    pub fen: String,
    /// The engine's score, centipawns for the side to move.
    pub cp: i64,
    /// The candidate index it came from.
    pub candidate: u64,
}

impl Opening {
    /// The EPD line written to the book.
    pub fn epd_line(&self) -> String {
        epd_line(&self.fen, self.cp)
    }
}

/// What happened to the candidates, up to the last one the book needed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Candidates drawn.
    pub candidates: u64,
    /// Walks that ended the game, or final positions with no legal move.
    pub game_over: u64,
    /// Final positions in check.
    pub in_check: u64,
    /// Final positions seen before in this run.
    pub duplicates: u64,
    /// Positions searched by the engine.
    pub searched: u64,
    /// Searched positions with a mate score.
    pub mate: u64,
    /// Searched positions scored outside the window.
    pub outside: u64,
    /// Positions accepted.
    pub accepted: u64,
}

/// The result of a generation run.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Accepted positions in candidate order.
    pub openings: Vec<Opening>,
    /// Counts, up to the last candidate the book needed.
    pub tally: Tally,
}

/// Mean, standard deviation (sample, n − 1), minimum and maximum of a set of scores.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreStats {
    /// Number of scores.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (0 for fewer than 2 scores).
    pub sd: f64,
    /// Smallest score.
    pub min: i64,
    /// Largest score.
    pub max: i64,
}

/// Statistics of `scores`; `None` when empty.
pub fn score_stats(scores: &[i64]) -> Option<ScoreStats> {
    let n = scores.len();
    let min = *scores.iter().min()?;
    let max = *scores.iter().max()?;
    let mean = scores.iter().map(|&s| s as f64).sum::<f64>() / n as f64;
    let sd = if n > 1 {
        let ss: f64 = scores.iter().map(|&s| (s as f64 - mean).powi(2)).sum();
        (ss / (n - 1) as f64).sqrt()
    } else {
        0.0
    };
    Some(ScoreStats {
        n,
        mean,
        sd,
        min,
        max,
    })
}

/// Why a run could not complete.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// An engine failed.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The settings cannot produce a book.
    #[error("invalid settings: {0}")]
    Settings(String),
}

/// The EPD line of a position: the four FEN fields, then `ce` (the score), `hmvc` and `fmvn`.
pub fn epd_line(fen: &str, cp: i64) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let head = f.iter().take(4).copied().collect::<Vec<_>>().join(" ");
    let hmvc = f.get(4).copied().unwrap_or("0");
    let fmvn = f.get(5).copied().unwrap_or("1");
    format!("{head} ce {cp}; hmvc {hmvc}; fmvn {fmvn};")
}

/// The `ce` operation of an EPD line, if it has one.
pub fn epd_score(line: &str) -> Option<i64> {
    let ops = line
        .split_whitespace()
        .skip(4)
        .collect::<Vec<_>>()
        .join(" ");
    ops.split(';').find_map(|op| {
        let mut it = op.split_whitespace();
        match (it.next(), it.next()) {
            (Some("ce"), Some(v)) => v.parse().ok(),
            _ => None,
        }
    })
}

/// Reads start positions from an EPD or PGN book with arena's book reader (the one matches
/// use); malformed entries come back with their line numbers.
pub fn load_starts(path: &Path) -> Result<(Vec<Chess>, Vec<Skipped>), BookError> {
    let book = Book::load(path)?;
    let mut skipped = book.skipped.clone();
    let mut starts = Vec::with_capacity(book.entries.len());
    for (i, entry) in book.entries.iter().enumerate() {
        match replay(entry.fen.as_deref(), &entry.moves) {
            Ok(pos) => starts.push(pos),
            Err(reason) => skipped.push(Skipped {
                line: 0,
                reason: format!("opening {}: {reason}", i + 1),
            }),
        }
    }
    if starts.is_empty() {
        return Err(BookError::Empty {
            path: path.to_path_buf(),
            skipped: skipped.len(),
        });
    }
    Ok((starts, skipped))
}

/// The position after `moves` (UCI) from `fen` (None: the start position).
fn replay(fen: Option<&str>, moves: &[String]) -> Result<Chess, String> {
    let mut pos: Chess = match fen {
        None => Chess::default(),
        Some(f) => Fen::from_ascii(f.as_bytes())
            .map_err(|e| format!("invalid FEN {f:?}: {e}"))?
            .into_position(CastlingMode::Standard)
            .map_err(|e| format!("illegal FEN {f:?}: {e}"))?,
    };
    for m in moves {
        let mv = m
            .parse::<UciMove>()
            .map_err(|e| format!("bad move {m:?}: {e}"))?
            .to_move(&pos)
            .map_err(|e| format!("illegal move {m:?}: {e}"))?;
        pos.play_unchecked(mv);
    }
    Ok(pos)
}

/// A candidate on its way to an engine: `seq` orders the searched candidates, `tally` counts
/// every candidate up to and including this one, before any search.
struct Job {
    seq: u64,
    index: u64,
    fen: String,
    tally: Tally,
}

/// Generates a book. Progress (accepted positions) goes to `progress`.
pub fn generate(config: &Config, progress: &ProgressBar) -> Result<Outcome, OpeningsError> {
    if config.min_cp > config.max_cp {
        return Err(OpeningsError::Settings(format!(
            "--min-cp {} is above --max-cp {}",
            config.min_cp, config.max_cp
        )));
    }
    if config.starts.is_empty() {
        return Err(OpeningsError::Settings("no start position".to_string()));
    }
    let threads = config.threads.max(1);
    if config.count == 0 {
        return Ok(Outcome {
            openings: Vec::new(),
            tally: Tally::default(),
        });
    }
    let mut probers = Vec::with_capacity(threads);
    for _ in 0..threads {
        probers.push(Prober::start(
            config.engine.clone(),
            config.limit,
            config.deadline,
        )?);
    }

    let stop = AtomicBool::new(false);
    let final_tally = Mutex::new(Tally::default());
    let (job_tx, job_rx) = channel::bounded::<Job>(threads * 4);
    let (res_tx, res_rx) = channel::unbounded::<(Job, Result<Score, ProbeError>)>();

    std::thread::scope(|s| {
        let stop = &stop;
        let final_tally = &final_tally;
        s.spawn(move || produce(config, job_tx, stop, final_tally));
        for mut prober in probers {
            let job_rx = job_rx.clone();
            let res_tx = res_tx.clone();
            s.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                match job_rx.recv_timeout(Duration::from_millis(50)) {
                    Ok(job) => {
                        let r = prober.score(&job.fen, stop);
                        if res_tx.send((job, r)).is_err() {
                            break;
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            });
        }
        drop(res_tx);
        drop(job_rx);
        let result = collect(config, &res_rx, progress, final_tally);
        stop.store(true, Ordering::Relaxed);
        result
    })
}

/// Draws candidates in index order, drops the ones no search can save, and queues the rest.
fn produce(
    config: &Config,
    jobs: channel::Sender<Job>,
    stop: &AtomicBool,
    final_tally: &Mutex<Tally>,
) {
    let mut seen = HashSet::new();
    let mut tally = Tally::default();
    let mut seq = 0;
    'candidates: for index in 0..config.max_candidates {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let mut rng = walk::candidate_rng(config.seed, index);
        let start = if config.plies == 0 {
            // Filtering a book: each input position once, in file order.
            match config.starts.get(index as usize) {
                Some(s) => s,
                None => break,
            }
        } else {
            &config.starts[rng.gen_range(0..config.starts.len())]
        };
        tally.candidates += 1;
        let pos = match walk::random_walk(start, config.plies, &mut rng) {
            Some(p) if !p.is_game_over() => p,
            _ => {
                tally.game_over += 1;
                continue;
            }
        };
        if pos.is_check() {
            tally.in_check += 1;
            continue;
        }
        let fen = walk::fen_of(&pos);
        if !seen.insert(walk::position_key(&fen)) {
            tally.duplicates += 1;
            continue;
        }
        let mut job = Job {
            seq,
            index,
            fen,
            tally,
        };
        seq += 1;
        loop {
            match jobs.send_timeout(job, Duration::from_millis(50)) {
                Ok(()) => break,
                Err(SendTimeoutError::Timeout(j)) => {
                    if stop.load(Ordering::Relaxed) {
                        break 'candidates;
                    }
                    job = j;
                }
                Err(SendTimeoutError::Disconnected(_)) => break 'candidates,
            }
        }
    }
    if let Ok(mut t) = final_tally.lock() {
        *t = tally;
    }
}

/// Takes search results in candidate order until the book is full or the candidates run out.
fn collect(
    config: &Config,
    results: &channel::Receiver<(Job, Result<Score, ProbeError>)>,
    progress: &ProgressBar,
    final_tally: &Mutex<Tally>,
) -> Result<Outcome, OpeningsError> {
    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    let mut openings = Vec::with_capacity(config.count);
    let mut searched = Tally::default();
    progress.set_length(config.count as u64);
    while let Ok((job, r)) = results.recv() {
        pending.insert(job.seq, (job, r));
        while let Some((job, r)) = pending.remove(&next) {
            next += 1;
            let score = r?;
            searched.searched += 1;
            match score {
                Score::Mate(_) => searched.mate += 1,
                Score::Cp(cp) if cp < config.min_cp || cp > config.max_cp => searched.outside += 1,
                Score::Cp(cp) => {
                    searched.accepted += 1;
                    openings.push(Opening {
                        fen: job.fen.clone(),
                        cp,
                        candidate: job.index,
                    });
                    progress.inc(1);
                }
            }
            progress.set_message(format!(
                "{} candidates, {} searched",
                job.tally.candidates, searched.searched
            ));
            if openings.len() >= config.count {
                return Ok(Outcome {
                    openings,
                    tally: merge(job.tally, searched),
                });
            }
        }
    }
    let produced = final_tally.lock().map(|t| *t).unwrap_or_default();
    Ok(Outcome {
        openings,
        tally: merge(produced, searched),
    })
}

/// The producer's counts with the collector's search counts.
fn merge(produced: Tally, searched: Tally) -> Tally {
    Tally {
        searched: searched.searched,
        mate: searched.mate,
        outside: searched.outside,
        accepted: searched.accepted,
        ..produced
    }
}

/// Writes the book: to `<out>.partial`, then renamed over `out`.
pub fn write_book(out: &Path, openings: &[Opening]) -> std::io::Result<()> {
    let mut tmp = out.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = PathBuf::from(tmp);
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        for o in openings {
            writeln!(w, "{}", o.epd_line())?;
        }
        w.flush()?;
    }
    std::fs::rename(&tmp, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_line_carries_score_and_counters() {
        let line = epd_line("8/8/8/4k3/8/8/8/4K3 b - - 7 31", -12);
        assert_eq!(line, "8/8/8/4k3/8/8/8/4K3 b - - ce -12; hmvc 7; fmvn 31;");
        assert_eq!(epd_score(&line), Some(-12));
        assert_eq!(epd_score("8/8/8/4k3/8/8/8/4K3 b - - c0 \"x\";"), None);
        let (entries, skipped) = crate::book::parse_epd(&line);
        assert!(skipped.is_empty());
        assert_eq!(
            entries[0].fen.as_deref(),
            Some("8/8/8/4k3/8/8/8/4K3 b - - 7 31")
        );
    }

    #[test]
    fn stats_of_scores() {
        let s = score_stats(&[-10, 0, 10, 20]).unwrap();
        assert_eq!((s.n, s.min, s.max), (4, -10, 20));
        assert!((s.mean - 5.0).abs() < 1e-12);
        // Sample variance: (225 + 25 + 25 + 225) / 3.
        assert!((s.sd - (500.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert!(score_stats(&[]).is_none());
        assert_eq!(score_stats(&[7]).map(|s| s.sd), Some(0.0));
    }
}
