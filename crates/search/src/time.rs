//! Time management: a soft limit (no new iteration starts after it) and a hard limit (the
//! search stops at once), from the UCI clock fields, always leaving `Move Overhead` unused. On a
//! clock the soft limit is scaled after each iteration by the best move's stability and the
//! score's trend ([`soft_percent`]).

use clio_board::shakmaty::Color;

use crate::Limits;

/// Moves assumed to remain when `movestogo` is absent (sudden death or increment): the
/// default of the `TmMovesToGo` tunable.
pub const DEFAULT_MOVES_TO_GO: u64 = 25;

/// Smallest limit ever set, so a search always completes at least a little work.
pub const MIN_LIMIT_MS: u64 = 1;

/// The time a search may use, in milliseconds; `None` means unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeBudget {
    /// Do not start another iteration after this.
    pub soft_ms: Option<u64>,
    /// Stop searching at this point.
    pub hard_ms: Option<u64>,
}

/// Iterations with the same best move after which the soft limit is scaled the least.
pub const STABLE_ITERATIONS: i32 = 4;

/// The percentage of the soft limit to use after an iteration: `unstable` when the best move
/// just changed, falling linearly to `stable` once it has stayed best for
/// [`STABLE_ITERATIONS`] iterations (`iterations` is how many it has), then raised by
/// `score_drop` percent when given (the score fell since the previous iteration).
pub fn soft_percent(unstable: i32, stable: i32, iterations: i32, score_drop: Option<i32>) -> i32 {
    let n = iterations.clamp(0, STABLE_ITERATIONS);
    let pct = unstable - (unstable - stable) * n / STABLE_ITERATIONS;
    pct + score_drop.map_or(0, |d| pct * d / 100)
}

/// The percentage of the soft limit to use given the share of the root's nodes spent below the
/// best move (`best_nodes` of `nodes`): `base - mul * share`, at least [`MIN_NODE_PERCENT`]. A
/// best move that took most of the effort has little competition, so less time is needed.
pub fn node_percent(base: i32, mul: i32, best_nodes: u64, nodes: u64) -> i32 {
    let share = i64::from(mul) * best_nodes.min(nodes) as i64 / nodes.max(1) as i64;
    (i64::from(base) - share).max(i64::from(MIN_NODE_PERCENT)) as i32
}

/// The least [`node_percent`] gives.
pub const MIN_NODE_PERCENT: i32 = 50;

impl TimeBudget {
    /// The soft limit scaled by `percent` on a clock; under `movetime` (soft = hard) it stays
    /// as it is, and without a limit there is none.
    pub fn scaled_soft(&self, percent: i32) -> Option<u64> {
        let soft = self.soft_ms?;
        match self.hard_ms {
            Some(hard) if soft < hard => Some(soft * percent.max(0) as u64 / 100),
            _ => Some(soft),
        }
    }
}

/// Budget for the side `us` under `limits`, planning for `default_mtg` more moves when the
/// clock gives no `movestogo`.
///
/// `movetime`: hard = soft = movetime − overhead. Clock: with `time` left after the overhead
/// and `mtg` moves to go (`default_mtg` without `movestogo`), soft = min(time/mtg + 3/4·inc,
/// time/8) and hard = min(4·soft, time/4) (or 3/4·time when mtg = 1), soft ≤ hard, both at
/// least 1 ms. The `time/8` cap keeps a reserve: on a short clock a move never costs more than
/// an eighth of what is left, so the clock settles near 8× the increment instead of draining to
/// zero (with soft = time/mtg + 3/4·inc alone, any overshoot of the limit makes each move cost
/// more than the increment gives back). `infinite`, or no clock and no movetime: unbounded.
pub fn budget(limits: &Limits, us: Color, default_mtg: u64) -> TimeBudget {
    if limits.infinite {
        return TimeBudget::default();
    }
    let overhead = limits.move_overhead_ms;
    if let Some(mt) = limits.movetime_ms {
        let t = mt.saturating_sub(overhead).max(MIN_LIMIT_MS);
        return TimeBudget {
            soft_ms: Some(t),
            hard_ms: Some(t),
        };
    }
    let (time, inc) = match us {
        Color::White => (limits.wtime_ms, limits.winc_ms),
        Color::Black => (limits.btime_ms, limits.binc_ms),
    };
    let Some(time) = time else {
        return TimeBudget::default();
    };
    let left = time.saturating_sub(overhead);
    let mtg = limits
        .movestogo
        .map_or(default_mtg.max(1), |m| u64::from(m.max(1)));
    // The increment counts only when it can be spent: never more than what is left.
    let soft = (left / mtg + inc * 3 / 4).min(left / 8);
    let cap = if mtg == 1 { left * 3 / 4 } else { left / 4 };
    let hard = cap.min(soft * 4).max(MIN_LIMIT_MS);
    TimeBudget {
        soft_ms: Some(soft.min(hard).max(MIN_LIMIT_MS)),
        hard_ms: Some(hard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_limit_scales_with_stability_and_score_drops() {
        // 150 % just after a change, 70 % after four stable iterations, linear between.
        assert_eq!(soft_percent(150, 70, 0, None), 150);
        assert_eq!(soft_percent(150, 70, 2, None), 110);
        assert_eq!(soft_percent(150, 70, 4, None), 70);
        assert_eq!(soft_percent(150, 70, 9, None), 70);
        // A score drop adds 25 % of that: 130 + 32.
        assert_eq!(soft_percent(150, 70, 1, Some(25)), 162);
        // Node share (Ethereal's 2.4 - 2·share, at least 0.5): 90 % of the nodes below the best
        // move gives 60 %, a quarter 190 %, all of them the floor of 50 %.
        assert_eq!(node_percent(240, 200, 900, 1000), 60);
        assert_eq!(node_percent(240, 200, 250, 1000), 190);
        assert_eq!(node_percent(240, 200, 1000, 1000), 50);
        assert_eq!(node_percent(240, 200, 0, 0), 240);
        let clock = TimeBudget {
            soft_ms: Some(100),
            hard_ms: Some(400),
        };
        assert_eq!(clock.scaled_soft(150), Some(150));
        assert_eq!(clock.scaled_soft(70), Some(70));
        // `movetime`: soft = hard, never scaled; no limit: none.
        let fixed = TimeBudget {
            soft_ms: Some(90),
            hard_ms: Some(90),
        };
        assert_eq!(fixed.scaled_soft(150), Some(90));
        assert_eq!(TimeBudget::default().scaled_soft(150), None);
    }

    #[test]
    fn clock_budgets() {
        let l = Limits {
            wtime_ms: Some(60_000),
            btime_ms: Some(1_000),
            winc_ms: 1_000,
            move_overhead_ms: 10,
            ..Limits::default()
        };
        // White: left 59990, soft min(59990/25 + 750, 7498) = 3149, hard min(14997, 12596).
        assert_eq!(
            budget(&l, Color::White, DEFAULT_MOVES_TO_GO),
            TimeBudget {
                soft_ms: Some(3149),
                hard_ms: Some(12596)
            }
        );
        // `TmMovesToGo` 20 plans for fewer moves: soft 59990/20 + 750 = 3749, hard
        // min(14997, 14996); a `movestogo` from the GUI still wins over it.
        assert_eq!(
            budget(&l, Color::White, 20),
            TimeBudget {
                soft_ms: Some(3749),
                hard_ms: Some(14996)
            }
        );
        let with_mtg = Limits {
            movestogo: Some(25),
            ..l.clone()
        };
        assert_eq!(
            budget(&with_mtg, Color::White, 20),
            budget(&l, Color::White, DEFAULT_MOVES_TO_GO)
        );
        // Black, 1 s, no increment: left 990, soft min(39, 123) = 39, hard min(247, 156) = 156.
        assert_eq!(
            budget(&l, Color::Black, DEFAULT_MOVES_TO_GO),
            TimeBudget {
                soft_ms: Some(39),
                hard_ms: Some(156)
            }
        );
        // A short clock with increment keeps a reserve: 100 ms left (90 after the overhead) and
        // 20 ms increment: soft min(3 + 15, 11) = 11, hard min(22, 44) = 22, below the increment.
        let short = Limits {
            wtime_ms: Some(100),
            winc_ms: 20,
            move_overhead_ms: 10,
            ..Limits::default()
        };
        assert_eq!(
            budget(&short, Color::White, DEFAULT_MOVES_TO_GO),
            TimeBudget {
                soft_ms: Some(11),
                hard_ms: Some(22)
            }
        );
        // Less time than the overhead: 1 ms limits, never a negative budget.
        let tiny = Limits {
            wtime_ms: Some(5),
            move_overhead_ms: 10,
            ..Limits::default()
        };
        assert_eq!(
            budget(&tiny, Color::White, DEFAULT_MOVES_TO_GO).hard_ms,
            Some(MIN_LIMIT_MS)
        );
        // Huge increment with little time left: never more than a quarter of what is left.
        let inc = Limits {
            wtime_ms: Some(1_000),
            winc_ms: 5_000,
            ..Limits::default()
        };
        let b = budget(&inc, Color::White, DEFAULT_MOVES_TO_GO);
        assert!(b.hard_ms <= Some(250) && b.soft_ms <= b.hard_ms, "{b:?}");
        let mt = Limits {
            movetime_ms: Some(100),
            move_overhead_ms: 10,
            ..Limits::default()
        };
        assert_eq!(
            budget(&mt, Color::Black, DEFAULT_MOVES_TO_GO).hard_ms,
            Some(90)
        );
        assert_eq!(
            budget(&Limits::default(), Color::White, DEFAULT_MOVES_TO_GO),
            TimeBudget::default()
        );
    }
}
