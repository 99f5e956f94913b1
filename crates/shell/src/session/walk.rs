//! Travel's walk: one step a tick, each fed as its key, stopped by any key.

use byog_game::Events;
use byog_game::travel::{self, Goal, Stop, Travel};
use byog_tile_engine::Pos;

use super::{Shell, Showing, State};

/// Seconds between two steps of a walk (`X`, `>`, a click) on screen: fast enough that a
/// walk across a floor takes a second or two, slow enough to be followed (Brogue's travel
/// shows every step too).
pub const TRAVEL_STEP_SECONDS: f64 = 0.025;

/// A walk under way: the planner's state, when its next step is due, whether the last
/// step fed is still to be looked at, and whether a step of it has said something (the
/// message line keeps that through the silent steps after it).
#[derive(Debug)]
pub(super) struct Walking {
    pub(super) travel: Travel,
    pub(super) next_at: f64,
    pub(super) waiting: bool,
    pub(super) said: bool,
}

impl Shell {
    /// Starts a walk to `goal`, or says why there is none; a route of more than one step
    /// through armed traps, or one into an exploration's way up (it banks), is shown and
    /// waits for `Y`.
    pub(super) fn travel(&mut self, goal: Goal, now: f64) {
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        let Some(game) = session.interpreter.game_in_play() else {
            return;
        };
        let banks = |route: &travel::Route| {
            game.explore().is_some() && route.tiles.last() == Some(&game.exit())
        };
        // The walk as previewed: no question about one that would not start (a monster
        // beside the avatar is `preview`'s first reason).
        match travel::preview(game, goal).map(|w| w.route) {
            Err(stop) => self.say_logged(stop.to_string()),
            Ok(route) if banks(&route) || (route.armed > 0 && route.steps.len() > 1) => {
                let health = game.health().unwrap_or(0);
                let traps = format!(
                    "the way crosses {} armed trap{} and costs {} of your {health} hearts",
                    route.armed,
                    if route.armed == 1 { "" } else { "s" },
                    route.armed
                );
                // What the clock takes on the way, said before the walk starts.
                let now = game.score().unwrap_or(0);
                let bank = match travel::banked_at_the_end(game, &route) {
                    Some(then) if then < now => format!(
                        "the way up, {} moves away, banks the {then} points you will carry then \
                         ({now} now: the clock takes the rest) and ends the exploration",
                        route.steps.len()
                    ),
                    _ => format!("the way up banks your {now} points and ends the exploration"),
                };
                self.message = match (banks(&route), route.armed > 0) {
                    (true, true) => format!("{traps}; {bank}: Y goes, any other key stays"),
                    (true, false) => format!("{bank}: Y goes, any other key stays"),
                    _ => format!("{traps}: Y goes, any other key stays"),
                };
                *view = Showing::Confirm { goal, route };
            }
            Ok(_) => self.start_walk(goal, 0, false, now),
        }
    }

    /// Starts walking to `goal`, going on through `hearts` losses of health, and into an
    /// exploration's way up when `bank` (the player said `Y`).
    pub(super) fn start_walk(&mut self, goal: Goal, hearts: u32, bank: bool, now: f64) {
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        if let Some(game) = session.interpreter.game_in_play() {
            let travel = Travel::new(game, goal).allowing_hurts(hearts);
            *view = Showing::Walking(Box::new(Walking {
                travel: if bank { travel.banking() } else { travel },
                next_at: now,
                waiting: false,
                said: false,
            }));
            self.walk_step(now);
        }
    }

    /// One step of the walk: looks at the last step fed if not yet done (stop?), then feeds
    /// the next, and looks at it at once unless it went to a worker thread.
    pub(super) fn walk_step(&mut self, now: f64) {
        self.observe_walk();
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        let Showing::Walking(walking) = view else {
            return;
        };
        let Some(game) = session.interpreter.game_in_play() else {
            *view = Showing::Plain;
            return;
        };
        match walking.travel.next(game) {
            Err(stop) => {
                *view = Showing::Plain;
                self.walk_stopped(stop);
            }
            Ok(action) => {
                walking.waiting = true;
                walking.next_at = now + TRAVEL_STEP_SECONDS;
                self.last_events = None;
                self.feed(action.key(), now);
                if matches!(self.state, State::Ready { .. }) {
                    self.observe_walk();
                }
            }
        }
    }

    /// Looks at the step of the walk fed last, once it is done: the walk stops there if it
    /// should (arrived, something in sight, hurt, ...).
    fn observe_walk(&mut self) {
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        let Showing::Walking(walking) = view else {
            return;
        };
        if !walking.waiting {
            return;
        }
        walking.waiting = false;
        let events = self.last_events.take().unwrap_or(Events::none());
        let Some(game) = session.interpreter.game_in_play() else {
            *view = Showing::Plain;
            return;
        };
        if let Some(stop) = walking.travel.observe(game, &events) {
            *view = Showing::Plain;
            self.walk_stopped(stop);
        }
    }

    /// The walk has stopped: says why, unless the last step's own message says it (a
    /// feature handled, a new floor, the end) or it simply arrived.
    pub(super) fn walk_stopped(&mut self, stop: Stop) {
        match stop {
            Stop::Arrived | Stop::Event | Stop::Over => {}
            Stop::Hurt if !self.message.is_empty() => {}
            _ => self.say_logged(stop.to_string()),
        }
    }

    /// Walks a walk under way to its end at once (the keys of `--keys`: each key's walk is
    /// done before the next key, as in an input string).
    pub fn finish_walk(&mut self, now: f64) {
        while self.is_walking() {
            if let State::Busy(busy) = &self.state {
                match busy.done.recv() {
                    Ok(fed) => self.finish(fed, now),
                    // The worker died: tick says so.
                    Err(_) => return,
                }
                continue;
            }
            self.walk_step(now);
        }
    }

    /// The tiles of a route waiting for `Y` (world positions), for the front-ends to mark.
    pub fn route(&self) -> Option<&[Pos]> {
        match &self.state {
            State::Ready {
                view: Showing::Confirm { route, .. },
                ..
            } => Some(route.tiles.as_slice()),
            _ => None,
        }
    }

    /// Whether a walk is under way.
    pub fn is_walking(&self) -> bool {
        match &self.state {
            State::Ready { view, .. } => matches!(view, Showing::Walking(_)),
            State::Busy(busy) => busy.walking.is_some(),
        }
    }
}
