//! Step 5: walls, the avatar and the exit.

use rand::Rng;

use super::Carver;
use byog_tile_engine::random_utils;
use byog_tile_engine::search::{self, Levels, VISITED};
use byog_tile_engine::{Pos, Tile, World};

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
        let open = &self.open;
        let mut world = World::from_tiles(self.width, self.height, walls_and_floors(open, w))
            .unwrap_or_else(|| World::new(self.width, self.height));

        // `floors >= 9`: the rooms survive dead-end removal and there is at least one.
        let floors = open.iter().map(|&o| u64::from(o)).sum::<u64>();
        let k = random_utils::below(rng, floors.max(1));
        let avatar_index = nth_open(open, k as usize);
        world.tiles_mut()[avatar_index] = Tile::Player;

        // The cells are no longer needed (dropping them first lowers the peak memory).
        self.cells = Vec::new();
        self.cell_regions = Vec::new();
        let visits = search::levels_in_mask(&mut self.open, w, avatar_index, floors as usize);
        let exit_index = farthest_wall(&world, &self.open, &visits);
        world.tiles_mut()[exit_index] = Tile::LockedDoor;
        (world, world_pos(w, avatar_index), world_pos(w, exit_index))
    }
}

/// The tiles from the open mask: open ground is FLOOR, rock with open ground among its 8
/// neighbours is WALL, other rock NOTHING. Computed row by row as a 3 × 3 OR of the mask (a
/// column pass into a one-row buffer, then a row pass), straight-line code the compiler
/// vectorises.
pub(super) fn walls_and_floors(open: &[u8], w: usize) -> Vec<Tile> {
    let h = open.len() / w;
    let mut tiles = Vec::with_capacity(open.len());
    // `near[x + 1]` is the OR of the mask at column x over the row and the rows above and
    // below; the zero at each end keeps the row pass free of edge cases.
    let mut near = vec![0u8; w + 2];
    for y in 0..h {
        let row = &open[y * w..(y + 1) * w];
        let below = if y > 0 {
            &open[(y - 1) * w..y * w]
        } else {
            row
        };
        let above = if y + 1 < h {
            &open[(y + 1) * w..(y + 2) * w]
        } else {
            row
        };
        for (n, ((&a, &b), &r)) in near[1..=w].iter_mut().zip(above.iter().zip(below).zip(row)) {
            *n = a | b | r;
        }
        tiles.extend(row.iter().zip(near.windows(3)).map(|(&o, n)| {
            // Branch-free: 2 for open, else 1 if open ground is near, else 0; these are the
            // ids of FLOOR, WALL and NOTHING.
            match (o << 1) | ((n[0] | n[1] | n[2]) & (o ^ 1)) {
                0 => Tile::Nothing,
                1 => Tile::Wall,
                _ => Tile::Floor,
            }
        }));
    }
    tiles
}

/// The index of the `k`-th (0-based) open tile in the mask, or 0 if there are not that many.
/// Counts 64 tiles at a time (a sum the compiler vectorises) and looks at single tiles only in
/// the block where the `k`-th is.
fn nth_open(open: &[u8], mut k: usize) -> usize {
    for (block, tiles) in open.chunks(64).enumerate() {
        let count = tiles.iter().map(|&o| usize::from(o)).sum::<usize>();
        if k < count {
            let within = tiles
                .iter()
                .scan(0, |seen, &o| {
                    *seen += usize::from(o);
                    Some(*seen)
                })
                .position(|seen| seen > k)
                .unwrap_or(0);
            return block * 64 + within;
        }
        k -= count;
    }
    0
}

fn world_pos(width: usize, i: usize) -> Pos {
    Pos::new((i % width) as i32, (i / width) as i32)
}

/// The exit's tile: among wall tiles with exactly one reached cardinal neighbour (so the door
/// is set into an outer wall, not between two open areas), the one whose neighbour is farthest
/// from the avatar; ties go to the first in row-major order. If no wall qualifies, the wall
/// next to the farthest reached ground does (first in row-major order).
///
/// Walks the BFS levels back from the farthest, and usually stops within the first.
fn farthest_wall(world: &World, marks: &[u8], visits: &Levels) -> usize {
    let tiles = world.tiles();
    let w = world.width();
    let nearest_wall = |single: bool| {
        visits.farthest_first().find_map(|level| {
            level
                .iter()
                .flat_map(|&t| {
                    let t = t as usize;
                    [t + w, t + 1, t - w, t - 1]
                })
                .filter(|&n| {
                    tiles[n] == Tile::Wall && (!single || reached_neighbours(world, marks, n) == 1)
                })
                .min()
        })
    };
    nearest_wall(true)
        .or_else(|| nearest_wall(false))
        .unwrap_or(0)
}

/// How many cardinal neighbours of tile `i` the BFS reached.
fn reached_neighbours(world: &World, marks: &[u8], i: usize) -> u32 {
    let (w, h) = (world.width(), world.height());
    let (x, y) = (i % w, i / w);
    [
        (y + 1 < h).then(|| i + w),
        (x + 1 < w).then(|| i + 1),
        (y > 0).then(|| i - w),
        (x > 0).then(|| i - 1),
    ]
    .into_iter()
    .flatten()
    .map(|n| u32::from(marks[n] == VISITED))
    .sum()
}
