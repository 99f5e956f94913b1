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

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use byog_game::Events;
use byog_game::GameState;
use byog_game::explore::ExploreSettings;
use byog_game::interpreter::{
    Closing, GameKind, InterpretError, Interpreter, Outcome, Phase, travel_goal,
};
use byog_game::keys::{END, HOME, MINIMAP_KEY, SIGHT_KEY, move_alias};
use byog_game::save::{self, Replaced, Slot};
use byog_game::travel::{self, Goal, Route, Stop, Travel};
use byog_game::watch::{self, Watch, WatchError};
use byog_tile_engine::{Camera, Pos, WallStyle};
use byog_worlds::generator::GeneratorSettings;

use crate::frame::{Frame, FrameRequest, Look, MinimapUpkeep, view_of};
use crate::screens::{self, Context, Line, SaveState, Screen, Style, TextScreen};
use crate::store::{SaveCheck, Saves, Store};

/// Why a session could not start: what is the shell's own. A front-end's own failures (no
/// display, no terminal, its I/O) are its error type's (`byog_window::WindowError`,
/// `byog_terminal::TerminalError`), which hold this one.
#[derive(Debug, thiserror::Error)]
pub enum ShellError {
    /// `--watch` with no save to watch, or one that cannot be watched.
    #[error("cannot watch the save: {0}")]
    Watch(#[from] WatchError),
}

/// How long a key may take before the session shows that it is working on it (seconds).
pub const BUSY_AFTER_SECONDS: f64 = 0.2;

/// Seconds between two steps of a walk (`X`, `>`, a click) on screen: fast enough that a
/// walk across a floor takes a second or two, slow enough to be followed (Brogue's travel
/// shows every step too).
pub const TRAVEL_STEP_SECONDS: f64 = 0.025;

/// Which front-end plays a session: the words for how to quit differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FrontEnd {
    /// The macroquad window.
    #[default]
    Window,
    /// A terminal.
    Terminal,
    /// A browser, through the web server.
    Browser,
}

impl FrontEnd {
    /// How to quit at once while the session is busy, in a player's words.
    pub fn quit_now(self) -> &'static str {
        match self {
            FrontEnd::Window => "Ctrl-C (or closing the window) quits",
            FrontEnd::Terminal => "Ctrl-C quits",
            FrontEnd::Browser => "closing the tab leaves",
        }
    }
}

/// What a session starts with (the command line's flags).
#[derive(Debug, Clone)]
pub struct ShellOptions {
    /// Width of new worlds in tiles.
    pub width: usize,
    /// Height of new worlds in tiles.
    pub height: usize,
    /// Generator settings for new worlds.
    pub settings: GeneratorSettings,
    /// Floors in a run (`--floors`).
    pub floors: u32,
    /// Explorations' `--max-unexplored` and `--branch-timer`.
    pub explore: ExploreSettings,
    /// Where games are saved and loaded from.
    pub saves: Saves,
    /// How walls are drawn (`--walls`); `None`: box in runs and explorations, Java `#` in
    /// the classic game.
    pub walls: Option<WallStyle>,
    /// Watch the save instead of playing (`--watch`): leaving the watch ends the program.
    pub watch: bool,
    /// The front-end playing it (each sets its own).
    pub front_end: FrontEnd,
    /// Play one game: once it has ended, no key reaches the interpreter but the view keys
    /// ([`Interpreter::with_one_game`]; a web server's game, whose next game is the page's).
    pub one_game: bool,
    /// What names the seed on every screen when it is hidden (a server's daily or live game:
    /// "daily 2026-11-28", "live game"); `None` shows it.
    pub seed_label: Option<String>,
}

/// What a shown world is, for the camera: a new one recentres the camera, the same one with
/// its frame moved or grown keeps the camera on the same tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scene {
    /// The game's seed.
    pub seed: u64,
    /// A run's floor (0 outside runs).
    pub floor: u32,
    /// The shown world's width in tiles.
    pub width: usize,
    /// The shown world's height in tiles.
    pub height: usize,
    /// Where the world's `(0, 0)` lies in the dungeon (an exploration's frame moves as its
    /// map grows or the avatar changes maps).
    pub origin: Pos,
}

impl Scene {
    /// The scene `game` shows.
    pub fn of(game: &GameState) -> Scene {
        let world = game.rect();
        Scene {
            seed: game.seed(),
            floor: game.run().map_or(0, |r| r.floor),
            width: world.width as usize,
            height: world.height as usize,
            origin: game.origin(),
        }
    }

    /// Whether `next` is this scene with only its frame moved or grown (an exploration
    /// made a room or changed maps).
    pub fn is_moved(&self, next: &Scene) -> bool {
        (self.seed, self.floor) == (next.seed, next.floor)
            && (self.origin, self.width, self.height) != (next.origin, next.width, next.height)
    }
}

/// The interpreter and the store it loads from and saves to: together wherever they go
/// (to a worker thread and back).
#[derive(Debug)]
struct Session {
    interpreter: Interpreter,
    store: Store,
}

/// What a key fed on a worker thread gives back.
type Fed = (Box<Session>, Result<Outcome, InterpretError>);

/// The one state of a [`Shell`].
#[derive(Debug)]
enum State {
    /// The session is here; `view` says what is over the interpreter's own screen.
    Ready { session: Box<Session>, view: View },
    /// A key is being fed on a worker thread and is taking long.
    Busy(Busy),
}

/// What is shown over the interpreter's own screen (menu, seed entry, game, end screen)
/// while the session is ready, and how keys are read meanwhile.
#[derive(Debug)]
enum View {
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

/// A key that is taking long, fed on a worker thread: the session is with it until it is
/// done.
#[derive(Debug)]
struct Busy {
    /// The key being fed.
    key: char,
    /// What it is making, in a player's words ("making the world of seed 7 …").
    what: String,
    /// When the key was fed (front-end seconds).
    since: f64,
    /// The worker's result.
    done: mpsc::Receiver<Fed>,
    /// The walk whose step it is, if it is one.
    walking: Option<Box<Walking>>,
    /// Keys typed meanwhile, fed once it is done.
    queued: VecDeque<char>,
    /// The worker's last progress report, if the work reports any
    /// ([`byog_worlds::progress`]: a world's or a floor's steps).
    progress: Arc<Mutex<Option<byog_worlds::progress::Report>>>,
}

/// A walk under way: the planner's state, when its next step is due, and whether the last
/// step fed is still to be looked at.
#[derive(Debug)]
struct Walking {
    travel: Travel,
    next_at: f64,
    waiting: bool,
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
}

impl Shell {
    /// A session at the menu, or watching the save (`options.watch`).
    ///
    /// # Errors
    /// [`ShellError::Watch`] when `options.watch` and the save cannot be watched.
    pub fn new(options: ShellOptions) -> Result<Shell, ShellError> {
        let store = Store::of(&options.saves);
        let view = if options.watch {
            View::Watching {
                watch: Box::new(Watch::of_store(&store)?),
                closes: true,
            }
        } else {
            View::Plain
        };
        Ok(Shell {
            state: State::Ready {
                session: Box::new(Session {
                    interpreter: interpreter_for(&options),
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
            View::Closing { .. } => {}
            View::Walking(_) => {
                *view = View::Plain;
                self.walk_stopped(Stop::Key);
            }
            View::Confirm { .. } => {
                let View::Confirm { goal, route } = std::mem::replace(view, View::Plain) else {
                    unreachable!("matched above")
                };
                if key.eq_ignore_ascii_case(&'Y') {
                    self.start_walk(goal, route.armed, now);
                } else {
                    self.message = "travel cancelled".to_owned();
                }
            }
            View::Overlay(overlay) => {
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
                            _ => *view = View::Plain,
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
                        *view = View::Plain;
                        if let Some(store) = store {
                            session.store = store;
                            self.feed('L', now);
                        }
                    }
                    (Overlay::Replace(_), 'Y') => {
                        *view = View::Plain;
                        self.feed('Q', now);
                    }
                    (Overlay::Replace(_), 'N') => {
                        *view = View::Plain;
                        if let Some(store) = fresh_slot(session) {
                            session.store = store;
                        }
                        self.feed('Q', now);
                    }
                    (Overlay::Replace(_), _) => {
                        *view = View::Plain;
                        self.message = "not saved: the slot holds another game".to_owned();
                    }
                    _ => *view = View::Plain,
                }
            }
            View::Watching { watch, closes } => {
                if key == SIGHT_KEY {
                    self.classic_sight = !self.classic_sight;
                } else if key.eq_ignore_ascii_case(&MINIMAP_KEY) {
                    self.minimap_wanted = !self.minimap_wanted;
                } else {
                    match watch::Control::of_key(key) {
                        Some(watch::Control::Leave) => {
                            self.camera = None;
                            *view = if *closes {
                                View::Closing { at: now }
                            } else {
                                View::Plain
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
            View::Song => {
                *view = View::Plain;
                self.play_key(key, now);
            }
            View::Plain | View::Floor { .. } => self.play_key(key, now),
        }
    }

    /// A key with nothing over the interpreter's screen: the view keys, travel, the watch
    /// key, and every other key fed.
    fn play_key(&mut self, key: char, now: f64) {
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        let phase = session.interpreter.phase();
        let in_game = matches!(phase, Phase::Playing { .. } | Phase::Ended { .. });
        if key == HOME || key == END {
            // Home and End only seek a watch.
            return;
        }
        if phase == Phase::Menu
            && key.eq_ignore_ascii_case(&'L')
            && !slot_chosen(&self.options.saves)
        {
            // More than the current slot to choose from, and none chosen: list them.
            let slots = session.store.slots();
            let current = session.store.slot_name();
            if slots.iter().any(|s| s.name != current) {
                *view = View::Overlay(Overlay::Slots(slots));
                return;
            }
        }
        if matches!(
            phase,
            Phase::Playing { colon: true } | Phase::Ended { colon: true }
        ) && key.eq_ignore_ascii_case(&'Q')
            && let Some(game) = session.interpreter.game()
            && let Some(replaced) = save::replaced_by(&session.store, game)
        {
            *view = View::Overlay(Overlay::Replace(replaced));
            return;
        }
        if (in_game || phase == Phase::Menu) && key == screens::HELP_KEY {
            *view = View::Overlay(Overlay::Help { page: 0 });
            return;
        }
        if in_game && key.eq_ignore_ascii_case(&screens::LOG_KEY) {
            *view = View::Overlay(Overlay::Log { back: 0 });
            return;
        }
        let key = match phase {
            Phase::Playing { .. } => move_alias(key).unwrap_or(key),
            _ => key,
        };
        if key == SIGHT_KEY {
            self.classic_sight = !self.classic_sight;
        } else if matches!(phase, Phase::Playing { .. }) && key.eq_ignore_ascii_case(&MINIMAP_KEY) {
            self.minimap_wanted = !self.minimap_wanted;
        } else if phase == (Phase::Playing { colon: false })
            && let Some(goal) = travel_goal(key)
        {
            self.travel(goal, now);
        } else if key.eq_ignore_ascii_case(&screens::WATCH_KEY) && phase == Phase::Menu {
            self.start_watch();
        } else {
            self.feed(key, now);
        }
    }

    /// A click on view cell `(col, row)` (from the view's top-left, as [`Frame::view`]'s
    /// cells): in a game in play, walks the shortest known way to its tile, as travel does;
    /// during a walk, stops it. A cell off the world, or never seen in sight, does nothing
    /// (but stop a walk).
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
    pub fn click_tile(&mut self, pos: Pos, now: f64) {
        let State::Ready { session, view } = &mut self.state else {
            if self.is_walking() {
                self.key(' ', now);
            }
            return;
        };
        match view {
            View::Walking(_) => {
                *view = View::Plain;
                self.walk_stopped(Stop::Key);
            }
            View::Plain | View::Floor { .. } | View::Song
                if session.interpreter.phase() == (Phase::Playing { colon: false }) =>
            {
                if let Some(game) = session.interpreter.game_in_play() {
                    let goal = Goal::tile(game, pos);
                    self.travel(goal, now);
                }
            }
            _ => {}
        }
    }

    /// The world tile under view cell `(col, row)` (from the view's top-left) of the camera
    /// last placed, when it may be named (inside the world; in sight, seen).
    pub fn tile_under(&self, col: u32, row: u32) -> Option<Pos> {
        let (_, camera) = self.camera?;
        let game = self.shown_game().filter(|_| self.shows_world())?;
        let cy = camera.rows.checked_sub(row + 1)?;
        (col < camera.cols)
            .then(|| camera.tile_in(col, cy))
            .filter(|&p| game.rect().contains(p) && self.names(game, p))
    }

    /// Starts a walk to `goal`, or says why there is none; a route of more than one step
    /// through armed traps is shown and waits for `Y`.
    fn travel(&mut self, goal: Goal, now: f64) {
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        let Some(game) = session.interpreter.game_in_play() else {
            return;
        };
        match travel::plan(game, goal) {
            Err(stop) => self.say_logged(stop.to_string()),
            Ok(route) if route.armed > 0 && route.steps.len() > 1 => {
                let health = game.health().unwrap_or(0);
                self.message = format!(
                    "the way crosses {} armed trap{} and costs {} of your {health} hearts: Y goes, any other key stays",
                    route.armed,
                    if route.armed == 1 { "" } else { "s" },
                    route.armed
                );
                *view = View::Confirm { goal, route };
            }
            Ok(_) => self.start_walk(goal, 0, now),
        }
    }

    /// Starts walking to `goal`, going on through `hearts` losses of health.
    fn start_walk(&mut self, goal: Goal, hearts: u32, now: f64) {
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        if let Some(game) = session.interpreter.game_in_play() {
            *view = View::Walking(Box::new(Walking {
                travel: Travel::new(game, goal).allowing_hurts(hearts),
                next_at: now,
                waiting: false,
            }));
            self.walk_step(now);
        }
    }

    /// One step of the walk: looks at the last step fed if not yet done (stop?), then feeds
    /// the next, and looks at it at once unless it went to a worker thread.
    fn walk_step(&mut self, now: f64) {
        self.observe_walk();
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        let View::Walking(walking) = view else {
            return;
        };
        let Some(game) = session.interpreter.game_in_play() else {
            *view = View::Plain;
            return;
        };
        match walking.travel.next(game) {
            Err(stop) => {
                *view = View::Plain;
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
        let View::Walking(walking) = view else {
            return;
        };
        if !walking.waiting {
            return;
        }
        walking.waiting = false;
        let events = self.last_events.take().unwrap_or(Events::none());
        let Some(game) = session.interpreter.game_in_play() else {
            *view = View::Plain;
            return;
        };
        if let Some(stop) = walking.travel.observe(game, &events) {
            *view = View::Plain;
            self.walk_stopped(stop);
        }
    }

    /// The walk has stopped: says why, unless the last step's own message says it (a
    /// feature handled, a new floor, the end) or it simply arrived.
    fn walk_stopped(&mut self, stop: Stop) {
        match stop {
            Stop::Arrived | Stop::Event | Stop::Over => {}
            Stop::Hurt if !self.message.is_empty() => {}
            _ => self.say_logged(stop.to_string()),
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
                view: View::Confirm { route, .. },
                ..
            } => Some(route.tiles.as_slice()),
            _ => None,
        }
    }

    /// Whether a walk is under way.
    pub fn is_walking(&self) -> bool {
        match &self.state {
            State::Ready { view, .. } => matches!(view, View::Walking(_)),
            State::Busy(busy) => busy.walking.is_some(),
        }
    }

    /// V at the menu: watches the save from its start (or says why it cannot).
    fn start_watch(&mut self) {
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        match Watch::of_store(&session.store) {
            Ok(watch) => {
                *view = View::Watching {
                    watch: Box::new(watch),
                    closes: false,
                };
                self.camera = None;
                self.message.clear();
            }
            Err(e) => self.message = screens::watch_refused(&e.to_string()),
        }
    }

    /// Feeds one key to the interpreter and keeps what it said. A key that may take long
    /// ([`long_work`]) is fed on a worker thread; if it is not done within
    /// [`BUSY_AFTER_SECONDS`] the session is busy until [`Shell::tick`] sees it done.
    fn feed(&mut self, key: char, now: f64) {
        let State::Ready { session, .. } = &self.state else {
            return;
        };
        let Some(what) = long_work(
            &session.interpreter,
            key,
            self.options.seed_label.as_deref(),
        )
        .filter(|_| self.workers) else {
            return self.feed_now(key, now);
        };
        let (tx, done) = mpsc::channel();
        let ready = std::mem::replace(
            &mut self.state,
            State::Busy(Busy {
                key,
                what,
                since: now,
                done,
                walking: None,
                queued: VecDeque::new(),
                progress: Arc::default(),
            }),
        );
        let State::Ready { mut session, view } = ready else {
            unreachable!("checked ready above")
        };
        if let (State::Busy(busy), View::Walking(walking)) = (&mut self.state, view) {
            busy.walking = Some(walking);
        }
        let progress = match &self.state {
            State::Busy(busy) => Arc::clone(&busy.progress),
            State::Ready { .. } => unreachable!("just set"),
        };
        std::thread::spawn(move || {
            let watch = byog_worlds::progress::watch(move |report| {
                if let Ok(mut last) = progress.lock() {
                    *last = Some(report);
                }
            });
            let outcome = session.interpreter.feed(key, &mut session.store);
            drop(watch);
            let _ = tx.send((session, outcome));
        });
        let State::Busy(busy) = &self.state else {
            unreachable!("just set")
        };
        if let Ok(fed) = busy
            .done
            .recv_timeout(Duration::from_secs_f64(BUSY_AFTER_SECONDS))
        {
            self.finish(fed, now);
        }
    }

    /// Feeds one key to the interpreter here and now.
    fn feed_now(&mut self, key: char, now: f64) {
        let State::Ready { session, .. } = &mut self.state else {
            return;
        };
        let outcome = session.interpreter.feed(key, &mut session.store);
        self.fed(key, outcome, now);
    }

    /// A key fed on a worker thread is done: the session comes back, with the walk it was a
    /// step of; then the keys typed meanwhile, in order, until one is busy again.
    fn finish(&mut self, (session, outcome): Fed, now: f64) {
        let State::Busy(busy) = &mut self.state else {
            return;
        };
        let view = busy.walking.take().map_or(View::Plain, View::Walking);
        let queued = std::mem::take(&mut busy.queued);
        let key = busy.key;
        self.state = State::Ready { session, view };
        self.fed(key, outcome, now);
        for key in queued {
            if matches!(self.state, State::Busy(_)) {
                if let State::Busy(busy) = &mut self.state {
                    busy.queued.push_back(key);
                }
            } else {
                self.key(key, now);
            }
        }
    }

    /// Keeps what a key did: the key in the key log if the interpreter consumed it
    /// ([`Shell::take_fed`]), the message, the screen between floors, the goodbye.
    fn fed(&mut self, key: char, outcome: Result<Outcome, InterpretError>, now: f64) {
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        log_key(
            &mut self.fed,
            &mut self.colon_held,
            key,
            &outcome,
            session.interpreter.phase(),
        );
        // A key ends the floor screen.
        if matches!(view, View::Floor { .. }) {
            *view = View::Plain;
        }
        match outcome {
            Ok(outcome) => {
                let location = save::SaveStore::location(&session.store);
                // A key played past the song (a session rebuilt by [`Shell::replayed`] feeds
                // its keys without the song's own first key) leaves it.
                if matches!(view, View::Song) && !matches!(outcome, Outcome::Started) {
                    *view = View::Plain;
                }
                match &outcome {
                    Outcome::Started => {
                        self.camera = None;
                        if session.interpreter.game().map(GameState::kind) == Some(GameKind::Run)
                            && !self.song_sung
                            && first_song(&session.store)
                        {
                            *view = View::Song;
                        }
                        self.song_sung |=
                            session.interpreter.game().map(GameState::kind) == Some(GameKind::Run);
                    }
                    Outcome::Acted(events) => {
                        self.last_events = Some(*events);
                        if let Some(screen) =
                            screens::descent_screen(events, session.interpreter.game())
                        {
                            self.camera = None;
                            if matches!(view, View::Plain) {
                                *view = View::Floor {
                                    until: now + screens::FLOOR_SCREEN_SECONDS,
                                    screen,
                                };
                            }
                        }
                    }
                    Outcome::Closed(Closing::SavedAndQuit) => {
                        self.farewell = session.interpreter.game().map(|game| {
                            let mut line = screens::saved_line(game, &location);
                            if let Some(replaced) = session.interpreter.replaced() {
                                line.push_str(&format!("; {replaced}"));
                            }
                            line
                        });
                    }
                    _ => {}
                }
                let f = screens::feedback(&outcome, &location);
                self.message = f.message;
                if let Some(note) = session.interpreter.take_note() {
                    // A `:` the key dropped: said first, then what the key did.
                    let note = note.player_message();
                    self.message = if self.message.is_empty() {
                        note
                    } else {
                        format!("{note} · {}", self.message)
                    };
                }
                if let (Outcome::Closed(Closing::SavedAndQuit), Some(replaced)) =
                    (&outcome, session.interpreter.replaced())
                {
                    self.message = format!("{} ({replaced})", self.message);
                }
                if f.closing {
                    *view = View::Closing {
                        at: now + screens::GOODBYE_SECONDS,
                    };
                }
            }
            Err(e) => self.message = e.to_string(),
        }
        self.log_message();
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
                                interpreter: interpreter_for(&self.options),
                                store: Store::of(&self.options.saves),
                            }),
                            view: View::Plain,
                        };
                    }
                }
                // The elapsed time on the busy screen changes.
                true
            }
            State::Ready { view, .. } => match view {
                View::Walking(w) if now >= w.next_at => {
                    self.walk_step(now);
                    true
                }
                View::Floor { until, .. } if now >= *until => {
                    *view = View::Plain;
                    true
                }
                View::Watching { watch, .. } => {
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
        matches!(self.state, State::Ready { view: View::Closing { at }, .. } if now >= at)
    }

    /// The next time (front-end seconds) something changes by itself: the end of the floor
    /// screen or of the goodbye, a walk's next step (a watch's steps and the time shown
    /// while busy are not counted: ask [`Shell::tick`], which says when they changed).
    pub fn deadline(&self) -> Option<f64> {
        match &self.state {
            State::Ready { view, .. } => match view {
                View::Closing { at } => Some(*at),
                View::Floor { until, .. } => Some(*until),
                View::Walking(w) => Some(w.next_at),
                _ => None,
            },
            State::Busy(_) => None,
        }
    }

    /// The line to print once the front-end is gone: where `:Q` saved the game.
    pub fn farewell(&self) -> Option<&str> {
        self.farewell.as_deref()
    }

    /// The game on screen: the one watched, else the interpreter's (also after it ended);
    /// none while busy.
    pub fn shown_game(&self) -> Option<&GameState> {
        match &self.state {
            State::Ready {
                view: View::Watching { watch, .. },
                ..
            } => watch.game(),
            State::Ready { session, .. } => session.interpreter.game(),
            State::Busy(_) => None,
        }
    }

    /// Whether the world is on screen (a game in play, or a watch) rather than a text screen;
    /// the front-ends' own game keys (the window's zoom) work only then.
    pub fn shows_world(&self) -> bool {
        match &self.state {
            State::Ready { session, view } => match view {
                View::Watching { .. } => true,
                View::Plain | View::Walking(_) | View::Confirm { .. } => {
                    matches!(session.interpreter.phase(), Phase::Playing { .. })
                }
                View::Overlay(_) | View::Floor { .. } | View::Song | View::Closing { .. } => false,
            },
            State::Busy(_) => false,
        }
    }

    /// Whether `game` is drawn in sight: a run and an exploration always, a classic game
    /// when Tab says so.
    pub fn in_sight(&self, game: &GameState) -> bool {
        game.run().is_some() || game.explore().is_some() || self.classic_sight
    }

    /// How `game`'s walls are drawn: `--walls`, else box walls in runs and explorations and
    /// the Java `#` in the classic game.
    pub fn walls(&self, game: &GameState) -> WallStyle {
        self.options
            .walls
            .unwrap_or(if game.run().is_some() || game.explore().is_some() {
                WallStyle::Box
            } else {
                WallStyle::Java
            })
    }

    /// Whether the shown world is drawn at a fixed tile size, the camera scrolling, rather
    /// than scaled to fit: an exploration's world grows room by room.
    pub fn fixed_tile_size(&self) -> bool {
        self.shown_game().is_some_and(|g| g.explore().is_some())
    }

    /// Whether the tile at `pos` may be named under the pointer: in sight, only one seen.
    pub fn names(&self, game: &GameState, pos: Pos) -> bool {
        !self.in_sight(game) || game.has_seen(pos)
    }

    /// The camera over the shown world for a view of `cols × rows` tiles, following the
    /// avatar: recentred for a new scene (or after a new game, a load, a new floor, a watch
    /// started or left), kept on the same tiles when the scene's frame moved. `None` when no
    /// world is shown.
    pub fn follow(&mut self, cols: u32, rows: u32) -> Option<Camera> {
        let game = self.shown_game().filter(|_| self.shows_world())?;
        let scene = Scene::of(game);
        let (w, h, at) = (scene.width, scene.height, game.avatar());
        // In sight, nothing lit is ever off the view: the light's radius and one round the
        // avatar stay in it.
        let keep = if self.in_sight(game) {
            byog_game::game::SIGHT_RADIUS + 1
        } else {
            0
        };
        let camera = match self.camera {
            Some((s, camera)) if s == scene => camera.follow_keeping(cols, rows, w, h, at, keep),
            Some((s, mut camera)) if s.is_moved(&scene) => {
                camera.origin.x += s.origin.x - scene.origin.x;
                camera.origin.y += s.origin.y - scene.origin.y;
                camera.follow_keeping(cols, rows, w, h, at, keep)
            }
            _ => Camera::centred(cols, rows, w, h, at),
        };
        self.camera = Some((scene, camera));
        Some(camera)
    }

    /// The camera as [`Shell::follow`] last placed it, and its scene.
    pub fn camera(&self) -> Option<(Scene, Camera)> {
        self.camera
    }

    /// What to show now (`now` in front-end seconds), as one [`Frame`] for a view of
    /// `request`'s size: the camera follows the avatar, the HUD names the tile under the
    /// pointer, and the view's cells and the minimap are composed (only the tiles on screen).
    pub fn frame(&mut self, now: f64, request: &FrameRequest) -> Frame {
        let camera = self.follow(request.view_cols, request.view_rows);
        let under = request.pointer.and_then(|(c, r)| self.tile_under(c, r));
        let screen = self.screen(now, under);
        let mut frame = Frame {
            screen,
            view: None,
            minimap: None,
        };
        if !matches!(frame.screen, Screen::Game(_)) {
            return frame;
        }
        let (Some(camera), Some(game)) = (camera, self.shown_game()) else {
            return frame;
        };
        let sight = self.in_sight(game);
        let look = Look {
            walls: self.walls(game),
            sight,
        };
        frame.view = Some(view_of(game, &camera, look, self.route().unwrap_or(&[])));
        if let Some(max) = request.minimap {
            let scene = Scene::of(game);
            let shown = match &self.state {
                State::Ready {
                    view: View::Watching { watch, .. },
                    ..
                } => watch.game(),
                State::Ready { session, .. } => session.interpreter.game(),
                State::Busy(_) => None,
            };
            if let Some(game) = shown {
                // Kept up to date whether shown or not, so that `M` shows it current.
                let map = self.minimap.frame(game, scene, sight, &camera, max);
                frame.minimap = map.filter(|_| self.minimap_wanted);
            }
        }
        frame
    }

    /// What to show now as a screen (`now` in front-end seconds), with `under_mouse` the
    /// world tile under the pointer (already checked with [`Shell::names`]): the busy
    /// screen, an overlay, the screen between floors, the watch's HUD, or the interpreter's
    /// screen.
    pub fn screen(&mut self, now: f64, under_mouse: Option<Pos>) -> Screen {
        let (session, view) = match &self.state {
            State::Busy(busy) => {
                let progress = busy.progress.lock().ok().and_then(|last| *last);
                return Screen::Text(screens::busy_screen(
                    &busy.what,
                    now - busy.since,
                    progress,
                    self.options.front_end.quit_now(),
                ));
            }
            State::Ready { session, view } => (session, view),
        };
        match view {
            View::Overlay(Overlay::Help { page }) => {
                let phase = session.interpreter.phase();
                let kind = session.interpreter.game().map(GameState::kind);
                Screen::Text(screens::help_screen(
                    kind.filter(|_| phase != Phase::Menu),
                    *page,
                ))
            }
            View::Song => Screen::Text(screens::tutorial_screen()),
            View::Overlay(Overlay::Log { back }) => {
                let log: Vec<String> = session
                    .interpreter
                    .game()
                    .map(|g| g.log().iter().cloned().collect())
                    .unwrap_or_default();
                Screen::Text(screens::log_screen(&log, *back))
            }
            View::Overlay(Overlay::Slots(slots)) => {
                Screen::Text(screens::slots_screen(slots, &session.store.slot_name()))
            }
            View::Overlay(Overlay::Replace(replaced)) => Screen::Text(screens::replace_screen(
                replaced,
                &session.store.slot_name(),
            )),
            View::Floor { screen, .. } => Screen::Text(screen.clone()),
            View::Watching { watch, .. } => {
                match screens::watch_hud(watch, under_mouse, &self.message) {
                    Some(hud) => Screen::Game(hud),
                    None => Screen::Text(TextScreen {
                        lines: vec![Line::new(self.message.clone(), Style::Heading)],
                        message: None,
                    }),
                }
            }
            View::Plain | View::Walking(_) | View::Confirm { .. } | View::Closing { .. } => {
                // Only the menu shows the save: the files are looked at only there.
                let menu = session.interpreter.phase() == Phase::Menu;
                let save = if menu {
                    self.save_check.state_of(&session.store)
                } else {
                    SaveState::Missing
                };
                let others = if menu && !slot_chosen(&self.options.saves) {
                    self.save_check.others(&session.store)
                } else {
                    0
                };
                screens::screen(
                    &session.interpreter,
                    Context {
                        save: &save,
                        others,
                        message: &self.message,
                        under_mouse,
                        seed_label: self.options.seed_label.as_deref(),
                        end_note: self.end_note.as_deref(),
                        front_end: self.options.front_end,
                    },
                )
            }
        }
    }
}

/// The file in a save folder that says the Upkeeper's song was sung there (the first run
/// played with that folder shows it).
pub const SONG_SUNG: &str = ".upkeeper-song-sung";

/// Whether the first run of `store`'s save folder is starting: true once per folder (it leaves
/// [`SONG_SUNG`] there; a folder that cannot be written sings every time), and for a session
/// with no save folder.
fn first_song(store: &Store) -> bool {
    let Some(file) = store.file() else {
        return true;
    };
    let marker = file.folder().join(SONG_SUNG);
    if marker.exists() {
        return false;
    }
    let _ = std::fs::create_dir_all(file.folder())
        .and_then(|()| std::fs::write(&marker, "the Upkeeper's song was sung here\n"));
    true
}

/// Whether `--slot` chose the slot (`L` then loads it rather than listing the folder's).
fn slot_chosen(saves: &Saves) -> bool {
    matches!(saves, Saves::Folder { slot: Some(_), .. })
}

/// A fresh interpreter for `options`' new games.
/// Keeps `key` in the key log `fed` when the interpreter consumed it (its `outcome`, the
/// interpreter now in `phase`): not when it was reported (ignored or refused), found no save,
/// or failed. A `:` that leaves the interpreter waiting for `Q` is held (`colon_held`) and
/// enters the log only as the `:Q` that closed the session; a held `:` is dropped by any
/// other key, as the interpreter drops it.
fn log_key(
    fed: &mut String,
    colon_held: &mut bool,
    key: char,
    outcome: &Result<Outcome, InterpretError>,
    phase: Phase,
) {
    let held = std::mem::replace(colon_held, false);
    if matches!(
        phase,
        Phase::Playing { colon: true } | Phase::Ended { colon: true }
    ) {
        *colon_held = true;
        return;
    }
    match outcome {
        Ok(Outcome::Closed(Closing::SavedAndQuit)) if held => fed.push_str(":Q"),
        Ok(Outcome::Reported(_) | Outcome::NoSave) | Err(_) => {}
        Ok(_) => fed.push(key),
    }
}

fn interpreter_for(options: &ShellOptions) -> Interpreter {
    let interpreter = Interpreter::new(options.width, options.height, options.settings)
        .with_floors(options.floors)
        .with_explore(options.explore);
    if options.one_game {
        interpreter.with_one_game()
    } else {
        interpreter
    }
}

/// What `key` makes when it may take long, in a player's words: `S` starting a game (a
/// world, a run's first floor), `L` loading the save, `Q` after `:` saving, and a move in a
/// run (into an exit: the next floor). `None` for the keys that never take long.
/// A hidden seed (`seed_label`) is named by its label.
fn long_work(interpreter: &Interpreter, key: char, seed_label: Option<&str>) -> Option<String> {
    let upper = key.to_ascii_uppercase();
    let (w, h) = (interpreter.width(), interpreter.height());
    match interpreter.phase() {
        Phase::SeedEntry { kind, seed, .. } if upper == 'S' => Some(format!(
            "making the {} of {} ({w} × {h} tiles at most)",
            kind.noun(),
            seed_label.map_or_else(|| format!("seed {seed}"), str::to_owned)
        )),
        Phase::Menu if upper == 'L' => Some("loading the save".to_owned()),
        Phase::Playing { colon: true } | Phase::Ended { colon: true } if upper == 'Q' => {
            Some("saving the game".to_owned())
        }
        Phase::Playing { colon: false }
            if "WASD".contains(upper) && interpreter.game()?.run().is_some() =>
        {
            Some("making the next floor".to_owned())
        }
        _ => None,
    }
}

/// A slot of the save folder that holds nothing yet, named after the game in play (`r7`,
/// then `r7-2`, …): where `:Q` keeps a game rather than save over another.
fn fresh_slot(session: &Session) -> Option<Store> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn options(dir: &Path) -> ShellOptions {
        ShellOptions {
            width: 80,
            height: 30,
            settings: GeneratorSettings::default(),
            floors: 3,
            explore: ExploreSettings::default(),
            saves: Saves::Folder {
                dir: dir.to_owned(),
                slot: None,
            },
            walls: None,
            watch: false,
            front_end: FrontEnd::Terminal,
            one_game: false,
            seed_label: None,
        }
    }

    fn shell(dir: &Path) -> Shell {
        Shell::new(options(dir)).unwrap()
    }

    fn keys(shell: &mut Shell, keys: &str, now: f64) {
        for k in keys.chars() {
            shell.key(k, now);
        }
    }

    #[test]
    fn a_key_that_takes_long_keeps_the_keys_typed_meanwhile_for_after_it() {
        // A world of 4096 × 4096 tiles takes longer than BUSY_AFTER_SECONDS in any build.
        let dir = tempfile::tempdir().unwrap();
        let mut s = Shell::new(ShellOptions {
            width: 4096,
            height: 4096,
            ..options(dir.path())
        })
        .unwrap();
        keys(&mut s, "N77S", 0.0);
        assert!(s.is_busy(), "the world is made on a worker thread");
        assert_eq!(s.shown_game(), None);
        let Screen::Text(busy) = s.screen(1.0, None) else {
            panic!("a text screen while busy");
        };
        assert!(busy.lines[0].text.starts_with("making the game of seed 77"));
        // The generator reports from its first step on (byog_worlds::progress), on the
        // worker's thread: the screen names the step and the share done over a bar.
        let stages = [
            "placing the rooms",
            "growing the mazes",
            "finding the connectors",
            "joining the regions",
            "filling the dead ends",
            "placing the avatar and the exit",
        ];
        let step = &busy.lines[2].text;
        assert!(step.ends_with("% · 1.0 s"), "{step}");
        assert!(stages.iter().any(|s| step.starts_with(s)), "{step}");
        assert!(busy.lines[3].text.starts_with('['), "{:?}", busy.lines[3]);
        // In the words of the front-end playing (issue 31, problem 17: no window here).
        assert_eq!(
            busy.lines.last().unwrap().text,
            "Ctrl-C quits; nothing is saved"
        );
        // Typed while busy: kept, and fed in order once the world is there.
        keys(&mut s, "WA\t:Q", 1.0);
        let mut now = 1.0;
        let mut shares = Vec::new();
        while s.is_busy() {
            if let Screen::Text(busy) = s.screen(now, None) {
                let line = &busy.lines[2].text;
                if let Some((share, _)) = line.split(" · ").nth(1).and_then(|p| p.split_once('%'))
                {
                    shares.push(share.parse::<u32>().unwrap());
                }
            }
            std::thread::sleep(Duration::from_millis(20));
            now += 0.02;
            assert!(s.tick(now));
        }
        // The share never goes back within one world (one attempt: the default settings'
        // 4096² world meets its requirements on the first).
        assert!(shares.windows(2).all(|w| w[0] <= w[1]), "{shares:?}");
        let game = s.shown_game().expect("the game, once made");
        assert_eq!(game.history(), replayed_history("N77SWA", 4096, 4096));
        assert!(s.in_sight(game), "Tab, typed meanwhile, toggled sight");
        assert!(s.farewell().is_some(), ":Q, typed meanwhile, saved");
    }

    #[test]
    fn a_dropped_colon_and_a_replaced_save_are_said() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = shell(dir.path());
        keys(&mut s, "N1S:D", 0.0);
        assert!(s.message.contains("colon"), "{}", s.message);
        keys(&mut s, ":Q", 0.0);
        assert!(s.farewell().unwrap().starts_with("saved to "));
        assert!(!s.farewell().unwrap().contains("replaced"));
        // Another game saved over it asks first (Y saves over it), then says what it
        // replaced, in the HUD and on the way out.
        let mut s = shell(dir.path());
        keys(&mut s, "R2S:Q", 0.0);
        let Screen::Text(ask) = s.screen(0.0, None) else {
            panic!("the question is a text screen");
        };
        assert_eq!(ask.lines[0].text, "SAVE OVER ANOTHER GAME?");
        assert!(ask.lines[1].text.contains("holds the game N1S"), "{ask:?}");
        keys(&mut s, "y", 0.0);
        assert!(
            s.message.contains("replaced the save of the game N1S"),
            "{}",
            s.message
        );
        assert!(
            s.farewell()
                .unwrap()
                .ends_with("; it replaced the save of the game N1S (0 moves)"),
            "{:?}",
            s.farewell()
        );
    }

    #[test]
    fn vi_keys_and_the_numpad_move_in_play_and_only_there() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = shell(dir.path());
        // At the menu `l` is still Load (there is no save), in seed entry digits are digits.
        keys(&mut s, "l", 0.0);
        assert!(s.message.contains("no saved game"), "{}", s.message);
        keys(&mut s, "N1248S", 0.0);
        assert_eq!(s.shown_game().unwrap().seed(), 1248);
        keys(&mut s, "hjkl2468", 0.0);
        let vi = s.shown_game().unwrap().history();
        assert_eq!(vi, replayed_history("N1248SASWDSADW", 80, 30));
        assert!(vi.chars().skip(6).all(|c| "WASD".contains(c)), "{vi}");
    }

    /// Issue 31, problem 9: with `--slot` naming a slot, `L` loads that slot (never the list,
    /// which would swallow the keys after it), and the menu says what `L` will do: load the
    /// chosen slot, say it holds nothing, or list the folder's saves when none was chosen.
    #[test]
    fn l_loads_the_slot_chosen_and_the_menu_says_what_l_does() {
        let dir = tempfile::tempdir().unwrap();
        let chosen = |slot: Option<&str>| {
            Shell::new(ShellOptions {
                saves: Saves::Folder {
                    dir: dir.path().to_owned(),
                    slot: slot.map(str::to_owned),
                },
                ..options(dir.path())
            })
            .unwrap()
        };
        for (slot, keys_) in [
            (None, "R7SDD:Q"),
            (Some("n42"), "N42SDD:Q"),
            (Some("r77"), "R77SA:Q"),
        ] {
            let mut s = chosen(slot);
            keys(&mut s, keys_, 0.0);
            assert!(s.farewell().is_some(), "{slot:?} saved");
        }
        let menu_lines = |s: &mut Shell| -> Vec<String> {
            let Screen::Text(menu) = s.screen(0.0, None) else {
                panic!("the menu is text");
            };
            menu.lines.into_iter().map(|l| l.text).collect()
        };
        // --slot r77: L loads it at once; the key after it plays.
        let mut s = chosen(Some("r77"));
        assert!(menu_lines(&mut s).contains(&"Load Game (L)".to_owned()));
        keys(&mut s, "LD", 0.0);
        assert!(s.shown_game().unwrap().history().starts_with("R77S"));
        assert_eq!(s.take_fed(), "LD");
        // --slot naming a new slot: the menu and L agree that it holds nothing.
        let mut s = chosen(Some("new"));
        let lines = menu_lines(&mut s);
        assert!(
            lines.contains(&"Load Game (L): no saved game".to_owned()),
            "{lines:?}"
        );
        keys(&mut s, "L", 0.0);
        assert!(s.message.contains("no saved game"), "{}", s.message);
        assert_eq!(s.phase(), Some(Phase::Menu));
        // No --slot: L lists the folder's three saves, and the menu says so.
        let mut s = chosen(None);
        let lines = menu_lines(&mut s);
        assert!(
            lines.contains(&"Load Game (L): choose among 3 saves".to_owned()),
            "{lines:?}"
        );
        keys(&mut s, "L", 0.0);
        let Screen::Text(list) = s.screen(0.0, None) else {
            panic!("the list");
        };
        assert_eq!(list.lines[0].text, "LOAD WHICH SAVE?");
    }

    /// Issue 31, problem 10: the message log (`P`) is the game's and is saved with it: after
    /// `:Q` and `L` in a new session it shows the same messages.
    #[test]
    fn the_message_log_survives_saving_and_loading() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = shell(dir.path());
        keys(&mut s, "N1SFYZ:Q", 0.0);
        assert!(s.farewell().is_some());
        let log = |s: &mut Shell| -> Vec<String> {
            keys(s, "P", 0.0);
            let Screen::Text(log) = s.screen(0.0, None) else {
                panic!("the log is a text screen");
            };
            keys(s, "x", 0.0);
            log.lines.into_iter().skip(1).map(|l| l.text).collect()
        };
        let mut loaded = shell(dir.path());
        keys(&mut loaded, "L", 0.0);
        let shown = log(&mut loaded);
        assert!(shown.len() >= 3, "{shown:?}");
        assert!(shown.iter().any(|l| l.starts_with("'F'")), "{shown:?}");
        assert!(shown.last().unwrap().starts_with("'Z'"), "{shown:?}");
    }

    /// Issue 31, problem 13: a `:Q` that cannot save says why and the game goes on (the `:`
    /// answered, so the next `Q` is not swallowed as a save).
    #[test]
    #[cfg(target_os = "linux")]
    fn a_save_that_fails_says_why_and_play_goes_on() {
        // A folder that holds no save and where none can be made, even by root: /proc takes
        // no new folders.
        let folder = Path::new("/proc/byog-cannot-save-here");
        let mut s = shell(folder);
        keys(&mut s, "N3S:Q", 0.0);
        assert!(!s.is_over(10.0), "still playing");
        assert!(s.message.starts_with("cannot"), "{}", s.message);
        let Screen::Game(hud) = s.screen(0.0, None) else {
            panic!("the game is on screen");
        };
        assert_eq!(
            hud.rows[1].left, s.message,
            "the HUD says why, not the colon prompt"
        );
        assert_eq!(s.phase(), Some(Phase::Playing { colon: false }));
        keys(&mut s, "D", 0.0);
        assert_eq!(
            s.take_fed(),
            "N3SD",
            "the next key plays; the :Q that failed is not in the key log"
        );
    }

    /// Issue 30: the first run played with a save folder opens on the Upkeeper's song; the
    /// first key plays (it is not lost); the next run in that folder starts at once.
    #[test]
    fn the_first_run_of_a_folder_sings_the_song_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = shell(dir.path());
        keys(&mut s, "R7S", 0.0);
        let Screen::Text(song) = s.screen(0.0, None) else {
            panic!("the song is a text screen");
        };
        assert_eq!(song.lines[0].text, "THE UPKEEPER'S SONG");
        assert!(song.lines.len() > 6, "{song:?}");
        keys(&mut s, "D", 0.0);
        assert!(s.shows_world());
        assert_eq!(s.take_fed(), "R7SD", "the first key plays");
        let mut again = shell(dir.path());
        keys(&mut again, "R8S", 0.0);
        assert!(again.shows_world(), "sung once a folder");
        // A classic game or an exploration never sings it.
        let other = tempfile::tempdir().unwrap();
        let mut s = shell(other.path());
        keys(&mut s, "E7S", 0.0);
        assert!(s.shows_world());
    }

    #[test]
    fn help_and_the_message_log_are_view_keys_over_the_game() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = shell(dir.path());
        keys(&mut s, "?", 0.0);
        let Screen::Text(help) = s.screen(0.0, None) else {
            panic!("help is a text screen");
        };
        assert_eq!(help.lines[0].text, "HELP");
        keys(&mut s, "x", 0.0);
        assert!(s.message.is_empty(), "the key that closes help is not fed");
        keys(&mut s, "R7S?", 0.0);
        let Screen::Text(help) = s.screen(0.0, None) else {
            panic!("help over a run");
        };
        assert_eq!(
            help.lines[0].text, "THE UPKEEPER'S SONG",
            "a run's help sings first"
        );
        assert!(!s.shows_world());
        // D (or → or Space) turns the pages, A turns back; past the last, it closes.
        keys(&mut s, "D", 0.0);
        let Screen::Text(help) = s.screen(0.0, None) else {
            panic!("the next page");
        };
        assert_eq!(help.lines[0].text, "HELP: A RUN");
        let pages = screens::help_pages(Some(GameKind::Run));
        assert!(pages >= 3, "{pages}");
        keys(&mut s, "A", 0.0);
        let Screen::Text(help) = s.screen(0.0, None) else {
            panic!("back a page");
        };
        assert_eq!(help.lines[0].text, "THE UPKEEPER'S SONG");
        keys(&mut s, &" ".repeat(pages - 1), 0.0);
        let Screen::Text(last) = s.screen(0.0, None) else {
            panic!("the last page");
        };
        assert_eq!(last.lines[0].text, "HELP: KEYS");
        keys(&mut s, "W", 0.0);
        assert!(s.shows_world(), "any other key closes the help");
        assert_eq!(s.shown_game().unwrap().moves(), 0, "and is not fed");
        // Every message of this game is in the log, newest at the bottom.
        keys(&mut s, "FYZ", 0.0);
        keys(&mut s, "p", 0.0);
        let Screen::Text(log) = s.screen(0.0, None) else {
            panic!("the log is a text screen");
        };
        assert_eq!(log.lines[0].text, "MESSAGES");
        assert!(log.lines.last().unwrap().text.starts_with("'Z'"), "{log:?}");
        assert!(log.lines[log.lines.len() - 3].text.starts_with("'F'"));
        keys(&mut s, "W", 0.0);
        let Screen::Text(up) = s.screen(0.0, None) else {
            panic!("still the log");
        };
        assert!(
            up.lines.last().unwrap().text.starts_with("'Y'"),
            "scrolled one back"
        );
        keys(&mut s, "q", 0.0);
        assert!(s.shows_world());
        assert_eq!(
            s.shown_game().unwrap().history(),
            "R7S",
            "view keys never enter it"
        );
    }

    #[test]
    fn slots_keep_two_games_and_l_lists_them() {
        let dir = tempfile::tempdir().unwrap();
        // A run in the default slot; then a classic game that would save over it keeps it
        // instead (N: a new slot named after the game).
        let mut s = shell(dir.path());
        keys(&mut s, "R7SDD:Q", 0.0);
        let mut s = shell(dir.path());
        keys(&mut s, "N42SDD:Q", 0.0);
        let Screen::Text(ask) = s.screen(0.0, None) else {
            panic!("asked before saving over the run");
        };
        assert!(ask.lines[1].text.contains("the run R7S"), "{ask:?}");
        keys(&mut s, "n", 0.0);
        assert!(
            s.farewell().unwrap().contains("n42.bin"),
            "{:?}",
            s.farewell()
        );
        let names: Vec<String> = byog_game::save::slots(dir.path())
            .into_iter()
            .map(|slot| slot.name)
            .collect();
        assert_eq!(names, ["n42", "save"]);
        // L lists both, with what each holds; a number loads that one.
        let mut s = shell(dir.path());
        keys(&mut s, "L", 0.0);
        let Screen::Text(list) = s.screen(0.0, None) else {
            panic!("the slots are listed");
        };
        assert!(
            list.lines[1].text.starts_with("1 n42: the game N42S ("),
            "{list:?}"
        );
        assert!(
            list.lines[2]
                .text
                .starts_with("2 save (current): the run R7S (B1/3, "),
            "{list:?}"
        );
        keys(&mut s, "1", 0.0);
        assert_eq!(
            s.shown_game().unwrap().history(),
            replayed_history("N42SDD", 80, 30)
        );
        let mut s = shell(dir.path());
        keys(&mut s, "L2", 0.0);
        assert_eq!(
            s.shown_game().unwrap().history(),
            replayed_history("R7SDD", 80, 30)
        );
        // Any other key goes back to the menu.
        let mut s = shell(dir.path());
        keys(&mut s, "Lx", 0.0);
        assert_eq!(s.phase(), Some(Phase::Menu));
        assert!(s.shown_game().is_none());
    }

    /// The history replay gives for `keys` (bumps dropped) at `w × h`.
    fn replayed_history(keys: &str, w: usize, h: usize) -> String {
        let mut i = Interpreter::new(w, h, GeneratorSettings::default());
        let mut store = byog_game::save::MemoryStore::default();
        byog_game::replay::replay(&mut i, keys, &mut store, true, &mut |_| ()).unwrap();
        i.into_game().unwrap().history()
    }

    #[test]
    fn a_session_rebuilt_by_replay_shows_the_game_not_the_song() {
        // The web server rebuilds a game from its key log: the song's first key is among
        // them as a plain move, so the rebuilt session shows the game, as the first did.
        let dir = tempfile::tempdir().unwrap();
        let mut first = shell(dir.path());
        keys(&mut first, "R42S", 0.0);
        assert!(
            matches!(first.screen(0.0, None), Screen::Text(_)),
            "the song"
        );
        keys(&mut first, "DD", 0.0);
        assert!(matches!(first.screen(0.0, None), Screen::Game(_)));
        let dir = tempfile::tempdir().unwrap();
        let mut rebuilt = Shell::replayed(options(dir.path()), &first.take_fed()).unwrap();
        assert!(matches!(rebuilt.screen(0.0, None), Screen::Game(_)));
        // Keys that only start the run still open on the song.
        let dir = tempfile::tempdir().unwrap();
        let mut started = Shell::replayed(options(dir.path()), "R42S").unwrap();
        assert!(matches!(started.screen(0.0, None), Screen::Text(_)));
    }

    #[test]
    fn the_numpad_s_5_waits_in_play_and_types_a_seed_digit_before() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = shell(dir.path());
        keys(&mut s, "R5S", 0.0);
        let left = s.shown_game().unwrap().run().unwrap().moves_left;
        keys(&mut s, "5.", 0.0);
        let game = s.shown_game().unwrap();
        assert_eq!(game.seed(), 5, "5 typed the seed at the seed prompt");
        assert_eq!(
            game.run().unwrap().moves_left,
            left - 2,
            "each wait paid a move"
        );
        assert_eq!(game.history(), replayed_history("R5S..", 80, 30));
        assert_eq!(s.message, "you wait a turn");
    }

    #[test]
    fn a_walk_goes_one_step_a_tick_takes_the_interpreters_steps_and_stops_at_a_key() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = shell(dir.path());
        keys(&mut s, "R3SX", 0.0);
        assert!(s.is_walking());
        let mut now = 0.0;
        // The first step is taken at once.
        let mut last = s.shown_game().unwrap().moves();
        assert_eq!(last, 1);
        for _ in 0..5 {
            now += TRAVEL_STEP_SECONDS;
            assert!(s.tick(now));
            let moves = s.shown_game().unwrap().moves();
            assert!(moves <= last + 1, "one step a tick");
            last = moves;
        }
        assert!(s.is_walking() && last >= 3);
        // A key stops it, and is not fed.
        keys(&mut s, "D", now);
        assert!(!s.is_walking());
        assert_eq!(s.message, "travel stopped by a key");
        let stopped = s.shown_game().unwrap().history();
        assert_eq!(s.shown_game().unwrap().moves(), last);
        // Walked to its end, X takes exactly the steps the interpreter takes for it.
        let mut s = shell(dir.path());
        keys(&mut s, "R3SX", 0.0);
        s.finish_walk(0.0);
        let walked = s.shown_game().unwrap().history();
        assert_eq!(walked, replayed_history("R3SX", 80, 30));
        assert!(walked.starts_with(&stopped), "{walked} {stopped}");
    }

    #[test]
    fn view_keys_never_reach_the_interpreter() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = shell(dir.path());
        keys(&mut s, "N1234S\tA\t", 0.0);
        let game = s.shown_game().unwrap();
        assert_eq!(game.history(), "N1234SA");
        assert!(!s.in_sight(game), "Tab twice: sight off again");
        assert_eq!(s.walls(game), WallStyle::Java);
        // :Q saves, says goodbye, ends after the goodbye, and leaves a line to print.
        keys(&mut s, ":Q", 1.0);
        assert!(!s.is_over(1.0));
        assert_eq!(s.deadline(), Some(1.0 + screens::GOODBYE_SECONDS));
        assert!(s.is_over(1.0 + screens::GOODBYE_SECONDS));
        let line = s.farewell().unwrap();
        assert!(line.starts_with("saved to ") && line.ends_with("(N1234S…, 1 move)"));
    }

    #[test]
    fn the_camera_follows_the_avatar_and_recentres_for_a_watch() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = shell(dir.path());
        assert_eq!(s.follow(20, 10), None, "the menu shows no world");
        // An exploration: its frame moves as rooms are made and maps change; the avatar
        // stays on the view after every key.
        keys(&mut s, "E42S", 0.0);
        let walk = "WWWWWWWWWWWWWAAAAAAAAAAAAAWWWWWWWWWWWWWWWWWWWWSSSSSSSAAAAAAADDDDDDDDDD";
        let mut origins = std::collections::BTreeSet::new();
        for k in walk.chars() {
            s.key(k, 0.0);
            let camera = s.follow(20, 10).unwrap();
            let game = s.shown_game().unwrap();
            origins.insert((game.origin().x, game.origin().y));
            assert!(camera.cell_of(game.avatar()).is_some(), "{k}: {camera:?}");
        }
        assert!(origins.len() > 1, "the walk moved the frame");
        // Saved, then watched from the menu: the watch starts at the first world, the camera
        // centred on its avatar.
        keys(&mut s, ":Q", 1.0);
        let mut s = shell(dir.path());
        keys(&mut s, "V", 0.0);
        let game = s.shown_game().unwrap();
        assert_eq!(game.history(), "E42S");
        let (scene, at) = (Scene::of(game), game.avatar());
        let camera = s.follow(20, 10).unwrap();
        assert_eq!(
            camera,
            Camera::centred(20, 10, scene.width, scene.height, at)
        );
        // Leaving the watch goes back to the menu.
        s.key(byog_game::keys::ESCAPE, 0.0);
        assert!(!s.shows_world());
        assert!(
            !s.is_over(10.0),
            "a watch started at the menu returns to it"
        );
    }
}
