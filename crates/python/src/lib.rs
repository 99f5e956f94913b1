//! byog for Python (`docs/python.md`): the Rust side of the `byog` module.
//!
//! - [`Options`]: what a game is made with (the command line's common flags) and what its
//!   observation holds (a crop round the avatar or the whole world, the travel keys, the step
//!   limit);
//! - [`Game`]: one game played one action at a time, its observation written into
//!   preallocated arrays ([`Out`]) from the game state's public accessors (the tiles seen, the
//!   avatar, the HUD's numbers), never from JSON;
//! - [`Batch`]: N games stepped in one call over a pool of threads, each writing its own rows
//!   of the batch's arrays, finished games reset in place (Gymnasium's next-step autoreset).
//!
//! The Python bindings (pyo3 and rust-numpy) are the `python` feature's module, which only
//! maturin builds (`crates/python/pyproject.toml`); everything else here is plain Rust, tested
//! by `cargo test -p byog-python`.

mod batch;
mod game;
mod options;
#[cfg(feature = "python")]
mod python;

pub use batch::{Batch, BatchOut, StepError};
pub use game::{
    ACTION_KEYS, CHAR_OF_GLYPH, COLOR_OF_GLYPH, Game, MESSAGE_BYTES, Out, PALETTE, STATS, Stat,
    Step,
};
pub use options::{Mode, ObservedArea, Options};

#[cfg(test)]
mod tests;
