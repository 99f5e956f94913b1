//! The layout of tile cells on a screen (the arithmetic half of Java's `TERenderer`): 16 × 16
//! pixels a tile, the bottom-left cell at the window's bottom-left, scaled to fit.
//!
//! [`Geometry`] is plain arithmetic: the window's HUD mouse look-up, the tests and the PNG
//! export ([`super::raster`]) share it, and it builds without a window. Only
//! [`TERenderer`](super::TERenderer) (the `window` feature) touches macroquad.

use super::geometry::Pos;

/// Side of one tile cell in pixels at scale 1 (Java `TERenderer.TILE_SIZE`).
pub const TILE_SIZE: u32 = 16;

/// Font size in pixels at scale 1 for tile characters (the Java skeleton uses 14-point Monaco).
pub const FONT_SIZE: u16 = 14;

/// DejaVu Sans Mono, built into the binary: it has every [`Tileset`](super::Tileset) glyph.
pub const FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSansMono.ttf");

/// The layout of a window of `cols × rows` cells in which world tile `(x, y)` sits in cell
/// `(x + x_offset, y + y_offset)`, counted from the bottom-left, y up (Java
/// `TERenderer.initialize(w, h, xOff, yOff)`).
///
/// When the window is not exactly `cols × 16` by `rows × 16` pixels, the cells are scaled by
/// the largest factor that fits and centred ([`Geometry::fit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Window width in cells.
    pub cols: u32,
    /// Window height in cells.
    pub rows: u32,
    /// Cells left of the world's `x = 0` column (negative when the camera has scrolled the
    /// world's left part off the view).
    pub x_offset: i32,
    /// Cells below the world's `y = 0` row (the Java skeleton's `yOffset`; negative when the
    /// camera has scrolled).
    pub y_offset: i32,
}

/// Where the cells land on a screen of a given size: `scale` (pixels per cell / 16) and the
/// screen position, in pixels from the top-left, of the grid's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// Pixels per cell divided by [`TILE_SIZE`].
    pub scale: f32,
    /// Left edge of the cell grid, pixels from the screen's left.
    pub left: f32,
    /// Top edge of the cell grid, pixels from the screen's top.
    pub top: f32,
}

impl Geometry {
    /// Java `initialize(width, height)`: `width × height` cells, no offset.
    pub fn new(cols: u32, rows: u32) -> Self {
        Geometry::with_offset(cols, rows, 0, 0)
    }

    /// Java `initialize(width, height, xOffset, yOffset)`.
    pub fn with_offset(cols: u32, rows: u32, x_offset: i32, y_offset: i32) -> Self {
        Geometry {
            cols,
            rows,
            x_offset,
            y_offset,
        }
    }

    /// The window size this layout wants at scale 1: `(cols × 16, rows × 16)` pixels.
    pub fn window_size(&self) -> (u32, u32) {
        (self.cols * TILE_SIZE, self.rows * TILE_SIZE)
    }

    /// The scale and placement of the grid on a screen of `screen_w × screen_h` pixels.
    pub fn fit(&self, screen_w: f32, screen_h: f32) -> Fit {
        let (w, h) = self.window_size();
        let scale = (screen_w / w as f32).min(screen_h / h as f32);
        let scale = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        Fit {
            scale,
            left: ((screen_w - w as f32 * scale) / 2.0).max(0.0),
            top: ((screen_h - h as f32 * scale) / 2.0).max(0.0),
        }
    }

    /// The placement of the grid at a given `scale` (pixels per cell / 16), centred on a
    /// screen of `screen_w × screen_h` pixels (the camera's layout: the cell count follows
    /// the screen, the scale follows the zoom).
    pub fn fit_at(&self, scale: f32, screen_w: f32, screen_h: f32) -> Fit {
        let (w, h) = self.window_size();
        Fit {
            scale,
            left: ((screen_w - w as f32 * scale) / 2.0).max(0.0),
            top: ((screen_h - h as f32 * scale) / 2.0).max(0.0),
        }
    }

    /// The top-left screen pixel and side (pixels) of cell `(cx, cy)` (cells counted from the
    /// bottom-left, y up).
    pub fn cell_rect(&self, fit: Fit, cx: i32, cy: i32) -> (f32, f32, f32) {
        let side = TILE_SIZE as f32 * fit.scale;
        let x = fit.left + cx as f32 * side;
        let y = fit.top + (self.rows as i32 - 1 - cy) as f32 * side;
        (x, y, side)
    }

    /// The cell `(cx, cy)` (from the bottom-left) under screen pixel `(px, py)` (from the
    /// top-left), or `None` outside the grid.
    pub fn cell_at(&self, fit: Fit, px: f32, py: f32) -> Option<(i32, i32)> {
        let side = TILE_SIZE as f32 * fit.scale;
        let cx = ((px - fit.left) / side).floor();
        let row_from_top = ((py - fit.top) / side).floor();
        if !(cx >= 0.0 && row_from_top >= 0.0) {
            return None;
        }
        let (cx, row_from_top) = (cx as i64, row_from_top as i64);
        if cx >= i64::from(self.cols) || row_from_top >= i64::from(self.rows) {
            return None;
        }
        Some((cx as i32, self.rows as i32 - 1 - row_from_top as i32))
    }

    /// The world tile under screen pixel `(px, py)`, or `None` when the pointer is outside
    /// the world's `world_w × world_h` tiles (over the HUD, say, or outside the window).
    pub fn tile_at(
        &self,
        fit: Fit,
        px: f32,
        py: f32,
        world_w: usize,
        world_h: usize,
    ) -> Option<Pos> {
        let (cx, cy) = self.cell_at(fit, px, py)?;
        let pos = Pos::new(cx - self.x_offset, cy - self.y_offset);
        (pos.x >= 0 && pos.y >= 0 && (pos.x as usize) < world_w && (pos.y as usize) < world_h)
            .then_some(pos)
    }
}
