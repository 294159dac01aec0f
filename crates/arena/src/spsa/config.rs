//! The SPSA campaign file: `[spsa]` (the schedule), `[match]` (how games are played) and one
//! `[[param]]` per tuned UCI option. Read with serde (unknown keys refused), then checked field by
//! field; every error names the file and the field.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::game::{Adjudication, DrawRule, GameSettings, Limits, ResignRule, TimeControl};
use crate::uci::{OptionKind, UciOption};

/// OpenBench's and fishtest's default learning rate at the end of the run.
pub const DEFAULT_R_END: f64 = 0.002;

/// Why a campaign file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Not valid TOML, or a key missing, unknown or of the wrong type.
    #[error("{path}: {detail}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The TOML parser's message (it names the key and the line).
        detail: String,
    },
    /// A value that is not allowed.
    #[error("{path}: field `{field}`: {detail}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The field, e.g. `spsa.iterations` or `param.HistBonusMul.min`.
        field: String,
        /// What is wrong.
        detail: String,
    },
}

/// The whole campaign file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The SPSA schedule.
    pub spsa: SpsaSection,
    /// How the games are played.
    #[serde(rename = "match")]
    pub matches: MatchSection,
    /// The tuned parameters, in file order.
    #[serde(rename = "param", default)]
    pub params: Vec<Param>,
}

/// `[spsa]`: the schedule (OpenBench's names and defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpsaSection {
    /// N, the number of iterations; fixes the schedule.
    pub iterations: u64,
    /// Game pairs per iteration (θ+ against θ−, each opening with both colours).
    pub pairs_per_iteration: u32,
    /// Decay exponent of the learning rate a_k.
    #[serde(default = "default_alpha")]
    pub alpha: f64,
    /// Decay exponent of the perturbation c_k.
    #[serde(default = "default_gamma")]
    pub gamma: f64,
    /// A = a_ratio · N, the stability constant of a_k.
    #[serde(default = "default_a_ratio")]
    pub a_ratio: f64,
    /// Seed of the perturbations, the stochastic rounding and the opening order.
    #[serde(default = "default_seed")]
    pub seed: u64,
}

fn default_alpha() -> f64 {
    0.602
}
fn default_gamma() -> f64 {
    0.101
}
fn default_a_ratio() -> f64 {
    0.1
}
fn default_seed() -> u64 {
    1
}
fn default_concurrency() -> usize {
    1
}
fn default_r_end() -> f64 {
    DEFAULT_R_END
}

/// `[match]`: the engine, the limits, the book and the adjudication.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSection {
    /// The engine binary (both sides run it).
    pub engine: Option<String>,
    /// A git ref to build the engine from instead (`refs::build`).
    #[serde(rename = "ref")]
    pub git_ref: Option<String>,
    /// Clock, `[moves/]base[+inc]` in seconds.
    pub tc: Option<String>,
    /// `go nodes N`.
    pub nodes: Option<u64>,
    /// `go depth N`.
    pub depth: Option<u32>,
    /// `go movetime N` (ms).
    pub movetime: Option<u64>,
    /// Games played at once.
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    /// Pin each concurrent game's two engines to CPUs of their own (`--affinity`).
    #[serde(default)]
    pub affinity: bool,
    /// Opening book (EPD or PGN); none means the start position.
    pub openings: Option<String>,
    /// Fixed UCI options for both sides (e.g. Hash, Threads).
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    /// Resign adjudication.
    pub resign: Option<ResignSection>,
    /// Draw adjudication.
    pub draw: Option<DrawSection>,
    /// Move cap per engine.
    pub maxmoves: Option<u32>,
    /// `"standard"` (the default) or `"fischerandom"`: Chess960 games, as `--variant` in
    /// `arena sprt` (both sides get `UCI_Chess960 true`; the book may set up any back rank).
    #[serde(default)]
    pub variant: crate::game::Variant,
}

/// `resign = { movecount = 3, score = 400 }` (fastchess `-resign`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResignSection {
    /// Consecutive moves.
    pub movecount: u32,
    /// Threshold in centipawns.
    pub score: i32,
    /// Both sides must agree.
    #[serde(default)]
    pub twosided: bool,
}

/// `draw = { movenumber = 40, movecount = 8, score = 10 }` (fastchess `-draw`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawSection {
    /// First full move at which it applies.
    pub movenumber: u32,
    /// Consecutive moves per side.
    pub movecount: u32,
    /// Threshold in centipawns.
    pub score: i32,
}

/// Integer or floating-point parameter (OpenBench's `int` / `float`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Sent rounded (stochastically) to an integer; c_k never below 0.5.
    #[default]
    Int,
    /// Sent as a decimal.
    Float,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Int => "int",
            Kind::Float => "float",
        })
    }
}

/// One `[[param]]`: a UCI option of the engine and its SPSA settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    /// The UCI option name.
    pub name: String,
    /// `int` (default) or `float`.
    #[serde(rename = "type", default)]
    pub kind: Kind,
    /// Start value.
    pub value: f64,
    /// Lowest value tried.
    pub min: f64,
    /// Highest value tried.
    pub max: f64,
    /// c_end: the perturbation at the end of the run.
    pub step: f64,
    /// r_end: the learning rate at the end of the run.
    #[serde(default = "default_r_end")]
    pub r_end: f64,
}

impl Config {
    /// Reads and checks a campaign file; returns it with its warnings.
    pub fn load(path: &Path) -> Result<(Config, Vec<String>), ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Config::parse(&text, path)
    }

    /// Parses and checks campaign text; `path` is only used in messages.
    pub fn parse(text: &str, path: &Path) -> Result<(Config, Vec<String>), ConfigError> {
        let config: Config = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.to_path_buf(),
            detail: e.to_string().trim_end().to_string(),
        })?;
        let warnings = config.validate(path)?;
        Ok((config, warnings))
    }

    /// Checks every field; returns the warnings (value ± c at the start outside the range,
    /// an int parameter with a step below 1).
    pub fn validate(&self, path: &Path) -> Result<Vec<String>, ConfigError> {
        let bad = |field: String, detail: String| ConfigError::Invalid {
            path: path.to_path_buf(),
            field,
            detail,
        };
        let s = &self.spsa;
        if s.iterations == 0 {
            return Err(bad("spsa.iterations".into(), "must be at least 1".into()));
        }
        if s.pairs_per_iteration == 0 {
            return Err(bad(
                "spsa.pairs_per_iteration".into(),
                "must be at least 1".into(),
            ));
        }
        for (name, v) in [("alpha", s.alpha), ("gamma", s.gamma)] {
            if !(v.is_finite() && v > 0.0 && v <= 1.0) {
                return Err(bad(format!("spsa.{name}"), format!("{v} is not in (0, 1]")));
            }
        }
        if !(s.a_ratio.is_finite() && s.a_ratio >= 0.0) {
            return Err(bad(
                "spsa.a_ratio".into(),
                format!("{} must be 0 or more", s.a_ratio),
            ));
        }
        self.validate_match(path)?;
        if self.params.is_empty() {
            return Err(bad("param".into(), "no [[param]] to tune".into()));
        }
        let n_pow_gamma = (s.iterations as f64).powf(s.gamma);
        let mut warnings = Vec::new();
        let mut seen = BTreeMap::new();
        for (i, p) in self.params.iter().enumerate() {
            let field = |f: &str| format!("param.{}.{f}", p.name);
            if p.name.trim().is_empty() {
                return Err(bad(format!("param[{i}].name"), "is empty".into()));
            }
            if let Some(j) = seen.insert(p.name.to_ascii_lowercase(), i) {
                return Err(bad(
                    field("name"),
                    format!("\"{}\" is tuned twice (param[{j}] and param[{i}])", p.name),
                ));
            }
            for (f, v) in [
                ("value", p.value),
                ("min", p.min),
                ("max", p.max),
                ("step", p.step),
                ("r_end", p.r_end),
            ] {
                if !v.is_finite() {
                    return Err(bad(field(f), format!("{v} is not a finite number")));
                }
            }
            if p.min >= p.max {
                return Err(bad(
                    field("min"),
                    format!("min {} is not below max {}", p.min, p.max),
                ));
            }
            if p.value < p.min || p.value > p.max {
                return Err(bad(
                    field("value"),
                    format!("{} is outside [{}, {}]", p.value, p.min, p.max),
                ));
            }
            if p.step <= 0.0 {
                return Err(bad(field("step"), format!("{} must be above 0", p.step)));
            }
            if p.r_end <= 0.0 {
                return Err(bad(field("r_end"), format!("{} must be above 0", p.r_end)));
            }
            if p.kind == Kind::Int {
                for (f, v) in [("value", p.value), ("min", p.min), ("max", p.max)] {
                    if v.fract() != 0.0 {
                        return Err(bad(field(f), format!("{v} is not an integer (type int)")));
                    }
                }
                if p.step < 1.0 {
                    warnings.push(format!(
                        "{}: param {}: step {} is below 1 for an int parameter; \
                         perturbations are floored at 0.5 and mostly rounded away",
                        path.display(),
                        p.name,
                        p.step
                    ));
                }
            }
            let c = p.step * n_pow_gamma;
            if p.value - c < p.min || p.value + c > p.max {
                warnings.push(format!(
                    "{}: param {}: value {} ± c {:.3} (= step·N^gamma) leaves [{}, {}]; \
                     early perturbations will be clipped",
                    path.display(),
                    p.name,
                    p.value,
                    c,
                    p.min,
                    p.max
                ));
            }
        }
        Ok(warnings)
    }

    fn validate_match(&self, path: &Path) -> Result<(), ConfigError> {
        let bad = |field: &str, detail: String| ConfigError::Invalid {
            path: path.to_path_buf(),
            field: format!("match.{field}"),
            detail,
        };
        let m = &self.matches;
        match (&m.engine, &m.git_ref) {
            (None, None) => return Err(bad("engine", "give `engine` or `ref`".into())),
            (Some(_), Some(_)) => {
                return Err(bad("ref", "give `engine` or `ref`, not both".into()))
            }
            (Some(e), None) if e.trim().is_empty() => return Err(bad("engine", "is empty".into())),
            _ => {}
        }
        if m.tc.is_none() && m.nodes.is_none() && m.depth.is_none() && m.movetime.is_none() {
            return Err(bad(
                "tc",
                "no limit: give `tc`, `nodes`, `depth` or `movetime`".into(),
            ));
        }
        if m.nodes == Some(0) {
            return Err(bad("nodes", "must be at least 1".into()));
        }
        if m.depth == Some(0) {
            return Err(bad("depth", "must be at least 1".into()));
        }
        if m.movetime == Some(0) {
            return Err(bad("movetime", "must be at least 1".into()));
        }
        if m.concurrency == 0 {
            return Err(bad("concurrency", "must be at least 1".into()));
        }
        if m.concurrency > crate::scheduler::MAX_CONCURRENCY {
            let most = crate::scheduler::MAX_CONCURRENCY;
            return Err(bad("concurrency", format!("must be at most {most}")));
        }
        if let Some(tc) = &m.tc {
            tc.parse::<TimeControl>()
                .map_err(|e| bad("tc", e.to_string()))?;
        }
        for (name, v) in &m.options {
            option_text(v).map_err(|detail| bad(&format!("options.{name}"), detail))?;
        }
        Ok(())
    }

    /// The fixed UCI options as `(name, value)` text, in name order.
    pub fn fixed_options(&self) -> Vec<(String, String)> {
        let mut options: Vec<(String, String)> = self
            .matches
            .options
            .iter()
            .filter_map(|(k, v)| option_text(v).ok().map(|t| (k.clone(), t)))
            .collect();
        options.extend(self.matches.variant.engine_options());
        options
    }

    /// The game settings of `[match]` (already validated by `load`).
    pub fn game_settings(&self) -> Result<GameSettings, crate::game::GameError> {
        let m = &self.matches;
        let tc = m.tc.as_deref().map(str::parse::<TimeControl>).transpose()?;
        let limits = Limits {
            tc,
            nodes: m.nodes,
            depth: m.depth,
            movetime_ms: m.movetime,
            ..Limits::default()
        };
        let adjudication = Adjudication {
            resign: m.resign.map(|r| ResignRule {
                movecount: r.movecount,
                score: r.score,
                twosided: r.twosided,
            }),
            draw: m.draw.map(|d| DrawRule {
                movenumber: d.movenumber,
                movecount: d.movecount,
                score: d.score,
            }),
            maxmoves: m.maxmoves,
        };
        Ok(GameSettings {
            variant: m.variant,
            limits,
            adjudication,
        })
    }

    /// The settings that fix the run: a resumed run must have the same ones.
    pub fn fingerprint(&self) -> BTreeMap<String, String> {
        let mut f = BTreeMap::new();
        let s = &self.spsa;
        f.insert("iterations".into(), s.iterations.to_string());
        f.insert(
            "pairs_per_iteration".into(),
            s.pairs_per_iteration.to_string(),
        );
        f.insert("alpha".into(), s.alpha.to_string());
        f.insert("gamma".into(), s.gamma.to_string());
        f.insert("a_ratio".into(), s.a_ratio.to_string());
        f.insert("seed".into(), s.seed.to_string());
        if !self.matches.variant.is_standard() {
            f.insert("variant".into(), "fischerandom".into());
        }
        for p in &self.params {
            f.insert(
                format!("param.{}", p.name),
                format!(
                    "{} {} [{}, {}] step {} r_end {}",
                    p.kind, p.value, p.min, p.max, p.step, p.r_end
                ),
            );
        }
        f
    }

    /// Checks every parameter against the options the engine declares: the name must exist,
    /// an int parameter must be a spin option whose range holds `[min, max]`, a float one a
    /// string option (a spin option cannot take a decimal).
    pub fn check_engine_options(
        &self,
        path: &Path,
        engine: &str,
        options: &[UciOption],
    ) -> Result<(), ConfigError> {
        for p in &self.params {
            let field = |f: &str| format!("param.{}.{f}", p.name);
            let bad = |f: &str, detail: String| ConfigError::Invalid {
                path: path.to_path_buf(),
                field: field(f),
                detail,
            };
            let Some(o) = options
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(p.name.trim()))
            else {
                return Err(bad(
                    "name",
                    format!("engine {engine} declares no UCI option \"{}\"", p.name),
                ));
            };
            match (&o.kind, p.kind) {
                (OptionKind::Spin { min, max, .. }, Kind::Int) => {
                    if let Some(lo) = min {
                        if p.min < *lo as f64 {
                            return Err(bad(
                                "min",
                                format!(
                                    "{} is below the engine's minimum {lo} for option \"{}\"",
                                    p.min, o.name
                                ),
                            ));
                        }
                    }
                    if let Some(hi) = max {
                        if p.max > *hi as f64 {
                            return Err(bad(
                                "max",
                                format!(
                                    "{} is above the engine's maximum {hi} for option \"{}\"",
                                    p.max, o.name
                                ),
                            ));
                        }
                    }
                }
                (OptionKind::Spin { .. }, Kind::Float) => {
                    return Err(bad(
                        "type",
                        format!(
                            "option \"{}\" is a spin (integer) option; declare type = \"int\"",
                            o.name
                        ),
                    ))
                }
                (OptionKind::String { .. }, _) => {}
                (other, _) => {
                    return Err(bad(
                        "name",
                        format!(
                            "option \"{}\" is not numeric ({})",
                            o.name,
                            kind_name(other)
                        ),
                    ))
                }
            }
        }
        Ok(())
    }
}

fn kind_name(k: &OptionKind) -> &'static str {
    match k {
        OptionKind::Check { .. } => "check",
        OptionKind::Spin { .. } => "spin",
        OptionKind::Combo { .. } => "combo",
        OptionKind::Button => "button",
        OptionKind::String { .. } => "string",
    }
}

/// A fixed option's TOML value as the text sent with `setoption`.
fn option_text(v: &toml::Value) -> Result<String, String> {
    match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        other => Err(format!("{other} is not a string, number or boolean")),
    }
}
