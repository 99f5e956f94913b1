//! Terminal play (`byog play --terminal`, `docs/terminal.md`): the window's game
//! in a terminal, over SSH or wherever there is no display. Keys go to the same
//! [`Interpreter`] with a [`FileStore`] in the save folder, so a terminal game saves and
//! replays exactly as a window game; the menu, the seed prompt, the HUD, the end screens and
//! every message come from [`screens`]; the world scrolls with the shared [`Camera`].
//!
//! This module runs the loop and owns the terminal: raw mode, the alternate screen, mouse
//! reports (the HUD names the tile under the pointer), hidden cursor. The terminal is put
//! back on every way out: `Q` and `:Q` (after the goodbye), Ctrl-C (quits without saving),
//! an I/O error (returned as a message), a panic (a hook restores it before the panic
//! message) and SIGTERM, SIGHUP or SIGINT (restored, then the process dies of the signal).
//! SIGTSTP (`kill -TSTP`) gives the terminal back too, then stops the process; when it is
//! continued (`fg`, SIGCONT) play mode is set again and the screen repainted whole.
//! `draw.rs` holds the cells, their colours and the diffing painter, `frame.rs` lays the
//! screens out in cells, `input.rs` translates keys.

mod draw;
mod frame;
mod input;

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event, MouseEventKind};
use crossterm::style::{Attribute, ResetColor, SetAttribute};
use crossterm::{cursor, execute, terminal};

pub use draw::ColorMode;

use crate::core::generator::GeneratorSettings;
use crate::core::interpreter::{Closing, Interpreter, Mode};
use crate::core::save::FileStore;
use crate::core::watch::{self, Watch};
use crate::core::{GameState, Outcome};
use crate::screens::{self, Context, Screen, TextScreen};
use crate::shell::{PlayError, SaveCheck};
use crate::tile_engine::{Camera, WallStyle};

use draw::{Grid, Painter};
use frame::{MIN_SIZE, WorldLook};
use input::Input;

/// The longest wait for an event before the loop looks for signals again.
const TICK: Duration = Duration::from_millis(50);

/// What terminal play starts with.
#[derive(Debug, Clone)]
pub struct TerminalOptions {
    /// Width of new worlds in tiles.
    pub width: usize,
    /// Height of new worlds in tiles.
    pub height: usize,
    /// Generator settings for new worlds.
    pub settings: GeneratorSettings,
    /// Floors in a run (`--floors`).
    pub floors: u32,
    /// Explorations' `--max-unexplored` and `--branch-timer`.
    pub explore: crate::core::explore::ExploreSettings,
    /// Folder of `save.bin`.
    pub save_dir: PathBuf,
    /// Keys fed to the interpreter before keyboard play starts (`--keys`).
    pub keys: String,
    /// How walls are drawn (`--walls`); `None`: box in runs, Java `#` in the classic game.
    pub walls: Option<WallStyle>,
    /// How colours are written ([`ColorMode::detect`]).
    pub colour: ColorMode,
    /// Watch the save in `save_dir` instead of playing (`byog play --terminal --watch`);
    /// `keys` then go to the watch.
    pub watch: bool,
}

/// Plays in the terminal until the player quits, then puts the terminal back as it was.
///
/// # Errors
/// [`PlayError::NotATerminal`] when standard output is not a terminal,
/// [`PlayError::Watch`] when there is no save to watch (`watch`), [`PlayError::Terminal`]
/// when reading events or writing to the terminal fails (the terminal is restored first).
pub fn run(options: TerminalOptions) -> Result<(), PlayError> {
    if !io::stdout().is_terminal() {
        return Err(PlayError::NotATerminal);
    }
    let mut play = Play::new(&options);
    if options.watch {
        let watch = Watch::of_store(&play.store)?;
        play.watch = Some(watch);
        play.watch_closes = true;
    }
    let failed = |doing| move |source| PlayError::Terminal { doing, source };
    let mut signals = Signals::new().map_err(failed("cannot watch for signals"))?;
    // `--keys` are typed keys, as in the window: with `--watch` they go to the watch.
    for key in options.keys.chars() {
        play.input(if key == '\t' {
            Input::ToggleSight
        } else {
            Input::Key(key)
        });
    }
    let size = terminal::size().map_err(failed("cannot read the terminal's size"))?;
    play.size = size;
    let end = {
        let session = Session::enter().map_err(failed("cannot set up the terminal"))?;
        play.run(&session, &mut signals, &mut io::stdout())
    };
    // The terminal is the shell's again: say where a `:Q` saved the game.
    if let Some(line) = &play.farewell {
        println!("{line}");
    }
    match end {
        Ok(End::Quit) => Ok(()),
        Ok(End::Signal(signal)) => {
            signals.die_of(signal);
            Ok(())
        }
        Err(e) => Err(failed("terminal play stopped")(e)),
    }
}

/// Whether the terminal on standard input has hung up (its other end closed).
#[cfg(unix)]
fn hung_up() -> bool {
    let mut fd = libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the duration of the call, a zero timeout.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

#[cfg(not(unix))]
fn hung_up() -> bool {
    false
}

/// Whether the terminal is in play mode (raw, alternate screen), so that it is restored once.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The terminal in play mode; dropping it restores the terminal.
struct Session;

impl Session {
    /// Raw mode, the alternate screen, mouse reports, no cursor; a panic hook that restores
    /// them. On an error the terminal is restored before it is returned.
    fn enter() -> io::Result<Session> {
        static HOOK: Once = Once::new();
        HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                restore();
                previous(info);
            }));
        });
        let session = Session;
        play_mode()?;
        Ok(session)
    }

    /// SIGTSTP (`kill -TSTP`; Ctrl-Z is a key in raw mode): gives the terminal back as on
    /// the way out, then stops the process as the signal would have. Returns once the
    /// process is continued (`fg`, SIGCONT), with the terminal in play mode again.
    fn suspend(&self) -> io::Result<()> {
        restore();
        stop_now();
        play_mode()
    }

    /// SIGCONT: the shell may have put the terminal back in cooked mode while the process
    /// was stopped (by SIGSTOP, which cannot be caught): raw mode, the alternate screen, the
    /// mouse reports and the hidden cursor are set again (each is harmless when still set).
    fn resume(&self) -> io::Result<()> {
        if ACTIVE.load(Ordering::SeqCst) {
            // crossterm enables raw mode only when it believes it off: forget it first.
            terminal::disable_raw_mode()?;
        }
        play_mode()
    }
}

/// Puts the terminal in play mode: raw, the alternate screen, mouse reports, no cursor.
fn play_mode() -> io::Result<()> {
    terminal::enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    execute!(
        io::stdout(),
        terminal::EnterAlternateScreen,
        EnableMouseCapture,
        cursor::Hide
    )
}

/// Stops the process as SIGTSTP's default action does (SIGSTOP, which cannot be caught);
/// returns when it is continued.
#[cfg(unix)]
fn stop_now() {
    let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGTSTP);
}

#[cfg(not(unix))]
fn stop_now() {}

impl Drop for Session {
    fn drop(&mut self) {
        restore();
    }
}

/// Puts the terminal back (once, however many times it is called): the normal screen, no
/// mouse reports, the cursor shown, cooked mode. Errors are ignored: there is nothing better
/// to do on the way out.
fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = execute!(
            io::stdout(),
            SetAttribute(Attribute::Reset),
            ResetColor,
            DisableMouseCapture,
            cursor::Show,
            terminal::LeaveAlternateScreen
        );
        let _ = terminal::disable_raw_mode();
    }
}

/// How the loop ended.
enum End {
    /// `Q`, `:Q` or Ctrl-C.
    Quit,
    /// A signal asked the program to end.
    Signal(i32),
}

/// A signal, as terminal play answers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Signal {
    /// SIGTERM, SIGHUP or SIGINT: restore the terminal, then die of it.
    End(i32),
    /// SIGTSTP: restore the terminal, stop; play mode again once continued.
    Suspend,
    /// SIGCONT: play mode again, and a full redraw.
    Resume,
}

/// The signals terminal play answers: SIGTERM, SIGHUP (the terminal went away) and SIGINT
/// (sent by `kill`; Ctrl-C is a key in raw mode) end it; SIGTSTP suspends it and SIGCONT
/// resumes it (`kill -TSTP`, then the shell's `fg`).
#[cfg(unix)]
struct Signals(signal_hook::iterator::Signals);

#[cfg(unix)]
impl Signals {
    fn new() -> io::Result<Signals> {
        use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM, SIGTSTP};
        signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT])
            .map(Signals)
    }

    /// A signal that arrived since the last look, if any.
    fn pending(&mut self) -> Option<Signal> {
        use signal_hook::consts::{SIGCONT, SIGTSTP};
        self.0.pending().next().map(|s| match s {
            SIGTSTP => Signal::Suspend,
            SIGCONT => Signal::Resume,
            s => Signal::End(s),
        })
    }

    /// Ends the process as `signal` would have without the handler.
    fn die_of(&self, signal: i32) {
        let _ = signal_hook::low_level::emulate_default_handler(signal);
    }
}

#[cfg(not(unix))]
struct Signals;

#[cfg(not(unix))]
impl Signals {
    fn new() -> io::Result<Signals> {
        Ok(Signals)
    }

    fn pending(&mut self) -> Option<Signal> {
        None
    }

    fn die_of(&self, _signal: i32) {}
}

/// Terminal play's state besides the interpreter's.
struct Play {
    interpreter: Interpreter,
    store: FileStore,
    /// Whether the save can be loaded, for the menu.
    save_check: SaveCheck,
    /// The last message ([`screens::feedback`]).
    message: String,
    /// When the program ends, once the player has quit.
    closing_at: Option<Instant>,
    /// The line printed once the terminal is restored ([`screens::saved_line`] after `:Q`).
    farewell: Option<String>,
    /// The screen between two floors, and until when it stays.
    floor_screen: Option<(Instant, TextScreen)>,
    /// Sight in a classic game (Tab). Runs always play in sight.
    classic_sight: bool,
    walls: Option<WallStyle>,
    colour: ColorMode,
    /// The camera over the game's world; `None` recentres it on the avatar (a new game, a
    /// load, a new floor).
    camera: Option<Camera>,
    /// The shown world's origin in the dungeon when the camera last moved (see
    /// [`GameState::origin`]).
    camera_origin: Option<crate::tile_engine::Pos>,
    /// The terminal cell under the mouse pointer, `(column, row)` from the top-left.
    mouse: Option<(u16, u16)>,
    /// The terminal's size in cells, `(columns, rows)`.
    size: (u16, u16),
    /// The save being watched (`--watch`, or V at the menu), and whether leaving the watch
    /// ends the program (it does when it was started to watch).
    watch: Option<Watch>,
    watch_closes: bool,
    /// The watch's clock starts here.
    started: Instant,
}

impl Play {
    fn new(options: &TerminalOptions) -> Play {
        Play {
            interpreter: Interpreter::new(options.width, options.height, options.settings)
                .with_floors(options.floors)
                .with_explore(options.explore),
            store: FileStore::in_dir(&options.save_dir),
            save_check: SaveCheck::default(),
            message: String::new(),
            closing_at: None,
            farewell: None,
            floor_screen: None,
            classic_sight: false,
            walls: options.walls,
            colour: options.colour,
            camera: None,
            camera_origin: None,
            mouse: None,
            size: (0, 0),
            watch: None,
            watch_closes: false,
            started: Instant::now(),
        }
    }

    /// The loop: draw what changed, wait for an event, a deadline or a signal.
    fn run(
        &mut self,
        session: &Session,
        signals: &mut Signals,
        out: &mut impl Write,
    ) -> io::Result<End> {
        let mut painter = Painter::new(self.colour);
        let mut dirty = true;
        let mut bytes = Vec::new();
        loop {
            while let Some(signal) = signals.pending() {
                match signal {
                    Signal::End(signal) => return Ok(End::Signal(signal)),
                    Signal::Suspend => session.suspend()?,
                    Signal::Resume => session.resume()?,
                }
                // The terminal's content is unknown now (the shell wrote to it, or it was
                // resized while the process was stopped): repaint every cell.
                self.size = terminal::size()?;
                painter.reset();
                dirty = true;
            }
            // The terminal went away (an SSH connection or a tmux server closed) without a
            // SIGHUP reaching us: every read now returns end-of-file at once, and waiting for
            // events would spin. End as Ctrl-C does, without saving.
            if hung_up() {
                return Ok(End::Quit);
            }
            let now = Instant::now();
            if self.closing_at.is_some_and(|t| now >= t) {
                return Ok(End::Quit);
            }
            if self.floor_screen.as_ref().is_some_and(|(t, _)| now >= *t) {
                self.floor_screen = None;
                dirty = true;
            }
            if let Some(watch) = &mut self.watch {
                let before = watch.step_count();
                if let Err(e) = watch.tick(self.started.elapsed().as_secs_f64()) {
                    self.message = e.to_string();
                }
                dirty |= watch.step_count() != before;
            }
            if dirty {
                bytes.clear();
                painter.paint(self.frame(), &mut bytes)?;
                out.write_all(&bytes)?;
                out.flush()?;
                dirty = false;
            }
            let deadline = [self.closing_at, self.floor_screen.as_ref().map(|f| f.0)]
                .into_iter()
                .flatten()
                .min();
            let wait = deadline.map_or(TICK, |t| t.saturating_duration_since(now).min(TICK));
            // Every event that is already there is taken before the next frame, so a burst
            // of keys (a paste, `tmux send-keys`) draws once.
            let mut timeout = wait;
            while event::poll(timeout)? {
                timeout = Duration::ZERO;
                match event::read()? {
                    Event::Key(key) => match input::translate(key) {
                        Some(Input::Interrupt) => return Ok(End::Quit),
                        Some(input) if !self.too_small() => {
                            self.input(input);
                            dirty = true;
                        }
                        _ => {}
                    },
                    Event::Mouse(mouse) => {
                        if matches!(
                            mouse.kind,
                            MouseEventKind::Moved
                                | MouseEventKind::Drag(_)
                                | MouseEventKind::Down(_)
                        ) {
                            self.mouse = Some((mouse.column, mouse.row));
                            dirty = true;
                        }
                    }
                    Event::Resize(cols, rows) => {
                        self.size = (cols, rows);
                        painter.reset();
                        dirty = true;
                    }
                    _ => {}
                }
            }
        }
    }

    /// Whether the terminal is too small to show the screens.
    fn too_small(&self) -> bool {
        self.size.0 < MIN_SIZE.0 || self.size.1 < MIN_SIZE.1
    }

    fn input(&mut self, input: Input) {
        match input {
            // A view key: it never reaches the interpreter (docs/keys.md).
            Input::ToggleSight => self.classic_sight = !self.classic_sight,
            Input::Key(key) if self.watch.is_some() => self.watch_key(key),
            Input::Key(key)
                if key.eq_ignore_ascii_case(&screens::WATCH_KEY)
                    && self.interpreter.mode() == Mode::Menu =>
            {
                match Watch::of_store(&self.store) {
                    Ok(watch) => {
                        self.watch = Some(watch);
                        self.camera = None;
                        self.message.clear();
                    }
                    Err(e) => self.message = screens::watch_refused(&e.to_string()),
                }
            }
            Input::Key(key) => self.feed(key),
            Input::Interrupt => {}
        }
    }

    /// A key while watching ([`Control`]); the rest are ignored (a watch never plays).
    fn watch_key(&mut self, key: char) {
        match watch::feed_key(&mut self.watch, key) {
            Ok(true) => {
                self.camera = None;
                if self.watch_closes {
                    self.closing_at = Some(Instant::now());
                }
            }
            Ok(false) => {}
            Err(e) => self.message = e.to_string(),
        }
    }

    /// Feeds one key to the interpreter and keeps what it said (as the window does).
    fn feed(&mut self, key: char) {
        if self.closing_at.is_some() {
            return;
        }
        self.floor_screen = None;
        match self.interpreter.feed(key, &mut self.store) {
            Ok(outcome) => {
                match &outcome {
                    Outcome::Started => self.camera = None,
                    Outcome::Acted(events) => {
                        self.floor_screen = screens::descent_screen(
                            events,
                            self.interpreter.game(),
                        )
                        .map(|screen| {
                            let stays = Duration::from_secs_f64(screens::FLOOR_SCREEN_SECONDS);
                            (Instant::now() + stays, screen)
                        });
                        if self.floor_screen.is_some() {
                            self.camera = None;
                        }
                    }
                    Outcome::Closed(Closing::SavedAndQuit) => {
                        self.farewell = self
                            .interpreter
                            .game()
                            .map(|game| screens::saved_line(game, self.store.path()));
                    }
                    _ => {}
                }
                let f = screens::feedback(&outcome, self.store.path());
                self.message = f.message;
                if f.closing {
                    self.closing_at =
                        Some(Instant::now() + Duration::from_secs_f64(screens::GOODBYE_SECONDS));
                }
            }
            Err(e) => self.message = e.to_string(),
        }
    }

    /// Whether `game` is drawn in sight: a run and an exploration always, a classic game
    /// when Tab says so.
    fn in_sight(&self, game: &GameState) -> bool {
        game.run().is_some() || game.explore().is_some() || self.classic_sight
    }

    /// The frame to show now, at the terminal's size; moves the camera to follow the avatar.
    fn frame(&mut self) -> Grid {
        let (cols, rows) = self.size;
        let mut grid = Grid::new(cols, rows);
        let colour = self.colour.has_colour();
        if self.too_small() {
            frame::too_small(&mut grid, MIN_SIZE, colour);
            return grid;
        }
        if let Some((_, screen)) = &self.floor_screen {
            frame::text_screen(&mut grid, screen, colour);
            return grid;
        }
        let (view_cols, view_rows) = frame::world_view(cols, rows);
        let watching = self.watch.is_some();
        let playing = watching || matches!(self.interpreter.mode(), Mode::Playing { .. });
        let shown = match &self.watch {
            Some(watch) => watch.game(),
            None => self.interpreter.game(),
        };
        let camera = match shown.filter(|_| playing) {
            Some(game) => {
                let world = game.rect();
                let (w, h) = (world.width as usize, world.height as usize);
                let at = game.avatar();
                // An exploration's frame moves as its map grows or changes: keep the view
                // on the same dungeon tiles.
                let origin = game.origin();
                let moved = self
                    .camera_origin
                    .replace(origin)
                    .map(|was| (was.x - origin.x, was.y - origin.y));
                Some(self.camera.map_or_else(
                    || Camera::centred(view_cols, view_rows, w, h, at),
                    |mut c| {
                        if let Some((dx, dy)) = moved {
                            c.origin.x += dx;
                            c.origin.y += dy;
                        }
                        c.follow(view_cols, view_rows, w, h, at)
                    },
                ))
            }
            None => None,
        };
        self.camera = camera.or(self.camera);
        let save = self.save_check.state(&self.store).clone();
        let context = Context {
            save: &save,
            message: &self.message,
            // In sight, a tile never seen is not named either.
            under_mouse: shown.zip(camera).and_then(|(g, c)| {
                self.mouse
                    .and_then(|(x, y)| frame::tile_under(&c, x, y))
                    .filter(|&p| !self.in_sight(g) || g.has_seen(p))
            }),
        };
        let screen = match &self.watch {
            Some(watch) => {
                screens::watch_hud(watch, context.under_mouse, &self.message).map(Screen::Game)
            }
            None => None,
        };
        match screen.unwrap_or_else(|| screens::screen(&self.interpreter, context)) {
            Screen::Text(text) => frame::text_screen(&mut grid, &text, colour),
            Screen::Game(hud) => {
                if let (Some(game), Some(camera)) = (shown, camera) {
                    let walls =
                        self.walls
                            .unwrap_or(if game.run().is_some() || game.explore().is_some() {
                                WallStyle::Box
                            } else {
                                WallStyle::Java
                            });
                    let look = WorldLook {
                        walls,
                        sight: self.in_sight(game),
                        colour,
                    };
                    frame::world(&mut grid, game, &camera, look);
                }
                frame::hud(&mut grid, &hud, colour);
            }
        }
        grid
    }
}
