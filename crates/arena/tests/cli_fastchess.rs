//! fastchess's spellings: each command of the mapping table in docs/arena.md, written once in
//! fastchess's form and once in arena's, must resolve to the same plan (`--dry-run`), and the
//! fastchess form must play.

mod runner_common;

use runner_common::*;

/// The `--dry-run` plan of a command line, or the failure's stderr.
fn plan(args: &[&str]) -> Result<serde_json::Value, String> {
    let out = arena().args(args).arg("--dry-run").output().expect("arena");
    let (stdout, stderr) = texts(&out);
    if !out.status.success() {
        return Err(stderr);
    }
    serde_json::from_str(&stdout).map_err(|e| format!("{e}: {stdout}"))
}

fn same(fastchess: &[&str], arena_form: &[&str]) {
    let a = plan(fastchess).unwrap_or_else(|e| panic!("fastchess form {fastchess:?}: {e}"));
    let b = plan(arena_form).unwrap_or_else(|e| panic!("arena form {arena_form:?}: {e}"));
    assert_eq!(a, b, "{fastchess:?} and {arena_form:?} plan different runs");
}

#[test]
#[rustfmt::skip]
fn an_sprt_in_fastchess_form_plans_the_arena_sprt() {
    let book = seed_book();
    let openings = format!("file={book}");
    same(
        &[
            "-engine", "cmd=./dev-engine", "name=dev", "option.Hash=32",
            "-engine", "cmd=./base-engine", "name=base",
            "-each", "tc=8+0.08", "option.Threads=1",
            "-openings", &openings, "format=epd", "order=random", "start=3",
            "-sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05", "model=normalized",
            "-rounds", "1000", "-repeat", "-concurrency", "2", "-srand", "11",
            "-pgnout", "file=out/sprt.pgn",
            "-resign", "movecount=3", "score=600",
            "-draw", "movenumber=34", "movecount=8", "score=20",
            "-ratinginterval", "20", "-recover",
        ],
        &[
            "sprt", "--dev-cmd", "./dev-engine", "--dev-name", "dev", "--dev-option", "Hash=32",
            "--base-cmd", "./base-engine", "--base-name", "base",
            "--tc", "8+0.08", "--option", "Threads=1",
            "--openings", &book, "--order", "random", "--start", "3",
            "--elo0", "0", "--elo1", "5", "--alpha", "0.05", "--beta", "0.05",
            "--model", "normalized",
            "--max-games", "2000", "--concurrency", "2", "--seed", "11",
            "--pgn", "out/sprt.pgn",
            "--resign", "movecount=3,score=600",
            "--draw", "movenumber=34,movecount=8,score=20",
            "--rating-interval", "20",
        ],
    );
}

#[test]
#[rustfmt::skip]
fn a_gauntlet_and_a_round_robin_in_fastchess_form() {
    let book = seed_book();
    let openings = format!("file={book}");
    same(
        &[
            "-tournament", "gauntlet",
            "-engine", "cmd=./mine", "name=mine", "args=--uci --quiet",
            "-engine", "cmd=/usr/games/stockfish", "name=sf", "option.Skill Level=3",
            "-engine", "cmd=/usr/games/toga2", "name=toga",
            "-each", "st=0.25", "timemargin=50",
            "-openings", &openings, "order=sequential",
            "-rounds", "10", "-games", "2", "-srand", "5",
            "-variant", "standard", "-maxmoves", "200", "-event", "Gauntlet",
            "-epdout", "file=out/g.epd", "--state", "out/g.json",
        ],
        &[
            "gauntlet",
            "--engine", "cmd=./mine", "name=mine", "arg=--uci", "arg=--quiet",
            "--engine", "cmd=/usr/games/stockfish", "name=sf", "option.Skill Level=3",
            "--engine", "cmd=/usr/games/toga2", "name=toga",
            "--movetime", "250", "--timemargin", "50",
            "--openings", &book, "--order", "sequential",
            "--games", "20", "--seed", "5",
            "--variant", "standard", "--maxmoves", "200", "--event", "Gauntlet",
            "--epdout", "out/g.epd", "--state", "out/g.json",
        ],
    );
    same(
        &[
            "-engine", "cmd=./a", "-engine", "cmd=./b", "-engine", "cmd=./c",
            "-each", "nodes=5000", "-rounds", "7", "-srand", "1",
        ],
        &[
            "match", "--engine", "cmd=./a", "--engine", "cmd=./b", "--engine", "cmd=./c",
            "--nodes", "5000", "--games", "7", "--seed", "1",
        ],
    );
}

#[test]
#[rustfmt::skip]
fn fastchess_words_arena_has_not_are_named() {
    for (args, needle) in [
        (
            &["-engine", "cmd=./a", "tc=1+0.01", "-engine", "cmd=./b", "-sprt", "elo0=0"][..],
            "give it in -each",
        ),
        (&["-engine", "cmd=./a", "-engine", "cmd=./b", "-config", "file=c.json"][..], "-config"),
        (&["-engine", "cmd=./a", "-engine", "cmd=./b", "-bogus"][..], "-bogus"),
        (&["-engine", "cmd=./a", "-engine", "cmd=./b", "-sprt", "model=bayesian"][..], "bayesian"),
    ] {
        let err = plan(args).expect_err("must fail");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(err.contains("fastchess"), "{args:?}: {err}");
    }
}

#[test]
#[rustfmt::skip]
fn the_fastchess_form_plays_an_sprt() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("fastchess-play");
    let pgn = dir.join("games.pgn");
    let dev = format!("cmd={clio}");
    let base = format!("cmd={clio}");
    let book = format!("file={}", seed_book());
    let pgnout = format!("file={}", pgn.display());
    let out = arena()
        .args([
            "-engine", &dev, "name=dev", "option.Hash=8",
            "-engine", &base, "name=base", "option.Hash=8",
            "-each", "nodes=1500", "-openings", &book, "-sprt", "elo0=0", "elo1=5",
            "-rounds", "2", "-repeat", "-srand", "3", "-pgnout", &pgnout, "--no-db",
        ])
        .output()
        .expect("arena");
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("fastchess's form read as: arena sprt"), "{stderr}");
    assert!(stdout.contains("Results of dev vs base"), "{stdout}");
    assert_eq!(games_line(&stdout).0, 4, "{stdout}");
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    assert_eq!(text.matches("[Result ").count(), 4);
}
