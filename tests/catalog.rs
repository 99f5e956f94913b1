//! The seed catalog (`docs/catalog.md`): the world is always the one made without it (empty,
//! remembered, stale, edited and damaged catalogs alike), a re-run makes one try a seed,
//! concurrent processes leave a valid catalog, and `byog catalog --where` finds exactly the
//! seeds an independent filter of `byog stats --json` finds.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

use byog_catalog::{self as catalog, Catalog, Tally};
use byog_worlds::generator::{self, GENERATOR_VERSION, Generated, GeneratorSettings};
use byog_worlds::metrics::Requirements;
use common::{stderr, stdout};
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

/// The same flags on the command line.
const DEMANDING: [&str; 4] = ["--min-rooms", "15", "--min-exit-distance", "120"];

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

/// `byog ARGS` in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(args)
        .current_dir(dir)
        .env_remove("BYOG_SAVE_DIR")
        .output()
        .unwrap()
}

/// The counts of a catalog's report line on stderr: (seeds, tries made, passes confirmed,
/// skipped, stale), after checking the count of seeds whose failures were confirmed.
fn report_of(err: &str) -> (u64, u64, u64, u64, u64) {
    let (seeds, made, confirmed, resumed, skipped, stale) = report6(err);
    assert_eq!(resumed, 0, "{err}");
    (seeds, made, confirmed, skipped, stale)
}

/// Every count of a catalog's report line: (seeds, tries made, passes confirmed, seeds whose
/// failures were confirmed, skipped, stale).
fn report6(err: &str) -> (u64, u64, u64, u64, u64, u64) {
    let line = err
        .lines()
        .find(|l| l.starts_with("byog: catalog "))
        .unwrap_or_else(|| panic!("no catalog report in {err}"));
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    let n = numbers.len();
    (
        numbers[n - 6],
        numbers[n - 5],
        numbers[n - 4],
        numbers[n - 3],
        numbers[n - 2],
        numbers[n - 1],
    )
}

#[test]
fn gen_and_stats_print_the_same_with_any_catalog() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("garbage.db"),
        b"this is not a database, just text\n".repeat(100),
    )
    .unwrap();
    for args in [
        vec!["gen", "--seeds", "0..12", "--format", "json"],
        vec!["gen", "--seed", "7"],
        vec!["stats", "--seeds", "0..12", "--json"],
        vec!["stats", "--seed", "5"],
    ] {
        let mut args: Vec<&str> = args;
        args.extend(DEMANDING);
        let plain = run_in(d, &args);
        assert!(plain.status.success(), "{}", stderr(&plain));
        for file in ["c.db", "c.db", "garbage.db", "missing/c.db"] {
            let mut with = args.clone();
            with.extend(["--catalog", file]);
            let out = run_in(d, &with);
            assert!(out.status.success(), "{with:?}: {}", stderr(&out));
            assert_eq!(stdout(&out), stdout(&plain), "{with:?}");
            let err = stderr(&out);
            if file == "c.db" {
                assert!(err.contains("byog: catalog c.db: "), "{err}");
            } else {
                assert_eq!(err.matches("warning").count(), 1, "{err}");
                assert!(err.contains(file), "{err}");
                assert!(err.contains("going on without it"), "{err}");
            }
        }
    }
    // The garbage is left as it was.
    assert!(
        std::fs::read(d.join("garbage.db"))
            .unwrap()
            .starts_with(b"this is not")
    );
}

#[test]
fn a_batch_rerun_makes_one_try_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut args = vec!["stats", "--seeds", "0..40", "--json", "--catalog", "c.db"];
    args.extend(DEMANDING);
    let first = run_in(d, &args);
    assert!(first.status.success(), "{}", stderr(&first));
    let (seeds, made, confirmed, skipped, stale) = report_of(&stderr(&first));
    assert_eq!((seeds, confirmed, skipped, stale), (40, 0, 0, 0));
    assert!(made > 45, "some seeds are retried: {made}");
    let second = run_in(d, &args);
    assert_eq!(stdout(&second), stdout(&first));
    assert_eq!(report_of(&stderr(&second)), (40, 40, 40, made - 40, 0));
    // The tries stats reports are the worlds' try numbers, the same with or without.
    let v: serde_json::Value = serde_json::from_str(&stdout(&second)).unwrap();
    assert!(v["metrics"]["tries"]["max"].as_f64() > Some(1.0), "{v}");
}

#[test]
fn concurrent_processes_leave_a_valid_catalog_with_every_seed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ranges = ["0..40", "20..60", "40..80", "0..80"];
    let children: Vec<_> = ranges
        .iter()
        .map(|r| {
            let mut args = vec!["stats", "--seeds", r, "--json", "--catalog", "c.db"];
            args.extend(DEMANDING);
            Command::new(env!("CARGO_BIN_EXE_byog"))
                .args(&args)
                .current_dir(d)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(out.status.success(), "{err}");
        assert!(!err.contains("warning"), "{err}");
    }
    let db = sql(&d.join("c.db"));
    let ok: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    let (n, lo, hi): (i64, i64, i64) = db
        .query_row(
            "SELECT count(*), min(seed), max(seed) FROM seeds",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((n, lo, hi), (80, 0, 79));
    let sets: i64 = db
        .query_row("SELECT count(*) FROM params", [], |r| r.get(0))
        .unwrap();
    assert_eq!(sets, 1);
    drop(db);
    let mut args = vec!["stats", "--seeds", "0..80", "--json", "--catalog", "c.db"];
    args.extend(DEMANDING);
    let out = run_in(d, &args);
    let (seeds, made, confirmed, _, stale) = report_of(&stderr(&out));
    assert_eq!((seeds, made, confirmed, stale), (80, 80, 80, 0));
}

/// An oracle's test of one world's `stats --seed N --json` object.
type Keep = Box<dyn Fn(&serde_json::Value) -> bool>;

/// The seeds of `0..n` whose `stats --seed N --json` passes `keep` (the independent oracle).
fn oracle(d: &Path, n: u64, keep: impl Fn(&serde_json::Value) -> bool) -> Vec<u64> {
    (0..n)
        .filter(|s| {
            let seed = s.to_string();
            let mut args = vec!["stats", "--seed", seed.as_str(), "--json"];
            args.extend(DEMANDING);
            let out = run_in(d, &args);
            let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
            keep(&v)
        })
        .collect()
}

fn queried(d: &Path, filter: &str) -> Vec<u64> {
    let out = run_in(d, &["catalog", "c.db", "--where", filter, "--json"]);
    assert!(out.status.success(), "{filter}: {}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["seed"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

#[test]
fn catalog_where_finds_what_an_independent_filter_of_stats_finds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let n = 24u64;
    let range = format!("0..{n}");
    let mut args = vec!["stats", "--seeds", range.as_str(), "--catalog", "c.db"];
    args.extend(DEMANDING);
    assert!(run_in(d, &args).status.success());
    let num = |v: &serde_json::Value, k: &str| v[k].as_f64();
    let cases: Vec<(&str, Keep)> = vec![
        (
            "room_count >= 18 and exit_distance > 150",
            Box::new(move |v| {
                num(v, "room_count") >= Some(18.0) && num(v, "exit_distance") > Some(150.0)
            }),
        ),
        (
            "loops <= 8 or tries > 1",
            Box::new(move |v| num(v, "loops") <= Some(8.0) || num(v, "tries") > Some(1.0)),
        ),
        (
            "(openness_percent < 42.5 or critical_path_rooms >= 5) AND seed != 3",
            Box::new(move |v| {
                (num(v, "openness_percent") < Some(42.5)
                    || num(v, "critical_path_rooms") >= Some(5.0))
                    && v["seed"].as_u64() != Some(3)
            }),
        ),
        (
            "room_count = 17",
            Box::new(move |v| num(v, "room_count") == Some(17.0)),
        ),
    ];
    let mut hit_some = false;
    for (filter, keep) in &cases {
        let expected = oracle(d, n, keep);
        hit_some |= !expected.is_empty() && expected.len() < n as usize;
        assert_eq!(queried(d, filter), expected, "{filter}");
    }
    assert!(hit_some, "the filters should split the seeds");
    // Text table: one row a seed and a count.
    let out = run_in(d, &["catalog", "c.db", "--where", "tries > 1"]);
    let text = stdout(&out);
    let expected = oracle(d, n, |v| v["tries"].as_u64() > Some(1));
    assert!(
        text.ends_with(&format!(
            "{} seed{}\n",
            expected.len(),
            if expected.len() == 1 { "" } else { "s" }
        )),
        "{text}"
    );
}

#[test]
fn bad_filters_and_files_exit_2_naming_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut args = vec!["stats", "--seeds", "0..3", "--catalog", "c.db"];
    args.extend(DEMANDING);
    assert!(run_in(d, &args).status.success());
    for (filter, token) in [
        ("critcal_path >= 8", "'critcal_path'"),
        ("room_count >= 8 and", "missing at the end"),
        ("room_count >= 8; DROP TABLE seeds", "';'"),
        ("room_count >= lots", "'lots'"),
        ("room_count => 8", "'=>'"),
        ("room_count >= 8 loops", "'loops'"),
    ] {
        let out = run_in(d, &["catalog", "c.db", "--where", filter]);
        assert_eq!(out.status.code(), Some(2), "{filter}");
        let err = stderr(&out);
        assert!(
            err.contains("--where") && err.contains(token),
            "{filter}: {err}"
        );
    }
    // The catalog survived the attempts.
    assert_eq!(queried(d, "seed >= 0"), vec![0, 1, 2]);
    std::fs::write(d.join("junk.db"), [1u8, 2, 3, 4, 5, 6, 7, 8].repeat(600)).unwrap();
    for file in ["junk.db", "none.db"] {
        let out = run_in(d, &["catalog", file]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert!(stderr(&out).contains(file), "{}", stderr(&out));
    }
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

/// Issue 31 (11): a SQLite file that is not a catalog was switched to WAL by `--catalog`,
/// its content untouched but its journal mode not. The schema is checked first now.
#[test]
fn a_sqlite_file_that_is_not_a_catalog_keeps_its_journal_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');")
            .unwrap();
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "delete");
    }
    let before = std::fs::read(&path).unwrap();
    for command in ["gen", "stats"] {
        let out = run_in(
            dir.path(),
            &[
                command,
                "--seed",
                "1",
                "--min-rooms",
                "3",
                "--catalog",
                "notes.db",
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("not a byog seed catalog"),
            "{}",
            stderr(&out)
        );
    }
    assert_eq!(std::fs::read(&path).unwrap(), before, "the file changed");
    let mode: String = sql(&path)
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete", "its journal mode was changed");
    assert!(!dir.path().join("notes.db-wal").exists());
}

/// Issue 31 (12): `byog catalog FILE` refused a catalog the user cannot write (its WAL's
/// shared-memory file cannot be made beside it); it reads it for queries. Played as another
/// user when run as root (`setpriv`), else with the folder made read-only.
#[cfg(unix)]
#[test]
fn byog_catalog_reads_a_catalog_the_user_cannot_write() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(
        dir.path(),
        &[
            "gen",
            "--seeds",
            "0..4",
            "--min-rooms",
            "3",
            "--format",
            "none",
            "--catalog",
            "seeds.db",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let as_owner = run_in(dir.path(), &["catalog", "seeds.db", "--json"]);
    assert!(as_owner.status.success(), "{}", stderr(&as_owner));
    assert_eq!(stdout(&as_owner).lines().count(), 4);
    // Everything written back into the file, so only seeds.db is left beside it.
    let _ = std::fs::remove_file(dir.path().join("seeds.db-wal"));
    let _ = std::fs::remove_file(dir.path().join("seeds.db-shm"));
    let set = |mode| std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(mode));
    // SAFETY: geteuid has no preconditions and cannot fail.
    #[allow(
        unsafe_code,
        reason = "libc's geteuid: root reads any folder, std cannot ask"
    )]
    let root = unsafe { libc::geteuid() } == 0;
    let out = if root {
        set(0o755).unwrap();
        std::fs::set_permissions(
            dir.path().join("seeds.db"),
            std::fs::Permissions::from_mode(0o644),
        )
        .unwrap();
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(env!("CARGO_BIN_EXE_byog"))
            .args(["catalog", "seeds.db", "--json"])
            .current_dir(dir.path())
            .output()
    } else {
        set(0o555).unwrap();
        Command::new(env!("CARGO_BIN_EXE_byog"))
            .args(["catalog", "seeds.db", "--json"])
            .current_dir(dir.path())
            .output()
    };
    set(0o755).unwrap();
    let Ok(out) = out else {
        eprintln!("skipped: setpriv is missing");
        return;
    };
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), stdout(&as_owner));
}
