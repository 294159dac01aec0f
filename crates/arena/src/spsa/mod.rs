//! `arena spsa tuning/<file>.toml`: the SPSA tuner, with OpenBench's semantics (see
//! [`schedule`]). Two copies of one engine binary, θ+ and θ−, play game pairs with the tuned
//! values sent as UCI options; W−L moves θ. After every iteration a CSV row and an atomic
//! checkpoint are written, so the same command resumes a stopped run exactly; the digest table,
//! an SVG of the trajectories and the tuned values (TOML and `--dev-option` flags) are printed.

pub mod checkpoint;
pub mod config;
pub mod games;
pub mod import;
pub mod openbench;
pub mod output;
pub mod schedule;
pub mod sim;
pub mod svg;
pub mod tuner;

use crate::db::recorder::{abs, Meta, Recorder};
use crate::db::{EngineRow, IterationRow, RunRow};
use std::fs::{self, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{bail, Context};

use crate::book::{Book, Order, Sequence};
use crate::engine::EngineConfig;
use checkpoint::Checkpoint;
use config::Config;
use games::EngineMatch;
use tuner::Tuner;

/// Arguments of `arena spsa`.
#[derive(clap::Args, Debug, Clone)]
pub struct SpsaArgs {
    /// The campaign file (TOML: [spsa], [match], [[param]]).
    #[arg(value_name = "CONFIG", required_unless_present = "init")]
    pub config: Option<PathBuf>,
    /// Where the checkpoint, CSV log, SVG and tuned values go [default: CONFIG without its
    /// extension, plus `.run/`].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the parameter digest every N iterations (and at the end).
    #[arg(long, value_name = "N", default_value_t = 25)]
    pub digest_every: u64,
    /// Stop after N iterations in this session; the same command later resumes the run.
    #[arg(long, value_name = "N")]
    pub stop_after: Option<u64>,
    /// Discard an existing checkpoint and log and start over.
    #[arg(long)]
    pub fresh: bool,
    /// Print the parameters as OpenBench SPSA lines (the current values of the checkpoint if
    /// there is one, else the start values) and exit.
    #[arg(long, conflicts_with = "init")]
    pub export_openbench: bool,
    /// Print a campaign file made from OpenBench SPSA lines or `clio params --toml` output
    /// (FILE, or - for stdin) and exit.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// Continue an OpenBench tune of this campaign: FILE holds its digest (`Name, Curr, Start,
    /// Min, Max, C, C_end, R, R_end`) or its `name, value` lines; θ and the iteration come from
    /// it. Refused if a checkpoint exists, unless with --fresh.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["init", "export_openbench"])]
    pub from_openbench: Option<PathBuf>,
    /// The OpenBench tune's game count: places the schedule at iteration games/(2·pairs).
    /// Needed with `name, value` lines; with a digest it overrides the iteration its C gives.
    #[arg(long, value_name = "N", requires = "from_openbench")]
    pub openbench_games: Option<u64>,
    /// Pin each concurrent game's two engines to CPUs of their own, as `arena sprt --affinity`
    /// does (also `affinity = true` in `[match]`). Linux only.
    #[arg(long)]
    pub affinity: bool,
    #[command(flatten)]
    pub db: crate::db::DbArgs,
}

/// Runs `arena spsa`.
pub fn run(args: &SpsaArgs) -> anyhow::Result<()> {
    if let Some(from) = &args.init {
        return init(from);
    }
    let Some(path) = &args.config else {
        bail!("arena spsa: give a campaign file (e.g. tuning/history.toml) or --init FILE");
    };
    let (config, warnings) = Config::load(path)?;
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    let out = args.out.clone().unwrap_or_else(|| default_out(path));
    let files = Files::new(&out);
    if args.export_openbench {
        let values = match Checkpoint::load(&files.checkpoint) {
            Ok(cp)
                if cp
                    .check_config(&files.checkpoint, &config.fingerprint())
                    .is_ok()
                    && cp.check_params(&files.checkpoint, &config.params).is_ok() =>
            {
                cp.theta
            }
            _ => config.params.iter().map(|p| p.value).collect(),
        };
        print!("{}", openbench::format_lines(&config.params, &values));
        return Ok(());
    }
    fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    if args.fresh {
        for f in [&files.checkpoint, &files.csv] {
            if f.exists() {
                fs::remove_file(f).with_context(|| format!("removing {}", f.display()))?;
            }
        }
    }
    if let Some(from) = &args.from_openbench {
        if files.checkpoint.exists() {
            bail!(
                "{} exists: this campaign already has a run; add --fresh to replace it with the \
                 OpenBench tune",
                files.checkpoint.display()
            );
        }
        let text =
            fs::read_to_string(from).with_context(|| format!("reading {}", from.display()))?;
        let rows = openbench::parse_outputs(&text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", from.display()))?;
        let (cp, line) = import::checkpoint(&config, &rows, args.openbench_games, from)?;
        println!("{line}");
        cp.save(&files.checkpoint)?;
        if files.csv.exists() {
            fs::remove_file(&files.csv)
                .with_context(|| format!("removing {}", files.csv.display()))?;
        }
    }
    let mut tuner = if files.checkpoint.exists() {
        let cp = Checkpoint::load(&files.checkpoint)?;
        cp.check_config(&files.checkpoint, &config.fingerprint())?;
        cp.check_params(&files.checkpoint, &config.params)?;
        println!(
            "Resuming {} from {}: {} of {} iterations done, {} games",
            path.display(),
            files.checkpoint.display(),
            cp.iterations_done,
            config.spsa.iterations,
            cp.totals.games()
        );
        Tuner::resume(&config, cp)
    } else {
        Tuner::new(&config)
    };
    let mut rec = start_recording(args, &config, path, &files, &tuner);
    if !tuner.finished() {
        let mut eval = start_engines(&config, path, args.affinity)?;
        let result = tune(args, &mut tuner, &mut eval, &files, &mut rec);
        eval.quit();
        if eval.faults > 0 {
            println!(
                "Engine faults (time forfeits, illegal moves, crashes, stalls) this session: {} in {} games",
                eval.faults, eval.games
            );
        }
        if result.is_err() {
            rec.finish("stopped");
        }
        result?;
    }
    record_totals(&mut rec, &tuner);
    rec.finish(if tuner.finished() {
        "complete"
    } else {
        "stopped"
    });
    let engine = config.matches.engine.as_deref().unwrap_or("ENGINE");
    finish(&tuner, &files, engine)
}

/// The database row of an SPSA run: its campaign, engine and checkpoint.
fn start_recording(
    args: &SpsaArgs,
    config: &Config,
    path: &Path,
    files: &Files,
    tuner: &Tuner,
) -> Recorder {
    let m = &config.matches;
    let name = path
        .file_stem()
        .map_or("spsa".into(), |s| s.to_string_lossy().into_owned());
    let meta = Meta {
        max_games: Some(config.spsa.iterations * u64::from(tuner.pairs) * 2),
        ..Meta::new(&args.db, "spsa")
    };
    let row = RunRow {
        name,
        engines: vec![EngineRow {
            name: "engine".into(),
            cmd: m
                .engine
                .clone()
                .or_else(|| m.git_ref.as_ref().map(|r| format!("ref {r}")))
                .unwrap_or_default(),
            options: config.fixed_options(),
            git_ref: m.git_ref.clone(),
            ..EngineRow::default()
        }],
        state_path: Some(abs(&files.checkpoint)),
        seed: Some(config.spsa.seed.to_string()),
        concurrency: Some(m.concurrency as i64),
        fingerprint: serde_json::to_string(&config.fingerprint()).ok(),
        extra: Some(serde_json::json!({
            "campaign": abs(path),
            "params": tuner.params.iter().map(|p| &p.name).collect::<Vec<_>>(),
            "iterations": config.spsa.iterations,
            "iterations_done": tuner.state.iterations_done,
        })),
        ..RunRow::default()
    };
    let mut rec = Recorder::start(&meta, row);
    record_totals(&mut rec, tuner);
    rec
}

/// The SPSA run's totals, θ and iteration count into its row.
fn record_totals(rec: &mut Recorder, tuner: &Tuner) {
    if !rec.active() {
        return;
    }
    let t = &tuner.state.totals;
    crate::db::recorder::set_figures(&mut rec.row, &crate::snapshot::Snapshot::new(*t, None));
    rec.row.elapsed_s = Some(tuner.state.elapsed_s);
    if let Some(x) = rec.row.extra.as_mut().and_then(|x| x.as_object_mut()) {
        x.insert("iterations_done".into(), tuner.state.iterations_done.into());
        x.insert("theta".into(), serde_json::json!(tuner.state.theta));
    }
}

/// θ after the last iteration, by parameter name.
fn theta_row(tuner: &Tuner) -> IterationRow {
    let theta = tuner
        .params
        .iter()
        .zip(&tuner.state.theta)
        .map(|(p, v)| (p.name.clone(), serde_json::json!(v)))
        .collect();
    IterationRow {
        iter: tuner.state.iterations_done as i64,
        theta,
    }
}

/// The files of a run.
struct Files {
    checkpoint: PathBuf,
    csv: PathBuf,
    svg: PathBuf,
    tuned: PathBuf,
}

impl Files {
    fn new(out: &Path) -> Files {
        Files {
            checkpoint: out.join("checkpoint.json"),
            csv: out.join("log.csv"),
            svg: out.join("trajectories.svg"),
            tuned: out.join("tuned.toml"),
        }
    }
}

/// `tuning/history.toml` → `tuning/history.run`.
fn default_out(config: &Path) -> PathBuf {
    let mut p = config.with_extension("");
    let mut name = p.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".run");
    p.set_file_name(name);
    p
}

/// `--init`: a campaign file from OpenBench lines or `clio params --toml` output.
fn init(from: &Path) -> anyhow::Result<()> {
    let mut text = String::new();
    if from == Path::new("-") {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading stdin")?;
    } else {
        text = fs::read_to_string(from).with_context(|| format!("reading {}", from.display()))?;
    }
    let params =
        openbench::read_params(&text).map_err(|e| anyhow::anyhow!("{}: {e}", from.display()))?;
    for w in openbench::check_params(&params, from).map_err(anyhow::Error::msg)? {
        eprintln!("warning: {w}");
    }
    print!("{}", openbench::skeleton(&params));
    Ok(())
}

/// Resolves the engine (building a git ref if asked), loads the book and starts the workers;
/// checks every parameter against the engine's options before any game. With `affinity` (or
/// `affinity = true` in `[match]`) each worker's two engines are pinned to CPUs of their own.
fn start_engines(config: &Config, path: &Path, affinity: bool) -> anyhow::Result<EngineMatch> {
    let m = &config.matches;
    let cmd = match (&m.engine, &m.git_ref) {
        (Some(e), _) => e.clone(),
        (None, Some(r)) => {
            let cwd = std::env::current_dir().context("current directory")?;
            let repo = crate::refs::toplevel(&cwd)?;
            let (_, bin) = crate::refs::build(&repo, &crate::refs::default_cache(&repo), r)?;
            bin.to_string_lossy().into_owned()
        }
        (None, None) => bail!(
            "{}: field `match.engine`: give `engine` or `ref`",
            path.display()
        ),
    };
    let book = match &m.openings {
        Some(b) => {
            let book = Book::load_in(Path::new(b), m.variant.castling_mode())
                .map_err(|e| anyhow::anyhow!("{}: field `match.openings`: {e}", path.display()))?;
            book.warn_skipped();
            book
        }
        None => Book::startpos(),
    };
    let sequence = Sequence::new(book.entries.len(), Order::Random, config.spsa.seed, 0);
    let settings = config
        .game_settings()
        .map_err(|e| anyhow::anyhow!("{}: field `match`: {e}", path.display()))?;
    let base = EngineConfig {
        name: "engine".into(),
        cmd,
        options: config.fixed_options(),
        ..EngineConfig::default()
    };
    let slots = if affinity || m.affinity {
        let slots =
            crate::runner::commands::affinity_slots(std::slice::from_ref(&base), m.concurrency)?;
        println!("{}", crate::affinity::describe(&slots));
        Some(slots)
    } else {
        None
    };
    let mut eval = EngineMatch::start(
        &base,
        m.concurrency,
        slots,
        config.params.clone(),
        book,
        sequence,
        settings,
    )
    .with_context(|| format!("{}: field `match`", path.display()))?;
    if let Err(e) = config.check_engine_options(path, &base.cmd, eval.engine_options()) {
        eval.quit();
        return Err(e.into());
    }
    Ok(eval)
}

/// The iteration loop: play, update, log, checkpoint, until N, `--stop-after` or Ctrl-C.
fn tune(
    args: &SpsaArgs,
    tuner: &mut Tuner,
    eval: &mut EngineMatch,
    files: &Files,
    rec: &mut Recorder,
) -> anyhow::Result<()> {
    // Ctrl-C stops the games in flight; the iteration is dropped, the checkpoint stays.
    let (stop, _) = crate::scheduler::stop_flag();
    let mut csv = open_csv(tuner, files)?;
    let started = Instant::now();
    let saved_elapsed = tuner.state.elapsed_s;
    let n = tuner.schedule.iterations;
    let mut session = 0u64;
    println!(
        "SPSA: {} parameters, {} iterations of {} pairs, iteration {} next",
        tuner.params.len(),
        n,
        tuner.pairs,
        tuner.state.iterations_done
    );
    print!(
        "{}",
        output::digest(
            &tuner.params,
            &tuner.schedule,
            &tuner.state.theta,
            tuner.state.iterations_done
        )
    );
    while !tuner.finished() && args.stop_after.is_none_or(|s| session < s) {
        let Some(step) = tuner.step(eval, &stop)? else {
            println!(
                "Interrupted: iteration {} dropped, checkpoint kept at {} iterations",
                tuner.state.iterations_done, tuner.state.iterations_done
            );
            break;
        };
        session += 1;
        let row = output::csv_row(
            &step.probe,
            tuner.state.totals.games(),
            &step.tally,
            &tuner.state.theta,
        );
        csv.write_all(row.as_bytes())
            .and_then(|()| csv.sync_data())
            .with_context(|| format!("writing {}", files.csv.display()))?;
        tuner.state.csv_bytes += row.len() as u64;
        tuner.state.elapsed_s = saved_elapsed + started.elapsed().as_secs_f64();
        tuner.state.save(&files.checkpoint)?;
        record_totals(rec, tuner);
        rec.write_with(&[], &[theta_row(tuner)], false);
        let t = &step.tally;
        let total = &tuner.state.totals;
        eprintln!(
            "iteration {}/{}: θ+ vs θ− +{} ={} -{} (W−L {:+}) | {} games in all",
            step.probe.k + 1,
            n,
            t.wins,
            t.draws,
            t.losses,
            t.wins as i64 - t.losses as i64,
            total.games()
        );
        let done = tuner.state.iterations_done;
        if args.digest_every > 0 && done.is_multiple_of(args.digest_every) && !tuner.finished() {
            println!("After {done} iterations ({} games):", total.games());
            print!(
                "{}",
                output::digest(&tuner.params, &tuner.schedule, &tuner.state.theta, done)
            );
        }
        if stop.load(Ordering::SeqCst) {
            break;
        }
    }
    Ok(())
}

/// Opens the CSV log for appending: a new one with its header before this run's first
/// iteration, else the old one cut back to the checkpoint's length (a row written after the last
/// checkpoint is dropped).
fn open_csv(tuner: &mut Tuner, files: &Files) -> anyhow::Result<fs::File> {
    let ctx = || format!("CSV log {}", files.csv.display());
    if tuner.state.trajectory.is_empty() {
        let header = output::csv_header(&tuner.params);
        let mut f = fs::File::create(&files.csv).with_context(ctx)?;
        f.write_all(header.as_bytes()).with_context(ctx)?;
        tuner.state.csv_bytes = header.len() as u64;
        return Ok(f);
    }
    let f = OpenOptions::new()
        .append(true)
        .open(&files.csv)
        .with_context(ctx)?;
    let len = f.metadata().with_context(ctx)?.len();
    if len < tuner.state.csv_bytes {
        bail!(
            "{}: {len} bytes, but the checkpoint {} recorded {} (the log was cut; remove the \
             checkpoint or run with --fresh to start over)",
            files.csv.display(),
            files.checkpoint.display(),
            tuner.state.csv_bytes
        );
    }
    f.set_len(tuner.state.csv_bytes).with_context(ctx)?;
    Ok(f)
}

/// The closing output: digest, SVG, tuned values as TOML and as `--dev-option` flags.
fn finish(tuner: &Tuner, files: &Files, engine: &str) -> anyhow::Result<()> {
    let st = &tuner.state;
    let t = &st.totals;
    println!(
        "{} after {} of {} iterations, {} games (θ+ side: +{} ={} -{}, ptnml {:?}), {:.0} s",
        if tuner.finished() {
            "SPSA finished"
        } else {
            "SPSA stopped"
        },
        st.iterations_done,
        tuner.schedule.iterations,
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        t.penta,
        st.elapsed_s
    );
    print!(
        "{}",
        output::digest(
            &tuner.params,
            &tuner.schedule,
            &st.theta,
            st.iterations_done
        )
    );
    if !st.trajectory.is_empty() {
        let svg = svg::trajectories(&tuner.params, &st.trajectory, st.first_iteration);
        fs::write(&files.svg, svg).with_context(|| format!("writing {}", files.svg.display()))?;
        println!("Trajectories: {}", files.svg.display());
    }
    let snippet = output::tuned_toml(&tuner.params, &st.theta);
    fs::write(&files.tuned, &snippet)
        .with_context(|| format!("writing {}", files.tuned.display()))?;
    println!("Tuned values ({}):", files.tuned.display());
    print!("{snippet}");
    println!(
        "SPRT them against the defaults:\n  arena sprt --dev-cmd {engine} --base-cmd {engine} {}",
        output::dev_option_flags(&tuner.params, &st.theta)
    );
    Ok(())
}
