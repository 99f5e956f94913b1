//! Helpers the game's tests share: actions, an independent path to the exit, scripted walks.
//! The players' and the root's test binaries include this file too.

#![allow(dead_code)] // each test binary uses its own subset

use byog_game::{Action, GameState};
use byog_tile_engine::{Pos, Tile};
use proptest::prelude::*;

/// The action of a movement key (`W` `A` `S` `D`).
pub fn act(key: char) -> Action {
    Action::from_key(key).expect("a movement key")
}

/// Applies the movement keys of `keys` to `game`, one action each.
pub fn play(game: &mut GameState, keys: &str) {
    for key in keys.chars() {
        game.apply(act(key));
    }
}

/// The tests' own oracle of a path: the keys that walk the avatar from where it stands into
/// the exit, by a breadth-first search over the composed world's text (FLOOR walkable, the
/// exit entered from a neighbour), written apart from `byog_tile_engine::search`.
pub fn keys_to_exit(game: &GameState) -> String {
    let text = game.world().to_string();
    let rows: Vec<Vec<char>> = text.lines().rev().map(|l| l.chars().collect()).collect();
    let (w, h) = (rows[0].len() as i32, rows.len() as i32);
    let at = |p: Pos| {
        (p.x >= 0 && p.y >= 0 && p.x < w && p.y < h).then(|| rows[p.y as usize][p.x as usize])
    };
    let floor = Tile::Floor.character();
    let idx = |p: Pos| (p.y * w + p.x) as usize;
    let mut prev: Vec<Option<(Pos, char)>> = vec![None; (w * h) as usize];
    let start = game.avatar();
    let mut queue = std::collections::VecDeque::from([start]);
    prev[idx(start)] = Some((start, ' '));
    while let Some(p) = queue.pop_front() {
        for (key, (dx, dy)) in [('W', (0, 1)), ('A', (-1, 0)), ('S', (0, -1)), ('D', (1, 0))] {
            let n = p.offset(dx, dy);
            if at(n).is_none() || prev[idx(n)].is_some() {
                continue;
            }
            if n == game.exit() {
                let mut keys = vec![key];
                let mut back = p;
                while back != start {
                    let (before, k) = prev[idx(back)].unwrap();
                    keys.push(k);
                    back = before;
                }
                return keys.into_iter().rev().collect();
            }
            if at(n) == Some(floor) {
                prev[idx(n)] = Some((p, key));
                queue.push_back(n);
            }
        }
    }
    panic!("no path from the avatar to the exit");
}

/// A scripted walk through exploration `E42S` (default settings): 21 rooms of one branch
/// made, chests refilled and traps rearmed on the way. Made once by a greedy walker (nearest
/// empty chest, sprung trap or unexplored exit by BFS on the printed rows) and kept as it is,
/// so the tests that use it do not depend on any walker.
pub const EXPLORE_WALK_42: &str = concat!(
    "E42SWWWWWWWWWWWWWAAAAAAAAAAAAAWWWWWWWWWWWWWWWWWWWWSSSSSSSAAAAAAADDDDDDDDDDDDDDDD",
    "DDDDWWWWWWWWWWWAAAWWDDDWWWWWWWWWWWWWWDWWWAWWWWWWWWWWWAWWDWWWWWWWWWWASAAAAAAAAAAA",
    "AWWWWAAASSSSDDDDDDDDDDDDDDDSDSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS",
    "DDDDDDDDDSSDDDDSSSSSWWWWWWWDDDDDDDDDDWWDDDWWWWWWWWWWWWWWASSSAAAAAAAAWAAAAAAAWWDD",
    "DWWWWWWWWWDWWDSDDDDDDDDDDDWWDDWWAAWWWWWWWWWWAAASDDDDDDDDDDAAAAAASSSSASSSSSSSSSAA",
    "AAAA",
);

/// A scripted walk through `E7S` with `--max-unexplored 2 --branch-timer 150`
/// ([`EXPLORE_WALK_7_FLAGS`]): a branch explored until the timer retires it, the one-way way
/// back to the start room, and a new branch behind the same door.
pub const EXPLORE_WALK_7: &str = concat!(
    "E7SWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWSSSSSSSDDDDDDDDDDSSDDDDDDDWWDDDDDDSSSSDDDSSS",
    "SSSAAASSSSSSSDDDSSSSSSSSSAAAAAAAAAAASSSAASSSSWWWWWWWDDDDDDDDDDDDDDDDDDDDDDDDDDDD",
    "DDDDDDDSSWDDDDDDDWDDDDDDDSSSDDDDWWWWWWWDSSSSDDDDDDDDSDDDDASSSSSSSSSSAASSSSDDDWWA",
    "AAAAAAAAAWWWAAAAAAAASSSSSDDDDSSSSSSSSSADDSSASSSSSSSSSSSSSSASAAWWDDDWWWWWWWWWWWWW",
    "WWWWWWWWWWWWWDDDDDDDDDDDWDWWDWWWWWWWWWWAAAAAAAAAAAAAAAAAAAAAAAWWWWAAAWWWWWWWWDWW",
    "DAAWWWWWWWWWWWWWWDDDDSSAAAAAAAAAAADDDDDDDSSSSSSSSSSSSSAAAAAAAAASSAAAAAWWDDDDDDDD",
    "DDDDDDSSSSSSSSSSSSSAAAAAAAAAAAAAAAAAAAAAAWAAAAWWWWWWWWWWWWWWWWWWWWWWWWWAAAAAAAAA",
    "AAAAAAAAAAAAAASSSAAASSSSSSSSSSSSSSSSSWWWWWW",
);

/// The flags [`EXPLORE_WALK_7`] is played with.
pub const EXPLORE_WALK_7_FLAGS: [&str; 4] = ["--max-unexplored", "2", "--branch-timer", "150"];

#[path = "../../../worlds/tests/worlds/common.rs"]
mod worlds;
#[allow(unused_imports)] // not every test binary uses it
pub use worlds::Rng;

/// Keys that are easy to get wrong: the commands, control characters, look-alikes of `S` and
/// `K`, invisible characters, multi-byte and astral characters.
pub const TRICKY: &[char] = &[
    'N',
    'n',
    'L',
    'l',
    'Q',
    'q',
    'S',
    's',
    'W',
    'w',
    'A',
    'a',
    'D',
    'd',
    ':',
    '0',
    '1',
    '5',
    '9',
    '\0',
    '\t',
    '\n',
    '\r',
    '\x1b',
    '\x7f',
    '\u{85}',
    '\u{9f}',
    'ſ',
    'Ｓ',
    'ｓ',
    'K',
    'İ',
    'ß',
    '\u{200b}',
    '\u{feff}',
    '\u{202e}',
    'é',
    '🦀',
    '\u{10ffff}',
    '\u{fffd}',
];

pub fn any_key() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::sample::select(TRICKY),
        2 => any::<char>(),
        1 => (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap()),
        1 => (0x7fu32..0xa0).prop_map(|c| char::from_u32(c).unwrap()),
    ]
}

/// A sparse file of `len` bytes at `path` starting with `head`.
pub fn sparse(path: &std::path::Path, head: &[u8], len: u64) {
    use std::io::Write;
    let mut f = std::fs::File::create(path).unwrap();
    f.write_all(head).unwrap();
    f.set_len(len).unwrap();
}

/// A save header of the current format stating a payload that fills a file of `len` bytes.
pub fn header_for(len: u64) -> Vec<u8> {
    use byog_game::save;
    let mut h = save::MAGIC.to_vec();
    h.extend_from_slice(&save::FORMAT_VERSION.to_le_bytes());
    h.extend_from_slice(&(len - (save::HEADER_LEN + save::CHECKSUM_LEN) as u64).to_le_bytes());
    h
}

/// Runs `sh -c SCRIPT` with `ulimit -v 600000` (about 586 MiB of address space), the
/// environment's `BYOG_SAVE_DIR` removed and `envs` set.
pub fn under_memory_limit(script: &str, envs: &[(&str, &std::path::Path)]) -> std::process::Output {
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(format!("ulimit -v 600000 && {script}"));
    for (k, v) in envs {
        c.env(k, v);
    }
    c.env_remove("BYOG_SAVE_DIR").output().unwrap()
}

/// Every floor of run `seed` (`floors` floors of at most `width × height` tiles, default
/// settings), B1 first.
pub fn floors_of(
    seed: u64,
    floors: u32,
    width: usize,
    height: usize,
) -> Vec<byog_game::run::Floor> {
    (1..=floors)
        .map(|depth| {
            byog_game::run::floor::make(
                seed,
                depth,
                floors,
                width,
                height,
                &byog_worlds::generator::GeneratorSettings::default(),
            )
            .unwrap()
        })
        .collect()
}

/// `again` (a save's history replayed today) plays what `saved` (the save as loaded)
/// played. A run's budgets were retuned on 2026-11-24 and 2026-11-27, and since rules
/// version 3 its features pay their moves on their own floor (docs/balance.md): a
/// run saved before keeps the moves left and the allowance it stored, while its history
/// replayed today gets today's, so those two numbers may differ; since 2026-11-27 the moves
/// carried down beyond a cap are paid as points, and since rules version 4 a feature's
/// points grow with its seclusion, so the score may differ too (a score is verified under
/// its own rules only); everything else (the floors, the things on them, health, the
/// generator) is the same.
pub fn assert_same_play(again: &GameState, saved: &GameState, what: &str) {
    match (again.run(), saved.run()) {
        (Some(a), Some(s)) => {
            assert_eq!(again.world(), saved.world(), "{what}");
            assert_eq!(again.features(), saved.features(), "{what}");
            assert_eq!(again.history(), saved.history(), "{what}");
            assert_eq!(again.moves(), saved.moves(), "{what}");
            assert_eq!(again.status(), saved.status(), "{what}");
            assert_eq!(again.rng(), saved.rng(), "{what}");
            assert_eq!(
                (a.floor, a.floors, a.health, a.perfect_floors),
                (s.floor, s.floors, s.health, s.perfect_floors),
                "{what}"
            );
            assert_eq!(
                (a.info.par, a.info.direct, a.info.attempt),
                (s.info.par, s.info.direct, s.info.attempt),
                "{what}"
            );
        }
        _ => assert_eq!(again, saved, "{what}"),
    }
}

/// A classic 80 × 30 game of `seed` after some moves, at least one of which really moved the avatar.
pub fn played_game(seed: u64) -> GameState {
    let mut game = GameState::new(
        seed,
        80,
        30,
        byog_worlds::generator::GeneratorSettings::default(),
    )
    .expect("80 x 30 generates");
    let mut moved = false;
    for key in "DDDWWWDDDAASSWDDSAW".chars() {
        moved |= game.apply(act(key)).changed_game();
    }
    // Make sure the avatar really went somewhere: walk any open direction.
    for key in "WASD".chars() {
        if moved {
            break;
        }
        moved = game.apply(act(key)).changed_game();
    }
    assert!(moved, "seed {seed}: the avatar never moved");
    assert_ne!(game.moves(), 0);
    game
}

/// The folder of the committed fixture saves (`tests/fixtures` at the workspace's top):
/// `v<version>-<what>.bin`, each with the world it loads into beside it (`.txt`, written by
/// the build that wrote the save). For a package's test binary (a package under `crates/`).
pub fn fixtures() -> std::path::PathBuf {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures")).to_path_buf()
}

/// The bytes of the file at `path` (a test fails if it cannot be read).
pub fn read(path: &std::path::Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}
