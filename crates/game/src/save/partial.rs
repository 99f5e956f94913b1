//! Partial saves: the temporary file a save writes before renaming it over the save
//! (`docs/saves.md`). Each is named `.save-<pid>-<n>-<nonce>.tmp` after the process writing
//! it, so that a later save knows whether a byog still holds it, and:
//!
//! - **on a signal** (SIGINT, SIGTERM, SIGHUP) that arrives during a save, the handler this
//!   module installs for the save's duration removes the partial files of the process, then
//!   gives the signal to the action that was there before (the default one ends the process;
//!   a front-end's own handler restores the terminal first). The handler does only what a
//!   signal handler may: `unlinkat`, `sigaction` and `raise` on values kept in atomics;
//! - **on the next save** into the same folder, stale partial files are swept: those of a
//!   process that no longer runs, of this process but no save in progress, and any
//!   `.save-*.tmp` untouched for [`STALE_AGE`] (an older byog's, or one whose process id was
//!   taken since). SIGKILL and a power cut cannot be caught; the sweep removes what they leave.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// A `.save-*.tmp` file not written for this long is stale whoever wrote it: no save takes
/// minutes, so its writer died or stopped (a process stopped mid-save for longer finds its
/// rename refused and its previous save intact).
pub const STALE_AGE: Duration = Duration::from_secs(10 * 60);

/// Saves in progress at once in one process, at most (more wait for a free place).
const PLACES: usize = 16;

/// For each place: the folder's descriptor while a save there is in progress, else -1.
static FOLDERS: [AtomicI32; PLACES] = [const { AtomicI32::new(-1) }; PLACES];
/// For each place: the random part of its file's name.
static NONCES: [AtomicU64; PLACES] = [const { AtomicU64::new(0) }; PLACES];
/// For each place: whether a save holds it.
static TAKEN: [AtomicBool; PLACES] = [const { AtomicBool::new(false) }; PLACES];

/// The temporary file of one save in progress; removed when dropped unless persisted.
pub(crate) struct Partial {
    place: usize,
    path: PathBuf,
    file: Option<fs::File>,
    _guard: signals::Guard,
}

impl Partial {
    /// Creates the temporary file of a save in `dir` (which exists), after sweeping the stale
    /// partial files there.
    ///
    /// # Errors
    /// The system's reason the file could not be created.
    pub(crate) fn create(dir: &Path) -> io::Result<Partial> {
        sweep(dir);
        let place = take_place();
        let nonce = nonce();
        NONCES[place].store(nonce, Ordering::SeqCst);
        let path = dir.join(name(std::process::id(), place, nonce));
        let guard = signals::Guard::new();
        let file = match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(f) => f,
            Err(e) => {
                TAKEN[place].store(false, Ordering::SeqCst);
                return Err(e);
            }
        };
        signals::watch(place, dir);
        Ok(Partial {
            place,
            path,
            file: Some(file),
            _guard: guard,
        })
    }

    /// The open file.
    pub(crate) fn file(&mut self) -> &mut fs::File {
        self.file.as_mut().expect("open until persisted")
    }

    /// Renames the file over `target`: the save is done.
    ///
    /// # Errors
    /// The rename's error; the file is removed then.
    pub(crate) fn persist(mut self, target: &Path) -> io::Result<()> {
        drop(self.file.take());
        let result = fs::rename(&self.path, target);
        if result.is_ok() {
            // Nothing to remove any more.
            self.path = PathBuf::new();
        }
        result
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        signals::unwatch(self.place);
        drop(self.file.take());
        if !self.path.as_os_str().is_empty() {
            let _ = fs::remove_file(&self.path);
        }
        TAKEN[self.place].store(false, Ordering::SeqCst);
    }
}

/// `.save-<pid>-<place>-<nonce>.tmp`.
fn name(pid: u32, place: usize, nonce: u64) -> String {
    format!(".save-{pid}-{place}-{nonce:016x}.tmp")
}

/// A free place, waiting for one when [`PLACES`] saves are in progress.
fn take_place() -> usize {
    loop {
        for (i, taken) in TAKEN.iter().enumerate() {
            if taken
                .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return i;
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A number unlikely to repeat: the time, a counter and the process id mixed (SplitMix64's
/// finaliser, Steele et al. 2014), so two processes with the same id in two containers
/// sharing a folder do not pick one name.
fn nonce() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut z = now
        ^ COUNTER.fetch_add(1, Ordering::Relaxed).rotate_left(32)
        ^ u64::from(std::process::id()).rotate_left(48);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What a `.save-*.tmp` name says about its writer.
#[derive(Debug, PartialEq, Eq)]
enum Writer {
    /// This module's name: the process id, the place and the nonce.
    Process { pid: u32, place: usize, nonce: u64 },
    /// Another name (an older byog's temporary files): only its age tells.
    Unknown,
}

fn writer_of(name: &str) -> Option<Writer> {
    let middle = name.strip_prefix(".save-")?.strip_suffix(".tmp")?;
    let mut parts = middle.split('-');
    let parsed = (|| {
        let pid = parts.next()?.parse().ok()?;
        let place = parts.next()?.parse().ok()?;
        let nonce = u64::from_str_radix(parts.next()?, 16).ok()?;
        parts
            .next()
            .is_none()
            .then_some(Writer::Process { pid, place, nonce })
    })();
    Some(parsed.unwrap_or(Writer::Unknown))
}

/// Whether the partial file `name`, last written at `modified`, is held by no live save.
fn is_stale(name: &str, modified: Option<SystemTime>) -> bool {
    let Some(writer) = writer_of(name) else {
        return false;
    };
    let old = modified
        .and_then(|m| SystemTime::now().duration_since(m).ok())
        .is_some_and(|age| age > STALE_AGE);
    match writer {
        Writer::Unknown => old,
        Writer::Process { pid, place, nonce } if pid == std::process::id() => {
            // Ours: held only while that place saves under that name.
            !(place < PLACES
                && TAKEN[place].load(Ordering::SeqCst)
                && NONCES[place].load(Ordering::SeqCst) == nonce)
        }
        Writer::Process { pid, .. } => old || !process_lives(pid),
    }
}

/// Whether a process with id `pid` runs (on systems that cannot tell, it is assumed to).
fn process_lives(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        if pid <= 0 {
            return false;
        }
        // SAFETY: signal 0 only checks that the process exists; no signal is sent.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Removes the stale partial saves of folder `dir` (see the module: a dead process, this
/// process with no save under that name, or untouched for [`STALE_AGE`]); best effort. Returns the
/// names removed.
pub fn sweep(dir: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.is_file() || !is_stale(&name, meta.modified().ok()) {
            continue;
        }
        if fs::remove_file(entry.path()).is_ok() {
            removed.push(name);
        }
    }
    removed
}

#[cfg(unix)]
mod signals {
    //! The signal side: a handler installed while at least one save is in progress.

    use super::{FOLDERS, NONCES, PLACES};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

    /// The signals that remove partial saves before they take effect.
    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    /// The action each signal had before the handler was installed.
    static PREVIOUS: [AtomicUsize; 3] = [const { AtomicUsize::new(libc::SIG_DFL) }; 3];
    static PREVIOUS_FLAGS: [AtomicI32; 3] = [const { AtomicI32::new(0) }; 3];
    /// Saves in progress, under the lock that installs and removes the handler.
    static ACTIVE: Mutex<usize> = Mutex::new(0);

    /// Keeps the handler installed while it lives.
    pub(super) struct Guard(());

    impl Guard {
        pub(super) fn new() -> Guard {
            let mut active = ACTIVE.lock().unwrap_or_else(|e| e.into_inner());
            if *active == 0 {
                install();
            }
            *active += 1;
            Guard(())
        }
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            let mut active = ACTIVE.lock().unwrap_or_else(|e| e.into_inner());
            *active -= 1;
            if *active == 0 {
                uninstall();
            }
        }
    }

    fn install() {
        for (i, &sig) in SIGNALS.iter().enumerate() {
            // SAFETY: plain sigaction calls on zeroed structs; the handler only calls
            // async-signal-safe functions (unlinkat, getpid, sigaction, raise).
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 {
                    continue;
                }
                if old.sa_sigaction == libc::SIG_IGN {
                    // Ignored (nohup, a background job): stays ignored.
                    continue;
                }
                PREVIOUS[i].store(old.sa_sigaction, Ordering::SeqCst);
                PREVIOUS_FLAGS[i].store(old.sa_flags, Ordering::SeqCst);
                let mut ours: libc::sigaction = std::mem::zeroed();
                ours.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                ours.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut ours.sa_mask);
                libc::sigaction(sig, &ours, std::ptr::null_mut());
            }
        }
    }

    fn uninstall() {
        for (i, &sig) in SIGNALS.iter().enumerate() {
            // SAFETY: as in `install`; the previous action goes back only where ours is still
            // installed.
            unsafe {
                let mut now: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut now) == 0
                    && now.sa_sigaction == on_signal as extern "C" fn(libc::c_int) as usize
                {
                    restore(i, sig);
                }
            }
        }
    }

    /// Puts back the action signal `sig` (index `i`) had.
    ///
    /// # Safety
    /// Async-signal-safe: only sigemptyset and sigaction.
    unsafe fn restore(i: usize, sig: libc::c_int) {
        // SAFETY: a zeroed sigaction filled from atomics.
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = PREVIOUS[i].load(Ordering::SeqCst);
            act.sa_flags = PREVIOUS_FLAGS[i].load(Ordering::SeqCst);
            libc::sigemptyset(&mut act.sa_mask);
            libc::sigaction(sig, &act, std::ptr::null_mut());
        }
    }

    /// Watches the partial file of `place` in `dir`: a signal now removes it.
    pub(super) fn watch(place: usize, dir: &Path) {
        let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
            return;
        };
        // SAFETY: open on a valid C string; the descriptor is closed by `unwatch`.
        let fd = unsafe {
            libc::open(
                c.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        if fd >= 0 {
            let old = FOLDERS[place].swap(fd, Ordering::SeqCst);
            close(old);
        }
    }

    /// Stops watching `place`.
    pub(super) fn unwatch(place: usize) {
        close(FOLDERS[place].swap(-1, Ordering::SeqCst));
    }

    fn close(fd: libc::c_int) {
        if fd >= 0 {
            // SAFETY: a descriptor this module opened and no longer lists.
            unsafe { libc::close(fd) };
        }
    }

    /// The handler: removes every partial save of the process, puts the previous action
    /// back and raises the signal again, so it does what it would have done.
    extern "C" fn on_signal(sig: libc::c_int) {
        // SAFETY: getpid is async-signal-safe.
        let pid = unsafe { libc::getpid() } as u64;
        for place in 0..PLACES {
            let fd = FOLDERS[place].load(Ordering::SeqCst);
            if fd < 0 {
                continue;
            }
            let mut buf = [0u8; 80];
            let len = write_name(
                &mut buf,
                pid,
                place as u64,
                NONCES[place].load(Ordering::SeqCst),
            );
            // SAFETY: `buf` holds a NUL-terminated name (`write_name` leaves room for it).
            unsafe { libc::unlinkat(fd, buf.as_ptr().cast(), 0) };
            let _ = len;
        }
        if let Some(i) = SIGNALS.iter().position(|&s| s == sig) {
            // SAFETY: async-signal-safe calls only.
            unsafe {
                restore(i, sig);
                libc::raise(sig);
            }
        }
    }

    /// Writes `.save-<pid>-<place>-<nonce as 16 hex digits>.tmp` and a NUL into `buf`
    /// without allocating (a signal handler may not); returns the name's length.
    fn write_name(buf: &mut [u8; 80], pid: u64, place: u64, nonce: u64) -> usize {
        let mut n = 0;
        let mut put = |bytes: &[u8], n: &mut usize| {
            for &b in bytes {
                buf[*n] = b;
                *n += 1;
            }
        };
        let decimal = |mut v: u64, out: &mut [u8; 20]| -> usize {
            let mut digits = [0u8; 20];
            let mut k = 0;
            loop {
                digits[k] = b'0' + (v % 10) as u8;
                k += 1;
                v /= 10;
                if v == 0 {
                    break;
                }
            }
            for j in 0..k {
                out[j] = digits[k - 1 - j];
            }
            k
        };
        let mut d = [0u8; 20];
        put(b".save-", &mut n);
        let k = decimal(pid, &mut d);
        put(&d[..k], &mut n);
        put(b"-", &mut n);
        let k = decimal(place, &mut d);
        put(&d[..k], &mut n);
        put(b"-", &mut n);
        let mut hex = [0u8; 16];
        for (j, h) in hex.iter_mut().enumerate() {
            let nibble = (nonce >> (60 - 4 * j)) & 0xf;
            *h = b"0123456789abcdef"[nibble as usize];
        }
        put(&hex, &mut n);
        put(b".tmp\0", &mut n);
        n - 1
    }

    #[cfg(test)]
    #[test]
    fn the_handler_writes_the_name_the_file_has() {
        let mut buf = [0u8; 80];
        let n = write_name(&mut buf, 4_294_967_295, 15, 0x00ab_cdef_0123_4567);
        assert_eq!(
            std::str::from_utf8(&buf[..n]).unwrap(),
            super::name(4_294_967_295, 15, 0x00ab_cdef_0123_4567)
        );
        assert_eq!(buf[n], 0);
    }
}

#[cfg(not(unix))]
mod signals {
    //! Elsewhere no handler is installed: the sweep removes what an interruption leaves.
    pub(super) struct Guard(());
    impl Guard {
        pub(super) fn new() -> Guard {
            Guard(())
        }
    }
    pub(super) fn watch(_place: usize, _dir: &std::path::Path) {}
    pub(super) fn unwatch(_place: usize) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_who_wrote_them() {
        assert_eq!(
            writer_of(&name(42, 3, 0xff)),
            Some(Writer::Process {
                pid: 42,
                place: 3,
                nonce: 0xff
            })
        );
        assert_eq!(writer_of(".save-XXXX.tmp"), Some(Writer::Unknown));
        assert_eq!(writer_of("save.bin"), None);
    }

    #[test]
    fn a_dead_process_and_an_old_file_are_stale_a_fresh_unknown_one_is_not() {
        let now = Some(SystemTime::now());
        let old = Some(SystemTime::now() - STALE_AGE - Duration::from_secs(1));
        // Process ids wrap far below this one on every system byog runs on.
        assert!(is_stale(&name(u32::MAX - 1, 0, 1), now));
        assert!(!is_stale(".save-a1b2.tmp", now));
        assert!(is_stale(".save-a1b2.tmp", old));
        // This process with no save in progress under that name.
        assert!(is_stale(&name(std::process::id(), 0, 12345), now));
        assert!(!is_stale("save.bin", old));
    }
}
