//! The log's way to stderr. A tool writes its log lines straight there; the
//! daemon hands them to a thread of their own through a bounded queue, so
//! that a stderr nobody reads (a pipe a program started plyd with and
//! never drains: it fills at 64 KiB) stops only that thread: the daemon
//! goes on answering, `quit` included, and the lines that find the queue
//! full are dropped and counted, the count written before the next line
//! that gets through. Where the log line was written blocking, a daemon
//! with a full pipe on stderr answered nothing more, `quit` and the end
//! of its input included.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Sender};

/// Log lines waiting for stderr at most.
const QUEUED: usize = 1024;

static QUEUE: OnceLock<Sender<Vec<u8>>> = OnceLock::new();
/// Lines handed to the queue, lines written from it, lines dropped.
static SENT: AtomicU64 = AtomicU64::new(0);
static WRITTEN: AtomicU64 = AtomicU64::new(0);
static DROPPED: AtomicU64 = AtomicU64::new(0);

/// What the logger writes to: stderr, through the queue once
/// [`go_async`] has started it.
pub struct LogWriter;

impl Write for LogWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match QUEUE.get() {
            Some(queue) => {
                if queue.try_send(bytes.to_vec()).is_ok() {
                    SENT.fetch_add(1, Ordering::Relaxed);
                } else {
                    DROPPED.fetch_add(1, Ordering::Relaxed);
                }
                Ok(bytes.len())
            }
            None => std::io::stderr().write(bytes),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match QUEUE.get() {
            Some(_) => Ok(()),
            None => std::io::stderr().flush(),
        }
    }
}

/// From now on, log lines go through the queue and its thread (once per
/// process; where the thread cannot be started they stay direct).
pub fn go_async() {
    if QUEUE.get().is_some() {
        return;
    }
    let (sender, receiver) = bounded::<Vec<u8>>(QUEUED);
    let started = std::thread::Builder::new()
        .name("plyd-log".into())
        .spawn(move || {
            let mut stderr = std::io::stderr();
            for bytes in receiver {
                let dropped = DROPPED.swap(0, Ordering::Relaxed);
                if dropped > 0 {
                    let _ = writeln!(
                        stderr,
                        "[plyd: {dropped} log lines dropped: stderr was not read as fast as they came]"
                    );
                }
                let _ = stderr.write_all(&bytes);
                WRITTEN.fetch_add(1, Ordering::Relaxed);
            }
        });
    if started.is_ok() {
        let _ = QUEUE.set(sender);
    }
}

/// End the process with `code` once the lines logged before are written
/// (half a second at most).
pub fn exit(code: i32) -> ! {
    finish(Duration::from_millis(500));
    std::process::exit(code)
}

/// Wait up to `patience` for the queued lines to be written: before the
/// process ends, so that its last lines are not lost.
pub fn finish(patience: Duration) {
    let start = Instant::now();
    while WRITTEN.load(Ordering::Relaxed) < SENT.load(Ordering::Relaxed)
        && start.elapsed() < patience
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}
