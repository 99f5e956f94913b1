//! A model-based chaos test of the invariant the server keeps (`docs/web.md`, "Games"): at
//! every moment a game's key log, replayed, gives exactly the state its player was last
//! sent, and holds only keys the interpreter consumed.
//!
//! The server runs as a child process (this test binary again, serving on a real loopback
//! socket over its own database folder). Random steps: new games, batches of keys (moves,
//! travel, junk, view keys, `:`), clicks, walks cut short, kill -9 (quiet, or with a batch
//! in flight), a graceful stop, idle eviction, `:Q` and reopening, a second tab, watchers
//! coming and going. After every step the player asks for its game's key log and the
//! observation of the same moment (`{"type": "log"}`), and the test checks:
//!
//! - the log only grew (nothing acknowledged was lost or rewritten); after a quiet restart,
//!   an idle return or a reopen it is exactly what it was (a rebuild writes nothing);
//! - `byog replay --strict` of the log refuses no key;
//! - the replay's observation is the server's observation;
//! - once the game is quiet, the last frame the player was sent says the replay's moves,
//!   status and score, and acknowledges the last batch sent;
//! - a watcher's frame says what the player's says.
//!
//! `BYOG_CHAOS_STEPS` (default 300) and `BYOG_CHAOS_SEED` (default: drawn and printed) set
//! the run; `BYOG_CHAOS_STEPS=10000 cargo test -p byog-web --test web chaos -- --nocapture`
//! runs a long one.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::StreamExt;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use byog_game::replay::{ReplayError, replay};
use byog_game::save::MemoryStore;
use byog_web::GameOptions;

use crate::common::*;

/// The folder the child server keeps its database in, when this process is the child.
const CHILD_DIR: &str = "BYOG_CHAOS_CHILD_DIR";

/// How long a game with nobody looking stays in the child server's memory.
const IDLE: Duration = Duration::from_millis(400);

/// The games' options: small worlds, short runs, so games end within the run.
fn options() -> GameOptions {
    GameOptions {
        width: 30,
        height: 16,
        floors: 3,
        ..GameOptions::default()
    }
}

/// Not a test: the server of `chaos`, run in a child process of this test binary. It
/// serves until killed, or stops gracefully on SIGTERM.
#[test]
#[ignore = "run by the chaos test in a child process"]
fn chaos_child_server() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async move {
        let mut options = byog_web::ServeOptions {
            data: dir.clone().into(),
            game: options(),
            idle: IDLE,
            ..byog_web::ServeOptions::default()
        };
        options.limits.keys_per_second = 100_000.0;
        options.limits.keys_burst = 100_000.0;
        let app = byog_web::App::new(&options).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let tmp = Path::new(&dir).join("port.tmp");
        std::fs::write(&tmp, port.to_string()).unwrap();
        std::fs::rename(&tmp, Path::new(&dir).join("port")).unwrap();
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).unwrap();
        byog_web::serve_on(app, listener, async move {
            term.recv().await;
        })
        .await
        .unwrap();
    });
}

/// The child server over `dir`: the process and its address.
fn spawn(dir: &Path) -> (Child, SocketAddr) {
    let _ = std::fs::remove_file(dir.join("port"));
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "chaos::chaos_child_server",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR, dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..800 {
        if let Ok(p) = std::fs::read_to_string(dir.join("port")) {
            return (child, format!("127.0.0.1:{p}").parse().unwrap());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the child server did not start");
}

/// What the test knows of one game.
struct Game {
    id: String,
    secret: String,
    /// The player's connection, when open.
    ws: Option<Ws>,
    /// The last batch the server acknowledged.
    acked: u64,
    /// A batch sent and not yet acknowledged (sent just before a kill).
    in_flight: Option<u64>,
    /// The key log as last read.
    log: String,
    /// The last frame the player was sent.
    frame: Option<Value>,
    /// Whether the log must be exactly `log` at the next check (nothing played since: a
    /// rebuild writes nothing).
    same_log: bool,
}

/// The test's state: the child server, the games, the watchers.
struct Chaos {
    rng: Pcg64,
    dir: PathBuf,
    child: Child,
    addr: SocketAddr,
    games: Vec<Game>,
    watchers: Vec<(usize, Ws)>,
    /// The steps so far, printed when a check fails.
    trail: Vec<String>,
}

/// A message within `wait`, or `None` (timeout, or the connection closed).
async fn next(ws: &mut Ws, wait: Duration) -> Option<Value> {
    loop {
        match tokio::time::timeout(wait, ws.stream.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(t.as_str()).ok(),
            Ok(Some(Ok(Message::Close(_)) | Err(_))) | Ok(None) | Err(_) => return None,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

/// Keys a player might type, weighted toward play.
const KEYS: &[&str] = &[
    "W", "A", "S", "D", "W", "A", "S", "D", "DD", "WA", "SS", "h", "j", "k", "l", ".", "X", ">",
    "U", "Y", "i", " ", "Z", ":", ":W", "\u{1b}", "\t", "?", "P", "M", "1", "N", "R", "E", "L",
    "Q", "\u{8}",
];

impl Chaos {
    fn say(&mut self, step: String) {
        self.trail.push(step);
    }

    fn fail(&self, why: String) -> ! {
        let from = self.trail.len().saturating_sub(30);
        panic!("{why}\nthe last steps:\n{}", self.trail[from..].join("\n"));
    }

    /// Opens the player's connection of game `g` if it is closed; checks that no
    /// acknowledged batch was lost.
    async fn connect(&mut self, g: usize) {
        if self.games[g].ws.is_some() {
            return;
        }
        let (id, secret) = (self.games[g].id.clone(), self.games[g].secret.clone());
        let (mut ws, welcome) = player(self.addr, &id, &secret).await;
        let acked = welcome["acked"].as_u64().unwrap_or(0);
        let game = &mut self.games[g];
        if acked < game.acked {
            let why = format!(
                "game {id}: {} acknowledged, the server says {acked}",
                game.acked
            );
            self.fail(why);
        }
        if acked > game.acked && game.in_flight != Some(acked) {
            let why = format!("game {id}: the server acknowledges {acked}, never sent");
            self.fail(why);
        }
        game.acked = acked;
        game.in_flight = None;
        game.frame = next(&mut ws, Duration::from_secs(10)).await;
        game.ws = Some(ws);
    }

    /// Reads what game `g`'s player was sent until nothing comes for `quiet` (a walk's
    /// steps, the floor screen's end): the last frame is kept.
    async fn settle(&mut self, g: usize, quiet: Duration) {
        let Some(mut ws) = self.games[g].ws.take() else {
            return;
        };
        let mut closed = false;
        loop {
            match tokio::time::timeout(quiet, ws.stream.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => {
                    let m: Value = serde_json::from_str(t.as_str()).unwrap();
                    match m["type"].as_str() {
                        Some("frame") => self.games[g].frame = Some(m),
                        Some("error") if m["code"] == "replaced" => {
                            closed = true;
                            break;
                        }
                        Some("error") => {
                            let why = format!("game {}: an error: {m}", self.games[g].id);
                            self.fail(why)
                        }
                        _ => {}
                    }
                }
                Ok(Some(Ok(_))) => {}
                Ok(None | Some(Err(_))) => {
                    closed = true;
                    break;
                }
                Err(_) => break,
            }
        }
        if !closed {
            self.games[g].ws = Some(ws);
        }
    }

    /// Sends a batch (keys or a click) to game `g` and waits for its acknowledgement.
    async fn batch(&mut self, g: usize, body: Value) {
        self.connect(g).await;
        let n = self.games[g].acked + 1;
        let mut msg = body;
        msg["n"] = json!(n);
        let mut ws = self.games[g].ws.take().unwrap();
        ws.send(msg).await;
        loop {
            let Some(m) = next(&mut ws, Duration::from_secs(10)).await else {
                let why = format!("game {}: batch {n} not answered", self.games[g].id);
                self.fail(why);
            };
            if m["type"] == "frame" {
                let ack = m["ack"].as_u64().unwrap_or(0);
                self.games[g].frame = Some(m);
                if ack >= n {
                    self.games[g].acked = ack;
                    break;
                }
            } else if m["type"] == "error" {
                let why = format!("game {}: batch {n}: {m}", self.games[g].id);
                self.fail(why);
            }
        }
        self.games[g].ws = Some(ws);
        self.games[g].same_log = false;
    }

    /// The checks of the module's doc for game `g`.
    async fn check(&mut self, g: usize) {
        self.connect(g).await;
        self.settle(g, Duration::from_millis(60)).await;
        self.connect(g).await;
        let mut ws = self.games[g].ws.take().unwrap();
        ws.send(json!({"type": "log"})).await;
        let answer = loop {
            let Some(m) = next(&mut ws, Duration::from_secs(10)).await else {
                let why = format!("game {}: the log was not answered", self.games[g].id);
                self.fail(why);
            };
            match m["type"].as_str() {
                Some("log") => break m,
                Some("frame") => self.games[g].frame = Some(m),
                _ => {
                    let why = format!("game {}: asked for the log: {m}", self.games[g].id);
                    self.fail(why);
                }
            }
        };
        self.games[g].ws = Some(ws);
        let log = answer["keys"].as_str().unwrap().to_owned();
        let game = &self.games[g];
        let id = game.id.clone();
        if !log.starts_with(&game.log) {
            let why = format!("game {id}: the log {log:?} does not extend {:?}", game.log);
            self.fail(why);
        }
        if game.same_log && log != game.log {
            let why = format!(
                "game {id}: rebuilt, it wrote {:?} after {:?}",
                &log[game.log.len()..],
                game.log
            );
            self.fail(why);
        }
        let mut i = options().interpreter();
        match replay(&mut i, &log, &mut MemoryStore::default(), true, &mut |_| ()) {
            Ok(_) => {}
            Err(ReplayError::Unfinished(_)) => {}
            Err(e) => self.fail(format!("game {id}: its log {log:?} refuses a key: {e}")),
        }
        let replayed: Value = serde_json::from_str(&byog_players::json::sight_state(&i)).unwrap();
        if replayed != answer["observation"] {
            let why = format!(
                "game {id}: the log {log:?} replays to\n{replayed}\nthe server shows\n{}",
                answer["observation"]
            );
            self.fail(why);
        }
        // The last frame sent says the replay's numbers and acknowledges the last batch.
        if let Some(frame) = &game.frame
            && let Some(summary) = frame.get("summary").filter(|s| !s.is_null())
        {
            for (field, want) in [
                ("moves", &replayed["moves"]),
                ("status", &replayed["status"]),
                ("score", &replayed["score"]),
            ] {
                if &summary[field] != want {
                    let why = format!(
                        "game {id}: the last frame says {field} {} and the log replays to {want}",
                        summary[field]
                    );
                    self.fail(why);
                }
            }
            if frame["ack"].as_u64() != Some(game.acked) {
                let why = format!(
                    "game {id}: the last frame acknowledges {} of {}",
                    frame["ack"], game.acked
                );
                self.fail(why);
            }
        }
        let game = &mut self.games[g];
        game.log = log;
        game.same_log = true;
    }

    async fn new_game(&mut self) {
        let mode = ["run", "explore", "classic"][self.rng.random_range(0..3usize)];
        let seed = self.rng.random_range(0..1000u64);
        let (id, secret) = new_game(self.addr, mode, seed, None).await;
        self.say(format!("new {mode} game {id} of seed {seed}"));
        self.games.push(Game {
            id,
            secret,
            ws: None,
            acked: 0,
            in_flight: None,
            log: String::new(),
            frame: None,
            same_log: false,
        });
        let g = self.games.len() - 1;
        self.connect(g).await;
    }

    async fn keys(&mut self, g: usize) {
        let count = self.rng.random_range(1..=4usize);
        let keys: String = (0..count)
            .map(|_| KEYS[self.rng.random_range(0..KEYS.len())])
            .collect();
        self.say(format!("game {}: keys {keys:?}", self.games[g].id));
        self.batch(g, json!({"type": "keys", "keys": keys})).await;
    }

    async fn click(&mut self, g: usize) {
        let (x, y) = (
            self.rng.random_range(0..40u32),
            self.rng.random_range(0..30u32),
        );
        self.say(format!("game {}: click ({x}, {y})", self.games[g].id));
        self.batch(g, json!({"type": "click", "x": x, "y": y}))
            .await;
    }

    /// A walk (`X`, `>`), cut short by a key after a few milliseconds, or left to run.
    async fn walk(&mut self, g: usize) {
        let key = ["X", ">"][self.rng.random_range(0..2usize)];
        let cut = self.rng.random_range(0..3u64) * 20;
        self.say(format!(
            "game {}: walk {key}, a key after {cut} ms",
            self.games[g].id
        ));
        self.batch(g, json!({"type": "keys", "keys": key})).await;
        if cut > 0 {
            tokio::time::sleep(Duration::from_millis(cut)).await;
            self.batch(g, json!({"type": "keys", "keys": "."})).await;
        }
    }

    /// Stops the server (kill -9, or SIGTERM and a wait) and starts it again on the same
    /// folder. With `in_flight`, a batch goes out to a game just before the kill.
    async fn restart(&mut self, graceful: bool, in_flight: bool) {
        let mut quiet = true;
        if in_flight && !self.games.is_empty() {
            let g = self.rng.random_range(0..self.games.len());
            self.connect(g).await;
            let n = self.games[g].acked + 1;
            let game = &mut self.games[g];
            game.ws
                .as_mut()
                .unwrap()
                .send(json!({"type": "keys", "n": n, "keys": "DSX"}))
                .await;
            game.in_flight = Some(n);
            game.same_log = false;
            quiet = false;
        } else {
            for g in 0..self.games.len() {
                self.settle(g, Duration::from_millis(60)).await;
            }
        }
        self.say(format!(
            "{} the server{}",
            if graceful { "stop" } else { "kill -9" },
            if in_flight {
                " with a batch in flight"
            } else {
                ""
            }
        ));
        if graceful {
            let _ = Command::new("kill")
                .args(["-TERM", &self.child.id().to_string()])
                .status();
            let deadline = std::time::Instant::now() + Duration::from_secs(10);
            while self.child.try_wait().unwrap().is_none() {
                if std::time::Instant::now() > deadline {
                    // A graceful stop that hangs is a failure of its own.
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    self.fail("the server did not stop on SIGTERM within 10 s".into());
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        } else {
            self.child.kill().unwrap();
            self.child.wait().unwrap();
        }
        for game in &mut self.games {
            game.ws = None;
            game.same_log &= quiet;
        }
        self.watchers.clear();
        let (child, addr) = spawn(&self.dir);
        self.child = child;
        self.addr = addr;
    }

    /// Every connection to game `g` closed until it leaves memory, then back.
    async fn idle(&mut self, g: usize) {
        self.settle(g, Duration::from_millis(60)).await;
        self.say(format!(
            "game {}: idle until it leaves memory",
            self.games[g].id
        ));
        self.games[g].ws = None;
        self.watchers.retain(|(w, _)| *w != g);
        tokio::time::sleep(IDLE + Duration::from_millis(300)).await;
    }

    /// `:Q`, then the game opened again.
    async fn quit_and_reopen(&mut self, g: usize) {
        self.say(format!("game {}: :Q and reopen", self.games[g].id));
        self.batch(g, json!({"type": "keys", "keys": ":Q"})).await;
        self.settle(g, Duration::from_millis(60)).await;
        self.games[g].ws = None;
    }

    /// The game opened in a second tab: the first is told it was replaced.
    async fn second_tab(&mut self, g: usize) {
        self.connect(g).await;
        self.say(format!("game {}: a second tab", self.games[g].id));
        let old = self.games[g].ws.take();
        self.connect(g).await;
        if let Some(mut old) = old {
            let replaced = loop {
                match next(&mut old, Duration::from_secs(5)).await {
                    Some(m) if m["code"] == "replaced" => break true,
                    Some(_) => continue,
                    None => break false,
                }
            };
            if !replaced {
                self.fail("the first tab was not told it was replaced".into());
            }
        }
    }

    /// A watcher of game `g`: its first frame says what the player's last frame says.
    async fn watch(&mut self, g: usize) {
        self.settle(g, Duration::from_millis(60)).await;
        self.connect(g).await;
        self.say(format!("game {}: a watcher", self.games[g].id));
        let mut w = Ws::connect(self.addr, &[]).await.unwrap();
        w.send(json!({"type": "watch", "game": self.games[g].id}))
            .await;
        let frame = loop {
            match next(&mut w, Duration::from_secs(10)).await {
                Some(m) if m["type"] == "frame" => break m,
                Some(_) => continue,
                None => self.fail("the watcher got no frame".into()),
            }
        };
        if let Some(player) = &self.games[g].frame
            && frame["summary"] != player["summary"]
        {
            let why = format!(
                "a watcher of {} sees {} where the player sees {}",
                self.games[g].id, frame["summary"], player["summary"]
            );
            self.fail(why);
        }
        self.watchers.push((g, w));
        if self.watchers.len() > 3 {
            self.watchers.remove(0);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos() {
    let steps: usize = std::env::var("BYOG_CHAOS_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let seed: u64 = std::env::var("BYOG_CHAOS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        });
    println!("chaos: {steps} steps, BYOG_CHAOS_SEED={seed}");
    eprintln!("chaos: {steps} steps, BYOG_CHAOS_SEED={seed}");
    let dir = tempfile::tempdir().unwrap();
    let (child, addr) = spawn(dir.path());
    let mut chaos = Chaos {
        rng: Pcg64::seed_from_u64(seed),
        dir: dir.path().to_owned(),
        child,
        addr,
        games: Vec::new(),
        watchers: Vec::new(),
        trail: Vec::new(),
    };
    chaos.new_game().await;
    let mut counts = [0usize; 11];
    for step in 0..steps {
        let g = chaos.rng.random_range(0..chaos.games.len());
        let roll = chaos.rng.random_range(0..100u32);
        let kind = match roll {
            0..=2 if chaos.games.len() < 6 => 0,
            0..=44 => 1,
            45..=51 => 2,
            52..=61 => 3,
            62..=66 => 4,
            67..=69 => 5,
            70..=71 => 6,
            72..=74 => 7,
            75..=79 => 8,
            80..=84 => 9,
            _ => 10,
        };
        counts[kind] += 1;
        match kind {
            0 => chaos.new_game().await,
            1 => chaos.keys(g).await,
            2 => chaos.click(g).await,
            3 => chaos.walk(g).await,
            4 => chaos.restart(false, false).await,
            5 => chaos.restart(false, true).await,
            6 => chaos.restart(true, false).await,
            7 => chaos.idle(g).await,
            8 => chaos.quit_and_reopen(g).await,
            9 => chaos.second_tab(g).await,
            _ => chaos.watch(g).await,
        }
        // After a restart every game is checked; otherwise the one played.
        if matches!(kind, 4..=6) {
            for g in 0..chaos.games.len() {
                chaos.check(g).await;
            }
        } else {
            let g = if kind == 0 { chaos.games.len() - 1 } else { g };
            chaos.check(g).await;
        }
        if step % 100 == 99 {
            eprintln!("chaos: {} steps", step + 1);
        }
    }
    eprintln!(
        "chaos: new games {}, keys {}, clicks {}, walks {}, kill -9 {}, kill -9 in flight {}, \
         graceful stops {}, idle {}, :Q and reopen {}, second tabs {}, watchers {}",
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        counts[4],
        counts[5],
        counts[6],
        counts[7],
        counts[8],
        counts[9],
        counts[10]
    );
    let _ = chaos.child.kill();
    let _ = chaos.child.wait();
}
