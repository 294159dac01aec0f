//! The bench: a fixed-depth search of a fixed position set with fresh tables per position, so
//! its node count is a deterministic signature of the search (`Bench: N`). The ablation runs
//! it once per switch configuration and tabulates the node reduction of each heuristic.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clio_board::Position;

use crate::params::{switch_specs, Params};
use crate::{Limits, SearchResult, Searcher};

/// Depth of `clio bench` without an argument.
pub const BENCH_DEPTH: u32 = 10;

/// Hash size of every bench search, in MB (fixed so the node count does not depend on it).
pub const BENCH_HASH_MB: usize = 16;

const BENCH_EPD: &str = include_str!("../data/bench.epd");

/// The bench positions (FEN), in file order.
pub fn bench_positions() -> Vec<&'static str> {
    BENCH_EPD
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Totals of one bench run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BenchResult {
    /// Nodes searched over every position.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Share of main-search beta cutoffs made by the first move searched.
    pub first_move_cutoff_rate: f64,
    /// Beta cutoffs in the main search.
    pub cutoffs: u64,
    /// Positions searched.
    pub positions: usize,
    /// Nodes of each searched position, in bench order.
    pub per_position: Vec<u64>,
    /// Positions not searched, with the reason (no legal move, bad FEN).
    pub skipped: Vec<(String, String)>,
}

/// One bench position as `run_bench_with` reports it.
#[derive(Clone, Copy, Debug)]
pub struct BenchPosition<'a> {
    /// 1-based place in the bench set.
    pub index: usize,
    /// Positions in the bench set.
    pub total: usize,
    /// The position.
    pub fen: &'a str,
    /// The search's result, or why the position was skipped.
    pub outcome: Result<&'a SearchResult, &'a str>,
}

/// Searches every bench position to `depth` with `params`, each with a fresh `Searcher` of
/// `hash_mb` MB (fresh TT and history tables), so the node count is deterministic.
pub fn run_bench(depth: u32, params: &Params, hash_mb: usize) -> BenchResult {
    run_bench_with(depth, params, hash_mb, |_| {})
}

/// `run_bench` that hands each position to `report` as soon as it is searched or skipped.
pub fn run_bench_with(
    depth: u32,
    params: &Params,
    hash_mb: usize,
    mut report: impl FnMut(&BenchPosition),
) -> BenchResult {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let mut out = BenchResult::default();
    let mut first = 0;
    let start = Instant::now();
    let fens = bench_positions();
    for (i, &fen) in fens.iter().enumerate() {
        let mut place = BenchPosition {
            index: i + 1,
            total: fens.len(),
            fen,
            outcome: Err(""),
        };
        let pos = match Position::from_fen(fen) {
            Ok(p) if p.legal_moves().is_empty() => {
                let why = if p.in_check() {
                    "checkmate"
                } else {
                    "stalemate"
                };
                Err(format!("no legal move ({why})"))
            }
            Ok(p) => Ok(p),
            Err(e) => Err(e.to_string()),
        };
        let pos = match pos {
            Ok(p) => p,
            Err(why) => {
                place.outcome = Err(&why);
                report(&place);
                out.skipped.push((fen.to_string(), why));
                continue;
            }
        };
        let mut s = Searcher::new(hash_mb);
        *s.params_mut() = params.clone();
        let r = s.search(&pos, &limits, &stop, &mut |_| {});
        place.outcome = Ok(&r);
        report(&place);
        let st = s.last_stats();
        out.nodes += r.nodes;
        out.per_position.push(r.nodes);
        out.cutoffs += st.cutoffs;
        first += st.first_move_cutoffs;
        out.positions += 1;
    }
    out.time_ms = start.elapsed().as_millis() as u64;
    out.nps = out.nodes * 1000 / out.time_ms.max(1);
    out.first_move_cutoff_rate = first as f64 / out.cutoffs.max(1) as f64;
    out
}

/// The ablation's configurations: all on, each switch flipped from its default in turn, and
/// every history heuristic off (plain MVV-LVA ordering).
pub fn ablation_configs() -> Vec<(String, Params)> {
    let mut out = vec![("all on (defaults)".to_string(), Params::default())];
    for s in switch_specs() {
        let mut p = Params::default();
        let _ = p.set_switch(s.name, !s.default);
        let label = format!("{} {}", s.name, if s.default { "off" } else { "on" });
        out.push((label, p));
    }
    let mut none = Params::default();
    none.all_history_off();
    out.push(("all history off (MVV-LVA)".to_string(), none));
    out
}

/// Runs the bench at `depth` once per ablation configuration.
pub fn run_ablation(depth: u32) -> Vec<(String, BenchResult)> {
    ablation_configs()
        .into_iter()
        .map(|(label, p)| {
            let r = run_bench(depth, &p, BENCH_HASH_MB);
            (label, r)
        })
        .collect()
}

/// Geometric mean over positions of `b`'s nodes relative to `a`'s, minus one: a change that
/// one position with a huge tree cannot dominate (`None` if the position lists differ).
pub fn geomean_change(a: &BenchResult, b: &BenchResult) -> Option<f64> {
    if a.per_position.len() != b.per_position.len() || a.per_position.is_empty() {
        return None;
    }
    let sum: f64 = a
        .per_position
        .iter()
        .zip(&b.per_position)
        .map(|(&x, &y)| (y.max(1) as f64 / x.max(1) as f64).ln())
        .sum();
    Some((sum / a.per_position.len() as f64).exp() - 1.0)
}

/// The ablation table: configuration, total nodes, change against the first row in % (of the
/// totals, and as the geometric mean of per-position ratios), NPS, time and first-move cutoff
/// rate; then the whole family's reduction against none.
pub fn format_ablation(depth: u32, rows: &[(String, BenchResult)]) -> String {
    let Some((_, first)) = rows.first() else {
        return String::new();
    };
    let base = first.nodes.max(1) as f64;
    let mut out = format!(
        "Ablation at depth {depth}, {} positions\n{:<28} {:>12} {:>10} {:>10} {:>9} {:>8} {:>9}\n",
        first.positions,
        "configuration",
        "nodes",
        "vs all-on",
        "(geomean)",
        "nps",
        "time ms",
        "1st-cut %"
    );
    for (label, r) in rows {
        out.push_str(&format!(
            "{:<28} {:>12} {:>+9.1}% {:>+9.1}% {:>9} {:>8} {:>8.1}%\n",
            label,
            r.nodes,
            (r.nodes as f64 / base - 1.0) * 100.0,
            geomean_change(first, r).unwrap_or(f64::NAN) * 100.0,
            r.nps,
            r.time_ms,
            r.first_move_cutoff_rate * 100.0
        ));
    }
    if let Some((_, none)) = rows.last().filter(|_| rows.len() > 1) {
        out.push_str(&format!(
            "whole history family vs none: {:+.1}% nodes (total), {:+.1}% (geomean per position)\n",
            (first.nodes as f64 / none.nodes.max(1) as f64 - 1.0) * 100.0,
            geomean_change(none, first).unwrap_or(f64::NAN) * 100.0
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geomean_change_hand_worked() {
        let a = BenchResult {
            per_position: vec![100, 400],
            ..BenchResult::default()
        };
        let b = BenchResult {
            per_position: vec![200, 200],
            ..BenchResult::default()
        };
        // Ratios 2 and 1/2: geometric mean 1, no change, though the totals differ.
        assert!(geomean_change(&a, &b).is_some_and(|c| c.abs() < 1e-12));
        let c = BenchResult {
            per_position: vec![400, 1600],
            ..BenchResult::default()
        };
        assert!(geomean_change(&a, &c).is_some_and(|x| (x - 3.0).abs() < 1e-12));
        assert_eq!(geomean_change(&a, &BenchResult::default()), None);
    }

    #[test]
    fn bench_set_and_skips() {
        assert_eq!(bench_positions().len(), 48);
        let r = run_bench(1, &Params::default(), 1);
        assert_eq!(r.positions + r.skipped.len(), 48);
        assert_eq!(r.skipped.len(), 2, "{:?}", r.skipped);
        assert!(r.nodes > 0);
    }

    #[test]
    fn bench_is_deterministic_for_every_ablation_configuration() {
        for (label, p) in ablation_configs() {
            let a = run_bench(3, &p, 1);
            let b = run_bench(3, &p, 1);
            assert_eq!(a.nodes, b.nodes, "{label}");
            assert_eq!(a.cutoffs, b.cutoffs, "{label}");
        }
    }
}
