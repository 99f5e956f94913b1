//! Helpers the integration tests share: running the `byog` binary as a user would.

#![allow(dead_code)] // each test crate uses its own subset

use std::path::Path;
use std::process::{Command, Output};

/// Runs `byog ARGS --save-dir SAVE_DIR`, with `BYOG_SAVE_DIR` removed from the environment.
pub fn byog_in(save_dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(args)
        .arg("--save-dir")
        .arg(save_dir)
        .env_remove("BYOG_SAVE_DIR")
        .output()
        .unwrap()
}

/// Runs `byog ARGS` (saves, if any, go to the default folder), with `BYOG_SAVE_DIR` removed.
pub fn byog(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(args)
        .env_remove("BYOG_SAVE_DIR")
        .output()
        .unwrap()
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}
