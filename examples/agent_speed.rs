//! The agent's step in process, timed the way `benches/peers/nle_speed.py` times the NetHack
//! Learning Environment's: `Agent::step` of one key with its observation built, over and
//! over, in one process on one core (`docs/performance.md`).
//!
//! ```console
//! $ cargo run --release --example agent_speed -- [STEPS] [ROUNDS]
//! byog Agent::step: 0.431 us a step (median of 5 rounds of 2000000 steps; 2320185 steps a second)
//! ```
//!
//! The game is `N1234S` at 80 × 30 and the keys a walk about its start that bumps into walls
//! and never reaches the exit (`agent/step_in_process` in `benches/byog.rs` walks the same), so
//! every step is played and observed. The last line is the figure the peer script reads:
//! `us_per_step=<median>`.

use std::hint::black_box;
use std::time::Instant;

use byog_players::agent::{Agent, AgentOptions};

/// The walk of `agent/step_in_process`.
const WALK: &str = "WASDDSAWWDSA";

fn main() {
    let mut args = std::env::args().skip(1).map(|a| {
        a.parse::<usize>()
            .unwrap_or_else(|_| panic!("{a:?}: STEPS and ROUNDS are whole numbers"))
    });
    let steps = args.next().unwrap_or(2_000_000).max(1);
    let rounds = args.next().unwrap_or(5).max(1);
    let mut agent = Agent::new(AgentOptions::default());
    agent.reset("N1234S").expect("N1234S starts a game");
    let keys: Vec<String> = WALK.chars().map(String::from).collect();
    // Warm up: caches, the branch predictor, the allocator's free lists.
    for k in 0..steps.min(100_000) {
        black_box(agent.step(&keys[k % keys.len()]).expect("a move is played"));
    }
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for k in 0..steps {
                black_box(agent.step(&keys[k % keys.len()]).expect("a move is played"));
            }
            start.elapsed().as_secs_f64() * 1e6 / steps as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    println!(
        "byog Agent::step: {median:.3} us a step (median of {rounds} rounds of {steps} steps; {:.0} steps a second)",
        1e6 / median
    );
    println!("us_per_step={median:.4}");
}
