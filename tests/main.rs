//! byog's own tests, one binary (ripgrep's layout): a module a file, each named after what it
//! tests. These are the tests of the command line (the `byog` binary), of the front-ends (the
//! window, the terminal, the PNG export), of the house (architecture, docs, links) and those
//! that need several of the workspace's packages together; each package's own tests are beside
//! its code (`crates/PKG/tests/PKG/`). The window's, the terminal's and the PNG export's tests
//! need an X server or tmux and are `#[ignore]`d unless asked for
//! (`cargo test --test main -- --include-ignored window::`).

mod common;

mod agent;
mod architecture;
mod catalog;
mod cli;
mod docs;
mod explore_snapshots;
mod frame;
mod fuzz_corpus;
mod hardening;
mod interpreter_cli;
#[cfg(feature = "java-parity")]
mod java_parity;
mod links;
#[path = "../crates/game/tests/game/lootquest_checker.rs"]
mod lootquest_checker;
mod lootquest_cli;
mod png;
#[path = "../crates/players/tests/players/repros.rs"]
mod repros;
mod robustness_cli;
#[path = "../crates/players/tests/players/run_oracle.rs"]
mod run_oracle;
mod run_stats;
mod runs_cli;
mod saves_cli;
mod serve;
mod setting_errors_cli;
mod sight;
mod stats;
mod terminal;
mod travel_cli;
mod window;
