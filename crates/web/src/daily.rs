//! The daily seed (`docs/web.md`, "Boards"): a keyed hash of the day and the mode, so no one
//! can compute tomorrow's seed, and everyone plays the same one today. The key is made at
//! random the first time the server starts and kept in its database; the day is UTC.

use blake2::Blake2bMac;
use blake2::digest::consts::U32;
use blake2::digest::{KeyInit, Mac};

use byog_game::game::MAX_SEED;

/// The UTC day of Unix time `secs`, as `YYYY-MM-DD` (proleptic Gregorian; Howard Hinnant's
/// `civil_from_days`, <https://howardhinnant.github.io/date_algorithms.html>).
pub fn day_of(secs: i64) -> String {
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Today, UTC.
pub fn today() -> String {
    day_of(crate::store::now_unix())
}

/// The seed of `mode`'s daily game on `day` under `key`: BLAKE2b-MAC-256 of
/// `daily/MODE/DAY`, its first 8 bytes little-endian, within the seeds a game accepts
/// (0..=9223372036854775807).
pub fn seed(key: &str, mode: &str, day: &str) -> u64 {
    let mut mac =
        <Blake2bMac<U32> as KeyInit>::new_from_slice(&key.as_bytes()[..key.len().min(64)])
            .expect("a BLAKE2b key of at most 64 bytes");
    mac.update(format!("daily/{mode}/{day}").as_bytes());
    let out = mac.finalize().into_bytes();
    let mut eight = [0u8; 8];
    eight.copy_from_slice(&out[..8]);
    u64::from_le_bytes(eight) % (MAX_SEED + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_utc_calendar_days() {
        assert_eq!(day_of(0), "1970-01-01");
        assert_eq!(day_of(86_399), "1970-01-01");
        assert_eq!(day_of(86_400), "1970-01-02");
        // 2000-02-29 (a leap day of a century year) and 2026-12-31.
        assert_eq!(day_of(951_782_400), "2000-02-29");
        assert_eq!(day_of(1_798_675_200), "2026-12-31");
        assert_eq!(day_of(-1), "1969-12-31");
    }

    #[test]
    fn the_daily_seed_depends_on_key_mode_and_day() {
        let s = seed("k", "run", "2026-01-01");
        assert_eq!(s, seed("k", "run", "2026-01-01"));
        assert_ne!(s, seed("k", "run", "2026-01-02"));
        assert_ne!(s, seed("k", "explore", "2026-01-01"));
        assert_ne!(s, seed("other", "run", "2026-01-01"));
        assert!(s <= MAX_SEED);
    }
}
