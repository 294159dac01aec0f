//! What a game leaves behind: its result, how it ended (with fastchess's reason text and PGN
//! termination class), the moves played and the full record.

use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::Opening;
use crate::uci::Score;

/// The result of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// 1/2-1/2.
    Draw,
}

impl GameResult {
    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The score of `side` in half points: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn half_points(self, side: Color) -> u8 {
        match self {
            GameResult::Draw => 1,
            GameResult::WhiteWins => 2 * u8::from(side == Color::White),
            GameResult::BlackWins => 2 * u8::from(side == Color::Black),
        }
    }

    /// The side that lost, `None` for a draw.
    pub fn loser(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::Black),
            GameResult::BlackWins => Some(Color::White),
            GameResult::Draw => None,
        }
    }

    fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Termination {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The same position for the third time.
    ThreefoldRepetition,
    /// 100 plies without capture or pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// Resign adjudication.
    AdjudicatedResign,
    /// Draw adjudication.
    AdjudicatedDraw,
    /// The move cap was reached (a draw).
    MaxMoves,
    /// A side exceeded its time plus the margin.
    TimeForfeit,
    /// A side sent an illegal or unparsable move (or none).
    IllegalMove,
    /// A side's process exited or closed its output.
    Disconnect,
    /// A side stopped answering.
    Stall,
    /// The run was stopped.
    Interrupted,
}

impl Termination {
    /// fastchess's PGN termination class: `normal` (rules), `adjudication`, `time forfeit`,
    /// `illegal move`, `abandoned` (crash or stall), `unterminated`.
    pub fn class(self) -> &'static str {
        match self {
            Termination::Checkmate
            | Termination::Stalemate
            | Termination::ThreefoldRepetition
            | Termination::FiftyMoves
            | Termination::InsufficientMaterial => "normal",
            Termination::AdjudicatedResign
            | Termination::AdjudicatedDraw
            | Termination::MaxMoves => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Disconnect | Termination::Stall => "abandoned",
            Termination::Interrupted => "unterminated",
        }
    }

    /// Whether the loser's engine was at fault (forfeit, illegal move, crash, hang).
    pub fn is_engine_fault(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit
                | Termination::IllegalMove
                | Termination::Disconnect
                | Termination::Stall
        )
    }
}

/// One move an engine played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The move in UCI (standard castling notation).
    pub uci: String,
    /// The move in SAN with check/mate suffix.
    pub san: String,
    /// The engine's last score before it moved (its own point of view).
    pub score: Option<Score>,
    /// Depth of that score.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Time from `go` to `bestmove`.
    pub time_ms: u64,
}

/// A finished game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// The opening as given.
    pub opening: Opening,
    /// FEN of the start position (before the book moves).
    pub start_fen: String,
    /// The book moves in SAN (same order as `opening.moves`).
    pub book_san: Vec<String>,
    /// The engines' moves.
    pub moves: Vec<MoveRecord>,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// fastchess's wording, e.g. `White mates`, `Black loses on time (37ms overrun)`.
    pub reason: String,
    /// More for logs when an engine was at fault (e.g. the illegal move), else `None`.
    pub detail: Option<String>,
    /// The PGN `TimeControl` value.
    pub time_control: String,
    /// Wall-clock start.
    pub started: SystemTime,
    /// Wall time of the game, in microseconds.
    pub duration_us: u64,
    /// Time spent thinking by White and by Black (from `go` to `bestmove`), in microseconds:
    /// summed per move in whole milliseconds it would lose half a millisecond a move, which at
    /// a node limit of a few milliseconds a move is most of what looks like runner overhead.
    pub engine_time_us: [u64; 2],
    /// Standard chess or Chess960 (the PGN's `Variant` tag).
    pub variant: super::Variant,
}

/// How a game ended: the result, the termination and fastchess's reason text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// fastchess's wording, e.g. `White mates`, `Black loses on time (37ms overrun)`.
    pub reason: String,
}

impl Ending {
    /// `loser` loses the game by `termination`; the reason follows from the two.
    pub fn lose(loser: Color, termination: Termination) -> Ending {
        let (w, l) = (color_name(!loser), color_name(loser));
        let reason = match termination {
            Termination::Checkmate => format!("{w} mates"),
            Termination::AdjudicatedResign => format!("{w} wins by adjudication"),
            Termination::TimeForfeit => format!("{l} loses on time"),
            Termination::IllegalMove => format!("{l} makes an illegal move"),
            Termination::Disconnect => format!("{l} disconnects"),
            Termination::Stall => format!("{l}'s connection stalls"),
            draw => return Ending::draw(draw),
        };
        Ending {
            result: GameResult::win_for(!loser),
            termination,
            reason,
        }
    }

    /// `loser` came `overrun_ms` past its time plus the margin.
    pub fn lose_on_time(loser: Color, overrun_ms: u64) -> Ending {
        let mut e = Ending::lose(loser, Termination::TimeForfeit);
        e.reason.push_str(&format!(" ({overrun_ms}ms overrun)"));
        e
    }

    /// A draw by `termination`.
    pub fn draw(termination: Termination) -> Ending {
        let reason = match termination {
            Termination::Stalemate => "Draw by stalemate",
            Termination::ThreefoldRepetition => "Draw by 3-fold repetition",
            Termination::FiftyMoves => "Draw by fifty moves rule",
            Termination::InsufficientMaterial => "Draw by insufficient mating material",
            _ => "Draw by adjudication",
        };
        Ending {
            result: GameResult::Draw,
            termination,
            reason: reason.to_string(),
        }
    }
}

/// What `play_game` returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameOutcome {
    /// The game ended by a rule, adjudication or an engine fault.
    Finished(Box<GameRecord>),
    /// The stop flag was raised; the game does not count.
    Interrupted,
}

/// Index of a side in `[White, Black]` arrays (shakmaty numbers Black 0, White 1).
pub(super) fn side_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// "White" or "Black", as in fastchess's reasons.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lose_derives_result_reason_and_pgn_class() {
        let cases = [
            (Termination::Checkmate, "White mates", "normal"),
            (
                Termination::AdjudicatedResign,
                "White wins by adjudication",
                "adjudication",
            ),
            (
                Termination::IllegalMove,
                "Black makes an illegal move",
                "illegal move",
            ),
            (Termination::Disconnect, "Black disconnects", "abandoned"),
            (Termination::Stall, "Black's connection stalls", "abandoned"),
        ];
        for (termination, reason, class) in cases {
            let e = Ending::lose(Color::Black, termination);
            assert_eq!(
                (e.result, e.reason.as_str()),
                (GameResult::WhiteWins, reason)
            );
            assert_eq!(e.termination.class(), class);
        }
        let e = Ending::lose_on_time(Color::White, 37);
        assert_eq!(e.reason, "White loses on time (37ms overrun)");
        assert_eq!(
            (e.result, e.termination.class()),
            (GameResult::BlackWins, "time forfeit")
        );
        let e = Ending::draw(Termination::FiftyMoves);
        assert_eq!(
            (e.result, e.reason.as_str()),
            (GameResult::Draw, "Draw by fifty moves rule")
        );
        assert_eq!(
            Ending::draw(Termination::MaxMoves).reason,
            "Draw by adjudication"
        );
    }
}
