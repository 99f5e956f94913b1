//! The rules: one function, [`apply`], takes a game and an action and returns the events it
//! caused. Front-ends and the interpreter never change a game any other way, so the window,
//! the terminal and `replay` play by exactly the same rules.
//!
//! Classic game (the sp18 spec): a step onto walkable terrain moves the avatar; a step into
//! the exit unlocks it and wins (the avatar stays where it is); a step into anything else
//! is a bump, which changes nothing and is not a move (`../shared/SPEC.md`, section 2). An
//! ended game takes no action.
//!
//! A run adds (section 7, after Dungeon Upkeeper): every step costs one of the moves left;
//! stepping onto an empty chest refills it, onto a sprung trap rearms it (points for both),
//! onto an armed trap springs it on the upkeeper (one health lost); walking into the exit
//! descends to the next floor and earns moves ([`crate::core::run`] says how many), or wins
//! on the last floor (every move left over is a point); the run is lost at 0 health, or at 0
//! moves away from an exit.

use super::action::Action;
use super::game::{GameState, LevelStatus};
use super::run::{self, FeatureKind, Loss};
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
    /// A run's chest was refilled (points scored).
    Refilled {
        /// Its tile.
        at: Pos,
    },
    /// A run's trap was rearmed (points scored).
    Rearmed {
        /// Its tile.
        at: Pos,
    },
    /// An armed trap sprang on the upkeeper: one health lost.
    Hurt {
        /// Its tile.
        at: Pos,
        /// Health left.
        health: u32,
    },
    /// The run went down to the next floor.
    Descended {
        /// The new floor, 1-based.
        floor: u32,
        /// Moves earned on the floor left behind.
        earned: u64,
        /// Whether every feature of that floor was handled.
        perfect: bool,
    },
    /// The game is won.
    Won,
    /// The run is lost.
    Lost(Loss),
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

    /// One event (built whole, so the value is written once: returning events assembled
    /// piece by piece costs a store-forwarding stall a key in the interpreter).
    #[inline(always)]
    pub const fn one(e: Event) -> Events {
        Events {
            list: [e; Events::CAPACITY],
            len: 1,
        }
    }

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

    /// Whether the action lost the run.
    pub fn lost(&self) -> bool {
        self.as_slice().iter().any(|e| matches!(e, Event::Lost(_)))
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
    if game.status != LevelStatus::Playing {
        return Events::one(Event::AlreadyOver);
    }
    let Action::Move(direction) = action;
    let to = game.avatar + direction;
    if to == game.exit {
        let mut events = Events::none();
        game.moves += 1;
        events.push(Event::Unlocked { at: to });
        if game.run.is_some() {
            descend(game, &mut events);
        } else {
            game.status = LevelStatus::Won;
            events.push(Event::Won);
        }
        game.actions.push(action);
        events
    } else if let Some(i) = game.walkable_index(to) {
        game.moves += 1;
        game.avatar = to;
        game.look_at(i);
        game.actions.push(action);
        let moved = Event::Moved { to, direction };
        if game.run.is_none() {
            return Events::one(moved);
        }
        let mut events = Events::none();
        events.push(moved);
        run_step(game, to, &mut events);
        events
    } else {
        // A bump: only terrain blocks here (the exit was handled above and the avatar never
        // bumps into itself); nothing changes and nothing is recorded.
        Events::one(Event::Blocked {
            at: to,
            tile: game.terrain.tile(to),
            direction,
        })
    }
}

/// A run's step onto `to`: the move's cost and what stands there.
fn run_step(game: &mut GameState, to: Pos, events: &mut Events) {
    let Some(run) = game.run.as_mut() else {
        return;
    };
    run.moves_left = run.moves_left.saturating_sub(1);
    if let Some(f) = game.features.iter_mut().find(|f| f.pos == to) {
        let points = run::depth::params(
            run.floor,
            run.floors,
            run.max_width as usize,
            run.max_height as usize,
            &game.settings,
        );
        match (f.kind, f.handled) {
            (FeatureKind::Chest, false) => {
                f.handled = true;
                run.score += points.chest_points;
                events.push(Event::Refilled { at: to });
            }
            (FeatureKind::Trap, false) => {
                f.handled = true;
                run.score += points.trap_points;
                events.push(Event::Rearmed { at: to });
            }
            (FeatureKind::Trap, true) => {
                // Sprung on the upkeeper: it needs rearming again.
                f.handled = false;
                run.health = run.health.saturating_sub(1);
                events.push(Event::Hurt {
                    at: to,
                    health: run.health,
                });
            }
            (FeatureKind::Chest, true) => {}
        }
    }
    let loss = if run.health == 0 {
        Some(Loss::OutOfHealth)
    } else if run.moves_left == 0 {
        Some(Loss::OutOfMoves)
    } else {
        None
    };
    if let Some(loss) = loss {
        run.loss = Some(loss);
        game.status = LevelStatus::Lost;
        events.push(Event::Lost(loss));
    }
}

/// A run's step into the exit: the perfect-floor points, then the next floor and the moves
/// earned, or the win on the last floor.
fn descend(game: &mut GameState, events: &mut Events) {
    let Some(mut state) = game.run else {
        return;
    };
    state.moves_left = state.moves_left.saturating_sub(1);
    let total = game.features.len() as u64;
    let handled = game.features.iter().filter(|f| f.handled).count() as u64;
    let perfect = handled == total;
    let (w, h) = (state.max_width as usize, state.max_height as usize);
    if perfect {
        let points = run::depth::params(state.floor, state.floors, w, h, &game.settings);
        state.score += points.perfect_points;
        state.perfect_floors += 1;
    }
    if state.floor >= state.floors {
        // Every move left over is a point: two perfect runs score differently.
        state.score += state.moves_left;
        game.run = Some(state);
        game.status = LevelStatus::Won;
        events.push(Event::Won);
        return;
    }
    let next = state.floor + 1;
    let Ok(floor) = run::floor::make(game.seed, next, state.floors, w, h, &game.settings) else {
        // Every floor was made once when the run started, so this cannot fail; should it,
        // the run ends won on the floor it reached rather than panicking.
        debug_assert!(false, "floor B{next} was made at the start of the run");
        game.run = Some(state);
        game.status = LevelStatus::Won;
        events.push(Event::Won);
        return;
    };
    let earned = run::earned(&floor.info, total, handled);
    state.moves_left += earned;
    state.floor = next;
    state.info = floor.info;
    game.run = Some(state);
    game.terrain = floor.terrain;
    game.avatar = floor.avatar;
    game.exit = floor.exit;
    game.features = floor.features;
    game.rng = floor.rng;
    game.forget();
    game.look();
    events.push(Event::Descended {
        floor: next,
        earned,
        perfect,
    });
}
