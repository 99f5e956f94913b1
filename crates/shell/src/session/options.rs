//! What a session starts with.

use byog_game::explore::ExploreSettings;
use byog_game::interpreter::Interpreter;
use byog_tile_engine::WallStyle;
use byog_worlds::generator::GeneratorSettings;

use crate::screens::FrontEnd;
use crate::store::Saves;

/// What a session starts with (the command line's flags).
#[derive(Debug, Clone)]
pub struct ShellOptions {
    /// Width of new worlds in tiles.
    pub width: usize,
    /// Height of new worlds in tiles.
    pub height: usize,
    /// Generator settings for new worlds.
    pub settings: GeneratorSettings,
    /// Floors in a run (`--floors`).
    pub floors: u32,
    /// Explorations' `--max-unexplored` and `--branch-timer`.
    pub explore: ExploreSettings,
    /// Where games are saved and loaded from.
    pub saves: Saves,
    /// How walls are drawn (`--walls`); `None`: box in runs and explorations, Java `#` in
    /// the classic game.
    pub walls: Option<WallStyle>,
    /// Watch the save instead of playing (`--watch`): leaving the watch ends the program.
    pub watch: bool,
    /// The front-end playing it (each sets its own).
    pub front_end: FrontEnd,
    /// Play one game: once it has ended, no key reaches the interpreter but the view keys
    /// ([`Interpreter::with_one_game`]; a web server's game, whose next game is the page's).
    pub one_game: bool,
    /// What names the seed on every screen when it is hidden (a server's daily or live game:
    /// "daily 2026-11-28", "live game"); `None` shows it.
    pub seed_label: Option<String>,
}

/// Whether `--slot` chose the slot (`L` then loads it rather than listing the folder's).
pub(super) fn slot_chosen(saves: &Saves) -> bool {
    matches!(saves, Saves::Folder { slot: Some(_), .. })
}

/// A fresh interpreter for `options`' new games.
pub(super) fn interpreter_for(options: &ShellOptions) -> Interpreter {
    let interpreter = Interpreter::new(options.width, options.height, options.settings)
        .with_floors(options.floors)
        .with_explore(options.explore);
    if options.one_game {
        interpreter.with_one_game()
    } else {
        interpreter
    }
}
