//! byog's tests, one binary (ripgrep's layout): a module a file, each named after what it
//! tests. The window's, the terminal's and the PNG export's tests need an X server or tmux and
//! are `#[ignore]`d unless asked for (`cargo test --test main -- --include-ignored window::`).

mod common;

mod agent;
mod architecture;
mod byte_identity;
mod catalog;
mod cli;
mod docs;
mod explore;
mod explore_play;
mod explore_snapshots;
mod fov;
mod frame;
mod fuzz_corpus;
mod generator;
mod hardening;
mod interpreter;
#[cfg(feature = "java-parity")]
mod java_parity;
mod links;
mod lootquest;
mod memory;
mod metrics;
mod monsters;
mod png;
mod policies;
mod progress;
mod robustness;
mod run_stats;
mod runs;
mod saves;
mod serve;
mod setting_errors;
mod sight;
mod snapshots;
mod stats;
mod terminal;
mod travel;
mod wait;
mod window;
