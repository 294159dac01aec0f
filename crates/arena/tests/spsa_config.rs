//! Campaign file checks (every refusal names the file and the field), OpenBench SPSA line
//! import/export, and the shipped campaigns in tuning/.

use std::path::{Path, PathBuf};

use clio_arena::spsa::config::{Config, Kind};
use clio_arena::spsa::openbench;
use clio_arena::uci::{OptionKind, UciOption};

const GOOD: &str = r#"
[spsa]
iterations = 2000
pairs_per_iteration = 8
alpha = 0.602
gamma = 0.101
a_ratio = 0.1
seed = 1

[match]
engine = "target/release/clio"
tc = "8+0.08"
concurrency = 2
options = { Hash = 16, Threads = 1 }
resign = { movecount = 3, score = 400 }
draw = { movenumber = 40, movecount = 8, score = 10 }

[[param]]
name = "HistBonusMul"
type = "int"
value = 300
min = 100
max = 600
step = 25
r_end = 0.002
"#;

const FILE: &str = "tuning/campaign.toml";

fn refusal(text: &str) -> String {
    match Config::parse(text, Path::new(FILE)) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn assert_names(err: &str, field: &str) {
    assert!(err.contains(FILE), "no file in: {err}");
    assert!(err.contains(field), "no `{field}` in: {err}");
}

#[test]
fn the_issue_example_is_accepted_as_written() {
    let (cfg, warnings) = Config::parse(GOOD, Path::new(FILE)).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(cfg.params[0].kind, Kind::Int);
    assert_eq!(cfg.matches.concurrency, 2);
    let settings = cfg.game_settings().unwrap();
    assert_eq!(settings.limits.tc.map(|t| t.inc_ms), Some(80));
    assert_eq!(settings.adjudication.resign.map(|r| r.score), Some(400));
    assert_eq!(
        cfg.fixed_options(),
        vec![("Hash".into(), "16".into()), ("Threads".into(), "1".into())]
    );
}

#[test]
fn each_bad_value_is_refused_naming_file_and_field() {
    let cases = [
        ("min = 100", "min = 600", "param.HistBonusMul.min"),
        ("value = 300", "value = 700", "param.HistBonusMul.value"),
        ("value = 300", "value = 99", "param.HistBonusMul.value"),
        ("step = 25", "step = 0", "param.HistBonusMul.step"),
        ("step = 25", "step = -5", "param.HistBonusMul.step"),
        ("r_end = 0.002", "r_end = 0.0", "param.HistBonusMul.r_end"),
        ("r_end = 0.002", "r_end = -0.1", "param.HistBonusMul.r_end"),
        ("value = 300", "value = 300.5", "param.HistBonusMul.value"),
        ("iterations = 2000", "iterations = 0", "spsa.iterations"),
        (
            "pairs_per_iteration = 8",
            "pairs_per_iteration = 0",
            "spsa.pairs_per_iteration",
        ),
        ("alpha = 0.602", "alpha = 1.5", "spsa.alpha"),
        ("gamma = 0.101", "gamma = 0", "spsa.gamma"),
        ("tc = \"8+0.08\"", "tc = \"fast\"", "match.tc"),
        ("concurrency = 2", "concurrency = 0", "match.concurrency"),
        ("engine = \"target/release/clio\"", "", "match.engine"),
        ("tc = \"8+0.08\"", "", "match.tc"),
    ];
    for (from, to, field) in cases {
        assert!(GOOD.contains(from), "{from}");
        let err = refusal(&GOOD.replace(from, to));
        assert_names(&err, field);
    }
    let twice = format!(
        "{GOOD}\n[[param]]\nname = \"histbonusmul\"\nvalue = 1\nmin = 0\nmax = 2\nstep = 1\n"
    );
    assert_names(&refusal(&twice), "param.histbonusmul.name");
}

#[test]
fn toml_errors_name_file_and_key() {
    let err = refusal(&GOOD.replace("iterations = 2000\n", ""));
    assert_names(&err, "iterations");
    let err = refusal(&GOOD.replace("seed = 1", "seed = 1\nsed = 2"));
    assert_names(&err, "sed");
    let err = refusal(&GOOD.replace("step = 25", "step = \"big\""));
    assert_names(&err, "step");
    let err = refusal(&GOOD.replace("type = \"int\"", "type = \"double\""));
    assert_names(&err, "double");
}

#[test]
fn warnings_for_wide_perturbations_and_small_int_steps() {
    // c = 25·2000^0.101 ≈ 53.9: 300 ± 53.9 fits [100, 600] but not [260, 600].
    let (_, w) = Config::parse(&GOOD.replace("min = 100", "min = 260"), Path::new(FILE)).unwrap();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains(FILE) && w[0].contains("HistBonusMul") && w[0].contains("clipped"));
    let (_, w) = Config::parse(&GOOD.replace("step = 25", "step = 0.5"), Path::new(FILE)).unwrap();
    assert!(w.iter().any(|w| w.contains("below 1")), "{w:?}");
}

fn spin(name: &str, min: i64, max: i64) -> UciOption {
    UciOption {
        name: name.into(),
        kind: OptionKind::Spin {
            default: Some(min),
            min: Some(min),
            max: Some(max),
        },
    }
}

#[test]
fn parameters_are_checked_against_the_engine_options() {
    let (cfg, _) = Config::parse(GOOD, Path::new(FILE)).unwrap();
    let ok = [spin("Hash", 1, 1024), spin("HistBonusMul", 0, 1000)];
    cfg.check_engine_options(Path::new(FILE), "clio", &ok)
        .unwrap();
    let err = cfg
        .check_engine_options(Path::new(FILE), "clio", &[spin("Hash", 1, 1024)])
        .unwrap_err()
        .to_string();
    assert_names(&err, "param.HistBonusMul.name");
    assert!(err.contains("declares no UCI option"), "{err}");
    let narrow = [spin("HistBonusMul", 200, 1000)];
    let err = cfg
        .check_engine_options(Path::new(FILE), "clio", &narrow)
        .unwrap_err()
        .to_string();
    assert_names(&err, "param.HistBonusMul.min");
    let narrow = [spin("HistBonusMul", 0, 500)];
    let err = cfg
        .check_engine_options(Path::new(FILE), "clio", &narrow)
        .unwrap_err()
        .to_string();
    assert_names(&err, "param.HistBonusMul.max");
    let check = [UciOption {
        name: "HistBonusMul".into(),
        kind: OptionKind::Check { default: None },
    }];
    let err = cfg
        .check_engine_options(Path::new(FILE), "clio", &check)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not numeric"), "{err}");
}

#[test]
fn openbench_lines_round_trip() {
    let text = "HistBonusMul, int, 300, 100, 600, 25, 0.002\n\
                # a comment\n\
                \n\
                LmrScale, float, 0.75, 0.25, 1.5, 0.05, 0.002\n";
    let params = openbench::parse_lines(text).unwrap();
    assert_eq!(params.len(), 2);
    assert_eq!(params[1].kind, Kind::Float);
    assert_eq!(params[1].value, 0.75);
    let values: Vec<f64> = params.iter().map(|p| p.value).collect();
    let out = openbench::format_lines(&params, &values);
    assert_eq!(
        out,
        "HistBonusMul, int, 300, 100, 600, 25, 0.002\nLmrScale, float, 0.75, 0.25, 1.5, 0.05, 0.002\n"
    );
    assert_eq!(openbench::parse_lines(&out).unwrap(), params);
    // Tuned values replace the start values; an int is rounded.
    let moved = openbench::format_lines(&params, &[312.6, 0.8125]);
    let back = openbench::parse_lines(&moved).unwrap();
    assert_eq!((back[0].value, back[1].value), (313.0, 0.8125));
    // The skeleton around imported lines is a valid campaign with the same parameters.
    let (cfg, _) = Config::parse(&openbench::skeleton(&params), Path::new(FILE)).unwrap();
    assert_eq!(cfg.params, params);
    let again = openbench::read_params(&openbench::params_toml(&params, None)).unwrap();
    assert_eq!(again, params);
}

#[test]
fn bad_openbench_lines_name_the_line() {
    for (line, why) in [
        ("A, int, 1, 0, 2, 1", "6 fields"),
        ("A, double, 1, 0, 2, 1, 0.002", "not int or float"),
        ("A, int, x, 0, 2, 1, 0.002", "value \"x\""),
    ] {
        let err = openbench::parse_lines(&format!("B, int, 1, 0, 2, 1, 0.002\n{line}\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2") && err.contains(why), "{err}");
    }
    let err = openbench::check_params(
        &openbench::parse_lines("A, int, 5, 10, 2, 1, 0.002").unwrap(),
        Path::new("lines.txt"),
    )
    .unwrap_err();
    assert!(
        err.contains("lines.txt") && err.contains("param.A.min"),
        "{err}"
    );
}

#[test]
fn clio_params_toml_is_a_skeleton() {
    // The shape `clio params --toml` prints: [[param]] tables only, with a comment header.
    let text = "# Generated by `clio params --toml`\n\n[[param]]\nname = \"HistBonusMul\"\n\
                type = \"int\"\nvalue = 300\nmin = 0\nmax = 1000\nstep = 25\nr_end = 0.002\n";
    let params = openbench::read_params(text).unwrap();
    assert_eq!(params[0].name, "HistBonusMul");
    assert_eq!(params[0].max, 1000.0);
    let (cfg, _) = Config::parse(&openbench::skeleton(&params), Path::new(FILE)).unwrap();
    assert_eq!(cfg.params, params);
}

fn tuning_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tuning")
}

#[test]
fn shipped_campaigns_are_valid() {
    let mut n = 0;
    for entry in std::fs::read_dir(tuning_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let (cfg, warnings) = Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
            // The planted-detune campaign starts at 25 on purpose, near the floor of its range,
            // so its first perturbations are clipped there; it may warn of that and nothing else.
            let detuned = path
                .file_name()
                .is_some_and(|n| n == "history-detuned.toml");
            let expected =
                |w: &String| detuned && w.contains("early perturbations will be clipped");
            assert!(warnings.iter().all(expected), "{warnings:?}");
            if detuned {
                assert_eq!(warnings.len(), cfg.params.len(), "{warnings:?}");
            }
            assert!(!cfg.params.is_empty());
            n += 1;
        }
    }
    assert!(n >= 1, "no campaign in tuning/");
}

/// `[match] variant = "fischerandom"` tunes in Chess960: both sides get `UCI_Chess960`, the
/// games are Chess960 and the run's fingerprint says so; a standard campaign's fingerprint is
/// what it was before the field existed; an unknown variant is refused naming the field.
#[test]
fn a_campaign_can_tune_in_chess960() {
    use clio_arena::game::Variant;
    let frc = GOOD.replace(
        "concurrency = 2\n",
        "concurrency = 2\nvariant = \"fischerandom\"\n",
    );
    let (cfg, _) = Config::parse(&frc, Path::new(FILE)).unwrap();
    assert!(cfg
        .fixed_options()
        .contains(&("UCI_Chess960".to_string(), "true".to_string())));
    assert_eq!(cfg.game_settings().unwrap().variant, Variant::Fischerandom);
    assert_eq!(
        cfg.fingerprint().get("variant").map(String::as_str),
        Some("fischerandom")
    );
    let (std, _) = Config::parse(GOOD, Path::new(FILE)).unwrap();
    assert!(!std.fingerprint().contains_key("variant"));
    assert!(!std.fixed_options().iter().any(|(n, _)| n == "UCI_Chess960"));
    let err = refusal(&GOOD.replace(
        "concurrency = 2\n",
        "concurrency = 2\nvariant = \"crazyhouse\"\n",
    ));
    assert!(err.contains("variant"), "{err}");
}
