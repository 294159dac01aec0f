//! What a run prints and writes besides fastchess's lines (those are `output`'s): the standings
//! table of a round robin, the failure summary, the live progress line on stderr and the JSON
//! summary.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::output::{elo_or_inf, num};
use crate::snapshot::Snapshot;
use crate::state::{Failures, Tally};
use crate::stats::{self, Decision, Estimate};

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
