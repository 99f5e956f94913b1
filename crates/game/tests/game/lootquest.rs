//! LootQuest dungeons (`--generator lootquest`, docs/lootquest.md), checked by an independent
//! checker: its own room graph read from the printed tiles (`to_string`) and the rooms the
//! generator reports (`gen --json`'s `rooms`), its own breadth-first searches. Over random
//! parameter sets and seeds: the critical path is the one asked (or generation fails with
//! the LootQuest error, exit 2 on the command line), no dead end is longer than allowed, the
//! room count is met whenever the critical path and the dead-end limit allow it in a roomy
//! world, every open tile is reachable, the avatar stands in the first room and the exit is
//! set into the last room of the critical path.
//!
//! `cargo test -p byog-game --test game -- lootquest::` checks 100 parameter sets; the 1,000 of the issue run with
//! `cargo test --release -p byog-game --test game -- --ignored lootquest::` (docs/lootquest.md).

use byog_worlds::generator::lootquest::{LootQuestSettings, TRIES_PER_LEVEL, Work};
use byog_worlds::generator::{self, GenerateError, GeneratorKind, GeneratorSettings, lootquest};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use crate::lootquest_checker::check;

fn settings(l: LootQuestSettings) -> GeneratorSettings {
    GeneratorSettings {
        generator: GeneratorKind::LootQuest,
        lootquest: l,
        ..GeneratorSettings::default()
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

/// The 1,000 parameter sets: `cargo test --release -p byog-game --test game -- --ignored lootquest::`.
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

#[test]
fn the_version_5_fixture_is_a_lootquest_game() {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/v5-n42s-lootquest.bin"
    ));
    let bytes = std::fs::read(path).unwrap();
    let game = byog_game::save::decode(&bytes, path).unwrap();
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
    s.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
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
                let m = byog_worlds::metrics::measure(&g.level.world, g.level.avatar, g.level.exit);
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
    use byog_game::run::{FeatureKind, floor};
    use byog_worlds::metrics::{NO_ROOM, room_ids, room_paths};
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
