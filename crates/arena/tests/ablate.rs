//! `arena ablate` through the real binary on the real engine: two rows (one switch, and a
//! labelled row of several), each an SPRT of clio's defaults against clio with the row's
//! setting flipped, stopped at a tiny per-row cap. Raising the cap and running the same command
//! again resumes every row where it stopped: the per-row PGNs then hold exactly the new cap's
//! games, none replayed or lost, and the Markdown, JSON and SVG agree with the counts.

mod runner_common;

use runner_common::*;

fn ablate(clio: &str, dir: &std::path::Path, row_games: u64) -> String {
    let out = arena()
        .args(["ablate", "--engine-cmd", clio])
        .args(["--flip", "UseMalus=false"])
        .args([
            "--flip",
            "no killers or countermove:UseKillers=false,UseCountermove=false",
        ])
        .args(["--row-games", &row_games.to_string()])
        .args(["--nodes", "1500", "--concurrency", "2", "--seed", "3"])
        .arg("--openings")
        .arg(root().join("openings/clio-uho.epd"))
        .arg("--state")
        .arg(dir.join("ablate.json"))
        .arg("--pgn")
        .arg(dir.join("games.pgn"))
        .arg("--markdown")
        .arg(dir.join("table.md"))
        .arg("--json")
        .arg(dir.join("table.json"))
        .arg("--plot")
        .arg(dir.join("table.svg"))
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    o
}

fn games_in(pgn: &std::path::Path) -> usize {
    std::fs::read_to_string(pgn)
        .unwrap()
        .matches("[Result ")
        .count()
}

#[test]
fn every_row_is_an_sprt_and_the_table_resumes() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("ablate");
    let o = ablate(&clio, &dir, 2);
    assert!(o.contains("Row 1 of 2: UseMalus=false"), "{o}");
    assert!(o.contains("Row 2 of 2: no killers or countermove"), "{o}");
    assert_eq!(games_in(&dir.join("games-row01.pgn")), 2);
    assert_eq!(games_in(&dir.join("games-row02.pgn")), 2);

    let o = ablate(&clio, &dir, 6);
    assert_eq!(games_in(&dir.join("games-row01.pgn")), 6, "{o}");
    assert_eq!(games_in(&dir.join("games-row02.pgn")), 6, "{o}");
    let md = std::fs::read_to_string(dir.join("table.md")).unwrap();
    assert!(md.contains("| UseMalus=false | 6 |"), "{md}");
    assert!(md.contains("| no killers or countermove | 6 |"), "{md}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("table.json")).unwrap()).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for row in rows {
        let wdl: u64 = row["wdl"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        let penta: u64 = row["penta"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(
            (row["games"].as_u64(), wdl, penta * 2),
            (Some(6), 6, 6),
            "{row}"
        );
    }
    let svg = std::fs::read_to_string(dir.join("table.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_flip_is_refused_before_any_game() {
    let out = arena()
        .args([
            "ablate",
            "--engine-cmd",
            "/nonexistent/engine",
            "--flip",
            "UseMalus",
        ])
        .args(["--nodes", "100", "--state", "/tmp/clio-ablate-never.json"])
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{o}\n{e}");
    assert!(e.contains("--flip \"UseMalus\""), "{e}");
}
