//! The fuzz targets' harness code, shared: `fuzz/fuzz_targets/*.rs` call it under
//! libFuzzer (`cargo fuzz`, nightly), and `tests/fuzz_corpus.rs` runs every committed input of
//! `fuzz/seeds/` through the same functions with plain `cargo test` (stable), so a harness
//! that goes stale fails the tests (docs/robustness.md). It uses `byog` and `serde_json`
//! only. Each function panics when an invariant fails; that is the finding.
//!
//! - [`interpreter`]: any bytes as input strings, with saves and loads in between;
//! - [`load_save`]: any bytes as a save file (four ways to reach past the checksum);
//! - [`explore_monsters`]: any keys in an exploration with monsters;
//! - [`agent_lines`]: any bytes as lines of the agent protocol;
//! - [`catalog_where`]: any text as `byog catalog --where`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use byog_catalog::{self as catalog, Catalog, query};
use byog_game::explore::ExploreSettings;
use byog_game::interpreter::{Interpreter, Refused};
use byog_game::replay::{self, ReplayError};
use byog_game::save::{self, CHECKSUM_LEN, FORMAT_VERSION, HEADER_LEN, MAGIC, MemoryStore};
use byog_game::{Action, GameState, LevelStatus};
use byog_players::agent::{Agent, AgentOptions};
use byog_tile_engine::Tile;
use byog_worlds::generator::{self, GeneratorSettings};

// ---------------------------------------------------------------------------------------------
// interpreter
// ---------------------------------------------------------------------------------------------

/// The `interpreter` target. Byte 0 picks the width (5..=80, low 7 bits) and whether
/// `--strict` is checked too (high bit); byte 1 the height (5..=30); the rest is decoded as
/// UTF-8 (lossily) and split at `\n` into program runs sharing one [`MemoryStore`]. After every
/// run: `replay` returns `Ok`; every report names the key at its position, positions increase,
/// every character beyond ASCII (never a key) is reported and `reported` counts the reports;
/// the game is consistent ([`check_game`]); a save decodes to exactly the game in play and
/// encodes to the same bytes; a run without `:Q` leaves the store alone; the history replays
/// to the same game; `--strict` stops at the first report and saves nothing.
pub fn interpreter(data: &[u8]) {
    let [a, b, rest @ ..] = data else { return };
    let width = 5 + usize::from(a & 0x7f) % 76;
    let height = 5 + usize::from(*b) % 26;
    let check_strict = a & 0x80 != 0;
    let text = String::from_utf8_lossy(rest);
    let mut store = MemoryStore::default();
    for input in text.split('\n') {
        one_run(input, width, height, &mut store, check_strict);
    }
}

/// Whether `key` may be a command in some state: every ASCII character may (the keys grew
/// with runs, explorations, travel and the potions); a character beyond ASCII never is, so
/// it is always reported.
fn is_command_somewhere(key: char) -> bool {
    key.is_ascii()
}

fn one_run(input: &str, width: usize, height: usize, store: &mut MemoryStore, check_strict: bool) {
    let before = store.bytes.clone();

    let strict = check_strict.then(|| {
        let mut strict_store = store.clone();
        let mut interpreter = Interpreter::new(width, height, GeneratorSettings::default());
        let result = replay::replay(
            &mut interpreter,
            input,
            &mut strict_store,
            true,
            &mut |_| {},
        );
        (result, interpreter, strict_store)
    });

    let mut interpreter = Interpreter::new(width, height, GeneratorSettings::default());
    let mut reports: Vec<Refused> = Vec::new();
    let result = replay::replay(&mut interpreter, input, store, false, &mut |r| {
        reports.push(*r)
    });
    let run =
        result.unwrap_or_else(|e| panic!("replay of {input:?} at {width} x {height} failed: {e}"));

    // Reports: the key at the position, increasing positions, junk always reported.
    let keys: Vec<char> = input.chars().collect();
    assert_eq!(interpreter.position(), keys.len());
    assert_eq!(run.reported, reports.len());
    let mut next_unreported = 0;
    for pair in reports.windows(2) {
        assert!(pair[0].position < pair[1].position, "{pair:?}");
    }
    for report in &reports {
        assert_eq!(keys.get(report.position), Some(&report.key), "{report:?}");
        for (i, &k) in keys
            .iter()
            .enumerate()
            .take(report.position)
            .skip(next_unreported)
        {
            assert!(
                is_command_somewhere(k),
                "junk key {k:?} at {i} was not reported"
            );
        }
        next_unreported = report.position + 1;
    }
    for (i, &k) in keys.iter().enumerate().skip(next_unreported) {
        assert!(
            is_command_somewhere(k),
            "junk key {k:?} at {i} was not reported"
        );
    }

    // The game in play is consistent.
    if let Some(game) = interpreter.game() {
        check_game(game);
    }

    // The save is exactly the game in play.
    if run.saved {
        let bytes = store.bytes.as_deref().expect("a save was written");
        let game = interpreter.game().expect(":Q saves only while playing");
        let loaded = save::decode(bytes, Path::new("<fuzz>")).expect("a fresh save decodes");
        assert_eq!(&loaded, game);
        assert_eq!(save::encode(&loaded), bytes);
    } else {
        assert_eq!(store.bytes, before, "a run without :Q changed the save");
    }

    // The recorded history reproduces the game from the menu, with nothing to report.
    if let Some(game) = interpreter.game() {
        // The size the game was made at: a run's largest floor, an exploration's (unused)
        // size, a classic game's world.
        let world = game.world();
        let (w, h) = match game.run() {
            Some(r) => (r.max_width as usize, r.max_height as usize),
            None if game.explore().is_some() => (width, height),
            None => (world.width(), world.height()),
        };
        let mut again = Interpreter::new(w, h, *game.settings());
        let mut fresh = MemoryStore::default();
        let rerun = replay::replay(&mut again, &game.history(), &mut fresh, true, &mut |_| {})
            .unwrap_or_else(|e| panic!("history {:?} does not replay: {e}", game.history()));
        assert!(!rerun.saved);
        assert_eq!(again.game(), Some(game), "history {:?}", game.history());
    }

    if let Some((result, strict_interpreter, strict_store)) = strict {
        match (result, reports.first()) {
            (Ok(strict_run), None) => {
                assert_eq!(strict_run.saved, run.saved);
                assert_eq!(strict_store.bytes, store.bytes);
                assert_eq!(strict_interpreter.game(), interpreter.game());
            }
            (Err(ReplayError::Strict(first)), Some(expected)) => {
                assert_eq!(&first, expected);
                assert_eq!(strict_store.bytes, before, "--strict saved something");
            }
            (other, first) => panic!("--strict gave {other:?}, the first report was {first:?}"),
        }
    }
}

/// A game in play or loaded is consistent: one avatar, on its tile; its exit the door its
/// status says (an exploration's: the way up); its history `<kind><seed>S` and a key a move.
pub fn check_game(game: &GameState) {
    let world = game.world();
    assert_eq!(world.count(Tile::Player), 1, "not exactly one avatar");
    assert_eq!(world.get(game.avatar()), Some(Tile::Player));
    let door = match game.status() {
        _ if game.explore().is_some() => Tile::WayUp,
        LevelStatus::Won => Tile::UnlockedDoor,
        LevelStatus::Playing | LevelStatus::Lost => Tile::LockedDoor,
    };
    assert_eq!(world.get(game.exit()), Some(door));
    let prefix = format!("{}{}S", game.kind().key(), game.seed());
    assert!(game.history().starts_with(&prefix), "{:?}", game.history());
    assert_eq!(game.history().len() - prefix.len(), game.moves() as usize);
}

// ---------------------------------------------------------------------------------------------
// load_save
// ---------------------------------------------------------------------------------------------

// Byte 0 of a `load_save` input picks how the rest becomes a file: `0 mod 4` the whole file;
// `1` the payload, wrapped in a correct header and checksum; `2` edits (set, xor, insert,
// delete a byte) to the payload of a real 11 × 9 save; `3` the same edits to an exploration
// with monsters. `decode` never panics; an error names the file; a game that loads is
// consistent, inside its world, round trips and can be played.

const PATH: &str = "/fuzz/saves/save.bin";

/// The `load_save` target: byte 0 picks how the rest becomes a save file (see the module).
pub fn load_save(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 4 {
        0 => check(rest),
        1 => check(&wrap(rest)),
        2 => check(&wrap(&edit(template(), rest))),
        _ => check(&wrap(&edit(exploration_template(), rest))),
    }
}

/// The payload of a real save: an 11 × 9 game after a few moves.
fn template() -> &'static [u8] {
    static TEMPLATE: OnceLock<Vec<u8>> = OnceLock::new();
    TEMPLATE.get_or_init(|| {
        let mut game = GameState::new(7, 11, 9, GeneratorSettings::default()).expect("11 x 9");
        for key in "DDWWASSD".chars() {
            game.apply(Action::from_key(key).expect("a move"));
        }
        let bytes = save::encode(&game);
        bytes[HEADER_LEN..bytes.len() - CHECKSUM_LEN].to_vec()
    })
}

/// The payload of a real exploration save: `E7S` and a walk up into the first rooms.
fn exploration_template() -> &'static [u8] {
    static TEMPLATE: OnceLock<Vec<u8>> = OnceLock::new();
    TEMPLATE.get_or_init(|| {
        // With monsters, so the edits reach format 6 and 7's encounters too.
        let settings = byog_game::explore::ExploreSettings {
            monsters: true,
            ..Default::default()
        };
        let mut game = GameState::new_exploration(7, GeneratorSettings::default(), settings)
            .expect("an exploration");
        for key in "WWWWWWWWWWWWWWWWWWWWWWWWWWSSSSSSSSSSSSSSSSSSSSDDDDDDDDDDDD".chars() {
            game.apply(Action::from_key(key).expect("a move"));
        }
        let bytes = save::encode(&game);
        bytes[HEADER_LEN..bytes.len() - CHECKSUM_LEN].to_vec()
    })
}

/// `payload` with a correct header and checksum around it.
fn wrap(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len() + CHECKSUM_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    let crc = crc32(&out[MAGIC.len()..]);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// CRC-32 (IEEE, reflected), as the save format uses; bitwise, the fuzz crate needs no
/// dependency for it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Applies edits of three bytes each, `[op << 6 | offset_hi, offset_lo, value]`, to `base`.
fn edit(base: &[u8], edits: &[u8]) -> Vec<u8> {
    let mut out = base.to_vec();
    for e in edits.chunks_exact(3) {
        let at = (usize::from(e[0] & 0x3f) << 8 | usize::from(e[1])) % (out.len() + 1);
        match e[0] >> 6 {
            0 if at < out.len() => out[at] = e[2],
            1 if at < out.len() => out[at] ^= e[2],
            2 => out.insert(at, e[2]),
            3 if at < out.len() => {
                out.remove(at);
            }
            _ => {}
        }
    }
    out
}

fn check(bytes: &[u8]) {
    let path = Path::new(PATH);
    match save::decode(bytes, path) {
        Err(e) => assert!(e.to_string().contains(PATH), "{e} does not name the file"),
        Ok(mut game) => {
            check_game(&game);
            // Every loaded game is inside its world (issue 31: an avatar at (6, -2) loaded).
            assert!(
                game.rect().contains(game.avatar()),
                "the avatar is outside its world"
            );
            let again = save::decode(&save::encode(&game), path).expect("a re-save decodes");
            assert_eq!(again, game);
            // A loaded game can be printed and played.
            let _ = game.world().to_string();
            if !game.has_ended() {
                for key in "WASDWASD".chars() {
                    game.apply(Action::from_key(key).expect("a move"));
                }
            }
            assert_eq!(game.world().count(Tile::Player), 1);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// explore_monsters
// ---------------------------------------------------------------------------------------------

/// The `explore_monsters` target: byte 0 picks the seed (0..=255); the rest, as UTF-8
/// (lossily), is fed as keys to `E<seed>S` with monsters on. After the keys: the game is
/// consistent ([`check_game`]) and inside its world, its monsters stand inside the world on
/// tiles of their own, its save loads back to the same game and its history replays to it.
pub fn explore_monsters(data: &[u8]) {
    let Some((&seed, rest)) = data.split_first() else {
        return;
    };
    let keys = String::from_utf8_lossy(rest);
    let settings = ExploreSettings {
        monsters: true,
        ..Default::default()
    };
    let new = || Interpreter::new(80, 30, GeneratorSettings::default()).with_explore(settings);
    let mut interpreter = new();
    let mut store = MemoryStore::default();
    let input = format!("E{seed}S{keys}");
    replay::replay(&mut interpreter, &input, &mut store, false, &mut |_| {})
        .unwrap_or_else(|e| panic!("replay of {input:?} failed: {e}"));
    let Some(game) = interpreter.game() else {
        return;
    };
    check_game(game);
    let rect = game.rect();
    assert!(rect.contains(game.avatar()));
    let explore = game.explore().expect("an exploration");
    let mut seen = Vec::new();
    for m in explore.monsters() {
        let p = m.pos;
        assert!(!seen.contains(&p), "two monsters on {p}");
        assert_ne!(p, explore.avatar(), "a monster on the avatar");
        seen.push(p);
    }
    let bytes = save::encode(game);
    let loaded = save::decode(&bytes, Path::new("<fuzz>")).expect("a save of a game in play loads");
    assert_eq!(&loaded, game);
    let mut again = new();
    replay::replay(
        &mut again,
        &game.history(),
        &mut MemoryStore::default(),
        true,
        &mut |_| {},
    )
    .unwrap_or_else(|e| panic!("history {:?} does not replay: {e}", game.history()));
    assert_eq!(again.game(), Some(game), "history {:?}", game.history());
}

// ---------------------------------------------------------------------------------------------
// agent_lines
// ---------------------------------------------------------------------------------------------

/// The `agent_lines` target: the bytes, as UTF-8 (lossily), split at `\n` into lines of the
/// agent protocol, answered by one [`Agent`] (20 × 10 worlds, runs of 2 floors, no save
/// folder). Every answer is one line of JSON: an object, either an observation (with `mode`)
/// or `{"error": …}` alone.
pub fn agent_lines(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut agent = Agent::new(AgentOptions {
        game: byog_game::GameOptions {
            width: 20,
            height: 10,
            floors: 2,
            ..Default::default()
        },
        ..AgentOptions::default()
    });
    for line in text.split('\n').take(64) {
        let answer = agent.answer(line);
        assert!(!answer.contains('\n'), "an answer of two lines to {line:?}");
        let value: serde_json::Value = serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("the answer to {line:?} is not JSON ({e}): {answer}"));
        let object = value.as_object().expect("an answer is an object");
        if object.contains_key("error") {
            assert_eq!(object.len(), 1, "{answer}");
            assert!(object["error"].is_string(), "{answer}");
        } else {
            assert!(object.contains_key("mode"), "{answer}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// catalog_where
// ---------------------------------------------------------------------------------------------

/// A small catalog (seeds 0..6 at 21 × 11 with a requirement that retries some), made once
/// a process, for [`catalog_where`] to query.
fn small_catalog() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("byog-fuzz-catalog-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("seeds.db");
        let _ = std::fs::remove_file(&path);
        let mut settings = GeneratorSettings::default();
        settings.requirements.min_rooms = Some(3);
        let c = Catalog::open(&path, 21, 11, &settings).expect("a new catalog");
        for seed in 0..6 {
            let _ = generator::generate_for_seed_with(seed, 21, 11, &settings, &mut c.seed(seed));
        }
        let tally = c.finish();
        assert!(tally.problem.is_none(), "{tally:?}");
        path
    })
}

/// The `catalog_where` target: the bytes, as UTF-8 (lossily), as a `--where` filter. Parsing
/// never panics; a filter that parses names only known names and runs on a real catalog
/// without a SQLite error (the text never reaches SQLite: only numbers are bound); a refused
/// one says where.
pub fn catalog_where(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match query::parse(&text) {
        Err(e) => assert!(!e.to_string().is_empty()),
        Ok(filter) => {
            let known: Vec<&str> = query::names().collect();
            for name in filter.names() {
                assert!(known.contains(&name), "{name}");
            }
            let (conn, missing) = catalog::open_existing(small_catalog()).expect("the catalog");
            let q = query::Query {
                filter: Some(filter),
                ..Default::default()
            };
            if let Err(e) = query::select(&conn, &missing, &q) {
                panic!("{text:?} parsed but did not run: {e}");
            }
        }
    }
}
