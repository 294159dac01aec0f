//! `nnue-train GAMES.pgn… --out NET`: trains Clio's neural evaluation (see crates/nnue/README.md).

use std::fs::File;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::BufReader;

use anyhow::{bail, Context, Result};
use clap::Parser;
use clio_nnue::{
    fit_scale, quantisation_error, read_labelled, select, set_targets, sigmoid, train, Model,
    Settings,
};
use clio_search::nnue::{Network, MAX_BUCKETS, SCALE};
use clio_texel::data::{read_pgn, ReadStats};

#[derive(Parser, Debug)]
#[command(name = "nnue-train", about = "Trains Clio's NNUE on arena's games")]
struct Args {
    /// PGN files as arena writes them (moves with `{score/depth time}` comments), or (by the
    /// `.txt` extension) labelled positions, `FEN [result] CP` a line (see `read_labelled`).
    #[arg(required = true)]
    games: Vec<String>,
    /// The network file to write.
    #[arg(long)]
    out: String,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.3)]
    lambda: f32,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Factor of the step size after `--drop-at` of the epochs.
    #[arg(long, default_value_t = 0.1)]
    lr_drop: f32,
    /// When the step size drops, as a fraction of the epochs.
    #[arg(long, default_value_t = 0.7)]
    drop_at: f32,
    /// Moves at the start of each game that are not used.
    #[arg(long, default_value_t = 8)]
    skip_plies: usize,
    /// Positions whose recorded score is larger than this (centipawns) are not used.
    #[arg(long, default_value_t = 3000.0)]
    max_score: f64,
    /// One opening in this many is held out (with both its games) to validate.
    #[arg(long, default_value_t = 50)]
    holdout: u64,
    /// Threads each batch is split across.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Learn a correction added to the hand-written evaluation instead of the whole evaluation.
    #[arg(long)]
    residual: bool,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this network file (fine-tuning: go on training it on new data, usually with
    /// a smaller --lr) instead of random weights; it must be of the same shape.
    #[arg(long, value_name = "NET")]
    init: Option<String>,
    /// Centipawns per logit of the recorded scores in the targets, instead of the value fitted
    /// to the results (with --init: the first fit's, so that the network keeps its scale).
    #[arg(long, value_name = "CP")]
    score_scale: Option<f32>,
    /// Centipawns per logit of the network's output in the loss, instead of the value fitted
    /// for the hand-written evaluation (with --init: the first fit's).
    #[arg(long, value_name = "CP")]
    eval_scale: Option<f32>,
    /// Output buckets by material: (pieces − 2) / ⌈32 / N⌉ chooses the output layer. With
    /// --init from a network of one bucket, its output layer is copied into each; default: the
    /// --init network's, else 1.
    #[arg(long, value_name = "N")]
    buckets: Option<usize>,
}

fn main() -> Result<()> {
    let a = Args::parse();
    if !(0.0..=1.0).contains(&a.lambda) {
        bail!("--lambda {} is outside [0, 1]", a.lambda);
    }
    if a.holdout < 2 {
        bail!("--holdout {} must be at least 2", a.holdout);
    }
    if let Some(b) = a.buckets {
        if !(1..=MAX_BUCKETS).contains(&b) {
            bail!("--buckets {b}: give 1 to {MAX_BUCKETS}");
        }
    }
    let mut samples = Vec::new();
    let mut stats = ReadStats::default();
    let mut selected = Vec::new();
    for path in a.games.iter().filter(|p| p.ends_with(".txt")) {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
        let (mut got, lines) = read_labelled(&text, path, a.max_score, 1000)?;
        eprintln!("{path}: {lines} labelled positions, {} quiet", got.len());
        selected.append(&mut got);
    }
    for path in a.games.iter().filter(|p| !p.ends_with(".txt")) {
        let file = File::open(path).with_context(|| format!("opening {path}"))?;
        read_pgn(
            BufReader::new(file),
            path,
            a.skip_plies,
            &mut samples,
            &mut stats,
        )?;
    }
    eprintln!(
        "read {} games ({} skipped), {} positions",
        stats.games,
        stats.skipped_games,
        samples.len()
    );
    selected.extend(select(&samples, a.max_score));
    drop(samples);
    let (mut fit, mut held): (Vec<_>, Vec<_>) = (Vec::new(), Vec::new());
    for (p, opening) in selected {
        let mut h = DefaultHasher::new();
        opening.hash(&mut h);
        if h.finish().is_multiple_of(a.holdout) {
            held.push(p);
        } else {
            fit.push(p);
        }
    }
    if fit.is_empty() || held.is_empty() {
        bail!(
            "{} positions to fit and {} held out: too few quiet positions with scores",
            fit.len(),
            held.len()
        );
    }
    let results: Vec<f32> = fit.iter().map(|p| p.result).collect();
    let scores: Vec<f32> = fit.iter().map(|p| p.score).collect();
    let hces: Vec<f32> = fit.iter().map(|p| p.hce).collect();
    let mut score_scale = fit_scale(&scores, &results);
    let mut eval_scale = fit_scale(&hces, &results);
    for (given, fitted, flag) in [
        (a.score_scale, &mut score_scale, "--score-scale"),
        (a.eval_scale, &mut eval_scale, "--eval-scale"),
    ] {
        if let Some(v) = given {
            if !(v.is_finite() && v > 0.0) {
                bail!("{flag} {v} must be a positive number of centipawns");
            }
            eprintln!("{flag} {v} (fitted: {fitted:.1})");
            *fitted = v;
        }
    }
    set_targets(&mut fit, a.lambda, score_scale);
    set_targets(&mut held, a.lambda, score_scale);
    let hce_error = |against_result: bool| {
        held.iter()
            .map(|p| {
                let t = if against_result { p.result } else { p.target };
                f64::from((sigmoid(p.hce / eval_scale) - t).powi(2))
            })
            .sum::<f64>()
            / held.len() as f64
    };
    eprintln!(
        "quiet positions with scores: {} to fit, {} held out; lambda {}; centipawns per logit: \
         recorded scores {:.1}, hand-written evaluation {:.1}",
        fit.len(),
        held.len(),
        a.lambda,
        score_scale,
        eval_scale
    );
    eprintln!(
        "hand-written evaluation, held out: {:.6} (against results {:.6})",
        hce_error(false),
        hce_error(true)
    );
    let settings = Settings {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lr_drop: a.lr_drop,
        drop_at: a.drop_at,
        threads: a.threads,
        seed: a.seed,
    };
    let start = std::time::Instant::now();
    let init = match &a.init {
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("reading --init {path}"))?;
            let net =
                Network::from_bytes(&bytes).with_context(|| format!("--init {path}: not read"))?;
            if net.residual != a.residual {
                bail!(
                    "--init {path} is {} network; give --residual {}",
                    if net.residual {
                        "a residual"
                    } else {
                        "a whole"
                    },
                    if net.residual {
                        "too"
                    } else {
                        "only for a residual one"
                    }
                );
            }
            let buckets = a.buckets.unwrap_or(net.buckets());
            if buckets != net.buckets() && net.buckets() != 1 {
                bail!(
                    "--init {path} has {} output buckets; --buckets {buckets} can only split \
                     a network of one",
                    net.buckets()
                );
            }
            eprintln!(
                "starting from {path} ({} output bucket{})",
                net.buckets(),
                if net.buckets() == 1 { "" } else { "s" }
            );
            Model::from_network(&net, eval_scale).with_buckets(buckets)
        }
        None => {
            let mut init = Model::random(a.seed, eval_scale, a.buckets.unwrap_or(1));
            init.residual = a.residual;
            if a.residual {
                // A correction starts at none: the hand-written evaluation itself.
                init.w2.fill(0.0);
            }
            init
        }
    };
    eprintln!(
        "epoch   0  held out {:.6} (against results {:.6})",
        init.error(&held, false),
        init.error(&held, true)
    );
    let (model, best) = train(init, &mut fit, &held, &settings, |r| {
        eprintln!(
            "epoch {:3}  train {:.6}  held out {:.6} (against results {:.6})  {:.0}s",
            r.epoch,
            r.train,
            r.held_out,
            r.held_out_result,
            start.elapsed().as_secs_f64()
        );
    });
    let net = model.quantise();
    let bytes = net.to_bytes();
    let back = Network::from_bytes(&bytes).context("reading back the written network")?;
    let (max, mean) = quantisation_error(&model, &back, &held);
    std::fs::write(&a.out, &bytes).with_context(|| format!("writing {}", a.out))?;
    // The held-out error of the quantised network against the results, for comparison with
    // the hand-written evaluation's (through the same sigmoid of centipawns / 400).
    if let Some(b) = best {
        eprintln!(
            "best epoch {}: held out {:.6}, against results {:.6}",
            b.epoch, b.held_out, b.held_out_result
        );
    }
    eprintln!(
        "wrote {} ({} bytes); quantisation error on the held-out positions: mean {:.2} cp, max {:.1} cp (scale {SCALE})",
        a.out,
        bytes.len(),
        mean,
        max
    );
    Ok(())
}
