//! Nodes per bench position at a depth, with optional switches: `bench_pos 8 UseKillers=0`.
use std::sync::atomic::AtomicBool;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(1);
    let mut params = clio_search::Params::default();
    for a in args.iter().skip(2) {
        let (name, value) = a.split_once('=').unwrap_or((a, "1"));
        let v: i32 = value.parse().unwrap_or(1);
        if params.set_switch(name, v != 0).is_err() {
            if let Err(e) = params.set(name, v) {
                eprintln!("{e}");
            }
        }
    }
    let stop = AtomicBool::new(false);
    for fen in clio_search::bench_positions() {
        let Ok(pos) = clio_board::Position::from_fen(fen) else {
            continue;
        };
        let mut s = clio_search::Searcher::new(clio_search::BENCH_HASH_MB);
        *s.params_mut() = params.clone();
        let limits = clio_search::Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let r = s.search(&pos, &limits, &stop, &mut |_| {});
        println!("{:>10} {:?} {fen}", r.nodes, r.score);
    }
}
