//! Memory that does not grow with a world's size or a session's keys (`docs/performance.md`),
//! measured by the counting allocator of the game's tests (`crates/game/tests/game/heap.rs`) (the heap each thread holds).
//! The long ones are `#[ignore]`d: `cargo test --release -p byog-players --test players -- --ignored memory::`.

use crate::heap::{live_heap, peak_heap, take_peak};

use byog_game::run::{depth, floor};
use byog_players::agent::{Agent, AgentOptions};
use byog_tile_engine::Direction;
use byog_worlds::generator::{self, GeneratorSettings};

/// A key that steps the avatar of `N1234S` back and forth between its tile and a floor
/// tile beside it, and the key back: every key a move the game records, never a bump.
fn to_and_fro() -> (char, char) {
    let game = byog_game::GameState::new(1234, 80, 30, GeneratorSettings::default()).unwrap();
    let a = game.avatar();
    let d = Direction::ALL
        .into_iter()
        .find(|&d| {
            game.terrain().get(a + d).is_some_and(|t| t.is_walkable()) && a + d != game.exit()
        })
        .unwrap();
    let back = Direction::ALL
        .into_iter()
        .find(|&o| a + d + o == a)
        .unwrap();
    let key = |d| byog_game::Action::Move(d).key();
    (key(d), key(back))
}

/// The session of [`an_agent_sessions_memory_is_flat_over_ten_million_keys`]: the
/// to-and-fro keys, whether the avatar stands beside its first tile, the keys played.
struct Session {
    agent: Agent,
    walk: String,
    beside: bool,
    keys: u64,
    lines: u64,
}

impl Session {
    /// Plays 50 lines of the to-and-fro walk, as a program would: lines of 1 to 2,000 keys,
    /// the 50th refused (a `Z` at its end) and undone.
    fn play_50_lines(&mut self) {
        for line in 0..50 {
            let n = [1, 2, 7, 64, 2000][line % 5];
            let from = usize::from(self.beside);
            let mut keys = self.walk[from..from + n].to_owned();
            if line == 49 {
                keys.push('Z');
                assert!(self.agent.step(&keys).is_err());
            } else {
                let obs = self.agent.step(&keys).unwrap();
                assert_eq!(obs.unplayed, 0);
                self.keys += n as u64;
                self.beside ^= n % 2 == 1;
            }
            self.lines += 1;
        }
    }
}

/// An agent session's memory stays flat over 10,000,000 keys: the heap it holds after 10
/// million keys is the heap it held after 1 million, within 16 KiB (no log of keys or
/// actions; a refused line is undone from a copy of the game, dropped at once).
#[test]
#[ignore = "10,000,000 keys: about a minute in a debug build"]
fn an_agent_sessions_memory_is_flat_over_ten_million_keys() {
    let (there, back) = to_and_fro();
    let walk: String = std::iter::repeat_n([there, back], 1001).flatten().collect();
    let base = live_heap();
    let mut s = Session {
        agent: Agent::new(AgentOptions::default()),
        walk,
        beside: false,
        keys: 0,
        lines: 0,
    };
    s.agent.reset("N1234S").unwrap();
    while s.keys < 1_000_000 {
        s.play_50_lines();
    }
    let after_1m = live_heap() - base;
    while s.keys < 10_000_000 {
        s.play_50_lines();
    }
    let after_10m = live_heap() - base;
    assert_eq!(
        s.agent.observe().game.unwrap().moves,
        s.keys,
        "every key a move"
    );
    eprintln!(
        "agent: {after_1m} bytes after 1M keys, {after_10m} after {} keys in {} lines",
        s.keys, s.lines
    );
    assert!(
        after_10m - after_1m <= 16 << 10,
        "{after_1m} bytes after 1M keys, {after_10m} after 10M"
    );
}

/// A run's floor at 2048 × 2048 (its B1 and B10, at the depth table's sizes) holds at most
/// twice the heap, at its peak, of the plain world of the same size and settings.
#[test]
#[ignore = "floors of 2048 × 2048: a release build takes seconds, a debug one minutes"]
fn a_run_floor_takes_at_most_twice_the_plain_worlds_memory_at_2048() {
    let s = GeneratorSettings::default();
    for d in [1, 10] {
        let p = depth::params(d, 10, 2048, 2048, &s);
        let (_, world) =
            peak_heap(|| generator::generate_for_seed(7, p.width, p.height, &p.settings).unwrap());
        let (made, floor) = peak_heap(|| floor::make(7, d, 10, 2048, 2048, &s).unwrap());
        assert_eq!(
            (made.terrain.width(), made.terrain.height()),
            (p.width, p.height)
        );
        let tiles = (p.width * p.height) as f64;
        eprintln!(
            "B{d} {} × {}: world {world} bytes ({:.2} a tile), floor {floor} bytes ({:.2} a tile), {:.2} ×",
            p.width,
            p.height,
            world as f64 / tiles,
            floor as f64 / tiles,
            floor as f64 / world as f64
        );
        assert!(
            floor <= 2 * world,
            "B{d}: floor {floor} bytes, world {world}"
        );
    }
}

/// Where a floor's memory peaks: the most heap held during each stage of making B1 at 2048 ×
/// 2048 (`byog_worlds::progress` stages), a tile's worth in bytes. A probe: it prints.
#[test]
#[ignore = "a probe: prints each stage's peak"]
fn a_run_floors_memory_by_stage() {
    use std::sync::{Arc, Mutex};
    let s = GeneratorSettings::default();
    let p = depth::params(1, 10, 2048, 2048, &s);
    let tiles = (p.width * p.height) as f64;
    let peaks: Arc<Mutex<Vec<(byog_worlds::progress::Stage, isize)>>> = Arc::default();
    let sink = Arc::clone(&peaks);
    let base = live_heap();
    take_peak();
    let watch = byog_worlds::progress::watch(move |r| {
        let peak = take_peak() - base;
        sink.lock().unwrap().push((r.stage, peak));
    });
    let made = floor::make(7, 1, 10, 2048, 2048, &s).unwrap();
    drop(watch);
    let last = take_peak() - base;
    let peaks = peaks.lock().unwrap();
    // A report closes the stretch since the one before: the peak belongs to the stage before.
    let mut stage = None;
    let mut most = 0isize;
    for &(next, peak) in peaks
        .iter()
        .chain([(byog_worlds::progress::Stage::Route, last)].iter())
    {
        most = most.max(peak);
        if stage != Some(next) {
            if let Some(s) = stage {
                eprintln!("{s:?}: {:.2} bytes a tile", most as f64 / tiles);
            }
            stage = Some(next);
            most = 0;
        }
    }
    eprintln!(
        "{:?}: {:.2} bytes a tile",
        stage.unwrap(),
        most as f64 / tiles
    );
    drop(made);
}

/// Measured as the heap bytes this thread holds after the explorer made `ROOMS` rooms (the
/// whole game: rooms, branches, the history of keys), less what it held before the game was
/// made, over the rooms made; dropping the game gives every byte back.
#[test]
fn a_room_costs_at_most_2_kib_of_heap() {
    use byog_game::explore::{Branch, ExploreSettings, Room};
    use byog_players::explorer as bot;
    const ROOMS: usize = 10_000;
    let before = live_heap();
    // The room graph's cost: monsters off (they add 28 bytes each, a few a room).
    let explore = ExploreSettings {
        monsters: false,
        ..ExploreSettings::default()
    };
    let mut game =
        byog_game::GameState::new_exploration(3, GeneratorSettings::default(), explore).unwrap();
    let made = bot::make_rooms(&mut game, ROOMS, &mut |_| ());
    let live = live_heap() - before;
    let keys = game.actions().len();
    let rooms = game.explore().unwrap().dungeon().rooms_made();
    drop(game);
    // Nothing else was counted: the game's heap all came back.
    assert_eq!(live_heap(), before);
    assert!(made >= ROOMS);
    assert_eq!(rooms, made);
    let per_room = live as f64 / made as f64;
    eprintln!(
        "{made} rooms, {keys} keys: {live} bytes live, {per_room:.0} bytes a room \
         (Room {} bytes, Feature {}, Branch {})",
        std::mem::size_of::<Room>(),
        std::mem::size_of::<byog_game::run::Feature>(),
        std::mem::size_of::<Branch>()
    );
    assert!(per_room <= 2048.0, "{per_room:.0} bytes a room");
}
