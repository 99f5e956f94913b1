//! Helpers the integration tests share: running the `byog` binary as a user would.

#![allow(dead_code)] // each test crate uses its own subset

use std::path::Path;
use std::process::{Command, Output};

/// Runs `byog ARGS --save-dir SAVE_DIR`, with `BYOG_SAVE_DIR` removed from the environment.
pub fn byog_in(save_dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(args)
        .arg("--save-dir")
        .arg(save_dir)
        .env_remove("BYOG_SAVE_DIR")
        .output()
        .unwrap()
}

/// Runs `byog ARGS` (saves, if any, go to the default folder), with `BYOG_SAVE_DIR` removed.
pub fn byog(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(args)
        .env_remove("BYOG_SAVE_DIR")
        .output()
        .unwrap()
}

/// The `rows` of a JSON state (`replay --json`), top row first.
pub fn json_rows(state: &serde_json::Value) -> Vec<&str> {
    state["rows"]
        .as_array()
        .expect("a JSON state has rows")
        .iter()
        .map(|r| r.as_str().expect("a row is a string"))
        .collect()
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

use byog::core::{Action, GameState};
use byog::tile_engine::{Pos, Tile};

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
/// exit entered from a neighbour), written apart from `byog::tile_engine::search`.
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

/// SplitMix64 (Steele, Lea and Flood, 2014): the tests' own deterministic generator, apart
/// from the crate's `rand_pcg`.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
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

/// The tests that need a tool (an X server, tmux) are `#[ignore]`d, so that `cargo test`
/// without the tool reports them as ignored rather than passed. With `require_var=1` (CI)
/// they must run too: this fails a run of `file`'s tests that leaves them out (without
/// `--include-ignored`).
pub fn assert_required_tests_run(require_var: &str, file: &str) {
    if std::env::var(require_var).as_deref() == Ok("1") {
        let args: Vec<String> = std::env::args().collect();
        assert!(
            args.iter()
                .any(|a| a == "--include-ignored" || a == "--ignored"),
            "{require_var}=1, but the tests that need it are ignored in this run ({args:?}): \
             run `cargo test --test main -- --include-ignored {file}::`"
        );
    }
}

/// Every test of `source` (a test file's text) whose body contains `call` (the call that
/// starts its tool) is one this test binary lists as ignored, and there are more than five.
pub fn assert_tool_tests_are_ignored(module: &str, source: &str, call: &str) {
    // `module_path!()` of the test module: `main::window`, tests listed as `window::…`.
    let module = module.split_once("::").map_or(module, |(_, m)| m);
    let prefix = format!("{module}::");
    let mut needing: Vec<&str> = source
        .split("#[test]")
        .skip(1)
        .filter(|chunk| chunk.contains(call))
        .filter_map(|chunk| chunk.split("fn ").nth(1)?.split('(').next())
        .collect();
    needing.sort_unstable();
    let listed = Command::new(std::env::current_exe().unwrap())
        .args(["--list", "--ignored"])
        .output()
        .unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    let mut ignored: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.strip_suffix(": test")?.strip_prefix(prefix.as_str()))
        .collect();
    ignored.sort_unstable();
    assert!(needing.len() > 5, "{needing:?}");
    assert_eq!(ignored, needing);
}
