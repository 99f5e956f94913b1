//! The window (keyboard play): a macroquad loop that feeds typed keys to the same
//! [`Interpreter`] `replay` uses, and draws the menu, the seed prompt, the world and the HUD
//! with the [`TERenderer`].
//!
//! Layout: the world's `width × height` tiles at the bottom (y offset 0), and
//! [`HUD_ROWS`] rows of HUD above it, never over tiles (`../shared/SPEC.md`, TERenderer).

use std::path::{Path, PathBuf};

use macroquad::prelude as mq;

use crate::core::generator::GeneratorSettings;
use crate::core::interpreter::{Ending, Interpreter, Mode, Outcome};
use crate::core::save::FileStore;
use crate::core::{GameState, LevelStatus};
use crate::tile_engine::{Geometry, Rgb, TERenderer};

/// Rows of HUD above the world, in tiles.
pub const HUD_ROWS: usize = 2;
/// The frame `--screenshot` captures (the first frames may still be settling).
const SCREENSHOT_FRAME: u32 = 3;
/// How long the goodbye message stays before the window closes, in seconds.
const GOODBYE_SECONDS: f64 = 0.8;

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
}

/// The window's geometry for a world of `width × height` tiles: `width` cells across and
/// `height + HUD_ROWS` cells high, the world at the bottom.
pub fn window_geometry(width: usize, height: usize) -> Geometry {
    Geometry::with_offset(width as u32, (height + HUD_ROWS) as u32, 0, 0)
}

/// Opens the window and runs until the player quits or closes it. Returns the exit status:
/// `Ok` normally, `Err(message)` when the screenshot could not be written.
pub fn run(options: WindowOptions) -> Result<(), String> {
    let (w, h) = window_geometry(options.width, options.height).window_size();
    let conf = mq::Conf {
        window_title: "byog".to_owned(),
        window_width: w as i32,
        window_height: h as i32,
        window_resizable: true,
        high_dpi: false,
        ..Default::default()
    };
    check_display()?;
    let result = std::rc::Rc::new(std::cell::RefCell::new(Ok(())));
    let out = result.clone();
    // miniquad panics when it cannot open a window (no X server at DISPLAY, no OpenGL); turn
    // that into an error message instead of a crash report.
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let started = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        macroquad::Window::from_config(conf, async move {
            let r = window_loop(options).await;
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

/// The screen's state besides the interpreter's.
struct Screen {
    interpreter: Interpreter,
    store: FileStore,
    renderer: TERenderer,
    message: String,
    closing_at: Option<f64>,
}

async fn window_loop(options: WindowOptions) -> Result<(), String> {
    let mut screen = Screen {
        interpreter: Interpreter::new(options.width, options.height, options.settings),
        store: FileStore::in_dir(&options.save_dir),
        renderer: TERenderer::initialize(options.width as u32, (options.height + HUD_ROWS) as u32),
        message: String::new(),
        closing_at: None,
    };
    for key in options.keys.chars() {
        screen.feed(key);
    }
    let mut frames = 0u32;
    loop {
        while let Some(key) = mq::get_char_pressed() {
            screen.feed(key);
        }
        screen.fit_to_world();
        screen.draw();
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
        if screen.closing_at.is_some_and(|t| mq::get_time() >= t) {
            return Ok(());
        }
        mq::next_frame().await;
    }
}

impl Screen {
    fn feed(&mut self, key: char) {
        if self.closing_at.is_some() {
            return;
        }
        match self.interpreter.feed(key, &mut self.store) {
            Ok(Outcome::Reported(report)) => self.message = report.to_string(),
            Ok(Outcome::Started | Outcome::Moved(_) | Outcome::Accepted) => self.message.clear(),
            Ok(Outcome::Ended(ending)) => {
                self.message = match ending {
                    Ending::Quit => "Goodbye.".to_owned(),
                    Ending::SavedAndQuit => {
                        format!("Saved to {}. Goodbye.", self.store.path().display())
                    }
                    Ending::NothingToLoad => {
                        format!("No saved game at {}. Goodbye.", self.store.path().display())
                    }
                };
                self.closing_at = Some(mq::get_time() + GOODBYE_SECONDS);
            }
            Err(e) => self.message = e.to_string(),
        }
    }

    /// Re-initialises the renderer when a loaded game's size differs from the window's.
    fn fit_to_world(&mut self) {
        if let Some(game) = self.interpreter.game() {
            let world = game.world();
            let wanted = window_geometry(world.width(), world.height());
            if self.renderer.geometry() != wanted {
                self.renderer = TERenderer::initialize(wanted.cols, wanted.rows);
            }
        }
    }

    fn draw(&self) {
        mq::clear_background(mq::BLACK);
        let rows = self.renderer.geometry().rows as i32;
        match (self.interpreter.mode(), self.interpreter.game()) {
            (Mode::Menu, _) => self.draw_menu(rows),
            (Mode::SeedEntry { seed, digits }, _) => self.draw_seed_prompt(rows, seed, digits),
            (Mode::Playing { .. }, Some(game)) if game.status() == LevelStatus::Won => {
                self.draw_win_screen(rows, game)
            }
            (_, Some(game)) => self.draw_game(game),
            (Mode::Playing { .. } | Mode::Ended(_), None) => {
                self.renderer
                    .draw_text_centered(&self.message, rows / 2, WHITE, 1.5);
            }
        }
    }

    fn draw_menu(&self, rows: i32) {
        let r = &self.renderer;
        let top = rows * 3 / 4;
        r.draw_text_centered("BYOG: BUILD YOUR OWN GAME", top, WHITE, 2.5);
        r.draw_text_centered("New Game (N)", top - 5, WHITE, 1.5);
        let has_save = self.store.exists();
        if has_save {
            r.draw_text_centered("Load Game (L)", top - 7, WHITE, 1.5);
        } else {
            r.draw_text_centered("Load Game (L): no saved game", top - 7, GREY, 1.5);
        }
        r.draw_text_centered("Quit (Q)", top - 9, WHITE, 1.5);
        r.draw_text_centered(&self.message, 2, YELLOW, 1.0);
    }

    fn draw_seed_prompt(&self, rows: i32, seed: u64, digits: u32) {
        let r = &self.renderer;
        r.draw_text_centered("Enter a seed, then press S", rows * 2 / 3, WHITE, 2.0);
        let typed = if digits == 0 {
            "_".to_owned()
        } else {
            format!("{seed}_")
        };
        r.draw_text_centered(&typed, rows / 2, YELLOW, 2.0);
        r.draw_text_centered(&self.message, 2, YELLOW, 1.0);
    }

    fn draw_win_screen(&self, rows: i32, game: &GameState) {
        let r = &self.renderer;
        let top = rows * 3 / 4;
        r.draw_text_centered("YOU FOUND THE EXIT!", top, YELLOW, 2.5);
        r.draw_text_centered(&format!("seed {}", game.seed()), top - 5, WHITE, 1.5);
        let moves = game.moves();
        let noun = if moves == 1 { "move" } else { "moves" };
        r.draw_text_centered(&format!("{moves} {noun}"), top - 7, WHITE, 1.5);
        r.draw_text_centered("Type :Q to save and quit", top - 10, GREY, 1.5);
        r.draw_text_centered(&self.message, 2, YELLOW, 1.0);
    }

    fn draw_game(&self, game: &GameState) {
        let r = &self.renderer;
        let world = game.world();
        r.draw_world(world);
        let (top, second) = (world.height() as i32 + 1, world.height() as i32);
        r.fill_rows(second, top, HUD_BACKGROUND);
        let under_mouse = r
            .tile_under_mouse(world)
            .and_then(|p| world.get(p))
            .map(|t| t.tetile().description().to_owned())
            .unwrap_or_default();
        r.draw_text_in_row(&under_mouse, 0.5, top, WHITE, 1.0);
        let seed = format!("seed {}", game.seed());
        let cols = r.geometry().cols as f32;
        r.draw_text_in_row(
            &seed,
            cols - 0.5 - r.text_width_cells(&seed, 1.0),
            top,
            GREY,
            1.0,
        );
        let status = format!("{} · moves {}", game.avatar(), game.moves());
        r.draw_text_in_row(
            &status,
            cols - 0.5 - r.text_width_cells(&status, 1.0),
            second,
            GREY,
            1.0,
        );
        let color = if game.status() == LevelStatus::Won {
            YELLOW
        } else {
            WHITE
        };
        r.draw_text_in_row(&self.message, 0.5, second, color, 1.0);
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
