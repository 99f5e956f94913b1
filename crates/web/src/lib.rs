//! byog in the browser: `byog serve` (`docs/web.md`).
//!
//! The server runs every game as the shell's state machine, in memory, one task a game
//! ([`games`]); the page it serves ([`assets`], plain JavaScript modules shipped inside
//! the binary) paints the frames the shell decides ([`frame`]), as the window and the
//! terminal do. Each batch of keys is written to one SQLite database ([`store`]) before its
//! frame goes out, so a game is its key log and survives any disconnect or restart.
//! Spectators watch the player's own frames. Accounts ([`accounts`]) sign scores, which the
//! server computes by replaying keys ([`verify`]), never by trusting a claim; boards are
//! daily ([`daily`]), seeded and live. [`limits`] keeps one address or one connection from
//! taking the server.
//!
//! [`serve`] runs it; [`router`] is the whole HTTP surface, for tests.

pub mod accounts;
pub mod api;
pub mod assets;
pub mod daily;
pub mod frame;
pub mod games;
pub mod limits;
pub mod store;
pub mod verify;
pub mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State, WebSocketUpgrade};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper::body::Incoming;
use tower::ServiceExt;
use tower_http::timeout::TimeoutBody;

pub use games::Games;
pub use limits::Origins;
pub use store::{Store, StoreOptions, SyncMode};
pub use verify::GameOptions;

/// The limits a server holds (`docs/web.md`, "Limits").
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Keys a second one connection may send, on average.
    pub keys_per_second: f64,
    /// Keys one connection may send at once after a pause.
    pub keys_burst: f64,
    /// Websocket messages of any kind a second one connection may send, on average: past
    /// [`Limits::messages_burst`] the server reads its messages no faster (the rest wait in
    /// the network's buffers, and its sender waits).
    pub messages_per_second: f64,
    /// Websocket messages one connection may send at once after a pause.
    pub messages_burst: f64,
    /// View sizes and pointer cells a second one connection passes to its game (each paints
    /// a frame); between two, only the newest is kept.
    pub views_per_second: f64,
    /// Observations a second one connection may ask for (one at a time; asks made while one
    /// is on its way are answered by the next).
    pub observes_per_second: f64,
    /// Websocket connections open at once from one address.
    pub connections_per_address: u32,
    /// HTTP connections open at once from one address (a websocket leaves this count once
    /// upgraded, for [`Limits::connections_per_address`]); the next is closed unanswered.
    pub http_connections_per_address: u32,
    /// How long a request's headers may take, and an idle connection may stay open.
    pub header_timeout: Duration,
    /// How long a request body may stall between two of its chunks.
    pub body_timeout: Duration,
    /// How long a whole request may take (its body read and its answer made): 408 past it.
    pub request_timeout: Duration,
    /// Sign-in attempts not (yet) successful per address, and per name, within
    /// [`Limits::login_window`]: an attempt counts from before its password is checked.
    pub login_failures: usize,
    /// The window of `login_failures`.
    pub login_window: Duration,
    /// Sign-ups an hour per address, counted before the password is hashed, taken names
    /// included.
    pub signups_per_hour: usize,
    /// Games made (`POST /api/play`) a minute per address and per account, on average.
    pub games_per_minute: f64,
    /// Games made at once per address and per account.
    pub games_burst: f64,
    /// Threads that hash passwords (argon2, 19 MiB each); 0: one a core.
    pub hash_workers: usize,
    /// Passwords waiting for those threads; past it a sign-up or sign-in is refused (429
    /// `busy`).
    pub hash_queue: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            keys_per_second: 40.0,
            keys_burst: 80.0,
            messages_per_second: 100.0,
            messages_burst: 200.0,
            views_per_second: 20.0,
            observes_per_second: 10.0,
            connections_per_address: 32,
            http_connections_per_address: 64,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            login_failures: 10,
            login_window: Duration::from_secs(600),
            signups_per_hour: 20,
            games_per_minute: 10.0,
            games_burst: 30.0,
            hash_workers: 0,
            hash_queue: 16,
        }
    }
}

/// What `byog serve` is started with.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Where to listen (`--bind`, default `127.0.0.1:8080`).
    pub bind: String,
    /// The folder of the database (`--data`, default `byog-data`).
    pub data: PathBuf,
    /// The games' options (the common flags).
    pub game: GameOptions,
    /// The limits.
    pub limits: Limits,
    /// Origins accepted beside the server's own (`--origin`, e.g. `https://byog.example`
    /// behind a proxy).
    pub origins: Vec<String>,
    /// Seconds a game stays in memory with no player and no watcher (`--idle-seconds`).
    pub idle: Duration,
    /// How hard commits are synced.
    pub sync: SyncMode,
    /// Start even when the database fails its checks, keeping what reads back
    /// (`--recover`, [`StoreOptions::recover`]).
    pub recover: bool,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            bind: "127.0.0.1:8080".into(),
            data: PathBuf::from("byog-data"),
            game: GameOptions::default(),
            limits: Limits::default(),
            origins: Vec::new(),
            idle: Duration::from_secs(300),
            sync: SyncMode::Normal,
            recover: false,
        }
    }
}

/// Why the server could not start or had to stop.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened.
    #[error("cannot open the database in {}: {source}", dir.display())]
    Store {
        /// The folder.
        dir: PathBuf,
        /// Why.
        source: store::StoreError,
    },
    /// The address could not be listened on.
    #[error("cannot listen on {bind}: {source}")]
    Bind {
        /// The address as given.
        bind: String,
        /// Why.
        source: std::io::Error,
    },
    /// The runtime failed.
    #[error("the server failed: {0}")]
    Io(#[from] std::io::Error),
}

/// Everything a request handler reaches.
#[derive(Debug)]
pub struct App {
    /// The database.
    pub store: Arc<Store>,
    /// The games in memory.
    pub games: Arc<Games>,
    /// The games' options.
    pub options: GameOptions,
    /// The limits.
    pub limits: Limits,
    /// Websocket connections per address.
    pub conns: limits::Connections,
    /// Failed sign-ins.
    pub logins: limits::Attempts,
    /// Accounts made per address.
    pub signups: limits::Attempts,
    /// Games made per address and per account.
    pub plays: limits::Rates,
    /// The threads that run argon2.
    pub hasher: limits::Hasher,
    /// Origins accepted beside the server's own.
    pub origins: Vec<String>,
    /// The key of the daily seeds.
    pub daily_key: String,
}

impl App {
    /// The server's state over an opened database (what opening it found and did:
    /// [`Store::startup`]).
    ///
    /// # Errors
    /// [`ServeError::Store`] when the database cannot be opened: another server holds the
    /// folder, it fails its checks (without [`ServeOptions::recover`]), or a file cannot be
    /// used.
    pub async fn new(options: &ServeOptions) -> Result<Arc<App>, ServeError> {
        let store_options = StoreOptions {
            sync: options.sync,
            recover: options.recover,
        };
        let store = Arc::new(
            Store::open_with(&options.data, store_options).map_err(|source| ServeError::Store {
                dir: options.data.clone(),
                source,
            })?,
        );
        let daily_key = store
            .meta_or("daily_key", accounts::random_hex(32))
            .await
            .map_err(|source| ServeError::Store {
                dir: options.data.clone(),
                source,
            })?;
        Ok(Arc::new(App {
            games: Games::new(Arc::clone(&store), options.game, options.idle, &daily_key),
            store,
            options: options.game,
            limits: options.limits,
            conns: limits::Connections::new(options.limits.connections_per_address),
            logins: limits::Attempts::new(
                options.limits.login_failures,
                options.limits.login_window,
            ),
            signups: limits::Attempts::new(
                options.limits.signups_per_hour,
                Duration::from_secs(3600),
            ),
            plays: limits::Rates::new(options.limits.games_per_minute, options.limits.games_burst),
            hasher: limits::Hasher::new(options.limits.hash_workers, options.limits.hash_queue),
            origins: options.origins.clone(),
            daily_key,
        }))
    }
}

/// The address a connection reached the server at (its socket's local address), for
/// [`Origins::allows`].
#[derive(Debug, Clone, Copy)]
struct LocalAddr(SocketAddr);

/// Whether a request's `Origin` is acceptable: absent (not a browser: a browser always
/// sends it on a websocket and a POST) or one of `origins` for a connection that reached
/// the server at `local`.
pub fn origin_ok(origins: &Origins, headers: &HeaderMap, local: Option<SocketAddr>) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    origin.to_str().is_ok_and(|o| origins.allows(o, local))
}

/// Refuses a POST (any method but GET and HEAD) or a websocket from another origin (403).
async fn check_origin(
    State(origins): State<Arc<Origins>>,
    request: Request,
    next: Next,
) -> Response {
    let websocket = request.uri().path() == "/ws";
    let reading = matches!(*request.method(), Method::GET | Method::HEAD);
    let local = request.extensions().get::<LocalAddr>().map(|l| l.0);
    if (websocket || !reading) && !origin_ok(&origins, request.headers(), local) {
        let what = if websocket { "websocket" } else { "request" };
        return api::ApiError::new(
            StatusCode::FORBIDDEN,
            "origin",
            format!(
                "this {what} comes from another site's page (a server reached by a name, or \
                 behind a proxy, names its origin with --origin)"
            ),
        )
        .into_response();
    }
    next.run(request).await
}

/// Answers 408 when a request (its body read and its answer made) takes longer than
/// [`Limits::request_timeout`].
async fn deadline(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let limit = app.limits.request_timeout;
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => api::ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "timeout",
            format!("the request took longer than {} s", limit.as_secs_f64()),
        )
        .into_response(),
    }
}

/// `GET /ws` (its origin checked by [`check_origin`]): checks the address's connections,
/// then upgrades.
async fn ws_upgrade(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(slot) = app.conns.open(addr.ip()) else {
        return api::ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "connections",
            format!(
                "too many connections from {}: at most {}",
                addr.ip(),
                app.limits.connections_per_address
            ),
        )
        .into_response();
    };
    let account = api::account(&app, &headers);
    upgrade
        .max_message_size(ws::MAX_MESSAGE)
        .max_frame_size(ws::MAX_MESSAGE)
        // Small buffers: tungstenite's defaults (128 KiB each way) would be most of a
        // game's memory. A frame is a few KiB, written as soon as it is sent.
        .read_buffer_size(ws::READ_BUFFER)
        .write_buffer_size(0)
        .on_upgrade(move |socket| ws::connection(app, socket, slot, account, addr))
}

/// Largest request body: a submitted input string of [`verify::MAX_KEYS`] keys and room
/// for its JSON.
pub const MAX_BODY: usize = verify::MAX_KEYS + 4096;

/// The whole HTTP surface, accepting `origins`. Handlers read the client's address from
/// [`ConnectInfo`], which [`serve_on`] gives each request.
pub fn router(app: Arc<App>, origins: Origins) -> Router {
    Router::new()
        .route("/api/health", get(api::health))
        .route("/api/signup", post(api::signup))
        .route("/api/login", post(api::login))
        .route("/api/logout", post(api::logout))
        .route("/api/me", get(api::me))
        .route("/api/play", post(api::play))
        .route("/api/games", get(api::games))
        .route("/api/games/{id}", get(api::game))
        .route("/api/verify", post(api::verify_keys))
        .route("/api/scores", get(api::scores).post(api::submit_score))
        .route("/ws", get(ws_upgrade))
        .fallback(assets::serve)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(
            Arc::new(origins),
            check_origin,
        ))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), deadline))
        .with_state(app)
}

/// Whether an `accept` error is the one connection's (it went away before it was
/// accepted), not the listener's.
fn is_connection_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}

/// Serves on `listener` until `shutdown` resolves, then lets the requests under way finish.
///
/// Its own accept loop under the router: each address may hold
/// [`Limits::http_connections_per_address`] HTTP connections (the next is closed
/// unanswered); hyper reads each request's headers within [`Limits::header_timeout`] (an
/// idle connection is closed after as long), and a body may stall no longer than
/// [`Limits::body_timeout`] between its chunks.
///
/// # Errors
/// When the listener's address cannot be read.
pub async fn serve_on(
    app: Arc<App>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let bound = listener.local_addr()?;
    let limits = app.limits;
    let router = router(Arc::clone(&app), Origins::new(bound, &app.origins));
    let open = limits::Connections::new(limits.http_connections_per_address);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) if is_connection_error(&e) => continue,
                Err(_) => {
                    // Out of descriptors, most likely: they come back as connections close.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(slot) = open.open(remote.ip()) else {
            // Past the address's count: closed unanswered.
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let local = stream.local_addr().ok();
        let router = router.clone();
        let body_timeout = limits.body_timeout;
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(remote));
            if let Some(local) = local {
                request.extensions_mut().insert(LocalAddr(local));
            }
            let request = request.map(|body| Body::new(TimeoutBody::new(body_timeout, body)));
            router.clone().oneshot(request)
        });
        let connection = http
            .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
            .with_upgrades();
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            // The address's slot is given back when the connection ends (or is upgraded
            // to a websocket, which counts apart).
            let _slot = slot;
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = stopping.wait_for(|s| *s) => {}
            }
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        });
    }
    drop(listener);
    drop(stopping);
    let _ = stop.send(true);
    // Every connection's task holds a receiver until it ends.
    stop.closed().await;
    Ok(())
}

/// Connections the kernel keeps waiting to be accepted: 1,024 (tokio's `bind` asks for
/// 128, which drops the connections of a burst of players arriving at once).
pub const BACKLOG: u32 = 1024;

/// A listener on `bind` (`HOST:PORT`, each address it names tried in turn) with a backlog
/// of [`BACKLOG`].
///
/// # Errors
/// The last address's error, when none can be listened on.
async fn listen(bind: &str) -> std::io::Result<tokio::net::TcpListener> {
    let mut last = std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("{bind} names no address"),
    );
    for addr in tokio::net::lookup_host(bind).await? {
        let socket = if addr.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        socket.set_reuseaddr(true)?;
        match socket.bind(addr).and_then(|()| socket.listen(BACKLOG)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Runs `byog serve` until Ctrl-C: opens the database, listens, prints the address.
///
/// # Errors
/// [`ServeError`] when the database or the address cannot be opened.
pub fn serve(options: ServeOptions) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let app = App::new(&options).await?;
        for note in app.store.startup() {
            eprintln!("byog serve: {note}");
        }
        let listener = listen(&options.bind)
            .await
            .map_err(|source| ServeError::Bind {
                bind: options.bind.clone(),
                source,
            })?;
        let addr = listener.local_addr()?;
        eprintln!(
            "byog serve: open http://{addr}/ (data in {}; Ctrl-C stops)",
            options.data.display()
        );
        serve_on(app, listener, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
    })
}
