//! Git refs as engines: resolve a ref to a commit, build `clio` for it in its own worktree, and
//! cache the binary by commit so a second run with the same commit builds nothing.
//!
//! Layout under the cache directory (default `<repo>/target/arena-builds`):
//! `<sha>/clio` is the finished binary, `<sha>/build.log` the log of its build, `<sha>/src` the
//! temporary worktree, and `target/` a cargo target directory shared by these builds only, so they
//! reuse compiled dependencies without contending with the main tree's `target/`.

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
    /// `cargo build` failed; `tail` holds the end of its log.
    #[error("building clio at {name} ({sha}) failed; log {log}, last lines:\n{tail}")]
    Build {
        /// The ref as given.
        name: String,
        /// The commit.
        sha: String,
        /// Full build log.
        log: PathBuf,
        /// The log's last lines.
        tail: String,
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

/// Where the cached binary for `sha` lives (it exists once a build has succeeded).
pub fn binary_path(cache: &Path, sha: &str) -> PathBuf {
    cache.join(sha).join("clio")
}

/// The default build cache of a repository.
pub fn default_cache(repo: &Path) -> PathBuf {
    repo.join("target").join("arena-builds")
}

/// Builds (or reuses) `clio` for the commit `name` resolves to; returns (sha, binary path).
/// Build progress goes to the log file; a note saying what happens goes to stderr.
pub fn build(repo: &Path, cache: &Path, name: &str) -> Result<(String, PathBuf), RefError> {
    let sha = resolve(repo, name)?;
    let bin = binary_path(cache, &sha);
    if bin.is_file() {
        eprintln!(
            "arena: {name} = {}: using cached build {}",
            &sha[..12],
            bin.display()
        );
        return Ok((sha, bin));
    }
    let dir = cache.join(&sha);
    fs::create_dir_all(&dir).map_err(io_err(&dir))?;
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
        "arena: building clio at {name} = {} (log: {})",
        &sha[..12],
        log.display()
    );
    let result = cargo_build(&src, &cache.join("target"), &log);
    let built = cache.join("target").join("release").join("clio");
    let outcome = match result {
        Ok(true) if built.is_file() => {
            let tmp = dir.join("clio.tmp");
            fs::copy(&built, &tmp)
                .and_then(|_| fs::rename(&tmp, &bin))
                .map_err(io_err(&bin))
        }
        Ok(_) => Err(RefError::Build {
            name: name.to_string(),
            sha: sha.clone(),
            tail: tail(&log, 25),
            log: log.clone(),
        }),
        Err(e) => Err(e),
    };
    let _ = git(
        repo,
        &["worktree", "remove", "--force", &src.to_string_lossy()],
    );
    outcome.map(|()| (sha, bin))
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
