//! Why the controller refused a command: each dialect reports it in its
//! own words (UCI's `info string error: ...`, GTP's `? ...`, NBoard's
//! `status error: ...`), and knows from its kind whether a search request
//! still owes the GUI an answer.

/// A command the controller did not carry out; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    /// A search runs and was not told to stop: it will give the answer.
    #[error("a search is already running; send stop first")]
    Busy,
    /// Settings, the table and the game stay as they are while a job
    /// runs: what was refused, and why.
    #[error("{0}")]
    BusyFor(&'static str),
    /// No game is loaded, or it was given up with its plugin.
    #[error("{0}")]
    NoGame(String),
    /// A position that could not be read, or none to search.
    #[error("{0}")]
    Position(String),
    /// An option name or value that is refused.
    #[error("{0}")]
    Option(String),
    /// A plugin that failed or did not answer.
    #[error("{0}")]
    Plugin(String),
    /// A job thread that could not be started.
    #[error("cannot start the {what} thread: {why}")]
    Thread {
        /// Which job.
        what: &'static str,
        /// The system's reason.
        why: String,
    },
}

impl ControlError {
    /// Whether a search request refused so still needs its answer (no
    /// move): every refusal but [`ControlError::Busy`], where the running
    /// search answers.
    pub fn owes_an_answer(&self) -> bool {
        !matches!(self, ControlError::Busy)
    }
}
