//! The command line besides the UCI loop: `clio bench`, `clio perft`, `clio params`.

use std::time::Instant;

use anyhow::{bail, Result};
use clap::{ArgGroup, Parser, Subcommand};
use clio_board::shakmaty::CastlingMode;
use clio_board::{perft_divide, Move16, Position};
use clio_search::{
    format_ablation, run_ablation, run_bench_with, BenchPosition, Params, BENCH_DEPTH,
    BENCH_HASH_MB,
};

/// Clio, a UCI chess engine. Without a subcommand it speaks UCI on stdin/stdout.
#[derive(Debug, Parser)]
#[command(name = "clio", version, about)]
pub struct Cli {
    /// What to run instead of the UCI loop.
    #[command(subcommand)]
    pub command: Option<Sub>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Sub {
    /// Search the bench positions at fixed depth; the last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Run once per heuristic switch configuration and print the ablation table.
        #[arg(long)]
        ablation: bool,
        /// Search depth in plies.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
    },
    /// Count the leaf nodes of the legal move tree, per root move.
    Perft {
        /// Depth in plies.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// FEN of the position (quoted or as separate words); the start position if absent.
        /// Chess960 castling rights (Shredder-FEN `HAha`, or X-FEN `KQkq` with the rooks off
        /// the corners) are recognised by themselves.
        fen: Vec<String>,
        /// Read the FEN and write castling as Chess960 does (king takes rook), as
        /// `UCI_Chess960 true` does in the UCI loop.
        #[arg(long)]
        chess960: bool,
    },
    /// Print the tunables for tuning tools.
    #[command(group(ArgGroup::new("format").required(true).args(["openbench", "toml"])))]
    Params {
        /// OpenBench SPSA lines: `name, int, value, min, max, step, 0.002`.
        #[arg(long)]
        openbench: bool,
        /// A `[[param]]` skeleton for an `arena spsa` config.
        #[arg(long)]
        toml: bool,
    },
}

/// `clio bench [depth]`: `clio_search::run_bench` with default parameters, one line per
/// position as it is searched, then `<N> nodes <M> nps` last.
pub fn bench(depth: Option<u32>) -> Result<()> {
    let depth = depth.unwrap_or(BENCH_DEPTH);
    let total = run_bench_with(
        depth,
        &Params::default(),
        BENCH_HASH_MB,
        |p: &BenchPosition| {
            let place = format!("position {}/{}", p.index, p.total);
            match p.outcome {
                Ok(r) => {
                    let best = r.best.map_or("0000".to_string(), |m| Move16::uci(&m));
                    println!("{place}: {} nodes bestmove {best} ({})", r.nodes, p.fen);
                }
                Err(why) => println!("{place}: skipped: {why} ({})", p.fen),
            }
        },
    );
    println!("depth {depth}, {} ms", total.time_ms.max(1));
    println!("{} nodes {} nps", total.nodes, total.nps);
    Ok(())
}

/// `clio bench --ablation [depth]`.
pub fn ablation(depth: Option<u32>) -> Result<()> {
    let depth = depth.unwrap_or(BENCH_DEPTH);
    let rows = run_ablation(depth);
    print!("{}", format_ablation(depth, &rows));
    Ok(())
}

/// The position of `clio perft` and how its castling is written: Chess960's when asked, or
/// when the castling rights are only legal in Chess960.
fn perft_position(fen: &str, chess960: bool) -> Result<(Position, CastlingMode)> {
    if fen.trim().is_empty() {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        return Ok((Position::startpos().with_castling_mode(mode), mode));
    }
    if chess960 {
        return match Position::from_fen_in(fen, CastlingMode::Chess960) {
            Ok(p) => Ok((p, CastlingMode::Chess960)),
            Err(e) => bail!("{e}"),
        };
    }
    match Position::from_fen(fen) {
        Ok(p) => Ok((p, CastlingMode::Standard)),
        Err(e) => match Position::from_fen_in(fen, CastlingMode::Chess960) {
            Ok(p) => Ok((p, CastlingMode::Chess960)),
            Err(_) => bail!("{e}"),
        },
    }
}

/// `clio perft <depth> [fen]`: `move: count` per root move, then `Nodes searched: N` last;
/// time and speed go to stderr.
pub fn perft(depth: u32, fen: &[String], chess960: bool) -> Result<()> {
    let (position, mode) = perft_position(&fen.join(" "), chess960)?;
    let start = Instant::now();
    let mut total = 0u64;
    for (m, count) in perft_divide(position.chess(), depth) {
        println!("{}: {count}", Move16::uci_in(&m, mode));
        total += count;
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft {depth}: {total} nodes in {:.3} s, {:.0} nodes/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    println!();
    println!("Nodes searched: {total}");
    Ok(())
}

/// `clio params --openbench|--toml`.
pub fn params(openbench: bool) -> Result<()> {
    if openbench {
        print!("{}", Params::openbench_lines());
    } else {
        print!("{}", Params::toml_skeleton());
    }
    Ok(())
}
