//! Helpers the root's tests share: running the `byog` binary as a user would; the game's
//! library helpers (`crates/game/tests/game/common.rs`) are included and re-exported.

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

/// The `rows` of a JSON state (`replay --json`), top row first.
pub fn json_rows(state: &serde_json::Value) -> Vec<&str> {
    state["rows"]
        .as_array()
        .expect("a JSON state has rows")
        .iter()
        .map(|r| r.as_str().expect("a row is a string"))
        .collect()
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[path = "../../crates/game/tests/game/common.rs"]
mod game;
pub use game::*;

/// The tests that need a tool (an X server, tmux) are `#[ignore]`d, so that `cargo test`
/// without the tool reports them as ignored rather than passed. With `require_var=1` (CI)
/// they must run too: this fails a run of `file`'s tests that leaves them out (without
/// `--include-ignored`).
pub fn assert_required_tests_run(require_var: &str, file: &str) {
    if std::env::var(require_var).as_deref() == Ok("1") {
        let args: Vec<String> = std::env::args().collect();
        assert!(
            args.iter()
                .any(|a| a == "--include-ignored" || a == "--ignored"),
            "{require_var}=1, but the tests that need it are ignored in this run ({args:?}): \
             run `cargo test --test main -- --include-ignored {file}::`"
        );
    }
}

/// Every test of `source` (a test file's text) whose body contains `call` (the call that
/// starts its tool) is one this test binary lists as ignored, and there are more than five.
pub fn assert_tool_tests_are_ignored(module: &str, source: &str, call: &str) {
    // `module_path!()` of the test module: `main::window`, tests listed as `window::…`.
    let module = module.split_once("::").map_or(module, |(_, m)| m);
    let prefix = format!("{module}::");
    let mut needing: Vec<&str> = source
        .split("#[test]")
        .skip(1)
        .filter(|chunk| chunk.contains(call))
        .filter_map(|chunk| chunk.split("fn ").nth(1)?.split('(').next())
        .collect();
    needing.sort_unstable();
    let listed = Command::new(std::env::current_exe().unwrap())
        .args(["--list", "--ignored"])
        .output()
        .unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    let mut ignored: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.strip_suffix(": test")?.strip_prefix(prefix.as_str()))
        .collect();
    ignored.sort_unstable();
    assert!(needing.len() > 5, "{needing:?}");
    assert_eq!(ignored, needing);
}
