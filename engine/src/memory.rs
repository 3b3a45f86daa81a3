//! What memory the machine can give: the check behind `Hash`.

/// Memory the system says it can give without swapping, in MiB
/// (`MemAvailable` of `/proc/meminfo`); `None` where that is not known.
pub fn available_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_available_mib(&text)
}

fn parse_available_mib(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
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
