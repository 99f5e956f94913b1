//! Fuzz target `catalog_where`: arbitrary text as `byog catalog --where`. The harness is shared with
//! `cargo test` (`fuzz/harness/mod.rs`, `tests/fuzz_corpus.rs`); docs/robustness.md.

#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::catalog_where(data));
