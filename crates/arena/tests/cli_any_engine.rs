//! `arena sprt --repo` on an engine that is not Clio: a repository of its own (a tiny Python UCI
//! engine, tests/fixtures/tiny_engine.py, with a Makefile that OpenBench's `make -j EXE=<name>`
//! builds), two tagged commits where v2 plays much better than v1. Both refs are built with the
//! default OpenBench build, their `Bench: N` checked against `<binary> bench`, and the SPRT
//! reaches H1; a ref whose make fails and one whose binary is no UCI engine stop the run before
//! any game, naming the ref, and so does one whose commit message's `Bench: N` its binary does
//! not give (unless `--allow-bench-mismatch`).

mod runner_common;

use std::path::Path;
use std::process::Command;

use runner_common::*;

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        // No detached `git maintenance` left holding the output pipes.
        .args(["-c", "maintenance.auto=false", "-c", "gc.auto=0"])
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// OpenBench's build: `make EXE=<path>` puts the engine (the script itself) there.
const MAKEFILE: &str = "EXE ?= tiny\n\nall:\n\tcp engine.py $(EXE)\n\tchmod +x $(EXE)\n";

/// The engine repository: v1 (weak), v2 (strong), broken (make fails), notuci, wrongbench (v2
/// whose commit message claims Bench: 999; its binary's bench gives 1000).
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
    let tagged = |message: &str, tag: &str| {
        git(dir, &["commit", "-q", "-am", message]);
        git(dir, &["tag", tag]);
    };
    tagged("v1: first legal move\n\nBench: 1000", "v1");
    let v2 = src.replace("LEVEL = 0", "LEVEL = 1");
    std::fs::write(dir.join("engine.py"), &v2).unwrap();
    tagged("v2: mates and captures\n\nBench: 1000", "v2");
    std::fs::write(
        dir.join("Makefile"),
        "all:\n\techo no compiler here; exit 3\n",
    )
    .unwrap();
    tagged("broken build\n\nBench: 1000", "broken");
    std::fs::write(dir.join("Makefile"), MAKEFILE).unwrap();
    std::fs::write(dir.join("engine.py"), "#!/bin/sh\necho hello\n").unwrap();
    tagged("not an engine\n\nBench: 1000", "notuci");
    std::fs::write(dir.join("engine.py"), &v2).unwrap();
    tagged("v2 with a stale signature\n\nBench: 999", "wrongbench");
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

    // A commit message whose `Bench: N` the binary does not give: refused before any game, as
    // OpenBench refuses it, unless asked to play it anyway.
    let (ok, o, e) = sprt(&repo, &cache, "v1", "wrongbench", &[]);
    assert!(!ok);
    assert!(!o.contains("Started game"), "{o}");
    assert!(
        e.contains("ref wrongbench")
            && e.contains("Bench: 999")
            && e.contains("gives 1000")
            && e.contains("--allow-bench-mismatch"),
        "{e}"
    );
    let (ok, o, e) = sprt(
        &repo,
        &cache,
        "v1",
        "wrongbench",
        &["--allow-bench-mismatch", "--max-games", "2"],
    );
    assert!(ok, "{o}\n{e}");
    assert!(
        e.contains("warning: ref wrongbench") && o.contains("Started game"),
        "{o}\n{e}"
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
