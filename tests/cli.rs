//! The command line as a user runs it (docs/cli.md): output, saves, exit codes, messages.

use crate::common;

use std::process::Command;

use common::{byog_in as byog, json_rows, stderr, stdout};

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
    let out = byog(dir.path(), &["N12SWZD"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("key 'Z' at position 5 ignored"),
        "{}",
        stderr(&out)
    );
    let strict = byog(dir.path(), &["replay", "--strict", "N12SWZD:Q"]);
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
        // A build without the window (`--no-default-features`) says so instead.
        let why = if cfg!(feature = "window") {
            "cannot open the window"
        } else {
            "built without the window"
        };
        assert!(stderr(&out).contains(why), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("byog play --terminal"),
            "{}",
            stderr(&out)
        );
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
}

/// Asserts `out` is a usage error: exit 2, nothing on stdout, and every needle on stderr.
#[track_caller]
fn assert_usage_error(out: &std::process::Output, what: &str, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert!(stdout(out).is_empty(), "{what}: stdout {:?}", stdout(out));
    for needle in needles {
        assert!(err.contains(needle), "{what}: no {needle:?} in {err}");
    }
    assert!(!err.contains("panicked"), "{what}: {err}");
}

/// Parses one JSON object from the whole of stdout.
#[track_caller]
fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    serde_json::from_str(stdout(out).trim_end()).expect("one JSON object")
}

#[test]
fn threads_out_of_range_exit_2_naming_the_range() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["stats", "--seeds", "0..3", "--threads", "100000"][..],
        &["gen", "--seeds", "0..3", "--threads", "99999999999"],
        &["gen", "--seeds", "0..3", "--threads", "257"],
        &["stats", "--seed", "1", "--threads", "-1"],
    ] {
        assert_usage_error(
            &byog(dir.path(), args),
            &format!("{args:?}"),
            &["--threads", "0 (one per core) to 256"],
        );
    }
    // The top of the range is accepted; one seed builds no pool at all.
    let top = byog(dir.path(), &["gen", "--seed", "1", "--threads", "256"]);
    assert_eq!(top.status.code(), Some(0), "{}", stderr(&top));
    assert_eq!(
        stdout(&top),
        stdout(&byog(dir.path(), &["gen", "--seed", "1"]))
    );
    let top = byog(dir.path(), &["stats", "--seed", "1", "--threads", "256"]);
    assert_eq!(top.status.code(), Some(0), "{}", stderr(&top));
}

#[test]
fn stats_output_is_the_same_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let all_cores = byog(dir.path(), &["stats", "--seeds", "0..6", "--threads", "0"]);
    let two = byog(dir.path(), &["stats", "--seeds", "0..6", "--threads", "2"]);
    assert_eq!(all_cores.status.code(), Some(0), "{}", stderr(&all_cores));
    assert_eq!(two.status.code(), Some(0), "{}", stderr(&two));
    assert!(stdout(&two).contains("6 worlds,"), "{}", stdout(&two));
    assert_eq!(stdout(&all_cores), stdout(&two));
}

#[test]
fn gen_json_lists_the_rooms_inside_the_world() {
    let dir = tempfile::tempdir().unwrap();
    let out = byog(dir.path(), &["gen", "--seeds", "1..=3", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let objects: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 3);
    for o in &objects {
        let (w, h) = (o["width"].as_i64().unwrap(), o["height"].as_i64().unwrap());
        let rows: Vec<Vec<char>> = o["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().chars().collect())
            .collect();
        let rooms = o["rooms"].as_array().expect("a rooms array");
        assert!(!rooms.is_empty(), "seed {}: no rooms", o["seed"]);
        for room in rooms {
            let mut keys: Vec<&str> = room
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            keys.sort_unstable();
            assert_eq!(keys, ["height", "width", "x", "y"], "{room}");
            let n = |k: &str| room[k].as_i64().unwrap();
            let (x, y, rw, rh) = (n("x"), n("y"), n("width"), n("height"));
            assert!(rw > 0 && rh > 0, "{room}");
            assert!(x >= 0 && y >= 0 && x + rw <= w && y + rh <= h, "{room}");
            // y is up, as everywhere: every tile of a room is open ground.
            for ty in y..y + rh {
                for tx in x..x + rw {
                    let c = rows[(h - 1 - ty) as usize][tx as usize];
                    assert!(c == '·' || c == '@', "{room}: ({tx}, {ty}) is {c:?}");
                }
            }
        }
    }
    let help = byog(dir.path(), &["gen", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    let text = stdout(&help);
    let json_line = text
        .lines()
        .find(|l| l.contains("json (one object a line"))
        .unwrap_or_else(|| panic!("--format json is described: {text}"));
    assert!(json_line.contains("rooms"), "{json_line}");
}

#[test]
fn an_input_string_before_a_command_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = byog(dir.path(), &["N42S", "replay", "N43S"]);
    assert_usage_error(
        &out,
        "N42S replay N43S",
        &[
            "the input string 'N42S' comes before a command",
            "byog replay N42S",
        ],
    );
    let out = byog(dir.path(), &["N42S:Q", "gen", "--seed", "1"]);
    assert_usage_error(&out, "N42S:Q gen", &["'N42S:Q'"]);
    assert!(!dir.path().join("save.bin").exists(), "nothing was run");
}

#[test]
fn a_save_folder_that_is_a_file_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("afile");
    std::fs::write(&file, "not a folder").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(["--save-dir", "afile", "N4S:Q"])
        .current_dir(dir.path())
        .env_remove("BYOG_SAVE_DIR")
        .output()
        .unwrap();
    assert_usage_error(
        &out,
        "--save-dir afile",
        &[
            "the save folder afile is a file, not a folder",
            "--save-dir",
        ],
    );
    assert!(!stderr(&out).contains("os error"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a folder");
}

#[test]
fn an_empty_save_dir_variable_means_the_default_folder() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_byog"))
            .args(args)
            .current_dir(dir.path())
            .env("BYOG_SAVE_DIR", "")
            .output()
            .unwrap()
    };
    for args in [&["gen", "--seed", "1"][..], &["stats", "--seed", "1"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(!stdout(&out).is_empty(), "{args:?}");
    }
    assert!(
        !dir.path().join("saves").exists(),
        "gen and stats save nothing"
    );
    let out = run(&["replay", "N5SD:Q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(dir.path().join("saves/save.bin").is_file());
    let loaded = run(&["L"]);
    assert_eq!(stdout(&loaded), stdout(&out));
}

#[test]
fn an_empty_save_dir_flag_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(["--save-dir", "", "N5SD:Q"])
        .current_dir(dir.path())
        .env_remove("BYOG_SAVE_DIR")
        .output()
        .unwrap();
    assert_usage_error(&out, "--save-dir ''", &["--save-dir"]);
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing was saved anywhere"
    );
}

#[test]
fn requirement_errors_name_flags_not_fields() {
    let dir = tempfile::tempdir().unwrap();
    let out = byog(
        dir.path(),
        &[
            "gen",
            "--seed",
            "7",
            "--min-openness",
            "99",
            "--max-tries",
            "3",
        ],
    );
    assert_usage_error(
        &out,
        "--min-openness 99",
        &[
            "seed 7: no world met the requirements in 3 tries (--max-tries)",
            "--min-openness failed most often",
            "below the minimum 99%",
        ],
    );
    let err = stderr(&out);
    assert!(!err.contains("min_openness"), "{err}");
    assert!(!err.contains("_percent"), "{err}");
}

#[test]
fn strict_goes_with_an_input_string_only() {
    let dir = tempfile::tempdir().unwrap();
    assert_usage_error(
        &byog(dir.path(), &["--strict", "gen", "--seed", "1"]),
        "--strict gen",
        &["--strict goes with an input string"],
    );
    assert_usage_error(
        &byog(dir.path(), &["--strict", "stats", "--seed", "1"]),
        "--strict stats",
        &["--strict goes with an input string"],
    );
    // Before an input string it is accepted.
    let out = byog(dir.path(), &["--strict", "N42S"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn debug_views_do_not_go_with_json_or_png() {
    let dir = tempfile::tempdir().unwrap();
    assert_usage_error(
        &byog(
            dir.path(),
            &[
                "gen", "--seed", "1", "--format", "json", "--view", "regions",
            ],
        ),
        "--format json --view regions",
        &["--view regions", "--format json"],
    );
    let png = dir.path().join("X.png");
    let png_arg = png.to_str().unwrap();
    assert_usage_error(
        &byog(
            dir.path(),
            &["gen", "--seed", "1", "--png", png_arg, "--view", "regions"],
        ),
        "--png --view regions",
        &["--png", "--view regions"],
    );
    assert!(!png.exists(), "no PNG was written");
}

#[test]
fn strict_refuses_an_input_that_ends_mid_command() {
    let dir = tempfile::tempdir().unwrap();
    for (input, why) in [("N42S:", "lone ':'"), ("N42", "ends in seed entry")] {
        assert_usage_error(
            &byog(dir.path(), &["replay", "--strict", input]),
            input,
            &[why, "--strict", "nothing was saved"],
        );
        assert!(!dir.path().join("save.bin").exists(), "{input} saved");
    }
    let out = byog(dir.path(), &["replay", "--strict", "N42S"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), stdout(&byog(dir.path(), &["N42S"])));
}

/// The flags of the batch tests: some seeds of 0..5 meet them, some do not.
const HARD: [&str; 4] = ["--min-rooms", "21", "--max-tries", "3"];

/// Which seeds of `seeds` `gen --seed N` makes with `flags`, each run on its own, and the
/// world each prints.
fn single_runs(
    dir: &std::path::Path,
    seeds: std::ops::Range<u64>,
    flags: &[&str],
) -> Vec<(u64, Option<String>)> {
    seeds
        .map(|seed| {
            let s = seed.to_string();
            let mut args = vec!["gen", "--seed", &s];
            args.extend_from_slice(flags);
            let out = byog(dir, &args);
            match out.status.code() {
                Some(0) => (seed, Some(stdout(&out))),
                Some(2) => {
                    assert!(stdout(&out).is_empty());
                    assert!(
                        stderr(&out).contains(&format!("seed {seed}: no world met")),
                        "{}",
                        stderr(&out)
                    );
                    (seed, None)
                }
                code => panic!("seed {seed}: exit {code:?}: {}", stderr(&out)),
            }
        })
        .collect()
}

#[test]
fn a_batch_prints_every_seed_it_can_and_reports_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let singles = single_runs(dir.path(), 0..5, &HARD);
    let made: Vec<u64> = singles
        .iter()
        .filter(|(_, w)| w.is_some())
        .map(|(s, _)| *s)
        .collect();
    let failed: Vec<u64> = singles
        .iter()
        .filter(|(_, w)| w.is_none())
        .map(|(s, _)| *s)
        .collect();
    assert!(
        !made.is_empty() && !failed.is_empty(),
        "pick flags that some seeds meet and some do not: made {made:?}, failed {failed:?}"
    );

    let mut args = vec!["gen", "--seeds", "0..5"];
    args.extend_from_slice(&HARD);
    let out = byog(dir.path(), &args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = stdout(&out);
    // Every world that can be made is printed, in seed order, as `gen --seed N` prints it.
    let printed: Vec<(u64, &str)> = text
        .split("# seed ")
        .skip(1)
        .map(|chunk| {
            let (seed, world) = chunk.split_once('\n').unwrap();
            (seed.parse().unwrap(), world)
        })
        .collect();
    assert!(text.starts_with("# seed "), "{text}");
    assert_eq!(
        printed.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        made,
        "the printed seeds"
    );
    for ((seed, world), (_, single)) in printed
        .iter()
        .zip(singles.iter().filter(|(_, w)| w.is_some()))
    {
        assert_eq!(Some(*world), single.as_deref(), "seed {seed}");
    }
    // Each failing seed is reported once, by its number, and the run ends with a summary.
    let err = stderr(&out);
    for seed in &failed {
        let line = format!("byog: error: seed {seed}: no world met the requirements");
        assert_eq!(err.matches(&line).count(), 1, "{line:?} in {err}");
        assert_eq!(err.matches(&format!("seed {seed}:")).count(), 1, "{err}");
    }
    for seed in &made {
        assert!(!err.contains(&format!("seed {seed}:")), "{err}");
    }
    let others = match made.len() {
        1 => "the other one was printed".to_owned(),
        n => format!("the other {n} were printed"),
    };
    assert!(
        err.contains(&format!(
            "{} of 5 seeds could not be made ({}reported above); {others}",
            failed.len(),
            if failed.len() == 1 { "" } else { "each is " }
        )),
        "{err}"
    );

    // stats over the same seeds: the summary of the others, each failure named, exit 2.
    let mut args = vec!["stats", "--seeds", "0..5"];
    args.extend_from_slice(&HARD);
    let out = byog(dir.path(), &args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let world_word = if made.len() == 1 { "world" } else { "worlds" };
    assert!(
        stdout(&out).contains(&format!("{} {world_word},", made.len())),
        "{}",
        stdout(&out)
    );
    let err = stderr(&out);
    for seed in &failed {
        let line = format!("byog: error: seed {seed}: no world met the requirements");
        assert_eq!(err.matches(&line).count(), 1, "{line:?} in {err}");
        assert_eq!(err.matches(&format!("seed {seed}:")).count(), 1, "{err}");
    }
    for seed in &made {
        assert!(!err.contains(&format!("seed {seed}:")), "{err}");
    }
    assert!(err.contains("failed the requirements"), "{err}");
}

#[test]
fn stats_counts_one_world_in_the_singular() {
    let dir = tempfile::tempdir().unwrap();
    let one = byog(dir.path(), &["stats", "--seeds", "0..=0"]);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert!(
        stdout(&one).contains("seeds 0..=0: 1 world,"),
        "{}",
        stdout(&one)
    );
    assert!(!stdout(&one).contains("1 worlds"), "{}", stdout(&one));
    let two = byog(dir.path(), &["stats", "--seeds", "0..2"]);
    assert!(
        stdout(&two).contains("seeds 0..=1: 2 worlds,"),
        "{}",
        stdout(&two)
    );
}

#[test]
fn colour_follows_the_color_flag_and_no_color() {
    let dir = tempfile::tempdir().unwrap();
    let gen_with = |color: &str, no_color: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_byog"));
        cmd.args(["gen", "--seed", "1", "--color", color])
            .arg("--save-dir")
            .arg(dir.path())
            .env_remove("BYOG_SAVE_DIR");
        if no_color {
            cmd.env("NO_COLOR", "1");
        } else {
            cmd.env_remove("NO_COLOR");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{color}: {}", stderr(&out));
        stdout(&out)
    };
    let plain = stdout(&byog(dir.path(), &["N1S"]));
    let auto = gen_with("auto", true);
    assert!(!auto.contains('\x1b'), "NO_COLOR: no escapes");
    assert_eq!(auto, plain);
    // stdout is a pipe here, so auto does not colour it either.
    assert_eq!(gen_with("auto", false), plain);
    assert_eq!(gen_with("never", false), plain);
    let always = gen_with("always", false);
    assert!(always.contains("\x1b["), "--color always colours");
    assert_eq!(always.lines().count(), plain.lines().count());
}

#[test]
fn json_and_format_json_are_the_same_on_gen_and_stats() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["gen", "--seed", "1"][..],
        &["gen", "--seeds", "0..3"],
        &["stats", "--seed", "1"],
        &["stats", "--seeds", "0..3"],
    ] {
        let long = byog(dir.path(), &[args, &["--format", "json"]].concat());
        let short = byog(dir.path(), &[args, &["--json"]].concat());
        assert_eq!(long.status.code(), Some(0), "{args:?}: {}", stderr(&long));
        assert_eq!(short.status.code(), Some(0), "{args:?}: {}", stderr(&short));
        assert_eq!(stdout(&long), stdout(&short), "{args:?}");
        for line in stdout(&long).lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(v.is_object(), "{args:?}: {line}");
        }
        assert!(!stdout(&long).is_empty());
    }
}

/// The keys that walk from the avatar into the exit, by a breadth-first search over the text
/// rows (top row first): `·` walkable, the exit `█` entered from a neighbour. W is +y.
fn path_to_exit(rows: &[Vec<char>], avatar: (i64, i64), exit: (i64, i64)) -> String {
    let h = rows.len() as i64;
    let w = rows[0].len() as i64;
    let at = |x: i64, y: i64| {
        (x >= 0 && y >= 0 && x < w && y < h).then(|| rows[(h - 1 - y) as usize][x as usize])
    };
    let mut prev = std::collections::HashMap::from([(avatar, (avatar, ' '))]);
    let mut queue = std::collections::VecDeque::from([avatar]);
    while let Some((x, y)) = queue.pop_front() {
        for (key, dx, dy) in [('W', 0, 1), ('A', -1, 0), ('S', 0, -1), ('D', 1, 0)] {
            let n = (x + dx, y + dy);
            if prev.contains_key(&n) {
                continue;
            }
            if n == exit || at(n.0, n.1) == Some('·') {
                prev.insert(n, ((x, y), key));
                if n == exit {
                    let mut keys = Vec::new();
                    let mut p = n;
                    while p != avatar {
                        let (before, k) = prev[&p];
                        keys.push(k);
                        p = before;
                    }
                    return keys.into_iter().rev().collect();
                }
                queue.push_back(n);
            }
        }
    }
    panic!("no path from {avatar:?} to {exit:?}");
}

fn xy(v: &serde_json::Value) -> (i64, i64) {
    let a = v.as_array().expect("[x, y]");
    assert_eq!(a.len(), 2, "{v}");
    (a[0].as_i64().unwrap(), a[1].as_i64().unwrap())
}

#[test]
fn replay_json_describes_the_game() {
    let dir = tempfile::tempdir().unwrap();
    for input in ["N42S", "N42SSSAAWD", "N7SWWDD"] {
        let long = byog(dir.path(), &["replay", "--format", "json", input]);
        let short = byog(dir.path(), &["replay", "--json", input]);
        assert_eq!(stdout(&long), stdout(&short), "{input}");
        assert_eq!(stdout(&long).lines().count(), 1, "{input}: one object");
        let v = json_of(&long);
        let seed: u64 = input[1..input.find('S').unwrap()].parse().unwrap();
        assert_eq!(v["mode"], "classic", "{input}");
        assert_eq!(v["seed"], seed, "{input}");
        assert_eq!(v["status"], "playing", "{input}");
        assert_eq!(
            (v["width"].as_i64(), v["height"].as_i64()),
            (Some(80), Some(30))
        );
        let text = stdout(&byog(dir.path(), &["replay", input]));
        let rows = json_rows(&v);
        assert_eq!(rows, text.lines().collect::<Vec<_>>(), "{input}");
        let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
        let h = v["height"].as_i64().unwrap();
        let tile = |(x, y): (i64, i64)| grid[(h - 1 - y) as usize][x as usize];
        assert_eq!(tile(xy(&v["avatar"])), '@', "{input}: avatar, y up");
        assert_eq!(tile(xy(&v["exit"])), '█', "{input}: exit, y up");
        assert!(v["moves"].as_u64().is_some(), "{input}");
    }
    // Moves count only steps taken.
    let start = json_of(&byog(dir.path(), &["replay", "--json", "N42S"]));
    let (x, y) = xy(&start["avatar"]);
    let grid: Vec<Vec<char>> = start["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().collect())
        .collect();
    let step = [('W', 0, 1), ('A', -1, 0), ('S', 0, -1), ('D', 1, 0)]
        .into_iter()
        .find(|&(_, dx, dy)| grid[(29 - (y + dy)) as usize][(x + dx) as usize] == '·')
        .expect("the avatar can move");
    let moved = json_of(&byog(
        dir.path(),
        &["replay", "--json", &format!("N42S{}", step.0)],
    ));
    assert_eq!(moved["moves"], 1);
    assert_eq!(xy(&moved["avatar"]), (x + step.1, y + step.2));

    // No game: the menu.
    let menu = json_of(&byog(dir.path(), &["replay", "--json", "Q"]));
    assert_eq!(menu["mode"], "menu", "{menu}");
}

#[test]
fn replay_json_says_won_after_walking_into_the_exit() {
    let dir = tempfile::tempdir().unwrap();
    for seed in [42u64, 1234] {
        let start = format!("N{seed}S");
        let v = json_of(&byog(dir.path(), &["replay", "--json", &start]));
        let rows: Vec<Vec<char>> = json_rows(&v).iter().map(|r| r.chars().collect()).collect();
        let path = path_to_exit(&rows, xy(&v["avatar"]), xy(&v["exit"]));
        // One key short of the exit, the game is still on.
        let almost = json_of(&byog(
            dir.path(),
            &[
                "replay",
                "--json",
                &format!("{start}{}", &path[..path.len() - 1]),
            ],
        ));
        assert_eq!(almost["status"], "playing", "seed {seed}");
        assert_eq!(almost["moves"], path.len() - 1, "seed {seed}");
        let won = json_of(&byog(
            dir.path(),
            &["replay", "--format", "json", &format!("{start}{path}")],
        ));
        assert_eq!(won["status"], "won", "seed {seed}: {path}");
        assert_eq!(won["mode"], "classic");
        assert_eq!(won["seed"], seed);
    }
}

#[test]
fn generator_parameters_out_of_range_exit_2_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    for (flag, value, range) in [
        ("--room-tries", "1001", "0..=1000"),
        ("--room-extra-size", "21", "0..=20"),
        ("--winding-percent", "101", "0..=100"),
        ("--extra-connector-chance", "1000001", "0..=1000000"),
        ("--max-tries", "0", "1..=10000"),
    ] {
        for command in [
            &["gen", "--seed", "1"][..],
            &["N1S"],
            &["stats", "--seed", "1"],
        ] {
            let args = [command, &[flag, value]].concat();
            assert_usage_error(
                &byog(dir.path(), &args),
                &format!("{args:?}"),
                &[flag, value, range],
            );
        }
    }
    assert!(!dir.path().join("save.bin").exists());
}

#[test]
fn generator_parameters_change_the_world_and_are_saved() {
    let dir = tempfile::tempdir().unwrap();
    let default = byog(dir.path(), &["gen", "--seed", "1"]);
    let straight = byog(
        dir.path(),
        &["gen", "--seed", "1", "--winding-percent", "0"],
    );
    assert_eq!(straight.status.code(), Some(0), "{}", stderr(&straight));
    assert_ne!(stdout(&straight), stdout(&default));
    for (flag, value) in [
        ("--room-tries", "5"),
        ("--room-extra-size", "4"),
        ("--extra-connector-chance", "0"),
    ] {
        let other = byog(dir.path(), &["gen", "--seed", "1", flag, value]);
        assert_eq!(other.status.code(), Some(0), "{flag}: {}", stderr(&other));
        assert_ne!(stdout(&other), stdout(&default), "{flag} {value}");
    }

    // Recorded in the save: loading with default flags continues the same world.
    let saved = byog(dir.path(), &["replay", "N5SD:Q", "--winding-percent", "0"]);
    assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    let loaded = byog(dir.path(), &["L"]);
    assert_eq!(loaded.status.code(), Some(0), "{}", stderr(&loaded));
    let fresh = tempfile::tempdir().unwrap();
    let expected = byog(fresh.path(), &["N5SD", "--winding-percent", "0"]);
    assert_eq!(stdout(&loaded), stdout(&expected));
    assert_ne!(stdout(&loaded), stdout(&byog(fresh.path(), &["N5SD"])));

    // And shown by stats.
    let text = stdout(&byog(
        dir.path(),
        &["stats", "--seed", "1", "--winding-percent", "0"],
    ));
    let line = text
        .lines()
        .find(|l| l.starts_with("generator"))
        .unwrap_or_else(|| panic!("a generator line: {text}"));
    assert!(line.contains("winding 0%"), "{line}");
    let default_text = stdout(&byog(dir.path(), &["stats", "--seed", "1"]));
    assert!(default_text.contains("winding 30%"), "{default_text}");
    let json = json_of(&byog(
        dir.path(),
        &["stats", "--seed", "1", "--winding-percent", "0", "--json"],
    ));
    assert_eq!(json["winding_percent"], 0, "{json}");
    let default_json = json_of(&byog(dir.path(), &["stats", "--seed", "1", "--json"]));
    assert_eq!(default_json["winding_percent"], 30);
}

/// Where the avatar stands after `input`, as (column, row from the top) of the printed world.
fn avatar_after(dir: &std::path::Path, input: &str) -> (usize, usize) {
    let out = byog(dir, &["replay", input]);
    assert_eq!(out.status.code(), Some(0), "{input}: {}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{input}: {}", stderr(&out));
    let text = stdout(&out);
    let (row, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains('@'))
        .unwrap_or_else(|| panic!("{input}: no avatar"));
    (line.chars().position(|c| c == '@').unwrap(), row)
}

/// Asserts that every key after `N<seed>S` in `example` (which ends in `:Q`) moves the avatar
/// to a tile it has not stood on, and returns where it ends.
#[track_caller]
fn assert_every_key_moves(dir: &std::path::Path, example: &str) -> (usize, usize) {
    let keys_at = example.find('S').unwrap() + 1;
    let keys = example[keys_at..].strip_suffix(":Q").unwrap();
    assert!(!keys.is_empty(), "{example} moves");
    let mut seen = vec![avatar_after(dir, &example[..keys_at])];
    for n in 1..=keys.len() {
        let input = &example[..keys_at + n];
        let at = avatar_after(dir, input);
        assert!(
            !seen.contains(&at),
            "{example}: the last key of {input} does not move the avatar to a new tile"
        );
        seen.push(at);
    }
    *seen.last().unwrap()
}

#[test]
fn the_help_examples_move_the_avatar_on_every_key() {
    let dir = tempfile::tempdir().unwrap();
    let mut help = String::new();
    for args in [&["--help"][..], &["replay", "--help"]] {
        let out = byog(dir.path(), args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        help.push_str(&stdout(&out));
    }
    // Every example input string, `N<seed>S<keys>:Q`, in the help of byog and of replay.
    let mut examples: Vec<&str> = help
        .split_whitespace()
        .filter(|w| {
            w.starts_with('N')
                && w.ends_with(":Q")
                && w[1..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect();
    examples.sort_unstable();
    examples.dedup();
    assert!(!examples.is_empty(), "an example input string in {help}");
    let listed = help
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("byog N"))
        .and_then(|rest| rest.split_whitespace().next())
        .map(|keys| format!("N{keys}"))
        .unwrap_or_else(|| panic!("a `byog N...` line under Examples: {help}"));
    assert!(
        examples.contains(&listed.as_str()),
        "{listed} in {examples:?}"
    );
    for example in &examples {
        assert_every_key_moves(dir.path(), example);
    }

    // The listed example saves; the next one, `byog replay LWW`, moves up twice from there.
    assert!(help.contains("byog replay LWW"), "{help}");
    let out = byog(dir.path(), &["replay", &listed]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let saved = avatar_after(dir.path(), "L");
    assert_eq!(
        saved,
        avatar_after(dir.path(), listed.strip_suffix(":Q").unwrap())
    );
    let one = avatar_after(dir.path(), "LW");
    let two = avatar_after(dir.path(), "LWW");
    assert_eq!(
        (one, two),
        ((saved.0, saved.1 - 1), (saved.0, saved.1 - 2)),
        "LWW moves up twice"
    );
}

#[test]
fn the_readme_first_example_moves_the_avatar_on_every_key() {
    let dir = tempfile::tempdir().unwrap();
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let example = readme
        .lines()
        .find_map(|l| l.strip_prefix("$ byog "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("a `$ byog INPUT` example in the README"));
    assert!(
        example.starts_with('N') && example.ends_with(":Q"),
        "the README's first example starts a game and saves: {example}"
    );
    assert_every_key_moves(dir.path(), example);
}

#[test]
fn a_negative_number_is_refused_naming_its_flag() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &[&str])] = &[
        (&["N1S", "--width", "-4"], &["--width", "'-4'", "5..=16384"]),
        (
            &["--height", "-3", "gen", "--seed", "1"],
            &["--height", "5..=16384"],
        ),
        (
            &["gen", "--seed", "1", "--room-tries", "-1"],
            &["--room-tries", "0..=1000"],
        ),
        (
            &["gen", "--seed", "1", "--max-tries", "-5"],
            &["--max-tries", "1..=10000"],
        ),
        (
            &["gen", "--seed", "1", "--min-rooms", "-1"],
            &["--min-rooms", "'-1'"],
        ),
        (
            &["gen", "--seeds", "0..2", "--threads", "-1"],
            &["--threads", "0 (one per core) to 256"],
        ),
        (
            &["stats", "--seeds", "0..2", "--threads", "-1"],
            &["--threads", "0 (one per core) to 256"],
        ),
    ];
    for (args, needles) in cases {
        assert_usage_error(&byog(dir.path(), args), &format!("{args:?}"), needles);
        assert!(!stderr(&byog(dir.path(), args)).contains("unexpected argument"));
    }
}

#[test]
fn the_short_form_takes_the_replay_flags() {
    let dir = tempfile::tempdir().unwrap();
    // `byog FLAGS INPUT` is `byog replay FLAGS INPUT`, flags before or after the input.
    let long = byog(dir.path(), &["replay", "--json", "N1S"]);
    assert_eq!(long.status.code(), Some(0), "{}", stderr(&long));
    for args in [
        &["--json", "N1S"][..],
        &["N1S", "--json"],
        &["--format", "json", "N1S"],
    ] {
        let short = byog(dir.path(), args);
        assert_eq!(short.status.code(), Some(0), "{args:?}: {}", stderr(&short));
        assert_eq!(stdout(&short), stdout(&long), "{args:?}");
    }
    assert_eq!(json_of(&long)["history"], "N1S");
    let sight = byog(dir.path(), &["--view", "sight", "N5SDD"]);
    assert_eq!(sight.status.code(), Some(0), "{}", stderr(&sight));
    assert_eq!(
        stdout(&sight),
        stdout(&byog(dir.path(), &["replay", "--view", "sight", "N5SDD"]))
    );
    assert_ne!(stdout(&sight), stdout(&byog(dir.path(), &["N5SDD"])));
    let keys = dir.path().join("keys.txt");
    std::fs::write(&keys, "N5S\nDD\n").unwrap();
    let file = byog(dir.path(), &["--file", keys.to_str().unwrap()]);
    assert_eq!(file.status.code(), Some(0), "{}", stderr(&file));
    assert_eq!(stdout(&file), stdout(&byog(dir.path(), &["N5SDD"])));
    let strict = byog(dir.path(), &["--strict", "N5SZD"]);
    assert_usage_error(&strict, "--strict N5SZD", &["position 3", "--strict"]);

    // Before another command, a replay flag is refused, saying where it goes.
    assert_usage_error(
        &byog(dir.path(), &["--json", "gen", "--seed", "1"]),
        "--json gen",
        &["--json comes before the gen command", "byog gen ... --json"],
    );
    assert_usage_error(
        &byog(dir.path(), &["--file", "keys.txt", "stats", "--seed", "1"]),
        "--file stats",
        &["--file goes with an input string", "stats"],
    );
    assert_usage_error(
        &byog(dir.path(), &["--json"]),
        "--json alone",
        &["--json goes with an input string", "byog --json INPUT"],
    );
}

#[test]
fn help_is_a_command() {
    let help = common::byog(&["help"]);
    assert_eq!(help.status.code(), Some(0), "{}", stderr(&help));
    let text = stdout(&help);
    assert!(text.contains("Usage: byog"), "{text}");
    for command in ["replay", "gen", "stats", "solve", "play"] {
        assert!(text.contains(command), "{command} in {text}");
    }
    assert!(!stderr(&help).contains("ignored"), "{}", stderr(&help));
    // The short form's replay flags have their own heading; the common flags keep theirs.
    let (common_part, replay_part) = text
        .split_once("Replay (byog INPUT):")
        .unwrap_or_else(|| panic!("a heading for the replay flags: {text}"));
    assert!(replay_part.contains("--json") && replay_part.contains("--file"));
    assert!(!replay_part.contains("--width"), "{replay_part}");
    assert!(common_part.contains("--width"), "{common_part}");
    let gen_help = common::byog(&["help", "gen"]);
    assert_eq!(gen_help.status.code(), Some(0), "{}", stderr(&gen_help));
    assert!(
        stdout(&gen_help).contains("--seeds"),
        "{}",
        stdout(&gen_help)
    );
}

#[test]
fn a_mistyped_command_suggests_the_closest() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["stat"], "stats"),
        (&["stat", "--seed", "1"], "stats"),
        (&["--width", "40", "stat", "--seed", "1"], "stats"),
        (&["gne", "--seed", "1"], "gen"),
        (&["sovle", "R1S"], "solve"),
        (&["rpelay", "N1S"], "replay"),
        (&["paly"], "play"),
        (&["Stats", "--seed", "1"], "stats"),
    ];
    for (args, meant) in cases {
        let out = byog(dir.path(), args);
        assert_usage_error(
            &out,
            &format!("{args:?}"),
            &[
                &format!(
                    "'{}' is not a command",
                    args.iter()
                        .find(|a| a.len() > 2 && !a.starts_with('-') && a.parse::<u32>().is_err())
                        .unwrap()
                ),
                &format!("did you mean `byog {meant}`?"),
            ],
        );
        assert!(!stderr(&out).contains("--save-dir"), "{}", stderr(&out));
        assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    }
    // Input strings still replay: new games, loads, runs, quits.
    let saved = byog(dir.path(), &["N1S:Q"]);
    assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    for input in ["N1S", "LSS", "lss", "R7SDD", "E3SW", "Q", "LD"] {
        let out = byog(dir.path(), &[input]);
        assert_eq!(out.status.code(), Some(0), "{input}: {}", stderr(&out));
        assert!(!stderr(&out).contains("not a command"), "{input}");
    }
    assert_eq!(
        stdout(&byog(dir.path(), &["LSS"])),
        stdout(&byog(dir.path(), &["N1SSS"]))
    );
    // Asked for explicitly, a mistyped word is replayed as keys.
    let save_dir = dir.path().to_str().unwrap();
    for args in [
        &["replay", "stat", "--save-dir", save_dir][..],
        &["--save-dir", save_dir, "--", "stat"],
    ] {
        let keys = common::byog(args);
        assert_eq!(keys.status.code(), Some(0), "{args:?}: {}", stderr(&keys));
        assert!(stderr(&keys).contains("key 's' at position 0 ignored"));
    }
}

#[cfg(unix)]
#[test]
fn a_save_folder_that_is_a_device_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    for (save_dir, needles) in [
        (
            "/dev/null",
            &[
                "the save folder /dev/null is a character device, not a folder",
                "--save-dir",
            ][..],
        ),
        (
            "/dev/null/saves",
            &["the save folder /dev/null/saves cannot be made: /dev/null is a character device"],
        ),
    ] {
        for input in ["N1S:Q", "L", "N1S"] {
            let out = Command::new(env!("CARGO_BIN_EXE_byog"))
                .args(["--save-dir", save_dir, input])
                .current_dir(dir.path())
                .env_remove("BYOG_SAVE_DIR")
                .output()
                .unwrap();
            assert_usage_error(&out, &format!("{save_dir} {input}"), needles);
            assert!(!stderr(&out).contains("os error"), "{}", stderr(&out));
        }
        // The environment variable is checked the same way.
        let out = Command::new(env!("CARGO_BIN_EXE_byog"))
            .args(["N1S:Q"])
            .env("BYOG_SAVE_DIR", save_dir)
            .output()
            .unwrap();
        assert_usage_error(&out, &format!("BYOG_SAVE_DIR={save_dir}"), needles);
    }
    // gen and stats never use the save folder, so it does not stop them.
    let out = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(["gen", "--seed", "1", "--save-dir", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Runs `byog ARGS --save-dir DIR`, killing it (and failing) if it has not ended in `limit`.
#[cfg(unix)]
fn byog_within(
    dir: &std::path::Path,
    args: &[&str],
    limit: std::time::Duration,
) -> (std::process::Output, std::time::Duration) {
    let started = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(args)
        .arg("--save-dir")
        .arg(dir)
        .env_remove("BYOG_SAVE_DIR")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            panic!("{args:?} still runs after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    (child.wait_with_output().unwrap(), started.elapsed())
}

#[cfg(unix)]
#[test]
fn keys_come_from_pipes_as_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let expected = stdout(&byog(dir.path(), &["N5SDD"]));
    // Process substitution: /dev/fd/N, an anonymous pipe.
    for command in ["replay --file", "--file"] {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "\"$0\" {command} <(echo N5S; echo DD) --save-dir \"$1\""
            ))
            .arg(env!("CARGO_BIN_EXE_byog"))
            .arg(dir.path())
            .env_remove("BYOG_SAVE_DIR")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{command}: {}", stderr(&out));
        assert_eq!(stdout(&out), expected, "{command}");
    }
    // A FIFO whose writer comes a little after byog opens it, writes slowly, then closes it.
    let fifo = dir.path().join("keys.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    // Not joined: were byog to fail before opening the FIFO, the writer's open would block.
    let _writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            let mut f = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            std::io::Write::write_all(&mut f, b"N5S").unwrap();
            std::thread::sleep(std::time::Duration::from_millis(300));
            std::io::Write::write_all(&mut f, b"\nDD\n").unwrap();
        })
    };
    let (out, _) = byog_within(
        dir.path(),
        &["replay", "--file", fifo.to_str().unwrap()],
        std::time::Duration::from_secs(20),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), expected);
    // Standard input and regular files still work.
    let mut child = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(["replay", "--file", "-", "--save-dir"])
        .arg(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"N5SDD").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(stdout(&out), expected);
    let keys = dir.path().join("keys.txt");
    std::fs::write(&keys, "N5SDD\n").unwrap();
    assert_eq!(
        stdout(&byog(
            dir.path(),
            &["replay", "--file", keys.to_str().unwrap()]
        )),
        expected
    );
}

#[cfg(unix)]
#[test]
fn a_pipe_no_one_writes_to_is_refused_in_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("nobody.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (out, took) = byog_within(
        dir.path(),
        &["replay", "--file", fifo.to_str().unwrap()],
        std::time::Duration::from_secs(20),
    );
    assert_usage_error(
        &out,
        "a FIFO with no writer",
        &[
            &format!("cannot read keys from {}", fifo.display()),
            "no writer",
            "within 3 seconds",
        ],
    );
    assert!(took < std::time::Duration::from_secs(10), "{took:?}");
    // What can never be a key file is refused at once, saying what it is.
    for (path, what) in [("/dev/zero", "a character device"), ("/", "a folder")] {
        let (out, took) = byog_within(
            dir.path(),
            &["replay", "--file", path],
            std::time::Duration::from_secs(20),
        );
        assert_usage_error(&out, path, &[what, "not a file or a pipe"]);
        assert!(took < std::time::Duration::from_secs(3), "{path}: {took:?}");
    }
}

/// The `byog: ignored: …` lines of a run's stderr.
fn ignored_lines(out: &std::process::Output) -> Vec<String> {
    stderr(out)
        .lines()
        .filter(|l| l.starts_with("byog: ignored: "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn flags_a_game_does_not_use_are_reported_as_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let saved = byog(dir.path(), &["N1S:Q"]);
    assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    // A load keeps the save's own size, generator settings and requirements.
    let out = byog(
        dir.path(),
        &[
            "--width",
            "40",
            "--room-tries",
            "5",
            "--min-rooms",
            "2",
            "LSS",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), stdout(&byog(dir.path(), &["N1SSS"])));
    assert_eq!(
        ignored_lines(&out),
        [
            "byog: ignored: --width (a loaded game keeps its own size)",
            "byog: ignored: --room-tries (a loaded game keeps its own generator settings)",
            "byog: ignored: --min-rooms (a loaded game keeps its own requirements)",
        ]
    );
    // A loaded run keeps its number of floors.
    let run = byog(dir.path(), &["--floors", "3", "R3S:Q"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(ignored_lines(&run).is_empty(), "{:?}", ignored_lines(&run));
    let out = byog(dir.path(), &["--floors", "5", "--json", "LD"]);
    assert_eq!(json_of(&out)["floors"], 3);
    assert_eq!(
        ignored_lines(&out),
        ["byog: ignored: --floors (a loaded run keeps its own number of floors)"]
    );
    // An exploration has no size, and the world generator does not make its rooms.
    let out = byog(
        dir.path(),
        &[
            "E3SW",
            "--width",
            "40",
            "--height",
            "20",
            "--max-dead-ends",
            "1",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = ignored_lines(&out);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("byog: ignored: --width (an exploration"));
    assert!(lines[1].starts_with("byog: ignored: --height (an exploration"));
    assert!(lines[2].starts_with("byog: ignored: --max-dead-ends (an exploration"));
    // Floors are for runs, the exploration flags for explorations.
    let out = byog(dir.path(), &["--floors", "3", "--branch-timer", "9", "N5S"]);
    assert_eq!(
        ignored_lines(&out),
        [
            "byog: ignored: --floors (floors are for runs, R<seed>S)",
            "byog: ignored: --branch-timer (it is for explorations, E<seed>S)",
        ]
    );
    // Flags that are used, and defaults, are never reported.
    for args in [
        &["--width", "40", "--height", "20", "--min-rooms", "2", "N5S"][..],
        &["--floors", "2", "--width", "40", "R5S"],
        &["--max-unexplored", "2", "--branch-timer", "9", "E5S"],
        &["E5SWWD"],
        &["LSS"],
    ] {
        let out = byog(dir.path(), args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(ignored_lines(&out).is_empty(), "{args:?}: {}", stderr(&out));
    }
    // Commands that never use a flag say so too (and --save-dir is never reported).
    let out = byog(
        dir.path(),
        &[
            "gen",
            "--seed",
            "1",
            "--floors",
            "3",
            "--max-unexplored",
            "2",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(ignored_lines(&out).len(), 2, "{}", stderr(&out));
    assert!(ignored_lines(&out)[0].starts_with("byog: ignored: --floors (gen makes"));
    let out = byog(dir.path(), &["stats", "--seed", "1", "--floors", "3"]);
    assert_eq!(
        ignored_lines(&out),
        ["byog: ignored: --floors (it goes with --run or --runs)"]
    );
    let out = byog(dir.path(), &["stats", "--run", "1", "--floors", "2"]);
    assert!(ignored_lines(&out).is_empty(), "{}", stderr(&out));
    let out = byog(dir.path(), &["solve", "R3S", "--branch-timer", "9"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        ignored_lines(&out),
        ["byog: ignored: --branch-timer (it is for explorations, E<seed>S)"]
    );
}

#[test]
fn gen_json_gives_positions_as_replay_json_does() {
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "42"] {
        let generated = json_of(&byog(dir.path(), &["gen", "--seed", seed, "--json"]));
        let replayed = json_of(&byog(
            dir.path(),
            &["replay", "--json", &format!("N{seed}S")],
        ));
        for key in ["avatar", "exit"] {
            assert!(generated[key].is_array(), "{key}: {}", generated[key]);
            assert_eq!(generated[key], replayed[key], "seed {seed}: {key}");
        }
        assert_eq!(generated["rows"], replayed["rows"]);
    }
}

#[test]
fn each_command_lists_only_the_flags_that_matter_to_it() {
    let help = |command: &str| {
        let out = common::byog(&[command, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let flag_in = |text: &str, flag: &str| text.contains(&format!("--{flag} "));
    let explore = ["max-unexplored", "branch-timer"];
    for command in ["solve", "gen", "stats"] {
        let text = help(command);
        for flag in explore {
            assert!(
                !flag_in(&text, flag),
                "{command} --help lists --{flag}: {text}"
            );
        }
        for flag in ["width", "height", "room-tries", "min-rooms"] {
            assert!(
                flag_in(&text, flag),
                "{command} --help misses --{flag}: {text}"
            );
        }
    }
    assert!(!flag_in(&help("gen"), "floors"));
    assert!(!flag_in(&help("gen"), "save-dir"));
    assert!(!flag_in(&help("stats"), "save-dir"));
    assert!(flag_in(&help("stats"), "floors"), "stats --run uses it");
    assert!(flag_in(&help("solve"), "floors"));
    assert!(flag_in(&help("solve"), "save-dir"), "solve loads with L");
    for command in ["replay", "play"] {
        let text = help(command);
        for flag in [
            "floors",
            "max-unexplored",
            "branch-timer",
            "save-dir",
            "width",
        ] {
            assert!(flag_in(&text, flag), "{command} --help misses --{flag}");
        }
    }
    // Hidden is not refused: flags placed before or after the command still parse.
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["gen", "--seed", "1", "--floors", "2"][..],
        &["--floors", "2", "gen", "--seed", "1"],
        &["--max-unexplored", "2", "stats", "--seed", "1"],
    ] {
        let out = byog(dir.path(), args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn a_batch_summary_says_how_many_failed_at_every_count() {
    let dir = tempfile::tempdir().unwrap();
    let impossible = ["--min-openness", "99", "--max-tries", "1"];
    let run = |args: &[&str]| byog(dir.path(), &[args, &impossible[..]].concat());
    // None could be made: nothing was printed, and no "others" are claimed.
    let out = run(&["gen", "--seeds", "1..6"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(
        err.contains(
            "byog: error: none of the 5 seeds could be made (each is reported above); \
             nothing was printed"
        ),
        "{err}"
    );
    assert!(!err.contains("the others"), "{err}");
    assert!(!err.contains("5 seeds of 5"), "{err}");
    let out = run(&["gen", "--seeds", "3..=3"]);
    assert!(
        stderr(&out).contains(
            "byog: error: the one seed could not be made (reported above); nothing was printed"
        ),
        "{}",
        stderr(&out)
    );
    let out = run(&["stats", "--seeds", "1..3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "none of the 2 seeds met the requirements (each is reported above); there was \
             nothing to summarise"
        ),
        "{}",
        stderr(&out)
    );
    // One try is "1 try", wherever it is counted.
    let err = stderr(&run(&["gen", "--seed", "3"]));
    assert!(err.contains("in 1 try (--max-tries)"), "{err}");
    assert!(err.contains("(1 of 1 try)"), "{err}");
    assert!(!err.contains("1 tries"), "{err}");
}

#[test]
fn gen_png_checks_the_picture_size_before_generating() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("big.png");
    // 1100 × 1000 tiles is 17600 × 16000 pixels, over the limit. The requirement cannot be
    // met, so had the world been generated first, that would be the error.
    let out = byog(
        dir.path(),
        &[
            "gen",
            "--seed",
            "1",
            "--width",
            "1100",
            "--height",
            "1000",
            "--min-openness",
            "99",
            "--max-tries",
            "1",
            "--png",
            png.to_str().unwrap(),
        ],
    );
    assert_usage_error(
        &out,
        "--png of a world too large",
        &[
            &format!("cannot write the PNG {}", png.display()),
            "17600 × 16000 pixels",
            "use a smaller world",
        ],
    );
    assert!(!stderr(&out).contains("requirements"), "{}", stderr(&out));
    assert!(!png.exists());
}

/// Issue 31 (19): `byog --foo` suggested `--floors` and printed `Usage: byog --floors <N>
/// [INPUT]`, a usage line built around clap's guess. A close flag of the command that
/// refused it is suggested now (strsim), a far one none, and the usage line is the command's.
#[test]
fn an_unknown_flag_suggests_only_a_close_flag_and_prints_its_commands_usage() {
    let out = common::byog(&["--foo"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(!err.contains("floors"), "{err}");
    assert!(
        err.contains("unexpected argument '--foo' found: `byog` has no such flag\n"),
        "{err}"
    );
    assert!(
        err.contains("\nUsage: byog [OPTIONS] [INPUT] [COMMAND]\n"),
        "{err}"
    );
    for (args, meant, usage) in [
        (
            &["replay", "--fromat", "json", "N1S"][..],
            "--format",
            "Usage: byog replay [OPTIONS] [INPUT]",
        ),
        (
            &["gen", "--sed", "3"][..],
            "--seed",
            "Usage: byog gen [OPTIONS]",
        ),
        (
            &["stats", "--seeds", "0..2", "--josn"][..],
            "--json",
            "Usage: byog stats [OPTIONS]",
        ),
    ] {
        let out = common::byog(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("did you mean '{meant}'?")),
            "{args:?}: {err}"
        );
        assert!(err.contains(usage), "{args:?}: {err}");
        assert!(stdout(&out).is_empty());
    }
}

/// Issue 31 (19): `replay --format` listed `none`, then refused it. Each command's help and
/// error list exactly the formats it accepts.
#[test]
fn format_lists_only_what_each_command_accepts() {
    for (command, accepted) in [
        ("replay", "text, json"),
        ("stats", "text, json"),
        ("catalog", "text, json"),
        ("gen", "text, json, none"),
    ] {
        let out = common::byog(&[command, "--format", "xml"]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(
            stderr(&out).contains(&format!("[possible values: {accepted}]")),
            "{command}: {}",
            stderr(&out)
        );
        let help = stdout(&common::byog(&[command, "--help"]));
        let section: String = help
            .split("--format <FORMAT>")
            .nth(1)
            .unwrap_or_else(|| panic!("{command} --help has no --format"))
            .lines()
            .take_while(|l| !l.trim_start().starts_with("--") || l.contains("Possible"))
            .collect();
        assert_eq!(
            section.contains("- none"),
            accepted.contains("none"),
            "{command}: {section}"
        );
    }
}
