//! Databases made by the first server (schema version 1) keep opening: migrated to the
//! current schema at start, scores unique per account and board, and key logs that a
//! rebuilt game wrote twice repaired, so the game replays to where its player left it.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use crate::common::*;
use byog_web::store::{NewScore, SCHEMA_VERSION};

/// Schema version 1, exactly as the first server made it (a copy kept here, so the
/// migration is tested from what is in the field, not from the store's own constant).
const SCHEMA_1: &str = "
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

/// A version-1 database in `dir` as the first server left it: WAL mode, two accounts, a
/// game whose log two rebuilds doubled (intended `R42SDDWA`), a game never rebuilt, and a
/// score.
fn version_1(dir: &Path) {
    let c = Connection::open(dir.join("byog.sqlite3")).unwrap();
    c.pragma_update(None, "journal_mode", "WAL").unwrap();
    c.execute_batch(SCHEMA_1).unwrap();
    c.execute_batch(
        "INSERT INTO meta VALUES ('schema', '1'), ('daily_key', 'k');
         INSERT INTO accounts VALUES (1, 'ada', 'x', 0), (2, 'bob', 'x', 0);",
    )
    .unwrap();
    let secret = byog_web::verify::blake2b_hex(b"secret");
    // The games were played under this build's ruleset (the server replays no game of
    // another: what is tested here is the schema's migration and the log's repair).
    for (id, seed) in [("doubled", 42), ("plain", 7)] {
        c.execute(
            "INSERT INTO games(id, secret_hash, account, board, mode, seed, options, ruleset,
                 prefix, created, updated)
             VALUES (?1, ?2, NULL, 'seeded', 'run', ?3, '{}', ?4, ?5, 0, 0)",
            params![
                id,
                secret,
                seed,
                byog_web::verify::RULESET,
                format!("R{seed}S")
            ],
        )
        .unwrap();
    }
    // Batches "R42S", "DD"; then a rebuild wrote its log again before "W"; then another
    // rebuild wrote the whole stored log again before "A".
    for (game, seq, n, keys) in [
        ("doubled", 1, None, "R42S"),
        ("doubled", 2, Some(1), "DD"),
        ("doubled", 3, Some(2), "R42SDDW"),
        ("doubled", 4, Some(3), "R42SDDR42SDDWA"),
        ("plain", 1, None, "R7S"),
        ("plain", 2, Some(1), "W"),
        ("plain", 3, Some(2), "R"),
    ] {
        c.execute(
            "INSERT INTO batches VALUES (?1, ?2, ?3, ?4)",
            params![game, seq, n, keys],
        )
        .unwrap();
    }
    c.execute(&insert_score(), params![1, "seeded", "hash-of-k"])
        .unwrap();
}

fn insert_score() -> String {
    "INSERT INTO scores(account, board, mode, seed, ruleset, options, keys, keys_hash,
         state_hashes, status, score, moves, created)
     VALUES (?1, ?2, 'run', 42, 'r', '{}', 'R42SK', ?3, '', 'lost', 5, 9, 0)"
        .to_owned()
}

fn score(account: i64, board: &str, day: Option<&str>) -> NewScore {
    NewScore {
        account,
        board: board.into(),
        mode: "run".into(),
        seed: 42,
        day: day.map(str::to_owned),
        ruleset: "r".into(),
        options: "{}".into(),
        keys: "R42SK".into(),
        keys_hash: "hash-of-k".into(),
        state_hashes: String::new(),
        status: "lost".into(),
        score: 5,
        moves: 9,
        game: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_1_database_is_migrated_and_its_doubled_log_repaired() {
    let dir = tempfile::tempdir().unwrap();
    version_1(dir.path());
    let data = dir.path().to_owned();
    let server = start_with(|o| o.data = data).await;
    let store = &server.app.store;
    let notes = store.startup().join("\n");
    assert!(
        notes.contains(&format!("from version 1 to {SCHEMA_VERSION}")),
        "{notes}"
    );
    assert!(
        notes.contains("repaired the key logs of 1 of 2 games"),
        "{notes}"
    );
    assert_eq!(
        store
            .read(|c| Ok(
                c.query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                    r.get::<_, String>(0)
                })?
            ))
            .unwrap(),
        SCHEMA_VERSION.to_string()
    );
    // The doubled log is the game its player played; the other is as it was.
    assert_eq!(store.log("doubled").unwrap().0, "R42SDDWA");
    assert_eq!(store.log("plain").unwrap().0, "R7SWR");
    // The batches as stored are kept, and the game is marked.
    let kept: Vec<(i64, String)> = store
        .read(|c| {
            Ok(c.prepare(
                "SELECT seq, keys FROM batches_as_stored WHERE game = 'doubled' ORDER BY seq",
            )?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?)
        })
        .unwrap();
    assert_eq!(
        kept,
        [
            (1, "R42S".to_owned()),
            (2, "DD".to_owned()),
            (3, "R42SDDW".to_owned()),
            (4, "R42SDDR42SDDWA".to_owned())
        ]
    );
    let marked: Vec<String> = store
        .read(|c| {
            Ok(
                c.prepare("SELECT id FROM games WHERE log_repaired IS NOT NULL")?
                    .query_map([], |r| r.get(0))?
                    .collect::<Result<_, _>>()?,
            )
        })
        .unwrap();
    assert_eq!(marked, ["doubled"]);
    // It resumes where its player left it.
    let (mut ws, welcome) = player(server.addr, "doubled", "secret").await;
    assert_eq!(welcome["acked"], 3);
    assert_eq!(observe(&mut ws).await, replayed("R42SDDWA"));
    // Scores: the same keys by another account, and on another board, are scored; the
    // same account's on the same board is a duplicate.
    store.add_score(score(2, "seeded", None)).await.unwrap();
    store
        .add_score(score(1, "daily", Some("2026-11-28")))
        .await
        .unwrap();
    let again = store.add_score(score(1, "seeded", None)).await.unwrap_err();
    assert!(again.is_duplicate(), "{again}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_migration_is_done_once() {
    let dir = tempfile::tempdir().unwrap();
    version_1(dir.path());
    let store = byog_web::Store::open(dir.path(), byog_web::SyncMode::Normal).unwrap();
    assert!(!store.startup().is_empty());
    drop(store);
    let store = byog_web::Store::open(dir.path(), byog_web::SyncMode::Normal).unwrap();
    assert!(store.startup().is_empty(), "{:?}", store.startup());
    assert_eq!(store.log("doubled").unwrap().0, "R42SDDWA");
    // The daily key made by the first server is kept.
    let key: Option<String> = store
        .read(|c| {
            Ok(
                c.query_row("SELECT value FROM meta WHERE key = 'daily_key'", [], |r| {
                    r.get(0)
                })
                .optional()?,
            )
        })
        .unwrap();
    assert_eq!(key.as_deref(), Some("k"));
}
