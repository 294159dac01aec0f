//! The client side of UCI: reading what an engine prints and writing what it is sent.
//!
//! Lines are classified and parsed with vampirc-uci, behind a guard layer of ours. vampirc-uci
//! 0.11.1 (measured) returns `Unknown` for `bestmove (none)`/`bestmove 0000`, truncates numbers of
//! 13 digits or more, panics on `info depth 300` (it reads depth as `u8`), turns `score mate -200`
//! into 56, wraps large `cp` and `hashfull` values, lets `wdl a b c` swallow everything after it,
//! and drops an empty `pv` together with the fields around it. So: `bestmove` is read from its
//! tokens; on `info` lines the fields a result depends on (depth, seldepth, nodes, time, nps,
//! hashfull, multipv, score, wdl, pv) are read by our scanner, and vampirc is only handed a line
//! it is known to read safely (for `string`); `option` lines are normalised (an empty string
//! default) and their spin numbers re-read at full width. Nothing here can panic on engine input.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde::{Deserialize, Serialize};
use vampirc_uci::{UciInfoAttribute, UciMessage, UciOptionConfig};

/// A search score as an engine reports it, from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Score {
    /// Centipawns.
    Cp(i64),
    /// Mate in this many moves (negative: the engine is getting mated).
    Mate(i64),
}

/// What a mate score counts as when scores are compared with centipawn thresholds
/// (adjudication): far beyond any evaluation, nearer mates larger.
pub const MATE_CP: i64 = 100_000;

impl Score {
    /// The score as centipawns, a mate counting as ±(`MATE_CP` − distance), so that every
    /// mate is beyond every evaluation. `mate 0` (already mated) is the most negative.
    pub fn as_cp(self) -> i64 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(m) if m > 0 => MATE_CP - m.min(MATE_CP / 2),
            Score::Mate(m) => -MATE_CP + m.unsigned_abs().min(MATE_CP as u64 / 2) as i64,
        }
    }

    /// Whether this is a mate score.
    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }
}

impl fmt::Display for Score {
    /// Formats like fastchess's PGN comments: `+0.31`, `-1.20`, `0.00`, `+M5`, `-M4`
    /// (mates in plies: `mate n` is `2n-1` plies for the mating side, `2n` for the mated).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => {
                let sign = match cp.signum() {
                    1 => "+",
                    -1 => "-",
                    _ => "",
                };
                let a = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Score::Mate(m) if m > 0 => write!(f, "+M{}", m.saturating_mul(2) - 1),
            Score::Mate(m) => write!(f, "-M{}", m.unsigned_abs().saturating_mul(2)),
        }
    }
}

/// Whether a reported score is exact or only a bound of an aspiration window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bound {
    /// `lowerbound`: the true score is at least this.
    Lower,
    /// `upperbound`: the true score is at most this.
    Upper,
}

/// The fields of one `info` line that the arena uses. Absent fields are `None`/empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv` (1 = the main line).
    pub multipv: Option<u32>,
    /// `score cp|mate`.
    pub score: Option<Score>,
    /// `lowerbound`/`upperbound` after the score.
    pub bound: Option<Bound>,
    /// `wdl w d l` in per mille.
    pub wdl: Option<[u32; 3]>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `time` in milliseconds.
    pub time_ms: Option<u64>,
    /// `hashfull` in per mille.
    pub hashfull: Option<u64>,
    /// `tbhits`.
    pub tbhits: Option<u64>,
    /// `pv` moves as sent (UCI notation, not checked here).
    pub pv: Vec<String>,
    /// `string …`: free text to the end of the line.
    pub string: Option<String>,
}

/// The type of a UCI option with its constraints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum OptionKind {
    /// `check`: `true` or `false`.
    Check {
        /// `default`.
        default: Option<bool>,
    },
    /// `spin`: an integer in `min..=max`.
    Spin {
        /// `default`.
        default: Option<i64>,
        /// `min`.
        min: Option<i64>,
        /// `max`.
        max: Option<i64>,
    },
    /// `combo`: one of `vars`.
    Combo {
        /// `default`.
        default: Option<String>,
        /// The allowed values (`var`).
        vars: Vec<String>,
    },
    /// `button`: an action without value.
    Button,
    /// `string`: any text (`<empty>` is the empty string).
    String {
        /// `default`.
        default: Option<String>,
    },
}

/// One `option name … type …` line of an engine's `uci` reply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UciOption {
    /// The option's name as the engine spells it.
    pub name: String,
    /// Its type and constraints.
    pub kind: OptionKind,
}

impl UciOption {
    /// The declared default as text (`None` for a button or an option without one).
    pub fn default_text(&self) -> Option<String> {
        match &self.kind {
            OptionKind::Check { default } => default.map(|d| d.to_string()),
            OptionKind::Spin { default, .. } => default.map(|d| d.to_string()),
            OptionKind::Combo { default, .. } | OptionKind::String { default } => default.clone(),
            OptionKind::Button => None,
        }
    }
}

/// Why a value is not acceptable for an option.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionValueError {
    /// The value of a spin option is not an integer.
    #[error("option \"{name}\": \"{value}\" is not an integer")]
    NotInteger {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
    /// The value of a spin option is outside `min..=max`.
    #[error("option \"{name}\": {value} is outside {min}..={max}")]
    OutOfRange {
        /// The option.
        name: String,
        /// The value given.
        value: i64,
        /// The engine's minimum.
        min: i64,
        /// The engine's maximum.
        max: i64,
    },
    /// The value of a check option is neither `true` nor `false`.
    #[error("option \"{name}\": \"{value}\" is not true or false")]
    NotBool {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
    /// The value of a combo option is not one of its vars.
    #[error("option \"{name}\": \"{value}\" is not one of {vars:?}")]
    NotInCombo {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// The allowed values.
        vars: Vec<String>,
    },
}

impl UciOption {
    /// Checks `value` against the option's type and range; returns the value to send (a combo
    /// value in the engine's own spelling, a check value lowercased).
    pub fn check_value(&self, value: &str) -> Result<String, OptionValueError> {
        let name = || self.name.clone();
        match &self.kind {
            OptionKind::Spin { min, max, .. } => {
                let v: i64 = value
                    .trim()
                    .parse()
                    .map_err(|_| OptionValueError::NotInteger {
                        name: name(),
                        value: value.to_string(),
                    })?;
                let (lo, hi) = (min.unwrap_or(i64::MIN), max.unwrap_or(i64::MAX));
                if v < lo || v > hi {
                    return Err(OptionValueError::OutOfRange {
                        name: name(),
                        value: v,
                        min: lo,
                        max: hi,
                    });
                }
                Ok(v.to_string())
            }
            OptionKind::Check { .. } => match value.trim().to_ascii_lowercase().as_str() {
                b @ ("true" | "false") => Ok(b.to_string()),
                _ => Err(OptionValueError::NotBool {
                    name: name(),
                    value: value.to_string(),
                }),
            },
            OptionKind::Combo { vars, .. } => vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(value.trim()))
                .cloned()
                .ok_or_else(|| OptionValueError::NotInCombo {
                    name: name(),
                    value: value.to_string(),
                    vars: vars.clone(),
                }),
            OptionKind::Button | OptionKind::String { .. } => Ok(value.to_string()),
        }
    }
}

/// One line an engine printed, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name …` / `id author …`.
    Id {
        /// `id name`.
        name: Option<String>,
        /// `id author`.
        author: Option<String>,
    },
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `option …`.
    Option(UciOption),
    /// `info …`.
    Info(Box<Info>),
    /// `bestmove …`. `mv` is `None` for `(none)`, `0000` or a missing move (no legal move
    /// claimed); otherwise the token as sent, to be checked by the caller.
    BestMove {
        /// The move token.
        mv: Option<String>,
        /// The ponder move token, if any.
        ponder: Option<String>,
    },
    /// Anything else (banners, garbage, unknown commands), kept verbatim.
    Other(String),
}

/// Parses one line of engine output. Never panics; unreadable input becomes `Other`.
pub fn parse_line(line: &str) -> EngineLine {
    let line = line.trim();
    let mut tokens = line.split_whitespace();
    match tokens.next() {
        Some("bestmove") => parse_bestmove(tokens),
        Some("info") => EngineLine::Info(Box::new(parse_info(line))),
        Some("option") => parse_option(line).unwrap_or_else(|| EngineLine::Other(line.into())),
        Some("id" | "uciok" | "readyok") => match vampirc(line) {
            Some(UciMessage::Id { name, author }) => EngineLine::Id {
                name: name.map(|s| s.trim().to_string()),
                author: author.map(|s| s.trim().to_string()),
            },
            Some(UciMessage::UciOk) => EngineLine::UciOk,
            Some(UciMessage::ReadyOk) => EngineLine::ReadyOk,
            _ => EngineLine::Other(line.into()),
        },
        _ => EngineLine::Other(line.into()),
    }
}

/// vampirc-uci's parse, as a last resort shielded from its panics.
fn vampirc(line: &str) -> Option<UciMessage> {
    catch_unwind(AssertUnwindSafe(|| vampirc_uci::parse_one(line))).ok()
}

/// `bestmove` from its tokens: `(none)`, `0000` and a missing move all mean "no move".
fn parse_bestmove<'a>(mut tokens: impl Iterator<Item = &'a str>) -> EngineLine {
    let real = |t: Option<&str>| {
        t.filter(|t| !matches!(*t, "(none)" | "0000"))
            .map(String::from)
    };
    let mv = real(tokens.next());
    let ponder = match tokens.next() {
        Some("ponder") => real(tokens.next()),
        _ => None,
    };
    EngineLine::BestMove { mv, ponder }
}

/// Keywords that start a field of an `info` line (UCI spec), used to end `pv` and similar lists.
const INFO_KEYS: &[&str] = &[
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
    "wdl",
];

/// Reads an unsigned number of any width, saturating instead of wrapping.
fn num_u64(t: Option<&str>) -> Option<u64> {
    let t = t?;
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(t.parse().unwrap_or(u64::MAX))
}

/// Reads a signed number of any width, saturating instead of wrapping.
fn num_i64(t: Option<&str>) -> Option<i64> {
    let t = t?;
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let v = num_u64(Some(digits))?;
    let v = i64::try_from(v).unwrap_or(i64::MAX);
    Some(if neg { -v } else { v })
}

fn num_u32(t: Option<&str>) -> Option<u32> {
    num_u64(t).map(|v| u32::try_from(v).unwrap_or(u32::MAX))
}

/// Scans an `info` line. `string` swallows the rest of the line (UCI spec); its text is taken
/// from vampirc when vampirc reads the same text, else verbatim.
fn parse_info(line: &str) -> Info {
    let tokens: Vec<&str> = line.split_whitespace().skip(1).collect();
    let mut info = Info::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let next = tokens.get(i + 1).copied();
        i += 1;
        match key {
            "depth" => info.depth = num_u32(next),
            "seldepth" => info.seldepth = num_u32(next),
            "multipv" => info.multipv = num_u32(next),
            "nodes" => info.nodes = num_u64(next),
            "nps" => info.nps = num_u64(next),
            "time" => info.time_ms = num_u64(next),
            "hashfull" => info.hashfull = num_u64(next),
            "tbhits" => info.tbhits = num_u64(next),
            "score" => {
                let value = num_i64(tokens.get(i + 1).copied());
                info.score = match (next, value) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
                if info.score.is_some() {
                    i += 2;
                    info.bound = match tokens.get(i).copied() {
                        Some("lowerbound") => Some(Bound::Lower),
                        Some("upperbound") => Some(Bound::Upper),
                        _ => None,
                    };
                    if info.bound.is_some() {
                        i += 1;
                    }
                }
                continue;
            }
            "wdl" => {
                let w: Vec<u32> = tokens[i..]
                    .iter()
                    .take(3)
                    .map_while(|t| num_u32(Some(t)))
                    .collect();
                if let [a, b, c] = w[..] {
                    info.wdl = Some([a, b, c]);
                }
                i += w.len();
                continue;
            }
            "pv" => {
                let moves: Vec<String> = tokens[i..]
                    .iter()
                    .take_while(|t| !INFO_KEYS.contains(t))
                    .map(|t| t.to_string())
                    .collect();
                i += moves.len();
                info.pv = moves;
                continue;
            }
            "string" => {
                info.string = Some(info_string(&tokens[i..]));
                break;
            }
            _ => continue,
        }
        // A keyed number: skip its value only if it was one (a missing value leaves the next
        // keyword in place).
        if next.is_some_and(|t| !INFO_KEYS.contains(&t)) {
            i += 1;
        }
    }
    info
}

/// The text of `info string …`: vampirc's reading of a line reduced to `info string …` when it
/// agrees with the tokens, else the tokens joined.
fn info_string(rest: &[&str]) -> String {
    let text = rest.join(" ");
    match vampirc(&format!("info string {text}")) {
        Some(UciMessage::Info(attrs)) => match attrs.as_slice() {
            [UciInfoAttribute::String(s)] if s.trim() == text => s.trim().to_string(),
            _ => text,
        },
        _ => text,
    }
}

/// Parses an `option` line with vampirc after normalising an empty string default, then
/// re-reads spin numbers from the tokens (vampirc truncates numbers of 13+ digits).
fn parse_option(line: &str) -> Option<EngineLine> {
    let mut normalised = line.to_string();
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let type_at = tokens.iter().position(|t| *t == "type")?;
    let kind = *tokens.get(type_at + 1)?;
    if kind == "string" && tokens.last() == Some(&"default") {
        normalised.push_str(" <empty>");
    }
    let config = match vampirc(&normalised)? {
        UciMessage::Option(c) => c,
        _ => return None,
    };
    let after = |key: &str| -> Option<i64> {
        let at = tokens.iter().rposition(|t| *t == key)?;
        num_i64(tokens.get(at + 1).copied())
    };
    let (name, kind) = match config {
        UciOptionConfig::Check { name, default } => (name, OptionKind::Check { default }),
        UciOptionConfig::Spin { name, .. } => (
            name,
            OptionKind::Spin {
                default: after("default"),
                min: after("min"),
                max: after("max"),
            },
        ),
        UciOptionConfig::Combo { name, default, var } => {
            (name, OptionKind::Combo { default, vars: var })
        }
        UciOptionConfig::Button { name } => (name, OptionKind::Button),
        UciOptionConfig::String { name, default } => (name, OptionKind::String { default }),
    };
    Some(EngineLine::Option(UciOption {
        name: name.trim().to_string(),
        kind,
    }))
}

/// A clock for `go`: both sides' remaining time and increment in ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoClock {
    /// White's remaining time.
    pub wtime: u64,
    /// Black's remaining time.
    pub btime: u64,
    /// White's increment.
    pub winc: u64,
    /// Black's increment.
    pub binc: u64,
    /// Moves to the next time control, if the control has a move count.
    pub movestogo: Option<u32>,
}

/// What to put on a `go` line; every present part is sent (e.g. a clock and a node limit).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `wtime … btime … winc … binc … [movestogo …]`.
    pub clock: Option<GoClock>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `depth N`.
    pub depth: Option<u32>,
    /// `movetime N`.
    pub movetime_ms: Option<u64>,
}

/// `go …` for the given limits (a bare `go` would search until `stop`: give at least one).
pub fn go_command(p: &GoParams) -> String {
    let mut s = String::from("go");
    if let Some(c) = p.clock {
        s += &format!(
            " wtime {} btime {} winc {} binc {}",
            c.wtime, c.btime, c.winc, c.binc
        );
        if let Some(m) = c.movestogo {
            s += &format!(" movestogo {m}");
        }
    }
    if let Some(n) = p.nodes {
        s += &format!(" nodes {n}");
    }
    if let Some(d) = p.depth {
        s += &format!(" depth {d}");
    }
    if let Some(t) = p.movetime_ms {
        s += &format!(" movetime {t}");
    }
    s
}

/// `position startpos|fen … [moves …]`; `fen: None` is the standard start position.
pub fn position_command(fen: Option<&str>, moves: &[String]) -> String {
    let mut s = match fen {
        None => String::from("position startpos"),
        Some(f) => format!("position fen {f}"),
    };
    if !moves.is_empty() {
        s += " moves";
        for m in moves {
            s.push(' ');
            s += m;
        }
    }
    s
}

/// `setoption name X value Y` (a button has no value: pass an empty `value`).
pub fn setoption_command(name: &str, value: &str) -> String {
    if value.is_empty() {
        format!("setoption name {name}")
    } else {
        format!("setoption name {name} value {value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(line: &str) -> Info {
        match parse_line(line) {
            EngineLine::Info(i) => *i,
            other => panic!("not info: {other:?}"),
        }
    }

    fn option(line: &str) -> UciOption {
        match parse_line(line) {
            EngineLine::Option(o) => o,
            other => panic!("not an option: {other:?}"),
        }
    }

    #[test]
    fn bestmove_none_and_null_move_mean_no_move() {
        for l in [
            "bestmove (none)",
            "bestmove 0000",
            "bestmove",
            "bestmove 0000 ponder",
        ] {
            assert_eq!(
                parse_line(l),
                EngineLine::BestMove {
                    mv: None,
                    ponder: None
                },
                "{l}"
            );
        }
        assert_eq!(
            parse_line("bestmove e7e8q ponder (none)\n"),
            EngineLine::BestMove {
                mv: Some("e7e8q".into()),
                ponder: None
            }
        );
        assert_eq!(
            parse_line("bestmove e2e4 ponder e7e5"),
            EngineLine::BestMove {
                mv: Some("e2e4".into()),
                ponder: Some("e7e5".into())
            }
        );
        // A malformed move is kept for the caller to reject as illegal.
        assert_eq!(
            parse_line("bestmove z9z9"),
            EngineLine::BestMove {
                mv: Some("z9z9".into()),
                ponder: None
            }
        );
    }

    #[test]
    fn depth_over_255_does_not_panic() {
        let i = info("info depth 300 seldepth 400 score cp 5 nodes 10 pv e2e4");
        assert_eq!(i.depth, Some(300));
        assert_eq!(i.seldepth, Some(400));
        assert_eq!(i.score, Some(Score::Cp(5)));
        assert_eq!(i.pv, vec!["e2e4"]);
        assert_eq!(
            info("info depth 99999999999999999999").depth,
            Some(u32::MAX)
        );
    }

    #[test]
    fn mate_and_large_scores_keep_their_value() {
        assert_eq!(info("info score mate -200").score, Some(Score::Mate(-200)));
        assert_eq!(info("info score mate 3").score, Some(Score::Mate(3)));
        assert_eq!(
            info("info depth 5 score cp 9999999999 hashfull 70000").score,
            Some(Score::Cp(9_999_999_999))
        );
        assert_eq!(info("info hashfull 70000").hashfull, Some(70000));
        assert_eq!(info("info score cp -70000").score, Some(Score::Cp(-70000)));
        let i = info("info score cp 20 lowerbound nodes 10");
        assert_eq!(i.bound, Some(Bound::Lower));
        assert_eq!(i.nodes, Some(10));
    }

    #[test]
    fn numbers_of_13_digits_or_more() {
        let i = info("info depth 40 nodes 1234567890123 nps 99999999999999 score cp 5 time 1");
        assert_eq!(i.nodes, Some(1_234_567_890_123));
        assert_eq!(i.nps, Some(99_999_999_999_999));
        assert_eq!(i.score, Some(Score::Cp(5)));
        assert_eq!(i.time_ms, Some(1));
        assert_eq!(
            info("info nodes 123456789012345678901234").nodes,
            Some(u64::MAX)
        );
    }

    #[test]
    fn wdl_does_not_swallow_what_follows() {
        let i = info(
            "info depth 20 seldepth 30 multipv 1 score cp 20 wdl 100 800 100 nodes 500 nps 100 \
             hashfull 5 tbhits 0 time 30 pv e2e4 e7e5",
        );
        assert_eq!(i.wdl, Some([100, 800, 100]));
        assert_eq!(i.nodes, Some(500));
        assert_eq!(i.time_ms, Some(30));
        assert_eq!(i.depth, Some(20));
        assert_eq!(i.seldepth, Some(30));
        assert_eq!(i.multipv, Some(1));
        assert_eq!(i.hashfull, Some(5));
        assert_eq!(i.pv, vec!["e2e4", "e7e5"]);
    }

    #[test]
    fn empty_pv_keeps_the_other_fields() {
        let i = info("info depth 10 score cp 20 pv");
        assert_eq!(i.depth, Some(10));
        assert_eq!(i.score, Some(Score::Cp(20)));
        assert!(i.pv.is_empty());
        let i = info("info depth 10 pv nodes 77 score mate -2");
        assert_eq!(i.nodes, Some(77));
        assert_eq!(i.score, Some(Score::Mate(-2)));
    }

    #[test]
    fn info_string_and_garbage() {
        assert_eq!(
            info("info string NNUE evaluation using nn.nnue")
                .string
                .as_deref(),
            Some("NNUE evaluation using nn.nnue")
        );
        assert_eq!(info("info depth x nodes -5 score cp").depth, None);
        assert_eq!(info("info score cp").score, None);
        for l in [
            "",
            "garbage",
            "Stockfish 16 by the Stockfish developers",
            "\u{0}\u{1}xx",
        ] {
            assert_eq!(parse_line(l), EngineLine::Other(l.trim().into()));
        }
    }

    #[test]
    fn handshake_lines() {
        assert_eq!(parse_line("uciok\n"), EngineLine::UciOk);
        assert_eq!(parse_line("  readyok "), EngineLine::ReadyOk);
        assert_eq!(
            parse_line("id name Stockfish 16 "),
            EngineLine::Id {
                name: Some("Stockfish 16".into()),
                author: None
            }
        );
    }

    #[test]
    fn stockfish_empty_string_default() {
        let o = option("option name Debug Log File type string default ");
        assert_eq!(o.name, "Debug Log File");
        assert_eq!(
            o.kind,
            OptionKind::String {
                default: Some(String::new())
            }
        );
        let o = option("option name SyzygyPath type string default <empty>");
        assert_eq!(
            o.kind,
            OptionKind::String {
                default: Some(String::new())
            }
        );
    }

    #[test]
    fn options_of_every_type() {
        let o = option("option name Skill Level type spin default 20 min 0 max 20");
        assert_eq!(o.name, "Skill Level");
        assert_eq!(
            o.kind,
            OptionKind::Spin {
                default: Some(20),
                min: Some(0),
                max: Some(20)
            }
        );
        let o = option("option name Big type spin default -5 min -10 max 12345678901234567");
        assert_eq!(
            o.kind,
            OptionKind::Spin {
                default: Some(-5),
                min: Some(-10),
                max: Some(12_345_678_901_234_567)
            }
        );
        assert_eq!(
            option("option name Ponder type check default false").kind,
            OptionKind::Check {
                default: Some(false)
            }
        );
        assert_eq!(
            option("option name Clear Hash type button").kind,
            OptionKind::Button
        );
        assert_eq!(
            option("option name Style type combo default Normal var Solid var Normal var Risky")
                .kind,
            OptionKind::Combo {
                default: Some("Normal".into()),
                vars: vec!["Solid".into(), "Normal".into(), "Risky".into()]
            }
        );
        assert!(matches!(
            parse_line("option name X type"),
            EngineLine::Other(_)
        ));
    }

    #[test]
    fn option_values_are_checked() {
        let spin = option("option name Hash type spin default 16 min 1 max 1024");
        assert_eq!(spin.check_value("64"), Ok("64".into()));
        assert!(matches!(
            spin.check_value("2048"),
            Err(OptionValueError::OutOfRange { max: 1024, .. })
        ));
        assert!(matches!(
            spin.check_value("lots"),
            Err(OptionValueError::NotInteger { .. })
        ));
        let check = option("option name Ponder type check default false");
        assert_eq!(check.check_value("True"), Ok("true".into()));
        assert!(check.check_value("yes").is_err());
        let combo = option("option name Style type combo default Normal var Solid var Normal");
        assert_eq!(combo.check_value("solid"), Ok("Solid".into()));
        let err = combo.check_value("Wild").unwrap_err();
        assert!(err.to_string().contains("Style") && err.to_string().contains("Wild"));
    }

    #[test]
    fn commands() {
        assert_eq!(position_command(None, &[]), "position startpos");
        assert_eq!(
            position_command(Some("8/8/8/8/8/8/8/K1k5 w - - 0 1"), &["a1a2".into()]),
            "position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2"
        );
        let clock = GoClock {
            wtime: 1000,
            btime: 900,
            winc: 10,
            binc: 10,
            movestogo: Some(7),
        };
        assert_eq!(
            go_command(&GoParams {
                clock: Some(clock),
                ..GoParams::default()
            }),
            "go wtime 1000 btime 900 winc 10 binc 10 movestogo 7"
        );
        assert_eq!(
            go_command(&GoParams {
                nodes: Some(1000),
                ..GoParams::default()
            }),
            "go nodes 1000"
        );
        assert_eq!(
            go_command(&GoParams {
                depth: Some(5),
                movetime_ms: Some(100),
                ..GoParams::default()
            }),
            "go depth 5 movetime 100"
        );
        assert_eq!(
            setoption_command("Hash", "16"),
            "setoption name Hash value 16"
        );
        assert_eq!(
            setoption_command("Clear Hash", ""),
            "setoption name Clear Hash"
        );
    }

    #[test]
    fn score_display_and_mate_as_cp() {
        assert_eq!(Score::Cp(31).to_string(), "+0.31");
        assert_eq!(Score::Cp(-120).to_string(), "-1.20");
        assert_eq!(Score::Cp(0).to_string(), "0.00");
        assert_eq!(Score::Mate(3).to_string(), "+M5");
        assert_eq!(Score::Mate(-2).to_string(), "-M4");
        assert!(Score::Mate(-200).as_cp() < -10_000);
        assert!(Score::Mate(1).as_cp() > Score::Mate(5).as_cp());
        assert!(Score::Mate(0).as_cp() < Score::Mate(-1).as_cp());
    }
}
