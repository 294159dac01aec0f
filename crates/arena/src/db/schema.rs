//! The database's schema and its migrations, versioned with `PRAGMA user_version`.
//!
//! Each entry of [`MIGRATIONS`] takes a database from version `i` to `i + 1`; a new file runs
//! them all. A file whose version is newer than this arena knows is refused, never rewritten.

use super::{Db, DbError};

/// Version 1: runs and their chart points.
pub const V1: &str = "
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    parent_uid TEXT,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    started_at TEXT,
    updated_at TEXT,
    ended_at TEXT,
    command TEXT,
    cwd TEXT,
    source TEXT NOT NULL DEFAULT 'arena',
    host TEXT,
    pid INTEGER,
    pid_start INTEGER,
    tc TEXT,
    limits TEXT,
    adjudication TEXT,
    book TEXT,
    seed TEXT,
    book_order TEXT,
    concurrency INTEGER,
    elo0 REAL, elo1 REAL, alpha REAL, beta REAL, model TEXT, lower REAL, upper REAL,
    max_games INTEGER,
    state_path TEXT,
    pgn_path TEXT,
    pgn_bytes INTEGER,
    epd_path TEXT,
    fingerprint TEXT,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    draws INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    penta TEXT,
    elo REAL, elo_error REAL, nelo REAL, nelo_error REAL, los REAL, draw_ratio REAL, score REAL,
    llr REAL,
    failures TEXT,
    elapsed_s REAL,
    engines TEXT
);
CREATE INDEX runs_started ON runs(started_at);
CREATE INDEX runs_state ON runs(state_path);
CREATE TABLE points (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    games INTEGER NOT NULL,
    llr REAL,
    elo REAL,
    elo_error REAL,
    PRIMARY KEY (run_id, games)
);
";

/// Version 2: SPSA iterations, the bench cache, and free-form details per run.
pub const V2: &str = "
ALTER TABLE runs ADD COLUMN extra TEXT;
CREATE TABLE iterations (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    iter INTEGER NOT NULL,
    theta TEXT NOT NULL,
    PRIMARY KEY (run_id, iter)
);
CREATE TABLE bench_cache (
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime INTEGER NOT NULL,
    bench INTEGER,
    PRIMARY KEY (path, size, mtime)
);
";

/// The migrations, in order.
pub const MIGRATIONS: &[&str] = &[V1, V2];

/// The schema version this arena writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings the database to [`VERSION`], each step in its own transaction.
pub fn migrate(db: &Db) -> Result<(), DbError> {
    let found: i64 = db
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(db.err())?;
    if found > VERSION {
        return Err(DbError::Newer {
            path: db.path.clone(),
            found,
            known: VERSION,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
        let batch = format!(
            "BEGIN IMMEDIATE; {sql}; PRAGMA user_version = {}; COMMIT;",
            i + 1
        );
        if let Err(e) = db.conn.execute_batch(&batch) {
            let _ = db.conn.execute_batch("ROLLBACK");
            // Another process may have migrated meanwhile.
            let now: i64 = db
                .conn
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .map_err(db.err())?;
            if now > i as i64 {
                continue;
            }
            return Err(DbError::sqlite(&db.path)(e));
        }
    }
    Ok(())
}
