//! Quiescence search: stand pat, then captures and queen promotions (every evasion when in
//! check) with delta pruning, SEE pruning and move-count pruning (at most `QsMoveLimit`
//! captures, as Stockfish's quiescence search stops after its second move), so the leaves of
//! the main search are quiet.

use clio_board::shakmaty::Role;
use clio_board::{see_ge, see_value, Move16, Position};

use super::{Worker, INF, MATE, MATE_BOUND, MAX_PLY};
use crate::movepick::{is_noisy, MovePicker};
use crate::tt::Bound;

impl Worker<'_> {
    /// Quiescence search of `pos` at `ply` in the window `(alpha, beta)`.
    pub(super) fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        // Upcoming repetition: a move back to a position of the tree draws at least.
        if self.params.use_upcoming_rep && alpha < 0 && pos.has_upcoming_repetition() {
            alpha = 0;
            if alpha >= beta {
                return alpha;
            }
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        let key = pos.key();
        let tt_hit = self.tt.probe(key, ply);
        if let Some(h) = tt_hit {
            if match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
                Bound::None => false,
            } {
                return h.score;
            }
        }
        let p = self.params;
        let mut best = -INF;
        let mut static_eval = 0;
        let mut raw_eval = 0;
        if !in_check {
            raw_eval = match tt_hit {
                Some(h) => h.eval,
                None => self.evaluate(pos, ply),
            };
            let side = usize::from(pos.turn().is_black());
            static_eval = self.corrected_eval(pos, side, raw_eval).0;
            // The TT's score bounds the position better than the static eval when its bound
            // points the right way: stand pat on it (delta pruning keeps the static eval).
            let stand = match tt_hit {
                Some(h) if p.use_qs_tt_eval => h.refine(static_eval),
                _ => static_eval,
            };
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let orig_alpha = alpha;
        let tt_move = tt_hit.map_or(Move16::NONE, |h| h.mv);
        let mut picker = MovePicker::new_qsearch(tt_move, in_check);
        let mut best_move = Move16::NONE;
        let mut any = false;
        let futility_base = static_eval + p.qs_futility_margin;
        let mut searched = 0;
        while let Some(m) = picker.next(pos.chess(), self.hist, p) {
            self.tt.prefetch(pos.key_hint(&m));
            any = true;
            if best > -MATE_BOUND {
                if !in_check {
                    if searched >= p.qs_move_limit {
                        break;
                    }
                    // Delta pruning: even winning the victim cannot lift the score to alpha.
                    let gain = m.capture().map_or(0, see_value)
                        + m.promotion()
                            .map_or(0, |r| see_value(r) - see_value(Role::Pawn));
                    if futility_base + gain <= alpha {
                        best = best.max(futility_base + gain);
                        continue;
                    }
                    if !see_ge(pos.chess(), &m, p.qs_see_margin) {
                        continue;
                    }
                } else if !is_noisy(&m) {
                    // In check with a non-losing evasion found: skip the quiet evasions.
                    continue;
                }
            }
            searched += 1;
            self.play(pos, &m, ply);
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1);
            pos.undo();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Move16::new(&m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && !any {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, best, raw_eval, 0, bound, ply);
        best
    }
}
