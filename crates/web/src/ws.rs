//! The websocket (`GET /ws`, `docs/web.md`, "The websocket"): one connection plays or
//! watches one game. Every message is one JSON text frame.
//!
//! The page says first what it wants: `{"type": "play", "game", "secret"}` (the secret
//! `POST /api/play` gave, or the signed-in account that made the game) or `{"type":
//! "watch", "game"}`. The server answers `{"type": "welcome", "role", "game", "acked"}`,
//! then the current frame. A player then sends `keys` (`{"type": "keys", "n", "keys"}`)
//! and `click` (`{"type": "click", "n", "x", "y"}`) batches numbered from `acked + 1`;
//! `view` (`cols`, `rows`) and `pointer` (`x`, `y`, or neither when off the view);
//! `observe`; and `log` (the game's key log and the observation of the same moment, for a
//! game whose seed is not hidden). Each batch is answered by the frame that carries its number in `ack`, sent
//! once the keys are in the database; a batch numbered at or below `acked` was played
//! already and is answered with the current frame. Errors are `{"type": "error", "code",
//! "message"}`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;

use crate::App;
use crate::accounts::Account;
use crate::games::{Input, MAX_BATCH_KEYS, Out};
use crate::limits::{Bucket, Slot};
use crate::verify::hash_hex;

/// Largest message the server reads: 16 KiB (a batch of 64 keys is under 200 bytes;
/// tungstenite's own default is 64 MiB).
pub const MAX_MESSAGE: usize = 16 * 1024;

/// The connection's read buffer: 4 KiB (tungstenite's default is 128 KiB a connection).
pub const READ_BUFFER: usize = 4096;

/// Seconds a connection may take to say what it wants.
const HELLO_SECONDS: u64 = 10;

/// Bad messages a connection may send before it is closed.
const MAX_BAD: u32 = 20;

/// A message from the page.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ClientMessage {
    Play {
        game: String,
        #[serde(default)]
        secret: Option<String>,
        #[serde(default)]
        cols: Option<u32>,
        #[serde(default)]
        rows: Option<u32>,
    },
    Watch {
        game: String,
    },
    Keys {
        n: u64,
        keys: String,
    },
    Click {
        n: u64,
        x: u32,
        y: u32,
    },
    View {
        cols: u32,
        rows: u32,
    },
    Pointer {
        #[serde(default)]
        x: Option<u32>,
        #[serde(default)]
        y: Option<u32>,
    },
    Observe,
    Log,
}

fn error(code: &str, message: &str) -> Message {
    Message::Text(Utf8Bytes::from(
        serde_json::json!({"type": "error", "code": code, "message": message}).to_string(),
    ))
}

fn text(out: &Out) -> Message {
    Message::Text(Utf8Bytes::from(out.to_string()))
}

/// Serves one websocket connection until it closes.
pub async fn connection(
    app: Arc<App>,
    socket: WebSocket,
    _slot: Slot,
    account: Option<Account>,
    addr: SocketAddr,
) {
    let (mut sink, mut stream) = socket.split();
    let _ = addr;
    // The first message: play or watch.
    let first = tokio::time::timeout(Duration::from_secs(HELLO_SECONDS), async {
        loop {
            match stream.next().await {
                Some(Ok(Message::Text(t))) => {
                    return Some(serde_json::from_str::<ClientMessage>(t.as_str()));
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                _ => return None,
            }
        }
    })
    .await;
    let hello = match first {
        Ok(Some(Ok(m))) => m,
        Ok(Some(Err(e))) => {
            let _ = sink
                .send(error("bad-message", &format!("not a message: {e}")))
                .await;
            return;
        }
        _ => return,
    };
    match hello {
        ClientMessage::Play {
            game,
            secret,
            cols,
            rows,
        } => play(app, sink, stream, game, secret, cols, rows, account).await,
        ClientMessage::Watch { game } => watch(app, sink, stream, game).await,
        _ => {
            let _ = sink
                .send(error(
                    "bad-message",
                    "say first what you want: {\"type\": \"play\"} or {\"type\": \"watch\"}",
                ))
                .await;
        }
    }
}

type Sink = futures_util::stream::SplitSink<WebSocket, Message>;
type Stream = futures_util::stream::SplitStream<WebSocket>;

#[allow(clippy::too_many_arguments)]
async fn play(
    app: Arc<App>,
    mut sink: Sink,
    mut stream: Stream,
    game: String,
    secret: Option<String>,
    cols: Option<u32>,
    rows: Option<u32>,
    account: Option<Account>,
) {
    let row = match app.store.game(&game) {
        Ok(Some(row)) => row,
        _ => {
            let _ = sink
                .send(error("no-game", &format!("no game {game}")))
                .await;
            return;
        }
    };
    let by_secret = secret
        .as_deref()
        .is_some_and(|s| hash_hex(s.as_bytes()) == row.secret_hash);
    let by_account = account.as_ref().is_some_and(|a| row.account == Some(a.id));
    if !(by_secret || by_account) {
        let _ = sink
            .send(error(
                "not-yours",
                "this game is another player's: watch it instead",
            ))
            .await;
        return;
    }
    let conn = app.games.conn_id();
    let (handle, acked, mut out) = match app.games.attach(&game, conn).await {
        Ok(x) => x,
        Err(e) => {
            let _ = sink.send(error("no-game", &e.to_string())).await;
            return;
        }
    };
    if let (Some(c), Some(r)) = (cols, rows) {
        handle.view(conn, c, r).await;
    }
    let welcome = serde_json::json!({
        "type": "welcome", "role": "player", "game": game, "acked": acked,
    });
    if sink
        .send(Message::Text(Utf8Bytes::from(welcome.to_string())))
        .await
        .is_err()
    {
        handle.detach(conn).await;
        return;
    }
    let mut bucket = Bucket::new(app.limits.keys_per_second, app.limits.keys_burst);
    let mut bad = 0;
    loop {
        tokio::select! {
            msg = out.recv() => match msg {
                Some(m) => {
                    let replaced = m.contains("\"code\":\"replaced\"");
                    if sink.send(text(&m)).await.is_err() || replaced {
                        break;
                    }
                }
                None => break,
            },
            incoming = stream.next() => {
                let t = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        let _ = sink.send(error("binary", "messages are JSON text, not binary")).await;
                        let _ = sink.send(Message::Close(Some(CloseFrame {
                            code: 1003,
                            reason: Utf8Bytes::from_static("text only"),
                        }))).await;
                        break;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Err(e)) => {
                        let _ = sink.send(error("too-large", &format!("the connection failed: {e}"))).await;
                        break;
                    }
                };
                let msg = match serde_json::from_str::<ClientMessage>(t.as_str()) {
                    Ok(m) => m,
                    Err(e) => {
                        bad += 1;
                        let _ = sink.send(error("bad-message", &format!("not a message: {e}"))).await;
                        if bad >= MAX_BAD {
                            break;
                        }
                        continue;
                    }
                };
                match msg {
                    ClientMessage::Keys { n, keys } => {
                        let count = keys.chars().count();
                        if count > MAX_BATCH_KEYS || !keys.chars().all(byog_shell::keys::is_typed) {
                            bad += 1;
                            let _ = sink.send(error("bad-keys", &format!(
                                "a batch holds 1 to {MAX_BATCH_KEYS} keys, printable ASCII, Tab, Backspace or Escape"
                            ))).await;
                            if bad >= MAX_BAD {
                                break;
                            }
                            continue;
                        }
                        if !bucket.take(count.max(1) as f64) {
                            let _ = sink.send(Message::Text(Utf8Bytes::from(serde_json::json!({
                                "type": "error", "code": "rate", "n": n,
                                "message": format!("too many keys: at most {} a second; batch {n} was not played, send it again", app.limits.keys_per_second),
                            }).to_string()))).await;
                            continue;
                        }
                        handle.input(conn, n, Input::Keys(keys)).await;
                    }
                    ClientMessage::Click { n, x, y } => {
                        if !bucket.take(1.0) {
                            let _ = sink.send(error("rate", "too many clicks")).await;
                            continue;
                        }
                        handle.input(conn, n, Input::Click(x, y)).await;
                    }
                    ClientMessage::View { cols, rows } => handle.view(conn, cols, rows).await,
                    ClientMessage::Pointer { x, y } => {
                        handle.pointer(conn, x.zip(y)).await;
                    }
                    ClientMessage::Observe => {
                        if let Some(json) = handle.observe(conn).await {
                            let msg = format!(r#"{{"type":"observation","observation":{json}}}"#);
                            if sink.send(Message::Text(Utf8Bytes::from(msg))).await.is_err() {
                                break;
                            }
                        }
                    }
                    ClientMessage::Log => {
                        let msg = match handle.log(conn).await {
                            Some((keys, observation)) => format!(
                                r#"{{"type":"log","keys":{},"observation":{observation}}}"#,
                                serde_json::Value::from(keys)
                            ),
                            None => serde_json::json!({
                                "type": "error", "code": "log-hidden",
                                "message": "this game's keys start with its seed, hidden until the game (or its day) is over",
                            })
                            .to_string(),
                        };
                        if sink.send(Message::Text(Utf8Bytes::from(msg))).await.is_err() {
                            break;
                        }
                    }
                    ClientMessage::Play { .. } | ClientMessage::Watch { .. } => {
                        let _ = sink.send(error("bad-message", "this connection already plays a game")).await;
                    }
                }
            }
        }
    }
    handle.detach(conn).await;
}

async fn watch(app: Arc<App>, mut sink: Sink, mut stream: Stream, game: String) {
    let row = match app.store.game(&game) {
        Ok(Some(row)) => row,
        _ => {
            let _ = sink
                .send(error("no-game", &format!("no game {game}")))
                .await;
            return;
        }
    };
    if row.board == "daily"
        && !crate::daily::revealed(row.day.as_deref().unwrap_or(""), crate::store::now_unix())
    {
        let _ = sink
            .send(error(
                "hidden",
                "today's daily games are watched once the day is over",
            ))
            .await;
        return;
    }
    let handle = match app.games.open(&game).await {
        Ok(h) => h,
        Err(e) => {
            let _ = sink.send(error("no-game", &e.to_string())).await;
            return;
        }
    };
    let mut frames = handle.frames();
    let welcome = serde_json::json!({"type": "welcome", "role": "watcher", "game": game});
    if sink
        .send(Message::Text(Utf8Bytes::from(welcome.to_string())))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            changed = frames.changed() => {
                if changed.is_err() {
                    break;
                }
                let frame = Arc::clone(&*frames.borrow_and_update());
                if !frame.is_empty() && sink.send(text(&frame)).await.is_err() {
                    break;
                }
            }
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(Message::Binary(_))) => {
                    let _ = sink.send(error("binary", "messages are JSON text, not binary")).await;
                    break;
                }
                // A watcher's keys are ignored.
                Some(Ok(_)) => {}
            },
        }
    }
}
