//! What the server keeps (`docs/web.md`, "What is stored"): one SQLite database in WAL mode,
//! owned by one server. The writer is a thread of its own that takes every write from a
//! channel and commits whatever has queued up in one transaction (group commit), then
//! answers each write: at a thousand players a commit carries a few dozen batches, and a
//! batch of keys is acknowledged only once its transaction has committed. Reads share the
//! writer's connection between its transactions (the database is opened in exclusive
//! locking mode: no other connection, no `-shm` file mapped into memory).
//!
//! One server per data folder: [`Store::open_with`] takes the lock file `byog.lock`
//! (module `lock`) for the store's life, checks the database before anything writes to it
//! (`PRAGMA quick_check`, and the commit counter the lock file keeps against the one in the
//! database, which finds commits a damaged write-ahead log dropped without an error),
//! migrates its schema (module `schema`), repairs doubled key logs and marks damaged ones
//! (module `logs`); with [`StoreOptions::recover`] a damaged database is copied, what reads
//! back, into a fresh one (module `recover`). While it runs, a database file deleted or replaced
//! under it stops every acknowledgement (module `writer`).
//!
//! [`Store`] is the seam: the server uses nothing else of SQLite, so a store over a shared
//! PostgreSQL (the same tables) can take its place when games are served by several
//! machines (`docs/web.md`, "Past one machine").
//!
//! Durability: `synchronous = NORMAL` in WAL mode writes every commit to the log before
//! answering, so a killed server (the process) loses nothing acknowledged; only a power
//! loss or a kernel crash may lose the last commits (`--sync full` closes that too, at a
//! cost measured in `docs/web.md`).

mod error;
mod lock;
mod logs;
mod recover;
mod rows;
mod schema;
mod writer;

use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::oneshot;

pub use error::StoreError;
pub use rows::{GameRow, NewGame, NewScore, ScoreRow};
pub use schema::CURRENT as SCHEMA_VERSION;

use error::summary;
use writer::{Files, Write};

/// The database's file name in the data folder.
pub const DB_FILE: &str = "byog.sqlite3";

/// How hard a commit is synced to disk: `normal` (a killed process loses nothing
/// acknowledged) or `full` (a power loss neither).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncMode {
    /// `PRAGMA synchronous = NORMAL`.
    Normal,
    /// `PRAGMA synchronous = FULL`.
    Full,
}

/// How a store is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreOptions {
    /// How hard commits are synced.
    pub sync: SyncMode,
    /// Start even when the database fails its checks: copy what reads back into a fresh
    /// database, keep the damaged files beside it, and say what was dropped (`--recover`).
    pub recover: bool,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            sync: SyncMode::Normal,
            recover: false,
        }
    }
}

/// What the writer and the readers share: the one connection, then the folder's files (the
/// lock among them, released after the connection has closed).
struct Shared {
    conn: Mutex<Connection>,
    files: Files,
}

/// The database: one connection, written by one thread, read between its transactions.
pub struct Store {
    writes: Option<mpsc::Sender<Write>>,
    writer: Option<thread::JoinHandle<()>>,
    shared: Arc<Shared>,
    startup: Vec<String>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Store")
    }
}

impl Drop for Store {
    /// Stops the writer (after the writes already sent), then closes the database and
    /// releases the folder.
    fn drop(&mut self) {
        self.writes.take();
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
    }
}

/// Unix seconds now (the clock lives with the days, which the store's file names read).
pub use crate::daily::now_unix;

/// Opens the database file `path` in exclusive locking mode (set before the file is first
/// read, so SQLite keeps the write-ahead log's index in memory and never maps a `-shm`
/// file), with closing's checkpoint off until the store has checked it: a database that is
/// refused is left exactly as it was found.
fn connect(path: &Path, sync: SyncMode) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    // Only another program can hold the file (the server holds it alone once open): two
    // seconds for one that is finishing, then the start refuses.
    conn.busy_timeout(std::time::Duration::from_secs(2))?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
    conn.pragma_update(None, "locking_mode", "EXCLUSIVE")?;
    conn.pragma_update(
        None,
        "synchronous",
        match sync {
            SyncMode::Normal => "NORMAL",
            SyncMode::Full => "FULL",
        },
    )?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

/// Switches `conn` to WAL (a no-op when it is already).
fn wal(conn: &Connection) -> Result<(), StoreError> {
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    if mode.eq_ignore_ascii_case("wal") {
        Ok(())
    } else {
        Err(StoreError::Commit(format!(
            "the database stays in journal mode {mode}, not WAL"
        )))
    }
}

/// The commits the database counted (0 before the counter existed).
fn commits_in(conn: &Connection) -> Result<u64, StoreError> {
    let has_meta: bool = conn.query_row(
        "SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'table' AND name = 'meta'",
        [],
        |r| r.get(0),
    )?;
    if !has_meta {
        return Ok(0);
    }
    let v: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = 'commits'", [], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(v.and_then(|v| v.parse().ok()).unwrap_or(0))
}

/// What the start-up check found wrong with an existing database.
enum Problem {
    /// `PRAGMA quick_check`'s lines, or the error that stopped it.
    Damaged(Vec<String>),
    /// The database holds `has` commits, the lock file counted `made`.
    Behind { has: u64, made: u64 },
    /// Another program holds the database (SQLite's busy or locked).
    InUse,
}

/// Whether `e` says another connection holds the database.
fn busy(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _)
        if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
}

/// Opens the existing database `db` and checks it before anything writes to it.
fn checked(db: &Path, sync: SyncMode, made: Option<u64>) -> (Option<Connection>, Option<Problem>) {
    let conn = match connect(db, sync) {
        Ok(c) => c,
        Err(StoreError::Sql(e)) if busy(&e) => return (None, Some(Problem::InUse)),
        Err(e) => return (None, Some(Problem::Damaged(vec![e.to_string()]))),
    };
    let lines = conn.prepare("PRAGMA quick_check(20)").and_then(|mut st| {
        st.query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()
    });
    let lines = match lines {
        // Its heading ("*** in database main ***") says nothing here.
        Ok(lines) => lines
            .into_iter()
            .filter(|l| !l.starts_with("*** in database"))
            .collect(),
        Err(e) if busy(&e) => return (Some(conn), Some(Problem::InUse)),
        Err(e) => vec![e.to_string()],
    };
    if lines != ["ok"] {
        return (Some(conn), Some(Problem::Damaged(lines)));
    }
    let has = match commits_in(&conn) {
        Ok(n) => n,
        Err(StoreError::Sql(e)) if busy(&e) => return (Some(conn), Some(Problem::InUse)),
        Err(e) => return (Some(conn), Some(Problem::Damaged(vec![e.to_string()]))),
    };
    match made {
        Some(made) if made > has => (Some(conn), Some(Problem::Behind { has, made })),
        _ => (Some(conn), None),
    }
}

impl Store {
    /// Opens (or makes) the database `byog.sqlite3` in `dir`, creating the folder, with the
    /// default [`StoreOptions`] but `sync`.
    ///
    /// # Errors
    /// As [`Store::open_with`].
    pub fn open(dir: &Path, sync: SyncMode) -> Result<Store, StoreError> {
        Store::open_with(
            dir,
            StoreOptions {
                sync,
                ..StoreOptions::default()
            },
        )
    }

    /// Opens (or makes) the database `byog.sqlite3` in `dir`, creating the folder: takes
    /// the folder's lock, checks the database, migrates it to [`SCHEMA_VERSION`], repairs
    /// doubled key logs, marks damaged ones, and starts the writer. What it found and did
    /// is in [`Store::startup`].
    ///
    /// # Errors
    /// [`StoreError::Locked`] when another server holds the folder;
    /// [`StoreError::Damaged`], [`StoreError::Behind`] or [`StoreError::Gone`] when the
    /// database fails its checks (unless `options.recover`); [`StoreError::Newer`] for a
    /// schema this build does not know; [`StoreError::Foreign`], [`StoreError::NotOurLock`]
    /// and [`StoreError::NotAFile`] for files byog did not make; [`StoreError::Io`] and
    /// [`StoreError::Sql`] when a file cannot be used.
    pub fn open_with(dir: &Path, options: StoreOptions) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::io("create the folder", dir, e))?;
        let (lock, made) = lock::Lock::acquire(dir)?;
        let db = dir.join(DB_FILE);
        let mut notes = Vec::new();
        let exists = |p: &Path| std::fs::symlink_metadata(p).is_ok();
        // A FIFO or a device in its place would hang SQLite's first read.
        if exists(&db) && !std::fs::metadata(&db).is_ok_and(|m| m.is_file()) {
            return Err(StoreError::NotAFile { path: db });
        }
        let mut conn = if !exists(&db) {
            let orphans = recover::companions(&db).into_iter().any(|p| exists(&p));
            let made = made.unwrap_or(0);
            if made > 0 || orphans {
                if !options.recover {
                    return Err(StoreError::Gone {
                        db,
                        lock: lock.path().to_owned(),
                        made,
                    });
                }
                recover::set_aside_companions(&db, &mut notes)?;
                notes.push(format!(
                    "--recover: {} was missing although {} says {made} commits were made to it: began an empty database",
                    db.display(),
                    lock.path().display()
                ));
            }
            connect(&db, options.sync)?
        } else {
            let wal_before = exists(&writer::wal_path(&db));
            match checked(&db, options.sync, made) {
                (Some(conn), None) => {
                    if options.recover {
                        notes.push(format!(
                            "--recover: {} checks (quick_check ok, its {} commits all there): nothing to recover",
                            db.display(),
                            commits_in(&conn)?
                        ));
                    }
                    conn
                }
                (conn, Some(problem)) => {
                    // Closed without a checkpoint: the database is left as found, but for
                    // the empty log SQLite made beside it to read it.
                    drop(conn);
                    let wal = writer::wal_path(&db);
                    if !wal_before && std::fs::metadata(&wal).is_ok_and(|m| m.len() == 0) {
                        let _ = std::fs::remove_file(&wal);
                    }
                    let why = match problem {
                        // Never set aside a file another program is writing.
                        Problem::InUse => return Err(StoreError::InUse { db }),
                        Problem::Damaged(problems) if !options.recover => {
                            return Err(StoreError::Damaged { db, problems });
                        }
                        Problem::Behind { has, made } if !options.recover => {
                            return Err(StoreError::Behind {
                                db,
                                lock: lock.path().to_owned(),
                                has,
                                made,
                            });
                        }
                        Problem::Damaged(problems) => {
                            format!("PRAGMA quick_check: {}", summary(&problems))
                        }
                        Problem::Behind { has, made } => format!(
                            "it holds {has} commits, {} counted {made}: the last {} were lost, and the games written in them are back where they stood before them",
                            lock.path().display(),
                            made - has
                        ),
                    };
                    recover::recover(&db, options.sync, &why, &mut notes)?
                }
                (None, None) => unreachable!("a check without a connection found a problem"),
            }
        };
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, false)?;
        wal(&conn)?;
        schema::migrate(&mut conn, &db, &mut notes)?;
        logs::check(&mut conn, &mut notes)?;
        // The counter goes on from the larger of the two: after a recovery the lock file's.
        let mut commits = commits_in(&conn)?;
        if let Some(made) = made
            && made > commits
        {
            commits = made;
            conn.execute(
                "UPDATE meta SET value = ?1 WHERE key = 'commits'",
                [commits.to_string()],
            )?;
        }
        lock.record(commits)
            .map_err(|e| StoreError::io("write", lock.path(), e))?;
        let files = Files::new(db, lock)?;
        let shared = Arc::new(Shared {
            conn: Mutex::new(conn),
            files,
        });
        let (tx, rx) = mpsc::channel::<Write>();
        let for_writer = Arc::clone(&shared);
        let writer = thread::Builder::new()
            .name("byog-db-writer".into())
            .spawn(move || writer::run(for_writer, rx, commits))
            .map_err(|e| StoreError::io("start the writer thread for", dir, e))?;
        Ok(Store {
            writes: Some(tx),
            writer: Some(writer),
            shared,
            startup: notes,
        })
    }

    /// What opening found and did, one sentence each: migrations, repaired key logs, games
    /// marked damaged, what `--recover` kept and dropped. Empty for a database that was
    /// fine and current.
    pub fn startup(&self) -> &[String] {
        &self.startup
    }

    fn send(&self, write: Write) -> Result<(), Write> {
        match &self.writes {
            Some(w) => w.send(write).map_err(|mpsc::SendError(w)| w),
            None => Err(write),
        }
    }

    /// Appends `keys` to game `game`'s key log as its `seq`-th batch, with the player's
    /// batch number `n` (none for the steps of a walk the server took). Resolves once
    /// committed; refused ([`StoreError::Sequence`]) unless `seq` follows the log's last
    /// batch, and for a damaged game ([`StoreError::DamagedGame`]).
    pub fn append(
        &self,
        game: &str,
        seq: u64,
        n: Option<u64>,
        keys: &str,
    ) -> oneshot::Receiver<Result<(), StoreError>> {
        let (done, rx) = oneshot::channel();
        let write = Write::Batch {
            game: game.to_owned(),
            seq,
            n,
            keys: keys.to_owned(),
            done,
        };
        if let Err(Write::Batch { done, .. }) = self.send(write) {
            let _ = done.send(Err(StoreError::Closed));
        }
        rx
    }

    /// Runs `job` on the writer's connection inside its next transaction (in a savepoint of
    /// its own: a job that fails leaves nothing); resolves to its result once committed.
    ///
    /// # Errors
    /// The job's error, [`StoreError::Commit`] when the commit failed,
    /// [`StoreError::Replaced`] once the database's files changed under the server.
    pub async fn write<F>(&self, job: F) -> Result<i64, StoreError>
    where
        F: FnOnce(&Connection) -> Result<i64, StoreError> + Send + 'static,
    {
        let (done, rx) = oneshot::channel();
        self.send(Write::Exec {
            job: Box::new(job),
            done,
        })
        .map_err(|_| StoreError::Closed)?;
        rx.await.map_err(|_| StoreError::Closed)?
    }

    /// Runs `f` on the connection, between the writer's transactions (so it sees only
    /// what was committed).
    ///
    /// # Errors
    /// `f`'s.
    pub fn read<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.shared.conn.lock().unwrap_or_else(|e| e.into_inner());
        f(&conn)
    }

    /// A meta value, made by `make` and stored the first time it is asked for.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn meta_or(&self, key: &'static str, make: String) -> Result<String, StoreError> {
        if let Some(v) = self.read(|c| {
            Ok(
                c.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
                    .optional()?,
            )
        })? {
            return Ok(v);
        }
        self.write(move |c| {
            c.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES (?1, ?2)",
                params![key, make],
            )?;
            Ok(0)
        })
        .await?;
        self.read(
            |c| Ok(c.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))?),
        )
    }
}

#[cfg(test)]
mod tests;
