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
    let store = Store::open(dir.path(), Sync::Normal).unwrap();
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
    let store = Store::open(dir.path(), Sync::Normal).unwrap();
    assert_eq!(store.log("g1").unwrap().0, "R42SWWD");
    assert_eq!(store.game("g1").unwrap().unwrap().seed, Some(42));
    assert!(store.startup().is_empty(), "{:?}", store.startup());
}

#[tokio::test]
async fn a_batch_that_skips_a_place_in_the_log_is_refused_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Sync::Normal).unwrap();
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
    let store = Store::open(dir.path(), Sync::Normal).unwrap();
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
