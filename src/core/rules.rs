//! The rules: one function, [`apply`], takes a game and an action and returns the events it
//! caused. Front-ends and the interpreter never change a game any other way, so the window,
//! the terminal and `replay` play by exactly the same rules.
//!
//! Classic game (the sp18 spec): a step onto walkable terrain moves the avatar; a step into
//! the exit unlocks it and wins (the avatar stays where it is); a step into anything else
//! is a bump, which changes nothing and is not a move (`../shared/SPEC.md`, section 2). An
//! ended game takes no action.

use super::action::Action;
use super::game::{GameState, LevelStatus};
use crate::tile_engine::{Direction, Pos, Tile};

/// Something an action caused, in the order it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The avatar stepped one tile (it came from `to + direction.opposite()`).
    Moved {
        /// Where it stands now.
        to: Pos,
        /// The direction of the step.
        direction: Direction,
    },
    /// The step was blocked; nothing changed and no move was counted.
    Blocked {
        /// The tile that blocked it.
        at: Pos,
        /// What is there (WALL, NOTHING, …), for the player's message.
        tile: Tile,
        /// The direction of the attempted step.
        direction: Direction,
    },
    /// The avatar walked into the exit, which is now an UNLOCKED_DOOR.
    Unlocked {
        /// The exit's tile.
        at: Pos,
    },
    /// The game is won.
    Won,
    /// The game had already ended; the action was not applied.
    AlreadyOver,
}

/// The events of one action: at most [`Events::CAPACITY`], kept inline (no allocation, so a
/// million replayed moves cost no heap traffic).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Events {
    list: [Event; Events::CAPACITY],
    len: u8,
}

impl Events {
    /// The most events one action causes.
    pub const CAPACITY: usize = 3;

    /// No events.
    pub const fn none() -> Events {
        Events {
            list: [Event::AlreadyOver; Events::CAPACITY],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, e: Event) {
        if (self.len as usize) < Events::CAPACITY {
            self.list[self.len as usize] = e;
            self.len += 1;
        }
    }

    /// The events, in order.
    pub fn as_slice(&self) -> &[Event] {
        &self.list[..self.len as usize]
    }

    /// Whether the action changed the game (anything but a bump or a refusal).
    pub fn changed_game(&self) -> bool {
        self.as_slice()
            .iter()
            .any(|e| !matches!(e, Event::Blocked { .. } | Event::AlreadyOver))
    }

    /// Whether the action won the game.
    pub fn won(&self) -> bool {
        self.as_slice().contains(&Event::Won)
    }

    /// The bump, if the action was blocked.
    pub fn blocked(&self) -> Option<(Pos, Tile, Direction)> {
        self.as_slice().iter().find_map(|e| match *e {
            Event::Blocked {
                at,
                tile,
                direction,
            } => Some((at, tile, direction)),
            _ => None,
        })
    }
}

impl<'a> IntoIterator for &'a Events {
    type Item = &'a Event;
    type IntoIter = std::slice::Iter<'a, Event>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Applies `action` to `game` and returns what happened. An action that changed the game is
/// added to its history; a bump or an action on an ended game changes nothing at all.
#[inline(always)]
pub fn apply(game: &mut GameState, action: Action) -> Events {
    let mut events = Events::none();
    if game.status != LevelStatus::Playing {
        events.push(Event::AlreadyOver);
        return events;
    }
    let changed = match action {
        Action::Move(direction) => step(game, direction, &mut events),
    };
    if changed {
        game.actions.push(action);
    }
    events
}

/// One step; returns whether it changed the game (a bump does not).
#[inline(always)]
fn step(game: &mut GameState, direction: Direction, events: &mut Events) -> bool {
    let to = game.avatar + direction;
    if to == game.exit {
        game.moves += 1;
        game.status = LevelStatus::Won;
        events.push(Event::Unlocked { at: to });
        events.push(Event::Won);
        true
    } else if game.terrain.get(to).is_some_and(Tile::is_walkable) {
        game.moves += 1;
        game.avatar = to;
        events.push(Event::Moved { to, direction });
        true
    } else {
        // Only terrain blocks here: the exit was handled above and the avatar never bumps
        // into itself.
        events.push(Event::Blocked {
            at: to,
            tile: game.terrain.tile(to),
            direction,
        });
        false
    }
}
