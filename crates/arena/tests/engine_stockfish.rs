//! The engine driver against Debian's Stockfish: handshake, options (the arena's parser must
//! read every option Stockfish declares, including `Debug Log File` with its empty default),
//! option checks, a search, restart, and the process group killed on drop. Skipped with a note
//! when Stockfish is not installed.

mod runner_common;
use runner_common::stockfish;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clio_arena::engine::{Engine, EngineConfig, EngineError, SearchEnd, StopAnswer};
use clio_arena::uci::{OptionKind, OptionValueError};

fn config(path: &str, options: &[(&str, &str)]) -> EngineConfig {
    EngineConfig {
        name: "sf".into(),
        cmd: path.into(),
        args: vec![],
        dir: None,
        options: options
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        shared_options: Vec::new(),
        cpus: None,
    }
}

#[test]
fn handshake_reads_every_stockfish_option() {
    let Some(path) = stockfish() else { return };
    let e = Engine::start(config(&path, &[("threads", "1"), ("Skill Level", "3")])).unwrap();
    assert!(
        e.id_name().is_some_and(|n| n.contains("Stockfish")),
        "{:?}",
        e.id_name()
    );
    let names: Vec<&str> = e.options().iter().map(|o| o.name.as_str()).collect();
    for expected in [
        "Threads",
        "Hash",
        "Skill Level",
        "Debug Log File",
        "MultiPV",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    let debug_log = e.find_option("debug log file").unwrap();
    assert_eq!(
        debug_log.kind,
        OptionKind::String {
            default: Some(String::new())
        }
    );
    assert!(matches!(
        e.find_option("Skill Level").unwrap().kind,
        OptionKind::Spin {
            default: Some(20),
            min: Some(_),
            max: Some(20)
        }
    ));
}

#[test]
fn bad_options_are_errors_naming_them() {
    let Some(path) = stockfish() else { return };
    let err = Engine::start(config(&path, &[("No Such Option", "1")])).unwrap_err();
    assert!(
        matches!(&err, EngineError::UnknownOption { option, .. } if option == "No Such Option")
    );
    assert!(err.to_string().contains("No Such Option"), "{err}");
    let err = Engine::start(config(&path, &[("Skill Level", "99")])).unwrap_err();
    assert!(
        matches!(
            &err,
            EngineError::OptionValue {
                source: OptionValueError::OutOfRange { value: 99, .. },
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("Skill Level"), "{err}");
}

#[test]
fn search_restart_and_drop() {
    let Some(path) = stockfish() else { return };
    let mut e = Engine::start(config(&path, &[("Threads", "1")])).unwrap();
    let stop = AtomicBool::new(false);
    e.new_game().unwrap();
    let r = e.search(
        "position startpos moves e2e4",
        "go nodes 5000",
        Duration::from_secs(30),
        &stop,
    );
    let SearchEnd::BestMove { mv: Some(mv) } = &r.end else {
        panic!("no bestmove: {r:?}");
    };
    assert_eq!(mv.len(), 4, "{mv}");
    assert!(r.info.score.is_some() && r.info.depth.is_some() && r.info.nodes.is_some());
    assert!(!r.info.pv.is_empty());

    // An infinite search misses its deadline; `stop` brings the bestmove and the engine stays up.
    let r = e.search(
        "position startpos",
        "go infinite",
        Duration::from_millis(200),
        &stop,
    );
    assert_eq!(r.end, SearchEnd::Timeout);
    assert_eq!(e.stop_search(Duration::from_secs(5)), StopAnswer::BestMove);
    assert!(e.is_alive());
    e.wait_ready(Duration::from_secs(10)).unwrap();

    let old = e.pid().unwrap();
    e.restart().unwrap();
    let new = e.pid().unwrap();
    assert_ne!(old, new);
    assert!(
        !process_exists(old),
        "the old process is gone after restart"
    );
    drop(e);
    assert!(!process_exists(new), "the process is gone after drop");
}

fn process_exists(pid: u32) -> bool {
    PathBuf::from(format!("/proc/{pid}")).exists()
}

#[test]
fn missing_program_is_a_spawn_error_naming_it() {
    let err = Engine::start(config("/nonexistent/engine-binary", &[])).unwrap_err();
    assert!(matches!(err, EngineError::Spawn { .. }), "{err}");
    assert!(
        err.to_string().contains("/nonexistent/engine-binary"),
        "{err}"
    );
}

#[test]
fn engine_that_exits_at_once_is_disconnected() {
    let err = Engine::start(config("/bin/true", &[])).unwrap_err();
    assert!(matches!(err, EngineError::Disconnected { .. }), "{err}");
}
