//! The per-branch orchestrator (`docs/explore.md`; Evennia, Procedurally
//! generated Dungeon): a [`Branch`] is one map of rooms entered from the start room, with its
//! own seeded generator, and `Branch::make_room` makes a room when the avatar first walks
//! through an unexplored exit into its plot. The depth table ([`DEPTH_TABLE`])
//! is here too.
//!
//! Making room B at plot `A + d` (A the room walked out of, possibly the start room):
//! 1. A's exit `d` becomes two-way, and B gets the two-way exit back `-d` (its way back).
//!    Walking an unexplored exit always gives a two-way link: an exit only turns one-way once
//!    its plot holds a room, and then it is no longer unexplored.
//! 2. Every other room of the branch beside B whose unexplored exit points at B's plot keeps
//!    that exit as a one-way exit into B; B gets no exit on that side.
//! 3. `U` = the branch's unexplored exits now (after 1 and 2). B's *free sides* are those
//!    whose neighbour plot is neither the start plot (0, 0) nor a room of this branch.
//!    B gets `n` new unexplored exits, `n` uniform in `lo..=hi` with `hi = min(free sides,
//!    max_unexplored - U)` and `lo = 1` if `U = 0` (a dead end only while another unexplored
//!    exit remains), else `lo = 0`; the `n` sides are drawn uniformly from the free ones.
//!    **Forced dead end**: when `U = 0` and B has no free side, nothing else is possible, so
//!    B is a dead end and the branch is fully explored (the budget is never 0 then, since
//!    `max_unexplored ≥ 1`). This is the only dead end with no unexplored exit left.
//! 4. B's features: a count drawn uniformly from [`feature_range`]`(depth)`; a room with
//!    features is not clear.
//!
//! Draws, in this order, all `u32` ranges from the branch's `Pcg64`: `n`, then the sides
//! (a partial Fisher-Yates over the free sides in [`Direction::ALL`] order), then the feature
//! count. A branch's rooms therefore depend only on (seed, branch id, order of creation).

use std::collections::BTreeMap;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use super::plot::{MAX_ROOM_SIDE, MID, MIN_ROOM_SIDE, Memory, PLOT, Shape};
use super::{Direction, Exit, ExploreSettings, Room, RoomPos, WalkError, depth};
use crate::run::{Feature, FeatureKind};
use byog_tile_engine::Pos;

/// One row of the depth table: what a room at a depth of at least `first` holds and pays.
/// Depth is difficulty (docs/explore.md; Evennia's dungeon): deeper rooms hold more features, more of
/// them traps, and pay more for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DepthRow {
    /// The first depth the row applies to.
    pub first: u32,
    /// The fewest features a room holds.
    pub least: u32,
    /// The most features a room holds (at most 4: a 3 × 3 room has 4 tiles off its cross).
    pub most: u32,
    /// The chance, in percent, that a feature is a trap rather than a chest; pushes danger
    /// up (an armed trap costs a heart).
    pub trap_percent: u32,
    /// Points for refilling a chest.
    pub chest_points: u64,
    /// Points for rearming a trap.
    pub trap_points: u64,
    /// The fewest monsters a room holds ([`super::monsters`]).
    pub monsters_least: u32,
    /// The most monsters a room holds; pushes danger up.
    pub monsters_most: u32,
}

/// The one depth table of explorations (`docs/explore.md`): the last row whose `first` is
/// at most a room's depth applies. A branch's first rooms (depth 1) are always clear.
pub const DEPTH_TABLE: [DepthRow; 6] = [
    DepthRow {
        first: 0,
        least: 0,
        most: 0,
        trap_percent: 0,
        chest_points: 0,
        trap_points: 0,
        monsters_least: 0,
        monsters_most: 0,
    },
    DepthRow {
        first: 2,
        least: 0,
        most: 1,
        trap_percent: 25,
        chest_points: 10,
        trap_points: 15,
        monsters_least: 0,
        monsters_most: 1,
    },
    DepthRow {
        first: 4,
        least: 0,
        most: 2,
        trap_percent: 35,
        chest_points: 15,
        trap_points: 20,
        monsters_least: 0,
        monsters_most: 2,
    },
    DepthRow {
        first: 6,
        least: 1,
        most: 2,
        trap_percent: 45,
        chest_points: 150,
        trap_points: 165,
        monsters_least: 1,
        monsters_most: 2,
    },
    DepthRow {
        first: 9,
        least: 1,
        most: 3,
        trap_percent: 55,
        chest_points: 195,
        trap_points: 217,
        monsters_least: 2,
        monsters_most: 3,
    },
    DepthRow {
        first: 13,
        least: 2,
        most: 4,
        trap_percent: 65,
        chest_points: 240,
        trap_points: 270,
        monsters_least: 3,
        monsters_most: 4,
    },
];

/// The row of [`DEPTH_TABLE`] that applies at `depth`.
pub fn depth_row(depth: u32) -> DepthRow {
    let mut row = DEPTH_TABLE[0];
    for r in DEPTH_TABLE {
        if depth >= r.first {
            row = r;
        }
    }
    row
}

/// The `(least, most)` feature count of a room at `depth` ([`DEPTH_TABLE`]).
pub fn feature_range(depth: u32) -> (u32, u32) {
    let row = depth_row(depth);
    (row.least, row.most)
}

/// The seed of branch `id`'s generator: SplitMix64's finaliser over the dungeon's seed and
/// the id, so branches draw independent streams.
fn branch_seed(seed: u64, id: u32) -> u64 {
    let mut z = seed
        ^ u64::from(id)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One branch: its own map of rooms (never seeing another branch's), entered from the start
/// room through its `entrance` side, with its own generator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Branch {
    id: u32,
    entrance: Direction,
    made_at: u64,
    retired: bool,
    unexplored: u32,
    rng: Pcg64,
    rooms: BTreeMap<RoomPos, Room>,
    /// The plots its rooms span, with the start room's: `(least x, least y, most x, most y)`.
    bounds: (i32, i32, i32, i32),
}

impl Branch {
    /// An empty branch `id` behind the start exit `entrance`, made at move `made_at`; its
    /// generator is a `Pcg64` seeded from (seed, id).
    pub fn new(seed: u64, id: u32, entrance: Direction, made_at: u64) -> Self {
        Branch {
            id,
            entrance,
            made_at,
            retired: false,
            unexplored: 0,
            rng: Pcg64::seed_from_u64(branch_seed(seed, id)),
            rooms: BTreeMap::new(),
            bounds: (0, 0, 0, 0),
        }
    }

    /// The plots its rooms and the start room span: `(least x, least y, most x, most y)`,
    /// in rooms.
    pub fn bounds(&self) -> (i32, i32, i32, i32) {
        self.bounds
    }

    /// The room at `pos`, to change (its features, its memory).
    pub(crate) fn room_mut(&mut self, pos: RoomPos) -> Option<&mut Room> {
        self.rooms.get_mut(&pos)
    }

    /// Its id (its index in the dungeon's branches).
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The start room's side it is entered through; its first room is at `START + entrance`.
    pub fn entrance(&self) -> Direction {
        self.entrance
    }

    /// The plot of its first room, `START + entrance`.
    pub fn first_room(&self) -> RoomPos {
        RoomPos::START.step(self.entrance)
    }

    /// The move count when it was made (its timer started).
    pub fn made_at(&self) -> u64 {
        self.made_at
    }

    /// Whether a newer branch has replaced it behind its start exit (its way back is then
    /// one-way).
    pub fn retired(&self) -> bool {
        self.retired
    }

    /// How many unexplored exits its rooms hold (locked ones included); never above
    /// `max_unexplored`.
    pub fn unexplored(&self) -> u32 {
        self.unexplored
    }

    /// Its rooms by plot.
    pub fn rooms(&self) -> &BTreeMap<RoomPos, Room> {
        &self.rooms
    }

    /// The room at `pos`, if made.
    pub fn room(&self, pos: RoomPos) -> Option<&Room> {
        self.rooms.get(&pos)
    }

    /// Whether `room`'s exit on side `dir` agrees with the plot it leads to (a loaded save is
    /// checked with it): a way back to the start room only from the first room (one-way once
    /// retired); an unexplored exit into an empty plot; a two-way exit into a room with the
    /// matching exit back; a one-way exit into a room with none back; no exit at all is fine.
    pub(crate) fn exit_is_consistent(&self, room: &Room, dir: Direction) -> bool {
        let Some(exit) = room.exit(dir) else {
            return true;
        };
        let to = room.pos.step(dir);
        if to.is_start() {
            let way_back = room.pos == self.first_room() && dir == self.entrance.opposite();
            let want = if self.retired {
                Exit::OneWay
            } else {
                Exit::TwoWay
            };
            return way_back && exit == want;
        }
        let back = self.rooms.get(&to).map(|r| r.exit(dir.opposite()));
        match exit {
            Exit::Unexplored => back.is_none(),
            Exit::TwoWay => back == Some(Some(Exit::TwoWay)),
            Exit::OneWay => back == Some(None),
        }
    }

    /// Marks it replaced: its first room's way back to the start room becomes one-way.
    pub(super) fn retire(&mut self) {
        self.retired = true;
        let back = self.entrance.opposite();
        if let Some(room) = self.rooms.get_mut(&self.first_room()) {
            room.exits[back.index()] = Some(Exit::OneWay);
        }
    }

    /// Its rooms, by plot, to change.
    pub(super) fn rooms_mut(&mut self) -> impl Iterator<Item = &mut Room> {
        self.rooms.values_mut()
    }

    /// Clears the room at `pos`: every feature handled, then [`Room::settle`].
    pub(super) fn clear_room(&mut self, pos: RoomPos) -> Result<(), WalkError> {
        let room = self.rooms.get_mut(&pos).ok_or(WalkError::NoRoom(pos))?;
        if room.clear {
            return Ok(());
        }
        for f in &mut room.items {
            f.handled = true;
        }
        room.settle(0);
        Ok(())
    }

    /// Makes the room at `from + dir`, walked into from `from` (a room of this branch with an
    /// unexplored exit `dir`, or the start room for the first room), by the rules in the
    /// module's documentation. The plot must be empty.
    pub(super) fn make_room(&mut self, from: RoomPos, dir: Direction, settings: &ExploreSettings) {
        let pos = from.step(dir);
        let back = dir.opposite();
        debug_assert!(!pos.is_start() && !self.rooms.contains_key(&pos));
        // 1. The walked exit becomes two-way (the start room's is the dungeon's business).
        if let Some(a) = self.rooms.get_mut(&from) {
            debug_assert_eq!(a.exits[dir.index()], Some(Exit::Unexplored));
            a.exits[dir.index()] = Some(Exit::TwoWay);
            self.unexplored -= 1;
        }
        // 2. Other unexplored exits into this plot become one-way; 3. the free sides.
        let mut free = [Direction::Up; 4];
        let mut n_free = 0usize;
        let mut corridors = 1u8 << back.index();
        for side in Direction::ALL {
            if side == back {
                continue;
            }
            let next = pos.step(side);
            if next.is_start() {
                continue;
            }
            match self.rooms.get_mut(&next) {
                Some(c) => {
                    let e = &mut c.exits[side.opposite().index()];
                    if *e == Some(Exit::Unexplored) {
                        *e = Some(Exit::OneWay);
                        self.unexplored -= 1;
                        corridors |= 1 << side.index();
                    }
                }
                None => {
                    free[n_free] = side;
                    n_free += 1;
                }
            }
        }
        let budget = settings.max_unexplored.saturating_sub(self.unexplored);
        let hi = budget.min(n_free as u32);
        let lo = u32::from(self.unexplored == 0).min(hi); // forced dead end when hi = 0
        let n = self.rng.random_range(lo..=hi) as usize;
        for i in 0..n {
            let j = self.rng.random_range(i as u32..n_free as u32) as usize;
            free.swap(i, j);
        }
        let mut exits = [None; 4];
        exits[back.index()] = Some(Exit::TwoWay);
        for side in &free[..n] {
            exits[side.index()] = Some(Exit::Unexplored);
            corridors |= 1 << side.index();
        }
        self.unexplored += n as u32;
        // 4. Features: how many, then the room's shape, then where each stands and its kind.
        let depth = depth(pos);
        let row = depth_row(depth);
        let features = self.rng.random_range(row.least..=row.most);
        let shape = self.draw_shape(corridors);
        let items = self.draw_features(shape, features, row.trap_percent);
        self.rooms.insert(
            pos,
            Room {
                pos,
                depth,
                exits,
                clear: features == 0,
                features,
                back: Some(back),
                shape,
                items,
                memory: Memory::default(),
            },
        );
        let (x0, y0, x1, y1) = self.bounds;
        self.bounds = (x0.min(pos.x), y0.min(pos.y), x1.max(pos.x), y1.max(pos.y));
        debug_assert!(self.unexplored <= settings.max_unexplored);
    }

    /// A room's floor rectangle: width, height, then left column and bottom row, each uniform
    /// over what keeps the floor inside its walls and holding the plot's centre.
    fn draw_shape(&mut self, corridors: u8) -> Shape {
        let side = |rng: &mut Pcg64| {
            let len = rng.random_range(u32::from(MIN_ROOM_SIDE)..=u32::from(MAX_ROOM_SIDE)) as i32;
            let lo = 2.max(MID - len + 1);
            let hi = MID.min(PLOT - 2 - len);
            (len as u8, rng.random_range(lo as u32..=hi as u32) as u8)
        };
        let (width, x) = side(&mut self.rng);
        let (height, y) = side(&mut self.rng);
        let shape = Shape {
            x,
            y,
            width,
            height,
            corridors,
        };
        debug_assert!(shape.is_valid());
        shape
    }

    /// `count` features on distinct floor tiles off the room's central cross (so every
    /// corridor is reached without stepping on one): for each, its tile (uniform over the
    /// tiles left), then its kind (a trap with `trap_percent` percent). Chests start empty
    /// and traps sprung, as in runs.
    fn draw_features(&mut self, shape: Shape, count: u32, trap_percent: u32) -> Vec<Feature> {
        let mut spots: Vec<Pos> = Vec::with_capacity(usize::from(shape.width) * 2);
        for ty in i32::from(shape.y)..i32::from(shape.y) + i32::from(shape.height) {
            for tx in i32::from(shape.x)..i32::from(shape.x) + i32::from(shape.width) {
                if tx != MID && ty != MID {
                    spots.push(Pos::new(tx, ty));
                }
            }
        }
        let count = (count as usize).min(spots.len());
        let mut items = Vec::with_capacity(count);
        for i in 0..count {
            let j = self.rng.random_range(i as u32..spots.len() as u32) as usize;
            spots.swap(i, j);
            let kind = if self.rng.random_range(0..100) < trap_percent {
                FeatureKind::Trap
            } else {
                FeatureKind::Chest
            };
            items.push(Feature {
                pos: spots[i],
                kind,
                handled: false,
                paid: false,
            });
        }
        items.sort();
        items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rooms_hold_their_features_off_the_cross_and_corridors_where_exits_are() {
        let settings = ExploreSettings::default();
        let mut b = Branch::new(3, 0, Direction::Up, 0);
        b.make_room(RoomPos::START, Direction::Up, &settings);
        let mut made = 1;
        // Walk the branch breadth-first until it has many rooms at depth.
        while made < 400 {
            let Some((pos, dir)) = b.rooms.values().find_map(|r| {
                Direction::ALL
                    .into_iter()
                    .find(|d| r.exit(*d) == Some(Exit::Unexplored))
                    .map(|d| (r.pos, d))
            }) else {
                break;
            };
            b.make_room(pos, dir, &settings);
            made += 1;
        }
        assert!(made >= 100, "{made}");
        let mut features = 0;
        for r in b.rooms.values() {
            assert!(r.shape.is_valid(), "{r:?}");
            for d in Direction::ALL {
                let one_way_in = b
                    .room(r.pos.step(d))
                    .is_some_and(|n| n.exit(d.opposite()) == Some(Exit::OneWay));
                assert_eq!(
                    r.shape.has_corridor(d),
                    r.exit(d).is_some() || one_way_in,
                    "{r:?} side {d:?}"
                );
            }
            assert_eq!(r.items.len() as u32, r.features);
            let (lo, hi) = feature_range(r.depth);
            assert!((lo..=hi).contains(&r.features));
            for f in &r.items {
                assert!(r.shape.is_room_floor(f.pos.x, f.pos.y));
                assert!(f.pos.x != MID && f.pos.y != MID);
                assert!(!f.handled);
            }
            let mut spots: Vec<_> = r.items.iter().map(|f| f.pos).collect();
            spots.dedup();
            assert_eq!(spots.len(), r.items.len());
            features += r.items.len();
        }
        assert!(features > 50, "{features}");
        let (x0, y0, x1, y1) = b.bounds();
        for p in b.rooms.keys() {
            assert!((x0..=x1).contains(&p.x) && (y0..=y1).contains(&p.y));
        }
    }

    #[test]
    fn feature_table_rises_with_depth() {
        assert_eq!(feature_range(0), (0, 0));
        assert_eq!(feature_range(1), (0, 0));
        assert_eq!(feature_range(2), (0, 1));
        assert_eq!(feature_range(5), (0, 2));
        assert_eq!(feature_range(8), (1, 2));
        assert_eq!(feature_range(12), (1, 3));
        assert_eq!(feature_range(1000), (2, 4));
        let mut last = (0, 0);
        let mut last_row = DEPTH_TABLE[0];
        for d in 0..100 {
            let r = feature_range(d);
            assert!(r.0 >= last.0 && r.1 >= last.1 && r.0 <= r.1 && r.1 <= 4);
            last = r;
            let row = depth_row(d);
            assert!(row.trap_percent >= last_row.trap_percent && row.trap_percent <= 100);
            assert!(row.chest_points >= last_row.chest_points);
            assert!(row.trap_points >= last_row.trap_points);
            last_row = row;
        }
    }

    #[test]
    fn a_first_room_always_leads_on() {
        for seed in 0..200 {
            for max in 1..=6 {
                let settings = ExploreSettings {
                    max_unexplored: max,
                    monsters: false,
                    ..ExploreSettings::default()
                };
                let mut b = Branch::new(seed, 0, Direction::Right, 0);
                b.make_room(RoomPos::START, Direction::Right, &settings);
                let room = b.room(RoomPos::new(1, 0)).unwrap();
                assert_eq!(room.exit(Direction::Left), Some(Exit::TwoWay));
                assert!(room.unexplored() >= 1 && room.unexplored() <= max.min(3));
                assert_eq!(b.unexplored(), room.unexplored());
                assert!(room.clear);
            }
        }
    }

    #[test]
    fn an_unexplored_exit_into_a_made_slot_turns_one_way() {
        // Two rooms of one branch pointing at the same plot (1, 1).
        let settings = ExploreSettings::default();
        let mut b = Branch::new(7, 0, Direction::Right, 0);
        let room = |pos: RoomPos, exits: [Option<Exit>; 4], back| Room {
            pos,
            depth: depth(pos),
            exits,
            clear: true,
            features: 0,
            back: Some(back),
            shape: Shape::START,
            items: Vec::new(),
            memory: Memory::default(),
        };
        let a = room(
            RoomPos::new(1, 0),
            [Some(Exit::Unexplored), None, None, Some(Exit::TwoWay)],
            Direction::Left,
        );
        let c = room(
            RoomPos::new(2, 1),
            [None, None, Some(Exit::TwoWay), Some(Exit::Unexplored)],
            Direction::Down,
        );
        let c_low = room(
            RoomPos::new(2, 0),
            [Some(Exit::TwoWay), None, None, None],
            Direction::Left,
        );
        b.rooms.insert(a.pos, a);
        b.rooms.insert(c.pos, c);
        b.rooms.insert(c_low.pos, c_low);
        b.unexplored = 2;
        b.make_room(RoomPos::new(1, 0), Direction::Up, &settings);
        let made = b.room(RoomPos::new(1, 1)).unwrap();
        assert_eq!(made.exit(Direction::Down), Some(Exit::TwoWay));
        assert_eq!(made.exit(Direction::Right), None);
        assert_eq!(
            b.room(RoomPos::new(2, 1)).unwrap().exit(Direction::Left),
            Some(Exit::OneWay)
        );
        assert_eq!(
            b.room(RoomPos::new(1, 0)).unwrap().exit(Direction::Up),
            Some(Exit::TwoWay)
        );
        // No unexplored exit was left, so it must lead on (up or left are free).
        assert!(made.unexplored() >= 1);
        assert_eq!(b.unexplored(), made.unexplored());
    }
}
