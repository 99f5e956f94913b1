//! The generator's breadth-first search: over a byte mask, level by level, branch-free.

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
