//! Helpers shared by the runner and CLI tests: the arena binary, engines, scratch directories.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod tools;
pub use tools::*;

/// The `arena` binary under test. Its runs are recorded in a scratch database shared by the
/// tests (never the checkout's `results/arena.sqlite`), without bench probes.
pub fn arena() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arena"));
    c.env("ARENA_DB", test_db()).env("ARENA_NO_BENCH", "1");
    c
}

/// The scratch database every test's `arena` records into.
pub fn test_db() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("arena-tests.sqlite")
}

/// Debian's stockfish; None (through [`skip`]) if it is absent.
pub fn stockfish() -> Option<String> {
    let found = find_stockfish();
    if found.is_none() {
        skip("stockfish is not installed (bash ci/setup.sh installs it)");
    }
    found
}

/// Stockfish for the python3 fake engines that relay to it: None (through [`skip`]) if
/// python3 or stockfish is absent.
pub fn sf_and_python() -> Option<String> {
    python()?;
    stockfish()
}

/// The release `clio` (`make test` builds it first); None (through [`skip`]) when it is missing.
pub fn clio_release() -> Option<String> {
    let clio = root().join("target/release/clio");
    if clio.is_file() {
        return Some(clio.to_string_lossy().into_owned());
    }
    skip("target/release/clio is not built (make test builds it first)");
    None
}

/// python3, needed by the fake engines; None (through [`skip`]) if it is absent.
pub fn python() -> Option<String> {
    match Command::new("python3").arg("-c").arg("pass").status() {
        Ok(s) if s.success() => Some("python3".into()),
        _ => {
            skip("python3 is not available for the fake engine");
            None
        }
    }
}

/// Whether python3 can import python-chess; false (through [`skip`]) if not.
pub fn python_chess() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        skip("python-chess is not installed (bash ci/setup.sh installs it)");
    }
    ok
}

/// The fake engine script.
pub fn fake() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/runner_fake.py")
        .to_string_lossy()
        .into_owned()
}

/// The seed opening book.
pub fn seed_book() -> String {
    root()
        .join("openings/seed.epd")
        .to_string_lossy()
        .into_owned()
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// stdout and stderr of a finished run, as text.
pub fn texts(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The numbers after `key: ` in the `Games:` line of the last results block:
/// (games, wins, losses, draws).
pub fn games_line(stdout: &str) -> (u64, u64, u64, u64) {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("Games: ") && l.contains("Wins:"))
        .unwrap_or_else(|| panic!("no Games line in:\n{stdout}"));
    let nums: Vec<u64> = line
        .split([',', ' ', ':'])
        .filter_map(|w| w.parse().ok())
        .collect();
    (nums[0], nums[1], nums[2], nums[3])
}

/// The pentanomial of the last `Ptnml(0-2):` line.
pub fn ptnml(stdout: &str) -> [u64; 5] {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("Ptnml(0-2): ["))
        .unwrap_or_else(|| panic!("no Ptnml line in:\n{stdout}"));
    let inner = &line[line.find('[').unwrap() + 1..line.find(']').unwrap()];
    let v: Vec<u64> = inner.split(", ").map(|s| s.parse().unwrap()).collect();
    [v[0], v[1], v[2], v[3], v[4]]
}
