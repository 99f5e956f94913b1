//! A stand-in for the shell's one frame (`Shell::frame`, `Shell::take_fed`,
//! `Shell::replayed`, `Saves`) over today's [`byog_shell::Shell`], with the same names and
//! shapes, until the shell offers them itself. Everything else in this package uses only
//! these names, so the switch is one `use` line (`crate::shell_api`).
//!
//! It paints the view as the terminal paints its world (the play view's look,
//! `docs/look.md`), takes the key log from the game's history (travel's steps are there as
//! `W`/`A`/`S`/`D`), and keeps `:Q` to itself (no save file is written: the server keeps the
//! game by its key log).

use std::path::PathBuf;

use byog_game::GameState;
use byog_game::explore::ExploreSettings;
use byog_game::game::{Light as GameLight, SIGHT_RADIUS};
use byog_shell::screens::Screen;
use byog_tile_engine::{Pos, Rect, Rgb, Tile, WallStyle, autotile, look as palette};
use byog_worlds::generator::GeneratorSettings;

/// Where `:Q` saves: a slot of a folder, or nowhere (the server keeps games by their keys).
#[derive(Debug, Clone)]
pub enum Saves {
    /// `dir/slot.bin`.
    Folder {
        /// The save folder.
        dir: PathBuf,
        /// The slot.
        slot: String,
    },
    /// No save files: `:Q` ends the session.
    None,
}

/// What a session starts with.
#[derive(Debug, Clone)]
pub struct ShellOptions {
    /// Width of new worlds in tiles.
    pub width: usize,
    /// Height of new worlds in tiles.
    pub height: usize,
    /// Generator settings.
    pub settings: GeneratorSettings,
    /// Floors in a run.
    pub floors: u32,
    /// Explorations' settings.
    pub explore: ExploreSettings,
    /// Where `:Q` saves.
    pub saves: Saves,
    /// How walls are drawn.
    pub walls: Option<WallStyle>,
    /// Watch the save instead of playing.
    pub watch: bool,
}

/// What a front-end asks the frame for: its view in cells, the minimap's largest size in
/// pixels (or none), and the view cell under the pointer (from the view's top-left).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameRequest {
    /// View width in cells.
    pub view_cols: u32,
    /// View height in cells.
    pub view_rows: u32,
    /// The minimap's largest size, in pixels.
    pub minimap: Option<(u32, u32)>,
    /// The view cell under the pointer, from the view's top-left.
    pub pointer: Option<(u32, u32)>,
}

/// How a cell is lit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Light {
    /// The whole map shown (a classic game without sight).
    Shown,
    /// In sight now.
    Lit,
    /// Seen before.
    Remembered,
    /// Never seen.
    Unseen,
}

/// One view cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// The character.
    pub glyph: char,
    /// Its colour.
    pub fg: Rgb,
    /// The cell's background.
    pub bg: Rgb,
    /// How it is lit.
    pub light: Light,
    /// On a route waiting for `Y`.
    pub route: bool,
}

/// The world's view: `cols × rows` cells, the top row first.
#[derive(Debug, Clone)]
pub struct View {
    /// Cells across.
    pub cols: u32,
    /// Cells down.
    pub rows: u32,
    /// The world tile of the view's bottom-left cell.
    pub origin: Pos,
    /// The cells, row by row from the top.
    pub cells: Vec<Cell>,
}

/// The minimap: `width × height` pixels, each 0 nothing, 1 floor, 2 wall.
#[derive(Debug, Clone)]
pub struct MinimapFrame {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// One mark a pixel, row by row from the top.
    pub marks: Vec<u8>,
    /// The avatar's pixel.
    pub avatar: Option<(u32, u32)>,
    /// The exit's pixel, once seen.
    pub exit: Option<(u32, u32)>,
    /// The view's outline in pixels: x, y, width, height.
    pub view_outline: Option<(u32, u32, u32, u32)>,
    /// Changes whenever `marks` does.
    pub version: u64,
}

/// What a front-end paints now.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The text screen, or the HUD over the world.
    pub screen: Screen,
    /// The world's view, when the world is shown.
    pub view: Option<View>,
    /// The minimap, when asked for and the world does not fit.
    pub minimap: Option<MinimapFrame>,
}

/// The session: today's shell, with the key log kept beside it.
#[derive(Debug)]
pub struct Shell {
    inner: byog_shell::Shell,
    /// Keys the interpreter consumed and not yet taken.
    fed: String,
    /// How much of the game's history was already taken.
    taken: usize,
    /// The seed of the game whose history is followed.
    following: Option<(u64, char)>,
    /// A `:` waiting for its next key.
    colon: bool,
    /// `:Q` ended the session.
    quit: bool,
    /// The view size of the last frame, for clicks.
    view: (u32, u32),
}

impl Shell {
    /// A session at the menu.
    ///
    /// # Errors
    /// When the shell refuses the options.
    pub fn new(options: ShellOptions) -> Result<Shell, byog_shell::PlayError> {
        let dir = std::env::temp_dir().join(format!("byog-web-{}", std::process::id()));
        let inner = byog_shell::Shell::new(byog_shell::ShellOptions {
            width: options.width,
            height: options.height,
            settings: options.settings,
            floors: options.floors,
            explore: options.explore,
            save_dir: dir,
            slot: "web".to_owned(),
            walls: options.walls,
            watch: options.watch,
        })?;
        Ok(Shell {
            inner,
            fed: String::new(),
            taken: 0,
            following: None,
            colon: false,
            quit: false,
            view: (80, 30),
        })
    }

    /// The game rebuilt from its key log, at once (no walk is animated).
    ///
    /// # Errors
    /// When the shell refuses the options.
    pub fn replayed(options: ShellOptions, log: &str) -> Result<Shell, byog_shell::PlayError> {
        let mut shell = Shell::new(options)?;
        for k in log.chars() {
            shell.key(k, 0.0);
            shell.inner.finish_walk(0.0);
        }
        let _ = shell.take_fed();
        Ok(shell)
    }

    /// One key.
    pub fn key(&mut self, key: char, now: f64) {
        if self.quit {
            return;
        }
        let in_play = self
            .inner
            .shown_game()
            .is_some_and(|g| g.status() == byog_game::game::LevelStatus::Playing)
            && self.inner.shows_world();
        if self.colon {
            self.colon = false;
            if key.eq_ignore_ascii_case(&'Q') {
                self.collect();
                self.fed.push_str(":Q");
                self.quit = true;
                return;
            }
            self.inner.key(':', now);
        } else if key == ':' && in_play && !self.inner.is_walking() {
            self.colon = true;
            return;
        }
        self.inner.key(key, now);
        self.collect();
    }

    /// A click on view cell `(cx, cy)` from the view's top-left.
    pub fn click(&mut self, cx: u32, cy: u32, now: f64) {
        let Some(camera) = self.inner.follow(self.view.0, self.view.1) else {
            return;
        };
        if cy >= camera.rows || cx >= camera.cols {
            return;
        }
        let pos = camera.tile_in(cx, camera.rows - 1 - cy);
        self.inner.click(pos, now);
        self.collect();
    }

    /// Moves time on; whether what is shown changed.
    pub fn tick(&mut self, now: f64) -> bool {
        let changed = self.inner.tick(now);
        self.collect();
        changed
    }

    /// When something changes by itself next.
    pub fn deadline(&self) -> Option<f64> {
        self.inner.deadline()
    }

    /// Whether the session ended (`:Q`, or `Q` at the menu after its goodbye).
    pub fn is_over(&self, now: f64) -> bool {
        self.quit || self.inner.is_over(now)
    }

    /// The game on screen.
    pub fn shown_game(&self) -> Option<&GameState> {
        self.inner.shown_game()
    }

    /// The keys the interpreter consumed since the last call, in order.
    pub fn take_fed(&mut self) -> String {
        self.collect();
        std::mem::take(&mut self.fed)
    }

    /// Moves the game's new history into `fed`.
    fn collect(&mut self) {
        let Some(game) = self.inner.shown_game() else {
            return;
        };
        let id = (game.seed(), game.kind().key());
        let history = game.history();
        if self.following != Some(id) {
            self.following = Some(id);
            self.taken = 0;
        }
        if history.len() > self.taken {
            self.fed.push_str(&history[self.taken..]);
            self.taken = history.len();
        }
    }

    /// What to paint now.
    pub fn frame(&mut self, now: f64, req: &FrameRequest) -> Frame {
        self.view = (req.view_cols, req.view_rows);
        let camera = self.inner.follow(req.view_cols, req.view_rows);
        let under = match (camera, req.pointer) {
            (Some(c), Some((cx, cy))) if cy < c.rows && cx < c.cols => {
                let p = c.tile_in(cx, c.rows - 1 - cy);
                self.inner
                    .shown_game()
                    .filter(|g| self.inner.names(g, p))
                    .map(|_| p)
            }
            _ => None,
        };
        let screen = self.inner.screen(now, under);
        let view = match (camera, self.inner.shown_game()) {
            (Some(camera), Some(game)) if matches!(screen, Screen::Game(_)) => {
                let sight = self.inner.in_sight(game);
                let walls = self.inner.walls(game);
                Some(paint(
                    game,
                    &camera,
                    sight,
                    walls,
                    self.inner.route().unwrap_or(&[]),
                ))
            }
            _ => None,
        };
        Frame {
            screen,
            view,
            minimap: None,
        }
    }
}

/// The view of `game` through `camera`, as the terminal paints its world.
fn paint(
    game: &GameState,
    camera: &byog_tile_engine::Camera,
    sight: bool,
    walls: WallStyle,
    route: &[Pos],
) -> View {
    let black = Rgb::new(0, 0, 0);
    let blank = Cell {
        glyph: ' ',
        fg: black,
        bg: black,
        light: if sight { Light::Unseen } else { Light::Shown },
        route: false,
    };
    let (cols, rows) = (camera.cols, camera.rows);
    let mut cells = vec![blank; (cols * rows) as usize];
    let whole = game.rect();
    let area = camera.view().intersection(&whole);
    if !area.is_empty() {
        let around =
            Rect::new(area.x - 1, area.y - 1, area.width + 2, area.height + 2).intersection(&whole);
        let composed = if sight {
            game.compose_in_sight(around)
        } else {
            game.compose(around)
        };
        let local = |p: Pos| Pos::new(p.x - around.x, p.y - around.y);
        let visible = sight.then(|| game.visibility());
        let light_at = |p: Pos| {
            visible
                .as_ref()
                .map_or(GameLight::Visible, |v| game.light(v, p))
        };
        let tile_at = |p: Pos| composed.get(local(p));
        let shown = |p: Pos| light_at(p) != GameLight::Unseen;
        let avatar = game.avatar();
        for p in area.positions() {
            let light = light_at(p);
            let Some((cx, cy)) = camera.cell_of(p) else {
                continue;
            };
            if light == GameLight::Unseen {
                continue;
            }
            let tile = composed.tile(local(p));
            let glyph = if walls == WallStyle::Box && tile == Tile::Wall {
                autotile::wall_char(autotile::wall_mask(tile_at, shown, p))
            } else {
                tile.character()
            };
            let (mut fg, mut bg) = (
                tile.tetile().text_color(),
                autotile::background(tile, walls),
            );
            if sight {
                (fg, bg, _) = match light {
                    GameLight::Remembered => palette::remembered(tile),
                    _ => {
                        let (dx, dy) = (i64::from(p.x - avatar.x), i64::from(p.y - avatar.y));
                        palette::lit(tile, palette::light(dx * dx + dy * dy, SIGHT_RADIUS))
                    }
                };
            }
            let light = match (sight, light) {
                (false, _) => Light::Shown,
                (true, GameLight::Remembered) => Light::Remembered,
                (true, _) => Light::Lit,
            };
            let on_route = route.contains(&p);
            if on_route {
                bg = palette::ROUTE;
            }
            let i = ((rows - 1 - cy) * cols + cx) as usize;
            cells[i] = Cell {
                glyph,
                fg,
                bg,
                light,
                route: on_route,
            };
        }
    }
    View {
        cols,
        rows,
        origin: camera.origin,
        cells,
    }
}
