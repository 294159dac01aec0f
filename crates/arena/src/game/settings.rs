//! What shapes a game besides the engines and the opening: the time control (fastchess and
//! cutechess `tc` syntax), the search limits on the `go` line, and the adjudication rules
//! (fastchess's `-resign`, `-draw`, `-maxmoves`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::GameError;

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
    /// how long an engine past its time gets to answer `stop` before it counts as hung. With
    /// `derive_stall` it is the cap of a limit derived from the run's median move time.
    pub stall_ms: u64,
    /// Derive the clockless stall limit from the run's move times (game::stall); `--stall-ms`
    /// turns it off. Not part of a run's fingerprint.
    #[serde(skip)]
    pub derive_stall: bool,
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
            derive_stall: false,
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

/// The rules of the games: standard chess, or Chess960 (fastchess's `-variant fischerandom`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Standard chess.
    #[default]
    Standard,
    /// Chess960: the book's FENs may set up any back rank (X-FEN or Shredder-FEN castling
    /// rights), every engine gets `UCI_Chess960 true`, castling is sent and read
    /// king-takes-rook, and the PGN says `[Variant "Chess960"]`.
    Fischerandom,
}

impl Variant {
    /// Whether this is standard chess.
    pub fn is_standard(&self) -> bool {
        *self == Variant::Standard
    }

    /// The UCI options every engine needs for this variant (checked strictly: an engine
    /// without `UCI_Chess960` cannot play Chess960).
    pub fn engine_options(self) -> Vec<(String, String)> {
        match self {
            Variant::Standard => Vec::new(),
            Variant::Fischerandom => vec![("UCI_Chess960".into(), "true".into())],
        }
    }

    /// How castling is read and written in this variant.
    pub fn castling_mode(self) -> shakmaty::CastlingMode {
        match self {
            Variant::Standard => shakmaty::CastlingMode::Standard,
            Variant::Fischerandom => shakmaty::CastlingMode::Chess960,
        }
    }
}

/// Everything that shapes a game besides the engines and the opening.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSettings {
    /// Search limits and clock.
    pub limits: Limits,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Standard chess or Chess960; left out of the serialized settings for standard chess, so
    /// the fingerprint of a standard run is what it was before the field existed.
    #[serde(default, skip_serializing_if = "Variant::is_standard")]
    pub variant: Variant,
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
}
