//! An explorer: a deterministic player for explorations (`docs/explore.md`) that,
//! asked again and again for the next key ([`next_move`]), makes as many rooms as wanted
//! without dying, never bumps into anything and never takes the way up, in explorations
//! without monsters (`--no-monsters`: the room graph's tests and benchmarks). With monsters
//! it walks into any that stands in its way (an attack) and can die. Benchmarks and tests
//! drive explorations with it ([`keys_to_make`] gives a whole input string).
//!
//! **Strategy.** Each call looks at the game afresh (no state is kept between calls):
//! 1. In a room of a branch that is not retired, with features left to handle (a room that is
//!    not clear, whose exits but the way back are locked): handle them, in the order that
//!    walks the fewest steps without ever stepping on an armed trap `▴` (every order of the at
//!    most four features is tried, each leg a breadth-first search over the room's tiles that
//!    treats armed traps as walls, the features passed on the way handled as they are passed,
//!    and the order is kept only if the avatar can walk back to the plot's centre afterwards).
//! 2. Otherwise, in a branch that is not retired: a breadth-first search over the branch's
//!    rooms, through the exits between made rooms the avatar can walk (two-way, one-way the
//!    right way; never locked, never into the start room), to the nearest room that still
//!    holds an unexplored exit (locked or not: a locked one is opened by step 1 on arrival).
//!    In that room itself: the nearest unexplored exit, by tiles.
//! 3. In a retired branch, or one with nothing left: the same search with the start room as
//!    the goal (retired branches are left at once, which keeps every branch small: see
//!    *Cost*).
//! 4. In the start room: the nearest side whose start exit makes a new branch (none behind
//!    it, or the old one retired), else the nearest side whose branch still has unexplored
//!    exits; if there is none (every branch explored out and none retired yet), pace between
//!    the centre and the tile right of it until the branch timer retires one.
//!
//! Within a room the avatar walks by a breadth-first search over its plot's 13 × 13 tiles,
//! painted with [`ExploreState::paint`] (the plot only: whether a crossing is allowed is the
//! room graph's business, and what lies beyond it does not change the walk to it). Ties are
//! broken by [`Direction::ALL`] order (up, right, down, left).
//!
//! **Guarantees.** Every direction returned is a step the rules carry out (never a bump,
//! never the way up); the avatar never steps on an armed trap while any other way exists, and
//! does so at all only with 2 or more health (no such case has been seen: features stand off
//! the room's central cross, at most four to a room). [`next_move`] returns `None` for a game
//! that is not an exploration or has ended, and, as a last resort, rather than step on an
//! armed trap with the last point of health.
//!
//! **Cost** (per call, in the number of rooms): one paint of a plot (169 tiles), one to
//! 65 searches over it (65 only in a room with four features left), and a breadth-first
//! search over the rooms of the avatar's branch that stops at the first goal. A branch is left
//! as soon as it is retired, so it holds the rooms made within one branch timer (500 moves by
//! default: a few dozen rooms): the cost of a call does not grow with the number of rooms
//! made in the exploration. Nothing is hashed (rooms searched are kept in a `BTreeMap`) and
//! nothing is random.
//!
//! **Measured** (default settings): about 26 keys a room (seed 1: 259,524 keys for 10,000
//! rooms, a fifth of them walks home from retired branches), rooms down to depth 11; over 40
//! seeds × 1,000 rooms with each of five settings (`max_unexplored` 1-8, branch timer
//! 100-5,000) no health was ever lost and the last-resort paths were never taken.

use std::collections::BTreeMap;

use byog_game::action::Action;
use byog_game::explore::plot::{self, MID, PLOT};
use byog_game::explore::{BranchId, ExitState, ExploreSettings, ExploreState, Room, RoomPos};
use byog_game::game::GameState;
use byog_game::rules::Event;
use byog_tile_engine::{Direction, Pos, Rect, Tile};
use byog_worlds::generator::GeneratorSettings;

/// Tiles in a plot.
const N: usize = (PLOT * PLOT) as usize;
/// "No tile" in a search's predecessor array and "not reached" in its distances.
const NONE: u8 = u8::MAX;

const _: () = assert!(N < NONE as usize);

/// The next key for the exploration `game`: the direction to step, by the strategy in the
/// module's documentation; `None` when `game` is not an exploration, has ended, or (a last
/// resort never seen in practice) the only way on would step on an armed trap with 1 health
/// left. Deterministic: the same game gives the same direction.
pub fn next_move(game: &GameState) -> Option<Direction> {
    if game.has_ended() {
        return None;
    }
    let ex = game.explore()?;
    let at = ex.room();
    let tiles = SlotTiles::paint(ex, at);
    let avatar = index_of(plot::in_plot(ex.avatar()));
    let health = ex.health();
    let Some(branch) = ex.branch() else {
        return from_start(ex, &tiles, avatar, health);
    };
    let dungeon = ex.dungeon();
    let b = dungeon.branch(branch)?;
    let room = b.room(at)?;
    if !b.retired() {
        if !room.clear {
            return handle_features(&tiles, avatar, health);
        }
        match nearest_room(ex, branch, at, Some(&|r: &Room| r.unexplored() > 0)) {
            Some(Goal::Here) => {
                let sides = Direction::ALL
                    .into_iter()
                    .filter(|&d| room.exit_state(d) == Some(ExitState::Unexplored));
                return to_side(&tiles, avatar, sides, health);
            }
            Some(Goal::Through(d)) => return to_side(&tiles, avatar, [d].into_iter(), health),
            None => {}
        }
    }
    match nearest_room(ex, branch, at, None) {
        Some(Goal::Through(d)) => to_side(&tiles, avatar, [d].into_iter(), health),
        // Every room of a branch leads back to the start room (its way back is always open,
        // and the way back of the branch's first room leads into it).
        _ => None,
    }
}

/// The input string `E<seed>S…` of an exploration with `settings` (and the default generator
/// settings) whose replay makes at least `rooms` rooms: the keys [`next_move`] gives, upper
/// case (`W` `A` `S` `D`, no bump among them), until that many rooms were made; about 26 keys
/// a room with the default settings. Replay it with the same settings (an interpreter
/// [`with_explore`](byog_game::Interpreter::with_explore)`(settings)`, or `byog replay`'s
/// `--max-unexplored` and `--branch-timer`); `seed` must be at most
/// [`MAX_SEED`](byog_game::game::MAX_SEED) for the interpreter to take it.
///
/// # Panics
/// If `settings` cannot make a dungeon (`max_unexplored` 0), or the explorer stops before
/// making `rooms` rooms (it never has: see the tests).
pub fn keys_to_make(seed: u64, settings: ExploreSettings, rooms: usize) -> String {
    let mut game = GameState::new_exploration(seed, GeneratorSettings::default(), settings)
        .expect("an exploration's settings");
    let mut keys = format!("E{seed}S");
    let made = make_rooms(&mut game, rooms, &mut |d| keys.push(Action::Move(d).key()));
    assert!(made >= rooms, "the explorer stopped after {made} rooms");
    keys
}

/// Plays `game` with [`next_move`] until `rooms` more rooms were made or the explorer stops,
/// calling `on_key` with each direction applied; returns the rooms made.
pub fn make_rooms(game: &mut GameState, rooms: usize, on_key: &mut dyn FnMut(Direction)) -> usize {
    let mut made = 0;
    while made < rooms {
        let Some(d) = next_move(game) else {
            break;
        };
        let events = game.apply(Action::Move(d));
        debug_assert!(
            events.blocked().is_none(),
            "the explorer bumped: {events:?}"
        );
        on_key(d);
        made += events
            .as_slice()
            .iter()
            .filter(|e| matches!(e, Event::Entered { made: true, .. }))
            .count();
    }
    made
}

/// Whether stepping `dir` in `game` (an exploration in play) walks into an empty plot, so the
/// rules make a room there: the avatar stands on its room's edge tile on side `dir` and the
/// exit there is unexplored, or, in the start room, no branch (or one whose timer runs out on
/// this move) lies behind it. Benchmarks use it to stop just before a room is made.
pub fn makes_room(game: &GameState, dir: Direction) -> bool {
    let Some(ex) = game.explore() else {
        return false;
    };
    if game.has_ended() || plot::in_plot(ex.avatar()) != plot::edge(dir) {
        return false;
    }
    let dungeon = ex.dungeon();
    match ex.branch() {
        None => match dungeon
            .current_branch(dir)
            .and_then(|id| dungeon.branch(id))
        {
            None => true,
            Some(b) => {
                (game.moves() + 1).saturating_sub(b.made_at()) >= dungeon.settings().branch_timer
            }
        },
        Some(id) => dungeon
            .branch(id)
            .and_then(|b| b.room(ex.room()))
            .is_some_and(|r| r.exit_state(dir) == Some(ExitState::Unexplored)),
    }
}

/// Where the nearest goal room lies from the avatar's room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// The avatar's room is one.
    Here,
    /// Through the avatar's room's exit on this side.
    Through(Direction),
}

/// Breadth-first search over the rooms of `branch`, from `from`, through the exits that can
/// be walked between made rooms (two-way, one-way out; an unexplored exit leads into an
/// empty plot, a locked one nowhere yet), to the nearest room for which `goal` holds, or,
/// with no `goal`, to the start room. Stops at the first goal found: it costs the rooms
/// nearer than the goal, never the whole branch unless the branch has no goal.
fn nearest_room(
    ex: &ExploreState,
    branch: BranchId,
    from: RoomPos,
    goal: Option<&dyn Fn(&Room) -> bool>,
) -> Option<Goal> {
    let b = ex.dungeon().branch(branch)?;
    let start = b.room(from)?;
    let home = goal.is_none();
    let goal = |r: &Room| goal.is_some_and(|g| g(r));
    if goal(start) {
        return Some(Goal::Here);
    }
    // Each room reached, with the first side taken out of `from` to reach it.
    let mut first: BTreeMap<RoomPos, Direction> = BTreeMap::new();
    let mut queue: Vec<RoomPos> = vec![from];
    let mut head = 0;
    while head < queue.len() {
        let pos = queue[head];
        head += 1;
        let room = b.room(pos)?;
        let via = first.get(&pos).copied();
        for d in Direction::ALL {
            if !matches!(
                room.exit_state(d),
                Some(ExitState::TwoWay | ExitState::OneWay)
            ) {
                continue;
            }
            let next = pos.step(d);
            let step = via.unwrap_or(d);
            if next.is_start() {
                if home {
                    return Some(Goal::Through(step));
                }
                continue;
            }
            if next == from || first.contains_key(&next) {
                continue;
            }
            let Some(r) = b.room(next) else {
                continue;
            };
            if goal(r) {
                return Some(Goal::Through(step));
            }
            first.insert(next, step);
            queue.push(next);
        }
    }
    None
}

/// In the start room: the side to take (see the module's documentation, step 4).
fn from_start(
    ex: &ExploreState,
    tiles: &SlotTiles,
    avatar: usize,
    health: u32,
) -> Option<Direction> {
    let dungeon = ex.dungeon();
    let fresh = Direction::ALL
        .into_iter()
        .filter(|&d| dungeon.current_branch(d).is_none());
    if let Some(d) = to_side(tiles, avatar, fresh, health) {
        return Some(d);
    }
    let open = Direction::ALL.into_iter().filter(|&d| {
        dungeon
            .current_branch(d)
            .and_then(|id| dungeon.branch(id))
            .is_some_and(|b| b.unexplored() > 0)
    });
    if let Some(d) = to_side(tiles, avatar, open, health) {
        return Some(d);
    }
    // Pace until a branch retires: the centre and the tile right of it are floor of the
    // start room's cross (the way up is off it).
    let centre = index_of((MID, MID));
    if avatar == centre {
        return Some(Direction::Right);
    }
    let search = Search::run(avatar, |i| tiles.open(i));
    search.first_step(centre)
}

/// The first step towards the nearest of `sides`' edge tiles (by tiles walked, ties in the
/// order given), or the crossing itself when the avatar stands on it.
fn to_side(
    tiles: &SlotTiles,
    avatar: usize,
    sides: impl Iterator<Item = Direction> + Clone,
    health: u32,
) -> Option<Direction> {
    let pick = |search: &Search| {
        sides
            .clone()
            .filter_map(|d| {
                let e = index_of(plot::edge(d));
                search.reached(e).then(|| (search.dist[e], d))
            })
            .min_by_key(|&(dist, _)| dist)
            .map(|(_, d)| d)
    };
    let search = Search::run(avatar, |i| tiles.open(i));
    let (side, search) = match pick(&search) {
        Some(d) => (d, search),
        // Only past an armed trap (never seen): allowed while a point of health is spared.
        None if health > 1 => {
            let s = Search::run(avatar, |i| tiles.walkable(i));
            (pick(&s)?, s)
        }
        None => return None,
    };
    let e = index_of(plot::edge(side));
    if e == avatar {
        Some(side)
    } else {
        search.first_step(e)
    }
}

/// In a room that is not clear: the first step of the shortest safe order to handle its
/// features (see the module's documentation, step 1).
fn handle_features(tiles: &SlotTiles, avatar: usize, health: u32) -> Option<Direction> {
    let mut state = tiles.tiles;
    let mut best: Option<(u32, Direction)> = None;
    plan(&mut state, avatar as u8, 0, None, &mut best);
    if let Some((_, d)) = best {
        return Some(d);
    }
    // No safe order (never seen). A feature under the avatar (a trap it sprang) is handled by
    // stepping off and back on.
    let on_feature = matches!(tiles.tiles[avatar], Tile::ChestEmpty | Tile::TrapSprung);
    if on_feature || health > 1 {
        let search = Search::run(avatar, |i| {
            if on_feature {
                tiles.open(i)
            } else {
                tiles.walkable(i)
            }
        });
        let target = (0..N).filter(|&i| i != avatar && search.reached(i));
        let target = if on_feature {
            target.min_by_key(|&i| search.dist[i])
        } else {
            target
                .filter(|&i| matches!(tiles.tiles[i], Tile::ChestEmpty | Tile::TrapSprung))
                .min_by_key(|&i| search.dist[i])
        }?;
        return search.first_step(target);
    }
    None
}

/// Depth-first over the orders of the features left in `tiles` (a plot's tiles, updated as
/// the avatar would handle them), from tile `at` with `cost` steps walked and `first` the
/// first step taken; keeps in `best` the cheapest complete order, which must end with the
/// avatar able to reach the plot's centre. Armed traps are walls throughout.
fn plan(
    tiles: &mut [Tile; N],
    at: u8,
    cost: u32,
    first: Option<Direction>,
    best: &mut Option<(u32, Direction)>,
) {
    let view = SlotTiles { tiles: *tiles };
    let search = Search::run(usize::from(at), |i| view.open(i));
    let left: Vec<usize> = (0..N)
        .filter(|&i| matches!(tiles[i], Tile::ChestEmpty | Tile::TrapSprung))
        .collect();
    if left.is_empty() {
        let centre = index_of((MID, MID));
        if !search.reached(centre) {
            return;
        }
        let total = cost + u32::from(search.dist[centre]);
        if best.is_none_or(|(b, _)| total < b)
            && let Some(d) = first.or_else(|| search.first_step(centre))
        {
            *best = Some((total, d));
        }
        return;
    }
    for target in left {
        if target == usize::from(at) || !search.reached(target) {
            continue;
        }
        let total = cost + u32::from(search.dist[target]);
        if best.is_some_and(|(b, _)| total >= b) {
            continue;
        }
        let Some(step) = first.or_else(|| search.first_step(target)) else {
            continue;
        };
        let before = *tiles;
        let mut i = target;
        while i != usize::from(at) {
            tiles[i] = match tiles[i] {
                Tile::ChestEmpty => Tile::ChestFull,
                Tile::TrapSprung => Tile::TrapArmed,
                t => t,
            };
            i = usize::from(search.prev[i]);
        }
        plan(tiles, target as u8, total, Some(step), best);
        *tiles = before;
    }
}

/// The tiles of one slot, painted as the avatar's map shows them, row-major from the plot's
/// bottom-left tile.
struct SlotTiles {
    tiles: [Tile; N],
}

impl SlotTiles {
    /// Slot `at` of the avatar's map.
    fn paint(ex: &ExploreState, at: RoomPos) -> SlotTiles {
        let mut tiles = [Tile::Nothing; N];
        ex.paint(
            Rect::new(at.x * PLOT, at.y * PLOT, PLOT, PLOT),
            &mut |p: Pos, t| tiles[index_of(plot::in_plot(p))] = t,
        );
        SlotTiles { tiles }
    }

    /// Whether the rules let the avatar stand on tile `i`.
    fn walkable(&self, i: usize) -> bool {
        self.tiles[i].is_walkable()
    }

    /// Whether the explorer steps on tile `i`: walkable and not an armed trap.
    fn open(&self, i: usize) -> bool {
        self.tiles[i].is_walkable() && self.tiles[i] != Tile::TrapArmed
    }
}

/// The index of plot tile `(tx, ty)`.
const fn index_of((tx, ty): (i32, i32)) -> usize {
    (ty * PLOT + tx) as usize
}

/// A breadth-first search over a plot's tiles from one tile: distances in steps and each
/// tile's predecessor ([`NONE`] where not reached).
struct Search {
    from: usize,
    dist: [u8; N],
    prev: [u8; N],
}

impl Search {
    /// Searches from `from` over the tiles `open` accepts (`from` itself is always taken).
    fn run(from: usize, open: impl Fn(usize) -> bool) -> Search {
        let mut s = Search {
            from,
            dist: [NONE; N],
            prev: [NONE; N],
        };
        let mut queue = [0u8; N];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from as u8;
        s.dist[from] = 0;
        while head < tail {
            let i = usize::from(queue[head]);
            head += 1;
            let (tx, ty) = ((i as i32) % PLOT, (i as i32) / PLOT);
            for d in Direction::ALL {
                let (dx, dy) = d.delta();
                let (nx, ny) = (tx + dx, ty + dy);
                if !(0..PLOT).contains(&nx) || !(0..PLOT).contains(&ny) {
                    continue;
                }
                let n = index_of((nx, ny));
                if s.dist[n] != NONE || !open(n) {
                    continue;
                }
                s.dist[n] = s.dist[i] + 1;
                s.prev[n] = i as u8;
                queue[tail] = n as u8;
                tail += 1;
            }
        }
        s
    }

    /// Whether tile `i` was reached.
    fn reached(&self, i: usize) -> bool {
        self.dist[i] != NONE
    }

    /// The first step from the search's origin towards `to`; `None` if `to` was not reached
    /// or is the origin.
    fn first_step(&self, to: usize) -> Option<Direction> {
        if !self.reached(to) || to == self.from {
            return None;
        }
        let mut i = to;
        while usize::from(self.prev[i]) != self.from {
            i = usize::from(self.prev[i]);
        }
        let (dx, dy) = (
            (i as i32) % PLOT - (self.from as i32) % PLOT,
            (i as i32) / PLOT - (self.from as i32) / PLOT,
        );
        Direction::ALL.into_iter().find(|d| d.delta() == (dx, dy))
    }
}

#[cfg(test)]
mod tests {
    // Explorations walked by the explorer: the states they reach are legal.
    use byog_game::explore::{Exit, ExploreSettings};
    use byog_tile_engine::{Rect, Tile};

    #[test]
    fn a_loaded_saves_checks_accept_every_state_of_long_explorations() {
        let mut one_way = 0;
        let mut retired = 0;
        for (seed, max_unexplored, branch_timer) in
            [(1, 1, 60), (2, 2, 200), (3, 4, 500), (4, 6, 90)]
        {
            let settings = ExploreSettings {
                max_unexplored,
                branch_timer,
                monsters: false,
            };
            let mut game = GameState::new_exploration(seed, GeneratorSettings::default(), settings)
                .expect("an exploration");
            for step in 0..6000 {
                let Some(d) = next_move(&game) else {
                    break;
                };
                game.apply(Action::Move(d));
                if step % 25 == 0 {
                    let e = game.explore().expect("an exploration");
                    assert_eq!(e.check(), Ok(()), "seed {seed}, step {step}");
                }
            }
            let d = game.explore().expect("an exploration").dungeon();
            retired += d.branches().iter().filter(|b| b.retired()).count();
            one_way += d
                .branches()
                .iter()
                .flat_map(|b| b.rooms().values())
                .flat_map(|r| r.exits)
                .filter(|e| *e == Some(Exit::OneWay))
                .count();
        }
        // The walks reached the states the checks are about.
        assert!(
            retired > 5 && one_way > retired,
            "{retired} retired, {one_way} one-way"
        );
    }

    #[test]
    fn painting_into_a_grid_is_painting_tile_by_tile() {
        let settings = ExploreSettings::default();
        let mut game = GameState::new_exploration(5, GeneratorSettings::default(), settings)
            .expect("an exploration");
        for step in 0..3000 {
            let Some(d) = next_move(&game) else {
                break;
            };
            game.apply(Action::Move(d));
            if step % 97 != 0 {
                continue;
            }
            let e = game.explore().expect("an exploration");
            let a = e.avatar();
            for (dx, dy, w, h) in [
                (-8, -8, 17, 17),
                (-20, -5, 41, 9),
                (0, 0, 1, 1),
                (-3, 2, 5, 30),
            ] {
                let area = Rect::new(a.x + dx, a.y + dy, w, h);
                let mut slow = vec![Tile::Nothing; area.area() as usize];
                e.paint(area, &mut |p, t| {
                    slow[((p.y - area.y) * area.width + p.x - area.x) as usize] = t;
                });
                let mut fast = vec![Tile::Nothing; area.area() as usize];
                e.paint_into(area, &mut fast);
                assert_eq!(fast, slow, "step {step}, area {area}");
            }
        }
    }

    use super::*;

    /// The room graph's settings, without monsters (the explorer's contract).
    fn quiet() -> ExploreSettings {
        ExploreSettings {
            monsters: false,
            ..ExploreSettings::default()
        }
    }
    use byog_game::LevelStatus;
    use byog_game::explore::DEFAULT_BRANCH_TIMER;

    /// Plays `seed` until `rooms` rooms are made, checking every key: applied, no bump, no
    /// loss, no way up. Returns the game and the keys taken.
    fn play(
        seed: u64,
        settings: ExploreSettings,
        rooms: usize,
        budget: usize,
    ) -> (GameState, usize) {
        let mut game =
            GameState::new_exploration(seed, GeneratorSettings::default(), settings).unwrap();
        let mut made = 0;
        let mut keys = 0;
        while made < rooms {
            let d = next_move(&game)
                .unwrap_or_else(|| panic!("seed {seed}: the explorer stopped after {made} rooms"));
            let predicted = makes_room(&game, d);
            let events = game.apply(Action::Move(d));
            keys += 1;
            assert!(
                events.changed_game() && events.blocked().is_none(),
                "seed {seed}, key {keys}: {d:?} was not applied: {events:?}"
            );
            assert_eq!(
                game.status(),
                LevelStatus::Playing,
                "seed {seed}, key {keys}"
            );
            let now = events
                .as_slice()
                .iter()
                .filter(|e| matches!(e, Event::Entered { made: true, .. }))
                .count();
            assert_eq!(predicted, now == 1, "seed {seed}, key {keys}: makes_room");
            made += now;
            assert!(keys <= budget, "seed {seed}: {keys} keys for {made} rooms");
        }
        (game, keys)
    }

    #[test]
    fn the_explorer_makes_200_rooms_on_every_seed_without_a_bump_or_a_loss() {
        let mut total = 0;
        for seed in 0..20 {
            let (game, keys) = play(seed, quiet(), 200, 200 * 60);
            let ex = game.explore().unwrap();
            assert_eq!(ex.health(), byog_game::run::START_HEALTH, "seed {seed}");
            total += keys;
        }
        // About 20-30 keys a room (walks home from retired branches included).
        assert!(total <= 20 * 200 * 40, "{total} keys");
    }

    #[test]
    fn the_explorer_copes_with_other_settings() {
        for (seed, max_unexplored, branch_timer) in [
            (1, 1, 50),
            (2, 1, DEFAULT_BRANCH_TIMER),
            (3, 2, 20),
            (4, 8, 2_000),
            (5, 64, 100_000),
            (6, 3, 1),
            // Every branch retires on the move that makes it.
            (7, 4, 0),
        ] {
            let settings = ExploreSettings {
                max_unexplored,
                branch_timer,
                monsters: false,
            };
            play(seed, settings, 150, 150 * 200);
        }
    }

    #[test]
    fn the_explorer_is_deterministic_and_its_keys_replay() {
        let settings = quiet();
        let keys = keys_to_make(7, settings, 120);
        assert_eq!(keys, keys_to_make(7, settings, 120));
        assert!(keys.starts_with("E7S"));
        let mut i = byog_game::Interpreter::new(80, 30, GeneratorSettings::default())
            .with_explore(settings);
        let mut store = byog_game::save::MemoryStore::default();
        let run = byog_game::replay::replay(&mut i, &keys, &mut store, true, &mut |_| ()).unwrap();
        assert_eq!(run.reported, 0);
        let game = i.game().unwrap();
        let rooms = game.explore().unwrap().dungeon().rooms_made();
        assert!(rooms >= 120, "{rooms}");
        assert_eq!(game.status(), LevelStatus::Playing);
    }

    #[test]
    fn an_ended_game_or_a_classic_one_has_no_next_move() {
        let classic = GameState::new(1, 80, 30, GeneratorSettings::default()).unwrap();
        assert_eq!(next_move(&classic), None);
        let mut game =
            GameState::new_exploration(1, GeneratorSettings::default(), quiet()).unwrap();
        // The way up is two tiles left and two up of the start room's centre.
        for d in [
            Direction::Left,
            Direction::Left,
            Direction::Up,
            Direction::Up,
        ] {
            game.apply(Action::Move(d));
        }
        assert!(game.has_ended());
        assert_eq!(next_move(&game), None);
    }
}
