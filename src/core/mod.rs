//! The game (Java package `byog.Core`): world generation, the game state (terrain apart from
//! things), actions and the rules that apply them, the one key interpreter, headless replay,
//! metrics and saves. It knows nothing of any front-end: the window, the terminal and the
//! command line drive it.

pub mod action;
mod base;
pub mod board;
pub mod catalog;
#[cfg(feature = "java-parity")]
mod engine;
pub mod explore;
pub mod game;
pub mod generator;
pub mod interpreter;
pub mod metrics;
pub mod players;
pub mod replay;
pub mod rules;
pub mod run;
pub mod save;
pub mod survey;
pub mod travel;
pub mod watch;

pub use crate::tile_engine::Direction;
pub use action::Action;
#[cfg(feature = "java-parity")]
pub use engine::{Engine, Game};
pub use game::{Board, GameKind, GameState, GridBoard, LevelStatus};
pub use interpreter::{Closing, Interpreter, Mode, Outcome, Report};
pub use rules::{Event, Events};
