//! World generation: Bob Nystrom's "Rooms and Mazes" (2014,
//! <https://journal.stuffwithstuff.com/2014/12/21/rooms-and-mazes/>), after his Hauberk
//! source (`lib/src/content/dungeon.dart`), read top-down as its steps:
//!
//! 1. [`add_rooms`](Carver::add_rooms): random non-overlapping rooms at odd coordinates;
//! 2. [`grow_mazes`](Carver::grow_mazes): growing-tree mazes fill the rock between them;
//! 3. [`connect_regions`](Carver::connect_regions): a random spanning tree over the connectors
//!    (rock tiles between two regions) merges every region into one, with union-find; each
//!    redundant connector is opened with a 1-in-`extra_connector_chance` chance (loops);
//! 4. [`remove_dead_ends`](Carver::remove_dead_ends): corridors that lead nowhere are filled
//!    back in, with a worklist;
//! 5. [`finish`](Carver::finish): rock that touches open ground becomes WALL, the rest
//!    NOTHING; the avatar stands on a random floor tile and the exit, a LOCKED_DOOR, is set
//!    into the wall next to the floor tile farthest from the avatar by BFS.
//!
//! The algorithm needs odd dimensions: for an even width or height, generation uses the
//! largest odd area that fits and leaves the spare column (right) or row (top) as NOTHING.
//!
//! Every step is linear in the number of tiles (room tries cost their own area, checked on the
//! grid itself), uses integer geometry only, and draws random numbers only from the generator
//! it is given, as `u32` ranges, so a seed gives the same world on every 64-bit platform.
//!
//! Scratch memory: the open mask (1 byte a tile, the carve state itself), the maze cell grid
//! and each cell's region id (5 bytes a cell, a quarter of the tiles), a one-row wall buffer,
//! a near-junction bitset (1 bit a tile) while merging, the connector list (12 bytes a
//! connector, about one per 6 tiles) and the maze stack, dead-end and BFS work lists (4 bytes an
//! entry, at most one per open tile). Measured: 4.9 bytes a tile of peak RSS at 4096 × 4096,
//! the world's 1 included (`docs/performance.md`).

mod connect;
mod dead_ends;
mod finish;
pub mod lootquest;
mod maze;
mod rooms;
mod union_find;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use crate::metrics::{self, Requirement, Requirements, RequirementsError, Unmet};
use crate::progress::{self, Stage};
use byog_tile_engine::{Pos, World};

pub use connect::Connectors;
pub use lootquest::LootQuestSettings;
pub use union_find::UnionFind;

/// Smallest accepted world side, in tiles: a 5 × 5 area holds one 3 × 3 room and its walls.
pub const MIN_SIDE: usize = 5;
/// Largest accepted world side, in tiles (16384 × 16384 is 256 MiB of tiles).
pub const MAX_SIDE: usize = 16384;

/// Default [`GeneratorSettings::max_tries`].
pub const DEFAULT_MAX_TRIES: u32 = 100;
/// Largest [`GeneratorSettings::max_tries`].
pub const MAX_TRIES: u32 = 10_000;

/// The accepted range of [`GeneratorSettings::room_tries_per_1000_tiles`] (`--room-tries`).
pub const ROOM_TRIES_RANGE: std::ops::RangeInclusive<u32> = 0..=1000;
/// The accepted range of [`GeneratorSettings::room_extra_size`] (`--room-extra-size`).
pub const ROOM_EXTRA_SIZE_RANGE: std::ops::RangeInclusive<u32> = 0..=20;
/// The accepted range of [`GeneratorSettings::winding_percent`] (`--winding-percent`).
pub const WINDING_PERCENT_RANGE: std::ops::RangeInclusive<u32> = 0..=100;
/// The accepted range of [`GeneratorSettings::extra_connector_chance`]
/// (`--extra-connector-chance`; 0 opens no extra connector).
pub const EXTRA_CONNECTOR_CHANCE_RANGE: std::ops::RangeInclusive<u32> = 0..=1_000_000;
/// The accepted range of [`GeneratorSettings::max_tries`] (`--max-tries`).
pub const MAX_TRIES_RANGE: std::ops::RangeInclusive<u32> = 1..=MAX_TRIES;

/// The tunable parameters of rooms-and-mazes, named as in Nystrom 2014 and Hauberk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneratorSettings {
    /// `--room-tries`, 0..=1000: room placement attempts per 1,000 tiles of the generation
    /// area (Hauberk's `numRoomTries`, scaled to the world's size; at least one try is always
    /// made). Default 20: 45 tries on an 80 × 30 world. Higher: more rooms and more openness,
    /// less maze between them.
    pub room_tries_per_1000_tiles: u32,
    /// `--room-extra-size`, 0..=20: Hauberk's `roomExtraSize`; a room's side is
    /// `2 × rng.range(1, 3 + extra) + 1` tiles before rectangularity is added. Default 1
    /// (sides 3, 5 or 7). Higher: larger rooms, fewer of them.
    pub room_extra_size: u32,
    /// `--winding-percent`, 0..=100: Hauberk's `windingPercent`, the chance, in percent, that
    /// a maze corridor turns where it could go straight on. Default 30. Higher: twistier
    /// corridors and longer walks; 0 gives long straight halls.
    pub winding_percent: u32,
    /// `--extra-connector-chance`, 0..=1000000: Hauberk's `extraConnectorChance`; each
    /// redundant connector is opened with a 1-in-N chance, adding loops. 0 adds none.
    /// Default 20, as in Hauberk. Lower (but not 0): more loops, more ways round.
    pub extra_connector_chance: u32,
    /// What a world must meet ([`crate::metrics`]); the default constrains nothing.
    pub requirements: Requirements,
    /// `--max-tries`, 1..=10000: how many worlds [`generate_for_seed`] tries before it gives
    /// up on the requirements. Default 100.
    pub max_tries: u32,
    /// `--generator`: which generator makes the worlds (default rooms-and-mazes, the Java
    /// game's; the fields above are its parameters).
    pub generator: GeneratorKind,
    /// LootQuest's own parameters (`--rooms`, `--critical-path`, …), used when `generator`
    /// is [`GeneratorKind::LootQuest`].
    pub lootquest: LootQuestSettings,
}

/// Which generator makes a world (`--generator`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum GeneratorKind {
    /// Bob Nystrom's rooms and mazes (2014), the default: every classic world is Java-parity.
    #[default]
    RoomsAndMazes,
    /// Tanner Rogalsky's LootQuest generator (2014): a room graph with the asked critical
    /// path and dead-end length, placed in the grid ([`lootquest`]).
    LootQuest,
}

impl GeneratorKind {
    /// Its name on the command line and in outputs: `rooms-and-mazes`, `lootquest`.
    pub fn name(self) -> &'static str {
        match self {
            GeneratorKind::RoomsAndMazes => "rooms-and-mazes",
            GeneratorKind::LootQuest => "lootquest",
        }
    }
}

impl Default for GeneratorSettings {
    fn default() -> Self {
        GeneratorSettings {
            room_tries_per_1000_tiles: 20,
            room_extra_size: 1,
            winding_percent: 30,
            extra_connector_chance: 20,
            requirements: Requirements::default(),
            max_tries: DEFAULT_MAX_TRIES,
            generator: GeneratorKind::RoomsAndMazes,
            lootquest: LootQuestSettings::default(),
        }
    }
}

/// Why a world could not be generated. Messages are in the library's words ("width",
/// "minimum openness"); a front-end that names settings otherwise (the command line's
/// `--width`) matches on the variants and their [`Setting`]s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The width or height is outside `MIN_SIDE..=MAX_SIDE`.
    #[error(
        "world size {width} × {height} is not supported: each side must be {MIN_SIDE}..={MAX_SIDE} tiles"
    )]
    InvalidSize {
        /// Requested width, tiles.
        width: usize,
        /// Requested height, tiles.
        height: usize,
    },
    /// One setting is outside its range, e.g. "winding percent 101 is out of range 0..=100".
    #[error("{setting} {value} is out of range {}..={}", .range.start(), .range.end())]
    InvalidSetting {
        /// Which setting.
        setting: Setting,
        /// The value given, in the setting's unit (tiles, percent, tries, moves, …).
        value: u64,
        /// The values it takes, both ends included.
        range: std::ops::RangeInclusive<u64>,
    },
    /// A range setting whose minimum is above its maximum, e.g. "room size 9..5: the minimum
    /// is above the maximum".
    #[error("{setting} {min}..{max}: the minimum is above the maximum")]
    ReversedRange {
        /// Which setting ([`Setting::RoomSize`], [`Setting::RoomSpacing`]).
        setting: Setting,
        /// The minimum given.
        min: u32,
        /// The maximum given, below the minimum.
        max: u32,
    },
    /// LootQuest could not lay out the asked critical path in the world
    /// ([`lootquest::generate`]): the numbers asked and what would fit.
    #[error(
        "no LootQuest dungeon with a critical path of {critical_path} rooms fits {width} × {height} tiles \
         (rooms {room_min}..{room_max} tiles a side, corridors {spacing_min}..{spacing_max} tiles) in {}: {fits}",
        n_tries(*.tries)
    )]
    LootQuestUnmet {
        /// The critical path asked, in rooms.
        critical_path: u32,
        /// World width, tiles.
        width: usize,
        /// World height, tiles.
        height: usize,
        /// Smallest room side asked, tiles.
        room_min: u32,
        /// Largest room side asked, tiles.
        room_max: u32,
        /// Shortest corridor asked, tiles.
        spacing_min: u32,
        /// Longest corridor asked, tiles.
        spacing_max: u32,
        /// Layouts tried (0 when the check before placement already failed).
        tries: u32,
        /// What would fit, e.g. "the longest critical path placed was 9 rooms".
        fits: String,
        /// The run's floor (1-based) when the world was a run's floor, whose size the depth
        /// table derives from the run's largest.
        floor: Option<u32>,
    },
    /// A requirement's minimum is above its maximum, e.g. "minimum room count 9 is above
    /// maximum room count 3: no world can meet both".
    #[error("{minimum} {minimum_bound} is above {maximum} {maximum_bound}: no world can meet both")]
    ContradictoryRequirements {
        /// The minimum (`MinOpenness`, `MinRooms`).
        minimum: Requirement,
        /// Its bound.
        minimum_bound: u32,
        /// The maximum of the same metric (`MaxOpenness`, `MaxRooms`).
        maximum: Requirement,
        /// Its bound, below the minimum's.
        maximum_bound: u32,
    },
    /// No try of a run's floor had a route that fits its move allowance
    /// (`byog_game::run::floor`).
    #[error(
        "run seed {seed}: no try of floor B{floor} fits its move budget in {}; \
         try another seed, or a larger world (small floors fit their budget less often)",
        n_tries(*.tries)
    )]
    NoFloorFits {
        /// The run's seed.
        seed: u64,
        /// The floor, 1-based.
        floor: u32,
        /// How many derived seeds were tried.
        tries: u32,
    },
    /// No world of a run's floor met the requirements: [`GenerateError::RequirementsUnmet`]
    /// named by the run's seed and the floor (a floor's own seed is derived from them and
    /// means nothing to the player).
    #[error(
        "run seed {seed}: no world for floor B{floor} ({width} × {height} tiles) met the requirements in {}; {requirement} failed most often ({failures} of {}), and the closest value reached was: {closest}",
        n_tries(*.tries),
        n_tries(*.tries)
    )]
    FloorRequirementsUnmet {
        /// The run's seed.
        seed: u64,
        /// The floor, 1-based.
        floor: u32,
        /// The floor's width, tiles.
        width: usize,
        /// The floor's height, tiles.
        height: usize,
        /// How many worlds were tried.
        tries: u32,
        /// The requirement missed most often.
        requirement: Requirement,
        /// How many tries missed it.
        failures: u32,
        /// That requirement's closest miss.
        closest: String,
    },
    /// No world met the requirements within `max_tries` tries.
    #[error(
        "seed {seed}: no world met the requirements in {}; {requirement} failed most often ({failures} of {}), and the closest value reached was: {closest}",
        n_tries(*.tries),
        n_tries(*.tries)
    )]
    RequirementsUnmet {
        /// The seed asked for.
        seed: u64,
        /// How many worlds were tried ([`GeneratorSettings::max_tries`]).
        tries: u32,
        /// The requirement missed most often (the first in [`Requirement::ALL`] order on a tie).
        requirement: Requirement,
        /// How many tries missed it.
        failures: u32,
        /// That requirement's closest miss, e.g. "openness 61.2% is below the minimum 99%".
        closest: String,
    },
}

impl GenerateError {
    /// [`GenerateError::InvalidSetting`]: `setting` is `value`, outside `range`.
    pub fn invalid_setting(
        setting: Setting,
        value: u64,
        range: std::ops::RangeInclusive<u64>,
    ) -> Self {
        GenerateError::InvalidSetting {
            setting,
            value,
            range,
        }
    }
}

/// A setting the library checks, as [`GenerateError::InvalidSetting`] names it. Its
/// `Display` is the library's name for it ("room tries", "branch timer", "minimum
/// openness"); the command line maps each to its flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setting {
    /// A world's width, in tiles.
    Width,
    /// A world's height, in tiles.
    Height,
    /// [`GeneratorSettings::room_tries_per_1000_tiles`].
    RoomTries,
    /// [`GeneratorSettings::room_extra_size`].
    RoomExtraSize,
    /// [`GeneratorSettings::winding_percent`].
    WindingPercent,
    /// [`GeneratorSettings::extra_connector_chance`].
    ExtraConnectorChance,
    /// [`GeneratorSettings::max_tries`].
    MaxTries,
    /// A run's number of floors.
    Floors,
    /// An exploration's most unexplored exits a branch holds at once.
    MaxUnexplored,
    /// An exploration's moves before a start exit leads into a new branch.
    BranchTimer,
    /// A requirement's bound.
    Requirement(Requirement),
    /// [`LootQuestSettings::rooms`].
    Rooms,
    /// [`LootQuestSettings::critical_path`].
    CriticalPath,
    /// [`LootQuestSettings::max_dead_end`].
    MaxDeadEnd,
    /// [`LootQuestSettings::room_size_min`] and `room_size_max`.
    RoomSize,
    /// [`LootQuestSettings::room_spacing_min`] and `room_spacing_max`.
    RoomSpacing,
    /// [`LootQuestSettings::loops_percent`].
    Loops,
}

impl std::fmt::Display for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = match self {
            Setting::Width => "width",
            Setting::Height => "height",
            Setting::RoomTries => "room tries",
            Setting::RoomExtraSize => "room extra size",
            Setting::WindingPercent => "winding percent",
            Setting::ExtraConnectorChance => "extra connector chance",
            Setting::MaxTries => "max tries",
            Setting::Floors => "floors",
            Setting::MaxUnexplored => "max unexplored",
            Setting::BranchTimer => "branch timer",
            Setting::Rooms => "rooms",
            Setting::CriticalPath => "critical path",
            Setting::MaxDeadEnd => "max dead end",
            Setting::RoomSize => "room size",
            Setting::RoomSpacing => "room spacing",
            Setting::Loops => "loops",
            Setting::Requirement(r) => return write!(f, "{r}"),
        };
        f.write_str(name)
    }
}

/// "1 try", "3 tries": a count of tries in [`GenerateError`]'s messages.
fn n_tries(n: u32) -> String {
    if n == 1 {
        "1 try".to_owned()
    } else {
        format!("{n} tries")
    }
}

/// A rectangle of floor carved as a room, in tiles; `(x, y)` is its bottom-left tile (not an
/// exploration's `byog_game::explore::Room`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomRect {
    /// Left column.
    pub x: i32,
    /// Bottom row.
    pub y: i32,
    /// Width in tiles (odd).
    pub width: i32,
    /// Height in tiles (odd).
    pub height: i32,
}

impl RoomRect {
    /// Whether `pos` lies inside the room.
    pub fn contains(&self, pos: Pos) -> bool {
        pos.x >= self.x
            && pos.x < self.x + self.width
            && pos.y >= self.y
            && pos.y < self.y + self.height
    }
}

/// A generated level: the world's tiles (avatar and exit included), where the avatar and the
/// exit are, and the rooms that were carved (Hauberk's stage; not an exploration's
/// `byog_game::explore::Dungeon`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// The tiles, `@` and `█` included.
    pub world: World,
    /// The avatar's tile.
    pub avatar: Pos,
    /// The exit's tile (a LOCKED_DOOR in the wall).
    pub exit: Pos,
    /// The rooms, in the order they were placed.
    pub rooms: Vec<RoomRect>,
}

/// Checks a world size against `MIN_SIDE..=MAX_SIDE`.
///
/// # Errors
/// [`GenerateError::InvalidSize`] when a side is out of range.
pub fn check_size(width: usize, height: usize) -> Result<(), GenerateError> {
    let ok = |s: usize| (MIN_SIDE..=MAX_SIDE).contains(&s);
    if ok(width) && ok(height) {
        Ok(())
    } else {
        Err(GenerateError::InvalidSize { width, height })
    }
}

impl GeneratorSettings {
    /// Checks each setting against its documented range.
    ///
    /// # Errors
    /// [`GenerateError::InvalidSetting`] naming the first setting out of its range (or a
    /// requirement's bound out of 0..=100), [`GenerateError::ContradictoryRequirements`]
    /// for a minimum above its maximum.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let ranges = [
            (
                Setting::RoomTries,
                self.room_tries_per_1000_tiles,
                ROOM_TRIES_RANGE,
            ),
            (
                Setting::RoomExtraSize,
                self.room_extra_size,
                ROOM_EXTRA_SIZE_RANGE,
            ),
            (
                Setting::WindingPercent,
                self.winding_percent,
                WINDING_PERCENT_RANGE,
            ),
            (
                Setting::ExtraConnectorChance,
                self.extra_connector_chance,
                EXTRA_CONNECTOR_CHANCE_RANGE,
            ),
            (Setting::MaxTries, self.max_tries, MAX_TRIES_RANGE),
        ];
        for (setting, value, range) in ranges {
            if !range.contains(&value) {
                return Err(GenerateError::invalid_setting(
                    setting,
                    value.into(),
                    u64::from(*range.start())..=u64::from(*range.end()),
                ));
            }
        }
        self.lootquest.validate()?;
        self.requirements.validate().map_err(GenerateError::from)
    }
}

/// Generates one world of `width × height` tiles, drawing from `rng`: rooms-and-mazes, or
/// LootQuest when `settings.generator` asks for it ([`lootquest::generate`]).
///
/// # Errors
/// [`GenerateError`] for a size or setting out of range; with valid arguments rooms-and-mazes
/// always succeeds (it always places at least one room, and each step does bounded work);
/// LootQuest fails with [`GenerateError::LootQuestUnmet`] when the critical path asked does
/// not fit.
pub fn generate<R: Rng + ?Sized>(
    rng: &mut R,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
) -> Result<Level, GenerateError> {
    check_size(width, height)?;
    settings.validate()?;
    if settings.generator == GeneratorKind::LootQuest {
        return lootquest::generate(rng, width, height, &settings.lootquest);
    }
    // One check of the thread's watch a world; reports only when watched (`progress`).
    let watched = progress::is_watched();
    let stage = |stage| {
        if watched {
            progress::report(stage, 0.0);
        }
    };
    stage(Stage::Rooms);
    let mut carver = Carver::new(width, height);
    let rooms = carver.add_rooms(rng, settings);
    debug_assert!(
        rooms.iter().all(|r| carver.room_fits(r)),
        "rooms sit on odd coordinates, with odd sides, inside the area"
    );
    stage(Stage::Mazes);
    carver.grow_mazes(rng, settings.winding_percent);
    debug_assert!(
        carver.cells.iter().all(|&c| c == 1),
        "rooms and mazes carve every cell"
    );
    carver.connect_regions(rng, settings.extra_connector_chance);
    debug_assert_eq!(
        carver.open_components(),
        1,
        "every region is merged into one"
    );
    stage(Stage::DeadEnds);
    carver.remove_dead_ends();
    debug_assert_eq!(carver.dead_ends(), 0, "no dead end remains");
    debug_assert_eq!(
        carver.open_components(),
        1,
        "removing dead ends disconnects nothing"
    );
    stage(Stage::Placement);
    let (world, avatar, exit) = carver.finish(rng);
    if watched {
        progress::report(Stage::Placement, 1.0);
    }
    debug_assert_eq!(world.get(avatar), Some(byog_tile_engine::Tile::Player));
    debug_assert!(
        world.get(exit) == Some(byog_tile_engine::Tile::LockedDoor)
            && exit
                .neighbours()
                .iter()
                .any(|&n| world.get(n).is_some_and(|t| t.is_walkable())),
        "the exit is a door next to open ground"
    );
    Ok(Level {
        world,
        avatar,
        exit,
        rooms,
    })
}

/// A world generated for a seed, with the random generator as generation left it (a game goes
/// on drawing from it) and the number of worlds tried.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The world that met the requirements.
    pub level: Level,
    /// The generator after generation.
    pub rng: Pcg64,
    /// Worlds tried, 1 when the first met the requirements.
    pub tries: u32,
}

/// The version of the worlds a seed gives: bump it in the same change that makes any seed's
/// world differ (a snapshot or golden-hash diff of generation, a new `sub_seed`, a changed step
/// or requirement check). The seed catalog (`byog_catalog`) keys what it remembers by
/// it, so a catalog written by an older generator is never trusted; `tests/catalog.rs` holds
/// golden world hashes that fail when the worlds change without it.
pub const GENERATOR_VERSION: u32 = 1;

/// The seed of try number `attempt` (0-based) for `seed`: the seed itself for the first try,
/// then a SplitMix64 mix of the two (Steele, Lea and Flood, "Fast splittable pseudorandom
/// number generators", 2014), so every retry is as reproducible as the first try.
pub fn sub_seed(seed: u64, attempt: u32) -> u64 {
    if attempt == 0 {
        return seed;
    }
    let mut z = seed ^ u64::from(attempt).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Generates the world for `seed`: a `Pcg64` seeded with `seed_from_u64(seed)` makes the first
/// try; while the world misses `settings.requirements`, try `n` uses
/// [`sub_seed`]`(seed, n)`, up to `settings.max_tries` tries. With no requirements (the
/// default) the first world is taken without measuring it.
///
/// # Errors
/// [`GenerateError::InvalidSize`] or [`GenerateError::InvalidSetting`] for bad arguments;
/// [`GenerateError::RequirementsUnmet`] when no try met the requirements, naming the
/// requirement missed most often and its closest value.
pub fn generate_for_seed(
    seed: u64,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
) -> Result<Generated, GenerateError> {
    generate_for_seed_with(seed, width, height, settings, &mut NoMemory)
}

/// What [`generate_for_seed_with`] tells of its tries, and a try it may start at: the hook of
/// a memory of tries such as the seed catalog (`byog_catalog`). Every method has a
/// default that remembers nothing.
pub trait Tries {
    /// A try remembered as the first to meet the requirements, to be made first. The loop
    /// keeps its world only when [`Tries::confirm`] accepts it and it meets the requirements
    /// (and the try is below `max_tries`); otherwise it forgets it and tries from 0, so the
    /// world is always the one made without the memory.
    fn remembered(&mut self) -> Option<u32> {
        None
    }

    /// Whether the remembered try's `level` is the world remembered (its hash).
    fn confirm(&mut self, _attempt: u32, _level: &Level) -> bool {
        false
    }

    /// Asked when no pass is remembered (or it was not confirmed): tries `0..n` remembered as
    /// missing the requirements, each with what it missed. The loop makes try `n - 1` again;
    /// when it misses exactly the same, the `n` tries count as made (their misses go into the
    /// error's tally) and the loop goes on from try `n`; otherwise they are forgotten and it
    /// starts at 0. They are used only when `n <= max_tries`.
    fn remembered_failures(&mut self) -> Vec<Vec<Unmet>> {
        Vec::new()
    }

    /// Says whether the remembered failures were confirmed (the loop goes on from `from`).
    fn resumed(&mut self, _from: u32, _confirmed: bool) {}

    /// Try `attempt` (0-based) missed the requirements `unmet` (in [`Requirement::ALL`]
    /// order).
    fn failed(&mut self, _attempt: u32, _unmet: &[Unmet]) {}

    /// Try `attempt` met the requirements: its level and, when they constrain anything, the
    /// metrics they were checked on.
    fn passed(&mut self, _attempt: u32, _level: &Level, _metrics: Option<&metrics::Metrics>) {}
}

/// [`Tries`] that remembers nothing: [`generate_for_seed`].
#[derive(Debug, Clone, Copy, Default)]
pub struct NoMemory;

impl Tries for NoMemory {}

/// A memory of tries for many seeds at once, shared by threads: the seed catalog
/// (`byog-catalog`) is one. [`SeedMemory::tries`] gives the [`Tries`] of one seed.
pub trait SeedMemory: Sync {
    /// The memory of `seed`'s tries, for one [`generate_for_seed_with`].
    fn tries(&self, seed: u64) -> Box<dyn Tries + '_>;
}

/// [`generate_for_seed`], telling `tries` of each try and starting at the passing try it
/// remembers, or after the failed tries it remembers, once each is confirmed (see [`Tries`]):
/// the world, its generator state, [`Generated::tries`] (the 1-based number of the try kept,
/// not the worlds made) and the error are the same as without it.
///
/// # Errors
/// As [`generate_for_seed`].
pub fn generate_for_seed_with(
    seed: u64,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
    tries: &mut dyn Tries,
) -> Result<Generated, GenerateError> {
    check_size(width, height)?;
    settings.validate()?;
    let requirements = &settings.requirements;
    let verdict = |level: &Level| {
        if requirements.is_unconstrained() {
            (None, Ok(()))
        } else {
            let m = metrics::measure(&level.world, level.avatar, level.exit);
            let v = requirements.check(&m);
            (Some(m), v)
        }
    };
    if let Some(attempt) = tries.remembered().filter(|&a| a < settings.max_tries) {
        let mut rng = Pcg64::seed_from_u64(sub_seed(seed, attempt));
        let level = generate(&mut rng, width, height, settings)?;
        if tries.confirm(attempt, &level)
            && let (m, Ok(())) = verdict(&level)
        {
            tries.passed(attempt, &level, m.as_ref());
            return Ok(Generated {
                level,
                rng,
                tries: attempt + 1,
            });
        }
    }
    let mut failures = [0u32; Requirement::ALL.len()];
    let mut closest: [Option<Unmet>; Requirement::ALL.len()] = [None; Requirement::ALL.len()];
    let mut tally = |unmet: &[Unmet]| {
        for u in unmet {
            let k = u.requirement as usize;
            failures[k] += 1;
            if closest[k].is_none_or(|c| u.gap() < c.gap()) {
                closest[k] = Some(*u);
            }
        }
    };
    let mut start = 0;
    let known = tries.remembered_failures();
    if let Some(last) = known.last()
        && let Ok(n) = u32::try_from(known.len())
        && n <= settings.max_tries
    {
        let mut rng = Pcg64::seed_from_u64(sub_seed(seed, n - 1));
        let level = generate(&mut rng, width, height, settings)?;
        let confirmed = matches!(verdict(&level), (_, Err(unmet)) if unmet == *last);
        if confirmed {
            known.iter().for_each(|u| tally(u));
            start = n;
        }
        tries.resumed(start, confirmed);
    }
    for attempt in start..settings.max_tries {
        let mut rng = Pcg64::seed_from_u64(sub_seed(seed, attempt));
        let level = generate(&mut rng, width, height, settings)?;
        match verdict(&level) {
            (m, Ok(())) => {
                tries.passed(attempt, &level, m.as_ref());
                return Ok(Generated {
                    level,
                    rng,
                    tries: attempt + 1,
                });
            }
            (_, Err(unmet)) => {
                tries.failed(attempt, &unmet);
                tally(&unmet);
            }
        }
    }
    let worst = (0..failures.len())
        .max_by_key(|&k| (failures[k], std::cmp::Reverse(k)))
        .unwrap_or(0);
    Err(GenerateError::RequirementsUnmet {
        seed,
        tries: settings.max_tries,
        requirement: Requirement::ALL[worst],
        failures: failures[worst],
        closest: closest[worst].map_or_else(String::new, |u| u.to_string()),
    })
}

/// Region id of rock (not carved); regions are numbered from 1, so an all-rock grid is a
/// zeroed allocation.
const ROCK: u32 = 0;

/// The generator's working state: which tiles are carved, and the region of every maze cell.
///
/// Tiles are addressed by row-major index `y * width + x`. Carving happens only inside the
/// odd-sized area `[1, area_width - 1) × [1, area_height - 1)`, so `index ± 1` and
/// `index ± width` of a carved tile are always inside the grid.
///
/// Regions are kept a cell, not a tile: rooms sit on cells and cover whole cells, and a maze
/// passage between two cells belongs to their region, so every carved tile has the region of
/// the cell at its bottom-left, `((x - 1) / 2, (y - 1) / 2)` in cells (an opened connector, a
/// junction, is the one exception, and no step needs its region). Four times fewer region ids
/// than tiles keep the large worlds' working set in cache.
#[derive(Debug, Clone)]
pub struct Carver {
    width: usize,
    height: usize,
    area_width: usize,
    area_height: usize,
    /// 1 for carved (open) ground, 0 for rock, a byte a tile.
    open: Vec<u8>,
    /// The maze cells (odd `(x, y)` tiles of the area) as a grid of their own, one byte a
    /// cell, 1 once carved (by a room or a maze), with a border of cells that count as carved.
    /// Room placement tests overlap on it (a quarter of the tiles, a byte each) and the maze's
    /// "is the cell two steps away still rock and inside the area?" (Hauberk's `_canCarve`) is
    /// one load.
    cells: Vec<u8>,
    /// The region of each cell, indexed as `cells` (`ROCK` until carved).
    cell_regions: Vec<u32>,
    /// Cells a row of `cells`, border included.
    cell_stride: usize,
    region_count: u32,
    /// One bit a tile, set while [`merge_regions`](Carver::merge_regions) runs for the 3 × 3
    /// tiles around each opened connector: the "is a junction next to this connector?" test
    /// reads one bit instead of 8 tiles.
    near_junction: Vec<u64>,
}

impl Carver {
    /// An all-rock grid of `width × height` tiles. Sides must be at least [`MIN_SIDE`].
    pub fn new(width: usize, height: usize) -> Self {
        let odd = |s: usize| if s.is_multiple_of(2) { s - 1 } else { s };
        let (area_width, area_height) = (odd(width), odd(height));
        let (columns, rows) = ((area_width - 1) / 2, (area_height - 1) / 2);
        let cell_stride = columns + 2;
        let mut cells = vec![1; cell_stride * (rows + 2)];
        for row in cells.chunks_exact_mut(cell_stride).skip(1).take(rows) {
            row[1..=columns].fill(0);
        }
        Carver {
            width,
            height,
            area_width,
            area_height,
            open: vec![0; width * height],
            cell_regions: vec![ROCK; cells.len()],
            cells,
            cell_stride,
            region_count: 0,
            near_junction: Vec::new(),
        }
    }

    /// A new region id (1, 2, …).
    fn start_region(&mut self) -> u32 {
        self.region_count += 1;
        self.region_count
    }

    #[inline]
    fn idx(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// The index in `cells` of the cell at tile `(x, y)` (both odd, inside the area), or of
    /// the cell at the bottom-left of any tile inside the area.
    #[inline]
    fn cell(&self, x: usize, y: usize) -> usize {
        ((y - 1) / 2 + 1) * self.cell_stride + (x - 1) / 2 + 1
    }

    /// The region of tile `i` (`ROCK` if not carved) as it was before any connector opened.
    fn region_at(&self, i: usize) -> u32 {
        if self.open[i] == 0 {
            return ROCK;
        }
        self.cell_regions[self.cell(i % self.width, i / self.width)]
    }

    /// Whether a room sits on odd coordinates with odd sides inside the carving area (a
    /// debug check of [`Carver::add_rooms`]).
    fn room_fits(&self, r: &RoomRect) -> bool {
        r.x % 2 == 1
            && r.y % 2 == 1
            && r.width % 2 == 1
            && r.height % 2 == 1
            && r.x + r.width < self.area_width as i32
            && r.y + r.height < self.area_height as i32
    }

    /// The 4-connected components of the open tiles (a debug check, linear in tiles).
    fn open_components(&self) -> usize {
        let grid = byog_tile_engine::search::Grid::around(self.width, self.height);
        let mut member = vec![false; grid.len()];
        for (y, row) in self.open.chunks(self.width).enumerate() {
            let start = (y + 1) * grid.width + 1;
            for (m, &o) in member[start..start + self.width].iter_mut().zip(row) {
                *m = o != 0;
            }
        }
        byog_tile_engine::search::label_components(grid, &member)
            .1
            .len()
    }

    /// Open tiles with at most one open neighbour (a debug check, linear in tiles).
    fn dead_ends(&self) -> usize {
        let w = self.width;
        (w..self.open.len() - w)
            .filter(|&i| self.open[i] != 0)
            .filter(|&i| {
                let around =
                    self.open[i - 1] + self.open[i + 1] + self.open[i - w] + self.open[i + w];
                around <= 1
            })
            .count()
    }

    /// The four cardinal neighbours' indices of an interior tile: up (+y), right, down, left.
    #[inline]
    fn cardinal(&self, i: usize) -> [usize; 4] {
        [i + self.width, i + 1, i - self.width, i - 1]
    }
}

/// A requirement out of range or two that contradict each other, as the generator's error
/// (the metrics know nothing of the generator).
impl From<RequirementsError> for GenerateError {
    fn from(e: RequirementsError) -> Self {
        match e {
            RequirementsError::OutOfRange {
                requirement,
                bound,
                max,
            } => GenerateError::InvalidSetting {
                setting: Setting::Requirement(requirement),
                value: bound.into(),
                range: 0..=max.into(),
            },
            RequirementsError::Contradictory {
                minimum,
                minimum_bound,
                maximum,
                maximum_bound,
            } => GenerateError::ContradictoryRequirements {
                minimum,
                minimum_bound,
                maximum,
                maximum_bound,
            },
        }
    }
}
