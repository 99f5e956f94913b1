//! `greedy`: a player of runs who takes every feature it sees and never looks at the moves
//! left (budget-blind): the nearest seen feature still to handle; else, while the HUD says
//! features remain unseen or no seen way leads into the exit, `X` (the nearest frontier:
//! an open tile beside an unseen one), pressed again whenever it stops; else `>` (into the
//! exit, round the armed traps, else through as few as its hearts allow). It is the player
//! who plays a run as a checklist: the third pass measured it winning 89% of runs when every
//! feature paid back more than its detour (`docs/balance.md`).

use super::seen::{SeenMap, nearest};
use super::sight::{crossing, unseen_features};
use crate::agent::Sight;
use byog_game::travel::EXIT_RESERVE;
use byog_tile_engine::Direction;

/// The `greedy` policy.
#[derive(Debug, Clone, Default)]
pub struct GreedyPolicy;

impl GreedyPolicy {
    /// `greedy`.
    pub fn new() -> GreedyPolicy {
        GreedyPolicy
    }

    /// The next step for the observation `sight` of a run; `None` when the run is over or
    /// nothing can be reached.
    pub fn next(&mut self, sight: &Sight) -> Option<Direction> {
        let run = sight.run?;
        let map = SeenMap::of(sight, false, &[]);
        let from = map.distances(&[map.avatar]);
        let todo = sight
            .features
            .iter()
            .filter(|f| !f.handled && f.pos != sight.avatar)
            .filter_map(|f| map.index(f.pos));
        if let Some(f) = nearest(&from, todo) {
            return map.first_step(&from, f);
        }
        let exit = sight.exit.and_then(|e| map.index(e));
        let reach = exit.and_then(|e| map.reach(&from, e));
        // `X` walks while something is left to find, unless its stop rule holds it (the exit
        // a step from out of reach); pressed at the limit it refuses, and `>` comes next.
        let at_limit = reach.is_some_and(|n| {
            let spare = run.moves_left as i64 - i64::from(n);
            (0..=EXIT_RESERVE).contains(&spare)
        });
        if (unseen_features(sight) > 0 || reach.is_none())
            && !at_limit
            && let Some(t) = nearest(&from, map.frontier(&from))
        {
            return map.first_step(&from, t);
        }
        match (exit, reach) {
            (Some(e), Some(_)) => map.first_step(&from, e),
            _ => crossing(sight, &[], exit, run.health, u64::MAX)
                .or_else(|| crossing(sight, &[], None, run.health, u64::MAX)),
        }
    }
}
