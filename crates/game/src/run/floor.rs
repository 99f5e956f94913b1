//! One floor of a run, made from the run's seed, its depth and the number of floors alone
//! (never from how earlier floors were played), read top-down as its steps:
//!
//! 1. **World**: a rooms-and-mazes world of the depth table's size and parameters, from the
//!    floor's derived seed ([`floor_seed`]).
//! 2. **Traps** near the critical path (Cogmind's term; the shortest walk from the start into
//!    the exit): candidates are sorted by their distance from the path, corridors and
//!    junctions before room tiles, and a candidate is taken only if the open tiles stay
//!    connected without it (it is no articulation point of the open tiles that remain, or its
//!    eight neighbours are all open, so a ring of floor goes round it) and no other trap is
//!    within two tiles. Never on the start or in front of the exit.
//! 3. **Chests** in the most secluded rooms (Cogmind's seclusion: a room's distance from the
//!    critical path), one a room, most secluded first; on a LootQuest floor
//!    (`--generator lootquest`) in its dead-end rooms first, the deepest first (the exit is
//!    already in the critical path's last room).
//! 4. **Solvable by construction, checked in linear time** ([`is_solvable`]): with every trap
//!    tile removed, one flood fill from the start reaches every other open tile,
//!    a neighbour of every trap and a neighbour of the exit. So every feature can be reached
//!    and each trap entered exactly once and left without stepping on an armed trap.
//! 5. **Budget**: the solver's par route (every feature, then the exit, over the floor
//!    contracted: [`Legs::of_floor`]) sets the floor's allowance (par × the depth table's
//!    budget, at least 100%), so it always fits; a floor whose par cannot be found (no route:
//!    never seen) is made again from the next derived seed, at most [`MAX_FLOOR_TRIES`] times.
//!
//! Cost: the world, two breadth-first searches (the critical path, the distance from it), one
//! depth-first search for the blocks of the open tiles (then one block again after a trap
//! where a candidate asks), a flood fill, and one Dijkstra search a point over the contracted
//! floor (a few hundred nodes): `docs/performance.md` has the figures.

use rand::{Rng, RngExt};

use super::depth::{self, DepthParams};
use super::route::Legs;
use super::{Feature, FeatureKind, FloorInfo};
use crate::base::{GameRng, terrain_under};
use std::cmp::Reverse;

use byog_tile_engine::search::{Blocks, Grid, UNREACHED, bfs, path_into};
use byog_tile_engine::{Pos, World};
use byog_worlds::generator::{self, GenerateError, GeneratorKind, GeneratorSettings};
use byog_worlds::metrics::{NO_ROOM, room_labels, room_paths};
use byog_worlds::progress::{self, Stage};

/// How many derived seeds a floor tries before the run gives up with an error.
pub const MAX_FLOOR_TRIES: u32 = 50;

/// The seed of try `attempt` (0-based) of floor `depth` of run `seed`: SplitMix64 mixes of
/// the run seed, the depth and the try ([`generator::sub_seed`]), so a floor depends on
/// nothing but these three numbers.
pub fn floor_seed(seed: u64, depth: u32, attempt: u32) -> u64 {
    generator::sub_seed(generator::sub_seed(seed, (1 << 20) + depth), attempt)
}

/// A floor ready to play.
#[derive(Debug, Clone)]
pub struct Floor {
    /// The depth table's row.
    pub params: DepthParams,
    /// Terrain only (floor, wall, nothing; the exit's tile is wall).
    pub terrain: World,
    /// Where the upkeeper starts.
    pub avatar: Pos,
    /// The exit door.
    pub exit: Pos,
    /// Chests and traps, in row-major order of their tiles; none handled.
    pub features: Vec<Feature>,
    /// Each feature's seclusion in tiles, in the order of `features`: half the steps a walk
    /// from the start into the exit adds to pass by its tile, over the open tiles as made
    /// (before any trap), `(d(start, f) + d(f, exit) − d(start, exit)) / 2` rounded down.
    /// For a feature at the end of a side way `k` tiles off the critical path it is `k`
    /// (Cogmind's seclusion); unlike the distance from one critical path it has no ties to
    /// break. A feature's points grow with it ([`super::feature_points`]).
    pub seclusion: Vec<u32>,
    /// The allowance, direct distance, par and accepted try.
    pub info: FloorInfo,
    /// The floor's random generator after making it.
    pub rng: GameRng,
}

/// Makes floor `depth` of a run of `floors` floors from run seed `seed`, at most
/// `max_width × max_height` tiles, with the flags' `base` settings.
///
/// # Errors
/// [`GenerateError`] for bad sizes or settings, requirements no try met, or
/// [`GenerateError::NoFloorFits`] when no try's route fits its allowance.
pub fn make(
    seed: u64,
    depth: u32,
    floors: u32,
    max_width: usize,
    max_height: usize,
    base: &GeneratorSettings,
) -> Result<Floor, GenerateError> {
    let params = depth::params(depth, floors, max_width, max_height, base);
    // Progress (`byog_worlds::progress`): the world is the first part of a floor's; the
    // placement reports its stages. One check of the thread's watch a floor.
    let watched = progress::is_watched();
    let stage = |stage, within| {
        if watched {
            progress::report(stage, within);
        }
    };
    for attempt in 0..MAX_FLOOR_TRIES {
        let generated = progress::part(0.0, progress::FLOOR_WORLD_SHARE, || {
            generator::generate_for_seed(
                floor_seed(seed, depth, attempt),
                params.width,
                params.height,
                &params.settings,
            )
        })
        .map_err(|e| match e {
            GenerateError::RequirementsUnmet {
                tries,
                requirement,
                failures,
                closest,
                ..
            } => GenerateError::FloorRequirementsUnmet {
                seed,
                floor: depth,
                width: params.width,
                height: params.height,
                tries,
                requirement,
                failures,
                closest,
            },
            mut unmet @ GenerateError::LootQuestUnmet { .. } => {
                if let GenerateError::LootQuestUnmet { floor, .. } = &mut unmet {
                    *floor = Some(depth);
                }
                unmet
            }
            other => other,
        })?;
        let mut rng = generated.rng;
        let level = generated.level;
        let (avatar, exit) = (level.avatar, level.exit);
        let terrain = terrain_under(level.world, avatar, exit);
        stage(Stage::Paths, 0.0);
        let (grid, open) = Grid::walkable_mask(&terrain);
        let (features, seclusion) = place(
            grid, &open, &terrain, avatar, exit, &params, &mut rng, &stage,
        );
        stage(Stage::Check, 0.0);
        if !solvable(grid, &open, avatar, exit, &features) {
            debug_assert!(false, "placement keeps the floor solvable");
            continue;
        }
        stage(Stage::Route, 0.0);
        let legs = Legs::of_floor(grid, &open, &features, avatar, exit, &level.rooms);
        let plan = legs.plan();
        let direct = legs.direct().unwrap_or(u64::MAX);
        let allowance = plan.full_cost().saturating_mul(params.budget_percent) / 100;
        if plan.full_cost() <= allowance {
            stage(Stage::Route, 1.0);
            return Ok(Floor {
                params,
                terrain,
                avatar,
                exit,
                features,
                seclusion,
                info: FloorInfo {
                    attempt,
                    allowance,
                    direct,
                    par: plan.full_cost(),
                },
                rng,
            });
        }
    }
    Err(GenerateError::NoFloorFits {
        seed,
        floor: depth,
        tries: MAX_FLOOR_TRIES,
    })
}

/// Whether each padded cell's eight neighbours are all open (a trap there leaves a ring of
/// open tiles round it, so it cuts nothing).
fn ringed(grid: Grid, open: &[bool], i: usize) -> bool {
    let w = grid.width;
    [
        i - w - 1,
        i - w,
        i - w + 1,
        i - 1,
        i + 1,
        i + w - 1,
        i + w,
        i + w + 1,
    ]
    .iter()
    .all(|&n| open[n])
}

/// Places the depth table's traps and chests (steps 2 and 3 of the module documentation),
/// telling `stage` when each begins.
#[allow(clippy::too_many_arguments)]
fn place<R: Rng + ?Sized>(
    grid: Grid,
    open: &[bool],
    terrain: &World,
    avatar: Pos,
    exit: Pos,
    params: &DepthParams,
    rng: &mut R,
    stage: &dyn Fn(Stage, f32),
) -> (Vec<Feature>, Vec<u32>) {
    let n = grid.len();
    let (Some(a), Some(e)) = (grid.index(avatar), grid.index(exit)) else {
        return (Vec::new(), Vec::new());
    };
    // The critical path and every tile's distance from it.
    let mut dist = vec![UNREACHED; n];
    bfs(grid, open, &[a], &mut dist);
    let path: Vec<usize> = path_into(grid, &dist, e)
        .unwrap_or_else(|| vec![a])
        .into_iter()
        .filter(|&i| open[i])
        .collect();
    let from_start = dist;
    let mut from_path = vec![UNREACHED; n];
    bfs(grid, open, &path, &mut from_path);
    // Never on the start or in front of the exit.
    let mut taken = vec![false; n];
    taken[a] = true;
    for f in grid.neighbours(e) {
        taken[f] = true;
    }

    // Traps: nearest the path first, corridors and junctions before ringed (room) tiles,
    // ties at random. The blocks of the open tiles are found once; whether a candidate cuts
    // the tiles that remain is then asked of its block alone.
    stage(Stage::Traps, 0.0);
    let mut blocks = Blocks::new(grid, open.to_vec());
    let candidates = Candidates::new(
        n,
        |i| open[i] && !taken[i] && !blocks.was_cut(i) && from_path[i] != UNREACHED,
        |i| (from_path[i], ringed(grid, open, i)),
        rng,
    );
    let mut traps: Vec<usize> = Vec::with_capacity(params.traps as usize);
    for (ring, i) in candidates {
        if traps.len() == params.traps as usize {
            break;
        }
        let near = |t: usize| {
            let (p, q) = (grid.pos(t), grid.pos(i));
            p.x.abs_diff(q.x) <= 2 && p.y.abs_diff(q.y) <= 2
        };
        if traps.iter().any(|&t| near(t)) {
            continue;
        }
        if !ring && blocks.cuts_now(i) {
            continue;
        }
        traps.push(i);
        blocks.close(i);
        taken[i] = true;
    }

    drop(blocks);

    // Chests: one a room, the most secluded rooms first (ties at random).
    stage(Stage::Chests, 0.0);
    let ids = room_labels(grid, open);
    let room_count = ids
        .iter()
        .filter(|&&r| r != NO_ROOM)
        .max()
        .map_or(0, |&m| m + 1);
    // Each room's cells, in row-major order (a padded grid has under 2³² cells).
    let mut room_tiles: Vec<Vec<u32>> = vec![Vec::new(); room_count as usize];
    for (i, &r) in ids.iter().enumerate() {
        if r != NO_ROOM {
            room_tiles[r as usize].push(i as u32);
        }
    }
    drop(ids);
    // A LootQuest floor puts its chests in the dead-end rooms first, the deepest first: the
    // rooms its branches lead to, away from the critical path (0 for every room otherwise).
    let dead_end: Vec<u32> = if params.settings.generator == GeneratorKind::LootQuest {
        room_paths(terrain, avatar, exit)
            .dead_end
            .iter()
            .map(|d| d.unwrap_or(0))
            .collect()
    } else {
        Vec::new()
    };
    let mut rooms: Vec<(Reverse<u32>, Reverse<u32>, u32, usize)> = room_tiles
        .iter()
        .enumerate()
        .filter(|(_, tiles)| !tiles.is_empty())
        .map(|(r, tiles)| {
            let seclusion = tiles
                .iter()
                .map(|&i| from_path[i as usize])
                .min()
                .unwrap_or(UNREACHED);
            let depth = dead_end.get(r).copied().unwrap_or(0);
            (Reverse(depth), Reverse(seclusion), rng.random::<u32>(), r)
        })
        .collect();
    rooms.sort_unstable();
    let mut chests: Vec<usize> = Vec::with_capacity(params.chests as usize);
    // A floor without rooms takes its chests anywhere.
    let all_open: Vec<u32> = if rooms.is_empty() {
        (0..n).filter(|&i| open[i]).map(|i| i as u32).collect()
    } else {
        Vec::new()
    };
    for k in 0..params.chests as usize {
        let pool: &[u32] = match rooms.get(k % rooms.len().max(1)) {
            Some(&(_, _, _, r)) => &room_tiles[r],
            None => &all_open,
        };
        if let Some(i) = pick_free(pool, &taken, rng) {
            chests.push(i);
            taken[i] = true;
        }
    }

    let mut features: Vec<Feature> = traps
        .iter()
        .map(|&i| (i, FeatureKind::Trap))
        .chain(chests.iter().map(|&i| (i, FeatureKind::Chest)))
        .map(|(i, kind)| Feature {
            pos: grid.pos(i),
            kind,
            handled: false,
            paid: false,
        })
        .collect();
    features.sort_unstable_by_key(|f| (f.pos.y, f.pos.x));
    // Each feature's seclusion: half the steps a walk from the start into the exit adds to
    // pass by its tile (over the open tiles, before any trap: the critical path's measure).
    let doors: Vec<usize> = grid
        .neighbours(e)
        .into_iter()
        .filter(|&i| open[i])
        .collect();
    let mut from_exit = vec![UNREACHED; n];
    bfs(grid, open, &doors, &mut from_exit);
    let direct = doors.iter().map(|&i| from_start[i]).min().unwrap_or(0);
    let seclusion = features
        .iter()
        .map(|f| match grid.index(f.pos) {
            Some(i) if from_start[i] != UNREACHED && from_exit[i] != UNREACHED => {
                (from_start[i] + from_exit[i]).saturating_sub(direct) / 2
            }
            _ => 0,
        })
        .collect();
    (features, seclusion)
}

/// The trap candidates in order of `(distance from the path, ringed, random draw, cell)`,
/// sorted lazily: a counting sort puts them in groups of equal distance and ring, and each
/// group is sorted by its draws (then cells) only when the placement reaches it (it usually
/// stops within the first few).
struct Candidates {
    /// `(draw, cell)` packed as `draw << 32 | cell`, by group.
    keys: Vec<u64>,
    /// Where each group starts in `keys` (and where the last ends): group `2d + r` holds
    /// the candidates at distance `d`, ringed when `r` is 1.
    starts: Vec<usize>,
    /// Groups entered so far, where the current one ends, and the next key to read.
    entered: usize,
    end: usize,
    next: usize,
}

impl Candidates {
    /// The candidates among cells `0..n`: the cells where `is_candidate` holds, each with
    /// its distance from the path and whether it is ringed (`place`). Each candidate draws
    /// its tie-breaker from `rng`, in the order of the cells. Two passes over the cells (the
    /// groups counted and each candidate's noted, 4 bytes a candidate; then the keys filled
    /// in), so a candidate keeps nothing but its key.
    fn new<R: Rng + ?Sized>(
        n: usize,
        is_candidate: impl Fn(usize) -> bool,
        place: impl Fn(usize) -> (u32, bool),
        rng: &mut R,
    ) -> Candidates {
        let mut starts: Vec<usize> = Vec::new();
        let mut groups: Vec<u32> = Vec::new();
        for i in (0..n).filter(|&i| is_candidate(i)) {
            let (d, ring) = place(i);
            let g = d as usize * 2 + usize::from(ring);
            if starts.len() < g + 2 {
                starts.resize(g + 2, 0);
            }
            starts[g + 1] += 1;
            groups.push(g as u32);
        }
        for g in 1..starts.len() {
            starts[g] += starts[g - 1];
        }
        let mut keys = vec![0u64; groups.len()];
        let mut fill = starts.clone();
        for (i, &g) in (0..n).filter(|&i| is_candidate(i)).zip(&groups) {
            let g = g as usize;
            debug_assert!(i <= u32::MAX as usize, "a padded grid has under 2³² cells");
            keys[fill[g]] = u64::from(rng.random::<u32>()) << 32 | i as u64;
            fill[g] += 1;
        }
        Candidates {
            keys,
            starts,
            entered: 0,
            end: 0,
            next: 0,
        }
    }
}

impl Iterator for Candidates {
    /// Whether the candidate is ringed, and its cell.
    type Item = (bool, usize);

    fn next(&mut self) -> Option<(bool, usize)> {
        // At the end of a group: into the next one that is not empty, sorting it.
        while self.next == self.end {
            if self.entered + 1 >= self.starts.len() {
                return None;
            }
            self.end = self.starts[self.entered + 1];
            self.entered += 1;
            self.keys[self.next..self.end].sort_unstable();
        }
        let key = self.keys[self.next];
        self.next += 1;
        let ring = (self.entered - 1) % 2 == 1;
        Some((ring, (key & u64::from(u32::MAX)) as usize))
    }
}

/// A random free cell of `pool`: a uniform draw, then the next free cell after it.
fn pick_free<R: Rng + ?Sized>(pool: &[u32], taken: &[bool], rng: &mut R) -> Option<usize> {
    if pool.is_empty() {
        return None;
    }
    let start = rng.random_range(0..pool.len() as u32) as usize;
    (0..pool.len())
        .map(|k| pool[(start + k) % pool.len()] as usize)
        .find(|&i| !taken[i])
}

/// The solvability invariant of docs/runs.md, in one flood fill: with every trap tile
/// removed, the open tiles left are all connected to the start, every trap touches one of
/// them, and so does the exit.
pub fn is_solvable(terrain: &World, avatar: Pos, exit: Pos, features: &[Feature]) -> bool {
    let (grid, open) = Grid::walkable_mask(terrain);
    solvable(grid, &open, avatar, exit, features)
}

/// [`is_solvable`] on the padded walkable mask `open` of the floor's terrain.
fn solvable(grid: Grid, open: &[bool], avatar: Pos, exit: Pos, features: &[Feature]) -> bool {
    let traps: Vec<usize> = features
        .iter()
        .filter(|f| f.kind == FeatureKind::Trap)
        .filter_map(|f| grid.index(f.pos))
        .collect();
    // 0: closed (or a trap), 1: open, 2: reached from the start.
    let mut state: Vec<u8> = open.iter().map(|&o| u8::from(o)).collect();
    for &t in &traps {
        state[t] = 0;
    }
    let Some(a) = grid.index(avatar).filter(|&a| state[a] == 1) else {
        return false;
    };
    let open_tiles = state.iter().filter(|&&s| s == 1).count();
    state[a] = 2;
    let mut stack = vec![a];
    let mut reached = 1;
    while let Some(i) = stack.pop() {
        for n in grid.neighbours(i) {
            if state[n] == 1 {
                state[n] = 2;
                reached += 1;
                stack.push(n);
            }
        }
    }
    let touches = |i: usize| grid.neighbours(i).iter().any(|&n| state[n] == 2);
    reached == open_tiles
        && traps.iter().all(|&t| touches(t))
        && grid.index(exit).is_some_and(touches)
}
