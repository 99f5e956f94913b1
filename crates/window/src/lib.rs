//! The window (keyboard play): a macroquad loop that plays through the shared [`Shell`]
//! (the interpreter `replay` uses, the save, the watch, the messages and their timers, sight,
//! walls and the camera, as in the terminal) and paints the [`Frame`] it decides, laid out by
//! [`paint`], with the [`TERenderer`]. It translates keys and draws; every word, glyph and
//! colour comes from the frame.
//!
//! Layout: the HUD's [`HUD_ROWS`] rows at the top of the window and the world below them,
//! never under the HUD (`docs/java-parity.md`, TERenderer). A world smaller than
//! [`MIN_COLS`] × [`MIN_ROWS`] cells is centred in a window of that size, so the menu is
//! never clipped. The window never opens larger than the screen (docs/sight.md): a world that fits
//! at a readable tile size ([`MIN_TILE_PIXELS`] and up) is shown whole, scaled to the window
//! as Java's is; a larger one is shown at 16 pixels a tile (or the zoom keys' size) through
//! the shell's camera, which follows the avatar, with a minimap of what was explored. Only
//! the tiles on screen are composed and drawn, so a frame costs the window, not the world.
//!
//! The window's own keys, never fed to the session: `+` `-` `0` (zoom in, out, fit) while the
//! world is shown; the session's view keys (Tab, `M`, `?`, `P`, `V`, the watch's) are the
//! [`Shell`]'s.

pub mod paint;
pub mod renderer;

use std::path::{Path, PathBuf};

pub use renderer::{Shade, TERenderer};

use macroquad::prelude as mq;

pub use byog_shell::SIGHT_KEY;
use byog_shell::frame::{Corner, Frame, FrameRequest, MinimapFrame};
use byog_shell::keys::{END, HOME, move_key};
use byog_shell::screens;
pub use byog_shell::screens::{HUD_ROWS, MIN_COLS, MIN_ROWS, window_geometry};
use byog_shell::{FrontEnd, GameOptions, SIGHT_RADIUS, Shell, ShellError, ShellOptions};
use byog_tile_engine::layout::ScreenLayout;
use byog_tile_engine::minimap::{self, MAX_SIDE};
use byog_tile_engine::{Direction, Geometry, Rgb, TILE_SIZE};

use paint::{Mark, Measure, Painted};

/// The screen size assumed when it cannot be asked (no X server answer), in pixels.
pub const FALLBACK_SCREEN: (u32, u32) = (1920, 1080);
/// The frame `--screenshot` captures (the first frames may still be settling).
const SCREENSHOT_FRAME: u32 = 3;
/// The smallest tile side the window shows a world at, in pixels: below it the 14-point
/// font (scaled) is no longer readable, and the camera scrolls instead.
pub const MIN_TILE_PIXELS: u32 = 12;
/// The tile sides, in pixels, the zoom keys step through.
pub const ZOOM_STEPS: [u32; 8] = [12, 16, 20, 24, 32, 40, 48, 64];
/// The share of the screen a window opens at when the world does not fit on it (room for
/// the desktop's panels and the window's frame).
const LARGE_WINDOW_SHARE: f32 = 0.9;
/// Pixels between the minimap and the view's edges.
const MINIMAP_MARGIN: f32 = 8.0;

/// Why the window could not play. Every message says what failed and, where it helps, what
/// works instead.
#[derive(Debug, thiserror::Error)]
pub enum WindowError {
    /// No display to open the window on (neither `DISPLAY` nor `WAYLAND_DISPLAY` set).
    #[error("cannot open the window: no display (DISPLAY and WAYLAND_DISPLAY are not set)")]
    NoDisplay,
    /// The window could not open (no X server answering, no OpenGL): the reason given.
    #[error("cannot open the window ({0}); `byog replay` and `byog gen` work without one")]
    Open(String),
    /// The session could not start (`--watch` with no save to watch).
    #[error(transparent)]
    Shell(#[from] ShellError),
    /// `--screenshot` could not write its PNG.
    #[error("cannot write the screenshot {}: {source}", path.display())]
    Screenshot {
        /// The PNG's path as given.
        path: PathBuf,
        /// The encoder's or the file system's reason.
        source: image::ImageError,
    },
}

impl WindowError {
    /// Whether the window could not open at all (the terminal may still play).
    pub fn is_no_window(&self) -> bool {
        matches!(self, WindowError::NoDisplay | WindowError::Open(_))
    }
}

/// What the window starts with.
#[derive(Debug, Clone)]
pub struct WindowOptions {
    /// The session's options: world size, settings, save folder, walls, `--watch`.
    pub shell: ShellOptions,
    /// Keys typed before keyboard play starts (`byog play --keys`): with `--watch`, the
    /// watch's (Space, `.`, `[`, `]`).
    pub keys: String,
    /// Write a PNG of the first frame here and close (`byog play --screenshot`).
    pub screenshot: Option<PathBuf>,
    /// Print the mean and 99th percentile frame time after this many frames, and close
    /// (`--frame-stats`).
    pub frame_stats: Option<u32>,
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

/// The window's size in pixels when it opens for `width × height` worlds on a `screen`:
/// the world's whole window (at least [`MIN_COLS`] × [`MIN_ROWS`] cells of 16 pixels) when it
/// fits on the screen, else `LARGE_WINDOW_SHARE` (90%) of the screen, in whole 16-pixel cells,
/// on each side that does not fit (the camera scrolls the rest).
pub fn opening_size(width: usize, height: usize, screen: (u32, u32)) -> (u32, u32) {
    let (w, h) = window_geometry(width, height).window_size();
    let clip = |want: u32, have: u32| {
        if want <= have {
            want
        } else {
            let share = (have as f32 * LARGE_WINDOW_SHARE) as u32;
            (share / TILE_SIZE * TILE_SIZE).max(TILE_SIZE)
        }
    };
    (clip(w, screen.0), clip(h, screen.1))
}

/// Opens the window and runs until the player quits or closes it.
///
/// # Errors
/// [`WindowError::NoDisplay`] or [`WindowError::Open`] when the window cannot open,
/// [`WindowError::Shell`] when there is no save to watch (`watch`),
/// [`WindowError::Screenshot`] when the screenshot cannot be written.
pub fn play(options: WindowOptions) -> Result<(), WindowError> {
    check_display()?;
    let shell = Shell::new(ShellOptions {
        front_end: FrontEnd::Window,
        game: GameOptions {
            one_game: false,
            ..options.shell.game
        },
        seed_label: None,
        ..options.shell.clone()
    })?;
    let (size, _x_connection) = screen_size();
    let screen = size.unwrap_or(FALLBACK_SCREEN);
    let (w, h) = opening_size(options.shell.game.width, options.shell.game.height, screen);
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
            let r = window_loop(options, shell).await;
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
        return Err(WindowError::Open(why));
    }
    result.replace(Ok(()))
}

/// On X11/Wayland systems, a clear error when there is no display to open a window on.
fn check_display() -> Result<(), WindowError> {
    if cfg!(all(unix, not(target_os = "macos")))
        && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty())
        && std::env::var_os("WAYLAND_DISPLAY").is_none_or(|d| d.is_empty())
    {
        return Err(WindowError::NoDisplay);
    }
    Ok(())
}

/// The window: the shared session and what is the window's own.
struct Window {
    shell: Shell,
    renderer: TERenderer,
    /// This frame's grids: the HUD's and the world's view.
    screen: ScreenLayout,
    /// Size of new worlds (the menu's frame), in tiles.
    world_size: (usize, usize),
    /// The tile side the zoom keys chose, in pixels; `None`: the whole world if it fits at a
    /// readable size, else 16 pixels (Java's size).
    zoom: Option<u32>,
    /// The minimap's texture and the version of the minimap it shows.
    minimap: Option<(u64, mq::Texture2D)>,
    /// The last frame painted.
    frame: Option<Frame>,
}

async fn window_loop(options: WindowOptions, shell: Shell) -> Result<(), WindowError> {
    let (width, height) = (options.shell.game.width, options.shell.game.height);
    let geometry = window_geometry(width, height);
    let (w, h) = geometry.window_size();
    let mut window = Window {
        shell,
        renderer: TERenderer::in_current_window(geometry),
        screen: ScreenLayout::new(w as f32, h as f32, 1.0, HUD_ROWS as u32, 1.0),
        world_size: (width, height),
        zoom: None,
        minimap: None,
        frame: None,
    };
    for key in options.keys.chars() {
        window.key(key);
        window.shell.finish_walk(mq::get_time());
    }
    let mut frames = 0u32;
    let mut frame_times = Vec::new();
    let mut last_frame = std::time::Instant::now();
    loop {
        while let Some(key) = mq::get_char_pressed() {
            window.key(key);
        }
        // Arrow keys move like W A S D (they type no character); Escape leaves a watch.
        for (code, key) in [
            (mq::KeyCode::Up, move_key(Direction::Up)),
            (mq::KeyCode::Left, move_key(Direction::Left)),
            (mq::KeyCode::Down, move_key(Direction::Down)),
            (mq::KeyCode::Right, move_key(Direction::Right)),
            // Home and End seek a watch to its first or last step.
            (mq::KeyCode::Home, HOME),
            (mq::KeyCode::End, END),
        ] {
            if mq::is_key_pressed(code) {
                window.key(key);
            }
        }
        // A left click on a seen tile walks there (docs/keys.md); during a walk it stops it.
        if mq::is_mouse_button_pressed(mq::MouseButton::Left) {
            window.click();
        }
        window.shell.tick(mq::get_time());
        window.layout();
        window.draw();
        // The screenshot and the frame statistics are of the game, never of the screen
        // shown while a world is being made: frames are counted once the session is ready.
        if !window.shell.is_busy() {
            frames += 1;
        }
        let now = std::time::Instant::now();
        if frames > SCREENSHOT_FRAME {
            frame_times.push(now - last_frame);
        }
        last_frame = now;
        // The screenshot waits a few frames so that the window has its final size and every
        // glyph is in the font atlas.
        if let Some(path) = options
            .screenshot
            .as_ref()
            .filter(|_| frames >= SCREENSHOT_FRAME)
        {
            return write_screenshot(path);
        }
        if let Some(n) = options.frame_stats
            && frame_times.len() >= n as usize
        {
            println!("{}", frame_report(&mut frame_times, window.screen.ui));
            return Ok(());
        }
        if window.shell.is_over(mq::get_time()) {
            if let Some(line) = window.shell.farewell() {
                println!("{line}");
            }
            return Ok(());
        }
        mq::next_frame().await;
    }
}

/// The default tile size in pixels of a view of `width × height` pixels in sight: the light's
/// diameter (17 tiles) and a tile of margin each side fill the view's shorter side, at least
/// 24 pixels where the view holds 17 tiles of 24, at most 64; `None` when even 16-pixel tiles
/// do not fit the diameter (the ordinary layout then).
pub fn sight_tile_pixels(width: f32, height: f32) -> Option<u32> {
    let diameter = 2 * SIGHT_RADIUS + 1;
    let short = width.min(height).max(0.0) as u32;
    let fit = short / (diameter + 2);
    if fit >= 24 {
        Some(fit.min(64))
    } else if short >= 24 * diameter {
        Some(24)
    } else {
        (short / diameter >= TILE_SIZE).then_some(short / diameter)
    }
}

/// `--frame-stats`: the mean and the 99th percentile of the frame times, in milliseconds,
/// and the cells on screen.
fn frame_report(times: &mut [std::time::Duration], geometry: Geometry) -> String {
    times.sort_unstable();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    let n = times.len().max(1);
    let mean = times.iter().map(|&d| ms(d)).sum::<f64>() / n as f64;
    let p99 = times
        .get((n * 99).div_ceil(100).saturating_sub(1))
        .map_or(0.0, |&d| ms(d));
    format!(
        "frames: {} · mean {mean:.2} ms · p99 {p99:.2} ms · {} × {} cells",
        times.len(),
        geometry.cols,
        geometry.rows
    )
}

impl Measure for TERenderer {
    fn width_cells(&self, text: &str, scale: f32) -> f32 {
        self.text_width_cells(text, scale)
    }
}

impl Window {
    /// One key: the window's own (zoom) while the world is shown; every other key goes to
    /// the session (docs/keys.md).
    fn key(&mut self, key: char) {
        if self.shell.shows_world() {
            match key {
                '+' | '=' => return self.zoom_by(1),
                '-' | '_' => return self.zoom_by(-1),
                '0' => {
                    self.zoom = None;
                    return;
                }
                _ => {}
            }
        }
        self.shell.key(key, mq::get_time());
    }

    /// A left click: on a view cell (not on the minimap), where the session walks; a click
    /// anywhere else stops a walk under way.
    fn click(&mut self) {
        self.layout();
        match self.cell_under_mouse() {
            Some((col, row)) => self.shell.click(col, row, mq::get_time()),
            None if self.shell.is_walking() => self.shell.key(' ', mq::get_time()),
            None => {}
        }
    }

    /// Zooms one step in (`+1`) or out (`-1`) from the tile size on screen now.
    fn zoom_by(&mut self, direction: i32) {
        // Keys fed before the first frame (--keys) find the layout not made yet.
        self.layout();
        let now = (self.screen.view_fit.scale * TILE_SIZE as f32).round() as u32;
        let next = if direction > 0 {
            ZOOM_STEPS.iter().copied().find(|&px| px > now)
        } else {
            ZOOM_STEPS.iter().copied().rev().find(|&px| px < now)
        };
        let px = next.unwrap_or(now.clamp(MIN_TILE_PIXELS, *ZOOM_STEPS.last().unwrap_or(&now)));
        self.zoom = Some(px);
        self.shell.say(screens::zoom_message(px));
    }

    /// Lays the cells out for this frame: the HUD's and text screens' grid (the whole world
    /// when it fits at a readable size, scaled to the window, else 16 pixels a cell; never
    /// the zoom's), and the world's view below the HUD at the zoom's scale.
    fn layout(&mut self) {
        let (sw, sh) = (mq::screen_width(), mq::screen_height());
        let frame = match self.shell.shown_game() {
            Some(game) => screens::game_geometry(game),
            None => window_geometry(self.world_size.0, self.world_size.1),
        };
        // A world drawn at a fixed size (an exploration's) is not fitted: the camera scrolls.
        let whole = frame.fit(sw, sh).scale;
        let fits = whole * TILE_SIZE as f32 >= MIN_TILE_PIXELS as f32;
        let ui_scale = if fits && !self.shell.fixed_tile_size() {
            whole
        } else {
            1.0
        };
        // In sight (runs, explorations, a classic game with Tab) the view's default tile size
        // fits the light's diameter to the view (docs/look.md).
        let sight = self
            .shell
            .shown_game()
            .is_some_and(|g| self.shell.in_sight(g));
        let hud_px = HUD_ROWS as f32 * TILE_SIZE as f32 * ui_scale;
        let default_scale = if sight {
            sight_tile_pixels(sw, sh - hud_px).map_or(ui_scale, |px| px as f32 / TILE_SIZE as f32)
        } else {
            ui_scale
        };
        let view_scale = self
            .zoom
            .map_or(default_scale, |px| px as f32 / TILE_SIZE as f32);
        self.screen = ScreenLayout::new(sw, sh, ui_scale, HUD_ROWS as u32, view_scale);
    }

    /// The view's cell geometry: `cols × rows`, cells from the bottom-left.
    fn view_geometry(&self) -> Geometry {
        Geometry::new(self.screen.view_cols, self.screen.view_rows)
    }

    /// The view cell under the mouse, `(col, row)` from the view's top-left; `None` off the
    /// view or over the minimap.
    fn cell_under_mouse(&self) -> Option<(u32, u32)> {
        let (px, py) = mq::mouse_position();
        if self
            .minimap_rect()
            .is_some_and(|r| r.contains(mq::vec2(px, py)))
        {
            return None;
        }
        let g = self.view_geometry();
        let (cx, cy) = g.cell_at(self.screen.view_fit, px, py)?;
        Some((cx as u32, g.rows - 1 - cy as u32))
    }

    /// Asks the session for this frame and paints it: the world's view (when the screen is a
    /// game's), the minimap, then the HUD or the text screen on the HUD's grid.
    fn draw(&mut self) {
        let request = FrameRequest {
            view_cols: self.screen.view_cols,
            view_rows: self.screen.view_rows,
            minimap: Some((MAX_SIDE, MAX_SIDE)),
            pointer: self.cell_under_mouse(),
        };
        let frame = self.shell.frame(mq::get_time(), &request);
        self.renderer.place(self.screen.ui, self.screen.ui_fit);
        let ui = self.screen.ui;
        let painted = paint::paint(&frame, ui.cols, ui.rows, &self.renderer);
        mq::clear_background(mq::BLACK);
        self.renderer
            .place(self.view_geometry(), self.screen.view_fit);
        self.draw_cells(&painted);
        if let Some(m) = &frame.minimap {
            self.draw_minimap(m);
        }
        self.renderer.place(self.screen.ui, self.screen.ui_fit);
        for &row in &painted.hud_rows {
            self.renderer.fill_rows(row, row, screens::HUD_BACKGROUND);
        }
        for t in &painted.texts {
            if let Some(bg) = t.bg {
                let width = self.renderer.text_width_cells(&t.text, t.scale);
                self.renderer.fill_text_box(t.x, t.row, width, t.scale, bg);
            }
            self.renderer
                .draw_text_in_row(&t.text, t.x, t.row, t.color, t.scale);
        }
        self.frame = Some(frame);
    }

    /// The view's cells: every background first, then every glyph and wall (two batches).
    fn draw_cells(&self, painted: &Painted) {
        let rows = self.screen.view_rows;
        for c in &painted.cells {
            self.renderer
                .fill_cell(c.col as i32, (rows - 1 - c.row) as i32, c.bg);
        }
        for c in &painted.cells {
            let (cx, cy) = (c.col as i32, (rows - 1 - c.row) as i32);
            match c.mark {
                Mark::Nothing => {}
                Mark::Glyph(ch) => self.renderer.draw_char_in_cell(cx, cy, ch, c.fg),
                Mark::Wall(mask) => self.renderer.draw_wall_in_cell(cx, cy, mask, c.fg),
            }
        }
    }

    /// Where the minimap goes on screen (pixels), when the last frame has one: the view's
    /// corner the frame says, in a box of a quarter of its width and a third of its height.
    fn minimap_rect(&self) -> Option<mq::Rect> {
        let m = self.frame.as_ref()?.minimap.as_ref()?;
        Some(self.minimap_rect_of(m))
    }

    fn minimap_rect_of(&self, m: &MinimapFrame) -> mq::Rect {
        let fit = self.screen.view_fit;
        let side = TILE_SIZE as f32 * fit.scale;
        let (view_w, view_h) = (
            self.screen.view_cols as f32 * side,
            self.screen.view_rows as f32 * side,
        );
        let (box_w, box_h) = (view_w / 4.0, view_h / 3.0);
        let (mw, mh) = (m.width as f32, m.height as f32);
        let k = (box_w / mw).min(box_h / mh);
        let k = if k >= 1.0 { k.floor() } else { k };
        let (w, h) = (mw * k, mh * k);
        let (right, top) = match m.corner {
            Corner::TopRight => (true, true),
            Corner::TopLeft => (false, true),
            Corner::BottomRight => (true, false),
            Corner::BottomLeft => (false, false),
        };
        let x = if right {
            fit.left + view_w - w - MINIMAP_MARGIN
        } else {
            fit.left + MINIMAP_MARGIN
        };
        let y = if top {
            fit.top + MINIMAP_MARGIN
        } else {
            fit.top + view_h - h - MINIMAP_MARGIN
        };
        mq::Rect::new(x, y, w, h)
    }

    /// The minimap in the view's corner the frame names: the explored world, the view's outline, the
    /// exit (once seen) and the avatar; its texture uploaded again only when it changed.
    fn draw_minimap(&mut self, m: &MinimapFrame) {
        let texture = match &self.minimap {
            Some((version, texture)) if *version == m.version => texture.clone(),
            _ => {
                let texture =
                    mq::Texture2D::from_rgba8(m.width as u16, m.height as u16, m.rgba.as_slice());
                texture.set_filter(mq::FilterMode::Nearest);
                self.minimap = Some((m.version, texture.clone()));
                texture
            }
        };
        let r = self.minimap_rect_of(m);
        let pad = 2.0;
        mq::draw_rectangle(
            r.x - pad,
            r.y - pad,
            r.w + 2.0 * pad,
            r.h + 2.0 * pad,
            mq::Color::new(0.0, 0.0, 0.0, 0.8),
        );
        outline(
            r.x - pad,
            r.y - pad,
            r.w + 2.0 * pad,
            r.h + 2.0 * pad,
            minimap::FRAME,
        );
        mq::draw_texture_ex(
            &texture,
            r.x,
            r.y,
            mq::WHITE,
            mq::DrawTextureParams {
                dest_size: Some(mq::vec2(r.w, r.h)),
                ..Default::default()
            },
        );
        let k = r.w / m.width as f32;
        let (ox, oy, ow, oh) = m.outline;
        outline(
            r.x + ox as f32 * k,
            r.y + oy as f32 * k,
            (ow as f32 * k).max(1.0),
            (oh as f32 * k).max(1.0),
            minimap::VIEW_OUTLINE,
        );
        let dot = |at: Option<(u32, u32)>, color: Rgb| {
            if let Some((x, y)) = at {
                let d = k.max(3.0);
                let (cx, cy) = (r.x + (x as f32 + 0.5) * k, r.y + (y as f32 + 0.5) * k);
                mq::draw_rectangle(
                    cx - d / 2.0,
                    cy - d / 2.0,
                    d,
                    d,
                    renderer::to_mq_color(color),
                );
            }
        };
        dot(m.exit, minimap::EXIT);
        dot(m.avatar, minimap::AVATAR);
    }
}

/// A one-pixel outline just inside the `w × h` pixel rectangle at `(x, y)`.
fn outline(x: f32, y: f32, w: f32, h: f32, color: Rgb) {
    let color = renderer::to_mq_color(color);
    mq::draw_rectangle(x, y, w, 1.0, color);
    mq::draw_rectangle(x, y + h - 1.0, w, 1.0, color);
    mq::draw_rectangle(x, y, 1.0, h, color);
    mq::draw_rectangle(x + w - 1.0, y, 1.0, h, color);
}

/// Writes the current frame as a PNG (top row first).
fn write_screenshot(path: &Path) -> Result<(), WindowError> {
    let shot = mq::get_screen_data();
    let (w, h) = (u32::from(shot.width), u32::from(shot.height));
    let row = w as usize * 4;
    let mut flipped = Vec::with_capacity(shot.bytes.len());
    for y in (0..h as usize).rev() {
        flipped.extend_from_slice(&shot.bytes[y * row..(y + 1) * row]);
    }
    image::save_buffer(path, &flipped, w, h, image::ColorType::Rgba8).map_err(|source| {
        WindowError::Screenshot {
            path: path.to_owned(),
            source,
        }
    })
}
