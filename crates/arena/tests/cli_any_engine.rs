//! `arena sprt --repo` on an engine that is not Clio: a repository of its own (a tiny Python UCI
//! engine, tests/fixtures/tiny_engine.py, with a Makefile that OpenBench's `make -j EXE=<name>`
//! builds), two tagged commits where v2 plays much better than v1. Both refs are built with the
//! default OpenBench build, their `Bench: N` checked against `<binary> bench`, and the SPRT
//! reaches H1; a ref whose make fails and one whose binary is no UCI engine stop the run before
//! any game, naming the ref.

mod runner_common;

use std::path::Path;
use std::process::Command;

use runner_common::*;

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// OpenBench's build: `make EXE=<path>` puts the engine (the script itself) there.
const MAKEFILE: &str = "EXE ?= tiny\n\nall:\n\tcp engine.py $(EXE)\n\tchmod +x $(EXE)\n";

/// The engine repository: v1 (weak), v2 (strong), broken (make fails), notuci.
fn engine_repo(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_engine.py"),
    )
    .unwrap();
    std::fs::write(dir.join("Makefile"), MAKEFILE).unwrap();
    std::fs::write(dir.join("engine.py"), &src).unwrap();
    git(dir, &["init", "-q"]);
    git(dir, &["add", "."]);
    git(
        dir,
        &["commit", "-q", "-m", "v1: first legal move\n\nBench: 1000"],
    );
    git(dir, &["tag", "v1"]);
    std::fs::write(dir.join("engine.py"), src.replace("LEVEL = 0", "LEVEL = 1")).unwrap();
    git(
        dir,
        &[
            "commit",
            "-q",
            "-am",
            "v2: mates and captures\n\nBench: 1000",
        ],
    );
    git(dir, &["tag", "v2"]);
    std::fs::write(
        dir.join("Makefile"),
        "all:\n\techo no compiler here; exit 3\n",
    )
    .unwrap();
    git(dir, &["commit", "-q", "-am", "broken build\n\nBench: 1000"]);
    git(dir, &["tag", "broken"]);
    std::fs::write(dir.join("Makefile"), MAKEFILE).unwrap();
    std::fs::write(dir.join("engine.py"), "#!/bin/sh\necho hello\n").unwrap();
    git(
        dir,
        &["commit", "-q", "-am", "not an engine\n\nBench: 1000"],
    );
    git(dir, &["tag", "notuci"]);
}

fn sprt(
    repo: &Path,
    cache: &Path,
    base: &str,
    dev: &str,
    extra: &[&str],
) -> (bool, String, String) {
    let out = arena()
        .args(["sprt", "--base-ref", base, "--dev-ref", dev])
        .args(["--nodes", "2000", "--concurrency", "2", "--seed", "4"])
        .args([
            "--elo0", "0", "--elo1", "200", "--alpha", "0.1", "--beta", "0.1",
        ])
        .args(["--resign", "movecount=2,score=500", "--maxmoves", "150"])
        .arg("--openings")
        .arg(seed_book())
        .arg("--repo")
        .arg(repo)
        .arg("--build-cache")
        .arg(cache)
        .args(if extra.contains(&"--max-games") {
            &[][..]
        } else {
            &["--max-games", "200"][..]
        })
        .args(extra)
        .output()
        .unwrap();
    let (o, e) = texts(&out);
    (out.status.success(), o, e)
}

#[test]
fn another_engines_branches_are_built_with_make_and_tested_to_a_verdict() {
    if !python_chess() {
        return;
    }
    let dir = scratch("any-engine");
    let repo = dir.join("tiny");
    let cache = dir.join("cache");
    engine_repo(&repo);

    let (ok, o, e) = sprt(&repo, &cache, "v1", "v2", &[]);
    assert!(ok, "{o}\n{e}");
    assert!(
        e.contains("with `make -j{jobs} EXE={out}`"),
        "OpenBench's build: {e}"
    );
    assert!(
        e.contains("ref v2: bench 1000 matches its commit message"),
        "{e}"
    );
    assert!(
        o.contains("H1 was accepted"),
        "v2 is much stronger than v1: {o}"
    );
    assert!(o.contains("Results of v2 vs v1"), "{o}");

    // A second run takes both from the cache.
    let (_, _, e) = sprt(&repo, &cache, "v1", "v2", &["--max-games", "2"]);
    assert_eq!(e.matches("using cached build").count(), 2, "{e}");

    // A failing make, and a binary that is no UCI engine: stopped before any game.
    let (ok, o, e) = sprt(&repo, &cache, "v1", "broken", &[]);
    assert!(!ok);
    assert!(!o.contains("Started game"), "{o}");
    assert!(
        e.contains("building ref broken")
            && e.contains("make -j")
            && e.contains("no compiler here"),
        "names the ref, the command and the log's tail: {e}"
    );
    let (ok, o, e) = sprt(&repo, &cache, "v1", "notuci", &[]);
    assert!(!ok);
    assert!(!o.contains("Started game"), "{o}");
    assert!(
        e.contains("ref notuci") && e.contains("does not answer `uci`") && e.contains("hello"),
        "{e}"
    );

    // A custom template builds the same way.
    let (ok, o, e) = sprt(
        &repo,
        &cache,
        "v1",
        "v2",
        &[
            "--build",
            "cp engine.py {out} && chmod +x {out}",
            "--max-games",
            "2",
        ],
    );
    assert!(ok, "{o}\n{e}");
    assert!(e.contains("with `cp engine.py {out}"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
