//! `selective`: `greedy` with an eye on the moves left. It takes the nearest seen feature
//! whose detour fits: its detour (steps to it, then on into the exit, beyond the steps
//! straight into the exit) at most its refund (the moves it pays, the HUD's `(+N)`) plus the
//! moves to spare (the moves left less the moves still needed into the exit), that is steps
//! to it plus steps from it into the exit at most the moves left plus its refund. It explores
//! as `X` does in a run: while the exit is not seen (taking the features it meets that it
//! can reach), and once it is seen only while the HUD says features remain unseen and the
//! exit's way keeps more than [`EXIT_RESERVE`] moves to spare (`X`'s stop rule); then `>`.

use super::seen::{SeenMap, nearest};
use super::sight::{crossing, unseen_features};
use crate::agent::Sight;
use byog_game::run::FeatureKind;
use byog_game::travel::EXIT_RESERVE;
use byog_tile_engine::Direction;
use byog_tile_engine::search::UNREACHED;

/// The `selective` policy.
#[derive(Debug, Clone, Default)]
pub struct SelectivePolicy;

impl SelectivePolicy {
    /// `selective`.
    pub fn new() -> SelectivePolicy {
        SelectivePolicy
    }

    /// The next step for the observation `sight` of a run; `None` when the run is over or
    /// nothing can be reached.
    pub fn next(&mut self, sight: &Sight) -> Option<Direction> {
        let run = sight.run?;
        let left = run.moves_left;
        let map = SeenMap::of(sight, false, &[]);
        let from = map.distances(&[map.avatar]);
        // Each seen feature still to handle, reachable, with the moves it pays.
        let todo: Vec<(usize, u64)> = sight
            .features
            .iter()
            .filter(|f| !f.handled && f.pos != sight.avatar)
            .filter_map(|f| {
                let i = map.index(f.pos)?;
                let pays = match (f.paid, f.kind) {
                    (true, _) => 0,
                    (false, FeatureKind::Chest) => run.chest_moves,
                    (false, FeatureKind::Trap) => run.trap_moves,
                };
                (from[i] != UNREACHED).then_some((i, pays))
            })
            .collect();
        let exit = sight.exit.and_then(|e| map.index(e));
        let Some((exit, to_exit)) = exit.and_then(|e| Some((e, map.reach(&from, e)?))) else {
            // The exit not seen (or no seen way into it): what can be reached, and the
            // nearest frontier.
            let features = todo
                .iter()
                .filter(|&&(i, _)| u64::from(from[i]) < left)
                .map(|&(i, _)| i);
            return match nearest(&from, features.chain(map.frontier(&from))) {
                Some(t) => map.first_step(&from, t),
                None => crossing(sight, &[], exit, run.health, left)
                    .or_else(|| crossing(sight, &[], None, run.health, left)),
            };
        };
        let to_exit = u64::from(to_exit);
        if to_exit > left {
            return crossing(sight, &[], Some(exit), run.health, left)
                .or_else(|| map.first_step(&from, exit));
        }
        let from_exit = map.distances(&[exit]);
        let fits = |&&(i, pays): &&(usize, u64)| {
            from_exit[i] != UNREACHED
                && u64::from(from[i]) < left
                && u64::from(from[i]) + u64::from(from_exit[i]) <= left + pays
        };
        if let Some(f) = nearest(&from, todo.iter().filter(fits).map(|&(i, _)| i)) {
            return map.first_step(&from, f);
        }
        // A frontier is explored only while the walk there and on into the exit leaves what
        // one more feature would pay spare: what lies beyond it is unseen.
        let reserve = run.chest_moves.max(run.trap_moves);
        if unseen_features(sight) > 0
            && left as i64 - to_exit as i64 > EXIT_RESERVE
            && let Some(t) = nearest(
                &from,
                map.frontier(&from).into_iter().filter(|&i| {
                    from_exit[i] != UNREACHED
                        && u64::from(from[i]) + u64::from(from_exit[i]) + reserve <= left
                }),
            )
        {
            return map.first_step(&from, t);
        }
        map.first_step(&from, exit)
    }
}
