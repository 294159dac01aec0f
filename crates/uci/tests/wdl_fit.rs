//! `tuning/wdl/fit.py --selftest`: the win-rate fit recovers the coefficients of data sampled
//! from a known model, and reads arena's PGN comments. Skipped, with the reason printed, when
//! python3, numpy or scipy is missing (`bash ci/setup.sh` installs them); under CI
//! (`CI=true`) that fails instead.

mod common;

#[test]
fn the_win_rate_fit_recovers_a_known_model() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tuning/wdl/fit.py");
    if let Some(text) = common::python(&[script, "--selftest"]) {
        assert!(text.contains("selftest: ok"), "{text}");
    }
}
