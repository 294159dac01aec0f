//! A run as the database holds it, and the few queries that read and write runs.
//!
//! [`RunRow`] mirrors the `runs` table column for column (its serde names are the column
//! names); list-valued columns (`penta`, `engines`, `failures`, `limits`, `adjudication`,
//! `extra`) hold JSON text. Points and SPSA iterations live in their own tables.

use rusqlite::types::{Value as Sql, ValueRef};
use rusqlite::{params, OptionalExtension, Transaction};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Db, DbError};

/// One engine of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineRow {
    /// Its display name.
    pub name: String,
    /// The command that starts it.
    pub cmd: String,
    /// Its command-line arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// UCI options set for it, in order (`--option` values included).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<(String, String)>,
    /// The git ref it was built from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_ref: Option<String>,
    /// The commit of that ref.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_commit: Option<String>,
    /// Its bench signature (`Bench: N` of the commit, else what `<cmd> bench` printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bench: Option<u64>,
}

/// One point of a run's chart: the figures after `games` games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PointRow {
    /// Games played.
    pub games: i64,
    /// The SPRT's LLR then.
    #[serde(default)]
    pub llr: Option<f64>,
    /// Elo then.
    #[serde(default)]
    pub elo: Option<f64>,
    /// Its 95 % error.
    #[serde(default)]
    pub elo_error: Option<f64>,
}

/// One SPSA iteration: θ after it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IterationRow {
    /// The iteration, from 1.
    pub iter: i64,
    /// The parameters by name.
    pub theta: Map<String, Value>,
}

/// Results of one encounter of a multi-engine run (a gauntlet's row).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EncounterRow {
    /// First engine.
    pub first: String,
    /// Second engine.
    pub second: String,
    /// Games, and the first engine's wins, draws and losses.
    pub games: i64,
    /// Wins of `first`.
    pub wins: i64,
    /// Draws.
    pub draws: i64,
    /// Losses of `first`.
    pub losses: i64,
    /// Pentanomial from `first`'s side.
    pub penta: Vec<i64>,
    /// Elo of `first` against `second`.
    pub elo: Option<f64>,
    /// Its 95 % error.
    pub elo_error: Option<f64>,
    /// Score of `first`.
    pub score: Option<f64>,
}

/// A run: the `runs` table's columns. `id` is the database's, `uid` the one that travels in
/// exports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunRow {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    pub uid: String,
    pub parent_uid: Option<String>,
    pub name: String,
    /// sprt, match, gauntlet, ablate, ablate-row or spsa.
    pub kind: String,
    /// running, H0, H1, complete or stopped.
    pub status: String,
    pub started_at: Option<String>,
    pub updated_at: Option<String>,
    pub ended_at: Option<String>,
    pub command: Option<String>,
    pub cwd: Option<String>,
    /// `arena`, or `import:<path>` for a run read from an older record.
    pub source: String,
    pub host: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid_start: Option<i64>,
    pub tc: Option<String>,
    pub limits: Option<Value>,
    pub adjudication: Option<Value>,
    pub book: Option<String>,
    pub seed: Option<String>,
    pub book_order: Option<String>,
    pub concurrency: Option<i64>,
    pub elo0: Option<f64>,
    pub elo1: Option<f64>,
    pub alpha: Option<f64>,
    pub beta: Option<f64>,
    pub model: Option<String>,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    pub max_games: Option<i64>,
    pub state_path: Option<String>,
    pub pgn_path: Option<String>,
    pub pgn_bytes: Option<i64>,
    pub epd_path: Option<String>,
    pub fingerprint: Option<String>,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    pub penta: Option<Vec<i64>>,
    pub elo: Option<f64>,
    pub elo_error: Option<f64>,
    pub nelo: Option<f64>,
    pub nelo_error: Option<f64>,
    pub los: Option<f64>,
    pub draw_ratio: Option<f64>,
    pub score: Option<f64>,
    pub llr: Option<f64>,
    pub failures: Option<Value>,
    pub elapsed_s: Option<f64>,
    pub engines: Vec<EngineRow>,
    /// Kind-specific details: a gauntlet's encounters, an ablation's table, SPSA's campaign.
    pub extra: Option<Value>,
}

/// Columns that hold JSON text.
const JSON_COLUMNS: &[&str] = &[
    "limits",
    "adjudication",
    "penta",
    "failures",
    "engines",
    "extra",
];

/// A JSON value as an SQL value: arrays and objects become JSON text.
fn to_sql(v: &Value) -> Sql {
    match v {
        Value::Null => Sql::Null,
        Value::Bool(b) => Sql::Integer(i64::from(*b)),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Sql::Integer(i),
            None => Sql::Real(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Sql::Text(s.clone()),
        other => Sql::Text(other.to_string()),
    }
}

/// An SQL value of column `col` as JSON.
fn from_sql(col: &str, v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::from(i),
        ValueRef::Real(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        ValueRef::Text(t) => {
            let s = String::from_utf8_lossy(t).into_owned();
            if JSON_COLUMNS.contains(&col) {
                serde_json::from_str(&s).unwrap_or(Value::String(s))
            } else {
                Value::String(s)
            }
        }
        ValueRef::Blob(_) => Value::Null,
    }
}

impl RunRow {
    /// The row's columns and values, `id` left out.
    fn columns(&self) -> Result<Vec<(String, Sql)>, DbError> {
        let v = serde_json::to_value(self).map_err(|e| DbError::Invalid(e.to_string()))?;
        let Value::Object(map) = v else {
            return Err(DbError::Invalid("a run is not an object".into()));
        };
        let mut cols: Vec<(String, Sql)> = map
            .iter()
            .filter(|(k, _)| *k != "id")
            .map(|(k, v)| (k.clone(), to_sql(v)))
            .collect();
        for absent in ["pid", "pid_start"] {
            if !map.contains_key(absent) {
                cols.push((absent.into(), Sql::Null));
            }
        }
        Ok(cols)
    }

    /// Reads a run from a `SELECT *` row.
    fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<RunRow> {
        let stmt = row.as_ref();
        let mut map = Map::new();
        for i in 0..stmt.column_count() {
            let name = stmt.column_name(i)?.to_string();
            let v = from_sql(&name, row.get_ref(i)?);
            map.insert(name, v);
        }
        serde_json::from_value(Value::Object(map)).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
        })
    }
}

/// Inserts `run`, or updates the row with its `uid`; returns the row's id.
pub fn upsert(tx: &Transaction<'_>, run: &RunRow) -> Result<i64, rusqlite::Error> {
    let cols = run
        .columns()
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    let names: Vec<&str> = cols.iter().map(|(n, _)| n.as_str()).collect();
    let marks: Vec<String> = (1..=cols.len()).map(|i| format!("?{i}")).collect();
    let updates: Vec<String> = names
        .iter()
        .filter(|n| **n != "uid")
        .map(|n| format!("{n} = excluded.{n}"))
        .collect();
    let sql = format!(
        "INSERT INTO runs ({}) VALUES ({}) ON CONFLICT(uid) DO UPDATE SET {} RETURNING id",
        names.join(", "),
        marks.join(", "),
        updates.join(", ")
    );
    let values = cols.into_iter().map(|(_, v)| v);
    tx.query_row(&sql, rusqlite::params_from_iter(values), |r| r.get(0))
}

/// Adds (or replaces) a chart point of run `id`.
pub fn put_point(tx: &Transaction<'_>, id: i64, p: &PointRow) -> Result<(), rusqlite::Error> {
    tx.execute(
        "INSERT OR REPLACE INTO points (run_id, games, llr, elo, elo_error) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, p.games, p.llr, p.elo, p.elo_error],
    )?;
    Ok(())
}

/// Adds (or replaces) an SPSA iteration of run `id`.
pub fn put_iteration(
    tx: &Transaction<'_>,
    id: i64,
    it: &IterationRow,
) -> Result<(), rusqlite::Error> {
    let theta = Value::Object(it.theta.clone()).to_string();
    tx.execute(
        "INSERT OR REPLACE INTO iterations (run_id, iter, theta) VALUES (?1, ?2, ?3)",
        params![id, it.iter, theta],
    )?;
    Ok(())
}

impl Db {
    /// Every run, newest first (by start time, then id).
    pub fn runs(&self) -> Result<Vec<RunRow>, DbError> {
        let mut stmt = self
            .conn
            .prepare("SELECT * FROM runs ORDER BY started_at DESC, id DESC")
            .map_err(self.err())?;
        let rows = stmt
            .query_map([], RunRow::from_row)
            .map_err(self.err())?
            .collect::<Result<Vec<_>, _>>()
            .map_err(self.err())?;
        Ok(rows)
    }

    /// The run with database id `id`, or whose uid is `id`.
    pub fn run(&self, id: &str) -> Result<Option<RunRow>, DbError> {
        let by_id = id.parse::<i64>().ok();
        self.conn
            .query_row(
                "SELECT * FROM runs WHERE id = ?1 OR uid = ?2",
                params![by_id, id],
                RunRow::from_row,
            )
            .optional()
            .map_err(self.err())
    }

    /// The chart points of run `id`, by games.
    pub fn points(&self, id: i64) -> Result<Vec<PointRow>, DbError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT games, llr, elo, elo_error FROM points WHERE run_id = ?1 ORDER BY games",
            )
            .map_err(self.err())?;
        let rows = stmt
            .query_map([id], |r| {
                Ok(PointRow {
                    games: r.get(0)?,
                    llr: r.get(1)?,
                    elo: r.get(2)?,
                    elo_error: r.get(3)?,
                })
            })
            .map_err(self.err())?
            .collect::<Result<Vec<_>, _>>()
            .map_err(self.err())?;
        Ok(rows)
    }

    /// The SPSA iterations of run `id`, in order.
    pub fn iterations(&self, id: i64) -> Result<Vec<IterationRow>, DbError> {
        let mut stmt = self
            .conn
            .prepare("SELECT iter, theta FROM iterations WHERE run_id = ?1 ORDER BY iter")
            .map_err(self.err())?;
        let rows = stmt
            .query_map([id], |r| {
                let text: String = r.get(1)?;
                Ok(IterationRow {
                    iter: r.get(0)?,
                    theta: serde_json::from_str(&text).unwrap_or_default(),
                })
            })
            .map_err(self.err())?
            .collect::<Result<Vec<_>, _>>()
            .map_err(self.err())?;
        Ok(rows)
    }

    /// Runs `f` in an immediate (write-locking) transaction and commits it.
    pub fn write<T>(
        &mut self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T, rusqlite::Error>,
    ) -> Result<T, DbError> {
        let path = self.path.clone();
        let err = DbError::sqlite(&path);
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| DbError::sqlite(&path)(e))?;
        let out = f(&tx).map_err(|e| DbError::sqlite(&path)(e))?;
        tx.commit().map_err(err)?;
        Ok(out)
    }

    /// Marks as stopped every running run of this host whose process is gone (killed, or
    /// the machine restarted); returns how many.
    pub fn mark_stale(&mut self) -> Result<usize, DbError> {
        let host = hostname();
        let stale: Vec<i64> = self
            .runs()?
            .into_iter()
            .filter(|r| r.status == "running" && r.host.as_deref() == Some(host.as_str()))
            .filter(|r| !alive(r.pid, r.pid_start))
            .filter_map(|r| r.id)
            .collect();
        if stale.is_empty() {
            return Ok(0);
        }
        self.write(|tx| {
            for id in &stale {
                tx.execute(
                    "UPDATE runs SET status = 'stopped', pid = NULL WHERE id = ?1 AND status = 'running'",
                    [id],
                )?;
            }
            Ok(stale.len())
        })
    }
}

/// This machine's name, for telling whose pids a row's are.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".into())
}

/// The start time (clock ticks since boot, field 22 of `/proc/PID/stat`) of process `pid`.
pub fn pid_start(pid: u32) -> Option<i64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces; the fields after its `)` are plain.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the process `pid` that started at `start` still runs.
fn alive(pid: Option<i64>, start: Option<i64>) -> bool {
    let Some(pid) = pid.and_then(|p| u32::try_from(p).ok()) else {
        return false;
    };
    match (pid_start(pid), start) {
        (Some(now), Some(then)) => now == then,
        (Some(_), None) => true,
        (None, _) => false,
    }
}
