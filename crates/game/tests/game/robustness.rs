//! Bad input and faults (issue 6, `docs/robustness.md`): property tests over input strings and
//! save files, a million keys in bounded memory, save/load equivalence with junk keys and many
//! loads in a row, faults while saving (full disk, failing writes, a killed process, a folder
//! that cannot be written or is a file), and bad command-line arguments.
//!
//! The fuzz targets in `fuzz/` check the same invariants for much longer; the inputs they
//! found are kept here as regression tests (section 6).
//!
//! The test binary counts heap allocations per thread (the counting global allocator of
//! `heap.rs`) so that memory bounds can be asserted without timing anything.

use std::collections::BTreeSet;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use byog_game::game::MAX_SEED;
use byog_game::interpreter::{Interpreter, Phase, Refused};
use byog_game::replay::{self, ReplayError, ReplayRun};
use byog_game::save::{self, FileStore, MemoryStore, SAVE_FILE_NAME, SaveError, SaveStore};
use byog_game::{Action, GameState, LevelStatus};
use byog_tile_engine::Tile;
use byog_worlds::generator::GeneratorSettings;
use proptest::prelude::*;

use crate::common;
use crate::heap::peak_heap;
use common::any_key;
use common::keys_to_exit as path_to_exit;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const HEADER_LEN: usize = 8 + 4 + 8;
const CHECKSUM_LEN: usize = 4;

fn settings() -> GeneratorSettings {
    GeneratorSettings::default()
}

/// Runs `input` through a fresh 80 × 30 interpreter (one program run) against `store`,
/// collecting the reports.
fn run_one(
    input: &str,
    store: &mut MemoryStore,
    strict: bool,
) -> (Result<ReplayRun, ReplayError>, Interpreter, Vec<Refused>) {
    run_sized(input, 80, 30, store, strict)
}

fn run_sized(
    input: &str,
    width: usize,
    height: usize,
    store: &mut MemoryStore,
    strict: bool,
) -> (Result<ReplayRun, ReplayError>, Interpreter, Vec<Refused>) {
    let mut interpreter = Interpreter::new(width, height, settings());
    let mut reports = Vec::new();
    let result = replay::replay(&mut interpreter, input, store, strict, &mut |r| {
        reports.push(*r)
    });
    (result, interpreter, reports)
}

/// Runs each input in a fresh interpreter of its own size against one shared save; returns
/// the last game.
fn run_chain(runs: &[(String, usize, usize)]) -> Option<GameState> {
    let mut store = MemoryStore::default();
    let mut game = None;
    for (input, w, h) in runs {
        let (result, interpreter, _) = run_sized(input, *w, *h, &mut store, false);
        result.unwrap_or_else(|e| panic!("{input:?}: {e}"));
        game = interpreter.into_game();
    }
    game
}

/// Whether `key` means something in at least one state; every other key is always reported.
fn is_command_somewhere(key: char) -> bool {
    matches!(
        key.to_ascii_uppercase(),
        'N' | 'R' | 'E' | 'L' | 'Q' | 'S' | 'W' | 'A' | 'D' | 'U' | 'X' | '>' | '.' | ':' | '0'
            ..='9' | '\u{8}' | '\u{1b}'
    )
}

/// A game's invariants: one avatar, on its tile; the exit door matches the status; the
/// history is `N<seed>S` (`R`, `E`) and one letter a move.
fn assert_consistent(game: &GameState) {
    let world = game.world();
    assert_eq!(world.count(Tile::Player), 1, "not exactly one avatar");
    assert_eq!(world.get(game.avatar()), Some(Tile::Player));
    let door = match game.status() {
        // An exploration's exit is its way up, whatever happened.
        _ if game.explore().is_some() => Tile::WayUp,
        LevelStatus::Playing => Tile::LockedDoor,
        LevelStatus::Won => Tile::UnlockedDoor,
        LevelStatus::Lost => Tile::LockedDoor,
    };
    assert_eq!(world.get(game.exit()), Some(door));
    let kind = game.kind().key();
    let prefix = format!("{kind}{}S", game.seed());
    assert!(game.history().starts_with(&prefix), "{}", game.history());
    assert_eq!(game.history().len() - prefix.len(), game.moves() as usize);
}

fn assert_names(err: &impl std::fmt::Display, path: &Path) {
    let message = err.to_string();
    assert!(
        message.contains(&path.display().to_string()),
        "{message:?} does not name {}",
        path.display()
    );
}

fn game_after(seed: u64, moves: &str) -> GameState {
    let mut game = GameState::new(seed, 80, 30, settings()).unwrap();
    for key in moves.chars() {
        game.apply(Action::from_key(key).unwrap());
    }
    game
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `payload` inside a correct header and checksum.
fn wrap_payload(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(save::MAGIC);
    out.extend_from_slice(&save::FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    let crc = crc32fast::hash(&out[8..]);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The most `decode` may allocate for a file of `len` bytes: a few times the file (tiles are
/// held twice, as ids and as tiles) plus room for an error message.
fn decode_heap_bound(len: usize) -> usize {
    4 * len + 16 * 1024
}

/// Decodes `bytes`, checking that it never panics, errors name the file, allocation stays
/// within [`decode_heap_bound`], and anything accepted is a consistent game that round trips.
fn check_decode(bytes: &[u8]) -> Result<GameState, SaveError> {
    let path = Path::new("/robustness/saves/save.bin");
    let (result, heap) = peak_heap(|| save::decode(bytes, path));
    assert!(
        heap <= decode_heap_bound(bytes.len()),
        "decoding {} bytes allocated {heap} bytes at once",
        bytes.len()
    );
    match &result {
        Err(e) => assert_names(e, path),
        Ok(game) => {
            assert_consistent_loaded(game);
            let again = save::decode(&save::encode(game), path).expect("a re-save decodes");
            assert_eq!(&again, game);
        }
    }
    result
}

/// What `decode` guarantees of any game it accepts (its history need not replay to it).
fn assert_consistent_loaded(game: &GameState) {
    let world = game.world();
    assert_eq!(world.count(Tile::Player), 1);
    assert_eq!(world.get(game.avatar()), Some(Tile::Player));
    let _ = world.to_string();
}

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

/// One step of play that never saves: a move, a junk key, or a colon followed by a key that
/// is not `Q` (the colon is then dropped). No token ends with a pending colon, so whatever
/// follows acts as usual.
#[derive(Debug, Clone)]
enum Token {
    Move(char),
    Junk(char),
    Colon(char),
}

impl Token {
    fn push_to(&self, out: &mut String) {
        match *self {
            Token::Move(c) | Token::Junk(c) => out.push(c),
            Token::Colon(c) => {
                out.push(':');
                out.push(c);
            }
        }
    }
    /// The move this token makes, if any.
    fn movement(&self) -> Option<char> {
        match *self {
            Token::Move(c) | Token::Colon(c) => Action::from_key(c).map(|a| a.key()),
            Token::Junk(_) => None,
        }
    }
}

fn junk_while_playing() -> impl Strategy<Value = char> {
    any_key().prop_filter("not a key that acts while playing", |c| {
        // N (and R, E) start a new game once a game has ended; Escape leaves it for the menu;
        // X and > walk, . waits (docs/keys.md).
        !matches!(
            c.to_ascii_uppercase(),
            'W' | 'A' | 'S' | 'D' | 'U' | 'X' | '>' | '.' | ':' | 'N' | 'R' | 'E' | '\u{1b}'
        )
    })
}

fn token() -> impl Strategy<Value = Token> {
    prop_oneof![
        6 => prop::sample::select(&['W', 'A', 'S', 'D', 'w', 'a', 's', 'd'][..]).prop_map(Token::Move),
        2 => junk_while_playing().prop_map(Token::Junk),
        1 => prop_oneof![
            prop::sample::select(&['W', 'A', 'S', 'D', 'w', 'd'][..]),
            junk_while_playing().prop_filter("not Q", |c| !c.eq_ignore_ascii_case(&'Q')),
        ]
        .prop_map(Token::Colon),
    ]
}

/// Keys that do nothing at the menu (anything but `N`, `L`, `Q`).
fn menu_junk() -> impl Strategy<Value = String> {
    prop::collection::vec(
        any_key().prop_filter("not a menu command", |c| {
            !matches!(c.to_ascii_uppercase(), 'N' | 'R' | 'E' | 'L' | 'Q')
        }),
        0..3,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn tokens_to_string(tokens: &[Token]) -> String {
    let mut s = String::new();
    for t in tokens {
        t.push_to(&mut s);
    }
    s
}

// ---------------------------------------------------------------------------------------------
// 1. Input strings
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// Any string, with or without a game started and a save to load: no panic, `Ok`, every
    /// report names the key at its (character) position in increasing order, every key that
    /// is never a command is reported, and `--strict` stops at exactly the first report
    /// without saving.
    #[test]
    fn any_input_string_is_handled_and_reports_positions(
        start in proptest::option::of(0..=MAX_SEED),
        keys in prop::collection::vec(any_key(), 0..200),
        saved_first in any::<bool>(),
    ) {
        let mut input = start.map(|seed| format!("N{seed}S")).unwrap_or_default();
        input.extend(keys.iter());
        let mut store = MemoryStore::default();
        if saved_first {
            run_one("N5SDDWA:Q", &mut store, true).0.unwrap();
        }
        let before = store.bytes.clone();

        let mut strict_store = store.clone();
        let (strict, strict_interpreter, _) = run_one(&input, &mut strict_store, true);
        let (result, interpreter, reports) = run_one(&input, &mut store, false);
        let run = result.unwrap_or_else(|e| panic!("{input:?}: {e}"));

        let mut chars: Vec<char> = input.chars().collect();
        if run.nothing_to_load {
            // `L` with no save ends the replay at the L.
            prop_assert_eq!(chars.get(interpreter.position() - 1).map(char::to_ascii_uppercase), Some('L'));
            chars.truncate(interpreter.position());
        }
        prop_assert_eq!(interpreter.position(), chars.len());
        prop_assert_eq!(run.reported, reports.len());
        for pair in reports.windows(2) {
            prop_assert!(pair[0].position < pair[1].position);
        }
        let reported: Vec<usize> = reports.iter().map(|r| r.position).collect();
        for r in &reports {
            prop_assert_eq!(chars.get(r.position), Some(&r.key), "{}", r);
            // The message names the key (escaped) and its position.
            let message = r.to_string();
            let escaped = r.key.escape_debug().to_string();
            let named = format!("position {}", r.position);
            prop_assert!(message.contains(&named), "{}", message);
            prop_assert!(message.contains(&escaped), "{}", message);
        }
        for (i, &k) in chars.iter().enumerate() {
            if !is_command_somewhere(k) {
                prop_assert!(reported.binary_search(&i).is_ok(), "junk {:?} at {} not reported", k, i);
            }
        }
        if let Some(game) = interpreter.game() {
            assert_consistent(game);
        }
        if run.saved {
            let loaded = save::decode(store.bytes.as_deref().unwrap(), "m".as_ref()).unwrap();
            prop_assert_eq!(Some(&loaded), interpreter.game());
        } else {
            prop_assert_eq!(&store.bytes, &before);
        }

        match (strict, reports.first()) {
            (Err(ReplayError::Unfinished(_)), None) => {
                // The string stops in seed entry or after a lone ':'.
                let mode = interpreter.phase();
                prop_assert!(
                    matches!(mode, Phase::SeedEntry { .. } | Phase::Playing { colon: true } | Phase::Ended { colon: true }),
                    "{:?}", mode
                );
                prop_assert_eq!(&strict_store.bytes, &before, "--strict saved");
            }
            (Ok(_), None) => {
                prop_assert_eq!(strict_interpreter.game(), interpreter.game());
                prop_assert_eq!(&strict_store.bytes, &store.bytes);
            }
            (Err(ReplayError::Strict(first)), Some(expected)) => {
                prop_assert_eq!(&first, expected);
                prop_assert_eq!(&strict_store.bytes, &before, "--strict saved");
            }
            (other, first) => panic!("--strict gave {other:?}; first report {first:?}"),
        }
    }
}

/// A million keys run through the library with memory bounded by the world plus the input:
/// moves grow only the key history (one byte a move), and ignored keys cost nothing each
/// (reports are streamed, not kept).
#[test]
fn a_million_keys_run_in_bounded_memory() {
    const KEYS: usize = 1_000_000;

    // A million moves, then :Q.
    let mut moves = String::with_capacity(KEYS + 8);
    moves.push_str("N42S");
    moves.extend("WASDDSAW".chars().cycle().take(KEYS));
    moves.push_str(":Q");
    let mut store = MemoryStore::default();
    let ((result, interpreter, reports), heap) = peak_heap(|| run_one(&moves, &mut store, false));
    let run = result.unwrap();
    assert!(run.saved && reports.is_empty());
    let game = interpreter.game().unwrap();
    // Bumps are not moves: most of the million keys step, a few bump into walls.
    assert!(game.moves() > KEYS as u64 / 2 && game.moves() <= KEYS as u64);
    assert_eq!(game.history().len(), "N42S".len() + game.moves() as usize);
    // The history (up to twice its length while it grows), the pending save's copy of the
    // game and the encoded save: a few bytes a key, nothing like a report (24 bytes) a key.
    assert!(
        heap <= 8 * KEYS + (1 << 20),
        "a million moves held {heap} bytes at once"
    );
    let loaded = save::decode(store.bytes.as_deref().unwrap(), "m".as_ref()).unwrap();
    assert_eq!(&loaded, game);
    drop((moves, store, interpreter));

    // A million ignored keys of every width, in play and after the end.
    for prefix in ["N42S", "N42S:Q", ""] {
        let mut junk = String::from(prefix);
        junk.extend("z\u{0}é🦀\n".chars().cycle().take(KEYS));
        let mut reported = 0usize;
        let mut last = 0usize;
        let ((result, interpreter), heap) = peak_heap(|| {
            let mut interpreter = Interpreter::new(80, 30, settings());
            let result = replay::replay(
                &mut interpreter,
                &junk,
                &mut MemoryStore::default(),
                false,
                &mut |r| {
                    reported += 1;
                    last = r.position;
                },
            );
            (result, interpreter)
        });
        let run = result.unwrap();
        assert_eq!(run.reported, KEYS);
        assert_eq!(reported, KEYS);
        assert_eq!(last, prefix.len() + KEYS - 1, "positions count characters");
        assert_eq!(interpreter.position(), prefix.len() + KEYS);
        // The world (80 × 30 plus the generator's scratch) and the save, nothing per key.
        assert!(
            heap <= 256 * 1024,
            "{KEYS} ignored keys after {prefix:?} held {heap} bytes at once"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Save and load anywhere, with junk keys and many loads in a row
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// docs/keys.md: `N<seed>S` + keys gives the same game (equal `GameState`, equal text) as the
    /// same keys split into runs of `... :Q` then `L ...`, with junk keys and dropped colons
    /// anywhere, junk at the menu before `L`, empty runs (`L:Q` several times in a row), later
    /// runs started at other sizes (a loaded game keeps its own), and with or without a final
    /// `:Q`.
    #[test]
    fn split_anywhere_with_junk_and_many_loads_changes_nothing(
        seed in 0..=MAX_SEED,
        tokens in prop::collection::vec(token(), 0..40),
        cuts in prop::collection::vec(0usize..=40, 1..6),
        menu in prop::collection::vec(menu_junk(), 6),
        sizes in prop::collection::vec((5usize..=100, 5usize..=60), 6),
        final_save in any::<bool>(),
    ) {
        let mut whole = format!("N{seed}S");
        whole.push_str(&tokens_to_string(&tokens));
        let expected = run_chain(&[(whole.clone(), 80, 30)]).unwrap();

        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(tokens.len())).collect();
        cuts.sort_unstable();
        let mut runs = Vec::new();
        let mut from = 0;
        for (i, &cut) in cuts.iter().enumerate() {
            let head = if i == 0 { format!("N{seed}S") } else { format!("{}L", menu[i]) };
            let (w, h) = if i == 0 { (80, 30) } else { sizes[i] };
            runs.push((format!("{head}{}:Q", tokens_to_string(&tokens[from..cut])), w, h));
            from = cut;
        }
        let tail = if final_save { ":Q" } else { "" };
        runs.push((
            format!("{}L{}{tail}", menu[5], tokens_to_string(&tokens[from..])),
            sizes[5].0,
            sizes[5].1,
        ));
        let split = run_chain(&runs).unwrap();
        prop_assert_eq!(split.world().to_string(), expected.world().to_string());
        prop_assert_eq!(&split, &expected, "{:?} vs {:?}", runs, whole);
    }

    /// A saved game loads to an equal game with the same text, and its recorded history,
    /// replayed from the menu with `--strict`, rebuilds it exactly (random generator
    /// included); the history is `N<seed>S` and the moves made, upper case, up to the win.
    #[test]
    fn a_save_loads_to_the_same_text_and_its_history_replays_to_it(
        seed in 0..=MAX_SEED,
        width in 5usize..=90,
        height in 5usize..=40,
        before in prop::collection::vec(token(), 0..30),
        win in any::<bool>(),
        after in prop::collection::vec(token(), 0..10),
    ) {
        let mut store = MemoryStore::default();
        let mut interpreter = Interpreter::new(width, height, settings());
        // Every movement key fed, in order; the history holds them up to the win.
        let mut fed = String::new();
        let start = format!("N{seed}S{}", tokens_to_string(&before));
        replay::replay(&mut interpreter, &start, &mut store, false, &mut |_| {}).unwrap();
        fed.extend(before.iter().filter_map(Token::movement));
        let playing = |i: &Interpreter| i.game().unwrap().status() == LevelStatus::Playing;
        if win && playing(&interpreter) {
            let walk = path_to_exit(interpreter.game().unwrap());
            replay::replay(&mut interpreter, &walk, &mut store, true, &mut |_| {}).unwrap();
            prop_assert!(!playing(&interpreter), "walking {} did not win", walk);
            fed.push_str(&walk);
        }
        let end = format!("{}:Q", tokens_to_string(&after));
        let run = replay::replay(&mut interpreter, &end, &mut store, false, &mut |_| {}).unwrap();
        prop_assert!(run.saved);
        fed.extend(after.iter().filter_map(Token::movement));
        let game = interpreter.game().unwrap();
        // Bumps are not moves: the history holds the steps taken, at most every key fed.
        let recorded = game.moves() as usize;
        prop_assert!(recorded <= fed.len());
        let history = game.history();
        let prefix = format!("N{seed}S");
        prop_assert_eq!(history.len(), prefix.len() + recorded);
        let moves_only = history[prefix.len()..].chars().all(|c| "WASD".contains(c));
        prop_assert!(moves_only);

        let loaded = save::decode(store.bytes.as_deref().unwrap(), "m".as_ref()).unwrap();
        prop_assert_eq!(loaded.world().to_string(), game.world().to_string());
        prop_assert_eq!(&loaded, game);

        let mut again = Interpreter::new(loaded.world().width(), loaded.world().height(), settings());
        let rerun = replay::replay(
            &mut again, &loaded.history(), &mut MemoryStore::default(), true, &mut |_| {},
        ).unwrap();
        prop_assert!(!rerun.saved);
        prop_assert_eq!(again.game(), Some(&loaded));
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Save files: any bytes, truncations, bit flips, allocation bounds
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// Any bytes as a whole file, after the magic and version, or as a payload inside a
    /// correct header and checksum (so bincode and the consistency checks see them): no
    /// panic, errors name the file, allocation bounded by the file's size, and anything
    /// accepted round trips.
    #[test]
    fn any_bytes_as_a_save_never_panic_or_allocate_without_bound(
        bytes in prop::collection::vec(any::<u8>(), 0..600),
        mode in 0u8..3,
    ) {
        let file = match mode {
            0 => bytes,
            1 => {
                let mut f = b"BYOGSAVE\x01\x00\x00\x00".to_vec();
                f.extend_from_slice(&bytes);
                f
            }
            _ => wrap_payload(&bytes),
        };
        let _ = check_decode(&file);
    }

    /// Up to three flipped bits anywhere in a real save (header, payload or checksum) are
    /// always an error, never a different game: CRC-32 detects every error of up to three
    /// bits in files this size, and the header fields are checked on their own.
    #[test]
    fn a_few_flipped_bits_are_always_an_error(
        seed in 0..=MAX_SEED,
        moves in "[WASD]{0,40}",
        flips in prop::collection::btree_set(any::<usize>(), 1..=3),
    ) {
        let good = save::encode(&game_after(seed, &moves));
        let bits = good.len() * 8;
        let flips: BTreeSet<usize> = flips.into_iter().map(|f| f % bits).collect();
        let mut bad = good.clone();
        for bit in &flips {
            bad[bit / 8] ^= 1 << (bit % 8);
        }
        let err = check_decode(&bad).map(|_| ()).expect_err("a damaged save loaded");
        let flipped_in_payload = flips.iter().all(|b| b / 8 >= HEADER_LEN);
        if flipped_in_payload {
            prop_assert!(matches!(err, SaveError::Checksum { .. }), "{:?}", err);
        }
    }
}

/// Every truncation and every single-bit flip of one real save, exhaustively: all errors.
#[test]
fn every_truncation_and_single_bit_flip_of_a_save_is_an_error() {
    let good = save::encode(&game_after(2024, "DDDWWWDDDAASSWDDSAW"));
    let path = Path::new("/robustness/save.bin");
    for cut in 0..good.len() {
        let err = save::decode(&good[..cut], path).expect_err("a truncated save loaded");
        assert!(
            matches!(
                err,
                SaveError::Truncated { .. } | SaveError::NotASave { .. }
            ),
            "cut at {cut}: {err:?}"
        );
        assert_names(&err, path);
    }
    for bit in 0..good.len() * 8 {
        let mut bad = good.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        let err = save::decode(&bad, path).expect_err("a flipped save loaded");
        assert_names(&err, path);
    }
    assert!(save::decode(&good, path).is_ok());
}

// ---------------------------------------------------------------------------------------------
// 4. Faults while saving
// ---------------------------------------------------------------------------------------------

/// A writer over the temporary save file that fails after `budget` bytes, the way a full disk
/// or a failing device does.
struct FailingWriter<'a> {
    file: &'a mut fs::File,
    budget: usize,
    failure: fn() -> io::Error,
}

impl Write for FailingWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.budget == 0 {
            return Err((self.failure)());
        }
        let n = buf.len().min(self.budget);
        let n = self.file.write(&buf[..n])?;
        self.budget -= n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

fn disk_full() -> io::Error {
    io::Error::new(
        io::ErrorKind::StorageFull,
        "simulated full disk: no space left on device",
    )
}

fn device_error() -> io::Error {
    io::Error::other("simulated device failure midway through the write")
}

/// A store with the game `a` saved; returns the store, the saved bytes and the folder.
fn store_with_a_save(dir: &Path) -> (FileStore, Vec<u8>, GameState) {
    let mut store = FileStore::in_dir(dir);
    let a = game_after(31, "DDWWAASSD");
    store.save(&a).unwrap();
    let bytes = fs::read(store.path()).unwrap();
    (store, bytes, a)
}

/// After a failed save: the error is a write error naming the file and `reason`, the previous
/// save is unchanged byte for byte and loads, and no temporary file is left.
fn assert_previous_save_intact(
    store: &FileStore,
    err: &SaveError,
    reason: &str,
    previous: &[u8],
    game: &GameState,
) {
    assert!(matches!(err, SaveError::Write { .. }), "{err:?}");
    assert_names(err, store.path());
    assert!(
        err.to_string().contains(reason),
        "{err} does not say {reason:?}"
    );
    assert_eq!(fs::read(store.path()).unwrap(), previous);
    assert_eq!(store.load().unwrap().as_ref(), Some(game));
    let dir = store.path().parent().unwrap();
    assert_eq!(entries(dir), [SAVE_FILE_NAME], "a temporary file was left");
}

#[test]
fn a_full_disk_at_any_point_keeps_the_previous_save() {
    let tmp = tempfile::tempdir().unwrap();
    let (store, previous, a) = store_with_a_save(tmp.path());
    let b = save::encode(&game_after(32, "WWDDSSAA"));
    for budget in [
        0,
        1,
        7,
        HEADER_LEN,
        b.len() / 2,
        b.len() - CHECKSUM_LEN,
        b.len() - 1,
    ] {
        let err = store
            .write_with(|file| {
                let mut w = FailingWriter {
                    file,
                    budget,
                    failure: disk_full,
                };
                w.write_all(&b)
            })
            .expect_err("the disk is full");
        assert_previous_save_intact(&store, &err, "no space left on device", &previous, &a);
    }
    // The disk fills up only when the data is flushed, after every byte was accepted.
    let err = store
        .write_with(|file| {
            file.write_all(&b)?;
            Err(disk_full())
        })
        .expect_err("the disk is full");
    assert_previous_save_intact(&store, &err, "no space left on device", &previous, &a);
}

#[test]
fn a_write_failing_midway_keeps_the_previous_save() {
    let tmp = tempfile::tempdir().unwrap();
    let (store, previous, a) = store_with_a_save(tmp.path());
    let b = save::encode(&game_after(33, "SSSDDD"));
    let err = store
        .write_with(|file| {
            let mut w = FailingWriter {
                file,
                budget: b.len() / 3,
                failure: device_error,
            };
            w.write_all(&b)
        })
        .expect_err("the device failed");
    assert_previous_save_intact(&store, &err, "device failure midway", &previous, &a);

    // A device that stops accepting bytes (`write` returns 0): `write_all` says so.
    let err = store
        .write_with(|file| {
            file.write_all(&b[..10])?;
            struct Stuck;
            impl Write for Stuck {
                fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                    Ok(0)
                }
                fn flush(&mut self) -> io::Result<()> {
                    Ok(())
                }
            }
            Stuck.write_all(&b[10..])
        })
        .expect_err("the device is stuck");
    assert_previous_save_intact(&store, &err, "write whole buffer", &previous, &a);

    // Interrupted writes are retried by `write_all`, and the save then succeeds.
    struct Flaky<'a> {
        file: &'a mut fs::File,
        interruptions: usize,
        interrupt_next: bool,
    }
    impl Write for Flaky<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.interrupt_next = !self.interrupt_next;
            if self.interrupt_next {
                self.interruptions += 1;
                return Err(io::ErrorKind::Interrupted.into());
            }
            self.file.write(&buf[..buf.len().min(100)])
        }
        fn flush(&mut self) -> io::Result<()> {
            self.file.flush()
        }
    }
    let mut interruptions = 0;
    store
        .write_with(|file| {
            let mut w = Flaky {
                file,
                interruptions: 0,
                interrupt_next: false,
            };
            w.write_all(&b)?;
            interruptions = w.interruptions;
            Ok(())
        })
        .unwrap();
    assert!(interruptions > 10, "{interruptions}");
    assert_eq!(fs::read(store.path()).unwrap(), b);
}

/// The process is really killed (SIGABRT, no destructors run) after the temporary file was
/// written and synced but before the rename: the old save still loads byte for byte, the
/// stray temporary file holds the lost save, and the next save works.
#[test]
fn killed_between_the_temporary_file_and_the_rename() {
    const CHILD: &str = "BYOG_ROBUSTNESS_KILL_CHILD";
    let b = save::encode(&game_after(35, "DWDWDW"));
    if let Some(dir) = std::env::var_os(CHILD) {
        // The child: write the temporary file, then die before `write_with` can rename it.
        let store = FileStore::in_dir(PathBuf::from(dir));
        let _ = store.write_with(|file| {
            file.write_all(&b)?;
            file.sync_all()?;
            std::process::abort()
        });
        unreachable!("the child outlived its abort");
    }

    let tmp = tempfile::tempdir().unwrap();
    let (mut store, previous, a) = store_with_a_save(tmp.path());
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "robustness::killed_between_the_temporary_file_and_the_rename",
            "--test-threads=1",
            "--nocapture",
        ])
        .env(CHILD, tmp.path())
        .output()
        .unwrap();
    assert!(!out.status.success(), "the child was not killed: {out:?}");

    assert_eq!(fs::read(store.path()).unwrap(), previous);
    assert_eq!(store.load().unwrap(), Some(a));
    let names = entries(tmp.path());
    let strays: Vec<&String> = names.iter().filter(|n| n.ends_with(".tmp")).collect();
    assert_eq!(strays.len(), 1, "{names:?}");
    assert_eq!(fs::read(tmp.path().join(strays[0])).unwrap(), b);

    let c = game_after(36, "AAWW");
    store.save(&c).unwrap();
    assert_eq!(store.load().unwrap(), Some(c));
}

fn running_as_root_bypasses(dir: &Path) -> bool {
    let probe = dir.join(".probe");
    match fs::write(&probe, b"") {
        Ok(()) => {
            let _ = fs::remove_file(&probe);
            true
        }
        Err(_) => false,
    }
}

#[cfg(unix)]
#[test]
fn a_save_folder_that_is_not_writable_keeps_the_previous_save() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("saves");
    let (mut store, previous, a) = store_with_a_save(&dir);
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
    let restore = || fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    if running_as_root_bypasses(&dir) {
        restore();
        eprintln!(
            "skipped: this test runs with root privileges, which ignore the folder's 0o555 \
             permissions (see a_save_folder_that_is_immutable_keeps_the_previous_save)"
        );
        return;
    }
    let err = store
        .save(&game_after(37, "WD"))
        .expect_err("the folder is read-only");
    assert_previous_save_intact(&store, &err, "ermission denied", &previous, &a);
    restore();
}

/// The same as root: an immutable folder (`chattr +i`) refuses new files even to root. Skipped
/// where `chattr` is missing or the file system has no such attribute.
#[cfg(target_os = "linux")]
#[test]
fn a_save_folder_that_is_immutable_keeps_the_previous_save() {
    struct Immutable<'a>(&'a Path);
    impl Drop for Immutable<'_> {
        fn drop(&mut self) {
            let _ = Command::new("chattr").arg("-i").arg(self.0).status();
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("saves");
    let (mut store, previous, a) = store_with_a_save(&dir);
    let set = Command::new("chattr").arg("+i").arg(&dir).output();
    if !matches!(&set, Ok(o) if o.status.success()) {
        eprintln!("skipped: `chattr +i` is not available here ({set:?})");
        return;
    }
    let guard = Immutable(&dir);
    if running_as_root_bypasses(&dir) {
        drop(guard);
        eprintln!("skipped: the immutable attribute did not stop writes here");
        return;
    }
    let err = store
        .save(&game_after(38, "SD"))
        .expect_err("the folder is immutable");
    assert_previous_save_intact(&store, &err, "not permitted", &previous, &a);
    drop(guard);
}

// ---------------------------------------------------------------------------------------------
// 6. Regressions found by fuzzing
// ---------------------------------------------------------------------------------------------

/// fuzz/load_save: a 46-byte save (valid header and checksum) whose payload declares a key
/// history of 1,073,741,568 bytes. bincode's owned `String` decoding allocated the declared
/// length (zeroed) before reading it, so 46 bytes made `decode` allocate 1 GiB (libFuzzer:
/// "out-of-memory (malloc(1073741568))" with `-malloc_limit_mb=64`). Fixed in
/// crates/game/src/save.rs: the history and the tiles are decoded as borrowed slices of the file
/// and copied, so nothing is allocated before the bytes are known to be there.
const HUGE_HISTORY: &[u8] = b"BYOGSAVE\x01\x00\x00\x00\x16\x00\x00\x00\x00\x00\x00\x00\x01\x00\x05\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xfc\x00\xff\xff\x3f\xb5\x2b\x6b\x88";

/// The same with the tile list declaring 1,073,741,568 tiles (serde preallocated 1 MiB for it).
const HUGE_TILES: &[u8] = b"BYOGSAVE\x01\x00\x00\x00\x0d\x00\x00\x00\x00\x00\x00\x00\x01\x00\x05\x05\x00\x00\x00\x00\xfc\x00\xff\xff\x3f\xaf\xf7\x63\xb8";

#[test]
fn regression_huge_declared_lengths_allocate_nothing() {
    for (name, file) in [("history", HUGE_HISTORY), ("tiles", HUGE_TILES)] {
        let err = check_decode(file).map(|_| ()).expect_err(name);
        assert!(matches!(err, SaveError::Corrupt { .. }), "{name}: {err:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// 6. Exploration saves (format 3): edited payloads never panic
// ---------------------------------------------------------------------------------------------

/// The payload of a real exploration save: the first 200 keys of the scripted walk of `E42S`
/// (rooms of one branch made, chests refilled, memory of what was seen).
fn exploration_payload() -> &'static [u8] {
    static PAYLOAD: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    PAYLOAD.get_or_init(|| {
        let mut interpreter = Interpreter::new(80, 30, settings());
        let mut store = MemoryStore::default();
        let keys = format!("{}:Q", &common::EXPLORE_WALK_42[..200]);
        replay::replay(&mut interpreter, &keys, &mut store, true, &mut |_| {}).unwrap();
        let bytes = store.bytes.expect("saved");
        bytes[HEADER_LEN..bytes.len() - save::CHECKSUM_LEN].to_vec()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// An exploration save whose payload was edited (bytes set, flipped, inserted or removed)
    /// and wrapped in a correct header and checksum, so the edits reach bincode and the
    /// exploration's own checks: decoding never panics and allocates a bounded amount (serde
    /// preallocates at most 1 MiB for a declared length it has not read yet); an error names
    /// the file; a game that loads is consistent, round trips, and can be played on (its
    /// rooms, exits and branches may have been edited into odd shapes, never into a panic).
    #[test]
    fn edited_exploration_saves_never_panic(
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), 0u8..4), 1..6),
        keys in "[WASD]{0,120}",
    ) {
        let mut payload = exploration_payload().to_vec();
        for (at, value, op) in edits {
            let at = at % (payload.len() + 1);
            match op {
                0 if at < payload.len() => payload[at] = value,
                1 if at < payload.len() => payload[at] ^= value.max(1),
                2 => payload.insert(at, value),
                3 if at < payload.len() => {
                    payload.remove(at);
                }
                _ => {}
            }
        }
        let file = wrap_payload(&payload);
        let path = Path::new("/robustness/saves/save.bin");
        let (result, heap) = peak_heap(|| save::decode(&file, path));
        prop_assert!(heap <= decode_heap_bound(file.len()) + (2 << 20), "{} bytes", heap);
        match result {
            Err(e) => assert_names(&e, path),
            Ok(mut game) => {
                assert_consistent_loaded(&game);
                let again = save::decode(&save::encode(&game), path).expect("a re-save decodes");
                prop_assert_eq!(&again, &game);
                for key in keys.chars() {
                    game.apply(Action::from_key(key).unwrap());
                    assert_consistent_loaded(&game);
                }
                let _ = save::encode(&game);
            }
        }
    }
}
