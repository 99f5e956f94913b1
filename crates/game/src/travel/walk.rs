//! Walking: a walk under way, one step at a time ([`Travel`]), and the interpreter's whole
//! walk by the rules ([`walk`]).

use super::known::{Known, is_unexplored_exit, knows};
use super::plan::{Refuge, limit_of, monster_beside, plan_avoiding, refuge_in, step_through};
use super::sighting::{Sighting, sighting};
use super::stop::Stop;
use super::{EXIT_RESERVE, Goal, MAX_STEPS};
use crate::action::Action;
use crate::game::GameState;
use crate::rules::{Event, Events};
use byog_tile_engine::{Direction, Map, Pos};

/// A walk under way, one step at a time: [`Travel::next`] says the step, the caller applies
/// it (the interpreter by the rules, a front-end by feeding its key), then
/// [`Travel::observe`] says whether to stop.
#[derive(Debug, Clone)]
pub struct Travel {
    goal: Goal,
    /// The planned steps not taken yet, the next one last.
    ahead: Vec<Direction>,
    /// The dungeon tile the avatar should stand on now.
    expect: Option<Pos>,
    /// The tile `Explore` walks to.
    target: Option<Pos>,
    /// What the walk has seen so far: a thing first seen stops it, a monster once.
    known: Sighting,
    /// The window of the tiles known, kept between steps.
    pub(super) map: Option<Known>,
    health: Option<u32>,
    steps: u32,
    visited: Vec<Pos>,
    /// Hearts the player agreed to lose on the way (a confirmed route through armed traps).
    hurts: u32,
    /// Whether the walk takes the armed traps its plan crosses without asking ([`walk`]:
    /// an input string's `>`).
    take_traps: bool,
    /// Whether the walk may step into an exploration's way up (the player confirmed the
    /// bank); else it stops beside it ([`Stop::AtTheWayUp`]).
    bank: bool,
    /// Whether the plan stops one step short of the way up (`bank` unset).
    short: bool,
    /// `X`: the steps of its first plan, the most it walks ([`super::preview`] shows them
    /// before it starts).
    leg: Option<u32>,
    /// The dungeon tile the avatar left on the last step.
    left_from: Option<Pos>,
    /// `X` in a run: an upper bound on the exit's shortest known way, while the last search
    /// of what `X` keeps in reach found the exit ([`Travel::limit`]).
    pub(super) exit_bound: Option<u32>,
}

impl Travel {
    /// A walk to `goal` from where `game`'s avatar stands.
    pub fn new(game: &GameState, goal: Goal) -> Travel {
        Travel {
            goal,
            ahead: Vec::new(),
            expect: None,
            target: None,
            known: sighting(game),
            map: None,
            health: game.health(),
            steps: 0,
            visited: Vec::new(),
            hurts: 0,
            take_traps: false,
            bank: false,
            short: false,
            leg: None,
            left_from: None,
            exit_bound: None,
        }
    }

    /// The same walk, stepping into an exploration's way up at its end (the player confirmed
    /// the bank: `Y`) instead of stopping beside it ([`Stop::AtTheWayUp`]).
    pub fn banking(mut self) -> Travel {
        self.bank = true;
        self
    }

    /// The same walk, going on through `hearts` losses of health (the player confirmed a
    /// route through that many armed traps) instead of stopping at the first.
    pub fn allowing_hurts(mut self, hearts: u32) -> Travel {
        self.hurts = hearts;
        self
    }

    /// Where the walk goes.
    pub fn goal(&self) -> Goal {
        self.goal
    }

    /// Steps taken so far (steps the rules refused not counted).
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// The avatar's dungeon tile.
    fn here(game: &GameState) -> Pos {
        let (a, o) = (game.avatar(), game.origin());
        Pos::new(a.x + o.x, a.y + o.y)
    }

    /// The next step, planned again when the avatar is not where the plan put it, or when
    /// `Explore`'s tile no longer lies beside the unseen.
    ///
    /// # Errors
    /// The [`Stop`] when there is no next step.
    pub fn next(&mut self, game: &GameState) -> Result<Action, Stop> {
        if self.steps >= MAX_STEPS {
            return Err(Stop::Limit);
        }
        let here = Travel::here(game);
        // A hunting monster beside the avatar would follow and strike at every step.
        if self.steps == 0
            && let Some(kind) = monster_beside(game)
        {
            return Err(Stop::MonsterBeside(kind));
        }
        let o = game.origin();
        let stale = self.ahead.is_empty()
            || self.expect != Some(here)
            || (self.goal == Goal::Explore
                && self.target.is_none_or(|t| {
                    let w = Pos::new(t.x - o.x, t.y - o.y);
                    !Direction::ALL
                        .into_iter()
                        .any(|d| !knows(game, w + d) && game.contains(w + d))
                        && !is_unexplored_exit(game, w)
                        && !game.features().iter().any(|f| f.pos == w && !f.handled)
                }));
        if stale {
            if self.goal == Goal::Explore && !self.visited.contains(&here) {
                self.visited.push(here);
            }
            let visited: Vec<Pos> = self
                .visited
                .iter()
                .map(|p| Pos::new(p.x - o.x, p.y - o.y))
                .collect();
            let mut route = plan_avoiding(game, self.goal, &visited, &mut self.map)?;
            if !self.bank && game.explore().is_some() && route.tiles.last() == Some(&game.exit()) {
                // The last step would bank: the walk stops beside the way up and asks.
                route.tiles.pop();
                route.steps.pop();
                if route.steps.is_empty() {
                    return Err(Stop::AtTheWayUp);
                }
                self.short = true;
            } else {
                self.short = false;
            }
            if self.take_traps && self.goal != Goal::Explore {
                self.hurts = self.hurts.max(route.armed);
            }
            // `X` walks one leg: no more steps than its first plan, the figure the HUD
            // showed before it started (it still plans again on the way, as the unseen
            // comes into sight, so the steps go where the nearest unseen now is). Every
            // step of a run is a move paid for, and every step of an exploration a tick of
            // its clock: one key spends what the player was shown (rules version 9; until
            // then an exploration's `X` walked on past its first leg).
            if self.goal == Goal::Explore && self.leg.is_none() {
                // A leg that ends on an unexplored exit takes the step through it too.
                let through = route
                    .tiles
                    .last()
                    .is_some_and(|&t| step_through(game, t).is_some());
                self.leg = u32::try_from(route.steps.len() + usize::from(through)).ok();
            }
            self.target = route.tiles.last().map(|p| Pos::new(p.x + o.x, p.y + o.y));
            self.ahead = route.steps;
            self.ahead.reverse();
            self.expect = Some(here);
        }
        let d = self.ahead.pop().ok_or(Stop::NoWay)?;
        // A monster stepped onto the way after it was planned: a step there would strike
        // it, and a walk never fights.
        if let Some(m) = game.explore().and_then(|e| e.monster_at(here + d)) {
            self.ahead.clear();
            return Err(Stop::MonsterInTheWay(m.kind));
        }
        self.expect = Some(here + d);
        self.left_from = Some(here);
        Ok(Action::Move(d))
    }

    /// After the step [`Travel::next`] gave was applied with `events`: why to stop, if so.
    /// A step the rules refused (nothing changed) stops the walk with the reason
    /// ([`Stop::InCombat`], [`Stop::Blocked`]) and is not counted.
    pub fn observe(&mut self, game: &GameState, events: &Events) -> Option<Stop> {
        if !events.changed_game() {
            self.ahead.clear();
            return Some(if game.has_ended() {
                Stop::Over
            } else if events
                .as_slice()
                .iter()
                .any(|e| matches!(e, Event::InCombat { .. }))
            {
                Stop::InCombat
            } else {
                Stop::Blocked
            });
        }
        self.steps += 1;
        // The window kept between steps stays true while the step only moved the avatar
        // (what it saw is read in before the next search); a room made or cleared, a new
        // floor or a feature changed tiles: the next search makes a new one.
        let tiles_kept = events.as_slice().iter().all(|e| {
            matches!(
                e,
                Event::Moved { .. }
                    | Event::Entered { made: false, .. }
                    | Event::Hurt { .. }
                    | Event::Spotted { .. }
                    | Event::Struck { .. }
                    | Event::Fled { .. }
            )
        });
        match (&mut self.map, tiles_kept) {
            (Some(map), true) => map.stood_on(game.avatar()),
            _ => self.map = None,
        }
        // Only the avatar moved: no tile changed but those newly seen, the health is the
        // same, and the tile it left holds no chest or trap.
        let o = game.origin();
        let plain = tiles_kept
            && game.health() == self.health
            && self.left_from.is_some_and(|p| {
                let p = Pos::new(p.x - o.x, p.y - o.y);
                !game.features().iter().any(|f| f.pos == p)
            });
        let sighted = self.known.update(game);
        let stop = if game.has_ended() {
            Some(Stop::Over)
        } else if game.health() < self.health && self.hurts == 0 {
            Some(Stop::Hurt)
        } else if events.as_slice().iter().any(|e| match e {
            Event::Moved { .. } | Event::Entered { .. } => false,
            Event::Hurt { .. } if self.hurts > 0 => {
                self.hurts -= 1;
                false
            }
            _ => true,
        }) {
            Some(Stop::Event)
        } else if let Some(thing) = sighted {
            Some(Stop::Sighted(thing))
        } else if self.leg.is_some_and(|leg| self.steps >= leg) {
            Some(Stop::Arrived)
        } else if self.goal != Goal::Explore && self.ahead.is_empty() {
            Some(if self.short {
                Stop::AtTheWayUp
            } else {
                Stop::Arrived
            })
        } else if let Some(stop) = (self.goal == Goal::Explore)
            .then(|| self.limit(game, plain))
            .flatten()
        {
            Some(stop)
        } else if self.steps >= MAX_STEPS {
            Some(Stop::Limit)
        } else {
            None
        };
        self.health = game.health();
        stop
    }
}

impl Travel {
    /// What stops `X` at the limit after a step ([`super::explore_limit`]), searched only
    /// when it could stop the walk. While the last search found the exit in reach, a `plain`
    /// step (only the avatar moved: no tile changed but those newly seen, the health the
    /// same, the tile it left no chest or trap) makes the exit's shortest known way at most
    /// one longer (the step back, then the old way; tiles newly seen only add ways), so
    /// `exit_bound` + 1 bounds it; while the moves left exceed that bound by more than
    /// [`EXIT_RESERVE`] the search could only say "go on", and is not made. Same stops as a
    /// search at every step (the travel tests compare them), a search every
    /// (spare − [`EXIT_RESERVE`]) / 2 steps instead of every step.
    fn limit(&mut self, game: &GameState, plain: bool) -> Option<Stop> {
        let left = game.run()?.moves_left;
        if plain
            && let Some(bound) = self.exit_bound
            && left as i64 - i64::from(bound + 1) > EXIT_RESERVE
        {
            self.exit_bound = Some(bound + 1);
            return None;
        }
        let refuge = refuge_in(game, &mut self.map);
        self.exit_bound = match refuge {
            Some((Refuge::Exit, needs)) => Some(needs),
            _ => None,
        };
        limit_of(left, refuge)
    }
}

/// What [`walk`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Walk {
    /// Steps taken (each one action in the history).
    pub steps: u32,
    /// The events of the last step taken, if a step was taken.
    pub last: Option<Events>,
    /// Why it stopped.
    pub stop: Stop,
}

/// What one walk leaves for the next on the same game: the window of known tiles it kept
/// ([`Travel`]'s), so the next key's first plan brings it up to date instead of reading the
/// world again (`X` in a run walks one leg a key: without it every key reads a fresh window,
/// most of a short leg's cost; `docs/performance.md`). It holds only while the game is as
/// the walk left it: any action since (a key, a load) and [`walk_on`] reads a fresh window.
/// The plans are the same either way (a window only decides how much is searched; an
/// answer is taken from one only when it is exact).
#[derive(Debug, Clone, Default)]
pub struct Kept {
    pub(super) map: Option<Known>,
    /// The game's history length and avatar when the walk ended.
    at: Option<(usize, Pos)>,
}

/// Walks `game` to `goal` by the rules until the walk stops: the interpreter's `X` and `>`.
/// An input string has no one to ask `Y` before a way through armed traps, so `>` (and a
/// walk to a tile) takes the way its plan chose, through the armed traps it crosses (the
/// fewest that fit, a heart kept: [`plan`](super::plan)); `X` stops at the first heart lost.
/// In an exploration it stops beside the way up ([`Stop::AtTheWayUp`] when it takes no
/// step): the interpreter then asks, and a `Y` takes the step that banks.
pub fn walk(game: &mut GameState, goal: Goal) -> Walk {
    walk_on(game, goal, &mut Kept::default())
}

/// [`walk`], starting from what the last walk on `game` left in `kept` (if the game is still
/// as that walk left it) and leaving this walk's window there: the interpreter's keys of a
/// game in play. Same steps as [`walk`].
pub fn walk_on(game: &mut GameState, goal: Goal, kept: &mut Kept) -> Walk {
    let mut travel = Travel::new(game, goal);
    travel.take_traps = true;
    travel.map = kept
        .map
        .take()
        .filter(|_| kept.at == Some((game.actions().len(), game.avatar())));
    let mut last = None;
    let stop = loop {
        match travel.next(game) {
            Err(stop) => break stop,
            Ok(action) => {
                let events = game.apply(action);
                if events.changed_game() {
                    last = Some(events);
                }
                if let Some(stop) = travel.observe(game, &events) {
                    break stop;
                }
            }
        }
    };
    kept.map = travel.map.take();
    kept.at = Some((game.actions().len(), game.avatar()));
    Walk {
        steps: travel.steps,
        last,
        stop,
    }
}
