//! The command line as a user runs it (SPEC 5): output, saves, exit codes, messages.

mod common;

use std::process::Command;

use common::{byog_in as byog, stderr, stdout};

#[test]
fn replay_prints_the_world_saves_on_colon_q_and_load_continues() {
    let dir = tempfile::tempdir().unwrap();
    let out = byog(dir.path(), &["replay", "N1234SWWDD:Q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    assert_eq!(lines.len(), 30);
    assert!(lines.iter().all(|l| l.chars().count() == 80));
    assert_eq!(text.matches('@').count(), 1);
    assert_eq!(text.matches('█').count(), 1);
    assert!(dir.path().join("save.bin").is_file());

    // `byog INPUT` is `byog replay INPUT`; LSS continues from the save.
    let loaded = byog(dir.path(), &["LSS"]);
    assert_eq!(loaded.status.code(), Some(0), "{}", stderr(&loaded));
    let fresh = tempfile::tempdir().unwrap();
    let expected = byog(fresh.path(), &["N1234SWWDDSS"]);
    assert_eq!(stdout(&loaded), stdout(&expected));
    // No :Q this time: the save still holds the game after WWDD.
    let again = byog(dir.path(), &["L"]);
    assert_eq!(stdout(&again), text);
}

#[test]
fn save_dir_comes_from_the_environment_too() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("a/b");
    let out = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(["N5SD:Q"])
        .env("BYOG_SAVE_DIR", &nested)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(nested.join("save.bin").is_file());
}

#[test]
fn ignored_keys_are_warned_about_with_positions() {
    let dir = tempfile::tempdir().unwrap();
    let out = byog(dir.path(), &["N12SWXD"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("key 'X' at position 5 ignored"),
        "{}",
        stderr(&out)
    );
    let strict = byog(dir.path(), &["replay", "--strict", "N12SWXD:Q"]);
    assert_eq!(strict.status.code(), Some(2));
    assert!(stderr(&strict).contains("position 5"));
    assert!(stdout(&strict).is_empty());
    assert!(
        !dir.path().join("save.bin").exists(),
        "--strict saved nothing"
    );
}

#[test]
fn load_without_a_save_ends_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let out = byog(dir.path(), &["L"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).is_empty());
    assert!(stderr(&out).contains("no saved game"), "{}", stderr(&out));
}

#[test]
fn gen_prints_what_the_input_string_would_start() {
    let dir = tempfile::tempdir().unwrap();
    let generated = byog(dir.path(), &["gen", "--seed", "42"]);
    let replayed = byog(dir.path(), &["N42S"]);
    assert_eq!(generated.status.code(), Some(0));
    assert_eq!(stdout(&generated), stdout(&replayed));

    let range = byog(dir.path(), &["gen", "--seeds", "1..3"]);
    let text = stdout(&range);
    assert_eq!(text.matches("# seed ").count(), 2);
    assert!(text.starts_with("# seed 1\n"));
    let inclusive = byog(dir.path(), &["gen", "--seeds", "1..=3", "--format", "none"]);
    assert_eq!(inclusive.status.code(), Some(0));
    assert!(stdout(&inclusive).is_empty());

    let json = byog(dir.path(), &["gen", "--seeds", "7..=8", "--format", "json"]);
    let objects: Vec<serde_json::Value> = stdout(&json)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["seed"], 7);
    assert_eq!(objects[1]["width"], 80);
    let rows: Vec<String> = objects[0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("{}\n", r.as_str().unwrap()))
        .collect();
    assert_eq!(rows.concat(), stdout(&byog(dir.path(), &["N7S"])));

    let small = byog(
        dir.path(),
        &["gen", "--seed", "3", "--width", "21", "--height", "11"],
    );
    assert_eq!(stdout(&small).lines().count(), 11);
    assert!(stdout(&small).lines().all(|l| l.chars().count() == 21));
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["N1S", "--width", "3"], "5..=16384"),
        (&["N1S", "--height", "16385"], "5..=16384"),
        (&["N1S", "--width", "-4"], "-4"),
        (&["N1S", "--width", "wide"], "--width"),
        (
            &["gen", "--seed", "9223372036854775808"],
            "largest Java long",
        ),
        (&["gen", "--seed", "x"], "not a seed"),
        (&["gen", "--seeds", "5..2"], "reversed"),
        (&["gen", "--seeds", "5..5"], "empty"),
        (&["gen", "--seeds", "1-5"], "A..B"),
        (
            &["gen", "--seeds", "0..=9223372036854775807"],
            "split the range",
        ),
        (&["gen"], "--seed"),
        (&["--frobnicate"], "--frobnicate"),
    ];
    for (args, needle) in cases {
        let out = byog(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_non_utf8_argument_exits_2() {
    use std::os::unix::ffi::OsStrExt;
    let arg = std::ffi::OsStr::from_bytes(b"N1\xffS");
    let out = Command::new(env!("CARGO_BIN_EXE_byog"))
        .arg(arg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("UTF-8"), "{}", stderr(&out));
}

#[test]
fn help_and_version_exit_0() {
    let dir = tempfile::tempdir().unwrap();
    let help = byog(dir.path(), &["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("replay"));
    let version = byog(dir.path(), &["--version"]);
    assert_eq!(version.status.code(), Some(0));
}

#[test]
fn play_without_a_display_is_a_clear_error_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    for display in [None, Some(":9999")] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_byog"));
        cmd.args(["play", "--save-dir"])
            .arg(dir.path())
            .env_remove("WAYLAND_DISPLAY");
        match display {
            Some(d) => cmd.env("DISPLAY", d),
            None => cmd.env_remove("DISPLAY"),
        };
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{display:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("cannot open the window"),
            "{}",
            stderr(&out)
        );
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
}
