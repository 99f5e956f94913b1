//! Games played over the websocket end where replaying their keys ends; batches are played
//! once; a reconnect resumes; a watcher sees the player's frames and nothing unseen.

use std::time::Duration;

use rand::RngExt;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use serde_json::{Value, json};

use crate::common::*;

/// `count` random moves, the same for the same seed.
fn moves(seed: u64, count: usize) -> String {
    let mut rng = Pcg64::seed_from_u64(seed);
    (0..count)
        .map(|_| ['W', 'A', 'S', 'D'][rng.random_range(0..4usize)])
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_over_the_websocket_ends_on_the_observation_replay_gives_in_every_mode() {
    let server = start_with(|o| o.limits.keys_per_second = 10_000.0).await;
    for (mode, key, seed) in [
        ("classic", 'N', 1234u64),
        ("run", 'R', 42),
        ("explore", 'E', 7),
    ] {
        let (game, secret) = new_game(server.addr, mode, seed, None).await;
        let (mut ws, welcome) = player(server.addr, &game, &secret).await;
        assert_eq!(welcome["acked"], 0);
        let typed = moves(seed, 240);
        let mut n = 0;
        // In batches of 1 to 6 keys, as a person types and the page sends them.
        let mut rest = typed.as_str();
        while !rest.is_empty() {
            let take = (n as usize % 6 + 1).min(rest.len());
            n += 1;
            let frame = keys(&mut ws, n, &rest[..take]).await;
            assert_eq!(frame["game"], game.as_str());
            rest = &rest[take..];
        }
        let mut input = format!("{key}{seed}S{typed}");
        // A game that ended ignores what follows: replay stops there too.
        let observed = observe(&mut ws).await;
        if observed["status"] != "playing" {
            input = server.app.store.log(&game).unwrap().0;
        }
        assert_eq!(observed, replayed(&input), "{mode}");
        assert_eq!(observed["mode"], mode);
        // The key log holds exactly the keys the interpreter consumed.
        let log = server.app.store.log(&game).unwrap();
        assert_eq!(replayed(&log.0), observed, "{mode}: its key log");
        assert_eq!(log.1, n, "every batch written");
    }
    // Travel: X walks step by step on the server's clock; every step is in the log.
    let (game, secret) = new_game(server.addr, "run", 1, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    keys(&mut ws, 1, "X").await;
    ws.drain(Duration::from_millis(400)).await;
    let observed = observe(&mut ws).await;
    let log = server.app.store.log(&game).unwrap().0;
    assert!(log.len() > "R1S".len() + 3, "the walk took steps: {log}");
    assert!(log[3..].chars().all(|c| "WASD".contains(c)), "{log}");
    assert_eq!(observed, replayed(&log));
    assert_eq!(
        observed,
        replayed("R1SX"),
        "X walked to its end, as replay's X does"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resent_batch_is_not_played_twice_and_a_reconnect_resumes() {
    let server = start().await;
    let (game, secret) = new_game(server.addr, "run", 42, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    let first = keys(&mut ws, 1, "DD").await;
    let moves_after_one = first["summary"]["moves"].clone();
    // The same batch again: answered, not played.
    let again = keys(&mut ws, 1, "DD").await;
    assert_eq!(again["summary"]["moves"], moves_after_one);
    // A batch out of order is refused.
    ws.send(json!({"type": "keys", "n": 5, "keys": "W"})).await;
    let gap = ws.until(|m| m["type"] == "error").await;
    assert_eq!(gap["code"], "gap");
    keys(&mut ws, 2, "SS").await;
    let before = observe(&mut ws).await;
    drop(ws);
    // Reconnected: the server says where it stands; resending 1 and 2 plays nothing.
    let (mut ws, welcome) = player(server.addr, &game, &secret).await;
    assert_eq!(welcome["acked"], 2);
    keys(&mut ws, 1, "DD").await;
    keys(&mut ws, 2, "SS").await;
    assert_eq!(observe(&mut ws).await, before);
    keys(&mut ws, 3, "A").await;
    assert_eq!(
        server.app.store.log(&game).unwrap().0,
        replayed_history("R42SDDSSA")
    );
    // Without the secret it is another player's game.
    let mut thief = Ws::connect(server.addr, &[]).await.unwrap();
    thief
        .send(json!({"type": "play", "game": game, "secret": "0".repeat(32)}))
        .await;
    assert_eq!(thief.until(|_| true).await["code"], "not-yours");
}

/// The history replay records for `keys` (bumps dropped).
fn replayed_history(keys: &str) -> String {
    let mut i = byog_web::GameOptions::default().interpreter();
    let mut store = byog_game::save::MemoryStore::default();
    byog_game::replay::replay(&mut i, keys, &mut store, false, &mut |_| ()).unwrap();
    i.into_game().unwrap().history()
}

/// The non-blank cells of a frame's view must all be seen tiles: a glyph only where the
/// observation has one, and never a cell marked unseen with something in it.
fn assert_nothing_unseen(frame: &Value, seen: &Value) {
    let view = &frame["view"];
    if view.is_null() {
        return;
    }
    let cells = byog_web::frame::decode_cells(view);
    let (cols, rows) = (
        view["cols"].as_u64().unwrap() as i64,
        view["rows"].as_u64().unwrap() as i64,
    );
    let origin = (
        view["origin"][0].as_i64().unwrap(),
        view["origin"][1].as_i64().unwrap(),
    );
    let world: Vec<Vec<char>> = seen["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().collect())
        .collect();
    let height = world.len() as i64;
    for (i, (glyph, look)) in cells.iter().enumerate() {
        let (cx, cy) = (i as i64 % cols, i as i64 / cols);
        if look.ends_with('u') || look.ends_with('U') {
            assert_eq!(*glyph, ' ', "an unseen cell shows '{glyph}'");
            continue;
        }
        if *glyph == ' ' {
            continue;
        }
        // View cell (cx, cy from the top) is world tile (origin.x + cx, origin.y + rows-1-cy).
        let (x, y) = (origin.0 + cx, origin.1 + rows - 1 - cy);
        let row = height - 1 - y;
        let known = (0..height).contains(&row)
            && world[row as usize]
                .get(x as usize)
                .is_some_and(|c| *c != ' ');
        assert!(
            known,
            "view cell ({cx}, {cy}) shows '{glyph}' at ({x}, {y}), a tile never seen"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_sees_the_players_frames_and_never_an_unseen_tile() {
    let server = start().await;
    let (game, secret) = new_game(server.addr, "explore", 11, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    keys(&mut ws, 1, "WW").await;
    let mut watcher = Ws::connect(server.addr, &[]).await.unwrap();
    watcher.send(json!({"type": "watch", "game": game})).await;
    assert_eq!(watcher.until(|_| true).await["role"], "watcher");
    // At once: the current frame.
    let current = watcher.until(|m| m["type"] == "frame").await;
    assert_eq!(current["ack"], 1);
    let mut players = Vec::new();
    let typed = moves(99, 60);
    for (i, k) in typed.chars().enumerate() {
        let f = keys(&mut ws, i as u64 + 2, &k.to_string()).await;
        players.push(f);
    }
    // A watcher's keys are ignored.
    watcher
        .send(json!({"type": "keys", "n": 100, "keys": "WWWW"}))
        .await;
    let seen = observe(&mut ws).await;
    let watched = watcher.drain(Duration::from_millis(500)).await;
    assert!(!watched.is_empty());
    for f in &watched {
        assert_eq!(f["type"], "frame");
        // Each frame the watcher got is one the player got, whole and the same.
        let same = players
            .iter()
            .find(|p| p["seq"] == f["seq"])
            .expect("a player's frame");
        assert_eq!(same, f);
    }
    assert_eq!(
        watched.last().unwrap(),
        players.last().unwrap(),
        "ends where the player is"
    );
    for f in players.iter().chain(&watched) {
        assert_nothing_unseen(f, &seen);
    }
    assert_eq!(
        observe(&mut ws).await,
        seen,
        "the watcher's keys did nothing"
    );
    // The lobby lists the game with its watcher.
    let list = http(server.addr, "GET", "/api/games", &[], None)
        .await
        .json();
    let entry = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == game.as_str())
        .cloned()
        .expect("listed");
    assert_eq!(entry["watchers"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_game_leaves_memory_and_comes_back_by_replay() {
    let server = start_with(|o| o.idle = Duration::from_millis(300)).await;
    let (game, secret) = new_game(server.addr, "explore", 21, None).await;
    let (mut ws, _) = player(server.addr, &game, &secret).await;
    keys(&mut ws, 1, "WWA").await;
    keys(&mut ws, 2, "SD").await;
    let before = observe(&mut ws).await;
    assert_eq!(server.app.games.in_memory(), 1);
    drop(ws);
    let mut gone = false;
    for _ in 0..60 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if server.app.games.in_memory() == 0 {
            gone = true;
            break;
        }
    }
    assert!(gone, "the game left memory");
    let (mut ws, welcome) = player(server.addr, &game, &secret).await;
    assert_eq!(welcome["acked"], 2);
    assert_eq!(observe(&mut ws).await, before, "rebuilt from its key log");
    keys(&mut ws, 3, "D").await;
    assert_eq!(server.app.games.in_memory(), 1);
}
