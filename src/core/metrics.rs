//! Dungeon metrics and requirements: what a world is made of, measured from its tiles alone.
//!
//! The idea, and most of the metrics, come from Josh Ge's "Dungeon Metrics" (Grid Sage Games,
//! the Cogmind development blog, July 2014,
//! <https://www.gridsagegames.com/blog/2014/07/dungeon-metrics/>): openness, room counts by
//! size, the avatar→exit distance, per-room connectedness and seclusion from the critical
//! path. The critical path and the dead-end limit are also LootQuest's map requirements; rooms,
//! corridors, junctions and dead ends are the vocabulary of Bob Nystrom's "Rooms and Mazes"
//! (2014, <https://journal.stuffwithstuff.com/2014/12/21/rooms-and-mazes/>), whose generator
//! ([`crate::core::generator`]) these metrics judge.
//!
//! [`measure`] works on any [`World`] (hand-built ones too), never on the generator's own
//! bookkeeping: rooms are found in the tiles. Everything is computed with breadth-first
//! searches and flood fills over `Vec`s, in time linear in the number of tiles (one sort of
//! the room/corridor contacts aside, see [`RoomMetrics::connectedness`]), and with no
//! `HashMap` anywhere, so the same world always gives the same numbers.
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

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::tile_engine::{Pos, Tile, World};

/// Room id of a tile that is not a room tile (see [`room_ids`]).
pub const NO_ROOM: u32 = u32::MAX;

/// Rooms with fewer tiles than this are small (a generated 3 × 3 or 3 × 5 room).
pub const SMALL_ROOM_BELOW: u32 = 16;
/// Rooms with more tiles than this are large (a generated 7 × 7 room or bigger); rooms of
/// [`SMALL_ROOM_BELOW`]`..=LARGE_ROOM_ABOVE` tiles are medium (5 × 5 up to 5 × 9).
pub const LARGE_ROOM_ABOVE: u32 = 48;

/// Marks a tile no search has reached.
const UNSEEN: u32 = u32::MAX;
/// Marks "no tile" (no exit neighbour found yet) and "no hub".
const NONE: usize = usize::MAX;

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
pub fn is_open(tile: Tile) -> bool {
    matches!(tile, Tile::Floor | Tile::Player)
}

/// The grid the searches run on: the world surrounded by a border of closed tiles, one tile
/// wide, so that every world tile has four neighbours in the grid and no search needs a
/// bounds check. Padded index `i` is `(y + 1) × width + (x + 1)` for world tile `(x, y)`;
/// padded row-major order is the world's row-major order.
#[derive(Clone, Copy)]
struct Grid {
    /// Padded width: world width + 2.
    width: usize,
    /// Padded height: world height + 2.
    height: usize,
}

impl Grid {
    /// The padded grid of `world` and its open mask (the border closed).
    fn of(world: &World) -> (Grid, Vec<bool>) {
        let grid = Grid {
            width: world.width() + 2,
            height: world.height() + 2,
        };
        let mut open = vec![false; grid.len()];
        if world.width() > 0 {
            for (y, row) in world.tiles().chunks(world.width()).enumerate() {
                let start = (y + 1) * grid.width + 1;
                for (o, &t) in open[start..start + row.len()].iter_mut().zip(row) {
                    *o = is_open(t);
                }
            }
        }
        (grid, open)
    }

    fn len(self) -> usize {
        self.width * self.height
    }

    /// The cardinal neighbours of a world tile `i`, in the order up, right, down, left.
    #[inline]
    fn neighbours(self, i: usize) -> [usize; 4] {
        [i + self.width, i + 1, i - self.width, i - 1]
    }

    /// The padded index of a world position; `None` outside the world.
    fn index(self, pos: Pos) -> Option<usize> {
        (pos.x >= 0
            && pos.y >= 0
            && (pos.x as usize) < self.width - 2
            && (pos.y as usize) < self.height - 2)
            .then(|| (pos.y as usize + 1) * self.width + pos.x as usize + 1)
    }

    /// The world position of padded index `i`.
    fn pos(self, i: usize) -> Pos {
        Pos::new((i % self.width) as i32 - 1, (i / self.width) as i32 - 1)
    }
}

/// Whether each tile is a room tile: open and inside some 3 × 3 block of open tiles.
fn room_mask(grid: Grid, open: &[bool]) -> Vec<bool> {
    let (w, h) = (grid.width, grid.height);
    let mut mask = vec![false; grid.len()];
    // row3[i]: i and its left and right neighbours are open.
    let mut row3 = vec![false; grid.len()];
    for i in 1..grid.len().saturating_sub(1) {
        row3[i] = open[i - 1] && open[i] && open[i + 1];
    }
    // The 3 × 3 block around i is open: every tile of it is a room tile. Open tiles are never
    // on the border, so neither is i.
    for y in 1..h.saturating_sub(1) {
        for i in y * w + 1..y * w + w - 1 {
            if row3[i - w] && row3[i] && row3[i + w] {
                for r in [i - w, i, i + w] {
                    mask[r - 1] = true;
                    mask[r] = true;
                    mask[r + 1] = true;
                }
            }
        }
    }
    mask
}

/// Labels the 4-connected components of the tiles where `member` holds, numbered in
/// row-major order of their first tile; others get `UNSEEN`. Returns the labels and, per
/// component, its first tile and its size.
fn components(grid: Grid, member: &[bool]) -> (Vec<u32>, Vec<(usize, u32)>) {
    let mut label = vec![UNSEEN; grid.len()];
    let mut found = Vec::new();
    let mut stack = Vec::new();
    for start in 0..grid.len() {
        if !member[start] || label[start] != UNSEEN {
            continue;
        }
        let id = found.len() as u32;
        label[start] = id;
        stack.push(start);
        let mut size = 0u32;
        while let Some(i) = stack.pop() {
            size += 1;
            for n in grid.neighbours(i) {
                if member[n] && label[n] == UNSEEN {
                    label[n] = id;
                    stack.push(n);
                }
            }
        }
        found.push((start, size));
    }
    (label, found)
}

/// The room id of every tile, row-major (bottom row first): the tile's room, or [`NO_ROOM`]
/// for a tile that is not a room tile. Same numbering as [`Metrics::rooms`].
pub fn room_ids(world: &World) -> Vec<u32> {
    let (grid, open) = Grid::of(world);
    unpad(grid, &components(grid, &room_mask(grid, &open)).0)
}

/// The world's part of a per-tile vector over the padded grid, in world row-major order.
fn unpad(grid: Grid, padded: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity((grid.width - 2) * (grid.height - 2));
    for y in 1..grid.height - 1 {
        out.extend_from_slice(&padded[y * grid.width + 1..y * grid.width + grid.width - 1]);
    }
    out
}

/// The BFS distance, in tiles, from `source` to every tile of `world` over open tiles, as a
/// row-major vector (`world.tiles()` order); `u32::MAX` where unreachable. `source` counts
/// as distance 0 whatever it holds; a source outside the world reaches nothing.
pub fn distances_from(world: &World, source: Pos) -> Vec<u32> {
    let (grid, open) = Grid::of(world);
    let mut dist = vec![UNSEEN; grid.len()];
    if let Some(s) = grid.index(source) {
        bfs(grid, &open, &[s], &mut dist);
    }
    unpad(grid, &dist)
}

/// Breadth-first search over open tiles from every tile of `sources` (distance 0, open or
/// not), neighbours in the fixed order. `dist` must be all `UNSEEN` on entry; it ends with
/// the distance of every reached tile.
fn bfs(grid: Grid, open: &[bool], sources: &[usize], dist: &mut [u32]) {
    let mut queue: Vec<usize> = Vec::with_capacity(sources.len().max(16));
    for &s in sources {
        if dist[s] == UNSEEN {
            dist[s] = 0;
            queue.push(s);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let i = queue[head];
        head += 1;
        let d = dist[i] + 1;
        for n in grid.neighbours(i) {
            if open[n] && dist[n] == UNSEEN {
                dist[n] = d;
                queue.push(n);
            }
        }
    }
}

/// The shortest avatar→exit path as tile indices (avatar first, exit last), given the BFS
/// distances from the avatar; `None` when the exit is unreachable.
fn shortest_path(grid: Grid, dist: &[u32], avatar: usize, exit: usize) -> Option<Vec<usize>> {
    if exit == avatar {
        return Some(vec![avatar]);
    }
    // The exit's nearest reached neighbour, the first in neighbour order on ties.
    let mut last = NONE;
    for n in grid.neighbours(exit) {
        if dist[n] != UNSEEN && (last == NONE || dist[n] < dist[last]) {
            last = n;
        }
    }
    if last == NONE {
        return None;
    }
    let mut path = Vec::with_capacity(dist[last] as usize + 2);
    path.push(exit);
    let mut i = last;
    path.push(i);
    while dist[i] > 0 {
        // The first neighbour, in neighbour order, one step closer to the avatar. BFS
        // distances guarantee one exists.
        i = grid
            .neighbours(i)
            .into_iter()
            .find(|&n| dist[n] == dist[i] - 1)
            .expect("a BFS tile at distance d > 0 has a neighbour at d - 1");
        path.push(i);
    }
    path.reverse();
    Some(path)
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
    let (grid, open) = Grid::of(world);
    let (a, e) = (grid.index(avatar)?, grid.index(exit)?);
    let mut dist = vec![UNSEEN; grid.len()];
    bfs(grid, &open, &[a], &mut dist);
    shortest_path(grid, &dist, a, e).map(|p| p.into_iter().map(|i| grid.pos(i)).collect())
}

/// Measures `world`, with the avatar at `avatar` and the exit at `exit`. Works on any world;
/// see the [module documentation](self) and each field of [`Metrics`] for the definitions.
pub fn measure(world: &World, avatar: Pos, exit: Pos) -> Metrics {
    let (grid, open) = Grid::of(world);
    let n = grid.len();
    let is_room = room_mask(grid, &open);
    let (room_of, room_list) = components(grid, &is_room);

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
    let (_, region_list) = components(grid, &open);
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
    connect_rooms(grid, &open, &is_room, &room_of, &mut rooms);
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
    let mut dist = vec![UNSEEN; n];
    let path = match (grid.index(avatar), grid.index(exit)) {
        (Some(a), Some(e)) => {
            bfs(grid, &open, &[a], &mut dist);
            shortest_path(grid, &dist, a, e)
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
        dist.fill(UNSEEN);
        bfs(grid, &open, walk, &mut dist);
        for i in 0..n {
            let r = room_of[i];
            if r != NO_ROOM && dist[i] != UNSEEN {
                let s = &mut rooms[r as usize].seclusion;
                *s = Some(s.map_or(dist[i], |s| s.min(dist[i])));
            }
        }
    }
    let exit_distance = path.as_ref().map(|p| (p.len() - 1) as u32);

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
        rooms,
    }
}

/// Fills in `direct_connections` and `connectedness` of every room.
///
/// The rooms and the corridor components ("hubs") form a bipartite graph: a room touches a
/// hub when one of its tiles is a cardinal neighbour of one of the hub's tiles. Two rooms are
/// directly connected when they touch a common hub, so the rooms within two hops of room `a`
/// are the rooms of the hubs touched by `a` or by a room directly connected to `a`.
///
/// Walking those hubs' rooms for every room is quadratic when one hub touches most rooms,
/// which is what rooms-and-mazes makes (its maze is one corridor network). That largest hub,
/// the "giant", is therefore never walked per room: its rooms, and the rooms of every hub
/// that one of its rooms touches, are counted once up front, and per room only the other,
/// small hubs are walked, with membership masks to count each room once.
fn connect_rooms(
    grid: Grid,
    open: &[bool],
    is_room: &[bool],
    room_of: &[u32],
    rooms: &mut [RoomMetrics],
) {
    let corridor: Vec<bool> = open.iter().zip(is_room).map(|(&o, &r)| o && !r).collect();
    let (hub_of, hub_list) = components(grid, &corridor);
    // Room–hub contacts, sorted and deduplicated: O(contacts · log contacts).
    let mut contacts: Vec<(u32, u32)> = Vec::new();
    for i in 0..grid.len() {
        if !corridor[i] {
            continue;
        }
        for m in grid.neighbours(i) {
            if is_room[m] {
                contacts.push((room_of[m], hub_of[i]));
            }
        }
    }
    contacts.sort_unstable();
    contacts.dedup();
    let room_count = rooms.len();
    let hub_count = hub_list.len();
    // Hubs of each room and rooms of each hub, as compressed adjacency lists.
    let hubs_of = Csr::new(room_count, contacts.iter().map(|&(r, h)| (r, h)));
    let rooms_of = Csr::new(hub_count, contacts.iter().map(|&(r, h)| (h, r)));

    // The giant: the hub with the most rooms (the first on ties); NONE without hubs.
    let giant = (0..hub_count)
        .rev()
        .max_by_key(|&h| rooms_of.row(h).len())
        .unwrap_or(NONE);
    // in_giant[r]: room r touches the giant. in_near[h]: hub h is touched by a room of the
    // giant. in_far[r]: room r touches such a hub, i.e. lies within two hops of every room
    // of the giant (or is one). far_count: how many rooms in_far holds.
    let mut in_giant = vec![false; room_count];
    let mut in_near = vec![false; hub_count];
    let mut in_far = vec![false; room_count];
    let mut far_count = 0u32;
    let giant_rooms: &[u32] = if giant == NONE {
        &[]
    } else {
        rooms_of.row(giant)
    };
    for &b in giant_rooms {
        in_giant[b as usize] = true;
        for &h in hubs_of.row(b as usize) {
            if in_near[h as usize] {
                continue;
            }
            in_near[h as usize] = true;
            for &c in rooms_of.row(h as usize) {
                if !in_far[c as usize] {
                    in_far[c as usize] = true;
                    far_count += 1;
                }
            }
        }
    }
    let giant_size = giant_rooms.len() as u32;

    // Stamps, so nothing is cleared between rooms: seen_room[r] == a + 1 when room r was
    // already reached from room a, seen_hub[h] likewise.
    let mut seen_room = vec![0u32; room_count];
    let mut seen_hub = vec![0u32; hub_count];
    // The rooms reached from room a outside the giant's walk: direct ones first.
    let mut reached: Vec<u32> = Vec::new();
    for a in 0..room_count {
        let stamp = a as u32 + 1;
        seen_room[a] = stamp;
        reached.clear();
        let touches_giant = in_giant[a];
        // Direct connections through the small hubs of a.
        for &h in hubs_of.row(a) {
            let h = h as usize;
            seen_hub[h] = stamp;
            if h == giant {
                continue;
            }
            for &b in rooms_of.row(h) {
                if seen_room[b as usize] != stamp {
                    seen_room[b as usize] = stamp;
                    reached.push(b);
                }
            }
        }
        let direct = reached.len();
        rooms[a].direct_connections = if touches_giant {
            // All the giant's rooms but a, and the others not among them.
            giant_size - 1 + reached.iter().filter(|&&b| !in_giant[b as usize]).count() as u32
        } else {
            direct as u32
        };
        // Second hop: the hubs of the directly connected rooms. When a touches the giant, the
        // hubs near it (in_near) hold only rooms already counted in far_count.
        let mut giant_reached = touches_giant;
        for k in 0..direct {
            let b = reached[k] as usize;
            for &h in hubs_of.row(b) {
                let h = h as usize;
                if seen_hub[h] == stamp {
                    continue;
                }
                seen_hub[h] = stamp;
                if h == giant {
                    giant_reached = true;
                    continue;
                }
                if touches_giant && in_near[h] {
                    continue;
                }
                for &c in rooms_of.row(h) {
                    if seen_room[c as usize] != stamp {
                        seen_room[c as usize] = stamp;
                        reached.push(c);
                    }
                }
            }
        }
        let outside = |mask: &[bool]| reached.iter().filter(|&&c| !mask[c as usize]).count() as u32;
        rooms[a].connectedness = if touches_giant {
            // a is one of the far rooms.
            far_count - 1 + outside(&in_far)
        } else if giant_reached {
            // a is not one of the giant's rooms.
            giant_size + outside(&in_giant)
        } else {
            reached.len() as u32
        };
    }
}

/// Compressed sparse rows: for each of `n` keys, the values paired with it, in input order.
struct Csr {
    start: Vec<u32>,
    values: Vec<u32>,
}

impl Csr {
    /// From `(key, value)` pairs sorted by key.
    fn new(n: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> Csr {
        let mut start = vec![0u32; n + 1];
        for (k, _) in pairs.clone() {
            start[k as usize + 1] += 1;
        }
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut values = vec![0u32; start[n] as usize];
        for (k, v) in pairs {
            values[fill[k as usize] as usize] = v;
            fill[k as usize] += 1;
        }
        Csr { start, values }
    }

    fn row(&self, k: usize) -> &[u32] {
        &self.values[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

/// Constraints a world must meet (Cogmind's map requirements: reject a map that misses one
/// and generate another). Every field is optional; [`Requirements::default`] constrains nothing.
///
/// All bounds are whole numbers and inclusive, and every comparison is exact integer
/// arithmetic on [`Metrics`], so a world meets or misses a requirement the same way on every
/// platform: openness is compared as `open_tiles × 100` against `bound × width × height`,
/// never through the rounded `openness_percent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Requirements {
    /// Least openness, in whole percent: `open_tiles × 100 ≥ bound × tiles`.
    pub min_openness_percent: Option<u32>,
    /// Most openness, in whole percent: `open_tiles × 100 ≤ bound × tiles`.
    pub max_openness_percent: Option<u32>,
    /// Least avatar→exit distance, in tiles; an unreachable exit never meets it.
    pub min_exit_distance: Option<u32>,
    /// Least number of rooms.
    pub min_rooms: Option<u32>,
    /// Most rooms.
    pub max_rooms: Option<u32>,
    /// Most dead ends, in tiles.
    pub max_dead_ends: Option<u32>,
    /// Least number of rooms on the critical path.
    pub min_critical_path_rooms: Option<u32>,
}

/// One kind of requirement: a field of [`Requirements`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Requirement {
    /// [`Requirements::min_openness_percent`].
    MinOpenness,
    /// [`Requirements::max_openness_percent`].
    MaxOpenness,
    /// [`Requirements::min_exit_distance`].
    MinExitDistance,
    /// [`Requirements::min_rooms`].
    MinRooms,
    /// [`Requirements::max_rooms`].
    MaxRooms,
    /// [`Requirements::max_dead_ends`].
    MaxDeadEnds,
    /// [`Requirements::min_critical_path_rooms`].
    MinCriticalPathRooms,
}

impl Requirement {
    /// Every requirement, in the order [`Requirements::check`] reports them.
    pub const ALL: [Requirement; 7] = [
        Requirement::MinOpenness,
        Requirement::MaxOpenness,
        Requirement::MinExitDistance,
        Requirement::MinRooms,
        Requirement::MaxRooms,
        Requirement::MaxDeadEnds,
        Requirement::MinCriticalPathRooms,
    ];

    /// The name of its [`Requirements`] field, e.g. `"min_openness_percent"`.
    pub fn name(self) -> &'static str {
        match self {
            Requirement::MinOpenness => "min_openness_percent",
            Requirement::MaxOpenness => "max_openness_percent",
            Requirement::MinExitDistance => "min_exit_distance",
            Requirement::MinRooms => "min_rooms",
            Requirement::MaxRooms => "max_rooms",
            Requirement::MaxDeadEnds => "max_dead_ends",
            Requirement::MinCriticalPathRooms => "min_critical_path_rooms",
        }
    }

    /// Whether the bound is a minimum (else a maximum).
    pub fn is_minimum(self) -> bool {
        matches!(
            self,
            Requirement::MinOpenness
                | Requirement::MinExitDistance
                | Requirement::MinRooms
                | Requirement::MinCriticalPathRooms
        )
    }

    /// The metric it bounds, as words for messages: `"openness"`, `"exit distance"`, ….
    pub fn metric(self) -> &'static str {
        match self {
            Requirement::MinOpenness | Requirement::MaxOpenness => "openness",
            Requirement::MinExitDistance => "exit distance",
            Requirement::MinRooms | Requirement::MaxRooms => "room count",
            Requirement::MaxDeadEnds => "dead-end count",
            Requirement::MinCriticalPathRooms => "critical-path room count",
        }
    }

    /// The bound this requirement has in `requirements`, if any.
    pub fn bound_in(self, requirements: &Requirements) -> Option<u32> {
        match self {
            Requirement::MinOpenness => requirements.min_openness_percent,
            Requirement::MaxOpenness => requirements.max_openness_percent,
            Requirement::MinExitDistance => requirements.min_exit_distance,
            Requirement::MinRooms => requirements.min_rooms,
            Requirement::MaxRooms => requirements.max_rooms,
            Requirement::MaxDeadEnds => requirements.max_dead_ends,
            Requirement::MinCriticalPathRooms => requirements.min_critical_path_rooms,
        }
    }

    /// The value of its metric in `metrics`.
    pub fn reached(self, metrics: &Metrics) -> Reached {
        match self {
            Requirement::MinOpenness | Requirement::MaxOpenness => Reached::Openness {
                open: metrics.open_tiles,
                tiles: u64::from(metrics.width) * u64::from(metrics.height),
            },
            Requirement::MinExitDistance => metrics
                .exit_distance
                .map_or(Reached::Unreachable, Reached::Count),
            Requirement::MinRooms | Requirement::MaxRooms => Reached::Count(metrics.room_count),
            Requirement::MaxDeadEnds => Reached::Count(metrics.dead_ends),
            Requirement::MinCriticalPathRooms => Reached::Count(metrics.critical_path_rooms),
        }
    }
}

impl fmt::Display for Requirement {
    /// The field name, as [`Requirement::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The value a world reached for a requirement's metric, exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reached {
    /// A count: tiles for the exit distance, rooms, dead-end tiles.
    Count(u32),
    /// Openness as a fraction: `open` open tiles out of `tiles`.
    Openness {
        /// Open tiles.
        open: u32,
        /// All tiles, `width × height`.
        tiles: u64,
    },
    /// The exit cannot be reached (for the exit distance).
    Unreachable,
}

impl Reached {
    /// The value in the requirement's unit (percent for openness): `None` when unreachable.
    pub fn value(self) -> Option<f64> {
        match self {
            Reached::Count(n) => Some(f64::from(n)),
            Reached::Openness { tiles: 0, .. } => Some(0.0),
            Reached::Openness { open, tiles } => Some(f64::from(open) * 100.0 / tiles as f64),
            Reached::Unreachable => None,
        }
    }

    /// Whether the value is at least `bound` (openness: at least `bound` percent), exactly.
    fn at_least(self, bound: u32) -> bool {
        match self {
            Reached::Count(n) => n >= bound,
            Reached::Openness { open, tiles } => {
                u128::from(open) * 100 >= u128::from(bound) * u128::from(tiles)
            }
            Reached::Unreachable => false,
        }
    }

    /// Whether the value is at most `bound` (openness: at most `bound` percent), exactly.
    fn at_most(self, bound: u32) -> bool {
        match self {
            Reached::Count(n) => n <= bound,
            Reached::Openness { open, tiles } => {
                u128::from(open) * 100 <= u128::from(bound) * u128::from(tiles)
            }
            Reached::Unreachable => false,
        }
    }
}

/// A requirement a world did not meet: which one, its bound and the value reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unmet {
    /// The requirement.
    pub requirement: Requirement,
    /// Its bound, in its unit (whole percent for openness).
    pub bound: u32,
    /// What the world reached.
    pub reached: Reached,
}

impl Unmet {
    /// How far the value reached is from the bound, in the requirement's unit (percentage
    /// points for openness, tiles or rooms otherwise): always > 0 for an unmet requirement,
    /// `f64::INFINITY` for an unreachable exit. The smaller, the closer; a caller retrying
    /// generation keeps the smallest to report the closest value reached.
    pub fn gap(&self) -> f64 {
        self.reached
            .value()
            .map_or(f64::INFINITY, |v| (v - f64::from(self.bound)).abs())
    }
}

impl fmt::Display for Unmet {
    /// E.g. "openness 34.2% is below the minimum 40%", "room count 30 is above the maximum
    /// 25", "the exit is unreachable (minimum exit distance 40 tiles)". Openness is shown to
    /// a tenth of a percent, rounded away from the bound (down below a minimum, up above a
    /// maximum), so the value shown never seems to meet it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.requirement;
        let side = if r.is_minimum() {
            "below the minimum"
        } else {
            "above the maximum"
        };
        match self.reached {
            Reached::Unreachable => write!(
                f,
                "the exit is unreachable (minimum {} {} tiles)",
                r.metric(),
                self.bound
            ),
            Reached::Openness { open, tiles } => {
                let tiles = u128::from(tiles.max(1));
                let scaled = u128::from(open) * 1000;
                let tenths = if r.is_minimum() {
                    scaled / tiles
                } else {
                    scaled.div_ceil(tiles)
                };
                write!(
                    f,
                    "openness {}.{}% is {side} {}%",
                    tenths / 10,
                    tenths % 10,
                    self.bound
                )
            }
            Reached::Count(n) if r == Requirement::MinExitDistance => {
                write!(f, "exit distance {n} tiles is {side} {} tiles", self.bound)
            }
            Reached::Count(n) => write!(f, "{} {n} is {side} {}", r.metric(), self.bound),
        }
    }
}

impl Requirements {
    /// Whether this constrains nothing (the default).
    pub fn is_unconstrained(&self) -> bool {
        *self == Requirements::default()
    }

    /// Checks the requirements themselves: openness bounds at most 100, and no minimum above
    /// its maximum. Requirements that pass can still be impossible for a generator (e.g. 99%
    /// openness), which only trying finds out.
    ///
    /// # Errors
    /// A message naming the contradictory or out-of-range requirement.
    pub fn validate(&self) -> Result<(), String> {
        for (name, bound) in [
            ("minimum openness", self.min_openness_percent),
            ("maximum openness", self.max_openness_percent),
        ] {
            if let Some(b) = bound.filter(|&b| b > 100) {
                return Err(format!("{name} {b}% is above 100%"));
            }
        }
        if let (Some(lo), Some(hi)) = (self.min_openness_percent, self.max_openness_percent)
            && lo > hi
        {
            return Err(format!(
                "minimum openness {lo}% is above the maximum openness {hi}%"
            ));
        }
        if let (Some(lo), Some(hi)) = (self.min_rooms, self.max_rooms)
            && lo > hi
        {
            return Err(format!(
                "minimum rooms {lo} is above the maximum rooms {hi}"
            ));
        }
        Ok(())
    }

    /// Checks `metrics` against every requirement.
    ///
    /// # Errors
    /// Every requirement missed, in the order of [`Requirement::ALL`].
    pub fn check(&self, metrics: &Metrics) -> Result<(), Vec<Unmet>> {
        let unmet: Vec<Unmet> = Requirement::ALL
            .into_iter()
            .filter_map(|requirement| {
                let bound = requirement.bound_in(self)?;
                let reached = requirement.reached(metrics);
                let met = if requirement.is_minimum() {
                    reached.at_least(bound)
                } else {
                    reached.at_most(bound)
                };
                (!met).then_some(Unmet {
                    requirement,
                    bound,
                    reached,
                })
            })
            .collect();
        if unmet.is_empty() { Ok(()) } else { Err(unmet) }
    }
}
