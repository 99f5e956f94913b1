//! The screen while a key takes long (a huge world or floor, a load, a save).

use super::{Line, Style, TextScreen};

/// The screen while a key takes long: what is being made, for how long (`seconds`), and how
/// to quit.
pub fn busy_screen(what: &str, seconds: f64) -> TextScreen {
    let dots = ".".repeat(1 + (seconds * 2.0) as usize % 3);
    TextScreen {
        lines: vec![
            Line::new(format!("{what}{dots}"), Style::Title),
            Line::blank(),
            Line::new(format!("{seconds:.1} s"), Style::Normal),
            Line::blank(),
            Line::new(
                "Ctrl-C (or closing the window) quits; nothing is saved",
                Style::Hint,
            ),
        ],
        message: None,
    }
}
