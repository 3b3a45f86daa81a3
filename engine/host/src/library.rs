//! Opening a plugin library and validating its tables.
//!
//! Order matters here: the ABI version is the first thing read from a table,
//! before any other field and before any function in it is called. Only
//! after the version is accepted are the other fields read, and only those
//! the plugin's `table_size` says it has.

use std::ffi::{c_char, CStr};
use std::path::{Path, PathBuf};

use plyd_api::abi::{
    EvaluatorApi, GameApi, ABI_VERSION, ABI_VERSION_MIN, EVALUATOR_API_REQUIRED_SIZE,
    EVALUATOR_ENTRY_SYMBOL, GAME_API_REQUIRED_SIZE, GAME_ENTRY_SYMBOL, MAX_SCORE_BOUND,
    OPTION_CHECK, OPTION_COMBO, OPTION_SPIN, OPTION_STRING,
};

use crate::error::LoadError;
use crate::game::GameVtable;
use crate::info::{
    EvaluatorInfo, EvaluatorVtable, GameInfo, GameOptionDesc, GameOptionKindDesc, StackEntries,
    VariantDesc,
};

/// Longest descriptive string (name, start position) read from a table; a
/// string without a NUL within this many bytes is refused as unterminated.
const MAX_TABLE_STRING: usize = 64 * 1024;
/// More variants or evaluators than this in one plugin is taken as garbage.
const MAX_TABLE_ENTRIES: u32 = 1024;

/// A loaded library, shared by the plugins made from it: a private copy
/// loaded again while its file is unchanged is the same copy.
pub(crate) type SharedLibrary = std::sync::Arc<libloading::Library>;

/// What a successfully opened game library yields.
pub(crate) struct OpenedGame {
    pub library: SharedLibrary,
    pub vtable: GameVtable,
    pub info: GameInfo,
    pub evaluators: Vec<EvaluatorInfo>,
}

/// The files this process has opened as plugins, by canonical path.
static OPENED: std::sync::Mutex<Vec<Opened>> = std::sync::Mutex::new(Vec::new());

/// One file opened as a plugin, and which of its copies a load of it may
/// be given again.
struct Opened {
    key: PathBuf,
    /// The file as it was when the loader's own copy (loaded from its own
    /// path) was made; `None` where it could not be looked at.
    loader: Option<FileStamp>,
    /// The last private copy, with the file as it was when copied: given
    /// again while the file is unchanged, so that reloading an install
    /// that changed once does not copy it at every load.
    copy: Option<(FileStamp, SharedLibrary)>,
    /// The next load takes a fresh copy whatever the file
    /// ([`load_fresh_next`]).
    fresh_next: bool,
    /// The GNU-unique symbols the copies loaded so far define
    /// ([`gnu_unique_symbols`]): a later copy defining one of them would
    /// share its object.
    unique: Vec<String>,
}

/// What a load of a file opened before is given.
enum Reuse {
    /// The loader's copy, through the file's own path.
    Loader,
    /// The last private copy.
    Copy(SharedLibrary),
    /// A new private copy.
    NewCopy,
}

/// What tells a file changed: its length, modification time and inode.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileStamp(u64, Option<std::time::SystemTime>, u64);

fn stamp(path: &Path) -> Option<FileStamp> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Some(FileStamp(meta.len(), meta.modified().ok(), inode))
}

/// Load the library at `path`.
///
/// The dynamic loader hands back the copy it already has for a path it
/// has opened before (and a library is never unloaded): a plugin
/// rebuilt and loaded again (`PluginPath`, `EvalFile`) would be the old
/// code, with the old statics. So a file opened before and changed since
/// is loaded from a private copy, removed once loaded: each load is the
/// file as it is now (copies left by processes killed while loading one
/// are removed at the first load of a later process). A file unchanged
/// since it was loaded from its own path is the loader's copy again, and
/// one unchanged since its last private copy is that copy again (a
/// `PluginPath` that reloads the same install maps nothing new: each
/// private copy is memory that stays).
/// A file cut short (an interrupted copy) is refused before the loader
/// maps it: reading past its end would end the process.
fn open_library(path: &Path) -> Result<SharedLibrary, LoadError> {
    let open_error = |reason: String| LoadError::Open {
        path: path.to_path_buf(),
        reason,
    };
    let file = as_file_path(path);
    let path = file.as_path();
    // A FIFO would block the loader until something writes to it, a
    // device such as /dev/zero never ends.
    match plyd_util::files::check_regular(path, u64::MAX) {
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
            return Err(open_error(e.to_string()))
        }
        _ => {} // a missing file: the loader says so
    }
    check_not_cut_short(path).map_err(open_error)?;
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| remove_copies_of_ended_processes(&temporary_folder()));
    let key = registry_key(path);
    let now = stamp(path);
    let unique = gnu_unique_symbols(path);
    let opened = || OPENED.lock().unwrap_or_else(|e| e.into_inner());
    // Decided under the lock, loaded without it: a library whose loading
    // never returns (given up on by a watch) must not hold every later
    // load.
    let reuse = {
        let mut list = opened();
        match list.iter().position(|o| o.key == key) {
            None => {
                list.push(Opened {
                    key: key.clone(),
                    loader: now.clone(),
                    copy: None,
                    fresh_next: false,
                    unique: unique.clone(),
                });
                Reuse::Loader
            }
            Some(i) => {
                let o = &list[i];
                match (&o.copy, &now) {
                    _ if o.fresh_next || now.is_none() => Reuse::NewCopy,
                    (Some((copied, library)), Some(now)) if copied == now => {
                        Reuse::Copy(std::sync::Arc::clone(library))
                    }
                    (None, Some(_)) if o.loader == now => Reuse::Loader,
                    _ => Reuse::NewCopy,
                }
            }
        }
    };
    match reuse {
        Reuse::Copy(library) => Ok(library),
        Reuse::NewCopy if cfg!(unix) => {
            let shared: Vec<&String> = {
                let list = opened();
                let before = list.iter().find(|o| o.key == key).map(|o| o.unique.clone());
                let before = before.unwrap_or_default();
                unique.iter().filter(|name| before.contains(name)).collect()
            };
            if !shared.is_empty() {
                return Err(open_error(shares_unique_objects(&shared)));
            }
            let library = std::sync::Arc::new(load_a_copy(path).map_err(open_error)?);
            if let Some(o) = opened().iter_mut().find(|o| o.key == key) {
                o.fresh_next = false;
                o.copy = now.map(|now| (now, std::sync::Arc::clone(&library)));
                for name in unique {
                    if !o.unique.contains(&name) {
                        o.unique.push(name);
                    }
                }
            }
            Ok(library)
        }
        Reuse::Loader | Reuse::NewCopy => {
            // SAFETY: loading a library runs its initialisers. Plugins are
            // code the user chose to install in the plugin directory (or
            // name in EvalFile), as with any loader.
            let library = unsafe { load_noted(path, path) };
            library
                .map(std::sync::Arc::new)
                .map_err(|e| open_error(with_causes(&e)))
        }
    }
}

/// Why a plugin whose earlier copy defines the GNU-unique symbols
/// `shared` is not loaded again.
fn shares_unique_objects(shared: &[&String]) -> String {
    const NAMED: usize = 3;
    let mut names: Vec<&str> = shared.iter().take(NAMED).map(|s| s.as_str()).collect();
    if shared.len() > NAMED {
        names.push("...");
    }
    format!(
        "it changed since it was loaded, and it defines {} GNU-unique {} ({}: \
         C++'s statics of inline functions, inline variables and templates, as g++ \
         builds them), which the dynamic loader binds to the copy loaded first, so the \
         new build would run on the old build's objects (and crash where their layout \
         changed); the plugin loaded before is kept. Build it with -fno-gnu-unique (or \
         -fvisibility=hidden) to reload it, or restart plyd",
        shared.len(),
        if shared.len() == 1 {
            "symbol"
        } else {
            "symbols"
        },
        names.join(" ")
    )
}

/// A loader's error with the errors under it (`LoadLibraryExW failed:
/// The specified module could not be found`): on Windows the reason is
/// the cause, not the error's own text.
fn with_causes(error: &libloading::Error) -> String {
    let mut text = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(e) = cause {
        text = format!("{text}: {e}");
        cause = e.source();
    }
    text
}

/// The name [`OPENED`] knows the file at `path` by: its canonical path,
/// else `path` itself.
fn registry_key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// [`load_for_good`] the library at `loaded`, the plugin file `shown`,
/// with the lines of a fault told of it: one while it loads (in its
/// initialisers) and one inside it once loaded name `shown`.
///
/// # Safety
/// As [`load_for_good`].
unsafe fn load_noted(
    loaded: &Path,
    shown: &Path,
) -> Result<libloading::Library, libloading::Error> {
    crate::crash::loading(Some(shown));
    // SAFETY: the caller's.
    let library = unsafe { load_for_good(loaded) };
    crate::crash::loading(None);
    if library.is_ok() {
        crate::crash::note_library(loaded, shown);
    }
    library
}

/// Load the library at `path`, never to be unloaded (`RTLD_NODELETE`):
/// dropping it leaves it mapped, so a thread still inside it (a call
/// given up on) never runs into unmapped code, and loading the same path
/// again is the same copy with its statics, not a fresh one. Unloaded,
/// a Rust library's statics leak (their destructors never run), and the
/// next load would build them again: switching `PluginPath` between two
/// installs of the Othello plugin took about 19 MiB more each time.
///
/// # Safety
/// As [`libloading::Library::new`]: loading runs the library's
/// initialisers.
unsafe fn load_for_good(path: &Path) -> Result<libloading::Library, libloading::Error> {
    #[cfg(unix)]
    {
        use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
        // SAFETY: the caller's.
        unsafe { Library::open(Some(path), RTLD_NOW | RTLD_LOCAL | libc::RTLD_NODELETE) }
            .map(libloading::Library::from)
    }
    #[cfg(windows)]
    {
        use libloading::os::windows::{
            Library, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS, LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR,
        };
        // The path made absolute (a relative one would go through the DLL
        // search order, the executable's folder first), the plugin's own
        // folder searched for its dependencies, and the library pinned:
        // never unloaded, as `RTLD_NODELETE` keeps it on Unix.
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let flags = LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS;
        // SAFETY: the caller's.
        let library = unsafe { Library::load_with_flags(&path, flags) }?;
        library.pin()?;
        Ok(libloading::Library::from(library))
    }
    #[cfg(not(any(unix, windows)))]
    // SAFETY: the caller's.
    unsafe {
        libloading::Library::new(path)
    }
}

/// Have the next load of `path` take a private copy even if the file is
/// unchanged: a plugin disabled after a failure (a panic, a call that
/// never returned, whose thread may hold its locks) comes back with
/// fresh statics.
pub(crate) fn load_fresh_next(path: &Path) {
    let key = registry_key(&as_file_path(path));
    let mut opened = OPENED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(o) = opened.iter_mut().find(|o| o.key == key) {
        o.fresh_next = true;
    }
}

/// Refuse an ELF file whose headers place data past its end: the loader
/// would map it, and the first read of a page past the end would end the
/// process (`SIGBUS`). Other files are left to the loader.
fn check_not_cut_short(path: &Path) -> Result<(), String> {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(path) else {
        return Ok(()); // the loader says why
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let Some(header) = elf_header(&mut file) else {
        return Ok(());
    };
    let cut = |needed: u64| {
        format!(
            "the file is cut short: its headers need {needed} bytes, it has {len} \
             (an interrupted copy or download?)"
        )
    };
    let (ph_off, sh_off) = (u64_at(&header, 0x20), u64_at(&header, 0x28));
    let (ph_size, ph_count) = (u16_at(&header, 0x36), u16_at(&header, 0x38));
    let (sh_size, sh_count) = (u16_at(&header, 0x3A), u16_at(&header, 0x3C));
    let ph_end = ph_off.saturating_add(ph_size * ph_count);
    if ph_end > len {
        return Err(cut(ph_end));
    }
    let sh_end = sh_off.saturating_add(sh_size * sh_count);
    if sh_off != 0 && sh_end > len {
        return Err(cut(sh_end));
    }
    let mut table = vec![0u8; (ph_size * ph_count) as usize];
    if ph_size < 0x28
        || file.seek(SeekFrom::Start(ph_off)).is_err()
        || file.read_exact(&mut table).is_err()
    {
        return Ok(());
    }
    // Each segment's bytes in the file: offset and size.
    for entry in table.chunks_exact(ph_size as usize) {
        let end = u64_at(entry, 0x08).saturating_add(u64_at(entry, 0x20));
        if end > len {
            return Err(cut(end));
        }
    }
    Ok(())
}

/// The header of an ELF file opened at its start: 64-bit little-endian
/// ELF only (the machines plyd is built for); `None` for another file.
fn elf_header(file: &mut std::fs::File) -> Option<[u8; 64]> {
    use std::io::Read;
    let mut header = [0u8; 64];
    file.read_exact(&mut header).ok()?;
    (&header[..4] == b"\x7fELF" && header[4] == 2 && header[5] == 1).then_some(header)
}

/// The little-endian 16-bit number at `at` of `bytes`.
fn u16_at(bytes: &[u8], at: usize) -> u64 {
    u64::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]))
}

/// The little-endian 64-bit number at `at` of `bytes`.
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"))
}

/// The symbols the ELF file at `path` defines with GNU-unique binding
/// (`STB_GNU_UNIQUE`, `u` in `nm -D`): g++ gives it to the static objects
/// of inline functions and variables and of templates, and the dynamic
/// loader binds every later library defining the same name to the first
/// one's object, even one loaded `RTLD_LOCAL`, and never unloads a library
/// defining one. Empty for another file, or one whose tables cannot be
/// read.
pub(crate) fn gnu_unique_symbols(path: &Path) -> Vec<String> {
    read_unique_symbols(path).unwrap_or_default()
}

fn read_unique_symbols(path: &Path) -> Option<Vec<String>> {
    use std::io::{Read, Seek, SeekFrom};
    /// Larger symbol tables than this are taken as garbage.
    const MAX_TABLE: u64 = 64 << 20;
    const SHT_DYNSYM: u32 = 11;
    const STB_GNU_UNIQUE: u8 = 10;
    let mut file = std::fs::File::open(path).ok()?;
    let header = elf_header(&mut file)?;
    let (sh_offset, sh_size, sh_count) = (
        u64_at(&header, 0x28),
        u16_at(&header, 0x3A),
        u16_at(&header, 0x3C),
    );
    if sh_size < 0x40 || sh_size * sh_count > MAX_TABLE {
        return None;
    }
    let mut sections = vec![0u8; (sh_size * sh_count) as usize];
    file.seek(SeekFrom::Start(sh_offset)).ok()?;
    file.read_exact(&mut sections).ok()?;
    let section = |i: usize| sections.chunks_exact(sh_size as usize).nth(i);
    let mut read = |offset: u64, size: u64| -> Option<Vec<u8>> {
        if size > MAX_TABLE {
            return None;
        }
        let mut bytes = vec![0u8; size as usize];
        file.seek(SeekFrom::Start(offset)).ok()?;
        file.read_exact(&mut bytes).ok()?;
        Some(bytes)
    };
    let mut names = Vec::new();
    for entry in sections.chunks_exact(sh_size as usize) {
        if u32::from_le_bytes(entry[4..8].try_into().ok()?) != SHT_DYNSYM {
            continue;
        }
        let link = u32::from_le_bytes(entry[0x28..0x2C].try_into().ok()?) as usize;
        let strings = section(link)?;
        let symbols = read(u64_at(entry, 0x18), u64_at(entry, 0x20))?;
        let strings = read(u64_at(strings, 0x18), u64_at(strings, 0x20))?;
        for symbol in symbols.chunks_exact(24) {
            let defined = u16_at(symbol, 6) != 0;
            if symbol[4] >> 4 != STB_GNU_UNIQUE || !defined {
                continue;
            }
            let start = u32::from_le_bytes(symbol[..4].try_into().ok()?) as usize;
            let name = strings.get(start..)?;
            let end = name.iter().position(|&b| b == 0)?;
            names.push(String::from_utf8_lossy(&name[..end]).into_owned());
        }
    }
    Some(names)
}

/// The bytes the loader maps for the ELF file at `path` (its loadable
/// segments' sizes in memory), without its debug sections, which a
/// release build's plugin file is mostly made of; `None` for another
/// file, or one whose headers cannot be read.
pub fn loaded_bytes(path: &Path) -> Option<u64> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path).ok()?;
    let header = elf_header(&mut file)?;
    let (ph_size, ph_count) = (u16_at(&header, 0x36), u16_at(&header, 0x38));
    if ph_size < 0x38 {
        return None;
    }
    let mut table = vec![0u8; (ph_size * ph_count) as usize];
    file.seek(SeekFrom::Start(u64_at(&header, 0x20))).ok()?;
    file.read_exact(&mut table).ok()?;
    // PT_LOAD entries' p_memsz.
    let loaded = table
        .chunks_exact(ph_size as usize)
        .filter(|entry| entry[..4] == 1u32.to_le_bytes())
        .map(|entry| u64_at(entry, 0x28))
        .sum();
    Some(loaded)
}

/// `path` as the dynamic loader takes a file: a bare name (`mine.so`) is
/// the file of that name in the working directory, as every other path
/// plyd reads, where the loader would search its library path for it
/// instead.
fn as_file_path(path: &Path) -> PathBuf {
    let mut parts = path.components();
    match (parts.next(), parts.next()) {
        (Some(std::path::Component::Normal(_)), None) => Path::new(".").join(path),
        _ => path.to_path_buf(),
    }
}

/// Where a copy of a plugin is made to load it again: the temporary
/// folder (`TMPDIR`, where set and not empty), then, where loading a copy
/// there fails (a folder mounted `noexec`, one not there or not
/// writable), a file in memory (Linux), then the runtime folder and the
/// system's temporary folders.
enum CopyPlace {
    Folder(PathBuf),
    #[cfg(target_os = "linux")]
    Memory,
}

fn copy_places() -> Vec<CopyPlace> {
    let first = temporary_folder();
    let mut places = vec![CopyPlace::Folder(first.clone())];
    #[cfg(target_os = "linux")]
    places.push(CopyPlace::Memory);
    let mut seen = vec![first];
    let others = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .into_iter()
        .chain(["/dev/shm", "/tmp", "/var/tmp"].map(PathBuf::from));
    for folder in others {
        if !folder.as_os_str().is_empty() && !seen.contains(&folder) {
            seen.push(folder.clone());
            places.push(CopyPlace::Folder(folder));
        }
    }
    places
}

/// `TMPDIR`, or `/tmp` where it is not set or set empty (which names no
/// folder: a copy made there would be loaded by a bare name, which the
/// loader looks for in the system's library folders).
fn temporary_folder() -> PathBuf {
    std::env::var_os("TMPDIR")
        .filter(|t| !t.is_empty())
        .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from)
}

/// Load a copy of the plugin file `path` (its file changed since it was
/// loaded from its own path, which the loader would give the old library
/// for), from the first of [`copy_places`] where that works; the error
/// names each place tried and why it failed.
fn load_a_copy(path: &Path) -> Result<libloading::Library, String> {
    let mut failures = Vec::new();
    for place in copy_places() {
        let tried = match &place {
            CopyPlace::Folder(folder) => private_copy(path, folder)
                .map_err(|e| format!("copying it into {}: {e}", folder.display()))
                .and_then(|copy| {
                    // SAFETY: as for a plugin's own file; the copy is the
                    // same file's bytes.
                    let library = unsafe { load_noted(&copy, path) };
                    // Mapped, the library no longer needs its file.
                    let _ = std::fs::remove_file(&copy);
                    library.map_err(|e| {
                        format!(
                            "loading its copy in {}: {}",
                            folder.display(),
                            with_causes(&e)
                        )
                    })
                }),
            #[cfg(target_os = "linux")]
            CopyPlace::Memory => memory_copy(path)
                .map_err(|e| format!("copying it into memory: {e}"))
                .and_then(|copy| {
                    // SAFETY: as above.
                    unsafe { load_noted(&copy, path) }
                        .map_err(|e| format!("loading its copy in memory: {}", with_causes(&e)))
                }),
        };
        match tried {
            Ok(library) => {
                if !failures.is_empty() {
                    log::info!(
                        "{}: loaded again from a copy after {}",
                        path.display(),
                        failures.join("; ")
                    );
                }
                return Ok(library);
            }
            Err(e) => failures.push(e),
        }
    }
    Err(format!(
        "it changed since it was loaded, and no copy of it could be loaded again ({})",
        failures.join("; ")
    ))
}

/// A copy of `path` in a file in memory (`memfd_create`), named by its
/// descriptor under `/proc/self/fd` for the loader. The descriptor stays
/// open for the process's life: the loader takes a name it has loaded
/// before for the same library, so a number closed and given again to a
/// later copy would load the earlier one.
#[cfg(target_os = "linux")]
fn memory_copy(path: &Path) -> std::io::Result<PathBuf> {
    use std::os::fd::{FromRawFd, IntoRawFd};
    // SAFETY: a NUL-terminated name; the flags are memfd_create's.
    let fd = unsafe { libc::memfd_create(c"plyd-plugin".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: a descriptor just made, owned here.
    let mut file = unsafe { std::fs::File::from_raw_fd(fd) };
    std::io::copy(&mut std::fs::File::open(path)?, &mut file)?;
    let fd = file.into_raw_fd();
    Ok(PathBuf::from(format!("/proc/self/fd/{fd}")))
}

/// A copy of `path` under a name of its own in `folder`: a
/// new file, this user's alone (a name another user made there first,
/// file or link, is passed over, never written through or loaded).
fn private_copy(path: &Path, folder: &Path) -> std::io::Result<PathBuf> {
    let name = path
        .file_name()
        .map_or_else(|| "plugin".into(), |n| n.to_string_lossy().into_owned());
    let base = folder.join(format!("plyd-{}-{name}", std::process::id()));
    let (copy, mut file) = plyd_util::files::create_new(&base, 0o700)?;
    let copied = std::fs::File::open(path)
        .and_then(|mut source| std::io::copy(&mut source, &mut file))
        .and_then(|_| file.sync_all());
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&copy);
        return Err(e);
    }
    Ok(copy)
}

/// Remove from `folder` the private copies ([`private_copy`]) left by
/// plyd processes that ended before removing theirs (killed while a
/// reload was loading the copy): `plyd-PID-NAME.XXXXXXXXXXXXXXXX`, a file
/// of this user's, more than a minute old, whose process `PID` is gone. A
/// copy of a live process (or of one whose number a live process now has)
/// is left.
fn remove_copies_of_ended_processes(folder: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let Ok(entries) = std::fs::read_dir(folder) else {
            return;
        };
        // SAFETY: getuid has no preconditions.
        let uid = unsafe { libc::getuid() };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = copy_owner(&name.to_string_lossy()) else {
                continue;
            };
            // A copy lives for the moment its load takes: one a minute old
            // is left over (a process of another PID namespace sharing the
            // folder, whose number means nothing here, is then gone too).
            let left_over = |m: &std::fs::Metadata| {
                m.modified()
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > std::time::Duration::from_secs(60))
            };
            let ours = entry
                .metadata()
                .is_ok_and(|m| m.is_file() && m.uid() == uid && left_over(&m));
            if ours && pid != std::process::id() && !process_lives(pid) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    #[cfg(not(unix))]
    let _ = folder;
}

/// The process number in the name of a private copy
/// (`plyd-PID-NAME.` and 16 hexadecimal digits), if it is one.
#[cfg(unix)]
fn copy_owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix("plyd-")?;
    let (pid, rest) = rest.split_once('-')?;
    let (_, suffix) = rest.rsplit_once('.')?;
    let hex = suffix.len() == 16 && suffix.bytes().all(|b| b.is_ascii_hexdigit());
    let pid = pid.parse::<u32>().ok().filter(|&p| p > 0)?;
    hex.then_some(pid)
}

/// Whether process `pid` exists (any user's).
#[cfg(unix)]
fn process_lives(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists.
    let sent = unsafe { libc::kill(pid, 0) };
    sent == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Whether `library` exports `symbol` (looked up, never called).
fn exports(library: &libloading::Library, symbol: &str) -> bool {
    // SAFETY: the symbol is only looked up, never used; the type given to
    // `get` does not matter for that.
    unsafe { library.get::<unsafe extern "C" fn()>(symbol.as_bytes()) }.is_ok()
}

/// Open `path` and validate its game table.
pub(crate) fn open_game(path: &Path) -> Result<OpenedGame, LoadError> {
    let library = open_library(path)?;
    let entry = {
        // SAFETY: the symbol, if present, has the documented signature
        // `const GameApi *plyd_game_api(void)`.
        let symbol: Result<libloading::Symbol<'_, unsafe extern "C" fn() -> *const GameApi>, _> =
            unsafe { library.get(GAME_ENTRY_SYMBOL.as_bytes()) };
        match symbol {
            Ok(f) => *f,
            Err(_) if exports(&library, EVALUATOR_ENTRY_SYMBOL) => {
                return Err(LoadError::WrongKind {
                    path: path.to_path_buf(),
                    what: "is an evaluator plugin, not a game plugin (load it with EvalFile, or name it libplyd_eval_<name>)".to_string(),
                })
            }
            Err(_) => {
                return Err(LoadError::MissingSymbol {
                    path: path.to_path_buf(),
                    symbol: GAME_ENTRY_SYMBOL,
                    mangled: holds_mangled(path, GAME_ENTRY_SYMBOL),
                })
            }
        }
    };
    // SAFETY: calling the documented entry point; the SDK's version catches
    // panics and returns null.
    let table = unsafe { entry() };
    if table.is_null() {
        return Err(LoadError::NullTable {
            path: path.to_path_buf(),
            symbol: GAME_ENTRY_SYMBOL,
        });
    }
    // SAFETY: a non-null table pointer from the entry point points to at
    // least the two leading u32 words every table version starts with.
    let (version, table_size) = unsafe { ((*table).abi_version, (*table).table_size) };
    check_version(path, version)?;
    let table_size = table_size as usize;
    check_table_size(path, "table", table_size, &GAME_REQUIRED_ENTRIES)?;
    // SAFETY: version accepted and the table is at least as large as the
    // required part, so every required field can be read.
    let (vtable, info, evaluator_ptrs) = unsafe { read_game_table(path, table, table_size)? };
    let mut evaluators = Vec::new();
    for ptr in evaluator_ptrs {
        // SAFETY: pointers from the game's evaluator array; null is checked inside.
        let evaluator = unsafe { read_evaluator_table(path, ptr)? };
        if evaluator.game != info.name || evaluator.state_layout != info.state_layout {
            return Err(LoadError::Malformed {
                path: path.to_path_buf(),
                what: format!(
                    "built-in evaluator '{}' reads {} state layout {}, but the game is {} with state layout {}",
                    evaluator.name,
                    evaluator.game,
                    evaluator.state_layout,
                    info.name,
                    info.state_layout
                ),
            });
        }
        if evaluators
            .iter()
            .any(|known: &EvaluatorInfo| known.name == evaluator.name)
        {
            return Err(LoadError::Malformed {
                path: path.to_path_buf(),
                what: format!("two built-in evaluators are named '{}'", evaluator.name),
            });
        }
        evaluators.push(evaluator);
    }
    Ok(OpenedGame {
        library,
        vtable,
        info,
        evaluators,
    })
}

/// Open `path` as a stand-alone evaluator plugin and validate its table.
/// Whether the evaluator fits a loaded game is the caller's check.
pub(crate) fn open_evaluator(path: &Path) -> Result<(SharedLibrary, EvaluatorInfo), LoadError> {
    let library = open_library(path)?;
    let entry = {
        // SAFETY: the symbol, if present, has the documented signature
        // `const EvaluatorApi *plyd_evaluator_api(void)`.
        let symbol: Result<
            libloading::Symbol<'_, unsafe extern "C" fn() -> *const EvaluatorApi>,
            _,
        > = unsafe { library.get(EVALUATOR_ENTRY_SYMBOL.as_bytes()) };
        match symbol {
            Ok(f) => *f,
            Err(_) if exports(&library, GAME_ENTRY_SYMBOL) => {
                return Err(LoadError::WrongKind {
                    path: path.to_path_buf(),
                    what: "is a game plugin, not an evaluator plugin (its built-in evaluators are chosen with Evaluator; game plugins load from PluginPath)".to_string(),
                })
            }
            Err(_) => {
                return Err(LoadError::MissingSymbol {
                    path: path.to_path_buf(),
                    symbol: EVALUATOR_ENTRY_SYMBOL,
                    mangled: holds_mangled(path, EVALUATOR_ENTRY_SYMBOL),
                })
            }
        }
    };
    // SAFETY: calling the documented entry point; the SDK's version catches
    // panics and returns null.
    let table = unsafe { entry() };
    // SAFETY: null is checked inside; otherwise the table comes from the
    // entry point, which promises a table that lives as long as the library.
    let info = unsafe { read_evaluator_table(path, table)? };
    Ok((library, info))
}

/// Larger than any table of any ABI version will be: a `table_size` past
/// it is an uninitialised or mistyped field, and reading the optional
/// entries it claims would read past the plugin's table.
const MAX_TABLE_SIZE: usize = 1 << 16;

/// The required fields of a table, each with the byte offset just past
/// it (the next field's offset; the last one's end is `required`).
const fn with_ends<const N: usize>(
    names: [&'static str; N],
    offsets: [usize; N],
    required: usize,
) -> [(&'static str, usize); N] {
    let mut out = [("", 0); N];
    let mut i = 0;
    while i < N {
        out[i] = (names[i], if i + 1 < N { offsets[i + 1] } else { required });
        i += 1;
    }
    out
}

/// The required fields of `$table`, in table order, with their ends.
macro_rules! required_entries {
    ($table:ty, $required:expr; $($field:ident),* $(,)?) => {
        with_ends(
            [$(stringify!($field)),*],
            [$(std::mem::offset_of!($table, $field)),*],
            $required,
        )
    };
}

/// The required fields of a game table, each with the byte offset just
/// past it, in table order.
const GAME_REQUIRED_ENTRIES: [(&str, usize); 25] = required_entries!(
    GameApi, GAME_API_REQUIRED_SIZE;
    abi_version, table_size, name, plugin_version, variant_count,
    state_layout, variants, capabilities, max_game_plies, evaluator_count,
    evaluators, state_new, state_clone, state_free, set_position,
    get_position, side_to_move, outcome, gen_moves, make_move, unmake_move,
    hash, parse_move, format_move, board_text,
);

/// The required fields of an evaluator table, as [`GAME_REQUIRED_ENTRIES`].
const EVALUATOR_REQUIRED_ENTRIES: [(&str, usize); 11] = required_entries!(
    EvaluatorApi, EVALUATOR_API_REQUIRED_SIZE;
    abi_version, table_size, name, description, game, state_layout,
    score_bound, default_params, create, destroy, evaluate,
);

/// Refuse a `table_size` smaller than the fields the ABI version requires
/// (`entries`, the last one's end being the size required), or too large
/// to be true.
fn check_table_size(
    path: &Path,
    what: &str,
    table_size: usize,
    entries: &[(&str, usize)],
) -> Result<(), LoadError> {
    let required = entries.last().map_or(0, |&(_, end)| end);
    let problem = if table_size < required {
        // The first required field that does not fit within the size.
        let (cut, _) = entries
            .iter()
            .copied()
            .find(|&(_, end)| end > table_size)
            .unwrap_or(("", required));
        format!(
            "{what} size {table_size} is smaller than the {required} bytes its ABI version requires: it ends before the required entry '{cut}' (is table_size set to sizeof the table?)"
        )
    } else if table_size > MAX_TABLE_SIZE {
        format!(
            "{what} size {table_size} is past any table's ({MAX_TABLE_SIZE} bytes at most): is table_size set to sizeof the table?"
        )
    } else {
        return Ok(());
    };
    Err(LoadError::Malformed {
        path: path.to_path_buf(),
        what: problem,
    })
}

fn check_version(path: &Path, version: u32) -> Result<(), LoadError> {
    if (ABI_VERSION_MIN..=ABI_VERSION).contains(&version) {
        Ok(())
    } else {
        Err(LoadError::AbiVersion {
            path: path.to_path_buf(),
            found: version,
            min: ABI_VERSION_MIN,
            max: ABI_VERSION,
        })
    }
}

/// Read a NUL-terminated UTF-8 string of at most [`MAX_TABLE_STRING`] bytes.
///
/// # Safety
/// `ptr` is null or points to readable memory up to its NUL terminator or
/// `MAX_TABLE_STRING` bytes, whichever comes first.
unsafe fn table_string(path: &Path, field: &str, ptr: *const c_char) -> Result<String, LoadError> {
    let malformed = |what: String| LoadError::Malformed {
        path: path.to_path_buf(),
        what,
    };
    if ptr.is_null() {
        return Err(malformed(format!("'{field}' is null")));
    }
    let mut len = 0;
    // SAFETY: scanning at most MAX_TABLE_STRING bytes, per the contract above.
    while unsafe { *ptr.add(len) } != 0 {
        len += 1;
        if len >= MAX_TABLE_STRING {
            return Err(malformed(format!(
                "'{field}' is not NUL-terminated within {MAX_TABLE_STRING} bytes"
            )));
        }
    }
    // SAFETY: we found the NUL at `len`.
    let text = unsafe { CStr::from_ptr(ptr) };
    text.to_str()
        .map(str::to_owned)
        .map_err(|_| malformed(format!("'{field}' is not valid UTF-8")))
}

/// [`table_string`] for a name the protocol's lines carry as one word (a
/// game, a variant, an evaluator): one that is empty, or holds a space or
/// a line break, could never be chosen and would break the lines it is
/// written on (`option name UCI_Variant ... var`).
///
/// # Safety
/// As [`table_string`].
unsafe fn table_word(path: &Path, field: &str, ptr: *const c_char) -> Result<String, LoadError> {
    // SAFETY: the caller's contract.
    let text = unsafe { table_string(path, field, ptr) }?;
    if !crate::health::is_one_word(&text) {
        return Err(LoadError::Malformed {
            path: path.to_path_buf(),
            what: format!("'{field}' {text:?} is not one word"),
        });
    }
    Ok(text)
}

/// Whether the plugin's table, `$size` bytes long, reaches past `$field`.
/// Computed from the type alone: no reference into the table is made, since
/// a field past its end (a plugin built before the field was added) is not
/// memory a reference may point to.
macro_rules! reaches {
    ($size:expr, $ty:ident, $field:ident) => {
        std::mem::offset_of!($ty, $field) + field_size(|table: &$ty| &table.$field) <= $size
    };
}

/// The size of the field that `field` picks out of a `T` (never called).
fn field_size<T, F>(_field: impl Fn(&T) -> &F) -> usize {
    std::mem::size_of::<F>()
}

/// Read an optional field only if the plugin's table reaches that far.
macro_rules! optional_field {
    ($table:expr, $size:expr, $ty:ident, $field:ident) => {{
        if reaches!($size, $ty, $field) {
            (*$table).$field
        } else {
            None
        }
    }};
}

/// The six stack entries of an evaluator table: all of them, none of them
/// (`None`), or a refusal naming the evaluator when only some are there.
///
/// # Safety
/// `table` points to an evaluator table at least `table_size` bytes long.
unsafe fn read_stack_entries(
    path: &Path,
    name: &str,
    table: *const EvaluatorApi,
    table_size: usize,
) -> Result<Option<StackEntries>, LoadError> {
    // SAFETY: fields read only within `table_size`.
    let entries = unsafe {
        (
            optional_field!(table, table_size, EvaluatorApi, stack_new),
            optional_field!(table, table_size, EvaluatorApi, stack_free),
            optional_field!(table, table_size, EvaluatorApi, stack_reset),
            optional_field!(table, table_size, EvaluatorApi, stack_push),
            optional_field!(table, table_size, EvaluatorApi, stack_pop),
            optional_field!(table, table_size, EvaluatorApi, stack_evaluate),
        )
    };
    match entries {
        (Some(new), Some(free), Some(reset), Some(push), Some(pop), Some(evaluate)) => {
            Ok(Some(StackEntries {
                new,
                free,
                reset,
                push,
                pop,
                evaluate,
            }))
        }
        (None, None, None, None, None, None) => Ok(None),
        (new, free, reset, push, pop, evaluate) => {
            let given = [
                ("stack_new", new.is_some()),
                ("stack_free", free.is_some()),
                ("stack_reset", reset.is_some()),
                ("stack_push", push.is_some()),
                ("stack_pop", pop.is_some()),
                ("stack_evaluate", evaluate.is_some()),
            ];
            let missing: Vec<&str> = given
                .iter()
                .filter(|(_, there)| !there)
                .map(|(entry, _)| *entry)
                .collect();
            Err(LoadError::Malformed {
                path: path.to_path_buf(),
                what: format!(
                    "evaluator '{name}' has some of the six stack entries but not {} (null or past the end of its table of {table_size} bytes)",
                    missing.join(", ")
                ),
            })
        }
    }
}

/// Read a required function entry, refusing the plugin if it is null.
macro_rules! required_fn {
    ($path:expr, $table:expr, $field:ident) => {
        (*$table).$field.ok_or_else(|| LoadError::MissingEntry {
            path: $path.to_path_buf(),
            entry: stringify!($field),
        })?
    };
}

/// # Safety
/// `table` points to a game table whose version has been accepted and whose
/// size is `table_size >= GAME_API_REQUIRED_SIZE`.
unsafe fn read_game_table(
    path: &Path,
    table: *const GameApi,
    table_size: usize,
) -> Result<(GameVtable, GameInfo, Vec<*const EvaluatorApi>), LoadError> {
    // SAFETY: the whole body reads fields from a table the caller vouches
    // for, optional ones only within `table_size`.
    unsafe {
        let vtable = GameVtable {
            state_new: required_fn!(path, table, state_new),
            state_clone: required_fn!(path, table, state_clone),
            state_free: required_fn!(path, table, state_free),
            set_position: required_fn!(path, table, set_position),
            get_position: required_fn!(path, table, get_position),
            side_to_move: required_fn!(path, table, side_to_move),
            outcome: required_fn!(path, table, outcome),
            gen_moves: required_fn!(path, table, gen_moves),
            make_move: required_fn!(path, table, make_move),
            unmake_move: required_fn!(path, table, unmake_move),
            hash: required_fn!(path, table, hash),
            parse_move: required_fn!(path, table, parse_move),
            format_move: required_fn!(path, table, format_move),
            board_text: required_fn!(path, table, board_text),
            gen_noisy: optional_field!(table, table_size, GameApi, gen_noisy),
            order_hints: optional_field!(table, table_size, GameApi, order_hints),
            in_check: optional_field!(table, table_size, GameApi, in_check),
            chance_outcomes: optional_field!(table, table_size, GameApi, chance_outcomes),
            perft: optional_field!(table, table_size, GameApi, perft),
            is_legal: optional_field!(table, table_size, GameApi, is_legal),
            null_move_ok: optional_field!(table, table_size, GameApi, null_move_ok),
            set_option: optional_field!(table, table_size, GameApi, set_option),
            solver: match (
                optional_field!(table, table_size, GameApi, endgame_size),
                optional_field!(table, table_size, GameApi, solve),
            ) {
                (Some(endgame_size), Some(solve)) => Some(crate::solve::SolverEntries {
                    endgame_size,
                    solve,
                    solve_window: optional_field!(table, table_size, GameApi, solve_window),
                }),
                _ => None,
            },
            see_ge: optional_field!(table, table_size, GameApi, see_ge),
            move_keys: optional_field!(table, table_size, GameApi, move_keys),
            gives_check: optional_field!(table, table_size, GameApi, gives_check),
            count_after: optional_field!(table, table_size, GameApi, count_after),
            outcome_reason: optional_field!(table, table_size, GameApi, outcome_reason),
            illegal_reason: optional_field!(table, table_size, GameApi, illegal_reason),
        };
        let name = table_word(path, "name", (*table).name)?;
        let version = table_string(path, "plugin_version", (*table).plugin_version)?;
        let variant_count = (*table).variant_count;
        if variant_count == 0 || variant_count > MAX_TABLE_ENTRIES {
            return Err(LoadError::Malformed {
                path: path.to_path_buf(),
                what: format!("variant count {variant_count} is not in 1..={MAX_TABLE_ENTRIES}"),
            });
        }
        if (*table).variants.is_null() {
            return Err(LoadError::Malformed {
                path: path.to_path_buf(),
                what: format!("variant count {variant_count} with a null variants array"),
            });
        }
        let mut variants: Vec<VariantDesc> = Vec::new();
        for i in 0..variant_count as usize {
            let v = *(*table).variants.add(i);
            let name = table_word(path, "variant name", v.name)?;
            // A GUI chooses a variant by its name (in any case): a second
            // of one name could never be chosen.
            if variants
                .iter()
                .any(|known| known.name.eq_ignore_ascii_case(&name))
            {
                return Err(LoadError::Malformed {
                    path: path.to_path_buf(),
                    what: format!("two variants are named '{name}'"),
                });
            }
            variants.push(VariantDesc {
                name,
                start_position: table_string(path, "variant start position", v.start_position)?,
            });
        }
        let evaluator_count = (*table).evaluator_count;
        if evaluator_count > MAX_TABLE_ENTRIES
            || (evaluator_count > 0 && (*table).evaluators.is_null())
        {
            return Err(LoadError::Malformed {
                path: path.to_path_buf(),
                what: format!("evaluator count {evaluator_count} with a bad evaluator array"),
            });
        }
        let evaluators = (0..evaluator_count as usize)
            .map(|i| *(*table).evaluators.add(i))
            .collect();
        let info = GameInfo {
            name,
            version,
            path: path.to_path_buf(),
            variants,
            capabilities: (*table).capabilities,
            state_layout: (*table).state_layout,
            max_game_plies: (*table).max_game_plies,
            options: read_game_options(path, table, table_size, vtable.set_option.is_some())?,
        };
        Ok((vtable, info, evaluators))
    }
}

/// The game's options, if its table reaches `options`.
///
/// # Safety
/// As [`read_game_table`].
unsafe fn read_game_options(
    path: &Path,
    table: *const GameApi,
    table_size: usize,
    has_set_option: bool,
) -> Result<Vec<GameOptionDesc>, LoadError> {
    let malformed = |what: String| LoadError::Malformed {
        path: path.to_path_buf(),
        what,
    };
    let end = std::mem::offset_of!(GameApi, options) + std::mem::size_of::<usize>();
    if table_size < end {
        return Ok(Vec::new());
    }
    // SAFETY: the table reaches `options`, per the check above.
    let (count, options) = unsafe { ((*table).option_count, (*table).options) };
    if count == 0 {
        return Ok(Vec::new());
    }
    if count > MAX_TABLE_ENTRIES || options.is_null() {
        return Err(malformed(format!(
            "option count {count} with a bad option array"
        )));
    }
    if !has_set_option {
        return Err(malformed(format!(
            "{count} options are listed but 'set_option' is missing"
        )));
    }
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        // SAFETY: `options` holds `count` entries, per the ABI.
        let o = unsafe { *options.add(i) };
        // SAFETY: the strings are the plugin's NUL-terminated table strings.
        let (name, default, choices) = unsafe {
            (
                table_string(path, "option name", o.name)?,
                table_string(path, "option default", o.default_value)?,
                table_string(path, "option choices", o.choices)?,
            )
        };
        let bad = |what: &str| malformed(format!("option '{name}': {what}"));
        let kind = match o.kind {
            OPTION_CHECK => GameOptionKindDesc::Check {
                default: match default.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("a check option's default must be true or false")),
                },
            },
            OPTION_SPIN => {
                let value: i64 = default
                    .parse()
                    .map_err(|_| bad("a spin option's default is not an integer"))?;
                if o.min > o.max || value < o.min || value > o.max {
                    return Err(bad("a spin option's default is outside min..=max"));
                }
                GameOptionKindDesc::Spin {
                    default: value,
                    min: o.min,
                    max: o.max,
                }
            }
            OPTION_COMBO => {
                let choices: Vec<String> = choices.split('\n').map(str::to_string).collect();
                if !choices.contains(&default) {
                    return Err(bad("a combo option's default is not one of its choices"));
                }
                GameOptionKindDesc::Combo { default, choices }
            }
            OPTION_STRING => GameOptionKindDesc::Text { default },
            other => return Err(bad(&format!("unknown kind {other}"))),
        };
        if name.trim().is_empty() || name.trim() != name {
            return Err(bad("the name is empty or has spaces around it"));
        }
        out.push(GameOptionDesc { name, kind });
    }
    Ok(out)
}

/// # Safety
/// `table` is null or points to an evaluator table of the library at `path`.
unsafe fn read_evaluator_table(
    path: &Path,
    table: *const EvaluatorApi,
) -> Result<EvaluatorInfo, LoadError> {
    if table.is_null() {
        return Err(LoadError::NullTable {
            path: path.to_path_buf(),
            symbol: EVALUATOR_ENTRY_SYMBOL,
        });
    }
    // SAFETY: the whole body reads the version first, other fields only
    // after it is accepted, optional ones within `table_size`.
    unsafe {
        check_version(path, (*table).abi_version)?;
        let table_size = (*table).table_size as usize;
        check_table_size(
            path,
            "evaluator table",
            table_size,
            &EVALUATOR_REQUIRED_ENTRIES,
        )?;
        let name = table_word(path, "evaluator name", (*table).name)?;
        let game = table_word(path, "evaluator game", (*table).game)?;
        let score_bound = (*table).score_bound;
        if score_bound <= 0 || score_bound > MAX_SCORE_BOUND {
            return Err(LoadError::Malformed {
                path: path.to_path_buf(),
                what: format!(
                    "evaluator '{name}' has score bound {score_bound}, outside 1 to {}",
                    MAX_SCORE_BOUND
                ),
            });
        }
        let stack = read_stack_entries(path, &name, table, table_size)?;
        let shallow = match optional_field!(table, table_size, EvaluatorApi, shallow_search) {
            None => None,
            Some(entry) => {
                let plies = if reaches!(table_size, EvaluatorApi, shallow_plies) {
                    (*table).shallow_plies
                } else {
                    0
                };
                // An entry the host would never call is a table mistake,
                // said rather than passed over.
                if plies == 0 {
                    return Err(LoadError::Malformed {
                        path: path.to_path_buf(),
                        what: format!(
                            "evaluator '{name}' gives shallow_search with shallow_plies 0 (at \
                             least 1)"
                        ),
                    });
                }
                Some((entry, plies))
            }
        };
        Ok(EvaluatorInfo {
            description: table_string(path, "evaluator description", (*table).description)?,
            default_params: table_string(path, "default params", (*table).default_params)?,
            name,
            game,
            state_layout: (*table).state_layout,
            score_bound,
            vtable: EvaluatorVtable {
                create: required_fn!(path, table, create),
                destroy: required_fn!(path, table, destroy),
                evaluate: required_fn!(path, table, evaluate),
                explain: optional_field!(table, table_size, EvaluatorApi, explain),
                stack,
                shallow,
                new_game: optional_field!(table, table_size, EvaluatorApi, new_game),
            },
        })
    }
}

/// Whether the file at `path` holds `symbol` as C++ mangles a function of
/// that name (its length, then the name: `18plyd_evaluator_api`), for the
/// error of an entry point not found under its C name.
fn holds_mangled(path: &Path, symbol: &str) -> bool {
    let needle = format!("{}{symbol}", symbol.len());
    std::fs::read(path)
        .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes an ELF file maps are its loadable segments: fewer than the
    /// file holds (its debug sections are not mapped), more than nothing;
    /// none for a file of another kind.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_elf_files_loaded_bytes_leave_out_what_is_not_mapped() {
        let exe = std::env::current_exe().unwrap();
        let size = std::fs::metadata(&exe).unwrap().len();
        let loaded = loaded_bytes(&exe).unwrap();
        assert!(loaded > 0 && loaded < size, "{loaded} of {size}");
        assert_eq!(loaded_bytes(Path::new("Cargo.toml")), None);
        assert_eq!(loaded_bytes(Path::new("/no/such/file")), None);
    }

    #[test]
    fn a_mangled_entry_point_is_told_from_none() {
        let dir = std::env::temp_dir().join(format!("plyd-mangled-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mangled = dir.join("mangled.so");
        std::fs::write(&mangled, b"\x7fELF..._ZN4mine18plyd_evaluator_apiEv\0...").unwrap();
        let plain = dir.join("plain.so");
        std::fs::write(&plain, b"\x7fELF...plyd_evaluator_api\0...").unwrap();
        assert!(holds_mangled(&mangled, EVALUATOR_ENTRY_SYMBOL));
        assert!(!holds_mangled(&plain, EVALUATOR_ENTRY_SYMBOL));
        assert!(!holds_mangled(&mangled, GAME_ENTRY_SYMBOL));
        assert!(!holds_mangled(&dir.join("absent.so"), GAME_ENTRY_SYMBOL));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_private_copy_is_known_by_its_name() {
        assert_eq!(
            copy_owner("plyd-4242-libplyd_game_othello.so.0123456789abcdef"),
            Some(4242)
        );
        assert_eq!(copy_owner("plyd-7-a-b.c.so.fedcba9876543210"), Some(7));
        for other in [
            "plyd-4242-lib.so",
            "plyd-4242-lib.so.0123",
            "plyd-x-lib.so.0123456789abcdef",
            "plyd-0-lib.so.0123456789abcdef",
            "plyd-botzone-1000",
            "other-4242-lib.so.0123456789abcdef",
        ] {
            assert_eq!(copy_owner(other), None, "{other}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn copies_left_by_ended_processes_are_removed_and_others_kept() {
        let folder = std::env::temp_dir().join(format!("plyd-sweep-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        // A process number no process has now: a child that has ended.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let ended = child.id();
        child.wait().unwrap();
        let name = |pid: u32| format!("plyd-{pid}-libplyd_game_x.so.00112233445566aa");
        let left = folder.join(name(ended));
        let mine = folder.join(name(std::process::id()));
        // Process 1 lives (another user's to signal or not).
        let living = folder.join(name(1));
        let unlike = folder.join(format!("plyd-{ended}-notes.txt"));
        let a_folder = folder.join(format!("plyd-{ended}-dir.00112233445566bb"));
        let fresh = folder.join(format!("plyd-{ended}-libplyd_game_y.so.00112233445566cc"));
        for file in [&left, &mine, &living, &unlike, &fresh] {
            std::fs::write(file, b"x").unwrap();
        }
        // All but `fresh` written two minutes ago.
        let then = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
        for file in [&left, &mine, &living, &unlike] {
            std::fs::File::options()
                .write(true)
                .open(file)
                .unwrap()
                .set_modified(then)
                .unwrap();
        }
        std::fs::create_dir(&a_folder).unwrap();
        remove_copies_of_ended_processes(&folder);
        assert!(!left.exists());
        for kept in [&mine, &living, &unlike, &a_folder, &fresh] {
            assert!(kept.exists(), "{}", kept.display());
        }
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_bare_name_is_a_file_in_the_working_directory() {
        assert_eq!(as_file_path(Path::new("mine.so")), Path::new("./mine.so"));
        for kept in [
            "./mine.so",
            "lib/mine.so",
            "/opt/plyd/mine.so",
            "../mine.so",
        ] {
            assert_eq!(as_file_path(Path::new(kept)), Path::new(kept));
        }
    }

    #[test]
    fn a_short_table_is_refused_naming_the_first_required_entry_it_leaves_out() {
        for entries in [&GAME_REQUIRED_ENTRIES[..], &EVALUATOR_REQUIRED_ENTRIES[..]] {
            assert!(entries.windows(2).all(|w| w[0].1 < w[1].1), "{entries:?}");
        }
        assert_eq!(
            GAME_REQUIRED_ENTRIES[24],
            ("board_text", GAME_API_REQUIRED_SIZE)
        );
        assert_eq!(
            EVALUATOR_REQUIRED_ENTRIES[10],
            ("evaluate", EVALUATOR_API_REQUIRED_SIZE)
        );
        let path = Path::new("./short.so");
        let message = |size, entries: &[(&str, usize)]| {
            check_table_size(path, "table", size, entries)
                .unwrap_err()
                .to_string()
        };
        let at_40 = message(40, &GAME_REQUIRED_ENTRIES);
        assert!(
            at_40.contains("the required entry 'capabilities'"),
            "{at_40}"
        );
        let short_by_one = GAME_API_REQUIRED_SIZE - 1;
        let last = message(short_by_one, &GAME_REQUIRED_ENTRIES);
        assert!(last.contains("the required entry 'board_text'"), "{last}");
        let evaluator = message(EVALUATOR_API_REQUIRED_SIZE - 8, &EVALUATOR_REQUIRED_ENTRIES);
        assert!(
            evaluator.contains("the required entry 'evaluate'"),
            "{evaluator}"
        );
        assert!(check_table_size(
            path,
            "table",
            GAME_API_REQUIRED_SIZE,
            &GAME_REQUIRED_ENTRIES
        )
        .is_ok());
    }
}
