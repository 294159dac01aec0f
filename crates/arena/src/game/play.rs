//! The move loop: one game between two UCI engines, refereed by shakmaty, clocked and
//! adjudicated the way fastchess does it. Every way it ends is one `Ending`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position};

use super::adjudication::{rule_ending, Adjudicator};
use super::clock::Clock;
use super::opening::hash_of;
use super::stall;
use super::*;
use crate::engine::{Engine, EngineError, SearchEnd, StopAnswer};
use crate::uci::{self, GoClock, GoParams};

/// Extra time to wait past a clock's limit before giving up on a move (fastchess's MARGIN).
const DEADLINE_SLACK_MS: u64 = 100;
/// Longest wait for `bestmove` after `stop` when a move was late.
const STOP_WAIT_MS: u64 = 5_000;

/// The game so far, as its record will keep it.
struct Sheet<'a> {
    names: [String; 2],
    opening: &'a Opening,
    book: &'a PlayedOpening,
    time_control: String,
    started: (SystemTime, Instant),
    moves: Vec<MoveRecord>,
    engine_time: [u64; 2],
    variant: Variant,
}

impl Sheet<'_> {
    /// The game is over: `ending`, with `detail` for logs when an engine was at fault.
    fn end(self, ending: Ending, detail: Option<String>) -> GameOutcome {
        let [white, black] = self.names;
        GameOutcome::Finished(Box::new(GameRecord {
            white,
            black,
            opening: self.opening.clone(),
            start_fen: self.book.start_fen.clone(),
            book_san: self.book.san.clone(),
            moves: self.moves,
            result: ending.result,
            termination: ending.termination,
            reason: ending.reason,
            detail,
            time_control: self.time_control,
            started: self.started.0,
            duration_us: self.started.1.elapsed().as_micros() as u64,
            engine_time_us: self.engine_time,
            variant: self.variant,
        }))
    }
}

/// The termination of an engine that failed outside a search: a timeout is a stall, anything
/// else a disconnect.
fn fault_of(e: &EngineError) -> Termination {
    match e {
        EngineError::Timeout { .. } => Termination::Stall,
        _ => Termination::Disconnect,
    }
}

/// Plays one game. White and Black must be alive (call `Engine::ensure_alive()` first); each
/// gets `ucinewgame`. A bad opening is an error before any move; every engine fault is a loss
/// for that engine with fastchess's reason, and a crashed or hung engine is left dead for the
/// caller to restart. With `stop` raised the game is abandoned and `Interrupted` returned.
pub fn play_game(
    white: &mut Engine,
    black: &mut Engine,
    opening: &Opening,
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Result<GameOutcome, GameError> {
    let mode = settings.variant.castling_mode();
    let book = opening.play_in(mode)?;
    let limits = &settings.limits;
    let mut sheet = Sheet {
        names: [white.name().to_string(), black.name().to_string()],
        opening,
        book: &book,
        time_control: limits.time_control_tag(),
        started: (SystemTime::now(), Instant::now()),
        moves: Vec::new(),
        engine_time: [0; 2],
        variant: settings.variant,
    };
    let engines = [white, black];
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        if let Err(e) = engines[i].new_game() {
            if matches!(e, EngineError::Timeout { .. }) {
                engines[i].kill();
            }
            return Ok(sheet.end(Ending::lose(color, fault_of(&e)), Some(e.to_string())));
        }
    }

    let mut pos = book.position.clone();
    let mut hashes = book.hashes.clone();
    let mut uci_moves = book.uci.clone();
    let fen_for_engines =
        (book.start_fen != fen_of(&Chess::default())).then(|| book.start_fen.clone());
    let mut clocks = [Clock::new(limits), Clock::new(limits)];
    let mut adjudicator = Adjudicator::default();
    let mut last_mover: Option<Color> = None;
    let timed = limits.tc.is_some() || limits.movetime_ms.is_some();
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(GameOutcome::Interrupted);
        }
        if let Some(ending) = rule_ending(&pos, &hashes) {
            return Ok(sheet.end(ending, None));
        }
        let fullmoves = pos.fullmoves().get();
        let adjudicated =
            last_mover.and_then(|m| adjudicator.decide(&settings.adjudication, m, fullmoves));
        if let Some(ending) = adjudicated {
            return Ok(sheet.end(ending, None));
        }

        let side = pos.turn();
        let engine = &mut *engines[side_index(side)];
        let clock = clocks[side_index(side)];
        let go = GoParams {
            clock: limits.tc.map(|tc| GoClock {
                wtime: clocks[0].left_ms.max(0) as u64,
                btime: clocks[1].left_ms.max(0) as u64,
                winc: tc.inc_ms,
                binc: tc.inc_ms,
                movestogo: clock.moves_left,
            }),
            nodes: limits.nodes,
            depth: limits.depth,
            movetime_ms: limits.movetime_ms,
        };
        let deadline_ms = if timed {
            (clock.left_ms.max(0) as u64)
                .saturating_add(limits.margin_ms)
                .saturating_add(DEADLINE_SLACK_MS)
        } else if limits.derive_stall {
            stall::limit_ms(limits.stall_ms)
        } else {
            limits.stall_ms
        };
        let position = uci::position_command(fen_for_engines.as_deref(), &uci_moves);
        let deadline = Duration::from_millis(deadline_ms);
        let report = engine.search(&position, &uci::go_command(&go), deadline, stop);
        let elapsed_ms = report.elapsed.as_millis() as u64;
        sheet.engine_time[side_index(side)] += report.elapsed.as_micros() as u64;
        if !timed && matches!(report.end, SearchEnd::BestMove { .. }) {
            stall::record(elapsed_ms);
        }

        let mv_text = match report.end {
            SearchEnd::Interrupted => {
                engine.stop_search(Duration::from_millis(500));
                return Ok(GameOutcome::Interrupted);
            }
            SearchEnd::Disconnected => {
                engine.kill();
                return Ok(sheet.end(Ending::lose(side, Termination::Disconnect), None));
            }
            SearchEnd::Timeout => {
                let wait = Duration::from_millis(limits.stall_ms.min(STOP_WAIT_MS));
                // Under a clock an engine that is late but alive (it sends its bestmove at
                // `stop`, or at least answers `isready`) loses on time, as fastchess scores it;
                // only one that answers nothing counts as a stalled connection.
                let answer = engine.stop_search(wait);
                let ending = if timed && answer != StopAnswer::Silent {
                    let overrun = elapsed_ms.saturating_sub(clock.left_ms.max(0) as u64);
                    Ending::lose_on_time(side, overrun)
                } else {
                    Ending::lose(side, Termination::Stall)
                };
                let detail = format!("no bestmove within {deadline_ms} ms");
                return Ok(sheet.end(ending, Some(detail)));
            }
            SearchEnd::BestMove { mv } => mv,
        };

        let Some(m) = mv_text.as_deref().and_then(|t| parse_uci_move(&pos, t)) else {
            let shown = mv_text.unwrap_or_else(|| "(none)".into());
            let detail = format!("illegal move \"{shown}\" in {}", fen_of(&pos));
            return Ok(sheet.end(Ending::lose(side, Termination::IllegalMove), Some(detail)));
        };
        if let Err(overrun) = clocks[side_index(side)].charge(limits, elapsed_ms) {
            return Ok(sheet.end(Ending::lose_on_time(side, overrun), None));
        }
        let uci_text = m.to_uci(mode).to_string();
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        hashes.push(hash_of(&pos));
        uci_moves.push(uci_text.clone());
        sheet.moves.push(MoveRecord {
            uci: uci_text,
            san,
            score: report.info.score,
            depth: report.info.depth,
            nodes: report.info.nodes,
            time_ms: elapsed_ms,
        });
        let (rules, halfmoves) = (&settings.adjudication, pos.halfmoves());
        adjudicator.update(rules, side, report.info.score, halfmoves);
        last_mover = Some(side);
    }
}
