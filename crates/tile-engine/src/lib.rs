//! The tile engine (Java package `byog.TileEngine`): tiles, the tile set, the world grid,
//! integer geometry, the map seam and its searches, the screen layout, the renderer and
//! random utilities. It knows nothing of the game: no avatar rules, no keys, no saves.

pub mod autotile;
pub mod camera;
pub mod files;
pub mod fov;
pub mod geometry;
pub mod layout;
pub mod map;
pub mod minimap;
pub mod random_utils;
pub mod raster;
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
