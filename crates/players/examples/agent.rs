//! A program that plays, in process: an agent starts seed 42's run, takes two steps and
//! prints, after each line of keys, the moves made and left and the size of the JSON
//! `byog agent` would answer.
//!
//! `cargo run -p byog-players --example agent`

use byog_players::agent::{Agent, AgentOptions};

fn main() {
    let mut agent = Agent::new(AgentOptions::default());
    for line in ["R42S", "D", "S"] {
        let observation = if line == "R42S" {
            agent.reset(line)
        } else {
            agent.step(line)
        };
        match observation {
            Ok(o) => {
                let json = o.to_json();
                let game = o.game.expect("a game is played");
                let left = game.run.map_or(0, |r| r.moves_left);
                println!(
                    "{line}: {} moves, {left} left; {} bytes of JSON",
                    game.moves,
                    json.len()
                );
            }
            Err(e) => println!("{line}: {e}"),
        }
    }
}
