//! The Java skeleton's `byog.Core.Game` (sp21 BYOW: `Engine`): the two ways to play. The
//! headless one, `play_with_input_string`, is here; `play_with_keyboard` opens the window
//! and lives with it (`crate::window`, the `window` feature), so nothing in the game calls a
//! front-end.

use std::path::PathBuf;

use super::generator::GeneratorSettings;
use super::interpreter::Interpreter;
use super::replay::{self, ReplayError};
use super::save::{DEFAULT_SAVE_DIR, FileStore};
use crate::tile_engine::World;

/// Java `Game`: plays with the keyboard in a window, or with an input string headless.
#[derive(Debug, Clone)]
pub struct Game {
    /// Width of new worlds in tiles (default [`Game::WIDTH`]).
    pub width: usize,
    /// Height of new worlds in tiles (default [`Game::HEIGHT`]).
    pub height: usize,
    /// Generator settings for new worlds.
    pub settings: GeneratorSettings,
    /// Folder of `save.bin` (default `saves/` under the current directory).
    pub save_dir: PathBuf,
}

/// The sp21 BYOW name of [`Game`].
pub type Engine = Game;

impl Default for Game {
    fn default() -> Self {
        Game {
            width: Game::WIDTH,
            height: Game::HEIGHT,
            settings: GeneratorSettings::default(),
            save_dir: PathBuf::from(DEFAULT_SAVE_DIR),
        }
    }
}

impl Game {
    /// Java `Game.WIDTH`: 80 tiles.
    pub const WIDTH: usize = super::game::WIDTH;
    /// Java `Game.HEIGHT`: 30 tiles.
    pub const HEIGHT: usize = super::game::HEIGHT;

    /// A game with the defaults: 80 × 30, default settings, saves in `saves/`.
    pub fn new() -> Self {
        Game::default()
    }

    /// Java `playWithInputString(input)`: runs the keys of `input` exactly as if typed, saving
    /// on `:Q`, and returns the world (`None` when no world was started or loaded). Ignored
    /// keys are skipped silently; use [`replay::replay`] to see them.
    ///
    /// # Errors
    /// [`ReplayError`] when a save cannot be loaded or written.
    pub fn play_with_input_string(&self, input: &str) -> Result<Option<World>, ReplayError> {
        let mut interpreter = Interpreter::new(self.width, self.height, self.settings);
        let mut store = FileStore::in_dir(&self.save_dir);
        replay::replay(&mut interpreter, input, &mut store, false, &mut |_| {})?;
        Ok(interpreter.into_game().map(|g| g.world()))
    }

    /// sp21 BYOW name of [`Game::play_with_input_string`].
    ///
    /// # Errors
    /// As [`Game::play_with_input_string`].
    pub fn interact_with_input_string(&self, input: &str) -> Result<Option<World>, ReplayError> {
        self.play_with_input_string(input)
    }
}
