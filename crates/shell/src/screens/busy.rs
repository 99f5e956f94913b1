//! The screen while a key takes long (a huge world or floor, a load, a save).

use super::{Line, Style, TextScreen};

/// The screen while a key takes long: what is being made, for how long (`seconds`), and how
/// to quit now (`quit`: the front-end's words, e.g. "Ctrl-C quits").
pub fn busy_screen(what: &str, seconds: f64, quit: &str) -> TextScreen {
    let dots = ".".repeat(1 + (seconds * 2.0) as usize % 3);
    TextScreen {
        lines: vec![
            Line::new(format!("{what}{dots}"), Style::Title),
            Line::blank(),
            Line::new(format!("{seconds:.1} s"), Style::Normal),
            Line::blank(),
            Line::new(format!("{quit}; nothing is saved"), Style::Hint),
        ],
        message: None,
    }
}
