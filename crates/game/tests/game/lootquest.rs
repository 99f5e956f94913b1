//! LootQuest dungeons (`--generator lootquest`, docs/lootquest.md), checked by an independent
//! checker: its own room graph read from the printed tiles (`to_string`) and the rooms the
//! generator reports (`gen --json`'s `rooms`), its own breadth-first searches. Over random
//! parameter sets and seeds: the critical path is the one asked (or generation fails with
//! the LootQuest error, exit 2 on the command line), no dead end is longer than allowed, the
//! room count is met whenever the critical path and the dead-end limit allow it in a roomy
//! world, every open tile is reachable, the avatar stands in the first room and the exit is
//! set into the last room of the critical path.
//!
//! `cargo test --test main -- lootquest::` checks 100 parameter sets; the 1,000 of the issue run with
//! `cargo test --release --test main -- --ignored lootquest::` (docs/lootquest.md).

use std::collections::{BTreeSet, VecDeque};
use std::process::Command;

use byog::core::generator::lootquest::{LootQuestSettings, TRIES_PER_LEVEL, Work};
use byog::core::generator::{
    self, GenerateError, GeneratorKind, GeneratorSettings, RoomRect, lootquest,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

fn settings(l: LootQuestSettings) -> GeneratorSettings {
    GeneratorSettings {
        generator: GeneratorKind::LootQuest,
        lootquest: l,
        ..GeneratorSettings::default()
    }
}

/// The printed world as characters, `cells[y][x]` with y up (row 0 of the text is the top).
struct Printed {
    w: i32,
    h: i32,
    cells: Vec<Vec<char>>,
}

impl Printed {
    fn parse(text: &str) -> Printed {
        let mut cells: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
        cells.reverse();
        Printed {
            w: cells[0].len() as i32,
            h: cells.len() as i32,
            cells,
        }
    }
    fn at(&self, x: i32, y: i32) -> char {
        if x < 0 || y < 0 || x >= self.w || y >= self.h {
            ' '
        } else {
            self.cells[y as usize][x as usize]
        }
    }
    fn open(&self, x: i32, y: i32) -> bool {
        matches!(self.at(x, y), '·' | '@')
    }
    fn find(&self, c: char) -> Vec<(i32, i32)> {
        let mut v = Vec::new();
        for y in 0..self.h {
            for x in 0..self.w {
                if self.at(x, y) == c {
                    v.push((x, y));
                }
            }
        }
        v
    }
}

fn around((x, y): (i32, i32)) -> [(i32, i32); 4] {
    [(x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)]
}

/// Labels the 4-connected components of the tiles `member` holds: a label a tile (`None`
/// outside) and the count.
fn components(p: &Printed, member: &dyn Fn(i32, i32) -> bool) -> (Vec<Option<usize>>, usize) {
    let mut label = vec![None; (p.w * p.h) as usize];
    let mut n = 0;
    for y in 0..p.h {
        for x in 0..p.w {
            if !member(x, y) || label[(y * p.w + x) as usize].is_some() {
                continue;
            }
            let mut stack = vec![(x, y)];
            label[(y * p.w + x) as usize] = Some(n);
            while let Some(t) = stack.pop() {
                for (a, b) in around(t) {
                    if a >= 0 && b >= 0 && a < p.w && b < p.h && member(a, b) {
                        let i = (b * p.w + a) as usize;
                        if label[i].is_none() {
                            label[i] = Some(n);
                            stack.push((a, b));
                        }
                    }
                }
            }
            n += 1;
        }
    }
    (label, n)
}

/// What the checker reads from a printed dungeon.
#[derive(Debug)]
struct Read {
    rooms: usize,
    critical_path: u32,
    max_dead_end: u32,
    all_reachable: bool,
    avatar_room_is_first: bool,
    exit_room_is_last: bool,
}

/// The independent checker: rooms are components of open tiles inside a 3 × 3 block of open
/// tiles; two rooms are joined when a component of the other open tiles (a corridor) touches
/// both; hops between rooms by BFS.
fn check(text: &str, reported: &[RoomRect], critical_path: u32) -> Read {
    let p = Printed::parse(text);
    let block =
        |cx: i32, cy: i32| (cx - 1..=cx + 1).all(|x| (cy - 1..=cy + 1).all(|y| p.open(x, y)));
    let is_room = |x: i32, y: i32| {
        p.open(x, y) && (x - 1..=x + 1).any(|cx| (y - 1..=y + 1).any(|cy| block(cx, cy)))
    };
    let (room, rooms) = components(&p, &is_room);
    let (corridor, corridors) = components(&p, &|x, y| p.open(x, y) && !is_room(x, y));
    let idx = |(x, y): (i32, i32)| (y * p.w + x) as usize;
    // Room adjacency through corridors.
    let mut touches: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); corridors];
    for y in 0..p.h {
        for x in 0..p.w {
            if let Some(c) = corridor[idx((x, y))] {
                for (a, b) in around((x, y)) {
                    if p.open(a, b)
                        && let Some(r) = room[idx((a, b))]
                    {
                        touches[c].insert(r);
                    }
                }
            }
        }
    }
    let mut adj: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); rooms];
    for t in &touches {
        for &a in t {
            for &b in t {
                if a != b {
                    adj[a].insert(b);
                }
            }
        }
    }
    let hops = |from: &[usize]| {
        let mut d = vec![u32::MAX; rooms];
        let mut q = VecDeque::new();
        for &f in from {
            d[f] = 0;
            q.push_back(f);
        }
        while let Some(r) = q.pop_front() {
            for &n in &adj[r] {
                if d[n] == u32::MAX {
                    d[n] = d[r] + 1;
                    q.push_back(n);
                }
            }
        }
        d
    };
    let avatar = p.find('@')[0];
    let exits = p.find('█');
    assert_eq!(exits.len(), 1, "one exit door\n{text}");
    let exit = exits[0];
    let beside: Vec<(i32, i32)> = around(exit)
        .into_iter()
        .filter(|&(x, y)| p.open(x, y))
        .collect();
    assert_eq!(
        beside.len(),
        1,
        "the exit is set into an outer wall\n{text}"
    );
    let start_room = room[idx(avatar)].expect("the avatar stands in a room");
    let exit_room = room[idx(beside[0])].expect("the exit opens into a room");
    let from_start = hops(&[start_room]);
    let from_exit = hops(&[exit_room]);
    let path_hops = from_start[exit_room];
    let on_path: Vec<usize> = (0..rooms)
        .filter(|&r| {
            from_start[r] != u32::MAX
                && from_exit[r] != u32::MAX
                && from_start[r] + from_exit[r] == path_hops
        })
        .collect();
    let away = hops(&on_path);
    // Every open tile reachable from the avatar, by BFS over tiles.
    let mut seen = vec![false; (p.w * p.h) as usize];
    let mut q = VecDeque::from([avatar]);
    seen[idx(avatar)] = true;
    while let Some(t) = q.pop_front() {
        for n in around(t) {
            if p.open(n.0, n.1) && !seen[idx(n)] {
                seen[idx(n)] = true;
                q.push_back(n);
            }
        }
    }
    let all_reachable = (0..p.h).all(|y| (0..p.w).all(|x| !p.open(x, y) || seen[idx((x, y))]));
    let inside = |r: &RoomRect, (x, y): (i32, i32)| {
        x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
    };
    Read {
        rooms,
        critical_path: path_hops.saturating_add(1),
        max_dead_end: away
            .iter()
            .copied()
            .filter(|&d| d != u32::MAX)
            .max()
            .unwrap_or(0),
        all_reachable,
        avatar_room_is_first: inside(&reported[0], avatar),
        exit_room_is_last: inside(&reported[critical_path as usize - 1], beside[0]),
    }
}

/// A random parameter set and world size, drawn from `rng`.
fn random_case(rng: &mut Pcg64) -> (LootQuestSettings, usize, usize) {
    let size_min = rng.random_range(3..=9u32);
    let spacing_min = rng.random_range(1..=5u32);
    let l = LootQuestSettings {
        rooms: rng.random_range(1..=20),
        critical_path: rng.random_range(1..=12),
        max_dead_end: rng.random_range(0..=4),
        room_size_min: size_min,
        room_size_max: rng.random_range(size_min..=size_min + 4),
        room_spacing_min: spacing_min,
        room_spacing_max: rng.random_range(spacing_min..=spacing_min + 4),
        loops_percent: rng.random_range(0..=100),
    };
    let w = rng.random_range(30..=100usize);
    let h = rng.random_range(15..=45usize);
    (l, w, h)
}

/// The rooms a graph can hold: every room asked when there may be branches, else the
/// critical path alone.
fn rooms_possible(l: &LootQuestSettings) -> u32 {
    if l.max_dead_end == 0 {
        l.critical_path
    } else {
        l.rooms.max(l.critical_path)
    }
}

/// Whether the world is roomy for these rooms: their largest footprints (room, corridor,
/// wall) cover at most a sixth of it.
fn roomy(l: &LootQuestSettings, w: usize, h: usize) -> bool {
    let side = u64::from(l.room_size_max + l.room_spacing_max + 1);
    u64::from(rooms_possible(l)) * side * side * 6 <= (w * h) as u64
}

/// Checks `cases` random parameter sets, a few seeds each; returns (made, failed).
fn check_cases(cases: u32, seeds_per_case: u64) -> (u32, u32) {
    let mut rng = Pcg64::seed_from_u64(22);
    let (mut made, mut failed) = (0, 0);
    for case in 0..cases {
        let (l, w, h) = random_case(&mut rng);
        for seed in 0..seeds_per_case {
            let seed = u64::from(case) * 1000 + seed;
            match generator::generate_for_seed(seed, w, h, &settings(l)) {
                Ok(g) => {
                    made += 1;
                    let text = g.level.world.to_string();
                    let read = check(&text, &g.level.rooms, l.critical_path);
                    let what = format!("seed {seed}, {w} × {h}, {l:?}\n{text}");
                    assert_eq!(read.critical_path, l.critical_path, "{what}");
                    assert!(read.max_dead_end <= l.max_dead_end, "{read:?} {what}");
                    assert!(read.all_reachable, "{what}");
                    assert!(read.avatar_room_is_first, "{what}");
                    assert!(read.exit_room_is_last, "{what}");
                    assert_eq!(read.rooms, g.level.rooms.len(), "{what}");
                    assert!(read.rooms as u32 <= rooms_possible(&l), "{what}");
                    assert!(read.rooms as u32 >= l.critical_path, "{what}");
                    if roomy(&l, w, h) {
                        assert_eq!(read.rooms as u32, rooms_possible(&l), "{what}");
                    }
                }
                Err(GenerateError::LootQuestUnmet { critical_path, .. }) => {
                    assert_eq!(critical_path, l.critical_path);
                    assert!(
                        !roomy(&l, w, h),
                        "a roomy world failed: seed {seed}, {w} × {h}, {l:?}"
                    );
                    failed += 1;
                }
                Err(e) => panic!("seed {seed}, {w} × {h}, {l:?}: {e}"),
            }
        }
    }
    (made, failed)
}

#[test]
fn the_checker_agrees_on_random_parameter_sets() {
    let (made, failed) = check_cases(100, 2);
    assert!(
        made > 100,
        "most cases make a dungeon ({made} made, {failed} failed)"
    );
}

/// The 1,000 parameter sets: `cargo test --release --test main -- --ignored lootquest::`.
#[test]
#[ignore = "1,000 parameter sets: run with --release -- --ignored (docs/lootquest.md)"]
fn the_checker_agrees_on_a_thousand_parameter_sets() {
    let (made, failed) = check_cases(1000, 3);
    eprintln!(
        "{made} dungeons checked, {failed} refused with the LootQuest error (of 3,000 parameter sets and seeds)"
    );
}

#[test]
fn the_critical_path_wins_over_the_room_count() {
    // No branches allowed: the dungeon is its critical path, whatever the room count.
    let l = LootQuestSettings {
        rooms: 12,
        critical_path: 6,
        max_dead_end: 0,
        ..LootQuestSettings::default()
    };
    let g = generator::generate_for_seed(5, 80, 30, &settings(l)).unwrap();
    let read = check(&g.level.world.to_string(), &g.level.rooms, 6);
    assert_eq!(
        (read.rooms, read.critical_path, read.max_dead_end),
        (6, 6, 0)
    );
    // More rooms on the path than asked in all: the path is kept.
    let l = LootQuestSettings {
        rooms: 2,
        critical_path: 4,
        ..LootQuestSettings::default()
    };
    let g = generator::generate_for_seed(5, 80, 30, &settings(l)).unwrap();
    assert_eq!(
        check(&g.level.world.to_string(), &g.level.rooms, 4).critical_path,
        4
    );
}

#[test]
fn an_impossible_critical_path_names_the_numbers_and_what_fits() {
    let l = LootQuestSettings {
        critical_path: 40,
        ..LootQuestSettings::default()
    };
    let e = generator::generate_for_seed(1, 80, 30, &settings(l)).unwrap_err();
    let text = e.to_string();
    assert!(matches!(e, GenerateError::LootQuestUnmet { tries, .. } if tries == TRIES_PER_LEVEL));
    assert!(
        text.contains("critical path of 40 rooms") && text.contains("80 × 30"),
        "{text}"
    );
    assert!(
        text.contains("the longest critical path placed was"),
        "{text}"
    );
    // Caught before any tile: a path that cannot fit even at the smallest rooms.
    let l = LootQuestSettings {
        critical_path: 100,
        room_size_min: 9,
        room_size_max: 9,
        ..LootQuestSettings::default()
    };
    let e = generator::generate_for_seed(1, 80, 30, &settings(l)).unwrap_err();
    assert!(
        matches!(e, GenerateError::LootQuestUnmet { tries: 0, .. }),
        "{e}"
    );
}

#[test]
fn rooms_and_mazes_stays_the_default_and_unchanged() {
    // The LootQuest flags change nothing unless --generator lootquest is given.
    let plain = generator::generate_for_seed(7, 80, 30, &GeneratorSettings::default()).unwrap();
    let with_flags = GeneratorSettings {
        lootquest: LootQuestSettings {
            rooms: 3,
            ..LootQuestSettings::default()
        },
        ..GeneratorSettings::default()
    };
    let again = generator::generate_for_seed(7, 80, 30, &with_flags).unwrap();
    assert_eq!(plain.level, again.level);
}

// ---------------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------------

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
fn the_version_5_fixture_is_a_lootquest_game() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/v5-n42s-lootquest.bin");
    let bytes = std::fs::read(&path).unwrap();
    let game = byog::core::save::decode(&bytes, &path).unwrap();
    let s = game.settings();
    assert_eq!(s.generator, GeneratorKind::LootQuest);
    assert_eq!((s.lootquest.rooms, s.lootquest.critical_path), (8, 5));
    assert_eq!(
        (s.lootquest.room_size_min, s.lootquest.room_size_max),
        (4, 8)
    );
    assert_eq!(s.lootquest.loops_percent, 30);
    let keys = std::fs::read_to_string(path.with_extension("keys")).unwrap();
    assert_eq!(game.history(), keys.trim());
}

// ---------------------------------------------------------------------------------------------
// No panic and bounded work for any accepted parameters
// ---------------------------------------------------------------------------------------------

fn any_settings() -> impl Strategy<Value = LootQuestSettings> {
    (
        1u32..=100,
        1u32..=100,
        0u32..=100,
        (3u32..=25, 3u32..=25),
        (1u32..=20, 1u32..=20),
        0u32..=100,
    )
        .prop_map(
            |(rooms, critical_path, max_dead_end, (a, b), (c, d), loops)| LootQuestSettings {
                rooms,
                critical_path,
                max_dead_end,
                room_size_min: a.min(b),
                room_size_max: a.max(b),
                room_spacing_min: c.min(d),
                room_spacing_max: c.max(d),
                loops_percent: loops,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any accepted parameters and size: a dungeon or the LootQuest error, never a panic,
    /// and the tries counted stay within their bounds.
    #[test]
    fn any_accepted_parameters_end_in_bounded_tries(
        l in any_settings(),
        seed in any::<u64>(),
        w in 5usize..=120,
        h in 5usize..=60,
    ) {
        prop_assert!(l.validate().is_ok());
        let mut work = Work::default();
        let made = lootquest::generate_counted(&mut Pcg64::seed_from_u64(seed), w, h, &l, &mut work);
        prop_assert!(work.layouts <= TRIES_PER_LEVEL);
        prop_assert!(work.spots <= Work::most_spots(l.rooms.max(l.critical_path)));
        match made {
            Ok(level) => {
                let read = check(&level.world.to_string(), &level.rooms, l.critical_path);
                prop_assert_eq!(read.critical_path, l.critical_path);
                prop_assert!(read.max_dead_end <= l.max_dead_end);
            }
            Err(e) => prop_assert!(matches!(e, GenerateError::LootQuestUnmet { .. }), "{}", e),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Snapshots: LootQuest worlds locked, text and JSON (`snapshots/lootquest_*.snap`)
// ---------------------------------------------------------------------------------------------

/// Parameter sets with locked worlds: the defaults, a long path without branches, many small
/// rooms with deep branches and loops, large rooms.
fn snapshot_cases() -> Vec<(&'static str, LootQuestSettings, usize, usize)> {
    let d = LootQuestSettings::default();
    vec![
        ("default", d, 80, 30),
        (
            "path_9_no_branches",
            LootQuestSettings {
                rooms: 9,
                critical_path: 9,
                max_dead_end: 0,
                room_size_min: 3,
                room_size_max: 7,
                ..d
            },
            80,
            30,
        ),
        (
            "rooms_16_deep_loops",
            LootQuestSettings {
                rooms: 16,
                critical_path: 4,
                max_dead_end: 3,
                room_size_min: 3,
                room_size_max: 6,
                room_spacing_min: 1,
                room_spacing_max: 4,
                loops_percent: 100,
            },
            80,
            30,
        ),
        (
            "large_rooms",
            LootQuestSettings {
                rooms: 6,
                critical_path: 3,
                max_dead_end: 1,
                room_size_min: 9,
                room_size_max: 13,
                ..d
            },
            100,
            40,
        ),
    ]
}

#[test]
fn lootquest_worlds_are_locked() {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s.bind(|| {
        for (name, l, w, h) in snapshot_cases() {
            for seed in [1u64, 42] {
                let g = generator::generate_for_seed(seed, w, h, &settings(l)).unwrap();
                let world = g.level.world.to_string();
                let rooms: Vec<serde_json::Value> = g
                    .level
                    .rooms
                    .iter()
                    .map(|r| serde_json::json!({"x": r.x, "y": r.y, "width": r.width, "height": r.height}))
                    .collect();
                let m = byog::core::metrics::measure(&g.level.world, g.level.avatar, g.level.exit);
                let json = serde_json::json!({
                    "avatar": [g.level.avatar.x, g.level.avatar.y],
                    "exit": [g.level.exit.x, g.level.exit.y],
                    "rooms": rooms,
                    "critical_path": m.critical_path,
                    "max_dead_end": m.max_dead_end,
                    "room_count": m.room_count,
                    "loops": m.loops,
                });
                insta::assert_snapshot!(
                    format!("lootquest_{name}_seed_{seed}"),
                    format!("{w} × {h}, {l:?}\n{world}")
                );
                insta::assert_snapshot!(
                    format!("lootquest_{name}_seed_{seed}_json"),
                    serde_json::to_string_pretty(&json).unwrap()
                );
            }
        }
    });
}

// ---------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------

#[test]
fn lootquest_run_floors_put_chests_in_dead_end_rooms_and_stay_solvable() {
    use byog::core::metrics::{NO_ROOM, room_ids, room_paths};
    use byog::core::run::{FeatureKind, floor};
    let s = settings(LootQuestSettings {
        rooms: 10,
        critical_path: 4,
        max_dead_end: 2,
        room_size_min: 4,
        room_size_max: 7,
        ..LootQuestSettings::default()
    });
    for seed in 0..4u64 {
        for depth in [1u32, 5, 10] {
            let f = floor::make(seed, depth, 10, 80, 30, &s).unwrap();
            assert!(floor::is_solvable(
                &f.terrain,
                f.avatar,
                f.exit,
                &f.features
            ));
            let paths = room_paths(&f.terrain, f.avatar, f.exit);
            assert_eq!(
                paths.critical_path, 4,
                "seed {seed} B{depth}\n{}",
                f.terrain
            );
            let ids = room_ids(&f.terrain);
            let branch_rooms = paths
                .dead_end
                .iter()
                .filter(|d| d.is_some_and(|d| d > 0))
                .count();
            let chests: Vec<u32> = f
                .features
                .iter()
                .filter(|c| c.kind == FeatureKind::Chest)
                .map(|c| ids[f.terrain.index(c.pos)])
                .collect();
            assert!(chests.iter().all(|&r| r != NO_ROOM));
            // One chest a room, the dead-end rooms first.
            let in_branch = chests
                .iter()
                .filter(|&&r| paths.dead_end[r as usize].is_some_and(|d| d > 0))
                .count();
            assert_eq!(
                in_branch,
                chests.len().min(branch_rooms),
                "seed {seed} B{depth}: chests in dead-end rooms"
            );
        }
    }
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
