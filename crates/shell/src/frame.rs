//! The one frame: everything a front-end shows at one moment, decided once by the shell
//! (Brogue CE's `brogueConsole` seam: one game, several painters). A [`Frame`] is the
//! screen (a text screen, or the game's HUD), the world's view under the HUD as a grid of
//! [`Cell`]s (glyph, colours, light, box-wall joins as box-drawing glyphs, the route waiting
//! for `Y`), and the minimap. The window paints it in pixels, the terminal in character
//! cells, the browser on a canvas; none of them decides a colour, a glyph or a word.
//!
//! The rules decided here, once:
//! - **What is drawn.** In sight (runs, explorations, a classic game with Tab) only tiles
//!   seen are drawn: lit by the avatar's light when in sight now, on the memory background
//!   when remembered (the floor and walls in the one cool memory colour, chests, traps and
//!   exits in their own hue dimmed: [`look::remembered`], `docs/look.md`); monsters only where the avatar sees
//!   them. Out of sight (a classic game's whole map) every tile in the Tileset's colours.
//! - **Walls.** Box walls (`--walls box`, the default in runs and explorations): each wall's
//!   glyph is the box-drawing character of its joins with the walls beside it that are drawn
//!   ([`autotile::wall_mask`]); the window draws those glyphs as strokes, the terminal as
//!   characters. Java walls (`--walls java`, the classic game's default): `#`.
//! - **The way deeper.** An exploration's unexplored exit shows the depth of the room behind
//!   it (`1`–`9`; `+` from 10), in the exits' colour when that room is deeper than the
//!   avatar's and in the one-way exits' when it is not.
//! - **The route** of a walk through armed traps waiting for `Y` is tinted [`look::ROUTE`].
//!
//! Cost: a frame composes only the view's tiles (and one tile round them, so box walls join
//! across its edge): it follows the screen, never the world.

use std::sync::Arc;

use byog_game::GameState;
use byog_game::game::{self, SIGHT_RADIUS};
use byog_tile_engine::minimap::{Mark, Minimap};
use byog_tile_engine::{Camera, Pos, Rect, Rgb, Tile, WallStyle, autotile, look};
use serde::Serialize;

use crate::screens::Screen;

/// Black: the background of what is not drawn.
pub const BLACK: Rgb = Rgb::new(0, 0, 0);

/// What a front-end asks a frame for: the size of its world view in cells (tiles), the
/// largest minimap it can show (pixels, one a block of tiles) and the view cell under its
/// pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FrameRequest {
    /// The world view's width, in cells.
    pub view_cols: u32,
    /// The world view's height, in cells.
    pub view_rows: u32,
    /// The largest minimap the front-end shows, `(width, height)` in minimap pixels; `None`
    /// for none.
    pub minimap: Option<(u32, u32)>,
    /// The view cell under the pointer, `(column, row)` from the view's top-left.
    pub pointer: Option<(u32, u32)>,
}

/// One frame ([`crate::Shell::frame`]): whole, never a difference from the last.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Frame {
    /// A text screen (the menu, the seed prompt, an end screen, help, the log, a question, the
    /// busy screen), or the game with its HUD above the view.
    pub screen: Screen,
    /// The world's view under the HUD: with [`Screen::Game`] only.
    pub view: Option<View>,
    /// The minimap in a corner of the view: with [`Screen::Game`] only, when the world does
    /// not fit the view, the minimap is wanted (`M`) and a corner of the view holds it without
    /// covering a tile seen (in sight; out of sight, the avatar and the tiles beside it).
    pub minimap: Option<MinimapFrame>,
}

/// How a cell of the view is lit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Light {
    /// Not drawn: never seen, or outside the world (black).
    Unseen,
    /// Seen before, out of sight now: drawn on the memory background, the floor and walls in
    /// the memory colour, things in their own hue dimmed (without colour, faint).
    Remembered,
    /// In sight now, lit by the avatar's light.
    Lit,
    /// Drawn as it is, in the Tileset's colours: the whole map of a classic game.
    Shown,
}

/// One cell of the view: one world tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// What is drawn: the tile's character, or a box-drawing character for a box wall
    /// (`autotile::box_char`; a blank inside solid rock), or a blank.
    pub glyph: char,
    /// The glyph's colour (a box wall's strokes).
    pub fg: Rgb,
    /// The cell's background.
    pub bg: Rgb,
    /// How it is lit.
    pub light: Light,
    /// Whether it is a tile of a route waiting for `Y` (its background is [`look::ROUTE`]).
    pub route: bool,
}

impl Cell {
    /// A cell drawn as nothing.
    pub const UNSEEN: Cell = Cell {
        glyph: ' ',
        fg: BLACK,
        bg: BLACK,
        light: Light::Unseen,
        route: false,
    };

    /// The joins of a box wall drawn in this cell (`autotile::wall_mask`'s bits), for a
    /// painter that draws walls as strokes; `None` when the glyph is not a box-drawing
    /// character.
    pub fn box_wall(&self) -> Option<u8> {
        autotile::mask_of_box_char(self.glyph)
    }
}

/// The world's view: `cols × rows` cells, the top row first; world tile `origin` is in the
/// bottom-left cell (the camera's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    /// Cells across.
    pub cols: u32,
    /// Cells down.
    pub rows: u32,
    /// The world tile in the bottom-left cell (it may lie outside the world).
    pub origin: Pos,
    /// The cells, row by row from the top, left to right.
    pub cells: Vec<Cell>,
}

impl View {
    /// The cell in column `col`, row `row` from the top-left.
    pub fn cell(&self, col: u32, row: u32) -> Option<&Cell> {
        (col < self.cols && row < self.rows).then(|| &self.cells[(row * self.cols + col) as usize])
    }

    /// The world tile shown in column `col`, row `row` from the top-left.
    pub fn tile_at(&self, col: u32, row: u32) -> Pos {
        Pos::new(
            self.origin.x + col as i32,
            self.origin.y + (self.rows as i32 - 1 - row as i32),
        )
    }

    /// The glyphs, a line a row from the top (for tests and text mirrors).
    pub fn lines(&self) -> Vec<String> {
        self.cells
            .chunks(self.cols.max(1) as usize)
            .map(|row| row.iter().map(|c| c.glyph).collect())
            .collect()
    }
}

/// The minimap of the shown world: `width × height` pixels, each a block of tiles
/// (`byog_tile_engine::minimap`), with the avatar, the exit once seen and the view's outline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MinimapFrame {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels, RGBA, rows from the top (transparent where nothing is known). Shared
    /// between frames until it changes.
    pub rgba: Arc<Vec<u8>>,
    /// Bumped whenever `rgba` changes (a painter uploads its texture again then).
    pub version: u64,
    /// The avatar's pixel, `(x, y)` from the top-left.
    pub avatar: Option<(u32, u32)>,
    /// The exit's pixel, once the exit was seen (always out of sight).
    pub exit: Option<(u32, u32)>,
    /// The view's outline, clipped to the world: `(x, y, width, height)` in pixels from the
    /// top-left, whole pixels covering it.
    pub outline: (u32, u32, u32, u32),
    /// The view's corner it is drawn in: the first of top-right, top-left, bottom-right and
    /// bottom-left where it covers no tile seen ([`minimap_corner`]).
    pub corner: Corner,
}

/// A corner of the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Corner {
    /// Top-right (the minimap's own).
    TopRight,
    /// Top-left.
    TopLeft,
    /// Bottom-right.
    BottomRight,
    /// Bottom-left.
    BottomLeft,
}

/// The corner of a `cols × rows` view where a minimap of at most a quarter of its width and a
/// third of its height (with its frame and margin: a box of `cols / 4 + 1 × rows / 3 + 1`
/// cells, rounded up) hides no cell that `covers` says must stay in view (`covers(col, row)`,
/// from the view's top-left): the first of top-right, top-left, bottom-right and bottom-left
/// whose box is clear; `None` when none is (the minimap is not drawn then).
///
/// The frame asks, in sight, that no tile seen (lit or remembered) be covered; out of sight (a
/// classic game's whole map, where every tile is shown) only the avatar and the tiles beside
/// it ([`Frame::minimap`]).
pub fn minimap_corner(cols: u32, rows: u32, covers: impl Fn(u32, u32) -> bool) -> Option<Corner> {
    let (w, h) = (
        (cols.div_ceil(4) + 1).min(cols),
        (rows.div_ceil(3) + 1).min(rows),
    );
    let clear =
        |x0: u32, y0: u32| (y0..y0 + h).all(|row| (x0..x0 + w).all(|col| !covers(col, row)));
    let (right, bottom) = (cols - w, rows - h);
    [
        (Corner::TopRight, right, 0),
        (Corner::TopLeft, 0, 0),
        (Corner::BottomRight, right, bottom),
        (Corner::BottomLeft, 0, bottom),
    ]
    .into_iter()
    .find(|&(_, x, y)| clear(x, y))
    .map(|(corner, _, _)| corner)
}

/// How the view is drawn ([`view_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Look {
    /// How walls are drawn (`--walls`).
    pub walls: WallStyle,
    /// Only what the avatar sees and remembers.
    pub sight: bool,
}

/// The view of `game` through `camera`, as `look` says, with the tiles of `route` (world
/// positions) marked.
pub fn view_of(game: &GameState, camera: &Camera, look: Look, route: &[Pos]) -> View {
    let (cols, rows) = (camera.cols, camera.rows);
    let mut cells = vec![Cell::UNSEEN; cols as usize * rows as usize];
    let whole = game.rect();
    let area = camera.view().intersection(&whole);
    if !area.is_empty() {
        // One tile more all round, so box walls join across the view's edge.
        let around =
            Rect::new(area.x - 1, area.y - 1, area.width + 2, area.height + 2).intersection(&whole);
        let composed = if look.sight {
            game.compose_in_sight(around)
        } else {
            game.compose(around)
        };
        let local = |p: Pos| Pos::new(p.x - around.x, p.y - around.y);
        let visibility = look.sight.then(|| game.visibility());
        let light_at = |p: Pos| match &visibility {
            None => Light::Shown,
            Some(v) => match game.light(v, p) {
                game::SightState::Visible => Light::Lit,
                game::SightState::Remembered => Light::Remembered,
                game::SightState::Unseen => Light::Unseen,
            },
        };
        let boxed = look.walls == WallStyle::Box;
        let avatar = game.avatar();
        let here = game.explore().map(|e| byog_game::explore::depth(e.room()));
        for p in area.positions() {
            let light = light_at(p);
            let Some((cx, cy)) = camera.cell_of(p) else {
                continue;
            };
            if light == Light::Unseen {
                continue;
            }
            let tile = composed.tile(local(p));
            let glyph = if boxed && tile == Tile::Wall {
                // Box walls join only what is drawn (autotile's rules).
                autotile::wall_char(autotile::wall_mask(
                    |q| composed.get(local(q)),
                    |q| light_at(q) != Light::Unseen,
                    p,
                ))
            } else if let (Tile::ExitUnexplored, Some(depth)) =
                (tile, crate::screens::exit_depth(game, p, tile))
            {
                char::from_digit(depth, 10).unwrap_or('+')
            } else {
                tile.character()
            };
            let (mut fg, bg) = match light {
                Light::Lit => {
                    let (dx, dy) = (i64::from(p.x - avatar.x), i64::from(p.y - avatar.y));
                    let (fg, bg, _) = look::lit(tile, look::light(dx * dx + dy * dy, SIGHT_RADIUS));
                    (fg, bg)
                }
                Light::Remembered => {
                    let (fg, bg, _) = look::remembered(tile);
                    (fg, bg)
                }
                _ => (
                    tile.tetile().text_color(),
                    autotile::background(tile, look.walls),
                ),
            };
            // An exit to a room no deeper than the avatar's: the one-way exits' colour (dimmed
            // when remembered).
            if tile == Tile::ExitUnexplored
                && matches!(light, Light::Lit | Light::Remembered)
                && crate::screens::exit_depth(game, p, tile) <= here
            {
                fg = if light == Light::Lit {
                    look::thing(Tile::OneWayUp)
                } else {
                    look::remembered_thing(Tile::OneWayUp)
                }
                .unwrap_or(fg);
            }
            let row = rows - 1 - cy;
            cells[(row * cols + cx) as usize] = Cell {
                glyph,
                fg,
                bg,
                light,
                route: false,
            };
        }
    }
    // The monsters that act after the next key: on their own ground (docs/monsters.md).
    for (p, _) in game.acting_next() {
        if let Some((cx, cy)) = camera.cell_of(p) {
            cells[((rows - 1 - cy) * cols + cx) as usize].bg = crate::screens::ACTS_NEXT;
        }
    }
    for &p in route {
        if let Some((cx, cy)) = camera.cell_of(p) {
            let cell = &mut cells[((rows - 1 - cy) * cols + cx) as usize];
            cell.bg = look::ROUTE;
            cell.route = true;
        }
    }
    View {
        cols,
        rows,
        origin: camera.origin,
        cells,
    }
}

/// What a minimap pixel shows of world tile `pos` of `game`: nothing unseen (in sight), a
/// door or the exit as wall (they are set into walls).
fn mark(game: &GameState, sight: bool, pos: Pos) -> Mark {
    if sight && !game.has_seen(pos) {
        return Mark::Empty;
    }
    match game.tile_at(pos) {
        Some(t) if autotile::joins(t) => Mark::Wall,
        Some(t) if t.is_walkable() => Mark::Floor,
        _ => Mark::Empty,
    }
}

/// What a minimap is kept for: the scene it shows, in sight or not, at most how large.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct MinimapKey {
    scene: crate::Scene,
    sight: bool,
    max: (u32, u32),
}

/// What a shown world is, for the camera: a new one recentres the camera, the same one with
/// its frame moved or grown keeps the camera on the same tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scene {
    /// The game's seed.
    pub seed: u64,
    /// A run's floor (0 outside runs).
    pub floor: u32,
    /// The shown world's width in tiles.
    pub width: usize,
    /// The shown world's height in tiles.
    pub height: usize,
    /// Where the world's `(0, 0)` lies in the dungeon (an exploration's frame moves as its
    /// map grows or the avatar changes maps).
    pub origin: Pos,
}

impl Scene {
    /// The scene `game` shows.
    pub fn of(game: &GameState) -> Scene {
        let world = game.rect();
        Scene {
            seed: game.seed(),
            floor: game.run().map_or(0, |r| r.floor),
            width: world.width as usize,
            height: world.height as usize,
            origin: game.origin(),
        }
    }

    /// Whether `next` is this scene with only its frame moved or grown (an exploration
    /// made a room or changed maps).
    pub fn is_moved(&self, next: &Scene) -> bool {
        (self.seed, self.floor) == (next.seed, next.floor)
            && (self.origin, self.width, self.height) != (next.origin, next.width, next.height)
    }
}

/// The minimap kept between frames (for both front-ends, once): drawn whole for a new
/// scene, sight or size, then redrawn only around the avatar after it moved (what it just
/// saw), so a move costs the light radius, never the world.
#[derive(Debug, Clone, Default)]
pub(crate) struct MinimapUpkeep {
    kept: Option<Kept>,
}

#[derive(Debug, Clone)]
struct Kept {
    key: MinimapKey,
    map: Minimap,
    avatar: Pos,
    rgba: Arc<Vec<u8>>,
    version: u64,
}

impl MinimapUpkeep {
    /// The minimap of `game` (its `scene`) for `view` through `camera`, at most `max` pixels,
    /// kept up to date; `None` when the world fits the view, or when every corner of the view
    /// would cover what must stay in view ([`minimap_corner`]).
    pub(crate) fn frame(
        &mut self,
        game: &GameState,
        scene: crate::Scene,
        sight: bool,
        (camera, view): (&Camera, &View),
        max: (u32, u32),
    ) -> Option<MinimapFrame> {
        if camera.shows_all(scene.width, scene.height) {
            return None;
        }
        // In sight, never over a tile seen (what the view draws); out of sight (every tile
        // shown), never over the avatar or the tiles beside it.
        let corner = if sight {
            minimap_corner(view.cols, view.rows, |col, row| {
                view.cell(col, row)
                    .is_some_and(|c| c.light != Light::Unseen)
            })
        } else {
            match camera.cell_of(game.avatar()) {
                Some((ax, ay)) => {
                    let (ax, ay) = (i64::from(ax), i64::from(camera.rows) - 1 - i64::from(ay));
                    minimap_corner(camera.cols, camera.rows, |col, row| {
                        (i64::from(col) - ax).abs() <= 2 && (i64::from(row) - ay).abs() <= 2
                    })
                }
                None => Some(Corner::TopRight),
            }
        };
        let key = MinimapKey { scene, sight, max };
        let avatar = game.avatar();
        let version = self.kept.as_ref().map_or(0, |k| k.version + 1);
        let kept = match &mut self.kept {
            Some(k) if k.key == key => {
                if k.avatar != avatar && sight {
                    let r = SIGHT_RADIUS as i32 + 1;
                    k.map.redraw(
                        Rect::new(avatar.x - r, avatar.y - r, 2 * r + 1, 2 * r + 1),
                        |p| mark(game, sight, p),
                    );
                }
                k.avatar = avatar;
                k
            }
            slot => {
                let mut map = Minimap::new(scene.width, scene.height, max.0, max.1);
                map.redraw(Rect::of_size(scene.width, scene.height), |p| {
                    mark(game, sight, p)
                });
                slot.insert(Kept {
                    key,
                    map,
                    avatar,
                    rgba: Arc::new(Vec::new()),
                    version,
                })
            }
        };
        if kept.map.take_changed() {
            kept.rgba = Arc::new(kept.map.rgba().to_vec());
            kept.version = version;
        }
        let m = &kept.map;
        let world = game.rect();
        let view = camera.view().intersection(&world);
        let block = m.block();
        let outline = if view.is_empty() {
            (0, 0, 0, 0)
        } else {
            let (x0, x1) = (view.x as u32 / block, (view.right() as u32).div_ceil(block));
            let top = (world.top() - view.top()) as u32;
            let bottom = (world.top() - view.y) as u32;
            let (y0, y1) = (top / block, bottom.div_ceil(block));
            (x0, y0, x1 - x0, y1 - y0)
        };
        let exit = game.exit();
        let corner = corner?;
        Some(MinimapFrame {
            width: m.width(),
            height: m.height(),
            rgba: Arc::clone(&kept.rgba),
            version: kept.version,
            avatar: m.pixel_of(avatar),
            exit: (!sight || game.has_seen(exit))
                .then(|| m.pixel_of(exit))
                .flatten(),
            outline,
            corner,
        })
    }
}
