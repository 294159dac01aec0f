//! Transposition table: one 16-byte entry per slot, sized by the `Hash` option in MB, always
//! replacing unless the slot holds a deeper entry of the same position from this search.
//! Mate scores are stored relative to the node (`to_tt`/`from_tt`) so they stay correct at
//! another distance from the root.
//!
//! Shared by every search thread without locks (Lazy SMP): a slot is two atomic words, the
//! packed data and `key ^ data` (Hyatt and Mann's lockless hashing). A reader accepts a slot
//! only when the two words still XOR to its key, so an entry torn by a concurrent write reads
//! as a miss, never as another position's move or score.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use clio_board::Move16;

use crate::score::MATE_BOUND;

/// How the stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Nothing stored.
    None = 0,
    /// Score ≥ stored (fail high).
    Lower = 1,
    /// Score ≤ stored (fail low).
    Upper = 2,
    /// Exact score (PV node).
    Exact = 3,
}

/// A probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Best or refuting move (may be `NONE`).
    pub mv: Move16,
    /// Score, already adjusted to the probing ply.
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Search depth of the score.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

/// The fields of one slot, packed into one word.
#[derive(Clone, Copy, Default)]
struct Entry {
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bound in the low 2 bits, generation above.
    gen_bound: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.gen_bound) << 56
    }

    fn unpack(w: u64) -> Entry {
        Entry {
            mv: w as u16,
            score: (w >> 16) as u16 as i16,
            eval: (w >> 32) as u16 as i16,
            depth: (w >> 48) as u8,
            gen_bound: (w >> 56) as u8,
        }
    }
}

/// One slot: `check = key ^ data`, so a torn pair fails the key test.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry stored for `key`, if this slot holds it intact.
    #[inline]
    fn load(&self, key: u64) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (check ^ data == key && data != 0).then(|| Entry::unpack(data))
    }

    #[inline]
    fn save(&self, key: u64, e: Entry) {
        let data = e.pack();
        self.data.store(data, Ordering::Relaxed);
        self.check.store(key ^ data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.data.store(0, Ordering::Relaxed);
        self.check.store(0, Ordering::Relaxed);
    }
}

/// The transposition table, shared by reference between search threads.
pub struct Tt {
    slots: Vec<Slot>,
    generation: AtomicU8,
}

/// Why a table could not be allocated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {mb} MB hash table")]
pub struct TtAllocError {
    /// The size asked for.
    pub mb: usize,
}

/// Converts a search score into its stored form (mates counted from this node).
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a stored score back (mates counted from the root).
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Tt {
    /// A table of `mb` megabytes (at least one entry); aborts like any allocation if the memory
    /// cannot be had (see [`Tt::try_new`]).
    pub fn new(mb: usize) -> Tt {
        Tt::try_new(mb).unwrap_or_else(|_| std::alloc::handle_alloc_error(Self::layout(mb)))
    }

    /// A table of `mb` megabytes, or an error when the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<Tt, TtAllocError> {
        let n = Self::slots_for(mb);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(n)
            .map_err(|_| TtAllocError { mb })?;
        slots.resize_with(n, Slot::default);
        Ok(Tt {
            slots,
            generation: AtomicU8::new(0),
        })
    }

    fn slots_for(mb: usize) -> usize {
        (mb.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Slot>()).max(1)
    }

    fn layout(mb: usize) -> std::alloc::Layout {
        std::alloc::Layout::array::<Slot>(Self::slots_for(mb))
            .unwrap_or(std::alloc::Layout::new::<Slot>())
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for slot in &self.slots {
            slot.clear();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search (ages the entries).
    pub fn new_search(&mut self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[((u128::from(key) * self.slots.len() as u128) >> 64) as usize]
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let e = self.slot(key).load(key)?;
        let bound = match e.gen_bound & 3 {
            0 => return None,
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        Some(TtHit {
            mv: Move16::from_raw(e.mv),
            score: from_tt(i32::from(e.score), ply),
            eval: i32::from(e.eval),
            depth: i32::from(e.depth),
            bound,
        })
    }

    /// Stores a result; keeps the old move when the new one is `NONE` for the same position.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Move16,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let generation = self.generation();
        let slot = self.slot(key);
        let old = slot.load(key);
        if let Some(e) = old {
            if e.gen_bound >> 2 == generation
                && i32::from(e.depth) > depth + 2
                && bound != Bound::Exact
            {
                return;
            }
        }
        let mv = match old {
            Some(e) if mv.is_none() => Move16::from_raw(e.mv),
            _ => mv,
        };
        slot.save(
            key,
            Entry {
                mv: mv.raw(),
                score: to_tt(score, ply).clamp(-32000, 32000) as i16,
                eval: eval.clamp(-32000, 32000) as i16,
                depth: depth.clamp(0, 255) as u8,
                gen_bound: (generation << 2) | bound as u8,
            },
        );
    }

    /// Permille of the first 1000 slots holding an entry of this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let generation = self.generation();
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let g = (s.data.load(Ordering::Relaxed) >> 56) as u8;
                g & 3 != 0 && g >> 2 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_probes_and_adjusts_mates() {
        let tt = &mut Tt::new(1);
        let m = Move16::from_raw(12 | 28 << 6);
        let mate_in_3_from_root = crate::score::MATE - 5;
        // Stored at ply 2, it is a mate in 3 plies from that node; probed at ply 4 it is
        // 2 plies further from the root.
        tt.store(42, m, mate_in_3_from_root, 10, 5, Bound::Exact, 2);
        let hit = tt.probe(42, 4).expect("stored");
        assert_eq!(hit.mv, m);
        assert_eq!(hit.score, mate_in_3_from_root - 2);
        assert_eq!((hit.eval, hit.depth, hit.bound), (10, 5, Bound::Exact));
        assert_eq!(tt.probe(43, 0), None);
        tt.store(42, Move16::NONE, -7, 1, 6, Bound::Upper, 0);
        assert_eq!(tt.probe(42, 0).map(|h| (h.mv, h.score)), Some((m, -7)));
        tt.clear();
        assert_eq!(tt.probe(42, 0), None);
    }

    /// Threads writing and reading one small table at once: every hit carries the fields
    /// written for its own key (a torn slot reads as a miss, never as another key's entry).
    #[test]
    fn concurrent_writes_never_yield_another_keys_entry() {
        let small = Tt {
            slots: (0..64).map(|_| Slot::default()).collect(),
            generation: AtomicU8::new(0),
        };
        let expected = |key: u64| Move16::from_raw((key % 4093) as u16 + 1);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let small = &small;
                scope.spawn(move || {
                    let mut hits = 0;
                    let mut x = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(t + 1);
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // 256 keys over 64 slots: threads overwrite each other's slots.
                        let key = (x % 256).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                        small.store(
                            key,
                            expected(key),
                            (key % 500) as i32,
                            0,
                            3,
                            Bound::Lower,
                            0,
                        );
                        let probe =
                            (x.rotate_left(17) % 256).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                        if let Some(hit) = small.probe(probe, 0) {
                            assert_eq!(hit.mv, expected(probe));
                            assert_eq!(hit.score, (probe % 500) as i32);
                            hits += 1;
                        }
                    }
                    assert!(hits > 10_000, "only {hits} probes hit");
                });
            }
        });
    }

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        assert_eq!(
            Tt::try_new(usize::MAX / 2).err(),
            Some(TtAllocError { mb: usize::MAX / 2 })
        );
        assert_eq!(Tt::try_new(1).map(|t| t.slots.len()), Ok(Tt::slots_for(1)));
    }
}
