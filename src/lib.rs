//! `byog`: a Rust port of the UC Berkeley CS 61B "Build Your Own Game" (sp18) tile engine,
//! grown into a roguelike and a toolkit. This package is the command line and a facade over
//! the workspace's packages, which are its layers, lowest first (`ARCHITECTURE.md` has the
//! map):
//!
//! - [`tile_engine`] (`byog-tile-engine`, Java `byog.TileEngine`): [`TETile`](tile_engine::TETile),
//!   the exact [`Tileset`](tile_engine::Tileset), the compact [`World`](tile_engine::World)
//!   grid (1 byte a tile), integer geometry, the [`Map`](tile_engine::Map) seam, the one
//!   [`search`](tile_engine::search) module, field of view, the camera and the minimap. It
//!   knows nothing of the game. `byog-raster` draws its worlds as PNGs
//!   ([`raster`](tile_engine::raster)).
//! - `byog-worlds`: the generators (rooms and mazes, LootQuest) and their metrics
//!   ([`core::generator`], [`core::metrics`]); `byog-catalog`: the seed catalog
//!   ([`core::catalog`]).
//! - `byog-game` ([`core`], Java `byog.Core`): the game state (terrain apart from things),
//!   [`Action`](core::Action)s and the [`rules`](core::rules), the one key
//!   [`Interpreter`](core::Interpreter) shared by keyboard, replay, the agent and the server,
//!   saves, runs, explorations, monsters, travel and the watch.
//! - `byog-wire` ([`wire`]): the game's JSON, written once: the state `replay --format
//!   json` prints and the observation of what the player sees.
//! - `byog-players`: the solver, the explorer, the [`policy`]s and the [`agent`] (its
//!   session and its protocol).
//! - `byog-shell`: the [`screens`] and the front-end session ([`shell`]) that decides what
//!   every front-end shows.
//! - the front-ends: [`terminal`] (`byog-terminal`) and `window` (`byog-window`, the default
//!   feature `window`).
//! - [`cli`]: the command line (`byog`, `play`, `replay`, `gen`, `stats`, `solve`, `agent`,
//!   `catalog`).
//!
//! The paths of the single-package days (`byog::tile_engine::TETile`, `byog::core::…`)
//! keep working through this facade.
//!
//! ```
//! use byog::core::{GameState, generator::GeneratorSettings};
//! let game = GameState::new(1234, 80, 30, GeneratorSettings::default()).unwrap();
//! let text = game.world().to_string(); // Java TETile.toString(world)
//! assert_eq!(text.lines().count(), 30);
//! assert_eq!(text.matches('@').count(), 1);
//! ```

pub mod cli;
#[cfg(feature = "java-parity")]
mod engine;

/// The tile engine (`byog-tile-engine`), the software rasteriser (`byog-raster`, at its
/// one-package path `tile_engine::raster`); with the `window` feature also the Java
/// `TERenderer` over macroquad.
pub mod tile_engine {
    pub use byog_raster as raster;
    pub use byog_tile_engine::*;
    #[cfg(feature = "window")]
    pub use byog_window::renderer::{self, Shade, TERenderer};
}

/// The game (`byog-game`, Java `byog.Core`), with the worlds' generators and metrics, the
/// seed catalog and the players of the game at the paths they had in one package.
pub mod core {
    pub use byog_game::*;
    pub use byog_worlds::{generator, metrics};

    /// The seed catalog (`byog-catalog`).
    pub use byog_catalog as catalog;

    #[cfg(feature = "java-parity")]
    pub use crate::engine::{Engine, Game};

    /// Players of the game (`byog-players`): the solver and the explorer.
    pub mod players {
        pub use byog_players::{explorer, solver};
    }

    /// Surveys: a batch of seeds' metrics (`byog-worlds`) and a run's floors (`byog-game`).
    pub mod survey {
        pub use byog_game::run::survey as run;
        pub use byog_worlds::survey as batch;
    }
}

pub use byog_players::{agent, policy};
pub use byog_shell::screens;
pub use byog_terminal as terminal;
#[cfg(feature = "window")]
pub use byog_window as window;
pub use byog_wire as wire;

/// The front-end session (`byog-shell`).
pub mod shell {
    pub use byog_shell::*;
}
