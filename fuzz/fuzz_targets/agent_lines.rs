//! Fuzz target `agent_lines`: arbitrary bytes as lines of the agent protocol. The harness is shared with
//! `cargo test` (`fuzz/harness/mod.rs`, `tests/fuzz_corpus.rs`); docs/robustness.md.

#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::agent_lines(data));
