//! `arena serve`: the results database as a local web page, in the spirit of fishtest's and
//! OpenBench's index: the runs table (live runs first, updating while they play) and a page per
//! run with its charts, pentanomial, engines and the command that reproduces it.
//!
//! Plain HTML with a small script that polls the JSON API (`/api/runs`, `/api/run/ID`); the
//! charts are the SVGs `--plot` writes, made by the server. Bad requests get a 4xx answer.

use std::io::Cursor;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Args;
use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response, Server};

use crate::ablate::Row;
use crate::db::{Db, DbFile, RunRow};
use crate::state::Point;
use crate::stats::{Decision, Model, SprtConfig};

/// `arena serve`: a local page of the results database.
#[derive(Args, Clone, Debug)]
pub struct ServeArgs {
    /// Address to listen on (127.0.0.1: this machine only).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: String,
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, value_name = "PORT", default_value_t = 8080)]
    pub port: u16,
    #[command(flatten)]
    pub db: DbFile,
}

/// The runs table.
const INDEX: &str = include_str!("index.html");
/// One run's page.
const RUN: &str = include_str!("run.html");
/// Longest request target accepted.
const MAX_URL: usize = 2048;
/// Largest request body accepted (the server reads none).
const MAX_BODY: usize = 64 << 10;
/// Most runs one `/api/runs` answer lists.
const MAX_LIMIT: usize = 5000;

/// An answer: status, content type, body.
struct Answer(u16, &'static str, Vec<u8>);

impl Answer {
    fn json(v: &Value) -> Answer {
        Answer(200, "application/json", v.to_string().into_bytes())
    }

    fn error(code: u16, msg: &str) -> Answer {
        Answer(
            code,
            "application/json",
            json!({ "error": msg }).to_string().into_bytes(),
        )
    }
}

/// Runs `arena serve` until killed.
pub fn run(a: &ServeArgs) -> anyhow::Result<i32> {
    let Some(mut db) = Db::open_args(&a.db.args())? else {
        bail!("no results database");
    };
    db.mark_stale()?;
    let server = Server::http((a.bind.as_str(), a.port))
        .map_err(|e| anyhow::anyhow!("cannot listen on {}:{}: {e}", a.bind, a.port))?;
    let addr = server
        .server_addr()
        .to_ip()
        .context("the server has no IP address")?;
    println!(
        "arena: serving {} at http://{addr}/ (Ctrl-C stops)",
        db.path.display()
    );
    let mut swept = Instant::now();
    for request in server.incoming_requests() {
        if swept.elapsed() > Duration::from_secs(5) {
            let _ = db.mark_stale();
            swept = Instant::now();
        }
        let answer = answer(&db, &request);
        respond(request, answer);
    }
    Ok(0)
}

fn respond(request: Request, Answer(code, kind, body): Answer) {
    let head = request.method() == &Method::Head;
    let header = Header::from_bytes("Content-Type", format!("{kind}; charset=utf-8"))
        .expect("a constant header");
    let nocache = Header::from_bytes("Cache-Control", "no-store").expect("a constant header");
    let len = body.len();
    let data = if head { Vec::new() } else { body };
    let response = Response::new(
        code.into(),
        vec![header, nocache],
        Cursor::new(data),
        Some(len),
        None,
    );
    let _ = request.respond(response);
}

/// The answer to one request.
fn answer(db: &Db, request: &Request) -> Answer {
    let url = request.url();
    if url.len() > MAX_URL {
        return Answer::error(414, "request target too long");
    }
    if !matches!(request.method(), Method::Get | Method::Head) {
        return Answer::error(405, "only GET and HEAD");
    }
    if request.body_length().unwrap_or(0) > MAX_BODY {
        return Answer::error(413, "request body too large");
    }
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let result = match parts.as_slice() {
        [] | ["index.html"] => Ok(Answer(200, "text/html", INDEX.as_bytes().to_vec())),
        ["run", id] => find(db, id).map(|_| Answer(200, "text/html", RUN.as_bytes().to_vec())),
        ["api", "runs"] => list(db, query),
        ["api", "run", id] => find(db, id).and_then(|r| detail(db, &r)),
        ["api", "run", id, "chart.svg"] => find(db, id).and_then(|r| chart(db, &r)),
        ["api", "run", id, "ablate.svg"] => find(db, id).and_then(|r| ablate_chart(db, &r)),
        _ => Err(Answer::error(404, "no such page")),
    };
    result.unwrap_or_else(|e| e)
}

/// The run `id` names (a database id), else a 404.
fn find(db: &Db, id: &str) -> Result<RunRow, Answer> {
    if id.parse::<i64>().is_err() {
        return Err(Answer::error(
            404,
            &format!("no run {id:?}: run ids are numbers"),
        ));
    }
    match db.run(id) {
        Ok(Some(r)) => Ok(r),
        Ok(None) => Err(Answer::error(404, &format!("no run {id}"))),
        Err(e) => Err(Answer::error(500, &e.to_string())),
    }
}

fn internal(e: impl std::fmt::Display) -> Answer {
    Answer::error(500, &e.to_string())
}

/// `/api/runs?kind=&name=&verdict=&limit=`: runs, live first, then newest first.
fn list(db: &Db, query: &str) -> Result<Answer, Answer> {
    let mut filter = crate::results_cmd::Filter::default();
    let mut limit = 500usize;
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        let v = v.into_owned();
        match k.as_ref() {
            "kind" => filter.kind = Some(v),
            "name" => filter.name = Some(v),
            "verdict" => filter.verdict = Some(v),
            "engine" => filter.engine = Some(v),
            "limit" => {
                limit = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_LIMIT).contains(n))
                    .ok_or_else(|| {
                        Answer::error(400, &format!("limit {v:?}: give 1 to {MAX_LIMIT}"))
                    })?;
            }
            other => return Err(Answer::error(400, &format!("unknown query key {other:?}"))),
        }
    }
    let mut runs = filter.apply(db.runs().map_err(internal)?);
    // Stable: newest first within each group.
    runs.sort_by_key(|r| r.status != "running");
    runs.truncate(limit);
    let list: Vec<Value> = runs.iter().map(summary).collect();
    Ok(Answer::json(&Value::Array(list)))
}

/// The fields of a run the table shows.
fn summary(r: &RunRow) -> Value {
    json!({
        "id": r.id, "name": r.name, "kind": r.kind, "status": r.status, "tc": r.tc,
        "started_at": r.started_at, "updated_at": r.updated_at, "games": r.games,
        "wins": r.wins, "draws": r.draws, "losses": r.losses,
        "elo": r.elo, "elo_error": r.elo_error, "nelo": r.nelo, "nelo_error": r.nelo_error,
        "llr": r.llr, "lower": r.lower, "upper": r.upper, "elo0": r.elo0, "elo1": r.elo1,
        "engines": r.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
        "parent_uid": r.parent_uid,
    })
}

/// `/api/run/ID`: the run, its points, iterations and (for an ablation) its rows.
fn detail(db: &Db, r: &RunRow) -> Result<Answer, Answer> {
    let id = r.id.unwrap_or_default();
    let children: Vec<Value> = db
        .runs()
        .map_err(internal)?
        .iter()
        .filter(|c| c.parent_uid.as_deref() == Some(r.uid.as_str()))
        .rev()
        .map(summary)
        .collect();
    let reproduce = match (&r.cwd, &r.command) {
        (Some(cwd), Some(cmd)) => Some(format!("cd {} && {cmd}", shell_words::quote(cwd))),
        (None, Some(cmd)) => Some(cmd.clone()),
        _ => None,
    };
    Ok(Answer::json(&json!({
        "run": r,
        "points": db.points(id).map_err(internal)?,
        "iterations": db.iterations(id).map_err(internal)?,
        "children": children,
        "reproduce": reproduce,
    })))
}

/// The SPRT of a run, if it was one.
fn sprt_of(r: &RunRow) -> Option<SprtConfig> {
    let model = match r.model.as_deref() {
        Some("logistic") => Model::Logistic,
        _ => Model::Normalized,
    };
    SprtConfig::new(r.elo0?, r.elo1?, r.alpha?, r.beta?, model).ok()
}

/// `/api/run/ID/chart.svg`: LLR (with its bounds) and Elo ± 95 % against games.
fn chart(db: &Db, r: &RunRow) -> Result<Answer, Answer> {
    let points = db.points(r.id.unwrap_or_default()).map_err(internal)?;
    let history: Vec<Point> = points
        .iter()
        .map(|p| Point {
            games: p.games.max(0) as u64,
            llr: p.llr.unwrap_or(0.0),
            elo: p.elo,
            elo_error: p.elo_error,
        })
        .collect();
    let svg = crate::plot::history_svg(&history, sprt_of(r).as_ref());
    Ok(Answer(200, "image/svg+xml", svg.into_bytes()))
}

/// `/api/run/ID/ablate.svg`: an ablation's Elo ± 95 % per row.
fn ablate_chart(db: &Db, r: &RunRow) -> Result<Answer, Answer> {
    let rows: Vec<Row> = db
        .runs()
        .map_err(internal)?
        .into_iter()
        .filter(|c| c.parent_uid.as_deref() == Some(r.uid.as_str()))
        .rev()
        .map(|c| {
            let penta: Vec<u64> = c
                .penta
                .unwrap_or_default()
                .iter()
                .map(|&n| n.max(0) as u64)
                .collect();
            Row {
                label: c.name.clone(),
                games: c.games.max(0) as u64,
                wdl: [c.wins, c.draws, c.losses].map(|n| n.max(0) as u64),
                penta: penta.try_into().unwrap_or_default(),
                elo: c.elo.zip(c.elo_error),
                nelo: c.nelo.zip(c.nelo_error),
                llr: c.llr.unwrap_or(0.0),
                decision: match c.status.as_str() {
                    "H0" => Some(Decision::H0),
                    "H1" => Some(Decision::H1),
                    _ => None,
                },
            }
        })
        .collect();
    if rows.is_empty() {
        return Err(Answer::error(404, "this run has no ablation rows"));
    }
    Ok(Answer(
        200,
        "image/svg+xml",
        crate::ablate::svg(&rows).into_bytes(),
    ))
}
