//! The title menu and the seed prompt, and what the menu offers of the save.

use byog_game::interpreter::GameKind;
use byog_game::save::SaveStore;

use byog_game::keys::WATCH_KEY;

use super::{Line, Style, TextScreen, message_line};
use crate::FrontEnd;

/// The save as the menu offers it: missing, ready to load and watch, or there but
/// unreadable (and why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveState {
    /// No save: "Load" is greyed out, "Watch" not offered.
    Missing,
    /// A save that reads: "Load" and "Watch" are offered.
    Ready,
    /// A save that cannot be read: "Load" is greyed out with the reason, "Watch" not offered.
    Unreadable(String),
}

impl SaveState {
    /// The state of the save in `store`, read (and decoded) to know.
    pub fn of(store: &dyn SaveStore) -> SaveState {
        match store.load() {
            Ok(Some(_)) => SaveState::Ready,
            Ok(None) => SaveState::Missing,
            Err(e) => SaveState::Unreadable(e.to_string()),
        }
    }
}

/// The title menu (`floors`: a run's floors, `--floors`): N new game, R run, E exploration,
/// L load, saying what `L` will do: load the save (greyed without a readable one; for an
/// unreadable one, why), or list `others` saves besides it to choose from; V watch the save
/// (with a readable one); Q quit. In the browser ([`FrontEnd::Browser`]) only N, R and E: a
/// server's game has no save to load or watch, and the page's lobby resumes and leaves games.
pub fn menu(
    save: &SaveState,
    others: usize,
    floors: u32,
    front_end: FrontEnd,
    message: &str,
) -> TextScreen {
    let run = format!("Run: B1 to B{floors}");
    let mut lines = vec![
        Line::new("BYOG: BUILD YOUR OWN GAME", Style::Title),
        Line::blank(),
        Line::new("New Game (N)", Style::Normal),
    ];
    for (kind, name) in [
        (GameKind::Run, run.as_str()),
        (
            GameKind::Exploration,
            "Exploration: rooms made as you enter",
        ),
    ] {
        lines.push(Line::new(format!("{name} ({})", kind.key()), Style::Normal));
    }
    if front_end == FrontEnd::Browser {
        return TextScreen {
            lines,
            message: message_line(message),
        };
    }
    let saves = others + usize::from(*save != SaveState::Missing);
    if others > 0 {
        lines.push(Line::new(
            format!("Load Game (L): choose among {saves} saves"),
            Style::Normal,
        ));
    }
    match save {
        SaveState::Ready => {
            if others == 0 {
                lines.push(Line::new("Load Game (L)", Style::Normal));
            }
            lines.push(Line::new(
                format!("Watch the Saved Game ({WATCH_KEY})"),
                Style::Normal,
            ));
        }
        SaveState::Missing if others == 0 => {
            lines.push(Line::new("Load Game (L): no saved game", Style::Dim));
        }
        SaveState::Missing => {}
        SaveState::Unreadable(why) => {
            if others == 0 {
                lines.push(Line::new(
                    "Load Game (L): the save cannot be read",
                    Style::Dim,
                ));
            }
            lines.push(Line::new(why.clone(), Style::Hint));
        }
    }
    lines.push(Line::new("Quit (Q)", Style::Normal));
    TextScreen {
        lines,
        message: message_line(message),
    }
}

/// The seed prompt: what is typed so far, and the keys.
pub fn seed_prompt(kind: GameKind, seed: u64, digits: u32, message: &str) -> TextScreen {
    let typed = if digits == 0 {
        "_".to_owned()
    } else {
        format!("{seed}_")
    };
    TextScreen {
        lines: vec![
            Line::new(
                format!("Enter a seed for a new {}", kind.noun()),
                Style::Heading,
            ),
            Line::blank(),
            Line::new(typed, Style::Input),
            Line::blank(),
            Line::new(
                "digits, then S to start · Backspace deletes · Esc back to the menu",
                Style::Hint,
            ),
        ],
        message: message_line(message),
    }
}
