//! The search through its public API: known mates found (each checked by an independent
//! brute-force mate prover written on shakmaty), limits respected, always a legal move.

use std::sync::atomic::AtomicBool;

use clio_board::shakmaty::{Chess, Move, Position as _};
use clio_board::Position;
use clio_search::{Limits, Params, Score, Searcher};

/// Whether the side to move in `pos` forces mate within `n` moves (plain full-width proof).
fn forces_mate(pos: &Chess, n: u32) -> bool {
    n > 0
        && pos.legal_moves().iter().any(|m| {
            let mut next = pos.clone();
            next.play_unchecked(*m);
            mated_within(&next, n - 1)
        })
}

/// Whether the side to move in `pos` is mated now or within `n` more moves of the opponent.
fn mated_within(pos: &Chess, n: u32) -> bool {
    if pos.is_checkmate() {
        return true;
    }
    let replies = pos.legal_moves();
    !replies.is_empty()
        && n > 0
        && replies.iter().all(|r| {
            let mut next = pos.clone();
            next.play_unchecked(*r);
            forces_mate(&next, n)
        })
}

fn search(fen: &str, limits: Limits) -> (Option<Move>, Score, Position) {
    search_with(fen, limits, &[])
}

/// [`search`] with some tunables set first.
fn search_with(fen: &str, limits: Limits, set: &[(&str, i32)]) -> (Option<Move>, Score, Position) {
    let (best, score, pos, _) = search_configured(fen, limits, |p| {
        for (name, value) in set {
            p.set(name, *value).expect("a tunable in range");
        }
    });
    (best, score, pos)
}

/// A search of `fen` on a fresh searcher whose parameters `configure` sets first: its best
/// move, score, position and node count.
fn search_configured(
    fen: &str,
    limits: Limits,
    configure: impl FnOnce(&mut Params),
) -> (Option<Move>, Score, Position, u64) {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let stop = AtomicBool::new(false);
    let mut s = Searcher::new(4);
    configure(s.params_mut());
    let mut infos = 0;
    let r = s.search(&pos, &limits, &stop, &mut |_| infos += 1);
    if r.best.is_some() && r.depth > 0 {
        assert!(
            infos >= 2,
            "one info per completed depth plus the final one"
        );
    }
    (r.best, r.score, pos, s.last_stats().nodes)
}

/// Textbook mates, as (FEN, moves to mate).
const MATES: [(&str, u32); 3] = [
    // Scholar's mate, the best-known mate in one: 4.Qxf7#.
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        1,
    ),
    // Back-rank mate (textbook pattern): 1.Rd8#.
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1),
    // The two-rook "rolling" mate, textbook technique: 1.Ra7 Kg8 2.Rb8#.
    ("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2),
];

/// That a search of `fen` (a mate in `n`) returned the mate: its score, and a `best` move the
/// brute-force prover confirms (mate now for n = 1, else mate in n-1 against every reply), and
/// that no shorter mate exists.
fn assert_mate(fen: &str, n: u32, (best, score, pos): (Option<Move>, Score, Position), what: &str) {
    let best = best.expect("a move");
    assert_eq!(score, Score::Mate(n as i32), "{fen}{what}");
    let mut after = pos.chess().clone();
    after.play_unchecked(best);
    assert!(
        mated_within(&after, n - 1),
        "{fen}{what}: {best:?} does not mate in {n}"
    );
    assert!(
        !forces_mate(pos.chess(), n - 1),
        "{fen} is not a mate in {n}"
    );
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn finds_known_mates_in_one_two_and_three() {
    for (fen, n) in MATES {
        assert_mate(fen, n, search(fen, depth(2 * n + 2)), "");
    }
    // Philidor's legacy, the classic smothered mate: 1.Nh6+ Kh8 2.Qg8+ Rxg8 3.Nf7#. Its
    // checking sacrifices (a knight to a pawn-guarded square, the queen to a rook-guarded
    // one) are what futility and SEE pruning cut at shallow depth: with both on, Clio finds
    // only a mate in 4 here at any depth tried (a known weakness of those prunings), so this
    // case checks the mate search with those two prunings off. The threat ordering
    // (`UseThreatOrder`) puts both sacrifices late among the quiets, where LMR reduces
    // them, and late move pruning halved where the eval is not improving (`UseImproving`)
    // skips them at shallow depth; the static-eval difference as history (`PrevEvalMul`)
    // orders them later still: it takes depth 13 with the shipped network (searched to 14).
    let fen = "4r1k1/5Npp/8/8/2Q5/8/8/6K1 w - - 0 1";
    let set = [("FpDepth", 0), ("SeePruneDepth", 0)];
    assert_mate(fen, 3, search_with(fen, depth(14), &set), "");
}

#[test]
fn sees_getting_mated() {
    // Black to move in the rook roller after 1.Ra7: every move loses to 2.Rb8#.
    let (best, score, _) = search("7k/R7/8/8/8/8/8/1R4K1 b - - 1 1", depth(6));
    assert!(best.is_some());
    assert_eq!(score, Score::Mate(-1));
}

#[test]
fn no_legal_move_returns_none() {
    // Checkmate (the bench set's mated position) and stalemate.
    let (best, score, _) = search("7k/7P/6K1/8/3B4/8/8/8 b - - 0 1", depth(3));
    assert_eq!((best, score), (None, Score::Mate(0)));
    let (best, score, _) = search("8/8/8/8/8/6k1/6p1/6K1 w - - 0 1", depth(3));
    assert_eq!((best, score), (None, Score::Cp(0)));
}

#[test]
fn limits_always_give_a_legal_move() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for limits in [
        depth(1),
        depth(4),
        Limits {
            nodes: Some(1),
            ..Limits::default()
        },
        Limits {
            nodes: Some(5_000),
            ..Limits::default()
        },
        Limits {
            movetime_ms: Some(1),
            move_overhead_ms: 50,
            ..Limits::default()
        },
    ] {
        let (best, _, pos) = search(fen, limits.clone());
        let best = best.expect("a move");
        assert!(pos.chess().is_legal(best), "{limits:?}");
    }
    // Node limit is honoured exactly.
    let pos = Position::from_fen(fen).expect("valid FEN");
    let stop = AtomicBool::new(false);
    let mut s = Searcher::new(1);
    let r = s.search(
        &pos,
        &Limits {
            nodes: Some(5_000),
            ..Limits::default()
        },
        &stop,
        &mut |_| {},
    );
    assert!(r.nodes <= 5_000, "{}", r.nodes);
    // A search stopped before it starts still answers a legal move.
    let stopped = AtomicBool::new(true);
    let r = s.search(
        &pos,
        &Limits {
            infinite: true,
            ..Limits::default()
        },
        &stopped,
        &mut |_| {},
    );
    assert!(r.best.is_some_and(|m| pos.chess().is_legal(m)));
}

#[test]
fn clear_forgets_and_search_repeats_exactly() {
    let pos = Position::startpos();
    let stop = AtomicBool::new(false);
    let mut s = Searcher::new(2);
    let a = s.search(&pos, &depth(6), &stop, &mut |_| {});
    s.clear();
    let b = s.search(&pos, &depth(6), &stop, &mut |_| {});
    assert_eq!(a, b, "after clear() the same search gives the same result");
}

/// Lazy SMP: with helper threads the search still finds the known mates, returns a legal move
/// from every bench-like position, and counts the helpers' nodes; back at one thread it is the
/// deterministic single-threaded search again.
#[test]
fn helper_threads_search_the_same_root_and_return_legal_moves() {
    let fens = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ];
    let stop = AtomicBool::new(false);
    let mut s = Searcher::new(8);
    s.set_threads(3);
    assert_eq!(s.threads(), 3);
    for fen in fens {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let limits = Limits {
            depth: Some(9),
            ..Limits::default()
        };
        let r = s.search(&pos, &limits, &stop, &mut |_| {});
        let best = r.best.expect("a move");
        assert!(pos.chess().is_legal(best), "{fen}: {best:?}");
        assert!(r.depth >= 9, "{fen}: depth {}", r.depth);
        assert!(r.nodes > s.last_stats().nodes / 2, "{fen}");
    }
    // Back-rank mate in one, found with helpers too.
    let pos = Position::from_fen(fens[2]).unwrap();
    let r = s.search(
        &pos,
        &Limits {
            depth: Some(6),
            ..Limits::default()
        },
        &stop,
        &mut |_| {},
    );
    assert_eq!(r.score, Score::Mate(1));

    // One thread again: two fresh searchers agree node for node.
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    let pos = Position::from_fen(fens[1]).unwrap();
    let mut a = Searcher::new(8);
    a.set_threads(2);
    a.set_threads(1);
    let mut b = Searcher::new(8);
    let ra = a.search(&pos, &limits, &stop, &mut |_| {});
    let rb = b.search(&pos, &limits, &stop, &mut |_| {});
    assert_eq!((ra.nodes, ra.best), (rb.nodes, rb.best));
}

/// `stop` reaches every thread: an infinite search with helpers returns once it is set.
#[test]
fn stop_ends_every_thread() {
    let pos =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    let stop = AtomicBool::new(false);
    let mut s = Searcher::new(8);
    s.set_threads(4);
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(200));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        s.search(&pos, &limits, &stop, &mut |_| {})
    });
    assert!(pos.chess().is_legal(r.best.expect("a move")));
}

/// A node-limited search of `fen` with `UsePartialResult` set to `partial`, on a fresh
/// searcher: its best move, its score, and the first move of its closing info line's PV.
fn stopped_search(fen: &str, nodes: u64, partial: bool) -> (Move, Score, Option<Move>, Position) {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let stop = AtomicBool::new(false);
    let mut s = Searcher::new(1);
    s.params_mut()
        .set_switch("UsePartialResult", partial)
        .expect("a switch");
    let mut last_pv_head = None;
    let r = s.search(
        &pos,
        &Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        &stop,
        &mut |i| last_pv_head = i.pv.first().copied(),
    );
    (r.best.expect("a move"), r.score, last_pv_head, pos)
}

/// `UsePartialResult` (Stockfish's rule): a search stopped inside an iteration plays the root
/// move that iteration found better. Over a sweep of node limits on the two-rook mate in two,
/// the best move is always legal and heads the closing info line's PV, and the mating move
/// (proved by the brute-force prover) is played at every limit where the last completed
/// iteration alone plays it with a mate score, and at some limits where it does not. (Where
/// that iteration plays a mating move without having seen the mate, the stopped one may
/// rightly prefer another move on its score.)
#[test]
fn a_stopped_iteration_plays_the_move_it_found_better() {
    let fen = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1";
    let (mut with, mut without, mut gained) = (0, 0, 0);
    for nodes in (20..3_000).step_by(7) {
        let (best, _, head, pos) = stopped_search(fen, nodes, true);
        assert!(pos.chess().is_legal(best), "{nodes} nodes");
        assert_eq!(
            head,
            Some(best),
            "{nodes} nodes: bestmove heads the last PV"
        );
        let mates = |m: Move| {
            let mut after = pos.chess().clone();
            after.play_unchecked(m);
            mated_within(&after, 1)
        };
        let (old, old_score, _, _) = stopped_search(fen, nodes, false);
        let (new_mates, old_mates) = (mates(best), mates(old));
        assert!(
            new_mates || !(old_mates && matches!(old_score, Score::Mate(_))),
            "{nodes} nodes: the partial result lost the mate"
        );
        with += usize::from(new_mates);
        without += usize::from(old_mates);
        gained += usize::from(new_mates && !old_mates);
    }
    assert!(
        gained > 0,
        "never found the mate sooner ({with} vs {without} limits)"
    );
}

/// A fixed-depth search of `fen` on a fresh searcher with the switch `name` set to `on`.
fn switch_search(
    name: &str,
    fen: &str,
    plies: u32,
    on: bool,
) -> (Option<Move>, Score, Position, u64) {
    search_configured(fen, depth(plies), |p| {
        p.set_switch(name, on).expect("a switch");
    })
}

/// With the switch `name` on and off, the textbook mates are found and proved by the
/// brute-force prover; and it changes a `plies`-deep search of a middlegame with captures (the
/// Queen's Gambit Declined, Orthodox Defence after 6...Nbd7), so the switch reaches the search.
fn switch_keeps_known_mates(name: &str, plies: u32) {
    for on in [false, true] {
        for (fen, n) in MATES {
            let (best, score, pos, _) = switch_search(name, fen, 2 * n + 2, on);
            assert_mate(fen, n, (best, score, pos), &format!(", {name} {on}"));
        }
    }
    let fen = "r1bq1rk1/pppnbppp/4pn2/3p2B1/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 3 7";
    let (off_best, _, pos, off_nodes) = switch_search(name, fen, plies, false);
    let (on_best, _, _, on_nodes) = switch_search(name, fen, plies, true);
    assert!(pos.chess().is_legal(off_best.expect("a move")));
    assert!(pos.chess().is_legal(on_best.expect("a move")));
    assert_ne!(off_nodes, on_nodes, "{name} does not change the search");
}

/// `UseQsTtEval` (Stockfish's quiescence stand pat on the TT score where its bound lies on the
/// right side of the static eval) keeps the known mates and reaches the quiescence search.
#[test]
fn quiescence_stand_pat_on_the_tt_score_keeps_known_mates() {
    switch_keeps_known_mates("UseQsTtEval", 10);
}

/// `UseDeeper` (Stockfish's doDeeperSearch / doShallowerSearch: the re-search after a reduced
/// move beats alpha goes a ply deeper or shallower) keeps the known mates and reaches the
/// late-move re-search.
#[test]
fn deeper_or_shallower_re_search_keeps_known_mates() {
    switch_keeps_known_mates("UseDeeper", 12);
}

/// With the neural evaluation on, searches of the bench positions (castling, en passant and
/// promotions among their lines) return legal moves and repeat exactly; in this test build
/// every evaluation also asserts that the accumulators the search updated move by move equal
/// those computed from scratch (a `debug_assert` in the search).
#[test]
fn the_neural_evaluation_searches_with_exact_incremental_accumulators() {
    let text = include_str!("../data/bench.epd");
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(24) {
        let fen = line.split(';').next().expect("a line").trim();
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        if pos.chess().legal_moves().is_empty() {
            continue;
        }
        let run = || {
            let stop = AtomicBool::new(false);
            let mut s = Searcher::new(4);
            s.params_mut()
                .set_switch("UseNnue", true)
                .expect("a switch");
            let r = s.search(&pos, &depth(7), &stop, &mut |_| {});
            (r.best, r.score, s.last_stats().nodes)
        };
        let (best, score, nodes) = run();
        let best = best.expect("a legal move");
        assert!(pos.chess().is_legal(best), "{fen}: {best:?}");
        assert_eq!(run(), (Some(best), score, nodes), "{fen}");
    }
}
