//! Step 4: fill in dead ends (Nystrom 2014, Hauberk `_removeDeadEnds`).

use super::Carver;

impl Carver {
    /// Fills every open tile with at most one open cardinal neighbour, and then whatever that
    /// uncovers, until none is left. Hauberk rescans the whole map until nothing changes; here
    /// one pass over the maze cells finds the dead ends and a worklist follows each corridor
    /// back, so the cost is a quarter of the area plus a constant per removed tile.
    ///
    /// Works on the 1-byte open mask (built here from the regions). Rooms are never removed
    /// (every room tile has two or more room neighbours), so at least the rooms survive. The
    /// result does not depend on the order of removal: it is the unique largest set of open
    /// tiles in which every tile has two or more open neighbours.
    pub fn remove_dead_ends(&mut self) {
        let (w, aw, ah) = (self.width, self.area_width, self.area_height);
        let open = self.open_mask();
        let degree = |o: &[u8], i: usize| o[i - 1] + o[i + 1] + o[i - w] + o[i + w];
        // Before any removal only a maze cell (odd x, odd y) can be a dead end: a maze passage
        // joins two cells, an opened connector two regions, and a room tile has two room
        // neighbours or more. So the first scan looks at the cells alone.
        let mut work: Vec<u32> = Vec::new();
        for y in (1..ah - 1).step_by(2) {
            for i in (y * w + 1..y * w + aw - 1).step_by(2) {
                if open[i] == 1 && degree(open, i) <= 1 {
                    work.push(i as u32);
                }
            }
        }
        while let Some(i) = work.pop() {
            let i = i as usize;
            if open[i] == 0 || degree(open, i) > 1 {
                continue;
            }
            open[i] = 0;
            for n in [i + w, i + 1, i - w, i - 1] {
                if open[n] == 1 && degree(open, n) <= 1 {
                    work.push(n as u32);
                }
            }
        }
    }
}
