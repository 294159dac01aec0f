//! FEN and EPD parsing that reports which field is wrong, never panics.

use shakmaty::{
    fen::{Epd, Fen, ParseFenError},
    CastlingMode, Chess, PositionError,
};
use thiserror::Error;

/// Why a FEN or EPD string could not be turned into a legal position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// The text is not FEN syntax; the message names the field that failed.
    #[error("invalid FEN \"{fen}\": {field}")]
    Syntax {
        /// The offending input, as given.
        fen: String,
        /// Which field failed and how.
        field: String,
    },
    /// The text is FEN syntax but the position it describes is not a legal chess position.
    #[error("invalid FEN \"{fen}\": illegal position ({reason})")]
    Illegal {
        /// The offending input, as given.
        fen: String,
        /// shakmaty's account of what is wrong.
        reason: String,
    },
}

fn field_message(fen: &str, err: ParseFenError) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let (index, name) = match err {
        ParseFenError::InvalidBoard => (0, "piece placement"),
        ParseFenError::InvalidTurn => (1, "side to move"),
        ParseFenError::InvalidCastling => (2, "castling rights"),
        ParseFenError::InvalidEpSquare => (3, "en passant square"),
        ParseFenError::InvalidHalfmoveClock => (4, "halfmove clock"),
        ParseFenError::InvalidFullmoves => (5, "fullmove number"),
        _ => return "not a FEN (expected 4 to 6 space-separated fields)".to_string(),
    };
    match fields.get(index) {
        Some(value) => {
            let detail = if index == 0 {
                board_detail(value)
            } else {
                String::new()
            };
            format!("bad {name} field \"{value}\"{detail}")
        }
        None => format!("missing {name} field"),
    }
}

/// For a bad piece-placement field, says which rank is wrong (ranks counted 8 down to 1).
fn board_detail(board: &str) -> String {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return format!(": {} ranks, expected 8", ranks.len());
    }
    for (i, rank) in ranks.iter().enumerate() {
        let mut files = 0u32;
        for c in rank.chars() {
            match c {
                '1'..='8' => files += c as u32 - '0' as u32,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => files += 1,
                _ => return format!(": unknown piece '{c}' in rank {}", 8 - i),
            }
        }
        if files != 8 {
            return format!(": {files} files in rank {}", 8 - i);
        }
    }
    String::new()
}

fn illegal<P>(fen: &str, err: PositionError<P>) -> FenError {
    FenError::Illegal {
        fen: fen.to_string(),
        reason: err.to_string(),
    }
}

/// Parses a FEN (the halfmove and fullmove fields may be left out, as many GUIs and EPD books
/// do) into a legal standard-chess position.
pub fn parse_fen(fen: &str) -> Result<Chess, FenError> {
    parse_fen_in(fen, CastlingMode::Standard)
}

/// Parses a FEN in a castling mode: `Chess960` also takes X-FEN and Shredder-FEN castling
/// rights (`KQkq` for the outermost rooks, or the rooks' files, `HFhf`) with the king and rooks
/// anywhere on the back rank.
pub fn parse_fen_in(fen: &str, mode: CastlingMode) -> Result<Chess, FenError> {
    let text = fen.trim();
    let parsed = Fen::from_ascii(text.as_bytes()).map_err(|e| FenError::Syntax {
        fen: text.to_string(),
        field: field_message(text, e),
    })?;
    parsed.into_position(mode).map_err(|e| illegal(text, e))
}

/// Parses an EPD line: the four position fields, then any operations (`bm …;`, `c0 "…";`),
/// which are returned as the text after the fourth field.
pub fn parse_epd(line: &str) -> Result<(Chess, String), FenError> {
    let text = line.trim();
    let mut fields = text.splitn(5, char::is_whitespace);
    let head: Vec<&str> = fields.by_ref().take(4).collect();
    let ops = fields.next().unwrap_or("").trim().to_string();
    let head = head.join(" ");
    let parsed = Epd::from_ascii(head.as_bytes()).map_err(|e| FenError::Syntax {
        fen: text.to_string(),
        field: field_message(&head, e),
    })?;
    let pos = parsed
        .into_position(CastlingMode::Standard)
        .map_err(|e| illegal(text, e))?;
    Ok((pos, ops))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_fen_without_move_counters() {
        assert!(parse_fen("8/8/8/4k3/8/8/8/4K3 w - -").is_ok());
    }

    #[test]
    fn names_the_bad_field() {
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                "side to move",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
                "castling",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                "en passant",
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "rank 6",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "7 ranks",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                "halfmove",
            ),
        ];
        for (fen, needle) in cases {
            let err = parse_fen(fen).expect_err(fen).to_string();
            assert!(err.contains(needle), "{err:?} should mention {needle:?}");
            assert!(err.contains(fen.split(' ').next().unwrap_or_default()));
        }
    }

    #[test]
    fn refuses_illegal_positions() {
        // Two white kings; side not to move in check.
        for fen in [
            "8/8/8/4k3/8/8/8/3KK3 w - - 0 1",
            "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            assert!(
                matches!(parse_fen(fen), Err(FenError::Illegal { .. })),
                "{fen}"
            );
        }
    }

    #[test]
    fn epd_keeps_operations() {
        let (_, ops) = parse_epd("4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id \"x\";").unwrap();
        assert_eq!(ops, "bm O-O; id \"x\";");
        assert!(parse_epd("").is_err());
        assert!(parse_epd("garbage").is_err());
    }
}
