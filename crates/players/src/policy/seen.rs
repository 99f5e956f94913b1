//! The map a policy plans on: the tiles of an [`Observation`](crate::agent::Observation)'s
//! view, never more. Walkable means walkable and seen (an unseen tile is drawn as nothing);
//! armed traps are closed unless a plan allows crossing them, and a policy may close more
//! tiles (a feature it chose to miss, an exit it bumped into). Every search is the one
//! search module's breadth-first search ([`byog_tile_engine::search::bfs`]) over the
//! padded grid, so ties break in [`Direction::ALL`] order as everywhere else.

use crate::agent::Sight;
use byog_tile_engine::search::{Grid, UNREACHED, bfs, path_into};
use byog_tile_engine::{Direction, Pos, Tile};

/// The seen tiles of one observation as a padded grid: which cells a plan may walk on and
/// which are still unseen.
#[derive(Debug, Clone)]
pub struct SeenMap {
    /// The padded grid of the view (one closed cell of border all round).
    pub grid: Grid,
    /// Cells a plan may walk on: seen, walkable, and not an armed trap (unless crossing).
    pub open: Vec<bool>,
    /// Cells never seen (drawn as nothing in the view), the border left out.
    pub unseen: Vec<bool>,
    /// The avatar's cell.
    pub avatar: usize,
}

impl SeenMap {
    /// The plan map of `sight`: armed traps closed unless `cross`, and the tiles of
    /// `closed` closed too.
    pub fn of(sight: &Sight, cross: bool, closed: &[Pos]) -> SeenMap {
        let (grid, mut open) = Grid::walkable_mask(&sight.view);
        let mut unseen = vec![false; grid.len()];
        let (w, h) = (sight.view.width(), sight.view.height());
        for (k, &tile) in sight.view.tiles().iter().enumerate() {
            let i = (k / w.max(1) + 1) * grid.width + k % w.max(1) + 1;
            match tile {
                Tile::Nothing => unseen[i] = true,
                Tile::TrapArmed if !cross => open[i] = false,
                // A monster in sight stands on floor: a way through it is a fight.
                t if byog_game::explore::MonsterKind::of_tile(t).is_some() => open[i] = true,
                _ => {}
            }
        }
        debug_assert_eq!(sight.view.tiles().len(), w * h);
        for &p in closed {
            if let Some(i) = grid.index(p) {
                open[i] = false;
            }
        }
        let avatar = grid.index(sight.avatar).unwrap_or(0);
        // The avatar always stands somewhere it can leave from.
        open[avatar] = true;
        SeenMap {
            grid,
            open,
            unseen,
            avatar,
        }
    }

    /// Breadth-first distances over the open cells from `sources` (in steps).
    pub fn distances(&self, sources: &[usize]) -> Vec<u32> {
        let mut dist = vec![UNREACHED; self.grid.len()];
        bfs(self.grid, &self.open, sources, &mut dist);
        dist
    }

    /// The padded cell of `pos`, if it lies in the view.
    pub fn index(&self, pos: Pos) -> Option<usize> {
        self.grid.index(pos)
    }

    /// Steps into cell `target` by `dist` (distances from the avatar): its own distance
    /// when it is open and reached, else one more than its nearest reached neighbour (a
    /// door is entered from beside it); `None` when it cannot be entered.
    pub fn reach(&self, dist: &[u32], target: usize) -> Option<u32> {
        if dist[target] != UNREACHED {
            return Some(dist[target]);
        }
        self.grid
            .neighbours(target)
            .into_iter()
            .filter(|&n| dist[n] != UNREACHED)
            .map(|n| dist[n] + 1)
            .min()
    }

    /// Whether open cell `i` touches an unseen cell: walking there shows something new.
    pub fn is_frontier(&self, i: usize) -> bool {
        self.open[i] && self.grid.neighbours(i).into_iter().any(|n| self.unseen[n])
    }

    /// The open reached cells that touch an unseen one, in row-major order.
    pub fn frontier(&self, dist: &[u32]) -> Vec<usize> {
        (0..self.grid.len())
            .filter(|&i| dist[i] != UNREACHED && self.is_frontier(i))
            .collect()
    }

    /// The first step of the shortest walk from the avatar into `target` by `dist`
    /// (distances from the avatar); `None` when the avatar stands there or it cannot be
    /// entered.
    pub fn first_step(&self, dist: &[u32], target: usize) -> Option<Direction> {
        let path = path_into(self.grid, dist, target)?;
        let next = *path.get(1)?;
        let (a, b) = (self.grid.pos(path[0]), self.grid.pos(next));
        Direction::ALL.into_iter().find(|&d| a + d == b)
    }

    /// The cells of the shortest walk from the avatar into `target` (avatar first).
    pub fn path(&self, dist: &[u32], target: usize) -> Option<Vec<usize>> {
        path_into(self.grid, dist, target)
    }
}

/// The nearest of `cells` by `dist`, the first in the given order on ties.
pub fn nearest(dist: &[u32], cells: impl IntoIterator<Item = usize>) -> Option<usize> {
    cells
        .into_iter()
        .filter(|&i| dist[i] != UNREACHED)
        .min_by_key(|&i| dist[i])
}
