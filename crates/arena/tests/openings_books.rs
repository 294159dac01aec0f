//! The books shipped in openings/: every line of every `.epd` file (the Chess960 books in
//! Chess960 mode) is read by arena's book
//! reader without a complaint, is a legal position with a legal move, not in check, and unique
//! in its file (placement, side, castling, en passant). The generated books also carry their
//! score (`ce`) inside the window their README entry gives, and hold as many positions as
//! promised.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use clio_arena::book;
use clio_arena::openings::{epd_score, walk};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// The books `arena openings` made: file, score window, least count.
const GENERATED: &[(&str, i64, i64, usize)] = &[
    ("clio-balanced.epd", -30, 30, 3000),
    ("clio-uho.epd", 80, 120, 1000),
];

fn openings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../openings")
}

/// Checks one book (the Chess960 start-position books `frc.epd` and `dfrc.epd` in Chess960
/// mode); returns its positions' scores (`ce`, where present).
fn check_book(path: &Path) -> Vec<Option<i64>> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let mode = if matches!(name, "frc.epd" | "dfrc.epd") {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let text = std::fs::read_to_string(path).expect("book is readable");
    let mut first_seen: HashMap<String, usize> = HashMap::new();
    let mut scores = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let where_ = format!("{}:{n}", path.display());
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (entries, skipped) = book::parse_epd_in(trimmed, mode);
        assert!(skipped.is_empty(), "{where_}: {skipped:?}");
        assert_eq!(entries.len(), 1, "{where_}");
        let fen = entries[0].fen.clone().expect("an EPD entry has a FEN");
        let pos: Chess = Fen::from_ascii(fen.as_bytes())
            .expect("the reader's FEN parses")
            .into_position(mode)
            .expect("the reader's FEN is legal");
        assert!(!pos.is_check(), "{where_}: side to move is in check");
        assert!(!pos.is_game_over(), "{where_}: the game is over");
        if let Some(prev) = first_seen.insert(walk::position_key(&fen), n) {
            panic!("{where_}: same position as line {prev}");
        }
        scores.push(epd_score(trimmed));
    }
    assert!(!scores.is_empty(), "{}: empty book", path.display());
    scores
}

#[test]
fn every_shipped_book_line_is_legal_quiet_and_unique() {
    let mut books: Vec<PathBuf> = std::fs::read_dir(openings_dir())
        .expect("openings/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "epd"))
        .collect();
    books.sort();
    assert!(!books.is_empty());
    for path in &books {
        check_book(path);
    }
}

#[test]
fn generated_books_are_in_their_window_and_documented() {
    let dir = openings_dir();
    let readme = std::fs::read_to_string(dir.join("README.md")).expect("openings/README.md");
    for &(file, lo, hi, least) in GENERATED {
        let path = dir.join(file);
        let scores = check_book(&path);
        assert!(
            scores.len() >= least,
            "{file}: {} positions, want at least {least}",
            scores.len()
        );
        for (i, s) in scores.iter().enumerate() {
            let s = s.unwrap_or_else(|| panic!("{file}: position {} has no ce", i + 1));
            assert!(
                (lo..=hi).contains(&s),
                "{file}: position {} scores {s}",
                i + 1
            );
        }
        // The README's command for this book names the same file, window and count.
        let command = readme
            .lines()
            .find(|l| l.contains("arena openings") && l.contains(&format!("openings/{file}")))
            .unwrap_or_else(|| panic!("README.md has no command for {file}"));
        assert!(
            command.contains(&format!("--min-cp {lo} "))
                && command.contains(&format!("--max-cp {hi} ")),
            "README command for {file} has another window: {command}"
        );
        assert!(
            command.contains(&format!("--count {} ", scores.len())),
            "README command for {file} does not make {} positions: {command}",
            scores.len()
        );
    }
}
