//! Step 4: loops between rooms that face each other and are far apart by path.

use std::collections::VecDeque;

use rand::Rng;

use super::layout::{Layout, door_zone};
use super::place::Placed;
use super::{LOOP_MIN_HOPS, LootQuestSettings, SIDES, between};
use crate::generator::RoomRect;
use byog_tile_engine::search::UNREACHED;

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
pub(super) fn add_loops<R: Rng + ?Sized>(
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
