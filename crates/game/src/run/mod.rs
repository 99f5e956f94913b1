//! Runs (`docs/runs.md`): Dungeon Upkeeper's game (Mini Jam 98, 2022) on
//! Nystrom's worlds. The upkeeper refills the chests and rearms the traps an adventurer left
//! behind, floor after floor (B1..B10), against a move budget; every run is winnable by
//! construction.
//!
//! - [`depth`]: the one table of how each parameter follows from a floor's depth;
//! - [`floor`]: a floor from (run seed, depth) alone: the world, its features placed by the
//!   metrics, the linear solvability check, the par route and the move allowance;
//! - [`route`]: routes over a floor (breadth-first distances between features, then a
//!   nearest-neighbour tour improved by 2-opt); the solver that plays them is a player, in
//!   `byog_players::solver`.
//!
//! The rules of a run live with the other rules ([`crate::rules`]); this module makes
//! floors and plans routes.
//!
//! # Moves
//!
//! A run starts with floor B1's allowance `A₁` (its par × the depth table's budget, in
//! percent). Every step costs one move; a bump into a wall costs nothing. Walking into floor
//! k's exit descends to floor k + 1 and earns `D₍ₖ₊₁₎ + handled × r + (perfect ? bonus : 0)`
//! moves, where `D₍ₖ₊₁₎` is the next floor's direct distance from its start into its exit,
//! `r = (A₍ₖ₊₁₎ − D₍ₖ₊₁₎) × 8/10 / weights` a unit of weight (a chest weighs 3, a trap 1;
//! `handled` counts weight too) and the bonus is the rest, so that a perfect
//! floor earns exactly the next floor's allowance. Two things follow:
//!
//! - **every run is winnable**: floor k's solver route (every feature, then the exit) costs
//!   its par, at most `Aₖ` (the budget is at least 100% of par, and a floor is accepted only
//!   if the route fits), and a perfect floor hands the next one its allowance;
//! - **reaching an exit always keeps the run winnable**: a descent earns at least the next
//!   floor's direct distance, so walking straight to each exit always fits. A run can
//!   therefore still be won exactly when it is not over and the current floor's exit can be
//!   reached within the moves left stepping on armed traps at most `health − 1` times; the
//!   solver decides that exactly.

pub mod depth;
pub mod floor;
pub mod route;
pub mod survey;

use serde::{Deserialize, Serialize};

use byog_tile_engine::{Pos, Tile};
use byog_worlds::generator::{self, GenerateError, GeneratorSettings, Setting};

pub use depth::{DEFAULT_FLOORS, DepthParams, MAX_FLOORS};
pub use floor::Floor;

/// The moves earned by walking into a floor's exit, given the next floor's make and the
/// weights ([`weight`]) of the floor's features, `total` in all and `handled` of those
/// handled: the next floor's direct distance, plus a share of the rest of its allowance for
/// each feature by its weight ([`FEATURE_SHARE_PERCENT`] in all), plus the remaining share
/// for a perfect floor. A perfect floor earns exactly the next allowance; an empty-handed one
/// earns enough to walk straight to the next exit. A feature missed costs its own share and
/// the perfect share, no more: falling behind is recoverable (`docs/balance.md`).
pub fn earned(next: &FloorInfo, total: u64, handled: u64) -> u64 {
    let spare = next.allowance.saturating_sub(next.direct);
    let each = (spare * FEATURE_SHARE_PERCENT / 100)
        .checked_div(total)
        .unwrap_or(0);
    let bonus = spare - each * total;
    next.direct + handled.min(total) * each + if handled >= total { bonus } else { 0 }
}

/// A feature's weight in the moves its floor earns ([`earned`]): a chest [`CHEST_WEIGHT`],
/// a trap [`TRAP_WEIGHT`].
pub fn weight(kind: FeatureKind) -> u64 {
    match kind {
        FeatureKind::Chest => CHEST_WEIGHT,
        FeatureKind::Trap => TRAP_WEIGHT,
    }
}

/// A chest's weight: chests stand in the most secluded rooms, far off the critical path, so
/// their detour is long, and the moves they pay cover it.
pub const CHEST_WEIGHT: u64 = 3;
/// A trap's weight: traps stand near the critical path, where a player who hurries to the
/// exit crosses them anyway; they pay a third of a chest.
pub const TRAP_WEIGHT: u64 = 1;

/// The share of the next floor's spare moves (its allowance less its direct distance) that
/// the features of a floor pay, in percent; the rest (20%) is the perfect floor's. It was 60
/// until 2026-11-24: one feature missed then cost 40% of the next floor's spare moves besides
/// its own share, and one miss led to the next.
pub const FEATURE_SHARE_PERCENT: u64 = 80;

/// Checks what a run is made with: the largest floor's size, the generator settings and the
/// number of floors (1..=[`MAX_FLOORS`]).
///
/// # Errors
/// [`GenerateError::InvalidSize`] or [`GenerateError::InvalidSetting`].
pub fn check_run(
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
    floors: u32,
) -> Result<(), GenerateError> {
    generator::check_size(width, height)?;
    settings.validate()?;
    if !(1..=MAX_FLOORS).contains(&floors) {
        return Err(GenerateError::invalid_setting(
            Setting::Floors,
            floors.into(),
            1..=MAX_FLOORS.into(),
        ));
    }
    Ok(())
}

/// A run's starting health (Dungeon Upkeeper's three hearts).
pub const START_HEALTH: u32 = 3;

/// What kind of feature stands on a floor tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FeatureKind {
    /// A chest: empty until the upkeeper steps on it, then full.
    Chest,
    /// A trap: sprung until the upkeeper steps on it (rearming it), then armed; stepping on
    /// an armed trap springs it on the upkeeper.
    Trap,
}

/// A chest or a trap on a floor tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Feature {
    /// Its tile.
    pub pos: Pos,
    /// Chest or trap.
    pub kind: FeatureKind,
    /// Whether the upkeeper handled it: a chest refilled, a trap rearmed (armed).
    pub handled: bool,
    /// Whether its points were paid: the first time it was handled. A feature pays once a
    /// floor (a trap rearmed, sprung and rearmed again pays once). Not part of the feature's
    /// own encoding: saves since format 4 store these bits beside the game
    /// (`docs/saves.md`), so older payloads decode unchanged.
    #[serde(skip)]
    pub paid: bool,
}

impl Feature {
    /// The tile the feature is drawn as.
    pub fn tile(&self) -> Tile {
        match (self.kind, self.handled) {
            (FeatureKind::Chest, false) => Tile::ChestEmpty,
            (FeatureKind::Chest, true) => Tile::ChestFull,
            (FeatureKind::Trap, false) => Tile::TrapSprung,
            (FeatureKind::Trap, true) => Tile::TrapArmed,
        }
    }

    /// Its state as the JSON names it: `"empty"`/`"full"`, `"sprung"`/`"armed"`.
    pub fn state_name(&self) -> &'static str {
        match (self.kind, self.handled) {
            (FeatureKind::Chest, false) => "empty",
            (FeatureKind::Chest, true) => "full",
            (FeatureKind::Trap, false) => "sprung",
            (FeatureKind::Trap, true) => "armed",
        }
    }

    /// `"chest"` or `"trap"`.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            FeatureKind::Chest => "chest",
            FeatureKind::Trap => "trap",
        }
    }
}

/// Why a run was lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Loss {
    /// The moves ran out before the floor's exit.
    OutOfMoves,
    /// The last health was lost to an armed trap.
    OutOfHealth,
}

impl Loss {
    /// In a player's words.
    pub fn reason(self) -> &'static str {
        match self {
            Loss::OutOfMoves => "out of moves",
            Loss::OutOfHealth => "out of health: an armed trap took the last heart",
        }
    }
}

/// What the current floor was made with, for the HUD, stats and the rewards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloorInfo {
    /// Which try of the floor's derived seeds was accepted (0: the first).
    pub attempt: u32,
    /// The move allowance `A` (par × budget / 100).
    pub allowance: u64,
    /// The direct distance `D` from the start into the exit (avoiding traps).
    pub direct: u64,
    /// The par route's length: every feature, then the exit. It can be shorter than
    /// `direct`: the route may pass through a trap it rearms on the way, which the direct
    /// way (stepping on no trap) may not.
    pub par: u64,
}

/// The state of a run beyond the current floor's tiles and things (which the game holds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunState {
    /// Floors in the run (`--floors`, 1..=99).
    pub floors: u32,
    /// The current floor, 1-based (B1 = 1).
    pub floor: u32,
    /// The largest floor's size, `--width × --height` in tiles.
    pub max_width: u32,
    /// See `max_width`.
    pub max_height: u32,
    /// Moves left; at 0 (away from an exit) the run is lost.
    pub moves_left: u64,
    /// Health, 3 at the start; at 0 the run is lost.
    pub health: u32,
    /// Points so far.
    pub score: u64,
    /// Floors finished with every feature handled.
    pub perfect_floors: u32,
    /// The current floor's make.
    pub info: FloorInfo,
    /// Why the run was lost, once it is.
    pub loss: Option<Loss>,
}
