//! `texel`: fit the evaluation's weights to the results of the games in PGN or EPD files.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Parser;
use clio_board::shakmaty::{Color, Position as _};
use clio_search::eval::{evaluate, trace, TEMPO, WEIGHTS};
use clio_texel::data::{read_epd, read_pgn, ReadStats, Sample};
use clio_texel::emit::weights_source;
use clio_texel::fit::{error, error_of_evals, fit, fit_k, sigmoid, Entry, Model, Settings};
use clio_texel::quiet::quiet_leaf;

/// Fits the evaluation's weights to game results (the Texel method).
#[derive(Parser)]
#[command(name = "texel")]
struct Cli {
    /// PGN files (games with a Result tag) or EPD files (`*.epd`, a result on each line).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Positions from the first N moves of each PGN game (after its FEN tag) are left out.
    #[arg(long, default_value_t = 8)]
    skip_plies: usize,
    /// One opening in N (the games played from it, both colours) is held out to validate the
    /// fit (0: none).
    #[arg(long, default_value_t = 10)]
    holdout: usize,
    /// Fix K instead of fitting it.
    #[arg(long)]
    k: Option<f64>,
    /// Passes of Adam over the training positions.
    #[arg(long, default_value_t = 2000)]
    epochs: usize,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Share of the game result in the target; the rest is the expected score of the search
    /// score in the move's PGN comment (1: results only, the Texel method as published).
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Fix the scale of the comment scores' expected score instead of fitting it to the results
    /// (each engine has its own centipawn; Stockfish's is not Clio's).
    #[arg(long)]
    score_k: Option<f64>,
    /// Weight of the penalty on squared distance (in centipawns) from the starting weights.
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// Groups of weights kept as they are, e.g. `pst,king_attack` (names as in the weights file;
    /// `tempo` keeps the tempo).
    #[arg(long, value_delimiter = ',')]
    freeze: Vec<String>,
    /// Rewrite this weights file (crates/search/src/eval/weights.rs); else print the source.
    #[arg(long)]
    write: Option<PathBuf>,
    /// Where the games come from, for the weights file's doc comment.
    #[arg(long, default_value = "the given games")]
    source: String,
}

fn read_samples(cli: &Cli) -> Result<(Vec<Sample>, ReadStats)> {
    let (mut samples, mut stats) = (Vec::new(), ReadStats::default());
    for path in &cli.inputs {
        let name = path.display().to_string();
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("epd"))
        {
            let text = std::fs::read_to_string(path).with_context(|| name.clone())?;
            read_epd(&text, &name, &mut samples, &mut stats)?;
        } else {
            let file = File::open(path).with_context(|| name.clone())?;
            read_pgn(
                BufReader::new(file),
                &name,
                cli.skip_plies,
                &mut samples,
                &mut stats,
            )?;
        }
    }
    Ok((samples, stats))
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let (samples, stats) = read_samples(&cli)?;
    eprintln!(
        "read {} ({} PGN games skipped), {} positions",
        stats.describe(),
        stats.skipped_games,
        samples.len()
    );

    // Quiet leaves, traced once; the engine's own evaluation of each fits K.
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    let (mut evals, mut results) = (Vec::new(), Vec::new());
    let (mut leaves, mut train_scores) = (Vec::new(), Vec::new());
    for sample in &samples {
        let Some(leaf) = quiet_leaf(&sample.pos) else {
            continue;
        };
        let Some(entry) = Entry::new(&trace(&leaf), sample.result) else {
            continue;
        };
        let held_out = cli.holdout > 0 && sample.opening % cli.holdout as u64 == 0;
        let white = leaf.turn().fold_wb(1, -1) * evaluate(&leaf);
        if !held_out {
            evals.push(f64::from(white));
            results.push(sample.result);
            train_scores.push(sample.score);
        }
        leaves.push((leaf, sample.result, held_out));
        if held_out {
            &mut validation
        } else {
            &mut train
        }
        .push(entry);
    }
    eprintln!(
        "{} quiet positions: {} to fit, {} held out",
        leaves.len(),
        train.len(),
        validation.len()
    );
    anyhow::ensure!(!train.is_empty(), "no positions to fit");

    let k = cli.k.unwrap_or_else(|| fit_k(&evals, &results));
    // The comment scores get a K of their own, fitted to the same results: they come from
    // whichever engine played the games, on its own centipawn scale. Only positions with a
    // score blend; without any (EPD input) there is no Kₛ to fit.
    let (scores, scored_results): (Vec<f64>, Vec<f64>) = train_scores
        .iter()
        .zip(&results)
        .filter_map(|(s, &r)| s.map(|s| (s, r)))
        .unzip();
    let score_k = (cli.lambda < 1.0 && !scores.is_empty()).then(|| {
        cli.score_k
            .unwrap_or_else(|| fit_k(&scores, &scored_results))
    });
    if let Some(ks) = score_k {
        eprintln!(
            "K of the comment scores = {ks:.4} ({} positions)",
            scores.len()
        );
        for (entry, score) in train.iter_mut().zip(&train_scores) {
            if let Some(score) = score {
                entry.blend(cli.lambda, sigmoid(ks, *score));
            }
        }
    }

    let start = Model::from_weights(&WEIGHTS, TEMPO);
    let (train_before, validation_before) =
        (error(&start, k, &train), error(&start, k, &validation));
    eprintln!("K = {k:.4}; error before: {train_before:.6} (held out {validation_before:.6})");
    let groups = WEIGHTS.groups();
    for name in &cli.freeze {
        anyhow::ensure!(
            name == "tempo" || groups.iter().any(|(g, _)| g == name),
            "no group {name:?} to freeze"
        );
    }
    let frozen = groups
        .iter()
        .flat_map(|(g, w)| std::iter::repeat_n(cli.freeze.iter().any(|f| f == g), w.len()))
        .collect();
    let settings = Settings {
        frozen,
        freeze_tempo: cli.freeze.iter().any(|f| f == "tempo"),
        epochs: cli.epochs,
        learning_rate: cli.lr,
        l2: cli.l2,
    };
    let fitted = fit(&start, k, &train, &validation, settings, |epoch, t, v| {
        eprintln!("epoch {epoch:>5}: error {t:.6} (held out {v:.6})");
    });
    let (weights, tempo) = fitted.model.to_weights(&WEIGHTS);

    // The errors of the rounded weights, evaluated exactly as the engine will.
    let exact = |held_out: bool, w: &_, t: i32| {
        let (evals, results): (Vec<f64>, Vec<f64>) = leaves
            .iter()
            .filter(|(_, _, h)| *h == held_out)
            .map(|(leaf, r, _)| {
                let e = trace(leaf).evaluate(w, t);
                let white = if leaf.turn() == Color::White { e } else { -e };
                (f64::from(white), *r)
            })
            .unzip();
        error_of_evals(k, &evals, &results)
    };
    let (train_after, validation_after) =
        (exact(false, &weights, tempo), exact(true, &weights, tempo));
    let (train_before, validation_before) =
        (exact(false, &WEIGHTS, TEMPO), exact(true, &WEIGHTS, TEMPO));
    let summary = format!(
        "against the results {train_before:.6} -> {train_after:.6} on {} positions to fit, \
         {validation_before:.6} -> {validation_after:.6} on {} held out (best at epoch {} of {})",
        train.len(),
        validation.len(),
        fitted.epoch,
        cli.epochs
    );
    println!("K = {k:.4}; mean squared error {summary}");

    let note = format!(
        "Fitted by `texel --skip-plies {} --holdout {} --epochs {} --lr {} --l2 {} --lambda {}{}` \
         to {} quiet positions \
         from {} ({}), starting from the weights this file held before (the first fit \
         started from published values: PeSTO's material and piece-square tables, Fruit 2.1's \
         pawn structure, mobility and rook files, chessprogramming.org's king attack \
         units){}. K = {k:.4}{}; mean squared error {summary}.",
        cli.skip_plies,
        cli.holdout,
        cli.epochs,
        cli.lr,
        cli.l2,
        cli.lambda,
        if cli.freeze.is_empty() {
            String::new()
        } else {
            format!(" --freeze {}", cli.freeze.join(","))
        },
        leaves.len(),
        stats.describe(),
        cli.source,
        if cli.freeze.is_empty() {
            String::new()
        } else {
            format!("; kept as they were: {}", cli.freeze.join(", "))
        },
        score_k.map_or(String::new(), |ks| format!(
            " (K of the comment scores {ks:.4})"
        ))
    );
    let source = weights_source(&weights, tempo, &note);
    match &cli.write {
        Some(path) => {
            std::fs::write(path, source).with_context(|| path.display().to_string())?;
            eprintln!("wrote {}", path.display());
        }
        None => print!("{source}"),
    }
    Ok(())
}
