//! Measuring processes from `/proc`: CPU time and resident memory (Linux).

/// The unit of the CPU times in `/proc/PID/stat` (`USER_HZ`, 100 on Linux whatever the kernel's
/// own tick rate).
pub const USER_HZ: f64 = 100.0;

/// The CPU time a process has used (user and system), in `USER_HZ` ticks, from
/// `/proc/PID/stat`; with `children`, also that of its children it has waited for.
pub fn cpu_ticks(pid: &str, children: bool) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces), from field 3 on.
    let fields: Vec<u64> = stat
        .rsplit_once(')')?
        .1
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    let own = fields.first()? + fields.get(1)?;
    Some(if children {
        own + fields.get(2)? + fields.get(3)?
    } else {
        own
    })
}

/// The resident set of a process, from `/proc/PID/status`, in KB.
pub fn vm_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_measured() {
        if !std::path::Path::new("/proc/self/stat").exists() {
            return;
        }
        assert!(cpu_ticks("self", false).is_some());
        assert!(cpu_ticks("self", true) >= cpu_ticks("self", false));
        assert!(vm_rss_kb(std::process::id()).is_some_and(|kb| kb > 0));
        assert_eq!(cpu_ticks("no-such-process", false), None);
    }
}
