//! Engines run in their own process group (so Ctrl-C at the terminal reaches only the runner)
//! and dropping an `Engine` kills the whole group, grandchildren included. Uses the fake engine
//! in its `deaf` mode (a python3 relay that ignores `quit` and runs Stockfish and `sleep` as
//! children, so only the group kill can end them); skipped with a note if either is missing
//! (a failure under CI).

mod runner_common;
use runner_common::*;

use std::path::Path;
use std::time::{Duration, Instant};

use clio_arena::engine::{Engine, EngineConfig};

/// Field 5 of /proc/PID/stat: the process group.
fn pgrp(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    after_name.split_whitespace().nth(2)?.parse().ok()
}

fn children(pid: u32) -> Vec<u32> {
    std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

/// Whether `pid` is still a live process (a zombie awaiting its parent counts as gone).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rfind(')')
            .and_then(|i| stat[i + 2..].chars().next())
            .is_some_and(|state| state != 'Z'),
        Err(_) => false,
    }
}

#[test]
fn own_process_group_killed_on_drop() {
    let Some(sf) = sf_and_python() else { return };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_engine.py");
    let config = EngineConfig {
        name: "relay".into(),
        cmd: script.to_string_lossy().into_owned(),
        args: vec!["deaf".into(), "0".into(), sf],
        dir: None,
        options: vec![],
        shared_options: Vec::new(),
        cpus: None,
    };
    let engine = Engine::start(config).expect("relay starts");
    let pid = engine.pid().expect("running");
    assert_eq!(
        pgrp(pid),
        Some(pid),
        "the engine leads its own process group"
    );
    assert_ne!(pgrp(pid), pgrp(std::process::id()));
    let grandchildren = children(pid);
    assert!(
        !grandchildren.is_empty(),
        "the relay runs Stockfish as a child"
    );
    drop(engine);
    let deadline = Instant::now() + Duration::from_secs(5);
    while grandchildren.iter().any(|&c| alive(c)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(pid));
    for c in grandchildren {
        assert!(!alive(c), "grandchild {c} outlived the engine");
    }
}
