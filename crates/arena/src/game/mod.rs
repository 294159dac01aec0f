//! One game between two UCI engines, refereed by shakmaty, clocked and adjudicated the way
//! fastchess does it, with fastchess's wording for every way a game ends.
//!
//! Engine faults never escape as errors: a crash, a hang, an illegal or unparsable move or a
//! time forfeit loses the game for that engine with a reason. A crashed or hung engine is left
//! dead (`Engine::is_alive()` is false); the caller restarts it (`Engine::ensure_alive()`)
//! before its next game. Only a bad opening (FEN or move) is an error, before any move.
//!
//! Shaped like fastchess's `game/`: `settings` (time control, limits, adjudication rules),
//! `opening`, `clock`, `adjudication` (rule endings and adjudications), `record` (result,
//! termination, reason, moves) and `play` (the move loop).

mod adjudication;
mod clock;
mod opening;
mod play;
mod record;
mod settings;
pub mod stall;

pub use crate::engine::EngineConfig;
pub use crate::uci::Score;
pub use opening::{fen_of, parse_uci_move, Opening, PlayedOpening};
pub use play::play_game;
use record::side_index;
pub use record::{
    color_name, Ending, GameOutcome, GameRecord, GameResult, MoveRecord, Termination,
};
pub use settings::{
    Adjudication, DrawRule, GameSettings, Limits, ResignRule, TimeControl, Variant,
};

/// Errors in game settings or openings, each naming the offending input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A time control that does not parse.
    #[error("invalid time control \"{text}\": {reason} (expected e.g. 40/60+0.6, 8+0.08 or 10)")]
    TimeControl {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// An adjudication rule that does not parse.
    #[error("invalid adjudication rule \"{text}\": {reason}")]
    Rule {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// An opening FEN that is not a legal position.
    #[error("invalid opening FEN \"{fen}\": {reason}")]
    Fen {
        /// The FEN.
        fen: String,
        /// What is wrong.
        reason: String,
    },
    /// An opening move that is not legal where it is played.
    #[error("illegal opening move \"{mv}\" in position \"{fen}\"")]
    OpeningMove {
        /// The move.
        mv: String,
        /// The position it was tried in.
        fen: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_types_are_send() {
        fn assert_send<T: Send + Sync>() {}
        assert_send::<GameRecord>();
        assert_send::<GameOutcome>();
        assert_send::<GameSettings>();
        assert_send::<Opening>();
    }
}
