//! byog's shell: what every front-end shows, decided once.
//!
//! - [`screens`]: the menu, the seed prompt, the HUD, the end screens, the overlays and every
//!   message a player reads, as text and styles, one screen a file;
//! - [`Shell`]: the front-end session: keys fed to the interpreter, the save, messages and
//!   their timers, sight and walls, the watch, travel, the camera;
//! - [`frame`]: the one [`Frame`] the session decides for every front-end: the screen, the
//!   world's view as cells (glyph, colours, light) and the minimap.
//!
//! The window, the terminal and the browser only turn their input into [`keys`] and paint
//! the frame: they need no package below this one.

pub mod frame;
pub mod screens;
mod session;
mod store;

pub(crate) use frame::Scene;
pub use frame::{Cell, Frame, FrameRequest, Light, MinimapFrame, View};
pub use screens::FrontEnd;
pub use session::{BUSY_AFTER_SECONDS, Shell, ShellError, ShellOptions, TRAVEL_STEP_SECONDS};
pub use store::{SaveCheck, Saves};

/// The keys every front-end hands the session (the game's one key vocabulary,
/// `byog_game::keys`): Backspace, Esc, Enter, Home and End, the moves and their aliases, the
/// view keys, and which characters a player can type at all.
pub use byog_game::keys;
pub use byog_game::keys::{MINIMAP_KEY, SIGHT_KEY, move_alias};

/// What new games are made with ([`ShellOptions::game`]): the game's one options type, which
/// builds the interpreter.
pub use byog_game::GameOptions;

/// The light's radius in tiles (`docs/sight.md`): a front-end sizes its tiles so that the
/// light's diameter fits its view.
pub use byog_game::game::SIGHT_RADIUS;
