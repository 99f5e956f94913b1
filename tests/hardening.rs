//! Issue 31's regressions through the binary (docs/robustness.md, "Two probes"): files that are
//! not byog's (links, FIFOs, devices), partial saves swept, a gigabyte of junk as the save.
//! Each test failed before its fix. The library's (a signal during a save, loading that reads
//! headers first, the message log kept in saves) are the game's `hardening.rs`.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};

use byog_game::save::{self, SAVE_FILE_NAME};

use crate::common::stderr;

/// `byog ARGS` bounded by `timeout 20` (a FIFO opened for writing without a reader would
/// block for ever), with no display and no `BYOG_SAVE_DIR`.
fn byog_bounded(args: &[&str]) -> Output {
    Command::new("timeout")
        .arg("20")
        .arg(env!("CARGO_BIN_EXE_byog"))
        .args(args)
        .env_remove("BYOG_SAVE_DIR")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

#[cfg(unix)]
fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    fs::symlink_metadata(path).unwrap().file_type().is_fifo()
}

fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).unwrap().file_type().is_symlink()
}

/// Hands `link` (a symlink) to another user, as a link planted by someone else would be;
/// `false` when this process may not (not root).
#[cfg(unix)]
fn give_link_away(link: &Path) -> bool {
    std::os::unix::fs::lchown(link, Some(65534), Some(65534)).is_ok()
}

fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    n.sort();
    n
}

// ---------------------------------------------------------------------------------------------
// 1. `gen --png PATH`: refuse what is not a regular file, write through an own link, atomically
// ---------------------------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn gen_png_writes_through_an_own_link_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.png");
    fs::write(&real, b"an older picture").unwrap();
    let link = dir.path().join("picture.png");
    std::os::unix::fs::symlink("real.png", &link).unwrap();
    let out = byog_bounded(&[
        "gen",
        "--seed",
        "1",
        "--width",
        "21",
        "--height",
        "11",
        "--format",
        "none",
        "--png",
        s(&link),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(is_symlink(&link), "the link was replaced by a plain file");
    assert!(fs::read(&real).unwrap().starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(names(dir.path()), ["picture.png", "real.png"]);
}

#[cfg(unix)]
#[test]
fn gen_png_refuses_a_fifo_and_a_device_and_replaces_neither() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.png");
    mkfifo(&fifo);
    let out = byog_bounded(&[
        "gen",
        "--seed",
        "1",
        "--width",
        "21",
        "--height",
        "11",
        "--format",
        "none",
        "--png",
        s(&fifo),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("pipe.png") && err.contains("not a regular file (a FIFO)"),
        "{err}"
    );
    assert!(is_fifo(&fifo), "the FIFO was replaced");
    // A device node (as root, `--png /dev/full` replaced the system's device): made here, in
    // a scratch folder, where this process may.
    let device = dir.path().join("full");
    let made = Command::new("mknod")
        .arg(&device)
        .args(["c", "1", "7"])
        .status()
        .is_ok_and(|s| s.success());
    if made {
        let out = byog_bounded(&[
            "gen",
            "--seed",
            "1",
            "--width",
            "21",
            "--height",
            "11",
            "--format",
            "none",
            "--png",
            s(&device),
        ]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("a character device"),
            "{}",
            stderr(&out)
        );
        use std::os::unix::fs::FileTypeExt;
        assert!(
            fs::symlink_metadata(&device)
                .unwrap()
                .file_type()
                .is_char_device()
        );
    } else {
        eprintln!("skipped the device: mknod needs root");
    }
}

#[cfg(unix)]
#[test]
fn gen_png_refuses_another_users_link() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept.png");
    fs::write(&kept, b"not yours").unwrap();
    let link = dir.path().join("planted.png");
    std::os::unix::fs::symlink(&kept, &link).unwrap();
    if !give_link_away(&link) {
        eprintln!("skipped: handing a link to another user needs root");
        return;
    }
    let out = byog_bounded(&[
        "gen",
        "--seed",
        "1",
        "--width",
        "21",
        "--height",
        "11",
        "--format",
        "none",
        "--png",
        s(&link),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("owned by another user"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read(&kept).unwrap(), b"not yours");
}

// ---------------------------------------------------------------------------------------------
// 2. `:Q` and symlinks: only an own link to an existing regular file; no folder for a link
// ---------------------------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn save_refuses_a_link_planted_by_another_user() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join("saves");
    fs::create_dir(&saves).unwrap();
    let secret = dir.path().join("secret");
    fs::write(&secret, b"root's 0600 file").unwrap();
    let link = saves.join(SAVE_FILE_NAME);
    std::os::unix::fs::symlink(&secret, &link).unwrap();
    if !give_link_away(&link) {
        eprintln!("skipped: handing a link to another user needs root");
        return;
    }
    let out = byog_bounded(&["replay", "--save-dir", s(&saves), "N1SDD:Q"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(s(&link)) && err.contains(s(&secret)), "{err}");
    assert!(err.contains("owned by another user"), "{err}");
    assert_eq!(fs::read(&secret).unwrap(), b"root's 0600 file");
    assert!(is_symlink(&link));
}

#[cfg(unix)]
#[test]
fn save_refuses_a_dangling_link_and_makes_no_folder_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join("saves");
    fs::create_dir(&saves).unwrap();
    let nowhere = dir.path().join("nonexistent/deeper/save.bin");
    let link = saves.join(SAVE_FILE_NAME);
    std::os::unix::fs::symlink(&nowhere, &link).unwrap();
    let out = byog_bounded(&["replay", "--save-dir", s(&saves), "N1SDD:Q"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(s(&link)) && err.contains(s(&nowhere)), "{err}");
    assert!(err.contains("does not exist"), "{err}");
    assert!(
        !dir.path().join("nonexistent").exists(),
        "a folder was made for the link"
    );
    assert!(is_symlink(&link));
}

// ---------------------------------------------------------------------------------------------
// 3. Partial `.save-*.tmp` files: removed on a signal during a save, swept by the next save
// ---------------------------------------------------------------------------------------------

/// The id of a process that has ended (its id may be taken again, but not within the test).
fn a_dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[test]
fn the_next_save_sweeps_stale_partial_saves_and_keeps_live_ones() {
    let dir = tempfile::tempdir().unwrap();
    let dead = format!(".save-{}-0-00000000000000aa.tmp", a_dead_pid());
    // This test's own process lives: its partial save is not touched.
    let live = format!(".save-{}-3-00000000000000bb.tmp", std::process::id());
    for name in [
        dead.as_str(),
        live.as_str(),
        ".save-Xy12Ab.tmp",
        ".save-fresh.tmp",
    ] {
        fs::write(dir.path().join(name), vec![0u8; 4096]).unwrap();
    }
    // An older byog's name, untouched for longer than any save takes.
    let old = fs::File::options()
        .write(true)
        .open(dir.path().join(".save-Xy12Ab.tmp"))
        .unwrap();
    old.set_modified(std::time::SystemTime::now() - save::STALE_AGE * 2)
        .unwrap();
    drop(old);
    let out = byog_bounded(&["replay", "--save-dir", s(dir.path()), "N1SDD:Q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut kept = vec![
        ".save-fresh.tmp".to_string(),
        live,
        SAVE_FILE_NAME.to_string(),
    ];
    kept.sort();
    assert_eq!(names(dir.path()), kept);
}

// ---------------------------------------------------------------------------------------------
// 4. `play --screenshot` to a FIFO: refused before anything opens
// ---------------------------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn play_screenshot_refuses_a_fifo_before_anything_opens() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("shot.png");
    mkfifo(&fifo);
    let out = byog_bounded(&[
        "play",
        "--save-dir",
        s(dir.path()),
        "--keys",
        "N1S",
        "--screenshot",
        s(&fifo),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("cannot write the screenshot") && err.contains("a FIFO"),
        "{err}"
    );
    assert!(is_fifo(&fifo));
}

// ---------------------------------------------------------------------------------------------
// 6-7. Headers first: a gigabyte of junk is refused at once, the slot list reads headers only
// ---------------------------------------------------------------------------------------------

/// A sparse file of `len` bytes at `path` starting with `head`.
fn sparse(path: &Path, head: &[u8], len: u64) {
    let mut f = fs::File::create(path).unwrap();
    f.write_all(head).unwrap();
    f.set_len(len).unwrap();
}

/// A header of format 7 stating a payload that fills a file of `len` bytes.
fn header_for(len: u64) -> Vec<u8> {
    let mut h = save::MAGIC.to_vec();
    h.extend_from_slice(&save::FORMAT_VERSION.to_le_bytes());
    h.extend_from_slice(&(len - (save::HEADER_LEN + save::CHECKSUM_LEN) as u64).to_le_bytes());
    h
}

/// Runs `sh -c SCRIPT` with `ulimit -v 600000` (about 586 MiB of address space).
fn under_memory_limit(script: &str, envs: &[(&str, &Path)]) -> Output {
    let mut c = Command::new("sh");
    c.arg("-c").arg(format!("ulimit -v 600000 && {script}"));
    for (k, v) in envs {
        c.env(k, v);
    }
    c.env_remove("BYOG_SAVE_DIR").output().unwrap()
}

#[cfg(unix)]
#[test]
fn a_gigabyte_of_junk_as_the_save_is_refused_at_once_under_a_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(SAVE_FILE_NAME);
    sparse(&path, b"", 1 << 30);
    let out = under_memory_limit(
        "exec \"$BYOG\" replay --save-dir \"$DIR\" L",
        &[
            ("BYOG", Path::new(env!("CARGO_BIN_EXE_byog"))),
            ("DIR", dir.path()),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is not a byog save"),
        "{}",
        stderr(&out)
    );
    // A header whose stated length does not fit the file is refused before the payload too.
    let mut head = header_for(1 << 30);
    head[12..20].copy_from_slice(&1000u64.to_le_bytes());
    sparse(&path, &head, 1 << 30);
    let out = under_memory_limit(
        "exec \"$BYOG\" replay --save-dir \"$DIR\" L",
        &[
            ("BYOG", Path::new(env!("CARGO_BIN_EXE_byog"))),
            ("DIR", dir.path()),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unexpected bytes after the checksum"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::metadata(&path).unwrap().len(),
        1 << 30,
        "loading changed the file"
    );
}

// ---------------------------------------------------------------------------------------------
// 10. The message log survives saving and loading (format 7)
// ---------------------------------------------------------------------------------------------
