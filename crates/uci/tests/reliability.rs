//! Issue 11 over pipes: no command sequence leaves the real `clio` binary searching forever,
//! deaf, or dead. Every wait is bounded by a generous deadline (a hang guard, not a timing
//! assertion).

mod common;

use std::process::Command;

use common::{chess, clio_path, legal, Engine, QUICK};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// After whatever came before, the engine still answers `isready` and a plain search.
fn still_answers(e: &mut Engine) {
    e.sync();
    e.send("position startpos");
    e.send("go depth 1");
    let (mv, _) = e.bestmove(QUICK);
    assert!(legal(&chess(START), &mv).is_some(), "{mv}");
}

#[test]
fn stop_ends_go_perft() {
    let mut e = Engine::ready();
    // Perft 9 of the start position takes hours: only `stop` can end it.
    e.send("go perft 9");
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("info string"), QUICK);
    assert!(
        lines.last().is_some_and(|l| l.contains("stopped")),
        "{lines:?}"
    );
    still_answers(&mut e);
    assert!(e.quit());
}

#[test]
fn quit_ends_go_perft() {
    let mut e = Engine::ready();
    e.send("go perft 9");
    e.sync();
    assert!(e.quit(), "quit during go perft 9");
}

/// A Hash the process cannot get (under `ulimit -v`) is refused with an `info string`; the
/// engine keeps its table and goes on searching.
#[test]
fn a_hash_the_machine_cannot_give_keeps_the_old_table() {
    let script = format!("ulimit -v 1000000 && exec '{}'", clio_path());
    let mut e = Engine::start_command(Command::new("sh").args(["-c", &script]));
    e.send("uci");
    e.read_until(|l| l == "uciok", QUICK);
    e.send("setoption name Hash value 4096");
    e.send("position startpos");
    e.send("go depth 3");
    let (mv, lines) = e.bestmove(QUICK);
    assert!(legal(&chess(START), &mv).is_some(), "{mv}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string option Hash") && l.contains("4096")),
        "{lines:?}"
    );
    still_answers(&mut e);
    assert!(e.quit());
}
