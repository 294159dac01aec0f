//! The runner's side of one game: keep the worker's engines alive, play, and boil the record
//! down to what the counter needs (result, reason, failure kind, PGN text, timing).

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use crate::book::BookEntry;
use crate::engine::{Engine, EngineConfig};
use crate::game::{self, GameOutcome, GameRecord, GameResult, GameSettings, Termination};
use crate::state::Point;
use crate::stats::SprtConfig;

/// An engine fault that cost a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// Lost on time.
    TimeForfeit,
    /// Illegal or unparsable move.
    IllegalMove,
    /// Crashed or closed its pipes.
    Disconnect,
    /// Stopped answering.
    Stall,
}

/// A finished game as the counter sees it.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// fastchess's reason text.
    pub reason: String,
    /// The side at fault (0 White, 1 Black) and how, if an engine fault ended the game.
    pub failure: Option<(u8, FailureKind)>,
    /// The full record (for the PGN).
    pub record: Box<GameRecord>,
}

impl PlayedGame {
    /// White's score in half points (0, 1 or 2).
    pub fn half_points_of_white(&self) -> u8 {
        match self.record.result {
            GameResult::WhiteWins => 2,
            GameResult::Draw => 1,
            GameResult::BlackWins => 0,
        }
    }

    /// The game as PGN text, ending with a blank line.
    pub fn pgn(&self, event: &str, round: u64) -> String {
        let mut s = crate::pgn::to_pgn(&self.record, event, round);
        while !s.ends_with("\n\n") {
            s.push('\n');
        }
        s
    }
}

fn failure_of(record: &GameRecord) -> Option<(u8, FailureKind)> {
    let kind = match record.termination {
        Termination::TimeForfeit => FailureKind::TimeForfeit,
        Termination::IllegalMove => FailureKind::IllegalMove,
        Termination::Disconnect => FailureKind::Disconnect,
        Termination::Stall => FailureKind::Stall,
        _ => return None,
    };
    let loser = match record.result {
        GameResult::WhiteWins => 1,
        GameResult::BlackWins => 0,
        GameResult::Draw => return None,
    };
    Some((loser, kind))
}

/// Makes sure the worker has a live process for engine `i` (starting or restarting it).
fn ready(
    engines: &mut HashMap<usize, Engine>,
    configs: &[EngineConfig],
    i: usize,
) -> Result<(), String> {
    if let Some(e) = engines.get_mut(&i) {
        if e.ensure_alive().is_ok() {
            return Ok(());
        }
        // One more try from scratch before giving up on this engine.
        e.ensure_alive()
            .map_err(|err| format!("engine {} cannot be restarted: {err}", configs[i].name))
    } else {
        let e = Engine::start(configs[i].clone())
            .map_err(|err| format!("engine {} cannot be started: {err}", configs[i].name))?;
        engines.insert(i, e);
        Ok(())
    }
}

/// Plays one game between engines `white` and `black` of `configs` from `entry`. `Ok(None)`
/// means the stop flag ended it (not counted); `Err` an engine that cannot be (re)started.
pub fn play(
    engines: &mut HashMap<usize, Engine>,
    configs: &[EngineConfig],
    (white, black): (usize, usize),
    entry: &BookEntry,
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Result<Option<PlayedGame>, String> {
    // Keep at most the two engines of this game alive in a worker of a round robin.
    if engines.len() > 2 {
        let drop: Vec<usize> = engines
            .keys()
            .copied()
            .filter(|k| *k != white && *k != black)
            .collect();
        for k in drop {
            if let Some(mut e) = engines.remove(&k) {
                e.quit();
            }
        }
    }
    ready(engines, configs, white)?;
    ready(engines, configs, black)?;
    let opening = game::Opening {
        fen: entry.fen.clone(),
        moves: entry.moves.clone(),
    };
    let (mut w, mut b) = match (engines.remove(&white), engines.remove(&black)) {
        (Some(w), Some(b)) => (w, b),
        _ => return Err("internal: engine missing after start".into()),
    };
    let outcome = game::play_game(&mut w, &mut b, &opening, settings, stop);
    engines.insert(white, w);
    engines.insert(black, b);
    match outcome {
        Ok(GameOutcome::Finished(record)) => Ok(Some(PlayedGame {
            white: record.white.clone(),
            black: record.black.clone(),
            result: record.result.pgn().to_string(),
            reason: record.reason.clone(),
            failure: failure_of(&record),
            record,
        })),
        Ok(GameOutcome::Interrupted) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// Writes the chart of LLR and Elo ± error against games (`plot::history_svg`).
pub fn write_plot(path: &Path, history: &[Point], sprt: Option<&SprtConfig>) -> anyhow::Result<()> {
    let svg = crate::plot::history_svg(history, sprt);
    std::fs::write(path, svg)
        .map_err(|e| anyhow::anyhow!("cannot write chart {}: {e}", path.display()))
}
