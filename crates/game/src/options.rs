//! What new games are made with: the one options type every caller that builds an
//! [`Interpreter`] fills (the shell's sessions, the agent, the web server's games and its
//! verifier), so that a new flag is added once.

use byog_worlds::generator::GeneratorSettings;

use crate::explore::ExploreSettings;
use crate::interpreter::Interpreter;

/// The options of new games, as the command line's common flags give them; loaded games keep
/// their own size and settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameOptions {
    /// Width of new worlds in tiles (a run's largest floor), 5..=16384; default 80.
    pub width: usize,
    /// Height of new worlds in tiles, 5..=16384; default 30.
    pub height: usize,
    /// The generator's parameters and requirements.
    pub settings: GeneratorSettings,
    /// Floors in a run (`--floors`), 1..=99; default 10.
    pub floors: u32,
    /// Explorations' `--max-unexplored`, `--branch-timer` and whether they have monsters.
    pub explore: ExploreSettings,
    /// Play one game: once it has ended, every key is refused
    /// ([`Interpreter::with_one_game`]; a web server's game). Default `false`.
    pub one_game: bool,
}

impl Default for GameOptions {
    /// 80 × 30 worlds, the default generator, runs of 10 floors, the default explorations,
    /// game after game.
    fn default() -> Self {
        GameOptions {
            width: crate::game::WIDTH,
            height: crate::game::HEIGHT,
            settings: GeneratorSettings::default(),
            floors: crate::run::DEFAULT_FLOORS,
            explore: ExploreSettings::default(),
            one_game: false,
        }
    }
}

impl GameOptions {
    /// A fresh interpreter at the menu that makes new games with these options.
    pub fn interpreter(&self) -> Interpreter {
        let interpreter = Interpreter::new(self.width, self.height, self.settings)
            .with_floors(self.floors)
            .with_explore(self.explore);
        if self.one_game {
            interpreter.with_one_game()
        } else {
            interpreter
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interpreter_makes_new_games_with_the_options() {
        let options = GameOptions {
            width: 30,
            height: 16,
            floors: 3,
            explore: ExploreSettings {
                monsters: false,
                ..ExploreSettings::default()
            },
            ..GameOptions::default()
        };
        let interpreter = options.interpreter();
        assert_eq!(
            (
                interpreter.width(),
                interpreter.height(),
                interpreter.floors()
            ),
            (30, 16, 3)
        );
        assert_eq!(interpreter.explore_settings(), options.explore);
        let default = GameOptions::default().interpreter();
        assert_eq!(
            (default.width(), default.height(), default.floors()),
            (80, 30, 10)
        );
        assert!(default.explore_settings().monsters);
    }
}
