//! The threads of a job, kept by their kernel ids so that those left stuck
//! in a plugin call can be demoted.
//!
//! A thread the daemon gives up on stays inside the plugin until the
//! process ends (no thread can be stopped from outside); one spinning in an
//! endless loop would hold a core all that time, and on a 2-core machine
//! halve every later search. Demoted to the idle scheduling class
//! (`SCHED_IDLE`, Linux), it runs only when a core has nothing else to do.
//! Elsewhere demoting does nothing.

use std::time::Duration;

use parking_lot::Mutex;

/// The kernel ids of the threads working for one job.
#[derive(Debug, Default)]
pub struct ThreadRoll {
    ids: Mutex<Vec<i32>>,
}

/// A thread's place on a [`ThreadRoll`], given up when it is dropped.
pub struct OnRoll<'a> {
    roll: &'a ThreadRoll,
    id: Option<i32>,
}

impl ThreadRoll {
    /// Put the calling thread on the roll until the guard is dropped.
    pub fn enter(&self) -> OnRoll<'_> {
        let id = current_id();
        if let Some(id) = id {
            self.ids.lock().push(id);
        }
        OnRoll { roll: self, id }
    }

    /// Demote every thread on the roll; how many were. A thread leaves the
    /// roll under the same lock before it ends, so no id here belongs to
    /// another thread.
    pub fn demote_all(&self) -> usize {
        let ids = self.ids.lock();
        ids.iter().filter(|&&id| demote(id)).count()
    }

    /// How long the threads on the roll have waited in all, since each
    /// started, for a core while ready to run: `None` where that is not
    /// known (not Linux, or the kernel keeps no such count). A thread
    /// leaving the roll takes its share with it.
    pub fn waited_for_a_core(&self) -> Option<Duration> {
        let ids = self.ids.lock();
        let mut total = Duration::ZERO;
        for &id in ids.iter() {
            total += waited_for_a_core(id)?;
        }
        Some(total)
    }

    /// How many threads are on the roll.
    pub fn len(&self) -> usize {
        self.ids.lock().len()
    }

    /// Whether no thread is on the roll.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Drop for OnRoll<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id {
            let mut ids = self.roll.ids.lock();
            if let Some(at) = ids.iter().position(|&x| x == id) {
                ids.swap_remove(at);
            }
        }
    }
}

/// The calling thread's kernel id (asked of the kernel once a thread).
#[cfg(target_os = "linux")]
pub fn current_id() -> Option<i32> {
    thread_local! {
        // SAFETY: gettid has no preconditions and cannot fail.
        static ID: i32 = unsafe { libc::gettid() };
    }
    Some(ID.with(|id| *id))
}

/// The calling thread's kernel id: not known here.
#[cfg(not(target_os = "linux"))]
pub fn current_id() -> Option<i32> {
    None
}

/// How long the thread `id` of this process has waited on a run queue: the
/// second field of its `schedstat` (nanoseconds), which the kernel keeps
/// unless built without scheduler statistics. The caller makes sure the
/// thread cannot end meanwhile.
#[cfg(target_os = "linux")]
pub fn waited_for_a_core(id: i32) -> Option<Duration> {
    let text = std::fs::read_to_string(format!("/proc/self/task/{id}/schedstat")).ok()?;
    let nanos = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// How long a thread has waited for a core: not known here.
#[cfg(not(target_os = "linux"))]
pub fn waited_for_a_core(_id: i32) -> Option<Duration> {
    None
}

/// Give the thread `id` of this process the idle scheduling class and the
/// lowest priority (which counts should it ever leave that class); whether
/// either worked. The caller
/// makes sure the thread cannot end meanwhile (its id could then be
/// another's).
#[cfg(target_os = "linux")]
pub fn demote(id: i32) -> bool {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: `param` is a valid sched_param for the call's duration; the
    // id is a live thread of this process (see `ThreadRoll::demote_all`).
    let idle = unsafe { libc::sched_setscheduler(id, libc::SCHED_IDLE, &param) } == 0;
    // SAFETY: as above; setpriority takes plain integers.
    let niced = unsafe { libc::setpriority(libc::PRIO_PROCESS, id as libc::id_t, 19) } == 0;
    idle || niced
}

/// Demoting a thread: not done here.
#[cfg(not(target_os = "linux"))]
pub fn demote(_id: i32) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_is_on_the_roll_while_its_guard_lives() {
        let roll = ThreadRoll::default();
        assert!(roll.is_empty());
        std::thread::scope(|scope| {
            let (entered, leave) = (
                crossbeam_channel::bounded(0),
                crossbeam_channel::bounded::<()>(0),
            );
            let (entered_tx, entered_rx) = entered;
            let (leave_tx, leave_rx) = leave;
            let roll = &roll;
            scope.spawn(move || {
                let _on = roll.enter();
                entered_tx.send(()).unwrap();
                leave_rx.recv().unwrap();
            });
            entered_rx.recv().unwrap();
            assert_eq!(roll.len(), usize::from(cfg!(target_os = "linux")));
            // Demoting a thread of one's own needs no privilege.
            assert_eq!(roll.demote_all(), roll.len());
            assert_eq!(
                roll.waited_for_a_core().is_some(),
                cfg!(target_os = "linux") && std::path::Path::new("/proc/self/schedstat").exists()
            );
            leave_tx.send(()).unwrap();
        });
        assert!(roll.is_empty());
    }
}
