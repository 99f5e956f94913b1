//! The monsters' turn (`docs/monsters.md`): after each action of the player that is a turn
//! (a step, an attack, a potion; never a bump or a view key), the rules call
//! `ExploreState::monsters_turn`. In this order:
//! 1. **Wake.** Every sleeping monster of the avatar's map that the avatar sees now wakes and
//!    hunts. Sight is the symmetric field of view that marks the memory (Ford 2021), so a
//!    monster the player sees has seen the player.
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
//!    the free neighbour with the least distance (ties in [`Direction::ALL`] order), or waits.
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

use super::cache::{Maps, Square};
use super::monsters::{MonsterKind, MonsterState};
use super::play::ExploreState;
use super::plot;
use crate::base::GameRng;
use byog_tile_engine::search::{self, Grid, UNREACHED};
use byog_tile_engine::{Direction, Pos, Rect, Tile};

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
        let avatar = self.avatar();
        let near =
            |p: Pos| (p.x - avatar.x).abs() <= HUNT_RADIUS && (p.y - avatar.y).abs() <= HUNT_RADIUS;
        let acting: Vec<usize> = (0..self.encounters().monsters.len())
            .filter(|&k| {
                let m = &self.encounters().monsters[k];
                m.is_awake() && near(m.pos) && self.in_view_map(m)
            })
            .collect();
        if acting.is_empty() {
            return report;
        }
        // In the thick of a fight every acting monster is a hunter beside the avatar: each
        // strikes, and no map is needed (most turns of a fight).
        let beside = |p: Pos| (p.x - avatar.x).abs() + (p.y - avatar.y).abs() == 1;
        let only_blows = acting.iter().all(|&k| {
            let m = &self.encounters().monsters[k];
            m.state == MonsterState::Hunting
                && m.health * 4 > m.kind.stats().health
                && beside(m.pos)
        });
        if only_blows {
            for k in acting {
                let m = self.encounters().monsters[k];
                for _ in 0..m.kind.stats().speed.actions(turn) {
                    self.strike(m.kind, rng, &mut report);
                    if self.health() == 0 {
                        self.encounters_mut().killed_by = Some(m.kind);
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

    /// Every acting monster (`acting`, by index) acts on `turn` over `maps`.
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
        for k in acting {
            for _ in 0..self.encounters().monsters[k]
                .kind
                .stats()
                .speed
                .actions(turn)
            {
                let m = self.encounters().monsters[k];
                let max = m.kind.stats().health;
                if m.state == MonsterState::Hunting && m.health * 4 <= max {
                    self.encounters_mut().monsters[k].state = MonsterState::Fleeing;
                    report.fled.push((m.kind, m.branch, m.home));
                }
                let fleeing = self.encounters().monsters[k].state == MonsterState::Fleeing;
                let adjacent = Direction::ALL.into_iter().any(|d| m.pos + d == avatar);
                let Some(at) = square.index(m.pos) else {
                    break;
                };
                let step = if fleeing {
                    let safety = safety.get_or_insert_with(|| safety_map(square, open, dist));
                    downhill(square, at, open, &occupied, home, |i| safety[i])
                } else if adjacent {
                    None
                } else {
                    downhill(square, at, open, &occupied, home, |i| {
                        if dist[i] == UNREACHED {
                            i32::MAX
                        } else {
                            dist[i] as i32
                        }
                    })
                };
                match step {
                    Some(to) => {
                        occupied[at] = false;
                        occupied[to] = true;
                        self.encounters_mut().monsters[k].pos = square.pos(to);
                    }
                    None if adjacent => {
                        self.strike(m.kind, rng, &mut report);
                        if self.health() == 0 {
                            self.encounters_mut().killed_by = Some(m.kind);
                            return report;
                        }
                    }
                    None => {}
                }
            }
        }
        report
    }

    /// Wakes every sleeping monster of the map the avatar sees; the first's kind and how many.
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
            if sight.contains(m.pos) {
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
        if rng.random_range(0..100) >= stats.hit_percent {
            report.misses += 1;
            return;
        }
        let damage = rng.random_range(stats.damage.0..=stats.damage.1);
        let health = self.health_mut();
        *health = health.saturating_sub(damage);
        report.hits += 1;
        report.damage += damage;
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
/// (ties in [`Direction::ALL`] order); never the avatar's tile `avatar`.
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
