//! An OpenBench tune continued by `arena spsa --from-openbench`. The digest below is what
//! OpenBench's own code (`OpenBench/spsa_utils.py`: `create_spsa_run` and `spsa_param_digest`,
//! run verbatim in Python) prints for this campaign after 8000 games: its C and R columns are
//! the reference the imported schedule must reproduce.

mod runner_common;

use std::fs;
use std::path::Path;

use clio_arena::spsa::checkpoint::Checkpoint;
use clio_arena::spsa::config::Config;
use clio_arena::spsa::schedule::Schedule;
use clio_arena::spsa::{import, openbench, output};
use runner_common::*;

const CAMPAIGN: &str = r#"
[spsa]
iterations = 2000
pairs_per_iteration = 8
alpha = 0.602
gamma = 0.101
a_ratio = 0.1

[match]
engine = "/nonexistent/engine"
nodes = 1000

[[param]]
name = "HistBonusMul"
value = 300
min = 0
max = 1000
step = 25
r_end = 0.002

[[param]]
name = "RelScaleF"
type = "float"
value = 1.5
min = 0.5
max = 3.0
step = 0.1
r_end = 0.002
"#;

/// OpenBench's digest after 8000 games (iteration 1 + 8000/16 = 501 there, k = 500 here).
const DIGEST: &str = "Name,Curr,Start,Min,Max,C,C_end,R,R_end
HistBonusMul,312.6172,300,0,1000,28.7515,25.0000,0.0030,0.0020
RelScaleF,1.4321,1.5000,0.5000,3.0000,0.1150,0.1000,0.0030,0.0020
";

fn campaign() -> Config {
    Config::parse(CAMPAIGN, Path::new("tuning/ob.toml"))
        .unwrap()
        .0
}

fn import(text: &str, games: Option<u64>) -> anyhow::Result<(Checkpoint, String)> {
    let rows = openbench::parse_outputs(text).map_err(|e| anyhow::anyhow!("{e}"))?;
    import::checkpoint(&campaign(), &rows, games, Path::new("ob.csv"))
}

/// The digest columns of one parameter as `arena spsa` prints them.
fn our_digest_row(cp: &Checkpoint, name: &str) -> Vec<String> {
    let config = campaign();
    let text = output::digest(
        &config.params,
        &Schedule::of(&config),
        &cp.theta,
        cp.iterations_done,
    );
    let line = text.lines().find(|l| l.starts_with(name)).unwrap();
    line.split_whitespace().map(String::from).collect()
}

#[test]
fn a_digest_places_the_schedule_where_openbench_stood() {
    let (cp, line) = import(DIGEST, None).unwrap();
    assert_eq!(cp.iterations_done, 500, "{line}");
    assert_eq!(cp.theta, vec![312.6172, 1.4321]);
    // C and R at the next iteration, to OpenBench's 4 decimals.
    let int = our_digest_row(&cp, "HistBonusMul");
    assert_eq!((int[5].as_str(), int[7].as_str()), ("28.7515", "0.0030"));
    let float = our_digest_row(&cp, "RelScaleF");
    assert_eq!((float[5].as_str(), float[7].as_str()), ("0.1150", "0.0030"));
    // The game count says the same; it wins where both are given.
    assert_eq!(import(DIGEST, Some(8000)).unwrap().0.iterations_done, 500);
    assert_eq!(import(DIGEST, Some(1600)).unwrap().0.iterations_done, 100);
}

#[test]
fn arenas_own_digest_and_optimal_values_read_back() {
    let (cp, _) = import(DIGEST, None).unwrap();
    let config = campaign();
    let ours = output::digest(&config.params, &Schedule::of(&config), &cp.theta, 500);
    let (again, _) = import(&ours, None).unwrap();
    assert_eq!(again.iterations_done, 500, "{ours}");
    // OpenBench's `spsa_optimal_values`: ints rounded, floats as they are.
    let values = "HistBonusMul, 313\nRelScaleF, 1.4321\n";
    let err = import(values, None).unwrap_err().to_string();
    assert!(err.contains("--openbench-games"), "{err}");
    let (cp, line) = import(values, Some(8000)).unwrap();
    assert_eq!(
        (cp.iterations_done, cp.theta.clone()),
        (500, vec![313.0, 1.4321])
    );
    assert!(line.contains("iteration 500 of 2000"), "{line}");
}

#[test]
fn a_tune_of_another_campaign_is_refused_by_name() {
    let cases = [
        (
            DIGEST.replace("RelScaleF,1.4321", "Other,1.4321"),
            "Other is not in the campaign",
        ),
        (
            "HistBonusMul, 313\n".to_string(),
            "RelScaleF of the campaign is missing",
        ),
        (
            "HistBonusMul, 1313\nRelScaleF, 1.4\n".to_string(),
            "outside the campaign's range",
        ),
        (DIGEST.replace("25.0000", "20.0000"), "C_end is 20"),
        (DIGEST.replace(",0,1000,", ",0,900,"), "Max is 900"),
        ("HistBonusMul 313 7\n".to_string(), "3 fields"),
        ("Name,Curr\n".to_string(), "a digest header is"),
        (DIGEST.replace("0.1150", "x"), "C \"x\" is not a number"),
    ];
    for (text, want) in cases {
        let err = import(&text, Some(8000)).unwrap_err().to_string();
        assert!(err.contains(want), "{text}\n{err}");
    }
    let err = import(DIGEST, Some(32_000)).unwrap_err().to_string();
    assert!(err.contains("iteration 2000"), "{err}");
}

/// The command: the checkpoint is written at OpenBench's iteration before any game (here the
/// engine does not exist, so the run stops there), and a second import is refused.
#[test]
fn the_command_writes_the_checkpoint_and_refuses_to_overwrite_a_run() {
    let dir = scratch("spsa-openbench");
    let cfg = dir.join("ob.toml");
    fs::write(&cfg, CAMPAIGN).unwrap();
    let digest = dir.join("digest.csv");
    fs::write(&digest, DIGEST).unwrap();
    let run = || {
        arena()
            .arg("spsa")
            .arg(&cfg)
            .arg("--from-openbench")
            .arg(&digest)
            .output()
            .unwrap()
    };
    let out = run();
    let (o, e) = texts(&out);
    assert!(!out.status.success(), "the engine is missing: {o}\n{e}");
    assert!(o.contains("iteration 500 of 2000"), "{o}");
    let cp = Checkpoint::load(&dir.join("ob.run/checkpoint.json")).unwrap();
    assert_eq!((cp.iterations_done, cp.first_iteration), (500, 500));
    let out = run();
    let (_, e) = texts(&out);
    assert!(e.contains("--fresh"), "{e}");
    let _ = fs::remove_dir_all(&dir);
}
