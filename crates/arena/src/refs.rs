//! Git refs as engines: resolve a ref to a commit, build the engine for it in its own worktree,
//! and cache the binary by commit (and build command) so a second run builds nothing.
//!
//! Two builds: Clio's own (`cargo build --release -p clio`, chosen for a repository whose
//! `crates/uci` is the `clio` package), and for any other repository a command template,
//! OpenBench's convention by default: `make -j{jobs} EXE={out}` in the worktree's root, with
//! the environment (`CC`, `CXX`, …) passed through as OpenBench's client does. `{out}` is the
//! binary's absolute path, `{jobs}` the number of CPUs.
//!
//! Layout under the cache directory (default `<repo>/target/arena-builds`): Clio's builds are
//! `<sha>/clio`; a template's are `<sha>-<hash of the command>/engine`; beside each binary its
//! `build.log`, and `src` the temporary worktree; `target/` is a cargo target directory shared
//! by these builds only, so they reuse compiled dependencies without contending with the main
//! tree's `target/` (it is `CARGO_TARGET_DIR` for template builds too).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Why a ref could not be turned into an engine binary.
#[derive(Debug, thiserror::Error)]
pub enum RefError {
    /// `git` could not be run at all.
    #[error("cannot run git in {repo}: {source}")]
    Git {
        /// The repository.
        repo: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The ref does not name a commit.
    #[error("git ref {name:?} does not name a commit in {repo}: {detail}")]
    BadRef {
        /// The ref as given.
        name: String,
        /// The repository.
        repo: PathBuf,
        /// What git said.
        detail: String,
    },
    /// Making the worktree failed.
    #[error("cannot make a worktree for {sha} in {dir}: {detail}")]
    Worktree {
        /// The commit.
        sha: String,
        /// Where it was to go.
        dir: PathBuf,
        /// What failed.
        detail: String,
    },
    /// The build failed or made no binary; `tail` holds the end of its log.
    #[error("building ref {name} ({sha}) {what}; log {log}, last lines:\n{tail}")]
    Build {
        /// The ref as given.
        name: String,
        /// The commit.
        sha: String,
        /// The command and what went wrong: "with `make …` failed: it made no binary".
        what: String,
        /// Full build log.
        log: PathBuf,
        /// The log's last lines.
        tail: String,
    },
    /// The binary built does not speak UCI.
    #[error("the engine built for ref {name} ({sha}) at {bin} does not answer `uci` with `uciok`: {detail}")]
    NotUci {
        /// The ref as given.
        name: String,
        /// The commit.
        sha: String,
        /// The binary.
        bin: PathBuf,
        /// What happened.
        detail: String,
    },
    /// A file operation in the cache failed.
    #[error("build cache {path}: {source}")]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> RefError + '_ {
    move |source| RefError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn git(repo: &Path, args: &[&str]) -> Result<std::process::Output, RefError> {
    Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|source| RefError::Git {
            repo: repo.to_path_buf(),
            source,
        })
}

/// The top directory of the git repository containing `dir`.
pub fn toplevel(dir: &Path) -> Result<PathBuf, RefError> {
    let out = git(dir, &["rev-parse", "--show-toplevel"])?;
    if !out.status.success() {
        return Err(RefError::BadRef {
            name: "HEAD".into(),
            repo: dir.to_path_buf(),
            detail: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(PathBuf::from(
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
    ))
}

/// Resolves `name` to a full commit sha with `git rev-parse --verify NAME^{commit}`.
pub fn resolve(repo: &Path, name: &str) -> Result<String, RefError> {
    let bad = |detail: String| RefError::BadRef {
        name: name.to_string(),
        repo: repo.to_path_buf(),
        detail,
    };
    if name.is_empty() || name.starts_with('-') {
        return Err(bad("not a ref name".into()));
    }
    let spec = format!("{name}^{{commit}}");
    let out = git(repo, &["rev-parse", "--verify", "--quiet", &spec])?;
    let sha = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || sha.len() < 40 {
        let detail = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(bad(if detail.is_empty() {
            "unknown revision".into()
        } else {
            detail
        }));
    }
    Ok(sha)
}

/// How a ref is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildCmd {
    /// Clio's workspace: `cargo build --release -p clio`.
    Clio,
    /// A shell command template run in the worktree's root (`{out}`, `{jobs}`).
    Template(String),
}

/// OpenBench's build: `make -j EXE=<name>` in the repository's root.
pub const OPENBENCH_BUILD: &str = "make -j{jobs} EXE={out}";

impl BuildCmd {
    /// The build for `repo`: `template` if given, else Clio's for Clio's repository, else
    /// OpenBench's `make`.
    pub fn for_repo(repo: &Path, template: Option<&str>) -> BuildCmd {
        match template {
            Some(t) => BuildCmd::Template(t.to_string()),
            None if is_clio(repo) => BuildCmd::Clio,
            None => BuildCmd::Template(OPENBENCH_BUILD.to_string()),
        }
    }

    /// The command as a user reads it.
    pub fn text(&self) -> String {
        match self {
            BuildCmd::Clio => "cargo build --release -p clio".into(),
            BuildCmd::Template(t) => t.clone(),
        }
    }

    /// The cache entry of commit `sha` under this build.
    fn entry(&self, sha: &str) -> (String, &'static str) {
        match self {
            BuildCmd::Clio => (sha.to_string(), "clio"),
            BuildCmd::Template(t) => {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                t.hash(&mut h);
                (
                    format!("{sha}-{:012x}", h.finish() & 0xffff_ffff_ffff),
                    "engine",
                )
            }
        }
    }
}

/// Whether `repo` is Clio's workspace (its `crates/uci` is the `clio` package).
pub fn is_clio(repo: &Path) -> bool {
    fs::read_to_string(repo.join("crates/uci/Cargo.toml"))
        .is_ok_and(|t| t.lines().any(|l| l.trim() == "name = \"clio\""))
}

/// Where the cached binary for `sha` lives under Clio's build (it exists once a build has
/// succeeded).
pub fn binary_path(cache: &Path, sha: &str) -> PathBuf {
    cache.join(sha).join("clio")
}

/// The default build cache of a repository.
pub fn default_cache(repo: &Path) -> PathBuf {
    repo.join("target").join("arena-builds")
}

/// Builds (or reuses) Clio for the commit `name` resolves to; returns (sha, binary path).
pub fn build(repo: &Path, cache: &Path, name: &str) -> Result<(String, PathBuf), RefError> {
    build_with(repo, cache, name, &BuildCmd::Clio)
}

/// Builds (or reuses) the engine for the commit `name` resolves to with `how`; returns (sha,
/// binary path). A build that fails, makes no binary, or makes one that does not answer `uci`
/// is an error naming the ref and the command. Progress goes to the log file; a note saying
/// what happens goes to stderr.
pub fn build_with(
    repo: &Path,
    cache: &Path,
    name: &str,
    how: &BuildCmd,
) -> Result<(String, PathBuf), RefError> {
    let sha = resolve(repo, name)?;
    let (entry, file) = how.entry(&sha);
    let dir = cache.join(&entry);
    let bin = dir.join(file);
    if bin.is_file() {
        eprintln!(
            "arena: {name} = {}: using cached build {}",
            &sha[..12],
            bin.display()
        );
    } else {
        make(repo, name, &sha, how, &dir, file, &bin)?;
    }
    probe_uci(&bin).map_err(|detail| RefError::NotUci {
        name: name.to_string(),
        sha: sha.clone(),
        bin: bin.clone(),
        detail,
    })?;
    Ok((sha, bin))
}

/// Builds commit `sha` (ref `name`) with `how` in a worktree under `dir`, to `bin`.
fn make(
    repo: &Path,
    name: &str,
    sha: &str,
    how: &BuildCmd,
    dir: &Path,
    file: &str,
    bin: &Path,
) -> Result<(), RefError> {
    let cache = dir.parent().unwrap_or(dir);
    let sha = sha.to_string();
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    let src = dir.join("src");
    let log = dir.join("build.log");
    if src.exists() {
        let _ = git(
            repo,
            &["worktree", "remove", "--force", &src.to_string_lossy()],
        );
        let _ = fs::remove_dir_all(&src);
        let _ = git(repo, &["worktree", "prune"]);
    }
    let out = git(
        repo,
        &["worktree", "add", "--detach", &src.to_string_lossy(), &sha],
    )?;
    if !out.status.success() {
        return Err(RefError::Worktree {
            sha,
            dir: src,
            detail: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    eprintln!(
        "arena: building {name} = {} with `{}` (log: {})",
        &sha[..12],
        how.text(),
        log.display()
    );
    let target = cache.join("target");
    let tmp = dir.join(format!("{file}.tmp"));
    let _ = fs::remove_file(&tmp);
    let (result, built) = match how {
        BuildCmd::Clio => (
            cargo_build(&src, &target, &log),
            target.join("release").join("clio"),
        ),
        BuildCmd::Template(t) => (template_build(t, &src, &target, &tmp, &log), tmp.clone()),
    };
    let failed = |why: &str| RefError::Build {
        name: name.to_string(),
        sha: sha.clone(),
        what: format!("with `{}` failed{why}", how.text()),
        tail: tail(&log, 25),
        log: log.clone(),
    };
    let outcome = match result {
        Ok(true) if built.is_file() => {
            let copied = if built == tmp {
                Ok(())
            } else {
                fs::copy(&built, &tmp).map(drop)
            };
            copied
                .and_then(|()| fs::rename(&tmp, bin))
                .map_err(io_err(bin))
        }
        Ok(true) => Err(failed(&format!(
            ": it exited 0 but made no binary at {}",
            built.display()
        ))),
        Ok(false) => Err(failed("")),
        Err(e) => Err(e),
    };
    let _ = git(
        repo,
        &["worktree", "remove", "--force", &src.to_string_lossy()],
    );
    outcome
}

/// Runs a build template in `src` through `sh -c`, `{out}` and `{jobs}` filled in, logging to
/// `log`.
fn template_build(
    template: &str,
    src: &Path,
    target: &Path,
    out: &Path,
    log: &Path,
) -> Result<bool, RefError> {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let quoted = shell_words::quote(&out.to_string_lossy()).into_owned();
    let command = template
        .replace("{out}", &quoted)
        .replace("{jobs}", &jobs.to_string());
    let file = fs::File::create(log).map_err(io_err(log))?;
    let file2 = file.try_clone().map_err(io_err(log))?;
    let status = Command::new("sh")
        .args(["-c", &command])
        .current_dir(src)
        .env("CARGO_TARGET_DIR", target)
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(file2)
        .status()
        .map_err(io_err(src))?;
    Ok(status.success())
}

/// Starts `bin`, sends `uci` and waits up to 10 s for `uciok`.
fn probe_uci(bin: &Path) -> Result<(), String> {
    use std::io::{BufRead, BufReader, Write};
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start it: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.trim() == "uciok" {
                let _ = tx.send(Ok(()));
                return;
            }
            if seen.len() < 3 {
                seen.push(line);
            }
        }
        let _ = tx.send(Err(if seen.is_empty() {
            "it printed nothing and exited".to_string()
        } else {
            format!("it printed {:?} and exited", seen.join(" | "))
        }));
    });
    let _ = stdin.write_all(b"uci\n").and_then(|()| stdin.flush());
    let answer = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .unwrap_or_else(|_| Err("no `uciok` within 10 s".into()));
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    std::thread::sleep(std::time::Duration::from_millis(50));
    let _ = child.kill();
    let _ = child.wait();
    answer
}

/// Runs `cargo build --release -p clio` in `src` with its own target dir, logging to `log`.
fn cargo_build(src: &Path, target: &Path, log: &Path) -> Result<bool, RefError> {
    let file = fs::File::create(log).map_err(io_err(log))?;
    let file2 = file.try_clone().map_err(io_err(log))?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "-p", "clio"])
        .current_dir(src)
        .env("CARGO_TARGET_DIR", target)
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(file2)
        .status()
        .map_err(io_err(src))?;
    Ok(status.success())
}

/// The last `n` lines of a file (empty if it cannot be read).
fn tail(path: &Path, n: usize) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}
