//! Explorations (`docs/explore.md`), after Evennia's "Procedurally generated
//! Dungeon" tutorial. A fixed start room at room coordinates (0, 0) has four exits (up, right,
//! down, left), each into its own *branch*; a branch's rooms are made one at a time, only when
//! the avatar first walks through an exit into their plot, by the branch's orchestrator
//! ([`orchestrator`]). This module is the room graph; [`plot`] gives rooms their tiles,
//! [`play`] is an exploration in play (the avatar, its map, sight and memory) (an explorer
//! that plays it is in `byog_players::explorer`); the rules are in [`crate::rules`]
//! (`docs/explore.md`).
//!
//! Everything here is deterministic: a room depends only on the dungeon's seed, its branch's id
//! and the order the branch's rooms were made in (each branch draws from its own seeded
//! `Pcg64`); rooms live in `BTreeMap`s, never iterated hash maps; depths are integer
//! arithmetic (`docs/worlds.md`).
//!
//! Memory: nothing is sized by the unbounded grid. A [`Room`] is 104 bytes (`size_of`: its
//! plot, depth, feature count, exits, clear flag and way back; its 5-byte [`Shape`], 48 bytes
//! of [`Memory`] and a `Vec` of its features, 12 bytes each on the heap), plus its 8-byte key
//! and the `BTreeMap` node's share. Measured with everything else a game holds: 258 bytes of
//! heap a room after 10,000 rooms (`docs/performance.md`). A branch adds its 32-byte generator,
//! its bounds and a few counters.

mod cache;
pub mod monsters;
pub mod orchestrator;
pub mod play;
pub mod plot;
pub mod turn;

use serde::{Deserialize, Serialize};

use crate::run::Feature;
pub use byog_tile_engine::Direction;
pub use monsters::{Encounters, Monster, MonsterKind, MonsterState};
pub use orchestrator::{Branch, DEPTH_TABLE, DepthRow, depth_row, feature_range};
pub use play::ExploreState;
pub use plot::{Memory, PLOT, Shape};

/// Default `--max-unexplored`: most unexplored exits a branch may hold at once (docs/explore.md).
pub const DEFAULT_MAX_UNEXPLORED: u32 = 4;
/// Default `--branch-timer`: moves after which a start exit leads into a new branch (docs/explore.md).
pub const DEFAULT_BRANCH_TIMER: u64 = 500;
/// Largest `--max-unexplored` the command line takes.
pub const MAX_MAX_UNEXPLORED: u32 = 64;
/// Largest `--branch-timer` the command line takes, in moves.
pub const MAX_BRANCH_TIMER: u64 = 1_000_000_000;

/// A room plot's coordinates, in rooms (not tiles): `x` to the right, `y` up (as
/// [`byog_tile_engine::Pos`]); `(0, 0)` is the start room.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct RoomPos {
    /// Column, in rooms right of the start room.
    pub x: i32,
    /// Row, in rooms above the start room.
    pub y: i32,
}

impl RoomPos {
    /// The start room's plot, `(0, 0)`.
    pub const START: RoomPos = RoomPos { x: 0, y: 0 };

    /// The plot `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Self {
        RoomPos { x, y }
    }

    /// The neighbouring plot in `dir` (up is +y).
    pub const fn step(self, dir: Direction) -> RoomPos {
        let (dx, dy) = dir.delta();
        RoomPos::new(self.x + dx, self.y + dy)
    }

    /// Whether this is the start room's plot.
    pub const fn is_start(self) -> bool {
        self.x == 0 && self.y == 0
    }

    /// The side of the start room this plot lies on, when it is one of the start room's four
    /// neighbours (a branch's first room): `START.step(d) == self`.
    pub fn beside_start(self) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|&d| RoomPos::START.step(d) == self)
    }
}

impl std::fmt::Display for RoomPos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// A room's depth: `floor(sqrt(x² + y²))` of its coordinates (docs/explore.md), computed exactly with
/// integers (`u64::isqrt` of `x² + y²`, which fits a `u64` for every `i32` pair), never floats.
/// The start room has depth 0, its four neighbours depth 1.
pub fn depth(pos: RoomPos) -> u32 {
    let x = u64::from(pos.x.unsigned_abs());
    let y = u64::from(pos.y.unsigned_abs());
    // x, y ≤ 2^31, so x² + y² ≤ 2^63: no overflow; the root is ≤ 2^32 - 1 < u32::MAX + 1.
    (x * x + y * y).isqrt() as u32
}

/// What a room stores on one side: the kind of exit, if any (see [`ExitState`] for how it
/// shows; a stored [`Exit::Unexplored`] shows as [`ExitState::Locked`] in a room that is not
/// clear).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Exit {
    /// Both ways: the room on that side has the matching exit back.
    TwoWay,
    /// Out of this room only: the room on that side has no exit back through it. Arises only
    /// when another room is made in the plot an unexplored exit pointed at, and for a retired
    /// branch's way back to the start room (docs/explore.md).
    OneWay,
    /// Into an empty plot of this room's branch: walking it makes the room there.
    Unexplored,
}

/// How an exit shows to the player and in the JSON (docs/explore.md): [`ExitState::as_str`] gives
/// `"two-way"`, `"one-way"`, `"unexplored"` or `"locked"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ExitState {
    /// Walkable both ways.
    TwoWay,
    /// Walkable out of this room only.
    OneWay,
    /// Walkable; leads into an empty plot, where a room will be made.
    Unexplored,
    /// Not walkable until the room is cleared: any exit but the way back of a room that still
    /// holds features (an unexplored one, or one turned one-way since).
    Locked,
}

impl ExitState {
    /// The name docs/explore.md's JSON uses: "two-way", "one-way", "unexplored", "locked".
    pub const fn as_str(self) -> &'static str {
        match self {
            ExitState::TwoWay => "two-way",
            ExitState::OneWay => "one-way",
            ExitState::Unexplored => "unexplored",
            ExitState::Locked => "locked",
        }
    }
}

/// One room: its place in the graph, its tiles' shape, its features and what the avatar
/// saw of it (about 100 bytes, plus 12 a feature; see the module's memory note).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Room {
    /// Its plot, in room coordinates.
    pub pos: RoomPos,
    /// [`depth`]`(pos)`.
    pub depth: u32,
    /// The exit on each side, indexed by [`Direction::index`] (up, right, down, left).
    pub exits: [Option<Exit>; 4],
    /// Whether it holds no feature any more (`features == 0`); until then only the way back
    /// is open.
    pub clear: bool,
    /// How many features are left to handle before it is clear (0 = clear), drawn from
    /// [`DEPTH_TABLE`]; once clear it stays clear.
    pub features: u32,
    /// The side it was entered from when it was made (its way back, always open); `None` for
    /// the start room.
    pub back: Option<Direction>,
    /// Its tiles: the floor rectangle and the sides with corridors ([`plot`]).
    pub shape: Shape,
    /// Its chests and traps, at tiles of its plot (`0..PLOT` each way), sorted.
    pub items: Vec<Feature>,
    /// What the avatar saw of its plot and stood on.
    pub memory: Memory,
}

impl Room {
    /// The stored exit on side `dir`.
    pub fn exit(&self, dir: Direction) -> Option<Exit> {
        self.exits[dir.index()]
    }

    /// How the exit on side `dir` shows: in a room that is not clear, every exit but the way
    /// back is [`ExitState::Locked`].
    pub fn exit_state(&self, dir: Direction) -> Option<ExitState> {
        let exit = self.exit(dir)?;
        if !self.clear && self.back != Some(dir) {
            return Some(ExitState::Locked);
        }
        Some(match exit {
            Exit::TwoWay => ExitState::TwoWay,
            Exit::OneWay => ExitState::OneWay,
            Exit::Unexplored => ExitState::Unexplored,
        })
    }

    /// Counts the features left to handle and makes the room clear when none is and
    /// `monsters_left` (the living monsters whose home it is) is 0: the one way a room
    /// becomes clear, for the rules and for [`Dungeon::clear_room`] alike. Returns whether it
    /// became clear now. A clear room stays clear (an armed trap sprung later does
    /// not lock its exits again), and its count stays 0.
    pub(crate) fn settle(&mut self, monsters_left: u32) -> bool {
        if self.clear {
            return false;
        }
        self.features = self.items.iter().filter(|f| !f.handled).count() as u32;
        self.clear = self.features == 0 && monsters_left == 0;
        self.clear
    }

    /// How many of its stored exits are [`Exit::Unexplored`] (locked ones included).
    pub fn unexplored(&self) -> u32 {
        self.exits
            .iter()
            .filter(|e| **e == Some(Exit::Unexplored))
            .count() as u32
    }
}

/// A branch's index in [`Dungeon::branches`] (0 for the first branch made, and so on).
pub type BranchId = u32;

/// The dungeon's settings (docs/explore.md's `--max-unexplored` and `--branch-timer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExploreSettings {
    /// Most unexplored exits one branch may hold at once (at least 1; default 4).
    pub max_unexplored: u32,
    /// Moves after a branch was made from which its start exit leads into a new branch
    /// (default 500).
    pub branch_timer: u64,
    /// Whether new rooms get monsters (default yes; `--no-monsters` turns them off). Saved
    /// with the monsters ([`Encounters::enabled`]), not in this struct's bytes, so the room
    /// graph's save layout is the one of format 3.
    #[serde(skip, default = "monsters_by_default")]
    pub monsters: bool,
}

fn monsters_by_default() -> bool {
    true
}

impl Default for ExploreSettings {
    fn default() -> Self {
        ExploreSettings {
            max_unexplored: DEFAULT_MAX_UNEXPLORED,
            branch_timer: DEFAULT_BRANCH_TIMER,
            monsters: true,
        }
    }
}

/// Settings a dungeon cannot be made with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// `max_unexplored` was 0: no room could ever get an exit.
    #[error("the most unexplored exits a branch holds must be at least 1")]
    ZeroMaxUnexplored,
}

/// Why a walk (or a clear) was refused; the dungeon is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WalkError {
    /// No branch has this id.
    #[error("no branch {0}")]
    UnknownBranch(BranchId),
    /// The branch has no room at this plot.
    #[error("no room at {0} in this branch")]
    NoRoom(RoomPos),
    /// Walks from the start room go through [`Dungeon::enter`], which picks the branch.
    #[error("the start room's exits are taken with enter")]
    FromStart,
    /// The room has no exit on that side (and the room there no one-way exit into it).
    #[error("no exit {}", .0.name())]
    NoExit(Direction),
    /// The exit is locked: the room still holds features.
    #[error("the exit {} is locked until the room is clear", .0.name())]
    Locked(Direction),
    /// The room on that side has a one-way exit into this one: it cannot be walked back.
    #[error("the exit {} is one-way, into this room", .0.name())]
    OneWayWrongWay(Direction),
}

/// Where a walk (or [`Dungeon::enter`]) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Walked {
    /// The branch the avatar is in (for the start room: the branch it came from).
    pub branch: BranchId,
    /// The plot entered; [`RoomPos::START`] for the start room.
    pub pos: RoomPos,
    /// Whether the room was made by this walk.
    pub made: bool,
    /// Whether [`Dungeon::enter`] made a new branch for it.
    pub new_branch: bool,
}

impl Walked {
    /// Whether the walk ended in the start room.
    pub const fn is_start(&self) -> bool {
        self.pos.is_start()
    }
}

/// The whole room graph of one exploration: the start room, every branch ever made (retired
/// ones kept unchanged), which branch each start exit leads into, the settings and the seed.
/// `Serialize + Deserialize`, so a save can hold it and continue exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dungeon {
    seed: u64,
    settings: ExploreSettings,
    start: Room,
    branches: Vec<Branch>,
    /// The branch each start exit leads into now, by [`Direction::index`]; `None` before the
    /// first entry and after the branch there was retired.
    current: [Option<BranchId>; 4],
}

impl Dungeon {
    /// A dungeon with only its start room: four exits (shown unexplored until their branch's
    /// first room is made), clear, depth 0. No branch exists yet; each is made on entry.
    ///
    /// # Errors
    /// [`SettingsError::ZeroMaxUnexplored`] when `settings.max_unexplored` is 0.
    pub fn new(seed: u64, settings: ExploreSettings) -> Result<Self, SettingsError> {
        if settings.max_unexplored == 0 {
            return Err(SettingsError::ZeroMaxUnexplored);
        }
        Ok(Dungeon {
            seed,
            settings,
            start: Room {
                pos: RoomPos::START,
                depth: 0,
                exits: [Some(Exit::Unexplored); 4],
                clear: true,
                features: 0,
                back: None,
                shape: Shape::START,
                items: Vec::new(),
                memory: Memory::default(),
            },
            branches: Vec::new(),
            current: [None; 4],
        })
    }

    /// The seed every branch's generator derives from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The settings it was made with.
    pub fn settings(&self) -> ExploreSettings {
        self.settings
    }

    /// Sets whether new rooms get monsters (saved with the monsters, not here).
    pub(crate) fn set_monsters(&mut self, enabled: bool) {
        self.settings.monsters = enabled;
    }

    /// The start room, at (0, 0). Its side `d` shows [`Exit::TwoWay`] once the branch it
    /// leads into has its first room, [`Exit::Unexplored`] before. Its way up (leaving ends
    /// the exploration) is not a side: the interpreter handles it.
    pub fn start(&self) -> &Room {
        &self.start
    }

    /// Every branch ever made, by id (retired ones included).
    pub fn branches(&self) -> &[Branch] {
        &self.branches
    }

    /// How many rooms were made, in every branch (the start room not counted).
    pub fn rooms_made(&self) -> usize {
        self.branches.iter().map(|b| b.rooms().len()).sum()
    }

    /// The branch with this id.
    pub fn branch(&self, id: BranchId) -> Option<&Branch> {
        self.branches.get(id as usize)
    }

    /// The branch the start exit `dir` leads into now (`None` if it has none yet: the next
    /// [`Dungeon::enter`] makes one).
    pub fn current_branch(&self, dir: Direction) -> Option<BranchId> {
        self.current[dir.index()]
    }

    /// The room at `pos` of branch `branch`; [`RoomPos::START`] gives the start room.
    pub fn room(&self, branch: BranchId, pos: RoomPos) -> Option<&Room> {
        if pos.is_start() {
            return Some(&self.start);
        }
        self.branch(branch)?.room(pos)
    }

    /// The room at `pos` of branch `branch` (the start room at [`RoomPos::START`]), to
    /// change its features or memory.
    pub(crate) fn room_mut(&mut self, branch: BranchId, pos: RoomPos) -> Option<&mut Room> {
        if pos.is_start() {
            return Some(&mut self.start);
        }
        self.branches.get_mut(branch as usize)?.room_mut(pos)
    }

    /// Retires every current branch made `branch_timer` or more moves before `now_moves`
    /// (moves are counted by the caller): its start exit then leads into a new branch (made by
    /// the next [`Dungeon::enter`]) and its way back to the start room becomes one-way; its
    /// rooms are kept unchanged otherwise. Idempotent; [`Dungeon::enter`] calls it first.
    pub fn advance(&mut self, now_moves: u64) {
        for dir in Direction::ALL {
            let Some(id) = self.current[dir.index()] else {
                continue;
            };
            let branch = &mut self.branches[id as usize];
            if now_moves.saturating_sub(branch.made_at()) >= self.settings.branch_timer {
                branch.retire();
                self.current[dir.index()] = None;
                self.start.exits[dir.index()] = Some(Exit::Unexplored);
            }
        }
    }

    /// Walks from the start room through its exit `dir` at move `now_moves`: retires expired
    /// branches ([`Dungeon::advance`]), makes a branch for `dir` if it has none (its timer
    /// starts now) and its first room (at `START + dir`, depth 1) if it has none, and returns
    /// where the avatar is.
    pub fn enter(&mut self, dir: Direction, now_moves: u64) -> Walked {
        self.advance(now_moves);
        let mut new_branch = false;
        let id = match self.current[dir.index()] {
            Some(id) => id,
            None => {
                let id = self.branches.len() as BranchId;
                self.branches
                    .push(Branch::new(self.seed, id, dir, now_moves));
                self.current[dir.index()] = Some(id);
                new_branch = true;
                id
            }
        };
        let pos = RoomPos::START.step(dir);
        let branch = &mut self.branches[id as usize];
        let made = branch.room(pos).is_none();
        if made {
            branch.make_room(RoomPos::START, dir, &self.settings);
            self.start.exits[dir.index()] = Some(Exit::TwoWay);
        }
        Walked {
            branch: id,
            pos,
            made,
            new_branch,
        }
    }

    /// Checks what a loaded save holds beyond its types: branch ids and entrances, the
    /// current branches, every room's plot, depth, clear flag and feature count, the
    /// unexplored-exit counts and the budget.
    ///
    /// # Errors
    /// A sentence naming what is wrong.
    pub(crate) fn check(&self) -> Result<(), String> {
        let bad = |what: String| Err(format!("the exploration's room graph is damaged: {what}"));
        if self.settings.max_unexplored == 0 {
            return bad("--max-unexplored is 0".into());
        }
        for (i, b) in self.branches.iter().enumerate() {
            if b.id() as usize != i {
                return bad(format!("branch {i} calls itself {}", b.id()));
            }
            let (x0, y0, x1, y1) = b.bounds();
            let mut unexplored = 0;
            for (pos, room) in b.rooms() {
                unexplored += room.unexplored();
                if room.pos != *pos || pos.is_start() || room.depth != depth(*pos) {
                    return bad(format!("room {pos} of branch {i}"));
                }
                // A room with no feature left may still wait for its monsters
                // (ExploreState::check counts them).
                if (room.clear && room.features != 0) || room.back.is_none() {
                    return bad(format!("room {pos} of branch {i}"));
                }
                if !(x0..=x1).contains(&pos.x) || !(y0..=y1).contains(&pos.y) {
                    return bad(format!("room {pos} of branch {i} is outside its bounds"));
                }
            }
            if unexplored != b.unexplored() || unexplored > self.settings.max_unexplored {
                return bad(format!("branch {i} counts its unexplored exits wrong"));
            }
            for (pos, room) in b.rooms() {
                for dir in Direction::ALL {
                    if !b.exit_is_consistent(room, dir) {
                        return bad(format!("exit {} of room {pos} of branch {i}", dir.name()));
                    }
                }
            }
        }
        for dir in Direction::ALL {
            let current = self.current[dir.index()];
            if let Some(id) = current {
                match self.branch(id) {
                    Some(b)
                        if b.entrance() == dir
                            && !b.retired()
                            && b.room(b.first_room()).is_some() => {}
                    _ => return bad(format!("the start exit {} leads nowhere", dir.name())),
                }
            }
            let want = if current.is_some() {
                Exit::TwoWay
            } else {
                Exit::Unexplored
            };
            if self.start.exits[dir.index()] != Some(want) {
                return bad(format!("the start room's exit {}", dir.name()));
            }
        }
        Ok(())
    }

    /// Walks from room `from` of branch `branch` through its exit `dir`: into the room there,
    /// made by the branch's orchestrator if the exit was unexplored, or into the start room
    /// through the branch's way back.
    ///
    /// # Errors
    /// [`WalkError::UnknownBranch`], [`WalkError::NoRoom`] (no room at `from`),
    /// [`WalkError::FromStart`] (use [`Dungeon::enter`]), [`WalkError::Locked`] (the room is
    /// not clear and `dir` is not its way back), [`WalkError::OneWayWrongWay`] (the room on
    /// that side has a one-way exit into this one), [`WalkError::NoExit`].
    pub fn walk(
        &mut self,
        branch: BranchId,
        from: RoomPos,
        dir: Direction,
    ) -> Result<Walked, WalkError> {
        if from.is_start() {
            return Err(WalkError::FromStart);
        }
        let settings = self.settings;
        let b = self
            .branches
            .get_mut(branch as usize)
            .ok_or(WalkError::UnknownBranch(branch))?;
        let room = b.room(from).ok_or(WalkError::NoRoom(from))?;
        let to = from.step(dir);
        let walked = |pos, made| Walked {
            branch,
            pos,
            made,
            new_branch: false,
        };
        match room.exit_state(dir) {
            None => {
                let back = b
                    .room(to)
                    .and_then(|r| r.exit(dir.opposite()))
                    .filter(|e| *e == Exit::OneWay);
                Err(match back {
                    Some(_) => WalkError::OneWayWrongWay(dir),
                    None => WalkError::NoExit(dir),
                })
            }
            Some(ExitState::Locked) => Err(WalkError::Locked(dir)),
            Some(ExitState::TwoWay | ExitState::OneWay) => Ok(walked(to, false)),
            Some(ExitState::Unexplored) => {
                b.make_room(from, dir, &settings);
                Ok(walked(to, true))
            }
        }
    }

    /// Every room's features, in one fixed order: the start room's, then each branch's
    /// rooms by branch id and plot. Saves store a bit a feature in this order.
    pub(crate) fn items_mut(&mut self) -> impl Iterator<Item = &mut Feature> {
        self.start.items.iter_mut().chain(
            self.branches
                .iter_mut()
                .flat_map(|b| b.rooms_mut().flat_map(|r| r.items.iter_mut())),
        )
    }

    /// Clears room `pos` of branch `branch` as a player would: every feature is handled, then
    /// the room settles (as the rules settle it: count 0, clear), so its locked exits open. Clearing
    /// a clear room changes nothing.
    ///
    /// # Errors
    /// [`WalkError::UnknownBranch`], [`WalkError::NoRoom`].
    pub fn clear_room(&mut self, branch: BranchId, pos: RoomPos) -> Result<(), WalkError> {
        if pos.is_start() {
            return Ok(());
        }
        self.branches
            .get_mut(branch as usize)
            .ok_or(WalkError::UnknownBranch(branch))?
            .clear_room(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_start_room_s_four_neighbours_lie_beside_it() {
        for d in Direction::ALL {
            assert_eq!(RoomPos::START.step(d).beside_start(), Some(d));
            // One further, or round the corner: not beside it.
            assert_eq!(RoomPos::START.step(d).step(d).beside_start(), None);
        }
        assert_eq!(RoomPos::START.beside_start(), None);
        assert_eq!(RoomPos::new(1, 1).beside_start(), None);
    }

    #[test]
    fn depth_is_the_floor_of_the_distance() {
        assert_eq!(depth(RoomPos::START), 0);
        assert_eq!(depth(RoomPos::new(1, 0)), 1);
        assert_eq!(depth(RoomPos::new(1, 1)), 1);
        assert_eq!(depth(RoomPos::new(-2, 0)), 2);
        assert_eq!(depth(RoomPos::new(3, 4)), 5);
        assert_eq!(depth(RoomPos::new(3, -3)), 4);
        for x in -40..=40i64 {
            for y in -40..=40i64 {
                let d = i64::from(depth(RoomPos::new(x as i32, y as i32)));
                assert!(d * d <= x * x + y * y && x * x + y * y < (d + 1) * (d + 1));
            }
        }
        let far = RoomPos::new(i32::MIN, i32::MIN);
        let d = u128::from(depth(far));
        let n = 2 * (1u128 << 62);
        assert!(d * d <= n && n < (d + 1) * (d + 1));
    }

    #[test]
    fn exit_states_name_as_in_spec() {
        assert_eq!(ExitState::TwoWay.as_str(), "two-way");
        assert_eq!(ExitState::OneWay.as_str(), "one-way");
        assert_eq!(ExitState::Unexplored.as_str(), "unexplored");
        assert_eq!(ExitState::Locked.as_str(), "locked");
    }

    #[test]
    fn a_room_is_small() {
        assert!(
            std::mem::size_of::<Room>() <= 112,
            "{}",
            std::mem::size_of::<Room>()
        );
        assert!(
            std::mem::size_of::<Branch>() <= 160,
            "{}",
            std::mem::size_of::<Branch>()
        );
    }

    #[test]
    fn zero_budget_is_refused() {
        let settings = ExploreSettings {
            max_unexplored: 0,
            monsters: false,
            ..ExploreSettings::default()
        };
        assert_eq!(
            Dungeon::new(1, settings),
            Err(SettingsError::ZeroMaxUnexplored)
        );
    }

    #[test]
    fn locked_rooms_open_only_their_way_back() {
        let mut room = Room {
            pos: RoomPos::new(0, 3),
            depth: 3,
            exits: [
                Some(Exit::Unexplored),
                Some(Exit::OneWay),
                Some(Exit::TwoWay),
                None,
            ],
            clear: false,
            features: 1,
            back: Some(Direction::Down),
            shape: Shape::START,
            items: Vec::new(),
            memory: Memory::default(),
        };
        assert_eq!(room.exit_state(Direction::Up), Some(ExitState::Locked));
        assert_eq!(room.exit_state(Direction::Right), Some(ExitState::Locked));
        assert_eq!(room.exit_state(Direction::Down), Some(ExitState::TwoWay));
        assert_eq!(room.exit_state(Direction::Left), None);
        room.clear = true;
        room.features = 0;
        assert_eq!(room.exit_state(Direction::Up), Some(ExitState::Unexplored));
        assert_eq!(room.exit_state(Direction::Right), Some(ExitState::OneWay));
    }
}
