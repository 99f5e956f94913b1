//! The players' tests (the solver, the explorer, the policies, the agent, the game's JSON)
//! and the tests that play the game through them, one test binary (a module a file). The
//! game's test helpers and counting allocator are shared with the game's test binary.

#[path = "../../../game/tests/game/common.rs"]
mod common;
#[path = "../../../game/tests/game/heap.rs"]
mod heap;

mod byte_identity;
mod explore_play;
mod memory;
mod monsters;
mod old_saves;
mod policies;
mod repros;
mod run_oracle;
mod run_stats;
mod runs;
mod travel;
mod wait;
