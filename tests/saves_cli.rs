//! Saves through the binary: `:Q` and `L`, damaged and truncated saves, a FIFO or a device
//! in the save's place, two slots. The save format's own tests are the game's
//! (`crates/game/tests/game/saves.rs`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use byog_game::GameState;
use byog_game::save::{self, FileStore, HEADER_LEN, SAVE_FILE_NAME, SaveError, SaveStore};
use byog_worlds::generator::GeneratorSettings;

use crate::common::{act, played_game};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The payload length a save's header declares.
fn payload_len(bytes: &[u8]) -> usize {
    u64::from_le_bytes(bytes[12..20].try_into().unwrap()) as usize
}

/// Runs `load` on another thread and fails the test if it takes more than 20 seconds (a
/// FIFO that is opened for reading without a writer would block for ever).
fn load_within_limit(store: FileStore) -> Result<Option<GameState>, SaveError> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(store.load());
    });
    rx.recv_timeout(std::time::Duration::from_secs(20))
        .expect("loading must never hang (a FIFO or device in the save's place)")
}

fn assert_names_path(err: &SaveError, path: &Path) {
    let message = err.to_string();
    assert!(
        message.contains(&path.display().to_string()),
        "the message {message:?} does not name {}",
        path.display()
    );
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn new_game(seed: u64) -> GameState {
    GameState::new(seed, 80, 30, GeneratorSettings::default()).unwrap()
}

fn byog(save_dir: &Path, input: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_byog"))
        .arg("--save-dir")
        .arg(save_dir)
        .arg(input)
        .env_remove("BYOG_SAVE_DIR")
        .output()
        .expect("the byog binary runs")
}

#[test]
fn binary_save_load_and_damaged_save() {
    let tmp = tempfile::tempdir().unwrap();
    let dir: PathBuf = tmp.path().join("saves");
    let save_path = dir.join(SAVE_FILE_NAME);

    // `L` with no save: a clean end.
    let out = byog(&dir, "L");
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "stdout: {}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("no saved game"),
        "stderr: {}",
        text(&out.stderr)
    );
    assert!(!save_path.exists(), "L must not create a save");

    // `:Q` writes the save, the same game as in the library.
    let out = byog(&dir, "N999SDDD:Q");
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let saved = read(&save_path);
    let mut expected = new_game(999);
    for key in "DDD".chars() {
        expected.apply(act(key));
    }
    assert_eq!(saved, save::encode(&expected));
    assert_eq!(text(&out.stdout), expected.world().to_string());

    // Loading and going on gives the same world as never saving.
    let whole = byog(&dir, "N999SDDDWWWDDD");
    assert_eq!(whole.status.code(), Some(0));
    let resumed = byog(&dir, "LWWWDDD");
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed.stderr));
    assert_eq!(text(&resumed.stdout), text(&whole.stdout));
    assert!(!resumed.stdout.is_empty());
    // `N999SDDDWWWDDD` has no `:Q`, so the save is still the one above.
    assert_eq!(read(&save_path), saved);

    // A damaged save: exit 2, the path and "damaged" on stderr, nothing on stdout, and the
    // file untouched.
    let mut bad = saved.clone();
    let mid = HEADER_LEN + payload_len(&bad) / 2;
    bad[mid] ^= 0x40;
    fs::write(&save_path, &bad).unwrap();
    let out = byog(&dir, "L");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(out.stdout.is_empty(), "stdout: {}", text(&out.stdout));
    assert!(stderr.contains("damaged"), "stderr: {stderr}");
    assert!(
        stderr.contains(&save_path.display().to_string()),
        "stderr {stderr:?} does not name {}",
        save_path.display()
    );
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    assert_eq!(read(&save_path), bad, "loading changed the damaged save");

    // `L...:Q` over a damaged save: still refused, and the damaged file is not overwritten.
    let out = byog(&dir, "LWW:Q");
    assert_eq!(out.status.code(), Some(2), "stderr: {}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    assert_eq!(read(&save_path), bad);
    assert_eq!(entries(&dir), [SAVE_FILE_NAME]);
}

#[test]
fn binary_truncated_save_and_directory_save() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let save_path = dir.join(SAVE_FILE_NAME);

    let good = save::encode(&played_game(5));
    let cut = &good[..good.len() / 2];
    fs::write(&save_path, cut).unwrap();
    let out = byog(&dir, "L");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.contains("truncated"), "stderr: {stderr}");
    assert!(
        stderr.contains(&save_path.display().to_string()),
        "{stderr}"
    );
    assert_eq!(read(&save_path), cut);

    fs::remove_file(&save_path).unwrap();
    fs::create_dir(&save_path).unwrap();
    let out = byog(&dir, "L");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.contains("directory"), "stderr: {stderr}");
    assert!(
        stderr.contains(&save_path.display().to_string()),
        "{stderr}"
    );
    let out = byog(&dir, "N1S:Q");
    assert_eq!(out.status.code(), Some(2), "stderr: {}", text(&out.stderr));
    assert!(save_path.is_dir());
}

#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_the_save_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(SAVE_FILE_NAME);
    let made = Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(made.success());
    let err = load_within_limit(FileStore::in_dir(dir.path())).unwrap_err();
    assert!(matches!(err, SaveError::NotAFile { .. }), "{err:?}");
    assert!(err.to_string().contains("FIFO"), "{err}");
    assert_names_path(&err, &path);
    // Through the binary, bounded by `timeout`: exit 2, not a hang.
    let out = Command::new("timeout")
        .arg("20")
        .arg(env!("CARGO_BIN_EXE_byog"))
        .args(["--save-dir"])
        .arg(dir.path())
        .arg("L")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("not a regular file"));
}

#[cfg(unix)]
#[test]
fn a_device_as_the_save_folder_is_named_as_not_a_folder() {
    // A user found `--save-dir /dev/null` answered "File exists (os error 17)".
    let err = FileStore::in_dir("/dev/null")
        .save(&played_game(3))
        .unwrap_err();
    assert!(matches!(err, SaveError::FolderIsAFile { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("/dev/null is not a folder (it is a character device)"),
        "{msg}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(["--save-dir", "/dev/null", "N1SD:Q"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a folder"),
        "{}",
        text(&out.stderr)
    );
    assert!(!text(&out.stderr).contains("os error 17"));
}

#[test]
fn two_games_in_two_slots_load_back_each_into_its_own_game() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_byog"))
            .arg("--save-dir")
            .arg(dir.path())
            .args(args)
            .env_remove("BYOG_SAVE_DIR")
            .output()
            .unwrap()
    };
    assert!(run(&["N5SDDD:Q"]).status.success());
    assert!(run(&["--slot", "second", "R7SSS:Q"]).status.success());
    assert!(dir.path().join(SAVE_FILE_NAME).exists());
    assert!(dir.path().join("second.bin").exists());
    let first = run(&["--json", "LW"]);
    let second = run(&["--slot", "second", "--json", "LS"]);
    let json = |o: &Output| -> serde_json::Value { serde_json::from_slice(&o.stdout).unwrap() };
    assert_eq!(
        json(&first)["history"],
        json(&run(&["--json", "N5SDDDW"]))["history"]
    );
    assert_eq!(
        json(&second)["history"],
        json(&run(&["--json", "R7SSSS"]))["history"]
    );
    // The listing names both, with what each holds.
    let slots = save::slots(dir.path());
    let names: Vec<&str> = slots.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["save", "second"]);
    assert_eq!(slots[1].summary.as_ref().unwrap().seed, 7);
    // A name that is no slot name is refused, naming the flag.
    let bad = run(&["--slot", "../x", "N1S:Q"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("--slot"),
        "{}",
        text(&bad.stderr)
    );
}
