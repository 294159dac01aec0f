//! What a tune writes: the per-iteration CSV log, OpenBench's parameter digest, and the final
//! values as a TOML snippet and as `--dev-option` flags for `arena sprt`.

use std::fmt::Write as _;

use super::config::{Kind, Param};
use super::schedule::{format_value, Probe, Schedule};
use crate::state::Tally;

/// The CSV header: `k` (0-based iteration), `games` (total after it), the iteration's W/D/L and
/// pentanomial from θ+'s side, then per parameter Δ, θ after the update, c_k and R_k.
pub fn csv_header(params: &[Param]) -> String {
    let mut h = String::from("k,games,wins,draws,losses,ll,ld,dd_wl,wd,ww");
    for p in params {
        let n = csv_name(&p.name);
        let _ = write!(h, ",{n}_delta,{n},{n}_c,{n}_r");
    }
    h.push('\n');
    h
}

/// A name safe as a CSV header cell (commas, quotes and spaces become `_`).
fn csv_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c == ',' || c == '"' || c.is_whitespace() {
                '_'
            } else {
                c
            }
        })
        .collect()
}

/// One CSV row for iteration `probe.k`: its games, `theta` after the update, c_k and R_k.
pub fn csv_row(probe: &Probe, games_total: u64, tally: &Tally, theta: &[f64]) -> String {
    let p = tally.penta;
    let mut row = format!(
        "{},{},{},{},{},{},{},{},{},{}",
        probe.k, games_total, tally.wins, tally.draws, tally.losses, p[0], p[1], p[2], p[3], p[4]
    );
    for (i, v) in theta.iter().enumerate() {
        let _ = write!(
            row,
            ",{},{v},{},{}",
            probe.delta[i], probe.c_k[i], probe.r_k[i]
        );
    }
    row.push('\n');
    row
}

/// OpenBench's digest headers.
pub const DIGEST_HEADERS: [&str; 9] = [
    "Name", "Curr", "Start", "Min", "Max", "C", "C_end", "R", "R_end",
];

/// The digest table as OpenBench shows it: C and R as they would be for the next iteration
/// `k`, Curr and the float columns to 4 decimals, int Start/Min/Max as integers.
pub fn digest(params: &[Param], schedule: &Schedule, theta: &[f64], k: u64) -> String {
    let k = k.min(schedule.iterations.saturating_sub(1));
    let mut rows: Vec<[String; 9]> = vec![DIGEST_HEADERS.map(String::from)];
    for (p, v) in params.iter().zip(theta) {
        let f = |x: f64| match p.kind {
            Kind::Int => format!("{}", x.round() as i64),
            Kind::Float => format!("{x:.4}"),
        };
        rows.push([
            p.name.clone(),
            format!("{v:.4}"),
            f(p.value),
            f(p.min),
            f(p.max),
            format!("{:.4}", schedule.c_k(p, k)),
            format!("{:.4}", p.step),
            format!("{:.4}", schedule.r_k(p, k)),
            format!("{:.4}", p.r_end),
        ]);
    }
    let mut widths = [0usize; 9];
    for r in &rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for (i, r) in rows.iter().enumerate() {
        for (j, cell) in r.iter().enumerate() {
            if j == 0 {
                let _ = write!(out, "{cell:<w$}", w = widths[0]);
            } else {
                let _ = write!(out, "  {cell:>w$}", w = widths[j]);
            }
        }
        out.push('\n');
        if i == 0 {
            let total: usize = widths.iter().sum::<usize>() + 2 * (widths.len() - 1);
            out += &"-".repeat(total);
            out.push('\n');
        }
    }
    out
}

/// The tuned values as `Name = value` TOML lines (ints rounded).
pub fn tuned_toml(params: &[Param], theta: &[f64]) -> String {
    let mut out = String::new();
    for (p, v) in params.iter().zip(theta) {
        let _ = writeln!(out, "{} = {}", toml_key(&p.name), format_value(p, *v));
    }
    out
}

/// A TOML key: bare when it can be, quoted otherwise.
fn toml_key(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        name.to_string()
    } else {
        toml::Value::String(name.to_string()).to_string()
    }
}

/// The tuned values as `arena sprt` flags: `--dev-option Name=Value …` (a name with spaces is
/// quoted for the shell).
pub fn dev_option_flags(params: &[Param], theta: &[f64]) -> String {
    params
        .iter()
        .zip(theta)
        .map(|(p, v)| {
            let kv = format!("{}={}", p.name, format_value(p, *v));
            if kv.contains(char::is_whitespace) {
                format!("--dev-option '{kv}'")
            } else {
                format!("--dev-option {kv}")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
