//! Limited strength: `Skill Level` (0 to 20) and `UCI_LimitStrength` with `UCI_Elo`.
//!
//! A level below 20 weakens the engine in two ways that both grow as the level falls: each
//! move's search gets a node budget ([`node_budget`], from 512 nodes at level 0 to about 100,000
//! at level 19), and the move is chosen among the best [`LINES`] root lines of that search
//! (MultiPV behind the scenes) by each line's score plus a random bonus drawn uniformly from
//! zero to [`noise_cp`] centipawns (200 at level 0, 10 at level 19), so a weak level sometimes
//! plays a move up to that much worse than its best. Level 20 is the full engine.
//!
//! `UCI_Elo` is mapped to a level by interpolating [`CALIBRATION`]: each point is a level and
//! the Elo it measured on the scale of Stockfish 15.1's own `UCI_Elo`, by a gauntlet against
//! Stockfish's limited levels (docs/engine.md#limited-strength shows the table, generated
//! from the results database, and the command that measured it).

use clio_search::{Info, Score};
use rand::Rng;

/// The level of the full engine: no node budget, no random choice.
pub const FULL: f64 = 20.0;
/// Lowest `UCI_Elo` the option accepts (Stockfish 15.1's lowest).
pub const MIN_ELO: i64 = 1350;
/// Highest `UCI_Elo` the option accepts (Stockfish 15.1's highest).
pub const MAX_ELO: i64 = 2850;
/// Root lines a limited search compares.
pub const LINES: u32 = 4;

/// Measured points `(level, Elo)`, levels rising, Elos rising: the Elo of each level on
/// Stockfish 15.1's `UCI_Elo` scale (see the module's documentation).
pub const CALIBRATION: &[(f64, f64)] = &[
    (0.0, 1450.0),
    (4.0, 1703.0),
    (8.0, 1856.0),
    (12.0, 1944.0),
    (16.0, 2169.0),
    (19.0, 2322.0),
];

/// The level that plays at `elo` on the calibration's scale, clamped to the measured range.
pub fn level_for_elo(elo: i64) -> f64 {
    let elo = elo as f64;
    let (first, last) = (CALIBRATION[0], CALIBRATION[CALIBRATION.len() - 1]);
    if elo <= first.1 {
        return first.0;
    }
    if elo >= last.1 {
        return last.0;
    }
    for pair in CALIBRATION.windows(2) {
        let ((l0, e0), (l1, e1)) = (pair[0], pair[1]);
        if elo <= e1 {
            return l0 + (l1 - l0) * (elo - e0) / (e1 - e0);
        }
    }
    last.0
}

/// Nodes one move's search may spend at `level` (below [`FULL`]): 512 · 2^(0.4 · level).
pub fn node_budget(level: f64) -> u64 {
    (512.0 * (0.4 * level.clamp(0.0, FULL)).exp2()).round() as u64
}

/// The widest random bonus a line gets at `level`, in centipawns: 10 · (20 − level).
pub fn noise_cp(level: f64) -> i32 {
    (10.0 * (FULL - level.clamp(0.0, FULL))).round() as i32
}

/// One root line's score in centipawns for the choice: mates beyond any evaluation.
fn line_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-20_000, 20_000),
        Score::Mate(m) if m > 0 => 30_000 - m,
        Score::Mate(m) => -30_000 - m,
    }
}

/// The root lines of the deepest completed depth, as a limited search reports them (one per
/// `multipv` rank; a later report of a rank at the same depth replaces the earlier one). A
/// depth cut short by the node budget, with fewer lines than the depth before it, is not
/// complete: the choice is then among the earlier depth's lines (as Stockfish's skill levels
/// choose among root moves that keep their last completed scores).
#[derive(Debug, Default, Clone)]
pub struct Lines {
    depth: u32,
    lines: Vec<Info>,
    /// The lines of the deepest depth before `depth` that had all its lines.
    complete: Vec<Info>,
}

impl Lines {
    /// Whether the current depth has as many lines as the last complete one.
    fn current_is_complete(&self) -> bool {
        self.lines.len() >= self.complete.len()
    }

    /// Takes one progress report.
    pub fn record(&mut self, info: &Info) {
        if info.pv.is_empty() {
            return;
        }
        if info.depth > self.depth {
            self.depth = info.depth;
            if self.current_is_complete() {
                self.complete = std::mem::take(&mut self.lines);
            } else {
                self.lines.clear();
            }
        } else if info.depth < self.depth {
            return;
        }
        let rank = info.multipv.max(1) as usize;
        if self.lines.len() < rank {
            self.lines.resize(rank, info.clone());
        }
        self.lines[rank - 1] = info.clone();
    }

    /// The line a player at `level` chooses: the best of score plus a uniform bonus in
    /// `0..=noise_cp(level)`, the first line on a tie; `None` without lines.
    pub fn choose(&self, level: f64, rng: &mut impl Rng) -> Option<&Info> {
        let noise = noise_cp(level);
        let lines = if self.current_is_complete() {
            &self.lines
        } else {
            &self.complete
        };
        lines
            .iter()
            .map(|line| {
                let bonus = if noise > 0 {
                    rng.gen_range(0..=noise)
                } else {
                    0
                };
                (line_cp(line.score) + bonus, line)
            })
            .fold(None, |best: Option<(i32, &Info)>, (v, line)| match best {
                Some((b, _)) if b >= v => best,
                _ => Some((v, line)),
            })
            .map(|(_, line)| line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn elo_maps_onto_levels_monotonically_and_clamped() {
        assert_eq!(level_for_elo(MIN_ELO - 500), CALIBRATION[0].0);
        assert_eq!(level_for_elo(MAX_ELO + 500), CALIBRATION.last().unwrap().0);
        let mut last = -1.0;
        for elo in MIN_ELO..=MAX_ELO {
            let l = level_for_elo(elo);
            assert!(l >= last && (0.0..=FULL).contains(&l), "{elo}: {l}");
            last = l;
        }
        for w in CALIBRATION.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{w:?}");
        }
        // UCI_LimitStrength always limits: the table stops below the full engine.
        assert!(CALIBRATION.last().unwrap().0 < FULL);
    }

    #[test]
    fn lower_levels_search_less_and_choose_more_freely() {
        assert_eq!(node_budget(0.0), 512);
        assert_eq!(noise_cp(0.0), 200);
        assert_eq!(noise_cp(FULL), 0);
        for l in 0..19 {
            let (a, b) = (f64::from(l), f64::from(l + 1));
            assert!(node_budget(a) < node_budget(b));
            assert!(noise_cp(a) > noise_cp(b));
        }
    }

    fn info(depth: u32, multipv: u32, score: Score) -> Info {
        use clio_board::shakmaty::{Chess, Position};
        let pos = Chess::default();
        let m = pos.legal_moves()[multipv as usize];
        Info {
            depth,
            seldepth: depth,
            score,
            nodes: 1,
            nps: 1,
            time_ms: 0,
            hashfull: 0,
            pv: vec![m],
            multipv,
        }
    }

    #[test]
    fn lines_keep_the_deepest_depth_and_choose_within_the_noise() {
        let mut lines = Lines::default();
        lines.record(&info(1, 1, Score::Cp(500)));
        for (k, score) in [
            (1, Score::Cp(40)),
            (2, Score::Cp(30)),
            (3, Score::Cp(-500)),
            (4, Score::Mate(-2)),
        ] {
            lines.record(&info(2, k, score));
        }
        assert_eq!(lines.lines.len(), 4);
        lines.record(&info(1, 2, Score::Cp(900)));
        assert_eq!(lines.lines[1].score, Score::Cp(30));
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut picked = [0; 5];
        for _ in 0..2000 {
            let line = lines.choose(0.0, &mut rng).unwrap();
            picked[line.multipv as usize] += 1;
        }
        // 200 cp of noise: the two close lines share the choice, the -500 and mated ones never.
        assert!(picked[1] > 800 && picked[2] > 600, "{picked:?}");
        assert_eq!(picked[3] + picked[4], 0, "{picked:?}");
        for _ in 0..100 {
            assert_eq!(lines.choose(FULL, &mut rng).unwrap().multipv, 1);
        }
        // Depth 3 cut short after its first line: the choice stays among depth 2's four lines.
        lines.record(&info(3, 1, Score::Cp(35)));
        let mut picked = [0; 5];
        for _ in 0..2000 {
            let line = lines.choose(0.0, &mut rng).unwrap();
            assert_eq!(line.depth, 2);
            picked[line.multipv as usize] += 1;
        }
        assert!(picked[1] > 800 && picked[2] > 600, "{picked:?}");
        // Once depth 3 has as many lines, it is the choice.
        for k in 2..=4 {
            lines.record(&info(3, k, Score::Cp(-900)));
        }
        for _ in 0..100 {
            let line = lines.choose(0.0, &mut rng).unwrap();
            assert_eq!((line.depth, line.multipv), (3, 1));
        }
    }
}
