//! `cargo bench -p byog-web --bench store`: the store's part of a key (`docs/web.md`,
//! "Measured"): a batch appended and its commit awaited, alone and 64 at once (one group
//! commit), and the reads a game's start makes, on a database of 1,000 games of 100 batches
//! each; then opening that database (its checks at start).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

use byog_web::store::{NewGame, Store, SyncMode};

/// Games in the database.
const GAMES: usize = 1000;
/// Batches each game starts with.
const BATCHES: u64 = 100;

fn game(i: usize) -> NewGame {
    NewGame {
        id: format!(
            "{:016x}",
            (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ),
        secret_hash: "0".repeat(64),
        account: None,
        board: "seeded".into(),
        day: None,
        mode: Some("run".into()),
        seed: Some(i as u64),
        options: "{}".into(),
        ruleset: "bench".into(),
        prefix: "R1S".into(),
    }
}

/// A store in `dir` holding [`GAMES`] games of [`BATCHES`] batches; the games' ids.
fn filled(rt: &tokio::runtime::Runtime, dir: &std::path::Path) -> (Store, Vec<String>) {
    let store = Store::open(dir, SyncMode::Normal).unwrap();
    let ids: Vec<String> = (0..GAMES).map(|i| game(i).id).collect();
    rt.block_on(async {
        for i in 0..GAMES {
            store.create_game(game(i)).await.unwrap();
        }
        for seq in 1..=BATCHES {
            let acks: Vec<_> = ids
                .iter()
                .map(|id| store.append(id, seq, Some(seq), "W"))
                .collect();
            for a in acks {
                a.await.unwrap().unwrap();
            }
        }
    });
    (store, ids)
}

fn store(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (store, ids) = filled(&rt, dir.path());
    let mut next = vec![BATCHES + 1; GAMES];
    let mut g = c.benchmark_group("store");
    g.measurement_time(Duration::from_secs(5));
    // One batch, its commit awaited: a lone player's key.
    let mut i = 0usize;
    g.bench_function("append/one", |b| {
        b.iter(|| {
            let k = i % GAMES;
            i += 1;
            let seq = next[k];
            next[k] += 1;
            rt.block_on(store.append(&ids[k], seq, Some(seq), "D"))
                .unwrap()
                .unwrap();
        })
    });
    // 64 batches of 64 games sent at once, all awaited: what a group commit carries when
    // many players type.
    let mut j = 0usize;
    g.bench_function("append/64-at-once", |b| {
        b.iter(|| {
            let acks: Vec<_> = (0..64)
                .map(|_| {
                    let k = j % GAMES;
                    j += 1;
                    let seq = next[k];
                    next[k] += 1;
                    store.append(&ids[k], seq, Some(seq), "D")
                })
                .collect();
            rt.block_on(async {
                for a in acks {
                    a.await.unwrap().unwrap();
                }
            });
        })
    });
    // The reads of a game's start: its row and its key log.
    let mut r = 0usize;
    g.bench_function("read/game-and-log", |b| {
        b.iter(|| {
            let id = &ids[r % GAMES];
            r += 1;
            black_box(store.game(id).unwrap());
            black_box(store.log(id).unwrap())
        })
    });
    g.finish();
    // Opening the database again: the checks at start (quick_check, every game's log
    // against its count) over 1,000 games and their batches.
    drop(store);
    let batches = BATCHES as usize * GAMES + i + j;
    let mut g = c.benchmark_group("store");
    g.sample_size(10);
    g.bench_function(format!("open/{GAMES}-games-{batches}-batches"), |b| {
        b.iter(|| Store::open(dir.path(), SyncMode::Normal).unwrap())
    });
    g.finish();
}

criterion_group!(benches, store);
criterion_main!(benches);
