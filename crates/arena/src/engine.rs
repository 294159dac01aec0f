//! One UCI engine process: spawned in its own process group, read by a thread that feeds a
//! channel so that every wait has a deadline, driven through the handshake, options, `go` and
//! `stop`, and killed (its whole process group) on drop.
//!
//! A crash shows as the end of the engine's output; a hang as a missed deadline. After either,
//! [`Engine::is_alive`] is false (a hung engine is killed) and [`Engine::restart`] brings up a
//! fresh process with the same command and options.

mod spawn;

use spawn::spawn_tied;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use crossbeam::channel::{self, Receiver, RecvTimeoutError, TryRecvError};
use serde::{Deserialize, Serialize};

use crate::uci::{self, EngineLine, Info, OptionValueError, Score, UciOption};

/// How to run one engine: a display name, the command with its arguments and working
/// directory, and the UCI options to set after the handshake (`(name, value)`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct EngineConfig {
    /// Name used in results and PGN (no spaces, like fastchess output expects).
    pub name: String,
    /// The program to run: a name looked up in `PATH` or a path. Give an absolute path when
    /// `dir` is set (std leaves a relative one with `current_dir` platform-specific).
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory; `None` is the runner's own.
    pub dir: Option<PathBuf>,
    /// UCI options, set in this order after `uciok`; one the engine does not declare is an
    /// error.
    pub options: Vec<(String, String)>,
    /// Options given to every engine of a run (`--option`), set before `options` where the
    /// engine declares them. One it lacks is skipped with a warning on stderr, as fastchess and
    /// cutechess do for `-each`: a gauntlet's engines differ in what they offer (Toga II has no
    /// `Threads`). Left out of the serialized config when empty, so the fingerprint of a run
    /// without any is what it was before the field existed (its state file still resumes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_options: Vec<(String, String)>,
    /// The CPUs the process is pinned to (`--affinity`); `None` leaves it where the kernel
    /// puts it. Not part of the serialized config: where a run's engines ran does not change
    /// what the run is, so a state file resumes with or without the flag.
    #[serde(skip)]
    pub cpus: Option<Vec<usize>>,
}

/// Names a shared `--option` that an engine lacks, once per engine name and option in the whole
/// run (every seat and restart of that engine starts the same way).
fn warn_skipped_option(engine: &str, option: &str, value: &str) {
    static WARNED: Mutex<BTreeSet<(String, String)>> = Mutex::new(BTreeSet::new());
    let mut warned = WARNED.lock().unwrap_or_else(|e| e.into_inner());
    if warned.insert((engine.to_string(), option.to_ascii_lowercase())) {
        eprintln!(
            "Warning: engine {engine} has no UCI option \"{option}\"; --option {option}={value} is skipped for it"
        );
    }
}

/// How long to wait for the engine at each step that is not a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// From `uci` to `uciok`.
    pub handshake: Duration,
    /// From `isready` to `readyok`.
    pub ready: Duration,
    /// From `quit` until the process must have exited (then it is killed).
    pub quit_grace: Duration,
}

impl Default for Timeouts {
    /// 10 s for the handshake and `isready` (fastchess waits as long), 1 s to exit on `quit`.
    fn default() -> Self {
        Timeouts {
            handshake: Duration::from_secs(10),
            ready: Duration::from_secs(10),
            quit_grace: Duration::from_secs(1),
        }
    }
}

/// Everything that can go wrong talking to an engine outside a search.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The process could not be spawned.
    #[error("engine {name}: cannot start \"{cmd}\": {source}")]
    Spawn {
        /// Engine name.
        name: String,
        /// The command.
        cmd: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The engine did not answer in time.
    #[error("engine {name}: no \"{expected}\" within {ms} ms")]
    Timeout {
        /// Engine name.
        name: String,
        /// What was awaited (`uciok`, `readyok`, `bestmove`).
        expected: &'static str,
        /// The limit.
        ms: u128,
    },
    /// The engine's output ended (it exited or crashed) or its input is closed.
    #[error("engine {name}: disconnected (the process exited or closed its pipes)")]
    Disconnected {
        /// Engine name.
        name: String,
    },
    /// A user option the engine does not declare.
    #[error("engine {name}: no such UCI option \"{option}\"")]
    UnknownOption {
        /// Engine name.
        name: String,
        /// The option asked for.
        option: String,
    },
    /// A user option value the engine would not accept.
    #[error("engine {name}: {source}")]
    OptionValue {
        /// Engine name.
        name: String,
        /// What is wrong with it.
        #[source]
        source: OptionValueError,
    },
}

/// What the reader thread passes on: a line with the instant it was read, or the end.
enum Event {
    Line(Instant, String),
    Eof,
}

/// The last search information an engine gave during one search (main line only).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchInfo {
    /// Last reported score.
    pub score: Option<Score>,
    /// Depth of the line that carried the last score.
    pub depth: Option<u32>,
    /// Its selective depth.
    pub seldepth: Option<u32>,
    /// Last reported node count.
    pub nodes: Option<u64>,
    /// Last non-empty principal variation.
    pub pv: Vec<String>,
}

impl SearchInfo {
    fn update(&mut self, info: &Info) {
        if info.multipv.is_some_and(|m| m != 1) {
            return;
        }
        if let Some(s) = info.score {
            self.score = Some(s);
            self.depth = info.depth.or(self.depth);
            self.seldepth = info.seldepth.or(self.seldepth);
        }
        if info.nodes.is_some() {
            self.nodes = info.nodes;
        }
        if !info.pv.is_empty() {
            self.pv = info.pv.clone();
        }
    }
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchEnd {
    /// `bestmove` arrived; `mv` is `None` for `(none)`/`0000`/nothing.
    BestMove {
        /// The move token as sent (unchecked).
        mv: Option<String>,
    },
    /// No `bestmove` before the deadline (the engine is still searching or hung).
    Timeout,
    /// The engine's output ended: it crashed or exited.
    Disconnected,
    /// The stop flag was raised.
    Interrupted,
}

/// The result of one `go`: how it ended, the time from sending `go` to reading the answer,
/// and the last info seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchReport {
    /// How it ended.
    pub end: SearchEnd,
    /// Wall time from writing `go` to reading `bestmove` (or to giving up).
    pub elapsed: Duration,
    /// The last main-line info.
    pub info: SearchInfo,
}

/// A running UCI engine. `Send`: a worker thread may own it.
pub struct Engine {
    config: EngineConfig,
    timeouts: Timeouts,
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    eof: bool,
    id_name: Option<String>,
    id_author: Option<String>,
    options: Vec<UciOption>,
}

/// `t + d`, capped at a year ahead so that no configured limit can overflow an `Instant`.
fn after(t: Instant, d: Duration) -> Instant {
    t.checked_add(d.min(Duration::from_secs(365 * 86_400)))
        .unwrap_or(t)
}

/// How often a wait looks at the stop flag.
const POLL: Duration = Duration::from_millis(20);

impl Engine {
    /// Starts the engine with default timeouts: spawn, `uci`/`uciok`, options, `isready`.
    pub fn start(config: EngineConfig) -> Result<Engine, EngineError> {
        Engine::start_with(config, Timeouts::default())
    }

    /// Starts the engine with the given timeouts. A missing `uciok`, an unknown option or a
    /// value out of range is an error naming it; the process is killed.
    pub fn start_with(config: EngineConfig, timeouts: Timeouts) -> Result<Engine, EngineError> {
        let (_tx, rx) = channel::unbounded();
        let mut engine = Engine {
            config,
            timeouts,
            child: None,
            stdin: None,
            rx,
            eof: true,
            id_name: None,
            id_author: None,
            options: Vec::new(),
        };
        engine.launch()?;
        Ok(engine)
    }

    /// Kills the current process (if any) and starts a new one with the same command and
    /// options, handshake included.
    pub fn restart(&mut self) -> Result<(), EngineError> {
        self.kill();
        self.launch()
    }

    /// Restarts the engine if it is not alive; does nothing otherwise.
    pub fn ensure_alive(&mut self) -> Result<(), EngineError> {
        if self.is_alive() {
            Ok(())
        } else {
            self.restart()
        }
    }

    fn launch(&mut self) -> Result<(), EngineError> {
        use std::os::unix::process::CommandExt;
        let mut cmd = Command::new(&self.config.cmd);
        cmd.args(&self.config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0);
        if let Some(dir) = &self.config.dir {
            cmd.current_dir(dir);
        }
        #[cfg(target_os = "linux")]
        if let Some(cpus) = &self.config.cpus {
            let set = crate::affinity::cpu_set(cpus).ok_or_else(|| EngineError::Spawn {
                name: self.config.name.clone(),
                cmd: self.config.cmd.clone(),
                source: std::io::Error::other(format!(
                    "CPU list {} is beyond what this system can address",
                    crate::affinity::list(cpus)
                )),
            })?;
            // SAFETY: the closure runs in the forked child before exec and makes one system
            // call (sched_setaffinity), which is async-signal-safe.
            unsafe {
                cmd.pre_exec(move || crate::affinity::pin_self(&set));
            }
        }
        let mut child = spawn_tied(cmd).map_err(|source| EngineError::Spawn {
            name: self.config.name.clone(),
            cmd: self.config.cmd.clone(),
            source,
        })?;
        let stdout = child.stdout.take();
        self.stdin = child.stdin.take();
        self.child = Some(child);
        let (tx, rx) = channel::unbounded();
        self.rx = rx;
        self.eof = false;
        if let Some(stdout) = stdout {
            let spawned = thread::Builder::new()
                .name(format!("uci-{}", self.config.name))
                .spawn(move || {
                    let mut reader = BufReader::new(stdout);
                    let mut buf = Vec::new();
                    loop {
                        buf.clear();
                        match reader.read_until(b'\n', &mut buf) {
                            Ok(0) | Err(_) => break,
                            Ok(_) => {
                                let line = String::from_utf8_lossy(&buf);
                                let line = line.trim_end_matches(['\n', '\r']).to_string();
                                if tx.send(Event::Line(Instant::now(), line)).is_err() {
                                    return;
                                }
                            }
                        }
                    }
                    let _ = tx.send(Event::Eof);
                });
            if spawned.is_err() {
                self.kill();
                return Err(self.disconnected());
            }
        }
        let result = self.handshake();
        if result.is_err() {
            self.kill();
        }
        result
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        self.send("uci")?;
        let deadline = after(Instant::now(), self.timeouts.handshake);
        self.options.clear();
        loop {
            match self.next_line(deadline)? {
                Some(EngineLine::Id { name, author }) => {
                    if name.is_some() {
                        self.id_name = name;
                    }
                    if author.is_some() {
                        self.id_author = author;
                    }
                }
                Some(EngineLine::Option(o)) => self.options.push(o),
                Some(EngineLine::UciOk) => break,
                Some(_) => {}
                None => return Err(self.timeout("uciok", self.timeouts.handshake)),
            }
        }
        let mut shared = Vec::new();
        for (name, value) in &self.config.shared_options {
            if self.find_option(name).is_some() {
                shared.push((name.clone(), value.clone()));
            } else {
                warn_skipped_option(&self.config.name, name, value);
            }
        }
        let mut resolved = self.check_options(&shared)?;
        resolved.extend(self.check_options(&self.config.options)?);
        for (name, value) in resolved {
            self.send(&uci::setoption_command(&name, &value))?;
        }
        self.wait_ready(self.timeouts.ready)
    }

    /// Checks `(name, value)` pairs against the options the engine declared (names compared
    /// without regard to case, as UCI asks) and returns them in the engine's spelling.
    pub fn check_options(
        &self,
        options: &[(String, String)],
    ) -> Result<Vec<(String, String)>, EngineError> {
        options
            .iter()
            .map(|(name, value)| {
                let o = self
                    .find_option(name)
                    .ok_or_else(|| EngineError::UnknownOption {
                        name: self.config.name.clone(),
                        option: name.clone(),
                    })?;
                let value = o
                    .check_value(value)
                    .map_err(|source| EngineError::OptionValue {
                        name: self.config.name.clone(),
                        source,
                    })?;
                Ok((o.name.clone(), value))
            })
            .collect()
    }

    /// The declared option with this name (case-insensitive).
    pub fn find_option(&self, name: &str) -> Option<&UciOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Checks and sets one option now (it is not remembered for restarts; put it in the
    /// config for that).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let resolved = self.check_options(&[(name.to_string(), value.to_string())])?;
        for (n, v) in resolved {
            self.send(&uci::setoption_command(&n, &v))?;
        }
        Ok(())
    }

    /// The config this engine was started with.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The configured display name.
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// `id name` from the handshake.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// `id author` from the handshake.
    pub fn id_author(&self) -> Option<&str> {
        self.id_author.as_deref()
    }

    /// The process id (also its process group id) while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// The options the engine declared in its last handshake.
    pub fn options(&self) -> &[UciOption] {
        &self.options
    }

    /// Whether the process is running and its output has not ended.
    pub fn is_alive(&mut self) -> bool {
        if self.eof || self.stdin.is_none() {
            return false;
        }
        matches!(self.child.as_mut().map(|c| c.try_wait()), Some(Ok(None)))
    }

    /// Writes one command line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let ok = match self.stdin.as_mut() {
            Some(stdin) => {
                let mut bytes = Vec::with_capacity(line.len() + 1);
                bytes.extend_from_slice(line.as_bytes());
                bytes.push(b'\n');
                stdin.write_all(&bytes).and_then(|_| stdin.flush()).is_ok()
            }
            None => false,
        };
        if ok {
            Ok(())
        } else {
            self.stdin = None;
            Err(self.disconnected())
        }
    }

    /// Sends `isready` and waits for `readyok`, discarding what comes before it.
    pub fn wait_ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = after(Instant::now(), timeout);
        loop {
            match self.next_line(deadline)? {
                Some(EngineLine::ReadyOk) => return Ok(()),
                Some(_) => {}
                None => return Err(self.timeout("readyok", timeout)),
            }
        }
    }

    /// `ucinewgame` then `isready`, with the configured timeout.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.wait_ready(self.timeouts.ready)
    }

    /// The configured timeouts.
    pub fn timeouts(&self) -> Timeouts {
        self.timeouts
    }

    /// Sends `position` and `go`, then waits for `bestmove` until `deadline` after `go`,
    /// keeping the last main-line info. Lines left over from before are discarded first.
    /// The stop flag is looked at every 20 ms.
    pub fn search(
        &mut self,
        position: &str,
        go: &str,
        deadline: Duration,
        stop: &AtomicBool,
    ) -> SearchReport {
        let mut info = SearchInfo::default();
        loop {
            match self.rx.try_recv() {
                Ok(Event::Line(..)) => {}
                Ok(Event::Eof) | Err(TryRecvError::Disconnected) => {
                    self.eof = true;
                    break;
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        let report = |end, elapsed, info| SearchReport { end, elapsed, info };
        // One write for both lines: the engine wakes once, and the clock starts as the command
        // leaves (a wake-up that preempts this thread is the engine's thinking time, not ours).
        let start = Instant::now();
        if self.eof || self.send(&format!("{position}\n{go}")).is_err() {
            return report(SearchEnd::Disconnected, Duration::ZERO, info);
        }
        let hard = after(start, deadline);
        loop {
            if stop.load(Ordering::Relaxed) {
                return report(SearchEnd::Interrupted, start.elapsed(), info);
            }
            let now = Instant::now();
            if now >= hard {
                return report(SearchEnd::Timeout, now - start, info);
            }
            match self.rx.recv_timeout((hard - now).min(POLL)) {
                Ok(Event::Line(at, line)) => match uci::parse_line(&line) {
                    EngineLine::Info(i) => info.update(&i),
                    EngineLine::BestMove { mv, .. } => {
                        let elapsed = at.saturating_duration_since(start);
                        return report(SearchEnd::BestMove { mv }, elapsed, info);
                    }
                    _ => {}
                },
                Err(RecvTimeoutError::Timeout) => {}
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.eof = true;
                    return report(SearchEnd::Disconnected, start.elapsed(), info);
                }
            }
        }
    }

    /// Ends a search that ran past its deadline: sends `stop` and waits up to `wait` for the
    /// `bestmove`; without one, asks `isready` (as long again) to tell a hung-but-responsive
    /// engine from a dead one. Unless the bestmove came, the process group is killed.
    pub fn stop_search(&mut self, wait: Duration) -> StopAnswer {
        if self.send("stop").is_ok() {
            let deadline = after(Instant::now(), wait);
            loop {
                match self.next_line(deadline) {
                    Ok(Some(EngineLine::BestMove { .. })) => return StopAnswer::BestMove,
                    Ok(Some(_)) => {}
                    Ok(None) | Err(_) => break,
                }
            }
            if !self.eof && self.send("isready").is_ok() {
                let deadline = after(Instant::now(), wait);
                loop {
                    match self.next_line(deadline) {
                        Ok(Some(EngineLine::ReadyOk)) => {
                            self.kill();
                            return StopAnswer::ReadyOnly;
                        }
                        Ok(Some(_)) => {}
                        Ok(None) | Err(_) => break,
                    }
                }
            }
        }
        self.kill();
        StopAnswer::Silent
    }

    /// The next parsed line before `deadline`: `Ok(None)` on timeout, an error at the end of
    /// the output.
    fn next_line(&mut self, deadline: Instant) -> Result<Option<EngineLine>, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Event::Line(_, line)) => Ok(Some(uci::parse_line(&line))),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Err(self.disconnected())
            }
        }
    }

    /// Sends `quit`, gives the process the grace period to exit, then kills its group.
    pub fn quit(&mut self) {
        if self.child.is_some() && self.send("quit").is_ok() {
            let deadline = after(Instant::now(), self.timeouts.quit_grace);
            while Instant::now() < deadline {
                match self.child.as_mut().map(|c| c.try_wait()) {
                    Some(Ok(None)) => thread::sleep(Duration::from_millis(5)),
                    _ => break,
                }
            }
        }
        self.kill();
    }

    /// Kills the engine's whole process group and reaps the process.
    pub fn kill(&mut self) {
        self.stdin = None;
        self.eof = true;
        if let Some(mut child) = self.child.take() {
            // The group first, while the unreaped leader still holds its id (so the id cannot
            // have been reused), then the leader itself in case `kill` is missing.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn disconnected(&self) -> EngineError {
        EngineError::Disconnected {
            name: self.config.name.clone(),
        }
    }

    fn timeout(&self, expected: &'static str, limit: Duration) -> EngineError {
        EngineError::Timeout {
            name: self.config.name.clone(),
            expected,
            ms: limit.as_millis(),
        }
    }
}

impl Drop for Engine {
    /// `quit`, a grace period, then the process group is killed.
    fn drop(&mut self) {
        self.quit();
    }
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("name", &self.config.name)
            .field("cmd", &self.config.cmd)
            .field("pid", &self.child.as_ref().map(Child::id))
            .finish()
    }
}

/// How an engine answered `stop` after its deadline passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopAnswer {
    /// It sent its `bestmove`.
    BestMove,
    /// No `bestmove`, but it answered `isready`: alive, still thinking (killed since).
    ReadyOnly,
    /// Nothing: hung or gone (killed).
    Silent,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_is_send() {
        fn assert_send<T: Send>() {}
        assert_send::<Engine>();
        assert_send::<EngineError>();
    }
}
