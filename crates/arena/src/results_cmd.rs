//! `arena results`: the runs of the results database, listed, shown, exported and imported;
//! and the generated result pages of the docs (`arena results docs`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;

use crate::db::{self, export, legacy, Db, DbFile, RunRow};

/// `arena results`: list the recorded runs (newest first), or one of the actions.
#[derive(Args, Clone, Debug)]
pub struct ResultsArgs {
    #[command(subcommand)]
    pub action: Option<Action>,
    #[command(flatten)]
    pub filter: Filter,
    /// Output format of the list.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// The list as Markdown (same as --format markdown).
    #[arg(long)]
    pub markdown: bool,
    #[command(flatten)]
    pub db: DbFile,
}

/// What to do instead of listing.
#[derive(Subcommand, Clone, Debug)]
pub enum Action {
    /// Everything recorded about one run: by id (the list's first column) or uid.
    Show {
        /// The run's id or uid.
        id: String,
        /// As JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Remove runs (by id or uid), with their chart points, SPSA iterations and the rows of an
    /// ablation table; a run still playing is refused. Nothing is removed unless every id is
    /// found. `arena results export` then writes the record without them.
    Delete {
        /// The runs' ids or uids.
        #[arg(required = true)]
        ids: Vec<String>,
    },
    /// Write every run as JSON lines (oldest first) to FILE [default: results/runs.jsonl].
    Export {
        /// The export file.
        file: Option<PathBuf>,
    },
    /// Read an export file into the database (runs with the same uid are replaced).
    Import {
        /// The export file.
        file: PathBuf,
    },
    /// Import the records written before the database (summaries, states, ablation tables,
    /// SPSA checkpoints) from these directories of the checkout.
    ImportLegacy {
        /// Directories, relative to the checkout's top (e.g. results tuning/results).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
    },
    /// Regenerate docs/results.md, the README's standing table and docs/engine.md's
    /// calibration from the committed export (results/runs.jsonl).
    Docs {
        /// Only check that the committed files are current (exit 1 if not).
        #[arg(long)]
        check: bool,
        /// The export to render [default: results/runs.jsonl of the checkout].
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
    },
}

/// Which runs a list shows.
#[derive(Args, Clone, Debug, Default)]
pub struct Filter {
    /// Runs whose name contains this (any case).
    #[arg(long, value_name = "TEXT")]
    pub name: Option<String>,
    /// Runs of this kind (sprt, match, gauntlet, ablate, ablate-row, spsa).
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// Runs with this verdict or status (H0, H1, running, stopped, complete).
    #[arg(long, value_name = "STATUS")]
    pub verdict: Option<String>,
    /// Runs started on or after this date (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Runs started on or before this date (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub until: Option<String>,
    /// Runs with an engine whose name or command contains this.
    #[arg(long, value_name = "TEXT")]
    pub engine: Option<String>,
    /// Runs that set a UCI option whose name contains this (any case).
    #[arg(long, value_name = "NAME")]
    pub option: Option<String>,
    /// At most this many runs.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
}

/// How a list is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned text.
    Table,
    /// A Markdown table.
    Markdown,
    /// CSV with a header line.
    Csv,
    /// A JSON array of runs.
    Json,
}

/// Checks a date filter: `YYYY-MM-DD` (a time may follow).
fn check_date(flag: &str, d: &Option<String>) -> anyhow::Result<()> {
    if let Some(d) = d {
        let b = d.as_bytes();
        let ok = b.len() >= 10
            && b[4] == b'-'
            && b[7] == b'-'
            && [0, 1, 2, 3, 5, 6, 8, 9]
                .iter()
                .all(|&i| b[i].is_ascii_digit());
        if !ok {
            bail!("{flag} {d:?}: give a date as YYYY-MM-DD");
        }
    }
    Ok(())
}

impl Filter {
    /// Whether `r` passes every filter given.
    pub fn keeps(&self, r: &RunRow) -> bool {
        let has = |hay: &str, needle: &str| hay.to_lowercase().contains(&needle.to_lowercase());
        let started = r.started_at.as_deref().unwrap_or("");
        self.name.as_ref().is_none_or(|n| has(&r.name, n))
            && self
                .kind
                .as_ref()
                .is_none_or(|k| r.kind.eq_ignore_ascii_case(k))
            && self
                .verdict
                .as_ref()
                .is_none_or(|v| r.status.eq_ignore_ascii_case(v))
            && self.since.as_ref().is_none_or(|d| started >= d.as_str())
            && self.until.as_ref().is_none_or(|d| {
                // The whole day of `until` counts.
                started.get(..d.len().min(started.len())).unwrap_or("") <= d.as_str()
            })
            && self
                .engine
                .as_ref()
                .is_none_or(|e| r.engines.iter().any(|x| has(&x.name, e) || has(&x.cmd, e)))
            && self.option.as_ref().is_none_or(|o| {
                r.engines
                    .iter()
                    .any(|x| x.options.iter().any(|(n, _)| has(n, o)))
            })
    }

    /// The runs of `runs` that pass, at most `limit`.
    pub fn apply(&self, runs: Vec<RunRow>) -> Vec<RunRow> {
        let kept = runs.into_iter().filter(|r| self.keeps(r));
        match self.limit {
            Some(n) => kept.take(n).collect(),
            None => kept.collect(),
        }
    }
}

/// `12.3 ± 4.5`, or `–`.
pub fn pm(v: Option<f64>, e: Option<f64>) -> String {
    match (v, e) {
        (Some(v), Some(e)) => format!("{v:.2} ± {e:.2}"),
        (Some(v), None) => format!("{v:.2}"),
        _ => "–".into(),
    }
}

/// `2.95 (-2.94, 2.94)`, or empty without an SPRT.
fn llr_text(r: &RunRow) -> String {
    match (r.llr, r.lower, r.upper) {
        (Some(l), Some(lo), Some(hi)) => format!("{l:.2} ({lo:.2}, {hi:.2})"),
        (Some(l), _, _) => format!("{l:.2}"),
        _ => String::new(),
    }
}

/// `[0, 10]` bounds of an SPRT, or empty.
fn bounds_text(r: &RunRow) -> String {
    match (r.elo0, r.elo1) {
        (Some(a), Some(b)) => format!("[{a}, {b}]"),
        _ => String::new(),
    }
}

/// The list's columns.
const COLUMNS: [&str; 10] = [
    "id", "date", "kind", "name", "tc", "games", "Elo", "nElo", "LLR", "status",
];

/// The CSV export's columns.
const CSV_COLUMNS: [&str; 20] = [
    "id",
    "started",
    "kind",
    "name",
    "tc",
    "games",
    "wins",
    "draws",
    "losses",
    "penta",
    "elo",
    "elo_error",
    "nelo",
    "nelo_error",
    "llr",
    "lower",
    "upper",
    "elo0",
    "elo1",
    "status",
];

/// One run as the list's cells.
fn cells(r: &RunRow) -> [String; 10] {
    let date = r
        .started_at
        .as_deref()
        .unwrap_or("")
        .get(..10)
        .unwrap_or("");
    [
        r.id.map_or(String::new(), |i| i.to_string()),
        date.to_string(),
        r.kind.clone(),
        r.name.clone(),
        r.tc.clone().unwrap_or_default(),
        r.games.to_string(),
        pm(r.elo, r.elo_error),
        pm(r.nelo, r.nelo_error),
        llr_text(r),
        r.status.clone(),
    ]
}

/// A Markdown table of `rows` under `head` (cells' `|` escaped).
pub fn markdown_table(head: &[&str], rows: &[Vec<String>], right: &[bool]) -> String {
    let esc = |s: &str| s.replace('|', "\\|");
    let mut out = format!("| {} |\n|", head.join(" | "));
    for (i, _) in head.iter().enumerate() {
        out.push_str(if right.get(i).copied().unwrap_or(false) {
            "---:|"
        } else {
            "---|"
        });
    }
    out.push('\n');
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| esc(c)).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

/// `runs` in `format`.
pub fn render(runs: &[RunRow], format: Format) -> anyhow::Result<String> {
    let rows: Vec<Vec<String>> = runs.iter().map(|r| cells(r).to_vec()).collect();
    Ok(match format {
        Format::Json => serde_json::to_string_pretty(runs)? + "\n",
        Format::Markdown => markdown_table(
            &COLUMNS,
            &rows,
            &[
                true, false, false, false, false, true, true, true, true, false,
            ],
        ),
        Format::Csv => {
            // One figure a column, so a spreadsheet reads numbers.
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(CSV_COLUMNS)?;
            let f = |v: Option<f64>| v.map_or(String::new(), |x| x.to_string());
            for r in runs {
                let penta = r.penta.as_ref().map_or(String::new(), |p| {
                    p.iter().map(i64::to_string).collect::<Vec<_>>().join(" ")
                });
                w.write_record([
                    r.id.map_or(String::new(), |i| i.to_string()),
                    r.started_at.clone().unwrap_or_default(),
                    r.kind.clone(),
                    r.name.clone(),
                    r.tc.clone().unwrap_or_default(),
                    r.games.to_string(),
                    r.wins.to_string(),
                    r.draws.to_string(),
                    r.losses.to_string(),
                    penta,
                    f(r.elo),
                    f(r.elo_error),
                    f(r.nelo),
                    f(r.nelo_error),
                    f(r.llr),
                    f(r.lower),
                    f(r.upper),
                    f(r.elo0),
                    f(r.elo1),
                    r.status.clone(),
                ])?;
            }
            String::from_utf8(w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?)?
        }
        Format::Table => {
            let mut width = COLUMNS.map(str::len);
            for r in &rows {
                for (w, c) in width.iter_mut().zip(r) {
                    *w = (*w).max(c.chars().count());
                }
            }
            let line = |r: &[String]| {
                let padded: Vec<String> = r
                    .iter()
                    .zip(width)
                    .map(|(c, w)| format!("{c:<w$}"))
                    .collect();
                padded.join("  ").trim_end().to_string() + "\n"
            };
            let head: Vec<String> = COLUMNS.iter().map(|s| s.to_string()).collect();
            let mut out = line(&head);
            for r in &rows {
                out.push_str(&line(r));
            }
            out
        }
    })
}

/// One run in full, as text.
fn show_text(db: &Db, r: &RunRow) -> anyhow::Result<String> {
    let mut out = String::new();
    let id = r.id.unwrap_or_default();
    let _ = writeln!(out, "Run {id}: {} ({}, {})", r.name, r.kind, r.status);
    let field = |out: &mut String, k: &str, v: &Option<String>| {
        if let Some(v) = v.as_ref().filter(|v| !v.is_empty()) {
            let _ = writeln!(out, "  {k:<12} {v}");
        }
    };
    field(&mut out, "uid", &Some(r.uid.clone()));
    field(&mut out, "parent", &r.parent_uid);
    field(&mut out, "started", &r.started_at);
    field(&mut out, "updated", &r.updated_at);
    field(&mut out, "ended", &r.ended_at);
    field(&mut out, "source", &Some(r.source.clone()));
    field(&mut out, "command", &r.command);
    field(&mut out, "cwd", &r.cwd);
    field(&mut out, "tc", &r.tc);
    field(&mut out, "book", &r.book);
    field(&mut out, "seed", &r.seed);
    field(&mut out, "order", &r.book_order);
    field(
        &mut out,
        "concurrency",
        &r.concurrency.map(|c| c.to_string()),
    );
    if r.elo0.is_some() {
        let sprt = format!(
            "{} α={} β={} {} (bounds {:.2}, {:.2})",
            bounds_text(r),
            r.alpha.unwrap_or_default(),
            r.beta.unwrap_or_default(),
            r.model.clone().unwrap_or_default(),
            r.lower.unwrap_or_default(),
            r.upper.unwrap_or_default()
        );
        field(&mut out, "sprt", &Some(sprt));
    }
    field(
        &mut out,
        "adjudication",
        &r.adjudication.as_ref().map(|v| v.to_string()),
    );
    field(
        &mut out,
        "limits",
        &r.limits.as_ref().map(|v| v.to_string()),
    );
    field(&mut out, "state", &r.state_path);
    let pgn = r.pgn_path.as_ref().map(|p| match r.pgn_bytes {
        Some(b) => format!("{p} ({b} bytes)"),
        None => p.clone(),
    });
    field(&mut out, "pgn", &pgn);
    field(&mut out, "epd", &r.epd_path);
    for (i, e) in r.engines.iter().enumerate() {
        let mut text = format!("{} = {}", e.name, e.cmd);
        for a in &e.args {
            text.push(' ');
            text.push_str(a);
        }
        for (n, v) in &e.options {
            let _ = write!(text, " [{n}={v}]");
        }
        if let Some(r) = &e.git_ref {
            let _ = write!(text, " ref {r}");
        }
        if let Some(c) = &e.git_commit {
            let _ = write!(text, " commit {}", c.get(..12).unwrap_or(c));
        }
        if let Some(b) = e.bench {
            let _ = write!(text, " bench {b}");
        }
        field(&mut out, &format!("engine {}", i + 1), &Some(text));
    }
    let _ = writeln!(
        out,
        "  {:<12} {} (W {} D {} L {}), pentanomial {:?}",
        "games",
        r.games,
        r.wins,
        r.draws,
        r.losses,
        r.penta.clone().unwrap_or_default()
    );
    let _ = writeln!(out, "  {:<12} {}", "Elo", pm(r.elo, r.elo_error));
    let _ = writeln!(out, "  {:<12} {}", "nElo", pm(r.nelo, r.nelo_error));
    if let Some(los) = r.los {
        let _ = writeln!(out, "  {:<12} {:.2} %", "LOS", los * 100.0);
    }
    field(&mut out, "LLR", &Some(llr_text(r)));
    field(
        &mut out,
        "failures",
        &r.failures.as_ref().map(|v| v.to_string()),
    );
    field(
        &mut out,
        "elapsed",
        &r.elapsed_s.map(|s| format!("{s:.0} s")),
    );
    if let Some(x) = &r.extra {
        field(&mut out, "details", &Some(x.to_string()));
    }
    let points = db.points(id)?;
    if let Some(last) = points.last() {
        let _ = writeln!(
            out,
            "  {:<12} {} (last at {} games)",
            "chart points",
            points.len(),
            last.games
        );
    }
    let its = db.iterations(id)?;
    if let Some(last) = its.last() {
        let _ = writeln!(
            out,
            "  {:<12} {} (θ after the last: {})",
            "iterations",
            its.len(),
            serde_json::Value::Object(last.theta.clone())
        );
    }
    Ok(out)
}

/// `arena results delete`: removes the runs `ids` name and their children (an ablation's
/// rows), all in one transaction, after checking every one; a running run is refused.
fn delete(db: &mut Db, ids: &[String]) -> anyhow::Result<()> {
    let all = db.runs()?;
    let mut doomed: Vec<&RunRow> = Vec::new();
    for id in ids {
        let Some(r) = db.run(id)? else {
            bail!(
                "no run {id:?} in {}; nothing was deleted",
                db.path.display()
            );
        };
        let Some(r) = all.iter().find(|x| x.id == r.id) else {
            bail!("run {id:?} changed while reading {}", db.path.display());
        };
        // The run and, transitively, the runs recorded under it.
        let mut todo = vec![r];
        while let Some(x) = todo.pop() {
            if doomed.iter().any(|d| d.id == x.id) {
                continue;
            }
            if x.status == "running" {
                let pid = x.pid.map_or(String::new(), |p| format!(" (pid {p})"));
                bail!(
                    "run {} ({}) is still running{pid}: stop it first; nothing was deleted",
                    x.id.unwrap_or_default(),
                    x.name
                );
            }
            doomed.push(x);
            todo.extend(
                all.iter()
                    .filter(|c| c.parent_uid.as_deref() == Some(x.uid.as_str())),
            );
        }
    }
    let n = db.write(|tx| {
        let mut n = 0;
        for r in &doomed {
            n += tx.execute("DELETE FROM runs WHERE id = ?1", [r.id])?;
        }
        Ok(n)
    })?;
    for r in &doomed {
        eprintln!(
            "arena: deleted run {} ({}, {}, {} games, {})",
            r.id.unwrap_or_default(),
            r.name,
            r.kind,
            r.games,
            r.status
        );
    }
    eprintln!(
        "arena: {n} runs deleted from {}; `arena results export` writes the record without them",
        db.path.display()
    );
    Ok(())
}

/// The checkout's top, from the current directory.
fn top() -> anyhow::Result<PathBuf> {
    let cwd = std::env::current_dir().context("current directory")?;
    db::checkout_top(&cwd).context("not inside a git checkout: run this in the repository")
}

/// Runs `arena results`.
pub fn run(a: &ResultsArgs) -> anyhow::Result<i32> {
    check_date("--since", &a.filter.since)?;
    check_date("--until", &a.filter.until)?;
    if let Some(Action::Docs { check, from }) = &a.action {
        return docs(*check, from.as_deref());
    }
    let Some(mut db) = Db::open_args(&a.db.args())? else {
        bail!("no results database");
    };
    db.mark_stale()?;
    match &a.action {
        None => {
            let format = if a.markdown {
                Format::Markdown
            } else {
                a.format
            };
            let runs = a.filter.apply(db.runs()?);
            print!("{}", render(&runs, format)?);
        }
        Some(Action::Show { id, json }) => {
            let Some(r) = db.run(id)? else {
                bail!("no run {id:?} in {}", db.path.display());
            };
            if *json {
                let rid = r.id.unwrap_or_default();
                let v =
                    json!({"run": r, "points": db.points(rid)?, "iterations": db.iterations(rid)?});
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                print!("{}", show_text(&db, &r)?);
            }
        }
        Some(Action::Delete { ids }) => delete(&mut db, ids)?,
        Some(Action::Export { file }) => {
            let file = match file {
                Some(f) => f.clone(),
                None => top()?.join(db::EXPORT),
            };
            let live: Vec<String> = (db.runs()?.iter())
                .filter(|r| r.status == "running")
                .map(|r| format!("{} ({})", r.id.unwrap_or_default(), r.name))
                .collect();
            let n = export::write_jsonl(&db, &file)?;
            eprintln!("arena: {n} runs written to {}", file.display());
            if !live.is_empty() {
                eprintln!(
                    "arena: still playing, written as stopped with the figures so far: {}",
                    live.join(", ")
                );
            }
        }
        Some(Action::Import { file }) => {
            let n = export::import_jsonl(&db, file)?;
            eprintln!(
                "arena: {n} runs imported from {} into {}",
                file.display(),
                db.path.display()
            );
        }
        Some(Action::ImportLegacy { dirs }) => {
            let top = top()?;
            let found = legacy::import(&db, &top, dirs)?;
            for (path, why) in &found.skipped {
                eprintln!("arena: skipped {}: {why}", path.display());
            }
            let total: usize = found.by_kind.values().sum();
            let kinds: Vec<String> = found
                .by_kind
                .iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect();
            eprintln!(
                "arena: {total} runs imported into {} ({})",
                db.path.display(),
                kinds.join(", ")
            );
        }
        Some(Action::Docs { .. }) => unreachable!("handled above"),
    }
    Ok(0)
}

/// Where the generated pages go, relative to the checkout's top.
pub const RESULTS_MD: &str = "docs/results.md";
/// The README and its markers around the standing table.
pub const README: &str = "README.md";
/// The line before the README's generated standing table.
pub const BEGIN: &str = "<!-- standing:begin -->";
/// The line after it.
pub const END: &str = "<!-- standing:end -->";

/// docs/engine.md and its markers around the generated limited-strength calibration.
pub const ENGINE_MD: &str = "docs/engine.md";
/// The line before the calibration tables.
pub const CAL_BEGIN: &str = "<!-- calibration:begin -->";
/// The line after them.
pub const CAL_END: &str = "<!-- calibration:end -->";

/// `text` with what lies between the lines `begin` and `end` replaced by `content`.
fn splice(
    text: &str,
    path: &Path,
    begin: &str,
    end: &str,
    content: &str,
) -> anyhow::Result<String> {
    let (Some(b), Some(e)) = (text.find(begin), text.find(end)) else {
        bail!("{} has no {begin} … {end} block", path.display());
    };
    if e < b {
        bail!("{}: {end} comes before {begin}", path.display());
    }
    Ok(format!("{}{begin}\n{content}{}", &text[..b], &text[e..]))
}

/// `arena results docs`: renders the export into docs/results.md, the README's standing
/// block and docs/engine.md's calibration block; with `check`, compares instead and returns 1
/// when they differ.
fn docs(check: bool, from: Option<&Path>) -> anyhow::Result<i32> {
    let top = top()?;
    let export = from.map_or_else(|| top.join(db::EXPORT), Path::to_path_buf);
    let mem = Db::open(Path::new(":memory:"))?;
    export::import_jsonl(&mem, &export)?;
    let runs = mem.runs()?;
    let page = crate::results_docs::results_page(&runs, db::EXPORT);
    // (file, its text now, its text generated, what the block is called)
    let mut files = vec![(
        top.join(RESULTS_MD),
        std::fs::read_to_string(top.join(RESULTS_MD)).unwrap_or_default(),
        page,
        RESULTS_MD.to_string(),
    )];
    for (name, begin, end, content, what) in [
        (
            README,
            BEGIN,
            END,
            crate::results_docs::standing(&runs),
            "README.md's standing table",
        ),
        (
            ENGINE_MD,
            CAL_BEGIN,
            CAL_END,
            crate::results_docs::calibration(&runs),
            "docs/engine.md's calibration tables",
        ),
    ] {
        let path = top.join(name);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let new = splice(&text, &path, begin, end, &content)?;
        files.push((path, text, new, what.to_string()));
    }
    if check {
        let stale: Vec<&str> = (files.iter())
            .filter(|(_, old, new, _)| old != new)
            .map(|(_, _, _, what)| what.as_str())
            .collect();
        if stale.is_empty() {
            println!(
                "{RESULTS_MD}, the README's standing table and {ENGINE_MD}'s calibration are current"
            );
            return Ok(0);
        }
        eprintln!(
            "arena: not current: {} (run `arena results docs`)",
            stale.join(", ")
        );
        return Ok(1);
    }
    for (path, old, new, _) in &files {
        if old != new {
            std::fs::write(path, new).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    eprintln!(
        "arena: wrote {RESULTS_MD} ({} runs), the README's standing table and {ENGINE_MD}'s calibration",
        runs.len()
    );
    Ok(0)
}
