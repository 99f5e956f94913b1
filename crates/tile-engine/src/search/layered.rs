//! The layered search: the shortest ways that cross at most `k` costly cells (a run's armed
//! traps, each costing a heart), for every `k` below a bound, in one breadth-first search
//! over (cell, costly cells crossed).

use super::{Grid, UNREACHED};
use crate::geometry::Direction;

/// The distances of a layered search ([`Layered::search`]): for each layer `k` (costly cells
/// crossed) and cell, the steps of the shortest walk from the source to the cell that enters
/// exactly `k` costly cells, [`UNREACHED`] where none was found.
#[derive(Debug, Clone)]
pub struct Layered {
    grid: Grid,
    /// `dist[layer × grid.len() + cell]`, in steps.
    dist: Vec<u32>,
}

impl Layered {
    /// Breadth-first search from cell `source` over states (cell, layer), the source in
    /// layer 0: the step from a cell `from` in direction `d` onto its neighbour `to` is taken
    /// only where `may_step(from, d, to)` allows, and climbs one layer when `costly(to)` (a
    /// costly cell is paid for each time it is entered); a step that would climb to layer
    /// `layers` is not taken. Neighbours in [`Direction::ALL`] order; states are taken up
    /// nearest first, in the order they were reached. `visit(cell, layer)` is asked of each
    /// state as it is taken up, the source first: the search stops at the first for which it
    /// holds and returns that state too, as `layer × grid.len() + cell` (`None` when none
    /// did; then every reachable state was searched). `reached(state, from)` is told of each
    /// state when it is first reached, with the state it was reached from (a caller that
    /// keeps them has the search's tree: the solver's escape walks it back).
    ///
    /// Linear in cells × layers, as the memory (4 bytes a state). After the solver's escape
    /// (`run::route`), as travel's `>` plans in a run (`docs/keys.md`): round the traps when
    /// that fits, else through the fewest the health allows.
    pub fn search(
        grid: Grid,
        source: usize,
        layers: usize,
        may_step: impl Fn(usize, Direction, usize) -> bool,
        costly: impl Fn(usize) -> bool,
        mut visit: impl FnMut(usize, usize) -> bool,
        mut reached: impl FnMut(usize, usize),
    ) -> (Layered, Option<usize>) {
        let n = grid.len();
        let mut dist = vec![UNREACHED; layers * n];
        let mut queue = Vec::with_capacity(256);
        let mut head = 0;
        let mut found = None;
        if layers > 0 {
            dist[source] = 0;
            queue.push(source);
        }
        while head < queue.len() {
            let s = queue[head];
            head += 1;
            let (layer, c) = (s / n, s % n);
            if visit(c, layer) {
                found = Some(s);
                break;
            }
            for (m, d) in grid.neighbours(c).into_iter().zip(Direction::ALL) {
                if !may_step(c, d, m) {
                    continue;
                }
                let l = layer + usize::from(costly(m));
                if l >= layers {
                    continue;
                }
                let t = l * n + m;
                if dist[t] == UNREACHED {
                    dist[t] = dist[s] + 1;
                    reached(t, s);
                    queue.push(t);
                }
            }
        }
        (Layered { grid, dist }, found)
    }

    /// The number of layers searched.
    pub fn layers(&self) -> usize {
        self.dist.len() / self.grid.len()
    }

    /// The steps of the shortest walk from the source to `cell` crossing exactly `layer`
    /// costly cells; [`UNREACHED`] when none was found (or `layer` was not searched).
    pub fn steps(&self, layer: usize, cell: usize) -> u32 {
        self.dist
            .get(layer * self.grid.len() + cell)
            .copied()
            .unwrap_or(UNREACHED)
    }

    /// The steps into `target` in `layer`, as [`super::path_into`] enters a target: its own
    /// distance when it was reached, else one more than its nearest reached neighbour's
    /// (a target not itself walkable, like the exit door, is entered from a neighbour);
    /// [`UNREACHED`] when neither.
    pub fn steps_into(&self, layer: usize, target: usize) -> u32 {
        let own = self.steps(layer, target);
        if own != UNREACHED {
            return own;
        }
        self.grid
            .neighbours(target)
            .into_iter()
            .map(|m| self.steps(layer, m))
            .filter(|&d| d != UNREACHED)
            .map(|d| d + 1)
            .min()
            .unwrap_or(UNREACHED)
    }

    /// The shortest walk from the source into `target` that ends in `layer`, as padded cells,
    /// source first and target last (`None` when there is none). As
    /// [`super::path_into_where`], a layer at a time: a target not reached itself is entered
    /// from its reached neighbour nearest the source (the first in neighbour order on ties);
    /// from each cell the walk steps back, into the layer below when the cell is `costly`,
    /// onto the first neighbour, in neighbour order, one step nearer to the source there and
    /// towards which `may_step_back(cell, direction)` allows (`direction` leading from the
    /// cell to that neighbour). `costly` must be the search's.
    pub fn path_into_where(
        &self,
        target: usize,
        layer: usize,
        costly: impl Fn(usize) -> bool,
        may_step_back: impl Fn(usize, Direction) -> bool,
    ) -> Option<Vec<usize>> {
        let d = |l: usize, c: usize| self.steps(l, c);
        let last = if d(layer, target) != UNREACHED {
            target
        } else {
            let mut best = None::<usize>;
            for m in self.grid.neighbours(target) {
                if d(layer, m) != UNREACHED && best.is_none_or(|b| d(layer, m) < d(layer, b)) {
                    best = Some(m);
                }
            }
            best?
        };
        let mut l = layer;
        let mut path = Vec::with_capacity(d(l, last) as usize + 2);
        if last != target {
            path.push(target);
        }
        let mut c = last;
        path.push(c);
        while d(l, c) > 0 {
            // The layer the step onto `c` came from.
            let from = l.checked_sub(usize::from(costly(c)))?;
            let want = d(l, c) - 1;
            c = (self.grid.neighbours(c).into_iter())
                .zip(Direction::ALL)
                .find(|&(m, dir)| d(from, m) == want && may_step_back(c, dir))?
                .0;
            l = from;
            path.push(c);
        }
        path.reverse();
        Some(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Pos;
    use crate::search::{bfs, path_into};

    /// A random `w × h` mask: open cells, and costly ones among them.
    fn masks(w: usize, h: usize, state: &mut u64) -> (Grid, Vec<bool>, Vec<bool>) {
        let mut next = |m: u64| {
            *state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*state >> 33) % m
        };
        let grid = Grid::around(w, h);
        let (mut open, mut costly) = (vec![false; grid.len()], vec![false; grid.len()]);
        for y in 0..h {
            for x in 0..w {
                let i = grid.index(Pos::new(x as i32, y as i32)).unwrap();
                open[i] = next(4) != 0;
                costly[i] = open[i] && next(6) == 0;
            }
        }
        (grid, open, costly)
    }

    /// The oracle: the shortest walk into each cell crossing exactly `k` costly cells, by a
    /// plain BFS over the graph of states written out as its own grid (one copy of the map a
    /// layer, side by side), not the layered search.
    fn by_copies(
        grid: Grid,
        open: &[bool],
        costly: &[bool],
        source: usize,
        layers: usize,
    ) -> Vec<u32> {
        let n = grid.len();
        let mut dist = vec![UNREACHED; layers * n];
        dist[source] = 0;
        let mut frontier = vec![source];
        let mut d = 0;
        while !frontier.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for s in frontier {
                let (l, c) = (s / n, s % n);
                for m in grid.neighbours(c) {
                    if !open[m] {
                        continue;
                    }
                    let t = (l + usize::from(costly[m])) * n + m;
                    if l + usize::from(costly[m]) < layers && dist[t] == UNREACHED {
                        dist[t] = d;
                        next.push(t);
                    }
                }
            }
            frontier = next;
        }
        dist
    }

    #[test]
    fn layers_hold_the_shortest_walks_crossing_exactly_k_costly_cells() {
        let mut state = 42u64;
        let mut deep = false;
        for round in 0..300 {
            let (grid, open, costly) = masks(4 + round % 9, 3 + round % 7, &mut state);
            let Some(source) = (0..grid.len()).find(|&i| open[i] && !costly[i]) else {
                continue;
            };
            let layers = 1 + round % 4;
            let mut tree = vec![usize::MAX; layers * grid.len()];
            let (ways, found) = Layered::search(
                grid,
                source,
                layers,
                |_, _, m| open[m],
                |m| costly[m],
                |_, _| false,
                |t, s| tree[t] = s,
            );
            assert_eq!(found, None);
            assert_eq!(ways.layers(), layers);
            let expected = by_copies(grid, &open, &costly, source, layers);
            for l in 0..layers {
                for c in 0..grid.len() {
                    let d = ways.steps(l, c);
                    assert_eq!(d, expected[l * grid.len() + c]);
                    deep |= l > 0 && d != UNREACHED;
                    if d == UNREACHED || d == 0 {
                        continue;
                    }
                    // The tree's parent is one step nearer, a neighbour, a layer down when
                    // the cell is costly.
                    let p = tree[l * grid.len() + c];
                    assert_eq!(ways.steps(p / grid.len(), p % grid.len()), d - 1);
                    assert_eq!(p / grid.len() + usize::from(costly[c]), l);
                    // The walk back crosses as many costly cells as its layer says and
                    // is as long as the distance.
                    let walk = ways
                        .path_into_where(c, l, |m| costly[m], |_, _| true)
                        .unwrap();
                    assert_eq!(walk.len() as u32, d + 1);
                    assert_eq!(walk.iter().skip(1).filter(|&&m| costly[m]).count(), l);
                    assert!(grid.directions(&walk).len() == walk.len() - 1);
                }
            }
            // One layer and no costly cell: the plain BFS and its walk, step for step.
            let (plain, _) = Layered::search(
                grid,
                source,
                1,
                |_, _, m| open[m],
                |_| false,
                |_, _| false,
                |_, _| (),
            );
            let mut dist = vec![UNREACHED; grid.len()];
            bfs(grid, &open, &[source], &mut dist);
            let inside = |c: usize| {
                (1..grid.width - 1).contains(&(c % grid.width))
                    && (1..grid.height - 1).contains(&(c / grid.width))
            };
            for c in (0..grid.len()).filter(|&c| inside(c)) {
                assert_eq!(plain.steps(0, c), dist[c]);
                assert_eq!(
                    plain.steps_into(0, c) == UNREACHED,
                    path_into(grid, &dist, c).is_none()
                );
                assert_eq!(
                    plain.path_into_where(c, 0, |_| false, |_, _| true),
                    path_into(grid, &dist, c)
                );
            }
        }
        assert!(deep, "some walks crossed costly cells");
    }

    #[test]
    fn the_search_stops_at_the_first_state_visit_accepts() {
        let mut state = 3u64;
        let (grid, open, costly) = masks(12, 9, &mut state);
        let source = (0..grid.len()).find(|&i| open[i] && !costly[i]).unwrap();
        let mut order = Vec::new();
        let (_, all) = Layered::search(
            grid,
            source,
            3,
            |_, _, m| open[m],
            |m| costly[m],
            |c, l| {
                order.push((c, l));
                false
            },
            |_, _| (),
        );
        assert_eq!(all, None);
        assert!(order.len() > 10);
        let pick = order[order.len() / 2];
        let (ways, found) = Layered::search(
            grid,
            source,
            3,
            |_, _, m| open[m],
            |m| costly[m],
            |c, l| (c, l) == pick,
            |_, _| (),
        );
        assert_eq!(found, Some(pick.1 * grid.len() + pick.0));
        assert_ne!(ways.steps(pick.1, pick.0), UNREACHED);
    }
}
