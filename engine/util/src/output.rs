//! A tool's output kept apart from what plugins print: plugins share the
//! process's descriptors, and a C `printf` or a Rust `println!` in one
//! would land in the protocol, or in the middle of a tool's results.

/// The descriptor set aside by [`keep_stdout`].
static KEPT: std::sync::OnceLock<std::fs::File> = std::sync::OnceLock::new();

/// Keep the process's stdout for its own output alone: it is duplicated
/// for [`out`], and descriptor 1 then points at stderr, so that whatever a
/// plugin prints on its stdout reaches the log, not the reader of the
/// output. Call it before any plugin is loaded. Where the descriptors
/// cannot be moved, stdout stays as it is.
pub fn keep_stdout() {
    #[cfg(unix)]
    {
        use std::os::fd::FromRawFd;
        // SAFETY: the process's own standard descriptors: a duplicate of 1
        // (closed on exec), owned by the `File` from here on, then 2 copied
        // onto 1.
        unsafe {
            let kept = libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 3);
            if kept < 0 {
                return;
            }
            if libc::dup2(2, 1) < 0 {
                libc::close(kept);
                return;
            }
            let _ = KEPT.set(std::fs::File::from_raw_fd(kept));
        }
    }
}

/// Where the output goes: the descriptor [`keep_stdout`] kept, or stdout.
pub fn out() -> Box<dyn std::io::Write + Send> {
    // The kept descriptor itself, not a duplicate: under a tight limit on
    // open files a duplicate may not be had, and stdout is stderr by then.
    match KEPT.get() {
        Some(file) => Box::new(file),
        None => Box::new(std::io::stdout()),
    }
}
