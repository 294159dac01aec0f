//! fastchess's spellings: a command line in fastchess's single-dash form (`-engine cmd=… name=…
//! -each tc=8+0.08 -sprt elo0=0 elo1=5 -rounds 1000 -repeat -concurrency 2 -pgnout file=…`)
//! rewritten into arena's own flags before clap reads it, so a fastchess user's first command
//! works. The subcommand is `sprt` when `-sprt` is given, `gauntlet` with `-tournament gauntlet`,
//! else `match`; naming it (`arena sprt -engine …`) works too, and arena's own `--` flags may be
//! mixed in. Every word this does not know is an error naming it: nothing is dropped silently.

use std::collections::BTreeMap;

/// The single-dash words this module rewrites.
const WORDS: &[&str] = &[
    "-engine",
    "-each",
    "-openings",
    "-sprt",
    "-rounds",
    "-games",
    "-repeat",
    "-concurrency",
    "-pgnout",
    "-epdout",
    "-resign",
    "-draw",
    "-maxmoves",
    "-ratinginterval",
    "-srand",
    "-use-affinity",
    "-variant",
    "-event",
    "-recover",
    "-tournament",
];

/// fastchess options with no arena counterpart, named in the error.
const UNSUPPORTED: &[&str] = &[
    "-config",
    "-output",
    "-log",
    "-autosaveinterval",
    "-report",
    "-wait",
    "-noswap",
    "-reverse",
    "-seeds",
    "-crc32",
    "-testEnv",
    "-force-concurrency",
    "-quick",
    "-show-latency",
    "-scoreinterval",
];

/// Whether `args` (without the program name) are in fastchess's form.
pub fn is_fastchess(args: &[String]) -> bool {
    args.iter()
        .any(|a| WORDS.contains(&a.as_str()) || UNSUPPORTED.contains(&a.as_str()))
}

/// One `-engine` (or `-each`) group: its `key=value` words in order.
type Group = Vec<(String, String)>;

/// Splits the `key=value` words that follow a flag, up to the next flag.
fn group(flag: &str, words: &[String]) -> Result<Group, String> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => Err(format!("{flag}: {w:?} is not key=value")),
        })
        .collect()
}

/// The value of a flag that takes exactly one word.
fn single<'a>(flag: &str, words: &'a [String]) -> Result<&'a str, String> {
    match words {
        [w] => Ok(w),
        [] => Err(format!("{flag} needs a value")),
        _ => Err(format!("{flag} takes one value, not {words:?}")),
    }
}

/// What the fastchess words set, collected before the arena words are written.
#[derive(Default)]
struct Collected {
    engines: Vec<Group>,
    out: Vec<String>,
    rounds: Option<u64>,
    games: Option<u64>,
    sprt: bool,
    tournament: Option<String>,
}

/// `-each`'s keys (also accepted in one `-engine` only where both engines get them in arena).
fn each(c: &mut Collected, g: &Group) -> Result<(), String> {
    for (k, v) in g {
        match k.as_str() {
            "tc" => c.out.extend(["--tc".into(), v.clone()]),
            "nodes" => c.out.extend(["--nodes".into(), v.clone()]),
            "depth" => c.out.extend(["--depth".into(), v.clone()]),
            "st" => {
                let s: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| format!("-each st={v}: not a positive number of seconds"))?;
                let ms = (s * 1000.0).round() as u64;
                c.out.extend(["--movetime".into(), ms.to_string()]);
            }
            "timemargin" => c.out.extend(["--timemargin".into(), v.clone()]),
            "proto" if v == "uci" => {}
            _ => match k.strip_prefix("option.") {
                Some(name) => c.out.extend(["--option".into(), format!("{name}={v}")]),
                None => return Err(format!("-each {k}={v}: arena has no such setting")),
            },
        }
    }
    Ok(())
}

/// An `-engine` group as `arena match`'s `--engine` words.
fn match_engine(g: &Group) -> Result<Vec<String>, String> {
    let mut words = vec!["--engine".to_string()];
    for (k, v) in g {
        match k.as_str() {
            "name" | "cmd" | "dir" => words.push(format!("{k}={v}")),
            "args" => words.extend(v.split_whitespace().map(|a| format!("arg={a}"))),
            "proto" if v == "uci" => {}
            _ if k.starts_with("option.") => words.push(format!("{k}={v}")),
            _ => return Err(engine_key_error(k, v)),
        }
    }
    Ok(words)
}

/// An `-engine` group as `arena sprt`'s `--dev-…` or `--base-…` flags.
fn sprt_engine(side: &str, g: &Group) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    for (k, v) in g {
        match k.as_str() {
            "name" | "cmd" => words.extend([format!("--{side}-{k}"), v.clone()]),
            "args" => {
                for a in v.split_whitespace() {
                    words.extend([format!("--{side}-arg"), a.to_string()]);
                }
            }
            "proto" if v == "uci" => {}
            "dir" => {
                return Err(format!(
                    "-engine dir={v}: arena sprt starts engines in the current directory; \
                     give cmd= a path"
                ))
            }
            _ => match k.strip_prefix("option.") {
                Some(name) => words.extend([format!("--{side}-option"), format!("{name}={v}")]),
                None => return Err(engine_key_error(k, v)),
            },
        }
    }
    Ok(words)
}

fn engine_key_error(k: &str, v: &str) -> String {
    match k {
        "tc" | "nodes" | "depth" | "st" | "timemargin" => {
            format!("-engine {k}={v}: arena plays both engines under one limit; give it in -each")
        }
        _ => format!("-engine {k}={v}: arena has no such engine setting"),
    }
}

/// `-openings file=… format=epd|pgn order=random|sequential start=N`.
fn openings(c: &mut Collected, g: &Group) -> Result<(), String> {
    let map: BTreeMap<&str, &str> = g.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let file = map
        .get("file")
        .ok_or("-openings needs file=PATH".to_string())?;
    let is_pgn = std::path::Path::new(file)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    for (k, v) in &map {
        match *k {
            "file" => c.out.extend(["--openings".into(), v.to_string()]),
            "format" => match (*v, is_pgn) {
                ("epd", false) | ("pgn", true) => {}
                ("epd" | "pgn", _) => {
                    return Err(format!(
                        "-openings format={v}: arena reads a book by its extension (.pgn is PGN, \
                         anything else EPD), and {file} is not a {v} file name"
                    ))
                }
                _ => return Err(format!("-openings format={v}: give epd or pgn")),
            },
            "order" => c.out.extend(["--order".into(), v.to_string()]),
            "start" => c.out.extend(["--start".into(), v.to_string()]),
            _ => {
                return Err(format!(
                    "-openings {k}={v}: arena has no such setting (it plays every move of an \
                     opening)"
                ))
            }
        }
    }
    Ok(())
}

/// `-sprt elo0= elo1= alpha= beta= model=`.
fn sprt(c: &mut Collected, g: &Group) -> Result<(), String> {
    c.sprt = true;
    for (k, v) in g {
        match k.as_str() {
            "elo0" | "elo1" | "alpha" | "beta" => c.out.extend([format!("--{k}"), v.clone()]),
            "model" => match v.as_str() {
                "normalized" | "logistic" => c.out.extend(["--model".into(), v.clone()]),
                _ => {
                    return Err(format!(
                        "-sprt model={v}: arena has the normalized and logistic models"
                    ))
                }
            },
            _ => return Err(format!("-sprt {k}={v}: arena has no such setting")),
        }
    }
    Ok(())
}

/// A flag whose words are `key=value` and become one arena rule `k=v,k=v` (`-resign`, `-draw`).
fn rule(c: &mut Collected, arena: &str, g: &Group) {
    let text: Vec<String> = g.iter().map(|(k, v)| format!("{k}={v}")).collect();
    c.out.extend([arena.to_string(), text.join(",")]);
}

/// `-pgnout file=…` (or the older `-pgnout PATH`), likewise `-epdout`.
fn output(c: &mut Collected, flag: &str, arena: &str, words: &[String]) -> Result<(), String> {
    let path = match words {
        [w] if !w.contains('=') => w.clone(),
        _ => {
            let g = group(flag, words)?;
            let mut file = None;
            for (k, v) in g {
                match (k.as_str(), v.as_str()) {
                    ("file", _) => file = Some(v),
                    // What arena writes anyway: SAN moves, `{score/depth time}` comments.
                    ("notation", "san") => {}
                    (
                        "nodes" | "seldepth" | "nps" | "hashfull" | "timeleft" | "latency" | "min"
                        | "pv",
                        "false",
                    ) => {}
                    _ => {
                        return Err(format!(
                            "{flag} {k}={v}: arena writes one form of {} (SAN, score/depth \
                             and time per move; give file= alone)",
                            &flag[1..4].to_uppercase()
                        ))
                    }
                }
            }
            file.ok_or(format!("{flag} needs file=PATH"))?
        }
    };
    c.out.extend([arena.to_string(), path]);
    Ok(())
}

/// Rewrites a fastchess-form command line (without the program name) into arena's; `args`
/// may begin with arena's subcommand.
pub fn translate(args: &[String]) -> Result<Vec<String>, String> {
    let (named, rest) = match args.first().map(String::as_str) {
        Some(s @ ("sprt" | "match" | "gauntlet")) => (Some(s.to_string()), &args[1..]),
        Some(s) if !s.starts_with('-') => {
            return Err(format!(
                "fastchess's options go with arena sprt, match or gauntlet, not {s:?}"
            ))
        }
        _ => (None, args),
    };
    let mut c = Collected::default();
    let mut i = 0;
    while i < rest.len() {
        let flag = rest[i].as_str();
        let mut j = i + 1;
        if !flag.starts_with("--") && flag.starts_with('-') && flag.len() > 2 {
            while j < rest.len() && !rest[j].starts_with('-') {
                j += 1;
            }
        }
        let words = &rest[i + 1..j];
        match flag {
            "-engine" => c.engines.push(group(flag, words)?),
            "-each" => each(&mut c, &group(flag, words)?)?,
            "-openings" => openings(&mut c, &group(flag, words)?)?,
            "-sprt" => sprt(&mut c, &group(flag, words)?)?,
            "-rounds" => c.rounds = Some(count(flag, single(flag, words)?)?),
            "-games" => c.games = Some(count(flag, single(flag, words)?)?),
            "-repeat" => match words {
                [] => c.games = Some(2),
                [n] => c.games = Some(count(flag, n)?),
                _ => return Err(format!("-repeat takes at most one value, not {words:?}")),
            },
            "-concurrency" => c
                .out
                .extend(["--concurrency".into(), single(flag, words)?.into()]),
            "-pgnout" => output(&mut c, flag, "--pgn", words)?,
            "-epdout" => output(&mut c, flag, "--epdout", words)?,
            "-resign" => rule(&mut c, "--resign", &group(flag, words)?),
            "-draw" => rule(&mut c, "--draw", &group(flag, words)?),
            "-maxmoves" => c
                .out
                .extend(["--maxmoves".into(), single(flag, words)?.into()]),
            "-ratinginterval" => c
                .out
                .extend(["--rating-interval".into(), single(flag, words)?.into()]),
            "-srand" => c.out.extend(["--seed".into(), single(flag, words)?.into()]),
            "-use-affinity" => {
                if !words.is_empty() {
                    return Err(format!(
                        "-use-affinity {}: arena takes the CPUs it may use from its own \
                         affinity; narrow them with taskset",
                        words.join(" ")
                    ));
                }
                c.out.push("--affinity".into());
            }
            "-variant" => c
                .out
                .extend(["--variant".into(), single(flag, words)?.into()]),
            "-event" => c.out.extend(["--event".into(), words.join(" ")]),
            "-recover" => {}
            "-tournament" => c.tournament = Some(single(flag, words)?.to_string()),
            f if UNSUPPORTED.contains(&f) => {
                return Err(format!("fastchess's {f} has no arena counterpart"))
            }
            f if f.starts_with("--") || f == "-h" || f == "-V" => {
                // arena's own flag and its value, passed through as written
                c.out.push(f.to_string());
                while j < rest.len() && !rest[j].starts_with('-') {
                    c.out.push(rest[j].clone());
                    j += 1;
                }
            }
            // a negative number: the value of the arena flag before it
            f if f.parse::<f64>().is_ok() => {
                c.out.push(f.to_string());
                c.out.extend(words.iter().cloned());
            }
            f => return Err(format!("unknown fastchess option {f:?}")),
        }
        i = j;
    }
    let inferred = if c.sprt {
        "sprt"
    } else {
        match c.tournament.as_deref() {
            None | Some("roundrobin") => "match",
            Some("gauntlet") => "gauntlet",
            Some(t) => return Err(format!("-tournament {t}: give roundrobin or gauntlet")),
        }
    };
    let command = named.unwrap_or_else(|| inferred.to_string());
    if c.sprt && command != "sprt" {
        return Err(format!("-sprt goes with arena sprt, not arena {command}"));
    }
    let mut out = vec![command.clone()];
    let games = c.rounds.map(|r| r.saturating_mul(c.games.unwrap_or(1)));
    if command == "sprt" {
        match c.engines.as_slice() {
            [] => {}
            [dev, base] => {
                out.extend(sprt_engine("dev", dev)?);
                out.extend(sprt_engine("base", base)?);
            }
            e => {
                return Err(format!(
                    "arena sprt plays two engines (the first is dev, the second base), not {}",
                    e.len()
                ))
            }
        }
        if let Some(g) = games {
            out.extend(["--max-games".into(), g.to_string()]);
        }
    } else {
        for e in &c.engines {
            out.extend(match_engine(e)?);
        }
        if let Some(g) = games {
            out.extend(["--games".into(), g.to_string()]);
        }
    }
    out.extend(c.out);
    Ok(out)
}

/// A positive count.
fn count(flag: &str, v: &str) -> Result<u64, String> {
    v.parse()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("{flag} {v}: give a positive whole number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn an_sprt_maps_first_engine_to_dev() {
        let a = translate(&words(
            "-engine cmd=./new name=new option.Hash=16 -engine cmd=./old name=old \
             -each tc=8+0.08 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -rounds 500 -repeat \
             -concurrency 2 -pgnout file=out.pgn -openings file=b.epd format=epd order=random",
        ))
        .unwrap();
        assert_eq!(
            a.join(" "),
            "sprt --dev-cmd ./new --dev-name new --dev-option Hash=16 --base-cmd ./old \
             --base-name old --max-games 1000 --tc 8+0.08 --elo0 0 --elo1 5 --alpha 0.05 \
             --beta 0.05 --concurrency 2 --pgn out.pgn --openings b.epd --order random"
        );
    }

    #[test]
    fn pgnout_keys_that_name_what_arena_writes_are_accepted() {
        let a = translate(&words(
            "-engine cmd=a -engine cmd=b -each nodes=1000 -rounds 2 \
             -pgnout file=out.pgn notation=san nodes=false seldepth=false nps=false min=false",
        ))
        .unwrap();
        assert!(a.join(" ").ends_with("--pgn out.pgn"), "{a:?}");
    }

    #[test]
    fn a_gauntlet_keeps_engine_words_and_splits_args() {
        let a = translate(&words(
            "-tournament gauntlet -engine cmd=a -engine cmd=b args=-x_-y -rounds 3 \
             -each nodes=1000 st=0.5 -resign movecount=3 score=600 twosided=true --state s.json",
        ))
        .unwrap();
        assert_eq!(
            a.join(" "),
            "gauntlet --engine cmd=a --engine cmd=b arg=-x_-y --games 3 --nodes 1000 \
             --movetime 500 --resign movecount=3,score=600,twosided=true --state s.json"
        );
    }

    #[test]
    fn unknown_and_unsupported_words_are_named() {
        for (line, needle) in [
            ("-engine cmd=a -engine cmd=b -config file=x.json", "-config"),
            ("-engine cmd=a tc=1+0 -engine cmd=b", "give it in -each"),
            ("-engine cmd=a -engine cmd=b -frobnicate", "-frobnicate"),
            (
                "-engine cmd=a -engine cmd=b -sprt model=bayesian",
                "model=bayesian",
            ),
            ("-openings file=b.epd format=pgn", "extension"),
            ("match -sprt elo0=0 elo1=5", "arena sprt"),
            (
                "-engine cmd=a -engine cmd=b -engine cmd=c -sprt",
                "two engines",
            ),
            ("-rounds zero", "-rounds"),
            ("-pgnout file=x.pgn notation=lan", "notation=lan"),
            ("-pgnout file=x.pgn nodes=true", "nodes=true"),
            ("-pgnout notation=san", "needs file="),
        ] {
            let e = translate(&words(line)).unwrap_err();
            assert!(e.contains(needle), "{line}: {e}");
        }
    }

    #[test]
    fn only_fastchess_words_trigger_it() {
        assert!(is_fastchess(&words("-engine cmd=a")));
        assert!(!is_fastchess(&words("sprt --dev-cmd a --base-cmd b -h")));
    }
}
