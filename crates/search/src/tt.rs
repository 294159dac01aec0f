//! Transposition table: buckets of four 16-byte slots, one 64-byte cache line each, sized by
//! the `Hash` option in MB. A position is stored in its bucket's slot that already holds it;
//! failing that, in the least valuable slot: an empty one, else the one whose depth less
//! [`AGE_WEIGHT`] plies per search of age is lowest (the replacement rule of Stockfish and
//! Ethereal), so that shallow entries, quiescence's above all, no longer evict the deep ones of
//! other positions. A slot that holds the position keeps a deeper entry of this search against
//! a non-exact store. Mate scores are stored relative to the node (`to_tt`/`from_tt`) so they
//! stay correct at another distance from the root.
//!
//! Shared by every search thread without locks (Lazy SMP): a slot is two atomic words, the
//! packed data and `key ^ data` (Hyatt and Mann's lockless hashing). A reader accepts a slot
//! only when the two words still XOR to its key, so an entry torn by a concurrent write reads
//! as a miss, never as another position's move or score.
//!
//! Memory: the probe of a node is a cache miss into a table far larger than the caches, the
//! costliest single load of the search. The search therefore prefetches a child's bucket
//! ([`Tt::prefetch`], with [`clio_board::Position::key_hint`]) as soon as it picks the move,
//! before pruning and making it, and the buckets lie on huge pages where Linux has them
//! (`huge.rs`), so that the probe does not miss the TLB as well.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use clio_board::Move16;

use crate::huge::HugeSlice;
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

impl TtHit {
    /// The stored score where it bounds the position better than `eval` (exact, or a bound on
    /// the side of `eval` it bounds, and not a mate score); else `eval`.
    #[inline]
    pub fn refine(&self, eval: i32) -> i32 {
        let better = self.score.abs() < MATE_BOUND
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => self.score > eval,
                Bound::Upper => self.score < eval,
                Bound::None => false,
            };
        if better {
            self.score
        } else {
            eval
        }
    }
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

/// Slots per bucket: four 16-byte slots fill one 64-byte cache line.
const BUCKET_SLOTS: usize = 4;

/// Plies of depth one search of age is worth against a newer entry when a slot is chosen for
/// replacement.
const AGE_WEIGHT: i32 = 8;

/// Generations are counted modulo this (six bits of the `gen_bound` byte).
const GENERATIONS: u8 = 64;

/// One slot: `check = key ^ data`, so a torn pair fails the key test.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The packed data, and whether it is an entry of `key`, intact.
    #[inline]
    fn read(&self, key: u64) -> (u64, bool) {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (data, check ^ data == key && data != 0)
    }

    /// The entry stored for `key`, if this slot holds it intact.
    #[inline]
    fn load(&self, key: u64) -> Option<Entry> {
        let (data, ours) = self.read(key);
        ours.then(|| Entry::unpack(data))
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

/// The slots one key can use, on one cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; BUCKET_SLOTS],
}

/// The transposition table, shared by reference between search threads.
pub struct Tt {
    /// On huge pages where the system has them (see `huge.rs`).
    buckets: HugeSlice<Bucket>,
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
        let buckets = HugeSlice::try_new(Self::buckets_for(mb), Bucket::default)
            .ok_or(TtAllocError { mb })?;
        Ok(Tt {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    fn buckets_for(mb: usize) -> usize {
        (mb.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Bucket>()).max(1)
    }

    fn layout(mb: usize) -> std::alloc::Layout {
        std::alloc::Layout::array::<Bucket>(Self::buckets_for(mb))
            .unwrap_or(std::alloc::Layout::new::<Bucket>())
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for slot in self.buckets.iter().flat_map(|b| &b.slots) {
            slot.clear();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search (ages the entries).
    pub fn new_search(&mut self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store((g + 1) % GENERATIONS, Ordering::Relaxed);
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[((u128::from(key) * self.buckets.len() as u128) >> 64) as usize]
    }

    /// Asks the CPU to bring `key`'s bucket into its cache now, so that the probe of the
    /// position it belongs to, a little later, need not wait for memory. A hint only: it
    /// changes no result.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch reads nothing into the program and cannot fault (here the
            // address is even a live bucket); SSE, which provides it, is baseline x86-64.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    bucket.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let e = self
            .bucket(key)
            .slots
            .iter()
            .find_map(|slot| slot.load(key))?;
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
        let (slot, old) = self.slot_for(key, generation);
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

    /// Where `key` is stored: the slot of its bucket that holds it (with its entry), else the
    /// least valuable slot: the first empty one, else the lowest depth less [`AGE_WEIGHT`] per
    /// search of age (the first of equals).
    #[inline]
    fn slot_for(&self, key: u64, generation: u8) -> (&Slot, Option<Entry>) {
        let slots = &self.bucket(key).slots;
        let mut victim = &slots[0];
        let mut least = i32::MAX;
        for slot in slots {
            let (data, ours) = slot.read(key);
            if ours {
                return (slot, Some(Entry::unpack(data)));
            }
            let value = if data == 0 {
                i32::MIN
            } else {
                let e = Entry::unpack(data);
                let age = (GENERATIONS + generation - (e.gen_bound >> 2)) % GENERATIONS;
                i32::from(e.depth) - AGE_WEIGHT * i32::from(age)
            };
            if value < least {
                least = value;
                victim = slot;
            }
        }
        (victim, None)
    }

    /// Permille of the first 1000 slots holding an entry of this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let n = (self.buckets.len() * BUCKET_SLOTS).min(1000);
        let used = self
            .buckets
            .iter()
            .flat_map(|b| &b.slots)
            .take(n)
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
            buckets: (0..16)
                .map(|_| Bucket::default())
                .collect::<Vec<_>>()
                .into(),
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
                        // 256 keys over 16 buckets of 4: threads overwrite each other's slots.
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
        assert_eq!(
            Tt::try_new(1).map(|t| t.buckets.len()),
            Ok(Tt::buckets_for(1))
        );
        assert_eq!(Tt::buckets_for(1), 1024 * 1024 / 64);
    }

    /// A table of one bucket, so that every key competes for the same four slots.
    fn one_bucket() -> Tt {
        Tt {
            buckets: vec![Bucket::default()].into(),
            generation: AtomicU8::new(0),
        }
    }

    /// Stores `key` at `depth` with no move, score or eval: the replacement tests' entries.
    fn put(tt: &Tt, key: u64, depth: i32, bound: Bound) {
        tt.store(key, Move16::NONE, 0, 0, depth, bound, 0);
    }

    fn depth_of(tt: &Tt, key: u64) -> Option<i32> {
        tt.probe(key, 0).map(|h| h.depth)
    }

    #[test]
    fn a_bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    #[test]
    fn shallow_entries_replace_each_other_not_a_deeper_one() {
        let tt = &one_bucket();
        put(tt, 1, 12, Bound::Lower);
        // Ten quiescence entries of other positions pass through the other three slots.
        for key in 2..12 {
            put(tt, key, 0, Bound::Upper);
        }
        assert_eq!(depth_of(tt, 1), Some(12));
        // Of equals the first slot goes: keys 2, 3 and 4 filled the empty slots, then 5 to 11
        // replaced each other in key 2's.
        let kept: Vec<u64> = (2..12).filter(|&k| depth_of(tt, k).is_some()).collect();
        assert_eq!(kept, [3, 4, 11]);
    }

    #[test]
    fn each_search_of_age_costs_an_entry_age_weight_plies() {
        let tt = &mut one_bucket();
        put(tt, 1, 12, Bound::Lower);
        put(tt, 2, 3, Bound::Lower);
        put(tt, 3, 2, Bound::Lower);
        put(tt, 4, 1, Bound::Lower);
        // One search later the full bucket is worth 4, -5, -6, -7: new entries replace the
        // shallow three first, lowest first, then the two-searches-old depth 12 (12 - 16 = -4)
        // before any entry of the current search.
        tt.new_search();
        put(tt, 5, 0, Bound::Upper);
        assert_eq!(depth_of(tt, 4), None);
        put(tt, 6, 0, Bound::Upper);
        put(tt, 7, 0, Bound::Upper);
        assert_eq!((depth_of(tt, 2), depth_of(tt, 3)), (None, None));
        put(tt, 8, 0, Bound::Upper);
        assert_eq!(
            depth_of(tt, 1),
            Some(12),
            "12 - 8 = 4 outranks three depth-0 entries"
        );
        tt.new_search();
        put(tt, 9, 0, Bound::Upper);
        // 12 - 16 = -4 against 0 - 8 = -8 three times: a depth-0 entry of the last search goes.
        assert_eq!(depth_of(tt, 1), Some(12));
        assert_eq!(depth_of(tt, 9), Some(0));
        tt.new_search();
        tt.new_search();
        put(tt, 10, 0, Bound::Upper);
        put(tt, 11, 0, Bound::Upper);
        put(tt, 12, 0, Bound::Upper);
        put(tt, 13, 0, Bound::Upper);
        assert_eq!(
            depth_of(tt, 1),
            None,
            "four searches old, 12 - 32 = -20 goes"
        );
        assert_eq!(
            (10..14).filter(|&k| depth_of(tt, k).is_some()).count(),
            4,
            "the bucket holds the four newest"
        );
    }

    #[test]
    fn a_position_keeps_its_slot_and_its_deeper_entry_of_this_search() {
        let tt = &mut one_bucket();
        tt.store(1, Move16::NONE, 5, 0, 10, Bound::Lower, 0);
        put(tt, 2, 1, Bound::Lower);
        // A shallow non-exact store of the same position is refused...
        tt.store(1, Move16::NONE, 7, 0, 3, Bound::Upper, 0);
        assert_eq!(tt.probe(1, 0).map(|h| (h.depth, h.score)), Some((10, 5)));
        // ...an exact one is taken, in the same slot (the other entry stays).
        tt.store(1, Move16::NONE, 9, 0, 3, Bound::Exact, 0);
        assert_eq!(tt.probe(1, 0).map(|h| (h.depth, h.score)), Some((3, 9)));
        assert_eq!(depth_of(tt, 2), Some(1));
        // After a new search any store of the position replaces its entry.
        tt.store(1, Move16::NONE, 9, 0, 10, Bound::Lower, 0);
        tt.new_search();
        tt.store(1, Move16::NONE, 4, 0, 2, Bound::Upper, 0);
        assert_eq!(tt.probe(1, 0).map(|h| (h.depth, h.score)), Some((2, 4)));
        let filled = tt.buckets[0]
            .slots
            .iter()
            .filter(|s| s.data.load(Ordering::Relaxed) != 0)
            .count();
        assert_eq!(filled, 2, "one slot per position");
    }
}
