//! Players of explorations who dive like [`super::dive`], fight with [`super::tactics`], and go
//! home to bank by a rule ([`BankRule`]): `tactics` never on its own (only when the session's
//! moves run out, [`super::EXPLORE_MOVE_CAP`]), `cautious` by its health, potions and depth
//! (no deeper than [`DEEPEST`]; home at [`LOW_HEALTH`] with no potion), `bank-at-2` once the
//! first room of depth 2 it stood in is done. Going home is the shortest walk over the seen
//! tiles into the way up (entered from beside it, as the exit of a run is); every player
//! goes home when the session's moves left only just cover that walk, or when nothing is
//! left to explore within its depth.

use super::dive::DivePolicy;
use super::seen::SeenMap;
use super::tactics::Tactics;
use crate::agent::Sight;
use byog_game::action::Action;
use byog_tile_engine::Direction;

/// Hearts at or under which `cautious` goes home (with no potion left to drink).
pub const LOW_HEALTH: u32 = 1;
/// The deepest room `cautious` goes into: it dives no deeper, explores what lies within
/// (new branches included, as the branch timer makes them) and goes home at the session's
/// end. 5 is the deepest before the harsher rooms (two or three monsters from depth 6,
/// orcs from 7: `docs/monsters.md`).
pub const DEEPEST: u32 = 5;
/// Moves kept for the walk home at the end of a session, beyond its length: the fights on
/// the way.
pub const SESSION_MARGIN: u64 = 120;

/// When a player goes home to bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BankRule {
    /// Never on its own: only when the session's moves run out (`tactics`).
    Never,
    /// Once it stood in a room of this depth (`bank-at-2`).
    AtDepth(u32),
    /// `cautious`: by its health, its potions and its depth: it goes no deeper than
    /// [`DEEPEST`], and home at [`LOW_HEALTH`] hearts with no potion left.
    Cautious,
}

impl BankRule {
    /// Whether a player by this rule, seeing `sight`, goes home now.
    pub fn wants_home(self, sight: &Sight) -> bool {
        let Some(e) = sight.explore.as_ref() else {
            return false;
        };
        match self {
            BankRule::Never => false,
            BankRule::AtDepth(d) => {
                // Once the room it stands in at that depth is done: no feature of it left
                // to handle, no monster awake in sight.
                let room = |p: byog_tile_engine::Pos| {
                    byog_game::explore::plot::plot_of(byog_tile_engine::Pos::new(
                        p.x + e.origin.x,
                        p.y + e.origin.y,
                    ))
                };
                e.depth >= d
                    && !sight
                        .features
                        .iter()
                        .any(|f| !f.handled && room(f.pos) == e.room)
                    && e.monsters.iter().all(|m| !m.is_awake())
            }
            BankRule::Cautious => e.health <= LOW_HEALTH && e.potions == 0,
        }
    }
}

/// A diver that fights with tactics and banks by its rule.
#[derive(Debug, Clone)]
pub struct BankingPolicy {
    dive: DivePolicy,
    tactics: Tactics,
    rule: BankRule,
    /// Once set, it walks home.
    going_home: bool,
}

impl BankingPolicy {
    /// A player by `rule` at the start.
    pub fn new(rule: BankRule) -> BankingPolicy {
        let mut dive = DivePolicy::new();
        if rule == BankRule::Cautious {
            dive.max_depth = Some(DEEPEST);
        }
        BankingPolicy {
            dive,
            tactics: Tactics::default(),
            rule,
            going_home: false,
        }
    }

    /// Its rule.
    pub fn rule(&self) -> BankRule {
        self.rule
    }

    /// The next action for the observation `sight` of an exploration: a fight's (tactics),
    /// else a step home or on down; `None` when it has ended or nothing is left to reach.
    pub fn act(&mut self, sight: &Sight) -> Option<Action> {
        let e = sight.explore.as_ref()?;
        if e.end.is_some() {
            return None;
        }
        if let Some(action) = self.tactics.act(sight) {
            self.dive.interrupted();
            return Some(action);
        }
        self.next(sight).map(Action::Move)
    }

    /// The next step (no fight): home once its rule or the session says so, else on down.
    pub fn next(&mut self, sight: &Sight) -> Option<Direction> {
        let e = sight.explore.as_ref()?;
        if e.end.is_some() {
            return None;
        }
        let closed = self.dive.closed_here(sight);
        let map = SeenMap::of(sight, false, &closed);
        let dist = map.distances(&[map.avatar]);
        let home = sight
            .exit
            .and_then(|u| map.index(u))
            .and_then(|up| Some((up, map.reach(&dist, up)?)));
        let session_ends = home.is_some_and(|(_, steps)| {
            sight.moves + u64::from(steps) + SESSION_MARGIN >= super::EXPLORE_MOVE_CAP
        });
        if self.rule.wants_home(sight) || session_ends {
            self.going_home = true;
        }
        if self.going_home
            && let Some((up, _)) = home
        {
            let step = map.first_step(&dist, up);
            return self.dive.took(sight, step);
        }
        // The way up is out of this map's seen tiles: find the way back by diving on.
        let step = self.dive.next(sight);
        if step.is_none()
            && !self.going_home
            && let Some((up, _)) = home
        {
            // Nothing left to explore within its depth: home.
            self.going_home = true;
            let step = map.first_step(&dist, up);
            return self.dive.took(sight, step);
        }
        step
    }
}
