//! The positions of a finished game as EPD for the evaluation tuner (`--epdout`, as fastchess's
//! `-epdout`): one line for the position after each move the engines played (not the opening's
//! own position, not its book moves), `FEN [R]` with the game's result `R` from White's point
//! of view, `1.0`, `0.5` or `0.0`: the form `texel` reads.

use shakmaty::{CastlingMode, Chess, Position};

use crate::game::{fen_of, parse_uci_move, GameRecord, GameResult, Opening};

/// A finished game whose moves do not replay from its opening (arena refereed every move, so
/// this is a bug, reported rather than written wrong).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {white} vs {black} does not replay for --epdout: {reason}")]
pub struct ReplayError {
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// What failed.
    pub reason: String,
}

/// The result as a score for White: `1.0`, `0.5` or `0.0`.
pub fn white_score(result: GameResult) -> &'static str {
    match result {
        GameResult::WhiteWins => "1.0",
        GameResult::Draw => "0.5",
        GameResult::BlackWins => "0.0",
    }
}

/// One EPD line: the position's full FEN (en passant square only when a capture is possible)
/// and the result, `FEN [R]`, ending with a newline.
pub fn epd_line(pos: &Chess, result: GameResult) -> String {
    format!("{} [{}]\n", fen_of(pos), white_score(result))
}

/// The lines of the positions reached by `moves` (UCI in the notation of `mode`, as the game
/// recorded them) after `opening` and its book moves, each with `result`. The error says which
/// move does not replay.
pub fn replay_lines<'a>(
    opening: &Opening,
    mode: CastlingMode,
    moves: impl IntoIterator<Item = &'a str>,
    result: GameResult,
) -> Result<String, String> {
    let mut pos = opening.play_in(mode).map_err(|e| e.to_string())?.position;
    let mut out = String::new();
    for (ply, text) in moves.into_iter().enumerate() {
        let Some(m) = parse_uci_move(&pos, text) else {
            return Err(format!(
                "move {} \"{text}\" is not legal in \"{}\"",
                ply + 1,
                fen_of(&pos)
            ));
        };
        pos.play_unchecked(m);
        out.push_str(&epd_line(&pos, result));
    }
    Ok(out)
}

/// The EPD lines of a finished game, in its variant's castling mode (Chess960 games replay
/// king-takes-rook from their own setup, so every FEN keeps the right castling rights).
pub fn game_lines(game: &GameRecord) -> Result<String, ReplayError> {
    let moves = game.moves.iter().map(|m| m.uci.as_str());
    replay_lines(
        &game.opening,
        game.variant.castling_mode(),
        moves,
        game.result,
    )
    .map_err(|reason| ReplayError {
        white: game.white.clone(),
        black: game.black.clone(),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    #[test]
    fn a_line_is_the_fen_and_whites_score() {
        let mut pos = Chess::default();
        let m = parse_uci_move(&pos, "e2e4").expect("legal");
        pos.play_unchecked(m);
        assert_eq!(
            epd_line(&pos, GameResult::WhiteWins),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 [1.0]\n"
        );
        assert!(epd_line(&pos, GameResult::Draw).ends_with(" [0.5]\n"));
        assert!(epd_line(&pos, GameResult::BlackWins).ends_with(" [0.0]\n"));
    }

    #[test]
    fn book_moves_are_left_out_and_a_bad_move_is_named() {
        let opening = Opening {
            fen: None,
            moves: vec!["e2e4".into(), "e7e5".into()],
        };
        let text = replay_lines(
            &opening,
            CastlingMode::Standard,
            ["g1f3", "b8c6"],
            GameResult::BlackWins,
        )
        .expect("legal moves");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 [0.0]",
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 [0.0]",
            ]
        );
        let err = replay_lines(
            &opening,
            CastlingMode::Standard,
            ["g1f3", "e1g1"],
            GameResult::Draw,
        )
        .expect_err("illegal");
        assert!(
            err.starts_with("move 2 \"e1g1\" is not legal in \"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/"),
            "{err}"
        );
    }

    #[test]
    fn chess960_castling_replays_in_its_own_mode() {
        let opening = Opening {
            fen: Some("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1".into()),
            moves: Vec::new(),
        };
        // King takes rook: castling in Chess960 notation, as the game recorded it.
        let text = replay_lines(
            &opening,
            CastlingMode::Chess960,
            ["e1g1", "e8b8"],
            GameResult::Draw,
        )
        .expect("legal in Chess960");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].starts_with("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b "),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with("2kr2r1/"), "{}", lines[1]);
        // Each FEN reads back as the same position in Chess960 mode, castling rights included.
        let fen = lines[0].trim_end_matches(" [0.5]");
        let pos: Chess = Fen::from_ascii(fen.as_bytes())
            .expect("FEN")
            .into_position(CastlingMode::Chess960)
            .expect("legal");
        assert_eq!(fen_of(&pos), fen);
        assert!(
            replay_lines(&opening, CastlingMode::Standard, ["e1g1"], GameResult::Draw).is_err()
        );
    }
}
