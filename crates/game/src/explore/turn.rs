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
//!    a monster flees (relaxed with a sorted queue rather than a heap: `relax`).
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
//! stands on the same tile of an unchanged map (`TurnCache`): a fight, a wait or a potion
//! pays for them once (`explore/replay_1M_keys_monsters` in `benches/play.rs`).

use rand::RngExt;

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

/// The square around the avatar the monsters' maps cover: its rectangle in dungeon tiles and
/// its padded grid.
#[derive(Debug, Clone)]
struct Square {
    area: Rect,
    grid: Grid,
}

/// The monsters' maps around one tile of the avatar: the square, where monsters may walk in
/// it, the distance map to the avatar and (once a monster fled) the safety map.
#[derive(Debug, Clone)]
struct Maps {
    square: Square,
    open: Vec<bool>,
    dist: Vec<u32>,
    safety: Option<Vec<i32>>,
}

/// What the monsters' turn keeps between turns, for as long as the avatar stands on the same
/// tile of an unchanged map (a fight, a wait, a potion): what the avatar sees (for waking)
/// and the monsters' maps. Any change to the map's tiles (a room made or cleared, another
/// map, a branch retired) counts as a new `version`, which drops them. Never saved and never
/// compared: two games equal in everything else are equal.
#[derive(Debug, Clone, Default)]
pub(crate) struct TurnCache {
    /// Counts the changes to the tiles of the avatar's map.
    version: u64,
    /// What the avatar sees, from the tile and version it was looked from.
    sight: Option<(Pos, u64, super::play::InSight)>,
    /// The monsters' maps, around the tile and at the version they were made for.
    maps: Option<(Pos, u64, Maps)>,
}

impl TurnCache {
    /// What the avatar sees from `at` now (the look that marks the memory computed it).
    pub(crate) fn saw(&mut self, at: Pos, sight: super::play::InSight) {
        self.sight = Some((at, self.version, sight));
    }

    /// The map's tiles may have changed: what was kept is dropped.
    pub(crate) fn changed(&mut self) {
        self.version += 1;
        self.sight = None;
        self.maps = None;
    }
}

impl PartialEq for TurnCache {
    fn eq(&self, _: &TurnCache) -> bool {
        true
    }
}

impl Eq for TurnCache {}

impl Square {
    fn index(&self, p: Pos) -> Option<usize> {
        self.grid
            .index(Pos::new(p.x - self.area.x, p.y - self.area.y))
    }

    fn pos(&self, i: usize) -> Pos {
        let p = self.grid.pos(i);
        Pos::new(p.x + self.area.x, p.y + self.area.y)
    }
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
        let r = super::play::SIGHT_RADIUS as i32;
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
    relax(square.grid, open, &mut values, 10);
    values
}

/// [`search::relax`]'s map (each cell the least of its own value and an open neighbour's
/// plus `step`, unreached cells `i32::MAX`), found without a heap: every step adds the same
/// `step`, so the cells settle in the order of their values by merging the sources sorted
/// by value with a first-in first-out queue of the cells they lower (which is sorted by
/// construction). The map is unique, so it is the heap's to the last cell; the cost is the
/// sort of the sources and one pass (the safety map is made on most turns a monster flees).
fn relax(grid: Grid, open: &[bool], values: &mut [i32], step: i32) {
    let mut sources: Vec<(i32, usize)> = values
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != i32::MAX)
        .map(|(i, &v)| (v, i))
        .collect();
    sources.sort_unstable();
    let mut queue: std::collections::VecDeque<(i32, usize)> =
        std::collections::VecDeque::with_capacity(sources.len());
    let mut next_source = 0;
    loop {
        let from_sources = match (sources.get(next_source), queue.front()) {
            (Some(s), Some(q)) => s.0 <= q.0,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let (v, i) = if from_sources {
            next_source += 1;
            sources[next_source - 1]
        } else {
            queue.pop_front().unwrap_or_default()
        };
        if v > values[i] {
            continue;
        }
        let next = v.saturating_add(step);
        for n in grid.neighbours(i) {
            if open[n] && next < values[n] {
                values[n] = next;
                queue.push_back((next, n));
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The queue's relaxation gives the heap's map, cell for cell, on random squares.
    #[test]
    fn relax_without_a_heap_is_the_search_modules() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        for _ in 0..300 {
            let (w, h) = (rng.random_range(1..30usize), rng.random_range(1..30usize));
            let grid = Grid::around(w, h);
            let mut open = vec![false; grid.len()];
            let mut values = vec![i32::MAX; grid.len()];
            for y in 0..h {
                for x in 0..w {
                    let i = (y + 1) * grid.width + x + 1;
                    open[i] = rng.random_range(0..100) < 70;
                    if open[i] && rng.random_range(0..100) < 30 {
                        values[i] = -12 * rng.random_range(0..40);
                    }
                }
            }
            let mut heap = values.clone();
            search::relax(grid, &open, &mut heap, 10);
            relax(grid, &open, &mut values, 10);
            assert_eq!(values, heap);
        }
    }
}
