//! Step 5: walls, the avatar and the exit.

use rand::Rng;

use super::Carver;
use crate::tile_engine::random_utils;
use crate::tile_engine::{Pos, Tile, World};

impl Carver {
    /// Turns the regions into tiles and places the avatar and the exit:
    ///
    /// - open tiles become FLOOR; rock with open ground among its 8 neighbours becomes WALL;
    ///   all other rock (and the spare row/column of an even size) is NOTHING;
    /// - the avatar stands on a uniformly random floor tile (one draw);
    /// - the exit is the LOCKED_DOOR set into the wall tile whose cardinal floor neighbour is
    ///   farthest from the avatar by BFS (ties: lowest row, then lowest column).
    ///
    /// Returns the world, the avatar's position and the exit's position.
    pub fn finish<R: Rng + ?Sized>(mut self, rng: &mut R) -> (World, Pos, Pos) {
        let w = self.width;
        self.open_mask();
        let open = &self.open;
        let mut world = World::from_tiles(self.width, self.height, walls_and_floors(open, w))
            .unwrap_or_else(|| World::new(self.width, self.height));

        // `floors >= 9`: the rooms survive dead-end removal and there is at least one.
        let floors = open.iter().map(|&o| u64::from(o)).sum::<u64>();
        let k = random_utils::below(rng, floors.max(1));
        let avatar_index = open
            .iter()
            .enumerate()
            .filter(|(_, o)| **o == 1)
            .nth(k as usize)
            .map_or(0, |(i, _)| i);
        world.tiles_mut()[avatar_index] = Tile::Player;

        // The region map is no longer needed: reuse it as the BFS distance map.
        let dist = &mut self.regions;
        dist.fill(0);
        let order = bfs(&mut self.open, w, avatar_index, dist);
        let exit_index = farthest_wall(&world, dist, &order);
        world.tiles_mut()[exit_index] = Tile::LockedDoor;
        (world, world_pos(w, avatar_index), world_pos(w, exit_index))
    }
}

/// The tiles from the open mask: open ground is FLOOR, rock with open ground among its 8
/// neighbours is WALL, other rock NOTHING. Computed as a 3 × 3 OR of the mask (a row pass,
/// then a column pass), straight-line code the compiler vectorises.
fn walls_and_floors(open: &[u8], w: usize) -> Vec<Tile> {
    let n = open.len();
    // `near[i + w]` is the OR of open[i - 1..=i + 1]; one zero row above and below keeps the
    // column pass free of edge cases. Open tiles never touch the grid's edge, so the row pass
    // wrapping from one row's end to the next row's start only ever ORs zeros.
    let mut near = vec![0u8; n + 2 * w];
    if n >= 3 {
        for (h, win) in near[w + 1..w + n - 1].iter_mut().zip(open.windows(3)) {
            *h = win[0] | win[1] | win[2];
        }
    }
    open.iter()
        .zip(near.iter().zip(&near[w..]).zip(&near[2 * w..]))
        .map(|(&o, ((&below, &mid), &above))| {
            // Branch-free: 2 for open, else 1 if open ground is near, else 0; these are the
            // ids of FLOOR, WALL and NOTHING.
            match (o << 1) | ((below | mid | above) & (o ^ 1)) {
                0 => Tile::Nothing,
                1 => Tile::Wall,
                _ => Tile::Floor,
            }
        })
        .collect()
}

fn world_pos(width: usize, i: usize) -> Pos {
    Pos::new((i % width) as i32, (i / width) as i32)
}

/// Breadth-first search over open tiles (the mask, the avatar's tile included) from `start`,
/// 4-neighbourhood. `dist[i]` becomes 1 + the number of steps to `i`, and stays 0 where
/// unreachable (`dist` must be all 0 on entry). The search consumes the mask (a visited tile
/// is cleared, so one load tells whether a neighbour is new). Returns the tiles in the order
/// visited, so by non-decreasing distance. Open tiles never touch the grid's edge, so the
/// neighbours of an open tile are always inside the grid.
pub(super) fn bfs(open: &mut [u8], w: usize, start: usize, dist: &mut [u32]) -> Vec<u32> {
    // Every open tile is queued at most once, and each neighbour is written at `tail` before
    // it is known to be new, so the queue needs one spare slot past the open tiles.
    let capacity = open.iter().map(|&o| usize::from(o)).sum::<usize>() + 1;
    let mut queue = vec![0u32; capacity.max(2)];
    dist[start] = 1;
    open[start] = 0;
    queue[0] = start as u32;
    let (mut head, mut tail) = (0, 1);
    // Branch-free: in a maze whether a neighbour is new is a coin toss the branch predictor
    // loses, so each neighbour is written to the queue's end unconditionally and the end only
    // moves on when the neighbour was open; `open` is 0 or 1, so `d & mask` is `d` or 0 and
    // ORing it leaves a visited tile's (or rock's) distance as it was.
    while head < tail {
        let i = queue[head] as usize;
        head += 1;
        let d = dist[i] + 1;
        for n in [i + w, i + 1, i - w, i - 1] {
            let o = open[n];
            open[n] = 0;
            dist[n] |= d & 0u32.wrapping_sub(u32::from(o));
            queue[tail] = n as u32;
            tail += usize::from(o);
        }
    }
    queue.truncate(tail);
    queue
}

/// The exit's tile: among wall tiles with exactly one reachable cardinal neighbour (so the door
/// is set into an outer wall, not between two open areas), the one whose neighbour is farthest
/// from the avatar; ties go to the first in row-major order. If no wall qualifies, any wall
/// with a reachable neighbour does.
///
/// `order` is the BFS visiting order, so the search walks back from the farthest distance
/// level and usually stops within the first level.
fn farthest_wall(world: &World, dist: &[u32], order: &[u32]) -> usize {
    let w = world.width();
    let tiles = world.tiles();
    let mut end = order.len();
    while end > 0 {
        let level = dist[order[end - 1] as usize];
        let mut start = end;
        while start > 0 && dist[order[start - 1] as usize] == level {
            start -= 1;
        }
        let mut best: Option<usize> = None;
        for &t in &order[start..end] {
            let t = t as usize;
            for n in [t + w, t + 1, t - w, t - 1] {
                if tiles[n] == Tile::Wall
                    && best.is_none_or(|b| n < b)
                    && reachable_neighbours(world, dist, n).0 == 1
                {
                    best = Some(n);
                }
            }
        }
        if let Some(b) = best {
            return b;
        }
        end = start;
    }
    // No wall with a single reachable neighbour (not seen in practice): any wall next to
    // reachable ground, farthest first.
    let mut best: Option<(u32, usize)> = None;
    for (i, t) in tiles.iter().enumerate() {
        if *t == Tile::Wall {
            let (count, far) = reachable_neighbours(world, dist, i);
            if count > 0 && best.is_none_or(|(d, _)| far > d) {
                best = Some((far, i));
            }
        }
    }
    best.map_or(0, |(_, i)| i)
}

/// How many cardinal neighbours of tile `i` were reached by the BFS, and the farthest of their
/// distances.
fn reachable_neighbours(world: &World, dist: &[u32], i: usize) -> (u32, u32) {
    let (w, h) = (world.width(), world.height());
    let (x, y) = (i % w, i / w);
    let neighbours = [
        (y + 1 < h).then(|| i + w),
        (x + 1 < w).then(|| i + 1),
        (y > 0).then(|| i - w),
        (x > 0).then(|| i - 1),
    ];
    let mut count = 0;
    let mut far = 0;
    for n in neighbours.into_iter().flatten() {
        if dist[n] != 0 {
            count += 1;
            far = far.max(dist[n]);
        }
    }
    (count, far)
}
