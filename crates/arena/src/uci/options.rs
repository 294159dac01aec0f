//! UCI options as an engine declares them (`option name … type …`): their kinds, the check of a
//! value before `setoption`, and the parse of the declaration.

use serde::{Deserialize, Serialize};
use vampirc_uci::{UciMessage, UciOptionConfig};

use super::{num_i64, vampirc, EngineLine};

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

/// Parses an `option` line with vampirc after normalising an empty string default, then
/// re-reads spin numbers from the tokens (vampirc truncates numbers of 13+ digits).
pub(super) fn parse_option(line: &str) -> Option<EngineLine> {
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

#[cfg(test)]
mod tests {
    use super::super::parse_line;
    use super::*;

    fn option(line: &str) -> UciOption {
        match parse_line(line) {
            EngineLine::Option(o) => o,
            other => panic!("not an option: {other:?}"),
        }
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
}
