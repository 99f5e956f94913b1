//! The catalog's tables: what a catalog file holds, opening one, checking that a file is one
//! before anything about it changes, and adding the metric columns an older one lacks.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use super::{BUSY_TIMEOUT, CatalogError};
use byog_worlds::metrics::SUMMARY;

/// The version of the catalog's tables, kept in `catalog_meta` under `schema`. A file with
/// another version is refused as "not a catalog of this byog" (never changed).
pub const SCHEMA_VERSION: i64 = 1;
/// The metric columns of `seeds`: one a [`SUMMARY`] entry, named as it is (a new metric in
/// [`SUMMARY`] is a new column, added to older catalogs when they are opened).
pub fn metric_columns() -> impl Iterator<Item = &'static str> {
    SUMMARY.iter().map(|m| m.name)
}

/// The tables (`docs/catalog.md`). `seeds` also gets one NUMERIC column a metric
/// ([`metric_columns`]), added by [`migrate`].
pub(crate) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS catalog_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS params (
    id                INTEGER PRIMARY KEY,
    generator_version INTEGER NOT NULL,
    width             INTEGER NOT NULL,
    height            INTEGER NOT NULL,
    settings          TEXT NOT NULL,
    UNIQUE (generator_version, width, height, settings)
);
CREATE TABLE IF NOT EXISTS seeds (
    params     INTEGER NOT NULL REFERENCES params(id),
    seed       INTEGER NOT NULL,
    tried      INTEGER NOT NULL,
    passed_try INTEGER,
    hash       TEXT,
    failed_hash TEXT,
    measured   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (params, seed)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS failed_tries (
    params INTEGER NOT NULL,
    seed   INTEGER NOT NULL,
    try    INTEGER NOT NULL,
    missed TEXT NOT NULL,
    detail TEXT NOT NULL,
    unmet  TEXT NOT NULL,
    PRIMARY KEY (params, seed, try)
) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS worlds AS
    SELECT p.generator_version, p.width, p.height, p.settings, s.*
    FROM seeds s JOIN params p ON p.id = s.params;
";

/// Refuses a path where something other than a regular file stands (a folder, a device such
/// as `/dev/null`, a FIFO): SQLite would make its `-wal` file beside it, or block.
pub(crate) fn check_file(path: &Path) -> Result<(), CatalogError> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(CatalogError::new(path, "it is a folder, not a file")),
        Ok(m) if !m.is_file() => Err(CatalogError::new(
            path,
            "it is not a regular file (a device or a pipe)",
        )),
        _ => Ok(()),
    }
}

/// Opens `path` (read-write, created when missing unless `create` is false) with a
/// [`BUSY_TIMEOUT`]. The journal mode is left as it is: [`use_wal`] switches it once the file
/// is known to be a catalog, so a SQLite file that is not one is never changed.
pub(crate) fn connect(path: &Path, create: bool) -> Result<Connection, CatalogError> {
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    if create {
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let conn =
        Connection::open_with_flags(path, flags).map_err(|e| CatalogError::sqlite(path, &e))?;
    conn.busy_timeout(BUSY_TIMEOUT)
        .map_err(|e| CatalogError::sqlite(path, &e))?;
    Ok(conn)
}

/// The catalog's connection settings, for a file checked to be a catalog: WAL (so several
/// threads and processes share it) and `synchronous = NORMAL`.
pub(crate) fn use_wal(path: &Path, conn: &Connection) -> Result<(), CatalogError> {
    let mode: String = conn
        .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
        .map_err(|e| CatalogError::sqlite(path, &e))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(CatalogError::new(
            path,
            format!("SQLite would not put it in WAL mode (journal mode {mode})"),
        ));
    }
    conn.execute_batch("PRAGMA synchronous = NORMAL")
        .map_err(|e| CatalogError::sqlite(path, &e))?;
    Ok(())
}

/// The names of the tables and views in the file.
pub(crate) fn tables(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut st = conn.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")?;
    st.query_map([], |r| r.get(0))?.collect()
}

/// The columns of `table`.
pub(crate) fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut st = conn.prepare(&format!("PRAGMA table_info(\"{table}\")"))?;
    st.query_map([], |r| r.get(1))?.collect()
}

/// Checks that `conn` holds a catalog of [`SCHEMA_VERSION`] (or an empty file, which it makes
/// one when `create`) and adds the metric columns it lacks, marking its rows unmeasured (they
/// are measured again when next confirmed).
pub(crate) fn migrate(
    path: &Path,
    conn: &mut Connection,
    create: bool,
) -> Result<(), CatalogError> {
    let fail = |e: rusqlite::Error| CatalogError::sqlite(path, &e);
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(fail)?;
    if create && tables(&tx).map_err(fail)?.is_empty() {
        tx.execute_batch(SCHEMA).map_err(fail)?;
        tx.execute(
            "INSERT INTO catalog_meta (key, value) VALUES ('schema', ?1)",
            [SCHEMA_VERSION.to_string()],
        )
        .map_err(fail)?;
    }
    let missing = check_schema(path, &tx)?;
    if !missing.is_empty() {
        for m in &missing {
            tx.execute_batch(&format!("ALTER TABLE seeds ADD COLUMN \"{m}\" NUMERIC"))
                .map_err(fail)?;
        }
        tx.execute_batch("UPDATE seeds SET measured = 0")
            .map_err(fail)?;
    }
    tx.commit().map_err(fail)
}

/// Checks that `conn` holds a catalog of [`SCHEMA_VERSION`]; returns the metric columns it
/// lacks (metrics added to byog after it was written).
pub(crate) fn check_schema(
    path: &Path,
    conn: &Connection,
) -> Result<Vec<&'static str>, CatalogError> {
    let fail = |e: rusqlite::Error| CatalogError::sqlite(path, &e);
    let existing = tables(conn).map_err(fail)?;
    let version: Option<String> = if existing.iter().any(|t| t == "catalog_meta") {
        match conn.query_row(
            "SELECT value FROM catalog_meta WHERE key = 'schema'",
            [],
            |r| r.get(0),
        ) {
            Ok(v) => Some(v),
            Err(rusqlite::Error::QueryReturnedNoRows) => None,
            Err(e) => return Err(fail(e)),
        }
    } else {
        None
    };
    let wanted = ["params", "seeds", "failed_tries"];
    if version.as_deref() != Some(SCHEMA_VERSION.to_string().as_str())
        || !wanted.iter().all(|w| existing.iter().any(|t| t == w))
    {
        return Err(CatalogError::new(
            path,
            match version {
                Some(v) => format!(
                    "a catalog of schema version {v}, which this byog (schema \
                     {SCHEMA_VERSION}) does not read"
                ),
                None if existing.is_empty() => {
                    "an empty SQLite database, not a byog seed catalog".into()
                }
                None => "a SQLite database, but not a byog seed catalog (other tables)".into(),
            },
        ));
    }
    let have = columns(conn, "seeds").map_err(fail)?;
    for base in [
        "params",
        "seed",
        "tried",
        "passed_try",
        "hash",
        "failed_hash",
        "measured",
    ] {
        if !have.iter().any(|c| c == base) {
            return Err(CatalogError::new(
                path,
                format!("its seeds table has no column {base}: not a byog seed catalog"),
            ));
        }
    }
    Ok(metric_columns()
        .filter(|m| !have.iter().any(|c| c == m))
        .collect())
}

/// Refuses, without writing anything, a file that holds tables and is not a catalog of
/// [`SCHEMA_VERSION`]; an empty file passes (it becomes a catalog).
pub(crate) fn check_schema_or_empty(path: &Path, conn: &Connection) -> Result<(), CatalogError> {
    let existing = tables(conn).map_err(|e| CatalogError::sqlite(path, &e))?;
    if existing.is_empty() {
        return Ok(());
    }
    check_schema(path, conn).map(|_| ())
}
