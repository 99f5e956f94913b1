//! `cautious`: a player of explorations who dives like [`super::dive`] but goes home to
//! bank: when its health runs low (at most [`LOW_HEALTH`] hearts) or once it has stood in a
//! room of depth [`ENOUGH_DEPTH`] (deep enough to have earned something worth keeping: with
//! no monsters yet, health is lost only to armed traps, which every policy avoids, so without
//! that goal it would never turn back). Going home is the shortest walk over the seen tiles
//! into the way up (entered from beside it, as the exit of a run is).

use super::dive::DivePolicy;
use super::seen::SeenMap;
use crate::agent::Sight;
use byog_tile_engine::Direction;

/// Hearts at or under which `cautious` goes home.
pub const LOW_HEALTH: u32 = 1;
/// The room depth after which `cautious` goes home.
pub const ENOUGH_DEPTH: u32 = 5;

/// The `cautious` policy.
#[derive(Debug, Clone, Default)]
pub struct CautiousPolicy {
    dive: DivePolicy,
    /// Once set, it walks home.
    going_home: bool,
}

impl CautiousPolicy {
    /// A cautious player at the start.
    pub fn new() -> CautiousPolicy {
        CautiousPolicy::default()
    }

    /// The next step for the observation `sight` of an exploration; `None` when it has
    /// ended or nothing is left to reach.
    pub fn next(&mut self, sight: &Sight) -> Option<Direction> {
        let e = sight.explore.as_ref()?;
        if e.end.is_some() {
            return None;
        }
        if e.health <= LOW_HEALTH || e.depth >= ENOUGH_DEPTH {
            self.going_home = true;
        }
        if self.going_home {
            let closed = self.dive.closed_here(sight);
            let map = SeenMap::of(sight, false, &closed);
            let dist = map.distances(&[map.avatar]);
            if let Some(up) = sight.exit.and_then(|u| map.index(u))
                && map.reach(&dist, up).is_some()
            {
                let step = map.first_step(&dist, up);
                return self.dive.took(sight, step);
            }
            // The way up is out of this map's seen tiles: find the way back by diving on.
        }
        self.dive.next(sight)
    }
}
