//! `arena ablate`: the Elo of every heuristic in one command. For each `--flip` (one UCI setting,
//! or several joined by commas), an SPRT of the engine at its defaults (dev) against the same
//! binary with that setting flipped (base), one row after the other; each row stops at its own
//! decision or at `--row-games`. Positive Elo means the default is worth that much.
//!
//! Each row is an ordinary runner state file beside `--state` (`<stem>-rowNN.json`), so a
//! stopped table resumes at the row and pair where it stopped, and a row already finished is
//! read back rather than replayed. The table is written as Markdown (for the README), JSON and
//! an SVG of Elo ± 95 % per row.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::Args;
use serde::Serialize;

use crate::db::recorder::{Meta, Recorder};
use crate::db::{EngineRow, RunRow};
use crate::engine::EngineConfig;
use crate::plot::{Chart, Series};
use crate::runner::args::{check_name, parse_option, parse_options, CommonArgs, SprtBoundsArgs};
use crate::runner::commands::{plan, validate_sprt_cap};
use crate::runner::{run, Ending};
use crate::state::State;
use crate::stats::{estimate_penta, sprt_penta, Decision, SprtConfig};

/// `arena ablate`: one SPRT per flipped setting, defaults (dev) against flipped (base).
#[derive(Args, Clone, Debug)]
pub struct AblateArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// The engine command (both sides run it).
    #[arg(long = "engine-cmd", value_name = "PATH")]
    pub cmd: String,
    /// The engine's display name.
    #[arg(long, value_name = "NAME", default_value = "clio")]
    pub name: String,
    /// A row: `[label:]Name=Value[,Name=Value…]`, the setting(s) base plays with (repeatable).
    #[arg(long = "flip", value_name = "[LABEL:]NAME=VALUE,…", required = true)]
    pub flips: Vec<String>,
    /// Stop a row without a decision after this many games.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub row_games: u64,
    #[command(flatten)]
    pub bounds: SprtBoundsArgs,
    /// Write the table as Markdown here.
    #[arg(long, value_name = "FILE.md")]
    pub markdown: Option<PathBuf>,
}

/// One row's flips, parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct Flip {
    /// What the table calls the row.
    pub label: String,
    /// The UCI settings base plays with.
    pub options: Vec<(String, String)>,
}

impl std::str::FromStr for Flip {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> anyhow::Result<Flip> {
        let (label, list) = match text.split_once(':') {
            Some((l, rest)) if !l.contains('=') => (Some(l.trim().to_string()), rest),
            _ => (None, text),
        };
        let options = list
            .split(',')
            .map(parse_option)
            .collect::<anyhow::Result<Vec<_>>>()
            .with_context(|| format!("--flip {text:?}"))?;
        let label = label.unwrap_or_else(|| list.trim().to_string());
        if label.is_empty() {
            bail!("--flip {text:?}: empty label");
        }
        Ok(Flip { label, options })
    }
}

/// One finished (or stopped) row of the table.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Row {
    /// The row's label.
    pub label: String,
    /// Games counted.
    pub games: u64,
    /// Dev's wins, draws and losses.
    pub wdl: [u64; 3],
    /// Pentanomial `[LL, LD, DD+WL, WD, WW]` from dev's side.
    pub penta: [u64; 5],
    /// Elo and its 95 % error.
    pub elo: Option<(f64, f64)>,
    /// Normalised Elo and its 95 % error.
    pub nelo: Option<(f64, f64)>,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The hypothesis accepted, if any.
    pub decision: Option<Decision>,
}

impl Row {
    /// The row as the state of its run says.
    pub fn from_state(label: &str, st: &State, sprt: &SprtConfig) -> Row {
        let t = st.tallies.first().cloned().unwrap_or_default();
        let est = estimate_penta(&t.penta);
        let status = sprt_penta(&t.penta, sprt);
        Row {
            label: label.to_string(),
            games: t.games(),
            wdl: [t.wins, t.draws, t.losses],
            penta: t.penta,
            elo: est.elo.zip(est.elo_error),
            nelo: est.nelo.zip(est.nelo_error),
            llr: status.llr,
            decision: status.decision,
        }
    }

    /// "H1 accepted", "H0 accepted" or "no decision at N games".
    pub fn verdict(&self) -> String {
        match self.decision {
            Some(d) => format!("{d:?} accepted"),
            None => format!("no decision at {} games", self.games),
        }
    }
}

fn pm(v: Option<(f64, f64)>) -> String {
    v.map_or("–".to_string(), |(e, err)| format!("{e:+.1} ± {err:.1}"))
}

/// The table in Markdown: one line per row, ready for the README.
pub fn markdown(rows: &[Row], sprt: &SprtConfig, limits: &str) -> String {
    let mut out = format!(
        "Defaults (dev) against the same binary with the row's setting flipped (base), {limits}, \
         SPRT [{}, {}] {:?} Elo, α = β = {}; positive Elo: the default is worth that much.\n\n",
        sprt.elo0, sprt.elo1, sprt.model, sprt.alpha
    );
    out.push_str("| flipped in base | games | W / D / L | pentanomial | Elo ± 95% | nElo ± 95% | LLR | verdict |\n");
    out.push_str("|---|---:|---:|---|---:|---:|---:|---|\n");
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} / {} / {} | {:?} | {} | {} | {:.2} | {} |\n",
            r.label,
            r.games,
            r.wdl[0],
            r.wdl[1],
            r.wdl[2],
            r.penta,
            pm(r.elo),
            pm(r.nelo),
            r.llr,
            r.verdict()
        ));
    }
    out
}

/// Elo ± 95 % per row as an SVG: each row a point with a shaded error box.
pub fn svg(rows: &[Row]) -> String {
    let mut chart = Chart::new("Elo of each default against its flip (± 95%)", "row", "Elo");
    for (i, r) in rows.iter().enumerate() {
        let Some((elo, err)) = r.elo else { continue };
        let x = (i + 1) as f64;
        chart.series.push(
            Series::new(format!("{}: {}", i + 1, r.label), vec![(x, elo)]).with_band(vec![
                (x - 0.3, elo - err, elo + err),
                (x + 0.3, elo - err, elo + err),
            ]),
        );
    }
    chart.hlines.push((0.0, "0".to_string()));
    chart.x_range = Some((0.0, rows.len() as f64 + 1.0));
    chart.to_svg()
}

/// The state file of row `i` (0-based) beside the table's state file.
pub fn row_state_path(state: &Path, i: usize) -> PathBuf {
    let stem = state
        .file_stem()
        .map_or("ablate".into(), |s| s.to_string_lossy().into_owned());
    state.with_file_name(format!("{stem}-row{:02}.json", i + 1))
}

fn with_suffix(path: &Path, i: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or("ablate".into(), |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or(String::new(), |e| format!(".{}", e.to_string_lossy()));
    path.with_file_name(format!("{stem}-row{:02}{ext}", i + 1))
}

/// Checks every row's options against the engine before the first game: one handshake, then
/// each flip's settings (with the common options) checked against what the engine declared, so
/// a misspelt option in the last row stops the run at once, naming the row.
fn check_flips(a: &AblateArgs, common: &[(String, String)], flips: &[Flip]) -> anyhow::Result<()> {
    let cfg = EngineConfig {
        name: a.name.clone(),
        cmd: a.cmd.clone(),
        args: Vec::new(),
        dir: None,
        options: common.to_vec(),
        shared_options: Vec::new(),
        cpus: None,
    };
    let mut e = crate::engine::Engine::start(cfg)
        .with_context(|| format!("engine {} ({}) failed its start-up check", a.name, a.cmd))?;
    let checked: anyhow::Result<()> = flips.iter().enumerate().try_for_each(|(i, f)| {
        e.check_options(&f.options)
            .map(drop)
            .with_context(|| format!("row {} ({})", i + 1, f.label))
    });
    e.quit();
    checked
}

/// Runs `arena ablate`; returns the process exit code (130 when interrupted).
pub fn run_ablate(a: &AblateArgs) -> anyhow::Result<i32> {
    let sprt = a.bounds.config()?;
    validate_sprt_cap(a.row_games)?;
    check_name(&a.name)?;
    let flips: Vec<Flip> = a
        .flips
        .iter()
        .map(|f| f.parse())
        .collect::<anyhow::Result<_>>()?;
    let common = parse_options(&a.common.options)?;
    let Some(state) = a.common.state.clone() else {
        bail!("arena ablate needs --state FILE: each row's state is kept beside it");
    };
    for out in [&a.markdown, &a.common.json, &a.common.plot]
        .into_iter()
        .flatten()
        .chain([&state])
    {
        let dir = out.parent().filter(|p| !p.as_os_str().is_empty());
        if let Some(dir) = dir {
            if !dir.is_dir() {
                bail!("output directory {} does not exist", dir.display());
            }
        }
    }
    check_flips(a, &common, &flips)?;
    let mut rows = Vec::new();
    let mut limits = String::new();
    let mut ending = Ending::Complete;
    let mut parent = Recorder::start(
        &Meta::new(&a.common.db, "ablate"),
        RunRow {
            name: a
                .common
                .db
                .run_name
                .clone()
                .unwrap_or_else(|| format!("ablate {}", a.name)),
            engines: vec![EngineRow {
                name: a.name.clone(),
                cmd: a.cmd.clone(),
                options: common.clone(),
                ..EngineRow::default()
            }],
            state_path: Some(crate::db::recorder::abs(&state)),
            fingerprint: Some(format!("{:?} {:?}", a.flips, a.common.options)),
            extra: Some(serde_json::json!({ "flips": a.flips })),
            ..RunRow::default()
        },
    );
    for (i, flip) in flips.iter().enumerate() {
        let mut c = a.common.clone();
        c.state = Some(row_state_path(&state, i));
        c.pgn = a.common.pgn.as_deref().map(|p| with_suffix(p, i));
        c.epdout = a.common.epdout.as_deref().map(|p| with_suffix(p, i));
        c.json = None;
        c.plot = None;
        let dev = EngineConfig {
            name: a.name.clone(),
            cmd: a.cmd.clone(),
            args: Vec::new(),
            dir: None,
            options: common.clone(),
            shared_options: Vec::new(),
            cpus: None,
        };
        let base = EngineConfig {
            name: format!("{}-flip{:02}", a.name, i + 1),
            options: common.iter().cloned().chain(flip.options.clone()).collect(),
            ..dev.clone()
        };
        c.db.run_name = Some(flip.label.clone());
        let mut p = plan(
            &c,
            vec![dev, base],
            vec![(0, 1)],
            a.row_games.div_ceil(2),
            Some(sprt),
            &format!("arena ablate: {}", flip.label),
        )?;
        limits = p.tc_text.clone();
        p.record.parent_uid = parent.active().then(|| parent.row.uid.clone());
        if parent.active() {
            parent.row.tc = Some(limits.clone());
            parent.write(&[], false);
        }
        println!(
            "Row {} of {}: {} (base plays it)",
            i + 1,
            flips.len(),
            flip.label
        );
        let (st, e) = run(&p)?;
        rows.push(Row::from_state(&flip.label, &st, &sprt));
        parent.row.games = rows.iter().map(|r| r.games as i64).sum();
        parent.row.extra = Some(
            serde_json::json!({ "flips": a.flips, "sprt": sprt, "limits": limits, "rows": rows }),
        );
        parent.write(&[], false);
        if e == Ending::Interrupted {
            ending = e;
            break;
        }
    }
    parent.finish(if ending == Ending::Interrupted {
        "stopped"
    } else {
        "complete"
    });
    let table = markdown(&rows, &sprt, &limits);
    println!("{table}");
    if let Some(path) = &a.markdown {
        std::fs::write(path, &table).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &a.common.json {
        let json = serde_json::json!({ "sprt": sprt, "limits": limits, "rows": rows });
        std::fs::write(path, serde_json::to_string_pretty(&json)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &a.common.plot {
        std::fs::write(path, svg(&rows)).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(if ending == Ending::Interrupted {
        130
    } else {
        0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Model;

    #[test]
    fn flips_parse_with_and_without_a_label() {
        let f: Flip = "UseMalus=false".parse().unwrap();
        assert_eq!(f.label, "UseMalus=false");
        assert_eq!(f.options, vec![("UseMalus".into(), "false".into())]);
        let f: Flip = "no history:UseHistory=false, UseKillers=false"
            .parse()
            .unwrap();
        assert_eq!(f.label, "no history");
        assert_eq!(f.options.len(), 2);
        assert!("UseMalus".parse::<Flip>().is_err());
    }

    #[test]
    fn row_files_sit_beside_the_state() {
        assert_eq!(
            row_state_path(Path::new("out/ablate.json"), 0),
            PathBuf::from("out/ablate-row01.json")
        );
        assert_eq!(
            with_suffix(Path::new("out/games.pgn"), 11),
            PathBuf::from("out/games-row12.pgn")
        );
    }

    #[test]
    fn a_row_reports_its_state_and_verdict() {
        let sprt = SprtConfig::new(0.0, 10.0, 0.05, 0.05, Model::Normalized).unwrap();
        let mut st = State::new(Default::default(), 1, 1);
        for hp in [[2, 2], [2, 1], [1, 1], [2, 0], [0, 1]] {
            st.tallies[0].add_pair(hp);
        }
        let row = Row::from_state("UseMalus=false", &st, &sprt);
        assert_eq!(row.games, 10);
        assert_eq!(row.penta, st.tallies[0].penta);
        assert_eq!(row.verdict(), "no decision at 10 games");
        let md = markdown(std::slice::from_ref(&row), &sprt, "5000 nodes");
        assert!(md.contains("| UseMalus=false | 10 |"), "{md}");
        assert!(svg(&[row]).starts_with("<svg"));
    }
}
