//! The workspace root, Debian's Stockfish and the skip rule: what tests of any crate of the
//! workspace need (the nnue crate's tests include this file by path).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A test that cannot run for want of a tool: under CI (`CI=true`) a failure, since a skip is
/// not a pass; elsewhere a note on stderr, and the caller returns.
pub fn skip(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true and the test cannot run: {why}");
    }
    eprintln!("skipped: {why}");
}

/// Debian's stockfish, found by ci/find-engine.sh, with no message when it is absent (for
/// tests that fall back on something else).
pub fn find_stockfish() -> Option<String> {
    let out = Command::new("bash")
        .arg(root().join("ci/find-engine.sh"))
        .arg("stockfish")
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !path.is_empty()).then_some(path)
}
