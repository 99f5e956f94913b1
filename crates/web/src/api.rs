//! The HTTP API (`docs/web.md`, "HTTP API"): JSON in, JSON out, every error a status code
//! and `{"error": "...", "code": "..."}`.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::accounts::{self, Account};
use crate::limits::HashError;
use crate::verify::{self, RULESET, VerifyError};
use crate::{App, daily};

/// An API error: a status and a message.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    /// An error of `status` with `code` and `message`.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    fn internal(e: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({"error": self.message, "code": self.code})),
        )
            .into_response()
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> ApiError {
        ApiError::internal(e)
    }
}

type ApiResult = Result<Response, ApiError>;

/// The session token in the request's cookies.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == accounts::COOKIE)
        .map(|(_, v)| v.to_owned())
}

/// The signed-in account of a request.
pub fn account(app: &App, headers: &HeaderMap) -> Option<Account> {
    let token = session_token(headers)?;
    accounts::session(&app.store, &token).ok().flatten()
}

fn signed_in(app: &App, headers: &HeaderMap) -> Result<Account, ApiError> {
    account(app, headers).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "sign-in",
            "sign in first: scores and daily games need an account",
        )
    })
}

fn cookie(token: &str, max_age: i64) -> HeaderValue {
    HeaderValue::from_str(&format!(
        "{}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}",
        accounts::COOKIE
    ))
    .unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// `GET /api/health`.
pub async fn health(State(app): State<Arc<App>>) -> Response {
    Json(json!({
        "ok": true,
        "version": env!("CARGO_PKG_VERSION"),
        "ruleset": RULESET,
        "games_in_memory": app.games.in_memory(),
    }))
    .into_response()
}

/// A name and a password.
#[derive(Debug, Deserialize)]
pub struct Credentials {
    name: String,
    password: String,
}

/// A refusal for a limit: 429 `rate`, and the wait.
fn rate(what: &str, wait: u64) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "rate",
        format!("{what}: try again in {wait} s"),
    )
}

/// A refusal of the password workers: 429 `busy`.
fn hashing(e: HashError) -> ApiError {
    match e {
        HashError::Busy => ApiError::new(StatusCode::TOO_MANY_REQUESTS, "busy", e.to_string()),
        HashError::Stopped => ApiError::internal(e),
    }
}

/// `POST /api/signup`: makes an account and signs it in.
///
/// The sign-up is counted against the address's hour before anything else is done, a
/// taken name included; the password is hashed on [`App::hasher`]'s threads, or refused
/// (429 `busy`, not counted) when they and their queue are full.
pub async fn signup(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Json(c): Json<Credentials>,
) -> ApiResult {
    accounts::check_name(&c.name).map_err(|m| ApiError::new(StatusCode::BAD_REQUEST, "name", m))?;
    accounts::check_password(&c.password)
        .map_err(|m| ApiError::new(StatusCode::BAD_REQUEST, "password", m))?;
    let key = format!("signup:{}", addr.ip());
    let counted = app
        .signups
        .reserve(&[&key])
        .map_err(|wait| rate("too many new accounts from this address", wait))?;
    let taken = || {
        ApiError::new(
            StatusCode::CONFLICT,
            "taken",
            format!("the name {} is taken", c.name),
        )
    };
    // A taken name is refused before its password costs a hash.
    if accounts::find(&app.store, &c.name)?.is_some() {
        return Err(taken());
    }
    let password = c.password;
    let hash = match app
        .hasher
        .run(move || accounts::hash_password(&password))
        .await
    {
        Ok(hash) => hash,
        Err(e) => {
            app.signups.release(counted);
            return Err(hashing(e));
        }
    };
    let id = match accounts::create(&app.store, c.name.clone(), hash).await {
        Ok(id) => id,
        Err(e) if e.is_duplicate() => return Err(taken()),
        Err(e) => return Err(e.into()),
    };
    let token = accounts::open_session(&app.store, id).await?;
    let mut r = Json(json!({"name": c.name})).into_response();
    r.headers_mut().insert(
        header::SET_COOKIE,
        cookie(&token, accounts::SESSION_SECONDS),
    );
    Ok(r)
}

/// `POST /api/login`.
///
/// The attempt is counted against its address and its name before its password is
/// checked, so that attempts sent at once past the limit are refused without a hash; a
/// successful one is taken back (and clears its name's failures).
pub async fn login(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Json(c): Json<Credentials>,
) -> ApiResult {
    let by_addr = format!("addr:{}", addr.ip());
    let by_name = format!("name:{}", c.name.to_ascii_lowercase());
    let attempt = app
        .logins
        .reserve(&[&by_addr, &by_name])
        .map_err(|wait| rate("too many failed sign-ins", wait))?;
    let found = if accounts::check_name(&c.name).is_ok() && c.password.len() <= 1024 {
        accounts::find(&app.store, &c.name)?
    } else {
        None
    };
    let password = c.password;
    let hash = found.as_ref().map(|(_, h)| h.clone());
    let checked = app
        .hasher
        .run(move || {
            // An unknown name is checked against a decoy, so that it takes as long as a
            // wrong password.
            let hash = hash.as_deref().unwrap_or_else(|| accounts::decoy_hash());
            accounts::password_matches(&password, hash)
        })
        .await;
    let ok = match checked {
        Ok(ok) => ok,
        Err(e) => {
            app.logins.release(attempt);
            return Err(hashing(e));
        }
    };
    match (found, ok) {
        (Some((acc, _)), true) => {
            app.logins.release(attempt);
            app.logins.clear(&by_name);
            let token = accounts::open_session(&app.store, acc.id).await?;
            let mut r = Json(json!({"name": acc.name})).into_response();
            r.headers_mut().insert(
                header::SET_COOKIE,
                cookie(&token, accounts::SESSION_SECONDS),
            );
            Ok(r)
        }
        // The attempt stays counted: a failure.
        _ => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "wrong",
            "wrong name or password",
        )),
    }
}

/// `POST /api/logout`.
pub async fn logout(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    if let Some(token) = session_token(&headers) {
        accounts::close_session(&app.store, &token).await?;
    }
    let mut r = Json(json!({"ok": true})).into_response();
    r.headers_mut().insert(header::SET_COOKIE, cookie("", 0));
    Ok(r)
}

/// Whether a game's seed (and so its keys) is hidden at Unix time `now`: a daily game's
/// until its day is revealed ([`daily::revealed`]), a live game's until it has ended.
pub fn seed_hidden(row: &crate::store::GameRow, now: i64) -> bool {
    match row.board.as_str() {
        "daily" => !daily::revealed(row.day.as_deref().unwrap_or(""), now),
        "live" => row.state != "finished",
        _ => false,
    }
}

/// `GET /api/me`.
pub async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    let acc = account(&app, &headers);
    let mut games = match &acc {
        Some(a) => app.store.games_of(a.id)?,
        None => Vec::new(),
    };
    let now = crate::store::now_unix();
    for g in &mut games {
        if seed_hidden(g, now) {
            g.seed = None;
        }
    }
    Ok(Json(json!({"name": acc.map(|a| a.name), "games": games})).into_response())
}

/// What `POST /api/play` is asked for.
#[derive(Debug, Deserialize)]
pub struct PlayRequest {
    /// `classic`, `run`, `explore`, or `menu` (the shell's own menu).
    mode: String,
    /// `seeded` (with `seed`), `live` (the server draws the seed) or `daily`.
    #[serde(default)]
    board: Option<String>,
    /// The seed of a seeded game.
    #[serde(default)]
    seed: Option<serde_json::Value>,
}

/// `POST /api/play`: a new game; answers its id and the secret that plays it.
///
/// Games made are limited per address and per signed-in account ([`App::plays`], before
/// anything is made): a game is a row in the database and, once opened, a task in memory.
pub async fn play(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Json(req): Json<PlayRequest>,
) -> ApiResult {
    let acc = account(&app, &headers);
    let by_addr = format!("addr:{}", addr.ip());
    let by_account = acc.as_ref().map(|a| format!("account:{}", a.id));
    let mut keys = vec![by_addr.as_str()];
    keys.extend(by_account.as_deref());
    app.plays
        .take(&keys)
        .map_err(|wait| rate("too many new games", wait))?;
    let key = match req.mode.as_str() {
        "classic" => Some('N'),
        "run" => Some('R'),
        "explore" => Some('E'),
        "menu" => None,
        other => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "mode",
                format!("no mode '{other}': classic, run, explore or menu"),
            ));
        }
    };
    let board = req.board.unwrap_or_else(|| "seeded".to_owned());
    let seed: Option<u64> = match &req.seed {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) if s.trim().is_empty() => None,
        Some(v) => {
            let text = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            match text.trim().parse::<u64>() {
                Ok(s) if s <= byog_game::game::MAX_SEED => Some(s),
                _ => {
                    return Err(ApiError::new(
                        StatusCode::BAD_REQUEST,
                        "seed",
                        format!("'{text}' is not a seed: 0 to {}", byog_game::game::MAX_SEED),
                    ));
                }
            }
        }
    };
    let mut day = None;
    let (board, seed) = match (board.as_str(), key) {
        (_, None) => ("free", None),
        ("daily", Some(_)) => {
            let a = acc.as_ref().ok_or_else(|| {
                ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "sign-in",
                    "the daily game is one attempt per account: sign in first",
                )
            })?;
            let today = daily::today();
            if let Some(existing) = app.store.daily_game(a.id, &req.mode, &today)? {
                if existing.state == "finished" {
                    return Err(ApiError::new(
                        StatusCode::CONFLICT,
                        "played",
                        "you played today's daily game of this mode already: one attempt a day",
                    ));
                }
                // Resume the attempt: the account opens it, no secret needed.
                return Ok(
                    Json(json!({"game": existing.id, "secret": null, "resumed": true}))
                        .into_response(),
                );
            }
            let s = daily::seed(&app.daily_key, &req.mode, &today);
            day = Some(today);
            ("daily", Some(s))
        }
        ("live", Some(_)) => (
            "live",
            Some(accounts::random_u64() % (byog_game::game::MAX_SEED + 1)),
        ),
        ("seeded", Some(_)) => {
            let s = seed.unwrap_or_else(|| accounts::random_u64() % 1_000_000);
            if daily::is_hidden_daily_seed(&app.daily_key, &req.mode, s, crate::store::now_unix()) {
                return Err(hidden_daily_seed());
            }
            ("seeded", Some(s))
        }
        (other, _) => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "board",
                format!("no board '{other}': seeded, live or daily"),
            ));
        }
    };
    let prefix = match (key, seed) {
        (Some(k), Some(s)) => format!("{k}{s}S"),
        _ => String::new(),
    };
    let id = accounts::random_hex(8);
    let secret = accounts::random_hex(16);
    let new = crate::store::NewGame {
        id: id.clone(),
        secret_hash: crate::verify::blake2b_hex(secret.as_bytes()),
        account: acc.as_ref().map(|a| a.id),
        board: board.to_owned(),
        day,
        mode: key.map(|_| req.mode.clone()),
        seed,
        options: crate::verify::canonical(&app.options),
        ruleset: RULESET.to_owned(),
        prefix,
    };
    match app.store.create_game(new).await {
        Ok(()) => {}
        Err(e) if e.is_duplicate() => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "played",
                "you started today's daily game of this mode already",
            ));
        }
        Err(e) => return Err(e.into()),
    }
    Ok(Json(json!({"game": id, "secret": secret})).into_response())
}

/// The refusal of a seeded game or score on a daily seed whose day is not revealed.
fn hidden_daily_seed() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "daily-seed",
        "that seed is a daily game's: it goes on the seeded board once its day is over",
    )
}

/// `GET /api/games`: the games in memory, to watch (today's daily games left out).
pub async fn games(State(app): State<Arc<App>>) -> Response {
    let list: Vec<_> = app
        .games
        .list()
        .into_iter()
        .filter(|g| g.board != "daily")
        .collect();
    Json(json!({"games": list})).into_response()
}

/// `GET /api/games/{id}`: one game's row (no keys while it is played).
pub async fn game(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult {
    let row = app
        .store
        .game(&id)?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no-game", format!("no game {id}")))?;
    let hidden = seed_hidden(&row, crate::store::now_unix());
    let keys = if row.state == "finished" && !hidden {
        Some(app.store.log(&id)?.0)
    } else {
        None
    };
    let mut v = serde_json::to_value(&row).map_err(ApiError::internal)?;
    if hidden {
        v["seed"] = serde_json::Value::Null;
    }
    v["keys"] = json!(keys);
    Ok(Json(v).into_response())
}

/// An input string to verify or record.
#[derive(Debug, Deserialize)]
pub struct Submission {
    keys: String,
    #[serde(default)]
    ruleset: Option<String>,
    /// A score the client claims: read and ignored (the replay scores).
    #[serde(default, rename = "score")]
    _claimed: Option<serde_json::Value>,
}

fn verified(app: &App, s: &Submission) -> Result<verify::Verified, ApiError> {
    if let Some(r) = &s.ruleset
        && r != RULESET
    {
        let e = VerifyError::Ruleset(r.clone());
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            e.code(),
            e.to_string(),
        ));
    }
    verify::verify(&s.keys, &app.options)
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.code(), e.to_string()))
}

/// `POST /api/verify`: replays an input string and answers what it scores; records nothing.
pub async fn verify_keys(State(app): State<Arc<App>>, Json(s): Json<Submission>) -> ApiResult {
    let app2 = Arc::clone(&app);
    let v = tokio::task::spawn_blocking(move || verified(&app2, &s))
        .await
        .map_err(ApiError::internal)??;
    Ok(Json(v).into_response())
}

/// `POST /api/scores`: replays an input string and records its score on the `seeded`
/// board for the signed-in account.
pub async fn submit_score(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(s): Json<Submission>,
) -> ApiResult {
    let acc = signed_in(&app, &headers)?;
    let app2 = Arc::clone(&app);
    let v = tokio::task::spawn_blocking(move || verified(&app2, &s))
        .await
        .map_err(ApiError::internal)??;
    if daily::is_hidden_daily_seed(&app.daily_key, v.mode, v.seed, crate::store::now_unix()) {
        return Err(hidden_daily_seed());
    }
    let r = app
        .store
        .add_score(crate::store::NewScore {
            account: acc.id,
            board: "seeded".into(),
            mode: v.mode.into(),
            seed: v.seed,
            day: None,
            ruleset: v.ruleset.into(),
            options: crate::verify::canonical(&app.options),
            keys: v.history.clone(),
            keys_hash: v.keys_hash.clone(),
            state_hashes: v.state_hashes.join(","),
            status: v.status.into(),
            score: v.score,
            moves: v.moves,
            game: None,
        })
        .await;
    match r {
        Ok(_) => Ok((StatusCode::CREATED, Json(v)).into_response()),
        Err(e) if e.is_duplicate() => Err(ApiError::new(
            StatusCode::CONFLICT,
            "duplicate",
            "this game is on the board already",
        )),
        Err(e) => Err(e.into()),
    }
}

/// The board asked for.
#[derive(Debug, Deserialize)]
pub struct BoardQuery {
    #[serde(default)]
    board: Option<String>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    day: Option<String>,
}

/// `GET /api/scores?board=daily|seeded|live&mode=run|explore|classic[&day=YYYY-MM-DD]`.
pub async fn scores(State(app): State<Arc<App>>, Query(q): Query<BoardQuery>) -> ApiResult {
    let board = q.board.unwrap_or_else(|| "seeded".into());
    let mode = q.mode.unwrap_or_else(|| "run".into());
    if !matches!(board.as_str(), "daily" | "seeded" | "live") {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "board",
            format!("no board '{board}': daily, seeded or live"),
        ));
    }
    if !matches!(mode.as_str(), "classic" | "run" | "explore") {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "mode",
            format!("no mode '{mode}': classic, run or explore"),
        ));
    }
    let today = daily::today();
    let day = (board == "daily").then(|| q.day.clone().unwrap_or_else(|| today.clone()));
    if let Some(d) = &day
        && (d.len() != 10 || !d.bytes().all(|b| b.is_ascii_digit() || b == b'-'))
    {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "day",
            "a day is YYYY-MM-DD",
        ));
    }
    let mut rows = app.store.board(&board, &mode, day.as_deref())?;
    let hidden = day
        .as_deref()
        .is_some_and(|d| !daily::revealed(d, crate::store::now_unix()));
    if hidden {
        for r in &mut rows {
            r.seed = None;
            r.keys = None;
        }
    }
    Ok(Json(json!({
        "board": board, "mode": mode, "day": day, "hidden": hidden, "scores": rows,
    }))
    .into_response())
}
