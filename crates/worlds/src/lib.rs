//! byog's worlds: the generators and what measures them. Nothing here knows the game: a
//! world is terrain (floor, wall, nothing), an avatar's start and an exit.
//!
//! - [`generator`]: Nystrom's rooms and mazes (2014), one step a file, and LootQuest's
//!   generator (Rogalsky 2014), one step a file; bounded, deterministic retries against
//!   requirements.
//! - [`metrics`]: what a world measures (rooms, the room graph's critical path and dead ends,
//!   seclusion, ...) and the one list of requirements a world can be asked to meet.
//! - [`survey`]: the metrics of a range of seeds at once (the generator's expressive range).
//! - [`progress`]: how far one large world (or a run's floor) is, for whoever watches.

pub mod generator;
pub mod metrics;
pub mod progress;
pub mod survey;
