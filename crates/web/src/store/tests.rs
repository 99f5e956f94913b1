use super::*;

fn game(id: &str) -> NewGame {
    NewGame {
        id: id.into(),
        secret_hash: "h".into(),
        account: None,
        board: "seeded".into(),
        day: None,
        mode: Some("run".into()),
        seed: Some(42),
        options: "{}".into(),
        ruleset: "r".into(),
        prefix: "R42S".into(),
    }
}

#[tokio::test]
async fn a_key_log_is_its_batches_in_order_and_a_batch_is_written_once() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    store.create_game(game("g1")).await.unwrap();
    store
        .append("g1", 1, Some(1), "R42S")
        .await
        .unwrap()
        .unwrap();
    store.append("g1", 2, None, "WW").await.unwrap().unwrap();
    store.append("g1", 3, Some(2), "D").await.unwrap().unwrap();
    assert_eq!(store.log("g1").unwrap(), ("R42SWWD".to_owned(), 2, 3));
    // The same batch again is refused: its place in the log is taken.
    let again = store.append("g1", 3, Some(2), "D").await.unwrap();
    assert!(again.unwrap_err().is_duplicate());
    // A batch of a game that does not exist is refused.
    assert!(
        store
            .append("nope", 1, Some(1), "W")
            .await
            .unwrap()
            .is_err()
    );
    drop(store);
    // Opened again: everything is there.
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    assert_eq!(store.log("g1").unwrap().0, "R42SWWD");
    assert_eq!(store.game("g1").unwrap().unwrap().seed, Some(42));
    assert!(store.startup().is_empty(), "{:?}", store.startup());
}

#[tokio::test]
async fn a_batch_that_skips_a_place_in_the_log_is_refused_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    store.create_game(game("g1")).await.unwrap();
    store.append("g1", 1, None, "R42S").await.unwrap().unwrap();
    let gap = store.append("g1", 3, Some(1), "D").await.unwrap();
    match gap {
        Err(StoreError::Sequence {
            seq: 3, have: 1, ..
        }) => {}
        other => panic!("a batch past a gap: {other:?}"),
    }
    store.append("g1", 2, Some(1), "D").await.unwrap().unwrap();
    assert_eq!(store.log("g1").unwrap(), ("R42SD".to_owned(), 1, 2));
}

#[tokio::test]
async fn a_write_that_fails_leaves_nothing_of_itself_and_the_others_commit() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    let failed = store.write(|c| {
        c.execute("INSERT INTO meta(key, value) VALUES ('half', 'done')", [])?;
        Err(StoreError::Missing("the second half"))
    });
    let fine = store.write(|c| {
        c.execute("INSERT INTO meta(key, value) VALUES ('whole', 'done')", [])?;
        Ok(1)
    });
    let (failed, fine) = tokio::join!(failed, fine);
    assert!(failed.is_err());
    assert_eq!(fine.unwrap(), 1);
    let keys: Vec<String> = store
        .read(|c| {
            Ok(c.prepare("SELECT key FROM meta WHERE value = 'done'")?
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?)
        })
        .unwrap();
    assert_eq!(keys, ["whole"]);
}

#[tokio::test]
async fn a_database_replaced_while_running_acknowledges_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    store.create_game(game("g1")).await.unwrap();
    store.append("g1", 1, None, "R42S").await.unwrap().unwrap();
    // Another file put in its place (a copy, renamed over it).
    let db = dir.path().join(DB_FILE);
    let copy = dir.path().join("copy");
    std::fs::copy(&db, &copy).unwrap();
    std::fs::rename(&copy, &db).unwrap();
    for seq in [2, 2] {
        match store.append("g1", seq, Some(1), "D").await.unwrap() {
            Err(StoreError::Replaced(why)) => {
                assert!(why.contains("replaced") && why.contains("restart"), "{why}")
            }
            other => panic!("a write after the file was replaced: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_lock_file_deleted_while_running_acknowledges_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    store.create_game(game("g1")).await.unwrap();
    std::fs::remove_file(dir.path().join(lock::LOCK_FILE)).unwrap();
    match store.append("g1", 1, None, "R42S").await.unwrap() {
        Err(StoreError::Replaced(why)) => assert!(why.contains("byog.lock"), "{why}"),
        other => panic!("a write after the lock file went: {other:?}"),
    }
}

#[tokio::test]
async fn a_database_deleted_while_stopped_is_refused_and_recover_begins_an_empty_one() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    store.create_game(game("g1")).await.unwrap();
    drop(store);
    std::fs::remove_file(dir.path().join(DB_FILE)).unwrap();
    match Store::open(dir.path(), SyncMode::Normal) {
        Err(e @ StoreError::Gone { .. }) => assert!(e.to_string().contains("--recover"), "{e}"),
        other => panic!("a database gone: {other:?}"),
    }
    let recover = StoreOptions {
        recover: true,
        ..StoreOptions::default()
    };
    let store = Store::open_with(dir.path(), recover).unwrap();
    assert!(store.game("g1").unwrap().is_none());
    assert!(
        store
            .startup()
            .iter()
            .any(|n| n.contains("began an empty database")),
        "{:?}",
        store.startup()
    );
    drop(store);
    // And the next start is an ordinary one.
    let store = Store::open(dir.path(), SyncMode::Normal).unwrap();
    assert!(store.startup().is_empty(), "{:?}", store.startup());
}

#[test]
fn a_database_path_that_is_not_a_file_is_refused_before_sqlite_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(DB_FILE)).unwrap();
    match Store::open(dir.path(), SyncMode::Normal) {
        Err(e @ StoreError::NotAFile { .. }) => assert!(e.to_string().contains(DB_FILE), "{e}"),
        other => panic!("a folder in the database's place: {other:?}"),
    }
}

#[test]
fn a_database_another_program_holds_open_is_refused_as_in_use_not_damaged() {
    let dir = tempfile::tempdir().unwrap();
    drop(Store::open(dir.path(), SyncMode::Normal).unwrap());
    // Another program (an older server without the lock file) with the database open.
    let other = Connection::open(dir.path().join(DB_FILE)).unwrap();
    other.pragma_update(None, "journal_mode", "WAL").unwrap();
    other
        .execute("INSERT INTO meta(key, value) VALUES ('other', 'x')", [])
        .unwrap();
    let recover = StoreOptions {
        recover: true,
        ..StoreOptions::default()
    };
    // Refused as in use, even with --recover: its file is not set aside.
    for options in [StoreOptions::default(), recover] {
        match Store::open_with(dir.path(), options) {
            Err(e @ StoreError::InUse { .. }) => assert!(e.to_string().contains("in use"), "{e}"),
            other => panic!("a database in use: {other:?}"),
        }
    }
    assert!(dir.path().join(DB_FILE).exists());
    drop(other);
    drop(Store::open(dir.path(), SyncMode::Normal).unwrap());
}
