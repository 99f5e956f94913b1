//! Explorations played through the interpreter (docs/keys.md, docs/saves.md, docs/json.md and docs/explore.md),
//! checked from the JSON state alone (issue 14's list).
//!
//! Everything here looks at the game the way a tool does: it feeds keys to an
//! [`Interpreter`] one at a time and reads `byog_players::json::state` back. The oracles are the
//! tests' own: their own parse of the JSON, their own depth (an integer square root), their own
//! count of unexplored exits, their own breadth-first search over the printed rows, their own
//! record of which exits must have turned one-way. Nothing here calls the orchestrator or reads
//! its structs; the only things taken from the game besides the JSON are the events a key
//! caused (to know when a room was made) and, for the save/load split, the save's bytes.
//!
//! What the JSON shows and what it does not (this decides what can be checked):
//! - A room's exits show `"two-way"`, `"one-way"`, `"unexplored"` or `"locked"`. A room that is
//!   not clear shows every exit but its way back as `"locked"`, whatever is stored behind it.
//!   A locked exit that points at an empty slot of its branch is a stored unexplored exit (an
//!   unexplored exit turns one-way the moment its slot gets a room, so nothing else can point
//!   at an empty slot); a locked exit pointing at a room of its branch is a stored one-way exit,
//!   and the checker knows which those are because it saw every conversion happen. So the
//!   branch's budget is `"unexplored"` exits + `"locked"` exits into empty slots, and that is
//!   what `branches[].unexplored` must equal.
//! - The way back of a room is not in the JSON. The checker learns it when the room is made:
//!   a new room has exactly one `"two-way"` exit, on the side the avatar came in through (the
//!   step's direction, reversed), and it remembers it from then on.
//!
//! The tests:
//! 1. `checker_seeds_*`: the independent checker over 500 seeds × 2,000 keys of the tests' own
//!    walker (ten shards that run in parallel), every rule of docs/explore.md the JSON shows.
//! 2. `the_branch_timer_*` and `a_branch_retired_*`: the branch timer, the retired branch
//!    kept (also through a save), its one-way way back walked.
//! 3. `saving_and_loading_anywhere_changes_nothing`: determinism and the save/load split
//!    across room creations and branch changes.
//! 4. `armed_traps_can_lose_*` and `the_way_up_banks_the_score`: both ends.
//!
//! And `the_checker_rejects_tampered_states`: the checker fails on states that break the rules.
//!
//! Tile characters (docs/java-parity.md and 9): `@` avatar, `#` wall, `·` floor, ` ` nothing, `<` the way
//! up, `+` an unexplored exit, `█` a locked door, `↑→↓←` one-way exits, `◇`/`◆` an empty/full
//! chest, `△`/`▴` a sprung/armed trap.

// A side is an index (0 up, 1 right, 2 down, 3 left) into several arrays at once: a room's
// exits, `DELTA`, `KEYS`, `ARROWS`, `SIDES`; loops over `0..4` say that best.
#![allow(clippy::needless_range_loop)]

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::time::Instant;

use byog_game::explore::ExploreSettings;
use byog_game::save::{self, MemoryStore};
use byog_game::{Direction, Event, Interpreter, Outcome};
use byog_worlds::generator::GeneratorSettings;
use serde_json::Value;

// ---------------------------------------------------------------------------- basics

/// A room slot's side, in tiles (the JSON's `slot`).
const SLOT: i64 = 13;
/// The middle tile of a slot's side: where exits are drawn.
const MID: i64 = 6;
/// Sides in the order used everywhere here: up, right, down, left.
const SIDES: [&str; 4] = ["up", "right", "down", "left"];
/// The step of each side (y up).
const DELTA: [(i64, i64); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// The key that walks each side.
const KEYS: [char; 4] = ['W', 'D', 'S', 'A'];
/// The one-way exit pointing each side (the way it can be walked).
const ARROWS: [char; 4] = ['↑', '→', '↓', '←'];
/// The start room's slot.
const START: (i64, i64) = (0, 0);

fn opposite(s: usize) -> usize {
    (s + 2) % 4
}

fn side_named(name: &str) -> usize {
    SIDES
        .iter()
        .position(|s| *s == name)
        .unwrap_or_else(|| panic!("unknown side {name:?}"))
}

fn side_of(d: Direction) -> usize {
    match d {
        Direction::Up => 0,
        Direction::Right => 1,
        Direction::Down => 2,
        Direction::Left => 3,
    }
}

fn add(p: (i64, i64), s: usize) -> (i64, i64) {
    (p.0 + DELTA[s].0, p.1 + DELTA[s].1)
}

/// The edge tile of a slot on side `s`, in the slot's own tiles (docs/explore.md and the brief: exits
/// sit at the middle of each side).
fn edge_tile(s: usize) -> (i64, i64) {
    [(MID, SLOT - 1), (SLOT - 1, MID), (MID, 0), (0, MID)][s]
}

/// The side whose edge tile is the slot tile `l`, if any.
fn edge_side(l: (i64, i64)) -> Option<usize> {
    (0..4).find(|&s| edge_tile(s) == l)
}

/// `floor(sqrt(n))` by integer bisection (no floats, no library square root).
fn isqrt(n: u128) -> u128 {
    let (mut lo, mut hi) = (0u128, 1u128 << 64);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if mid * mid <= n {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// docs/explore.md's depth: `floor(sqrt(x² + y²))`, with integers.
fn depth_of(p: (i64, i64)) -> u64 {
    let n = (p.0 as i128 * p.0 as i128 + p.1 as i128 * p.1 as i128) as u128;
    isqrt(n) as u64
}

/// docs/explore.md's depth table: the points a chest (`chest`) or else a trap pays, the
/// first time it is handled, in a room of `depth` (rooms of depth 0-1 hold no features).
fn feature_points(chest: bool, depth: u64) -> u64 {
    let (chest_points, trap_points) = match depth {
        0..=1 => panic!("a feature paid in a room of depth {depth}, which holds none"),
        2..=3 => (10, 15),
        4..=5 => (15, 20),
        6..=8 => (150, 165),
        9..=12 => (195, 217),
        _ => (240, 270),
    };
    if chest { chest_points } else { trap_points }
}

/// docs/explore.md's clock (rules version 5): it ticks on the move that makes the move count
/// a multiple of 20, if the avatar is then outside the start room (`outside`).
fn clock_ticks(moves: u64, outside: bool) -> bool {
    outside && moves > 0 && moves.is_multiple_of(20)
}

/// What a tick of the clock takes from `carried` points: 4% of them, rounded up.
fn clock_takes(carried: u64) -> u64 {
    (carried * 4).div_ceil(100)
}

/// The points carried after the move that made the move count `moves` (the exploration still
/// in play), the avatar then outside the start room when `outside`: the clock's tick taken
/// if it ticked.
fn after_clock(carried: u64, moves: u64, outside: bool) -> u64 {
    if clock_ticks(moves, outside) {
        carried - clock_takes(carried)
    } else {
        carried
    }
}

/// SplitMix64: the tests' own generator (apart from the crate's `rand_pcg`).
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

// ---------------------------------------------------------------------------- the JSON, parsed

/// An exit as the JSON shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ex {
    TwoWay,
    OneWay,
    Unexplored,
    Locked,
}

fn ex_named(name: &str) -> Ex {
    match name {
        "two-way" => Ex::TwoWay,
        "one-way" => Ex::OneWay,
        "unexplored" => Ex::Unexplored,
        "locked" => Ex::Locked,
        _ => panic!("unknown exit state {name:?}"),
    }
}

/// A room's key: its branch (`None` for the start room) and its slot.
type RKey = (Option<u64>, (i64, i64));

/// One entry of the JSON's `rooms`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RoomJ {
    depth: u64,
    clear: bool,
    features: u64,
    exits: [Option<Ex>; 4],
}

/// One entry of the JSON's `branches`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BranchJ {
    id: u64,
    entrance: usize,
    made_at: u64,
    retired: bool,
    unexplored: u64,
    rooms: u64,
}

/// One entry of the JSON's `features` (frame coordinates).
#[derive(Debug, Clone, PartialEq, Eq)]
struct FeatJ {
    chest: bool,
    at: (i64, i64),
    handled: bool,
}

impl FeatJ {
    fn glyph(&self) -> char {
        match (self.chest, self.handled) {
            (true, false) => '◇',
            (true, true) => '◆',
            (false, false) => '△',
            (false, true) => '▴',
        }
    }
}

/// The JSON state of an exploration, parsed by the tests.
#[derive(Debug, Clone)]
struct View {
    json: Value,
    status: String,
    end: Option<String>,
    width: i64,
    height: i64,
    /// The rows' characters, `grid[y * width + x]` with y up.
    grid: Vec<char>,
    avatar: (i64, i64),
    exit: (i64, i64),
    moves: u64,
    health: u64,
    score: u64,
    forfeited: u64,
    branch: Option<u64>,
    room: (i64, i64),
    depth: u64,
    origin: (i64, i64),
    max_unexplored: u64,
    branch_timer: u64,
    current: [Option<u64>; 4],
    branches: Vec<BranchJ>,
    rooms: BTreeMap<RKey, RoomJ>,
    features: Vec<FeatJ>,
}

fn num(v: &Value, what: &str) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("{what} is not a number: {v}"))
}

fn int(v: &Value, what: &str) -> i64 {
    v.as_i64()
        .unwrap_or_else(|| panic!("{what} is not an integer: {v}"))
}

fn pair(v: &Value, what: &str) -> (i64, i64) {
    let a = v
        .as_array()
        .unwrap_or_else(|| panic!("{what} is not a pair: {v}"));
    assert_eq!(a.len(), 2, "{what}");
    (int(&a[0], what), int(&a[1], what))
}

impl View {
    fn parse(json: Value) -> View {
        let v = &json;
        assert_eq!(v["mode"], "explore", "not an exploration: {}", v["mode"]);
        assert_eq!(num(&v["slot"], "slot") as i64, SLOT, "the slot size");
        let width = num(&v["width"], "width") as i64;
        let height = num(&v["height"], "height") as i64;
        let rows: Vec<Vec<char>> = v["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| r.as_str().expect("a row").chars().collect())
            .collect();
        assert_eq!(rows.len() as i64, height, "rows: one a line of the height");
        let mut grid = vec![' '; (width * height) as usize];
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row.len() as i64, width, "row {i} is not `width` characters");
            let y = height - 1 - i as i64;
            grid[(y * width) as usize..((y + 1) * width) as usize].copy_from_slice(row);
        }
        let mut current = [None; 4];
        for (k, b) in v["current"].as_object().expect("current") {
            current[side_named(k)] = b.as_u64();
        }
        let branches = v["branches"]
            .as_array()
            .expect("branches")
            .iter()
            .map(|b| BranchJ {
                id: num(&b["id"], "branch id"),
                entrance: side_named(b["entrance"].as_str().expect("entrance")),
                made_at: num(&b["made_at"], "made_at"),
                retired: b["retired"].as_bool().expect("retired"),
                unexplored: num(&b["unexplored"], "unexplored"),
                rooms: num(&b["rooms"], "rooms"),
            })
            .collect();
        let mut rooms = BTreeMap::new();
        for (i, r) in v["rooms"].as_array().expect("rooms").iter().enumerate() {
            let branch = r["branch"].as_u64();
            assert!(branch.is_some() || r["branch"].is_null(), "room {i}: {r}");
            let pos = pair(&r["pos"], "a room's pos");
            if i == 0 {
                assert_eq!((branch, pos), (None, START), "the start room comes first");
            }
            let mut exits = [None; 4];
            for (k, e) in r["exits"].as_object().expect("exits") {
                exits[side_named(k)] = Some(ex_named(e.as_str().expect("an exit state")));
            }
            let room = RoomJ {
                depth: num(&r["depth"], "depth"),
                clear: r["clear"].as_bool().expect("clear"),
                features: num(&r["features"], "features"),
                exits,
            };
            let old = rooms.insert((branch, pos), room);
            assert!(old.is_none(), "two rooms at {pos:?} in branch {branch:?}");
        }
        let features = v["features"]
            .as_array()
            .expect("features")
            .iter()
            .map(|f| {
                let kind = f["kind"].as_str().expect("kind");
                let state = f["state"].as_str().expect("state");
                let (chest, handled) = match (kind, state) {
                    ("chest", "empty") => (true, false),
                    ("chest", "full") => (true, true),
                    ("trap", "sprung") => (false, false),
                    ("trap", "armed") => (false, true),
                    _ => panic!("unknown feature {f}"),
                };
                FeatJ {
                    chest,
                    at: (int(&f["x"], "x"), int(&f["y"], "y")),
                    handled,
                }
            })
            .collect();
        View {
            status: v["status"].as_str().expect("status").to_owned(),
            end: v["end"].as_str().map(str::to_owned),
            width,
            height,
            grid,
            avatar: pair(&v["avatar"], "avatar"),
            exit: pair(&v["exit"], "exit"),
            moves: num(&v["moves"], "moves"),
            health: num(&v["health"], "health"),
            score: num(&v["score"], "score"),
            forfeited: num(&v["forfeited"], "forfeited"),
            branch: v["branch"].as_u64(),
            room: pair(&v["room"], "room"),
            depth: num(&v["depth"], "depth"),
            origin: pair(&v["origin"], "origin"),
            max_unexplored: num(&v["max_unexplored"], "max_unexplored"),
            branch_timer: num(&v["branch_timer"], "branch_timer"),
            current,
            branches,
            rooms,
            features,
            json,
        }
    }

    fn in_frame(&self, p: (i64, i64)) -> bool {
        p.0 >= 0 && p.1 >= 0 && p.0 < self.width && p.1 < self.height
    }

    fn idx(&self, p: (i64, i64)) -> usize {
        (p.1 * self.width + p.0) as usize
    }

    /// The character at frame tile `p` (' ' outside the frame).
    fn at(&self, p: (i64, i64)) -> char {
        if self.in_frame(p) {
            self.grid[self.idx(p)]
        } else {
            ' '
        }
    }

    /// The slot holding frame tile `p`.
    fn slot(&self, p: (i64, i64)) -> (i64, i64) {
        (
            (p.0 + self.origin.0).div_euclid(SLOT),
            (p.1 + self.origin.1).div_euclid(SLOT),
        )
    }

    /// Frame tile `p` in its slot's tiles.
    fn local(&self, p: (i64, i64)) -> (i64, i64) {
        (
            (p.0 + self.origin.0).rem_euclid(SLOT),
            (p.1 + self.origin.1).rem_euclid(SLOT),
        )
    }

    /// The frame tile of slot `slot`'s tile `l`.
    fn frame_of(&self, slot: (i64, i64), l: (i64, i64)) -> (i64, i64) {
        (
            slot.0 * SLOT + l.0 - self.origin.0,
            slot.1 * SLOT + l.1 - self.origin.1,
        )
    }

    fn start(&self) -> &RoomJ {
        &self.rooms[&(None, START)]
    }

    /// The rooms of the avatar's map: the start room and its branch's rooms, or in the start
    /// room (the hub) the start room and the first room of each current branch.
    fn map_rooms(&self) -> Vec<(RKey, &RoomJ)> {
        let mut out = vec![((None, START), self.start())];
        match self.branch {
            None => {
                for s in 0..4 {
                    if let Some(b) = self.current[s] {
                        let k = (Some(b), add(START, s));
                        out.push((k, &self.rooms[&k]));
                    }
                }
            }
            Some(b) => out.extend(
                self.rooms
                    .iter()
                    .filter(|(k, _)| k.0 == Some(b))
                    .map(|(k, r)| (*k, r)),
            ),
        }
        out
    }

    /// The rooms of branch `b`.
    fn branch_rooms(&self, b: u64) -> impl Iterator<Item = (&RKey, &RoomJ)> {
        self.rooms.iter().filter(move |(k, _)| k.0 == Some(b))
    }

    /// The avatar's room's key.
    fn avatar_room(&self) -> RKey {
        (self.branch, self.room)
    }

    /// What the avatar stands on, worked out from the JSON: a feature, an exit, or floor.
    fn under_avatar(&self) -> char {
        if let Some(f) = self.features.iter().find(|f| f.at == self.avatar) {
            return f.glyph();
        }
        let Some(s) = edge_side(self.local(self.avatar)) else {
            return '·';
        };
        match self.rooms[&self.avatar_room()].exits[s] {
            Some(Ex::Unexplored) => '+',
            Some(Ex::OneWay) => ARROWS[s],
            Some(Ex::TwoWay) | None => '·',
            Some(Ex::Locked) => panic!("the avatar stands on a locked door"),
        }
    }

    /// The rows with the avatar replaced by what it stands on (the walker's map).
    fn ground(&self) -> Vec<char> {
        let mut g = self.grid.clone();
        let i = self.idx(self.avatar);
        g[i] = self.under_avatar();
        g
    }

    /// The branch's unexplored exits as the JSON shows them: `"unexplored"` ones, plus
    /// `"locked"` ones into empty slots of the branch (see the module's documentation).
    fn own_unexplored(&self, b: u64) -> u64 {
        let mut n = 0;
        for ((_, pos), r) in self.branch_rooms(b) {
            for s in 0..4 {
                let empty = !self.rooms.contains_key(&(Some(b), add(*pos, s)));
                match r.exits[s] {
                    Some(Ex::Unexplored) => n += 1,
                    Some(Ex::Locked) if empty && add(*pos, s) != START => n += 1,
                    _ => {}
                }
            }
        }
        n
    }
}

// ---------------------------------------------------------------------------- the checker

/// A room made by a step, as the events told it.
#[derive(Debug, Clone, Copy)]
struct Made {
    room: (i64, i64),
    branch: u64,
    /// The side the avatar stepped (the new room's way back is the opposite).
    dir: usize,
    new_branch: bool,
}

/// A key that counted a move (a step, or the step into the way up), as the score and the
/// clock need it (docs/explore.md).
#[derive(Debug, Clone, Copy)]
struct Turn {
    /// The points its features paid, by the tests' own depth table ([`feature_points`]).
    earned: u64,
    /// Whether the avatar stood outside the start room after it.
    outside: bool,
    /// Whether it ended the exploration: banked (the way up) or lost.
    ended: bool,
    lost: bool,
}

/// What the keys fed since the last look at the JSON did, from their events.
#[derive(Debug, Default)]
struct Since {
    moved: u64,
    /// Each key that counted a move, in order.
    turns: Vec<Turn>,
    blocked: u64,
    hurt: u64,
    scored: u64,
    cleared: Vec<(i64, i64)>,
    made: Option<Made>,
    /// The room and branch the last step entered, if the last step crossed a slot border.
    entered_now: Option<((i64, i64), Option<u64>)>,
    last_dir: Option<usize>,
    banked: Option<u64>,
    won: bool,
    lost: bool,
}

/// Totals over a checker's walks, for the report.
#[derive(Debug, Default, Clone)]
struct Stats {
    seeds: u64,
    keys: u64,
    looks: u64,
    rooms_made: u64,
    branches_made: u64,
    retired: u64,
    dead_ends: u64,
    forced_dead_ends: u64,
    one_way_made: u64,
    /// Of those, exits converted behind a lock (their room not yet clear).
    one_way_behind_locks: u64,
    cleared: u64,
    locked_rooms: u64,
    arrows_walked: u64,
    most_rooms_in_a_branch: u64,
    most_rooms_in_a_seed: u64,
    fewest_rooms_in_a_seed: u64,
    /// Ticks of the clock with points carried, and the points they took.
    clock_ticks: u64,
    points_faded: u64,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.seeds += o.seeds;
        self.keys += o.keys;
        self.looks += o.looks;
        self.rooms_made += o.rooms_made;
        self.branches_made += o.branches_made;
        self.retired += o.retired;
        self.dead_ends += o.dead_ends;
        self.forced_dead_ends += o.forced_dead_ends;
        self.one_way_made += o.one_way_made;
        self.one_way_behind_locks += o.one_way_behind_locks;
        self.cleared += o.cleared;
        self.locked_rooms += o.locked_rooms;
        self.arrows_walked += o.arrows_walked;
        self.clock_ticks += o.clock_ticks;
        self.points_faded += o.points_faded;
        self.most_rooms_in_a_branch = self.most_rooms_in_a_branch.max(o.most_rooms_in_a_branch);
        self.most_rooms_in_a_seed = self.most_rooms_in_a_seed.max(o.most_rooms_in_a_seed);
        self.fewest_rooms_in_a_seed = if self.seeds == o.seeds {
            o.fewest_rooms_in_a_seed
        } else {
            self.fewest_rooms_in_a_seed.min(o.fewest_rooms_in_a_seed)
        };
    }
}

/// The independent checker: its own record of every room's way back and of the exits that
/// must be one-way (each seen arising from a conversion), and the rules of docs/explore.md checked on
/// every JSON state it is shown, and between consecutive ones.
#[derive(Debug, Default, Clone)]
struct Checker {
    back: BTreeMap<RKey, usize>,
    one_way: BTreeSet<(RKey, usize)>,
    stats: Stats,
}

impl Checker {
    /// Everything one JSON state must satisfy on its own (given the checker's record).
    fn state(&self, v: &View, ctx: &str) {
        // The game's fields.
        match v.status.as_str() {
            "playing" => {
                assert_eq!(v.end, None, "{ctx}");
                assert!(v.health >= 1 && v.health <= 3, "{ctx}: health {}", v.health);
            }
            "won" => assert_eq!(v.end.as_deref(), Some("banked"), "{ctx}"),
            "lost" => {
                assert_eq!(v.end.as_deref(), Some("lost"), "{ctx}");
                assert_eq!((v.health, v.score), (0, 0), "{ctx}: lost, health and score");
            }
            s => panic!("{ctx}: status {s:?}"),
        }
        // The avatar: its tile, its room (the slot of its dungeon tile), its depth, its map.
        assert!(v.in_frame(v.avatar), "{ctx}: avatar outside the frame");
        assert_eq!(v.at(v.avatar), '@', "{ctx}: no @ at avatar {:?}", v.avatar);
        let ats = v.grid.iter().filter(|c| **c == '@').count();
        assert_eq!(ats, 1, "{ctx}: {ats} @ in the rows");
        let tile = (v.avatar.0 + v.origin.0, v.avatar.1 + v.origin.1);
        let room = (tile.0.div_euclid(SLOT), tile.1.div_euclid(SLOT));
        assert_eq!(v.room, room, "{ctx}: room is not floor(avatar tile / 13)");
        assert_eq!(v.depth, depth_of(room), "{ctx}: the avatar's depth");
        assert_eq!(
            v.branch.is_none(),
            room == START,
            "{ctx}: branch null iff start"
        );
        assert!(
            v.rooms.contains_key(&v.avatar_room()),
            "{ctx}: no room here"
        );

        // The start room: (0, 0), depth 0, clear, four exits, each two-way exactly while a
        // branch is behind it.
        let start = v.start();
        assert_eq!(
            (start.depth, start.clear, start.features),
            (0, true, 0),
            "{ctx}"
        );
        for s in 0..4 {
            let want = if v.current[s].is_some() {
                Ex::TwoWay
            } else {
                Ex::Unexplored
            };
            assert_eq!(start.exits[s], Some(want), "{ctx}: start exit {}", SIDES[s]);
        }

        // Branches: ids in order, their first room, the timer, `current`.
        for (i, b) in v.branches.iter().enumerate() {
            assert_eq!(b.id, i as u64, "{ctx}: branch ids");
            let first = add(START, b.entrance);
            assert!(
                v.rooms.contains_key(&(Some(b.id), first)),
                "{ctx}: branch {i} has no first room at {first:?}"
            );
            let count = v.branch_rooms(b.id).count() as u64;
            assert_eq!(b.rooms, count, "{ctx}: branch {i}'s room count");
            assert_eq!(
                v.current[b.entrance] == Some(b.id),
                !b.retired,
                "{ctx}: branch {i} is current exactly while not retired"
            );
            assert!(b.made_at <= v.moves, "{ctx}");
            if b.retired {
                assert!(
                    b.made_at + v.branch_timer <= v.moves,
                    "{ctx}: branch {i} retired early"
                );
            } else {
                assert!(
                    v.moves - b.made_at < v.branch_timer,
                    "{ctx}: branch {i} outlived its timer (made at {}, now {})",
                    b.made_at,
                    v.moves
                );
            }
        }
        for s in 0..4 {
            if let Some(id) = v.current[s] {
                let b = &v.branches[id as usize];
                assert!(b.entrance == s && !b.retired, "{ctx}: current {}", SIDES[s]);
            }
        }

        // Every branch room: one per slot (the parse refuses duplicates), never at the start's
        // slot, the depth, its way back, locks, exits consistent with their slots.
        let mut unexplored = vec![0u64; v.branches.len()];
        for (&key, r) in &v.rooms {
            let (Some(b), pos) = key else { continue };
            let ctx = format!("{ctx}: room {pos:?} of branch {b}");
            assert!((b as usize) < v.branches.len(), "{ctx}: unknown branch");
            assert_ne!(pos, START, "{ctx}: a branch room in the start's slot");
            assert_eq!(r.depth, depth_of(pos), "{ctx}: depth");
            assert_eq!(r.clear, r.features == 0, "{ctx}: clear iff no feature left");
            if r.depth <= 1 {
                assert!(r.clear, "{ctx}: a depth-{} room with features", r.depth);
            }
            let branch = &v.branches[b as usize];
            let first = pos == add(START, branch.entrance);
            let back = *self
                .back
                .get(&key)
                .unwrap_or_else(|| panic!("{ctx}: a room the checker never saw made"));
            if first {
                assert_eq!(
                    back,
                    opposite(branch.entrance),
                    "{ctx}: first room's way back"
                );
            }
            for s in 0..4 {
                let t = add(pos, s);
                let Some(e) = r.exits[s] else {
                    assert_ne!(s, back, "{ctx}: no way back");
                    continue;
                };
                if t == START {
                    assert!(
                        first && s == back,
                        "{ctx}: an exit {} into the start room",
                        SIDES[s]
                    );
                }
                let there = v.rooms.get(&(Some(b), t));
                if s == back {
                    let want = if first && branch.retired {
                        Ex::OneWay
                    } else {
                        Ex::TwoWay
                    };
                    assert_eq!(e, want, "{ctx}: its way back {}", SIDES[s]);
                    if t != START {
                        let parent = there.unwrap_or_else(|| panic!("{ctx}: way back to no room"));
                        assert_eq!(
                            parent.exits[opposite(s)],
                            Some(Ex::TwoWay),
                            "{ctx}: the room it was entered from"
                        );
                    }
                    continue;
                }
                if r.clear {
                    assert_ne!(e, Ex::Locked, "{ctx}: a locked exit in a clear room");
                } else {
                    assert_eq!(
                        e,
                        Ex::Locked,
                        "{ctx}: exit {} open in a room not clear",
                        SIDES[s]
                    );
                }
                let converted = self.one_way.contains(&(key, s));
                match e {
                    Ex::TwoWay => {
                        // Only a walked exit is two-way: the room there was entered from here.
                        assert!(there.is_some(), "{ctx}: two-way into no room");
                        assert_eq!(
                            self.back.get(&(Some(b), t)),
                            Some(&opposite(s)),
                            "{ctx}: two-way exit {} not the way back of the room there",
                            SIDES[s]
                        );
                        assert!(!converted, "{ctx}");
                    }
                    Ex::OneWay => {
                        assert!(converted, "{ctx}: a one-way exit {} from nowhere", SIDES[s]);
                        let there = there.unwrap_or_else(|| panic!("{ctx}: one-way into nothing"));
                        assert_eq!(
                            there.exits[opposite(s)],
                            None,
                            "{ctx}: one-way with a way back"
                        );
                    }
                    Ex::Unexplored => {
                        assert!(there.is_none(), "{ctx}: unexplored exit into a room");
                        assert!(!converted, "{ctx}");
                        unexplored[b as usize] += 1;
                    }
                    Ex::Locked => match there {
                        None => {
                            assert!(!converted, "{ctx}");
                            unexplored[b as usize] += 1;
                        }
                        Some(there) => {
                            assert!(converted, "{ctx}: locked exit into a room, never converted");
                            assert_eq!(there.exits[opposite(s)], None, "{ctx}");
                        }
                    },
                }
            }
        }
        for &((b, pos), s) in &self.one_way {
            let r = &v.rooms[&(b, pos)];
            assert!(
                matches!(r.exits[s], Some(Ex::OneWay | Ex::Locked)),
                "{ctx}: converted exit {} of {pos:?} shows {:?}",
                SIDES[s],
                r.exits[s]
            );
        }
        for (b, n) in unexplored.iter().enumerate() {
            assert_eq!(*n, v.own_unexplored(b as u64), "{ctx}");
            assert_eq!(
                v.branches[b].unexplored, *n,
                "{ctx}: branch {b}'s unexplored count"
            );
            assert!(
                *n <= v.max_unexplored,
                "{ctx}: branch {b} holds {n} unexplored exits > {}",
                v.max_unexplored
            );
        }
        self.tiles(v, ctx);
    }

    /// The printed rows against the rooms: the frame, empty slots blank, every exit's edge
    /// tile, every feature, the way up.
    fn tiles(&self, v: &View, ctx: &str) {
        let map = v.map_rooms();
        // The frame: the hub's 3 × 3 slots, or the slots of the branch's rooms and the start.
        let (mut x0, mut y0, mut x1, mut y1) = (0, 0, 0, 0);
        match v.branch {
            None => (x0, y0, x1, y1) = (-1, -1, 1, 1),
            Some(_) => {
                for ((_, p), _) in &map {
                    (x0, y0, x1, y1) = (x0.min(p.0), y0.min(p.1), x1.max(p.0), y1.max(p.1));
                }
            }
        }
        assert_eq!(
            v.origin,
            (x0 * SLOT, y0 * SLOT),
            "{ctx}: the frame's origin"
        );
        assert_eq!(
            (v.width, v.height),
            ((x1 - x0 + 1) * SLOT, (y1 - y0 + 1) * SLOT),
            "{ctx}: the frame's size"
        );
        let in_map: BTreeSet<(i64, i64)> = map.iter().map(|((_, p), _)| *p).collect();
        for sy in y0..=y1 {
            for sx in x0..=x1 {
                if in_map.contains(&(sx, sy)) {
                    continue;
                }
                for ly in 0..SLOT {
                    for lx in 0..SLOT {
                        let p = v.frame_of((sx, sy), (lx, ly));
                        assert_eq!(v.at(p), ' ', "{ctx}: something drawn in empty slot");
                    }
                }
            }
        }
        // Exits on their edge tiles.
        for ((b, pos), r) in &map {
            for s in 0..4 {
                let p = v.frame_of(*pos, edge_tile(s));
                let want = match r.exits[s] {
                    Some(Ex::Unexplored) => '+',
                    Some(Ex::Locked) => '█',
                    Some(Ex::OneWay) => ARROWS[s],
                    Some(Ex::TwoWay) => '·',
                    None => {
                        // A corridor ends here only if a one-way exit of the room there comes in.
                        let n = b.and_then(|b| v.rooms.get(&(Some(b), add(*pos, s))));
                        let one_way_in = b.is_some()
                            && n.is_some()
                            && self.one_way.contains(&((*b, add(*pos, s)), opposite(s)));
                        if one_way_in { '·' } else { ' ' }
                    }
                };
                let got = if p == v.avatar {
                    v.under_avatar()
                } else {
                    v.at(p)
                };
                assert_eq!(
                    got, want,
                    "{ctx}: exit {} of room {pos:?} ({:?})",
                    SIDES[s], r.exits[s]
                );
            }
        }
        // Features: each listed one drawn where listed, nothing else drawn as one, and a room
        // not yet clear counts exactly its unhandled ones.
        let mut on_avatar = 0;
        let mut unhandled: BTreeMap<(i64, i64), u64> = BTreeMap::new();
        for f in &v.features {
            assert!(v.in_frame(f.at), "{ctx}: a feature outside the frame");
            assert!(
                in_map.contains(&v.slot(f.at)),
                "{ctx}: a feature in no room"
            );
            if f.at == v.avatar {
                on_avatar += 1;
            } else {
                assert_eq!(v.at(f.at), f.glyph(), "{ctx}: feature at {:?}", f.at);
            }
            if !f.handled {
                *unhandled.entry(v.slot(f.at)).or_default() += 1;
            }
        }
        let glyphs = v
            .grid
            .iter()
            .filter(|c| matches!(c, '◇' | '◆' | '△' | '▴'))
            .count();
        assert_eq!(
            glyphs + on_avatar,
            v.features.len(),
            "{ctx}: features drawn"
        );
        for ((_, pos), r) in &map {
            if !r.clear {
                let n = unhandled.get(pos).copied().unwrap_or(0);
                assert_eq!(r.features, n, "{ctx}: room {pos:?}'s features left");
            }
        }
        // What was seen (docs/sight.md): the same frame, each tile blank (never seen) or drawn as it
        // is now; the avatar's own tile always seen.
        let seen = v.json["seen"].as_array().expect("seen");
        assert_eq!(seen.len() as i64, v.height, "{ctx}: seen rows");
        for (i, row) in seen.iter().enumerate() {
            let y = v.height - 1 - i as i64;
            let mut n = 0;
            for (x, c) in row.as_str().expect("a seen row").chars().enumerate() {
                let now = v.at((x as i64, y));
                assert!(c == ' ' || c == now, "{ctx}: seen {c:?} where {now:?} is");
                n += 1;
            }
            assert_eq!(n, v.width, "{ctx}: a seen row's width");
        }
        let (ax, ay) = v.avatar;
        let seen_avatar = seen[(v.height - 1 - ay) as usize]
            .as_str()
            .and_then(|r| r.chars().nth(ax as usize));
        assert_eq!(seen_avatar, Some('@'), "{ctx}: the avatar's tile unseen");
        // The way up, in the start room.
        assert_eq!(
            v.slot(v.exit),
            START,
            "{ctx}: the way up outside the start room"
        );
        assert_eq!(v.at(v.exit), '<', "{ctx}: no < at exit");
        assert_eq!(v.grid.iter().filter(|c| **c == '<').count(), 1, "{ctx}");
    }

    /// The step from the state `prev` to `v`, whose keys did `since`: the rooms made, the
    /// conversions, the locks opened, the branches retired, and nothing else changed.
    fn step(&mut self, prev: &View, v: &View, since: &Since, ctx: &str) {
        self.stats.looks += 1;
        assert_eq!(v.moves, prev.moves + since.moved, "{ctx}: moves");
        assert_eq!(
            since.turns.len() as u64,
            since.moved,
            "{ctx}: the keys that counted"
        );
        assert_eq!(v.health, prev.health - since.hurt, "{ctx}: health");
        // The score, key by key (docs/explore.md): the points of the features paid the first
        // time (the depth table's), then, but on the key that ended the exploration, the
        // clock: on every 20th move with the avatar outside the start room the points carried
        // lose 4%, rounded up. The way up banks what is carried; the loss forfeits it.
        let (mut carried, mut moves) = (prev.score, prev.moves);
        let (mut faded, mut forfeited) = (0, None);
        for t in &since.turns {
            carried += t.earned;
            moves += 1;
            if t.lost {
                forfeited = Some(carried);
                carried = 0;
            } else if !t.ended && clock_ticks(moves, t.outside) {
                let took = clock_takes(carried);
                carried -= took;
                faded += took;
                self.stats.clock_ticks += u64::from(took > 0);
                self.stats.points_faded += took;
            }
        }
        if v.status == "playing" || v.status == "won" {
            assert_eq!(
                v.score, carried,
                "{ctx}: score (from {}: the features' points, less {faded} the clock took)",
                prev.score
            );
        }
        if v.status == "playing" && faded == 0 {
            // With nothing faded, the score grows exactly when a feature pays.
            assert_eq!(v.score > prev.score, since.scored > 0, "{ctx}: score");
            assert!(v.score >= prev.score, "{ctx}: score fell");
        }
        if since.lost {
            assert_eq!(Some(v.forfeited), forfeited, "{ctx}: forfeited");
        }
        if let Some(banked) = since.banked {
            assert_eq!(banked, v.score, "{ctx}: banked score");
        }
        let was = |s: &str| prev.status == s;
        assert_eq!(was("won") || since.won, v.status == "won", "{ctx}: won");
        assert_eq!(was("lost") || since.lost, v.status == "lost", "{ctx}: lost");
        if let Some((room, branch)) = since.entered_now {
            assert_eq!((v.room, v.branch), (room, branch), "{ctx}: entered");
        }
        // Branches only grow and only retire.
        let new_branch = since.made.is_some_and(|m| m.new_branch);
        assert_eq!(
            v.branches.len(),
            prev.branches.len() + usize::from(new_branch),
            "{ctx}: branches made"
        );
        let mut newly_retired = Vec::new();
        for (pb, nb) in prev.branches.iter().zip(&v.branches) {
            assert_eq!(
                (pb.id, pb.entrance, pb.made_at),
                (nb.id, nb.entrance, nb.made_at),
                "{ctx}"
            );
            assert!(!pb.retired || nb.retired, "{ctx}: a branch un-retired");
            if nb.retired && !pb.retired {
                newly_retired.push(nb.id);
                self.stats.retired += 1;
            }
        }
        // Rooms: none lost; exactly the one made is new.
        for k in prev.rooms.keys() {
            assert!(v.rooms.contains_key(k), "{ctx}: room {k:?} vanished");
        }
        let fresh: Vec<RKey> = v
            .rooms
            .keys()
            .filter(|k| !prev.rooms.contains_key(k))
            .copied()
            .collect();
        match since.made {
            None => assert!(fresh.is_empty(), "{ctx}: rooms appeared: {fresh:?}"),
            Some(m) => {
                assert_eq!(
                    fresh,
                    vec![(Some(m.branch), m.room)],
                    "{ctx}: the room made"
                );
                self.made(prev, v, m, ctx);
            }
        }
        // Every room that was there: unchanged but for the documented changes.
        let avatar_room = v.avatar_room();
        let touched = since.scored + since.hurt > 0;
        for (&k, pr) in &prev.rooms {
            let got = &v.rooms[&k];
            let mut want = pr.clone();
            if k.0.is_none() {
                want.exits = got.exits; // the start's exits follow `current` (checked above)
            }
            if let Some(m) = since.made {
                let back = opposite(m.dir);
                let from = add(m.room, back);
                if k.1 == from && (k.0 == Some(m.branch) || from == START) {
                    if from == START {
                        assert!(
                            matches!(pr.exits[m.dir], Some(Ex::Unexplored | Ex::TwoWay)),
                            "{ctx}"
                        );
                    } else {
                        assert_eq!(pr.exits[m.dir], Some(Ex::Unexplored), "{ctx}: walked exit");
                        want.exits[m.dir] = Some(Ex::TwoWay);
                    }
                }
                // Conversions: another exit of the branch into the new room's slot turns one-way.
                if k.0 == Some(m.branch) && k.1 != from {
                    for s in 0..4 {
                        if add(k.1, s) == m.room && pr.exits[s].is_some() {
                            let was = pr.exits[s];
                            assert!(
                                matches!(was, Some(Ex::Unexplored | Ex::Locked)),
                                "{ctx}: exit {} of {:?} into an empty slot was {was:?}",
                                SIDES[s],
                                k.1
                            );
                            want.exits[s] = if was == Some(Ex::Unexplored) {
                                Some(Ex::OneWay)
                            } else {
                                Some(Ex::Locked)
                            };
                            self.one_way.insert((k, s));
                            self.stats.one_way_made += 1;
                            self.stats.one_way_behind_locks += u64::from(was == Some(Ex::Locked));
                        }
                    }
                }
            }
            if let (Some(b), pos) = k
                && newly_retired.contains(&b)
                && pos == add(START, v.branches[b as usize].entrance)
            {
                let back = opposite(v.branches[b as usize].entrance);
                assert_eq!(pr.exits[back], Some(Ex::TwoWay), "{ctx}: way back before");
                want.exits[back] = Some(Ex::OneWay);
            }
            if touched && k == avatar_room && k.0.is_some() {
                want.features = got.features; // checked against the drawn features
                if !pr.clear && got.clear {
                    assert!(since.cleared.contains(&k.1), "{ctx}: cleared with no event");
                    self.stats.cleared += 1;
                    want.clear = true;
                    let back = self.back[&k];
                    for s in 0..4 {
                        if s != back && want.exits[s] == Some(Ex::Locked) {
                            want.exits[s] = Some(if self.one_way.contains(&(k, s)) {
                                Ex::OneWay
                            } else {
                                Ex::Unexplored
                            });
                        }
                    }
                }
            }
            assert_eq!(got, &want, "{ctx}: room {k:?} changed");
        }
        for c in &since.cleared {
            assert_eq!(*c, v.room, "{ctx}: a room cleared away from the avatar");
        }
        self.state(v, ctx);
    }

    /// The room just made: its way back, its new exits into free slots only, the budget and
    /// the dead-end rule (with the one forced exception).
    fn made(&mut self, prev: &View, v: &View, m: Made, ctx: &str) {
        let ctx = format!("{ctx}: room {:?} made in branch {}", m.room, m.branch);
        self.stats.rooms_made += 1;
        let key = (Some(m.branch), m.room);
        let n = &v.rooms[&key];
        let back = opposite(m.dir);
        let from = add(m.room, back);
        if !n.clear {
            self.stats.locked_rooms += 1;
        }
        assert_eq!(n.depth, depth_of(m.room), "{ctx}: depth");
        let two_ways: Vec<usize> = (0..4).filter(|s| n.exits[*s] == Some(Ex::TwoWay)).collect();
        assert_eq!(
            two_ways,
            vec![back],
            "{ctx}: a new room's only two-way exit is its way back"
        );
        self.back.insert(key, back);
        if m.new_branch {
            self.stats.branches_made += 1;
            assert_eq!(from, START, "{ctx}: a new branch starts next to the start");
            assert_eq!(m.branch, prev.branches.len() as u64, "{ctx}: the new id");
            let b = &v.branches[m.branch as usize];
            assert_eq!(b.entrance, m.dir, "{ctx}: entrance");
            assert_eq!(b.made_at, v.moves, "{ctx}: the timer starts at this move");
            assert_eq!(v.current[m.dir], Some(m.branch), "{ctx}: current");
            // The start's exit led into no branch, or into one that retired at this step.
            match prev.current[m.dir] {
                None => assert_eq!(prev.start().exits[m.dir], Some(Ex::Unexplored), "{ctx}"),
                Some(old) => assert!(v.branches[old as usize].retired, "{ctx}: old branch"),
            }
        } else {
            assert_ne!(from, START, "{ctx}: a first room made without a new branch");
            assert!(
                prev.rooms.contains_key(&(Some(m.branch), from)),
                "{ctx}: entered from no room"
            );
        }
        // New exits: only into free slots (neither a room of the branch nor the start).
        let mut free = 0;
        let mut outs = 0;
        for s in 0..4 {
            if s == back {
                continue;
            }
            let t = add(m.room, s);
            let taken = t == START || prev.rooms.contains_key(&(Some(m.branch), t));
            free += u64::from(!taken);
            if let Some(e) = n.exits[s] {
                assert!(
                    !taken,
                    "{ctx}: an exit {} into a room or the start",
                    SIDES[s]
                );
                let want = if n.clear { Ex::Unexplored } else { Ex::Locked };
                assert_eq!(e, want, "{ctx}: a new exit {}", SIDES[s]);
                outs += 1;
            }
        }
        let left = v.own_unexplored(m.branch);
        assert!(
            left <= v.max_unexplored,
            "{ctx}: budget {left} > {}",
            v.max_unexplored
        );
        if outs == 0 {
            self.stats.dead_ends += 1;
            if left == 0 {
                // The forced dead end (docs/explore.md): no free side at all.
                assert_eq!(
                    free, 0,
                    "{ctx}: a dead end with no unexplored exit left in the branch"
                );
                self.stats.forced_dead_ends += 1;
            }
        }
        let in_branch = v.branch_rooms(m.branch).count() as u64;
        self.stats.most_rooms_in_a_branch = self.stats.most_rooms_in_a_branch.max(in_branch);
    }
}

// ---------------------------------------------------------------------------- the walker

/// What the walker is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// The full mixture: features, unexplored exits, one-way exits, back to the start, random
    /// crossings and random keys.
    Roam,
    /// Features in the avatar's room, then the nearest unexplored exit of its branch (none in
    /// the start room), nothing else.
    Frontier,
}

/// A plan: keys computed from one look at the rows, or a few random keys.
enum Plan {
    Keys(Vec<char>),
    Random(usize),
}

/// An exploration fed key by key, with the checker looking at every JSON state the walker
/// reads.
struct Walk {
    it: Interpreter,
    store: MemoryStore,
    seed: u64,
    settings: ExploreSettings,
    rng: Rng,
    style: Style,
    view: View,
    since: Since,
    /// The avatar's frame position, followed through `Moved` events between looks.
    pos: (i64, i64),
    cur_branch: Option<u64>,
    /// The avatar's room, followed through `Entered` events between looks.
    cur_room: (i64, i64),
    need_look: bool,
    /// The rows of the last look with the avatar replaced by what it stood on: the walker's
    /// map until the next look (between looks only the avatar moves, and a branch may retire,
    /// which never closes a path the walker plans).
    ground: Vec<char>,
    /// Whether to skip reading the JSON at the end of a path that changed nothing but the
    /// avatar's place (the checker shards: reading the JSON is most of their time).
    lazy: bool,
    /// The movement keys fed, in order (for replays).
    keys: String,
    /// Indices into `keys` of the keys that made a room / a new branch.
    made_idx: Vec<usize>,
    branch_idx: Vec<usize>,
    /// Traps rearmed so far.
    rearmed: u64,
    /// The features that have paid, by their room's branch (`None`: the start room) and
    /// dungeon tile: each pays once (a trap sprung and rearmed again pays nothing).
    paid: std::collections::BTreeSet<(Option<u64>, (i64, i64))>,
    /// The keys the game took (all but bumps): its history after `E<seed>S` must be these.
    taken: String,
    /// One-way exits crossed along their arrow.
    arrows_walked: u64,
    ck: Checker,
}

fn feed(it: &mut Interpreter, store: &mut MemoryStore, keys: &str) -> Outcome {
    let mut last = Outcome::Accepted;
    for k in keys.chars() {
        last = it.feed(k, store).expect("a key the interpreter takes");
    }
    last
}

/// An interpreter making explorations with `settings`.
fn interpreter(settings: ExploreSettings) -> Interpreter {
    Interpreter::new(80, 30, GeneratorSettings::default()).with_explore(settings)
}

fn settings_for(seed: u64) -> ExploreSettings {
    let mut rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x51);
    ExploreSettings {
        max_unexplored: 1 + rng.below(6) as u32,
        branch_timer: 30 + rng.below(1971),
        monsters: false,
    }
}

impl Walk {
    fn new(seed: u64, settings: ExploreSettings, style: Style) -> Walk {
        let mut it = interpreter(settings);
        let mut store = MemoryStore::default();
        let out = feed(&mut it, &mut store, &format!("E{seed}S"));
        assert_eq!(out, Outcome::Started, "E{seed}S");
        let view = View::parse(byog_players::json::state(&it));
        let mut ck = Checker::default();
        ck.stats.seeds = 1;
        // The first state: the start room alone, its four exits unexplored, the avatar on its
        // centre, full health, nothing scored.
        let ctx = format!("seed {seed} {settings:?}: the start");
        assert_eq!(view.rooms.len(), 1, "{ctx}");
        assert!(view.branches.is_empty(), "{ctx}");
        assert_eq!(view.current, [None; 4], "{ctx}");
        assert_eq!((view.moves, view.score, view.health), (0, 0, 3), "{ctx}");
        assert_eq!(view.local(view.avatar), (MID, MID), "{ctx}");
        assert_eq!(
            view.max_unexplored,
            u64::from(settings.max_unexplored),
            "{ctx}"
        );
        assert_eq!(view.branch_timer, settings.branch_timer, "{ctx}");
        ck.state(&view, &ctx);
        Walk {
            it,
            store,
            seed,
            settings,
            rng: Rng(seed ^ 0xC0FF_EE00_D15C_0000),
            style,
            pos: view.avatar,
            ground: view.ground(),
            cur_branch: view.branch,
            cur_room: view.room,
            view,
            since: Since::default(),
            need_look: false,
            lazy: false,
            keys: String::new(),
            made_idx: Vec::new(),
            branch_idx: Vec::new(),
            rearmed: 0,
            paid: Default::default(),
            taken: String::new(),
            arrows_walked: 0,
            ck,
        }
    }

    fn ctx(&self) -> String {
        format!(
            "seed {} {:?}, after {} keys (E{}S{})",
            self.seed,
            self.settings,
            self.keys.len(),
            self.seed,
            self.keys
        )
    }

    fn playing(&self) -> bool {
        self.view.status == "playing"
    }

    /// A feature's identity: its room's branch and its dungeon tile, from its frame
    /// position `at` in the map of the last look (a step onto a feature never changes maps).
    fn feature_key(&self, at: (i64, i64)) -> (Option<u64>, (i64, i64)) {
        let v = &self.view;
        let tile = (at.0 + v.origin.0, at.1 + v.origin.1);
        let slot = v.slot(at);
        let branch = match v.branch {
            Some(b) => Some(b),
            None if slot == START => None,
            // The hub: a first room, of the branch its start exit leads into now (up, right,
            // down, left).
            None => {
                let side = [(0, 1), (1, 0), (0, -1), (-1, 0)]
                    .iter()
                    .position(|&d| d == slot)
                    .expect("the hub holds the start room and the first rooms");
                v.current[side]
            }
        };
        (branch, tile)
    }

    /// Feeds one movement key and records what its events say.
    fn press(&mut self, k: char) -> Vec<Event> {
        let out = self.it.feed(k, &mut self.store).expect("a movement key");
        let Outcome::Acted(events) = out else {
            panic!("{}: key {k} gave {out:?}", self.ctx());
        };
        let idx = self.keys.len();
        self.keys.push(k);
        let events = events.as_slice().to_vec();
        if !events.iter().any(|e| matches!(e, Event::Blocked { .. })) {
            self.taken.push(k);
        }
        let mut entered = None;
        let mut moved = false;
        let mut turn = Turn {
            earned: 0,
            outside: false,
            ended: false,
            lost: false,
        };
        let mut counted = false;
        for e in &events {
            match *e {
                Event::Moved { to, direction } => {
                    self.since.moved += 1;
                    counted = true;
                    self.pos = (i64::from(to.x), i64::from(to.y));
                    self.since.last_dir = Some(side_of(direction));
                    moved = true;
                }
                Event::Blocked { .. } => self.since.blocked += 1,
                Event::Entered {
                    room,
                    branch,
                    made,
                    new_branch,
                } => {
                    let room = (i64::from(room.x), i64::from(room.y));
                    let branch = branch.map(u64::from);
                    entered = Some((room, branch));
                    if made {
                        assert!(self.since.made.is_none(), "{}: two rooms made", self.ctx());
                        self.since.made = Some(Made {
                            room,
                            branch: branch.expect("a room made is in a branch"),
                            dir: self.since.last_dir.expect("a step before"),
                            new_branch,
                        });
                        self.made_idx.push(idx);
                        self.need_look = true;
                    }
                    assert!(made || !new_branch, "{}: a new branch, no room", self.ctx());
                    if new_branch {
                        self.branch_idx.push(idx);
                    }
                    if branch != self.cur_branch {
                        self.need_look = true;
                    }
                    self.cur_branch = branch;
                    self.cur_room = room;
                }
                Event::Refilled { at } | Event::Rearmed { at } => {
                    let chest = matches!(e, Event::Refilled { .. });
                    self.rearmed += u64::from(!chest);
                    let key = self.feature_key((i64::from(at.x), i64::from(at.y)));
                    if self.paid.insert(key) {
                        self.since.scored += 1;
                        let tile = key.1;
                        let room = (tile.0.div_euclid(SLOT), tile.1.div_euclid(SLOT));
                        turn.earned += feature_points(chest, depth_of(room));
                    }
                    self.need_look = true;
                }
                Event::Hurt { .. } => {
                    self.since.hurt += 1;
                    self.need_look = true;
                }
                Event::Cleared { room } => {
                    self.since
                        .cleared
                        .push((i64::from(room.x), i64::from(room.y)));
                    self.need_look = true;
                }
                Event::Banked { score } => {
                    // Walking into the way up is a move (counted), though the avatar stays.
                    self.since.moved += 1;
                    counted = true;
                    turn.ended = true;
                    self.since.banked = Some(score);
                    self.need_look = true;
                }
                Event::Won => {
                    self.since.won = true;
                    self.need_look = true;
                }
                Event::Lost(_) => {
                    self.since.lost = true;
                    (turn.ended, turn.lost) = (true, true);
                    self.need_look = true;
                }
                _ => {}
            }
        }
        if moved {
            self.since.entered_now = entered;
        }
        if counted {
            turn.outside = self.cur_room != START;
            self.since.turns.push(turn);
        } else {
            assert_eq!(turn.earned, 0, "{}: points with no move", self.ctx());
        }
        events
    }

    /// Reads the JSON state again and checks it, and the step from the last one.
    fn look(&mut self) {
        let v = View::parse(byog_players::json::state(&self.it));
        let since = std::mem::take(&mut self.since);
        let ctx = self.ctx();
        self.ck.step(&self.view, &v, &since, &ctx);
        self.pos = v.avatar;
        self.cur_branch = v.branch;
        self.cur_room = v.room;
        self.need_look = false;
        self.ground = v.ground();
        self.view = v;
    }

    /// Looks if a key was fed since the last look.
    fn fresh(&mut self) {
        if self.since.moved + self.since.blocked > 0 {
            self.look();
        }
    }

    /// Looks at the end of a plan: always, or when lazy only if something but the avatar's
    /// place changed.
    fn end_plan(&mut self) {
        if self.need_look || !self.lazy {
            self.look();
        }
    }

    /// Feeds planned keys; a key the walker's own model says is walkable must not be
    /// refused. Stops early to look again when the map, the rooms or the features changed.
    fn keys(&mut self, keys: &[char], budget: usize) {
        let g = std::mem::take(&mut self.ground);
        for &k in keys {
            if self.keys.len() >= budget {
                break;
            }
            let before = self.since.blocked;
            let on = g[self.view.idx(self.pos)];
            let events = self.press(k);
            if ARROWS.iter().zip(KEYS).any(|(a, key)| *a == on && key == k)
                && entered(&events).is_some()
            {
                self.arrows_walked += 1;
            }
            assert_eq!(
                self.since.blocked,
                before,
                "{}: the walker's path over the printed rows was refused at key {k}",
                self.ctx()
            );
            if self.need_look {
                break;
            }
        }
        self.ground = g;
        self.end_plan();
    }

    /// A few random keys, never into the way up or onto an armed trap (as printed).
    fn random(&mut self, n: usize, budget: usize) {
        let g = std::mem::take(&mut self.ground);
        for _ in 0..n {
            if self.keys.len() >= budget {
                break;
            }
            let s = self.rng.below(4) as usize;
            let q = add(self.pos, s);
            let c = if self.view.in_frame(q) {
                g[self.view.idx(q)]
            } else {
                ' '
            };
            if c == '<' || c == '▴' {
                continue;
            }
            self.press(KEYS[s]);
            if self.need_look {
                break;
            }
        }
        self.ground = g;
        self.end_plan();
    }

    /// One plan, carried out.
    fn act(&mut self, budget: usize) -> bool {
        match self.plan() {
            Some(Plan::Keys(k)) => self.keys(&k, budget),
            Some(Plan::Random(n)) => self.random(n, budget),
            None => return false,
        }
        true
    }

    /// Walks until `budget` keys were fed or the game ended.
    fn run(&mut self, budget: usize) {
        while self.keys.len() < budget && self.playing() {
            if !self.act(budget) {
                break;
            }
        }
    }

    /// The walker's next plan, from its own search over the printed rows.
    fn plan(&mut self) -> Option<Plan> {
        let v = &self.view;
        let g = &self.ground;
        let paths = Paths::search(v, g, self.pos, |c| c == '▴');
        let here = v.slot(self.pos);
        // Features of the avatar's room still to handle (a chest to refill, a trap to rearm).
        let mut feats = Vec::new();
        let mut pluses = Vec::new();
        let mut arrows = Vec::new();
        let mut crossings = Vec::new();
        for &p in &paths.order {
            let c = g[v.idx(p)];
            if v.slot(p) == here && matches!(c, '◇' | '△') {
                feats.push(p);
            }
            if let Some(s) = edge_side(v.local(p)) {
                if c == '+' {
                    pluses.push((p, s));
                } else if step(v, g, p, s).is_some() {
                    if c == ARROWS[s] {
                        arrows.push((p, s));
                    }
                    crossings.push((p, s));
                }
            }
        }
        let to = |p: (i64, i64), last: Option<usize>| {
            let mut k = paths.keys_to(v, p);
            k.extend(last.map(|s| KEYS[s]));
            Plan::Keys(k)
        };
        if self.style == Style::Frontier {
            if let Some(&p) = feats.first() {
                return Some(to(p, None));
            }
            let (p, s) = pluses.iter().find(|(p, _)| v.slot(*p) != START)?;
            return Some(to(*p, Some(*s)));
        }
        if !feats.is_empty() && self.rng.below(100) < 92 {
            return Some(to(feats[0], None));
        }
        let start_centre = v.frame_of(START, (MID, MID));
        let can_go_home = here != START && paths.reached(v, start_centre);
        let r = self.rng.below(100);
        let choice = if r < 64 {
            0
        } else if r < 74 {
            1
        } else if r < 82 {
            2
        } else if r < 92 {
            3
        } else {
            4
        };
        for kind in [choice, 0, 3, 2, 4] {
            match kind {
                0 if !pluses.is_empty() => {
                    // Mostly the nearest, sometimes any.
                    let i = if self.rng.below(10) < 7 {
                        0
                    } else {
                        self.rng.below(pluses.len() as u64) as usize
                    };
                    let (p, s) = pluses[i];
                    return Some(to(p, Some(s)));
                }
                1 if !arrows.is_empty() => {
                    let (p, s) = self.rng.pick(&arrows);
                    return Some(to(p, Some(s)));
                }
                2 if can_go_home => return Some(to(start_centre, None)),
                3 if !crossings.is_empty() => {
                    let (p, s) = self.rng.pick(&crossings);
                    return Some(to(p, Some(s)));
                }
                4 => return Some(Plan::Random(1 + self.rng.below(8) as usize)),
                _ => {}
            }
        }
        unreachable!()
    }

    /// Walks back into the start room, stepping on no feature on the way.
    fn home(&mut self) {
        self.fresh();
        for _ in 0..200 {
            if self.view.room == START {
                return;
            }
            let v = &self.view;
            let g = &self.ground;
            let paths = Paths::search(v, g, self.pos, |c| matches!(c, '◇' | '◆' | '△' | '▴'));
            let target = v.frame_of(START, (MID, MID));
            assert!(paths.reached(v, target), "{}: no way home", self.ctx());
            let k = paths.keys_to(v, target);
            self.keys(&k, usize::MAX);
            self.fresh();
        }
        panic!("{}: never got home", self.ctx());
    }

    /// Feeds `keys` one by one, looking after each.
    fn each(&mut self, keys: &str) -> Vec<Event> {
        let mut all = Vec::new();
        for k in keys.chars() {
            all.extend(self.press(k));
            self.look();
        }
        all
    }
}

/// A breadth-first search over the printed rows from one tile.
struct Paths {
    /// The side stepped into each tile (4: the start, 255: not reached).
    prev: Vec<u8>,
    /// Tiles in the order reached (nearest first).
    order: Vec<(i64, i64)>,
}

/// Whether the walker's own model lets the avatar step from `p` to side `s` (over the rows
/// with the avatar replaced by what it stands on): within a slot onto anything walkable but
/// the way up; across a slot border only from a two-way exit (floor) to floor, or along a
/// one-way arrow to floor or an unexplored exit. Crossing from `+` makes a room and is
/// planned apart.
fn step(v: &View, g: &[char], p: (i64, i64), s: usize) -> Option<(i64, i64)> {
    let q = add(p, s);
    if !v.in_frame(q) {
        return None;
    }
    let (cp, cq) = (g[v.idx(p)], g[v.idx(q)]);
    let ok = if v.slot(p) == v.slot(q) {
        matches!(
            cq,
            '·' | '+' | '◇' | '◆' | '△' | '▴' | '↑' | '→' | '↓' | '←'
        )
    } else {
        (cp == '·' && cq == '·') || (cp == ARROWS[s] && matches!(cq, '·' | '+'))
    };
    ok.then_some(q)
}

impl Paths {
    fn search(v: &View, g: &[char], from: (i64, i64), avoid: impl Fn(char) -> bool) -> Paths {
        let mut prev = vec![255u8; g.len()];
        let mut order = vec![from];
        prev[v.idx(from)] = 4;
        let mut queue = VecDeque::from([from]);
        while let Some(p) = queue.pop_front() {
            for s in 0..4 {
                if let Some(q) = step(v, g, p, s) {
                    let i = v.idx(q);
                    if prev[i] == 255 && !avoid(g[i]) {
                        prev[i] = s as u8;
                        order.push(q);
                        queue.push_back(q);
                    }
                }
            }
        }
        Paths { prev, order }
    }

    fn reached(&self, v: &View, p: (i64, i64)) -> bool {
        v.in_frame(p) && self.prev[v.idx(p)] != 255
    }

    fn keys_to(&self, v: &View, mut p: (i64, i64)) -> Vec<char> {
        let mut keys = Vec::new();
        loop {
            match self.prev[v.idx(p)] {
                4 => break,
                255 => panic!("no path to {p:?}"),
                s => {
                    keys.push(KEYS[s as usize]);
                    p = add(p, opposite(s as usize));
                }
            }
        }
        keys.reverse();
        keys
    }
}

// ---------------------------------------------------------------------------- 1. the checker

const CHECKED_SEEDS: u64 = 500;
const KEYS_PER_SEED: usize = 2_000;
const SHARDS: u64 = 10;

/// Walks `KEYS_PER_SEED` keys on each seed of the shard, the checker looking at every JSON
/// state the walker reads (every room made among them), and returns the totals.
fn checked_walks(shard: u64) -> Stats {
    let t = Instant::now();
    let mut total = Stats::default();
    let per = CHECKED_SEEDS / SHARDS;
    for seed in shard * per..(shard + 1) * per {
        let mut w = Walk::new(seed, settings_for(seed), Style::Roam);
        w.lazy = true;
        w.run(KEYS_PER_SEED);
        w.fresh();
        assert!(w.playing(), "{}: the walker ended the exploration", w.ctx());
        // docs/keys.md: the history is the keys the game took; bumps are not moves.
        assert_eq!(
            w.view.json["history"],
            format!("E{seed}S{}", w.taken),
            "{}",
            w.ctx()
        );
        assert_eq!(w.view.moves, w.taken.len() as u64, "{}", w.ctx());
        let mut s = w.ck.stats.clone();
        s.arrows_walked = w.arrows_walked;
        s.keys = w.keys.len() as u64;
        s.most_rooms_in_a_seed = s.rooms_made;
        s.fewest_rooms_in_a_seed = s.rooms_made;
        total.add(&s);
    }
    eprintln!("shard {shard}: {total:?} in {:?}", t.elapsed());
    assert!(
        total.rooms_made >= 20 * per,
        "the walker hardly explored: {total:?}"
    );
    assert!(total.branches_made > per, "{total:?}");
    // The clock's model was exercised: points faded, each tick checked key by key.
    assert!(
        total.clock_ticks > 0 && total.points_faded > 0,
        "the clock never took points: {total:?}"
    );
    total
}

/// Issue 14's independent checker, over seeds 0..500 (ten shards of 50, run in parallel),
/// 2,000 keys each, `max_unexplored` 1..=6 and branch timers 30..=2000 drawn per seed. The
/// walker reads the JSON rows and plans its own paths (features of its room first, then
/// unexplored exits and the step across, one-way exits along their arrow, back to the start,
/// random crossings, random keys); it reads the JSON again after every room made (an
/// `Entered { made: true }` event, and the JSON must show exactly one room more), every change
/// of map, every feature handled and room cleared, and the checker checks every rule of docs/explore.md
/// the JSON shows on each state and on each step between two (see [`Checker::state`],
/// [`Checker::step`] and [`Checker::made`]). A path the walker's model of the printed tiles
/// says is open must never be refused, and at the end the game's history must be exactly the
/// keys it took (bumps are not moves, docs/keys.md).
fn checker_shard(shard: u64) {
    let s = checked_walks(shard);
    assert_eq!(s.seeds, CHECKED_SEEDS / SHARDS);
    assert_eq!(
        s.keys,
        s.seeds * KEYS_PER_SEED as u64,
        "every seed walked all its keys"
    );
}

/// The independent checker ([`checker_shard`]) on seeds 0..=49.
#[test]
fn checker_seeds_000_049() {
    checker_shard(0);
}
/// The independent checker ([`checker_shard`]) on seeds 50..=99.
#[test]
fn checker_seeds_050_099() {
    checker_shard(1);
}
/// The independent checker ([`checker_shard`]) on seeds 100..=149.
#[test]
fn checker_seeds_100_149() {
    checker_shard(2);
}
/// The independent checker ([`checker_shard`]) on seeds 150..=199.
#[test]
fn checker_seeds_150_199() {
    checker_shard(3);
}
/// The independent checker ([`checker_shard`]) on seeds 200..=249.
#[test]
fn checker_seeds_200_249() {
    checker_shard(4);
}
/// The independent checker ([`checker_shard`]) on seeds 250..=299.
#[test]
fn checker_seeds_250_299() {
    checker_shard(5);
}
/// The independent checker ([`checker_shard`]) on seeds 300..=349.
#[test]
fn checker_seeds_300_349() {
    checker_shard(6);
}
/// The independent checker ([`checker_shard`]) on seeds 350..=399.
#[test]
fn checker_seeds_350_399() {
    checker_shard(7);
}
/// The independent checker ([`checker_shard`]) on seeds 400..=449.
#[test]
fn checker_seeds_400_449() {
    checker_shard(8);
}
/// The independent checker ([`checker_shard`]) on seeds 450..=499.
#[test]
fn checker_seeds_450_499() {
    checker_shard(9);
}

// ---------------------------------------------------------------------------- 2. the timer

/// The rooms of branch `b` in a state.
fn rooms_of(v: &View, b: u64) -> BTreeMap<RKey, RoomJ> {
    v.branch_rooms(b).map(|(k, r)| (*k, r.clone())).collect()
}

/// The events a step caused include entering `room` of `branch` (`made`, `new_branch`).
/// An `Entered` event: the room, its branch, whether it was made, whether a new branch was.
type Entry = ((i64, i64), Option<u64>, bool, bool);

fn entered(events: &[Event]) -> Option<Entry> {
    events.iter().find_map(|e| match *e {
        Event::Entered {
            room,
            branch,
            made,
            new_branch,
        } => Some((
            (i64::from(room.x), i64::from(room.y)),
            branch.map(u64::from),
            made,
            new_branch,
        )),
        _ => None,
    })
}

/// Saves with `:Q` and loads the save into a fresh interpreter with the *default* settings
/// (the save must carry the exploration's own), checking the JSON is the same on both sides;
/// the walker then goes on in the loaded game (its checker sees the load as a step with no
/// keys: nothing may change).
fn save_and_load(w: &mut Walk) {
    let before = byog_players::json::state(&w.it);
    let out = feed(&mut w.it, &mut w.store, ":Q");
    assert!(matches!(out, Outcome::Closed(_)), "{}: {out:?}", w.ctx());
    let mut it = Interpreter::new(80, 30, GeneratorSettings::default());
    assert_eq!(feed(&mut it, &mut w.store, "L"), Outcome::Started);
    assert_eq!(
        byog_players::json::state(&it),
        before,
        "{}: a save round trip",
        w.ctx()
    );
    w.it = it;
    w.look();
}

/// docs/explore.md's branch timer, through the interpreter and the JSON: before `branch_timer` moves
/// since the up branch was made, walking up from the start room re-enters it; at exactly
/// `made_at + branch_timer` moves it is retired (`retired: true`, `current.up` null, the start's
/// up exit `"unexplored"`, its first room's way back `"one-way"`, all while the avatar waits
/// in the start room); the next walk up makes a NEW branch (id 1, `current.up` = 1, made at
/// that move) and the old branch's rooms are exactly as they were but for that way back. A
/// `:Q` / `L` round trip keeps all of it (the whole JSON is compared, and the old rooms again),
/// and after the load the start's up exit still leads into the new branch.
#[test]
fn the_branch_timer_makes_a_new_branch_and_keeps_the_old_one_through_a_save() {
    let settings = ExploreSettings {
        max_unexplored: 4,
        branch_timer: 150,
        monsters: false,
    };
    let mut tried = 0;
    for seed in 0..40 {
        tried += 1;
        let mut w = Walk::new(seed, settings, Style::Frontier);
        let events = w.each("WWWWWWW");
        assert_eq!(
            entered(&events),
            Some(((0, 1), Some(0), true, true)),
            "{}",
            w.ctx()
        );
        assert_eq!(w.view.branches[0].made_at, 7);
        while w.view.moves < 80 && w.view.branches[0].rooms < 5 && w.act(usize::MAX) {}
        if w.view.branches[0].rooms < 3 || w.view.branches.len() != 1 {
            continue;
        }
        w.home();
        let ctx = w.ctx();
        assert_eq!(w.view.local(w.view.avatar), edge_tile(0), "{ctx}");
        let made_at = w.view.branches[0].made_at;
        let due = made_at + settings.branch_timer;
        assert!(w.view.moves + 3 < due, "{ctx}: too slow");
        let old = rooms_of(&w.view, 0);
        let first = (Some(0), (0, 1));
        assert_eq!(old[&first].exits[2], Some(Ex::TwoWay), "{ctx}");

        // Before the timer: up leads into the same branch, nothing made.
        let e = w.each("W");
        assert_eq!(entered(&e), Some(((0, 1), Some(0), false, false)), "{ctx}");
        let e = w.each("S");
        assert_eq!(entered(&e), Some((START, None, false, false)), "{ctx}");

        // Wait in the start room, one move at a time, watching the timer run out.
        while w.view.moves < due {
            let at_edge = w.view.local(w.view.avatar) == edge_tile(0);
            w.each(if at_edge { "S" } else { "W" });
            let b = &w.view.branches[0];
            assert_eq!(
                b.retired,
                w.view.moves >= due,
                "{ctx}: retired at move {}",
                w.view.moves
            );
        }
        let v = &w.view;
        assert_eq!(v.current[0], None, "{ctx}");
        assert_eq!(v.start().exits[0], Some(Ex::Unexplored), "{ctx}");
        assert_eq!(v.rooms[&first].exits[2], Some(Ex::OneWay), "{ctx}");
        if w.view.local(w.view.avatar) != edge_tile(0) {
            w.each("W");
        }

        // The walk up makes branch 1; branch 0 is kept, unchanged but for its way back.
        let e = w.each("W");
        assert_eq!(entered(&e), Some(((0, 1), Some(1), true, true)), "{ctx}");
        let v = &w.view;
        assert_eq!(v.current[0], Some(1), "{ctx}");
        assert_eq!(
            (v.branches[1].entrance, v.branches[1].made_at),
            (0, v.moves)
        );
        assert!(v.branches[0].retired && !v.branches[1].retired, "{ctx}");
        let mut want = old.clone();
        want.get_mut(&first).unwrap().exits[2] = Some(Ex::OneWay);
        assert_eq!(rooms_of(v, 0), want, "{ctx}: the old branch changed");
        assert_eq!(rooms_of(v, 1).len(), 1, "{ctx}");
        assert_eq!(v.rooms[&(Some(1), (0, 1))].exits[2], Some(Ex::TwoWay));

        // Through a save: the same JSON, the old branch still as it was.
        save_and_load(&mut w);
        assert_eq!(
            rooms_of(&w.view, 0),
            want,
            "{ctx}: the old branch after a load"
        );
        assert_eq!(
            w.view.max_unexplored,
            u64::from(settings.max_unexplored),
            "{ctx}: the save keeps the settings"
        );
        assert_eq!(w.view.branch_timer, settings.branch_timer, "{ctx}");
        let e = w.each("S");
        assert_eq!(entered(&e), Some((START, None, false, false)), "{ctx}");
        let e = w.each("W");
        assert_eq!(entered(&e), Some(((0, 1), Some(1), false, false)), "{ctx}");
        assert_eq!(rooms_of(&w.view, 0), want, "{ctx}");
        eprintln!("timer: seed {seed}, old branch of {} rooms", want.len());
        return;
    }
    panic!("no seed of {tried} explored three rooms up in 80 moves");
}

/// A branch can retire while the avatar is inside it: the avatar stays in the retired
/// branch's map (`branch` still 0), the first room's way back turns `"one-way"` and is drawn
/// as `←` on its edge tile, the start's right exit shows `+` again; the avatar leaves
/// through the one-way exit into the start room, and the next walk right makes branch 1.
#[test]
fn a_branch_retired_around_the_avatar_is_left_through_its_one_way_way_back() {
    let settings = ExploreSettings {
        max_unexplored: 2,
        branch_timer: 30,
        monsters: false,
    };
    let mut w = Walk::new(3, settings, Style::Roam);
    let e = w.each("DDDDDDD");
    assert_eq!(
        entered(&e),
        Some(((1, 0), Some(0), true, true)),
        "{}",
        w.ctx()
    );
    // Pace in the first room's corridor until the timer runs out.
    while w.view.moves < 7 + 30 {
        let at_edge = w.view.local(w.view.avatar) == edge_tile(3);
        w.each(if at_edge { "D" } else { "A" });
    }
    let ctx = w.ctx();
    if w.view.local(w.view.avatar) == edge_tile(3) {
        w.each("D");
    }
    let v = &w.view;
    assert!(v.branches[0].retired, "{ctx}");
    assert_eq!(
        v.branch,
        Some(0),
        "{ctx}: still in the retired branch's map"
    );
    assert_eq!(
        v.rooms[&(Some(0), (1, 0))].exits[3],
        Some(Ex::OneWay),
        "{ctx}"
    );
    assert_eq!(v.at(v.frame_of((1, 0), edge_tile(3))), '←', "{ctx}");
    assert_eq!(v.at(v.frame_of(START, edge_tile(1))), '+', "{ctx}");
    let old = rooms_of(v, 0);
    // Out through the one-way exit, then right again: a new branch.
    let e = w.each("AA");
    assert_eq!(entered(&e), Some((START, None, false, false)), "{ctx}");
    let e = w.each("D");
    assert_eq!(entered(&e), Some(((1, 0), Some(1), true, true)), "{ctx}");
    assert_eq!(rooms_of(&w.view, 0), old, "{ctx}");
    // Back into the start room through the new branch's two-way way back.
    let e = w.each("A");
    assert_eq!(entered(&e), Some((START, None, false, false)), "{ctx}");
}

// ---------------------------------------------------------------------------- 3. determinism

/// Plays `E<seed>S` and `keys` in one go; the JSON state and the save's bytes.
fn one_go(seed: u64, settings: ExploreSettings, keys: &str) -> (Value, Vec<u8>) {
    let mut it = interpreter(settings);
    let mut store = MemoryStore::default();
    feed(&mut it, &mut store, &format!("E{seed}S{keys}"));
    let bytes = save::encode(it.game().expect("a game"));
    (byog_players::json::state(&it), bytes)
}

/// Plays the same keys split at `cuts`: `E<seed>S keys[..c1] :Q`, then `L keys[c1..c2] :Q`
/// in a fresh interpreter (with the default settings: the save must carry the exploration's
/// own), and so on, all sharing one `MemoryStore`; checks every load gives back the JSON
/// that was saved.
fn split_run(seed: u64, settings: ExploreSettings, keys: &str, cuts: &[usize]) -> (Value, Vec<u8>) {
    let mut store = MemoryStore::default();
    let mut it = interpreter(settings);
    feed(&mut it, &mut store, &format!("E{seed}S"));
    let mut at = 0;
    for &c in cuts {
        feed(&mut it, &mut store, &keys[at..c]);
        let saved = byog_players::json::state(&it);
        assert!(matches!(
            feed(&mut it, &mut store, ":Q"),
            Outcome::Closed(_)
        ));
        it = Interpreter::new(80, 30, GeneratorSettings::default());
        assert_eq!(feed(&mut it, &mut store, "L"), Outcome::Started);
        assert_eq!(
            byog_players::json::state(&it),
            saved,
            "seed {seed}: load at {c}"
        );
        at = c;
    }
    feed(&mut it, &mut store, &keys[at..]);
    let bytes = save::encode(it.game().expect("a game"));
    (byog_players::json::state(&it), bytes)
}

/// docs/keys.md and 4 across room creations and branch changes: for 80 random walks (seeds
/// 10,000.., random `max_unexplored` 1..=6 and timers 30..=400 so branches change within the
/// walk, 200..600 keys), the keys played in one go give the same JSON and the same
/// `save::encode` bytes as the walker's own game, twice over, and as the same keys split at 1
/// to 3 points into `…:Q` / `L…` runs in fresh interpreters. The cuts are placed right before
/// a key that makes a room, right after one, and right after a key that made a new branch
/// (plus a random one).
#[test]
fn saving_and_loading_anywhere_changes_nothing() {
    let mut before_made = 0;
    let mut after_made = 0;
    let mut after_branch = 0;
    for case in 0..80u64 {
        let seed = 10_000 + case;
        let mut rng = Rng(case.wrapping_mul(0x9E37_79B9) ^ 0xD1CE);
        let settings = ExploreSettings {
            max_unexplored: 1 + rng.below(6) as u32,
            branch_timer: 30 + rng.below(371),
            monsters: false,
        };
        let mut w = Walk::new(seed, settings, Style::Roam);
        w.run(200 + rng.below(400) as usize);
        let keys = w.keys.clone();
        let ctx = w.ctx();
        let (a, bytes_a) = one_go(seed, settings, &keys);
        let (b, bytes_b) = one_go(seed, settings, &keys);
        assert_eq!(a, w.view.json, "{ctx}: the walker's game");
        assert_eq!(a, b, "{ctx}: the same keys twice");
        assert_eq!(bytes_a, bytes_b, "{ctx}");
        let mut cuts = Vec::new();
        if !w.made_idx.is_empty() {
            let i = rng.pick(&w.made_idx);
            if rng.below(2) == 0 {
                cuts.push(i);
                before_made += 1;
            } else {
                cuts.push(i + 1);
                after_made += 1;
            }
        }
        if !w.branch_idx.is_empty() && rng.below(3) > 0 {
            cuts.push(rng.pick(&w.branch_idx) + 1);
            after_branch += 1;
        }
        if cuts.is_empty() || rng.below(2) == 0 {
            cuts.push(rng.below(keys.len() as u64 + 1) as usize);
        }
        cuts.sort_unstable();
        cuts.dedup();
        let (c, bytes_c) = split_run(seed, settings, &keys, &cuts);
        assert_eq!(c, a, "{ctx}: split at {cuts:?}");
        assert_eq!(
            bytes_c, bytes_a,
            "{ctx}: split at {cuts:?}, the save's bytes"
        );
    }
    eprintln!(
        "splits: {before_made} before a room made, {after_made} after, {after_branch} after a new branch"
    );
    assert!(before_made >= 10 && after_made >= 10 && after_branch >= 10);
}

// ---------------------------------------------------------------------------- 4. the ends

/// docs/explore.md: "at 0 health the exploration is lost, score and all". The walker explores until
/// it has rearmed a trap (it then stands on the armed trap), then steps off and back on:
/// each step onto the armed trap costs one health (`Hurt`) and leaves it sprung, the next
/// rearms it (points). At 0 health: `Lost`, status `"lost"`, `end` `"lost"`, score 0 and the
/// points carried as `forfeited`; further moves are refused (reported, nothing changes), and
/// a save of the lost exploration loads back the same.
#[test]
fn armed_traps_can_lose_the_exploration_and_its_score() {
    for seed in 0..100 {
        let settings = ExploreSettings {
            max_unexplored: 3,
            branch_timer: 100_000,
            monsters: false,
        };
        let mut w = Walk::new(seed, settings, Style::Roam);
        while w.rearmed == 0 && w.keys.len() < 3_000 && w.act(usize::MAX) {}
        if w.rearmed == 0 || w.view.under_avatar() != '▴' {
            continue;
        }
        let g = w.view.ground();
        let Some(off) = (0..4).find(|&s| {
            let q = add(w.view.avatar, s);
            w.view.slot(q) == w.view.room && g[w.view.idx(q)] == '·'
        }) else {
            continue;
        };
        let ctx = w.ctx();
        let mut health = w.view.health;
        assert_eq!(health, 3, "{ctx}");
        // The points carried, as the clock leaves them after each key (none taken on the key
        // that ends the exploration).
        let mut carried = w.view.score;
        let clocked = |w: &Walk, carried: u64| {
            if w.playing() {
                after_clock(carried, w.view.moves, w.view.room != START)
            } else {
                carried
            }
        };
        while health > 0 {
            w.each(&KEYS[off].to_string());
            carried = clocked(&w, carried);
            let e = w.each(&KEYS[opposite(off)].to_string());
            carried = clocked(&w, carried);
            let hurt = e.iter().find_map(|e| match e {
                Event::Hurt { health, .. } => Some(u64::from(*health)),
                _ => None,
            });
            if let Some(h) = hurt {
                assert_eq!(h, health - 1, "{ctx}");
                health = h;
            } else {
                assert!(
                    e.iter().any(|e| matches!(e, Event::Rearmed { .. })),
                    "{ctx}: {e:?}"
                );
                // The trap paid when the walk first rearmed it: a feature pays once.
                assert_eq!(w.view.score, carried, "{ctx}: rearming it again paid");
            }
            assert_eq!(w.view.health, health, "{ctx}");
            if health == 0 {
                assert!(
                    e.iter().any(|e| matches!(e, Event::Lost(_))),
                    "{ctx}: {e:?}"
                );
            }
        }
        let v = w.view.clone();
        assert_eq!(v.status, "lost", "{ctx}");
        assert_eq!(v.end.as_deref(), Some("lost"), "{ctx}");
        assert_eq!((v.score, v.health), (0, 0), "{ctx}");
        assert_eq!(
            v.forfeited, carried,
            "{ctx}: the points lost with the last health"
        );
        for k in ['W', 'A', 'S', 'D'] {
            let out = w.it.feed(k, &mut w.store).unwrap();
            assert!(
                matches!(out, Outcome::Reported(_)),
                "{ctx}: {k} after the loss: {out:?}"
            );
        }
        assert_eq!(
            byog_players::json::state(&w.it),
            v.json,
            "{ctx}: a refused move changed"
        );
        save_and_load(&mut w);
        assert_eq!(w.view.json, v.json, "{ctx}");
        eprintln!("lost: seed {seed}, {} points forfeited", v.forfeited);
        return;
    }
    panic!("no seed found a trap to lose on");
}

/// docs/explore.md: "the way up (leaving ends the exploration and banks the score)". The walker
/// explores until it has scored, walks back to the start room (its own path) and into `<`:
/// a `Banked` event with the score carried and `Won`, status `"won"`, `end` `"banked"`, the
/// score kept, health kept, one move counted; further moves are refused and change nothing.
#[test]
fn the_way_up_banks_the_score() {
    for seed in 0..100 {
        let settings = ExploreSettings {
            max_unexplored: 4,
            branch_timer: 500,
            monsters: false,
        };
        let mut w = Walk::new(seed, settings, Style::Roam);
        while w.view.score == 0 && w.keys.len() < 3_000 && w.act(usize::MAX) {}
        if w.view.score == 0 {
            continue;
        }
        w.home();
        let v = w.view.clone();
        let ctx = w.ctx();
        let g = v.ground();
        let paths = Paths::search(&v, &g, v.avatar, |c| matches!(c, '◇' | '△' | '▴'));
        let (near, s) = (0..4)
            .map(|s| (add(v.exit, opposite(s)), s))
            .find(|(p, _)| paths.reached(&v, *p))
            .unwrap_or_else(|| panic!("{ctx}: the way up out of reach"));
        let path = paths.keys_to(&v, near);
        w.keys(&path, usize::MAX);
        let before = w.view.clone();
        let e = w.press(KEYS[s]);
        assert_eq!(
            e,
            vec![
                Event::Banked {
                    score: before.score
                },
                Event::Won
            ],
            "{ctx}"
        );
        w.look();
        let after = w.view.clone();
        assert_eq!(after.status, "won", "{ctx}");
        assert_eq!(after.end.as_deref(), Some("banked"), "{ctx}");
        assert_eq!((after.score, after.health), (before.score, before.health));
        assert_eq!(
            (after.moves, after.forfeited),
            (before.moves + 1, 0),
            "{ctx}"
        );
        for k in ['W', 'A', 'S', 'D'] {
            let out = w.it.feed(k, &mut w.store).unwrap();
            assert!(
                matches!(out, Outcome::Reported(_)),
                "{ctx}: {k} after banking: {out:?}"
            );
        }
        assert_eq!(byog_players::json::state(&w.it), after.json, "{ctx}");
        eprintln!("banked: seed {seed}, {} points", after.score);
        return;
    }
    panic!("no seed scored");
}

// ---------------------------------------------------------------------------- the checker's teeth

/// The checker is not vacuous: a real state it accepts, tampered with in one way at a time
/// (the kinds of mistakes docs/explore.md rules out), is rejected every time, both as a state on its
/// own and as a step from the untampered one.
#[test]
fn the_checker_rejects_tampered_states() {
    let settings = ExploreSettings {
        max_unexplored: 3,
        branch_timer: 400,
        monsters: false,
    };
    let mut w = Walk::new(5, settings, Style::Roam);
    w.run(900);
    let good = w.view.json.clone();
    let v = View::parse(good.clone());
    w.ck.clone().state(&v, "untampered");
    // Find rooms to tamper with.
    let rooms = good["rooms"].as_array().unwrap();
    let find = |pred: &dyn Fn(&Value) -> bool| rooms.iter().position(pred);
    let clear_with_unexplored = find(&|r| {
        r["clear"] == true
            && !r["branch"].is_null()
            && r["exits"]
                .as_object()
                .unwrap()
                .values()
                .any(|e| e == "unexplored")
    })
    .expect("a clear room with an unexplored exit");
    let deep = find(&|r| r["depth"].as_u64().unwrap() >= 2).expect("a deep room");
    let mut tampers: Vec<(&str, Value)> = Vec::new();
    let mut t = good.clone();
    t["rooms"][deep]["depth"] = (t["rooms"][deep]["depth"].as_u64().unwrap() + 1).into();
    tampers.push(("a wrong depth", t));
    let mut t = good.clone();
    t["branches"][0]["unexplored"] = (t["branches"][0]["unexplored"].as_u64().unwrap() + 1).into();
    tampers.push(("a wrong unexplored count", t));
    let side = |t: &Value| {
        t["rooms"][clear_with_unexplored]["exits"]
            .as_object()
            .unwrap()
            .iter()
            .find(|(_, e)| *e == "unexplored")
            .map(|(k, _)| k.clone())
            .unwrap()
    };
    for (what, to) in [
        ("a locked exit in a clear room", "locked"),
        ("a one-way exit from nowhere", "one-way"),
        ("a two-way exit into no room", "two-way"),
    ] {
        let mut t = good.clone();
        let k = side(&t);
        t["rooms"][clear_with_unexplored]["exits"][k] = to.into();
        tampers.push((what, t));
    }
    let mut t = good.clone();
    let k = side(&t);
    t["rooms"][clear_with_unexplored]["exits"]
        .as_object_mut()
        .unwrap()
        .remove(&k);
    tampers.push(("an unexplored exit gone", t));
    let mut t = good.clone();
    let first = find(&|r| r["branch"] == 0 && r["depth"] == 1).unwrap();
    let mut exits = t["rooms"][first]["exits"].as_object().unwrap().clone();
    for e in exits.values_mut() {
        *e = "locked".into();
    }
    t["rooms"][first]["exits"] = exits.into();
    tampers.push(("a first room's way back locked", t));
    let mut t = good.clone();
    let copy = t["rooms"][deep].clone();
    t["rooms"].as_array_mut().unwrap().push(copy);
    tampers.push(("two rooms in one slot", t));
    let mut t = good.clone();
    t["avatar"][0] = (t["avatar"][0].as_i64().unwrap() + 1).into();
    tampers.push(("the avatar off its @", t));
    let mut t = good.clone();
    t["depth"] = (t["depth"].as_u64().unwrap() + 1).into();
    tampers.push(("the avatar's depth", t));
    let mut t = good.clone();
    t["room"][1] = (t["room"][1].as_i64().unwrap() + 1).into();
    tampers.push(("the avatar's room", t));
    let mut t = good.clone();
    let row: String = t["rows"][0].as_str().unwrap().chars().skip(1).collect();
    t["rows"][0] = row.into();
    tampers.push(("a short row", t));
    let mut t = good.clone();
    let rows: Vec<String> = t["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().replacen('+', "·", 1))
        .collect();
    assert!(
        rows.iter()
            .zip(good["rows"].as_array().unwrap())
            .any(|(a, b)| a != b)
    );
    t["rows"] = rows.into();
    tampers.push(("an unexplored exit drawn as floor", t));
    let mut t = good.clone();
    t["moves"] = (t["moves"].as_u64().unwrap() + 10_000).into();
    tampers.push(("a branch past its timer", t));
    let mut t = good.clone();
    t["score"] = (t["score"].as_u64().unwrap() + 1).into();
    tampers.push(("a point paid by no feature", t));
    if good["score"].as_u64().unwrap() > 0 {
        let mut t = good.clone();
        t["score"] = (t["score"].as_u64().unwrap() - 1).into();
        tampers.push(("a point lost with no tick of the clock", t));
    }
    let mut rejected = 0;
    for (what, t) in tampers {
        let ck = w.ck.clone();
        let prev = v.clone();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            let tv = View::parse(t);
            ck.clone().state(&tv, what);
            ck.clone().step(&prev, &tv, &Since::default(), what);
        }));
        assert!(caught.is_err(), "the checker accepted {what}");
        rejected += 1;
    }
    eprintln!("{rejected} tampered states rejected");
}

/// The checker's clock (docs/explore.md, rules version 5) has teeth: over one counted move,
/// a state that took the tick's 4% (rounded up) on the 20th move outside the start room is
/// accepted and one that kept the points, or took a point more, is rejected; off the 20th
/// move, or in the start room, the points carried keep and a state that lost one is rejected.
#[test]
fn the_checker_rejects_a_clock_not_kept() {
    let settings = ExploreSettings {
        max_unexplored: 3,
        branch_timer: 400,
        monsters: false,
    };
    let mut w = Walk::new(5, settings, Style::Roam);
    w.run(900);
    let good = w.view.json.clone();
    assert_eq!(good["status"], "playing");
    // One counted move, from move `moves - 1` to `moves`, carrying 1,234 points (4% is 49.36:
    // the tick takes 50).
    let state = |moves: u64, score: u64| {
        let mut t = good.clone();
        t["moves"] = moves.into();
        t["score"] = score.into();
        View::parse(t)
    };
    let one_move = |outside: bool| Since {
        moved: 1,
        turns: vec![Turn {
            earned: 0,
            outside,
            ended: false,
            lost: false,
        }],
        ..Since::default()
    };
    let step = |prev: &View, v: &View, since: &Since| {
        let ck = w.ck.clone();
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ck.clone().step(prev, v, since, "the clock");
        }))
        .is_ok()
    };
    let at = (good["moves"].as_u64().unwrap() / 20 + 1) * 20;
    let prev = state(at - 1, 1234);
    assert_eq!(clock_takes(1234), 50);
    assert!(
        step(&prev, &state(at, 1184), &one_move(true)),
        "the tick taken"
    );
    assert!(!step(&prev, &state(at, 1234), &one_move(true)), "no tick");
    assert!(
        !step(&prev, &state(at, 1183), &one_move(true)),
        "a point more"
    );
    assert!(
        step(&prev, &state(at, 1234), &one_move(false)),
        "the start room"
    );
    assert!(
        !step(&prev, &state(at, 1184), &one_move(false)),
        "faded at home"
    );
    let prev = state(at - 2, 1234);
    assert!(
        step(&prev, &state(at - 1, 1234), &one_move(true)),
        "move 19"
    );
    assert!(
        !step(&prev, &state(at - 1, 1184), &one_move(true)),
        "a tick early"
    );
    // A few points carried long enough fade to none: each tick takes at least one.
    assert_eq!((clock_takes(1), after_clock(1, at, true)), (1, 0));
}
