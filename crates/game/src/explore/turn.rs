//! The monsters' turn (`docs/monsters.md`): after each action of the player that is a turn
//! (a step, an attack, a potion; never a bump or a view key), the rules call
//! `ExploreState::monsters_turn`. In this order:
//! 1. **Wake.** Every sleeping monster of the avatar's map that the avatar sees now wakes and
//!    hunts. Sight is the symmetric field of view that marks the memory (Ford 2021), so a
//!    monster the player sees has seen the player. A kind that lurks (rats and bats, since
//!    rules version 10) sleeps on until the avatar stands beside it ([`LURK_REACH`]).
//! 2. **Maps.** One distance map from the avatar ([`search::bfs`], the one search module) over
//!    the floor tiles monsters may walk, in the square of [`HUNT_RADIUS`] around the avatar;
//!    monsters farther off have lost the scent and wait. Monsters walk plain floor only:
//!    never a wall, a feature, a closed exit, the way up or the start room; they cross between
//!    the rooms of their branch's map through open exits. A *safety map* (the distance map
//!    times -1.2, relaxed again: [`search::relax`], Brogue's Dijkstra maps) is made only when
//!    a monster flees.
//! 3. **Act.** Every awake monster in the square acts, in id order, as often as its speed
//!    says: a hunting monster beside the avatar strikes it (a blow lands with its kind's
//!    chance and takes its damage, both drawn from the game's generator); else it steps to
//!    the free neighbour with the least distance (ties in [`Direction::ALL`](byog_tile_engine::Direction::ALL) order), or waits.
//!    A monster at a quarter of its health or less flees: it steps downhill on the safety map,
//!    and strikes only when cornered beside the avatar. A monster never steps onto another
//!    or onto the avatar.
//!
//! Cost: the square is 25 × 25 tiles, painted and searched when a monster is awake in it and
//! not every one of them is striking from beside the avatar (`monsters/turn_50_awake` in
//! `docs/performance.md`); nothing is done while every monster nearby sleeps out of sight.
//! The maps (and what the avatar sees, for waking) are kept between turns while the avatar
//! stands on the same tile of an unchanged map (the exploration's cache, `explore/cache.rs`):
//! a fight, a wait or a potion pays for them once (`explore/replay_1M_keys_monsters` in
//! `benches/byog.rs`).

use rand::RngExt;

use super::cache::InSight;
use super::cache::{Maps, Square};
use super::monsters::{
    CALL_REACH, FLIT_PERCENT, LURK_REACH, Monster, MonsterKind, MonsterState, PACK_BONUS, Trait,
};
use super::play::ExploreState;
use super::plot;
use crate::base::GameRng;
use byog_tile_engine::search::{self, Grid, UNREACHED};
use byog_tile_engine::{Pos, Rect, Tile};

/// How far (in tiles, each way) an awake monster follows the avatar's scent: the square the
/// distance map covers. One and a half sight radii (a room and its corridor beyond): farther
/// off, a monster waits where it is. Larger: monsters follow farther, and a turn costs the
/// square's area.
pub const HUNT_RADIUS: i32 = 12;

/// The safety map's factor, in tenths: the distance map times -1.2 (Brogue's), so a fleeing
/// monster prefers a far corner to the nearest one only when it is clearly farther.
const SAFETY_FACTOR_TENTHS: i32 = -12;

/// What the monsters did in one turn, for the rules' events.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TurnReport {
    /// Monsters that woke this turn, and the kind of the first.
    pub woke: Option<(MonsterKind, u32)>,
    /// Blows that landed on the avatar.
    pub hits: u32,
    /// Hearts those blows took.
    pub damage: u32,
    /// Blows that missed.
    pub misses: u32,
    /// The kind of the last monster that struck (or missed).
    pub by: Option<MonsterKind>,
    /// The monsters that began to flee this turn: kind, branch and home room (the room each
    /// gives up; the rules settle them).
    pub fled: Vec<(MonsterKind, super::BranchId, super::RoomPos)>,
}

impl ExploreState {
    /// The monsters' turn (see the module's documentation), after the player's action.
    /// Health lost is taken from the avatar here; the rules end the game at 0.
    pub(crate) fn monsters_turn(&mut self, rng: &mut GameRng) -> TurnReport {
        let mut report = TurnReport::default();
        if !self.encounters().enabled {
            // Without monsters nothing counts turns (a save from before monsters loads so).
            return report;
        }
        let turn = self.encounters().turns;
        self.encounters_mut().turns += 1;
        if self.encounters().monsters.is_empty() || self.health() == 0 {
            return report;
        }
        report.woke = self.wake();
        let acting = self.acting_indices();
        if acting.is_empty() {
            return report;
        }
        let avatar = self.avatar();
        let beside = |p: Pos| (p.x - avatar.x).abs() + (p.y - avatar.y).abs() == 1;
        // Trolls not beside the avatar heal first (Trait::Regenerates).
        for &k in &acting {
            let m = &mut self.encounters_mut().monsters[k];
            if m.kind.stats().trait_ == Trait::Regenerates && !beside(m.pos) {
                m.health = (m.health + 1).min(m.kind.stats().health);
            }
        }
        // In the thick of a fight every acting monster is a hunter beside the avatar that
        // strikes and stays (not a bat, which flies off): each strikes, and no map is needed
        // (most turns of a fight).
        let only_blows = acting.iter().all(|&k| {
            let m = &self.encounters().monsters[k];
            m.state == MonsterState::Hunting
                && !flees(m)
                && m.kind.stats().trait_ != Trait::Flits
                && beside(m.pos)
        });
        if only_blows {
            for k in acting {
                let m = self.encounters().monsters[k];
                for _ in 0..m.kind.stats().speed.actions(turn) {
                    if self.blow(m.kind, rng, &mut report) {
                        return report;
                    }
                }
            }
            return report;
        }
        // The maps kept from the last turn while the avatar stands where it stood on the same
        // map; else made anew.
        let version = self.cache.version;
        let mut maps = match self.cache.maps.take() {
            Some((at, v, maps)) if at == avatar && v == version => maps,
            _ => {
                let side = 2 * HUNT_RADIUS + 1;
                let square = Square {
                    area: Rect::new(avatar.x - HUNT_RADIUS, avatar.y - HUNT_RADIUS, side, side),
                    grid: Grid::around(side as usize, side as usize),
                };
                let open = self.monster_floor(&square);
                let mut dist = vec![UNREACHED; square.grid.len()];
                let home = square.index(avatar).unwrap_or(0);
                search::bfs(square.grid, &open, &[home], &mut dist);
                Maps {
                    square,
                    open,
                    dist,
                    safety: None,
                }
            }
        };
        let report = self.act(acting, turn, rng, report, &mut maps);
        self.cache.maps = Some((avatar, version, maps));
        report
    }

    /// The indices (in the dungeon's list) of the monsters that act after the player's
    /// action: awake, in the avatar's map, within [`HUNT_RADIUS`] of the avatar; id order.
    fn acting_indices(&self) -> Vec<usize> {
        (0..self.encounters().monsters.len())
            .filter(|&k| self.acts(&self.encounters().monsters[k]))
            .collect()
    }

    /// Whether monster `m` acts in the monsters' turn: awake, in the avatar's map, within
    /// [`HUNT_RADIUS`] of the avatar.
    fn acts(&self, m: &Monster) -> bool {
        let a = self.avatar();
        let near = (m.pos.x - a.x).abs() <= HUNT_RADIUS && (m.pos.y - a.y).abs() <= HUNT_RADIUS;
        m.is_awake() && near && self.in_view_map(m)
    }

    /// How many times monster `m` (of the avatar's map) acts after the player's next action:
    /// its kind's speed on the next turn, if it is awake and within [`HUNT_RADIUS`] of the
    /// avatar; else 0 (a slow monster on its idle turn, a sleeper, one too far off). For the
    /// front-ends, which mark who acts next, and for players who plan by it.
    pub fn acts_next(&self, m: &Monster) -> u32 {
        if !self.encounters().enabled || !self.acts(m) {
            return 0;
        }
        m.kind.stats().speed.actions(self.encounters().turns)
    }

    /// The monsters of the avatar's map that act after the player's next action, in the
    /// order they act (by id), each with how many times ([`ExploreState::acts_next`]); the
    /// first is the one that acts next.
    pub fn acting_next(&self) -> Vec<(&Monster, u32)> {
        self.monsters()
            .map(|m| (m, self.acts_next(m)))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Every acting monster (`acting`, by index) acts on `turn` over `maps`, as its kind
    /// does (the module's documentation, [`Trait`]).
    fn act(
        &mut self,
        acting: Vec<usize>,
        turn: u64,
        rng: &mut GameRng,
        mut report: TurnReport,
        maps: &mut Maps,
    ) -> TurnReport {
        let avatar = self.avatar();
        let Maps {
            square,
            open,
            dist,
            safety,
        } = maps;
        let (square, open, dist) = (&*square, &*open, &*dist);
        let home = square.index(avatar).unwrap_or(0);
        // Who stands where in the square: monsters of the map, so none steps onto another.
        let mut occupied = vec![false; square.grid.len()];
        for m in self.monsters() {
            if let Some(i) = square.index(m.pos) {
                occupied[i] = true;
            }
        }
        let hunt = |i: usize| {
            if dist[i] == UNREACHED {
                i32::MAX
            } else {
                dist[i] as i32
            }
        };
        let mut sight: Option<InSight> = None;
        for k in acting {
            let stats = self.encounters().monsters[k].kind.stats();
            // Whether it struck this turn: a bat flies off with its next action.
            let mut struck = false;
            for _ in 0..stats.speed.actions(turn) {
                let m = self.encounters().monsters[k];
                if m.state == MonsterState::Hunting && flees(&m) {
                    self.encounters_mut().monsters[k].state = MonsterState::Fleeing;
                    report.fled.push((m.kind, m.branch, m.home));
                    if stats.trait_ == Trait::CallsFriend {
                        self.call_friend(k);
                    }
                }
                let fleeing = self.encounters().monsters[k].state == MonsterState::Fleeing;
                let Some(mut at) = square.index(m.pos) else {
                    break;
                };
                let adjacent = square.grid.neighbours(at).contains(&home);
                let step = if fleeing {
                    let safety = safety.get_or_insert_with(|| safety_map(square, open, dist));
                    downhill(square, at, open, &occupied, home, |i| safety[i])
                } else if adjacent && struck && stats.trait_ == Trait::Flits {
                    // A bat that struck flies off: to the free neighbour farthest from the
                    // avatar (ties in Direction::ALL order).
                    downhill(square, at, open, &occupied, home, |i| -hunt(i))
                } else if adjacent {
                    None
                } else {
                    let throws = stats.range > 0
                        && m.pos.chebyshev(avatar) <= stats.range
                        && sight.get_or_insert_with(|| self.sight()).contains(m.pos);
                    if throws {
                        struck = true;
                        if self.blow(m.kind, rng, &mut report) {
                            return report;
                        }
                        continue;
                    }
                    // Steps towards the avatar: one, or a lunge's; each of a bat's steps goes
                    // a random way half the time.
                    for _ in 0..stats.lunge().max(1) {
                        let to = if stats.trait_ == Trait::Flits
                            && rng.random_range(0..100) < FLIT_PERCENT
                        {
                            let free: Vec<usize> = square
                                .grid
                                .neighbours(at)
                                .into_iter()
                                .filter(|&n| open[n] && !occupied[n] && n != home)
                                .collect();
                            (!free.is_empty())
                                .then(|| free[rng.random_range(0..free.len() as u32) as usize])
                        } else {
                            downhill(square, at, open, &occupied, home, hunt)
                        };
                        let Some(to) = to else { break };
                        occupied[at] = false;
                        occupied[to] = true;
                        self.encounters_mut().monsters[k].pos = square.pos(to);
                        at = to;
                        if square.grid.neighbours(at).contains(&home) {
                            break;
                        }
                    }
                    if stats.lunge() > 0 && square.grid.neighbours(at).contains(&home) {
                        struck = true;
                        if self.blow(m.kind, rng, &mut report) {
                            return report;
                        }
                    }
                    continue;
                };
                match step {
                    Some(to) => {
                        occupied[at] = false;
                        occupied[to] = true;
                        self.encounters_mut().monsters[k].pos = square.pos(to);
                    }
                    None if adjacent => {
                        struck = true;
                        if self.blow(m.kind, rng, &mut report) {
                            return report;
                        }
                    }
                    None => {}
                }
            }
        }
        report
    }

    /// A fleeing goblin's call ([`Trait::CallsFriend`]): the sleeping monster of its branch
    /// nearest to it (Manhattan distance, then id) within [`CALL_REACH`] tiles on both axes
    /// wakes and hunts.
    fn call_friend(&mut self, caller: usize) {
        let c = self.encounters().monsters[caller];
        let friend = self
            .encounters()
            .monsters
            .iter()
            .enumerate()
            .filter(|(_, m)| {
                m.branch == c.branch
                    && !m.is_awake()
                    && (m.pos.x - c.pos.x).abs() <= CALL_REACH
                    && (m.pos.y - c.pos.y).abs() <= CALL_REACH
            })
            .min_by_key(|(_, m)| (m.pos.manhattan(c.pos), m.id))
            .map(|(i, _)| i);
        if let Some(i) = friend {
            self.encounters_mut().monsters[i].state = MonsterState::Hunting;
        }
    }

    /// A blow of a monster of `kind` at the avatar ([`ExploreState::strike`]); whether it took
    /// the last heart (then `killed_by` is set).
    fn blow(&mut self, kind: MonsterKind, rng: &mut GameRng, report: &mut TurnReport) -> bool {
        self.strike(kind, rng, report);
        if self.health() == 0 {
            self.encounters_mut().killed_by = Some(kind);
            return true;
        }
        false
    }

    /// Wakes every sleeping monster of the map the avatar sees (a lurker only when the avatar
    /// stands within [`LURK_REACH`] of it); the first's kind and how many.
    fn wake(&mut self) -> Option<(MonsterKind, u32)> {
        let r = crate::base::SIGHT_RADIUS as i32;
        let avatar = self.avatar();
        let sleepers: Vec<usize> = (0..self.encounters().monsters.len())
            .filter(|&k| {
                let m = &self.encounters().monsters[k];
                !m.is_awake()
                    && (m.pos.x - avatar.x).abs() <= r
                    && (m.pos.y - avatar.y).abs() <= r
                    && self.in_view_map(m)
            })
            .collect();
        if sleepers.is_empty() {
            return None;
        }
        // What the avatar sees, kept while it stands where it stood on the same map.
        let version = self.cache.version;
        let sight = match self.cache.sight {
            Some((at, v, sight)) if at == avatar && v == version => sight,
            _ => {
                let sight = self.sight();
                self.cache.sight = Some((avatar, version, sight));
                sight
            }
        };
        let mut woke: Option<(MonsterKind, u32)> = None;
        for k in sleepers {
            let m = &mut self.encounters_mut().monsters[k];
            // A lurker (rules version 10) sleeps on until the avatar stands beside it.
            let far = m.pos.chebyshev(avatar) > LURK_REACH;
            if sight.contains(m.pos) && !(m.kind.stats().lurks && far) {
                m.state = MonsterState::Hunting;
                let kind = m.kind;
                woke = Some(woke.map_or((kind, 1), |(first, n)| (first, n + 1)));
            }
        }
        woke
    }

    /// A blow of a monster of `kind` at the avatar: lands with the kind's chance, takes its
    /// damage (both drawn from the game's generator, in that order).
    fn strike(&mut self, kind: MonsterKind, rng: &mut GameRng, report: &mut TurnReport) {
        let stats = kind.stats();
        report.by = Some(kind);
        if rng.random_range(0..100) >= self.hit_chance(kind) {
            report.misses += 1;
            return;
        }
        let damage = rng.random_range(stats.damage.0..=stats.damage.1);
        let health = self.health_mut();
        *health = health.saturating_sub(damage);
        report.hits += 1;
        report.damage += damage;
    }

    /// The chance, in percent, that a blow of a monster of `kind` lands now: its kind's, and
    /// a rat's [`PACK_BONUS`] more for every other monster beside the avatar
    /// ([`Trait::Pack`]; a rat beside the avatar counts itself out).
    pub fn hit_chance(&self, kind: MonsterKind) -> u32 {
        let stats = kind.stats();
        if stats.trait_ != Trait::Pack {
            return stats.hit_percent;
        }
        let a = self.avatar();
        let beside = self.monsters().filter(|m| m.pos.manhattan(a) == 1).count() as u32;
        let others = beside.saturating_sub(1);
        (stats.hit_percent + others * PACK_BONUS).min(100)
    }

    /// Where monsters may walk in `square`, as an open mask over its padded grid: plain
    /// floor of a room of the avatar's map outside the start room (closed exits, features
    /// and the way up are not plain floor).
    fn monster_floor(&self, square: &Square) -> Vec<bool> {
        let area = square.area;
        let mut tiles = vec![Tile::Nothing; area.area() as usize];
        self.paint_into(area, &mut tiles);
        let mut open = vec![false; square.grid.len()];
        let w = area.width as usize;
        for (j, row) in tiles.chunks(w).enumerate() {
            for (i, t) in row.iter().enumerate() {
                let p = Pos::new(area.x + i as i32, area.y + j as i32);
                if *t == Tile::Floor && !plot::plot_of(p).is_start() {
                    open[(j + 1) * square.grid.width + i + 1] = true;
                }
            }
        }
        open
    }
}

/// Whether hunting monster `m` flees now: at its kind's [`KindStats::flee_percent`](super::monsters::KindStats::flee_percent) of its
/// health or less (never at 0 percent).
fn flees(m: &Monster) -> bool {
    let s = m.kind.stats();
    m.health * 100 <= s.health * s.flee_percent
}

/// The safety map: the distance map times [`SAFETY_FACTOR_TENTHS`], relaxed again with a
/// step of 10 (tenths of a tile); unreached tiles stay unreached.
fn safety_map(square: &Square, open: &[bool], dist: &[u32]) -> Vec<i32> {
    let mut values: Vec<i32> = dist
        .iter()
        .map(|&d| {
            if d == UNREACHED {
                i32::MAX
            } else {
                d as i32 * SAFETY_FACTOR_TENTHS * 10 / 10
            }
        })
        .collect();
    search::relax(square.grid, open, &mut values, 10);
    values
}

/// The free open neighbour of `at` with the least `value`, if it is less than `at`'s own
/// (ties in [`Direction::ALL`](byog_tile_engine::Direction::ALL) order); never the avatar's tile `avatar`.
fn downhill(
    square: &Square,
    at: usize,
    open: &[bool],
    occupied: &[bool],
    avatar: usize,
    value: impl Fn(usize) -> i32,
) -> Option<usize> {
    let mut best = value(at);
    let mut to = None;
    for n in square.grid.neighbours(at) {
        if open[n] && !occupied[n] && n != avatar && value(n) < best {
            best = value(n);
            to = Some(n);
        }
    }
    to
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crate::explore::ExploreSettings;
    use crate::game::GameState;
    use crate::rules::{Event, Events};
    use byog_tile_engine::Direction;
    use byog_worlds::generator::GeneratorSettings;

    /// An exploration of seed 3 whose avatar stands in the middle of the room above the
    /// start room (no monsters of its own), with `kinds` added hunting at their offsets from
    /// the avatar, and the monsters' turn count even (a slow monster acts after the next
    /// action) or odd.
    fn scene(kinds: &[(MonsterKind, (i32, i32))], even: bool) -> GameState {
        let quiet = ExploreSettings {
            monsters: false,
            ..ExploreSettings::default()
        };
        let mut game = GameState::new_exploration(3, GeneratorSettings::default(), quiet).unwrap();
        for _ in 0..13 {
            game.apply(Action::Move(Direction::Up));
        }
        let e = game.explore_mut().unwrap();
        let a = e.avatar();
        let placed: Vec<(Pos, MonsterKind)> = kinds
            .iter()
            .map(|&(k, (dx, dy))| (Pos::new(a.x + dx, a.y + dy), k))
            .collect();
        e.add_monsters(&placed).unwrap();
        e.encounters_mut().turns = u64::from(!even);
        game
    }

    fn struck(events: &Events) -> bool {
        events
            .as_slice()
            .iter()
            .any(|e| matches!(e, Event::Struck { .. }))
    }

    /// Steps (Manhattan) between the avatar and the first monster.
    fn distance(game: &GameState) -> i32 {
        let e = game.explore().unwrap();
        e.monsters().next().unwrap().pos.manhattan(e.avatar()) as i32
    }

    #[test]
    fn a_zombie_lunges_two_tiles_and_strikes_on_its_turn() {
        let mut game = scene(&[(MonsterKind::Zombie, (3, 0))], true);
        let events = game.apply(Action::Wait);
        assert_eq!(distance(&game), 1);
        assert!(struck(&events), "{events:?}");
        // On its idle turn it does nothing.
        let mut game = scene(&[(MonsterKind::Zombie, (3, 0))], false);
        let events = game.apply(Action::Wait);
        assert_eq!(distance(&game), 3);
        assert!(!struck(&events));
    }

    #[test]
    fn stepping_back_on_a_zombies_turn_does_not_dodge_its_blow() {
        // The trick that solved zombies: beside one on its turn, step away so that it
        // spends the turn following. Its lunge follows and strikes.
        let mut game = scene(&[(MonsterKind::Zombie, (1, 0))], true);
        let events = game.apply(Action::Move(Direction::Left));
        assert!(events.changed_game());
        assert_eq!(distance(&game), 1);
        assert!(struck(&events), "{events:?}");
    }

    #[test]
    fn a_bat_flies_off_after_its_bite() {
        let mut game = scene(&[(MonsterKind::Bat, (1, 0))], true);
        let events = game.apply(Action::Wait);
        assert!(struck(&events), "{events:?}");
        assert!(distance(&game) >= 2, "the bat stayed beside");
    }

    #[test]
    fn an_orc_in_sight_three_tiles_off_throws_instead_of_walking() {
        let mut game = scene(&[(MonsterKind::Orc, (3, 0))], true);
        let events = game.apply(Action::Wait);
        assert!(struck(&events), "{events:?}");
        assert_eq!(distance(&game), 3);
    }

    #[test]
    fn a_rats_bite_lands_more_often_beside_its_pack() {
        let rat = MonsterKind::Rat.stats().hit_percent;
        let game = scene(&[(MonsterKind::Rat, (1, 0))], true);
        assert_eq!(game.explore().unwrap().hit_chance(MonsterKind::Rat), rat);
        let game = scene(
            &[(MonsterKind::Rat, (1, 0)), (MonsterKind::Rat, (-1, 0))],
            true,
        );
        assert_eq!(
            game.explore().unwrap().hit_chance(MonsterKind::Rat),
            rat + PACK_BONUS
        );
        // Other kinds get nothing from company.
        let game = scene(
            &[(MonsterKind::Goblin, (1, 0)), (MonsterKind::Rat, (-1, 0))],
            true,
        );
        assert_eq!(
            game.explore().unwrap().hit_chance(MonsterKind::Goblin),
            MonsterKind::Goblin.stats().hit_percent
        );
    }

    #[test]
    fn who_acts_next_follows_the_turn_order() {
        // A zombie acts on the even turns only; a bat twice every turn.
        let game = scene(&[(MonsterKind::Zombie, (2, 0))], true);
        let e = game.explore().unwrap();
        assert_eq!(e.acting_next().len(), 1);
        let game = scene(&[(MonsterKind::Zombie, (2, 0))], false);
        assert!(game.explore().unwrap().acting_next().is_empty());
        let game = scene(&[(MonsterKind::Bat, (2, 0))], false);
        assert_eq!(game.explore().unwrap().acting_next()[0].1, 2);
        assert_eq!(game.acting_next().len(), 1);
    }
}
