//! The examples' command lines: `--flag value` pairs, in order.

/// Each flag with the value after it; a flag with no value after it stops
/// the run, naming the flag.
pub fn flags() -> impl Iterator<Item = (String, String)> {
    let mut args = std::env::args().skip(1);
    std::iter::from_fn(move || {
        let flag = args.next()?;
        let value = args
            .next()
            .unwrap_or_else(|| panic!("{flag} needs a value"));
        Some((flag, value))
    })
}
