//! The layout of tile cells on a screen (the arithmetic half of Java's `TERenderer`): 16 × 16
//! pixels a tile, the bottom-left cell at the window's bottom-left, scaled to fit.
//!
//! [`Geometry`] is plain arithmetic: the window's HUD mouse look-up, the tests and the PNG
//! export (`byog-raster`) share it, and it builds without a window. Only `TERenderer` (the
//! window, `byog-window`) touches macroquad.

use super::geometry::Pos;

/// Side of one tile cell in pixels at scale 1 (Java `TERenderer.TILE_SIZE`).
pub const TILE_SIZE: u32 = 16;

/// Font size in pixels at scale 1 for tile characters (the Java skeleton uses 14-point Monaco).
pub const FONT_SIZE: u16 = 14;

/// DejaVu Sans Mono, built into the binary: it has every [`Tileset`](super::Tileset) glyph.
pub const FONT_BYTES: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");

/// A window's two grids of cells ([`ScreenLayout::new`]): the HUD's and the text screens'
/// (`ui`), and the world's view below the HUD.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScreenLayout {
    /// The HUD's and text screens' cells (their rows from the bottom; the HUD is the top
    /// rows), as many as the screen holds, centred.
    pub ui: Geometry,
    /// Where `ui`'s cells land.
    pub ui_fit: Fit,
    /// The world view's width in cells.
    pub view_cols: u32,
    /// The world view's height in cells.
    pub view_rows: u32,
    /// Where the view's cells land: its top-left corner in pixels and its scale.
    pub view_fit: Fit,
}

impl ScreenLayout {
    /// The grids on a `screen_w × screen_h` pixel screen: the `ui` grid has as many cells
    /// of `ui_scale` × 16 pixels as the screen holds (at least `hud_rows + 1` rows), centred;
    /// the view fills the `ui` grid's rows below its top `hud_rows` with as many cells of
    /// `view_scale` × 16 pixels as they hold (at least one), centred in them. The `ui` grid
    /// does not depend on `view_scale`, so the HUD neither moves nor grows when the view
    /// zooms; at `view_scale == ui_scale` the view is exactly the `ui` grid's rows below the
    /// HUD.
    pub fn new(
        screen_w: f32,
        screen_h: f32,
        ui_scale: f32,
        hud_rows: u32,
        view_scale: f32,
    ) -> ScreenLayout {
        // A hair over the exact quotient: a window of exactly n cells is n cells.
        let count = |pixels: f32, side: f32| (pixels / side + 1e-3).floor().max(0.0) as u32;
        let ui_side = TILE_SIZE as f32 * ui_scale;
        let cols = count(screen_w, ui_side).max(1);
        let rows = count(screen_h, ui_side).max(hud_rows + 1);
        let ui = Geometry::new(cols, rows);
        let ui_fit = ui.fit_at(ui_scale, screen_w, screen_h);
        let (region_w, region_h) = (cols as f32 * ui_side, (rows - hud_rows) as f32 * ui_side);
        let (left, top) = (ui_fit.left, ui_fit.top + hud_rows as f32 * ui_side);
        let side = TILE_SIZE as f32 * view_scale;
        let (view_cols, view_rows) = if view_scale == ui_scale {
            (cols, rows - hud_rows)
        } else {
            (count(region_w, side).max(1), count(region_h, side).max(1))
        };
        let view_fit = Fit {
            scale: view_scale,
            left: left + ((region_w - view_cols as f32 * side) / 2.0).max(0.0),
            top: top + ((region_h - view_rows as f32 * side) / 2.0).max(0.0),
        };
        ScreenLayout {
            ui,
            ui_fit,
            view_cols,
            view_rows,
            view_fit,
        }
    }

    /// The world view's geometry when world tile `origin` is in its bottom-left cell.
    pub fn view(&self, origin: Pos) -> Geometry {
        Geometry::with_offset(self.view_cols, self.view_rows, -origin.x, -origin.y)
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Problem 7: zooming changes the view's cells, never the HUD's grid or its place.
    #[test]
    fn the_ui_grid_never_follows_the_zoom() {
        let at16 = ScreenLayout::new(700.0, 512.0, 1.0, 2, 1.0);
        // 43 cells of 16 pixels in 700, centred: 6 pixels each side.
        assert_eq!(at16.ui, Geometry::new(43, 32));
        assert_eq!((at16.ui_fit.left, at16.ui_fit.top), (6.0, 0.0));
        assert_eq!((at16.view_cols, at16.view_rows), (43, 30));
        assert_eq!((at16.view_fit.left, at16.view_fit.top), (6.0, 32.0));
        for px in [12, 20, 24, 64] {
            let zoomed = ScreenLayout::new(700.0, 512.0, 1.0, 2, px as f32 / 16.0);
            assert_eq!((zoomed.ui, zoomed.ui_fit), (at16.ui, at16.ui_fit), "{px}");
            // The view stays below the HUD and inside the ui grid.
            let f = zoomed.view_fit;
            assert!(f.top >= 32.0 && f.left >= 6.0, "{px}: {f:?}");
            assert!(
                f.left + zoomed.view_cols as f32 * px as f32 <= 694.0,
                "{px}"
            );
            assert!(f.top + zoomed.view_rows as f32 * px as f32 <= 512.0, "{px}");
        }
        // A world shown whole at twice the size: the HUD scales with the window, as the
        // world does.
        let big = ScreenLayout::new(2560.0, 1024.0, 2.0, 2, 2.0);
        assert_eq!(big.ui, Geometry::new(80, 32));
        assert_eq!((big.view_fit.top, big.view_rows), (64.0, 30));
    }
}
