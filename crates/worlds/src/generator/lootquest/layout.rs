//! The grid the steps carve, and where a side's door may be.

use super::SIDES;
use crate::generator::RoomRect;

/// The grid being carved: 1 for open tiles, 0 for rock, a byte a tile, row-major.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) open: Vec<u8>,
}

/// Unit steps of the four sides: up (+y), right, down, left.
pub(super) const STEPS: [(i32, i32); SIDES] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl Layout {
    pub(super) fn new(width: usize, height: usize) -> Layout {
        Layout {
            width,
            height,
            open: vec![0; width * height],
        }
    }

    pub(super) fn idx(&self, x: i32, y: i32) -> usize {
        y as usize * self.width + x as usize
    }

    /// Whether `(x, y)` is inside the world, off its border.
    pub(super) fn inner(&self, x: i32, y: i32) -> bool {
        x >= 1 && y >= 1 && (x as usize) + 1 < self.width && (y as usize) + 1 < self.height
    }

    pub(super) fn is_open(&self, x: i32, y: i32) -> bool {
        self.open[self.idx(x, y)] != 0
    }

    /// Whether room `r` and its ring of wall lie inside the world and hold no open tile.
    pub(super) fn room_free(&self, r: &RoomRect) -> bool {
        if !(self.inner(r.x, r.y) && self.inner(r.x + r.width - 1, r.y + r.height - 1)) {
            return false;
        }
        (r.y - 1..=r.y + r.height).all(|y| (r.x - 1..=r.x + r.width).all(|x| !self.is_open(x, y)))
    }

    /// Whether a corridor of `len` tiles from `(x, y)` towards `side` lies off the border,
    /// on rock, with rock on both hands.
    pub(super) fn corridor_free(&self, (x, y): (i32, i32), side: usize, len: u32) -> bool {
        let (dx, dy) = STEPS[side];
        (0..len as i32).all(|k| {
            let (cx, cy) = (x + dx * k, y + dy * k);
            self.inner(cx, cy)
                && !self.is_open(cx, cy)
                && !self.is_open(cx + dy, cy + dx)
                && !self.is_open(cx - dy, cy - dx)
        })
    }

    pub(super) fn carve_room(&mut self, r: &RoomRect) {
        for y in r.y..r.y + r.height {
            let start = self.idx(r.x, y);
            self.open[start..start + r.width as usize].fill(1);
        }
    }

    pub(super) fn carve_corridor(&mut self, (x, y): (i32, i32), side: usize, len: u32) {
        let (dx, dy) = STEPS[side];
        for k in 0..len as i32 {
            let i = self.idx(x + dx * k, y + dy * k);
            self.open[i] = 1;
        }
    }
}

/// The offsets along a side of `len` tiles where a door may be: the middle, `(len − 3) / 2`
/// tiles clear of each corner, so cutting corners ([`shape_rooms`]) never cuts a door.
pub(super) fn door_zone(len: i32) -> (i32, i32) {
    let lo = (len - 3) / 2;
    (lo, len - 1 - lo)
}
