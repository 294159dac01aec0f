//! The OpenBench engine entry shipped in `ci/openbench/Clio.json`, checked against the real
//! binary: it parses, every preset's `both_options` names an option `clio` declares with a value
//! inside its range, and `clio bench`'s output yields a bench and an nps under the reading
//! OpenBench's client applies (every non-alphanumeric character turned into a space, then
//! `<digits> nodes` and `<digits> nps` searched from the last line up).

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use common::{clio_path, Engine};
use serde_json::Value;

fn entry() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ci/openbench/Clio.json");
    let text = std::fs::read_to_string(&path).expect("ci/openbench/Clio.json is readable");
    serde_json::from_str(&text).expect("ci/openbench/Clio.json is valid JSON")
}

/// `(kind, min, max)` of every option `clio` declares after `uci`.
fn declared_options() -> HashMap<String, (String, i64, i64)> {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok", common::QUICK);
    e.quit();
    let mut out = HashMap::new();
    for line in lines.iter().filter(|l| l.starts_with("option name ")) {
        let rest = &line["option name ".len()..];
        let Some((name, spec)) = rest.split_once(" type ") else {
            continue;
        };
        let words: Vec<&str> = spec.split_whitespace().collect();
        let num = |key: &str| {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
                .and_then(|v| v.parse::<i64>().ok())
        };
        out.insert(
            name.to_string(),
            (
                words[0].to_string(),
                num("min").unwrap_or(0),
                num("max").unwrap_or(0),
            ),
        );
    }
    out
}

/// OpenBench's reading of a bench output: the last `<n> nodes` and `<n> nps`.
fn openbench_parse(output: &str) -> (Option<u64>, Option<u64>) {
    let (mut bench, mut nps) = (None, None);
    for line in output.trim().lines().rev() {
        let clean: String = line
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == ' ' {
                    c
                } else {
                    ' '
                }
            })
            .collect();
        let words: Vec<&str> = clean.split_whitespace().collect();
        for pair in words.windows(2) {
            let n = pair[0].parse::<u64>().ok();
            if pair[1].eq_ignore_ascii_case("nodes") && bench.is_none() {
                bench = n.or(bench);
            }
            if pair[1].eq_ignore_ascii_case("nps") && nps.is_none() {
                nps = n.or(nps);
            }
        }
    }
    (bench, nps)
}

#[test]
fn entry_has_the_fields_an_openbench_server_reads() {
    let e = entry();
    assert!(
        e["nps"].as_u64().is_some_and(|n| n > 0),
        "nps: {}",
        e["nps"]
    );
    assert_eq!(
        e["build"]["path"], "",
        "the Makefile is at the repository root"
    );
    let compilers = e["build"]["compilers"].as_array().expect("compilers");
    assert!(
        compilers
            .iter()
            .any(|c| c.as_str().is_some_and(|c| c.starts_with("cargo>="))),
        "{compilers:?}"
    );
    // OpenBench reaches a repository only through GitHub's API: the source is a GitHub
    // repository's address, or the documented placeholder that docs/openbench.md says to set.
    let source = e["source"].as_str().expect("source");
    let github = source
        .strip_prefix("https://github.com/")
        .map(|rest| rest.split('/').collect::<Vec<_>>())
        .is_some_and(|parts| {
            parts.len() == 2
                && parts.iter().all(|p| {
                    !p.is_empty()
                        && p.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
                })
        });
    assert!(
        github,
        "source {source:?} is not https://github.com/OWNER/REPO: OpenBench cannot fetch it"
    );
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/openbench.md"),
    )
    .expect("docs/openbench.md");
    if source.contains("YOUR-GITHUB-ACCOUNT") {
        assert!(
            doc.contains(source),
            "the placeholder {source:?} must be the one docs/openbench.md tells users to set"
        );
    }
    // `make` runs bash scripts (ci/pgo-build.sh) and names the binary EXE as given, with no
    // `.exe`: a Windows worker cannot build it, so the entry must not offer one.
    let systems: Vec<&str> = e["build"]["systems"]
        .as_array()
        .expect("systems")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(systems.contains(&"Linux"), "{systems:?}");
    assert!(!systems.contains(&"Windows"), "{systems:?}");
    // x86-64 builds target x86-64-v2 (.cargo/config.toml), whose POPCNT a worker must have.
    let config = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.cargo/config.toml"),
    )
    .expect(".cargo/config.toml");
    if config.contains("x86-64-v2") {
        assert!(
            e["build"]["cpuflags"]
                .as_array()
                .is_some_and(|f| f.iter().any(|f| f == "POPCNT")),
            "cpuflags: {}",
            e["build"]["cpuflags"]
        );
    }
    let default = &e["test_presets"]["default"];
    for key in ["base_branch", "book_name", "test_bounds", "test_confidence"] {
        assert!(default[key].is_string(), "default test preset lacks {key}");
    }
    assert!(e["tune_presets"]["default"]["book_name"].is_string());
}

#[test]
fn every_preset_option_is_one_clio_declares_within_its_range() {
    let declared = declared_options();
    let e = entry();
    let mut checked = 0;
    for kind in ["test_presets", "tune_presets"] {
        for (preset, body) in e[kind].as_object().expect("presets") {
            for key in ["both_options", "dev_options", "base_options"] {
                let Some(opts) = body[key].as_str() else {
                    continue;
                };
                for pair in opts.split_whitespace() {
                    let (name, value) = pair.split_once('=').expect("Name=Value");
                    let (ty, min, max) = declared
                        .get(name)
                        .unwrap_or_else(|| panic!("{kind}/{preset}: clio has no option {name}"));
                    if ty == "spin" {
                        let v: i64 = value.parse().expect("a number");
                        assert!(
                            (*min..=*max).contains(&v),
                            "{kind}/{preset}: {name}={v} outside [{min}, {max}]"
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 2, "no preset sets an option");
}

#[test]
fn bench_output_reads_as_openbench_reads_it() {
    let out = Command::new(clio_path())
        .arg("bench")
        .output()
        .expect("clio bench runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.trim().lines().last().expect("output");
    let nodes: u64 = last.split_whitespace().next().unwrap().parse().unwrap();
    let (bench, nps) = openbench_parse(&text);
    assert_eq!(bench, Some(nodes), "{text}");
    assert!(nps.is_some_and(|n| n > 0), "{text}");
}
