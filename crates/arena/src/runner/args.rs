//! Command-line options shared by `arena sprt`, `arena match` and `arena gauntlet`, and the small
//! parsers behind them (`Name=Value` options, `key=value,…` adjudication rules, engine specs).

use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;

use crate::book::Order;
use crate::engine::EngineConfig;
use crate::game::Variant;
use crate::stats::{Model, SprtConfig};

/// Game, book, concurrency and output options common to every match-playing command.
#[derive(Args, Clone, Debug)]
pub struct CommonArgs {
    /// Time control `[moves/]base+inc` in seconds, e.g. `8+0.08` or `40/60+0.6`.
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Fixed nodes per move.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Fixed time per move in milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Milliseconds an engine may overrun its clock before it forfeits.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub timemargin: u64,
    /// Milliseconds a search without a clock (node or depth limit) may take before the engine
    /// counts as stalled (default: 100 times the run's median move time, 2 s to 60 s).
    #[arg(long, value_name = "MS")]
    pub stall_ms: Option<u64>,
    /// Resign adjudication: `movecount=N,score=CP[,twosided=true]` (a side whose own score is at
    /// most -CP for N moves loses, as fishtest plays; twosided=true: both sides' scores agree).
    #[arg(long, value_name = "RULE")]
    pub resign: Option<String>,
    /// Draw adjudication: `movenumber=N,movecount=M,score=CP`.
    #[arg(long, value_name = "RULE")]
    pub draw: Option<String>,
    /// Adjudicate a draw after this many full moves.
    #[arg(long, value_name = "N")]
    pub maxmoves: Option<u32>,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub concurrency: usize,
    /// Pin each concurrent game's two engines to CPUs of their own (fastchess's
    /// `-use-affinity`): as many CPUs per engine as its `Threads`, from those arena may use;
    /// the concurrency is limited to the games that fit. Linux only.
    #[arg(long)]
    pub affinity: bool,
    /// Opening book, EPD (one position a line) or PGN (by the `.pgn` extension).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Order in which the book is walked.
    #[arg(long, value_enum, default_value_t = Order::Random)]
    pub order: Order,
    /// Seed of the random book order (default: taken from --state when resuming, else random).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// 1-based index of the first opening of the walk.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub start: usize,
    /// UCI option for every engine, `Name=Value` (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The rules: standard, or fischerandom (Chess960, as fastchess's `-variant`; every engine
    /// gets `UCI_Chess960 true`, the book may hold any Chess960 setup).
    #[arg(long, value_enum, default_value_t = Variant::Standard)]
    pub variant: Variant,
    /// Append every counted game to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Append the position after every move of every counted game to this EPD file, with
    /// the game's result for White: `FEN [1.0]`, `[0.5]` or `[0.0]` (texel's input).
    #[arg(long, value_name = "FILE")]
    pub epdout: Option<PathBuf>,
    /// State file: written after every pair; an existing one is resumed.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Write a JSON summary here at the end.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write an SVG chart of LLR and Elo ± error against games here at the end.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Print the results block every N games (0: only at the end).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub rating_interval: u64,
    /// Event name written to the PGN.
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
    /// Print the resolved plan (engines, options, limits, adjudication, book, SPRT, outputs) as
    /// JSON and exit without starting an engine or playing a game.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub db: crate::db::DbArgs,
}

/// The SPRT's hypotheses and error rates, shared by `arena sprt` and `arena ablate`.
#[derive(Args, Clone, Copy, Debug)]
pub struct SprtBoundsArgs {
    /// Elo under H0 (in the unit of --model).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// Elo under H1 (in the unit of --model).
    #[arg(long, default_value_t = 2.0, allow_negative_numbers = true)]
    pub elo1: f64,
    /// Type I error.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Type II error.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Elo model of elo0/elo1.
    #[arg(long, value_enum, default_value_t = Model::Normalized)]
    pub model: Model,
}

impl SprtBoundsArgs {
    /// The checked SPRT configuration.
    pub fn config(&self) -> Result<SprtConfig, crate::stats::SprtConfigError> {
        SprtConfig::new(self.elo0, self.elo1, self.alpha, self.beta, self.model)
    }
}

/// Splits `Name=Value` at the first `=`; the name may contain spaces, both are trimmed.
pub fn parse_option(text: &str) -> anyhow::Result<(String, String)> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => bail!("invalid UCI option {text:?}: expected Name=Value"),
    }
}

/// Parses a list of `Name=Value` options.
pub fn parse_options(list: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    list.iter().map(|s| parse_option(s)).collect()
}

/// Parses one `--engine` spec: `name=NAME cmd=PATH [arg=ARG]… [dir=DIR] [option.NAME=VALUE]…`.
/// Each element is one shell word, so an option name with spaces is quoted whole:
/// `"option.Skill Level=3"`.
pub fn parse_engine_spec(words: &[String]) -> anyhow::Result<EngineConfig> {
    let mut cfg = EngineConfig::default();
    for w in words {
        let (k, v) = w.split_once('=').with_context(|| {
            format!("invalid --engine word {w:?}: expected key=value (name=, cmd=, arg=, dir=, option.NAME=)")
        })?;
        match k {
            "name" => cfg.name = v.to_string(),
            "cmd" => cfg.cmd = v.to_string(),
            "arg" | "args" => cfg.args.push(v.to_string()),
            "dir" => cfg.dir = Some(PathBuf::from(v)),
            _ => match k.strip_prefix("option.") {
                Some(name) if !name.trim().is_empty() => {
                    cfg.options
                        .push((name.trim().to_string(), v.trim().to_string()))
                }
                _ => bail!(
                    "invalid --engine word {w:?}: unknown key {k:?} (expected name, cmd, arg, dir, option.NAME)"
                ),
            },
        }
    }
    if cfg.cmd.is_empty() {
        bail!("--engine {words:?} has no cmd=PATH");
    }
    if cfg.name.is_empty() {
        cfg.name = default_name(&cfg.cmd);
    }
    check_name(&cfg.name)?;
    Ok(cfg)
}

/// A display name from a command path: its file name.
pub fn default_name(cmd: &str) -> String {
    std::path::Path::new(cmd)
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| cmd.to_string())
}

/// Engine names appear in parsed output lines, so they may not hold spaces or parentheses.
pub fn check_name(name: &str) -> anyhow::Result<()> {
    if name.is_empty()
        || name
            .chars()
            .any(|c| c.is_whitespace() || "(){}".contains(c))
    {
        bail!("invalid engine name {name:?}: it must be non-empty, without spaces or brackets");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{DrawRule, ResignRule};

    #[test]
    fn options_and_rules() {
        assert_eq!(
            parse_option("Skill Level = 3").unwrap(),
            ("Skill Level".to_string(), "3".to_string())
        );
        assert!(parse_option("=3").is_err());
        // Rules parse in one place, game's settings (no second key=value parser here).
        let draw: DrawRule = "movenumber=40,movecount=8,score=10".parse().unwrap();
        assert_eq!(draw.movecount, 8);
        let err = "movecount=3,scor=400"
            .parse::<ResignRule>()
            .unwrap_err()
            .to_string();
        assert!(err.contains("scor"), "{err}");
    }

    #[test]
    fn engine_specs() {
        let words: Vec<String> = [
            "name=sf3",
            "cmd=/usr/games/stockfish",
            "option.Skill Level=3",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let cfg = parse_engine_spec(&words).unwrap();
        assert_eq!(cfg.name, "sf3");
        assert_eq!(cfg.options, vec![("Skill Level".into(), "3".into())]);
        let cfg = parse_engine_spec(&["cmd=/usr/games/stockfish".to_string()]).unwrap();
        assert_eq!(cfg.name, "stockfish");
        assert!(parse_engine_spec(&["name=a b".into(), "cmd=x".into()]).is_err());
        assert!(parse_engine_spec(&["name=a".into()]).is_err());
    }
}
