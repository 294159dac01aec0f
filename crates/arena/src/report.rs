//! What a run prints and writes: fastchess's stdout lines (kept exactly where tools parse them),
//! the standings table of a round robin, the failure summary, the live progress line on stderr,
//! the JSON summary and the SVG chart.
//!
//! Line formats follow fastchess's `output_fastchess.hpp` and `sprt.cpp`: `Started game N of M
//! (A vs B)`, `Finished game N (A vs B): RESULT {reason}`, the `Results of A vs B (tc, threads,
//! hash, book):` block with `Elo:`, `LOS:`, `Games:`, `Ptnml(0-2):` and `LLR:` lines, then
//! `SPRT ([e0, e1]) completed - H1 was accepted` and `Finished match`.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::snapshot::Snapshot;
use crate::state::{Failures, Tally};
use crate::stats::{self, Decision, Estimate, SprtConfig, SprtStatus};

/// The line printed when a game starts.
pub fn started_line(n: u64, total: u64, white: &str, black: &str) -> String {
    format!("Started game {n} of {total} ({white} vs {black})")
}

/// The line printed when a game ends; `result` is `1-0`, `0-1`, `1/2-1/2` or `*`.
pub fn finished_line(n: u64, white: &str, black: &str, result: &str, reason: &str) -> String {
    format!("Finished game {n} ({white} vs {black}): {result} {{{reason}}}")
}

/// `x.xx` or fastchess's `inf`/`nan` for a value that is not defined.
fn num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x:.2}"),
        Some(x) if x.is_infinite() && x > 0.0 => "inf".into(),
        Some(x) if x.is_infinite() => "-inf".into(),
        _ => "nan".into(),
    }
}

/// Elo when the estimate leaves it undefined: ±inf for a perfect score, else nan.
fn elo_or_inf(e: &Estimate) -> Option<f64> {
    e.elo.or(match e.score {
        Some(s) if s >= 1.0 => Some(f64::INFINITY),
        Some(s) if s <= 0.0 => Some(f64::NEG_INFINITY),
        _ => None,
    })
}

/// A ratio printed as fastchess does (`inf` when the denominator is zero).
fn ratio(a: u64, b: u64) -> String {
    if b == 0 {
        if a == 0 {
            "nan".into()
        } else {
            "inf".into()
        }
    } else {
        format!("{:.2}", a as f64 / b as f64)
    }
}

/// What the results block says about the match besides the counts.
pub struct Heading<'a> {
    /// First engine (dev).
    pub first: &'a str,
    /// Second engine (base).
    pub second: &'a str,
    /// Time control text, e.g. `8+0.08` or `2000 nodes`.
    pub tc: &'a str,
    /// Threads text, e.g. `1t` or `NULL`.
    pub threads: &'a str,
    /// Hash text, e.g. `16MB` or `NULL`.
    pub hash: &'a str,
    /// Book file name (without directories), empty for none.
    pub book: &'a str,
}

/// The `Results of …` block (between dashed lines), with an `LLR:` line when an SPRT runs.
pub fn results_block(h: &Heading<'_>, snap: &Snapshot) -> String {
    let (t, e) = (&snap.tally, &snap.estimate);
    let games = t.games();
    let points = t.wins as f64 + 0.5 * t.draws as f64;
    let pct = if games > 0 {
        points / games as f64 * 100.0
    } else {
        0.0
    };
    let book = if h.book.is_empty() {
        String::new()
    } else {
        format!(", {}", h.book)
    };
    let dd = t.penta[2].saturating_sub(t.wl_pairs);
    let mut s = String::new();
    s.push_str("--------------------------------------------------\n");
    s.push_str(&format!(
        "Results of {} vs {} ({}, {}, {}{}):\n",
        h.first, h.second, h.tc, h.threads, h.hash, book
    ));
    s.push_str(&format!(
        "Elo: {} +/- {}, nElo: {} +/- {}\n",
        num(elo_or_inf(e)),
        num(e.elo_error),
        num(e.nelo),
        num(e.nelo_error)
    ));
    s.push_str(&format!(
        "LOS: {} %, DrawRatio: {} %, PairsRatio: {}\n",
        num(e.los.map(|x| x * 100.0)),
        num(e.draw_ratio.map(|x| x * 100.0)),
        ratio(t.penta[3] + t.penta[4], t.penta[0] + t.penta[1])
    ));
    s.push_str(&format!(
        "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({pct:.2} %)\n",
        t.wins, t.losses, t.draws
    ));
    s.push_str(&format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}\n",
        t.penta[0],
        t.penta[1],
        t.penta[2],
        t.penta[3],
        t.penta[4],
        ratio(t.wl_pairs, dd)
    ));
    if let Some((cfg, status)) = &snap.sprt {
        s.push_str(&llr_line(status, cfg));
        s.push('\n');
    }
    s.push_str("--------------------------------------------------\n");
    s
}

/// `LLR: 2.95 (100.3%) (-2.94, 2.94) [0.00, 2.00]` (fastchess `printSprt`).
pub fn llr_line(st: &SprtStatus, cfg: &SprtConfig) -> String {
    format!(
        "LLR: {:.2} ({:.1}%) ({:.2}, {:.2}) [{:.2}, {:.2}]",
        st.llr,
        st.fraction() * 100.0,
        st.lower,
        st.upper,
        cfg.elo0,
        cfg.elo1
    )
}

/// `SPRT ([0.00, 2.00]) completed - H1 was accepted`.
pub fn sprt_done_line(cfg: &SprtConfig, d: Decision) -> String {
    let h = match d {
        Decision::H0 => "H0",
        Decision::H1 => "H1",
    };
    format!(
        "SPRT ([{:.2}, {:.2}]) completed - {h} was accepted",
        cfg.elo0, cfg.elo1
    )
}

/// One line per engine with a failure count of each kind (all engines, zeros included).
pub fn failures_block(names: &[String], failures: &BTreeMap<String, Failures>) -> String {
    let mut s = String::new();
    for name in names {
        let f = failures.get(name).copied().unwrap_or_default();
        s.push_str(&format!(
            "Player: {name}\n  Timeouts: {}\n  Crashed: {}\n  Illegal moves: {}\n  Stalls: {}\n",
            f.time_forfeits, f.disconnects, f.illegal_moves, f.stalls
        ));
    }
    s
}

/// One row of a standings table.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    /// Engine name.
    pub name: String,
    /// Its results against all the others, from its side.
    pub tally: Tally,
}

/// The standings table of a round robin or gauntlet, best score first.
pub fn standings_table(rows: &[Standing]) -> String {
    let mut rows = rows.to_vec();
    let score = |t: &Tally| {
        if t.games() == 0 {
            0.0
        } else {
            (t.wins as f64 + 0.5 * t.draws as f64) / t.games() as f64
        }
    };
    rows.sort_by(|a, b| score(&b.tally).total_cmp(&score(&a.tally)));
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(4).max(4);
    let mut s = format!(
        "Rank {:<width$} {:>8} {:>8} {:>6} {:>6} {:>6} {:>6} {:>8} {:>7}\n",
        "Name", "Elo", "+/-", "Games", "W", "L", "D", "Points", "Score"
    );
    for (i, r) in rows.iter().enumerate() {
        let t = &r.tally;
        let e = stats::estimate_penta(&t.penta);
        s.push_str(&format!(
            "{:>4} {:<width$} {:>8} {:>8} {:>6} {:>6} {:>6} {:>6} {:>8.1} {:>6.1}%\n",
            i + 1,
            r.name,
            num(elo_or_inf(&e)),
            num(e.elo_error),
            t.games(),
            t.wins,
            t.losses,
            t.draws,
            t.wins as f64 + 0.5 * t.draws as f64,
            score(t) * 100.0
        ));
    }
    s
}

/// The live progress line on stderr; does nothing unless stderr is a terminal.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Starts the progress line for a run of at most `total_games` games.
    pub fn new(total_games: u64) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(Some(total_games), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_millis(500));
        Progress { bar: Some(bar) }
    }

    /// Updates the line from the run's snapshot.
    pub fn update(&self, snap: &Snapshot, games_per_min: f64, remaining_games: u64) {
        let Some(bar) = &self.bar else { return };
        bar.set_position(snap.games());
        bar.set_message(progress_message(snap, games_per_min, remaining_games));
    }

    /// Removes the line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// Prints a line to stdout without garbling the progress line.
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| println!("{line}")),
            None => println!("{line}"),
        }
    }
}

/// The progress line: games, score, Elo ± error, LLR share of the bound, games/min, ETA.
pub fn progress_message(snap: &Snapshot, games_per_min: f64, remaining_games: u64) -> String {
    let (t, e) = (&snap.tally, &snap.estimate);
    let score = e.score.map(|s| s * 100.0);
    let mut msg = format!(
        "{} games +{}={}-{} {}% elo {}±{}",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        num(score),
        num(elo_or_inf(e)),
        num(e.elo_error)
    );
    if let Some((_, st)) = &snap.sprt {
        msg.push_str(&format!(
            " llr {:.2} ({:.0}%)",
            st.llr,
            st.fraction() * 100.0
        ));
    }
    msg.push_str(&format!(" {games_per_min:.1}/min"));
    if games_per_min > 0.0 {
        let secs = (remaining_games as f64 / games_per_min * 60.0) as u64;
        msg.push_str(&format!(
            " eta {}{}:{:02}:{:02}",
            if snap.sprt.is_some() { "<" } else { "" },
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        ));
    }
    msg
}

/// The JSON summary of a two-engine run (`--json FILE`).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// First engine (dev).
    pub dev: String,
    /// Second engine (base).
    pub base: String,
    /// Limits text.
    pub tc: String,
    /// Games counted.
    pub games: u64,
    /// Wins of dev.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of dev.
    pub losses: u64,
    /// Pentanomial `[LL, LD, DD+WL, WD, WW]` from dev's side.
    pub pentanomial: [u64; 5],
    /// Elo, nElo, LOS and friends (null where undefined).
    #[serde(flatten)]
    pub estimate: Estimate,
    /// The LLR (null without an SPRT).
    pub llr: Option<f64>,
    /// Lower SPRT bound.
    pub lower: Option<f64>,
    /// Upper SPRT bound.
    pub upper: Option<f64>,
    /// elo0 of the SPRT.
    pub elo0: Option<f64>,
    /// elo1 of the SPRT.
    pub elo1: Option<f64>,
    /// "H0", "H1" or null.
    pub decision: Option<Decision>,
    /// Failures per engine.
    pub failures: BTreeMap<String, Failures>,
    /// Wall-clock seconds of the run (all sessions).
    pub elapsed_s: f64,
    /// Counted games per minute of wall clock.
    pub games_per_minute: Option<f64>,
    /// Mean wall time of a game, ms.
    pub game_wall_ms: Option<f64>,
    /// Mean wall time per game not spent in an engine's think time, ms.
    pub overhead_ms_per_game: Option<f64>,
    /// Standings (match and gauntlet runs).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub standings: Vec<Standing>,
}

impl Summary {
    /// The summary of a snapshot of dev's side.
    pub fn new(
        dev: &str,
        base: &str,
        tc: &str,
        snap: &Snapshot,
        failures: &BTreeMap<String, Failures>,
    ) -> Summary {
        let (t, st) = (&snap.tally, snap.sprt.map(|(_, s)| s));
        let cfg = snap.sprt.map(|(c, _)| c);
        Summary {
            dev: dev.to_string(),
            base: base.to_string(),
            tc: tc.to_string(),
            games: t.games(),
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            pentanomial: t.penta,
            estimate: snap.estimate,
            llr: st.map(|s| s.llr),
            lower: st.map(|s| s.lower),
            upper: st.map(|s| s.upper),
            elo0: cfg.map(|c| c.elo0),
            elo1: cfg.map(|c| c.elo1),
            decision: snap.decision(),
            failures: failures.clone(),
            elapsed_s: 0.0,
            games_per_minute: None,
            game_wall_ms: None,
            overhead_ms_per_game: None,
            standings: Vec::new(),
        }
    }

    /// Writes the summary as pretty JSON.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        std::fs::write(path, text + "\n")
            .map_err(|e| anyhow::anyhow!("cannot write JSON summary {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
            sprt_done_line(&cfg, Decision::H1),
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
