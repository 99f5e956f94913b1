//! Step 4: fill in dead ends (Nystrom 2014, Hauberk `_removeDeadEnds`).

use super::{Carver, ROCK};

impl Carver {
    /// Fills every open tile with at most one open cardinal neighbour, and then whatever that
    /// uncovers, until none is left. Hauberk rescans the whole map until nothing changes; a
    /// worklist does the same in one pass plus the length of the removed corridors.
    ///
    /// Rooms are never removed (every room tile has two or more room neighbours), so at least
    /// the rooms survive.
    pub fn remove_dead_ends(&mut self) {
        let mut work: Vec<usize> = Vec::new();
        for y in 1..self.area_height - 1 {
            let row = self.idx(1, y);
            for i in row..row + self.area_width - 2 {
                if self.is_open(i) && self.open_neighbours(i) <= 1 {
                    work.push(i);
                }
            }
        }
        while let Some(i) = work.pop() {
            if !self.is_open(i) || self.open_neighbours(i) > 1 {
                continue;
            }
            self.regions[i] = ROCK;
            for n in self.cardinal(i) {
                if self.is_open(n) && self.open_neighbours(n) <= 1 {
                    work.push(n);
                }
            }
        }
    }
}
