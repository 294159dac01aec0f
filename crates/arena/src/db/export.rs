//! The database as text: one JSON object a run per line (`results/runs.jsonl`), oldest first,
//! each with its chart points (thinned to at most [`MAX_POINTS`]) and SPSA iterations (thinned
//! to at most [`MAX_ITERATIONS`]), their figures rounded to [`DECIMALS`] decimals so the file a
//! repository commits stays small. `arena results import` reads it back.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::record::{self, IterationRow, PointRow};
use super::{Db, DbError, RunRow};

/// Most chart points an exported run keeps (evenly spaced, the last one always).
pub const MAX_POINTS: usize = 40;

/// Most SPSA iterations an exported run keeps (evenly spaced, the last one always).
pub const MAX_ITERATIONS: usize = 50;

/// Decimals the figures of exported chart points and iterations keep.
pub const DECIMALS: i32 = 2;

/// Largest export line read back (a run with its points and iterations).
const MAX_LINE: usize = 16 << 20;

/// One exported run.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Exported {
    /// The run.
    #[serde(flatten)]
    pub run: RunRow,
    /// Its chart points.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<PointRow>,
    /// Its SPSA iterations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<IterationRow>,
}

/// At most `max` of `points`, evenly spaced, first and last kept.
pub fn thin<T: Clone>(points: &[T], max: usize) -> Vec<T> {
    if points.len() <= max || max < 2 {
        return points.to_vec();
    }
    let n = points.len() - 1;
    (0..max)
        .map(|i| points[i * n / (max - 1)].clone())
        .collect()
}

/// Rounds every non-integral number inside `v` to `decimals` decimals.
fn round_floats(v: &mut serde_json::Value, decimals: i32) {
    use serde_json::Value;
    match v {
        Value::Number(n) if n.is_f64() => {
            let scale = 10f64.powi(decimals);
            if let Some(x) = n.as_f64().map(|x| (x * scale).round() / scale + 0.0) {
                if let Some(r) = serde_json::Number::from_f64(x) {
                    *n = r;
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| round_floats(x, decimals)),
        Value::Object(map) => map.values_mut().for_each(|x| round_floats(x, decimals)),
        _ => {}
    }
}

/// Every run of `db` as export lines, oldest first. Live details (process ids) are left out,
/// and a run still playing is written as `stopped` with the figures it has: an export is a
/// record, read where no process of the run lives, so it never claims a live run (exported
/// again after the run ends, its line has the final figures and verdict).
pub fn export_lines(db: &Db) -> Result<Vec<String>, DbError> {
    let mut runs = db.runs()?;
    runs.sort_by(|a, b| (&a.started_at, &a.uid).cmp(&(&b.started_at, &b.uid)));
    let mut lines = Vec::with_capacity(runs.len());
    for run in runs {
        let id = run.id.unwrap_or_default();
        let points = thin(&db.points(id)?, MAX_POINTS);
        let iterations = thin(&db.iterations(id)?, MAX_ITERATIONS);
        let mut run = run;
        run.id = None;
        run.pid = None;
        run.pid_start = None;
        if run.status == "running" {
            run.status = "stopped".into();
        }
        let e = Exported {
            run,
            points,
            iterations,
        };
        let bad = |e: serde_json::Error| DbError::Invalid(e.to_string());
        let mut v = serde_json::to_value(&e).map_err(bad)?;
        for key in ["points", "iterations"] {
            if let Some(list) = v.get_mut(key) {
                round_floats(list, DECIMALS);
            }
        }
        lines.push(serde_json::to_string(&v).map_err(bad)?);
    }
    Ok(lines)
}

/// Writes the export of `db` to `path` (atomically: a temporary file, then a rename).
pub fn write_jsonl(db: &Db, path: &Path) -> Result<usize, DbError> {
    let lines = export_lines(db)?;
    let io = |source| DbError::Io {
        what: "cannot write the export",
        path: path.to_path_buf(),
        source,
    };
    let tmp = path.with_extension("jsonl.tmp");
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    for l in &lines {
        writeln!(f, "{l}").map_err(io)?;
    }
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io)?;
    Ok(lines.len())
}

/// Imports an export file: each run is inserted, or replaces the run with its uid. Returns
/// the number of runs read. A malformed line is an error naming the file and line, and
/// nothing of the file is imported.
pub fn import_jsonl(db: &Db, path: &Path) -> Result<usize, DbError> {
    let io = |source| DbError::Io {
        what: "cannot read the export",
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(DbError::Invalid(format!(
            "{}: not a regular file",
            path.display()
        )));
    }
    let reader = BufReader::new(std::fs::File::open(path).map_err(io)?);
    let mut runs = Vec::new();
    for (n, line) in reader.lines().enumerate() {
        let line = line.map_err(io)?;
        if line.trim().is_empty() {
            continue;
        }
        if line.len() > MAX_LINE {
            return Err(DbError::Invalid(format!(
                "{} line {}: longer than {MAX_LINE} bytes",
                path.display(),
                n + 1
            )));
        }
        let e: Exported = serde_json::from_str(&line)
            .map_err(|e| DbError::Invalid(format!("{} line {}: {e}", path.display(), n + 1)))?;
        if e.run.uid.is_empty() || e.run.kind.is_empty() {
            return Err(DbError::Invalid(format!(
                "{} line {}: a run needs a uid and a kind",
                path.display(),
                n + 1
            )));
        }
        runs.push(e);
    }
    insert_all(db, &runs)?;
    Ok(runs.len())
}

/// Inserts (or replaces by uid) `runs` with their points and iterations, in one transaction.
pub fn insert_all(db: &Db, runs: &[Exported]) -> Result<(), DbError> {
    let tx =
        rusqlite::Transaction::new_unchecked(&db.conn, rusqlite::TransactionBehavior::Immediate)
            .map_err(db.err())?;
    for e in runs {
        let mut run = e.run.clone();
        run.id = None;
        let id = record::upsert(&tx, &run).map_err(db.err())?;
        tx.execute("DELETE FROM points WHERE run_id = ?1", [id])
            .map_err(db.err())?;
        tx.execute("DELETE FROM iterations WHERE run_id = ?1", [id])
            .map_err(db.err())?;
        for p in &e.points {
            record::put_point(&tx, id, p).map_err(db.err())?;
        }
        for it in &e.iterations {
            record::put_iteration(&tx, id, it).map_err(db.err())?;
        }
    }
    tx.commit().map_err(db.err())
}
