//! Verification: random finished games verify to their own score; tampered strings are
//! refused; a claimed score never counts.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use serde_json::json;

use byog_game::game::LevelStatus;
use byog_game::save::MemoryStore;
use byog_web::GameOptions;
use byog_web::verify::{RULESET, VerifyError, verify};

use crate::common::*;

/// A finished game of `mode` played by `seed`'s dice: a run won by the solver, or random
/// moves until the game ends (a run out of moves, an exploration lost or banked, a
/// classic game's exit found). `None` when 20,000 moves did not end it.
fn finished_game(mode: char, seed: u64) -> Option<(String, u64, &'static str)> {
    let options = GameOptions::default();
    let mut i = options.interpreter();
    let mut store = MemoryStore::default();
    let mut keys = format!("{mode}{seed}S");
    for k in keys.chars() {
        i.feed(k, &mut store).unwrap();
    }
    let mut rng = Pcg64::seed_from_u64(seed ^ 0x5eed);
    if mode == 'R' && seed.is_multiple_of(4) {
        let actions = byog_players::solver::solve(i.game().unwrap()).ok()?;
        for a in actions {
            keys.push(a.key());
            i.feed(a.key(), &mut store).unwrap();
        }
    }
    for _ in 0..20_000 {
        if i.game().unwrap().has_ended() {
            break;
        }
        let k = ['W', 'A', 'S', 'D', 'W', 'A', 'S', 'D', 'U', '.'][rng.random_range(0..10usize)];
        let k = if mode == 'N' && k == 'U' { 'W' } else { k };
        let k = if mode != 'E' && k == 'U' { 'D' } else { k };
        let k = if mode == 'N' && k == '.' { 'S' } else { k };
        let before = i.game().unwrap().history().len();
        i.feed(k, &mut store).unwrap();
        if i.take_note().is_some() {
            return None;
        }
        if i.game().unwrap().history().len() > before {
            keys.push(k);
        }
    }
    let game = i.game().unwrap();
    if !game.has_ended() {
        return None;
    }
    let status = if game.status() == LevelStatus::Won {
        "won"
    } else {
        "lost"
    };
    Some((game.history(), game.score().unwrap_or(0), status))
}

#[test]
fn two_hundred_random_finished_games_verify_to_their_own_score() {
    let options = GameOptions::default();
    let mut checked = 0;
    let mut seed = 0;
    let mut kinds = std::collections::BTreeMap::new();
    while checked < 200 {
        seed += 1;
        let mode = ['R', 'E', 'R', 'N'][seed as usize % 4];
        if mode == 'N' && seed % 16 != 3 {
            continue;
        }
        let Some((keys, score, status)) = finished_game(mode, seed) else {
            continue;
        };
        let v = verify(&keys, &options).unwrap_or_else(|e| panic!("{keys}: {e}"));
        assert_eq!((v.score, v.status), (score, status), "{keys}");
        assert_eq!(v.history, keys);
        assert_eq!(v.ruleset, RULESET);
        assert_eq!(v.state_hashes.len(), keys.chars().count() / 1000);
        *kinds.entry((mode, status)).or_insert(0) += 1;
        checked += 1;
    }
    // Won and lost runs, and explorations, all among them.
    assert!(
        kinds.get(&('R', "won")).copied().unwrap_or(0) > 10,
        "{kinds:?}"
    );
    assert!(
        kinds.get(&('R', "lost")).copied().unwrap_or(0) > 10,
        "{kinds:?}"
    );
    assert!(kinds.keys().any(|(m, _)| *m == 'E'), "{kinds:?}");
}

#[test]
fn tampered_strings_are_refused() {
    let options = GameOptions::default();
    let (keys, _, _) = finished_game('R', 4).unwrap();
    assert!(verify(&keys, &options).is_ok());
    // A key changed into one the interpreter refuses.
    let mut changed: Vec<char> = keys.chars().collect();
    changed[10] = 'Z';
    let changed: String = changed.into_iter().collect();
    assert!(matches!(
        verify(&changed, &options),
        Err(VerifyError::Refused(_))
    ));
    // A key added after the end.
    assert!(matches!(
        verify(&format!("{keys}W"), &options),
        Err(VerifyError::Refused(_))
    ));
    // A move dropped: the game no longer ends where it did (unfinished, or another end).
    let dropped = &keys[..keys.len() - 1];
    assert!(matches!(
        verify(dropped, &options),
        Err(VerifyError::Unfinished { .. })
    ));
    // L and :Q anywhere.
    let with_l = format!("{}L{}", &keys[..20], &keys[20..]);
    assert!(matches!(
        verify(&with_l, &options),
        Err(VerifyError::Forbidden { key: 'L', .. })
    ));
    let with_q = format!("{}:Q", &keys[..20]);
    assert!(matches!(
        verify(&with_q, &options),
        Err(VerifyError::Forbidden { key: ':', .. })
    ));
    // Two games in one string.
    let (other, _, _) = finished_game('R', 8).unwrap();
    assert!(matches!(
        verify(&format!("{keys}{other}"), &options),
        Err(VerifyError::Refused(_))
    ));
    // Too long.
    let long = format!("R1S{}", "W".repeat(byog_web::verify::MAX_KEYS));
    assert!(matches!(
        verify(&long, &options),
        Err(VerifyError::TooLong { .. })
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_verifies_records_once_and_never_counts_a_claimed_score() {
    let server = start().await;
    let (keys, score, status) = finished_game('R', 12).unwrap();
    let a = post(
        server.addr,
        "/api/verify",
        json!({"keys": keys, "score": 999_999}),
        None,
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert_eq!(v["score"], score);
    assert_eq!(v["status"], status);
    assert_eq!(
        (v["mode"].as_str(), v["seed"].as_u64()),
        (Some("run"), Some(12))
    );
    // Verifying records nothing.
    let board = http(
        server.addr,
        "GET",
        "/api/scores?board=seeded&mode=run",
        &[],
        None,
    )
    .await;
    assert_eq!(board.json()["scores"].as_array().unwrap().len(), 0);
    // Recording needs an account.
    let anon = post(server.addr, "/api/scores", json!({"keys": keys}), None).await;
    assert_eq!(anon.status, 401);
    let cookie = sign_up(server.addr, "ada").await;
    let rec = post(
        server.addr,
        "/api/scores",
        json!({"keys": keys, "score": 999_999}),
        Some(&cookie),
    )
    .await;
    assert_eq!(rec.status, 201, "{}", rec.body);
    let dup = post(
        server.addr,
        "/api/scores",
        json!({"keys": keys}),
        Some(&cookie),
    )
    .await;
    assert_eq!(
        (dup.status, dup.json()["code"].as_str()),
        (409, Some("duplicate"))
    );
    let other = post(
        server.addr,
        "/api/scores",
        json!({"keys": keys, "ruleset": "byog-0.0.1/rules-0"}),
        Some(&cookie),
    )
    .await;
    assert_eq!(
        (other.status, other.json()["code"].as_str()),
        (422, Some("ruleset"))
    );
    let board = http(
        server.addr,
        "GET",
        "/api/scores?board=seeded&mode=run",
        &[],
        None,
    )
    .await
    .json();
    let scores = board["scores"].as_array().unwrap();
    assert_eq!(scores.len(), 1);
    assert_eq!(
        scores[0]["score"], score,
        "the replay's score, not the claim"
    );
    assert_eq!(scores[0]["player"], "ada");
    // Refusals through the API name the key.
    let bad = post(server.addr, "/api/verify", json!({"keys": "R42SWWL"}), None).await;
    assert_eq!(bad.status, 422);
    assert!(
        bad.json()["error"]
            .as_str()
            .unwrap()
            .contains("'L' at position 6"),
        "{}",
        bad.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_won_on_the_server_goes_on_the_board_and_the_daily_is_one_attempt() {
    let server = start_with(|o| {
        o.limits.keys_per_second = 10_000.0;
        o.limits.keys_burst = 10_000.0;
    })
    .await;
    let cookie = sign_up(server.addr, "grace").await;
    // A daily run: its seed is the server's; won with the solver's keys.
    let a = post(
        server.addr,
        "/api/play",
        json!({"mode": "run", "board": "daily"}),
        Some(&cookie),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let game = a.json()["game"].as_str().unwrap().to_owned();
    let mut ws = Ws::connect(server.addr, &[("Cookie", &cookie)])
        .await
        .unwrap();
    ws.send(json!({"type": "play", "game": game})).await;
    ws.until(|m| m["type"] == "welcome").await;
    let start = server.app.store.log(&game).unwrap().0;
    let mut i = GameOptions::default().interpreter();
    let mut store = MemoryStore::default();
    byog_game::replay::replay(&mut i, &start, &mut store, true, &mut |_| ()).unwrap();
    let solution: String = byog_players::solver::solve(i.game().unwrap())
        .unwrap()
        .into_iter()
        .map(|a| a.key())
        .collect();
    let mut n = 0;
    for chunk in solution.as_bytes().chunks(40) {
        n += 1;
        keys(&mut ws, n, std::str::from_utf8(chunk).unwrap()).await;
    }
    // The end is recorded, then the score.
    let mut board = serde_json::Value::Null;
    for _ in 0..100 {
        board = http(
            server.addr,
            "GET",
            "/api/scores?board=daily&mode=run",
            &[],
            None,
        )
        .await
        .json();
        if !board["scores"].as_array().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let scores = board["scores"].as_array().unwrap();
    assert_eq!(scores.len(), 1, "{board}");
    assert_eq!(scores[0]["player"], "grace");
    assert_eq!(scores[0]["status"], "won");
    assert!(scores[0]["seed"].is_null(), "today's seed is hidden");
    assert_eq!(board["hidden"], true);
    // One attempt a day.
    let again = post(
        server.addr,
        "/api/play",
        json!({"mode": "run", "board": "daily"}),
        Some(&cookie),
    )
    .await;
    assert_eq!(again.status, 409);
    // Nobody watches today's daily game.
    let mut w = Ws::connect(server.addr, &[]).await.unwrap();
    w.send(json!({"type": "watch", "game": game})).await;
    assert_eq!(w.until(|_| true).await["code"], "hidden");
}
