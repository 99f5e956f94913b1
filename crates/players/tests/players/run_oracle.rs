//! The runs' tests' own oracle, shared by the players' test binary (`runs.rs`) and the
//! root's (`tests/runs_cli.rs`, by path): the composed world's text as a grid of characters
//! (y up), breadth-first routes over it (never `byog_tile_engine::search` or the solver), and
//! the runs' fixed setup (80 × 30, 10 floors). Each binary uses a part of it.
#![allow(dead_code)]

use std::collections::VecDeque;

use byog_game::interpreter::Interpreter;
use byog_game::replay;
use byog_game::rules::Event;
use byog_game::save::MemoryStore;
use byog_game::{Action, GameState};
use byog_players::solver;
use byog_tile_engine::Pos;
use byog_worlds::generator::GeneratorSettings;

use crate::common::Rng;

pub(crate) const W: usize = 80;
pub(crate) const H: usize = 30;
pub(crate) const FLOORS: u32 = 10;
pub(crate) const MAX_SEED: u64 = i64::MAX as u64;

// The characters of the composed world, written out here rather than asked of the crate.
pub(crate) const FLOOR: char = '·';
pub(crate) const PLAYER: char = '@';
pub(crate) const DOOR: char = '█';
pub(crate) const CHEST_EMPTY: char = '◇';
pub(crate) const CHEST_FULL: char = '◆';
pub(crate) const TRAP_SPRUNG: char = '△';
pub(crate) const TRAP_ARMED: char = '▴';

// ---------------------------------------------------------------------------------------
// Helpers: a PRNG, the tests' own grids and searches.
// ---------------------------------------------------------------------------------------

/// A random seed in `0..=MAX_SEED` from the tests' own generator.
pub(crate) fn random_seed(rng: &mut Rng) -> u64 {
    rng.next() % (MAX_SEED + 1)
}

pub(crate) const STEPS: [(char, i32, i32); 4] =
    [('W', 0, 1), ('A', -1, 0), ('S', 0, -1), ('D', 1, 0)];

/// A grid of characters indexed with y up (row 0 is the bottom row).
pub(crate) struct Chars {
    pub(crate) w: i32,
    pub(crate) h: i32,
    pub(crate) cells: Vec<char>,
}

impl Chars {
    /// The composed world of `game`, parsed from its text (printed top row first).
    pub(crate) fn of_game(game: &GameState) -> Chars {
        let text = game.world().to_string();
        let rows: Vec<Vec<char>> = text.lines().rev().map(|l| l.chars().collect()).collect();
        let (w, h) = (rows[0].len() as i32, rows.len() as i32);
        assert!(rows.iter().all(|r| r.len() == w as usize), "ragged world");
        Chars {
            w,
            h,
            cells: rows.into_iter().flatten().collect(),
        }
    }

    pub(crate) fn at(&self, p: Pos) -> Option<char> {
        (p.x >= 0 && p.y >= 0 && p.x < self.w && p.y < self.h)
            .then(|| self.cells[(p.y * self.w + p.x) as usize])
    }

    pub(crate) fn idx(&self, p: Pos) -> usize {
        (p.y * self.w + p.x) as usize
    }

    pub(crate) fn find_all(&self, c: char) -> Vec<Pos> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i] == c)
            .map(|i| Pos::new(i as i32 % self.w, i as i32 / self.w))
            .collect()
    }
}

/// The tests' own route: the shortest keys from `start` into `target` (entered from a
/// neighbour, whatever it is) over cells where `passable` holds. `None` when out of reach.
pub(crate) fn route(
    g: &Chars,
    start: Pos,
    target: Pos,
    passable: &dyn Fn(char) -> bool,
) -> Option<String> {
    let mut prev: Vec<Option<(Pos, char)>> = vec![None; g.cells.len()];
    prev[g.idx(start)] = Some((start, ' '));
    let mut queue = VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        for (key, dx, dy) in STEPS {
            let n = p.offset(dx, dy);
            let Some(c) = g.at(n) else { continue };
            if n == target {
                let mut keys = vec![key];
                let mut back = p;
                while back != start {
                    let (before, k) = prev[g.idx(back)].unwrap();
                    keys.push(k);
                    back = before;
                }
                return Some(keys.into_iter().rev().collect());
            }
            if prev[g.idx(n)].is_none() && passable(c) {
                prev[g.idx(n)] = Some((p, key));
                queue.push_back(n);
            }
        }
    }
    None
}

/// Where a run can walk without harm: floor, chests (either), sprung traps; not armed traps.
pub(crate) fn unarmed(c: char) -> bool {
    matches!(c, FLOOR | CHEST_EMPTY | CHEST_FULL | TRAP_SPRUNG)
}

/// Plain floor only: a walk that handles nothing.
pub(crate) fn plain(c: char) -> bool {
    c == FLOOR
}

/// The oracle's keys from the avatar into the exit without stepping on an armed trap.
pub(crate) fn keys_into_exit(game: &GameState) -> Option<String> {
    let g = Chars::of_game(game);
    route(&g, game.avatar(), game.exit(), &unarmed)
}

pub(crate) fn act(key: char) -> Action {
    Action::from_key(key).expect("a movement key")
}

pub(crate) fn keys_of(actions: &[Action]) -> String {
    actions.iter().map(|a| a.key()).collect()
}

pub(crate) fn new_run(seed: u64) -> GameState {
    GameState::new_run(seed, W, H, GeneratorSettings::default(), FLOORS)
        .unwrap_or_else(|e| panic!("R{seed}S: {e}"))
}

/// The solver's keys for a fresh run.
pub(crate) fn solve_keys(seed: u64) -> String {
    keys_of(&solver::solve(&new_run(seed)).unwrap_or_else(|e| panic!("R{seed}S: {e}")))
}

/// Applies `keys`, returning every action's events.
pub(crate) fn play(game: &mut GameState, keys: &str) -> Vec<Vec<Event>> {
    keys.chars()
        .map(|k| game.apply(act(k)).as_slice().to_vec())
        .collect()
}

/// A fresh interpreter (a new program run) making 80 × 30 runs of 10 floors.
pub(crate) fn interpreter() -> Interpreter {
    Interpreter::new(W, H, GeneratorSettings::default()).with_floors(FLOORS)
}

/// Runs each input in a fresh interpreter against one shared save; the last game.
pub(crate) fn game_after(inputs: &[&str]) -> GameState {
    let mut store = MemoryStore::default();
    let mut last = None;
    for input in inputs {
        let mut it = interpreter();
        replay::replay(&mut it, input, &mut store, false, &mut |_| {}).unwrap();
        last = it.into_game();
    }
    last.expect("a game was started")
}
