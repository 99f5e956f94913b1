//! The seed catalog (`docs/catalog.md`): a SQLite file that remembers, for each generator
//! version, parameter set and seed, the tries that missed the requirements (and which
//! requirements each missed), the try that met them, its world's hash and its metrics.
//! "Remember bad seeds": LootQuest's generator keeps its failures because generation is
//! deterministic (Tanner Rogalsky, "Dungeon Generation in LootQuest", 2014: "determinism is
//! amazing").
//!
//! With a catalog, [`generate_for_seed_with`](byog_worlds::generator::generate_for_seed_with)
//! makes the remembered passing try first and keeps it only when its [`world_hash`] is the one
//! remembered and it meets the requirements; otherwise the entry is stale (a changed generator,
//! an edited file, a try beyond `max_tries`): it is ignored, generation starts over at try 0
//! and the entry is rewritten. The world is therefore always the one made without a catalog; a
//! remembered seed costs one try instead of all its failed ones.
//!
//! Layout: one [`Catalog`] a command, shared by the threads of a batch. Look-ups go through a
//! small pool of read connections (one a thread at a time); writes go over a channel to one
//! writer thread that owns its connection and commits in `BEGIN IMMEDIATE` transactions of up
//! to [`BATCH`] seeds. The file is in WAL mode with a [`BUSY_TIMEOUT`], so several threads and
//! several processes read and write one catalog at once without corrupting it (SQLite's own
//! locking: <https://sqlite.org/wal.html>). Opening fails with a [`CatalogError`] on a file that
//! is not a catalog (not SQLite, truncated, another schema) or that cannot be opened; what goes
//! wrong later is kept as [`Tally::problem`]. The caller reports either once and goes on
//! without the catalog: generation never depends on it.
//!
//! [`query`] reads a catalog back: seeds by metric ranges, from a small `--where` grammar.

pub mod query;

/// A value of a catalog's row as SQLite holds it (`byog catalog`'s columns).
pub use rusqlite::types::Value;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior, params};

use byog_worlds::generator::{GENERATOR_VERSION, GeneratorSettings, Level, SeedMemory, Tries};
use byog_worlds::metrics::{self, Metrics, SUMMARY, Unmet};

/// The version of the catalog's tables, kept in `catalog_meta` under `schema`. A file with
/// another version is refused as "not a catalog of this byog" (never changed).
pub const SCHEMA_VERSION: i64 = 1;

/// How long a connection waits for another writer (thread or process) before it gives up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// Seeds the writer commits in one transaction at most.
pub const BATCH: usize = 512;

/// The world hash of a level: 64-bit FNV-1a (Fowler, Noll and Vo; offset basis
/// `0xcbf29ce484222325`, prime `0x100000001b3`) over, in this order: the width and the height
/// as 4-byte little-endian numbers; every tile's character (its [`byog_tile_engine::Tile`]
/// glyph, fixed by the Java tileset) in UTF-8, in storage order (row by row from y = 0, x
/// from 0); then the avatar's and the exit's x and y as 4-byte little-endian signed numbers.
/// It depends only on what a player sees, never on in-memory ids, so it is the same on every
/// platform and build. Shown as 16 lowercase hex digits ([`hash_hex`]).
pub fn world_hash(level: &Level) -> u64 {
    let mut h = FNV_OFFSET;
    let mut eat = |bytes: &[u8]| h = fnv1a(h, bytes);
    let world = &level.world;
    eat(&(world.width() as u32).to_le_bytes());
    eat(&(world.height() as u32).to_le_bytes());
    let mut buf = [0u8; 4];
    for tile in world.tiles() {
        eat(tile.character().encode_utf8(&mut buf).as_bytes());
    }
    for v in [level.avatar.x, level.avatar.y, level.exit.x, level.exit.y] {
        eat(&v.to_le_bytes());
    }
    h
}

/// FNV-1a's 64-bit offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// 64-bit FNV-1a of `bytes`, continuing from `h` (start at [`FNV_OFFSET`]).
fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The check of a seed's failed tries (`seeds.failed_hash`): 64-bit FNV-1a over their
/// `unmet` JSON texts in try order, each followed by a newline. A failure edited without it
/// makes the entry stale.
fn failures_hash<'a>(unmets: impl IntoIterator<Item = &'a str>) -> u64 {
    unmets
        .into_iter()
        .fold(FNV_OFFSET, |h, u| fnv1a(fnv1a(h, u.as_bytes()), b"\n"))
}

/// A world hash as the catalog stores it: 16 lowercase hex digits.
pub fn hash_hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// The parameter set of a world: the JSON encoding (serde, fields in declaration order, so
/// canonical) of the generator settings without `max_tries`. Every setting that shapes a try
/// is in it, whatever fields [`GeneratorSettings`] has (the requirements included: they decide
/// which try passes); `max_tries` is not, since a try's world does not depend on it (a
/// remembered pass beyond `max_tries` is simply not used). Width and height are columns of
/// their own.
pub fn parameter_set(settings: &GeneratorSettings) -> String {
    let mut v = serde_json::to_value(settings).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.remove("max_tries");
    }
    v.to_string()
}

/// Why a catalog could not be used. Its message names the file and the reason; the caller
/// adds what it does next (generate without it, or exit 2 for `byog catalog`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("seed catalog {}: {reason}", .path.display())]
pub struct CatalogError {
    /// The file, as given.
    pub path: PathBuf,
    /// Why, in words: "not a SQLite database (or a damaged one)", "its folder /x does not
    /// exist", ….
    pub reason: String,
}

impl CatalogError {
    fn new(path: &Path, reason: impl Into<String>) -> Self {
        CatalogError {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }

    fn sqlite(path: &Path, e: &rusqlite::Error) -> Self {
        CatalogError::new(path, describe(e))
    }
}

/// Whether opening failed for want of write access (to the file, its folder or the WAL's
/// shared-memory file).
fn is_cannot_write(e: &CatalogError) -> bool {
    e.reason == describe_code(rusqlite::ErrorCode::ReadOnly)
        || e.reason == describe_code(rusqlite::ErrorCode::CannotOpen)
}

/// [`describe`] of an error code alone.
fn describe_code(code: rusqlite::ErrorCode) -> String {
    describe(&rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error {
            code,
            extended_code: 0,
        },
        None,
    ))
}

/// A SQLite error in a user's words.
fn describe(e: &rusqlite::Error) -> String {
    use rusqlite::ErrorCode as C;
    match e.sqlite_error_code() {
        Some(C::NotADatabase) => "not a SQLite database (or a damaged one)".into(),
        Some(C::DatabaseCorrupt) => "the database is damaged (SQLite: malformed)".into(),
        Some(C::ReadOnly) => "the file or its folder is read-only".into(),
        Some(C::PermissionDenied) => "permission denied".into(),
        Some(C::CannotOpen) => {
            "it cannot be opened (its folder is missing or not writable, or it is not a file)"
                .into()
        }
        Some(C::DatabaseBusy | C::DatabaseLocked) => format!(
            "it stayed locked by another writer for {} s",
            BUSY_TIMEOUT.as_secs()
        ),
        Some(C::DiskFull) => "the disk is full".into(),
        _ => format!("SQLite: {e}"),
    }
}

/// The metric columns of `seeds`: one a [`SUMMARY`] entry, named as it is (a new metric in
/// [`SUMMARY`] is a new column, added to older catalogs when they are opened).
pub fn metric_columns() -> impl Iterator<Item = &'static str> {
    SUMMARY.iter().map(|m| m.name)
}

/// The tables (`docs/catalog.md`). `seeds` also gets one NUMERIC column a metric
/// ([`metric_columns`]), added by [`migrate`].
const SCHEMA: &str = "
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
fn check_file(path: &Path) -> Result<(), CatalogError> {
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
fn connect(path: &Path, create: bool) -> Result<Connection, CatalogError> {
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
fn use_wal(path: &Path, conn: &Connection) -> Result<(), CatalogError> {
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
fn tables(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut st = conn.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")?;
    st.query_map([], |r| r.get(0))?.collect()
}

/// The columns of `table`.
fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut st = conn.prepare(&format!("PRAGMA table_info(\"{table}\")"))?;
    st.query_map([], |r| r.get(1))?.collect()
}

/// Checks that `conn` holds a catalog of [`SCHEMA_VERSION`] (or an empty file, which it makes
/// one when `create`) and adds the metric columns it lacks, marking its rows unmeasured (they
/// are measured again when next confirmed).
fn migrate(path: &Path, conn: &mut Connection, create: bool) -> Result<(), CatalogError> {
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
fn check_schema(path: &Path, conn: &Connection) -> Result<Vec<&'static str>, CatalogError> {
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
fn check_schema_or_empty(path: &Path, conn: &Connection) -> Result<(), CatalogError> {
    let existing = tables(conn).map_err(|e| CatalogError::sqlite(path, &e))?;
    if existing.is_empty() {
        return Ok(());
    }
    check_schema(path, conn).map(|_| ())
}

/// A `file:` URI for `path` with SQLite's `immutable=1`: read without locks or the WAL's
/// shared-memory file, which a user who cannot write the catalog's folder cannot make.
fn immutable_uri(path: &Path) -> String {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path.to_string_lossy().into_owned().into_bytes();
    let mut uri = String::from("file:");
    for b in bytes {
        if b.is_ascii_alphanumeric() || b"/._-~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push_str("?immutable=1");
    uri
}

/// Opens a catalog to read it (`byog catalog`), read-only: it must exist and be a catalog.
/// Returns the connection and the metric columns it lacks (written before those metrics
/// existed).
///
/// # Errors
/// [`CatalogError`] for a missing file, or one that is not a catalog.
pub fn open_existing(path: &Path) -> Result<(Connection, Vec<&'static str>), CatalogError> {
    if !path.exists() {
        return Err(CatalogError::new(path, "no such file"));
    }
    check_file(path)?;
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let open = |name: &Path| -> Result<(Connection, Vec<&'static str>), CatalogError> {
        let conn =
            Connection::open_with_flags(name, flags).map_err(|e| CatalogError::sqlite(path, &e))?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| CatalogError::sqlite(path, &e))?;
        let missing = check_schema(path, &conn)?;
        Ok((conn, missing))
    };
    let (conn, missing) = match open(path) {
        // A catalog in WAL mode is read through a shared-memory file beside it; a user who
        // cannot write there reads it as an immutable file instead (queries only; a writer
        // elsewhere at the same time could make such a read see part of a transaction).
        Err(e) if is_cannot_write(&e) => open(Path::new(&immutable_uri(path)))?,
        other => other?,
    };
    Ok((conn, missing))
}

/// A metric value as stored: whole numbers as integers (as `stats` prints them), others as
/// reals, an undefined one as NULL.
fn metric_value(v: Option<f64>) -> Value {
    match v {
        Some(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => Value::Integer(v as i64),
        Some(v) => Value::Real(v),
        None => Value::Null,
    }
}

/// The [`SUMMARY`] values of `metrics`, as stored.
fn metric_values(m: &Metrics) -> Vec<Value> {
    SUMMARY.iter().map(|s| metric_value((s.value)(m))).collect()
}

/// A failed try as stored: its number, the requirements it missed (their field names, comma
/// separated), what it reached in words, and its [`Unmet`]s as JSON (so a seed that no try
/// met can be told apart again without making its tries).
#[derive(Debug, Clone)]
struct FailedTry {
    attempt: u32,
    missed: String,
    detail: String,
    unmet: String,
}

/// What one seed's generation taught the catalog, sent to the writer.
#[derive(Debug)]
enum Record {
    /// A run from try `from` (0, or past confirmed remembered failures) that passed at
    /// `passed_try`: replaces the seed's entry (and its failed tries from `from` on).
    Passed {
        seed: u64,
        from: u32,
        failed: Vec<FailedTry>,
        passed_try: u32,
        hash: u64,
        metrics: Vec<Value>,
    },
    /// A run that met nothing in its `tried` tries: keeps a remembered pass beyond them
    /// unless `stale`.
    GaveUp {
        seed: u64,
        tried: u32,
        check: u64,
        failed: Vec<FailedTry>,
        stale: bool,
    },
    /// A remembered pass confirmed, measured again for metric columns it lacked.
    Measured { seed: u64, metrics: Vec<Value> },
}

/// What a catalog did over one command, for its report (`byog: catalog: …` on stderr) and
/// the benchmarks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Seeds generated through the catalog.
    pub seeds: u64,
    /// Seeds whose remembered pass was confirmed: one try made.
    pub hits: u64,
    /// Seeds whose remembered failed tries were confirmed (by making the last of them
    /// again): generation went on after them.
    pub resumed: u64,
    /// Seeds whose entry was stale or edited (hash mismatch, a pass that no longer meets the
    /// requirements, a try beyond `max_tries` or out of range): ignored and rewritten.
    pub stale: u64,
    /// Worlds generated (tries made), a confirmed pass and a stale entry's check included.
    pub tries_made: u64,
    /// Remembered failed tries not made again.
    pub tries_skipped: u64,
    /// The first thing that went wrong after opening (a write or a look-up failed), if any;
    /// generation went on without the catalog's help.
    pub problem: Option<String>,
}

#[derive(Debug, Default)]
struct Counts {
    seeds: AtomicU64,
    hits: AtomicU64,
    resumed: AtomicU64,
    stale: AtomicU64,
    tries_made: AtomicU64,
    tries_skipped: AtomicU64,
}

/// An open seed catalog for one parameter set (world size and generator settings), shared by
/// the threads of a batch (`&Catalog` is `Sync`). [`Catalog::seed`] gives the [`Tries`] hook
/// of one seed; [`Catalog::finish`] waits for the writes and reports.
pub struct Catalog {
    path: PathBuf,
    params: i64,
    readers: Mutex<Vec<Connection>>,
    sender: Mutex<Option<mpsc::Sender<Record>>>,
    writer: Mutex<Option<std::thread::JoinHandle<()>>>,
    problem: Arc<Mutex<Option<String>>>,
    counts: Counts,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog")
            .field("path", &self.path)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl Catalog {
    /// Opens (or creates) the catalog at `path` for worlds of `width × height` tiles made
    /// with `settings` by this build's generator ([`GENERATOR_VERSION`]).
    ///
    /// # Errors
    /// [`CatalogError`]: the folder is missing or read-only, the file is not SQLite, is
    /// damaged or holds other tables, or it stayed locked for [`BUSY_TIMEOUT`].
    pub fn open(
        path: &Path,
        width: usize,
        height: usize,
        settings: &GeneratorSettings,
    ) -> Result<Catalog, CatalogError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
            && !dir.is_dir()
        {
            return Err(CatalogError::new(
                path,
                format!("its folder {} does not exist", dir.display()),
            ));
        }
        check_file(path)?;
        let mut conn = connect(path, true)?;
        // The schema first: a file that is not a catalog is refused before anything about it
        // changes, its journal mode included.
        check_schema_or_empty(path, &conn)?;
        migrate(path, &mut conn, true)?;
        use_wal(path, &conn)?;
        let fail = |e: rusqlite::Error| CatalogError::sqlite(path, &e);
        let (w, h) = (width as i64, height as i64);
        let text = parameter_set(settings);
        conn.execute(
            "INSERT OR IGNORE INTO params (generator_version, width, height, settings)
             VALUES (?1, ?2, ?3, ?4)",
            params![GENERATOR_VERSION, w, h, text],
        )
        .map_err(fail)?;
        let id: i64 = conn
            .query_row(
                "SELECT id FROM params
                 WHERE generator_version = ?1 AND width = ?2 AND height = ?3 AND settings = ?4",
                params![GENERATOR_VERSION, w, h, text],
                |r| r.get(0),
            )
            .map_err(fail)?;
        let writer_conn = connect(path, false)?;
        use_wal(path, &writer_conn)?;
        let problem = Arc::new(Mutex::new(None));
        let (sender, receiver) = mpsc::channel();
        let writer = {
            let problem = Arc::clone(&problem);
            std::thread::Builder::new()
                .name("byog-catalog".into())
                .spawn(move || write_loop(writer_conn, id, &receiver, &problem))
                .map_err(|e| CatalogError::new(path, format!("cannot start its writer: {e}")))?
        };
        Ok(Catalog {
            path: path.to_path_buf(),
            params: id,
            readers: Mutex::new(vec![conn]),
            sender: Mutex::new(Some(sender)),
            writer: Mutex::new(Some(writer)),
            problem,
            counts: Counts::default(),
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The id of this catalog's parameter set (`params.id`).
    pub fn params_id(&self) -> i64 {
        self.params
    }

    /// The [`Tries`] hook of `seed`: pass it to
    /// [`generate_for_seed_with`](byog_worlds::generator::generate_for_seed_with); what it
    /// learns is written when it is dropped.
    pub fn seed(&self, seed: u64) -> SeedLog<'_> {
        SeedLog {
            catalog: self,
            seed,
            entry: None,
            confirmed: false,
            stale: false,
            made: 0,
            from: 0,
            known: Vec::new(),
            failed: Vec::new(),
            record: None,
        }
    }

    /// Keeps the first problem met after opening.
    fn note(&self, what: String) {
        let mut p = self.problem.lock().unwrap_or_else(|e| e.into_inner());
        p.get_or_insert(what);
    }

    /// The remembered entry of `seed`: its passing try (`Err(())` when the row is there but
    /// holds no usable try) and hash.
    fn lookup(&self, seed: u64) -> Option<Entry> {
        let conn = {
            let mut pool = self.readers.lock().unwrap_or_else(|e| e.into_inner());
            pool.pop()
        };
        let conn = match conn {
            Some(c) => c,
            None => match connect(&self.path, false) {
                Ok(c) => c,
                Err(e) => {
                    self.note(e.reason);
                    return None;
                }
            },
        };
        let found = conn
            .prepare_cached(
                "SELECT passed_try, hash, measured, tried, failed_hash FROM seeds
                 WHERE params = ?1 AND seed = ?2",
            )
            .and_then(|mut st| {
                let mut rows = st.query(params![self.params, seed as i64])?;
                match rows.next()? {
                    Some(r) => Ok(Some((
                        r.get::<_, Option<i64>>(0)?,
                        r.get::<_, Option<String>>(1)?,
                        r.get::<_, Option<i64>>(2)?,
                        r.get::<_, Option<i64>>(3)?,
                        r.get::<_, Option<String>>(4)?,
                    ))),
                    None => Ok(None),
                }
            });
        self.readers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(conn);
        match found {
            Ok(Some((passed, hash, measured, tried, failed_hash))) => Some(Entry {
                tried: tried.unwrap_or(0),
                failed_hash: failed_hash.and_then(|h| u64::from_str_radix(&h, 16).ok()),
                pass: passed.and_then(|p| u32::try_from(p).ok()).ok_or(()),
                hash: hash
                    .filter(|h| h.len() == 16)
                    .and_then(|h| u64::from_str_radix(&h, 16).ok()),
                has_pass: passed.is_some(),
                measured: measured == Some(1),
            }),
            Ok(None) => None,
            Err(e) => {
                self.note(format!("a look-up failed: {}", describe(&e)));
                None
            }
        }
    }

    /// The remembered failed tries of `seed`, in order, when they are tries `0..tried` with
    /// readable [`Unmet`]s; `None` otherwise (an edited or damaged entry).
    fn failures(
        &self,
        seed: u64,
        tried: i64,
        check: Option<u64>,
    ) -> Option<Vec<(Vec<Unmet>, String)>> {
        let conn = self.readers.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match conn {
            Some(c) => c,
            None => connect(&self.path, false).ok()?,
        };
        let rows = conn
            .prepare_cached(
                "SELECT try, unmet FROM failed_tries WHERE params = ?1 AND seed = ?2 ORDER BY try",
            )
            .and_then(|mut st| {
                st.query_map(params![self.params, seed as i64], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()
            });
        self.readers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(conn);
        let rows = match rows {
            Ok(rows) => rows,
            Err(e) => {
                self.note(format!("a look-up failed: {}", describe(&e)));
                return None;
            }
        };
        if rows.len() as i64 != tried
            || rows.iter().enumerate().any(|(i, r)| r.0 != i as i64)
            || check != Some(failures_hash(rows.iter().map(|r| r.1.as_str())))
        {
            return None;
        }
        rows.into_iter()
            .map(|(_, json)| {
                let unmet = serde_json::from_str::<Vec<Unmet>>(&json).ok()?;
                (!unmet.is_empty()).then_some((unmet, json))
            })
            .collect()
    }

    fn send(&self, record: Record) {
        let sender = self.sender.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = sender.as_ref() {
            // A writer that stopped has noted why.
            let _ = s.send(record);
        }
    }

    /// Waits for every write and says what the catalog did.
    pub fn finish(&self) -> Tally {
        drop(self.sender.lock().unwrap_or_else(|e| e.into_inner()).take());
        let writer = self.writer.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(w) = writer
            && w.join().is_err()
        {
            self.note("its writer stopped unexpectedly".into());
        }
        let c = &self.counts;
        Tally {
            seeds: c.seeds.load(Ordering::Relaxed),
            hits: c.hits.load(Ordering::Relaxed),
            resumed: c.resumed.load(Ordering::Relaxed),
            stale: c.stale.load(Ordering::Relaxed),
            tries_made: c.tries_made.load(Ordering::Relaxed),
            tries_skipped: c.tries_skipped.load(Ordering::Relaxed),
            problem: self
                .problem
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone(),
        }
    }
}

impl SeedMemory for Catalog {
    fn tries(&self, seed: u64) -> Box<dyn Tries + '_> {
        Box::new(self.seed(seed))
    }
}

impl Drop for Catalog {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A seed's row as looked up.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The passing try; `Err` for a negative or too large one (an edited file).
    pass: Result<u32, ()>,
    /// The hash, when it is 16 hex digits.
    hash: Option<u64>,
    /// Whether the row has a passing try at all.
    has_pass: bool,
    /// Whether its metric columns are complete.
    measured: bool,
    /// Tries remembered.
    tried: i64,
    /// The check of its failed tries, for an entry with no pass.
    failed_hash: Option<u64>,
}

/// The [`Tries`] hook of one seed ([`Catalog::seed`]): it offers the remembered pass, checks
/// its hash, collects the failed tries and, when dropped, sends what it learnt to the writer.
#[derive(Debug)]
pub struct SeedLog<'a> {
    catalog: &'a Catalog,
    seed: u64,
    entry: Option<Entry>,
    confirmed: bool,
    stale: bool,
    made: u32,
    from: u32,
    /// The remembered failures' JSON, tries `0..`, while confirming them.
    known: Vec<String>,
    failed: Vec<FailedTry>,
    record: Option<Record>,
}

impl Tries for SeedLog<'_> {
    fn remembered(&mut self) -> Option<u32> {
        self.entry = self.catalog.lookup(self.seed);
        let entry = self.entry?;
        if !entry.has_pass {
            return None;
        }
        match entry.pass {
            Ok(k) => {
                // Stale until confirmed (a try beyond max_tries is never made: stale too).
                self.stale = true;
                Some(k)
            }
            Err(()) => {
                self.stale = true;
                None
            }
        }
    }

    fn confirm(&mut self, _attempt: u32, level: &Level) -> bool {
        self.made += 1;
        self.confirmed = self
            .entry
            .and_then(|e| e.hash)
            .is_some_and(|h| h == world_hash(level));
        self.confirmed
    }

    fn remembered_failures(&mut self) -> Vec<Vec<Unmet>> {
        let Some(entry) = self.entry.filter(|e| !e.has_pass && e.tried > 0) else {
            return Vec::new();
        };
        match self
            .catalog
            .failures(self.seed, entry.tried, entry.failed_hash)
        {
            Some(known) => known
                .into_iter()
                .map(|(unmet, json)| {
                    self.known.push(json);
                    unmet
                })
                .collect(),
            None => {
                self.stale = true;
                Vec::new()
            }
        }
    }

    fn resumed(&mut self, from: u32, confirmed: bool) {
        self.made += 1;
        if confirmed {
            self.from = from;
            let c = &self.catalog.counts;
            c.resumed.fetch_add(1, Ordering::Relaxed);
            c.tries_skipped
                .fetch_add(u64::from(from - 1), Ordering::Relaxed);
        } else {
            self.stale = true;
        }
    }

    fn failed(&mut self, attempt: u32, unmet: &[Unmet]) {
        self.made += 1;
        let names: Vec<&str> = unmet.iter().map(|u| u.requirement.name()).collect();
        let words: Vec<String> = unmet.iter().map(ToString::to_string).collect();
        self.failed.push(FailedTry {
            attempt,
            missed: names.join(","),
            detail: words.join("; "),
            unmet: serde_json::to_string(unmet).unwrap_or_default(),
        });
    }

    fn passed(&mut self, attempt: u32, level: &Level, measured: Option<&Metrics>) {
        let measure = || match measured {
            Some(m) => metric_values(m),
            None => metric_values(&metrics::measure(&level.world, level.avatar, level.exit)),
        };
        // The loop calls `passed` right after a confirmed jump: the only call with one world
        // made, the remembered try and a confirmed hash.
        let hit =
            self.confirmed && self.made == 1 && self.entry.is_some_and(|e| e.pass == Ok(attempt));
        if hit {
            // The remembered pass, confirmed: nothing new unless metrics were added.
            self.stale = false;
            let c = &self.catalog.counts;
            c.hits.fetch_add(1, Ordering::Relaxed);
            c.tries_skipped
                .fetch_add(u64::from(attempt), Ordering::Relaxed);
            if !self.entry.is_some_and(|e| e.measured) {
                self.record = Some(Record::Measured {
                    seed: self.seed,
                    metrics: measure(),
                });
            }
            return;
        }
        self.made += 1;
        self.record = Some(Record::Passed {
            seed: self.seed,
            from: self.from,
            failed: std::mem::take(&mut self.failed),
            passed_try: attempt,
            hash: world_hash(level),
            metrics: measure(),
        });
    }
}

impl Drop for SeedLog<'_> {
    fn drop(&mut self) {
        let c = &self.catalog.counts;
        if self.made == 0 {
            // Nothing was generated (bad arguments): nothing to remember.
            return;
        }
        c.seeds.fetch_add(1, Ordering::Relaxed);
        c.tries_made
            .fetch_add(u64::from(self.made), Ordering::Relaxed);
        if self.stale {
            c.stale.fetch_add(1, Ordering::Relaxed);
        }
        let record = self.record.take().or_else(|| {
            let tried = self.failed.last()?.attempt + 1;
            let from = self.from as usize;
            let check = failures_hash(
                self.known[..from.min(self.known.len())]
                    .iter()
                    .map(String::as_str)
                    .chain(self.failed.iter().map(|f| f.unmet.as_str())),
            );
            Some(Record::GaveUp {
                seed: self.seed,
                tried,
                check,
                failed: std::mem::take(&mut self.failed),
                stale: self.stale,
            })
        });
        if let Some(r) = record {
            self.catalog.send(r);
        }
    }
}

/// The writer thread: commits records in transactions of up to [`BATCH`], until the channel
/// closes; the first failure is noted and the rest dropped (generation goes on).
fn write_loop(
    mut conn: Connection,
    params: i64,
    receiver: &mpsc::Receiver<Record>,
    problem: &Mutex<Option<String>>,
) {
    let note = |what: String| {
        let mut p = problem.lock().unwrap_or_else(|e| e.into_inner());
        p.get_or_insert(what);
    };
    let mut broken = false;
    while let Ok(first) = receiver.recv() {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match receiver.try_recv() {
                Ok(r) => batch.push(r),
                Err(_) => break,
            }
        }
        if broken {
            continue;
        }
        if let Err(e) = write_batch(&mut conn, params, &batch) {
            note(format!("a write failed: {}", describe(&e)));
            broken = true;
        }
    }
}

/// Writes `batch` in one `BEGIN IMMEDIATE` transaction.
fn write_batch(conn: &mut Connection, params: i64, batch: &[Record]) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    {
        let mut forget_tries = tx.prepare_cached(
            "DELETE FROM failed_tries WHERE params = ?1 AND seed = ?2 AND try >= ?3",
        )?;
        let mut forget_seed =
            tx.prepare_cached("DELETE FROM seeds WHERE params = ?1 AND seed = ?2")?;
        let mut add_try = tx.prepare_cached(
            "INSERT OR REPLACE INTO failed_tries (params, seed, try, missed, detail, unmet)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        let names: Vec<&str> = metric_columns().collect();
        let quoted = |n: &&str| format!("\"{n}\"");
        let cols: Vec<String> = names.iter().map(quoted).collect();
        let marks: Vec<String> = (0..names.len()).map(|i| format!("?{}", i + 7)).collect();
        let mut add_pass = tx.prepare_cached(&format!(
            "INSERT OR REPLACE INTO seeds (params, seed, tried, passed_try, hash, measured, {})
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, {})",
            cols.join(", "),
            marks.join(", ")
        ))?;
        let sets: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("\"{n}\" = ?{}", i + 3))
            .collect();
        let mut set_metrics = tx.prepare_cached(&format!(
            "UPDATE seeds SET measured = 1, {} WHERE params = ?1 AND seed = ?2",
            sets.join(", ")
        ))?;
        let mut gave_up = tx.prepare_cached(
            "INSERT INTO seeds (params, seed, tried, passed_try, hash, failed_hash, measured)
             VALUES (?1, ?2, ?3, NULL, NULL, ?4, 0)
             ON CONFLICT (params, seed) DO UPDATE
             SET tried = excluded.tried, failed_hash = excluded.failed_hash
             WHERE passed_try IS NULL AND tried <= excluded.tried",
        )?;
        for record in batch {
            match record {
                Record::Passed {
                    seed,
                    from,
                    failed,
                    passed_try,
                    hash,
                    metrics,
                } => {
                    let seed = *seed as i64;
                    forget_tries.execute(params![params, seed, from])?;
                    for f in failed {
                        add_try.execute(params![
                            params, seed, f.attempt, f.missed, f.detail, f.unmet
                        ])?;
                    }
                    let mut values: Vec<Value> = vec![
                        Value::Integer(params),
                        Value::Integer(seed),
                        Value::Integer(i64::from(*passed_try) + 1),
                        Value::Integer(i64::from(*passed_try)),
                        Value::Text(hash_hex(*hash)),
                        Value::Integer(1),
                    ];
                    values.extend(metrics.iter().cloned());
                    add_pass.execute(rusqlite::params_from_iter(values))?;
                }
                Record::GaveUp {
                    seed,
                    tried,
                    check,
                    failed,
                    stale,
                } => {
                    let seed = *seed as i64;
                    if *stale {
                        forget_tries.execute(params![params, seed, 0])?;
                        forget_seed.execute(params![params, seed])?;
                    }
                    for f in failed {
                        add_try.execute(params![
                            params, seed, f.attempt, f.missed, f.detail, f.unmet
                        ])?;
                    }
                    gave_up.execute(params![params, seed, tried, hash_hex(*check)])?;
                }
                Record::Measured { seed, metrics } => {
                    let mut values = vec![Value::Integer(params), Value::Integer(*seed as i64)];
                    values.extend(metrics.iter().cloned());
                    set_metrics.execute(rusqlite::params_from_iter(values))?;
                }
            }
        }
    }
    tx.commit()
}
