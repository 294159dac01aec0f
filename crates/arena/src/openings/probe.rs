//! A thin adapter over [`Engine`]: "search this FEN at a fixed limit and give me the score".
//!
//! Each probe starts from a fresh engine state (`ucinewgame`, then `isready`) and sends the
//! position as a bare FEN, so its score depends only on the FEN, the engine and the limit: a
//! book line re-searched later gives the score it was accepted with.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::engine::{Engine, EngineConfig, EngineError, SearchEnd};
use crate::uci::{self, GoParams, Score};

/// A fixed search limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth N`.
    Depth(u32),
}

impl Limit {
    /// The `go` command for this limit.
    pub fn go_command(self) -> String {
        let p = match self {
            Limit::Nodes(n) => GoParams {
                nodes: Some(n),
                ..GoParams::default()
            },
            Limit::Depth(d) => GoParams {
                depth: Some(d),
                ..GoParams::default()
            },
        };
        uci::go_command(&p)
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Nodes(n) => write!(f, "{n} nodes"),
            Limit::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

/// Why a probe gave no score.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The engine could not be started, restarted or made ready.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The search failed twice (the engine was restarted in between).
    #[error("engine {name}: no result for \"{fen}\" ({what})")]
    Search {
        /// Engine name.
        name: String,
        /// The position searched.
        fen: String,
        /// What went wrong the second time.
        what: String,
    },
    /// The run was stopped while the search was in flight.
    #[error("interrupted")]
    Interrupted,
}

/// One engine process used to score positions at a fixed limit.
#[derive(Debug)]
pub struct Prober {
    engine: Engine,
    limit: Limit,
    deadline: Duration,
}

impl Prober {
    /// Starts the engine (handshake and options included). `deadline` bounds one search.
    pub fn start(
        config: EngineConfig,
        limit: Limit,
        deadline: Duration,
    ) -> Result<Prober, ProbeError> {
        Ok(Prober {
            engine: Engine::start(config)?,
            limit,
            deadline,
        })
    }

    /// Scores `fen` from the side to move's point of view. A search that times out, or an
    /// engine that crashes or answers without a score, gets one retry on a restarted engine.
    pub fn score(&mut self, fen: &str, stop: &AtomicBool) -> Result<Score, ProbeError> {
        match self.try_score(fen, stop)? {
            Ok(score) => Ok(score),
            Err(_) => {
                self.engine.restart()?;
                match self.try_score(fen, stop)? {
                    Ok(score) => Ok(score),
                    Err(what) => Err(ProbeError::Search {
                        name: self.engine.name().to_string(),
                        fen: fen.to_string(),
                        what,
                    }),
                }
            }
        }
    }

    /// One attempt: `Ok(Err(what))` when the attempt failed in a way a restart may cure.
    fn try_score(
        &mut self,
        fen: &str,
        stop: &AtomicBool,
    ) -> Result<Result<Score, String>, ProbeError> {
        self.engine.ensure_alive()?;
        if let Err(e) = self.engine.new_game() {
            return Ok(Err(e.to_string()));
        }
        let position = uci::position_command(Some(fen), &[]);
        let report = self
            .engine
            .search(&position, &self.limit.go_command(), self.deadline, stop);
        Ok(match report.end {
            SearchEnd::BestMove { .. } => match report.info.score {
                Some(score) => Ok(score),
                None => Err("bestmove without a score".to_string()),
            },
            SearchEnd::Timeout => {
                self.engine.stop_search(Duration::from_secs(1));
                Err(format!(
                    "no bestmove within {} ms",
                    self.deadline.as_millis()
                ))
            }
            SearchEnd::Disconnected => Err("the engine disconnected".to_string()),
            SearchEnd::Interrupted => {
                self.engine.stop_search(Duration::from_secs(1));
                return Err(ProbeError::Interrupted);
            }
        })
    }
}
