//! The state of one game: the world, the avatar, the exit, the random generator and the
//! canonical key history. Everything the future of a game depends on is here, so a save of it
//! continues exactly where it stopped (`../shared/SPEC.md`, sections 2 and 4).

use rand_pcg::Pcg64;

use super::generator::{self, GenerateError, GeneratorSettings};
use crate::tile_engine::{Pos, Tile, World};

/// Default world width in tiles (Java `Game.WIDTH`).
pub const WIDTH: usize = 80;
/// Default world height in tiles (Java `Game.HEIGHT`).
pub const HEIGHT: usize = 30;
/// Largest seed: Java's `Long.MAX_VALUE`, so every seed a Java input string accepts works.
pub const MAX_SEED: u64 = i64::MAX as u64;

/// The random generator of a game: PCG XSL RR 128/64 (`rand_pcg::Pcg64`), seeded with
/// `Pcg64::seed_from_u64(seed)`.
pub type GameRng = Pcg64;

/// Whether the level is still being played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LevelStatus {
    /// The exit has not been reached.
    Playing,
    /// The avatar walked into the exit; it is now an UNLOCKED_DOOR.
    Won,
}

/// A movement key's direction; up is +y.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// `W`: +y.
    Up,
    /// `A`: −x.
    Left,
    /// `S`: −y.
    Down,
    /// `D`: +x.
    Right,
}

impl Direction {
    /// The direction of a movement key (`W`, `A`, `S`, `D`, either case).
    pub fn from_key(key: char) -> Option<Direction> {
        match key.to_ascii_uppercase() {
            'W' => Some(Direction::Up),
            'A' => Some(Direction::Left),
            'S' => Some(Direction::Down),
            'D' => Some(Direction::Right),
            _ => None,
        }
    }

    /// The key for this direction, upper case.
    pub fn key(self) -> char {
        match self {
            Direction::Up => 'W',
            Direction::Left => 'A',
            Direction::Down => 'S',
            Direction::Right => 'D',
        }
    }

    /// `(dx, dy)` in tiles.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::Up => (0, 1),
            Direction::Left => (-1, 0),
            Direction::Down => (0, -1),
            Direction::Right => (1, 0),
        }
    }
}

/// What a move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveResult {
    /// The avatar stepped onto floor.
    Moved,
    /// The target was not walkable; nothing changed (the key still counts as a move).
    Blocked,
    /// The avatar walked into the exit, which is now unlocked: the level is won.
    Won,
}

/// One game: a generated world and everything that happened since `N<seed>S`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameState {
    pub(crate) seed: u64,
    pub(crate) settings: GeneratorSettings,
    pub(crate) world: World,
    pub(crate) avatar: Pos,
    pub(crate) exit: Pos,
    pub(crate) rng: GameRng,
    pub(crate) status: LevelStatus,
    pub(crate) moves: u64,
    pub(crate) history: String,
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
        let generator::Generated { dungeon, rng, .. } =
            generator::generate_for_seed(seed, width, height, &settings)?;
        Ok(GameState {
            seed,
            settings,
            world: dungeon.world,
            avatar: dungeon.avatar,
            exit: dungeon.exit,
            rng,
            status: LevelStatus::Playing,
            moves: 0,
            history: format!("N{seed}S"),
        })
    }

    /// Moves the avatar one tile. Floor is walkable; the exit wins the level (the avatar stays
    /// where it is and the door unlocks); anything else blocks. Every call counts as a move
    /// and is added to the history.
    pub fn step(&mut self, dir: Direction) -> MoveResult {
        self.moves += 1;
        self.history.push(dir.key());
        let (dx, dy) = dir.delta();
        let target = self.avatar.offset(dx, dy);
        match self.world.get(target) {
            Some(Tile::Floor) => {
                self.world.set(self.avatar, Tile::Floor);
                self.world.set(target, Tile::Player);
                self.avatar = target;
                MoveResult::Moved
            }
            Some(Tile::LockedDoor) if target == self.exit => {
                self.world.set(target, Tile::UnlockedDoor);
                self.status = LevelStatus::Won;
                MoveResult::Won
            }
            _ => MoveResult::Blocked,
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

    /// The world, avatar and exit drawn in.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The avatar's tile.
    pub fn avatar(&self) -> Pos {
        self.avatar
    }

    /// The exit's tile.
    pub fn exit(&self) -> Pos {
        self.exit
    }

    /// Whether the level is won.
    pub fn status(&self) -> LevelStatus {
        self.status
    }

    /// Movement keys taken since the world was generated (blocked ones included).
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The canonical input string that reproduces this game from the menu: `N<seed>S` and
    /// every movement key since, upper case (ignored keys, colons and `:Q` left out).
    pub fn history(&self) -> &str {
        &self.history
    }

    /// The game's random generator (its state is part of every save).
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }
}
