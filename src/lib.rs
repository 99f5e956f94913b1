//! `byog`: a Rust port of the UC Berkeley CS 61B "Build Your Own Game" (sp18) tile engine,
//! grown into a roguelike and a toolkit. This package is the command line ([`cli`], the
//! `byog` program: `play`, `replay`, `gen`, `stats`, `solve`, `agent`, `catalog`, `serve`) on
//! top of the workspace's packages, which are its layers, lowest first (`ARCHITECTURE.md` has
//! the map). A program that uses the game depends on those packages and names their paths:
//!
//! - `byog-tile-engine` (`byog_tile_engine`, Java `byog.TileEngine`): `TETile`, the exact
//!   `Tileset`, the compact `World` grid (1 byte a tile), integer geometry, the `Map` seam,
//!   the one `search` module, field of view, the camera and the minimap. It knows nothing of
//!   the game. `byog-raster` (`byog_raster`) draws its worlds as PNGs.
//! - `byog-worlds` (`byog_worlds`): the generators (rooms and mazes, LootQuest), their metrics
//!   and surveys; `byog-catalog` (`byog_catalog`): the seed catalog.
//! - `byog-game` (`byog_game`, Java `byog.Core`): the game state (terrain apart from things),
//!   `Action`s and the `rules`, the one key `Interpreter` shared by keyboard, replay, the agent
//!   and the server, saves, runs, explorations, monsters, travel and the watch.
//! - `byog-wire` (`byog_wire`): the game's JSON, written once.
//! - `byog-players` (`byog_players`): the solver, the explorer, the policies, the agent (its
//!   session and its protocol) and the JSON the command line prints.
//! - `byog-shell` (`byog_shell`): the screens and the front-end session that decides what
//!   every front-end shows.
//! - the front-ends: `byog-terminal`, `byog-window` (the default feature `window`) and
//!   `byog-web` (`byog serve`).
//!
//! This package's own public paths are [`cli`] (the program is `byog::cli::main()`) and, with
//! the `java-parity` feature, [`engine`]: the Java skeleton's `Game` (sp21: `Engine`), which
//! ties the game to the window and so belongs to no package below.
//!
//! ```
//! use byog_game::GameState;
//! use byog_worlds::generator::GeneratorSettings;
//! let game = GameState::new(1234, 80, 30, GeneratorSettings::default()).unwrap();
//! let text = game.world().to_string(); // Java TETile.toString(world)
//! assert_eq!(text.lines().count(), 30);
//! assert_eq!(text.matches('@').count(), 1);
//! ```

pub mod cli;
#[cfg(feature = "java-parity")]
pub mod engine;
