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
//! Every step costs one move; a bump into a wall costs nothing. A floor `k` hands over its
//! moves in parts (`docs/runs.md`), its spare moves `Aₖ − Dₖ` (the allowance `Aₖ`, par ×
//! the depth table's budget in percent, less the direct distance `Dₖ` from its start into its
//! exit) shared three ways:
//!
//! - on arrival ([`arrival`]), `Dₖ` and the [`arrival_slack`] (about 10% of the spare
//!   moves), plus the [`perfect_bonus`] (10%) when the floor above was perfect (B1 as if it
//!   were, with [`START_CARRY_PERCENT`] of its par carried in: [`start`]), besides the moves
//!   carried down from the floor above (at most [`depth::CARRY_PERCENT`] of `parₖ`, the rest
//!   paid as points);
//! - each feature, the first time it is handled, pays [`feature_moves`] at once: the same
//!   for every chest and trap of the floor, `mₖ = (Aₖ − Dₖ) × 80/100 / features`, however far
//!   off the way it stands. Its points grow with its seclusion ([`feature_points`]), its
//!   moves do not: a secluded feature costs more moves than it pays, one by the way pays more
//!   than it costs, and which to take is the player's choice.
//!
//! So a perfect floor reached after a perfect one hands over exactly `Aₖ` plus the moves
//! carried. Two things follow:
//!
//! - **every run is winnable**: every floor is reached with at least `Dₖ`, enough to walk
//!   straight into its exit, and so on to the last floor;
//! - **the solver's route is perfect in practice, not by construction**: its par is at most
//!   `Aₖ`, but part of the moves come only as the features are handled, so the route fits
//!   only if the moves never reach 0 on the way ([`route::Router::fits`]); measured on
//!   every floor of run seeds 0..2000, it always did (`docs/runs.md`).

pub mod depth;
pub mod floor;
pub mod route;
pub mod survey;

use serde::{Deserialize, Serialize};

use byog_tile_engine::{Pos, Tile};
use byog_worlds::generator::{self, GenerateError, GeneratorSettings, Setting};

pub use depth::{DEFAULT_FLOORS, DepthParams, MAX_FLOORS};
pub use floor::Floor;

/// The moves a feature of a floor pays the first time it is handled (`info` its make,
/// `weights` the weights ([`weights`]) of all its features, the number of its features):
/// [`FEATURE_SHARE_PERCENT`] of the floor's spare moves (its allowance less its direct
/// distance) shared equally, rounded down; 0 for a floor without features. The same for
/// every feature of the floor, however far off the way it stands (`docs/runs.md`).
pub fn feature_unit(info: &FloorInfo, weights: u64) -> u64 {
    let spare = info.allowance.saturating_sub(info.direct);
    (spare * FEATURE_SHARE_PERCENT / 100)
        .checked_div(weights)
        .unwrap_or(0)
}

/// The moves a feature of kind `kind` pays the first time it is handled on a floor whose
/// features weigh `weights` in all: `weight(kind) × feature_unit(info, weights)`, the same
/// for a chest and a trap since rules version 4 ([`weight`]).
pub fn feature_moves(info: &FloorInfo, weights: u64, kind: FeatureKind) -> u64 {
    weight(kind) * feature_unit(info, weights)
}

/// The moves each feature of `features` not handled yet pays when reached, in their order:
/// [`feature_moves`] the first time a feature is handled, 0 for one that paid already (a
/// rearmed trap). The targets' pay of a [`route::Router`] built over the same features (the
/// solver's rescue and the HUD's warning ask the same question with it).
pub fn unhandled_pays(info: &FloorInfo, features: &[Feature]) -> Vec<u64> {
    let weights = weights(features);
    features
        .iter()
        .filter(|f| !f.handled)
        .map(|f| {
            if f.paid {
                0
            } else {
                feature_moves(info, weights, f.kind)
            }
        })
        .collect()
}

/// The perfect-floor bonus of a floor: [`PERFECT_SHARE_PERCENT`] of its spare moves, handed
/// over on arriving at the floor when the floor above was perfect. (`weights` is kept for
/// the callers of rules version 3, where the bonus was the rest of the spare moves.)
pub fn perfect_bonus(info: &FloorInfo, weights: u64) -> u64 {
    let _ = weights;
    info.allowance.saturating_sub(info.direct) * PERFECT_SHARE_PERCENT / 100
}

/// The moves a floor hands over on arrival whatever was done above: its spare moves less
/// what its features pay in all and its [`perfect_bonus`] (about 10%, and the rounding).
pub fn arrival_slack(info: &FloorInfo, weights: u64) -> u64 {
    info.allowance
        .saturating_sub(info.direct)
        .saturating_sub(feature_unit(info, weights) * weights)
        .saturating_sub(perfect_bonus(info, weights))
}

/// The moves a floor hands the upkeeper on arrival, besides the moves carried down: its
/// direct distance `D` and its [`arrival_slack`], plus its [`perfect_bonus`] when the floor
/// above was perfect (`B1` is reached as if it were, [`start`]). With every feature then
/// handled (each paying [`feature_moves`]), a floor reached after a perfect one hands over
/// exactly its allowance `A`; an empty-handed player gets at least `D`, enough to walk
/// straight into the exit.
pub fn arrival(info: &FloorInfo, weights: u64, perfect_above: bool) -> u64 {
    info.direct
        + arrival_slack(info, weights)
        + if perfect_above {
            perfect_bonus(info, weights)
        } else {
            0
        }
}

/// The moves a run starts with on B1 (`info` its make, `weights` its features' weights): as
/// if reached from a perfect floor above that carried down [`START_CARRY_PERCENT`] of its
/// par, `arrival + par₁ × 60 / 100`. (Rules version 3 carried in all of par₁, so the first
/// floors were the easiest of the run: `docs/balance.md`.)
pub fn start(info: &FloorInfo, weights: u64) -> u64 {
    arrival(info, weights, true) + info.par.saturating_mul(START_CARRY_PERCENT) / 100
}

/// The weights ([`weight`]) of `features` in all: how many there are.
pub fn weights(features: &[Feature]) -> u64 {
    features.iter().map(|f| weight(f.kind)).sum()
}

/// A feature's weight in the moves it pays ([`feature_moves`]): [`FEATURE_WEIGHT`] for a
/// chest and a trap alike. (Rules version 3 weighed a chest 3 and a trap 1, so that a
/// secluded chest paid for its detour; since version 4 its points pay for it, not its moves.)
pub fn weight(_kind: FeatureKind) -> u64 {
    FEATURE_WEIGHT
}

/// Every feature's weight in the moves it pays ([`weight`]).
pub const FEATURE_WEIGHT: u64 = 1;

/// The share of a floor's spare moves (its allowance less its direct distance) that its
/// features pay when handled, in percent, equally ([`feature_unit`]). 90 under rules
/// version 3 (by weight, a chest 3 and a trap 1), 80 from 2026-11-24 to 2026-11-27 (then paid
/// on walking into the floor above's exit), 60 before (`docs/balance.md`).
pub const FEATURE_SHARE_PERCENT: u64 = 80;

/// The share of a floor's spare moves handed over as its perfect bonus, in percent
/// ([`perfect_bonus`]); the rest of the spare moves not paid by the features is handed over
/// on arrival whatever was done above ([`arrival_slack`]).
pub const PERFECT_SHARE_PERCENT: u64 = 10;

/// The share of B1's par a run starts with beyond B1's arrival moves, in percent ([`start`]):
/// 100 under rules version 3.
pub const START_CARRY_PERCENT: u64 = 60;

/// The points a feature of kind `kind` pays the first time it is handled on a floor of
/// `params`, standing `seclusion` tiles off the way ([`floor::Floor::seclusion`]): its
/// kind's points plus [`depth::DepthParams::seclusion_points`] a tile of seclusion, all
/// growing with depth (`docs/runs.md`: a chest by the way at B5 pays 50, one 30 tiles off
/// it 500).
pub fn feature_points(params: &depth::DepthParams, kind: FeatureKind, seclusion: u32) -> u64 {
    let base = match kind {
        FeatureKind::Chest => params.chest_points,
        FeatureKind::Trap => params.trap_points,
    };
    base + u64::from(seclusion) * params.seclusion_points
}

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
