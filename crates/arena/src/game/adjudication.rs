//! How a game ends without an engine at fault: the rule endings shakmaty referees (mate,
//! stalemate, insufficient material, fifty moves, threefold) and fastchess's adjudications
//! (resign, draw, move cap), in fastchess's order.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, Position};

use super::{side_index, Adjudication, DrawRule, Ending, Termination};
use crate::uci::Score;

/// fastchess's adjudication counters (its DrawTracker, ResignTracker and MaxMovesTracker).
#[derive(Debug, Default)]
pub(super) struct Adjudicator {
    draw_plies: u32,
    resign: [u32; 2],
    resign_twosided: u32,
    engine_plies: u32,
    last_score: Option<Score>,
}

impl Adjudicator {
    /// After `mover` played with `score` (its own view); `halfmoves` is the new fifty-move
    /// counter.
    pub fn update(
        &mut self,
        rules: &Adjudication,
        mover: Color,
        score: Option<Score>,
        halfmoves: u32,
    ) {
        self.engine_plies += 1;
        self.last_score = score;
        let cp = score.map(Score::as_cp);
        if let Some(d) = rules.draw {
            if halfmoves == 0 {
                self.draw_plies = 0;
            }
            match cp {
                Some(cp) if cp.abs() <= i64::from(d.score) => self.draw_plies += 1,
                _ => self.draw_plies = 0,
            }
        }
        if let Some(r) = rules.resign {
            let threshold = i64::from(r.score);
            if r.twosided {
                match cp {
                    Some(cp) if cp.abs() >= threshold => self.resign_twosided += 1,
                    _ => self.resign_twosided = 0,
                }
            } else {
                let counter = &mut self.resign[side_index(mover)];
                match cp {
                    Some(cp) if cp <= -threshold => *counter += 1,
                    _ => *counter = 0,
                }
            }
        }
    }

    /// Checked before the next move (after the rule endings): resign, then draw, then the
    /// move cap, as fastchess orders them. `last_mover` made the last move.
    pub fn decide(
        &self,
        rules: &Adjudication,
        last_mover: Color,
        fullmoves: u32,
    ) -> Option<Ending> {
        if let Some(r) = rules.resign {
            let losing = self.last_score.is_some_and(|s| s.as_cp() < 0);
            let reached = if r.twosided {
                self.resign_twosided >= r.movecount.saturating_mul(2)
            } else {
                self.resign[side_index(last_mover)] >= r.movecount
            };
            if losing && reached && r.movecount > 0 {
                return Some(Ending::lose(last_mover, Termination::AdjudicatedResign));
            }
        }
        let quiet = |d: DrawRule| {
            fullmoves.saturating_sub(1) >= d.movenumber
                && self.draw_plies >= d.movecount.saturating_mul(2)
        };
        if rules.draw.is_some_and(quiet) {
            return Some(Ending::draw(Termination::AdjudicatedDraw));
        }
        if (rules.maxmoves).is_some_and(|m| self.engine_plies >= m.saturating_mul(2)) {
            return Some(Ending::draw(Termination::MaxMoves));
        }
        None
    }
}

/// A rule ending of `pos`, in fastchess's order: mate/stalemate, insufficient material,
/// fifty moves, threefold repetition (counted over `hashes`, which ends with `pos`).
pub(super) fn rule_ending(pos: &Chess, hashes: &[Zobrist64]) -> Option<Ending> {
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            Ending::lose(pos.turn(), Termination::Checkmate)
        } else {
            Ending::draw(Termination::Stalemate)
        });
    }
    if pos.is_insufficient_material() {
        return Some(Ending::draw(Termination::InsufficientMaterial));
    }
    if pos.halfmoves() >= 100 {
        return Some(Ending::draw(Termination::FiftyMoves));
    }
    // Only positions since the last capture or pawn move can repeat.
    let window = (pos.halfmoves() as usize + 1).min(hashes.len());
    let recent = &hashes[hashes.len() - window..];
    let now = hashes.last()?;
    if recent.iter().filter(|h| *h == now).count() >= 3 {
        return Some(Ending::draw(Termination::ThreefoldRepetition));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameResult, Opening};

    fn parts(e: Ending) -> (GameResult, Termination, String) {
        (e.result, e.termination, e.reason)
    }

    fn ending_after(
        fen: Option<&str>,
        moves: &[&str],
    ) -> Option<(GameResult, Termination, String)> {
        let o = Opening {
            fen: fen.map(String::from),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        };
        let p = o.play().unwrap();
        rule_ending(&p.position, &p.hashes).map(parts)
    }

    #[test]
    fn rule_endings_with_fastchess_reasons() {
        let mate = ending_after(None, &["f2f3", "e7e5", "g2g4", "d8h4"]).unwrap();
        assert_eq!(
            mate,
            (
                GameResult::BlackWins,
                Termination::Checkmate,
                "Black mates".into()
            )
        );
        let stale = ending_after(Some("k7/8/1Q6/8/8/8/8/7K b - - 0 1"), &[]).unwrap();
        assert_eq!(stale.1, Termination::Stalemate);
        assert_eq!(stale.2, "Draw by stalemate");
        let bare = ending_after(Some("k7/8/8/8/8/8/8/6NK w - - 0 1"), &[]).unwrap();
        assert_eq!(bare.2, "Draw by insufficient mating material");
        let fifty = ending_after(Some("k7/8/8/8/8/8/8/5RRK w - - 99 80"), &["g1g2"]).unwrap();
        assert_eq!(fifty.2, "Draw by fifty moves rule");
        assert!(ending_after(Some("k7/8/8/8/8/8/8/5RRK w - - 98 80"), &["g1g2"]).is_none());
        // Mate on the 100th ply is mate, not a fifty-move draw.
        let mate50 = ending_after(Some("k7/8/1K6/8/8/8/8/7R w - - 99 80"), &["h1h8"]).unwrap();
        assert_eq!(mate50.1, Termination::Checkmate);
    }

    #[test]
    fn threefold_counts_the_opening_and_needs_three() {
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let twice: Vec<&str> = shuffle.to_vec();
        assert!(ending_after(None, &twice).is_none());
        let thrice: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
        let rep = ending_after(None, &thrice).unwrap();
        assert_eq!(
            rep,
            (
                GameResult::Draw,
                Termination::ThreefoldRepetition,
                "Draw by 3-fold repetition".into()
            )
        );
    }

    #[test]
    fn resign_adjudication_one_sided() {
        let rules = Adjudication {
            resign: Some("movecount=3,score=400".parse().unwrap()),
            ..Adjudication::default()
        };
        let mut a = Adjudicator::default();
        for i in 0..3 {
            a.update(&rules, Color::White, Some(Score::Cp(-500)), 1);
            assert!(a.decide(&rules, Color::White, 10).is_none() || i == 2);
            a.update(&rules, Color::Black, Some(Score::Cp(450)), 1);
        }
        a.update(&rules, Color::White, Some(Score::Cp(-401)), 1);
        let (result, term, reason) = a.decide(&rules, Color::White, 10).map(parts).unwrap();
        assert_eq!(
            (result, term),
            (GameResult::BlackWins, Termination::AdjudicatedResign)
        );
        assert_eq!(reason, "Black wins by adjudication");
        // A better move in between restarts the count; a mate score counts as huge.
        let mut a = Adjudicator::default();
        a.update(&rules, Color::Black, Some(Score::Mate(-3)), 1);
        a.update(&rules, Color::Black, Some(Score::Cp(-399)), 1);
        a.update(&rules, Color::Black, Some(Score::Mate(-2)), 1);
        a.update(&rules, Color::Black, Some(Score::Mate(-1)), 1);
        assert!(a.decide(&rules, Color::Black, 10).is_none());
        a.update(&rules, Color::Black, Some(Score::Mate(-1)), 1);
        assert_eq!(
            a.decide(&rules, Color::Black, 10).unwrap().result,
            GameResult::WhiteWins
        );
    }

    #[test]
    fn draw_adjudication_needs_movenumber_and_quiet_plies() {
        let rules = Adjudication {
            draw: Some("movenumber=40,movecount=2,score=10".parse().unwrap()),
            ..Adjudication::default()
        };
        let mut a = Adjudicator::default();
        for _ in 0..4 {
            a.update(&rules, Color::White, Some(Score::Cp(5)), 3);
        }
        assert!(a.decide(&rules, Color::White, 40).is_none());
        let d = a.decide(&rules, Color::White, 41).map(parts).unwrap();
        assert_eq!(
            (d.1, d.2.as_str()),
            (Termination::AdjudicatedDraw, "Draw by adjudication")
        );
        // A capture or pawn move restarts the count; a mate score breaks it.
        a.update(&rules, Color::White, Some(Score::Cp(0)), 0);
        assert!(a.decide(&rules, Color::White, 41).is_none());
        let mut a = Adjudicator::default();
        for s in [Score::Cp(0), Score::Cp(0), Score::Mate(30), Score::Cp(0)] {
            a.update(&rules, Color::White, Some(s), 5);
        }
        assert!(a.decide(&rules, Color::White, 41).is_none());
    }

    #[test]
    fn maxmoves_counts_engine_moves() {
        let rules = Adjudication {
            maxmoves: Some(2),
            ..Adjudication::default()
        };
        let mut a = Adjudicator::default();
        for _ in 0..3 {
            a.update(&rules, Color::White, None, 1);
        }
        assert!(a.decide(&rules, Color::White, 1).is_none());
        a.update(&rules, Color::White, None, 1);
        let d = a.decide(&rules, Color::White, 1).map(parts).unwrap();
        assert_eq!(
            (d.0, d.1, d.2.as_str()),
            (
                GameResult::Draw,
                Termination::MaxMoves,
                "Draw by adjudication"
            )
        );
    }
}
