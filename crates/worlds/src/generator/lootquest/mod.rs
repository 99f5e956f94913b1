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

mod finish;
mod graph;
mod layout;
mod loops;
mod place;
mod shape;
mod validate;

use std::ops::RangeInclusive;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use super::{GenerateError, Level, Setting};
use crate::progress::{self, Stage};
use finish::finish;
pub use graph::{RoomGraph, check_room_graph, make_room_graph};
use layout::Layout;
use loops::add_loops;
use place::place_rooms;
use shape::shape_rooms;
use validate::validate;

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
    let watched = progress::is_watched();
    for layout in 0..TRIES_PER_LEVEL {
        if watched {
            progress::report(Stage::Layouts, layout as f32 / TRIES_PER_LEVEL as f32);
        }
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
    if watched {
        progress::report(Stage::Layouts, 1.0);
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

/// A uniform index below `n` (> 0), drawn as a `u32`.
pub(super) fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    rng.random_range(0..n as u32) as usize
}

/// A uniform value of `lo..=hi`.
pub(super) fn between<R: Rng + ?Sized>(rng: &mut R, lo: u32, hi: u32) -> u32 {
    rng.random_range(lo..=hi)
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
