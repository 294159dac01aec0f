//! Writes weights as the Rust source of `crates/search/src/eval/weights.rs`.

use std::fmt::Write as _;

use clio_search::eval::{Weights, S};

/// The first paragraph of the generated file.
const PREAMBLE: &str = "The evaluation's weights: every linear term of [`super::evaluate`] as a \
middlegame/endgame pair, in centipawns. `texel` (crates/texel) fits them to game results and \
rewrites this file; regenerate it rather than edit it by hand.";

/// Longest line of the doc comment.
const WIDTH: usize = 100;

fn pair(w: &S) -> String {
    format!("s({}, {})", w.mg, w.eg)
}

/// Appends `text` as `//!` lines wrapped at [`WIDTH`] columns.
fn doc_paragraph(out: &mut String, text: &str) {
    let mut line = String::from("//!");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > WIDTH && line.len() > 3 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("//!");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
}

/// The source of the weights file for `weights` and `tempo`; `note` (how they were obtained)
/// becomes the doc comment's second paragraph.
pub fn weights_source(weights: &Weights, tempo: i32, note: &str) -> String {
    let mut out = String::new();
    doc_paragraph(&mut out, PREAMBLE);
    out.push_str("//!\n");
    doc_paragraph(&mut out, note);
    out.push_str("\nuse super::{s, Weights};\n\n");
    out.push_str(
        "/// Bonus for the side to move, in centipawns, added after tapering and scaling.\n",
    );
    let _ = writeln!(out, "pub const TEMPO: i32 = {tempo};\n");
    out.push_str(
        "/// Every linear weight of the evaluation (see [`Weights`] for what each group counts).\n",
    );
    out.push_str("#[rustfmt::skip]\npub const WEIGHTS: Weights = Weights {\n");
    for (name, group) in weights.groups() {
        if name == "pst" {
            out.push_str("    pst: [\n");
            for table in group.chunks(64) {
                out.push_str("        [\n");
                for row in table.chunks(8) {
                    let cells: Vec<String> = row
                        .iter()
                        .map(|w| format!("s({:>4}, {:>4})", w.mg, w.eg))
                        .collect();
                    let _ = writeln!(out, "            {},", cells.join(", "));
                }
                out.push_str("        ],\n");
            }
            out.push_str("    ],\n");
        } else if let [one] = group {
            let _ = writeln!(out, "    {name}: {},", pair(one));
        } else {
            let cells: Vec<String> = group.iter().map(pair).collect();
            let _ = writeln!(out, "    {name}: [{}],", cells.join(", "));
        }
    }
    out.push_str("};\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clio_search::eval::{TEMPO, WEIGHTS};

    #[test]
    fn the_source_lists_every_group_once_with_the_tempo() {
        let text = weights_source(&WEIGHTS, TEMPO, "A note.");
        assert!(text.contains(&format!("pub const TEMPO: i32 = {TEMPO};")));
        for (name, _) in WEIGHTS.groups() {
            assert_eq!(text.matches(&format!("    {name}: ")).count(), 1, "{name}");
        }
        // One score pair per weight: the search crate's own test pins the groups' total size.
        let pairs: usize = WEIGHTS.groups().iter().map(|(_, g)| g.len()).sum();
        assert_eq!(text.matches("s(").count(), pairs);
        assert!(text
            .lines()
            .filter(|l| l.starts_with("//!"))
            .all(|l| l.len() <= WIDTH));
    }
}
