//! Issue 11 over pipes: no command sequence leaves the real `clio` binary searching forever,
//! deaf, or dead. Every wait is bounded by a generous deadline (a hang guard, not a timing
//! assertion).

mod common;

use std::process::Command;

use common::{chess, clio_path, legal, Engine, QUICK};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

/// An engine in a `go infinite` from the start position that has reported a depth, and has
/// then been sent `position startpos moves e2e4`.
fn searching_then_new_position() -> Engine {
    let mut e = Engine::ready();
    e.send("position startpos");
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth"), QUICK);
    e.send("position startpos moves e2e4");
    e
}

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

/// `isready` waits for the table work queued before it (UCI: it is how a GUI waits for
/// `ucinewgame` or `setoption name Hash` to finish): the refusal of a Hash the process cannot
/// get comes out before `readyok`, not after it.
#[test]
fn isready_answers_after_the_table_work_before_it() {
    let script = format!("ulimit -v 1000000 && exec '{}'", clio_path());
    let mut e = Engine::start_command(Command::new("sh").args(["-c", &script]));
    e.send("uci");
    e.read_until(|l| l == "uciok", QUICK);
    e.send("setoption name Hash value 4096");
    e.send("ucinewgame");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok", QUICK);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string option Hash") && l.contains("4096")),
        "readyok came before the Hash refusal: {lines:?}"
    );
    // During a search it answers at once.
    e.send("position startpos");
    e.send("go infinite");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok", QUICK);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    e.bestmove(QUICK);
    assert!(e.quit());
}

/// `go searchmoves`: only the listed root moves are searched; an illegal entry is named in an
/// `info string` and left out; a list without a legal move answers `bestmove 0000`, as a
/// position without legal moves does.
#[test]
fn go_searchmoves_searches_only_the_listed_moves() {
    let mut e = Engine::ready();
    for (line, allowed) in [
        ("go depth 6 searchmoves b1c3 a2a3", &["b1c3", "a2a3"][..]),
        ("go depth 3 searchmoves h2h4", &["h2h4"][..]),
        ("go nodes 5000 searchmoves e2e5 g2g3", &["g2g3"][..]),
    ] {
        e.send("position startpos");
        e.send(line);
        let (mv, lines) = e.bestmove(2 * QUICK);
        assert!(allowed.contains(&mv.as_str()), "{line}: {mv}");
        let noted = lines
            .iter()
            .any(|l| l.contains("\"e2e5\" is not a legal move"));
        assert_eq!(noted, line.contains("e2e5"), "{line}: {lines:?}");
        let pvs: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
        assert!(!pvs.is_empty(), "{line}");
        for l in pvs {
            let first = l.split(" pv ").nth(1).and_then(|p| p.split(' ').next());
            assert!(allowed.contains(&first.unwrap_or_default()), "{line}: {l}");
        }
    }
    e.send("position startpos");
    e.send("go depth 4 searchmoves e2e5 e7e5");
    let (mv, lines) = e.bestmove(2 * QUICK);
    assert_eq!(mv, "0000", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("no legal move given")),
        "{lines:?}"
    );
    still_answers(&mut e);
}

/// The `multipv k` and first PV move of each info line of the last completed depth, with its
/// score in cp.
fn last_depth_lines(lines: &[String]) -> Vec<(u32, String, i64)> {
    let field = |l: &str, key: &str| {
        let mut words = l.split(' ');
        words.position(|w| w == key)?;
        words.next().map(str::to_string)
    };
    let depth = lines
        .iter()
        .filter_map(|l| field(l, "depth")?.parse::<u32>().ok())
        .max();
    let mut out: Vec<(u32, String, i64)> = lines
        .iter()
        .filter(|l| field(l, "depth").and_then(|d| d.parse().ok()) == depth)
        .filter_map(|l| {
            Some((
                field(l, "multipv")?.parse().ok()?,
                field(l, "pv")?,
                field(l, "cp")?.parse().ok()?,
            ))
        })
        .collect();
    out.sort();
    out.dedup_by_key(|l| l.0);
    out
}

/// `MultiPV`: each depth reports that many lines, ranked by score, with distinct first moves;
/// the closing report repeats them all; `bestmove` is line 1's; never more lines than root moves; with `go searchmoves` the lines
/// come from those moves; MultiPV 1 prints no `multipv` field, and out-of-range values are
/// refused.
#[test]
fn multipv_reports_ranked_distinct_lines() {
    let mut e = Engine::ready();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 7");
    let (mv, lines) = e.bestmove(4 * QUICK);
    let top = last_depth_lines(&lines);
    assert_eq!(
        top.iter().map(|l| l.0).collect::<Vec<_>>(),
        [1, 2, 3],
        "{lines:?}"
    );
    assert_eq!(top[0].1, mv, "{lines:?}");
    assert!(top[0].2 >= top[1].2 && top[1].2 >= top[2].2, "{top:?}");
    let mut firsts: Vec<&String> = top.iter().map(|l| &l.1).collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{top:?}");
    // The closing report (the final counts, just before `bestmove`) repeats every line of the
    // last depth, in rank order, not line 1 alone: the last six reports are depth 7's lines
    // 1, 2, 3 and then again 1, 2, 3 with the same moves and scores.
    let infos: Vec<String> = (lines.iter())
        .filter(|l| l.starts_with("info depth"))
        .cloned()
        .collect();
    let tail = &infos[infos.len().saturating_sub(6)..];
    let ranks: Vec<(u32, String, i64)> = tail
        .iter()
        .flat_map(|l| last_depth_lines(std::slice::from_ref(l)))
        .collect();
    assert_eq!(ranks.len(), 6, "{lines:?}");
    assert!(tail.iter().all(|l| l.contains(" depth 7 ")), "{tail:?}");
    assert_eq!(ranks[..3], top[..], "{tail:?}");
    assert_eq!(ranks[3..], top[..], "{tail:?}");
    // Two legal moves (the king's), five lines asked: two reported.
    e.send("position fen 7k/8/8/8/8/8/8/K6q w - - 0 1");
    e.send("go depth 5");
    let (_, lines) = e.bestmove(4 * QUICK);
    let found = last_depth_lines(&lines);
    assert!(found.len() <= 2 && !found.is_empty(), "{lines:?}");
    e.send("setoption name MultiPV value 2");
    e.send("position startpos");
    e.send("go depth 5 searchmoves a2a3 h2h3 b1a3");
    let (mv, lines) = e.bestmove(4 * QUICK);
    let found = last_depth_lines(&lines);
    assert_eq!(found.len(), 2, "{lines:?}");
    for (_, first, _) in &found {
        assert!(
            ["a2a3", "h2h3", "b1a3"].contains(&first.as_str()),
            "{found:?}"
        );
    }
    assert_eq!(found[0].1, mv);
    e.send("setoption name MultiPV value 1");
    e.send("position startpos");
    e.send("go depth 5");
    let (_, lines) = e.bestmove(4 * QUICK);
    assert!(lines.iter().all(|l| !l.contains(" multipv ")), "{lines:?}");
    for bad in ["0", "257", "x"] {
        e.send(&format!("setoption name MultiPV value {bad}"));
        e.send("isready");
        let lines = e.read_until(|l| l == "readyok", QUICK);
        assert!(
            lines.iter().any(|l| l.contains("MultiPV")),
            "{bad}: {lines:?}"
        );
    }
    still_answers(&mut e);
}

/// A `go` whose limits cannot bound the search (only the other side's clock, a field without
/// a value, a malformed number, nothing at all) still answers by itself, and says why in an
/// `info string`.
#[test]
fn a_go_without_a_usable_limit_still_answers() {
    let mut e = Engine::ready();
    for line in [
        "go btime 10",
        "go btime 10 binc 100",
        "go wtime",
        "go wtime abc",
        "go",
        "go searchmoves e2e4",
        "go ponder",
    ] {
        e.send("position startpos");
        e.send(line);
        if line == "go ponder" {
            e.send("ponderhit");
        }
        let (mv, lines) = e.bestmove(2 * QUICK);
        assert!(legal(&chess(START), &mv).is_some(), "{line}: {mv}");
        assert!(
            lines.iter().any(|l| l.starts_with("info string go")),
            "{line}: no note in {lines:?}"
        );
    }
    still_answers(&mut e);
    assert!(e.quit());
}

/// A `go` during `go infinite` stops it: the old search's `bestmove` comes first, then the new
/// search's, and `isready` is answered throughout.
#[test]
fn a_go_during_go_infinite_stops_it_first() {
    let mut e = searching_then_new_position();
    e.send("go depth 1");
    e.send("isready");
    let mut bestmoves = Vec::new();
    let mut ready = false;
    while bestmoves.len() < 2 || !ready {
        let line = e.read_until(|l| l.starts_with("bestmove") || l == "readyok", QUICK);
        match line.last().map(String::as_str) {
            Some("readyok") => ready = true,
            Some(l) => bestmoves.push(l.split_whitespace().nth(1).unwrap_or("").to_string()),
            None => unreachable!(),
        }
    }
    assert!(
        legal(&chess(START), &bestmoves[0]).is_some(),
        "{bestmoves:?}"
    );
    assert!(
        legal(&chess(AFTER_E4), &bestmoves[1]).is_some(),
        "{bestmoves:?}"
    );
    still_answers(&mut e);
    assert!(e.quit());
}

/// A `position` during a search sets up the next search; the running one goes on from its own
/// position until `stop`.
#[test]
fn a_position_during_a_search_waits_for_the_next_go() {
    let mut e = searching_then_new_position();
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")));
    e.send("stop");
    let (mv, _) = e.bestmove(QUICK);
    assert!(legal(&chess(START), &mv).is_some(), "{mv}");
    e.send("go depth 1");
    let (mv, _) = e.bestmove(QUICK);
    assert!(legal(&chess(AFTER_E4), &mv).is_some(), "{mv}");
    assert!(e.quit());
}

/// `go perft` is a `go` too: during `go infinite` it stops the search first, then counts.
#[test]
fn a_go_perft_during_go_infinite_stops_it_first() {
    let mut e = Engine::ready();
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth"), QUICK);
    e.send("go perft 1");
    let (mv, _) = e.bestmove(QUICK);
    assert!(legal(&chess(START), &mv).is_some(), "{mv}");
    let lines = e.read_until(|l| l.starts_with("Nodes searched: "), QUICK);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 20"));
    still_answers(&mut e);
    assert!(e.quit());
}
