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
use vampirc_uci::{UciInfoAttribute, UciMessage};

mod commands;
mod options;

pub use commands::{go_command, position_command, setoption_command, GoClock, GoParams};
use options::parse_option;
pub use options::{OptionKind, OptionValueError, UciOption};

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

#[cfg(test)]
mod tests {
    use super::*;

    fn info(line: &str) -> Info {
        match parse_line(line) {
            EngineLine::Info(i) => *i,
            other => panic!("not info: {other:?}"),
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
