//! Travel: the player's tools that walk many steps for one key (`docs/keys.md`, after Brogue's
//! travel and explore). `>` walks to the exit (a run's or a classic game's door, an
//! exploration's way up) once it is known; `X` explores, walking again and again to the
//! nearest reachable tile beside the unseen; a click walks to a known tile.
//!
//! **What a walk knows.** Runs and explorations are played in the dark: a walk plans over the
//! tiles the player has seen, never through the unseen (the one step into the unknown is
//! through an exploration's unexplored exit, which is how rooms are made). A classic game
//! shows its whole map (`docs/sight.md`; Tab's sight there is a way of looking, a view key the
//! game never hears), so its walks plan over the whole map: `>` goes to the exit from the
//! first move, and `X` has nothing to find. Monsters the avatar sees are in the way; one out of
//! sight is not known to be there.
//!
//! **Which way.** A walk steps only where the rules let it: a one-way exit is entered only in
//! its direction (so no walk plans against one, and the way home through a retired branch's
//! one-way exit is found). It goes round armed traps wherever a known way does; in a run `>`
//! takes the shortest way that fits the moves left: round the armed traps when that fits,
//! else through the fewest traps the health allows (a heart kept), else it does not start and
//! says so ([`Stop::OutOfReach`]). Front-ends ask the player (`Y`) before a way through armed
//! traps; an input string has no one to ask, so there `>` takes that way, as the player who
//! typed it asked for the exit ([`walk`]). [`exit_ways`] gives the HUD both ways
//! (`exit 189 · 107 through 2 traps`).
//!
//! **When it stops** ([`Stop`]): when something new comes into sight
//! ([`Sighting::newly`], the hook every new kind of thing extends), when health drops, when a
//! step does more than move (a feature handled, a bump, a new floor, the end), when it
//! arrives, after [`MAX_STEPS`] steps, or when a step is refused (then it says why: a walk is
//! never a silent no-op). `X` does not start when nothing is left to find: every chest and
//! trap handled and the exit known with a known way into it ([`Stop::NothingLeft`]; with the
//! exit seen but no way in known yet, `X` explores towards the exit: the frontier tile with
//! the least steps there plus tiles on to the exit). In a run, `X` also stops once the exit's
//! shortest known way needs all but [`EXIT_RESERVE`] of the moves left
//! ([`Stop::ExitAtTheLimit`]), unless the walk began so: it never explores a run out of reach
//! of a known exit.
//!
//! **Cost.** A plan searches a window around the avatar, not the world: a square of
//! [`FIRST_REACH`] tiles each way, doubled while the answer could lie outside it (a way out
//! of the window could be shorter, or the search reached its edge without an answer). A
//! breadth-first search within `r` tiles of its source is the search over the whole map for
//! every cell nearer than `r`, ties included, so the steps are those the whole map gives; a
//! step costs what lies between the avatar and its goal, not the world's size
//! (`benches/play.rs`, `docs/performance.md`). A walk keeps its plan between steps and plans
//! again only when the avatar is off it or `X`'s goal no longer lies beside the unseen.
//!
//! Every step is an ordinary [`Action::Move`] applied by the rules, so the history records it
//! as the `W`/`A`/`S`/`D` key it is: replays and saves need nothing new. The interpreter
//! expands `X` and `>` in an input string with [`walk`]; the front-ends drive the same
//! [`Travel`] one step a frame, so they can also stop it on a key, and the steps they take are
//! the ones the interpreter would take.

use std::fmt;

use super::action::Action;
use super::base::GameKind;
use super::explore::MonsterKind;
use super::game::GameState;
use super::rules::{Event, Events};
use super::run::FeatureKind;
use byog_tile_engine::search::{Grid, UNREACHED};
use byog_tile_engine::{Direction, Map, Pos, Rect, Tile};

/// The most steps one `X`, `>` or click takes (then it stops, and the key can be given again).
pub const MAX_STEPS: u32 = 1000;

/// The half-side, in tiles, of the first window a plan searches around the avatar (then
/// doubled as needed). 16: two light radii, so most of `X`'s goals are found in the first
/// window of 33 × 33 tiles.
pub const FIRST_REACH: i32 = 16;

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
    /// `X` with nothing left to find: every chest and trap of the floor handled, the exit
    /// known and a known way into it (a classic game, whose map is shown, from the start).
    NothingLeft,
    /// `>` before the exit was seen.
    ExitUnseen,
    /// A click on a tile never seen.
    Unseen,
    /// No known way leads there.
    NoWay,
    /// `>` in a run: no known way into the exit fits the moves left, round the armed traps or
    /// through as many as the health allows.
    OutOfReach {
        /// Moves the shortest of those ways needs.
        needs: u32,
        /// Moves left.
        left: u64,
    },
    /// Every known way there crosses more armed traps than the health can pay for (a heart
    /// is always kept).
    TooManyTraps {
        /// Hearts left.
        health: u32,
    },
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
    /// The rules refused the next step (the way is closed there): nothing changed.
    Blocked,
    /// The next step was the way back out of a room while a monster is beside the avatar:
    /// the rules refuse it ("locked in combat").
    InCombat,
    /// No known way leads on but through a monster in sight (a walk never plans through
    /// one): the nearest of those monsters.
    MonsterInTheWay(MonsterKind),
    /// `X` in a run: the shortest known way into the exit now needs all but at most
    /// [`EXIT_RESERVE`] of the moves left, so a step further away could leave the exit out of
    /// reach. Only a walk that began with more to spare stops so: `X` never walks a run out
    /// of reach of a known exit.
    ExitAtTheLimit {
        /// Moves the shortest known way into the exit needs.
        needs: u32,
        /// Moves left.
        left: u64,
    },
}

/// The moves to spare beyond the exit's shortest known way at which `X` stops in a run
/// ([`Stop::ExitAtTheLimit`]): a step away costs a move and can lengthen the way by one, so
/// with more than 2 to spare before a step at least 1 is left after it.
pub const EXIT_RESERVE: i64 = 2;

/// In a run with a known way into the exit: the moves its shortest way needs (round the
/// armed traps, or through as many as the health allows) and the moves left.
fn exit_needs(game: &GameState) -> Option<(u32, u64)> {
    let left = game.run()?.moves_left;
    Some((exit_ways(game)?.shortest()?, left))
}

/// Whether the moves left spare at most [`EXIT_RESERVE`] beyond the exit's way.
fn at_the_limit((needs, left): (u32, u64)) -> bool {
    left as i64 - i64::from(needs) <= EXIT_RESERVE
}

impl fmt::Display for Stop {
    /// In a player's words, e.g. "a chest comes into sight".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Arrived => f.write_str("arrived"),
            Stop::Explored => f.write_str("nothing left to explore that can be reached"),
            Stop::NothingLeft => f.write_str(
                "nothing left to find: every chest and trap is handled and the exit is known (> goes there)",
            ),
            Stop::ExitUnseen => f.write_str("the exit has not been seen yet (X explores)"),
            Stop::Unseen => f.write_str("that tile has not been seen"),
            Stop::NoWay => f.write_str("no known way leads there"),
            Stop::OutOfReach { needs, left } => write!(
                f,
                "the exit is out of reach: the shortest way your hearts allow needs {needs} moves, {left} are left"
            ),
            Stop::TooManyTraps { health } => write!(
                f,
                "every known way there crosses more armed traps than your {health} heart{} can pay for",
                if *health == 1 { "" } else { "s" }
            ),
            Stop::Sighted(t) => write!(f, "{t} comes into sight"),
            Stop::Hurt => f.write_str("hurt: travel stopped"),
            Stop::Event => f.write_str("travel stopped"),
            Stop::Over => f.write_str("the game is over"),
            Stop::Limit => write!(f, "travel stopped after {MAX_STEPS} steps"),
            Stop::Key => f.write_str("travel stopped by a key"),
            Stop::Blocked => f.write_str("the way is closed there: travel stopped"),
            Stop::InCombat => f.write_str("you are locked in combat: step away first"),
            Stop::MonsterInTheWay(kind) => write!(
                f,
                "the {} is in the way: fight it (walk into it) or wait (.)",
                kind.name()
            ),
            Stop::ExitAtTheLimit { needs, left } => write!(
                f,
                "the exit needs {needs} of your {left} moves: exploring stopped (> goes there)"
            ),
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
    /// Armed traps on the way: each costs a heart (no known way that fits avoids them).
    pub armed: u32,
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

/// Whether `game`'s walks plan over its whole map: a classic game shows it (module
/// documentation).
fn whole_map(game: &GameState) -> bool {
    game.kind() == GameKind::Classic
}

/// Whether a walk knows world tile `pos`: seen, or any tile of a classic game.
fn knows(game: &GameState, pos: Pos) -> bool {
    if whole_map(game) {
        game.contains(pos)
    } else {
        game.has_seen(pos)
    }
}

/// What a walk knows of a window of the game's current frame, on the window's padded grid
/// (its ring of border cells is closed, but their `unseen` is true to the map). A walk keeps
/// it between steps and brings it up to date around the tiles the avatar stood on since
/// ([`Known::catch_up`]), so a plan costs its search, not a fresh look at the world.
#[derive(Debug, Clone)]
struct Known {
    /// The window, in world tiles of the current frame.
    area: Rect,
    /// The game's frame when the window was made: its origin and rectangle (an
    /// exploration's changes as its map grows or the avatar changes maps).
    frame: (Pos, Rect),
    grid: Grid,
    /// Known and walkable.
    ground: Vec<bool>,
    /// `ground`, less the tiles of monsters in sight, the avatar's tile always open.
    open: Vec<bool>,
    /// Tiles of the map never seen (the ring included).
    unseen: Vec<bool>,
    /// Armed traps.
    armed: Vec<bool>,
    /// Seen unexplored exits of an exploration: where `X` steps into the unknown.
    unexplored: Vec<bool>,
    /// A one-way exit's cell: 1 + the index of the only direction a step may enter it by;
    /// 0 for any other cell.
    entry: Vec<u8>,
    /// The least number of steps from the avatar to a tile of the map outside the window
    /// (`u32::MAX` when the window is the whole map): a search is exact within it.
    margin: u32,
    /// The window's cells on a side beyond which the map goes on.
    edge: Vec<bool>,
    /// The tiles the avatar stood on since the window was last brought up to date: the
    /// corners of their bounding box.
    stood: Option<(Pos, Pos)>,
}

impl Known {
    /// The window of half-side `reach` around the avatar (the map's frame clipped), marked
    /// for the avatar where it stands ([`Known::mark`]).
    fn around(game: &GameState, reach: i32) -> Known {
        let a = game.avatar();
        let map = game.rect();
        let area =
            Rect::new(a.x - reach, a.y - reach, 2 * reach + 1, 2 * reach + 1).intersection(&map);
        let grid = Grid::around(area.width as usize, area.height as usize);
        let n = grid.len();
        let mut known = Known {
            area,
            frame: (game.origin(), map),
            grid,
            ground: vec![false; n],
            open: vec![false; n],
            unseen: vec![false; n],
            armed: vec![false; n],
            unexplored: vec![false; n],
            entry: vec![0; n],
            margin: u32::MAX,
            edge: vec![false; n],
            stood: None,
        };
        known.fill(game, known.padded());
        let sides = known.open_sides();
        for y in area.y..area.top() {
            for x in area.x..area.right() {
                let on_edge = (x == area.x && sides[0])
                    || (x == area.right() - 1 && sides[1])
                    || (y == area.y && sides[2])
                    || (y == area.top() - 1 && sides[3]);
                if on_edge && let Some(c) = known.cell(Pos::new(x, y)) {
                    known.edge[c] = true;
                }
            }
        }
        known.mark(game);
        known
    }

    /// The window with its ring, in world tiles.
    fn padded(&self) -> Rect {
        let a = self.area;
        Rect::new(a.x - 1, a.y - 1, a.width + 2, a.height + 2)
    }

    /// Which of the window's sides (left, right, bottom, top) the map goes on beyond.
    fn open_sides(&self) -> [bool; 4] {
        let (a, map) = (self.area, self.frame.1);
        [
            a.x > map.x,
            a.right() < map.right(),
            a.y > map.y,
            a.top() < map.top(),
        ]
    }

    /// Reads the tiles of `region` (world tiles, clipped to the padded window) from the game:
    /// what is known of each, and whether it can be walked.
    fn fill(&mut self, game: &GameState, region: Rect) {
        let region = region.intersection(&self.padded());
        if region.is_empty() {
            return;
        }
        let map = self.frame.1;
        let (rw, rh) = (region.width as usize, region.height as usize);
        let mut tiles = vec![Tile::Nothing; rw * rh];
        let mut seen = vec![false; rw * rh];
        match (game.grid(), game.explore()) {
            (Some(g), _) => {
                let whole = whole_map(game);
                let tw = g.terrain.width();
                let inside = region.intersection(&g.terrain.rect());
                for y in inside.y..inside.top() {
                    let row = (y - region.y) as usize * rw;
                    let from = y as usize * tw + inside.x as usize;
                    let len = inside.width as usize;
                    let at = row + (inside.x - region.x) as usize;
                    tiles[at..at + len].copy_from_slice(&g.terrain.tiles()[from..from + len]);
                    if whole {
                        seen[at..at + len].fill(true);
                    } else {
                        seen[at..at + len].copy_from_slice(&g.seen[from..from + len]);
                    }
                }
            }
            (None, Some(e)) => {
                let o = game.origin();
                let dungeon =
                    Rect::new(region.x + o.x, region.y + o.y, region.width, region.height);
                e.paint_into(dungeon, &mut tiles);
                e.seen_into(dungeon, &mut seen);
            }
            (None, None) => {}
        }
        for y in region.y..region.top() {
            for x in region.x..region.right() {
                let k = (y - region.y) as usize * rw + (x - region.x) as usize;
                let c = ((y - self.area.y + 1) as usize) * self.grid.width
                    + (x - self.area.x + 1) as usize;
                let p = Pos::new(x, y);
                let (seen, t) = (seen[k], tiles[k]);
                let in_map = map.contains(p);
                let interior = self.area.contains(p) && in_map && seen;
                self.unseen[c] = in_map && !seen;
                self.ground[c] = interior && t.is_walkable();
                self.unexplored[c] = interior && t == Tile::ExitUnexplored;
                self.entry[c] = match t {
                    _ if !interior => 0,
                    Tile::OneWayUp => 1 + Direction::Up.index() as u8,
                    Tile::OneWayRight => 1 + Direction::Right.index() as u8,
                    Tile::OneWayDown => 1 + Direction::Down.index() as u8,
                    Tile::OneWayLeft => 1 + Direction::Left.index() as u8,
                    _ => 0,
                };
            }
        }
    }

    /// Whether the window still belongs to `game`'s frame and holds the avatar.
    fn fits(&self, game: &GameState) -> bool {
        self.frame == (game.origin(), game.rect()) && self.area.contains(game.avatar())
    }

    /// Notes that the avatar stands where it stands now: what it saw from there is read in
    /// by the next [`Known::catch_up`].
    fn stood_on(&mut self, at: Pos) {
        self.stood = Some(match self.stood {
            None => (at, at),
            Some((lo, hi)) => (
                Pos::new(lo.x.min(at.x), lo.y.min(at.y)),
                Pos::new(hi.x.max(at.x), hi.y.max(at.y)),
            ),
        });
    }

    /// Reads in what the avatar saw from the tiles it stood on since the last time: the
    /// light radius' square around each (their bounding box, grown by the radius).
    fn catch_up(&mut self, game: &GameState) {
        if let Some((lo, hi)) = self.stood.take() {
            let r = crate::base::SIGHT_RADIUS as i32 + 1;
            let region = Rect::new(
                lo.x - r,
                lo.y - r,
                hi.x - lo.x + 2 * r + 1,
                hi.y - lo.y + 2 * r + 1,
            );
            self.fill(game, region);
        }
    }

    /// Marks what changes from one plan to the next: the armed traps, the monsters in sight
    /// (in the way), the avatar's tile (open: it leaves from there) and the margin from the
    /// avatar to the window's open sides.
    fn mark(&mut self, game: &GameState) {
        self.open.copy_from_slice(&self.ground);
        self.armed.fill(false);
        for f in game.features().iter() {
            if f.kind == FeatureKind::Trap
                && f.handled
                && let Some(c) = self.cell(f.pos)
            {
                self.armed[c] = true;
            }
        }
        if let Some(e) = game.explore() {
            let sight = e.sight();
            let o = game.origin();
            for m in e.monsters().filter(|m| sight.contains(m.pos)) {
                if let Some(c) = self.cell(Pos::new(m.pos.x - o.x, m.pos.y - o.y)) {
                    self.open[c] = false;
                }
            }
        }
        let a = game.avatar();
        if let Some(c) = self.cell(a) {
            self.open[c] = true;
        }
        let area = self.area;
        let steps = [
            a.x - area.x,
            area.right() - 1 - a.x,
            a.y - area.y,
            area.top() - 1 - a.y,
        ];
        self.margin = self
            .open_sides()
            .into_iter()
            .zip(steps)
            .filter(|&(open, _)| open)
            .map(|(_, s)| s.max(0) as u32)
            .min()
            .unwrap_or(u32::MAX);
    }

    /// Whether the window is the whole map.
    fn whole(&self) -> bool {
        self.margin == u32::MAX
    }

    /// The padded cell of world tile `p`, if it lies in the window.
    fn cell(&self, p: Pos) -> Option<usize> {
        self.grid
            .index(Pos::new(p.x - self.area.x, p.y - self.area.y))
    }

    /// The world tile of padded cell `c`.
    fn pos(&self, c: usize) -> Pos {
        let p = self.grid.pos(c);
        Pos::new(p.x + self.area.x, p.y + self.area.y)
    }

    /// Whether a step in direction `d` may enter cell `c` (a one-way exit only in its
    /// direction).
    fn may_enter(&self, c: usize, d: Direction) -> bool {
        let e = self.entry[c];
        e == 0 || usize::from(e - 1) == d.index()
    }

    /// Whether open cell `c` is a tile to explore towards: beside an unseen tile of the map,
    /// or an exploration's unexplored exit.
    fn is_frontier(&self, c: usize) -> bool {
        self.open[c]
            && (self.unexplored[c] || self.grid.neighbours(c).into_iter().any(|n| self.unseen[n]))
    }

    /// A breadth-first search from `source` over the open cells (armed traps closed unless
    /// `through_traps`), each step allowed only as the rules allow it ([`Known::may_enter`]),
    /// neighbours in [`Direction::ALL`] order, stopped at the first cell where `goal` holds
    /// (in search order: nearest first, ties in neighbour order). The distances of the cells
    /// searched are in `dist` (all [`UNREACHED`] on entry); returns the goal found and
    /// whether the search reached the window's edge.
    fn search(
        &self,
        through_traps: bool,
        source: usize,
        goal: impl Fn(usize) -> bool,
        dist: &mut [u32],
    ) -> (Option<usize>, bool) {
        let mut queue = Vec::with_capacity(256);
        let mut head = 0;
        let mut touched = false;
        dist[source] = 0;
        queue.push(source);
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            touched |= self.edge[c];
            if goal(c) {
                return (Some(c), touched);
            }
            for (n, d) in self.grid.neighbours(c).into_iter().zip(Direction::ALL) {
                if self.open[n]
                    && dist[n] == UNREACHED
                    && (through_traps || !self.armed[n])
                    && self.may_enter(n, d)
                {
                    dist[n] = dist[c] + 1;
                    queue.push(n);
                }
            }
        }
        (None, touched)
    }

    /// The cells of the shortest walk from the search's source into `target` by `dist` (as
    /// the search module's `path_into`: a target not reached itself is entered from its
    /// reached neighbour nearest the source, the first in neighbour order on ties; each cell
    /// steps back onto the first neighbour one step nearer from which the rules allow the
    /// step), source first.
    fn path(&self, dist: &[u32], target: usize) -> Option<Vec<usize>> {
        byog_tile_engine::search::path_into_where(self.grid, dist, target, |c, d| {
            self.may_enter(c, d.opposite())
        })
    }

    /// The route along `cells` (source first).
    fn route(&self, cells: &[usize]) -> Route {
        let tiles: Vec<Pos> = cells.iter().skip(1).map(|&c| self.pos(c)).collect();
        let steps = cells
            .windows(2)
            .map(|w| direction_between(self.pos(w[0]), self.pos(w[1])))
            .collect();
        let armed = cells.iter().skip(1).filter(|&&c| self.armed[c]).count() as u32;
        Route {
            tiles,
            steps,
            armed,
        }
    }

    /// The shortest ways from `source` into `target` crossing at most `k` armed traps, for
    /// each `k` in `0..layers`: a breadth-first search over (cell, traps crossed), linear in
    /// cells × layers (as the solver's escape, `run::route::Router::escape`). Returns, a
    /// layer, the steps into the target (`UNREACHED` when none), with the search's state
    /// distances, and whether it reached the window's edge.
    fn layered(&self, source: usize, target: usize, layers: usize) -> Layered {
        let n = self.grid.len();
        let mut dist = vec![UNREACHED; layers * n];
        let mut queue = Vec::with_capacity(256);
        let mut head = 0;
        let mut touched = false;
        dist[source] = 0;
        queue.push(source);
        while head < queue.len() {
            let s = queue[head];
            head += 1;
            let (layer, c) = (s / n, s % n);
            touched |= self.edge[c];
            for (m, d) in self.grid.neighbours(c).into_iter().zip(Direction::ALL) {
                if !self.open[m] || !self.may_enter(m, d) {
                    continue;
                }
                let l = layer + usize::from(self.armed[m]);
                if l >= layers {
                    continue;
                }
                let t = l * n + m;
                if dist[t] == UNREACHED {
                    dist[t] = dist[s] + 1;
                    queue.push(t);
                }
            }
        }
        // Steps into the target a layer: its own distance if reached (a walkable target),
        // else one more than its nearest reached neighbour's.
        let mut into = vec![UNREACHED; layers];
        for (l, best) in into.iter_mut().enumerate() {
            let own = dist[l * n + target];
            *best = if own != UNREACHED {
                own
            } else {
                self.grid
                    .neighbours(target)
                    .into_iter()
                    .map(|m| dist[l * n + m])
                    .filter(|&d| d != UNREACHED)
                    .map(|d| d + 1)
                    .min()
                    .unwrap_or(UNREACHED)
            };
        }
        Layered {
            n,
            dist,
            into,
            touched,
        }
    }
}

/// A layered search's result ([`Known::layered`]).
struct Layered {
    n: usize,
    /// `dist[layer × n + cell]`.
    dist: Vec<u32>,
    /// Steps into the target, a layer (`into[k]`: the shortest way that ends having crossed
    /// `k` armed traps; `UNREACHED` when none).
    into: Vec<u32>,
    touched: bool,
}

impl Layered {
    /// The shortest way into the target crossing at most `k` traps: `(steps, layer)`, the
    /// fewest traps among the shortest.
    fn best(&self, k: usize) -> Option<(u32, usize)> {
        let mut best: Option<(u32, usize)> = None;
        for (l, &d) in self.into.iter().enumerate().take(k + 1) {
            if d != UNREACHED && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, l));
            }
        }
        best
    }

    /// The cells of that way, source first (as [`Known::path`], a layer at a time).
    fn path(&self, known: &Known, target: usize, layer: usize) -> Option<Vec<usize>> {
        let n = self.n;
        let d = |l: usize, c: usize| self.dist[l * n + c];
        let (mut l, last) = if d(layer, target) != UNREACHED {
            (layer, target)
        } else {
            let mut best = None::<usize>;
            for m in known.grid.neighbours(target) {
                if d(layer, m) != UNREACHED && best.is_none_or(|b| d(layer, m) < d(layer, b)) {
                    best = Some(m);
                }
            }
            (layer, best?)
        };
        let mut path = Vec::with_capacity(d(l, last) as usize + 2);
        if last != target {
            path.push(target);
        }
        let mut c = last;
        path.push(c);
        while d(l, c) > 0 {
            // The layer the step onto `c` came from.
            let from = l - usize::from(known.armed[c]);
            let want = d(l, c) - 1;
            c = known
                .grid
                .neighbours(c)
                .into_iter()
                .zip(Direction::ALL)
                .find(|&(m, dir)| d(from, m) == want && known.may_enter(c, dir.opposite()))?
                .0;
            l = from;
            path.push(c);
        }
        path.reverse();
        Some(path)
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
fn plan_avoiding(
    game: &GameState,
    goal: Goal,
    visited: &[Pos],
    kept: &mut Option<Known>,
) -> Result<Route, Stop> {
    let planned = plan_known(game, goal, visited, kept);
    match planned {
        Err(Stop::Explored | Stop::NoWay) => match monster_in_the_way(game, goal, visited) {
            Some(kind) => Err(Stop::MonsterInTheWay(kind)),
            None => planned,
        },
        other => other,
    }
}

/// The nearest monster in sight (steps as the crow walks, then the order they act in) when
/// a walk to `goal` that finds no way would find one were the monsters in sight gone: the
/// plan again on a copy of the game without them (only on this failing path).
fn monster_in_the_way(game: &GameState, goal: Goal, visited: &[Pos]) -> Option<MonsterKind> {
    let e = game.explore()?;
    let sight = e.sight();
    let avatar = game.avatar();
    let o = game.origin();
    let nearest = e
        .monsters()
        .filter(|m| sight.contains(m.pos))
        .min_by_key(|m| Pos::new(m.pos.x - o.x, m.pos.y - o.y).manhattan(avatar))?
        .kind;
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
                if exit_ways(game).is_some_and(|w| w.around.is_some() || w.through.is_some()) {
                    return Err(Stop::NothingLeft);
                }
                Some(game.exit())
            } else {
                None
            };
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
                    return Ok(known.route(&cells));
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
            let reach = (target.x - avatar.x).abs().max((target.y - avatar.y).abs()) + 1;
            let found = widening(game, reach, kept, |known| {
                let (Some(source), Some(t)) = (known.cell(avatar), known.cell(target)) else {
                    return (None, false);
                };
                if !known.open[t] && target != game.exit() {
                    return (None, true);
                }
                let ways = known.layered(source, t, layers);
                let exact = !ways.touched || ways.into[0] <= known.margin;
                (Some((t, ways)), exact)
            });
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
                    Ok(known.route(&cells))
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

/// The known ways into `game`'s exit (module documentation): round every armed trap, and the
/// shortest through as many as the health allows when that is shorter. `None` when the
/// game is over or the exit is not known.
pub fn exit_ways(game: &GameState) -> Option<ExitWays> {
    if game.has_ended() || !knows(game, game.exit()) {
        return None;
    }
    let avatar = game.avatar();
    let target = game.exit();
    let layers = game.health().unwrap_or(1).max(1) as usize;
    let reach = (target.x - avatar.x).abs().max((target.y - avatar.y).abs()) + 1;
    let ways = widening(game, reach, &mut None, |known| {
        let (Some(source), Some(t)) = (known.cell(avatar), known.cell(target)) else {
            return (None, false);
        };
        let ways = known.layered(source, t, layers);
        let exact = !ways.touched || ways.into[0] <= known.margin;
        (Some(ways), exact)
    });
    let ways = ways?;
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

/// What the player has seen of the things whose first sighting stops a walk: each with its
/// dungeon tile. The hook for new kinds of things (monsters): add them in [`sighting`] and
/// [`Sighting::newly`] reports them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sighting(Vec<(Pos, Thing)>);

/// The things `game`'s player knows so far (a feature or the exit on a known tile) and the
/// monsters it sees now.
pub fn sighting(game: &GameState) -> Sighting {
    let o = game.origin();
    let abs = |p: Pos| Pos::new(p.x + o.x, p.y + o.y);
    let mut things: Vec<(Pos, Thing)> = game
        .features()
        .iter()
        .filter(|f| knows(game, f.pos))
        .map(|f| {
            let thing = match f.kind {
                FeatureKind::Chest => Thing::Chest,
                FeatureKind::Trap => Thing::Trap,
            };
            (abs(f.pos), thing)
        })
        .collect();
    if knows(game, game.exit()) {
        things.push((abs(game.exit()), Thing::Exit));
    }
    // Monsters in sight now, by id (they move: a monster is new when its id is).
    if let Some(e) = game.explore() {
        let sight = e.sight();
        things.extend(
            e.monsters()
                .filter(|m| sight.contains(m.pos))
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
    /// The window of the tiles known, kept between steps.
    map: Option<Known>,
    health: Option<u32>,
    steps: u32,
    visited: Vec<Pos>,
    /// Hearts the player agreed to lose on the way (a confirmed route through armed traps).
    hurts: u32,
    /// Whether the walk takes the armed traps its plan crosses without asking ([`walk`]:
    /// an input string's `>`).
    take_traps: bool,
    /// Whether a run's exit was already at the limit of the moves when the walk began (an
    /// `X` then explores on: the player chose to).
    limit_at_start: bool,
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
            limit_at_start: goal == Goal::Explore && exit_needs(game).is_some_and(at_the_limit),
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
            let route = plan_avoiding(game, self.goal, &visited, &mut self.map)?;
            if self.take_traps && self.goal != Goal::Explore {
                self.hurts = self.hurts.max(route.armed);
            }
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
        } else if let Some((needs, left)) = (self.goal == Goal::Explore && !self.limit_at_start)
            .then(|| exit_needs(game))
            .flatten()
            .filter(|&n| at_the_limit(n))
        {
            Some(Stop::ExitAtTheLimit { needs, left })
        } else if self.steps >= MAX_STEPS {
            Some(Stop::Limit)
        } else {
            None
        };
        // The window kept between steps stays true while the step only moved the avatar
        // (what it saw is read in before the next plan); a room made or cleared, a new floor
        // or a feature changed tiles: the next plan makes a new one.
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
    /// The events of the last step taken, if a step was taken.
    pub last: Option<Events>,
    /// Why it stopped.
    pub stop: Stop,
}

/// Walks `game` to `goal` by the rules until the walk stops: the interpreter's `X` and `>`.
/// An input string has no one to ask `Y`, so `>` (and a walk to a tile) takes the way its
/// plan chose, through the armed traps it crosses (the fewest that fit, a heart kept:
/// [`plan`]); `X` stops at the first heart lost.
pub fn walk(game: &mut GameState, goal: Goal) -> Walk {
    let mut travel = Travel::new(game, goal);
    travel.take_traps = true;
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
                if events.changed_game() {
                    last = Some(events);
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use byog_worlds::generator::GeneratorSettings;

    /// [`plan`] over the whole map at once (one window holding it all: exact by definition).
    fn plan_whole(game: &GameState, goal: Goal) -> Result<Route, Stop> {
        let mut kept = Some(Known::around(game, i32::MAX / 4));
        plan_avoiding(game, goal, &[], &mut kept)
    }

    /// Games part-way through: runs and explorations after some `X` keys, a classic game.
    fn games() -> Vec<GameState> {
        let mut out = Vec::new();
        for seed in 0..12u64 {
            let mut run =
                GameState::new_run(seed, 80, 30, GeneratorSettings::default(), 3).unwrap();
            let mut explore = GameState::new_exploration(
                seed,
                GeneratorSettings::default(),
                crate::explore::ExploreSettings::default(),
            )
            .unwrap();
            for _ in 0..8 {
                walk(&mut run, Goal::Explore);
                walk(&mut explore, Goal::Explore);
                out.push(run.clone());
                out.push(explore.clone());
            }
            out.push(GameState::new(seed, 80, 30, GeneratorSettings::default()).unwrap());
        }
        // A large floor, where windows are a small part of it.
        for seed in 0..2u64 {
            let mut big =
                GameState::new_run(seed, 301, 201, GeneratorSettings::default(), 1).unwrap();
            for _ in 0..12 {
                walk(&mut big, Goal::Explore);
                out.push(big.clone());
            }
        }
        out
    }

    /// A plan searched in windows is the plan over the whole map: the same steps, ties and
    /// all (the windows grow until nothing outside them could be nearer).
    #[test]
    fn windows_plan_as_the_whole_map_does() {
        let mut compared = 0;
        for game in games() {
            for goal in [Goal::Explore, Goal::Exit] {
                assert_eq!(
                    plan(&game, goal),
                    plan_whole(&game, goal),
                    "{}",
                    game.history()
                );
                compared += 1;
            }
        }
        assert!(compared > 300);
    }

    /// A walk that keeps its window between steps takes the steps of one that makes a new
    /// window for every plan.
    #[test]
    fn a_kept_window_walks_as_a_fresh_one() {
        for game in games() {
            for goal in [Goal::Explore, Goal::Exit] {
                let (mut kept, mut fresh) = (game.clone(), game.clone());
                let (mut a, mut b) = (Travel::new(&kept, goal), Travel::new(&fresh, goal));
                loop {
                    b.map = None;
                    let (x, y) = (a.next(&kept), b.next(&fresh));
                    assert_eq!(x, y, "{}", game.history());
                    let Ok(action) = x else { break };
                    let (ex, ey) = (kept.apply(action), fresh.apply(action));
                    let (sx, sy) = (a.observe(&kept, &ex), b.observe(&fresh, &ey));
                    assert_eq!(sx, sy);
                    if sx.is_some() {
                        break;
                    }
                }
                assert_eq!(kept, fresh);
            }
        }
    }
}
