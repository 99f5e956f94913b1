//! The interpreter through the binary: what `byog` says on stderr about a save it replaced.
//! The interpreter's own tests are the game's (`crates/game/tests/game/interpreter.rs`).

#[test]
fn replay_says_on_stderr_what_a_save_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let byog = |input: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_byog"))
            .args(["--save-dir"])
            .arg(dir.path())
            .arg(input)
            .output()
            .unwrap()
    };
    let first = byog("N1SD:Q");
    assert!(!String::from_utf8_lossy(&first.stderr).contains("replaced"));
    let second = byog("R2S:Q");
    let err = String::from_utf8_lossy(&second.stderr).into_owned();
    assert!(
        err.contains("; it replaced the save of the game N1S ("),
        "{err}"
    );
}
