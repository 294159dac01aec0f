//! `pgn2epd OUT.epd GAMES.pgn…`: every position of every game (the one after each move; those
//! after a game's first `--skip-plies` moves, none by default, left out),
//! `FEN [result]` a line with White's result, as arena's `--epdout` writes them, for
//! `crates/nnue/scripts/label.py`. Reads plain PGN (`-` for standard input, so that
//! `zcat games.pgn.gz | pgn2epd out.epd -` reads compressed games) with texel's reader; games
//! without a result are skipped and counted.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};

use anyhow::{Context, Result};
use clap::Parser;
use clio_nnue::epd_lines;
use clio_texel::data::{read_pgn, ReadStats};

#[derive(Parser, Debug)]
#[command(
    name = "pgn2epd",
    about = "Writes every position of arena's games as `FEN [result]`"
)]
struct Args {
    /// The EPD file to write.
    out: String,
    /// PGN files (`-` for standard input).
    #[arg(required = true)]
    games: Vec<String>,
    /// Moves at the start of each game whose positions are not written.
    #[arg(long, default_value_t = 0)]
    skip_plies: usize,
}

fn main() -> Result<()> {
    let a = Args::parse();
    let mut out =
        BufWriter::new(File::create(&a.out).with_context(|| format!("creating {}", a.out))?);
    let mut stats = ReadStats::default();
    let mut written = 0usize;
    for path in &a.games {
        let input: Box<dyn Read> = if path == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            Box::new(File::open(path).with_context(|| format!("opening {path}"))?)
        };
        let mut samples = Vec::new();
        read_pgn(
            BufReader::new(input),
            path,
            a.skip_plies,
            &mut samples,
            &mut stats,
        )?;
        let text = epd_lines(&samples);
        out.write_all(text.as_bytes())
            .with_context(|| format!("writing {}", a.out))?;
        written += samples.len();
        eprintln!("{path}: {} games so far, {written} positions", stats.games);
    }
    out.flush().with_context(|| format!("writing {}", a.out))?;
    eprintln!(
        "{} games ({} skipped), {written} positions written to {}",
        stats.games, stats.skipped_games, a.out
    );
    Ok(())
}
