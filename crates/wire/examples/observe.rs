//! The game's JSON, as the agent and `byog replay --format json --view sight` write it: the
//! observation of seed 7's run after two steps up.
//!
//! `cargo run -p byog-wire --example observe`

use byog_game::GameOptions;
use byog_game::save::MemoryStore;
use byog_wire::Observation;

fn main() {
    let mut interpreter = GameOptions::default().interpreter();
    let mut store = MemoryStore::default();
    for key in "R7SWW".chars() {
        if let Err(e) = interpreter.feed(key, &mut store) {
            eprintln!("key {key:?}: {e}");
            std::process::exit(2);
        }
    }
    println!("{}", Observation::of(&interpreter).to_json());
}
