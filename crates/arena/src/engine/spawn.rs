//! Engine processes that die with the runner (`PR_SET_PDEATHSIG` on Linux, from one spawner
//! thread that lives as long as arena).

use std::process::{Child, Command};

/// Starts `cmd` so that the engine dies with the runner: on Linux the child asks for SIGKILL
/// when its parent goes (`PR_SET_PDEATHSIG`, set between fork and exec), so even a SIGKILL of
/// arena leaves no engine behind. The kernel ties that signal to the *thread* that forked, so
/// every engine is forked by one thread that lives as long as the process; worker threads come
/// and go (each SPSA iteration has its own) while their engines live on.
pub(super) fn spawn_tied(mut cmd: Command) -> std::io::Result<Child> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        use std::sync::mpsc;
        use std::sync::{Mutex, OnceLock};
        type Request = (Command, mpsc::Sender<std::io::Result<Child>>);
        static SPAWNER: OnceLock<Mutex<mpsc::Sender<Request>>> = OnceLock::new();
        // SAFETY: the closure runs in the forked child before exec and only calls prctl and
        // getppid, both async-signal-safe.
        unsafe {
            cmd.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The runner died between fork and prctl: go now.
                if libc::getppid() == 1 {
                    return Err(std::io::Error::other("the runner is gone"));
                }
                Ok(())
            });
        }
        let spawner = SPAWNER.get_or_init(|| {
            let (tx, rx) = mpsc::channel::<Request>();
            std::thread::Builder::new()
                .name("arena-spawner".into())
                .spawn(move || {
                    for (mut cmd, reply) in rx {
                        let _ = reply.send(cmd.spawn());
                    }
                })
                .expect("the engine spawner thread starts");
            Mutex::new(tx)
        });
        let (reply, answer) = mpsc::channel();
        let sent = spawner
            .lock()
            .map_err(|_| std::io::Error::other("engine spawner poisoned"))?
            .send((cmd, reply));
        if sent.is_err() {
            return Err(std::io::Error::other("engine spawner stopped"));
        }
        answer
            .recv()
            .map_err(|_| std::io::Error::other("engine spawner stopped"))?
    }
    #[cfg(not(target_os = "linux"))]
    {
        cmd.spawn()
    }
}
