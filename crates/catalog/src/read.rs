//! Reading a catalog: `byog catalog` opens one read-only (as an immutable file when the user
//! cannot write beside it), and a seed's remembered entry as generation looks it up.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::schema::{check_file, check_schema};
use super::{BUSY_TIMEOUT, CatalogError};

/// A `file:` URI for `path` with SQLite's `immutable=1`: read without locks or the WAL's
/// shared-memory file, which a user who cannot write the catalog's folder cannot make.
pub(crate) fn immutable_uri(path: &Path) -> String {
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

/// Whether SQLite failed for want of write access (to the file, its folder or the WAL's
/// shared-memory file).
fn cannot_write(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::CannotOpen)
    )
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
    // The connection, and a first read of the schema: where a user who cannot write beside
    // a catalog in WAL mode fails (its shared-memory file cannot be made).
    let open = |name: &Path| -> rusqlite::Result<Connection> {
        let conn = Connection::open_with_flags(name, flags)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })?;
        Ok(conn)
    };
    let conn = match open(path) {
        // Read as an immutable file instead (queries only; a writer elsewhere at the same
        // time could make such a read see part of a transaction).
        Err(e) if cannot_write(&e) => open(Path::new(&immutable_uri(path))),
        other => other,
    }
    .map_err(|e| CatalogError::sqlite(path, &e))?;
    let missing = check_schema(path, &conn)?;
    Ok((conn, missing))
}

/// A seed's row as looked up.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    /// The passing try; `Err` for a negative or too large one (an edited file).
    pub(crate) pass: Result<u32, ()>,
    /// The hash, when it is 16 hex digits.
    pub(crate) hash: Option<u64>,
    /// Whether the row has a passing try at all.
    pub(crate) has_pass: bool,
    /// Whether its metric columns are complete.
    pub(crate) measured: bool,
    /// Tries remembered.
    pub(crate) tried: i64,
    /// The check of its failed tries, for an entry with no pass.
    pub(crate) failed_hash: Option<u64>,
}
