//! The terminal's painter: a [`Frame`] the shell decided, laid out in character cells: a
//! text screen (menu, seed prompt, end screens, help, the log, questions, the busy screen)
//! as centred lines, or the HUD's [`HUD_ROWS`] rows at the top and the frame's view below
//! them, one tile a cell, with the minimap at the view's top-right. Every word, glyph and
//! colour comes from the frame; the only words of the terminal's own are those of
//! [`too_small`].
//!
//! The world view is the terminal less the HUD's rows: `cols × (rows - HUD_ROWS)` cells;
//! view cell `(col, row)` (from the view's top-left) is terminal column `col`, row
//! `row + HUD_ROWS`.

use byog_shell::frame::{
    Cell as FrameCell, Corner, Frame, FrameRequest, Light, MinimapFrame, View,
};
use byog_shell::screens::{self, HUD_ROWS, Hud, Screen, Style, TextScreen};
use byog_tile_engine::Rgb;
use byog_tile_engine::minimap;

use super::draw::{BLACK, Cell, CellGrid, Weight};

/// The smallest terminal, in cells, that shows every screen: the window's smallest size
/// ([`screens::MIN_COLS`] × [`screens::MIN_ROWS`]); lines wider than the terminal wrap.
pub const MIN_SIZE: (u16, u16) = (screens::MIN_COLS as u16, screens::MIN_ROWS as u16);

// The window's text colours (`window.rs`).

/// The world's part of a `cols × rows` terminal: `cols × (rows - HUD_ROWS)` cells.
pub fn world_view(cols: u16, rows: u16) -> (u32, u32) {
    (
        u32::from(cols),
        u32::from(rows).saturating_sub(HUD_ROWS as u32),
    )
}

/// How a style looks: colour and weight (without colour, greyed text is faint).
fn appearance(style: Style, colour: bool) -> (Rgb, Weight) {
    let grey = if colour {
        Weight::Normal
    } else {
        Weight::Faint
    };
    let weight = match style {
        Style::Title | Style::Heading | Style::Input => Weight::Bold,
        Style::Normal | Style::Message => Weight::Normal,
        Style::Dim | Style::Hint => grey,
    };
    (style.color(), weight)
}

/// Writes `text` centred on row `y`, wrapped onto the rows below when wider than the grid;
/// returns the row after it.
fn centred(grid: &mut CellGrid, y: u16, text: &str, style: Style, colour: bool) -> u16 {
    let (fg, weight) = appearance(style, colour);
    let mut y = y;
    for line in screens::wrap(text, usize::from(grid.cols())) {
        let len = line.chars().count() as u16;
        grid.text(
            grid.cols().saturating_sub(len) / 2,
            y,
            &line,
            fg,
            BLACK,
            weight,
        );
        y = y.saturating_add(1);
    }
    y
}

/// A text screen: its lines centred from a quarter of the way down (as the window, from
/// three quarters up), its message three rows from the bottom.
pub fn text_screen(grid: &mut CellGrid, text: &TextScreen, colour: bool) {
    let mut y = grid.rows() / 4;
    for line in &text.lines {
        let top = y;
        y = centred(grid, y, &line.plain(), line.style, colour);
        // A legend's glyph, as the game draws it, where its line begins.
        if let Some(g) = line.glyph {
            let width = line.plain().chars().count().min(usize::from(grid.cols())) as u16;
            let x = grid.cols().saturating_sub(width) / 2;
            grid.set(
                x,
                top,
                Cell {
                    ch: g.ch,
                    fg: g.fg,
                    bg: if colour { g.bg } else { BLACK },
                    weight: Weight::Normal,
                },
            );
        }
    }
    if let Some(m) = &text.message {
        let y = grid.rows().saturating_sub(3).max(y);
        centred(grid, y, &m.text, m.style, colour);
    }
}

/// The one screen in the terminal's own words: the terminal is smaller than `need`.
pub fn too_small(grid: &mut CellGrid, need: (u16, u16), colour: bool) {
    // Three short lines, each centred, rather than one that wraps wherever it must.
    let lines = [
        "terminal too small".to_owned(),
        format!("needs {} × {}", need.0, need.1),
        format!("now {} × {}", grid.cols(), grid.rows()),
    ];
    let mut y = (grid.rows() / 2).saturating_sub(1);
    for line in &lines {
        y = centred(grid, y, line, Style::Message, colour);
    }
}

/// The HUD's rows at the top of the grid, laid out by [`screens::hud_lines`] in the columns
/// between a one-column margin on each side: each row's left text from column 1, its right
/// text ending one column before the edge, on the HUD's background. A message too long to
/// share its row takes whole rows, wrapped, and the rows past the HUD's own are drawn over
/// the top of the world.
pub fn hud(grid: &mut CellGrid, hud: &Hud, colour: bool) {
    let cols = usize::from(grid.cols());
    for (y, row) in (0u16..).zip(screens::hud_lines(hud, cols.saturating_sub(2))) {
        grid.fill_row(y, screens::HUD_BACKGROUND);
        let right_x = cols.saturating_sub(row.right.chars().count() + 1);
        let (left_fg, left_weight) = appearance(row.left_style, colour);
        grid.text(
            1,
            y,
            &row.left,
            left_fg,
            screens::HUD_BACKGROUND,
            left_weight,
        );
        let (grey, weight) = appearance(Style::Hint, colour);
        grid.text(
            right_x as u16,
            y,
            &row.right,
            grey,
            screens::HUD_BACKGROUND,
            weight,
        );
    }
}

/// What the terminal asks of a frame at `cols × rows` cells with the mouse over terminal
/// cell `mouse` (`(column, row)` from the top-left): a view of the terminal less the HUD's
/// rows, a minimap of a quarter of its width and a third of its height (two pixels a cell),
/// and the view cell under the mouse.
pub fn request(cols: u16, rows: u16, mouse: Option<(u16, u16)>) -> FrameRequest {
    let (view_cols, view_rows) = world_view(cols, rows);
    FrameRequest {
        view_cols,
        view_rows,
        minimap: Some(((view_cols / 4).max(4), (view_rows / 3).max(2) * 2)),
        pointer: mouse.and_then(|(c, r)| view_cell(c, r)),
    }
}

/// The view cell `(col, row)` (from the view's top-left) under terminal cell `(col, row)`
/// (from the terminal's top-left); `None` on the HUD.
pub fn view_cell(col: u16, row: u16) -> Option<(u32, u32)> {
    let row = u32::from(row).checked_sub(HUD_ROWS as u32)?;
    Some((u32::from(col), row))
}

/// Paints `frame` on `grid` (with colours, or without: greyed text and remembered tiles
/// faint, a route's tiles as `*`).
pub fn paint(grid: &mut CellGrid, frame: &Frame, colour: bool) {
    match &frame.screen {
        Screen::Text(text) => text_screen(grid, text, colour),
        Screen::Game(h) => {
            if let Some(view) = &frame.view {
                world(grid, view, colour);
                if let Some(m) = &frame.minimap {
                    minimap_cells(grid, m, (view.cols, view.rows), colour);
                }
            }
            hud(grid, h, colour);
        }
    }
}

/// The character cell of a view cell: its glyph and colours; without colour, a remembered
/// tile is faint and a route's tile a `*`.
pub fn cell_of(c: &FrameCell, colour: bool) -> Cell {
    let mut cell = Cell {
        ch: c.glyph,
        fg: c.fg,
        bg: c.bg,
        weight: Weight::Normal,
    };
    if !colour {
        if c.light == Light::Remembered {
            cell.weight = Weight::Faint;
        }
        if c.route {
            cell.ch = '*';
        }
    }
    cell
}

/// The view's cells in the grid's rows below the HUD (cells not drawn stay blank).
fn world(grid: &mut CellGrid, view: &View, colour: bool) {
    for (k, c) in view.cells.iter().enumerate() {
        if c.light == Light::Unseen && !c.route {
            continue;
        }
        let (col, row) = (k as u32 % view.cols, k as u32 / view.cols);
        if let (Ok(x), Ok(y)) = (u16::try_from(col), u16::try_from(row + HUD_ROWS as u32)) {
            grid.set(x, y, cell_of(c, colour));
        }
    }
}

/// The minimap (`M`, docs/terminal.md) in half-block cells (`▀`, two minimap pixels a cell,
/// top in the character's colour, bottom in its background) in the corner of the view the
/// frame says (the first that covers no tile seen: `byog_shell::frame::minimap_corner`), with
/// the avatar and the exit once seen. Without colour
/// the avatar is `●` (the world's `@` stays the only one) and what is known `▒`.
fn minimap_cells(
    grid: &mut CellGrid,
    m: &MinimapFrame,
    (view_cols, view_rows): (u32, u32),
    colour: bool,
) {
    let (w, h) = (m.width, m.height.div_ceil(2));
    let left = match m.corner {
        Corner::TopRight | Corner::BottomRight => view_cols.saturating_sub(w) as u16,
        Corner::TopLeft | Corner::BottomLeft => 0,
    };
    let top = match m.corner {
        Corner::TopRight | Corner::TopLeft => HUD_ROWS as u16,
        Corner::BottomRight | Corner::BottomLeft => {
            (HUD_ROWS as u32 + view_rows.saturating_sub(h)) as u16
        }
    };
    let px = |x: u32, y: u32| -> Rgb {
        if y >= m.height {
            return BLACK;
        }
        let i = ((y * m.width + x) * 4) as usize;
        match m.rgba.get(i..i + 4) {
            Some([r, g, b, a]) if *a != 0 => Rgb::new(*r, *g, *b),
            _ => BLACK,
        }
    };
    for cy in 0..h {
        for cx in 0..w {
            let (mut top_px, mut bottom_px) = (px(cx, 2 * cy), px(cx, 2 * cy + 1));
            for (at, c) in [(m.exit, minimap::EXIT), (m.avatar, minimap::AVATAR)] {
                if let Some((x, y)) = at
                    && x == cx
                {
                    if y == 2 * cy {
                        top_px = c;
                    } else if y == 2 * cy + 1 {
                        bottom_px = c;
                    }
                }
            }
            let cell = if colour {
                Cell {
                    ch: if top_px == BLACK && bottom_px == BLACK {
                        ' '
                    } else {
                        '▀'
                    },
                    fg: top_px,
                    bg: bottom_px,
                    weight: Weight::Normal,
                }
            } else {
                let lit = |c: Rgb| c != BLACK;
                let ch = if m.avatar.is_some_and(|(x, y)| x == cx && y / 2 == cy) {
                    '●'
                } else if lit(top_px) || lit(bottom_px) {
                    '▒'
                } else {
                    ' '
                };
                Cell {
                    ch,
                    fg: Rgb::new(255, 255, 255),
                    bg: BLACK,
                    weight: Weight::Normal,
                }
            };
            grid.set(left + cx as u16, top + cy as u16, cell);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use byog_shell::frame::{Look, view_of};
    use byog_shell::{FrontEnd, GameOptions, Saves, Shell, ShellOptions};
    use byog_tile_engine::{Camera, WallStyle};

    /// A session after `keys` (typed at once, as a replay), new worlds `width × height`, no
    /// saves: the games these tests paint are the shell's, as in play.
    fn session(width: usize, height: usize, keys: &str) -> Shell {
        let options = ShellOptions {
            game: GameOptions {
                width,
                height,
                floors: 3,
                ..GameOptions::default()
            },
            saves: Saves::None,
            walls: None,
            watch: false,
            front_end: FrontEnd::Terminal,
            seed_label: None,
        };
        Shell::replayed(options, keys).unwrap()
    }

    #[test]
    fn a_world_that_fits_is_drawn_below_the_hud_as_replay_prints_it() {
        let shell = session(80, 30, "N1234S");
        let game = shell.shown_game().unwrap();
        assert_eq!(game.seed(), 1234);
        let (cols, rows) = world_view(100, 40);
        let camera = Camera::centred(cols, rows, 80, 30, game.avatar());
        let look = Look {
            walls: WallStyle::Java,
            sight: false,
        };
        let view = view_of(game, &camera, look, &[]);
        let mut grid = CellGrid::new(100, 40);
        world(&mut grid, &view, false);
        let lines = grid.lines();
        // 38 rows of view, 30 of world: 4 blank rows above it; 10 blank columns at its left.
        let shown: Vec<String> = lines[2 + 4..2 + 4 + 30]
            .iter()
            .map(|l| l.chars().skip(10).take(80).collect())
            .collect();
        let text = game.world().to_string();
        assert_eq!(shown, text.lines().collect::<Vec<_>>());
        // The mouse over the avatar's cell is the view cell of the avatar's tile.
        let (cx, cy) = camera.cell_of(game.avatar()).unwrap();
        let row = (camera.rows - 1 - cy + HUD_ROWS as u32) as u16;
        let (col, vrow) = view_cell(cx as u16, row).unwrap();
        assert_eq!(view.tile_at(col, vrow), game.avatar());
        assert_eq!(view_cell(cx as u16, 1), None);
    }

    /// The HUD's rows as text, runs of spaces squeezed to one.
    fn squeezed(lines: &[String]) -> String {
        lines
            .join(" ")
            .split(' ')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_hud_keeps_its_right_text_whole() {
        let mut grid = CellGrid::new(30, 24);
        let shell = session(40, 20, "N7S");
        let game = shell.shown_game().unwrap();
        let message = "a very long message that cannot fit in the row";
        let h = screens::hud(game, None, None, message);
        hud(&mut grid, &h, true);
        let lines = grid.lines();
        assert!(lines[0].trim_end().ends_with("seed 7"), "{lines:?}");
        // The message takes whole rows; the status keeps a row's right end, whole.
        assert!(lines[1].trim().starts_with("a very long"), "{lines:?}");
        assert!(
            lines[1..5]
                .iter()
                .any(|l| l.trim_end().ends_with(&h.rows[1].right)),
            "{lines:?}"
        );
        assert!(squeezed(&lines[1..5]).contains(message), "{lines:?}");
        assert!(!lines.iter().any(|l| l.contains('…')), "{lines:?}");
    }

    /// Problem 8: at 80 × 24 the message that explains what just happened is shown whole,
    /// wrapped when it does not fit beside the status, and the status stays whole too.
    #[test]
    fn a_long_message_is_never_cut_at_80_columns() {
        let mut grid = CellGrid::new(80, 24);
        let message = "locked: handle this room's chests and traps first · an armed trap \
                       springs on you! 2 health left";
        let status = "health 2/3 · score 120 · 312 moves";
        let top = "seed 42 · branch 3 · room (2, -1) depth 2";
        let h = Hud {
            rows: [
                screens::HudRow {
                    left: String::new(),
                    left_style: Style::Normal,
                    right: top.to_owned(),
                    right_short: String::new(),
                },
                screens::HudRow {
                    left: message.to_owned(),
                    left_style: Style::Message,
                    right: status.to_owned(),
                    right_short: String::new(),
                },
            ],
        };
        hud(&mut grid, &h, true);
        let lines = grid.lines();
        assert!(lines[0].trim_end().ends_with(top), "{lines:?}");
        let shown = squeezed(&lines[1..5]);
        assert!(shown.contains(message), "the message is cut: {lines:#?}");
        assert!(shown.contains(status), "the status is cut: {lines:#?}");
        // The first row of the message is on the HUD's message row.
        assert!(lines[1].trim().starts_with("locked: handle"), "{lines:?}");
        // A message that fits beside the status shares its row, as before.
        let mut grid = CellGrid::new(80, 24);
        let mut short = h.clone();
        short.rows[1].left = "blocked by a wall".to_owned();
        hud(&mut grid, &short, true);
        let lines = grid.lines();
        assert!(
            lines[1].trim().starts_with("blocked by a wall"),
            "{lines:?}"
        );
        assert!(lines[1].trim_end().ends_with(status), "{lines:?}");
        assert!(!lines[2].contains(status), "{lines:?}");
    }

    /// Issue 31, problem 17: at 48 columns an exploration's HUD keeps the room's depth (the
    /// seed gives way first), and at 40 × 20 the "too small" screen is three centred lines.
    #[test]
    fn a_narrow_terminal_keeps_the_depth_and_says_it_is_too_small_evenly() {
        let shell = session(80, 30, "E42SWWWWWWWWWWWW");
        let game = shell.shown_game().unwrap();
        let h = screens::hud(game, None, None, "");
        assert!(h.rows[0].right.chars().count() > 46, "{:?}", h.rows[0]);
        let mut grid = CellGrid::new(48, 24);
        hud(&mut grid, &h, true);
        let top = &grid.lines()[0];
        // A room's depth is floor(sqrt(x² + y²)) of its coordinates (docs/explore.md).
        let room = game.explore().unwrap().room();
        let depth = (i64::from(room.x).pow(2) + i64::from(room.y).pow(2)).isqrt();
        assert!(top.contains(&format!("depth {depth}")), "{top}");
        assert!(!top.contains('…'), "{top}");

        let mut grid = CellGrid::new(40, 20);
        too_small(&mut grid, MIN_SIZE, false);
        let lines: Vec<String> = grid
            .lines()
            .into_iter()
            .filter(|l| !l.trim().is_empty())
            .collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        for l in &lines {
            let left = l.len() - l.trim_start().len();
            let right = l.chars().count() - l.trim_end().chars().count();
            assert!(left.abs_diff(right) <= 1, "not centred: {l:?}");
        }
        let words: Vec<&str> = lines.iter().flat_map(|l| l.split_whitespace()).collect();
        assert_eq!(
            words.join(" "),
            "terminal too small needs 48 × 24 now 40 × 20"
        );
    }
}
