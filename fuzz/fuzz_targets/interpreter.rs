//! Fuzz target `interpreter`: arbitrary bytes as input strings through
//! `byog::core::replay::replay`, with saves and loads in between (docs/robustness.md).
//!
//! Input layout: byte 0 picks the width (5..=80, low 7 bits) and whether `--strict` is checked
//! too (high bit); byte 1 picks the height (5..=30); the rest is decoded as UTF-8 (lossily,
//! so any bytes give some string) and split at `\n` into program runs. Each run is a fresh
//! interpreter sharing one [`MemoryStore`], so `:Q` in one run and `L` in the next go through
//! the real save bytes.
//!
//! Invariants checked after every run:
//! - `replay` returns `Ok` (sizes are valid and a `MemoryStore` cannot fail) and never panics;
//! - every report names the key at its position (positions count characters), positions
//!   increase, every key that is never a command is reported, and `reported` counts them;
//! - the game in play has exactly one avatar, on the avatar's tile, and its exit door matches
//!   the level status;
//! - a save written by the run decodes back to exactly the game in play, and re-encodes to
//!   the same bytes; a run that did not save left the store alone;
//! - replaying the game's recorded history from the menu reproduces it exactly;
//! - `--strict` refuses the run at its first report (and saves nothing) or, with no reports,
//!   does exactly what the plain run did.

#![no_main]

use std::path::Path;

use byog::core::GameState;
use byog::core::LevelStatus;
use byog::core::generator::GeneratorSettings;
use byog::core::interpreter::{Interpreter, Refused};
use byog::core::replay::{self, ReplayError};
use byog::core::save::{self, MemoryStore};
use byog::tile_engine::Tile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| run(data));

fn run(data: &[u8]) {
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

/// Whether `key` is a command in some state (everything else is always reported).
fn is_command_somewhere(key: char) -> bool {
    matches!(
        key.to_ascii_uppercase(),
        'N' | 'L' | 'Q' | 'S' | 'W' | 'A' | 'D' | ':' | '0'..='9'
    )
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
        let world = game.world();
        let mut again = Interpreter::new(world.width(), world.height(), *game.settings());
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

fn check_game(game: &GameState) {
    let world = game.world();
    assert_eq!(world.count(Tile::Player), 1, "not exactly one avatar");
    assert_eq!(world.get(game.avatar()), Some(Tile::Player));
    let door = match game.status() {
        LevelStatus::Playing => Tile::LockedDoor,
        LevelStatus::Won => Tile::UnlockedDoor,
        LevelStatus::Lost => Tile::LockedDoor,
    };
    assert_eq!(world.get(game.exit()), Some(door));
    let kind = if game.run().is_some() { 'R' } else { 'N' };
    let prefix = format!("{kind}{}S", game.seed());
    assert!(game.history().starts_with(&prefix), "{:?}", game.history());
    assert_eq!(game.history().len() - prefix.len(), game.moves() as usize);
}
