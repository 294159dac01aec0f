//! One game between two UCI engines, refereed by shakmaty, clocked and adjudicated the way
//! fastchess does it, with fastchess's wording for every way a game ends.
//!
//! Engine faults never escape as errors: a crash, a hang, an illegal or unparsable move or a
//! time forfeit loses the game for that engine with a reason. A crashed or hung engine is left
//! dead (`Engine::is_alive()` is false); the caller restarts it (`Engine::ensure_alive()`)
//! before its next game. Only a bad opening (FEN or move) is an error, before any move.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

pub use crate::engine::EngineConfig;
use crate::engine::{Engine, EngineError, SearchEnd};
pub use crate::uci::Score;
use crate::uci::{self, GoClock, GoParams};

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

/// A clock: `moves` per period (or the whole game), `base_ms` per period, `inc_ms` per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Moves per period; `None` is sudden death (plus increment).
    pub moves: Option<u32>,
    /// Time per period in ms.
    pub base_ms: u64,
    /// Increment per move in ms.
    pub inc_ms: u64,
}

/// Seconds (decimal) to milliseconds, rounded.
fn seconds_to_ms(s: &str) -> Option<u64> {
    let v: f64 = s.trim().parse().ok()?;
    (0.0..1e12)
        .contains(&v)
        .then(|| (v * 1000.0).round() as u64)
}

/// Milliseconds as seconds without trailing zeros (`8080` → `8.08`), like fastchess's `%g`.
fn ms_to_seconds(ms: u64) -> String {
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl FromStr for TimeControl {
    type Err = GameError;

    /// Parses fastchess/cutechess `tc` syntax in seconds: `[moves/]base[+inc]`.
    fn from_str(text: &str) -> Result<Self, GameError> {
        let err = |reason: &str| GameError::TimeControl {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m.trim().parse().map_err(|_| err("bad move count"))?;
                if m == 0 {
                    return Err(err("move count must be positive"));
                }
                (Some(m), r)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = seconds_to_ms(base).ok_or_else(|| err("bad base time"))?;
        let inc_ms = match inc {
            Some(i) => seconds_to_ms(i).ok_or_else(|| err("bad increment"))?,
            None => 0,
        };
        if base_ms + inc_ms == 0 {
            return Err(err("no time at all"));
        }
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }
}

impl fmt::Display for TimeControl {
    /// fastchess's form: `40/60+0.6`, `8+0.08`, `10`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", ms_to_seconds(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", ms_to_seconds(self.inc_ms))?;
        }
        Ok(())
    }
}

/// What limits each search. Every present part goes on the `go` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// A game clock.
    pub tc: Option<TimeControl>,
    /// `go nodes N`.
    pub nodes: Option<u64>,
    /// `go depth N`.
    pub depth: Option<u32>,
    /// `go movetime N` (checked like a clock with the margin when there is no `tc`).
    pub movetime_ms: Option<u64>,
    /// fastchess's `timemargin`: how far past its time a move may come without forfeiting.
    pub margin_ms: u64,
    /// How long a search without a clock may take before the engine counts as stalled, and
    /// how long an engine past its time gets to answer `stop` before it counts as hung.
    pub stall_ms: u64,
}

impl Default for Limits {
    /// No limit set; margin 0 (fastchess's default `timemargin`); 60 s before a clockless
    /// search counts as stalled.
    fn default() -> Self {
        Limits {
            tc: None,
            nodes: None,
            depth: None,
            movetime_ms: None,
            margin_ms: 0,
            stall_ms: 60_000,
        }
    }
}

impl Limits {
    /// The PGN `TimeControl` value as fastchess writes it: the clock, `N/move` for a
    /// fixed move time, `-` for none.
    pub fn time_control_tag(&self) -> String {
        match (self.tc, self.movetime_ms) {
            (Some(tc), _) => tc.to_string(),
            (None, Some(ms)) => format!("{}/move", ms_to_seconds(ms)),
            (None, None) => "-".to_string(),
        }
    }
}

/// Parses `key=value,key=value` into a lookup, rejecting keys outside `known`.
fn rule_pairs<'a>(text: &'a str, known: &[&str]) -> Result<Vec<(&'a str, &'a str)>, GameError> {
    let err = |reason: String| GameError::Rule {
        text: text.to_string(),
        reason,
    };
    let mut out = Vec::new();
    for part in text.split([',', ' ']).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| err(format!("\"{part}\" is not key=value")))?;
        if !known.contains(&k) {
            return Err(err(format!(
                "unknown key \"{k}\" (known: {})",
                known.join(", ")
            )));
        }
        out.push((k, v));
    }
    Ok(out)
}

fn rule_num<T: FromStr>(text: &str, pairs: &[(&str, &str)], key: &str) -> Result<T, GameError> {
    let v = pairs
        .iter()
        .rev()
        .find(|(k, _)| *k == key)
        .ok_or_else(|| GameError::Rule {
            text: text.to_string(),
            reason: format!("missing {key}"),
        })?
        .1;
    v.parse().map_err(|_| GameError::Rule {
        text: text.to_string(),
        reason: format!("{key}={v} is not a valid number"),
    })
}

/// Resign adjudication (fastchess `-resign`): a side whose own score has been ≤ −`score` cp for
/// `movecount` consecutive moves loses; with `twosided`, both sides' |score| ≥ `score` for
/// `movecount` moves each, and the side with the negative score loses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    /// Consecutive moves.
    pub movecount: u32,
    /// Threshold in centipawns.
    pub score: i32,
    /// fastchess's `twosided` (default false).
    pub twosided: bool,
}

impl FromStr for ResignRule {
    type Err = GameError;

    /// `movecount=3,score=400[,twosided=true]`.
    fn from_str(text: &str) -> Result<Self, GameError> {
        let pairs = rule_pairs(text, &["movecount", "score", "twosided"])?;
        let twosided = match pairs.iter().rev().find(|(k, _)| *k == "twosided") {
            None => false,
            Some((_, v)) => v.parse().map_err(|_| GameError::Rule {
                text: text.to_string(),
                reason: format!("twosided={v} is not true or false"),
            })?,
        };
        Ok(ResignRule {
            movecount: rule_num(text, &pairs, "movecount")?,
            score: rule_num(text, &pairs, "score")?,
            twosided,
        })
    }
}

/// Draw adjudication (fastchess `-draw`): from full move `movenumber` on, when both sides'
/// |score| ≤ `score` cp for `movecount` consecutive moves each (a capture or pawn move
/// restarts the count), the game is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// First full move number at which it applies.
    pub movenumber: u32,
    /// Consecutive moves per side.
    pub movecount: u32,
    /// Threshold in centipawns.
    pub score: i32,
}

impl FromStr for DrawRule {
    type Err = GameError;

    /// `movenumber=40,movecount=8,score=10`.
    fn from_str(text: &str) -> Result<Self, GameError> {
        let pairs = rule_pairs(text, &["movenumber", "movecount", "score"])?;
        Ok(DrawRule {
            movenumber: rule_num(text, &pairs, "movenumber")?,
            movecount: rule_num(text, &pairs, "movecount")?,
            score: rule_num(text, &pairs, "score")?,
        })
    }
}

/// Which adjudications apply; all off by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// Resign rule.
    pub resign: Option<ResignRule>,
    /// Draw rule.
    pub draw: Option<DrawRule>,
    /// Draw after this many moves by each engine (fastchess `-maxmoves`).
    pub maxmoves: Option<u32>,
}

/// Everything that shapes a game besides the engines and the opening.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSettings {
    /// Search limits and clock.
    pub limits: Limits,
    /// Adjudication rules.
    pub adjudication: Adjudication,
}

/// Where a game starts: a FEN (`None`: the standard start position) and book moves in UCI.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// Start FEN; `None` is the standard position.
    pub fen: Option<String>,
    /// Book moves played from it before the engines take over.
    pub moves: Vec<String>,
}

/// An opening checked and played out.
#[derive(Debug, Clone)]
pub struct PlayedOpening {
    /// The start position (before book moves).
    pub start: Chess,
    /// Its FEN.
    pub start_fen: String,
    /// The position after the book moves.
    pub position: Chess,
    /// The book moves in UCI, normalised.
    pub uci: Vec<String>,
    /// The book moves in SAN.
    pub san: Vec<String>,
    /// Hashes of the start position and of every position after a book move.
    pub hashes: Vec<Zobrist64>,
}

/// FEN of a position (en passant square only when a capture is possible).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn hash_of(pos: &Chess) -> Zobrist64 {
    pos.zobrist_hash(EnPassantMode::Legal)
}

/// Parses a UCI move and checks it is legal in `pos`.
pub fn parse_uci_move(pos: &Chess, text: &str) -> Option<shakmaty::Move> {
    UciMove::from_ascii(text.trim().as_bytes())
        .ok()?
        .to_move(pos)
        .ok()
}

impl Opening {
    /// The standard start position with no book moves.
    pub fn startpos() -> Opening {
        Opening::default()
    }

    /// Checks the FEN and plays the book moves; the error names the bad FEN or move.
    pub fn play(&self) -> Result<PlayedOpening, GameError> {
        let start: Chess = match &self.fen {
            None => Chess::default(),
            Some(f) => {
                let fen_err = |reason: String| GameError::Fen {
                    fen: f.clone(),
                    reason,
                };
                let fen =
                    Fen::from_ascii(f.trim().as_bytes()).map_err(|e| fen_err(e.to_string()))?;
                fen.into_position(CastlingMode::Standard)
                    .map_err(|e| fen_err(e.to_string()))?
            }
        };
        let mut position = start.clone();
        let mut hashes = vec![hash_of(&position)];
        let (mut uci, mut san) = (Vec::new(), Vec::new());
        for mv in &self.moves {
            let m = parse_uci_move(&position, mv).ok_or_else(|| GameError::OpeningMove {
                mv: mv.clone(),
                fen: fen_of(&position),
            })?;
            uci.push(m.to_uci(CastlingMode::Standard).to_string());
            san.push(SanPlus::from_move_and_play_unchecked(&mut position, m).to_string());
            hashes.push(hash_of(&position));
        }
        Ok(PlayedOpening {
            start_fen: fen_of(&start),
            start,
            position,
            uci,
            san,
            hashes,
        })
    }
}

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
    /// Wall time of the game.
    pub duration_ms: u64,
    /// Time spent thinking by White and by Black (from `go` to `bestmove`).
    pub engine_time_ms: [u64; 2],
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
fn side_index(c: Color) -> usize {
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

/// One side's clock, fastchess's way: it starts at base + increment; a move that takes longer
/// than what is left plus the margin forfeits; otherwise what is left (not below 0) gets the
/// increment, and a completed period of `moves` moves adds the base again.
#[derive(Debug, Clone, Copy)]
struct Clock {
    left_ms: i64,
    moves_left: Option<u32>,
}

impl Clock {
    fn new(limits: &Limits) -> Clock {
        match (limits.tc, limits.movetime_ms) {
            (Some(tc), _) => Clock {
                left_ms: (tc.base_ms + tc.inc_ms) as i64,
                moves_left: tc.moves,
            },
            (None, Some(mt)) => Clock {
                left_ms: mt as i64,
                moves_left: None,
            },
            (None, None) => Clock {
                left_ms: 0,
                moves_left: None,
            },
        }
    }

    /// Charges a move; `Err(overrun)` if it came later than the time left plus the margin.
    fn charge(&mut self, limits: &Limits, elapsed_ms: u64) -> Result<(), u64> {
        if limits.tc.is_none() && limits.movetime_ms.is_none() {
            return Ok(());
        }
        let left = self.left_ms - elapsed_ms as i64;
        if left < -(i64::try_from(limits.margin_ms).unwrap_or(i64::MAX)) {
            return Err(left.unsigned_abs());
        }
        match (limits.tc, limits.movetime_ms) {
            (Some(tc), _) => {
                self.left_ms = left.max(0) + tc.inc_ms as i64;
                if let (Some(per), Some(n)) = (tc.moves, self.moves_left) {
                    if n <= 1 {
                        self.moves_left = Some(per);
                        self.left_ms += tc.base_ms as i64;
                    } else {
                        self.moves_left = Some(n - 1);
                    }
                }
            }
            (None, Some(mt)) => self.left_ms = mt as i64,
            (None, None) => {}
        }
        Ok(())
    }
}

/// fastchess's adjudication counters (its DrawTracker, ResignTracker and MaxMovesTracker).
#[derive(Debug, Default)]
struct Adjudicator {
    draw_plies: u32,
    resign: [u32; 2],
    resign_twosided: u32,
    engine_plies: u32,
    last_score: Option<Score>,
}

impl Adjudicator {
    /// After `mover` played with `score` (its own view); `halfmoves` is the new fifty-move
    /// counter.
    fn update(&mut self, rules: &Adjudication, mover: Color, score: Option<Score>, halfmoves: u32) {
        self.engine_plies += 1;
        self.last_score = score;
        let cp = score.map(Score::as_cp);
        if let Some(d) = rules.draw {
            if halfmoves == 0 {
                self.draw_plies = 0;
            }
            match cp {
                Some(cp) if cp.abs() <= i64::from(d.score) => self.draw_plies += 1,
                _ => self.draw_plies = 0,
            }
        }
        if let Some(r) = rules.resign {
            let threshold = i64::from(r.score);
            if r.twosided {
                match cp {
                    Some(cp) if cp.abs() >= threshold => self.resign_twosided += 1,
                    _ => self.resign_twosided = 0,
                }
            } else {
                let counter = &mut self.resign[side_index(mover)];
                match cp {
                    Some(cp) if cp <= -threshold => *counter += 1,
                    _ => *counter = 0,
                }
            }
        }
    }

    /// Checked before the next move (after the rule endings): resign, then draw, then the
    /// move cap, as fastchess orders them. `last_mover` made the last move.
    fn decide(
        &self,
        rules: &Adjudication,
        last_mover: Color,
        fullmoves: u32,
    ) -> Option<(GameResult, Termination, String)> {
        if let Some(r) = rules.resign {
            let losing = self.last_score.is_some_and(|s| s.as_cp() < 0);
            let reached = if r.twosided {
                self.resign_twosided >= r.movecount.saturating_mul(2)
            } else {
                self.resign[side_index(last_mover)] >= r.movecount
            };
            if losing && reached && r.movecount > 0 {
                let winner = !last_mover;
                return Some((
                    GameResult::win_for(winner),
                    Termination::AdjudicatedResign,
                    format!("{} wins by adjudication", color_name(winner)),
                ));
            }
        }
        if let Some(d) = rules.draw {
            if fullmoves.saturating_sub(1) >= d.movenumber
                && self.draw_plies >= d.movecount.saturating_mul(2)
            {
                return Some((
                    GameResult::Draw,
                    Termination::AdjudicatedDraw,
                    "Draw by adjudication".to_string(),
                ));
            }
        }
        if let Some(m) = rules.maxmoves {
            if self.engine_plies >= m.saturating_mul(2) {
                return Some((
                    GameResult::Draw,
                    Termination::MaxMoves,
                    "Draw by adjudication".to_string(),
                ));
            }
        }
        None
    }
}

/// A rule ending of `pos`, in fastchess's order: mate/stalemate, insufficient material,
/// fifty moves, threefold repetition (counted over `hashes`, which ends with `pos`).
fn rule_ending(pos: &Chess, hashes: &[Zobrist64]) -> Option<(GameResult, Termination, String)> {
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            let winner = !pos.turn();
            (
                GameResult::win_for(winner),
                Termination::Checkmate,
                format!("{} mates", color_name(winner)),
            )
        } else {
            (
                GameResult::Draw,
                Termination::Stalemate,
                "Draw by stalemate".into(),
            )
        });
    }
    if pos.is_insufficient_material() {
        return Some((
            GameResult::Draw,
            Termination::InsufficientMaterial,
            "Draw by insufficient mating material".into(),
        ));
    }
    if pos.halfmoves() >= 100 {
        return Some((
            GameResult::Draw,
            Termination::FiftyMoves,
            "Draw by fifty moves rule".into(),
        ));
    }
    if let Some(&now) = hashes.last() {
        // Only positions since the last capture or pawn move can repeat.
        let window = (pos.halfmoves() as usize + 1).min(hashes.len());
        let seen = hashes[hashes.len() - window..]
            .iter()
            .filter(|&&h| h == now)
            .count();
        if seen >= 3 {
            return Some((
                GameResult::Draw,
                Termination::ThreefoldRepetition,
                "Draw by 3-fold repetition".into(),
            ));
        }
    }
    None
}

/// Extra time to wait past a clock's limit before giving up on a move (fastchess's MARGIN).
const DEADLINE_SLACK_MS: u64 = 100;
/// Longest wait for `bestmove` after `stop` when a move was late.
const STOP_WAIT_MS: u64 = 5_000;

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
    let book = opening.play()?;
    let limits = &settings.limits;
    let started = SystemTime::now();
    let t0 = Instant::now();
    let mut pos = book.position.clone();
    let mut hashes = book.hashes.clone();
    let mut uci_moves = book.uci.clone();
    let fen_for_engines =
        (book.start_fen != fen_of(&Chess::default())).then(|| book.start_fen.clone());
    let mut moves: Vec<MoveRecord> = Vec::new();
    let mut clocks = [Clock::new(limits), Clock::new(limits)];
    let mut engine_time = [0u64; 2];
    let mut adjudicator = Adjudicator::default();
    let mut last_mover: Option<Color> = None;

    let (white_name, black_name) = (white.name().to_string(), black.name().to_string());
    let finish = |moves: Vec<MoveRecord>,
                  engine_time: [u64; 2],
                  (result, termination, reason): (GameResult, Termination, String),
                  detail: Option<String>| {
        GameOutcome::Finished(Box::new(GameRecord {
            white: white_name.clone(),
            black: black_name.clone(),
            opening: opening.clone(),
            start_fen: book.start_fen.clone(),
            book_san: book.san.clone(),
            moves,
            result,
            termination,
            reason,
            detail,
            time_control: limits.time_control_tag(),
            started,
            duration_ms: t0.elapsed().as_millis() as u64,
            engine_time_ms: engine_time,
        }))
    };

    for color in [Color::White, Color::Black] {
        let engine = match color {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        if let Err(e) = engine.new_game() {
            let ending = fault_ending(color, &e);
            if matches!(e, EngineError::Timeout { .. }) {
                engine.kill();
            }
            return Ok(finish(Vec::new(), engine_time, ending, Some(e.to_string())));
        }
    }

    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(GameOutcome::Interrupted);
        }
        if let Some(ending) = rule_ending(&pos, &hashes) {
            return Ok(finish(moves, engine_time, ending, None));
        }
        if let Some(mover) = last_mover {
            let fullmoves = pos.fullmoves().get();
            if let Some(ending) = adjudicator.decide(&settings.adjudication, mover, fullmoves) {
                return Ok(finish(moves, engine_time, ending, None));
            }
        }

        let side = pos.turn();
        let engine = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
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
        let timed = limits.tc.is_some() || limits.movetime_ms.is_some();
        let deadline_ms = if timed {
            (clock.left_ms.max(0) as u64)
                .saturating_add(limits.margin_ms)
                .saturating_add(DEADLINE_SLACK_MS)
        } else {
            limits.stall_ms
        };
        let position = uci::position_command(fen_for_engines.as_deref(), &uci_moves);
        let report = engine.search(
            &position,
            &uci::go_command(&go),
            Duration::from_millis(deadline_ms),
            stop,
        );
        let elapsed_ms = report.elapsed.as_millis() as u64;
        engine_time[side_index(side)] += elapsed_ms;
        let name = color_name(side);

        let mv_text = match report.end {
            SearchEnd::Interrupted => {
                engine.stop_search(Duration::from_millis(500));
                return Ok(GameOutcome::Interrupted);
            }
            SearchEnd::Disconnected => {
                engine.kill();
                let ending = (
                    GameResult::win_for(!side),
                    Termination::Disconnect,
                    format!("{name} disconnects"),
                );
                return Ok(finish(moves, engine_time, ending, None));
            }
            SearchEnd::Timeout => {
                let answered =
                    engine.stop_search(Duration::from_millis(limits.stall_ms.min(STOP_WAIT_MS)));
                let ending = if timed && answered {
                    let overrun = elapsed_ms.saturating_sub(clock.left_ms.max(0) as u64);
                    (
                        GameResult::win_for(!side),
                        Termination::TimeForfeit,
                        format!("{name} loses on time ({overrun}ms overrun)"),
                    )
                } else {
                    (
                        GameResult::win_for(!side),
                        Termination::Stall,
                        format!("{name}'s connection stalls"),
                    )
                };
                let detail = format!("no bestmove within {deadline_ms} ms");
                return Ok(finish(moves, engine_time, ending, Some(detail)));
            }
            SearchEnd::BestMove { mv } => mv,
        };

        let legal = mv_text.as_deref().and_then(|t| parse_uci_move(&pos, t));
        let Some(m) = legal else {
            let ending = (
                GameResult::win_for(!side),
                Termination::IllegalMove,
                format!("{name} makes an illegal move"),
            );
            let shown = mv_text.unwrap_or_else(|| "(none)".into());
            let detail = format!("illegal move \"{shown}\" in {}", fen_of(&pos));
            return Ok(finish(moves, engine_time, ending, Some(detail)));
        };
        if let Err(overrun) = clocks[side_index(side)].charge(limits, elapsed_ms) {
            let ending = (
                GameResult::win_for(!side),
                Termination::TimeForfeit,
                format!("{name} loses on time ({overrun}ms overrun)"),
            );
            return Ok(finish(moves, engine_time, ending, None));
        }
        let uci_text = m.to_uci(CastlingMode::Standard).to_string();
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        hashes.push(hash_of(&pos));
        uci_moves.push(uci_text.clone());
        moves.push(MoveRecord {
            uci: uci_text,
            san,
            score: report.info.score,
            depth: report.info.depth,
            nodes: report.info.nodes,
            time_ms: elapsed_ms,
        });
        adjudicator.update(
            &settings.adjudication,
            side,
            report.info.score,
            pos.halfmoves(),
        );
        last_mover = Some(side);
    }
}

/// The loss for `color` when its engine failed outside a search.
fn fault_ending(color: Color, e: &EngineError) -> (GameResult, Termination, String) {
    let name = color_name(color);
    match e {
        EngineError::Timeout { .. } => (
            GameResult::win_for(!color),
            Termination::Stall,
            format!("{name}'s connection stalls"),
        ),
        _ => (
            GameResult::win_for(!color),
            Termination::Disconnect,
            format!("{name} disconnects"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_print_like_fastchess() {
        let tc: TimeControl = "40/60+0.6".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 600
            }
        );
        assert_eq!(tc.to_string(), "40/60+0.6");
        let tc: TimeControl = "8+0.08".parse().unwrap();
        assert_eq!((tc.base_ms, tc.inc_ms, tc.moves), (8000, 80, None));
        assert_eq!(tc.to_string(), "8+0.08");
        assert_eq!("10".parse::<TimeControl>().unwrap().to_string(), "10");
        assert_eq!("0.5+0.005".parse::<TimeControl>().unwrap().inc_ms, 5);
        for bad in ["", "abc", "0/10", "-1+0", "10+x", "0+0", "40/"] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert!(e.to_string().contains(&format!("\"{bad}\"")), "{e}");
        }
        let l = Limits {
            movetime_ms: Some(100),
            ..Limits::default()
        };
        assert_eq!(l.time_control_tag(), "0.1/move");
        assert_eq!(Limits::default().time_control_tag(), "-");
    }

    #[test]
    fn adjudication_rules_parse() {
        let r: ResignRule = "movecount=3,score=400".parse().unwrap();
        assert_eq!((r.movecount, r.score, r.twosided), (3, 400, false));
        let r: ResignRule = "movecount=3,score=400,twosided=true".parse().unwrap();
        assert!(r.twosided);
        let d: DrawRule = "movenumber=40,movecount=8,score=10".parse().unwrap();
        assert_eq!((d.movenumber, d.movecount, d.score), (40, 8, 10));
        assert!("movecount=3".parse::<ResignRule>().is_err());
        let e = "movenumber=4,movecount=x,score=1"
            .parse::<DrawRule>()
            .unwrap_err();
        assert!(e.to_string().contains("movecount=x"), "{e}");
        assert!("movenumber=4,bogus=1".parse::<DrawRule>().is_err());
    }

    fn tc_limits(tc: &str, margin_ms: u64) -> Limits {
        Limits {
            tc: Some(tc.parse().unwrap()),
            margin_ms,
            ..Limits::default()
        }
    }

    #[test]
    fn clock_counts_like_fastchess() {
        let l = tc_limits("1+0.1", 0);
        let mut c = Clock::new(&l);
        assert_eq!(c.left_ms, 1100);
        assert_eq!(c.charge(&l, 600), Ok(()));
        assert_eq!(c.left_ms, 600);
        assert_eq!(c.charge(&l, 637), Err(37));
        // Within the margin the move stands and the clock restarts from zero plus increment.
        let l = tc_limits("1+0.1", 50);
        let mut c = Clock::new(&l);
        assert_eq!(c.charge(&l, 1130), Ok(()));
        assert_eq!(c.left_ms, 100);
        assert_eq!(c.charge(&l, 151), Err(51));
    }

    #[test]
    fn clock_with_moves_per_period_adds_the_base_again() {
        let l = tc_limits("2/1", 0);
        let mut c = Clock::new(&l);
        assert_eq!(c.moves_left, Some(2));
        assert_eq!(c.charge(&l, 400), Ok(()));
        assert_eq!((c.left_ms, c.moves_left), (600, Some(1)));
        assert_eq!(c.charge(&l, 500), Ok(()));
        assert_eq!((c.left_ms, c.moves_left), (1100, Some(2)));
    }

    #[test]
    fn movetime_is_a_fixed_clock() {
        let l = Limits {
            movetime_ms: Some(100),
            margin_ms: 10,
            ..Limits::default()
        };
        let mut c = Clock::new(&l);
        assert_eq!(c.charge(&l, 105), Ok(()));
        assert_eq!(c.left_ms, 100);
        assert_eq!(c.charge(&l, 111), Err(11));
        let none = Limits::default();
        assert_eq!(Clock::new(&none).charge(&none, 1_000_000), Ok(()));
    }

    fn ending_after(
        fen: Option<&str>,
        moves: &[&str],
    ) -> Option<(GameResult, Termination, String)> {
        let o = Opening {
            fen: fen.map(String::from),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        };
        let p = o.play().unwrap();
        rule_ending(&p.position, &p.hashes)
    }

    #[test]
    fn rule_endings_with_fastchess_reasons() {
        let mate = ending_after(None, &["f2f3", "e7e5", "g2g4", "d8h4"]).unwrap();
        assert_eq!(
            mate,
            (
                GameResult::BlackWins,
                Termination::Checkmate,
                "Black mates".into()
            )
        );
        let stale = ending_after(Some("k7/8/1Q6/8/8/8/8/7K b - - 0 1"), &[]).unwrap();
        assert_eq!(stale.1, Termination::Stalemate);
        assert_eq!(stale.2, "Draw by stalemate");
        let bare = ending_after(Some("k7/8/8/8/8/8/8/6NK w - - 0 1"), &[]).unwrap();
        assert_eq!(bare.2, "Draw by insufficient mating material");
        let fifty = ending_after(Some("k7/8/8/8/8/8/8/5RRK w - - 99 80"), &["g1g2"]).unwrap();
        assert_eq!(fifty.2, "Draw by fifty moves rule");
        assert!(ending_after(Some("k7/8/8/8/8/8/8/5RRK w - - 98 80"), &["g1g2"]).is_none());
        // Mate on the 100th ply is mate, not a fifty-move draw.
        let mate50 = ending_after(Some("k7/8/1K6/8/8/8/8/7R w - - 99 80"), &["h1h8"]).unwrap();
        assert_eq!(mate50.1, Termination::Checkmate);
    }

    #[test]
    fn threefold_counts_the_opening_and_needs_three() {
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let twice: Vec<&str> = shuffle.to_vec();
        assert!(ending_after(None, &twice).is_none());
        let thrice: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
        let rep = ending_after(None, &thrice).unwrap();
        assert_eq!(
            rep,
            (
                GameResult::Draw,
                Termination::ThreefoldRepetition,
                "Draw by 3-fold repetition".into()
            )
        );
    }

    #[test]
    fn bad_openings_are_named() {
        let e = Opening {
            fen: Some("not a fen".into()),
            moves: vec![],
        }
        .play()
        .unwrap_err();
        assert!(e.to_string().contains("not a fen"), "{e}");
        let e = Opening {
            fen: None,
            moves: vec!["e2e4".into(), "e2e4".into()],
        }
        .play()
        .unwrap_err();
        assert!(
            matches!(&e, GameError::OpeningMove { mv, .. } if mv == "e2e4"),
            "{e}"
        );
        // Castling given king-takes-rook style is normalised to standard UCI.
        let p = Opening {
            fen: Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".into()),
            moves: vec!["e1h1".into()],
        }
        .play()
        .unwrap();
        assert_eq!(p.uci, vec!["e1g1"]);
        assert_eq!(p.san, vec!["O-O"]);
    }

    #[test]
    fn resign_adjudication_one_sided() {
        let rules = Adjudication {
            resign: Some("movecount=3,score=400".parse().unwrap()),
            ..Adjudication::default()
        };
        let mut a = Adjudicator::default();
        for i in 0..3 {
            a.update(&rules, Color::White, Some(Score::Cp(-500)), 1);
            assert!(a.decide(&rules, Color::White, 10).is_none() || i == 2);
            a.update(&rules, Color::Black, Some(Score::Cp(450)), 1);
        }
        a.update(&rules, Color::White, Some(Score::Cp(-401)), 1);
        let (result, term, reason) = a.decide(&rules, Color::White, 10).unwrap();
        assert_eq!(
            (result, term),
            (GameResult::BlackWins, Termination::AdjudicatedResign)
        );
        assert_eq!(reason, "Black wins by adjudication");
        // A better move in between restarts the count; a mate score counts as huge.
        let mut a = Adjudicator::default();
        a.update(&rules, Color::Black, Some(Score::Mate(-3)), 1);
        a.update(&rules, Color::Black, Some(Score::Cp(-399)), 1);
        a.update(&rules, Color::Black, Some(Score::Mate(-2)), 1);
        a.update(&rules, Color::Black, Some(Score::Mate(-1)), 1);
        assert!(a.decide(&rules, Color::Black, 10).is_none());
        a.update(&rules, Color::Black, Some(Score::Mate(-1)), 1);
        assert_eq!(
            a.decide(&rules, Color::Black, 10).unwrap().0,
            GameResult::WhiteWins
        );
    }

    #[test]
    fn draw_adjudication_needs_movenumber_and_quiet_plies() {
        let rules = Adjudication {
            draw: Some("movenumber=40,movecount=2,score=10".parse().unwrap()),
            ..Adjudication::default()
        };
        let mut a = Adjudicator::default();
        for _ in 0..4 {
            a.update(&rules, Color::White, Some(Score::Cp(5)), 3);
        }
        assert!(a.decide(&rules, Color::White, 40).is_none());
        let d = a.decide(&rules, Color::White, 41).unwrap();
        assert_eq!(
            (d.1, d.2.as_str()),
            (Termination::AdjudicatedDraw, "Draw by adjudication")
        );
        // A capture or pawn move restarts the count; a mate score breaks it.
        a.update(&rules, Color::White, Some(Score::Cp(0)), 0);
        assert!(a.decide(&rules, Color::White, 41).is_none());
        let mut a = Adjudicator::default();
        for s in [Score::Cp(0), Score::Cp(0), Score::Mate(30), Score::Cp(0)] {
            a.update(&rules, Color::White, Some(s), 5);
        }
        assert!(a.decide(&rules, Color::White, 41).is_none());
    }

    #[test]
    fn maxmoves_counts_engine_moves() {
        let rules = Adjudication {
            maxmoves: Some(2),
            ..Adjudication::default()
        };
        let mut a = Adjudicator::default();
        for _ in 0..3 {
            a.update(&rules, Color::White, None, 1);
        }
        assert!(a.decide(&rules, Color::White, 1).is_none());
        a.update(&rules, Color::White, None, 1);
        let d = a.decide(&rules, Color::White, 1).unwrap();
        assert_eq!(
            (d.0, d.1, d.2.as_str()),
            (
                GameResult::Draw,
                Termination::MaxMoves,
                "Draw by adjudication"
            )
        );
    }

    #[test]
    fn game_types_are_send() {
        fn assert_send<T: Send + Sync>() {}
        assert_send::<GameRecord>();
        assert_send::<GameOutcome>();
        assert_send::<GameSettings>();
        assert_send::<Opening>();
    }
}
