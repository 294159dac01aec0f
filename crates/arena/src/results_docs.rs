//! The generated result pages: docs/results.md and the README's standing table, rendered from
//! the runs of the committed export, so nobody types a table of figures.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use crate::db::RunRow;
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

/// The README's standing table: each opponent's newest gauntlet result.
pub fn standing(runs: &[RunRow]) -> String {
    let mut newest: BTreeMap<String, (String, String, String, Versus)> = BTreeMap::new();
    let mut gauntlets: Vec<&RunRow> = runs.iter().filter(|r| r.kind == "gauntlet").collect();
    gauntlets.sort_by(|a, b| (&a.started_at, &a.uid).cmp(&(&b.started_at, &b.uid)));
    for r in gauntlets {
        let first = r.engines.first().map_or(String::new(), |e| e.name.clone());
        for v in gauntlet_rows(r) {
            if v.games == 0 {
                continue;
            }
            let key = v.opponent.clone();
            newest.insert(
                key,
                (first.clone(), r.tc.clone().unwrap_or_default(), date(r), v),
            );
        }
    }
    let rows: Vec<Vec<String>> = newest
        .values()
        .map(|(first, tc, date, v)| {
            vec![
                first.clone(),
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
            "opponent",
            "tc",
            "games",
            "score",
            "Elo ± 95 %",
            "date",
        ],
        &rows,
        &[false, false, false, true, true, true, false],
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
        let first = r.engines.first().map_or(String::new(), |e| e.name.clone());
        for v in gauntlet_rows(r) {
            rows.push(vec![
                date(r),
                r.name.clone(),
                first.clone(),
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
            "opponent",
            "tc",
            "games",
            "score",
            "Elo ± 95 %",
        ],
        &rows,
        &[false, false, false, false, false, true, true, true],
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
