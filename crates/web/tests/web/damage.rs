//! A damaged database is refused at start, never opened with part of its log: a damaged
//! page (`PRAGMA quick_check`), a damaged or cut write-ahead log (the commit counter of
//! `byog.lock`). `--recover` keeps what reads back in a fresh database, keeps the damaged
//! files beside it, says what it dropped, and marks a game whose log lost batches damaged:
//! it is neither resumed nor scored.

use std::path::{Path, PathBuf};

use rand::RngExt;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use serde_json::json;

use crate::child::Child;
use crate::common::*;
use byog_web::store::{NewGame, Store, StoreError, StoreOptions, SyncMode};
use byog_web::{App, ServeError, ServeOptions};

/// `count` batches of random moves after `R{seed}S`, the same for the same seed.
fn batches(seed: u64, count: usize) -> Vec<String> {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut out = vec![format!("R{seed}S")];
    out.extend((1..count).map(|_| {
        (0..rng.random_range(1..5usize))
            .map(|_| ['W', 'A', 'S', 'D'][rng.random_range(0..4usize)])
            .collect::<String>()
    }));
    out
}

/// A game row for the store, played with `secret` under this build's ruleset (a game of
/// another is never replayed; what is tested here is the damage).
fn new_game_row(id: &str, seed: u64, secret: &str) -> NewGame {
    NewGame {
        id: id.into(),
        secret_hash: byog_web::verify::blake2b_hex(secret.as_bytes()),
        account: None,
        board: "seeded".into(),
        day: None,
        mode: Some("run".into()),
        seed: Some(seed),
        options: "{}".into(),
        ruleset: byog_web::verify::RULESET.into(),
        prefix: format!("R{seed}S"),
    }
}

/// Games `(id, seed)` of 200 batches each, written one commit a batch; their logs.
async fn fill(store: &Store, games: &[(&str, u64)]) -> Vec<Vec<String>> {
    let mut logs = Vec::new();
    for &(id, seed) in games {
        store
            .create_game(new_game_row(id, seed, "secret"))
            .await
            .unwrap();
        let log = batches(seed, 200);
        for (i, keys) in log.iter().enumerate() {
            let n = (i > 0).then_some(i as u64);
            store
                .append(id, i as u64 + 1, n, keys)
                .await
                .unwrap()
                .unwrap();
        }
        logs.push(log);
    }
    logs
}

/// The leaf pages of table `table` in key order, and the page size.
fn leaves(db: &Path, table: &str) -> (Vec<u64>, u64) {
    let c = rusqlite::Connection::open(db).unwrap();
    let size = c
        .query_row("PRAGMA page_size", [], |r| r.get::<_, i64>(0))
        .unwrap() as u64;
    let pages = c
        .prepare("SELECT pageno FROM dbstat WHERE name = ?1 AND pagetype = 'leaf' ORDER BY path")
        .unwrap()
        .query_map([table], |r| r.get::<_, i64>(0))
        .unwrap()
        .map(|p| p.unwrap() as u64)
        .collect();
    (pages, size)
}

/// Overwrites page `page` of `file` with junk.
fn spoil_page(file: &Path, page: u64, size: u64) {
    use std::os::unix::fs::FileExt;
    let f = std::fs::OpenOptions::new().write(true).open(file).unwrap();
    f.write_all_at(&vec![0xA5; size as usize], (page - 1) * size)
        .unwrap();
}

/// The files of `dir` whose names start with `prefix`.
fn named(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect();
    v.sort();
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_page_is_refused_and_recover_keeps_the_rest_and_marks_the_game_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let games = [
        ("aaaaaaaaaaaaaaaa", 11),
        ("bbbbbbbbbbbbbbbb", 22),
        ("cccccccccccccccc", 33),
    ];
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    let logs = fill(&store, &games).await;
    drop(store);
    let db = dir.path().join("byog.sqlite3");
    let (pages, size) = leaves(&db, "batches");
    assert!(pages.len() >= 5, "the log spans pages: {pages:?}");
    spoil_page(&db, pages[pages.len() / 2], size);
    let before = std::fs::read(&db).unwrap();

    // Refused, naming the file, what is wrong and what to do; the file untouched.
    let options = ServeOptions {
        data: dir.path().to_owned(),
        ..ServeOptions::default()
    };
    let err = App::new(&options).await.unwrap_err();
    assert!(
        matches!(
            err,
            ServeError::Store {
                source: StoreError::Damaged { .. },
                ..
            }
        ),
        "{err}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("byog.sqlite3") && msg.contains("damaged") && msg.contains("--recover"),
        "{msg}"
    );
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "a refused database is not touched"
    );

    // --recover: the damaged file kept beside a fresh one, every readable batch kept.
    let data = dir.path().to_owned();
    let server = start_with(|o| {
        o.data = data;
        o.recover = true;
    })
    .await;
    let notes = server.app.store.startup().join("\n");
    eprintln!("{notes}");
    let aside = named(dir.path(), "byog.sqlite3.damaged-");
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(std::fs::read(&aside[0]).unwrap(), before, "kept as it was");
    assert!(notes.contains(&aside[0].display().to_string()), "{notes}");
    let (mut damaged, mut whole) = (0, 0);
    for ((id, seed), log) in games.iter().zip(&logs) {
        let full = log.concat();
        match server.app.store.log(id) {
            Ok((kept, _, _)) => {
                // A log that reads back whole is the game, and it resumes.
                assert_eq!(kept, full, "{id}");
                whole += 1;
                let (mut ws, welcome) = player(server.addr, id, "secret").await;
                assert_eq!(welcome["acked"], 199);
                assert_eq!(observe(&mut ws).await, replayed(&full), "{id} resumed");
                let _ = seed;
            }
            Err(StoreError::DamagedGame { why, .. }) => {
                damaged += 1;
                assert!(why.contains("missing"), "{why}");
                assert!(
                    notes.contains(&format!("game {id} is marked damaged")),
                    "{notes}"
                );
                assert!(
                    notes.contains(&format!("of game {id} could not be read")),
                    "{notes}"
                );
                assert_eq!(server.app.store.game(id).unwrap().unwrap().state, "damaged");
                // It cannot be resumed: the player is told why.
                let mut ws = Ws::connect(server.addr, &[]).await.unwrap();
                ws.send(json!({"type": "play", "game": id, "secret": "secret"}))
                    .await;
                let m = ws.until(|m| m["type"] == "error").await;
                let text = m["message"].as_str().unwrap();
                assert!(text.contains("damaged") && text.contains(id), "{text}");
                // Nor written to.
                let e = server
                    .app
                    .store
                    .append(id, 201, Some(200), "W")
                    .await
                    .unwrap();
                assert!(matches!(e, Err(StoreError::DamagedGame { .. })), "{e:?}");
            }
            Err(e) => panic!("{id}: {e}"),
        }
    }
    assert!(
        damaged >= 1 && whole >= 1,
        "{damaged} damaged, {whole} whole"
    );
}

/// Copies the database's files from `from` to a new folder: what a crash at this moment
/// leaves on disk (a commit is written to the log before it is answered).
fn crash_image(from: &Path) -> tempfile::TempDir {
    let to = tempfile::tempdir().unwrap();
    for name in ["byog.sqlite3", "byog.sqlite3-wal", "byog.lock"] {
        std::fs::copy(from.join(name), to.path().join(name)).unwrap();
    }
    to
}

/// The write-ahead log's frames: its length less the header, over a frame's size.
fn frames(wal: &Path) -> u64 {
    (std::fs::metadata(wal).unwrap().len() - 32) / (4096 + 24)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_write_ahead_log_is_refused_and_recover_says_what_was_lost() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    fill(&store, &[("aaaaaaaaaaaaaaaa", 5)]).await;
    let image = crash_image(dir.path());
    drop(store);
    // SQLite stops reading its log at the first frame whose checksum fails, and drops that
    // commit and every later one without an error: quick_check sees a sound database.
    let wal = image.path().join("byog.sqlite3-wal");
    let n = frames(&wal);
    assert!(n > 100, "{n} frames");
    {
        use std::os::unix::fs::FileExt;
        let f = std::fs::OpenOptions::new().write(true).open(&wal).unwrap();
        f.write_all_at(b"damage", 32 + (n / 2) * (4096 + 24) + 24 + 1000)
            .unwrap();
    }
    match Store::open(image.path(), SyncMode::Normal) {
        Err(e @ StoreError::Behind { .. }) => {
            let msg = e.to_string();
            assert!(
                msg.contains("byog.lock") && msg.contains("missing") && msg.contains("--recover"),
                "{msg}"
            );
        }
        other => panic!("a damaged log: {other:?}"),
    }
    let recover = StoreOptions {
        recover: true,
        ..StoreOptions::default()
    };
    let store = Store::open_with(image.path(), recover).unwrap();
    let notes = store.startup().join("\n");
    eprintln!("{notes}");
    assert!(notes.contains("were lost"), "{notes}");
    // What it holds is the game's log as it stood at an earlier commit, whole.
    let (log, _, seqs) = store.log("aaaaaaaaaaaaaaaa").unwrap();
    let full = batches(5, 200);
    assert!(seqs < 200, "{seqs}");
    assert_eq!(log, full[..seqs as usize].concat());
    assert_eq!(
        named(image.path(), "byog.sqlite3.damaged-").len(),
        2,
        "the file and its log kept"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_and_its_log_cut_is_refused_at_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let child = Child::spawn(dir.path());
    let (game, secret) = new_game(child.addr, "run", 42, None).await;
    let (mut ws, _) = player(child.addr, &game, &secret).await;
    let moves = "DDSSAAWWDSAW".repeat(4);
    for (i, k) in moves.chars().enumerate() {
        keys(&mut ws, i as u64 + 1, &k.to_string()).await;
    }
    child.kill();
    // The log cut in half, as a full disk or a careless copy leaves it.
    let wal = dir.path().join("byog.sqlite3-wal");
    let n = frames(&wal);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&wal)
        .unwrap()
        .set_len(32 + n / 2 * (4096 + 24))
        .unwrap();
    let options = ServeOptions {
        data: dir.path().to_owned(),
        ..ServeOptions::default()
    };
    let err = App::new(&options).await.unwrap_err();
    assert!(
        matches!(
            err,
            ServeError::Store {
                source: StoreError::Behind { .. },
                ..
            }
        ),
        "{err}"
    );
    // With --recover it starts with what the log held, an earlier moment of the game.
    let app = App::new(&ServeOptions {
        recover: true,
        ..options
    })
    .await
    .unwrap();
    let (log, acked, _) = app.store.log(&game).unwrap();
    assert!((acked as usize) < moves.len(), "{acked}");
    assert_eq!(
        replayed(&log),
        replayed(&format!("R42S{}", &moves[..acked as usize]))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recovery_that_fails_puts_the_database_back_as_it_was_found() {
    let dir = tempfile::tempdir().unwrap();
    let games = [("aaaaaaaaaaaaaaaa", 11), ("bbbbbbbbbbbbbbbb", 22)];
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    fill(&store, &games).await;
    drop(store);
    let db = dir.path().join("byog.sqlite3");
    let (pages, size) = leaves(&db, "batches");
    spoil_page(&db, pages[pages.len() / 2], size);
    let before = std::fs::read(&db).unwrap();
    assert!(before.len() > 64 * 1024, "{} bytes", before.len());
    // The fresh copy cannot be written past 32 KiB (as on a full disk).
    let (code, said) = Child::recover_within(dir.path(), 32);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("--recover failed") && said.contains("put back"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "the database is back as it was"
    );
    assert_eq!(named(dir.path(), "byog.sqlite3"), std::slice::from_ref(&db));
    // With room, the recovery is done.
    let recover = StoreOptions {
        recover: true,
        ..StoreOptions::default()
    };
    let store = Store::open_with(dir.path(), recover).unwrap();
    let notes = store.startup().join("\n");
    eprintln!("{notes}");
    assert!(notes.contains("is kept as"), "{notes}");
    // Each game is its whole log, or marked damaged with what it lost, and the rows past
    // the damaged page are kept.
    let mut kept = 0;
    for (id, seed) in games {
        kept += store
            .read(|c| {
                Ok(
                    c.query_row("SELECT count(*) FROM batches WHERE game = ?1", [id], |r| {
                        r.get::<_, i64>(0)
                    })?,
                )
            })
            .unwrap();
        match store.log(id) {
            Ok((log, _, _)) => assert_eq!(log, batches(seed, 200).concat(), "{id}"),
            Err(StoreError::DamagedGame { why, .. }) => assert!(why.contains("of 200"), "{why}"),
            Err(e) => panic!("{id}: {e}"),
        }
    }
    // At most the damaged leaf's rows are lost: the leaves hold the 400 batches about
    // evenly.
    let per_leaf = 400 / pages.len() as i64;
    assert!(
        kept >= 400 - 2 * per_leaf,
        "{kept} batches kept, {per_leaf} a leaf"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recover_keeps_every_game_whole_or_marked_whichever_page_is_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let games = [
        ("aaaaaaaaaaaaaaaa", 11),
        ("bbbbbbbbbbbbbbbb", 22),
        ("cccccccccccccccc", 33),
    ];
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    let logs = fill(&store, &games).await;
    drop(store);
    let db = dir.path().join("byog.sqlite3");
    let (_, size) = leaves(&db, "batches");
    let pages = std::fs::metadata(&db).unwrap().len() / size;
    let recover = StoreOptions {
        recover: true,
        ..StoreOptions::default()
    };
    // Every page in turn, the first (the schema) included.
    for page in 1..=pages {
        let copy = tempfile::tempdir().unwrap();
        std::fs::copy(&db, copy.path().join("byog.sqlite3")).unwrap();
        spoil_page(&copy.path().join("byog.sqlite3"), page, size);
        let store = Store::open_with(copy.path(), recover).unwrap();
        let notes = store.startup().join("\n");
        for ((id, _), log) in games.iter().zip(&logs) {
            if store.game(id).unwrap().is_none() {
                // Its row was lost: said, with its batches dropped, unless the damage
                // kept the walk from them (said too).
                assert!(
                    notes.contains(&format!("game {id}: its row could not be read"))
                        || notes.contains("could not be looked for")
                        || notes.contains("could not be read at all")
                        || notes.contains("nothing could be read"),
                    "page {page}, {id}: {notes}"
                );
                continue;
            }
            // Never another game: the whole log, or marked damaged and refused.
            match store.log(id) {
                Ok((kept, _, _)) => assert_eq!(kept, log.concat(), "page {page}, {id}"),
                Err(StoreError::DamagedGame { .. }) => {
                    assert!(
                        notes.contains(&format!("game {id} is marked damaged")),
                        "{notes}"
                    )
                }
                Err(e) => panic!("page {page}, {id}: {e}"),
            }
        }
    }
}
