//! Bad input and faults through the binary (issue 6, `docs/robustness.md`): a file in place of
//! the save folder, bad and non-UTF-8 arguments, and any string replayed by `byog` as by the
//! library. The library's side is the game's `robustness.rs` (`crates/game/tests/game/`).

use std::ffi::OsStr;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use byog_game::game::MAX_SEED;
use byog_game::interpreter::{Interpreter, Refused};
use byog_game::replay::{self, ReplayError, ReplayRun};
use byog_game::save::{FileStore, MemoryStore, SAVE_FILE_NAME, SaveError, SaveStore};
use byog_worlds::generator::GeneratorSettings;
use proptest::prelude::*;

use crate::common::any_key;

fn run_sized(
    input: &str,
    width: usize,
    height: usize,
    store: &mut MemoryStore,
    strict: bool,
) -> (Result<ReplayRun, ReplayError>, Interpreter, Vec<Refused>) {
    let mut interpreter = Interpreter::new(width, height, GeneratorSettings::default());
    let mut reports = Vec::new();
    let result = replay::replay(&mut interpreter, input, store, strict, &mut |r| {
        reports.push(*r)
    });
    (result, interpreter, reports)
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn assert_names(err: &impl std::fmt::Display, path: &Path) {
    let message = err.to_string();
    assert!(
        message.contains(&path.display().to_string()),
        "{message:?} does not name {}",
        path.display()
    );
}

/// A regular file where the save folder should be: loading is an error naming the path (not
/// "no save"), and through the binary both `L` and `:Q` exit 2 and leave the file alone.
/// (crates/game/tests/game/saves.rs covers the library's save in this case.)
#[test]
fn a_file_in_place_of_the_save_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let blocker = tmp.path().join("saves");
    fs::write(&blocker, b"not a folder").unwrap();
    let store = FileStore::in_dir(&blocker);
    let err = store.load().expect_err("a file is not a save folder");
    assert!(matches!(err, SaveError::FolderIsAFile { .. }), "{err:?}");
    assert_names(&err, &blocker);

    for input in ["L", "N12SDD:Q", "LDD:Q"] {
        let out = byog(&[
            OsStr::new("--save-dir"),
            blocker.as_os_str(),
            OsStr::new(input),
        ]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{input}: {stderr}");
        assert!(
            stderr.contains(&blocker.display().to_string()),
            "{input}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(out.stdout.is_empty(), "{input}");
    }
    assert_eq!(fs::read(&blocker).unwrap(), b"not a folder");
    assert_eq!(entries(tmp.path()), ["saves"]);
}

// ---------------------------------------------------------------------------------------------
// 5. Arguments (what tests/cli.rs does not cover yet)
// ---------------------------------------------------------------------------------------------

fn byog<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(args)
        .env_remove("BYOG_SAVE_DIR")
        .output()
        .expect("the byog binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn assert_exit_2(args: &[&OsStr], needle: &str) {
    let out = byog(args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.contains(needle),
        "{args:?}: {stderr:?} lacks {needle:?}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
}

#[test]
fn bad_sizes_ranges_and_flags_exit_2_with_a_message() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["N1S", "--width", "0"], "5..=16384"),
        (&["N1S", "--height", "4"], "5..=16384"),
        (&["N1S", "--width", "99999999999999999999999"], "--width"),
        (&["N1S", "--height", "８０"], "--height"),
        (&["N1S", "--width="], "--width"),
        (&["gen", "--seed", "1", "--width", "16385"], "5..=16384"),
        (&["gen", "--seeds", "9223372036854775807..0"], "reversed"),
        (&["gen", "--seeds", "10..=9"], "reversed"),
        (&["gen", "--seeds", "0..99999999999999999999"], "not a seed"),
        (
            &["gen", "--seeds", "0..=9223372036854775808"],
            "largest Java long",
        ),
        (
            &[
                "gen",
                "--seeds",
                "18446744073709551615..=18446744073709551615",
            ],
            "largest Java long",
        ),
        (&["gen", "--seeds", "..5"], "not a seed"),
        (&["gen", "--seeds", "5.."], "not a seed"),
        (&["gen", "--seeds", "-5..2"], "-5"),
        (&["gen", "--seeds", "0..10000001"], "split the range"),
        (
            &["gen", "--seed", "1", "--seeds", "1..2"],
            "cannot be used with",
        ),
        (&["gen", "--seed", "1", "--format", "xml"], "xml"),
        (&["gen", "--seed", "1", "--frobnicate"], "--frobnicate"),
        (&["replay", "--frobnicate", "N1S"], "--frobnicate"),
        (&["play", "--frobnicate"], "--frobnicate"),
        (&["-z"], "-z"),
        (&["replay"], "INPUT"),
        (&["replay", "N1S", "N2S"], "N2S"),
    ];
    for (args, needle) in cases {
        let mut all: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        all.extend([OsStr::new("--save-dir"), OsStr::new(dir)]);
        assert_exit_2(&all, needle);
    }
    // The largest seed alone is a valid range.
    let out = byog(&[
        "gen",
        "--seeds",
        "9223372036854775807..=9223372036854775807",
        "--format",
        "none",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[cfg(unix)]
#[test]
fn non_utf8_arguments_exit_2_but_a_non_utf8_save_dir_works() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let bad = OsStr::from_bytes(b"N1\xffS");
    let cases: &[&[&OsStr]] = &[
        &[OsStr::new("replay"), bad],
        &[
            OsStr::new("gen"),
            OsStr::new("--seeds"),
            OsStr::from_bytes(b"1..\xff"),
        ],
        &[
            OsStr::new("gen"),
            OsStr::new("--seed"),
            OsStr::new("1"),
            OsStr::new("--width"),
            OsStr::from_bytes(b"8\xff"),
        ],
    ];
    for args in cases {
        let mut all = args.to_vec();
        all.extend([OsStr::new("--save-dir"), tmp.path().as_os_str()]);
        assert_exit_2(&all, "UTF-8");
    }
    assert_exit_2(&[OsStr::from_bytes(b"--\xff")], "unexpected argument");

    // A folder name need not be UTF-8: saving and loading there work.
    let dir = tmp.path().join(OsStr::from_bytes(b"saves-\xff\xfe"));
    let saved = byog(&[
        OsStr::new("--save-dir"),
        dir.as_os_str(),
        OsStr::new("N3SDD:Q"),
    ]);
    assert_eq!(saved.status.code(), Some(0), "{}", text(&saved.stderr));
    assert!(dir.join(SAVE_FILE_NAME).is_file());
    let loaded = byog(&[OsStr::new("--save-dir"), dir.as_os_str(), OsStr::new("L")]);
    assert_eq!(loaded.status.code(), Some(0), "{}", text(&loaded.stderr));
    assert_eq!(loaded.stdout, saved.stdout);
}

/// docs/cli.md calls `--save-dir`, `--width` and `--height` common flags: they may come before the
/// subcommand as well as after it.
#[test]
fn common_flags_may_come_before_the_subcommand() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    for args in [
        &["--save-dir", dir, "replay", "N1SDD:Q"][..],
        &["--width", "40", "--save-dir", dir, "gen", "--seed", "1"][..],
    ] {
        let out = byog(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// `byog replay` on arbitrary strings (any characters an argument can hold: no NUL) at
    /// small sizes: exit 0, the world on stdout when one was started, warnings naming
    /// positions, never a panic.
    #[test]
    fn the_binary_replays_any_string(
        start in proptest::option::of(0..=MAX_SEED),
        keys in prop::collection::vec(any_key().prop_filter("no NUL in arguments", |&c| c != '\0'), 0..60),
        width in 5usize..=40,
        height in 5usize..=20,
    ) {
        let tmp = tempfile::tempdir().unwrap();
        let mut input = start.map(|s| format!("N{s}S")).unwrap_or_default();
        input.extend(keys.iter());
        let (w, h) = (width.to_string(), height.to_string());
        let out = byog(&[
            "replay", "--width", w.as_str(), "--height", h.as_str(),
            "--save-dir", tmp.path().to_str().unwrap(), "--", input.as_str(),
        ]);
        let stderr = text(&out.stderr);
        prop_assert_eq!(out.status.code(), Some(0), "{:?}: {}", input, stderr);
        prop_assert!(!stderr.contains("panicked"));
        let (_, interpreter, reports) = run_sized(&input, width, height, &mut MemoryStore::default(), false);
        let expected = interpreter.game().map(|g| g.world().to_string()).unwrap_or_default();
        prop_assert_eq!(text(&out.stdout), expected);
        if let Some(first) = reports.first() {
            let named = format!("at position {}", first.position);
            prop_assert!(stderr.contains(&named), "{}", stderr);
        }
    }
}
