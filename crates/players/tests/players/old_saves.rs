//! Old saves checked through the players: format 2's run fixture loads mid-run and the
//! solver's keys from it win the run; each exploration fixture loads into the JSON state
//! (the players' `json::game_state`) it was saved in. The save formats' own tests are the
//! game's (`crates/game/tests/game/saves.rs`); the helpers both use are the game's common
//! test helpers.

use std::fs;
use std::path::{Path, PathBuf};

use byog_game::save;
use byog_game::{GameState, LevelStatus};
use byog_worlds::generator::GeneratorSettings;

use crate::common::{assert_same_play, fixtures, read};

/// Every fixture save (`v<version>-<what>.bin`), sorted by name.
fn fixture_saves() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    found.sort();
    found
}

/// The JSON state (`byog replay KEYS --format json`, docs/json.md) an exploration fixture
/// `v<version>-<what>.bin` was saved in, from `v<version>-<what>.json` beside it: written by
/// the build of the rules the save was made under (rules version 4, commit 752791f, replaying
/// the fixture's `.keys`, with `--no-monsters` for the saves from before monsters), an
/// oracle independent of today's rules and of today's loading code.
fn saved_state(path: &Path) -> serde_json::Value {
    let golden = path.with_extension("json");
    let text = fs::read_to_string(&golden).unwrap_or_else(|_| {
        panic!(
            "exploration fixture {} has no {} with the state it was saved in",
            path.display(),
            golden.display()
        )
    });
    serde_json::from_str(&text).unwrap()
}

/// A game as the interpreter plays it from an input string (the way a player made the
/// fixture).
fn replayed(input: &str, width: usize, height: usize, settings: GeneratorSettings) -> GameState {
    // Explorations as the fixtures before format 5 were saved, before monsters: without them.
    replayed_with(input, width, height, settings, false)
}

/// [`replayed`], explorations with monsters when `monsters`.
fn replayed_with(
    input: &str,
    width: usize,
    height: usize,
    settings: GeneratorSettings,
    monsters: bool,
) -> GameState {
    let mut interpreter = byog_game::Interpreter::new(width, height, settings).with_explore(
        byog_game::explore::ExploreSettings {
            monsters,
            ..Default::default()
        },
    );
    byog_game::replay::replay(
        &mut interpreter,
        input,
        &mut save::MemoryStore::default(),
        true,
        &mut |_| {},
    )
    .unwrap();
    interpreter.into_game().unwrap()
}

#[test]
fn a_version_2_run_fixture_loads_mid_run_and_can_still_be_won() {
    // v2-r7s-b2.bin: `R7S` and the first 200 keys of `byog solve R7S`, then `:Q`: on B2 with
    // some features handled.
    let path = fixtures().join("v2-r7s-b2.bin");
    let game = save::decode(&read(&path), &path).unwrap();
    let keys = fs::read_to_string(path.with_extension("keys")).unwrap();
    assert_eq!(game.history(), keys.trim());
    let run = *game.run().expect("a run");
    assert_eq!((run.floor, run.floors), (2, 10));
    assert!(game.features().iter().any(|f| f.handled));
    assert!(game.features().iter().any(|f| !f.handled));
    let fresh = replayed(keys.trim(), 80, 30, GeneratorSettings::default());
    assert_same_play(&fresh, &game, "v2-r7s-b2");
    // The solver's keys from the loaded game win the run.
    let solution = byog_players::solver::solve(&game).unwrap();
    let mut going = game.clone();
    for &action in &solution {
        going.apply(action);
    }
    assert_eq!(going.status(), LevelStatus::Won);
    // Format 2 keeps no seclusion (format 8 does): on load the floor is made again, so the
    // features handled on B2 after loading pay the points the replayed game pays, by their
    // seclusion (a chest 20 and a trap 30 on B2 by the way, more off it).
    let b2_points = |start: &GameState| {
        let mut g = start.clone();
        let mut points = Vec::new();
        for &action in &solution {
            if g.run().unwrap().floor != 2 {
                break;
            }
            for e in g.apply(action).as_slice() {
                if let byog_game::Event::Earned { points: p, .. } = e {
                    points.push(*p);
                }
            }
        }
        points
    };
    let (loaded, again) = (b2_points(&game), b2_points(&fresh));
    assert_eq!(loaded, again);
    assert!(loaded.iter().any(|&p| p != 20 && p != 30), "{loaded:?}");
}

#[test]
fn every_exploration_fixture_loads_into_the_state_it_was_saved_in() {
    // An exploration is checked against the state it was saved in, as the rules it was saved
    // under played its keys: today's rules (version 5: the clock, potions in chests, the
    // monsters' traits) play its keys into another game, and there is one set of rules, so
    // a replay today is no oracle for it (the game's saves.rs replays the other fixtures and
    // plays these on from where they were saved).
    let mut checked = Vec::new();
    for path in fixture_saves() {
        let game = save::decode(&read(&path), &path)
            .unwrap_or_else(|e| panic!("fixture {} no longer loads: {e}", path.display()));
        if game.explore().is_none() {
            continue;
        }
        assert_eq!(
            byog_players::json::game_state(&game),
            saved_state(&path),
            "{}",
            path.display()
        );
        checked.push(path.file_name().unwrap().to_string_lossy().into_owned());
    }
    // The walk saved before monsters (format 3) and the fight (format 6) at least.
    for name in ["v3-e42s-walk.bin", "v6-e7s-fight.bin"] {
        assert!(
            checked.iter().any(|c| c == name),
            "{name} not checked: {checked:?}"
        );
    }
}
