//! Room plots: the tiles of an exploration. The dungeon's rooms sit on a grid of plots of
//! [`PLOT`] × [`PLOT`] tiles; plot `(rx, ry)` covers the dungeon tiles `rx·PLOT ..
//! rx·PLOT + PLOT` by `ry·PLOT .. ry·PLOT + PLOT` (y up, as everywhere), so the start room's
//! plot holds the dungeon tiles `0..13 × 0..13`.
//!
//! A room's tiles are a pure function of its [`Shape`]: a rectangle of floor that always
//! holds the plot's centre `(MID, MID)`, its ring of wall, and a straight corridor from the
//! room to the middle of each side that has an exit (or that a neighbour's one-way exit comes
//! in through), walled on both hands. Corridors of neighbouring plots meet at the plot border,
//! so an exit is crossed by stepping from one plot's last corridor tile (its *edge tile*) to
//! the next one's. Nothing but the shape is stored: 5 bytes a room, never a grid.

use serde::{Deserialize, Serialize};

use super::{Direction, RoomPos};
use byog_tile_engine::fov::Opacity;
use byog_tile_engine::{Pos, Rect, Tile};

/// A room plot's side, in tiles (odd, so a side has a middle tile). 13 lets two rooms and
/// their corridors show on an 80 × 30 screen at once; a larger plot makes roomier rooms and
/// longer corridors.
pub const PLOT: i32 = 13;
/// The middle tile of a plot's side, and the plot's centre `(MID, MID)`: where corridors run.
pub const MID: i32 = PLOT / 2;
/// Tiles a room's floor may span at most, either way: the plot less the two edge tiles the
/// corridors end on and the two rings of wall.
pub const MAX_ROOM_SIDE: u8 = (PLOT - 4) as u8;
/// Tiles a room's floor spans at least, either way: 3, so a room holds floor off its central
/// cross for features.
pub const MIN_ROOM_SIDE: u8 = 3;

/// The start room's way up (walking into it ends the exploration and banks the score),
/// in the start plot's tiles: off the central cross, so every corridor stays straight.
pub const WAY_UP: Pos = Pos::new(MID - 2, MID + 2);

/// A room's tiles inside its plot: its floor rectangle and which sides have corridors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shape {
    /// The floor's left column, in the plot's tiles (`2..=MID`).
    pub x: u8,
    /// The floor's bottom row, in the plot's tiles (`2..=MID`).
    pub y: u8,
    /// The floor's width in tiles ([`MIN_ROOM_SIDE`]..=[`MAX_ROOM_SIDE`]).
    pub width: u8,
    /// The floor's height in tiles.
    pub height: u8,
    /// Bit [`Direction::index`] set: a corridor runs from the room to that side's middle.
    pub corridors: u8,
}

impl Shape {
    /// The start room: a 7 × 7 floor around the centre, corridors on all four sides.
    pub const START: Shape = Shape {
        x: (MID - 3) as u8,
        y: (MID - 3) as u8,
        width: 7,
        height: 7,
        corridors: 0b1111,
    };

    /// Whether a corridor runs to side `dir`.
    pub const fn has_corridor(self, dir: Direction) -> bool {
        self.corridors & (1 << dir.index()) != 0
    }

    /// Whether the shape is one a room can have: the floor inside the walls, holding the
    /// centre, at least 3 tiles either way. A loaded save is checked with it.
    pub fn is_valid(self) -> bool {
        let ok = |at: u8, len: u8| {
            (MIN_ROOM_SIDE..=MAX_ROOM_SIDE).contains(&len)
                && at >= 2
                && i32::from(at) <= MID
                && i32::from(at) + i32::from(len) > MID
                && i32::from(at) + i32::from(len) <= PLOT - 2
        };
        ok(self.x, self.width) && ok(self.y, self.height) && self.corridors < 16
    }

    /// Whether the plot tile `(tx, ty)` is the room's floor (not a corridor).
    pub fn is_room_floor(self, tx: i32, ty: i32) -> bool {
        let (x0, y0) = (i32::from(self.x), i32::from(self.y));
        (x0..x0 + i32::from(self.width)).contains(&tx)
            && (y0..y0 + i32::from(self.height)).contains(&ty)
    }

    /// The floor's last column and row, inclusive.
    const fn far_corner(self) -> (i32, i32) {
        (
            self.x as i32 + self.width as i32 - 1,
            self.y as i32 + self.height as i32 - 1,
        )
    }

    /// Whether plot tile `(tx, ty)` is on a corridor's middle line, past the room.
    fn is_corridor_floor(self, tx: i32, ty: i32) -> bool {
        let (x0, y0) = (i32::from(self.x), i32::from(self.y));
        let (x1, y1) = self.far_corner();
        (tx == MID && ty > y1 && self.has_corridor(Direction::Up))
            || (tx == MID && ty < y0 && self.has_corridor(Direction::Down))
            || (ty == MID && tx > x1 && self.has_corridor(Direction::Right))
            || (ty == MID && tx < x0 && self.has_corridor(Direction::Left))
    }

    /// Whether plot tile `(tx, ty)` is a wall beside a corridor, past the room.
    fn is_corridor_wall(self, tx: i32, ty: i32) -> bool {
        let (x0, y0) = (i32::from(self.x), i32::from(self.y));
        let (x1, y1) = self.far_corner();
        let beside_column = (tx - MID).abs() == 1;
        let beside_row = (ty - MID).abs() == 1;
        (beside_column && ty > y1 && self.has_corridor(Direction::Up))
            || (beside_column && ty < y0 && self.has_corridor(Direction::Down))
            || (beside_row && tx > x1 && self.has_corridor(Direction::Right))
            || (beside_row && tx < x0 && self.has_corridor(Direction::Left))
    }

    /// Draws the room's terrain, its plot's bottom-left tile at `corner`, into `out`: the
    /// tiles of `area` (in the same coordinates), row-major from its bottom row. Only the
    /// room's own tiles are written (NOTHING is left as it was). Filled a rectangle at a time,
    /// clipped to `area`: walls (the ring, the corridors' sides), then floors (the room, the
    /// corridors), so a doorway in the ring is floor.
    pub fn fill(self, corner: Pos, area: Rect, out: &mut [Tile]) {
        let mut fill = |x0: i32, y0: i32, x1: i32, y1: i32, t: Tile| {
            let r = Rect::new(corner.x + x0, corner.y + y0, x1 - x0 + 1, y1 - y0 + 1)
                .intersection(&area);
            for y in r.y..r.top() {
                let row = ((y - area.y) * area.width + (r.x - area.x)) as usize;
                out[row..row + r.width as usize].fill(t);
            }
        };
        let (x0, y0) = (i32::from(self.x), i32::from(self.y));
        let (x1, y1) = self.far_corner();
        let last = PLOT - 1;
        // The corridor to each side as its floor line, from the room to the edge.
        let lines = [
            (Direction::Up, (MID, y1 + 1, MID, last)),
            (Direction::Right, (x1 + 1, MID, last, MID)),
            (Direction::Down, (MID, 0, MID, y0 - 1)),
            (Direction::Left, (0, MID, x0 - 1, MID)),
        ];
        fill(x0 - 1, y0 - 1, x1 + 1, y1 + 1, Tile::Wall);
        for (dir, (a, b, c, d)) in lines {
            if self.has_corridor(dir) {
                // The walls beside the floor line: one tile either side, across it.
                let (dx, dy) = if a == c { (1, 0) } else { (0, 1) };
                fill(a - dx, b - dy, c - dx, d - dy, Tile::Wall);
                fill(a + dx, b + dy, c + dx, d + dy, Tile::Wall);
            }
        }
        fill(x0, y0, x1, y1, Tile::Floor);
        for (dir, (a, b, c, d)) in lines {
            if self.has_corridor(dir) {
                fill(a, b, c, d, Tile::Floor);
            }
        }
    }

    /// Lets light through the room's floor (the room and its corridors), its plot's
    /// bottom-left tile at `corner`, in `patch`, which holds the tiles of `area` (in the same
    /// coordinates) and blocks sight elsewhere: what [`Shape::fill`] paints, as sight sees it
    /// (floor lets light through, wall does not), a rectangle at a time.
    pub fn light_floor(self, corner: Pos, area: Rect, patch: &mut Opacity) {
        let mut light = |x0: i32, y0: i32, x1: i32, y1: i32| {
            let r = Rect::new(corner.x + x0, corner.y + y0, x1 - x0 + 1, y1 - y0 + 1)
                .intersection(&area);
            let (i0, i1) = ((r.x - area.x) as usize, (r.right() - area.x) as usize);
            for y in r.y..r.top() {
                patch.set_run((y - area.y) as usize, i0, i1, false);
            }
        };
        let (x0, y0) = (i32::from(self.x), i32::from(self.y));
        let (x1, y1) = self.far_corner();
        let last = PLOT - 1;
        light(x0, y0, x1, y1);
        let lines = [
            (Direction::Up, (MID, y1 + 1, MID, last)),
            (Direction::Right, (x1 + 1, MID, last, MID)),
            (Direction::Down, (MID, 0, MID, y0 - 1)),
            (Direction::Left, (0, MID, x0 - 1, MID)),
        ];
        for (dir, (a, b, c, d)) in lines {
            if self.has_corridor(dir) {
                light(a, b, c, d);
            }
        }
    }

    /// The terrain of plot tile `(tx, ty)` (each in `0..PLOT`): FLOOR on the room and its
    /// corridors, WALL on the ring around the room and beside the corridors, NOTHING
    /// elsewhere.
    pub fn tile(self, tx: i32, ty: i32) -> Tile {
        let (x0, y0) = (i32::from(self.x), i32::from(self.y));
        let (x1, y1) = self.far_corner();
        if self.is_room_floor(tx, ty) || self.is_corridor_floor(tx, ty) {
            Tile::Floor
        } else if ((x0 - 1..=x1 + 1).contains(&tx) && (y0 - 1..=y1 + 1).contains(&ty))
            || self.is_corridor_wall(tx, ty)
        {
            Tile::Wall
        } else {
            Tile::Nothing
        }
    }
}

/// The plot holding dungeon tile `p`.
pub const fn plot_of(p: Pos) -> RoomPos {
    RoomPos::new(p.x.div_euclid(PLOT), p.y.div_euclid(PLOT))
}

/// Dungeon tile `p` in its plot's tiles, each in `0..PLOT`.
pub const fn in_plot(p: Pos) -> (i32, i32) {
    (p.x.rem_euclid(PLOT), p.y.rem_euclid(PLOT))
}

/// The dungeon tile of plot `plot`'s tile `(tx, ty)`.
pub const fn tile_of(plot: RoomPos, tx: i32, ty: i32) -> Pos {
    Pos::new(plot.x * PLOT + tx, plot.y * PLOT + ty)
}

/// A plot's edge tile on side `dir`, in the plot's tiles: the last tile of the corridor to
/// that side, where its exit is drawn and crossed.
pub const fn edge(dir: Direction) -> (i32, i32) {
    match dir {
        Direction::Up => (MID, PLOT - 1),
        Direction::Right => (PLOT - 1, MID),
        Direction::Down => (MID, 0),
        Direction::Left => (0, MID),
    }
}

/// The one-way exit tile pointing `dir` (the way it can be walked).
pub const fn one_way_tile(dir: Direction) -> Tile {
    match dir {
        Direction::Up => Tile::OneWayUp,
        Direction::Right => Tile::OneWayRight,
        Direction::Down => Tile::OneWayDown,
        Direction::Left => Tile::OneWayLeft,
    }
}

/// What a room's avatar has seen and stood on, a bit per plot tile (row-major from the
/// plot's bottom-left): 2 × 24 bytes a room.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Memory {
    /// Tiles seen (the memory drawn dimmed out of sight).
    pub seen: [u64; 3],
    /// Tiles stood on (each looked around from once).
    pub visited: [u64; 3],
}

const _: () = assert!((PLOT * PLOT) as usize <= 3 * 64);

impl Memory {
    const fn bit(tx: i32, ty: i32) -> (usize, u64) {
        let i = (ty * PLOT + tx) as usize;
        (i / 64, 1 << (i % 64))
    }

    /// Whether plot tile `(tx, ty)` was seen.
    pub const fn has_seen(&self, tx: i32, ty: i32) -> bool {
        let (w, b) = Memory::bit(tx, ty);
        self.seen[w] & b != 0
    }

    /// Marks plot tile `(tx, ty)` seen.
    pub fn see(&mut self, tx: i32, ty: i32) {
        let (w, b) = Memory::bit(tx, ty);
        self.seen[w] |= b;
    }

    /// Marks seen the tiles of row `ty` from column `tx` on where `bits` is set (bit `k` for
    /// tile `tx + k`; none past the row's end).
    pub fn see_run(&mut self, tx: i32, ty: i32, bits: u32) {
        debug_assert!(tx + (32 - bits.leading_zeros() as i32) <= PLOT);
        let i = (ty * PLOT + tx) as usize;
        let (w, at) = (i / 64, i % 64);
        let bits = u128::from(bits) << at;
        self.seen[w] |= bits as u64;
        if let Some(next) = self.seen.get_mut(w + 1) {
            *next |= (bits >> 64) as u64;
        }
    }

    /// Marks every tile `other` saw as seen.
    pub fn see_all(&mut self, other: &Memory) {
        for (a, b) in self.seen.iter_mut().zip(other.seen) {
            *a |= b;
        }
    }

    /// Marks plot tile `(tx, ty)` stood on; whether it was the first time.
    pub fn visit(&mut self, tx: i32, ty: i32) -> bool {
        let (w, b) = Memory::bit(tx, ty);
        let first = self.visited[w] & b == 0;
        self.visited[w] |= b;
        first
    }

    /// Whether every bit lies inside the plot (a loaded save is checked with it).
    pub fn is_valid(&self) -> bool {
        let used = (PLOT * PLOT) as u32 - 128;
        let spare = !((1u64 << used) - 1);
        self.seen[2] & spare == 0 && self.visited[2] & spare == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slow reference: the room's floor, its corridors and the walls 8-next to any floor.
    fn reference(shape: Shape, tx: i32, ty: i32) -> Tile {
        let floor = |x: i32, y: i32| {
            if !(0..PLOT).contains(&x) || !(0..PLOT).contains(&y) {
                return false;
            }
            shape.is_room_floor(x, y)
                || Direction::ALL.into_iter().any(|d| {
                    shape.has_corridor(d) && {
                        let (ex, ey) = edge(d);
                        // The corridor: the middle line from the centre out to the edge.
                        if ex == MID {
                            x == MID && (y - MID).signum() == (ey - MID).signum()
                        } else {
                            y == MID && (x - MID).signum() == (ex - MID).signum()
                        }
                    }
                })
        };
        if floor(tx, ty) {
            Tile::Floor
        } else if (-1..=1).any(|dx| (-1..=1).any(|dy| floor(tx + dx, ty + dy))) {
            Tile::Wall
        } else {
            Tile::Nothing
        }
    }

    #[test]
    fn tiles_match_a_slow_reference_for_every_shape() {
        let mut n = 0;
        for w in MIN_ROOM_SIDE..=MAX_ROOM_SIDE {
            for h in MIN_ROOM_SIDE..=MAX_ROOM_SIDE {
                for x in 2..=MID as u8 {
                    for y in 2..=MID as u8 {
                        for corridors in 0..16 {
                            let s = Shape {
                                x,
                                y,
                                width: w,
                                height: h,
                                corridors,
                            };
                            if !s.is_valid() {
                                continue;
                            }
                            n += 1;
                            let mut all = [Tile::Nothing; (PLOT * PLOT) as usize];
                            s.fill(Pos::new(0, 0), Rect::new(0, 0, PLOT, PLOT), &mut all);
                            for tx in 0..PLOT {
                                for ty in 0..PLOT {
                                    let want = reference(s, tx, ty);
                                    assert_eq!(s.tile(tx, ty), want, "{s:?} at ({tx}, {ty})");
                                    assert_eq!(
                                        all[(ty * PLOT + tx) as usize],
                                        want,
                                        "fill() of {s:?} at ({tx}, {ty})"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(n > 1000, "{n} shapes");
    }

    #[test]
    fn corridors_end_on_the_edge_tiles_and_the_start_is_valid() {
        assert!(Shape::START.is_valid());
        for d in Direction::ALL {
            let (ex, ey) = edge(d);
            assert_eq!(Shape::START.tile(ex, ey), Tile::Floor);
            let closed = Shape {
                corridors: Shape::START.corridors & !(1 << d.index()),
                ..Shape::START
            };
            assert_eq!(closed.tile(ex, ey), Tile::Nothing);
        }
        assert_eq!(Shape::START.tile(WAY_UP.x, WAY_UP.y), Tile::Floor);
        assert_ne!(WAY_UP.x, MID);
        assert_ne!(WAY_UP.y, MID);
    }

    #[test]
    fn slots_and_tiles_convert_both_ways() {
        for x in -40..40 {
            for y in -40..40 {
                let p = Pos::new(x, y);
                let (tx, ty) = in_plot(p);
                assert_eq!(tile_of(plot_of(p), tx, ty), p);
            }
        }
        assert_eq!(plot_of(Pos::new(-1, 0)), RoomPos::new(-1, 0));
        assert_eq!(plot_of(Pos::new(12, 13)), RoomPos::new(0, 1));
    }

    #[test]
    fn memory_bits_cover_the_slot() {
        let mut m = Memory::default();
        for tx in 0..PLOT {
            for ty in 0..PLOT {
                assert!(!m.has_seen(tx, ty));
                m.see(tx, ty);
                assert!(m.has_seen(tx, ty));
                assert!(m.visit(tx, ty));
                assert!(!m.visit(tx, ty));
            }
        }
        assert!(m.is_valid());
        m.seen[2] |= 1 << 63;
        assert!(!m.is_valid());
    }
}
