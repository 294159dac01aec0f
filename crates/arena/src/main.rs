//! `arena`: Clio's lab. Each subcommand is an Args struct and a run function in its module;
//! adding one is a variant of `Command` and an arm in `dispatch`.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use clio_arena::ablate::{self, AblateArgs};
use clio_arena::fastchess;
use clio_arena::openings::{self, OpeningsArgs};
use clio_arena::results_cmd::{self, ResultsArgs};
use clio_arena::runner::commands::{self, MatchArgs, SprtArgs};
use clio_arena::serve::{self, ServeArgs};
use clio_arena::spsa::{self, SpsaArgs};
use clio_arena::stats_cmd::{self, StatsArgs};

/// Plays UCI engines against each other, decides with a pentanomial SPRT, computes statistics.
#[derive(Parser, Debug)]
#[command(name = "arena", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Dev against base in game pairs until the SPRT accepts H0 or H1.
    Sprt(Box<SprtArgs>),
    /// A round robin of a fixed number of game pairs between every two engines.
    Match(Box<MatchArgs>),
    /// The first engine against each of the others, a fixed number of game pairs each.
    Gauntlet(Box<MatchArgs>),
    /// The SPRT/Elo calculator on given pentanomial or W/D/L counts.
    Stats(StatsArgs),
    /// SPSA: tunes engine options from a TOML campaign by self-play (OpenBench's semantics).
    Spsa(Box<SpsaArgs>),
    /// Makes an EPD opening book of random positions an engine scores inside a window.
    Openings(Box<OpeningsArgs>),
    /// The Elo of each heuristic: one SPRT per flipped setting, defaults against flipped.
    Ablate(Box<AblateArgs>),
    /// The results database: list, show, export and import runs; regenerate the result docs.
    Results(Box<ResultsArgs>),
    /// A local web page of the results database: the runs, live ones updating, a page per run.
    Serve(Box<ServeArgs>),
}

/// Runs a subcommand; returns the process exit code.
fn dispatch(command: Command) -> anyhow::Result<i32> {
    match command {
        Command::Sprt(a) => commands::run_sprt(&a),
        Command::Match(a) => commands::run_match(&a, false),
        Command::Gauntlet(a) => commands::run_match(&a, true),
        Command::Stats(a) => stats_cmd::run(&a).map(|()| 0),
        Command::Spsa(a) => spsa::run(&a).map(|()| 0),
        Command::Openings(a) => openings::run(&a).map(|()| 0),
        Command::Ablate(a) => ablate::run_ablate(&a),
        Command::Results(a) => results_cmd::run(&a),
        Command::Serve(a) => serve::run(&a),
    }
}

/// The error and its causes, each said once: a cause whose text already ends the message (an
/// error that prints its own source) is not repeated.
fn said_once(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1).map(ToString::to_string) {
        if !text.ends_with(&cause) {
            text = format!("{text}: {cause}");
        }
    }
    text
}

/// The command line, rewritten into arena's flags when it is in fastchess's form.
fn command_line() -> Result<Vec<std::ffi::OsString>, String> {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let Some(words) = argv[1..]
        .iter()
        .map(|a| a.to_str().map(String::from))
        .collect::<Option<Vec<String>>>()
    else {
        return Ok(argv);
    };
    if !fastchess::is_fastchess(&words) {
        return Ok(argv);
    }
    let words = fastchess::translate(&words).map_err(|e| format!("{e} (fastchess's form)"))?;
    eprintln!(
        "arena: fastchess's form read as: arena {}",
        shell_words::join(&words)
    );
    Ok(std::iter::once(argv[0].clone())
        .chain(words.into_iter().map(Into::into))
        .collect())
}

fn main() -> ExitCode {
    let argv = match command_line() {
        Ok(argv) => argv,
        Err(e) => {
            eprintln!("arena: error: {e}");
            return ExitCode::from(2);
        }
    };
    let matches = Cli::command().get_matches_from(argv);
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    // `--engine` words are grouped by occurrence, which clap's derive cannot express.
    if let (Command::Match(a) | Command::Gauntlet(a), Some((_, sub))) =
        (&mut cli.command, matches.subcommand())
    {
        a.group(sub);
    }
    match dispatch(cli.command) {
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(e) => {
            eprintln!("arena: error: {}", said_once(&e));
            ExitCode::from(2)
        }
    }
}
