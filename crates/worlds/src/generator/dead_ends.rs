//! Step 4: fill in dead ends (Nystrom 2014, Hauberk `_removeDeadEnds`).

use super::Carver;

impl Carver {
    /// Fills every open tile with at most one open cardinal neighbour, and then whatever that
    /// uncovers, until none is left. Hauberk rescans the whole map until nothing changes; here
    /// one pass over the maze cells finds the dead ends and each corridor is then followed
    /// back from its dead end, so the cost is a quarter of the area plus a constant per
    /// removed tile.
    ///
    /// Works on the 1-byte open mask. Rooms are never removed
    /// (every room tile has two or more room neighbours), so at least the rooms survive. The
    /// result does not depend on the order of removal: it is the unique largest set of open
    /// tiles in which every tile has two or more open neighbours.
    pub fn remove_dead_ends(&mut self) {
        let (w, aw, ah) = (self.width, self.area_width, self.area_height);
        let open = &mut self.open;
        let degree = |o: &[u8], i: usize| o[i - 1] + o[i + 1] + o[i - w] + o[i + w];
        // Before any removal only a maze cell (odd x, odd y) can be a dead end: a maze passage
        // joins two cells, an opened connector two regions, and a room tile has two room
        // neighbours or more. So the first scan looks at the cells alone, and lists them
        // branch-free (each cell is written at the end, which moves on for a dead end).
        let mut dead_ends: Vec<u32> = Vec::with_capacity((aw / 2 + 1) * (ah / 2 + 1) / 4);
        for y in (1..ah - 1).step_by(2) {
            let mut len = dead_ends.len();
            dead_ends.resize(len + aw / 2, 0);
            for i in (y * w + 1..y * w + aw - 1).step_by(2) {
                dead_ends[len] = i as u32;
                len += usize::from((open[i] == 1) & (degree(open, i) <= 1));
            }
            dead_ends.truncate(len);
        }
        // Removing a dead end leaves at most one open neighbour, the only tile that can have
        // become a dead end: follow the corridor back until it reaches a junction or a room.
        let step = [w as isize, 1, -(w as isize), -1];
        for start in dead_ends {
            let mut i = start as usize;
            while open[i] == 1 {
                let around = [open[i + w], open[i + 1], open[i - w], open[i - 1]];
                if around.iter().sum::<u8>() > 1 {
                    break;
                }
                open[i] = 0;
                // The one open neighbour (if none, `i` does not move and the loop ends).
                let offset: isize = around
                    .iter()
                    .zip(step)
                    .map(|(&o, s)| isize::from(o) * s)
                    .sum();
                i = i.wrapping_add_signed(offset);
            }
        }
    }
}
