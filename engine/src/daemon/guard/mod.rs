//! The daemon's defence against a plugin call that never returns.
//!
//! * [`watchdog`]: deadlines over a running job (a search that does not
//!   answer in time is answered for it, a job stuck in a plugin is given
//!   up), and [`watchdog::call_within`] for the controller's own calls that
//!   no clock runs for;
//! * [`overdue`]: what the controller does when a job's deadline passes:
//!   answer a late search, give up on a job stuck in a plugin;
//! * [`sentry`]: a thread that replaces a controller stuck in a call it
//!   made on the clock (reading a `position`), from the checkpoint left
//!   before each line;
//! * a thread left stuck either way is demoted to the idle scheduling
//!   class by [`crate::threads`], which keeps the roll of every job's
//!   threads (the search's side of it, so it lives beside the search).

mod overdue;
pub mod sentry;
pub mod watchdog;
