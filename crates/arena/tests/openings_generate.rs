//! `arena openings` against a real UCI engine (Debian's stockfish, found with
//! ci/find-engine.sh; the tests print a message and pass if it is not installed, and fail
//! under CI): a fixed seed gives the same book twice whatever the thread count, every accepted
//! score is reproduced by a fresh search and lies in the window, and malformed input lines are
//! reported and skipped.

mod runner_common;
use runner_common::*;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clio_arena::book;
use clio_arena::engine::EngineConfig;
use clio_arena::openings::{self, walk, Config, Limit, Prober};
use clio_arena::uci::Score;
use indicatif::ProgressBar;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// Stockfish's config, or None (through `skip`) if it is not installed.
fn sf_config() -> Option<EngineConfig> {
    Some(EngineConfig {
        name: "stockfish".to_string(),
        cmd: stockfish()?,
        args: Vec::new(),
        dir: None,
        options: vec![("Threads".to_string(), "1".to_string())],
        shared_options: Vec::new(),
        cpus: None,
    })
}

fn small_config(engine: EngineConfig) -> Config {
    let mut c = Config::new(engine, Limit::Nodes(1500), 10);
    c.plies = 6;
    c.seed = 42;
    c.min_cp = -25;
    c.max_cp = 45;
    c.max_candidates = 2000;
    c
}

fn parse(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .expect("generated FEN parses")
        .into_position(CastlingMode::Standard)
        .expect("generated FEN is legal")
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("clio-openings-{}-{name}", std::process::id()))
}

#[test]
fn same_seed_gives_the_same_book_with_any_thread_count() {
    let Some(engine) = sf_config() else { return };
    let one = small_config(engine);
    let mut two = one.clone();
    two.threads = 2;
    let a = openings::generate(&one, &ProgressBar::hidden()).expect("run 1");
    let b = openings::generate(&two, &ProgressBar::hidden()).expect("run 2");
    assert_eq!(a.openings.len(), one.count, "{:?}", a.tally);
    assert_eq!(a.openings, b.openings);
    assert_eq!(a.tally, b.tally);
    let t = a.tally;
    assert_eq!(
        t.candidates,
        t.game_over + t.in_check + t.duplicates + t.searched
    );
    assert_eq!(t.searched, t.mate + t.outside + t.accepted);
    assert_eq!(t.accepted as usize, a.openings.len());

    let mut other = one.clone();
    other.seed = 43;
    let c = openings::generate(&other, &ProgressBar::hidden()).expect("run 3");
    assert_ne!(a.openings, c.openings, "another seed, another book");

    // Written and read back by arena's book reader: the same positions, in order.
    let path = temp_path("book.epd");
    openings::write_book(&path, &a.openings).expect("write");
    let read = book::Book::load(&path).expect("read back");
    let _ = std::fs::remove_file(&path);
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    let fens: Vec<String> = read.entries.iter().filter_map(|e| e.fen.clone()).collect();
    let want: Vec<String> = a.openings.iter().map(|o| o.fen.clone()).collect();
    assert_eq!(fens, want);
}

#[test]
fn accepted_positions_are_in_the_window_when_searched_again() {
    let Some(engine) = sf_config() else { return };
    let config = small_config(engine.clone());
    let out = openings::generate(&config, &ProgressBar::hidden()).expect("run");
    assert_eq!(out.openings.len(), config.count);
    assert!(
        out.tally.outside > 0,
        "the window should reject something: {:?}",
        out.tally
    );
    let mut keys = std::collections::HashSet::new();
    let mut prober = Prober::start(engine, config.limit, Duration::from_secs(60)).expect("start");
    let stop = AtomicBool::new(false);
    for o in &out.openings {
        let line = o.epd_line();
        assert_eq!(openings::epd_score(&line), Some(o.cp));
        let (entries, skipped) = book::parse_epd(&line);
        assert!(skipped.is_empty(), "{line}: {skipped:?}");
        let fen = entries[0].fen.clone().expect("EPD entry has a FEN");
        let pos = parse(&fen);
        assert!(!pos.is_check(), "{fen} is in check");
        assert!(!pos.is_game_over(), "{fen} is over");
        assert!(
            keys.insert(walk::position_key(&fen)),
            "{fen} is a duplicate"
        );
        let again = prober.score(&fen, &stop).expect("re-search");
        assert_eq!(again, Score::Cp(o.cp), "{fen}");
        assert!((config.min_cp..=config.max_cp).contains(&o.cp), "{line}");
    }
}

#[test]
fn malformed_input_lines_are_reported_and_skipped() {
    let Some(engine) = sf_config() else { return };
    let path = temp_path("input.epd");
    let text = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 \"1. e4\";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -
# a comment line
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -
not an epd line at all
";
    std::fs::write(&path, text).expect("write input");
    let loaded = openings::load_starts(&path);
    let _ = std::fs::remove_file(&path);
    let (starts, skipped) = loaded.expect("two good lines");
    assert_eq!(starts.len(), 2);
    let lines: Vec<usize> = skipped.iter().map(|s| s.line).collect();
    assert_eq!(lines, vec![2, 5]);

    let mut config = small_config(engine);
    config.starts = starts.clone();
    config.plies = 3;
    config.count = 4;
    let out = openings::generate(&config, &ProgressBar::hidden()).expect("run");
    assert_eq!(out.openings.len(), 4);
    // Every position is 3 plies from one of the two inputs: black to move there, so white here.
    for o in &out.openings {
        assert!(o.fen.contains(" w "), "{}", o.fen);
    }
    let text = openings::summary(&config, &out, Path::new("x.epd"), Some(skipped.len()));
    assert!(
        text.contains("Input: 2 malformed entries skipped"),
        "{text}"
    );
}

#[test]
fn zero_plies_filters_the_input_book_itself() {
    let Some(engine) = sf_config() else { return };
    let path = temp_path("filter.epd");
    // A balanced start, the same start again (a duplicate), a position with white a queen up,
    // and one in check.
    let text = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5 9
rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2
";
    std::fs::write(&path, text).expect("write input");
    let loaded = openings::load_starts(&path);
    let _ = std::fs::remove_file(&path);
    let (starts, _) = loaded.expect("input");
    let mut config = small_config(engine);
    config.starts = starts;
    config.plies = 0;
    config.count = 4;
    config.max_candidates = 200;
    let out = openings::generate(&config, &ProgressBar::hidden()).expect("run");
    assert_eq!(out.openings.len(), 1, "{:?}", out.openings);
    assert!(out.openings[0]
        .fen
        .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"));
    // Each input line is a candidate, once: one duplicate, one in check, one out of the window.
    let t = out.tally;
    assert_eq!(
        (t.candidates, t.duplicates, t.in_check, t.outside),
        (4, 1, 1, 1),
        "{t:?}"
    );
}
