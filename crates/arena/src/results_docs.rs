//! The generated result pages: docs/results.md and the README's standing table, rendered from
//! the runs of the committed export, so nobody types a table of figures.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use crate::db::{EngineRow, RunRow};
use crate::results_cmd::{markdown_table, pm};
use crate::state::Tally;
use crate::stats::estimate_penta;

/// One opponent's result in a gauntlet: from the first engine's side.
struct Versus {
    opponent: String,
    games: u64,
    score: Option<f64>,
    elo: Option<f64>,
    elo_error: Option<f64>,
}

fn versus(opponent: &str, t: &Tally) -> Versus {
    let e = estimate_penta(&t.penta);
    Versus {
        opponent: opponent.to_string(),
        games: t.games(),
        score: e.score,
        elo: e.elo,
        elo_error: e.elo_error,
    }
}

/// A tally from a JSON `{wins, draws, losses, penta}` (standings) or an encounter row.
fn tally_of(v: &Value) -> Option<Tally> {
    let t = v.get("tally").unwrap_or(v);
    let n = |k: &str| t.get(k).and_then(Value::as_u64).unwrap_or(0);
    let penta: Vec<u64> = serde_json::from_value(t.get("penta")?.clone()).ok()?;
    Some(Tally {
        wins: n("wins"),
        draws: n("draws"),
        losses: n("losses"),
        penta: penta.try_into().ok()?,
        wl_pairs: n("wl_pairs"),
    })
}

/// The first engine's result against each opponent of a gauntlet run.
fn gauntlet_rows(r: &RunRow) -> Vec<Versus> {
    let extra = r.extra.as_ref();
    if let Some(list) = extra
        .and_then(|x| x.get("encounters"))
        .and_then(Value::as_array)
    {
        return list
            .iter()
            .filter_map(|e| Some(versus(e.get("second")?.as_str()?, &tally_of(e)?)))
            .collect();
    }
    if let Some(list) = extra
        .and_then(|x| x.get("standings"))
        .and_then(Value::as_array)
    {
        // Each opponent's standing is its result against the first engine.
        return list
            .iter()
            .skip(1)
            .filter_map(|s| Some(versus(s.get("name")?.as_str()?, &tally_of(s)?.flipped())))
            .collect();
    }
    let Some(opp) = r.engines.get(1) else {
        return Vec::new();
    };
    let Some(penta) = r.penta.as_ref().and_then(|p| {
        let v: Vec<u64> = p.iter().map(|&n| n.max(0) as u64).collect();
        <[u64; 5]>::try_from(v).ok()
    }) else {
        return Vec::new();
    };
    let t = Tally {
        wins: r.wins as u64,
        draws: r.draws as u64,
        losses: r.losses as u64,
        penta,
        wl_pairs: 0,
    };
    vec![versus(&opp.name, &t)]
}

fn date(r: &RunRow) -> String {
    r.started_at
        .as_deref()
        .and_then(|s| s.get(..10))
        .unwrap_or("")
        .to_string()
}

fn pct(s: Option<f64>) -> String {
    s.map_or("–".into(), |s| format!("{:.1} %", s * 100.0))
}

fn sides(r: &RunRow) -> String {
    let names: Vec<&str> = r.engines.iter().map(|e| e.name.as_str()).collect();
    names.join(" vs ")
}

fn bounds(r: &RunRow) -> String {
    match (r.elo0, r.elo1) {
        (Some(a), Some(b)) => format!("[{a}, {b}]"),
        _ => String::new(),
    }
}

fn llr(r: &RunRow) -> String {
    r.llr.map_or(String::new(), |l| format!("{l:.2}"))
}

/// An engine's UCI option `name` as recorded (names compared as UCI does, ignoring case).
fn option<'a>(e: &'a EngineRow, name: &str) -> Option<&'a str> {
    (e.options.iter().rev())
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// The `UCI_Elo` an engine played at, when `UCI_LimitStrength` was on.
fn limited_elo(e: &EngineRow) -> Option<f64> {
    let on = option(e, "UCI_LimitStrength").is_some_and(|v| v.eq_ignore_ascii_case("true"));
    on.then(|| option(e, "UCI_Elo")?.parse().ok()).flatten()
}

/// The `Skill Level` an engine played at, when it was below the full 20.
fn skill_level(e: &EngineRow) -> Option<u32> {
    option(e, "Skill Level")?.parse().ok().filter(|&l| l < 20)
}

/// Whether any engine of the run played at a limited strength (such runs are calibration, not
/// standing).
fn any_limited(r: &RunRow) -> bool {
    (r.engines.iter()).any(|e| limited_elo(e).is_some() || skill_level(e).is_some())
}

/// The name every calibration gauntlet's run name starts with.
pub const CALIBRATION_PREFIX: &str = "strength calibration";

/// The limited-strength calibration (docs/engine.md#limited-strength): for each gauntlet run
/// named `strength calibration…`, the first engine's setting (`Skill Level` or `UCI_Elo`)
/// against each opponent playing at a `UCI_Elo`, the Elo difference, and the Elo it implies
/// on the opponents' scale (the opponent's `UCI_Elo` plus the difference); then per setting
/// the inverse-variance mean of those implied Elos over its opponents.
pub fn calibration(runs: &[RunRow]) -> String {
    let mut rows = Vec::new();
    // setting → (Σ w·elo, Σ w, games)
    let mut combined: BTreeMap<(u8, i64), (f64, f64, u64, String)> = BTreeMap::new();
    let mut cal: Vec<&RunRow> = runs
        .iter()
        .filter(|r| r.kind == "gauntlet" && r.name.starts_with(CALIBRATION_PREFIX))
        .collect();
    cal.sort_by(|a, b| (&a.started_at, &a.uid).cmp(&(&b.started_at, &b.uid)));
    for r in cal {
        let Some(first) = r.engines.first() else {
            continue;
        };
        let (key, setting) = match (skill_level(first), limited_elo(first)) {
            (_, Some(elo)) => ((1, elo as i64), format!("UCI_Elo {elo}")),
            (Some(l), None) => ((0, i64::from(l)), format!("Skill Level {l}")),
            (None, None) => continue,
        };
        for v in gauntlet_rows(r) {
            let Some(opp) = r.engines.iter().find(|e| e.name == v.opponent) else {
                continue;
            };
            let Some(opp_elo) = limited_elo(opp) else {
                continue;
            };
            let implied = v.elo.filter(|e| e.is_finite()).map(|e| opp_elo + e);
            let err = v.elo_error.filter(|e| e.is_finite() && *e > 0.0);
            if let (Some(i), Some(e)) = (implied, err) {
                let w = 1.0 / (e * e);
                let c = combined
                    .entry(key)
                    .or_insert((0.0, 0.0, 0, setting.clone()));
                c.0 += w * i;
                c.1 += w;
                c.2 += v.games;
            }
            rows.push(vec![
                setting.clone(),
                v.opponent.clone(),
                format!("{opp_elo}"),
                r.tc.clone().unwrap_or_default(),
                v.games.to_string(),
                pct(v.score),
                pm(v.elo, v.elo_error),
                pm(implied, err),
            ]);
        }
    }
    let mut out = markdown_table(
        &[
            "Clio",
            "opponent",
            "its UCI_Elo",
            "tc",
            "games",
            "score",
            "Elo ± 95 %",
            "implied Elo",
        ],
        &rows,
        &[false, false, true, false, true, true, true, true],
    );
    out.push('\n');
    let rows: Vec<Vec<String>> = combined
        .values()
        .map(|(sum, w, games, setting)| {
            vec![
                setting.clone(),
                games.to_string(),
                pm(Some(sum / w), Some(w.sqrt().recip())),
            ]
        })
        .collect();
    out.push_str(&markdown_table(
        &["Clio", "games", "Elo on Stockfish's UCI_Elo scale ± 95 %"],
        &rows,
        &[false, true, true],
    ));
    out
}

/// A run's first engine (the one a gauntlet measures): its name and its bench signature (`–`
/// where none was recorded), which say which build played.
fn first_engine(r: &RunRow) -> (String, String) {
    let first = r.engines.first();
    let name = first.map_or(String::new(), |e| e.name.clone());
    let bench = (first.and_then(|e| e.bench)).map_or("–".to_string(), |b| b.to_string());
    (name, bench)
}

/// The README's standing table: each opponent's newest gauntlet result at full strength.
pub fn standing(runs: &[RunRow]) -> String {
    // Per opponent, the newest gauntlet's row: the first engine's name and bench signature
    // (which build played), the clock, the date and the tally.
    type Row = (String, String, String, String, Versus);
    let mut newest: BTreeMap<String, Row> = BTreeMap::new();
    let mut gauntlets: Vec<&RunRow> = (runs.iter())
        .filter(|r| r.kind == "gauntlet" && !any_limited(r))
        .collect();
    gauntlets.sort_by(|a, b| (&a.started_at, &a.uid).cmp(&(&b.started_at, &b.uid)));
    for r in gauntlets {
        let (name, bench) = first_engine(r);
        for v in gauntlet_rows(r) {
            if v.games == 0 {
                continue;
            }
            let key = v.opponent.clone();
            newest.insert(
                key,
                (
                    name.clone(),
                    bench.clone(),
                    r.tc.clone().unwrap_or_default(),
                    date(r),
                    v,
                ),
            );
        }
    }
    let rows: Vec<Vec<String>> = newest
        .values()
        .map(|(first, bench, tc, date, v)| {
            vec![
                first.clone(),
                bench.clone(),
                v.opponent.clone(),
                tc.clone(),
                v.games.to_string(),
                pct(v.score),
                pm(v.elo, v.elo_error),
                date.clone(),
            ]
        })
        .collect();
    let sprts: Vec<&RunRow> = runs.iter().filter(|r| r.kind == "sprt").collect();
    let h1 = sprts.iter().filter(|r| r.status == "H1").count();
    let h0 = sprts.iter().filter(|r| r.status == "H0").count();
    let mut out = markdown_table(
        &[
            "engine",
            "bench",
            "opponent",
            "tc",
            "games",
            "score",
            "Elo ± 95 %",
            "date",
        ],
        &rows,
        &[false, true, false, false, true, true, true, false],
    );
    let _ = writeln!(
        out,
        "\n{} SPRTs recorded ({h1} H1, {h0} H0, {} without a decision); every run is in \
         [docs/results.md](docs/results.md).",
        sprts.len(),
        sprts.len() - h1 - h0
    );
    out
}

/// docs/results.md: every recorded run, by kind, newest first.
pub fn results_page(runs: &[RunRow], export: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Results\n\nEvery run the lab has recorded, generated by `arena results docs` from \
         `{export}` (the committed export of the results database); do not edit by hand. \
         `arena results` queries the same runs, `arena serve` shows them in a browser.\n"
    );
    let of = |k: &str| -> Vec<&RunRow> { runs.iter().filter(|r| r.kind == k).collect() };
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for r in runs {
        *kinds.entry(r.kind.as_str()).or_default() += 1;
    }
    let counts: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let _ = writeln!(out, "{} runs: {}.\n", runs.len(), counts.join(", "));

    let _ = writeln!(out, "## SPRTs\n");
    let rows: Vec<Vec<String>> = of("sprt")
        .iter()
        .map(|r| {
            vec![
                date(r),
                r.name.clone(),
                sides(r),
                r.tc.clone().unwrap_or_default(),
                bounds(r),
                r.games.to_string(),
                pm(r.elo, r.elo_error),
                pm(r.nelo, r.nelo_error),
                llr(r),
                r.status.clone(),
            ]
        })
        .collect();
    out.push_str(&markdown_table(
        &[
            "date",
            "name",
            "dev vs base",
            "tc",
            "nElo bounds",
            "games",
            "Elo ± 95 %",
            "nElo ± 95 %",
            "LLR",
            "verdict",
        ],
        &rows,
        &[
            false, false, false, false, false, true, true, true, true, false,
        ],
    ));

    let _ = writeln!(out, "\n## Gauntlets\n");
    let mut rows = Vec::new();
    for r in of("gauntlet") {
        let (name, bench) = first_engine(r);
        for v in gauntlet_rows(r) {
            rows.push(vec![
                date(r),
                r.name.clone(),
                name.clone(),
                bench.clone(),
                v.opponent.clone(),
                r.tc.clone().unwrap_or_default(),
                v.games.to_string(),
                pct(v.score),
                pm(v.elo, v.elo_error),
            ]);
        }
    }
    out.push_str(&markdown_table(
        &[
            "date",
            "name",
            "engine",
            "bench",
            "opponent",
            "tc",
            "games",
            "score",
            "Elo ± 95 %",
        ],
        &rows,
        &[false, false, false, true, false, false, true, true, true],
    ));

    let _ = writeln!(out, "\n## Matches\n");
    let rows: Vec<Vec<String>> = of("match")
        .iter()
        .map(|r| {
            vec![
                date(r),
                r.name.clone(),
                sides(r),
                r.tc.clone().unwrap_or_default(),
                r.games.to_string(),
                pct(r.score),
                pm(r.elo, r.elo_error),
            ]
        })
        .collect();
    out.push_str(&markdown_table(
        &[
            "date",
            "name",
            "engines",
            "tc",
            "games",
            "score",
            "Elo ± 95 %",
        ],
        &rows,
        &[false, false, false, false, true, true, true],
    ));

    let _ = writeln!(out, "\n## Ablation\n");
    for parent in of("ablate") {
        let _ = writeln!(
            out,
            "### {} ({}, {})\n",
            parent.name,
            parent.tc.clone().unwrap_or_default(),
            date(parent)
        );
        let rows: Vec<Vec<String>> = runs
            .iter()
            .filter(|r| r.parent_uid.as_deref() == Some(parent.uid.as_str()))
            .rev()
            .map(|r| {
                vec![
                    r.name.clone(),
                    r.games.to_string(),
                    pm(r.elo, r.elo_error),
                    pm(r.nelo, r.nelo_error),
                    llr(r),
                    r.status.clone(),
                ]
            })
            .collect();
        out.push_str(&markdown_table(
            &[
                "flipped in base",
                "games",
                "Elo ± 95 %",
                "nElo ± 95 %",
                "LLR",
                "verdict",
            ],
            &rows,
            &[false, true, true, true, true, false],
        ));
        out.push('\n');
    }

    let _ = writeln!(out, "## SPSA\n");
    let rows: Vec<Vec<String>> = of("spsa")
        .iter()
        .map(|r| {
            let extra = r.extra.as_ref();
            let done = extra
                .and_then(|x| x.get("iterations_done"))
                .map_or(String::new(), Value::to_string);
            vec![
                date(r),
                r.name.clone(),
                done,
                r.games.to_string(),
                r.status.clone(),
            ]
        })
        .collect();
    out.push_str(&markdown_table(
        &["date", "campaign", "iterations", "games", "status"],
        &rows,
        &[false, false, true, true, false],
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn engine(name: &str, options: &[(&str, &str)]) -> EngineRow {
        EngineRow {
            name: name.into(),
            cmd: name.into(),
            options: (options.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..EngineRow::default()
        }
    }

    /// A gauntlet of `first` against one opponent with these pentanomial pair counts.
    fn gauntlet(name: &str, first: EngineRow, opp: EngineRow, penta: [u64; 5]) -> RunRow {
        let pairs: u64 = penta.iter().sum();
        let points: u64 = penta.iter().enumerate().map(|(i, n)| i as u64 * n).sum();
        RunRow {
            uid: name.into(),
            name: name.into(),
            kind: "gauntlet".into(),
            status: "complete".into(),
            started_at: Some("2026-12-07T08:00:00Z".into()),
            tc: Some("5+0.05".into()),
            extra: Some(json!({"encounters": [{
                "first": first.name, "second": opp.name,
                "tally": {"wins": points.min(2 * pairs), "draws": 0,
                          "losses": 2 * pairs - points.min(2 * pairs), "penta": penta}
            }]})),
            engines: vec![first, opp],
            ..RunRow::default()
        }
    }

    #[test]
    fn limited_runs_fill_the_calibration_and_stay_out_of_the_standing() {
        let sf = |elo: &str| {
            engine(
                &format!("sf-elo{elo}"),
                &[("UCI_LimitStrength", "true"), ("UCI_Elo", elo)],
            )
        };
        let skill = engine("clio-skill4", &[("Skill Level", "4")]);
        let full = EngineRow {
            bench: Some(651311),
            ..engine("clio", &[("Threads", "1")])
        };
        let runs = vec![
            // An even score against UCI_Elo 1600: level 4 is 1600.
            gauntlet(
                "strength calibration: Skill Level 4",
                skill.clone(),
                sf("1600"),
                [1, 2, 4, 2, 1],
            ),
            gauntlet("standing", full, engine("ethereal", &[]), [0, 0, 1, 4, 5]),
        ];
        let table = calibration(&runs);
        assert!(
            table.contains("| Skill Level 4 | sf-elo1600 | 1600 | 5+0.05 | 20 | 50.0 % |"),
            "{table}"
        );
        assert!(
            table.contains("| Skill Level 4 | 20 | 1600.00 ± "),
            "{table}"
        );
        let table = standing(&runs);
        // The row names the build that played by its bench signature.
        assert!(
            table.contains("| clio | 651311 | ethereal | 5+0.05 | 20 | 85.0 % |"),
            "{table}"
        );
        assert!(!table.contains("sf-elo1600"), "{table}");
        // Limited, but not named as calibration: in neither table.
        let other = vec![gauntlet("casual", skill, sf("1600"), [1, 2, 4, 2, 1])];
        assert!(!calibration(&other).contains("sf-elo1600"));
        assert!(!standing(&other).contains("sf-elo1600"));
    }
}
