//! The message log (`P`): the last messages of this game, scrolled.

use super::{LOG_PAGE, Line, Style, TextScreen};

/// The message log: the last [`LOG_PAGE`] messages `back` messages from the newest, newest
/// at the bottom; W/S (or the arrows) scroll, any other key closes it.
pub fn log_screen(log: &[String], back: usize) -> TextScreen {
    let end = log.len().saturating_sub(back);
    let start = end.saturating_sub(LOG_PAGE);
    let mut lines = vec![Line::new("MESSAGES", Style::Heading)];
    if log.is_empty() {
        lines.push(Line::new("no message yet", Style::Dim));
    }
    lines.extend(
        log[start..end]
            .iter()
            .map(|m| Line::new(m.clone(), Style::Normal)),
    );
    TextScreen {
        lines,
        message: Some(Line::new(
            format!(
                "{}-{} of {} · W/S scroll · any other key closes",
                start + usize::from(end > start),
                end,
                log.len()
            ),
            Style::Hint,
        )),
    }
}
