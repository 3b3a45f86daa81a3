//! Per-thread state that outlives its thread.
//!
//! The host runs every search on threads started for it, and ends them
//! with the search: a plain `thread_local!` in a plugin starts empty at
//! every `go` and loses what the search worked out. Where that stays true
//! from move to move (an ending's solved value, a position's count, kept
//! by the position itself), wrap the thread-local's value in a [`Pooled`]
//! taken from a static [`Pool`]: it goes back to the pool when its thread
//! ends, and the next thread to need one takes it from there, with no
//! lock on the way in between. A pool holds at most one value for each
//! thread that ran at the same time.
//!
//! ```
//! use std::cell::RefCell;
//! use std::collections::HashMap;
//! use plyd_api::pooled::{Pool, Pooled};
//!
//! static SOLVED: Pool<HashMap<u64, f32>> = Pool::new();
//!
//! thread_local! {
//!     static MEMO: RefCell<Pooled<HashMap<u64, f32>>> =
//!         RefCell::new(SOLVED.take_or(HashMap::new));
//! }
//!
//! MEMO.with(|memo| memo.borrow_mut().insert(7, 0.5));
//! ```

use std::ops::{Deref, DerefMut};
use std::sync::Mutex;

/// The values of threads that have ended, waiting for new threads.
pub struct Pool<T> {
    free: Mutex<Vec<T>>,
}

impl<T> Pool<T> {
    /// An empty pool.
    pub const fn new() -> Self {
        Pool {
            free: Mutex::new(Vec::new()),
        }
    }

    /// A value handed back by a thread that ended, else a new one.
    pub fn take_or(&'static self, new: impl FnOnce() -> T) -> Pooled<T> {
        let kept = match self.free.lock() {
            Ok(mut free) => free.pop(),
            Err(_) => None,
        };
        Pooled {
            value: Some(kept.unwrap_or_else(new)),
            pool: self,
        }
    }

    /// Values waiting in the pool.
    pub fn waiting(&self) -> usize {
        self.free.lock().map_or(0, |free| free.len())
    }
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool::new()
    }
}

/// A thread's value, handed back to its pool when dropped (when the
/// thread ends, for a thread-local).
pub struct Pooled<T: 'static> {
    value: Option<T>,
    pool: &'static Pool<T>,
}

impl<T> Deref for Pooled<T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.value
            .as_ref()
            .expect("a pooled value is present until dropped")
    }
}

impl<T> DerefMut for Pooled<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.value
            .as_mut()
            .expect("a pooled value is present until dropped")
    }
}

impl<T> Drop for Pooled<T> {
    fn drop(&mut self) {
        if let (Some(value), Ok(mut free)) = (self.value.take(), self.pool.free.lock()) {
            free.push(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    static NUMBERS: Pool<Vec<u32>> = Pool::new();

    thread_local! {
        static MINE: RefCell<Pooled<Vec<u32>>> = RefCell::new(NUMBERS.take_or(Vec::new));
    }

    /// What one thread left in its thread-local is what the next thread
    /// finds, once the first has ended; two threads alive at once each
    /// get their own.
    #[test]
    fn a_thread_finds_what_the_thread_before_it_left() {
        std::thread::spawn(|| MINE.with(|m| m.borrow_mut().push(7)))
            .join()
            .unwrap();
        assert_eq!(NUMBERS.waiting(), 1);
        let seen = std::thread::spawn(|| {
            MINE.with(|m| {
                let mut m = m.borrow_mut();
                m.push(8);
                m.clone()
            })
        })
        .join()
        .unwrap();
        assert_eq!(seen, [7, 8]);
        // Two at once: the second finds the pool empty and starts afresh.
        let (tx, rx) = std::sync::mpsc::channel();
        let first = std::thread::spawn(move || {
            MINE.with(|m| {
                let len = m.borrow().len();
                tx.send(()).unwrap();
                std::thread::sleep(std::time::Duration::from_millis(50));
                len
            })
        });
        rx.recv().unwrap();
        let second = std::thread::spawn(|| MINE.with(|m| m.borrow().len()))
            .join()
            .unwrap();
        assert_eq!((first.join().unwrap(), second), (2, 0));
        assert_eq!(NUMBERS.waiting(), 2);
    }
}
