//! From a parsed `go` to the search's limits. Only `go infinite` searches until `stop` (and
//! `go ponder` until `ponderhit` or `stop`): a `go` whose limits cannot bound the search gets a
//! safe one instead, named in a note. A clock for the other side only reads ours as 0 ms, as
//! Stockfish does (it answers at once); a `go` with no usable limit at all (none given, or
//! every one malformed) searches `SAFE_MOVETIME_MS`.

use clio_board::shakmaty::Color;
use clio_search::Limits;

use crate::input::Go;

/// How long a `go` without any usable limit searches, in milliseconds.
pub const SAFE_MOVETIME_MS: u64 = 1_000;

/// The limits of `go` with `us` to move, and a note when a safe limit was put in.
pub fn limits(go: &Go, us: Color, move_overhead_ms: u64) -> (Limits, Option<String>) {
    let mut limits = Limits {
        depth: go.depth.or(go.mate.map(|m| m.saturating_mul(2))),
        nodes: go.nodes,
        movetime_ms: go.movetime,
        wtime_ms: go.wtime,
        btime_ms: go.btime,
        winc_ms: go.winc.unwrap_or(0),
        binc_ms: go.binc.unwrap_or(0),
        movestogo: go.movestogo,
        infinite: go.infinite,
        move_overhead_ms,
        multipv: 1,
        searchmoves: None,
    };
    let (ours, field, side) = match us {
        Color::White => (&mut limits.wtime_ms, "wtime", "white"),
        Color::Black => (&mut limits.btime_ms, "btime", "black"),
    };
    let bounded = go.infinite
        || ours.is_some()
        || go.depth.is_some()
        || go.mate.is_some()
        || go.nodes.is_some()
        || go.movetime.is_some();
    if bounded {
        return (limits, None);
    }
    let any_clock = [go.wtime, go.btime, go.winc, go.binc]
        .iter()
        .any(Option::is_some)
        || go.movestogo.is_some();
    let note = if any_clock {
        *ours = Some(0);
        format!("go: no {field} for {side} to move; searching as with 0 ms left")
    } else {
        limits.movetime_ms = Some(SAFE_MOVETIME_MS);
        format!(
            "go: no usable limit; searching {SAFE_MOVETIME_MS} ms (go infinite searches until stop)"
        )
    };
    (limits, Some(note))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(f: impl FnOnce(&mut Go)) -> Go {
        let mut g = Go::default();
        f(&mut g);
        g
    }

    #[test]
    fn usable_limits_pass_unchanged() {
        for g in [
            go(|g| g.infinite = true),
            go(|g| g.depth = Some(3)),
            go(|g| g.mate = Some(2)),
            go(|g| g.nodes = Some(1000)),
            go(|g| g.movetime = Some(50)),
            go(|g| g.wtime = Some(1000)),
        ] {
            let (l, note) = limits(&g, Color::White, 10);
            assert_eq!(note, None, "{g:?}");
            assert_eq!((l.wtime_ms, l.movetime_ms), (g.wtime, g.movetime));
        }
        assert_eq!(
            limits(&go(|g| g.mate = Some(3)), Color::White, 0).0.depth,
            Some(6)
        );
    }

    #[test]
    fn the_other_sides_clock_alone_reads_ours_as_zero() {
        let (l, note) = limits(&go(|g| g.btime = Some(10)), Color::White, 10);
        assert_eq!((l.wtime_ms, l.btime_ms), (Some(0), Some(10)));
        assert!(note.is_some_and(|n| n.contains("wtime")));
        let (l, note) = limits(&go(|g| g.winc = Some(100)), Color::Black, 10);
        assert_eq!(l.btime_ms, Some(0));
        assert!(note.is_some_and(|n| n.contains("btime")));
    }

    #[test]
    fn no_usable_limit_gets_the_safe_movetime() {
        for g in [Go::default(), go(|g| g.ponder = true)] {
            let (l, note) = limits(&g, Color::Black, 10);
            assert_eq!(l.movetime_ms, Some(SAFE_MOVETIME_MS), "{g:?}");
            assert!(!l.infinite && note.is_some());
        }
    }
}
