//! What the player reads after a key: every event in words, the goodbye and the line
//! printed after `:Q`.

use std::path::Path;

use byog_game::GameState;
use byog_game::interpreter::{Closing, Outcome};
use byog_game::rules::Event;
use byog_tile_engine::Tile;

use super::floor::missed_text;
use super::{moves_text, plural, with_a};

/// How long the goodbye message stays before the program closes, in seconds.
pub const GOODBYE_SECONDS: f64 = 0.8;

/// The line a front-end prints on its way out after `:Q`, once the terminal is the shell's
/// again: where the game was saved, how its history starts (`N1234S`, then `…` when moves
/// follow) and its moves, e.g. `saved to saves/save.bin (N1234S…, 12 moves)`.
pub fn saved_line(game: &GameState, save: &Path) -> String {
    let history = game.history();
    let start = history.find(['S', 's']).map_or(history.len(), |s| s + 1);
    let more = if start < history.len() { "…" } else { "" };
    format!(
        "saved to {} ({}{more}, {})",
        save.display(),
        &history[..start],
        moves_text(game.moves())
    )
}

/// The message after a zoom key: the tile size now.
pub fn zoom_message(tile_pixels: u32) -> String {
    format!("zoom: tiles of {tile_pixels} pixels (+ and - zoom, 0 fits)")
}

/// The message when the watch key finds no save to watch, or one that cannot be watched.
pub fn watch_refused(why: &str) -> String {
    format!("cannot watch the save: {why}")
}

/// What the player is told after a key: the message, and whether the program now closes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    /// The message (empty: clear the last one).
    pub message: String,
    /// Whether the program closes (after `Q` or `:Q`).
    pub closing: bool,
}

/// The feedback for what a key did. `save` is where the save lives, for messages that name
/// it.
pub fn feedback(outcome: &Outcome, save: &Path) -> Feedback {
    let say = |message: String| Feedback {
        message,
        closing: false,
    };
    match outcome {
        Outcome::Reported(report) => say(report.player_message()),
        Outcome::Accepted | Outcome::Started => say(String::new()),
        // Every event worth a word, in order: "chest refilled · room clear: its exits open";
        // what a run's feature paid follows its own event: "chest refilled: +30 points, +23
        // moves".
        Outcome::Acted(events) => {
            say(events.as_slice().iter().fold(String::new(), |mut line, e| {
                if let Some(m) = event_message(e) {
                    if !line.is_empty() {
                        line.push_str(if matches!(e, Event::Earned { .. }) {
                            ": "
                        } else {
                            " · "
                        });
                    }
                    line.push_str(&m);
                }
                line
            }))
        }
        Outcome::NoSave => say(format!("no saved game at {}", save.display())),
        Outcome::Closed(Closing::Quit) => Feedback {
            message: "Goodbye.".into(),
            closing: true,
        },
        Outcome::Closed(Closing::SavedAndQuit) => Feedback {
            message: format!("Saved to {}. Goodbye.", save.display()),
            closing: true,
        },
    }
}

/// The message for one event, if it deserves one.
fn event_message(event: &Event) -> Option<String> {
    match event {
        Event::Blocked {
            tile: Tile::LockedDoor,
            ..
        } => Some("locked: handle this room's chests and traps first".into()),
        Event::Blocked {
            tile: Tile::OneWayUp | Tile::OneWayRight | Tile::OneWayDown | Tile::OneWayLeft,
            ..
        } => Some("that exit is one-way: it cannot be walked back".into()),
        Event::Blocked { tile, .. } => Some(format!("blocked by {}", with_article(*tile))),
        Event::Entered {
            room,
            made: true,
            new_branch,
            ..
        } => Some(format!(
            "{} room {room}, depth {}",
            if *new_branch {
                "a new branch:"
            } else {
                "a new"
            },
            byog_game::explore::depth(*room)
        )),
        Event::Entered { room, .. } if room.is_start() => Some("back in the start room".into()),
        Event::Cleared { .. } => Some("room clear: its exits open".into()),
        Event::AlreadyOver => Some("the game is over".into()),
        Event::Refilled { .. } => Some("chest refilled".into()),
        Event::Rearmed { .. } => Some("trap rearmed".into()),
        Event::Hurt { health, .. } => Some(format!(
            "an armed trap springs on you! {health} health left"
        )),
        Event::Descended {
            floor,
            earned,
            perfect,
            missed_chests,
            missed_traps,
            forgone,
        } => Some(if *perfect {
            format!("down to B{floor}: +{earned} moves (perfect floor)")
        } else {
            format!(
                "down to B{floor}: +{earned} moves (missed {}: -{forgone})",
                missed_text(*missed_chests, *missed_traps)
            )
        }),
        Event::Attacked {
            kind,
            damage,
            killed: true,
            ..
        } => Some(format!(
            "you hit the {} for {damage}: it dies (+{} points)",
            kind.name(),
            kind.stats().points
        )),
        Event::Attacked {
            kind, damage: 0, ..
        } => Some(format!("the {} dodges your blow", kind.name())),
        Event::Attacked { kind, damage, .. } => {
            Some(format!("you hit the {} for {damage}", kind.name()))
        }
        Event::Spotted { kind, count: 1 } => Some(format!("{} sees you!", with_a(kind.name()))),
        Event::Spotted { kind, count } => Some(format!(
            "{} and {} more see you!",
            with_a(kind.name()),
            count - 1
        )),
        Event::Struck { by, hits: 0, .. } => Some(format!("the {} misses you", by.name())),
        Event::Struck {
            by, damage, health, ..
        } => Some(format!(
            "the {} hits you for {damage}! {health} health left",
            by.name()
        )),
        Event::FoundPotion { potions } => Some(format!(
            "a potion in the chest ({potions} carried; U drinks)"
        )),
        Event::PotionLeft { potions } => Some(format!(
            "a potion in the chest, left behind: {potions} carried is the most"
        )),
        Event::Waited => Some("you wait a turn".into()),
        Event::Earned { moves, points } => Some(format!(
            "+{}, +{}",
            plural(u64::from(*points), "point", "points"),
            plural(u64::from(*moves), "move", "moves")
        )),
        Event::PaidOver { moves } => Some(format!(
            "+{} for {} not carried down",
            plural(u64::from(*moves), "point", "points"),
            plural(u64::from(*moves), "spare move", "spare moves")
        )),
        Event::Drank { health, potions } => Some(format!(
            "you drink a potion: {health} health, {} left",
            plural(u64::from(*potions), "potion", "potions")
        )),
        Event::Fled { kind } => Some(format!("the {} flees!", kind.name())),
        Event::InCombat { kind, .. } => Some(super::in_combat(*kind)),
        Event::CannotDrink { full: true } => Some("your health is full".into()),
        Event::CannotDrink { full: false } => Some("no potion to drink".into()),
        // The end screen says these.
        Event::Won
        | Event::Lost(_)
        | Event::Moved { .. }
        | Event::Unlocked { .. }
        | Event::Entered { .. }
        | Event::Banked { .. } => None,
    }
}

/// "a wall", "the dark" for NOTHING, "a locked door".
fn with_article(tile: Tile) -> String {
    match tile {
        Tile::Nothing => "the dark".into(),
        t => with_a(t.tetile().description()),
    }
}
