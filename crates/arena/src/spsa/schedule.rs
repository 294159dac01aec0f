//! The SPSA schedule and step, with OpenBench's semantics (OpenBench `spsa_utils.py`, which
//! shares its formulas with fishtest's `spsa_handler.py`):
//!
//! - `c = c_end·N^γ` and `a = r_end·c_end²·(A+N)^α`, so that at the last iteration the
//!   perturbation is `c_end` and the learning rate `R = a/c²` is `r_end`;
//! - at iteration k (0-based): `c_k = c/(k+1)^γ` (at least 0.5 for an int parameter),
//!   `a_k = a/(A+k+1)^α`, `R_k = a_k/c_k²`;
//! - a random `Δ ∈ {−1, +1}` per parameter; `θ± = clip(θ ± c_k·Δ)`, an int parameter sent as
//!   `floor(x + u)` with one uniform `u` shared by both sides;
//! - after the games, `θ ← clip(θ + R_k·c_k·(W−L)·Δ)` with W−L counted from θ+'s side.

use rand::Rng;

use super::config::{Config, Kind, Param};

/// The global part of the schedule: N, α, γ and A.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Schedule {
    /// N, the planned number of iterations.
    pub iterations: u64,
    /// Learning-rate decay exponent α.
    pub alpha: f64,
    /// Perturbation decay exponent γ.
    pub gamma: f64,
    /// Stability constant A (= a_ratio·N).
    pub big_a: f64,
}

impl Schedule {
    /// The schedule of a campaign file.
    pub fn of(config: &Config) -> Schedule {
        let s = &config.spsa;
        Schedule {
            iterations: s.iterations,
            alpha: s.alpha,
            gamma: s.gamma,
            big_a: s.a_ratio * s.iterations as f64,
        }
    }

    /// `c = c_end·N^γ`.
    pub fn c(&self, p: &Param) -> f64 {
        p.step * (self.iterations as f64).powf(self.gamma)
    }

    /// `a = r_end·c_end²·(A+N)^α`.
    pub fn a(&self, p: &Param) -> f64 {
        p.r_end * p.step * p.step * (self.big_a + self.iterations as f64).powf(self.alpha)
    }

    /// `c_k = c/(k+1)^γ`, floored at 0.5 for an int parameter.
    pub fn c_k(&self, p: &Param, k: u64) -> f64 {
        let c = self.c(p) / ((k + 1) as f64).powf(self.gamma);
        match p.kind {
            Kind::Int => c.max(0.5),
            Kind::Float => c,
        }
    }

    /// `a_k = a/(A+k+1)^α`.
    pub fn a_k(&self, p: &Param, k: u64) -> f64 {
        self.a(p) / (self.big_a + (k + 1) as f64).powf(self.alpha)
    }

    /// `R_k = a_k/c_k²`.
    pub fn r_k(&self, p: &Param, k: u64) -> f64 {
        let c = self.c_k(p, k);
        self.a_k(p, k) / (c * c)
    }
}

/// One iteration's perturbation: the flips, the values sent to each side, c_k and R_k.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// Iteration (0-based).
    pub k: u64,
    /// Δ per parameter (±1).
    pub delta: Vec<f64>,
    /// The uniform u of the stochastic rounding per parameter (unused for floats).
    pub u: Vec<f64>,
    /// Values sent to the θ+ engine (rounded ints, clipped).
    pub plus: Vec<f64>,
    /// Values sent to the θ− engine.
    pub minus: Vec<f64>,
    /// c_k per parameter.
    pub c_k: Vec<f64>,
    /// R_k per parameter.
    pub r_k: Vec<f64>,
}

/// Builds iteration `k`'s probe around `theta` with the given flips and rounding draws.
pub fn probe_with(
    params: &[Param],
    schedule: &Schedule,
    theta: &[f64],
    k: u64,
    delta: &[f64],
    u: &[f64],
) -> Probe {
    let mut probe = Probe {
        k,
        delta: delta.to_vec(),
        u: u.to_vec(),
        plus: Vec::with_capacity(params.len()),
        minus: Vec::with_capacity(params.len()),
        c_k: Vec::with_capacity(params.len()),
        r_k: Vec::with_capacity(params.len()),
    };
    for (i, p) in params.iter().enumerate() {
        let c = schedule.c_k(p, k);
        let send = |x: f64| {
            let x = match p.kind {
                Kind::Int => (x + u[i]).floor(),
                Kind::Float => x,
            };
            x.clamp(p.min, p.max)
        };
        probe.plus.push(send(theta[i] + c * delta[i]));
        probe.minus.push(send(theta[i] - c * delta[i]));
        probe.c_k.push(c);
        probe.r_k.push(schedule.r_k(p, k));
    }
    probe
}

/// Builds iteration `k`'s probe, drawing Δ and then u for each parameter from `rng`.
pub fn probe(
    params: &[Param],
    schedule: &Schedule,
    theta: &[f64],
    k: u64,
    rng: &mut impl Rng,
) -> Probe {
    let mut delta = Vec::with_capacity(params.len());
    let mut u = Vec::with_capacity(params.len());
    for _ in params {
        delta.push(if rng.gen::<bool>() { 1.0 } else { -1.0 });
        u.push(rng.gen::<f64>());
    }
    probe_with(params, schedule, theta, k, &delta, &u)
}

/// Applies the result of the probe's games: `θ ← clip(θ + R_k·c_k·(W−L)·Δ)`.
pub fn update(params: &[Param], theta: &mut [f64], probe: &Probe, wins_minus_losses: i64) {
    let wl = wins_minus_losses as f64;
    for (i, p) in params.iter().enumerate() {
        let step = probe.r_k[i] * probe.c_k[i] * wl * probe.delta[i];
        theta[i] = (theta[i] + step).clamp(p.min, p.max);
    }
}

/// A parameter's value as sent to the engine and printed: rounded for int, 4 decimals for float.
pub fn format_value(p: &Param, v: f64) -> String {
    match p.kind {
        Kind::Int => format!("{}", v.round() as i64),
        Kind::Float => {
            let s = format!("{v:.4}");
            let s = s.trim_end_matches('0').trim_end_matches('.');
            s.to_string()
        }
    }
}
