//! Snapshot tests: each seed is locked to its world. The `.snap` files live in the top-level
//! `snapshots/` folder. A changed world shows up as a failing test with a diff; review it with
//! `cargo insta review` (or `INSTA_UPDATE=always cargo test`, then `git diff snapshots/`).
//! Under `CI=true` a missing or changed snapshot fails.

use byog_game::GameState;
use byog_game::interpreter::Interpreter;
use byog_game::replay;
use byog_game::save::MemoryStore;
use byog_worlds::generator::GeneratorSettings;

/// Seeds with locked worlds: the edge cases, the sp18 spec's examples and a spread.
const SEEDS: &[u64] = &[
    0,
    1,
    2,
    3,
    7,
    42,
    99,
    100,
    999,
    1234,
    2018,
    4321,
    5000,
    12345,
    31337,
    65536,
    99999,
    123456,
    1000000,
    8675309,
    2147483647,
    4294967296,
    1234567890123,
    999999999999999999,
    9223372036854775806,
    9223372036854775807,
];

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

#[test]
fn every_snapshot_seed_is_locked_to_its_world() {
    settings().bind(|| {
        for &seed in SEEDS {
            let game = GameState::new(seed, 80, 30, GeneratorSettings::default()).unwrap();
            insta::assert_snapshot!(format!("seed_{seed}"), game.world().to_string());
        }
    });
}

/// Replays with moves, so a change in movement rules shows up too.
#[test]
fn replays_with_moves_are_locked() {
    let inputs = [
        ("replay_n1234swwdd", "N1234SWWDD"),
        ("replay_n999sdddwwwddd", "N999SDDDWWWDDD"),
        (
            "replay_n42s_walk",
            "N42SAAAAWWWWDDDDDDDDSSSSAAAAWWDDSSAADDWW",
        ),
        ("replay_n7s_21x11", "N7SWASDWASDDDDDAAAAA"),
    ];
    settings().bind(|| {
        for (name, input) in inputs {
            let (w, h) = if name.ends_with("21x11") {
                (21, 11)
            } else {
                (80, 30)
            };
            let mut interpreter = Interpreter::new(w, h, GeneratorSettings::default());
            let mut store = MemoryStore::default();
            replay::replay(&mut interpreter, input, &mut store, true, &mut |_| {}).unwrap();
            let game = interpreter.game().unwrap();
            let text = format!(
                "input: {input}\navatar: {}\nmoves: {}\n{}",
                game.avatar(),
                game.moves(),
                game.world()
            );
            insta::assert_snapshot!(name, text);
        }
    });
}
