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

pub mod probe;
pub mod walk;

use std::collections::{BTreeMap, HashSet};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::Context;
use crossbeam::channel::{self, RecvTimeoutError, SendTimeoutError};
use indicatif::{ProgressBar, ProgressStyle};
use rand::Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::book::{Book, BookError, Skipped};
use crate::engine::EngineConfig;
use crate::runner::args;
use crate::uci::Score;

pub use probe::{Limit, ProbeError, Prober};

/// Node limit used when neither `--nodes` nor `--depth` is given.
pub const DEFAULT_NODES: u64 = 10_000;

/// Command-line options of `arena openings`.
#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// The UCI engine that scores candidates: a program and its arguments
    /// (`--engine target/release/clio`), or an `arena match` engine spec
    /// (`--engine cmd=PATH [arg=ARG]… [option.NAME=VALUE]…`).
    #[arg(long, num_args = 1.., required = true, value_name = "CMD")]
    pub engine: Vec<String>,
    /// A UCI option for the engine, `Name=Value` (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Random plies played from each start position.
    #[arg(long, default_value_t = 8)]
    pub plies: u32,
    /// Positions to write.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Score each candidate with `go nodes N` (the default, 10000, if no --depth).
    #[arg(long, conflicts_with = "depth")]
    pub nodes: Option<u64>,
    /// Score each candidate with `go depth N`.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Seed of the random walks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Engine processes searching in parallel.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The EPD file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Lowest accepted score, centipawns for the side to move.
    #[arg(long, default_value_t = -30, allow_negative_numbers = true)]
    pub min_cp: i64,
    /// Highest accepted score, centipawns for the side to move.
    #[arg(long, default_value_t = 30, allow_negative_numbers = true)]
    pub max_cp: i64,
    /// Start from the positions of this EPD or PGN book (`.pgn` is PGN) instead of the start
    /// position; each candidate picks one at random (with `--plies 0`, each is taken once in
    /// file order: the book is filtered).
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// Give up after this many candidates (default: 1000 per position asked for).
    #[arg(long)]
    pub max_candidates: Option<u64>,
}

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

/// The engine config for `--engine` words and `--option`s: a program with its arguments, or
/// (when the first word is `key=value`) an `arena match` engine spec.
pub fn engine_config(words: &[String], options: &[String]) -> anyhow::Result<EngineConfig> {
    let first = words.first().context("--engine needs a command")?;
    let mut config = if first.contains('=') {
        args::parse_engine_spec(words)?
    } else {
        let mut parts = words
            .iter()
            .flat_map(|w| w.split_whitespace())
            .map(str::to_string);
        let cmd = parts.next().context("--engine needs a command")?;
        EngineConfig {
            name: args::default_name(&cmd),
            cmd,
            args: parts.collect(),
            dir: None,
            options: Vec::new(),
        }
    };
    config.options.extend(args::parse_options(options)?);
    Ok(config)
}

/// The closing summary of a run; `skipped` is the number of malformed input entries, if a book
/// was read.
pub fn summary(config: &Config, outcome: &Outcome, out: &Path, skipped: Option<usize>) -> String {
    let t = &outcome.tally;
    let mut s = format!(
        "Openings: {} written to {} (engine {}, {}, {} plies, window [{}, {}] cp for the side \
         to move, seed {})\n",
        outcome.openings.len(),
        out.display(),
        config.engine.name,
        config.limit,
        config.plies,
        config.min_cp,
        config.max_cp,
        config.seed
    );
    s += &format!(
        "Candidates: {} (game over {}, in check {}, duplicates {}, searched {}: mate {}, \
         outside the window {}, accepted {})\n",
        t.candidates,
        t.game_over,
        t.in_check,
        t.duplicates,
        t.searched,
        t.mate,
        t.outside,
        t.accepted
    );
    let scores: Vec<i64> = outcome.openings.iter().map(|o| o.cp).collect();
    if let Some(st) = score_stats(&scores) {
        s += &format!(
            "Score (cp, side to move): mean {:.1}, sd {:.1}, min {}, max {}\n",
            st.mean, st.sd, st.min, st.max
        );
    }
    if let Some(n) = skipped {
        s += &format!("Input: {n} malformed entries skipped\n");
    }
    s
}

/// `arena openings`: generates the book and writes it to `--out`, with a progress bar on
/// stderr (when a terminal) and a summary on stdout.
pub fn run(args: &OpeningsArgs) -> anyhow::Result<()> {
    let engine = engine_config(&args.engine, &args.options)?;
    let limit = match (args.nodes, args.depth) {
        (_, Some(d)) => Limit::Depth(d),
        (Some(n), None) => Limit::Nodes(n),
        (None, None) => Limit::Nodes(DEFAULT_NODES),
    };
    let mut config = Config::new(engine, limit, args.count);
    config.plies = args.plies;
    config.seed = args.seed;
    config.threads = args.threads.max(1);
    config.min_cp = args.min_cp;
    config.max_cp = args.max_cp;
    if let Some(m) = args.max_candidates {
        config.max_candidates = m;
    }
    if let Limit::Depth(_) = limit {
        config.deadline = Duration::from_secs(600);
    }
    let mut skipped = None;
    if let Some(input) = &args.input {
        let (starts, bad) = load_starts(input)?;
        for b in &bad {
            eprintln!(
                "warning: {}:{}: skipped: {}",
                input.display(),
                b.line,
                b.reason
            );
        }
        skipped = Some(bad.len());
        eprintln!(
            "{}: {} start positions, {} malformed entries skipped",
            input.display(),
            starts.len(),
            bad.len()
        );
        config.starts = starts;
    }
    let progress = if std::io::stderr().is_terminal() {
        ProgressBar::new(config.count as u64)
    } else {
        ProgressBar::hidden()
    };
    progress.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} positions, {msg}, ETA {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let outcome = generate(&config, &progress)?;
    progress.finish_and_clear();
    write_book(&args.out, &outcome.openings)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    print!("{}", summary(&config, &outcome, &args.out, skipped));
    if outcome.openings.len() < config.count {
        eprintln!(
            "warning: only {} of {} positions found in {} candidates (raise --max-candidates or \
             widen the window)",
            outcome.openings.len(),
            config.count,
            config.max_candidates
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: OpeningsArgs,
    }

    fn parse(line: &str) -> Result<OpeningsArgs, clap::Error> {
        Cli::try_parse_from(line.split_whitespace()).map(|c| c.args)
    }

    #[test]
    fn arguments_parse_with_negative_windows() {
        let a = parse("x --engine sf --min-cp -120 --max-cp -80 --out b.epd --depth 6").unwrap();
        assert_eq!((a.min_cp, a.max_cp), (-120, -80));
        assert_eq!((a.depth, a.nodes), (Some(6), None));
        assert_eq!(a.engine, ["sf"]);
        assert!(parse("x --engine sf --out b.epd --nodes 5 --depth 6").is_err());
        assert!(parse("x --out b.epd").is_err());
    }

    #[test]
    fn engine_from_command_or_spec() {
        let words = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        let c = engine_config(&words("/usr/games/stockfish --x"), &words("Hash=8")).unwrap();
        assert_eq!(c.name, "stockfish");
        assert_eq!(c.cmd, "/usr/games/stockfish");
        assert_eq!(c.args, ["--x"]);
        assert_eq!(c.options, [("Hash".to_string(), "8".to_string())]);
        let c = engine_config(&words("cmd=/bin/clio name=c option.Threads=1"), &[]).unwrap();
        assert_eq!((c.name.as_str(), c.cmd.as_str()), ("c", "/bin/clio"));
        assert_eq!(c.options, [("Threads".to_string(), "1".to_string())]);
        assert!(engine_config(&words("sf"), &words("Hash")).is_err());
    }

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
