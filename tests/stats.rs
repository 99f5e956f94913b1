//! `byog stats`, requirements and debug views, as a user runs them.

use crate::common;

use std::process::Output;

use common::{byog, byog_in, stdout};

use byog_game::game::GameState;
use byog_worlds::generator::{GenerateError, GeneratorSettings};
use byog_worlds::metrics::{self, Requirement, Requirements};

fn text(o: &Output) -> String {
    stdout(o)
}

fn with(requirements: Requirements, max_tries: u32) -> GeneratorSettings {
    GeneratorSettings {
        requirements,
        max_tries,
        ..GeneratorSettings::default()
    }
}

#[test]
fn range_json_is_the_same_with_one_and_two_threads() {
    let one = byog(&["stats", "--seeds", "1..1000", "--json", "--threads", "1"]);
    let two = byog(&["stats", "--seeds", "1..1000", "--json", "--threads", "2"]);
    assert!(one.status.success() && two.status.success());
    assert_eq!(text(&one), text(&two));
    let v: serde_json::Value = serde_json::from_str(&text(&one)).unwrap();
    assert_eq!(v["worlds"], 999);
    assert_eq!(v["metrics"]["dead_ends"]["max"], 0.0);
    assert_eq!(v["metrics"]["regions"]["min"], 1.0);
    let open = &v["metrics"]["openness_percent"];
    assert!(open["min"].as_f64() <= open["median"].as_f64());
    assert!(open["median"].as_f64() <= open["p90"].as_f64());
    assert!(open["p90"].as_f64() <= open["max"].as_f64());
}

#[test]
fn range_summary_matches_a_direct_computation() {
    let out = byog(&["stats", "--seeds", "10..=30", "--json", "--threads", "2"]);
    let v: serde_json::Value = serde_json::from_str(&text(&out)).unwrap();
    let mut exits: Vec<u32> = (10..=30)
        .map(|seed| {
            let g = GameState::new(seed, 80, 30, GeneratorSettings::default()).unwrap();
            metrics::measure(&g.world(), g.avatar(), g.exit())
                .exit_distance
                .unwrap()
        })
        .collect();
    exits.sort_unstable();
    let s = &v["metrics"]["exit_distance"];
    assert_eq!(s["min"].as_f64().unwrap(), f64::from(exits[0]));
    assert_eq!(s["max"].as_f64().unwrap(), f64::from(exits[20]));
    // Nearest rank: the 11th of 21 values is the median, the 19th is p90.
    assert_eq!(s["median"].as_f64().unwrap(), f64::from(exits[10]));
    assert_eq!(s["p90"].as_f64().unwrap(), f64::from(exits[18]));
}

#[test]
fn one_seed_json_is_flat_and_matches_the_metrics() {
    let out = byog(&["stats", "--seed", "1234", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&text(&out)).unwrap();
    let g = GameState::new(1234, 80, 30, GeneratorSettings::default()).unwrap();
    let m = metrics::measure(&g.world(), g.avatar(), g.exit());
    assert_eq!(v["openness_percent"].as_f64().unwrap(), m.openness_percent);
    assert_eq!(v["exit_distance"], m.exit_distance.unwrap());
    assert_eq!(v["room_count"], m.room_count);
    assert_eq!(v["tries"], 1);
    assert!(
        v.as_object()
            .unwrap()
            .values()
            .all(|x| !x.is_object() && !x.is_array())
    );
    let table = text(&byog(&["stats", "--seed", "1234"]));
    assert!(table.contains(&format!(
        "exit distance   {} tiles",
        m.exit_distance.unwrap()
    )));
    assert_eq!(
        table
            .lines()
            .filter(|l| l.trim_start().starts_with(char::is_numeric))
            .count(),
        m.rooms.len()
    );
}

#[test]
fn impossible_requirements_fail_clearly_within_max_tries() {
    let req = Requirements {
        min_openness_percent: Some(99),
        ..Requirements::default()
    };
    let err = GameState::new(7, 80, 30, with(req, 25)).unwrap_err();
    match &err {
        GenerateError::RequirementsUnmet {
            seed,
            tries,
            requirement,
            failures,
            closest,
        } => {
            assert_eq!((*seed, *tries, *failures), (7, 25, 25));
            assert_eq!(*requirement, Requirement::MinOpenness);
            assert!(closest.contains("below the minimum 99%"), "{closest}");
        }
        other => panic!("unexpected {other:?}"),
    }
    let out = byog(&[
        "gen",
        "--seed",
        "7",
        "--min-openness",
        "99",
        "--max-tries",
        "25",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let msg = String::from_utf8_lossy(&out.stderr);
    assert!(
        msg.contains("seed 7")
            && msg.contains("--min-openness")
            && !msg.contains("min_openness_percent"),
        "{msg}"
    );
    assert!(msg.contains("25 tries") && msg.contains("closest"), "{msg}");
    // Contradictory or out-of-range requirements are refused before generating.
    for args in [
        &["gen", "--seed", "1", "--min-openness", "101"][..],
        &["gen", "--seed", "1", "--min-rooms", "9", "--max-rooms", "3"],
        &["gen", "--seed", "1", "--max-tries", "0"],
    ] {
        let out = byog(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn requirements_apply_to_replay_and_are_recorded_in_the_save() {
    let dir = tempfile::tempdir().unwrap();
    let flags = ["--min-exit-distance", "250"];
    let generated = byog(&["gen", "--seed", "3", flags[0], flags[1]]);
    let plain = byog(&["gen", "--seed", "3"]);
    assert_ne!(
        text(&generated),
        text(&plain),
        "seed 3 misses 250 on its first try"
    );
    let played = byog_in(dir.path(), &["N3S:Q", flags[0], flags[1]]);
    assert_eq!(text(&played), text(&generated));
    // Loading needs no flags: the save holds the settings.
    let loaded = byog_in(dir.path(), &["L"]);
    assert_eq!(text(&loaded), text(&generated));
}

#[test]
fn debug_views() {
    let mono = text(&byog(&["gen", "--seed", "42", "--view", "monochrome"]));
    assert!(
        mono.chars().all(|c| matches!(c, '.' | '#' | '\n')),
        "{mono}"
    );
    let plain = text(&byog(&["gen", "--seed", "42"]));
    for (m, p) in mono.chars().zip(plain.chars()) {
        assert_eq!(m == '.', p == '·' || p == '@');
    }
    let regions = text(&byog(&["gen", "--seed", "42", "--view", "regions"]));
    assert!(regions.contains('a') && regions.contains('·'));
    let dist = text(&byog(&["gen", "--seed", "42", "--view", "distance"]));
    assert!(dist.contains('0') && dist.contains('9') && !dist.contains('?'));
    let secl = text(&byog(&["gen", "--seed", "42", "--view", "seclusion"]));
    assert!(secl.contains('*'));
    // Piped output has no colour unless asked for.
    assert!(!regions.contains('\x1b'));
    let coloured = text(&byog(&[
        "gen", "--seed", "42", "--view", "regions", "--color", "always",
    ]));
    assert!(coloured.contains("\x1b[38;2;"));
    for view in ["plain", "monochrome", "regions", "distance", "seclusion"] {
        let t = text(&byog(&["gen", "--seed", "9", "--view", view]));
        assert_eq!(t.lines().count(), 30, "{view}");
        assert!(t.lines().all(|l| l.chars().count() == 80), "{view}");
    }
}

#[test]
fn gen_png_draws_the_world() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.png");
    let out = byog(&[
        "gen",
        "--seed",
        "1234",
        "--format",
        "none",
        "--png",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = image::open(&path).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (80 * 16, 30 * 16));
    let world = GameState::new(1234, 80, 30, GeneratorSettings::default()).unwrap();
    let text = world.world().to_string();
    for (row, line) in text.lines().enumerate() {
        for (x, c) in line.chars().enumerate() {
            let p = img.get_pixel(x as u32 * 16 + 1, row as u32 * 16 + 1).0;
            let wall = p[..3] == [64, 64, 64];
            assert_eq!(wall, c == '#', "cell ({x}, row {row})");
        }
    }
    let bad = byog(&["gen", "--seed", "1", "--png", "/nonexistent/dir/w.png"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("/nonexistent/dir/w.png"));
}
