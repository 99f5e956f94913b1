//! The save slots `L` can load, and the question before `:Q` writes over another game.

use super::{Line, Style, TextScreen};

/// The save slots to load from (`L` at the menu when the save folder holds more than the
/// current slot): each with what it holds (mode, seed, floor, moves) and when it was saved,
/// numbered for the key that loads it.
pub fn slots_screen(slots: &[byog_game::save::Slot], current: &str) -> TextScreen {
    let mut lines = vec![Line::new("LOAD WHICH SAVE?", Style::Heading)];
    for (i, slot) in slots.iter().take(9).enumerate() {
        let what = match &slot.summary {
            Ok(summary) => summary.to_string(),
            Err(why) => format!("cannot be read: {why}"),
        };
        let age = slot
            .modified
            .and_then(|m| m.elapsed().ok())
            .map(|d| format!(", saved {} ago", age_text(d.as_secs())))
            .unwrap_or_default();
        let mark = if slot.name == current {
            " (current)"
        } else {
            ""
        };
        let style = if slot.summary.is_ok() {
            Style::Normal
        } else {
            Style::Dim
        };
        lines.push(Line::new(
            format!("{} {}{mark}: {what}{age}", i + 1, slot.name),
            style,
        ));
    }
    if slots.len() > 9 {
        lines.push(Line::new(
            format!(
                "… and {} more (byog --slot NAME loads any)",
                slots.len() - 9
            ),
            Style::Dim,
        ));
    }
    TextScreen {
        lines,
        message: Some(Line::new(
            "type a slot's number to load it; any other key goes back",
            Style::Hint,
        )),
    }
}

/// "12 s", "5 min", "3 h", "2 days".
fn age_text(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min", secs / 60),
        3600..86400 => format!("{} h", secs / 3600),
        _ => format!("{} days", secs / 86400),
    }
}

/// The question `:Q` asks before writing over slot `slot` when it holds another game.
pub fn replace_screen(replaced: &byog_game::save::Replaced, slot: &str) -> TextScreen {
    let held = match replaced {
        byog_game::save::Replaced::Other(summary) => format!("holds {summary}"),
        byog_game::save::Replaced::Unreadable(why) => {
            format!("holds a save that cannot be read ({why})")
        }
    };
    TextScreen {
        lines: vec![
            Line::new("SAVE OVER ANOTHER GAME?", Style::Heading),
            Line::new(format!("the slot '{slot}' {held}"), Style::Normal),
            Line::blank(),
            Line::new("Y saves over it", Style::Normal),
            Line::new("N saves to a new slot and keeps it", Style::Normal),
            Line::new("any other key goes back to the game, unsaved", Style::Hint),
        ],
        message: None,
    }
}
