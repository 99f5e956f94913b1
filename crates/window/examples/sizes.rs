//! How large the window opens, without opening one: for worlds of several sizes on a
//! 1920 × 1080 screen, the window's size in pixels (the whole world when it fits, else 90% of
//! the screen and the camera scrolls), and the tile size sight gives a 1280 × 720 view.
//! `byog play` opens the window itself.
//!
//! `cargo run -p byog-window --example sizes`

use byog_window::{opening_size, sight_tile_pixels};

fn main() {
    let screen = (1920, 1080);
    for (width, height) in [(40, 20), (80, 30), (160, 60), (400, 200)] {
        let (w, h) = opening_size(width, height, screen);
        println!("{width} × {height} tiles: a window of {w} × {h} pixels");
    }
    match sight_tile_pixels(1280.0, 720.0) {
        Some(px) => println!("in sight, a 1280 × 720 view draws tiles of {px} pixels"),
        None => println!("in sight, a 1280 × 720 view keeps the ordinary layout"),
    }
}
