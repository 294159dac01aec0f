//! The tuner's checkpoint: θ, the iterations done, the totals and the trajectory, written
//! atomically (temporary file, sync, rename) after every iteration. Perturbations, rounding
//! draws and openings are derived from the seed and the iteration number, so θ and the count
//! are all a resumed run needs to continue exactly.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::state::Tally;

/// Format version of the checkpoint.
pub const VERSION: u32 = 1;

/// Why a checkpoint could not be read, written or used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Reading or writing failed.
    #[error("checkpoint {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Not a checkpoint this arena can read.
    #[error("checkpoint {path}: {detail}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// The checkpoint was made with other settings.
    #[error(
        "checkpoint {path} belongs to another campaign: {key} was {saved:?}, is now {now:?} \
         (restore the file's settings, or remove the checkpoint to start over)"
    )]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The differing setting.
        key: String,
        /// Its saved value.
        saved: String,
        /// Its value now.
        now: String,
    },
}

/// The saved state of a tune.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// [`VERSION`].
    pub version: u32,
    /// The settings that fix the run (`Config::fingerprint`).
    pub config: BTreeMap<String, String>,
    /// Iterations finished (the next one is number `iterations_done`, 0-based).
    pub iterations_done: u64,
    /// θ now, one value per parameter in file order (stored as exact decimal text).
    #[serde(with = "exact")]
    pub theta: Vec<f64>,
    /// All games so far, from the θ+ side.
    pub totals: Tally,
    /// θ after each finished iteration from `first_iteration` on.
    #[serde(with = "exact_rows")]
    pub trajectory: Vec<Vec<f64>>,
    /// Iterations done elsewhere before this run's first (an OpenBench tune continued here with
    /// `--from-openbench`); 0 for a run begun here.
    #[serde(default)]
    pub first_iteration: u64,
    /// Length of the CSV log after the last finished iteration's row.
    pub csv_bytes: u64,
    /// Wall time spent in earlier sessions, in seconds.
    pub elapsed_s: f64,
}

impl Checkpoint {
    /// A fresh checkpoint at θ = `start`.
    pub fn new(config: BTreeMap<String, String>, start: Vec<f64>) -> Checkpoint {
        Checkpoint {
            version: VERSION,
            config,
            iterations_done: 0,
            theta: start,
            totals: Tally::default(),
            trajectory: Vec::new(),
            first_iteration: 0,
            csv_bytes: 0,
            elapsed_s: 0.0,
        }
    }

    /// Reads a checkpoint.
    pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let text =
            crate::state::read_bounded(path, crate::state::MAX_STATE_BYTES).map_err(|source| {
                CheckpointError::Io {
                    path: path.to_path_buf(),
                    source,
                }
            })?;
        let cp: Checkpoint = serde_json::from_str(&text).map_err(|e| CheckpointError::Parse {
            path: path.to_path_buf(),
            detail: e.to_string(),
        })?;
        if cp.version != VERSION {
            return Err(CheckpointError::Parse {
                path: path.to_path_buf(),
                detail: format!("version {} (this arena writes {VERSION})", cp.version),
            });
        }
        if cp.first_iteration + cp.trajectory.len() as u64 != cp.iterations_done {
            return Err(CheckpointError::Parse {
                path: path.to_path_buf(),
                detail: format!(
                    "{} iterations done but {} trajectory points after iteration {}",
                    cp.iterations_done,
                    cp.trajectory.len(),
                    cp.first_iteration
                ),
            });
        }
        Ok(cp)
    }

    /// Checks that the checkpoint belongs to a campaign with this fingerprint.
    pub fn check_config(
        &self,
        path: &Path,
        config: &BTreeMap<String, String>,
    ) -> Result<(), CheckpointError> {
        let keys: BTreeSet<&String> = self.config.keys().chain(config.keys()).collect();
        for key in keys {
            let saved = self.config.get(key).cloned().unwrap_or_default();
            let now = config.get(key).cloned().unwrap_or_default();
            if saved != now {
                return Err(CheckpointError::Mismatch {
                    path: path.to_path_buf(),
                    key: key.clone(),
                    saved,
                    now,
                });
            }
        }
        Ok(())
    }

    /// Checks θ and the trajectory against the campaign's parameters: one finite value per
    /// parameter, each within its [min, max] (a hand-edited checkpoint is refused, naming the
    /// file and the field, rather than tuned from).
    pub fn check_params(
        &self,
        path: &Path,
        params: &[crate::spsa::config::Param],
    ) -> Result<(), CheckpointError> {
        let bad = |detail: String| CheckpointError::Parse {
            path: path.to_path_buf(),
            detail,
        };
        let rows = std::iter::once(("theta".to_string(), &self.theta)).chain(
            self.trajectory
                .iter()
                .enumerate()
                .map(|(i, row)| (format!("trajectory[{i}]"), row)),
        );
        for (field, row) in rows {
            if row.len() != params.len() {
                return Err(bad(format!(
                    "{field} has {} values, the campaign {} parameters",
                    row.len(),
                    params.len()
                )));
            }
            for (v, p) in row.iter().zip(params) {
                if !v.is_finite() {
                    return Err(bad(format!("{field}: {} is {v}, not a number", p.name)));
                }
                // Trajectory points may sit a rounding step outside the range; θ may not.
                if field == "theta" && (*v < p.min || *v > p.max) {
                    return Err(bad(format!(
                        "{field}: {} is {v}, outside its range [{}, {}]",
                        p.name, p.min, p.max
                    )));
                }
            }
        }
        Ok(())
    }

    /// Writes the checkpoint atomically: `PATH.tmp`, synced, renamed over `PATH`.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let io = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let text = serde_json::to_string_pretty(self).map_err(|e| CheckpointError::Parse {
            path: path.to_path_buf(),
            detail: e.to_string(),
        })?;
        crate::state::write_atomic(path, &text).map_err(io)
    }
}

/// θ as text: Rust's shortest round-trip formatting and exact parsing, so a resumed run
/// continues from bit-identical values (JSON number parsing may be off by one ulp).
mod exact {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|x| x.to_string()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        let text: Vec<String> = Vec::deserialize(d)?;
        text.iter()
            .map(|t| {
                t.parse::<f64>()
                    .map_err(|_| D::Error::custom(format!("\"{t}\" is not a number")))
            })
            .collect()
    }
}

/// [`exact`] for a list of rows.
mod exact_rows {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[Vec<f64>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            v.iter()
                .map(|row| row.iter().map(|x| x.to_string()).collect::<Vec<_>>()),
        )
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<f64>>, D::Error> {
        let text: Vec<Vec<String>> = Vec::deserialize(d)?;
        text.iter()
            .map(|row| {
                row.iter()
                    .map(|t| {
                        t.parse::<f64>()
                            .map_err(|_| D::Error::custom(format!("\"{t}\" is not a number")))
                    })
                    .collect()
            })
            .collect()
    }
}
