//! Standard input, read on a thread of its own: one line at a time, each
//! capped in length, sent to the controller as an [`Input`].

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crossbeam_channel::Sender;

/// One line of input, or its end.
pub(crate) enum Input {
    /// A line, with when it was read: a search it asks for starts its
    /// clock there (see [`super::controller::Controller::line_arrived`]),
    /// and its share of the queue's bytes, given back when it is dropped
    /// (as the controller takes it).
    Line(String, Instant, Held),
    /// A line over [`MAX_LINE_BYTES`], skipped: its length.
    TooLong(usize),
    Eof,
}

/// Set when the input has ended or a `quit` was read, before the
/// controller comes to it: a command it is waiting on meanwhile (NBoard's
/// `ping` waits for `learn`) gives way, so that the daemon ends.
pub(crate) static INPUT_ENDS: AtomicBool = AtomicBool::new(false);

/// Read standard input until its end, sending each line to `lines`.
pub(super) fn read_stdin(lines: Sender<Input>) {
    let stdin = std::io::stdin();
    let mut reader = stdin.lock();
    let mut after_cr = false;
    loop {
        let input = match read_line_capped(&mut reader, MAX_LINE_BYTES, &mut after_cr) {
            Ok(Line::End) | Err(_) => {
                crate::search::tt::STOP_MAPPING.store(true, Ordering::Relaxed);
                INPUT_ENDS.store(true, Ordering::Relaxed);
                Input::Eof
            }
            // A line that is not UTF-8 is read as GB18030 (see
            // `decode_line`); what neither reads the parser reports.
            Ok(Line::Text(bytes)) => {
                // A UTF-8 byte-order mark before a line (a judge's input
                // file saved by an editor that writes one; a client that
                // opens a new UTF-8 writer, mark and all, for each
                // command) is not part of the command: the first line's
                // was passed over, a later one's made `isready` an
                // unknown command, its `readyok` never coming.
                let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes[..]);
                let line = plyd_util::files::decode_line(text);
                if let std::borrow::Cow::Owned(_) = line {
                    log::info!("an input line is not UTF-8: read as GB18030 (GBK)");
                }
                // The daemon is to end: a table being mapped for a `Hash`
                // need not be finished first.
                if line.trim() == "quit" {
                    crate::search::tt::STOP_MAPPING.store(true, Ordering::Relaxed);
                    INPUT_ENDS.store(true, Ordering::Relaxed);
                }
                let line = line.into_owned();
                let held = Held::take(line.len(), QUEUED_BYTES);
                Input::Line(line, Instant::now(), held)
            }
            Ok(Line::TooLong(bytes)) => Input::TooLong(bytes),
        };
        let end = matches!(input, Input::Eof);
        if lines.send(input).is_err() || end {
            return;
        }
    }
}

/// The most bytes of lines read and not yet handled: past it the reader
/// waits, and the rest of the input waits in the pipe. The queue's count
/// of lines alone let 4,096 lines of 8 MiB each be read ahead (two
/// thousand megabytes in 6 s, then an abort).
const QUEUED_BYTES: usize = 32 << 20;

/// The bytes of the lines queued, and the reader's wait for room.
static QUEUED: (parking_lot::Mutex<usize>, parking_lot::Condvar) =
    (parking_lot::Mutex::new(0), parking_lot::Condvar::new());

/// A queued line's share of [`QUEUED_BYTES`], given back when dropped.
pub(crate) struct Held(usize);

impl Held {
    /// Take `bytes` of the queue's room, waiting while the lines queued
    /// hold more than `cap` with them (a line alone is always taken).
    fn take(bytes: usize, cap: usize) -> Held {
        let (count, room) = &QUEUED;
        let mut queued = count.lock();
        while *queued > 0 && *queued + bytes > cap {
            room.wait(&mut queued);
        }
        *queued += bytes;
        Held(bytes)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let (count, room) = &QUEUED;
        *count.lock() -= self.0;
        room.notify_all();
    }
}

/// Longest input line read, in bytes: a `position` line of 100,000 moves
/// fits several times over. Longer lines are skipped unread, so a runaway
/// writer cannot make the daemon hold its output in memory.
pub(super) const MAX_LINE_BYTES: usize = 8 << 20;

/// One line from [`read_line_capped`].
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// The line, without its end.
    Text(Vec<u8>),
    /// A line of this many bytes, over the cap, skipped.
    TooLong(usize),
    /// The end of the input.
    End,
}

/// Read one line (ending at `\n`, `\r\n`, a lone `\r` or the end of
/// input) of at most `cap` bytes; a longer one is read to its end and
/// thrown away. `after_cr`: the line before ended at a `\r`, so a `\n`
/// first is that line's end (`\r\n`), not an empty line; a client that
/// ends its lines with `\r` alone (old Mac files) had its lines run into
/// one, all but the first command lost.
fn read_line_capped(
    reader: &mut impl BufRead,
    cap: usize,
    after_cr: &mut bool,
) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut length = 0usize;
    let mut any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        if std::mem::take(after_cr) && buf[0] == b'\n' {
            reader.consume(1);
            continue;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => {
                *after_cr = buf[i] == b'\r';
                (&buf[..i], Some(i + 1))
            }
            None => (buf, None),
        };
        length += chunk.len();
        if length <= cap {
            line.extend_from_slice(chunk);
        } else if !line.is_empty() {
            line = Vec::new();
        }
        let used = done.unwrap_or(buf.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    Ok(match (any, length <= cap) {
        (false, _) => Line::End,
        (true, true) => Line::Text(line),
        (true, false) => Line::TooLong(length),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_holds_lines_up_to_its_bytes() {
        // A line alone is taken whatever its size; a second waits until
        // room is given back.
        let first = Held::take(900, 1000);
        let (tx, rx) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            let second = Held::take(200, 1000);
            tx.send(()).unwrap();
            drop(second);
        });
        assert!(rx
            .recv_timeout(std::time::Duration::from_millis(200))
            .is_err());
        drop(first);
        rx.recv_timeout(std::time::Duration::from_secs(10))
            .expect("the second line was taken once the first was handled");
        waiter.join().unwrap();
        assert_eq!(*QUEUED.0.lock(), 0);
    }

    #[test]
    fn lines_over_the_cap_are_skipped_and_the_next_one_read() {
        let input = format!("isready\n{}\nuci\r\n{}", "x".repeat(100), "y".repeat(10));
        // A small buffer, so lines span several reads.
        let mut reader = std::io::BufReader::with_capacity(7, input.as_bytes());
        let mut after_cr = false;
        let mut read = || read_line_capped(&mut reader, 16, &mut after_cr).unwrap();
        assert_eq!(read(), Line::Text(b"isready".to_vec()));
        assert_eq!(read(), Line::TooLong(100));
        assert_eq!(read(), Line::Text(b"uci".to_vec()));
        assert_eq!(read(), Line::Text(b"yyyyyyyyyy".to_vec()));
        assert_eq!(read(), Line::End);
    }

    /// Lines ended by `\r` alone are lines, `\r\n` is one end (split
    /// across reads too), and an empty line between two ends is kept.
    #[test]
    fn a_lone_cr_ends_a_line_and_crlf_ends_one() {
        for capacity in [1, 2, 3, 64] {
            let input = "uci\risready\r\ngo movetime 50\r\r\nquit\n";
            let mut reader = std::io::BufReader::with_capacity(capacity, input.as_bytes());
            let mut after_cr = false;
            let mut read = || read_line_capped(&mut reader, 64, &mut after_cr).unwrap();
            for expected in ["uci", "isready", "go movetime 50", "", "quit"] {
                assert_eq!(
                    read(),
                    Line::Text(expected.as_bytes().to_vec()),
                    "{capacity}"
                );
            }
            assert_eq!(read(), Line::End, "{capacity}");
        }
    }
}
