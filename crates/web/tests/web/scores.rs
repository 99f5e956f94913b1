//! A score is unique per account and board: two players who type the same keys are both
//! scored, and a seeded score does not block the same game's daily one.

use serde_json::json;

use byog_game::save::MemoryStore;
use byog_web::GameOptions;
use byog_web::store::NewScore;

use crate::common::*;

/// A run of seed 9 played by walking right until its moves run out: a finished game.
fn finished_run() -> String {
    let mut i = GameOptions::default().interpreter();
    let mut store = MemoryStore::default();
    let mut keys = String::new();
    for k in "R9S".chars() {
        i.feed(k, &mut store).unwrap();
        keys.push(k);
    }
    let walk = ['D', 'S', 'A', 'W'];
    let mut t = 0;
    while !i.game().unwrap().has_ended() {
        let k = walk[t / 7 % 4];
        i.feed(k, &mut store).unwrap();
        keys.push(k);
        t += 1;
        assert!(t < 100_000, "the run ends");
    }
    keys
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_accounts_with_the_same_keys_are_both_scored() {
    let server = start().await;
    let keys = finished_run();
    for name in ["ada", "bob"] {
        let cookie = sign_up(server.addr, name).await;
        let a = post(
            server.addr,
            "/api/scores",
            json!({"keys": keys}),
            Some(&cookie),
        )
        .await;
        assert_eq!(a.status, 201, "{name}: {}", a.body);
        // The same account's second submission is the duplicate.
        let again = post(
            server.addr,
            "/api/scores",
            json!({"keys": keys}),
            Some(&cookie),
        )
        .await;
        assert_eq!(again.status, 409, "{name}: {}", again.body);
    }
    let board = http(
        server.addr,
        "GET",
        "/api/scores?board=seeded&mode=run",
        &[],
        None,
    )
    .await;
    let mut players: Vec<String> = board.json()["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"].as_str().unwrap().to_owned())
        .collect();
    players.sort();
    assert_eq!(players, ["ada", "bob"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seeded_score_does_not_block_the_same_keys_on_the_daily_board() {
    let server = start().await;
    sign_up(server.addr, "ada").await;
    let store = &server.app.store;
    let account: i64 = store
        .read(|c| {
            Ok(
                c.query_row("SELECT id FROM accounts WHERE name = 'ada'", [], |r| {
                    r.get(0)
                })?,
            )
        })
        .unwrap();
    let score = |board: &str, day: Option<&str>| NewScore {
        account,
        board: board.into(),
        mode: "run".into(),
        seed: 9,
        day: day.map(str::to_owned),
        ruleset: "r".into(),
        options: "{}".into(),
        keys: "R9S".into(),
        keys_hash: "h".into(),
        state_hashes: String::new(),
        status: "lost".into(),
        score: 1,
        moves: 1,
        game: None,
    };
    store.add_score(score("seeded", None)).await.unwrap();
    store
        .add_score(score("daily", Some("2026-11-28")))
        .await
        .unwrap();
    let daily = http(
        server.addr,
        "GET",
        "/api/scores?board=daily&mode=run&day=2026-11-28",
        &[],
        None,
    )
    .await;
    assert_eq!(daily.json()["scores"].as_array().unwrap().len(), 1);
}
