//! The SPRT's error rates, measured by simulation: many SPRTs on pentanomial pairs drawn from a
//! distribution whose true normalised Elo sits exactly at the lower bound (every H1 is a false
//! positive, expected share ≤ α) or at the upper bound (every H0 is a false negative, expected
//! share ≤ β). Wald's bounds promise error rates at most near α and β; fishtest's GSPRT with the
//! normalised-Elo model reaches them closely (Van den Bergh, normalized_elo_practical.pdf). A
//! wrong sign, a wrong scale (game vs pair t-value) or wrong bounds moves a rate far off.
//! Fixed seed, so the counts are reproducible.

use clio_arena::stats::{sprt_penta, Decision, Model, SprtConfig, NELO_PER_T};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Pair outcomes `[LL, LD, DD+WL, WD, WW]` score 0, ¼, ½, ¾, 1 per game on average.
const VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Normalised Elo of a pentanomial distribution: `(μ − ½) / σ_game · 800/ln 10`, with the
/// per-game σ equal to √2 times the σ of a pair's mean score (fishtest).
fn nelo(p: &[f64; 5]) -> f64 {
    let mu: f64 = p.iter().zip(VALUES).map(|(p, a)| p * a).sum();
    let var: f64 = p
        .iter()
        .zip(VALUES)
        .map(|(p, a)| p * (a - mu).powi(2))
        .sum();
    (mu - 0.5) / (2.0 * var).sqrt() * NELO_PER_T
}

/// A realistic self-play pentanomial (draw-heavy, symmetric) tilted exponentially until its
/// normalised Elo is `target` (bisection on the tilt).
fn distribution(target: f64) -> [f64; 5] {
    let base = [0.04, 0.20, 0.52, 0.20, 0.04];
    let tilt = |l: f64| -> [f64; 5] {
        let w: Vec<f64> = base
            .iter()
            .zip(VALUES)
            .map(|(b, a)| b * (l * a).exp())
            .collect();
        let sum: f64 = w.iter().sum();
        std::array::from_fn(|i| w[i] / sum)
    };
    let (mut lo, mut hi) = (-5.0, 5.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if nelo(&tilt(mid)) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    tilt(0.5 * (lo + hi))
}

/// Runs `runs` SPRTs on pairs drawn from `p`, checking the LLR every `batch` pairs (as fishtest
/// workers report in batches); returns how many accepted H1 and how many hit the pair cap.
fn simulate(p: &[f64; 5], cfg: &SprtConfig, runs: usize, seed: u64) -> (usize, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let batch = 8;
    let cap = 200_000;
    let (mut h1, mut undecided) = (0, 0);
    for _ in 0..runs {
        let mut counts = [0u64; 5];
        let mut decision = None;
        let mut pairs = 0;
        while decision.is_none() && pairs < cap {
            for _ in 0..batch {
                let u: f64 = rng.gen();
                let mut acc = 0.0;
                let mut k = 4;
                for (i, pi) in p.iter().enumerate() {
                    acc += pi;
                    if u < acc {
                        k = i;
                        break;
                    }
                }
                counts[k] += 1;
            }
            pairs += batch;
            decision = sprt_penta(&counts, cfg).decision;
        }
        match decision {
            Some(Decision::H1) => h1 += 1,
            Some(Decision::H0) => {}
            None => undecided += 1,
        }
    }
    (h1, undecided)
}

const RUNS: usize = 400;

#[test]
fn the_tilted_distribution_has_the_requested_normalised_elo() {
    for target in [-20.0, 0.0, 10.0, 20.0] {
        assert!((nelo(&distribution(target)) - target).abs() < 1e-6);
    }
}

#[test]
fn at_the_lower_bound_false_positives_stay_near_alpha() {
    let cfg = SprtConfig::new(0.0, 20.0, 0.05, 0.05, Model::Normalized).unwrap();
    let (h1, undecided) = simulate(&distribution(cfg.elo0), &cfg, RUNS, 1);
    let alpha_hat = h1 as f64 / RUNS as f64;
    println!(
        "elo = elo0: {h1} of {RUNS} accepted H1 (alpha-hat {alpha_hat:.3}), {undecided} undecided"
    );
    assert_eq!(undecided, 0);
    // Binomial(400, 0.05) has sd 0.011: the rate must lie within about 3 sd of α or below it.
    assert!(alpha_hat <= 0.085, "alpha-hat {alpha_hat}");
    assert!(
        alpha_hat >= 0.01,
        "alpha-hat {alpha_hat}: the test is far stricter than α"
    );
}

#[test]
fn at_the_upper_bound_false_negatives_stay_near_beta() {
    let cfg = SprtConfig::new(0.0, 20.0, 0.05, 0.05, Model::Normalized).unwrap();
    let (h1, undecided) = simulate(&distribution(cfg.elo1), &cfg, RUNS, 2);
    let h0 = RUNS - h1 - undecided;
    let beta_hat = h0 as f64 / RUNS as f64;
    println!(
        "elo = elo1: {h0} of {RUNS} accepted H0 (beta-hat {beta_hat:.3}), {undecided} undecided"
    );
    assert_eq!(undecided, 0);
    assert!(beta_hat <= 0.085, "beta-hat {beta_hat}");
    assert!(
        beta_hat >= 0.01,
        "beta-hat {beta_hat}: the test is far stricter than β"
    );
}

#[test]
fn far_from_both_bounds_the_right_hypothesis_wins_almost_always() {
    let cfg = SprtConfig::new(0.0, 20.0, 0.05, 0.05, Model::Normalized).unwrap();
    let (h1, _) = simulate(&distribution(40.0), &cfg, 100, 3);
    assert!(h1 >= 99, "{h1} of 100 accepted H1 at nElo 40");
    let (h1, _) = simulate(&distribution(-20.0), &cfg, 100, 4);
    assert!(h1 <= 1, "{h1} of 100 accepted H1 at nElo -20");
}
