//! An independent UCI client, python-chess, plays a short game against the real binary
//! (tests/python/play_clio.py). Skipped, with the reason printed, when python3 or
//! python-chess is missing (`bash ci/setup.sh` installs it; `make test` runs that first); under
//! CI (`CI=true`) a missing tool fails the test instead, so a broken install step is never green.

mod common;

use std::process::Command;

use common::{clio_path, skip};

#[test]
fn python_chess_plays_a_short_game() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/play_clio.py");
    let out = match Command::new("python3")
        .arg(script)
        .arg(clio_path())
        .arg("24")
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            skip(&format!("python3 could not be started ({e})"));
            return;
        }
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(77) {
        skip(&text);
        return;
    }
    assert!(
        out.status.success(),
        "python-chess client failed:\n{text}\n{err}"
    );
    assert!(text.contains("python-chess: "), "{text}");
    println!("{text}");
}
