//! Fuzz target `interpreter`: arbitrary bytes as input strings through `replay`, with saves and loads in between. The harness is shared with
//! `cargo test` (`fuzz/harness/mod.rs`, `tests/fuzz_corpus.rs`); docs/robustness.md.

#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::interpreter(data));
