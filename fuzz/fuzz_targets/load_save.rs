//! Fuzz target `load_save`: arbitrary bytes as a save file through `byog::core::save::decode`
//! (docs/robustness.md).
//!
//! Byte 0 picks how the rest becomes a file, so the fuzzer reaches past the checksum:
//! - `0 mod 4`: the rest is the whole file, as it would lie on disk;
//! - `1 mod 4`: the rest is the payload, wrapped in a correct header and checksum;
//! - `2 mod 4`: the rest is a list of edits (set, xor, insert, delete a byte) applied to the
//!   payload of a real save of a small game, then wrapped in a correct header and checksum;
//! - `3 mod 4`: the same edits to the payload of an exploration's save (format 3: rooms,
//!   branches, orchestrators, memory).
//!
//! Invariants: `decode` never panics (libFuzzer also flags huge allocations and slow inputs);
//! an error names the file; a game that decodes is consistent (exactly one avatar, on its
//! tile; the exit door matches the status), can be played and printed, and
//! `decode(encode(game))` gives the same game back.

#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use byog::core::generator::GeneratorSettings;
use byog::core::save::{self, CHECKSUM_LEN, FORMAT_VERSION, HEADER_LEN, MAGIC};
use byog::core::{Action, GameState, LevelStatus};
use byog::tile_engine::Tile;
use libfuzzer_sys::fuzz_target;

const PATH: &str = "/fuzz/saves/save.bin";

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 4 {
        0 => check(rest),
        1 => check(&wrap(rest)),
        2 => check(&wrap(&edit(template(), rest))),
        _ => check(&wrap(&edit(exploration_template(), rest))),
    }
});

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
        let settings = byog::core::explore::ExploreSettings::default();
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
            let again = save::decode(&save::encode(&game), path).expect("a re-save decodes");
            assert_eq!(again, game);
            // A loaded game can be printed and played.
            let _ = game.world().to_string();
            for key in "WASDWASD".chars() {
                game.apply(Action::from_key(key).expect("a move"));
            }
            assert_eq!(game.world().count(Tile::Player), 1);
        }
    }
}
