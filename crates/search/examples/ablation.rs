//! Prints the ablation table at the depth given (default `BENCH_DEPTH`).
fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(clio_search::BENCH_DEPTH);
    let rows = clio_search::run_ablation(depth);
    print!("{}", clio_search::format_ablation(depth, &rows));
}
