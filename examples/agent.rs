//! A program that plays runs through `byog_players::agent`, seeing only what the avatar sees
//! (docs/agent.md). Each step it walks one tile toward the nearest empty chest or sprung trap
//! seen, else the nearest unseen ground, else the exit; once its moves run short, toward the
//! exit (or, not seen yet, unseen ground). It walks around armed traps.
//!
//! `cargo run --release --example agent [SEED...]` (seeds 1 to 5 by default) prints one line
//! a run.

use std::collections::VecDeque;

use byog_game::LevelStatus;
use byog_players::agent::{Agent, AgentOptions, Sight};
use byog_tile_engine::{Pos, Tile};

/// The moves kept to find an exit not yet seen.
const RESERVE: u64 = 40;

const KEYS: [(char, i32, i32); 4] = [('W', 0, 1), ('A', -1, 0), ('S', 0, -1), ('D', 1, 0)];

/// The first key and the length of a shortest walk over seen ground (armed traps avoided)
/// to a tile `goal` accepts, which it steps onto (or into: the exit door).
fn toward(s: &Sight, goal: impl Fn(Pos) -> bool) -> Option<(char, usize)> {
    let (w, h) = (s.view.width() as i32, s.view.height() as i32);
    let index = |p: Pos| (p.y * w + p.x) as usize;
    let mut first: Vec<Option<(char, usize)>> = vec![None; (w * h) as usize];
    first[index(s.avatar)] = Some((' ', 0));
    let mut queue = VecDeque::from([s.avatar]);
    while let Some(p) = queue.pop_front() {
        let (key, length) = first[index(p)]?;
        for (k, dx, dy) in KEYS {
            let q = Pos::new(p.x + dx, p.y + dy);
            if q.x < 0 || q.y < 0 || q.x >= w || q.y >= h || first[index(q)].is_some() {
                continue;
            }
            let step = (if p == s.avatar { k } else { key }, length + 1);
            if goal(q) {
                return Some(step);
            }
            if s.tile(q).is_walkable() && s.tile(q) != Tile::TrapArmed {
                first[index(q)] = Some(step);
                queue.push_back(q);
            }
        }
    }
    None
}

/// The next key: see the module's documentation.
fn choose(s: &Sight) -> Option<char> {
    let moves_left = s.run.map_or(u64::MAX, |r| r.moves_left);
    let unhandled = |q: Pos| matches!(s.tile(q), Tile::ChestEmpty | Tile::TrapSprung);
    let unseen_beside = |q: Pos| {
        s.tile(q).is_walkable()
            && KEYS
                .iter()
                .any(|&(_, dx, dy)| s.tile(Pos::new(q.x + dx, q.y + dy)) == Tile::Nothing)
    };
    let to_exit = s.exit.and_then(|exit| toward(s, |q| q == exit));
    let reserve = to_exit.map_or(RESERVE, |(_, length)| length as u64 + 8);
    if moves_left <= reserve {
        // Short of moves: into the exit, or on to find it.
        return to_exit
            .or_else(|| toward(s, unseen_beside))
            .map(|(key, _)| key);
    }
    toward(s, unhandled)
        .or_else(|| toward(s, unseen_beside))
        .or(to_exit)
        .map(|(key, _)| key)
}

fn main() {
    let seeds: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let seeds = if seeds.is_empty() {
        (1..=5).collect()
    } else {
        seeds
    };
    let mut agent = Agent::new(AgentOptions::default());
    for seed in seeds {
        let mut seen = agent.reset(&format!("R{seed}S")).expect("a run starts");
        while let Some(s) = seen
            .game
            .as_ref()
            .filter(|s| s.status == LevelStatus::Playing)
        {
            let Some(key) = choose(s) else { break };
            seen = agent.step(&key.to_string()).expect("a move is a key");
        }
        let s = seen.game.expect("a run");
        let run = s.run.expect("a run's numbers");
        println!(
            "R{seed}S: {} on B{}/{} with score {}, {} moves, health {}{}",
            match s.status {
                LevelStatus::Won => "won",
                LevelStatus::Lost => "lost",
                LevelStatus::Playing => "stopped",
            },
            run.floor,
            run.floors,
            run.score,
            s.moves,
            run.health,
            run.loss
                .map_or(String::new(), |l| format!(" ({})", l.reason())),
        );
    }
}
