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

use byog_game::explore::play::ExploreEnd;
use byog_game::explore::{self, BranchId, ExploreSettings, Monster, MonsterKind, RoomPos};
use byog_game::game::{GameKind, GameState, HEIGHT, LevelStatus, WIDTH};
use byog_game::interpreter::{
    InterpretError, Interpreter, Outcome, Phase, Refusal, Refused, key_name,
};
use byog_game::run::{self, Feature, FeatureKind, Loss};
use byog_game::save::{FileStore, SaveError, SaveStore};
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
    /// The folder whose `save.bin` `L` loads; `None`: `L` finds no save. Never written.
    pub save_dir: Option<PathBuf>,
}

impl Default for AgentOptions {
    /// 80 × 30 worlds, the default generator, runs of 10 floors, the default explorations,
    /// no save folder.
    fn default() -> Self {
        AgentOptions {
            width: WIDTH,
            height: HEIGHT,
            settings: GeneratorSettings::default(),
            floors: run::DEFAULT_FLOORS,
            explore: ExploreSettings::default(),
            save_dir: None,
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

/// The agent's save store: `L` reads the save folder's `save.bin` (once a session: later
/// loads, and the replays that undo a refused line, see that same game), and a save is
/// refused.
#[derive(Debug)]
struct ReadOnlyStore {
    file: Option<FileStore>,
    loaded: RefCell<Option<Option<GameState>>>,
    save_refused: bool,
}

impl ReadOnlyStore {
    fn new(dir: Option<&PathBuf>) -> Self {
        ReadOnlyStore {
            file: dir.map(FileStore::in_dir),
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
            Some(file) => file.load()?,
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
        self.file
            .as_ref()
            .map_or_else(PathBuf::new, SaveStore::location)
    }

    fn has_save(&self) -> bool {
        match &*self.loaded.borrow() {
            Some(game) => game.is_some(),
            None => self.file.as_ref().is_some_and(SaveStore::has_save),
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
#[derive(Debug)]
pub struct Agent {
    options: AgentOptions,
    interpreter: Interpreter,
    store: ReadOnlyStore,
    /// Every key played since the last reset: `byog replay` of them gives this state.
    keys: String,
}

impl Agent {
    /// An agent at the menu (no game yet) that makes new games with `options`. Sizes or
    /// settings out of range are reported when a game is started (`S`), as an error.
    pub fn new(options: AgentOptions) -> Agent {
        let store = ReadOnlyStore::new(options.save_dir.as_ref());
        Agent {
            interpreter: interpreter_for(&options),
            options,
            store,
            keys: String::new(),
        }
    }

    /// The options games are made with.
    pub fn options(&self) -> &AgentOptions {
        &self.options
    }

    /// The keys played since the last reset (the reset's own keys first): `byog replay
    /// --format json --view sight` of them prints [`Agent::observe`]'s JSON.
    pub fn keys(&self) -> &str {
        &self.keys
    }

    /// What the player sees now.
    pub fn observe(&self) -> Observation {
        Observation::of(&self.interpreter)
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
        Ok(self.observe())
    }

    /// Plays `keys` (any number, e.g. `"D"` or `"WWAS"`) and observes the result.
    ///
    /// # Errors
    /// [`AgentError`] when a key is refused or fails; the game is then as it was before.
    pub fn step(&mut self, keys: &str) -> Result<Observation, AgentError> {
        self.play(keys)?;
        Ok(self.observe())
    }

    /// Plays `keys` without building an observation (see [`Agent::step`]).
    ///
    /// A refused line is undone at no cost when its first key is refused and changed
    /// nothing (a move after the end, a key that means nothing); otherwise by playing the
    /// keys since the last reset again, on a fresh interpreter.
    ///
    /// # Errors
    /// As [`Agent::step`].
    pub fn play(&mut self, keys: &str) -> Result<(), AgentError> {
        let before = self.interpreter.phase();
        let start = self.interpreter.position();
        for (position, key) in keys.chars().enumerate() {
            let outcome = self.interpreter.feed(key, &mut self.store);
            let note = self.interpreter.take_note();
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
                self.store.save_refused = false;
                if position > 0 || self.interpreter.phase() != before {
                    self.replay_keys();
                }
                return Err(error);
            }
        }
        if let Phase::Playing { colon: true } | Phase::Ended { colon: true } =
            self.interpreter.phase()
        {
            self.replay_keys();
            return Err(AgentError::LoneColon);
        }
        self.keys.push_str(keys);
        Ok(())
    }

    /// Puts the interpreter back where the keys since the last reset leave it (after a
    /// refused line): a fresh one, fed them again. They were all accepted before, and `L`
    /// sees the game it loaded then, so they are accepted again.
    fn replay_keys(&mut self) {
        let mut interpreter = interpreter_for(&self.options);
        for key in self.keys.chars() {
            // Accepted before, so accepted again: nothing to report.
            let _ = interpreter.feed(key, &mut self.store);
            let _ = interpreter.take_note();
        }
        self.store.save_refused = false;
        self.interpreter = interpreter;
    }
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
                let _ = SightJson::of(sight).serialize(&mut ser);
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
        let all = game.features();
        let count = |kind| all.iter().filter(|f| f.kind == kind).count() as u32;
        let (chests_total, traps_total) = (count(FeatureKind::Chest), count(FeatureKind::Trap));
        let run = game.run().map(|r| RunHud {
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
            view: seen_view(game),
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

/// The world as seen: [`GameState::compose_seen`] of the whole world (a grid masks the
/// composed world with its memory row by row, so an observation costs a copy of the world,
/// not a lookup a tile).
fn seen_view(game: &GameState) -> World {
    game.compose_seen(game.rect())
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
    traps_total: Option<u32>,
    width: usize,
}

impl<'a> SightJson<'a> {
    fn of(s: &'a Sight) -> SightJson<'a> {
        let (run, e) = (s.run.as_ref(), s.explore.as_ref());
        SightJson {
            avatar: [s.avatar.x, s.avatar.y],
            branch: e.map(|e| e.branch),
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
            traps_total: run.map(|r| r.traps_total),
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
