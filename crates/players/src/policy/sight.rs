//! `sight`: a player of runs in the dark. It knows what the player knows: the tiles seen on
//! this floor, the features seen, the exit once seen, the HUD's numbers (moves left, health,
//! how many chests and traps the floor holds).
//!
//! Each step, from the observation alone (a breadth-first search from the avatar, and one
//! from the exit once it is seen, over the seen tiles with armed traps closed):
//! 1. **Exit seen.** The nearest seen feature still to handle whose detour fits (steps to it
//!    ≤ moves left, and steps to it plus steps from it into the exit ≤ moves left plus the
//!    moves it pays when first handled, the HUD's `chests 2/4 (+23) · traps 1/2 (+7)`); else, while features remain unseen (the
//!    HUD's totals against the features seen), the nearest frontier (an open tile beside an
//!    unseen one) that leaves [`RESERVE`] moves spare after the walk back to the exit; else
//!    the exit. When the safe way into the exit no longer fits, the shortest way that crosses
//!    armed traps, if it fits and leaves a heart.
//! 2. **Exit not seen** (or seen with no seen way into it). The nearest of the features to handle and the frontier tiles
//!    (features first on ties): explore, and handle what is found on the way.
//!
//! With [`SightPolicy::missing`] it is a player who misses one feature: on that floor the
//! first feature it sees stays untouched (its tile closed, as a wall would be) for the rest of
//! the floor. `byog stats --policy sight-miss` misses one on B2.

use super::seen::{SeenMap, nearest};
use crate::agent::Sight;
use byog_game::run::FeatureKind;
use byog_tile_engine::search::UNREACHED;
use byog_tile_engine::{Direction, Pos, Tile};

/// Moves kept spare, beyond the walk back to the exit, before exploring once the exit is
/// seen: exploring a frontier leads on into the unseen, and the walk back from there is
/// longer than from the frontier itself.
pub const RESERVE: u32 = 24;

/// The `sight` policy (and `sight-miss`, [`SightPolicy::missing`]).
#[derive(Debug, Clone, Default)]
pub struct SightPolicy {
    /// Handle features (`sight`) or not (`hurry`).
    pub(super) ignore_features: bool,
    /// The floor on which one feature is missed.
    pub(super) miss_on: Option<u32>,
    /// The feature missed, and its floor.
    pub(super) missed: Option<(u32, Pos)>,
}

impl SightPolicy {
    /// `sight`: explores, handles the features it sees, goes to the exit.
    pub fn new() -> SightPolicy {
        SightPolicy::default()
    }

    /// `sight`, but on floor `floor` (1-based) it misses the first feature it sees.
    pub fn missing(floor: u32) -> SightPolicy {
        SightPolicy {
            miss_on: Some(floor),
            ..SightPolicy::default()
        }
    }

    /// The next step for the observation `sight` of a run; `None` when the run is over or
    /// nothing can be reached.
    pub fn next(&mut self, sight: &Sight) -> Option<Direction> {
        let run = sight.run?;
        if self.miss_on == Some(run.floor)
            && self.missed.is_none_or(|(f, _)| f != run.floor)
            && let Some(f) = sight.features.iter().find(|f| !f.handled)
        {
            self.missed = Some((run.floor, f.pos));
        }
        let closed: Vec<Pos> = self
            .missed
            .filter(|(f, _)| *f == run.floor)
            .map(|(_, p)| p)
            .into_iter()
            .collect();
        let map = SeenMap::of(sight, false, &closed);
        let from_avatar = map.distances(&[map.avatar]);
        let todo: Vec<usize> = if self.ignore_features {
            Vec::new()
        } else {
            sight
                .features
                .iter()
                .filter(|f| !f.handled && f.pos != sight.avatar && !closed.contains(&f.pos))
                .filter_map(|f| map.index(f.pos))
                .filter(|&i| from_avatar[i] != UNREACHED)
                .collect()
        };
        let left = run.moves_left;
        let exit = sight.exit.and_then(|e| map.index(e));
        let reach = exit.and_then(|e| Some((e, map.reach(&from_avatar, e)?)));
        let Some((exit, to_exit)) = reach else {
            // Exit not seen (or seen, but no seen way leads into it yet): the nearest
            // feature or frontier, features first on ties.
            let frontier = map.frontier(&from_avatar);
            let target = nearest(&from_avatar, todo.iter().copied().chain(frontier));
            return match target {
                Some(t) => map.first_step(&from_avatar, t),
                None => crossing(sight, &closed, exit, run.health, left)
                    .or_else(|| crossing(sight, &closed, None, run.health, left)),
            };
        };
        if u64::from(to_exit) > left {
            if let Some(step) = crossing(sight, &closed, Some(exit), run.health, left) {
                return Some(step);
            }
            return map.first_step(&from_avatar, exit);
        }
        let from_exit = map.distances(&[exit]);
        let fits = |i: usize, extra: u64, pays: u64| {
            from_exit[i] != UNREACHED
                && u64::from(from_avatar[i]) <= left
                && u64::from(from_avatar[i]) + u64::from(from_exit[i]) + extra <= left + pays
        };
        let detour = |i: usize| {
            (u64::from(from_avatar[i]) + u64::from(from_exit[i])).saturating_sub(u64::from(to_exit))
        };
        // What a feature pays when handled, as the HUD says (`chest +24 · trap +8`): its
        // moves the first time, nothing once it has paid.
        let pays = |i: usize| {
            let pos = map.grid.pos(i);
            sight
                .features
                .iter()
                .find(|f| f.pos == pos && !f.paid)
                .map_or(0, |f| match f.kind {
                    FeatureKind::Chest => run.chest_moves,
                    FeatureKind::Trap => run.trap_moves,
                })
        };
        // Worth its detour: it pays back at least the steps it adds to the way into the exit.
        let worth = |i: usize| detour(i) <= pays(i);
        if let Some(f) = nearest(
            &from_avatar,
            todo.iter()
                .copied()
                .filter(|&i| fits(i, 0, pays(i)) && worth(i)),
        ) {
            return map.first_step(&from_avatar, f);
        }
        if !self.ignore_features && unseen_features(sight) > 0 {
            let refund = run.chest_moves.max(run.trap_moves);
            let frontier = map.frontier(&from_avatar);
            if let Some(t) = nearest(
                &from_avatar,
                frontier
                    .into_iter()
                    .filter(|&i| fits(i, u64::from(RESERVE), 0) && detour(i) <= refund),
            ) {
                return map.first_step(&from_avatar, t);
            }
        }
        map.first_step(&from_avatar, exit)
    }
}

/// Features on this floor not seen yet: the HUD's totals less the features seen.
pub fn unseen_features(sight: &Sight) -> u32 {
    let Some(run) = sight.run else {
        return 0;
    };
    let seen = |kind| sight.features.iter().filter(|f| f.kind == kind).count() as u32;
    run.chests_total.saturating_sub(seen(FeatureKind::Chest))
        + run.traps_total.saturating_sub(seen(FeatureKind::Trap))
}

/// The first step of a way that crosses armed traps, into the exit when `exit` is given
/// (if it fits the moves left), else to the nearest frontier; only while crossing leaves a
/// heart (each armed trap crossed costs one).
pub(super) fn crossing(
    sight: &Sight,
    closed: &[Pos],
    exit: Option<usize>,
    health: u32,
    left: u64,
) -> Option<Direction> {
    if health < 2 {
        return None;
    }
    let map = SeenMap::of(sight, true, closed);
    let dist = map.distances(&[map.avatar]);
    let target = match exit {
        Some(e) => e,
        None => nearest(&dist, map.frontier(&dist))?,
    };
    let path = map.path(&dist, target)?;
    let armed = path
        .iter()
        .filter(|&&i| sight.tile(map.grid.pos(i)) == Tile::TrapArmed)
        .count() as u32;
    let steps = path.len().saturating_sub(1) as u64;
    (armed < health && (exit.is_none() || steps <= left))
        .then(|| map.first_step(&dist, target))
        .flatten()
}
