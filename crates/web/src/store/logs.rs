//! Key logs at start: doubled logs repaired (once, by migration 3), and every start a check
//! that each game's log holds all the batches its counter says were written.
//!
//! A game rebuilt from its key log (after a restart, leaving memory, `:Q` and reopening, a
//! failed write) once wrote its whole replayed log again at the head of its next batch: the
//! next batch stored was the concatenation of every batch stored before it, exactly as
//! stored, then the new keys. Replayed as they are, such logs play another game.
//! [`undoubled`] strips that prefix from each batch that starts with it.
//!
//! A log with a gap, or one that lost its last batches, would replay as another game, or as
//! an earlier moment of it: such a game is marked `damaged` (`games.damage` says what is
//! missing) and [`super::Store::log`] refuses it, so it is neither resumed nor scored.

use rusqlite::{Connection, params};

use super::{StoreError, now_unix};

/// The batches of a log with every doubled prefix stripped: a batch (after the first) whose
/// keys start with the concatenation of all batches before it, as stored, loses that prefix.
/// `None` when no batch does.
///
/// `["R42S", "DD", "R42SDDW", "R42SDDR42SDDWA"]` gives `["R42S", "DD", "W", "A"]`.
pub fn undoubled<S: AsRef<str>>(batches: &[S]) -> Option<Vec<String>> {
    let mut stored = String::new();
    let mut out = Vec::with_capacity(batches.len());
    let mut changed = false;
    for b in batches {
        let b = b.as_ref();
        match b.strip_prefix(stored.as_str()) {
            Some(rest) if !stored.is_empty() => {
                out.push(rest.to_owned());
                changed = true;
            }
            _ => out.push(b.to_owned()),
        }
        stored.push_str(b);
    }
    changed.then_some(out)
}

/// Repairs every doubled log on `tx` ([`undoubled`]): the game's batches as stored go to
/// `batches_as_stored`, the repaired keys replace them, `games.log_repaired` is set to now.
/// Returns how many games were repaired.
///
/// # Errors
/// When SQLite fails.
pub fn repair(tx: &Connection) -> Result<usize, StoreError> {
    let games: Vec<String> = tx
        .prepare("SELECT DISTINCT game FROM batches ORDER BY game")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut read = tx.prepare("SELECT seq, keys FROM batches WHERE game = ?1 ORDER BY seq")?;
    let mut repaired = 0;
    for game in games {
        let rows: Vec<(i64, String)> = read
            .query_map([&game], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let keys: Vec<&str> = rows.iter().map(|(_, k)| k.as_str()).collect();
        let Some(fixed) = undoubled(&keys) else {
            continue;
        };
        tx.execute(
            "INSERT INTO batches_as_stored (game, seq, n, keys)
                 SELECT game, seq, n, keys FROM batches WHERE game = ?1",
            [&game],
        )?;
        for ((seq, was), now) in rows.iter().zip(&fixed) {
            if was != now {
                tx.execute(
                    "UPDATE batches SET keys = ?3 WHERE game = ?1 AND seq = ?2",
                    params![game, seq, now],
                )?;
            }
        }
        tx.execute(
            "UPDATE games SET log_repaired = ?2 WHERE id = ?1",
            params![game, now_unix()],
        )?;
        repaired += 1;
    }
    Ok(repaired)
}

/// `missing` (sorted) as ranges: `5-8, 19-20` or `7`.
fn ranges(missing: &[u64]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < missing.len() {
        let mut j = i;
        while j + 1 < missing.len() && missing[j + 1] == missing[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            missing[i].to_string()
        } else {
            format!("{}-{}", missing[i], missing[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

/// Marks `damaged` every game whose log does not hold exactly batches 1 to its counter,
/// saying in `notes` which and what they lost. A game whose log holds every batch up to
/// one past its counter has its counter put right.
///
/// # Errors
/// When SQLite fails.
pub fn check(conn: &mut Connection, notes: &mut Vec<String>) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    let suspects: Vec<(String, i64)> = tx
        .prepare(
            "SELECT g.id, g.batches FROM games g LEFT JOIN batches b ON b.game = g.id
             WHERE g.damage IS NULL
             GROUP BY g.id
             HAVING count(b.seq) != g.batches OR coalesce(max(b.seq), 0) != g.batches
                 OR coalesce(min(b.seq), 1) < 1",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (game, counted) in suspects {
        let seqs: Vec<i64> = tx
            .prepare("SELECT seq FROM batches WHERE game = ?1 AND seq >= 1 ORDER BY seq")?
            .query_map([&game], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let last = seqs.last().copied().unwrap_or(0).max(counted).max(0) as u64;
        let present: std::collections::BTreeSet<u64> = seqs.iter().map(|&s| s as u64).collect();
        let missing: Vec<u64> = (1..=last).filter(|s| !present.contains(s)).collect();
        if missing.is_empty() {
            tx.execute(
                "UPDATE games SET batches = ?2 WHERE id = ?1",
                params![game, last as i64],
            )?;
            continue;
        }
        let why = format!(
            "batch{} {} of {last} {} missing",
            if missing.len() == 1 { "" } else { "es" },
            ranges(&missing),
            if missing.len() == 1 { "is" } else { "are" },
        );
        tx.execute(
            "UPDATE games SET state = 'damaged', damage = ?2 WHERE id = ?1",
            params![game, why],
        )?;
        notes.push(format!(
            "game {game} is marked damaged, not to be resumed or scored: its key log's {why}"
        ));
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_doubled_log_loses_each_stored_prefix() {
        // The example of docs/web.md: two rebuilds.
        assert_eq!(
            undoubled(&["R42S", "DD", "R42SDDW", "R42SDDR42SDDWA"]).unwrap(),
            ["R42S", "DD", "W", "A"]
        );
        // A rebuild whose next batch consumed no key.
        assert_eq!(
            undoubled(&["R42S", "D", "R42SD", "S"]).unwrap(),
            ["R42S", "D", "", "S"]
        );
        // A log never doubled is left alone, even when a batch repeats an earlier one.
        assert_eq!(undoubled(&["R42S", "W", "W", "WW"]), None);
        assert_eq!(undoubled(&["", "W"]), None);
        assert_eq!(undoubled::<&str>(&[]), None);
    }

    #[test]
    fn missing_batches_read_as_ranges() {
        assert_eq!(ranges(&[5, 6, 7, 8, 19, 20]), "5-8, 19-20");
        assert_eq!(ranges(&[7]), "7");
        assert_eq!(ranges(&[1, 3]), "1, 3");
    }
}
