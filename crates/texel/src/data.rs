//! Training positions with game results: from PGN files (arena's games, or any standard PGN
//! with a `Result` tag and an optional `FEN` tag for the opening) and from EPD lines that carry
//! a result (`FEN [1.0]`, `FEN [0.5]`, `FEN c9 "1-0";`).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Read;
use std::ops::ControlFlow;

use clio_board::shakmaty::{Chess, Color, KnownOutcome, Outcome, Position as _};
use clio_board::{parse_epd, parse_fen};
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};

/// A position and the result of its game for White: 1 (win), 0.5 (draw) or 0 (loss).
#[derive(Debug, Clone)]
pub struct Sample {
    /// The position.
    pub pos: Chess,
    /// The game's result for White.
    pub result: f64,
    /// The score the engine that reached this position gave it, for White, in centipawns (from
    /// the move's PGN comment, `{+1.05/9 0.074s}`), when there is one.
    pub score: Option<f64>,
    /// Which game (or EPD line) it comes from, counted from 0 across all inputs.
    pub game: usize,
    /// Which opening it comes from: a hash of the game's `FEN` tag, so that the two games of a
    /// pair (one opening, colours swapped) can be kept on the same side of a held-out split;
    /// the game's number when there is no tag.
    pub opening: u64,
}

/// Why data could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file could not be read.
    #[error("reading {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// An EPD line has no position or no result.
    #[error("{path}:{line}: {message}: {text:?}")]
    Epd {
        /// The file.
        path: String,
        /// The line number, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
        /// The line.
        text: String,
    },
}

/// Counts of what a read took and left.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// PGN games with a result that were read.
    pub games: usize,
    /// PGN games skipped: no result (`*`), a bad `FEN` tag or an illegal move (their positions
    /// up to the bad move are kept).
    pub skipped_games: usize,
    /// EPD lines read (each one position with its result).
    pub epd_lines: usize,
}

impl ReadStats {
    /// A sample's group number before an opening key is known: one per PGN game or EPD line.
    fn next_group(&self) -> usize {
        self.games + self.skipped_games + self.epd_lines
    }

    /// What was read, for the summary and the weights file's comment: `"38624 games"`,
    /// `"1574278 EPD positions"` or both.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.games > 0 || self.epd_lines == 0 {
            parts.push(format!("{} games", self.games));
        }
        if self.epd_lines > 0 {
            parts.push(format!("{} EPD positions", self.epd_lines));
        }
        parts.join(" and ")
    }
}

/// The result for White of a finished game.
fn white_score(outcome: Outcome) -> Option<f64> {
    match outcome.known()? {
        KnownOutcome::Decisive {
            winner: Color::White,
        } => Some(1.0),
        KnownOutcome::Decisive {
            winner: Color::Black,
        } => Some(0.0),
        KnownOutcome::Draw => Some(0.5),
    }
}

/// The tag section of one game.
#[derive(Default)]
struct Tags {
    start: Option<Chess>,
    opening: Option<u64>,
    result: Option<f64>,
    bad_fen: bool,
}

/// The movetext of one game as it is replayed.
struct Game {
    pos: Chess,
    opening: Option<u64>,
    ply: usize,
    positions: Vec<(Chess, Option<f64>)>,
    result: Option<f64>,
    broken: bool,
}

/// Centipawns a mate score counts as (far into the sigmoid's flat part).
const MATE_CP: f64 = 2000.0;

/// The score at the start of a PGN move comment as fastchess and cutechess write it
/// (`+1.05/9 0.074s`, `-M3/12 …`), in centipawns for the side that moved.
fn comment_score(comment: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(comment).ok()?.trim_start();
    let token = text.split(['/', ' ']).next()?;
    let (sign, rest) = match token.as_bytes().first()? {
        b'-' => (-1.0, &token[1..]),
        b'+' => (1.0, &token[1..]),
        _ => (1.0, token),
    };
    if let Some(moves) = rest.strip_prefix('M') {
        moves.parse::<u32>().ok()?;
        return Some(sign * MATE_CP);
    }
    rest.parse::<f64>()
        .ok()
        .map(|pawns| sign * (pawns * 100.0).round())
}

/// What a game gives: its positions (with their comment scores), result and opening.
struct Kept {
    positions: Vec<(Chess, Option<f64>)>,
    result: f64,
    opening: Option<u64>,
}

/// A pgn-reader visitor that replays each game and keeps the positions after `skip_plies`.
struct Collector {
    skip_plies: usize,
}

impl Visitor for Collector {
    type Tags = Tags;
    type Movetext = Game;
    type Output = Option<Kept>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        match name {
            b"FEN" => {
                let fen = value.decode_utf8_lossy();
                match parse_fen(&fen) {
                    Ok(pos) => tags.start = Some(pos),
                    Err(_) => tags.bad_fen = true,
                }
                tags.opening = Some(opening_key(&fen));
            }
            b"Result" => {
                tags.result = Outcome::from_ascii(value.as_bytes())
                    .ok()
                    .and_then(white_score);
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Game> {
        if tags.bad_fen {
            return ControlFlow::Break(None);
        }
        ControlFlow::Continue(Game {
            pos: tags.start.unwrap_or_default(),
            opening: tags.opening,
            ply: 0,
            positions: Vec::new(),
            result: tags.result,
            broken: false,
        })
    }

    fn san(&mut self, game: &mut Game, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(&game.pos) {
            Ok(m) => {
                game.pos.play_unchecked(m);
                game.ply += 1;
                if game.ply > self.skip_plies {
                    game.positions.push((game.pos.clone(), None));
                }
                ControlFlow::Continue(())
            }
            Err(_) => {
                game.broken = true;
                ControlFlow::Break(None)
            }
        }
    }

    fn comment(&mut self, game: &mut Game, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        // A comment after the move that reached the last position kept scores it.
        if game.ply > self.skip_plies {
            if let Some((pos, score @ None)) = game.positions.last_mut() {
                let mover = !pos.turn();
                *score = comment_score(comment.as_bytes()).map(|s| mover.fold_wb(s, -s));
            }
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut Game, outcome: Outcome) -> ControlFlow<Self::Output> {
        // The tag decides; the movetext's termination marker is the fallback.
        game.result = game.result.or_else(|| white_score(outcome));
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Game) -> Self::Output {
        match (game.broken, game.result) {
            (false, Some(result)) => Some(Kept {
                positions: game.positions,
                result,
                opening: game.opening,
            }),
            _ => None,
        }
    }
}

/// Reads every game of a PGN and appends, for each game with a result, the positions after
/// its first `skip_plies` moves (the moves from the `FEN` tag's position, if any, else from the
/// start). `path` names the input in errors.
pub fn read_pgn(
    input: impl Read,
    path: &str,
    skip_plies: usize,
    samples: &mut Vec<Sample>,
    stats: &mut ReadStats,
) -> Result<(), DataError> {
    let mut reader = Reader::new(input);
    let mut collector = Collector { skip_plies };
    let io = |source| DataError::Io {
        path: path.to_string(),
        source,
    };
    while let Some(game) = reader.read_game(&mut collector).map_err(io)? {
        let Some(Kept {
            positions,
            result,
            opening,
        }) = game
        else {
            stats.skipped_games += 1;
            continue;
        };
        let id = stats.next_group();
        samples.extend(positions.into_iter().map(|(pos, score)| Sample {
            pos,
            result,
            score,
            game: id,
            opening: opening.unwrap_or(id as u64),
        }));
        stats.games += 1;
    }
    Ok(())
}

/// The key of an opening named by `text` (a game's `FEN` tag, an EPD line's `id`): samples
/// with one key are held out together.
fn opening_key(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.trim().trim_matches('"').hash(&mut hasher);
    hasher.finish()
}

/// The result an EPD line's operations carry: `[1.0]`/`[0.5]`/`[0.0]` (also `[1]`, `[0]`,
/// `[1/2]`) or a quoted PGN result in the `c9` operation (`c9 "1-0";`, wherever it stands
/// among the operations).
fn epd_result(ops: &str) -> Option<f64> {
    if let Some(inside) = ops.split('[').nth(1).and_then(|s| s.split(']').next()) {
        return match inside.trim() {
            "1/2" => Some(0.5),
            t => t.parse::<f64>().ok().filter(|r| (0.0..=1.0).contains(r)),
        };
    }
    let quoted = epd_op(ops, "c9")?.trim_matches('"');
    Outcome::from_ascii(quoted.trim().as_bytes())
        .ok()
        .and_then(white_score)
}

/// The operand of the EPD operation `opcode` in `ops` (`ce 35; id "x";` gives `35` for `ce`).
fn epd_op<'a>(ops: &'a str, opcode: &str) -> Option<&'a str> {
    ops.split(';').find_map(|op| {
        let (code, operand) = op.trim().split_once(char::is_whitespace)?;
        (code == opcode).then(|| operand.trim())
    })
}

/// Reads EPD lines with results (blank lines and lines starting with `#` are skipped), counted
/// in [`ReadStats::epd_lines`]. A `ce` operation (a centipawn evaluation for the side to move, as
/// EPD defines it) is the line's search score, blended into the target as a PGN comment's is;
/// an `id` operation names the opening, so that lines sharing it are held out together.
pub fn read_epd(
    text: &str,
    path: &str,
    samples: &mut Vec<Sample>,
    stats: &mut ReadStats,
) -> Result<(), DataError> {
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: String| DataError::Epd {
            path: path.to_string(),
            line: n + 1,
            message,
            text: line.to_string(),
        };
        let (pos, ops) = parse_epd(line).map_err(|e| bad(e.to_string()))?;
        let result = epd_result(&ops).ok_or_else(|| bad("no result".to_string()))?;
        // `ce` is from the side to move's point of view; samples keep White's.
        let score = match epd_op(&ops, "ce") {
            Some(text) => {
                let cp: f64 = text
                    .parse::<i32>()
                    .map_err(|_| bad(format!("ce {text:?} is not a whole number of centipawns")))?
                    .into();
                Some(pos.turn().fold_wb(cp, -cp))
            }
            None => None,
        };
        let game = stats.next_group();
        let opening = epd_op(&ops, "id").map_or(game as u64, opening_key);
        samples.push(Sample {
            pos,
            result,
            score,
            game,
            opening,
        });
        stats.epd_lines += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_move_comment_scores_as_fastchess_writes_them() {
        assert_eq!(comment_score(b"+1.05/9 0.074s"), Some(105.0));
        assert_eq!(comment_score(b"-0.48/9 0.025s"), Some(-48.0));
        assert_eq!(comment_score(b"0.00/12 0.1s"), Some(0.0));
        assert_eq!(comment_score(b"-M3/12 0.01s"), Some(-MATE_CP));
        assert_eq!(comment_score(b"book"), None);
    }

    #[test]
    fn reads_epd_results_in_both_notations() {
        let text = "\
# a comment
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - [1.0]
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [0.5]
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"0-1\";

rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1/2-1/2\";
";
        let (mut samples, mut stats) = (Vec::new(), ReadStats::default());
        read_epd(text, "t.epd", &mut samples, &mut stats).expect("valid EPD");
        let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
        assert_eq!(results, [1.0, 0.5, 0.0, 0.5]);
        assert_eq!((stats.games, stats.epd_lines), (0, 4));
        assert_eq!(stats.describe(), "4 EPD positions");
    }

    #[test]
    fn reads_epd_evaluations_for_the_side_to_move_and_groups_lines_by_id() {
        let text = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 \"1-0\"; ce -35; id \"a\";
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - c9 \"1-0\"; ce 20; id \"a\";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"b\"; c9 \"1/2-1/2\";
";
        let (mut samples, mut stats) = (Vec::new(), ReadStats::default());
        read_epd(text, "t.epd", &mut samples, &mut stats).expect("valid EPD");
        // Black to move at -35 is White +35.
        let scores: Vec<Option<f64>> = samples.iter().map(|s| s.score).collect();
        assert_eq!(scores, [Some(35.0), Some(20.0), None]);
        // The result is read from `c9` wherever it stands, not from the first quoted operand.
        let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
        assert_eq!(results, [1.0, 1.0, 0.5]);
        assert_eq!(samples[0].opening, samples[1].opening);
        assert_ne!(samples[0].opening, samples[2].opening);
        let bad = "8/8/4k3/8/8/3K4/8/8 w - - c9 \"1/2-1/2\"; ce x1;";
        let err =
            read_epd(bad, "t.epd", &mut Vec::new(), &mut ReadStats::default()).expect_err("bad ce");
        assert!(err.to_string().starts_with("t.epd:1: ce \"x1\""), "{err}");
    }

    #[test]
    fn an_epd_line_without_result_is_an_error_naming_the_line() {
        let text = "8/8/4k3/8/8/3K4/8/8 w - - bm Kd4;";
        let err = read_epd(text, "t.epd", &mut Vec::new(), &mut ReadStats::default())
            .expect_err("no result");
        assert!(err.to_string().starts_with("t.epd:1: no result"), "{err}");
    }
}
