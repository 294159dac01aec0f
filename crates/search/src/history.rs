//! The history family: every table and the one update rule they share.
//!
//! Gravity (Stockfish's `StatsEntry`, Reckless's `apply_bonus`): `e += b - e*|b|/MAX` with `b`
//! clamped to ±MAX keeps every entry inside ±MAX and makes old information decay. Entries are
//! stored as `i16` and computed in `i32`. Bonus and malus are linear-capped functions of depth,
//! `min(MUL*d + BASE, MAX)`, each with its own tunables (see `params`).

use clio_board::{Move16, PIECE_COUNT};

use crate::huge::HugeSlice;
use crate::params::Params;

/// The one update rule: gravity towards `bonus` with bound `max` (`e += b - e*|b|/max`).
#[inline]
pub fn gravity(entry: &mut i16, bonus: i32, max: i32) {
    let max = max.max(1);
    let b = bonus.clamp(-max, max);
    let e = i32::from(*entry);
    let next = e + b - e * b.abs() / max;
    *entry = next.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
}

/// `min(mul*depth + base, max)`, never negative: the shape of every bonus and malus.
#[inline]
pub fn linear_capped(mul: i32, base: i32, max: i32, depth: i32) -> i32 {
    (mul * depth + base).min(max).max(0)
}

const SQ: usize = 64;
const PIECE_TO: usize = PIECE_COUNT * SQ;

/// Index of a (piece, destination) pair: `piece_index * 64 + to`, the key of countermoves and
/// of continuation sub-tables.
pub type PieceTo = usize;

/// Butterfly history, also the relative-history denominator, split four ways by whether the
/// enemy attacks the move's origin and its destination (the threat buckets of Ethereal's
/// successors: Berserk, Koivisto, Stormphrax).
// [side][from attacked][to attacked][from][to]
pub struct Butterfly(Box<[i16]>);

/// Threat buckets of the butterfly history.
const BUCKETS: usize = 4;

/// The threat bucket of `m` when the enemy attacks the squares `threats`: bit 1 for an
/// attacked origin, bit 0 for an attacked destination. Bucket 0 when `threats` is 0 (the
/// switch `UseThreatHist` off).
#[inline]
pub fn threat_bucket(threats: u64, m: Move16) -> usize {
    let from = (threats >> m.from_sq() as u32) & 1;
    let to = (threats >> m.to_sq() as u32) & 1;
    (2 * from + to) as usize
}

impl Butterfly {
    fn new() -> Self {
        Butterfly(vec![0; 2 * BUCKETS * SQ * SQ].into_boxed_slice())
    }
    /// Side `side`'s entries (every threat bucket): the table and their offset in it.
    #[inline]
    fn side(&self, side: usize) -> Row<'_> {
        (&self.0, side * BUCKETS * SQ * SQ)
    }
    #[inline]
    fn index(side: usize, threats: u64, m: Move16) -> usize {
        (side * BUCKETS + threat_bucket(threats, m)) * SQ * SQ + m.butterfly()
    }
    /// The entry of move `m` for side `side` (0 white, 1 black) with the enemy attacking
    /// `threats`.
    #[inline]
    pub fn get(&self, side: usize, threats: u64, m: Move16) -> i32 {
        i32::from(self.0[Self::index(side, threats, m)])
    }
    /// Gravity update of move `m`'s entry.
    #[inline]
    pub fn update(&mut self, side: usize, threats: u64, m: Move16, bonus: i32, max: i32) {
        gravity(&mut self.0[Self::index(side, threats, m)], bonus, max);
    }
}

/// A table of `(piece, to)` rows: `ROWS` rows of `PIECE_TO` entries, each row picked by
/// something the node knows (the previous move, the pawn structure).
/// On huge pages where the system has them and the table is large enough (see
/// `huge.rs`): the continuation history is several megabytes read at random.
pub struct PieceToRows<const ROWS: usize>(HugeSlice<i16>);

impl<const ROWS: usize> PieceToRows<ROWS> {
    fn new() -> Self {
        PieceToRows(HugeSlice::new(ROWS * PIECE_TO, || 0))
    }
    /// The entry of `(piece, to)` in row `row`.
    #[inline]
    pub fn get(&self, row: usize, cur: PieceTo) -> i32 {
        i32::from(self.0[row * PIECE_TO + cur])
    }
    /// Gravity update of one entry.
    #[inline]
    pub fn update(&mut self, row: usize, cur: PieceTo, bonus: i32, max: i32) {
        gravity(&mut self.0[row * PIECE_TO + cur], bonus, max);
    }
    /// Zeroes every entry in place (the low-ply history at the start of a search).
    pub fn clear(&mut self) {
        self.0.fill(0);
    }
    /// Row `row`: the table and the row's offset in it.
    #[inline]
    fn row(&self, row: usize) -> Row<'_> {
        (&self.0, row * PIECE_TO)
    }
}

/// A row of zeros: what a ply without a continuation, pawn or low-ply row reads, so that every
/// quiet's score sums the same rows ([`QuietRows`]).
static ZERO_ROW: [i16; PIECE_TO] = [0; PIECE_TO];

/// A `(piece, to)` row of a table: the table's entries and where the row starts (an offset,
/// not a sub-slice, so resolving it costs no bounds check; reading it costs one).
type Row<'a> = (&'a [i16], usize);

/// [`ZERO_ROW`] as a [`Row`].
const NO_ROW: Row<'static> = (&ZERO_ROW, 0);

/// The entry `pt` of `row`.
#[inline]
fn read(row: Row<'_>, pt: PieceTo) -> i32 {
    i32::from(row.0[row.1 + pt])
}

/// Kinds of an earlier move that pick its continuation sub-table (Stockfish's
/// `continuationHistory[inCheck][capture]`): whether it was made in check, whether it captured.
pub const CONT_KINDS: usize = 4;

/// The kind of a move made in check (`in_check`) or capturing (`capture`): `2 * in_check +
/// capture`, always 0 when `split` (`UseContHistSplit`) is off.
#[inline]
pub fn cont_kind(split: bool, in_check: bool, capture: bool) -> usize {
    if split {
        2 * usize::from(in_check) + usize::from(capture)
    } else {
        0
    }
}

/// The continuation row of an earlier move `(piece, to)` of kind `kind` ([`cont_kind`]).
#[inline]
pub fn cont_row(kind: usize, prev: PieceTo) -> usize {
    kind * PIECE_TO + prev
}

/// Continuation history: one row per previous move's kind and `(piece, to)`.
// [prev in check][prev capture][prev piece][prev to][piece][to]
pub type ContHist = PieceToRows<{ CONT_KINDS * PIECE_TO }>;

/// Capture history.
// [piece][to][captured role]
pub struct CaptureHist(Box<[i16]>);

impl CaptureHist {
    fn new() -> Self {
        CaptureHist(vec![0; PIECE_TO * 6].into_boxed_slice())
    }
    /// The entry of capturing `captured` (role index 0..6) with `(piece, to)`.
    #[inline]
    pub fn get(&self, pt: PieceTo, captured: usize) -> i32 {
        i32::from(self.0[pt * 6 + captured])
    }
    /// Gravity update of one entry.
    #[inline]
    pub fn update(&mut self, pt: PieceTo, captured: usize, bonus: i32, max: i32) {
        gravity(&mut self.0[pt * 6 + captured], bonus, max);
    }
}

/// Rows of the pawn history: the pawn key modulo this.
pub const PAWN_HIST_ROWS: usize = 512;

/// Pawn history (Stockfish 16.1's `PawnHistory`): quiets by the pawn structure they are played
/// in.
// [pawn key % rows][piece][to]
pub type PawnHist = PieceToRows<PAWN_HIST_ROWS>;

/// Plies from the root that the low-ply history keeps a row for.
pub const LOW_PLY: usize = 4;

/// Low-ply history (Stockfish 17's `lowPlyHistory`): `[ply][piece][to]` for the first
/// [`LOW_PLY`] plies of the tree, emptied at every new search.
pub type LowPlyHist = PieceToRows<LOW_PLY>;

/// Countermoves (Uiterwijk 1992): the quiet that last refuted a move.
// [prev piece][prev to] -> Move16
pub struct CounterMoves(Box<[Move16]>);

impl CounterMoves {
    fn new() -> Self {
        CounterMoves(vec![Move16::NONE; PIECE_TO].into_boxed_slice())
    }
    /// The countermove of `prev`.
    #[inline]
    pub fn get(&self, prev: PieceTo) -> Move16 {
        self.0[prev]
    }
    /// Records `m` as the refutation of `prev`.
    #[inline]
    pub fn set(&mut self, prev: PieceTo, m: Move16) {
        self.0[prev] = m;
    }
}

/// Correction history (pawn structure): how far the static evaluation has been from the search
/// result in positions with the same pawns, `[side][pawn key]`, as in Stockfish 16.1.
pub struct CorrHist(Box<[i16]>);

/// Entries per side of the correction history.
const CORR_SIZE: usize = 16384;

impl CorrHist {
    fn new() -> Self {
        CorrHist(vec![0; 2 * CORR_SIZE].into_boxed_slice())
    }
    /// The entry of the pawn structure `pawn_key` for `side` to move.
    #[inline]
    pub fn get(&self, side: usize, pawn_key: u64) -> i32 {
        i32::from(self.0[side * CORR_SIZE + (pawn_key as usize & (CORR_SIZE - 1))])
    }
    /// Gravity update of one entry.
    #[inline]
    pub fn update(&mut self, side: usize, pawn_key: u64, bonus: i32, max: i32) {
        gravity(
            &mut self.0[side * CORR_SIZE + (pawn_key as usize & (CORR_SIZE - 1))],
            bonus,
            max,
        );
    }
}

/// The keys a static evaluation is corrected by: the pawns of both colours, and each colour's
/// pieces other than pawns (king included), as Stockfish 17's non-pawn correction history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrKeys {
    /// `pawn_key` of both colours' pawns.
    pub pawn: u64,
    /// `piece_key` of White's and of Black's pieces other than pawns.
    pub non_pawn: [u64; 2],
}

/// A key of one colour's knights, bishops, rooks, queens and king, for the non-pawn correction
/// history.
#[inline]
pub fn piece_key(pieces: [u64; 5]) -> u64 {
    let mut h = 0u64;
    for (i, bb) in pieces.into_iter().enumerate() {
        h = (h ^ bb)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(23 + 8 * i as u32);
    }
    (h ^ (h >> 31)).wrapping_mul(0x94D0_49BB_1331_11EB) >> 40
}

/// A key of the pawns alone (both colours), for the correction history.
#[inline]
pub fn pawn_key(white_pawns: u64, black_pawns: u64) -> u64 {
    let h = white_pawns.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black_pawns
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            .rotate_left(29);
    (h ^ (h >> 31)).wrapping_mul(0x94D0_49BB_1331_11EB) >> 40
}

/// Two killer moves of one ply, most recent first.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Killers(pub [Move16; 2]);

impl Killers {
    /// Makes `m` the first killer, shifting the old first to second (no duplicates).
    #[inline]
    pub fn push(&mut self, m: Move16) {
        if self.0[0] != m {
            self.0[1] = self.0[0];
            self.0[0] = m;
        }
    }
}

/// The continuation sub-tables in effect at a node: the rows ([`cont_row`]) of the moves 1, 2,
/// 4 and 6 plies back (`None` for a null move, before the root, or a switched-off ply), with the
/// per-ply update weight (/1024); and the node's pawn-history row.
#[derive(Clone, Copy, Default, Debug)]
pub struct ContRefs {
    /// `(continuation row, weight)` for plies 1, 2, 4, 6.
    pub plies: [Option<(usize, i32)>; 4],
    /// `(continuation row, weight)` for the move 3 plies back, read at `ContRead3`/1024.
    pub ply3: Option<(usize, i32)>,
    /// The node's pawn-history row (`None` when `UsePawnHist` is off).
    pub pawn: Option<usize>,
    /// The node's ply, when it has a low-ply history row (below [`LOW_PLY`], `LowPlyWeight`
    /// above 0).
    pub low_ply: Option<usize>,
    /// The squares the side not to move attacks, the butterfly history's threat bucket (0
    /// when `UseThreatHist` is off, and in quiescence).
    pub threats: u64,
}

/// The history rows of one node's quiets, resolved once ([`Histories::quiet_rows`]): a ply's
/// missing row reads [`ZERO_ROW`], so a quiet's score is a fixed sum of loads, the same sum as
/// the tables' own lookups.
pub struct QuietRows<'a> {
    /// The side's butterfly entries (`None` with `UseHistory` off), and its searched counts
    /// with relative history.
    main: Option<Row<'a>>,
    searched: Option<Row<'a>>,
    rel_scale: i32,
    rel_count_base: i32,
    threats: u64,
    /// Continuation rows of plies 1, 2, 4 and 6, and of ply 3 (read at `cont_read3`/1024).
    conts: [Row<'a>; 4],
    ply3: Row<'a>,
    cont_read3: i32,
    pawn: Row<'a>,
    /// The low-ply row (ordering only) and its divisor `1 + 2 * ply`.
    low_ply: Row<'a>,
    low_ply_weight: i32,
    low_div: i32,
}

impl QuietRows<'_> {
    /// The history score of the quiet `m` moving to `(piece, to)` `pt`: its ordering score
    /// before the low-ply part, and what LMR and pruning read (through `quiet_score`).
    #[inline(always)]
    pub fn score(&self, m: Move16, pt: PieceTo) -> i32 {
        let mut s = match self.main {
            None => 0,
            Some(main) => {
                let i = threat_bucket(self.threats, m) * SQ * SQ + m.butterfly();
                let hh = read(main, i);
                match self.searched {
                    Some(searched) => {
                        let bf = read(searched, i);
                        hh * self.rel_scale / (bf + self.rel_count_base).max(1)
                    }
                    None => hh,
                }
            }
        };
        for row in self.conts {
            s += read(row, pt);
        }
        s += read(self.ply3, pt) * self.cont_read3 / 1024;
        s + read(self.pawn, pt)
    }

    /// The low-ply part of the ordering score ([`Histories::low_ply_score`]).
    #[inline(always)]
    pub fn low_ply_score(&self, pt: PieceTo) -> i32 {
        read(self.low_ply, pt) * self.low_ply_weight / 1024 / self.low_div
    }
}

/// Every history table of one search thread.
pub struct Histories {
    /// Main history `[side][from][to]`.
    pub main: Butterfly,
    /// Relative-history denominator: how often each quiet was searched without cutting off.
    pub searched: Butterfly,
    /// Continuation history.
    pub cont: ContHist,
    /// Capture history.
    pub capture: CaptureHist,
    /// Countermoves.
    pub counter: CounterMoves,
    /// Pawn history.
    pub pawn: PawnHist,
    /// Correction history of the static evaluation.
    pub corr: CorrHist,
    /// Non-pawn correction histories, by the colour whose pieces key them.
    pub np_corr: [CorrHist; 2],
    /// Low-ply history.
    pub low_ply: LowPlyHist,
}

impl Default for Histories {
    fn default() -> Self {
        Histories::new()
    }
}

impl Histories {
    /// Empty tables.
    pub fn new() -> Self {
        Histories {
            main: Butterfly::new(),
            searched: Butterfly::new(),
            cont: ContHist::new(),
            capture: CaptureHist::new(),
            counter: CounterMoves::new(),
            pawn: PawnHist::new(),
            corr: CorrHist::new(),
            np_corr: [CorrHist::new(), CorrHist::new()],
            low_ply: LowPlyHist::new(),
        }
    }

    /// Zeroes every table.
    pub fn clear(&mut self) {
        *self = Histories::new();
    }

    /// The butterfly part of a quiet's ordering score: `hh` (absolute) or
    /// `RelScale*hh/(bf + RelCountBase)` (relative history, Winands et al. 2004), in the threat
    /// bucket of `threats`.
    #[inline]
    pub fn butterfly_score(&self, p: &Params, side: usize, threats: u64, m: Move16) -> i32 {
        if !p.use_history {
            return 0;
        }
        let hh = self.main.get(side, threats, m);
        if p.use_relative_history {
            let bf = self.searched.get(side, threats, m);
            hh * p.rel_scale / (bf + p.rel_count_base).max(1)
        } else {
            hh
        }
    }

    /// Ordering score of a quiet: butterfly part plus the continuation entries at each
    /// enabled ply. The same sum as [`QuietRows::score`], which scores a node's quiets together.
    #[inline]
    pub fn quiet_score(
        &self,
        p: &Params,
        side: usize,
        m: Move16,
        pt: PieceTo,
        conts: &ContRefs,
    ) -> i32 {
        let mut s = self.butterfly_score(p, side, conts.threats, m);
        for (prev, _) in conts.plies.iter().flatten() {
            s += self.cont.get(*prev, pt);
        }
        if let Some((prev, _)) = conts.ply3 {
            s += self.cont.get(prev, pt) * p.cont_read3 / 1024;
        }
        if let Some(row) = conts.pawn {
            s += self.pawn.get(row, pt);
        }
        s
    }

    /// The rows the quiets of a node with `side` to move and `conts` are scored by, looked up
    /// once for all of them.
    #[inline]
    pub fn quiet_rows(&self, p: &Params, side: usize, conts: &ContRefs) -> QuietRows<'_> {
        let cont = |r: Option<(usize, i32)>| r.map_or(NO_ROW, |(row, _)| self.cont.row(row));
        let [c1, c2, c4, c6] = conts.plies;
        let (low_ply, low_div) = match conts.low_ply {
            Some(ply) => (self.low_ply.row(ply), 1 + 2 * ply as i32),
            None => (NO_ROW, 1),
        };
        QuietRows {
            main: p.use_history.then(|| self.main.side(side)),
            searched: (p.use_history && p.use_relative_history).then(|| self.searched.side(side)),
            rel_scale: p.rel_scale,
            rel_count_base: p.rel_count_base,
            threats: conts.threats,
            conts: [cont(c1), cont(c2), cont(c4), cont(c6)],
            ply3: cont(conts.ply3),
            cont_read3: p.cont_read3,
            pawn: conts.pawn.map_or(NO_ROW, |row| self.pawn.row(row)),
            low_ply,
            low_ply_weight: p.low_ply_weight,
            low_div,
        }
    }

    /// The low-ply part of a quiet's ordering score (ordering only, not LMR or pruning):
    /// `entry * LowPlyWeight / 1024 / (1 + 2 * ply)`, Stockfish 17's shape.
    #[inline]
    pub fn low_ply_score(&self, p: &Params, pt: PieceTo, conts: &ContRefs) -> i32 {
        match conts.low_ply {
            Some(ply) => self.low_ply.get(ply, pt) * p.low_ply_weight / 1024 / (1 + 2 * ply as i32),
            None => 0,
        }
    }

    /// Ordering score of a capture of `captured` (role index) by `(piece, to)` moving a piece
    /// of exchange value `attacker`: `MvvMul * victim + capture history`, or MVV-LVA when
    /// capture history is off.
    #[inline]
    pub fn capture_score(
        &self,
        p: &Params,
        pt: PieceTo,
        captured: usize,
        victim: i32,
        attacker: i32,
    ) -> i32 {
        if p.use_capture_history {
            p.mvv_mul * victim + self.capture.get(pt, captured)
        } else {
            p.mvv_mul * victim - attacker / 16
        }
    }

    /// The static evaluation `raw` corrected by the correction histories (unchanged when
    /// `UseCorrHist` is off): `raw + (pawn entry + NpCorrWeight/1024 * both non-pawn entries)
    /// / CorrDiv`, kept off the mate range.
    #[inline]
    pub fn corrected_eval(&self, p: &Params, side: usize, keys: CorrKeys, raw: i32) -> i32 {
        if !p.use_corr_hist {
            return raw;
        }
        let mut c = self.corr.get(side, keys.pawn);
        if p.use_np_corr_hist {
            let np = self.np_corr[0].get(side, keys.non_pawn[0])
                + self.np_corr[1].get(side, keys.non_pawn[1]);
            c += np * p.np_corr_weight / 1024;
        }
        (raw + c / p.corr_div.max(1)).clamp(-20_000, 20_000)
    }

    /// Moves the corrections of `keys` towards the error `score - eval` of a search of
    /// `depth`: bonus `(score - eval) * depth / CorrBonusDiv`, at most `CorrMax / 4` each way.
    pub fn update_correction(
        &mut self,
        p: &Params,
        side: usize,
        keys: CorrKeys,
        depth: i32,
        error: i32,
    ) {
        if !p.use_corr_hist {
            return;
        }
        let limit = p.corr_max / 4;
        let bonus = (error * depth / p.corr_bonus_div.max(1)).clamp(-limit, limit);
        self.corr.update(side, keys.pawn, bonus, p.corr_max);
        if p.use_np_corr_hist {
            for (table, key) in self.np_corr.iter_mut().zip(keys.non_pawn) {
                table.update(side, key, bonus, p.corr_max);
            }
        }
    }

    /// Updates after a quiet beta cutoff by `best` at `depth`: bonus to `best`, malus (and a
    /// relative-history count) to each quiet in `tried` (searched before it), in the main table
    /// and in each continuation sub-table.
    pub fn update_quiets(
        &mut self,
        p: &Params,
        side: usize,
        depth: i32,
        best: (Move16, PieceTo),
        tried: &[(Move16, PieceTo)],
        conts: &ContRefs,
    ) {
        let bonus = linear_capped(p.hist_bonus_mul, p.hist_bonus_base, p.hist_bonus_max, depth);
        let malus = linear_capped(p.hist_malus_mul, p.hist_malus_base, p.hist_malus_max, depth);
        let cbonus = linear_capped(p.cont_bonus_mul, p.cont_bonus_base, p.cont_bonus_max, depth);
        let cmalus = linear_capped(p.cont_malus_mul, p.cont_malus_base, p.cont_malus_max, depth);
        if p.use_history {
            let threats = conts.threats;
            self.main.update(side, threats, best.0, bonus, p.hist_max);
            for &(m, _) in tried {
                if p.use_malus {
                    self.main.update(side, threats, m, -malus, p.hist_max);
                }
                if p.use_relative_history {
                    self.searched
                        .update(side, threats, m, p.rel_count_inc, p.rel_count_max);
                }
            }
        }
        if let Some(ply) = conts.low_ply {
            self.low_ply.update(ply, best.1, bonus, p.hist_max);
            if p.use_malus {
                for &(_, pt) in tried {
                    self.low_ply.update(ply, pt, -malus, p.hist_max);
                }
            }
        }
        if let Some(row) = conts.pawn {
            self.pawn.update(row, best.1, bonus, p.hist_max);
            if p.use_malus {
                for &(_, pt) in tried {
                    self.pawn.update(row, pt, -malus, p.hist_max);
                }
            }
        }
        for &(prev, weight) in conts.plies.iter().chain([&conts.ply3]).flatten() {
            self.cont
                .update(prev, best.1, cbonus * weight / 1024, p.cont_max);
            if p.use_malus {
                for &(_, pt) in tried {
                    self.cont
                        .update(prev, pt, -cmalus * weight / 1024, p.cont_max);
                }
            }
        }
    }

    /// Updates capture history at a beta cutoff: bonus to `best` if it is a capture, malus to
    /// each capture in `tried` (searched before the cutoff move). Entries are `(PieceTo,
    /// captured role index)`.
    pub fn update_captures(
        &mut self,
        p: &Params,
        depth: i32,
        best: Option<(PieceTo, usize)>,
        tried: &[(PieceTo, usize)],
    ) {
        if !p.use_capture_history {
            return;
        }
        if let Some((pt, c)) = best {
            let bonus = linear_capped(p.cap_bonus_mul, p.cap_bonus_base, p.cap_bonus_max, depth);
            self.capture.update(pt, c, bonus, p.cap_max);
        }
        if p.use_malus {
            let malus = linear_capped(p.cap_malus_mul, p.cap_malus_base, p.cap_malus_max, depth);
            for &(pt, c) in tried {
                self.capture.update(pt, c, -malus, p.cap_max);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The defaults with the history and correction constants at the round values these
    /// hand-worked figures were computed with (the defaults before the SPSA-tuned ones landed,
    /// `tuning/history-nodes.toml` and `tuning/history2.toml`).
    fn hand_params() -> Params {
        Params {
            hist_bonus_mul: 300,
            hist_bonus_base: -50,
            hist_bonus_max: 2000,
            hist_malus_mul: 300,
            hist_malus_base: -50,
            hist_malus_max: 1800,
            cont_bonus_mul: 300,
            cont_malus_mul: 300,
            cont_weight1: 1024,
            cont_weight2: 1024,
            cont_weight4: 512,
            cont_weight6: 512,
            cap_bonus_mul: 250,
            cap_bonus_max: 1800,
            cap_malus_mul: 250,
            np_corr_weight: 512,
            corr_max: 1024,
            corr_bonus_div: 8,
            ..Params::default()
        }
    }

    #[test]
    fn gravity_never_leaves_the_bound() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(20041);
        for _ in 0..200 {
            let max = rng.gen_range(1..=30_000);
            let mut e = 0i16;
            for _ in 0..2_000 {
                // Bonuses far beyond the bound too: they are clamped to ±max.
                let b = match rng.gen_range(0..4) {
                    0 => max,
                    1 => -max,
                    2 => rng.gen_range(-3 * max..=3 * max),
                    _ => rng.gen_range(-64..=64),
                };
                gravity(&mut e, b, max);
                assert!(i32::from(e).abs() <= max, "e = {e}, max = {max}, b = {b}");
            }
        }
    }

    #[test]
    fn non_pawn_corrections_add_half_weight_each_hand_worked() {
        let mut p = hand_params();
        let mut h = Histories::new();
        let keys = CorrKeys {
            pawn: 7,
            non_pawn: [11, 13],
        };
        // Error 200 at depth 8: bonus 200 * 8 / CorrBonusDiv 8 = 200 (under CorrMax/4 = 256),
        // so each of the three entries goes 0 -> 200.
        h.update_correction(&p, 0, keys, 8, 200);
        // (200 + (200 + 200) * 512 / 1024) / CorrDiv 32 = 400 / 32 = 12.
        assert_eq!(h.corrected_eval(&p, 0, keys, 100), 112);
        // Other pieces (the non-pawn entries are 0): 200 / 32 = 6; the other side: nothing.
        let moved = CorrKeys {
            non_pawn: [12, 14],
            ..keys
        };
        assert_eq!(h.corrected_eval(&p, 0, moved, 100), 106);
        assert_eq!(h.corrected_eval(&p, 1, keys, 100), 100);
        // UseNpCorrHist off: the pawn entry alone.
        p.use_np_corr_hist = false;
        assert_eq!(h.corrected_eval(&p, 0, keys, 100), 106);
    }

    #[test]
    fn gravity_hand_worked() {
        // e = 0, b = 400, max = 16384: 0 + 400 - 0 = 400.
        let mut e = 0i16;
        gravity(&mut e, 400, 16384);
        assert_eq!(e, 400);
        // e = 400, b = 400: 400 + 400 - 400*400/16384 (= 9) = 791.
        gravity(&mut e, 400, 16384);
        assert_eq!(e, 791);
        // e = 791, b = -1000: 791 - 1000 - 791*1000/16384 (= 48) = -257.
        gravity(&mut e, -1000, 16384);
        assert_eq!(e, -257);
        // Saturation: from the bound, a full bonus keeps it at the bound.
        let mut e = 16384i16;
        gravity(&mut e, 99_999, 16384);
        assert_eq!(e, 16384);
    }

    #[test]
    fn bonus_and_malus_formulas() {
        // min(300*d - 50, 2000): d=1 -> 250, d=6 -> 1750, d=7 -> 2000 (capped), d=0 -> 0.
        let p = hand_params();
        let b = |d| linear_capped(p.hist_bonus_mul, p.hist_bonus_base, p.hist_bonus_max, d);
        assert_eq!(
            (p.hist_bonus_mul, p.hist_bonus_base, p.hist_bonus_max),
            (300, -50, 2000)
        );
        assert_eq!((b(0), b(1), b(6), b(7), b(20)), (0, 250, 1750, 2000, 2000));
        assert_eq!(linear_capped(100, 30, 250, 2), 230);
        assert_eq!(linear_capped(100, 30, 250, 3), 250);
    }

    #[test]
    fn cutoff_update_bonus_malus_and_relative_scores() {
        let mut p = Params {
            use_relative_history: true,
            ..hand_params()
        };
        let mut h = Histories::new();
        let best = Move16::from_raw(12 | 28 << 6); // e2e4
        let other = Move16::from_raw(11 | 27 << 6); // d2d4
        let conts = ContRefs::default();
        // Depth 2: bonus min(300*2-50, 2000) = 550 to e2e4, malus 550 to d2d4.
        h.update_quiets(&p, 0, 2, (best, 28), &[(other, 27)], &conts);
        assert_eq!(h.main.get(0, 0, best), 550);
        assert_eq!(h.main.get(0, 0, other), -550);
        assert_eq!(
            h.main.get(1, 0, best),
            0,
            "the other side's table is untouched"
        );
        // The searched-without-cutoff count of d2d4 went up by RelCountInc (32).
        assert_eq!(h.searched.get(0, 0, other), 32);
        assert_eq!(h.searched.get(0, 0, best), 0);
        // Relative: 1024*550/(0+64) = 8800; 1024*(-550)/(32+64) = -5866.
        assert_eq!(h.butterfly_score(&p, 0, 0, best), 8800);
        assert_eq!(h.butterfly_score(&p, 0, 0, other), -5866);
        p.use_relative_history = false;
        assert_eq!(h.butterfly_score(&p, 0, 0, best), 550);
        p.use_history = false;
        assert_eq!(h.butterfly_score(&p, 0, 0, best), 0);
    }

    #[test]
    fn butterfly_threat_buckets_hand_worked() {
        let p = hand_params();
        let mut h = Histories::new();
        let e2e4 = Move16::from_raw(12 | 28 << 6);
        let (e2, e4) = (1u64 << 12, 1u64 << 28);
        // Bit 1: the origin attacked; bit 0: the destination attacked; other squares ignored.
        assert_eq!(threat_bucket(0, e2e4), 0);
        assert_eq!(threat_bucket(e4, e2e4), 1);
        assert_eq!(threat_bucket(e2, e2e4), 2);
        assert_eq!(threat_bucket(e2 | e4 | 1 << 40, e2e4), 3);
        assert_eq!(threat_bucket(!(e2 | e4), e2e4), 0);
        // A cutoff with e4 attacked fills bucket 1 only.
        let conts = ContRefs {
            threats: e4 | 1 << 40,
            ..ContRefs::default()
        };
        h.update_quiets(&p, 0, 2, (e2e4, 28), &[], &conts);
        assert_eq!(h.main.get(0, e4, e2e4), 550);
        assert_eq!(h.main.get(0, 1 << 40 | e4, e2e4), 550);
        for quiet in [0, e2, e2 | e4] {
            assert_eq!(h.main.get(0, quiet, e2e4), 0, "threats {quiet:#x}");
        }
        assert_eq!(h.quiet_score(&p, 0, e2e4, 28, &conts), 550);
        assert_eq!(h.quiet_score(&p, 0, e2e4, 28, &ContRefs::default()), 0);
    }

    #[test]
    fn continuation_kinds_pick_their_own_rows() {
        // Kind = 2 * in check + capture; every kind 0 with the split off.
        assert_eq!(cont_kind(true, false, false), 0);
        assert_eq!(cont_kind(true, false, true), 1);
        assert_eq!(cont_kind(true, true, false), 2);
        assert_eq!(cont_kind(true, true, true), 3);
        for (check, capture) in [(false, true), (true, false), (true, true)] {
            assert_eq!(cont_kind(false, check, capture), 0);
        }
        // Kind 0 is the unsplit table's row; every kind of one (piece, to) is its own row.
        assert_eq!(cont_row(0, 5), 5);
        let rows: Vec<usize> = (0..CONT_KINDS).map(|k| cont_row(k, 767)).collect();
        assert_eq!(rows, [767, 1535, 2303, 3071]);
        // A cutoff after a capture made in check (kind 3) lands in that row only.
        let p = hand_params();
        let mut h = Histories::new();
        let conts = ContRefs {
            plies: [Some((cont_row(3, 5), 1024)), None, None, None],
            ..ContRefs::default()
        };
        h.update_quiets(&p, 0, 1, (Move16::from_raw(1 | 18 << 6), 100), &[], &conts);
        assert_eq!(h.cont.get(cont_row(3, 5), 100), 250);
        for kind in 0..3 {
            assert_eq!(h.cont.get(cont_row(kind, 5), 100), 0, "kind {kind}");
        }
    }

    #[test]
    fn low_ply_history_orders_the_first_plies_only() {
        // Depth 1: bonus and malus are 250 each. A node at ply 1 writes its row only; the
        // ordering part is entry * LowPlyWeight / 1024 / (1 + 2 * ply): 250 * 4 / 3 = 333.
        let p = Params {
            low_ply_weight: 4096,
            ..hand_params()
        };
        let mut h = Histories::new();
        let conts = ContRefs {
            low_ply: Some(1),
            ..ContRefs::default()
        };
        let best = Move16::from_raw(1 | 18 << 6);
        h.update_quiets(
            &p,
            0,
            1,
            (best, 100),
            &[(Move16::from_raw(2 | 19 << 6), 200)],
            &conts,
        );
        assert_eq!(h.low_ply.get(1, 100), 250);
        assert_eq!(h.low_ply.get(1, 200), -250);
        for ply in [0, 2, 3] {
            assert_eq!(h.low_ply.get(ply, 100), 0, "ply {ply}");
        }
        assert_eq!(h.low_ply_score(&p, 100, &conts), 333);
        assert_eq!(h.low_ply_score(&p, 200, &conts), -333);
        // Not part of the history score that drives LMR and pruning: that is the main table's.
        assert_eq!(h.quiet_score(&p, 0, best, 100, &conts), 250);
        // A node without a row (ply 4 and deeper, or LowPlyWeight 0) reads nothing.
        assert_eq!(h.low_ply_score(&p, 100, &ContRefs::default()), 0);
        // A new search starts from an empty table.
        h.low_ply.clear();
        assert_eq!(h.low_ply.get(1, 100), 0);
    }

    #[test]
    fn continuation_three_plies_back_counts_a_quarter() {
        // Depth 1: the continuation bonus is 250; the row of the move 3 plies back gets
        // ContWeight3 256/1024 of it (62) and adds ContRead3 256/1024 of its entry (15) to the
        // quiet's score, beside the full 250 of the row 1 ply back and the main history's 250.
        let p = hand_params();
        assert_eq!((p.cont_weight3, p.cont_read3), (256, 256));
        let mut h = Histories::new();
        let conts = ContRefs {
            plies: [Some((5, 1024)), None, None, None],
            ply3: Some((11, p.cont_weight3)),
            ..ContRefs::default()
        };
        let best = Move16::from_raw(1 | 18 << 6);
        h.update_quiets(&p, 0, 1, (best, 100), &[], &conts);
        assert_eq!(h.cont.get(5, 100), 250);
        assert_eq!(h.cont.get(11, 100), 62);
        assert_eq!(h.quiet_score(&p, 0, best, 100, &conts), 250 + 250 + 15);
        // Without the row 3 plies back the score loses those 15.
        let without = ContRefs {
            ply3: None,
            ..conts
        };
        assert_eq!(h.quiet_score(&p, 0, best, 100, &without), 250 + 250);
    }

    #[test]
    fn continuation_weights_and_killers() {
        let p = hand_params();
        let mut h = Histories::new();
        let conts = ContRefs {
            plies: [Some((5, 1024)), Some((9, 512)), None, None],
            ply3: None,
            pawn: Some(7),
            threats: 0,
            low_ply: None,
        };
        let best = Move16::from_raw(1 | 18 << 6);
        // Depth 1: cont bonus 250, weighted 250 at ply 1 and 125 at ply 2; the main and pawn
        // bonus 250 unweighted; quiet score sums all four.
        h.update_quiets(&p, 0, 1, (best, 100), &[], &conts);
        assert_eq!(h.cont.get(5, 100), 250);
        assert_eq!(h.cont.get(9, 100), 125);
        assert_eq!(h.pawn.get(7, 100), 250);
        assert_eq!(h.pawn.get(6, 100), 0);
        assert_eq!(
            h.quiet_score(&p, 0, best, 100, &conts),
            250 + 250 + 125 + 250
        );
        let mut k = Killers::default();
        k.push(best);
        k.push(best);
        assert_eq!(k.0, [best, Move16::NONE]);
        k.push(Move16::from_raw(7));
        assert_eq!(k.0, [Move16::from_raw(7), best]);
    }

    /// A node's quiets scored together through [`QuietRows`] get what each gets alone from
    /// [`Histories::quiet_score`] and [`Histories::low_ply_score`]: on tables of random entries,
    /// every combination of present and missing plies, pawn and low-ply rows, with the butterfly
    /// history absolute, relative or off.
    #[test]
    fn quiet_rows_score_as_the_single_lookups_do() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(2004);
        let mut h = Histories::new();
        let mut fill = |t: &mut [i16]| t.iter_mut().for_each(|e| *e = rng.gen_range(-16384..16384));
        fill(&mut h.main.0);
        fill(&mut h.searched.0);
        fill(&mut h.cont.0);
        fill(&mut h.pawn.0);
        fill(&mut h.low_ply.0);
        let mut rng = rand::rngs::StdRng::seed_from_u64(1992);
        for case in 0..400 {
            let p = Params {
                use_history: case % 5 != 0,
                use_relative_history: case % 3 == 0,
                cont_read3: rng.gen_range(0..=2048),
                low_ply_weight: rng.gen_range(0..=8192),
                ..Params::default()
            };
            let row = |rng: &mut rand::rngs::StdRng| {
                rng.gen_bool(0.7)
                    .then(|| (rng.gen_range(0..CONT_KINDS * PIECE_TO), 1024))
            };
            let conts = ContRefs {
                plies: [row(&mut rng), row(&mut rng), row(&mut rng), row(&mut rng)],
                ply3: row(&mut rng),
                pawn: rng.gen_bool(0.7).then(|| rng.gen_range(0..PAWN_HIST_ROWS)),
                low_ply: rng.gen_bool(0.5).then(|| rng.gen_range(0..LOW_PLY)),
                threats: rng.gen(),
            };
            let side = rng.gen_range(0..2);
            let rows = h.quiet_rows(&p, side, &conts);
            for _ in 0..16 {
                let m = Move16::from_raw(rng.gen_range(0..4096));
                let pt = rng.gen_range(0..PIECE_TO);
                assert_eq!(
                    rows.score(m, pt),
                    h.quiet_score(&p, side, m, pt, &conts),
                    "{conts:?}"
                );
                assert_eq!(
                    rows.low_ply_score(pt),
                    h.low_ply_score(&p, pt, &conts),
                    "{conts:?}"
                );
            }
        }
    }
}
