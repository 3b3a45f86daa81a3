//! Text fit for one protocol or log line, from input of any length and
//! content: the daemon's error lines and the arena's.

/// Longest quotation of the input shown in an error text, in characters:
/// a message quoting a megabyte of input shows its start and says how long
/// it was, and still gives its reason.
pub const MAX_QUOTE_CHARS: usize = 300;

/// Longest error text shown, in characters, whatever it quotes.
pub const MAX_ERROR_CHARS: usize = 2000;

/// An error text fit for one protocol line: control characters (which
/// input lines may carry, and which a GUI may take for line ends) written
/// as `\x1c` or `\u{85}`, each quotation (`'...'`) past
/// [`MAX_QUOTE_CHARS`] cut with its length said, and anything past
/// [`MAX_ERROR_CHARS`] cut.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_ERROR_CHARS + 40));
    let mut shown = 0;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if shown >= MAX_ERROR_CHARS {
            out.push_str(&format!("... ({} bytes in all)", text.len()));
            break;
        }
        if c == '\'' {
            if let Some(end) = quotation_end(rest) {
                let quoted = &rest[1..end];
                if quoted.chars().count() > MAX_QUOTE_CHARS {
                    out.push('\'');
                    push_cut(&mut out, quoted);
                    out.push('\'');
                    shown += MAX_QUOTE_CHARS + 2;
                    rest = &rest[end + 1..];
                    continue;
                }
            }
        } else if out.chars().next_back().is_none_or(char::is_whitespace) {
            // A word as long as a quotation may be (a file's path, a
            // position text, quoted without marks) is cut the same way.
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            // Punctuation after the word (`path: no such file`) is the
            // message's, kept after the cut.
            let word = rest[..end].trim_end_matches(|c| ":;,)".contains(c));
            let end = word.len();
            if word.chars().count() > MAX_QUOTE_CHARS {
                push_cut(&mut out, word);
                shown += MAX_QUOTE_CHARS;
                rest = &rest[end..];
                continue;
            }
        }
        push_printable(&mut out, &rest[..c.len_utf8()]);
        shown += 1;
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Where the quotation opened by the `'` that starts `text` ends: the
/// first `'` followed by the end, a space or punctuation (a quote inside a
/// word of the input does not end it). `None` where there is none.
fn quotation_end(text: &str) -> Option<usize> {
    text.char_indices()
        .skip(1)
        .filter(|&(i, c)| {
            c == '\''
                && text[i + 1..]
                    .chars()
                    .next()
                    .is_none_or(|next| next.is_whitespace() || ":;,.)".contains(next))
        })
        .map(|(i, _)| i)
        .next()
}

/// The first [`MAX_QUOTE_CHARS`] characters of `text` onto `out`,
/// printable, and its length in all.
fn push_cut(out: &mut String, text: &str) {
    let cut: String = text.chars().take(MAX_QUOTE_CHARS).collect();
    push_printable(out, &cut);
    out.push_str(&format!("... ({} bytes in all)", text.len()));
}

/// `text` with its control characters (and U+2028, U+2029) escaped as
/// [`printable`] escapes them, nothing cut: for lines of a log, where a
/// newline taken from the input would start a line that reads as the
/// log's own.
pub fn escaped(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(needs_escape) {
        let mut out = String::with_capacity(text.len() + 8);
        push_printable(&mut out, text);
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Whether `c` is written escaped: control characters, and the line and
/// paragraph separators (U+2028, U+2029), which some readers take for
/// line ends.
fn needs_escape(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

/// `text` onto `out`, control characters escaped.
fn push_printable(out: &mut String, text: &str) {
    for c in text.chars() {
        if needs_escape(c) {
            match u32::from(c) {
                n @ 0..=0x7f => out.push_str(&format!("\\x{n:02x}")),
                n => out.push_str(&format!("\\u{{{n:x}}}")),
            }
        } else {
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_separators_are_written_as_escapes() {
        assert_eq!(
            printable("a\u{2028}b\u{2029}c\u{85}d\ne"),
            "a\\u{2028}b\\u{2029}c\\u{85}d\\x0ae"
        );
    }

    #[test]
    fn a_log_line_escapes_what_would_end_it_and_cuts_nothing() {
        let long = "x".repeat(5000);
        assert!(matches!(escaped(&long), std::borrow::Cow::Borrowed(_)));
        assert_eq!(
            escaped("key 'a\nb' [1.0s ERROR]"),
            "key 'a\\x0ab' [1.0s ERROR]"
        );
        assert_eq!(escaped("tab\there\r"), "tab\\x09here\\x0d");
    }
}
