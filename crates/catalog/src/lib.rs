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
//!
//! The code: `hash.rs` (a world's hash, the failed tries' check, the parameter set),
//! `schema.rs` (the tables; opening a file and checking that it is a catalog before anything
//! about it changes), `read.rs` (`byog catalog`'s read-only opening, a seed's entry),
//! `write.rs` (the writer thread), `query.rs` (`--where`), and here the [`Catalog`] a command
//! generates through.

mod hash;
pub mod query;
mod read;
mod schema;
mod write;

pub use hash::{hash_hex, parameter_set, world_hash};
pub use read::open_existing;
pub use schema::{SCHEMA_VERSION, metric_columns};

use hash::failures_hash;
use read::Entry;
use schema::{check_file, check_schema_or_empty, connect, migrate, use_wal};
use write::{FailedTry, Record, metric_values, write_loop};

/// A value of a catalog's row as SQLite holds it (`byog catalog`'s columns).
pub use rusqlite::types::Value;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, params};

use byog_worlds::generator::{GENERATOR_VERSION, GeneratorSettings, Level, SeedMemory, Tries};
use byog_worlds::metrics::{self, Metrics, Unmet};

/// How long a connection waits for another writer (thread or process) before it gives up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// Seeds the writer commits in one transaction at most.
pub const BATCH: usize = 512;
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

/// A SQLite error in a user's words.
pub(crate) fn describe(e: &rusqlite::Error) -> String {
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
