//! The terminal's picture: a grid of character cells (a character, its text and background
//! colours, its weight), and a painter that writes only the cells that differ from the frame
//! it wrote last, with cursor moves between them, so a step in an 80 × 30 world writes a few
//! hundred bytes instead of the whole screen. Colours go out in true colour, as the nearest
//! of xterm's 256 colours, or not at all (`NO_COLOR`, `--color never`).
//!
//! The painter writes its colour escapes itself (`ESC [ 38 ; 2 ; r ; g ; b m`, `ESC [ 38 ; 5 ; n
//! m`) rather than through crossterm's colour commands, which write nothing (an SGR reset,
//! even, that also ends bold and faint) whenever `NO_COLOR` is set: the colour mode chosen
//! here (`--color always` wins over `NO_COLOR`) is the one written.
//!
//! A cell is one terminal column wide: every tile of the Tileset is a one-column character,
//! and [`CellGrid::text`] puts a `?` in place of a character of any other width, so text never
//! shifts the cells after it.

use std::io::{self, Write};

use crossterm::cursor::MoveTo;
use crossterm::queue;
use crossterm::style::{Attribute, Print, SetAttribute};
use crossterm::terminal::{Clear, ClearType};
use unicode_width::UnicodeWidthChar;

use byog_tile_engine::Rgb;

/// Black: the background of the world and of text screens.
pub const BLACK: Rgb = Rgb::new(0, 0, 0);

/// How colours are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorMode {
    /// No colour at all: the terminal's own colours, weights only (`NO_COLOR`, `--color
    /// never`).
    Plain,
    /// The nearest of xterm's 256 colours (`ansi256`).
    Indexed,
    /// 24-bit colour, as the Tileset gives it.
    True,
}

impl ColorMode {
    /// The mode for a terminal: `Plain` when colour is off, `True` when `COLORTERM` says
    /// `truecolor` or `24bit` (the convention terminals follow), else `Indexed`.
    pub fn detect(colour: bool, colorterm: Option<&str>) -> ColorMode {
        match colorterm {
            _ if !colour => ColorMode::Plain,
            Some(v) if v.eq_ignore_ascii_case("truecolor") || v.eq_ignore_ascii_case("24bit") => {
                ColorMode::True
            }
            _ => ColorMode::Indexed,
        }
    }

    /// Whether colours are written at all.
    pub fn has_colour(self) -> bool {
        self != ColorMode::Plain
    }

    /// Writes the SGR sequence that sets the text (`layer` 38) or background (`layer` 48)
    /// colour to `rgb` in this mode; nothing in [`ColorMode::Plain`].
    fn write_color(self, out: &mut impl Write, layer: u8, rgb: Rgb) -> io::Result<()> {
        match self {
            ColorMode::True => write!(out, "\x1b[{layer};2;{};{};{}m", rgb.r, rgb.g, rgb.b),
            ColorMode::Indexed => write!(out, "\x1b[{layer};5;{}m", ansi256(rgb)),
            ColorMode::Plain => Ok(()),
        }
    }
}

/// The nearest xterm 256-colour index to `rgb`: the nearer (in squared RGB distance) of the
/// 6 × 6 × 6 colour cube (indices 16..=231, levels 0, 95, 135, 175, 215, 255) and the grey
/// ramp (232..=255, levels 8, 18, .., 238).
pub fn ansi256(rgb: Rgb) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let level = |v: u8| match v {
        0..48 => 0u8,
        48..115 => 1,
        _ => (v - 35) / 40,
    };
    let distance = |(r, g, b): (u8, u8, u8)| {
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
        d(r, rgb.r) + d(g, rgb.g) + d(b, rgb.b)
    };
    let (lr, lg, lb) = (level(rgb.r), level(rgb.g), level(rgb.b));
    let cube = (
        LEVELS[lr as usize],
        LEVELS[lg as usize],
        LEVELS[lb as usize],
    );
    let mean = (u32::from(rgb.r) + u32::from(rgb.g) + u32::from(rgb.b)) / 3;
    let grey_index = (mean.saturating_sub(3) / 10).min(23) as u8;
    let grey = 8 + 10 * grey_index;
    if distance((grey, grey, grey)) < distance(cube) {
        232 + grey_index
    } else {
        16 + 36 * lr + 6 * lg + lb
    }
}

/// A cell's weight: the terminal's bold and faint attributes. Without colour, faint is how
/// remembered tiles and greyed text look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    /// Neither.
    Normal,
    /// Bold.
    Bold,
    /// Faint.
    Faint,
}

/// One character cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// The character (one column wide).
    pub ch: char,
    /// Its colour (not written in [`ColorMode::Plain`]).
    pub fg: Rgb,
    /// The cell's background (not written in [`ColorMode::Plain`]).
    pub bg: Rgb,
    /// Bold, faint or neither.
    pub weight: Weight,
}

impl Cell {
    /// A blank cell on `bg`.
    pub const fn blank(bg: Rgb) -> Cell {
        Cell {
            ch: ' ',
            fg: bg,
            bg,
            weight: Weight::Normal,
        }
    }
}

/// A screen of `cols × rows` cells, row 0 at the top (terminal order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellGrid {
    cols: u16,
    rows: u16,
    cells: Vec<Cell>,
}

impl CellGrid {
    /// A `cols × rows` grid of blank black cells.
    pub fn new(cols: u16, rows: u16) -> CellGrid {
        CellGrid {
            cols,
            rows,
            cells: vec![Cell::blank(BLACK); usize::from(cols) * usize::from(rows)],
        }
    }

    /// Width in cells.
    pub fn cols(&self) -> u16 {
        self.cols
    }

    /// Height in cells.
    pub fn rows(&self) -> u16 {
        self.rows
    }

    /// The cell at column `x`, row `y` (from the top), if on the grid.
    pub fn get(&self, x: u16, y: u16) -> Option<Cell> {
        (x < self.cols && y < self.rows)
            .then(|| self.cells[usize::from(y) * usize::from(self.cols) + usize::from(x)])
    }

    /// Sets the cell at column `x`, row `y` (from the top); off the grid does nothing.
    pub fn set(&mut self, x: u16, y: u16, cell: Cell) {
        if x < self.cols && y < self.rows {
            self.cells[usize::from(y) * usize::from(self.cols) + usize::from(x)] = cell;
        }
    }

    /// Fills row `y` with blank cells on `bg`.
    pub fn fill_row(&mut self, y: u16, bg: Rgb) {
        for x in 0..self.cols {
            self.set(x, y, Cell::blank(bg));
        }
    }

    /// Writes `text` from column `x` of row `y` in `fg` on `bg`, clipped at the right edge; a
    /// character that is not one column wide is written as `?`.
    pub fn text(&mut self, x: u16, y: u16, text: &str, fg: Rgb, bg: Rgb, weight: Weight) {
        for (k, ch) in text.chars().enumerate() {
            let Some(cx) = u16::try_from(k).ok().and_then(|k| x.checked_add(k)) else {
                break;
            };
            let ch = if ch.width() == Some(1) { ch } else { '?' };
            self.set(cx, y, Cell { ch, fg, bg, weight });
        }
    }

    /// The rows as text, top first (for tests).
    #[cfg(test)]
    pub fn lines(&self) -> Vec<String> {
        self.cells
            .chunks(usize::from(self.cols.max(1)))
            .map(|row| row.iter().map(|c| c.ch).collect())
            .collect()
    }
}

/// The pen: the colours and weight the terminal writes with now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pen {
    fg: Rgb,
    bg: Rgb,
    weight: Weight,
}

/// Writes grids to the terminal, each as the difference from the one written before.
#[derive(Debug)]
pub struct Painter {
    mode: ColorMode,
    /// What the terminal shows now; `None` before the first frame and after [`Painter::reset`].
    shown: Option<CellGrid>,
    /// The terminal's pen, when known.
    pen: Option<Pen>,
}

impl Painter {
    /// A painter that writes colours in `mode`.
    pub fn new(mode: ColorMode) -> Painter {
        Painter {
            mode,
            shown: None,
            pen: None,
        }
    }

    /// Forgets what the terminal shows: the next frame clears the screen and writes every
    /// cell (after a resize, when the terminal's content is unknown).
    pub fn reset(&mut self) {
        self.shown = None;
        self.pen = None;
    }

    /// Appends to `out` the bytes that turn the screen last painted into `frame`: cursor
    /// moves, attribute and colour changes only where they change, and the characters of the
    /// cells that differ. The first frame (or one of another size) clears the screen first.
    ///
    /// # Errors
    /// Only those of writing to `out`.
    pub fn paint(&mut self, frame: CellGrid, out: &mut impl Write) -> io::Result<()> {
        let previous = self
            .shown
            .take()
            .filter(|p| p.cols == frame.cols && p.rows == frame.rows);
        if previous.is_none() {
            queue!(out, SetAttribute(Attribute::Reset), Clear(ClearType::All))?;
            self.pen = None;
        }
        // Where the cursor is, when known: after a character it stands on the next column.
        let mut cursor: Option<(u16, u16)> = None;
        for y in 0..frame.rows {
            for x in 0..frame.cols {
                let Some(cell) = frame.get(x, y) else {
                    continue;
                };
                if previous.as_ref().and_then(|p| p.get(x, y)) == Some(cell) {
                    continue;
                }
                if cursor != Some((x, y)) {
                    queue!(out, MoveTo(x, y))?;
                }
                self.set_pen(cell, out)?;
                queue!(out, Print(cell.ch))?;
                cursor = Some((x + 1, y));
            }
        }
        self.shown = Some(frame);
        Ok(())
    }

    /// Changes the terminal's pen to `cell`'s, writing only what differs.
    fn set_pen(&mut self, cell: Cell, out: &mut impl Write) -> io::Result<()> {
        let want = Pen {
            fg: cell.fg,
            bg: cell.bg,
            weight: cell.weight,
        };
        let old = self.pen;
        if old.map(|p| p.weight) != Some(want.weight) {
            // Normal intensity ends both bold and faint.
            queue!(out, SetAttribute(Attribute::NormalIntensity))?;
            match want.weight {
                Weight::Normal => {}
                Weight::Bold => queue!(out, SetAttribute(Attribute::Bold))?,
                Weight::Faint => queue!(out, SetAttribute(Attribute::Dim))?,
            }
        }
        if old.map(|p| p.fg) != Some(want.fg) {
            self.mode.write_color(out, 38, want.fg)?;
        }
        if old.map(|p| p.bg) != Some(want.bg) {
            self.mode.write_color(out, 48, want.bg)?;
        }
        self.pen = Some(want);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_modes_follow_the_switch_and_colorterm() {
        assert_eq!(
            ColorMode::detect(false, Some("truecolor")),
            ColorMode::Plain
        );
        assert_eq!(ColorMode::detect(true, Some("truecolor")), ColorMode::True);
        assert_eq!(ColorMode::detect(true, Some("24bit")), ColorMode::True);
        assert_eq!(ColorMode::detect(true, None), ColorMode::Indexed);
        assert_eq!(ColorMode::detect(true, Some("yes")), ColorMode::Indexed);
    }

    #[test]
    fn the_256_colour_fallback_picks_the_nearest() {
        assert_eq!(ansi256(Rgb::new(0, 0, 0)), 16);
        assert_eq!(ansi256(Rgb::new(255, 255, 255)), 231);
        assert_eq!(ansi256(Rgb::new(255, 0, 0)), 196);
        assert_eq!(ansi256(Rgb::new(0, 0, 255)), 21);
        // Greys go to the ramp: the Java wall's background (64, 64, 64) is 238 (68).
        assert_eq!(ansi256(Rgb::new(64, 64, 64)), 238);
        assert_eq!(ansi256(Rgb::new(128, 128, 128)), 244);
        // The Tileset's floor (128, 192, 128): cube (135, 175, 135) = 16 + 36·2 + 6·3 + 2.
        assert_eq!(ansi256(Rgb::new(128, 192, 128)), 108);
    }

    fn painted(painter: &mut Painter, grid: &CellGrid) -> String {
        let mut out = Vec::new();
        painter.paint(grid.clone(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_second_frame_writes_only_what_changed() {
        let mut painter = Painter::new(ColorMode::True);
        let mut grid = CellGrid::new(80, 30);
        for y in 0..30 {
            grid.text(
                0,
                y,
                &"·".repeat(80),
                Rgb::new(128, 192, 128),
                BLACK,
                Weight::Normal,
            );
        }
        let first = painted(&mut painter, &grid);
        assert!(first.len() > 80 * 30 * 2, "{}", first.len());
        assert_eq!(painted(&mut painter, &grid), "", "nothing changed");
        grid.text(10, 5, "@", Rgb::new(255, 255, 255), BLACK, Weight::Normal);
        grid.text(11, 5, "·", Rgb::new(128, 192, 128), BLACK, Weight::Normal);
        let step = painted(&mut painter, &grid);
        // One cursor move (row 6, column 11, 1-based), the white pen, '@'.
        assert_eq!(step, "\x1b[6;11H\x1b[38;2;255;255;255m@");
        // A painter reset repaints everything, as a new painter would.
        painter.reset();
        assert_eq!(
            painted(&mut painter, &grid),
            painted(&mut Painter::new(ColorMode::True), &grid)
        );
    }

    #[test]
    fn indexed_mode_writes_256_colour_escapes() {
        let mut painter = Painter::new(ColorMode::Indexed);
        let mut grid = CellGrid::new(1, 1);
        grid.text(0, 0, "a", Rgb::new(255, 0, 0), BLACK, Weight::Normal);
        let out = painted(&mut painter, &grid);
        assert!(out.ends_with("\x1b[38;5;196m\x1b[48;5;16ma"), "{out:?}");
    }

    #[test]
    fn plain_mode_writes_no_colour() {
        let mut painter = Painter::new(ColorMode::Plain);
        let mut grid = CellGrid::new(4, 1);
        grid.text(0, 0, "ab", Rgb::new(1, 2, 3), BLACK, Weight::Faint);
        let out = painted(&mut painter, &grid);
        assert!(!out.contains("38;"), "{out:?}");
        assert!(out.contains("\x1b[2m"), "faint: {out:?}");
    }

    #[test]
    fn wide_characters_never_shift_the_grid() {
        let mut grid = CellGrid::new(6, 1);
        grid.text(0, 0, "aあb", BLACK, BLACK, Weight::Normal);
        assert_eq!(grid.lines(), vec!["a?b   ".to_owned()]);
    }
}
