//! The game's tests through its public API, one test binary (ripgrep's layout: a module a
//! file). The old save fixtures and the insta snapshots are the workspace's (`tests/fixtures`,
//! `snapshots/` at the top), reached by paths from this package's folder.

mod common;
mod heap;

mod explore;
mod generator;
mod hardening;
mod interpreter;
mod lootquest;
mod lootquest_checker;
mod metrics;
mod progress;
mod robustness;
mod saves;
mod setting_errors;
mod snapshots;
mod stats;
