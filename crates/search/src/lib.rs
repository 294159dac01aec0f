//! clio-search: evaluation, history tables, move picker, TT, search, time, tunables, bench.
//!
//! The entry point is [`Searcher`]: `Searcher::new(hash_mb)`, then `search(pos, limits, stop,
//! info)` for each move. Every heuristic switch and tunable lives in [`Params`].

pub mod bench;
pub mod eval;
pub mod history;
mod huge;
pub mod movepick;
pub mod nnue;
pub mod params;
pub mod score;
pub mod search;
pub mod time;
pub mod tt;

pub use bench::{
    bench_positions, format_ablation, geomean_change, run_ablation, run_bench, run_bench_with,
    BenchPosition, BenchResult, BENCH_DEPTH, BENCH_HASH_MB,
};
pub use params::{param_specs, switch_specs, ParamError, ParamSpec, Params, SwitchSpec};
pub use search::{SearchStats, Searcher};

use clio_board::shakmaty;

/// What bounds a search (the fields of UCI `go`). Unset fields do not limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime_ms: Option<u64>,
    /// White's clock.
    pub wtime_ms: Option<u64>,
    /// Black's clock.
    pub btime_ms: Option<u64>,
    /// White's increment per move.
    pub winc_ms: u64,
    /// Black's increment per move.
    pub binc_ms: u64,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Time kept in reserve for communication (UCI `Move Overhead`, default 10 ms).
    pub move_overhead_ms: u64,
    /// UCI `MultiPV`: how many best root moves to report, each with its own PV (1: one line,
    /// the ordinary search).
    pub multipv: u32,
    /// UCI `go searchmoves`: the only root moves searched (`None`: every move; a list without
    /// a legal move leaves none: no best move, as with no legal move).
    pub searchmoves: Option<Vec<clio_board::Move16>>,
}

impl Limits {
    /// Whether the root move `m` is searched (`go searchmoves`).
    pub fn searches_root_move(&self, m: clio_board::Move16) -> bool {
        self.searchmoves.as_ref().is_none_or(|s| s.contains(&m))
    }
}

/// Default `Move Overhead` in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            movetime_ms: None,
            wtime_ms: None,
            btime_ms: None,
            winc_ms: 0,
            binc_ms: 0,
            movestogo: None,
            infinite: false,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            multipv: 1,
            searchmoves: None,
        }
    }
}

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves; negative when the side to move gets mated.
    Mate(i32),
}

/// Progress of a search, reported once per completed depth and once at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of the principal variation.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Permille of the TT in use by this search.
    pub hashfull: u32,
    /// Principal variation, every move legal in sequence.
    pub pv: Vec<shakmaty::Move>,
    /// Under `MultiPV` above 1, this line's rank (1 = the best); 0 in a one-line search.
    pub multipv: u32,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Best move; `None` only when the position has no legal move.
    pub best: Option<shakmaty::Move>,
    /// Expected reply (second PV move), if known.
    pub ponder: Option<shakmaty::Move>,
    /// Score of the best move.
    pub score: Score,
    /// Last completed depth (0 if none).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}
