//! byog's shell: what every front-end shows, decided once.
//!
//! - [`screens`]: the menu, the seed prompt, the HUD, the end screens, the overlays and every
//!   message a player reads, as text and styles;
//! - [`Shell`]: the front-end session: keys fed to the interpreter, the save, messages and
//!   their timers, sight and walls, the watch, travel, the camera.
//!
//! The window, the terminal and the browser only turn their input into keys and paint what
//! the shell decides.

pub mod screens;
mod session;

pub use session::*;
