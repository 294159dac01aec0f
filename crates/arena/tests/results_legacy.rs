//! The imported history against the prose it replaces: every SPRT and gauntlet the old README
//! and STRENGTH-LOG named with figures (tests/data/legacy-*.tsv, copied from the prose as it
//! was typed) is a run of the committed export, results/runs.jsonl, with the same games and,
//! within the prose's rounding, the same Elo, error and LLR. The import itself is counted, and
//! `arena results docs --check` says the generated pages are current.

mod runner_common;

use std::collections::{BTreeMap, HashMap};

use runner_common::*;
use serde_json::Value;

/// The export's runs by uid.
fn export() -> HashMap<String, Value> {
    let text = std::fs::read_to_string(root().join("results/runs.jsonl")).unwrap();
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["uid"].as_str().unwrap().to_string(), v)
        })
        .collect()
}

/// A fixture's rows as maps from column to cell.
fn fixture(name: &str) -> Vec<BTreeMap<String, String>> {
    let path = root().join("crates/arena/tests/data").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            head.iter()
                .zip(l.split('\t').chain(std::iter::repeat("")))
                .map(|(h, c)| (h.to_string(), c.to_string()))
                .collect()
        })
        .collect()
}

/// Whether the JSON value `v` is what the prose typed as `typed` (same decimals): within half
/// a unit of its last digit, plus 0.001.
fn agrees(v: f64, typed: &str) -> bool {
    let t = typed.trim_start_matches('+');
    let x: f64 = t.parse().unwrap_or_else(|_| panic!("bad figure {typed:?}"));
    let decimals = t.split('.').nth(1).map_or(0, str::len) as i32;
    (v - x).abs() <= 0.5 * 10f64.powi(-decimals) + 0.001
}

fn check(what: &str, row: &BTreeMap<String, String>, col: &str, v: Option<f64>) {
    let typed = &row[col];
    if typed.is_empty() {
        return;
    }
    let v = v.unwrap_or_else(|| panic!("{what}: no {col} in the export (prose {typed})"));
    assert!(
        agrees(v, typed),
        "{what} ({}): {col} is {v} in the export, {typed} in the prose",
        row["source"]
    );
}

#[test]
fn every_sprt_the_prose_named_is_imported_with_its_figures() {
    let runs = export();
    let rows = fixture("legacy-sprts.tsv");
    assert!(rows.len() >= 200, "{} rows", rows.len());
    for row in &rows {
        let uid = format!("legacy:{}", row["path"]);
        let r = runs
            .get(&uid)
            .unwrap_or_else(|| panic!("{uid} ({}) is not in the export", row["source"]));
        assert_eq!(r["kind"], "sprt", "{uid}");
        if let Ok(games) = row["games"].parse::<u64>() {
            assert_eq!(
                r["games"].as_u64(),
                Some(games),
                "{uid} ({})",
                row["source"]
            );
        }
        check(&uid, row, "elo", r["elo"].as_f64());
        check(&uid, row, "elo_error", r["elo_error"].as_f64());
        check(&uid, row, "llr", r["llr"].as_f64());
        if let v @ ("H0" | "H1") = row["verdict"].as_str() {
            assert_eq!(r["status"], v, "{uid} ({})", row["source"]);
        }
    }
}

/// Clio's score and Elo against `opponent` of a gauntlet run: the run's own figures when the
/// opponent is its second engine, else from the opponent's standing (its games are all
/// against the first engine).
fn versus(r: &Value, opponent: &str) -> (u64, f64, Option<f64>, Option<f64>) {
    if r["engines"][1]["name"] == opponent {
        let games = r["games"].as_u64().unwrap();
        let score = r["score"].as_f64().unwrap();
        return (games, score, r["elo"].as_f64(), r["elo_error"].as_f64());
    }
    let s = r["extra"]["standings"]
        .as_array()
        .and_then(|l| l.iter().find(|s| s["name"] == opponent))
        .unwrap_or_else(|| panic!("no standing of {opponent} in {}", r["uid"]));
    let t = &s["tally"];
    let n = |k: &str| t[k].as_u64().unwrap();
    let games = n("wins") + n("draws") + n("losses");
    let score = (n("losses") as f64 + n("draws") as f64 / 2.0) / games as f64;
    let elo = (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10());
    (games, score, elo, None)
}

#[test]
fn every_gauntlet_the_prose_named_is_imported_with_its_figures() {
    let runs = export();
    let rows = fixture("legacy-gauntlets.tsv");
    assert!(rows.len() >= 50, "{} rows", rows.len());
    for row in &rows {
        let uid = format!("legacy:{}", row["path"]);
        let r = runs
            .get(&uid)
            .unwrap_or_else(|| panic!("{uid} ({}) is not in the export", row["source"]));
        let (games, score, elo, err) = versus(r, &row["opponent"]);
        let what = format!("{uid} against {}", row["opponent"]);
        assert_eq!(games, row["games"].parse::<u64>().unwrap(), "{what}");
        check(&what, row, "score_pct", Some(score * 100.0));
        check(&what, row, "elo", elo);
        if err.is_some() {
            check(&what, row, "elo_error", err);
        }
    }
}

#[test]
fn the_prose_figures_without_a_summary_say_why() {
    let rows = fixture("legacy-sprts-missing.tsv");
    for row in &rows {
        assert!(!row["why"].is_empty(), "{row:?}");
        assert!(!row["games"].is_empty(), "{row:?}");
    }
}

#[test]
fn the_import_holds_every_committed_summary() {
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    for r in export().values() {
        if r["uid"].as_str().unwrap().starts_with("legacy:") {
            *by_kind
                .entry(r["kind"].as_str().unwrap().to_string())
                .or_default() += 1;
        }
    }
    assert!(by_kind["sprt"] >= 200, "{by_kind:?}");
    assert!(by_kind["gauntlet"] >= 50, "{by_kind:?}");
    assert!(by_kind["spsa"] >= 10, "{by_kind:?}");
    assert!(
        by_kind["ablate"] >= 3 && by_kind["ablate-row"] >= 50,
        "{by_kind:?}"
    );
    // Importing the committed summaries again gives the same runs, kind by kind; every JSON
    // file that is not a run is named with the reason it was skipped.
    let dir = scratch("legacy-import");
    let db = dir.join("legacy.sqlite");
    let out = arena()
        .args(["results", "import-legacy", "results", "tuning/results"])
        .arg("--db")
        .arg(&db)
        .current_dir(root())
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    let line = e
        .lines()
        .find(|l| l.contains("runs imported into"))
        .unwrap_or_else(|| panic!("{e}"));
    let n: usize = line["arena: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(n, by_kind.values().sum::<usize>(), "{line}");
    for (kind, count) in &by_kind {
        assert!(line.contains(&format!("{count} {kind}")), "{kind}: {line}");
    }
    let mut summaries = 0;
    let mut stack = vec![root().join("results"), root().join("tuning/results")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = entry.path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                stack.push(p);
            } else if name.ends_with(".json") && !name.contains("state") {
                summaries += 1;
            }
        }
    }
    let skipped = e
        .lines()
        .filter(|l| l.starts_with("arena: skipped "))
        .count();
    assert_eq!(
        n - by_kind["ablate-row"] + skipped,
        summaries,
        "every summary is a run or skipped by name:\n{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_generated_result_pages_are_current() {
    let out = arena()
        .args(["results", "docs", "--check"])
        .current_dir(root())
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(
        out.status.success(),
        "docs/results.md or the README's standing table is stale: run `arena results docs`\n{o}\n{e}"
    );
}
