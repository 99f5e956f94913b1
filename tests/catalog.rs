//! The seed catalog (`docs/catalog.md`) through the binary: a re-run makes one try a seed,
//! concurrent processes leave a valid catalog, `byog catalog --where` finds exactly the seeds
//! an independent filter of `byog stats --json` finds, bad filters and files exit 2. The
//! library's tests are the catalog's (`crates/catalog/tests/catalog/catalog.rs`).

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{stderr, stdout};

/// The same flags on the command line.
const DEMANDING: [&str; 4] = ["--min-rooms", "15", "--min-exit-distance", "120"];

/// Opens the catalog file with SQLite itself.
fn sql(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
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
