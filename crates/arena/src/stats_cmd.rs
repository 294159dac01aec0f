//! `arena stats`: the SPRT/Elo calculator on given pentanomial or W/D/L counts, printed as
//! fastchess's result lines (`Elo:`, `LOS:`, `Games:`, `LLR:`, the SPRT verdict) by `output`,
//! the same lines the runner prints.

use serde::Serialize;

use crate::output;
use crate::stats::{
    estimate_penta, estimate_wdl, sprt_penta, sprt_wdl, Decision, Estimate, Model, SprtConfig,
    SprtStatus,
};

/// `arena stats`: the SPRT log-likelihood ratio, Elo, nElo and LOS of given pentanomial or
/// W/D/L counts, as fishtest and fastchess compute them.
#[derive(Debug, Clone, clap::Args)]
#[command(group(clap::ArgGroup::new("counts").required(true).args(["penta", "wdl"])))]
pub struct StatsArgs {
    /// Pentanomial pair counts LL,LD,DD+WL,WD,WW (pairs scoring 0, ½, 1, 1½, 2 points).
    #[arg(long, value_name = "LL,LD,DD+WL,WD,WW", allow_hyphen_values = true)]
    pub penta: Option<String>,
    /// Game counts W,D,L.
    #[arg(long, value_name = "W,D,L", allow_hyphen_values = true)]
    pub wdl: Option<String>,
    /// Elo of H0, in the unit of --model.
    #[arg(long, allow_negative_numbers = true)]
    pub elo0: f64,
    /// Elo of H1, in the unit of --model.
    #[arg(long, allow_negative_numbers = true)]
    pub elo1: f64,
    /// Elo model of the bounds: normalized (nElo, fishtest's default) or logistic (Elo).
    #[arg(long, value_enum, default_value_t = Model::Normalized)]
    pub model: Model,
    /// Maximum type I error.
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    pub alpha: f64,
    /// Maximum type II error.
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    pub beta: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A count list given to `arena stats` that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountsError {
    /// Not the number of counts the option takes.
    #[error("--{option} {input:?}: expected {expected} comma-separated counts, found {found}")]
    Length {
        /// The option (`penta` or `wdl`).
        option: &'static str,
        /// The text given.
        input: String,
        /// How many counts the option takes.
        expected: usize,
        /// How many were given.
        found: usize,
    },
    /// A count below zero.
    #[error("--{option} {input:?}: count {item:?} is negative")]
    Negative {
        /// The option (`penta` or `wdl`).
        option: &'static str,
        /// The text given.
        input: String,
        /// The offending count.
        item: String,
    },
    /// Counts too large to add up (their total must stay below 2^62).
    #[error("--{option} {input:?}: count {item:?} is too large (the counts may add up to at most {max})")]
    TooLarge {
        /// The option (`penta` or `wdl`).
        option: &'static str,
        /// The text given.
        input: String,
        /// The count at which the total overflows.
        item: String,
        /// The largest total.
        max: u64,
    },
    /// A count that is not a whole number.
    #[error("--{option} {input:?}: count {item:?} is not a whole number")]
    NotANumber {
        /// The option (`penta` or `wdl`).
        option: &'static str,
        /// The text given.
        input: String,
        /// The offending count.
        item: String,
    },
}

/// Parses `N` comma-separated non-negative whole counts given to `--option`.
pub fn parse_counts<const N: usize>(
    option: &'static str,
    input: &str,
) -> Result<[u64; N], CountsError> {
    let items: Vec<&str> = input.split(',').map(str::trim).collect();
    if items.len() != N {
        return Err(CountsError::Length {
            option,
            input: input.to_owned(),
            expected: N,
            found: items.len(),
        });
    }
    let mut counts = [0u64; N];
    let mut total = 0u64;
    for (count, item) in counts.iter_mut().zip(&items) {
        *count = item.parse().map_err(|_| {
            let negative = item.parse::<f64>().is_ok_and(|x| x < 0.0);
            let (option, input, item) = (option, input.to_owned(), (*item).to_owned());
            if negative {
                CountsError::Negative {
                    option,
                    input,
                    item,
                }
            } else {
                CountsError::NotANumber {
                    option,
                    input,
                    item,
                }
            }
        })?;
        // Games are twice the pairs: keep every total the statistics form far from overflow.
        const MAX: u64 = 1 << 62;
        total = total.saturating_add(*count);
        if total > MAX {
            let (input, item) = (input.to_owned(), (*item).to_owned());
            return Err(CountsError::TooLarge {
                option,
                input,
                item,
                max: MAX,
            });
        }
    }
    Ok(counts)
}

/// Counts given to the calculator or kept by the runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counts {
    /// Pair counts `[LL, LD, DD+WL, WD, WW]`.
    Penta([u64; 5]),
    /// Game counts `[W, D, L]`.
    Wdl([u64; 3]),
}

impl Counts {
    /// Elo, nElo, LOS, draw ratio and score of these counts.
    pub fn estimate(&self) -> Estimate {
        match self {
            Counts::Penta(p) => estimate_penta(p),
            Counts::Wdl(w) => estimate_wdl(*w),
        }
    }

    /// The SPRT status of these counts.
    pub fn sprt(&self, cfg: &SprtConfig) -> SprtStatus {
        match self {
            Counts::Penta(p) => sprt_penta(p, cfg),
            Counts::Wdl(w) => sprt_wdl(*w, cfg),
        }
    }
}

/// The `--json` object of `arena stats`; undefined values are `null`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatsReport {
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower SPRT bound.
    pub lower: f64,
    /// Upper SPRT bound.
    pub upper: f64,
    /// Logistic Elo.
    pub elo: Option<f64>,
    /// 95 % half-width of `elo`.
    pub elo_error: Option<f64>,
    /// Normalised Elo.
    pub nelo: Option<f64>,
    /// 95 % half-width of `nelo`.
    pub nelo_error: Option<f64>,
    /// Likelihood of superiority in [0, 1].
    pub los: Option<f64>,
    /// `"H0"`, `"H1"` or `null`.
    pub decision: Option<Decision>,
    /// Draw ratio in [0, 1] (of pairs for pentanomial counts).
    pub draw_ratio: Option<f64>,
    /// Mean score per game in [0, 1].
    pub score: Option<f64>,
    /// Number of games the counts stand for.
    pub games: u64,
    /// The Elo model of the bounds.
    pub model: Model,
}

impl StatsReport {
    /// The report of `counts` under the SPRT `cfg`.
    pub fn new(counts: &Counts, cfg: &SprtConfig) -> Self {
        let e = counts.estimate();
        let s = counts.sprt(cfg);
        let games = match counts {
            Counts::Penta(p) => 2 * p.iter().sum::<u64>(),
            Counts::Wdl(w) => w.iter().sum(),
        };
        StatsReport {
            llr: s.llr,
            lower: s.lower,
            upper: s.upper,
            elo: e.elo,
            elo_error: e.elo_error,
            nelo: e.nelo,
            nelo_error: e.nelo_error,
            los: e.los,
            decision: s.decision,
            draw_ratio: e.draw_ratio,
            score: e.score,
            games,
            model: cfg.model,
        }
    }
}

/// The counts and SPRT configuration `args` describe, checked.
pub fn parse_args(args: &StatsArgs) -> anyhow::Result<(Counts, SprtConfig)> {
    let counts = match (&args.penta, &args.wdl) {
        (Some(p), None) => Counts::Penta(parse_counts("penta", p)?),
        (None, Some(w)) => Counts::Wdl(parse_counts("wdl", w)?),
        _ => anyhow::bail!("give exactly one of --penta LL,LD,DD+WL,WD,WW and --wdl W,D,L"),
    };
    let cfg = SprtConfig::new(args.elo0, args.elo1, args.alpha, args.beta, args.model)?;
    Ok((counts, cfg))
}

/// What `arena stats` prints for `args`: the JSON object or the text lines, newline-terminated.
pub fn render(args: &StatsArgs) -> anyhow::Result<String> {
    let (counts, cfg) = parse_args(args)?;
    if args.json {
        let report = StatsReport::new(&counts, &cfg);
        return Ok(serde_json::to_string_pretty(&report)? + "\n");
    }
    let (e, status) = (counts.estimate(), counts.sprt(&cfg));
    let (penta, games) = match counts {
        Counts::Penta(p) => (Some(p), output::penta_games_line(&p)),
        Counts::Wdl([w, d, l]) => (None, output::games_line(w, l, d)),
    };
    let mut lines = vec![
        output::elo_line(&e),
        output::los_line(&e, penta.as_ref()),
        games,
        output::llr_line(&status, &cfg),
    ];
    if let Some(decision) = status.decision {
        lines.push(output::sprt_verdict(&cfg, decision));
    }
    Ok(lines.join("\n") + "\n")
}

/// Runs `arena stats`: prints the report of the given counts to stdout.
pub fn run(args: &StatsArgs) -> anyhow::Result<()> {
    print!("{}", render(args)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        stats: StatsArgs,
    }

    fn args(line: &[&str]) -> Result<StatsArgs, clap::Error> {
        let argv = std::iter::once("stats").chain(line.iter().copied());
        Cli::try_parse_from(argv).map(|cli| cli.stats)
    }

    fn json(line: &[&str]) -> serde_json::Value {
        let out = render(&args(line).unwrap()).unwrap();
        serde_json::from_str(&out).unwrap()
    }

    fn field(v: &serde_json::Value, key: &str) -> f64 {
        v[key]
            .as_f64()
            .unwrap_or_else(|| panic!("{key} is {}", v[key]))
    }

    #[test]
    fn json_matches_fishtest_reference() {
        let v = json(&[
            "--penta",
            "1,3,5,5,2",
            "--elo0",
            "0",
            "--elo1",
            "2",
            "--json",
        ]);
        assert!((field(&v, "llr") - 0.0284).abs() < 6e-5);
        assert!((field(&v, "lower") + 2.944439).abs() < 1e-6);
        assert!((field(&v, "upper") - 2.944439).abs() < 1e-6);
        assert!((field(&v, "elo") - 43.66).abs() < 0.006);
        assert!((field(&v, "elo_error") - 96.77).abs() < 0.006);
        assert!((field(&v, "los") - 0.8206).abs() < 6e-5);
        assert!(field(&v, "nelo") > 0.0 && field(&v, "nelo_error") > 0.0);
        assert!(v["decision"].is_null());
        let logistic = json(&[
            "--penta",
            "1,3,5,5,2",
            "--elo0",
            "0",
            "--elo1",
            "5",
            "--model",
            "logistic",
            "--json",
        ]);
        assert!((field(&logistic, "llr") - 0.0861).abs() < 6e-5);
        assert_eq!(logistic["model"], "logistic");
    }

    #[test]
    fn json_has_nulls_and_decisions() {
        let draws = json(&[
            "--penta",
            "0,0,1000,0,0",
            "--elo0",
            "0",
            "--elo1",
            "2",
            "--json",
        ]);
        assert!((field(&draws, "llr") + 0.0619).abs() < 6e-5);
        for key in ["nelo", "nelo_error", "los", "decision"] {
            assert!(draws[key].is_null(), "{key} = {}", draws[key]);
        }
        let wins = json(&["--wdl", "40,0,0", "--elo0", "-3", "--elo1", "1", "--json"]);
        for key in ["elo", "elo_error", "nelo", "nelo_error"] {
            assert!(wins[key].is_null(), "{key} = {}", wins[key]);
        }
        assert!(field(&wins, "llr").is_finite());
        assert_eq!(field(&wins, "los"), 1.0);
        let h1 = json(&[
            "--penta",
            "100,1000,3000,2000,300",
            "--elo0=0",
            "--elo1=2",
            "--json",
        ]);
        assert_eq!(h1["decision"], "H1");
        let h0 = json(&[
            "--wdl",
            "1000,1200,1800",
            "--elo0",
            "0",
            "--elo1",
            "2",
            "--json",
        ]);
        assert_eq!(h0["decision"], "H0");
        let empty = json(&["--wdl", "0,0,0", "--elo0", "0", "--elo1", "2", "--json"]);
        assert!(empty["elo"].is_null() && empty["score"].is_null());
        assert_eq!(empty["games"], 0);
    }

    #[test]
    fn text_follows_fastchess() {
        let out = render(&args(&["--penta", "1,3,5,5,2", "--elo0", "0", "--elo1", "2"]).unwrap())
            .unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[0].starts_with("Elo: 43.66 +/- 96.77, nElo: "),
            "{out}"
        );
        assert_eq!(
            lines[1],
            "LOS: 82.06 %, DrawRatio: 31.25 %, PairsRatio: 1.75"
        );
        assert_eq!(lines[2], "Games: 32, Ptnml(0-2): [1, 3, 5, 5, 2]");
        assert_eq!(lines[3], "LLR: 0.03 (1.0%) (-2.94, 2.94) [0.00, 2.00]");
        assert_eq!(lines.len(), 4);

        let out = render(&args(&["--wdl", "900,600,500", "--elo0", "0", "--elo1", "5"]).unwrap())
            .unwrap();
        assert!(out.contains(
            "\nGames: 2000, Wins: 900, Losses: 500, Draws: 600, Points: 1200.0 (60.00 %)\n"
        ));
        assert!(
            out.ends_with("\nSPRT ([0.00, 5.00]) completed - H1 was accepted\n"),
            "{out}"
        );
        assert!(!out.contains("PairsRatio"));

        let out = render(&args(&["--penta", "0,0,0,0,9", "--elo0", "0", "--elo1", "2"]).unwrap())
            .unwrap();
        assert!(
            out.starts_with("Elo: inf +/- nan, nElo: nan +/- nan\n"),
            "{out}"
        );
    }

    #[test]
    fn llr_line_shows_share_of_bound() {
        let cfg = SprtConfig::new(-1.0, 3.5, 0.05, 0.05, Model::Normalized).unwrap();
        let status = SprtStatus::new(-1.4722, &cfg);
        assert_eq!(
            output::llr_line(&status, &cfg),
            "LLR: -1.47 (-50.0%) (-2.94, 2.94) [-1.00, 3.50]"
        );
        assert_eq!(
            output::sprt_verdict(&cfg, Decision::H0),
            "SPRT ([-1.00, 3.50]) completed - H0 was accepted"
        );
    }

    #[track_caller]
    fn rejected(line: &[&str], needle: &str) {
        let message = match args(line) {
            Err(e) => e.to_string(),
            Ok(a) => match render(&a) {
                Err(e) => format!("{e:#}"),
                Ok(out) => panic!("{line:?} was accepted: {out}"),
            },
        };
        assert!(message.contains(needle), "{line:?}: {message}");
    }

    #[test]
    fn bad_input_is_named() {
        let sprt = ["--elo0", "0", "--elo1", "2"];
        let with = |extra: &[&'static str]| -> Vec<&'static str> {
            extra.iter().chain(sprt.iter()).copied().collect()
        };
        rejected(
            &with(&["--penta", "1,2,3,4"]),
            "expected 5 comma-separated counts, found 4",
        );
        rejected(
            &with(&["--wdl", "1,2,3,4"]),
            "expected 3 comma-separated counts, found 4",
        );
        rejected(
            &with(&["--penta", "1,-2,3,4,5"]),
            "count \"-2\" is negative",
        );
        rejected(
            &with(&["--wdl", "1,x,3"]),
            "count \"x\" is not a whole number",
        );
        rejected(
            &with(&["--wdl", "1,2.5,3"]),
            "\"2.5\" is not a whole number",
        );
        rejected(
            &with(&["--wdl", "1,,3"]),
            "count \"\" is not a whole number",
        );
        rejected(&with(&[]), "--penta");
        rejected(
            &with(&["--penta", "1,1,1,1,1", "--wdl", "1,1,1"]),
            "cannot be used with",
        );
        let base = ["--wdl", "1,2,3"];
        let line = |extra: &[&'static str]| -> Vec<&'static str> {
            base.iter().chain(extra.iter()).copied().collect()
        };
        rejected(&line(&["--elo0", "2", "--elo1", "2"]), "elo0 = 2, elo1 = 2");
        rejected(
            &line(&["--elo0", "3", "--elo1", "-1"]),
            "elo0 must be less than elo1",
        );
        rejected(
            &line(&["--elo0", "0", "--elo1", "2", "--alpha", "0"]),
            "alpha 0",
        );
        rejected(
            &line(&["--elo0", "0", "--elo1", "2", "--beta", "1.5"]),
            "beta 1.5",
        );
        rejected(
            &line(&["--elo0", "0", "--elo1", "2", "--alpha", "-0.1"]),
            "alpha -0.1",
        );
        rejected(&line(&["--elo0", "x", "--elo1", "2"]), "--elo0");
        rejected(
            &line(&["--elo0", "0", "--elo1", "2", "--model", "bayes"]),
            "bayes",
        );
    }
}
