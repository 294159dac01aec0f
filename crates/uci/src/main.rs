//! `clio`: Clio's engine binary. Alone it speaks UCI; `clio bench`, `clio perft` and
//! `clio params` are the command-line tools. This file only dispatches.

mod cli;
mod engine;
mod input;
mod limits;
mod options;
mod strength;
mod wdl;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Sub};

fn main() -> ExitCode {
    let args = Cli::parse();
    let result = match args.command {
        None => {
            engine::Engine::new().run();
            Ok(())
        }
        Some(Sub::Bench {
            ablation: false,
            depth,
        }) => cli::bench(depth),
        Some(Sub::Bench {
            ablation: true,
            depth,
        }) => cli::ablation(depth),
        Some(Sub::Perft {
            depth,
            fen,
            chess960,
        }) => cli::perft(depth, &fen, chess960),
        Some(Sub::Params { openbench, .. }) => cli::params(openbench),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("clio: {e:#}");
            ExitCode::from(2)
        }
    }
}
