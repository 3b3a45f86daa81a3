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

/// The kernel ids of the threads working for one job, and how long they
/// have waited for a core while on the roll.
#[derive(Debug, Default)]
pub struct ThreadRoll {
    inner: Mutex<Roll>,
}

#[derive(Debug, Default)]
struct Roll {
    /// The threads on the roll, each with its wait for a core (see
    /// [`waited_for_a_core`]) when it entered; `None` where not known.
    on: Vec<(i32, Option<Duration>)>,
    /// The waits of the threads that have left, while they were on it.
    left: Duration,
    /// Whether a thread's waits were not known (then neither is the sum).
    unknown: bool,
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
            let waited = waited_for_a_core(id);
            self.inner.lock().on.push((id, waited));
        }
        OnRoll { roll: self, id }
    }

    /// The kernel ids of the threads on the roll now.
    pub fn ids(&self) -> Vec<i32> {
        self.inner.lock().on.iter().map(|&(id, _)| id).collect()
    }

    /// Demote every thread on the roll; how many were. A thread leaves the
    /// roll under the same lock before it ends, so no id here belongs to
    /// another thread.
    pub fn demote_all(&self) -> usize {
        let roll = self.inner.lock();
        roll.on.iter().filter(|&&(id, _)| demote(id)).count()
    }

    /// How long the job's threads have waited in all for a core while
    /// ready to run, each from when it entered the roll (until it left,
    /// for those that have): `None` where that is not known (not Linux, or
    /// the kernel keeps no such count).
    pub fn waited_for_a_core(&self) -> Option<Duration> {
        let roll = self.inner.lock();
        let mut total = roll.left;
        for &(id, entered) in &roll.on {
            total += waited_for_a_core(id)?.saturating_sub(entered?);
        }
        (!roll.unknown).then_some(total)
    }

    /// How many threads are on the roll.
    pub fn len(&self) -> usize {
        self.inner.lock().on.len()
    }

    /// Whether no thread is on the roll.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Drop for OnRoll<'_> {
    fn drop(&mut self) {
        let Some(id) = self.id else { return };
        // Read before the lock: the thread is this one, alive.
        let now = waited_for_a_core(id);
        let mut roll = self.roll.inner.lock();
        if let Some(at) = roll.on.iter().position(|&(x, _)| x == id) {
            let (_, entered) = roll.on.swap_remove(at);
            match (now, entered) {
                (Some(now), Some(entered)) => roll.left += now.saturating_sub(entered),
                _ => roll.unknown = true,
            }
        }
    }
}

/// The calling thread's kernel id (asked of the kernel once a thread).
#[cfg(target_os = "linux")]
pub fn current_id() -> Option<i32> {
    thread_local! {
        // The system call, not glibc's `gettid` wrapper, which came with
        // glibc 2.30: a build linked against an older glibc (Botzone's
        // machines run 2.23) has no such symbol.
        // SAFETY: gettid takes no arguments, has no preconditions and
        // cannot fail.
        static ID: i32 = unsafe { libc::syscall(libc::SYS_gettid) } as i32;
    }
    Some(ID.with(|id| *id))
}

/// The calling thread's kernel id: not known here.
#[cfg(not(target_os = "linux"))]
pub fn current_id() -> Option<i32> {
    None
}

/// The kernel ids of this process's threads but the caller's (those in
/// `/proc/self/task`).
#[cfg(target_os = "linux")]
pub fn all_ids() -> Vec<i32> {
    let me = current_id();
    std::fs::read_dir("/proc/self/task")
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                .filter(|&id| Some(id) != me)
                .collect()
        })
        .unwrap_or_default()
}

/// The ids of this process's threads: not known here.
#[cfg(not(target_os = "linux"))]
pub fn all_ids() -> Vec<i32> {
    Vec::new()
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

/// The hardware threads this process may run on (its processors, within
/// its affinity and any processor quota), `None` where not known.
/// Asked once: the standard library reads the process's control groups'
/// files for it at every call, five files a `go`.
pub fn hardware_threads() -> Option<usize> {
    static THREADS: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().ok().map(|n| n.get()))
}

/// Start `work` on a new thread of `scope`, or, where no thread can be
/// had (under an address-space limit, no memory for its stack), say so on
/// stderr, naming it `what`, and answer `None`: a search leaves such a
/// helper out rather than end the process.
pub fn spawn_or_skip<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    what: &str,
    work: impl FnOnce() -> T + Send + 'scope,
) -> Option<std::thread::ScopedJoinHandle<'scope, T>> {
    std::thread::Builder::new()
        .spawn_scoped(scope, work)
        .map_err(|e| log::warn!("{what} not started: {e}"))
        .ok()
}

/// Start `work` on a new thread named `name`, or, where no thread can be
/// had (a limit on threads, no memory for its stack), give it back with
/// the error: for work that can still be done on the caller's thread.
pub fn spawn_or_give_back<F, T>(
    name: &str,
    work: F,
) -> Result<std::thread::JoinHandle<T>, (std::io::Error, F)>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    // Taken by the thread, or back here where there is none: one or the
    // other, never both.
    let slot = std::sync::Arc::new(parking_lot::Mutex::new(Some(work)));
    let on_thread = std::sync::Arc::clone(&slot);
    let spawned = std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            let work = on_thread.lock().take();
            match work {
                Some(work) => work(),
                None => unreachable!("the work was given back, yet the thread started"),
            }
        });
    spawned.map_err(|e| match slot.lock().take() {
        Some(work) => (e, work),
        None => unreachable!("a thread that did not start took the work"),
    })
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

    /// The first processor the calling thread may run on, and a set of it
    /// alone.
    #[cfg(target_os = "linux")]
    fn one_processor() -> libc::cpu_set_t {
        // SAFETY: cpu_set_t is plain data; the calls only fill and read it.
        unsafe {
            let mut allowed: libc::cpu_set_t = std::mem::zeroed();
            assert_eq!(
                libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut allowed),
                0
            );
            let first = (0..libc::CPU_SETSIZE as usize)
                .find(|&cpu| libc::CPU_ISSET(cpu, &allowed))
                .unwrap();
            let mut one: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(first, &mut one);
            one
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn threads_that_left_the_roll_keep_their_waits_for_a_core_in_the_sum() {
        if !std::path::Path::new("/proc/self/schedstat").exists() {
            return;
        }
        let roll = ThreadRoll::default();
        let one = one_processor();
        // Three threads spinning on one processor for 60 ms each wait for
        // it about two thirds of the time.
        std::thread::scope(|scope| {
            for _ in 0..3 {
                let roll = &roll;
                scope.spawn(move || {
                    // SAFETY: `one` is a valid set for the call's duration.
                    let pinned = unsafe {
                        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &one)
                    };
                    assert_eq!(pinned, 0);
                    let _on = roll.enter();
                    let start = std::time::Instant::now();
                    while start.elapsed() < Duration::from_millis(60) {
                        std::hint::spin_loop();
                    }
                });
            }
        });
        assert!(roll.is_empty());
        let waited = roll.waited_for_a_core().unwrap();
        assert!(waited >= Duration::from_millis(30), "{waited:?}");
    }
}
