//! The writer thread: waits for a write, takes every other write already queued (up to
//! [`GROUP`]), runs them in one transaction (each in a savepoint of its own, so a write that
//! fails leaves nothing), counts the commit in the database, commits, and only then answers
//! them all.
//!
//! After each commit it looks at the folder's files (a `stat` each: the database, its
//! write-ahead log, the lock file): one deleted, moved or replaced means the commit went
//! into a file nobody will open again, so the writes are answered with an error, not
//! acknowledged, and so is every write after it until the server is restarted. Otherwise
//! the commit's number is written into the lock file ([`super::lock`]).

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::oneshot;

use super::lock::{Id, Lock, id_of};
use super::{Shared, StoreError};

/// Most writes one transaction takes.
const GROUP: usize = 1024;

/// Work on the writer's connection.
pub type Job = Box<dyn FnOnce(&Connection) -> Result<i64, StoreError> + Send>;

/// A write, answered once its transaction committed.
pub enum Write {
    /// A batch of a game's key log.
    Batch {
        game: String,
        seq: u64,
        n: Option<u64>,
        keys: String,
        done: oneshot::Sender<Result<(), StoreError>>,
    },
    /// Any other write.
    Exec {
        job: Job,
        done: oneshot::Sender<Result<i64, StoreError>>,
    },
}

/// The write-ahead log's path beside database `db`.
pub fn wal_path(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push("-wal");
    PathBuf::from(p)
}

/// The data folder's files as the store opened them.
pub struct Files {
    db: PathBuf,
    db_id: Id,
    wal: PathBuf,
    /// The log's identity, once it exists (SQLite makes it at the first write).
    wal_id: OnceLock<Id>,
    lock: Lock,
    /// Why nothing is acknowledged any more, once the files changed.
    broken: OnceLock<String>,
}

impl Files {
    /// The files of database `db` and its held `lock`, as they are now.
    ///
    /// # Errors
    /// When the database file cannot be looked at.
    pub fn new(db: PathBuf, lock: Lock) -> Result<Files, StoreError> {
        let db_id = id_of(&db).map_err(|e| StoreError::io("look at", &db, e))?;
        let wal = wal_path(&db);
        let wal_id = OnceLock::new();
        if let Ok(id) = id_of(&wal) {
            let _ = wal_id.set(id);
        }
        Ok(Files {
            db,
            db_id,
            wal,
            wal_id,
            lock,
            broken: OnceLock::new(),
        })
    }

    /// Whether the files are still the ones opened; why not, when not.
    fn check(&self) -> Result<(), String> {
        let gone = |what: &str, path: &Path, then: &str| {
            format!(
                "{what} {} was deleted, moved or replaced while the server ran{then}: nothing is acknowledged any more; restart the server",
                path.display()
            )
        };
        if id_of(&self.db).ok() != Some(self.db_id) {
            return Err(gone("the database file", &self.db, ""));
        }
        match self.wal_id.get() {
            Some(id) => {
                if id_of(&self.wal).ok() != Some(*id) {
                    return Err(gone("the database's write-ahead log", &self.wal, ""));
                }
            }
            None => {
                if let Ok(id) = id_of(&self.wal) {
                    let _ = self.wal_id.set(id);
                }
            }
        }
        if id_of(self.lock.path()).ok() != Some(self.lock.id()) {
            return Err(gone(
                "the lock file",
                self.lock.path(),
                " (another server could take the folder)",
            ));
        }
        Ok(())
    }

    /// Marks the files broken for good; says so once on stderr.
    fn broke(&self, why: String) -> &str {
        let mut first = false;
        let why = self.broken.get_or_init(|| {
            first = true;
            why
        });
        if first {
            eprintln!("byog serve: {why}");
        }
        why
    }
}

/// A write's answer, sent after the commit.
enum Answer {
    Batch(
        oneshot::Sender<Result<(), StoreError>>,
        Result<(), StoreError>,
    ),
    Exec(
        oneshot::Sender<Result<i64, StoreError>>,
        Result<i64, StoreError>,
    ),
}

impl Answer {
    fn of(w: Write) -> Answer {
        match w {
            Write::Batch { done, .. } => Answer::Batch(done, Ok(())),
            Write::Exec { done, .. } => Answer::Exec(done, Ok(0)),
        }
    }

    fn send(self) {
        match self {
            Answer::Batch(s, r) => {
                let _ = s.send(r);
            }
            Answer::Exec(s, r) => {
                let _ = s.send(r);
            }
        }
    }

    /// Answers with `err()` instead of the write's own result.
    fn fail(self, err: &dyn Fn() -> StoreError) {
        match self {
            Answer::Batch(s, _) => {
                let _ = s.send(Err(err()));
            }
            Answer::Exec(s, _) => {
                let _ = s.send(Err(err()));
            }
        }
    }
}

/// The writer's loop, until every sender is gone; `commits` is the count so far.
pub fn run(shared: Arc<Shared>, rx: mpsc::Receiver<Write>, mut commits: u64) {
    while let Ok(first) = rx.recv() {
        let mut group = vec![first];
        while group.len() < GROUP {
            match rx.try_recv() {
                Ok(w) => group.push(w),
                Err(_) => break,
            }
        }
        if let Some(why) = shared.files.broken.get() {
            for w in group {
                Answer::of(w).fail(&|| StoreError::Replaced(why.clone()));
            }
            continue;
        }
        let (answers, committed) = {
            let mut conn = shared.conn.lock().unwrap_or_else(|e| e.into_inner());
            transaction(&mut conn, group, commits + 1)
        };
        if let Err(e) = committed {
            let msg = e.to_string();
            for a in answers {
                a.fail(&|| StoreError::Commit(msg.clone()));
            }
            continue;
        }
        if let Err(why) = shared.files.check() {
            let why = shared.files.broke(why).to_owned();
            for a in answers {
                a.fail(&|| StoreError::Replaced(why.clone()));
            }
            continue;
        }
        commits += 1;
        // A count not written leaves the lock file behind the database, which is allowed.
        let _ = shared.files.lock.record(commits);
        for a in answers {
            a.send();
        }
    }
}

/// Runs `group` in one transaction counted as commit `number`; the answers, and whether it
/// committed.
fn transaction(
    conn: &mut Connection,
    group: Vec<Write>,
    number: u64,
) -> (Vec<Answer>, Result<(), rusqlite::Error>) {
    let mut tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => return (group.into_iter().map(Answer::of).collect(), Err(e)),
    };
    let mut answers = Vec::with_capacity(group.len());
    for w in group {
        match w {
            Write::Batch {
                game,
                seq,
                n,
                keys,
                done,
            } => {
                let r = append(&tx, &game, seq, n, &keys);
                answers.push(Answer::Batch(done, r));
            }
            Write::Exec { job, done } => {
                // A savepoint dropped without its commit is rolled back.
                let r = match tx.savepoint() {
                    Ok(sp) => match job(&sp) {
                        Ok(v) => sp.commit().map(|()| v).map_err(StoreError::from),
                        Err(e) => Err(e),
                    },
                    Err(e) => Err(e.into()),
                };
                answers.push(Answer::Exec(done, r));
            }
        }
    }
    let counted = tx
        .prepare_cached("UPDATE meta SET value = ?1 WHERE key = 'commits'")
        .and_then(|mut st| st.execute([number.to_string()]));
    let committed = counted.and_then(|_| tx.commit());
    (answers, committed)
}

/// Appends batch `seq` to game `game`'s log: its counter moves from `seq - 1` to `seq`
/// (or nothing is written), then the batch's row.
fn append(
    tx: &Connection,
    game: &str,
    seq: u64,
    n: Option<u64>,
    keys: &str,
) -> Result<(), StoreError> {
    let moved = tx
        .prepare_cached(
            "UPDATE games SET batches = ?2 WHERE id = ?1 AND batches = ?2 - 1 AND damage IS NULL",
        )?
        .execute(params![game, seq as i64])?;
    if moved == 0 {
        let row: Option<(i64, Option<String>)> = tx
            .prepare_cached("SELECT batches, damage FROM games WHERE id = ?1")?
            .query_row([game], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        return Err(match row {
            None => StoreError::Missing("no such game"),
            Some((_, Some(why))) => StoreError::DamagedGame {
                game: game.to_owned(),
                why,
            },
            Some((have, None)) => StoreError::Sequence {
                game: game.to_owned(),
                seq,
                have: have as u64,
            },
        });
    }
    let inserted = tx
        .prepare_cached("INSERT INTO batches(game, seq, n, keys) VALUES (?1, ?2, ?3, ?4)")
        .and_then(|mut st| st.execute(params![game, seq as i64, n.map(|n| n as i64), keys]));
    if let Err(e) = inserted {
        // Put the counter back: the batch is not in the log.
        tx.prepare_cached("UPDATE games SET batches = ?2 - 1 WHERE id = ?1")?
            .execute(params![game, seq as i64])?;
        return Err(e.into());
    }
    Ok(())
}
