//! Iterative deepening with aspiration windows over a PVS alpha-beta: TT cutoffs and TT move
//! first, null-move pruning, reverse futility, late move pruning, history pruning, LMR driven
//! by history, check extension, singular extensions (with double extensions, multi-cut and a
//! negative extension), mate-distance pruning, repetition and rule draws, and a quiescence
//! search with SEE pruning.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;

use clio_board::shakmaty::{Move, Position as _};
use clio_board::{see_ge, Move16, PieceChanges, Position};

use crate::eval::{attacks_of, evaluate_cached, PawnCache};
use crate::history::{
    cont_kind, cont_row, pawn_key, piece_key, ContRefs, CorrKeys, Histories, Killers, PieceTo,
    LOW_PLY, PAWN_HIST_ROWS,
};
use crate::movepick::{captured_index, is_noisy, piece_to, MovePicker, PickerHints};
use crate::nnue::{Accumulator, Network, NETWORK};
use crate::params::Params;
use crate::time::{budget, node_percent, soft_percent, TimeBudget};
use crate::tt::{Bound, Tt, TtAllocError};
use crate::{Info, Limits, Score, SearchResult};

mod qsearch;

pub use crate::score::{MATE, MATE_BOUND, MAX_PLY};
const INF: i32 = MATE + 1;

/// Counters of the last search, for the bench's first-move cutoff rate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes searched (main and quiescence).
    pub nodes: u64,
    /// Beta cutoffs in the main search.
    pub cutoffs: u64,
    /// Beta cutoffs made by the first move searched.
    pub first_move_cutoffs: u64,
}

/// One ply of the search stack, written and read by the main search only (quiescence neither
/// reads nor needs it: no main-search node lies below a quiescence node).
#[derive(Clone, Copy, Default)]
struct Frame {
    /// `(piece, to)` of the move made from this ply; `None` for a null move.
    pt: Option<PieceTo>,
    /// The continuation kind of that move ([`cont_kind`]): made in check, a capture.
    cont_kind: usize,
    killers: Killers,
    /// The move left out at this ply by a singular-extension search, else `Move16::NONE`.
    excluded: Move16,
    /// The corrected static eval of this ply's node; `-INF` in check.
    static_eval: i32,
    /// Double extensions on the path from the root to this ply.
    double_exts: i32,
    /// The move made from this ply, whether it was quiet, and the enemy attacks before it
    /// (its main-history threat bucket).
    mv: Move16,
    quiet: bool,
    threats: u64,
}

/// The engine's searcher: TT, history tables and parameters persist between searches.
///
/// With more than one thread it is a Lazy SMP search: helper threads search the same root
/// through the shared lock-free TT, each with history tables of its own, and stop when the
/// main thread does; the reported result is the best finished iteration of any thread.
pub struct Searcher {
    tt: Tt,
    /// History tables: `[0]` is the main thread's, one more per helper thread. Boxed so a
    /// resize moves pointers, not megabytes.
    #[allow(clippy::vec_box)]
    hists: Vec<Box<Histories>>,
    /// Each thread's cache of the evaluation's pawn-only part, kept from search to search (its
    /// entries are exact, so it never needs clearing: the pawn structures of the last move
    /// recur in the next one).
    pawn_caches: Vec<PawnCache>,
    params: Params,
    stats: SearchStats,
}

/// What one thread's iterative deepening finished with.
struct ThreadResult {
    best: Move,
    ponder: Option<Move>,
    score: i32,
    depth: u32,
    stats: SearchStats,
    /// The last reported lines (every MultiPV line of the last completed iteration, the
    /// interrupted iteration's move first where it counts), repeated once at the end with the
    /// final counts.
    last_lines: Vec<Info>,
}

impl Searcher {
    /// A searcher with a TT of `hash_mb` megabytes, one thread and default parameters.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Tt::new(hash_mb),
            hists: vec![Box::new(Histories::new())],
            pawn_caches: vec![PawnCache::default()],
            params: Params::default(),
            stats: SearchStats::default(),
        }
    }

    /// Searches with `n` threads (at least 1) from now on; new helpers start with empty
    /// history tables.
    pub fn set_threads(&mut self, n: usize) {
        let n = n.max(1);
        self.hists.truncate(n);
        while self.hists.len() < n {
            self.hists.push(Box::new(Histories::new()));
        }
        self.pawn_caches.resize_with(n, PawnCache::default);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.hists.len()
    }

    /// Reallocates the TT (empty) at `mb` megabytes; if the memory cannot be had, the old
    /// table stays.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), TtAllocError> {
        self.tt = Tt::try_new(mb)?;
        Ok(())
    }

    /// Forgets everything learnt: TT and every history table (`ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in &mut self.hists {
            h.clear();
        }
    }

    /// The parameters in use.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The parameters, for `setoption`.
    pub fn params_mut(&mut self) -> &mut Params {
        &mut self.params
    }

    /// Counters of the last search.
    pub fn last_stats(&self) -> SearchStats {
        self.stats
    }

    /// Searches `pos` within `limits` until done or `stop` is set, calling `info` after each
    /// completed depth and once at the end. Always returns a legal best move when one exists.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        let mut root = pos.clone();
        root.set_root();
        let mut legal = root.legal_moves();
        legal.retain(|m| limits.searches_root_move(Move16::new(m)));
        self.stats = SearchStats::default();
        if legal.is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
                score: if root.in_check() {
                    Score::Mate(0)
                } else {
                    Score::Cp(0)
                },
                depth: 0,
                nodes: 0,
            };
        }
        self.tt.new_search();
        for h in &mut self.hists {
            h.low_ply.clear();
        }
        let fallback = self
            .tt
            .probe(root.key(), 0)
            .and_then(|h| h.mv.to_move(root.chess()))
            .filter(|m| legal.contains(m))
            .unwrap_or(legal[0]);
        // The `fixed-params` feature builds the search on the compile-time defaults, for
        // measuring what reading the runtime registry costs (bench NPS with and without it).
        #[cfg(feature = "fixed-params")]
        let params = &crate::params::DEFAULTS;
        #[cfg(not(feature = "fixed-params"))]
        let params = &self.params;
        let tt = &self.tt;
        let budget = budget(limits, root.turn(), params.tm_moves_to_go as u64);
        // Set when the main thread is done, so the helpers stop too.
        let halt = AtomicBool::new(false);
        let (main_hist, helper_hists) = self.hists.split_first_mut().expect("at least one thread");
        let (main_cache, helper_caches) = self
            .pawn_caches
            .split_first_mut()
            .expect("one cache a thread");
        let (main, helpers) = std::thread::scope(|scope| {
            let handles: Vec<_> = helper_hists
                .iter_mut()
                .zip(helper_caches.iter_mut())
                .map(|(hist, cache)| {
                    let root = root.clone();
                    let halt = &halt;
                    scope.spawn(move || {
                        let tables = (&mut **hist, cache);
                        let mut w =
                            Worker::new(tt, tables, params, [stop, halt], start, limits, budget);
                        w.iterate(root, fallback, limits, &mut |_| {})
                    })
                })
                .collect();
            let tables = (&mut **main_hist, main_cache);
            let mut w = Worker::new(tt, tables, params, [stop, stop], start, limits, budget);
            let main = w.iterate(root.clone(), fallback, limits, info);
            halt.store(true, Ordering::Relaxed);
            let helpers: Vec<ThreadResult> =
                handles.into_iter().filter_map(|h| h.join().ok()).collect();
            (main, helpers)
        });
        // The best finished result: the deepest completed iteration, then the higher score.
        let mut nodes = main.stats.nodes;
        let mut best = &main;
        for h in &helpers {
            nodes += h.stats.nodes;
            if h.depth > best.depth || (h.depth == best.depth && h.score > best.score) {
                best = h;
            }
        }
        // The closing report: the lines of the thread whose move is played, counting every
        // thread's nodes.
        let lines = if best.last_lines.is_empty() {
            &main.last_lines
        } else {
            &best.last_lines
        };
        let time_ms = start.elapsed().as_millis() as u64;
        let hashfull = self.tt.hashfull();
        for line in lines {
            let mut i = line.clone();
            i.nodes = nodes;
            i.time_ms = time_ms;
            i.nps = nodes * 1000 / time_ms.max(1);
            i.hashfull = hashfull;
            info(&i);
        }
        self.stats = main.stats;
        self.stats.nodes = nodes;
        SearchResult {
            best: Some(best.best),
            ponder: best.ponder,
            score: to_uci_score(best.score),
            depth: best.depth,
            nodes,
        }
    }
}

/// The key of `pos`'s pawn structure (correction and pawn histories).
#[inline]
fn pawn_key_of(pos: &Position) -> u64 {
    let board = pos.chess().board();
    let pawns = board.pawns();
    pawn_key(
        u64::from(pawns & board.white()),
        u64::from(pawns & board.black()),
    )
}

/// The keys of `pos` for the correction histories: its pawns, and with `non_pawn` each colour's
/// other pieces (else 0).
#[inline]
fn corr_keys_of(pos: &Position, non_pawn: bool) -> CorrKeys {
    let board = pos.chess().board();
    let mut keys = CorrKeys {
        pawn: pawn_key_of(pos),
        non_pawn: [0; 2],
    };
    if non_pawn {
        for (key, colour) in keys.non_pawn.iter_mut().zip([board.white(), board.black()]) {
            *key = piece_key([
                u64::from(board.knights() & colour),
                u64::from(board.bishops() & colour),
                u64::from(board.rooks() & colour),
                u64::from(board.queens() & colour),
                u64::from(board.kings() & colour),
            ]);
        }
    }
    keys
}

/// The static eval damped towards a draw as the fifty-move count grows: `eval * (DAMP -
/// halfmoves) / DAMP` (Stockfish's shuffling damp), so a won position is pressed on rather than
/// shuffled; `damp` 0 leaves it alone.
#[inline]
fn damp_rule50(eval: i32, halfmoves: u32, damp: i32) -> i32 {
    if damp == 0 {
        return eval;
    }
    let left = (damp - halfmoves.min(100) as i32).max(0);
    eval * left / damp
}

/// Converts an internal score to centipawns or moves to mate.
pub fn to_uci_score(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Score::Mate(-(MATE + score) / 2)
    } else {
        Score::Cp(score)
    }
}

/// Per-search state: borrowed tables plus the stack, PV and counters.
struct Worker<'a> {
    tt: &'a Tt,
    hist: &'a mut Histories,
    params: &'a Params,
    /// The search stops when either flag is set (`stop`, and for helpers the main's end).
    stop: [&'a AtomicBool; 2],
    start: Instant,
    budget: TimeBudget,
    node_limit: u64,
    /// Root moves left out of the search: those outside `go searchmoves`, then under MultiPV
    /// the moves of the lines found so far at this depth.
    root_skip: Vec<Move16>,
    /// Lines to report (MultiPV).
    multipv: usize,
    /// Each MultiPV line's score at the last completed depth, best first (its aspiration
    /// window's centre at the next).
    line_scores: Vec<i32>,
    stopped: bool,
    stats: SearchStats,
    seldepth: usize,
    stack: Vec<Frame>,
    pv: Vec<[Move16; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Base reductions in 1/1024 plies, `[depth][move number]`.
    lmr: Vec<[i32; 64]>,
    /// Nodes spent below each root move this search, by [`Move16::butterfly`] index.
    root_nodes: Vec<u64>,
    /// The score of the root move that last raised alpha (valid while `pv_len[0] > 0`).
    root_score: i32,
    /// This thread's cache of the evaluation's pawn-only part.
    pawn_cache: &'a mut PawnCache,
    /// The network's accumulators of the position at each ply (with `UseNnue`), brought up to
    /// date only when a position is evaluated (Stockfish's lazy updates): a node cut off by the
    /// TT, a draw or a TT hit that carries the evaluation never pays for its own.
    acc: Vec<Accumulator>,
    /// For each ply of the current line, `None` when `acc[ply]` is up to date, else the board
    /// changes of the move that led to it from `ply - 1` (the root's is always up to date).
    acc_pending: Vec<Option<PieceChanges>>,
    /// The network (with `UseNnue`).
    net: &'static Network,
}

impl<'a> Worker<'a> {
    fn new(
        tt: &'a Tt,
        (hist, pawn_cache): (&'a mut Histories, &'a mut PawnCache),
        params: &'a Params,
        stop: [&'a AtomicBool; 2],
        start: Instant,
        limits: &Limits,
        budget: TimeBudget,
    ) -> Self {
        // Reduction = LmrBase/100 + ln(d)·ln(m)·100/LmrDiv plies (the usual log-log formula).
        let lmr = (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        let l = (d as f64).ln() * (m as f64).ln() * 100.0 / params.lmr_div as f64;
                        *r = params.lmr_base * 1024 / 100 + (l * 1024.0) as i32;
                    }
                }
                row
            })
            .collect();
        Worker {
            tt,
            hist,
            params,
            stop,
            start,
            budget,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            root_skip: Vec::new(),
            multipv: limits.multipv.max(1) as usize,
            line_scores: Vec::new(),
            stopped: false,
            stats: SearchStats::default(),
            seldepth: 0,
            stack: vec![Frame::default(); MAX_PLY + 8],
            pv: vec![[Move16::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            lmr,
            root_nodes: vec![0; 64 * 64],
            root_score: 0,
            pawn_cache,
            acc: vec![Accumulator::default(); MAX_PLY + 8],
            acc_pending: vec![None; MAX_PLY + 8],
            net: &NETWORK,
        }
    }

    /// Iterative deepening with aspiration windows from `root` until a limit or a stop flag
    /// ends it, calling `info` after each completed depth and once at the end.
    fn iterate(
        &mut self,
        mut root: Position,
        fallback: Move,
        limits: &Limits,
        info: &mut dyn FnMut(&Info),
    ) -> ThreadResult {
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as i32 - 1, |d| d as i32)
            .clamp(1, MAX_PLY as i32 - 1);
        if self.params.use_nnue {
            self.acc[0] = self.net.refresh(root.chess().board());
            self.acc_pending[0] = None;
        }
        let mut best = fallback;
        let mut ponder = None;
        let mut score = 0;
        let mut completed = 0;
        let mut last_lines: Vec<Info> = Vec::new();
        // Iterations in a row that ended with the same best move.
        let mut stable = 0;
        let (searched, left_out): (Vec<Move16>, Vec<Move16>) = (root.legal_moves().iter())
            .map(Move16::new)
            .partition(|&m| limits.searches_root_move(m));
        // Each depth starts from the moves `go searchmoves` leaves out.
        self.root_skip = left_out;
        let always_skipped = self.root_skip.len();
        // MultiPV lines: no more than the root moves there are to search.
        let lines = self.multipv.min(searched.len());
        for depth in 1..=max_depth {
            self.root_skip.truncate(always_skipped);
            let (s, fail_high) = self.aspirate(&mut root, depth, score);
            if self.stopped {
                // Stockfish's rule: a root move that raised alpha in the interrupted search,
                // else this depth's last fail high, beats the last completed iteration's move.
                if self.params.use_partial_result {
                    let interrupted =
                        (self.pv_len[0] > 0).then(|| (self.root_score, self.root_pv(&root)));
                    if let Some((s, pv)) = interrupted.or(fail_high) {
                        if let Some(&first) = pv.first() {
                            best = first;
                            ponder = pv.get(1).copied();
                            score = s;
                            // It heads the last iteration's other lines (under MultiPV,
                            // renumbered; else it is the only one).
                            last_lines.retain(|l| l.pv.first() != Some(&first));
                            last_lines.insert(0, self.info(completed, s, pv));
                            last_lines.truncate(lines.max(1));
                            if lines > 1 {
                                for (rank, l) in last_lines.iter_mut().enumerate() {
                                    l.multipv = rank as u32 + 1;
                                }
                            }
                        }
                    }
                }
                break;
            }
            let pv = self.root_pv(&root);
            let Some(&first) = pv.first() else {
                break;
            };
            // `soft_percent` caps the count; it needs no cap here.
            stable = if first == best && completed > 0 {
                stable + 1
            } else {
                0
            };
            let dropped = completed > 0 && s <= score - self.params.tm_drop_cp;
            best = first;
            ponder = pv.get(1).copied();
            score = s;
            completed = depth as u32;
            let i = self.info(completed, score, pv);
            if lines <= 1 {
                info(&i);
                last_lines = vec![i];
            } else {
                // MultiPV: each further line is the best root move not already shown, searched
                // with its own aspiration window; the lines are then ranked by score, and the
                // top one is the search's answer.
                let mut found = vec![(score, i)];
                while found.len() < lines {
                    let (_, last) = found.last().expect("one line");
                    self.root_skip.push(Move16::new(&last.pv[0]));
                    let centre = self.line_scores.get(found.len()).copied().unwrap_or(score);
                    let (s, _) = self.aspirate(&mut root, depth, centre);
                    let pv = self.root_pv(&root);
                    if self.stopped || pv.is_empty() {
                        break;
                    }
                    found.push((s, self.info(completed, s, pv)));
                }
                found.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
                self.line_scores = found.iter().map(|(s, _)| *s).collect();
                let top = &found[0].1;
                best = top.pv[0];
                ponder = top.pv.get(1).copied();
                score = found[0].0;
                for (rank, (_, line)) in found.iter_mut().enumerate() {
                    line.multipv = rank as u32 + 1;
                    line.nodes = self.stats.nodes;
                    info(line);
                }
                last_lines = found.into_iter().map(|(_, line)| line).collect();
                if self.stopped {
                    break;
                }
            }
            // Spend more while the best move changes or the score falls, less once it has
            // settled or took most of the nodes.
            let p = self.params;
            let best_nodes = self.root_nodes[Move16::new(&best).butterfly()];
            let pct = soft_percent(
                p.tm_unstable,
                p.tm_stable,
                stable,
                dropped.then_some(p.tm_score_drop),
            ) * node_percent(p.tm_node_base, p.tm_node_mul, best_nodes, self.stats.nodes)
                / 100;
            if let Some(soft) = self.budget.scaled_soft(pct) {
                if self.elapsed_ms() >= soft {
                    break;
                }
            }
        }
        ThreadResult {
            best,
            ponder,
            score,
            depth: completed,
            stats: self.stats,
            last_lines,
        }
    }

    /// One depth's search of the root with aspiration windows around `score`: the score, and
    /// the score and PV of its last fail high while no fail low followed it.
    fn aspirate(
        &mut self,
        root: &mut Position,
        depth: i32,
        score: i32,
    ) -> (i32, Option<(i32, Vec<Move>)>) {
        let mut delta = self.params.asp_window;
        let (mut alpha, mut beta) = if depth >= 4 {
            ((score - delta).max(-INF), (score + delta).min(INF))
        } else {
            (-INF, INF)
        };
        // After a fail high the window is searched again a ply shallower (Ethereal's and
        // Stockfish's aspiration loops): the move that failed high is likely good, and a
        // shallower search finds its score sooner; a fail low goes back to the full depth.
        let mut search_depth = depth;
        // The score and PV of this depth's last fail high, while no fail low followed it.
        let mut fail_high = None;
        let s = loop {
            let s = self.negamax(root, alpha, beta, search_depth, 0);
            if self.stopped {
                break s;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INF);
                search_depth = depth;
                fail_high = None;
            } else if s >= beta {
                // Kept only for the stop rule of `iterate`, which reads it.
                if self.params.use_partial_result {
                    fail_high = Some((s, self.root_pv(root)));
                }
                beta = (s + delta).min(INF);
                if self.params.use_asp_reduce && s.abs() < MATE_BOUND {
                    search_depth = (search_depth - 1).max(1);
                }
            } else {
                break s;
            }
            delta += delta / 2;
        };
        (s, fail_high)
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Counts a node and checks the limits (node limit each node, clock and flag every 1024).
    #[inline]
    fn tick(&mut self) -> bool {
        // Once stopped, the unwinding search visits no more nodes, so a node limit is exact.
        if self.stopped {
            return true;
        }
        self.stats.nodes += 1;
        if self.stats.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.stats.nodes & 1023 == 0 {
            if self.stop.iter().any(|f| f.load(Ordering::Relaxed)) {
                self.stopped = true;
            } else if let Some(hard) = self.budget.hard_ms {
                if self.elapsed_ms() >= hard {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    fn info(&self, depth: u32, score: i32, pv: Vec<Move>) -> Info {
        let time_ms = self.elapsed_ms();
        Info {
            depth,
            seldepth: self.seldepth as u32,
            score: to_uci_score(score),
            nodes: self.stats.nodes,
            nps: self.stats.nodes * 1000 / time_ms.max(1),
            time_ms,
            hashfull: self.tt.hashfull(),
            pv,
            multipv: 0,
        }
    }

    /// The root PV as legal moves (stops at the first move that does not replay).
    fn root_pv(&self, root: &Position) -> Vec<Move> {
        let mut pos = root.chess().clone();
        let mut out = Vec::new();
        for &m16 in &self.pv[0][..self.pv_len[0]] {
            let Some(m) = m16.to_move(&pos) else { break };
            pos.play_unchecked(m);
            out.push(m);
        }
        out
    }

    /// Continuation sub-tables of the node at `ply`, with their update weights (the third ply
    /// in its own slot, as it is read at `ContRead3`).
    fn conts(&self, ply: usize) -> ContRefs {
        let p = self.params;
        let plies = [
            (1, p.use_cont_hist1, p.cont_weight1),
            (2, p.use_cont_hist2, p.cont_weight2),
            (4, p.use_cont_hist4, p.cont_weight4),
            (6, p.use_cont_hist6, p.cont_weight6),
            (3, p.use_cont_hist3, p.cont_weight3),
        ];
        let mut refs = ContRefs {
            low_ply: (p.low_ply_weight > 0 && ply < LOW_PLY).then_some(ply),
            ..ContRefs::default()
        };
        let slots = refs.plies.iter_mut().chain([&mut refs.ply3]);
        for (slot, (back, on, weight)) in slots.zip(plies) {
            if on && ply >= back {
                let frame = &self.stack[ply - back];
                *slot = frame.pt.map(|pt| (cont_row(frame.cont_kind, pt), weight));
            }
        }
        refs
    }

    /// The static evaluation of `pos`, the position at `ply`: with `UseNnue`, the network's from
    /// the ply's accumulators (added to the hand-written one for a correction network), else
    /// the hand-written one (through this thread's pawn cache).
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        if self.params.use_nnue {
            self.catch_up(ply);
            debug_assert_eq!(self.acc[ply], self.net.refresh(pos.chess().board()));
            let pieces = pos.chess().board().occupied().count() as u32;
            let net = self.net.evaluate(&self.acc[ply], pos.turn(), pieces);
            if self.net.residual {
                net + evaluate_cached(pos.chess(), self.pawn_cache)
            } else {
                net
            }
        } else {
            evaluate_cached(pos.chess(), self.pawn_cache)
        }
    }

    /// Brings `acc[ply]` up to date: from the nearest ply of the line whose accumulators are,
    /// applies each later ply's pending move.
    #[inline]
    fn catch_up(&mut self, ply: usize) {
        let mut from = ply;
        while from > 0 && self.acc_pending[from].is_some() {
            from -= 1;
        }
        for j in from + 1..=ply {
            if let Some(changes) = self.acc_pending[j].take() {
                let (head, tail) = self.acc.split_at_mut(j);
                self.net.apply(&head[j - 1], &mut tail[0], &changes);
            }
        }
    }

    /// Plays `m` from the position at `ply`, first noting the next ply's accumulators as
    /// pending on `m`'s board changes (with `UseNnue`).
    #[inline]
    fn play(&mut self, pos: &mut Position, m: &Move, ply: usize) {
        if self.params.use_nnue {
            self.acc_pending[ply + 1] = Some(PieceChanges::of(pos.turn(), m));
        }
        pos.play(m);
    }

    /// The static eval `raw` of `pos` corrected by the correction histories, with the keys
    /// it read (with `UseCorrHist` off, `raw` itself and zero keys, not hashed), then damped
    /// towards a draw by the fifty-move count (`Rule50Damp`).
    #[inline]
    fn corrected_eval(&self, pos: &Position, side: usize, raw: i32) -> (i32, CorrKeys) {
        let (eval, keys) = if !self.params.use_corr_hist {
            (raw, CorrKeys::default())
        } else {
            let keys = corr_keys_of(pos, self.params.use_np_corr_hist);
            (self.hist.corrected_eval(self.params, side, keys, raw), keys)
        };
        (
            damp_rule50(eval, pos.chess().halfmoves(), self.params.rule50_damp),
            keys,
        )
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = 0;
        if ply > 0 {
            if pos.is_repetition() || pos.is_rule_draw() {
                return 0;
            }
            // Mate-distance pruning: no line from here beats a mate already found nearer.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            // Upcoming repetition: a move back to a position of the tree draws at least.
            if self.params.use_upcoming_rep && alpha < 0 && pos.has_upcoming_repetition() {
                alpha = 0;
                if alpha >= beta {
                    return alpha;
                }
            }
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }

        let key = pos.key();
        let excluded = self.stack[ply].excluded;
        let tt_hit = self.tt.probe(key, ply);
        if let Some(h) = tt_hit {
            if !pv_node
                && excluded == Move16::NONE
                && h.depth >= depth
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                    Bound::None => false,
                }
            {
                return h.score;
            }
        }
        let tt_move = tt_hit.map_or(Move16::NONE, |h| h.mv);
        // Internal iterative reduction: a node deep enough to matter that the TT knows no move
        // for is searched one ply shallower; the next visit finds the move this one stores.
        let depth = if depth >= self.params.iir_depth
            && tt_move == Move16::NONE
            && excluded == Move16::NONE
        {
            depth - 1
        } else {
            depth
        };
        let side = usize::from(pos.turn().is_black());
        // The TT keeps the raw evaluation; the correction history is applied afresh. In check
        // there is no static eval, and the correction keys are hashed only for the correction.
        let (raw_eval, static_eval, corr_keys) = if in_check {
            (-INF, -INF, CorrKeys::default())
        } else {
            let raw = match tt_hit {
                Some(h) => h.eval,
                None => self.evaluate(pos, ply),
            };
            let (corrected, keys) = self.corrected_eval(pos, side, raw);
            (raw, corrected, keys)
        };
        // The TT's score bounds the true value better than the static eval when its bound
        // points the right way: prune on that.
        let eval = match tt_hit {
            Some(h) if !in_check => h.refine(static_eval),
            _ => static_eval,
        };
        self.stack[ply + 2].killers = Killers::default();
        self.stack[ply].static_eval = static_eval;
        let p = self.params;
        // The quiet move that led here learns from how far it moved the static eval.
        if p.prev_eval_mul != 0 && ply > 0 && !in_check && excluded == Move16::NONE {
            let prev = &self.stack[ply - 1];
            if prev.pt.is_some() && prev.quiet && prev.static_eval != -INF {
                let b = (-p.prev_eval_mul * (prev.static_eval + static_eval))
                    .clamp(-p.prev_eval_max, p.prev_eval_max);
                let b = if b > 0 { 2 * b } else { b / 2 };
                let (mv, threats) = (prev.mv, prev.threats);
                self.hist.main.update(1 - side, threats, mv, b, p.hist_max);
            }
        }
        // Improving: the static eval beats ours of two plies ago (four, where that one was in
        // check; with neither known, it is). Reverse futility then asks a ply's margin less,
        // and late move pruning waits for twice the moves.
        let improving = p.use_improving
            && !in_check
            && match (ply.checked_sub(2), ply.checked_sub(4)) {
                (Some(two), _) if self.stack[two].static_eval != -INF => {
                    static_eval > self.stack[two].static_eval
                }
                (_, Some(four)) if self.stack[four].static_eval != -INF => {
                    static_eval > self.stack[four].static_eval
                }
                _ => true,
            };
        let lmp_div = if p.use_improving && !improving { 2 } else { 1 };

        if !pv_node && !in_check && ply > 0 {
            let board = pos.chess().board();
            let us = board.by_color(pos.turn());
            let non_pawn = us & !(board.pawns() | board.kings());
            // Reverse futility: far above beta at low depth, assume it holds. Not for a side
            // with only its king and pawns, for the null move's reason: a bare king near the
            // edge has few moves and each may be worse than its eval says (it misses mates:
            // with `nets/clio-3.nnue` the two-rook mate in 2 took depth 12, not 3).
            if depth <= p.rfp_depth
                && non_pawn.any()
                && eval - p.rfp_margin * (depth - i32::from(improving)) >= beta
                && beta.abs() < MATE_BOUND
            {
                return eval;
            }
            // Null move: pass, and if a reduced search still fails high, trust it.
            if depth >= p.nmp_min_depth
                && excluded == Move16::NONE
                && eval >= beta
                && beta.abs() < MATE_BOUND
                && self.stack[ply - 1].pt.is_some()
                && non_pawn.any()
                && pos.play_null()
            {
                self.stack[ply].pt = None;
                if p.use_nnue {
                    self.acc_pending[ply + 1] = Some(PieceChanges::NONE);
                }
                self.stack[ply + 1].double_exts = self.stack[ply].double_exts;
                let r = p.nmp_base + depth / p.nmp_depth_div;
                let s = -self.negamax(pos, -beta, -beta + 1, depth - 1 - r, ply + 1);
                pos.undo();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }

        // Singular extension: if every move but the TT move fails low against a margin below
        // the TT score, the TT move alone holds the position and is searched one ply deeper;
        // if even the rest beat beta, cut (multi-cut); if the TT score beats beta, reduce it.
        let mut singular_ext = 0;
        if let Some(h) = tt_hit {
            if ply > 0
                && depth >= p.se_depth
                && excluded == Move16::NONE
                && tt_move != Move16::NONE
                && h.depth >= depth - 3
                && matches!(h.bound, Bound::Lower | Bound::Exact)
                && h.score.abs() < MATE_BOUND
            {
                let s_beta = h.score - p.se_margin * depth / 16;
                self.stack[ply].excluded = tt_move;
                let s = self.negamax(pos, s_beta - 1, s_beta, (depth - 1) / 2, ply);
                self.stack[ply].excluded = Move16::NONE;
                if self.stopped {
                    return 0;
                }
                if s < s_beta {
                    // Far below: the TT move is the only one by a wide margin; extend twice,
                    // at most `DextLimit` times on one path.
                    singular_ext = if !pv_node
                        && s < s_beta - p.dext_margin
                        && self.stack[ply].double_exts < p.dext_limit
                    {
                        2
                    } else {
                        1
                    };
                } else if s_beta >= beta {
                    return s_beta;
                } else if h.score >= beta {
                    singular_ext = -1;
                }
            }
        }

        let mut conts = self.conts(ply);
        if p.use_pawn_hist {
            // The correction history hashed the pawns already, unless off or in check.
            let key = if p.use_corr_hist && !in_check {
                corr_keys.pawn
            } else {
                pawn_key_of(pos)
            };
            conts.pawn = Some(key as usize % PAWN_HIST_ROWS);
        }
        if p.use_threat_hist {
            conts.threats = attacks_of(pos.chess().board(), !pos.chess().turn());
        }
        self.stack[ply].threats = conts.threats;
        let prev_pt = if ply > 0 {
            self.stack[ply - 1].pt
        } else {
            None
        };
        let hints = PickerHints {
            tt_move,
            killers: self.stack[ply].killers.0,
            counter: prev_pt.map_or(Move16::NONE, |pt| self.hist.counter.get(pt)),
            conts,
        };
        let refutations = [hints.killers[0], hints.killers[1], hints.counter];
        let mut picker = MovePicker::new(hints);
        let mut quiets: ArrayVec<(Move16, PieceTo), 64> = ArrayVec::new();
        let mut captures: ArrayVec<(PieceTo, usize), 32> = ArrayVec::new();
        let mut best_score = -INF;
        let mut best_move = Move16::NONE;
        let mut best_is_quiet = true;
        let mut move_count = 0;
        let orig_alpha = alpha;

        while let Some(m) = picker.next(pos.chess(), self.hist, p) {
            let m16 = Move16::new(&m);
            if m16 == excluded || (ply == 0 && self.root_skip.contains(&m16)) {
                continue;
            }
            self.tt.prefetch(pos.key_hint(&m));
            move_count += 1;
            let quiet = !is_noisy(&m);
            let pt = piece_to(pos.chess(), &m);
            let hist = if quiet {
                self.hist.quiet_score(p, side, m16, pt, &conts)
            } else {
                0
            };
            if ply > 0 && !in_check && best_score > -MATE_BOUND && quiet {
                // Late move pruning: enough quiets tried at low depth.
                if !pv_node
                    && depth <= 8
                    && move_count > ((p.lmp_base + depth * depth) / lmp_div) as usize
                {
                    picker.skip_quiets();
                    continue;
                }
                // Futility pruning: at shallow depth, a quiet cannot lift a hopeless eval to
                // alpha; neither can any later quiet.
                if !pv_node && depth <= p.fp_depth && eval + p.fp_base + p.fp_mul * depth <= alpha {
                    picker.skip_quiets();
                    continue;
                }
                // History pruning: a late quiet with bad history at shallow depth.
                if p.use_history_pruning
                    && depth <= p.hist_prune_depth
                    && move_count > 1
                    && hist < -p.hist_prune_margin * depth
                {
                    continue;
                }
            }

            // SEE pruning: a move that loses too much material at shallow depth.
            if ply > 0 && !in_check && best_score > -MATE_BOUND && depth <= p.see_prune_depth {
                let threshold = if quiet {
                    -p.see_quiet_mul * depth
                } else {
                    -p.see_noisy_mul * depth * depth
                };
                if !see_ge(pos.chess(), &m, threshold) {
                    continue;
                }
            }

            let nodes_before = self.stats.nodes;
            self.play(pos, &m, ply);
            self.stack[ply].pt = Some(pt);
            self.stack[ply].mv = m16;
            self.stack[ply].quiet = quiet;
            self.stack[ply].cont_kind = cont_kind(p.use_cont_hist_split, in_check, m.is_capture());
            let gives_check = pos.in_check();
            let extension = if singular_ext != 0 && m16 == tt_move {
                singular_ext
            } else {
                i32::from(gives_check)
            };
            let new_depth = depth - 1 + extension;
            self.stack[ply + 1].double_exts =
                self.stack[ply].double_exts + i32::from(extension >= 2);
            let mut score;
            if move_count == 1 {
                score = -self.negamax(pos, -beta, -alpha, new_depth, ply + 1);
            } else {
                let mut r = 0;
                let mut full_depth = new_depth;
                if depth >= 3 && quiet {
                    let mut r1024 = self.lmr[depth.min(63) as usize][move_count.min(63)];
                    if !pv_node {
                        r1024 += 1024;
                    }
                    if p.use_history_lmr {
                        r1024 -= hist * 1024 / p.lmr_hist_div;
                    }
                    if refutations.contains(&m16) {
                        r1024 -= p.lmr_refutation;
                    }
                    r = (r1024 / 1024).clamp(0, (new_depth - 1).max(0));
                }
                score = -self.negamax(pos, -alpha - 1, -alpha, new_depth - r, ply + 1);
                if score > alpha && r > 0 {
                    if p.use_deeper {
                        if score > best_score + p.deeper_base + 10 * new_depth {
                            full_depth += 1;
                        } else if score < best_score + new_depth {
                            full_depth -= 1;
                        }
                    }
                    if full_depth > new_depth - r {
                        score = -self.negamax(pos, -alpha - 1, -alpha, full_depth, ply + 1);
                    }
                }
                if score > alpha && score < beta {
                    score = -self.negamax(pos, -beta, -alpha, full_depth, ply + 1);
                }
            }
            pos.undo();
            if ply == 0 {
                self.root_nodes[m16.butterfly()] += self.stats.nodes - nodes_before;
            }
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m16;
                    best_is_quiet = quiet;
                    alpha = score;
                    if pv_node {
                        self.pv[ply][0] = m16;
                        let n = self.pv_len[ply + 1];
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
                        self.pv_len[ply] = n + 1;
                        if ply == 0 {
                            self.root_score = score;
                        }
                    }
                    if score >= beta {
                        self.stats.cutoffs += 1;
                        if move_count == 1 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        if quiet {
                            if p.use_killers {
                                self.stack[ply].killers.push(m16);
                            }
                            if p.use_countermove {
                                if let Some(prev) = prev_pt {
                                    self.hist.counter.set(prev, m16);
                                }
                            }
                            self.hist
                                .update_quiets(p, side, depth, (m16, pt), &quiets, &conts);
                            self.hist.update_captures(p, depth, None, &captures);
                        } else {
                            self.hist.update_captures(
                                p,
                                depth,
                                Some((pt, captured_index(&m))),
                                &captures,
                            );
                        }
                        break;
                    }
                }
            }
            // Beyond the first 64 quiets and 32 captures, the tried moves go unpunished.
            if quiet {
                let _ = quiets.try_push((m16, pt));
            } else if m.is_capture() {
                let _ = captures.try_push((pt, captured_index(&m)));
            }
        }

        if move_count == 0 {
            // With the TT move excluded the position is not lost: the search fails low.
            if excluded != Move16::NONE {
                return alpha;
            }
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if best_score == -INF {
            // Every move was pruned: fail low at alpha.
            return alpha;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded != Move16::NONE {
            // A search without the TT move does not value the position: store nothing.
            return best_score;
        }
        // Correction history: learn the evaluation's error where the result says something
        // about it (not a capture's gain, and a bound only on the side it bounds).
        if !in_check
            && best_is_quiet
            && best_score.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.hist
                .update_correction(p, side, corr_keys, depth, best_score - static_eval);
        }
        let eval_store = if in_check { 0 } else { raw_eval };
        self.tt
            .store(key, best_move, best_score, eval_store, depth, bound, ply);
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::damp_rule50;

    #[test]
    fn rule50_damp_fades_the_eval_linearly_and_is_off_at_zero() {
        // Off: any clock leaves the eval alone.
        assert_eq!(damp_rule50(300, 0, 0), 300);
        assert_eq!(damp_rule50(-300, 99, 0), -300);
        // Stockfish's shape at 200: a fresh clock keeps it, 50 plies take a quarter, 100 half.
        assert_eq!(damp_rule50(400, 0, 200), 400);
        assert_eq!(damp_rule50(400, 50, 200), 300);
        assert_eq!(damp_rule50(-400, 100, 200), -200);
        // A damp below 100 reaches 0 before the draw and never flips the sign.
        assert_eq!(damp_rule50(400, 90, 80), 0);
    }
}
