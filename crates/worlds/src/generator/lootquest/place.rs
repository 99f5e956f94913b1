//! Step 3: rooms placed next to the rooms they hang on, joined by straight corridors.

use rand::Rng;

use super::graph::RoomGraph;
use super::layout::{Layout, door_zone};
use super::{LootQuestSettings, OTHER_PARENTS, SIDES, TRIES_PER_PIECE, Work, below, between};
use crate::generator::RoomRect;

/// The placed rooms: rectangles (graph order, dropped rooms left out), their used sides, how
/// far each is from the critical path, and the corridors joining them.
#[derive(Debug, Clone)]
pub(super) struct Placed {
    pub(super) rooms: Vec<RoomRect>,
    pub(super) sides: Vec<[bool; SIDES]>,
    pub(super) depth: Vec<u32>,
    /// Corridors as the two rooms they join (indices into `rooms`).
    pub(super) edges: Vec<(usize, usize)>,
    pub(super) critical_path: usize,
}

/// What [`place_rooms`] made: the rooms when the whole main path was placed, and how many
/// main-path rooms were.
impl Placed {
    /// The sides of room `q` still free for a corridor (the exit room keeps one for the exit
    /// door).
    pub(super) fn free_sides(&self, q: usize) -> usize {
        let free = self.sides[q].iter().filter(|&&u| !u).count();
        if q + 1 == self.critical_path {
            free.saturating_sub(1)
        } else {
            free
        }
    }
}

pub(super) struct Placement {
    pub(super) rooms: Option<Placed>,
    pub(super) main_placed: u32,
}

/// Step 3: places room 0 at a random spot, then every room of the graph next to the room it
/// hangs on ([`place_next_to`]): the main path first, in order, then the branch rooms. A
/// branch room whose own room has no spot for it (or was dropped) tries up to
/// [`OTHER_PARENTS`] other placed rooms that are less than `max_dead_end` rooms from the
/// critical path, from a random one on; then it is dropped.
pub(super) fn place_rooms<R: Rng + ?Sized>(
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
pub(super) fn place_next_to<R: Rng + ?Sized>(
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
