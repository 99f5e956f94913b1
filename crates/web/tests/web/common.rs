//! A server on a free loopback port with its own database, and small HTTP and websocket
//! clients.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use byog_web::{App, GameOptions, ServeOptions};

/// A server running in this process.
pub struct Server {
    pub addr: SocketAddr,
    pub app: Arc<App>,
    _dir: tempfile::TempDir,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

/// A server with the default options, its database in a fresh folder.
pub async fn start() -> Server {
    start_with(|_| {}).await
}

/// A server with options changed by `f`.
pub async fn start_with(f: impl FnOnce(&mut ServeOptions)) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let mut options = ServeOptions {
        data: dir.path().to_owned(),
        ..ServeOptions::default()
    };
    f(&mut options);
    let app = App::new(&options).await.unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    // A deep accept queue: some tests open hundreds of connections at once, and past the
    // queue (std's 128) the kernel drops or resets them before the server sees them.
    let listener = socket.listen(1024).unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = Arc::clone(&app);
    tokio::spawn(async move {
        byog_web::serve_on(served, listener, async {
            let _ = stopped.await;
        })
        .await
        .unwrap();
    });
    Server {
        addr,
        app,
        _dir: dir,
        stop: Some(stop),
    }
}

/// An HTTP answer: status, headers (lower-case names), body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The session cookie it sets, as `name=value`.
    pub fn cookie(&self) -> Option<String> {
        self.header("set-cookie")
            .map(|c| c.split(';').next().unwrap_or("").to_owned())
    }
}

/// One HTTP/1.1 request (the path sent as written: no normalising).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Answer {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    if let Some(b) = body {
        // A refused body may close the connection before it is all sent.
        let _ = s.write_all(b).await;
    }
    let mut raw = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut raw)).await;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect::<Vec<_>>();
    let body = if headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v == "chunked")
    {
        unchunk(body)
    } else {
        body.to_owned()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// `POST path` with a JSON body.
pub async fn post(addr: SocketAddr, path: &str, body: Value, cookie: Option<&str>) -> Answer {
    let mut headers = vec![];
    if let Some(c) = cookie {
        headers.push(("Cookie", c));
    }
    http(
        addr,
        "POST",
        path,
        &headers,
        Some(body.to_string().as_bytes()),
    )
    .await
}

/// A new game: its id and secret.
pub async fn new_game(
    addr: SocketAddr,
    mode: &str,
    seed: u64,
    cookie: Option<&str>,
) -> (String, String) {
    let a = post(
        addr,
        "/api/play",
        json!({"mode": mode, "board": "seeded", "seed": seed}),
        cookie,
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    (
        v["game"].as_str().unwrap().to_owned(),
        v["secret"].as_str().unwrap_or("").to_owned(),
    )
}

/// A signed-up account's cookie.
pub async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let a = post(
        addr,
        "/api/signup",
        json!({"name": name, "password": "a good password"}),
        None,
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    a.cookie().unwrap()
}

/// A websocket client.
pub struct Ws {
    pub stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Ws {
    pub async fn connect(
        addr: SocketAddr,
        headers: &[(&str, &str)],
    ) -> Result<Ws, tungstenite::Error> {
        let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
        for (k, v) in headers {
            let name = tungstenite::http::HeaderName::from_bytes(k.as_bytes()).unwrap();
            req.headers_mut()
                .insert(name, tungstenite::http::HeaderValue::from_str(v).unwrap());
        }
        let (stream, _) = tokio_tungstenite::connect_async(req).await?;
        Ok(Ws { stream })
    }

    pub async fn send(&mut self, v: Value) {
        self.stream
            .send(Message::Text(v.to_string().into()))
            .await
            .unwrap();
    }

    /// The next JSON message, or `None` when the connection closed (10 s at most).
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(10), self.stream.next())
                .await
                .expect("a message within 10 s")?;
            match m {
                Ok(Message::Text(t)) => return Some(serde_json::from_str(t.as_str()).unwrap()),
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => continue,
            }
        }
    }

    /// Messages until one matches `pred`; panics if the connection closes first.
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.next().await.expect("the connection closed");
            if pred(&m) {
                return m;
            }
        }
    }

    /// Every message that arrives within `quiet` of the last one.
    pub async fn drain(&mut self, quiet: Duration) -> Vec<Value> {
        let mut out = Vec::new();
        while let Ok(Some(Ok(m))) = tokio::time::timeout(quiet, self.stream.next()).await {
            if let Message::Text(t) = m {
                out.push(serde_json::from_str(t.as_str()).unwrap());
            }
        }
        out
    }
}

/// Connects as the player of `game`; returns the connection and the welcome.
pub async fn player(addr: SocketAddr, game: &str, secret: &str) -> (Ws, Value) {
    let mut ws = Ws::connect(addr, &[]).await.unwrap();
    ws.send(json!({"type": "play", "game": game, "secret": secret}))
        .await;
    let welcome = ws.until(|m| m["type"] == "welcome").await;
    (ws, welcome)
}

/// Sends batch `n` of `keys` and waits for the frame that acknowledges it (a frame whose
/// `ack` is `n` or more: a batch played before is answered with where the game stands).
/// A batch refused for the rate (`keys a second`) is sent again after a pause, as the page
/// does.
pub async fn keys(ws: &mut Ws, n: u64, keys: &str) -> Value {
    loop {
        ws.send(json!({"type": "keys", "n": n, "keys": keys})).await;
        let m = ws
            .until(|m| {
                (m["type"] == "frame" && m["ack"].as_u64().is_some_and(|a| a >= n))
                    || (m["code"] == "rate" && m["n"] == n)
            })
            .await;
        if m["type"] == "frame" {
            return m;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The server's observation of the game (`{"type": "observe"}`).
pub async fn observe(ws: &mut Ws) -> Value {
    ws.send(json!({"type": "observe"})).await;
    ws.until(|m| m["type"] == "observation").await["observation"].clone()
}

/// What `byog replay --format json --view sight KEYS` prints, as JSON: the input string
/// run through the interpreter with the server's options.
pub fn replayed(keys: &str) -> Value {
    let mut i = GameOptions::default().interpreter();
    let mut store = byog_game::save::MemoryStore::default();
    byog_game::replay::replay(&mut i, keys, &mut store, false, &mut |_| ()).unwrap();
    serde_json::from_str(&byog_players::json::sight_state(&i)).unwrap()
}
