//! Programs that play (`docs/agent.md`): a game driven by strings of keys, each answered with
//! an [`Observation`], what the player sees after those keys and nothing more. `byog agent`
//! speaks this over JSON lines ([`serve`]); Rust programs use [`Agent`] in process and get the
//! very same observations.
//!
//! Keys go to the one [`Interpreter`], as `byog replay` feeds them, under strict rules: a
//! line of keys is played whole or not at all. If the interpreter ignores or refuses any key
//! of it (an unknown key, a move after the game ended, a `:` not followed by `Q`), or `L`
//! finds no save, or a key fails (a damaged save, a world that cannot be made), the line is
//! answered with an [`AgentError`] and the game stays as it was before the line. An agent
//! never writes a save: `:Q` is refused the same way, and so is a line that ends with a lone
//! `:` (it would wait for that `Q`); `L` reads the save folder's `save.bin`, if it was given
//! one. A line may end in seed entry (`"R4"`, then `"2S"`).
//!
//! The observation of the keys played since the last reset is, byte for byte, the JSON that
//! `byog replay --format json --view sight KEYS` prints: both come from
//! [`Observation::of`] and [`Observation::to_json`].

use std::cell::RefCell;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

use byog_game::action::Action;
use byog_game::board::GridBoard;
use byog_game::explore::play::ExploreEnd;
use byog_game::explore::{self, BranchId, ExploreSettings, Monster, MonsterKind, RoomPos};
use byog_game::game::{GameKind, GameState, HEIGHT, LevelStatus, SIGHT_RADIUS, WIDTH};
use byog_game::interpreter::{
    BACKSPACE, ESCAPE, InterpretError, Interpreter, Outcome, Phase, PhaseKind, Refusal, Refused,
    key_name,
};
use byog_game::run::{self, Feature, FeatureKind, Loss};
use byog_game::save::{DEFAULT_SLOT, FileStore, SaveError, SaveStore};
use byog_tile_engine::{Pos, Tile, World};
use byog_worlds::generator::GeneratorSettings;

/// The observation with no game (at the menu, or in seed entry before the first game): the
/// same object `byog replay --format json` prints then, with or without `--view sight`.
pub const MENU_JSON: &str = r#"{"avatar":null,"exit":null,"height":null,"mode":"menu","moves":0,"rows":[],"seed":null,"status":null,"width":null}"#;

/// The longest line [`serve`] reads, in bytes (16 MiB: some 16 million keys); a longer line
/// is answered with an error and skipped.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// What new games are made with, as the common flags of the command line give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentOptions {
    /// Width of new worlds in tiles (a run's largest floor), 5..=16384; default 80.
    pub width: usize,
    /// Height of new worlds in tiles, 5..=16384; default 30.
    pub height: usize,
    /// The generator's parameters and requirements.
    pub settings: GeneratorSettings,
    /// Floors in a run, 1..=99; default 10.
    pub floors: u32,
    /// An exploration's `--max-unexplored` and `--branch-timer`.
    pub explore: ExploreSettings,
    /// The folder whose slot `L` loads; `None`: `L` finds no save. Never written.
    pub save_dir: Option<PathBuf>,
    /// The slot `L` loads from `save_dir`: `save_dir/SLOT.bin` (`--slot`; 1 to 32 letters,
    /// digits, `-` or `_`); default `save`. A name that is no slot name makes `L` fail with
    /// an error naming it.
    pub slot: String,
    /// Whether the agent keeps the keys played since the last reset ([`Agent::keys`]), one
    /// byte a key; default `false`, so a session's memory does not grow with its keys.
    pub record_keys: bool,
}

impl Default for AgentOptions {
    /// 80 × 30 worlds, the default generator, runs of 10 floors, the default explorations,
    /// no save folder (slot `save`), no keys recorded.
    fn default() -> Self {
        AgentOptions {
            width: WIDTH,
            height: HEIGHT,
            settings: GeneratorSettings::default(),
            floors: run::DEFAULT_FLOORS,
            explore: ExploreSettings::default(),
            save_dir: None,
            slot: DEFAULT_SLOT.to_owned(),
            record_keys: false,
        }
    }
}

/// Why a line of keys was not played. The game is as it was before the line.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The interpreter ignored or refused a key (strict rules: the whole line is refused).
    /// `position` counts characters from the line's start (0-based).
    #[error("key {} at position {position} of the line was refused: {}; the line was not played", key_name(*.key), refusal_text(*.reason))]
    Refused {
        /// The key.
        key: char,
        /// Its 0-based position in the line.
        position: usize,
        /// Why, in a player's words.
        reason: Refusal,
    },
    /// The line ends with a `:`, which waits for a `Q` to save, and an agent never saves.
    #[error(
        "the line ends with a ':', which waits for Q to save, and an agent session never saves; the line was not played"
    )]
    LoneColon,
    /// `L` found no save (or the agent has no save folder).
    #[error(
        "key 'L' at position {position} of the line found no save to load; the line was not played"
    )]
    NoSave {
        /// The 0-based position of the `L` in the line.
        position: usize,
    },
    /// `:Q`: an agent never saves.
    #[error(
        "key 'Q' at position {position} of the line would save: an agent session never saves (send {{\"reset\": KEYS}} to start again); the line was not played"
    )]
    SavingOff {
        /// The 0-based position of the `Q` in the line.
        position: usize,
    },
    /// A key could not be carried out: a damaged save on `L`, a world that cannot be made.
    #[error("key {} at position {position} of the line failed: {source}; the line was not played", key_name(*.key))]
    Failed {
        /// The key.
        key: char,
        /// Its 0-based position in the line.
        position: usize,
        /// What failed.
        source: InterpretError,
    },
}

/// Why a key was refused, in a player's words; for a dropped colon, in an agent's.
fn refusal_text(reason: Refusal) -> String {
    match reason {
        Refusal::ColonDropped => {
            "a colon waits for Q, which saves, and an agent session never saves".into()
        }
        other => other.to_string(),
    }
}

impl AgentError {
    /// The error object of the protocol: `{"error": "<message>"}`.
    pub fn to_json(&self) -> String {
        error_json(&self.to_string())
    }
}

/// `{"error": message}`, as one line of JSON.
pub fn error_json(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

/// The agent's save store: `L` reads the slot of the save folder (once a session: every
/// later load sees that same game), and a save is refused.
#[derive(Debug)]
struct ReadOnlyStore {
    /// The slot's file, or why the slot name is none.
    file: Option<Result<FileStore, (PathBuf, String)>>,
    loaded: RefCell<Option<Option<GameState>>>,
    save_refused: bool,
}

impl ReadOnlyStore {
    fn new(dir: Option<&PathBuf>, slot: &str) -> Self {
        ReadOnlyStore {
            file: dir.map(|d| FileStore::slot(d, slot).map_err(|why| (d.join(slot), why))),
            loaded: RefCell::new(None),
            save_refused: false,
        }
    }
}

impl SaveStore for ReadOnlyStore {
    fn load(&self) -> Result<Option<GameState>, SaveError> {
        if let Some(game) = &*self.loaded.borrow() {
            return Ok(game.clone());
        }
        let game = match &self.file {
            Some(Ok(file)) => file.load()?,
            Some(Err((path, why))) => {
                return Err(SaveError::Read {
                    path: path.clone(),
                    source: io::Error::new(io::ErrorKind::InvalidInput, why.clone()),
                });
            }
            None => None,
        };
        *self.loaded.borrow_mut() = Some(game.clone());
        Ok(game)
    }

    fn save(&mut self, _game: &GameState) -> Result<(), SaveError> {
        self.save_refused = true;
        Err(SaveError::Write {
            path: self.location(),
            source: io::Error::other("an agent session never saves"),
        })
    }

    fn location(&self) -> PathBuf {
        match &self.file {
            Some(Ok(file)) => file.location(),
            Some(Err((path, _))) => path.clone(),
            None => PathBuf::new(),
        }
    }

    fn has_save(&self) -> bool {
        match &*self.loaded.borrow() {
            Some(game) => game.is_some(),
            None => matches!(&self.file, Some(Ok(file)) if file.has_save()),
        }
    }
}

/// A game played by a program: keys in, [`Observation`]s out.
///
/// ```
/// use byog_players::agent::{Agent, AgentOptions};
/// let mut agent = Agent::new(AgentOptions::default());
/// let start = agent.reset("R42S").unwrap();
/// let sight = start.game.as_ref().unwrap();
/// assert_eq!(sight.run.unwrap().floor, 1);
/// let after = agent.step("D").unwrap();
/// assert!(after.to_json().starts_with("{\"avatar\":"));
/// assert!(agent.step("Z").is_err()); // not a key: refused, the game unchanged
/// assert_eq!(agent.observe(), after);
/// ```
///
/// Memory: the game, a copy of its view (a byte a tile) and, for a line that could be
/// refused after some of its keys were played, a copy of the game taken before the line; no
/// log of the keys (unless [`AgentOptions::record_keys`]) nor of the game's actions, so a
/// session's memory stays flat however many keys it plays.
#[derive(Debug)]
pub struct Agent {
    options: AgentOptions,
    interpreter: Interpreter,
    store: ReadOnlyStore,
    /// Every key played since the last reset, when [`AgentOptions::record_keys`] asks for
    /// them: `byog replay` of them gives this state.
    keys: Option<String>,
    /// The view of a grid game as of the last observation, kept up to date a patch at a
    /// time.
    view: ViewCache,
    /// Keys of the last line left unplayed after its game ended.
    unplayed: usize,
}

impl Agent {
    /// An agent at the menu (no game yet) that makes new games with `options`. Sizes or
    /// settings out of range are reported when a game is started (`S`), as an error.
    pub fn new(options: AgentOptions) -> Agent {
        let store = ReadOnlyStore::new(options.save_dir.as_ref(), &options.slot);
        Agent {
            interpreter: interpreter_for(&options),
            keys: options.record_keys.then(String::new),
            options,
            store,
            view: ViewCache::default(),
            unplayed: 0,
        }
    }

    /// The options games are made with.
    pub fn options(&self) -> &AgentOptions {
        &self.options
    }

    /// The keys played since the last reset (the reset's own keys first), when
    /// [`AgentOptions::record_keys`] asked for them (else empty): `byog replay --format json
    /// --view sight` of them prints [`Agent::observe`]'s JSON. Keys a line left unplayed
    /// after its game ended are not among them.
    pub fn keys(&self) -> &str {
        self.keys.as_deref().unwrap_or_default()
    }

    /// What the player sees now (with no keys unplayed).
    pub fn observe(&self) -> Observation {
        match (
            self.view.current(&self.interpreter),
            self.interpreter.game(),
        ) {
            (Some(view), Some(game)) => Observation {
                game: Some(Sight::with_view(game, view.clone())),
                unplayed: 0,
            },
            _ => Observation::of(&self.interpreter),
        }
    }

    /// Starts afresh from the menu (a new interpreter, the save folder read anew) and plays
    /// `keys`, e.g. `"R42S"`.
    ///
    /// # Errors
    /// [`AgentError`] when a key of `keys` is refused or fails; the agent then goes on with
    /// the game it had before the reset.
    pub fn reset(&mut self, keys: &str) -> Result<Observation, AgentError> {
        let mut fresh = Agent::new(self.options.clone());
        fresh.play(keys)?;
        *self = fresh;
        Ok(self.observation())
    }

    /// Plays `keys` (any number, e.g. `"D"` or `"WWAS"`) and observes the result; when the
    /// game ended before the last key, the keys after the one that ended it are left
    /// unplayed and [`Observation::unplayed`] counts them.
    ///
    /// # Errors
    /// [`AgentError`] when a key is refused or fails; the game is then as it was before.
    pub fn step(&mut self, keys: &str) -> Result<Observation, AgentError> {
        self.play(keys)?;
        Ok(self.observation())
    }

    /// The observation after the last line, its view brought up to date from the tiles that
    /// may have changed since the one before (the patches of sight round the avatar's tiles;
    /// the whole view after anything but moves).
    fn observation(&mut self) -> Observation {
        let unplayed = self.unplayed;
        let Some(game) = self.interpreter.game() else {
            return Observation {
                game: None,
                unplayed,
            };
        };
        let game = match self.view.update(game) {
            Some(view) => Sight::with_view(game, view.clone()),
            None => Sight::of(game),
        };
        Observation {
            game: Some(game),
            unplayed,
        }
    }

    /// Plays `keys` without building an observation (see [`Agent::step`]).
    ///
    /// Keys are fed to the interpreter one by one. A refused line is undone at no cost when
    /// its first key is refused (a refused key changes nothing), and otherwise by restoring a
    /// copy of the game taken before the line; a line that cannot be refused after its first
    /// key (one key, or only moves in a game in play) takes no copy. When the game ends
    /// (won or lost) before the line's last key, the keys after the one that ended it are
    /// left unplayed ([`Observation::unplayed`] counts them), unless one of them is no key at
    /// all (docs/keys.md): then the whole line is refused.
    ///
    /// # Errors
    /// As [`Agent::step`].
    pub fn play(&mut self, keys: &str) -> Result<(), AgentError> {
        self.unplayed = 0;
        let before = self.interpreter.phase();
        let start = self.interpreter.position();
        let moves_only = matches!(before, Phase::Playing { colon: false })
            && keys
                .chars()
                .all(|k| matches!(Action::from_key(k), Some(Action::Move(_))));
        let refusable = keys.contains(':') || (keys.chars().nth(1).is_some() && !moves_only);
        let snapshot = refusable.then(|| self.interpreter.clone());
        if !keys.is_empty() {
            self.view.touched(&self.interpreter, None);
        }
        let mut played = keys.len();
        for (position, (at, key)) in keys.char_indices().enumerate() {
            let playing = matches!(self.interpreter.phase(), Phase::Playing { .. });
            let fresh = ViewCache::unvisited_target(&self.interpreter, key);
            let outcome = self.interpreter.feed(key, &mut self.store);
            let note = self.interpreter.take_note();
            let moved = matches!(outcome, Ok(Outcome::Acted(_)))
                && matches!(Action::from_key(key), Some(Action::Move(_)));
            let error = match (note, outcome) {
                // A line never leaves a colon pending, so a dropped one is in this line.
                (Some(note), _) => Some(AgentError::Refused {
                    key: note.key,
                    position: note.position.saturating_sub(start),
                    reason: note.reason,
                }),
                (None, Ok(Outcome::Reported(Refused { key, reason, .. }))) => {
                    Some(AgentError::Refused {
                        key,
                        position,
                        reason,
                    })
                }
                (None, Ok(Outcome::NoSave)) => Some(AgentError::NoSave { position }),
                (None, Ok(_)) => None,
                (None, Err(_)) if self.store.save_refused => {
                    Some(AgentError::SavingOff { position })
                }
                (None, Err(source)) => Some(AgentError::Failed {
                    key,
                    position,
                    source,
                }),
            };
            if let Some(error) = error {
                if position > 0 || self.interpreter.phase() != before {
                    self.restore(snapshot);
                }
                self.store.save_refused = false;
                self.view.forget();
                return Err(error);
            }
            if moved {
                self.view.touched(&self.interpreter, fresh);
            } else {
                self.view.forget();
            }
            if playing && matches!(self.interpreter.phase(), Phase::Ended { .. }) {
                // The game ended: the rest of the line is left unplayed, if it is keys.
                let rest = &keys[at + key.len_utf8()..];
                if let Some((k, c)) = rest.chars().enumerate().find(|&(_, c)| !is_key(c)) {
                    self.restore(snapshot);
                    self.view.forget();
                    return Err(AgentError::Refused {
                        key: c,
                        position: position + 1 + k,
                        reason: Refusal::UnknownKey(PhaseKind::Ended),
                    });
                }
                self.unplayed = rest.chars().count();
                played = at + key.len_utf8();
                break;
            }
        }
        if let Phase::Playing { colon: true } | Phase::Ended { colon: true } =
            self.interpreter.phase()
        {
            self.restore(snapshot);
            self.view.forget();
            return Err(AgentError::LoneColon);
        }
        if let Some(record) = &mut self.keys {
            record.push_str(&keys[..played]);
        }
        // The agent never saves: the game's own record of its actions is not needed.
        self.interpreter.forget_history();
        Ok(())
    }

    /// Puts the interpreter back as it was before a refused line.
    fn restore(&mut self, snapshot: Option<Interpreter>) {
        debug_assert!(
            snapshot.is_some(),
            "a line that can be refused after its first key takes a copy first"
        );
        if let Some(interpreter) = snapshot {
            self.interpreter = interpreter;
        }
        self.store.save_refused = false;
    }
}

/// Whether `c` is a key of input strings in some state (`docs/keys.md`): the letters N R E
/// L Q S W A D U X, the digits, `>`, `:`, Backspace and Esc, in either case.
fn is_key(c: char) -> bool {
    matches!(
        c.to_ascii_uppercase(),
        'N' | 'R' | 'E' | 'L' | 'Q' | 'S' | 'W' | 'A' | 'D' | 'U' | 'X' | '0'..='9' | '>' | ':'
    ) || c == BACKSPACE
        || c == ESCAPE
}

/// The view of a grid game (a classic game or a run's floor) kept from one observation to
/// the next, and what may have changed in it since: the view shows every tile seen as it is
/// now, and between two observations only moves change it: at the tile the avatar left, at
/// the one it reached (a chest or trap changes only under the avatar) and, when it reached a
/// tile it never stood on, in the patch of sight round it (all a look from a new tile can
/// mark as seen), and at the exit (its door opens on a win). Anything else (a new game or
/// floor, a load, travel, an undone line) makes it build the whole view again.
#[derive(Debug, Clone, Default)]
struct ViewCache {
    /// The view as of the last observation (`None` when there is none to build on).
    view: Option<World>,
    /// The game and floor it shows: kind, seed, the run's floor.
    floor: (Option<GameKind>, u64, u32),
    /// The avatar's tiles since the view was built, where it may have changed, each with
    /// whether the avatar looked around from it then (its patch of sight may have changed);
    /// `None` when all of the view may have.
    near: Option<Vec<(Pos, bool)>>,
}

/// The most tiles round which a view is brought up to date a patch at a time: a longer line
/// of moves builds the whole view again.
const MOST_PATCHES: usize = 8;

impl ViewCache {
    /// The tile move `key` of the game in play leads to, when the avatar never stood on it
    /// (stepping there makes it look around): `None` otherwise.
    fn unvisited_target(interpreter: &Interpreter, key: char) -> Option<Pos> {
        let Some(Action::Move(d)) = Action::from_key(key) else {
            return None;
        };
        let game = interpreter.game_in_play()?;
        let target = game.avatar() + d;
        let terrain = game.terrain();
        let visited = game.grid()?.visited();
        (terrain.contains(target) && !visited[terrain.index(target)]).then_some(target)
    }

    /// Notes the avatar's tile (before or after a move) as one where the view may change;
    /// `fresh`: the tile the move led to when the avatar had never stood there.
    fn touched(&mut self, interpreter: &Interpreter, fresh: Option<Pos>) {
        let avatar = interpreter.game_in_play().filter(|g| g.grid().is_some());
        match (&mut self.near, avatar) {
            (Some(near), Some(game)) if near.len() < MOST_PATCHES => {
                let at = game.avatar();
                near.push((at, fresh == Some(at)));
            }
            _ => self.forget(),
        }
    }

    /// Anything may have changed: the next observation builds the whole view.
    fn forget(&mut self) {
        self.near = None;
    }

    /// The view, when it is up to date with `interpreter`'s game.
    fn current(&self, interpreter: &Interpreter) -> Option<&World> {
        let game = interpreter.game()?;
        let clean = self.near.as_ref().is_some_and(Vec::is_empty);
        (clean && self.floor == floor_of(game))
            .then_some(self.view.as_ref())
            .flatten()
    }

    /// Brings the view up to date with `game` and returns it; `None` for an exploration
    /// (whose view is built whole each time).
    fn update(&mut self, game: &GameState) -> Option<&World> {
        let Some(grid) = game.grid() else {
            self.forget();
            self.view = None;
            return None;
        };
        let floor = floor_of(game);
        match (&mut self.view, self.near.take()) {
            (Some(view), Some(near)) if self.floor == floor => {
                for (p, looked) in near {
                    let r = if looked { SIGHT_RADIUS as i32 } else { 0 };
                    refresh_patch(view, game, grid, p, r);
                }
                draw_things(view, game, grid);
            }
            _ => self.view = Some(grid_view(game, grid)),
        }
        self.floor = floor;
        self.near = Some(Vec::with_capacity(MOST_PATCHES));
        self.view.as_ref()
    }
}

/// Which game and floor a view shows.
fn floor_of(game: &GameState) -> (Option<GameKind>, u64, u32) {
    (
        Some(game.kind()),
        game.seed(),
        game.run().map_or(0, |r| r.floor),
    )
}

/// The view of a grid game, whole: its terrain where seen (one pass over the terrain and the
/// floor's memory, a byte each a tile), then the things seen ([`draw_things`]). The same as
/// [`GameState::compose_seen`] of the whole world.
fn grid_view(game: &GameState, grid: &GridBoard) -> World {
    let terrain = game.terrain();
    let tiles: Vec<Tile> = terrain
        .tiles()
        .iter()
        .zip(grid.seen())
        .map(|(&t, &seen)| if seen { t } else { Tile::Nothing })
        .collect();
    let (w, h) = (terrain.width(), terrain.height());
    let mut view = World::from_tiles(w, h, tiles).unwrap_or_else(|| World::new(w, h));
    draw_things(&mut view, game, grid);
    view
}

/// The terrain where seen in the square of `r` tiles each way round `p` (inside the world):
/// the patch of sight of a look from `p` for [`SIGHT_RADIUS`], the tile alone for 0.
fn refresh_patch(view: &mut World, game: &GameState, grid: &GridBoard, p: Pos, r: i32) {
    let terrain = game.terrain();
    let (w, h) = (terrain.width() as i32, terrain.height() as i32);
    let (x0, x1) = ((p.x - r).max(0), (p.x + r + 1).min(w));
    if x0 >= x1 {
        return;
    }
    let (tiles, seen) = (terrain.tiles(), grid.seen());
    let out = view.tiles_mut();
    for y in (p.y - r).max(0)..(p.y + r + 1).min(h) {
        let row = (y * w + x0) as usize..(y * w + x1) as usize;
        for ((v, &t), &s) in out[row.clone()]
            .iter_mut()
            .zip(&tiles[row.clone()])
            .zip(&seen[row])
        {
            *v = if s { t } else { Tile::Nothing };
        }
    }
}

/// The things of a grid game over its view, where seen, in the compose step's order: the
/// chests and traps, the exit's door, the avatar.
fn draw_things(view: &mut World, game: &GameState, grid: &GridBoard) {
    let seen = grid.seen();
    let mut draw = |p: Pos, t: Tile| {
        if view.contains(p) {
            let i = view.index(p);
            if seen[i] {
                view.tiles_mut()[i] = t;
            }
        }
    };
    for f in game.features().iter() {
        draw(f.pos, f.tile());
    }
    let exit = game.exit();
    if let Some(door) = game.tile_at(exit) {
        draw(exit, door);
    }
    draw(game.avatar(), Tile::Player);
}

/// A fresh interpreter at the menu for `options`.
fn interpreter_for(options: &AgentOptions) -> Interpreter {
    Interpreter::new(options.width, options.height, options.settings)
        .with_floors(options.floors)
        .with_explore(options.explore)
}

/// What the player sees: the game in play (or the last one played), in sight; `game` is
/// `None` when no game was started or loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    /// The game as seen, or `None` at the menu.
    pub game: Option<Sight>,
    /// Keys of the line left unplayed because the game ended before them (0 but for the
    /// answer to such a line; the JSON's `unplayed`, written only when not 0).
    pub unplayed: usize,
}

/// A game as its player sees it: the tiles seen, where the avatar stands, the exit and the
/// features once seen, and the HUD's numbers. Never a tile that was not seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sight {
    /// Classic (`N`), run (`R`) or exploration (`E`).
    pub kind: GameKind,
    /// The seed typed after `N`, `R` or `E`.
    pub seed: u64,
    /// Playing, won or lost.
    pub status: LevelStatus,
    /// The world as seen: the size of the world (a run's current floor, an exploration's
    /// frame), every tile seen on this floor (in an exploration, in the rooms of the
    /// avatar's map) drawn as it is now, every other tile [`Tile::Nothing`]. `(0, 0)` is the
    /// bottom-left tile.
    pub view: World,
    /// The avatar's tile.
    pub avatar: Pos,
    /// The exit door's tile (an exploration's way up), once seen.
    pub exit: Option<Pos>,
    /// Steps taken since the game started (bumps are not steps).
    pub moves: u64,
    /// The chests and traps seen, row by row from the bottom (none in a classic game).
    pub features: Vec<Feature>,
    /// A run's numbers.
    pub run: Option<RunHud>,
    /// An exploration's numbers.
    pub explore: Option<ExploreHud>,
}

/// A run's numbers, as its HUD and end screens show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunHud {
    /// The current floor, 1-based (B1 = 1).
    pub floor: u32,
    /// Floors in the run.
    pub floors: u32,
    /// Hearts left (3 at the start).
    pub health: u32,
    /// Points so far.
    pub score: u64,
    /// Moves left before the run is lost.
    pub moves_left: u64,
    /// Floors left with every feature handled.
    pub perfect_floors: u32,
    /// Chests on this floor, seen or not (the HUD's `chests 2/4` total).
    pub chests_total: u32,
    /// Traps on this floor, seen or not (the HUD's `traps 1/2` total).
    pub traps_total: u32,
    /// Moves a chest of this floor pays the first time it is refilled (the HUD's
    /// `chest +24`; [`byog_game::run::feature_moves`]).
    pub chest_moves: u64,
    /// Moves a trap of this floor pays the first time it is rearmed (the HUD's `trap +8`).
    pub trap_moves: u64,
    /// Why the run was lost, once it is.
    pub loss: Option<Loss>,
}

/// An exploration's numbers, as its HUD and end screen show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExploreHud {
    /// Hearts left (3 at the start).
    pub health: u32,
    /// Points gathered.
    pub score: u64,
    /// The branch whose map the avatar is in; `None` in the start room.
    pub branch: Option<BranchId>,
    /// The avatar's room, in rooms (`[0, 0]` the start room).
    pub room: RoomPos,
    /// That room's depth.
    pub depth: u32,
    /// The dungeon tile of the view's `(0, 0)`: view tile `(x, y)` is dungeon tile
    /// `(x + origin.x, y + origin.y)`.
    pub origin: Pos,
    /// Banked or lost, once ended.
    pub end: Option<ExploreEnd>,
    /// Potions carried.
    pub potions: u32,
    /// The monsters the avatar sees now, by id, at view positions.
    pub monsters: Vec<Monster>,
    /// What took the last heart, once something did.
    pub killed_by: Option<MonsterKind>,
}

impl Observation {
    /// What the player of `interpreter`'s game (in play, or the last one played) sees.
    pub fn of(interpreter: &Interpreter) -> Observation {
        Observation {
            game: interpreter.game().map(Sight::of),
            unplayed: 0,
        }
    }

    /// The observation as one line of JSON (no newline): `byog replay --format json --view
    /// sight` prints exactly this. Keys in alphabetical order; `docs/json.md` lists them.
    pub fn to_json(&self) -> String {
        let mut out = Vec::with_capacity(self.game.as_ref().map_or(128, |g| {
            g.view.width() * g.view.height() * 2 + 64 * g.features.len() + 256
        }));
        self.write_json(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Appends [`Observation::to_json`] to `out` (no newline), allocating nothing else but
    /// one row's buffer.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        match &self.game {
            None => out.extend_from_slice(MENU_JSON.as_bytes()),
            Some(sight) => {
                let mut ser = serde_json::Serializer::new(out);
                // Writing into memory cannot fail, and every key is a string.
                let _ = SightJson::of(sight, self.unplayed).serialize(&mut ser);
            }
        }
    }

    /// The rows of the view as text (top row first, never-seen tiles as spaces): the JSON's
    /// `rows`, and `byog replay --view sight`'s lines. Empty at the menu.
    pub fn rows(&self) -> Vec<String> {
        self.game.as_ref().map_or_else(Vec::new, |g| {
            g.view.to_string().lines().map(str::to_owned).collect()
        })
    }
}

impl Sight {
    /// What the player of `game` sees.
    pub fn of(game: &GameState) -> Sight {
        Sight::with_view(game, seen_view(game))
    }

    /// What the player of `game` sees, its view (the world as seen) made already.
    fn with_view(game: &GameState, view: World) -> Sight {
        let all = game.features();
        let count = |kind| all.iter().filter(|f| f.kind == kind).count() as u32;
        let (chests_total, traps_total) = (count(FeatureKind::Chest), count(FeatureKind::Trap));
        let weights = byog_game::run::weights(&all);
        let pays = |r: &byog_game::run::RunState, kind| {
            byog_game::run::feature_moves(&r.info, weights, kind)
        };
        let run = game.run().map(|r| RunHud {
            chest_moves: pays(r, FeatureKind::Chest),
            trap_moves: pays(r, FeatureKind::Trap),
            floor: r.floor,
            floors: r.floors,
            health: r.health,
            score: r.score,
            moves_left: r.moves_left,
            perfect_floors: r.perfect_floors,
            chests_total,
            traps_total,
            loss: r.loss,
        });
        let explore = game.explore().map(|e| {
            let origin = game.origin();
            let sight = e.sight();
            ExploreHud {
                health: e.health(),
                score: e.score(),
                branch: e.branch(),
                room: e.room(),
                depth: explore::depth(e.room()),
                origin,
                end: e.end(),
                potions: e.potions(),
                monsters: e
                    .monsters()
                    .filter(|m| sight.contains(m.pos))
                    .map(|m| Monster {
                        pos: Pos::new(m.pos.x - origin.x, m.pos.y - origin.y),
                        ..*m
                    })
                    .collect(),
                killed_by: e.killed_by(),
            }
        });
        let exit = game.exit();
        Sight {
            kind: game.kind(),
            seed: game.seed(),
            status: game.status(),
            view,
            avatar: game.avatar(),
            exit: game.has_seen(exit).then_some(exit),
            moves: game.moves(),
            features: all
                .iter()
                .filter(|f| game.has_seen(f.pos))
                .copied()
                .collect(),
            run,
            explore,
        }
    }

    /// The tile seen at `pos`: [`Tile::Nothing`] when it was never seen (or lies outside
    /// the view).
    pub fn tile(&self, pos: Pos) -> Tile {
        self.view.tile(pos)
    }
}

/// The world as seen: [`GameState::compose_seen`] of the whole world. A grid game's is made
/// in one pass over its terrain and memory ([`grid_view`]), so an observation costs a copy
/// of the world, not a lookup a tile.
fn seen_view(game: &GameState) -> World {
    match game.grid() {
        Some(grid) => grid_view(game, grid),
        None => game.compose_seen(game.rect()),
    }
}

/// The JSON of a [`Sight`], its fields in alphabetical order (as `serde_json`'s maps print
/// them, so the object reads like every other `byog` JSON). Phase-specific fields are left
/// out when `None`; an inner `None` prints as `null`.
#[derive(Serialize)]
struct SightJson<'a> {
    avatar: [i32; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    branch: Option<Option<BranchId>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chest_moves: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chests_total: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end: Option<Option<&'static str>>,
    exit: Option<[i32; 2]>,
    features: FeaturesJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    floor: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    floors: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    forfeited: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    health: Option<u32>,
    height: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    killed_by: Option<Option<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loss: Option<Option<&'static str>>,
    mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    monsters: Option<MonstersJson<'a>>,
    moves: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves_left: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    origin: Option<[i32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    perfect_floors: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    potions: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    room: Option<[i32; 2]>,
    rows: RowsJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<u64>,
    seed: u64,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    trap_moves: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    traps_total: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unplayed: Option<usize>,
    width: usize,
}

impl<'a> SightJson<'a> {
    fn of(s: &'a Sight, unplayed: usize) -> SightJson<'a> {
        let (run, e) = (s.run.as_ref(), s.explore.as_ref());
        SightJson {
            avatar: [s.avatar.x, s.avatar.y],
            branch: e.map(|e| e.branch),
            chest_moves: run.map(|r| r.chest_moves),
            chests_total: run.map(|r| r.chests_total),
            depth: e.map(|e| e.depth),
            end: e.map(|e| {
                e.end.map(|end| match end {
                    ExploreEnd::Banked => "banked",
                    ExploreEnd::Lost { .. } => "lost",
                })
            }),
            exit: s.exit.map(|p| [p.x, p.y]),
            features: FeaturesJson(&s.features),
            floor: run.map(|r| r.floor),
            floors: run.map(|r| r.floors),
            forfeited: e.map(|e| match e.end {
                Some(ExploreEnd::Lost { forfeited }) => forfeited,
                _ => 0,
            }),
            health: run.map(|r| r.health).or(e.map(|e| e.health)),
            height: s.view.height(),
            killed_by: e.map(|e| e.killed_by.map(MonsterKind::name)),
            loss: run.map(|r| r.loss.map(Loss::reason)),
            monsters: e.map(|e| MonstersJson(&e.monsters)),
            mode: match s.kind {
                GameKind::Classic => "classic",
                GameKind::Run => "run",
                GameKind::Exploration => "explore",
            },
            moves: s.moves,
            moves_left: run.map(|r| r.moves_left),
            origin: e.map(|e| [e.origin.x, e.origin.y]),
            perfect_floors: run.map(|r| r.perfect_floors),
            potions: e.map(|e| e.potions),
            room: e.map(|e| [e.room.x, e.room.y]),
            rows: RowsJson(&s.view),
            score: run.map(|r| r.score).or(e.map(|e| e.score)),
            seed: s.seed,
            status: match s.status {
                LevelStatus::Playing => "playing",
                LevelStatus::Won => "won",
                LevelStatus::Lost => "lost",
            },
            trap_moves: run.map(|r| r.trap_moves),
            traps_total: run.map(|r| r.traps_total),
            unplayed: (unplayed > 0).then_some(unplayed),
            width: s.view.width(),
        }
    }
}

/// The features as `{"kind", "state", "x", "y"}` objects.
struct FeaturesJson<'a>(&'a [Feature]);

impl Serialize for FeaturesJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct FeatureJson {
            kind: &'static str,
            state: &'static str,
            x: i32,
            y: i32,
        }
        serializer.collect_seq(self.0.iter().map(|f| FeatureJson {
            kind: f.kind_name(),
            state: f.state_name(),
            x: f.pos.x,
            y: f.pos.y,
        }))
    }
}

/// The monsters as `{"health", "id", "kind", "state", "x", "y"}` objects.
struct MonstersJson<'a>(&'a [Monster]);

impl Serialize for MonstersJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct MonsterJson {
            health: u32,
            id: u32,
            kind: &'static str,
            state: &'static str,
            x: i32,
            y: i32,
        }
        serializer.collect_seq(self.0.iter().map(|m| MonsterJson {
            health: m.health,
            id: m.id,
            kind: m.kind.name(),
            state: m.state.as_str(),
            x: m.pos.x,
            y: m.pos.y,
        }))
    }
}

/// The view's rows, top row first, each built into one reused buffer.
struct RowsJson<'a>(&'a World);

impl Serialize for RowsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let world = self.0;
        let mut seq = serializer.serialize_seq(Some(world.height()))?;
        let mut line = String::with_capacity(world.width() * 3);
        for row in world.tiles().chunks(world.width().max(1)).rev() {
            line.clear();
            line.extend(row.iter().map(|t| t.character()));
            seq.serialize_element(line.as_str())?;
        }
        seq.end()
    }
}

/// One line of the protocol, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// A JSON string: keys to play.
    Keys(String),
    /// `{"reset": KEYS}`: a fresh game from the menu with those keys.
    Reset(String),
}

/// Reads one line of the protocol (without its line break): a JSON string of keys, or the
/// object `{"reset": "KEYS"}`.
///
/// # Errors
/// A sentence saying what is wrong: not JSON, JSON of another type, an unknown field, a
/// `reset` that is not a string.
pub fn parse_line(line: &str) -> Result<Request, String> {
    const FORM: &str = r#"a line is a JSON string of keys, e.g. "WASD", or {"reset": "R42S"}"#;
    if line.trim().is_empty() {
        return Err(format!(
            r#"an empty line: {FORM} ("" plays no key and observes)"#
        ));
    }
    let value: serde_json::Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            let hint = if line
                .trim()
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ':')
            {
                format!(" (to play these keys, quote them: \"{}\")", line.trim())
            } else {
                String::new()
            };
            return Err(format!("not JSON ({e}): {FORM}{hint}"));
        }
    };
    match value {
        serde_json::Value::String(keys) => Ok(Request::Keys(keys)),
        serde_json::Value::Object(map) => {
            if let Some(field) = map.keys().find(|k| *k != "reset") {
                return Err(format!(
                    "unknown field {}: {FORM}",
                    serde_json::Value::from(field.as_str())
                ));
            }
            match map.get("reset") {
                Some(serde_json::Value::String(keys)) => Ok(Request::Reset(keys.clone())),
                Some(other) => Err(format!(
                    r#""reset" takes a string of keys, e.g. {{"reset": "R42S"}}, not {other}"#
                )),
                None => Err(format!("an empty object: {FORM}")),
            }
        }
        other => Err(format!("{} is not a request: {FORM}", json_type(&other))),
    }
}

/// The JSON type of `value` in words ("a number", "an array").
fn json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

impl Agent {
    /// Answers one line of the protocol (without its line break) with one line of JSON (no
    /// newline): the observation after the keys, or `{"error": "..."}`.
    pub fn answer(&mut self, line: &str) -> String {
        let result = match parse_line(line) {
            Err(why) => return error_json(&why),
            Ok(Request::Keys(keys)) => self.step(&keys),
            Ok(Request::Reset(keys)) => self.reset(&keys),
        };
        match result {
            Ok(observation) => observation.to_json(),
            Err(e) => e.to_json(),
        }
    }
}

/// The session of `byog agent`: reads lines from `input` until its end, answers each with
/// one line of JSON on `output`, flushed at once (a program waits for it). A line that is
/// not UTF-8, or longer than [`MAX_LINE_BYTES`], is answered with an error object.
///
/// # Errors
/// Reading `input` or writing `output` failed (a closed pipe included).
pub fn serve(
    agent: &mut Agent,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<()> {
    let mut line = Vec::new();
    while let Some(whole) = read_line(input, &mut line, MAX_LINE_BYTES)? {
        let answer = if !whole {
            error_json(&format!(
                "a line longer than {MAX_LINE_BYTES} bytes: send fewer keys a line"
            ))
        } else {
            match std::str::from_utf8(&line) {
                Ok(text) => agent.answer(text.strip_suffix('\r').unwrap_or(text)),
                Err(e) => error_json(&format!(
                    "the line is not UTF-8 text (byte {})",
                    e.valid_up_to()
                )),
            }
        };
        output.write_all(answer.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

/// Reads one line into `line` (without its `\n`): `None` at the end of the input,
/// `Some(true)` for a line of at most `max` bytes, `Some(false)` for a longer one (read to
/// its end and dropped). A last line without a line break counts.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<Option<bool>> {
    line.clear();
    let (mut any, mut whole) = (false, true);
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any.then_some(whole));
        }
        any = true;
        let end = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..end.unwrap_or(available.len())];
        if whole && line.len() + chunk.len() <= max {
            line.extend_from_slice(chunk);
        } else {
            whole = false;
            line.clear();
        }
        let used = end.map_or(available.len(), |i| i + 1);
        input.consume(used);
        if end.is_some() {
            return Ok(Some(whole));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_menu_object_is_replays() {
        let interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
        assert_eq!(crate::json::state(&interpreter).to_string(), MENU_JSON);
        assert_eq!(Observation::of(&interpreter).to_json(), MENU_JSON);
    }

    /// The view kept a patch at a time, and the one made whole, are the game's own compose
    /// step with sight ([`GameState::compose_seen`]) after every line: moves one or several
    /// a line, bumps, travel, wins and descents, refused and partly played lines, new games.
    #[test]
    fn the_view_kept_a_patch_at_a_time_is_the_game_composed_with_sight() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        const KEYS: &[u8] = b"WASDWASDWASDwasdWASDX>Z:N";
        let mut checked = 0;
        for start in ["N3S", "R5S", "N8S", "R2S"] {
            let mut agent = Agent::new(AgentOptions {
                width: 30,
                height: 15,
                floors: 3,
                ..AgentOptions::default()
            });
            agent.reset(start).unwrap();
            for _ in 0..400 {
                let long = next(5) == 0;
                let len = 1 + next(if long { 12 } else { 3 });
                let keys: String = (0..len)
                    .map(|_| KEYS[next(KEYS.len() as u64) as usize] as char)
                    .collect();
                let Ok(obs) = agent.step(&keys) else {
                    continue;
                };
                let Some(game) = agent.interpreter.game() else {
                    continue;
                };
                let sight = obs.game.as_ref().unwrap();
                assert_eq!(sight.view, game.compose_seen(game.rect()), "{keys}");
                assert_eq!(agent.observe().game, obs.game);
                assert_eq!(Observation::of(&agent.interpreter).game, obs.game);
                checked += 1;
                if game.has_ended() || !matches!(agent.interpreter.phase(), Phase::Playing { .. }) {
                    agent.reset(start).unwrap();
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn lines_are_read_whole_bounded_and_to_the_end() {
        let mut input = io::Cursor::new(b"\"W\"\n0123456789\nlast".to_vec());
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), Some(true));
        assert_eq!(line, b"\"W\"");
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), Some(false));
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), Some(true));
        assert_eq!(line, b"last");
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), None);
    }

    #[test]
    fn requests_are_strings_or_a_reset() {
        assert_eq!(parse_line(r#""WASD""#), Ok(Request::Keys("WASD".into())));
        assert_eq!(
            parse_line(r#" {"reset":"R1S"} "#),
            Ok(Request::Reset("R1S".into()))
        );
        for (line, says) in [
            ("", "an empty line"),
            ("WASD", "quote them: \"WASD\""),
            ("42", "a number is not a request"),
            (r#"{"reset":"R1S","x":1}"#, "unknown field \"x\""),
            (r#"{"reset":7}"#, "takes a string of keys"),
            ("{}", "an empty object"),
            ("[\"W\"]", "an array"),
        ] {
            let why = parse_line(line).unwrap_err();
            assert!(why.contains(says), "{line}: {why}");
        }
    }
}
