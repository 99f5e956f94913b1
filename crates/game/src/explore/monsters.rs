//! Monsters (`docs/monsters.md`): what lives in an exploration's rooms, after Evennia's
//! dangerous dungeon ("monsters to slay") and Cogmind's placement by a room's metrics. This
//! module is the content: the kinds and their numbers ([`MonsterKind`], the depth table's
//! monster columns in [`super::DEPTH_TABLE`]), a monster ([`Monster`]), where a new room's
//! monsters stand ([`place`]) and the exploration's whole bestiary ([`Encounters`]). How they
//! act each turn is [`super::turn`]; the rules call it.
//!
//! Deterministic: a room's monsters depend only on the dungeon's seed, the room's branch and
//! its plot (each room draws from its own seeded `Pcg64`, so the room graph's own draws are
//! the same with or without monsters); combat draws from the game's seeded generator.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use super::plot::{MID, Shape};
use super::{BranchId, RoomPos, depth_row};
use crate::run::Feature;
use byog_tile_engine::{Pos, Tile};

/// Most potions carried at once (`docs/monsters.md`): a chest refilled with two in the pack
/// leaves its potion behind. (Until rules version 4, three.)
pub const MAX_POTIONS: u32 = 2;

/// The most potions a loaded save may hold: saves of rules version 3 carried up to three,
/// and keep them (no chest adds to a pack of [`MAX_POTIONS`] or more).
pub const MAX_POTIONS_SAVED: u32 = 3;

/// The chance, in percent, that a chest refilled in an exploration holds a potion while the
/// pack is full ([`MAX_POTIONS`] carried; drawn from the game's generator as the chest is
/// refilled): about one chest in eight, so a full pack seldom leaves one behind. With room
/// in the pack a chest holds one [`ROOM_POTION_PERCENT`] times in 100 ([`potion_percent`]).
pub const FULL_PACK_POTION_PERCENT: u32 = 12;

/// The chance, in percent, that a chest refilled in an exploration holds a potion while the
/// pack has room (fewer than [`MAX_POTIONS`] carried): about two chests in three (rules
/// version 10; until 9, every one). Measured (`docs/balance.md`, "Rules version 10").
pub const ROOM_POTION_PERCENT: u32 = 65;

/// How near, in tiles (the larger axis distance), the avatar must stand to wake a sleeping
/// monster that lurks ([`KindStats::lurks`]): beside it, diagonals too.
pub const LURK_REACH: u32 = 1;

/// The chance, in percent, that a chest refilled holds a potion with `carried` potions in
/// the pack: [`ROOM_POTION_PERCENT`] while there is room (100 in rules versions 6-9),
/// [`FULL_PACK_POTION_PERCENT`] when it is full (rules version 6; until 5, 50 whatever the
/// pack held). Potions come when a player runs short, not when they are stocked: a player
/// who takes more blows finds more, so a blind diver lasts nearly as long as a careful one
/// (`docs/balance.md`), and a full pack seldom leaves one behind.
pub const fn potion_percent(carried: u32) -> u32 {
    if carried < MAX_POTIONS {
        ROOM_POTION_PERCENT
    } else {
        FULL_PACK_POTION_PERCENT
    }
}

/// Hearts a potion gives back (never above the starting health).
pub const POTION_HEARTS: u32 = 2;

/// The damage of one of the avatar's blows, drawn uniformly from this range by the game's
/// generator: 1 to 3, two on average, so a rat (3 health) falls to one or two blows and a
/// troll (12) takes about six.
pub const PLAYER_DAMAGE: std::ops::RangeInclusive<u32> = 1..=3;

/// How often a monster acts: every turn, every second turn, or twice a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Speed {
    /// Acts on every second turn (the turns whose count is even).
    Slow,
    /// Acts once a turn.
    Normal,
    /// Acts twice a turn (two steps, or a step and a bite).
    Fast,
}

impl Speed {
    /// How many times a monster of this speed acts on turn number `turn` (0-based).
    pub const fn actions(self, turn: u64) -> u32 {
        match self {
            Speed::Slow => turn.is_multiple_of(2) as u32,
            Speed::Normal => 1,
            Speed::Fast => 2,
        }
    }

    /// The most tiles a monster of this speed moves in one turn (a zombie's lunge aside:
    /// [`KindStats::lunge`]).
    pub const fn max_steps(self) -> u32 {
        match self {
            Speed::Slow | Speed::Normal => 1,
            Speed::Fast => 2,
        }
    }

    /// In a player's words: `"every turn"`, `"every second turn"`, `"twice a turn"`.
    pub const fn describe(self) -> &'static str {
        match self {
            Speed::Slow => "every second turn",
            Speed::Normal => "every turn",
            Speed::Fast => "twice a turn",
        }
    }
}

/// What a kind does besides walking up and striking, and the habit of a player it punishes
/// (`docs/monsters.md`, "Kinds"). Every random draw it needs comes from the game's generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Trait {
    /// Rats hunt in packs: a rat's bite lands [`PACK_BONUS`] points more often for every
    /// other monster beside the avatar. Punishes fighting in the open.
    Pack,
    /// Bats flit: each of their steps goes to a random free neighbour half the time, and a
    /// bat that struck flies off (a step away from the avatar) with its next action.
    /// Punishes counting their steps (stepping back so that they arrive spent).
    Flits,
    /// Goblins flee at half health and call a friend as they go: the nearest sleeping
    /// monster of their branch within [`CALL_REACH`] tiles wakes and hunts. Punishes leaving
    /// a fight half done.
    CallsFriend,
    /// Zombies lunge: on the turn a zombie acts it walks up to two tiles and strikes if that
    /// brings it beside the avatar. Punishes stepping back on its turn.
    Lunges,
    /// Orcs throw spears: an orc that sees the avatar within [`KindStats::range`] tiles (the
    /// larger of the two distances along the axes) and is not beside it throws instead of
    /// walking. Punishes waiting for it to come.
    Throws,
    /// Trolls regenerate: an awake troll not beside the avatar gets back one health a turn,
    /// and never flees. Punishes hitting and running.
    Regenerates,
}

impl Trait {
    /// What it does, in a player's words (for the help screen).
    pub const fn describe(self) -> &'static str {
        match self {
            Trait::Pack => "hunts in packs: bites land more often beside other monsters",
            Trait::Flits => "flits at random, and flies off after each bite",
            Trait::CallsFriend => "flees at half health, calling the nearest sleeper",
            Trait::Lunges => "lunges two tiles and strikes on its turn",
            Trait::Throws => "throws spears from up to 3 tiles in sight",
            Trait::Regenerates => "heals 1 a turn when not beside you; never flees",
        }
    }

    /// The habit it punishes, in a player's words.
    pub const fn punishes(self) -> &'static str {
        match self {
            Trait::Pack => "fighting in the open",
            Trait::Flits => "counting its steps",
            Trait::CallsFriend => "leaving a fight half done",
            Trait::Lunges => "stepping back on its turn",
            Trait::Throws => "waiting for it to come",
            Trait::Regenerates => "hitting and running",
        }
    }
}

/// The chance, in percent, that each step of a bat goes to a random free neighbour instead
/// of towards the avatar ([`Trait::Flits`]; drawn from the game's generator). Measured
/// (`docs/balance.md`, "Explorations").
pub const FLIT_PERCENT: u32 = 50;

/// Percentage points a rat's bite gains for each other monster beside the avatar
/// ([`Trait::Pack`]).
pub const PACK_BONUS: u32 = 10;

/// How far, in tiles (the larger axis distance), a fleeing goblin's call reaches a sleeping
/// monster of its branch ([`Trait::CallsFriend`]): two plots.
pub const CALL_REACH: i32 = 26;

/// What a kind of monster is: its glyph's tile, health, blows, speed and reach, what it
/// does besides, what it pays, and the depths it lives at. The help screen prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindStats {
    /// Its name, in messages and the JSON (`"rat"`).
    pub name: &'static str,
    /// The tile it is drawn as.
    pub tile: Tile,
    /// Health when it is placed, in points of damage.
    pub health: u32,
    /// The chance, in percent, that one of its blows lands; pushes danger up.
    pub hit_percent: u32,
    /// The hearts a blow that lands takes, drawn uniformly from `damage.0..=damage.1`.
    pub damage: (u32, u32),
    /// How often it acts.
    pub speed: Speed,
    /// The most tiles from which one of its actions ends in a blow, counted in steps over the
    /// floor it walks (1: only from beside the avatar; a zombie's lunge: 3); a thrown blow
    /// reaches `range` instead.
    pub reach: u32,
    /// The most tiles (the larger axis distance, in sight) from which it throws a blow; 0 for
    /// none.
    pub range: u32,
    /// It flees at this percent of its health or less (0: never).
    pub flee_percent: u32,
    /// What it does besides, and the habit it punishes.
    pub trait_: Trait,
    /// Whether it lurks: asleep, it wakes only when the avatar stands beside it (one tile,
    /// diagonals too), not when it comes into sight ([`LURK_REACH`]; rules version 10).
    pub lurks: bool,
    /// The chance, in percent, that one of the avatar's blows at it misses (drawn from the
    /// game's generator after the blow's damage; 0: every blow lands).
    pub evade_percent: u32,
    /// Points for killing it (carried, banked by the way up like a feature's).
    pub points: u64,
    /// The shallowest room depth it is placed at.
    pub first_depth: u32,
    /// The deepest room depth it is placed at (`u32::MAX`: every depth from its first).
    pub last_depth: u32,
}

impl KindStats {
    /// Steps a lunge takes before the blow, on the turn it acts (`reach − 1`).
    pub const fn lunge(&self) -> u32 {
        self.reach.saturating_sub(1)
    }
}

/// A kind of monster. Deeper rooms hold the later kinds: stronger, and better paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MonsterKind {
    /// `r`: weak, in packs, from depth 2.
    Rat,
    /// `b`: fast, frail and erratic, from depth 3.
    Bat,
    /// `g`: calls a friend when it flees, from depth 4.
    Goblin,
    /// `z`: slow, tough, lunges, from depth 6.
    Zombie,
    /// `o`: throws spears, from depth 7.
    Orc,
    /// `T`: the deep rooms' guard, regenerates, from depth 7 (with the orcs).
    Troll,
}

/// The kinds' numbers, in [`MonsterKind`] order (`docs/monsters.md` prints this table).
const KINDS: [KindStats; 6] = [
    KindStats {
        name: "rat",
        tile: Tile::Rat,
        health: 3,
        hit_percent: 50,
        damage: (1, 1),
        speed: Speed::Normal,
        reach: 1,
        range: 0,
        flee_percent: 25,
        trait_: Trait::Pack,
        lurks: true,
        evade_percent: 0,
        points: 5,
        first_depth: 2,
        last_depth: u32::MAX,
    },
    KindStats {
        name: "bat",
        tile: Tile::Bat,
        health: 1,
        hit_percent: 30,
        damage: (1, 1),
        speed: Speed::Fast,
        reach: 1,
        range: 0,
        flee_percent: 25,
        trait_: Trait::Flits,
        lurks: true,
        evade_percent: 50,
        points: 8,
        first_depth: 3,
        last_depth: u32::MAX,
    },
    KindStats {
        name: "goblin",
        tile: Tile::Goblin,
        health: 4,
        hit_percent: 40,
        damage: (1, 1),
        speed: Speed::Normal,
        reach: 1,
        range: 0,
        flee_percent: 50,
        trait_: Trait::CallsFriend,
        lurks: false,
        evade_percent: 0,
        points: 15,
        first_depth: 4,
        last_depth: u32::MAX,
    },
    KindStats {
        name: "zombie",
        tile: Tile::Zombie,
        health: 9,
        hit_percent: 60,
        damage: (1, 2),
        speed: Speed::Slow,
        reach: 3,
        range: 0,
        flee_percent: 25,
        trait_: Trait::Lunges,
        lurks: false,
        evade_percent: 0,
        points: 25,
        first_depth: 6,
        last_depth: u32::MAX,
    },
    KindStats {
        name: "orc",
        tile: Tile::Orc,
        health: 8,
        hit_percent: 65,
        damage: (1, 2),
        speed: Speed::Normal,
        reach: 1,
        range: 3,
        flee_percent: 25,
        trait_: Trait::Throws,
        lurks: false,
        evade_percent: 0,
        points: 40,
        first_depth: 7,
        last_depth: u32::MAX,
    },
    KindStats {
        name: "troll",
        tile: Tile::Troll,
        health: 12,
        hit_percent: 60,
        damage: (1, 3),
        speed: Speed::Normal,
        reach: 1,
        range: 0,
        flee_percent: 0,
        trait_: Trait::Regenerates,
        lurks: false,
        evade_percent: 0,
        points: 80,
        first_depth: 7,
        last_depth: u32::MAX,
    },
];

/// How many of the deepest kinds a room reached are placed in it.
const KINDS_AT_A_DEPTH: usize = 4;

impl MonsterKind {
    /// Every kind, shallowest first.
    pub const ALL: [MonsterKind; 6] = [
        MonsterKind::Rat,
        MonsterKind::Bat,
        MonsterKind::Goblin,
        MonsterKind::Zombie,
        MonsterKind::Orc,
        MonsterKind::Troll,
    ];

    /// Its numbers.
    pub const fn stats(self) -> &'static KindStats {
        &KINDS[self as usize]
    }

    /// Its name (`"rat"`).
    pub const fn name(self) -> &'static str {
        self.stats().name
    }

    /// The kind drawn as `tile`, if it is a monster's.
    pub fn of_tile(tile: Tile) -> Option<MonsterKind> {
        MonsterKind::ALL
            .into_iter()
            .find(|k| k.stats().tile == tile)
    }

    /// The kinds placed at `depth`: among those whose depths hold it, the (at most
    /// 4: `KINDS_AT_A_DEPTH`) deepest, so shallow kinds give way to stronger ones as the
    /// avatar goes down.
    pub fn at_depth(depth: u32) -> impl Iterator<Item = MonsterKind> {
        let here: Vec<MonsterKind> = MonsterKind::ALL
            .into_iter()
            .filter(|k| (k.stats().first_depth..=k.stats().last_depth).contains(&depth))
            .collect();
        let from = here.len().saturating_sub(KINDS_AT_A_DEPTH);
        here.into_iter().skip(from)
    }
}

/// What a monster is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MonsterState {
    /// Has not seen the avatar yet: does nothing.
    Asleep,
    /// Walks towards the avatar and strikes it when adjacent.
    Hunting,
    /// At a quarter of its health or less: walks away from the avatar (strikes only when
    /// cornered).
    Fleeing,
}

impl MonsterState {
    /// The name the JSON uses: `"asleep"`, `"hunting"`, `"fleeing"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            MonsterState::Asleep => "asleep",
            MonsterState::Hunting => "hunting",
            MonsterState::Fleeing => "fleeing",
        }
    }
}

/// One monster: 24 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Monster {
    /// Its id: monsters are numbered from 0 in the order they were placed, and act in id
    /// order.
    pub id: u32,
    /// Its kind.
    pub kind: MonsterKind,
    /// The branch whose map it lives in (it never leaves it, nor enters the start room).
    pub branch: BranchId,
    /// The room it was placed in: that room is not clear while it lives.
    pub home: RoomPos,
    /// Its tile, in dungeon tiles.
    pub pos: Pos,
    /// Health left (it dies at 0).
    pub health: u32,
    /// What it is doing.
    pub state: MonsterState,
}

impl Monster {
    /// Whether it has seen the avatar (hunting or fleeing).
    pub const fn is_awake(&self) -> bool {
        !matches!(self.state, MonsterState::Asleep)
    }
}

/// Everything an exploration holds about its monsters and the avatar's potions. Stored
/// beside the room graph (saves from format 6 on; older explorations load with
/// [`Encounters::off`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Encounters {
    /// Whether new rooms get monsters (`--no-monsters` turns them off; an exploration saved
    /// before monsters existed plays on without them).
    pub enabled: bool,
    /// Every living monster, by id, in the order they act.
    pub monsters: Vec<Monster>,
    /// The id the next monster placed gets.
    pub next_id: u32,
    /// Potions carried (0..=[`MAX_POTIONS`]).
    pub potions: u32,
    /// Turns taken since the start with monsters on: a slow monster acts on the even ones.
    pub turns: u64,
    /// What killed the avatar, once something did.
    pub killed_by: Option<MonsterKind>,
}

impl Default for Encounters {
    fn default() -> Self {
        Encounters::new(true)
    }
}

impl Encounters {
    /// No monster yet, no potion; new rooms get monsters when `enabled`.
    pub const fn new(enabled: bool) -> Encounters {
        Encounters {
            enabled,
            monsters: Vec::new(),
            next_id: 0,
            potions: 0,
            turns: 0,
            killed_by: None,
        }
    }

    /// An exploration without monsters: what a save written before they existed loads as.
    pub const fn off() -> Encounters {
        Encounters::new(false)
    }

    /// The living monsters that hold room `home` of branch `branch`: those whose home it is
    /// and that have not fled (a monster that flees has given its room up: it no longer
    /// keeps it from being clear).
    pub fn living_in(&self, branch: BranchId, home: RoomPos) -> u32 {
        self.monsters
            .iter()
            .filter(|m| m.branch == branch && m.home == home && m.state != MonsterState::Fleeing)
            .count() as u32
    }

    /// The monster at dungeon tile `p` of branch `branch`, if any.
    pub fn at(&self, branch: BranchId, p: Pos) -> Option<&Monster> {
        self.monsters
            .iter()
            .find(|m| m.pos == p && m.branch == branch)
    }
}

/// The seed of the generator that places room `pos`'s monsters in branch `branch`:
/// SplitMix64's finaliser over the dungeon's seed, the branch and the plot, apart from the
/// branch's own stream so the rooms are what they were before monsters.
fn room_seed(seed: u64, branch: BranchId, pos: RoomPos) -> u64 {
    let mut z = seed
        ^ 0x6D6F_6E73_7465_7273 // "monsters"
        ^ u64::from(branch).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (u64::from(pos.x as u32) << 32 | u64::from(pos.y as u32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where room `pos` of branch `branch` (just made, with `shape` and `items`) gets its
/// monsters, and of which kinds: `(plot tile, kind)` pairs, at most one a tile.
///
/// How many: uniform in the depth table's `monsters_least..=monsters_most` for the room's
/// depth, at most the tiles free. Where, after Cogmind's placement by a room's metrics
/// (Ross 2014): first a guard on a free tile beside each chest, then the room's best
/// connected tiles (most floor among their eight neighbours: the open middle, where a
/// monster sees the most and reaches every corridor), ties broken by one draw each. Never on
/// the central cross the corridors cross the room on (so a monster never corks an exit
/// before the avatar has seen it), never on a feature. Kinds: uniform among the depth's
/// kinds ([`MonsterKind`]: the three deepest reached).
pub fn place(
    seed: u64,
    branch: BranchId,
    pos: RoomPos,
    shape: Shape,
    items: &[Feature],
) -> Vec<(Pos, MonsterKind)> {
    let depth = super::depth(pos);
    let row = depth_row(depth);
    if row.monsters_most == 0 {
        return Vec::new();
    }
    let mut rng = Pcg64::seed_from_u64(room_seed(seed, branch, pos));
    let count = rng.random_range(row.monsters_least..=row.monsters_most) as usize;
    let kinds: Vec<MonsterKind> = MonsterKind::at_depth(depth).collect();
    // Candidate tiles: the room's floor off the cross and off the features, scored.
    let is_floor = |tx: i32, ty: i32| shape.is_room_floor(tx, ty);
    let taken = |tx: i32, ty: i32| items.iter().any(|f| f.pos == Pos::new(tx, ty));
    let mut spots: Vec<(u32, u32, Pos)> = Vec::new();
    for ty in i32::from(shape.y)..i32::from(shape.y) + i32::from(shape.height) {
        for tx in i32::from(shape.x)..i32::from(shape.x) + i32::from(shape.width) {
            if tx == MID || ty == MID || taken(tx, ty) {
                continue;
            }
            let mut open = 0;
            let mut guards = false;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if (dx, dy) == (0, 0) || !is_floor(tx + dx, ty + dy) {
                        continue;
                    }
                    open += 1;
                    let n = Pos::new(tx + dx, ty + dy);
                    guards |= (dx == 0 || dy == 0)
                        && items
                            .iter()
                            .any(|f| f.pos == n && f.kind == crate::run::FeatureKind::Chest);
                }
            }
            // Higher sorts first: guards, then openness, then a random tie-break.
            let score = u32::from(guards) * 16 + open;
            spots.push((score, rng.random_range(0..u32::MAX), Pos::new(tx, ty)));
        }
    }
    spots.sort_by_key(|s| std::cmp::Reverse((s.0, s.1)));
    spots
        .into_iter()
        .take(count)
        .map(|(_, _, p)| {
            let kind = kinds[rng.random_range(0..kinds.len() as u32) as usize];
            (p, kind)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_table_is_in_kind_order_and_tiles_are_unique() {
        for (i, k) in MonsterKind::ALL.into_iter().enumerate() {
            assert_eq!(k as usize, i);
            assert_eq!(MonsterKind::of_tile(k.stats().tile), Some(k));
            assert!(k.stats().damage.0 <= k.stats().damage.1);
        }
        // Deeper kinds (or, at the same first depth, later ones) are stronger and better paid.
        for w in MonsterKind::ALL.windows(2) {
            let (a, b) = (w[0].stats(), w[1].stats());
            assert!(a.first_depth <= b.first_depth && a.points < b.points);
        }
    }

    #[test]
    fn speeds_act_as_documented() {
        assert_eq!((0..4).map(|t| Speed::Slow.actions(t)).sum::<u32>(), 2);
        assert_eq!((0..4).map(|t| Speed::Fast.actions(t)).sum::<u32>(), 8);
    }

    #[test]
    fn depth_kinds_are_the_four_deepest_reached() {
        assert_eq!(MonsterKind::at_depth(1).count(), 0);
        assert_eq!(
            MonsterKind::at_depth(2).collect::<Vec<_>>(),
            [MonsterKind::Rat]
        );
        assert_eq!(
            MonsterKind::at_depth(20).collect::<Vec<_>>(),
            [
                MonsterKind::Goblin,
                MonsterKind::Zombie,
                MonsterKind::Orc,
                MonsterKind::Troll
            ]
        );
    }
}
