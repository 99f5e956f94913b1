//! A loop of worlds for profilers (`valgrind --tool=callgrind`, `perf record`):
//! `cargo run --release -p byog-worlds --example generate_loop -- [WIDTH HEIGHT COUNT]`
//! makes COUNT worlds (default 2,000 at 80 × 30) from seeds 1, 2, … and prints a checksum of
//! their exits, so the work cannot be optimised away.

use byog_worlds::generator::{self, GeneratorSettings};
use rand::SeedableRng;
use rand_pcg::Pcg64;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: WIDTH HEIGHT COUNT"))
        .collect();
    let (w, h, n) = match args[..] {
        [w, h, n] => (w, h, n),
        _ => (80, 30, 2000),
    };
    let settings = GeneratorSettings::default();
    let mut sum = 0i64;
    for seed in 1..=n as u64 {
        let mut rng = Pcg64::seed_from_u64(seed);
        let level = generator::generate(&mut rng, w, h, &settings).expect("a valid size");
        sum += i64::from(level.exit.x) * 31 + i64::from(level.exit.y);
    }
    println!("{n} worlds of {w} × {h}: exit checksum {sum}");
}
