//! The screen between two floors of a run: the moves earned and what was missed.

use byog_game::GameState;
use byog_game::rules::Event;

use super::{Line, Style, TextScreen, plural};

/// How long the screen between two floors stays, in seconds (a key ends it sooner).
pub const FLOOR_SCREEN_SECONDS: f64 = 1.5;

/// The screen between two floors when `events` descended to one in `game`'s run (each
/// front-end shows it for [`FLOOR_SCREEN_SECONDS`]).
pub fn descent_screen(events: &byog_game::Events, game: Option<&GameState>) -> Option<TextScreen> {
    let floors = game?.run()?.floors;
    let paid = events.as_slice().iter().find_map(|e| match *e {
        Event::PaidOver { moves } => Some(moves),
        _ => None,
    });
    let mut screen = events.as_slice().iter().find_map(|e| match *e {
        Event::Descended {
            floor,
            earned,
            missed_chests,
            missed_traps,
            forgone,
            ..
        } => Some(floor_screen(
            floor,
            floors,
            earned.into(),
            Missed {
                chests: missed_chests,
                traps: missed_traps,
                forgone: forgone.into(),
            },
        )),
        _ => None,
    })?;
    if let Some(moves) = paid {
        // After the moves earned: the spare moves not carried down, paid as points.
        screen.lines.insert(
            4,
            Line::new(
                format!(
                    "{} not carried down: +{}",
                    plural(u64::from(moves), "spare move", "spare moves"),
                    plural(u64::from(moves), "point", "points")
                ),
                Style::Normal,
            ),
        );
    }
    Some(screen)
}

/// What the floor just left was left without: chests left empty, traps left sprung, and the
/// moves a perfect floor would have earned beyond what was earned.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Missed {
    /// Chests left empty.
    pub chests: u32,
    /// Traps left sprung.
    pub traps: u32,
    /// Moves forgone.
    pub forgone: u64,
}

/// The short screen between two floors of a run, after walking into an exit: the moves
/// earned, and either the perfect floor or what was missed and what it cost.
pub fn floor_screen(floor: u32, floors: u32, earned: u64, missed: Missed) -> TextScreen {
    let mut lines = vec![
        Line::new(format!("B{floor}"), Style::Title),
        Line::new(format!("floor {floor} of {floors}"), Style::Heading),
        Line::blank(),
        Line::new(format!("+{earned} moves"), Style::Normal),
    ];
    if missed.chests + missed.traps == 0 {
        lines.push(Line::new(
            "perfect floor: every chest and trap upkept",
            Style::Input,
        ));
    } else {
        lines.push(Line::new(
            format!(
                "missed on B{}: {}: -{} moves",
                floor - 1,
                missed_text(missed.chests, missed.traps),
                missed.forgone
            ),
            Style::Message,
        ));
    }
    TextScreen {
        lines,
        message: None,
    }
}

/// "1 chest", "2 traps", "1 chest and 2 traps".
pub(super) fn missed_text(chests: u32, traps: u32) -> String {
    let c = plural(u64::from(chests), "chest", "chests");
    let t = plural(u64::from(traps), "trap", "traps");
    match (chests, traps) {
        (0, _) => t,
        (_, 0) => c,
        _ => format!("{c} and {t}"),
    }
}
