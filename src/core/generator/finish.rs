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
        let mut world = World::new(self.width, self.height);
        let w = self.width;
        let mut floors = 0u64;
        {
            let tiles = world.tiles_mut();
            for y in 1..self.area_height - 1 {
                for x in 1..self.area_width - 1 {
                    let i = y * w + x;
                    if !self.is_open(i) {
                        continue;
                    }
                    floors += 1;
                    tiles[i] = Tile::Floor;
                    for n in [
                        i + w - 1,
                        i + w,
                        i + w + 1,
                        i - 1,
                        i + 1,
                        i - w - 1,
                        i - w,
                        i - w + 1,
                    ] {
                        if tiles[n] == Tile::Nothing {
                            tiles[n] = Tile::Wall;
                        }
                    }
                }
            }
        }
        // `floors >= 9`: the rooms survive dead-end removal and there is at least one.
        let k = random_utils::below(rng, floors.max(1));
        let avatar_index = world
            .tiles()
            .iter()
            .enumerate()
            .filter(|(_, t)| **t == Tile::Floor)
            .nth(k as usize)
            .map_or(0, |(i, _)| i);
        world.tiles_mut()[avatar_index] = Tile::Player;

        // The region map is no longer needed: reuse it as the BFS distance map.
        let dist = &mut self.regions;
        dist.fill(u32::MAX);
        bfs(&world, avatar_index, dist);
        let exit_index = farthest_wall(&world, dist);
        world.tiles_mut()[exit_index] = Tile::LockedDoor;
        (world, world_pos(w, avatar_index), world_pos(w, exit_index))
    }
}

fn world_pos(width: usize, i: usize) -> Pos {
    Pos::new((i % width) as i32, (i / width) as i32)
}

/// Breadth-first search over walkable tiles (floor and avatar) from `start`, 4-neighbourhood;
/// `dist[i]` becomes the number of steps to `i` (`u32::MAX` where unreachable; `dist` must be
/// all `u32::MAX` on entry). Walkable tiles never touch the grid's edge, so the neighbours of
/// a walkable tile are always inside the grid.
pub(super) fn bfs(world: &World, start: usize, dist: &mut [u32]) {
    let w = world.width();
    let tiles = world.tiles();
    let mut queue = Vec::with_capacity(tiles.len() / 4);
    dist[start] = 0;
    queue.push(start as u32);
    let mut head = 0;
    while head < queue.len() {
        let i = queue[head] as usize;
        head += 1;
        let d = dist[i] + 1;
        for n in [i + w, i + 1, i - w, i - 1] {
            if dist[n] == u32::MAX && matches!(tiles[n], Tile::Floor | Tile::Player) {
                dist[n] = d;
                queue.push(n as u32);
            }
        }
    }
}

/// The exit's tile: among wall tiles with exactly one reachable cardinal neighbour (so the door
/// is set into an outer wall, not between two open areas), the one whose neighbour is farthest
/// from the avatar; ties go to the first in row-major order. If no wall qualifies, any wall
/// with a reachable neighbour does.
fn farthest_wall(world: &World, dist: &[u32]) -> usize {
    let w = world.width();
    let h = world.height();
    let mut best_single: Option<(u32, usize)> = None;
    let mut best_any: Option<(u32, usize)> = None;
    for (i, t) in world.tiles().iter().enumerate() {
        if *t != Tile::Wall {
            continue;
        }
        let (x, y) = (i % w, i / w);
        let neighbours = [
            (y + 1 < h).then(|| i + w),
            (x + 1 < w).then(|| i + 1),
            (y > 0).then(|| i - w),
            (x > 0).then(|| i - 1),
        ];
        let mut reachable = 0;
        let mut far = 0;
        for n in neighbours.into_iter().flatten() {
            if dist[n] != u32::MAX {
                reachable += 1;
                far = far.max(dist[n]);
            }
        }
        if reachable == 0 {
            continue;
        }
        let better = |best: Option<(u32, usize)>| best.is_none_or(|(d, _)| far > d);
        if better(best_any) {
            best_any = Some((far, i));
        }
        if reachable == 1 && better(best_single) {
            best_single = Some((far, i));
        }
    }
    best_single.or(best_any).map_or(0, |(_, i)| i)
}
