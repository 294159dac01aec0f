//! The tunable registry: every search constant and every heuristic switch, defined once.
//!
//! One line per tunable, `field / "UciName" = default, min, max, step;` (the layout of
//! jw1912/akimbo's `tunable_params!`). From that single list come the plain struct field the
//! search reads (`params.hist_bonus_mul`), the UCI spin option, the OpenBench SPSA line and the
//! TOML skeleton for `tuning/`. Switches are UCI check options listed the same way.

use thiserror::Error;

/// One tunable integer: its UCI option name, default and SPSA range/step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamSpec {
    /// UCI option name, CamelCase (e.g. `HistBonusMul`).
    pub name: &'static str,
    /// Value the engine ships with.
    pub default: i32,
    /// Smallest accepted value.
    pub min: i32,
    /// Largest accepted value.
    pub max: i32,
    /// SPSA perturbation at the end of a tune (OpenBench's `c_end`).
    pub step: i32,
}

/// One heuristic switch: its UCI check option name, default and a one-line description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SwitchSpec {
    /// UCI option name, CamelCase (e.g. `UseHistory`).
    pub name: &'static str,
    /// Whether the heuristic is on by default.
    pub default: bool,
    /// What the switch turns on.
    pub help: &'static str,
}

/// A refused `set`/`set_switch`: the error names the option and, for values, the range.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParamError {
    /// No tunable or switch of that name.
    #[error("unknown option \"{0}\"")]
    Unknown(String),
    /// A tunable set outside its range.
    #[error("value {value} for {name} is outside [{min}, {max}]")]
    OutOfRange {
        /// The option.
        name: &'static str,
        /// The refused value.
        value: i32,
        /// Lower bound.
        min: i32,
        /// Upper bound.
        max: i32,
    },
}

/// SPSA learning rate OpenBench suggests for every line (`r_end`).
pub const R_END: f64 = 0.002;

macro_rules! define_params {
    (
        tunables { $($field:ident / $name:literal = $def:expr, $min:expr, $max:expr, $step:expr;)* }
        switches { $($sfield:ident / $sname:literal = $sdef:expr, $help:literal;)* }
    ) => {
        /// Every tunable and switch as a plain field: the search reads `params.field` directly.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct Params {
            $(#[doc = $name] pub $field: i32,)*
            $(#[doc = $help] pub $sfield: bool,)*
        }

        /// The shipped values, as a constant.
        pub const DEFAULTS: Params = Params { $($field: $def,)* $($sfield: $sdef,)* };

        impl Default for Params {
            fn default() -> Self {
                DEFAULTS
            }
        }

        const PARAM_SPECS: &[ParamSpec] = &[
            $(ParamSpec { name: $name, default: $def, min: $min, max: $max, step: $step },)*
        ];

        const SWITCH_SPECS: &[SwitchSpec] = &[
            $(SwitchSpec { name: $sname, default: $sdef, help: $help },)*
        ];

        impl Params {
            fn slot(&mut self, name: &str) -> Option<(&mut i32, &'static ParamSpec)> {
                let mut i = 0;
                $(
                    if name.eq_ignore_ascii_case($name) {
                        return Some((&mut self.$field, &PARAM_SPECS[i]));
                    }
                    i += 1;
                )*
                let _ = i;
                None
            }

            fn switch_slot(&mut self, name: &str) -> Option<&mut bool> {
                $(
                    if name.eq_ignore_ascii_case($sname) {
                        return Some(&mut self.$sfield);
                    }
                )*
                None
            }

            fn value_of(&self, name: &str) -> Option<i32> {
                $(
                    if name.eq_ignore_ascii_case($name) {
                        return Some(self.$field);
                    }
                )*
                None
            }

            fn switch_of(&self, name: &str) -> Option<bool> {
                $(
                    if name.eq_ignore_ascii_case($sname) {
                        return Some(self.$sfield);
                    }
                )*
                None
            }

            /// The field names in registry order (for the naming test).
            #[cfg(test)]
            fn field_names() -> Vec<&'static str> {
                vec![$(stringify!($field),)* $(stringify!($sfield),)*]
            }
        }
    };
}

define_params! {
    tunables {
        // Main (butterfly) history: bonus(d) = min(MUL*d + BASE, MAX), malus likewise; table bound.
        hist_bonus_mul / "HistBonusMul" = 292, 0, 1000, 25;
        hist_bonus_base / "HistBonusBase" = -40, -500, 500, 25;
        hist_bonus_max / "HistBonusMax" = 1992, 100, 8000, 100;
        hist_malus_mul / "HistMalusMul" = 319, 0, 1000, 25;
        hist_malus_base / "HistMalusBase" = -61, -500, 500, 25;
        hist_malus_max / "HistMalusMax" = 1860, 100, 8000, 100;
        hist_max / "HistMax" = 16384, 2048, 30000, 1024;
        // Relative history (Winands et al. 2004): score = SCALE*hh/(bf + BASE); bf counts by INC.
        rel_scale / "RelScale" = 1024, 64, 8192, 64;
        rel_count_inc / "RelCountInc" = 32, 1, 512, 4;
        rel_count_base / "RelCountBase" = 64, 1, 2048, 16;
        rel_count_max / "RelCountMax" = 16384, 1024, 30000, 1024;
        // Continuation history: one table, updated at plies 1, 2, 4, 6 with weights /1024.
        cont_bonus_mul / "ContBonusMul" = 286, 0, 1000, 25;
        cont_bonus_base / "ContBonusBase" = -50, -500, 500, 25;
        cont_bonus_max / "ContBonusMax" = 2000, 100, 8000, 100;
        cont_malus_mul / "ContMalusMul" = 314, 0, 1000, 25;
        cont_malus_base / "ContMalusBase" = -50, -500, 500, 25;
        cont_malus_max / "ContMalusMax" = 1800, 100, 8000, 100;
        cont_max / "ContMax" = 16384, 2048, 30000, 1024;
        cont_weight1 / "ContWeight1" = 1002, 0, 2048, 64;
        cont_weight2 / "ContWeight2" = 1049, 0, 2048, 64;
        cont_weight4 / "ContWeight4" = 500, 0, 2048, 64;
        cont_weight6 / "ContWeight6" = 534, 0, 2048, 64;
        // The move 3 plies back (Stockfish's `(ss - 3)->continuationHistory`): its entries count
        // READ3/1024 in a quiet's score and are updated with WEIGHT3/1024 of the bonus.
        cont_weight3 / "ContWeight3" = 256, 0, 2048, 64;
        cont_read3 / "ContRead3" = 256, 0, 2048, 64;
        // Capture history [piece][to][captured], added to MVV_MUL * victim value.
        cap_bonus_mul / "CapBonusMul" = 252, 0, 1000, 25;
        cap_bonus_base / "CapBonusBase" = 0, -500, 500, 25;
        cap_bonus_max / "CapBonusMax" = 1706, 100, 8000, 100;
        cap_malus_mul / "CapMalusMul" = 245, 0, 1000, 25;
        cap_malus_base / "CapMalusBase" = 0, -500, 500, 25;
        cap_malus_max / "CapMalusMax" = 1800, 100, 8000, 100;
        cap_max / "CapMax" = 12000, 2048, 30000, 1024;
        mvv_mul / "MvvMul" = 15, 1, 64, 2;
        good_capture_see / "GoodCaptureSee" = -40, -500, 200, 20;
        // Quiet ordering by threats and checks (Stockfish 16's `MovePicker::score`): a piece
        // attacked by a cheaper enemy piece that moves to a square no such piece attacks
        // gains its value, one that moves onto such a square loses it; a direct check gains
        // `CheckOrderBonus`.
        threat_order_queen / "ThreatOrderQueen" = 49615, 0, 100000, 2500;
        threat_order_rook / "ThreatOrderRook" = 25234, 0, 100000, 2500;
        threat_order_minor / "ThreatOrderMinor" = 11871, 0, 100000, 2500;
        check_order_bonus / "CheckOrderBonus" = 16384, 0, 100000, 2048;
        // History in LMR (r -= hist / DIV, in 1/1024 plies) and history pruning.
        lmr_hist_div / "LmrHistDiv" = 7542, 1024, 32768, 512;
        hist_prune_depth / "HistPruneDepth" = 4, 0, 10, 1;
        hist_prune_margin / "HistPruneMargin" = 2791, 250, 10000, 250;
        // Classic search constants.
        lmr_base / "LmrBase" = 55, 0, 200, 10;
        lmr_div / "LmrDiv" = 234, 100, 500, 15;
        lmp_base / "LmpBase" = 4, 0, 20, 1;
        rfp_depth / "RfpDepth" = 8, 0, 12, 1;
        rfp_margin / "RfpMargin" = 58, 20, 300, 10;
        nmp_min_depth / "NmpMinDepth" = 3, 1, 8, 1;
        nmp_base / "NmpBase" = 3, 1, 6, 1;
        nmp_depth_div / "NmpDepthDiv" = 4, 2, 8, 1;
        asp_window / "AspWindow" = 26, 5, 200, 5;
        qs_see_margin / "QsSeeMargin" = 16, -300, 300, 25;
        qs_futility_margin / "QsFutilityMargin" = 154, 0, 600, 25;
        // Quiescence move-count pruning: out of check, no capture is searched after the first
        // LIMIT (Stockfish's quiescence search skips every move after its second, except checks,
        // promotions and recaptures on the last move's square).
        qs_move_limit / "QsMoveLimit" = 3, 1, 32, 1;
        // Futility pruning: quiets skipped when eval + BASE + MUL*depth cannot reach alpha.
        fp_depth / "FpDepth" = 9, 0, 12, 1;
        fp_base / "FpBase" = 113, 0, 400, 10;
        fp_mul / "FpMul" = 106, 20, 300, 10;
        // SEE pruning in the main search: quiets losing more than QUIET*depth, captures
        // losing more than NOISY*depth^2, at depth <= DEPTH.
        see_prune_depth / "SeePruneDepth" = 8, 0, 12, 1;
        see_quiet_mul / "SeeQuietMul" = 67, 0, 200, 10;
        see_noisy_mul / "SeeNoisyMul" = 20, 0, 100, 5;
        // Correction history: eval += entry / DIV; bonus = error * depth / BONUSDIV, gravity MAX.
        corr_max / "CorrMax" = 1094, 128, 8192, 64;
        corr_div / "CorrDiv" = 32, 4, 256, 2;
        corr_bonus_div / "CorrBonusDiv" = 6, 1, 64, 1;
        // Non-pawn correction histories: each colour's entry weighs WEIGHT/1024 of the pawn one.
        np_corr_weight / "NpCorrWeight" = 568, 0, 2048, 64;
        // Singular extensions: at depth >= DEPTH, the TT move is extended when every other move
        // fails low against tt_score - MARGIN*depth/16 at half depth.
        se_depth / "SeDepth" = 8, 4, 20, 1;
        se_margin / "SeMargin" = 28, 4, 128, 4;
        // Internal iterative reduction: one ply less at depth >= DEPTH without a TT move.
        iir_depth / "IirDepth" = 5, 2, 20, 1;
        // Time: the soft limit is scaled by a percentage that falls from TMUNSTABLE (the best
        // move just changed) to TMSTABLE (the same best move for 4 iterations), and grows by
        // TMSCOREDROP percent when the score fell TMDROPCP or more since the last iteration.
        tm_unstable / "TmUnstable" = 150, 100, 300, 10;
        tm_stable / "TmStable" = 70, 30, 100, 5;
        tm_score_drop / "TmScoreDrop" = 25, 0, 100, 5;
        tm_drop_cp / "TmDropCp" = 20, 5, 100, 5;
        // Node share: the soft limit is scaled again by TMNODEBASE - TMNODEMUL * f percent (at
        // least 50), f the share of the root's nodes spent below the best move.
        tm_node_base / "TmNodeBase" = 240, 100, 400, 10;
        tm_node_mul / "TmNodeMul" = 200, 0, 400, 10;
        // Clock share: without `movestogo` the soft limit plans for TMMOVESTOGO more moves
        // (time / TMMOVESTOGO + 3/4 increment, at most an eighth of the time left).
        tm_moves_to_go / "TmMovesToGo" = crate::time::DEFAULT_MOVES_TO_GO as i32, 5, 60, 2;
        // Double extension: a singular TT move whose rivals fail MARGIN below the singular beta
        // is extended two plies, at most LIMIT times on one path (non-PV nodes only).
        dext_margin / "DextMargin" = 16, 0, 200, 5;
        dext_limit / "DextLimit" = 5, 0, 20, 1;
        // After a reduced search beats alpha, the full-depth search goes a ply deeper when it
        // beat the best score by DEEPERBASE + 10*depth (Stockfish 16's doDeeperSearch), a ply
        // shallower when it beat it by less than depth (doShallowerSearch); needs UseDeeper.
        deeper_base / "DeeperBase" = 46, 0, 200, 5;
        // A killer's or the countermove's late-move reduction, REFUTATION/1024 plies smaller
        // (Ethereal's `R -= stage < STAGE_QUIET`).
        lmr_refutation / "LmrRefutation" = 943, 0, 2048, 128;
        // The quiet move that led to a node gains main history by how much it lowered the
        // mover's static eval: clamp(-MUL * (eval before + eval after), -MAX, MAX), doubled when
        // positive, halved when negative (Stockfish 16.1's static-eval difference); 0 is off.
        prev_eval_mul / "PrevEvalMul" = 24, 0, 100, 2;
        prev_eval_max / "PrevEvalMax" = 3515, 0, 8000, 200;
        // The static eval times (RULE50DAMP - halfmove clock) / RULE50DAMP: evaluations fade
        // towards a draw as the fifty-move count grows (Stockfish's shuffling damp); 0 is off.
        rule50_damp / "Rule50Damp" = 200, 0, 1000, 20;
        // Low-ply history in quiet ordering: entry * LOWPLYWEIGHT / 1024 / (1 + 2 * ply) for the
        // first 4 plies (Stockfish 17's lowPlyHistory), emptied at each search; 0 is off.
        low_ply_weight / "LowPlyWeight" = 4489, 0, 8192, 256;
    }
    switches {
        use_history / "UseHistory" = true, "main butterfly history [side][from][to] in quiet ordering";
        use_threat_hist / "UseThreatHist" = true, "main butterfly history split by whether the enemy attacks the move's origin and destination (Berserk, Koivisto)";
        use_malus / "UseMalus" = true, "malus to quiets and captures searched before the cutoff move";
        use_relative_history / "UseRelativeHistory" = false, "order quiets by SCALE*hh/bf (Winands 2004) instead of hh";
        use_qs_tt_eval / "UseQsTtEval" = true, "quiescence stand pat from the TT score where its bound is on the right side of the static eval (Stockfish)";
        use_killers / "UseKillers" = true, "two killer moves per ply";
        use_countermove / "UseCountermove" = true, "countermove [prev piece][prev to] (Uiterwijk 1992)";
        use_cont_hist1 / "UseContHist1" = true, "continuation history of the move 1 ply back";
        use_cont_hist2 / "UseContHist2" = true, "continuation history of the move 2 plies back";
        use_cont_hist3 / "UseContHist3" = true, "continuation history of the move 3 plies back (at ContRead3/1024 in the score)";
        use_cont_hist4 / "UseContHist4" = true, "continuation history of the move 4 plies back";
        use_cont_hist6 / "UseContHist6" = true, "continuation history of the move 6 plies back";
        use_cont_hist_split / "UseContHistSplit" = true, "continuation history split by whether the earlier move was made in check and whether it captured (Stockfish's continuationHistory[inCheck][capture])";
        use_pawn_hist / "UsePawnHist" = true, "pawn history [pawn structure][piece][to] in quiet ordering (Stockfish 16.1)";
        use_capture_history / "UseCaptureHistory" = true, "capture history [piece][to][captured] added to MVV";
        use_threat_order / "UseThreatOrder" = true, "quiets ordered also by the threats they escape or walk into and the checks they give";
        use_history_lmr / "UseHistoryLmr" = true, "history adjusts late move reductions";
        use_history_pruning / "UseHistoryPruning" = true, "prune late quiets with bad history at shallow depth";
        use_improving / "UseImproving" = true, "improving (static eval above two plies back): one ply less reverse futility margin; late move pruning halved when not improving";
        use_corr_hist / "UseCorrHist" = true, "correction history [side][pawn structure] added to the static eval";
        use_np_corr_hist / "UseNpCorrHist" = true, "non-pawn correction histories [side][each colour's pieces] (needs UseCorrHist)";
        use_asp_reduce / "UseAspReduce" = true, "after an aspiration fail high the root is searched again a ply shallower (Ethereal, Stockfish)";
        use_nnue / "UseNnue" = true, "the neural evaluation (crates/search/src/nnue.rs, the embedded network distilled from Stockfish 15.1's) in place of the hand-written one; off, the hand-written evaluation";
        use_partial_result / "UsePartialResult" = true, "a search stopped inside an iteration plays the root move that iteration found better (the last to raise alpha, else the last fail high), not the last completed iteration's (Stockfish)";
        use_deeper / "UseDeeper" = true, "the re-search after a reduced move beats alpha goes a ply deeper or shallower by how far it beat the best score (Stockfish's doDeeperSearch, doShallowerSearch)";
        use_upcoming_rep / "UseUpcomingRep" = true, "a node whose side to move has a reversible move back to a position of the search tree scores at least a draw (Stockfish's cuckoo tables)";
    }
}

/// Every tunable, in registry order.
pub fn param_specs() -> &'static [ParamSpec] {
    PARAM_SPECS
}

/// Every heuristic switch, in registry order.
pub fn switch_specs() -> &'static [SwitchSpec] {
    SWITCH_SPECS
}

impl Params {
    /// Sets a tunable by UCI name (case-insensitive); refuses unknown names and values outside
    /// the declared range.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), ParamError> {
        let (slot, spec) = self
            .slot(name)
            .ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        if !(spec.min..=spec.max).contains(&value) {
            return Err(ParamError::OutOfRange {
                name: spec.name,
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        *slot = value;
        Ok(())
    }

    /// Turns a heuristic switch on or off by UCI name (case-insensitive).
    pub fn set_switch(&mut self, name: &str, on: bool) -> Result<(), ParamError> {
        let slot = self
            .switch_slot(name)
            .ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        *slot = on;
        Ok(())
    }

    /// Current value of a tunable by UCI name.
    pub fn get(&self, name: &str) -> Option<i32> {
        self.value_of(name)
    }

    /// Current state of a switch by UCI name.
    pub fn get_switch(&self, name: &str) -> Option<bool> {
        self.switch_of(name)
    }

    /// Turns every history-family switch off, and the two history tunables that 0 turns off
    /// (the low-ply history's weight, the static-eval difference's bonus): plain MVV-LVA
    /// ordering (the ablation's baseline).
    pub fn all_history_off(&mut self) {
        for spec in SWITCH_SPECS {
            let _ = self.set_switch(spec.name, false);
        }
        self.low_ply_weight = 0;
        self.prev_eval_mul = 0;
    }

    /// OpenBench SPSA input, one tunable per line: `name, int, value, min, max, step, 0.002`.
    pub fn openbench_lines() -> String {
        PARAM_SPECS
            .iter()
            .map(|p| {
                format!(
                    "{}, int, {}, {}, {}, {}, {}\n",
                    p.name, p.default, p.min, p.max, p.step, R_END
                )
            })
            .collect()
    }

    /// A `[[param]]` skeleton for an `arena spsa` config in `tuning/` (issue 5's format).
    pub fn toml_skeleton() -> String {
        let mut out = String::from(
            "# Generated by `clio params --toml`: every tunable of Clio with its range.\n\
             # Keep the [[param]] blocks to tune and add the [spsa] and [match] tables.\n",
        );
        for p in PARAM_SPECS {
            out.push_str(&format!(
                "\n[[param]]\nname = \"{}\"\ntype = \"int\"\nvalue = {}\nmin = {}\nmax = {}\nstep = {}\nr_end = {}\n",
                p.name, p.default, p.min, p.max, p.step, R_END
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camel(snake: &str) -> String {
        snake
            .split('_')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect()
    }

    #[test]
    fn names_are_unique_camel_case_of_the_fields_and_defaults_in_range() {
        let names: Vec<&str> = param_specs()
            .iter()
            .map(|p| p.name)
            .chain(switch_specs().iter().map(|s| s.name))
            .collect();
        let mut lower: Vec<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
        lower.sort();
        lower.dedup();
        assert_eq!(lower.len(), names.len(), "UCI names must be unique");
        for (field, name) in Params::field_names().iter().zip(&names) {
            assert_eq!(&camel(field), name);
        }
        let d = Params::default();
        for p in param_specs() {
            assert!(p.min < p.max && p.step > 0, "{}", p.name);
            assert!((p.min..=p.max).contains(&p.default), "{}", p.name);
            assert_eq!(d.get(p.name), Some(p.default));
        }
        for s in switch_specs() {
            assert_eq!(d.get_switch(s.name), Some(s.default));
        }
    }

    #[test]
    fn set_refuses_out_of_range_and_unknown() {
        let mut p = Params::default();
        let spec = param_specs()[0];
        assert!(p.set(spec.name, spec.max).is_ok());
        assert_eq!(p.get(spec.name), Some(spec.max));
        let err = p.set(spec.name, spec.max + 1).unwrap_err();
        assert!(err.to_string().contains(spec.name), "{err}");
        assert!(err.to_string().contains(&spec.max.to_string()), "{err}");
        assert_eq!(
            p.get(spec.name),
            Some(spec.max),
            "a refused value changes nothing"
        );
        assert!(p.set(spec.name, spec.min - 1).is_err());
        assert!(matches!(
            p.set("NoSuchThing", 1),
            Err(ParamError::Unknown(_))
        ));
        assert!(p.set_switch("usehistory", false).is_ok());
        assert!(!p.use_history);
        assert!(p.set_switch("UseNothing", true).is_err());
        let mut off = Params::default();
        off.all_history_off();
        assert!(switch_specs()
            .iter()
            .all(|s| off.get_switch(s.name) == Some(false)));
        assert_eq!(off.get("LowPlyWeight"), Some(0));
        assert_eq!(off.get("PrevEvalMul"), Some(0));
    }

    #[test]
    fn openbench_lines_round_trip() {
        let parsed: Vec<ParamSpec> = Params::openbench_lines()
            .lines()
            .map(|line| {
                let f: Vec<&str> = line.split(',').map(str::trim).collect();
                assert_eq!(f.len(), 7, "{line}");
                assert_eq!(f[1], "int");
                assert_eq!(f[6].parse::<f64>().ok(), Some(R_END));
                let name = param_specs()
                    .iter()
                    .find(|p| p.name == f[0])
                    .map(|p| p.name)
                    .expect("a known name");
                ParamSpec {
                    name,
                    default: f[2].parse().expect("int"),
                    min: f[3].parse().expect("int"),
                    max: f[4].parse().expect("int"),
                    step: f[5].parse().expect("int"),
                }
            })
            .collect();
        assert_eq!(parsed, param_specs());
    }

    #[derive(serde::Deserialize)]
    struct Skeleton {
        param: Vec<TomlParam>,
    }

    #[derive(serde::Deserialize)]
    struct TomlParam {
        name: String,
        #[serde(rename = "type")]
        kind: String,
        value: i32,
        min: i32,
        max: i32,
        step: i32,
        r_end: f64,
    }

    #[test]
    fn toml_skeleton_round_trips() {
        let sk: Skeleton = toml::from_str(&Params::toml_skeleton()).expect("valid TOML");
        assert_eq!(sk.param.len(), param_specs().len());
        for (t, p) in sk.param.iter().zip(param_specs()) {
            assert_eq!(t.name, p.name);
            assert_eq!(t.kind, "int");
            assert_eq!(
                (t.value, t.min, t.max, t.step),
                (p.default, p.min, p.max, p.step)
            );
            assert_eq!(t.r_end, R_END);
        }
    }
}
