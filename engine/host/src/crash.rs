//! One line on stderr when the process dies of a fault inside a plugin: a
//! C or C++ evaluator that writes through a bad pointer, divides by zero
//! or overflows its stack ends the process (no host can survive that), and
//! without a word from plyd the shell says only `Segmentation fault`. The
//! line names the signal, the plugin's file and where in it:
//!
//! ```text
//! plyd: SIGSEGV inside the plugin ./libplyd_eval_mine.so, at 0x1139 (addr2line -f -e ./libplyd_eval_mine.so 0x1139 names the function): ...
//! ```
//!
//! The loader notes where each plugin it loads is mapped
//! ([`note_library`]); [`install`] puts a handler on the fault signals that
//! looks the faulting instruction up among those ranges, writes the line
//! (with `write(2)` only, nothing allocated), and hands the signal on: to
//! the handler there before (Rust's, which tells a stack overflow), else to
//! the default action, so that the process still dies of the signal (an
//! arena or a judge sees `signal: 11` as before). A fault outside every
//! plugin is handed on without a line.
//!
//! Linux on x86-64 and AArch64 only (where the faulting instruction is
//! read from the signal's context); elsewhere both functions do nothing.

use std::path::Path;

/// Note that the library loaded from `loaded` (the path given to the
/// loader) is the plugin file `shown`, for the line of a fault inside it.
pub(crate) fn note_library(loaded: &Path, shown: &Path) {
    imp::note_library(loaded, shown);
}

/// Note that the plugin file `shown` is being loaded (`None`: the load is
/// over): a fault or an `exit` in its initialisers (a C constructor) is
/// named as one while loading it.
pub(crate) fn loading(shown: Option<&Path>) {
    imp::loading(shown);
}

/// Note what this thread is doing, said after the line of a fault in a
/// plugin on it (`while checking game 1 ply 0, position '...'`: a tool
/// whose panics name the position names it for a crash too); `None`
/// clears it.
pub fn note_context(what: Option<&str>) {
    imp::note_context(what);
}

/// Put the handler on SIGSEGV, SIGBUS, SIGILL and SIGFPE, and one on the
/// process's exit that names a plugin calling `exit` (which ends the
/// process with the plugin's status: plyd's handler ends it with status 2
/// after its line); once per process, after the Rust runtime has put its
/// own (which it keeps, the handler calling it).
pub fn install() {
    imp::install();
}

/// Where the thread of kernel id `tid` of this process is, when that is
/// inside a plugin: `./libplyd_game_hex.so, at 0x1380 (addr2line -f -e
/// ./libplyd_game_hex.so 0x1380 names the function)`. The thread is
/// interrupted by a signal (SIGURG, which nothing else here uses) whose
/// handler notes the instruction it was at; `None` where it is elsewhere
/// (plyd's code, a system call such as a sleep), does not answer within
/// 100 ms, or the platform has no way to tell. For the message of a
/// plugin call given up as stuck.
pub fn plugin_place_of_thread(tid: i32) -> Option<String> {
    imp::plugin_place_of_thread(tid)
}

/// Where in the plugins the threads `tids` are, for a message about a
/// stuck call: `; stuck inside PLACE and PLACE` (each place once), or
/// nothing where none is inside a plugin's code (a loop in a plugin
/// shows; a thread asleep in a system call does not).
pub fn stuck_places(tids: impl IntoIterator<Item = i32>) -> String {
    let mut places: Vec<String> = Vec::new();
    for place in tids.into_iter().filter_map(plugin_place_of_thread) {
        if !places.contains(&place) {
            places.push(place);
        }
    }
    if places.is_empty() {
        String::new()
    } else {
        format!("; stuck inside {}", places.join(" and "))
    }
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod imp {
    use std::ffi::{c_int, c_void, CStr};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::atomic::{AtomicI64, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
    use std::sync::Once;

    /// Plugins noted at most (a daemon reloading its folders many times
    /// loads more; the ones past this get no line).
    const SLOTS: usize = 256;

    /// Where one plugin is mapped, and its file's name.
    struct Range {
        /// The address the library's own addresses are counted from.
        base: AtomicUsize,
        start: AtomicUsize,
        end: AtomicUsize,
        name: AtomicPtr<u8>,
        len: AtomicUsize,
        /// The file mapped (NUL-terminated; null where it could not be
        /// looked at), and its length, inode and modification time then
        /// ([`tell_changed_on_disk`]).
        file: AtomicPtr<libc::c_char>,
        size: AtomicI64,
        inode: AtomicU64,
        mtime: AtomicI64,
        mtime_ns: AtomicI64,
    }

    #[allow(clippy::declare_interior_mutable_const)]
    const EMPTY: Range = Range {
        base: AtomicUsize::new(0),
        start: AtomicUsize::new(0),
        end: AtomicUsize::new(0),
        name: AtomicPtr::new(std::ptr::null_mut()),
        len: AtomicUsize::new(0),
        file: AtomicPtr::new(std::ptr::null_mut()),
        size: AtomicI64::new(0),
        inode: AtomicU64::new(0),
        mtime: AtomicI64::new(0),
        mtime_ns: AtomicI64::new(0),
    };

    static RANGES: [Range; SLOTS] = [EMPTY; SLOTS];
    /// Slots taken.
    static TAKEN: AtomicUsize = AtomicUsize::new(0);

    /// The fault signals, with the names written, and SIGABRT: a plugin's
    /// `abort` or failed `assert`, or a C++ exception leaving an entry (or
    /// a static initialiser), which Rust's unwinder ends the process at.
    const SIGNALS: [(c_int, &[u8]); 5] = [
        (libc::SIGSEGV, b"SIGSEGV"),
        (libc::SIGBUS, b"SIGBUS"),
        (libc::SIGILL, b"SIGILL"),
        (libc::SIGFPE, b"SIGFPE"),
        (libc::SIGABRT, b"SIGABRT"),
    ];

    /// The action each signal had before [`install`]: a `sigaction` of
    /// zeros until then.
    static mut BEFORE: [std::mem::MaybeUninit<libc::sigaction>; 5] =
        [std::mem::MaybeUninit::zeroed(); 5];

    pub(super) fn note_library(loaded: &Path, shown: &Path) {
        let Some((base, start, end)) = mapped_span(loaded) else {
            return;
        };
        // A library loaded again from the same file is the same mapping.
        let taken = TAKEN.load(Ordering::Acquire).min(SLOTS);
        if RANGES[..taken]
            .iter()
            .any(|r| r.start.load(Ordering::Relaxed) == start)
        {
            return;
        }
        let slot = TAKEN.fetch_add(1, Ordering::AcqRel);
        let Some(range) = RANGES.get(slot) else {
            return;
        };
        // Leaked: the handler may read it at any time, and libraries are
        // never unloaded (the loader maps them for good).
        let name: &'static mut [u8] =
            Box::leak(shown.as_os_str().as_bytes().to_vec().into_boxed_slice());
        range.len.store(name.len(), Ordering::Relaxed);
        range.name.store(name.as_mut_ptr(), Ordering::Relaxed);
        // The file as it is now, to tell at a fault whether it was
        // written over since (a private copy, removed once mapped, has
        // nothing to compare).
        if let Ok(file) = std::ffi::CString::new(loaded.as_os_str().as_bytes()) {
            if let Some(now) = stat(&file) {
                range.size.store(now.st_size, Ordering::Relaxed);
                range.inode.store(now.st_ino, Ordering::Relaxed);
                range.mtime.store(now.st_mtime, Ordering::Relaxed);
                range.mtime_ns.store(now.st_mtime_nsec, Ordering::Relaxed);
                range.file.store(file.into_raw(), Ordering::Relaxed);
            }
        }
        range.base.store(base, Ordering::Relaxed);
        range.start.store(start, Ordering::Relaxed);
        // Last, with release: a handler that sees the end sees the rest.
        range.end.store(end, Ordering::Release);
    }

    /// The base address and the lowest and highest addresses of the
    /// loadable segments of the object the loader knows by the name
    /// `loaded`.
    fn mapped_span(loaded: &Path) -> Option<(usize, usize, usize)> {
        struct Search<'a> {
            name: &'a [u8],
            span: Option<(usize, usize, usize)>,
        }
        unsafe extern "C" fn visit(
            info: *mut libc::dl_phdr_info,
            _size: usize,
            data: *mut c_void,
        ) -> c_int {
            // SAFETY: the loader passes a valid entry and our `data`.
            let (info, search) = unsafe { (&*info, &mut *data.cast::<Search>()) };
            if info.dlpi_name.is_null() {
                return 0;
            }
            // SAFETY: a NUL-terminated name, the loader's.
            let name = unsafe { CStr::from_ptr(info.dlpi_name) }.to_bytes();
            if name != search.name {
                return 0;
            }
            // SAFETY: `dlpi_phnum` headers at `dlpi_phdr`.
            let headers =
                unsafe { std::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum)) };
            let base = info.dlpi_addr as usize;
            let span = headers
                .iter()
                .filter(|h| h.p_type == libc::PT_LOAD)
                .map(|h| {
                    let start = base + h.p_vaddr as usize;
                    (start, start + h.p_memsz as usize)
                })
                .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)));
            search.span = span.map(|(start, end)| (base, start, end));
            1
        }
        let mut search = Search {
            name: loaded.as_os_str().as_bytes(),
            span: None,
        };
        // SAFETY: the callback reads only what the loader hands it.
        unsafe { libc::dl_iterate_phdr(Some(visit), (&mut search as *mut Search).cast()) };
        search.span
    }

    /// `stat` of the file `path` (async-signal-safe).
    fn stat(path: &CStr) -> Option<libc::stat> {
        let mut out = std::mem::MaybeUninit::<libc::stat>::zeroed();
        // SAFETY: a NUL-terminated path and a buffer for one `stat`.
        let done = unsafe { libc::stat(path.as_ptr(), out.as_mut_ptr()) };
        // SAFETY: filled where it returned 0.
        (done == 0).then(|| unsafe { out.assume_init() })
    }

    /// Write a line for each plugin file noted whose file changed on disk
    /// since it was mapped (its length, inode or time): written over in
    /// place (`cp` onto it), its code changes under the running process,
    /// which then faults in it, or anywhere. Only atomics and `stat` are
    /// used: the fault handler calls it.
    fn tell_changed_on_disk() {
        let taken = TAKEN.load(Ordering::Acquire).min(SLOTS);
        for range in &RANGES[..taken] {
            if range.end.load(Ordering::Acquire) == 0 {
                continue;
            }
            let file = range.file.load(Ordering::Relaxed);
            if file.is_null() {
                continue;
            }
            // SAFETY: a leaked NUL-terminated string, never freed.
            let Some(now) = stat(unsafe { CStr::from_ptr(file) }) else {
                continue;
            };
            let same = now.st_size == range.size.load(Ordering::Relaxed)
                && now.st_ino == range.inode.load(Ordering::Relaxed)
                && now.st_mtime == range.mtime.load(Ordering::Relaxed)
                && now.st_mtime_nsec == range.mtime_ns.load(Ordering::Relaxed);
            if same {
                continue;
            }
            let name = range.name.load(Ordering::Relaxed);
            let len = range.len.load(Ordering::Relaxed);
            // SAFETY: a leaked buffer of `len` bytes, written before `end`.
            let name = unsafe { std::slice::from_raw_parts(name, len) };
            write_err(b"plyd: the plugin file ");
            write_err(name);
            write_err(
                b" was written over after it was loaded: a library in use changes under the \
                  running process, which may be this fault, wherever it shows; install a \
                  plugin as a new file (install, or a copy renamed into place), not with cp \
                  onto the old one (docs/plugins.md, An evaluator in Rust)\n",
            );
        }
    }

    /// The plugin file mapped at instruction `pc`, and `pc`'s offset in it
    /// (what `addr2line` reads); `None` outside every plugin noted. Only
    /// atomics are read: the fault handler calls it too.
    fn plugin_at(pc: usize) -> Option<(&'static [u8], usize)> {
        let taken = TAKEN.load(Ordering::Acquire).min(SLOTS);
        let range = RANGES[..taken].iter().find(|r| {
            let end = r.end.load(Ordering::Acquire);
            (r.start.load(Ordering::Relaxed)..end).contains(&pc)
        })?;
        let name = range.name.load(Ordering::Relaxed);
        let len = range.len.load(Ordering::Relaxed);
        // SAFETY: a leaked buffer of `len` bytes, written before `end`.
        let name = unsafe { std::slice::from_raw_parts(name, len) };
        Some((name, pc - range.base.load(Ordering::Relaxed)))
    }

    /// The instruction the sampled thread was at; 0 until it answers.
    static SAMPLE: AtomicUsize = AtomicUsize::new(0);

    /// The sampled thread's noted context ([`super::note_context`]), its
    /// buffer's address and length (0 where none), stored before
    /// [`SAMPLE`].
    static SAMPLE_CONTEXT: AtomicUsize = AtomicUsize::new(0);
    static SAMPLE_CONTEXT_LEN: AtomicUsize = AtomicUsize::new(0);

    extern "C" fn on_sample(_signal: c_int, _info: *mut libc::siginfo_t, context: *mut c_void) {
        let (address, length) = CONTEXT.get();
        SAMPLE_CONTEXT.store(address, Ordering::Relaxed);
        SAMPLE_CONTEXT_LEN.store(length, Ordering::Relaxed);
        SAMPLE.store(instruction(context), Ordering::Release);
    }

    pub(super) fn plugin_place_of_thread(tid: i32) -> Option<String> {
        static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
        static HANDLER: Once = Once::new();
        let _one = ONE_AT_A_TIME.lock().ok()?;
        HANDLER.call_once(|| {
            // SAFETY: a zeroed sigaction is valid; the handler has the
            // signature SA_SIGINFO asks and only stores an atomic.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sample as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGURG, &action, std::ptr::null_mut());
            }
        });
        SAMPLE.store(0, Ordering::Release);
        // SAFETY: tgkill of a thread of this process with a signal whose
        // handler is the one above.
        let sent = unsafe {
            libc::syscall(
                libc::SYS_tgkill,
                libc::getpid(),
                libc::pid_t::from(tid),
                libc::SIGURG,
            )
        };
        if sent != 0 {
            return None;
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(100);
        let pc = loop {
            let pc = SAMPLE.load(Ordering::Acquire);
            if pc != 0 {
                break pc;
            }
            if std::time::Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        };
        // What the thread noted it was doing (`while checking game 1 ply
        // 25, position ...`): its own buffer, which it does not touch
        // while it is inside the plugin's call.
        let address = SAMPLE_CONTEXT.load(Ordering::Relaxed);
        let noted = if address == 0 {
            String::new()
        } else {
            let length = SAMPLE_CONTEXT_LEN.load(Ordering::Relaxed);
            // SAFETY: the stuck thread's context buffer, as its handler
            // read it above.
            let text = unsafe { std::slice::from_raw_parts(address as *const u8, length) };
            format!(", {}", String::from_utf8_lossy(text))
        };
        let Some((name, offset)) = plugin_at(pc) else {
            // Not in a plugin's own code: a plugin's call sleeping or
            // waiting in the C library or the kernel. Said only where
            // the thread noted what it was doing (a thread with nothing
            // noted may be one idle outside any call).
            return (!noted.is_empty()).then(|| {
                format!(
                    "a plugin's call, in the C library or the kernel (sleeping or waiting) at \
                     the moment{noted}"
                )
            });
        };
        let name = String::from_utf8_lossy(name);
        Some(format!(
            "{name}, at {offset:#x} (addr2line -f -C -i -e {name} {offset:#x} names the \
             function){noted}"
        ))
    }

    thread_local! {
        /// This thread's context ([`super::note_context`]): its text, and
        /// the buffer's address and length the handler reads (no lazy
        /// start and nothing dropped: read from a signal handler).
        static CONTEXT_TEXT: std::cell::RefCell<Vec<u8>> = const {
            std::cell::RefCell::new(Vec::new())
        };
        static CONTEXT: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
    }

    pub(super) fn note_context(what: Option<&str>) {
        // Cleared first: a fault between the two would read no half-made
        // text.
        CONTEXT.set((0, 0));
        if let Some(what) = what {
            CONTEXT_TEXT.with_borrow_mut(|text| {
                text.clear();
                text.extend_from_slice(what.as_bytes());
                CONTEXT.set((text.as_ptr() as usize, text.len()));
            });
        }
    }

    /// This thread's context, if one is noted.
    fn noted_context() -> Option<&'static [u8]> {
        let (address, length) = CONTEXT.get();
        // SAFETY: the thread's own buffer, not touched while it faults in
        // a plugin's call.
        (address != 0).then(|| unsafe { std::slice::from_raw_parts(address as *const u8, length) })
    }

    /// The file being loaded, a leaked NUL-free buffer, and its length.
    static LOADING: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
    static LOADING_LEN: AtomicUsize = AtomicUsize::new(0);

    pub(super) fn loading(shown: Option<&Path>) {
        match shown {
            Some(path) => {
                let bytes: &'static mut [u8] =
                    Box::leak(path.as_os_str().as_bytes().to_vec().into_boxed_slice());
                LOADING_LEN.store(bytes.len(), Ordering::Relaxed);
                LOADING.store(bytes.as_mut_ptr(), Ordering::Release);
            }
            None => LOADING.store(std::ptr::null_mut(), Ordering::Release),
        }
    }

    /// The file being loaded, if one is.
    fn being_loaded() -> Option<&'static [u8]> {
        let name = LOADING.load(Ordering::Acquire);
        if name.is_null() {
            return None;
        }
        // SAFETY: a leaked buffer of that length, written before the store.
        Some(unsafe { std::slice::from_raw_parts(name, LOADING_LEN.load(Ordering::Relaxed)) })
    }

    extern "C" {
        fn _Unwind_Backtrace(
            trace: extern "C" fn(*mut c_void, *mut c_void) -> c_int,
            arg: *mut c_void,
        ) -> c_int;
        fn _Unwind_GetIP(context: *mut c_void) -> usize;
    }

    /// `_Unwind_Backtrace`'s callback: stop at the first frame inside a
    /// plugin, its instruction written to `arg`.
    extern "C" fn find_plugin_frame(context: *mut c_void, arg: *mut c_void) -> c_int {
        // SAFETY: the unwinder's context of this frame.
        let pc = unsafe { _Unwind_GetIP(context) };
        if pc != 0 && plugin_at(pc - 1).is_some() {
            // SAFETY: `arg` is the caller's usize.
            unsafe { *arg.cast::<usize>() = pc - 1 };
            return 5; // _URC_END_OF_STACK: done
        }
        0 // _URC_NO_REASON: go on
    }

    /// What [`plugin_call_frame`]'s walk has seen: the last frame of the
    /// first run of frames inside a plugin, and whether it is in that run.
    struct CallFrame {
        pc: usize,
        in_run: bool,
    }

    /// `_Unwind_Backtrace`'s callback for [`plugin_call_frame`].
    extern "C" fn last_plugin_frame(context: *mut c_void, arg: *mut c_void) -> c_int {
        // SAFETY: the unwinder's context of this frame; `arg` the caller's
        // `CallFrame`.
        let (pc, seen) = unsafe { (_Unwind_GetIP(context), &mut *arg.cast::<CallFrame>()) };
        if pc != 0 && plugin_at(pc - 1).is_some() {
            seen.pc = pc - 1;
            seen.in_run = true;
            0 // _URC_NO_REASON: go on
        } else if seen.in_run {
            5 // _URC_END_OF_STACK: done
        } else {
            0
        }
    }

    /// Where the plugin whose code the thread is in (below this handler:
    /// an `abort` in the plugin, or Rust's unwinder ending the process at
    /// an exception the plugin threw) was called from plyd: the outermost
    /// frame of the innermost run of plugin frames, the entry plyd called
    /// (with what was inlined into it); 0 where no frame is in a plugin. A
    /// walk that does not end within two seconds (an unwinder's lock held
    /// by the frames below) is ended by SIGALRM, which ends the process.
    fn plugin_call_frame() -> usize {
        let mut seen = CallFrame {
            pc: 0,
            in_run: false,
        };
        // SAFETY: alarm(2) is async-signal-safe; the callback writes only
        // `seen`.
        unsafe {
            libc::alarm(2);
            _Unwind_Backtrace(last_plugin_frame, (&mut seen as *mut CallFrame).cast());
            libc::alarm(0);
        }
        seen.pc
    }

    /// Run by `exit`: where the thread ending the process came from a
    /// plugin (its `exit`, `std::process::exit`), say so and end with
    /// status 2; plyd's own ends go on as they were.
    extern "C" fn on_exit() {
        let mut pc: usize = 0;
        // SAFETY: the callback writes only `pc`.
        unsafe { _Unwind_Backtrace(find_plugin_frame, (&mut pc as *mut usize).cast()) };
        let place = if pc != 0 { plugin_at(pc) } else { None };
        let loading = being_loaded();
        if place.is_none() && loading.is_none() {
            return;
        }
        write_err(b"plyd: exit called ");
        match place {
            Some((name, offset)) => write_place(name, offset),
            None => {
                write_err(b"while loading the plugin ");
                write_err(loading.unwrap_or_default());
            }
        }
        write_err(
            b": a plugin that ends the process ends plyd, which cannot catch it; \
              status 2 (docs/plugins.md, A plugin in C)\n",
        );
        // SAFETY: ends the process at once, as exit was about to.
        unsafe { libc::_exit(2) };
    }

    pub(super) fn install() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            // SAFETY: registers an `extern "C"` function of no arguments.
            unsafe { libc::atexit(on_exit) };
            for (i, &(signal, _)) in SIGNALS.iter().enumerate() {
                // SAFETY: a zeroed sigaction is valid; the handler is an
                // `extern "C"` function of the signature SA_SIGINFO asks;
                // BEFORE is written here only, before the handler is on.
                unsafe {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_fault as *const () as usize;
                    action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                    libc::sigemptyset(&mut action.sa_mask);
                    let before = (*std::ptr::addr_of_mut!(BEFORE))[i].as_mut_ptr();
                    libc::sigaction(signal, &action, before);
                }
            }
        });
    }

    /// The faulting instruction's address, from the signal's context.
    fn instruction(context: *mut c_void) -> usize {
        // SAFETY: the kernel's context of the signal being handled.
        let context = unsafe { &*context.cast::<libc::ucontext_t>() };
        #[cfg(target_arch = "x86_64")]
        let pc = context.uc_mcontext.gregs[libc::REG_RIP as usize] as usize;
        #[cfg(target_arch = "aarch64")]
        let pc = context.uc_mcontext.pc as usize;
        pc
    }

    /// `value` as `0x...` in `out`, without allocating.
    fn hex_of(value: usize, out: &mut [u8; 18]) -> &[u8] {
        let digits = b"0123456789abcdef";
        let mut at = out.len();
        let mut v = value;
        loop {
            at -= 1;
            out[at] = digits[v & 15];
            v >>= 4;
            if v == 0 {
                break;
            }
        }
        out[at - 2] = b'0';
        out[at - 1] = b'x';
        &out[at - 2..]
    }

    /// `inside the plugin NAME, at 0x... (addr2line ...)`: where in the
    /// file, what `addr2line` reads (the function, and the line where the
    /// plugin was built with debug information). Nothing allocated.
    fn write_place(name: &[u8], offset: usize) {
        write_err(b"inside the plugin ");
        write_err(name);
        let mut hex = [0u8; 18];
        let hex = hex_of(offset, &mut hex);
        write_err(b", at ");
        write_err(hex);
        write_err(b" (addr2line -f -C -i -e ");
        write_err(name);
        write_err(b" ");
        write_err(hex);
        write_err(b" names the function)");
    }

    fn write_err(bytes: &[u8]) {
        // SAFETY: write(2) of a live buffer; async-signal-safe.
        unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
    }

    /// Whether the signal of `info` was sent by another process (`kill`),
    /// not raised by a fault or by this process's own `abort`.
    fn sent_from_outside(info: *mut libc::siginfo_t) -> bool {
        if info.is_null() {
            return false;
        }
        // SAFETY: the kernel's siginfo of the signal being handled; a
        // code at or below 0 (SI_USER, SI_QUEUE, SI_TKILL) carries the
        // sender's pid.
        unsafe { (*info).si_code <= 0 && (*info).si_pid() != libc::getpid() }
    }

    extern "C" fn on_fault(signal: c_int, info: *mut libc::siginfo_t, context: *mut c_void) {
        let index = SIGNALS.iter().position(|&(s, _)| s == signal).unwrap_or(0);
        if sent_from_outside(info) {
            // `kill -SEGV`: no fault to name, and Rust's handler, which
            // would take it for none and return, would leave the process
            // running: the signal's default action, as for any program.
            plyd_util::signals::end_by(signal);
            return;
        }
        let abort = signal == libc::SIGABRT;
        // An abort is raised in the C library: where the plugin was
        // called from names it. Not while a plugin is being loaded: an
        // exception out of its initialisers can leave the loader's lock
        // held, which the walk would wait on.
        let pc = if abort && being_loaded().is_none() {
            plugin_call_frame()
        } else if abort {
            0
        } else {
            instruction(context)
        };
        let why: &[u8] = if abort {
            b": an abort in a plugin (its abort or a failed assert, a C++ exception leaving it, \
              or a Rust panic in a plugin built with panic = \"abort\") ends the process, which \
              plyd cannot catch (docs/plugins.md: A plugin in C++; A game in Rust, which keeps \
              panic = \"unwind\")\n"
        } else {
            b": a fault in a plugin ends the process, which plyd cannot catch \
              (docs/plugins.md, A plugin in C)\n"
        };
        if let Some((name, offset)) = plugin_at(pc) {
            write_err(b"plyd: ");
            write_err(SIGNALS[index].1);
            write_err(b" ");
            write_place(name, offset);
            write_err(why);
            if let Some(noted) = noted_context() {
                write_err(b"plyd: it came ");
                write_err(noted);
                write_err(b"\n");
            }
            if !abort {
                tell_changed_on_disk();
            }
        } else if let Some(name) = being_loaded() {
            write_err(b"plyd: ");
            write_err(SIGNALS[index].1);
            write_err(b" while loading the plugin ");
            write_err(name);
            write_err(b" (its initialisers, a constructor)");
            write_err(why);
        } else if !abort {
            tell_changed_on_disk();
        }
        // Handed on: to the handler before, else the default action, now.
        // SAFETY: BEFORE holds what sigaction gave back at install; info
        // and context are the kernel's.
        let handed = unsafe {
            let before = (*std::ptr::addr_of!(BEFORE))[index].assume_init_ref();
            plyd_util::signals::call_before(before, signal, info, context)
        };
        if !handed {
            plyd_util::signals::end_by(signal);
        }
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod imp {
    use std::path::Path;

    pub(super) fn note_library(_loaded: &Path, _shown: &Path) {}

    pub(super) fn note_context(_what: Option<&str>) {}

    pub(super) fn loading(_shown: Option<&Path>) {}

    pub(super) fn install() {}

    pub(super) fn plugin_place_of_thread(_tid: i32) -> Option<String> {
        None
    }
}
