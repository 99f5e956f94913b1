//! `byog serve` as an operator starts it: one server per data folder (a second exits with
//! code 2 naming the first's pid), a damaged database refused with code 2, and `--recover`
//! starting over it and saying what it kept. (The server's own faults are tested in the
//! `byog-web` package.)

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::common::byog;

/// `byog serve` on a free port over `data`, once it says it listens; its stderr's lines
/// until then.
fn serve(data: &Path, extra: &[&str]) -> (Child, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(["serve", "--bind", "127.0.0.1:0", "--data"])
        .arg(data)
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => {
                let up = line.contains("open http://");
                lines.push(line);
                if up {
                    return (child, lines);
                }
            }
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("byog serve did not start: {lines:?}");
            }
        }
    }
}

#[test]
fn a_second_server_on_one_data_folder_exits_2_naming_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let (mut first, _) = serve(dir.path(), &[]);
    let data = dir.path().to_str().unwrap();
    let second = byog(&["serve", "--bind", "127.0.0.1:0", "--data", data]);
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("pid {}", first.id()))
            && err.contains(&dir.path().join("byog.lock").display().to_string())
            && err.contains("one server per data folder"),
        "{err}"
    );
    first.kill().unwrap();
    first.wait().unwrap();
}

#[test]
fn a_damaged_database_exits_2_and_recover_starts_over_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("byog.sqlite3");
    std::fs::write(&db, b"not a database, but not byog's to delete either").unwrap();
    let data = dir.path().to_str().unwrap();
    let refused = byog(&["serve", "--bind", "127.0.0.1:0", "--data", data]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert!(
        err.contains("byog.sqlite3") && err.contains("damaged") && err.contains("--recover"),
        "{err}"
    );
    let (mut server, lines) = serve(dir.path(), &["--recover"]);
    let said = lines.join("\n");
    assert!(said.contains("is kept as"), "{said}");
    server.kill().unwrap();
    server.wait().unwrap();
    // The damaged file is kept beside the fresh database, as it was.
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("byog.sqlite3.damaged-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(
        std::fs::read(&kept[0]).unwrap(),
        b"not a database, but not byog's to delete either"
    );
}
