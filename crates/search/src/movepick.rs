//! Staged move picker: TT move, good captures (SEE ≥ threshold, by MVV + capture history),
//! killers, countermove, quiets by history, bad captures. The noisy moves are generated after
//! the TT move and the quiets after the good captures, so a cutoff by the TT move costs no
//! generation and one by a good capture no quiet generation.

use arrayvec::ArrayVec;
use clio_board::shakmaty::{attacks, Chess, Move, MoveList, Position as _, Role};
use clio_board::{
    noisy_moves, partition_noisy, piece_index, quiet_moves, see_ge, see_value, Move16,
};

use crate::eval::{checks_on, pawn_attacks};
use crate::history::{ContRefs, Histories, PieceTo};
use crate::params::Params;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    Generate,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    ScoreQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// What the picker knows about the node besides the position.
#[derive(Clone, Copy, Default, Debug)]
pub struct PickerHints {
    /// The TT move (may be stale or illegal: it is checked).
    pub tt_move: Move16,
    /// The killers of this ply.
    pub killers: [Move16; 2],
    /// The countermove of the previous move.
    pub counter: Move16,
    /// Continuation sub-tables for quiet scores.
    pub conts: ContRefs,
}

pub use clio_board::is_noisy;

/// `(piece, to)` index of a move in `pos` (castling: the king to the rook's square).
#[inline]
pub fn piece_to(pos: &Chess, m: &Move) -> PieceTo {
    let piece = clio_board::shakmaty::Piece {
        color: pos.turn(),
        role: m.role(),
    };
    piece_index(piece) * 64 + Move16::new(m).to_sq() as usize
}

/// Role index (0..6) of the captured piece, for capture history (en passant: pawn).
#[inline]
pub fn captured_index(m: &Move) -> usize {
    m.capture().map_or(0, |r| r as usize - 1)
}

/// What a quiet's ordering bonus needs of its node: the squares the opponent's pawns, minors
/// and pawns, and rooks, minors and pawns attack, and the squares that check the enemy king.
struct QuietOrder {
    /// `[by pawns, by minors or pawns, by rooks, minors or pawns]`.
    threatened_by: [u64; 3],
    /// Squares from which a knight, bishop, rook or queen gives check.
    check_squares: [u64; 4],
}

impl QuietOrder {
    fn of(pos: &Chess) -> QuietOrder {
        let board = pos.board();
        let occupied = board.occupied();
        let them = board.by_color(!pos.turn());
        let by_pawn = pawn_attacks(!pos.turn(), (board.pawns() & them).0);
        let mut by_minor = by_pawn;
        for sq in board.knights() & them {
            by_minor |= attacks::knight_attacks(sq).0;
        }
        for sq in board.bishops() & them {
            by_minor |= attacks::bishop_attacks(sq, occupied).0;
        }
        let mut by_rook = by_minor;
        for sq in board.rooks() & them {
            by_rook |= attacks::rook_attacks(sq, occupied).0;
        }
        QuietOrder {
            threatened_by: [by_pawn, by_minor, by_rook],
            check_squares: board
                .king_of(!pos.turn())
                .map_or([0; 4], |k| checks_on(k, occupied)),
        }
    }

    /// The ordering bonus of the quiet `m`: its piece's value for leaving a square a cheaper
    /// enemy piece attacks for one none does, minus it for the opposite, plus the check bonus
    /// for a direct check.
    fn bonus(&self, m: &Move, p: &Params) -> i32 {
        let (Some(from), to) = (m.from(), m.to()) else {
            return 0;
        };
        // Knight, bishop, rook, queen: the threats that count against each and its value.
        let i = match m.role() {
            Role::Knight => 0,
            Role::Bishop => 1,
            Role::Rook => 2,
            Role::Queen => 3,
            _ => return 0,
        };
        let threats = self.threatened_by[[0, 0, 1, 2][i]];
        let value = [
            p.threat_order_minor,
            p.threat_order_minor,
            p.threat_order_rook,
            p.threat_order_queen,
        ][i];
        let (from, to) = (1u64 << from as u32, 1u64 << to as u32);
        let threat = match (threats & from != 0, threats & to != 0) {
            (true, false) => value,
            (false, true) => -value,
            _ => 0,
        };
        threat
            + if self.check_squares[i] & to != 0 {
                p.check_order_bonus
            } else {
                0
            }
    }
}

/// The staged picker of one node.
pub struct MovePicker {
    stage: Stage,
    hints: PickerHints,
    noisy_only: bool,
    skip_quiets: bool,
    moves: MoveList,
    /// Ordering scores, parallel to `moves` as far as they are scored (noisy moves at
    /// generation, quiets when their stage comes).
    scores: ArrayVec<i32, 256>,
    /// Noisy moves occupy `[0, noisy_end)`, quiets `[noisy_end, len)`.
    noisy_end: usize,
    /// The quiets as [`Move16`]s, `quiet16[i - noisy_end]` for `moves[i]` (packed once: the
    /// killers' and countermove's searches, the scores and the yielded check read them).
    quiet16: ArrayVec<Move16, 256>,
    /// Whether the quiets have been generated (with the noisy moves in check, else after the
    /// good captures).
    quiets_generated: bool,
    cur: usize,
    /// Bad captures are moved to `[0, bad_end)` as the good-capture stage meets them.
    bad_end: usize,
    /// Special moves already yielded (TT move, killers, counter), skipped later.
    yielded: [Move16; 4],
    n_yielded: usize,
}

impl MovePicker {
    /// A picker for a main-search node.
    pub fn new(hints: PickerHints) -> Self {
        MovePicker {
            stage: Stage::TtMove,
            hints,
            noisy_only: false,
            skip_quiets: false,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            noisy_end: 0,
            quiet16: ArrayVec::new(),
            quiets_generated: false,
            cur: 0,
            bad_end: 0,
            yielded: [Move16::NONE; 4],
            n_yielded: 0,
        }
    }

    /// A quiescence picker: noisy moves only (TT move if noisy), or every move when in check.
    pub fn new_qsearch(tt_move: Move16, in_check: bool) -> Self {
        let mut p = MovePicker::new(PickerHints {
            tt_move,
            ..PickerHints::default()
        });
        p.noisy_only = !in_check;
        p.skip_quiets = !in_check;
        p
    }

    /// Stops yielding quiet moves (late move pruning); captures still come.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    fn already_yielded(&self, m: Move16) -> bool {
        self.yielded[..self.n_yielded].contains(&m)
    }

    fn mark(&mut self, m: Move16) {
        self.yielded[self.n_yielded] = m;
        self.n_yielded += 1;
    }

    /// A special (killer or counter) quiet: yielded if it is among the generated quiets.
    fn special_quiet(&mut self, m: Move16) -> Option<Move> {
        if m.is_none() || self.skip_quiets || self.already_yielded(m) {
            return None;
        }
        let i = self.quiet16.iter().position(|&q| q == m)?;
        let found = self.moves[self.noisy_end + i];
        self.mark(m);
        Some(found)
    }

    /// The next move in order, or `None` when every legal move has been yielded.
    pub fn next(&mut self, pos: &Chess, hist: &Histories, params: &Params) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    let tt = self.hints.tt_move;
                    if let Some(m) = tt.to_move(pos) {
                        if !self.noisy_only || is_noisy(&m) {
                            self.mark(tt);
                            return Some(m);
                        }
                    }
                }
                Stage::Generate => {
                    self.generate(pos, hist, params);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if let Some(i) = self.best_in(self.cur, self.noisy_end) {
                        self.moves.swap(self.cur, i);
                        self.scores.swap(self.cur, i);
                        let m = self.moves[self.cur];
                        if self.already_yielded(Move16::new(&m)) {
                            self.cur += 1;
                            continue;
                        }
                        if !self.noisy_only && !see_ge(pos, &m, params.good_capture_see) {
                            self.moves.swap(self.bad_end, self.cur);
                            self.scores.swap(self.bad_end, self.cur);
                            self.bad_end += 1;
                            self.cur += 1;
                            continue;
                        }
                        self.cur += 1;
                        return Some(m);
                    }
                    if !self.quiets_generated {
                        self.generate_quiets(pos);
                    }
                    self.stage = if self.noisy_only {
                        Stage::ScoreQuiets
                    } else {
                        Stage::Killer1
                    };
                }
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    if params.use_killers {
                        if let Some(m) = self.special_quiet(self.hints.killers[0]) {
                            return Some(m);
                        }
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    if params.use_killers {
                        if let Some(m) = self.special_quiet(self.hints.killers[1]) {
                            return Some(m);
                        }
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::ScoreQuiets;
                    if params.use_countermove {
                        if let Some(m) = self.special_quiet(self.hints.counter) {
                            return Some(m);
                        }
                    }
                }
                Stage::ScoreQuiets => {
                    self.cur = self.noisy_end;
                    if !self.skip_quiets {
                        self.score_quiets(pos, hist, params);
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if !self.skip_quiets {
                        if let Some(i) = self.best_in(self.cur, self.moves.len()) {
                            self.moves.swap(self.cur, i);
                            self.scores.swap(self.cur, i);
                            let q = self.cur - self.noisy_end;
                            self.quiet16.swap(q, i - self.noisy_end);
                            let m = self.moves[self.cur];
                            self.cur += 1;
                            if self.already_yielded(self.quiet16[q]) {
                                continue;
                            }
                            return Some(m);
                        }
                    }
                    self.cur = 0;
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.cur < self.bad_end {
                        let m = self.moves[self.cur];
                        self.cur += 1;
                        if self.already_yielded(Move16::new(&m)) {
                            continue;
                        }
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Index of the highest score in `[from, to)` (first of equals), if any.
    #[inline]
    fn best_in(&self, from: usize, to: usize) -> Option<usize> {
        if from >= to {
            return None;
        }
        let mut best = from;
        for i in from + 1..to {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        Some(best)
    }

    /// Scores the quiets by history and, with `UseThreatOrder`, threats and checks.
    ///
    /// Kept out of line, as [`Self::generate`] is: inlined into `next`, their setup was hoisted
    /// to its entry and paid on every move yielded.
    #[inline(never)]
    fn score_quiets(&mut self, pos: &Chess, hist: &Histories, params: &Params) {
        let side = usize::from(pos.turn().is_black());
        let order = params.use_threat_order.then(|| QuietOrder::of(pos));
        debug_assert_eq!(self.scores.len(), self.noisy_end);
        let rows = hist.quiet_rows(params, side, &self.hints.conts);
        for (m, &m16) in self.moves[self.noisy_end..].iter().zip(&self.quiet16) {
            let pt = piece_to(pos, m);
            self.scores.push(
                rows.score(m16, pt)
                    + rows.low_ply_score(pt)
                    + order.as_ref().map_or(0, |o| o.bonus(m, params)),
            );
        }
    }

    /// Generates the legal noisy moves and scores them; in check, every evasion, the noisy
    /// ones first (quiets follow in [`Self::generate_quiets`] otherwise, once the good
    /// captures are done, so a capture that cuts the node spares the quiets' generation).
    #[inline(never)]
    fn generate(&mut self, pos: &Chess, hist: &Histories, params: &Params) {
        if pos.checkers().any() {
            // Copied by length: assigning the list would copy all 256 slots.
            self.moves.clear();
            self.moves
                .try_extend_from_slice(&pos.legal_moves())
                .expect("a move list fits a move list");
            self.noisy_end = partition_noisy(&mut self.moves);
            self.quiets_generated = true;
        } else {
            noisy_moves(pos, &mut self.moves);
            self.noisy_end = self.moves.len();
        }
        if self.noisy_only {
            self.moves.truncate(self.noisy_end);
        }
        self.pack_quiets();
        self.scores.clear();
        for m in &self.moves[..self.noisy_end] {
            let victim = m.capture().map_or(0, see_value)
                + m.promotion()
                    .map_or(0, |r| see_value(r) - see_value(Role::Pawn));
            self.scores.push(hist.capture_score(
                params,
                piece_to(pos, m),
                captured_index(m),
                victim,
                see_value(m.role()),
            ));
        }
        self.cur = 0;
    }

    /// Appends the quiets after the noisy moves, in the order one generation of every legal
    /// move, noisy ones first, would leave them (ties in the quiet scores go to the first):
    /// `quiet_moves` generates them alone, in the order `partition_noisy` leaves them.
    #[inline(never)]
    fn generate_quiets(&mut self, pos: &Chess) {
        self.quiets_generated = true;
        if self.skip_quiets || self.noisy_only {
            return;
        }
        debug_assert_eq!(self.moves.len(), self.noisy_end);
        quiet_moves(pos, &mut self.moves);
        self.pack_quiets();
    }

    /// Packs the quiets (`moves[noisy_end..]`) into `quiet16`.
    #[inline]
    fn pack_quiets(&mut self) {
        self.quiet16.clear();
        self.quiet16
            .extend(self.moves[self.noisy_end..].iter().map(Move16::new));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{LOW_PLY, PAWN_HIST_ROWS};
    use clio_board::shakmaty::Square;
    use clio_board::{parse_fen, Position};
    use rand::{rngs::StdRng, Rng, SeedableRng};

    /// Fills every table with random entries so the orderings are arbitrary.
    fn random_histories(rng: &mut StdRng, p: &Params) -> Histories {
        let mut h = Histories::new();
        for _ in 0..20_000 {
            let m = Move16::from_raw(rng.gen::<u16>() & 0xfff);
            let pt = rng.gen_range(0..768);
            let conts = ContRefs {
                plies: [Some((rng.gen_range(0..768), 1024)), None, None, None],
                ply3: None,
                pawn: Some(rng.gen_range(0..PAWN_HIST_ROWS)),
                threats: rng.gen(),
                low_ply: Some(rng.gen_range(0..LOW_PLY)),
            };
            h.update_quiets(
                p,
                rng.gen_range(0..2),
                rng.gen_range(1..12),
                (m, pt),
                &[(Move16::from_raw(rng.gen::<u16>() & 0xfff), pt ^ 1)],
                &conts,
            );
            h.update_captures(
                p,
                rng.gen_range(1..12),
                Some((pt, rng.gen_range(0..6))),
                &[],
            );
        }
        h
    }

    fn random_move16(rng: &mut StdRng, legal: &MoveList) -> Move16 {
        match rng.gen_range(0..4) {
            0 if !legal.is_empty() => Move16::new(&legal[rng.gen_range(0..legal.len())]),
            1 => Move16::NONE,
            _ => Move16::from_raw(rng.gen()),
        }
    }

    fn check_node(pos: &Chess, rng: &mut StdRng, h: &Histories, p: &Params) -> usize {
        let legal = pos.legal_moves();
        let hints = PickerHints {
            tt_move: random_move16(rng, &legal),
            killers: [random_move16(rng, &legal), random_move16(rng, &legal)],
            counter: random_move16(rng, &legal),
            conts: ContRefs {
                plies: [
                    Some((rng.gen_range(0..768), 1024)),
                    Some((rng.gen_range(0..768), 1024)),
                    None,
                    None,
                ],
                ply3: None,
                pawn: Some(rng.gen_range(0..PAWN_HIST_ROWS)),
                threats: rng.gen(),
                low_ply: Some(rng.gen_range(0..LOW_PLY)),
            },
        };
        let mut picker = MovePicker::new(hints);
        let mut seen = Vec::new();
        while let Some(m) = picker.next(pos, h, p) {
            assert!(!seen.contains(&m), "{m:?} yielded twice");
            seen.push(m);
        }
        assert_eq!(
            seen.len(),
            legal.len(),
            "{}",
            Position::from_chess(pos.clone()).fen()
        );
        assert!(legal.iter().all(|m| seen.contains(m)));
        // The quiescence picker yields exactly the noisy moves (every move in check).
        let mut q = MovePicker::new_qsearch(hints.tt_move, pos.is_check());
        let mut qseen = Vec::new();
        while let Some(m) = q.next(pos, h, p) {
            assert!(!qseen.contains(&m));
            qseen.push(m);
        }
        let want = legal
            .iter()
            .filter(|m| pos.is_check() || is_noisy(m))
            .count();
        assert_eq!(qseen.len(), want);
        seen.len()
    }

    fn walk(pos: &Chess, depth: u32, rng: &mut StdRng, h: &Histories, p: &Params) -> u64 {
        let n = check_node(pos, rng, h, p);
        if depth == 1 {
            return n as u64;
        }
        pos.legal_moves()
            .iter()
            .map(|m| {
                let mut next = pos.clone();
                next.play_unchecked(*m);
                walk(&next, depth - 1, rng, h, p)
            })
            .sum()
    }

    #[test]
    fn quiet_order_rewards_escapes_and_checks_and_punishes_walking_into_a_pawn() {
        // The knight on e4 stands attacked by the pawn on d5; c4 is the pawn's other square.
        let pos = parse_fen("4k3/8/8/3p4/4N3/8/8/4KB2 w - - 0 1").expect("valid");
        let p = Params::default();
        let order = QuietOrder::of(&pos);
        let bonus = |from: Square, to: Square| {
            let m = pos
                .legal_moves()
                .into_iter()
                .find(|m| m.from() == Some(from) && m.to() == to)
                .expect("legal");
            order.bonus(&m, &p)
        };
        let (minor, check) = (p.threat_order_minor, p.check_order_bonus);
        assert_eq!(bonus(Square::E4, Square::G5), minor, "escape");
        assert_eq!(
            bonus(Square::E4, Square::F6),
            minor + check,
            "escape with check"
        );
        assert_eq!(
            bonus(Square::F1, Square::C4),
            -minor,
            "into the pawn's reach"
        );
        assert_eq!(bonus(Square::F1, Square::B5), check, "check");
        assert_eq!(bonus(Square::F1, Square::E2), 0, "nothing");
        assert_eq!(bonus(Square::E1, Square::D2), 0, "the king is not scored");
    }

    #[test]
    fn movepicker_perft_yields_every_legal_move_once() {
        let mut rng = StdRng::seed_from_u64(1992);
        let on = Params::default();
        let mut off = Params::default();
        off.all_history_off();
        let h = random_histories(&mut rng, &on);
        for line in include_str!("../../board/data/perft.epd").lines() {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or_default().trim();
            let pos = parse_fen(fen).expect("perft.epd is valid");
            let d3: u64 = parts
                .find_map(|f| f.trim().strip_prefix("D3 "))
                .and_then(|c| c.trim().parse().ok())
                .expect("a D3 count");
            for p in [&on, &off] {
                assert_eq!(walk(&pos, 3, &mut rng, &h, p), d3, "{fen}");
            }
        }
    }
}
