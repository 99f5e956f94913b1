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

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;

use crate::accounts::Account;
use crate::games::{GameHandle, Input, MAX_BATCH_KEYS, MAX_VIEW, Out};
use crate::limits::{Bucket, Slot};
use crate::verify::blake2b_hex;
use crate::{App, Limits};

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

/// What a player's connection owes its game, in the order the page sent it.
#[derive(Debug)]
enum Pending {
    /// Batch `n`.
    Input(u64, Input),
    /// The view's size.
    View(u32, u32),
    /// The pointer's cell.
    Pointer(Option<(u32, u32)>),
    /// An ask for the observation.
    Observe,
    /// An ask for the key log and the observation of the same moment.
    Log,
}

/// Most batches a connection keeps for its game while the game's own queue is full; past
/// them a batch is refused with `rate` and its `n` (the page sends it again).
const MAX_WAITING_BATCHES: usize = 64;

/// Most cells a view may have: a larger one keeps its columns and loses rows. A run's frame
/// costs the server (painted and encoded, `cargo bench -p byog-web -- frame/view`) 43 µs at
/// 80 × 30 cells, 0.1 ms at 200 × 60, 0.2 ms at 400 × 50 and 1.2 ms at 400 × 400
/// (`docs/web.md`, "Limits"); the page asks for what fits its window, 80 × 30 to 160 × 90 on
/// a 4K screen.
pub const MAX_VIEW_CELLS: u32 = 20_000;

/// The view a page asks for, as the server paints it: 10..=[`MAX_VIEW`] columns by
/// 5..=[`MAX_VIEW`] rows, at most [`MAX_VIEW_CELLS`] cells.
pub fn view_size(cols: u32, rows: u32) -> (u32, u32) {
    let cols = cols.clamp(10, MAX_VIEW);
    let rows = rows.clamp(5, MAX_VIEW).min((MAX_VIEW_CELLS / cols).max(5));
    (cols, rows)
}

/// What the connection will send its game: batches in order, and between two batches only
/// the newest view, the newest pointer and one ask for the observation, each passed on at
/// most at its rate (a batch waiting behind one lets it go at once, paid for later).
struct Outbox {
    queue: VecDeque<Pending>,
    batches: usize,
    views: Bucket,
    observes: Bucket,
}

/// What the outbox has to send.
enum Next {
    /// This, now.
    Now(Pending),
    /// Something, at that time (its rate).
    At(tokio::time::Instant),
    /// Nothing.
    Empty,
}

impl Outbox {
    fn new(limits: &Limits) -> Outbox {
        Outbox {
            queue: VecDeque::new(),
            batches: 0,
            views: Bucket::new(limits.views_per_second, limits.views_per_second.max(1.0)),
            observes: Bucket::new(
                limits.observes_per_second,
                limits.observes_per_second.max(1.0),
            ),
        }
    }

    /// Adds `p`: a view, a pointer or an ask replaces one of its kind added since the last
    /// batch. Gives back a batch when [`MAX_WAITING_BATCHES`] wait already.
    fn push(&mut self, p: Pending) -> Result<(), Pending> {
        if let Pending::Input(..) = p {
            if self.batches >= MAX_WAITING_BATCHES {
                return Err(p);
            }
            self.batches += 1;
        } else if let Some(q) = self
            .queue
            .iter_mut()
            .rev()
            .take_while(|q| !matches!(q, Pending::Input(..)))
            .find(|q| std::mem::discriminant(*q) == std::mem::discriminant(&p))
        {
            *q = p;
            return Ok(());
        }
        self.queue.push_back(p);
        Ok(())
    }

    fn next(&mut self) -> Next {
        let bucket = match self.queue.front() {
            None => return Next::Empty,
            Some(Pending::Input(..)) => None,
            Some(Pending::View(..) | Pending::Pointer(_)) => Some(&mut self.views),
            Some(Pending::Observe | Pending::Log) => Some(&mut self.observes),
        };
        if let Some(b) = bucket {
            let wait = b.wait_for(1.0);
            if wait > Duration::ZERO && self.batches == 0 {
                return Next::At(tokio::time::Instant::now() + wait);
            }
            let _ = b.spend(1.0);
        }
        match self.queue.pop_front() {
            Some(p) => {
                if let Pending::Input(..) = p {
                    self.batches -= 1;
                }
                Next::Now(p)
            }
            None => Next::Empty,
        }
    }
}

/// A command on its way to the game; the answer to send the page when it was an ask (an
/// observation, a key log).
type Sending = Pin<Box<dyn Future<Output = Option<String>> + Send>>;

fn send_to_game(handle: &GameHandle, conn: u64, p: Pending) -> Sending {
    let handle = handle.clone();
    Box::pin(async move {
        match p {
            Pending::Input(n, input) => handle.input(conn, n, input).await,
            Pending::View(cols, rows) => handle.view(conn, cols, rows).await,
            Pending::Pointer(cell) => handle.pointer(conn, cell).await,
            Pending::Observe => {
                return handle
                    .observe(conn)
                    .await
                    .map(|json| format!(r#"{{"type":"observation","observation":{json}}}"#));
            }
            Pending::Log => {
                return Some(match handle.log(conn).await {
                    Some((keys, observation)) => format!(
                        r#"{{"type":"log","keys":{},"observation":{observation}}}"#,
                        serde_json::Value::from(keys)
                    ),
                    None => serde_json::json!({
                        "type": "error", "code": "log-hidden",
                        "message": "this game's keys start with its seed, hidden until the game (or its day) is over",
                    })
                    .to_string(),
                });
            }
        }
        None
    })
}

/// A batch not played for a limit: `rate` with its `n`, so the page sends it again.
fn refused(n: u64, message: String) -> Message {
    Message::Text(Utf8Bytes::from(
        serde_json::json!({"type": "error", "code": "rate", "n": n, "message": message})
            .to_string(),
    ))
}

/// When a paused reader reads again (far off when it is not paused: that branch is off).
fn or_never(at: Option<tokio::time::Instant>) -> tokio::time::Instant {
    at.unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600))
}

/// A player's connection: its messages read at most at [`Limits::messages_per_second`]
/// (past it the socket is not read until the rate allows), its batches checked against
/// the keys' rate and passed on in order through an [`Outbox`], one command at a time,
/// while the game's frames are written as they come: the connection never waits on its
/// game without also taking the game's frames.
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
        .is_some_and(|s| blake2b_hex(s.as_bytes()) == row.secret_hash);
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
    let limits = app.limits;
    let mut outbox = Outbox::new(&limits);
    if let (Some(c), Some(r)) = (cols, rows) {
        let (c, r) = view_size(c, r);
        let _ = outbox.push(Pending::View(c, r));
    }
    let welcome = serde_json::json!({
        "type": "welcome", "role": "player", "game": game, "acked": acked,
    });
    if sink
        .send(Message::Text(Utf8Bytes::from(welcome.to_string())))
        .await
        .is_err()
    {
        drop(out);
        handle.detach(conn).await;
        return;
    }
    let mut keys = Bucket::new(limits.keys_per_second, limits.keys_burst);
    let mut messages = Bucket::new(limits.messages_per_second, limits.messages_burst);
    let mut read_at: Option<tokio::time::Instant> = None;
    let mut sending: Option<Sending> = None;
    let mut bad = 0;
    loop {
        let mut wake = None;
        if sending.is_none() {
            match outbox.next() {
                Next::Now(p) => sending = Some(send_to_game(&handle, conn, p)),
                Next::At(t) => wake = Some(t),
                Next::Empty => {}
            }
        }
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
            answer = async { sending.as_mut().expect("a command on its way").await },
                if sending.is_some() =>
            {
                sending = None;
                if let Some(msg) = answer
                    && sink.send(Message::Text(Utf8Bytes::from(msg))).await.is_err()
                {
                    break;
                }
            }
            () = tokio::time::sleep_until(or_never(wake)), if wake.is_some() => {}
            () = tokio::time::sleep_until(or_never(read_at)), if read_at.is_some() => {
                read_at = None;
            }
            incoming = stream.next(), if read_at.is_none() => {
                if let Some(wait) = messages.spend(1.0) {
                    read_at = Some(tokio::time::Instant::now() + wait);
                }
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
                let pending = match msg {
                    ClientMessage::Keys { n, keys: batch } => {
                        let count = batch.chars().count();
                        if count > MAX_BATCH_KEYS || !batch.chars().all(byog_shell::keys::is_typed) {
                            bad += 1;
                            let _ = sink.send(error("bad-keys", &format!(
                                "a batch holds 1 to {MAX_BATCH_KEYS} keys, printable ASCII, Tab, Backspace or Escape"
                            ))).await;
                            if bad >= MAX_BAD {
                                break;
                            }
                            continue;
                        }
                        if !keys.take(count.max(1) as f64) {
                            let _ = sink.send(refused(n, format!(
                                "too many keys: at most {} a second; batch {n} was not played, send it again",
                                limits.keys_per_second
                            ))).await;
                            continue;
                        }
                        Pending::Input(n, Input::Keys(batch))
                    }
                    ClientMessage::Click { n, x, y } => {
                        if !keys.take(1.0) {
                            let _ = sink.send(refused(n, format!(
                                "too many clicks: at most {} a second with the keys; batch {n} was not played, send it again",
                                limits.keys_per_second
                            ))).await;
                            continue;
                        }
                        Pending::Input(n, Input::Click(x, y))
                    }
                    ClientMessage::View { cols, rows } => {
                        let (cols, rows) = view_size(cols, rows);
                        Pending::View(cols, rows)
                    }
                    ClientMessage::Pointer { x, y } => Pending::Pointer(x.zip(y)),
                    ClientMessage::Observe => Pending::Observe,
                    ClientMessage::Log => Pending::Log,
                    ClientMessage::Play { .. } | ClientMessage::Watch { .. } => {
                        let _ = sink.send(error("bad-message", "this connection already plays a game")).await;
                        continue;
                    }
                };
                if let Err(Pending::Input(n, _)) = outbox.push(pending) {
                    let _ = sink.send(refused(n, format!(
                        "{MAX_WAITING_BATCHES} batches wait for the game already; batch {n} was not played, send it again"
                    ))).await;
                }
            }
        }
    }
    // The game's frames for this connection are not read any more: let the game know at
    // once (its sends fail) before saying the connection closed.
    drop(out);
    drop(sending);
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
    let mut messages = Bucket::new(app.limits.messages_per_second, app.limits.messages_burst);
    let mut read_at: Option<tokio::time::Instant> = None;
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(or_never(read_at)), if read_at.is_some() => {
                read_at = None;
            }
            changed = frames.changed() => {
                if changed.is_err() {
                    break;
                }
                let frame = Arc::clone(&*frames.borrow_and_update());
                if !frame.is_empty() && sink.send(text(&frame)).await.is_err() {
                    break;
                }
            }
            incoming = stream.next(), if read_at.is_none() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(Message::Binary(_))) => {
                    let _ = sink.send(error("binary", "messages are JSON text, not binary")).await;
                    break;
                }
                // A watcher's keys are ignored, and read no faster than a player's.
                Some(Ok(_)) => {
                    if let Some(wait) = messages.spend(1.0) {
                        read_at = Some(tokio::time::Instant::now() + wait);
                    }
                }
            },
        }
    }
}
