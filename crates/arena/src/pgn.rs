//! PGN of a finished game, laid out like fastchess writes it: the Seven Tag Roster, `SetUp`/`FEN`
//! for a non-standard start, `GameDuration`, `PlyCount`, `Termination` (fastchess's class:
//! `normal`, `adjudication`, `time forfeit`, `illegal move`, `abandoned`) and `TimeControl`;
//! book moves commented `{book}`, engine moves `{+0.31/12 0.045s}` (score/depth and time,
//! fastchess's format), the reason (e.g. `White mates`) after the last move.

use std::time::{SystemTime, UNIX_EPOCH};

use shakmaty::{Chess, Color, Position};

use crate::game::{GameRecord, Opening, Variant};

/// The standard start position's FEN.
const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Where fastchess breaks movetext lines.
const LINE_LENGTH: usize = 80;

/// A PGN tag value with `\` and `"` escaped (PGN standard 8.1.1).
fn tag_value(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment body that cannot close the comment early.
fn comment(v: &str) -> String {
    v.replace('}', ")")
}

/// `YYYY.MM.DD` (UTC) of a time, by the days-to-civil conversion of H. Hinnant, "chrono-
/// Compatible Low-Level Date Algorithms" (2013).
pub fn pgn_date(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// `HH:MM:SS` of a duration in ms.
fn hms(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// fastchess's time format in comments: seconds with three decimals and `s`.
fn seconds(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

/// The PGN of `game`, tagged with `event` and `round`, ending with a newline and a blank line.
pub fn to_pgn(game: &GameRecord, event: &str, round: u64) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out += &format!("[{name} \"{}\"]\n", tag_value(value));
    };
    tag("Event", event);
    tag("Site", "?");
    tag("Date", &pgn_date(game.started));
    tag("Round", &round.to_string());
    tag("White", &game.white);
    tag("Black", &game.black);
    tag("Result", game.result.pgn());
    if game.variant == Variant::Fischerandom {
        tag("Variant", "Chess960");
    }
    if game.start_fen != STARTPOS_FEN || game.variant == Variant::Fischerandom {
        tag("SetUp", "1");
        tag("FEN", &game.start_fen);
    }
    tag("GameDuration", &hms(game.duration_us / 1000));
    let plies = game.book_san.len() + game.moves.len();
    tag("PlyCount", &plies.to_string());
    tag("Termination", game.termination.class());
    tag("TimeControl", &game.time_control);
    out.push('\n');

    let (number, black_first) = start_numbering(game);
    let mut tokens: Vec<String> = Vec::with_capacity(plies);
    let book = game
        .book_san
        .iter()
        .map(|san| (san.clone(), "book".to_string()));
    let played = game.moves.iter().map(|m| {
        let score = m
            .score
            .map_or_else(|| "0.00".to_string(), |s| s.to_string());
        let depth = m.depth.unwrap_or(0);
        (
            m.san.clone(),
            format!("{score}/{depth} {}", seconds(m.time_ms)),
        )
    });
    for (i, (san, mut note)) in book.chain(played).enumerate() {
        if i + 1 == plies && !game.reason.is_empty() {
            note = format!("{note}, {}", game.reason);
        }
        let ply = i + usize::from(black_first);
        let prefix = if ply % 2 == 0 {
            format!("{}. ", number + ply / 2)
        } else if i == 0 {
            format!("{number}... ")
        } else {
            String::new()
        };
        tokens.push(format!("{prefix}{san} {{{}}}", comment(&note)));
    }
    tokens.push(game.result.pgn().to_string());

    let mut line_len = 0;
    for t in tokens {
        if line_len > 0 && line_len + 1 + t.len() > LINE_LENGTH {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += t.len();
        out += &t;
    }
    out += "\n\n";
    out
}

/// The full move number of the first move and whether Black moves first.
fn start_numbering(game: &GameRecord) -> (usize, bool) {
    let opening = Opening {
        fen: Some(game.start_fen.clone()),
        moves: Vec::new(),
    };
    match opening.play_in(game.variant.castling_mode()) {
        Ok(p) => {
            let pos: &Chess = &p.start;
            (pos.fullmoves().get() as usize, pos.turn() == Color::Black)
        }
        Err(_) => (1, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameResult, MoveRecord, Score, Termination};
    use std::time::Duration;

    fn record(start_fen: &str, book: &[&str], moves: &[&str], result: GameResult) -> GameRecord {
        GameRecord {
            white: "A".into(),
            black: "B \"quoted\"".into(),
            opening: Opening::default(),
            start_fen: start_fen.into(),
            book_san: book.iter().map(|s| s.to_string()).collect(),
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, s)| MoveRecord {
                    uci: String::new(),
                    san: s.to_string(),
                    score: (i % 2 == 0).then_some(Score::Cp(31)),
                    depth: Some(12),
                    nodes: None,
                    time_ms: 45,
                })
                .collect(),
            result,
            termination: Termination::Checkmate,
            reason: "Black mates".into(),
            detail: None,
            time_control: "8+0.08".into(),
            started: UNIX_EPOCH + Duration::from_secs(1_700_000_000),
            duration_us: 3_723_000_000,
            engine_time_us: [0, 0],
            variant: Variant::Standard,
        }
    }

    #[test]
    fn tags_and_movetext() {
        let g = record(
            STARTPOS_FEN,
            &["f3", "e5"],
            &["g4", "Qh4#"],
            GameResult::BlackWins,
        );
        let pgn = to_pgn(&g, "Test", 7);
        assert!(pgn.contains("[Date \"2023.11.14\"]"), "{pgn}");
        assert!(pgn.contains("[Round \"7\"]"));
        assert!(pgn.contains("[Black \"B \\\"quoted\\\"\"]"));
        assert!(pgn.contains("[Result \"0-1\"]"));
        assert!(!pgn.contains("[FEN"));
        assert!(pgn.contains("[GameDuration \"01:02:03\"]"));
        assert!(pgn.contains("[PlyCount \"4\"]"));
        assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
        assert!(pgn.contains(", Black mates}"), "{pgn}");
        assert!(pgn.contains("[TimeControl \"8+0.08\"]"));
        assert!(pgn.replace('\n', " ").contains(
            "1. f3 {book} e5 {book} 2. g4 {+0.31/12 0.045s} Qh4# {0.00/12 0.045s, Black mates} 0-1"
        ));
    }

    #[test]
    fn black_to_move_fen_numbering() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30";
        let g = record(fen, &[], &["Kd7", "e4"], GameResult::Draw);
        let pgn = to_pgn(&g, "T", 1);
        assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]"));
        assert!(pgn.contains("30... Kd7 {+0.31/12 0.045s} 31. e4"), "{pgn}");
        assert!(pgn.trim_end().ends_with("1/2-1/2"));
    }

    #[test]
    fn lines_are_wrapped() {
        let moves = ["Nf3", "Nf6", "Ng1", "Ng8"].repeat(10);
        let g = record(STARTPOS_FEN, &[], &moves, GameResult::Draw);
        let pgn = to_pgn(&g, "T", 1);
        let body = pgn.split("\n\n").nth(1).unwrap_or("");
        assert!(body.lines().count() > 3);
        assert!(body.lines().all(|l| l.len() <= LINE_LENGTH), "{body}");
    }
}
