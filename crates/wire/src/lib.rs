//! byog's JSON, written once: the game's state and what its player sees, as the command
//! line, the agent and the web server send them (`docs/json.md`, `docs/agent.md`).
//!
//! - [`state`]: the whole state of a game, `byog replay --format json` ([`State`],
//!   [`state_json`]);
//! - [`observation`]: what the player sees, typed ([`Observation`], [`Sight`]) and as JSON
//!   ([`Observation::to_json`]): `byog replay --format json --view sight`, each answer of
//!   `byog agent`, and the web server's observation of a game;
//! - [`parts`]: what the two share (a tile, a chest or trap, a monster, a world's rows).
//!
//! Each document is a derived `serde` struct whose fields are the object's keys in
//! alphabetical order, the order `serde_json` prints a map's keys in, so every object byog
//! prints reads the same way. The names of modes, statuses, sides and things are the game's
//! own ([`byog_game::GameKind::name`], [`byog_game::LevelStatus::name`], …): nothing here
//! spells them again. This package knows the game and the tile engine, nothing above them:
//! the web server takes the observation from here without the players (solver, policies).

pub mod observation;
pub mod parts;
pub mod state;

pub use observation::{ExploreHud, Observation, RunHud, Sight};
pub use state::{State, state_json};

use byog_game::interpreter::Interpreter;

/// The object with no game (at the menu, or in seed entry before the first game), one line:
/// what `byog replay --format json` prints then, with or without `--view sight`, and what
/// `byog agent` answers. The game's fields are `null`, `rows` is empty and `moves` is 0.
pub const MENU_JSON: &str = r#"{"avatar":null,"exit":null,"height":null,"mode":"menu","moves":0,"rows":[],"seed":null,"status":null,"width":null}"#;

/// The JSON `byog replay --format json --view sight` prints for `interpreter` (without its
/// newline): [`Observation::of`] it, [`Observation::to_json`], the same object `byog agent`
/// answers with.
pub fn sight_json(interpreter: &Interpreter) -> String {
    Observation::of(interpreter).to_json()
}
