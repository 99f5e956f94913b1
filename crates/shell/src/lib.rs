//! byog's shell: what every front-end shows, decided once.
//!
//! - [`screens`]: the menu, the seed prompt, the HUD, the end screens, the overlays and every
//!   message a player reads, as text and styles, one screen a file;
//! - [`Shell`]: the front-end session: keys fed to the interpreter, the save, messages and
//!   their timers, sight and walls, the watch, travel, the camera;
//! - [`frame`]: the one [`Frame`] the session decides for every front-end: the screen, the
//!   world's view as cells (glyph, colours, light) and the minimap.
//!
//! The window, the terminal and the browser only turn their input into keys and paint the
//! frame.

pub mod frame;
pub mod screens;
mod session;
mod store;

pub use frame::{Cell, Frame, FrameRequest, Light, MinimapFrame, View};
pub use session::{
    BUSY_AFTER_SECONDS, FrontEnd, MINIMAP_KEY, PlayError, SIGHT_KEY, Scene, Shell, ShellOptions,
    TRAVEL_STEP_SECONDS, move_alias,
};
pub use store::{SaveCheck, Saves};
