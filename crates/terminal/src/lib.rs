//! Terminal play (`byog play --terminal`, `docs/terminal.md`): the window's game
//! in a terminal, over SSH or wherever there is no display. It plays through the same
//! [`Shell`] as the window: the same interpreter, save, watch, messages, timers, sight, walls
//! and camera, so a terminal game saves and replays exactly as a window game, and the menu,
//! the seed prompt, the HUD, the end screens and every message come from
//! [`screens`](byog_shell::screens).
//!
//! This module translates the terminal's input into keys, draws in character cells, runs
//! the loop and owns the terminal: raw mode, the alternate screen, mouse
//! reports (the HUD names the tile under the pointer), hidden cursor. The terminal is put
//! back on every way out: `Q` and `:Q` (after the goodbye), Ctrl-C (quits without saving),
//! an I/O error (returned as a message), a panic (a hook restores it before the panic
//! message) and every signal whose default action ends the process (SIGTERM, SIGHUP, SIGINT,
//! SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM: restored, then the process dies of the signal).
//! SIGTSTP (`kill -TSTP`) gives the terminal back too, then stops the process; when it is
//! continued (`fg`, SIGCONT) play mode is set again and the screen repainted whole.
//! `draw.rs` holds the cells, their colours and the diffing painter, `paint.rs` lays the
//! shell's frame out in cells, `input.rs` translates keys.

mod draw;
mod input;
pub mod paint;

use std::io::{self, IsTerminal, Write};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, MouseButton, MouseEventKind,
};
use crossterm::style::{Attribute, ResetColor, SetAttribute};
use crossterm::{cursor, execute, terminal};

pub use draw::{Cell, CellGrid, ColorMode, Weight};

use byog_shell::{FrontEnd, GameOptions, Shell, ShellError, ShellOptions};

use draw::Painter;
use input::Input;
use paint::MIN_SIZE;

/// The longest wait for an event before the loop looks for signals again.
const TICK: Duration = Duration::from_millis(50);

/// Why terminal play could not start or had to stop. Every message says what failed and,
/// where it helps, what works instead.
#[derive(Debug, thiserror::Error)]
pub enum TerminalError {
    /// `play --terminal` with standard output not a terminal.
    #[error(
        "byog play --terminal needs a terminal, and standard output is not one \
         (`byog replay INPUT` prints worlds anywhere)"
    )]
    NotATerminal,
    /// The session could not start (`--watch` with no save to watch).
    #[error(transparent)]
    Shell(#[from] ShellError),
    /// The terminal failed: setting it up, reading its events or writing to it (the
    /// terminal is restored first).
    #[error("{doing}: {source}")]
    Io {
        /// What was being done, e.g. "cannot set up the terminal".
        doing: &'static str,
        /// The operating system's reason.
        source: io::Error,
    },
}

/// What terminal play starts with.
#[derive(Debug, Clone)]
pub struct TerminalOptions {
    /// The session's options: world size, settings, save folder, walls, `--watch`.
    pub shell: ShellOptions,
    /// Keys typed before keyboard play starts (`--keys`): with `--watch`, the watch's.
    pub keys: String,
    /// How colours are written ([`ColorMode::detect`]).
    pub colour: ColorMode,
}

/// Plays in the terminal until the player quits, then puts the terminal back as it was.
///
/// # Errors
/// [`TerminalError::NotATerminal`] when standard output is not a terminal,
/// [`TerminalError::Shell`] when there is no save to watch (`watch`), [`TerminalError::Io`]
/// when reading events or writing to the terminal fails (the terminal is restored first).
pub fn play(options: TerminalOptions) -> Result<(), TerminalError> {
    if !io::stdout().is_terminal() {
        return Err(TerminalError::NotATerminal);
    }
    let mut play = Play {
        shell: Shell::new(ShellOptions {
            front_end: FrontEnd::Terminal,
            game: GameOptions {
                one_game: false,
                ..options.shell.game
            },
            seed_label: None,
            ..options.shell
        })?,
        colour: options.colour,
        mouse: None,
        size: (0, 0),
        started: Instant::now(),
    };
    let failed = |doing| move |source| TerminalError::Io { doing, source };
    // Before any key can save: a signal during a save then removes its partial file and
    // comes here, rather than ending the process before the terminal is restored.
    let mut signals = Signals::new().map_err(failed("cannot watch for signals"))?;
    // `--keys` are typed keys, as in the window: with `--watch` they go to the watch.
    for key in options.keys.chars() {
        play.shell.key(key, play.now());
        play.shell.finish_walk(play.now());
    }
    let size = terminal::size().map_err(failed("cannot read the terminal's size"))?;
    play.size = size;
    let end = {
        let session = Session::enter().map_err(failed("cannot set up the terminal"))?;
        play.play(&session, &mut signals, &mut io::stdout())
    };
    // The terminal is the shell's again: say where a `:Q` saved the game.
    if let Some(line) = play.shell.farewell() {
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
    #[allow(
        unsafe_code,
        reason = "libc's poll: std cannot ask whether a terminal hung up"
    )]
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
    /// A signal whose default action ends the process (SIGTERM, SIGHUP, SIGINT, SIGQUIT,
    /// SIGUSR1, SIGUSR2, SIGALRM): restore the terminal, then die of it.
    End(i32),
    /// SIGTSTP: restore the terminal, stop; play mode again once continued.
    Suspend,
    /// SIGCONT: play mode again, and a full redraw.
    Resume,
}

/// The signals terminal play answers: SIGTERM, SIGHUP (the terminal went away), SIGINT (sent
/// by `kill`; Ctrl-C is a key in raw mode), SIGQUIT, SIGUSR1, SIGUSR2 and SIGALRM (whose
/// default action ends the process too) end it, the terminal restored first; SIGTSTP suspends
/// it and SIGCONT resumes it (`kill -TSTP`, then the shell's `fg`).
#[cfg(unix)]
struct Signals(signal_hook::iterator::Signals);

#[cfg(unix)]
impl Signals {
    fn new() -> io::Result<Signals> {
        use signal_hook::consts::{
            SIGALRM, SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1, SIGUSR2,
        };
        signal_hook::iterator::Signals::new([
            SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTSTP, SIGCONT,
        ])
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

/// Terminal play: the shared session and what is the terminal's own.
struct Play {
    shell: Shell,
    colour: ColorMode,
    /// The terminal cell under the mouse pointer, `(column, row)` from the top-left.
    mouse: Option<(u16, u16)>,
    /// The terminal's size in cells, `(columns, rows)`.
    size: (u16, u16),
    /// The session's clock starts here.
    started: Instant,
}

impl Play {
    /// The session's clock: seconds since play started.
    fn now(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// The loop: draw what changed, wait for an event, a deadline or a signal.
    fn play(
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
            let now = self.now();
            if self.shell.is_over(now) {
                return Ok(End::Quit);
            }
            dirty |= self.shell.tick(now);
            if dirty {
                bytes.clear();
                painter.paint(self.frame(now), &mut bytes)?;
                out.write_all(&bytes)?;
                out.flush()?;
                dirty = false;
            }
            let wait = self.shell.deadline().map_or(TICK, |t| {
                Duration::from_secs_f64((t - now).max(0.0)).min(TICK)
            });
            // Every event that is already there is taken before the next frame, so a burst
            // of keys (a paste, `tmux send-keys`) draws once.
            let mut timeout = wait;
            while event::poll(timeout)? {
                timeout = Duration::ZERO;
                match event::read()? {
                    Event::Key(key) => match input::translate(key) {
                        Some(Input::Interrupt) => return Ok(End::Quit),
                        Some(Input::Key(key)) if !self.too_small() => {
                            self.shell.key(key, self.now());
                            dirty = true;
                        }
                        _ => {}
                    },
                    Event::Mouse(mouse) => {
                        // A left click on a seen tile walks there (docs/keys.md).
                        if mouse.kind == MouseEventKind::Down(MouseButton::Left) {
                            match paint::view_cell(mouse.column, mouse.row) {
                                Some((col, row)) => self.shell.click(col, row, self.now()),
                                None if self.shell.is_walking() => self.shell.key(' ', self.now()),
                                None => {}
                            }
                        }
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

    /// The frame to show at `now`, at the terminal's size, in cells; the camera follows the
    /// avatar.
    fn frame(&mut self, now: f64) -> CellGrid {
        let (cols, rows) = self.size;
        let mut grid = CellGrid::new(cols, rows);
        let colour = self.colour.has_colour();
        if self.too_small() {
            paint::too_small(&mut grid, MIN_SIZE, colour);
            return grid;
        }
        let frame = self
            .shell
            .frame(now, &paint::request(cols, rows, self.mouse));
        paint::paint(&mut grid, &frame, colour);
        grid
    }
}
