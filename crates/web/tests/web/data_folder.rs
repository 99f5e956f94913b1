//! The data folder while a server runs: one server per folder; no `-shm` file to fault on;
//! a database file deleted under the server stops every acknowledgement.

use std::time::Duration;

use serde_json::json;

use crate::child::Child;
use crate::common::*;
use byog_web::store::StoreError;
use byog_web::{App, ServeError, ServeOptions};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_one_folder_is_refused_naming_the_first_pid() {
    let dir = tempfile::tempdir().unwrap();
    let first = Child::spawn(dir.path());
    let options = ServeOptions {
        data: dir.path().to_owned(),
        ..ServeOptions::default()
    };
    let err = App::new(&options).await.unwrap_err();
    match &err {
        ServeError::Store {
            source: StoreError::Locked { pid, lock },
            ..
        } => {
            assert_eq!(*pid, Some(first.pid()));
            assert_eq!(lock, &dir.path().join("byog.lock"));
        }
        other => panic!("a second server: {other}"),
    }
    let msg = err.to_string();
    assert!(
        msg.contains(&format!("pid {}", first.pid()))
            && msg.contains("byog.lock")
            && msg.contains("one server per data folder"),
        "{msg}"
    );
    // The first still serves.
    assert_eq!(
        http(first.addr, "GET", "/api/health", &[], None)
            .await
            .status,
        200
    );
    // Once it is gone (killed: the kernel releases its lock), a server starts.
    first.kill();
    let app = App::new(&options).await.unwrap();
    assert!(app.store.startup().is_empty(), "{:?}", app.store.startup());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_shm_file_is_mapped_while_serving() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_owned();
    let server = start_with(|o| o.data = data).await;
    let (game, secret) = new_game(server.addr, "run", 42, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    keys(&mut ws, 1, "DD").await;
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["byog.lock", "byog.sqlite3", "byog.sqlite3-wal"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_deleted_while_running_answers_store_errors_and_acknowledges_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_owned();
    let server = start_with(|o| o.data = data).await;
    let (game, secret) = new_game(server.addr, "run", 42, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    keys(&mut ws, 1, "DD").await;
    std::fs::remove_file(dir.path().join("byog.sqlite3")).unwrap();
    for _ in 0..2 {
        // Sent (again) until acknowledged, as the page does: never acknowledged.
        ws.send(json!({"type": "keys", "n": 2, "keys": "S"})).await;
        let m = ws
            .until(|m| m["type"] == "error" || m["ack"].as_u64().is_some_and(|a| a >= 2))
            .await;
        assert_eq!(m["code"], "store", "{m}");
        let text = m["message"].as_str().unwrap();
        assert!(
            text.contains("byog.sqlite3") && text.contains("deleted") && text.contains("restart"),
            "{text}"
        );
    }
    assert!(
        ws.drain(Duration::from_millis(300))
            .await
            .iter()
            .all(|m| m["ack"].as_u64().is_none_or(|a| a < 2)),
        "no frame acknowledges batch 2"
    );
    // Any other write is refused too, with the reason.
    let e = server.app.store.write(|_| Ok(0)).await.unwrap_err();
    assert!(matches!(e, StoreError::Replaced(_)), "{e}");
}
