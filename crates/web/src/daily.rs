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

/// Unix seconds now.
pub fn now_unix() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Today, UTC.
pub fn today() -> String {
    day_of(now_unix())
}

/// Seconds after a day's end (midnight UTC) during which its daily attempts may still be
/// finished and scored: one hour. Then every unfinished attempt of the day is closed
/// unscored, and the day's seeds and keys are revealed.
pub const GRACE_SECONDS: i64 = 3600;

/// The Unix time of `day`'s first second (`YYYY-MM-DD`, UTC), or `None` when `day` is not a
/// calendar day (Howard Hinnant's `days_from_civil`, the inverse of [`day_of`]).
pub fn day_start(day: &str) -> Option<i64> {
    let mut parts = day.splitn(3, '-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (y, m, d): (i64, i64, i64) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let y = y - i64::from(m <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let start = days * 86_400;
    // A day past the month's end (2026-02-30) is refused: it prints back as another day.
    (day_of(start) == day).then_some(start)
}

/// When `day`'s daily attempts close (Unix seconds): the next midnight UTC plus
/// [`GRACE_SECONDS`]. `None` for a string that is not a day.
pub fn closes_at(day: &str) -> Option<i64> {
    day_start(day).map(|s| s + 86_400 + GRACE_SECONDS)
}

/// Whether `day`'s daily seeds and keys may be shown at Unix time `now`: once every attempt
/// of the day is closed ([`closes_at`]). A string that is not a day is never revealed.
pub fn revealed(day: &str, now: i64) -> bool {
    closes_at(day).is_some_and(|at| now >= at)
}

/// The days whose daily seeds are not revealed at Unix time `now`: today, and yesterday
/// during its grace hour.
pub fn unrevealed_days(now: i64) -> Vec<String> {
    let mut days = vec![day_of(now)];
    let yesterday = day_of(now - 86_400);
    if !revealed(&yesterday, now) {
        days.push(yesterday);
    }
    days
}

/// Whether `seed` is the daily seed of `mode` on a day not yet revealed at `now` (a seeded
/// game or score with it would give away, or take, a daily game still being played).
pub fn is_hidden_daily_seed(key: &str, mode: &str, seed: u64, now: i64) -> bool {
    unrevealed_days(now)
        .iter()
        .any(|day| self::seed(key, mode, day) == seed)
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
    fn a_day_starts_where_day_of_says_it_does() {
        for secs in [0, 86_399, 951_782_400, 1_798_675_200, -1, 1_764_288_000] {
            let day = day_of(secs);
            let start = day_start(&day).unwrap();
            assert!(start <= secs && secs < start + 86_400, "{day}");
            assert_eq!(day_of(start), day);
            assert_ne!(day_of(start - 1), day);
        }
        assert_eq!(day_start("2026-02-30"), None);
        assert_eq!(day_start("2026-13-01"), None);
        assert_eq!(day_start("26-01-01"), None);
        assert_eq!(day_start("nonsense"), None);
    }

    #[test]
    fn a_day_is_revealed_an_hour_after_its_end() {
        let start = day_start("2026-11-28").unwrap();
        assert!(!revealed("2026-11-28", start));
        assert!(!revealed("2026-11-28", start + 86_400 + GRACE_SECONDS - 1));
        assert!(revealed("2026-11-28", start + 86_400 + GRACE_SECONDS));
        assert!(!revealed("garbage", i64::MAX));
        // During the grace hour two days are hidden; after it, one.
        assert_eq!(unrevealed_days(start + 86_400 + 10).len(), 2);
        assert_eq!(
            unrevealed_days(start + 86_400 + GRACE_SECONDS),
            vec!["2026-11-29"]
        );
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
