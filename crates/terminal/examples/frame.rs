//! The terminal's painting without a terminal: seed 42's classic game, played by a session,
//! painted into an 80 × 24 grid of cells as the terminal would draw it, then printed as
//! plain text (no escape codes).
//!
//! `cargo run -p byog-terminal --example frame`

use byog_shell::{FrontEnd, Shell, ShellOptions};
use byog_terminal::CellGrid;
use byog_terminal::paint::{paint, request};

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
    let (cols, rows) = (80, 24);
    let frame = shell.frame(0.0, &request(cols, rows, None));
    let mut grid = CellGrid::new(cols, rows);
    paint(&mut grid, &frame, false);
    for y in 0..rows {
        let line: String = (0..cols)
            .map(|x| grid.get(x, y).map_or(' ', |cell| cell.ch))
            .collect();
        println!("{}", line.trim_end());
    }
}
