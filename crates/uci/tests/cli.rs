//! The command line of the real `clio` binary: perft against the published counts, bench
//! determinism and its last line, the params listings, and refusals of bad arguments.

mod common;

use std::process::{Command, Output};

use clio_search::{param_specs, run_bench, switch_specs, Params, BENCH_HASH_MB};
use common::{chess, clio_path, legal, perft_suite};

fn clio(args: &[&str]) -> Output {
    Command::new(clio_path())
        .args(args)
        .output()
        .expect("clio runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn perft_gives_the_published_counts() {
    for (fen, counts) in perft_suite() {
        let depth = counts
            .iter()
            .rposition(|&n| n <= 3_000_000)
            .expect("a small depth")
            + 1;
        let fen_words: Vec<&str> = fen.split_whitespace().collect();
        let mut args = vec!["perft".to_string(), depth.to_string()];
        args.extend(fen_words.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = clio(&args);
        assert!(out.status.success(), "{fen}");
        let text = stdout(&out);
        let last = text.lines().last().unwrap_or_default();
        assert_eq!(
            last,
            format!("Nodes searched: {}", counts[depth - 1]),
            "{fen} depth {depth}"
        );
        let pos = chess(&fen);
        let per_move: u64 = text
            .lines()
            .filter_map(|l| l.split_once(": "))
            .filter(|(m, _)| legal(&pos, m).is_some())
            .map(|(_, n)| n.parse::<u64>().expect("count"))
            .sum();
        assert_eq!(per_move, counts[depth - 1], "{fen}");
    }
    // The FEN may also come as one quoted argument; no FEN means the start position.
    let (fen, counts) = &perft_suite()[1];
    let out = clio(&["perft", "2", fen]);
    assert!(stdout(&out).ends_with(&format!("Nodes searched: {}\n", counts[1])));
    let out = clio(&["perft", "3"]);
    assert!(stdout(&out).ends_with("Nodes searched: 8902\n"));
}

/// Two independent runs — the binary and the search crate's own `run_bench` (fresh tables per
/// position in both) — give the same node count, and the binary ends with `N nodes M nps`.
#[test]
fn bench_is_deterministic_and_ends_with_nodes_and_nps() {
    let depth = 2;
    let out = clio(&["bench", &depth.to_string()]);
    assert!(out.status.success());
    let text = stdout(&out);
    let line = text.lines().last().unwrap_or_default().to_string();
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{line}");
    assert_eq!((words[1], words[3]), ("nodes", "nps"), "{line}");
    let nodes: u64 = words[0].parse().expect("node count");
    words[2].parse::<u64>().expect("nps");
    assert_eq!(
        nodes,
        run_bench(depth, &Params::default(), BENCH_HASH_MB).nodes,
        "bench node count differs between runs"
    );
    assert!(text.lines().count() > 2, "per-position lines");
}

#[test]
fn params_listings_cover_every_tunable() {
    let out = clio(&["params", "--openbench"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), param_specs().len());
    for (line, p) in lines.iter().zip(param_specs()) {
        assert_eq!(
            *line,
            format!(
                "{}, int, {}, {}, {}, {}, 0.002",
                p.name, p.default, p.min, p.max, p.step
            )
        );
    }
    let out = clio(&["params", "--toml"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for p in param_specs() {
        assert!(
            text.contains(&format!("name = \"{}\"", p.name)),
            "{}",
            p.name
        );
    }
}

/// `printf 'position startpos\ngo perft 4\n' | clio`: end of input lets the perft finish, as
/// Stockfish's and perftree-style scripts expect, while a search still ends with its bestmove.
#[test]
fn a_piped_perft_runs_to_its_total() {
    use std::io::Write;
    let run = |input: &str| {
        let mut child = Command::new(clio_path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("clio runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write");
        let out = child.wait_with_output().expect("clio ends");
        assert!(out.status.success());
        stdout(&out)
    };
    let text = run("position startpos\ngo perft 4\n");
    assert!(text.contains("\nNodes searched: 197281\n"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("e2e4: ")).count(), 1);
    let text = run("position startpos moves e2e4\ngo perft 3\ngo perft 2\n");
    // a second `go perft` waits for the first, as Stockfish runs them one after another
    let first = text.find("Nodes searched: 13160\n");
    let second = text.find("Nodes searched: 600\n");
    assert!(first.is_some() && second > first, "{text}");
    let text = run("position startpos\ngo infinite\n");
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
}

#[test]
fn bad_arguments_exit_2_naming_the_argument() {
    for (args, needle) in [
        (&["perft"][..], "<DEPTH>"),
        (&["perft", "x"][..], "'x'"),
        (&["perft", "0"][..], "'0'"),
        (&["perft", "3", "8/8/8", "w"][..], "piece placement"),
        (&["bench", "deep"][..], "'deep'"),
        (&["params"][..], "--openbench"),
        (&["frobnicate"][..], "'frobnicate'"),
    ] {
        let out = clio(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// `clio bench --ablation 1`: a row per configuration (all on, each switch flipped, all history
/// off), and the all-on row counts the same nodes as `clio bench 1`.
#[test]
fn ablation_table_has_every_configuration() {
    let out = clio(&["bench", "--ablation", "1"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.starts_with("all ")
                || switch_specs()
                    .iter()
                    .any(|s| l.starts_with(&format!("{} ", s.name)))
        })
        .collect();
    assert_eq!(rows.len(), switch_specs().len() + 2, "{text}");
    for s in switch_specs() {
        assert!(
            rows.iter().any(|r| r.starts_with(s.name)),
            "{}: {text}",
            s.name
        );
    }
    let all_on_nodes = rows[0]
        .split_whitespace()
        .find_map(|w| w.parse::<u64>().ok())
        .expect("node column");
    let bench = stdout(&clio(&["bench", "1"]));
    let last = bench.lines().last().unwrap_or_default();
    assert_eq!(
        last.split_whitespace().next(),
        Some(all_on_nodes.to_string().as_str())
    );
}
