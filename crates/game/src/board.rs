//! What a game is played on: a [`Board`]. A classic game and a run are played on one
//! terrain grid with things on it ([`GridBoard`]); an exploration on rooms made as they are
//! entered ([`ExploreState`]). The game state holds one board and answers every question
//! (where the avatar is, what stands on a tile, what was seen) by asking it.
//!
//! Terrain and things are kept apart: the terrain grid holds only terrain (floor, wall,
//! nothing; the exit's tile is wall), the avatar, the exit and a run's chests and traps are
//! positions, and the compose step (`GridBoard::compose`, behind [`crate::GameState::compose`]) draws them together.

use super::base::SIGHT_RADIUS;
use super::explore::ExploreState;
use super::run::{Feature, RunState};
use byog_tile_engine::fov;
use byog_tile_engine::{Map, Pos, Rect, Tile, World};

/// What a game is played on.
// One board a game, moved only when a game is made or loaded: a grid's few more bytes than
// a boxed exploration cost nothing, and boxing it would cost a pointer chase every step.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Board {
    /// A classic game (`N`) or a run (`R`, with its [`RunState`]): one terrain grid.
    Grid(GridBoard),
    /// An exploration (`E`): its rooms hold its tiles, things and memory.
    Explore(Box<ExploreState>),
}

/// One terrain grid with things on it: a classic game's world or a run's current floor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridBoard {
    /// Terrain only: FLOOR, WALL and NOTHING (the exit's tile is WALL).
    pub(crate) terrain: World,
    /// The avatar's tile.
    pub(crate) avatar: Pos,
    /// The exit door's tile (set into a wall).
    pub(crate) exit: Pos,
    /// The floor's chests and traps (none in a classic game), in row-major order.
    pub(crate) features: Vec<Feature>,
    /// The run's state, for a run (`R<seed>S`).
    pub(crate) run: Option<RunState>,
    /// Tiles the avatar has stood on, on this floor (each looked around from once).
    pub(crate) visited: Vec<bool>,
    /// Tiles seen from any of them: the memory of the floor (`docs/sight.md`).
    pub(crate) seen: Vec<bool>,
    /// A run's features' seclusion in tiles, in the order of `features`, as the floor was
    /// made ([`crate::run::Floor::seclusion`]: a feature's points grow with it); empty in a
    /// classic game.
    pub(crate) seclusion: Vec<u32>,
}

impl GridBoard {
    /// A board on `terrain` with the avatar and the exit at their tiles, `features` on it,
    /// nothing seen yet but what the avatar sees from where it stands.
    pub(crate) fn new(
        terrain: World,
        avatar: Pos,
        exit: Pos,
        features: Vec<Feature>,
        run: Option<RunState>,
    ) -> GridBoard {
        let mut board = GridBoard {
            terrain,
            avatar,
            exit,
            features,
            run,
            visited: Vec::new(),
            seen: Vec::new(),
            seclusion: Vec::new(),
        };
        board.forget();
        board.look();
        board
    }

    /// Forgets what was seen (a new floor).
    pub(crate) fn forget(&mut self) {
        let n = self.terrain.tiles().len();
        self.visited = vec![false; n];
        self.seen = vec![false; n];
    }

    /// Marks what the avatar sees from its tile as seen, the first time it stands there.
    /// Sight from a tile never changes on a floor (only terrain and the exit door stop it),
    /// so each tile is looked from once: a million moves cost at most one look a tile.
    #[inline(always)]
    pub(crate) fn look(&mut self) {
        self.look_at(self.terrain.index(self.avatar));
    }

    /// [`GridBoard::look`] with the avatar's tile index already known.
    #[inline(always)]
    pub(crate) fn look_at(&mut self, i: usize) {
        if let Some(v) = self.visited.get_mut(i)
            && !*v
        {
            *v = true;
            self.look_from_new_tile();
        }
    }

    /// The field of view from the avatar's tile, marked as seen (at most once a tile): what
    /// blocks sight in the light radius' square is read off the terrain a row at a time.
    #[cold]
    #[inline(never)]
    fn look_from_new_tile(&mut self) {
        let (w, h) = (self.terrain.width() as i32, self.terrain.height() as i32);
        let r = SIGHT_RADIUS as i32;
        let (ax, ay) = (self.avatar.x, self.avatar.y);
        let mut patch = fov::Opacity::opaque(SIGHT_RADIUS);
        let side = patch.side();
        // The patch's columns over the terrain.
        let (i0, i1) = (
            (r - ax).max(0) as usize,
            (w - ax + r).min(side as i32) as usize,
        );
        let tiles = self.terrain.tiles();
        for j in 0..side {
            let y = ay + j as i32 - r;
            if !(0..h).contains(&y) || i0 >= i1 {
                patch.set_outside(j, 0, side);
                continue;
            }
            // The terrain's tiles under patch columns `i0..i1` of this row.
            let first = (y * w + ax - r + i0 as i32) as usize;
            let blocks = tiles[first..first + (i1 - i0)]
                .iter()
                .enumerate()
                .fold(0u32, |bits, (k, t)| {
                    bits | u32::from(t.blocks_sight()) << (i0 + k)
                });
            patch.set_row(j, blocks);
            patch.set_outside(j, 0, i0);
            patch.set_outside(j, i1, side);
        }
        let seen = &mut self.seen;
        fov::compute_in(&patch, self.avatar, &mut |p| {
            seen[(p.y * w + p.x) as usize] = true;
        });
    }

    /// The tile index of `pos` when the avatar can stand there (terrain walkable).
    #[inline(always)]
    pub(crate) fn walkable_index(&self, pos: Pos) -> Option<usize> {
        let i = self.terrain.checked_index(pos)?;
        self.terrain.tiles()[i].is_walkable().then_some(i)
    }

    /// The memory of the floor: whether each tile was seen, a `bool` a tile in the terrain's
    /// row-major order (bottom row first). Only the avatar's moves add to it, each within
    /// [`SIGHT_RADIUS`] tiles of the tile it reached.
    pub fn seen(&self) -> &[bool] {
        &self.seen
    }

    /// The tiles the avatar has stood on, on this floor, a `bool` a tile as
    /// [`GridBoard::seen`]: the avatar looked around from each of them once, the first time
    /// it stood there, and a move onto a tile not in it is the only thing that adds to
    /// [`GridBoard::seen`].
    pub fn visited(&self) -> &[bool] {
        &self.visited
    }

    /// Whether `pos` has been seen on this floor.
    pub(crate) fn has_seen(&self, pos: Pos) -> bool {
        self.terrain.contains(pos) && self.seen[self.terrain.index(pos)]
    }

    /// The feature on `pos`, if any.
    pub(crate) fn feature_at(&self, pos: Pos) -> Option<&Feature> {
        self.features.iter().find(|f| f.pos == pos)
    }

    /// The compose step: the tiles of `area` (clipped to the terrain) with the things drawn
    /// over it: the features, the exit as `door`, then the avatar as PLAYER. The result is
    /// `area`'s size, its `(0, 0)` the area's bottom-left tile.
    pub(crate) fn compose(&self, area: Rect, door: Tile) -> World {
        let area = area.intersection(&self.terrain.rect());
        let (w, h) = (area.width as usize, area.height as usize);
        let mut tiles = Vec::with_capacity(w * h);
        let tw = self.terrain.width();
        for y in area.y..area.top() {
            let start = y as usize * tw + area.x as usize;
            tiles.extend_from_slice(&self.terrain.tiles()[start..start + w]);
        }
        let mut world = World::from_tiles(w, h, tiles).unwrap_or_else(|| World::new(w, h));
        let local = |p: Pos| Pos::new(p.x - area.x, p.y - area.y);
        for f in &self.features {
            world.set(local(f.pos), f.tile());
        }
        world.set(local(self.exit), door);
        world.set(local(self.avatar), Tile::Player);
        world
    }

    /// The compose step with sight: [`GridBoard::compose`] with every tile never seen on
    /// this floor NOTHING, made in one pass over the terrain and the memory (a byte and a
    /// `bool` a tile) and then the things that stand on seen tiles. The result is `area`'s
    /// size (clipped to the terrain), its `(0, 0)` the area's bottom-left tile.
    pub(crate) fn compose_seen(&self, area: Rect, door: Tile) -> World {
        let area = area.intersection(&self.terrain.rect());
        let (w, h) = (area.width as usize, area.height as usize);
        let mut tiles = Vec::with_capacity(w * h);
        let tw = self.terrain.width();
        let terrain = self.terrain.tiles();
        for y in area.y..area.top() {
            let row = y as usize * tw + area.x as usize..y as usize * tw + area.x as usize + w;
            tiles.extend(
                terrain[row.clone()]
                    .iter()
                    .zip(&self.seen[row])
                    .map(|(&t, &seen)| if seen { t } else { Tile::Nothing }),
            );
        }
        let mut world = World::from_tiles(w, h, tiles).unwrap_or_else(|| World::new(w, h));
        self.draw_seen_things(&mut world, area, door);
        world
    }

    /// Brings `view`, this board's [`GridBoard::compose_seen`] of the whole terrain made
    /// earlier on this floor, up to date where terrain or memory may have changed since:
    /// the square of `radius` tiles each way round `at` (clipped to the terrain; `0`: the
    /// tile alone). The things are not redrawn ([`GridBoard::draw_seen_things`]).
    pub(crate) fn refresh_seen(&self, view: &mut World, at: Pos, radius: i32) {
        let (w, h) = (self.terrain.width() as i32, self.terrain.height() as i32);
        let (x0, x1) = (
            at.x.saturating_sub(radius).max(0),
            at.x.saturating_add(radius).saturating_add(1).min(w),
        );
        if x0 >= x1 {
            return;
        }
        let (tiles, seen) = (self.terrain.tiles(), &self.seen);
        let out = view.tiles_mut();
        let (y0, y1) = (
            at.y.saturating_sub(radius).max(0),
            at.y.saturating_add(radius).saturating_add(1).min(h),
        );
        for y in y0..y1 {
            let row = (y * w + x0) as usize..(y * w + x1) as usize;
            for ((v, &t), &s) in out[row.clone()]
                .iter_mut()
                .zip(&tiles[row.clone()])
                .zip(&seen[row])
            {
                *v = if s { t } else { Tile::Nothing };
            }
        }
    }

    /// Draws the things that stand on seen tiles over `world` (the tiles of `area`), in the
    /// compose step's order: the features, the exit as `door`, the avatar as PLAYER.
    pub(crate) fn draw_seen_things(&self, world: &mut World, area: Rect, door: Tile) {
        let mut draw = |p: Pos, t: Tile| {
            if area.contains(p) && self.has_seen(p) {
                world.set(Pos::new(p.x - area.x, p.y - area.y), t);
            }
        };
        for f in &self.features {
            draw(f.pos, f.tile());
        }
        draw(self.exit, door);
        draw(self.avatar, Tile::Player);
    }

    /// What stands at `pos`: the avatar, the exit as `door`, a feature or the terrain.
    pub(crate) fn tile_at(&self, pos: Pos, door: Tile) -> Option<Tile> {
        if !self.terrain.contains(pos) {
            None
        } else if pos == self.avatar {
            Some(Tile::Player)
        } else if pos == self.exit {
            Some(door)
        } else if let Some(f) = self.feature_at(pos) {
            Some(f.tile())
        } else {
            self.terrain.get(pos)
        }
    }
}

/// A grid board is a map: its terrain (the exit's tile is wall, so it blocks sight).
impl Map for GridBoard {
    fn width(&self) -> usize {
        self.terrain.width()
    }

    fn height(&self) -> usize {
        self.terrain.height()
    }

    fn is_walkable(&self, pos: Pos) -> bool {
        self.terrain.is_walkable(pos)
    }

    fn blocks_sight(&self, pos: Pos) -> bool {
        self.terrain.blocks_sight(pos)
    }

    fn walkable_row(&self, y: usize, out: &mut [bool]) {
        self.terrain.walkable_row(y, out);
    }
}

#[cfg(test)]
mod tests {
    use crate::action::Action;
    use crate::game::GameState;
    use byog_tile_engine::{Direction, Pos, Tile, World};
    use byog_worlds::generator::GeneratorSettings;

    /// The oracle: the whole world composed, each tile the game says was never seen blanked.
    fn seen_by_asking(game: &GameState) -> World {
        let mut world = game.world();
        for y in 0..world.height() as i32 {
            for x in 0..world.width() as i32 {
                let p = Pos::new(x, y);
                if !game.has_seen(p) {
                    world.set(p, Tile::Nothing);
                }
            }
        }
        world
    }

    /// A view kept with `refresh_seen` after each move (the tiles left and reached, the
    /// patch of sight round a first visit) is the one composed whole, which is the composed
    /// world with every unseen tile blanked; a part composed alone is that part of it. Over
    /// random walks in classic games and runs (down their floors, to their wins and losses).
    #[test]
    fn a_seen_view_kept_a_patch_at_a_time_is_the_one_composed_whole() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let settings = GeneratorSettings::default();
        let mut checked = 0;
        for seed in 0..6 {
            let mut game = if seed % 2 == 0 {
                GameState::new(seed, 40, 20, settings).unwrap()
            } else {
                GameState::new_run(seed, 30, 15, settings, 2).unwrap()
            };
            let mut view = game.compose_seen(game.rect());
            for _ in 0..1500 {
                if game.has_ended() {
                    break;
                }
                let before = (game.avatar(), game.run().map(|r| r.floor));
                let d = Direction::ALL[next(4) as usize];
                let target = game.avatar() + d;
                let first_visit = game.grid().is_some_and(|g| {
                    game.terrain().contains(target) && !g.visited()[game.terrain().index(target)]
                });
                game.apply(Action::Move(d));
                let whole = game.compose_seen(game.rect());
                if game.run().map(|r| r.floor) != before.1 {
                    view = whole;
                    continue;
                }
                let reached = game.avatar();
                let radius = if first_visit && reached == target {
                    crate::game::SIGHT_RADIUS
                } else {
                    0
                };
                assert!(game.refresh_seen(&mut view, &[(before.0, 0), (reached, radius)]));
                assert_eq!(view, whole, "seed {seed} after a move to {reached:?}");
                assert_eq!(whole, seen_by_asking(&game), "seed {seed}");
                checked += 1;
            }
            let part = byog_tile_engine::Rect::new(3, 2, 11, 7);
            let small = game.compose_seen(part);
            let whole = game.compose_seen(game.rect());
            for y in 0..7 {
                for x in 0..11 {
                    assert_eq!(
                        small.tile(Pos::new(x, y)),
                        whole.tile(Pos::new(x + 3, y + 2))
                    );
                }
            }
        }
        assert!(checked > 3000, "{checked}");
        // An exploration's view is composed whole: refresh_seen leaves it to the caller.
        let e = GameState::new_exploration(1, settings, Default::default()).unwrap();
        let mut view = e.compose_seen(e.rect());
        assert!(!e.refresh_seen(&mut view, &[]));
        assert_eq!(view, seen_by_asking(&e));
    }
}
