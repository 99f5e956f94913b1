//! A world drawn without a window, as `byog gen --png` draws it: a 20 × 8 floor between two
//! walls, rasterised one cell a tile, and the picture's size in pixels.
//!
//! `cargo run -p byog-raster --example picture`

use byog_raster::rasterize;
use byog_tile_engine::{Geometry, TETile, Tile, World};

fn main() {
    let mut world = World::filled(20, 8, Tile::Floor);
    for x in 0..20 {
        world.set(byog_tile_engine::Pos::new(x, 0), Tile::Wall);
        world.set(byog_tile_engine::Pos::new(x, 7), Tile::Wall);
    }
    print!("{}", TETile::to_string(&world));
    let geometry = Geometry {
        cols: 20,
        rows: 8,
        x_offset: 0,
        y_offset: 0,
    };
    let image = rasterize(&world, geometry);
    println!("{} × {} pixels", image.width(), image.height());
}
