//! Sight and memory (docs/sight.md): what `replay --view sight` prints is exactly what the avatar has
//! seen on this floor (from every tile it stood on, by the field of view that `crates/worlds/tests/worlds/fov.rs`
//! checks against the article's algorithm); memory lasts while the floor does, is saved and
//! loaded, and a new floor starts with only what its start shows.

use crate::common;

use std::collections::BTreeSet;

use byog_game::Interpreter;
use byog_game::replay;
use byog_game::save::MemoryStore;
use byog_tile_engine::fov::Visibility;
use byog_tile_engine::{Map, Pos, World};
use byog_worlds::generator::GeneratorSettings;
use common::{byog_in, stdout};

/// The game an input string reaches, through the library.
fn game_of(input: &str) -> byog_game::GameState {
    let mut i = Interpreter::new(80, 30, GeneratorSettings::default());
    replay::replay(
        &mut i,
        input,
        &mut MemoryStore::default(),
        true,
        &mut |_| {},
    )
    .unwrap();
    i.into_game().unwrap()
}

/// The tiles seen from every tile the avatar stood on since `input`'s floor began, by the
/// tests' own bookkeeping: replay one key at a time and take the union of each position's
/// field of view (radius 8) on the floor's composed world.
fn seen_by_walking(input: &str, floor_start: usize) -> BTreeSet<Pos> {
    let mut seen = BTreeSet::new();
    for end in floor_start..=input.len() {
        let game = game_of(&input[..end]);
        let world: World = game.world();
        let mut v = Visibility::default();
        v.update(&world, game.avatar(), 8);
        for i in 0..world.tiles().len() {
            let p = world.pos_of(i);
            if v.is_visible(p) {
                seen.insert(p);
            }
        }
    }
    seen
}

/// Rows of text as a grid indexed by `(x, y)`, y up.
fn cells(text: &str) -> Vec<Vec<char>> {
    let mut rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    rows.reverse();
    rows
}

#[test]
fn replay_sight_shows_exactly_what_was_seen_on_the_floor() {
    let dir = tempfile::tempdir().unwrap();
    for input in ["R5S", "R5SDDDDSS", "R7SWWWAAAASSDD", "N1234SSSSS"] {
        let plain = stdout(&byog_in(dir.path(), &["replay", input]));
        let sight = stdout(&byog_in(dir.path(), &["replay", "--view", "sight", input]));
        let expected = seen_by_walking(input, input.find('S').unwrap() + 1);
        let (p, s) = (cells(&plain), cells(&sight));
        assert_eq!(p.len(), s.len(), "{input}");
        for (y, (prow, srow)) in p.iter().zip(&s).enumerate() {
            for (x, (&pc, &sc)) in prow.iter().zip(srow).enumerate() {
                let pos = Pos::new(x as i32, y as i32);
                if expected.contains(&pos) {
                    assert_eq!(sc, pc, "{input}: {pos} was seen");
                } else {
                    assert_eq!(sc, ' ', "{input}: {pos} was never seen");
                }
            }
        }
        assert!(sight.contains('@'), "{input}: the avatar sees itself");
        assert!(
            sight.chars().filter(|&c| c != ' ' && c != '\n').count()
                < plain.chars().filter(|&c| c != ' ' && c != '\n').count(),
            "{input}: sight hides something"
        );
    }
}

#[test]
fn memory_stays_when_the_avatar_moves_on_and_survives_save_and_load() {
    // Walk, then walk back: what was seen on the way stays in memory though out of sight.
    let there = "R5SDDDDSS";
    let game = game_of(there);
    let later = game_of(&format!("{there}WWAAAA"));
    for i in 0..game.terrain().tiles().len() {
        let p = game.terrain().pos_of(i);
        if game.has_seen(p) {
            assert!(later.has_seen(p), "{p} was forgotten");
        }
    }
    // Seen tiles out of sight are remembered, not visible.
    let v = later.visibility();
    let remembered = (0..later.terrain().tiles().len())
        .map(|i| later.terrain().pos_of(i))
        .filter(|&p| later.has_seen(p) && !v.is_visible(p))
        .count();
    assert!(remembered > 0);

    // Saved with :Q, loaded with L: the same memory (the whole game is equal).
    let dir = tempfile::tempdir().unwrap();
    let saved = byog_in(
        dir.path(),
        &["replay", "--json", &format!("{there}WWAAAA:Q")],
    );
    let loaded = byog_in(dir.path(), &["replay", "--json", "L"]);
    let a: serde_json::Value = serde_json::from_str(&stdout(&saved)).unwrap();
    let b: serde_json::Value = serde_json::from_str(&stdout(&loaded)).unwrap();
    assert_eq!(a["seen"], b["seen"]);
    assert!(a["seen"].as_array().is_some_and(|rows| !rows.is_empty()));
    let mut store = MemoryStore::default();
    let mut i = Interpreter::new(80, 30, GeneratorSettings::default());
    replay::replay(
        &mut i,
        &format!("{there}WWAAAA:Q"),
        &mut store,
        true,
        &mut |_| {},
    )
    .unwrap();
    let mut j = Interpreter::new(80, 30, GeneratorSettings::default());
    replay::replay(&mut j, "L", &mut store, true, &mut |_| {}).unwrap();
    assert_eq!(i.game(), j.game());
}

#[test]
fn a_new_floor_starts_with_only_what_its_start_shows() {
    let keys = stdout(&byog_in(
        tempfile::tempdir().unwrap().path(),
        &["solve", "R5S"],
    ));
    let keys = keys.trim();
    // The first key at which the run is on B2.
    let arrive = (1..=keys.len())
        .find(|&n| game_of(&format!("R5S{}", &keys[..n])).run().unwrap().floor == 2)
        .unwrap();
    let game = game_of(&format!("R5S{}", &keys[..arrive]));
    let world = game.world();
    let mut v = Visibility::default();
    v.update(&world, game.avatar(), 8);
    for i in 0..world.tiles().len() {
        let p = world.pos_of(i);
        assert_eq!(game.has_seen(p), v.is_visible(p), "{p} on arrival at B2");
    }
    assert!(world.is_walkable(game.avatar()));
}
