//! What a key does: view keys, overlays answered, the watch's keys, travel started, every
//! other key fed; a click.

use byog_game::GameState;
use byog_game::interpreter::{Phase, travel_goal};
use byog_game::keys::{
    END, HELP_KEY, HOME, LOG_KEY, MINIMAP_KEY, SIGHT_KEY, WATCH_KEY, move_alias,
};
use byog_game::save;
use byog_game::travel::{Goal, Stop};
use byog_game::watch::{self, Watch};
use byog_tile_engine::Pos;

use super::options::slot_chosen;
use super::{Overlay, Session, Shell, Showing, State};
use crate::screens;
use crate::store::SessionStore;

impl Shell {
    /// One key at `now` (front-end seconds). What it does depends on the state: while busy
    /// it is kept for after (or stops a walk); during a walk it stops the walk; with an
    /// overlay open it answers it; while watching it goes to the watch; otherwise view keys
    /// are the session's and every other key goes to the interpreter.
    pub fn key(&mut self, key: char, now: f64) {
        let (session, view) = match &mut self.state {
            State::Busy(busy) => {
                if busy.walking.take().is_some() {
                    // A key stops a walk, whatever it is; it is not kept for after.
                    self.walk_stopped(Stop::Key);
                } else {
                    busy.queued.push_back(key);
                }
                return;
            }
            State::Ready { session, view } => (session, view),
        };
        match view {
            Showing::Closing { .. } => {}
            Showing::Walking(_) => {
                *view = Showing::Plain;
                self.walk_stopped(Stop::Key);
            }
            Showing::Confirm { .. } => {
                let Showing::Confirm { goal, route } = std::mem::replace(view, Showing::Plain)
                else {
                    unreachable!("matched above")
                };
                if key.eq_ignore_ascii_case(&'Y') {
                    self.start_walk(goal, route.armed, true, now);
                } else {
                    self.message = "travel cancelled".to_owned();
                }
            }
            Showing::Overlay(overlay) => {
                // W/S (and their aliases) scroll the log; a number picks a slot; Y or N
                // answer the question before saving over another game; any other key
                // closes it.
                let scroll = move_alias(key).unwrap_or(key).to_ascii_uppercase();
                let kind = session
                    .interpreter
                    .game()
                    .map(GameState::kind)
                    .filter(|_| session.interpreter.phase() != Phase::Menu);
                match (overlay, key.to_ascii_uppercase()) {
                    (Overlay::Help { page }, _) if screens::page_turn(key).is_some() => {
                        let pages = screens::help_pages(kind);
                        match screens::page_turn(key) {
                            Some(1) if *page + 1 < pages => *page += 1,
                            Some(-1) => *page = page.saturating_sub(1),
                            _ => *view = Showing::Plain,
                        }
                    }
                    (Overlay::Log { back }, _) if scroll == 'W' => {
                        let len = session.interpreter.game().map_or(0, |g| g.log().len());
                        *back = (*back + 1).min(len.saturating_sub(1));
                    }
                    (Overlay::Log { back }, _) if scroll == 'S' => *back = back.saturating_sub(1),
                    (Overlay::Slots(slots), d @ '1'..='9') => {
                        let pick = slots.get(d as usize - '1' as usize);
                        let store = pick.and_then(|s| session.store.sibling(&s.name));
                        *view = Showing::Plain;
                        if let Some(store) = store {
                            session.store = store;
                            self.feed('L', now);
                        }
                    }
                    (Overlay::Replace(_), 'Y') => {
                        *view = Showing::Plain;
                        self.feed('Q', now);
                    }
                    (Overlay::Replace(_), 'N') => {
                        *view = Showing::Plain;
                        if let Some(store) = fresh_slot(session) {
                            session.store = store;
                        }
                        self.feed('Q', now);
                    }
                    (Overlay::Replace(_), _) => {
                        *view = Showing::Plain;
                        self.message = "not saved: the slot holds another game".to_owned();
                    }
                    _ => *view = Showing::Plain,
                }
            }
            Showing::Watching { watch, closes } => {
                if key == SIGHT_KEY {
                    self.classic_sight = !self.classic_sight;
                } else if key.eq_ignore_ascii_case(&MINIMAP_KEY) {
                    self.minimap_wanted = !self.minimap_wanted;
                } else {
                    match watch::Control::of_key(key) {
                        Some(watch::Control::Leave) => {
                            self.camera = None;
                            *view = if *closes {
                                Showing::Closing { at: now }
                            } else {
                                Showing::Plain
                            };
                        }
                        Some(control) => {
                            if let Err(e) = watch.apply(control) {
                                self.message = e.to_string();
                            }
                        }
                        None => {}
                    }
                }
            }
            Showing::Song => {
                *view = Showing::Plain;
                self.play_key(key, now);
            }
            Showing::Plain | Showing::Floor { .. } => self.play_key(key, now),
        }
    }

    /// A key with nothing over the interpreter's screen: the view keys, travel, the watch
    /// key, and every other key fed; after a key of the game's (travel or fed, not a view
    /// key), the next HUD number waiting is explained when the message line is free.
    fn play_key(&mut self, key: char, now: f64) {
        if self.play_key_only(key, now) {
            self.explain_next();
        }
    }

    /// [`Shell::play_key`] but the explanation; whether the key was the game's.
    fn play_key_only(&mut self, key: char, now: f64) -> bool {
        let State::Ready { session, view } = &mut self.state else {
            return false;
        };
        let phase = session.interpreter.phase();
        let in_game = matches!(phase, Phase::Playing { .. } | Phase::Ended { .. });
        if key == HOME || key == END {
            // Home and End only seek a watch.
            return false;
        }
        if phase == Phase::Menu
            && key.eq_ignore_ascii_case(&'L')
            && !slot_chosen(&self.options.saves)
        {
            // More than the current slot to choose from, and none chosen: list them.
            let slots = session.store.slots();
            let current = session.store.slot_name();
            if slots.iter().any(|s| s.name != current) {
                *view = Showing::Overlay(Overlay::Slots(slots));
                return false;
            }
        }
        if matches!(
            phase,
            Phase::Playing { colon: true } | Phase::Ended { colon: true }
        ) && key.eq_ignore_ascii_case(&'Q')
            && let Some(game) = session.interpreter.game()
            && let Some(replaced) = save::replaced_by(&session.store, game)
        {
            *view = Showing::Overlay(Overlay::Replace(replaced));
            return false;
        }
        if (in_game || phase == Phase::Menu) && key == HELP_KEY {
            *view = Showing::Overlay(Overlay::Help { page: 0 });
            return false;
        }
        if in_game && key.eq_ignore_ascii_case(&LOG_KEY) {
            *view = Showing::Overlay(Overlay::Log { back: 0 });
            return false;
        }
        let key = match phase {
            Phase::Playing { .. } => move_alias(key).unwrap_or(key),
            _ => key,
        };
        if key == SIGHT_KEY {
            self.classic_sight = !self.classic_sight;
            false
        } else if matches!(phase, Phase::Playing { .. }) && key.eq_ignore_ascii_case(&MINIMAP_KEY) {
            self.minimap_wanted = !self.minimap_wanted;
            false
        } else if phase == (Phase::Playing { colon: false })
            && let Some(goal) = travel_goal(key)
        {
            self.travel(goal, now);
            true
        } else if key.eq_ignore_ascii_case(&WATCH_KEY) && phase == Phase::Menu {
            self.start_watch();
            false
        } else {
            self.feed(key, now);
            true
        }
    }

    /// A click on view cell `(col, row)` (from the view's top-left, as
    /// [`Frame::view`](crate::Frame::view)'s cells): in a game in play, walks the shortest
    /// known way to its tile, as travel does; during a walk, stops it. A cell off the world,
    /// or never seen in sight, does nothing (but stop a walk).
    pub fn click(&mut self, col: u32, row: u32, now: f64) {
        match self.tile_under(col, row) {
            Some(pos) => self.click_tile(pos, now),
            None if self.is_walking() => self.key(' ', now),
            None => {}
        }
    }

    /// A click on world tile `pos` (a position of the shown world, as the HUD names it):
    /// in a game in play, walks the shortest known way there, as travel does; during a walk,
    /// stops it.
    pub(crate) fn click_tile(&mut self, pos: Pos, now: f64) {
        let State::Ready { session, view } = &mut self.state else {
            if self.is_walking() {
                self.key(' ', now);
            }
            return;
        };
        match view {
            Showing::Walking(_) => {
                *view = Showing::Plain;
                self.walk_stopped(Stop::Key);
            }
            Showing::Plain | Showing::Floor { .. } | Showing::Song
                if session.interpreter.phase() == (Phase::Playing { colon: false }) =>
            {
                if let Some(game) = session.interpreter.game_in_play() {
                    let goal = Goal::tile(game, pos);
                    self.travel(goal, now);
                    self.explain_next();
                }
            }
            _ => {}
        }
    }

    /// The world tile under view cell `(col, row)` (from the view's top-left) of the camera
    /// last placed, when it may be named (inside the world; in sight, seen).
    pub(crate) fn tile_under(&self, col: u32, row: u32) -> Option<Pos> {
        let (_, camera) = self.camera?;
        let game = self.shown_game().filter(|_| self.shows_world())?;
        let cy = camera.rows.checked_sub(row + 1)?;
        (col < camera.cols)
            .then(|| camera.tile_in(col, cy))
            .filter(|&p| game.rect().contains(p) && self.names(game, p))
    }

    /// V at the menu: watches the save from its start (or says why it cannot).
    fn start_watch(&mut self) {
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        match Watch::of_store(&session.store) {
            Ok(watch) => {
                *view = Showing::Watching {
                    watch: Box::new(watch),
                    closes: false,
                };
                self.camera = None;
                self.message.clear();
            }
            Err(e) => self.message = screens::watch_refused(&e.to_string()),
        }
    }
}

/// A slot of the save folder that holds nothing yet, named after the game in play (`r7`,
/// then `r7-2`, …): where `:Q` keeps a game rather than save over another.
fn fresh_slot(session: &Session) -> Option<SessionStore> {
    let game = session.interpreter.game()?;
    let base = format!("{}{}", game.kind().key().to_ascii_lowercase(), game.seed());
    let base: String = base.chars().take(save::MAX_SLOT_NAME - 4).collect();
    (1..1000)
        .map(|n| {
            if n == 1 {
                base.clone()
            } else {
                format!("{base}-{n}")
            }
        })
        .filter_map(|name| session.store.sibling(&name))
        .find(|store| !store.exists())
}
