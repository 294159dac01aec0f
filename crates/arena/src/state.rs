//! The run state file: everything needed to resume a run with nothing lost and nothing counted
//! twice. It is written atomically (a temporary file, then a rename) after every finished pair,
//! after that pair's games were appended to the PGN file (and their positions to the EPD file),
//! and records the length of each so a resumed run can cut off anything written after the last
//! saved pair.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::game::Termination;
use crate::stats::Decision;

/// Format version of the state file.
pub const VERSION: u32 = 1;

/// Why a state file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// Reading or writing failed.
    #[error("state file {path}: {source}")]
    Io {
        /// The state file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is not a state file of this version.
    #[error("state file {path} is not readable: {detail}")]
    Parse {
        /// The state file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// The file was made by a run with different settings.
    #[error("state file {path} belongs to a different run: {key} was {saved} there, is {now} now (use another --state file)")]
    Mismatch {
        /// The state file.
        path: PathBuf,
        /// The first setting that differs.
        key: String,
        /// Its value in the file.
        saved: String,
        /// Its value in this run.
        now: String,
    },
}

/// How a game was lost other than over the board, per engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failures {
    /// Lost on time.
    pub time_forfeits: u64,
    /// Played an illegal or unparsable move.
    pub illegal_moves: u64,
    /// Crashed or closed its pipe.
    pub disconnects: u64,
    /// Stopped answering.
    pub stalls: u64,
}

impl Failures {
    /// Counts a game lost by `termination`, if it is an engine fault.
    pub fn count(&mut self, termination: Termination) {
        match termination {
            Termination::TimeForfeit => self.time_forfeits += 1,
            Termination::IllegalMove => self.illegal_moves += 1,
            Termination::Disconnect => self.disconnects += 1,
            Termination::Stall => self.stalls += 1,
            _ => {}
        }
    }

    /// Total number of failures.
    pub fn total(&self) -> u64 {
        self.time_forfeits + self.illegal_moves + self.disconnects + self.stalls
    }
}

/// Results of one encounter (engine `first` against engine `second`), from `first`'s side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games won by `first`.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost by `first`.
    pub losses: u64,
    /// Pentanomial pair counts `[LL, LD, DD+WL, WD, WW]` from `first`'s side.
    pub penta: [u64; 5],
    /// Pairs of one win and one loss (counted inside `penta[2]`, kept for fastchess's WL/DD ratio).
    #[serde(default)]
    pub wl_pairs: u64,
}

impl Tally {
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds a finished pair: the two scores of `first` (0, 0.5 or 1 each, as half-points 0..=2).
    pub fn add_pair(&mut self, half_points: [u8; 2]) {
        for h in half_points {
            match h {
                0 => self.losses += 1,
                1 => self.draws += 1,
                _ => self.wins += 1,
            }
        }
        let (a, b) = (half_points[0].min(2), half_points[1].min(2));
        self.penta[usize::from(a + b)] += 1;
        if a != b && a + b == 2 {
            self.wl_pairs += 1;
        }
    }

    /// The same results from `second`'s side.
    pub fn flipped(&self) -> Tally {
        let p = self.penta;
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            penta: [p[4], p[3], p[2], p[1], p[0]],
            wl_pairs: self.wl_pairs,
        }
    }

    /// Sums two tallies.
    pub fn merged(&self, other: &Tally) -> Tally {
        let mut penta = self.penta;
        for (a, b) in penta.iter_mut().zip(other.penta) {
            *a += b;
        }
        Tally {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
            penta,
            wl_pairs: self.wl_pairs + other.wl_pairs,
        }
    }
}

/// One point of the run's history, recorded after each pair (for `--plot`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Games counted so far.
    pub games: u64,
    /// LLR after them (0 without SPRT).
    pub llr: f64,
    /// Elo estimate (None while undefined).
    pub elo: Option<f64>,
    /// Its 95% error.
    pub elo_error: Option<f64>,
}

/// The whole saved state of a run.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct State {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The settings that must agree for a resume (engines, limits, book, order, seed, …).
    pub config: BTreeMap<String, String>,
    /// The opening seed.
    pub seed: u64,
    /// Indices of the pairs already counted.
    pub done: BTreeSet<u64>,
    /// Per encounter (index into the run's list of pairings) the tally.
    pub tallies: Vec<Tally>,
    /// Failures per engine name.
    pub failures: BTreeMap<String, Failures>,
    /// History for the chart.
    pub history: Vec<Point>,
    /// The hypothesis the SPRT accepted, once it decided (`"H0"`/`"H1"`, as older files too).
    pub decision: Option<Decision>,
    /// Length of the PGN file after the last counted pair, if a PGN file is written.
    pub pgn_bytes: Option<u64>,
    /// Length of the EPD file (`--epdout`) after the last counted pair, if one is written.
    #[serde(default)]
    pub epd_bytes: Option<u64>,
    /// Wall-clock seconds spent in previous sessions of this run.
    pub elapsed_s: f64,
    /// Sum over counted games of each game's wall time, in ms (fractional; older files hold
    /// whole numbers, which read the same).
    #[serde(default)]
    pub game_wall_ms: f64,
    /// Sum over counted games of the engines' think time (`go` to `bestmove`), in ms.
    #[serde(default)]
    pub game_engine_ms: f64,
}

impl State {
    /// A fresh state for a run with these settings and `pairings` encounters.
    pub fn new(config: BTreeMap<String, String>, seed: u64, pairings: usize) -> State {
        State {
            version: VERSION,
            config,
            seed,
            tallies: vec![Tally::default(); pairings],
            ..State::default()
        }
    }

    /// Loads a state file (a regular file of at most [`MAX_STATE_BYTES`]).
    pub fn load(path: &Path) -> Result<State, StateError> {
        let text = read_bounded(path, MAX_STATE_BYTES).map_err(|source| StateError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let state: State = serde_json::from_str(&text).map_err(|e| StateError::Parse {
            path: path.to_path_buf(),
            detail: e.to_string(),
        })?;
        if state.version != VERSION {
            return Err(StateError::Parse {
                path: path.to_path_buf(),
                detail: format!("version {} (this arena writes {VERSION})", state.version),
            });
        }
        Ok(state)
    }

    /// Checks that the counts agree with each other and with a run of `total_pairs` pair
    /// slots: each tally's games are twice its pentanomial's pairs, the pentanomials together
    /// count the pairs done, and every pair done is a slot of the run.
    pub fn check_counts(&self, path: &Path, total_pairs: u64) -> Result<(), StateError> {
        let bad = |detail: String| StateError::Parse {
            path: path.to_path_buf(),
            detail,
        };
        let mut pairs = 0u64;
        for (i, t) in self.tallies.iter().enumerate() {
            let p: u64 = t.penta.iter().sum();
            let games = t
                .wins
                .checked_add(t.draws)
                .and_then(|g| g.checked_add(t.losses));
            if games != p.checked_mul(2) {
                return Err(bad(format!(
                    "tallies[{i}] counts {} wins, {} draws and {} losses but a pentanomial of \
                     {p} pairs ({} games)",
                    t.wins,
                    t.draws,
                    t.losses,
                    p.saturating_mul(2)
                )));
            }
            if t.wl_pairs > t.penta[2] {
                return Err(bad(format!(
                    "tallies[{i}] has {} win-loss pairs but only {} pairs scored 1-1",
                    t.wl_pairs, t.penta[2]
                )));
            }
            pairs = pairs.saturating_add(p);
        }
        if pairs != self.done.len() as u64 {
            return Err(bad(format!(
                "the pentanomials count {pairs} pairs but {} pairs are marked done",
                self.done.len()
            )));
        }
        if let Some(&last) = self.done.last() {
            if last >= total_pairs {
                return Err(bad(format!(
                    "pair {last} is marked done but this run has pairs 0 to {}",
                    total_pairs.saturating_sub(1)
                )));
            }
        }
        Ok(())
    }

    /// Checks that this saved state belongs to a run with `config`.
    pub fn check_config(
        &self,
        path: &Path,
        config: &BTreeMap<String, String>,
    ) -> Result<(), StateError> {
        let keys: BTreeSet<&String> = self.config.keys().chain(config.keys()).collect();
        for key in keys {
            let saved = self.config.get(key).cloned().unwrap_or_default();
            let now = config.get(key).cloned().unwrap_or_default();
            if saved != now {
                return Err(StateError::Mismatch {
                    path: path.to_path_buf(),
                    key: key.clone(),
                    saved,
                    now,
                });
            }
        }
        Ok(())
    }

    /// Writes the state atomically: to `PATH.tmp`, synced, then renamed over `PATH`.
    pub fn save(&self, path: &Path) -> Result<(), StateError> {
        let io = |source| StateError::Io {
            path: path.to_path_buf(),
            source,
        };
        let text = serde_json::to_string_pretty(self).map_err(|e| StateError::Parse {
            path: path.to_path_buf(),
            detail: e.to_string(),
        })?;
        write_atomic(path, &text).map_err(io)
    }

    /// Number of games counted.
    pub fn games(&self) -> u64 {
        self.tallies.iter().map(Tally::games).sum()
    }
}

/// Largest state file read (a run of a million pairs writes far less).
pub const MAX_STATE_BYTES: u64 = 256 << 20;

/// Reads a regular file of at most `max` bytes as text: a device (`/dev/zero`), a directory or
/// a longer file is an error saying so, never an unbounded read.
pub fn read_bounded(path: &Path, max: u64) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    let meta = fs::metadata(path)?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a device, pipe or socket)"
        };
        return Err(Error::new(ErrorKind::InvalidInput, format!("is {what}")));
    }
    let mut text = String::new();
    fs::File::open(path)?
        .take(max + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > max {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("is larger than {max} bytes"),
        ));
    }
    Ok(text)
}

/// Writes `text` and a newline to `path` atomically: to `PATH.tmp`, synced, then renamed over
/// `PATH`, so a reader (or a resumed run after a crash) sees the old file or the new one whole.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let written = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        // A full disk leaves no half-written temporary file behind.
        let _ = fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_counts_pairs_from_both_sides() {
        let mut t = Tally::default();
        t.add_pair([2, 0]);
        t.add_pair([2, 1]);
        t.add_pair([1, 1]);
        t.add_pair([0, 0]);
        assert_eq!((t.wins, t.draws, t.losses), (2, 3, 3));
        assert_eq!(t.penta, [1, 0, 2, 1, 0]);
        let f = t.flipped();
        assert_eq!((f.wins, f.draws, f.losses), (3, 3, 2));
        assert_eq!(f.penta, [0, 1, 2, 0, 1]);
        assert_eq!(t.merged(&f).games(), 16);
    }

    #[test]
    fn save_load_round_trip_and_mismatch() {
        let dir = std::env::temp_dir().join(format!("arena-state-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.json");
        let mut cfg = BTreeMap::new();
        cfg.insert("tc".to_string(), "8+0.08".to_string());
        let mut s = State::new(cfg.clone(), 42, 1);
        s.done.insert(3);
        s.tallies[0].add_pair([2, 1]);
        s.save(&path).unwrap();
        let l = State::load(&path).unwrap();
        assert_eq!(l.done, s.done);
        assert_eq!(l.tallies, s.tallies);
        assert!(l.check_config(&path, &cfg).is_ok());
        cfg.insert("tc".to_string(), "10+0.1".to_string());
        let err = l.check_config(&path, &cfg).unwrap_err().to_string();
        assert!(err.contains("tc was 8+0.08"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn old_state_files_load_with_their_decision() {
        let dir = std::env::temp_dir().join(format!("arena-state-old-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let old = r#"{"version": 1, "config": {"tc": "8+0.08"}, "seed": 7, "done": [0, 1],
            "tallies": [{"wins": 3, "draws": 1, "losses": 0, "penta": [0, 0, 0, 1, 1]}],
            "failures": {}, "history": [], "pgn_bytes": null, "elapsed_s": 1.5"#;
        for (tail, want) in [
            (r#", "decision": "H1"}"#, Some(Decision::H1)),
            (r#", "decision": "H0"}"#, Some(Decision::H0)),
            (r#", "decision": null}"#, None),
            ("}", None),
            // Files from before the sums became fractional hold whole milliseconds.
            (r#", "game_wall_ms": 5000, "game_engine_ms": 4000}"#, None),
        ] {
            let path = dir.join("old.json");
            fs::write(&path, format!("{old}{tail}")).unwrap();
            let s = State::load(&path).unwrap();
            assert_eq!(s.decision, want, "{tail}");
            assert_eq!((s.games(), s.done.len()), (4, 2));
            if tail.contains("game_wall_ms") {
                assert_eq!((s.game_wall_ms, s.game_engine_ms), (5000.0, 4000.0));
            }
            s.save(&path).unwrap();
            assert_eq!(State::load(&path).unwrap().decision, want);
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
