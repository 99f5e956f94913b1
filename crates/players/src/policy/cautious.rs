//! Players of explorations who dive like [`super::dive`], fight with [`super::tactics`], and go
//! home to bank by a rule ([`BankRule`]): `tactics` never on its own (only when the session's
//! moves run out, [`super::EXPLORE_MOVE_CAP`] by default), `cautious` by its health, potions
//! and depth (no deeper than [`DEEPEST`]; home at [`LOW_HEALTH`] with no potion), `bank-at-2`
//! once the first room of depth 2 it stood in is done, and any other rule of the family
//! (`bank:depth=7,hearts=1,points=400`), which a sweep plays (`docs/balance.md`). Going home is the shortest walk over the seen
//! tiles into the way up (entered from beside it, as the exit of a run is); every player
//! goes home when the session's moves left only just cover that walk, or when nothing is
//! left to explore within its depth.

use super::dive::DivePolicy;
use super::seen::SeenMap;
use super::tactics::Tactics;
use crate::agent::Sight;
use byog_game::action::Action;
use byog_game::explore::monsters::MAX_POTIONS;
use byog_game::run::{FeatureKind, START_HEALTH};
use byog_tile_engine::Direction;

/// Hearts at or under which `cautious` goes home (with no potion left to drink).
pub const LOW_HEALTH: u32 = 1;
/// The deepest room `cautious` goes into: it dives no deeper, explores what lies within
/// (new branches included, as the branch timer makes them) and goes home at the session's
/// end. 5 is the deepest before the harsher rooms (two or three monsters from depth 6:
/// `docs/monsters.md`).
pub const DEEPEST: u32 = 5;
/// Moves kept for the walk home at the end of a session, beyond its length: the fights on
/// the way.
pub const SESSION_MARGIN: u64 = 120;

/// When a player goes home to bank: a rule of the family `bank:` (`docs/balance.md`), each
/// setting optional. The player dives no deeper than `depth`, and goes home at the first of:
/// `hearts` or fewer with at most `potions` potions left; `points` or more carried; standing
/// in a room of depth `reached` or more once that room is done; nothing left to explore
/// within its depth; the session's end. With nothing set it never goes home on its own
/// (`tactics`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct BankRule {
    /// The deepest room it goes into (`None`: no limit).
    pub depth: Option<u32>,
    /// Home at this many hearts or fewer (with at most `potions` potions left).
    pub hearts: Option<u32>,
    /// The potions it may still carry when `hearts` sends it home (0: only once none is
    /// left to drink).
    pub potions: u32,
    /// Home once it carries this many points or more.
    pub points: Option<u64>,
    /// Home once it stood in a room of this depth or deeper and that room is done (no
    /// feature of it left to handle, no monster awake in sight).
    pub reached: Option<u32>,
}

impl BankRule {
    /// Never on its own: only when the session's moves run out (`tactics`).
    pub const NEVER: BankRule = BankRule {
        depth: None,
        hearts: None,
        potions: 0,
        points: None,
        reached: None,
    };

    /// `cautious`: no deeper than [`DEEPEST`], home at [`LOW_HEALTH`] hearts with no potion
    /// (`bank:depth=5,hearts=1`).
    pub const CAUTIOUS: BankRule = BankRule {
        depth: Some(DEEPEST),
        hearts: Some(LOW_HEALTH),
        ..BankRule::NEVER
    };

    /// `bank-at-2`: home once the first room of depth 2 it stood in is done
    /// (`bank:reached=2`).
    pub const AT_DEPTH_2: BankRule = BankRule {
        reached: Some(2),
        ..BankRule::NEVER
    };

    /// The family's form, for messages: `bank:depth=D,hearts=H,potions=K,points=P,reached=R`.
    pub const FORM: &'static str =
        "bank:depth=D,hearts=H,potions=K,points=P,reached=R (each optional)";

    /// Its name: `bank`, then `:` and the settings given, in the order of [`BankRule::FORM`]
    /// (`potions` only when not 0), e.g. `bank:depth=7,hearts=1,points=400`.
    pub fn name(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(h) = self.hearts {
            parts.push(format!("hearts={h}"));
        }
        if self.potions != 0 {
            parts.push(format!("potions={}", self.potions));
        }
        if let Some(p) = self.points {
            parts.push(format!("points={p}"));
        }
        if let Some(r) = self.reached {
            parts.push(format!("reached={r}"));
        }
        if parts.is_empty() {
            "bank".into()
        } else {
            format!("bank:{}", parts.join(","))
        }
    }

    /// The rule named `name` ([`BankRule::name`]'s form; the settings in any order).
    ///
    /// # Errors
    /// A sentence naming what is wrong: not `bank`, a setting that is not one of the five,
    /// given twice, or whose value is not a whole number.
    pub fn parse(name: &str) -> Result<BankRule, String> {
        let rest = match name.strip_prefix("bank") {
            Some("") => return Ok(BankRule::NEVER),
            Some(rest) => rest
                .strip_prefix(':')
                .ok_or_else(|| format!("{name:?} is not a rule of the form {}", BankRule::FORM))?,
            None => return Err(format!("{name:?} does not start with bank")),
        };
        let mut rule = BankRule::NEVER;
        let mut seen: Vec<&str> = Vec::new();
        for part in rest.split(',') {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("{part:?} in {name:?} is not KEY=VALUE"))?;
            if seen.contains(&key) {
                return Err(format!("{key} is given twice in {name:?}"));
            }
            seen.push(key);
            let n: u64 = value
                .parse()
                .map_err(|_| format!("{key}={value:?} in {name:?} is not a whole number"))?;
            let small =
                || u32::try_from(n).map_err(|_| format!("{key}={n} in {name:?} is too large"));
            match key {
                "depth" => rule.depth = Some(small()?),
                "hearts" => rule.hearts = Some(small()?),
                "potions" => rule.potions = small()?,
                "points" => rule.points = Some(n),
                "reached" => rule.reached = Some(small()?),
                _ => {
                    return Err(format!(
                        "{key:?} in {name:?} is not a setting of {}",
                        BankRule::FORM
                    ));
                }
            }
        }
        Ok(rule)
    }

    /// Whether a player by this rule, seeing `sight`, goes home now.
    pub fn wants_home(self, sight: &Sight) -> bool {
        let Some(e) = sight.explore.as_ref() else {
            return false;
        };
        let low = self
            .hearts
            .is_some_and(|h| e.health <= h && e.potions <= self.potions);
        let rich = self.points.is_some_and(|p| e.score >= p);
        let done = self.reached.is_some_and(|d| {
            // Once the room it stands in at that depth is done: no feature of it left to
            // handle, no monster awake in sight.
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
        });
        low || rich || done
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
    /// The session's length in moves: it walks home before it ends.
    session: u64,
}

impl BankingPolicy {
    /// A player by `rule` at the start.
    /// A player by `rule` at the start, in a session of [`super::EXPLORE_MOVE_CAP`] moves.
    pub fn new(rule: BankRule) -> BankingPolicy {
        let mut dive = DivePolicy::new();
        dive.max_depth = rule.depth;
        BankingPolicy {
            dive,
            tactics: Tactics::default(),
            rule,
            going_home: false,
            session: super::EXPLORE_MOVE_CAP,
        }
    }

    /// The same player in a session of `moves` moves.
    pub fn with_session(mut self, moves: u64) -> BankingPolicy {
        self.session = moves;
        self
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
        let step = self.next(sight)?;
        // A chest about to be refilled with the pack full: drink first (hurt), so that its
        // potion, if it holds one, is not left behind.
        let onto = sight.avatar + step;
        let chest = sight
            .features
            .iter()
            .any(|f| f.pos == onto && f.kind == FeatureKind::Chest && !f.handled);
        if chest && e.potions >= MAX_POTIONS && e.health < START_HEALTH {
            self.dive.interrupted();
            return Some(Action::Drink);
        }
        Some(Action::Move(step))
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
            sight.moves + u64::from(steps) + SESSION_MARGIN >= self.session
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
