//! Step 1: place random rooms (Nystrom 2014, Hauberk `_addRooms`).

use rand::{Rng, RngExt};

use super::{Carver, GeneratorSettings, RoomRect};

impl Carver {
    /// Tries `room_tries_per_1000_tiles × area / 1000` (at least 1) times to place a room of
    /// odd size at odd coordinates; a room that would overlap a placed one is dropped. The
    /// overlap test reads the room's own cells on the maze cell grid, so a try costs the
    /// room's area, not the number of rooms. Rooms at odd positions with odd sides always keep
    /// at least one rock tile between them.
    ///
    /// If no try succeeded (a tiny world), one 3 × 3 room is placed at a random odd position,
    /// so every world has at least one room and generation never fails for lack of one.
    ///
    /// Each room gets its own region, numbered in placement order. Returns the rooms in
    /// placement order.
    pub fn add_rooms<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        settings: &GeneratorSettings,
    ) -> Vec<RoomRect> {
        let area = (self.area_width * self.area_height) as u64;
        let tries = (area * u64::from(settings.room_tries_per_1000_tiles) / 1000).max(1);
        let (aw, ah) = (self.area_width as u32, self.area_height as u32);
        // At most one room per four cells fits, however many tries are asked for.
        let cells = (aw as usize / 2) * (ah as usize / 2);
        let mut rooms = Vec::with_capacity((tries as usize).min(cells / 4 + 1));
        for _ in 0..tries {
            let size = rng.random_range(1..3 + settings.room_extra_size) * 2 + 1;
            let rectangularity = rng.random_range(0..1 + size / 2) * 2;
            let (mut width, mut height) = (size, size);
            if rng.random_range(0..2u32) == 0 {
                width += rectangularity;
            } else {
                height += rectangularity;
            }
            if width + 2 > aw || height + 2 > ah {
                continue;
            }
            let x = rng.random_range(0..(aw - width) / 2) * 2 + 1;
            let y = rng.random_range(0..(ah - height) / 2) * 2 + 1;
            let room = RoomRect {
                x: x as i32,
                y: y as i32,
                width: width as i32,
                height: height as i32,
            };
            if self.is_rock(&room) {
                self.carve_cells(&room);
                rooms.push(room);
            }
        }
        if rooms.is_empty() {
            let x = rng.random_range(0..(aw - 3) / 2) * 2 + 1;
            let y = rng.random_range(0..(ah - 3) / 2) * 2 + 1;
            let room = RoomRect {
                x: x as i32,
                y: y as i32,
                width: 3,
                height: 3,
            };
            self.carve_cells(&room);
            rooms.push(room);
        }
        self.carve_regions(&rooms);
        rooms
    }

    /// The room's cells as ranges of `cells` indices, one a row of cells.
    fn room_cell_rows(
        &self,
        room: &RoomRect,
    ) -> impl Iterator<Item = std::ops::Range<usize>> + use<> {
        let first = self.cell(room.x as usize, room.y as usize);
        let (columns, rows) = (room.width as usize / 2 + 1, room.height as usize / 2 + 1);
        let stride = self.cell_stride;
        (0..rows).map(move |r| first + r * stride..first + r * stride + columns)
    }

    /// Whether the room's cells are all rock. Rooms at odd positions with odd sides overlap
    /// exactly when they share a cell, and only rooms are carved yet, so this is the overlap
    /// test.
    fn is_rock(&self, room: &RoomRect) -> bool {
        // An OR over every cell rather than a search for the first carved one: no branch to
        // mispredict, and the rows' loads all go out at once.
        self.room_cell_rows(room)
            .map(|row| self.cells[row].iter().fold(0, |any, &c| any | c))
            .fold(0, |any, row| any | row)
            == 0
    }

    fn carve_cells(&mut self, room: &RoomRect) {
        for row in self.room_cell_rows(room) {
            self.cells[row].fill(1);
        }
    }

    /// Carves each room's tiles and gives its cells its region (1, 2, … in placement order).
    /// The rooms are carved in order of their bottom row rather than placement order: on a
    /// large world the rows each room touches are then the ones the last rooms touched, still
    /// in cache.
    fn carve_regions(&mut self, rooms: &[RoomRect]) {
        let first = self.region_count + 1;
        self.region_count += rooms.len() as u32;
        let mut by_row: Vec<(i32, u32)> =
            (first..).zip(rooms).map(|(r, room)| (room.y, r)).collect();
        by_row.sort_unstable();
        let width = self.width;
        for (_, region) in by_row {
            let room = rooms[(region - first) as usize];
            for row in self.room_cell_rows(&room) {
                self.cell_regions[row].fill(region);
            }
            let (x, w) = (room.x as usize, room.width as usize);
            for y in room.y as usize..(room.y + room.height) as usize {
                self.open[y * width + x..y * width + x + w].fill(1);
            }
        }
    }
}
