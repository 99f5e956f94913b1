//! Players of the game: programs that choose keys the way a person would, by the rules and
//! from above them. Nothing below (the rules, the game state, the content) imports them.
//!
//! - [`solver`]: `byog solve`, the runs' solver (it knows the whole floor);
//! - [`explorer`]: an explorer of explorations (benchmarks and tests drive it).

pub mod explorer;
pub mod solver;
