//! Travel: the player's tools that walk many steps for one key (`docs/keys.md`, after Brogue's
//! travel and explore). `>` walks to the exit (a run's or a classic game's door, an
//! exploration's way up) once it has been seen; `X` explores, walking again and again to the
//! nearest reachable tile beside the unseen; a click walks to a seen tile.
//!
//! Every walk is planned by the one search module ([`byog_tile_engine::search`]) over the
//! tiles the player has seen, never through the unseen (the one step into the unknown is
//! through an exploration's unexplored exit, which is how rooms are made), and avoids armed
//! traps wherever another way exists. Each step is an ordinary [`Action::Move`] applied by the
//! rules, so the history records it as the `W`/`A`/`S`/`D` key it is: replays and saves need
//! nothing new. A walk stops ([`Stop`]) when something new comes into sight
//! ([`Sighting::newly`], the hook every new kind of thing extends), when health drops, when a
//! step does more than move (a feature handled, a bump, a new floor, the end), when it
//! arrives, or after [`MAX_STEPS`] steps: nothing hangs.
//!
//! The interpreter expands `X` and `>` in an input string with [`walk`]; the front-ends drive
//! the same [`Travel`] one step a frame, so they can also stop it on a key, and the steps they
//! take are the ones the interpreter would take.

use std::fmt;

use super::action::Action;
use super::game::GameState;
use super::rules::{Event, Events};
use super::run::FeatureKind;
use byog_tile_engine::search::{self, Grid, UNREACHED};
use byog_tile_engine::{Direction, Map, Pos, Tile};

/// The most steps one `X`, `>` or click takes (then it stops, and the key can be given again).
pub const MAX_STEPS: u32 = 1000;

/// Where a walk goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// `X`: the nearest reachable tile beside the unseen, again and again.
    Explore,
    /// `>`: the exit (a run's or a classic game's door; an exploration's way up), into it.
    Exit,
    /// A click: this tile, in the dungeon's tiles (a world position plus
    /// [`GameState::origin`], so it stays put when an exploration's frame moves).
    To(Pos),
}

impl Goal {
    /// The goal of a click on world tile `pos` of `game`'s current frame.
    pub fn tile(game: &GameState, pos: Pos) -> Goal {
        let o = game.origin();
        Goal::To(Pos::new(pos.x + o.x, pos.y + o.y))
    }
}

/// Something whose first sighting stops a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Thing {
    /// A chest.
    Chest,
    /// A trap.
    Trap,
    /// The exit (an exploration's way up).
    Exit,
    /// A monster (`docs/monsters.md`): one the avatar did not see the step before.
    Monster,
}

impl fmt::Display for Thing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Thing::Chest => "a chest",
            Thing::Trap => "a trap",
            Thing::Exit => "the exit",
            Thing::Monster => "a monster",
        })
    }
}

/// Why a walk stopped (or did not start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It reached its tile.
    Arrived,
    /// `X` with no reachable tile left beside the unseen.
    Explored,
    /// `>` before the exit was seen.
    ExitUnseen,
    /// A click on a tile never seen.
    Unseen,
    /// No known way leads there.
    NoWay,
    /// Something came into sight for the first time.
    Sighted(Thing),
    /// Health dropped.
    Hurt,
    /// A step did more than move: a feature handled, a bump, a new floor or room cleared.
    Event,
    /// The game ended.
    Over,
    /// [`MAX_STEPS`] steps were taken.
    Limit,
    /// A key stopped it (front-ends).
    Key,
}

impl fmt::Display for Stop {
    /// In a player's words, e.g. "a chest comes into sight".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Arrived => f.write_str("arrived"),
            Stop::Explored => f.write_str("nothing left to explore that can be reached"),
            Stop::ExitUnseen => f.write_str("the exit has not been seen yet (X explores)"),
            Stop::Unseen => f.write_str("that tile has not been seen"),
            Stop::NoWay => f.write_str("no known way leads there"),
            Stop::Sighted(t) => write!(f, "{t} comes into sight"),
            Stop::Hurt => f.write_str("hurt: travel stopped"),
            Stop::Event => f.write_str("travel stopped"),
            Stop::Over => f.write_str("the game is over"),
            Stop::Limit => write!(f, "travel stopped after {MAX_STEPS} steps"),
            Stop::Key => f.write_str("travel stopped by a key"),
        }
    }
}

/// A planned walk: its steps and what they cross.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// The world tiles walked onto (or into, for the exit), in order, the avatar's left out.
    pub tiles: Vec<Pos>,
    /// The direction of each step.
    pub steps: Vec<Direction>,
    /// Armed traps on the way: each costs a heart (no other known way avoids them).
    pub armed: u32,
}

/// What the player knows of the tiles, on the padded grid of the game's current frame.
struct Known {
    grid: Grid,
    /// Seen tiles.
    seen: Vec<bool>,
    /// Seen and walkable.
    open: Vec<bool>,
    /// Armed traps (seen or not).
    armed: Vec<bool>,
}

impl Known {
    fn of(game: &GameState) -> Known {
        let (grid, mut open) = Grid::walkable_mask(game);
        let mut seen = vec![false; grid.len()];
        for y in 0..game.height() {
            for x in 0..game.width() {
                let i = (y + 1) * grid.width + x + 1;
                seen[i] = game.has_seen(Pos::new(x as i32, y as i32));
                open[i] &= seen[i];
            }
        }
        let mut armed = vec![false; grid.len()];
        for f in game.features().iter() {
            if f.kind == FeatureKind::Trap
                && f.handled
                && let Some(i) = grid.index(f.pos)
            {
                armed[i] = true;
            }
        }
        Known {
            grid,
            seen,
            open,
            armed,
        }
    }

    /// Whether padded cell `i` is a tile to explore towards: seen, walkable, and beside an
    /// unseen tile of the map, or an exploration's unexplored exit.
    fn is_frontier(&self, game: &GameState, i: usize) -> bool {
        self.open[i]
            && (is_unexplored_exit(game, self.grid.pos(i))
                || self
                    .grid
                    .neighbours(i)
                    .into_iter()
                    .any(|n| !self.seen[n] && game.contains(self.grid.pos(n))))
    }

    /// The route along `dist` (a search from the avatar) into `target`.
    fn route(&self, dist: &[u32], target: usize) -> Option<Route> {
        let path = search::path_into(self.grid, dist, target)?;
        let tiles: Vec<Pos> = path.iter().skip(1).map(|&i| self.grid.pos(i)).collect();
        let steps = path
            .windows(2)
            .map(|w| direction_between(self.grid.pos(w[0]), self.grid.pos(w[1])))
            .collect();
        let armed = path.iter().skip(1).filter(|&&i| self.armed[i]).count() as u32;
        Some(Route {
            tiles,
            steps,
            armed,
        })
    }

    /// The open cells, armed traps closed unless `through_traps`.
    fn ground(&self, through_traps: bool) -> Vec<bool> {
        if through_traps {
            return self.open.clone();
        }
        self.open
            .iter()
            .zip(&self.armed)
            .map(|(&o, &a)| o && !a)
            .collect()
    }
}

/// Whether world tile `pos` of an exploration is an unexplored exit (the avatar may stand on
/// it: what is under the avatar counts).
fn is_unexplored_exit(game: &GameState, pos: Pos) -> bool {
    game.explore().is_some_and(|e| {
        let o = game.origin();
        game.rect().contains(pos)
            && e.tile_at(Pos::new(pos.x + o.x, pos.y + o.y)) == Tile::ExitUnexplored
    })
}

/// The direction of the step from `a` to its neighbour `b`.
fn direction_between(a: Pos, b: Pos) -> Direction {
    Direction::ALL
        .into_iter()
        .find(|&d| a + d == b)
        .unwrap_or(Direction::Up)
}

/// Plans the walk to `goal` from where the avatar stands, over seen tiles, around armed traps
/// where another known way exists (else through them, [`Route::armed`] says how many).
/// `Explore` plans to the nearest tile beside the unseen; an avatar standing on an
/// exploration's unexplored exit gets the one step through it.
///
/// # Errors
/// The [`Stop`] that says why there is no walk: the game is over, nothing is left to explore,
/// the exit or the tile has not been seen, no known way leads there, or the avatar is there.
pub fn plan(game: &GameState, goal: Goal) -> Result<Route, Stop> {
    plan_avoiding(game, goal, &[])
}

/// [`plan`] for `Explore`, with `visited` (world tiles) no longer counted as beside the
/// unseen: the avatar stood there and saw all it could.
fn plan_avoiding(game: &GameState, goal: Goal, visited: &[Pos]) -> Result<Route, Stop> {
    if game.has_ended() {
        return Err(Stop::Over);
    }
    let avatar = game.avatar();
    let known = Known::of(game);
    let grid = known.grid;
    let Some(source) = grid.index(avatar) else {
        return Err(Stop::NoWay);
    };
    match goal {
        Goal::Explore => {
            if is_unexplored_exit(game, avatar)
                && let Some(d) = Direction::ALL
                    .into_iter()
                    .find(|&d| !game.has_seen(avatar + d) && !game.is_walkable(avatar + d))
            {
                return Ok(Route {
                    tiles: vec![avatar + d],
                    steps: vec![d],
                    armed: 0,
                });
            }
            let is_goal = |i: usize| {
                i != source && known.is_frontier(game, i) && !visited.contains(&grid.pos(i))
            };
            for through_traps in [false, true] {
                let open = known.ground(through_traps);
                let mut dist = vec![UNREACHED; grid.len()];
                if let Some(t) = search::nearest(grid, &open, source, is_goal, &mut dist) {
                    return known.route(&dist, t).ok_or(Stop::NoWay);
                }
            }
            Err(Stop::Explored)
        }
        Goal::Exit | Goal::To(_) => {
            let target = match goal {
                Goal::Exit => game.exit(),
                Goal::To(p) => {
                    let o = game.origin();
                    Pos::new(p.x - o.x, p.y - o.y)
                }
                Goal::Explore => unreachable!(),
            };
            if !game.has_seen(target) {
                return Err(if goal == Goal::Exit {
                    Stop::ExitUnseen
                } else {
                    Stop::Unseen
                });
            }
            if target == avatar {
                return Err(Stop::Arrived);
            }
            let Some(t) = grid.index(target) else {
                return Err(Stop::NoWay);
            };
            if !known.open[t] && target != game.exit() {
                return Err(Stop::NoWay);
            }
            for through_traps in [false, true] {
                let open = known.ground(through_traps);
                let mut dist = vec![UNREACHED; grid.len()];
                search::bfs(grid, &open, &[source], &mut dist);
                if let Some(route) = known.route(&dist, t) {
                    return Ok(route);
                }
            }
            Err(Stop::NoWay)
        }
    }
}

/// What the player has seen of the things whose first sighting stops a walk: each with its
/// dungeon tile. The hook for new kinds of things (monsters): add them in [`sighting`] and
/// [`Sighting::newly`] reports them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sighting(Vec<(Pos, Thing)>);

/// The things `game`'s player has seen so far (a feature or the exit on a seen tile) and the
/// monsters it sees now.
pub fn sighting(game: &GameState) -> Sighting {
    let o = game.origin();
    let abs = |p: Pos| Pos::new(p.x + o.x, p.y + o.y);
    let mut things: Vec<(Pos, Thing)> = game
        .features()
        .iter()
        .filter(|f| game.has_seen(f.pos))
        .map(|f| {
            let thing = match f.kind {
                FeatureKind::Chest => Thing::Chest,
                FeatureKind::Trap => Thing::Trap,
            };
            (abs(f.pos), thing)
        })
        .collect();
    if game.has_seen(game.exit()) {
        things.push((abs(game.exit()), Thing::Exit));
    }
    // Monsters in sight now, by id (they move: a monster is new when its id is).
    if let Some(e) = game.explore() {
        things.extend(
            e.monsters()
                .filter(|m| e.in_sight(m.pos))
                .map(|m| (Pos::new(m.id as i32, i32::MIN), Thing::Monster)),
        );
    }
    Sighting(things)
}

impl Sighting {
    /// The first thing `game` shows that this sighting did not hold: what is newly in sight.
    pub fn newly(&self, game: &GameState) -> Option<Thing> {
        sighting(game)
            .0
            .into_iter()
            .find(|t| !self.0.contains(t))
            .map(|(_, thing)| thing)
    }
}

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
    known: Sighting,
    health: Option<u32>,
    steps: u32,
    visited: Vec<Pos>,
    /// Hearts the player agreed to lose on the way (a confirmed route through armed traps).
    hurts: u32,
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
            health: game.health(),
            steps: 0,
            visited: Vec::new(),
            hurts: 0,
        }
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

    /// Steps taken so far.
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
        let o = game.origin();
        let stale = self.ahead.is_empty()
            || self.expect != Some(here)
            || (self.goal == Goal::Explore
                && self.target.is_none_or(|t| {
                    let w = Pos::new(t.x - o.x, t.y - o.y);
                    !Direction::ALL
                        .into_iter()
                        .any(|d| !game.has_seen(w + d) && game.contains(w + d))
                        && !is_unexplored_exit(game, w)
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
            let route = plan_avoiding(game, self.goal, &visited)?;
            self.target = route.tiles.last().map(|p| Pos::new(p.x + o.x, p.y + o.y));
            self.ahead = route.steps;
            self.ahead.reverse();
            self.expect = Some(here);
        }
        let d = self.ahead.pop().ok_or(Stop::NoWay)?;
        self.expect = Some(here + d);
        Ok(Action::Move(d))
    }

    /// After the step [`Travel::next`] gave was applied with `events`: why to stop, if so.
    pub fn observe(&mut self, game: &GameState, events: &Events) -> Option<Stop> {
        self.steps += 1;
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
        } else if let Some(thing) = self.known.newly(game) {
            Some(Stop::Sighted(thing))
        } else if self.goal != Goal::Explore && self.ahead.is_empty() {
            Some(Stop::Arrived)
        } else if self.steps >= MAX_STEPS {
            Some(Stop::Limit)
        } else {
            None
        };
        self.known = sighting(game);
        self.health = game.health();
        stop
    }
}

/// What [`walk`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Walk {
    /// Steps taken (each one action in the history).
    pub steps: u32,
    /// The last step's events, if a step was taken.
    pub last: Option<Events>,
    /// Why it stopped.
    pub stop: Stop,
}

/// Walks `game` to `goal` by the rules until the walk stops: the interpreter's `X` and `>`.
pub fn walk(game: &mut GameState, goal: Goal) -> Walk {
    let mut travel = Travel::new(game, goal);
    let mut last = None;
    loop {
        match travel.next(game) {
            Err(stop) => {
                return Walk {
                    steps: travel.steps,
                    last,
                    stop,
                };
            }
            Ok(action) => {
                let events = game.apply(action);
                last = Some(events);
                if let Some(stop) = travel.observe(game, &events) {
                    return Walk {
                        steps: travel.steps,
                        last,
                        stop,
                    };
                }
            }
        }
    }
}
