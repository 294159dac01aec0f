//! `--dev-ref/--base-ref` on a tiny Rust repository built with a `--build` template: a good
//! ref is built once and then taken from the cache; a broken one, and one whose binary does not
//! speak UCI, are clear errors naming the ref (with the end of the build log), before any game.

mod runner_common;

use std::path::Path;
use std::process::Command;

use runner_common::*;

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        // No detached `git maintenance` left holding the output pipes.
        .args(["-c", "maintenance.auto=false", "-c", "gc.auto=0"])
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("git")
        .status
        .success();
    assert!(ok, "git {args:?}");
}

/// A repository with two commits: `good` (compiles) and `bad` (does not).
fn tiny_repo(dir: &Path) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"clio\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        "use std::io::BufRead;\nfn main() {\n    for l in std::io::stdin().lock().lines() {\n        \
         match l.unwrap().trim() {\n            \"uci\" => println!(\"uciok\"),\n            \
         \"quit\" => break,\n            _ => {}\n        }\n    }\n}\n",
    )
    .unwrap();
    git(dir, &["init", "-q"]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "good"]);
    git(dir, &["tag", "good"]);
    std::fs::write(dir.join("src/main.rs"), "fn main() {}\n").unwrap();
    git(dir, &["commit", "-q", "-am", "not uci"]);
    git(dir, &["tag", "notuci"]);
    std::fs::write(
        dir.join("src/main.rs"),
        "fn main() { this_does_not_compile }\n",
    )
    .unwrap();
    git(dir, &["commit", "-q", "-am", "bad"]);
    git(dir, &["tag", "bad"]);
}

/// The build template: cargo, then the binary copied to `{out}`.
const BUILD: &str = "cargo build --release && cp \"$CARGO_TARGET_DIR/release/clio\" {out}";

fn run(repo: &Path, dev_ref: &str) -> (bool, String) {
    let out = arena()
        .args(["sprt", "--dev-ref", dev_ref, "--base-cmd", "/bin/false"])
        .args(["--nodes", "10", "--max-games", "2"])
        .args(["--build", BUILD])
        .arg("--repo")
        .arg(repo)
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    assert!(!o.contains("Started game"), "{o}");
    (out.status.success(), e)
}

#[test]
fn refs_are_built_once_and_a_broken_build_is_explained() {
    let dir = scratch("refs");
    let repo = dir.join("repo");
    tiny_repo(&repo);

    // The good ref builds and answers `uci`; base (/bin/false) fails the start-up check.
    let (ok, err) = run(&repo, "good");
    assert!(!ok);
    assert!(err.contains("building good = "), "{err}");
    assert!(err.contains("start-up check"), "{err}");
    let (_, err) = run(&repo, "good");
    assert!(err.contains("using cached build"), "{err}");
    assert!(!err.contains("building good"), "{err}");

    let (ok, err) = run(&repo, "notuci");
    assert!(!ok);
    assert!(
        err.contains("built for ref notuci") && err.contains("does not answer `uci`"),
        "{err}"
    );

    let (ok, err) = run(&repo, "bad");
    assert!(!ok);
    assert!(err.contains("building ref bad"), "{err}");
    assert!(
        err.contains("failed") && err.contains("cargo build --release"),
        "{err}"
    );
    assert!(
        err.contains("this_does_not_compile"),
        "the log tail is shown: {err}"
    );

    let (ok, err) = run(&repo, "nonexistent-ref");
    assert!(!ok);
    assert!(
        err.contains("nonexistent-ref") && !err.contains("building"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
