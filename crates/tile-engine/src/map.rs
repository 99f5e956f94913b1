//! The map seam: the two questions every algorithm over a tile map asks — can the avatar
//! stand here, does this tile stop sight — behind one trait, after bracket-lib's
//! `BaseMap`/`Algorithm2D`. Metrics, searches ([`super::search`]), the game's rules, field of
//! view and the multi-room exploration map are all written against [`Map`], never against a
//! concrete grid, so a new kind of map gets every algorithm at once.

use super::geometry::{Pos, Rect};
use super::tileset::Tile;
use super::world::World;

/// A rectangular map of tiles, `width × height`, `(0, 0)` at the bottom-left, y up.
///
/// Positions outside `0..width × 0..height` are closed: not walkable, and they block sight.
pub trait Map {
    /// Width in tiles.
    fn width(&self) -> usize;

    /// Height in tiles.
    fn height(&self) -> usize;

    /// Whether the avatar can stand on `pos` (false outside the map).
    fn is_walkable(&self, pos: Pos) -> bool;

    /// Whether `pos` stops sight (true outside the map).
    fn blocks_sight(&self, pos: Pos) -> bool;

    /// Whether `pos` lies inside the map.
    fn contains(&self, pos: Pos) -> bool {
        pos.x >= 0
            && pos.y >= 0
            && (pos.x as usize) < self.width()
            && (pos.y as usize) < self.height()
    }

    /// The whole map as a rectangle at `(0, 0)`.
    fn bounds(&self) -> Rect {
        Rect::of_size(self.width(), self.height())
    }

    /// Writes whether each tile of row `y` is walkable into `out` (`out.len() == width`).
    /// Searches build their masks a row at a time through this; a map stored as a grid
    /// overrides it with a straight loop.
    fn walkable_row(&self, y: usize, out: &mut [bool]) {
        for (x, o) in out.iter_mut().enumerate() {
            *o = self.is_walkable(Pos::new(x as i32, y as i32));
        }
    }
}

impl Map for World {
    fn width(&self) -> usize {
        World::width(self)
    }

    fn height(&self) -> usize {
        World::height(self)
    }

    /// [`Tile::is_walkable`] of the tile.
    fn is_walkable(&self, pos: Pos) -> bool {
        self.get(pos).is_some_and(Tile::is_walkable)
    }

    /// [`Tile::blocks_sight`] of the tile.
    fn blocks_sight(&self, pos: Pos) -> bool {
        self.get(pos).is_none_or(Tile::blocks_sight)
    }

    fn contains(&self, pos: Pos) -> bool {
        World::contains(self, pos)
    }

    fn walkable_row(&self, y: usize, out: &mut [bool]) {
        let w = World::width(self);
        for (o, t) in out.iter_mut().zip(&self.tiles()[y * w..(y + 1) * w]) {
            *o = t.is_walkable();
        }
    }
}
