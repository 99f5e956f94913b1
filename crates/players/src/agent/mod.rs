//! Programs that play (`docs/agent.md`): a game driven by strings of keys, each answered with
//! an [`Observation`], what the player sees after those keys and nothing more. `byog agent`
//! speaks this over JSON lines ([`serve`]); Rust programs use [`Agent`] in process and get the
//! very same observations.
//!
//! Keys go to the one [`Interpreter`], as `byog replay` feeds them, under strict rules: a
//! line of keys is played whole or not at all. If the interpreter ignores or refuses any key
//! of it (an unknown key, a move after the game ended, a `:` not followed by `Q`), or `L`
//! finds no save, or a key fails (a damaged save, a world that cannot be made), the line is
//! answered with an [`AgentError`] and the game stays as it was before the line. An agent
//! never writes a save: `:Q` is refused the same way, and so is a line that ends with a lone
//! `:` (it would wait for that `Q`); `L` reads the save folder's `save.bin`, if it was given
//! one. A line may end in seed entry (`"R4"`, then `"2S"`).
//!
//! The observation of the keys played since the last reset is, byte for byte, the JSON that
//! `byog replay --format json --view sight KEYS` prints: both come from
//! [`Observation::of`] and [`Observation::to_json`].
//!
//! The parts: [`session`] (the agent in process: [`Agent`], [`AgentOptions`],
//! [`AgentError`]), [`protocol`] (the JSON lines: [`parse_line`], [`Agent::answer`],
//! [`serve`]), and the observation itself, from `byog-wire` ([`Observation`], [`Sight`],
//! [`RunHud`], [`ExploreHud`], [`MENU_JSON`]), re-exported here. The session keeps the view
//! from one line to the next and knows where it may have changed; the game composes it.
//!
//! [`Interpreter`]: byog_game::interpreter::Interpreter

pub mod protocol;
pub mod session;
mod store;
mod view;

pub use byog_wire::{ExploreHud, MENU_JSON, Observation, RunHud, Sight};
pub use protocol::{MAX_LINE_BYTES, Request, parse_line, serve};
pub use session::{Agent, AgentError, AgentOptions, error_json};
