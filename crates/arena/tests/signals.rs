//! SIGTERM and SIGHUP end a run as Ctrl-C does (final results block, state kept), and engines
//! die with their runner: after a SIGKILL of arena, an engine that ignores end of input is gone
//! too (the parent-death signal set in the child before exec), so a killed run leaves no orphan.

mod runner_common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use runner_common::*;

/// Starts an arena sprt of `dev` against `base` at a node limit and waits for its second
/// finished game; returns the child with its stdout reader.
fn start_run(
    dev: &str,
    base: &str,
    dir: &std::path::Path,
) -> (Child, BufReader<std::process::ChildStdout>) {
    let mut child = arena()
        .args(["sprt", "--dev-cmd", dev, "--base-cmd", base])
        .args(["--dev-name", "dev", "--base-name", "base"])
        .args(["--nodes", "1500", "--concurrency", "1", "--seed", "5"])
        .args(["--elo0", "0", "--elo1", "10", "--rating-interval", "0"])
        .arg("--openings")
        .arg(root().join("openings/clio-uho.epd"))
        .arg("--state")
        .arg(dir.join("state.json"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("arena starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "arena ended early");
        if line.starts_with("Finished game 2 ") {
            break;
        }
    }
    (child, out)
}

fn signal(pid: u32, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

#[test]
fn sigterm_and_sighup_end_a_run_like_ctrl_c() {
    let Some(clio) = clio_release() else { return };
    for sig in ["-TERM", "-HUP"] {
        let dir = scratch(&format!("signal{sig}"));
        let (mut child, mut out) = start_run(&clio, &clio, &dir);
        signal(child.id(), sig);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "{sig}: {rest}");
        assert!(rest.contains("Run interrupted"), "{sig}: {rest}");
        assert!(rest.trim_end().ends_with("Finished match"), "{sig}: {rest}");
        let state = std::fs::read_to_string(dir.join("state.json")).unwrap();
        assert!(state.contains("\"done\""), "{sig}: {state}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Pids whose parent is `pid` (from /proc).
fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(p) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else {
            continue;
        };
        // The parent pid is the second field after the parenthesised command name.
        let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
        if after.split_whitespace().nth(1) == Some(&pid.to_string()) {
            out.push(p);
        }
    }
    out
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            !s.rsplit_once(')')
                .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
        })
        .unwrap_or(false)
}

#[test]
fn engines_die_with_a_killed_runner() {
    let Some(clio) = clio_release() else { return };
    let Some(py) = python() else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("python3 is needed for the engine that ignores end of input");
        }
        return;
    };
    let dir = scratch("orphans");
    // A relay to clio that, at end of input, sleeps on instead of exiting. `exec` makes the
    // relay itself arena's child: without it the shell was the child, died on cue, and left the
    // stubborn relay behind unchecked for its 600 seconds.
    let script = dir.join("stubborn.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nexec {py} -c 'import subprocess,sys,time\ne=subprocess.Popen([\"{clio}\"],stdin=subprocess.PIPE,text=True)\nfor l in sys.stdin:\n  e.stdin.write(l); e.stdin.flush()\ntime.sleep(600)'\n"
        ),
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(&script)
        .status()
        .unwrap();
    let script = script.to_string_lossy().into_owned();
    let (mut child, _out) = start_run(&script, &clio, &dir);
    let direct = children(child.id());
    assert!(direct.len() >= 2, "engines {direct:?}");
    // The relay's own child (the clio it feeds) must go too: it reads end of input once the
    // relay is killed.
    let engines: Vec<u32> = direct
        .iter()
        .flat_map(|&p| std::iter::once(p).chain(children(p)))
        .collect();
    assert!(
        engines.len() > direct.len(),
        "no relayed clio in {engines:?}"
    );
    signal(child.id(), "-KILL");
    child.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while engines.iter().any(|&p| alive(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left: Vec<u32> = engines.into_iter().filter(|&p| alive(p)).collect();
    for p in &left {
        let _ = Command::new("kill")
            .args(["-KILL", &p.to_string()])
            .status();
    }
    assert!(
        left.is_empty(),
        "engines outlived the killed runner: {left:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
