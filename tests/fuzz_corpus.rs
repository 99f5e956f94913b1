//! Every committed fuzz input (`fuzz/seeds/<target>/`) through the fuzz targets' own harness
//! code (`fuzz/harness/mod.rs`), with plain `cargo test` on stable Rust: a harness that goes
//! stale (expects behaviour the game no longer has) fails here, not only under `cargo fuzz`
//! (docs/robustness.md).

#[path = "../fuzz/harness/mod.rs"]
mod harness;

use std::fs;
use std::path::Path;

/// Runs every file of `fuzz/seeds/<target>/` through `run`; fails naming the file that
/// panicked, after running them all.
fn corpus(target: &str, run: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no committed inputs for {target}");
    let failed: Vec<String> = files
        .iter()
        .filter(|path| {
            let data = fs::read(path).unwrap();
            std::panic::catch_unwind(|| run(&data)).is_err()
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        failed.is_empty(),
        "the {target} harness fails on its committed inputs: {failed:?}"
    );
}

#[test]
fn interpreter_corpus() {
    corpus("interpreter", harness::interpreter);
}

#[test]
fn load_save_corpus() {
    corpus("load_save", harness::load_save);
}

#[test]
fn explore_monsters_corpus() {
    corpus("explore_monsters", harness::explore_monsters);
}

#[test]
fn agent_lines_corpus() {
    corpus("agent_lines", harness::agent_lines);
}

#[test]
fn catalog_where_corpus() {
    corpus("catalog_where", harness::catalog_where);
}
