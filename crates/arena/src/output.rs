//! fastchess's text lines, formatted in this one place for the runner and `arena stats` alike:
//! `Started game N of M (A vs B)`, `Finished game N (A vs B): RESULT {reason}`, the `Results of
//! A vs B (tc, threads, hash, book):` block with its `Elo:`, `LOS:`, `Games:`, `Ptnml(0-2):`
//! and `LLR:` lines, and `SPRT ([e0, e1]) completed - H1 was accepted`. The formats are
//! fastchess's (`output_fastchess.hpp`, `elo_*.cpp`, `sprt.cpp`) byte for byte, because tools
//! parse them.

use crate::snapshot::Snapshot;
use crate::stats::{Decision, Estimate, SprtConfig, SprtStatus};

/// The line printed when a game starts.
pub fn started_line(n: u64, total: u64, white: &str, black: &str) -> String {
    format!("Started game {n} of {total} ({white} vs {black})")
}

/// The line printed when a game ends; `result` is `1-0`, `0-1`, `1/2-1/2` or `*`.
pub fn finished_line(n: u64, white: &str, black: &str, result: &str, reason: &str) -> String {
    format!("Finished game {n} ({white} vs {black}): {result} {{{reason}}}")
}

/// A number as fastchess prints it with `{:.2f}`: `inf`, `-inf` or `nan` where undefined.
pub fn num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_nan() => "nan".into(),
        Some(x) if x == f64::INFINITY => "inf".into(),
        Some(x) if x == f64::NEG_INFINITY => "-inf".into(),
        Some(x) => format!("{x:.2}"),
        None => "nan".into(),
    }
}

/// `a / b` as fastchess prints a ratio (`inf` or `nan` when `b` is 0).
fn ratio(a: u64, b: u64) -> String {
    num(Some(a as f64 / b as f64))
}

/// Elo, or ±inf where a perfect score leaves it undefined (as fastchess prints it).
pub fn elo_or_inf(e: &Estimate) -> Option<f64> {
    e.elo.or(match e.score {
        Some(s) if s >= 1.0 => Some(f64::INFINITY),
        Some(s) if s <= 0.0 => Some(f64::NEG_INFINITY),
        _ => None,
    })
}

/// `Elo: 43.66 +/- 96.77, nElo: 56.36 +/- 120.38`.
pub fn elo_line(e: &Estimate) -> String {
    format!(
        "Elo: {} +/- {}, nElo: {} +/- {}",
        num(elo_or_inf(e)),
        num(e.elo_error),
        num(e.nelo),
        num(e.nelo_error)
    )
}

/// `LOS: 82.06 %, DrawRatio: 31.25 %, PairsRatio: 1.75`; PairsRatio `(WW+WD)/(LD+LL)` only
/// for pentanomial counts.
pub fn los_line(e: &Estimate, penta: Option<&[u64; 5]>) -> String {
    let mut s = format!(
        "LOS: {} %, DrawRatio: {} %",
        num(e.los.map(|x| x * 100.0)),
        num(e.draw_ratio.map(|x| x * 100.0))
    );
    if let Some(p) = penta {
        s.push_str(&format!(
            ", PairsRatio: {}",
            ratio(p[3] + p[4], p[0] + p[1])
        ));
    }
    s
}

/// `Games: 32, Wins: 12, Losses: 8, Draws: 12, Points: 18.0 (56.25 %)`.
pub fn games_line(wins: u64, losses: u64, draws: u64) -> String {
    let games = wins + losses + draws;
    let points = wins as f64 + 0.5 * draws as f64;
    format!(
        "Games: {games}, Wins: {wins}, Losses: {losses}, Draws: {draws}, Points: {points:.1} ({} %)",
        num(Some(points / games as f64 * 100.0))
    )
}

/// `Ptnml(0-2): [1, 3, 5, 5, 2], WL/DD Ratio: 0.67` (`wl_pairs` of `penta[2]` are one win
/// and one loss, the rest two draws).
pub fn ptnml_line(p: &[u64; 5], wl_pairs: u64) -> String {
    let dd = p[2].saturating_sub(wl_pairs);
    format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}",
        p[0],
        p[1],
        p[2],
        p[3],
        p[4],
        ratio(wl_pairs, dd)
    )
}

/// `Games: 32, Ptnml(0-2): [1, 3, 5, 5, 2]`: `arena stats` on pentanomial counts alone.
pub fn penta_games_line(p: &[u64; 5]) -> String {
    format!(
        "Games: {}, Ptnml(0-2): [{}, {}, {}, {}, {}]",
        2 * p.iter().sum::<u64>(),
        p[0],
        p[1],
        p[2],
        p[3],
        p[4]
    )
}

/// `LLR: 0.03 (1.0%) (-2.94, 2.94) [0.00, 2.00]`: the LLR, its share of the bound it heads for,
/// the bounds and the hypotheses (fastchess's `printSprt`).
pub fn llr_line(status: &SprtStatus, cfg: &SprtConfig) -> String {
    format!(
        "LLR: {:.2} ({:.1}%) ({:.2}, {:.2}) [{:.2}, {:.2}]",
        status.llr,
        status.fraction() * 100.0,
        status.lower,
        status.upper,
        cfg.elo0,
        cfg.elo1
    )
}

/// `SPRT ([0.00, 2.00]) completed - H1 was accepted`, fastchess's verdict line.
pub fn sprt_verdict(cfg: &SprtConfig, decision: Decision) -> String {
    let hypothesis = match decision {
        Decision::H0 => "H0",
        Decision::H1 => "H1",
    };
    format!(
        "SPRT ([{:.2}, {:.2}]) completed - {hypothesis} was accepted",
        cfg.elo0, cfg.elo1
    )
}

/// What the `Results of …` line says besides the counts.
pub struct Heading<'a> {
    /// First engine (dev).
    pub first: &'a str,
    /// Second engine (base).
    pub second: &'a str,
    /// Time control text, e.g. `8+0.08` or `2000 nodes`.
    pub tc: &'a str,
    /// Threads of each engine as fastchess prints them: `1t`, `1t - 2t`, or `NULL`.
    pub threads: &'a str,
    /// Hash of each engine: `16MB`, `16MB - 64MB`, or `NULL`.
    pub hash: &'a str,
    /// Book file name (without directories), empty for none.
    pub book: &'a str,
}

/// The `Results of …` block (between dashed lines), with an `LLR:` line when an SPRT runs.
pub fn results_block(h: &Heading<'_>, snap: &Snapshot) -> String {
    let t = &snap.tally;
    let book = if h.book.is_empty() {
        String::new()
    } else {
        format!(", {}", h.book)
    };
    let mut lines = vec![
        "--------------------------------------------------".to_string(),
        format!(
            "Results of {} vs {} ({}, {}, {}{book}):",
            h.first, h.second, h.tc, h.threads, h.hash
        ),
        elo_line(&snap.estimate),
        los_line(&snap.estimate, Some(&t.penta)),
        games_line(t.wins, t.losses, t.draws),
        ptnml_line(&t.penta, t.wl_pairs),
    ];
    if let Some((cfg, status)) = &snap.sprt {
        lines.push(llr_line(status, cfg));
    }
    lines.push("--------------------------------------------------\n".to_string());
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Tally;
    use crate::stats::Model;

    #[test]
    fn results_block_has_fastchess_lines() {
        let t = Tally {
            wins: 12,
            draws: 12,
            losses: 8,
            penta: [1, 3, 5, 5, 2],
            wl_pairs: 2,
        };
        let cfg = SprtConfig {
            elo0: 0.0,
            elo1: 2.0,
            alpha: 0.05,
            beta: 0.05,
            model: Model::Normalized,
        };
        let h = Heading {
            first: "dev",
            second: "base",
            tc: "8+0.08",
            threads: "1t",
            hash: "16MB",
            book: "seed.epd",
        };
        let s = results_block(&h, &Snapshot::new(t, Some(&cfg)));
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(
            lines[1],
            "Results of dev vs base (8+0.08, 1t, 16MB, seed.epd):"
        );
        assert!(
            lines[2].starts_with("Elo: 43.66 +/- 96.77, nElo: "),
            "{}",
            lines[2]
        );
        assert!(lines[3].starts_with("LOS: 82.06 %, DrawRatio: 31.25 %, PairsRatio: 1.75"));
        assert_eq!(
            lines[4],
            "Games: 32, Wins: 12, Losses: 8, Draws: 12, Points: 18.0 (56.25 %)"
        );
        assert_eq!(lines[5], "Ptnml(0-2): [1, 3, 5, 5, 2], WL/DD Ratio: 0.67");
        assert!(lines[6].starts_with("LLR: 0.03 ("), "{}", lines[6]);
        assert!(
            lines[6].ends_with(" (-2.94, 2.94) [0.00, 2.00]"),
            "{}",
            lines[6]
        );
        assert_eq!(
            sprt_verdict(&cfg, Decision::H1),
            "SPRT ([0.00, 2.00]) completed - H1 was accepted"
        );
    }

    #[test]
    fn game_lines() {
        assert_eq!(
            started_line(3, 10, "a", "b"),
            "Started game 3 of 10 (a vs b)"
        );
        assert_eq!(
            finished_line(3, "a", "b", "1/2-1/2", "Draw by 3-fold repetition"),
            "Finished game 3 (a vs b): 1/2-1/2 {Draw by 3-fold repetition}"
        );
    }
}
