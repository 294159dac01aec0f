//! The input layer: one line of GUI text in, one `Command` (or a refusal) out.
//!
//! Parsing is vampirc-uci 0.11.1's, behind a thin guard of ours. Measured gaps of that crate and
//! what the guard does about each:
//! - runs of spaces make it drop every move of `position … moves …`: whitespace is collapsed;
//! - a FEN without the halfmove and fullmove fields is unknown to it: `0 1` is appended;
//! - `go depth 300`, `go movestogo 300` and `go mate 300` panic (u8 fields): clamped to 255;
//! - numbers of 13 digits or more are cut to their first 12 digits or make the line unknown:
//!   clamped to 999 999 999 999 (31 years, or 10^12 nodes) before it sees them;
//! - `position startpos moves e2e4 0000 e7e5` parses with everything from `0000` on dropped, as
//!   is anything after a token that is not a move: such a command is refused whole, naming the
//!   token;
//! - `go ponder wtime …` loses the ponder flag, and unknown `go` tokens are dropped silently:
//!   the flag is kept here, unknown tokens are named in a note;
//! - `setoption name Hash value` (no value) is refused here, naming the option;
//! - `go perft N` and `d` are not UCI: they never reach it.
//!
//! As a last defence the call into vampirc-uci runs under `catch_unwind`, so even a gap not
//! listed above becomes a refusal, never a crash.

use std::panic::{catch_unwind, AssertUnwindSafe};

use vampirc_uci::{UciMessage, UciTimeControl};

/// Largest number handed to vampirc-uci: its grammar reads at most 12 digits.
const MAX_NUMBER: u64 = 999_999_999_999;
/// Largest value of vampirc-uci's u8 fields (depth, movestogo, mate).
const MAX_SMALL: u64 = 255;

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
    let Some(&head) = tokens.first() else {
        return Input::Empty;
    };
    let args = &tokens[1..];
    let result = match head {
        "uci" | "isready" | "ucinewgame" | "stop" | "ponderhit" | "quit" => {
            simple(head, args).and_then(|()| via_vampirc(head, &tokens))
        }
        "debug" => simple_debug(args).and_then(|()| via_vampirc(head, &tokens)),
        "d" => simple(head, args).map(|()| (Command::Display, Vec::new())),
        "setoption" => setoption(&tokens),
        "position" => position(&tokens),
        "go" if args.first() == Some(&"perft") => go_perft(args),
        "go" => go(args),
        _ => Err(format!("unknown command \"{}\"", line.trim())),
    };
    match result {
        Ok((command, notes)) => Input::Command(command, notes),
        Err(message) => Input::Refused(message),
    }
}

/// A command that takes no arguments.
fn simple(head: &str, args: &[&str]) -> Result<(), String> {
    match args.first() {
        None => Ok(()),
        Some(extra) => Err(format!("unexpected \"{extra}\" after {head}")),
    }
}

fn simple_debug(args: &[&str]) -> Result<(), String> {
    match args {
        ["on"] | ["off"] => Ok(()),
        _ => Err(format!(
            "debug expects on or off, got \"{}\"",
            args.join(" ")
        )),
    }
}

/// Hands a checked, whitespace-normalised line to vampirc-uci, under `catch_unwind`.
fn vampirc(line: &str) -> Result<UciMessage, String> {
    let text = line.to_string();
    match catch_unwind(AssertUnwindSafe(|| vampirc_uci::parse_one(&text))) {
        Ok(UciMessage::Unknown(..)) => Err(format!("could not parse \"{line}\"")),
        Ok(message) => Ok(message),
        Err(_) => Err(format!("could not parse \"{line}\" (parser failure)")),
    }
}

/// Parses a checked line with vampirc-uci and maps the argument-free commands.
fn via_vampirc(head: &str, tokens: &[&str]) -> Result<(Command, Vec<String>), String> {
    let command = match vampirc(&tokens.join(" "))? {
        UciMessage::Uci => Command::Uci,
        UciMessage::IsReady => Command::IsReady,
        UciMessage::UciNewGame => Command::NewGame,
        UciMessage::Stop => Command::Stop,
        UciMessage::PonderHit => Command::PonderHit,
        UciMessage::Quit => Command::Quit,
        UciMessage::Debug(on) => Command::Debug(on),
        other => return Err(format!("{head}: unexpected parse {other:?}")),
    };
    Ok((command, Vec::new()))
}

fn setoption(tokens: &[&str]) -> Result<(Command, Vec<String>), String> {
    if tokens.get(1) != Some(&"name") || tokens.len() < 3 {
        return Err("setoption expects: setoption name <name> [value <value>]".to_string());
    }
    let value_at = tokens.iter().position(|t| t.eq_ignore_ascii_case("value"));
    if value_at == Some(2) {
        return Err("setoption: missing option name".to_string());
    }
    if let Some(at) = value_at {
        if at + 1 == tokens.len() {
            return Err(format!(
                "setoption name {}: missing value",
                tokens[2..at].join(" ")
            ));
        }
    }
    match vampirc(&tokens.join(" "))? {
        UciMessage::SetOption { name, value } => Ok((
            Command::SetOption {
                name,
                value: value.map(|v| v.trim().to_string()),
            },
            Vec::new(),
        )),
        other => Err(format!("setoption: unexpected parse {other:?}")),
    }
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

fn position(tokens: &[&str]) -> Result<(Command, Vec<String>), String> {
    let moves_at = tokens.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(at) => (&tokens[1..at], &tokens[at + 1..]),
        None => (&tokens[1..], &[][..]),
    };
    if let Some(bad) = moves.iter().find(|m| !is_move_shape(m)) {
        return Err(if *bad == "0000" {
            "position: null move \"0000\" in the move list; command ignored".to_string()
        } else {
            format!("position: \"{bad}\" is not a move; command ignored")
        });
    }
    let mut notes = Vec::new();
    let mut line: Vec<String> = vec!["position".to_string()];
    match setup {
        ["startpos"] => line.push("startpos".to_string()),
        ["fen", fields @ ..] => {
            // The FEN itself is checked by the board crate, whose errors name the field; here we
            // only refuse what cannot be a FEN at all and fill in missing move counters.
            let fields: Vec<&str> = fields.to_vec();
            match fields.len() {
                4 => {
                    line.push("fen".to_string());
                    line.extend(fields.iter().map(|s| s.to_string()));
                    line.extend(["0".to_string(), "1".to_string()]);
                }
                6 => {
                    line.push("fen".to_string());
                    line.extend(fields.iter().map(|s| s.to_string()));
                }
                n => {
                    return Err(format!(
                        "position fen: expected 4 or 6 FEN fields, got {n} (\"{}\")",
                        fields.join(" ")
                    ))
                }
            }
        }
        [] => return Err("position: expected startpos or fen".to_string()),
        other => {
            return Err(format!(
                "position: expected startpos or fen, got \"{}\"",
                other.join(" ")
            ))
        }
    }
    let start = match &line[1][..] {
        "startpos" => Start::StartPos,
        _ => {
            let fen = line[2..].join(" ");
            // The board crate judges the FEN (its errors name the field); vampirc's grammar is
            // narrower (e.g. counters of 5+ digits), so it sees a placeholder FEN of the same
            // shape when this one would be beyond it.
            if let Err(e) = clio_board::parse_fen(&fen) {
                return Err(format!("position: {e}"));
            }
            Start::Fen(fen)
        }
    };
    if moves_at.is_some() {
        line.push("moves".to_string());
        line.extend(moves.iter().map(|s| s.to_string()));
    }
    let direct = line.join(" ");
    let (start_ok, parsed) = read_position(&direct)?;
    let parsed = match (&start, start_ok) {
        (Start::StartPos, Start::StartPos) => parsed,
        (Start::Fen(ours), Start::Fen(theirs)) if *ours == theirs => parsed,
        (Start::Fen(_), _) => {
            // vampirc's FEN grammar is narrower than the board crate's (counters of 5+
            // digits, for one) and may cut the FEN short: the move list is then read from a
            // placeholder line of the same shape, and the FEN from our tokens.
            notes.push(
                "position fen: FEN beyond vampirc-uci's grammar, read by the board crate"
                    .to_string(),
            );
            let mut placeholder = vec!["position", "startpos"];
            if moves_at.is_some() {
                placeholder.push("moves");
                placeholder.extend(moves.iter().copied());
            }
            read_position(&placeholder.join(" "))?.1
        }
        (Start::StartPos, Start::Fen(_)) => {
            return Err("position: startpos misread as a FEN; command ignored".to_string())
        }
    };
    if parsed != moves {
        return Err(format!(
            "position: move list misread (\"{}\" read as \"{}\"); command ignored",
            moves.join(" "),
            parsed.join(" ")
        ));
    }
    Ok((
        Command::Position {
            start,
            moves: parsed,
        },
        notes,
    ))
}

/// vampirc's reading of a `position` line: the start and the moves as lowercase UCI text.
fn read_position(line: &str) -> Result<(Start, Vec<String>), String> {
    match vampirc(line)? {
        UciMessage::Position {
            startpos,
            fen,
            moves,
        } => {
            let start = match (startpos, fen) {
                (true, _) => Start::StartPos,
                (false, Some(fen)) => Start::Fen(fen.as_str().trim().to_string()),
                (false, None) => return Err("position: no start position read".to_string()),
            };
            let moves = moves
                .iter()
                .map(|m| m.to_string().to_ascii_lowercase())
                .collect();
            Ok((start, moves))
        }
        other => Err(format!("position: unexpected parse {other:?}")),
    }
}

fn go_perft(args: &[&str]) -> Result<(Command, Vec<String>), String> {
    match args {
        ["perft", depth] => match depth.parse::<u32>() {
            Ok(d) if (1..=20).contains(&d) => Ok((Command::Perft(d), Vec::new())),
            _ => Err(format!(
                "go perft: depth \"{depth}\" is not a number in 1..=20"
            )),
        },
        _ => Err("go perft expects one depth: go perft N".to_string()),
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
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') if signed => (true, &text[1..]),
        Some(b'+') if signed => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        notes.push(format!("go: ignored {key} \"{text}\" (not a number)"));
        return None;
    }
    if negative {
        notes.push(format!("go: {key} {text} read as 0"));
        return Some(0);
    }
    let trimmed = digits.trim_start_matches('0');
    let value = if trimmed.len() > 19 {
        u64::MAX
    } else {
        trimmed.parse::<u64>().unwrap_or(0)
    };
    if value > max {
        notes.push(format!("go: {key} {text} clamped to {max}"));
        return Some(max);
    }
    Some(value)
}

fn go(args: &[&str]) -> Result<(Command, Vec<String>), String> {
    let mut notes = Vec::new();
    let mut ours = Go::default();
    // The line vampirc sees: only tokens we have checked, numbers already clamped, no ponder.
    let mut line: Vec<String> = vec!["go".to_string()];
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        match key {
            "infinite" => {
                ours.infinite = true;
                line.push(key.to_string());
                i += 1;
            }
            "ponder" => {
                ours.ponder = true;
                i += 1;
            }
            "searchmoves" => {
                i += 1;
                while i < args.len() && is_move_shape(args[i]) {
                    ours.searchmoves.push(args[i].to_string());
                    i += 1;
                }
                if !ours.searchmoves.is_empty() {
                    line.push(key.to_string());
                    line.extend(ours.searchmoves.iter().cloned());
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" | "nodes" | "depth" | "movestogo"
            | "mate" => {
                let Some(text) = args.get(i + 1) else {
                    notes.push(format!("go: ignored {key} without a value"));
                    break;
                };
                i += 2;
                let signed = matches!(key, "wtime" | "btime" | "winc" | "binc" | "movetime");
                let max = match key {
                    "depth" | "movestogo" | "mate" => MAX_SMALL,
                    _ => MAX_NUMBER,
                };
                let Some(value) = go_number(key, text, signed, max, &mut notes) else {
                    continue;
                };
                match key {
                    "wtime" => ours.wtime = Some(value),
                    "btime" => ours.btime = Some(value),
                    "winc" => ours.winc = Some(value),
                    "binc" => ours.binc = Some(value),
                    "movetime" => ours.movetime = Some(value),
                    "nodes" => ours.nodes = Some(value),
                    "depth" => ours.depth = Some(value as u32),
                    "movestogo" => ours.movestogo = Some(value as u32),
                    _ => ours.mate = Some(value as u32),
                }
                line.push(key.to_string());
                line.push(value.to_string());
            }
            other => {
                notes.push(format!("go: ignored unknown token \"{other}\""));
                i += 1;
            }
        }
    }
    let parsed = match vampirc(&line.join(" "))? {
        UciMessage::Go {
            time_control,
            search_control,
        } => (time_control, search_control),
        other => return Err(format!("go: unexpected parse {other:?}")),
    };
    check_go(&ours, parsed)?;
    Ok((Command::Go(ours), notes))
}

/// Cross-checks vampirc's reading of the `go` line against ours; a disagreement refuses it.
fn check_go(
    ours: &Go,
    (time_control, search_control): (
        Option<UciTimeControl>,
        Option<vampirc_uci::UciSearchControl>,
    ),
) -> Result<(), String> {
    let ms = |d: Option<vampirc_uci::Duration>| d.map(|d| d.num_milliseconds().max(0) as u64);
    let theirs_depth = search_control.as_ref().and_then(|s| s.depth.map(u32::from));
    let theirs_nodes = search_control.as_ref().and_then(|s| s.nodes);
    let mut agree = theirs_depth == ours.depth && theirs_nodes == ours.nodes;
    match time_control {
        Some(UciTimeControl::Infinite) => agree &= ours.infinite,
        Some(UciTimeControl::MoveTime(d)) => agree &= ms(Some(d)) == ours.movetime,
        Some(UciTimeControl::TimeLeft {
            white_time,
            black_time,
            white_increment,
            black_increment,
            moves_to_go,
        }) => {
            agree &= ms(white_time) == ours.wtime
                && ms(black_time) == ours.btime
                && ms(white_increment) == ours.winc
                && ms(black_increment) == ours.binc
                && moves_to_go.map(u32::from) == ours.movestogo;
        }
        Some(UciTimeControl::Ponder) | None => {}
    }
    if agree {
        Ok(())
    } else {
        Err("go: limits misread by the parser; command ignored".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> (Command, Vec<String>) {
        match parse_line(line) {
            Input::Command(c, notes) => (c, notes),
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn refused(line: &str) -> String {
        match parse_line(line) {
            Input::Refused(message) => message,
            other => panic!("{line:?} should be refused, gave {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(command("uci").0, Command::Uci);
        assert_eq!(command("  isready  ").0, Command::IsReady);
        assert_eq!(command("ucinewgame").0, Command::NewGame);
        assert_eq!(command("stop").0, Command::Stop);
        assert_eq!(command("quit").0, Command::Quit);
        assert_eq!(command("ponderhit").0, Command::PonderHit);
        assert_eq!(command("debug on").0, Command::Debug(true));
        assert_eq!(command("d").0, Command::Display);
        assert_eq!(parse_line("   "), Input::Empty);
        assert!(refused("stopx").contains("stopx"));
        assert!(refused("quit now").contains("now"));
        assert!(refused("xyzzy 1 2").contains("xyzzy"));
    }

    #[test]
    fn fen_without_move_counters_is_completed() {
        let (c, _) = command("position fen 8/8/8/4k3/8/8/8/4K3 w - -");
        assert_eq!(
            c,
            Command::Position {
                start: Start::Fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1".to_string()),
                moves: vec![]
            }
        );
        let (c, _) = command("position fen 8/8/8/4k3/8/8/8/4K3 w - - moves e1e2 e5e4");
        let Command::Position { moves, .. } = c else {
            panic!()
        };
        assert_eq!(moves, ["e1e2", "e5e4"]);
    }

    #[test]
    fn fen_beyond_vampirc_counters_still_read() {
        let (c, notes) = command("position fen 8/8/8/4k3/8/8/8/4K3 w - - 12 12345 moves e1e2");
        assert_eq!(
            c,
            Command::Position {
                start: Start::Fen("8/8/8/4k3/8/8/8/4K3 w - - 12 12345".to_string()),
                moves: vec!["e1e2".to_string()]
            }
        );
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn bad_fen_names_the_field() {
        let m = refused("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1");
        assert!(m.contains("side to move"), "{m}");
        let m = refused("position fen 9/8/8/4k3/8/8/8/4K3 w - - 0 1");
        assert!(m.contains("rank 8"), "{m}");
        assert!(refused("position fen 8/8/8 w").contains("FEN fields"));
        assert!(refused("position").contains("startpos or fen"));
        assert!(refused("position somewhere").contains("somewhere"));
    }

    #[test]
    fn null_and_garbage_moves_refuse_the_whole_command() {
        assert!(refused("position startpos moves e2e4 0000 e7e5").contains("0000"));
        assert!(refused("position startpos moves e2e4 e7e5x").contains("e7e5x"));
        assert!(refused("position startpos moves e2e4 garbage").contains("garbage"));
    }

    #[test]
    fn runs_of_spaces_keep_every_move() {
        let (c, _) = command("position  startpos   moves   e2e4 \t  e7e5");
        assert_eq!(
            c,
            Command::Position {
                start: Start::StartPos,
                moves: vec!["e2e4".to_string(), "e7e5".to_string()]
            }
        );
    }

    #[test]
    fn setoption_forms() {
        assert_eq!(
            command("setoption name Move Overhead value 30").0,
            Command::SetOption {
                name: "Move Overhead".to_string(),
                value: Some("30".to_string())
            }
        );
        assert_eq!(
            command("setoption name Clear Hash").0,
            Command::SetOption {
                name: "Clear Hash".to_string(),
                value: None
            }
        );
        assert!(refused("setoption name Hash value").contains("Hash"));
        assert!(refused("setoption Hash 3").contains("setoption name"));
        // A 13-digit value reaches the option layer, which judges its range.
        assert_eq!(
            command("setoption name Hash value 1234567890123").0,
            Command::SetOption {
                name: "Hash".to_string(),
                value: Some("1234567890123".to_string())
            }
        );
    }

    #[test]
    fn go_values_vampirc_would_panic_on_are_clamped() {
        for (line, depth, movestogo) in [
            ("go depth 300", Some(255), None),
            ("go movestogo 300 wtime 1000 btime 1000", None, Some(255)),
        ] {
            let (c, notes) = command(line);
            let Command::Go(g) = c else { panic!() };
            assert_eq!((g.depth, g.movestogo), (depth, movestogo), "{line}");
            assert!(notes.iter().any(|n| n.contains("300")), "{notes:?}");
        }
        let (Command::Go(g), _) = command("go mate 999") else {
            panic!()
        };
        assert_eq!(g.mate, Some(255));
    }

    #[test]
    fn go_long_numbers_are_clamped_not_cut() {
        let (Command::Go(g), notes) = command("go nodes 1234567890123") else {
            panic!()
        };
        assert_eq!(g.nodes, Some(MAX_NUMBER));
        assert_eq!(notes.len(), 1);
        let (Command::Go(g), _) =
            command("go wtime 99999999999999999999999 btime 1000 winc 10 binc 10")
        else {
            panic!()
        };
        assert_eq!(
            (g.wtime, g.btime, g.winc),
            (Some(MAX_NUMBER), Some(1000), Some(10))
        );
    }

    #[test]
    fn go_ponder_keeps_the_flag_and_the_clock() {
        let (Command::Go(g), notes) = command("go ponder wtime 1000 btime 2000 winc 10 binc 20")
        else {
            panic!()
        };
        assert!(g.ponder);
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.binc),
            (Some(1000), Some(2000), Some(10), Some(20))
        );
        assert!(notes.is_empty());
    }

    #[test]
    fn go_oddities_are_noted() {
        let (Command::Go(g), notes) = command("go depth 5 garbage") else {
            panic!()
        };
        assert_eq!(g.depth, Some(5));
        assert!(notes[0].contains("garbage"));
        let (Command::Go(g), notes) = command("go wtime -50 btime 100 depth x") else {
            panic!()
        };
        assert_eq!((g.wtime, g.btime, g.depth), (Some(0), Some(100), None));
        assert_eq!(notes.len(), 2);
        let (Command::Go(g), _) = command("go infinite searchmoves e2e4 d2d4") else {
            panic!()
        };
        assert!(g.infinite);
        assert_eq!(g.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!(command("go").0, Command::Go(Go::default()));
    }

    #[test]
    fn go_perft() {
        assert_eq!(command("go perft 4").0, Command::Perft(4));
        assert!(refused("go perft x").contains("\"x\""));
        assert!(refused("go perft").contains("go perft N"));
    }

    /// Random lines from a vocabulary of UCI words, numbers of every size and junk: the layer
    /// never panics, and a `go` (other than `go perft`) always yields a search, so a GUI
    /// always gets its `bestmove`.
    #[test]
    fn random_lines_never_panic_and_go_always_searches() {
        const WORDS: &[&str] = &[
            "go",
            "position",
            "startpos",
            "fen",
            "moves",
            "e2e4",
            "e7e5",
            "0000",
            "e7e8q",
            "depth",
            "300",
            "-1",
            "1234567890123",
            "99999999999999999999999",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "movetime",
            "nodes",
            "mate",
            "ponder",
            "infinite",
            "searchmoves",
            "setoption",
            "name",
            "value",
            "Hash",
            "perft",
            "x",
            "",
            "8/8/8/4k3/8/8/8/4K3",
            "w",
            "b",
            "-",
            "0",
            "1",
            "KQkq",
            "stop",
            "isready",
        ];
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: usize| {
            // xorshift64 (Marsaglia 2003).
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..20_000 {
            let len = 1 + next(9);
            let mut words: Vec<&str> = (0..len).map(|_| WORDS[next(WORDS.len())]).collect();
            if next(2) == 0 {
                words.insert(0, "go");
            }
            let line = words.join(" ");
            let parsed = parse_line(&line);
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.first() == Some(&"go") && tokens.get(1) != Some(&"perft") {
                assert!(
                    matches!(parsed, Input::Command(Command::Go(_), _)),
                    "{line:?} gave {parsed:?}"
                );
            }
        }
    }

    #[test]
    fn never_panics_on_hostile_lines() {
        let lines = [
            "go depth 99999999999999999999999999999999",
            "go movestogo 256 depth 256 mate 256",
            "position fen",
            "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
            "position startpos moves",
            "setoption name",
            "setoption name value 3",
            "register name x",
            "go searchmoves",
            "go wtime",
            "go wtime - btime +",
            "debug",
            "\u{0}\u{ff}é",
        ];
        for line in lines {
            let _ = parse_line(line);
        }
    }
}
