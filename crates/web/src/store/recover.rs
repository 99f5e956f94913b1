//! `--recover`: a database that failed its start-up check is set aside, never deleted
//! (`byog.sqlite3.damaged-YYYYMMDDTHHMMSSZ`, with its `-wal` and `-shm`), and what of it
//! reads back is copied into a fresh database in its place, at the schema version it had
//! (the migrations then run as for any database).
//!
//! Each table is walked in key order (rowid, or a game's batches by number); where SQLite
//! reports damage, the walk seeks past it (doubling the step until a seek succeeds, then
//! halving back to the first key that reads), so the rows on either side of a damaged page
//! are kept. Every row or stretch of rows that could not be read is said, and so is every
//! row dropped because the row it refers to was lost (a session or score whose account, the
//! batches of a game whose row). A game whose log lost batches is then marked damaged by the
//! start-up check ([`super::logs::check`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params_from_iter};

use super::writer::wal_path;
use super::{StoreError, SyncMode, connect, now_unix, schema, wal};

/// Rows read at a time.
const CHUNK: i64 = 512;

/// The `-wal` and `-shm` files beside database `db`.
pub fn companions(db: &Path) -> [PathBuf; 2] {
    let mut shm = db.as_os_str().to_owned();
    shm.push("-shm");
    [wal_path(db), PathBuf::from(shm)]
}

/// `YYYYMMDDTHHMMSSZ` of Unix time `secs`.
fn stamp(secs: i64) -> String {
    let day = crate::daily::day_of(secs).replace('-', "");
    let t = secs.rem_euclid(86_400);
    format!("{day}T{:02}{:02}{:02}Z", t / 3600, t / 60 % 60, t % 60)
}

/// Renames `from` to `to` when it exists; whether it did.
fn move_if_there(from: &Path, to: &Path) -> Result<bool, StoreError> {
    if std::fs::symlink_metadata(from).is_err() {
        return Ok(false);
    }
    std::fs::rename(from, to).map_err(|e| StoreError::io("rename", from, e))?;
    Ok(true)
}

/// A name beside `db` for its damaged copy that nothing has yet.
fn aside_name(db: &Path) -> PathBuf {
    let base = format!("{}.damaged-{}", db.display(), stamp(now_unix()));
    let mut name = PathBuf::from(&base);
    let mut k = 2;
    while std::fs::symlink_metadata(&name).is_ok()
        || companions(&name)
            .iter()
            .any(|p| std::fs::symlink_metadata(p).is_ok())
    {
        name = PathBuf::from(format!("{base}-{k}"));
        k += 1;
    }
    name
}

/// Sets aside the `-wal` and `-shm` files of a database that is missing (SQLite would
/// otherwise read a log of another file into the new one).
///
/// # Errors
/// When a file cannot be renamed.
pub fn set_aside_companions(db: &Path, notes: &mut Vec<String>) -> Result<(), StoreError> {
    let aside = aside_name(db);
    for (from, to) in companions(db).iter().zip(companions(&aside)) {
        if move_if_there(from, &to)? {
            notes.push(format!(
                "--recover: {} is kept as {}",
                from.display(),
                to.display()
            ));
        }
    }
    Ok(())
}

/// Sets `db` aside with its companions, makes a fresh database in its place and copies
/// into it what reads back; `why` says what the check found. Returns the fresh database's
/// connection (not yet migrated to the current schema).
///
/// # Errors
/// When the files cannot be renamed or the fresh database cannot be made.
pub fn recover(
    db: &Path,
    sync: SyncMode,
    why: &str,
    notes: &mut Vec<String>,
) -> Result<Connection, StoreError> {
    let aside = aside_name(db);
    let mut moved: Vec<(PathBuf, PathBuf)> = Vec::new();
    let pairs = std::iter::once((db.to_owned(), aside.clone()))
        .chain(companions(db).into_iter().zip(companions(&aside)));
    for (from, to) in pairs {
        match move_if_there(&from, &to) {
            Ok(true) => moved.push((from, to)),
            Ok(false) => {}
            Err(e) => {
                put_back(db, &moved, false);
                return Err(e);
            }
        }
    }
    let aside_wal = wal_path(&aside);
    let had_wal = std::fs::symlink_metadata(&aside_wal).is_ok();
    let mut said = Vec::new();
    let filled = fill(db, &aside, sync, &mut said);
    // The damaged copy was read without a checkpoint: it is as it was, but for the empty
    // log SQLite made beside it to read it.
    if !had_wal && std::fs::metadata(&aside_wal).is_ok_and(|m| m.len() == 0) {
        let _ = std::fs::remove_file(&aside_wal);
    }
    match filled {
        Ok(fresh) => {
            notes.push(format!(
                "--recover: {} ({why}) is kept as {}; what reads back of it is copied into a fresh {}",
                db.display(),
                moved
                    .iter()
                    .map(|(_, to)| to.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" and "),
                db.display()
            ));
            notes.append(&mut said);
            Ok(fresh)
        }
        Err(e) => {
            put_back(db, &moved, true);
            Err(StoreError::Recover {
                db: db.to_owned(),
                source: Box::new(e),
            })
        }
    }
}

/// Undoes a recovery that failed: the fresh files (byog's own, half made, when `fresh`) are
/// removed and the files `moved` aside go back where they were.
fn put_back(db: &Path, moved: &[(PathBuf, PathBuf)], fresh: bool) {
    if fresh {
        for p in std::iter::once(db.to_owned()).chain(companions(db)) {
            let _ = std::fs::remove_file(&p);
        }
    }
    for (from, to) in moved.iter().rev() {
        let _ = std::fs::rename(to, from);
    }
}

/// Makes the fresh database `db` and copies into it what reads back of `aside`; what it
/// kept and dropped goes to `said`.
fn fill(
    db: &Path,
    aside: &Path,
    sync: SyncMode,
    said: &mut Vec<String>,
) -> Result<Connection, StoreError> {
    let mut fresh = connect(db, sync)?;
    wal(&fresh)?;
    let src = connect(aside, sync).and_then(|c| {
        c.pragma_update(None, "query_only", "ON")?;
        Ok(c)
    });
    let version = src.as_ref().ok().and_then(source_version);
    match (src, version) {
        (Ok(src), Some(v)) => {
            schema::create(&mut fresh, v)?;
            copy(&src, &mut fresh, v, said)?;
        }
        (src, _) => {
            let e = src
                .err()
                .map_or("no byog table reads back".to_owned(), |e| e.to_string());
            said.push(format!(
                "--recover: nothing could be read from it ({e}): began an empty database"
            ));
            schema::create(&mut fresh, schema::CURRENT)?;
        }
    }
    Ok(fresh)
}

/// The schema version of the damaged database: its `meta` row, or else what its tables
/// show.
fn source_version(c: &Connection) -> Option<u32> {
    if let Ok(Some(v)) = c
        .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
            r.get::<_, String>(0)
        })
        .optional()
        && let Ok(v) = v.parse::<u32>()
        && (1..=schema::CURRENT).contains(&v)
    {
        return Some(v);
    }
    let sql = |name: &str| -> Option<String> {
        c.query_row(
            "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1",
            [name],
            |r| r.get(0),
        )
        .ok()
    };
    let games = sql("games")?;
    if games.contains("scored") {
        Some(4)
    } else if sql("batches_as_stored").is_some() || games.contains("batches") {
        Some(3)
    } else if sql("scores").is_some_and(|s| s.contains("UNIQUE (account")) {
        Some(2)
    } else {
        Some(1)
    }
}

/// The columns of `table` in the fresh database.
fn columns(c: &Connection, table: &str) -> Result<Vec<String>, StoreError> {
    let mut st = c.prepare(&format!("PRAGMA table_info({table})"))?;
    let cols = st
        .query_map([], |r| r.get::<_, String>(1))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(cols)
}

/// `lost` key ranges as text: `13-40, 77`, a range to the end as `from 13 on`.
fn said(lost: &[(i64, i64)]) -> String {
    lost.iter()
        .map(|&(a, b)| match (a, b) {
            (a, b) if a == b => a.to_string(),
            (a, i64::MAX) => format!("from {a} on"),
            (a, b) => format!("{a}-{b}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Walks rows in key order past damage. `rows_sql` selects the key and `ncols` columns of
/// the rows whose key is above its last parameter, in key order, at most [`CHUNK`];
/// `probe_sql` the first key at or above its last parameter; `fixed` are the parameters
/// before those. Keys are positive (rowids, batch numbers). Each row read is given to
/// `take`; returns the key ranges that could not be read. Every turn moves past at least
/// one key, so a damaged tree that leads back cannot hold the walk.
fn walk(
    src: &Connection,
    rows_sql: &str,
    probe_sql: &str,
    fixed: &[Value],
    ncols: usize,
    take: &mut dyn FnMut(Vec<Value>),
) -> Vec<(i64, i64)> {
    let args = |at: i64| {
        let mut a = fixed.to_vec();
        a.push(Value::Integer(at));
        a
    };
    let ok = |at: i64| {
        src.query_row(probe_sql, params_from_iter(args(at)), |r| {
            r.get::<_, i64>(0)
        })
        .optional()
    };
    // Reads at most `max` rows above `*after`, moving `*after` to each key read; how many
    // were read, and whether the read ended on damage.
    let mut read = |after: &mut i64, max: i64| -> (i64, bool) {
        let mut n = 0;
        let r = (|| -> rusqlite::Result<()> {
            let mut st = src.prepare_cached(rows_sql)?;
            let mut rows = st.query(params_from_iter(args(*after)))?;
            while n < max
                && let Some(r) = rows.next()?
            {
                let key: i64 = r.get(0)?;
                if key <= *after {
                    // Out of order: the tree is damaged here.
                    return Err(rusqlite::Error::InvalidQuery);
                }
                let values = (1..=ncols)
                    .map(|i| r.get::<_, Value>(i))
                    .collect::<Result<Vec<_>, _>>()?;
                *after = key;
                n += 1;
                take(values);
            }
            Ok(())
        })();
        (n, r.is_err())
    };
    let mut lost = Vec::new();
    // Keys start at 1 (rowids and batch numbers): from 0, a seek past damage at the start
    // doubles its way to them, not across the whole range of negative keys.
    let mut after = 0;
    loop {
        match read(&mut after, CHUNK) {
            (n, false) if n < CHUNK => return lost,
            (_, false) => continue,
            (_, true) => {}
        }
        let Some(start) = after.checked_add(1) else {
            return lost;
        };
        match ok(start) {
            // Nothing after the damage.
            Ok(None) => return lost,
            // A seek reaches row `r`: read it alone; if it does not read, it is lost.
            Ok(Some(r)) if r >= start => {
                let mut at = r - 1;
                if read(&mut at, 1) != (1, false) || at != r {
                    lost.push((r, r));
                }
                after = r;
            }
            // The tree itself is damaged here: find the first key past it that a seek
            // reaches.
            _ => {
                let (mut bad, mut step, mut good) = (start, 1i64, None);
                while let Some(at) = start.checked_add(step) {
                    if ok(at).is_ok() {
                        good = Some(at);
                        break;
                    }
                    bad = at;
                    if step == i64::MAX {
                        break;
                    }
                    step = step.saturating_mul(2);
                }
                let Some(mut good) = good else {
                    lost.push((start, i64::MAX));
                    return lost;
                };
                while good - bad > 1 {
                    let mid = bad + (good - bad) / 2;
                    if ok(mid).is_ok() {
                        good = mid;
                    } else {
                        bad = mid;
                    }
                }
                lost.push((start, good - 1));
                after = good - 1;
            }
        }
    }
}

/// Inserts one row, counting it kept or refused.
fn put(st: &mut rusqlite::Statement<'_>, values: Vec<Value>, kept: &mut u64, refused: &mut u64) {
    match st.execute(params_from_iter(values)) {
        Ok(_) => *kept += 1,
        Err(_) => *refused += 1,
    }
}

/// Copies every table of schema version `v` from `src` into `fresh`.
fn copy(
    src: &Connection,
    fresh: &mut Connection,
    v: u32,
    notes: &mut Vec<String>,
) -> Result<(), StoreError> {
    // Rows whose parent was lost are dealt with after the copy, below.
    fresh.pragma_update(None, "foreign_keys", "OFF")?;
    let tx = fresh.transaction()?;
    let mut kept_said = Vec::new();
    for table in ["meta", "accounts", "sessions", "games", "scores"] {
        let cols = columns(&tx, table)?;
        let list = cols.join(", ");
        let rows_sql = format!(
            "SELECT rowid, {list} FROM {table} WHERE rowid > ?1 ORDER BY rowid LIMIT {CHUNK}"
        );
        if let Err(e) = src.prepare(&rows_sql) {
            notes.push(format!(
                "--recover: table {table} could not be read at all ({e})"
            ));
            continue;
        }
        let verb = if table == "meta" {
            "INSERT OR REPLACE"
        } else {
            "INSERT"
        };
        let marks = vec!["?"; cols.len()].join(", ");
        let mut insert = tx.prepare(&format!("{verb} INTO {table} ({list}) VALUES ({marks})"))?;
        let (mut kept, mut refused) = (0u64, 0u64);
        let lost = walk(
            src,
            &rows_sql,
            &format!("SELECT rowid FROM {table} WHERE rowid >= ?1 ORDER BY rowid LIMIT 1"),
            &[],
            cols.len(),
            &mut |values| put(&mut insert, values, &mut kept, &mut refused),
        );
        kept_said.push(format!("{table} {kept}"));
        if !lost.is_empty() {
            notes.push(format!(
                "--recover: {table}: the rows of rowid {} could not be read{}",
                said(&lost),
                if matches!(table, "accounts" | "scores") {
                    " (the rowid is the id)"
                } else {
                    ""
                }
            ));
        }
        if refused > 0 {
            notes.push(format!(
                "--recover: {table}: {refused} rows that read back broke a constraint and were dropped"
            ));
        }
    }
    let games: BTreeSet<String> = tx
        .prepare("SELECT id FROM games")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut logs = vec!["batches"];
    if v >= 3 {
        logs.push("batches_as_stored");
    }
    for table in logs {
        let rows_sql = format!(
            "SELECT seq, game, seq, n, keys FROM {table} WHERE game = ?1 AND seq > ?2 ORDER BY seq LIMIT {CHUNK}"
        );
        if let Err(e) = src.prepare(&rows_sql) {
            notes.push(format!(
                "--recover: table {table} could not be read at all ({e})"
            ));
            continue;
        }
        let probe_sql =
            format!("SELECT seq FROM {table} WHERE game = ?1 AND seq >= ?2 ORDER BY seq LIMIT 1");
        let mut insert = tx.prepare(&format!(
            "INSERT INTO {table} (game, seq, n, keys) VALUES (?, ?, ?, ?)"
        ))?;
        let (mut kept, mut refused) = (0u64, 0u64);
        for game in &games {
            let lost = walk(
                src,
                &rows_sql,
                &probe_sql,
                &[Value::Text(game.clone())],
                4,
                &mut |values| put(&mut insert, values, &mut kept, &mut refused),
            );
            if !lost.is_empty() {
                notes.push(format!(
                    "--recover: {table}: batches {} of game {game} could not be read",
                    said(&lost)
                ));
            }
        }
        kept_said.push(format!("{table} {kept}"));
        if refused > 0 {
            notes.push(format!(
                "--recover: {table}: {refused} rows that read back broke a constraint and were dropped"
            ));
        }
        orphans(src, table, &games, notes);
    }
    parents_lost(&tx, notes)?;
    tx.commit()?;
    fresh.pragma_update(None, "foreign_keys", "ON")?;
    notes.push(format!("--recover: rows kept: {}", kept_said.join(", ")));
    Ok(())
}

/// Says which games have rows in `table` of `src` but no row of their own (it was lost):
/// their rows were not copied.
fn orphans(src: &Connection, table: &str, games: &BTreeSet<String>, notes: &mut Vec<String>) {
    let next = format!("SELECT game FROM {table} WHERE game > ?1 ORDER BY game LIMIT 1");
    let count = format!("SELECT count(*) FROM {table} WHERE game = ?1");
    let mut after = String::new();
    loop {
        match src
            .query_row(&next, [&after], |r| r.get::<_, String>(0))
            .optional()
        {
            Ok(Some(game)) if game > after => {
                if !games.contains(&game) {
                    let n = src
                        .query_row(&count, [&game], |r| r.get::<_, i64>(0))
                        .map_or("its".to_owned(), |n| format!("its {n}"));
                    notes.push(format!(
                        "--recover: game {game}: its row could not be read, so {n} {table} rows were dropped"
                    ));
                }
                after = game;
            }
            Ok(None) => return,
            // Damage, or a tree that leads back: on from the next game known.
            _ => match games
                .range::<String, _>((
                    std::ops::Bound::Excluded(&after),
                    std::ops::Bound::Unbounded,
                ))
                .next()
            {
                Some(g) => after = g.clone(),
                None => {
                    notes.push(format!(
                        "--recover: {table}: past game {after:?} the rows of games whose row was lost could not be looked for"
                    ));
                    return;
                }
            },
        }
    }
}

/// Deals with rows whose parent row was lost: a game keeps its log without its account, a
/// score keeps its keys without its game; a session or a score without its account is
/// dropped. Each is said.
fn parents_lost(tx: &Connection, notes: &mut Vec<String>) -> Result<(), StoreError> {
    let ids = |sql: &str| -> Result<Vec<String>, StoreError> {
        Ok(tx
            .prepare(sql)?
            .query_map([], |r| r.get::<_, Value>(0))?
            .map(|v| {
                v.map(|v| match v {
                    Value::Integer(i) => i.to_string(),
                    Value::Text(t) => t,
                    other => format!("{other:?}"),
                })
            })
            .collect::<Result<_, _>>()?)
    };
    let no_account = "account IS NOT NULL AND account NOT IN (SELECT id FROM accounts)";
    let games = ids(&format!("SELECT id FROM games WHERE {no_account}"))?;
    if !games.is_empty() {
        tx.execute(
            &format!("UPDATE games SET account = NULL WHERE {no_account}"),
            [],
        )?;
        notes.push(format!(
            "--recover: games {} kept without their account (its row could not be read)",
            games.join(", ")
        ));
    }
    let scores = ids(&format!("SELECT id FROM scores WHERE {no_account}"))?;
    if !scores.is_empty() {
        tx.execute(&format!("DELETE FROM scores WHERE {no_account}"), [])?;
        notes.push(format!(
            "--recover: scores {} dropped: their account's row could not be read",
            scores.join(", ")
        ));
    }
    let sessions = tx.execute(&format!("DELETE FROM sessions WHERE {no_account}"), [])?;
    if sessions > 0 {
        notes.push(format!(
            "--recover: {sessions} sessions dropped: their account's row could not be read (their players sign in again)"
        ));
    }
    let no_game = "game IS NOT NULL AND game NOT IN (SELECT id FROM games)";
    let scored = ids(&format!("SELECT id FROM scores WHERE {no_game}"))?;
    if !scored.is_empty() {
        tx.execute(
            &format!("UPDATE scores SET game = NULL WHERE {no_game}"),
            [],
        )?;
        notes.push(format!(
            "--recover: scores {} kept without their game (its row could not be read; a score holds its own keys)",
            scored.join(", ")
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_damaged_copy_is_named_by_its_utc_time() {
        assert_eq!(stamp(0), "19700101T000000Z");
        assert_eq!(stamp(1_798_675_200 + 3_723), "20261231T010203Z");
    }

    #[test]
    fn lost_keys_read_as_ranges() {
        assert_eq!(
            said(&[(13, 40), (77, 77), (90, i64::MAX)]),
            "13-40, 77, from 90 on"
        );
    }
}
