//! The window (keyboard play, the `window` feature): a macroquad loop that plays through the
//! shared [`Shell`] (the interpreter `replay` uses, the save, the watch, the messages and
//! their timers, sight, walls and the camera, as in the terminal) and lays out the shared
//! [`screens`] with the [`TERenderer`]. It translates keys and draws; every word and rule
//! comes from elsewhere.
//!
//! Layout: the HUD's [`HUD_ROWS`] rows at the top of the window and the world below them,
//! never under the HUD (`docs/java-parity.md`, TERenderer). A world smaller than
//! [`MIN_COLS`] × [`MIN_ROWS`] cells is centred in a window of that size, so the menu is
//! never clipped. The window never opens larger than the screen (docs/sight.md): a world that fits
//! at a readable tile size ([`MIN_TILE_PIXELS`] and up) is shown whole, scaled to the window
//! as Java's is; a larger one is shown at 16 pixels a tile (or the zoom keys' size) through
//! the [`Camera`], which follows the avatar, with a [`Minimap`] of what was explored. Only
//! the tiles on screen are composed and drawn, so a frame costs the window, not the world.
//!
//! The window's own keys, never fed to the session: `+` `-` `0` (zoom in, out, fit) and `M`
//! (minimap) while the world is shown; the session's view keys (Tab, `V`, the watch's) are
//! the [`Shell`]'s.

pub mod renderer;

use std::path::{Path, PathBuf};

pub use renderer::{Shade, TERenderer};

use macroquad::prelude as mq;

use byog_game::GameState;
use byog_game::game::{Light, SIGHT_RADIUS};
pub use byog_shell::SIGHT_KEY;
use byog_shell::screens::{self, Screen, Style, TextScreen};
pub use byog_shell::screens::{HUD_ROWS, MIN_COLS, MIN_ROWS, window_geometry};
use byog_shell::{PlayError, Scene, Shell, ShellOptions};
use byog_tile_engine::layout::ScreenLayout;
use byog_tile_engine::look;
use byog_tile_engine::minimap::{self, MAX_SIDE, Mark, Minimap};
use byog_tile_engine::{Camera, Geometry, Pos, Rect, Rgb, TILE_SIZE};

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
/// [`PlayError::NoDisplay`] or [`PlayError::Window`] when the window cannot open,
/// [`PlayError::Watch`] when there is no save to watch (`watch`), [`PlayError::Screenshot`]
/// when the screenshot cannot be written.
pub fn play(options: WindowOptions) -> Result<(), PlayError> {
    check_display()?;
    let shell = Shell::new(options.shell.clone())?;
    let (size, _x_connection) = screen_size();
    let screen = size.unwrap_or(FALLBACK_SCREEN);
    let (w, h) = opening_size(options.shell.width, options.shell.height, screen);
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
        return Err(PlayError::Window(why));
    }
    result.replace(Ok(()))
}

/// On X11/Wayland systems, a clear error when there is no display to open a window on.
fn check_display() -> Result<(), PlayError> {
    if cfg!(all(unix, not(target_os = "macos")))
        && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty())
        && std::env::var_os("WAYLAND_DISPLAY").is_none_or(|d| d.is_empty())
    {
        return Err(PlayError::NoDisplay);
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
    /// Whether the minimap is wanted (M); it shows only when the world does not fit.
    minimap_wanted: bool,
    minimap: Option<MinimapView>,
}

/// The minimap of the shown scene (drawn in sight or not) and its texture.
struct MinimapView {
    scene: Scene,
    sight: bool,
    map: Minimap,
    texture: mq::Texture2D,
    /// Where the avatar was at the last redraw.
    avatar: Pos,
}

async fn window_loop(options: WindowOptions, shell: Shell) -> Result<(), PlayError> {
    let (width, height) = (options.shell.width, options.shell.height);
    let geometry = window_geometry(width, height);
    let (w, h) = geometry.window_size();
    let mut window = Window {
        shell,
        renderer: TERenderer::in_current_window(geometry),
        screen: ScreenLayout::new(w as f32, h as f32, 1.0, HUD_ROWS as u32, 1.0),
        world_size: (width, height),
        zoom: None,
        minimap_wanted: true,
        minimap: None,
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
            (mq::KeyCode::Up, 'W'),
            (mq::KeyCode::Left, 'A'),
            (mq::KeyCode::Down, 'S'),
            (mq::KeyCode::Right, 'D'),
            // Home and End seek a watch to its first or last step.
            (mq::KeyCode::Home, byog_game::watch::HOME),
            (mq::KeyCode::End, byog_game::watch::END),
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
        frames += 1;
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

impl Window {
    /// One key: the window's own (zoom, minimap) while the world is shown; every other key
    /// goes to the session (docs/keys.md).
    fn key(&mut self, key: char) {
        if self.shell.shows_world() {
            match key {
                '+' | '=' => return self.zoom_by(1),
                '-' | '_' => return self.zoom_by(-1),
                '0' => {
                    self.zoom = None;
                    return;
                }
                'm' | 'M' => {
                    self.minimap_wanted = !self.minimap_wanted;
                    return;
                }
                _ => {}
            }
        }
        self.shell.key(key, mq::get_time());
    }

    /// A left click: the tile under the pointer, if it is a world tile the HUD may name, is
    /// where the session walks (a click anywhere stops a walk under way).
    fn click(&mut self) {
        self.layout();
        self.place_view();
        let tile = self
            .shell
            .shown_game()
            .filter(|_| self.shell.shows_world())
            .and_then(|g| self.tile_under_mouse(g));
        match tile {
            Some(pos) => self.shell.click(pos, mq::get_time()),
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

    /// The camera over the shown world, as the session last placed it.
    fn camera(&self) -> Option<Camera> {
        self.shell
            .camera()
            .filter(|_| self.shell.shows_world())
            .map(|(_, c)| c)
    }

    /// Lays the cells out for this frame: the HUD's and text screens' grid (the whole world
    /// when it fits at a readable size, scaled to the window, else 16 pixels a cell; never
    /// the zoom's), the world's view below the HUD at the zoom's scale, and the camera over
    /// the world following the avatar.
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
        let screen = ScreenLayout::new(sw, sh, ui_scale, HUD_ROWS as u32, view_scale);
        self.shell.follow(screen.view_cols, screen.view_rows);
        self.screen = screen;
        self.place_view();
        self.update_minimap();
    }

    /// Draws on the world's view from here on.
    fn place_view(&mut self) {
        let origin = self.camera().map_or(Pos::new(0, 0), |c| c.origin);
        self.renderer
            .place(self.screen.view(origin), self.screen.view_fit);
    }

    /// Draws on the HUD's and text screens' grid from here on.
    fn place_ui(&mut self) {
        self.renderer.place(self.screen.ui, self.screen.ui_fit);
    }

    /// Keeps the minimap in step with the shown world.
    fn update_minimap(&mut self) {
        let previous = self.minimap.take();
        self.minimap = match (self.camera(), self.shell.shown_game()) {
            (Some(camera), Some(game)) => {
                let (scene, sight) = (Scene::of(game), self.shell.in_sight(game));
                if camera.shows_all(scene.width, scene.height) {
                    // The world now fits (an exploration's frame changed): no minimap, and
                    // none of another scene kept to be shown.
                    previous.filter(|m| (m.scene, m.sight) == (scene, sight))
                } else {
                    Some(minimap_of(game, scene, sight, previous))
                }
            }
            _ => previous,
        };
    }

    /// Draws the frame: the world on its view (when the screen is a game's), then the HUD
    /// or the text screen on the HUD's grid.
    fn draw(&mut self) {
        mq::clear_background(mq::BLACK);
        self.place_view();
        let under_mouse = self
            .shell
            .shown_game()
            .and_then(|g| self.tile_under_mouse(g));
        let screen = self.shell.screen(mq::get_time(), under_mouse);
        if let (Screen::Game(_), Some(game)) = (&screen, self.shell.shown_game()) {
            self.draw_game(game);
        }
        self.place_ui();
        match screen {
            Screen::Text(text) => self.draw_text_screen(&text),
            Screen::Game(hud) => self.draw_hud(&hud),
        }
    }

    /// The world tile under the mouse: on the world's cells (not the HUD, not the minimap)
    /// and, in sight, seen.
    fn tile_under_mouse(&self, game: &GameState) -> Option<Pos> {
        let (px, py) = mq::mouse_position();
        if self
            .minimap_rect()
            .is_some_and(|r| r.contains(mq::vec2(px, py)))
        {
            return None;
        }
        // The renderer is placed on the world's view: its cells are the view's only.
        let g = self.renderer.geometry();
        let fit = self.renderer.fit();
        let world = game.rect();
        g.tile_at(fit, px, py, world.width as usize, world.height as usize)
            .filter(|&p| self.shell.names(game, p))
    }

    /// Draws the tiles of the world on screen (only those: the cost follows the window,
    /// never the world), then the minimap.
    fn draw_game(&self, game: &GameState) {
        let Some(camera) = self.camera() else {
            return;
        };
        let world = game.rect();
        let visible = camera.view().intersection(&world);
        // One tile more all round, so box walls join across the view's edge.
        let area = Rect::new(
            visible.x - 1,
            visible.y - 1,
            visible.width + 2,
            visible.height + 2,
        )
        .intersection(&world);
        let in_sight = self.shell.in_sight(game);
        let part = if in_sight {
            game.compose_in_sight(area)
        } else {
            game.compose(area)
        };
        let at = Pos::new(area.x, area.y);
        let style = self.shell.walls(game);
        if in_sight {
            // The play view's look (docs/look.md): lit by the avatar's light, remembered
            // tiles in one cool colour.
            let visibility = game.visibility();
            let a = game.avatar();
            self.renderer.draw_part(
                &part,
                at,
                visible,
                style,
                &|p| match game.light(&visibility, p) {
                    Light::Visible => {
                        let (dx, dy) = (i64::from(p.x - a.x), i64::from(p.y - a.y));
                        Shade::Lit(look::light(dx * dx + dy * dy, SIGHT_RADIUS))
                    }
                    Light::Remembered => Shade::Memory,
                    Light::Unseen => Shade::Hidden,
                },
            );
            self.draw_route(visible);
        } else {
            self.renderer
                .draw_part(&part, at, visible, style, &|_| Shade::Full);
        }
        self.draw_minimap(game, camera);
    }

    /// The route of a walk waiting for `Y` (through armed traps), tinted over its tiles.
    fn draw_route(&self, visible: Rect) {
        let Some(route) = self.shell.route() else {
            return;
        };
        let fit = self.renderer.fit();
        let g = self.renderer.geometry();
        let c = look::ROUTE;
        let tint = mq::Color::from_rgba(c.r, c.g, c.b, 150);
        for &p in route.iter().filter(|&&p| visible.contains(p)) {
            let (x, y, side) = g.cell_rect(fit, p.x + g.x_offset, p.y + g.y_offset);
            mq::draw_rectangle(x, y, side, side, tint);
        }
    }

    /// Where the minimap goes on screen (pixels), when it shows: the view's top-right.
    fn minimap_rect(&self) -> Option<mq::Rect> {
        let m = self.minimap.as_ref()?;
        let camera = self.camera()?;
        if !self.minimap_wanted || camera.shows_all(m.scene.width, m.scene.height) {
            return None;
        }
        let fit = self.screen.view_fit;
        let side = TILE_SIZE as f32 * fit.scale;
        let (view_w, view_h) = (
            self.screen.view_cols as f32 * side,
            self.screen.view_rows as f32 * side,
        );
        let (box_w, box_h) = (view_w / 4.0, view_h / 3.0);
        let (mw, mh) = (m.map.width() as f32, m.map.height() as f32);
        let k = (box_w / mw).min(box_h / mh);
        let k = if k >= 1.0 { k.floor() } else { k };
        let (w, h) = (mw * k, mh * k);
        let x = fit.left + view_w - w - MINIMAP_MARGIN;
        let y = fit.top + MINIMAP_MARGIN;
        Some(mq::Rect::new(x, y, w, h))
    }

    /// The minimap at the view's top-right: the explored world, the view's outline, the
    /// exit (once seen) and the avatar.
    fn draw_minimap(&self, game: &GameState, camera: Camera) {
        let (Some(m), Some(r)) = (&self.minimap, self.minimap_rect()) else {
            return;
        };
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
            renderer::to_mq_color(minimap::FRAME),
        );
        mq::draw_texture_ex(
            &m.texture,
            r.x,
            r.y,
            mq::WHITE,
            mq::DrawTextureParams {
                dest_size: Some(mq::vec2(r.w, r.h)),
                ..Default::default()
            },
        );
        let k = r.w / m.map.width() as f32;
        let block = m.map.block() as f32;
        // The view's outline, clipped to the world.
        let world = game.rect();
        let view = camera.view().intersection(&world);
        let top = world.top() as f32 - view.top() as f32;
        outline(
            r.x + (view.x as f32 / block * k).floor(),
            r.y + (top / block * k).floor(),
            (view.width as f32 / block * k).ceil(),
            (view.height as f32 / block * k).ceil(),
            renderer::to_mq_color(minimap::VIEW_OUTLINE),
        );
        let dot = |pos: Pos, color| {
            if let Some((x, y)) = m.map.pixel_of(pos) {
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
        if !m.sight || game.has_seen(game.exit()) {
            dot(game.exit(), minimap::EXIT);
        }
        dot(game.avatar(), minimap::AVATAR);
    }

    /// Centred lines from three quarters of the way up, the message near the bottom; a line
    /// wider than the window wraps.
    fn draw_text_screen(&self, text: &TextScreen) {
        let r = &self.renderer;
        let rows = r.geometry().rows as i32;
        let mut row = rows * 3 / 4;
        for line in &text.lines {
            let (scale, color, height) = appearance(line.style);
            if !line.text.is_empty() {
                let parts = self.wrapped(&line.text, scale);
                for (k, part) in parts.iter().enumerate() {
                    if k > 0 {
                        row -= scale.ceil() as i32;
                    }
                    r.draw_text_centered(part, row, color, scale);
                }
            }
            row -= height;
        }
        if let Some(m) = &text.message {
            let parts = self.wrapped(&m.text, 1.0);
            let first = 2.max(parts.len() as i32 - 1);
            for (k, part) in (0..).zip(&parts) {
                r.draw_text_centered(part, first - k, m.style.color(), 1.0);
            }
        }
    }

    /// `text` at `scale` × the tile font, wrapped to the width of the grid less a cell.
    fn wrapped(&self, text: &str, scale: f32) -> Vec<String> {
        let r = &self.renderer;
        let advance = r.text_width_cells(CHARS_MEASURED, scale) / CHARS_MEASURED.len() as f32;
        let width = r.geometry().cols as f32 - 1.0;
        let chars = (width / advance.max(1e-3)).floor().max(1.0) as usize;
        screens::wrap(text, chars)
    }

    /// The HUD on the top rows of the HUD's grid, laid out by [`screens::hud_lines`] in the
    /// characters a row holds between half-cell margins: left texts from the left margin,
    /// right texts ending at the right one, never overlapping; a message too long to share
    /// its row takes whole rows, and rows past the HUD's own are drawn over the world's top.
    fn draw_hud(&self, hud: &screens::Hud) {
        let r = &self.renderer;
        let g = r.geometry();
        let top = g.rows as i32 - 1;
        let cols = g.cols as f32;
        let advance = r.text_width_cells(CHARS_MEASURED, 1.0) / CHARS_MEASURED.len() as f32;
        let chars = ((cols - 1.0) / advance.max(1e-3)).floor().max(1.0) as usize;
        for (k, row) in screens::hud_lines(hud, chars).iter().enumerate() {
            let y = top - k as i32;
            if y < 0 {
                break;
            }
            r.fill_rows(y, y, screens::HUD_BACKGROUND);
            r.draw_text_in_row(&row.left, 0.5, y, row.left_style.color(), 1.0);
            let x = cols - 0.5 - r.text_width_cells(&row.right, 1.0);
            r.draw_text_in_row(&row.right, x, y, Style::Hint.color(), 1.0);
        }
    }
}

/// A run of characters whose width, measured once a frame, gives the HUD font's advance (the
/// font is monospaced).
const CHARS_MEASURED: &str = "0000000000";

/// The minimap of `game`'s `scene`, from the `previous` one: redrawn whole for a new scene,
/// around the avatar after it moved (what it just saw), its texture updated when pixels
/// changed.
fn minimap_of(
    game: &GameState,
    scene: Scene,
    sight: bool,
    previous: Option<MinimapView>,
) -> MinimapView {
    let mark = |pos: Pos| {
        if sight && !game.has_seen(pos) {
            return Mark::Empty;
        }
        // Doors (the exit among them) are set into walls: drawn as wall.
        match game.tile_at(pos) {
            Some(t) if byog_tile_engine::autotile::joins(t) => Mark::Wall,
            Some(t) if t.is_walkable() => Mark::Floor,
            _ => Mark::Empty,
        }
    };
    let avatar = game.avatar();
    let mut view = match previous {
        Some(mut m) if (m.scene, m.sight) == (scene, sight) => {
            if m.avatar != avatar && sight {
                let r = SIGHT_RADIUS as i32 + 1;
                m.map.redraw(
                    Rect::new(avatar.x - r, avatar.y - r, 2 * r + 1, 2 * r + 1),
                    mark,
                );
            }
            m.avatar = avatar;
            m
        }
        _ => {
            let mut map = Minimap::new(scene.width, scene.height, MAX_SIDE, MAX_SIDE);
            map.redraw(Rect::of_size(scene.width, scene.height), mark);
            let texture =
                mq::Texture2D::from_rgba8(map.width() as u16, map.height() as u16, map.rgba());
            texture.set_filter(mq::FilterMode::Nearest);
            map.take_changed();
            MinimapView {
                scene,
                sight,
                map,
                texture,
                avatar,
            }
        }
    };
    if view.map.take_changed() {
        view.texture.update(&mq::Image {
            bytes: view.map.rgba().to_vec(),
            width: view.map.width() as u16,
            height: view.map.height() as u16,
        });
    }
    view
}

/// A one-pixel outline just inside the `w × h` pixel rectangle at `(x, y)`.
fn outline(x: f32, y: f32, w: f32, h: f32, color: mq::Color) {
    mq::draw_rectangle(x, y, w, 1.0, color);
    mq::draw_rectangle(x, y + h - 1.0, w, 1.0, color);
    mq::draw_rectangle(x, y, 1.0, h, color);
    mq::draw_rectangle(x + w - 1.0, y, 1.0, h, color);
}

/// Scale (× the tile font), colour and height in rows of a style on a text screen.
fn appearance(style: Style) -> (f32, Rgb, i32) {
    let (scale, height) = match style {
        Style::Title => (2.5, 3),
        Style::Heading => (2.0, 3),
        Style::Normal | Style::Dim | Style::Glyph(_) => (1.5, 2),
        Style::Input => (2.0, 2),
        Style::Hint | Style::Message => (1.0, 2),
    };
    (scale, style.color(), height)
}

/// Writes the current frame as a PNG (top row first).
fn write_screenshot(path: &Path) -> Result<(), PlayError> {
    let shot = mq::get_screen_data();
    let (w, h) = (u32::from(shot.width), u32::from(shot.height));
    let row = w as usize * 4;
    let mut flipped = Vec::with_capacity(shot.bytes.len());
    for y in (0..h as usize).rev() {
        flipped.extend_from_slice(&shot.bytes[y * row..(y + 1) * row]);
    }
    image::save_buffer(path, &flipped, w, h, image::ColorType::Rgba8).map_err(|source| {
        PlayError::Screenshot {
            path: path.to_owned(),
            source,
        }
    })
}
