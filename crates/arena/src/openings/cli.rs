//! The `arena openings` command line: its options, the engine it names, the run and its
//! closing summary.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};

use super::{generate, load_starts, score_stats, write_book, Config, Limit, Outcome};
use crate::engine::EngineConfig;
use crate::runner::args;

/// The Chess960 start-position books `arena openings --chess960` writes.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chess960Book {
    /// Fischer random: the 960 setups, the same for both sides.
    Frc,
    /// Double Fischer random: White's and Black's setups drawn independently.
    Dfrc,
}

/// Node limit used when neither `--nodes` nor `--depth` is given.
pub const DEFAULT_NODES: u64 = 10_000;

/// Command-line options of `arena openings`.
#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// The UCI engine that scores candidates: a program and its arguments
    /// (`--engine target/release/clio`), or an `arena match` engine spec
    /// (`--engine cmd=PATH [arg=ARG]… [option.NAME=VALUE]…`).
    #[arg(long, num_args = 1.., required_unless_present = "chess960", value_name = "CMD")]
    pub engine: Vec<String>,
    /// Write Chess960 start positions instead (no engine): `frc`, all 960 setups in Scharnagl's
    /// order, mirrored for Black; `dfrc`, `--count` distinct pairs of independent White and
    /// Black setups drawn with `--seed`. The books for `--variant fischerandom`.
    #[arg(long, value_enum, conflicts_with_all = ["engine", "input"])]
    pub chess960: Option<Chess960Book>,
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
            shared_options: Vec::new(),
            cpus: None,
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
    if let Some(kind) = args.chess960 {
        let lines = match kind {
            Chess960Book::Frc => super::chess960::frc(),
            Chess960Book::Dfrc => super::chess960::dfrc(args.count, args.seed),
        };
        let mut text = lines.join("\n");
        text.push('\n');
        std::fs::write(&args.out, text)
            .with_context(|| format!("writing {}", args.out.display()))?;
        println!(
            "Wrote {} Chess960 start positions ({kind:?}) to {}",
            lines.len(),
            args.out.display()
        );
        return Ok(());
    }
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
}
