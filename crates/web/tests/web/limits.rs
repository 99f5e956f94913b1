//! The limits counted before the work they guard: sign-ins and sign-ups sent at once, the
//! password workers, games made, HTTP connections and their timeouts, origins (DNS
//! rebinding), and websocket floods of views, pointers and asks that must hold up no other
//! player and freeze no game.

use std::net::{IpAddr, SocketAddr};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

fn accounts(server: &Server) -> i64 {
    server
        .app
        .store
        .read(|c| Ok(c.query_row("SELECT count(*) FROM accounts", [], |r| r.get(0))?))
        .unwrap()
}

/// A TCP connection to `addr` from the loopback address `from` (Linux answers on all of
/// 127.0.0.0/8), so that one test can be several addresses.
async fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(from.parse::<IpAddr>().unwrap(), 0))
        .unwrap();
    socket.connect(addr).await.unwrap()
}

/// Sends `request` (the whole of it, as written) on a connection from `from`; answers the
/// status (0 when the connection closed unanswered) and the body.
async fn raw(from: &str, addr: SocketAddr, request: &str) -> (u16, String) {
    let mut s = connect_from(from, addr).await;
    let _ = s.write_all(request.as_bytes()).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut out)).await;
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

/// A POST of `body` from `from`, with `headers` (a `Host` among them, or the server's).
async fn post_from(
    from: &str,
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
    body: &Value,
) -> (u16, Value) {
    let body = body.to_string();
    let mut req = format!("POST {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str(&format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    ));
    let (status, body) = raw(from, addr, &req).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// `count` POSTs of `body(i)` to `path` sent at once; their statuses and codes.
async fn at_once(
    addr: SocketAddr,
    path: &'static str,
    count: usize,
    body: impl Fn(usize) -> Value,
) -> Vec<(u16, String)> {
    let tasks: Vec<_> = (0..count)
        .map(|i| {
            let b = body(i);
            tokio::spawn(async move {
                let a = post(addr, path, b, None).await;
                (a.status, a.json()["code"].as_str().unwrap_or("").to_owned())
            })
        })
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

fn count(answers: &[(u16, String)], status: u16, code: &str) -> usize {
    answers
        .iter()
        .filter(|(s, c)| *s == status && c == code)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_passwords_sent_at_once_past_the_limit_are_refused_before_hashing() {
    let server = start().await;
    sign_up(server.addr, "ada").await;
    let hashes = server.app.hasher.runs();
    let answers = at_once(
        server.addr,
        "/api/login",
        40,
        |i| json!({"name": "ada", "password": format!("wrong guess {i}")}),
    )
    .await;
    let limit = byog_web::Limits::default().login_failures;
    assert_eq!(count(&answers, 401, "wrong"), limit, "{answers:?}");
    assert_eq!(count(&answers, 429, "rate"), 40 - limit, "{answers:?}");
    assert_eq!(
        server.app.hasher.runs() - hashes,
        limit as u64,
        "only the attempts within the limit were hashed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ups_sent_at_once_past_the_hours_limit_are_refused() {
    let server = start_with(|o| o.limits.hash_queue = 64).await;
    let answers = at_once(
        server.addr,
        "/api/signup",
        30,
        |i| json!({"name": format!("player{i}"), "password": "a good password"}),
    )
    .await;
    let limit = byog_web::Limits::default().signups_per_hour;
    let made = answers.iter().filter(|(s, _)| *s == 200).count();
    assert_eq!(made, limit, "{answers:?}");
    assert_eq!(count(&answers, 429, "rate"), 30 - limit, "{answers:?}");
    assert_eq!(accounts(&server), limit as i64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn taken_names_count_against_the_hour_and_cost_no_hash() {
    let server = start_with(|o| o.limits.signups_per_hour = 5).await;
    sign_up(server.addr, "ada").await;
    let hashes = server.app.hasher.runs();
    let mut statuses = Vec::new();
    for _ in 0..8 {
        let a = post(
            server.addr,
            "/api/signup",
            json!({"name": "ADA", "password": "another password"}),
            None,
        )
        .await;
        statuses.push((a.status, a.json()["code"].as_str().unwrap_or("").to_owned()));
    }
    // Four more sign-ups fit the hour (the first counted too), each a taken name; then the
    // address waits, whatever the name.
    assert_eq!(count(&statuses, 409, "taken"), 4, "{statuses:?}");
    assert_eq!(count(&statuses, 429, "rate"), 4, "{statuses:?}");
    let a = post(
        server.addr,
        "/api/signup",
        json!({"name": "grace", "password": "a good password"}),
        None,
    )
    .await;
    assert_eq!(a.status, 429);
    assert_eq!(server.app.hasher.runs(), hashes, "no taken name was hashed");

    // Three hundred sign-ups of a taken name at once: none hashed.
    let server = start_with(|o| {
        o.limits.signups_per_hour = 1000;
        o.limits.http_connections_per_address = 1000;
    })
    .await;
    sign_up(server.addr, "ada").await;
    let hashes = server.app.hasher.runs();
    let answers = at_once(
        server.addr,
        "/api/signup",
        300,
        |i| json!({"name": "ada", "password": format!("password {i}")}),
    )
    .await;
    assert_eq!(count(&answers, 409, "taken"), 300);
    assert_eq!(server.app.hasher.runs(), hashes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_password_workers_refuse_what_their_queue_cannot_hold() {
    let server = start_with(|o| {
        o.limits.hash_workers = 1;
        o.limits.hash_queue = 2;
        o.limits.signups_per_hour = 1000;
    })
    .await;
    assert_eq!(server.app.hasher.workers(), 1);
    let answers = at_once(
        server.addr,
        "/api/signup",
        24,
        |i| json!({"name": format!("player{i}"), "password": "a good password"}),
    )
    .await;
    let made = answers.iter().filter(|(s, _)| *s == 200).count();
    let busy = count(&answers, 429, "busy");
    assert!(made >= 2, "the queue's at least: {answers:?}");
    assert!(busy > 0, "the rest refused at once: {answers:?}");
    assert_eq!(made + busy, 24, "{answers:?}");
    assert_eq!(accounts(&server), made as i64);
    assert_eq!(server.app.hasher.runs(), made as u64, "one hash an account");
    // The refused ones were not counted against the hour, and the workers are free again.
    let a = post(
        server.addr,
        "/api/signup",
        json!({"name": "player0", "password": "a good password"}),
        None,
    )
    .await;
    assert!(a.status == 200 || a.status == 409, "{}", a.body);
}

/// The child process's environment variable that runs [`memory_child`].
const MEMORY_CHILD: &str = "BYOG_WEB_TEST_MEMORY_CHILD";

/// A figure of `/proc/self/status`, in KiB.
fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap()
}

/// Not a test by itself: 300 sign-ups of new names and 300 of a taken one, all at once, in
/// a process of their own (run by `three_hundred_sign_ups_at_once_keep_the_server_small`),
/// which prints its peak and final resident sets.
#[test]
#[ignore = "run by three_hundred_sign_ups_at_once_keep_the_server_small in a child process"]
fn memory_child() {
    if std::env::var_os(MEMORY_CHILD).is_none() {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        // Only the password workers hold the sign-ups back.
        let server = start_with(|o| {
            o.limits.signups_per_hour = 100_000;
            o.limits.http_connections_per_address = 100_000;
        })
        .await;
        sign_up(server.addr, "taken").await;
        let before = status_kib("VmRSS:");
        let fresh = at_once(server.addr, "/api/signup", 300, |i| {
            json!({"name": format!("player{i}"), "password": "a good password"})
        });
        let taken = at_once(server.addr, "/api/signup", 300, |i| {
            json!({"name": "taken", "password": format!("password {i}")})
        });
        let (fresh, taken) = tokio::join!(fresh, taken);
        let made = fresh.iter().filter(|(s, _)| *s == 200).count();
        let busy = count(&fresh, 429, "busy");
        assert_eq!(made + busy, 300, "{fresh:?}");
        assert_eq!(count(&taken, 409, "taken"), 300);
        let peak = status_kib("VmHWM:");
        let after = status_kib("VmRSS:");
        println!(
            "memory: before {before} KiB, peak {peak} KiB, after {after} KiB; {made} made, {busy} busy, {} hashes",
            server.app.hasher.runs()
        );
    });
}

#[test]
fn three_hundred_sign_ups_at_once_keep_the_server_small() {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "limits::memory_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(MEMORY_CHILD, "1")
        .stderr(Stdio::inherit())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let line = text
        .lines()
        .find_map(|l| l.split_once("memory: ").map(|(_, figures)| figures))
        .unwrap_or_else(|| panic!("no figure: {text}"));
    eprintln!("{line}");
    let kib = |label: &str| -> u64 {
        line.split(label)
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap()
    };
    // The test process: the server, its 600 clients and the test harness.
    assert!(kib("peak ") < 300 * 1024, "{line}");
    assert!(kib("after ") < 300 * 1024, "{line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_games_are_limited_per_address_and_per_account() {
    let server = start_with(|o| {
        o.limits.games_burst = 3.0;
        o.limits.games_per_minute = 0.5;
    })
    .await;
    let play = json!({"mode": "run", "board": "seeded", "seed": 1});
    for _ in 0..3 {
        assert_eq!(
            post_from("127.0.0.1", server.addr, "/api/play", &[], &play)
                .await
                .0,
            200
        );
    }
    let (status, body) = post_from("127.0.0.1", server.addr, "/api/play", &[], &play).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate")),
        "{body}"
    );
    // Another address has its own games; an account its own, wherever it plays from.
    let (status, _) = post_from("127.0.0.2", server.addr, "/api/play", &[], &play).await;
    assert_eq!(status, 200);
    let (status, body) = post_from(
        "127.0.0.3",
        server.addr,
        "/api/signup",
        &[],
        &json!({"name": "ada", "password": "a good password"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let cookie = sign_in_cookie(server.addr).await;
    let with = [("Cookie", cookie.as_str())];
    for from in ["127.0.0.4", "127.0.0.5", "127.0.0.6"] {
        assert_eq!(
            post_from(from, server.addr, "/api/play", &with, &play)
                .await
                .0,
            200
        );
    }
    let (status, body) = post_from("127.0.0.7", server.addr, "/api/play", &with, &play).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate")),
        "the account's"
    );
    let (status, _) = post_from("127.0.0.7", server.addr, "/api/play", &[], &play).await;
    assert_eq!(status, 200, "that address without the account");
}

/// Signs in as `ada` (from 127.0.0.1); the cookie.
async fn sign_in_cookie(addr: SocketAddr) -> String {
    let a = post(
        addr,
        "/api/login",
        json!({"name": "ada", "password": "a good password"}),
        None,
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    a.cookie().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_headers_stalled_bodies_and_idle_connections_are_closed() {
    let server = start_with(|o| {
        o.limits.header_timeout = Duration::from_millis(500);
        o.limits.body_timeout = Duration::from_millis(500);
        o.limits.request_timeout = Duration::from_secs(2);
    })
    .await;
    let addr = server.addr;
    // Half the headers, then nothing; nothing at all; half a body, then nothing; a body a
    // byte at a time, each well within the body's timeout.
    let half_headers = tokio::spawn(async move {
        let (status, _) = raw("127.0.0.1", addr, "GET /api/health HTTP/1.1\r\nHost: x\r\n").await;
        status
    });
    let idle = tokio::spawn(async move { raw("127.0.0.1", addr, "").await.0 });
    let half_body = tokio::spawn(async move {
        let req = format!(
            "POST /api/verify HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"keys\": "
        );
        raw("127.0.0.1", addr, &req).await.0
    });
    let drip = tokio::spawn(async move {
        let mut s = connect_from("127.0.0.1", addr).await;
        let head = format!(
            "POST /api/verify HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
        );
        s.write_all(head.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        for _ in 0..100 {
            if s.write_all(b" ").await.is_err() {
                break;
            }
            // Whatever came back: an answer, or the end of the connection.
            if let Ok(r) =
                tokio::time::timeout(Duration::from_millis(200), s.read_buf(&mut answer)).await
            {
                let _ = r;
                break;
            }
        }
        String::from_utf8_lossy(&answer).into_owned()
    });
    let all = async {
        (
            half_headers.await.unwrap(),
            idle.await.unwrap(),
            half_body.await.unwrap(),
            drip.await.unwrap(),
        )
    };
    // Each is closed by the server within its timeout; 15 s is far past any of them.
    let (half_headers, idle, half_body, drip) = tokio::time::timeout(Duration::from_secs(15), all)
        .await
        .expect("the server closed them all");
    assert!(half_headers == 0 || half_headers == 408, "{half_headers}");
    assert_eq!(idle, 0);
    assert!(half_body >= 400, "answered as a bad request: {half_body}");
    assert!(
        drip.is_empty() || drip.starts_with("HTTP/1.1 408"),
        "a body that never ends is cut at the request's timeout: {drip}"
    );
    let a = http(addr, "GET", "/api/health", &[], None).await;
    assert_eq!(a.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_connections_per_address_are_capped() {
    let server = start_with(|o| o.limits.http_connections_per_address = 4).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut s = connect_from("127.0.0.1", server.addr).await;
        s.write_all(b"GET /api/health HTTP/1.1\r\n").await.unwrap();
        held.push(s);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (status, _) = raw(
        "127.0.0.1",
        server.addr,
        "GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status, 0, "a fifth connection is closed unanswered");
    let (status, _) = raw(
        "127.0.0.2",
        server.addr,
        "GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status, 200, "another address has its own");
    held.pop();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _) = raw(
        "127.0.0.1",
        server.addr,
        "GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status, 200, "a slot came back");
    // A websocket leaves the HTTP count once upgraded (it has its own).
    let mut sockets = Vec::new();
    for _ in 0..4 {
        sockets.push(Ws::connect(server.addr, &[]).await.unwrap());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebound_name_is_refused_on_every_post_and_the_websocket() {
    let server = start_with(|o| o.origins = vec!["https://byog.example/".into()]).await;
    let port = server.addr.port();
    let evil = format!("http://evil.example:{port}");
    let host = format!("evil.example:{port}");
    let rebound = [("Origin", evil.as_str()), ("Host", host.as_str())];
    for path in ["/api/signup", "/api/login", "/api/play", "/api/logout"] {
        let body = json!({"name": "mallory", "password": "12345678", "mode": "run"});
        let (status, answer) = post_from("127.0.0.1", server.addr, path, &rebound, &body).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (403, Some("origin")),
            "{path}"
        );
    }
    match Ws::connect(server.addr, &rebound).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 403),
        other => panic!("{:?}", other.map(|_| ())),
    }
    // The server's own origins, whatever the Host says; another port is another origin.
    let body = json!({"mode": "run", "board": "seeded", "seed": 1});
    for (origin, ok) in [
        (format!("http://localhost:{port}"), true),
        (format!("http://127.0.0.1:{port}"), true),
        (format!("http://[::1]:{port}"), true),
        ("https://byog.example".to_owned(), true),
        (format!("http://localhost:{}", port.wrapping_add(1)), false),
        (format!("https://127.0.0.1:{port}"), false),
        ("null".to_owned(), false),
    ] {
        let headers = [("Origin", origin.as_str()), ("Host", host.as_str())];
        let (status, answer) =
            post_from("127.0.0.1", server.addr, "/api/play", &headers, &body).await;
        assert_eq!(status == 200, ok, "{origin}: {status} {answer}");
    }
    let own = [("Origin", "https://byog.example")];
    assert!(Ws::connect(server.addr, &own).await.is_ok());
    assert_eq!(accounts(&server), 0, "nothing stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_refused_for_the_rate_carries_its_number() {
    let server = start_with(|o| {
        o.limits.keys_per_second = 0.01;
        o.limits.keys_burst = 1.0;
    })
    .await;
    let (game, secret) = new_game(server.addr, "run", 5, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    ws.send(json!({"type": "click", "n": 1, "x": 3, "y": 3}))
        .await;
    ws.send(json!({"type": "click", "n": 2, "x": 4, "y": 3}))
        .await;
    let e = ws.until(|m| m["type"] == "error").await;
    assert_eq!(
        (e["code"].as_str(), e["n"].as_u64()),
        (Some("rate"), Some(2)),
        "{e}"
    );
}

/// Pointer moves and views as fast as the socket takes them, each a new frame to paint,
/// none of them read back, until `stop` and for 2 s at least; how many were sent.
async fn flood(mut ws: Ws, stop: Arc<AtomicBool>) -> (Ws, u64) {
    let started = tokio::time::Instant::now();
    let mut sent = 0u64;
    while !stop.load(Ordering::Relaxed) || started.elapsed() < Duration::from_secs(2) {
        let m = if sent.is_multiple_of(10) {
            json!({"type": "view", "cols": 70 + sent % 11, "rows": 30})
        } else {
            json!({"type": "pointer", "x": sent % 70, "y": (sent / 70) % 30})
        };
        // A send the server does not read for a while (it reads a flood at its rate) is
        // given up, and the loop looks at `stop` again.
        let sending = ws.stream.send(Message::Text(m.to_string().into()));
        if tokio::time::timeout(Duration::from_millis(100), sending)
            .await
            .is_ok()
        {
            sent += 1;
        }
    }
    (ws, sent)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_view_and_pointer_flood_holds_up_no_other_player_and_freezes_no_game() {
    let server = start().await;
    let stop = Arc::new(AtomicBool::new(false));
    let mut floods = Vec::new();
    let mut flooded = Vec::new();
    for seed in 0..4 {
        let (game, secret) = new_game(server.addr, "run", 100 + seed, None).await;
        let (ws, _) = player(server.addr, &game, &secret).await;
        floods.push(tokio::spawn(flood(ws, Arc::clone(&stop))));
        flooded.push((game, secret));
    }
    // Another player's batches, one after another while the floods run: each is
    // acknowledged (within the helper's 10 s, far past the 20 ms a batch may take).
    let (game, secret) = new_game(server.addr, "run", 42, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    for n in 1..=40u64 {
        let frame = keys(&mut ws, n, if n % 2 == 0 { "D" } else { "A" }).await;
        assert!(frame["ack"].as_u64() >= Some(n));
    }
    assert!(
        floods.iter().all(|f| !f.is_finished()),
        "the floods ran all along"
    );
    stop.store(true, Ordering::Relaxed);
    let mut sent = 0;
    let mut flooders = Vec::new();
    for f in floods {
        let (ws, n) = f.await.unwrap();
        sent += n;
        flooders.push(ws);
    }
    assert!(sent > 400, "a flood: {sent} messages");
    // The flooders stay, reading nothing. Each flooded game still answers: a new
    // connection (another tab) takes the game over, plays a batch, and gets a view of the
    // size it asks for.
    for (game, secret) in &flooded {
        let (mut ws, welcome) = player(server.addr, game, secret).await;
        assert_eq!(welcome["acked"], 0);
        keys(&mut ws, 1, "D").await;
        ws.send(json!({"type": "view", "cols": 60, "rows": 20}))
            .await;
        ws.until(|m| m["type"] == "frame" && m["view"]["cols"] == 60)
            .await;
    }
    drop(flooders);
    assert_eq!(server.app.store.log(&game).unwrap().1, 40);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn views_sent_at_once_come_back_as_the_newest_and_asks_one_at_a_time() {
    let server = start().await;
    let (game, secret) = new_game(server.addr, "run", 9, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    // Past the floor's first screen, to the map (a text screen has no view).
    let frame = keys(&mut ws, 1, "D").await;
    assert_eq!(frame["screen"]["kind"], "game", "{frame}");
    ws.drain(Duration::from_millis(300)).await;
    for cols in 20..=79u32 {
        ws.send(json!({"type": "view", "cols": cols, "rows": 20}))
            .await;
    }
    let frames: Vec<Value> = ws
        .drain(Duration::from_millis(1500))
        .await
        .into_iter()
        .filter(|m| m["type"] == "frame")
        .collect();
    assert!(
        frames.len() < 30,
        "between two views passed on, only the newest is kept: {} frames for 60 views",
        frames.len()
    );
    assert_eq!(frames.last().unwrap()["view"]["cols"], 79, "the newest");
    // A view larger than the server paints keeps its columns and loses rows.
    ws.send(json!({"type": "view", "cols": 400, "rows": 400}))
        .await;
    let big = ws
        .until(|m| m["type"] == "frame" && m["view"]["cols"] == 400)
        .await;
    assert_eq!(
        big["view"]["rows"].as_u64(),
        Some(u64::from(byog_web::ws::MAX_VIEW_CELLS / 400))
    );
    // A hundred asks for the observation at once: a few answers, each the game's.
    for _ in 0..100 {
        ws.send(json!({"type": "observe"})).await;
    }
    let answers: Vec<Value> = ws
        .drain(Duration::from_millis(1500))
        .await
        .into_iter()
        .filter(|m| m["type"] == "observation")
        .collect();
    assert!(
        !answers.is_empty() && answers.len() <= 15,
        "{} answers",
        answers.len()
    );
    let log = server.app.store.log(&game).unwrap().0;
    assert_eq!(answers.last().unwrap()["observation"], replayed(&log));
    // Asks and views wait behind no batch, and no batch behind them.
    ws.send(json!({"type": "observe"})).await;
    let frame = keys(&mut ws, 2, "D").await;
    assert_eq!(frame["ack"], 2);
    let observed = observe(&mut ws).await;
    assert_eq!(observed, replayed(&server.app.store.log(&game).unwrap().0));
}
