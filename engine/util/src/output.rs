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

/// Where the output goes: the descriptor [`keep_stdout`] kept, or stdout,
/// written in full even where the descriptor is non-blocking
/// ([`Patient`]).
pub fn out() -> Box<dyn std::io::Write + Send> {
    // The kept descriptor itself, not a duplicate: under a tight limit on
    // open files a duplicate may not be had, and stdout is stderr by then.
    match KEPT.get() {
        Some(file) => {
            #[cfg(unix)]
            let fd = std::os::fd::AsRawFd::as_raw_fd(file);
            #[cfg(not(unix))]
            let fd = 1;
            Box::new(Patient { inner: file, fd })
        }
        None => Box::new(Patient {
            inner: std::io::stdout(),
            fd: 1,
        }),
    }
}

/// Whether the output's reader is gone (a pipe whose reading end is
/// closed, a socket hung up): what is written would be lost. False where
/// it cannot be told (a file, a terminal, another system).
pub fn reader_gone() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let fd = KEPT.get().map_or(1, |file| file.as_raw_fd());
        poll_out(fd, 0).is_some_and(|events| events & (libc::POLLERR | libc::POLLHUP) != 0)
    }
    #[cfg(not(unix))]
    false
}

/// Wait up to `wait_ms` for the descriptor `fd` to take output: the
/// events it reports (none where the wait ran out), or `None` where the
/// wait itself failed.
#[cfg(unix)]
fn poll_out(fd: i32, wait_ms: i32) -> Option<libc::c_short> {
    let mut poll = libc::pollfd {
        fd,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd, for the duration of the call.
    let ready = unsafe { libc::poll(&mut poll, 1, wait_ms) };
    (ready >= 0).then_some(poll.revents)
}

/// A writer that waits for room where its descriptor is non-blocking (a
/// socket of an event loop, a pipe whose writing end the parent set
/// `O_NONBLOCK` on, which plyd inherits) and full, as a blocking one
/// would: a write refused with `WouldBlock` was dropped, the `bestmove`
/// with it, and nothing said.
struct Patient<W> {
    inner: W,
    /// The descriptor waited on (Unix).
    #[cfg_attr(not(unix), allow(dead_code))]
    fd: i32,
}

impl<W> Patient<W> {
    /// Wait until the descriptor takes more (or has failed: the next
    /// write says how).
    fn wait_for_room(&self) {
        #[cfg(unix)]
        if poll_out(self.fd, 100).is_some() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

impl<W: std::io::Write> std::io::Write for Patient<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        loop {
            match self.inner.write(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => self.wait_for_room(),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        loop {
            match self.inner.flush() {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => self.wait_for_room(),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::os::fd::{AsRawFd, FromRawFd};

    /// Written through a non-blocking pipe that fills, every byte arrives
    /// once the reader reads, none dropped.
    #[test]
    fn a_full_non_blocking_pipe_is_waited_for() {
        let mut fds = [0i32; 2];
        // SAFETY: two descriptors written into a valid array, owned below.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: the pipe's two ends, owned by these files from here on.
        let (mut reader, writer) = unsafe {
            (
                std::fs::File::from_raw_fd(fds[0]),
                std::fs::File::from_raw_fd(fds[1]),
            )
        };
        // SAFETY: a descriptor this test owns.
        unsafe {
            let flags = libc::fcntl(writer.as_raw_fd(), libc::F_GETFL);
            libc::fcntl(writer.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        let text: Vec<u8> = (0..400_000u32)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        let expected = text.clone();
        let fd = writer.as_raw_fd();
        let writing = std::thread::spawn(move || {
            let mut out = Patient { inner: &writer, fd };
            out.write_all(&text).unwrap();
            out.flush().unwrap();
        });
        // Let the pipe fill before reading.
        std::thread::sleep(std::time::Duration::from_millis(50));
        let mut got = Vec::new();
        let mut chunk = [0u8; 65536];
        while got.len() < expected.len() {
            let n = reader.read(&mut chunk).unwrap();
            assert!(n > 0);
            got.extend_from_slice(&chunk[..n]);
        }
        writing.join().unwrap();
        assert_eq!(got, expected);
    }
}
