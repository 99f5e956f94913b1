//! The seed catalog (`docs/catalog.md`) through its library: the world is always the one made
//! without it (empty, remembered, stale, edited and damaged catalogs alike), the world hash
//! follows its definition, and seeds no try met are remembered and resumed. Through the binary
//! (a re-run makes one try a seed, concurrent processes, `byog catalog --where`): the root's
//! `tests/catalog.rs`.

use std::path::Path;

use byog_catalog::{self as catalog, Catalog, Tally};
use byog_worlds::generator::{self, GENERATOR_VERSION, Generated, GeneratorSettings};
use byog_worlds::metrics::Requirements;
use rand::Rng;

const W: usize = 80;
const H: usize = 30;

/// Requirements that make several tries for many seeds at 80 × 30 (about 1 seed in 4 retried).
fn demanding() -> GeneratorSettings {
    GeneratorSettings {
        requirements: Requirements {
            min_rooms: Some(15),
            min_exit_distance: Some(120),
            ..Requirements::default()
        },
        ..GeneratorSettings::default()
    }
}

/// Generates `seeds` through `catalog` and returns the worlds and what the catalog did.
fn through(
    catalog: &Catalog,
    seeds: std::ops::Range<u64>,
    settings: &GeneratorSettings,
) -> Vec<Result<Generated, generator::GenerateError>> {
    seeds
        .map(|s| generator::generate_for_seed_with(s, W, H, settings, &mut catalog.seed(s)))
        .collect()
}

/// Asserts two generations are the same: world, avatar, exit, rooms, try number and the
/// generator's state (its next draws).
fn assert_same(
    a: &Result<Generated, generator::GenerateError>,
    b: &Result<Generated, generator::GenerateError>,
) {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.level, b.level);
            assert_eq!(a.level.world.to_string(), b.level.world.to_string());
            assert_eq!(catalog::world_hash(&a.level), catalog::world_hash(&b.level));
            assert_eq!(a.tries, b.tries);
            let (mut ra, mut rb) = (a.rng.clone(), b.rng.clone());
            for _ in 0..4 {
                assert_eq!(ra.next_u64(), rb.next_u64());
            }
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("one generation failed and the other did not: {a:?} / {b:?}"),
    }
}

fn without(
    seeds: std::ops::Range<u64>,
    settings: &GeneratorSettings,
) -> Vec<Result<Generated, generator::GenerateError>> {
    seeds
        .map(|s| generator::generate_for_seed(s, W, H, settings))
        .collect()
}

fn sum_tries(v: &[Result<Generated, generator::GenerateError>]) -> u64 {
    v.iter().map(|g| u64::from(g.as_ref().unwrap().tries)).sum()
}

/// The hash of seeds 0..4 at 80 × 30, default settings. If this fails, the generator's worlds
/// changed: bump `GENERATOR_VERSION` in the same change, then update these hashes.
#[test]
fn golden_world_hashes_pin_the_generator_version() {
    let hashes: Vec<String> = (0..4)
        .map(|s| {
            let g = generator::generate_for_seed(s, W, H, &GeneratorSettings::default()).unwrap();
            catalog::hash_hex(catalog::world_hash(&g.level))
        })
        .collect();
    assert_eq!(GENERATOR_VERSION, 1);
    assert_eq!(
        hashes, GOLDEN,
        "worlds changed: bump GENERATOR_VERSION, then these hashes"
    );
}

const GOLDEN: [&str; 4] = [
    "4b7957c33b7a3c9c",
    "cc07e37c21cc2925",
    "4d4822336c5959c3",
    "4018770c57e51078",
];

#[test]
fn the_world_hash_follows_its_documented_definition() {
    // An independent FNV-1a 64 over the documented bytes.
    let g = generator::generate_for_seed(9, 21, 11, &GeneratorSettings::default()).unwrap();
    let l = &g.level;
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&21u32.to_le_bytes());
    bytes.extend_from_slice(&11u32.to_le_bytes());
    let text = l.world.to_string();
    // to_string is top row first; storage order is bottom row first.
    for row in text.lines().rev() {
        bytes.extend_from_slice(row.as_bytes());
    }
    for v in [l.avatar.x, l.avatar.y, l.exit.x, l.exit.y] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    assert_eq!(catalog::world_hash(l), h);
}

#[test]
fn an_empty_then_a_remembered_catalog_give_the_same_worlds_in_one_try_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let settings = demanding();
    let plain = without(0..40, &settings);
    let total = sum_tries(&plain);
    assert!(
        total > 45,
        "the requirements should retry some seeds: {total} tries"
    );

    let c = Catalog::open(&path, W, H, &settings).unwrap();
    let first = through(&c, 0..40, &settings);
    let r = c.finish();
    for (a, b) in plain.iter().zip(&first) {
        assert_same(a, b);
    }
    assert_eq!(
        (r.seeds, r.hits, r.stale, r.tries_made, r.tries_skipped),
        (40, 0, 0, total, 0)
    );
    assert_eq!(r.problem, None);
    drop(c);

    let c = Catalog::open(&path, W, H, &settings).unwrap();
    let again = through(&c, 0..40, &settings);
    let r = c.finish();
    for (a, b) in plain.iter().zip(&again) {
        assert_same(a, b);
    }
    assert_eq!(
        r,
        Tally {
            seeds: 40,
            hits: 40,
            resumed: 0,
            stale: 0,
            tries_made: 40,
            tries_skipped: total - 40,
            problem: None
        }
    );

    // Another parameter set (another requirement) shares nothing with the first.
    let other = GeneratorSettings {
        winding_percent: 60,
        ..settings
    };
    let c = Catalog::open(&path, W, H, &other).unwrap();
    let o = through(&c, 0..5, &other);
    assert_eq!(c.finish().hits, 0);
    for (a, b) in without(0..5, &other).iter().zip(&o) {
        assert_same(a, b);
    }
}

/// Opens the catalog file with SQLite itself.
fn sql(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}

#[test]
fn stale_and_edited_entries_are_ignored_and_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let settings = demanding();
    let plain = without(0..30, &settings);
    let c = Catalog::open(&path, W, H, &settings).unwrap();
    through(&c, 0..30, &settings);
    c.finish();
    drop(c);
    // Retried seeds (passed at try > 0), to edit.
    let retried: Vec<u64> = (1..30u64)
        .filter(|&s| plain[s as usize].as_ref().unwrap().tries > 1)
        .collect();
    assert!(retried.len() >= 4, "{retried:?}");
    let db = sql(&path);
    let before: Vec<(i64, String)> = db
        .prepare("SELECT seed, hash FROM seeds ORDER BY seed")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let edits = [
        format!(
            "UPDATE seeds SET hash = '0123456789abcdef' WHERE seed = {}",
            retried[0]
        ),
        format!(
            "UPDATE seeds SET passed_try = passed_try - 1 WHERE seed = {}",
            retried[1]
        ),
        format!(
            "UPDATE seeds SET passed_try = 100000 WHERE seed = {}",
            retried[2]
        ),
        format!(
            "UPDATE seeds SET passed_try = -3, hash = 'not hex' WHERE seed = {}",
            retried[3]
        ),
        "UPDATE seeds SET passed_try = 0 WHERE seed = 0 AND passed_try > 0".to_owned(),
    ];
    for e in &edits {
        db.execute_batch(e).unwrap();
    }
    drop(db);

    let c = Catalog::open(&path, W, H, &settings).unwrap();
    let again = through(&c, 0..30, &settings);
    let r = c.finish();
    drop(c);
    for (a, b) in plain.iter().zip(&again) {
        assert_same(a, b);
    }
    let edited = 4 + u64::from(plain[0].as_ref().unwrap().tries > 1);
    assert_eq!(r.stale, edited, "{r:?}");
    assert_eq!(r.hits, 30 - edited);
    // Rewritten: the same rows as before the edits, and a third run hits every seed.
    let after: Vec<(i64, String)> = sql(&path)
        .prepare("SELECT seed, hash FROM seeds ORDER BY seed")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(before, after);
    let c = Catalog::open(&path, W, H, &settings).unwrap();
    through(&c, 0..30, &settings);
    assert_eq!(c.finish().hits, 30);

    // A lower --max-tries than a remembered pass: the same error as without the catalog.
    let strict = GeneratorSettings {
        max_tries: 1,
        ..settings
    };
    let s = retried[0];
    let c = Catalog::open(&path, W, H, &strict).unwrap();
    let with = through(&c, s..s + 1, &strict);
    assert_same(&without(s..s + 1, &strict)[0], &with[0]);
    assert!(with[0].is_err());
}

#[test]
fn damaged_files_are_refused_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let settings = demanding();
    // Garbage bytes.
    let garbage = dir.path().join("garbage.db");
    std::fs::write(&garbage, vec![0x5au8; 5000]).unwrap();
    let e = Catalog::open(&garbage, W, H, &settings).unwrap_err();
    assert!(e.to_string().contains("garbage.db"), "{e}");
    assert!(e.to_string().contains("not a SQLite database"), "{e}");
    assert_eq!(
        std::fs::read(&garbage).unwrap(),
        vec![0x5au8; 5000],
        "left as it was"
    );
    // Truncated: the first 1000 bytes of a real catalog.
    let good = dir.path().join("good.db");
    let c = Catalog::open(&good, W, H, &settings).unwrap();
    through(&c, 0..30, &settings);
    c.finish();
    drop(c);
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.path().join("truncated.db");
    std::fs::write(&truncated, &bytes[..1000]).unwrap();
    assert!(Catalog::open(&truncated, W, H, &settings).is_err());
    // Another database.
    let other = dir.path().join("other.db");
    sql(&other)
        .execute_batch("CREATE TABLE seeds (x INTEGER); INSERT INTO seeds VALUES (1);")
        .unwrap();
    let e = Catalog::open(&other, W, H, &settings).unwrap_err();
    assert!(e.to_string().contains("not a byog seed catalog"), "{e}");
    // A missing folder, a folder.
    let e = Catalog::open(&dir.path().join("no/such/c.db"), W, H, &settings).unwrap_err();
    assert!(e.to_string().contains("does not exist"), "{e}");
    let e = Catalog::open(dir.path(), W, H, &settings).unwrap_err();
    assert!(e.to_string().contains("folder"), "{e}");
}

#[test]
fn seeds_no_try_met_are_remembered_and_resumed_with_the_same_error_or_world() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let hard = GeneratorSettings {
        requirements: Requirements {
            min_rooms: Some(20),
            min_exit_distance: Some(160),
            ..Requirements::default()
        },
        max_tries: 3,
        ..GeneratorSettings::default()
    };
    let plain = without(0..30, &hard);
    let failing: Vec<u64> = (0..30u64).filter(|&s| plain[s as usize].is_err()).collect();
    assert!(failing.len() >= 5, "{failing:?}");
    for round in 0..2 {
        let c = Catalog::open(&path, W, H, &hard).unwrap();
        let got = through(&c, 0..30, &hard);
        let r = c.finish();
        for (a, b) in plain.iter().zip(&got) {
            assert_same(a, b);
        }
        if round == 1 {
            // A failing seed costs one try (its last remembered failure made again), not 3.
            assert_eq!(
                (r.hits + r.resumed, r.resumed, r.stale),
                (30, failing.len() as u64, 0)
            );
            assert_eq!(r.tries_made, 30);
        }
    }
    // More tries: the failing seeds go on from try 3, to the world made without a catalog.
    let more = GeneratorSettings {
        max_tries: 100,
        ..hard
    };
    let plain = without(0..30, &more);
    let c = Catalog::open(&path, W, H, &more).unwrap();
    let got = through(&c, 0..30, &more);
    let r = c.finish();
    drop(c);
    for (a, b) in plain.iter().zip(&got) {
        assert_same(a, b);
    }
    assert_eq!(r.resumed, failing.len() as u64, "{r:?}");
    let expected_made: u64 = (0..30u64)
        .map(|s| match &plain[s as usize] {
            Ok(g) if failing.contains(&s) => u64::from(g.tries) - 3 + 1,
            Ok(_) => 1,
            Err(_) => 98,
        })
        .sum();
    assert_eq!(r.tries_made, expected_made);
    // The pass the 100-try run found lies beyond 3 tries: stale for a 3-try run, which fails
    // as it does without a catalog.
    let s = failing[0];
    let c = Catalog::open(&path, W, H, &hard).unwrap();
    assert_same(
        &without(s..s + 1, &hard)[0],
        &through(&c, s..s + 1, &hard)[0],
    );
    assert_eq!(c.finish().stale, 1);
    drop(c);
    // An edited failure (a middle try's misses, which making the last try again cannot
    // check) breaks the failures' check: stale, made again from try 0, the same error.
    let fresh = dir.path().join("fresh.db");
    let c = Catalog::open(&fresh, W, H, &hard).unwrap();
    through(&c, 0..30, &hard);
    c.finish();
    drop(c);
    for edit in [
        format!(
            "UPDATE failed_tries SET unmet = (SELECT unmet FROM failed_tries WHERE seed = {s} AND try = 2) WHERE seed = {s} AND try = 1"
        ),
        format!("UPDATE failed_tries SET unmet = '[]' WHERE seed = {s} AND try = 0"),
        format!("DELETE FROM failed_tries WHERE seed = {s} AND try = 0"),
    ] {
        let db = sql(&fresh);
        let changed = db.execute(&edit, []).unwrap();
        assert_eq!(changed, 1, "{edit}");
        drop(db);
        let c = Catalog::open(&fresh, W, H, &hard).unwrap();
        let got = through(&c, s..s + 1, &hard);
        assert_same(&without(s..s + 1, &hard)[0], &got[0]);
        let r = c.finish();
        assert_eq!(
            (r.stale, r.resumed, r.tries_made),
            (1, 0, 3),
            "{edit}: {r:?}"
        );
        drop(c);
        // Rewritten: the next run confirms it.
        let c = Catalog::open(&fresh, W, H, &hard).unwrap();
        through(&c, s..s + 1, &hard);
        let r = c.finish();
        assert_eq!(
            (r.stale, r.resumed, r.tries_made),
            (0, 1, 1),
            "{edit}: {r:?}"
        );
    }
}
