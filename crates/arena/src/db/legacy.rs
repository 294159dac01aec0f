//! Import of the runs recorded before the database: the JSON summaries (`result.json`,
//! `gauntlet.json`, `sprt.json` and every other summary `--json` wrote), their state files
//! (engines, settings and the chart's history), ablation tables and SPSA checkpoints.
//! Each imported run's uid is `legacy:<path>`, so importing twice replaces, never doubles.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Map, Value};

use super::export::{insert_all, thin, Exported, MAX_POINTS};
use super::record::{EngineRow, IterationRow, PointRow};
use super::{Db, DbError, RunRow};

/// What an import found.
#[derive(Debug, Default)]
pub struct Imported {
    /// Runs by kind.
    pub by_kind: BTreeMap<String, usize>,
    /// Files that looked like records but could not be read, with why.
    pub skipped: Vec<(PathBuf, String)>,
}

/// Every file under `dir`, sorted.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// When each file was first committed (`git log --diff-filter=A`), by path relative to the
/// checkout's top.
fn added_dates(top: &Path, dirs: &[PathBuf]) -> BTreeMap<String, String> {
    let mut cmd = Command::new("git");
    cmd.arg("-C").arg(top).args([
        "log",
        "--diff-filter=A",
        "--format=@%aI",
        "--name-only",
        "--",
    ]);
    cmd.args(dirs);
    let mut dates = BTreeMap::new();
    let Ok(out) = cmd.output() else { return dates };
    let mut current = String::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(d) = line.strip_prefix('@') {
            current = to_utc(d);
        } else if !line.is_empty() {
            // Newest first: the last date seen for a path is its first commit.
            dates.insert(line.to_string(), current.clone());
        }
    }
    dates
}

/// `2026-11-20T14:03:11+01:00` as UTC `…Z` (the database's form).
fn to_utc(iso: &str) -> String {
    let parse = || -> Option<String> {
        let (date, rest) = iso.split_once('T')?;
        let mut d = date.split('-').map(|x| x.parse::<i64>().ok());
        let (y, m, day) = (d.next()??, d.next()??, d.next()??);
        let (time, sign, off) = match rest.rfind(['+', '-']) {
            Some(i) => (
                &rest[..i],
                if &rest[i..=i] == "+" { 1 } else { -1 },
                &rest[i + 1..],
            ),
            None => (rest.trim_end_matches('Z'), 1, "00:00"),
        };
        let mut t = time.split(':').map(|x| x.parse::<i64>().ok());
        let (hh, mm, ss) = (t.next()??, t.next()??, t.next()??);
        let mut o = off.split(':').map(|x| x.parse::<i64>().ok());
        let (oh, om) = (o.next()??, o.next().flatten().unwrap_or(0));
        // Days from the civil date (Howard Hinnant's days-from-civil).
        let y2 = if m <= 2 { y - 1 } else { y };
        let era = y2.div_euclid(400);
        let yoe = y2 - era * 400;
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + day - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let days = era * 146_097 + doe - 719_468;
        let secs = days * 86_400 + hh * 3600 + mm * 60 + ss - sign * (oh * 3600 + om * 60);
        Some(super::iso_utc(u64::try_from(secs).ok()?))
    };
    parse().unwrap_or_else(|| iso.to_string())
}

/// A JSON file, if it parses.
fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

fn f(v: &Value, k: &str) -> Option<f64> {
    v.get(k).and_then(Value::as_f64)
}

fn i(v: &Value, k: &str) -> i64 {
    v.get(k).and_then(Value::as_i64).unwrap_or(0)
}

/// The engines, settings, book and chart of a run from its state file.
fn from_state(run: &mut RunRow, state: &Value) -> Vec<PointRow> {
    let cfg = &state["config"];
    let mut engines = Vec::new();
    for k in 0.. {
        let Some(text) = cfg.get(format!("engine{k}")).and_then(Value::as_str) else {
            break;
        };
        let Ok(e) = serde_json::from_str::<Value>(text) else {
            break;
        };
        let pairs = |key: &str| -> Vec<(String, String)> {
            e.get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|p| Some((p[0].as_str()?.to_string(), p[1].as_str()?.to_string())))
                .collect()
        };
        let mut options = pairs("shared_options");
        options.extend(pairs("options"));
        engines.push(EngineRow {
            name: e["name"].as_str().unwrap_or_default().to_string(),
            cmd: e["cmd"].as_str().unwrap_or_default().to_string(),
            args: serde_json::from_value(e["args"].clone()).unwrap_or_default(),
            options,
            ..EngineRow::default()
        });
    }
    if !engines.is_empty() {
        run.engines = engines;
    }
    if let Some(s) = cfg.get("settings").and_then(Value::as_str) {
        if let Ok(s) = serde_json::from_str::<Value>(s) {
            run.limits = s.get("limits").cloned();
            run.adjudication = s.get("adjudication").cloned();
        }
    }
    run.book = cfg.get("book").and_then(Value::as_str).map(String::from);
    run.book_order = cfg.get("order").and_then(Value::as_str).map(String::from);
    run.seed = state.get("seed").map(|s| s.to_string());
    let history: Vec<PointRow> = state
        .get("history")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|p| PointRow {
            games: i(p, "games"),
            llr: run.elo0.and(f(p, "llr")),
            elo: f(p, "elo"),
            elo_error: f(p, "elo_error"),
        })
        .collect();
    thin(&history, MAX_POINTS)
}

/// A run from a JSON summary (`--json`), named `name`.
fn from_summary(v: &Value, name: &str, kind: &str) -> RunRow {
    let mut run = RunRow {
        name: name.to_string(),
        kind: kind.to_string(),
        tc: v.get("tc").and_then(Value::as_str).map(String::from),
        games: i(v, "games"),
        wins: i(v, "wins"),
        draws: i(v, "draws"),
        losses: i(v, "losses"),
        penta: serde_json::from_value(v["pentanomial"].clone()).ok(),
        elo: f(v, "elo"),
        elo_error: f(v, "elo_error"),
        nelo: f(v, "nelo"),
        nelo_error: f(v, "nelo_error"),
        los: f(v, "los"),
        draw_ratio: f(v, "draw_ratio"),
        score: f(v, "score"),
        llr: f(v, "llr"),
        lower: f(v, "lower"),
        upper: f(v, "upper"),
        elo0: f(v, "elo0"),
        elo1: f(v, "elo1"),
        failures: v.get("failures").cloned(),
        elapsed_s: f(v, "elapsed_s"),
        ..RunRow::default()
    };
    if run.elo0.is_some() {
        run.alpha = Some(0.05);
        run.beta = Some(0.05);
        run.model = Some("normalized".into());
    }
    run.status = match v.get("decision").and_then(Value::as_str) {
        Some(d) => d.to_string(),
        None if kind == "sprt" => "stopped".into(),
        None => "complete".into(),
    };
    let names = [v.get("dev"), v.get("base")];
    run.engines = names
        .iter()
        .flatten()
        .filter_map(|n| n.as_str())
        .map(|n| EngineRow {
            name: n.into(),
            ..EngineRow::default()
        })
        .collect();
    if let Some(st) = v.get("standings").and_then(Value::as_array) {
        if !st.is_empty() {
            run.extra = Some(json!({ "standings": st }));
        }
    }
    run
}

/// An ablation table (`table.json`): the parent run and one row a flipped setting.
fn from_table(v: &Value, name: &str, uid: &str) -> Vec<Exported> {
    let mut parent = RunRow {
        uid: uid.to_string(),
        name: name.to_string(),
        kind: "ablate".into(),
        status: "complete".into(),
        tc: v.get("limits").and_then(Value::as_str).map(String::from),
        extra: Some(v.clone()),
        ..RunRow::default()
    };
    let mut out = Vec::new();
    for (k, row) in v["rows"].as_array().into_iter().flatten().enumerate() {
        let pair =
            |key: &str, n: usize| row.get(key).and_then(|x| x.get(n)).and_then(Value::as_f64);
        let wdl = |n: usize| {
            row.get("wdl")
                .and_then(|x| x.get(n))
                .and_then(Value::as_i64)
        };
        let label = row["label"].as_str().unwrap_or("row").to_string();
        let r = RunRow {
            uid: format!("{uid}#{:02}", k + 1),
            parent_uid: Some(uid.to_string()),
            name: label,
            kind: "ablate-row".into(),
            status: row["decision"].as_str().unwrap_or("stopped").to_string(),
            tc: parent.tc.clone(),
            games: i(row, "games"),
            wins: wdl(0).unwrap_or(0),
            draws: wdl(1).unwrap_or(0),
            losses: wdl(2).unwrap_or(0),
            penta: serde_json::from_value(row["penta"].clone()).ok(),
            elo: pair("elo", 0),
            elo_error: pair("elo", 1),
            nelo: pair("nelo", 0),
            nelo_error: pair("nelo", 1),
            llr: f(row, "llr"),
            ..RunRow::default()
        };
        parent.games += r.games;
        out.push(Exported {
            run: r,
            ..Exported::default()
        });
    }
    out.insert(
        0,
        Exported {
            run: parent,
            ..Exported::default()
        },
    );
    out
}

/// An SPSA campaign's checkpoint and log.
fn from_spsa(dir: &Path, cp: &Value, name: &str) -> RunRow {
    let totals = &cp["totals"];
    let mut run = RunRow {
        name: name.to_string(),
        kind: "spsa".into(),
        games: i(totals, "wins") + i(totals, "draws") + i(totals, "losses"),
        wins: i(totals, "wins"),
        draws: i(totals, "draws"),
        losses: i(totals, "losses"),
        penta: serde_json::from_value(totals["penta"].clone()).ok(),
        elapsed_s: f(cp, "elapsed_s"),
        ..RunRow::default()
    };
    let cfg = &cp["config"];
    let done = i(cp, "iterations_done");
    let planned = cfg
        .get("iterations")
        .and_then(Value::as_str)
        .and_then(|s| s.parse::<i64>().ok());
    run.status = if planned.is_some_and(|p| done >= p) {
        "complete".into()
    } else {
        "stopped".into()
    };
    run.seed = cfg.get("seed").and_then(Value::as_str).map(String::from);
    run.extra = Some(json!({
        "campaign": cfg,
        "iterations_done": done,
        "theta": cp.get("theta"),
        "dir": dir.to_string_lossy(),
    }));
    run
}

/// θ per iteration from an SPSA log (`k` and one `<name>` column a parameter, beside its
/// `_delta`, `_c` and `_r` columns).
fn spsa_iterations(log: &Path) -> Vec<IterationRow> {
    let Ok(text) = std::fs::read_to_string(log) else {
        return Vec::new();
    };
    let mut lines = text.lines();
    let Some(head) = lines.next() else {
        return Vec::new();
    };
    let cols: Vec<&str> = head.split(',').collect();
    let params: Vec<(usize, &str)> = cols
        .iter()
        .enumerate()
        .filter(|(_, c)| cols.contains(&format!("{c}_delta").as_str()))
        .map(|(i, c)| (i, *c))
        .collect();
    lines
        .filter_map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            let iter = cells.first()?.parse::<i64>().ok()? + 1;
            let mut theta = Map::new();
            for (i, name) in &params {
                let v: f64 = cells.get(*i)?.parse().ok()?;
                theta.insert((*name).to_string(), json!(v));
            }
            Some(IterationRow { iter, theta })
        })
        .collect()
}

/// Imports every record under `dirs` (paths relative to `top`, the checkout's top).
pub fn import(db: &Db, top: &Path, dirs: &[PathBuf]) -> Result<Imported, DbError> {
    let dates = added_dates(top, dirs);
    let mut files = Vec::new();
    for d in dirs {
        let abs = top.join(d);
        if !abs.is_dir() {
            return Err(DbError::Invalid(format!(
                "{}: not a directory to import from",
                abs.display()
            )));
        }
        walk(&abs, &mut files);
    }
    let mut found = Imported::default();
    let mut runs: Vec<Exported> = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(top).unwrap_or(path);
        let rel_text = rel.to_string_lossy().to_string();
        let fname = path
            .file_name()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if !fname.ends_with(".json") || fname.contains("state") {
            continue;
        }
        let dir = path.parent().unwrap_or(top);
        let dir_name = dir.file_name().and_then(|s| s.to_str()).unwrap_or_default();
        let stem = fname.trim_end_matches(".json");
        let v = match read_json(path) {
            Ok(v) => v,
            Err(e) => {
                found.skipped.push((path.clone(), e));
                continue;
            }
        };
        let uid = format!("legacy:{rel_text}");
        let mut batch: Vec<Exported> = Vec::new();
        if fname == "checkpoint.json" && v.get("theta").is_some() {
            let mut run = from_spsa(dir, &v, dir_name);
            run.uid = uid;
            batch.push(Exported {
                iterations: spsa_iterations(&dir.join("log.csv")),
                run,
                ..Exported::default()
            });
        } else if v.get("rows").is_some_and(Value::is_array) && v.get("limits").is_some() {
            let name = format!("{dir_name}/{stem}");
            batch = from_table(&v, &name, &uid);
        } else if v.get("pentanomial").is_some() && v.get("games").is_some() {
            let in_gauntlets = rel.components().any(|c| c.as_os_str() == "gauntlet");
            let kind = if v.get("elo0").is_some_and(|x| !x.is_null()) {
                "sprt"
            } else if in_gauntlets || fname == "gauntlet.json" {
                "gauntlet"
            } else {
                "match"
            };
            let name = match fname {
                "result.json" | "gauntlet.json" => dir_name.to_string(),
                _ => format!("{dir_name}/{stem}"),
            };
            let mut run = from_summary(&v, &name, kind);
            run.uid = uid;
            let state = match fname {
                "result.json" | "gauntlet.json" => dir.join("state.json"),
                _ => dir.join(format!("{stem}-state.json")),
            };
            let points = read_json(&state)
                .map(|s| from_state(&mut run, &s))
                .unwrap_or_default();
            batch.push(Exported {
                run,
                points,
                ..Exported::default()
            });
        } else {
            found.skipped.push((
                path.clone(),
                "not a run summary (no pentanomial, ablation rows or SPSA θ)".into(),
            ));
            continue;
        }
        for e in &mut batch {
            e.run.source = format!("import:{rel_text}");
            e.run.started_at = dates.get(&rel_text).cloned();
            e.run.ended_at = e.run.started_at.clone();
            e.run.updated_at = e.run.started_at.clone();
            *found.by_kind.entry(e.run.kind.clone()).or_default() += 1;
        }
        runs.extend(batch);
    }
    insert_all(db, &runs)?;
    Ok(found)
}
