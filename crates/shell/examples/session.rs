//! What every front-end shows, decided once: a session without save files plays seed 42's
//! classic game, and the screen it decides is printed as the terminal would read it.
//!
//! `cargo run -p byog-shell --example session`

use byog_shell::screens::Screen;
use byog_shell::{FrontEnd, Shell, ShellOptions};

fn main() {
    let options = ShellOptions::in_memory(FrontEnd::Terminal);
    let mut shell = match Shell::new(options) {
        Ok(shell) => shell,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    for key in "N42SDD".chars() {
        shell.key(key, 0.0);
        shell.finish_walk(0.0);
    }
    match shell.screen(0.0, None) {
        Screen::Game(hud) => {
            for row in &hud.rows {
                println!("{} | {}", row.left, row.right);
            }
        }
        Screen::Text(text) => {
            for line in &text.lines {
                println!("{}", line.text);
            }
        }
    }
}
