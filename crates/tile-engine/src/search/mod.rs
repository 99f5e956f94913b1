//! The one search module: breadth-first distances, connected components, shortest paths and
//! their relatives over a [`Map`]'s walkable tiles, 4-neighbourhood, neighbours always
//! visited in [`Direction::ALL`] order (up, right, down, left) so that ties break the same
//! way in generation, metrics, the rules, travel, the monsters, the solver and the tests.
//!
//! Two layers:
//! - by position: [`distances`], [`DistanceMap`] (`get`, `path_to`, `farthest`), [`path`]
//!   and [`components`], for the rules, tools and tests;
//! - by index on a padded [`Grid`] (the map surrounded by a closed border one tile wide, so
//!   no search needs a bounds check), for the callers that search many times a world or a
//!   step: [`bfs`] (distances from many sources over an open mask), [`nearest_where`] (a
//!   breadth-first search whose steps obey a rule, stopped at the first goal: travel),
//!   [`Layered`] (shortest ways crossing at most `k` costly cells, a run's armed traps, for
//!   every `k` at once: travel's `>` and the solver's escape), [`relax`] (a Dijkstra map
//!   rescanned: the monsters' safety map), [`label_components`], [`path_into`] and
//!   [`path_into_where`] (the walk back along a search's distances), and [`Blocks`], the
//!   articulation points kept up to date while cells are closed one by one (a run's traps).
//!
//! `levels_in_mask` is the generator's tuned variant (a byte mask, level by level,
//! branch-free): `finish` uses it to place the exit.
//!
//! Every search is linear in the number of tiles (the layered one in tiles × layers; the
//! relaxation adds the sort of its sources); distances are in single steps (tiles). One
//! module a family: `bfs` (breadth-first searches on the grid and the walks back), `layered`,
//! `relax`, `positions` (the layer by position), `blocks` and `levels`; benchmarked in
//! `crates/tile-engine/benches/search.rs`.

mod bfs;
mod blocks;
mod layered;
mod levels;
mod positions;
mod relax;

pub use bfs::{bfs, label_components, nearest, nearest_where, path_into, path_into_where};
pub use blocks::{Blocks, articulation_points};
pub use layered::Layered;
pub use levels::{Levels, VISITED, levels_in_mask};
pub use positions::{Components, DistanceMap, components, distances, path};
pub use relax::relax;

use super::geometry::{Direction, Pos};
use super::map::Map;

/// Distance of a tile no search reached.
pub const UNREACHED: u32 = u32::MAX;

/// The padded grid of a `width × height` map: one closed tile of border all round, so every
/// map tile has four neighbours in the grid. Padded index `i` is `(y + 1) × (width + 2) +
/// (x + 1)` for map tile `(x, y)`; padded row-major order is the map's row-major order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    /// Padded width: map width + 2.
    pub width: usize,
    /// Padded height: map height + 2.
    pub height: usize,
}

impl Grid {
    /// The padded grid around a `width × height` map.
    pub fn around(width: usize, height: usize) -> Grid {
        Grid {
            width: width + 2,
            height: height + 2,
        }
    }

    /// The padded grid of `map` and its walkable mask (the border closed).
    pub fn walkable_mask(map: &(impl Map + ?Sized)) -> (Grid, Vec<bool>) {
        let grid = Grid::around(map.width(), map.height());
        let mut open = vec![false; grid.len()];
        for y in 0..map.height() {
            let start = (y + 1) * grid.width + 1;
            map.walkable_row(y, &mut open[start..start + map.width()]);
        }
        (grid, open)
    }

    /// Number of padded cells.
    pub fn len(self) -> usize {
        self.width * self.height
    }

    /// Whether the grid holds no cell (never: the border is always there).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The cardinal neighbours of a map tile's padded index `i`, in the order up, right,
    /// down, left.
    #[inline]
    pub fn neighbours(self, i: usize) -> [usize; 4] {
        [i + self.width, i + 1, i - self.width, i - 1]
    }

    /// The padded index of a map position; `None` outside the map.
    pub fn index(self, pos: Pos) -> Option<usize> {
        (pos.x >= 0
            && pos.y >= 0
            && (pos.x as usize) < self.width - 2
            && (pos.y as usize) < self.height - 2)
            .then(|| (pos.y as usize + 1) * self.width + pos.x as usize + 1)
    }

    /// The map position of padded index `i`.
    pub fn pos(self, i: usize) -> Pos {
        Pos::new((i % self.width) as i32 - 1, (i / self.width) as i32 - 1)
    }

    /// The direction of the step from cell `a` to its neighbour `b` (`None` when `b` is no
    /// neighbour of `a`).
    pub fn direction(self, a: usize, b: usize) -> Option<Direction> {
        (self.neighbours(a).into_iter())
            .zip(Direction::ALL)
            .find(|&(n, _)| n == b)
            .map(|(_, d)| d)
    }

    /// The direction of each step of a walk over padded cells (each cell a neighbour of the
    /// one before it, as [`path_into`] gives them), in order: one fewer than the cells.
    pub fn directions(self, cells: &[usize]) -> Vec<Direction> {
        cells
            .windows(2)
            .map(|w| self.direction(w[0], w[1]).unwrap_or(Direction::Up))
            .collect()
    }

    /// The map's part of a per-cell vector over the padded grid, in map row-major order
    /// (bottom row first).
    pub fn unpad<T: Copy>(self, padded: &[T]) -> Vec<T> {
        let mut out = Vec::with_capacity((self.width - 2) * (self.height - 2));
        for y in 1..self.height - 1 {
            out.extend_from_slice(&padded[y * self.width + 1..y * self.width + self.width - 1]);
        }
        out
    }
}
