//! Where a game starts: an opening (FEN and book moves) checked and played out by shakmaty,
//! and the one FEN writer of the arena.

use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::GameError;

/// Where a game starts: a FEN (`None`: the standard start position) and book moves in UCI.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// Start FEN; `None` is the standard position.
    pub fen: Option<String>,
    /// Book moves played from it before the engines take over.
    pub moves: Vec<String>,
}

/// An opening checked and played out.
#[derive(Debug, Clone)]
pub struct PlayedOpening {
    /// The start position (before book moves).
    pub start: Chess,
    /// Its FEN.
    pub start_fen: String,
    /// The position after the book moves.
    pub position: Chess,
    /// The book moves in UCI, normalised.
    pub uci: Vec<String>,
    /// The book moves in SAN.
    pub san: Vec<String>,
    /// Hashes of the start position and of every position after a book move.
    pub hashes: Vec<Zobrist64>,
}

/// FEN of a position (en passant square only when a capture is possible).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

pub(super) fn hash_of(pos: &Chess) -> Zobrist64 {
    pos.zobrist_hash(EnPassantMode::Legal)
}

/// Parses a UCI move and checks it is legal in `pos`.
pub fn parse_uci_move(pos: &Chess, text: &str) -> Option<shakmaty::Move> {
    UciMove::from_ascii(text.trim().as_bytes())
        .ok()?
        .to_move(pos)
        .ok()
}

impl Opening {
    /// The standard start position with no book moves.
    pub fn startpos() -> Opening {
        Opening::default()
    }

    /// Checks the FEN and plays the book moves in standard chess; the error names the bad FEN
    /// or move.
    pub fn play(&self) -> Result<PlayedOpening, GameError> {
        self.play_in(CastlingMode::Standard)
    }

    /// The same in a castling mode (`Chess960`: any back-rank setup, castling king-takes-rook).
    pub fn play_in(&self, mode: CastlingMode) -> Result<PlayedOpening, GameError> {
        let start: Chess = match &self.fen {
            None => Chess::default(),
            Some(f) => {
                let fen_err = |reason: String| GameError::Fen {
                    fen: f.clone(),
                    reason,
                };
                let fen =
                    Fen::from_ascii(f.trim().as_bytes()).map_err(|e| fen_err(e.to_string()))?;
                fen.into_position(mode)
                    .map_err(|e| fen_err(e.to_string()))?
            }
        };
        let mut position = start.clone();
        let mut hashes = vec![hash_of(&position)];
        let (mut uci, mut san) = (Vec::new(), Vec::new());
        for mv in &self.moves {
            let m = parse_uci_move(&position, mv).ok_or_else(|| GameError::OpeningMove {
                mv: mv.clone(),
                fen: fen_of(&position),
            })?;
            uci.push(m.to_uci(mode).to_string());
            san.push(SanPlus::from_move_and_play_unchecked(&mut position, m).to_string());
            hashes.push(hash_of(&position));
        }
        Ok(PlayedOpening {
            start_fen: fen_of(&start),
            start,
            position,
            uci,
            san,
            hashes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_openings_are_named() {
        let e = Opening {
            fen: Some("not a fen".into()),
            moves: vec![],
        }
        .play()
        .unwrap_err();
        assert!(e.to_string().contains("not a fen"), "{e}");
        let e = Opening {
            fen: None,
            moves: vec!["e2e4".into(), "e2e4".into()],
        }
        .play()
        .unwrap_err();
        assert!(
            matches!(&e, GameError::OpeningMove { mv, .. } if mv == "e2e4"),
            "{e}"
        );
        // Castling given king-takes-rook style is normalised to standard UCI.
        let p = Opening {
            fen: Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".into()),
            moves: vec!["e1h1".into()],
        }
        .play()
        .unwrap();
        assert_eq!(p.uci, vec!["e1g1"]);
        assert_eq!(p.san, vec!["O-O"]);
    }
}
