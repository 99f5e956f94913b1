//! The state of one game: the terrain, the things on it (the avatar and the exit), the random
//! generator, the status and the history of actions. Everything the future of a game depends
//! on is here, so a save of it continues exactly where it stopped
//! (`docs/keys.md`, `docs/saves.md`).
//!
//! Terrain and things are kept apart: the terrain grid holds only terrain (floor, wall,
//! nothing; the exit's tile is wall), the avatar and the exit are positions, and one compose
//! step ([`GameState::compose`]) draws them together into the [`World`] that `to_string`,
//! the renderers and the snapshots use.

use std::borrow::Cow;
use std::collections::VecDeque;

use super::action::Action;
use super::base::terrain_under;
pub use super::base::{GameKind, GameRng, MAX_SEED, SIGHT_RADIUS};
pub use super::board::{Board, GridBoard};
use super::explore::{ExploreSettings, ExploreState};
use super::run::{self, Feature, RunState};
use byog_tile_engine::fov::Visibility;
use byog_tile_engine::{Map, Pos, Rect, Tile, World};
use byog_worlds::generator::{self, GenerateError, GeneratorSettings, Setting};

/// Default world width in tiles (Java `Game.WIDTH`).
pub const WIDTH: usize = 80;
/// Default world height in tiles (Java `Game.HEIGHT`).
pub const HEIGHT: usize = 30;

/// Whether the game is still being played. A game that is not [`LevelStatus::Playing`] has
/// *ended* (`docs/keys.md`): moves are refused, `N` starts a new game and
/// `:Q` still saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LevelStatus {
    /// The exit has not been reached.
    Playing,
    /// The avatar walked into the exit (of the last floor, in a run); it is now an
    /// UNLOCKED_DOOR. An exploration: the avatar took the way up.
    Won,
    /// A run ran out of moves or of health; an exploration out of health.
    Lost,
}

impl LevelStatus {
    /// Its name in the game's JSON, the web server's messages and its database:
    /// `"playing"`, `"won"` or `"lost"` (the `status` field, `docs/json.md`). The one
    /// spelling of it.
    pub const fn name(self) -> &'static str {
        match self {
            LevelStatus::Playing => "playing",
            LevelStatus::Won => "won",
            LevelStatus::Lost => "lost",
        }
    }
}

/// The most messages a game's log keeps (`P`): the oldest goes when one more comes.
pub const LOG_LENGTH: usize = 100;
/// The longest message the log keeps, in characters; a longer one is cut to this many, its
/// last character replaced by `…`.
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// One game: what it is played on (its [`Board`]) and everything that happened since
/// `N<seed>S` (`R<seed>S`, `E<seed>S`).
///
/// Two games are equal when their play is: everything but the message log (what the player
/// was told about it, which replaying a history does not write) is compared.
#[derive(Debug, Clone)]
pub struct GameState {
    pub(crate) seed: u64,
    pub(crate) settings: GeneratorSettings,
    pub(crate) rng: GameRng,
    pub(crate) status: LevelStatus,
    /// Steps taken (bumps into walls are not steps).
    pub(crate) moves: u64,
    /// Every action that changed the game, in order.
    pub(crate) actions: Vec<Action>,
    /// The terrain and things, or the exploration's rooms.
    pub(crate) board: Board,
    /// What the player was told, oldest first, at most [`LOG_LENGTH`] messages (saves keep
    /// it from format 7 on).
    pub(crate) log: VecDeque<String>,
}

impl PartialEq for GameState {
    fn eq(&self, other: &GameState) -> bool {
        // Every field but `log`, destructured so a new field is not forgotten here.
        let GameState {
            seed,
            settings,
            rng,
            status,
            moves,
            actions,
            board,
            log: _,
        } = self;
        *seed == other.seed
            && *settings == other.settings
            && *rng == other.rng
            && *status == other.status
            && *moves == other.moves
            && *actions == other.actions
            && *board == other.board
    }
}

impl Eq for GameState {}

/// The terrain an exploration answers with (it keeps its tiles in its rooms).
static NO_TERRAIN: World = World::EMPTY;

/// How a tile stands in the avatar's sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SightState {
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
        let generator::Generated { level, rng, .. } = generated;
        let terrain = terrain_under(level.world, level.avatar, level.exit);
        GameState::on_board(
            seed,
            settings,
            rng,
            Board::Grid(GridBoard::new(
                terrain,
                level.avatar,
                level.exit,
                Vec::new(),
                None,
            )),
        )
    }

    /// A game at its start on `board`: playing, no moves, no history.
    fn on_board(seed: u64, settings: GeneratorSettings, rng: GameRng, board: Board) -> GameState {
        GameState {
            seed,
            settings,
            rng,
            status: LevelStatus::Playing,
            moves: 0,
            actions: Vec::new(),
            board,
            log: VecDeque::new(),
        }
    }

    /// The exploration `E<seed>S` starts (`docs/explore.md`): the start room alone, its four
    /// exits unexplored, the avatar on its centre. `settings` are recorded (an exploration's
    /// rooms do not use the world generator); `explore` holds `--max-unexplored` and
    /// `--branch-timer`.
    ///
    /// # Errors
    /// [`GenerateError::InvalidSetting`] for settings out of range.
    pub fn new_exploration(
        seed: u64,
        settings: GeneratorSettings,
        explore: ExploreSettings,
    ) -> Result<GameState, GenerateError> {
        settings.validate()?;
        let state = ExploreState::new(seed, explore).map_err(|e| match e {
            crate::explore::SettingsError::ZeroMaxUnexplored => GenerateError::invalid_setting(
                Setting::MaxUnexplored,
                0,
                1..=u64::from(crate::explore::MAX_MAX_UNEXPLORED),
            ),
        })?;
        Ok(GameState::on_board(
            seed,
            settings,
            rand::SeedableRng::seed_from_u64(seed),
            Board::Explore(Box::new(state)),
        ))
    }

    /// The run `R<seed>S` starts (`docs/runs.md`): `floors` floors (1..=99) of at most
    /// `width × height` tiles, made from `seed` and the depth table ([`run::depth`]); the
    /// game is on B1.
    ///
    /// Floors are made when they are reached: B1 now, each next one on the descent into it.
    /// Without requirements every floor can be made (a floor tries
    /// [`run::floor::MAX_FLOOR_TRIES`] derived seeds for a route that fits its budget, and
    /// none has ever needed a second: `docs/runs.md`), so only B1 is made here and a run of
    /// any size starts at the cost of its first floor. With requirements
    /// (`settings.requirements`) a later floor may miss them, so every floor is made once
    /// here and a run that cannot be made fails now, with a clear error, never mid-run.
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
        run::check_run(width, height, &settings, floors)?;
        let first = run::floor::make(seed, 1, floors, width, height, &settings)?;
        if settings.requirements != Default::default() {
            for depth in 2..=floors {
                run::floor::make(seed, depth, floors, width, height, &settings)?;
            }
        }
        let state = RunState {
            floors,
            floor: 1,
            max_width: width as u32,
            max_height: height as u32,
            // B1 is reached as if from a perfect floor above that carried down part of B1's
            // par (`docs/runs.md`).
            moves_left: run::start(&first.info, run::weights(&first.features)),
            health: run::START_HEALTH,
            score: 0,
            perfect_floors: 0,
            info: first.info,
            loss: None,
        };
        let mut board = GridBoard::new(
            first.terrain,
            first.avatar,
            first.exit,
            first.features,
            Some(state),
        );
        board.seclusion = first.seclusion;
        Ok(GameState::on_board(
            seed,
            settings,
            first.rng,
            Board::Grid(board),
        ))
    }

    /// What the game is played on.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The grid board of a classic game or a run; `None` for an exploration.
    pub fn grid(&self) -> Option<&GridBoard> {
        match &self.board {
            Board::Grid(g) => Some(g),
            Board::Explore(_) => None,
        }
    }

    /// The exploration, for an exploration.
    pub fn explore(&self) -> Option<&ExploreState> {
        match &self.board {
            Board::Explore(e) => Some(e),
            Board::Grid(_) => None,
        }
    }

    /// The exploration, to set a scenario up ([`ExploreState::add_monsters`]); `None` for a
    /// classic game or a run. The rules stay the only way play changes it.
    pub fn explore_mut(&mut self) -> Option<&mut ExploreState> {
        match &mut self.board {
            Board::Explore(e) => Some(e),
            Board::Grid(_) => None,
        }
    }

    /// The run's state, for a run.
    pub fn run(&self) -> Option<&RunState> {
        self.grid().and_then(|g| g.run.as_ref())
    }

    /// What kind of game this is: a classic game, a run or an exploration.
    pub fn kind(&self) -> GameKind {
        match &self.board {
            Board::Explore(_) => GameKind::Exploration,
            Board::Grid(g) if g.run.is_some() => GameKind::Run,
            Board::Grid(_) => GameKind::Classic,
        }
    }

    /// What the avatar sees now (symmetric shadowcasting, [`SIGHT_RADIUS`]).
    pub fn visibility(&self) -> Visibility {
        let mut v = Visibility::default();
        v.update(self, self.avatar(), SIGHT_RADIUS);
        v
    }

    /// Whether `pos` has been seen (on this floor; in an exploration, in the rooms of the
    /// avatar's map).
    pub fn has_seen(&self, pos: Pos) -> bool {
        match &self.board {
            Board::Grid(g) => g.has_seen(pos),
            Board::Explore(e) => self.rect().contains(pos) && e.has_seen(self.to_dungeon(pos)),
        }
    }

    /// How `pos` stands in sight, given the current [`GameState::visibility`].
    pub fn light(&self, visible: &Visibility, pos: Pos) -> SightState {
        if visible.is_visible(pos) {
            SightState::Visible
        } else if self.has_seen(pos) {
            SightState::Remembered
        } else {
            SightState::Unseen
        }
    }

    /// The compose step with sight: as [`GameState::compose`], but tiles never seen are
    /// NOTHING (drawn as blank). What is remembered is drawn as it is now.
    ///
    /// Of the whole world (`area` = [`GameState::rect`]) it is what the player sees: the
    /// view of `replay --view sight` and of the agent's observation. A classic game's or a
    /// run's is made in one pass over the terrain and the floor's memory; an exploration's
    /// asks each tile.
    pub fn compose_seen(&self, area: Rect) -> World {
        if let Board::Grid(g) = &self.board {
            return g.compose_seen(area, self.door());
        }
        let area = area.intersection(&self.rect());
        let mut world = self.compose(area);
        let aw = area.width as usize;
        for (i, t) in world.tiles_mut().iter_mut().enumerate() {
            let (x, y) = (i % aw, i / aw);
            if !self.has_seen(Pos::new(area.x + x as i32, area.y + y as i32)) {
                *t = Tile::Nothing;
            }
        }
        self.hide_unseen_monsters(area, &mut world);
        world
    }

    /// Brings `view`, this game's [`GameState::compose_seen`] of the whole world made earlier
    /// on the same floor, up to date when only the tiles near `changed` may differ since:
    /// each `(p, r)` is a world tile and a radius in tiles, the square of `r` tiles each way
    /// round `p` being where terrain or memory may have changed (`r` = [`SIGHT_RADIUS`]
    /// round a tile the avatar looked around from for the first time, 0 for a tile it only
    /// left or reached). The things (chests and traps, the exit's door, the avatar) are
    /// drawn again wherever seen. A step thus costs its patches, not a pass over the world.
    ///
    /// Returns `false`, leaving `view` as it was, for an exploration (its view is composed
    /// whole, [`GameState::compose_seen`]) or a `view` whose size is not the world's: the
    /// caller then composes the view anew.
    pub fn refresh_seen(&self, view: &mut World, changed: &[(Pos, u32)]) -> bool {
        let Board::Grid(g) = &self.board else {
            return false;
        };
        let rect = g.terrain.rect();
        if view.width() != g.terrain.width() || view.height() != g.terrain.height() {
            return false;
        }
        for &(p, r) in changed {
            g.refresh_seen(view, p, i32::try_from(r).unwrap_or(i32::MAX));
        }
        g.draw_seen_things(view, rect, self.door());
        true
    }

    /// The compose step for a player's view: as [`GameState::compose`], but an exploration's
    /// monsters are drawn only where the avatar sees them now (a remembered tile shows what
    /// stands there, never who). What the window and the terminal draw in sight.
    pub fn compose_in_sight(&self, area: Rect) -> World {
        let area = area.intersection(&self.rect());
        let mut world = self.compose(area);
        self.hide_unseen_monsters(area, &mut world);
        world
    }

    /// The monster at `pos` (a world position) if the avatar sees it now: what the HUD names
    /// under the mouse (a monster out of sight is never named).
    pub fn monster_in_sight(&self, pos: Pos) -> Option<crate::explore::Monster> {
        let Board::Explore(e) = &self.board else {
            return None;
        };
        let p = self.to_dungeon(pos);
        e.monster_at(p).filter(|_| e.in_sight(p)).copied()
    }

    /// The monsters the avatar sees now that act after the player's next action, as world
    /// positions with how many times each acts (1, or 2 for a bat): what the frame marks
    /// (`docs/monsters.md`, "Who acts next"). A slow monster on its idle turn, a sleeper or
    /// one out of sight is not among them; none in a run or a classic game.
    pub fn acting_next(&self) -> Vec<(Pos, u32)> {
        let Board::Explore(e) = &self.board else {
            return Vec::new();
        };
        let sight = e.sight();
        e.acting_next()
            .into_iter()
            .filter(|(m, _)| sight.contains(m.pos))
            .map(|(m, n)| (self.in_frame(m.pos), n))
            .collect()
    }

    /// Draws, over `world` (the tiles of `area`), each monster out of the avatar's sight as
    /// the tile it stands on.
    fn hide_unseen_monsters(&self, area: Rect, world: &mut World) {
        let Board::Explore(e) = &self.board else {
            return;
        };
        let o = self.origin();
        let mut sight = None;
        for m in e.monsters() {
            let p = self.in_frame(m.pos);
            if !area.contains(p) {
                continue;
            }
            if !sight.get_or_insert_with(|| e.sight()).contains(m.pos) {
                let local = Pos::new(p.x - area.x, p.y - area.y);
                let under = if self.has_seen(p) {
                    e.tile_at(Pos::new(p.x + o.x, p.y + o.y))
                } else {
                    Tile::Nothing
                };
                world.set(local, under);
            }
        }
    }

    /// The seed the world was generated from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The generator settings the world was made with.
    pub fn settings(&self) -> &GeneratorSettings {
        &self.settings
    }

    /// The terrain alone: FLOOR, WALL and NOTHING, no avatar, no exit; empty (0 × 0) for an
    /// exploration, whose rooms hold its tiles.
    pub fn terrain(&self) -> &World {
        match &self.board {
            Board::Grid(g) => &g.terrain,
            Board::Explore(_) => &NO_TERRAIN,
        }
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
        match &self.board {
            Board::Grid(g) => g.terrain.rect(),
            Board::Explore(e) => {
                let f = e.frame();
                Rect::new(0, 0, f.width, f.height)
            }
        }
    }

    /// Where the world's `(0, 0)` lies in the dungeon's tiles: always `(0, 0)` but in an
    /// exploration, whose frame moves as its map grows or changes. A front-end that keeps a
    /// camera shifts it by the change, so the view does not jump.
    pub fn origin(&self) -> Pos {
        match &self.board {
            Board::Grid(_) => Pos::new(0, 0),
            Board::Explore(e) => {
                let f = e.frame();
                Pos::new(f.x, f.y)
            }
        }
    }

    /// A world position as the exploration's dungeon tile.
    fn to_dungeon(&self, pos: Pos) -> Pos {
        let o = self.origin();
        Pos::new(pos.x + o.x, pos.y + o.y)
    }

    /// A dungeon tile as a world position (in the current frame).
    pub(crate) fn in_frame(&self, pos: Pos) -> Pos {
        let o = self.origin();
        Pos::new(pos.x - o.x, pos.y - o.y)
    }

    /// The chests and traps in world positions: a run's on its floor, an exploration's in
    /// the avatar's map (row by row from the bottom), none in a classic game.
    pub fn features(&self) -> Cow<'_, [Feature]> {
        match &self.board {
            Board::Grid(g) => Cow::Borrowed(&g.features),
            Board::Explore(e) => {
                let o = self.origin();
                Cow::Owned(
                    e.features()
                        .into_iter()
                        .map(|f| Feature {
                            pos: Pos::new(f.pos.x - o.x, f.pos.y - o.y),
                            ..f
                        })
                        .collect(),
                )
            }
        }
    }

    /// The compose step: the tiles of `area` (clipped to the world) with the things drawn
    /// over the terrain: the features, the exit as a LOCKED_DOOR (UNLOCKED_DOOR once won),
    /// then the avatar as PLAYER. The result is `area`'s size, its `(0, 0)` the area's
    /// bottom-left tile; drawing costs the area, never the whole world.
    pub fn compose(&self, area: Rect) -> World {
        match &self.board {
            Board::Grid(g) => g.compose(area, self.door()),
            Board::Explore(e) => {
                // The rooms of the avatar's map painted over `area`, then the avatar.
                let area = area.intersection(&self.rect());
                let (w, h) = (area.width as usize, area.height as usize);
                let mut world = World::new(w, h);
                let o = self.origin();
                let dungeon_area = Rect::new(area.x + o.x, area.y + o.y, area.width, area.height);
                e.paint_into(dungeon_area, world.tiles_mut());
                for m in e.monsters() {
                    if dungeon_area.contains(m.pos) {
                        world.set(
                            Pos::new(m.pos.x - dungeon_area.x, m.pos.y - dungeon_area.y),
                            m.kind.stats().tile,
                        );
                    }
                }
                let avatar = e.avatar();
                if dungeon_area.contains(avatar) {
                    world.set(
                        Pos::new(avatar.x - dungeon_area.x, avatar.y - dungeon_area.y),
                        Tile::Player,
                    );
                }
                world
            }
        }
    }

    /// The exit's door: LOCKED_DOOR, UNLOCKED_DOOR once won.
    fn door(&self) -> Tile {
        match self.status {
            LevelStatus::Won => Tile::UnlockedDoor,
            LevelStatus::Playing | LevelStatus::Lost => Tile::LockedDoor,
        }
    }

    /// The feature on `pos` (a world position), if any.
    pub fn feature_at(&self, pos: Pos) -> Option<Feature> {
        match &self.board {
            Board::Grid(g) => g.feature_at(pos).copied(),
            Board::Explore(_) => self.features().iter().find(|f| f.pos == pos).copied(),
        }
    }

    /// The avatar's tile.
    pub fn avatar(&self) -> Pos {
        match &self.board {
            Board::Grid(g) => g.avatar,
            Board::Explore(e) => self.in_frame(e.avatar()),
        }
    }

    /// The exit's tile; an exploration's way up (in the start room).
    pub fn exit(&self) -> Pos {
        match &self.board {
            Board::Grid(g) => g.exit,
            Board::Explore(e) => self.in_frame(e.way_up()),
        }
    }

    /// Health left: a run's or an exploration's (3 at the start); `None` in a classic game.
    pub fn health(&self) -> Option<u32> {
        match &self.board {
            Board::Grid(g) => g.run.map(|r| r.health),
            Board::Explore(e) => Some(e.health()),
        }
    }

    /// Points: a run's score or an exploration's (banked or carried); `None` in a classic
    /// game.
    pub fn score(&self) -> Option<u64> {
        match &self.board {
            Board::Grid(g) => g.run.map(|r| r.score),
            Board::Explore(e) => Some(e.score()),
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
    /// `R<seed>S`, an exploration `E<seed>S`) and the key of every action since, upper case
    /// (ignored keys, bumps, colons and `:Q` left out).
    pub fn history(&self) -> String {
        let mut h = format!("{}{}S", self.kind().key(), self.seed);
        h.extend(self.actions.iter().map(|a| a.key()));
        h
    }

    /// The message log (`P`): what the player was told during this game, oldest first, at
    /// most [`LOG_LENGTH`] messages. Saved with the game (format 7 on); a new game starts with
    /// an empty log, and replaying a history does not write one (the front-ends do).
    pub fn log(&self) -> &VecDeque<String> {
        &self.log
    }

    /// Appends `message` to the log, dropping the oldest beyond [`LOG_LENGTH`]; a message
    /// over [`MAX_MESSAGE_CHARS`] characters is cut, and an empty one is not kept.
    pub fn log_message(&mut self, message: impl Into<String>) {
        let mut message = message.into();
        if message.is_empty() {
            return;
        }
        if let Some((cut, _)) = message.char_indices().nth(MAX_MESSAGE_CHARS - 1) {
            message.truncate(cut);
            message.push('…');
        }
        if self.log.len() == LOG_LENGTH {
            self.log.pop_front();
        }
        self.log.push_back(message);
    }

    /// The game's random generator (its state is part of every save).
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// What stands at `pos` for the player: the avatar, the exit, a feature or the terrain.
    /// The HUD's "tile under the mouse" uses it.
    pub fn tile_at(&self, pos: Pos) -> Option<Tile> {
        match &self.board {
            Board::Grid(g) => g.tile_at(pos, self.door()),
            Board::Explore(e) => self.rect().contains(pos).then(|| {
                let p = self.to_dungeon(pos);
                if p == e.avatar() {
                    Tile::Player
                } else if let Some(m) = e.monster_at(p) {
                    m.kind.stats().tile
                } else {
                    e.tile_at(p)
                }
            }),
        }
    }
}

/// A game is a map: its terrain (the exit door blocks sight), or the tiles of an
/// exploration's map in its frame.
impl Map for GameState {
    fn width(&self) -> usize {
        self.rect().width as usize
    }

    fn height(&self) -> usize {
        self.rect().height as usize
    }

    fn is_walkable(&self, pos: Pos) -> bool {
        match &self.board {
            Board::Grid(g) => g.is_walkable(pos),
            Board::Explore(_) => self.tile_at(pos).is_some_and(Tile::is_walkable),
        }
    }

    fn blocks_sight(&self, pos: Pos) -> bool {
        self.tile_at(pos).is_none_or(Tile::blocks_sight)
    }

    fn walkable_row(&self, y: usize, out: &mut [bool]) {
        match &self.board {
            Board::Grid(g) => g.walkable_row(y, out),
            Board::Explore(_) => {
                for (x, o) in out.iter_mut().enumerate() {
                    *o = self.is_walkable(Pos::new(x as i32, y as i32));
                }
            }
        }
    }
}
