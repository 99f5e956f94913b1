//! One game played an action at a time, its observation written into arrays.
//!
//! The arrays are built from the game state's public accessors: the floor's memory
//! ([`GridBoard::seen`]) over its terrain, then the chests and traps seen, the exit's door and
//! the avatar (the compose step's order), or an exploration's
//! [`GameState::compose_seen`]; the HUD's numbers from the run's or the exploration's state.
//! Never a tile that was not seen: the glyphs are those of `byog agent`'s `rows`
//! (`docs/agent.md`), and a test compares them.
//!
//! A classic game's or a run's view is kept from one step to the next, as the agent keeps
//! its own: a move changes the view only at the tile the avatar left and round the one it
//! reached (the patch of sight when it never stood there before, the only time the floor's
//! memory grows: [`GridBoard::visited`]); anything else (a new game or floor, travel) builds
//! it whole. The arrays of a [`crate::Batch`] hold a game's previous observation, so only
//! the tiles that changed are written.

use std::path::Path;
use std::sync::LazyLock;

use byog_game::GridBoard;
use byog_game::action::Action;
use byog_game::explore::play::{ExploreEnd, InSight};
use byog_game::game::{GameKind, GameState, LevelStatus, MAX_SEED, SIGHT_RADIUS};
use byog_game::interpreter::{Interpreter, Outcome, Phase};
use byog_game::run::{self, FeatureKind, Loss};
use byog_game::save::MemoryStore;
use byog_shell::screens::feedback;
use byog_tile_engine::{Pos, Rect, Tile};
use byog_worlds::generator::GeneratorSettings;

use crate::options::{ObservedArea, Options};

/// The key of each action, by index: `W` up, `A` left, `S` down, `D` right, `.` wait, `U`
/// drink a potion (explorations), then, with the travel keys, `X` explore and `>` travel to
/// the exit.
pub const ACTION_KEYS: [char; 8] = ['W', 'A', 'S', 'D', '.', 'U', 'X', '>'];

/// The message array's length in bytes: the message's UTF-8, zero-padded (a longer one is
/// cut at a character's boundary).
pub const MESSAGE_BYTES: usize = 256;

/// One entry of the `stats` vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum Stat {
    /// 0 classic, 1 run, 2 exploration.
    Mode,
    /// 0 playing, 1 won, 2 lost, 3 banked (an exploration's way up taken).
    Status,
    /// The avatar's column in the world (JSON `avatar[0]`; in an exploration, in its map's
    /// frame).
    X,
    /// The avatar's row from the bottom (JSON `avatar[1]`).
    Y,
    /// Steps taken in the game (bumps are not steps).
    Moves,
    /// Hearts left; -1 in a classic game.
    Health,
    /// Points (a run's or an exploration's); 0 in a classic game.
    Score,
    /// A run's moves left; -1 elsewhere.
    MovesLeft,
    /// A run's floor (1 = B1); -1 elsewhere.
    Floor,
    /// A run's floors; -1 elsewhere.
    Floors,
    /// An exploration's room depth; -1 elsewhere.
    Depth,
    /// Potions carried (explorations); -1 elsewhere.
    Potions,
    /// A run's perfect floors; -1 elsewhere.
    PerfectFloors,
    /// Chests on this floor, seen or not (a run's HUD `chests 2/4` total); -1 elsewhere.
    ChestsTotal,
    /// Traps on this floor, likewise.
    TrapsTotal,
    /// Moves a chest of this floor pays when first refilled; -1 outside runs.
    ChestMoves,
    /// Moves a trap pays when first rearmed; -1 outside runs.
    TrapMoves,
    /// The exit's column once seen (an exploration's way up), else -1.
    ExitX,
    /// The exit's row from the bottom once seen, else -1.
    ExitY,
    /// An exploration's room column (`[0, 0]` the start room); 0 elsewhere.
    RoomX,
    /// An exploration's room row.
    RoomY,
    /// An exploration's branch id; -1 in the start room and outside explorations.
    Branch,
    /// Monsters in sight now.
    Monsters,
    /// Why the game was lost: a run 1 out of moves, 2 out of health; an exploration the glyph
    /// of what took the last heart; 0 otherwise.
    Loss,
    /// The world's (a run's floor's, an exploration's map's) width in tiles.
    WorldWidth,
    /// Its height.
    WorldHeight,
    /// Steps of this episode (actions taken, refused ones included).
    Steps,
    /// 1 when the last action was refused (nothing changed), else 0.
    Refused,
    /// The episode's seed.
    Seed,
}

/// The names of the `stats` entries, in order (`byog.STATS`).
pub const STATS: [&str; 29] = [
    "mode",
    "status",
    "x",
    "y",
    "moves",
    "health",
    "score",
    "moves_left",
    "floor",
    "floors",
    "depth",
    "potions",
    "perfect_floors",
    "chests_total",
    "traps_total",
    "chest_moves",
    "trap_moves",
    "exit_x",
    "exit_y",
    "room_x",
    "room_y",
    "branch",
    "monsters",
    "loss",
    "world_width",
    "world_height",
    "steps",
    "refused",
    "seed",
];

/// Each glyph's character (a Unicode code point), as `rows` of the JSON show it, by glyph
/// code.
pub static CHAR_OF_GLYPH: LazyLock<[u32; Tile::COUNT]> =
    LazyLock::new(|| Tile::ALL.map(|t| t.character() as u32));

/// The palette of the `colors` arrays: each glyph's text colour, RGB, by glyph code
/// (`colors` holds the index; today the glyph's own code, so `PALETTE[glyphs]` is the
/// picture).
pub static PALETTE: LazyLock<[[u8; 3]; Tile::COUNT]> = LazyLock::new(|| {
    Tile::ALL.map(|t| {
        let c = t.tetile().text_color();
        [c.r, c.g, c.b]
    })
});

/// Each glyph's index in [`PALETTE`], by glyph code.
pub static COLOR_OF_GLYPH: LazyLock<[u8; Tile::COUNT]> =
    LazyLock::new(|| Tile::ALL.map(|t| t.id()));

/// Where one game's observation goes: its rows of the batch's arrays (any may be absent).
/// Lengths: `glyphs`, `chars` and `colors` the view's `rows × cols`, `stats` [`STATS`]'s,
/// `message` [`MESSAGE_BYTES`].
#[derive(Debug, Default)]
pub struct Out<'a> {
    /// Glyph codes ([`Tile`] ids; 0 never seen), row-major, row 0 the top row.
    pub glyphs: Option<&'a mut [u16]>,
    /// The glyphs' characters (Unicode code points).
    pub chars: Option<&'a mut [u32]>,
    /// The glyphs' colours ([`PALETTE`] indices).
    pub colors: Option<&'a mut [u8]>,
    /// The [`Stat`]s.
    pub stats: Option<&'a mut [i64]>,
    /// The message's UTF-8, zero-padded.
    pub message: Option<&'a mut [u8]>,
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// The score's change (a classic game: 1 for the win).
    pub reward: f64,
    /// The game ended: won, lost or banked.
    pub terminated: bool,
    /// The episode reached its step limit without ending.
    pub truncated: bool,
    /// The action was refused: nothing changed.
    pub refused: bool,
}

/// A rectangle of the view cache, in rows from the top and columns: `[x0, x1) × [r0, r1)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    x0: usize,
    x1: usize,
    r0: usize,
    r1: usize,
}

/// The view of a grid game (classic or run), kept from step to step.
#[derive(Debug, Clone, Default)]
struct Cache {
    /// Glyphs of the whole floor, row 0 the top row.
    glyphs: Vec<u16>,
    width: usize,
    height: usize,
    /// Whether `glyphs` is the current floor's view.
    valid: bool,
    /// What changed since the arrays were last written: `None` everything.
    dirty: Option<Vec<Span>>,
}

/// One game, played one action at a time (see the module's documentation).
#[derive(Debug, Clone)]
pub struct Game {
    interpreter: Interpreter,
    store: MemoryStore,
    settings: GeneratorSettings,
    mode: GameKind,
    view: ObservedArea,
    travel: bool,
    max_steps: Option<u64>,
    /// The episode's seed.
    seed: u64,
    /// Steps this episode.
    steps: u64,
    /// `R<seed>S` and every key played since, when recorded.
    keys: Option<String>,
    score: u64,
    message: String,
    /// The message's length as last written (its tail is cleared when the next is shorter).
    written_message: usize,
    refused: bool,
    cache: Cache,
    /// An exploration's crop, made each step: its tiles, what was seen, one row of glyphs.
    scratch_tiles: Vec<Tile>,
    scratch_seen: Vec<bool>,
    scratch_line: Vec<u16>,
}

/// `n` as an `i64` stat (saturated).
fn stat(n: impl TryInto<i64>) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

impl Game {
    /// A game at the menu, made with `options` (checked with [`Options::validate`] before).
    /// [`Game::reset`] starts its first episode.
    pub fn new(options: &Options) -> Game {
        Game {
            interpreter: options.game_options().interpreter(),
            store: MemoryStore::default(),
            settings: options.settings,
            mode: options.mode,
            view: options.view,
            travel: options.travel,
            max_steps: options.max_steps,
            seed: 0,
            steps: 0,
            keys: options.record_keys.then(String::new),
            score: 0,
            message: String::new(),
            written_message: usize::MAX,
            refused: false,
            cache: Cache::default(),
            scratch_tiles: Vec::new(),
            scratch_seen: Vec::new(),
            scratch_line: Vec::new(),
        }
    }

    /// Starts an episode on `seed` (taken modulo 2^63, the seeds `byog` accepts): as the keys
    /// `N<seed>S` (`R`, `E`) from the menu.
    ///
    /// # Errors
    /// The world cannot be made (requirements no try met, a LootQuest dungeon that does not
    /// fit): the sentence the game gives; the game is then at the menu.
    pub fn reset(&mut self, seed: u64) -> Result<(), String> {
        let seed = seed % (MAX_SEED + 1);
        let start = format!("{}{seed}S", self.mode.key());
        let mut interpreter = Interpreter::new(
            self.interpreter.width(),
            self.interpreter.height(),
            self.settings,
        )
        .with_floors(self.interpreter.floors())
        .with_explore(self.interpreter.explore_settings());
        for key in start.chars() {
            match interpreter.feed(key, &mut self.store) {
                Ok(Outcome::Reported(r)) => return Err(r.player_message()),
                Ok(_) => {}
                Err(e) => return Err(format!("{start}: {e}")),
            }
        }
        interpreter.forget_history();
        self.interpreter = interpreter;
        self.seed = seed;
        self.steps = 0;
        if let Some(keys) = &mut self.keys {
            keys.clear();
            keys.push_str(&start);
        }
        self.score = self.game().and_then(GameState::score).unwrap_or(0);
        self.message.clear();
        self.refused = false;
        self.cache.valid = false;
        self.rebuild();
        Ok(())
    }

    /// The game being played (`None` before the first [`Game::reset`]).
    pub fn game(&self) -> Option<&GameState> {
        self.interpreter.game()
    }

    /// The episode's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Steps this episode.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The input string of the episode so far (`R42SDDW…`, the keys refused left out):
    /// `byog replay` of it, with the options' flags ([`Options::flags`]), makes the same
    /// game. `None` unless [`Options::record_keys`].
    pub fn episode_keys(&self) -> Option<&str> {
        self.keys.as_deref()
    }

    /// The message after the last action: what the window and the terminal show (a refused
    /// action's reason, the events worth a word), empty for a plain step.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the episode is over: the game ended or the step limit was reached.
    pub fn is_done(&self) -> bool {
        self.game().is_none_or(GameState::has_ended)
            || self.max_steps.is_some_and(|m| self.steps >= m)
    }

    /// Plays action `action` (an index into [`ACTION_KEYS`], below 6, or 8 with the travel
    /// keys): one key fed to the interpreter as `byog agent` feeds a line of one key. A key
    /// the game refuses (a wall is no refusal: a bump is a move that changes nothing; `U`
    /// outside explorations, `X` with nothing to explore, `>` before the exit is seen, any
    /// action once the game has ended) changes nothing and sets [`Stat::Refused`]; the
    /// message says why.
    ///
    /// # Panics
    /// Never for a bad index: an action out of range is refused as well.
    pub fn step(&mut self, action: usize) -> Step {
        self.steps += 1;
        let limit = if self.travel { 8 } else { 6 };
        let before = self.game().map(|g| (g.avatar(), floor_of(g)));
        let playing = matches!(self.interpreter.phase(), Phase::Playing { colon: false });
        let key = ACTION_KEYS.get(action).copied().filter(|_| action < limit);
        let Some(key) = key.filter(|_| playing) else {
            self.refused = true;
            self.message = if playing {
                format!("action {action} is not one of the {limit} actions")
            } else {
                "the game is over: reset to play again".into()
            };
            return self.result(0.0);
        };
        let fresh = self.unvisited_target(key);
        let mut outcome = self.interpreter.feed(key, &mut self.store);
        // `>` in an exploration stops beside the way up and asks (a person answers `Y`):
        // an agent's `>` is its decision, so it answers at once and banks.
        let answered = key == '>' && outcome.is_ok() && self.interpreter.asks_to_bank();
        if answered {
            outcome = self.interpreter.feed('Y', &mut self.store);
        }
        self.refused = match &outcome {
            Ok(Outcome::Reported(r)) => {
                self.message = r.player_message();
                true
            }
            Ok(o) => {
                self.message = feedback(o, Path::new("")).message;
                false
            }
            Err(e) => {
                self.message = e.to_string();
                true
            }
        };
        if self.refused {
            return self.result(0.0);
        }
        self.interpreter.forget_history();
        if let Some(keys) = &mut self.keys {
            keys.push(key);
            if answered {
                keys.push('Y');
            }
        }
        let moved = matches!(outcome, Ok(Outcome::Acted(_)))
            && matches!(Action::from_key(key), Some(Action::Move(_)));
        let now = self.interpreter.game().map(|g| (g.avatar(), floor_of(g)));
        match (before, now) {
            (Some((from, floor)), Some((to, now))) if moved && floor == now && self.cache.valid => {
                self.patch(from, 0);
                let r = if fresh == Some(to) {
                    SIGHT_RADIUS as i32
                } else {
                    0
                };
                self.patch(to, r);
            }
            _ => self.rebuild(),
        }
        let Some(game) = self.interpreter.game() else {
            return self.result(0.0);
        };
        let score = game.score().unwrap_or(0);
        let reward = if game.kind() == GameKind::Classic {
            f64::from(u8::from(game.status() == LevelStatus::Won))
        } else {
            score as f64 - self.score as f64
        };
        self.score = score;
        self.result(reward)
    }

    fn result(&self, reward: f64) -> Step {
        let terminated = self.game().is_some_and(GameState::has_ended);
        Step {
            reward,
            terminated,
            truncated: !terminated && self.max_steps.is_some_and(|m| self.steps >= m),
            refused: self.refused,
        }
    }

    /// The tile move `key` leads to when the avatar never stood there (stepping there makes
    /// it look around): `None` otherwise.
    fn unvisited_target(&self, key: char) -> Option<Pos> {
        let Some(Action::Move(d)) = Action::from_key(key) else {
            return None;
        };
        let game = self.interpreter.game_in_play()?;
        let target = game.avatar() + d;
        let terrain = game.terrain();
        let visited = game.grid()?.visited();
        (terrain.contains(target) && !visited[terrain.index(target)]).then_some(target)
    }

    /// Builds the whole view of a grid game anew (nothing for an exploration).
    fn rebuild(&mut self) {
        let Some(game) = self.interpreter.game() else {
            return;
        };
        let Some(grid) = game.grid() else {
            self.cache.valid = false;
            return;
        };
        let terrain = game.terrain();
        let (w, h) = (terrain.width(), terrain.height());
        let c = &mut self.cache;
        c.width = w;
        c.height = h;
        c.glyphs.clear();
        c.glyphs.resize(w * h, 0);
        c.valid = true;
        c.dirty = None;
        let span = Span {
            x0: 0,
            x1: w,
            r0: 0,
            r1: h,
        };
        draw(c, game, grid, span);
    }

    /// Brings the view up to date in the square of `r` tiles each way round `p`.
    fn patch(&mut self, p: Pos, r: i32) {
        let Some(game) = self.interpreter.game() else {
            return;
        };
        let Some(grid) = game.grid() else {
            return;
        };
        let c = &mut self.cache;
        let (w, h) = (c.width as i32, c.height as i32);
        let (x0, x1) = ((p.x - r).max(0), (p.x + r + 1).min(w));
        let (y0, y1) = ((p.y - r).max(0), (p.y + r + 1).min(h));
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        let span = Span {
            x0: x0 as usize,
            x1: x1 as usize,
            r0: (h - y1) as usize,
            r1: (h - y0) as usize,
        };
        draw(c, game, grid, span);
        if let Some(d) = &mut c.dirty {
            d.push(span);
        }
    }

    /// Writes the observation into `out`. `whole`: the arrays do not hold this game's last
    /// observation (write every entry); else only what changed since is written.
    pub fn write(&mut self, out: &mut Out<'_>, whole: bool) {
        // What the avatar of an exploration sees now (a field of view): once for the stats
        // and the view.
        let sight = self.game().and_then(GameState::explore).map(|e| e.sight());
        if let Some(stats) = out.stats.as_deref_mut() {
            self.write_stats(stats, sight.as_ref());
        }
        if let Some(m) = out.message.as_deref_mut() {
            let bytes = self.message.as_bytes();
            let mut n = bytes.len().min(m.len());
            while n > 0 && !self.message.is_char_boundary(n) {
                n -= 1;
            }
            m[..n].copy_from_slice(&bytes[..n]);
            let old = if whole {
                m.len()
            } else {
                self.written_message.min(m.len())
            };
            if old > n {
                m[n..old].fill(0);
            }
            self.written_message = n;
        }
        let any = out.glyphs.is_some() || out.chars.is_some() || out.colors.is_some();
        if !any {
            self.cache.dirty = Some(Vec::new());
            return;
        }
        match self.view {
            ObservedArea::World => self.write_world(out, whole),
            ObservedArea::Crop { rows, cols } => self.write_crop(out, rows, cols, sight.as_ref()),
        }
    }

    /// The whole world: the cache's rows into the top-left corner of the arrays.
    fn write_world(&mut self, out: &mut Out<'_>, whole: bool) {
        let c = &mut self.cache;
        let cols = self.interpreter.width();
        let rows = self.interpreter.height();
        let spans = match (&c.dirty, whole || !c.valid) {
            (Some(spans), false) => spans.clone(),
            _ => {
                // Every entry: blank, then the floor.
                fill(out, 0..rows * cols, 0);
                vec![Span {
                    x0: 0,
                    x1: c.width.min(cols),
                    r0: 0,
                    r1: c.height.min(rows),
                }]
            }
        };
        if c.valid {
            for s in spans {
                for r in s.r0..s.r1.min(rows) {
                    let x1 = s.x1.min(cols);
                    if s.x0 >= x1 {
                        continue;
                    }
                    let from = &c.glyphs[r * c.width + s.x0..r * c.width + x1];
                    put(out, r * cols + s.x0, from);
                }
            }
        }
        c.dirty = Some(Vec::new());
    }

    /// A `rows × cols` crop centred on the avatar.
    fn write_crop(&mut self, out: &mut Out<'_>, rows: usize, cols: usize, sight: Option<&InSight>) {
        let Some(game) = self.interpreter.game() else {
            fill(out, 0..rows * cols, 0);
            return;
        };
        let a = game.avatar();
        // World rectangle of the crop: x from a.x - cols/2, top row at a.y + rows/2.
        let left = a.x - (cols / 2) as i32;
        let top = a.y + (rows / 2) as i32;
        let bottom = top - rows as i32 + 1;
        if game.grid().is_some() && self.cache.valid {
            let c = &mut self.cache;
            let (w, h) = (c.width as i32, c.height as i32);
            for r in 0..rows {
                let y = top - r as i32;
                let base = r * cols;
                if y < 0 || y >= h {
                    fill(out, base..base + cols, 0);
                    continue;
                }
                let row = (h - 1 - y) as usize * c.width;
                let (x0, x1) = (left.max(0), (left + cols as i32).min(w));
                if x0 >= x1 {
                    fill(out, base..base + cols, 0);
                    continue;
                }
                let (c0, c1) = ((x0 - left) as usize, (x1 - left) as usize);
                fill(out, base..base + c0, 0);
                put(
                    out,
                    base + c0,
                    &c.glyphs[row + x0 as usize..row + x1 as usize],
                );
                fill(out, base + c1..base + cols, 0);
            }
            c.dirty = Some(Vec::new());
            return;
        }
        // An exploration: the tiles of the crop's part of the map's frame, in one pass over
        // the rooms under it (their tiles and features, the way up), the monsters in sight
        // and the avatar over them, then the tiles never seen blanked: what
        // `GameState::compose_seen` draws, at a room lookup a plot rather than a tile.
        fill(out, 0..rows * cols, 0);
        let Some(e) = game.explore() else {
            return;
        };
        let area = Rect::new(left, bottom, cols as i32, rows as i32).intersection(&game.rect());
        if area.width <= 0 || area.height <= 0 {
            return;
        }
        let o = game.origin();
        let dungeon = Rect::new(area.x + o.x, area.y + o.y, area.width, area.height);
        let (w, n) = (area.width as usize, area.area() as usize);
        let (tiles, seen) = (&mut self.scratch_tiles, &mut self.scratch_seen);
        tiles.clear();
        tiles.resize(n, Tile::Nothing);
        seen.clear();
        seen.resize(n, false);
        e.paint_into(dungeon, tiles);
        e.seen_into(dungeon, seen);
        let index = |p: Pos| (p.y - dungeon.y) as usize * w + (p.x - dungeon.x) as usize;
        if let Some(sight) = sight {
            for m in e.monsters() {
                if dungeon.contains(m.pos) && sight.contains(m.pos) {
                    tiles[index(m.pos)] = m.kind.stats().tile;
                }
            }
        }
        if dungeon.contains(e.avatar()) {
            tiles[index(e.avatar())] = Tile::Player;
        }
        let line = &mut self.scratch_line;
        for y in 0..area.height as usize {
            line.clear();
            line.extend(
                tiles[y * w..(y + 1) * w]
                    .iter()
                    .zip(&seen[y * w..(y + 1) * w])
                    .map(|(t, &s)| if s { u16::from(t.id()) } else { 0 }),
            );
            let r = (top - (area.y + y as i32)) as usize;
            let c0 = (area.x - left) as usize;
            put(out, r * cols + c0, line);
        }
    }

    fn write_stats(&self, s: &mut [i64], sight: Option<&InSight>) {
        s.fill(-1);
        let Some(game) = self.game() else {
            return;
        };
        let set = |s: &mut [i64], k: Stat, v: i64| s[k as usize] = v;
        let mode = match game.kind() {
            GameKind::Classic => 0,
            GameKind::Run => 1,
            GameKind::Exploration => 2,
        };
        set(s, Stat::Mode, mode);
        let explore = game.explore();
        set(
            s,
            Stat::Status,
            match game.status() {
                LevelStatus::Playing => 0,
                LevelStatus::Won if explore.is_some() => 3,
                LevelStatus::Won => 1,
                LevelStatus::Lost => 2,
            },
        );
        let a = game.avatar();
        set(s, Stat::X, i64::from(a.x));
        set(s, Stat::Y, i64::from(a.y));
        set(s, Stat::Moves, stat(game.moves()));
        set(s, Stat::Score, stat(game.score().unwrap_or(0)));
        let exit = game.exit();
        if game.has_seen(exit) {
            set(s, Stat::ExitX, i64::from(exit.x));
            set(s, Stat::ExitY, i64::from(exit.y));
        }
        set(s, Stat::RoomX, 0);
        set(s, Stat::RoomY, 0);
        set(s, Stat::Monsters, 0);
        set(s, Stat::Loss, 0);
        let rect = game.rect();
        set(s, Stat::WorldWidth, i64::from(rect.width));
        set(s, Stat::WorldHeight, i64::from(rect.height));
        set(s, Stat::Steps, stat(self.steps));
        set(s, Stat::Refused, i64::from(self.refused));
        set(s, Stat::Seed, stat(self.seed));
        if let Some(r) = game.run() {
            let all = game.features();
            let count = |kind| all.iter().filter(|f| f.kind == kind).count() as i64;
            let weights = run::weights(&all);
            set(s, Stat::Health, i64::from(r.health));
            set(s, Stat::MovesLeft, stat(r.moves_left));
            set(s, Stat::Floor, i64::from(r.floor));
            set(s, Stat::Floors, i64::from(r.floors));
            set(s, Stat::PerfectFloors, i64::from(r.perfect_floors));
            set(s, Stat::ChestsTotal, count(FeatureKind::Chest));
            set(s, Stat::TrapsTotal, count(FeatureKind::Trap));
            let pays = |kind| stat(run::feature_moves(&r.info, weights, kind));
            set(s, Stat::ChestMoves, pays(FeatureKind::Chest));
            set(s, Stat::TrapMoves, pays(FeatureKind::Trap));
            set(
                s,
                Stat::Loss,
                match r.loss {
                    None => 0,
                    Some(Loss::OutOfMoves) => 1,
                    Some(Loss::OutOfHealth) => 2,
                },
            );
        }
        if let Some(e) = explore {
            set(s, Stat::Health, i64::from(e.health()));
            let room = e.room();
            set(s, Stat::Depth, i64::from(byog_game::explore::depth(room)));
            set(s, Stat::Potions, i64::from(e.potions()));
            set(s, Stat::RoomX, i64::from(room.x));
            set(s, Stat::RoomY, i64::from(room.y));
            set(s, Stat::Branch, e.branch().map_or(-1, i64::from));
            let seen = |p| sight.is_some_and(|v| v.contains(p));
            set(
                s,
                Stat::Monsters,
                e.monsters().filter(|m| seen(m.pos)).count() as i64,
            );
            let killed = matches!(e.end(), Some(ExploreEnd::Lost { .. }))
                .then(|| e.killed_by())
                .flatten();
            set(
                s,
                Stat::Loss,
                killed.map_or(0, |k| i64::from(k.stats().tile.id())),
            );
        }
    }
}

/// Which game and floor a view shows.
fn floor_of(game: &GameState) -> (GameKind, u64, u32) {
    (game.kind(), game.seed(), game.run().map_or(0, |r| r.floor))
}

/// Draws `span` of a grid game's view into the cache: the terrain where seen, then the
/// things seen there in the compose step's order (the chests and traps, the exit's door,
/// the avatar).
fn draw(c: &mut Cache, game: &GameState, grid: &GridBoard, span: Span) {
    let terrain = game.terrain();
    let (tiles, seen) = (terrain.tiles(), grid.seen());
    let (w, h) = (c.width, c.height);
    for r in span.r0..span.r1 {
        let y = h - 1 - r;
        let out = &mut c.glyphs[r * w + span.x0..r * w + span.x1];
        let from = y * w + span.x0..y * w + span.x1;
        for ((g, &t), &s) in out.iter_mut().zip(&tiles[from.clone()]).zip(&seen[from]) {
            *g = if s { u16::from(t.id()) } else { 0 };
        }
    }
    let inside = |p: Pos| {
        p.x >= span.x0 as i32
            && p.x < span.x1 as i32
            && p.y >= (h - span.r1) as i32
            && p.y < (h - span.r0) as i32
    };
    let mut put = |p: Pos, t: Tile| {
        if inside(p) {
            let (x, y) = (p.x as usize, p.y as usize);
            if seen[y * w + x] {
                c.glyphs[(h - 1 - y) * w + x] = u16::from(t.id());
            }
        }
    };
    for f in game.features().iter() {
        put(f.pos, f.tile());
    }
    let exit = game.exit();
    if let Some(door) = game.tile_at(exit) {
        put(exit, door);
    }
    put(game.avatar(), Tile::Player);
}

/// Writes glyph `g` (and its character and colour) into entries `range` of `out`.
fn fill(out: &mut Out<'_>, range: std::ops::Range<usize>, g: u16) {
    if range.is_empty() {
        return;
    }
    let (chars, colors) = (&*CHAR_OF_GLYPH, &*COLOR_OF_GLYPH);
    if let Some(a) = out.glyphs.as_deref_mut() {
        a[range.clone()].fill(g);
    }
    if let Some(a) = out.chars.as_deref_mut() {
        a[range.clone()].fill(chars[g as usize]);
    }
    if let Some(a) = out.colors.as_deref_mut() {
        a[range].fill(colors[g as usize]);
    }
}

/// Writes `glyphs` (and their characters and colours) into `out` from entry `at` on.
fn put(out: &mut Out<'_>, at: usize, glyphs: &[u16]) {
    let range = at..at + glyphs.len();
    let (chars, colors) = (&*CHAR_OF_GLYPH, &*COLOR_OF_GLYPH);
    if let Some(a) = out.glyphs.as_deref_mut() {
        a[range.clone()].copy_from_slice(glyphs);
    }
    if let Some(a) = out.chars.as_deref_mut() {
        for (c, &g) in a[range.clone()].iter_mut().zip(glyphs) {
            *c = chars[g as usize];
        }
    }
    if let Some(a) = out.colors.as_deref_mut() {
        for (c, &g) in a[range].iter_mut().zip(glyphs) {
            *c = colors[g as usize];
        }
    }
}
