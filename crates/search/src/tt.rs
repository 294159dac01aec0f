//! Transposition table: one 16-byte entry per slot, sized by the `Hash` option in MB, always
//! replacing unless the slot holds a deeper entry of the same position from this search.
//! Mate scores are stored relative to the node (`to_tt`/`from_tt`) so they stay correct at
//! another distance from the root.

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

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bound in the low 2 bits, generation above.
    gen_bound: u8,
}

/// The transposition table.
pub struct Tt {
    entries: Vec<Entry>,
    generation: u8,
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

/// A table size the machine could not give (`Hash` beyond the memory the process may use).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {mb} MB hash table")]
pub struct TtAllocError {
    /// The size asked for, in MB.
    pub mb: usize,
}

/// Entries in a table of `mb` megabytes (at least one).
fn slots(mb: usize) -> usize {
    (mb.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Entry>()).max(1)
}

impl Tt {
    /// A table of `mb` megabytes (at least one entry).
    pub fn new(mb: usize) -> Tt {
        Tt {
            entries: vec![Entry::default(); slots(mb)],
            generation: 0,
        }
    }

    /// A table of `mb` megabytes, or an error instead of an abort when the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<Tt, TtAllocError> {
        let n = slots(mb);
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(n)
            .map_err(|_| TtAllocError { mb })?;
        entries.resize(n, Entry::default());
        Ok(Tt {
            entries,
            generation: 0,
        })
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }

    /// Starts a new search (ages the entries).
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let e = &self.entries[self.index(key)];
        if e.key != key || e.gen_bound & 3 == 0 {
            return None;
        }
        let bound = match e.gen_bound & 3 {
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
        &mut self,
        key: u64,
        mv: Move16,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let generation = self.generation;
        let i = self.index(key);
        let e = &mut self.entries[i];
        let same = e.key == key;
        if same
            && e.gen_bound >> 2 == generation
            && i32::from(e.depth) > depth + 2
            && bound != Bound::Exact
        {
            return;
        }
        let mv = if mv.is_none() && same {
            Move16::from_raw(e.mv)
        } else {
            mv
        };
        *e = Entry {
            key,
            mv: mv.raw(),
            score: to_tt(score, ply).clamp(-32000, 32000) as i16,
            eval: eval.clamp(-32000, 32000) as i16,
            depth: depth.clamp(0, 255) as u8,
            gen_bound: (generation << 2) | bound as u8,
        };
    }

    /// Permille of the first 1000 slots holding an entry of this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| e.gen_bound & 3 != 0 && e.gen_bound >> 2 == self.generation)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_probes_and_adjusts_mates() {
        let mut tt = Tt::new(1);
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

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        assert_eq!(
            Tt::try_new(usize::MAX / 2).err(),
            Some(TtAllocError { mb: usize::MAX / 2 })
        );
        assert_eq!(Tt::try_new(1).map(|t| t.entries.len()), Ok(slots(1)));
    }
}
