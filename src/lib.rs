//! `byog`: a Rust port of the UC Berkeley CS 61B "Build Your Own Game" (sp18) tile engine.
//!
//! # Architecture
//!
//! Data flows one way: **keys → interpreter → actions → rules → game state → compose →
//! (window | text | JSON | PNG | save)** (`ARCHITECTURE.md` has the map).
//!
//! - [`tile_engine`] (Java `byog.TileEngine`): [`TETile`](tile_engine::TETile), the exact
//!   [`Tileset`](tile_engine::Tileset), the compact [`World`](tile_engine::World) grid (1 byte
//!   a tile) and its Java text form, integer [`geometry`](tile_engine::geometry), the
//!   [`Map`](tile_engine::Map) seam and its [`search`](tile_engine::search)es, `RandomUtils`,
//!   and (feature `window`) the macroquad `TERenderer`. It knows nothing of the game.
//! - [`core`] (Java `byog.Core`): world generation (Nystrom's rooms and mazes,
//!   [`core::generator`]), metrics, the [`GameState`](core::GameState) (terrain apart from
//!   things), [`Action`](core::Action)s and the [`rules`](core::rules), the one key
//!   [`Interpreter`](core::Interpreter) shared by keyboard and replay, headless
//!   [`replay`](core::replay), and checked atomic [`save`](core::save)s. It knows nothing of
//!   any front-end.
//! - [`screens`]: the menu, seed prompt, HUD, end screens and messages every front-end shows.
//! - [`shell`]: the play session both front-ends share: keys fed to the interpreter, the
//!   save, messages and their timers, sight and walls, the watch, the camera.
//! - `window` (feature `window`, on by default): the macroquad loop: keyboard → interpreter,
//!   screens → pixels.
//! - [`terminal`]: the same game in a terminal (`play --terminal`): keys → interpreter,
//!   screens → character cells, redrawing only what changed.
//! - [`agent`]: programs that play: keys in, what the player sees out (`byog agent`'s JSON
//!   lines, and the same in process).
//! - [`cli`]: the command line (`byog`, `play`, `replay`, `gen`, `stats`, `solve`); only `play`
//!   starts the window or the terminal game. Its words stay in it: `stats`' tables and JSON
//!   and `gen --view`'s debug views are drawn there, over the measuring of
//!   [`core::metrics`] (one world) and [`core::survey`] (a batch of seeds, a run's floors).
//!
//! ```
//! use byog::core::{GameState, generator::GeneratorSettings};
//! let game = GameState::new(1234, 80, 30, GeneratorSettings::default()).unwrap();
//! let text = game.world().to_string(); // Java TETile.toString(world)
//! assert_eq!(text.lines().count(), 30);
//! assert_eq!(text.matches('@').count(), 1);
//! ```

pub mod agent;
pub mod cli;
pub mod core;
pub mod policy;
pub mod screens;
pub mod shell;
pub mod terminal;
pub mod tile_engine;
#[cfg(feature = "window")]
pub mod window;
