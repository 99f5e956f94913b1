//! The front-end session: what the window, the terminal and the browser share, decided once.
//! A [`Shell`] owns
//!
//! - the [`Interpreter`] and the save store ([`Saves`]): keys are fed here, never by a
//!   front-end, and what each key did becomes the message the HUD shows
//!   ([`screens::feedback`]);
//! - the view keys that never reach the interpreter (`docs/keys.md`): Tab (sight in a classic
//!   game; runs and explorations are always played in sight), `M` (the minimap), `?` (help),
//!   `P` (the message log), `V` at the menu (watch the save) and the watch's keys;
//! - the timers, on the front-end's clock (seconds, given to every call that needs it): the
//!   screen between a run's floors ([`screens::FLOOR_SCREEN_SECONDS`]), the goodbye before
//!   closing ([`screens::GOODBYE_SECONDS`]) and the steps of a walk ([`TRAVEL_STEP_SECONDS`]);
//! - the camera ([`Shell::follow`]): recentred on the avatar for a new game, a load, a new
//!   floor or a watch, following it otherwise, and kept on the same tiles when the shown
//!   world's frame moves or grows ([`GameState::origin`]);
//! - keys that may take long (a new world, game or floor, a load, a save: seconds at the
//!   largest sizes) fed on a worker thread: when one is not done within
//!   [`BUSY_AFTER_SECONDS`], the session shows what it is making and for how long, keeps the
//!   keys typed meanwhile for after it, and the front-end goes on answering Ctrl-C and the
//!   window's close (the work is abandoned with the process);
//! - travel (`X`, `>`, a click on a seen tile; [`travel`]): one step a tick, each fed as its
//!   `W`/`A`/`S`/`D` key, stopped by any key; a route through armed traps waits for `Y`;
//! - [`Shell::frame`]: what to show now, as one [`Frame`].
//!
//! The session is in one [`State`] at a time: ready (the interpreter here, with one view
//! over its screens: none, an overlay, the floor screen, a walk, a question, a watch or the
//! goodbye) or busy (the interpreter away on a worker thread). What a key does and what is
//! shown are both read off that one state.
//!
//! A front-end keeps only what is its own: turning its input into keys (and its pointer into
//! a view cell), and painting the frame in pixels or character cells. [`ShellError`] is why a
//! session could not start.

use std::sync::mpsc;

use byog_game::Events;
use byog_game::interpreter::{Interpreter, Phase};
use byog_game::save::{Replaced, Slot};
use byog_game::travel::{Goal, Route};
use byog_game::watch::{Watch, WatchError};
use byog_tile_engine::Camera;

use crate::frame::{MinimapUpkeep, Scene};
use crate::screens::{self, TextScreen};
use crate::store::{SaveCheck, SessionStore};

mod keys;
mod options;
mod show;
mod walk;
mod worker;

pub use options::ShellOptions;
pub use walk::TRAVEL_STEP_SECONDS;
pub use worker::BUSY_AFTER_SECONDS;

use walk::Walking;
use worker::Busy;

/// Why a session could not start: what is the shell's own. A front-end's own failures (no
/// display, no terminal, its I/O) are its error type's (`byog_window::WindowError`,
/// `byog_terminal::TerminalError`), which hold this one.
#[derive(Debug, thiserror::Error)]
pub enum ShellError {
    /// `--watch` with no save to watch, or one that cannot be watched.
    #[error("cannot watch the save: {0}")]
    Watch(#[from] WatchError),
}

/// The interpreter and the store it loads from and saves to: together wherever they go
/// (to a worker thread and back).
#[derive(Debug)]
struct Session {
    interpreter: Interpreter,
    store: SessionStore,
}

/// The one state of a [`Shell`].
#[derive(Debug)]
enum State {
    /// The session is here; `view` says what is over the interpreter's own screen.
    Ready {
        session: Box<Session>,
        view: Showing,
    },
    /// A key is being fed on a worker thread and is taking long.
    Busy(Busy),
}

/// What is shown over the interpreter's own screen (menu, seed entry, game, end screen)
/// while the session is ready, and how keys are read meanwhile.
#[derive(Debug)]
enum Showing {
    /// Nothing: the interpreter's screen, keys to the interpreter.
    Plain,
    /// A screen a view key opened; keys answer it.
    Overlay(Overlay),
    /// The screen between two floors, until `until` (front-end seconds) or a key.
    Floor { until: f64, screen: TextScreen },
    /// The Upkeeper's song over the first run played in a save folder, until the first key
    /// (which plays).
    Song,
    /// A walk (`X`, `>`, a click) under way: a step a tick, any key stops it.
    Walking(Box<Walking>),
    /// A route through armed traps, waiting for `Y`.
    Confirm { goal: Goal, route: Route },
    /// Watching the save; leaving it ends the program when `closes` (`--watch`).
    Watching { watch: Box<Watch>, closes: bool },
    /// The player quit: the goodbye until `at` (front-end seconds); keys are ignored.
    Closing { at: f64 },
}

/// A screen over the game that a view key opened.
#[derive(Debug)]
enum Overlay {
    /// The help of the current mode (`?`), at page `page`.
    Help { page: usize },
    /// The message log (`P`) scrolled `back` messages from the newest.
    Log { back: usize },
    /// The slots `L` can load.
    Slots(Vec<Slot>),
    /// `:Q` would write over another game's save: ask first.
    Replace(Replaced),
}

/// A keyboard session: the interpreter, the save, the watch, the message and the timers, and
/// the rules of what is shown (the module's doc).
#[derive(Debug)]
pub struct Shell {
    state: State,
    /// What a fresh interpreter is made with (after a worker died).
    options: ShellOptions,
    /// The last message ([`screens::feedback`]), empty for none.
    message: String,
    /// The line printed once the front-end is gone ([`screens::saved_line`] after `:Q`).
    farewell: Option<String>,
    /// Sight in a classic game (Tab).
    classic_sight: bool,
    /// Whether the minimap is wanted (`M`); it shows only when the world does not fit.
    minimap_wanted: bool,
    /// The minimap kept between frames.
    minimap: MinimapUpkeep,
    /// The camera over the shown world and the scene it follows; `None` recentres it.
    camera: Option<(Scene, Camera)>,
    /// Whether keys that may take long are fed on a worker thread ([`Shell::on_this_thread`]).
    workers: bool,
    /// Whether the save can be loaded, for the menu.
    save_check: SaveCheck,
    /// The events of the last key fed that acted (a walk looks at them).
    last_events: Option<Events>,
    /// The keys the interpreter consumed since [`Shell::take_fed`] last took them (the
    /// game's key log: [`Shell::take_fed`]).
    fed: String,
    /// A `:` the interpreter took and that waits for its `Q`: kept out of [`Shell::fed`]
    /// until the next key says whether it was `:Q` (then `:Q` enters it) or dropped (then
    /// nothing does).
    colon_held: bool,
    /// Whether a run was started in this session (the song is sung at most once).
    song_sung: bool,
    /// A line for the end screen ([`Shell::note_end`]).
    end_note: Option<String>,
    /// What the HUD's numbers mean, said the first time each appears in a game.
    explainer: screens::Explainer,
}

impl Shell {
    /// A session at the menu, or watching the save (`options.watch`).
    ///
    /// # Errors
    /// [`ShellError::Watch`] when `options.watch` and the save cannot be watched.
    pub fn new(options: ShellOptions) -> Result<Shell, ShellError> {
        let store = SessionStore::of(&options.saves);
        let view = if options.watch {
            Showing::Watching {
                watch: Box::new(Watch::of_store(&store)?),
                closes: true,
            }
        } else {
            Showing::Plain
        };
        Ok(Shell {
            state: State::Ready {
                session: Box::new(Session {
                    interpreter: options.game.interpreter(),
                    store,
                }),
                view,
            },
            options,
            message: String::new(),
            farewell: None,
            classic_sight: false,
            minimap_wanted: true,
            minimap: MinimapUpkeep::default(),
            camera: None,
            save_check: SaveCheck::default(),
            last_events: None,
            fed: String::new(),
            colon_held: false,
            end_note: None,
            workers: true,
            song_sung: false,
            explainer: screens::Explainer::default(),
        })
    }

    /// The session feeding every key on the caller's thread, never on a worker: for a
    /// server that runs many sessions at once on worlds that are made in well under
    /// [`BUSY_AFTER_SECONDS`] (a thread a move of a run would cost more than the move).
    pub fn on_this_thread(mut self) -> Shell {
        self.workers = false;
        self
    }

    /// A session rebuilt from `fed`, the keys [`Shell::take_fed`] gave of another session
    /// with the same options: each is fed to the interpreter at once, in order (a walk's
    /// steps are among them), so the game is the one that session had. Nothing is animated
    /// and no worker thread is used. The rebuilt session's own key log starts empty: the
    /// keys it was rebuilt from are not given again by [`Shell::take_fed`] (a server that
    /// rebuilds a game from its log writes nothing for it).
    ///
    /// # Errors
    /// As [`Shell::new`].
    pub fn replayed(options: ShellOptions, fed: &str) -> Result<Shell, ShellError> {
        let mut shell = Shell::new(options)?;
        for key in fed.chars() {
            shell.feed_now(key, 0.0);
            shell.explain_next();
        }
        shell.fed.clear();
        Ok(shell)
    }

    /// The game's key log since the last call: the keys the interpreter consumed, in order
    /// (menu keys, seed digits, moves and bumps, every step of a walk as the `W`/`A`/`S`/`D`
    /// key it was, `:Q`). A key the interpreter ignored or refused (a report: `i`, a space,
    /// a move after the end, a `:` the next key dropped) never enters it, nor do view keys
    /// (Tab, `M`, `?`, `P`, a watch's). A `:` waiting for its `Q` enters it only with the
    /// `Q`. So [`Shell::replayed`] of everything it gave rebuilds the same game, and
    /// `byog replay --strict` of it refuses nothing.
    pub fn take_fed(&mut self) -> String {
        std::mem::take(&mut self.fed)
    }

    /// After a key the player pressed: the next HUD number waiting to be explained goes on the
    /// message line when the line is free and the game is on screen (a floor's screen, the
    /// song or help over it: it waits).
    fn explain_next(&mut self) {
        let in_play = matches!(self.phase(), Some(Phase::Playing { .. }));
        if in_play && self.shows_world() {
            self.explainer.advance(&self.message);
        }
    }

    /// Shows `message` and keeps it in the message log.
    fn say_logged(&mut self, message: String) {
        self.message = message;
        self.log_message();
    }

    /// Keeps the message shown now in the game's log (when there is one: it is saved with
    /// the game and comes back with it).
    fn log_message(&mut self) {
        if self.message.is_empty() {
            return;
        }
        if let State::Ready { session, .. } = &mut self.state {
            session.interpreter.log_message(self.message.clone());
        }
    }

    /// The interpreter's phase (menu, seed entry, playing, ended); `None` while busy.
    pub fn phase(&self) -> Option<Phase> {
        match &self.state {
            State::Ready { session, .. } => Some(session.interpreter.phase()),
            State::Busy(_) => None,
        }
    }

    /// Whether a key is being fed on a worker thread and taking long.
    pub fn is_busy(&self) -> bool {
        matches!(self.state, State::Busy(_))
    }

    /// Shows `message` in place of the last one (a front-end's own key, such as a zoom).
    pub fn say(&mut self, message: String) {
        self.message = message;
    }

    /// Puts `note` on the end screen, under the game's numbers, for as long as it is shown
    /// (a server's word on the score: where it went, or why it was not recorded).
    pub fn note_end(&mut self, note: String) {
        self.end_note = Some(note);
    }

    /// Moves time on to `now` (front-end seconds): a worker's key done, a walk's next step,
    /// the floor screen's end, the watch's steps. Returns whether what is shown changed.
    pub fn tick(&mut self, now: f64) -> bool {
        match &mut self.state {
            State::Busy(busy) => {
                match busy.done.try_recv() {
                    Ok(fed) => self.finish(fed, now),
                    Err(mpsc::TryRecvError::Empty) => {}
                    Err(mpsc::TryRecvError::Disconnected) => {
                        // The worker died (a bug): say so rather than waiting for ever.
                        self.message = "byog failed while working on that key; the game is \
                                        gone (nothing was saved)"
                            .to_owned();
                        self.state = State::Ready {
                            session: Box::new(Session {
                                interpreter: self.options.game.interpreter(),
                                store: SessionStore::of(&self.options.saves),
                            }),
                            view: Showing::Plain,
                        };
                    }
                }
                // The elapsed time on the busy screen changes.
                true
            }
            State::Ready { view, .. } => match view {
                Showing::Walking(w) if now >= w.next_at => {
                    self.walk_step(now);
                    true
                }
                Showing::Floor { until, .. } if now >= *until => {
                    *view = Showing::Plain;
                    true
                }
                Showing::Watching { watch, .. } => {
                    let before = watch.step_count();
                    let mut changed = false;
                    if let Err(e) = watch.tick(now) {
                        self.message = e.to_string();
                        changed = true;
                    }
                    changed || watch.step_count() != before
                }
                _ => false,
            },
        }
    }

    /// Whether the program should end now (`now` in front-end seconds): the player quit and
    /// the goodbye has been shown.
    pub fn is_over(&self, now: f64) -> bool {
        matches!(self.state, State::Ready { view: Showing::Closing { at }, .. } if now >= at)
    }

    /// The next time (front-end seconds) something changes by itself: the end of the floor
    /// screen or of the goodbye, a walk's next step (a watch's steps and the time shown
    /// while busy are not counted: ask [`Shell::tick`], which says when they changed).
    pub fn deadline(&self) -> Option<f64> {
        match &self.state {
            State::Ready { view, .. } => match view {
                Showing::Closing { at } => Some(*at),
                Showing::Floor { until, .. } => Some(*until),
                Showing::Walking(w) => Some(w.next_at),
                _ => None,
            },
            State::Busy(_) => None,
        }
    }

    /// The line to print once the front-end is gone: where `:Q` saved the game.
    pub fn farewell(&self) -> Option<&str> {
        self.farewell.as_deref()
    }
}

#[cfg(test)]
mod tests;
