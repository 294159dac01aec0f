//! `--epdout`: the position after every engine move of every counted game, with the game's result
//! for White, in the EPD form texel reads (`FEN [1.0]`), appended pair by pair beside the PGN and
//! cut back with it on resume. Clio plays itself at a low node limit; each EPD line must be the
//! position the PGN's moves reach (book moves left out), legal, with its game's result.

mod runner_common;

use std::fs;
use std::path::Path;

use clio_arena::game::fen_of;
use runner_common::*;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position};

/// A PGN book of two short lines, so the games have book moves to leave out.
const BOOK: &str = "[Event \"b\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n";

/// `[Name "Value"]` → (Name, Value).
fn tag(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, value) = inner.split_once(' ')?;
    Some((name, value.trim_matches('"')))
}

/// The moves of a movetext with the comment after each (`book` for a book move).
fn moves_with_comments(movetext: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut rest = movetext;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').expect("closed comment") + open;
        let san = rest[..open]
            .split_whitespace()
            .rfind(|t| !t.ends_with('.'))
            .expect("a move before each comment");
        out.push((san.to_string(), rest[open + 1..close].to_string()));
        rest = &rest[close + 1..];
    }
    out
}

/// The EPD lines the PGN's games should have left: each game replayed from its FEN tag (or the
/// start position), one line after every move that is not a book move, with the game's result.
fn expected_lines(pgn: &str, mode: CastlingMode) -> (Vec<String>, usize) {
    let blocks: Vec<&str> = pgn.split("\n\n").filter(|b| !b.trim().is_empty()).collect();
    assert_eq!(blocks.len() % 2, 0, "tags and movetext alternate:\n{pgn}");
    let mut lines = Vec::new();
    for game in blocks.chunks(2) {
        let tags: Vec<(&str, &str)> = game[0].lines().filter_map(tag).collect();
        let value = |name: &str| tags.iter().find(|t| t.0 == name).map(|t| t.1);
        let mut pos: Chess = match value("FEN") {
            Some(fen) => Fen::from_ascii(fen.as_bytes())
                .expect("FEN tag")
                .into_position(mode)
                .expect("legal FEN tag"),
            None => Chess::default(),
        };
        let score = match value("Result").expect("Result tag") {
            "1-0" => "1.0",
            "0-1" => "0.0",
            "1/2-1/2" => "0.5",
            r => panic!("a counted game without a result: {r}"),
        };
        let moves = moves_with_comments(game[1]);
        let plies: usize = value("PlyCount")
            .and_then(|p| p.parse().ok())
            .expect("PlyCount");
        assert_eq!(moves.len(), plies, "{}", game[1]);
        for (san, comment) in moves {
            let m = SanPlus::from_ascii(san.as_bytes())
                .expect("SAN")
                .san
                .to_move(&pos)
                .expect("legal move");
            pos.play_unchecked(m);
            if comment != "book" {
                lines.push(format!("{} [{score}]", fen_of(&pos)));
            }
        }
    }
    (lines, blocks.len() / 2)
}

/// The result on an EPD line by texel's rule (`epd_result` in crates/texel/src/data.rs): the
/// number between `[` and `]`, from 0 to 1.
fn texel_result(ops: &str) -> Option<f64> {
    let inside = ops.split('[').nth(1)?.split(']').next()?;
    inside
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|r| (0.0..=1.0).contains(r))
}

/// Checks `games.epd` against `games.pgn` in `dir`; returns the number of games.
fn check_files(dir: &Path, mode: CastlingMode) -> usize {
    let pgn = fs::read_to_string(dir.join("games.pgn")).expect("PGN written");
    let epd = fs::read_to_string(dir.join("games.epd")).expect("EPD written");
    let (want, games) = expected_lines(&pgn, mode);
    let got: Vec<&str> = epd.lines().collect();
    assert_eq!(got.len(), want.len(), "one line a ply played:\n{epd}");
    assert_eq!(got, want);
    for line in got {
        let (fen, ops) = line.rsplit_once(' ').expect("FEN and result");
        let pos: Result<Chess, _> = Fen::from_ascii(fen.as_bytes())
            .map_err(|e| e.to_string())
            .and_then(|f| f.into_position(mode).map_err(|e| e.to_string()));
        assert!(pos.is_ok(), "{line}: {pos:?}");
        assert!(texel_result(ops).is_some(), "{line}");
        if mode == CastlingMode::Standard {
            // The FEN parse texel's EPD reader uses.
            let (_, ops) = clio_board::parse_epd(line).expect("texel reads it");
            assert_eq!(texel_result(&ops), texel_result(line), "{line}");
        }
    }
    games
}

/// `arena match` between two Clios at a low node limit from `book`, with `--pgn` and `--epdout`
/// into `dir`.
fn play(clio: &str, dir: &Path, book: &Path, rounds: u32, more: &[&str]) -> (String, String) {
    let out = arena()
        .args(["match", "--engine", "name=a", &format!("cmd={clio}")])
        .args(["--engine", "name=b", &format!("cmd={clio}")])
        .args(["--nodes", "1500", "--maxmoves", "40", "--concurrency", "2"])
        .args(["--rating-interval", "0", "--seed", "7"])
        .args(["--rounds", &rounds.to_string()])
        .arg("--openings")
        .arg(book)
        .arg("--pgn")
        .arg(dir.join("games.pgn"))
        .arg("--epdout")
        .arg(dir.join("games.epd"))
        .args(more)
        .output()
        .expect("arena runs");
    let (o, e) = texts(&out);
    assert!(out.status.success(), "{o}\n{e}");
    (o, e)
}

#[test]
fn every_ply_of_every_game_is_written_with_its_result_and_resumes_without_repeats() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("epdout");
    let book = dir.join("book.pgn");
    fs::write(&book, BOOK).expect("book");
    let state = dir.join("state.json");
    let args = [
        "--order",
        "sequential",
        "--state",
        state.to_str().expect("utf-8"),
    ];
    play(&clio, &dir, &book, 1, &args);
    assert_eq!(check_files(&dir, CastlingMode::Standard), 2);
    // Lines written after the last saved pair (a run killed between the two) are cut on resume.
    let epd = dir.join("games.epd");
    let mut text = fs::read_to_string(&epd).expect("EPD");
    text.push_str("8/8/8/4k3/8/8/8/4K3 w - - 0 1 [0.5]\n");
    fs::write(&epd, text).expect("EPD");
    let (o, e) = play(&clio, &dir, &book, 2, &args);
    assert!(e.contains("resuming"), "{e}");
    assert_eq!(
        o.lines().filter(|l| l.starts_with("Started game")).count(),
        2,
        "{o}"
    );
    let pgn = fs::read_to_string(dir.join("games.pgn")).expect("PGN");
    assert!(pgn.contains("{book}"), "{pgn}");
    assert_eq!(check_files(&dir, CastlingMode::Standard), 4);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn chess960_positions_keep_their_castling_rights() {
    let Some(clio) = clio_release() else { return };
    let dir = scratch("epdout960");
    let book = root().join("openings/frc.epd");
    play(&clio, &dir, &book, 1, &["--variant", "fischerandom"]);
    assert_eq!(check_files(&dir, CastlingMode::Chess960), 2);
    let _ = fs::remove_dir_all(&dir);
}
