//! Routes over a floor: the par route a floor is accepted by, and the routes the solver
//! ([`crate::core::players::solver`]) plays.
//!
//! **Distances.** One breadth-first search from the start and from each feature still to
//! handle, over the open tiles that hold no trap (a trap is entered only as a target, from a
//! neighbour, so a route never steps on an armed trap nor rearms a trap it is not aiming at).
//! The exit door is entered from a neighbour. `k` features cost `k + 1` searches, each linear
//! in tiles.
//!
//! **Order.** A nearest-neighbour tour from the start, improved by 2-opt (reverse any stretch
//! of the tour that shortens it, until none does), ending at the exit. Why not exact: a floor
//! has at most 13 features at the default depth table, where Held-Karp's `2ⁿ n²` is a few
//! million steps a floor, most of the solver's budget (docs/performance.md: a whole 10-floor run in
//! 10 ms); nearest neighbour plus 2-opt is the usual few-percent-off heuristic and costs
//! `n²` a pass. The budget has slack for it (the depth table's allowance is 100% down to 65%
//! of the floor's open tiles; `docs/runs.md` measures how far from the best tour it is).
//!

use super::{Feature, FeatureKind};
use crate::tile_engine::search::{Grid, UNREACHED, bfs, path_into};
use crate::tile_engine::{Direction, Pos, World};

/// Distances between the start, the features still to handle and the exit of one floor.
#[derive(Debug, Clone)]
pub struct Router {
    grid: Grid,
    /// Open tiles without a trap: where routes walk.
    safe: Vec<bool>,
    /// Open tiles without an armed trap (the way to the exit when nothing else fits).
    unarmed: Vec<bool>,
    /// Tiles holding a trap, armed or sprung.
    trap: Vec<bool>,
    /// The start, then each target, as padded cells.
    points: Vec<usize>,
    exit: usize,
    /// Breadth-first distances from each point over `safe` tiles.
    dist: Vec<Vec<u32>>,
}

/// A route over a floor: the order of the targets and what each prefix costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Target numbers (0-based, in [`Router`] order) in visiting order.
    pub order: Vec<usize>,
    /// `cost[j]`: moves to handle the first `j` targets of `order`, then walk into the exit
    /// (`u64::MAX` where the exit cannot be reached that way).
    pub cost: Vec<u64>,
}

impl Plan {
    /// The cost of the whole tour, then the exit.
    pub fn full_cost(&self) -> u64 {
        self.cost.last().copied().unwrap_or(u64::MAX)
    }
}

impl Router {
    /// The router of a floor from the avatar's tile. With `all`, every feature is a target;
    /// otherwise only those not handled yet (empty chests, sprung traps).
    pub fn new(terrain: &World, features: &[Feature], avatar: Pos, exit: Pos, all: bool) -> Self {
        let (grid, open) = Grid::walkable_mask(terrain);
        let mut safe = open.clone();
        let mut unarmed = open;
        let mut trap = vec![false; grid.len()];
        for f in features.iter().filter(|f| f.kind == FeatureKind::Trap) {
            if let Some(i) = grid.index(f.pos) {
                safe[i] = false;
                trap[i] = true;
                if f.handled {
                    unarmed[i] = false;
                }
            }
        }
        let targets: Vec<usize> = (0..features.len())
            .filter(|&k| all || !features[k].handled)
            .collect();
        let mut points = vec![grid.index(avatar).unwrap_or(0)];
        points.extend(
            targets
                .iter()
                .map(|&k| grid.index(features[k].pos).unwrap_or(0)),
        );
        let dist = points
            .iter()
            .map(|&p| {
                let mut d = vec![UNREACHED; grid.len()];
                bfs(grid, &safe, &[p], &mut d);
                d
            })
            .collect();
        Router {
            grid,
            safe,
            unarmed,
            trap,
            points,
            exit: grid.index(exit).unwrap_or(0),
            dist,
        }
    }

    /// Steps from point `from` into cell `to` (entered from a neighbour when it is not safe
    /// to stand on, like a trap or the exit door); `u64::MAX` when out of reach.
    fn into(&self, from: usize, to: usize) -> u64 {
        let d = &self.dist[from];
        if self.safe[to] && d[to] != UNREACHED {
            return u64::from(d[to]);
        }
        self.grid
            .neighbours(to)
            .iter()
            .filter(|&&n| d[n] != UNREACHED)
            .map(|&n| u64::from(d[n]) + 1)
            .min()
            .unwrap_or(u64::MAX)
    }

    /// Steps between points `a` and `b` (0 is the start, `k + 1` target `k`).
    fn leg(&self, a: usize, b: usize) -> u64 {
        self.into(a, self.points[b])
    }

    /// Steps from point `a` into the exit.
    fn to_exit(&self, a: usize) -> u64 {
        self.into(a, self.exit)
    }

    /// The nearest-neighbour tour of every target, improved by 2-opt, with each prefix's
    /// cost.
    pub fn plan(&self) -> Plan {
        let n = self.points.len() - 1;
        // Points: 0 the start, 1..=n the targets.
        let mut order: Vec<usize> = Vec::with_capacity(n);
        let mut left: Vec<usize> = (1..=n).collect();
        let mut at = 0;
        while !left.is_empty() {
            let (k, _) = left
                .iter()
                .enumerate()
                .min_by_key(|&(_, &p)| (self.leg(at, p), p))
                .unwrap_or((0, &0));
            at = left.remove(k);
            order.push(at);
        }
        self.two_opt(&mut order);
        let mut cost = Vec::with_capacity(n + 1);
        let mut walked = 0u64;
        let mut from = 0;
        cost.push(self.to_exit(0));
        for &p in &order {
            walked = walked.saturating_add(self.leg(from, p));
            from = p;
            cost.push(walked.saturating_add(self.to_exit(p)));
        }
        Plan {
            order: order.iter().map(|&p| p - 1).collect(),
            cost,
        }
    }

    /// Reverses stretches of the tour while that shortens it (the start and the exit stay at
    /// the ends). Distances between points are symmetric, so a reversal changes only the two
    /// legs at its ends.
    fn two_opt(&self, order: &mut Vec<usize>) {
        const EXIT: usize = usize::MAX;
        let cost = |a: usize, b: usize| {
            if b == EXIT {
                self.to_exit(a)
            } else {
                self.leg(a, b)
            }
        };
        // The whole tour: the start, the targets, the exit.
        let mut tour = Vec::with_capacity(order.len() + 2);
        tour.push(0);
        tour.extend_from_slice(order);
        tour.push(EXIT);
        let n = order.len();
        for _ in 0..64 {
            let mut improved = false;
            for i in 1..n {
                for j in i + 1..=n {
                    let before =
                        cost(tour[i - 1], tour[i]).saturating_add(cost(tour[j], tour[j + 1]));
                    let after =
                        cost(tour[i - 1], tour[j]).saturating_add(cost(tour[i], tour[j + 1]));
                    if after < before {
                        tour[i..=j].reverse();
                        improved = true;
                    }
                }
            }
            if !improved {
                break;
            }
        }
        order.clear();
        order.extend_from_slice(&tour[1..=n]);
    }

    /// Steps of the shortest way from the start into the exit that steps on no trap.
    pub fn direct(&self) -> Option<u64> {
        let d = self.to_exit(0);
        (d != u64::MAX).then_some(d)
    }

    /// The moves that handle the first `j` targets of `plan`, then walk into the exit.
    pub fn moves(&self, plan: &Plan, j: usize) -> Vec<Direction> {
        let mut cells = Vec::new();
        let mut from = 0;
        for &t in &plan.order[..j] {
            self.walk(from, self.points[t + 1], &mut cells);
            from = t + 1;
        }
        self.walk(from, self.exit, &mut cells);
        directions(self.grid, &cells)
    }

    /// Appends the cells of the walk from point `from` into cell `to` (the first cell, where
    /// the walk starts, only for the very first leg).
    fn walk(&self, from: usize, to: usize, cells: &mut Vec<usize>) {
        let path = path_into(self.grid, &self.dist[from], to).unwrap_or_default();
        let skip = usize::from(!cells.is_empty());
        cells.extend(path.into_iter().skip(skip));
    }

    /// The shortest way from the start into the exit that steps on armed traps at most
    /// `crossings` times (each costs a health: `crossings = health − 1` keeps the upkeeper
    /// alive), as moves; `None` when there is none. A breadth-first search over (tile,
    /// traps crossed so far), linear in tiles × (`crossings` + 1).
    pub fn escape(&self, crossings: u32) -> Option<Vec<Direction>> {
        let layers = crossings as usize + 1;
        let n = self.grid.len();
        // State s = layer × n + cell; `from[s]` is the state it was reached from.
        let mut from = vec![usize::MAX; layers * n];
        let start = self.points[0];
        from[start] = start;
        let mut queue = std::collections::VecDeque::from([start]);
        let mut end = None;
        while let Some(s) = queue.pop_front() {
            let (layer, cell) = (s / n, s % n);
            if self.grid.neighbours(cell).contains(&self.exit) {
                end = Some(s);
                break;
            }
            for next in self.grid.neighbours(cell) {
                if next == self.exit || !self.walkable(next) {
                    continue;
                }
                let armed = self.is_trap(next) && !self.unarmed[next];
                let l = layer + usize::from(armed);
                if l >= layers {
                    continue;
                }
                let t = l * n + next;
                if from[t] == usize::MAX {
                    from[t] = s;
                    queue.push_back(t);
                }
            }
        }
        let mut s = end?;
        let mut cells = vec![self.exit, s % n];
        while from[s] != s {
            s = from[s];
            cells.push(s % n);
        }
        cells.reverse();
        Some(directions(self.grid, &cells))
    }

    /// Whether the avatar can stand on cell `i` (any open tile, traps included).
    fn walkable(&self, i: usize) -> bool {
        self.safe[i] || self.is_trap(i)
    }

    /// Whether a trap stands on cell `i`.
    fn is_trap(&self, i: usize) -> bool {
        self.trap[i]
    }
}

/// The moves between consecutive cells of a walk.
fn directions(grid: Grid, cells: &[usize]) -> Vec<Direction> {
    cells
        .windows(2)
        .map(|w| {
            let (a, b) = (grid.pos(w[0]), grid.pos(w[1]));
            Direction::ALL
                .into_iter()
                .find(|&d| a + d == b)
                .unwrap_or(Direction::Up)
        })
        .collect()
}
