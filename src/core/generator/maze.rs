//! Step 2: fill the rock between the rooms with growing-tree mazes (Nystrom 2014, Hauberk
//! `_growMaze`; the growing-tree algorithm as described by Jamis Buck).

use rand::{Rng, RngExt};

use super::{Carver, ROCK};

/// Cardinal directions as `(dx, dy)`, in Hauberk's order: north (+y), east, south, west.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl Carver {
    /// Starts a maze at every odd `(x, y)` that is still rock, scanning rows bottom to top
    /// and columns left to right. Each maze is its own region.
    pub fn grow_mazes<R: Rng + ?Sized>(&mut self, rng: &mut R, winding_percent: u32) {
        let mut cells = Vec::new();
        for y in (1..self.area_height - 1).step_by(2) {
            for x in (1..self.area_width - 1).step_by(2) {
                if self.regions[self.idx(x, y)] == ROCK {
                    self.grow_maze(rng, (x, y), winding_percent, &mut cells);
                }
            }
        }
    }

    /// The growing-tree maze from cell `start`: always extend the newest cell; where it could
    /// go on straight, it turns with `winding_percent`% chance (Hauberk: it keeps the last
    /// direction when `rng.range(100) > windingPercent`); a cell with no rock cell two steps
    /// away is dropped. `cells` is scratch space (empty on entry and exit).
    fn grow_maze<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        start: (usize, usize),
        winding_percent: u32,
        cells: &mut Vec<(usize, usize)>,
    ) {
        let region = self.start_region();
        let i = self.idx(start.0, start.1);
        self.regions[i] = region;
        cells.push(start);
        let mut last_dir: Option<usize> = None;
        while let Some(&(x, y)) = cells.last() {
            let cell = self.idx(x, y);
            let mut unmade = [0usize; 4];
            let mut n = 0;
            for dir in 0..4 {
                if self.can_carve(x, y, cell, dir) {
                    unmade[n] = dir;
                    n += 1;
                }
            }
            if n == 0 {
                cells.pop();
                last_dir = None;
                continue;
            }
            let dir = match last_dir {
                Some(last)
                    if unmade[..n].contains(&last)
                        && rng.random_range(0..100u32) > winding_percent =>
                {
                    last
                }
                _ => unmade[rng.random_range(0..n as u32) as usize],
            };
            let step = self.step(dir);
            let between = cell.wrapping_add_signed(step);
            self.regions[between] = region;
            self.regions[between.wrapping_add_signed(step)] = region;
            let (dx, dy) = DIRECTIONS[dir];
            cells.push((x.wrapping_add_signed(2 * dx), y.wrapping_add_signed(2 * dy)));
            last_dir = Some(dir);
        }
    }

    /// The index offset of one step in direction `dir`.
    #[inline]
    fn step(&self, dir: usize) -> isize {
        let (dx, dy) = DIRECTIONS[dir];
        dy * self.width as isize + dx
    }

    /// Hauberk's `_canCarve` for the cell at `(x, y)` (index `cell`): the cell two steps away
    /// is rock and three steps away is still inside the area (so mazes never touch the area's
    /// border).
    #[inline]
    fn can_carve(&self, x: usize, y: usize, cell: usize, dir: usize) -> bool {
        let inside = match dir {
            0 => y + 3 < self.area_height,
            1 => x + 3 < self.area_width,
            2 => y >= 3,
            _ => x >= 3,
        };
        inside && self.regions[cell.wrapping_add_signed(2 * self.step(dir))] == ROCK
    }
}
