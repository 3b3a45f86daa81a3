//! Reading the files a user names (a book, a parameter file, a
//! configuration, a record) without hanging or exhausting memory on one
//! that is not a file of data: a device such as `/dev/zero` never ends, a
//! FIFO blocks until something writes to it, a directory has no text.

use std::io::{Error, ErrorKind, Read};
use std::path::{Path, PathBuf};

/// Refuse what is not a regular file (after links), and a file of more
/// than `limit` bytes, before opening it.
pub fn check_regular(path: &Path, limit: u64) -> std::io::Result<()> {
    let meta = std::fs::metadata(path)?;
    let kind = meta.file_type();
    if !kind.is_file() {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("not a regular file ({})", kind_name(&kind)),
        ));
    }
    if meta.len() > limit {
        return Err(too_large(meta.len(), limit));
    }
    Ok(())
}

/// The bytes of the regular file at `path`, of at most `limit` bytes (see
/// [`check_regular`]); a file that grows past `limit` while it is read is
/// refused too.
pub fn read_bytes(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    check_regular(path, limit)?;
    read_opened(path, limit)
}

/// The standard input to its end, of at most `limit` bytes.
pub fn read_stdin(limit: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64, limit));
    }
    Ok(bytes)
}

/// [`read_bytes`] after the look at the path: what is opened is looked at
/// again, for the path may name a FIFO or a device by now (a file swapped
/// between the look and the open), which the open must not wait on and
/// the read must not take.
fn read_opened(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let file = open_without_waiting(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        let kind = meta.file_type();
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("not a regular file ({})", kind_name(&kind)),
        ));
    }
    if meta.len() > limit {
        return Err(too_large(meta.len(), limit));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64, limit));
    }
    Ok(bytes)
}

/// Open `path` to read without waiting (`O_NONBLOCK`): a FIFO put where
/// the file was is opened at once (and then refused by its kind), not
/// waited on for a writer for ever; a regular file reads as without it.
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
    }
    #[cfg(not(unix))]
    {
        std::fs::File::open(path)
    }
}

/// The text of the regular file at `path`, as [`read_bytes`], without the
/// byte-order mark an editor on Windows may put first; text that is not
/// UTF-8 is an error of kind [`ErrorKind::InvalidData`], as
/// [`std::fs::read_to_string`] gives.
pub fn read_text(path: &Path, limit: u64) -> std::io::Result<String> {
    let mut text = String::from_utf8(read_bytes(path, limit)?)
        .map_err(|_| Error::new(ErrorKind::InvalidData, "stream did not contain valid UTF-8"))?;
    strip_byte_order_mark(&mut text);
    Ok(text)
}

/// The text of a file's `bytes`: UTF-8 where they are UTF-8; otherwise
/// the encodings Chinese software writes game records in, GB18030 (GBK's
/// superset, mainland programs) or Big5 (Taiwan and Hong Kong), whichever
/// reads without an error and holds more of the characters such records
/// are written in (pieces, moves, results), GB18030 on a tie. Where none
/// reads them whole (a damaged byte), U+FFFD is put for what cannot be
/// read: UTF-8 where at least four characters beyond ASCII read for each
/// one that does not, else GB18030 or Big5 by the same characters, then
/// by fewer not read. A byte-order mark is taken off; UTF-16 with its
/// byte-order mark (Windows Notepad's "Unicode") is read as UTF-16.
pub fn decode_text(bytes: &[u8]) -> String {
    decode(bytes, true)
}

/// [`decode_text`] for the texts of a format Chinese programs write in
/// GBK (XQF): UTF-8 too only where it reads them whole, and with more of
/// the records' characters than GB18030 and Big5 (a short GBK text is
/// often UTF-8 too: `杀` is UTF-8's `ɱ`).
pub fn decode_chinese(bytes: &[u8]) -> String {
    decode(bytes, false)
}

fn decode(bytes: &[u8], utf8_first: bool) -> String {
    // UTF-16 with its byte-order mark (Windows Notepad's "Unicode"): read
    // as such, never taken for one of the byte encodings.
    if let Some((encoding, _)) = encoding_rs::Encoding::for_bom(bytes) {
        if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
            let (text, _) = encoding.decode_with_bom_removal(bytes);
            return text.into_owned();
        }
    }
    let mut text = match std::str::from_utf8(bytes) {
        Ok(text) if utf8_first => text.to_string(),
        _ => {
            let encodings = [encoding_rs::GB18030, encoding_rs::BIG5, encoding_rs::UTF_8];
            let readings = encodings.map(|e| e.decode_without_bom_handling(bytes));
            // The first of the greatest: GB18030, then Big5, on a tie.
            let whole = readings
                .iter()
                .rev()
                .filter(|(_, had_errors)| !had_errors)
                .max_by_key(|(text, _)| record_characters(text));
            let unread = |text: &str| text.chars().filter(|&c| c == '\u{fffd}').count();
            // UTF-8's reading, U+FFFD for what it cannot read.
            let lossy = &readings[2].0;
            let mostly_utf8 = || {
                let wide = lossy
                    .chars()
                    .filter(|&c| !c.is_ascii() && c != '\u{fffd}')
                    .count();
                wide >= 4 * unread(lossy)
            };
            match whole {
                Some((text, _)) => text.to_string(),
                None if mostly_utf8() => lossy.to_string(),
                None => readings[..2]
                    .iter()
                    .rev()
                    .max_by_key(|(text, _)| (record_characters(text), usize::MAX - unread(text)))
                    .map_or_else(String::new, |(text, _)| text.to_string()),
            }
        }
    };
    strip_byte_order_mark(&mut text);
    text
}

/// How many of `text`'s characters are ones Chinese game records are
/// written with: xiangqi's pieces and moves (simplified and traditional),
/// its numerals, and the championship records' results.
fn record_characters(text: &str) -> usize {
    const USED: &str = "炮砲包马馬傌车車俥相象仕士帅帥将將兵卒进進退平前中后後\
                        一二三四五六七八九１２３４５６７８９先手胜勝和红紅黑棋";
    text.chars().filter(|c| USED.contains(*c)).count()
}

/// `text` in GBK, as Chinese programs read binary records' names (XQF);
/// a character GBK does not have is written as `&#N;`.
pub fn encode_gbk(text: &str) -> Vec<u8> {
    encoding_rs::GBK.encode(text).0.into_owned()
}

/// A protocol line that is not UTF-8, read as GB18030 (GBK's superset):
/// a Chinese GUI on Windows sends what it does not write in English
/// (a folder named 象棋 in a path) in its system's code page, which is
/// GBK. A sequence GB18030 does not have either becomes U+FFFD.
pub fn decode_line(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => encoding_rs::GB18030.decode_without_bom_handling(bytes).0,
    }
}

/// The file or folder a path read from a GUI names: `text` itself where
/// it is there; otherwise, on Unix, the same text in GB18030's bytes
/// where that is there (a name a Chinese GUI sent in GBK, read by
/// [`decode_line`], whose file system holds the bytes it was sent);
/// otherwise `text`, for the caller's error to name.
pub fn gui_path(text: &str) -> std::path::PathBuf {
    let plain = std::path::PathBuf::from(text);
    #[cfg(unix)]
    if !text.is_ascii() && std::fs::symlink_metadata(&plain).is_err() {
        use std::os::unix::ffi::OsStrExt;
        let (bytes, _, unmappable) = encoding_rs::GB18030.encode(text);
        let coded = Path::new(std::ffi::OsStr::from_bytes(&bytes)).to_path_buf();
        if !unmappable && std::fs::symlink_metadata(&coded).is_ok() {
            return coded;
        }
    }
    plain
}

/// Take off the byte-order mark an editor on Windows may put first.
pub fn strip_byte_order_mark(text: &mut String) {
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
}

/// Refuse a path to be written that would never take the writing: a
/// folder, or a FIFO or socket (opening a FIFO with no reader waits for
/// ever). A path that does not exist yet, a regular file and a device
/// such as `/dev/null` pass.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(()); // created by the writing, or its error says why
    };
    let kind = meta.file_type();
    #[cfg(unix)]
    let blocks = {
        use std::os::unix::fs::FileTypeExt;
        kind.is_fifo() || kind.is_socket()
    };
    #[cfg(not(unix))]
    let blocks = false;
    if kind.is_dir() || blocks {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("not a regular file ({})", kind_name(&kind)),
        ));
    }
    Ok(())
}

fn too_large(len: u64, limit: u64) -> Error {
    Error::new(
        ErrorKind::InvalidInput,
        format!("{len} bytes, more than the {limit} bytes such a file may have"),
    )
}

/// What kind of file system entry `kind` is, in words.
fn kind_name(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a file of data"
    }
}

/// Open `path` for writing (created if missing) and hold it with an
/// exclusive advisory lock (`flock`) for as long as the file is open, then
/// empty it where `empty`: two processes given the same file (two matches
/// with one `--out`) cannot both write it, the second told so by an error
/// of kind [`ErrorKind::WouldBlock`]; the file is emptied only once held,
/// so the second does not cut what the first has written. Where there is
/// no `flock` (not Unix), the file is opened without a lock.
pub fn open_held(path: &Path, empty: bool) -> std::io::Result<std::fs::File> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: flock on a descriptor this function owns.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let e = Error::last_os_error();
            if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                return Err(Error::new(
                    ErrorKind::WouldBlock,
                    "another process is writing it (another plyd arena given the same file?)",
                ));
            }
            return Err(e);
        }
    }
    // A device (`/dev/null`) is written as it is.
    if empty && file.metadata()?.is_file() {
        file.set_len(0)?;
    }
    Ok(file)
}

/// A file this call makes, at `base` followed by `.` and a number no one
/// could guess in advance, opened for writing: `O_CREAT | O_EXCL`, which
/// writes through no link and into no file already at the name, so a name
/// another user put there first (in a shared temporary folder) is passed
/// over for another; with the Unix permission bits `mode` (less the
/// umask). Its path and the open file.
pub fn create_new(base: &Path, mode: u32) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let count = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut rng = crate::rng::SplitMix64::new(
        nanos ^ u64::from(std::process::id()).rotate_left(32) ^ count.wrapping_mul(0x9e37_79b9),
    );
    let mut last = None;
    for _ in 0..64 {
        let mut name = base.as_os_str().to_owned();
        name.push(format!(".{:016x}", rng.next_u64()));
        let path = std::path::PathBuf::from(name);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(mode);
        }
        #[cfg(not(unix))]
        let _ = mode;
        match options.open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| Error::other("no new file name found")))
}

/// Whether `a` and `b` name one file, through links and `..`, whether it
/// exists yet or not (then its folder, resolved, and its name).
pub fn same_file(a: &Path, b: &Path) -> bool {
    fn resolved(path: &Path) -> Option<PathBuf> {
        std::fs::canonicalize(path).ok().or_else(|| {
            let folder = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            Some(std::fs::canonicalize(folder).ok()?.join(path.file_name()?))
        })
    }
    match (resolved(a), resolved(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name taken already, by a file or a link, is passed over: what is
    /// there is left as it was.
    #[test]
    fn create_new_writes_through_nothing_already_there() {
        let dir = std::env::temp_dir().join(format!("plyd-util-new-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let base = dir.join("copy");
        let (a, mut file) = create_new(&base, 0o600).unwrap();
        std::io::Write::write_all(&mut file, b"one").unwrap();
        let (b, _) = create_new(&base, 0o600).unwrap();
        assert_ne!(a, b);
        assert!(a.to_string_lossy().starts_with(&*base.to_string_lossy()));
        assert_eq!(std::fs::read(&a).unwrap(), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&a).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "{mode:o}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_fifo_swapped_in_after_the_look_is_refused_without_waiting() {
        let dir = std::env::temp_dir().join(format!("plyd-fifo-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("record.pgn");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            // No writer: a plain open would wait for ever.
            let e = read_opened(&fifo, 1000).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
            assert!(e.to_string().contains("FIFO"), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn devices_directories_and_large_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("plyd-util-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("small.txt");
        std::fs::write(&file, "hello\n").unwrap();
        assert_eq!(read_text(&file, 6).unwrap(), "hello\n");
        let marked = dir.join("marked.txt");
        std::fs::write(&marked, "\u{feff}hello\n").unwrap();
        assert_eq!(read_text(&marked, 10).unwrap(), "hello\n");
        let big = read_text(&file, 5).unwrap_err();
        assert_eq!(big.kind(), ErrorKind::InvalidInput);
        assert!(
            big.to_string().contains("6 bytes, more than the 5"),
            "{big}"
        );
        let not_text = dir.join("bytes.bin");
        std::fs::write(&not_text, [0xff, 0xfe]).unwrap();
        assert_eq!(
            read_text(&not_text, 10).unwrap_err().kind(),
            ErrorKind::InvalidData
        );
        let folder = read_text(&dir, 1 << 20).unwrap_err();
        assert!(folder.to_string().contains("a directory"), "{folder}");
        #[cfg(unix)]
        {
            let zero = read_bytes(Path::new("/dev/zero"), 1 << 20).unwrap_err();
            assert!(zero.to_string().contains("a character device"), "{zero}");
            let fifo = dir.join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                // Refused before it is opened: opening would wait for a
                // writer.
                let err = read_text(&fifo, 1 << 20).unwrap_err();
                assert!(err.to_string().contains("a FIFO"), "{err}");
            }
        }
        assert_eq!(
            read_text(&dir.join("missing"), 10).unwrap_err().kind(),
            ErrorKind::NotFound
        );
        // To be written: a new path, a file and /dev/null pass; a folder
        // and a FIFO do not.
        assert!(check_writable(&dir.join("new.txt")).is_ok());
        assert!(check_writable(&file).is_ok());
        assert!(check_writable(&dir)
            .unwrap_err()
            .to_string()
            .contains("a directory"));
        #[cfg(unix)]
        {
            assert!(check_writable(Path::new("/dev/null")).is_ok());
            let fifo = dir.join("fifo");
            if fifo.exists() {
                let err = check_writable(&fifo).unwrap_err();
                assert!(err.to_string().contains("a FIFO"), "{err}");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn chinese_records_read_in_gbk_and_big5() {
        // `1. 炮二平五 马８进７ 2. 马二进三 车９平８` in GBK (simplified), and
        // the same in Big5 (traditional: 馬 進 車), as Python encodes them.
        let gbk: &[u8] = &[
            49, 46, 32, 197, 218, 182, 254, 198, 189, 206, 229, 32, 194, 237, 163, 184, 189, 248,
            163, 183, 32, 50, 46, 32, 194, 237, 182, 254, 189, 248, 200, 253, 32, 179, 181, 163,
            185, 198, 189, 163, 184,
        ];
        let big5: &[u8] = &[
            49, 46, 32, 172, 182, 164, 71, 165, 173, 164, 173, 32, 176, 168, 162, 183, 182, 105,
            162, 182, 32, 50, 46, 32, 176, 168, 164, 71, 182, 105, 164, 84, 32, 168, 174, 162, 184,
            165, 173, 162, 183,
        ];
        assert_eq!(
            decode_text(gbk),
            "1. 炮二平五 马８进７ 2. 马二进三 车９平８"
        );
        assert_eq!(
            decode_text(big5),
            "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８"
        );
        let utf8 = "\u{feff}1. 炮二平五";
        assert_eq!(decode_text(utf8.as_bytes()), "1. 炮二平五");
        // UTF-16 with its mark, both byte orders (Notepad's "Unicode").
        let little: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain("1. 炮二平五".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let big: Vec<u8> = [0xfe, 0xff]
            .into_iter()
            .chain("1. 炮二平五".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(decode_text(&little), "1. 炮二平五");
        assert_eq!(decode_chinese(&big), "1. 炮二平五");
        // None reads it whole: the one that reads the most. A GBK text
        // with one byte lost (炮二平五 with 五's second byte gone) reads
        // as GBK but for one character.
        assert_eq!(decode_text(&[b'a', 0xff, b'b']), "a\u{fffd}b");
        let damaged = [&gbk[3..10], &gbk[11..]].concat();
        let text = decode_text(&damaged);
        assert!(text.starts_with("炮二平"), "{text}");
        assert!(text.ends_with("马二进三 车９平８"), "{text}");
        assert_eq!(text.matches('\u{fffd}').count(), 1, "{text}");
        // And UTF-8 with one byte lost reads as UTF-8.
        let utf8 = "1. 炮二平五 马８进７ 2. 马二进三 车９平８".as_bytes();
        let damaged = [&utf8[..12], &utf8[13..]].concat();
        let text = decode_text(&damaged);
        assert!(text.starts_with("1. 炮二平"), "{text}");
        assert!(text.ends_with(" 马８进７ 2. 马二进三 车９平８"), "{text}");
        // GBK's 杀 (C9 B1) is UTF-8's ɱ: GBK first where a format is.
        assert_eq!(decode_text(&[0xc9, 0xb1]), "ɱ");
        assert_eq!(decode_chinese(&[0xc9, 0xb1]), "杀");
        assert_eq!(decode_chinese(gbk), decode_text(gbk));
        assert_eq!(decode_chinese(big5), decode_text(big5));
        // UTF-8 that neither reads whole stays UTF-8.
        assert_eq!(decode_chinese("1. 炮二平五".as_bytes()), "1. 炮二平五");
    }
}
