//! `TERenderer` (Java `byog.TileEngine.TERenderer`): draws a world of tiles in a macroquad
//! window, 16 × 16 pixels a tile, the bottom-left cell at the window's bottom-left, with the
//! cell arithmetic of [`Geometry`]. Built only with the `window` feature; only the window
//! loop creates one.

use macroquad::prelude as mq;

use byog_tile_engine::autotile::{self, WallStyle};
use byog_tile_engine::layout::{FONT_BYTES, FONT_SIZE, Fit, Geometry, TILE_SIZE};
use byog_tile_engine::{Pos, Rect, Rgb, TETile, Tile, World, look};

/// Converts a tile colour to macroquad's.
pub fn to_mq_color(c: Rgb) -> mq::Color {
    mq::Color::from_rgba(c.r, c.g, c.b, 255)
}

/// How brightly [`TERenderer::draw_world_shaded`] draws a tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shade {
    /// In full colour (in sight).
    Full,
    /// Dimmed to two fifths (remembered).
    Dim,
    /// Not drawn (never seen).
    Hidden,
    /// The play view's look in sight ([`look`]): lit by the avatar's light, this many 256ths.
    Lit(u32),
    /// The play view's look out of sight ([`look`]): remembered, in the one cool colour.
    Memory,
}

/// The font size in pixels for text at `scale` × the tile font.
fn font_size(scale: f32) -> u16 {
    (f32::from(FONT_SIZE) * scale).round().max(1.0) as u16
}

/// How [`TERenderer`] places its cells on the window.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Placement {
    Fill,
    Scaled(f32),
    Placed(Fit),
}

/// Draws worlds and text in cells on the current macroquad window. Create it inside the window
/// loop (macroquad must be running).
pub struct TERenderer {
    geometry: Geometry,
    /// Where the cells land: `Fill` scales them to fill the window (Java's fixed-size
    /// window), `Scaled` centres them at a scale (the camera's zoom), `Placed` puts them
    /// exactly there (a part of the window: the HUD's grid, the world's view).
    placement: Placement,
    font: Option<mq::Font>,
    /// The font sizes, in pixels, whose glyphs are already rasterised.
    cached_sizes: std::cell::RefCell<Vec<u16>>,
}

impl TERenderer {
    /// Java `initialize(width, height)`: asks for a window of `width × 16` by `height × 16`
    /// pixels and loads the built-in font.
    pub fn initialize(width: u32, height: u32) -> Self {
        TERenderer::initialize_with_offset(width, height, 0, 0)
    }

    /// Java `initialize(width, height, xOffset, yOffset)`.
    pub fn initialize_with_offset(width: u32, height: u32, x_offset: u32, y_offset: u32) -> Self {
        let geometry = Geometry::with_offset(width, height, x_offset as i32, y_offset as i32);
        let (w, h) = geometry.window_size();
        if (mq::screen_width() as u32, mq::screen_height() as u32) != (w, h) {
            mq::request_new_screen_size(w as f32, h as f32);
        }
        TERenderer::in_current_window(geometry)
    }

    /// A renderer laying `geometry` out in the window as it is, without asking the window to
    /// change size (the camera's window: [`TERenderer::set_layout`] then places the cells each
    /// frame).
    pub fn in_current_window(geometry: Geometry) -> Self {
        // The embedded font is known-good; should it ever fail, macroquad's own font is used
        // (ASCII glyphs only) rather than stopping the game.
        let font = mq::load_ttf_font_from_bytes(FONT_BYTES).ok();
        let renderer = TERenderer {
            geometry,
            placement: Placement::Fill,
            font,
            cached_sizes: std::cell::RefCell::new(Vec::new()),
        };
        renderer.prepare_scale(1.0);
        renderer
    }

    /// Lays the cells out as `geometry` at `scale` (pixels per cell / 16), centred in the
    /// window, without asking the window to change size (the camera's layout; see
    /// [`Geometry::fit_at`]).
    pub fn set_layout(&mut self, geometry: Geometry, scale: f32) {
        self.geometry = geometry;
        self.placement = Placement::Scaled(scale);
        self.prepare_scale(scale);
    }

    /// Lays the cells out as `geometry`, placed exactly as `fit` says (its scale, and its
    /// top-left corner in pixels): a grid on a part of the window, such as the world's view
    /// below a HUD ([`byog_tile_engine::layout::ScreenLayout`]).
    pub fn place(&mut self, geometry: Geometry, fit: Fit) {
        self.geometry = geometry;
        self.placement = Placement::Placed(fit);
        self.prepare_scale(fit.scale);
    }

    /// Rasterises the glyphs the screens draw at `scale` (tiles, the HUD, the text screens'
    /// sizes) unless already done: a glyph first met mid-frame grows the atlas and can leave
    /// that frame's earlier text blank.
    fn prepare_scale(&self, scale: f32) {
        let Some(font) = &self.font else {
            return;
        };
        let mut cached = self.cached_sizes.borrow_mut();
        for text_scale in [1.0, 1.5, 2.0, 2.5] {
            let size = font_size(scale * text_scale);
            if !cached.contains(&size) {
                let mut chars: Vec<char> = (' '..='~').collect();
                chars.extend(Tile::ALL.iter().map(|t| t.character()));
                chars.push('·');
                font.populate_font_cache(&chars, size);
                cached.push(size);
            }
        }
    }

    /// The cell layout.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The current placement of the cells on the screen.
    pub fn fit(&self) -> Fit {
        let (w, h) = (mq::screen_width(), mq::screen_height());
        match self.placement {
            Placement::Placed(fit) => fit,
            Placement::Scaled(scale) => self.geometry.fit_at(scale, w, h),
            Placement::Fill => self.geometry.fit(w, h),
        }
    }

    /// The world tile under the mouse pointer, if any.
    pub fn tile_under_mouse(&self, world: &World) -> Option<Pos> {
        let (px, py) = mq::mouse_position();
        self.geometry
            .tile_at(self.fit(), px, py, world.width(), world.height())
    }

    /// Java `renderFrame(world)`: clears the screen to black and draws every tile, each cell
    /// filled with its background colour and its character centred in its text colour.
    pub fn render_frame(&self, world: &World) {
        mq::clear_background(mq::BLACK);
        self.draw_world(world);
    }

    /// Draws every tile of `world` without clearing the screen first: all cell backgrounds
    /// first, then all glyphs, so the frame is two batches (one per texture) rather than two
    /// draw calls a tile.
    pub fn draw_world(&self, world: &World) {
        let fit = self.fit();
        let (xo, yo) = (self.geometry.x_offset, self.geometry.y_offset);
        for (i, tile) in world.tiles().iter().enumerate() {
            let pos = world.pos_of(i);
            self.draw_background(fit, pos.x + xo, pos.y + yo, tile.tetile());
        }
        for (i, tile) in world.tiles().iter().enumerate() {
            let pos = world.pos_of(i);
            self.draw_glyph(fit, pos.x + xo, pos.y + yo, tile.tetile());
        }
    }

    /// Draws `world` as [`TERenderer::draw_world`] does, each tile at the brightness `shade`
    /// gives its position: in full, dimmed (remembered, out of sight), or not at all (never
    /// seen).
    pub fn draw_world_shaded(&self, world: &World, style: WallStyle, shade: &dyn Fn(Pos) -> Shade) {
        self.draw_part(world, Pos::new(0, 0), world.rect(), style, shade);
    }

    /// Draws the tiles of `visible` (world tiles) from `part`, a piece of the world whose
    /// `(0, 0)` is world tile `at` (as the game's `GameState::compose` makes it), each where
    /// the layout puts that world tile and at the brightness `shade` gives it. Only
    /// `visible`'s tiles are drawn, so the cost follows the view, never the world; `part`
    /// should reach one tile past `visible` so box walls join across its edge.
    pub fn draw_part(
        &self,
        part: &World,
        at: Pos,
        visible: Rect,
        style: WallStyle,
        shade: &dyn Fn(Pos) -> Shade,
    ) {
        let fit = self.fit();
        let (xo, yo) = (self.geometry.x_offset, self.geometry.y_offset);
        let visible = visible.intersection(&Rect::new(
            at.x,
            at.y,
            part.width() as i32,
            part.height() as i32,
        ));
        let mut cells: Vec<(Pos, Tile, Rgb, Rgb, bool)> =
            Vec::with_capacity(visible.area() as usize);
        for pos in visible.positions() {
            let local = Pos::new(pos.x - at.x, pos.y - at.y);
            let tile = part.tile(local);
            let (fg, bg) = (
                tile.tetile().text_color(),
                autotile::background(tile, style),
            );
            match shade(pos) {
                Shade::Full => cells.push((pos, tile, fg, bg, false)),
                Shade::Dim => cells.push((pos, tile, fg.dimmed(), bg.dimmed(), false)),
                Shade::Lit(light) => {
                    let (fg, bg, _) = look::lit(tile, light);
                    cells.push((pos, tile, fg, bg, true));
                }
                Shade::Memory => {
                    let (fg, bg, _) = look::remembered(tile);
                    cells.push((pos, tile, fg, bg, true));
                }
                Shade::Hidden => {}
            }
        }
        for &(pos, _, _, bg, _) in &cells {
            let (x, y, side) = self.geometry.cell_rect(fit, pos.x + xo, pos.y + yo);
            mq::draw_rectangle(x, y, side, side, to_mq_color(bg));
        }
        for &(pos, tile, fg, _, new_look) in &cells {
            let (cx, cy) = (pos.x + xo, pos.y + yo);
            if tile == Tile::Wall && (new_look || style == WallStyle::Box) {
                let (x, y, side) = self.geometry.cell_rect(fit, cx, cy);
                let scale = side / TILE_SIZE as f32;
                // Box walls join only what is drawn (autotile's rules).
                let mask = autotile::wall_mask(
                    |p| part.get(Pos::new(p.x - at.x, p.y - at.y)),
                    |p| shade(p) != Shade::Hidden,
                    pos,
                );
                for (sx, sy, sw, sh) in autotile::strokes(mask, TILE_SIZE) {
                    mq::draw_rectangle(
                        x + sx as f32 * scale,
                        y + sy as f32 * scale,
                        sw as f32 * scale,
                        sh as f32 * scale,
                        to_mq_color(fg),
                    );
                }
            } else {
                self.draw_char(fit, cx, cy, tile.character(), fg);
            }
        }
    }

    /// Fills cell `(cx, cy)` (cells from the bottom-left) with `color`.
    pub fn fill_cell(&self, cx: i32, cy: i32, color: Rgb) {
        let (x, y, side) = self.geometry.cell_rect(self.fit(), cx, cy);
        mq::draw_rectangle(x, y, side, side, to_mq_color(color));
    }

    /// Draws character `c` centred in cell `(cx, cy)` (cells from the bottom-left).
    pub fn draw_char_in_cell(&self, cx: i32, cy: i32, c: char, color: Rgb) {
        self.draw_char(self.fit(), cx, cy, c, color);
    }

    /// Draws a box wall with the joins `mask` (`autotile::wall_mask`'s bits) in cell
    /// `(cx, cy)` as strokes (`autotile::strokes`, scaled to the cell).
    pub fn draw_wall_in_cell(&self, cx: i32, cy: i32, mask: u8, color: Rgb) {
        let (x, y, side) = self.geometry.cell_rect(self.fit(), cx, cy);
        let scale = side / TILE_SIZE as f32;
        for (sx, sy, sw, sh) in autotile::strokes(Some(mask), TILE_SIZE) {
            mq::draw_rectangle(
                x + sx as f32 * scale,
                y + sy as f32 * scale,
                sw as f32 * scale,
                sh as f32 * scale,
                to_mq_color(color),
            );
        }
    }

    /// Draws one tile in cell `(cx, cy)` (cells from the bottom-left).
    pub fn draw_tile(&self, cx: i32, cy: i32, tile: &TETile) {
        let fit = self.fit();
        self.draw_background(fit, cx, cy, tile);
        self.draw_glyph(fit, cx, cy, tile);
    }

    fn draw_background(&self, fit: Fit, cx: i32, cy: i32, tile: &TETile) {
        let (x, y, side) = self.geometry.cell_rect(fit, cx, cy);
        mq::draw_rectangle(x, y, side, side, to_mq_color(tile.background_color()));
    }

    fn draw_glyph(&self, fit: Fit, cx: i32, cy: i32, tile: &TETile) {
        self.draw_char(fit, cx, cy, tile.character(), tile.text_color());
    }

    /// Draws character `c` centred in cell `(cx, cy)` in `color`.
    fn draw_char(&self, fit: Fit, cx: i32, cy: i32, c: char, color: Rgb) {
        if c == ' ' {
            return;
        }
        let (x, y, side) = self.geometry.cell_rect(fit, cx, cy);
        let mut buf = [0u8; 4];
        let s: &str = c.encode_utf8(&mut buf);
        let size = font_size(fit.scale);
        let dims = mq::measure_text(s, self.font.as_ref(), size, 1.0);
        let tx = x + (side - dims.width) / 2.0;
        let ty = y + (side - dims.height) / 2.0 + dims.offset_y;
        self.text(s, tx, ty, size, color);
    }

    /// Draws `text` with its left edge at cell column `cx` and vertically centred in cell row
    /// `cy` (cells from the bottom-left), at `scale`× the tile font size.
    pub fn draw_text_in_row(&self, text: &str, cx: f32, cy: i32, color: Rgb, scale: f32) {
        let fit = self.fit();
        let (_, y, side) = self.geometry.cell_rect(fit, 0, cy);
        let size = font_size(fit.scale * scale);
        let dims = mq::measure_text("Ag", self.font.as_ref(), size, 1.0);
        let ty = y + (side - dims.height) / 2.0 + dims.offset_y;
        self.text(text, fit.left + cx * side, ty, size, color);
    }

    /// Draws `text` centred horizontally in cell row `cy`.
    pub fn draw_text_centered(&self, text: &str, cy: i32, color: Rgb, scale: f32) {
        let fit = self.fit();
        let side = TILE_SIZE as f32 * fit.scale;
        let size = font_size(fit.scale * scale);
        let width = mq::measure_text(text, self.font.as_ref(), size, 1.0).width;
        let cx = (self.geometry.cols as f32 * side - width) / 2.0 / side;
        self.draw_text_in_row(text, cx, cy, color, scale);
    }

    /// The width of `text` in cells at `scale`× the tile font size.
    pub fn text_width_cells(&self, text: &str, scale: f32) -> f32 {
        let fit = self.fit();
        let side = TILE_SIZE as f32 * fit.scale;
        let size = font_size(fit.scale * scale);
        mq::measure_text(text, self.font.as_ref(), size, 1.0).width / side
    }

    /// Fills the box behind text `width` cells wide from `x` cells from the left, centred on
    /// cell row `cy` (from the bottom), `scale` × the tile font high (a legend glyph's cell).
    pub fn fill_text_box(&self, x: f32, cy: i32, width: f32, scale: f32, color: Rgb) {
        let fit = self.fit();
        let (_, y, side) = self.geometry.cell_rect(fit, 0, cy);
        let h = side * scale;
        mq::draw_rectangle(
            fit.left + x * side,
            y + (side - h) / 2.0,
            width * side,
            h,
            to_mq_color(color),
        );
    }

    /// Fills cell rows `from..=to` with `color` (used to clear the HUD rows).
    pub fn fill_rows(&self, from: i32, to: i32, color: Rgb) {
        let fit = self.fit();
        let (x, top, side) = self.geometry.cell_rect(fit, 0, to);
        let h = (to - from + 1) as f32 * side;
        mq::draw_rectangle(
            x,
            top,
            self.geometry.cols as f32 * side,
            h,
            to_mq_color(color),
        );
    }

    fn text(&self, s: &str, x: f32, y: f32, size: u16, color: Rgb) {
        mq::draw_text_ex(
            s,
            x,
            y,
            mq::TextParams {
                font: self.font.as_ref(),
                font_size: size,
                color: to_mq_color(color),
                ..Default::default()
            },
        );
    }
}
