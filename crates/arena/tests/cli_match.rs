//! `arena gauntlet` and `arena match` with Debian's stockfish at different skill levels: the
//! "engine vs Stockfish skill N" table is one command.

mod runner_common;

use runner_common::*;

/// The standings rows: name -> (games, W, L, D).
fn rows(out: &str) -> Vec<(String, u64, u64, u64, u64)> {
    let start = out.find("Rank Name").expect("standings table");
    out[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("Player:"))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| w[i].parse::<u64>().unwrap();
            (w[1].to_string(), n(4), n(5), n(6), n(7))
        })
        .collect()
}

#[test]
fn a_gauntlet_against_skill_levels_prints_the_table() {
    let Some(sf) = stockfish() else { return };
    let dir = scratch("gauntlet");
    let json = dir.join("g.json");
    let out = arena()
        .args(["gauntlet", "--engine", "name=sf", &format!("cmd={sf}")])
        .args([
            "--engine",
            "name=skill0",
            &format!("cmd={sf}"),
            "option.Skill Level=0",
        ])
        .args([
            "--engine",
            "name=skill2",
            &format!("cmd={sf}"),
            "option.Skill Level=2",
        ])
        .args(["--option", "Threads=1", "--nodes", "1500", "--rounds", "2"])
        .args([
            "--openings",
            &seed_book(),
            "--seed",
            "4",
            "--maxmoves",
            "80",
        ])
        .args(["--concurrency", "2", "--rating-interval", "0"])
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    let r = rows(&o);
    assert_eq!(r.len(), 3, "{o}");
    for (name, games, w, l, d) in &r {
        assert_eq!(w + l + d, *games, "{name}");
        let expected = if name == "sf" { 8 } else { 4 };
        assert_eq!(*games, expected, "{name}: {o}");
    }
    assert!(o.contains("Results of sf vs skill0"), "{o}");
    assert!(o.contains("Results of sf vs skill2"), "{o}");
    assert!(
        !o.contains("Results of skill0 vs skill2"),
        "a gauntlet has no such encounter"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["standings"].as_array().unwrap().len(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_round_robin_plays_every_encounter() {
    let Some(sf) = stockfish() else { return };
    let out = arena()
        .args(["match", "--engine", "name=a", &format!("cmd={sf}")])
        .args([
            "--engine",
            "name=b",
            &format!("cmd={sf}"),
            "option.Skill Level=1",
        ])
        .args([
            "--engine",
            "name=c",
            &format!("cmd={sf}"),
            "option.Skill Level=2",
        ])
        .args(["--option", "Threads=1", "--depth", "3", "--games", "2"])
        .args(["--maxmoves", "40", "--rating-interval", "0"])
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    for pair in ["a vs b", "a vs c", "b vs c"] {
        assert!(
            o.contains(&format!("Results of {pair} (3 plies")),
            "{pair}: {o}"
        );
    }
    let started = o.lines().filter(|l| l.starts_with("Started game")).count();
    assert_eq!(started, 6);
    let r = rows(&o);
    assert_eq!(
        r.iter().map(|x| x.1).sum::<u64>(),
        12,
        "each game counts for two engines"
    );
}

#[test]
fn engine_specs_are_checked() {
    let out = arena()
        .args([
            "match", "--engine", "name=a", "cmd=x", "--engine", "name=a", "cmd=y",
        ])
        .args(["--nodes", "10"])
        .output()
        .unwrap();
    let (_, e) = texts(&out);
    assert!(!out.status.success());
    assert!(e.contains("\"a\""), "{e}");
    let out = arena()
        .args([
            "match",
            "--engine",
            "name=a",
            "cmd=x",
            "--engine",
            "name=b",
            "color=red",
        ])
        .args(["--nodes", "10"])
        .output()
        .unwrap();
    let (_, e) = texts(&out);
    assert!(!out.status.success());
    assert!(e.contains("color"), "{e}");
}

/// A gauntlet's engines differ in their options: one given to every engine (`--option`) that an
/// engine lacks is skipped for it with one warning naming both (as fastchess and cutechess do
/// for `-each`), the engines that have it get it, and the header shows what each engine runs
/// with. The same option given to one engine (`option.NAME=`) is still an error.
#[test]
fn a_shared_option_an_engine_lacks_is_skipped_with_a_warning() {
    let Some(clio) = clio_release() else { return };
    let Some(sf) = stockfish() else { return };
    let out = arena()
        .args(["gauntlet", "--engine", "name=clio", &format!("cmd={clio}")])
        .args(["--engine", "name=sf", &format!("cmd={sf}")])
        .args(["--option", "Threads=1", "--option", "Hash=16"])
        .args([
            "--option",
            "UseMalus=false",
            "--nodes",
            "2000",
            "--rounds",
            "2",
        ])
        .args([
            "--maxmoves",
            "40",
            "--concurrency",
            "2",
            "--rating-interval",
            "0",
        ])
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    let warning = "Warning: engine sf has no UCI option \"UseMalus\"";
    assert_eq!(
        e.matches(warning).count(),
        1,
        "one warning for the run: {e}"
    );
    assert!(!e.contains("engine clio has no UCI option"), "{e}");
    assert!(
        o.contains("Results of clio vs sf (2000 nodes, 1t, 16MB"),
        "{o}"
    );
    assert_eq!(games_line(&o).0, 4, "{o}");

    let out = arena()
        .args(["gauntlet", "--engine", "name=clio", &format!("cmd={clio}")])
        .args([
            "--engine",
            "name=sf",
            &format!("cmd={sf}"),
            "option.UseMalus=false",
        ])
        .args(["--nodes", "2000", "--rounds", "1"])
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(!out.status.success(), "{o}");
    assert!(e.contains("no such UCI option \"UseMalus\""), "{e}");
}
