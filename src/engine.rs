//! The Java skeleton's `byog.Core.Game` (sp21 BYOW: `Engine`): the two ways to play. The
//! headless one, `play_with_input_string`, is here; `play_with_keyboard` opens the window
//! and lives with it (`byog_window`, the `window` feature), so nothing in the game calls a
//! front-end.

use std::path::PathBuf;

use byog_game::interpreter::Interpreter;
use byog_game::replay::{self, ReplayError};
use byog_game::save::{DEFAULT_SAVE_DIR, FileStore};
use byog_tile_engine::World;
use byog_worlds::generator::GeneratorSettings;

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
    pub const WIDTH: usize = byog_game::game::WIDTH;
    /// Java `Game.HEIGHT`: 30 tiles.
    pub const HEIGHT: usize = byog_game::game::HEIGHT;

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

#[cfg(feature = "window")]
impl Game {
    /// Java `playWithKeyboard()`: opens the window at the menu and plays until the player
    /// quits or closes it.
    ///
    /// # Errors
    /// [`byog_window::WindowError`] when the window cannot open (see [`byog_window::play`]).
    pub fn play_with_keyboard(&self) -> Result<(), byog_window::WindowError> {
        byog_window::play(byog_window::WindowOptions {
            shell: byog_shell::ShellOptions {
                game: byog_game::GameOptions {
                    width: self.width,
                    height: self.height,
                    settings: self.settings,
                    ..Default::default()
                },
                saves: byog_shell::Saves::Folder {
                    dir: self.save_dir.clone(),
                    slot: None,
                },
                walls: None,
                watch: false,
                front_end: Default::default(),
                seed_label: None,
            },
            keys: String::new(),
            screenshot: None,
            frame_stats: None,
        })
    }

    /// sp21 BYOW name of [`Game::play_with_keyboard`].
    ///
    /// # Errors
    /// As [`Game::play_with_keyboard`].
    pub fn interact_with_keyboard(&self) -> Result<(), byog_window::WindowError> {
        self.play_with_keyboard()
    }
}
