//! What the seed catalog keys its rows by: the generator's parameter set (its settings as
//! JSON, without the number of tries) and each world's hash, for seeds 1 to 3 of 80 × 30.
//!
//! `cargo run -p byog-catalog --example keys`

use byog_catalog::{hash_hex, parameter_set, world_hash};
use byog_worlds::generator::{GeneratorSettings, generate_for_seed};

fn main() {
    let settings = GeneratorSettings::default();
    println!("parameter set: {}", parameter_set(&settings));
    for seed in 1..=3 {
        match generate_for_seed(seed, 80, 30, &settings) {
            Ok(made) => println!("seed {seed}: world {}", hash_hex(world_hash(&made.level))),
            Err(e) => println!("seed {seed}: {e}"),
        }
    }
}
