//! What the server keeps (`docs/web.md`, "What is stored"): one SQLite database in WAL mode
//! with one writer. The writer is a thread of its own that takes every write from a
//! channel and commits whatever has queued up in one transaction (group commit), then
//! answers each write: at a thousand players a commit carries a few dozen batches, and a
//! batch of keys is acknowledged only once its transaction has committed. Reads go through
//! a second connection (WAL lets them run beside the writer).
//!
//! [`Store`] is the seam: the server uses nothing else of SQLite, so a store over a shared
//! PostgreSQL (the same tables) can take its place when games are served by several
//! machines (`docs/web.md`, "Past one machine").
//!
//! Durability: `synchronous = NORMAL` in WAL mode writes every commit to the log before
//! answering, so a killed server (the process) loses nothing acknowledged; only a power
//! loss or a kernel crash may lose the last commits (`--sync full` closes that too, at a
//! cost measured in `docs/web.md`).

use std::path::Path;
use std::sync::Mutex;
use std::sync::mpsc;
use std::thread;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use tokio::sync::oneshot;

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
}

impl StoreError {
    /// Whether this is a UNIQUE constraint refusing a duplicate.
    pub fn is_duplicate(&self) -> bool {
        matches!(self, StoreError::Sql(rusqlite::Error::SqliteFailure(e, _))
            if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                || e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY)
    }
}

/// How hard a commit is synced to disk: `normal` (a killed process loses nothing
/// acknowledged) or `full` (a power loss neither).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sync {
    /// `PRAGMA synchronous = NORMAL`.
    Normal,
    /// `PRAGMA synchronous = FULL`.
    Full,
}

/// The schema (version 1).
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    hash TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts(id),
    expires INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    account INTEGER REFERENCES accounts(id),
    board TEXT NOT NULL,
    day TEXT,
    mode TEXT,
    seed INTEGER,
    options TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    prefix TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'open',
    status TEXT NOT NULL DEFAULT 'playing',
    score INTEGER,
    moves INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS daily_once ON games(account, mode, day)
    WHERE board = 'daily';
CREATE INDEX IF NOT EXISTS games_by_account ON games(account, updated);
CREATE TABLE IF NOT EXISTS batches (
    game TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    n INTEGER,
    keys TEXT NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scores (
    id INTEGER PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts(id),
    board TEXT NOT NULL,
    mode TEXT NOT NULL,
    seed INTEGER NOT NULL,
    day TEXT,
    ruleset TEXT NOT NULL,
    options TEXT NOT NULL,
    keys TEXT NOT NULL,
    keys_hash TEXT NOT NULL,
    state_hashes TEXT NOT NULL,
    status TEXT NOT NULL,
    score INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    game TEXT REFERENCES games(id),
    created INTEGER NOT NULL,
    UNIQUE (ruleset, options, keys_hash)
);
CREATE INDEX IF NOT EXISTS scores_by_board ON scores(board, mode, day, score);
";

/// A new game's row.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// Its public id.
    pub id: String,
    /// The digest of the player's secret.
    pub secret_hash: String,
    /// The signed-in player, if any.
    pub account: Option<i64>,
    /// `daily`, `seeded`, `live` or `free`.
    pub board: String,
    /// The day of a daily game (`YYYY-MM-DD`, UTC).
    pub day: Option<String>,
    /// `classic`, `run` or `explore` (none yet for a game started at the menu).
    pub mode: Option<String>,
    /// The seed (none yet for a game started at the menu).
    pub seed: Option<u64>,
    /// The game options, canonical JSON.
    pub options: String,
    /// The ruleset.
    pub ruleset: String,
    /// The keys the server types to start it (`R42S`, or nothing at the menu).
    pub prefix: String,
}

/// A game's row as read back.
#[derive(Debug, Clone, Serialize)]
pub struct GameRow {
    /// Its public id.
    pub id: String,
    /// The digest of the player's secret.
    #[serde(skip)]
    pub secret_hash: String,
    /// The player's account id.
    #[serde(skip)]
    pub account: Option<i64>,
    /// The player's name.
    pub player: Option<String>,
    /// The board.
    pub board: String,
    /// The day of a daily game.
    pub day: Option<String>,
    /// The mode.
    pub mode: Option<String>,
    /// The seed.
    pub seed: Option<u64>,
    /// The options.
    #[serde(skip)]
    pub options: String,
    /// `open`, `left` (`:Q`) or `finished`.
    pub state: String,
    /// `playing`, `won` or `lost`.
    pub status: String,
    /// Points.
    pub score: Option<u64>,
    /// Steps.
    pub moves: u64,
    /// Unix seconds.
    pub updated: i64,
}

/// A recorded score.
#[derive(Debug, Clone, Serialize)]
pub struct ScoreRow {
    /// The player's name.
    pub player: String,
    /// The mode.
    pub mode: String,
    /// The seed (hidden on the daily board until the day is over).
    pub seed: Option<u64>,
    /// The day of a daily score.
    pub day: Option<String>,
    /// `won` or `lost`.
    pub status: String,
    /// Points.
    pub score: u64,
    /// Steps.
    pub moves: u64,
    /// The keys (hidden with the seed).
    pub keys: Option<String>,
    /// The server's game, when it was played here.
    pub game: Option<String>,
    /// Unix seconds.
    pub created: i64,
}

/// A score to record.
#[derive(Debug, Clone)]
pub struct NewScore {
    /// The account.
    pub account: i64,
    /// The board.
    pub board: String,
    /// The mode.
    pub mode: String,
    /// The seed.
    pub seed: u64,
    /// The day (daily).
    pub day: Option<String>,
    /// The ruleset.
    pub ruleset: String,
    /// The options, canonical JSON.
    pub options: String,
    /// The canonical history.
    pub keys: String,
    /// Its hash.
    pub keys_hash: String,
    /// State hashes, comma-separated.
    pub state_hashes: String,
    /// `won` or `lost`.
    pub status: String,
    /// Points.
    pub score: u64,
    /// Steps.
    pub moves: u64,
    /// The server's game, if played here.
    pub game: Option<String>,
}

/// Work on the writer's connection.
type Job = Box<dyn FnOnce(&Connection) -> Result<i64, StoreError> + Send>;

/// A write, answered once its transaction committed.
enum Write {
    Batch {
        game: String,
        seq: u64,
        n: Option<u64>,
        keys: String,
        done: oneshot::Sender<Result<(), StoreError>>,
    },
    Exec {
        job: Job,
        done: oneshot::Sender<Result<i64, StoreError>>,
    },
}

/// The database: one writer thread, one reading connection.
pub struct Store {
    writes: mpsc::Sender<Write>,
    read: Mutex<Connection>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Store")
    }
}

/// Unix seconds now.
pub fn now_unix() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn open(path: &Path, sync: Sync) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(
        None,
        "synchronous",
        match sync {
            Sync::Normal => "NORMAL",
            Sync::Full => "FULL",
        },
    )?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

impl Store {
    /// Opens (or makes) the database `byog.sqlite3` in `dir`, creating the folder.
    ///
    /// # Errors
    /// When the folder or the database cannot be opened, or its schema is newer.
    pub fn open(dir: &Path, sync: Sync) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| {
            StoreError::Sql(rusqlite::Error::InvalidPath(
                format!("{}: {e}", dir.display()).into(),
            ))
        })?;
        let path = dir.join("byog.sqlite3");
        let writer = open(&path, sync)?;
        writer.execute_batch(SCHEMA)?;
        writer.execute(
            "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', '1')",
            [],
        )?;
        let read = open(&path, sync)?;
        let (tx, rx) = mpsc::channel::<Write>();
        thread::Builder::new()
            .name("byog-db-writer".into())
            .spawn(move || writer_loop(writer, rx))
            .map_err(|_| StoreError::Closed)?;
        Ok(Store {
            writes: tx,
            read: Mutex::new(read),
        })
    }

    /// Appends `keys` to game `game`'s key log as its `seq`-th batch, with the player's
    /// batch number `n` (none for the steps of a walk the server took). Resolves once
    /// committed.
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
        if let Err(mpsc::SendError(Write::Batch { done, .. })) = self.writes.send(write) {
            let _ = done.send(Err(StoreError::Closed));
        }
        rx
    }

    /// Runs `job` on the writer's connection inside its next transaction; resolves to its
    /// result once committed.
    pub async fn write<F>(&self, job: F) -> Result<i64, StoreError>
    where
        F: FnOnce(&Connection) -> Result<i64, StoreError> + Send + 'static,
    {
        let (done, rx) = oneshot::channel();
        self.writes
            .send(Write::Exec {
                job: Box::new(job),
                done,
            })
            .map_err(|_| StoreError::Closed)?;
        rx.await.map_err(|_| StoreError::Closed)?
    }

    /// Runs `f` on the reading connection.
    pub fn read<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.read.lock().unwrap_or_else(|e| e.into_inner());
        f(&conn)
    }

    /// A meta value, made by `make` and stored the first time it is asked for.
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

    /// Records a new game.
    pub async fn create_game(&self, g: NewGame) -> Result<(), StoreError> {
        self.write(move |c| {
            let now = now_unix();
            c.execute(
                "INSERT INTO games(id, secret_hash, account, board, day, mode, seed, options,
                     ruleset, prefix, created, updated)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
                params![
                    g.id,
                    g.secret_hash,
                    g.account,
                    g.board,
                    g.day,
                    g.mode,
                    g.seed.map(|s| s as i64),
                    g.options,
                    g.ruleset,
                    g.prefix,
                    now
                ],
            )?;
            Ok(0)
        })
        .await
        .map(|_| ())
    }

    /// A game's row.
    pub fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        self.read(|c| {
            Ok(
                c.query_row(&format!("{GAME_SELECT} WHERE g.id = ?1"), [id], game_row)
                    .optional()?,
            )
        })
    }

    /// The daily game of `account` in `mode` on `day`, if it started one.
    pub fn daily_game(
        &self,
        account: i64,
        mode: &str,
        day: &str,
    ) -> Result<Option<GameRow>, StoreError> {
        self.read(|c| {
            Ok(c.query_row(
                &format!(
                    "{GAME_SELECT} WHERE g.board = 'daily' AND g.account = ?1 AND g.mode = ?2
                     AND g.day = ?3"
                ),
                params![account, mode, day],
                game_row,
            )
            .optional()?)
        })
    }

    /// The games of `account`, newest first (at most 50).
    pub fn games_of(&self, account: i64) -> Result<Vec<GameRow>, StoreError> {
        self.read(|c| {
            let mut st = c.prepare(&format!(
                "{GAME_SELECT} WHERE g.account = ?1 ORDER BY g.updated DESC LIMIT 50"
            ))?;
            let rows = st.query_map([account], game_row)?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// A game's key log: its batches' keys in order, the last player batch number written,
    /// and the number of batches.
    pub fn log(&self, id: &str) -> Result<(String, u64, u64), StoreError> {
        self.read(|c| {
            let mut st =
                c.prepare_cached("SELECT seq, n, keys FROM batches WHERE game = ?1 ORDER BY seq")?;
            let mut log = String::new();
            let (mut acked, mut seqs) = (0u64, 0u64);
            let mut rows = st.query([id])?;
            while let Some(r) = rows.next()? {
                let seq: i64 = r.get(0)?;
                let n: Option<i64> = r.get(1)?;
                let keys: String = r.get(2)?;
                log.push_str(&keys);
                acked = acked.max(n.unwrap_or(0) as u64);
                seqs = seqs.max(seq as u64);
            }
            Ok((log, acked, seqs))
        })
    }

    /// Sets a game's mode and seed once its game started (a game begun at the menu).
    pub async fn set_started(&self, id: String, mode: String, seed: u64) -> Result<(), StoreError> {
        self.write(move |c| {
            c.execute(
                "UPDATE games SET mode = ?2, seed = ?3 WHERE id = ?1",
                params![id, mode, seed as i64],
            )?;
            Ok(0)
        })
        .await
        .map(|_| ())
    }

    /// Records where a game stands: its state (`open`, `left`, `finished`), status, score
    /// and moves.
    pub async fn set_state(
        &self,
        id: String,
        state: &'static str,
        status: &'static str,
        score: Option<u64>,
        moves: u64,
    ) -> Result<(), StoreError> {
        self.write(move |c| {
            c.execute(
                "UPDATE games SET state = ?2, status = ?3, score = ?4, moves = ?5, updated = ?6
                 WHERE id = ?1",
                params![
                    id,
                    state,
                    status,
                    score.map(|s| s as i64),
                    moves as i64,
                    now_unix()
                ],
            )?;
            Ok(0)
        })
        .await
        .map(|_| ())
    }

    /// Records a verified score; a duplicate (same ruleset, options and history) is
    /// refused with a UNIQUE error ([`StoreError::is_duplicate`]).
    pub async fn add_score(&self, s: NewScore) -> Result<i64, StoreError> {
        self.write(move |c| {
            c.execute(
                "INSERT INTO scores(account, board, mode, seed, day, ruleset, options, keys,
                     keys_hash, state_hashes, status, score, moves, game, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                params![
                    s.account,
                    s.board,
                    s.mode,
                    s.seed as i64,
                    s.day,
                    s.ruleset,
                    s.options,
                    s.keys,
                    s.keys_hash,
                    s.state_hashes,
                    s.status,
                    s.score as i64,
                    s.moves as i64,
                    s.game,
                    now_unix()
                ],
            )?;
            Ok(c.last_insert_rowid())
        })
        .await
    }

    /// A board: the best 100 scores of `board` in `mode` (the daily board of `day`), best
    /// first: by score, then fewer moves (a classic game: won games by fewer moves).
    pub fn board(
        &self,
        board: &str,
        mode: &str,
        day: Option<&str>,
    ) -> Result<Vec<ScoreRow>, StoreError> {
        self.read(|c| {
            let order = if mode == "classic" {
                "s.status = 'won' DESC, s.moves ASC, s.created ASC"
            } else {
                "s.score DESC, s.moves ASC, s.created ASC"
            };
            let mut st = c.prepare(&format!(
                "SELECT a.name, s.mode, s.seed, s.day, s.status, s.score, s.moves, s.keys,
                        s.game, s.created
                 FROM scores s JOIN accounts a ON a.id = s.account
                 WHERE s.board = ?1 AND s.mode = ?2 AND (?3 IS NULL OR s.day = ?3)
                 ORDER BY {order} LIMIT 100"
            ))?;
            let rows = st.query_map(params![board, mode, day], |r| {
                Ok(ScoreRow {
                    player: r.get(0)?,
                    mode: r.get(1)?,
                    seed: Some(r.get::<_, i64>(2)? as u64),
                    day: r.get(3)?,
                    status: r.get(4)?,
                    score: r.get::<_, i64>(5)? as u64,
                    moves: r.get::<_, i64>(6)? as u64,
                    keys: Some(r.get(7)?),
                    game: r.get(8)?,
                    created: r.get(9)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }
}

const GAME_SELECT: &str = "SELECT g.id, g.secret_hash, g.account, a.name, g.board, g.day,
    g.mode, g.seed, g.options, g.state, g.status, g.score, g.moves, g.updated
    FROM games g LEFT JOIN accounts a ON a.id = g.account";

fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        secret_hash: r.get(1)?,
        account: r.get(2)?,
        player: r.get(3)?,
        board: r.get(4)?,
        day: r.get(5)?,
        mode: r.get(6)?,
        seed: r.get::<_, Option<i64>>(7)?.map(|s| s as u64),
        options: r.get(8)?,
        state: r.get(9)?,
        status: r.get(10)?,
        score: r.get::<_, Option<i64>>(11)?.map(|s| s as u64),
        moves: r.get::<_, i64>(12)? as u64,
        updated: r.get(13)?,
    })
}

/// Most writes one transaction takes.
const GROUP: usize = 1024;

/// The writer: waits for a write, takes every other write already queued (up to
/// [`GROUP`]), runs them in one transaction, commits, then answers them all.
fn writer_loop(mut conn: Connection, rx: mpsc::Receiver<Write>) {
    while let Ok(first) = rx.recv() {
        let mut group = vec![first];
        while group.len() < GROUP {
            match rx.try_recv() {
                Ok(w) => group.push(w),
                Err(_) => break,
            }
        }
        let tx = match conn.transaction() {
            Ok(tx) => tx,
            Err(e) => {
                let msg = e.to_string();
                fail_all(group, &msg);
                continue;
            }
        };
        let mut answers: Vec<Answer> = Vec::with_capacity(group.len());
        for w in group {
            match w {
                Write::Batch {
                    game,
                    seq,
                    n,
                    keys,
                    done,
                } => {
                    let r = tx
                        .prepare_cached(
                            "INSERT INTO batches(game, seq, n, keys) VALUES (?1, ?2, ?3, ?4)",
                        )
                        .and_then(|mut st| {
                            st.execute(params![game, seq as i64, n.map(|n| n as i64), keys])
                        })
                        .map(|_| ())
                        .map_err(StoreError::from);
                    answers.push(Answer::Batch(done, r));
                }
                Write::Exec { job, done } => {
                    let r = job(&tx);
                    answers.push(Answer::Exec(done, r));
                }
            }
        }
        match tx.commit() {
            Ok(()) => {
                for a in answers {
                    a.send();
                }
            }
            Err(e) => {
                let msg = e.to_string();
                for a in answers {
                    a.fail(&msg);
                }
            }
        }
    }
}

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

    fn fail(self, msg: &str) {
        let err = || {
            StoreError::Sql(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_IOERR),
                Some(msg.to_owned()),
            ))
        };
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

fn fail_all(group: Vec<Write>, msg: &str) {
    for w in group {
        let a = match w {
            Write::Batch { done, .. } => Answer::Batch(done, Ok(())),
            Write::Exec { done, .. } => Answer::Exec(done, Ok(0)),
        };
        a.fail(msg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str) -> NewGame {
        NewGame {
            id: id.into(),
            secret_hash: "h".into(),
            account: None,
            board: "seeded".into(),
            day: None,
            mode: Some("run".into()),
            seed: Some(42),
            options: "{}".into(),
            ruleset: "r".into(),
            prefix: "R42S".into(),
        }
    }

    #[tokio::test]
    async fn a_key_log_is_its_batches_in_order_and_a_batch_is_written_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), Sync::Normal).unwrap();
        store.create_game(game("g1")).await.unwrap();
        store
            .append("g1", 1, Some(1), "R42S")
            .await
            .unwrap()
            .unwrap();
        store.append("g1", 2, None, "WW").await.unwrap().unwrap();
        store.append("g1", 3, Some(2), "D").await.unwrap().unwrap();
        assert_eq!(store.log("g1").unwrap(), ("R42SWWD".to_owned(), 2, 3));
        // The same batch again is refused by the key (game, seq).
        let again = store.append("g1", 3, Some(2), "D").await.unwrap();
        assert!(again.unwrap_err().is_duplicate());
        // A batch of a game that does not exist is refused (foreign key).
        assert!(
            store
                .append("nope", 1, Some(1), "W")
                .await
                .unwrap()
                .is_err()
        );
        drop(store);
        // Opened again: everything is there.
        let store = Store::open(dir.path(), Sync::Normal).unwrap();
        assert_eq!(store.log("g1").unwrap().0, "R42SWWD");
        assert_eq!(store.game("g1").unwrap().unwrap().seed, Some(42));
    }
}
