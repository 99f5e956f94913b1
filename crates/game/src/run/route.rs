//! Routes over a floor: the par route a floor is accepted by, and the routes the solver
//! (`byog_players::solver`) plays.
//!
//! **Distances** ([`Legs`]): between the start, each feature still to handle and the exit,
//! over the open tiles that hold no trap (a trap is entered only as a target, from a
//! neighbour, so a route never steps on an armed trap nor rearms a trap it is not aiming at;
//! the exit door is entered from a neighbour). Found two ways, which give the same numbers
//! (a test compares them on every floor of many runs):
//!
//! - the solver's [`Router`] walks its routes, so it keeps one breadth-first distance map
//!   from the start and from each target: `k` targets cost `k + 1` searches, each linear in
//!   tiles;
//! - a floor's par ([`Legs::of_floor`]) needs the distances alone, found over the floor
//!   contracted to a graph of a few hundred nodes (about 200 at B10 for 1,000 open tiles): a
//!   corridor between two junctions becomes one edge as long as the corridor, and a room
//!   without a trap (a rectangle of floor, from the generator) becomes its doors and points,
//!   joined to each other by edges as long as the walk between them inside the room (their
//!   Manhattan distance: nothing stands in the way). Then one Dijkstra search from each
//!   point, stopped once the points after it and the exit are reached (distances are
//!   symmetric). Cost: one pass over the tiles to contract, then `k + 1` searches over the
//!   contracted graph, each about its size.
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
use byog_tile_engine::search::{Grid, Layered, UNREACHED, bfs, path_into};
use byog_tile_engine::{Direction, Pos, World};
use byog_worlds::generator::RoomRect;

/// The distances a tour is planned over: between the start (point 0) and the targets
/// (points `1..`), and from each point into the exit; `u64::MAX` where out of reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Legs {
    points: usize,
    /// `leg[a × points + b]`: steps from point `a` into point `b` (0 from a point to itself).
    leg: Vec<u64>,
    /// `exit[a]`: steps from point `a` into the exit.
    exit: Vec<u64>,
}

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
    /// The distances between the points, read from `dist`.
    legs: Legs,
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
        let mut router = Router {
            grid,
            safe,
            unarmed,
            trap,
            points,
            exit: grid.index(exit).unwrap_or(0),
            dist,
            legs: Legs {
                points: 0,
                leg: Vec::new(),
                exit: Vec::new(),
            },
        };
        let n = router.points.len();
        router.legs = Legs {
            points: n,
            leg: (0..n * n)
                .map(|k| match (k / n, k % n) {
                    (a, b) if a == b => 0,
                    (a, b) => router.steps_into(a, router.points[b]),
                })
                .collect(),
            exit: (0..n).map(|a| router.steps_into(a, router.exit)).collect(),
        };
        router
    }

    /// The distances between the start, the targets and the exit.
    pub fn legs(&self) -> &Legs {
        &self.legs
    }

    /// Steps from point `from` into cell `to` (entered from a neighbour when it is not safe
    /// to stand on, like a trap or the exit door); `u64::MAX` when out of reach.
    fn steps_into(&self, from: usize, to: usize) -> u64 {
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

    /// The nearest-neighbour tour of every target, improved by 2-opt, with each prefix's
    /// cost.
    pub fn plan(&self) -> Plan {
        self.legs.plan()
    }

    /// Steps of the shortest way from the start into the exit that steps on no trap.
    pub fn direct(&self) -> Option<u64> {
        self.legs.direct()
    }

    /// Whether the first `j` targets of `plan`, then the exit, can be walked from `moves`
    /// moves left when target `t` (in [`Router`] order) pays `pays[t]` moves on arrival (a
    /// run's feature handled the first time, `docs/runs.md`): the moves never reach 0 away
    /// from the exit (a step onto a target is counted after what it pays), and the last leg
    /// walks into the exit with the moves left. Walking a leg over a target planned for
    /// later only makes it pay sooner, so the check is safe.
    pub fn fits(&self, plan: &Plan, j: usize, moves: u64, pays: &[u64]) -> bool {
        let mut left = moves;
        let mut from = 0;
        for &t in &plan.order[..j] {
            let leg = self.legs.leg(from, t + 1);
            if leg > left {
                return false;
            }
            left = left - leg + pays.get(t).copied().unwrap_or(0);
            if left == 0 {
                return false;
            }
            from = t + 1;
        }
        self.legs.to_exit(from) <= left
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
        self.grid.directions(&cells)
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
    /// alive), as moves; `None` when there is none. The search module's layered search
    /// ([`Layered`]: a breadth-first search over (tile, traps crossed so far), linear in
    /// tiles × (`crossings` + 1)), stopped at the first tile beside the exit and walked back
    /// along the tree it grew.
    pub fn escape(&self, crossings: u32) -> Option<Vec<Direction>> {
        let layers = crossings as usize + 1;
        let n = self.grid.len();
        // State s = layer × n + cell; `from[s]` is the state it was reached from.
        let mut from = vec![usize::MAX; layers * n];
        let start = self.points[0];
        from[start] = start;
        let (_, end) = Layered::search(
            self.grid,
            start,
            layers,
            |_, _, next| next != self.exit && self.walkable(next),
            |next| self.is_trap(next) && !self.unarmed[next],
            |cell, _| self.grid.neighbours(cell).contains(&self.exit),
            |t, s| from[t] = s,
        );
        let mut s = end?;
        let mut cells = vec![self.exit, s % n];
        while from[s] != s {
            s = from[s];
            cells.push(s % n);
        }
        cells.reverse();
        Some(self.grid.directions(&cells))
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

impl Legs {
    /// The distances of a floor's par route (every feature a target) over the floor
    /// contracted to a graph of junctions, corridors, doors and rooms (module documentation):
    /// the same numbers as [`Router::new`]'s with every feature a target. `open` is the
    /// padded walkable mask of the floor's terrain, `rooms` the generator's rooms (rectangles
    /// of floor).
    pub fn of_floor(
        grid: Grid,
        open: &[bool],
        features: &[Feature],
        avatar: Pos,
        exit: Pos,
        rooms: &[RoomRect],
    ) -> Legs {
        const NONE: u32 = u32::MAX;
        // What each tile is, as bits: safe to walk through (open, no trap), a stop (a trap or
        // the exit: entered, never walked through; a trap is left only when a search starts
        // there), in a plain room.
        const SAFE: u8 = 1;
        const STOP: u8 = 2;
        const ROOM: u8 = 4;
        let n = grid.len();
        let mut kind: Vec<u8> = open.iter().map(|&o| u8::from(o)).collect();
        // The points: the start, then every feature.
        let mut points = Vec::with_capacity(features.len() + 1);
        points.push(grid.index(avatar).unwrap_or(0));
        for f in features {
            let i = grid.index(f.pos).unwrap_or(0);
            if f.kind == FeatureKind::Trap {
                kind[i] = STOP;
            }
            points.push(i);
        }
        let exit = grid.index(exit).unwrap_or(0);
        kind[exit] = STOP;

        // 1. Plain rooms: the open tiles of the generator's rectangles without a trap.
        let mut room = vec![NONE; n];
        for (r, rect) in rooms.iter().enumerate() {
            let trapped = features
                .iter()
                .any(|f| f.kind == FeatureKind::Trap && rect.contains(f.pos));
            if trapped {
                continue;
            }
            // Only its open tiles: a LootQuest room's rectangle may have corners cut (walls);
            // L- and cross-shaped rooms are orthogonally convex, so the walk inside stays the
            // Manhattan distance.
            for y in rect.y..rect.y + rect.height {
                if let Some(start) = grid.index(Pos::new(rect.x, y)) {
                    let row = start..start + rect.width as usize;
                    for (k, m) in kind[row.clone()].iter_mut().zip(&mut room[row]) {
                        if *k != 0 {
                            *k |= ROOM;
                            *m = r as u32;
                        }
                    }
                }
            }
        }

        // 2. Nodes: the points and stops; in a plain room its doors (tiles next to a way out
        // of it: rooms never touch); elsewhere every tile that is not the middle of a
        // corridor (two safe ways on, no stop nor plain room next to it).
        let mut node = vec![NONE; n];
        let mut cells: Vec<usize> = Vec::with_capacity(n / 8);
        for i in 0..n {
            let k = kind[i];
            if k == 0 {
                continue;
            }
            let around = grid.neighbours(i).map(|m| kind[m]);
            let key = if k & STOP != 0 {
                true
            } else if k & ROOM != 0 {
                around.iter().any(|&m| m != 0 && m & ROOM == 0)
            } else {
                around.iter().filter(|&&m| m & SAFE != 0).count() != 2
                    || around.iter().any(|&m| m & (STOP | ROOM) != 0)
            };
            if key {
                node[i] = cells.len() as u32;
                cells.push(i);
            }
        }
        for &p in &points {
            if node[p] == NONE {
                node[p] = cells.len() as u32;
                cells.push(p);
            }
        }

        // 3. Edges, a node's after another's: from a stop to its neighbours (used when a
        // search starts at a trap); from a door out of its room; elsewhere along each way on
        // to the next node. (Across a room, from each of its nodes to the others, as far as
        // their Manhattan distance, is read from the room's list of nodes.)
        let mut edges: Vec<(u32, u32)> = Vec::with_capacity(cells.len() * 3);
        let mut first = Vec::with_capacity(cells.len() + 1);
        let mut longest = 1;
        for &c in &cells {
            first.push(edges.len());
            let k = kind[c];
            if k & (STOP | ROOM) != 0 {
                for m in grid.neighbours(c) {
                    if kind[m] != 0 && (k & STOP != 0 || kind[m] & ROOM == 0) {
                        edges.push((node[m], 1));
                    }
                }
                continue;
            }
            for m in grid.neighbours(c) {
                if kind[m] == 0 {
                    continue;
                }
                let (mut prev, mut cur, mut steps) = (c, m, 1);
                while node[cur] == NONE {
                    // The middle of a corridor: one way on that is not back.
                    let on = (grid.neighbours(cur).into_iter())
                        .find(|&x| kind[x] & SAFE != 0 && x != prev);
                    let Some(on) = on else { break };
                    (prev, cur, steps) = (cur, on, steps + 1);
                }
                if node[cur] != NONE && cur != c {
                    edges.push((node[cur], steps));
                    longest = longest.max(steps);
                }
            }
        }
        first.push(edges.len());
        // Each plain room's nodes, rooms in order (a counting sort).
        let mut room_first = vec![0usize; rooms.len() + 1];
        for &c in &cells {
            if room[c] != NONE {
                room_first[room[c] as usize + 1] += 1;
            }
        }
        for r in 1..room_first.len() {
            room_first[r] += room_first[r - 1];
        }
        let mut room_nodes = vec![0u32; room_first[rooms.len()]];
        let mut filled = room_first.clone();
        for (u, &c) in cells.iter().enumerate() {
            if room[c] != NONE {
                let r = room[c] as usize;
                room_nodes[filled[r]] = u as u32;
                filled[r] += 1;
            }
        }
        let at: Vec<Pos> = cells.iter().map(|&c| grid.pos(c)).collect();
        for rect in rooms {
            longest = longest.max((rect.width + rect.height) as u32);
        }

        // 4. One Dijkstra search from each point, until the points after it and the exit
        // are settled (distances are symmetric). The queue is Dial's: a bucket a distance,
        // kept round robin in more buckets than the longest edge is long (a power of two).
        let count = points.len();
        let mut point_of = vec![NONE; cells.len()];
        for (k, &p) in points.iter().enumerate() {
            point_of[node[p] as usize] = k as u32;
        }
        let exit_node = node[exit] as usize;
        let mut legs = Legs {
            points: count,
            leg: vec![u64::MAX; count * count],
            exit: vec![u64::MAX; count],
        };
        let mut dist = vec![u32::MAX; cells.len()];
        let span = (longest as usize + 1).next_power_of_two();
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); span];
        for a in 0..count {
            let source = node[points[a]] as usize;
            legs.leg[a * count + a] = 0;
            dist.fill(u32::MAX);
            buckets.iter_mut().for_each(Vec::clear);
            dist[source] = 0;
            buckets[0].push(source as u32);
            let (mut queued, mut d) = (1, 0u32);
            let mut wanted = count - a;
            'search: while queued > 0 {
                let slot = d as usize & (span - 1);
                while let Some(u) = buckets[slot].pop() {
                    queued -= 1;
                    let u = u as usize;
                    if dist[u] != d {
                        continue;
                    }
                    let b = point_of[u];
                    if b != NONE && b as usize > a {
                        legs.leg[a * count + b as usize] = u64::from(d);
                        legs.leg[b as usize * count + a] = u64::from(d);
                        wanted -= 1;
                    }
                    if u == exit_node {
                        legs.exit[a] = u64::from(d);
                        wanted -= 1;
                    }
                    if wanted == 0 {
                        break 'search;
                    }
                    let c = cells[u];
                    if kind[c] & STOP != 0 && u != source {
                        continue;
                    }
                    let mut relax = |v: u32, w: u32| {
                        let dv = d + w;
                        if dv < dist[v as usize] {
                            dist[v as usize] = dv;
                            buckets[dv as usize & (span - 1)].push(v);
                            queued += 1;
                        }
                    };
                    for &(v, w) in &edges[first[u]..first[u + 1]] {
                        relax(v, w);
                    }
                    if room[c] != NONE {
                        let r = room[c] as usize;
                        for &v in &room_nodes[room_first[r]..room_first[r + 1]] {
                            let (p, q) = (at[u], at[v as usize]);
                            let w = p.x.abs_diff(q.x) + p.y.abs_diff(q.y);
                            if w > 0 {
                                relax(v, w);
                            }
                        }
                    }
                }
                d += 1;
            }
        }
        legs
    }

    /// Steps between points `a` and `b` (0 is the start, `k + 1` target `k`).
    fn leg(&self, a: usize, b: usize) -> u64 {
        self.leg[a * self.points + b]
    }

    /// Steps from point `a` into the exit.
    fn to_exit(&self, a: usize) -> u64 {
        self.exit[a]
    }

    /// The nearest-neighbour tour of every target, improved by 2-opt, with each prefix's
    /// cost.
    pub fn plan(&self) -> Plan {
        let n = self.points - 1;
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::floor;
    use byog_worlds::generator::{self, GeneratorSettings};

    /// The contracted graph's distances are the breadth-first ones, on every floor of runs
    /// of several shapes (features as placed, and with more traps in rooms).
    #[test]
    fn a_floor_contracted_gives_the_breadth_first_distances() {
        let d = GeneratorSettings::default();
        let shapes = [
            (80, 30, 10, d, 40),
            (21, 11, 4, d, 40),
            (
                61,
                25,
                6,
                GeneratorSettings {
                    winding_percent: 0,
                    extra_connector_chance: 1,
                    room_extra_size: 4,
                    ..d
                },
                20,
            ),
            // LootQuest floors: rooms the generator reports as rectangles may be L- or
            // cross-shaped (their cut corners are walls inside the rectangle).
            (
                80,
                30,
                10,
                GeneratorSettings {
                    generator: generator::GeneratorKind::LootQuest,
                    lootquest: generator::LootQuestSettings {
                        rooms: 10,
                        critical_path: 4,
                        room_size_min: 5,
                        room_size_max: 9,
                        loops_percent: 50,
                        ..generator::LootQuestSettings::default()
                    },
                    ..d
                },
                20,
            ),
        ];
        for (width, height, floors, settings, runs) in shapes {
            for seed in 0..runs {
                for depth in 1..=floors {
                    let f = floor::make(seed, depth, floors, width, height, &settings).unwrap();
                    let made = generator::generate_for_seed(
                        floor::floor_seed(seed, depth, f.info.attempt),
                        f.params.width,
                        f.params.height,
                        &f.params.settings,
                    )
                    .unwrap();
                    let (grid, open) = Grid::walkable_mask(&f.terrain);
                    let rooms = &made.level.rooms;
                    let legs = Legs::of_floor(grid, &open, &f.features, f.avatar, f.exit, rooms);
                    let router = Router::new(&f.terrain, &f.features, f.avatar, f.exit, true);
                    assert_eq!(&legs, router.legs(), "seed {seed} B{depth}");
                    // Every room tile a trap (those that leave the floor connected are not
                    // needed: the distances must agree whatever the features).
                    let mut more = f.features.clone();
                    for r in rooms.iter().step_by(2) {
                        let pos = Pos::new(r.x + r.width / 2, r.y + r.height / 2);
                        if more.iter().all(|g| g.pos != pos) && pos != f.avatar {
                            more.push(Feature {
                                pos,
                                kind: FeatureKind::Trap,
                                handled: false,
                                paid: false,
                            });
                        }
                    }
                    let legs = Legs::of_floor(grid, &open, &more, f.avatar, f.exit, rooms);
                    let router = Router::new(&f.terrain, &more, f.avatar, f.exit, true);
                    assert_eq!(&legs, router.legs(), "seed {seed} B{depth}, more traps");
                }
            }
        }
    }
}
