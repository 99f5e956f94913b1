//! The window's painter, without a window: a [`Frame`] the shell decided, laid out as the
//! window draws it ([`Painted`]): the view's cells (a background, then a glyph or a box
//! wall's strokes, in the frame's colours), the minimap, and the text of the HUD or of a
//! text screen in rows of the HUD's grid. `lib.rs` turns these into macroquad calls; the
//! tests read them to check that the window and the terminal paint the same frame alike.
//!
//! Nothing here decides a colour, a glyph or a word: the frame has them. What is decided
//! here is pixel layout only: text sizes by style, centring, wrapping to the window's width.

use byog_shell::frame::{Frame, Light};
use byog_shell::screens::{self, Hud, Screen, Style, TextScreen};
use byog_tile_engine::Rgb;

/// How wide text is on the HUD's grid, in cells: the window measures its font; the tests use
/// a fixed advance.
pub trait Measure {
    /// The width of `text` at `scale` × the tile font, in cells of the HUD's grid.
    fn width_cells(&self, text: &str, scale: f32) -> f32;
}

/// What a view cell shows on top of its background.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Nothing (a blank glyph).
    Nothing,
    /// A character, centred.
    Glyph(char),
    /// A box wall's strokes (`autotile::strokes`) of these joins.
    Wall(u8),
}

/// One view cell as the window draws it: `(col, row)` from the view's top-left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellDraw {
    /// Column from the view's left.
    pub col: u32,
    /// Row from the view's top.
    pub row: u32,
    /// The cell's background.
    pub bg: Rgb,
    /// What is drawn on it.
    pub mark: Mark,
    /// The mark's colour.
    pub fg: Rgb,
}

/// A piece of text on the HUD's grid: `text` from `x` cells from the left, vertically
/// centred in `row` (rows from the bottom), `scale` × the tile font, in `color`.
#[derive(Debug, Clone, PartialEq)]
pub struct TextDraw {
    /// The characters.
    pub text: String,
    /// Cells from the grid's left edge to the text's left edge.
    pub x: f32,
    /// The row, from the bottom.
    pub row: i32,
    /// Its colour.
    pub color: Rgb,
    /// × the tile font.
    pub scale: f32,
    /// A background filled behind the text (a legend's glyph as the game draws it).
    pub bg: Option<Rgb>,
}

/// A frame laid out for the window.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Painted {
    /// The view's drawn cells (cells not drawn stay black).
    pub cells: Vec<CellDraw>,
    /// Rows of the HUD's grid filled with the HUD's background, from the bottom.
    pub hud_rows: Vec<i32>,
    /// The text, in drawing order.
    pub texts: Vec<TextDraw>,
}

/// `frame` laid out for a HUD grid of `cols × rows` cells (`measure` gives text widths).
pub fn paint(frame: &Frame, cols: u32, rows: u32, measure: &dyn Measure) -> Painted {
    let mut out = Painted::default();
    match &frame.screen {
        Screen::Text(text) => text_screen(&mut out, text, cols, rows, measure),
        Screen::Game(hud) => {
            if let Some(view) = &frame.view {
                for (k, c) in view.cells.iter().enumerate() {
                    if c.light == Light::Unseen && !c.route {
                        continue;
                    }
                    let mark = match c.box_wall() {
                        Some(m) => Mark::Wall(m),
                        None if c.glyph == ' ' => Mark::Nothing,
                        None => Mark::Glyph(c.glyph),
                    };
                    out.cells.push(CellDraw {
                        col: k as u32 % view.cols,
                        row: k as u32 / view.cols,
                        bg: c.bg,
                        mark,
                        fg: c.fg,
                    });
                }
            }
            hud_rows(&mut out, hud, cols, rows, measure);
        }
    }
    out
}

/// Scale (× the tile font) and height in rows of a style on a text screen.
pub fn appearance(style: Style) -> (f32, i32) {
    match style {
        Style::Title => (2.5, 3),
        Style::Heading => (2.0, 3),
        Style::Normal | Style::Dim => (1.5, 2),
        Style::Input => (2.0, 2),
        Style::Hint | Style::Message => (1.0, 2),
    }
}

/// A run of characters whose width gives the font's advance (the font is monospaced).
const CHARS_MEASURED: &str = "0000000000";

/// How many characters of `scale` × the tile font fit in `cols` cells less one.
fn chars_in(cols: u32, scale: f32, measure: &dyn Measure) -> usize {
    let advance = measure.width_cells(CHARS_MEASURED, scale) / CHARS_MEASURED.len() as f32;
    ((cols as f32 - 1.0) / advance.max(1e-3)).floor().max(1.0) as usize
}

/// `text` centred on `row` of a grid `cols` wide.
fn centred(text: &str, row: i32, color: Rgb, scale: f32, cols: u32, m: &dyn Measure) -> TextDraw {
    let x = (cols as f32 - m.width_cells(text, scale)) / 2.0;
    TextDraw {
        text: text.to_owned(),
        x,
        row,
        color,
        scale,
        bg: None,
    }
}

/// Centred lines from three quarters of the way up, the message near the bottom; a line
/// wider than the window wraps.
fn text_screen(out: &mut Painted, text: &TextScreen, cols: u32, rows: u32, m: &dyn Measure) {
    let mut row = rows as i32 * 3 / 4;
    for line in &text.lines {
        let (scale, height) = appearance(line.style);
        if !line.text.is_empty() {
            let parts = screens::wrap(&line.plain(), chars_in(cols, scale, m));
            for (k, part) in parts.iter().enumerate() {
                if k > 0 {
                    row -= scale.ceil() as i32;
                }
                let mut text = centred(part, row, line.style.color(), scale, cols, m);
                // A legend's glyph, as the game draws it, where its line begins.
                if let (0, Some(g)) = (k, line.glyph) {
                    let glyph = g.ch.to_string();
                    let rest: String = part.chars().skip(1).collect();
                    out.texts.push(TextDraw {
                        text: glyph.clone(),
                        color: g.fg,
                        bg: Some(g.bg),
                        ..text.clone()
                    });
                    text.x += m.width_cells(&glyph, scale);
                    text.text = rest;
                }
                out.texts.push(text);
            }
        }
        row -= height;
    }
    if let Some(msg) = &text.message {
        let parts = screens::wrap(&msg.text, chars_in(cols, 1.0, m));
        let first = 2.max(parts.len() as i32 - 1);
        for (k, part) in (0..).zip(&parts) {
            out.texts
                .push(centred(part, first - k, msg.style.color(), 1.0, cols, m));
        }
    }
}

/// The HUD on the top rows of the grid, laid out by [`screens::hud_lines`] in the
/// characters a row holds between half-cell margins: left texts from the left margin, right
/// texts ending at the right one; rows past the HUD's own (a long message's) are drawn over
/// the world's top.
fn hud_rows(out: &mut Painted, hud: &Hud, cols: u32, rows: u32, m: &dyn Measure) {
    let top = rows as i32 - 1;
    let chars = chars_in(cols, 1.0, m);
    for (k, row) in screens::hud_lines(hud, chars).iter().enumerate() {
        let y = top - k as i32;
        if y < 0 {
            break;
        }
        out.hud_rows.push(y);
        out.texts.push(TextDraw {
            text: row.left.clone(),
            x: 0.5,
            row: y,
            color: row.left_style.color(),
            scale: 1.0,
            bg: None,
        });
        out.texts.push(TextDraw {
            text: row.right.clone(),
            x: cols as f32 - 0.5 - m.width_cells(&row.right, 1.0),
            row: y,
            color: Style::Hint.color(),
            scale: 1.0,
            bg: None,
        });
    }
}
