//! The search module's layer by position: distances, walks and components over a [`Map`]'s
//! walkable tiles, for the rules, tools and tests.

use super::{Grid, UNREACHED, bfs, label_components, path_into};
use crate::geometry::{Direction, Pos};
use crate::map::Map;

/// BFS distances from a set of sources over a map's walkable tiles.
#[derive(Debug, Clone)]
pub struct DistanceMap {
    grid: Grid,
    dist: Vec<u32>,
}

/// Distances, in steps, from `sources` to every tile of `map` over walkable tiles. Sources
/// count as distance 0 whatever they hold; sources outside the map are ignored.
pub fn distances(map: &(impl Map + ?Sized), sources: &[Pos]) -> DistanceMap {
    let (grid, open) = Grid::walkable_mask(map);
    let starts: Vec<usize> = sources.iter().filter_map(|&p| grid.index(p)).collect();
    let mut dist = vec![UNREACHED; grid.len()];
    bfs(grid, &open, &starts, &mut dist);
    DistanceMap { grid, dist }
}

impl DistanceMap {
    /// The distance of `pos` in steps; `None` when it was not reached or lies outside.
    pub fn get(&self, pos: Pos) -> Option<u32> {
        let i = self.grid.index(pos)?;
        (self.dist[i] != UNREACHED).then_some(self.dist[i])
    }

    /// Every tile's distance in the map's row-major order (bottom row first), [`UNREACHED`]
    /// where not reached.
    pub fn to_vec(&self) -> Vec<u32> {
        self.grid.unpad(&self.dist)
    }

    /// The shortest walk from a source into `target`, source first and target last (see
    /// [`path_into`] for how ties break; `target` may be a closed tile that is entered from
    /// a neighbour, like the exit door). `None` when `target` cannot be reached or entered.
    pub fn path_to(&self, target: Pos) -> Option<Vec<Pos>> {
        let t = self.grid.index(target)?;
        let path = path_into(self.grid, &self.dist, t)?;
        Some(path.into_iter().map(|i| self.grid.pos(i)).collect())
    }

    /// The moves of [`DistanceMap::path_to`]: the direction of each step, in order.
    pub fn directions_to(&self, target: Pos) -> Option<Vec<Direction>> {
        let t = self.grid.index(target)?;
        let path = path_into(self.grid, &self.dist, t)?;
        Some(self.grid.directions(&path))
    }

    /// The reached tile farthest from the sources, the first in row-major order on ties;
    /// `None` when nothing was reached.
    pub fn farthest(&self) -> Option<(Pos, u32)> {
        let mut best: Option<(usize, u32)> = None;
        for (i, &d) in self.dist.iter().enumerate() {
            if d != UNREACHED && best.is_none_or(|(_, b)| d > b) {
                best = Some((i, d));
            }
        }
        best.map(|(i, d)| (self.grid.pos(i), d))
    }
}

/// The shortest walk from `from` into `to` over `map`'s walkable tiles (see
/// [`DistanceMap::path_to`]).
pub fn path(map: &(impl Map + ?Sized), from: Pos, to: Pos) -> Option<Vec<Pos>> {
    distances(map, &[from]).path_to(to)
}

/// The 4-connected components of a map's walkable tiles.
#[derive(Debug, Clone)]
pub struct Components {
    grid: Grid,
    label: Vec<u32>,
    /// Per component: first tile in row-major order and size in tiles.
    sizes: Vec<(Pos, u32)>,
}

/// Labels the walkable tiles of `map` by 4-connected component, numbered from 0 in row-major
/// order of their first tile.
pub fn components(map: &(impl Map + ?Sized)) -> Components {
    let (grid, open) = Grid::walkable_mask(map);
    let (label, found) = label_components(grid, &open);
    let sizes = found.into_iter().map(|(i, n)| (grid.pos(i), n)).collect();
    Components { grid, label, sizes }
}

impl Components {
    /// Number of components.
    pub fn count(&self) -> usize {
        self.sizes.len()
    }

    /// The component of `pos`; `None` for a closed tile or outside the map.
    pub fn of(&self, pos: Pos) -> Option<u32> {
        let l = self.label[self.grid.index(pos)?];
        (l != UNREACHED).then_some(l)
    }

    /// Each component's first tile (row-major) and size in tiles, by component number.
    pub fn sizes(&self) -> &[(Pos, u32)] {
        &self.sizes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::World;

    fn world(text: &str) -> World {
        World::from_text(text).expect("valid test world")
    }

    #[test]
    fn distances_paths_and_components_on_a_small_map() {
        // Two rooms; the right one is cut off. `█` is entered, never stood on.
        let w = world(concat!(
            "#######\n", //
            "#··#··#\n", //
            "#·##··█\n", //
            "#···#·#\n", //
            "#######\n",
        ));
        let d = distances(&w, &[Pos::new(1, 1)]);
        assert_eq!(d.get(Pos::new(1, 1)), Some(0));
        assert_eq!(d.get(Pos::new(3, 1)), Some(2));
        assert_eq!(d.get(Pos::new(2, 3)), Some(3));
        assert_eq!(d.get(Pos::new(5, 1)), None, "cut off");
        assert_eq!(d.get(Pos::new(0, 0)), None, "wall");
        assert_eq!(d.farthest(), Some((Pos::new(2, 3), 3)));
        assert!(
            d.path_to(Pos::new(6, 2)).is_none(),
            "the door is not next to the left room"
        );
        let p = path(&w, Pos::new(1, 1), Pos::new(2, 3)).unwrap();
        assert_eq!(
            p,
            vec![
                Pos::new(1, 1),
                Pos::new(1, 2),
                Pos::new(1, 3),
                Pos::new(2, 3)
            ]
        );
        let from_right = distances(&w, &[Pos::new(5, 1)]);
        assert_eq!(
            from_right.directions_to(Pos::new(6, 2)),
            Some(vec![Direction::Up, Direction::Right])
        );
        let c = components(&w);
        assert_eq!(c.count(), 2);
        assert_eq!(c.of(Pos::new(1, 1)), Some(0));
        assert_eq!(c.of(Pos::new(5, 3)), Some(1));
        assert_eq!(c.of(Pos::new(0, 0)), None);
        assert_eq!(c.sizes()[0], (Pos::new(1, 1), 6));
        assert_eq!(c.sizes()[1], (Pos::new(5, 1), 5));
    }
}
