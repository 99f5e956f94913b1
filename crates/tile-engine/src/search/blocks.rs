//! Articulation points (cut vertices) of the open cells, and the blocks that keep them up
//! to date while cells are closed one by one (a run's traps).

use super::Grid;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Pos;
    use crate::search::label_components;

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
}
