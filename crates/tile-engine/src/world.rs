//! The world grid: `width × height` compact [`Tile`] ids, `(0, 0)` at the bottom-left, y up
//! (the Java skeleton's `TETile[width][height]`, stored row-major at 1 byte per tile).

use std::fmt;

use super::geometry::{Pos, Rect};
use super::tetile::TETile;
use super::tileset::Tile;

/// A grid of tiles. Storage is `width × height` bytes, row-major from the bottom row
/// (index `y * width + x`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct World {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
}

impl World {
    /// The empty world: 0 × 0 tiles.
    pub const EMPTY: World = World {
        width: 0,
        height: 0,
        tiles: Vec::new(),
    };

    /// A world of `width × height` tiles, all [`Tile::Nothing`].
    pub fn new(width: usize, height: usize) -> Self {
        World::filled(width, height, Tile::Nothing)
    }

    /// A world of `width × height` tiles, all `tile`.
    pub fn filled(width: usize, height: usize, tile: Tile) -> Self {
        World {
            width,
            height,
            tiles: vec![tile; width * height],
        }
    }

    /// A world from its row-major tiles (bottom row first); `None` when
    /// `tiles.len() != width * height`.
    pub fn from_tiles(width: usize, height: usize, tiles: Vec<Tile>) -> Option<Self> {
        (width.checked_mul(height) == Some(tiles.len())).then_some(World {
            width,
            height,
            tiles,
        })
    }

    /// Width in tiles.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in tiles.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The whole world as a rectangle: `width × height` tiles at `(0, 0)`.
    pub fn rect(&self) -> Rect {
        Rect::of_size(self.width, self.height)
    }

    /// Whether `pos` lies inside the world.
    pub fn contains(&self, pos: Pos) -> bool {
        pos.x >= 0 && pos.y >= 0 && (pos.x as usize) < self.width && (pos.y as usize) < self.height
    }

    /// The row-major index of `pos` (which must be inside the world).
    pub fn index(&self, pos: Pos) -> usize {
        pos.y as usize * self.width + pos.x as usize
    }

    /// The position of a row-major index.
    pub fn pos_of(&self, index: usize) -> Pos {
        Pos::new((index % self.width) as i32, (index / self.width) as i32)
    }

    /// The row-major index of `pos`, or `None` outside the world.
    #[inline]
    pub fn checked_index(&self, pos: Pos) -> Option<usize> {
        self.contains(pos).then(|| self.index(pos))
    }

    /// The tile at `pos`, or `None` outside the world.
    pub fn get(&self, pos: Pos) -> Option<Tile> {
        self.checked_index(pos).map(|i| self.tiles[i])
    }

    /// The tile at `pos`, [`Tile::Nothing`] outside the world.
    pub fn tile(&self, pos: Pos) -> Tile {
        self.get(pos).unwrap_or(Tile::Nothing)
    }

    /// Sets the tile at `pos`; positions outside the world are ignored.
    pub fn set(&mut self, pos: Pos, tile: Tile) {
        if self.contains(pos) {
            let i = self.index(pos);
            self.tiles[i] = tile;
        }
    }

    /// All tiles, row-major from the bottom row.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// All tiles, mutable, row-major from the bottom row.
    pub fn tiles_mut(&mut self) -> &mut [Tile] {
        &mut self.tiles
    }

    /// The positions of every tile equal to `tile`, in row-major order.
    pub fn positions_of(&self, tile: Tile) -> impl Iterator<Item = Pos> + '_ {
        self.tiles
            .iter()
            .enumerate()
            .filter(move |(_, t)| **t == tile)
            .map(|(i, _)| self.pos_of(i))
    }

    /// Number of tiles equal to `tile`.
    pub fn count(&self, tile: Tile) -> usize {
        self.tiles.iter().filter(|t| **t == tile).count()
    }

    /// Parses the text form ([`TETile::to_string`](super::TETile::to_string)) back into a world;
    /// `None` when rows differ in length or a character is not a [`Tile`].
    pub fn from_text(text: &str) -> Option<World> {
        let rows: Vec<&str> = text.lines().collect();
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.chars().count());
        let mut world = World::new(width, height);
        for (row, line) in rows.iter().enumerate() {
            let y = (height - 1 - row) as i32;
            let mut n = 0;
            for (x, c) in line.chars().enumerate() {
                world.set(Pos::new(x as i32, y), Tile::from_char(c)?);
                n += 1;
            }
            if n != width {
                return None;
            }
        }
        Some(world)
    }
}

impl fmt::Display for World {
    /// Java `TETile.toString(world)`: rows from the top (`y = height - 1`) down, each ended by
    /// `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = String::with_capacity(self.width * 3 + 1);
        for row in self.tiles.chunks(self.width.max(1)).rev() {
            line.clear();
            line.extend(row.iter().map(|t| t.character()));
            line.push('\n');
            f.write_str(&line)?;
        }
        Ok(())
    }
}

/// Java's static helpers of `TETile` that take a world. They live with the world (the tile
/// knows no world; the world is made of tiles).
impl TETile {
    #[cfg(feature = "java-parity")]
    /// Java `TETile.copyOf(world)`: an independent copy of the world.
    pub fn copy_of(world: &World) -> World {
        world.clone()
    }

    /// Java `TETile.toString(world)`: rows from `y = height - 1` down to `y = 0`, each row the
    /// characters of `x = 0..width`, every row (the last included) ended by `\n`.
    ///
    /// This is the text form used by `byog replay`, `byog gen` and the snapshots.
    pub fn to_string(world: &World) -> String {
        world.to_string()
    }
}
