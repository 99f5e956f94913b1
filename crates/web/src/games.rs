//! Games on the server (`docs/web.md`, "Games"): each game in memory is the shell's state
//! machine owned by one task (an actor), which takes the player's batches of keys one at a
//! time: it feeds them to the shell, writes the keys the interpreter consumed to the key log
//! and waits for the commit, and only then sends the frame that answers them. Watchers get
//! the frames from a [`watch`] channel that keeps only the newest, so a slow watcher skips
//! frames and never holds up the player. A game nobody has looked at for a while leaves
//! memory; it comes back by replaying its key log, as it does after the server restarted.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{OnceCell, mpsc, oneshot, watch};

use crate::daily;
use crate::frame::{self, GameSummary};
use crate::store::{NewScore, Store};
use crate::verify::{self, GameOptions, RULESET};
use byog_shell::{FrameRequest, Saves, Shell, ShellOptions};

/// The view a game is painted for until its player says otherwise: 80 × 28 cells (an
/// 80 × 30 world less the HUD's rows scrolls; the page asks for what fits its window).
pub const DEFAULT_VIEW: (u32, u32) = (80, 30);

/// The largest view a page may ask for, in cells a side.
pub const MAX_VIEW: u32 = 400;

/// Most keys one batch may hold.
pub const MAX_BATCH_KEYS: usize = 64;

/// What the player's connection sends to its game.
#[derive(Debug)]
pub enum Input {
    /// Keys, in order.
    Keys(String),
    /// A click or tap on view cell `(x, y)` from the view's top-left.
    Click(u32, u32),
}

/// A message for one connection: a frame or an error, as JSON text.
pub type Out = Arc<str>;

/// What a game's actor is asked.
#[derive(Debug)]
enum Cmd {
    /// A player connected (the previous player connection of the game is closed).
    Attach {
        conn: u64,
        out: mpsc::Sender<Out>,
        reply: oneshot::Sender<u64>,
    },
    /// The player's connection closed.
    Detach { conn: u64 },
    /// A batch.
    Input { conn: u64, n: u64, input: Input },
    /// The player's view size.
    View { conn: u64, cols: u32, rows: u32 },
    /// The view cell under the player's pointer.
    Pointer { conn: u64, cell: Option<(u32, u32)> },
    /// The player asks for the observation.
    Observe {
        conn: u64,
        reply: oneshot::Sender<String>,
    },
    /// The player asks for the game's key log and the observation of the same moment.
    Log {
        conn: u64,
        reply: oneshot::Sender<Option<(String, String)>>,
    },
}

/// What the lobby shows of a game being played.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LiveInfo {
    /// The game's id.
    pub id: String,
    /// The player's name, if signed in.
    pub player: Option<String>,
    /// Its board.
    pub board: String,
    /// Its mode, once started.
    pub mode: Option<String>,
    /// Its seed, unless the board hides it until the end.
    pub seed: Option<u64>,
    /// The game's numbers.
    pub summary: Option<GameSummary>,
    /// Watchers now.
    pub watchers: usize,
    /// Whether its player is connected.
    pub connected: bool,
}

/// A game in memory: how to reach its actor, and its frames.
#[derive(Debug, Clone)]
pub struct GameHandle {
    cmds: mpsc::Sender<Cmd>,
    frames: Arc<watch::Sender<Out>>,
    info: Arc<Mutex<LiveInfo>>,
}

impl GameHandle {
    /// A receiver of the game's frames: the newest at once, then each new one (skipping
    /// those a slow reader missed).
    pub fn frames(&self) -> watch::Receiver<Out> {
        let mut rx = self.frames.subscribe();
        rx.mark_changed();
        rx
    }

    /// What the lobby shows.
    pub fn info(&self) -> LiveInfo {
        let mut info = self.info.lock().unwrap_or_else(|e| e.into_inner()).clone();
        info.watchers = self.frames.receiver_count();
        info
    }

    /// The observation of the game as its player sees it (`byog replay --format json
    /// --view sight` of its keys), for the player's connection.
    pub async fn observe(&self, conn: u64) -> Option<String> {
        let (reply, rx) = oneshot::channel();
        self.cmds.send(Cmd::Observe { conn, reply }).await.ok()?;
        rx.await.ok()
    }

    /// The game's key log as written (the input string that replays it) and the observation
    /// of the same moment, for the player's connection; `None` while the game's seed is
    /// hidden (a daily or live game being played: its log starts with the seed).
    pub async fn log(&self, conn: u64) -> Option<(String, String)> {
        let (reply, rx) = oneshot::channel();
        self.cmds.send(Cmd::Log { conn, reply }).await.ok()?;
        rx.await.ok().flatten()
    }

    /// Sends a batch (or drops it when the actor is gone: the connection will reconnect).
    pub async fn input(&self, conn: u64, n: u64, input: Input) {
        let _ = self.cmds.send(Cmd::Input { conn, n, input }).await;
    }

    /// Sets the view size.
    pub async fn view(&self, conn: u64, cols: u32, rows: u32) {
        let _ = self.cmds.send(Cmd::View { conn, cols, rows }).await;
    }

    /// Sets the pointer's cell.
    pub async fn pointer(&self, conn: u64, cell: Option<(u32, u32)>) {
        let _ = self.cmds.send(Cmd::Pointer { conn, cell }).await;
    }

    /// Says the player's connection closed.
    pub async fn detach(&self, conn: u64) {
        let _ = self.cmds.send(Cmd::Detach { conn }).await;
    }
}

/// Why a game could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// No such game.
    #[error("no game {0}")]
    Missing(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// The game's key log could not be replayed (a bug, or a database edited by hand).
    #[error("the game {0} cannot be rebuilt from its keys: {1}")]
    Replay(String, String),
    /// The game was played under another ruleset (`byog-VERSION/rules-N`): this build has
    /// one set of rules, and its keys would replay into another game.
    #[error("the game {0} was played under ruleset '{1}'; this server plays '{RULESET}'")]
    Ruleset(String, String),
}

/// Every game in memory, by id.
#[derive(Debug)]
pub struct Games {
    live: Mutex<BTreeMap<String, Arc<OnceCell<GameHandle>>>>,
    store: Arc<Store>,
    options: GameOptions,
    idle: Duration,
    next_conn: std::sync::atomic::AtomicU64,
    /// The key of the daily seeds ([`daily::seed`]).
    daily_key: Arc<str>,
}

impl Games {
    /// No game in memory yet; games leave memory after `idle` without a player or a
    /// watcher. `daily_key` makes the daily seeds ([`daily::seed`]): a game begun at the
    /// menu on a daily seed not yet revealed is not scored.
    pub fn new(
        store: Arc<Store>,
        options: GameOptions,
        idle: Duration,
        daily_key: &str,
    ) -> Arc<Games> {
        Arc::new(Games {
            live: Mutex::new(BTreeMap::new()),
            store,
            options,
            idle,
            next_conn: std::sync::atomic::AtomicU64::new(1),
            daily_key: Arc::from(daily_key),
        })
    }

    /// A fresh connection number.
    pub fn conn_id(&self) -> u64 {
        self.next_conn
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// The games in memory, for the lobby.
    pub fn list(&self) -> Vec<LiveInfo> {
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live.values()
            .filter_map(|cell| cell.get().map(GameHandle::info))
            .collect()
    }

    /// How many games are in memory.
    pub fn in_memory(&self) -> usize {
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live.values().filter(|c| c.get().is_some()).count()
    }

    /// The game `id`, in memory or brought back by replaying its key log.
    ///
    /// # Errors
    /// [`OpenError`] when there is no such game or it cannot be rebuilt.
    pub async fn open(self: &Arc<Self>, id: &str) -> Result<GameHandle, OpenError> {
        let cell = {
            let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
            let gone = live
                .get(id)
                .and_then(|c| c.get())
                .is_some_and(|h| h.cmds.is_closed());
            if gone {
                // Its actor left memory: bring it back.
                live.remove(id);
            }
            Arc::clone(live.entry(id.to_owned()).or_default())
        };
        let games = Arc::clone(self);
        let result = cell
            .get_or_try_init(|| async { games.load(id, Arc::clone(&cell)).await })
            .await
            .cloned();
        if result.is_err() {
            let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
            if live.get(id).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                live.remove(id);
            }
        }
        result
    }

    /// Attaches a player connection to game `id`; returns the game, the last batch number
    /// written, and the receiver of the player's messages.
    ///
    /// # Errors
    /// As [`Games::open`].
    pub async fn attach(
        self: &Arc<Self>,
        id: &str,
        conn: u64,
    ) -> Result<(GameHandle, u64, mpsc::Receiver<Out>), OpenError> {
        // An actor that is leaving memory refuses the attach by dropping the reply: then
        // the game is opened again (replayed) and attached to that.
        for _ in 0..3 {
            let handle = self.open(id).await?;
            let (out, rx) = mpsc::channel(256);
            let (reply, acked) = oneshot::channel();
            if handle
                .cmds
                .send(Cmd::Attach { conn, out, reply })
                .await
                .is_ok()
                && let Ok(acked) = acked.await
            {
                return Ok((handle, acked, rx));
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        Err(OpenError::Missing(id.to_owned()))
    }

    /// Rebuilds game `id` from its key log and starts its actor.
    async fn load(
        self: &Arc<Self>,
        id: &str,
        cell: Arc<OnceCell<GameHandle>>,
    ) -> Result<GameHandle, OpenError> {
        let row = self
            .store
            .game(id)?
            .ok_or_else(|| OpenError::Missing(id.to_owned()))?;
        let (log, acked, seqs) = self.store.log(id)?;
        let options = self.options;
        let prefix_needed = seqs == 0;
        let (prefix, ruleset): (String, String) = self
            .store
            .read(|c| {
                Ok(c.query_row(
                    "SELECT prefix, ruleset FROM games WHERE id = ?1",
                    [id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )?)
            })
            .unwrap_or_default();
        if !ruleset.is_empty() && ruleset != RULESET {
            return Err(OpenError::Ruleset(id.to_owned(), ruleset));
        }
        let label = seed_label(&row, crate::store::now_unix());
        let shell_label = label.clone();
        let shell = tokio::task::spawn_blocking(move || rebuilt(&options, shell_label, &log))
            .await
            .map_err(|e| OpenError::Replay(id.to_owned(), e.to_string()))?
            .map_err(|e| OpenError::Replay(id.to_owned(), e))?;
        let (cmds, rx) = mpsc::channel(1024);
        let publish = Arc::new(watch::Sender::new(Arc::<str>::from("")));
        let info = Arc::new(Mutex::new(LiveInfo {
            id: id.to_owned(),
            player: row.player.clone(),
            board: row.board.clone(),
            mode: row.mode.clone(),
            seed: shown_seed(&row.board, row.seed, &row.status),
            summary: None,
            watchers: 0,
            connected: false,
        }));
        let mut actor = Actor {
            id: id.to_owned(),
            shell,
            req: FrameRequest {
                view_cols: DEFAULT_VIEW.0,
                view_rows: DEFAULT_VIEW.1,
                minimap: Some((DEFAULT_VIEW.0 / 4, DEFAULT_VIEW.1 / 3)),
                pointer: None,
            },
            clock: Instant::now(),
            seq: 0,
            acked,
            log_seq: seqs,
            player: None,
            publish: Arc::clone(&publish),
            info: Arc::clone(&info),
            store: Arc::clone(&self.store),
            options,
            finished: row.state == "finished",
            closes_at: daily_closes_at(&row),
            gone: false,
            daily_key: Arc::clone(&self.daily_key),
            label,
            row,
            last: Arc::from(""),
        };
        if prefix_needed && !prefix.is_empty() {
            // A new game: the server types its start (`R42S`) as batch 0.
            for k in prefix.chars() {
                actor.shell.key(k, 0.0);
            }
            let fed = actor.shell.take_fed();
            actor.log_seq += 1;
            match self.store.append(id, actor.log_seq, None, &fed).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(OpenError::Store(e)),
                Err(_) => return Err(OpenError::Store(crate::store::StoreError::Closed)),
            }
            if actor.closes_at.is_some() {
                actor.shell.say(DAILY_DEADLINE.to_owned());
            }
        }
        actor.after_keys().await;
        actor.publish_frame();
        let handle = GameHandle {
            cmds,
            frames: publish,
            info,
        };
        let games = Arc::clone(self);
        let idle = self.idle;
        tokio::spawn(async move {
            actor.run(rx, idle).await;
            // Leaving memory: forget the handle, unless it was already replaced.
            let mut live = games.live.lock().unwrap_or_else(|e| e.into_inner());
            if live.get(&actor.id).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                live.remove(&actor.id);
            }
        });
        Ok(handle)
    }
}

/// The seed the lobby may show: daily seeds never (during their day, the board hides the
/// day's games), live seeds once the game ended.
fn shown_seed(board: &str, seed: Option<u64>, status: &str) -> Option<u64> {
    match board {
        "daily" => None,
        "live" if status == "playing" => None,
        _ => seed,
    }
}

/// What a daily game's player is told when it starts.
pub const DAILY_DEADLINE: &str = "the daily game closes an hour after midnight UTC: \
                                  unfinished then, it is closed unscored";

/// What names a game's seed while it is hidden, at Unix time `now`: a daily game's day
/// until the day is revealed ([`daily::revealed`]), "live game" for a live game (its seed
/// is shown once it has ended, on the boards and in the lobby, never in its frames);
/// `None` when the seed may be shown.
pub fn seed_label(row: &crate::store::GameRow, now: i64) -> Option<String> {
    match row.board.as_str() {
        "daily" => {
            let day = row.day.as_deref().unwrap_or("");
            (!daily::revealed(day, now)).then(|| format!("daily {day}"))
        }
        "live" => Some("live game".to_owned()),
        _ => None,
    }
}

/// When a daily game's attempt closes (Unix seconds), `None` for other boards.
fn daily_closes_at(row: &crate::store::GameRow) -> Option<i64> {
    (row.board == "daily")
        .then(|| row.day.as_deref().and_then(daily::closes_at))
        .flatten()
}

/// Worlds of at most this many tiles are made on the game's own task (a few hundred
/// microseconds at most); larger ones on the shell's worker thread, the busy screen shown.
pub const SMALL_WORLD_TILES: usize = 1 << 16;

/// A session rebuilt from its key log `log`, its seed named `seed_label` if hidden. It
/// writes nothing: its key log starts empty ([`Shell::replayed`]).
///
/// # Errors
/// The shell's message, when the options are refused.
pub fn rebuilt(
    options: &GameOptions,
    seed_label: Option<String>,
    log: &str,
) -> Result<Shell, String> {
    let shell =
        Shell::replayed(shell_options(options, seed_label), log).map_err(|e| e.to_string())?;
    Ok(if options.width * options.height <= SMALL_WORLD_TILES {
        shell.on_this_thread()
    } else {
        shell
    })
}

/// The shell's options for a game of `options`: no save files (the server keeps games by
/// their keys), one game a session (after its end no key reaches the interpreter, so the
/// key log ends with the game), the seed named `seed_label` when it is hidden.
pub fn shell_options(options: &GameOptions, seed_label: Option<String>) -> ShellOptions {
    ShellOptions {
        game: GameOptions {
            one_game: true,
            ..*options
        },
        saves: Saves::None,
        walls: None,
        watch: false,
        front_end: byog_shell::FrontEnd::Browser,
        seed_label,
    }
}

/// One game's actor.
struct Actor {
    id: String,
    shell: Shell,
    req: FrameRequest,
    clock: Instant,
    /// Frames published.
    seq: u64,
    /// The last player batch written.
    acked: u64,
    /// Batches in the key log.
    log_seq: u64,
    player: Option<(u64, mpsc::Sender<Out>)>,
    publish: Arc<watch::Sender<Out>>,
    info: Arc<Mutex<LiveInfo>>,
    store: Arc<Store>,
    options: GameOptions,
    row: crate::store::GameRow,
    /// The end was recorded.
    finished: bool,
    /// When a daily attempt closes (Unix seconds).
    closes_at: Option<i64>,
    /// The key of the daily seeds.
    daily_key: Arc<str>,
    /// The game in memory can no longer be trusted to be its log (a write failed and the
    /// log could not be read back): the actor leaves memory.
    gone: bool,
    /// What names the seed while it is hidden ([`seed_label`]).
    label: Option<String>,
    /// The last frame published.
    last: Out,
}

impl Actor {
    fn now(&self) -> f64 {
        self.clock.elapsed().as_secs_f64()
    }

    async fn run(&mut self, mut rx: mpsc::Receiver<Cmd>, idle: Duration) {
        let mut alone_since = Instant::now();
        loop {
            // While a key is worked on on the shell's worker thread, look every 50 ms.
            let busy = self.shell.is_busy().then(|| self.now() + 0.05);
            // A session over (`:Q`'s goodbye shown) has nothing more to show by itself: its
            // goodbye's deadline, past, would wake the loop at once, for good.
            let over = self.shell.is_over(self.now());
            let deadline = (!over)
                .then(|| self.shell.deadline().or(busy))
                .flatten()
                .map(|t| {
                    let wait = (t - self.now()).max(0.0);
                    tokio::time::Instant::now() + Duration::from_secs_f64(wait.min(3600.0))
                });
            let watchers = self.publish.receiver_count();
            let alone = self.player.is_none() && watchers == 0;
            if !alone {
                alone_since = Instant::now();
            }
            let evict_at = tokio::time::Instant::from_std(alone_since + idle);
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => {
                        self.handle(cmd).await;
                        if self.gone {
                            return;
                        }
                    }
                    None => return,
                },
                _ = async { tokio::time::sleep_until(deadline.unwrap_or(evict_at)).await },
                    if deadline.is_some() => self.tick().await,
                _ = tokio::time::sleep_until(evict_at), if alone && deadline.is_none() => {
                    rx.close();
                    // Attaches already queued are refused (their reply dropped): they
                    // open the game again.
                    while rx.try_recv().is_ok() {}
                    return;
                }
                _ = tokio::time::sleep(Duration::from_secs(1)) => {
                    // Wake now and then to see watchers come and go.
                }
            }
            self.update_info();
        }
    }

    fn update_info(&self) {
        let mut info = self.info.lock().unwrap_or_else(|e| e.into_inner());
        info.watchers = self.publish.receiver_count();
        info.connected = self.player.is_some();
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Attach { conn, out, reply } => {
                if self.has_left() {
                    // Left with `:Q`: back to where the key log stands.
                    if let Ok((log, _, _)) = self.store.log(&self.id)
                        && let Ok(shell) = rebuilt(&self.options, self.label.clone(), &log)
                    {
                        self.shell = shell;
                        self.clock = Instant::now();
                        let _ = self
                            .store
                            .set_state(self.id.clone(), "open", "playing", None, 0)
                            .await;
                        self.publish_frame();
                    }
                }
                if let Some((_, old)) = self.player.take() {
                    let _ = old.try_send(Arc::from(
                        r#"{"type":"error","code":"replaced","message":"this game was opened in another tab or window"}"#,
                    ));
                }
                let _ = reply.send(self.acked);
                self.player = Some((conn, out));
                self.send_player(Arc::clone(&self.last));
                if self.is_closed() {
                    self.close_daily().await;
                }
            }
            Cmd::Observe { conn, reply } => {
                if self.is_player(conn) {
                    let _ = reply.send(self.observation());
                }
            }
            Cmd::Log { conn, reply } => {
                if self.is_player(conn) {
                    let answer = match (&self.label, self.store.log(&self.id)) {
                        (None, Ok((log, _, _))) => Some((log, self.observation())),
                        _ => None,
                    };
                    let _ = reply.send(answer);
                }
            }
            Cmd::Detach { conn } => {
                if self.player.as_ref().is_some_and(|(c, _)| *c == conn) {
                    self.player = None;
                }
            }
            Cmd::View { conn, cols, rows } => {
                if self.is_player(conn) {
                    let (cols, rows) = (cols.clamp(10, MAX_VIEW), rows.clamp(5, MAX_VIEW));
                    self.req.view_cols = cols;
                    self.req.view_rows = rows;
                    self.req.minimap = Some(((cols / 4).max(8), (rows / 3).max(4)));
                    self.publish_frame();
                    self.send_player(Arc::clone(&self.last));
                }
            }
            Cmd::Pointer { conn, cell } => {
                if self.is_player(conn) && self.req.pointer != cell {
                    self.req.pointer = cell;
                    self.publish_frame();
                    self.send_player(Arc::clone(&self.last));
                }
            }
            Cmd::Input { conn, n, input } => {
                if !self.is_player(conn) {
                    return;
                }
                if n <= self.acked {
                    // Sent again after a reconnect: already played. Answer with where the
                    // game stands.
                    self.send_player(Arc::clone(&self.last));
                    return;
                }
                if self.is_closed() {
                    self.close_daily().await;
                    return;
                }
                if n != self.acked + 1 {
                    let msg = format!(
                        r#"{{"type":"error","code":"gap","n":{n},"acked":{},"message":"batch {n} came before batch {}: send the batches in order"}}"#,
                        self.acked,
                        self.acked + 1
                    );
                    self.send_player(Arc::from(msg));
                    return;
                }
                self.play(n, input).await;
            }
        }
    }

    /// Whether the player left the session with `:Q` (the interpreter closed): the game
    /// stays resumable from its log, which never holds the `:Q`.
    fn has_left(&self) -> bool {
        matches!(
            self.shell.phase(),
            Some(byog_game::interpreter::Phase::Closed(_))
        )
    }

    fn is_player(&self, conn: u64) -> bool {
        self.player.as_ref().is_some_and(|(c, _)| *c == conn)
    }

    /// Sends `msg` to the player's connection without ever waiting: a connection whose
    /// queue is full (it reads far slower than the game answers) is let go, and comes back
    /// by reconnecting to the last frame and the last acknowledged batch. The game's task
    /// never waits on one player.
    fn send_player(&mut self, msg: Out) {
        if let Some((_, out)) = &self.player
            && out.try_send(msg).is_err()
        {
            self.player = None;
        }
    }

    /// The observation of the game as its player sees it, its seed left out while hidden.
    fn observation(&self) -> String {
        let observation = byog_wire::Observation {
            game: self.shell.shown_game().map(byog_wire::Sight::of),
            unplayed: 0,
        };
        let json = observation.to_json();
        if self.label.is_none() {
            return json;
        }
        match serde_json::from_str::<serde_json::Value>(&json) {
            Ok(mut v) => {
                if let Some(seed) = v.get_mut("seed") {
                    *seed = serde_json::Value::Null;
                }
                v.to_string()
            }
            Err(_) => json,
        }
    }

    /// Whether this is a daily attempt past its close, not finished.
    fn is_closed(&self) -> bool {
        !self.finished
            && self
                .closes_at
                .is_some_and(|at| crate::store::now_unix() >= at)
    }

    /// A daily attempt past its close: its row says `closed` (unscored), and the player is
    /// told; no key is played any more.
    async fn close_daily(&mut self) {
        if self.row.state != "closed" {
            self.row.state = "closed".to_owned();
            let summary = self.shell.shown_game().map(GameSummary::of);
            let _ = self
                .store
                .set_state(
                    self.id.clone(),
                    "closed",
                    "playing",
                    summary.as_ref().and_then(|s| s.score),
                    summary.map_or(0, |s| s.moves),
                )
                .await;
        }
        let msg = serde_json::json!({
            "type": "error", "code": "closed",
            "message": "this daily game closed an hour after its day ended, unfinished: it is not scored",
        })
        .to_string();
        self.send_player(Arc::from(msg));
    }

    /// Plays batch `n`: the keys (or the click) to the shell, the keys it consumed to the
    /// log, then the frame.
    async fn play(&mut self, n: u64, input: Input) {
        let now = self.now();
        match input {
            Input::Keys(keys) => {
                for k in keys.chars() {
                    // At the menu `L` (no saves here), `Q` (the page leaves instead) and
                    // `V` (no save to watch) are the lobby's business. After the end the
                    // shell passes only view keys (one game a session).
                    let at_menu = self.shell.shown_game().is_none();
                    if at_menu && matches!(k.to_ascii_uppercase(), 'L' | 'Q' | 'V') {
                        continue;
                    }
                    self.shell.key(k, now);
                }
            }
            Input::Click(x, y) => self.shell.click(x, y, now),
        }
        if !self.write(Some(n)).await {
            return;
        }
        self.acked = n;
        self.after_keys().await;
        self.publish_frame();
        self.send_player(Arc::clone(&self.last));
    }

    /// Writes the keys the shell consumed since the last write as the next batch (player
    /// batch `n`, or none for a walk's steps), and waits for the commit. A batch that
    /// consumed no key is written too when it carries a player number, so that a resent
    /// batch is known after a restart. On a failed write the game goes back to its log
    /// (the keys are not acknowledged) and the player is told.
    async fn write(&mut self, n: Option<u64>) -> bool {
        let mut fed = self.shell.take_fed();
        if let Some(rest) = fed.strip_suffix(":Q") {
            // `:Q`: the session ends here; the game stays resumable from its log, which
            // never holds the `:Q`.
            fed = rest.to_owned();
        }
        if fed.is_empty() && n.is_none() {
            return true;
        }
        self.log_seq += 1;
        let result = self.store.append(&self.id, self.log_seq, n, &fed).await;
        match result {
            Ok(Ok(())) => true,
            other => {
                self.log_seq -= 1;
                let why = match other {
                    Ok(Err(e)) => e.to_string(),
                    _ => "the database writer stopped".to_owned(),
                };
                match self
                    .store
                    .log(&self.id)
                    .map(|(log, _, _)| rebuilt(&self.options, self.label.clone(), &log))
                {
                    Ok(Ok(shell)) => self.shell = shell,
                    // The game in memory holds keys its log does not, and cannot go back:
                    // it leaves memory, to be rebuilt from the log when it is opened again.
                    _ => self.gone = true,
                }
                let msg = serde_json::json!({
                    "type": "error", "code": "store",
                    "message": format!("the keys were not saved, so not played: {why}"),
                })
                .to_string();
                self.send_player(Arc::from(msg));
                false
            }
        }
    }

    /// The walk's next step, the floor screen's end, the goodbye: whatever the shell does
    /// by itself at its deadline.
    async fn tick(&mut self) {
        let now = self.now();
        let changed = self.shell.tick(now);
        if !self.write(None).await {
            return;
        }
        if changed || self.shell.is_over(now) {
            self.after_keys().await;
            self.publish_frame();
            self.send_player(Arc::clone(&self.last));
        }
    }

    /// Keeps the database's view of the game up to date: its mode and seed once started,
    /// its end (and the score) once ended, `left` after `:Q`.
    async fn after_keys(&mut self) {
        let Some(game) = self.shell.shown_game() else {
            return;
        };
        let summary = GameSummary::of(game);
        let (mode, seed) = (summary.mode.to_owned(), game.seed());
        {
            let mut info = self.info.lock().unwrap_or_else(|e| e.into_inner());
            info.summary = Some(summary.clone());
            info.mode = Some(mode.clone());
            info.seed = shown_seed(&self.row.board, Some(seed), summary.status);
        }
        if self.row.mode.is_none() {
            self.row.mode = Some(mode.clone());
            self.row.seed = Some(seed);
            let _ = self.store.set_started(self.id.clone(), mode, seed).await;
        }
        if self.has_left() && summary.status == "playing" {
            let _ = self
                .store
                .set_state(
                    self.id.clone(),
                    "left",
                    "playing",
                    summary.score,
                    summary.moves,
                )
                .await;
            return;
        }
        if summary.status != "playing" && !self.finished {
            self.finished = true;
            let note = self.finish(summary).await;
            let _ = self.store.set_scored(self.id.clone(), note.clone()).await;
            self.shell.note_end(note);
        }
    }

    /// The game ended: its row says so, and a signed-in player's score goes on its board,
    /// scored by replaying the key log (the same keys, so the same game: a check that the
    /// log is the game). Returns what the end screen says of the score: where it went, or
    /// why it was not recorded.
    async fn finish(&mut self, summary: GameSummary) -> String {
        let id = self.id.clone();
        let _ = self
            .store
            .set_state(
                id.clone(),
                "finished",
                summary.status,
                summary.score,
                summary.moves,
            )
            .await;
        let Some(account) = self.row.account else {
            return "not scored: sign in to have your games scored".to_owned();
        };
        let log = match self.store.log(&id) {
            Ok((log, _, _)) => log,
            Err(e) => return format!("not scored: the key log could not be read ({e})"),
        };
        let options = self.options;
        let verified = tokio::task::spawn_blocking(move || verify::verify(&log, &options)).await;
        let v = match verified {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => {
                eprintln!("byog serve: game {id} ended but its key log does not verify: {e}");
                return format!("not scored: its keys do not verify ({e})");
            }
            Err(e) => return format!("not scored: the check failed ({e})"),
        };
        if v.score != summary.score.unwrap_or(0) || v.status != summary.status {
            eprintln!("byog serve: game {id}: the replay scores {v:?}, the game {summary:?}");
        }
        let board = if self.row.board == "free" {
            if daily::is_hidden_daily_seed(
                &self.daily_key,
                v.mode,
                v.seed,
                crate::store::now_unix(),
            ) {
                return "not scored: that seed is a daily game's until its day is over".to_owned();
            }
            "seeded".to_owned()
        } else {
            self.row.board.clone()
        };
        let said = if v.mode == "classic" {
            let s = if v.moves == 1 { "" } else { "s" };
            format!("won in {} move{s} on the {board} board", v.moves)
        } else {
            format!("{} points on the {board} board", v.score)
        };
        let recorded = self
            .store
            .add_score(NewScore {
                account,
                board: board.clone(),
                mode: v.mode.to_owned(),
                seed: v.seed,
                day: self.row.day.clone(),
                ruleset: v.ruleset.to_owned(),
                options: verify::canonical(&options),
                keys: v.history.clone(),
                keys_hash: v.keys_hash.clone(),
                state_hashes: v.state_hashes.join(","),
                status: v.status.to_owned(),
                score: v.score,
                moves: v.moves,
                game: Some(id),
            })
            .await;
        match recorded {
            Ok(_) => format!("scored: {said}"),
            Err(e) if e.is_duplicate() => {
                format!("not scored: this game is on your {board} board already")
            }
            Err(e) => format!("not scored: {e}"),
        }
    }

    /// Paints the frame, keeps it, and gives it to the watchers.
    fn publish_frame(&mut self) {
        let now = self.now();
        let over = self.shell.is_over(now);
        let frame = self.shell.frame(now, &self.req);
        let summary = self.shell.shown_game().map(GameSummary::of);
        self.seq += 1;
        let text = frame::encode(&self.id, self.seq, self.acked, over, &frame, summary);
        self.last = Arc::from(text);
        self.publish.send_replace(Arc::clone(&self.last));
    }
}
