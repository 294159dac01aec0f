//! The UCI options: the engine's own (Hash, Threads, Clear Hash, Move Overhead, MultiPV, Ponder,
//! UCI_Chess960, UCI_ShowWDL, Skill Level, UCI_LimitStrength, UCI_Elo), then
//! every heuristic switch and every tunable of the search's registry, and `setoption` on them.

use clio_search::{param_specs, switch_specs, Params, DEFAULT_MOVE_OVERHEAD_MS};

use crate::strength;

/// Default transposition table size in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest accepted Hash in MB.
pub const MAX_HASH_MB: usize = 65_536;
/// Most search threads (Lazy SMP).
pub const MAX_THREADS: usize = 1024;
/// Most MultiPV lines.
pub const MAX_MULTIPV: u32 = 256;
/// Largest accepted Move Overhead in ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// The values the options set, as the engine loop keeps them.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Time kept in reserve per move, in ms.
    pub move_overhead_ms: u64,
    /// `MultiPV`: how many best root moves each search reports.
    pub multipv: u32,
    /// Whether the GUI may send `go ponder` (declared for GUIs; pondering works either way).
    pub ponder: bool,
    /// `UCI_Chess960`: FENs with X-FEN or Shredder-FEN castling, castling written
    /// king-takes-rook (`e1h1`).
    pub chess960: bool,
    /// `UCI_ShowWDL`: each info line's score also as `wdl W D L` (the win-rate model).
    pub show_wdl: bool,
    /// `Skill Level`, 0 to 20 (20: the full engine).
    pub skill_level: u32,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (it wins over `Skill Level`).
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength `UCI_LimitStrength` plays at.
    pub elo: i64,
    /// The search's switches and tunables.
    pub params: Params,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: DEFAULT_HASH_MB,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            multipv: 1,
            ponder: false,
            chess960: false,
            show_wdl: false,
            skill_level: 20,
            limit_strength: false,
            elo: strength::MIN_ELO,
            params: Params::default(),
        }
    }
}

impl Settings {
    /// The strength level searches play at: `UCI_Elo`'s when `UCI_LimitStrength` is on, else
    /// `Skill Level`'s; `None` for the full engine.
    pub fn strength_level(&self) -> Option<f64> {
        let level = if self.limit_strength {
            strength::level_for_elo(self.elo)
        } else {
            f64::from(self.skill_level)
        };
        (level < strength::FULL).then_some(level)
    }
}

/// What a successful `setoption` asks of the engine beyond updating `Settings`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more.
    None,
    /// Reallocate the hash table at this many MB (`Hash`).
    ResizeHash(usize),
    /// Clear the hash table and histories (`Clear Hash`).
    ClearHash,
    /// Search with this many threads (`Threads`).
    SetThreads(usize),
}

/// The `option …` lines `uci` prints, in order.
pub fn option_lines() -> Vec<String> {
    let mut lines = vec![
        format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        "option name Clear Hash type button".to_string(),
        format!(
            "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ),
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        "option name Ponder type check default false".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name UCI_ShowWDL type check default false".to_string(),
        "option name Skill Level type spin default 20 min 0 max 20".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!(
            "option name UCI_Elo type spin default {} min {} max {}",
            strength::MIN_ELO,
            strength::MIN_ELO,
            strength::MAX_ELO
        ),
    ];
    for s in switch_specs() {
        lines.push(format!(
            "option name {} type check default {}",
            s.name, s.default
        ));
    }
    for p in param_specs() {
        lines.push(format!(
            "option name {} type spin default {} min {} max {}",
            p.name, p.default, p.min, p.max
        ));
    }
    lines
}

/// Memory the system can still give, in MB (Linux `MemAvailable`), so a Hash too large to
/// allocate is refused instead of ending the process; `None` where it cannot be known.
fn available_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Reads an integer option value in `min..=max`; the error names the option and the range.
fn spin(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, String> {
    let Some(text) = value else {
        return Err(format!("option {name}: missing value"));
    };
    match text.parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        Ok(_) => Err(format!(
            "option {name}: value {text} is outside [{min}, {max}]"
        )),
        Err(_) => Err(format!(
            "option {name}: value \"{text}\" is not an integer in [{min}, {max}]"
        )),
    }
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(other) => Err(format!(
            "option {name}: value \"{other}\" is not true or false"
        )),
        None => Err(format!("option {name}: missing value (true or false)")),
    }
}

/// Applies `setoption name <name> value <value>`. On error `settings` is unchanged and the
/// message names the option (and the value when it is the value that is wrong).
pub fn apply(settings: &mut Settings, name: &str, value: Option<&str>) -> Result<Effect, String> {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "hash" => {
            let mb = spin("Hash", value, 1, MAX_HASH_MB as i64)? as usize;
            if let Some(available) = available_mb() {
                if mb > available {
                    return Err(format!(
                        "option Hash: {mb} MB is more than the {available} MB of memory available"
                    ));
                }
            }
            settings.hash_mb = mb;
            return Ok(Effect::ResizeHash(mb));
        }
        "threads" => {
            let n = spin("Threads", value, 1, MAX_THREADS as i64)? as usize;
            return Ok(Effect::SetThreads(n));
        }
        "clear hash" => return Ok(Effect::ClearHash),
        "move overhead" => {
            settings.move_overhead_ms =
                spin("Move Overhead", value, 0, MAX_MOVE_OVERHEAD_MS as i64)? as u64;
            return Ok(Effect::None);
        }
        "multipv" => {
            settings.multipv = spin("MultiPV", value, 1, i64::from(MAX_MULTIPV))? as u32;
            return Ok(Effect::None);
        }
        "ponder" => {
            settings.ponder = check("Ponder", value)?;
            return Ok(Effect::None);
        }
        "uci_chess960" => {
            settings.chess960 = check("UCI_Chess960", value)?;
            return Ok(Effect::None);
        }
        "uci_showwdl" => {
            settings.show_wdl = check("UCI_ShowWDL", value)?;
            return Ok(Effect::None);
        }
        "skill level" => {
            settings.skill_level = spin("Skill Level", value, 0, 20)? as u32;
            return Ok(Effect::None);
        }
        "uci_limitstrength" => {
            settings.limit_strength = check("UCI_LimitStrength", value)?;
            return Ok(Effect::None);
        }
        "uci_elo" => {
            settings.elo = spin("UCI_Elo", value, strength::MIN_ELO, strength::MAX_ELO)?;
            return Ok(Effect::None);
        }
        _ => {}
    }
    if let Some(s) = switch_specs()
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
    {
        let on = check(s.name, value)?;
        settings
            .params
            .set_switch(s.name, on)
            .map_err(|e| e.to_string())?;
        return Ok(Effect::None);
    }
    if let Some(p) = param_specs()
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name))
    {
        let v = spin(p.name, value, i64::from(p.min), i64::from(p.max))?;
        let v = i32::try_from(v).map_err(|_| format!("option {}: value out of range", p.name))?;
        settings.params.set(p.name, v).map_err(|e| e.to_string())?;
        return Ok(Effect::None);
    }
    Err(format!("unknown option \"{name}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registry_entry_is_an_option() {
        let lines = option_lines();
        for s in switch_specs() {
            assert!(lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {} type check", s.name))));
        }
        for p in param_specs() {
            let want = format!(
                "option name {} type spin default {} min {} max {}",
                p.name, p.default, p.min, p.max
            );
            assert!(lines.contains(&want), "{want}");
        }
    }

    #[test]
    fn refusals_leave_settings_unchanged() {
        let mut s = Settings::default();
        assert!(apply(&mut s, "Hash", Some("0"))
            .unwrap_err()
            .contains("Hash"));
        assert!(apply(&mut s, "Hash", Some("1234567890123"))
            .unwrap_err()
            .contains("outside"));
        assert!(apply(&mut s, "Hash", Some("big"))
            .unwrap_err()
            .contains("big"));
        assert!(apply(&mut s, "Hash", None).unwrap_err().contains("missing"));
        assert_eq!(
            apply(&mut s, "Threads", Some("4")),
            Ok(Effect::SetThreads(4))
        );
        assert!(apply(&mut s, "Threads", Some("0")).is_err());
        assert!(apply(&mut s, "Threads", Some("1025")).is_err());
        assert!(apply(&mut s, "Nonsense", Some("2"))
            .unwrap_err()
            .contains("Nonsense"));
        assert_eq!(s.hash_mb, DEFAULT_HASH_MB);
        let p = param_specs()[0];
        let err = apply(&mut s, p.name, Some(&(i64::from(p.max) + 1).to_string())).unwrap_err();
        assert!(err.contains(p.name), "{err}");
        assert_eq!(s.params, Params::default());
        let sw = switch_specs()[0];
        assert!(apply(&mut s, sw.name, Some("maybe")).is_err());
        assert_eq!(s.params, Params::default());
    }

    #[test]
    fn accepted_values_take_effect() {
        let mut s = Settings::default();
        assert_eq!(
            apply(&mut s, "hash", Some("32")),
            Ok(Effect::ResizeHash(32))
        );
        assert_eq!(s.hash_mb, 32);
        assert_eq!(apply(&mut s, "Move Overhead", Some("50")), Ok(Effect::None));
        assert_eq!(s.move_overhead_ms, 50);
        assert_eq!(apply(&mut s, "Clear Hash", None), Ok(Effect::ClearHash));
        let p = param_specs()[0];
        apply(&mut s, p.name, Some(&p.min.to_string())).unwrap();
        assert_eq!(s.params.get(p.name), Some(p.min));
        let sw = switch_specs()[0];
        apply(
            &mut s,
            sw.name,
            Some(if sw.default { "false" } else { "true" }),
        )
        .unwrap();
        assert_eq!(s.params.get_switch(sw.name), Some(!sw.default));
    }
}
