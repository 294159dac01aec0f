//! `--affinity` (fastchess's `-use-affinity`): each concurrent game's two engines run on CPUs of
//! their own. The truth is the kernel's: the engine processes' `Cpus_allowed_list` in
//! `/proc/<pid>/status`, read while a game is being played.

mod runner_common;

use std::collections::BTreeMap;
use std::process::Stdio;
use std::time::{Duration, Instant};

use runner_common::*;

/// The CPUs this test process may run on, from the kernel's own list.
fn own_cpus() -> Vec<usize> {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let list = field(&status, "Cpus_allowed_list").expect("Cpus_allowed_list");
    parse_list(&list)
}

fn field(status: &str, name: &str) -> Option<String> {
    status
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name}:")))
        .map(|v| v.trim().to_string())
}

/// `0-2,5` → [0, 1, 2, 5].
fn parse_list(list: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for part in list.split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => out.extend(a.parse::<usize>().unwrap()..=b.parse().unwrap()),
            None => out.push(part.parse().unwrap()),
        }
    }
    out
}

/// The children of `parent` (pid → Cpus_allowed_list), from /proc.
fn children(parent: u32) -> BTreeMap<u32, String> {
    let mut found = BTreeMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        if field(&status, "PPid").as_deref() == Some(&parent.to_string()) {
            if let Some(cpus) = field(&status, "Cpus_allowed_list") {
                found.insert(pid, cpus);
            }
        }
    }
    found
}

#[test]
fn each_engine_of_a_game_runs_on_a_cpu_of_its_own() {
    if !cfg!(target_os = "linux") {
        skip("CPU affinity is Linux only");
        return;
    }
    let Some(clio) = clio_release() else { return };
    let dir = scratch("affinity");
    let mut cmd = arena();
    cmd.args(["sprt", "--dev-cmd", &clio, "--base-cmd", &clio])
        .args([
            "--base-name",
            "clio-base",
            "--nodes",
            "400000",
            "--affinity",
        ])
        .args(["--concurrency", "2", "--max-games", "4", "--no-db"])
        .args([
            "--openings",
            &seed_book(),
            "--seed",
            "3",
            "--rating-interval",
            "0",
        ])
        .arg("--pgn")
        .arg(dir.join("games.pgn"));
    check_pinned(cmd);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `arena spsa --affinity`: each worker's θ+ and θ− engines on CPUs of their own, the same
/// slots as a match's.
#[test]
fn each_engine_of_an_spsa_game_runs_on_a_cpu_of_its_own() {
    if !cfg!(target_os = "linux") {
        skip("CPU affinity is Linux only");
        return;
    }
    let Some(clio) = clio_release() else { return };
    let dir = scratch("affinity-spsa");
    let config = dir.join("tune.toml");
    std::fs::write(
        &config,
        format!(
            "[spsa]\niterations = 2\npairs_per_iteration = 2\nseed = 1\n\n[match]\n\
             engine = {clio:?}\nnodes = 400000\nconcurrency = 2\nopenings = {book:?}\n\
             options = {{ Hash = 4, Threads = 1 }}\n\n[[param]]\nname = \"Move Overhead\"\n\
             value = 50\nmin = 10\nmax = 100\nstep = 10\n",
            book = seed_book(),
        ),
    )
    .unwrap();
    let mut cmd = arena();
    cmd.arg("spsa")
        .arg(&config)
        .arg("--out")
        .arg(dir.join("run"))
        .args(["--affinity", "--no-db"]);
    check_pinned(cmd);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `cmd` (two games at once, `--affinity`, long enough to be seen) and checks, from the
/// kernel's lists, that its engines are pinned one to a CPU, no two on the same one, the slots
/// announced; on one CPU, that the run is refused.
fn check_pinned(mut cmd: std::process::Command) {
    let cpus = own_cpus();
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    if cpus.len() < 2 {
        let out = cmd.output().expect("arena runs");
        let (_, stderr) = texts(&out);
        assert!(
            !out.status.success(),
            "one CPU cannot hold a game's two engines"
        );
        assert!(stderr.contains("--affinity needs 2 CPUs"), "{stderr}");
        return;
    }

    let mut child = cmd.spawn().expect("arena starts");
    let arena_pid = child.id();
    // Wait until both engines of the first game are running (the handshake is quick; a game
    // at 400,000 nodes a move lasts seconds), then read their affinity.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = BTreeMap::new();
    while Instant::now() < deadline && seen.len() < 2 {
        if child.try_wait().expect("arena's status").is_some() {
            break;
        }
        seen = children(arena_pid);
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    let during = children(arena_pid);
    let _ = child.kill();
    let out = child.wait_with_output().expect("arena's output");
    let (stdout, stderr) = texts(&out);
    assert!(
        during.len() >= 2,
        "two engine processes under arena during the game: {during:?}\n{stdout}\n{stderr}"
    );

    let slots = cpus.len() / 2;
    let games = slots.min(2);
    assert_eq!(
        during.len(),
        2 * games,
        "one engine pair per game slot: {during:?}"
    );
    let mut used: Vec<usize> = Vec::new();
    for list in during.values() {
        let mine = parse_list(list);
        assert_eq!(mine.len(), 1, "each engine pinned to one CPU: {during:?}");
        assert!(cpus.contains(&mine[0]), "{mine:?} is one of {cpus:?}");
        used.push(mine[0]);
    }
    used.sort_unstable();
    used.dedup();
    assert_eq!(
        used.len(),
        2 * games,
        "no two engines share a CPU: {during:?}"
    );

    // The slots are named where the run starts, on the kernel's CPUs in order.
    let first = format!("Affinity: game slot 1 on CPUs {} | {}", cpus[0], cpus[1]);
    assert!(stdout.contains(&first), "{first:?} in\n{stdout}");
    if slots < 2 {
        assert!(
            stderr.contains("--concurrency 2 is lowered to 1"),
            "the cut concurrency is said: {stderr}"
        );
    }
}
