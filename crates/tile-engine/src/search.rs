//! The one search module: breadth-first distances, connected components and shortest paths
//! over a [`Map`]'s walkable tiles, 4-neighbourhood, neighbours always visited in
//! [`Direction::ALL`] order (up, right, down, left) so that ties break the same way in
//! generation, metrics, the rules, the solver and the tests.
//!
//! Two layers:
//! - by position: [`distances`], [`DistanceMap`] (`get`, `path_to`, `farthest`), [`path`]
//!   and [`components`], for the rules, tools and tests;
//! - by index on a padded [`Grid`] (the map surrounded by a closed border one tile wide, so
//!   no search needs a bounds check): [`bfs`], [`label_components`] and [`path_into`], which
//!   the metrics run many times a world, and [`Blocks`], the articulation points kept up to
//!   date while cells are closed one by one (a run's traps).
//!
//! `levels_in_mask` is the generator's tuned variant (a byte mask, level by level,
//! branch-free): `finish` uses it to place the exit.
//!
//! Every search is linear in the number of tiles; distances are in single steps (tiles).

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

/// Breadth-first search over `open` cells from every cell of `sources` (distance 0, open or
/// not), neighbours in the fixed order. `dist` must be all [`UNREACHED`] on entry; it ends
/// with the distance of every reached cell, in steps.
pub fn bfs(grid: Grid, open: &[bool], sources: &[usize], dist: &mut [u32]) {
    // Each cell is queued once at most, and each neighbour is written past the queue's end
    // before it is known to be new: room for all cells and four more, as 4-byte indices.
    let mut queue = vec![0u32; grid.len() + 4];
    let mut tail = 0;
    for &s in sources {
        if dist[s] == UNREACHED {
            dist[s] = 0;
            queue[tail] = s as u32;
            tail += 1;
        }
    }
    let mut head = 0;
    while head < tail {
        let i = queue[head] as usize;
        head += 1;
        let d = dist[i] + 1;
        // Branch-free (whether a neighbour is new is a coin toss in a maze): the queue's end
        // moves on by 0 or 1 and the distance is written either way.
        let Some(slots) = queue[tail..].first_chunk_mut::<4>() else {
            break;
        };
        // The rows around `i` as one window: one bounds check a cell, not eight. Up, right,
        // down, left are `2w`, `w + 1`, `0` and `w - 1` in it.
        let w = grid.width;
        let (o, near) = (&open[i - w..=i + w], &mut dist[i - w..=i + w]);
        let mut new_cells = 0;
        for k in [2 * w, w + 1, 0, w - 1] {
            let new = o[k] & (near[k] == UNREACHED);
            near[k] = if new { d } else { near[k] };
            slots[new_cells & 3] = (i - w + k) as u32;
            new_cells += usize::from(new);
        }
        tail += new_cells;
    }
}

/// Relaxes a map of values over `open` cells, as a Dijkstra search seeded with every value
/// at once: each cell ends with the least of its own value and any open neighbour's value
/// plus `step`. Cells holding `i32::MAX` are unreached (they stay so unless a neighbour
/// lowers them). This is the "rescan" of a Dijkstra map (Brogue; Pender, "The Incredible
/// Power of Dijkstra Maps", RogueBasin 2010): a distance map scaled by a negative factor and
/// relaxed again is a *safety map*, whose downhill leads away from the sources without
/// running into dead ends. Ties are settled by a min-heap on `(value, index)`, so the result
/// is deterministic; the cost is `O(n log n)` in the cells reached.
pub fn relax(grid: Grid, open: &[bool], values: &mut [i32], step: i32) {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut heap: BinaryHeap<Reverse<(i32, usize)>> = values
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != i32::MAX)
        .map(|(i, &v)| Reverse((v, i)))
        .collect();
    while let Some(Reverse((v, i))) = heap.pop() {
        if v > values[i] {
            continue;
        }
        let next = v.saturating_add(step);
        for n in grid.neighbours(i) {
            if open[n] && next < values[n] {
                values[n] = next;
                heap.push(Reverse((next, n)));
            }
        }
    }
}

/// Breadth-first search over `open` cells from `source` (as [`bfs`]) that stops at the first
/// cell, in search order (nearest first, ties in neighbour order), where `goal` holds; that
/// cell is returned. `goal` is asked of every reached cell, the source included (only open
/// cells are reached beyond the source). `dist`
/// must be all [`UNREACHED`] on entry; on return every cell nearer than the goal has its
/// distance, so [`path_into`] walks to it. Travel's explore uses it (`docs/keys.md`): the
/// nearest tile next to the unseen, at the cost of the tiles nearer than it.
pub fn nearest(
    grid: Grid,
    open: &[bool],
    source: usize,
    goal: impl Fn(usize) -> bool,
    dist: &mut [u32],
) -> Option<usize> {
    let mut queue = std::collections::VecDeque::with_capacity(64);
    dist[source] = 0;
    queue.push_back(source);
    while let Some(i) = queue.pop_front() {
        if goal(i) {
            return Some(i);
        }
        for n in grid.neighbours(i) {
            if open[n] && dist[n] == UNREACHED {
                dist[n] = dist[i] + 1;
                queue.push_back(n);
            }
        }
    }
    None
}

/// Labels the 4-connected components of the cells where `member` holds, numbered from 0 in
/// row-major order of their first cell; other cells get [`UNREACHED`]. Returns the labels
/// and, per component, its first cell and its size in tiles.
pub fn label_components(grid: Grid, member: &[bool]) -> (Vec<u32>, Vec<(usize, u32)>) {
    let mut label = vec![UNREACHED; grid.len()];
    let mut found = Vec::new();
    let mut stack = Vec::new();
    for start in 0..grid.len() {
        if !member[start] || label[start] != UNREACHED {
            continue;
        }
        let id = found.len() as u32;
        label[start] = id;
        stack.push(start);
        let mut size = 0u32;
        while let Some(i) = stack.pop() {
            size += 1;
            for n in grid.neighbours(i) {
                if member[n] && label[n] == UNREACHED {
                    label[n] = id;
                    stack.push(n);
                }
            }
        }
        found.push((start, size));
    }
    (label, found)
}

/// The shortest walk from the BFS source (distance 0 in `dist`) into `target`, as padded
/// indices, source first and target last; `None` when `target` cannot be entered.
///
/// `target` need not be walkable itself (the exit door is entered, never stood on): the walk
/// enters it from its reached neighbour nearest the source (the first in neighbour order on
/// ties), and from each cell steps back towards the source onto the first neighbour, in
/// neighbour order, one step nearer to it. A target that was reached itself is the end of
/// its own walk.
pub fn path_into(grid: Grid, dist: &[u32], target: usize) -> Option<Vec<usize>> {
    path_into_where(grid, dist, target, |_, _| true)
}

/// [`path_into`], stepping back from a cell only towards a neighbour `may_step_back(cell,
/// direction)` allows, `direction` leading from the cell to that neighbour (a walk whose
/// search honoured one-way cells steps back along the ways it could take).
pub fn path_into_where(
    grid: Grid,
    dist: &[u32],
    target: usize,
    may_step_back: impl Fn(usize, Direction) -> bool,
) -> Option<Vec<usize>> {
    if dist[target] == 0 {
        return Some(vec![target]);
    }
    let last = if dist[target] != UNREACHED {
        target
    } else {
        let mut best = None::<usize>;
        for n in grid.neighbours(target) {
            if dist[n] != UNREACHED && best.is_none_or(|b| dist[n] < dist[b]) {
                best = Some(n);
            }
        }
        best?
    };
    let mut path = Vec::with_capacity(dist[last] as usize + 2);
    if last != target {
        path.push(target);
    }
    let mut i = last;
    path.push(i);
    while dist[i] > 0 {
        // The first neighbour, in neighbour order, one step closer to the source. BFS
        // distances guarantee one exists.
        let from = i;
        i = grid
            .neighbours(from)
            .into_iter()
            .zip(Direction::ALL)
            .find(|&(n, d)| dist[n] == dist[from] - 1 && may_step_back(from, d))?
            .0;
        path.push(i);
    }
    path.reverse();
    Some(path)
}

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
        let path = self.path_to(target)?;
        Some(
            path.windows(2)
                .map(|w| direction_between(w[0], w[1]))
                .collect(),
        )
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

/// The direction of the single step from `a` to its neighbour `b` (`Up` for anything else).
fn direction_between(a: Pos, b: Pos) -> Direction {
    Direction::ALL
        .into_iter()
        .find(|&d| a + d == b)
        .unwrap_or(Direction::Up)
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

/// Marks the articulation points (cut vertices) of the graph of `open` cells and their
/// 4-neighbour adjacencies: the cells whose removal disconnects their component (Hopcroft
/// and Tarjan, "Efficient algorithms for graph manipulation", 1973: depth-first discovery
/// times and low links). Iterative, linear in cells; neighbours in the fixed order.
pub fn articulation_points(grid: Grid, open: &[bool]) -> Vec<bool> {
    Blocks::new(grid, open.to_vec()).cut
}

/// Marks a cell that lies in no block: closed, or open with no open neighbour.
const NO_BLOCK: u32 = u32::MAX;

/// The blocks (biconnected components) of the graph of open cells, kept up to date as cells
/// are closed, and so its articulation points.
///
/// One depth-first search (Hopcroft and Tarjan, 1973) finds the articulation points and the
/// blocks: maximal sets of cells that no single removal disconnects, which overlap only in
/// articulation points. A cell that is no articulation point lies in exactly one block, and
/// every simple path between two cells of a block stays inside it, so closing such a cell
/// changes only its own block: [`Blocks::close`] marks that block stale, and the next
/// question about one of its cells ([`Blocks::cuts_now`]) searches that block alone again,
/// splitting it into the blocks that remain. Linear in cells to build; after a close, at
/// most the size of one block.
#[derive(Debug, Clone)]
pub struct Blocks {
    grid: Grid,
    /// The open cells now.
    open: Vec<bool>,
    /// The articulation points of the cells open when the blocks were first found.
    cut: Vec<bool>,
    /// How many blocks each cell lies in, up to date outside stale blocks: the articulation
    /// points are the cells in two or more.
    blocks_of: Vec<u8>,
    /// The block each open cell shares with its parent in the search (the only block of a
    /// cell that is no articulation point); a search root's only block when it has one.
    block: Vec<u32>,
    /// Each block's head: its cell the search reached first, shared with the blocks above
    /// it (or the search's root).
    head: Vec<u32>,
    /// Whether a cell of each block was closed since the block was found.
    stale: Vec<bool>,
    /// An open cell of each block, where searching it again starts (its head until that is
    /// closed); `u32::MAX` once none is left.
    start: Vec<u32>,
    /// Discovery times (0: never) and low links of the searches, and the time so far.
    disc: Vec<u32>,
    low: Vec<u32>,
    time: u32,
    /// Scratch of the searches: the cells a search went down from, each with its next
    /// neighbour to try packed in ([`Blocks::pack`]: 4 bytes an entry; a cell's parent is the
    /// entry below it), and the cells reached whose block is not known yet.
    stack: Vec<u32>,
    pending: Vec<u32>,
}

impl Blocks {
    /// The blocks of the graph of `open` cells (the border closed) and its articulation points.
    pub fn new(grid: Grid, open: Vec<bool>) -> Blocks {
        let n = grid.len();
        let mut blocks = Blocks {
            grid,
            open,
            cut: Vec::new(),
            blocks_of: vec![0; n],
            block: vec![NO_BLOCK; n],
            // A maze's corridors make about a block a corridor tile; the lists grow as they
            // are found, as deep as the search goes (nothing reserved for the worst case).
            head: Vec::new(),
            stale: Vec::new(),
            start: Vec::new(),
            disc: vec![0; n],
            low: vec![0; n],
            time: 0,
            stack: Vec::new(),
            pending: Vec::new(),
        };
        for root in 0..n {
            if blocks.open[root] && blocks.disc[root] == 0 {
                blocks.search(root, NO_BLOCK);
            }
        }
        blocks.cut = blocks.blocks_of.iter().map(|&b| b >= 2).collect();
        blocks
    }

    /// Whether cell `i` was an articulation point when the blocks were first found.
    pub fn was_cut(&self, i: usize) -> bool {
        self.cut[i]
    }

    /// Closes open cell `i`, which must be no articulation point of the cells open now (so
    /// it lies in one block, and that block stays connected without it).
    pub fn close(&mut self, i: usize) {
        debug_assert!(self.open[i]);
        self.open[i] = false;
        // Its block is its own or one it heads (then a neighbour's); if the search of the
        // block started at `i`, it starts at one of its neighbours in the block instead
        // (the block without `i` is connected).
        let own = self.block[i];
        for b in std::iter::once(own).chain(self.grid.neighbours(i).map(|n| self.block[n])) {
            if b == NO_BLOCK || (b != own && self.head[b as usize] as usize != i) {
                continue;
            }
            let b = b as usize;
            self.stale[b] = true;
            if self.start[b] as usize == i {
                let member = |n: usize| {
                    self.open[n] && (self.block[n] as usize == b || self.head[b] as usize == n)
                };
                self.start[b] = (self.grid.neighbours(i).into_iter())
                    .find(|&n| member(n))
                    .map_or(u32::MAX, |n| n as u32);
            }
        }
    }

    /// Whether open cell `i` is an articulation point of the cells open now (closing it
    /// would disconnect two of its open neighbours): the same answer as
    /// [`articulation_points`] of the cells open now.
    pub fn cuts_now(&mut self, i: usize) -> bool {
        // Every block `i` lies in holds the edge to one of its open neighbours, and is that
        // neighbour's block or `i`'s own: search again those of them that are stale.
        loop {
            let stale = std::iter::once(i)
                .chain(self.grid.neighbours(i))
                .map(|c| self.block[c])
                .find(|&b| b != NO_BLOCK && self.stale[b as usize]);
            let Some(b) = stale else {
                break;
            };
            let root = self.start[b as usize];
            if root != u32::MAX {
                self.search(root as usize, b);
            }
            self.stale[b as usize] = false;
        }
        self.blocks_of[i] >= 2
    }

    /// A cell and its next neighbour to try (0..=4), as one stack entry: the cell in the
    /// upper 29 bits (a padded grid of the largest world, 16386², has under 2²⁹ cells).
    #[inline]
    fn pack(cell: u32, next: u32) -> u32 {
        debug_assert!(cell < 1 << 29 && next <= 4);
        cell << 3 | next
    }

    /// One depth-first search from `root` over the open cells of block `within` (every open
    /// cell for [`NO_BLOCK`]), which it replaces by the blocks it finds: numbered after those
    /// known, each cell it reaches (but the root) given the block it shares with its parent.
    fn search(&mut self, root: usize, within: u32) {
        const NONE: u32 = u32::MAX;
        let old_head = self
            .head
            .get(within as usize)
            .map_or(usize::MAX, |&h| h as usize);
        // The cells of `within` leave it as the search reaches them.
        let leaving = u8::from(within != NO_BLOCK);
        let Blocks {
            grid,
            open,
            blocks_of,
            block,
            head,
            stale,
            start,
            disc,
            low,
            time,
            stack,
            pending,
            ..
        } = self;
        let begun = *time;
        *time += 1;
        disc[root] = *time;
        low[root] = *time;
        blocks_of[root] -= leaving;
        let mut root_children = 0;
        // The cell being searched, its parent and its next neighbour to try; `stack` holds
        // the cells the search went down from with their next neighbours (each one's parent
        // is the entry below it), `pending` the cells reached whose block is not known yet,
        // in order of discovery.
        let (mut v, mut parent, mut k) = (root as u32, NONE, 0u32);
        loop {
            if k < 4 {
                let w = grid.neighbours(v as usize)[k as usize];
                k += 1;
                if w as u32 == parent || !open[w] {
                    continue;
                }
                if disc[w] > begun {
                    low[v as usize] = low[v as usize].min(disc[w]);
                } else if within == NO_BLOCK || block[w] == within || w == old_head {
                    *time += 1;
                    disc[w] = *time;
                    low[w] = *time;
                    blocks_of[w] -= leaving;
                    root_children += usize::from(v as usize == root);
                    pending.push(w as u32);
                    stack.push(Blocks::pack(v, k));
                    (v, parent, k) = (w as u32, v, 0);
                }
                continue;
            }
            // `v` is done: back to its parent.
            let Some(top) = stack.pop() else {
                break;
            };
            let (p, next) = (top >> 3, top & 7);
            let grandparent = stack.last().map_or(NONE, |&e| e >> 3);
            let (p, c) = (p as usize, v as usize);
            low[p] = low[p].min(low[c]);
            if low[c] >= disc[p] {
                // `p` separates `v`'s part of the search from the rest: the cells found
                // since `v` (and not yet in a block) form a block with `p`.
                let id = head.len() as u32;
                head.push(p as u32);
                stale.push(false);
                start.push(p as u32);
                blocks_of[p] += 1;
                while let Some(m) = pending.pop() {
                    block[m as usize] = id;
                    blocks_of[m as usize] += 1;
                    if m == v {
                        break;
                    }
                }
            }
            (v, parent, k) = (p as u32, grandparent, next);
        }
        if within == NO_BLOCK || block[root] == within {
            // The root's own block: the one it lies in when that is the only one (it heads
            // all of them).
            block[root] = if root_children == 1 {
                head.len() as u32 - 1
            } else {
                NO_BLOCK
            };
        }
    }
}

/// Mark of a tile [`levels_in_mask`] reached, in its byte mask (1 open, 0 rock).
pub const VISITED: u8 = 2;

/// The result of [`levels_in_mask`]: the tiles in the order visited, and where each distance
/// level starts in that order.
pub struct Levels {
    /// Tile indices, by non-decreasing distance from the start.
    pub order: Vec<u32>,
    /// `order[bounds[d]..bounds[d + 1]]` are the tiles `d` steps from the start.
    pub bounds: Vec<usize>,
}

impl Levels {
    /// The distance levels, farthest first.
    pub fn farthest_first(&self) -> impl Iterator<Item = &[u32]> {
        self.bounds
            .windows(2)
            .rev()
            .map(|b| &self.order[b[0]..b[1]])
    }
}

/// The generator's breadth-first search: over a byte mask of row width `w` (1 open, 0 rock;
/// `open_count` open tiles) from `start`, 4-neighbourhood in the fixed order, level by level.
/// Each reached tile is marked [`VISITED`] in the mask. Open tiles must never touch the
/// grid's edge (the generator's carving area guarantees it), so their neighbours are always
/// inside the grid.
pub fn levels_in_mask(open: &mut [u8], w: usize, start: usize, open_count: usize) -> Levels {
    // Each neighbour is written past the queue's end before it is known to be new, so the
    // queue needs four spare slots past the open tiles.
    let mut order = vec![0u32; open_count.max(1) + 4];
    let mut bounds = vec![0, 1];
    open[start] = VISITED;
    order[0] = start as u32;
    let (mut head, mut tail) = (0, 1);
    'search: while head < tail {
        let level_end = tail;
        // Branch-free: in a maze whether a neighbour is new is a coin toss the branch
        // predictor loses, so the queue's end moves on by 0 or 1 and the mark goes from 1
        // (open) to 2 (visited) while 0 (rock) and 2 stay.
        while head < level_end {
            let i = order[head] as usize;
            head += 1;
            // The four slots past the queue's end: one bounds check, not four. (At most
            // `open_count` tiles are ever queued, so they are always there.)
            let Some(slots) = order[tail..].first_chunk_mut::<4>() else {
                break 'search;
            };
            let mut new_tiles = 0;
            for n in [i + w, i + 1, i - w, i - 1] {
                let o = open[n];
                let new = u8::from(o == 1);
                open[n] = o + new;
                slots[new_tiles & 3] = n as u32;
                new_tiles += usize::from(new);
            }
            tail += new_tiles;
        }
        if tail > level_end {
            bounds.push(tail);
        }
    }
    order.truncate(tail);
    Levels { order, bounds }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::World;

    fn world(text: &str) -> World {
        World::from_text(text).expect("valid test world")
    }

    /// The slow definition: a cell is a cut vertex when removing it leaves more components.
    fn cut_vertices_by_removal(grid: Grid, open: &[bool]) -> Vec<bool> {
        let count = |o: &[bool]| label_components(grid, o).1.len();
        let base = count(open);
        (0..open.len())
            .map(|i| {
                if !open[i] {
                    return false;
                }
                let mut without = open.to_vec();
                without[i] = false;
                // Removing an isolated cell removes a component; that is not a cut.
                let isolated = grid.neighbours(i).iter().all(|&n| !open[n]);
                !isolated && count(&without) > base
            })
            .collect()
    }

    #[test]
    fn articulation_points_match_removal_on_random_masks() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..300 {
            let (w, h) = (9, 7);
            let grid = Grid::around(w, h);
            let mut open = vec![false; grid.len()];
            for y in 0..h {
                for x in 0..w {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    open[grid.index(Pos::new(x as i32, y as i32)).unwrap()] =
                        !(state >> 33).is_multiple_of(3);
                }
            }
            assert_eq!(
                articulation_points(grid, &open),
                cut_vertices_by_removal(grid, &open)
            );
        }
    }

    #[test]
    fn blocks_tell_new_articulation_points_exactly_as_recomputing_them() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        for round in 0..400 {
            let (w, h) = (5 + round % 9, 4 + round % 7);
            let grid = Grid::around(w, h);
            let mut open = vec![false; grid.len()];
            for y in 0..h {
                for x in 0..w {
                    open[grid.index(Pos::new(x as i32, y as i32)).unwrap()] =
                        next(3 + round as u64 % 5) != 0;
                }
            }
            let mut blocks = Blocks::new(grid, open.clone());
            assert_eq!(blocks.cut, articulation_points(grid, &open));
            // Close random cells that cut nothing, asked first or not (the floor closes
            // ringed tiles without asking), then ask about some cells.
            for _ in 0..40 {
                let i = next(grid.len() as u64) as usize;
                if !open[i] || cut_vertices_by_removal(grid, &open)[i] {
                    continue;
                }
                if next(2) == 0 {
                    assert!(!blocks.cuts_now(i));
                }
                open[i] = false;
                blocks.close(i);
                let now = cut_vertices_by_removal(grid, &open);
                for c in 0..grid.len() {
                    if open[c] && next(4) == 0 {
                        assert_eq!(blocks.cuts_now(c), now[c], "cell {c}");
                    }
                }
                // Once every stale block is searched again, each cell is in as many blocks
                // as a fresh search finds.
                let mut all = blocks.clone();
                for c in (0..grid.len()).filter(|&c| open[c]) {
                    all.cuts_now(c);
                }
                let fresh = Blocks::new(grid, open.clone());
                for c in (0..grid.len()).filter(|&c| open[c]) {
                    assert_eq!(all.blocks_of[c], fresh.blocks_of[c], "cell {c}");
                }
            }
        }
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
