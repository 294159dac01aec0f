//! How long a search without a clock (a node or depth limit) may take before the engine counts
//! as stalled: 100 times the median move time of the run so far (at least 2 s, at most the
//! run's cap, 60 s unless `--stall-ms` fixes it), so a hang at 3000 nodes a move is caught in
//! seconds rather than a minute. Until 16 moves have been timed the cap applies.

use std::sync::Mutex;

/// Multiple of the median move time that counts as a stall.
pub const STALL_MEDIAN_FACTOR: u64 = 100;
/// The derived limit never goes below this (scheduling hiccups on a loaded machine).
pub const STALL_FLOOR_MS: u64 = 2_000;
/// Moves timed before the median is trusted.
const MIN_SAMPLES: u64 = 16;

/// Move times of clockless searches in this process, in a log-spaced histogram (1 ms bins up
/// to 64 ms, then coarser), enough for a median.
static TIMES: Mutex<[u64; 64]> = Mutex::new([0; 64]);

fn bin(ms: u64) -> usize {
    if ms < 32 {
        ms as usize
    } else {
        (32 + (63 - ms.leading_zeros() as usize - 5) * 4
            + ((ms >> (63 - ms.leading_zeros() - 2)) & 3) as usize)
            .min(63)
    }
}

fn bin_upper(b: usize) -> u64 {
    if b < 32 {
        b as u64 + 1
    } else {
        let k = (b - 32) / 4 + 5;
        let q = ((b - 32) % 4) as u64;
        (1u64 << k) + (q + 1) * (1u64 << (k - 2))
    }
}

/// Records the time one clockless move took.
pub fn record(ms: u64) {
    if let Ok(mut t) = TIMES.lock() {
        t[bin(ms)] += 1;
    }
}

/// The median move time so far (an upper bound of its bin), once enough moves were timed.
pub fn median_ms() -> Option<u64> {
    let t = TIMES.lock().ok()?;
    let n: u64 = t.iter().sum();
    if n < MIN_SAMPLES {
        return None;
    }
    let mut seen = 0;
    for (b, c) in t.iter().enumerate() {
        seen += c;
        if seen * 2 >= n {
            return Some(bin_upper(b));
        }
    }
    None
}

/// The stall limit for the next clockless move, capped at `cap_ms`.
pub fn limit_ms(cap_ms: u64) -> u64 {
    median_ms().map_or(cap_ms, |m| {
        (m * STALL_MEDIAN_FACTOR).clamp(STALL_FLOOR_MS.min(cap_ms), cap_ms)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_bound_their_times() {
        for ms in [0, 1, 5, 31, 32, 33, 47, 48, 64, 100, 1000, 59_999, 1 << 40] {
            let b = bin(ms);
            assert!(
                bin_upper(b) > ms || b == 63,
                "{ms} in bin {b} up to {}",
                bin_upper(b)
            );
            if b > 0 && b < 63 {
                assert!(bin_upper(b - 1) <= ms, "{ms}: bin {b} too high");
            }
        }
    }
}
