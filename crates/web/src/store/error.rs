//! Why the store failed: SQLite's errors, and the data folder's faults in words an operator
//! acts on (what, where, why, and what to do).

use std::path::{Path, PathBuf};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite's own error.
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    /// The writer thread is gone (the server is stopping).
    #[error("the database writer has stopped")]
    Closed,
    /// A row the operation needs is missing.
    #[error("{0}")]
    Missing(&'static str),
    /// A file of the data folder could not be used.
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        /// What was being done ("open", "lock", "rename").
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Another server holds the data folder.
    #[error(
        "{} is held by another byog serve ({}): one server per data folder; stop that one, or give this one another --data",
        lock.display(),
        pid.map_or("pid unknown".to_owned(), |p| format!("pid {p}"))
    )]
    Locked {
        /// The lock file.
        lock: PathBuf,
        /// The other server's process id, as its lock file says.
        pid: Option<u32>,
    },
    /// A file in the lock file's place that byog did not make.
    #[error("{} is not byog serve's lock file ({why}): move it away", path.display())]
    NotOurLock {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The database's path is not a regular file.
    #[error("{} is not a regular file: move it away, or give --data another folder", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// Another program holds the database open (a server of a version before the lock
    /// file, or a tool).
    #[error(
        "the database {} is in use by another program (a byog serve older than byog.lock, or a tool with it open): stop that first",
        db.display()
    )]
    InUse {
        /// The database file.
        db: PathBuf,
    },
    /// The database file holds tables that are not byog's.
    #[error("{} is not byog serve's database (it holds other tables): give --data another folder", db.display())]
    Foreign {
        /// The database file.
        db: PathBuf,
    },
    /// `PRAGMA quick_check` found damage.
    #[error(
        "the database {} is damaged ({}): start with --recover to keep what reads back in a fresh database (the damaged file is kept beside it)",
        db.display(),
        summary(problems)
    )]
    Damaged {
        /// The database file.
        db: PathBuf,
        /// What the check said, one problem a line.
        problems: Vec<String>,
    },
    /// The database holds fewer commits than the lock file counted.
    #[error(
        "the database {} holds {has} commits but {} says {made} were made: the last {} are missing (a damaged or cut write-ahead log, or an older copy put in its place); start with --recover to go on with what it holds (its files are kept beside it), or, to put an older copy back on purpose, delete {} first",
        db.display(), lock.display(), made - has, lock.display()
    )]
    Behind {
        /// The database file.
        db: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// Commits the database holds.
        has: u64,
        /// Commits the lock file counted.
        made: u64,
    },
    /// The database file is missing although commits were made to it.
    #[error(
        "the database {} is missing but {} says {made} commits were made to it: put it back, or start with --recover to begin an empty one",
        db.display(), lock.display()
    )]
    Gone {
        /// The database file.
        db: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// Commits the lock file counted.
        made: u64,
    },
    /// The database's schema is newer than this build knows.
    #[error(
        "the database {} has schema version {version}; this byog knows versions up to {known}: use a newer byog",
        db.display()
    )]
    Newer {
        /// The database file.
        db: PathBuf,
        /// Its schema version.
        version: u32,
        /// The newest schema version this build knows (the store's `schema::CURRENT`).
        known: u32,
    },
    /// `--recover` failed; the database's files were put back as they were found.
    #[error(
        "--recover failed, and {} was put back as it was found: {source}",
        db.display()
    )]
    Recover {
        /// The database file.
        db: PathBuf,
        /// Why.
        source: Box<StoreError>,
    },
    /// The data folder's files changed under the running server (deleted, moved or
    /// replaced): nothing is acknowledged any more.
    #[error("{0}")]
    Replaced(String),
    /// A commit failed; nothing of it was written.
    #[error("the commit failed: {0}")]
    Commit(String),
    /// The game's key log is damaged: it cannot be resumed or scored.
    #[error("game {game} cannot be resumed or scored: its key log is damaged ({why})")]
    DamagedGame {
        /// The game's id.
        game: String,
        /// What is missing.
        why: String,
    },
    /// A batch that does not follow the game's last one.
    #[error("batch {seq} of game {game} does not follow its batch {have}")]
    Sequence {
        /// The game's id.
        game: String,
        /// The batch's number in the log.
        seq: u64,
        /// The batches the log holds.
        have: u64,
    },
}

/// The first problems of a check, joined.
pub(super) fn summary(problems: &[String]) -> String {
    let mut s = problems
        .iter()
        .take(3)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if problems.len() > 3 {
        s.push_str(&format!("; and {} more", problems.len() - 3));
    }
    s
}

impl StoreError {
    /// Whether this is a duplicate refused: a UNIQUE constraint, or a batch whose place in
    /// the log is taken.
    pub fn is_duplicate(&self) -> bool {
        match self {
            StoreError::Sql(rusqlite::Error::SqliteFailure(e, _)) => {
                e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                    || e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
            }
            StoreError::Sequence { seq, have, .. } => seq <= have,
            _ => false,
        }
    }

    pub(super) fn io(what: &'static str, path: &Path, source: std::io::Error) -> StoreError {
        StoreError::Io {
            what,
            path: path.to_owned(),
            source,
        }
    }
}
