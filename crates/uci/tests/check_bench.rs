//! `ci/check-bench.sh`, the bench-signature check `make test` runs: the message of the commit
//! at HEAD must end with `Bench: N` equal to the node count `clio bench` prints (Stockfish's
//! convention; OpenBench reads the bench from the tip commit only). Each case builds a
//! throw-away git repository holding the script and runs it against a stand-in `clio` whose
//! bench prints a known count.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ci/check-bench.sh")
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// A repository whose commits carry `messages` (oldest first), with ci/check-bench.sh and a
/// fake engine printing `nodes`; returns the script's output.
fn check(name: &str, messages: &[&str], nodes: u64) -> Output {
    let dir = std::env::temp_dir().join(format!("clio-check-bench-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("ci")).unwrap();
    fs::copy(script(), dir.join("ci/check-bench.sh")).unwrap();
    let fake = dir.join("fake-clio");
    fs::write(
        &fake,
        format!("#!/bin/sh\necho 'depth 10'\necho '{nodes} nodes 1000 nps'\n"),
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    git(&dir, &["init", "-q"]);
    for (i, m) in messages.iter().enumerate() {
        fs::write(dir.join("f"), i.to_string()).unwrap();
        git(&dir, &["add", "-A"]);
        git(&dir, &["commit", "-q", "-m", m]);
    }
    let out = Command::new("bash")
        .arg(dir.join("ci/check-bench.sh"))
        .arg(&fake)
        .output()
        .expect("bash runs");
    let _ = fs::remove_dir_all(&dir);
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn head_with_the_printed_bench_passes() {
    let out = check(
        "ok",
        &["Start\n\nBench: 5", "Change search\n\nBench: 1234"],
        1234,
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn head_without_a_bench_line_fails_even_if_an_older_commit_has_one() {
    let out = check("missing", &["Start\n\nBench: 1234", "Docs only"], 1234);
    assert!(!out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("has no 'Bench: N' line"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn head_with_another_count_fails_naming_both() {
    let out = check("moved", &["Change eval\n\nBench: 999"], 1234);
    assert!(!out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("1234") && err.contains("999"), "{err}");
}
