//! The arena's statistics against fishtest's and fastchess's numbers.
//!
//! "fishtest" values were computed with fishtest's own `LLRcalc.py` / `stat_util.py` (issue 4);
//! "derived" values come from a re-derivation of the same formulas (fishtest's `regularize`,
//! `MLE_expected`, `MLE_t_value`) independent of this crate's code, to the stated precision.

use clio_arena::stats::{
    bounds, elo_to_score, estimate_penta, estimate_wdl, llr_penta, llr_wdl, sprt_penta, sprt_wdl,
    Decision, Estimate, Model, SprtConfig, SprtConfigError, SprtStatus, NELO_PER_T,
};

fn cfg(elo0: f64, elo1: f64, model: Model) -> SprtConfig {
    SprtConfig {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model,
    }
}

fn normalized(elo0: f64, elo1: f64) -> SprtConfig {
    cfg(elo0, elo1, Model::Normalized)
}

fn logistic(elo0: f64, elo1: f64) -> SprtConfig {
    cfg(elo0, elo1, Model::Logistic)
}

#[track_caller]
fn assert_close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{actual} differs from {expected} by more than {tolerance}"
    );
}

#[track_caller]
fn assert_some_close(actual: Option<f64>, expected: f64, tolerance: f64) {
    match actual {
        Some(value) => assert_close(value, expected, tolerance),
        None => panic!("None where {expected} was expected"),
    }
}

/// Four-decimal reference values: within half a unit of the last digit plus rounding slack.
const LLR_TOL: f64 = 6e-5;

#[test]
fn fishtest_reference_small_pentanomial() {
    let penta = [1, 3, 5, 5, 2];
    assert_close(llr_penta(&penta, &normalized(0.0, 2.0)), 0.0284, LLR_TOL);
    assert_close(llr_penta(&penta, &logistic(0.0, 5.0)), 0.0861, LLR_TOL);
    let e = estimate_penta(&penta);
    assert_some_close(e.elo, 43.66, 0.006);
    assert_some_close(e.elo_error, 96.77, 0.006);
    assert_some_close(e.los, 0.8206, LLR_TOL);
    assert_some_close(e.score, 0.5625, 1e-12);
    assert_some_close(e.draw_ratio, 5.0 / 16.0, 1e-12);
}

#[test]
fn fishtest_reference_balanced_pentanomial() {
    let penta = [10, 100, 320, 100, 10];
    assert_close(llr_penta(&penta, &normalized(0.0, 2.0)), -0.0179, LLR_TOL);
    let e = estimate_penta(&penta);
    assert_some_close(e.elo, 0.0, 0.006);
    assert_some_close(e.elo_error, 10.55, 0.006);
    assert_some_close(e.nelo, 0.0, 0.006);
    assert_some_close(e.nelo_error, 20.72, 0.006);
    assert_some_close(e.los, 0.5, 1e-12);
}

#[test]
fn fishtest_reference_large_pentanomial() {
    let penta = [365, 16618, 36229, 16974, 390];
    assert_close(llr_penta(&penta, &normalized(0.0, 2.0)), 2.2504, LLR_TOL);
}

#[test]
fn fishtest_reference_all_draws() {
    let penta = [0, 0, 1000, 0, 0];
    assert_close(llr_penta(&penta, &normalized(0.0, 2.0)), -0.0619, LLR_TOL);
    let e = estimate_penta(&penta);
    assert_eq!(e.nelo, None);
    assert_eq!(e.nelo_error, None);
    assert_eq!(e.los, None);
    assert_some_close(e.elo, 0.0, 0.0);
    assert_some_close(e.draw_ratio, 1.0, 0.0);
}

/// The samples in fishtest's own `stat_util.py` self-test.
#[test]
fn derived_fishtest_self_test_samples() {
    let big = [10789, 19328, 33806, 19402, 10543];
    assert_close(llr_penta(&big, &logistic(-3.0, 1.0)), 2.131068, 1e-5);
    assert_close(llr_penta(&big, &normalized(-3.0, 1.0)), 0.300870, 1e-5);
    let drawish = [39, 2226, 31451, 2412, 40];
    assert_close(
        llr_penta(&drawish, &normalized(0.764, 3.439)),
        2.162941,
        1e-5,
    );
    assert_close(llr_penta(&drawish, &logistic(0.2, 0.9)), 2.162543, 1e-5);
}

#[test]
fn derived_wdl_llr() {
    assert_close(
        llr_wdl([100, 200, 80], &normalized(0.0, 2.0)),
        0.160993,
        1e-5,
    );
    assert_close(llr_wdl([100, 200, 80], &logistic(0.0, 5.0)), 0.524959, 1e-5);
    assert_close(
        llr_wdl([716, 2163, 591], &normalized(0.0, 2.0)),
        1.115034,
        1e-5,
    );
    assert_close(
        llr_wdl([716, 2163, 591], &logistic(0.0, 5.0)),
        3.825357,
        1e-5,
    );
    let wide = [2, 10, 40, 12, 3];
    assert_close(llr_penta(&wide, &normalized(-1.75, 0.25)), 0.042801, 1e-5);
}

#[test]
fn derived_degenerate_llr_is_finite() {
    // (counts, normalized <0,2>, logistic <0,5>) from fishtest's formulas with regularisation.
    let wdl_cases: [([u64; 3], f64, f64); 4] = [
        ([50, 0, 0], 0.286990, 0.714380),
        ([0, 0, 50], -0.288647, -0.724736),
        ([0, 50, 0], -0.000988, -0.717864),
        ([0, 0, 0], 0.0, 0.0),
    ];
    for (wdl, norm, logi) in wdl_cases {
        assert_close(llr_wdl(wdl, &normalized(0.0, 2.0)), norm, 1e-5);
        assert_close(llr_wdl(wdl, &logistic(0.0, 5.0)), logi, 1e-5);
    }
    let penta_cases: [([u64; 5], f64, f64); 4] = [
        ([0, 0, 0, 0, 50], 0.405386, 0.714409),
        ([50, 0, 0, 0, 0], -0.408700, -0.724764),
        ([0, 0, 1000, 0, 0], -0.061913, -14.484581),
        ([0, 0, 0, 0, 0], 0.0, 0.0),
    ];
    for (penta, norm, logi) in penta_cases {
        assert_close(llr_penta(&penta, &normalized(0.0, 2.0)), norm, 1e-5);
        assert_close(llr_penta(&penta, &logistic(0.0, 5.0)), logi, 1e-5);
    }
}

#[test]
fn extreme_bounds_stay_finite() {
    // Bounds so wide that the exact MLE does not exist fall back to fishtest's approximations.
    let samples: [[u64; 5]; 4] = [
        [1, 3, 5, 5, 2],
        [0, 0, 0, 0, 7],
        [0, 0, 0, 0, 0],
        [u32::MAX as u64, 0, 1, 0, 0],
    ];
    for penta in samples {
        for c in [
            normalized(-1000.0, 1000.0),
            normalized(300.0, 600.0),
            logistic(-9000.0, 9000.0),
            logistic(0.0, 1e6),
        ] {
            let llr = llr_penta(&penta, &c);
            assert!(llr.is_finite(), "{penta:?} {c:?} gave {llr}");
            let status = sprt_penta(&penta, &c);
            assert!(status.llr.is_finite() && status.fraction().is_finite());
        }
    }
}

#[test]
fn llr_is_antisymmetric_under_colour_of_result() {
    // Mirroring the results and the hypotheses negates the LLR.
    let penta = [3, 20, 44, 25, 6];
    let wdl = [70, 120, 55];
    for model in [Model::Normalized, Model::Logistic] {
        let forward = llr_penta(&penta, &cfg(-1.0, 4.0, model));
        let mirrored = llr_penta(&[6, 25, 44, 20, 3], &cfg(-4.0, 1.0, model));
        assert_close(forward, -mirrored, 1e-9);
        let forward = llr_wdl(wdl, &cfg(0.0, 3.0, model));
        let mirrored = llr_wdl([55, 120, 70], &cfg(-3.0, 0.0, model));
        assert_close(forward, -mirrored, 1e-9);
    }
}

#[test]
fn bounds_are_walds() {
    let (lower, upper) = bounds(0.05, 0.05);
    assert_close(lower, -2.944439, 1e-6);
    assert_close(upper, 2.944439, 1e-6);
    let (lower, upper) = bounds(0.05, 0.1);
    assert_close(lower, (0.1f64 / 0.95).ln(), 1e-12);
    assert_close(upper, (0.9f64 / 0.05).ln(), 1e-12);
}

#[test]
fn decisions_follow_the_bounds() {
    let c = normalized(0.0, 2.0);
    assert_eq!(SprtStatus::new(2.95, &c).decision, Some(Decision::H1));
    assert_eq!(SprtStatus::new(-2.95, &c).decision, Some(Decision::H0));
    assert_eq!(SprtStatus::new(2.9, &c).decision, None);
    assert_close(SprtStatus::new(-2.944439, &c).fraction(), -1.0, 1e-6);
    let strong = [100, 1000, 3000, 2000, 300];
    let status = sprt_penta(&strong, &c);
    assert!(status.llr > status.upper);
    assert_eq!(status.decision, Some(Decision::H1));
    let weak = [300, 2000, 3000, 1000, 100];
    assert_eq!(sprt_penta(&weak, &c).decision, Some(Decision::H0));
    assert_eq!(
        sprt_wdl([900, 600, 500], &logistic(0.0, 5.0)).decision,
        Some(Decision::H1)
    );
    assert_eq!(sprt_penta(&[0; 5], &c).decision, None);
}

#[test]
fn config_validation_names_the_input() {
    assert!(SprtConfig::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).is_ok());
    let err = SprtConfig::new(2.0, 2.0, 0.05, 0.05, Model::Normalized).unwrap_err();
    assert!(matches!(err, SprtConfigError::Bounds { .. }));
    assert!(err.to_string().contains("elo0 = 2"));
    assert!(SprtConfig::new(0.0, f64::NAN, 0.05, 0.05, Model::Logistic).is_err());
    let err = SprtConfig::new(0.0, 2.0, 0.0, 0.05, Model::Logistic).unwrap_err();
    assert_eq!(err, SprtConfigError::Alpha(0.0));
    let err = SprtConfig::new(0.0, 2.0, 0.05, 1.0, Model::Logistic).unwrap_err();
    assert_eq!(err, SprtConfigError::Beta(1.0));
    assert!(SprtConfig::new(0.0, 2.0, 0.6, 0.5, Model::Logistic).is_err());
}

#[test]
fn degenerate_estimates_are_null_not_nan() {
    let empty = estimate_penta(&[0; 5]);
    assert_eq!(empty, Estimate::default());
    assert_eq!(estimate_wdl([0, 0, 0]), Estimate::default());

    for e in [estimate_penta(&[0, 0, 0, 0, 9]), estimate_wdl([9, 0, 0])] {
        assert_eq!(
            (e.elo, e.elo_error, e.nelo, e.nelo_error),
            (None, None, None, None)
        );
        assert_eq!(e.los, Some(1.0));
        assert_eq!(e.score, Some(1.0));
    }
    for e in [estimate_penta(&[9, 0, 0, 0, 0]), estimate_wdl([0, 0, 9])] {
        assert_eq!((e.elo, e.nelo), (None, None));
        assert_eq!(e.los, Some(0.0));
    }
    let draws = estimate_wdl([0, 12, 0]);
    assert_eq!((draws.nelo, draws.los), (None, None));
    assert_eq!(draws.elo, Some(0.0));
    assert_eq!(draws.draw_ratio, Some(1.0));

    // Near-degenerate small samples: the 95 % interval leaves (0, 1) but stays finite.
    for e in [estimate_penta(&[0, 0, 0, 1, 9]), estimate_wdl([9, 0, 1])] {
        assert!(e.elo.is_some_and(f64::is_finite));
        assert!(e.elo_error.is_some_and(|x| x.is_finite() && x > 0.0));
        assert!(e.los.is_some_and(|x| x > 0.5 && x <= 1.0));
    }
}

#[test]
fn estimates_are_consistent() {
    for penta in [[1, 3, 5, 5, 2], [3, 20, 44, 25, 6], [0, 1, 2, 3, 0]] {
        let e = estimate_penta(&penta);
        let pairs: u64 = penta.iter().sum();
        // elo(score) round-trips, and the nElo error depends on the sample size only.
        assert_close(elo_to_score(e.elo.unwrap()), e.score.unwrap(), 1e-12);
        let z = 1.959963984540054;
        assert_some_close(
            e.nelo_error.map(|x| x * (2.0 * pairs as f64).sqrt()),
            z * NELO_PER_T,
            1e-9,
        );
        // Mirroring the results mirrors the estimates.
        let mut mirrored = penta;
        mirrored.reverse();
        let m = estimate_penta(&mirrored);
        assert_close(m.elo.unwrap(), -e.elo.unwrap(), 1e-9);
        assert_close(m.nelo.unwrap(), -e.nelo.unwrap(), 1e-9);
        assert_close(m.los.unwrap(), 1.0 - e.los.unwrap(), 1e-12);
        assert_close(m.elo_error.unwrap(), e.elo_error.unwrap(), 1e-9);
    }
    let e = estimate_wdl([100, 200, 80]);
    assert_some_close(e.score, 200.0 / 380.0, 1e-12);
    assert_some_close(e.draw_ratio, 200.0 / 380.0, 1e-12);
    assert_some_close(
        e.nelo_error.map(|x| x * 380f64.sqrt()),
        1.959963984540054 * NELO_PER_T,
        1e-9,
    );
}

#[test]
fn estimates_serialise_none_as_null() {
    let json = serde_json::to_value(estimate_penta(&[0, 0, 3, 0, 0])).unwrap();
    assert!(json["nelo"].is_null());
    assert!(json["los"].is_null());
    assert_eq!(json["elo"], serde_json::json!(0.0));
    let model = serde_json::to_value(Model::Normalized).unwrap();
    assert_eq!(model, serde_json::json!("normalized"));
    let decision = serde_json::to_value(Some(Decision::H1)).unwrap();
    assert_eq!(decision, serde_json::json!("H1"));
}
