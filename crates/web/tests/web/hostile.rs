//! Hostile input: clear errors, limits that hold, no panic, nothing stored that should not
//! be.

use std::time::{Duration, Instant};

use futures_util::SinkExt;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

/// The server still answers.
async fn alive(server: &Server) {
    let a = http(server.addr, "GET", "/api/health", &[], None).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.json()["ok"], true);
}

fn accounts(server: &Server) -> i64 {
    server
        .app
        .store
        .read(|c| Ok(c.query_row("SELECT count(*) FROM accounts", [], |r| r.get(0))?))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_get_clear_errors_and_the_game_goes_on() {
    let server = start().await;
    let (game, secret) = new_game(server.addr, "run", 5, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    for bad in [
        "not json",
        "{\"type\": \"keys\"}",
        "{\"type\": \"fly\"}",
        "[1, 2, 3]",
        "{\"type\": \"keys\", \"n\": -1, \"keys\": \"W\"}",
    ] {
        ws.stream.send(Message::Text(bad.into())).await.unwrap();
        let e = ws.until(|m| m["type"] == "error").await;
        assert_eq!(e["code"], "bad-message", "{bad}");
    }
    // Keys that are not keys, and too many in one batch.
    ws.send(json!({"type": "keys", "n": 1, "keys": "W\u{0}"}))
        .await;
    assert_eq!(ws.until(|m| m["type"] == "error").await["code"], "bad-keys");
    ws.send(json!({"type": "keys", "n": 1, "keys": "W".repeat(65)}))
        .await;
    assert_eq!(ws.until(|m| m["type"] == "error").await["code"], "bad-keys");
    // The game is untouched and goes on.
    keys(&mut ws, 1, "D").await;
    assert_eq!(server.app.store.log(&game).unwrap().1, 1);
    // A binary frame: refused, the connection closed.
    ws.stream
        .send(Message::Binary(vec![0u8; 16].into()))
        .await
        .unwrap();
    assert_eq!(ws.until(|m| m["type"] == "error").await["code"], "binary");
    assert!(ws.next().await.is_none(), "closed");
    alive(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_megabyte_message_is_cut_off_and_the_server_lives() {
    let server = start().await;
    let mut ws = Ws::connect(server.addr, &[]).await.unwrap();
    let huge = format!(
        "{{\"type\": \"watch\", \"game\": \"{}\"}}",
        "x".repeat(100 * 1024 * 1024)
    );
    // The server closes the connection once the message passes its limit: the send may
    // fail half-way, or the next read sees the close.
    let _ = ws.stream.send(Message::Text(huge.into())).await;
    let closed = tokio::time::timeout(Duration::from_secs(20), ws.next()).await;
    assert!(matches!(closed, Ok(None) | Err(_) | Ok(Some(_))));
    alive(&server).await;
    // A 100 MB request body: refused before it is read.
    let body = vec![b'a'; 100 * 1024 * 1024];
    let a = http(server.addr, "POST", "/api/verify", &[], Some(&body)).await;
    assert!(a.status == 413 || a.status == 0, "{}", a.status);
    alive(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_keys_is_held_to_the_rate() {
    let server = start().await;
    let (game, secret) = new_game(server.addr, "run", 8, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    let started = Instant::now();
    // 600 keys as fast as the socket takes them.
    for n in 1..=300u64 {
        ws.send(json!({"type": "keys", "n": n, "keys": "WS"})).await;
    }
    let msgs = ws.drain(Duration::from_millis(500)).await;
    let seconds = started.elapsed().as_secs_f64();
    let acked = msgs
        .iter()
        .filter(|m| m["type"] == "frame")
        .filter_map(|m| m["ack"].as_u64())
        .max()
        .unwrap_or(0);
    let rated = msgs.iter().filter(|m| m["code"] == "rate").count();
    let limits = byog_web::Limits::default();
    let budget = limits.keys_burst + limits.keys_per_second * seconds;
    assert!(rated > 0, "the flood was refused in part");
    assert!(
        (acked * 2) as f64 <= budget + 2.0,
        "{acked} batches of 2 in {seconds:.2} s"
    );
    // Batches past the first refused one are out of order: nothing was skipped.
    let log = server.app.store.log(&game).unwrap();
    assert_eq!(log.1, acked);
    alive(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_per_address_are_limited() {
    let server = start_with(|o| o.limits.connections_per_address = 3).await;
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(Ws::connect(server.addr, &[]).await.unwrap());
    }
    let refused = Ws::connect(server.addr, &[]).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 429),
        other => panic!("a fourth connection: {:?}", other.map(|_| ())),
    }
    drop(open.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        Ws::connect(server.addr, &[]).await.is_ok(),
        "a slot came back"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_origin_is_refused_on_the_websocket_and_every_post() {
    let server = start().await;
    let evil = [("Origin", "http://evil.example")];
    match Ws::connect(server.addr, &evil).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 403),
        other => panic!("{:?}", other.map(|_| ())),
    }
    let own = format!("http://{}", server.addr);
    assert!(Ws::connect(server.addr, &[("Origin", &own)]).await.is_ok());
    for path in [
        "/api/signup",
        "/api/login",
        "/api/play",
        "/api/scores",
        "/api/verify",
        "/api/logout",
    ] {
        let a = http(
            server.addr,
            "POST",
            path,
            &evil,
            Some(
                json!({"name": "mallory", "password": "12345678", "mode": "run", "keys": "R1S"})
                    .to_string()
                    .as_bytes(),
            ),
        )
        .await;
        assert_eq!(a.status, 403, "{path}");
        assert_eq!(a.json()["code"], "origin");
    }
    assert_eq!(accounts(&server), 0, "nothing stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paths_outside_the_page_are_not_found() {
    let server = start().await;
    for path in [
        "/../Cargo.toml",
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/app.js/../../src/lib.rs",
        "/page/index.html",
        "/src/lib.rs",
        "//etc/passwd",
    ] {
        let a = http(server.addr, "GET", path, &[], None).await;
        assert!(a.status == 404 || a.status == 400, "{path}: {}", a.status);
        assert!(!a.body.contains("root:"), "{path}");
    }
    let page = http(server.addr, "GET", "/", &[], None).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<canvas"));
    let js = http(server.addr, "GET", "/app.js", &[], None).await;
    assert_eq!(
        js.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sql_in_names_and_wrong_passwords_in_a_loop() {
    let server = start_with(|o| o.limits.login_failures = 5).await;
    for name in [
        "x'; DROP TABLE accounts; --",
        "a\" OR 1=1 --",
        "Robert'); --",
        "",
    ] {
        let a = post(
            server.addr,
            "/api/signup",
            json!({"name": name, "password": "long enough"}),
            None,
        )
        .await;
        assert_eq!(a.status, 400, "{name}");
        assert_eq!(a.json()["code"], "name");
        let a = post(
            server.addr,
            "/api/login",
            json!({"name": name, "password": "long enough"}),
            None,
        )
        .await;
        assert_eq!(a.status, 401, "{name}");
    }
    assert_eq!(accounts(&server), 0);
    let _ = sign_up(server.addr, "linus").await;
    assert_eq!(accounts(&server), 1);
    let mut statuses = Vec::new();
    for i in 0..8 {
        let a = post(
            server.addr,
            "/api/login",
            json!({"name": "linus", "password": format!("wrong {i}")}),
            None,
        )
        .await;
        assert!(a.cookie().is_none());
        statuses.push(a.status);
    }
    // The failures before the limit (the SQL names above counted for this address too),
    // then only "wait".
    assert!(
        statuses.contains(&401) && statuses.ends_with(&[429, 429, 429]),
        "{statuses:?}"
    );
    let right = post(
        server.addr,
        "/api/login",
        json!({"name": "linus", "password": "a good password"}),
        None,
    )
    .await;
    assert_eq!(
        right.status, 429,
        "blocked even with the right password while the window lasts"
    );
    // Bad JSON bodies.
    let a = http(server.addr, "POST", "/api/login", &[], Some(b"{not json")).await;
    assert!(a.status == 400 || a.status == 422, "{}", a.status);
    let a = http(
        server.addr,
        "POST",
        "/api/play",
        &[],
        Some(b"{\"mode\": \"fly\"}"),
    )
    .await;
    assert_eq!(a.status, 400);
    let a = http(
        server.addr,
        "POST",
        "/api/play",
        &[],
        Some(b"{\"mode\": \"run\", \"seed\": \"9223372036854775808\"}"),
    )
    .await;
    assert_eq!((a.status, a.json()["code"].as_str()), (400, Some("seed")));
    alive(&server).await;
}
