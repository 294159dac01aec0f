//! Engines run in their own process group (so Ctrl-C at the terminal reaches only the runner)
//! and dropping an `Engine` kills the whole group, grandchildren included. Uses the fake engine
//! in its `deaf` mode (a python3 relay that ignores `quit` and runs Stockfish and `sleep` as
//! children, so only the group kill can end them); skipped with a note if either is missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use clio_arena::engine::{Engine, EngineConfig};

fn stockfish() -> Option<String> {
    let python = Command::new("python3").arg("--version").output();
    if !python.is_ok_and(|o| o.status.success()) {
        eprintln!("skipping: python3 is not available for the fake engine");
        return None;
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ci/find-engine.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg("stockfish")
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || path.is_empty() {
        eprintln!("skipping: stockfish is not installed (bash ci/setup.sh installs it)");
        return None;
    }
    Some(path)
}

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
    let Some(sf) = stockfish() else { return };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_engine.py");
    let config = EngineConfig {
        name: "relay".into(),
        cmd: script.to_string_lossy().into_owned(),
        args: vec!["deaf".into(), "0".into(), sf],
        dir: None,
        options: vec![],
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
