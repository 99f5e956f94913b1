//! LootQuest's flags on the command line: out of range, a critical path that does not fit,
//! `gen`, `stats` and `replay` taking the generator, the other generator's flags ignored. The
//! generator's own tests are the game's (`crates/game/tests/game/lootquest.rs`).

use std::process::Command;

use byog_worlds::generator::RoomRect;

use crate::lootquest_checker::check;

fn byog(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn flags_out_of_range_exit_2_naming_the_flag() {
    for (flag, value) in [
        ("--rooms", "0"),
        ("--rooms", "101"),
        ("--critical-path", "0"),
        ("--max-dead-end", "101"),
        ("--room-size", "2..5"),
        ("--room-size", "9..5"),
        ("--room-size", "5..26"),
        ("--room-spacing", "0..3"),
        ("--room-spacing", "x"),
        ("--loops", "101"),
    ] {
        let out = byog(&[
            "gen",
            "--seed",
            "1",
            "--generator",
            "lootquest",
            flag,
            value,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(err.contains(flag), "{flag} {value}: {err}");
    }
    let out = byog(&["gen", "--seed", "1", "--generator", "mazes"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--generator"));
}

#[test]
fn a_critical_path_that_does_not_fit_exits_2_naming_the_flags() {
    let out = byog(&[
        "gen",
        "--seed",
        "1",
        "--generator",
        "lootquest",
        "--critical-path",
        "40",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for flag in ["--critical-path 40", "--room-size 5..9", "--width 80"] {
        assert!(err.contains(flag), "{err}");
    }
}

#[test]
fn gen_stats_and_replay_take_the_generator() {
    let flags = [
        "--generator",
        "lootquest",
        "--rooms",
        "7",
        "--critical-path",
        "4",
    ];
    let gen_out = byog(&[&["gen", "--seed", "9", "--json"][..], &flags[..]].concat());
    assert_eq!(gen_out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&gen_out.stdout).unwrap();
    let rooms: Vec<RoomRect> = json["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| RoomRect {
            x: r["x"].as_i64().unwrap() as i32,
            y: r["y"].as_i64().unwrap() as i32,
            width: r["width"].as_i64().unwrap() as i32,
            height: r["height"].as_i64().unwrap() as i32,
        })
        .collect();
    let text: String = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("{}\n", r.as_str().unwrap()))
        .collect();
    let read = check(&text, &rooms, 4);
    assert_eq!((read.rooms, read.critical_path), (7, 4));
    // replay N9S prints the same world; stats measures it.
    let replay = byog(
        &[
            &["replay", "--save-dir", "/nonexistent-byog-dir", "N9S"][..],
            &flags[..],
        ]
        .concat(),
    );
    assert_eq!(String::from_utf8_lossy(&replay.stdout), text);
    let stats = byog(&[&["stats", "--seed", "9", "--json"][..], &flags[..]].concat());
    let m: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(m["critical_path"], 4);
    assert_eq!(m["room_count"], 7);
    assert_eq!(m["generator"], "lootquest");
}

#[test]
fn the_other_generators_flags_are_reported_as_ignored() {
    let out = byog(&["gen", "--seed", "1", "--rooms", "4", "--format", "none"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("ignored: --rooms (it is for --generator lootquest)")
    );
    let out = byog(&[
        "gen",
        "--seed",
        "1",
        "--generator",
        "lootquest",
        "--winding-percent",
        "4",
        "--format",
        "none",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("ignored: --winding-percent"));
}
