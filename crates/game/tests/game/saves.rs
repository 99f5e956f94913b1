//! Saves (`docs/saves.md`): round trips, damaged files, atomic writes, interrupted
//! writes, and the `L` key through the real binary.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use byog_game::save::{
    self, FORMAT_VERSION, FileStore, MAGIC, SAVE_FILE_NAME, SaveError, SaveStore,
};
use byog_game::save::{CHECKSUM_LEN, HEADER_LEN};
use byog_game::{GameState, LevelStatus};
use byog_tile_engine::{Pos, Tile};
use byog_worlds::generator::GeneratorSettings;

use crate::common;
use common::{act, assert_same_play, fixtures, keys_to_exit as path_to_exit, played_game, read};

fn new_game(seed: u64) -> GameState {
    GameState::new(seed, 80, 30, GeneratorSettings::default()).expect("80 x 30 generates")
}

/// Recomputes the CRC of a save whose payload was edited by hand.
fn fix_crc(bytes: &mut [u8]) {
    let end = bytes.len() - CHECKSUM_LEN;
    let crc = crc32fast::hash(&bytes[8..end]);
    bytes[end..].copy_from_slice(&crc.to_le_bytes());
}

fn payload_len(bytes: &[u8]) -> usize {
    u64::from_le_bytes(bytes[12..20].try_into().unwrap()) as usize
}

/// Writes `bytes` as `dir/save.bin`, loads it through [`FileStore`], checks that the file is
/// unchanged and that the error names the file, and returns the error.
fn load_damaged(dir: &Path, bytes: &[u8]) -> SaveError {
    let store = FileStore::in_dir(dir);
    fs::write(store.path(), bytes).unwrap();
    let err = match store.load() {
        Ok(Some(_)) => panic!("a damaged save ({} bytes) loaded", bytes.len()),
        Ok(None) => panic!(
            "a damaged save ({} bytes) was taken for no save",
            bytes.len()
        ),
        Err(e) => e,
    };
    assert_eq!(
        read(store.path()),
        bytes,
        "loading changed the file ({err})"
    );
    assert_names_path(&err, store.path());
    err
}

fn assert_names_path(err: &SaveError, path: &Path) {
    let message = err.to_string();
    assert!(
        message.contains(&path.display().to_string()),
        "the message {message:?} does not name {}",
        path.display()
    );
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// ---------------------------------------------------------------------------------------------
// 1. Round trips
// ---------------------------------------------------------------------------------------------

#[test]
fn encode_decode_round_trip_is_exact() {
    for seed in [0, 1, 999, 1234, 9_223_372_036_854_775_807] {
        let game = played_game(seed);
        let bytes = save::encode(&game);
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(
            u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
            FORMAT_VERSION
        );
        assert_eq!(bytes.len(), HEADER_LEN + payload_len(&bytes) + CHECKSUM_LEN);
        let back = save::decode(&bytes, Path::new("mem")).expect("a fresh save decodes");
        assert_eq!(back, game, "seed {seed}");
        assert_eq!(back.world().to_string(), game.world().to_string());
        assert_eq!(back.history(), game.history());
        assert_eq!(back.moves(), game.moves());
        assert_eq!(back.rng(), game.rng());
        // Encoding is deterministic, so a re-save of a loaded game is the same file.
        assert_eq!(save::encode(&back), bytes);
    }
}

#[test]
fn a_loaded_game_continues_exactly_like_the_original() {
    let mut original = played_game(999);
    let mut loaded = save::decode(&save::encode(&original), Path::new("mem")).unwrap();
    for key in "WWWDDDSSSAAAWDWDSASA".chars() {
        assert_eq!(original.apply(act(key)), loaded.apply(act(key)));
        assert_eq!(loaded, original);
    }
}

#[test]
fn a_won_game_round_trips() {
    let mut game = new_game(42);
    let keys = path_to_exit(&game);
    let mut won = false;
    for key in keys.chars() {
        won = game.apply(act(key)).won();
    }
    assert!(won, "the last key walked into the exit");
    assert_eq!(game.status(), LevelStatus::Won);
    assert_eq!(game.world().get(game.exit()), Some(Tile::UnlockedDoor));
    let back = save::decode(&save::encode(&game), Path::new("mem")).unwrap();
    assert_eq!(back, game);
    assert_eq!(back.status(), LevelStatus::Won);
}

#[test]
fn file_store_round_trip_and_size() {
    let tmp = tempfile::tempdir().unwrap();
    let mut store = FileStore::in_dir(tmp.path());
    assert_eq!(store.path(), tmp.path().join(SAVE_FILE_NAME));
    assert_eq!(store.location(), tmp.path().join(SAVE_FILE_NAME));
    assert!(store.load().unwrap().is_none(), "no save yet");

    let game = played_game(1234);
    store.save(&game).unwrap();
    let bytes = read(store.path());
    assert_eq!(bytes, save::encode(&game));
    assert!(
        bytes.len() < 8 * 1024,
        "an 80 x 30 save takes {} bytes",
        bytes.len()
    );
    let loaded = store.load().unwrap().expect("the save is there");
    assert_eq!(loaded, game);
    assert_eq!(loaded.world().to_string(), game.world().to_string());
    // Loading only reads.
    assert_eq!(read(store.path()), bytes);
    assert_eq!(entries(tmp.path()), [SAVE_FILE_NAME]);
}

// ---------------------------------------------------------------------------------------------
// 2. Damaged files
// ---------------------------------------------------------------------------------------------

#[test]
fn truncated_files_are_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let good = save::encode(&played_game(7));
    let payload_end = HEADER_LEN + payload_len(&good);
    let cuts = [
        0,
        5,
        8,
        HEADER_LEN / 2 + 4, // mid-header (inside the version / length fields)
        HEADER_LEN - 1,
        HEADER_LEN,
        HEADER_LEN + payload_len(&good) / 2, // mid-payload
        payload_end,                         // the whole checksum is missing
        good.len() - 1,                      // the last byte is missing
    ];
    for cut in cuts {
        let err = load_damaged(tmp.path(), &good[..cut]);
        assert!(
            matches!(err, SaveError::Truncated { .. }),
            "cut at {cut}: {err:?}"
        );
        assert!(err.to_string().contains("truncated"), "cut at {cut}: {err}");
    }
}

#[test]
fn a_flipped_payload_byte_fails_the_checksum() {
    let tmp = tempfile::tempdir().unwrap();
    let good = save::encode(&played_game(8));
    let payload_end = HEADER_LEN + payload_len(&good);
    for at in [HEADER_LEN, (HEADER_LEN + payload_end) / 2, payload_end - 1] {
        for mask in [0x01, 0x80, 0xFF] {
            let mut bad = good.clone();
            bad[at] ^= mask;
            let err = load_damaged(tmp.path(), &bad);
            assert!(
                matches!(err, SaveError::Checksum { .. }),
                "byte {at} ^ {mask:#x}: {err:?}"
            );
            assert!(err.to_string().contains("damaged"), "{err}");
        }
    }
    // A flipped checksum byte is a checksum error too.
    let mut bad = good.clone();
    *bad.last_mut().unwrap() ^= 0x10;
    let err = load_damaged(tmp.path(), &bad);
    assert!(matches!(err, SaveError::Checksum { .. }), "{err:?}");
}

#[test]
fn a_wrong_magic_is_not_a_save() {
    let tmp = tempfile::tempdir().unwrap();
    let good = save::encode(&played_game(9));
    for at in 0..8 {
        let mut bad = good.clone();
        bad[at] ^= 0x20;
        let err = load_damaged(tmp.path(), &bad);
        assert!(
            matches!(err, SaveError::NotASave { .. }),
            "byte {at}: {err:?}"
        );
    }
    // Something that is not a save at all, short or long.
    for junk in [
        &b"hello"[..],
        b"PK\x03\x04 a zip file, say",
        b"{\"json\": true}\n",
    ] {
        let err = load_damaged(tmp.path(), junk);
        assert!(
            matches!(err, SaveError::NotASave { .. }),
            "{junk:?}: {err:?}"
        );
    }
}

#[test]
fn a_future_format_version_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let good = save::encode(&played_game(10));
    for version in [FORMAT_VERSION + 1, u32::MAX] {
        let mut bad = good.clone();
        bad[8..12].copy_from_slice(&version.to_le_bytes());
        // With the checksum left stale and with it fixed: the version is checked first.
        for fix in [false, true] {
            if fix {
                fix_crc(&mut bad);
            }
            let err = load_damaged(tmp.path(), &bad);
            match &err {
                SaveError::FutureVersion {
                    found, supported, ..
                } => {
                    assert_eq!(*found, version);
                    assert_eq!(*supported, FORMAT_VERSION);
                }
                other => panic!("version {version}: {other:?}"),
            }
            assert!(err.to_string().contains(&version.to_string()), "{err}");
        }
    }
}

#[test]
fn trailing_garbage_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let good = save::encode(&played_game(11));
    for extra in [&[0u8][..], b"\n", b"garbage after the checksum"] {
        let mut bad = good.clone();
        bad.extend_from_slice(extra);
        let err = load_damaged(tmp.path(), &bad);
        assert!(
            matches!(err, SaveError::Corrupt { .. }),
            "{} extra bytes: {err:?}",
            extra.len()
        );
    }
}

#[test]
fn a_directory_in_place_of_the_save_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let store = FileStore::in_dir(tmp.path());
    fs::create_dir(store.path()).unwrap();
    fs::write(store.path().join("keep.txt"), b"keep me").unwrap();
    let err = store.load().expect_err("a directory is not a save");
    assert!(matches!(err, SaveError::IsDirectory { .. }), "{err:?}");
    assert_names_path(&err, store.path());
    assert!(store.path().is_dir());
    assert_eq!(read(&store.path().join("keep.txt")), b"keep me");
}

// ---------------------------------------------------------------------------------------------
// 3. Checksum-valid but inconsistent payloads
// ---------------------------------------------------------------------------------------------

#[test]
fn an_unknown_tile_id_with_a_valid_checksum_is_corrupt() {
    let tmp = tempfile::tempdir().unwrap();
    let game = played_game(12);
    let good = save::encode(&game);
    // The terrain is stored as one run of ids (format 2: terrain alone, the avatar and the
    // exit are things); find it in the payload.
    let ids: Vec<u8> = game.terrain().tiles().iter().map(|t| t.id()).collect();
    let payload_end = HEADER_LEN + payload_len(&good);
    let start = (HEADER_LEN..payload_end - ids.len())
        .find(|&i| good[i..i + ids.len()] == ids[..])
        .expect("the tile ids appear in the payload");
    for offset in [0, ids.len() / 2, ids.len() - 1] {
        let mut bad = good.clone();
        bad[start + offset] = 200;
        fix_crc(&mut bad);
        let err = load_damaged(tmp.path(), &bad);
        assert!(matches!(err, SaveError::Corrupt { .. }), "{err:?}");
        assert!(err.to_string().contains("200"), "{err}");
    }

    // A thing stored as terrain: a floor tile turned into a player (things are not terrain).
    let floor = ids.iter().position(|&id| id == Tile::Floor.id()).unwrap();
    let mut bad = good.clone();
    bad[start + floor] = Tile::Player.id();
    fix_crc(&mut bad);
    let err = load_damaged(tmp.path(), &bad);
    assert!(matches!(err, SaveError::Corrupt { .. }), "{err:?}");
    assert!(err.to_string().contains("not terrain"), "{err}");

    // The avatar standing in a wall.
    let avatar = game.terrain().index(game.avatar());
    let mut bad = good.clone();
    bad[start + avatar] = Tile::Wall.id();
    fix_crc(&mut bad);
    let err = load_damaged(tmp.path(), &bad);
    assert!(matches!(err, SaveError::Corrupt { .. }), "{err:?}");

    // The exit's wall gone (the door must be set into a wall).
    let exit = game.terrain().index(game.exit());
    let mut bad = good.clone();
    bad[start + exit] = Tile::Floor.id();
    fix_crc(&mut bad);
    let err = load_damaged(tmp.path(), &bad);
    assert!(matches!(err, SaveError::Corrupt { .. }), "{err:?}");
}

#[test]
fn every_single_byte_payload_mutation_with_a_valid_checksum_is_handled() {
    let game = played_game(13);
    let good = save::encode(&game);
    let payload_end = HEADER_LEN + payload_len(&good);
    let path = Path::new("/some/dir/save.bin");
    let mut corrupt = 0;
    let mut accepted = 0;
    for at in HEADER_LEN..payload_end {
        for mutation in [0xFFu8, 0x01, 0x80] {
            let mut bad = good.clone();
            bad[at] ^= mutation;
            fix_crc(&mut bad);
            match save::decode(&bad, path) {
                Ok(loaded) => {
                    accepted += 1;
                    // Whatever is accepted is a consistent game that saves and loads again.
                    assert_eq!(loaded.world().count(Tile::Player), 1, "byte {at}");
                    assert_eq!(loaded.world().get(loaded.avatar()), Some(Tile::Player));
                    let again = save::decode(&save::encode(&loaded), path).unwrap();
                    assert_eq!(again, loaded, "byte {at}");
                }
                Err(e) => {
                    assert!(
                        matches!(e, SaveError::Corrupt { .. }),
                        "byte {at} ^ {mutation:#x} with a fixed checksum: {e:?}"
                    );
                    assert_names_path(&e, path);
                    corrupt += 1;
                }
            }
        }
    }
    assert!(corrupt > 0, "no mutation was rejected as corrupt");
    assert!(
        accepted > 0,
        "no mutation was accepted (the rng state is free)"
    );
}

// ---------------------------------------------------------------------------------------------
// 4. Atomic writes
// ---------------------------------------------------------------------------------------------

#[test]
fn saving_over_a_save_leaves_only_the_save() {
    let tmp = tempfile::tempdir().unwrap();
    let mut store = FileStore::in_dir(tmp.path());
    let a = played_game(21);
    let b = played_game(22);
    store.save(&a).unwrap();
    assert_eq!(entries(tmp.path()), [SAVE_FILE_NAME]);
    store.save(&b).unwrap();
    assert_eq!(entries(tmp.path()), [SAVE_FILE_NAME]);
    assert_eq!(store.load().unwrap(), Some(b.clone()));
    store.save(&a).unwrap();
    assert_eq!(entries(tmp.path()), [SAVE_FILE_NAME]);
    assert_eq!(store.load().unwrap(), Some(a));
}

#[test]
fn a_missing_save_folder_is_created() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("deep").join("er").join("saves");
    let mut store = FileStore::in_dir(&dir);
    assert!(store.load().unwrap().is_none());
    assert!(!dir.exists(), "loading must not create the folder");
    let game = played_game(23);
    store.save(&game).unwrap();
    assert!(dir.is_dir());
    assert_eq!(entries(&dir), [SAVE_FILE_NAME]);
    assert_eq!(store.load().unwrap(), Some(game));
}

#[test]
fn a_file_in_place_of_the_save_folder_fails_the_write() {
    let tmp = tempfile::tempdir().unwrap();
    let blocker = tmp.path().join("saves");
    fs::write(&blocker, b"not a folder").unwrap();
    let mut store = FileStore::in_dir(&blocker);
    let err = store
        .save(&played_game(24))
        .expect_err("cannot save inside a file");
    // The message names the folder and says what to do (bug 5: not "File exists").
    assert!(matches!(err, SaveError::FolderIsAFile { .. }), "{err:?}");
    assert!(err.to_string().contains(&blocker.display().to_string()));
    assert!(err.to_string().contains("--save-dir"), "{err}");
    assert_eq!(read(&blocker), b"not a folder");
    assert_eq!(entries(tmp.path()), ["saves"]);
}

#[test]
fn a_directory_in_place_of_the_save_fails_the_write() {
    let tmp = tempfile::tempdir().unwrap();
    let mut store = FileStore::in_dir(tmp.path());
    fs::create_dir(store.path()).unwrap();
    fs::write(store.path().join("keep.txt"), b"keep me").unwrap();
    let err = store
        .save(&played_game(25))
        .expect_err("cannot save over a directory");
    assert!(matches!(err, SaveError::IsDirectory { .. }), "{err:?}");
    assert_names_path(&err, store.path());
    assert!(store.path().is_dir());
    assert_eq!(entries(store.path()), ["keep.txt"]);
    assert_eq!(read(&store.path().join("keep.txt")), b"keep me");
    assert_eq!(
        entries(tmp.path()),
        [SAVE_FILE_NAME],
        "no temporary file left"
    );
}

// ---------------------------------------------------------------------------------------------
// 5. Interrupted writes
// ---------------------------------------------------------------------------------------------

#[test]
fn a_stray_temporary_file_does_not_disturb_the_save() {
    let tmp = tempfile::tempdir().unwrap();
    let mut store = FileStore::in_dir(tmp.path());
    let a = played_game(31);
    store.save(&a).unwrap();
    let saved = read(store.path());

    // As if a later save was killed before its rename: a half-written temporary file.
    let b = save::encode(&played_game(32));
    let stray = tmp.path().join(".save-XXXX.tmp");
    fs::write(&stray, &b[..b.len() / 2]).unwrap();
    let garbage = tmp.path().join(".save-a1b2.tmp");
    fs::write(&garbage, b"\x00\xffgarbage").unwrap();

    assert_eq!(store.load().unwrap(), Some(a.clone()));
    assert_eq!(read(store.path()), saved);
    assert_eq!(read(&stray), &b[..b.len() / 2]);

    // The next save still works and replaces only save.bin.
    let c = played_game(33);
    store.save(&c).unwrap();
    assert_eq!(store.load().unwrap(), Some(c));
    assert_eq!(
        entries(tmp.path()),
        [".save-XXXX.tmp", ".save-a1b2.tmp", SAVE_FILE_NAME]
    );
}

// ---------------------------------------------------------------------------------------------
// 6. The helpers, checked (the binary's saves are the root's `tests/saves_cli.rs`)
// ---------------------------------------------------------------------------------------------

#[test]
fn helper_positions_are_inside_the_world() {
    // Guards the BFS helper above: its path really ends at the exit of the world it read.
    let game = new_game(42);
    let keys = path_to_exit(&game);
    let mut p: Pos = game.avatar();
    for key in keys.chars() {
        let byog_game::Action::Move(d) = act(key) else {
            panic!("the path holds only moves");
        };
        p += d;
    }
    assert_eq!(p, game.exit());
}

// ---------------------------------------------------------------------------------------------
// Released formats: committed fixtures (docs/saves.md)
// ---------------------------------------------------------------------------------------------

/// Every fixture save, with its format version read from its name.
fn fixture_saves() -> Vec<(u32, PathBuf)> {
    let mut found: Vec<(u32, PathBuf)> = fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let version = name
                .strip_prefix('v')
                .and_then(|r| r.split('-').next())
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("fixture {name} is not named v<version>-…"));
            (version, p)
        })
        .collect();
    found.sort();
    found
}

/// A game as the interpreter plays it from an input string (the way a player made the
/// fixture). Only the fixtures of the classic game and of runs are replayed (an
/// exploration's keys play into another game under today's rules: see
/// [`assert_plays_on`]).
fn replayed(input: &str, width: usize, height: usize, settings: GeneratorSettings) -> GameState {
    let mut interpreter = byog_game::Interpreter::new(width, height, settings);
    byog_game::replay::replay(
        &mut interpreter,
        input,
        &mut save::MemoryStore::default(),
        true,
        &mut |_| {},
    )
    .unwrap();
    interpreter.into_game().unwrap()
}

#[test]
fn every_released_format_has_a_fixture() {
    let versions: Vec<u32> = fixture_saves().iter().map(|(v, _)| *v).collect();
    for v in 1..=FORMAT_VERSION {
        assert!(
            versions.contains(&v),
            "format version {v} has no fixture save in tests/fixtures (v{v}-<what>.bin): \
             every released version needs one"
        );
    }
    assert!(versions.iter().all(|&v| v <= FORMAT_VERSION));
}

#[test]
fn every_fixture_loads_into_the_world_it_was_saved_with() {
    for (version, path) in fixture_saves() {
        let bytes = read(&path);
        // The file's own header says its version.
        assert_eq!(bytes[8..12], version.to_le_bytes(), "{}", path.display());
        let game = save::decode(&bytes, &path)
            .unwrap_or_else(|e| panic!("fixture {} no longer loads: {e}", path.display()));
        let expected = fs::read_to_string(path.with_extension("txt")).unwrap();
        assert_eq!(game.world().to_string(), expected, "{}", path.display());
        // Loading changes nothing: loading again from a file gives the same game, and the
        // file is untouched.
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(SAVE_FILE_NAME), &bytes).unwrap();
        let store = FileStore::in_dir(dir.path());
        assert_eq!(store.load().unwrap().as_ref(), Some(&game));
        assert_eq!(read(&dir.path().join(SAVE_FILE_NAME)), bytes);
        // An exploration is not replayed: its keys were played by the rules it was saved
        // under, and today's rules (version 5: the clock, potions in chests, the monsters'
        // traits) play them into another game; there is one set of rules, so a replay today
        // is no oracle for it. The players' tests check it against the JSON state it was
        // saved in (crates/players/tests/players/old_saves.rs, which may use the players'
        // JSON), and the tests below that it plays on.
        if game.explore().is_some() {
            continue;
        }
        // The history re-checks the save: replayed from the menu, it gives the same world
        // (a run's floors are made at most --width × --height, which the run records).
        let (w, h) = match game.run() {
            Some(run) => (run.max_width as usize, run.max_height as usize),
            None => (game.world().width(), game.world().height()),
        };
        let again = replayed(&game.history(), w, h, *game.settings());
        if version >= 2 {
            // Version 1 histories may hold bumps, which today are no moves.
            assert_same_play(&again, &game, &path.display().to_string());
        }
        assert_eq!(again.world(), game.world(), "{}", path.display());
        assert_eq!(again.rng(), game.rng(), "{}", path.display());
    }
}

/// An exploration fixture plays on under today's rules from where it was saved: each of
/// `keys` is taken as a move (none refused or a bump), the history is the saved one and the
/// new keys, the move count grows by one a key, and the game saved today and loaded again is
/// the same game. (It is not compared with its whole walk replayed today: the rules changed
/// since it was saved and there is one set of rules, so the keys before the save would play
/// into another game; what it was saved as is checked against the JSON state it was saved in
/// by the players' tests, old_saves.rs.)
fn assert_plays_on(saved: &GameState, keys: &str, what: &str) -> GameState {
    let mut going = saved.clone();
    for (i, key) in keys.chars().enumerate() {
        let moves = going.moves();
        let events = going.apply(act(key));
        assert!(
            events.changed_game(),
            "{what}: key {i} ({key}) of {keys} was not taken"
        );
        assert_eq!(going.moves(), moves + 1, "{what}: key {i} ({key})");
    }
    assert_eq!(
        going.history(),
        format!("{}{keys}", saved.history()),
        "{what}"
    );
    let again = save::decode(&save::encode(&going), Path::new(what)).unwrap();
    assert_eq!(again, going, "{what}");
    going
}

#[test]
fn a_version_1_fixture_continues_like_the_original_game() {
    // v1-n999sdddwww.bin is `N999SDDDWWW:Q` saved by the first release: loading it and
    // typing DDD gives the world of `N999SDDDWWWDDD` played in one go (sp18 spec).
    let path = fixtures().join("v1-n999sdddwww.bin");
    let mut loaded = save::decode(&read(&path), &path).unwrap();
    let mut original = replayed("N999SDDDWWW", 80, 30, GeneratorSettings::default());
    assert_eq!(loaded, original);
    for key in "DDDSSAAWWD".chars() {
        assert_eq!(loaded.apply(act(key)), original.apply(act(key)));
        assert_eq!(loaded, original);
    }
    // A save written before bumps stopped counting: its history keeps the bumps and its
    // move count counts them; it loads as it was and plays on.
    let path = fixtures().join("v1-n999sdddwwwddd-bumps.bin");
    let mut old = save::decode(&read(&path), &path).unwrap();
    assert_eq!(old.history(), "N999SDDDWWWDDD");
    assert_eq!(old.moves(), 9);
    let fresh = replayed("N999SDDDWWWDDD", 80, 30, GeneratorSettings::default());
    assert_eq!(old.world(), fresh.world());
    assert_eq!(fresh.moves(), 6, "today the three bumps are not moves");
    old.apply(act('S'));
    assert_eq!(old.moves(), 10);
    // A non-default size and requirement are part of the save.
    let path = fixtures().join("v1-41x21-min-rooms-6.bin");
    let sized = save::decode(&read(&path), &path).unwrap();
    assert_eq!((sized.world().width(), sized.world().height()), (41, 21));
    assert_eq!(sized.settings().requirements.min_rooms, Some(6));
    assert_eq!(sized.settings().max_tries, 50);
}

#[test]
fn a_version_3_exploration_fixture_loads_mid_walk_and_plays_on() {
    // v3-e42s-walk.bin: the first 300 keys of tests/common's EXPLORE_WALK_42, then `:Q`: in
    // room (2, 3) of branch 0, with 15 rooms made and chests refilled, saved before monsters.
    // (The state it loads into is checked against the JSON it was saved in by the players'
    // tests, old_saves.rs.)
    let path = fixtures().join("v3-e42s-walk.bin");
    let game = save::decode(&read(&path), &path).unwrap();
    let keys = fs::read_to_string(path.with_extension("keys")).unwrap();
    let keys = keys.trim();
    assert_eq!(game.history(), keys);
    assert!(common::EXPLORE_WALK_42.starts_with(keys));
    let e = game.explore().expect("an exploration");
    assert!(!e.encounters().enabled, "saved before monsters: none");
    assert_eq!(e.branch(), Some(0));
    assert_eq!(e.dungeon().branch(0).unwrap().rooms().len(), 15);
    assert!(e.score() > 0);
    // It plays on under today's rules with the rest of the walk: the rooms made after the
    // save come from the orchestrator's saved state, so the walk goes on into new rooms.
    let rest = &common::EXPLORE_WALK_42[keys.len()..];
    let going = assert_plays_on(&game, rest, "v3-e42s-walk");
    assert!(
        going
            .explore()
            .unwrap()
            .dungeon()
            .branch(0)
            .unwrap()
            .rooms()
            .len()
            > 15
    );
}

/// Fails when the payload changes without a new format version: today's build must write,
/// for the game of a fixture of the current version, exactly the fixture's bytes.
#[test]
fn current_format_writes_the_fixture_bytes() {
    let path = fixtures().join(format!("v{FORMAT_VERSION}-n999sdddwww.bin"));
    let fixture = fs::read(&path).unwrap_or_else(|_| {
        panic!(
            "no fixture {} for the current format version {FORMAT_VERSION}: write one with \
             `byog replay --save-dir DIR N999SDDDWWW:Q` and commit it",
            path.display()
        )
    });
    let game = replayed("N999SDDDWWW", 80, 30, GeneratorSettings::default());
    assert!(
        save::encode(&game) == fixture,
        "the save of N999SDDDWWW is no longer the bytes of {}: the payload changed. If that is \
         meant, add a payload version in crates/game/src/save/format.rs, bump FORMAT_VERSION, convert \
         older versions on load and commit a fixture of the new version",
        path.display()
    );
    // The layout constants the tests and the fuzz target use are the file's.
    assert_eq!(&fixture[..8], MAGIC);
    let declared = u64::from_le_bytes(fixture[12..HEADER_LEN].try_into().unwrap()) as usize;
    assert_eq!(fixture.len(), HEADER_LEN + declared + CHECKSUM_LEN);
}

// ---------------------------------------------------------------------------------------------
// Only regular files are read (docs/saves.md)
// ---------------------------------------------------------------------------------------------

/// Runs `load` on another thread and fails the test if it takes more than 20 seconds (a
/// FIFO that is opened for reading without a writer would block for ever).
fn load_within_limit(store: FileStore) -> Result<Option<GameState>, SaveError> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(store.load());
    });
    rx.recv_timeout(std::time::Duration::from_secs(20))
        .expect("loading must never hang (a FIFO or device in the save's place)")
}

#[cfg(unix)]
#[test]
fn a_symlink_to_a_device_is_refused_but_a_symlink_to_a_save_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(SAVE_FILE_NAME);
    std::os::unix::fs::symlink("/dev/urandom", &path).unwrap();
    let err = load_within_limit(FileStore::in_dir(dir.path())).unwrap_err();
    assert!(matches!(err, SaveError::NotAFile { .. }), "{err:?}");
    assert!(err.to_string().contains("character device"), "{err}");
    // A symlink to a real save is followed.
    let real = tempfile::tempdir().unwrap();
    let game = played_game(5);
    fs::write(real.path().join("real.bin"), save::encode(&game)).unwrap();
    fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(real.path().join("real.bin"), &path).unwrap();
    assert_eq!(
        load_within_limit(FileStore::in_dir(dir.path())).unwrap(),
        Some(game)
    );
}

#[test]
fn a_file_larger_than_any_save_is_refused_without_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(SAVE_FILE_NAME);
    // Sparse: no disk is used for the hole.
    let file = fs::File::create(&path).unwrap();
    file.set_len(save::MAX_SAVE_BYTES + 1).unwrap();
    drop(file);
    let err = load_within_limit(FileStore::in_dir(dir.path())).unwrap_err();
    assert!(matches!(err, SaveError::TooLarge { .. }), "{err:?}");
    assert_names_path(&err, &path);
    assert_eq!(fs::metadata(&path).unwrap().len(), save::MAX_SAVE_BYTES + 1);
}

#[test]
fn a_version_4_fixture_keeps_a_trap_that_paid_from_paying_again() {
    // v4-r7s-trap-paid.bin: R7S, a walk onto the trap at (15, 7) that rearms it (paid), then
    // `DA`: off it and back onto it, which springs it on the upkeeper, then `:Q`: a sprung
    // trap that has paid (what format 4 adds). Loaded, it is the game the keys play, and
    // rearming it again pays nothing.
    let path = fixtures().join("v4-r7s-trap-paid.bin");
    let game = save::decode(&read(&path), &path).unwrap();
    let keys = fs::read_to_string(path.with_extension("keys")).unwrap();
    assert_eq!(game.history(), keys.trim());
    // The same game but for the moves left and the allowance, retuned since (B1's budget).
    assert_same_play(
        &replayed(keys.trim(), 80, 30, GeneratorSettings::default()),
        &game,
        "v4-r7s-trap-paid",
    );
    let trap = game
        .features()
        .iter()
        .find(|f| f.pos == byog_tile_engine::Pos::new(15, 7))
        .copied()
        .unwrap();
    assert!(trap.paid && !trap.handled);
    let mut going = game.clone();
    going.apply(act('D'));
    going.apply(act('A'));
    assert!(
        going
            .features()
            .iter()
            .any(|f| f.pos == trap.pos && f.handled)
    );
    assert_eq!(going.run().unwrap().score, game.run().unwrap().score);
}

#[test]
fn a_version_6_fixture_loads_mid_fight_and_plays_on() {
    // v6-e7s-fight.bin: `E7S` and the explorer's first 40 keys, then `:Q`: in room (-1, 2)
    // with one heart, one potion, and a wounded rat hunting beside the avatar. (The state it
    // loads into is checked against the JSON it was saved in by the players' tests,
    // old_saves.rs.)
    let path = fixtures().join("v6-e7s-fight.bin");
    let game = save::decode(&read(&path), &path).unwrap();
    let keys = fs::read_to_string(path.with_extension("keys")).unwrap();
    let keys = keys.trim();
    assert_eq!(game.history(), keys);
    let e = game.explore().expect("an exploration");
    assert_eq!((e.health(), e.potions()), (1, 1));
    let a = e.avatar();
    let rat = e.monsters().next().expect("a monster");
    assert_eq!(rat.kind, byog_game::explore::MonsterKind::Rat);
    assert_eq!(rat.state, byog_game::explore::MonsterState::Hunting);
    assert_eq!((rat.pos.x - a.x).abs() + (rat.pos.y - a.y).abs(), 1);
    // It plays on under today's rules: drink (back to three hearts), step away, strike the
    // rat that followed (it dies), walk on.
    let going = assert_plays_on(&game, "UDADDA", "v6-e7s-fight");
    let e = going.explore().unwrap();
    assert_eq!((e.health(), e.potions()), (3, 0));
    assert_eq!(e.monsters().count(), 0, "the rat is slain");
    assert_eq!(going.status(), LevelStatus::Playing);
}

#[test]
fn older_saves_load_with_each_handled_feature_paid() {
    // Format 3 had no paid bits: a feature handled in it has paid; loading it and rearming a
    // trap it already rearmed pays nothing.
    let path = fixtures().join("v2-r7s-b2.bin");
    let game = save::decode(&read(&path), &path).unwrap();
    assert!(game.features().iter().all(|f| f.paid == f.handled));
    // Saved again, today's format keeps the bits.
    let again = save::decode(&save::encode(&game), &path).unwrap();
    assert_eq!(again, game);
}

#[cfg(unix)]
#[test]
fn saving_through_a_symlink_writes_its_target_and_keeps_the_link() {
    // A user found a symlinked save.bin replaced by a plain file on `:Q`, the link's target
    // never updated.
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().join("kept.bin");
    let link = dir.path().join(SAVE_FILE_NAME);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let mut store = FileStore::in_dir(dir.path());
    // A dangling link is refused (issue 31: `:Q` made folders for one); its target exists
    // once the user makes it, and is then written through.
    let first = played_game(3);
    let err = store.save(&first).unwrap_err();
    assert!(matches!(err, SaveError::Link { .. }), "{err:?}");
    assert!(err.to_string().contains("does not exist"), "{err}");
    assert!(!target.exists());
    fs::write(&target, b"").unwrap();
    store.save(&first).unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(save::decode(&read(&target), &target).unwrap(), first);
    // An existing target is replaced, the link stays.
    let second = played_game(4);
    store.save(&second).unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_link(&link).unwrap(), target);
    assert_eq!(store.load().unwrap(), Some(second));
    assert_eq!(entries(dir.path()), vec![SAVE_FILE_NAME.to_string()]);
    // A relative link resolves against the save's folder.
    fs::remove_file(&link).unwrap();
    fs::create_dir(dir.path().join("sub")).unwrap();
    std::os::unix::fs::symlink("sub/real.bin", &link).unwrap();
    fs::write(dir.path().join("sub/real.bin"), b"").unwrap();
    store.save(&first).unwrap();
    let real = dir.path().join("sub/real.bin");
    assert_eq!(save::decode(&read(&real), &real).unwrap(), first);
}

#[cfg(unix)]
#[test]
fn saving_never_replaces_a_fifo_or_a_device_in_the_saves_place() {
    // A user found a FIFO that load refuses silently overwritten by save.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(SAVE_FILE_NAME);
    assert!(
        Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap()
            .success()
    );
    let err = FileStore::in_dir(dir.path())
        .save(&played_game(3))
        .unwrap_err();
    assert!(matches!(err, SaveError::NotAFile { .. }), "{err:?}");
    assert!(err.to_string().contains("FIFO"), "{err}");
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::symlink_metadata(&path).unwrap().file_type().is_fifo());
    assert_eq!(
        entries(dir.path()),
        vec![SAVE_FILE_NAME.to_string()],
        "no temporary left"
    );
    // A link to a device is refused too, and the device is not touched.
    fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/dev/null", &path).unwrap();
    let err = FileStore::in_dir(dir.path())
        .save(&played_game(3))
        .unwrap_err();
    assert!(err.to_string().contains("character device"), "{err}");
}

#[test]
fn an_old_save_bin_loads_as_the_default_slot() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = fixtures().join("v3-n999sdddwww.bin");
    fs::copy(&fixture, dir.path().join(SAVE_FILE_NAME)).unwrap();
    let store = FileStore::slot(dir.path(), save::DEFAULT_SLOT).unwrap();
    assert_eq!(store.path(), dir.path().join(SAVE_FILE_NAME));
    let game = store.load().unwrap().unwrap();
    assert_eq!(game, save::decode(&read(&fixture), &fixture).unwrap());
}
