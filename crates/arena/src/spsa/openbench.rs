//! Moving a tune between arena and OpenBench: OpenBench's SPSA input lines
//! (`name, int|float, value, min, max, c_end, r_end`, one parameter a line, as OpenBench's
//! `spsa_original_input` writes them), and campaign skeletons made from those lines or from
//! `clio params --toml` output.

use std::fmt::Write as _;

use serde::Deserialize;

use super::config::{Config, Kind, Param, DEFAULT_R_END};
use super::schedule::format_value;

/// A line that is not an OpenBench SPSA parameter line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("OpenBench SPSA line {line} \"{text}\": {reason}")]
pub struct LineError {
    /// 1-based line number.
    pub line: usize,
    /// The line.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

/// A finite number, or why `text` (the field `what`) is not one.
fn finite(text: &str, what: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("{what} \"{text}\" is not a number"))
}

/// Parses OpenBench SPSA lines. Blank lines and `#` comments are skipped; every other line
/// must have the seven fields.
pub fn parse_lines(text: &str) -> Result<Vec<Param>, LineError> {
    let mut params = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |reason: String| LineError {
            line: i + 1,
            text: line.to_string(),
            reason,
        };
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 7 {
            return Err(err(format!(
                "{} fields, expected 7 (name, int|float, value, min, max, c_end, r_end)",
                fields.len()
            )));
        }
        let kind = match fields[1].to_ascii_lowercase().as_str() {
            "int" => Kind::Int,
            "float" => Kind::Float,
            other => return Err(err(format!("type \"{other}\" is not int or float"))),
        };
        let num = |j: usize, what: &str| finite(fields[j], what).map_err(err);
        if fields[0].is_empty() {
            return Err(err("empty name".into()));
        }
        params.push(Param {
            name: fields[0].to_string(),
            kind,
            value: num(2, "value")?,
            min: num(3, "min")?,
            max: num(4, "max")?,
            step: num(5, "c_end")?,
            r_end: num(6, "r_end")?,
        });
    }
    Ok(params)
}

/// Formats one number the way OpenBench shows it: integers without a fraction.
fn num(p: &Param, v: f64) -> String {
    match p.kind {
        Kind::Int if v.fract() == 0.0 => format!("{}", v as i64),
        _ => format!("{v}"),
    }
}

/// OpenBench SPSA lines for `params`, with `values` as the start values (e.g. the tuned ones
/// to continue a tune on OpenBench; an int value is rounded).
pub fn format_lines(params: &[Param], values: &[f64]) -> String {
    let mut out = String::new();
    for (p, v) in params.iter().zip(values) {
        let value = match p.kind {
            Kind::Int => v.round(),
            Kind::Float => *v,
        };
        let _ = writeln!(
            out,
            "{}, {}, {}, {}, {}, {}, {}",
            p.name,
            p.kind,
            num(p, value),
            num(p, p.min),
            num(p, p.max),
            p.step,
            p.r_end
        );
    }
    out
}

/// A `[[param]]` as `clio params --toml` may print it: unknown keys are ignored, `type`
/// defaults to int and `r_end` to 0.002.
#[derive(Debug, Deserialize)]
struct LooseParam {
    name: String,
    #[serde(rename = "type", default)]
    kind: Kind,
    value: f64,
    min: f64,
    max: f64,
    step: f64,
    r_end: Option<f64>,
}

#[derive(Debug, Deserialize)]
struct LooseFile {
    #[serde(default)]
    param: Vec<LooseParam>,
}

/// Reads parameters from OpenBench lines or from TOML with `[[param]]` tables (a campaign file
/// or `clio params --toml` output), whichever `text` is.
pub fn read_params(text: &str) -> Result<Vec<Param>, String> {
    if let Ok(file) = toml::from_str::<LooseFile>(text) {
        if !file.param.is_empty() {
            return Ok(file
                .param
                .into_iter()
                .map(|p| Param {
                    name: p.name,
                    kind: p.kind,
                    value: p.value,
                    min: p.min,
                    max: p.max,
                    step: p.step,
                    r_end: p.r_end.unwrap_or(DEFAULT_R_END),
                })
                .collect());
        }
    }
    let params = parse_lines(text).map_err(|e| e.to_string())?;
    if params.is_empty() {
        return Err("no parameters: neither [[param]] tables nor OpenBench SPSA lines".into());
    }
    Ok(params)
}

/// A complete campaign file for `params` with default `[spsa]` and `[match]` sections, to be
/// edited: the start of a new `tuning/<name>.toml`.
pub fn skeleton(params: &[Param]) -> String {
    let mut out = String::from(
        "# SPSA campaign (arena spsa FILE). Edit the schedule and the match, then run it.\n\
         [spsa]\n\
         iterations = 2000           # N, fixes the schedule\n\
         pairs_per_iteration = 8     # game pairs per iteration\n\
         alpha = 0.602\n\
         gamma = 0.101\n\
         a_ratio = 0.1               # A = a_ratio * N\n\
         seed = 1\n\
         \n\
         [match]\n\
         engine = \"target/release/clio\"\n\
         tc = \"8+0.08\"\n\
         concurrency = 2\n\
         options = { Hash = 16, Threads = 1 }\n\
         resign = { movecount = 3, score = 400 }\n\
         draw = { movenumber = 40, movecount = 8, score = 10 }\n",
    );
    out += &params_toml(params, None);
    out
}

/// `[[param]]` tables for `params`; with `values`, those replace the start values (the tuned
/// campaign to continue from).
pub fn params_toml(params: &[Param], values: Option<&[f64]>) -> String {
    let mut out = String::new();
    for (i, p) in params.iter().enumerate() {
        let v = values.and_then(|v| v.get(i).copied()).unwrap_or(p.value);
        let _ = write!(
            out,
            "\n[[param]]\nname = {}\ntype = \"{}\"\nvalue = {}\nmin = {}\nmax = {}\nstep = {}\nr_end = {}\n",
            toml::Value::String(p.name.clone()),
            p.kind,
            toml_num(p, v),
            toml_num(p, p.min),
            toml_num(p, p.max),
            toml_float(p.step),
            toml::Value::Float(p.r_end),
        );
    }
    out
}

/// A float as TOML, without a fraction when it has none (`25`, `0.5`).
fn toml_float(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        toml::Value::Float(v).to_string()
    }
}

/// A value as TOML: an integer for an int parameter (rounded), else a float.
fn toml_num(p: &Param, v: f64) -> String {
    match p.kind {
        Kind::Int => format_value(p, v),
        Kind::Float => toml::Value::Float(v).to_string(),
    }
}

/// Checks imported parameters the way a campaign file is checked, by building a skeleton
/// around them; errors name `origin` and the field.
pub fn check_params(params: &[Param], origin: &std::path::Path) -> Result<Vec<String>, String> {
    Config::parse(&skeleton(params), origin)
        .map(|(_, w)| w)
        .map_err(|e| e.to_string())
}

/// One parameter of a tune read back from OpenBench: its current value, and from a digest the
/// columns that fix its schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputRow {
    /// The parameter's name.
    pub name: String,
    /// `Curr` of a digest, or the value of a `name, value` line.
    pub value: f64,
    /// `Min`, `Max`, `C`, `C_end` and `R_end` of a digest row (`None` from a `name, value` line).
    pub digest: Option<DigestColumns>,
}

/// The schedule columns of one digest row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DigestColumns {
    pub min: f64,
    pub max: f64,
    pub c: f64,
    pub c_end: f64,
    pub r_end: f64,
}

/// Parses what an OpenBench tune gives back: its digest (a header `Name, Curr, Start, Min, Max,
/// C, C_end, R, R_end`, then one row a parameter, the fields separated by commas as
/// `spsa_param_digest` writes them or by spaces as its page and `arena spsa` show them), or its
/// optimal values (`name, value` lines, as `spsa_optimal_values` writes them). Blank lines,
/// `#` comments and rules of dashes are skipped.
pub fn parse_outputs(text: &str) -> Result<Vec<OutputRow>, LineError> {
    let mut rows = Vec::new();
    let mut digest = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.chars().all(|c| c == '-') {
            continue;
        }
        let err = |reason: String| LineError {
            line: i + 1,
            text: line.to_string(),
            reason,
        };
        let fields: Vec<&str> = if line.contains(',') {
            line.split(',').map(str::trim).collect()
        } else {
            line.split_whitespace().collect()
        };
        if fields[0].eq_ignore_ascii_case("name") {
            let want = [
                "name", "curr", "start", "min", "max", "c", "c_end", "r", "r_end",
            ];
            let got: Vec<String> = fields.iter().map(|f| f.to_ascii_lowercase()).collect();
            if got != want {
                return Err(err(format!("a digest header is {}", want.join(", "))));
            }
            digest = true;
            continue;
        }
        let num = |j: usize, what: &str| finite(fields[j], what).map_err(err);
        let row = match (digest, fields.len()) {
            (true, 9) => OutputRow {
                name: fields[0].to_string(),
                value: num(1, "Curr")?,
                digest: Some(DigestColumns {
                    min: num(3, "Min")?,
                    max: num(4, "Max")?,
                    c: num(5, "C")?,
                    c_end: num(6, "C_end")?,
                    r_end: num(8, "R_end")?,
                }),
            },
            (true, n) => return Err(err(format!("{n} fields, expected the digest's 9"))),
            (false, 2) => OutputRow {
                name: fields[0].to_string(),
                value: num(1, "value")?,
                digest: None,
            },
            (false, n) => {
                return Err(err(format!(
                "{n} fields, expected `name, value` (or a digest under its `Name, Curr, …` header)"
            )))
            }
        };
        if row.name.is_empty() {
            return Err(err("empty name".into()));
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(LineError {
            line: 0,
            text: String::new(),
            reason: "no parameters: neither a digest nor `name, value` lines".into(),
        });
    }
    Ok(rows)
}
