//! Fuzz target `explore_monsters`: arbitrary keys in an exploration with monsters. The harness is shared with
//! `cargo test` (`fuzz/harness/mod.rs`, `tests/fuzz_corpus.rs`); docs/robustness.md.

#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::explore_monsters(data));
