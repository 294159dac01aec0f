//! An independent UCI client, python-chess, plays a short game against the real binary
//! (tests/python/play_clio.py). Skipped, with the reason printed, when python3 or
//! python-chess is missing (`bash ci/setup.sh` installs it; `make test` runs that first); under
//! CI (`CI=true`) a missing tool fails the test instead, so a broken install step is never green.

mod common;

use common::clio_path;

#[test]
fn python_chess_plays_a_short_game() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/play_clio.py");
    if let Some(text) = common::python(&[script, clio_path(), "24"]) {
        assert!(text.contains("python-chess: "), "{text}");
        println!("{text}");
    }
}
