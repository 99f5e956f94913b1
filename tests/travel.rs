//! Travel and explore (`docs/keys.md`): `X` walks to the nearest unseen area, `>` to the exit
//! once seen, each step an ordinary move in the history.
//!
//! The oracles are the tests' own: the history the game keeps, replayed key by key on a fresh
//! interpreter (same JSON, same save bytes), and the JSON state (`seen` rows, the sight view's
//! features and exit) read after every single step. Nothing here calls the planner.

use byog::cli::json;
use byog::core::explore::ExploreSettings;
use byog::core::generator::GeneratorSettings;
use byog::core::interpreter::Refusal;
use byog::core::save::{self, MemoryStore};
use byog::core::travel::{MAX_STEPS, Stop};
use byog::core::{Event, Interpreter, Outcome};
use proptest::prelude::*;
use serde_json::Value;

fn interpreter() -> Interpreter {
    Interpreter::new(80, 30, GeneratorSettings::default())
        .with_floors(3)
        .with_explore(ExploreSettings::default())
}

/// Feeds `keys` and returns the outcome of each.
fn feed(it: &mut Interpreter, keys: &str, store: &mut MemoryStore) -> Vec<Outcome> {
    keys.chars()
        .map(|k| it.feed(k, store).expect("no key fails here"))
        .collect()
}

/// Plays `input`, then plays the game's history on a fresh interpreter and checks that both
/// give the same JSON state and the same save bytes. Returns the history.
fn assert_same_as_history(input: &str) -> String {
    let mut store = MemoryStore::default();
    let mut it = interpreter();
    feed(&mut it, input, &mut store);
    let game = it.game().expect("a game");
    let history = game.history();
    let mut again = interpreter();
    feed(&mut again, &history, &mut store);
    assert_eq!(
        json::state(&it),
        json::state(&again),
        "{input} and its history {history}"
    );
    assert_eq!(
        save::encode(game),
        save::encode(again.game().unwrap()),
        "{input}: save bytes"
    );
    history
}

#[test]
fn explore_and_travel_give_the_game_of_the_keys_their_history_shows() {
    let mut walked = 0;
    for seed in 1..=4u64 {
        for input in [
            format!("N{seed}SX"),
            format!("N{seed}SXX>"),
            format!("R{seed}SX"),
            format!("R{seed}SXDXX>XX>"),
            format!("R{seed}SXXXXXXXX>>"),
            format!("E{seed}SXXXX"),
            format!("E{seed}SXXXXXXX>"),
        ] {
            let history = assert_same_as_history(&input);
            let start = history.find('S').unwrap() + 1;
            assert!(
                history[start..].chars().all(|c| "WASD".contains(c)),
                "{input}: {history}"
            );
            walked += history.len() - start;
        }
    }
    assert!(walked > 1000, "the walks walked: {walked} steps");
}

/// The `seen` rows of a JSON state, as characters, top row first.
fn seen(state: &Value) -> Vec<Vec<char>> {
    state["seen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().collect())
        .collect()
}

fn avatar(state: &Value) -> (i64, i64) {
    (
        state["avatar"][0].as_i64().unwrap(),
        state["avatar"][1].as_i64().unwrap(),
    )
}

/// The step of a `W`/`A`/`S`/`D` key.
fn delta(key: char) -> (i64, i64) {
    match key {
        'W' => (0, 1),
        'S' => (0, -1),
        'A' => (-1, 0),
        _ => (1, 0),
    }
}

/// Replays `history` key by key and checks that every step goes onto (or into) a tile the
/// JSON's `seen` rows showed before it, but a step through an unexplored exit, which makes
/// its room. Returns how many steps were checked.
fn assert_never_steps_into_the_unseen(history: &str) -> usize {
    let mut store = MemoryStore::default();
    let mut it = interpreter();
    let start = history.find('S').unwrap() + 1;
    feed(&mut it, &history[..start], &mut store);
    let mut checked = 0;
    for key in history[start..].chars() {
        let before = json::state(&it);
        let rows = seen(&before);
        let (h, w) = (rows.len() as i64, rows[0].len() as i64);
        let (x, y) = avatar(&before);
        let (dx, dy) = delta(key);
        let (tx, ty) = (x + dx, y + dy);
        let inside = (0..w).contains(&tx) && (0..h).contains(&ty);
        let known = inside && rows[(h - 1 - ty) as usize][tx as usize] != ' ';
        let outcome = it.feed(key, &mut store).unwrap();
        let made_room = matches!(outcome, Outcome::Acted(events)
            if events.as_slice().iter().any(|e| matches!(e, Event::Entered { made: true, .. })));
        assert!(
            known || made_room,
            "{history}: step {} ({key}) from ({x}, {y}) goes onto an unseen tile",
            checked + 1
        );
        checked += 1;
    }
    checked
}

#[test]
fn explore_and_travel_never_step_onto_an_unseen_tile() {
    let mut steps = 0;
    for seed in 1..=6u64 {
        for input in [
            format!("N{seed}SXX>"),
            format!("R{seed}SXXXXXX>XXXXXX>"),
            format!("E{seed}SXXXXXXXXXX"),
        ] {
            let mut store = MemoryStore::default();
            let mut it = interpreter();
            feed(&mut it, &input, &mut store);
            steps += assert_never_steps_into_the_unseen(&it.game().unwrap().history());
        }
    }
    assert!(steps > 1500, "{steps} steps checked");
}

/// What the player knows of a run or a classic game that stops a walk: the features and the
/// exit in the sight view (positions, with the floor), the health and the score.
fn known(it: &Interpreter) -> (Value, Vec<(i64, i64)>, Value, Value, Value) {
    let v: Value = serde_json::from_str(&json::sight_state(it)).unwrap();
    let mut features: Vec<(i64, i64)> = v["features"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| (f["x"].as_i64().unwrap(), f["y"].as_i64().unwrap()))
                .collect()
        })
        .unwrap_or_default();
    features.sort();
    (
        v["floor"].clone(),
        features,
        v["exit"].clone(),
        v["health"].clone(),
        v["score"].clone(),
    )
}

#[test]
fn explore_stops_when_a_feature_or_the_exit_comes_into_sight() {
    let (mut sightings, mut walks) = (0, 0);
    for seed in 1..=8u64 {
        let mut store = MemoryStore::default();
        let mut it = interpreter();
        feed(&mut it, &format!("R{seed}S"), &mut store);
        for _ in 0..12 {
            if it.game_in_play().is_none_or(|g| g.has_ended()) {
                break;
            }
            // X on a copy, to learn its steps from the history; then those steps one by one.
            let moves = it.game().unwrap().history().len();
            let mut copy = it.clone();
            let outcome = copy.feed('X', &mut store).unwrap();
            if let Outcome::Reported(r) = outcome {
                assert_eq!(r.reason, Refusal::Travel(Stop::Explored), "R{seed}S");
                break;
            }
            let steps: String = copy.game().unwrap().history()[moves..].to_owned();
            assert!(!steps.is_empty());
            walks += 1;
            for (n, key) in steps.chars().enumerate() {
                let before = known(&it);
                it.feed(key, &mut store).unwrap();
                let after = known(&it);
                let last = n + 1 == steps.len();
                if !last {
                    assert_eq!(
                        before, after,
                        "R{seed}S: step {n} of {steps} showed something new, yet X went on"
                    );
                } else if before != after {
                    sightings += 1;
                } else {
                    // Nothing new in sight and nothing handled: the walk ended because
                    // nothing is left (the next X says so) or at the step limit.
                    assert!(
                        steps.len() as u32 == MAX_STEPS || {
                            let mut probe = it.clone();
                            matches!(probe.feed('X', &mut store).unwrap(), Outcome::Reported(_))
                        },
                        "R{seed}S: X stopped after {steps} with nothing new"
                    );
                }
            }
            assert_eq!(
                json::state(&it),
                json::state(&copy),
                "the keys give X's game"
            );
        }
    }
    assert!(walks >= 20, "{walks} walks");
    assert!(sightings >= 10, "{sightings} walks ended on a sighting");
}

#[test]
fn explore_walks_through_unexplored_exits_and_makes_rooms() {
    for seed in 1..=6u64 {
        let mut store = MemoryStore::default();
        let mut it = interpreter();
        feed(&mut it, &format!("E{seed}SXXXXXXXX"), &mut store);
        let rooms = json::state(&it)["rooms"].as_array().map_or(0, Vec::len);
        assert!(rooms >= 3, "E{seed}S and eight X made {rooms} rooms");
    }
}

#[test]
fn travel_goes_to_the_exit_once_seen_and_not_before() {
    let mut descended = 0;
    for seed in 1..=6u64 {
        let mut store = MemoryStore::default();
        let mut it = interpreter();
        feed(&mut it, &format!("R{seed}S"), &mut store);
        let outcome = it.feed('>', &mut store).unwrap();
        let exit_seen = !json::state(&it)["seen"].is_null()
            && serde_json::from_str::<Value>(&json::sight_state(&it)).unwrap()["exit"].is_array();
        if !exit_seen {
            assert!(
                matches!(outcome, Outcome::Reported(r) if r.reason == Refusal::Travel(Stop::ExitUnseen)),
                "R{seed}S>: {outcome:?}"
            );
        }
        // Explore until the exit is in sight, then travel: the floor changes or a sighting
        // stopped the walk on the way.
        for _ in 0..40 {
            let v: Value = serde_json::from_str(&json::sight_state(&it)).unwrap();
            if v["exit"].is_array() {
                break;
            }
            it.feed('X', &mut store).unwrap();
        }
        for _ in 0..10 {
            if it.game().unwrap().run().unwrap().floor > 1 {
                descended += 1;
                break;
            }
            if let Outcome::Reported(_) = it.feed('>', &mut store).unwrap() {
                break;
            }
        }
    }
    assert!(descended >= 5, "{descended} of 6 runs went down by >");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any string of keys with `X` and `>` among moves and junk plays without a panic, and
    /// its history gives the same game.
    #[test]
    fn random_strings_with_travel_never_panic(
        start in proptest::sample::select(vec!["N3S", "R5S", "E2S", "R11S", "E9S"]),
        keys in proptest::collection::vec(
            proptest::sample::select(vec!['W', 'A', 'S', 'D', 'X', 'X', '>', 'x', ':', 'Z', 'N']),
            0..24,
        ),
    ) {
        let input: String = start.chars().chain(keys).collect();
        assert_same_as_history(&input);
    }
}
