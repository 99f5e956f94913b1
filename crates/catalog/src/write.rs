//! Writing a catalog: what one seed's generation taught it, sent to one writer thread that
//! commits in `BEGIN IMMEDIATE` transactions of up to [`BATCH`](super::BATCH) seeds.

use std::sync::Mutex;
use std::sync::mpsc;

use rusqlite::{Connection, TransactionBehavior, params};

use super::{BATCH, Value, describe, hash_hex, metric_columns};
use byog_worlds::metrics::{Metrics, SUMMARY};

/// A metric value as stored: whole numbers as integers (as `stats` prints them), others as
/// reals, an undefined one as NULL.
pub(crate) fn metric_value(v: Option<f64>) -> Value {
    match v {
        Some(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => Value::Integer(v as i64),
        Some(v) => Value::Real(v),
        None => Value::Null,
    }
}

/// The [`SUMMARY`] values of `metrics`, as stored.
pub(crate) fn metric_values(m: &Metrics) -> Vec<Value> {
    SUMMARY.iter().map(|s| metric_value((s.value)(m))).collect()
}

/// A failed try as stored: its number, the requirements it missed (their field names, comma
/// separated), what it reached in words, and its [`Unmet`]s as JSON (so a seed that no try
/// met can be told apart again without making its tries).
#[derive(Debug, Clone)]
pub(crate) struct FailedTry {
    pub(crate) attempt: u32,
    pub(crate) missed: String,
    pub(crate) detail: String,
    pub(crate) unmet: String,
}

/// What one seed's generation taught the catalog, sent to the writer.
#[derive(Debug)]
pub(crate) enum Record {
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

/// The writer thread: commits records in transactions of up to [`BATCH`], until the channel
/// closes; the first failure is noted and the rest dropped (generation goes on).
pub(crate) fn write_loop(
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
pub(crate) fn write_batch(
    conn: &mut Connection,
    params: i64,
    batch: &[Record],
) -> rusqlite::Result<()> {
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
