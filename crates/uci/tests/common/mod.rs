//! Drives the real `clio` binary over pipes. Every read has a deadline (a reader thread feeds a
//! channel), so a test fails with the transcript instead of hanging.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess, Move};

/// Generous bound for answers that should come at once (never a timing assertion).
pub const QUICK: Duration = Duration::from_secs(5);

/// Prints why a test that needs a missing tool is skipped, or fails it under CI (`CI=true`), so
/// a missing install step is never green.
pub fn skip(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true and the test cannot run: {why}");
    }
    println!("skipped: {why}");
}

/// Runs `python3` with `args`: its stdout when it succeeded; `None` after a skip (python3
/// missing, or the script's exit 77 for a missing module, its stdout saying which). A failure
/// fails the test with both outputs.
pub fn python(args: &[&str]) -> Option<String> {
    let out = match std::process::Command::new("python3").args(args).output() {
        Ok(out) => out,
        Err(e) => {
            skip(&format!("python3 could not be started ({e})"));
            return None;
        }
    };
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.code() == Some(77) {
        skip(&text);
        return None;
    }
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "python3 {args:?} failed:\n{text}\n{err}"
    );
    Some(text)
}

/// The engine binary under test.
pub fn clio_path() -> &'static str {
    env!("CARGO_BIN_EXE_clio")
}

/// A running `clio` in UCI mode.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts `clio` with piped stdin/stdout.
    pub fn start() -> Engine {
        Engine::start_command(&mut Command::new(clio_path()))
    }

    /// Starts `command` (one that runs `clio`, e.g. under a shell that sets limits) with
    /// piped stdin/stdout.
    pub fn start_command(command: &mut Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("clio starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// Starts `clio` and completes the `uci`/`isready` handshake.
    pub fn ready() -> Engine {
        let mut e = Engine::start();
        e.send("uci");
        e.read_until(|l| l == "uciok", QUICK);
        e.sync();
        e
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!(">> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("clio reads its stdin");
        stdin.flush().expect("flush");
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Next line within `timeout`, or `None`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("<< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that satisfies `done`; panics with the transcript
    /// if it does not come within `timeout`.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let finished = done(&line);
                    out.push(line);
                    if finished {
                        return out;
                    }
                }
                None => panic!(
                    "no expected line within {timeout:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// `isready` → lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok", QUICK);
        lines.pop();
        lines
    }

    /// Waits for `bestmove` and returns its move text and every line before it.
    pub fn bestmove(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let mut lines = self.read_until(|l| l.starts_with("bestmove"), timeout);
        let last = lines.pop().unwrap_or_default();
        let mv = last
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        (mv, lines)
    }

    /// The FEN `d` prints (reading through its last line, `Key: …`).
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.read_until(|l| l.starts_with("Key: "), QUICK);
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .unwrap_or_default()
            .to_string()
    }

    /// Sends `quit` and waits for the process to end; returns whether it exited successfully.
    pub fn quit(mut self) -> bool {
        self.send("quit");
        self.wait_exit()
    }

    /// Waits (bounded) for the process to end.
    pub fn wait_exit(&mut self) -> bool {
        let deadline = Instant::now() + QUICK;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Parses a FEN into a shakmaty position.
pub fn chess(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("test FEN parses")
        .into_position(CastlingMode::Standard)
        .expect("test FEN is legal")
}

/// The legal move `text` denotes in `pos`, if any (shakmaty is the judge).
pub fn legal(pos: &Chess, text: &str) -> Option<Move> {
    let uci: UciMove = text.parse().ok()?;
    uci.to_move(pos).ok()
}

/// The positions and published perft counts of crates/board/data/perft.epd.
pub fn perft_suite() -> Vec<(String, Vec<u64>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../board/data/perft.epd");
    let text = std::fs::read_to_string(path).expect("perft.epd readable");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap_or_default().trim().to_string();
            let counts = parts
                .filter_map(|p| p.split_whitespace().nth(1)?.parse().ok())
                .collect();
            (fen, counts)
        })
        .collect()
}
