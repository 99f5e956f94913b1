//! What a game is made with and what its observation holds: the command line's common flags
//! (`docs/cli.md`) under their Python names, checked once, with a sentence for each mistake.

use byog_game::GameOptions;
use byog_game::explore::{ExploreSettings, MAX_BRANCH_TIMER, MAX_MAX_UNEXPLORED};
use byog_game::game::{GameKind, HEIGHT, WIDTH};
use byog_game::run::{DEFAULT_FLOORS, MAX_FLOORS};
use byog_players::agent::AgentOptions;
use byog_worlds::generator::lootquest::check_fits;
use byog_worlds::generator::{GeneratorKind, GeneratorSettings, check_size};
use byog_worlds::metrics::Requirement;

/// The three games, as the menu's `N`, `R` and `E` start them.
pub type Mode = GameKind;

/// What the glyph arrays show: the area of the world observed (the option `view`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObservedArea {
    /// The whole world, `height × width` tiles (the options' size; a run's smaller floors
    /// fill its top-left corner, the rest is blank), row 0 the top row.
    World,
    /// `rows × cols` tiles centred on the avatar (row `rows / 2`, column `cols / 2`), row 0
    /// the top row; tiles outside the world are blank.
    Crop {
        /// Rows, 1..=1023.
        rows: usize,
        /// Columns, 1..=1023.
        cols: usize,
    },
}

/// The default crop: 21 × 21 tiles, the avatar's sight (8 tiles each way) and a ring of
/// remembered tiles round it.
pub const DEFAULT_CROP: usize = 21;

/// The largest side of a crop, in tiles.
pub const MAX_CROP: usize = 1023;

/// Everything a game is made with, and the shape of its observation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Classic (`N`), run (`R`) or exploration (`E`).
    pub mode: Mode,
    /// `--width`: a world's width in tiles (a run's largest floor), 5..=16384; default 80.
    pub width: usize,
    /// `--height`, likewise; default 30.
    pub height: usize,
    /// `--floors`: floors in a run, 1..=99; default 10.
    pub floors: u32,
    /// The generator's flags and requirements.
    pub settings: GeneratorSettings,
    /// `--max-unexplored`, `--branch-timer`, `--no-monsters`.
    pub explore: ExploreSettings,
    /// What the glyph arrays show.
    pub view: ObservedArea,
    /// Whether the travel keys `X` (explore) and `>` (to the exit) are actions.
    pub travel: bool,
    /// Steps after which an episode is truncated; `None`: never.
    pub max_steps: Option<u64>,
    /// Whether each game keeps its episode's keys (one byte a key), for
    /// [`crate::Game::episode_keys`].
    pub record_keys: bool,
}

/// One keyword argument's value, as Python gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// `None`.
    None,
    /// A `bool`.
    Bool(bool),
    /// An `int`.
    Int(i64),
    /// A `str`.
    Str(String),
    /// A pair of ints, `(a, b)`.
    Pair(i64, i64),
    /// A `dict` of names to ints (the requirements).
    Map(Vec<(String, i64)>),
}

impl Value {
    fn describe(&self) -> String {
        match self {
            Value::None => "None".into(),
            Value::Bool(b) => if *b { "True" } else { "False" }.into(),
            Value::Int(i) => i.to_string(),
            Value::Str(s) => format!("{s:?}"),
            Value::Pair(a, b) => format!("({a}, {b})"),
            Value::Map(_) => "a dict".into(),
        }
    }
}

/// The keyword arguments [`Options::set`] takes, in the order `docs/python.md` lists them.
pub const OPTION_NAMES: &[&str] = &[
    "width",
    "height",
    "floors",
    "generator",
    "room_tries",
    "room_extra_size",
    "winding_percent",
    "extra_connector_chance",
    "max_tries",
    "rooms",
    "critical_path",
    "max_dead_end",
    "room_size",
    "room_spacing",
    "loops",
    "requirements",
    "monsters",
    "max_unexplored",
    "branch_timer",
    "view",
    "crop",
    "travel",
    "max_episode_steps",
    "record_keys",
];

impl Options {
    /// The defaults of `mode`: 80 × 30, 10 floors, the default generator and explorations;
    /// the whole world for a classic game or a run, a 21 × 21 crop for an exploration (whose
    /// map grows as rooms are made); no travel keys; 5,000 steps an episode; keys recorded.
    pub fn new(mode: Mode) -> Options {
        Options {
            mode,
            width: WIDTH,
            height: HEIGHT,
            floors: DEFAULT_FLOORS,
            settings: GeneratorSettings::default(),
            explore: ExploreSettings::default(),
            view: match mode {
                GameKind::Exploration => ObservedArea::Crop {
                    rows: DEFAULT_CROP,
                    cols: DEFAULT_CROP,
                },
                _ => ObservedArea::World,
            },
            travel: false,
            max_steps: Some(5_000),
            record_keys: true,
        }
    }

    /// The mode named `classic`, `run` or `explore`.
    ///
    /// # Errors
    /// A sentence naming the three.
    pub fn mode_named(name: &str) -> Result<Mode, String> {
        match name {
            "classic" => Ok(GameKind::Classic),
            "run" => Ok(GameKind::Run),
            "explore" => Ok(GameKind::Exploration),
            other => Err(format!(
                "mode {other:?} is not a mode: classic, run or explore"
            )),
        }
    }

    /// Sets one keyword argument (`OPTION_NAMES`). `view` before `crop`: a `crop` also
    /// chooses the cropped view.
    ///
    /// # Errors
    /// A sentence naming the argument, what it was given and what it takes.
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), String> {
        let bad = |takes: &str| format!("{name}={}: {name} takes {takes}", value.describe());
        let int = |lo: i64, hi: i64| match value {
            Value::Int(i) if (lo..=hi).contains(i) => Ok(*i),
            _ => Err(bad(&format!("a whole number in {lo}..={hi}"))),
        };
        let pair = |lo: i64, hi: i64| match value {
            Value::Int(i) if (lo..=hi).contains(i) => Ok((*i, *i)),
            Value::Pair(a, b) if (lo..=hi).contains(a) && (lo..=hi).contains(b) && a <= b => {
                Ok((*a, *b))
            }
            _ => Err(bad(&format!(
                "a whole number or a pair (MIN, MAX), MIN <= MAX, each in {lo}..={hi}"
            ))),
        };
        let flag = || match value {
            Value::Bool(b) => Ok(*b),
            _ => Err(bad("True or False")),
        };
        let side = || int(5, 16384).map(|i| i as usize);
        let s = &mut self.settings;
        let lq = &mut s.lootquest;
        match name {
            "width" => self.width = side()?,
            "height" => self.height = side()?,
            "floors" => self.floors = int(1, i64::from(MAX_FLOORS))? as u32,
            "generator" => {
                s.generator = match value {
                    Value::Str(g) if g == "rooms-and-mazes" => GeneratorKind::RoomsAndMazes,
                    Value::Str(g) if g == "lootquest" => GeneratorKind::LootQuest,
                    _ => return Err(bad("\"rooms-and-mazes\" or \"lootquest\"")),
                }
            }
            "room_tries" => s.room_tries_per_1000_tiles = int(0, 1000)? as u32,
            "room_extra_size" => s.room_extra_size = int(0, 20)? as u32,
            "winding_percent" => s.winding_percent = int(0, 100)? as u32,
            "extra_connector_chance" => s.extra_connector_chance = int(0, 1_000_000)? as u32,
            "max_tries" => s.max_tries = int(1, 10_000)? as u32,
            "rooms" => lq.rooms = int(1, 100)? as u32,
            "critical_path" => lq.critical_path = int(1, 100)? as u32,
            "max_dead_end" => lq.max_dead_end = int(0, 100)? as u32,
            "room_size" => {
                let (a, b) = pair(3, 25)?;
                (lq.room_size_min, lq.room_size_max) = (a as u32, b as u32);
            }
            "room_spacing" => {
                let (a, b) = pair(1, 20)?;
                (lq.room_spacing_min, lq.room_spacing_max) = (a as u32, b as u32);
            }
            "loops" => lq.loops_percent = int(0, 100)? as u32,
            "requirements" => {
                let Value::Map(entries) = value else {
                    return Err(bad("a dict of requirements, e.g. {\"min_rooms\": 5}"));
                };
                for (key, bound) in entries {
                    let Some(r) = Requirement::ALL
                        .iter()
                        .find(|r| r.name() == key || r.flag() == key)
                    else {
                        let names: Vec<&str> = Requirement::ALL.iter().map(|r| r.name()).collect();
                        return Err(format!(
                            "requirements: {key:?} is not a requirement: {}",
                            names.join(", ")
                        ));
                    };
                    let Ok(bound) = u32::try_from(*bound) else {
                        return Err(format!(
                            "requirements: {key}={bound}: a bound is a whole number from 0"
                        ));
                    };
                    *r.bound_mut(&mut s.requirements) = Some(bound);
                }
            }
            "monsters" => self.explore.monsters = flag()?,
            "max_unexplored" => {
                self.explore.max_unexplored = int(1, i64::from(MAX_MAX_UNEXPLORED))? as u32;
            }
            "branch_timer" => self.explore.branch_timer = int(1, MAX_BRANCH_TIMER as i64)? as u64,
            "view" => {
                self.view = match value {
                    Value::Str(v) if v == "world" => ObservedArea::World,
                    Value::Str(v) if v == "crop" => match self.view {
                        ObservedArea::Crop { .. } => self.view,
                        ObservedArea::World => ObservedArea::Crop {
                            rows: DEFAULT_CROP,
                            cols: DEFAULT_CROP,
                        },
                    },
                    _ => return Err(bad("\"world\" or \"crop\"")),
                }
            }
            "crop" => {
                let (rows, cols) = match value {
                    Value::Int(i) if (1..=MAX_CROP as i64).contains(i) => (*i, *i),
                    Value::Pair(r, c)
                        if (1..=MAX_CROP as i64).contains(r)
                            && (1..=MAX_CROP as i64).contains(c) =>
                    {
                        (*r, *c)
                    }
                    _ => {
                        return Err(bad(&format!(
                            "a side or a pair (ROWS, COLS), each in 1..={MAX_CROP}"
                        )));
                    }
                };
                self.view = ObservedArea::Crop {
                    rows: rows as usize,
                    cols: cols as usize,
                };
            }
            "travel" => self.travel = flag()?,
            "max_episode_steps" => {
                self.max_steps = match value {
                    Value::None => None,
                    Value::Int(i) if *i >= 1 => Some(*i as u64),
                    _ => return Err(bad("a whole number from 1, or None (no limit)")),
                }
            }
            "record_keys" => self.record_keys = flag()?,
            other => {
                let near = OPTION_NAMES
                    .iter()
                    .map(|n| (strsim::levenshtein(n, other), *n))
                    .min()
                    .filter(|(d, _)| *d <= 2)
                    .map(|(_, n)| format!(" (did you mean {n}?)"))
                    .unwrap_or_default();
                return Err(format!(
                    "{other} is not an option{near}: the options are {}",
                    OPTION_NAMES.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// Checks what no single argument could: the size, the generator's settings together,
    /// whether LootQuest's rooms fit, and the view an exploration can have.
    ///
    /// # Errors
    /// A sentence saying what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        check_size(self.width, self.height).map_err(|e| e.to_string())?;
        self.settings.validate().map_err(|e| e.to_string())?;
        if self.settings.generator == GeneratorKind::LootQuest {
            self.settings
                .lootquest
                .validate()
                .map_err(|e| e.to_string())?;
            check_fits(self.width, self.height, &self.settings.lootquest)
                .map_err(|e| e.to_string())?;
        }
        if self.mode == GameKind::Exploration && self.view == ObservedArea::World {
            return Err(
                "view=\"world\": an exploration has no fixed world (its map grows as \
                        rooms are made and changes with the branch): use view=\"crop\""
                    .into(),
            );
        }
        Ok(())
    }

    /// The glyph arrays' shape: `(rows, cols)`.
    pub fn view_shape(&self) -> (usize, usize) {
        match self.view {
            ObservedArea::World => (self.height, self.width),
            ObservedArea::Crop { rows, cols } => (rows, cols),
        }
    }

    /// The number of actions: 6 (`W A S D . U`), 8 with the travel keys (`X >`).
    pub fn actions(&self) -> usize {
        if self.travel { 8 } else { 6 }
    }

    /// The same settings for `byog agent` (`byog_players::agent`): its games are made the same way.
    pub fn agent_options(&self) -> AgentOptions {
        AgentOptions {
            game: self.game_options(),
            ..AgentOptions::default()
        }
    }

    /// The options new games are made with, for the game's interpreter
    /// ([`GameOptions::interpreter`]).
    pub fn game_options(&self) -> GameOptions {
        GameOptions {
            width: self.width,
            height: self.height,
            settings: self.settings,
            floors: self.floors,
            explore: self.explore,
            one_game: false,
        }
    }

    /// The flags `byog replay` (or `byog agent`) needs to make the same games, e.g.
    /// `["--width", "40", "--floors", "3"]`: those that differ from the defaults.
    pub fn flags(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut add = |flag: &str, value: String| {
            out.push(format!("--{flag}"));
            if !value.is_empty() {
                out.push(value);
            }
        };
        let d = Options::new(self.mode);
        if self.width != d.width {
            add("width", self.width.to_string());
        }
        if self.height != d.height {
            add("height", self.height.to_string());
        }
        if self.floors != d.floors {
            add("floors", self.floors.to_string());
        }
        let (s, ds) = (&self.settings, &d.settings);
        if s.generator != ds.generator {
            add("generator", s.generator.name().into());
        }
        for (flag, v, dv) in [
            (
                "room-tries",
                s.room_tries_per_1000_tiles,
                ds.room_tries_per_1000_tiles,
            ),
            ("room-extra-size", s.room_extra_size, ds.room_extra_size),
            ("winding-percent", s.winding_percent, ds.winding_percent),
            (
                "extra-connector-chance",
                s.extra_connector_chance,
                ds.extra_connector_chance,
            ),
            ("max-tries", s.max_tries, ds.max_tries),
            ("rooms", s.lootquest.rooms, ds.lootquest.rooms),
            (
                "critical-path",
                s.lootquest.critical_path,
                ds.lootquest.critical_path,
            ),
            (
                "max-dead-end",
                s.lootquest.max_dead_end,
                ds.lootquest.max_dead_end,
            ),
            (
                "loops",
                s.lootquest.loops_percent,
                ds.lootquest.loops_percent,
            ),
        ] {
            if v != dv {
                add(flag, v.to_string());
            }
        }
        let (l, dl) = (&s.lootquest, &ds.lootquest);
        if (l.room_size_min, l.room_size_max) != (dl.room_size_min, dl.room_size_max) {
            add(
                "room-size",
                format!("{}..{}", l.room_size_min, l.room_size_max),
            );
        }
        if (l.room_spacing_min, l.room_spacing_max) != (dl.room_spacing_min, dl.room_spacing_max) {
            add(
                "room-spacing",
                format!("{}..{}", l.room_spacing_min, l.room_spacing_max),
            );
        }
        for r in Requirement::ALL {
            if let Some(bound) = r.bound_in(&s.requirements) {
                add(r.flag(), bound.to_string());
            }
        }
        let (e, de) = (&self.explore, &d.explore);
        if e.max_unexplored != de.max_unexplored {
            add("max-unexplored", e.max_unexplored.to_string());
        }
        if e.branch_timer != de.branch_timer {
            add("branch-timer", e.branch_timer.to_string());
        }
        if !e.monsters {
            add("no-monsters", String::new());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mistake_is_named() {
        let mut o = Options::new(GameKind::Run);
        for (name, value, says) in [
            (
                "width",
                Value::Int(4),
                "width=4: width takes a whole number in 5..=16384",
            ),
            ("floors", Value::Int(100), "1..=99"),
            ("generator", Value::Str("caves".into()), "\"lootquest\""),
            ("room_size", Value::Pair(9, 5), "MIN <= MAX"),
            ("crop", Value::Int(0), "1..=1023"),
            ("max_episode_steps", Value::Int(0), "or None"),
            ("monsters", Value::Int(1), "True or False"),
            (
                "flooors",
                Value::Int(3),
                "flooors is not an option (did you mean floors?)",
            ),
            (
                "requirements",
                Value::Map(vec![("min_roms".into(), 3)]),
                "\"min_roms\" is not a requirement",
            ),
        ] {
            let why = o.set(name, &value).unwrap_err();
            assert!(why.contains(says), "{name}: {why}");
        }
        assert_eq!(
            o,
            Options::new(GameKind::Run),
            "a refused value changes nothing"
        );
    }

    #[test]
    fn the_flags_name_what_differs_from_the_defaults() {
        let mut o = Options::new(GameKind::Run);
        assert!(o.flags().is_empty());
        o.set("width", &Value::Int(40)).unwrap();
        o.set("floors", &Value::Int(3)).unwrap();
        o.set("room_size", &Value::Pair(4, 8)).unwrap();
        o.set("monsters", &Value::Bool(false)).unwrap();
        assert_eq!(
            o.flags(),
            [
                "--width",
                "40",
                "--floors",
                "3",
                "--room-size",
                "4..8",
                "--no-monsters"
            ]
        );
    }

    #[test]
    fn an_exploration_has_no_world_view() {
        let mut o = Options::new(GameKind::Exploration);
        assert!(o.validate().is_ok());
        o.set("view", &Value::Str("world".into())).unwrap();
        assert!(o.validate().unwrap_err().contains("use view=\"crop\""));
    }
}
