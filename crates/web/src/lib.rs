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
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State, WebSocketUpgrade};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

pub use games::Games;
pub use store::{Store, StoreOptions, Sync};
pub use verify::GameOptions;

/// The limits a server holds (`docs/web.md`, "Limits").
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Keys a second one connection may send, on average.
    pub keys_per_second: f64,
    /// Keys one connection may send at once after a pause.
    pub keys_burst: f64,
    /// Websocket connections open at once from one address.
    pub connections_per_address: u32,
    /// Failed sign-ins per address, and per name, within [`Limits::login_window`].
    pub login_failures: usize,
    /// The window of `login_failures`.
    pub login_window: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            keys_per_second: 40.0,
            keys_burst: 80.0,
            connections_per_address: 32,
            login_failures: 10,
            login_window: Duration::from_secs(600),
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
    pub sync: Sync,
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
            sync: Sync::Normal,
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
            signups: limits::Attempts::new(20, Duration::from_secs(3600)),
            origins: options.origins.clone(),
            daily_key,
        }))
    }
}

/// Whether a request's `Origin` is acceptable: absent (not a browser: a browser always
/// sends it on a websocket and a POST), the server's own (`http://` or `https://` and the
/// `Host` header), or one of `--origin`.
pub fn origin_ok(app: &App, headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    (!host.is_empty()
        && (origin == format!("http://{host}") || origin == format!("https://{host}")))
        || app.origins.iter().any(|o| o == origin)
}

/// Refuses a POST from another origin (403).
async fn check_origin(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    if request.method() == Method::POST && !origin_ok(&app, request.headers()) {
        return api::ApiError::new(
            StatusCode::FORBIDDEN,
            "origin",
            "this request comes from another site's page",
        )
        .into_response();
    }
    next.run(request).await
}

/// `GET /ws`: checks the origin and the address's connections, then upgrades.
async fn ws_upgrade(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !origin_ok(&app, &headers) {
        return api::ApiError::new(
            StatusCode::FORBIDDEN,
            "origin",
            "this websocket comes from another site's page",
        )
        .into_response();
    }
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

/// The whole HTTP surface.
pub fn router(app: Arc<App>) -> Router {
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
            Arc::clone(&app),
            check_origin,
        ))
        .with_state(app)
}

/// Serves on `listener` until `shutdown` resolves.
///
/// # Errors
/// When the server fails.
pub async fn serve_on(
    app: Arc<App>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    axum::serve(
        listener,
        router(app).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await?;
    Ok(())
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
        let listener = tokio::net::TcpListener::bind(&options.bind)
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
