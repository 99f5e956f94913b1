//! The state of one game: the terrain, the things on it (the avatar and the exit), the random
//! generator, the status and the history of actions. Everything the future of a game depends
//! on is here, so a save of it continues exactly where it stopped
//! (`docs/keys.md`, `docs/saves.md`).
//!
//! Terrain and things are kept apart: the terrain grid holds only terrain (floor, wall,
//! nothing; the exit's tile is wall), the avatar and the exit are positions, and one compose
//! step ([`GameState::compose`]) draws them together into the [`World`] that `to_string`,
//! the renderers and the snapshots use.

use rand_pcg::Pcg64;

use super::action::Action;
use super::explore::{ExploreSettings, ExploreState};
use super::generator::{self, GenerateError, GeneratorSettings};
use super::rules::{self, Events};
use super::run::{self, Feature, RunState};
use crate::tile_engine::fov::{self, Visibility};
use crate::tile_engine::{Map, Pos, Rect, Tile, World};

/// Default world width in tiles (Java `Game.WIDTH`).
pub const WIDTH: usize = 80;
/// Default world height in tiles (Java `Game.HEIGHT`).
pub const HEIGHT: usize = 30;
/// Largest seed: Java's `Long.MAX_VALUE`, so every seed a Java input string accepts works.
pub const MAX_SEED: u64 = i64::MAX as u64;

/// The random generator of a game: PCG XSL RR 128/64 (`rand_pcg::Pcg64`), seeded with
/// `Pcg64::seed_from_u64(seed)`.
pub type GameRng = Pcg64;

/// Whether the game is still being played. A game that is not [`LevelStatus::Playing`] has
/// *ended* (`docs/keys.md`): moves are refused, `N` starts a new game and
/// `:Q` still saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LevelStatus {
    /// The exit has not been reached.
    Playing,
    /// The avatar walked into the exit (of the last floor, in a run); it is now an
    /// UNLOCKED_DOOR.
    Won,
    /// A run ran out of moves or of health.
    Lost,
}

/// One game: a generated world and everything that happened since `N<seed>S`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameState {
    pub(crate) seed: u64,
    pub(crate) settings: GeneratorSettings,
    /// Terrain only: FLOOR, WALL and NOTHING (the exit's tile is WALL).
    pub(crate) terrain: World,
    pub(crate) avatar: Pos,
    pub(crate) exit: Pos,
    pub(crate) rng: GameRng,
    pub(crate) status: LevelStatus,
    /// Steps taken (bumps into walls are not steps).
    pub(crate) moves: u64,
    /// Every action that changed the game, in order.
    pub(crate) actions: Vec<Action>,
    /// The current floor's chests and traps (none in a classic game), in row-major order.
    pub(crate) features: Vec<Feature>,
    /// The run's state, for a run (`R<seed>S`).
    pub(crate) run: Option<RunState>,
    /// Tiles the avatar has stood on, on this floor (each looked around once).
    pub(crate) visited: Vec<bool>,
    /// Tiles seen from any of them: the memory of the floor (docs/sight.md).
    pub(crate) seen: Vec<bool>,
    /// The exploration, for an exploration (`E<seed>S`): its rooms hold its tiles, things
    /// and memory, so `terrain`, `features`, `visited` and `seen` stay empty and `avatar`
    /// and `exit` unused; the accessors below answer from it, in its map's frame.
    pub(crate) explore: Option<Box<ExploreState>>,
}

/// The terrain under a world whose avatar and exit are drawn in as tiles: FLOOR under the
/// avatar and WALL under the exit, as the generator carved them. Generation, run floors and
/// version-1 saves lift their things off the tiles with it.
pub(crate) fn terrain_under(mut world: World, avatar: Pos, exit: Pos) -> World {
    world.set(avatar, Tile::Floor);
    world.set(exit, Tile::Wall);
    world
}

/// The light radius, in tiles: how far the avatar sees (Euclidean).
pub const SIGHT_RADIUS: u32 = 8;

/// How a tile stands in the avatar's sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Light {
    /// Never seen: not drawn.
    Unseen,
    /// Seen before, out of sight now: drawn dimmed.
    Remembered,
    /// In sight now.
    Visible,
}

impl GameState {
    /// The game `N<seed>S` starts: a `width × height` world generated from a `Pcg64` seeded
    /// with `seed` (retried with derived seeds while it misses `settings.requirements`, see
    /// [`generator::generate_for_seed`]). The generator then lives on in the game (and in its
    /// saves).
    ///
    /// # Errors
    /// [`GenerateError`] for a size or setting out of range, or requirements no try met.
    pub fn new(
        seed: u64,
        width: usize,
        height: usize,
        settings: GeneratorSettings,
    ) -> Result<GameState, GenerateError> {
        let generated = generator::generate_for_seed(seed, width, height, &settings)?;
        Ok(GameState::from_generated(seed, settings, generated))
    }

    /// The game at its start on a world [`generator::generate_for_seed`] made for `seed` with
    /// `settings`: the avatar and the exit are lifted off the tiles into things (the terrain
    /// keeps FLOOR under the avatar and WALL under the exit, as the generator carved them),
    /// and the generator lives on in the game.
    pub fn from_generated(
        seed: u64,
        settings: GeneratorSettings,
        generated: generator::Generated,
    ) -> GameState {
        let generator::Generated { dungeon, rng, .. } = generated;
        let terrain = terrain_under(dungeon.world, dungeon.avatar, dungeon.exit);
        GameState {
            seed,
            settings,
            terrain,
            avatar: dungeon.avatar,
            exit: dungeon.exit,
            rng,
            status: LevelStatus::Playing,
            moves: 0,
            actions: Vec::new(),
            features: Vec::new(),
            run: None,
            visited: Vec::new(),
            seen: Vec::new(),
            explore: None,
        }
        .looked_around()
    }

    /// The exploration `E<seed>S` starts (`docs/explore.md`): the start room
    /// alone, its four exits unexplored, the avatar on its centre. `settings` are recorded
    /// (an exploration's rooms do not use the world generator); `explore` holds
    /// `--max-unexplored` and `--branch-timer`.
    ///
    /// # Errors
    /// [`GenerateError::InvalidSettings`] for settings out of range.
    pub fn new_exploration(
        seed: u64,
        settings: GeneratorSettings,
        explore: ExploreSettings,
    ) -> Result<GameState, GenerateError> {
        settings.validate()?;
        let state = ExploreState::new(seed, explore)
            .map_err(|e| GenerateError::InvalidSettings(e.to_string()))?;
        Ok(GameState {
            seed,
            settings,
            terrain: World::new(0, 0),
            avatar: Pos::new(0, 0),
            exit: Pos::new(0, 0),
            rng: rand::SeedableRng::seed_from_u64(seed),
            status: LevelStatus::Playing,
            moves: 0,
            actions: Vec::new(),
            features: Vec::new(),
            run: None,
            visited: Vec::new(),
            seen: Vec::new(),
            explore: Some(Box::new(state)),
        })
    }

    /// The run `R<seed>S` starts (`docs/runs.md`): `floors` floors (1..=99)
    /// of at most `width × height` tiles, made from `seed` and the depth table
    /// ([`run::depth`]); the game is on B1. Every floor is made once here, so a run that
    /// cannot be made fails now, with a clear error, never mid-run.
    ///
    /// # Errors
    /// [`GenerateError`] for bad sizes, settings or floor count, or a floor no try fits.
    pub fn new_run(
        seed: u64,
        width: usize,
        height: usize,
        settings: GeneratorSettings,
        floors: u32,
    ) -> Result<GameState, GenerateError> {
        generator::check_size(width, height)?;
        settings.validate()?;
        if !(1..=run::MAX_FLOORS).contains(&floors) {
            return Err(GenerateError::InvalidSettings(format!(
                "--floors {floors} is out of range: it takes 1..={}",
                run::MAX_FLOORS
            )));
        }
        let first = run::floor::make(seed, 1, floors, width, height, &settings)?;
        for depth in 2..=floors {
            run::floor::make(seed, depth, floors, width, height, &settings)?;
        }
        Ok(GameState {
            seed,
            settings,
            terrain: first.terrain,
            avatar: first.avatar,
            exit: first.exit,
            rng: first.rng,
            status: LevelStatus::Playing,
            moves: 0,
            actions: Vec::new(),
            features: first.features,
            visited: Vec::new(),
            seen: Vec::new(),
            explore: None,
            run: Some(RunState {
                floors,
                floor: 1,
                max_width: width as u32,
                max_height: height as u32,
                moves_left: first.info.allowance,
                health: run::START_HEALTH,
                score: 0,
                perfect_floors: 0,
                info: first.info,
                loss: None,
            }),
        }
        .looked_around())
    }

    /// This game with its floor's memory reset and the avatar's first look taken.
    pub(crate) fn looked_around(mut self) -> GameState {
        self.forget();
        self.look();
        self
    }

    /// The floor's memory rebuilt by replaying the history from the start (saves written
    /// before memory was saved); if the replay does not end where this game is, only what
    /// the avatar sees from where it stands.
    pub(crate) fn with_memory_from_history(mut self) -> GameState {
        let rebuilt = match self.run {
            Some(r) => GameState::new_run(
                self.seed,
                r.max_width as usize,
                r.max_height as usize,
                self.settings,
                r.floors,
            ),
            None => GameState::new(
                self.seed,
                self.terrain.width(),
                self.terrain.height(),
                self.settings,
            ),
        };
        if let Ok(mut replayed) = rebuilt {
            for &a in &self.actions {
                replayed.apply(a);
            }
            if replayed.terrain == self.terrain
                && replayed.avatar == self.avatar
                && replayed.features == self.features
            {
                self.visited = replayed.visited;
                self.seen = replayed.seen;
                return self;
            }
        }
        self.looked_around()
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

    /// [`GameState::look`] with the avatar's tile index already known.
    #[inline(always)]
    pub(crate) fn look_at(&mut self, i: usize) {
        if let Some(v) = self.visited.get_mut(i)
            && !*v
        {
            *v = true;
            self.look_from_new_tile();
        }
    }

    /// The field of view from the avatar's tile, marked as seen (at most once a tile).
    #[cold]
    #[inline(never)]
    fn look_from_new_tile(&mut self) {
        let w = self.terrain.width();
        let mut lit = Vec::with_capacity(256);
        fov::compute(self, self.avatar, SIGHT_RADIUS, &mut |p| lit.push(p));
        for p in lit {
            self.seen[p.y as usize * w + p.x as usize] = true;
        }
    }

    /// The tile index of `pos` when the avatar can stand there (terrain walkable).
    #[inline(always)]
    pub(crate) fn walkable_index(&self, pos: Pos) -> Option<usize> {
        let i = self.terrain.checked_index(pos)?;
        self.terrain.tiles()[i].is_walkable().then_some(i)
    }

    /// What the avatar sees now (symmetric shadowcasting, [`SIGHT_RADIUS`]).
    pub fn visibility(&self) -> Visibility {
        let mut v = Visibility::default();
        v.update(self, self.avatar(), SIGHT_RADIUS);
        v
    }

    /// Whether `pos` has been seen on this floor.
    pub fn has_seen(&self, pos: Pos) -> bool {
        if let Some(e) = &self.explore {
            return self.rect().contains(pos) && e.has_seen(self.to_dungeon(pos));
        }
        self.terrain.contains(pos) && self.seen[self.terrain.index(pos)]
    }

    /// How `pos` stands in sight, given the current [`GameState::visibility`].
    pub fn light(&self, visible: &Visibility, pos: Pos) -> Light {
        if visible.is_visible(pos) {
            Light::Visible
        } else if self.has_seen(pos) {
            Light::Remembered
        } else {
            Light::Unseen
        }
    }

    /// The compose step with sight: as [`GameState::compose`], but tiles never seen are
    /// NOTHING (drawn as blank). What is remembered is drawn as it is now.
    pub fn compose_seen(&self, area: Rect) -> World {
        let area = area.intersection(&self.rect());
        let mut world = self.compose(area);
        for (i, t) in world.tiles_mut().iter_mut().enumerate() {
            let (x, y) = (i % area.width as usize, i / area.width as usize);
            if !self.has_seen(Pos::new(area.x + x as i32, area.y + y as i32)) {
                *t = Tile::Nothing;
            }
        }
        world
    }

    /// Applies one action by the [`rules`] and returns what happened.
    // Inlined into the interpreter: returning the events through memory costs a
    // store-forwarding stall a key (replay/1M_moves 35 -> 20 ms: docs/performance.md).
    #[inline(always)]
    pub fn apply(&mut self, action: Action) -> Events {
        rules::apply(self, action)
    }

    /// The seed the world was generated from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The generator settings the world was made with.
    pub fn settings(&self) -> &GeneratorSettings {
        &self.settings
    }

    /// The terrain alone: FLOOR, WALL and NOTHING, no avatar, no exit.
    pub fn terrain(&self) -> &World {
        &self.terrain
    }

    /// The composed world: the terrain with the exit and the avatar drawn in (the world
    /// `to_string`, the renderers and the snapshots show). Composes the whole world; see
    /// [`GameState::compose`] for a part of it.
    pub fn world(&self) -> World {
        self.compose(self.rect())
    }

    /// The world's rectangle, `(0, 0)` at its bottom-left, in tiles: the terrain's, or for
    /// an exploration the frame of the avatar's map (it grows as rooms are made, and changes
    /// when the avatar changes maps: see [`GameState::origin`]).
    pub fn rect(&self) -> Rect {
        match &self.explore {
            Some(e) => {
                let f = e.frame();
                Rect::new(0, 0, f.width, f.height)
            }
            None => self.terrain.rect(),
        }
    }

    /// Where the world's `(0, 0)` lies in the dungeon's tiles: always `(0, 0)` but in an
    /// exploration, whose frame moves as its map grows or changes. A front-end that keeps a
    /// camera shifts it by the change, so the view does not jump.
    pub fn origin(&self) -> Pos {
        match &self.explore {
            Some(e) => {
                let f = e.frame();
                Pos::new(f.x, f.y)
            }
            None => Pos::new(0, 0),
        }
    }

    /// A world position as the exploration's dungeon tile.
    fn to_dungeon(&self, pos: Pos) -> Pos {
        let o = self.origin();
        Pos::new(pos.x + o.x, pos.y + o.y)
    }

    /// A dungeon tile as a world position (in the current frame).
    fn in_frame(&self, pos: Pos) -> Pos {
        let o = self.origin();
        Pos::new(pos.x - o.x, pos.y - o.y)
    }

    /// The exploration, for an exploration.
    pub fn explore(&self) -> Option<&ExploreState> {
        self.explore.as_deref()
    }

    /// What kind of game this is, as `history` starts it: `N`, `R` or `E`.
    pub fn kind_key(&self) -> char {
        if self.explore.is_some() {
            'E'
        } else if self.run.is_some() {
            'R'
        } else {
            'N'
        }
    }

    /// An exploration's chests and traps in the avatar's map, in world positions (row by row
    /// from the bottom); a run's on its floor; none in a classic game.
    pub fn all_features(&self) -> Vec<Feature> {
        let Some(e) = &self.explore else {
            return self.features.clone();
        };
        let o = self.origin();
        e.features()
            .into_iter()
            .map(|f| Feature {
                pos: Pos::new(f.pos.x - o.x, f.pos.y - o.y),
                ..f
            })
            .collect()
    }

    /// The compose step: the tiles of `area` (clipped to the world) with the things drawn
    /// over the terrain: the exit as a LOCKED_DOOR (UNLOCKED_DOOR once won), then the avatar
    /// as PLAYER. The result is `area`'s size, its `(0, 0)` the area's bottom-left tile;
    /// drawing costs the area, never the whole world.
    pub fn compose(&self, area: Rect) -> World {
        if let Some(e) = &self.explore {
            return self.compose_exploration(e, area);
        }
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
        world.set(local(self.exit), self.door());
        world.set(local(self.avatar), Tile::Player);
        world
    }

    /// [`GameState::compose`] for an exploration: the rooms of the avatar's map painted over
    /// `area`, then the avatar.
    fn compose_exploration(&self, e: &ExploreState, area: Rect) -> World {
        let area = area.intersection(&self.rect());
        let (w, h) = (area.width as usize, area.height as usize);
        let mut world = World::new(w, h);
        let o = self.origin();
        let dungeon_area = Rect::new(area.x + o.x, area.y + o.y, area.width, area.height);
        e.paint_into(dungeon_area, world.tiles_mut());
        let avatar = e.avatar();
        if dungeon_area.contains(avatar) {
            world.set(
                Pos::new(avatar.x - dungeon_area.x, avatar.y - dungeon_area.y),
                Tile::Player,
            );
        }
        world
    }

    /// The exit's door: LOCKED_DOOR, UNLOCKED_DOOR once won.
    fn door(&self) -> Tile {
        match self.status {
            LevelStatus::Won => Tile::UnlockedDoor,
            LevelStatus::Playing | LevelStatus::Lost => Tile::LockedDoor,
        }
    }

    /// The current floor's chests and traps (empty in a classic game).
    pub fn features(&self) -> &[Feature] {
        &self.features
    }

    /// The run's state, for a run.
    pub fn run(&self) -> Option<&RunState> {
        self.run.as_ref()
    }

    /// The feature on `pos`, if any.
    pub fn feature_at(&self, pos: Pos) -> Option<&Feature> {
        self.features.iter().find(|f| f.pos == pos)
    }

    /// The avatar's tile.
    pub fn avatar(&self) -> Pos {
        match &self.explore {
            Some(e) => self.in_frame(e.avatar()),
            None => self.avatar,
        }
    }

    /// The exit's tile; an exploration's way up (in the start room).
    pub fn exit(&self) -> Pos {
        match &self.explore {
            Some(e) => self.in_frame(e.way_up()),
            None => self.exit,
        }
    }

    /// Whether the game is still played, or won.
    pub fn status(&self) -> LevelStatus {
        self.status
    }

    /// Whether the game has ended (won, or a run lost).
    pub fn has_ended(&self) -> bool {
        self.status != LevelStatus::Playing
    }

    /// Steps taken since the world was generated. A bump into a wall changes nothing and is
    /// not a step (`docs/keys.md`).
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The actions that changed the game, in order.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The canonical input string that reproduces this game from the menu: `N<seed>S` (a run:
    /// `R<seed>S`) and the key of every action since, upper case (ignored keys, bumps, colons
    /// and `:Q` left out).
    pub fn history(&self) -> String {
        let mut h = format!("{}{}S", self.kind_key(), self.seed);
        h.extend(self.actions.iter().map(|a| a.key()));
        h
    }

    /// The game's random generator (its state is part of every save).
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// What stands at `pos` for the player: the avatar, the exit or the terrain. The HUD's
    /// "tile under the mouse" uses it.
    pub fn tile_at(&self, pos: Pos) -> Option<Tile> {
        if let Some(e) = &self.explore {
            return self.rect().contains(pos).then(|| {
                let p = self.to_dungeon(pos);
                if p == e.avatar() {
                    Tile::Player
                } else {
                    e.tile_at(p)
                }
            });
        }
        if !self.terrain.contains(pos) {
            None
        } else if pos == self.avatar {
            Some(Tile::Player)
        } else if pos == self.exit {
            Some(self.door())
        } else if let Some(f) = self.feature_at(pos) {
            Some(f.tile())
        } else {
            self.terrain.get(pos)
        }
    }
}

/// A game is a map: its terrain, with the exit door blocking sight.
impl Map for GameState {
    fn width(&self) -> usize {
        self.rect().width as usize
    }

    fn height(&self) -> usize {
        self.rect().height as usize
    }

    fn is_walkable(&self, pos: Pos) -> bool {
        if self.explore.is_some() {
            return self.tile_at(pos).is_some_and(Tile::is_walkable);
        }
        self.terrain.is_walkable(pos)
    }

    fn blocks_sight(&self, pos: Pos) -> bool {
        self.tile_at(pos).is_none_or(Tile::blocks_sight)
    }

    fn walkable_row(&self, y: usize, out: &mut [bool]) {
        if self.explore.is_some() {
            for (x, o) in out.iter_mut().enumerate() {
                *o = self.is_walkable(Pos::new(x as i32, y as i32));
            }
            return;
        }
        self.terrain.walkable_row(y, out);
    }
}
