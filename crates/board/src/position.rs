//! `Position`: shakmaty's `Chess` with an incrementally kept Zobrist key and the key history
//! for repetition detection. Copy-make: each move plays on a copy kept on an internal stack.

use shakmaty::{
    zobrist::{Zobrist64, ZobristValue},
    CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, MoveList, Position as _,
};

use crate::{fen::FenError, parse_fen, PieceChanges};

/// A game position plus everything the search needs to play and unplay moves quickly.
#[derive(Clone, Debug)]
pub struct Position {
    current: Chess,
    key: u64,
    /// Earlier positions, oldest first, with their keys (for unplaying).
    stack: Vec<(Chess, u64)>,
    /// Keys of every earlier position of the game, oldest first, parallel to `stack` plus the
    /// game's moves before the root (`played`).
    keys: Vec<u64>,
    /// Number of entries of `keys` that belong to the game before the search root.
    root: usize,
    /// How castling is written in UCI: `e1g1` (standard) or king-takes-rook (`UCI_Chess960`).
    mode: CastlingMode,
    /// Indices into `keys` of the positions a null move was played from, oldest first.
    nulls: Vec<usize>,
}

impl Default for Position {
    fn default() -> Self {
        Position::from_chess(Chess::default())
    }
}

/// The key change of the pieces `m` moves, places and removes for `us` (the side to move), and
/// of the side to move: everything of the key after `m` but castling rights and en passant.
#[inline]
fn pieces_and_turn_delta(us: Color, m: &Move) -> u64 {
    let changes = PieceChanges::of(us, m);
    changes
        .removed()
        .iter()
        .chain(changes.added())
        .fold(Zobrist64::zobrist_for_white_turn().0, |k, &(piece, sq)| {
            k ^ Zobrist64::zobrist_for_piece(sq, piece).0
        })
}

/// The key of `next`, the position after `m`, updated from `key`, the key of `prev`.
fn key_after(prev: &Chess, key: u64, next: &Chess, m: &Move) -> u64 {
    let mut k = key ^ pieces_and_turn_delta(prev.turn(), m);
    if let Some(ep) = prev.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(ep.file()).0;
    }
    let (before, after) = (prev.castles(), next.castles());
    if before.castling_rights() != after.castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if before.has(color, side) != after.has(color, side) {
                    k ^= Zobrist64::zobrist_for_castling_right(color, side).0;
                }
            }
        }
    }
    if next.maybe_ep_square().is_some() {
        if let Some(ep) = next.ep_square(EnPassantMode::Legal) {
            k ^= Zobrist64::zobrist_for_en_passant_file(ep.file()).0;
        }
    }
    k
}

impl Position {
    /// The key of the position after `m`, as far as the pieces and the side to move make it:
    /// exact unless `m` changes castling rights or an en-passant square stands before or after
    /// it. Cheap, for prefetching the TT entry of the child before the move is made.
    #[inline]
    pub fn key_hint(&self, m: &Move) -> u64 {
        self.key ^ pieces_and_turn_delta(self.current.turn(), m)
    }

    /// The standard start position.
    pub fn startpos() -> Position {
        Position::default()
    }

    /// Wraps a shakmaty position (its key computed from scratch).
    pub fn from_chess(chess: Chess) -> Position {
        let key = full_key(&chess);
        Position {
            current: chess,
            key,
            stack: Vec::with_capacity(256),
            keys: Vec::with_capacity(512),
            root: 0,
            mode: CastlingMode::Standard,
            nulls: Vec::new(),
        }
    }

    /// Parses a FEN (move counters optional); the error names the bad field.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        parse_fen(fen).map(Position::from_chess)
    }

    /// Parses a FEN in a castling mode (`Chess960`: X-FEN or Shredder-FEN castling rights, and
    /// castling written king-takes-rook).
    pub fn from_fen_in(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
        let mut pos = crate::parse_fen_in(fen, mode).map(Position::from_chess)?;
        pos.mode = mode;
        Ok(pos)
    }

    /// The same position with castling written in `mode` from now on.
    pub fn with_castling_mode(mut self, mode: CastlingMode) -> Position {
        self.mode = mode;
        self
    }

    /// The shakmaty position.
    #[inline]
    pub fn chess(&self) -> &Chess {
        &self.current
    }

    /// The Zobrist key (shakmaty's `Zobrist64` values, en passant only when legal).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.current.turn()
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.current.is_check()
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.current.legal_moves()
    }

    /// Plies played since the search root (`set_root`).
    #[inline]
    pub fn ply_from_root(&self) -> usize {
        self.keys.len() - self.root
    }

    /// FEN of the current position.
    pub fn fen(&self) -> String {
        shakmaty::fen::Fen::from_position(&self.current, EnPassantMode::Legal).to_string()
    }

    /// Plays a legal move (copy-make). The caller guarantees legality.
    #[inline]
    pub fn play(&mut self, m: &Move) {
        // One copy: the position as it was goes onto the stack, the move is made in place.
        let key = self.key;
        self.stack.push((self.current.clone(), key));
        self.current.play_unchecked(*m);
        let prev = &self.stack[self.stack.len() - 1].0;
        self.key = key_after(prev, key, &self.current, m);
        self.keys.push(key);
    }

    /// Plays a game move before the search starts; it becomes part of the history that
    /// threefold repetition looks at, not of the search tree.
    pub fn play_game_move(&mut self, m: &Move) {
        self.play(m);
        self.stack.clear();
        self.nulls.clear();
        self.root = self.keys.len();
    }

    /// Marks the current position as the search root: repetitions after it count twice-fold.
    pub fn set_root(&mut self) {
        self.stack.clear();
        self.nulls.clear();
        self.root = self.keys.len();
    }

    /// Passes the move (null move). Not allowed in check; returns false (and does nothing) then.
    pub fn play_null(&mut self) -> bool {
        let Ok(next) = self.current.clone().swap_turn() else {
            return false;
        };
        let mut key = self.key ^ Zobrist64::zobrist_for_white_turn().0;
        if let Some(ep) = self.current.ep_square(EnPassantMode::Legal) {
            key ^= Zobrist64::zobrist_for_en_passant_file(ep.file()).0;
        }
        let prev = std::mem::replace(&mut self.current, next);
        self.nulls.push(self.keys.len());
        self.keys.push(self.key);
        self.stack.push((prev, self.key));
        self.key = key;
        true
    }

    /// Takes back the last `play` or `play_null`. Does nothing at the root.
    #[inline]
    pub fn undo(&mut self) {
        if let Some((prev, key)) = self.stack.pop() {
            self.current = prev;
            self.key = key;
            self.keys.pop();
            if self.nulls.last() == Some(&self.keys.len()) {
                self.nulls.pop();
            }
        }
    }

    /// The index in `keys` of the first position after the last null move (0 without one): the
    /// oldest a repetition may be looked for at. `keys[i]` of a null at `i` is the position
    /// before the pass.
    fn first_after_null(&self) -> usize {
        self.nulls.last().map_or(0, |&i| i + 1)
    }

    /// Draw by repetition as a search sees it: the position occurred before inside the search
    /// tree (twofold), or twice before in the game history (threefold). Positions before the
    /// last null move are not looked at: a line through a pass repeats nothing (Stockfish's
    /// `pliesFromNull`).
    pub fn is_repetition(&self) -> bool {
        let halfmoves = self.current.halfmoves() as usize;
        let n = self.keys.len();
        let limit = halfmoves.min(n - self.first_after_null());
        let mut seen_before_root = 0;
        let mut back = 4;
        while back <= limit {
            let idx = n - back;
            if self.keys[idx] == self.key {
                if idx >= self.root {
                    return true;
                }
                seen_before_root += 1;
                if seen_before_root >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// Whether the side to move has a reversible move that repeats a position of the search
    /// tree after the root (Stockfish's `has_game_cycle` through the cuckoo tables; positions
    /// at or before the root, and before a null move, are not looked at). A search may score
    /// such a node at least a draw.
    pub fn has_upcoming_repetition(&self) -> bool {
        let n = self.keys.len();
        // The oldest index to look at: after the last null move, within the fifty-move count,
        // and strictly after the root.
        let oldest = self
            .first_after_null()
            .max(n.saturating_sub(self.current.halfmoves() as usize))
            .max(self.root + 1);
        if n < oldest + 3 {
            return false;
        }
        let occupied = self.current.board().occupied();
        let mut idx = n - 3;
        loop {
            if let Some((s1, s2)) = crate::cuckoo::CUCKOO.lookup(self.key ^ self.keys[idx]) {
                if (shakmaty::attacks::between(s1, s2) & occupied).is_empty() {
                    return true;
                }
            }
            if idx < oldest + 2 {
                return false;
            }
            idx -= 2;
        }
    }

    /// How often the current position occurred before in the whole game (for threefold).
    pub fn repetition_count(&self) -> usize {
        let halfmoves = self.current.halfmoves() as usize;
        let n = self.keys.len();
        (1..=halfmoves.min(n))
            .filter(|back| back % 2 == 0 && self.keys[n - back] == self.key)
            .count()
    }

    /// Draw by the fifty-move rule (a mate on the hundredth half-move still wins) or by
    /// insufficient material.
    pub fn is_rule_draw(&self) -> bool {
        (self.current.halfmoves() >= 100 && !self.current.is_checkmate())
            || self.current.is_insufficient_material()
    }
}

/// The key computed from scratch (what `Position` keeps incrementally).
pub fn full_key(chess: &Chess) -> u64 {
    chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

impl Position {
    /// Plays UCI text as a game move; errors name the move when it is unparsable or illegal.
    pub fn play_uci_game_move(&mut self, text: &str) -> Result<(), String> {
        let uci = shakmaty::uci::UciMove::from_ascii(text.as_bytes())
            .map_err(|_| format!("unparsable move \"{text}\""))?;
        let m = uci
            .to_move(&self.current)
            .map_err(|_| format!("illegal move \"{text}\" in {}", self.fen()))?;
        self.play_game_move(&m);
        Ok(())
    }

    /// The key computed from scratch, for tests of the incremental update.
    pub fn recomputed_key(&self) -> u64 {
        full_key(&self.current)
    }

    /// How castling is written in UCI for this position.
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }
}
