//! Flags every command takes: world size, the save folder, the generator's parameters and
//! the requirements, each with its documented range. Requirement flags are made from the one
//! list in [`byog_worlds::metrics::Requirement`], so a new requirement needs no change here.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, value_parser};

use byog_game::game::{HEIGHT, MAX_SEED, WIDTH};
use byog_game::save::DEFAULT_SAVE_DIR;
use byog_worlds::generator::lootquest::{
    CRITICAL_PATH_RANGE, LOOPS_RANGE, MAX_DEAD_END_RANGE, ROOM_SIZE_RANGE, ROOM_SPACING_RANGE,
    ROOMS_RANGE,
};
use byog_worlds::generator::{
    self, DEFAULT_MAX_TRIES, EXTRA_CONNECTOR_CHANCE_RANGE, GeneratorKind, GeneratorSettings,
    LootQuestSettings, MAX_SIDE, MAX_TRIES_RANGE, MIN_SIDE, ROOM_EXTRA_SIZE_RANGE,
    ROOM_TRIES_RANGE, WINDING_PERCENT_RANGE,
};
use byog_worlds::metrics::{Requirement, Requirements};

use super::CliError;

/// Most threads `--threads` accepts (0 means one per core).
pub const MAX_THREADS: usize = 256;

/// The long names of the flags the user gave on the command line (`width`, `min-rooms`),
/// defaults and unset flags left out.
pub type Given = std::collections::BTreeSet<String>;

/// The common flags each command leaves out of its help because they do nothing there (by
/// clap id). They are still accepted, so a script can pass `--save-dir` to every command;
/// given to a command they do nothing for, they are reported as ignored (`--save-dir` is
/// not: it names where saves live, whatever the command).
pub const HIDDEN: [(&str, &[&str]); 4] = [
    (
        "gen",
        &[
            "floors",
            "max_unexplored",
            "branch_timer",
            "no_monsters",
            "save_dir",
            "slot",
        ],
    ),
    (
        "stats",
        &[
            "max_unexplored",
            "branch_timer",
            "no_monsters",
            "save_dir",
            "slot",
        ],
    ),
    ("solve", &["max_unexplored", "branch_timer", "no_monsters"]),
    (
        "catalog",
        &[
            "floors",
            "max_unexplored",
            "branch_timer",
            "no_monsters",
            "max_tries",
            "save_dir",
            "slot",
        ],
    ),
];

/// Flags every command takes.
#[derive(Debug, Clone, Args)]
pub struct Common {
    /// Folder of the save file save.bin (created when missing) [env: BYOG_SAVE_DIR] [default:
    /// saves]
    #[arg(long, global = true, value_name = "DIR")]
    save_dir: Option<PathBuf>,
    /// The save slot: games are saved to and loaded from DIR/NAME.bin (1 to 32 letters,
    /// digits, '-' or '_'); the window's and the terminal's L lists every slot [default: save]
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_slot)]
    slot: Option<String>,
    /// Width of new worlds, in tiles (5..=16384).
    #[arg(long, global = true, value_name = "TILES", default_value_t = WIDTH,
          allow_negative_numbers = true, value_parser = parse_side)]
    pub width: usize,
    /// Height of new worlds, in tiles (5..=16384).
    #[arg(long, global = true, value_name = "TILES", default_value_t = HEIGHT,
          allow_negative_numbers = true, value_parser = parse_side)]
    pub height: usize,
    /// Floors in a run (R<seed>S), 1..=99: B1 to B<floors>.
    #[arg(long, global = true, value_name = "N", default_value_t = byog_game::run::DEFAULT_FLOORS,
          allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(1..=i64::from(byog_game::run::MAX_FLOORS)))]
    pub floors: u32,
    /// Most unexplored exits one branch of an exploration (E<seed>S) holds at once (1..=64);
    /// more: wider, bushier branches.
    #[arg(long, global = true, value_name = "N",
          default_value_t = byog_game::explore::DEFAULT_MAX_UNEXPLORED,
          allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(1..=i64::from(byog_game::explore::MAX_MAX_UNEXPLORED)))]
    pub max_unexplored: u32,
    /// Moves after which a start exit of an exploration leads into a new branch, leaving
    /// the old branch's way back one-way (1..=1000000000); less: branches expire sooner.
    #[arg(long, global = true, value_name = "MOVES",
          default_value_t = byog_game::explore::DEFAULT_BRANCH_TIMER,
          allow_negative_numbers = true,
          value_parser = value_parser!(u64).range(1..=byog_game::explore::MAX_BRANCH_TIMER))]
    pub branch_timer: u64,
    /// An exploration without monsters: its rooms hold only chests and traps, as before
    /// monsters existed (docs/monsters.md).
    #[arg(long, global = true)]
    pub no_monsters: bool,
    #[command(flatten)]
    generator: GeneratorArgs,
    #[command(flatten)]
    requirements: RequirementArgs,
    /// The flags the user gave (filled in after parsing, from clap's value sources).
    #[arg(skip)]
    pub given: Given,
}

/// The rooms-and-mazes parameters (Nystrom 2014, Hauberk), recorded in every save.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Generator")]
pub struct GeneratorArgs {
    /// Room placement tries per 1,000 tiles (0..=1000); more: more rooms, more openness.
    #[arg(long, global = true, value_name = "N", default_value_t = 20,
          allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(range_i64(&ROOM_TRIES_RANGE)))]
    room_tries: u32,
    /// Extra room size (0..=20): room sides are 2 × rand(1, 3 + extra) + 1; more: larger rooms.
    #[arg(long, global = true, value_name = "N", default_value_t = 1,
          allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(range_i64(&ROOM_EXTRA_SIZE_RANGE)))]
    room_extra_size: u32,
    /// Chance in percent that a corridor turns where it could go straight (0..=100).
    #[arg(long, global = true, value_name = "PERCENT", default_value_t = 30,
          allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(range_i64(&WINDING_PERCENT_RANGE)))]
    winding_percent: u32,
    /// Each redundant connector opens with a 1-in-N chance, making loops (0: none; 0..=1000000).
    #[arg(long, global = true, value_name = "N", default_value_t = 20,
          allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(range_i64(&EXTRA_CONNECTOR_CHANCE_RANGE)))]
    extra_connector_chance: u32,
    /// Worlds tried per seed before giving up on the requirements (1..=10000).
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MAX_TRIES,
          allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(range_i64(&MAX_TRIES_RANGE)))]
    max_tries: u32,
    /// Which generator makes the worlds: rooms-and-mazes (Nystrom 2014, the Java game's) or
    /// lootquest (Rogalsky 2014: rooms, critical path and dead ends as asked).
    #[arg(long, global = true, value_enum, value_name = "NAME",
          default_value_t = GeneratorChoice::RoomsAndMazes)]
    generator: GeneratorChoice,
    #[command(flatten)]
    lootquest: LootQuestArgs,
}

/// `--generator`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GeneratorChoice {
    /// Rooms and mazes (the default).
    RoomsAndMazes,
    /// LootQuest: a room graph with the asked critical path and dead ends.
    Lootquest,
}

/// LootQuest's parameters (with --generator lootquest), recorded in every save.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "LootQuest (--generator lootquest)")]
pub struct LootQuestArgs {
    /// Rooms asked for, the critical path's included (1..=100); met when the critical path,
    /// --max-dead-end and the world allow.
    #[arg(long, global = true, value_name = "N", default_value_t = LootQuestSettings::default().rooms,
          allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(range_i64(&ROOMS_RANGE)))]
    rooms: u32,
    /// Rooms on the shortest way from the start room to the exit room, both counted
    /// (1..=100); more: a longer walk, a stringier dungeon.
    #[arg(long, global = true, value_name = "N",
          default_value_t = LootQuestSettings::default().critical_path,
          allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(range_i64(&CRITICAL_PATH_RANGE)))]
    critical_path: u32,
    /// The most rooms a branch leads away from the critical path (0..=100; 0: no branches).
    #[arg(long, global = true, value_name = "N",
          default_value_t = LootQuestSettings::default().max_dead_end,
          allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(range_i64(&MAX_DEAD_END_RANGE)))]
    max_dead_end: u32,
    /// A room's side in tiles, MIN..MAX (both included, each 3..=25; N alone is N..N).
    #[arg(long, global = true, value_name = "MIN..MAX", default_value = "5..9",
          value_parser = parse_room_size)]
    room_size: (u32, u32),
    /// Corridor length between joined rooms in tiles, MIN..MAX (both included, each 1..=20).
    #[arg(long, global = true, value_name = "MIN..MAX", default_value = "2..6",
          value_parser = parse_room_spacing)]
    room_spacing: (u32, u32),
    /// Chance in percent that two facing rooms far apart by path get an extra corridor
    /// (0..=100); more: more loops.
    #[arg(long, global = true, value_name = "PERCENT",
          default_value_t = LootQuestSettings::default().loops_percent,
          allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(range_i64(&LOOPS_RANGE)))]
    loops: u32,
}

/// Parses `MIN..MAX` (or `MIN..=MAX`, or `N` for `N..N`), each end in `range`, `MIN ≤ MAX`.
fn parse_min_max(text: &str, range: &std::ops::RangeInclusive<u32>) -> Result<(u32, u32), String> {
    let (a, b) = text
        .split_once("..=")
        .or_else(|| text.split_once(".."))
        .unwrap_or((text, text));
    let end = |t: &str| match t.trim().parse::<u32>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not MIN..MAX with each end {}..={}",
            range.start(),
            range.end()
        )),
    };
    let (lo, hi) = (end(a)?, end(b)?);
    if lo > hi {
        return Err(format!("'{text}': the minimum is above the maximum"));
    }
    Ok((lo, hi))
}

/// Parses `--room-size`.
fn parse_room_size(text: &str) -> Result<(u32, u32), String> {
    parse_min_max(text, &ROOM_SIZE_RANGE)
}

/// Parses `--room-spacing`.
fn parse_room_spacing(text: &str) -> Result<(u32, u32), String> {
    parse_min_max(text, &ROOM_SPACING_RANGE)
}

/// Parses `--slot`: a slot name.
fn parse_slot(text: &str) -> Result<String, String> {
    byog_game::save::check_slot_name(text).map(|()| text.to_owned())
}

/// Parses `--width` or `--height`: a whole number of tiles, 5..=16384.
fn parse_side(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (MIN_SIDE..=MAX_SIDE).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not a world side: each side is {MIN_SIDE}..={MAX_SIDE} tiles"
        )),
    }
}

fn range_i64(r: &std::ops::RangeInclusive<u32>) -> std::ops::RangeInclusive<i64> {
    i64::from(*r.start())..=i64::from(*r.end())
}

/// What every new world must meet (see `byog stats`); a world that misses one is generated
/// again from a seed derived from (seed, try), up to --max-tries times. One flag per entry of
/// [`Requirement::ALL`].
#[derive(Debug, Clone, Default)]
pub struct RequirementArgs {
    requirements: Requirements,
}

impl FromArgMatches for RequirementArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut requirements = Requirements::default();
        for &r in Requirement::ALL {
            *r.bound_mut(&mut requirements) = matches.get_one::<u32>(r.flag()).copied();
        }
        Ok(RequirementArgs { requirements })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = RequirementArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for RequirementArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        let cmd = cmd.next_help_heading("Requirements");
        Requirement::ALL.iter().fold(cmd, |cmd, &r| {
            let parser = if matches!(r, Requirement::MinOpenness | Requirement::MaxOpenness) {
                value_parser!(u32).range(0..=100)
            } else {
                value_parser!(u32).range(0..=i64::from(u32::MAX))
            };
            cmd.arg(
                Arg::new(r.flag())
                    .long(r.flag())
                    .global(true)
                    .value_name(r.value_name())
                    .help(r.help())
                    .action(ArgAction::Set)
                    .allow_negative_numbers(true)
                    .value_parser(parser),
            )
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// The flags of a world's size, by long name.
pub const SIZE_FLAGS: &[&str] = &["width", "height"];
/// The generator's flags.
pub const GENERATOR_FLAGS: &[&str] = &[
    "room-tries",
    "room-extra-size",
    "winding-percent",
    "extra-connector-chance",
    "max-tries",
    "generator",
    "rooms",
    "critical-path",
    "max-dead-end",
    "room-size",
    "room-spacing",
    "loops",
];
/// The flag of a run's length.
pub const FLOORS_FLAGS: &[&str] = &["floors"];
/// The flags of an exploration.
pub const EXPLORE_FLAGS: &[&str] = &["max-unexplored", "branch-timer", "no-monsters"];

/// The requirements' flags, one per [`Requirement::ALL`].
pub fn requirement_flags() -> Vec<&'static str> {
    Requirement::ALL.iter().map(|r| r.flag()).collect()
}

impl Common {
    /// Whether the user gave `--flag` (long name without the dashes) on the command line.
    pub fn given(&self, flag: &str) -> bool {
        self.given.contains(flag)
    }

    /// Reports on stderr each of `flags` the user gave, as `byog: ignored: --width (why)`:
    /// a flag that changes nothing is never silent.
    pub fn ignored(&self, flags: &[&str], why: &str) {
        for flag in flags.iter().filter(|f| self.given(f)) {
            eprintln!("byog: ignored: --{flag} ({why})");
        }
    }

    /// Reports the flags the game a replay ended with did not use: a loaded game keeps its
    /// own size, settings, requirements and floors; a classic game has no floors; only an
    /// exploration takes the exploration flags, and it has no size and no world generator.
    /// `kind` is the game's [`GameState::kind_key`](byog_game::GameState::kind_key).
    pub fn report_unused(&self, kind: char, loaded: bool) {
        const FOR_RUNS: &str = "floors are for runs, R<seed>S";
        const FOR_EXPLORATIONS: &str = "it is for explorations, E<seed>S";
        if loaded {
            self.ignored(SIZE_FLAGS, "a loaded game keeps its own size");
            self.ignored(
                GENERATOR_FLAGS,
                "a loaded game keeps its own generator settings",
            );
            self.ignored(
                &requirement_flags(),
                "a loaded game keeps its own requirements",
            );
            if kind == 'R' {
                self.ignored(FLOORS_FLAGS, "a loaded run keeps its own number of floors");
            } else {
                self.ignored(FLOORS_FLAGS, FOR_RUNS);
            }
            if kind == 'E' {
                self.ignored(EXPLORE_FLAGS, "a loaded exploration keeps its own settings");
            } else {
                self.ignored(EXPLORE_FLAGS, FOR_EXPLORATIONS);
            }
            return;
        }
        match kind {
            'E' => {
                self.ignored(
                    SIZE_FLAGS,
                    "an exploration is made room by room as it is walked: it has no size",
                );
                self.ignored(
                    GENERATOR_FLAGS,
                    "an exploration's rooms are not made by the world generator",
                );
                self.ignored(
                    &requirement_flags(),
                    "an exploration's rooms are not made by the world generator",
                );
                self.ignored(FLOORS_FLAGS, FOR_RUNS);
            }
            'R' => self.ignored(EXPLORE_FLAGS, FOR_EXPLORATIONS),
            _ => {
                self.ignored(FLOORS_FLAGS, FOR_RUNS);
                self.ignored(EXPLORE_FLAGS, FOR_EXPLORATIONS);
            }
        }
    }

    /// Reports the generator flags the chosen generator does not use: LootQuest's without
    /// `--generator lootquest`, rooms-and-mazes' (but `--max-tries`) with it.
    pub fn report_other_generator(&self) {
        const LOOTQUEST: &[&str] = &[
            "rooms",
            "critical-path",
            "max-dead-end",
            "room-size",
            "room-spacing",
            "loops",
        ];
        if self.generator.generator == GeneratorChoice::Lootquest {
            self.ignored(
                &GENERATOR_FLAGS[..4],
                "a rooms-and-mazes parameter; --generator lootquest takes its own",
            );
        } else {
            self.ignored(LOOTQUEST, "it is for --generator lootquest");
        }
    }

    /// The exploration settings these flags ask for (`--max-unexplored`, `--branch-timer`).
    pub fn explore_settings(&self) -> byog_game::explore::ExploreSettings {
        byog_game::explore::ExploreSettings {
            max_unexplored: self.max_unexplored,
            branch_timer: self.branch_timer,
            monsters: !self.no_monsters,
        }
    }

    /// The options of the games these flags ask for (`--width`, `--height`, `--floors`, the
    /// generator's and the explorations' flags): what builds every interpreter of a command.
    pub fn game_options(&self) -> byog_game::GameOptions {
        byog_game::GameOptions {
            width: self.width,
            height: self.height,
            settings: self.settings(),
            floors: self.floors,
            explore: self.explore_settings(),
            one_game: false,
        }
    }

    /// The generator settings these flags ask for.
    pub fn settings(&self) -> GeneratorSettings {
        let g = &self.generator;
        GeneratorSettings {
            room_tries_per_1000_tiles: g.room_tries,
            room_extra_size: g.room_extra_size,
            winding_percent: g.winding_percent,
            extra_connector_chance: g.extra_connector_chance,
            requirements: self.requirements.requirements,
            max_tries: g.max_tries,
            generator: match g.generator {
                GeneratorChoice::RoomsAndMazes => GeneratorKind::RoomsAndMazes,
                GeneratorChoice::Lootquest => GeneratorKind::LootQuest,
            },
            lootquest: LootQuestSettings {
                rooms: g.lootquest.rooms,
                critical_path: g.lootquest.critical_path,
                max_dead_end: g.lootquest.max_dead_end,
                room_size_min: g.lootquest.room_size.0,
                room_size_max: g.lootquest.room_size.1,
                room_spacing_min: g.lootquest.room_spacing.0,
                room_spacing_max: g.lootquest.room_spacing.1,
                loops_percent: g.lootquest.loops,
            },
        }
    }

    /// Checks the flags that depend on each other (ranges are checked while parsing).
    ///
    /// # Errors
    /// [`CliError::Usage`] naming the flags.
    pub fn validate(&self) -> Result<(), CliError> {
        generator::check_size(self.width, self.height)
            .and_then(|()| self.settings().validate())
            .map_err(|e| CliError::Usage(super::errors::generate(&e)))
    }

    /// The save folder: `--save-dir`, else a non-empty `BYOG_SAVE_DIR`, else `saves`. Asked
    /// only by commands that load or save, so a bad value never breaks `gen` or `stats`.
    ///
    /// # Errors
    /// [`CliError::Usage`] for an empty `--save-dir`, or a path where something other than a
    /// folder stands (a file, a device such as `/dev/null`), which no save could be written
    /// into.
    pub fn save_dir(&self) -> Result<PathBuf, CliError> {
        let dir = save_dir_from(self.save_dir.clone(), std::env::var_os("BYOG_SAVE_DIR"))?;
        check_folder(&dir)?;
        Ok(dir)
    }

    /// The save slot (`--slot`, else `save`).
    pub fn slot(&self) -> &str {
        self.slot
            .as_deref()
            .unwrap_or(byog_game::save::DEFAULT_SLOT)
    }

    /// The slot `--slot` named, if it was given (the front-ends' `L` then loads it rather
    /// than listing the folder's saves).
    pub fn chosen_slot(&self) -> Option<&str> {
        self.slot.as_deref()
    }

    /// The save file: slot [`Common::slot`] of [`Common::save_dir`].
    ///
    /// # Errors
    /// As [`Common::save_dir`].
    pub fn store(&self) -> Result<byog_game::save::FileStore, CliError> {
        byog_game::save::FileStore::slot(self.save_dir()?, self.slot()).map_err(CliError::Usage)
    }
}

/// Checks that `dir`, the save folder, is a folder or can be made one: the path itself, or
/// its nearest existing ancestor, is a folder (a missing folder is made on the first save).
///
/// # Errors
/// [`CliError::Usage`] naming the path and what stands there instead.
pub fn check_folder(dir: &Path) -> Result<(), CliError> {
    let Some((at, meta)) = dir
        .ancestors()
        .filter(|p| !p.as_os_str().is_empty())
        .find_map(|p| std::fs::metadata(p).ok().map(|m| (p, m)))
    else {
        return Ok(());
    };
    if meta.is_dir() {
        return Ok(());
    }
    let what = if meta.is_file() {
        "a file".to_owned()
    } else {
        file_kind(&meta).to_owned()
    };
    let named = if at == dir {
        format!("the save folder {} is {what}, not a folder", dir.display())
    } else {
        format!(
            "the save folder {} cannot be made: {} is {what}, not a folder",
            dir.display(),
            at.display()
        )
    };
    Err(CliError::Usage(format!(
        "{named}: choose another --save-dir (or BYOG_SAVE_DIR)"
    )))
}

/// What a path that is neither a file nor a folder is, in words: "a character device", "a
/// FIFO", ….
pub fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a folder"
    } else if meta.is_file() {
        "a regular file"
    } else {
        "neither a file nor a folder"
    }
}

/// The save folder from the flag and the environment variable (an empty variable counts as
/// unset).
///
/// # Errors
/// [`CliError::Usage`] for an empty `--save-dir`.
pub fn save_dir_from(flag: Option<PathBuf>, env: Option<OsString>) -> Result<PathBuf, CliError> {
    match flag {
        Some(dir) if dir.as_os_str().is_empty() => Err(CliError::Usage(
            "--save-dir is empty: give a folder, e.g. --save-dir saves".into(),
        )),
        Some(dir) => Ok(dir),
        None => Ok(env
            .filter(|v| !v.is_empty())
            .map_or_else(|| PathBuf::from(DEFAULT_SAVE_DIR), PathBuf::from)),
    }
}

/// An inclusive range of seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedRange {
    /// First seed.
    pub first: u64,
    /// Last seed (included).
    pub last: u64,
}

impl SeedRange {
    /// How many seeds, `last - first + 1`.
    pub fn count(&self) -> u64 {
        self.last - self.first + 1
    }
}

/// Parses a seed: a decimal integer in `0..=9223372036854775807` (Java `Long.MAX_VALUE`).
///
/// # Errors
/// A message saying what is wrong with the text.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(seed) if seed <= MAX_SEED => Ok(seed),
        Ok(_) => Err(format!(
            "seed {text} is above {MAX_SEED} (the largest Java long)"
        )),
        Err(_) => Err(format!(
            "'{text}' is not a seed: use a whole number from 0 to {MAX_SEED}"
        )),
    }
}

/// Parses `A..B` (B excluded) or `A..=B` (B included).
///
/// # Errors
/// A message for a malformed, out-of-range, empty or reversed range.
pub fn parse_seed_range(text: &str) -> Result<SeedRange, String> {
    let (a, b, inclusive) = if let Some((a, b)) = text.split_once("..=") {
        (a, b, true)
    } else if let Some((a, b)) = text.split_once("..") {
        (a, b, false)
    } else {
        return Err(format!(
            "'{text}' is not a seed range: write A..B (B excluded) or A..=B (B included)"
        ));
    };
    let first = parse_seed(a)?;
    let end = parse_seed(b)?;
    let last = if inclusive {
        Some(end)
    } else {
        end.checked_sub(1)
    };
    match last {
        Some(last) if last >= first => Ok(SeedRange { first, last }),
        _ => Err(format!(
            "seed range {text} is empty or reversed: the start must come before the end"
        )),
    }
}

/// Parses `--threads`: 0 (one per core) to [`MAX_THREADS`].
///
/// # Errors
/// A message naming the range.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        _ => Err(format!(
            "'{text}' is not a thread count: use 0 (one per core) to {MAX_THREADS}"
        )),
    }
}

/// The seeds one command asks for: `--seed N` or `--seeds A..B`, and whether it was a batch.
///
/// # Errors
/// [`CliError::Usage`] when neither is given.
pub fn seeds(seed: Option<u64>, range: Option<SeedRange>) -> Result<(SeedRange, bool), CliError> {
    match (seed, range) {
        (Some(s), _) => Ok((SeedRange { first: s, last: s }, false)),
        (None, Some(r)) => Ok((r, true)),
        (None, None) => Err(CliError::Usage("give --seed N or --seeds A..B".into())),
    }
}

/// A thread pool of `threads` threads (0: one per core) for a batch of `count` seeds; `None`
/// for a single seed, which needs no pool.
///
/// # Errors
/// [`CliError::Internal`] when the threads cannot start.
pub fn thread_pool(threads: usize, count: u64) -> Result<Option<rayon::ThreadPool>, CliError> {
    if count <= 1 {
        return Ok(None);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map(Some)
        .map_err(|e| CliError::Internal(format!("cannot start {threads} threads: {e}")))
}
