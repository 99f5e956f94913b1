//! Planning a walk over what is known (the module's documentation): the route to a goal,
//! in windows widened until the answer is exact, and the known ways into the exit.

use super::known::{Known, Ways, is_unexplored_exit, knows};
use super::stop::{Stop, Thing};
use super::{EXIT_RESERVE, FIRST_REACH, Goal};
use crate::explore::{MonsterKind, plot};
use crate::game::GameState;
use crate::run::FeatureKind;
use byog_tile_engine::search::UNREACHED;
use byog_tile_engine::{Direction, Map, Pos};

/// A planned walk: its steps and what they cross.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// The world tiles walked onto (or into, for the exit), in order, the avatar's left out.
    pub tiles: Vec<Pos>,
    /// The direction of each step.
    pub steps: Vec<Direction>,
    /// Armed traps on the way: each costs a heart (no known way that fits avoids them).
    pub armed: u32,
}

impl Route {
    /// The route along the padded cells `cells` of `known`'s window (source first).
    fn along(known: &Known, cells: &[usize]) -> Route {
        let tiles: Vec<Pos> = cells.iter().skip(1).map(|&c| known.pos(c)).collect();
        let steps = known.grid.directions(cells);
        let armed = cells.iter().skip(1).filter(|&&c| known.armed[c]).count() as u32;
        Route {
            tiles,
            steps,
            armed,
        }
    }
}

/// One way into the exit: its length and the armed traps it crosses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Way {
    /// Steps, the one into the exit included (moves, in a run).
    pub steps: u32,
    /// Armed traps crossed (each costs a heart).
    pub traps: u32,
}

/// The known ways into the exit (`>`), for a run's HUD: `exit 189 · 107 through 2 traps`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitWays {
    /// The shortest known way round every armed trap, if any.
    pub around: Option<Way>,
    /// The shortest known way that crosses armed traps, as many as the health allows (a
    /// heart kept: at most health − 1), the fewest among those as short; only when it is
    /// shorter than `around` (or there is no way round).
    pub through: Option<Way>,
}

impl ExitWays {
    /// The steps of the shortest of the two ways (round the armed traps, or through them);
    /// `None` when neither is known.
    pub fn shortest(&self) -> Option<u32> {
        [self.around, self.through]
            .into_iter()
            .flatten()
            .map(|w| w.steps)
            .min()
    }
}

/// What `X` keeps within reach in a run ([`refuge`]): the exit, or a feature that pays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refuge {
    /// The exit: a known way into it fits the moves left.
    Exit,
    /// The nearest seen feature that still pays its moves (an empty chest or a sprung trap
    /// never handled on this floor), when no known way into the exit fits.
    Feature(Thing),
}

/// What `X` keeps within reach in a run, and the moves it needs: the exit when its
/// shortest known way ([`exit_ways`]: round the armed traps, or through as many as the
/// health allows) fits the moves left; else the nearest seen feature that still pays (it
/// brings moves, which may bring the exit back in reach) when the walk into it over the
/// known tiles (through as many armed traps as the health allows, as the exit's) fits; else
/// nothing (`X` then has nothing to keep and
/// explores on). `None` outside a run, or when the game is over.
pub fn refuge(game: &GameState) -> Option<(Refuge, u32)> {
    refuge_in(game, &mut None)
}

/// [`refuge`], searching the window `kept` first and leaving the one searched there
/// ([`widening`]): a walk asks it at every step.
pub(super) fn refuge_in(game: &GameState, kept: &mut Option<Known>) -> Option<(Refuge, u32)> {
    let run = game.run()?;
    if game.has_ended() {
        return None;
    }
    let left = run.moves_left;
    if let Some(needs) = exit_ways_in(game, kept)
        .and_then(|w| w.shortest())
        .filter(|&n| u64::from(n) <= left)
    {
        return Some((Refuge::Exit, needs));
    }
    let paying: Vec<(Pos, Thing)> = game
        .features()
        .iter()
        .filter(|f| !f.handled && !f.paid && knows(game, f.pos))
        .map(|f| {
            let thing = match f.kind {
                FeatureKind::Chest => Thing::Chest,
                FeatureKind::Trap => Thing::Trap,
            };
            (f.pos, thing)
        })
        .collect();
    if paying.is_empty() {
        return None;
    }
    let avatar = game.avatar();
    let layers = game.health().unwrap_or(1).max(1) as usize;
    let found = widening(game, 0, kept, |known| {
        let Some(source) = known.cell(avatar) else {
            return (None, true);
        };
        let is_goal = |c: usize| paying.iter().any(|&(p, _)| known.pos(c) == p);
        let (t, touched) = known.nearest_layered(source, layers, is_goal);
        let exact = match t {
            Some((_, steps)) => steps <= known.margin,
            None => !touched,
        };
        (t.map(|(t, steps)| (known.pos(t), steps)), exact)
    });
    let (pos, needs) = found?;
    let thing = paying.iter().find(|&&(p, _)| p == pos)?.1;
    (u64::from(needs) <= left).then_some((Refuge::Feature(thing), needs))
}

/// Why `X` stops (or does not start) in `game` now: its [`refuge`] needs all but at most
/// [`EXIT_RESERVE`] of the moves left, so one more step could leave it out of reach (a step
/// costs a move and can lengthen the way by one). `None` when it has more to spare, or
/// nothing to keep (outside a run; no refuge in reach).
pub fn explore_limit(game: &GameState) -> Option<Stop> {
    explore_limit_in(game, &mut None)
}

/// [`explore_limit`], searching the window `kept` first and leaving the one searched there
/// ([`widening`]).
pub(super) fn explore_limit_in(game: &GameState, kept: &mut Option<Known>) -> Option<Stop> {
    let left = game.run()?.moves_left;
    limit_of(left, refuge_in(game, kept))
}

/// [`explore_limit`] with `left` moves left and the [`refuge`] found.
pub(super) fn limit_of(left: u64, refuge: Option<(Refuge, u32)>) -> Option<Stop> {
    let (refuge, needs) = refuge?;
    if left as i64 - i64::from(needs) > EXIT_RESERVE {
        return None;
    }
    Some(match refuge {
        Refuge::Exit => Stop::ExitAtTheLimit { needs, left },
        Refuge::Feature(thing) => Stop::FeatureAtTheLimit { thing, needs, left },
    })
}

/// What a walk will cost, before it starts: [`preview`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// The route planned now ([`plan`]): for `>` and a click the whole walk; for `X` its
    /// leg, to the nearest tile beside the unseen, and through it when that is an
    /// exploration's unexplored exit (the walk plans again as it sees more, and takes no
    /// more steps than this route's).
    pub route: Route,
    /// In a run, the moves left now.
    pub moves_left: Option<u64>,
    /// In a run, the moves left once the route is walked: one a step, plus what the
    /// features it steps onto pay the first time ([`crate::run::feature_moves`]).
    pub left_after: Option<u64>,
    /// `X` in a run: what it keeps in reach ([`refuge`]), the moves that needs, and the
    /// moves to spare beyond it (the walk stops once at most [`EXIT_RESERVE`] are left to
    /// spare: [`explore_limit`]). `None` when there is nothing to keep.
    pub keeps: Option<(Refuge, u32, u64)>,
}

/// The kind of the first hunting monster (in the order they act) beside `game`'s avatar, if
/// any: a walk does not start then ([`Stop::MonsterBeside`]; [`preview`] and the walk both
/// say so).
pub fn monster_beside(game: &GameState) -> Option<crate::explore::MonsterKind> {
    let e = game.explore()?;
    let here = e.avatar();
    e.monsters()
        .find(|m| m.state == crate::explore::MonsterState::Hunting && m.pos.manhattan(here) == 1)
        .map(|m| m.kind)
}

/// What the walk to `goal` will cost, before it starts, for the HUD: the route [`plan`]
/// gives, its length (`route.steps.len()`), the moves left after it in a run, and for `X`
/// what it keeps in reach and how much it has to spare (`X: 14 steps, 180 → 166 moves ·
/// the exit needs 120`).
///
/// # Errors
/// The [`Stop`] that says why no walk starts: [`Stop::MonsterBeside`] with a hunting monster
/// beside the avatar ([`monster_beside`]), else [`plan`]'s.
pub fn preview(game: &GameState, goal: Goal) -> Result<Preview, Stop> {
    if let Some(kind) = monster_beside(game) {
        return Err(Stop::MonsterBeside(kind));
    }
    let route = match goal {
        Goal::Explore => with_step_through(game, plan(game, goal)?),
        _ => plan(game, goal)?,
    };
    let Some(run) = game.run() else {
        return Ok(Preview {
            route,
            moves_left: None,
            left_after: None,
            keeps: None,
        });
    };
    let features = game.features();
    let weights = crate::run::weights(&features);
    let paid: u64 = features
        .iter()
        .filter(|f| !f.handled && !f.paid && route.tiles.contains(&f.pos))
        .map(|f| crate::run::feature_moves(&run.info, weights, f.kind))
        .sum();
    let left = run.moves_left;
    let keeps = if goal == Goal::Explore {
        refuge(game).map(|(r, needs)| (r, needs, left - u64::from(needs)))
    } else {
        None
    };
    Ok(Preview {
        moves_left: Some(left),
        left_after: Some((left + paid).saturating_sub(route.steps.len() as u64)),
        keeps,
        route,
    })
}

/// The step through an exploration's unexplored exit at world tile `at` into the unseen
/// beyond it (the one step into the unknown, which makes the room): `None` when `at` is no
/// unexplored exit.
pub(super) fn step_through(game: &GameState, at: Pos) -> Option<Direction> {
    if !is_unexplored_exit(game, at) {
        return None;
    }
    Direction::ALL
        .into_iter()
        .find(|&d| !game.has_seen(at + d) && !game.is_walkable(at + d))
}

/// `X`'s leg in an exploration: `route`, and when it ends on an unexplored exit the step
/// through it, so one key opens the room it heads for (since rules version 9; the walk
/// counts that step in the leg: [`Travel`](super::Travel)).
fn with_step_through(game: &GameState, mut route: Route) -> Route {
    if let Some(&last) = route.tiles.last()
        && let Some(d) = step_through(game, last)
    {
        route.tiles.push(last + d);
        route.steps.push(d);
    }
    route
}

/// Whether every chest and trap of `game` is handled and its exit known (a classic game or a
/// run; explorations never run out). `X` then has nothing left to find once a known way
/// leads into the exit, and until one does it explores towards the exit.
pub fn nothing_left(game: &GameState) -> bool {
    game.grid().is_some() && knows(game, game.exit()) && game.features().iter().all(|f| f.handled)
}

/// Plans the walk to `goal` from where the avatar stands, over the known tiles (module
/// documentation): round armed traps where a known way does; `>` in a run the shortest way
/// that fits the moves left (round the traps, else through the fewest the health allows);
/// otherwise through the fewest armed traps the health allows ([`Route::armed`] says how
/// many). `Explore` plans to the nearest tile beside the unseen; an avatar standing on an
/// exploration's unexplored exit gets the one step through it.
///
/// # Errors
/// The [`Stop`] that says why there is no walk: the game is over, nothing is left to find or
/// explore, the exit or the tile has not been seen, no known way leads there (or none the
/// hearts or the moves left allow), or the avatar is there.
pub fn plan(game: &GameState, goal: Goal) -> Result<Route, Stop> {
    plan_avoiding(game, goal, &[], &mut None)
}

/// Runs `search` on windows around the avatar until its answer is exact (it says so) or
/// the window is the whole map: first the window `kept` holds, if it still fits the game
/// (brought up to date), then windows of [`FIRST_REACH`] (at least `least`) doubled. The
/// window of the answer is left in `kept`.
fn widening<T>(
    game: &GameState,
    least: i32,
    kept: &mut Option<Known>,
    mut search: impl FnMut(&Known) -> (T, bool),
) -> T {
    if let Some(mut known) = kept.take().filter(|k| k.fits(game)) {
        known.catch_up(game);
        known.mark(game);
        let (answer, exact) = search(&known);
        if exact || known.whole() {
            *kept = Some(known);
            return answer;
        }
    }
    let mut reach = FIRST_REACH.max(least);
    loop {
        let known = Known::around(game, reach);
        let (answer, exact) = search(&known);
        if exact || known.whole() {
            *kept = Some(known);
            return answer;
        }
        reach = reach.saturating_mul(2);
    }
}

/// [`plan`], with `visited` (world tiles) no longer counted as beside the unseen by
/// `Explore` (the avatar stood there and saw all it could), searching the window `kept`
/// first (and keeping the one searched there). When no way leads on, says so as
/// [`Stop::MonsterInTheWay`] if one would without the monsters in sight.
pub(super) fn plan_avoiding(
    game: &GameState,
    goal: Goal,
    visited: &[Pos],
    kept: &mut Option<Known>,
) -> Result<Route, Stop> {
    let planned = plan_known(game, goal, visited, kept);
    match planned {
        Err(Stop::Explored | Stop::NoWay) => match monster_in_the_way(game, goal, visited) {
            Some(kind) => Err(Stop::MonsterInTheWay(kind)),
            None => match (goal, monster_in_the_room(game)) {
                (Goal::Explore, Some(kind)) => Err(Stop::RoomHeld(kind)),
                _ => planned,
            },
        },
        other => other,
    }
}

/// The nearest monster of an exploration in sight for which `keep` holds (given its dungeon
/// tile): steps as the crow walks, then the order they act in.
fn nearest_in_sight(game: &GameState, keep: impl Fn(Pos) -> bool) -> Option<MonsterKind> {
    let e = game.explore()?;
    let sight = e.sight();
    let (o, avatar) = (game.origin(), game.avatar());
    e.monsters()
        .filter(|m| sight.contains(m.pos) && keep(m.pos))
        .min_by_key(|m| Pos::new(m.pos.x - o.x, m.pos.y - o.y).manhattan(avatar))
        .map(|m| m.kind)
}

/// The nearest monster in sight that stands in the avatar's room of an exploration: while it
/// is there the room is not clear and its exits stay locked.
fn monster_in_the_room(game: &GameState) -> Option<MonsterKind> {
    let (o, avatar) = (game.origin(), game.avatar());
    let here = plot::plot_of(Pos::new(avatar.x + o.x, avatar.y + o.y));
    nearest_in_sight(game, |p| plot::plot_of(p) == here)
}

/// The nearest monster in sight (steps as the crow walks, then the order they act in) when
/// a walk to `goal` that finds no way would find one were the monsters in sight gone: the
/// plan again on a copy of the game without them (only on this failing path).
fn monster_in_the_way(game: &GameState, goal: Goal, visited: &[Pos]) -> Option<MonsterKind> {
    let sight = game.explore()?.sight();
    let nearest = nearest_in_sight(game, |_| true)?;
    let mut without = game.clone();
    let ex = without.explore_mut()?;
    let ids: Vec<u32> = ex
        .monsters()
        .filter(|m| sight.contains(m.pos))
        .map(|m| m.id)
        .collect();
    ex.encounters_mut()
        .monsters
        .retain(|m| !ids.contains(&m.id));
    plan_known(&without, goal, visited, &mut None)
        .ok()
        .map(|_| nearest)
}

/// [`plan_avoiding`] over the known tiles as they are, monsters in sight in the way.
fn plan_known(
    game: &GameState,
    goal: Goal,
    visited: &[Pos],
    kept: &mut Option<Known>,
) -> Result<Route, Stop> {
    if game.has_ended() {
        return Err(Stop::Over);
    }
    let avatar = game.avatar();
    match goal {
        Goal::Explore => {
            // Every feature handled and the exit known: nothing is left to find once a known
            // way leads into the exit; until one does, explore towards the exit.
            let towards = if nothing_left(game) {
                if exit_ways_in(game, kept)
                    .is_some_and(|w| w.around.is_some() || w.through.is_some())
                {
                    return Err(Stop::NothingLeft);
                }
                Some(game.exit())
            } else {
                None
            };
            // In a run, `X` keeps the exit (or a feature that pays) in reach: it does not
            // start where one more step could lose it.
            if let Some(stop) = explore_limit_in(game, kept) {
                return Err(stop);
            }
            if let Some(route) = explore_in_rooms(game, visited, kept) {
                return Ok(route);
            }
            if let Some(d) = step_through(game, avatar) {
                return Ok(Route {
                    tiles: vec![avatar + d],
                    steps: vec![d],
                    armed: 0,
                });
            }
            for through_traps in [false, true] {
                let found = widening(game, 0, kept, |known| {
                    let Some(source) = known.cell(avatar) else {
                        return (None, true);
                    };
                    let mut dist = vec![UNREACHED; known.grid.len()];
                    let is_goal = |c: usize| {
                        c != source && known.is_frontier(c) && !visited.contains(&known.pos(c))
                    };
                    let Some(exit) = towards else {
                        let (t, touched) = known.search(through_traps, source, is_goal, &mut dist);
                        let exact = match t {
                            Some(t) => dist[t] <= known.margin,
                            None => !touched,
                        };
                        return (t.map(|t| (t, dist)), exact);
                    };
                    // Towards the exit: the frontier tile with the least steps there plus
                    // tiles on from there to the exit (as the crow walks, A*'s estimate),
                    // nearest on ties, then first in row order.
                    let (_, touched) = known.search(through_traps, source, |_| false, &mut dist);
                    let score = |c: usize| dist[c] + known.pos(c).manhattan(exit);
                    let t = (0..known.grid.len())
                        .filter(|&c| dist[c] != UNREACHED && is_goal(c))
                        .min_by_key(|&c| (score(c), dist[c], c));
                    let exact = match t {
                        Some(t) => score(t) <= known.margin,
                        None => !touched,
                    };
                    (t.map(|t| (t, dist)), exact)
                });
                if let Some((t, dist)) = found {
                    let known = kept.as_ref().ok_or(Stop::NoWay)?;
                    let cells = known.path(&dist, t).ok_or(Stop::NoWay)?;
                    return Ok(Route::along(known, &cells));
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
            if !knows(game, target) {
                return Err(if goal == Goal::Exit {
                    Stop::ExitUnseen
                } else {
                    Stop::Unseen
                });
            }
            if target == avatar {
                return Err(Stop::Arrived);
            }
            if !game.contains(target) {
                return Err(Stop::NoWay);
            }
            let health = game.health().unwrap_or(1).max(1);
            let layers = health as usize;
            let found = ways_into(game, target, layers, kept);
            let (Some((t, ways)), Some(known)) = (found, kept.as_ref()) else {
                return Err(Stop::NoWay);
            };
            let left = match (goal, game.run()) {
                (Goal::Exit, Some(run)) => Some(run.moves_left),
                _ => None,
            };
            let fits = |steps: u32| left.is_none_or(|left| u64::from(steps) <= left);
            // Round the traps when that fits; else the fewest traps whose way fits.
            let chosen = (0..layers).find_map(|k| {
                let (steps, layer) = ways.best(k)?;
                fits(steps).then_some(layer)
            });
            match chosen {
                Some(layer) => {
                    let cells = ways.path(known, t, layer).ok_or(Stop::NoWay)?;
                    Ok(Route::along(known, &cells))
                }
                None => match (ways.best(layers - 1), left) {
                    (Some((needs, _)), Some(left)) => Err(Stop::OutOfReach { needs, left }),
                    (Some(_), None) => Err(Stop::NoWay),
                    (None, _) => {
                        // No way the hearts allow: is there one at all, through more traps?
                        let source = known.cell(avatar).unwrap_or(0);
                        let mut dist = vec![UNREACHED; known.grid.len()];
                        let into = |c: usize| c == t || known.grid.neighbours(t).contains(&c);
                        if known.search(true, source, into, &mut dist).0.is_some() {
                            Err(Stop::TooManyTraps { health })
                        } else {
                            Err(Stop::NoWay)
                        }
                    }
                },
            }
        }
    }
}

/// `X` in an exploration, before the nearest frontier (`docs/keys.md`): the nearest seen
/// chest or trap of the avatar's room still to handle (a walk never leaves one behind: the
/// room's other exits stay locked until they are handled), else, standing on an unexplored
/// exit, the step through it, else the seen unexplored exit of the avatar's map that leads
/// into the deepest room (`floor(√(x² + y²))` of the plot behind it), the nearest of those on
/// ties, when that room is deeper than the avatar's; else the nearest tile of the avatar's
/// plot beside the unseen, then that exit; never across an armed trap or a monster in sight.
/// `None`: none of them (or not an exploration): the nearest frontier, as everywhere.
fn explore_in_rooms(game: &GameState, visited: &[Pos], kept: &mut Option<Known>) -> Option<Route> {
    game.explore()?;
    let avatar = game.avatar();
    let o = game.origin();
    let plot = |p: Pos| plot::plot_of(Pos::new(p.x + o.x, p.y + o.y));
    let here = plot(avatar);
    let todo: Vec<Pos> = game
        .features()
        .iter()
        .filter(|f| !f.handled && f.pos != avatar && plot(f.pos) == here && knows(game, f.pos))
        .map(|f| f.pos)
        .collect();
    if is_unexplored_exit(game, avatar) && todo.is_empty() {
        // The caller steps through it.
        return None;
    }
    // The whole map: the deepest exit may lie anywhere in it.
    let frame = game.rect();
    let known = Known::around(game, frame.width.max(frame.height));
    let source = known.cell(avatar)?;
    let mut dist = vec![UNREACHED; known.grid.len()];
    known.search(false, source, |_| false, &mut dist);
    let reached = |p: Pos| known.cell(p).filter(|&c| dist[c] != UNREACHED);
    let goal = if todo.is_empty() {
        let depth_behind = |c: usize| {
            let at = Pos::new(known.pos(c).x + o.x, known.pos(c).y + o.y);
            let (tx, ty) = plot::in_plot(at);
            Direction::ALL
                .into_iter()
                .find(|&d| plot::edge(d) == (tx, ty))
                .map(|d| crate::explore::depth(plot::plot_of(at).step(d)))
        };
        let deepest = (0..known.grid.len())
            .filter(|&c| {
                dist[c] != UNREACHED && known.is_unexplored(c) && !visited.contains(&known.pos(c))
            })
            .filter_map(|c| Some((depth_behind(c)?, c)))
            .max_by_key(|&(depth, c)| (depth, std::cmp::Reverse((dist[c], c))));
        // An exit no deeper than the avatar's room does not call it away from that room's
        // own unseen tiles (the exits that lead on are found there): until rules version 9
        // `X` stepped into a branch's first room and straight back out to the start room's
        // next door.
        let in_room = || {
            (0..known.grid.len())
                .filter(|&c| {
                    c != source
                        && dist[c] != UNREACHED
                        && known.is_frontier(c)
                        && !known.is_unexplored(c)
                        && plot(known.pos(c)) == here
                        && !visited.contains(&known.pos(c))
                })
                .min_by_key(|&c| (dist[c], c))
        };
        match deepest {
            Some((depth, c)) if depth > crate::explore::depth(here) => c,
            deepest => in_room().or(deepest.map(|(_, c)| c))?,
        }
    } else {
        todo.into_iter()
            .filter_map(reached)
            .min_by_key(|&c| (dist[c], c))?
    };
    let cells = known.path(&dist, goal)?;
    let route = Route::along(&known, &cells);
    *kept = Some(known);
    Some(route)
}

/// The layered search ([`Known::layered`]) from the avatar into world tile `target` over
/// `layers` layers (armed traps crossed: 0 to `layers − 1`), on windows widened until it is
/// exact ([`widening`]): the target's cell and the ways, or `None` when the target lies
/// outside the map or is a closed tile other than the exit. `>`, a click and the HUD's
/// [`exit_ways`] plan with it.
fn ways_into(
    game: &GameState,
    target: Pos,
    layers: usize,
    kept: &mut Option<Known>,
) -> Option<(usize, Ways)> {
    let avatar = game.avatar();
    let reach = target.chebyshev(avatar) as i32 + 1;
    widening(game, reach, kept, |known| {
        let (Some(source), Some(t)) = (known.cell(avatar), known.cell(target)) else {
            return (None, false);
        };
        if !known.open[t] && target != game.exit() {
            return (None, true);
        }
        let ways = known.layered(source, t, layers);
        let exact = !ways.touched || ways.into[0] <= known.margin;
        (Some((t, ways)), exact)
    })
}

/// The known ways into `game`'s exit (module documentation): round every armed trap, and the
/// shortest through as many as the health allows when that is shorter. `None` when the
/// game is over or the exit is not known.
pub fn exit_ways(game: &GameState) -> Option<ExitWays> {
    exit_ways_in(game, &mut None)
}

/// [`exit_ways`], searching the window `kept` first and leaving the one searched there
/// ([`widening`]).
fn exit_ways_in(game: &GameState, kept: &mut Option<Known>) -> Option<ExitWays> {
    if game.has_ended() || !knows(game, game.exit()) {
        return None;
    }
    let layers = game.health().unwrap_or(1).max(1) as usize;
    let (_, ways) = ways_into(game, game.exit(), layers, kept)?;
    let around = ways.best(0).map(|(steps, _)| Way { steps, traps: 0 });
    let through = ways
        .best(layers - 1)
        .filter(|&(steps, _)| around.is_none_or(|a| steps < a.steps))
        .map(|(steps, layer)| Way {
            steps,
            traps: layer as u32,
        });
    Some(ExitWays { around, through })
}
