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
