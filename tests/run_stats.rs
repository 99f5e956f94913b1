//! `byog stats --run SEED` and `byog stats --runs A..B` (runs, `docs/runs.md`),
//! run as a user runs them and checked against values computed here from the library
//! (`floor::make`, `metrics::measure`). The measurements of `docs/runs.md` (how far
//! the solver's par route is from the best tour; the budget's slack and the regenerations over
//! 10,000 run seeds) are the players' `run_stats.rs`.

use crate::common;

use std::process::Output;

use common::{byog, stderr, stdout};

use byog_game::run::{FeatureKind, Floor, floor};
use byog_tile_engine::Tile;
use byog_worlds::generator::GeneratorSettings;
use byog_worlds::metrics::{self, NO_ROOM, room_ids};

/// Every floor of run `seed`, B1 first.
fn floors_of(seed: u64, floors: u32, width: usize, height: usize) -> Vec<Floor> {
    (1..=floors)
        .map(|depth| {
            floor::make(
                seed,
                depth,
                floors,
                width,
                height,
                &GeneratorSettings::default(),
            )
            .unwrap()
        })
        .collect()
}

fn count(f: &Floor, kind: FeatureKind) -> u64 {
    f.features.iter().filter(|x| x.kind == kind).count() as u64
}

/// The chests' room seclusions, worked out here: each chest's room id, that room's
/// seclusion from the metrics.
fn chest_seclusions(f: &Floor) -> Vec<u32> {
    let m = metrics::measure(&f.terrain, f.avatar, f.exit);
    let ids = room_ids(&f.terrain);
    let w = f.terrain.width();
    f.features
        .iter()
        .filter(|x| x.kind == FeatureKind::Chest)
        .filter_map(|x| {
            let id = ids[x.pos.y as usize * w + x.pos.x as usize];
            (id != NO_ROOM)
                .then(|| m.rooms[id as usize].seclusion)
                .flatten()
        })
        .collect()
}

fn open_tiles(f: &Floor) -> u64 {
    f.terrain
        .tiles()
        .iter()
        .filter(|&&t| t == Tile::Floor)
        .count() as u64
}

#[track_caller]
fn json(out: &Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    serde_json::from_str(stdout(out).trim_end()).expect("one JSON object")
}

/// JSON numbers are parsed back to within a unit in the last place (serde_json's default
/// parser does not round-trip every float exactly).
#[track_caller]
fn assert_close(got: &serde_json::Value, want: Option<f64>) {
    match (got.as_f64(), want) {
        (Some(g), Some(w)) => assert!((g - w).abs() <= w.abs() * 1e-12, "{g} != {w}"),
        (g, w) => assert_eq!(g, w),
    }
}

#[track_caller]
fn assert_usage_error(out: &Output, needles: &[&str]) {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    let err = stderr(out);
    for needle in needles {
        assert!(err.contains(needle), "{needle:?} in {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn one_run_table_and_json_match_the_library() {
    for (seed, floors, width, height) in [(42u64, 10u32, 80usize, 30usize), (7, 3, 61, 25)] {
        let made = floors_of(seed, floors, width, height);
        let flags = [
            "stats".to_owned(),
            "--run".to_owned(),
            seed.to_string(),
            "--floors".to_owned(),
            floors.to_string(),
            "--width".to_owned(),
            width.to_string(),
            "--height".to_owned(),
            height.to_string(),
        ];
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let v = json(&byog(&[&flags[..], &["--json"]].concat()));
        assert_eq!(v["seed"], seed);
        assert_eq!(v["floors"], floors);
        assert_eq!(v["width"], width);
        assert_eq!(v["height"], height);
        assert_eq!(v["generator"]["winding_percent"], 30);
        let rows = v["per_floor"].as_array().unwrap();
        assert_eq!(rows.len(), made.len());
        let table = stdout(&byog(&flags));
        assert!(
            table.starts_with(&format!(
                "run seed {seed}: {floors} floors of at most {width} × {height} tiles\n"
            )),
            "{table}"
        );
        for (k, (row, f)) in rows.iter().zip(&made).enumerate() {
            let depth = k as u32 + 1;
            let (w, h) = (f.terrain.width(), f.terrain.height());
            let (chests, traps) = (count(f, FeatureKind::Chest), count(f, FeatureKind::Trap));
            let open = open_tiles(f);
            let openness = open as f64 * 100.0 / (w * h) as f64;
            let slack = f.info.allowance as f64 * 100.0 / f.info.par as f64;
            let secl = chest_seclusions(f);
            let mean = (!secl.is_empty())
                .then(|| secl.iter().map(|&s| f64::from(s)).sum::<f64>() / secl.len() as f64);
            let max = secl.iter().copied().max();
            assert_eq!(row["floor"], depth);
            assert_eq!(row["width"], w);
            assert_eq!(row["height"], h);
            assert_eq!(row["chests"], chests);
            assert_eq!(row["traps"], traps);
            assert_eq!(row["par"], f.info.par);
            assert_eq!(row["allowance"], f.info.allowance);
            assert_eq!(row["direct"], f.info.direct);
            assert_eq!(row["attempt"], f.info.attempt);
            assert_eq!(row["open_tiles"], open);
            assert_close(&row["openness_percent"], Some(openness));
            assert_close(&row["slack_percent"], Some(slack));
            assert_close(&row["seclusion_mean"], mean);
            assert_eq!(row["seclusion_max"].as_u64(), max.map(u64::from));
            // The floor's own numbers hold together.
            assert!(f.info.par <= f.info.allowance && f.info.direct <= f.info.par);
            assert_eq!(f.info.allowance, f.info.par * f.params.budget_percent / 100);

            let line = table
                .lines()
                .find(|l| l.starts_with(&format!("B{depth} ")))
                .unwrap_or_else(|| panic!("no B{depth} row in {table}"));
            let cells: Vec<&str> = line.split_whitespace().collect();
            let expected = [
                format!("B{depth}"),
                w.to_string(),
                "×".to_owned(),
                h.to_string(),
                chests.to_string(),
                traps.to_string(),
                f.info.par.to_string(),
                f.info.allowance.to_string(),
                f.info.direct.to_string(),
                format!("{slack:.1}%"),
                f.info.attempt.to_string(),
                format!("{openness:.1}%"),
                mean.map_or("-".to_owned(), |m| format!("{m:.1}")),
                max.map_or("-".to_owned(), |m| m.to_string()),
            ];
            assert_eq!(cells, expected, "{line}");
        }
    }
}

/// Nearest rank, as `stats` summarises.
fn percentile(sorted: &[f64], p: usize) -> f64 {
    sorted[(p * sorted.len()).div_ceil(100).max(1) - 1]
}

#[test]
fn runs_summary_matches_the_library_and_any_thread_count() {
    let (first, last) = (0u64, 59u64);
    let one = byog(&["stats", "--runs", "0..60", "--json", "--threads", "1"]);
    let two = byog(&["stats", "--runs", "0..60", "--json", "--threads", "2"]);
    assert_eq!(stdout(&one), stdout(&two));
    let v = json(&one);
    let runs: Vec<Vec<Floor>> = (first..=last).map(|s| floors_of(s, 10, 80, 30)).collect();
    assert_eq!(v["runs"], 60);
    assert_eq!(v["failed"], 0);
    assert_eq!(v["floors_made"], 600);
    let mut regenerated_in_all = 0;
    for depth in 1..=10usize {
        let d = &v["depths"][depth - 1];
        let floors: Vec<&Floor> = runs.iter().map(|r| &r[depth - 1]).collect();
        assert_eq!(d["floor"], depth);
        assert_eq!(d["made"], 60);
        assert_eq!(d["width"], floors[0].terrain.width());
        let regenerated = floors.iter().filter(|f| f.info.attempt > 0).count();
        regenerated_in_all += regenerated;
        assert_eq!(d["regenerated"], regenerated);
        assert_eq!(
            d["max_attempt"],
            floors.iter().map(|f| f.info.attempt).max().unwrap()
        );
        let column = |value: &dyn Fn(&Floor) -> f64| {
            let mut v: Vec<f64> = floors.iter().map(|f| value(f)).collect();
            v.sort_by(f64::total_cmp);
            v
        };
        let checks: [(&str, Vec<f64>); 4] = [
            ("par", column(&|f| f.info.par as f64)),
            ("allowance", column(&|f| f.info.allowance as f64)),
            (
                "slack_percent",
                column(&|f| f.info.allowance as f64 * 100.0 / f.info.par as f64),
            ),
            ("traps", column(&|f| count(f, FeatureKind::Trap) as f64)),
        ];
        for (name, sorted) in checks {
            let s = &d["metrics"][name];
            assert_close(&s["min"], Some(sorted[0]));
            assert_close(&s["median"], Some(percentile(&sorted, 50)));
            assert_close(&s["p90"], Some(percentile(&sorted, 90)));
            assert_close(&s["max"], Some(sorted[59]));
        }
    }
    assert_eq!(v["regenerated"], regenerated_in_all);

    // The table says the same.
    let table = stdout(&byog(&["stats", "--runs", "0..60", "--threads", "2"]));
    assert!(
        table.contains(
            "runs 0..=59: 10 floors of at most 80 × 30 tiles each; 60 runs made, 0 failed"
        ),
        "{table}"
    );
    let mut pars: Vec<u64> = runs.iter().map(|r| r[0].info.par).collect();
    pars.sort_unstable();
    let b1 = table
        .split("\n\n")
        .find(|block| block.starts_with("B1 (47 × 17 tiles): 60 floors made"))
        .unwrap_or_else(|| panic!("{table}"));
    let par_line = b1.lines().find(|l| l.starts_with("par moves")).unwrap();
    let cells: Vec<&str> = par_line.split_whitespace().collect();
    let expected = [pars[0], pars[29], pars[53], pars[59]].map(|p| p.to_string());
    assert_eq!(&cells[2..], &expected[..], "{par_line}");
}

#[test]
fn run_flags_are_exclusive_with_seed_flags() {
    for args in [
        &["stats", "--run", "1", "--seed", "1"][..],
        &["stats", "--run", "1", "--seeds", "0..3"],
        &["stats", "--runs", "0..3", "--seed", "1"],
        &["stats", "--run", "1", "--runs", "0..3"],
    ] {
        let out = byog(args);
        assert_usage_error(&out, &[args[1], args[3]]);
    }
    assert_usage_error(&byog(&["stats"]), &["--run", "--seed"]);
}

#[test]
fn floors_out_of_range_exit_2_naming_the_flag() {
    for floors in ["0", "100", "-1"] {
        for what in [&["--run", "5"][..], &["--runs", "0..2"]] {
            let out = byog(&[&["stats"][..], what, &["--floors", floors]].concat());
            assert_usage_error(&out, &["--floors", "1..=99"]);
        }
    }
    // The bounds themselves are accepted.
    let one = json(&byog(&["stats", "--run", "5", "--floors", "1", "--json"]));
    assert_eq!(
        one["per_floor"][0]["width"], 79,
        "one floor is the last floor"
    );
}

#[test]
fn bad_run_input_exits_2_with_the_reason() {
    assert_usage_error(
        &byog(&["stats", "--runs", "0..100001"]),
        &["--runs", "100000"],
    );
    assert_usage_error(&byog(&["stats", "--runs", "5..5"]), &["--runs", "empty"]);
    assert_usage_error(
        &byog(&["stats", "--run", "9223372036854775808"]),
        &["--run", "9223372036854775807"],
    );
    assert_usage_error(
        &byog(&["stats", "--run", "1", "--format", "none"]),
        &["--format", "'none'"],
    );
    // A run that cannot be made: the reason, naming the run and the floor.
    let hard = ["--min-openness", "99", "--max-tries", "2"];
    let out = byog(&[&["stats", "--run", "3"][..], &hard].concat());
    assert_usage_error(&out, &["run seed 3: floor B1", "--min-openness"]);
    assert!(stdout(&out).is_empty());
    // A range: each failed run on stderr, the summary on stdout, exit 2 at the end.
    let out = byog(&[&["stats", "--runs", "0..3", "--json"][..], &hard].concat());
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    for seed in 0..3 {
        assert_eq!(
            err.matches(&format!("byog: error: run seed {seed}: floor B1"))
                .count(),
            1,
            "{err}"
        );
    }
    assert!(err.contains("none of the 3 runs could be made"), "{err}");
    assert!(!err.contains("3 of 3"), "{err}");
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim_end()).unwrap();
    assert_eq!(
        (v["runs"].as_u64(), v["failed"].as_u64()),
        (Some(0), Some(3))
    );
}

// The best tour, for `docs/runs.md`: how far the solver's par is from it.
