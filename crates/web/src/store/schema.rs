//! The schema and its migrations (`docs/web.md`, "What is stored"). `meta.schema` holds
//! the version; a new database is made at version 1 and migrated like any other, so every
//! database takes the same path. Each migration runs in one transaction with its version's
//! bump: a server stopped half-way leaves the previous version.
//!
//! - 1: the first schema.
//! - 2: a score is unique per account and board (the same keys, ruleset and options): two
//!   players of the same keys are both scored, and a seeded score does not block the same
//!   game's daily one. SQLite drops an inline UNIQUE only by rebuilding the table.
//! - 3: key logs: each game counts its batches (`games.batches`, moved in the same
//!   transaction as each batch, so a log that lost batches at its end is found), a damaged
//!   game says what it lost (`games.damage`); logs a rebuilt game wrote twice are repaired
//!   ([`super::logs::repair`]), their batches as stored kept in `batches_as_stored`, the
//!   game marked (`games.log_repaired`).

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, Transaction};

use super::{StoreError, logs};

/// The schema version this build makes and reads.
pub const CURRENT: u32 = 4;

/// Version 1, as the first server made it.
pub const V1: &str = "
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
INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', '1');
";

/// Version 2: `scores` rebuilt with its UNIQUE per account and board.
const V2: &str = "
CREATE TABLE scores_v2 (
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
    UNIQUE (account, board, ruleset, options, keys_hash)
);
INSERT INTO scores_v2 (id, account, board, mode, seed, day, ruleset, options, keys, keys_hash,
        state_hashes, status, score, moves, game, created)
    SELECT id, account, board, mode, seed, day, ruleset, options, keys, keys_hash,
        state_hashes, status, score, moves, game, created FROM scores;
DROP TABLE scores;
ALTER TABLE scores_v2 RENAME TO scores;
CREATE INDEX scores_by_board ON scores(board, mode, day, score);
";

/// Version 4: what the server said of a finished game's score (`scored`: where it went, or
/// why it was not recorded).
const V4: &str = "ALTER TABLE games ADD COLUMN scored TEXT;";

/// Version 3: the key logs' counter, damage and repair; the commit counter.
const V3: &str = "
ALTER TABLE games ADD COLUMN batches INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN damage TEXT;
ALTER TABLE games ADD COLUMN log_repaired INTEGER;
CREATE TABLE batches_as_stored (
    game TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    n INTEGER,
    keys TEXT NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
INSERT OR IGNORE INTO meta(key, value) VALUES ('commits', '0');
";

/// The schema version of the database on `conn`: `None` for an empty database.
///
/// # Errors
/// [`StoreError::Foreign`] (naming `db`) when it holds tables but no byog schema version.
pub fn version(conn: &Connection, db: &Path) -> Result<Option<u32>, StoreError> {
    let tables: i64 = conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
    if tables == 0 {
        return Ok(None);
    }
    let has_meta: bool = conn.query_row(
        "SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'table' AND name = 'meta'",
        [],
        |r| r.get(0),
    )?;
    let v: Option<String> = if has_meta {
        conn.query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
            r.get(0)
        })
        .optional()?
    } else {
        None
    };
    match v.and_then(|v| v.parse().ok()) {
        Some(v) => Ok(Some(v)),
        None => Err(StoreError::Foreign { db: db.to_owned() }),
    }
}

/// Makes an empty database's schema at version `to` (no notes: there is nothing to say of
/// an empty database).
///
/// # Errors
/// When SQLite fails.
pub fn create(conn: &mut Connection, to: u32) -> Result<(), StoreError> {
    conn.execute_batch(V1)?;
    let mut quiet = Vec::new();
    for v in 2..=to.min(CURRENT) {
        step(conn, v, &mut quiet)?;
    }
    Ok(())
}

/// Brings the database on `conn` (file `db`) to [`CURRENT`], making it when empty; says
/// in `notes` what each migration of an existing database did. Returns the version it
/// found (0 for an empty one).
///
/// # Errors
/// [`StoreError::Newer`] for a version above [`CURRENT`], [`StoreError::Foreign`] for a
/// database that is not byog's; when SQLite fails (the migration that failed is rolled
/// back whole).
pub fn migrate(
    conn: &mut Connection,
    db: &Path,
    notes: &mut Vec<String>,
) -> Result<u32, StoreError> {
    let found = match version(conn, db)? {
        None => {
            create(conn, CURRENT)?;
            return Ok(0);
        }
        Some(v) if v > CURRENT => {
            return Err(StoreError::Newer {
                db: db.to_owned(),
                version: v,
                known: CURRENT,
            });
        }
        Some(v) => v,
    };
    for v in found + 1..=CURRENT {
        step(conn, v, notes)?;
    }
    if found < CURRENT {
        notes.push(format!(
            "the database's schema went from version {found} to {CURRENT}"
        ));
    }
    Ok(found)
}

/// Migrates to version `to` from the one before, in one transaction.
fn step(conn: &mut Connection, to: u32, notes: &mut Vec<String>) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    match to {
        2 => tx.execute_batch(V2)?,
        3 => v3(&tx, notes)?,
        4 => tx.execute_batch(V4)?,
        _ => unreachable!("no migration to version {to}"),
    }
    tx.execute(
        "UPDATE meta SET value = ?1 WHERE key = 'schema'",
        [to.to_string()],
    )?;
    tx.commit()?;
    Ok(())
}

/// Version 3: the columns and table, the doubled logs repaired, each game's counter set
/// from its log.
fn v3(tx: &Transaction<'_>, notes: &mut Vec<String>) -> Result<(), StoreError> {
    tx.execute_batch(V3)?;
    let repaired = logs::repair(tx)?;
    tx.execute(
        "UPDATE games SET batches = (SELECT coalesce(max(seq), 0) FROM batches
             WHERE batches.game = games.id)",
        [],
    )?;
    let games: i64 = tx.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
    if games > 0 {
        notes.push(format!(
            "repaired the key logs of {repaired} of {games} games that a rebuilt game had written twice (their batches as stored are kept in batches_as_stored; SELECT id FROM games WHERE log_repaired IS NOT NULL lists them)"
        ));
    }
    Ok(())
}
