//! One server per data folder: the lock file `byog.lock`, locked (`flock`) for the store's
//! life, naming the server's process id, and counting the commits made to the database. The
//! count is written after every commit, outside the database: a database that holds fewer
//! commits than its lock file counted lost some (a damaged or cut write-ahead log makes
//! SQLite drop every later commit without an error), which its own content cannot show.
//!
//! The file is text of a fixed length, rewritten in place:
//!
//! ```text
//! byog serve lock
//! pid 12345
//! commits 678
//! ```
//! (the numbers padded to a fixed width). Removing it while no server runs forgets the
//! count: the next start trusts the database as it finds it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Read;
use std::path::{Path, PathBuf};

use super::StoreError;

/// The lock file's name in the data folder.
pub const LOCK_FILE: &str = "byog.lock";

/// Its first line.
const HEAD: &str = "byog serve lock";

/// A file's identity: its device and inode (on Unix), to notice it was replaced.
pub type Id = (u64, u64);

/// The identity of the file at `path`, without following a last symbolic link.
///
/// # Errors
/// The file system's error when `path` cannot be examined (missing, no permission).
pub fn id_of(path: &Path) -> std::io::Result<Id> {
    let m = std::fs::symlink_metadata(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Ok((m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        Ok((0, 0))
    }
}

/// The held lock.
#[derive(Debug)]
pub struct Lock {
    file: File,
    path: PathBuf,
    id: Id,
    pid: u32,
}

/// The lock file's text for `pid` and `commits`.
fn render(pid: u32, commits: u64) -> String {
    format!("{HEAD}\npid {pid:>10}\ncommits {commits:>20}\n")
}

/// The pid and the commit count a lock file's text gives; `None` when it is not one.
fn parse(text: &str) -> Option<(Option<u32>, Option<u64>)> {
    let mut lines = text.lines();
    if lines.next()? != HEAD {
        return None;
    }
    let (mut pid, mut commits) = (None, None);
    for line in lines {
        match line.split_once(' ') {
            Some(("pid", v)) => pid = v.trim().parse().ok(),
            Some(("commits", v)) => commits = v.trim().parse().ok(),
            _ => return None,
        }
    }
    Some((pid, commits))
}

impl Lock {
    /// Takes `dir`'s lock; returns it and the commits its file counted (none when the file
    /// is new or empty).
    ///
    /// # Errors
    /// [`StoreError::Locked`] when another process holds it (named by the pid its file
    /// gives), [`StoreError::NotOurLock`] when the file is not a lock file byog wrote,
    /// [`StoreError::Io`] when it cannot be opened, locked or written.
    pub fn acquire(dir: &Path) -> Result<(Lock, Option<u64>), StoreError> {
        let path = dir.join(LOCK_FILE);
        let before = std::fs::symlink_metadata(&path).ok();
        if let Some(m) = &before
            && !m.file_type().is_file()
        {
            return Err(StoreError::NotOurLock {
                path,
                why: "it is not a regular file".into(),
            });
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| StoreError::io("open", &path, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let pid = std::fs::read_to_string(&path)
                    .ok()
                    .and_then(|t| parse(&t))
                    .and_then(|(pid, _)| pid);
                return Err(StoreError::Locked { lock: path, pid });
            }
            Err(TryLockError::Error(e)) => return Err(StoreError::io("lock", &path, e)),
        }
        let id = id_of(&path).map_err(|e| StoreError::io("look at", &path, e))?;
        let mut text = String::new();
        (&mut file)
            .take(4096)
            .read_to_string(&mut text)
            .map_err(|_| StoreError::NotOurLock {
                path: path.clone(),
                why: "it is not text".into(),
            })?;
        let made = if text.is_empty() {
            None
        } else {
            match parse(&text) {
                Some((_, commits)) => commits,
                None => {
                    return Err(StoreError::NotOurLock {
                        path,
                        why: format!("it does not start with \"{HEAD}\""),
                    });
                }
            }
        };
        let lock = Lock {
            file,
            path,
            id,
            pid: std::process::id(),
        };
        lock.record(made.unwrap_or(0))
            .map_err(|e| StoreError::io("write", &lock.path, e))?;
        lock.file
            .set_len(render(0, 0).len() as u64)
            .map_err(|e| StoreError::io("write", &lock.path, e))?;
        Ok((lock, made))
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The lock file's identity when it was taken.
    pub fn id(&self) -> Id {
        self.id
    }

    /// Writes this server's pid and `commits` into the file, in place (no sync: a killed
    /// process loses nothing written; after a power cut the count may be behind, never
    /// ahead of what the file system kept of the database when `--sync full` synced it).
    ///
    /// # Errors
    /// When the write fails.
    pub fn record(&self, commits: u64) -> std::io::Result<()> {
        let text = render(self.pid, commits);
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileExt;
            self.file.write_all_at(text.as_bytes(), 0)
        }
        #[cfg(not(unix))]
        {
            use std::io::{Seek, SeekFrom, Write};
            let mut f = &self.file;
            f.seek(SeekFrom::Start(0))?;
            f.write_all(text.as_bytes())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_file_says_its_pid_and_count_at_a_fixed_length() {
        let a = render(7, 0);
        let b = render(4_000_000, 123_456_789);
        assert_eq!(a.len(), b.len());
        assert_eq!(parse(&b), Some((Some(4_000_000), Some(123_456_789))));
        assert_eq!(parse("something else\n"), None);
        assert_eq!(parse(&format!("{HEAD}\nrm -rf\n")), None);
    }

    #[test]
    fn a_second_lock_on_one_folder_is_refused_with_the_first_pid() {
        let dir = tempfile::tempdir().unwrap();
        let (first, made) = Lock::acquire(dir.path()).unwrap();
        assert_eq!(made, None);
        first.record(5).unwrap();
        match Lock::acquire(dir.path()) {
            Err(StoreError::Locked { pid, .. }) => assert_eq!(pid, Some(std::process::id())),
            other => panic!("a second lock: {other:?}"),
        }
        drop(first);
        let (_again, made) = Lock::acquire(dir.path()).unwrap();
        assert_eq!(made, Some(5));
    }

    #[test]
    fn a_file_byog_did_not_make_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOCK_FILE);
        std::fs::write(&path, "my notes\n").unwrap();
        assert!(matches!(
            Lock::acquire(dir.path()),
            Err(StoreError::NotOurLock { .. })
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "my notes\n");
    }
}
