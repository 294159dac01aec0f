//! A short real SPRT: stockfish at 2000 nodes against stockfish at 200 nodes (dev has ten times
//! the nodes, hundreds of Elo), wide bounds, so H1 is accepted within a few dozen games.

mod runner_common;

use runner_common::*;

#[test]
fn a_much_stronger_dev_is_accepted_as_h1() {
    let Some(sf) = stockfish() else { return };
    let dir = scratch("sprt");
    let json = dir.join("summary.json");
    let plot = dir.join("chart.svg");
    // Per-side node limits: dev and base share the limit flags, so base is handicapped with a
    // skill level instead of fewer nodes.
    let out = arena()
        .args(["sprt", "--dev-cmd", &sf, "--base-cmd", &sf])
        .args(["--dev-name", "sf-full", "--base-name", "sf-weak"])
        .args(["--option", "Threads=1", "--base-option", "Skill Level=0"])
        .args(["--nodes", "2000", "--maxmoves", "80", "--concurrency", "2"])
        .args(["--openings", &seed_book(), "--seed", "1"])
        .args([
            "--elo0", "0", "--elo1", "150", "--alpha", "0.1", "--beta", "0.1",
        ])
        .args(["--max-games", "400"])
        .arg("--json")
        .arg(&json)
        .arg("--plot")
        .arg(&plot)
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    assert!(
        o.contains("SPRT ([0.00, 150.00]) completed - H1 was accepted"),
        "{o}"
    );
    assert!(
        o.contains("Results of sf-full vs sf-weak (2000 nodes, 1t, 16MB, seed.epd):"),
        "{o}"
    );
    assert!(o.trim_end().ends_with("Finished match"));
    let (games, w, l, d) = games_line(&o);
    assert_eq!(w + l + d, games);
    assert!(w > l, "{o}");
    let p = ptnml(&o);
    assert_eq!(p.iter().sum::<u64>() * 2, games);
    let llr_line = o.lines().rev().find(|l| l.starts_with("LLR: ")).unwrap();
    assert!(
        llr_line.ends_with("(-2.20, 2.20) [0.00, 150.00]"),
        "{llr_line}"
    );

    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["decision"], "H1");
    assert_eq!(v["games"], games);
    assert_eq!(v["pentanomial"], serde_json::json!(p));
    assert!(v["llr"].as_f64().unwrap() >= v["upper"].as_f64().unwrap());
    assert!(v["score"].as_f64().unwrap() > 0.5, "{v}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("LLR") && svg.trim_end().ends_with("</svg>"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Clio against itself with every history heuristic switched off by UCI options (the same
/// handicap `make sprt` uses), at a node limit from the shipped balanced book: H1 accepted.
#[test]
fn clio_against_clio_without_history_is_accepted_as_h1() {
    let Some(clio) = clio_release() else { return };
    let book = root().join("openings/clio-balanced.epd");
    let mut cmd = arena();
    cmd.args(["sprt", "--dev-cmd", &clio, "--base-cmd", &clio])
        .args(["--dev-name", "clio", "--base-name", "clio-nohistory"]);
    for switch in [
        "UseHistory",
        "UseMalus",
        "UseKillers",
        "UseCountermove",
        "UseContHist1",
        "UseContHist2",
        "UseContHist3",
        "UseContHist4",
        "UseContHist6",
        "UseCaptureHistory",
        "UseHistoryLmr",
        "UseHistoryPruning",
    ] {
        cmd.args(["--base-option", &format!("{switch}=false")]);
    }
    let out = cmd
        .args(["--nodes", "3000", "--maxmoves", "100", "--concurrency", "2"])
        .args(["--resign", "movecount=3,score=600"])
        .arg("--openings")
        .arg(&book)
        .args(["--order", "random", "--seed", "5"])
        .args(["--elo0", "0", "--elo1", "40", "--max-games", "600"])
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    assert!(
        o.contains("SPRT ([0.00, 40.00]) completed - H1 was accepted"),
        "{o}"
    );
    let (games, w, l, d) = games_line(&o);
    assert_eq!(w + l + d, games);
    assert!(w > l, "{o}");
    assert_eq!(ptnml(&o).iter().sum::<u64>() * 2, games);
}
