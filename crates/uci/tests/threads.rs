//! Lazy SMP through the protocol: `Threads` accepts OpenBench's SMP values, a search with
//! helper threads answers with a legal move whose line is the closing report's, and `stop` and
//! `ponderhit` reach every thread.

mod common;

use std::time::Duration;

use common::{chess, legal, Engine, QUICK};

const START_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

/// The move, checked legal, and that the closing report (the last `info depth` line) shows
/// the line of the thread whose move is played.
fn best(e: &mut Engine, timeout: Duration) -> String {
    let (mv, lines) = e.bestmove(timeout);
    assert!(
        legal(&chess(START_E4), &mv).is_some(),
        "{mv:?} after {lines:?}"
    );
    if let Some(last) = lines.iter().rev().find(|l| l.starts_with("info depth")) {
        let first = last
            .split(" pv ")
            .nth(1)
            .and_then(|pv| pv.split(' ').next());
        assert_eq!(first, Some(mv.as_str()), "{last:?} before bestmove {mv}");
    }
    mv
}

#[test]
fn helper_threads_answer_with_legal_moves_and_obey_stop_and_ponderhit() {
    let mut e = Engine::ready();
    e.send("setoption name Threads value 4");
    e.send("position startpos moves e2e4");
    e.send("go depth 9");
    best(&mut e, Duration::from_secs(120));

    // stop reaches the helpers: the answer comes at once.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    best(&mut e, QUICK);

    // ponderhit turns the ponder search into a timed one, helpers included.
    e.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ponderhit");
    best(&mut e, Duration::from_secs(30));

    // Back to one thread, and a bench-like fixed search still answers.
    e.send("setoption name Threads value 1");
    e.send("go nodes 20000");
    best(&mut e, Duration::from_secs(60));
    assert!(e.quit());
}
