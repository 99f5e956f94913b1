//! byog's tile engine (Java package `byog.TileEngine`): tiles ([`TETile`]), the tile set
//! ([`Tileset`], [`Tile`]), the world grid ([`World`], one byte a tile), integer
//! [`geometry`], the [`Map`] seam and the one [`search`] module, field of view ([`fov`]), the
//! [`camera`], the [`minimap`], box walls ([`autotile`]), cell [`layout`] (the arithmetic the
//! window and the software rasteriser, `byog-raster`, share), the rules for writing over a
//! path byog may not have made ([`files`]: saves, PNGs and screenshots) and Java's
//! `RandomUtils`.
//!
//! The engine holds content: besides the sp18 tiles, [`Tile`] lists the game's own (chests,
//! traps, exits, one-way exits, the way up, the monsters) so that a world of them is one byte
//! a tile and every front-end draws them alike. It gives them no meaning beyond drawing and
//! two facts the map seam needs ([`Tile::is_walkable`], [`Tile::blocks_sight`]): what a
//! chest or a monster does is the game's (`byog-game`), never the engine's. It knows no keys,
//! saves or rules, no window and no picture format: the macroquad renderer lives with the
//! window, the PNG rasteriser in `byog-raster`.

pub mod autotile;
pub mod camera;
pub mod files;
pub mod fov;
pub mod geometry;
pub mod layout;
pub mod map;
pub mod minimap;
pub mod random_utils;
pub mod search;
mod tetile;
mod tileset;
mod world;

pub use autotile::WallStyle;
pub use camera::Camera;
pub use geometry::{Direction, Pos, Rect};
pub use layout::{FONT_BYTES, FONT_SIZE, Fit, Geometry, TILE_SIZE};
pub use map::Map;
pub use tetile::{Rgb, TETile};
pub use tileset::{Tile, Tileset, look};
pub use world::World;
