//! What memory the machine can give: the check behind `Hash`, and the
//! allocator fitted to an address-space limit.

/// Memory the process can be given now, in MiB: what the system says it
/// can give without swapping (`MemAvailable` of `/proc/meminfo`), and
/// under an address-space limit no more than the limit leaves of what the
/// process already maps; `None` where neither is known.
pub fn available_mib() -> Option<u64> {
    let system = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| parse_available_mib(&text));
    let left = address_space_limit_mib().map(|limit| {
        let mapped = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|text| parse_vm_size_mib(&text))
            .unwrap_or(0);
        limit.saturating_sub(mapped)
    });
    match (system, left) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn parse_vm_size_mib(status: &str) -> Option<u64> {
    kib_field_mib(status, "VmSize:")
}

fn parse_available_mib(meminfo: &str) -> Option<u64> {
    kib_field_mib(meminfo, "MemAvailable:")
}

/// The `kB` value of the line starting with `key` in a `/proc` file
/// (`MemAvailable:`, `VmSize:`), in MiB.
fn kib_field_mib(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The process's address-space limit (`ulimit -v`, `RLIMIT_AS`) in MiB;
/// `None` when there is none.
pub fn address_space_limit_mib() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct passed.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur / (1 << 20))
}

/// Fit the allocator to an address-space limit, before any thread starts.
///
/// glibc's malloc gives each thread that allocates its own arena and
/// reserves 64 MiB of address space for each (eight arenas per core at
/// most). Under a cap such as Botzone's 256 MB (`ulimit -v 262144`) the
/// daemon's four threads reserve more than the cap holds, and an
/// allocation fails. With a limit in force every thread shares the main
/// arena, which grows only by what is allocated; the search allocates
/// nothing per node, so the shared lock costs nothing measurable.
/// Without a limit nothing changes. Returns the limit, in MiB, when one
/// applies.
pub fn fit_allocator_to_limits() -> Option<u64> {
    let limit = address_space_limit_mib()?;
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning value of the allocator; called
    // before other threads exist.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
    Some(limit)
}

/// Share of the available memory a hash table may take, in percent: the
/// rest is left to the search threads, the plugins and the system.
pub const HASH_SHARE_PERCENT: u64 = 90;

/// Refuse a hash table of `mib` MiB that the machine cannot give now (with
/// `available` MiB free), naming the most it could be.
pub fn check_hash(mib: u64, available: Option<u64>) -> Result<(), String> {
    let Some(available) = available else {
        return Ok(());
    };
    let most = available * HASH_SHARE_PERCENT / 100;
    if mib > most {
        return Err(format!(
            "option 'Hash': {mib} MiB is more than this machine can give now \
             ({available} MiB available; at most {most} MiB)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available() {
        let text = "MemTotal:       24683664 kB\nMemFree:        21000000 kB\nMemAvailable:   23000000 kB\n";
        assert_eq!(parse_available_mib(text), Some(22460));
        assert_eq!(parse_available_mib("MemTotal: 5 kB\n"), None);
        let status = "Name:\tplyd\nVmPeak:\t  320000 kB\nVmSize:\t  315712 kB\n";
        assert_eq!(parse_vm_size_mib(status), Some(308));
    }

    #[test]
    fn a_table_beyond_the_available_memory_is_refused() {
        assert!(check_hash(65536, Some(22460)).is_err());
        assert!(check_hash(16, Some(22460)).is_ok());
        assert!(check_hash(20214, Some(22460)).is_ok());
        assert!(check_hash(20215, Some(22460)).is_err());
        assert!(check_hash(65536, None).is_ok());
    }
}
