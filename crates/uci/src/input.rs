//! The input layer: one line of GUI text in, one `Command` (or a refusal) out.
//!
//! vampirc-uci 0.11.1 parses every UCI line once. In front of it, a small normalisation pass
//! rewrites only what that crate is known to misread (each gap has its own test below):
//! - runs of spaces or tabs make it drop every move after `moves`: tokens are joined by one space;
//! - it takes a command word as a prefix (`isreadyx` is `isready`) and drops what follows an
//!   argument-free command (`quit now`): the first token must be a whole command word, and
//!   arguments where none belong refuse the line;
//! - a FEN without the halfmove and fullmove fields is unknown to it: `0 1` is appended; a
//!   counter of more than 4 digits ends its FEN and drops the moves: clamped to 9999 (noted);
//! - it stops reading the move list at the first token that is not a move (`0000`, and
//!   `e7e5x` is read as `e7e5`): a move list with such a token is refused whole, naming it;
//! - in `go` it stops at the first token it does not know, dropping the rest (or the whole
//!   line): unknown tokens and keywords without a valid value are left out (noted);
//! - `go depth|movestogo|mate` over 255 panic (u8 fields) and numbers of 13 digits or more are
//!   cut: numbers are clamped to 255 and 999 999 999 999 (noted); negative times read as 0;
//! - `go` holds one time control, so `ponder` and `infinite` beside a clock are lost: both are
//!   taken out as flags; `movetime` beside a clock is lost: the clock is left out (noted);
//! - `setoption name X value` with nothing after `value` reads as a button: refused.
//!
//! `go perft N` and `d` are not UCI: they never reach it. As a last defence the call into
//! vampirc-uci runs under `catch_unwind`, so a gap not listed becomes a refusal, never a crash.

use std::panic::{catch_unwind, AssertUnwindSafe};

use vampirc_uci::{Duration, UciMessage, UciSearchControl, UciTimeControl};

/// Largest number handed to vampirc-uci: its grammar reads at most 12 digits.
const MAX_NUMBER: u64 = 999_999_999_999;
/// Largest value of vampirc-uci's u8 fields (depth, movestogo, mate).
const MAX_SMALL: u64 = 255;
/// Largest FEN move counter vampirc-uci reads (4 digits).
const MAX_COUNTER: u64 = 9_999;

/// Where `position` starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// `position startpos`.
    StartPos,
    /// `position fen …`, with the move counters filled in when they were left out.
    Fen(String),
}

/// The search limits of a `go` command, as given (times in milliseconds, negative clamped to 0).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    /// White's clock.
    pub wtime: Option<u64>,
    /// Black's clock.
    pub btime: Option<u64>,
    /// White's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
    /// Mate search depth in moves (searched as an ordinary search).
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: search until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Root moves to restrict the search to (UCI text).
    pub searchmoves: Vec<String>,
}

/// One command the engine acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `ucinewgame`.
    NewGame,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// Option name as given (matched case-insensitively).
        name: String,
        /// The value text, if any.
        value: Option<String>,
    },
    /// `position startpos|fen … [moves …]`.
    Position {
        /// The start position.
        start: Start,
        /// The moves after it, as UCI text, each checked to have the shape of a move.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(Go),
    /// `go perft N` (Stockfish's extension).
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: print the board (a debugging aid, as in Stockfish).
    Display,
}

/// What one input line amounts to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// An empty line: nothing to do.
    Empty,
    /// A command, with notes on anything normalised or ignored on the way (each becomes an
    /// `info string`).
    Command(Command, Vec<String>),
    /// The line was refused; the message names what was wrong.
    Refused(String),
}

/// Reads one line of GUI input. Never panics.
pub fn parse_line(line: &str) -> Input {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.is_empty() {
        return Input::Empty;
    }
    let mut notes = Vec::new();
    match read(&tokens, &mut notes) {
        Ok(command) => Input::Command(command, notes),
        Err(message) => Input::Refused(message),
    }
}

/// Normalises the line, has vampirc-uci parse it and maps its message to a `Command`.
fn read(tokens: &[&str], notes: &mut Vec<String>) -> Result<Command, String> {
    let (head, args) = (tokens[0], &tokens[1..]);
    // `ponder` and `infinite`, taken out of a `go` line before vampirc-uci sees it.
    let mut flags = Go::default();
    // Shredder-FEN castling rights (`HFhf`, Chess960), shown to vampirc-uci as `-`.
    let mut castling = None;
    let line = match head {
        "d" => return no_args(head, args).map(|()| Command::Display),
        "go" if args.first() == Some(&"perft") => return go_perft(args),
        "uci" | "isready" | "ucinewgame" | "stop" | "ponderhit" | "quit" => {
            no_args(head, args)?;
            head.to_string()
        }
        "debug" if matches!(args, ["on"] | ["off"]) => tokens.join(" "),
        "debug" => {
            let got = args.join(" ");
            return Err(format!("debug expects on or off, got \"{got}\""));
        }
        "setoption" => setoption_line(tokens)?,
        "position" => position_line(args, notes, &mut castling)?,
        "go" => go_line(args, &mut flags, notes),
        _ => return Err(format!("unknown command \"{}\"", tokens.join(" "))),
    };
    let parsed = catch_unwind(AssertUnwindSafe(|| vampirc_uci::parse_one(&line)));
    match parsed {
        Ok(UciMessage::Unknown(..)) => Err(refusal(head, &line)),
        Ok(message) => command(message, flags).map(|c| with_castling(c, castling)),
        Err(_) => Err(format!("could not parse \"{line}\" (parser failure)")),
    }
}

/// A command that takes no arguments.
fn no_args(head: &str, args: &[&str]) -> Result<(), String> {
    match args.first() {
        None => Ok(()),
        Some(extra) => Err(format!("unexpected \"{extra}\" after {head}")),
    }
}

/// Why vampirc-uci could not read a normalised line, in the user's terms.
fn refusal(head: &str, line: &str) -> String {
    match head {
        "setoption" => "setoption expects: setoption name <name> [value <value>]".to_string(),
        "position" => {
            let fen = line.strip_prefix("position fen ").unwrap_or_default();
            let fen = fen.split(" moves ").next().unwrap_or_default();
            match clio_board::parse_fen(fen) {
                Err(e) => format!("position: {e}"),
                Ok(_) => format!("position fen: \"{fen}\" is beyond vampirc-uci's FEN grammar"),
            }
        }
        _ => format!("could not parse \"{line}\""),
    }
}

/// vampirc-uci's message as a `Command`; `flags` holds what was taken out of a `go` line.
fn command(message: UciMessage, flags: Go) -> Result<Command, String> {
    Ok(match message {
        UciMessage::Uci => Command::Uci,
        UciMessage::IsReady => Command::IsReady,
        UciMessage::UciNewGame => Command::NewGame,
        UciMessage::Stop => Command::Stop,
        UciMessage::PonderHit => Command::PonderHit,
        UciMessage::Quit => Command::Quit,
        UciMessage::Debug(on) => Command::Debug(on),
        UciMessage::SetOption { name, value } => Command::SetOption {
            name,
            value: value.map(|v| v.trim().to_string()),
        },
        UciMessage::Position {
            startpos,
            fen,
            moves,
        } => Command::Position {
            start: match (startpos, fen) {
                (true, _) => Start::StartPos,
                (false, Some(fen)) => Start::Fen(fen.as_str().trim().to_string()),
                (false, None) => return Err("position: no start position read".to_string()),
            },
            moves: moves
                .iter()
                .map(|m| m.to_string().to_ascii_lowercase())
                .collect(),
        },
        UciMessage::Go {
            time_control,
            search_control,
        } => Command::Go(go(time_control, search_control, flags)),
        other => return Err(format!("unexpected message {other}")),
    })
}

/// `go` (holding the flags taken out of the line) completed from vampirc-uci's time and search
/// control.
fn go(time: Option<UciTimeControl>, search: Option<UciSearchControl>, mut go: Go) -> Go {
    let ms = |d: Duration| d.num_milliseconds().max(0) as u64;
    match time {
        Some(UciTimeControl::Infinite) => go.infinite = true,
        Some(UciTimeControl::Ponder) => go.ponder = true,
        Some(UciTimeControl::MoveTime(d)) => go.movetime = Some(ms(d)),
        Some(UciTimeControl::TimeLeft {
            white_time,
            black_time,
            white_increment,
            black_increment,
            moves_to_go,
        }) => {
            go.wtime = white_time.map(ms);
            go.btime = black_time.map(ms);
            go.winc = white_increment.map(ms);
            go.binc = black_increment.map(ms);
            go.movestogo = moves_to_go.map(u32::from);
        }
        None => {}
    }
    if let Some(s) = search {
        go.depth = s.depth.map(u32::from);
        go.mate = s.mate.map(u32::from);
        go.nodes = s.nodes;
        go.searchmoves = s.search_moves.iter().map(|m| m.to_string()).collect();
    }
    go
}

/// `setoption` as given, unless `value` ends it (which vampirc-uci would read as no value).
fn setoption_line(tokens: &[&str]) -> Result<String, String> {
    if tokens.len() > 3 && tokens[tokens.len() - 1].eq_ignore_ascii_case("value") {
        let name = tokens[2..tokens.len() - 1].join(" ");
        return Err(format!("setoption name {name}: missing value"));
    }
    Ok(tokens.join(" "))
}

/// Whether `token` has the shape of a UCI move (`e2e4`, `e7e8q`); legality is checked later.
fn is_move_shape(token: &str) -> bool {
    let b = token.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b.len() {
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && b"qrbn".contains(&b[4]),
        _ => false,
    }
}

/// Puts back the castling rights that vampirc-uci's FEN grammar cannot read (file letters, as
/// Shredder-FEN writes them for Chess960) into the FEN it returned.
fn with_castling(command: Command, castling: Option<String>) -> Command {
    match (command, castling) {
        (
            Command::Position {
                start: Start::Fen(fen),
                moves,
            },
            Some(rights),
        ) => {
            let mut fields: Vec<&str> = fen.split_whitespace().collect();
            if fields.len() > 2 {
                fields[2] = &rights;
            }
            Command::Position {
                start: Start::Fen(fields.join(" ")),
                moves,
            }
        }
        (command, _) => command,
    }
}

/// `position` with the FEN's move counters filled in or clamped; refused when the start is
/// neither `startpos` nor a FEN of 4 or 6 fields, or a listed move is not move-shaped. Castling
/// rights with file letters (Shredder-FEN) go to `castling`, and vampirc-uci sees `-`.
fn position_line(
    args: &[&str],
    notes: &mut Vec<String>,
    castling: &mut Option<String>,
) -> Result<String, String> {
    let (setup, moves) = match args.iter().position(|&t| t == "moves") {
        Some(at) => (&args[..at], &args[at + 1..]),
        None => (args, &[][..]),
    };
    if let Some(bad) = moves.iter().find(|m| !is_move_shape(m)) {
        return Err(if *bad == "0000" {
            "position: null move \"0000\" in the move list; command ignored".to_string()
        } else {
            format!("position: \"{bad}\" is not a move; command ignored")
        });
    }
    let mut line = "position".to_string();
    match setup {
        ["startpos"] => line.push_str(" startpos"),
        ["fen", fields @ ..] if fields.len() == 4 || fields.len() == 6 => {
            let mut head: Vec<&str> = fields[..4].to_vec();
            if !head[2].chars().all(|c| "KQkq-".contains(c)) {
                *castling = Some(head[2].to_string());
                head[2] = "-";
            }
            line = format!("position fen {}", head.join(" "));
            for text in [fields.get(4).unwrap_or(&"0"), fields.get(5).unwrap_or(&"1")] {
                let counter = match text.parse::<u128>() {
                    Ok(n) if n > u128::from(MAX_COUNTER) => {
                        notes.push(format!(
                            "position fen: counter {text} read as {MAX_COUNTER}"
                        ));
                        MAX_COUNTER.to_string()
                    }
                    Ok(n) => n.to_string(),
                    Err(_) => text.to_string(),
                };
                line = format!("{line} {counter}");
            }
        }
        ["fen", fields @ ..] => {
            return Err(format!(
                "position fen: expected 4 or 6 FEN fields, got {} (\"{}\")",
                fields.len(),
                fields.join(" ")
            ))
        }
        [] => return Err("position: expected startpos or fen".to_string()),
        other => {
            return Err(format!(
                "position: expected startpos or fen, got \"{}\"",
                other.join(" ")
            ))
        }
    }
    if !moves.is_empty() {
        line = format!("{line} moves {}", moves.join(" "));
    }
    Ok(line)
}

fn go_perft(args: &[&str]) -> Result<Command, String> {
    match args {
        ["perft", depth] => match depth.parse::<u32>() {
            Ok(d) if (1..=20).contains(&d) => Ok(Command::Perft(d)),
            _ => Err(format!(
                "go perft: depth \"{depth}\" is not a number in 1..=20"
            )),
        },
        _ => Err("go perft expects one depth: go perft N".to_string()),
    }
}

/// For a `go` keyword that takes a number: whether it may carry a sign (times), and the largest
/// value vampirc-uci reads for it.
fn number_key(key: &str) -> Option<(bool, u64)> {
    match key {
        "wtime" | "btime" | "winc" | "binc" | "movetime" => Some((true, MAX_NUMBER)),
        "nodes" => Some((false, MAX_NUMBER)),
        "depth" | "movestogo" | "mate" => Some((false, MAX_SMALL)),
        _ => None,
    }
}

/// A number for `go`: digits (times may carry a sign; negative becomes 0), clamped to `max`.
fn go_number(
    key: &str,
    text: &str,
    signed: bool,
    max: u64,
    notes: &mut Vec<String>,
) -> Option<u64> {
    let digits = match signed {
        true => text.strip_prefix(['+', '-']).unwrap_or(text),
        false => text,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        notes.push(format!("go: ignored {key} \"{text}\" (not a number)"));
        return None;
    }
    if digits.len() < text.len() && text.starts_with('-') {
        notes.push(format!("go: {key} {text} read as 0"));
        return Some(0);
    }
    // Only digits: the parse fails on overflow alone.
    let value = digits.parse::<u64>().unwrap_or(u64::MAX);
    if value > max {
        notes.push(format!("go: {key} {text} clamped to {max}"));
        return Some(max);
    }
    Some(value)
}

/// `go` as vampirc-uci can read it: known keywords with clamped numbers, `ponder` and `infinite`
/// taken out into `flags`, and the clock left out beside `movetime`.
fn go_line(args: &[&str], flags: &mut Go, notes: &mut Vec<String>) -> String {
    let is_keyword =
        |t: &str| number_key(t).is_some() || matches!(t, "ponder" | "infinite" | "searchmoves");
    let mut numbers: Vec<(&str, u64)> = Vec::new();
    let mut searchmoves: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        match key {
            "ponder" => flags.ponder = true,
            "infinite" => flags.infinite = true,
            "searchmoves" => {
                while i < args.len() && is_move_shape(args[i]) {
                    searchmoves.push(args[i]);
                    i += 1;
                }
            }
            _ => match (number_key(key), args.get(i).filter(|t| !is_keyword(t))) {
                (None, _) => notes.push(format!("go: ignored unknown token \"{key}\"")),
                (Some(_), None) => notes.push(format!("go: ignored {key} without a value")),
                (Some((signed, max)), Some(text)) => {
                    i += 1;
                    if let Some(value) = go_number(key, text, signed, max, notes) {
                        numbers.push((key, value));
                    }
                }
            },
        }
    }
    let clock = |k: &str| matches!(k, "wtime" | "btime" | "winc" | "binc" | "movestogo");
    if numbers.iter().any(|&(k, _)| k == "movetime") {
        let dropped: Vec<&str> = numbers
            .iter()
            .map(|&(k, _)| k)
            .filter(|k| clock(k))
            .collect();
        if !dropped.is_empty() {
            notes.push(format!("go: movetime given; ignored {}", dropped.join(" ")));
            numbers.retain(|&(k, _)| !clock(k));
        }
    }
    let mut line = "go".to_string();
    for (key, value) in numbers {
        line = format!("{line} {key} {value}");
    }
    if !searchmoves.is_empty() {
        line = format!("{line} searchmoves {}", searchmoves.join(" "));
    }
    line
}

#[cfg(test)]
mod tests;
