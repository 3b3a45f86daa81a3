//! What memory the machine can give: the check behind `Hash`, and the
//! allocator fitted to an address-space limit.

/// Memory the process can be given now, in MiB: what the system says it
/// can give without swapping (`MemAvailable` of `/proc/meminfo`), no more
/// than its memory control group's limit leaves (see
/// [`control_group_left_mib`]), and under an address-space limit no more
/// than the limit leaves of what the process already maps; `None` where
/// none of them is known.
pub fn available_mib() -> Option<u64> {
    let system = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| parse_available_mib(&text));
    let left = address_space_limit_mib().map(|limit| limit.saturating_sub(mapped_mib()));
    // The least of the bounds known.
    [system, control_group_left_mib(), left]
        .into_iter()
        .flatten()
        .min()
}

/// What the process may still take, in MiB ([`available_mib`]), where
/// `need_mib` more do not fit in it; `None` where they fit, or no bound
/// is known: a book, a reload or a search tree that would not fit is
/// refused or stopped rather than end the process.
pub fn short_for(need_mib: u64) -> Option<u64> {
    available_mib().filter(|&left| need_mib > left)
}

/// The address space the process maps, in MiB (`VmSize`); 0 where it
/// cannot be read.
pub(crate) fn mapped_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|text| parse_vm_size_mib(&text))
        .unwrap_or(0)
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
/// `None` when there is none (and off Unix, which has no such limit).
#[cfg(not(unix))]
pub fn address_space_limit_mib() -> Option<u64> {
    None
}

/// The process's address-space limit (`ulimit -v`, `RLIMIT_AS`) in MiB;
/// `None` when there is none.
#[cfg(unix)]
pub fn address_space_limit_mib() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct passed.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur / (1 << 20))
}

/// A memory control group the process belongs to, with the files that
/// hold its limit, its usage, and its usage's reclaimable file cache.
#[derive(Debug, PartialEq, Eq)]
struct ControlGroup {
    dir: std::path::PathBuf,
    limit: &'static str,
    usage: &'static str,
    inactive_file: &'static str,
}

/// Where cgroup file systems are mounted.
const CGROUP_ROOT: &str = "/sys/fs/cgroup";

/// The memory control groups of `/proc/self/cgroup`'s text, each group
/// followed by the groups above it (a limit set above also binds it):
/// cgroup v2 (`0::PATH`, under the root or, on a system that mounts both
/// kinds, under `unified`) and v1's memory controller (`N:…memory…:PATH`).
fn memory_groups(proc_cgroup: &str, root: &std::path::Path) -> Vec<ControlGroup> {
    let mut groups = Vec::new();
    for line in proc_cgroup.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let path = path.trim().trim_start_matches('/');
        let (bases, limit, usage, inactive_file) = if id == "0" && controllers.is_empty() {
            (
                vec![root.to_path_buf(), root.join("unified")],
                "memory.max",
                "memory.current",
                "inactive_file",
            )
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                vec![root.join("memory")],
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
                "total_inactive_file",
            )
        } else {
            continue;
        };
        for base in bases {
            let mut dir = base.join(path);
            loop {
                groups.push(ControlGroup {
                    dir: dir.clone(),
                    limit,
                    usage,
                    inactive_file,
                });
                if dir == base || !dir.pop() {
                    break;
                }
            }
        }
    }
    groups
}

/// A limit file's bytes; `None` for no limit (`max`, or v1's huge
/// number for none).
fn parse_limit(text: &str) -> Option<u64> {
    let bytes: u64 = text.trim().parse().ok()?;
    (bytes < 1 << 60).then_some(bytes)
}

/// The value of `key` in a `memory.stat` text.
fn stat_value(stat: &str, key: &str) -> Option<u64> {
    stat.lines().find_map(|line| {
        let (name, value) = line.split_once(' ')?;
        (name == key).then(|| value.trim().parse().ok())?
    })
}

/// What `group`'s limit leaves, in MiB: the limit less the usage, not
/// counting the inactive file cache the kernel reclaims before it
/// refuses memory. `None` when it sets no limit or its files cannot be
/// read.
fn group_left_mib(group: &ControlGroup) -> Option<u64> {
    let read = |name: &str| std::fs::read_to_string(group.dir.join(name)).ok();
    let limit = parse_limit(&read(group.limit)?)?;
    let usage: u64 = read(group.usage)?.trim().parse().ok()?;
    let reclaimable = read("memory.stat")
        .and_then(|stat| stat_value(&stat, group.inactive_file))
        .unwrap_or(0);
    Some(limit.saturating_sub(usage.saturating_sub(reclaimable)) >> 20)
}

/// What the tightest limit of the process's memory control groups leaves,
/// in MiB (a container's `--memory`, a judge's cgroup); `None` where no
/// group sets one. Memory past it is not refused by the allocator: the
/// kernel kills the process when it is written, so a table larger than
/// this must be refused up front.
pub fn control_group_left_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    memory_groups(&text, std::path::Path::new(CGROUP_ROOT))
        .iter()
        .filter_map(group_left_mib)
        .min()
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
/// Without a limit each thread keeps its arena. Returns the limit, in
/// MiB, when one applies.
///
/// Whatever the limits, blocks of a mebibyte and more are mapped on
/// their own and unmapped when freed. glibc's malloc raises that
/// threshold past each large block freed, up to 32 MiB, after which a
/// search thread's histories (8 MiB) and lists come from its arena, and a
/// freed arena's memory is kept for that arena: after cycles of `Threads
/// 32` and `Threads 1` the daemon held 100 to 190 MiB between games, 58
/// MiB with the threshold fixed (and 338 MiB at its peak against 83).
pub fn fit_allocator_to_limits() -> Option<u64> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning value of the allocator; called
    // before other threads exist.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
    let limit = address_space_limit_mib()?;
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning value of the allocator; called
    // before other threads exist.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
    Some(limit)
}

/// What a search takes of an address-space limit beyond what a started
/// daemon maps (its plugins, its table): a search thread's stack, move
/// lists and state, in MiB. Measured with `ulimit -v`: with 1 to 4 MiB
/// left a daemon answered `readyok` and then ended at its first `go`,
/// unable to allocate (an Othello search with 3 MiB left played).
pub const SEARCH_MIB: u64 = 6;

/// Whether the address-space limit, if any, leaves room for a search now:
/// else the reason, for a daemon that must say it cannot run rather than
/// answer `readyok` and end at its first `go`.
pub fn room_for_a_search() -> Result<(), String> {
    let Some(limit) = address_space_limit_mib() else {
        return Ok(());
    };
    let left = limit.saturating_sub(mapped_mib());
    if left >= SEARCH_MIB {
        return Ok(());
    }
    Err(format!(
        "the address-space limit of {limit} MiB (ulimit -v) leaves {left} MiB once plyd has \
         loaded its plugins and its table, where a search needs about {SEARCH_MIB} MiB more: \
         plyd cannot run here; raise the limit"
    ))
}

/// What an optional table must leave of an address-space limit for the
/// allocations that are not optional, in MiB.
pub const HEADROOM_MIB: u64 = 4;

/// Whether an optional table of `bytes` (one a search does without, such
/// as continuation history) should be allocated: always without an
/// address-space limit; under one, only where what the limit leaves of
/// what the process maps keeps [`HEADROOM_MIB`] after it, since memory
/// taken to the last page of the limit makes the next allocation that
/// cannot be done without fail, and the process end.
pub fn room_for_optional(bytes: u64) -> bool {
    let Some(limit) = address_space_limit_mib() else {
        return true;
    };
    limit.saturating_sub(mapped_mib()) >= bytes.div_ceil(1 << 20) + HEADROOM_MIB
}

/// Share of the available memory a hash table may take, in percent: the
/// rest is left to the search threads, the plugins and the system.
pub const HASH_SHARE_PERCENT: u64 = 90;

/// What a search thread takes beyond the first, in MiB: its histories
/// (continuation history alone is 8 MiB), its stack and state (measured
/// under an address-space limit, where threads share one allocator arena:
/// about 11 MiB a thread).
pub const THREAD_MIB: u64 = 12;

/// Refuse `threads` search threads where the machine (or the
/// address-space limit) cannot give what they take beyond the `mapped`
/// threads whose memory is already taken (their histories kept from the
/// last search): a thread that cannot get its memory would end the
/// process.
pub fn check_threads(threads: u64, mapped: u64, available: Option<u64>) -> Result<(), String> {
    let Some(available) = available else {
        return Ok(());
    };
    let need = threads.saturating_sub(mapped) * THREAD_MIB;
    let most = available * HASH_SHARE_PERCENT / 100;
    if need > most {
        return Err(format!(
            "option 'Threads': {threads} threads need about {need} MiB more than is taken now \
             (about {THREAD_MIB} MiB each, {mapped} of them taken), more than this machine can \
             give now ({available} MiB available, {HASH_SHARE_PERCENT}% of it for the search; \
             at most {} threads)",
            (mapped + most / THREAD_MIB).max(1)
        ));
    }
    Ok(())
}

/// The largest table [`check_hash`] lets through with `available` MiB.
pub fn most_hash_mib(current: u64, unmapped: u64, available: u64) -> u64 {
    (available + current).saturating_sub(unmapped * THREAD_MIB) * HASH_SHARE_PERCENT / 100
}

/// Refuse a hash table of `mib` MiB that the machine cannot give now (with
/// `available` MiB free), naming the most it could be: 90% of what is
/// left once the table it replaces, `current` MiB (freed first), is given
/// back and the `unmapped` search threads set but without their memory
/// yet ([`THREAD_MIB`] each: a search allocates it when it starts) are
/// counted.
pub fn check_hash(
    mib: u64,
    current: u64,
    unmapped: u64,
    available: Option<u64>,
) -> Result<(), String> {
    let Some(available) = available else {
        return Ok(());
    };
    let most = most_hash_mib(current, unmapped, available);
    if mib > most {
        let threads = if unmapped > 1 {
            format!(
                " less {unmapped} search threads' {} MiB",
                unmapped * THREAD_MIB
            )
        } else {
            String::new()
        };
        return Err(format!(
            "option 'Hash': {mib} MiB is more than this machine can give now \
             ({available} MiB available{threads}; at most {most} MiB)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_refused_past_what_the_machine_gives() {
        assert!(check_threads(256, 0, None).is_ok());
        // 170 MiB left, 90% of it usable: 12 threads of 12 MiB.
        assert!(check_threads(12, 0, Some(170)).is_ok());
        let e = check_threads(32, 0, Some(170)).unwrap_err();
        assert!(e.contains("at most 12 threads"), "{e}");
        // Threads whose memory is taken already are counted in.
        assert!(check_threads(20, 8, Some(170)).is_ok());
        assert!(check_threads(21, 8, Some(170)).is_err());
    }

    #[test]
    fn a_table_is_refused_past_what_the_machine_gives_its_threads_counted() {
        assert!(check_hash(1 << 16, 0, 1, None).is_ok());
        // 173 MiB left: 90% of 161 with one thread to come.
        assert!(check_hash(144, 0, 1, Some(173)).is_ok());
        assert!(check_hash(145, 0, 1, Some(173)).is_err());
        // Fifteen threads set and not started take 180 of it: no table
        // of 128 MiB fits (where it was taken, and the first search
        // ended the process).
        let e = check_hash(128, 0, 15, Some(173)).unwrap_err();
        assert!(
            e.contains("(173 MiB available less 15 search threads' 180 MiB; at most 0 MiB)"),
            "{e}"
        );
        // The table replaced is freed first: a smaller one fits where the
        // bigger one is mapped.
        assert!(check_hash(100, 150, 1, Some(71)).is_ok());
    }

    #[test]
    fn reads_mem_available() {
        let text = "MemTotal:       24683664 kB\nMemFree:        21000000 kB\nMemAvailable:   23000000 kB\n";
        assert_eq!(parse_available_mib(text), Some(22460));
        assert_eq!(parse_available_mib("MemTotal: 5 kB\n"), None);
        let status = "Name:\tplyd\nVmPeak:\t  320000 kB\nVmSize:\t  315712 kB\n";
        assert_eq!(parse_vm_size_mib(status), Some(308));
    }

    #[test]
    fn finds_the_memory_groups_and_those_above_them() {
        use std::path::{Path, PathBuf};
        let root = Path::new("/sys/fs/cgroup");
        let v2 = memory_groups("0::/user.slice/plyd.scope\n", root);
        let dirs: Vec<&PathBuf> = v2.iter().map(|g| &g.dir).collect();
        assert_eq!(
            dirs,
            [
                "/sys/fs/cgroup/user.slice/plyd.scope",
                "/sys/fs/cgroup/user.slice",
                "/sys/fs/cgroup",
                "/sys/fs/cgroup/unified/user.slice/plyd.scope",
                "/sys/fs/cgroup/unified/user.slice",
                "/sys/fs/cgroup/unified",
            ]
            .map(PathBuf::from)
            .iter()
            .collect::<Vec<_>>()
        );
        assert!(v2.iter().all(|g| g.limit == "memory.max"));
        let v1 = memory_groups(
            "9:name=systemd:/\n4:memory:/judge/42\n3:cpuset:/\n0::/\n",
            root,
        );
        let v1_dirs: Vec<_> = v1
            .iter()
            .filter(|g| g.limit == "memory.limit_in_bytes")
            .collect();
        assert_eq!(
            v1_dirs.iter().map(|g| g.dir.clone()).collect::<Vec<_>>(),
            [
                "/sys/fs/cgroup/memory/judge/42",
                "/sys/fs/cgroup/memory/judge",
                "/sys/fs/cgroup/memory"
            ]
            .map(PathBuf::from)
        );
        assert!(v1_dirs
            .iter()
            .all(|g| g.inactive_file == "total_inactive_file"));
        // The root group of v2 ("0::/") is the root alone.
        assert_eq!(memory_groups("0::/\n", root).len(), 2);
        assert!(memory_groups("2:cpu,cpuacct:/x\nnonsense\n", root).is_empty());
        assert_eq!(memory_groups("5:cpu,memory:/x\n", root).len(), 2);
    }

    #[test]
    fn reads_a_group_limit_less_what_it_uses() {
        assert_eq!(parse_limit("max\n"), None);
        assert_eq!(parse_limit("9223372036854771712\n"), None);
        assert_eq!(parse_limit("268435456\n"), Some(268_435_456));
        let stat = "anon 1000\ninactive_anon 4\ninactive_file 4194304\nactive_file 7\n";
        assert_eq!(stat_value(stat, "inactive_file"), Some(4_194_304));
        assert_eq!(stat_value(stat, "total_inactive_file"), None);

        let dir = std::env::temp_dir().join(format!("plyd-cgroup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let group = ControlGroup {
            dir: dir.clone(),
            limit: "memory.max",
            usage: "memory.current",
            inactive_file: "inactive_file",
        };
        let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
        // 256 MiB allowed, 100 MiB used of which 36 MiB is reclaimable cache.
        write("memory.max", "268435456\n");
        write("memory.current", &format!("{}\n", 100u64 << 20));
        write(
            "memory.stat",
            &format!("anon 5\ninactive_file {}\n", 36u64 << 20),
        );
        assert_eq!(group_left_mib(&group), Some(192));
        // Without the statistics, all of the usage counts.
        std::fs::remove_file(dir.join("memory.stat")).unwrap();
        assert_eq!(group_left_mib(&group), Some(156));
        // Using more than the limit leaves nothing.
        write("memory.current", &format!("{}\n", 300u64 << 20));
        assert_eq!(group_left_mib(&group), Some(0));
        // No limit, or no files: nothing said.
        write("memory.max", "max\n");
        assert_eq!(group_left_mib(&group), None);
        std::fs::remove_file(dir.join("memory.max")).unwrap();
        assert_eq!(group_left_mib(&group), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_table_beyond_the_available_memory_is_refused() {
        assert!(check_hash(65536, 0, 1, Some(22460)).is_err());
        assert!(check_hash(16, 0, 1, Some(22460)).is_ok());
        // 90% of 22460 MiB less the first thread's 12.
        assert!(check_hash(20203, 0, 1, Some(22460)).is_ok());
        assert!(check_hash(20204, 0, 1, Some(22460)).is_err());
        // Under a tight limit the first thread's histories come first.
        assert!(check_hash(16, 0, 1, Some(20)).is_err());
        assert!(check_hash(1, 0, 1, Some(14)).is_ok());
        assert!(check_hash(65536, 0, 1, None).is_ok());
    }
}
