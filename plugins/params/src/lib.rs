//! Evaluator parameters in TOML, for plugins written in Rust.
//!
//! An evaluator's weights and tables live in a TOML file that ships with the
//! plugin as its default and that users copy and edit. A person tuning
//! weights needs to know exactly which key is wrong, so every error here
//! names the key (`weights.mobility`, `squares[3]`) and says what was
//! expected and what was found:
//!
//! ```text
//! key 'weights.mobility': expected a number, found a string "x"
//! ```
//!
//! The host puts the file name in front. Parameter structs derive
//! `serde::Deserialize` with `#[serde(deny_unknown_fields)]`, so a misspelt
//! key is an error instead of a silently ignored line.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;
use std::ops::Range;

use serde::de::DeserializeOwned;

/// Why a parameter text was refused: one line for the user.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamsError {
    /// The key the error is about (`weights.mobility`), when known.
    pub key: Option<String>,
    /// Line number (from 1), when the key is not known but the place is.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.key, self.line) {
            (Some(key), _) => write!(f, "key '{key}': {}", self.message),
            (None, Some(line)) => write!(f, "line {line}: {}", self.message),
            (None, None) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ParamsError {}

impl ParamsError {
    /// An error about `key` (for range checks after parsing).
    pub fn at_key(key: &str, message: impl Into<String>) -> Self {
        ParamsError {
            key: Some(key.to_string()),
            line: None,
            message: message.into(),
        }
    }
}

/// Parse parameter text into `T`.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, ParamsError> {
    toml::from_str(text).map_err(|e: toml::de::Error| {
        // One line: the reader's message may hold several.
        let joined = e
            .message()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("; ");
        let mut message = reword(&joined);
        let span = e.span();
        let missing = message
            .strip_prefix("missing field `")
            .and_then(|rest| rest.strip_suffix('`'))
            .map(str::to_string);
        let key = match missing {
            // A missing key's place is its table (from its header, or the
            // whole file), not a key in it: name the table and the key.
            Some(field) => {
                message = "missing".to_string();
                Some(
                    match span.as_ref().and_then(|span| {
                        owner_of_missing::<T>(text, span.start, &field)
                            .or_else(|| table_at(text, span.start))
                            .or_else(|| {
                                // An inline table (`d0 = { mg = -20 }`): named
                                // by its key.
                                text[span.start..]
                                    .starts_with('{')
                                    .then(|| key_at(text, span.clone()))
                                    .flatten()
                            })
                    }) {
                        Some(table) if table.is_empty() => field,
                        Some(table) => format!("{table}.{field}"),
                        None => field,
                    },
                )
            }
            None => span.clone().and_then(|span| key_at(text, span)),
        };
        let line = span.map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1);
        ParamsError { key, line, message }
    })
}

/// Check that `value` of `key` lies in `[min, max]`.
pub fn check_range<N>(key: &str, value: N, min: N, max: N) -> Result<N, ParamsError>
where
    N: PartialOrd + fmt::Display + Copy,
{
    if value >= min && value <= max {
        Ok(value)
    } else {
        Err(ParamsError::at_key(
            key,
            format!("{value} is outside [{min}, {max}]"),
        ))
    }
}

/// serde says `invalid type: string "x", expected f64`; a person tuning
/// weights reads `expected a number, found a string "x"` more easily. Other
/// messages pass through unchanged.
fn reword(message: &str) -> String {
    let Some(rest) = message.strip_prefix("invalid type: ") else {
        return message.to_string();
    };
    let Some((found, expected)) = rest.rsplit_once(", expected ") else {
        return message.to_string();
    };
    let expected = match expected {
        "f64" | "f32" => "a number",
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" => "an integer",
        "a boolean" | "bool" => "true or false",
        other => other,
    };
    let found = describe_found(found);
    format!("expected {expected}, found {found}")
}

/// The longest string value an error quotes.
const STRING_QUOTED: usize = 12;

/// serde's name for what it found, in the words of a TOML file.
fn describe_found(found: &str) -> String {
    let kinds = [
        ("floating point ", "a number "),
        ("integer ", "an integer "),
        ("string ", "a string "),
        ("boolean ", "a boolean "),
        ("sequence", "an array"),
        ("map", "a table"),
    ];
    for (serde_kind, toml_kind) in kinds {
        if let Some(value) = found.strip_prefix(serde_kind) {
            let value = value.replace('`', "");
            // A long string is not quoted: a parameter file named by the
            // protocol may be any file, a key in it (`token =
            // "sk-live-..."`) shown to whoever named it.
            let chars = value.trim_matches('"').chars().count();
            if serde_kind == "string " && chars > STRING_QUOTED {
                return format!("a string of {chars} characters");
            }
            return format!("{toml_kind}{value}");
        }
    }
    found.replace('`', "")
}

/// The dotted name of the table whose header starts at byte `at` of
/// `text` (`None`: none does, the top of the file).
fn table_at(text: &str, at: usize) -> Option<String> {
    fn find(table: &toml_edit::Table, at: usize, path: &mut Vec<String>) -> bool {
        for (name, item) in table.iter() {
            if let toml_edit::Item::Table(inner) = item {
                push_key(path, name);
                if inner.span().is_some_and(|s| s.start == at) || find(inner, at, path) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let mut path = Vec::new();
    find(doc.as_table(), at, &mut path).then(|| path.join(""))
}

/// The table a missing key `field` belongs in, where the error's byte
/// `at` is the start of more than one table (the whole file, and a table
/// whose header opens it): each is given the key in turn, and the one
/// whose addition ends this error (and is not refused as unknown there) is
/// named (the whole file as the empty name), `None` if not exactly one.
fn owner_of_missing<T: DeserializeOwned>(text: &str, at: usize, field: &str) -> Option<String> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let mut tables: Vec<(String, usize)> = Vec::new();
    fn collect(table: &toml_edit::Table, at: usize, path: &str, out: &mut Vec<(String, usize)>) {
        for (name, item) in table.iter() {
            if let toml_edit::Item::Table(inner) = item {
                let named = if path.is_empty() {
                    name.to_string()
                } else {
                    format!("{path}.{name}")
                };
                if let Some(span) = inner.span().filter(|s| s.start == at) {
                    out.push((named.clone(), span.start));
                }
                collect(inner, at, &named, out);
            }
        }
    }
    collect(doc.as_table(), at, "", &mut tables);
    if tables.is_empty() {
        return None;
    }
    let line = format!("{field} = 0\n");
    // Not the owner: the key is still missing there, or is not known there.
    let still_missing = |probe: &str, shift: usize| match toml::from_str::<T>(probe) {
        Ok(_) => false,
        Err(e) => {
            let message = e.message().trim();
            (message == format!("missing field `{field}`")
                && e.span().map(|s| s.start) == Some(at + shift))
                || message.starts_with(&format!("unknown field `{field}`"))
        }
    };
    let mut owners = Vec::new();
    // The whole file: its own keys come before any header.
    if !still_missing(&format!("{line}{text}"), line.len()) {
        owners.push(String::new());
    }
    for (path, start) in tables {
        // After the header's line.
        let end = text[start..]
            .find('\n')
            .map_or(text.len(), |i| start + i + 1);
        let probe = if end == text.len() && !text.ends_with('\n') {
            format!("{text}\n{line}")
        } else {
            format!("{}{line}{}", &text[..end], &text[end..])
        };
        if !still_missing(&probe, 0) {
            owners.push(path);
        }
    }
    (owners.len() == 1).then(|| owners.remove(0))
}

/// The dotted path of the key whose name or value covers byte `span.start`.
fn key_at(text: &str, span: Range<usize>) -> Option<String> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let mut path = Vec::new();
    find_in_table(doc.as_table(), span.start, &mut path).then(|| path.join(""))
}

fn covers(span: Option<Range<usize>>, at: usize) -> bool {
    span.is_some_and(|s| s.contains(&at) || (s.is_empty() && s.start == at))
}

fn push_key(path: &mut Vec<String>, key: &str) {
    if path.is_empty() {
        path.push(key.to_string());
    } else {
        path.push(format!(".{key}"));
    }
}

fn find_in_table(table: &toml_edit::Table, at: usize, path: &mut Vec<String>) -> bool {
    for (name, _) in table.iter() {
        let Some((key, item)) = table.get_key_value(name) else {
            continue;
        };
        push_key(path, name);
        let found = match item {
            // A table's header may be far from its keys, so look inside
            // whatever its own span says.
            toml_edit::Item::Table(inner) => {
                find_in_table(inner, at, path) || covers(key.span(), at)
            }
            toml_edit::Item::ArrayOfTables(tables) => {
                tables.iter().enumerate().any(|(i, inner)| {
                    path.push(format!("[{i}]"));
                    let found = find_in_table(inner, at, path);
                    if !found {
                        path.pop();
                    }
                    found
                }) || covers(key.span(), at)
            }
            toml_edit::Item::Value(value) => {
                covers(key.span(), at) || find_in_value(value, at, path)
            }
            toml_edit::Item::None => false,
        };
        if found {
            return true;
        }
        path.pop();
    }
    false
}

/// Whether `value` covers `at`, extending `path` to the innermost element.
fn find_in_value(value: &toml_edit::Value, at: usize, path: &mut Vec<String>) -> bool {
    if !covers(value.span(), at) {
        return false;
    }
    match value {
        toml_edit::Value::Array(array) => {
            for (i, element) in array.iter().enumerate() {
                path.push(format!("[{i}]"));
                if find_in_value(element, at, path) {
                    return true;
                }
                path.pop();
            }
        }
        toml_edit::Value::InlineTable(table) => {
            for (name, _) in table.iter() {
                if let Some((key, toml_edit::Item::Value(inner))) = table.get_key_value(name) {
                    push_key(path, name);
                    if covers(key.span(), at) || find_in_value(inner, at, path) {
                        return true;
                    }
                    path.pop();
                }
            }
        }
        _ => {}
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Weights {
        mobility: f64,
        corners: i32,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Params {
        scale: i32,
        weights: Weights,
        table: Vec<Vec<i32>>,
    }

    const GOOD: &str =
        "scale = 100\ntable = [[1, 2], [3, 4]]\n\n[weights]\nmobility = 0.5\ncorners = 3\n";

    #[test]
    fn a_missing_key_is_named_with_its_table() {
        let err = |text: &str| parse::<Params>(text).unwrap_err().to_string();
        for (text, missing) in [
            (
                "table = [[1]]\n\n[weights]\nmobility = 0.5\ncorners = 3\n",
                "scale",
            ),
            (
                "scale = 1\n\n[weights]\nmobility = 0.5\ncorners = 3\n",
                "table",
            ),
            (
                "scale = 1\ntable = [[1]]\n\n[weights]\nmobility = 0.5\n",
                "weights.corners",
            ),
            (
                "scale = 1\ntable = [[1]]\n\n[weights]\ncorners = 3\n",
                "weights.mobility",
            ),
            ("scale = 1\ntable = [[1]]\n", "weights"),
            // A file that starts with a table: a missing key of the whole
            // file is not the table's.
            ("[weights]\nmobility = 0.5\ncorners = 3\n", "scale"),
            ("[weights]\nmobility = 0.5\n", "weights.corners"),
            // An inline table is named by its key.
            (
                "scale = 1\ntable = [[1]]\nweights = { mobility = 0.5 }\n",
                "weights.corners",
            ),
        ] {
            assert_eq!(err(text), format!("key '{missing}': missing"), "{text}");
        }
    }

    #[test]
    fn good_text_parses() {
        let p: Params = parse(GOOD).unwrap();
        assert_eq!(p.scale, 100);
        assert_eq!(p.weights.mobility, 0.5);
        assert_eq!(p.table[1][0], 3);
    }

    #[test]
    fn a_wrong_type_names_the_dotted_key() {
        let text = GOOD.replace("mobility = 0.5", "mobility = \"x\"");
        let e = parse::<Params>(&text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "key 'weights.mobility': expected a number, found a string \"x\""
        );
        let text = GOOD.replace("corners = 3", "corners = 2.5");
        let e = parse::<Params>(&text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "key 'weights.corners': expected an integer, found a number 2.5"
        );
        // A long string is counted, not quoted (a key in a file that is
        // not one of parameters).
        let text = GOOD.replace("mobility = 0.5", "mobility = \"sk-live-SECRET-VALUE\"");
        let e = parse::<Params>(&text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "key 'weights.mobility': expected a number, found a string of 20 characters"
        );
    }

    #[test]
    fn an_array_element_is_named_by_index() {
        let text = GOOD.replace("[3, 4]", "[3, true]");
        let e = parse::<Params>(&text).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("table[1][1]"), "{e}");
        assert!(e.message.contains("expected an integer"), "{e}");
    }

    #[test]
    fn unknown_and_missing_keys_are_named() {
        let text = GOOD.replace("corners = 3", "corners = 3\ncorner = 4");
        let e = parse::<Params>(&text).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("weights.corner"), "{e}");
        assert!(e.message.contains("unknown field `corner`"), "{e}");
        let text = GOOD.replace("scale = 100\n", "");
        let e = parse::<Params>(&text).unwrap_err();
        assert_eq!(e.to_string(), "key 'scale': missing", "{e}");
    }

    #[test]
    fn a_syntax_error_names_the_line() {
        let e = parse::<Params>("scale = 100\nweights = [\n").unwrap_err();
        assert!(e.key.is_none() || e.line.is_some(), "{e:?}");
        assert!(e.line.is_some(), "{e:?}");
    }

    #[test]
    fn range_checks_name_the_key() {
        assert_eq!(check_range("weights.mobility", 0.5, 0.0, 1.0), Ok(0.5));
        assert_eq!(
            check_range("weights.mobility", 1.5, 0.0, 1.0)
                .unwrap_err()
                .to_string(),
            "key 'weights.mobility': 1.5 is outside [0, 1]"
        );
    }
}
