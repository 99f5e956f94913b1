//! The game (Java package `byog.Core`): world generation, game state, the key interpreter,
//! replay and saves. It knows nothing of macroquad; the window ([`crate::window`]) drives it.

mod engine;
pub mod game;
pub mod generator;
pub mod interpreter;
pub mod metrics;
pub mod replay;
pub mod save;

pub use engine::{Engine, Game};
pub use game::{Direction, GameState, LevelStatus, MoveResult};
pub use interpreter::{Ending, Interpreter, Outcome, Report};
