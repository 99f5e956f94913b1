//! A game played by keys, as `byog replay` plays them: seed 42's classic game, three steps
//! right, then the world as text and the avatar's place.
//!
//! `cargo run -p byog-game --example play`

use byog_game::GameOptions;
use byog_game::save::MemoryStore;

fn main() {
    let mut interpreter = GameOptions::default().interpreter();
    let mut store = MemoryStore::default();
    for key in "N42SDDD".chars() {
        if let Err(e) = interpreter.feed(key, &mut store) {
            eprintln!("key {key:?}: {e}");
            std::process::exit(2);
        }
    }
    let game = interpreter.game().expect("N42S starts a game");
    print!("{}", game.world());
    println!("the avatar stands at {:?}", game.avatar());
}
