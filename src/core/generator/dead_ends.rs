//! Step 4: fill in dead ends (Nystrom 2014, Hauberk `_removeDeadEnds`).

use super::{Carver, ROCK};

impl Carver {
    /// Fills every open tile with at most one open cardinal neighbour, and then whatever that
    /// uncovers, until none is left. Hauberk rescans the whole map until nothing changes; here
    /// each open tile's count of open neighbours is computed once and kept up to date, and a
    /// worklist holds the tiles whose count dropped to one or less: one pass over the area
    /// plus constant work per removed tile.
    ///
    /// Rooms are never removed (every room tile has two or more room neighbours), so at least
    /// the rooms survive. The result does not depend on the order of removal: it is the
    /// unique largest subgraph in which every tile has two or more open neighbours.
    pub fn remove_dead_ends(&mut self) {
        let w = self.width;
        let mut degree = vec![0u8; self.regions.len()];
        let mut work: Vec<u32> = Vec::new();
        for y in 1..self.area_height - 1 {
            let row = self.idx(1, y);
            let end = row + self.area_width - 2;
            for (i, slot) in (row..end).zip(&mut degree[row..end]) {
                if self.is_open(i) {
                    *slot = self.open_neighbours(i) as u8;
                    if *slot <= 1 {
                        work.push(i as u32);
                    }
                }
            }
        }
        while let Some(i) = work.pop() {
            let i = i as usize;
            if !self.is_open(i) {
                continue;
            }
            self.regions[i] = ROCK;
            for n in [i + w, i + 1, i - w, i - 1] {
                if self.is_open(n) {
                    degree[n] -= 1;
                    if degree[n] == 1 {
                        work.push(n as u32);
                    }
                }
            }
        }
    }
}
