//! Rooms and the room graph, found in the tiles alone: which open tiles are room tiles (in
//! a 3 × 3 block of open tiles), the rooms as their connected components, and how rooms
//! connect through corridors (Cogmind's direct connections and connectedness). See the
//! [metrics module](super) for the vocabulary.

use super::RoomMetrics;
use byog_tile_engine::World;
use byog_tile_engine::search::{Grid, label_components};

/// Marks "no hub".
const NONE: usize = usize::MAX;

/// Whether each tile is a room tile: open and inside some 3 × 3 block of open tiles.
pub(super) fn room_mask(grid: Grid, open: &[bool]) -> Vec<bool> {
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

/// The room id of every tile, row-major (bottom row first): the tile's room, or [`NO_ROOM`](super::NO_ROOM)
/// for a tile that is not a room tile. Same numbering as [`Metrics::rooms`](super::Metrics::rooms).
pub fn room_ids(world: &World) -> Vec<u32> {
    let (grid, open) = Grid::walkable_mask(world);
    grid.unpad(&room_labels(grid, &open))
}

/// [`room_ids`] on a world's padded walkable mask ([`Grid::walkable_mask`]) already made: the
/// room id of every padded cell, [`NO_ROOM`](super::NO_ROOM) off the rooms (the border
/// included). Saves the mask and the copy without the border (a run's floor asks it).
pub fn room_labels(grid: Grid, open: &[bool]) -> Vec<u32> {
    label_components(grid, &room_mask(grid, open)).0
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
pub(super) fn connect_rooms(
    grid: Grid,
    open: &[bool],
    is_room: &[bool],
    room_of: &[u32],
    rooms: &mut [RoomMetrics],
) {
    let corridor: Vec<bool> = open.iter().zip(is_room).map(|(&o, &r)| o && !r).collect();
    let (hub_of, hub_list) = label_components(grid, &corridor);
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

/// The room graph's paths between the avatar and the exit, read from the tiles: see
/// [`room_paths`](super::room_paths).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomPaths {
    /// Rooms in the world.
    pub rooms: u32,
    /// The critical path in rooms: the fewest rooms on any way from the avatar into the exit,
    /// the avatar's room and the exit's included; 0 when the exit is unreachable (or no room
    /// lies on the way).
    pub critical_path: u32,
    /// The longest dead end in rooms: the most rooms a room lies away from the critical path
    /// ([`RoomPaths::dead_end`]'s largest value); 0 without a critical path.
    pub max_dead_end: u32,
    /// Each room's distance from the critical path, in rooms (by room id): 0 for a room on
    /// a way of the critical path's length, `k` for a room whose nearest way there passes
    /// `k − 1` other rooms; `None` for a room that cannot reach it.
    pub dead_end: Vec<Option<u32>>,
}

/// Breadth-first search over the bipartite graph of rooms (nodes `0..rooms`) and corridor
/// components (nodes `rooms..`) where entering a room costs 1 and a corridor 0 (a 0-1 BFS
/// with a deque): `sources` start with their own cost (`seed_cost`: whether a source room
/// counts itself).
fn zero_one_bfs(
    rooms: usize,
    hubs_of: &Csr,
    rooms_of: &Csr,
    sources: &[usize],
    seed_cost: bool,
) -> Vec<u32> {
    let n = rooms + rooms_of.start.len() - 1;
    let cost = |v: usize| u32::from(v < rooms);
    let mut dist = vec![u32::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    for &s in sources {
        let d = if seed_cost { cost(s) } else { 0 };
        if d < dist[s] {
            dist[s] = d;
            if d == 0 {
                queue.push_front(s);
            } else {
                queue.push_back(s);
            }
        }
    }
    while let Some(v) = queue.pop_front() {
        let next: &[u32] = if v < rooms {
            hubs_of.row(v)
        } else {
            rooms_of.row(v - rooms)
        };
        for &m in next {
            let u = if v < rooms {
                rooms + m as usize
            } else {
                m as usize
            };
            let d = dist[v] + cost(u);
            if d < dist[u] {
                dist[u] = d;
                if cost(u) == 0 {
                    queue.push_front(u);
                } else {
                    queue.push_back(u);
                }
            }
        }
    }
    dist
}

/// [`RoomPaths`] of the padded walkable mask `open` with its room tiles `is_room` (labelled
/// `room_of`, `room_count` rooms), the avatar at padded cell `avatar` and the exit at `exit`.
pub(super) fn room_paths(
    grid: Grid,
    open: &[bool],
    is_room: &[bool],
    room_of: &[u32],
    room_count: usize,
    avatar: Option<usize>,
    exit: Option<usize>,
) -> RoomPaths {
    room_paths_marked(grid, open, is_room, room_of, room_count, avatar, exit, None)
}

/// [`room_paths`], also marking in `marks` (padded cells) the tiles of the rooms and
/// corridors on a way of the critical path's length.
#[allow(clippy::too_many_arguments)]
pub(super) fn room_paths_marked(
    grid: Grid,
    open: &[bool],
    is_room: &[bool],
    room_of: &[u32],
    room_count: usize,
    avatar: Option<usize>,
    exit: Option<usize>,
    marks: Option<&mut Vec<bool>>,
) -> RoomPaths {
    let corridor: Vec<bool> = open.iter().zip(is_room).map(|(&o, &r)| o && !r).collect();
    let (hub_of, hub_list) = label_components(grid, &corridor);
    let mut contacts: Vec<(u32, u32)> = Vec::new();
    for i in 0..grid.len() {
        if corridor[i] {
            for m in grid.neighbours(i) {
                if is_room[m] {
                    contacts.push((room_of[m], hub_of[i]));
                }
            }
        }
    }
    contacts.sort_unstable();
    contacts.dedup();
    let hubs_of = Csr::new(room_count, contacts.iter().map(|&(r, h)| (r, h)));
    let mut by_hub = contacts.clone();
    by_hub.sort_unstable_by_key(|&(r, h)| (h, r));
    let rooms_of = Csr::new(hub_list.len(), by_hub.iter().map(|&(r, h)| (h, r)));
    let node = |i: usize| {
        if is_room[i] {
            Some(room_of[i] as usize)
        } else if open[i] {
            Some(room_count + hub_of[i] as usize)
        } else {
            None
        }
    };
    let none = RoomPaths {
        rooms: room_count as u32,
        critical_path: 0,
        max_dead_end: 0,
        dead_end: vec![None; room_count],
    };
    let (Some(start), Some(exit)) = (avatar.and_then(node), exit) else {
        return none;
    };
    let mut ends: Vec<usize> = grid
        .neighbours(exit)
        .iter()
        .filter_map(|&i| node(i))
        .collect();
    ends.sort_unstable();
    ends.dedup();
    let from_start = zero_one_bfs(room_count, &hubs_of, &rooms_of, &[start], true);
    let Some(critical_path) = ends.iter().map(|&e| from_start[e]).min() else {
        return none;
    };
    if critical_path == u32::MAX {
        return none;
    }
    let from_exit = zero_one_bfs(room_count, &hubs_of, &rooms_of, &ends, true);
    let on_path: Vec<usize> = (0..from_start.len())
        .filter(|&v| {
            let (a, b) = (from_start[v], from_exit[v]);
            a != u32::MAX && b != u32::MAX && a + b - u32::from(v < room_count) == critical_path
        })
        .collect();
    if let Some(marks) = marks {
        let mut critical = vec![false; from_start.len()];
        for &v in &on_path {
            critical[v] = true;
        }
        marks.clear();
        marks.extend((0..grid.len()).map(|i| node(i).is_some_and(|v| critical[v])));
    }
    let away = zero_one_bfs(room_count, &hubs_of, &rooms_of, &on_path, false);
    let dead_end: Vec<Option<u32>> = away[..room_count]
        .iter()
        .map(|&d| (d != u32::MAX).then_some(d))
        .collect();
    RoomPaths {
        rooms: room_count as u32,
        critical_path,
        max_dead_end: dead_end.iter().flatten().copied().max().unwrap_or(0),
        dead_end,
    }
}
