//! What the terminal shows, laid out in character cells: the shared [`screens`] (menu, seed
//! prompt, end screens, the screen between floors, goodbye) as centred lines, the HUD's
//! [`HUD_ROWS`] rows at the top, and the world below them through the shared [`Camera`],
//! one tile a cell. Every word comes from [`screens`]; the only words of the terminal's own
//! are those of [`too_small`].
//!
//! The world view is the terminal less the HUD's rows: `cols × (rows - HUD_ROWS)` cells. The
//! camera's view cell `(cx, cy)` (from the view's bottom-left, y up) is terminal column `cx`,
//! row `rows - 1 - cy` (from the top).

use byog_game::GameState;
use byog_game::game::{Light, SIGHT_RADIUS};
use byog_shell::Scene;
use byog_shell::screens::{self, HUD_ROWS, Hud, Style, TextScreen};
use byog_tile_engine::Rect;
use byog_tile_engine::autotile;
use byog_tile_engine::look as palette;
use byog_tile_engine::minimap::{self, Mark, Minimap};
use byog_tile_engine::{Camera, Pos, Rgb, Tile, WallStyle};

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
        Style::Normal | Style::Message | Style::Glyph(_) => Weight::Normal,
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
        y = centred(grid, y, &line.text, line.style, colour);
    }
    if let Some(m) = &text.message {
        let y = grid.rows().saturating_sub(3).max(y);
        centred(grid, y, &m.text, m.style, colour);
    }
}

/// The one screen in the terminal's own words: the terminal is smaller than `need`.
pub fn too_small(grid: &mut CellGrid, need: (u16, u16), colour: bool) {
    let text = format!(
        "terminal too small: needs {} × {} (now {} × {})",
        need.0,
        need.1,
        grid.cols(),
        grid.rows()
    );
    centred(grid, grid.rows() / 2, &text, Style::Message, colour);
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

/// How the world is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorldLook {
    /// Walls as `#` or as box-drawing lines.
    pub walls: WallStyle,
    /// Only what the avatar sees (full) and remembers (dimmed); never-seen tiles blank.
    pub sight: bool,
    /// Whether colours are written (without, remembered tiles are faint).
    pub colour: bool,
}

/// The world of `game` as `camera` shows it, in the grid's rows below the HUD.
pub fn world(grid: &mut CellGrid, game: &GameState, camera: &Camera, look: WorldLook) {
    let whole = game.rect();
    let area = camera.view().intersection(&whole);
    if area.is_empty() {
        return;
    }
    // One tile more all round, so box walls join across the view's edge (as in the window).
    let around =
        Rect::new(area.x - 1, area.y - 1, area.width + 2, area.height + 2).intersection(&whole);
    let composed = if look.sight {
        game.compose_in_sight(around)
    } else {
        game.compose(around)
    };
    let local = |p: Pos| Pos::new(p.x - around.x, p.y - around.y);
    let visible = look.sight.then(|| game.visibility());
    let light_at = |p: Pos| {
        visible
            .as_ref()
            .map_or(Light::Visible, |v| game.light(v, p))
    };
    // Box walls join only what is drawn (autotile's rules): in sight, what was seen.
    let tile_at = |p: Pos| composed.get(local(p));
    let shown = |p: Pos| light_at(p) != Light::Unseen;
    for p in area.positions() {
        let light = light_at(p);
        let (Some((cx, cy)), false) = (camera.cell_of(p), light == Light::Unseen) else {
            continue;
        };
        let tile = composed.tile(local(p));
        let ch = if look.walls == WallStyle::Box && tile == Tile::Wall {
            autotile::wall_char(autotile::wall_mask(tile_at, shown, p))
        } else {
            tile.character()
        };
        let (mut fg, mut bg) = (
            tile.tetile().text_color(),
            autotile::background(tile, look.walls),
        );
        let mut weight = Weight::Normal;
        if look.sight && look.colour {
            // The play view's look (docs/look.md), as the window draws it: lit by the
            // avatar's light, remembered tiles in one cool colour, walls filled.
            let avatar = game.avatar();
            (fg, bg, _) = match light {
                Light::Remembered => palette::remembered(tile),
                _ => {
                    let (dx, dy) = (i64::from(p.x - avatar.x), i64::from(p.y - avatar.y));
                    palette::lit(tile, palette::light(dx * dx + dy * dy, SIGHT_RADIUS))
                }
            };
        } else if light == Light::Remembered {
            if look.colour {
                (fg, bg) = (fg.dimmed(), bg.dimmed());
            } else {
                weight = Weight::Faint;
            }
        }
        let row = camera.rows - 1 - cy + HUD_ROWS as u32;
        if let (Ok(x), Ok(y)) = (u16::try_from(cx), u16::try_from(row)) {
            grid.set(x, y, Cell { ch, fg, bg, weight });
        }
    }
}

/// The terminal's minimap (`M`, docs/terminal.md): the explored world shrunk
/// ([`Minimap`]) and drawn in half-block cells (`▀`, two minimap pixels a cell, top in the
/// character's colour, bottom in its background) at the top-right of the world's view, with
/// the avatar and the exit once seen. It shows when the world does not fit the view, and is
/// kept up to date around the avatar only, as the window's is.
#[derive(Debug, Clone)]
pub struct MinimapCells {
    scene: Scene,
    sight: bool,
    size: (u16, u16),
    avatar: Pos,
    map: Minimap,
}

impl MinimapCells {
    /// The minimap of `game` in a terminal of `size` cells: `previous` kept (and redrawn
    /// around the avatar) when it is of the same scene, sight and size; `None` when the
    /// world fits the view.
    pub fn keep(
        previous: Option<MinimapCells>,
        game: &GameState,
        camera: &Camera,
        look: WorldLook,
        size: (u16, u16),
    ) -> Option<MinimapCells> {
        let scene = Scene::of(game);
        if camera.shows_all(scene.width, scene.height) {
            return None;
        }
        let mark = |pos: Pos| {
            if look.sight && !game.has_seen(pos) {
                return Mark::Empty;
            }
            match game.tile_at(pos) {
                Some(t) if autotile::joins(t) => Mark::Wall,
                Some(t) if t.is_walkable() => Mark::Floor,
                _ => Mark::Empty,
            }
        };
        let avatar = game.avatar();
        if let Some(mut m) = previous
            && (m.scene, m.sight, m.size) == (scene, look.sight, size)
        {
            if m.avatar != avatar {
                let r = SIGHT_RADIUS as i32 + 1;
                m.map.redraw(
                    Rect::new(avatar.x - r, avatar.y - r, 2 * r + 1, 2 * r + 1),
                    mark,
                );
                m.avatar = avatar;
            }
            return Some(m);
        }
        // A quarter of the view's width, a third of its height (two pixels a cell).
        let (cols, rows) = world_view(size.0, size.1);
        let mut map = Minimap::new(
            scene.width,
            scene.height,
            (cols / 4).max(4),
            (rows / 3).max(2) * 2,
        );
        map.redraw(Rect::of_size(scene.width, scene.height), mark);
        Some(MinimapCells {
            scene,
            sight: look.sight,
            size,
            avatar,
            map,
        })
    }

    /// Draws the minimap at the top-right of the world's view, below the HUD.
    pub fn draw(&self, grid: &mut CellGrid, game: &GameState, camera: &Camera, colour: bool) {
        let (w, h) = (self.map.width(), self.map.height().div_ceil(2));
        let left = (camera.cols.saturating_sub(w)) as u16;
        let top = HUD_ROWS as u16;
        let rgba = self.map.rgba();
        let px = |x: u32, y: u32| -> Rgb {
            if y >= self.map.height() {
                return BLACK;
            }
            let i = ((y * self.map.width() + x) * 4) as usize;
            if rgba[i + 3] == 0 {
                BLACK
            } else {
                Rgb::new(rgba[i], rgba[i + 1], rgba[i + 2])
            }
        };
        let mark = |pos: Pos| self.map.pixel_of(pos);
        let avatar = mark(game.avatar());
        let exit = game
            .has_seen(game.exit())
            .then(|| mark(game.exit()))
            .flatten();
        for cy in 0..h {
            for cx in 0..w {
                let (mut top_px, mut bottom_px) = (px(cx, 2 * cy), px(cx, 2 * cy + 1));
                for (at, c) in [(exit, minimap::EXIT), (avatar, minimap::AVATAR)] {
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
                    // Without colour: the avatar as `●` (the world's `@` stays the only one),
                    // what is known as `▒`.
                    let lit = |c: Rgb| c != BLACK;
                    let ch = if avatar.is_some_and(|(x, y)| x == cx && y / 2 == cy) {
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
}

/// Marks the tiles of a route waiting for `Y` (a walk through armed traps): their cells'
/// background tinted (without colour, drawn reversed as `*`), as the window tints them.
pub fn mark_route(grid: &mut CellGrid, camera: &Camera, route: &[Pos], colour: bool) {
    for &p in route {
        let Some((cx, cy)) = camera.cell_of(p) else {
            continue;
        };
        let row = camera.rows - 1 - cy + HUD_ROWS as u32;
        if let (Ok(x), Ok(y)) = (u16::try_from(cx), u16::try_from(row))
            && let Some(mut cell) = grid.get(x, y)
        {
            if colour {
                cell.bg = palette::ROUTE;
            } else {
                cell.ch = '*';
            }
            grid.set(x, y, cell);
        }
    }
}

/// The world tile under terminal cell `(col, row)` (row from the top) when `camera` shows the
/// world below the HUD; `None` on the HUD.
pub fn tile_under(camera: &Camera, col: u16, row: u16) -> Option<Pos> {
    let from_top = u32::from(row).checked_sub(HUD_ROWS as u32)?;
    let cy = camera.rows.checked_sub(1 + from_top)?;
    (u32::from(col) < camera.cols).then(|| camera.tile_in(u32::from(col), cy))
}

#[cfg(test)]
mod tests {
    use super::*;
    use byog_worlds::generator::GeneratorSettings;

    #[test]
    fn a_world_that_fits_is_drawn_below_the_hud_as_replay_prints_it() {
        let game = GameState::new(1234, 80, 30, GeneratorSettings::default()).unwrap();
        let (cols, rows) = world_view(100, 40);
        let camera = Camera::centred(cols, rows, 80, 30, game.avatar());
        let mut grid = CellGrid::new(100, 40);
        let look = WorldLook {
            walls: WallStyle::Java,
            sight: false,
            colour: false,
        };
        world(&mut grid, &game, &camera, look);
        let lines = grid.lines();
        // 38 rows of view, 30 of world: 4 blank rows above it; 10 blank columns at its left.
        let shown: Vec<String> = lines[2 + 4..2 + 4 + 30]
            .iter()
            .map(|l| l.chars().skip(10).take(80).collect())
            .collect();
        let text = game.world().to_string();
        assert_eq!(shown, text.lines().collect::<Vec<_>>());
        // The mouse over the avatar's cell names the avatar's tile.
        let (cx, cy) = camera.cell_of(game.avatar()).unwrap();
        let row = (camera.rows - 1 - cy + HUD_ROWS as u32) as u16;
        assert_eq!(tile_under(&camera, cx as u16, row), Some(game.avatar()));
        assert_eq!(tile_under(&camera, cx as u16, 1), None);
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
        let game = GameState::new(7, 40, 20, GeneratorSettings::default()).unwrap();
        let message = "a very long message that cannot fit in the row";
        let h = screens::hud(&game, None, message);
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
                },
                screens::HudRow {
                    left: message.to_owned(),
                    left_style: Style::Message,
                    right: status.to_owned(),
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
}
