//! The UCI loop. The main thread reads stdin and answers at once (`isready`, `stop`, option
//! refusals); a worker thread owns the `Searcher` and runs searches and perft one after another,
//! so `stop` and `isready` are answered even deep in a search, and `stop` and `quit` end a
//! perft as they end a search.

use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use clio_board::shakmaty::{CastlingMode, Chess, Color, Move, Position as _, Role, Square};
use clio_board::{perft_divide_until, Move16, Position};
use clio_search::time::{budget, TimeBudget};
use clio_search::{Info, Limits, Params, Score, SearchResult, Searcher};

use crate::input::{self, Command, Go, Input, Start};
use crate::limits;
use crate::options::{self, Effect, Settings};
use crate::{strength, wdl};

/// Writes one line to stdout. A closed stdout (the GUI went away) is not an error worth a
/// panic: the next read sees end of input and the engine quits.
pub fn send(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Longest `info string` text; a message quoting a huge input line is cut to this.
const MAX_NOTE_CHARS: usize = 300;

/// Tells the GUI something it should know, as UCI allows: `info string …` (one line, cut to
/// `MAX_NOTE_CHARS` characters).
fn note(message: &str) {
    let one_line = message.replace(['\n', '\r'], " ");
    match one_line.char_indices().nth(MAX_NOTE_CHARS) {
        Some((cut, _)) => send(&format!("info string {}...", &one_line[..cut])),
        None => send(&format!("info string {one_line}")),
    }
}

/// Flags shared between the loop and one search.
#[derive(Debug, Default)]
struct Flags {
    /// Set by `stop`, `quit`, a new `go`, or the ponderhit timer; ends a search or a perft.
    stop: AtomicBool,
    /// True while a `go ponder` search waits for `ponderhit`.
    pondering: AtomicBool,
    /// Set by the worker once the search's `bestmove` (or the perft's total) is out.
    done: AtomicBool,
    /// A `go perft`: at end of input it runs to its total (as Stockfish's does), where a search
    /// is stopped.
    perft: bool,
}

impl Flags {
    /// Ends the search or perft these flags belong to (a pondering search too).
    fn halt(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }
}

/// Work for the worker thread, done in order.
enum Job {
    Search {
        position: Box<Position>,
        limits: Limits,
        params: Box<Params>,
        /// `go infinite`: `bestmove` waits for `stop` even if the search ends by itself.
        go_infinite: bool,
        /// `Skill Level` or `UCI_Elo` below the full engine: the level the move is chosen at.
        strength: Option<f64>,
        /// `UCI_ShowWDL`.
        show_wdl: bool,
        flags: Arc<Flags>,
    },
    Perft {
        position: Box<Chess>,
        mode: CastlingMode,
        depth: u32,
        flags: Arc<Flags>,
    },
    /// A new TT of this many MB; on failure the old one is kept and the GUI told.
    ResizeHash(usize),
    NewGame,
    ClearHash,
    /// Search with this many threads from the next `go` on.
    SetThreads(usize),
    /// `isready` while no search runs: `readyok` once the jobs before it are done, so a GUI
    /// that waits for it after `ucinewgame` or `setoption name Hash` finds the tables ready
    /// (and does not charge their clearing to the first move's clock).
    Ready,
}

/// The engine's state as the loop keeps it.
pub struct Engine {
    position: Position,
    settings: Settings,
    /// The budget of the running `go ponder`'s clock, taken with the parameters that search
    /// got, for the timer at `ponderhit`.
    ponder_budget: Option<TimeBudget>,
    /// Searches and perfts sent to the worker that have not ended yet (the newest last).
    pending: Vec<Arc<Flags>>,
    jobs: Option<Sender<Job>>,
    worker: Option<JoinHandle<()>>,
}

impl Engine {
    /// A new engine at the start position with default options and its worker thread running.
    pub fn new() -> Engine {
        let settings = Settings::default();
        let (tx, rx) = channel();
        let hash_mb = settings.hash_mb;
        let worker = thread::Builder::new()
            .name("clio-search".to_string())
            .stack_size(64 << 20)
            .spawn(move || worker(rx, hash_mb))
            .ok();
        if worker.is_none() {
            note("could not start the search thread");
        }
        Engine {
            position: Position::startpos(),
            settings,
            ponder_budget: None,
            pending: Vec::new(),
            jobs: Some(tx),
            worker,
        }
    }

    /// Reads commands from stdin until `quit` or end of input.
    pub fn run(mut self) {
        let stdin = io::stdin();
        let mut lines = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match lines.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    // End of input: a running perft finishes (`printf 'go perft 5' | clio`
                    // prints its count); searches stop with their bestmove.
                    self.stop_searches();
                    break;
                }
                Ok(_) => {}
            }
            // Invalid UTF-8 is read lossily: it can only make an unknown command.
            let line = String::from_utf8_lossy(&buf);
            if !self.handle(&line) {
                self.stop_all();
                break;
            }
        }
        self.shutdown();
    }

    /// Acts on one line; false when the engine should quit.
    pub fn handle(&mut self, line: &str) -> bool {
        match input::parse_line(line) {
            Input::Empty => true,
            Input::Refused(message) => {
                note(&message);
                true
            }
            Input::Command(command, notes) => {
                for n in &notes {
                    note(n);
                }
                self.execute(command)
            }
        }
    }

    fn submit(&mut self, job: Job) {
        let sent = self.jobs.as_ref().map(|tx| tx.send(job).is_ok());
        if sent != Some(true) {
            note("the search thread is gone; command ignored");
        }
    }

    /// Stops every search and perft not yet ended (a queued one then ends as soon as it starts:
    /// a search with its `bestmove`, a perft with an `info string`).
    fn stop_all(&mut self) {
        for flags in self.pending.drain(..) {
            flags.halt();
        }
        self.ponder_budget = None;
    }

    /// Stops every search not yet ended, but no perft; true if there was one.
    fn stop_searches(&mut self) -> bool {
        let mut any = false;
        for flags in self.pending.iter().filter(|f| !f.perft) {
            flags.halt();
            any = true;
        }
        if any {
            self.ponder_budget = None;
        }
        any
    }

    fn execute(&mut self, command: Command) -> bool {
        match command {
            Command::Uci => {
                send(&format!("id name Clio {}", env!("CARGO_PKG_VERSION")));
                send("id author the Clio authors");
                for line in options::option_lines() {
                    send(&line);
                }
                send("uciok");
            }
            Command::Debug(_) => {}
            Command::IsReady => {
                // During a search `readyok` comes at once, as UCI asks; otherwise after the
                // table work queued before it (the worker answers in order).
                self.pending.retain(|f| !f.done.load(Ordering::SeqCst));
                let queued = self.pending.is_empty()
                    && self
                        .jobs
                        .as_ref()
                        .is_some_and(|tx| tx.send(Job::Ready).is_ok());
                if !queued {
                    send("readyok");
                }
            }
            Command::NewGame => {
                self.stop_all();
                self.position = Position::startpos();
                self.submit(Job::NewGame);
            }
            Command::SetOption { name, value } => {
                match options::apply(&mut self.settings, &name, value.as_deref()) {
                    Ok(Effect::None) => {
                        let mode = self.castling_mode();
                        self.position = self.position.clone().with_castling_mode(mode);
                    }
                    Ok(Effect::ResizeHash(mb)) => self.submit(Job::ResizeHash(mb)),
                    Ok(Effect::ClearHash) => self.submit(Job::ClearHash),
                    Ok(Effect::SetThreads(n)) => self.submit(Job::SetThreads(n)),
                    Err(message) => note(&message),
                }
            }
            Command::Position { start, moves } => {
                match set_position(&start, &moves, self.castling_mode()) {
                    Ok(position) => self.position = position,
                    Err(message) => note(&format!("{message}; position unchanged")),
                }
            }
            Command::Go(go) => self.go(&go),
            Command::Perft(depth) => {
                let flags = self.next_flags(true);
                let position = Box::new(self.position.chess().clone());
                self.submit(Job::Perft {
                    position,
                    mode: self.castling_mode(),
                    depth,
                    flags,
                });
            }
            Command::Stop => self.stop_all(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => return false,
            Command::Display => display(&self.position),
        }
        true
    }

    /// How castling is read and written: king-takes-rook under `UCI_Chess960`.
    fn castling_mode(&self) -> CastlingMode {
        if self.settings.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// `go searchmoves`: the legal ones of `texts`, each other named in an `info string`. When
    /// none is legal the search has no root move (`bestmove 0000`, as with no legal move).
    fn searchmoves(&self, texts: &[String]) -> Vec<Move16> {
        let mut moves = Vec::new();
        for t in texts {
            match Move16::from_uci(t, self.position.chess()) {
                Some(m) if !moves.contains(&Move16::new(&m)) => moves.push(Move16::new(&m)),
                Some(_) => {}
                None => note(&format!(
                    "go searchmoves: \"{t}\" is not a legal move in {}; left out",
                    self.position.fen()
                )),
            }
        }
        if moves.is_empty() {
            note("go searchmoves: no legal move given; nothing to search");
        }
        moves
    }

    /// The flags of a new search or perft. Every `go` gets its own answer: one that comes while
    /// an earlier search is still running stops that one first (its output comes out first), so
    /// a `go infinite` left running can never hold the new one back. A perft is not stopped by
    /// a new `go` (only by `stop` or `quit`): the jobs after it wait for its total, as in
    /// Stockfish, where perft runs before the next command is read.
    fn next_flags(&mut self, perft: bool) -> Arc<Flags> {
        self.pending.retain(|f| !f.done.load(Ordering::SeqCst));
        if self.stop_searches() {
            note("go: an earlier search was still running; stopped it first");
        }
        let flags = Arc::new(Flags {
            perft,
            ..Flags::default()
        });
        self.pending.push(flags.clone());
        flags
    }

    fn go(&mut self, go: &Go) {
        let flags = self.next_flags(false);
        let us = self.position.turn();
        let (mut limits, fallback) = limits::limits(go, us, self.settings.move_overhead_ms);
        if let Some(message) = fallback {
            note(&message);
        }
        if !go.searchmoves.is_empty() {
            limits.searchmoves = Some(self.searchmoves(&go.searchmoves));
        }
        limits.multipv = self.settings.multipv;
        let strength = self.settings.strength_level();
        if let Some(level) = strength {
            // A limited search: the level's node budget, and the lines to choose among.
            let budget = strength::node_budget(level);
            limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
            limits.multipv = limits.multipv.max(strength::LINES);
        }
        if go.ponder {
            let mtg = self.settings.params.tm_moves_to_go as u64;
            self.ponder_budget = Some(budget(&limits, us, mtg));
            limits.infinite = true;
            flags.pondering.store(true, Ordering::SeqCst);
        }
        let job = Job::Search {
            position: Box::new(self.position.clone()),
            limits,
            params: Box::new(self.settings.params.clone()),
            go_infinite: go.infinite,
            strength,
            show_wdl: self.settings.show_wdl,
            flags,
        };
        self.submit(job);
    }

    /// `ponderhit`: the ponder search goes on as a normal one, stopped by a timer once the
    /// time a normal search would plan for this move (the soft limit of the `go ponder`
    /// clock, counted from now) has passed. The timer holds only this search's flags, so it
    /// can never stop a later search.
    fn ponderhit(&mut self) {
        let (Some(flags), Some(plan)) = (self.pending.last().cloned(), self.ponder_budget.take())
        else {
            return;
        };
        flags.pondering.store(false, Ordering::SeqCst);
        let Some(ms) = plan.soft_ms else {
            // No clock (or `go ponder infinite`): a depth or node limit or `stop` ends it, as a
            // plain `go` would.
            return;
        };
        let timer = thread::Builder::new()
            .name("clio-ponderhit".to_string())
            .spawn(move || {
                thread::sleep(Duration::from_millis(ms));
                flags.stop.store(true, Ordering::SeqCst);
            });
        if timer.is_err() {
            note("could not start the ponderhit timer; stopping now");
            self.stop_all();
        }
    }

    /// Ends the worker after what is still pending: the loop has stopped what must not finish.
    fn shutdown(&mut self) {
        self.jobs = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// Builds the position of a `position` command; the error names the bad FEN field or move.
fn set_position(start: &Start, moves: &[String], mode: CastlingMode) -> Result<Position, String> {
    let mut position = match start {
        Start::StartPos => Position::startpos().with_castling_mode(mode),
        Start::Fen(fen) => Position::from_fen_in(fen, mode).map_err(|e| e.to_string())?,
    };
    for (i, text) in moves.iter().enumerate() {
        position
            .play_uci_game_move(text)
            .map_err(|e| format!("position: move {} {e}", i + 1))?;
    }
    Ok(position)
}

/// The UCI line for one progress report, castling written in `mode`; with `wdl_material`
/// (`UCI_ShowWDL`: the root's material count) the score also as `wdl W D L`.
pub fn info_line(info: &Info, mode: CastlingMode, wdl_material: Option<u32>) -> String {
    let mut score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    if let Some(material) = wdl_material {
        let (w, d, l) = wdl::wdl(info.score, material);
        score.push_str(&format!(" wdl {w} {d} {l}"));
    }
    let multipv = if info.multipv > 0 {
        format!(" multipv {}", info.multipv)
    } else {
        String::new()
    };
    let mut line = format!(
        "info depth {} seldepth {}{multipv} score {score} nodes {} nps {} hashfull {} time {}",
        info.depth, info.seldepth, info.nodes, info.nps, info.hashfull, info.time_ms
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for m in &info.pv {
            line.push(' ');
            line.push_str(&Move16::uci_in(m, mode));
        }
    }
    line
}

/// The `bestmove` line: the search's move if it is legal (and among `searchmoves` when they
/// are given), else the first such move, else `0000`; the ponder move only if it is legal
/// after the best move.
pub fn bestmove_line(
    root: &Chess,
    result: &SearchResult,
    mode: CastlingMode,
    limits: &Limits,
) -> String {
    let mut legal = root.legal_moves();
    legal.retain(|m| limits.searches_root_move(Move16::new(m)));
    let best: Option<Move> = result
        .best
        .filter(|m| legal.contains(m))
        .or_else(|| legal.first().copied());
    let Some(best) = best else {
        return "bestmove 0000".to_string();
    };
    let mut line = format!("bestmove {}", Move16::uci_in(&best, mode));
    if let Some(ponder) = result.ponder {
        let mut after = root.clone();
        after.play_unchecked(best);
        if after.is_legal(ponder) {
            line.push_str(" ponder ");
            line.push_str(&Move16::uci_in(&ponder, mode));
        }
    }
    line
}

fn worker(jobs: Receiver<Job>, hash_mb: usize) {
    let mut searcher = Searcher::new(hash_mb);
    let mut current_hash = hash_mb;
    while let Ok(job) = jobs.recv() {
        match job {
            Job::Search {
                position,
                limits,
                params,
                go_infinite,
                strength,
                show_wdl,
                flags,
            } => {
                *searcher.params_mut() = *params;
                let material = show_wdl.then(|| wdl::material(position.chess().board()));
                let mut lines = strength::Lines::default();
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    searcher.search(&position, &limits, &flags.stop, &mut |info| {
                        if strength.is_some() {
                            lines.record(info);
                        }
                        send(&info_line(info, position.castling_mode(), material))
                    })
                }));
                // A panic in the search is a bug, but the GUI still gets a legal move (the
                // first legal one, as `bestmove_line` falls back to) and the engine goes on
                // with fresh tables.
                let mut result = outcome.unwrap_or_else(|_| {
                    note("internal error in the search; playing a legal move");
                    searcher = Searcher::new(current_hash);
                    SearchResult {
                        best: None,
                        ponder: None,
                        score: Score::Cp(0),
                        depth: 0,
                        nodes: 0,
                    }
                });
                // A limited strength plays the line its level chooses.
                if let Some(chosen) =
                    strength.and_then(|l| lines.choose(l, &mut rand::thread_rng()))
                {
                    result.best = chosen.pv.first().copied();
                    result.ponder = chosen.pv.get(1).copied();
                }
                // UCI: after `go infinite`, and during `go ponder` until `ponderhit`, bestmove
                // waits for `stop` even when the search ends early (a forced mate, say).
                while !flags.stop.load(Ordering::SeqCst)
                    && (go_infinite || flags.pondering.load(Ordering::SeqCst))
                {
                    thread::sleep(Duration::from_millis(1));
                }
                // Done before the line goes out, so a `go` sent on reading it never finds this
                // search still running.
                flags.done.store(true, Ordering::SeqCst);
                send(&bestmove_line(
                    position.chess(),
                    &result,
                    position.castling_mode(),
                    &limits,
                ));
            }
            Job::Perft {
                position,
                mode,
                depth,
                flags,
            } => {
                run_go_perft(&position, mode, depth, &flags);
            }
            Job::ResizeHash(mb) if mb != current_hash => match searcher.resize_hash(mb) {
                Ok(()) => current_hash = mb,
                Err(e) => note(&format!(
                    "option Hash: {e}; keeping the {current_hash} MB table"
                )),
            },
            Job::ResizeHash(_) => {}
            Job::NewGame => searcher.clear(),
            Job::ClearHash => searcher.clear(),
            Job::SetThreads(n) => searcher.set_threads(n),
            Job::Ready => send("readyok"),
        }
    }
}

/// `go perft N` as Stockfish prints it: `move: count` per root move, then `Nodes searched: N`.
/// Once `stop` is set it ends with an `info string` saying how far it got instead.
fn run_go_perft(position: &Chess, mode: CastlingMode, depth: u32, flags: &Flags) {
    let start = Instant::now();
    let mut total = 0u64;
    let mut counted = 0;
    let finished = perft_divide_until(position, depth, &flags.stop, |m, count| {
        send(&format!("{}: {count}", Move16::uci_in(&m, mode)));
        total += count;
        counted += 1;
    });
    // Done before the last lines go out, as for a search's `bestmove`.
    flags.done.store(true, Ordering::SeqCst);
    if !finished {
        note(&format!(
            "go perft {depth} stopped after {counted} of {} root moves",
            position.legal_moves().len()
        ));
        return;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    send("");
    send(&format!("Nodes searched: {total}"));
    send(&format!(
        "info string perft {total} nodes {ms} ms {} nps",
        total * 1000 / ms
    ));
    send("");
}

/// `d`: the board, FEN and key, for debugging by hand and for tests.
fn display(position: &Position) {
    let board = position.chess().board();
    send(" +---+---+---+---+---+---+---+---+");
    for rank in (0..8u32).rev() {
        let mut row = String::from(" |");
        for file in 0..8u32 {
            let sq = Square::new(rank * 8 + file);
            let c = board.piece_at(sq).map_or(' ', |p| {
                let ch = match p.role {
                    Role::Pawn => 'p',
                    Role::Knight => 'n',
                    Role::Bishop => 'b',
                    Role::Rook => 'r',
                    Role::Queen => 'q',
                    Role::King => 'k',
                };
                if p.color == Color::White {
                    ch.to_ascii_uppercase()
                } else {
                    ch
                }
            });
            row.push_str(&format!(" {c} |"));
        }
        row.push_str(&format!(" {}", rank + 1));
        send(&row);
        send(" +---+---+---+---+---+---+---+---+");
    }
    send("   a   b   c   d   e   f   g   h");
    send("");
    send(&format!("Fen: {}", position.fen()));
    send(&format!("Key: {:016X}", position.key()));
}

#[cfg(test)]
mod tests {
    use super::*;

    const STD: CastlingMode = CastlingMode::Standard;
    use clio_board::parse_fen;

    fn result(best: Option<Move>, ponder: Option<Move>) -> SearchResult {
        SearchResult {
            best,
            ponder,
            score: Score::Cp(0),
            depth: 1,
            nodes: 1,
        }
    }

    fn mv(pos: &Chess, text: &str) -> Move {
        Move16::from_uci(text, pos).expect("legal test move")
    }

    #[test]
    fn bestmove_is_always_legal() {
        let start = Chess::default();
        let e4 = mv(&start, "e2e4");
        let mut after = start.clone();
        after.play_unchecked(e4);
        let e5 = mv(&after, "e7e5");
        assert_eq!(
            bestmove_line(&start, &result(Some(e4), Some(e5)), STD, &Limits::default()),
            "bestmove e2e4 ponder e7e5"
        );
        // A ponder move that is not legal after the best move is left out.
        assert_eq!(
            bestmove_line(&start, &result(Some(e4), Some(e4)), STD, &Limits::default()),
            "bestmove e2e4"
        );
        // A best move that is not legal here (black's move) is replaced by a legal one.
        let line = bestmove_line(&start, &result(Some(e5), None), STD, &Limits::default());
        let text = line.strip_prefix("bestmove ").unwrap_or_default();
        assert!(Move16::from_uci(text, &start).is_some(), "{line}");
        assert!(Move16::from_uci(
            &bestmove_line(&start, &result(None, None), STD, &Limits::default())[9..],
            &start
        )
        .is_some());
        let mated = parse_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
            .expect("valid");
        assert_eq!(
            bestmove_line(&mated, &result(None, None), STD, &Limits::default()),
            "bestmove 0000"
        );
    }

    #[test]
    fn info_line_format() {
        let start = Chess::default();
        let info = Info {
            depth: 5,
            seldepth: 9,
            score: Score::Mate(-3),
            nodes: 1234,
            nps: 5678,
            time_ms: 12,
            hashfull: 7,
            pv: vec![mv(&start, "e2e4")],
            multipv: 0,
        };
        assert_eq!(
            info_line(&info, STD, None),
            "info depth 5 seldepth 9 score mate -3 nodes 1234 nps 5678 hashfull 7 time 12 pv e2e4"
        );
        assert!(info_line(&info, STD, Some(40)).contains(" score mate -3 wdl 0 0 1000 nodes"));
        let second = Info { multipv: 2, ..info };
        assert!(
            info_line(&second, STD, None).starts_with("info depth 5 seldepth 9 multipv 2 score")
        );
    }

    #[test]
    fn position_errors_name_the_move() {
        let moves = ["e2e4".to_string(), "e2e4".to_string()];
        let err = set_position(&Start::StartPos, &moves, STD).unwrap_err();
        assert!(err.contains("move 2") && err.contains("e2e4"), "{err}");
        let ok = set_position(
            &Start::Fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into()),
            &[],
            STD,
        )
        .expect("legal");
        assert_eq!(ok.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    }
}
