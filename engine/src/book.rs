//! Opening books: positions with a score for each of their moves, built by
//! plyd's own searches and played from at the root (`OwnBook`, `BookFile`).
//!
//! A book knows no game: a position is its text as the plugin writes it
//! (`position_text`), a move its text as the plugin spells it, a score the
//! search's, for the side to move, in the evaluator's units. Building one
//! ([`BookBuilder`]) scores every move of a position with a search of the
//! position restricted to that move, then goes on from the moves within a
//! margin of the best. [`negamax`] then carries the scores back from the
//! leaves, as Edax and Egaroucid build theirs: a move that leads to a
//! position of the book takes that position's best score (negated when the
//! side to move changes), so the root's choice rests on the deepest lines
//! the book holds rather than on one search.
//!
//! # File format
//!
//! Text, one position a line, sorted so that rebuilding gives the same
//! file:
//!
//! ```text
//! plyd-book 1 othello
//! 8/8/8/3OX3/3XO3/8/8/8 b<TAB>f5 -31 12<TAB>e6 -31 12<TAB>c4 -31 12<TAB>d3 -31 12
//! ```
//!
//! The first line names the format version and the game variant; each
//! following line is a position's text, then one field per move: the move,
//! its score and the depth it was searched to, separated by spaces. Lines
//! starting with `#` and empty lines are skipped, except `# start moves
//! as spelled: ...`, the notation the book's moves are in (see
//! [`Book::notation_refusal`]).

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::host::{Evaluator, GameState, Outcome, PluginError};
use crate::search::{
    self, SearchControl, SearchEvent, SearchLimits, SearchOptions, TranspositionTable,
};

/// A book shared between the daemon, a search playing from it and a
/// `learn` adding to it; `None` until `BookFile` names one.
pub type SharedBook = Arc<parking_lot::RwLock<Option<Book>>>;

/// The first word of a book file.
const MAGIC: &str = "plyd-book";
/// The format version this build reads and writes.
const VERSION: u32 = 1;

/// One move of a book position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookMove {
    /// The move, as the plugin spells it.
    pub mv: String,
    /// Its score for the side to move, in the evaluator's units.
    pub score: i32,
    /// The depth it was searched to.
    pub depth: u32,
}

/// An opening book of one game variant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Book {
    game: String,
    positions: HashMap<String, Vec<BookMove>>,
    /// The first moves of the game's start position as the game spelled
    /// them when the book was written (empty where not known): the move
    /// notation the book's text is in (see [`Book::notation_refusal`]).
    spelled: Vec<String>,
    /// The evaluator whose searches scored the book, where known (a book
    /// written before it was kept knows none): another's scores are in
    /// another scale, and the two are not mixed.
    scored_by: Option<String>,
    /// The positions by the game's hash of them, made as the daemon opens
    /// the book ([`Book::unreadable`]), else at the first position whose
    /// text the book lacks (see [`Book::moves_at`]).
    by_hash: HashIndex,
}

/// [`Book::positions`]' keys by the game's hash of each position: a cache,
/// made again after the book changes, which a book's equality ignores.
#[derive(Debug, Clone, Default)]
struct HashIndex(OnceLock<HashMap<u64, String>>);

impl PartialEq for HashIndex {
    fn eq(&self, _: &HashIndex) -> bool {
        true
    }
}

impl Eq for HashIndex {}

/// The comment line that keeps [`Book::spelled`] (a comment, which a
/// reader that knows nothing of it skips).
const SPELLED: &str = "# start moves as spelled:";
/// The comment line naming the evaluator whose searches scored the book.
const SCORED_BY: &str = "# scored by evaluator";
/// How many of the start's moves are kept spelled.
const SPELLED_MOVES: usize = 8;
/// What a book takes in memory once read, in bytes a byte of its file:
/// its text while it is read, then its positions and moves held (a 30 MiB
/// book added 183 MiB resident).
const HELD_PER_FILE_BYTE: u64 = 8;

impl Book {
    /// An empty book of `game`.
    pub fn new(game: &str) -> Book {
        Book {
            game: game.to_string(),
            positions: HashMap::new(),
            spelled: Vec::new(),
            scored_by: None,
            by_hash: HashIndex::default(),
        }
    }

    /// The evaluator whose searches scored the book, where known.
    pub fn scored_by(&self) -> Option<&str> {
        self.scored_by.as_deref()
    }

    /// Note that `evaluator`'s searches are to extend the book: taken as
    /// its scorer where it has none, refused where another scored it (its
    /// scores are in another scale: a move of one would be preferred to
    /// the other's for the units alone).
    pub fn note_scorer(&mut self, evaluator: &str) -> Result<(), String> {
        match &self.scored_by {
            Some(by) if by != evaluator => Err(format!(
                "the book was scored by evaluator {by}; extending it with {evaluator} would mix \
                 the two's scores, each in its own scale: extend it with {by} (--evaluator {by}, \
                 setoption name Evaluator value {by}), or start another book"
            )),
            Some(_) => Ok(()),
            None => {
                self.scored_by = Some(evaluator.to_string());
                Ok(())
            }
        }
    }

    /// Record the notation of `state`'s game as it now spells moves: the
    /// first moves of the game's start position (the book's variant).
    pub fn note_spelling(&mut self, state: &GameState) -> Result<(), PluginError> {
        if let Some(start) = start_of(state, &self.game)? {
            let mut moves = Vec::new();
            start.legal_moves(&mut moves)?;
            self.spelled = moves
                .iter()
                .take(SPELLED_MOVES)
                .map(|&mv| start.format_move(mv))
                .collect::<Result<_, _>>()?;
        }
        Ok(())
    }

    /// Where the book was written in a move notation the game does not
    /// read as it did (xiangqi's ranks `0-9` against `1-10`, which read
    /// the same text as other moves), why it is not used: its first start
    /// move kept spelled that now reads as no move or another, named.
    /// `None` where they read as they were, or the book keeps none
    /// (written before they were kept).
    pub fn notation_refusal(&self, state: &GameState) -> Option<String> {
        let start = start_of(state, &self.game).ok()??;
        let mut moves = Vec::new();
        start.legal_moves(&mut moves).ok()?;
        let text = self
            .spelled
            .iter()
            .zip(&moves)
            .find(|(text, &mv)| start.parse_move(text).ok() != Some(mv))?
            .0;
        Some(format!(
            "the book was written in another move notation than the game's now (its '{text}' \
             is read as no move, or another, of the start): set the notation it was built with \
             (MoveRanks, MoveNotation), or build it again"
        ))
    }

    /// The game variant it is for.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The moves of `position`, if the book has it.
    pub fn moves(&self, position: &str) -> Option<&[BookMove]> {
        self.positions.get(position).map(Vec::as_slice)
    }

    /// The best move of `position`: the highest score, the first listed
    /// among equals.
    pub fn best(&self, position: &str) -> Option<&BookMove> {
        best_of(self.moves(position)?)
    }

    /// The moves of the position of `state`: that of its text, or, where
    /// the book has no position of that text, of the book's position the
    /// game hashes as it hashes `state`. A position's text may hold more
    /// than the board and the side to move (a FEN's move counters, which
    /// differ between a game's record and a GUI that sends the position
    /// after the last capture as a new start), where the game's hash of
    /// it holds only what the search holds a position by. The hashes of
    /// the book's positions are taken once, with a copy of `state` set to
    /// each, at the first position looked up by hash.
    pub fn moves_at(&self, state: &GameState) -> Option<&[BookMove]> {
        let text = state.position_text().ok()?;
        if let Some(moves) = self.moves(&text) {
            return Some(moves);
        }
        let index = self.by_hash.0.get_or_init(|| self.hash_index(state));
        self.moves(index.get(&state.hash())?)
    }

    /// The best move of the position of `state` (found as
    /// [`Book::moves_at`] finds it).
    pub fn best_at(&self, state: &GameState) -> Option<&BookMove> {
        best_of(self.moves_at(state)?)
    }

    /// The book's positions by the hash a copy of `state` takes when set
    /// to each (those its plugin does not read are left out).
    fn hash_index(&self, state: &GameState) -> HashMap<u64, String> {
        let Ok(mut scratch) = state.try_clone() else {
            return HashMap::new();
        };
        self.positions
            .keys()
            .filter_map(|text| {
                scratch.set_position(text).ok()?;
                Some((scratch.hash(), text.clone()))
            })
            .collect()
    }

    /// Read every position of the book, and its moves, with `state`'s
    /// game (a state of the book's game; its position is changed): the
    /// positions it does not read, or whose listed moves it does not
    /// read as legal there, which are never played, counted with the
    /// first of them (in the file's order) and why, for the line that
    /// opens the book. Moves are not read where the book is in another
    /// move notation ([`Book::notation_refusal`] says so). The positions'
    /// hashes for [`Book::moves_at`] are taken on the way.
    pub fn unreadable(&mut self, state: &mut GameState) -> Option<(usize, String)> {
        let moves_read = self.notation_refusal(state).is_none();
        let mut keys: Vec<&String> = self.positions.keys().collect();
        keys.sort();
        let mut index = HashMap::new();
        let mut bad = 0;
        let mut first = None;
        for text in keys {
            let why = match state.set_position(text) {
                Err(e) => Some(e.to_string()),
                Ok(()) => {
                    index.insert(state.hash(), text.clone());
                    let texts: Vec<String> =
                        self.positions[text].iter().map(|m| m.mv.clone()).collect();
                    match moves_read.then(|| state.parse_legal_moves(&texts)) {
                        None => None,
                        Some(Ok((_, rejected))) if rejected.is_empty() => None,
                        Some(Ok((_, rejected))) => Some(format!(
                            "move{} {} not legal there",
                            if rejected.len() == 1 { "" } else { "s" },
                            rejected.join(", ")
                        )),
                        Some(Err(e)) => Some(e.to_string()),
                    }
                }
            };
            if let Some(why) = why {
                bad += 1;
                first.get_or_insert_with(|| format!("'{text}': {why}"));
            }
        }
        self.by_hash = HashIndex(OnceLock::from(index));
        first.map(|first| (bad, first))
    }

    /// Put `position` in the book with `moves`, replacing what it had.
    pub fn insert(&mut self, position: String, moves: Vec<BookMove>) {
        self.positions.insert(position, moves);
        self.by_hash = HashIndex::default();
    }

    /// Read a book from its text; the error names the line.
    pub fn read(text: &str) -> Result<Book, String> {
        let mut lines = text.lines().enumerate();
        let game = loop {
            let Some((number, line)) = lines.next() else {
                return Err("empty: no 'plyd-book 1 <game>' line".to_string());
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [MAGIC, version, game] if *version == VERSION.to_string() => {
                    break game.to_string()
                }
                [MAGIC, version, _] => {
                    return Err(format!(
                        "line {}: book format version {version}, this plyd reads version {VERSION}",
                        number + 1
                    ))
                }
                _ => {
                    // A file that is no book may be one line of any length,
                    // and may be one not to be shown (`BookFile` names any
                    // file the daemon can read: /proc/self/environ): its
                    // first word is quoted only where it is a plain one: a
                    // format's name, small letters and hyphens. A word with
                    // digits or capitals (a key, a token: a file of one
                    // `AKIA...` or `sk-live-...` was quoted whole) is not.
                    let first = words.first().copied().unwrap_or_default();
                    let plain = first.len() <= 16
                        && first.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
                        && first
                            .bytes()
                            .all(|b| b.is_ascii_lowercase() || b"-_".contains(&b));
                    let found = if plain {
                        let more = if words.len() > 1 { " ..." } else { "" };
                        format!("'{first}{more}'")
                    } else {
                        format!("a line of {} bytes that is no book's", line.len())
                    };
                    return Err(format!(
                        "line {}: expected 'plyd-book {VERSION} <game>', found {found}",
                        number + 1
                    ));
                }
            }
        };
        let mut book = Book::new(&game);
        for (number, line) in lines {
            if let Some(spelled) = line.strip_prefix(SPELLED) {
                book.spelled = spelled.split_whitespace().map(String::from).collect();
                continue;
            }
            if let Some(by) = line.strip_prefix(SCORED_BY) {
                book.scored_by = Some(by.trim().to_string()).filter(|by| !by.is_empty());
                continue;
            }
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |why: String| format!("line {}: {why}", number + 1);
            let mut fields = line.split('\t');
            let position = fields.next().unwrap_or("").trim();
            if position.is_empty() {
                return Err(at("no position".to_string()));
            }
            let mut moves = Vec::new();
            for field in fields {
                let words: Vec<&str> = field.split_whitespace().collect();
                let [mv, score, depth] = words.as_slice() else {
                    return Err(at(format!("'{field}' is not '<move> <score> <depth>'")));
                };
                let score = score
                    .parse()
                    .map_err(|_| at(format!("'{score}' is not a score")))?;
                let depth = depth
                    .parse()
                    .map_err(|_| at(format!("'{depth}' is not a depth")))?;
                moves.push(BookMove {
                    mv: mv.to_string(),
                    score,
                    depth,
                });
            }
            if moves.is_empty() {
                return Err(at(format!("position '{position}' has no move")));
            }
            if book.positions.insert(position.to_string(), moves).is_some() {
                return Err(at(format!("position '{position}' is listed twice")));
            }
        }
        Ok(book)
    }

    /// The book's text, positions sorted.
    pub fn write(&self) -> String {
        let mut positions: Vec<&String> = self.positions.keys().collect();
        positions.sort();
        let mut out = format!("{MAGIC} {VERSION} {}\n", self.game);
        if !self.spelled.is_empty() {
            out.push_str(&format!("{SPELLED} {}\n", self.spelled.join(" ")));
        }
        if let Some(by) = &self.scored_by {
            out.push_str(&format!("{SCORED_BY} {by}\n"));
        }
        for position in positions {
            out.push_str(position);
            for m in &self.positions[position] {
                out.push_str(&format!("\t{} {} {}", m.mv, m.score, m.depth));
            }
            out.push('\n');
        }
        out
    }

    /// Read a book file; the error names the file. A file the memory the
    /// process may still take cannot hold, once read (about
    /// [`HELD_PER_FILE_BYTE`] times its size), is refused before it is
    /// read: the allocation that failed ended the process.
    pub fn load(path: &Path) -> Result<Book, String> {
        if let Some(meta) = std::fs::metadata(path).ok().filter(|meta| meta.is_file()) {
            let need = (meta.len() * HELD_PER_FILE_BYTE).div_ceil(1 << 20);
            if let Some(left) = crate::memory::short_for(need + crate::memory::HEADROOM_MIB) {
                return Err(format!(
                    "book {}: cannot be read: its {} MiB take about {need} MiB once read, more \
                     than this process can have now ({left} MiB left)",
                    path.display(),
                    meta.len().div_ceil(1 << 20)
                ));
            }
        }
        let text = plyd_util::files::read_text(path, crate::BOOK_FILE_LIMIT)
            .map_err(|e| format!("book {}: cannot be read: {e}", path.display()))?;
        Book::read(&text).map_err(|e| format!("book {}: {e}", path.display()))
    }

    /// Whether the file at `path` ends in the middle of a line (not empty,
    /// its last byte no line end): a book cut short in a copy, whose last
    /// position may have lost moves and still reads. plyd writes every
    /// line whole.
    pub fn cut_short(path: &Path) -> bool {
        use std::io::{Read, Seek, SeekFrom};
        let Ok(mut file) = std::fs::File::open(path) else {
            return false;
        };
        let mut last = [0u8; 1];
        file.seek(SeekFrom::End(-1)).is_ok()
            && file.read_exact(&mut last).is_ok()
            && last[0] != b'\n'
            && last[0] != b'\r'
    }

    /// Whether a book can be written at `path`: the file (where a link
    /// names one, that file, made where it is not there yet) writable by
    /// this user, or its folder where it is to be made; the reason where
    /// not, known before any search. Nothing is left behind.
    pub fn check_writable(path: &Path) -> Result<(), String> {
        let target = written_file(path);
        let refuse = |why: String| format!("book {}: cannot be written: {why}", path.display());
        match std::fs::metadata(&target) {
            Ok(meta) => {
                // Read-only for this process: no write bit, or none of its
                // own (a file of another user's, in a folder this one may
                // write, would otherwise be replaced by the rename, owner
                // and all).
                if meta.permissions().readonly() || !may_write(&target) {
                    return Err(refuse(
                        "the file is read-only, or another user's that this one may not write"
                            .to_string(),
                    ));
                }
                Ok(())
            }
            Err(_) => {
                let mut base = target.as_os_str().to_owned();
                base.push(".probe");
                let (probe, file) = plyd_util::files::create_new(Path::new(&base), 0o600)
                    .map_err(|e| refuse(e.to_string()))?;
                drop(file);
                let _ = std::fs::remove_file(probe);
                Ok(())
            }
        }
    }

    /// Write the book to `path` (through a file beside it, renamed, so that
    /// a reader never sees half a book). A link is written through to the
    /// file it names (made where it is not there yet); a read-only file is
    /// refused, and the file keeps its permissions.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let fail = |e: std::io::Error| format!("book {}: cannot be written: {e}", path.display());
        let target = written_file(path);
        let existing = std::fs::metadata(&target).ok();
        if existing.is_some() {
            Book::check_writable(path)?;
        }
        // A new file of this process's own: two daemons saving one book
        // at once each rename a whole file, neither writes into the
        // other's, and a link or file someone put at the name beforehand
        // is passed over, not written through.
        let mut base = target.as_os_str().to_owned();
        base.push(format!(".partial.{}", std::process::id()));
        let (partial, mut file) =
            plyd_util::files::create_new(Path::new(&base), 0o666).map_err(fail)?;
        let written = std::io::Write::write_all(&mut file, self.write().as_bytes())
            .and_then(|()| file.sync_all())
            // Closed before the rename (Windows renames no open file).
            .map(|()| drop(file))
            .and_then(|()| match &existing {
                Some(meta) => std::fs::set_permissions(&partial, meta.permissions()),
                None => Ok(()),
            })
            .and_then(|()| std::fs::rename(&partial, &target));
        if let Err(e) = written {
            // A disk that is full keeps no half book behind.
            let _ = std::fs::remove_file(&partial);
            return Err(fail(e));
        }
        Ok(())
    }

    /// Write the book to `path` under its lock ([`BookLock`]), with the
    /// positions of the file as another process may have left it since
    /// (a second `plyd book`, a daemon's `learn`) added first: two builds
    /// into one file lost one build's positions. With `start`, the scores
    /// are carried back over the whole first ([`negamax`]); its best score.
    /// `waiting` is called while the lock is awaited ([`BookLock::take`]).
    pub fn save_merged(
        &mut self,
        path: &Path,
        start: Option<&mut GameState>,
        waiting: impl FnMut(),
    ) -> Result<Option<i32>, String> {
        let _lock = BookLock::take(path, waiting)?;
        if let Some(disk) = Book::load(path).ok().filter(|b| b.game() == self.game()) {
            self.merge_missing(&disk);
        }
        let best = match start {
            Some(state) => negamax(self, state).map_err(|e| e.to_string())?,
            None => None,
        };
        self.save(path)?;
        Ok(best)
    }

    /// Add the positions of `other` this book lacks (and its spelling,
    /// where this one keeps none).
    pub fn merge_missing(&mut self, other: &Book) {
        if self.spelled.is_empty() {
            self.spelled.clone_from(&other.spelled);
        }
        if self.scored_by.is_none() {
            self.scored_by.clone_from(&other.scored_by);
        }
        for (position, moves) in &other.positions {
            self.positions
                .entry(position.clone())
                .or_insert_with(|| moves.clone());
        }
        self.by_hash = HashIndex::default();
    }
}

/// The highest-scored of `moves`, the first listed among equals.
fn best_of(moves: &[BookMove]) -> Option<&BookMove> {
    moves
        .iter()
        .reduce(|best, m| if m.score > best.score { m } else { best })
}

/// Whether a file of `meta` was last written more than 10 s ago: a lock
/// or a half-written copy left by a process that ended (one at work
/// holds a lock for milliseconds, and writes a copy in one go).
fn left_behind(meta: std::io::Result<std::fs::Metadata>) -> bool {
    meta.and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > std::time::Duration::from_secs(10))
}

/// Remove the half-written copies of the book at `target` (`NAME.partial.
/// PID.XXXX`, written beside it and renamed over it) more than 10 s old:
/// left by a process that ended while it wrote (killed, or past a file
/// size limit), whose lock was just taken over.
fn remove_stale_partials(target: &Path) {
    let (Some(folder), Some(name)) = (target.parent(), target.file_name()) else {
        return;
    };
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let mut prefix = name.to_owned();
    prefix.push(".partial.");
    let prefix = prefix.to_string_lossy().into_owned();
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let stale = entry.file_name().to_string_lossy().starts_with(&prefix)
            && left_behind(entry.metadata());
        if stale {
            log::warn!(
                "book {}: {} was left half-written by a process that ended: removed",
                target.display(),
                entry.path().display()
            );
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A lock on a book file while it is read, merged and written back
/// (NBoard's `learn`, a few milliseconds): a file beside it, made only if
/// absent, removed when dropped. Daemons learning into one book take turns,
/// each adding to the file as the other left it. A lock file left by a
/// process that died is taken over once it is 10 s old.
pub struct BookLock(std::path::PathBuf);

impl BookLock {
    /// Wait (up to 12 s) for the lock on the book at `path`, calling
    /// `waiting` between looks (a sign of life for the watchdog).
    pub fn take(path: &Path, mut waiting: impl FnMut()) -> Result<BookLock, String> {
        let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let mut lock = target.as_os_str().to_owned();
        lock.push(".lock");
        let lock = std::path::PathBuf::from(lock);
        let start = std::time::Instant::now();
        let mut said = false;
        loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&lock)
            {
                Ok(_) => return Ok(BookLock(lock)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if left_behind(std::fs::metadata(&lock)) {
                        log::warn!(
                            "book {}: {} is more than 10 s old, left by a process that \
                             ended: taken over",
                            path.display(),
                            lock.display()
                        );
                        let _ = std::fs::remove_file(&lock);
                        remove_stale_partials(&target);
                        continue;
                    }
                    // A wait the operator can see: another daemon learning
                    // takes milliseconds, a lock left behind up to 10 s.
                    if !said && start.elapsed() > std::time::Duration::from_millis(500) {
                        log::warn!(
                            "book {}: waiting for {} (another process learning into it, or \
                             one that ended without removing it: taken over at 10 s old)",
                            path.display(),
                            lock.display()
                        );
                        said = true;
                    }
                    if start.elapsed() > std::time::Duration::from_secs(12) {
                        return Err(format!(
                            "book {}: another process holds {} (remove it if none does)",
                            path.display(),
                            lock.display()
                        ));
                    }
                    waiting();
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e) => {
                    return Err(format!(
                        "book {}: cannot be written: {e} (making {})",
                        path.display(),
                        lock.display()
                    ))
                }
            }
        }
    }
}

impl Drop for BookLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Scores positions' moves with fixed-depth searches and adds them to a
/// book.
pub struct BookBuilder<'a> {
    evaluator: &'a Evaluator,
    tt: TranspositionTable,
    depth: u32,
    options: SearchOptions,
    /// The searches' control: a stop ends the building, and the searches'
    /// beats are the watchdog's signs of life.
    control: Arc<SearchControl>,
    /// Positions scored so far.
    pub scored: usize,
}

impl<'a> BookBuilder<'a> {
    /// A builder searching to `depth` with a table of `hash_mib` MiB,
    /// under `control`.
    pub fn new(
        evaluator: &'a Evaluator,
        depth: u32,
        hash_mib: usize,
        control: Arc<SearchControl>,
    ) -> Result<Self, String> {
        Ok(BookBuilder {
            evaluator,
            tt: TranspositionTable::new(hash_mib)?,
            depth: depth.max(1),
            options: SearchOptions::default(),
            control,
            scored: 0,
        })
    }

    /// Whether the control was told to stop: what was being scored then
    /// is left out, and nothing more is added.
    pub fn stopped(&self) -> bool {
        self.control.stop_requested()
    }

    /// Every legal move of `state` with its score: a search of `state` to
    /// the builder's depth with that move alone at the root. Empty for a
    /// finished game or a chance node (dice are not a choice), and when
    /// the builder was stopped (a search cut short scores nothing).
    pub fn score_moves(&mut self, state: &GameState) -> Result<Vec<BookMove>, PluginError> {
        if is_chance_node(state)? {
            return Ok(Vec::new());
        }
        let mut moves = Vec::new();
        state.legal_moves(&mut moves)?;
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            let limits = SearchLimits {
                depth: Some(self.depth),
                search_moves: vec![mv],
                ..SearchLimits::default()
            };
            let result = search::search(
                state.try_clone()?,
                self.evaluator,
                &self.tt,
                &limits,
                &self.control,
                &self.options,
                &mut |_: SearchEvent| {},
            )?;
            if self.stopped() {
                return Ok(Vec::new());
            }
            out.push(BookMove {
                mv: state.format_move(mv)?,
                score: result.score,
                depth: result.depth,
            });
        }
        self.scored += 1;
        Ok(out)
    }

    /// Add `state` (when the book lacks it) and, `plies` deep below it,
    /// the positions reached by its moves within `margin` of its best.
    /// `visit` is called with each position scored.
    pub fn expand(
        &mut self,
        book: &mut Book,
        state: &mut GameState,
        plies: u32,
        margin: i32,
        visit: &mut dyn FnMut(&Book, usize),
    ) -> Result<(), PluginError> {
        if plies == 0 || self.stopped() || state.outcome()? != Outcome::Ongoing {
            return Ok(());
        }
        // A chance node is no choice: the book holds none, and every
        // outcome is followed.
        let outcomes = chance_outcomes(state)?;
        if !outcomes.is_empty() {
            for (outcome, _) in outcomes {
                state.make_move(outcome)?;
                let below = self.expand(book, state, plies - 1, margin, visit);
                state.unmake_move(outcome)?;
                below?;
            }
            return Ok(());
        }
        let text = state.position_text()?;
        if book.moves(&text).is_none() {
            let moves = self.score_moves(state)?;
            if moves.is_empty() {
                return Ok(());
            }
            book.insert(text.clone(), moves);
            visit(book, self.scored);
        }
        let moves = book
            .moves(&text)
            .map(<[BookMove]>::to_vec)
            .unwrap_or_default();
        let Some(best) = moves.iter().map(|m| m.score).max() else {
            return Ok(());
        };
        for m in moves
            .iter()
            .filter(|m| m.score >= best.saturating_sub(margin))
        {
            let mv = state.parse_legal_move(&m.mv)?;
            state.make_move(mv)?;
            let below = self.expand(book, state, plies - 1, margin, visit);
            state.unmake_move(mv)?;
            below?;
        }
        Ok(())
    }

    /// Add the positions of a game, from `state` along `line` (moves as
    /// text), that the book lacks, up to `plies` plies in; `state` is left
    /// as it was.
    pub fn add_line(
        &mut self,
        book: &mut Book,
        state: &mut GameState,
        line: &[String],
        plies: usize,
    ) -> Result<usize, PluginError> {
        let mut added = 0;
        let mut played = Vec::new();
        let mut outcome = Ok(());
        for text in line.iter().take(plies) {
            let step = (|| {
                if self.stopped() || state.outcome()? != Outcome::Ongoing {
                    return Ok(false);
                }
                let position = state.position_text()?;
                if book.moves(&position).is_none() {
                    let moves = self.score_moves(state)?;
                    if !moves.is_empty() {
                        book.insert(position, moves);
                        added += 1;
                    }
                }
                let mv = state.parse_legal_move(text)?;
                state.make_move(mv)?;
                played.push(mv);
                Ok(true)
            })();
            match step {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
        }
        for &mv in played.iter().rev() {
            state.unmake_move(mv)?;
        }
        outcome.map(|()| added)
    }
}

/// Carry the scores back from the book's deepest positions to `state`:
/// every move leading to a position of the book takes that position's
/// best score, seen from the mover. Returns `state`'s best score, `None`
/// when the book lacks it. `state` is left as it was.
pub fn negamax(book: &mut Book, state: &mut GameState) -> Result<Option<i32>, PluginError> {
    let mut done = HashMap::new();
    let mut path = HashSet::new();
    negamax_from(book, state, &mut done, &mut path)
}

fn negamax_from(
    book: &mut Book,
    state: &mut GameState,
    done: &mut HashMap<String, i32>,
    path: &mut HashSet<String>,
) -> Result<Option<i32>, PluginError> {
    let text = state.position_text()?;
    if let Some(&value) = done.get(&text) {
        return Ok(Some(value));
    }
    let outcomes = chance_outcomes(state)?;
    if !outcomes.is_empty() {
        return chance_value(book, state, &outcomes, done, path);
    }
    let Some(moves) = book.moves(&text).map(<[BookMove]>::to_vec) else {
        return Ok(None);
    };
    // A line back to a position on the path (a repetition) keeps the
    // score its search gave.
    if !path.insert(text.clone()) {
        return Ok(None);
    }
    let side = state.side_to_move()?;
    let mut updated = moves;
    for m in &mut updated {
        let Ok(mv) = state.parse_legal_move(&m.mv) else {
            continue;
        };
        state.make_move(mv)?;
        let child = negamax_from(book, state, done, path);
        let child_side = state.side_to_move();
        state.unmake_move(mv)?;
        if let Some(value) = child? {
            m.score = if child_side? == side { value } else { -value };
        }
    }
    path.remove(&text);
    let best = updated.iter().map(|m| m.score).max();
    book.insert(text.clone(), updated);
    if let Some(best) = best {
        done.insert(text, best);
    }
    Ok(best)
}

/// The start position of the variant `game` of `state`'s plugin, if it
/// has one of that name.
fn start_of(state: &GameState, game: &str) -> Result<Option<GameState>, PluginError> {
    let plugin = state.plugin();
    plugin
        .info()
        .variants
        .iter()
        .position(|v| v.name == game)
        .map(|index| GameState::new(plugin, index))
        .transpose()
}

/// Whether `state` is a chance node, the die to be rolled: no player's
/// choice, so no position of a book.
pub fn is_chance_node(state: &GameState) -> Result<bool, PluginError> {
    Ok(!chance_outcomes(state)?.is_empty())
}

/// A chance node's outcomes with their weights (none at a player's
/// move or a finished game).
fn chance_outcomes(state: &GameState) -> Result<Vec<(plyd_api::Move, u32)>, PluginError> {
    let mut outcomes = Vec::new();
    if state.outcome()? == Outcome::Ongoing {
        state.chance_outcomes(&mut outcomes)?;
    }
    Ok(outcomes)
}

/// A chance node's value for its side to move: its outcomes' values,
/// each weighed by its chance, as the search scores a chance node.
/// `None` unless the book holds the position after every outcome (a
/// mean over some of them would be no value of the node).
fn chance_value(
    book: &mut Book,
    state: &mut GameState,
    outcomes: &[(plyd_api::Move, u32)],
    done: &mut HashMap<String, i32>,
    path: &mut HashSet<String>,
) -> Result<Option<i32>, PluginError> {
    let side = state.side_to_move()?;
    let (mut sum, mut weights) = (0i64, 0i64);
    let mut complete = true;
    for &(outcome, weight) in outcomes {
        state.make_move(outcome)?;
        let child = negamax_from(book, state, done, path);
        let child_side = state.side_to_move();
        state.unmake_move(outcome)?;
        match child? {
            Some(value) => {
                let value = if child_side? == side { value } else { -value };
                sum += i64::from(value) * i64::from(weight);
                weights += i64::from(weight);
            }
            None => complete = false,
        }
    }
    Ok((complete && weights > 0).then(|| (sum as f64 / weights as f64).round() as i32))
}

/// The file a book at `path` is written to: the file a link names (its
/// folder resolved), also where that file is not there yet.
fn written_file(path: &Path) -> std::path::PathBuf {
    if let Ok(target) = std::fs::canonicalize(path) {
        return target;
    }
    match std::fs::read_link(path) {
        Ok(named) => path.parent().unwrap_or(Path::new(".")).join(named),
        Err(_) => path.to_path_buf(),
    }
}

/// Whether this process may write `path` (`access(W_OK)`).
fn may_write(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(name) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
            return true;
        };
        // SAFETY: a NUL-terminated path.
        unsafe { libc::access(name.as_ptr(), libc::W_OK) == 0 }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Book {
        let mut book = Book::new("othello");
        book.insert(
            "8/8/8/3OX3/3XO3/8/8/8 b".to_string(),
            vec![
                BookMove {
                    mv: "f5".into(),
                    score: -31,
                    depth: 12,
                },
                BookMove {
                    mv: "e6".into(),
                    score: -20,
                    depth: 12,
                },
                BookMove {
                    mv: "c4".into(),
                    score: -20,
                    depth: 11,
                },
            ],
        );
        book
    }

    #[test]
    fn a_book_reads_back_what_it_writes() {
        let book = sample();
        let text = book.write();
        assert_eq!(
            text,
            "plyd-book 1 othello\n8/8/8/3OX3/3XO3/8/8/8 b\tf5 -31 12\te6 -20 12\tc4 -20 11\n"
        );
        assert_eq!(Book::read(&text).unwrap(), book);
    }

    /// A lock left by a process that ended is taken over, and the
    /// half-written copy it left beside the book removed; a copy written
    /// now (another process's, still writing) is left.
    #[test]
    fn a_stale_lock_is_taken_over_with_its_half_written_copy() {
        let dir = std::env::temp_dir().join(format!("plyd-book-stale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("left.book");
        std::fs::write(&path, "plyd-book 1 othello\n").unwrap();
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        let aged = |name: &str| {
            let file = std::fs::File::create(dir.join(name)).unwrap();
            file.set_modified(old).unwrap();
        };
        aged("left.book.lock");
        aged("left.book.partial.12345.ab12");
        std::fs::write(dir.join("left.book.partial.999.cd34"), "new").unwrap();
        let lock = BookLock::take(&path, || {}).unwrap();
        assert!(!dir.join("left.book.partial.12345.ab12").exists());
        assert!(dir.join("left.book.partial.999.cd34").exists());
        drop(lock);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A book written over a file another process wrote since it was
    /// read keeps that process's positions (the last writer's stood).
    #[test]
    fn a_book_saved_merged_keeps_what_another_process_wrote() {
        let dir = std::env::temp_dir().join(format!("plyd-book-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shared.book");
        let mut other = Book::new("othello");
        let theirs = BookMove {
            mv: "d3".into(),
            score: 5,
            depth: 4,
        };
        other.insert("8/8/8/3OX3/3XXX2/8/8/8 w".to_string(), vec![theirs.clone()]);
        other.save(&path).unwrap();
        let mut mine = sample();
        assert_eq!(mine.save_merged(&path, None, || {}), Ok(None));
        let saved = Book::load(&path).unwrap();
        assert_eq!(saved.len(), 2, "{}", saved.write());
        assert_eq!(saved.best("8/8/8/3OX3/3XXX2/8/8/8 w"), Some(&theirs));
        assert_eq!(saved.best("8/8/8/3OX3/3XO3/8/8/8 b").unwrap().mv, "e6");
        // A book of another game on disk is not mixed in.
        let mut xiangqi = Book::new("xiangqi");
        xiangqi.save_merged(&path, None, || {}).unwrap();
        assert_eq!(Book::load(&path).unwrap().len(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_best_move_is_the_first_of_the_highest() {
        let book = sample();
        assert_eq!(book.best("8/8/8/3OX3/3XO3/8/8/8 b").unwrap().mv, "e6");
        assert!(book.best("8/8/8/8/8/8/8/8 b").is_none());
    }

    #[test]
    fn broken_books_are_refused_with_the_line() {
        for (text, why) in [
            ("", "empty"),
            ("chess 1 x\n", "line 1: expected 'plyd-book 1 <game>'"),
            ("plyd-book 2 othello\n", "line 1: book format version 2"),
            (
                "plyd-book 1 othello\nx\n",
                "line 2: position 'x' has no move",
            ),
            ("plyd-book 1 othello\nx\tf5 1\n", "line 2: 'f5 1' is not"),
            (
                "plyd-book 1 othello\nx\tf5 a 3\n",
                "line 2: 'a' is not a score",
            ),
            (
                "plyd-book 1 othello\nx\tf5 1 -3\n",
                "line 2: '-3' is not a depth",
            ),
            (
                "plyd-book 1 othello\nx\tf5 1 3\n# c\nx\tf5 1 3\n",
                "line 4: position 'x' is listed twice",
            ),
        ] {
            let err = Book::read(text).unwrap_err();
            assert!(err.contains(why), "{text:?}: {err}");
        }
        // A file of one endless line (zeros) is no copy in the error, nor
        // is a file of settings (the process's environment, a password
        // file) quoted: only a plain first word is.
        let zeros = "\0".repeat(1 << 20);
        let err = Book::read(&zeros).unwrap_err();
        assert!(
            err.ends_with("found a line of 1048576 bytes that is no book's"),
            "{err}"
        );
        for secret in [
            "KEY=s3cret\0HOME=/root\0",
            "root:x:0:0:root:/root:/bin/bash\n",
            "AKIAIOSFODNN7EXAMPLE\n",
            "sk-live-abcdef123456 more\n",
        ] {
            let err = Book::read(secret).unwrap_err();
            assert!(
                !err.contains("s3cret")
                    && !err.contains("root")
                    && !err.contains("AKIA")
                    && !err.contains("sk-live"),
                "{err}"
            );
        }
        let err = Book::read("edax-book 4\n").unwrap_err();
        assert!(err.ends_with("found 'edax-book ...'"), "{err}");
    }
}
