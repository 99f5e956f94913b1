//! LootQuest dungeons: a generator driven by what the designer asks for, after Tanner
//! Rogalsky's "Dungeon Generation in LootQuest" (2014,
//! <https://tannerrogalsky.com/blog/2014/04/01/dungeon-generation-in-lootquest/>): the number
//! of rooms, their sizes, how far apart they are, the **critical path** (the number of rooms on
//! the shortest way from the start room to the exit room, both counted) and the longest
//! **dead end** (the most rooms a branch leads away from the critical path). When the room
//! count and the critical path cannot both be met, the critical path wins.
//!
//! Read top-down, as Hauberk's `dungeon.dart`, the steps of [`generate`]:
//!
//! 1. [`make_room_graph`]: a coordinate-free room graph: the main path of `critical_path`
//!    rooms, then branch rooms hung on it, none deeper than `max_dead_end`;
//! 2. [`check_room_graph`] and [`check_fits`]: the graph and the world's room for it are
//!    checked before any tile is placed (fail fast);
//! 3. `place_rooms`: each room is placed next to the room it hangs on, joined by a straight
//!    corridor of the asked spacing through a door in the middle of a side (one door a side),
//!    never overlapping anything placed; a branch room that finds no spot tries other rooms
//!    it may hang on, then is dropped (the room count gives way, the critical path never);
//! 4. `add_loops`: corridors between rooms that face each other and are far apart by path
//!    (Brogue's `addLoops`), each with a `loops_percent` chance, never one that would shorten
//!    the critical path;
//! 5. `shape_rooms`: rectangles become L- and cross-shaped rooms by cutting corners that
//!    hold no door;
//! 6. `finish`: walls, the avatar on a random tile of the first room, the exit door in a
//!    wall of the critical path's last room;
//! 7. `validate`: a breadth-first search over the placed tiles ([`byog_tile_engine::search`])
//!    proves every open tile reachable and the exit reachable, and the room graph read back
//!    from the tiles ([`crate::metrics::room_paths`]) has the asked critical path, no
//!    longer dead end and every placed room.
//!
//! Retries are bounded and deterministic: [`TRIES_PER_PIECE`] spots per room, then
//! [`TRIES_PER_LEVEL`] whole layouts (the best kept: the most rooms with the whole critical
//! path), then [`GenerateError::LootQuestUnmet`] naming the numbers asked and what would fit.
//! Random draws come only from the generator given, as `u32` ranges; geometry is integer.
//! Cost: each spot tried reads its room's area and its corridor; the finish and validation
//! are a few passes over the tiles.

use std::collections::VecDeque;
use std::ops::RangeInclusive;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use super::{GenerateError, Level, RoomRect, Setting, finish::walls_and_floors};
use crate::metrics;
use byog_tile_engine::search::{Grid, UNREACHED, bfs};
use byog_tile_engine::{Pos, Tile, World};

/// The accepted range of [`LootQuestSettings::rooms`] (`--rooms`).
pub const ROOMS_RANGE: RangeInclusive<u32> = 1..=100;
/// The accepted range of [`LootQuestSettings::critical_path`] (`--critical-path`).
pub const CRITICAL_PATH_RANGE: RangeInclusive<u32> = 1..=100;
/// The accepted range of [`LootQuestSettings::max_dead_end`] (`--max-dead-end`).
pub const MAX_DEAD_END_RANGE: RangeInclusive<u32> = 0..=100;
/// The accepted range of each end of `--room-size`, a room's side in tiles.
pub const ROOM_SIZE_RANGE: RangeInclusive<u32> = 3..=25;
/// The accepted range of each end of `--room-spacing`, a corridor's length in tiles.
pub const ROOM_SPACING_RANGE: RangeInclusive<u32> = 1..=20;
/// The accepted range of [`LootQuestSettings::loops_percent`] (`--loops`).
pub const LOOPS_RANGE: RangeInclusive<u32> = 0..=100;

/// Spots tried for one room next to the room it hangs on before another is asked.
pub const TRIES_PER_PIECE: u32 = 16;
/// Other rooms a branch room may try to hang on when its own has no spot for it.
pub const OTHER_PARENTS: usize = 6;
/// Whole layouts tried before giving up (the best one kept).
pub const TRIES_PER_LEVEL: u32 = 12;
/// Loops join rooms at least this many corridors apart in the room graph ("far apart by
/// path", after Brogue's `addLoops`).
pub const LOOP_MIN_HOPS: u32 = 3;
/// The most doors a room has: one a side.
const SIDES: usize = 4;

/// LootQuest's parameters (Rogalsky 2014), all recorded in saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LootQuestSettings {
    /// `--rooms`, 1..=100: rooms asked for, the critical path's included. Default 9. Met when
    /// the critical path and the dead-end limit allow it and the world has room.
    pub rooms: u32,
    /// `--critical-path`, 1..=100: rooms on the shortest way from the start room to the exit
    /// room, both counted. Default 5. Longer: a longer walk to the exit, a stringier dungeon.
    pub critical_path: u32,
    /// `--max-dead-end`, 0..=100: the most rooms a branch leads away from the critical path.
    /// Default 2. 0: no branches (the dungeon is its critical path); higher: deeper side
    /// branches.
    pub max_dead_end: u32,
    /// `--room-size MIN..MAX`, each 3..=25: the smallest side of a room, in tiles. Default 5.
    pub room_size_min: u32,
    /// The largest side of a room, in tiles. Default 9.
    pub room_size_max: u32,
    /// `--room-spacing MIN..MAX`, each 1..=20: the shortest corridor between two joined rooms,
    /// in tiles. Default 2.
    pub room_spacing_min: u32,
    /// The longest corridor, in tiles. Default 6.
    pub room_spacing_max: u32,
    /// `--loops PERCENT`, 0..=100: the chance that two rooms facing each other across the
    /// asked spacing and far apart by path are joined by an extra corridor. Default 10.
    pub loops_percent: u32,
}

impl Default for LootQuestSettings {
    fn default() -> Self {
        LootQuestSettings {
            rooms: 9,
            critical_path: 5,
            max_dead_end: 2,
            room_size_min: 5,
            room_size_max: 9,
            room_spacing_min: 2,
            room_spacing_max: 6,
            loops_percent: 10,
        }
    }
}

impl LootQuestSettings {
    /// Checks each parameter against its range and each `MIN..MAX` pair's order.
    ///
    /// # Errors
    /// [`GenerateError::InvalidSetting`] for a value out of range,
    /// [`GenerateError::ReversedRange`] for a minimum above its maximum.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let checks = [
            (Setting::Rooms, self.rooms, ROOMS_RANGE),
            (
                Setting::CriticalPath,
                self.critical_path,
                CRITICAL_PATH_RANGE,
            ),
            (Setting::MaxDeadEnd, self.max_dead_end, MAX_DEAD_END_RANGE),
            (Setting::RoomSize, self.room_size_min, ROOM_SIZE_RANGE),
            (Setting::RoomSize, self.room_size_max, ROOM_SIZE_RANGE),
            (
                Setting::RoomSpacing,
                self.room_spacing_min,
                ROOM_SPACING_RANGE,
            ),
            (
                Setting::RoomSpacing,
                self.room_spacing_max,
                ROOM_SPACING_RANGE,
            ),
            (Setting::Loops, self.loops_percent, LOOPS_RANGE),
        ];
        for (setting, value, range) in checks {
            if !range.contains(&value) {
                return Err(GenerateError::invalid_setting(
                    setting,
                    value.into(),
                    u64::from(*range.start())..=u64::from(*range.end()),
                ));
            }
        }
        for (setting, min, max) in [
            (Setting::RoomSize, self.room_size_min, self.room_size_max),
            (
                Setting::RoomSpacing,
                self.room_spacing_min,
                self.room_spacing_max,
            ),
        ] {
            if min > max {
                return Err(GenerateError::ReversedRange { setting, min, max });
            }
        }
        Ok(())
    }
}

/// Makes a LootQuest dungeon of `width × height` tiles (the steps of the [module
/// documentation](self)). The level's rooms are the placed rooms' bounding rectangles: the
/// critical path first, in order (the start room at index 0, the exit room at index
/// `critical_path - 1`), then the branch rooms.
///
/// # Errors
/// [`GenerateError::LootQuestUnmet`] when the critical path cannot be laid out: at once when
/// even its smallest rooms cannot fit the world, else after [`TRIES_PER_LEVEL`] layouts.
pub fn generate<R: Rng + ?Sized>(
    rng: &mut R,
    width: usize,
    height: usize,
    s: &LootQuestSettings,
) -> Result<Level, GenerateError> {
    generate_counted(rng, width, height, s, &mut Work::default())
}

/// The work one [`generate`] did, counted in tries (never in time).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// Whole layouts tried (at most [`TRIES_PER_LEVEL`]).
    pub layouts: u32,
    /// Spots tried for single rooms, all layouts together (at most
    /// [`Work::most_spots`]).
    pub spots: u64,
}

impl Work {
    /// The most spots [`generate`] tries for `rooms` rooms: per layout, [`TRIES_PER_PIECE`]
    /// for the first room and for each other room on its own room and up to
    /// [`OTHER_PARENTS`] more.
    pub fn most_spots(rooms: u32) -> u64 {
        let per_room = u64::from(TRIES_PER_PIECE) * (1 + OTHER_PARENTS as u64);
        u64::from(TRIES_PER_LEVEL) * (u64::from(TRIES_PER_PIECE) + u64::from(rooms) * per_room)
    }
}

/// [`generate`], counting its tries in `work`.
///
/// # Errors
/// As [`generate`].
pub fn generate_counted<R: Rng + ?Sized>(
    rng: &mut R,
    width: usize,
    height: usize,
    s: &LootQuestSettings,
    work: &mut Work,
) -> Result<Level, GenerateError> {
    check_fits(width, height, s)?;
    let mut best: Option<Level> = None;
    let mut longest_path = 0u32;
    for _ in 0..TRIES_PER_LEVEL {
        work.layouts += 1;
        let graph = make_room_graph(rng, s);
        if let Err(why) = check_room_graph(&graph, s) {
            debug_assert!(false, "the room graph is made to its checks: {why}");
            continue;
        }
        let mut layout = Layout::new(width, height);
        let placed = place_rooms(rng, &mut layout, &graph, s, work);
        longest_path = longest_path.max(placed.main_placed);
        let Some(mut placed) = placed.rooms else {
            continue;
        };
        add_loops(rng, &mut layout, &mut placed, s);
        shape_rooms(rng, &mut layout, &placed);
        // Rooms and corridors may line every wall of a small exit room (they share its
        // walls): then the layout is tried again.
        let Some(level) = finish(rng, &layout, &placed) else {
            continue;
        };
        if let Err(why) = validate(&level, &placed, s) {
            debug_assert!(false, "a placed layout passes its validation: {why}");
            continue;
        }
        let complete = placed.rooms.len() as u32 >= graph.parent.len() as u32;
        if best
            .as_ref()
            .is_none_or(|b| level.rooms.len() > b.rooms.len())
        {
            best = Some(level);
        }
        if complete {
            break;
        }
    }
    best.ok_or_else(|| {
        unmet(
            width,
            height,
            s,
            TRIES_PER_LEVEL,
            if longest_path > 0 {
                format!(
                    "the longest critical path placed was {longest_path} room{}; ask for \
                     a critical path of {longest_path} rooms or less, smaller rooms or \
                     corridors, or a larger world",
                    if longest_path == 1 { "" } else { "s" }
                )
            } else {
                "no room could be placed; ask for smaller rooms or a larger world".to_owned()
            },
        )
    })
}

/// [`GenerateError::LootQuestUnmet`] for these settings.
fn unmet(
    width: usize,
    height: usize,
    s: &LootQuestSettings,
    tries: u32,
    fits: String,
) -> GenerateError {
    GenerateError::LootQuestUnmet {
        critical_path: s.critical_path,
        width,
        height,
        room_min: s.room_size_min,
        room_max: s.room_size_max,
        spacing_min: s.room_spacing_min,
        spacing_max: s.room_spacing_max,
        tries,
        fits,
        floor: None,
    }
}

/// How many rooms of the smallest asked size could fit the world at most: each takes its
/// `min × min` tiles and one row and column of wall, inside the world's border, so
/// `(width − 1)(height − 1) / (min + 1)²`; a room must also fit across the world.
pub fn most_rooms_that_fit(width: usize, height: usize, room_size_min: u32) -> u64 {
    let m = u64::from(room_size_min);
    if (width as u64) < m + 2 || (height as u64) < m + 2 {
        return 0;
    }
    (width as u64 - 1) * (height as u64 - 1) / ((m + 1) * (m + 1))
}

/// Step 2, the space check made before any tile is placed: the critical path's rooms, at
/// their smallest, must fit the world ([`most_rooms_that_fit`]).
///
/// # Errors
/// [`GenerateError::LootQuestUnmet`] (0 tries) naming how many rooms would fit.
pub fn check_fits(width: usize, height: usize, s: &LootQuestSettings) -> Result<(), GenerateError> {
    let most = most_rooms_that_fit(width, height, s.room_size_min);
    if u64::from(s.critical_path) <= most {
        return Ok(());
    }
    Err(unmet(
        width,
        height,
        s,
        0,
        format!(
            "at most {most} rooms of {m} × {m} tiles fit; ask for a critical path of {most} \
             rooms or less, smaller rooms or a larger world",
            m = s.room_size_min
        ),
    ))
}

/// The coordinate-free room graph: a tree. Room 0 is the start room, rooms
/// `0..critical_path` are the main path in order (the last one the exit room), the others
/// branch rooms; a room's parent always has a smaller index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomGraph {
    /// The room each room hangs on (`None` for the start room).
    pub parent: Vec<Option<usize>>,
    /// Rooms away from the critical path: 0 on it, `k` for a branch room `k` rooms out.
    pub depth: Vec<u32>,
    /// Rooms on the main path.
    pub critical_path: usize,
}

/// Step 1: the main path of `critical_path` rooms, then `rooms − critical_path` branch
/// rooms, each hung on a uniformly drawn room that is less than `max_dead_end` rooms from the
/// main path and has a free side (at most one corridor a side). When no room can take
/// another, the room count gives way.
pub fn make_room_graph<R: Rng + ?Sized>(rng: &mut R, s: &LootQuestSettings) -> RoomGraph {
    let cp = s.critical_path as usize;
    let total = (s.rooms as usize).max(cp);
    let mut parent: Vec<Option<usize>> = (0..cp).map(|i| i.checked_sub(1)).collect();
    let mut depth = vec![0u32; cp];
    let mut degree: Vec<usize> = (0..cp)
        .map(|i| usize::from(i > 0) + usize::from(i + 1 < cp))
        .collect();
    let mut open: Vec<usize> = Vec::with_capacity(total);
    while parent.len() < total {
        open.clear();
        open.extend(
            (0..parent.len()).filter(|&r| depth[r] < s.max_dead_end && degree[r] < sides_of(r, cp)),
        );
        if open.is_empty() {
            break;
        }
        let p = open[below(rng, open.len())];
        parent.push(Some(p));
        depth.push(depth[p] + 1);
        degree[p] += 1;
        degree.push(1);
    }
    RoomGraph {
        parent,
        depth,
        critical_path: cp,
    }
}

/// The most corridors room `r` may have: one a side, but the exit room keeps a side for the
/// exit door.
fn sides_of(r: usize, critical_path: usize) -> usize {
    if r + 1 == critical_path {
        SIDES - 1
    } else {
        SIDES
    }
}

/// Step 2: the graph is what was asked: the main path is a chain of `critical_path` rooms,
/// every branch room hangs on an earlier room one room nearer the critical path, no branch
/// is deeper than `max_dead_end`, no room has more corridors than sides.
///
/// # Errors
/// What is wrong, in words.
pub fn check_room_graph(g: &RoomGraph, s: &LootQuestSettings) -> Result<(), String> {
    if g.critical_path != s.critical_path as usize || g.parent.len() < g.critical_path {
        return Err("the main path is not the critical path asked".into());
    }
    let mut degree = vec![0usize; g.parent.len()];
    for (r, &p) in g.parent.iter().enumerate() {
        let main = r < g.critical_path;
        match p {
            None if r == 0 => {}
            Some(p) if main && p + 1 == r => {}
            Some(p) if !main && p < r && g.depth[r] == g.depth[p] + 1 => {}
            _ => return Err(format!("room {r} does not hang where the graph says")),
        }
        if main != (g.depth[r] == 0) || g.depth[r] > s.max_dead_end {
            return Err(format!("room {r} is {} rooms off the path", g.depth[r]));
        }
        if let Some(p) = p {
            degree[p] += 1;
            degree[r] += 1;
        }
    }
    if degree
        .iter()
        .enumerate()
        .any(|(r, &d)| d > sides_of(r, g.critical_path))
    {
        return Err("a room has more corridors than sides".into());
    }
    Ok(())
}

/// The grid being carved: 1 for open tiles, 0 for rock, a byte a tile, row-major.
#[derive(Debug, Clone)]
struct Layout {
    width: usize,
    height: usize,
    open: Vec<u8>,
}

/// Unit steps of the four sides: up (+y), right, down, left.
const STEPS: [(i32, i32); SIDES] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl Layout {
    fn new(width: usize, height: usize) -> Layout {
        Layout {
            width,
            height,
            open: vec![0; width * height],
        }
    }

    fn idx(&self, x: i32, y: i32) -> usize {
        y as usize * self.width + x as usize
    }

    /// Whether `(x, y)` is inside the world, off its border.
    fn inner(&self, x: i32, y: i32) -> bool {
        x >= 1 && y >= 1 && (x as usize) + 1 < self.width && (y as usize) + 1 < self.height
    }

    fn is_open(&self, x: i32, y: i32) -> bool {
        self.open[self.idx(x, y)] != 0
    }

    /// Whether room `r` and its ring of wall lie inside the world and hold no open tile.
    fn room_free(&self, r: &RoomRect) -> bool {
        if !(self.inner(r.x, r.y) && self.inner(r.x + r.width - 1, r.y + r.height - 1)) {
            return false;
        }
        (r.y - 1..=r.y + r.height).all(|y| (r.x - 1..=r.x + r.width).all(|x| !self.is_open(x, y)))
    }

    /// Whether a corridor of `len` tiles from `(x, y)` towards `side` lies off the border,
    /// on rock, with rock on both hands.
    fn corridor_free(&self, (x, y): (i32, i32), side: usize, len: u32) -> bool {
        let (dx, dy) = STEPS[side];
        (0..len as i32).all(|k| {
            let (cx, cy) = (x + dx * k, y + dy * k);
            self.inner(cx, cy)
                && !self.is_open(cx, cy)
                && !self.is_open(cx + dy, cy + dx)
                && !self.is_open(cx - dy, cy - dx)
        })
    }

    fn carve_room(&mut self, r: &RoomRect) {
        for y in r.y..r.y + r.height {
            let start = self.idx(r.x, y);
            self.open[start..start + r.width as usize].fill(1);
        }
    }

    fn carve_corridor(&mut self, (x, y): (i32, i32), side: usize, len: u32) {
        let (dx, dy) = STEPS[side];
        for k in 0..len as i32 {
            let i = self.idx(x + dx * k, y + dy * k);
            self.open[i] = 1;
        }
    }
}

/// A uniform index below `n` (> 0), drawn as a `u32`.
fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    rng.random_range(0..n as u32) as usize
}

/// A uniform value of `lo..=hi`.
fn between<R: Rng + ?Sized>(rng: &mut R, lo: u32, hi: u32) -> u32 {
    rng.random_range(lo..=hi)
}

/// The offsets along a side of `len` tiles where a door may be: the middle, `(len − 3) / 2`
/// tiles clear of each corner, so cutting corners ([`shape_rooms`]) never cuts a door.
fn door_zone(len: i32) -> (i32, i32) {
    let lo = (len - 3) / 2;
    (lo, len - 1 - lo)
}

/// The placed rooms: rectangles (graph order, dropped rooms left out), their used sides, how
/// far each is from the critical path, and the corridors joining them.
#[derive(Debug, Clone)]
struct Placed {
    rooms: Vec<RoomRect>,
    sides: Vec<[bool; SIDES]>,
    depth: Vec<u32>,
    /// Corridors as the two rooms they join (indices into `rooms`).
    edges: Vec<(usize, usize)>,
    critical_path: usize,
}

/// What [`place_rooms`] made: the rooms when the whole main path was placed, and how many
/// main-path rooms were.
impl Placed {
    /// The sides of room `q` still free for a corridor (the exit room keeps one for the exit
    /// door).
    fn free_sides(&self, q: usize) -> usize {
        let free = self.sides[q].iter().filter(|&&u| !u).count();
        if q + 1 == self.critical_path {
            free.saturating_sub(1)
        } else {
            free
        }
    }
}

struct Placement {
    rooms: Option<Placed>,
    main_placed: u32,
}

/// Step 3: places room 0 at a random spot, then every room of the graph next to the room it
/// hangs on ([`place_next_to`]): the main path first, in order, then the branch rooms. A
/// branch room whose own room has no spot for it (or was dropped) tries up to
/// [`OTHER_PARENTS`] other placed rooms that are less than `max_dead_end` rooms from the
/// critical path, from a random one on; then it is dropped.
fn place_rooms<R: Rng + ?Sized>(
    rng: &mut R,
    layout: &mut Layout,
    graph: &RoomGraph,
    s: &LootQuestSettings,
    work: &mut Work,
) -> Placement {
    let failed = |main_placed| Placement {
        rooms: None,
        main_placed,
    };
    let mut placed = Placed {
        rooms: Vec::with_capacity(graph.parent.len()),
        sides: Vec::with_capacity(graph.parent.len()),
        depth: Vec::with_capacity(graph.parent.len()),
        edges: Vec::with_capacity(graph.parent.len()),
        critical_path: graph.critical_path,
    };
    // The first room: anywhere it fits.
    let first = (0..TRIES_PER_PIECE).find_map(|_| {
        work.spots += 1;
        let (w, h) = (
            between(rng, s.room_size_min, s.room_size_max) as i32,
            between(rng, s.room_size_min, s.room_size_max) as i32,
        );
        let (lw, lh) = (layout.width as i32, layout.height as i32);
        if w + 2 > lw || h + 2 > lh {
            return None;
        }
        let r = RoomRect {
            x: 1 + between(rng, 0, (lw - w - 2) as u32) as i32,
            y: 1 + between(rng, 0, (lh - h - 2) as u32) as i32,
            width: w,
            height: h,
        };
        layout.room_free(&r).then_some(r)
    });
    let Some(first) = first else {
        return failed(0);
    };
    layout.carve_room(&first);
    placed.rooms.push(first);
    placed.sides.push([false; SIDES]);
    placed.depth.push(0);
    // Where each graph room was placed.
    let mut at: Vec<Option<usize>> = vec![None; graph.parent.len()];
    at[0] = Some(0);
    for r in 1..graph.parent.len() {
        let main = r < graph.critical_path;
        // A room re-hung elsewhere may sit deeper than the graph says: its children then
        // look for other rooms too.
        let own = graph.parent[r]
            .and_then(|p| at[p])
            .filter(|&q| main || placed.depth[q] < s.max_dead_end);
        let mut parents: Vec<usize> = own.into_iter().collect();
        if !main {
            let n = placed.rooms.len();
            let start = below(rng, n);
            parents.extend(
                (0..n)
                    .map(|k| (start + k) % n)
                    .filter(|&q| Some(q) != own && placed.depth[q] < s.max_dead_end)
                    .filter(|&q| placed.free_sides(q) > 0)
                    .take(OTHER_PARENTS),
            );
        }
        let spot = parents
            .iter()
            .find_map(|&p| place_next_to(rng, layout, &placed, p, s, work).map(|spot| (p, spot)));
        match spot {
            Some((p, (rect, door, side, len))) => {
                layout.carve_room(&rect);
                layout.carve_corridor(door, side, len);
                let q = placed.rooms.len();
                placed.sides[p][side] = true;
                let mut sides = [false; SIDES];
                sides[(side + 2) % SIDES] = true;
                placed.rooms.push(rect);
                placed.sides.push(sides);
                placed
                    .depth
                    .push(if main { 0 } else { placed.depth[p] + 1 });
                placed.edges.push((p, q));
                at[r] = Some(q);
            }
            None if main => return failed(r as u32),
            None => {}
        }
    }
    Placement {
        main_placed: graph.critical_path as u32,
        rooms: Some(placed),
    }
}

/// One spot for a new room next to placed room `p`, in at most [`TRIES_PER_PIECE`] tries:
/// a free side of `p`, a size, a corridor length and a door in the middle of each facing
/// side; the spot is taken when the room, its walls and the corridor touch nothing placed.
/// Returns the room, the corridor's first tile, its side and its length.
#[allow(clippy::type_complexity)]
fn place_next_to<R: Rng + ?Sized>(
    rng: &mut R,
    layout: &Layout,
    placed: &Placed,
    p: usize,
    s: &LootQuestSettings,
    work: &mut Work,
) -> Option<(RoomRect, (i32, i32), usize, u32)> {
    let free: Vec<usize> = (0..SIDES).filter(|&d| !placed.sides[p][d]).collect();
    if placed.free_sides(p) == 0 {
        return None;
    }
    let pr = placed.rooms[p];
    for _ in 0..TRIES_PER_PIECE {
        work.spots += 1;
        let side = free[below(rng, free.len())];
        let w = between(rng, s.room_size_min, s.room_size_max) as i32;
        let h = between(rng, s.room_size_min, s.room_size_max) as i32;
        let len = between(rng, s.room_spacing_min, s.room_spacing_max);
        let l = len as i32;
        // The door's offset along p's side and along the new room's facing side.
        let vertical = side.is_multiple_of(2);
        let (plo, phi) = door_zone(if vertical { pr.width } else { pr.height });
        let (clo, chi) = door_zone(if vertical { w } else { h });
        let po = between(rng, plo as u32, phi as u32) as i32;
        let co = between(rng, clo as u32, chi as u32) as i32;
        let (door, rect) = match side {
            0 => {
                let door = (pr.x + po, pr.y + pr.height);
                (door, (door.0 - co, door.1 + l))
            }
            1 => {
                let door = (pr.x + pr.width, pr.y + po);
                (door, (door.0 + l, door.1 - co))
            }
            2 => {
                let door = (pr.x + po, pr.y - 1);
                (door, (door.0 - co, door.1 - l - h + 1))
            }
            _ => {
                let door = (pr.x - 1, pr.y + po);
                (door, (door.0 - l - w + 1, door.1 - co))
            }
        };
        let rect = RoomRect {
            x: rect.0,
            y: rect.1,
            width: w,
            height: h,
        };
        if layout.room_free(&rect) && layout.corridor_free(door, side, len) {
            return Some((rect, door, side, len));
        }
    }
    None
}

/// Corridors between rooms, each a hop, by breadth-first search from `from` over the rooms:
/// hops to every room (`UNREACHED` where none).
fn hops(rooms: usize, edges: &[(usize, usize)], from: &[usize]) -> Vec<u32> {
    let mut dist = vec![UNREACHED; rooms];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for &f in from {
        dist[f] = 0;
        queue.push_back(f);
    }
    while let Some(r) = queue.pop_front() {
        for &(a, b) in edges {
            let other = if a == r {
                b
            } else if b == r {
                a
            } else {
                continue;
            };
            if dist[other] == UNREACHED {
                dist[other] = dist[r] + 1;
                queue.push_back(other);
            }
        }
    }
    dist
}

/// Step 4 (Brogue's `addLoops`): for every pair of placed rooms, in index order, that face
/// each other across a gap of the asked spacing, with their door zones overlapping, a free
/// side each, and at least [`LOOP_MIN_HOPS`] corridors apart by path, a `loops_percent`
/// chance of a straight corridor between them, taken only when it touches nothing placed and
/// keeps every way from the start room to the exit room at least the critical path long.
fn add_loops<R: Rng + ?Sized>(
    rng: &mut R,
    layout: &mut Layout,
    placed: &mut Placed,
    s: &LootQuestSettings,
) {
    if s.loops_percent == 0 {
        return;
    }
    let n = placed.rooms.len();
    let cp_hops = placed.critical_path as u32 - 1;
    for a in 0..n {
        for b in a + 1..n {
            let (ra, rb) = (placed.rooms[a], placed.rooms[b]);
            let Some((side, door, len)) = facing(&ra, &rb, s) else {
                continue;
            };
            if placed.sides[a][side]
                || placed.sides[b][(side + 2) % SIDES]
                || placed.free_sides(a) == 0
                || placed.free_sides(b) == 0
            {
                continue;
            }
            if between(rng, 0, 99) >= s.loops_percent {
                continue;
            }
            if hops(n, &placed.edges, &[a])[b] < LOOP_MIN_HOPS {
                continue;
            }
            let from_start = hops(n, &placed.edges, &[0]);
            let from_exit = hops(n, &placed.edges, &[placed.critical_path - 1]);
            let shortens = |p: usize, q: usize| {
                from_start[p].saturating_add(1).saturating_add(from_exit[q]) < cp_hops
            };
            if shortens(a, b) || shortens(b, a) {
                continue;
            }
            let (lo, hi) = door;
            let along = between(rng, lo as u32, hi as u32) as i32;
            let start = match side {
                0 => (along, ra.y + ra.height),
                1 => (ra.x + ra.width, along),
                2 => (along, ra.y - 1),
                _ => (ra.x - 1, along),
            };
            if !layout.corridor_free(start, side, len) {
                continue;
            }
            layout.carve_corridor(start, side, len);
            placed.sides[a][side] = true;
            placed.sides[b][(side + 2) % SIDES] = true;
            placed.edges.push((a, b));
        }
    }
}

/// Whether room `b` lies straight beyond a side of room `a` at a gap of the asked spacing
/// with their door zones overlapping: the side, the overlap of the zones (world
/// coordinates, across the corridor) and the gap.
fn facing(a: &RoomRect, b: &RoomRect, s: &LootQuestSettings) -> Option<(usize, (i32, i32), u32)> {
    let zone = |start: i32, len: i32| {
        let (lo, hi) = door_zone(len);
        (start + lo, start + hi)
    };
    let spacing = s.room_spacing_min as i32..=s.room_spacing_max as i32;
    let overlap = |(a0, a1): (i32, i32), (b0, b1): (i32, i32)| {
        let (lo, hi) = (a0.max(b0), a1.min(b1));
        (lo <= hi).then_some((lo, hi))
    };
    let xs = overlap(zone(a.x, a.width), zone(b.x, b.width));
    let ys = overlap(zone(a.y, a.height), zone(b.y, b.height));
    let gaps = [
        (0, b.y - (a.y + a.height), xs),
        (1, b.x - (a.x + a.width), ys),
        (2, a.y - (b.y + b.height), xs),
        (3, a.x - (b.x + b.width), ys),
    ];
    gaps.into_iter().find_map(|(side, gap, zone)| {
        (spacing.contains(&gap))
            .then_some(zone)
            .flatten()
            .map(|z| (side, z, gap as u32))
    })
}

/// Step 5: non-rectangular rooms by post-processing. Each room at least 5 tiles a side
/// becomes, with one draw in four each, an L (one corner cut) or, at least 7 tiles a side, a
/// cross (all four corners cut); the rest stay rectangles. A cut is at most `(side − 3) / 2`
/// tiles deep on each axis, so it never reaches a door ([`door_zone`]) and every arm stays
/// at least 3 tiles wide (every tile still a room tile).
fn shape_rooms<R: Rng + ?Sized>(rng: &mut R, layout: &mut Layout, placed: &Placed) {
    for r in &placed.rooms {
        if r.width < 5 || r.height < 5 {
            continue;
        }
        let shape = between(rng, 0, 3);
        let (mx, my) = ((r.width - 3) / 2, (r.height - 3) / 2);
        let corners: &[usize] = match shape {
            2 => &[0],
            3 if r.width >= 7 && r.height >= 7 => &[0, 1, 2, 3],
            _ => continue,
        };
        let cx = between(rng, 1, mx as u32) as i32;
        let cy = between(rng, 1, my as u32) as i32;
        let turn = if corners.len() == 1 { below(rng, 4) } else { 0 };
        for &c in corners {
            // Corner 0 bottom-left, then clockwise.
            let (left, bottom) = match (c + turn) % 4 {
                0 => (true, true),
                1 => (true, false),
                2 => (false, false),
                _ => (false, true),
            };
            let xs = if left {
                r.x..r.x + cx
            } else {
                r.x + r.width - cx..r.x + r.width
            };
            for y in if bottom {
                r.y..r.y + cy
            } else {
                r.y + r.height - cy..r.y + r.height
            } {
                for x in xs.clone() {
                    let i = layout.idx(x, y);
                    layout.open[i] = 0;
                }
            }
        }
    }
}

/// Step 6: FLOOR for open tiles, WALL for rock next to them (8-neighbourhood), NOTHING for
/// the rest; the avatar on a uniformly drawn tile of the start room; the exit, a
/// LOCKED_DOOR, on a uniformly drawn wall tile round the exit room's rectangle (the
/// critical path's last room; never in a cut corner) with exactly one open neighbour, a tile
/// of that room. `None` if there is no such tile.
fn finish<R: Rng + ?Sized>(rng: &mut R, layout: &Layout, placed: &Placed) -> Option<Level> {
    let w = layout.width;
    let tiles = walls_and_floors(&layout.open, w);
    let mut world = World::from_tiles(layout.width, layout.height, tiles)
        .unwrap_or_else(|| World::new(layout.width, layout.height));
    let start = placed.rooms[0];
    let floor: Vec<Pos> = (start.y..start.y + start.height)
        .flat_map(|y| (start.x..start.x + start.width).map(move |x| Pos::new(x, y)))
        .filter(|p| layout.is_open(p.x, p.y))
        .collect();
    if floor.is_empty() {
        return None;
    }
    let avatar = floor[below(rng, floor.len())];
    let end = placed.rooms[placed.critical_path - 1];
    let exits: Vec<Pos> = (end.y - 1..=end.y + end.height)
        .flat_map(|y| (end.x - 1..=end.x + end.width).map(move |x| Pos::new(x, y)))
        // On the ring round the room's rectangle, never in a cut corner: the room stays a
        // rectangle of floor to whoever reads its rectangle (the run's par route does).
        .filter(|p| !end.contains(*p) && world.get(*p) == Some(Tile::Wall))
        .filter(|p| {
            let open: Vec<Pos> = p
                .neighbours()
                .into_iter()
                .filter(|n| world.get(*n).is_some_and(Tile::is_walkable))
                .collect();
            open.len() == 1 && end.contains(open[0])
        })
        .collect();
    if exits.is_empty() || floor.is_empty() {
        return None;
    }
    let exit = exits[below(rng, exits.len())];
    world.set(avatar, Tile::Player);
    world.set(exit, Tile::LockedDoor);
    Some(Level {
        world,
        avatar,
        exit,
        rooms: placed.rooms.clone(),
    })
}

/// Step 7: the proof by search over the placed tiles. One breadth-first search from the
/// avatar ([`byog_tile_engine::search::bfs`]) reaches every open tile and a neighbour of
/// the exit; the room graph read from the tiles ([`metrics::room_paths`]) holds every placed
/// room, its critical path is the one asked and no dead end is longer than allowed.
///
/// # Errors
/// What failed, in words.
fn validate(level: &Level, placed: &Placed, s: &LootQuestSettings) -> Result<(), String> {
    let (grid, open) = Grid::walkable_mask(&level.world);
    let (Some(a), Some(e)) = (grid.index(level.avatar), grid.index(level.exit)) else {
        return Err("the avatar or the exit is outside the world".into());
    };
    let mut dist = vec![UNREACHED; grid.len()];
    bfs(grid, &open, &[a], &mut dist);
    if (0..grid.len()).any(|i| open[i] && dist[i] == UNREACHED) {
        return Err("an open tile cannot be reached".into());
    }
    if grid.neighbours(e).iter().all(|&n| dist[n] == UNREACHED) {
        return Err("the exit cannot be reached".into());
    }
    let paths = metrics::room_paths(&level.world, level.avatar, level.exit);
    if paths.rooms != placed.rooms.len() as u32 {
        return Err(format!(
            "{} rooms read from the tiles, {} placed",
            paths.rooms,
            placed.rooms.len()
        ));
    }
    if paths.critical_path != s.critical_path {
        return Err(format!(
            "critical path {} rooms, {} asked",
            paths.critical_path, s.critical_path
        ));
    }
    if paths.max_dead_end > s.max_dead_end {
        return Err(format!(
            "a dead end of {} rooms, at most {} asked",
            paths.max_dead_end, s.max_dead_end
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    #[test]
    fn the_room_graph_has_the_main_path_and_short_branches() {
        let s = LootQuestSettings {
            rooms: 20,
            critical_path: 6,
            max_dead_end: 2,
            ..LootQuestSettings::default()
        };
        for seed in 0..50 {
            let g = make_room_graph(&mut Pcg64::seed_from_u64(seed), &s);
            assert_eq!(g.parent.len(), 20);
            check_room_graph(&g, &s).unwrap();
        }
        let none = LootQuestSettings {
            max_dead_end: 0,
            ..s
        };
        let g = make_room_graph(&mut Pcg64::seed_from_u64(1), &none);
        assert_eq!(g.parent.len(), 6, "no branches: the room count gives way");
        let mut bad = make_room_graph(&mut Pcg64::seed_from_u64(1), &s);
        bad.depth[10] = 3;
        assert!(check_room_graph(&bad, &s).is_err());
    }

    #[test]
    fn a_critical_path_that_cannot_fit_fails_before_placement() {
        let s = LootQuestSettings {
            critical_path: 100,
            room_size_min: 9,
            room_size_max: 9,
            ..LootQuestSettings::default()
        };
        let e = check_fits(80, 30, &s).unwrap_err();
        assert!(matches!(e, GenerateError::LootQuestUnmet { tries: 0, .. }));
        assert!(e.to_string().contains("at most 22 rooms"), "{e}");
    }
}
