//! Step 2: fill the rock between the rooms with growing-tree mazes (Nystrom 2014, Hauberk
//! `_growMaze`; the growing-tree algorithm as described by Jamis Buck).

use rand::{Rng, RngExt};

use super::Carver;
use crate::progress::{self, Stage};

/// For a 4-bit set of directions (bit `d` for direction `d`: north (+y), east, south, west,
/// Hauberk's order) and `k` below its size, the `k`-th direction in the set.
const NTH_DIRECTION: [[u8; 4]; 16] = {
    let mut table = [[0u8; 4]; 16];
    let mut set = 0;
    while set < 16 {
        let (mut k, mut dir) = (0, 0);
        while dir < 4 {
            if set >> dir & 1 == 1 {
                table[set][k] = dir as u8;
                k += 1;
            }
            dir += 1;
        }
        set += 1;
    }
    table
};

impl Carver {
    /// Starts a maze at every odd `(x, y)` that is still rock, scanning rows bottom to top
    /// and columns left to right. Each maze is its own region.
    pub fn grow_mazes<R: Rng + ?Sized>(&mut self, rng: &mut R, winding_percent: u32) {
        let (columns, rows) = ((self.area_width - 1) / 2, (self.area_height - 1) / 2);
        let mut stack = Vec::with_capacity(256);
        let mut ticker = progress::ticker(Stage::Mazes, rows);
        for cy in 0..rows {
            if let Some(t) = &mut ticker {
                t.tick(cy);
            }
            for cx in 0..columns {
                let cell = (cy + 1) * self.cell_stride + cx + 1;
                if self.cells[cell] == 0 {
                    let tile = self.idx(2 * cx + 1, 2 * cy + 1);
                    self.grow_maze(rng, (cell, tile), winding_percent, &mut stack);
                }
            }
        }
    }

    /// The growing-tree maze from `start` (its cell and tile index): always extend the newest
    /// cell; where it could go on straight, it turns with `winding_percent`% chance (Hauberk:
    /// it keeps the last direction when `rng.range(100) > windingPercent`); a cell with no
    /// rock cell two steps away is dropped. `stack` is scratch space (empty on entry and exit).
    fn grow_maze<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        start: (usize, usize),
        winding_percent: u32,
        stack: &mut Vec<(usize, usize)>,
    ) {
        let region = self.start_region();
        let w = self.width;
        // One step north, east, south, west: in cells, and in tiles.
        let stride = self.cell_stride as isize;
        let cell_step = [stride, 1, -stride, -1];
        let tile_step = [w as isize, 1, -(w as isize), -1];
        self.cells[start.0] = 1;
        self.cell_regions[start.0] = region;
        self.open[start.1] = 1;
        stack.push(start);
        let mut last_dir: Option<usize> = None;
        while let Some(&(cell, tile)) = stack.last() {
            let rock =
                |dir: usize| usize::from(self.cells[cell.wrapping_add_signed(cell_step[dir])] == 0);
            let unmade = rock(0) | rock(1) << 1 | rock(2) << 2 | rock(3) << 3;
            if unmade == 0 {
                stack.pop();
                last_dir = None;
                continue;
            }
            let dir = match last_dir {
                Some(last)
                    if unmade >> last & 1 == 1 && rng.random_range(0..100u32) > winding_percent =>
                {
                    last
                }
                _ => {
                    let k = rng.random_range(0..unmade.count_ones());
                    usize::from(NTH_DIRECTION[unmade][k as usize])
                }
            };
            let next_cell = cell.wrapping_add_signed(cell_step[dir]);
            let between = tile.wrapping_add_signed(tile_step[dir]);
            let next_tile = between.wrapping_add_signed(tile_step[dir]);
            self.cells[next_cell] = 1;
            self.cell_regions[next_cell] = region;
            self.open[between] = 1;
            self.open[next_tile] = 1;
            stack.push((next_cell, next_tile));
            last_dir = Some(dir);
        }
    }
}
