//! `byog stats --run SEED` and `byog stats --runs A..B` (runs, `docs/runs.md`),
//! run as a user runs them and checked against values computed here from the library
//! (`floor::make`, `metrics::measure`). The `#[ignore]`d tests at the end are the measurements
//! of `docs/runs.md` (how far the solver's par route is from the best tour; the budget's slack
//! and the regenerations over 10,000 run seeds); rerun them with
//! `cargo test --release --test main -- --ignored --nocapture run_stats::`.

use crate::common;

use std::collections::VecDeque;
use std::process::Output;

use common::{byog, stderr, stdout};

use byog_game::run::route::Router;
use byog_game::run::{FeatureKind, Floor, floor};
use byog_tile_engine::{Pos, Tile};
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

/// One floor's distances, worked out here apart from the solver with the same rules: walk
/// over floor tiles that hold no trap, enter a trap (only as a target) or the exit door from a
/// neighbour. Points: 0 the start, then each feature.
struct Distances {
    /// `leg[a][b]`: moves from point `a` into point `b`.
    leg: Vec<Vec<u64>>,
    /// `exit[a]`: moves from point `a` into the exit.
    exit: Vec<u64>,
}

fn distances(f: &Floor) -> Distances {
    let (w, h) = (f.terrain.width() as i32, f.terrain.height() as i32);
    let idx = |p: Pos| (p.y * w + p.x) as usize;
    let inside = |p: Pos| p.x >= 0 && p.y >= 0 && p.x < w && p.y < h;
    let mut safe: Vec<bool> = f
        .terrain
        .tiles()
        .iter()
        .map(|&t| t == Tile::Floor)
        .collect();
    for x in f.features.iter().filter(|x| x.kind == FeatureKind::Trap) {
        safe[idx(x.pos)] = false;
    }
    let points: Vec<Pos> = std::iter::once(f.avatar)
        .chain(f.features.iter().map(|x| x.pos))
        .collect();
    let steps = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut leg = Vec::new();
    let mut exit = Vec::new();
    for &from in &points {
        let mut d = vec![u64::MAX; (w * h) as usize];
        d[idx(from)] = 0;
        let mut queue = VecDeque::from([from]);
        while let Some(p) = queue.pop_front() {
            for (dx, dy) in steps {
                let n = Pos::new(p.x + dx, p.y + dy);
                if inside(n) && safe[idx(n)] && d[idx(n)] == u64::MAX {
                    d[idx(n)] = d[idx(p)] + 1;
                    queue.push_back(n);
                }
            }
        }
        let into = |to: Pos| {
            if safe[idx(to)] && d[idx(to)] != u64::MAX {
                return d[idx(to)];
            }
            steps
                .iter()
                .map(|&(dx, dy)| Pos::new(to.x + dx, to.y + dy))
                .filter(|&n| inside(n) && d[idx(n)] != u64::MAX)
                .map(|n| d[idx(n)] + 1)
                .min()
                .unwrap_or(u64::MAX)
        };
        leg.push(points.iter().map(|&to| into(to)).collect());
        exit.push(into(f.exit));
    }
    Distances { leg, exit }
}

/// The best tour by trying every order (branch and bound over the orders).
fn brute_force(d: &Distances) -> u64 {
    fn go(d: &Distances, at: usize, left: &mut Vec<usize>, walked: u64, best: &mut u64) {
        if walked >= *best {
            return;
        }
        if left.is_empty() {
            *best = (*best).min(walked + d.exit[at]);
            return;
        }
        for k in 0..left.len() {
            let next = left.swap_remove(k);
            go(d, next, left, walked + d.leg[at][next], best);
            left.push(next);
            let last = left.len() - 1;
            left.swap(k, last);
        }
    }
    let mut left: Vec<usize> = (1..d.exit.len()).collect();
    let mut best = u64::MAX;
    go(d, 0, &mut left, 0, &mut best);
    best
}

/// The best tour by Held-Karp (`2ⁿ n²`), for every floor size.
fn held_karp(d: &Distances) -> u64 {
    let n = d.exit.len() - 1;
    if n == 0 {
        return d.exit[0];
    }
    let full = (1usize << n) - 1;
    // best[set × n + j]: from the start through every feature of `set`, ending at j (in set).
    let mut best = vec![u64::MAX; (full + 1) * n];
    for j in 0..n {
        best[(1 << j) * n + j] = d.leg[0][j + 1];
    }
    for set in 1..=full {
        for j in (0..n).filter(|&j| set & (1 << j) != 0) {
            let here = best[set * n + j];
            if here == u64::MAX {
                continue;
            }
            for k in (0..n).filter(|&k| set & (1 << k) == 0) {
                let next = (set | (1 << k)) * n + k;
                best[next] = best[next].min(here + d.leg[j + 1][k + 1]);
            }
        }
    }
    (0..n)
        .map(|j| best[full * n + j].saturating_add(d.exit[j + 1]))
        .min()
        .unwrap()
}

#[test]
#[ignore = "a measurement for docs/runs.md: cargo test --release --test main -- --ignored --nocapture run_stats::"]
fn solver_par_against_the_best_tour() {
    const FLOORS: u64 = 200;
    println!(
        "depth  features  floors  optimal  mean excess  mean excess %  max excess  max excess %"
    );
    for depth in 1..=10u32 {
        let (mut optimal, mut excess, mut relative, mut worst, mut worst_rel) =
            (0u64, 0u64, 0f64, 0u64, 0f64);
        let mut features = Vec::new();
        for seed in 0..FLOORS {
            let f = floor::make(seed, depth, 10, 80, 30, &GeneratorSettings::default()).unwrap();
            features.push(f.features.len());
            let d = distances(&f);
            // This oracle agrees with the solver: the solver's own order costs its par here.
            let plan = Router::new(&f.terrain, &f.features, f.avatar, f.exit, true).plan();
            let mut at = 0;
            let mut walked = 0;
            for &t in &plan.order {
                walked += d.leg[at][t + 1];
                at = t + 1;
            }
            assert_eq!(walked + d.exit[at], f.info.par, "seed {seed} B{depth}");
            let best = held_karp(&d);
            if f.features.len() <= 8 {
                assert_eq!(brute_force(&d), best, "seed {seed} B{depth}");
            }
            assert!(best <= f.info.par);
            let over = f.info.par - best;
            optimal += u64::from(over == 0);
            excess += over;
            relative += over as f64 * 100.0 / best as f64;
            worst = worst.max(over);
            worst_rel = worst_rel.max(over as f64 * 100.0 / best as f64);
        }
        features.sort_unstable();
        features.dedup();
        println!(
            "B{depth:<4}  {:>8}  {FLOORS:>6}  {optimal:>7}  {:>11.2}  {:>12.2}%  {worst:>10}  {worst_rel:>11.1}%",
            format!("{features:?}"),
            excess as f64 / FLOORS as f64,
            relative / FLOORS as f64,
        );
    }
}

#[test]
#[ignore = "a measurement for docs/runs.md: cargo test --release --test main -- --ignored --nocapture run_stats::"]
fn slack_and_regeneration_over_run_seeds() {
    const RUNS: u64 = 10_000;
    const BELOW: [f64; 4] = [105.0, 110.0, 125.0, 150.0];
    let mut below = [[0u64; BELOW.len()]; 10];
    let mut tries = [[0u64; 5]; 10];
    let mut runs_regenerated = 0;
    for seed in 0..RUNS {
        let mut regenerated = false;
        for (k, f) in floors_of(seed, 10, 80, 30).iter().enumerate() {
            let slack = f.info.allowance as f64 * 100.0 / f.info.par as f64;
            for (n, &limit) in below[k].iter_mut().zip(&BELOW) {
                *n += u64::from(slack < limit);
            }
            tries[k][(f.info.attempt as usize).min(4)] += 1;
            regenerated |= f.info.attempt > 0;
        }
        runs_regenerated += u64::from(regenerated);
    }
    println!("run seeds 0..{RUNS}: {runs_regenerated} runs had a floor regenerated");
    println!("depth  slack <105%  <110%  <125%  <150%   accepted on try 0 / 1 / 2 / 3 / 4+");
    for k in 0..10 {
        let share = |n: u64| format!("{:.1}%", n as f64 * 100.0 / RUNS as f64);
        println!(
            "B{:<4}  {:>11}  {:>5}  {:>5}  {:>5}   {:?}",
            k + 1,
            share(below[k][0]),
            share(below[k][1]),
            share(below[k][2]),
            share(below[k][3]),
            tries[k]
        );
    }
}
