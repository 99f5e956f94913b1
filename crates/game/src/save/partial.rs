//! Partial saves: the temporary file a save writes before renaming it over the save
//! (`docs/saves.md`). Each is named `.save-<pid>-<n>-<nonce>.tmp` after the process writing
//! it, so that a later save knows whether a byog still holds it, and:
//!
//! - **on a signal** (SIGINT, SIGTERM, SIGHUP) that arrives during a save, the action this
//!   module registers through signal-hook at the first save removes the partial files of the
//!   process, and the signal then does what it did before (the default action ends the
//!   process; a front-end's own handling restores the terminal first; an ignored signal stays
//!   ignored). The action does only what a signal handler may: `unlinkat` on values kept in
//!   atomics, then, where the signal ended the process, signal-hook's emulation of that;
//! - **on the next save** into the same folder, stale partial files are swept: those of a
//!   process that no longer runs, of this process but no save in progress, and any
//!   `.save-*.tmp` untouched for [`STALE_AGE`] (an older byog's, or one whose process id was
//!   taken since). SIGKILL and a power cut cannot be caught; the sweep removes what they leave.

// Unsafe code here, and only here in the game: the signal action (signal-hook's `register`,
// whose action must be async-signal-safe) and the libc calls it and the sweep make (`kill`
// to ask whether a process runs, `getpid`, `openat`/`unlinkat`/`close` on a folder kept open,
// the clock), none of which std offers in a form a signal handler may call.
#![allow(unsafe_code)]

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
        signals::register_once();
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
    //! The signal side, through signal-hook (as the terminal's and the server's own signal
    //! handling): the first save of the process registers, for SIGINT, SIGTERM and SIGHUP, an
    //! action that removes the partial saves in progress. signal-hook cannot give a signal
    //! back the action it had before, so the registration stays for the life of the process,
    //! and what each signal did before it goes on happening:
    //!
    //! - **ended the process** (the default action): the partial saves are removed, then the
    //!   process ends as the default action would have ended it;
    //! - **was ignored** (`nohup`, a background job): nothing is registered; an ignored signal
    //!   ends nothing, so it leaves no partial save behind;
    //! - **was the program's** (a front-end that restores the terminal first, a server that
    //!   stops gracefully; through signal-hook or a handler of its own): the partial saves are
    //!   removed, and the program's handling runs as before (signal-hook chains a handler of
    //!   another kind, and runs every action registered through it). A program that handles
    //!   these signals itself registers its handling before its first save.
    //!
    //! The action does only what a signal handler may: it reads atomics, and calls `getpid`,
    //! `unlinkat` and signal-hook's emulation of the default action.

    use super::{FOLDERS, NONCES, PLACES};
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::Once;
    use std::sync::atomic::Ordering;

    /// The signals that remove partial saves before they take effect.
    const SIGNALS: [libc::c_int; 3] = [SIGINT, SIGTERM, SIGHUP];

    /// What a signal did when the first save registered the clean-up.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Before {
        /// Its default action (for these three: end the process).
        Default,
        /// Ignored.
        Ignored,
        /// A handler of the program's.
        Handled,
    }

    /// Registers the clean-up on the first call; later calls do nothing.
    pub(super) fn register_once() {
        static REGISTER: Once = Once::new();
        REGISTER.call_once(|| {
            for sig in SIGNALS {
                let ends = match before(sig) {
                    Before::Ignored => continue,
                    Before::Default => true,
                    Before::Handled => false,
                };
                let action = move || {
                    remove_partial_saves();
                    if ends {
                        let _ = signal_hook::low_level::emulate_default_handler(sig);
                    }
                };
                // SAFETY: the action is async-signal-safe: it reads atomics and calls getpid,
                // unlinkat and `emulate_default_handler` (documented async-signal-safe).
                // Registering can fail only for a signal the system lacks: nothing to do then.
                let _ = unsafe { signal_hook::low_level::register(sig, action) };
            }
        });
    }

    /// What `sig` does now, read (never set: actions are registered through signal-hook
    /// only). A signal whose action cannot be read is taken as ending the process.
    fn before(sig: libc::c_int) -> Before {
        // SAFETY: `sigaction` with no new action only reads the current one into `now`, a
        // zeroed C struct.
        let now = unsafe {
            let mut now: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut now) != 0 {
                return Before::Default;
            }
            now
        };
        match now.sa_sigaction {
            libc::SIG_DFL => Before::Default,
            libc::SIG_IGN => Before::Ignored,
            _ => Before::Handled,
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

    /// Removes every partial save of the process (run in a signal handler: no allocation, no
    /// lock; `unlinkat` in each watched folder's descriptor).
    fn remove_partial_saves() {
        // SAFETY: getpid is async-signal-safe.
        let pid = unsafe { libc::getpid() } as u64;
        for place in 0..PLACES {
            let fd = FOLDERS[place].load(Ordering::SeqCst);
            if fd < 0 {
                continue;
            }
            let mut buf = [0u8; 80];
            write_name(
                &mut buf,
                pid,
                place as u64,
                NONCES[place].load(Ordering::SeqCst),
            );
            // SAFETY: `buf` holds a NUL-terminated name (`write_name` leaves room for it).
            unsafe { libc::unlinkat(fd, buf.as_ptr().cast(), 0) };
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
    //! Elsewhere no handler is registered: the sweep removes what an interruption leaves.
    pub(super) fn register_once() {}
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

/// Signals during and after saves, each in a child process (this test binary run again on one
/// test, with the scenario in the environment), since a signal may end the process.
#[cfg(all(test, unix))]
mod signal_tests {
    use super::*;
    use std::io::{BufRead, BufReader, Write};
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Child, Command, Stdio};
    use std::sync::Arc;

    /// The scenario a child plays, and the folder it saves in.
    const SCENARIO: &str = "BYOG_PARTIAL_SIGNAL_SCENARIO";
    const DIR: &str = "BYOG_PARTIAL_SIGNAL_DIR";
    /// The file the parent creates to let a waiting child go on.
    const GO: &str = "go";

    /// Waits (at most a minute) until `done` holds.
    fn wait_until(done: impl Fn() -> bool) {
        for _ in 0..6000 {
            if done() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn say(line: &str) {
        println!("{line}");
        std::io::stdout().flush().unwrap();
    }

    /// Writes a megabyte of a save in `dir`, says "halfway", waits for the parent's go (or a
    /// signal), then renames it over `save.bin` and says whether that worked.
    fn save_halfway(dir: &Path) {
        let mut partial = Partial::create(dir).unwrap();
        partial.file().write_all(&[7u8; 1 << 20]).unwrap();
        say("halfway");
        wait_until(|| dir.join(GO).exists());
        match partial.persist(&dir.join("save.bin")) {
            Ok(()) => say("saved"),
            Err(e) => say(&format!("not saved: {e}")),
        }
    }

    /// In a child: plays the scenario and exits; in the test itself: returns.
    fn child() {
        let (Some(scenario), Some(dir)) = (std::env::var_os(SCENARIO), std::env::var_os(DIR))
        else {
            return;
        };
        let dir = PathBuf::from(dir);
        match scenario.to_str().unwrap() {
            "halfway" => save_halfway(&dir),
            "after" => {
                let mut partial = Partial::create(&dir).unwrap();
                partial.file().write_all(b"a save").unwrap();
                partial.persist(&dir.join("save.bin")).unwrap();
                say("saved");
                wait_until(|| dir.join(GO).exists());
                say("outlived the signal");
            }
            "handled" => {
                // The program's own handling, registered before its first save (as the
                // terminal's is).
                let flag = Arc::new(AtomicBool::new(false));
                signal_hook::flag::register(libc::SIGTERM, flag.clone()).unwrap();
                let mut partial = Partial::create(&dir).unwrap();
                partial.file().write_all(&[7u8; 1 << 20]).unwrap();
                say("halfway");
                wait_until(|| flag.load(Ordering::SeqCst));
                let left = fs::read_dir(&dir).unwrap().count();
                say(&format!("handled; {left} files left"));
                drop(partial);
            }
            other => panic!("no scenario {other}"),
        }
        std::process::exit(0);
    }

    /// Runs test `name` of this binary again as a child playing `scenario` in `dir`, behind
    /// `wrapper` (a program that runs it, e.g. `nohup`) if given; returns it once it has said
    /// `ready`.
    fn spawn(
        name: &str,
        scenario: &str,
        dir: &Path,
        wrapper: Option<&str>,
        ready: &str,
    ) -> (Child, impl Iterator<Item = String>) {
        let exe = std::env::current_exe().unwrap();
        let mut command = match wrapper {
            Some(w) => {
                let mut c = Command::new(w);
                c.arg(exe);
                c
            }
            None => Command::new(exe),
        };
        let mut child = command
            .args([
                "--exact",
                &format!("save::partial::signal_tests::{name}"),
                "--test-threads=1",
                "--nocapture",
            ])
            .env(SCENARIO, scenario)
            .env(DIR, dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap())
            .lines()
            .map_while(Result::ok);
        assert!(
            lines.any(|l| l.ends_with(ready)),
            "the child never said {ready:?}"
        );
        (child, lines)
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn kill(child: &Child, signal: libc::c_int) {
        // SAFETY: a signal to a child this test started and has not waited for.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    }

    #[test]
    fn a_signal_during_a_save_removes_its_partial_file_and_ends_the_process() {
        child();
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            let dir = tempfile::tempdir().unwrap();
            let (mut child, _) = spawn(
                "a_signal_during_a_save_removes_its_partial_file_and_ends_the_process",
                "halfway",
                dir.path(),
                None,
                "halfway",
            );
            let partial = names(dir.path());
            assert!(
                partial.len() == 1 && partial[0].ends_with(".tmp"),
                "{partial:?}"
            );
            kill(&child, signal);
            let status = child.wait().unwrap();
            assert_eq!(status.signal(), Some(signal), "{status:?}");
            assert_eq!(names(dir.path()), Vec::<String>::new(), "signal {signal}");
        }
    }

    #[test]
    fn after_a_save_the_signals_still_end_the_process() {
        child();
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            let dir = tempfile::tempdir().unwrap();
            let (mut child, _) = spawn(
                "after_a_save_the_signals_still_end_the_process",
                "after",
                dir.path(),
                None,
                "saved",
            );
            kill(&child, signal);
            let status = child.wait().unwrap();
            assert_eq!(status.signal(), Some(signal), "{status:?}");
            assert_eq!(names(dir.path()), ["save.bin"]);
        }
    }

    #[test]
    fn an_ignored_signal_stays_ignored_and_the_save_goes_on() {
        child();
        let dir = tempfile::tempdir().unwrap();
        // nohup starts the child with SIGHUP ignored.
        let (mut child, mut lines) = spawn(
            "an_ignored_signal_stays_ignored_and_the_save_goes_on",
            "halfway",
            dir.path(),
            Some("nohup"),
            "halfway",
        );
        kill(&child, libc::SIGHUP);
        std::thread::sleep(Duration::from_millis(100));
        fs::write(dir.path().join(GO), b"").unwrap();
        assert!(
            lines.any(|l| l.ends_with("saved")),
            "the save did not go on"
        );
        let status = child.wait().unwrap();
        assert!(status.success(), "{status:?}");
        assert_eq!(names(dir.path()), [GO, "save.bin"]);
        assert_eq!(
            fs::read(dir.path().join("save.bin")).unwrap().len(),
            1 << 20
        );
    }

    #[test]
    fn a_signal_the_program_handles_removes_the_partial_file_and_reaches_the_program() {
        child();
        let dir = tempfile::tempdir().unwrap();
        let (mut child, mut lines) = spawn(
            "a_signal_the_program_handles_removes_the_partial_file_and_reaches_the_program",
            "handled",
            dir.path(),
            None,
            "halfway",
        );
        kill(&child, libc::SIGTERM);
        let said = lines.find(|l| l.contains("handled")).unwrap_or_default();
        assert!(said.ends_with("handled; 0 files left"), "{said:?}");
        let status = child.wait().unwrap();
        assert!(
            status.success(),
            "the program's handler kept it alive: {status:?}"
        );
        assert_eq!(names(dir.path()), Vec::<String>::new());
    }
}
