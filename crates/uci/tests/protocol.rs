//! The UCI protocol of the real `clio` binary over pipes: handshake, options, search control,
//! refusals of malformed input (with the engine keeping its state), `go perft`.

mod common;

use std::thread;
use std::time::{Duration, Instant};

use clio_search::{param_specs, switch_specs};
use common::{chess, legal, perft_suite, Engine, QUICK};
use shakmaty::Position;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok", QUICK);
    assert!(lines[0].starts_with("id name Clio "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    let has = |prefix: &str| lines.iter().any(|l| l.starts_with(prefix));
    assert!(has("option name Hash type spin default"));
    assert!(has(
        "option name Threads type spin default 1 min 1 max 1024"
    ));
    assert!(has("option name Clear Hash type button"));
    assert!(has("option name Move Overhead type spin default 10 "));
    for s in switch_specs() {
        assert!(
            has(&format!(
                "option name {} type check default {}",
                s.name, s.default
            )),
            "{}",
            s.name
        );
    }
    for p in param_specs() {
        let want = format!(
            "option name {} type spin default {} min {} max {}",
            p.name, p.default, p.min, p.max
        );
        assert!(lines.contains(&want), "{want}");
    }
    assert!(e.quit());
}

#[test]
fn stop_during_go_infinite_gets_a_prompt_legal_bestmove() {
    let mut e = Engine::ready();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go infinite");
    // Let it get deep enough that stopping matters.
    e.read_until(|l| l.starts_with("info depth 4"), QUICK);
    thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    e.send("stop");
    let (mv, _) = e.bestmove(Duration::from_secs(2));
    let latency = asked.elapsed();
    println!("stop latency: {:.2} ms", latency.as_secs_f64() * 1000.0);
    assert!(legal(&chess(AFTER_E4_E5), &mv).is_some(), "{mv}");
    assert!(e.quit());
}

#[test]
fn isready_is_answered_during_a_search() {
    let mut e = Engine::ready();
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth"), QUICK);
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok", QUICK);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "go infinite must not answer before stop: {lines:?}"
    );
    e.send("stop");
    let (mv, _) = e.bestmove(QUICK);
    assert!(legal(&chess(START), &mv).is_some(), "{mv}");
}

#[test]
fn info_lines_carry_every_field() {
    let mut e = Engine::ready();
    e.send("go depth 4");
    let (mv, lines) = e.bestmove(QUICK);
    assert!(legal(&chess(START), &mv).is_some());
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    for field in [
        " seldepth ",
        " score ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{info} lacks {field}");
    }
    assert!(info.contains(" score cp ") || info.contains(" score mate "));
}

/// Each malformed line gets one `info string` naming what was wrong; the position stays as it
/// was and a search from it still gives a legal move.
#[test]
fn malformed_input_is_refused_and_the_state_kept() {
    let p = param_specs()[0];
    let s = switch_specs()[0];
    let too_big = format!("setoption name {} value {}", p.name, i64::from(p.max) + 1);
    let not_bool = format!("setoption name {} value maybe", s.name);
    let cases: Vec<(&str, &str)> = vec![
        ("position startpos moves e2e4 0000 e7e5", "0000"),
        ("position startpos moves e2e4 e7e4", "e7e4"),
        ("position startpos moves e2e4 zz9", "zz9"),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 6",
        ),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", "illegal position"),
        ("position fen 8/8/8", "FEN"),
        ("setoption name Hash value", "Hash"),
        ("setoption name Hash value 0", "Hash"),
        ("setoption name Hash value 1234567890123", "Hash"),
        ("setoption name Hash value lots", "lots"),
        ("setoption name Threads value 0", "Threads"),
        ("setoption name Threads value 1025", "Threads"),
        ("setoption name Move Overhead value -5", "Move Overhead"),
        ("setoption name NoSuchOption value 1", "NoSuchOption"),
        (&too_big, p.name),
        (&not_bool, s.name),
        ("xyzzy plugh", "xyzzy"),
        ("go perft zero", "zero"),
    ];
    let mut e = Engine::ready();
    for (line, needle) in cases {
        e.send("position startpos moves e2e4 e7e5");
        e.send(line);
        let answers = e.sync();
        let infos: Vec<&String> = answers
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert_eq!(infos.len(), 1, "{line}: {answers:?}");
        assert!(
            infos[0].contains(needle),
            "{line}: {infos:?} should name {needle}"
        );
        assert_eq!(e.fen(), AFTER_E4_E5, "{line} changed the position");
        e.send("go depth 3");
        let (mv, _) = e.bestmove(QUICK);
        assert!(legal(&chess(AFTER_E4_E5), &mv).is_some(), "{line}: {mv}");
    }
    // A refused option value left the option as it was: the engine still searches with it.
    assert!(e.quit());
}

#[test]
fn fen_without_move_counters_and_runs_of_spaces_are_read() {
    let mut e = Engine::ready();
    e.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - -");
    assert!(e.sync().is_empty());
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    e.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - moves e2e4 e8d7");
    assert!(e.sync().is_empty());
    assert_eq!(e.fen(), "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2");
    e.send("position  startpos \t moves   e2e4    e7e5");
    assert!(e.sync().is_empty());
    assert_eq!(e.fen(), AFTER_E4_E5);
}

#[test]
fn go_values_the_parser_would_panic_on_are_clamped_with_a_note() {
    let mut e = Engine::ready();
    for (line, needle, stop) in [
        ("go depth 300", "300", true),
        ("go nodes 1234567890123", "1234567890123", true),
        ("go movestogo 300 wtime 300 btime 300", "300", false),
        (
            "go wtime 1234567890123 btime 1234567890123 depth 3",
            "1234567890123",
            false,
        ),
    ] {
        e.send("position startpos");
        e.send(line);
        let first = e.read_until(|l| l.starts_with("info string"), QUICK);
        assert!(
            first.last().is_some_and(|l| l.contains(needle)),
            "{line}: {first:?}"
        );
        if stop {
            e.read_until(|l| l.starts_with("info depth"), QUICK);
            e.send("stop");
        }
        let (mv, _) = e.bestmove(QUICK);
        assert!(legal(&chess(START), &mv).is_some(), "{line}: {mv}");
        assert!(e.sync().is_empty());
    }
    assert!(e.quit());
}

#[test]
fn go_ponder_with_a_clock_waits_for_ponderhit() {
    let mut e = Engine::ready();
    e.send("position startpos moves e2e4");
    // With 200 ms on the clock a normal search would answer within a fraction of that; a
    // ponder search must not answer at all before ponderhit.
    e.send("go ponder wtime 200 btime 200 winc 0 binc 0");
    let deadline = Instant::now() + Duration::from_millis(1000);
    while let Some(line) = e.next_line(deadline.saturating_duration_since(Instant::now())) {
        assert!(
            !line.starts_with("bestmove"),
            "answered while pondering: {line}"
        );
    }
    e.send("ponderhit");
    let (mv, _) = e.bestmove(QUICK);
    let pos = chess("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert!(legal(&pos, &mv).is_some(), "{mv}");
    // And `stop` ends a ponder search as well.
    e.send("go ponder wtime 200 btime 200");
    e.read_until(|l| l.starts_with("info depth"), QUICK);
    e.send("stop");
    let (mv, _) = e.bestmove(QUICK);
    assert!(legal(&pos, &mv).is_some(), "{mv}");
    assert!(e.quit());
}

#[test]
fn no_legal_move_gives_bestmove_0000() {
    let mut e = Engine::ready();
    for fen in [
        // Fool's mate: white is mated.
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        // Stalemate.
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 5");
        let (mv, _) = e.bestmove(QUICK);
        assert_eq!(mv, "0000", "{fen}");
    }
    assert!(e.quit());
}

#[test]
fn go_perft_gives_the_published_counts() {
    let mut e = Engine::ready();
    for (fen, counts) in perft_suite().into_iter().take(2) {
        let depth = 3;
        e.send(&format!("position fen {fen}"));
        e.send(&format!("go perft {depth}"));
        let lines = e.read_until(
            |l| l.starts_with("Nodes searched: "),
            Duration::from_secs(30),
        );
        let per_move: Vec<u64> = lines
            .iter()
            .filter_map(|l| l.split_once(": "))
            .filter(|(m, _)| legal(&chess(&fen), m).is_some())
            .filter_map(|(_, n)| n.parse().ok())
            .collect();
        assert_eq!(
            per_move.len() as u64,
            counts[0],
            "{fen}: one line per root move"
        );
        assert_eq!(per_move.iter().sum::<u64>(), counts[depth - 1], "{fen}");
        let total: u64 = lines
            .last()
            .and_then(|l| l.strip_prefix("Nodes searched: "))
            .and_then(|n| n.parse().ok())
            .expect("total");
        assert_eq!(total, counts[depth - 1], "{fen}");
        assert_eq!(chess(&fen).legal_moves().len() as u64, counts[0]);
    }
    assert!(e.quit());
}

#[test]
fn options_that_take_effect_are_silent_and_search_goes_on() {
    let mut e = Engine::ready();
    let p = param_specs()[0];
    let s = switch_specs()[0];
    for line in [
        "setoption name Hash value 8".to_string(),
        "setoption name Threads value 1".to_string(),
        "setoption name Clear Hash".to_string(),
        "setoption name Move Overhead value 30".to_string(),
        format!("setoption name {} value {}", p.name, p.min),
        format!("setoption name {} value {}", s.name, !s.default),
        "ucinewgame".to_string(),
        "debug off".to_string(),
    ] {
        e.send(&line);
        assert!(e.sync().is_empty(), "{line}");
    }
    e.send("position startpos");
    e.send("go depth 4");
    let (mv, _) = e.bestmove(QUICK);
    assert!(legal(&chess(START), &mv).is_some());
    assert!(e.quit());
}

#[test]
fn quit_during_a_search_and_end_of_input_end_the_process() {
    let mut e = Engine::ready();
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth"), QUICK);
    assert!(e.quit(), "quit during go infinite");

    let mut e = Engine::ready();
    e.close_stdin();
    assert!(e.wait_exit(), "end of input");
}
