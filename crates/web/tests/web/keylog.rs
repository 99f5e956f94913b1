//! The key log is the game (`docs/web.md`, "Games"): a game rebuilt from its log (reopened
//! after `:Q`, back from idle, opened by a watcher) writes only its new keys; keys the
//! interpreter ignores and keys after the end are never logged, so a finished game's log
//! verifies and is scored; hidden seeds reach no frame, observation or API answer; a
//! player connection that stops reading never holds up its game.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use byog_game::save::MemoryStore;
use byog_web::{GameOptions, ServeOptions};

use crate::common::*;

/// Small worlds and runs of two floors, so games end within a few hundred keys; no key
/// limit in the way.
fn small(o: &mut ServeOptions) {
    o.game.width = 30;
    o.game.height = 16;
    o.game.floors = 2;
    o.limits.keys_per_second = 10_000.0;
    o.limits.keys_burst = 10_000.0;
}

/// The game's key log as stored.
fn log_of(server: &Server, game: &str) -> String {
    server.app.store.log(game).unwrap().0
}

/// The keys that win the run that `start` (`R42S`) begins, under `options` (the solver's).
fn solution(options: &GameOptions, start: &str) -> String {
    let mut i = options.interpreter();
    let mut store = MemoryStore::default();
    byog_game::replay::replay(&mut i, start, &mut store, true, &mut |_| ()).unwrap();
    byog_players::solver::solve(i.game().unwrap())
        .unwrap()
        .into_iter()
        .map(|a| a.key())
        .collect()
}

/// Every text of `v` (strings, and numbers as written), to look for a seed's digits.
fn texts(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(a) => a.iter().for_each(|x| texts(x, out)),
        Value::Object(o) => o.values().for_each(|x| texts(x, out)),
        _ => {}
    }
}

/// Panics when the digits of `seed` appear anywhere in `v` (`what` says where it came from).
fn assert_no_seed(v: &Value, seed: u64, what: &str) {
    let digits = seed.to_string();
    let mut all = Vec::new();
    texts(v, &mut all);
    if let Some(t) = all.iter().find(|t| t.contains(&digits)) {
        panic!("the hidden seed {digits} reached {what}: {t:?}");
    }
}

/// Issue problem 1: after `:Q` and reopening, the next batch stored is only its own keys
/// (it used to be the whole replayed log again, `R42SDDSSW` + `R42SDDSSWA`, and the log
/// doubled at each round: 20 typed keys became 196,607 after 14 rounds).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_left_with_q_and_reopened_logs_only_its_new_keys() {
    let server = start_with(small).await;
    let (game, secret) = new_game(server.addr, "run", 42, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    keys(&mut ws, 1, "DDSSW").await;
    assert_eq!(log_of(&server, &game), "R42SDDSSW");
    let mut n = 1;
    let mut expected = String::from("R42SDDSSW");
    for round in 0..14 {
        n += 1;
        keys(&mut ws, n, ":Q").await;
        drop(ws);
        let (again, welcome) = player(server.addr, &game, &secret).await;
        ws = again;
        assert_eq!(welcome["acked"], n, "round {round}");
        n += 1;
        let key = ["A", "D"][round % 2];
        keys(&mut ws, n, key).await;
        expected.push_str(key);
        assert_eq!(log_of(&server, &game), expected, "round {round}");
    }
    assert_eq!(
        observe(&mut ws).await,
        replayed_with(&small_options(), &expected)
    );
}

/// The options of [`small`].
fn small_options() -> GameOptions {
    let mut o = ServeOptions::default();
    small(&mut o);
    o.game
}

/// What `byog replay --format json --view sight KEYS` prints under `options`.
fn replayed_with(options: &GameOptions, keys: &str) -> Value {
    let mut i = options.interpreter();
    let mut store = MemoryStore::default();
    byog_game::replay::replay(&mut i, keys, &mut store, false, &mut |_| ()).unwrap();
    serde_json::from_str(&byog_players::json::sight_state(&i)).unwrap()
}

/// Issue problem 1, after idle: a game that left memory is rebuilt by a watcher first, then
/// played on; the log gains only the new keys.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_back_from_idle_and_opened_by_a_watcher_logs_only_its_new_keys() {
    let server = start_with(|o| {
        small(o);
        o.idle = Duration::from_millis(300);
    })
    .await;
    let (game, secret) = new_game(server.addr, "explore", 7, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    keys(&mut ws, 1, "DDW").await;
    let before = log_of(&server, &game);
    drop(ws);
    for _ in 0..100 {
        if server.app.games.in_memory() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(server.app.games.in_memory(), 0, "the game left memory");
    let mut watcher = Ws::connect(server.addr, &[]).await.unwrap();
    watcher.send(json!({"type": "watch", "game": game})).await;
    watcher.until(|m| m["type"] == "frame").await;
    let (mut ws, welcome) = player(server.addr, &game, &secret).await;
    assert_eq!(welcome["acked"], 1);
    keys(&mut ws, 2, "A").await;
    assert_eq!(log_of(&server, &game), format!("{before}A"));
}

/// Issue problem 2: keys the interpreter ignores (`i`, a space, Esc, `:` then Esc) and keys
/// after the end are not logged, so the won run is scored, its published keys verify, and
/// the end screen says where the score went.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stray_keys_are_not_logged_and_a_won_run_is_scored() {
    let server = start_with(small).await;
    let cookie = sign_up(server.addr, "stray").await;
    let (game, _) = new_game(server.addr, "run", 42, Some(&cookie)).await;
    let mut ws = Ws::connect(server.addr, &[("Cookie", &cookie)])
        .await
        .unwrap();
    ws.send(json!({"type": "play", "game": game})).await;
    ws.until(|m| m["type"] == "welcome").await;
    let start = log_of(&server, &game);
    let win = solution(&small_options(), &start);
    let strays = ["i", " ", "\u{1b}", ":\u{1b}", "Z", "\t", "M"];
    let mut n = 0;
    let mut last = Value::Null;
    for (k, chunk) in win.as_bytes().chunks(7).enumerate() {
        n += 1;
        keys(&mut ws, n, strays[k % strays.len()]).await;
        n += 1;
        last = keys(&mut ws, n, std::str::from_utf8(chunk).unwrap()).await;
    }
    assert_eq!(last["summary"]["status"], "won", "{last}");
    let log = log_of(&server, &game);
    assert_eq!(log, format!("{start}{win}"), "only consumed keys");
    // Keys after the end: none is consumed, the log stays.
    for after in ["DDWW", "N", "R", "E", "\u{1b}", ":Q", "12S"] {
        n += 1;
        keys(&mut ws, n, after).await;
    }
    assert_eq!(log_of(&server, &game), log);
    // Scored, and the end screen says so.
    let mut scores = Value::Null;
    for _ in 0..100 {
        scores = http(
            server.addr,
            "GET",
            "/api/scores?board=seeded&mode=run",
            &[],
            None,
        )
        .await
        .json();
        if !scores["scores"].as_array().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(scores["scores"][0]["player"], "stray", "{scores}");
    assert_eq!(scores["scores"][0]["status"], "won");
    n += 1;
    let frame = keys(&mut ws, n, "").await;
    let mut all = Vec::new();
    texts(&frame["screen"], &mut all);
    assert!(
        all.iter().any(|t| t.starts_with("scored: ")),
        "the end screen says where the score went: {all:?}"
    );
    let row = server.app.store.game(&game).unwrap().unwrap();
    assert!(
        row.scored
            .as_deref()
            .is_some_and(|s| s.starts_with("scored: ")),
        "and so does its row: {:?}",
        row.scored
    );
    // A game of nobody signed in says why it was not scored, on the screen and the row.
    let (anon, secret) = new_game(server.addr, "run", 42, None).await;
    let (mut p, _) = player(server.addr, &anon, &secret).await;
    let mut m = 0;
    for chunk in win.as_bytes().chunks(40) {
        m += 1;
        keys(&mut p, m, std::str::from_utf8(chunk).unwrap()).await;
    }
    let row = server.app.store.game(&anon).unwrap().unwrap();
    assert_eq!(row.status, "won");
    assert!(
        row.scored
            .as_deref()
            .is_some_and(|s| s.starts_with("not scored: sign in")),
        "{:?}",
        row.scored
    );
    // The published keys verify.
    let published = http(server.addr, "GET", &format!("/api/games/{game}"), &[], None)
        .await
        .json();
    let keys_out = published["keys"].as_str().unwrap().to_owned();
    let verified = post(server.addr, "/api/verify", json!({"keys": keys_out}), None).await;
    assert_eq!(verified.status, 200, "{}", verified.body);
    assert_eq!(verified.json()["score"], scores["scores"][0]["score"]);
}

/// Issue problem 4: a daily game's seed reaches no frame (HUD, help, log, end), no
/// observation, no API answer; a live game's no watcher; today's daily seed is refused on
/// the seeded board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_seeds_reach_no_frame_observation_or_answer() {
    let server = start_with(small).await;
    let cookie = sign_up(server.addr, "hidden").await;
    let a = post(
        server.addr,
        "/api/play",
        json!({"mode": "run", "board": "daily"}),
        Some(&cookie),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let game = a.json()["game"].as_str().unwrap().to_owned();
    let today = byog_web::daily::today();
    let seed = byog_web::daily::seed(&server.app.daily_key, "run", &today);
    assert_eq!(
        server.app.store.game(&game).unwrap().unwrap().seed,
        Some(seed)
    );
    let mut ws = Ws::connect(server.addr, &[("Cookie", &cookie)])
        .await
        .unwrap();
    ws.send(json!({"type": "play", "game": game})).await;
    let mut seen = vec![ws.until(|m| m["type"] == "welcome").await];
    seen.push(ws.until(|m| m["type"] == "frame").await);
    // Moves, the help's pages, the log, a refused key's message, the observation.
    let mut n = 0;
    for batch in ["DS", "?", "\u{1b}", "P", "\u{1b}", "i", "X"] {
        n += 1;
        seen.push(keys(&mut ws, n, batch).await);
    }
    // The HUD names the day.
    let mut hud = Vec::new();
    texts(&seen[2]["screen"], &mut hud);
    assert!(
        hud.iter().any(|t| t.contains(&format!("daily {today}"))),
        "{hud:?}"
    );
    seen.extend(ws.drain(Duration::from_millis(300)).await);
    seen.push(observe(&mut ws).await);
    ws.send(json!({"type": "log"})).await;
    let refused = ws
        .until(|m| m["type"] == "error" || m["type"] == "log")
        .await;
    assert_eq!(refused["code"], "log-hidden");
    for (i, m) in seen.iter().enumerate() {
        assert_no_seed(m, seed, &format!("message {i} to the player"));
    }
    for path in [
        "/api/me".to_owned(),
        "/api/games".to_owned(),
        format!("/api/games/{game}"),
        "/api/scores?board=daily&mode=run".to_owned(),
    ] {
        let answer = http(server.addr, "GET", &path, &[("Cookie", &cookie)], None).await;
        assert_no_seed(&answer.json(), seed, &path);
    }
    // Today's daily seed on the seeded board: refused.
    let seeded = post(
        server.addr,
        "/api/play",
        json!({"mode": "run", "board": "seeded", "seed": seed}),
        Some(&cookie),
    )
    .await;
    assert_eq!(seeded.status, 409, "{}", seeded.body);
    assert_eq!(seeded.json()["code"], "daily-seed");
    // A live game: its watcher sees the player's frames, never its seed.
    let live = post(
        server.addr,
        "/api/play",
        json!({"mode": "explore", "board": "live"}),
        None,
    )
    .await
    .json();
    let (live_game, live_secret) = (
        live["game"].as_str().unwrap().to_owned(),
        live["secret"].as_str().unwrap().to_owned(),
    );
    let (mut p, _) = player(server.addr, &live_game, &live_secret).await;
    let live_seed = server
        .app
        .store
        .game(&live_game)
        .unwrap()
        .unwrap()
        .seed
        .unwrap();
    let mut w = Ws::connect(server.addr, &[]).await.unwrap();
    w.send(json!({"type": "watch", "game": live_game})).await;
    let mut watched = vec![w.until(|m| m["type"] == "frame").await];
    let mut played = Vec::new();
    for (i, batch) in ["DD", "W", "SA"].iter().enumerate() {
        played.push(keys(&mut p, i as u64 + 1, batch).await);
    }
    played.push(observe(&mut p).await);
    watched.extend(w.drain(Duration::from_millis(300)).await);
    for (i, m) in watched.iter().chain(&played).enumerate() {
        assert_no_seed(m, live_seed, &format!("live message {i}"));
    }
    let list = http(server.addr, "GET", "/api/games", &[], None)
        .await
        .json();
    assert_no_seed(&list, live_seed, "/api/games");
}

/// A daily attempt past its day's close (midnight UTC and an hour's grace) plays no key:
/// it is closed, unscored, and the player is told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_attempt_past_its_close_plays_no_key() {
    let server = start_with(small).await;
    let secret = "ab".repeat(16);
    server
        .app
        .store
        .create_game(byog_web::store::NewGame {
            id: "old-daily".into(),
            secret_hash: byog_web::verify::blake2b_hex(secret.as_bytes()),
            account: None,
            board: "daily".into(),
            day: Some("2020-01-01".into()),
            mode: Some("run".into()),
            seed: Some(5),
            options: byog_web::verify::canonical(&small_options()),
            ruleset: byog_web::verify::RULESET.into(),
            prefix: "R5S".into(),
        })
        .await
        .unwrap();
    let (mut ws, _) = player(server.addr, "old-daily", &secret).await;
    let closed = ws.until(|m| m["type"] == "error").await;
    assert_eq!(closed["code"], "closed", "{closed}");
    ws.send(json!({"type": "keys", "n": 1, "keys": "DD"})).await;
    let again = ws.until(|m| m["type"] == "error").await;
    assert_eq!(again["code"], "closed");
    assert_eq!(log_of(&server, "old-daily"), "R5S", "no key played");
    let row = server.app.store.game("old-daily").unwrap().unwrap();
    assert_eq!(row.state, "closed");
    // Its day is long revealed: the seed shows.
    assert_eq!(row.seed, Some(5));
}

/// A game kept under an older ruleset is not replayed under this build's rules (its keys
/// would make another game): opening it is refused, naming both rulesets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_an_older_ruleset_is_not_replayed_under_these_rules() {
    let server = start_with(small).await;
    let old = byog_web::verify::RULESET.replace(
        &format!("rules-{}", byog_game::RULES_VERSION),
        &format!("rules-{}", byog_game::RULES_VERSION - 1),
    );
    server
        .app
        .store
        .create_game(byog_web::store::NewGame {
            id: "old-rules".into(),
            secret_hash: byog_web::verify::blake2b_hex(b"secret"),
            account: None,
            board: "free".into(),
            day: None,
            mode: Some("explore".into()),
            seed: Some(5),
            options: byog_web::verify::canonical(&small_options()),
            ruleset: old.clone(),
            prefix: "E5S".into(),
        })
        .await
        .unwrap();
    let refused = server.app.games.open("old-rules").await.err().unwrap();
    let said = refused.to_string();
    assert!(
        said.contains(&old) && said.contains(byog_web::verify::RULESET),
        "{said}"
    );
}

/// A player connection that stops reading while it floods `view` messages does not freeze
/// its game: the game lets that connection go, and a new tab plays on at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_stops_reading_never_freezes_its_game() {
    // Default worlds (80 × 30): each frame of a run is kilobytes.
    let server = start_with(|o| {
        o.limits.keys_per_second = 10_000.0;
        o.limits.keys_burst = 10_000.0;
    })
    .await;
    let (game, secret) = new_game(server.addr, "run", 9, None).await;
    let (mut flood, _) = player(server.addr, &game, &secret).await;
    // Thousands of frames asked for, none read: more than the sockets' buffers hold.
    for i in 0..6000u32 {
        let (cols, rows) = (78 + i % 3, 28 + i % 2);
        let msg = json!({"type": "view", "cols": cols, "rows": rows}).to_string();
        // The server may let this connection go mid-flood (that is the point): a failed
        // or stuck send ends the flood.
        match tokio::time::timeout(
            Duration::from_millis(200),
            flood.stream.send(Message::Text(msg.into())),
        )
        .await
        {
            Ok(Ok(())) => {}
            _ => break,
        }
    }
    // The server works through the flood (the frames pile up unread).
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (mut tab, welcome) =
        tokio::time::timeout(Duration::from_secs(10), player(server.addr, &game, &secret))
            .await
            .expect("a new tab is let in");
    let n = welcome["acked"].as_u64().unwrap() + 1;
    let frame = tokio::time::timeout(Duration::from_secs(10), keys(&mut tab, n, "D"))
        .await
        .expect("the game answers");
    assert_eq!(frame["ack"], n);
    drop(flood);
}

/// A session left with `:Q` shows its goodbye once and then sends nothing more (its past
/// deadline used to wake the game's task at once, for good: a frame a millisecond to a
/// connection kept open, and a task never evicted; the chaos test found it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_left_with_q_falls_quiet() {
    let server = start_with(small).await;
    let (game, secret) = new_game(server.addr, "run", 42, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    keys(&mut ws, 1, "DD").await;
    keys(&mut ws, 2, ":Q").await;
    ws.until(|m| m["type"] == "frame" && m["over"] == true)
        .await;
    // The goodbye is shown; for the next two seconds, at most a frame or two more.
    let mut later = 0;
    let until = tokio::time::Instant::now() + Duration::from_secs(2);
    while let Ok(Some(_)) = tokio::time::timeout_at(until, ws.stream.next()).await {
        later += 1;
        assert!(later <= 5, "{later} messages after the goodbye");
    }
}
