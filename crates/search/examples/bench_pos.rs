//! Nodes per bench position at a depth (diagnostics).
use std::sync::atomic::AtomicBool;
fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(1);
    let stop = AtomicBool::new(false);
    for fen in clio_search::bench_positions() {
        let Ok(pos) = clio_board::Position::from_fen(fen) else {
            continue;
        };
        let mut s = clio_search::Searcher::new(16);
        let t = std::time::Instant::now();
        let r = s.search(
            &pos,
            &clio_search::Limits {
                depth: Some(depth),
                ..Default::default()
            },
            &stop,
            &mut |_| {},
        );
        println!(
            "{:>10} {:>6}ms {:?} {fen}",
            r.nodes,
            t.elapsed().as_millis(),
            r.score
        );
    }
}
