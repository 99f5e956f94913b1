//! The tile engine (Java package `byog.TileEngine`): tiles, the tile set, the world grid, the
//! renderer and random utilities. It knows nothing of the game: no avatar rules, no keys, no
//! saves.

pub mod random_utils;
pub mod raster;
pub mod renderer;
mod tetile;
mod tileset;
mod world;

pub use renderer::{Geometry, TERenderer, TILE_SIZE};
pub use tetile::{Rgb, TETile};
pub use tileset::{Tile, Tileset};
pub use world::{Pos, World};
