//! The server killed (SIGKILL, not a graceful stop) and started again: every acknowledged
//! batch is there, and the game resumes where its last acknowledged key left it.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::json;

use crate::common::*;

/// The folder the child server keeps its database in, when this process is the child.
const CHILD_DIR: &str = "BYOG_WEB_TEST_CHILD_DIR";

/// Not a test: the server of `the_server_killed_and_restarted_resumes_every_acknowledged_key`,
/// run in a child process of this test binary (it serves until killed).
#[test]
#[ignore = "run by the restart test in a child process"]
fn child_server() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async move {
        let options = byog_web::ServeOptions {
            data: dir.clone().into(),
            ..byog_web::ServeOptions::default()
        };
        let app = byog_web::App::new(&options).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let tmp = Path::new(&dir).join("port.tmp");
        std::fs::write(&tmp, port.to_string()).unwrap();
        std::fs::rename(&tmp, Path::new(&dir).join("port")).unwrap();
        byog_web::serve_on(app, listener, std::future::pending())
            .await
            .unwrap();
    });
}

/// Starts the child server over `dir`; returns it and its address.
fn spawn(dir: &Path) -> (Child, std::net::SocketAddr) {
    let _ = std::fs::remove_file(dir.join("port"));
    let child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "restart::child_server",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR, dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut child = child;
    for _ in 0..400 {
        if let Ok(p) = std::fs::read_to_string(dir.join("port")) {
            return (child, format!("127.0.0.1:{p}").parse().unwrap());
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the child server did not start");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_killed_and_restarted_resumes_every_acknowledged_key() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, addr) = spawn(dir.path());
    let (game, secret) = new_game(addr, "run", 42, None).await;
    let (mut ws, _) = player(addr, &game, &secret).await;
    // Acknowledged batches, mid-floor.
    let sent = ["DD", "W", "SSA", "D", "DW", "A", "S", "W"];
    let mut acked = String::from("R42S");
    for (i, k) in sent.iter().enumerate() {
        keys(&mut ws, i as u64 + 1, k).await;
        acked.push_str(k);
    }
    let before = observe(&mut ws).await;
    // More batches sent, and the server killed before it could answer them all.
    for (i, k) in ["D", "D", "S", "A"].iter().enumerate() {
        ws.send(json!({"type": "keys", "n": sent.len() + i + 1, "keys": k}))
            .await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    drop(ws);
    let (mut child, addr) = spawn(dir.path());
    let (mut ws, welcome) = player(addr, &game, &secret).await;
    let n = welcome["acked"].as_u64().unwrap();
    assert!(
        n >= sent.len() as u64,
        "every acknowledged batch is kept: {n}"
    );
    // The game is exactly its acknowledged keys: those before the kill, and any of the
    // unanswered ones the server had written.
    let mut expected = acked.clone();
    for k in ["D", "D", "S", "A"].iter().take(n as usize - sent.len()) {
        expected.push_str(k);
    }
    let now = observe(&mut ws).await;
    assert_eq!(now, replayed(&expected));
    if n == sent.len() as u64 {
        assert_eq!(now, before);
    }
    // The page sends its unacknowledged batches again: played once each, in order.
    for (i, k) in ["D", "D", "S", "A"].iter().enumerate() {
        keys(&mut ws, sent.len() as u64 + i as u64 + 1, k).await;
    }
    assert_eq!(observe(&mut ws).await, replayed(&format!("{acked}DDSA")));
    child.kill().unwrap();
    child.wait().unwrap();
}
