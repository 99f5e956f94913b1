//! A room drawn with the tile engine: a 9 × 5 world, walls round a floor, the player in the
//! middle, printed in the text form (`TETile::to_string`, rows from the top).
//!
//! `cargo run -p byog-tile-engine --example room`

use byog_tile_engine::{Pos, TETile, Tile, World};

fn main() {
    let (width, height) = (9, 5);
    let mut world = World::filled(width, height, Tile::Wall);
    for y in 1..height as i32 - 1 {
        for x in 1..width as i32 - 1 {
            world.set(Pos::new(x, y), Tile::Floor);
        }
    }
    world.set(Pos::new(4, 2), Tile::Player);
    print!("{}", TETile::to_string(&world));
    println!("{} floor tiles", world.count(Tile::Floor));
}
