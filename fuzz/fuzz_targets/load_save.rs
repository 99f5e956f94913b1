//! Fuzz target `load_save`: arbitrary bytes as a save file through `save::decode`. The harness is shared with
//! `cargo test` (`fuzz/harness/mod.rs`, `tests/fuzz_corpus.rs`); docs/robustness.md.

#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::load_save(data));
