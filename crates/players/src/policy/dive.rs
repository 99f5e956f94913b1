//! `dive`: a player of explorations who always takes the deepest unexplored exit it has seen
//! and never banks. `cautious` ([`super::cautious`]) is the same player with a way home.
//!
//! Each step, from the observation alone (the view of the avatar's map, dungeon tile
//! `view + origin`):
//! 1. a feature still to handle in the avatar's room (its exits stay locked until they are
//!    handled): the nearest, armed traps closed;
//! 2. else the unexplored exits seen (`?` tiles), each scored by the depth of the room it
//!    leads into (`floor(√(x² + y²))` of that room's plot): the deepest, the nearest on
//!    ties; standing on it, the step through it;
//! 3. else the nearest frontier (an open tile beside an unseen one).
//!
//! Walking to an exit, it remembers it (the view shows the avatar on it once it stands
//! there). A step the rules refused (the avatar did not move: a one-way exit walked against its
//! arrow) closes that tile for the rest of the exploration in that map, as a player learns by
//! bumping.

use super::seen::{SeenMap, nearest};
use crate::agent::Sight;
use byog_game::explore::plot::{edge, in_plot, plot_of};
use byog_game::explore::{self, BranchId};
use byog_tile_engine::search::UNREACHED;
use byog_tile_engine::{Direction, Pos, Tile};

/// The `dive` policy's memory: the tiles it bumped into, by map.
#[derive(Debug, Clone, Default)]
pub struct DivePolicy {
    /// The last step asked for: the map, the avatar's dungeon tile, the direction.
    last: Option<(Option<BranchId>, Pos, Direction)>,
    /// Dungeon tiles found closed (a refused step into them), by map.
    closed: Vec<(Option<BranchId>, Pos)>,
    /// The unexplored exit being walked to (its dungeon tile) and the side to step through
    /// it: once the avatar stands on it, the view shows the avatar there, not the exit.
    aim: Option<(Pos, Direction)>,
    /// The deepest room it goes into (`None`: no limit): exits into deeper rooms are left
    /// alone.
    pub(super) max_depth: Option<u32>,
}

impl DivePolicy {
    /// A diver that has bumped into nothing yet.
    pub fn new() -> DivePolicy {
        DivePolicy::default()
    }

    /// The tiles closed in the avatar's map, as view tiles.
    pub(super) fn closed_here(&mut self, sight: &Sight) -> Vec<Pos> {
        let Some(e) = sight.explore.as_ref() else {
            return Vec::new();
        };
        let here = shift(sight.avatar, e.origin);
        if let Some((branch, from, d)) = self.last.take()
            && branch == e.branch
            && from == here
        {
            self.closed.push((branch, here + d));
        }
        self.closed
            .iter()
            .filter(|(b, _)| *b == e.branch)
            .map(|&(_, p)| Pos::new(p.x - e.origin.x, p.y - e.origin.y))
            .collect()
    }

    /// Forgets the last step it asked for: another rule (a fight) acted since, so a refusal
    /// seen next is not its step's.
    pub(super) fn interrupted(&mut self) {
        self.last = None;
        self.aim = None;
    }

    /// Remembers the step about to be taken (to learn from a refusal).
    pub(super) fn took(&mut self, sight: &Sight, step: Option<Direction>) -> Option<Direction> {
        if let (Some(e), Some(d)) = (sight.explore.as_ref(), step) {
            self.last = Some((e.branch, shift(sight.avatar, e.origin), d));
        }
        step
    }

    /// The next step for the observation `sight` of an exploration (see the module
    /// documentation); `None` when it has ended or nothing is left to reach.
    pub fn next(&mut self, sight: &Sight) -> Option<Direction> {
        let step = self.dive(sight);
        self.took(sight, step)
    }

    /// [`DivePolicy::next`] without remembering the step.
    pub(super) fn dive(&mut self, sight: &Sight) -> Option<Direction> {
        let e = sight.explore.as_ref()?;
        if e.end.is_some() {
            return None;
        }
        let closed = self.closed_here(sight);
        let here = shift(sight.avatar, e.origin);
        if let Some((at, side)) = self.aim.take()
            && at == here
        {
            return Some(side);
        }
        let map = SeenMap::of(sight, false, &closed);
        let dist = map.distances(&[map.avatar]);
        let room_of = |p: Pos| plot_of(shift(p, e.origin));
        let todo = sight
            .features
            .iter()
            .filter(|f| !f.handled && f.pos != sight.avatar && room_of(f.pos) == e.room)
            .filter_map(|f| map.index(f.pos));
        if let Some(f) = nearest(&dist, todo) {
            return map.first_step(&dist, f);
        }
        let mut best: Option<(u32, u32, usize, Direction)> = None;
        for (k, &tile) in sight.view.tiles().iter().enumerate() {
            if tile != Tile::ExitUnexplored {
                continue;
            }
            let w = sight.view.width();
            let p = Pos::new((k % w) as i32, (k / w) as i32);
            let Some(i) = map.index(p) else { continue };
            if dist[i] == UNREACHED {
                continue;
            }
            let at = in_plot(shift(p, e.origin));
            let Some(side) = Direction::ALL.into_iter().find(|&d| edge(d) == at) else {
                continue;
            };
            let depth = explore::depth(room_of(p).step(side));
            if self.max_depth.is_some_and(|max| depth > max) {
                continue;
            }
            let better =
                best.is_none_or(|(bd, bs, _, _)| depth > bd || (depth == bd && dist[i] < bs));
            if better {
                best = Some((depth, dist[i], i, side));
            }
        }
        if let Some((_, steps, i, side)) = best {
            if steps == 0 {
                return Some(side);
            }
            self.aim = Some((shift(map.grid.pos(i), e.origin), side));
            return map.first_step(&dist, i);
        }
        let frontier = map.frontier(&dist);
        nearest(&dist, frontier).and_then(|t| map.first_step(&dist, t))
    }
}

/// `p` moved by `by` (view tile to dungeon tile).
fn shift(p: Pos, by: Pos) -> Pos {
    Pos::new(p.x + by.x, p.y + by.y)
}
