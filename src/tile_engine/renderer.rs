//! `TERenderer` (Java `byog.TileEngine.TERenderer`): draws a world of tiles in a macroquad
//! window, 16 × 16 pixels a tile, the bottom-left cell at the window's bottom-left, with the
//! cell arithmetic of [`Geometry`]. Built only with the `window` feature; only the window
//! loop creates one.

use macroquad::prelude as mq;

use super::autotile::{self, WallStyle};
use super::geometry::Pos;
use super::layout::{FONT_BYTES, FONT_SIZE, Fit, Geometry, TILE_SIZE};
use super::tetile::{Rgb, TETile};
use super::tileset::Tile;
use super::world::World;

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
}

/// A tile's colours at two fifths of their brightness.
fn dimmed(tile: &TETile) -> TETile {
    let dim = |c: Rgb| Rgb::new(c.r / 5 * 2, c.g / 5 * 2, c.b / 5 * 2);
    TETile::new(
        tile.character(),
        dim(tile.text_color()),
        dim(tile.background_color()),
        tile.description().to_owned(),
    )
}

/// Draws worlds and text in cells on the current macroquad window. Create it inside the window
/// loop (macroquad must be running).
pub struct TERenderer {
    geometry: Geometry,
    font: Option<mq::Font>,
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
        // The embedded font is known-good; should it ever fail, macroquad's own font is used
        // (ASCII glyphs only) rather than stopping the game.
        let font = mq::load_ttf_font_from_bytes(FONT_BYTES).ok();
        if let Some(font) = &font {
            // Rasterise the glyphs up front: a glyph first met mid-frame grows the atlas and
            // can leave that frame's earlier text blank.
            let mut chars: Vec<char> = (' '..='~').collect();
            chars.extend(super::Tile::ALL.iter().map(|t| t.character()));
            for scale in [1.0, 1.5, 2.0, 2.5] {
                font.populate_font_cache(&chars, (f32::from(FONT_SIZE) * scale) as u16);
            }
        }
        TERenderer { geometry, font }
    }

    /// The cell layout.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The current placement of the cells on the screen.
    pub fn fit(&self) -> Fit {
        self.geometry.fit(mq::screen_width(), mq::screen_height())
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
        let fit = self.fit();
        let (xo, yo) = (self.geometry.x_offset, self.geometry.y_offset);
        let shaded: Vec<(Pos, Tile, TETile)> = world
            .tiles()
            .iter()
            .enumerate()
            .filter_map(|(i, &tile)| {
                let pos = world.pos_of(i);
                let t = TETile::new(
                    tile.character(),
                    tile.tetile().text_color(),
                    autotile::background(tile, style),
                    tile.tetile().description().to_owned(),
                );
                match shade(pos) {
                    Shade::Full => Some((pos, tile, t)),
                    Shade::Dim => Some((pos, tile, dimmed(&t))),
                    Shade::Hidden => None,
                }
            })
            .collect();
        for (pos, _, t) in &shaded {
            self.draw_background(fit, pos.x + xo, pos.y + yo, t);
        }
        for (pos, tile, t) in &shaded {
            if style == WallStyle::Box && *tile == Tile::Wall {
                let (x, y, side) = self.geometry.cell_rect(fit, pos.x + xo, pos.y + yo);
                let scale = side / TILE_SIZE as f32;
                let color = to_mq_color(t.text_color());
                for (sx, sy, sw, sh) in
                    autotile::strokes(autotile::wall_mask(world, *pos), TILE_SIZE)
                {
                    mq::draw_rectangle(
                        x + sx as f32 * scale,
                        y + sy as f32 * scale,
                        sw as f32 * scale,
                        sh as f32 * scale,
                        color,
                    );
                }
            } else {
                self.draw_glyph(fit, pos.x + xo, pos.y + yo, t);
            }
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
        let c = tile.character();
        if c == ' ' {
            return;
        }
        let (x, y, side) = self.geometry.cell_rect(fit, cx, cy);
        let mut buf = [0u8; 4];
        let s: &str = c.encode_utf8(&mut buf);
        let size = (f32::from(FONT_SIZE) * fit.scale).round().max(1.0) as u16;
        let dims = mq::measure_text(s, self.font.as_ref(), size, 1.0);
        let tx = x + (side - dims.width) / 2.0;
        let ty = y + (side - dims.height) / 2.0 + dims.offset_y;
        self.text(s, tx, ty, size, tile.text_color());
    }

    /// Draws `text` with its left edge at cell column `cx` and vertically centred in cell row
    /// `cy` (cells from the bottom-left), at `scale`× the tile font size.
    pub fn draw_text_in_row(&self, text: &str, cx: f32, cy: i32, color: Rgb, scale: f32) {
        let fit = self.fit();
        let (_, y, side) = self.geometry.cell_rect(fit, 0, cy);
        let size = (f32::from(FONT_SIZE) * fit.scale * scale).round().max(1.0) as u16;
        let dims = mq::measure_text("Ag", self.font.as_ref(), size, 1.0);
        let ty = y + (side - dims.height) / 2.0 + dims.offset_y;
        self.text(text, fit.left + cx * side, ty, size, color);
    }

    /// Draws `text` centred horizontally in cell row `cy`.
    pub fn draw_text_centered(&self, text: &str, cy: i32, color: Rgb, scale: f32) {
        let fit = self.fit();
        let side = TILE_SIZE as f32 * fit.scale;
        let size = (f32::from(FONT_SIZE) * fit.scale * scale).round().max(1.0) as u16;
        let width = mq::measure_text(text, self.font.as_ref(), size, 1.0).width;
        let cx = (self.geometry.cols as f32 * side - width) / 2.0 / side;
        self.draw_text_in_row(text, cx, cy, color, scale);
    }

    /// The width of `text` in cells at `scale`× the tile font size.
    pub fn text_width_cells(&self, text: &str, scale: f32) -> f32 {
        let fit = self.fit();
        let side = TILE_SIZE as f32 * fit.scale;
        let size = (f32::from(FONT_SIZE) * fit.scale * scale).round().max(1.0) as u16;
        mq::measure_text(text, self.font.as_ref(), size, 1.0).width / side
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
