//! One side's clock, counted the way fastchess and cutechess count it.

use super::Limits;

/// One side's clock, fastchess's way: it starts at base + increment; a move that takes longer
/// than what is left plus the margin forfeits; otherwise what is left (not below 0) gets the
/// increment, and a completed period of `moves` moves adds the base again.
#[derive(Debug, Clone, Copy)]
pub(super) struct Clock {
    /// Time left, ms (negative past the flag, within the margin).
    pub left_ms: i64,
    /// Moves left in the period, with moves per period.
    pub moves_left: Option<u32>,
}

impl Clock {
    /// A clock at the start of a game.
    pub fn new(limits: &Limits) -> Clock {
        match (limits.tc, limits.movetime_ms) {
            (Some(tc), _) => Clock {
                left_ms: (tc.base_ms + tc.inc_ms) as i64,
                moves_left: tc.moves,
            },
            (None, Some(mt)) => Clock {
                left_ms: mt as i64,
                moves_left: None,
            },
            (None, None) => Clock {
                left_ms: 0,
                moves_left: None,
            },
        }
    }

    /// Charges a move; `Err(overrun)` if it came later than the time left plus the margin.
    pub fn charge(&mut self, limits: &Limits, elapsed_ms: u64) -> Result<(), u64> {
        if limits.tc.is_none() && limits.movetime_ms.is_none() {
            return Ok(());
        }
        let left = self.left_ms - elapsed_ms as i64;
        if left < -(i64::try_from(limits.margin_ms).unwrap_or(i64::MAX)) {
            return Err(left.unsigned_abs());
        }
        match (limits.tc, limits.movetime_ms) {
            (Some(tc), _) => {
                self.left_ms = left.max(0) + tc.inc_ms as i64;
                if let (Some(per), Some(n)) = (tc.moves, self.moves_left) {
                    if n <= 1 {
                        self.moves_left = Some(per);
                        self.left_ms += tc.base_ms as i64;
                    } else {
                        self.moves_left = Some(n - 1);
                    }
                }
            }
            (None, Some(mt)) => self.left_ms = mt as i64,
            (None, None) => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc_limits(tc: &str, margin_ms: u64) -> Limits {
        Limits {
            tc: Some(tc.parse().unwrap()),
            margin_ms,
            ..Limits::default()
        }
    }

    #[test]
    fn clock_counts_like_fastchess() {
        let l = tc_limits("1+0.1", 0);
        let mut c = Clock::new(&l);
        assert_eq!(c.left_ms, 1100);
        assert_eq!(c.charge(&l, 600), Ok(()));
        assert_eq!(c.left_ms, 600);
        assert_eq!(c.charge(&l, 637), Err(37));
        // Within the margin the move stands and the clock restarts from zero plus increment.
        let l = tc_limits("1+0.1", 50);
        let mut c = Clock::new(&l);
        assert_eq!(c.charge(&l, 1130), Ok(()));
        assert_eq!(c.left_ms, 100);
        assert_eq!(c.charge(&l, 151), Err(51));
    }

    #[test]
    fn clock_with_moves_per_period_adds_the_base_again() {
        let l = tc_limits("2/1", 0);
        let mut c = Clock::new(&l);
        assert_eq!(c.moves_left, Some(2));
        assert_eq!(c.charge(&l, 400), Ok(()));
        assert_eq!((c.left_ms, c.moves_left), (600, Some(1)));
        assert_eq!(c.charge(&l, 500), Ok(()));
        assert_eq!((c.left_ms, c.moves_left), (1100, Some(2)));
    }

    #[test]
    fn movetime_is_a_fixed_clock() {
        let l = Limits {
            movetime_ms: Some(100),
            margin_ms: 10,
            ..Limits::default()
        };
        let mut c = Clock::new(&l);
        assert_eq!(c.charge(&l, 105), Ok(()));
        assert_eq!(c.left_ms, 100);
        assert_eq!(c.charge(&l, 111), Err(11));
        let none = Limits::default();
        assert_eq!(Clock::new(&none).charge(&none, 1_000_000), Ok(()));
    }
}
