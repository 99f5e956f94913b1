//! Step 1: place random rooms (Nystrom 2014, Hauberk `_addRooms`).

use rand::{Rng, RngExt};

use super::{Carver, GeneratorSettings, ROCK, Room};

impl Carver {
    /// Tries `room_tries_per_1000_tiles × area / 1000` (at least 1) times to place a room of
    /// odd size at odd coordinates; a room that would overlap a placed one is dropped. The
    /// overlap test reads the room's own tiles on the grid, so a try costs the room's area,
    /// not the number of rooms. Rooms at odd positions with odd sides always keep at least
    /// one rock tile between them.
    ///
    /// If no try succeeded (a tiny world), one 3 × 3 room is placed at a random odd position,
    /// so every world has at least one room and generation never fails for lack of one.
    ///
    /// Each room gets its own region. Returns the rooms in placement order.
    pub fn add_rooms<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        settings: &GeneratorSettings,
    ) -> Vec<Room> {
        let area = (self.area_width * self.area_height) as u64;
        let tries = (area * u64::from(settings.room_tries_per_1000_tiles) / 1000).max(1);
        let (aw, ah) = (self.area_width as u32, self.area_height as u32);
        let mut rooms = Vec::new();
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
            let room = Room {
                x: x as i32,
                y: y as i32,
                width: width as i32,
                height: height as i32,
            };
            if self.is_rock(&room) {
                self.carve_room(&room);
                rooms.push(room);
            }
        }
        if rooms.is_empty() {
            let x = rng.random_range(0..(aw - 3) / 2) * 2 + 1;
            let y = rng.random_range(0..(ah - 3) / 2) * 2 + 1;
            let room = Room {
                x: x as i32,
                y: y as i32,
                width: 3,
                height: 3,
            };
            self.carve_room(&room);
            rooms.push(room);
        }
        rooms
    }

    fn room_rows(&self, room: &Room) -> impl Iterator<Item = std::ops::Range<usize>> + use<> {
        let (x, w, width) = (room.x as usize, room.width as usize, self.width);
        (room.y as usize..(room.y + room.height) as usize)
            .map(move |y| y * width + x..y * width + x + w)
    }

    fn is_rock(&self, room: &Room) -> bool {
        self.room_rows(room)
            .all(|row| self.regions[row].iter().all(|&r| r == ROCK))
    }

    fn carve_room(&mut self, room: &Room) {
        let region = self.start_region();
        for row in self.room_rows(room) {
            self.regions[row].fill(region);
        }
    }
}
