//! The window (keyboard play, the `window` feature): a macroquad loop that feeds typed keys
//! to the same [`Interpreter`] `replay` uses and lays out the shared [`screens`] with the
//! [`TERenderer`]. It translates keys and draws; every word and rule comes from elsewhere.
//!
//! Layout: the HUD's [`HUD_ROWS`] rows at the top of the window and the world below them,
//! never under the HUD (`../shared/SPEC.md`, TERenderer). A world smaller than
//! [`MIN_COLS`] × [`MIN_ROWS`] cells is centred in a window of that size, so the menu is
//! never clipped. A world whose window would not fit on the screen is refused before the
//! window opens, with a message that says what fits (the scrolling camera will lift this).

use std::path::{Path, PathBuf};

use macroquad::prelude as mq;

use crate::core::Game;
use crate::core::game::Light;
use crate::core::generator::GeneratorSettings;
use crate::core::interpreter::Interpreter;
use crate::core::save::{FileStore, SaveStore};
use crate::screens::{self, Context, Screen, Style, TextScreen};
pub use crate::screens::{
    HUD_ROWS, MIN_COLS, MIN_ROWS, check_fits, largest_world, window_geometry,
};
use crate::tile_engine::{Rgb, Shade, TERenderer, WallStyle};

/// The screen size assumed when it cannot be asked (no X server answer), in pixels.
pub const FALLBACK_SCREEN: (u32, u32) = (1920, 1080);
/// The frame `--screenshot` captures (the first frames may still be settling).
const SCREENSHOT_FRAME: u32 = 3;
/// How long the goodbye message stays before the window closes, in seconds.
const GOODBYE_SECONDS: f64 = 0.8;
/// The key that toggles sight in a classic game: Tab.
pub const SIGHT_KEY: char = '\t';
/// How long the screen between two floors of a run stays, in seconds (a key ends it).
const FLOOR_SCREEN_SECONDS: f64 = 1.5;

const WHITE: Rgb = Rgb::new(255, 255, 255);
const GREY: Rgb = Rgb::new(128, 128, 128);
const YELLOW: Rgb = Rgb::new(255, 200, 0);
const HUD_BACKGROUND: Rgb = Rgb::new(24, 24, 32);

/// What the window starts with.
#[derive(Debug, Clone)]
pub struct WindowOptions {
    /// Width of new worlds in tiles.
    pub width: usize,
    /// Height of new worlds in tiles.
    pub height: usize,
    /// Generator settings for new worlds.
    pub settings: GeneratorSettings,
    /// Folder of `save.bin`.
    pub save_dir: PathBuf,
    /// Keys fed to the interpreter before keyboard play starts (`byog play --keys`).
    pub keys: String,
    /// Write a PNG of the first frame here and close (`byog play --screenshot`).
    pub screenshot: Option<PathBuf>,
    /// How walls are drawn (`--walls`); `None`: box in runs, Java `#` in the classic game.
    pub walls: Option<WallStyle>,
}

/// The X screen's size in pixels, asked from the X server at `DISPLAY` (`None` when there is
/// no answer), and the connection that asked.
///
/// Keep the connection until the window is open: an X server with no other client (Xvfb,
/// say) resets when its last client disconnects, and a window opened during that reset
/// fails with "XOpenDisplay() failed".
pub fn screen_size() -> (Option<(u32, u32)>, Option<impl Sized>) {
    #[cfg(all(unix, not(target_os = "macos")))]
    {
        use x11rb::connection::Connection;
        match x11rb::connect(None) {
            Ok((conn, screen)) => {
                let size = conn.setup().roots.get(screen).map(|root| {
                    (
                        u32::from(root.width_in_pixels),
                        u32::from(root.height_in_pixels),
                    )
                });
                (size, Some(conn))
            }
            Err(_) => (None, None),
        }
    }
    #[cfg(not(all(unix, not(target_os = "macos"))))]
    (None, None::<()>)
}

/// Opens the window and runs until the player quits or closes it.
///
/// # Errors
/// A message when there is no display, the world does not fit on the screen, or the
/// screenshot cannot be written.
pub fn run(options: WindowOptions) -> Result<(), String> {
    check_display()?;
    let (size, _x_connection) = screen_size();
    let screen = size.unwrap_or(FALLBACK_SCREEN);
    check_fits(options.width, options.height, screen)?;
    let (w, h) = window_geometry(options.width, options.height).window_size();
    let conf = mq::Conf {
        window_title: "byog".to_owned(),
        window_width: w as i32,
        window_height: h as i32,
        window_resizable: true,
        high_dpi: false,
        platform: macroquad::miniquad::conf::Platform {
            linux_wm_class: "byog",
            ..Default::default()
        },
        ..Default::default()
    };
    let result = std::rc::Rc::new(std::cell::RefCell::new(Ok(())));
    let out = result.clone();
    // miniquad panics when it cannot open a window (no X server at DISPLAY, no OpenGL); turn
    // that into an error message instead of a crash report.
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let started = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        macroquad::Window::from_config(conf, async move {
            let r = window_loop(options, screen).await;
            *out.borrow_mut() = r;
        });
    }));
    std::panic::set_hook(previous_hook);
    if let Err(payload) = started {
        let why = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown error".to_owned());
        return Err(format!(
            "cannot open the window ({why}); `byog replay` and `byog gen` work without one"
        ));
    }
    result.replace(Ok(()))
}

impl Game {
    /// Java `playWithKeyboard()`: opens the window at the menu and plays until the player
    /// quits or closes it.
    ///
    /// # Errors
    /// A message when the window cannot open (see [`run`]).
    pub fn play_with_keyboard(&self) -> Result<(), String> {
        run(WindowOptions {
            width: self.width,
            height: self.height,
            settings: self.settings,
            save_dir: self.save_dir.clone(),
            keys: String::new(),
            screenshot: None,
            walls: None,
        })
    }

    /// sp21 BYOW name of [`Game::play_with_keyboard`].
    ///
    /// # Errors
    /// As [`Game::play_with_keyboard`].
    pub fn interact_with_keyboard(&self) -> Result<(), String> {
        self.play_with_keyboard()
    }
}

/// On X11/Wayland systems, a clear error when there is no display to open a window on.
fn check_display() -> Result<(), String> {
    if cfg!(all(unix, not(target_os = "macos")))
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        return Err(
            "cannot open the window: no X display (DISPLAY is not set); \
             `byog replay INPUT` and `byog gen` run without one"
                .to_owned(),
        );
    }
    Ok(())
}

/// The window's state besides the interpreter's.
struct Window {
    interpreter: Interpreter,
    store: FileStore,
    renderer: TERenderer,
    message: String,
    closing_at: Option<f64>,
    screen: (u32, u32),
    /// The screen between two floors, and until when it stays.
    floor_screen: Option<(f64, TextScreen)>,
    /// Sight in a classic game (Tab): only what the avatar sees and remembers. Runs always
    /// play in sight.
    classic_sight: bool,
    /// How walls are drawn (`--walls`); `None`: box in runs, Java `#` in the classic game.
    walls: Option<WallStyle>,
}

async fn window_loop(options: WindowOptions, screen: (u32, u32)) -> Result<(), String> {
    let geometry = window_geometry(options.width, options.height);
    let mut window = Window {
        interpreter: Interpreter::new(options.width, options.height, options.settings),
        store: FileStore::in_dir(&options.save_dir),
        renderer: TERenderer::initialize_with_offset(
            geometry.cols,
            geometry.rows,
            geometry.x_offset as u32,
            geometry.y_offset as u32,
        ),
        message: String::new(),
        closing_at: None,
        screen,
        floor_screen: None,
        classic_sight: false,
        walls: options.walls,
    };
    for key in options.keys.chars() {
        window.feed(key);
    }
    let mut frames = 0u32;
    loop {
        while let Some(key) = mq::get_char_pressed() {
            if key == SIGHT_KEY {
                // A view key: it never reaches the interpreter (SPEC 2).
                window.classic_sight = !window.classic_sight;
            } else {
                window.feed(key);
            }
        }
        // Arrow keys move like W A S D (they type no character).
        for (code, key) in [
            (mq::KeyCode::Up, 'W'),
            (mq::KeyCode::Left, 'A'),
            (mq::KeyCode::Down, 'S'),
            (mq::KeyCode::Right, 'D'),
        ] {
            if mq::is_key_pressed(code) {
                window.feed(key);
            }
        }
        window.fit_to_world();
        window.draw();
        frames += 1;
        // The screenshot waits a few frames so that the window has its final size and every
        // glyph is in the font atlas.
        if let Some(path) = options
            .screenshot
            .as_ref()
            .filter(|_| frames >= SCREENSHOT_FRAME)
        {
            return write_screenshot(path);
        }
        if window.closing_at.is_some_and(|t| mq::get_time() >= t) {
            return Ok(());
        }
        mq::next_frame().await;
    }
}

impl Window {
    fn feed(&mut self, key: char) {
        if self.closing_at.is_some() {
            return;
        }
        // A loaded game too large for the screen is refused before it is loaded.
        if key.eq_ignore_ascii_case(&'L')
            && self.interpreter.mode() == crate::core::Mode::Menu
            && let Err(why) = self.check_save_fits()
        {
            self.message = why;
            return;
        }
        self.floor_screen = None;
        match self.interpreter.feed(key, &mut self.store) {
            Ok(outcome) => {
                if let crate::core::Outcome::Acted(events) = &outcome {
                    self.floor_screen = floor_screen(events, self.interpreter.game());
                }
                let f = screens::feedback(&outcome, self.store.path());
                self.message = f.message;
                if f.closing {
                    self.closing_at = Some(mq::get_time() + GOODBYE_SECONDS);
                }
            }
            Err(e) => self.message = e.to_string(),
        }
    }

    /// Refuses a save whose world the window cannot show, reading only its size.
    fn check_save_fits(&self) -> Result<(), String> {
        match self.store.load() {
            Ok(Some(game)) => {
                let world = game.terrain();
                let (w, h) = game.run().map_or((world.width(), world.height()), |r| {
                    (r.max_width as usize, r.max_height as usize)
                });
                check_fits(w, h, self.screen)
                    .map_err(|e| format!("cannot show the saved game: {e}"))
            }
            _ => Ok(()),
        }
    }

    /// Re-initialises the renderer when a loaded game's size differs from the window's.
    fn fit_to_world(&mut self) {
        if let Some(game) = self.interpreter.game() {
            let wanted = screens::game_geometry(game);
            if self.renderer.geometry() != wanted {
                self.renderer = TERenderer::initialize_with_offset(
                    wanted.cols,
                    wanted.rows,
                    wanted.x_offset as u32,
                    wanted.y_offset as u32,
                );
            }
        }
    }

    fn draw(&self) {
        mq::clear_background(mq::BLACK);
        if let Some((until, screen)) = &self.floor_screen
            && mq::get_time() < *until
        {
            self.draw_text_screen(screen);
            return;
        }
        let context = Context {
            has_save: self.store.has_save(),
            message: &self.message,
            // In sight, a tile never seen is not named either.
            under_mouse: self.interpreter.game().and_then(|g| {
                self.renderer
                    .tile_under_mouse(g.terrain())
                    .filter(|&p| !self.in_sight(g) || g.has_seen(p))
            }),
        };
        match screens::screen(&self.interpreter, context) {
            Screen::Text(text) => self.draw_text_screen(&text),
            Screen::Game(hud) => {
                if let Some(game) = self.interpreter.game() {
                    let world = game.world();
                    let style = self.walls.unwrap_or(if game.run().is_some() {
                        WallStyle::Box
                    } else {
                        WallStyle::Java
                    });
                    if self.in_sight(game) {
                        let visible = game.visibility();
                        self.renderer
                            .draw_world_shaded(&world, style, &|p| match game.light(&visible, p) {
                                Light::Visible => Shade::Full,
                                Light::Remembered => Shade::Dim,
                                Light::Unseen => Shade::Hidden,
                            });
                    } else if style == WallStyle::Box {
                        self.renderer
                            .draw_world_shaded(&world, style, &|_| Shade::Full);
                    } else {
                        self.renderer.draw_world(&world);
                    }
                }
                self.draw_hud(&hud);
            }
        }
    }

    /// Whether `game` is drawn in sight: a run always, a classic game when Tab says so.
    fn in_sight(&self, game: &crate::core::GameState) -> bool {
        game.run().is_some() || self.classic_sight
    }

    /// Centred lines from three quarters of the way up, the message near the bottom.
    fn draw_text_screen(&self, text: &TextScreen) {
        let r = &self.renderer;
        let rows = r.geometry().rows as i32;
        let mut row = rows * 3 / 4;
        for line in &text.lines {
            let (scale, color, height) = look(line.style);
            if !line.text.is_empty() {
                r.draw_text_centered(&line.text, row, color, scale);
            }
            row -= height;
        }
        if let Some(m) = &text.message {
            r.draw_text_centered(&m.text, 2, YELLOW, 1.0);
        }
    }

    fn draw_hud(&self, hud: &screens::Hud) {
        let r = &self.renderer;
        let g = r.geometry();
        let top = g.rows as i32 - 1;
        r.fill_rows(top + 1 - HUD_ROWS as i32, top, HUD_BACKGROUND);
        let cols = g.cols as f32;
        for (k, row) in hud.rows.iter().enumerate() {
            let y = top - k as i32;
            let color = if row.left_style == Style::Message {
                YELLOW
            } else {
                WHITE
            };
            r.draw_text_in_row(&row.left, 0.5, y, color, 1.0);
            let x = cols - 0.5 - r.text_width_cells(&row.right, 1.0);
            r.draw_text_in_row(&row.right, x, y, GREY, 1.0);
        }
    }
}

/// The screen between two floors, when `events` descended to one.
fn floor_screen(
    events: &crate::core::Events,
    game: Option<&crate::core::GameState>,
) -> Option<(f64, TextScreen)> {
    let floors = game?.run()?.floors;
    events.as_slice().iter().find_map(|e| match *e {
        crate::core::Event::Descended {
            floor,
            earned,
            perfect,
        } => Some((
            mq::get_time() + FLOOR_SCREEN_SECONDS,
            screens::floor_screen(floor, floors, earned, perfect),
        )),
        _ => None,
    })
}

/// Scale (× the tile font), colour and height in rows of a style on a text screen.
fn look(style: Style) -> (f32, Rgb, i32) {
    match style {
        Style::Title => (2.5, WHITE, 3),
        Style::Heading => (2.0, WHITE, 3),
        Style::Normal => (1.5, WHITE, 2),
        Style::Dim => (1.5, GREY, 2),
        Style::Hint => (1.0, GREY, 2),
        Style::Input => (2.0, YELLOW, 2),
        Style::Message => (1.0, YELLOW, 2),
    }
}

/// Writes the current frame as a PNG (top row first).
fn write_screenshot(path: &Path) -> Result<(), String> {
    let shot = mq::get_screen_data();
    let (w, h) = (u32::from(shot.width), u32::from(shot.height));
    let row = w as usize * 4;
    let mut flipped = Vec::with_capacity(shot.bytes.len());
    for y in (0..h as usize).rev() {
        flipped.extend_from_slice(&shot.bytes[y * row..(y + 1) * row]);
    }
    image::save_buffer(path, &flipped, w, h, image::ColorType::Rgba8)
        .map_err(|e| format!("cannot write the screenshot {}: {e}", path.display()))
}
