//! Integer tile geometry: positions ([`Pos`]), the four directions ([`Direction`]) and
//! rectangles ([`Rect`]). Everything is in tiles, `x` to the right and `y` up, `(0, 0)` the
//! bottom-left tile (the sp18 skeleton's convention); no floating point anywhere, so geometry
//! is the same on every platform (`docs/worlds.md`).

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A tile position in tiles: `x` to the right, `y` up, `(0, 0)` the bottom-left tile.
///
/// `pos + dir` is the neighbouring tile in a [`Direction`]; `a - b` is the offset between
/// two positions.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Pos {
    /// Column, in tiles from the left edge.
    pub x: i32,
    /// Row, in tiles from the bottom edge.
    pub y: i32,
}

impl Pos {
    /// The position `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Self {
        Pos { x, y }
    }

    /// This position moved by `(dx, dy)` tiles.
    pub const fn offset(self, dx: i32, dy: i32) -> Self {
        Pos::new(self.x + dx, self.y + dy)
    }

    /// The four cardinal neighbours, in [`Direction::ALL`] order (up, right, down, left).
    pub fn neighbours(self) -> [Pos; 4] {
        Direction::ALL.map(|d| self + d)
    }

    /// Manhattan (taxicab) distance in tiles: the fewest single steps between two tiles on
    /// an open grid.
    pub fn manhattan(self, other: Pos) -> u32 {
        self.x.abs_diff(other.x) + self.y.abs_diff(other.y)
    }

    /// Chebyshev (king's move) distance in tiles: the larger of the two axis distances, so
    /// the tiles within `r` of a tile fill the `(2r + 1)`-wide square around it (diagonals
    /// count as one).
    pub fn chebyshev(self, other: Pos) -> u32 {
        self.x.abs_diff(other.x).max(self.y.abs_diff(other.y))
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl Add<Direction> for Pos {
    type Output = Pos;

    /// The neighbouring tile in `dir`.
    fn add(self, dir: Direction) -> Pos {
        let (dx, dy) = dir.delta();
        self.offset(dx, dy)
    }
}

impl AddAssign<Direction> for Pos {
    fn add_assign(&mut self, dir: Direction) {
        *self = *self + dir;
    }
}

impl Sub for Pos {
    type Output = (i32, i32);

    /// The offset `(dx, dy)` from `other` to `self`, in tiles.
    fn sub(self, other: Pos) -> (i32, i32) {
        (self.x - other.x, self.y - other.y)
    }
}

/// One of the four cardinal directions; up is +y.
///
/// [`Direction::ALL`] fixes the order every search visits neighbours in (up, right, down,
/// left), which is also the generator's, so ties break the same way everywhere.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Direction {
    /// +y (`W`).
    Up,
    /// +x (`D`).
    Right,
    /// −y (`S`).
    Down,
    /// −x (`A`).
    Left,
}

impl Direction {
    /// All four, in the order neighbours are visited: up, right, down, left.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Right,
        Direction::Down,
        Direction::Left,
    ];

    /// `(dx, dy)` in tiles.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::Up => (0, 1),
            Direction::Right => (1, 0),
            Direction::Down => (0, -1),
            Direction::Left => (-1, 0),
        }
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Right => Direction::Left,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
        }
    }

    /// The direction's 0-based index in [`Direction::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case English name: "up", "right", "down", "left".
    pub const fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Right => "right",
            Direction::Down => "down",
            Direction::Left => "left",
        }
    }
}

/// A rectangle of tiles: `width × height` tiles whose bottom-left tile is `(x, y)`.
/// Sides are never negative; an empty rectangle has a side of 0.
#[derive(
    Debug,
    Default,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Rect {
    /// Left column, in tiles.
    pub x: i32,
    /// Bottom row, in tiles.
    pub y: i32,
    /// Width in tiles.
    pub width: i32,
    /// Height in tiles.
    pub height: i32,
}

impl Rect {
    /// The rectangle with bottom-left tile `(x, y)` and the given size in tiles (a negative
    /// side is taken as 0).
    pub const fn new(x: i32, y: i32, width: i32, height: i32) -> Self {
        Rect {
            x,
            y,
            width: if width < 0 { 0 } else { width },
            height: if height < 0 { 0 } else { height },
        }
    }

    /// The `width × height` rectangle at the origin (a whole world).
    pub fn of_size(width: usize, height: usize) -> Self {
        Rect::new(0, 0, width as i32, height as i32)
    }

    /// The column just right of the rectangle (`x + width`).
    pub const fn right(&self) -> i32 {
        self.x + self.width
    }

    /// The row just above the rectangle (`y + height`).
    pub const fn top(&self) -> i32 {
        self.y + self.height
    }

    /// Area in tiles.
    pub const fn area(&self) -> u64 {
        self.width as u64 * self.height as u64
    }

    /// Whether the rectangle holds no tile.
    pub const fn is_empty(&self) -> bool {
        self.width == 0 || self.height == 0
    }

    /// Whether `pos` lies inside.
    pub const fn contains(&self, pos: Pos) -> bool {
        pos.x >= self.x && pos.x < self.right() && pos.y >= self.y && pos.y < self.top()
    }

    /// The tiles both rectangles hold (empty, at `self`'s corner, when they do not meet).
    pub fn intersection(&self, other: &Rect) -> Rect {
        let x = self.x.max(other.x);
        let y = self.y.max(other.y);
        let right = self.right().min(other.right());
        let top = self.top().min(other.top());
        if right <= x || top <= y {
            return Rect::new(self.x, self.y, 0, 0);
        }
        Rect::new(x, y, right - x, top - y)
    }

    /// Every tile, row by row from the bottom row, each row left to right (the world's
    /// storage order).
    pub fn positions(&self) -> impl Iterator<Item = Pos> + use<> {
        let r = *self;
        (r.y..r.top()).flat_map(move |y| (r.x..r.right()).map(move |x| Pos::new(x, y)))
    }
}

impl fmt::Display for Rect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} × {} at ({}, {})",
            self.width, self.height, self.x, self.y
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_step_and_reverse() {
        let p = Pos::new(3, 4);
        assert_eq!(p + Direction::Up, Pos::new(3, 5));
        assert_eq!(p + Direction::Right, Pos::new(4, 4));
        assert_eq!(p + Direction::Down, Pos::new(3, 3));
        assert_eq!(p + Direction::Left, Pos::new(2, 4));
        for d in Direction::ALL {
            assert_eq!(p + d + d.opposite(), p);
            assert_eq!(Direction::ALL[d.index()], d);
            assert_eq!((p + d).manhattan(p), 1);
        }
        assert_eq!(p.neighbours()[0], Pos::new(3, 5));
        assert_eq!(Pos::new(5, 1) - Pos::new(2, 3), (3, -2));
        assert_eq!(Pos::new(5, 1).chebyshev(Pos::new(2, 3)), 3);
        assert_eq!(Pos::new(2, 3).chebyshev(Pos::new(3, 4)), 1);
        assert_eq!(Pos::new(-4, 0).chebyshev(Pos::new(-4, -6)), 6);
    }

    #[test]
    fn rect_contains_intersects_and_lists_in_storage_order() {
        let r = Rect::new(1, 2, 3, 2);
        assert!(r.contains(Pos::new(1, 2)) && r.contains(Pos::new(3, 3)));
        assert!(!r.contains(Pos::new(4, 2)) && !r.contains(Pos::new(1, 4)));
        let tiles: Vec<Pos> = r.positions().collect();
        assert_eq!(tiles.len() as u64, r.area());
        assert_eq!(tiles[0], Pos::new(1, 2));
        assert_eq!(tiles[3], Pos::new(1, 3));
        assert_eq!(
            r.intersection(&Rect::new(2, 0, 10, 3)),
            Rect::new(2, 2, 2, 1)
        );
        assert!(r.intersection(&Rect::new(10, 10, 2, 2)).is_empty());
        assert!(Rect::new(0, 0, -3, 2).is_empty());
    }
}
