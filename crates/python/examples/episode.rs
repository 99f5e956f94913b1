//! The Python package's game, from Rust: one run of seed 3 played by a fixed cycle of
//! actions until it ends or 500 steps have passed, and the reward it earned.
//!
//! `cargo run -p byog-python --example episode`

use _byog::{Game, Mode, Options};

fn main() {
    let options = Options::new(Mode::Run);
    let mut game = Game::new(&options);
    if let Err(e) = game.reset(3) {
        eprintln!("{e}");
        std::process::exit(2);
    }
    let mut reward = 0.0;
    for i in 0..500 {
        let step = game.step(i % options.actions());
        reward += step.reward;
        if step.terminated || step.truncated {
            break;
        }
    }
    println!("{} steps, reward {reward}", game.steps());
}
