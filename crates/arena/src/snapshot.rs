//! The one snapshot of a run's statistics, computed by the runner after each finished pair:
//! counts, estimates, LLR and the typed decision. The progress line, the chart's history, the
//! state file, the results block and the JSON summary all read this one value, so they never
//! disagree and nothing is computed twice.

use crate::state::{Point, Tally};
use crate::stats::{self, Decision, Estimate, SprtConfig, SprtStatus};

/// The statistics of one encounter's tally (dev's side in an SPRT).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapshot {
    /// The counts.
    pub tally: Tally,
    /// Elo, nElo, LOS, draw ratio and score of the pentanomial counts.
    pub estimate: Estimate,
    /// The SPRT and where it stands, if the run is one.
    pub sprt: Option<(SprtConfig, SprtStatus)>,
}

impl Snapshot {
    /// The statistics of `tally` under an optional SPRT.
    pub fn new(tally: Tally, sprt: Option<&SprtConfig>) -> Snapshot {
        Snapshot {
            tally,
            estimate: stats::estimate_penta(&tally.penta),
            sprt: sprt.map(|cfg| (*cfg, stats::sprt_penta(&tally.penta, cfg))),
        }
    }

    /// The hypothesis the SPRT accepted, if it decided.
    pub fn decision(&self) -> Option<Decision> {
        self.sprt.and_then(|(_, s)| s.decision)
    }

    /// The LLR (0 without an SPRT).
    pub fn llr(&self) -> f64 {
        self.sprt.map_or(0.0, |(_, s)| s.llr)
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.tally.games()
    }

    /// The chart's point for this snapshot.
    pub fn point(&self) -> Point {
        Point {
            games: self.games(),
            llr: self.llr(),
            elo: self.estimate.elo,
            elo_error: self.estimate.elo_error,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::output::{results_block, Heading};
    use crate::report::{progress_message, Summary};
    use crate::stats::Model;

    /// One pair in: the same numbers come out of the results block, the progress line, the
    /// chart's point, the JSON summary and the state's decision.
    #[test]
    fn one_pair_gives_the_same_numbers_in_every_sink() {
        let mut tally = Tally::default();
        tally.add_pair([2, 1]);
        let cfg = SprtConfig::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).unwrap();
        let snap = Snapshot::new(tally, Some(&cfg));
        let (_, status) = snap.sprt.unwrap();
        let elo = snap.estimate.elo.unwrap();
        assert_eq!(snap.games(), 2);
        assert_eq!(snap.decision(), None);

        let h = Heading {
            first: "dev",
            second: "base",
            tc: "1+0.01",
            threads: "1t",
            hash: "16MB",
            book: "",
        };
        let block = results_block(&h, &snap);
        assert!(block.contains(&format!("\nElo: {elo:.2} +/- ")), "{block}");
        assert!(
            block.contains(&format!("\nLLR: {:.2} (", status.llr)),
            "{block}"
        );
        assert!(
            block.contains("\nGames: 2, Wins: 1, Losses: 0, Draws: 1,"),
            "{block}"
        );
        assert!(block.contains("\nPtnml(0-2): [0, 0, 0, 1, 0],"), "{block}");

        let line = progress_message(&snap, 0.0, 10);
        assert!(
            line.starts_with(&format!("2 games +1=1-0 75.00% elo {elo:.2}±")),
            "{line}"
        );
        assert!(
            line.contains(&format!(" llr {:.2} (", status.llr)),
            "{line}"
        );

        let point = snap.point();
        assert_eq!(
            (point.games, point.llr, point.elo),
            (2, status.llr, Some(elo))
        );
        assert_eq!(point.elo_error, snap.estimate.elo_error);

        let summary = Summary::new("dev", "base", "1+0.01", &snap, &BTreeMap::new());
        assert_eq!(
            (summary.games, summary.llr, summary.estimate.elo),
            (2, Some(status.llr), Some(elo))
        );
        assert_eq!(summary.pentanomial, tally.penta);
        assert_eq!(summary.decision, snap.decision());
    }

    #[test]
    fn a_decided_snapshot_carries_its_decision() {
        // fishtest's H1 example (as `arena stats` tests it).
        let tally = Tally {
            penta: [100, 1000, 3000, 2000, 300],
            ..Tally::default()
        };
        let cfg = SprtConfig::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).unwrap();
        let snap = Snapshot::new(tally, Some(&cfg));
        assert_eq!(snap.decision(), Some(Decision::H1));
        assert_eq!(Snapshot::new(tally, None).decision(), None);
        assert_eq!(Snapshot::new(tally, None).point().llr, 0.0);
        let summary = crate::report::Summary::new("a", "b", "-", &snap, &Default::default());
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!(json["decision"], "H1");
    }
}
