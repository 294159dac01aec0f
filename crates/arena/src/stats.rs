//! Match statistics: fishtest's generalised SPRT (GSPRT) on pentanomial or W/D/L counts, and the
//! Elo, normalised Elo and LOS estimates fastchess prints.
//!
//! Sources (read, not copied):
//! - fishtest `server/fishtest/stats/LLRcalc.py` (`regularize`, `MLE_expected`, `MLE_t_value`,
//!   `LLR_logistic`, `LLR_normalized`, `LLR_alt`, `LLR_normalized_alt`) and `stat_util.py`
//!   (`SPRT` bounds, `get_elo`);
//! - fastchess `sprt.cpp`, `elo_pentanomial.cpp`, `elo_wdl.cpp` (Elo/nElo ± 95 %, LOS);
//! - M. Van den Bergh, "Comments on normalized Elo" (normalized_elo_practical.pdf, §4.1, §4.2) and
//!   "Support of the MLE for a multinomial distribution" (support_MLE_multinomial.pdf, Prop. 1.1).
//!
//! Pentanomial counts are `[LL, LD, DD+WL, WD, WW]`: index `i` is the pair score in half points,
//! i.e. a per-pair score of `i / 4`. W/D/L counts are `[W, D, L]`.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

/// Normalised Elo per unit of t-value, `800 / ln 10` (fishtest's `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The value a zero count is replaced with before any likelihood is computed (fishtest's
/// `regularize`), so that every outcome keeps a positive probability.
pub const REGULARIZE_EPSILON: f64 = 1e-3;

/// fishtest's `MLE_t_value` stops after this many fixed-point iterations.
const T_VALUE_MAX_ITERATIONS: usize = 10;
/// ... or once no probability moves by more than this.
const T_VALUE_TOLERANCE: f64 = 1e-9;

/// The Elo model in which the SPRT bounds `elo0` and `elo1` are expressed.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// Normalised Elo (fishtest's default): bounds in nElo, the t-value statistic.
    #[default]
    Normalized,
    /// Logistic Elo: bounds in plain Elo, the expected-score statistic.
    Logistic,
}

/// An SPRT's hypotheses and error rates: H0 `elo = elo0` against H1 `elo = elo1`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// Elo under H0, in the unit of `model`.
    pub elo0: f64,
    /// Elo under H1, in the unit of `model`.
    pub elo1: f64,
    /// Maximum type I error (accepting H1 when elo = elo0).
    pub alpha: f64,
    /// Maximum type II error (accepting H0 when elo = elo1).
    pub beta: f64,
    /// The Elo model of `elo0` and `elo1`.
    pub model: Model,
}

/// Why an [`SprtConfig`] cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtConfigError {
    /// elo0 and elo1 must be finite with elo0 < elo1.
    #[error("invalid SPRT bounds elo0 = {elo0}, elo1 = {elo1}: elo0 must be less than elo1 and both finite")]
    Bounds {
        /// The given elo0.
        elo0: f64,
        /// The given elo1.
        elo1: f64,
    },
    /// alpha must lie strictly between 0 and 1.
    #[error("invalid SPRT alpha {0}: it must lie strictly between 0 and 1")]
    Alpha(f64),
    /// beta must lie strictly between 0 and 1.
    #[error("invalid SPRT beta {0}: it must lie strictly between 0 and 1")]
    Beta(f64),
    /// alpha + beta must be below 1, else the bounds coincide or cross.
    #[error("invalid SPRT alpha {alpha} and beta {beta}: their sum must be less than 1")]
    AlphaPlusBeta {
        /// The given alpha.
        alpha: f64,
        /// The given beta.
        beta: f64,
    },
}

impl SprtConfig {
    /// A checked configuration: finite `elo0 < elo1`, `alpha` and `beta` in (0, 1) with
    /// `alpha + beta < 1` (fastchess's `SPRT::isValid`).
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: Model,
    ) -> Result<Self, SprtConfigError> {
        let cfg = SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        };
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks the configuration as [`SprtConfig::new`] does.
    pub fn validate(&self) -> Result<(), SprtConfigError> {
        let (elo0, elo1, alpha, beta) = (self.elo0, self.elo1, self.alpha, self.beta);
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtConfigError::Bounds { elo0, elo1 });
        }
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(SprtConfigError::Alpha(alpha));
        }
        if !(beta > 0.0 && beta < 1.0) {
            return Err(SprtConfigError::Beta(beta));
        }
        if alpha + beta >= 1.0 {
            return Err(SprtConfigError::AlphaPlusBeta { alpha, beta });
        }
        Ok(())
    }

    /// The stopping bounds `(lower, upper)` of this test, see [`bounds`].
    pub fn bounds(&self) -> (f64, f64) {
        bounds(self.alpha, self.beta)
    }
}

/// The hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Decision {
    /// elo = elo0 accepted: the LLR fell to the lower bound.
    H0,
    /// elo = elo1 accepted: the LLR rose to the upper bound.
    H1,
}

/// The SPRT stopping bounds `(ln(β/(1-α)), ln((1-β)/α))` (Wald; fishtest `stat_util.SPRT`).
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// Logistic Elo to expected score, `1 / (1 + 10^(-elo/400))` (fishtest `L_`).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Expected score to logistic Elo, `-400 log10(1/score - 1)` (fishtest `elo`, unclamped);
/// `None` outside (0, 1). An even score gives +0.0, never -0.0.
pub fn score_to_elo(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10() + 0.0)
}

/// Counts with zeros replaced by [`REGULARIZE_EPSILON`] (fishtest `regularize`).
fn regularize<const N: usize>(counts: &[u64; N]) -> [f64; N] {
    counts.map(|c| if c == 0 { REGULARIZE_EPSILON } else { c as f64 })
}

/// A discrete distribution: outcome values `a_i = i / (N-1)` with probabilities `p_i`.
#[derive(Clone, Copy, Debug)]
struct Pdf<const N: usize> {
    values: [f64; N],
    probs: [f64; N],
}

impl<const N: usize> Pdf<N> {
    /// The empirical distribution of regularised counts and their total (fishtest
    /// `results_to_pdf`). `counts` are indexed by score, losses first.
    fn from_counts(counts: &[f64; N]) -> (f64, Self) {
        let total: f64 = counts.iter().sum();
        let values = std::array::from_fn(|i| i as f64 / (N - 1) as f64);
        let probs = counts.map(|c| c / total);
        (total, Pdf { values, probs })
    }

    fn with_probs(&self, probs: [f64; N]) -> Self {
        Pdf {
            values: self.values,
            probs,
        }
    }

    /// Mean and variance.
    fn mean_var(&self) -> (f64, f64) {
        let mean: f64 = self
            .values
            .iter()
            .zip(&self.probs)
            .map(|(a, p)| a * p)
            .sum();
        let var = self
            .values
            .iter()
            .zip(&self.probs)
            .map(|(a, p)| p * (a - mean) * (a - mean))
            .sum();
        (mean, var)
    }
}

/// Solves the secular equation `Σ p_i φ_i / (1 + x φ_i) = 0` for `x` in `(-1/max φ, -1/min φ)`,
/// where the left side falls strictly from +∞ to -∞ (fishtest `secular`, solved there with
/// Brent's method; here by bisection to 1e-15). `None` unless `min φ < 0 < max φ`.
fn secular<const N: usize>(phi: &[f64; N], probs: &[f64; N]) -> Option<f64> {
    let min = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let max = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 {
        phi.iter()
            .zip(probs)
            .map(|(f, p)| p * f / (1.0 + x * f))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi || hi - lo <= 1e-15 * (1.0 + mid.abs()) {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    x.is_finite().then_some(x)
}

/// The maximum-likelihood distribution on the support of `pdf` whose expectation is `s`
/// (fishtest `MLE_expected`; Van den Bergh, support_MLE_multinomial.pdf, Prop. 1.1).
fn mle_expected<const N: usize>(pdf: &Pdf<N>, s: f64) -> Option<[f64; N]> {
    let phi = pdf.values.map(|a| a - s);
    let x = secular(&phi, &pdf.probs)?;
    Some(std::array::from_fn(|i| pdf.probs[i] / (1.0 + x * phi[i])))
}

/// The maximum-likelihood distribution on the support of `pdf` whose t-value
/// `(mean - reference) / sigma` is `t`, by fishtest's fixed-point iteration from the uniform
/// distribution (fishtest `MLE_t_value`; normalized_elo_practical.pdf, §4.1).
fn mle_t_value<const N: usize>(pdf: &Pdf<N>, reference: f64, t: f64) -> Option<[f64; N]> {
    let mut mle = [1.0 / N as f64; N];
    for _ in 0..T_VALUE_MAX_ITERATIONS {
        let (mu, var) = pdf.with_probs(mle).mean_var();
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let phi = pdf.values.map(|a| {
            let z = (mu - a) / sigma;
            a - reference - t * sigma * (1.0 + z * z) / 2.0
        });
        let x = secular(&phi, &pdf.probs)?;
        let next: [f64; N] = std::array::from_fn(|i| pdf.probs[i] / (1.0 + x * phi[i]));
        let change = next
            .iter()
            .zip(&mle)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        mle = next;
        if change < T_VALUE_TOLERANCE {
            break;
        }
    }
    Some(mle)
}

/// `total · Σ p̂_i ln(p1_i / p0_i)`: the log-likelihood ratio of the sample under two
/// distributions (fishtest `LLR` times the sample size).
fn llr_between<const N: usize>(total: f64, pdf: &Pdf<N>, p0: &[f64; N], p1: &[f64; N]) -> f64 {
    total
        * (0..N)
            .map(|i| pdf.probs[i] * (p1[i].ln() - p0[i].ln()))
            .sum::<f64>()
}

/// The GSPRT log-likelihood ratio for score-indexed counts (losses first): `N = 5` is a
/// pentanomial of pairs, `N = 3` a trinomial of games.
fn llr_counts<const N: usize>(counts: &[u64; N], cfg: &SprtConfig) -> f64 {
    let (total, pdf) = Pdf::from_counts(&regularize(counts));
    let llr = match cfg.model {
        // fishtest LLR_logistic: the expectation statistic, s = L(elo).
        Model::Logistic => {
            let (s0, s1) = (elo_to_score(cfg.elo0), elo_to_score(cfg.elo1));
            match (mle_expected(&pdf, s0), mle_expected(&pdf, s1)) {
                (Some(p0), Some(p1)) => llr_between(total, &pdf, &p0, &p1),
                _ => llr_logistic_approx(total, &pdf, s0, s1),
            }
        }
        // fishtest LLR_normalized: the t-value statistic; a pair's t-value is √2 times a game's.
        Model::Normalized => {
            let scale = if N == 5 {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            let (t0, t1) = (cfg.elo0 / NELO_PER_T * scale, cfg.elo1 / NELO_PER_T * scale);
            match (mle_t_value(&pdf, 0.5, t0), mle_t_value(&pdf, 0.5, t1)) {
                (Some(p0), Some(p1)) => llr_between(total, &pdf, &p0, &p1),
                _ => llr_normalized_approx(total, &pdf, cfg.elo0, cfg.elo1),
            }
        }
    };
    if llr.is_finite() {
        llr
    } else {
        0.0
    }
}

/// Closed-form approximation of the logistic GSPRT, `N/2 · ln(Σ p̂ (a-s0)² / Σ p̂ (a-s1)²)`
/// (fishtest `LLR_alt`), used only where the exact MLE does not exist (a bound so large that
/// its expected score rounds to 0 or 1).
fn llr_logistic_approx<const N: usize>(total: f64, pdf: &Pdf<N>, s0: f64, s1: f64) -> f64 {
    let r = |s: f64| -> f64 {
        pdf.values
            .iter()
            .zip(&pdf.probs)
            .map(|(a, p)| p * (a - s) * (a - s))
            .sum()
    };
    total * 0.5 * (r(s0) / r(s1)).ln()
}

/// Closed-form approximation of the normalised GSPRT (fishtest `LLR_normalized_alt`;
/// normalized_elo_practical.pdf, §4.2), used only where the exact MLE does not exist (nElo
/// bounds of several hundred).
fn llr_normalized_approx<const N: usize>(total: f64, pdf: &Pdf<N>, nelo0: f64, nelo1: f64) -> f64 {
    let (mu, var) = pdf.mean_var();
    let (sigma_per_game, games) = if N == 5 {
        ((2.0 * var).sqrt(), 2.0 * total)
    } else {
        (var.sqrt(), total)
    };
    let nt = (mu - 0.5) / sigma_per_game;
    let (nt0, nt1) = (nelo0 / NELO_PER_T, nelo1 / NELO_PER_T);
    games / 2.0 * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln()
}

/// Game counts `[W, D, L]` to the score-indexed order `[L, D, W]` used internally.
fn wdl_to_ldw(wdl: [u64; 3]) -> [u64; 3] {
    [wdl[2], wdl[1], wdl[0]]
}

/// The GSPRT log-likelihood ratio of pentanomial pair counts `[LL, LD, DD+WL, WD, WW]`, as
/// fishtest computes it (`LLR_normalized` or `LLR_logistic`). Always finite.
pub fn llr_penta(penta: &[u64; 5], cfg: &SprtConfig) -> f64 {
    llr_counts(penta, cfg)
}

/// The GSPRT log-likelihood ratio of game counts `[W, D, L]` (fishtest's trinomial case).
/// Always finite.
pub fn llr_wdl(wdl: [u64; 3], cfg: &SprtConfig) -> f64 {
    llr_counts(&wdl_to_ldw(wdl), cfg)
}

/// Where an SPRT stands: its LLR, its bounds and the hypothesis accepted, if any.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower bound; at or below it H0 is accepted.
    pub lower: f64,
    /// The upper bound; at or above it H1 is accepted.
    pub upper: f64,
    /// The accepted hypothesis, `None` while the test goes on.
    pub decision: Option<Decision>,
}

impl SprtStatus {
    /// The status of an LLR against the bounds of `cfg` (fastchess: `llr >= upper` accepts H1,
    /// `llr <= lower` accepts H0).
    pub fn new(llr: f64, cfg: &SprtConfig) -> Self {
        let (lower, upper) = cfg.bounds();
        let decision = if llr >= upper {
            Some(Decision::H1)
        } else if llr <= lower {
            Some(Decision::H0)
        } else {
            None
        };
        SprtStatus {
            llr,
            lower,
            upper,
            decision,
        }
    }

    /// The LLR as a share of the bound it moves towards: `llr / upper` when non-negative, else
    /// `-llr / lower` (negative), as fastchess's `SPRT::getFraction`. 1.0 or -1.0 at a bound.
    pub fn fraction(&self) -> f64 {
        if self.llr >= 0.0 {
            self.llr / self.upper
        } else {
            -self.llr / self.lower
        }
    }
}

/// The SPRT status of pentanomial counts `[LL, LD, DD+WL, WD, WW]`.
pub fn sprt_penta(penta: &[u64; 5], cfg: &SprtConfig) -> SprtStatus {
    SprtStatus::new(llr_penta(penta, cfg), cfg)
}

/// The SPRT status of game counts `[W, D, L]`.
pub fn sprt_wdl(wdl: [u64; 3], cfg: &SprtConfig) -> SprtStatus {
    SprtStatus::new(llr_wdl(wdl, cfg), cfg)
}

/// Estimates from a sample; a value the sample cannot define is `None` (JSON `null`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Logistic Elo; `None` for an empty sample or a score of 0 or 1.
    pub elo: Option<f64>,
    /// Half-width of the 95 % interval of `elo`; 0 when every sample scored the same (all
    /// draws), `None` when `elo` is.
    pub elo_error: Option<f64>,
    /// Normalised Elo; `None` for an empty sample or zero variance.
    pub nelo: Option<f64>,
    /// Half-width of the 95 % interval of `nelo`.
    pub nelo_error: Option<f64>,
    /// Likelihood of superiority, a probability in [0, 1].
    pub los: Option<f64>,
    /// Share of drawn games (W/D/L) or of drawn pairs `(DD+WL)/pairs` (pentanomial), in [0, 1].
    pub draw_ratio: Option<f64>,
    /// Mean score per game, in [0, 1].
    pub score: Option<f64>,
}

/// The two-sided 95 % quantile of the standard normal law, `Φ⁻¹(0.975)`.
fn z95() -> f64 {
    Normal::standard().inverse_cdf(0.975)
}

/// Standard normal cumulative distribution `Φ`.
fn phi(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// Estimates from score-indexed counts (losses first) of samples worth `values[i]` each.
///
/// As fastchess (`EloPentanomial`, `EloWDL`) and fishtest (`get_elo`): the mean score `μ` and the
/// variance `σ²` of one sample, `se = σ/√n`; Elo = `elo(μ)` ± `(elo(μ+z·se) - elo(μ-z·se))/2`;
/// nElo = `(μ-½)/σ_game · 800/ln 10` with `σ_game = √2·σ` for pairs, `σ` for games; LOS =
/// `Φ((μ-½)/se)`. Counts are not regularised here (fastchess), so an all-draw sample has no
/// nElo. Interval ends are clamped to scores in [0.001, 0.999] as fishtest's `elo` does, so a
/// small sample near 0 % or 100 % gets a finite error instead of NaN.
fn estimate_counts<const N: usize>(counts: &[u64; N], draw_index: usize) -> Estimate {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return Estimate::default();
    }
    let n = n as f64;
    let value = |i: usize| i as f64 / (N - 1) as f64;
    let score: f64 = (0..N).map(|i| counts[i] as f64 * value(i)).sum::<f64>() / n;
    let var: f64 = (0..N)
        .map(|i| counts[i] as f64 * (value(i) - score).powi(2))
        .sum::<f64>()
        / n;
    let se = (var / n).sqrt();
    let z = z95();
    let clamp = |s: f64| s.clamp(REGULARIZE_EPSILON, 1.0 - REGULARIZE_EPSILON);

    let elo = score_to_elo(score);
    let elo_error = elo.and_then(|_| {
        let hi = score_to_elo(clamp(score + z * se))?;
        let lo = score_to_elo(clamp(score - z * se))?;
        Some((hi - lo) / 2.0)
    });

    let sigma_game = if N == 5 {
        (2.0 * var).sqrt()
    } else {
        var.sqrt()
    };
    let (nelo, nelo_error) = if sigma_game > 0.0 {
        (
            Some((score - 0.5) / sigma_game * NELO_PER_T),
            Some(z * se / sigma_game * NELO_PER_T),
        )
    } else {
        (None, None)
    };

    let los = if se > 0.0 {
        Some(phi((score - 0.5) / se))
    } else if score > 0.5 {
        Some(1.0)
    } else if score < 0.5 {
        Some(0.0)
    } else {
        None
    };

    Estimate {
        elo,
        elo_error,
        nelo,
        nelo_error,
        los,
        draw_ratio: Some(counts[draw_index] as f64 / n),
        score: Some(score),
    }
}

/// Elo, nElo (both ± 95 %), LOS, pair draw ratio and score of pentanomial counts
/// `[LL, LD, DD+WL, WD, WW]`, computed per pair (fastchess `EloPentanomial`).
pub fn estimate_penta(penta: &[u64; 5]) -> Estimate {
    estimate_counts(penta, 2)
}

/// Elo, nElo (both ± 95 %), LOS, draw ratio and score of game counts `[W, D, L]`, computed
/// per game (fastchess `EloWDL`).
pub fn estimate_wdl(wdl: [u64; 3]) -> Estimate {
    estimate_counts(&wdl_to_ldw(wdl), 1)
}
