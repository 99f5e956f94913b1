//! What a session starts with.

use byog_game::GameOptions;
use byog_tile_engine::WallStyle;

use crate::screens::FrontEnd;
use crate::store::Saves;

/// What a session starts with (the command line's flags).
#[derive(Debug, Clone)]
pub struct ShellOptions {
    /// What new games are made with (size, generator, floors, explorations, one game or
    /// many); it builds the session's interpreter ([`GameOptions::interpreter`]).
    pub game: GameOptions,
    /// Where games are saved and loaded from.
    pub saves: Saves,
    /// How walls are drawn (`--walls`); `None`: box in runs and explorations, Java `#` in
    /// the classic game.
    pub walls: Option<WallStyle>,
    /// Watch the save instead of playing (`--watch`): leaving the watch ends the program.
    pub watch: bool,
    /// The front-end playing it (each sets its own).
    pub front_end: FrontEnd,
    /// What names the seed on every screen when it is hidden (a server's daily or live game:
    /// "daily 2026-11-28", "live game"); `None` shows it.
    pub seed_label: Option<String>,
}

impl ShellOptions {
    /// A session that saves nothing (its games live in memory), for `front_end`, with the
    /// default games ([`GameOptions::default`]), walls as
    /// each mode draws them, the seed shown: what a test or an example plays in.
    pub fn in_memory(front_end: FrontEnd) -> ShellOptions {
        ShellOptions {
            game: GameOptions::default(),
            saves: Saves::None,
            walls: None,
            watch: false,
            front_end,
            seed_label: None,
        }
    }
}

/// Whether `--slot` chose the slot (`L` then loads it rather than listing the folder's).
pub(super) fn slot_chosen(saves: &Saves) -> bool {
    matches!(saves, Saves::Folder { slot: Some(_), .. })
}
