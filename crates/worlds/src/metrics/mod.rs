//! Dungeon metrics and requirements: what a world is made of, measured from its tiles alone.
//!
//! The idea, and most of the metrics, come from Josh Ge's "Dungeon Metrics" (Grid Sage Games,
//! the Cogmind development blog, July 2014,
//! <https://www.gridsagegames.com/blog/2014/07/dungeon-metrics/>): openness, room counts by
//! size, the avatar→exit distance, per-room connectedness and seclusion from the critical
//! path. The critical path and the dead-end limit are also LootQuest's map requirements; rooms,
//! corridors, junctions and dead ends are the vocabulary of Bob Nystrom's "Rooms and Mazes"
//! (2014, <https://journal.stuffwithstuff.com/2014/12/21/rooms-and-mazes/>), whose generator
//! ([`crate::generator`]) these metrics judge.
//!
//! [`measure`] works on any [`World`] (hand-built ones too), never on the generator's own
//! bookkeeping: rooms are found in the tiles. Everything is computed with breadth-first
//! searches and flood fills over `Vec`s, in time linear in the number of tiles (one sort of
//! the room/corridor contacts aside, see [`RoomMetrics::connectedness`]), and with no
//! `HashMap` anywhere, so the same world always gives the same numbers.
//!
//! `byog_game::run::survey` measures the worlds of a range of seeds (the expressive range) and
//! the floors of runs with them; [`Requirements`] are checked on the [`Metrics`].
//!
//! # Vocabulary
//!
//! - **Open** (walkable) tile: [`Tile::Floor`] or [`Tile::Player`]. Everything else, the exit
//!   door included, is closed: the exit is a [`Tile::LockedDoor`] set into a wall that the
//!   avatar walks *into* from a neighbouring floor tile.
//! - **Neighbours**: the four cardinal neighbours, always visited in the order up (+y), right,
//!   down, left (the generator's BFS order). Tiles outside the world are closed.
//! - **Room tile**: an open tile that lies in some 3 × 3 block of open tiles. Corridors are one
//!   tile wide, so they never form such a block; every tile of a rectangle at least 3 × 3 does.
//! - **Room**: a 4-connected component of room tiles. Rooms are numbered from 0 in row-major
//!   order of their first tile, where row-major means the world's storage order (`y * width +
//!   x`, bottom row first). Two generated rooms joined by a one-tile opening stay two rooms
//!   (the opening is not in a 3 × 3 block), just as the generator placed them.
//! - **Corridor tile**: an open tile that is not a room tile (maze corridors, and the one-tile
//!   openings between a room and what it connects to).
//! - **Distance**: the number of single steps between open tiles, by BFS, with no cap.

use serde::Serialize;

use byog_tile_engine::search::{self, Grid, UNREACHED, bfs, label_components, path_into};
use byog_tile_engine::{Pos, Tile, World};

mod requirements;
mod rooms;

pub use requirements::{Reached, Requirement, Requirements, RequirementsError, Unmet};
pub use rooms::{RoomPaths, room_ids, room_labels};

/// Room id of a tile that is not a room tile (see [`room_ids`]).
pub const NO_ROOM: u32 = u32::MAX;

/// Rooms with fewer tiles than this are small (a generated 3 × 3 or 3 × 5 room).
pub const SMALL_ROOM_BELOW: u32 = 16;
/// Rooms with more tiles than this are large (a generated 7 × 7 room or bigger); rooms of
/// [`SMALL_ROOM_BELOW`]`..=LARGE_ROOM_ABOVE` tiles are medium (5 × 5 up to 5 × 9).
pub const LARGE_ROOM_ABOVE: u32 = 48;

/// The metrics of one world, avatar and exit. Counts of tiles are in tiles, distances in
/// steps between cardinal neighbours ("tiles" below), percentages in percent of all tiles.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metrics {
    /// World width, in tiles.
    pub width: u32,
    /// World height, in tiles.
    pub height: u32,
    /// Open (walkable) tiles: FLOOR and PLAYER, in tiles.
    pub open_tiles: u32,
    /// Openness (the first of Cogmind's composition requirements): `open_tiles / (width × height) × 100`, in percent;
    /// 0 for an empty world. [`Requirements`] compare it exactly, in integers.
    pub openness_percent: f64,
    /// Number of rooms (Cogmind's room count requirement; LootQuest's number of rooms).
    pub room_count: u32,
    /// Rooms of fewer than [`SMALL_ROOM_BELOW`] (16) tiles.
    pub rooms_small: u32,
    /// Rooms of 16..=48 tiles (see [`LARGE_ROOM_ABOVE`]).
    pub rooms_medium: u32,
    /// Rooms of more than [`LARGE_ROOM_ABOVE`] (48) tiles.
    pub rooms_large: u32,
    /// The area of the largest room, in tiles; 0 without rooms.
    pub largest_room_area: u32,
    /// Open tiles that are not room tiles (Nystrom's corridors and room openings), in tiles.
    pub corridor_tiles: u32,
    /// Junctions: corridor tiles (open, not room tiles) with 3 or 4 open neighbours, i.e.
    /// where a corridor forks (a T or a crossing, a corridor passing a room's opening). A
    /// room's opening with one corridor behind it has only 2 open neighbours and is no
    /// junction; room tiles never are.
    pub junctions: u32,
    /// Regions: the 4-connected components of open tiles. 1 when everything is reachable
    /// from everywhere (always, for generated worlds).
    pub regions: u32,
    /// Loops: the number of independent cycles (the cyclomatic number `E − V + C`, Berge) of
    /// the *room graph*: the graph of open tiles and their cardinal adjacencies in which each
    /// room is contracted to a single vertex (adjacencies between one corridor tile and one
    /// room counted once). It counts the independent ways to walk around something and come
    /// back; in a rooms-and-mazes world they come from the redundant connectors Nystrom opens
    /// with a 1-in-`extra_connector_chance` chance (with 0, there are none).
    ///
    /// Why not the issue's `junctions − (regions − 1)`: a junction is a fork, not a cycle (a
    /// tree of corridors has junctions and no loop), a loop through two T-junctions counts
    /// twice, and a loop closed through rooms (two corridors between the same two rooms) has
    /// no junction at all. Why not `E − V + C` of the raw tile graph: every 2 × 2 square of floor is a
    /// cycle, so a lone 5 × 5 room would count 16 loops. Contracting rooms keeps the
    /// definition exact and makes a room a place, as a player sees it.
    pub loops: u32,
    /// Dead ends: open tiles with at most one open neighbour, in tiles (LootQuest's dead-end
    /// limit; Nystrom's generator removes them all, so 0 for generated worlds). Room tiles
    /// never are.
    pub dead_ends: u32,
    /// The avatar→exit distance (Cogmind's entrance-to-exit distance): the number of moves
    /// from the avatar's tile to walk into the exit, by BFS over open tiles. The exit is not
    /// walkable, so this is 1 + the distance of its nearest open cardinal neighbour; 0 when
    /// the exit is the avatar's own tile. `None` (JSON `null`) when the exit is unreachable:
    /// no open neighbour of it can be reached, or the avatar or exit lies outside the world.
    pub exit_distance: Option<u32>,
    /// The length of the critical path (LootQuest, Cogmind) in tiles: the tiles of the
    /// shortest avatar→exit path (see [`critical_path`]), the avatar's tile and the exit's
    /// included, so `exit_distance + 1`. `None` when the exit is unreachable.
    pub critical_path_length: Option<u32>,
    /// The number of distinct rooms the critical path passes through (the avatar's room
    /// included): the critical path's length in rooms. 0 when the exit is unreachable.
    pub critical_path_rooms: u32,
    /// The ids of those rooms, in the order the path first enters them.
    pub critical_path_room_ids: Vec<u32>,
    /// The critical path over the *room graph* (LootQuest's critical path, [`room_paths`]):
    /// the fewest rooms on any way from the avatar into the exit, the avatar's room and the
    /// exit's room both counted; rooms are the graph's nodes, and two rooms are joined when
    /// a corridor component touches both (a corridor joins them without crossing a third).
    /// Unlike `critical_path_rooms` (the rooms the shortest walk in tiles passes), this
    /// counts the fewest rooms any walk must pass. 0 when the exit is unreachable.
    pub critical_path: u32,
    /// The longest dead end over the room graph (LootQuest's dead-end length, [`room_paths`]):
    /// the most rooms any room lies away from the critical path (0 for rooms on a way of the
    /// critical path's length). 0 without a critical path.
    pub max_dead_end: u32,
    /// Every room, by id.
    pub rooms: Vec<RoomMetrics>,
}

/// The metrics of one room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoomMetrics {
    /// The room's id: its index in [`Metrics::rooms`] (row-major order of first tiles).
    pub id: u32,
    /// Its first tile in row-major order (lowest row, then lowest column).
    pub first_tile: Pos,
    /// Its area, in tiles.
    pub area: u32,
    /// Openings: the corridor tiles cardinally next to the room, its doorways (in a generated
    /// world, the connectors opened into it). In tiles.
    pub openings: u32,
    /// Rooms directly connected to this one: the rooms `B ≠ A` reachable from this room `A`
    /// without passing through a third room's tiles, i.e. rooms that touch (cardinally) a
    /// corridor component, a 4-connected component of corridor tiles, that `A` also touches.
    /// In rooms.
    pub direct_connections: u32,
    /// Connectedness (Cogmind: the areas a room connects to directly, plus those they connect
    /// to): the number of distinct rooms other than this one that are directly
    /// connected to it or directly connected to a room that is; that is, the rooms within two
    /// hops in the graph of direct connections. In rooms.
    ///
    /// Cost: distinct counting needs, per room, a pass over the rooms of the corridor
    /// components two hops away, except the largest corridor component, which is settled in
    /// constant time per room. On generated worlds that is linear; a contrived world whose
    /// rooms hang on many large separate corridor networks can make it quadratic in the
    /// number of rooms (never in the number of tiles).
    pub connectedness: u32,
    /// Seclusion (Cogmind's seclusion factor): the BFS distance, in tiles, between this room
    /// and the critical path (see [`critical_path`]): the smallest distance from a walkable
    /// tile of the path to a tile of the room; 0 if the path passes through the room. `None` when there is no critical path or the
    /// room cannot reach it.
    pub seclusion: Option<u32>,
}

/// Whether a tile is open (walkable): FLOOR or PLAYER.
/// One number of a world's [`Metrics`] in `byog stats` (its per-seed JSON and the
/// expressive-range summary over many seeds).
#[derive(Debug, Clone, Copy)]
pub struct SummaryMetric {
    /// The name printed, also the JSON key (the field's name where there is one).
    pub name: &'static str,
    /// Its value in a world's metrics; `None` where it is not defined (an unreachable exit's
    /// distance, the seclusion of a world without rooms).
    pub value: fn(&Metrics) -> Option<f64>,
}

/// The one list of summarised metrics, in output order: a new metric is a field of
/// [`Metrics`] and one more entry here; `stats` prints whatever this lists.
pub const SUMMARY: &[SummaryMetric] = &[
    SummaryMetric {
        name: "openness_percent",
        value: |m| Some(m.openness_percent),
    },
    SummaryMetric {
        name: "open_tiles",
        value: |m| Some(f64::from(m.open_tiles)),
    },
    SummaryMetric {
        name: "room_count",
        value: |m| Some(f64::from(m.room_count)),
    },
    SummaryMetric {
        name: "rooms_small",
        value: |m| Some(f64::from(m.rooms_small)),
    },
    SummaryMetric {
        name: "rooms_medium",
        value: |m| Some(f64::from(m.rooms_medium)),
    },
    SummaryMetric {
        name: "rooms_large",
        value: |m| Some(f64::from(m.rooms_large)),
    },
    SummaryMetric {
        name: "largest_room_area",
        value: |m| Some(f64::from(m.largest_room_area)),
    },
    SummaryMetric {
        name: "corridor_tiles",
        value: |m| Some(f64::from(m.corridor_tiles)),
    },
    SummaryMetric {
        name: "junctions",
        value: |m| Some(f64::from(m.junctions)),
    },
    SummaryMetric {
        name: "loops",
        value: |m| Some(f64::from(m.loops)),
    },
    SummaryMetric {
        name: "dead_ends",
        value: |m| Some(f64::from(m.dead_ends)),
    },
    SummaryMetric {
        name: "regions",
        value: |m| Some(f64::from(m.regions)),
    },
    SummaryMetric {
        name: "exit_distance",
        value: |m| m.exit_distance.map(f64::from),
    },
    SummaryMetric {
        name: "critical_path_length",
        value: |m| m.critical_path_length.map(f64::from),
    },
    SummaryMetric {
        name: "critical_path_rooms",
        value: |m| Some(f64::from(m.critical_path_rooms)),
    },
    SummaryMetric {
        name: "max_seclusion",
        value: |m| m.max_seclusion().map(f64::from),
    },
    SummaryMetric {
        name: "critical_path",
        value: |m| Some(f64::from(m.critical_path)),
    },
    SummaryMetric {
        name: "max_dead_end",
        value: |m| Some(f64::from(m.max_dead_end)),
    },
];

impl Metrics {
    /// The seclusion of the most secluded room that can reach the critical path, in tiles.
    pub fn max_seclusion(&self) -> Option<u32> {
        self.rooms.iter().filter_map(|r| r.seclusion).max()
    }
}

/// The same as [`Tile::is_walkable`], the one definition the map seam uses.
pub fn is_open(tile: Tile) -> bool {
    tile.is_walkable()
}

/// The BFS distance, in tiles, from `source` to every tile of `world` over open tiles, as a
/// row-major vector (`world.tiles()` order); `u32::MAX` where unreachable. `source` counts
/// as distance 0 whatever it holds; a source outside the world reaches nothing. (A thin
/// wrapper over [`search::distances`].)
pub fn distances_from(world: &World, source: Pos) -> Vec<u32> {
    search::distances(world, &[source]).to_vec()
}

/// The critical path: the shortest walk from the avatar into the exit, as the tiles it steps
/// on, avatar first and exit last (`exit_distance + 1` tiles); `None` when the exit is
/// unreachable.
///
/// Among equally short paths, the one chosen is fixed: the exit is entered from its open
/// neighbour nearest the avatar (the first in the order up, right, down, left on ties), and
/// from each tile the path steps back towards the avatar onto the first neighbour, in that
/// order, that is one step nearer to it. Steps go over open tiles only; the avatar's tile
/// is the start whatever it holds.
pub fn critical_path(world: &World, avatar: Pos, exit: Pos) -> Option<Vec<Pos>> {
    world.contains(avatar).then_some(())?;
    search::distances(world, &[avatar]).path_to(exit)
}

/// The room graph's critical path and dead ends, read from the tiles of `world` (avatar at
/// `avatar`, exit at `exit`): rooms (see the [module documentation](self)) are the nodes, and
/// two rooms are joined when one corridor component (4-connected corridor tiles) touches
/// both. The critical path is the fewest rooms on a way from the avatar's room (or corridor)
/// to a room or corridor beside the exit, both ends counted; a room's dead-end length is how
/// many rooms a way from the critical path to it enters. Breadth-first searches over rooms
/// and corridor components (0-1: entering a room costs one), linear in tiles.
pub fn room_paths(world: &World, avatar: Pos, exit: Pos) -> RoomPaths {
    let (grid, open) = Grid::walkable_mask(world);
    let is_room = rooms::room_mask(grid, &open);
    let (room_of, room_list) = label_components(grid, &is_room);
    rooms::room_paths(
        grid,
        &open,
        &is_room,
        &room_of,
        room_list.len(),
        grid.index(avatar),
        grid.index(exit),
    )
}

/// The tiles of the critical path over the room graph (see [`room_paths`]), row-major
/// (`world.tiles()` order): every tile of a room, or of a corridor component, that lies on a
/// way from the avatar to the exit passing the critical path's number of rooms. All `false`
/// when the exit is unreachable.
pub fn critical_path_tiles(world: &World, avatar: Pos, exit: Pos) -> Vec<bool> {
    let (grid, open) = Grid::walkable_mask(world);
    let is_room = rooms::room_mask(grid, &open);
    let (room_of, room_list) = label_components(grid, &is_room);
    let mut marks = vec![false; grid.len()];
    rooms::room_paths_marked(
        grid,
        &open,
        &is_room,
        &room_of,
        room_list.len(),
        grid.index(avatar),
        grid.index(exit),
        Some(&mut marks),
    );
    if marks.len() != grid.len() {
        marks = vec![false; grid.len()];
    }
    grid.unpad(&marks)
}

/// Measures `world`, with the avatar at `avatar` and the exit at `exit`. Works on any world;
/// see the [module documentation](self) and each field of [`Metrics`] for the definitions.
pub fn measure(world: &World, avatar: Pos, exit: Pos) -> Metrics {
    let (grid, open) = Grid::walkable_mask(world);
    let n = grid.len();
    let is_room = rooms::room_mask(grid, &open);
    let (room_of, room_list) = label_components(grid, &is_room);

    // Counts over tiles.
    let mut open_tiles = 0u32;
    let mut corridor_tiles = 0u32;
    let mut junctions = 0u32;
    let mut dead_ends = 0u32;
    // The room graph: vertices are corridor tiles and rooms; edges are corridor–corridor
    // adjacencies and (corridor tile, room) contacts, each pair once.
    let mut edges = 0u64;
    let mut openings = vec![0u32; room_list.len()];
    for i in 0..n {
        if !open[i] {
            continue;
        }
        open_tiles += 1;
        let nbrs = grid.neighbours(i);
        let degree = nbrs.iter().filter(|&&m| open[m]).count();
        if degree <= 1 {
            dead_ends += 1;
        }
        if is_room[i] {
            continue;
        }
        corridor_tiles += 1;
        if degree >= 3 {
            junctions += 1;
        }
        let mut touched = [NO_ROOM; 4];
        let mut t = 0;
        for (k, &m) in nbrs.iter().enumerate() {
            if !open[m] {
                continue;
            }
            if is_room[m] {
                let r = room_of[m];
                if !touched[..t].contains(&r) {
                    touched[t] = r;
                    t += 1;
                }
            } else if k < 2 {
                // Up and right: each corridor–corridor pair counted once.
                edges += 1;
            }
        }
        edges += t as u64;
        for &r in &touched[..t] {
            openings[r as usize] += 1;
        }
    }
    let (_, region_list) = label_components(grid, &open);
    let regions = region_list.len() as u32;
    let vertices = u64::from(corridor_tiles) + room_list.len() as u64;
    let loops = (edges + u64::from(regions) - vertices) as u32;

    // Rooms.
    let mut rooms: Vec<RoomMetrics> = room_list
        .iter()
        .enumerate()
        .map(|(id, &(first, area))| RoomMetrics {
            id: id as u32,
            first_tile: grid.pos(first),
            area,
            openings: openings[id],
            direct_connections: 0,
            connectedness: 0,
            seclusion: None,
        })
        .collect();
    rooms::connect_rooms(grid, &open, &is_room, &room_of, &mut rooms);
    let (mut rooms_small, mut rooms_medium, mut rooms_large) = (0, 0, 0);
    for r in &rooms {
        match r.area {
            a if a < SMALL_ROOM_BELOW => rooms_small += 1,
            a if a <= LARGE_ROOM_ABOVE => rooms_medium += 1,
            _ => rooms_large += 1,
        }
    }
    let largest_room_area = rooms.iter().map(|r| r.area).max().unwrap_or(0);

    // The critical path.
    let mut dist = vec![UNREACHED; n];
    let path = match (grid.index(avatar), grid.index(exit)) {
        (Some(a), Some(e)) => {
            bfs(grid, &open, &[a], &mut dist);
            path_into(grid, &dist, e)
        }
        _ => None,
    };
    let mut critical_path_room_ids = Vec::new();
    if let Some(path) = &path {
        let mut on_path = vec![false; rooms.len()];
        for &i in path {
            let r = room_of[i];
            if r != NO_ROOM && !on_path[r as usize] {
                on_path[r as usize] = true;
                critical_path_room_ids.push(r);
            }
        }
        // Seclusion: one BFS from every walkable tile of the path (the exit door is not).
        let walk = &path[..path.len() - usize::from(path.len() > 1)];
        dist.fill(UNREACHED);
        bfs(grid, &open, walk, &mut dist);
        for i in 0..n {
            let r = room_of[i];
            if r != NO_ROOM && dist[i] != UNREACHED {
                let s = &mut rooms[r as usize].seclusion;
                *s = Some(s.map_or(dist[i], |s| s.min(dist[i])));
            }
        }
    }
    let exit_distance = path.as_ref().map(|p| (p.len() - 1) as u32);
    let paths = rooms::room_paths(
        grid,
        &open,
        &is_room,
        &room_of,
        rooms.len(),
        grid.index(avatar),
        grid.index(exit),
    );

    Metrics {
        width: world.width() as u32,
        height: world.height() as u32,
        open_tiles,
        openness_percent: if world.tiles().is_empty() {
            0.0
        } else {
            f64::from(open_tiles) * 100.0 / world.tiles().len() as f64
        },
        room_count: rooms.len() as u32,
        rooms_small,
        rooms_medium,
        rooms_large,
        largest_room_area,
        corridor_tiles,
        junctions,
        regions,
        loops,
        dead_ends,
        exit_distance,
        critical_path_length: path.as_ref().map(|p| p.len() as u32),
        critical_path_rooms: critical_path_room_ids.len() as u32,
        critical_path_room_ids,
        critical_path: paths.critical_path,
        max_dead_end: paths.max_dead_end,
        rooms,
    }
}
