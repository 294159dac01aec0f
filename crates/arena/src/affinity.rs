//! CPU affinity (`--affinity`, fastchess's `-use-affinity`): each game slot's two engines on
//! CPUs of their own, so that concurrent games on one machine do not take time from each other
//! and a clock test is not disturbed by the scheduler moving engines between cores.
//!
//! The CPUs are those arena itself may run on (`sched_getaffinity`, so `taskset -c 2-5 arena …`
//! hands arena four CPUs), taken in the kernel's order: slot 1's first engine gets the first
//! `per_engine` of them, its second engine the next, then slot 2, and so on. Engines are pinned
//! between fork and exec, so every thread they start inherits the set.

use std::fmt::Write as _;

/// The CPUs of one game slot: the pair's first engine's, then the second's.
pub type SlotCpus = [Vec<usize>; 2];

/// The CPUs this process may run on, in increasing order.
#[cfg(target_os = "linux")]
pub fn available() -> std::io::Result<Vec<usize>> {
    // SAFETY: a zeroed cpu_set_t is the empty set; sched_getaffinity writes at most its size.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    if unsafe { libc::sched_getaffinity(0, size, &mut set) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let max = 8 * size;
    Ok((0..max)
        .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
        .collect())
}

/// The CPUs this process may run on (not known on this platform).
#[cfg(not(target_os = "linux"))]
pub fn available() -> std::io::Result<Vec<usize>> {
    Err(std::io::Error::other(
        "CPU affinity is only supported on Linux",
    ))
}

/// The slots' CPUs for `concurrency` games of engines that each use `per_engine` threads,
/// from the CPUs `cpus`: at most as many slots as the CPUs hold. The error says why none fit.
pub fn slots(
    cpus: &[usize],
    concurrency: usize,
    per_engine: usize,
) -> Result<Vec<SlotCpus>, String> {
    let per_engine = per_engine.max(1);
    let fit = cpus.len() / (2 * per_engine);
    if fit == 0 {
        return Err(format!(
            "--affinity needs {} CPUs for one game ({per_engine} for each engine), but arena may \
             use {} ({})",
            2 * per_engine,
            cpus.len(),
            list(cpus)
        ));
    }
    Ok(cpus
        .chunks_exact(2 * per_engine)
        .take(concurrency.min(fit))
        .map(|c| [c[..per_engine].to_vec(), c[per_engine..].to_vec()])
        .collect())
}

/// `0-3,6`: a CPU list as the kernel writes `Cpus_allowed_list`.
pub fn list(cpus: &[usize]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < cpus.len() {
        let mut j = i;
        while j + 1 < cpus.len() && cpus[j + 1] == cpus[j] + 1 {
            j += 1;
        }
        if !out.is_empty() {
            out.push(',');
        }
        if j > i {
            let _ = write!(out, "{}-{}", cpus[i], cpus[j]);
        } else {
            let _ = write!(out, "{}", cpus[i]);
        }
        i = j + 1;
    }
    out
}

/// `Affinity: game slot 1 on CPUs 0 | 1, slot 2 on CPUs 2 | 3` (the pair's first engine's, then
/// the second's).
pub fn describe(slots: &[SlotCpus]) -> String {
    let parts: Vec<String> = (slots.iter().enumerate())
        .map(|(i, s)| format!("slot {} on CPUs {} | {}", i + 1, list(&s[0]), list(&s[1])))
        .collect();
    format!("Affinity: game {}", parts.join(", "))
}

/// The `cpu_set_t` of `cpus`, for [`pin_self`]; `None` when a CPU is beyond what it holds.
#[cfg(target_os = "linux")]
pub fn cpu_set(cpus: &[usize]) -> Option<libc::cpu_set_t> {
    // SAFETY: a zeroed cpu_set_t is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &c in cpus {
        if c >= 8 * std::mem::size_of::<libc::cpu_set_t>() {
            return None;
        }
        unsafe { libc::CPU_SET(c, &mut set) };
    }
    Some(set)
}

/// Pins the calling process to `set`; async-signal-safe (one system call), for `pre_exec`.
#[cfg(target_os = "linux")]
pub fn pin_self(set: &libc::cpu_set_t) -> std::io::Result<()> {
    // SAFETY: `set` is a valid cpu_set_t of the size given.
    if unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_take_cpus_in_order_and_no_more_than_fit() {
        let cpus: Vec<usize> = (0..8).collect();
        let s = slots(&cpus, 3, 1).unwrap();
        assert_eq!(
            s,
            vec![[vec![0], vec![1]], [vec![2], vec![3]], [vec![4], vec![5]]]
        );
        let s = slots(&cpus, 10, 2).unwrap();
        assert_eq!(s, vec![[vec![0, 1], vec![2, 3]], [vec![4, 5], vec![6, 7]]]);
        let err = slots(&[3], 1, 1).unwrap_err();
        assert!(
            err.contains("needs 2 CPUs") && err.contains("may use 1 (3)"),
            "{err}"
        );
    }

    #[test]
    fn lists_read_as_the_kernel_writes_them() {
        assert_eq!(list(&[0, 1, 2, 3, 6]), "0-3,6");
        assert_eq!(list(&[1, 3]), "1,3");
        assert_eq!(list(&[]), "");
        assert_eq!(
            describe(&[[vec![0], vec![1]], [vec![2], vec![3]]]),
            "Affinity: game slot 1 on CPUs 0 | 1, slot 2 on CPUs 2 | 3"
        );
    }
}
