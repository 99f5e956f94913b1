//! byog's players: programs that choose keys the way a person would, by the rules and from
//! above them, and the protocol other programs play through. Nothing below (the rules, the
//! game state, the content) imports them.
//!
//! - [`solver`]: `byog solve`, the runs' solver (it knows the whole floor);
//! - [`explorer`]: an explorer of explorations (benchmarks and tests drive it);
//! - [`agent`]: programs that play: keys in, what the player sees out (the observation);
//! - [`json`]: the game's JSON (written by `byog-wire`) as values, for tests and tools;
//! - [`policy`]: the policies whose win rates measure balance.

pub mod agent;
pub mod explorer;
pub mod json;
pub mod policy;
pub mod solver;
