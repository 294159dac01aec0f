//! Prints the bench signature (`N nodes M nps`) at `BENCH_DEPTH` or the depth given.
fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(clio_search::BENCH_DEPTH);
    let r = clio_search::run_bench(
        depth,
        &clio_search::Params::default(),
        clio_search::BENCH_HASH_MB,
    );
    println!(
        "first-move cutoff rate {:.3}, skipped {:?}",
        r.first_move_cutoff_rate, r.skipped
    );
    println!("{} nodes {} nps", r.nodes, r.nps);
}
