//! `UCI_ShowWDL`, `Skill Level` and `UCI_LimitStrength`/`UCI_Elo` through the real binary.

mod common;

use std::collections::HashSet;

use common::{chess, legal, Engine, QUICK};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The `(W, D, L)` of an info line, if it has one.
fn wdl(line: &str) -> Option<(u32, u32, u32)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "wdl")?;
    let n = |k: usize| words.get(i + k).and_then(|w| w.parse().ok());
    Some((n(1)?, n(2)?, n(3)?))
}

/// Searches `position` with `go`: the best move, the info lines, and the most nodes reported.
fn search(e: &mut Engine, position: &str, go: &str) -> (String, Vec<String>, Option<u64>) {
    e.send(position);
    e.send(go);
    let (mv, infos) = e.bestmove(QUICK);
    let nodes = infos.iter().filter_map(|l| field(l, "nodes")).max();
    (mv, infos, nodes)
}

fn field(line: &str, name: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == name)?;
    words.get(i + 1)?.parse().ok()
}

#[test]
fn the_options_are_declared_and_bad_values_refused() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok", QUICK);
    for want in [
        "option name UCI_ShowWDL type check default false",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1350 min 1350 max 2850",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want}: {lines:?}");
    }
    for (line, names) in [
        ("setoption name UCI_Elo value 1000", "UCI_Elo"),
        ("setoption name Skill Level value 21", "Skill Level"),
        ("setoption name UCI_ShowWDL value perhaps", "UCI_ShowWDL"),
        (
            "setoption name UCI_LimitStrength value",
            "UCI_LimitStrength",
        ),
    ] {
        e.send(line);
        let out = e.sync();
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string") && l.contains(names)),
            "{line}: {out:?}"
        );
    }
    assert!(e.quit());
}

#[test]
fn show_wdl_adds_win_draw_loss_that_follows_the_score() {
    let mut e = Engine::ready();
    let (_, infos, _) = search(&mut e, "position startpos", "go depth 6");
    assert!(infos.iter().all(|l| wdl(l).is_none()), "off by default");
    e.send("setoption name UCI_ShowWDL value true");
    // Level, a queen up for White, and mated in one for White to move: each line's
    // W + D + L is 1000, and the win share rises with the advantage.
    let mut wins = Vec::new();
    for fen in [
        START,
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
    ] {
        let (_, infos, _) = search(&mut e, &format!("position fen {fen}"), "go depth 6");
        let scored: Vec<_> = infos.iter().filter(|l| l.contains(" score ")).collect();
        assert!(!scored.is_empty());
        for line in &scored {
            let (w, d, l) = wdl(line).unwrap_or_else(|| panic!("no wdl: {line}"));
            assert_eq!(w + d + l, 1000, "{line}");
            assert!(line.contains(" score ") && line.find(" wdl ") > line.find(" score "));
        }
        wins.push(wdl(scored[scored.len() - 1]).unwrap());
    }
    assert!(wins[0].1 > wins[0].0 && wins[0].1 > wins[0].2, "{wins:?}");
    assert!(wins[1].0 > 900, "{wins:?}");
    assert_eq!(wins[2], (1000, 0, 0), "{wins:?}");
    assert!(e.quit());
}

#[test]
fn skill_level_limits_the_nodes_and_varies_the_move() {
    let mut e = Engine::ready();
    e.send("setoption name Skill Level value 0");
    let mut moves = HashSet::new();
    for _ in 0..30 {
        e.send("ucinewgame");
        let (mv, infos, nodes) = search(&mut e, "position startpos", "go depth 30");
        assert!(legal(&chess(START), &mv).is_some(), "{mv}");
        assert!(
            nodes.is_some_and(|n| n <= 600),
            "{nodes:?} nodes at level 0"
        );
        assert!(infos.iter().any(|l| l.contains(" multipv 2 ")), "{infos:?}");
        moves.insert(mv);
    }
    assert!(moves.len() >= 2, "level 0 always played {moves:?}");
    // The full engine: one move, whatever the seed.
    e.send("setoption name Skill Level value 20");
    let mut full = HashSet::new();
    for _ in 0..5 {
        e.send("ucinewgame");
        let (mv, infos, _) = search(&mut e, "position startpos", "go nodes 3000");
        assert!(infos.iter().all(|l| !l.contains(" multipv ")), "{infos:?}");
        full.insert(mv);
    }
    assert_eq!(full.len(), 1, "{full:?}");
    assert!(e.quit());
}

#[test]
fn uci_elo_sets_a_level_only_with_limit_strength() {
    let mut e = Engine::ready();
    e.send("setoption name UCI_Elo value 1350");
    let (_, infos, _) = search(&mut e, "position startpos", "go nodes 3000");
    assert!(infos.iter().all(|l| !l.contains(" multipv ")), "{infos:?}");
    e.send("setoption name UCI_LimitStrength value true");
    let (mv, _, nodes) = search(&mut e, "position startpos", "go depth 30");
    assert!(legal(&chess(START), &mv).is_some(), "{mv}");
    assert!(
        nodes.is_some_and(|n| n <= 600),
        "{nodes:?} nodes at UCI_Elo 1350"
    );
    // A higher Elo searches more.
    e.send("setoption name UCI_Elo value 2850");
    let (_, _, more) = search(&mut e, "position startpos", "go depth 30");
    assert!(more > nodes, "{more:?} against {nodes:?}");
    assert!(e.quit());
}
