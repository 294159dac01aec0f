//! `nnue-train` through its command line: fine-tuning for zero epochs writes the starting
//! network back byte for byte (the float model it trains is that network's), and bad
//! `--init`, `--score-scale` and `--eval-scale` values are refused by name; `--buckets 8`
//! splits the starting network's output layer into eight that evaluate as it did.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The shipped network's file (the one `nnue.rs` embeds).
fn shipped() -> PathBuf {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../search/src/nnue.rs"),
    )
    .unwrap();
    let name = src
        .split("include_bytes!(\"../nets/")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("nnue.rs embeds a network");
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../search/nets")
        .join(name)
}

/// A labelled file of quiet positions from the balanced book (each `FEN [0.5] CP`), enough
/// blocks of 1,000 lines for some to be held out.
fn labelled(dir: &Path) -> PathBuf {
    let book = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../openings/clio-balanced.epd"),
    )
    .expect("the balanced book");
    let fens: Vec<String> = (book.lines())
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" ") + " 0 1")
        .collect();
    let mut text = String::new();
    for i in 0..6000 {
        let fen = &fens[i % fens.len()];
        text.push_str(&format!("{fen} [0.5] {}\n", (i % 61) as i32 - 30));
    }
    let path = dir.join("labelled.txt");
    std::fs::write(&path, text).unwrap();
    path
}

fn train(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nnue-train"))
        .args(args)
        .output()
        .expect("nnue-train runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn fine_tuning_starts_from_the_network_and_bad_values_are_named() {
    let dir = std::env::temp_dir().join(format!("clio-nnue-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = labelled(&dir);
    let data = data.to_str().unwrap();
    let net = shipped();
    let net = net.to_str().unwrap();
    let out = dir.join("ft.nnue");
    let out_s = out.to_str().unwrap();
    let common = ["--lambda", "0", "--threads", "1", "--holdout", "2"];

    let (ok, e) = train(
        &[
            &[data, "--init", net, "--epochs", "0", "--out", out_s][..],
            &common,
            &["--score-scale", "121.8", "--eval-scale", "140.3"],
        ]
        .concat(),
    );
    assert!(ok, "{e}");
    assert!(
        e.contains("starting from") && e.contains("--score-scale 121.8"),
        "{e}"
    );
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(net).unwrap(),
        "zero epochs from a network write that network"
    );

    // Eight output buckets from a one-bucket network (untrained random weights): each bucket
    // is its output layer.
    let one_path = dir.join("one.nnue");
    let one_s = one_path.to_str().unwrap();
    let (ok, e) = train(&[&[data, "--epochs", "0", "--out", one_s][..], &common].concat());
    assert!(ok, "{e}");
    let eight = dir.join("eight.nnue");
    let eight_s = eight.to_str().unwrap();
    let (ok, e) = train(
        &[
            &[data, "--init", one_s, "--epochs", "0", "--buckets", "8"][..],
            &["--out", eight_s],
            &common,
        ]
        .concat(),
    );
    assert!(ok, "{e}");
    let one = clio_search::nnue::Network::from_bytes(&std::fs::read(&one_path).unwrap()).unwrap();
    assert_eq!(one.buckets(), 1);
    let split = clio_search::nnue::Network::from_bytes(&std::fs::read(&eight).unwrap())
        .expect("a bucketed network file");
    assert_eq!(split.buckets(), 8);
    assert_eq!(split.ft_weights, one.ft_weights);
    assert!(split.out_weights.iter().all(|w| *w == one.out_weights[0]));
    assert!(split.out_bias.iter().all(|b| *b == one.out_bias[0]));
    // A bucketed network is not split again into another count.
    let (ok, e) = train(
        &[
            &[data, "--init", eight_s, "--epochs", "0", "--buckets", "4"][..],
            &["--out", out_s],
            &common,
        ]
        .concat(),
    );
    assert!(!ok);
    assert!(e.contains("has 8 output buckets"), "{e}");

    for (flag, value, needle) in [
        ("--buckets", "0", "--buckets 0: give 1 to 16"),
        ("--buckets", "17", "--buckets 17: give 1 to 16"),
        ("--score-scale", "0", "--score-scale 0 must be a positive"),
        ("--eval-scale", "NaN", "--eval-scale NaN must be a positive"),
        ("--init", data, "--init"),
        (
            "--init",
            "/nonexistent/x.nnue",
            "reading --init /nonexistent/x.nnue",
        ),
    ] {
        let (ok, e) = train(
            &[
                &[data, flag, value, "--epochs", "0", "--out", out_s][..],
                &common,
            ]
            .concat(),
        );
        assert!(!ok, "{flag} {value} is refused");
        assert!(e.contains(needle), "{flag} {value}: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
