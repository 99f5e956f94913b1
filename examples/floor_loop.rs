//! A loop of run floors for profilers (`valgrind --tool=callgrind`, `perf record`):
//! `cargo run --release --example floor_loop -- [DEPTH COUNT WIDTH HEIGHT]` makes COUNT
//! floors of depth DEPTH (default 200 of B10 of an 80 × 30 run) from run seeds 1, 2, … and
//! prints a checksum of their pars, so the work cannot be optimised away.

use byog_game::run::floor;
use byog_worlds::generator::GeneratorSettings;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: DEPTH COUNT WIDTH HEIGHT"))
        .collect();
    let (depth, n, w, h) = match args[..] {
        [d, n, w, h] => (d, n, w, h),
        [d, n] => (d, n, 80, 30),
        _ => (10, 200, 80, 30),
    };
    let settings = GeneratorSettings::default();
    let mut sum = 0u64;
    for seed in 1..=n as u64 {
        let f = floor::make(seed, depth as u32, 10, w, h, &settings).expect("a floor");
        sum = sum.wrapping_add(f.info.par);
    }
    println!("{n} floors B{depth} of a {w} × {h} run: par checksum {sum}");
}
