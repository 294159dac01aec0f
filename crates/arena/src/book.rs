//! Opening books: EPD and PGN readers, and the order in which a run walks the book.
//!
//! Every position is checked for legality with shakmaty. A malformed line (EPD) or game (PGN) is
//! reported with the file name and line number and skipped; a book with no usable opening is an
//! error. The walk is seeded and portable: the shuffle uses ChaCha8, whose output does not change
//! across `rand` versions, so a state file can name a position in the sequence by its index.

use std::fmt;
use std::path::{Path, PathBuf};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::game::fen_of;

/// One opening of a book: the game's own [`Opening`] (a FEN or the start position, UCI moves).
pub use crate::game::Opening as BookEntry;

/// A line of a book file that could not be used, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// 1-based line number in the file.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// A loaded opening book.
#[derive(Clone, Debug)]
pub struct Book {
    /// The file it came from.
    pub path: PathBuf,
    /// The usable openings, in file order.
    pub entries: Vec<BookEntry>,
    /// Lines or games that were skipped, with their line numbers.
    pub skipped: Vec<Skipped>,
}

/// Why a book could not be loaded at all.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("cannot read opening book {path}: {source}")]
    Io {
        /// The book file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// No opening at all.
    #[error("opening book {path} has no usable opening ({skipped} malformed entries skipped)")]
    Empty {
        /// The book file.
        path: PathBuf,
        /// How many entries were skipped as malformed.
        skipped: usize,
    },
    /// Lines were read but none held a usable opening; the first few are listed.
    #[error("opening book {path} has no usable opening ({} malformed entries skipped){}", skipped.len(), list_skipped(path, skipped))]
    Unusable {
        /// The book file.
        path: PathBuf,
        /// The entries skipped as malformed.
        skipped: Vec<Skipped>,
    },
}

/// The first few skipped entries as `; FILE:LINE: reason` items.
fn list_skipped(path: &Path, skipped: &[Skipped]) -> String {
    let mut s = String::new();
    for k in skipped.iter().take(5) {
        s.push_str(&format!("\n  {}:{}: {}", path.display(), k.line, k.reason));
    }
    if skipped.len() > 5 {
        s.push_str(&format!("\n  … and {} more", skipped.len() - 5));
    }
    s
}

/// Book file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One position per line: 4 FEN fields, then optional EPD operations.
    Epd,
    /// PGN games; the mainline moves (and a FEN tag, if any) make the opening.
    Pgn,
}

impl Format {
    /// Guesses the format from the file extension (`.pgn` is PGN, anything else EPD).
    pub fn from_path(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("pgn") => Format::Pgn,
            _ => Format::Epd,
        }
    }
}

/// Why `path`, which is not a regular file, cannot be a book: "does not exist", "is a
/// directory", "is not a regular file (a device, pipe or socket)".
pub fn not_a_file(path: &Path) -> &'static str {
    match std::fs::metadata(path) {
        Err(_) => "does not exist",
        Ok(m) if m.is_dir() => "is a directory, not a file",
        Ok(_) => "is not a regular file (a device, pipe or socket)",
    }
}

impl Book {
    /// Loads a book of standard chess, choosing the format by extension. Skipped entries are
    /// kept in `skipped`.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        Book::load_in(path, CastlingMode::Standard)
    }

    /// Loads a book in a castling mode (`Chess960`: FENs may set up any back rank, with X-FEN or
    /// Shredder-FEN castling rights).
    pub fn load_in(path: &Path, mode: CastlingMode) -> Result<Book, BookError> {
        if !path.is_file() {
            return Err(BookError::Io {
                path: path.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::InvalidInput, not_a_file(path)),
            });
        }
        let bytes = std::fs::read(path).map_err(|source| BookError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        // A line that is not UTF-8 is skipped by number; the others keep their numbers.
        let mut not_utf8 = Vec::new();
        let lines: Vec<&str> = (bytes.split(|&b| b == b'\n').enumerate())
            .map(|(i, line)| {
                std::str::from_utf8(line).unwrap_or_else(|_| {
                    not_utf8.push(Skipped {
                        line: i + 1,
                        reason: "not valid UTF-8".to_string(),
                    });
                    ""
                })
            })
            .collect();
        let text = lines.join("\n");
        let (entries, mut skipped) = match Format::from_path(path) {
            Format::Epd => parse_epd_in(&text, mode),
            Format::Pgn => parse_pgn_in(&text, mode),
        };
        skipped.extend(not_utf8);
        skipped.sort_by_key(|s| s.line);
        if entries.is_empty() && skipped.is_empty() {
            return Err(BookError::Empty {
                path: path.to_path_buf(),
                skipped: 0,
            });
        }
        if entries.is_empty() {
            return Err(BookError::Unusable {
                path: path.to_path_buf(),
                skipped,
            });
        }
        Ok(Book {
            path: path.to_path_buf(),
            entries,
            skipped,
        })
    }

    /// A one-entry book holding the standard start position (used when no book is given).
    pub fn startpos() -> Book {
        Book {
            path: PathBuf::new(),
            entries: vec![BookEntry {
                fen: None,
                moves: Vec::new(),
            }],
            skipped: Vec::new(),
        }
    }

    /// Writes one warning line per skipped entry, then the count, to stderr.
    pub fn warn_skipped(&self) {
        for s in &self.skipped {
            eprintln!(
                "warning: {}:{}: skipped: {}",
                self.path.display(),
                s.line,
                s.reason
            );
        }
        if !self.skipped.is_empty() {
            eprintln!(
                "warning: {}: {} malformed entries skipped, {} openings loaded",
                self.path.display(),
                self.skipped.len(),
                self.entries.len()
            );
        }
    }
}

/// The order in which openings are taken.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// Shuffled once with the seed, then walked in that order.
    Random,
    /// File order.
    Sequential,
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Order::Random => "random",
            Order::Sequential => "sequential",
        })
    }
}

/// The walk through a book: round `r` of a run uses `entries[perm[(start + r) % len]]`.
#[derive(Clone, Debug)]
pub struct Sequence {
    perm: Vec<usize>,
    start: usize,
}

impl Sequence {
    /// Builds the walk for `len` openings in the given order; `start` is 0-based.
    pub fn new(len: usize, order: Order, seed: u64, start: usize) -> Sequence {
        let mut perm: Vec<usize> = (0..len).collect();
        if order == Order::Random {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            perm.shuffle(&mut rng);
        }
        Sequence { perm, start }
    }

    /// Index into the book's entries of the opening for round `round`.
    pub fn index(&self, round: u64) -> usize {
        let len = self.perm.len().max(1) as u64;
        let i = (self.start as u64).wrapping_add(round) % len;
        self.perm.get(i as usize).copied().unwrap_or(0)
    }
}

/// Parses one EPD line into a legal position's FEN. The 4 EPD fields may be followed by
/// operations; `hmvc` and `fmvn` set the move counters.
fn parse_epd_line(line: &str, mode: CastlingMode) -> Result<String, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("{} fields, need at least 4", fields.len()));
    }
    let mut halfmoves = "0".to_string();
    let mut fullmoves = "1".to_string();
    let rest = fields[4..].join(" ");
    // FEN-style counters right after the 4 fields (a full FEN in an EPD file) are accepted too.
    if fields.len() >= 6
        && fields[4].parse::<u32>().is_ok()
        && fields[5].trim_end_matches(';').parse::<u32>().is_ok()
    {
        halfmoves = fields[4].to_string();
        fullmoves = fields[5].trim_end_matches(';').to_string();
    } else {
        for op in rest.split(';') {
            let mut it = op.split_whitespace();
            match (it.next(), it.next()) {
                (Some("hmvc"), Some(v)) if v.parse::<u32>().is_ok() => halfmoves = v.to_string(),
                (Some("fmvn"), Some(v)) if v.parse::<u32>().is_ok() => fullmoves = v.to_string(),
                _ => {}
            }
        }
    }
    let text = format!(
        "{} {} {} {} {} {}",
        fields[0], fields[1], fields[2], fields[3], halfmoves, fullmoves
    );
    let fen = Fen::from_ascii(text.as_bytes()).map_err(|e| format!("invalid EPD: {e}"))?;
    let pos: Chess = fen
        .into_position(mode)
        .map_err(|e| format!("illegal position: {e}"))?;
    if pos.legal_moves().is_empty() {
        return Err("position has no legal move".to_string());
    }
    Ok(fen_of(&pos))
}

/// Reads an EPD book: one position per line; blank lines and lines starting with `#` are ignored.
pub fn parse_epd(text: &str) -> (Vec<BookEntry>, Vec<Skipped>) {
    parse_epd_in(text, CastlingMode::Standard)
}

/// [`parse_epd`] in a castling mode.
pub fn parse_epd_in(text: &str, mode: CastlingMode) -> (Vec<BookEntry>, Vec<Skipped>) {
    let mut entries = Vec::new();
    let mut skipped = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_epd_line(line, mode) {
            Ok(fen) => entries.push(BookEntry {
                fen: Some(fen),
                moves: Vec::new(),
            }),
            Err(reason) => skipped.push(Skipped {
                line: i + 1,
                reason: format!("{reason}: {line:?}"),
            }),
        }
    }
    (entries, skipped)
}

/// A PGN game being read: its first line, FEN tag and mainline tokens.
#[derive(Default)]
struct RawGame {
    line: usize,
    fen: Option<String>,
    tokens: Vec<String>,
}

/// Reads a PGN book: each game's mainline (comments, variations, NAGs and move numbers dropped)
/// from its FEN tag or the start position. A game with an illegal or unreadable move is skipped.
pub fn parse_pgn(text: &str) -> (Vec<BookEntry>, Vec<Skipped>) {
    parse_pgn_in(text, CastlingMode::Standard)
}

/// [`parse_pgn`] in a castling mode.
pub fn parse_pgn_in(text: &str, mode: CastlingMode) -> (Vec<BookEntry>, Vec<Skipped>) {
    let mut games: Vec<RawGame> = Vec::new();
    let mut current: Option<RawGame> = None;
    let mut in_movetext = false;
    let mut depth_comment = false;
    let mut depth_variation = 0usize;
    for (i, raw_line) in text.lines().enumerate() {
        let line = raw_line.trim();
        if line.starts_with('%') {
            continue;
        }
        if !depth_comment && depth_variation == 0 && line.starts_with('[') {
            if in_movetext {
                if let Some(g) = current.take() {
                    games.push(g);
                }
                in_movetext = false;
            }
            let g = current.get_or_insert_with(|| RawGame {
                line: i + 1,
                ..RawGame::default()
            });
            if let Some(value) = tag_value(line, "FEN") {
                g.fen = Some(value);
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        in_movetext = true;
        let g = current.get_or_insert_with(|| RawGame {
            line: i + 1,
            ..RawGame::default()
        });
        let mut token = String::new();
        let flush = |token: &mut String, g: &mut RawGame| {
            if !token.is_empty() {
                g.tokens.push(std::mem::take(token));
            }
        };
        for c in line.chars() {
            if depth_comment {
                if c == '}' {
                    depth_comment = false;
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut token, g);
                    depth_comment = true;
                }
                ';' => {
                    flush(&mut token, g);
                    break;
                }
                '(' => {
                    flush(&mut token, g);
                    depth_variation += 1;
                }
                ')' => {
                    flush(&mut token, g);
                    depth_variation = depth_variation.saturating_sub(1);
                }
                c if c.is_whitespace() => flush(&mut token, g),
                c => {
                    if depth_variation == 0 {
                        token.push(c);
                    }
                }
            }
        }
        flush(&mut token, g);
    }
    if let Some(g) = current.take() {
        games.push(g);
    }

    let mut entries = Vec::new();
    let mut skipped = Vec::new();
    for g in games {
        match pgn_game_entry(&g, mode) {
            Ok(Some(e)) => entries.push(e),
            Ok(None) => {}
            Err(reason) => skipped.push(Skipped {
                line: g.line,
                reason,
            }),
        }
    }
    (entries, skipped)
}

/// The value of tag `name` in a line like `[FEN "..."]`.
fn tag_value(line: &str, name: &str) -> Option<String> {
    let inner = line.strip_prefix('[')?.trim_end().strip_suffix(']')?;
    let (key, value) = inner.split_once(char::is_whitespace)?;
    if key != name {
        return None;
    }
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some(value.to_string())
}

/// Plays a read game's mainline; Ok(None) for a game with neither moves nor a FEN.
fn pgn_game_entry(g: &RawGame, mode: CastlingMode) -> Result<Option<BookEntry>, String> {
    let mut pos: Chess = match &g.fen {
        Some(f) => Fen::from_ascii(f.as_bytes())
            .map_err(|e| format!("invalid FEN tag {f:?}: {e}"))?
            .into_position(mode)
            .map_err(|e| format!("illegal FEN tag {f:?}: {e}"))?,
        None => Chess::default(),
    };
    let start_fen = g.fen.as_ref().map(|_| fen_of(&pos));
    let mut moves = Vec::new();
    for tok in &g.tokens {
        if matches!(tok.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") || tok.starts_with('$') {
            continue;
        }
        // Move numbers: "12." "12..." or glued "12.e4".
        let san = tok.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if san.is_empty() {
            continue;
        }
        let san = san.trim_end_matches(['!', '?', '+', '#']);
        let m = San::from_ascii(san.as_bytes())
            .map_err(|e| format!("unreadable move {tok:?}: {e}"))?
            .to_move(&pos)
            .map_err(|e| format!("illegal move {tok:?}: {e}"))?;
        moves.push(UciMove::from_move(m, mode).to_string());
        pos.play_unchecked(m);
    }
    if moves.is_empty() && start_fen.is_none() {
        return Ok(None);
    }
    if pos.legal_moves().is_empty() {
        return Err("the opening ends in a position with no legal move".to_string());
    }
    Ok(Some(BookEntry {
        fen: start_fen,
        moves,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_with_ops_and_bad_lines() {
        let text =
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 \"e4\"; hmvc 0; fmvn 1;\n\
                    # comment\n\
                    \n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
                    8/8/8/8/8/8/8/8 w - -\n\
                    garbage\n";
        let (entries, skipped) = parse_epd(text);
        assert_eq!(entries.len(), 2);
        assert_eq!(
            entries[0].fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        let lines: Vec<usize> = skipped.iter().map(|s| s.line).collect();
        assert_eq!(lines, vec![4, 6, 7]);
    }

    #[test]
    fn pgn_mainline_skips_comments_variations_and_bad_games() {
        let text = "[Event \"a\"]\n[Site \"?\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 3. Bb5 a6 *\n\n\
                    [Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n\n\
                    [Event \"c\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 1/2-1/2\n";
        let (entries, skipped) = parse_pgn(text);
        assert_eq!(entries.len(), 2, "{skipped:?}");
        assert_eq!(
            entries[0].moves,
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
        );
        assert_eq!(entries[0].fen, None);
        assert_eq!(entries[1].moves, ["e2e4", "e8d7"]);
        assert!(entries[1].fen.is_some());
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].line, 6);
    }

    #[test]
    fn the_seed_book_is_legal_and_distinct() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../openings/seed.epd");
        let book = Book::load(&path).unwrap();
        assert!(book.skipped.is_empty(), "{:?}", book.skipped);
        assert!(book.entries.len() >= 50);
        let mut fens: Vec<&str> = book
            .entries
            .iter()
            .filter_map(|e| e.fen.as_deref())
            .collect();
        fens.sort_unstable();
        fens.dedup();
        assert_eq!(fens.len(), book.entries.len());
    }

    #[test]
    fn an_empty_book_names_its_bad_lines() {
        let dir = std::env::temp_dir().join(format!("arena-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.epd");
        std::fs::write(&path, "nonsense\n").unwrap();
        let err = Book::load(&path).unwrap_err().to_string();
        assert!(err.contains("bad.epd:1: 1 fields"), "{err}");
        assert!(Book::load(&dir.join("missing.epd"))
            .unwrap_err()
            .to_string()
            .contains("missing.epd"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sequence_is_a_seeded_permutation() {
        let a = Sequence::new(50, Order::Random, 7, 0);
        let b = Sequence::new(50, Order::Random, 7, 0);
        let c = Sequence::new(50, Order::Random, 8, 0);
        let wa: Vec<usize> = (0..50).map(|r| a.index(r)).collect();
        let wb: Vec<usize> = (0..50).map(|r| b.index(r)).collect();
        let wc: Vec<usize> = (0..50).map(|r| c.index(r)).collect();
        assert_eq!(wa, wb);
        assert_ne!(wa, wc);
        let mut sorted = wa.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        let s = Sequence::new(5, Order::Sequential, 1, 3);
        assert_eq!(
            (0..6).map(|r| s.index(r)).collect::<Vec<_>>(),
            vec![3, 4, 0, 1, 2, 3]
        );
    }
}
