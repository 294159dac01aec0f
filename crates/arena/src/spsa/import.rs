//! `arena spsa CONFIG --from-openbench FILE`: an OpenBench tune continued here. Its digest or
//! its `name, value` lines give θ; its game count (or, from a digest, its `C` against `C_end`)
//! gives the iteration, so the schedule goes on where OpenBench's stood: OpenBench draws an
//! iteration's c and R at `1 + games/(2·pairs)`, which is this tuner's `k + 1` after `k`
//! iterations (`spsa_utils.py`, `spsa_param_digest`).

use std::path::Path;

use anyhow::bail;

use super::checkpoint::Checkpoint;
use super::config::{Config, Kind, Param};
use super::openbench::{DigestColumns, OutputRow};
use super::schedule::Schedule;

/// Where an OpenBench tune stood, as a checkpoint of `config`, and a line saying so.
pub fn checkpoint(
    config: &Config,
    rows: &[OutputRow],
    games: Option<u64>,
    origin: &Path,
) -> anyhow::Result<(Checkpoint, String)> {
    let o = origin.display();
    for (i, r) in rows.iter().enumerate() {
        if !config.params.iter().any(|p| p.name == r.name) {
            bail!("{o}: parameter {} is not in the campaign", r.name);
        }
        if rows[..i].iter().any(|q| q.name == r.name) {
            bail!("{o}: parameter {} is given twice", r.name);
        }
    }
    let schedule = Schedule::of(config);
    let mut theta = Vec::new();
    let mut estimates = Vec::new();
    for p in &config.params {
        let Some(r) = rows.iter().find(|r| r.name == p.name) else {
            bail!("{o}: parameter {} of the campaign is missing", p.name);
        };
        if !(p.min..=p.max).contains(&r.value) {
            bail!(
                "{o}: {} = {} is outside the campaign's range [{}, {}]",
                p.name,
                r.value,
                p.min,
                p.max
            );
        }
        if let Some(d) = &r.digest {
            check_digest(p, d, origin)?;
            if let Some(k) = iteration_from_c(p, d, &schedule) {
                estimates.push((d.c, k));
            }
        }
        theta.push(r.value);
    }
    let pairs = config.spsa.pairs_per_iteration;
    let k = match games {
        Some(g) => g / (2 * u64::from(pairs.max(1))),
        None => match estimates.iter().max_by(|a, b| a.0.total_cmp(&b.0)) {
            Some(&(_, k)) => k,
            None => bail!(
                "{o}: no digest with C above the int floor to place the schedule; give the tune's \
                 game count with --openbench-games N"
            ),
        },
    };
    if k >= schedule.iterations {
        bail!(
            "{o}: the tune stands at iteration {k}, but the campaign has only {} (raise \
             spsa.iterations to OpenBench's, which fixes the schedule)",
            schedule.iterations
        );
    }
    let mut cp = Checkpoint::new(config.fingerprint(), theta);
    cp.iterations_done = k;
    cp.first_iteration = k;
    let how = match games {
        Some(g) => format!("{g} games of {pairs} pairs an iteration"),
        None => "the digest's C against C_end".to_string(),
    };
    Ok((
        cp,
        format!(
            "Imported {o}: iteration {k} of {} (from {how})",
            schedule.iterations
        ),
    ))
}

/// A digest row's range and schedule must be the campaign's (the digest prints ints whole and
/// the rest to 4 decimals).
fn check_digest(p: &Param, d: &DigestColumns, origin: &Path) -> anyhow::Result<()> {
    let whole = match p.kind {
        Kind::Int => 0.5,
        Kind::Float => 5e-5,
    };
    for (what, got, want, tol) in [
        ("Min", d.min, p.min, whole),
        ("Max", d.max, p.max, whole),
        ("C_end", d.c_end, p.step, 5e-5),
        ("R_end", d.r_end, p.r_end, 5e-5),
    ] {
        if (got - want).abs() > tol + 1e-9 * want.abs() {
            bail!(
                "{}: {} {what} is {got} in the digest but {want} in the campaign",
                origin.display(),
                p.name
            );
        }
    }
    Ok(())
}

/// Iterations done, from a digest's C: `C = c_end·N^γ/(k+1)^γ` gives
/// `k + 1 = N·(c_end/C)^(1/γ)`. None where C sits at the int floor of 0.5 (it says nothing).
fn iteration_from_c(p: &Param, d: &DigestColumns, s: &Schedule) -> Option<u64> {
    let floor = matches!(p.kind, Kind::Int) && d.c <= 0.5 + 5e-5;
    if floor || d.c <= 0.0 || s.gamma <= 0.0 {
        return None;
    }
    let k1 = s.iterations as f64 * (d.c_end / d.c).powf(1.0 / s.gamma);
    Some((k1.round() as u64).saturating_sub(1))
}
