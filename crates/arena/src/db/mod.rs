//! The results database: every `sprt`, `match`, `gauntlet`, `ablate` row and `spsa` run is a row
//! of one SQLite file, written by arena itself while the run plays.
//!
//! The file is opened in WAL mode with a busy timeout, so several arena processes can record
//! into one database at once and a reader (`arena results`, `arena serve`) never blocks a run.
//! Its schema is versioned with `PRAGMA user_version`; an older file is migrated in place, a
//! newer or damaged one is an error naming the file. Where it lives: `--db FILE`, else the
//! environment's `ARENA_DB`, else `results/arena.sqlite` at the top of the git checkout holding
//! the current directory (git-ignored; seeded on first use from the committed export
//! `results/runs.jsonl`), else `~/.local/share/arena/arena.sqlite`.

pub mod export;
pub mod legacy;
pub mod record;
pub mod recorder;
pub mod schema;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use rusqlite::Connection;

pub use record::{EncounterRow, EngineRow, IterationRow, PointRow, RunRow};
pub use recorder::Recorder;

/// The environment variable that names the database when `--db` is not given.
pub const ENV: &str = "ARENA_DB";

/// The committed export beside the default database, relative to the checkout's top.
pub const EXPORT: &str = "results/runs.jsonl";

/// The database options every recording command takes.
#[derive(Args, Clone, Debug, Default)]
pub struct DbArgs {
    /// Results database [default: $ARENA_DB, else results/arena.sqlite at the top of the git
    /// checkout holding the current directory, else ~/.local/share/arena/arena.sqlite].
    #[arg(long, value_name = "FILE", global = true)]
    pub db: Option<PathBuf>,
    /// Do not record this run in the results database.
    #[arg(long, conflicts_with = "db", global = true)]
    pub no_db: bool,
    /// The run's name in the database [default: dev vs base, or the engines' names].
    #[arg(long, value_name = "NAME", global = true)]
    pub run_name: Option<String>,
}

/// The database option of the commands that only read and maintain it (`results`, `serve`).
#[derive(Args, Clone, Debug, Default)]
pub struct DbFile {
    /// Results database [default: $ARENA_DB, else results/arena.sqlite at the top of the git
    /// checkout holding the current directory, else ~/.local/share/arena/arena.sqlite].
    #[arg(long, value_name = "FILE", global = true)]
    pub db: Option<PathBuf>,
}

impl DbFile {
    /// The same database as a recording command's options.
    pub fn args(&self) -> DbArgs {
        DbArgs {
            db: self.db.clone(),
            ..DbArgs::default()
        }
    }
}

impl DbArgs {
    /// The database to record into, `None` with `--no-db`.
    pub fn path(&self) -> Option<PathBuf> {
        if self.no_db {
            return None;
        }
        Some(self.db.clone().unwrap_or_else(default_path))
    }
}

/// What went wrong with a database, always naming its file.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The file is there but is not an SQLite database.
    #[error("results database {path}: {detail}")]
    NotDatabase { path: PathBuf, detail: String },
    /// SQLite refused an operation.
    #[error("results database {path}: {source}")]
    Sqlite {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    /// The file was written by a newer arena.
    #[error(
        "results database {path} has schema version {found}; this arena knows up to {known} \
         (use a newer arena, or --db for another file)"
    )]
    Newer {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    /// Reading or writing a file beside the database failed.
    #[error("{what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A row or an export line does not make sense.
    #[error("{0}")]
    Invalid(String),
}

impl DbError {
    /// Wraps an SQLite error with the database's path.
    pub fn sqlite(path: &Path) -> impl FnOnce(rusqlite::Error) -> DbError + '_ {
        move |source| DbError::Sqlite {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The top of the git checkout holding `dir`, found by walking up to a `.git` entry.
pub fn checkout_top(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The database used when neither `--db` nor `ARENA_DB` names one.
pub fn default_path() -> PathBuf {
    if let Some(p) = std::env::var_os(ENV).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    if let Some(top) = checkout_top(&cwd) {
        return top.join("results").join("arena.sqlite");
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    home.join(".local/share/arena/arena.sqlite")
}

/// An open results database.
pub struct Db {
    /// The connection.
    pub conn: Connection,
    /// Its file, for messages.
    pub path: PathBuf,
}

/// How long a writer waits for another process's transaction before it gives up.
const BUSY: Duration = Duration::from_secs(30);

impl Db {
    /// Opens (creating if need be) and migrates the database at `path`. A file that is not an
    /// SQLite database, a damaged one and one from a newer arena are errors naming the file.
    pub fn open(path: &Path) -> Result<Db, DbError> {
        let fresh = check_file(path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| DbError::Io {
                what: "cannot create the directory of the results database",
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let err = DbError::sqlite(path);
        let conn = Connection::open(path).map_err(err)?;
        let db = Db {
            conn,
            path: path.to_path_buf(),
        };
        db.conn.busy_timeout(BUSY).map_err(db.err())?;
        // journal_mode answers with a row; the others are plain settings.
        db.conn
            .query_row("PRAGMA journal_mode=WAL", [], |_| Ok(()))
            .map_err(db.err())?;
        db.conn
            .execute_batch("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
            .map_err(db.err())?;
        if !fresh {
            let check: String = db
                .conn
                .query_row("PRAGMA quick_check", [], |r| r.get(0))
                .map_err(db.err())?;
            if check != "ok" {
                return Err(DbError::NotDatabase {
                    path: path.to_path_buf(),
                    detail: format!(
                        "the file is damaged (SQLite's quick_check: {check}); move it aside \
                         and rebuild it with `arena results import {EXPORT}`"
                    ),
                });
            }
        }
        schema::migrate(&db)?;
        Ok(db)
    }

    /// Opens the database `args` names, seeding the default one from the committed export
    /// the first time; `None` with `--no-db`.
    pub fn open_args(args: &DbArgs) -> Result<Option<Db>, DbError> {
        let Some(path) = args.path() else {
            return Ok(None);
        };
        let seed = args.db.is_none()
            && std::env::var_os(ENV).is_none_or(|p| p.is_empty())
            && !path.exists();
        let db = Db::open(&path)?;
        if seed {
            db.seed_from_export(&path)?;
        }
        Ok(Some(db))
    }

    /// Imports `results/runs.jsonl` beside a new default database, if the checkout has one.
    fn seed_from_export(&self, path: &Path) -> Result<(), DbError> {
        let Some(top) = path.parent().and_then(Path::parent) else {
            return Ok(());
        };
        let export = top.join(EXPORT);
        if export.is_file() {
            let n = export::import_jsonl(self, &export)?;
            eprintln!(
                "arena: new results database {}: {n} runs imported from {}",
                path.display(),
                export.display()
            );
        }
        Ok(())
    }

    /// The error wrapper for this database.
    pub fn err(&self) -> impl FnOnce(rusqlite::Error) -> DbError + '_ {
        DbError::sqlite(&self.path)
    }
}

/// Checks that an existing `path` is a regular file holding an SQLite database (an empty file
/// counts as a new database); returns whether the database is new.
fn check_file(path: &Path) -> Result<bool, DbError> {
    let not_db = |detail: String| DbError::NotDatabase {
        path: path.to_path_buf(),
        detail,
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(true),
        Err(e) => return Err(not_db(format!("cannot read it: {e}"))),
    };
    if !meta.is_file() {
        return Err(not_db("not a regular file".into()));
    }
    if meta.len() == 0 {
        return Ok(true);
    }
    let mut head = [0u8; 16];
    let mut f = std::fs::File::open(path).map_err(|e| not_db(format!("cannot open it: {e}")))?;
    let n = f
        .read(&mut head)
        .map_err(|e| not_db(format!("cannot read it: {e}")))?;
    if n < 16 || &head != b"SQLite format 3\0" {
        return Err(not_db(
            "not an SQLite database (its first bytes are not SQLite's header)".into(),
        ));
    }
    if meta.len() < 512 {
        return Err(not_db(format!(
            "the file is damaged: {} bytes, shorter than one SQLite page",
            meta.len()
        )));
    }
    Ok(false)
}

/// Now as the database writes times: UTC, ISO 8601 to the second.
pub fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    iso_utc(secs)
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn iso_utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_dates_match_known_instants() {
        // `date -u -d @0`, `@951782400` (a leap day) and `@1796428800`.
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso_utc(1_796_428_800 + 3661), "2026-12-05T01:01:01Z");
    }
}
