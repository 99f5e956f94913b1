//! The save format, stated in one place (`docs/saves.md`).
//!
//! Layout, all integers little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `BYOGSAVE` ([`MAGIC`]) |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 8 | payload length `n` in bytes |
//! | n | payload: the postcard 1 encoding of the game state (formats 1 to 6: `bincode` 2, serde, standard config) |
//! | 4 | CRC-32 (IEEE) of the version, length and payload bytes |
//!
//! [`HEADER_LEN`] is the 20 bytes before the payload.
//!
//! # Versions
//!
//! Every version ever released has a fixture save under `tests/fixtures/` that the current
//! build must keep loading into the same game; an older version is converted on load. A
//! change to a payload's fields without a new version fails `crates/game/tests/game/saves.rs`
//! (`current_format_writes_the_fixture_bytes`). To change the payload: add a `PayloadVn`, bump
//! [`FORMAT_VERSION`], convert the old payloads to the game in [`decode`], write a fixture.
//!
//! - **1** (the first release): seed, world size, generator settings, the composed tiles
//!   (avatar `@` and exit door drawn in), avatar, exit, the `Pcg64` state, the level status,
//!   the move count and the history as the string `N<seed>S` + one key per action. An
//!   80 × 30 game takes about 2.5 KiB plus one byte an action. Saves written before bumps
//!   stopped counting as moves hold bump keys in their history and count them in `moves`;
//!   they load unchanged (a bump changes nothing, so replaying such a history gives the
//!   same world).
//! - **2** (runs): the terrain alone (floor, wall, nothing) instead of the composed tiles,
//!   the features (chests and traps with their states) and, for a run, its state (floor,
//!   floors, moves left, health, score, perfect floors, the floor's make, the loss); the
//!   status may be `Lost`; the history starts `R<seed>S` for a run; and the floor's memory
//!   (the tiles the avatar stood on and the tiles seen, a bit each). Version 1 saves are
//!   classic games; their memory is rebuilt by replaying their history.
//! - **3** (explorations): version 2's fields, then the exploration, if the game is one
//!   (`Option<ExploreState>`: every room made with its exits, shape, features and memory,
//!   every branch with its orchestrator's `Pcg64`, timer and bounds, the current branches,
//!   the avatar's dungeon tile and map, health, score and end). An exploration stores an
//!   empty (0 × 0) terrain and its history starts `E<seed>S`. Classic games and runs write
//!   `None` there and are otherwise version 2's bytes; versions 1 and 2 load as before.
//! - **4** (a feature pays once): version 3's fields, then one bit a feature saying whether
//!   its points were paid ([`Feature::paid`]): a run's floor's features in their order, or
//!   an exploration's in the order of [`ExploreState`]'s rooms (the start room, then each
//!   branch's rooms by branch id and slot). Older saves load with a feature paid exactly
//!   when it is handled (a trap sprung again after it paid reads as unpaid: it pays once
//!   more, as it did when that save was written).
//! - **5** (LootQuest): version 4's fields, then what the generator settings gained (the
//!   requirements `min_critical_path`, `max_critical_path`, `max_dead_end_length`, which
//!   generator made the worlds and LootQuest's parameters: `SettingsTail`). Versions 1 to 4
//!   store the settings as `SettingsV1` (rooms-and-mazes, seven requirements) and load as
//!   rooms-and-mazes games with the new requirements unset.
//! - **6** (monsters): version 5's fields, then an exploration's monsters or nothing
//!   (`Option<Encounters>`: whether its rooms get monsters, every living monster, the next
//!   id, potions, the turn count, what killed the avatar). The exploration itself keeps the
//!   bytes of versions 3 to 5 (`StoredExploration`); explorations of those versions load
//!   without monsters and play on as they were saved.
//! - **7** (the message log): encoded with postcard 1 (wire format 1.0) instead of bincode 2
//!   (unmaintained, RUSTSEC-2025-0141; kept, pinned, to read formats 1 to 6:
//!   `docs/saves.md`). The payload is a summary (`SummaryV7`: what the slot list shows, read
//!   without the rest), version 6's fields, then the message log (at most
//!   [`LOG_LENGTH`] messages of at most [`MAX_MESSAGE_CHARS`] characters). Older saves load
//!   with an empty log.
//! - **8** (features paid by seclusion, rules version 4): version 7's payload, then a run's
//!   floor's features' seclusion in tiles, in their order (a feature's points grow with it:
//!   `docs/runs.md`); empty for classic games and explorations. Runs of older versions load
//!   with the seclusion of their floor made again from the run's seed (the floor is the same).

use std::collections::VecDeque;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::SaveError;
use crate::action::Action;
use crate::base::GameKind;
use crate::base::terrain_under;
use crate::board::{Board, GridBoard};
use crate::explore::play::StoredExploration;
use crate::explore::{Encounters, ExploreState};
use crate::game::{GameRng, GameState, LOG_LENGTH, LevelStatus, MAX_MESSAGE_CHARS, MAX_SEED};
use crate::run::{self, Feature, RunState};
use byog_tile_engine::{Pos, Tile, World};
use byog_worlds::generator::{self, GeneratorKind, GeneratorSettings, LootQuestSettings};
use byog_worlds::metrics::Requirements;

/// The first 8 bytes of every save.
pub const MAGIC: &[u8; 8] = b"BYOGSAVE";
/// The save format this build writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 8;
/// The first format whose payload starts with the game's summary ([`summary_of`]) and is
/// encoded with postcard rather than bincode.
pub const SUMMARY_VERSION: u32 = 7;
/// Bytes before the payload: magic, version, payload length.
pub const HEADER_LEN: usize = 8 + 4 + 8;
/// Bytes after the payload: the CRC-32.
pub const CHECKSUM_LEN: usize = 4;
/// Upper bound on what `bincode` may allocate while decoding a payload, and on the size of a
/// save file that is read at all (1 GiB: a 16384 × 16384 world is 256 MiB of tiles).
pub const MAX_SAVE_BYTES: u64 = 1 << 30;

const DECODE_LIMIT: usize = MAX_SAVE_BYTES as usize;

/// The payload of format version 8 (the current one), encoded with postcard as version 7:
/// version 7's (so it starts with the same summary), then a run's floor's features'
/// seclusion in tiles, in their order (empty for other games).
#[derive(Serialize, Deserialize)]
struct PayloadV8 {
    v7: PayloadV7,
    seclusion: Vec<u32>,
}

/// The payload of format version 7, encoded with postcard (wire format
/// 1.0): the game's summary first, so the slot list reads it without the rest; version 6's
/// fields; then the message log.
#[derive(Serialize, Deserialize)]
struct PayloadV7 {
    summary: SummaryV7,
    v6: PayloadV6,
    #[serde(deserialize_with = "log_from_file")]
    log: Vec<String>,
}

/// What a save holds, in a few words ([`super::SaveSummary`]), at the start of format 7's
/// payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct SummaryV7 {
    /// The history's first key: `N`, `R` or `E`.
    kind: u8,
    seed: u64,
    moves: u64,
    floor: Option<(u32, u32)>,
    ended: bool,
}

impl SummaryV7 {
    fn of(game: &GameState) -> SummaryV7 {
        let s = super::SaveSummary::of(game);
        SummaryV7 {
            kind: s.kind.key() as u8,
            seed: s.seed,
            moves: s.moves,
            floor: s.floor,
            ended: s.ended,
        }
    }

    fn summary(self) -> Result<super::SaveSummary, String> {
        let kind = match self.kind {
            b'N' => GameKind::Classic,
            b'R' => GameKind::Run,
            b'E' => GameKind::Exploration,
            k => return Err(format!("its summary names no kind of game ({k})")),
        };
        Ok(super::SaveSummary {
            kind,
            seed: self.seed,
            moves: self.moves,
            floor: self.floor,
            ended: self.ended,
        })
    }
}

/// The payload of format version 6: version 5's, then an exploration's
/// monsters and potions (`None` for classic games and runs).
#[derive(Serialize, Deserialize)]
struct PayloadV6 {
    v5: PayloadV5,
    encounters: Option<Encounters>,
}

/// The payload of format version 5: version 4's, then the rest of the generator settings.
#[derive(Serialize, Deserialize)]
struct PayloadV5 {
    v4: PayloadV4,
    settings: SettingsTail,
}

/// The generator settings as versions 1 to 4 store them (and version 5 in its version-4
/// part): rooms-and-mazes' parameters, the seven requirements of those versions, the tries.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct SettingsV1 {
    room_tries_per_1000_tiles: u32,
    room_extra_size: u32,
    winding_percent: u32,
    extra_connector_chance: u32,
    requirements: RequirementsV1,
    max_tries: u32,
}

/// The requirements of versions 1 to 4, in their order.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct RequirementsV1 {
    min_openness_percent: Option<u32>,
    max_openness_percent: Option<u32>,
    min_exit_distance: Option<u32>,
    min_rooms: Option<u32>,
    max_rooms: Option<u32>,
    max_dead_ends: Option<u32>,
    min_critical_path_rooms: Option<u32>,
}

/// What version 5 appends to the settings: the requirements added with LootQuest, the
/// generator and LootQuest's parameters.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct SettingsTail {
    min_critical_path: Option<u32>,
    max_critical_path: Option<u32>,
    max_dead_end_length: Option<u32>,
    generator: GeneratorKind,
    lootquest: LootQuestSettings,
}

impl SettingsV1 {
    /// The settings of a version 1 to 4 save: rooms-and-mazes, the newer requirements unset.
    fn settings(self) -> GeneratorSettings {
        let r = self.requirements;
        GeneratorSettings {
            room_tries_per_1000_tiles: self.room_tries_per_1000_tiles,
            room_extra_size: self.room_extra_size,
            winding_percent: self.winding_percent,
            extra_connector_chance: self.extra_connector_chance,
            requirements: Requirements {
                min_openness_percent: r.min_openness_percent,
                max_openness_percent: r.max_openness_percent,
                min_exit_distance: r.min_exit_distance,
                min_rooms: r.min_rooms,
                max_rooms: r.max_rooms,
                max_dead_ends: r.max_dead_ends,
                min_critical_path_rooms: r.min_critical_path_rooms,
                ..Requirements::default()
            },
            max_tries: self.max_tries,
            ..GeneratorSettings::default()
        }
    }

    /// The settings of a version 5 save: these and the tail.
    fn with_tail(self, tail: SettingsTail) -> GeneratorSettings {
        let mut s = self.settings();
        s.requirements.min_critical_path = tail.min_critical_path;
        s.requirements.max_critical_path = tail.max_critical_path;
        s.requirements.max_dead_end_length = tail.max_dead_end_length;
        s.generator = tail.generator;
        s.lootquest = tail.lootquest;
        s
    }

    /// `settings` split into the version-4 part and version 5's tail.
    fn split(s: &GeneratorSettings) -> (SettingsV1, SettingsTail) {
        let r = &s.requirements;
        (
            SettingsV1 {
                room_tries_per_1000_tiles: s.room_tries_per_1000_tiles,
                room_extra_size: s.room_extra_size,
                winding_percent: s.winding_percent,
                extra_connector_chance: s.extra_connector_chance,
                requirements: RequirementsV1 {
                    min_openness_percent: r.min_openness_percent,
                    max_openness_percent: r.max_openness_percent,
                    min_exit_distance: r.min_exit_distance,
                    min_rooms: r.min_rooms,
                    max_rooms: r.max_rooms,
                    max_dead_ends: r.max_dead_ends,
                    min_critical_path_rooms: r.min_critical_path_rooms,
                },
                max_tries: s.max_tries,
            },
            SettingsTail {
                min_critical_path: r.min_critical_path,
                max_critical_path: r.max_critical_path,
                max_dead_end_length: r.max_dead_end_length,
                generator: s.generator,
                lootquest: s.lootquest,
            },
        )
    }
}

/// The payload of format version 4: version 3's, then whether each feature was paid, a bit
/// a feature (see the module's documentation for the order).
#[derive(Serialize, Deserialize)]
struct PayloadV4 {
    v3: PayloadV3,
    #[serde(deserialize_with = "bytes_from_file")]
    paid: Vec<u8>,
}

/// The payload of format version 3: version 2's, then the exploration.
#[derive(Serialize, Deserialize)]
struct PayloadV3 {
    format_version: u32,
    seed: u64,
    width: u32,
    height: u32,
    settings: SettingsV1,
    #[serde(deserialize_with = "bytes_from_file")]
    terrain: Vec<u8>,
    avatar: Pos,
    exit: Pos,
    rng: GameRng,
    status: LevelStatus,
    moves: u64,
    #[serde(deserialize_with = "string_from_file")]
    history: String,
    features: Vec<Feature>,
    run: Option<RunState>,
    #[serde(deserialize_with = "bytes_from_file")]
    visited: Vec<u8>,
    #[serde(deserialize_with = "bytes_from_file")]
    seen: Vec<u8>,
    /// The exploration, for an exploration (`E<seed>S`), without its monsters.
    explore: Option<StoredExploration>,
}

/// The payload of format version 2.
#[derive(Serialize, Deserialize)]
struct PayloadV2 {
    format_version: u32,
    seed: u64,
    width: u32,
    height: u32,
    settings: SettingsV1,
    /// Terrain tile ids: FLOOR, WALL, NOTHING (the exit's tile is WALL).
    #[serde(deserialize_with = "bytes_from_file")]
    terrain: Vec<u8>,
    avatar: Pos,
    exit: Pos,
    rng: GameRng,
    status: LevelStatus,
    moves: u64,
    #[serde(deserialize_with = "string_from_file")]
    history: String,
    features: Vec<Feature>,
    run: Option<RunState>,
    /// The floor's tiles the avatar stood on, one bit a tile (row-major, low bit first).
    #[serde(deserialize_with = "bytes_from_file")]
    visited: Vec<u8>,
    /// The floor's tiles seen, one bit a tile.
    #[serde(deserialize_with = "bytes_from_file")]
    seen: Vec<u8>,
}

/// Packs bits, eight a byte, the first in the lowest bit.
fn pack(bits: &[bool]) -> Vec<u8> {
    bits.chunks(8)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |b, (k, &on)| b | (u8::from(on) << k))
        })
        .collect()
}

/// Unpacks `n` bits; `None` when the bytes are not `ceil(n / 8)` long.
fn unpack(bytes: &[u8], n: usize) -> Option<Vec<bool>> {
    (bytes.len() == n.div_ceil(8))
        .then(|| (0..n).map(|i| bytes[i / 8] >> (i % 8) & 1 == 1).collect())
}

/// The payload of format version 1.
#[derive(Serialize, Deserialize)]
struct PayloadV1 {
    format_version: u32,
    seed: u64,
    width: u32,
    height: u32,
    settings: SettingsV1,
    #[serde(deserialize_with = "bytes_from_file")]
    tiles: Vec<u8>,
    avatar: Pos,
    exit: Pos,
    rng: GameRng,
    status: LevelStatus,
    moves: u64,
    #[serde(deserialize_with = "string_from_file")]
    history: String,
}

// The two variable-length fields are decoded as slices borrowed from the file and then
// copied, so a length read from the file is checked against the bytes really there before
// anything is allocated (found with the load_save fuzz target: docs/robustness.md). Decoded
// as owned values, bincode allocates a `String`'s declared length before reading it. The
// bytes on disk are the same either way (a length, then one byte an element).

fn bytes_from_file<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    <&'de [u8]>::deserialize(d).map(<[u8]>::to_vec)
}

fn string_from_file<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    <&'de str>::deserialize(d).map(str::to_owned)
}

/// The message log, each message decoded borrowed from the file and then copied (as
/// `string_from_file`), at most [`LOG_LENGTH`] of them.
fn log_from_file<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    struct Messages;
    impl<'de> serde::de::Visitor<'de> for Messages {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "at most {LOG_LENGTH} messages")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(m) = seq.next_element::<&'de str>()? {
                if out.len() == LOG_LENGTH {
                    return Err(serde::de::Error::custom(format!(
                        "the message log holds more than {LOG_LENGTH} messages"
                    )));
                }
                out.push(m.to_owned());
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Messages)
}

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<DECODE_LIMIT>()
}

/// Encodes a game as the bytes of a save file (the current [`FORMAT_VERSION`]).
pub fn encode(game: &GameState) -> Vec<u8> {
    let (grid, mut explore) = match &game.board {
        Board::Grid(g) => (Some(g), None),
        Board::Explore(e) => (None, Some(e.as_ref().clone())),
    };
    let paid: Vec<bool> = match (grid, explore.as_mut()) {
        (Some(g), _) => g.features.iter().map(|f| f.paid).collect(),
        (None, Some(e)) => e.items_mut().map(|f| f.paid).collect(),
        (None, None) => Vec::new(),
    };
    let (explore_bytes, encounters) = match explore.map(ExploreState::split) {
        Some((stored, encounters)) => (Some(stored), Some(encounters)),
        None => (None, None),
    };

    // An exploration writes version 2's grid fields empty (its rooms hold its tiles).
    let terrain = game.terrain();
    let (settings, tail) = SettingsV1::split(&game.settings);
    let v3 = PayloadV3 {
        format_version: FORMAT_VERSION,
        seed: game.seed,
        width: terrain.width() as u32,
        height: terrain.height() as u32,
        settings,
        terrain: terrain.tiles().iter().map(|t| t.id()).collect(),
        avatar: grid.map_or(Pos::new(0, 0), |g| g.avatar),
        exit: grid.map_or(Pos::new(0, 0), |g| g.exit),
        rng: game.rng.clone(),
        status: game.status,
        moves: game.moves,
        history: game.history(),
        features: grid.map_or_else(Vec::new, |g| g.features.clone()),
        run: grid.and_then(|g| g.run),
        visited: grid.map_or_else(Vec::new, |g| pack(&g.visited)),
        seen: grid.map_or_else(Vec::new, |g| pack(&g.seen)),
        explore: explore_bytes,
    };
    let payload = PayloadV5 {
        v4: PayloadV4 {
            v3,
            paid: pack(&paid),
        },
        settings: tail,
    };
    let payload = PayloadV8 {
        v7: PayloadV7 {
            summary: SummaryV7::of(game),
            v6: PayloadV6 {
                v5: payload,
                encounters,
            },
            log: game.log.iter().cloned().collect(),
        },
        seclusion: grid.map_or_else(Vec::new, |g| g.seclusion.clone()),
    };
    // Encoding into a Vec cannot fail: every field is a plain value. Should it ever, an empty
    // payload fails its own checks on load.
    let body = postcard::to_allocvec(&payload).unwrap_or_default();
    let mut out = Vec::with_capacity(HEADER_LEN + body.len() + CHECKSUM_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    let crc = crc32fast::hash(&out[MAGIC.len()..]);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// What a save's header says: its format version and the length of its payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The format version, 1..=[`FORMAT_VERSION`].
    pub version: u32,
    /// The payload's length in bytes; the file is [`HEADER_LEN`] + this + [`CHECKSUM_LEN`]
    /// bytes.
    pub payload_len: u64,
}

/// Checks the header of a save file from its first bytes (`start`: [`HEADER_LEN`] of them,
/// or all there are) and the file's size in bytes, before anything else is read: the magic,
/// a version this build reads, and a payload length that fits the file exactly. `path` is
/// only used in errors.
///
/// # Errors
/// [`SaveError::NotASave`], [`SaveError::Truncated`], [`SaveError::FutureVersion`] or
/// [`SaveError::Corrupt`] (version 0, bytes after the checksum).
pub fn read_header(start: &[u8], size: u64, path: &Path) -> Result<Header, SaveError> {
    let path = || path.to_path_buf();
    let truncated = |detail: String| SaveError::Truncated {
        path: path(),
        detail,
    };
    if start.len() < MAGIC.len() {
        return Err(if MAGIC.starts_with(start) {
            truncated(format!("{size} bytes, shorter than the header"))
        } else {
            SaveError::NotASave { path: path() }
        });
    }
    if &start[..MAGIC.len()] != MAGIC {
        return Err(SaveError::NotASave { path: path() });
    }
    if start.len() < HEADER_LEN || size < HEADER_LEN as u64 {
        return Err(truncated(format!(
            "{size} bytes, shorter than the {HEADER_LEN}-byte header"
        )));
    }
    let version = u32::from_le_bytes(start[8..12].try_into().unwrap_or_default());
    if version > FORMAT_VERSION {
        return Err(SaveError::FutureVersion {
            path: path(),
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    if version == 0 {
        return Err(SaveError::Corrupt {
            path: path(),
            reason: "format version 0 does not exist".into(),
        });
    }
    let declared = u64::from_le_bytes(start[12..20].try_into().unwrap_or_default());
    let available = size - HEADER_LEN as u64;
    let needed = declared.saturating_add(CHECKSUM_LEN as u64);
    if needed > available {
        return Err(truncated(format!(
            "the header announces {declared} payload bytes and a 4-byte checksum, but only {available} bytes follow it"
        )));
    }
    if needed < available {
        return Err(SaveError::Corrupt {
            path: path(),
            reason: format!("{} unexpected bytes after the checksum", available - needed),
        });
    }
    Ok(Header {
        version,
        payload_len: declared,
    })
}

/// The summary at the start of a format 7 payload, from its first bytes (the slot list
/// reads only those). `path` is only used in errors.
///
/// # Errors
/// [`SaveError::Corrupt`] when the bytes hold no summary.
pub fn summary_of(payload_start: &[u8], path: &Path) -> Result<super::SaveSummary, SaveError> {
    postcard::take_from_bytes::<SummaryV7>(payload_start)
        .map_err(|e| format!("its summary does not decode ({e})"))
        .and_then(|(s, _)| s.summary())
        .map_err(|reason| SaveError::Corrupt {
            path: path.to_path_buf(),
            reason,
        })
}

/// Decodes the bytes of a save file of any released version; `path` is only used in errors.
/// Every game that decodes has passed the checks of every mode (`check.rs`): the avatar on a
/// walkable tile inside its world, things inside it and not stacked, rooms and exits
/// consistent, monsters placed legally, counts within their tables.
///
/// # Errors
/// [`SaveError::NotASave`], [`SaveError::Truncated`], [`SaveError::FutureVersion`],
/// [`SaveError::Checksum`] or [`SaveError::Corrupt`]; never a panic, whatever the bytes.
pub fn decode(bytes: &[u8], path: &Path) -> Result<GameState, SaveError> {
    let Header {
        version,
        payload_len: declared,
    } = read_header(
        &bytes[..bytes.len().min(HEADER_LEN)],
        bytes.len() as u64,
        path,
    )?;
    let path = || path.to_path_buf();
    let end = HEADER_LEN + declared as usize;
    let stored = u32::from_le_bytes(
        bytes[end..end + CHECKSUM_LEN]
            .try_into()
            .unwrap_or_default(),
    );
    let computed = crc32fast::hash(&bytes[MAGIC.len()..end]);
    if stored != computed {
        return Err(SaveError::Checksum {
            path: path(),
            stored,
            computed,
        });
    }
    let corrupt = |reason: String| SaveError::Corrupt {
        path: path(),
        reason,
    };
    let body = &bytes[HEADER_LEN..end];
    let game = match version {
        1 => decode_payload::<PayloadV1>(body).and_then(|p| p.into_game(version)),
        2 => decode_payload::<PayloadV2>(body).and_then(|p| p.into_game(version)),
        3 => decode_payload::<PayloadV3>(body).and_then(|p| p.into_game(version, None)),
        4 => decode_payload::<PayloadV4>(body).and_then(|p| p.into_game(version, None)),
        5 => decode_payload::<PayloadV5>(body).and_then(|p| p.into_game(version, None)),
        6 => decode_payload::<PayloadV6>(body).and_then(|p| p.into_game(version)),
        7 => decode_postcard::<PayloadV7>(body).and_then(|p| p.into_game(version)),
        _ => decode_postcard::<PayloadV8>(body).and_then(|p| p.into_game(version)),
    };
    let game = game.and_then(|g| super::check::check_game(&g).map(|()| g));
    let game = game.map(|mut g| {
        if version < 4 {
            for f in features_mut(&mut g) {
                f.paid = f.handled;
            }
        }
        if version < 8 {
            with_seclusion_made_again(&mut g);
        }
        g
    });
    game.map_err(corrupt)
}

/// A run of a format before 8 with its floor's features' seclusion: the floor made again
/// from the run's seed, depth and sizes (the same floor: its features stand where the save
/// has them); a feature the floor as made does not hold (a save edited by hand) gets 0.
fn with_seclusion_made_again(game: &mut GameState) {
    let (seed, settings) = (game.seed, game.settings);
    let Board::Grid(board) = &mut game.board else {
        return;
    };
    let Some(r) = board.run else {
        return;
    };
    let (w, h) = (r.max_width as usize, r.max_height as usize);
    let made = run::floor::make(seed, r.floor, r.floors, w, h, &settings).ok();
    board.seclusion = board
        .features
        .iter()
        .map(|f| {
            made.as_ref()
                .and_then(|m| {
                    let k = m.features.iter().position(|g| g.pos == f.pos)?;
                    m.seclusion.get(k).copied()
                })
                .unwrap_or(0)
        })
        .collect();
}

impl PayloadV8 {
    /// Version 7's game with its run's features' seclusion (one a feature of a run's floor,
    /// none otherwise).
    fn into_game(self, version: u32) -> Result<GameState, String> {
        let mut game = self.v7.into_game(version)?;
        let Board::Grid(board) = &mut game.board else {
            if self.seclusion.is_empty() {
                return Ok(game);
            }
            return Err("seclusion is stored for a run's features only".into());
        };
        let expected = if board.run.is_some() {
            board.features.len()
        } else {
            0
        };
        if self.seclusion.len() != expected {
            return Err(format!(
                "{} seclusions stored for {expected} features",
                self.seclusion.len()
            ));
        }
        let max = (board.terrain.width() * board.terrain.height()) as u32;
        if self.seclusion.iter().any(|&s| s > max) {
            return Err(format!(
                "a feature's seclusion is more than the floor's {max} tiles"
            ));
        }
        board.seclusion = self.seclusion;
        Ok(game)
    }
}

impl PayloadV7 {
    /// Version 6's game with its message log; the summary must be the game's.
    fn into_game(self, version: u32) -> Result<GameState, String> {
        let mut game = self.v6.into_game(version)?;
        if self
            .log
            .iter()
            .any(|m| m.is_empty() || m.chars().count() > MAX_MESSAGE_CHARS)
        {
            return Err(format!(
                "a message of the log is empty or longer than {MAX_MESSAGE_CHARS} characters"
            ));
        }
        game.log = self.log.into();
        if SummaryV7::of(&game) != self.summary {
            return Err("its summary does not describe the game it holds".into());
        }
        Ok(game)
    }
}

impl PayloadV6 {
    /// Version 5's game with an exploration's monsters.
    fn into_game(self, version: u32) -> Result<GameState, String> {
        if self.encounters.is_some() != self.v5.v4.v3.explore.is_some() {
            return Err("monsters are stored for explorations only".into());
        }
        let game = self.v5.into_game(version, self.encounters)?;
        game.explore().map_or(Ok(()), ExploreState::check)?;
        Ok(game)
    }
}

impl PayloadV4 {
    /// Version 3's game with each feature's paid bit (and an exploration's monsters from
    /// version 6 on).
    fn into_game(self, version: u32, encounters: Option<Encounters>) -> Result<GameState, String> {
        let mut game = self.v3.into_game(version, encounters)?;
        set_paid(&mut game, &self.paid)?;
        Ok(game)
    }
}

impl PayloadV5 {
    /// Version 4's game with the whole generator settings.
    fn into_game(self, version: u32, encounters: Option<Encounters>) -> Result<GameState, String> {
        let settings = self.v4.v3.settings.with_tail(self.settings);
        settings.validate().map_err(|e| e.to_string())?;
        let mut game = self.v4.into_game(version, encounters)?;
        game.settings = settings;
        Ok(game)
    }
}

/// Every feature of a game, in the order format 4 stores their paid bits.
fn features_mut(game: &mut GameState) -> Box<dyn Iterator<Item = &mut Feature> + '_> {
    match &mut game.board {
        Board::Grid(g) => Box::new(g.features.iter_mut()),
        Board::Explore(e) => Box::new(e.items_mut()),
    }
}

/// Sets each feature's paid bit from `bits` (format 4); a feature handled now has paid.
fn set_paid(game: &mut GameState, bits: &[u8]) -> Result<(), String> {
    let n = features_mut(game).count();
    let paid = unpack(bits, n).ok_or("the paid bits do not fit the features")?;
    for (f, paid) in features_mut(game).zip(paid) {
        if f.handled && !paid {
            return Err(format!(
                "a {} at {} is handled but was never paid",
                f.kind_name(),
                f.pos
            ));
        }
        f.paid = paid;
    }
    Ok(())
}

/// Decodes a whole payload of one version.
fn decode_payload<'a, P: Deserialize<'a>>(body: &'a [u8]) -> Result<P, String> {
    let (payload, used): (P, usize) =
        bincode::serde::borrow_decode_from_slice(body, bincode_config())
            .map_err(|e| format!("cannot decode the game state: {e}"))?;
    if used != body.len() {
        return Err("the game state is shorter than its payload".into());
    }
    Ok(payload)
}

/// Decodes a whole postcard payload (format 7 on). Variable-length fields are borrowed from
/// the bytes before they are copied, so a declared length is checked against the bytes
/// really there before anything is allocated.
fn decode_postcard<'a, P: Deserialize<'a>>(body: &'a [u8]) -> Result<P, String> {
    let (payload, rest) = postcard::take_from_bytes::<P>(body)
        .map_err(|e| format!("cannot decode the game state: {e}"))?;
    if !rest.is_empty() {
        return Err("the game state is shorter than its payload".into());
    }
    Ok(payload)
}

/// The checks every version shares: the payload states the header's version (`(payload,
/// header)`), and the size, settings and seed are in range.
fn check_common(
    (stated, version): (u32, u32),
    (width, height): (u32, u32),
    settings: &SettingsV1,
    seed: u64,
) -> Result<(usize, usize), String> {
    if stated != version {
        return Err(format!(
            "the payload says format version {stated}, the header {version}"
        ));
    }
    let (width, height) = (width as usize, height as usize);
    generator::check_size(width, height).map_err(|e| e.to_string())?;
    settings.settings().validate().map_err(|e| e.to_string())?;
    if seed > MAX_SEED {
        return Err(format!("seed {seed} is above {MAX_SEED}"));
    }
    Ok((width, height))
}

/// The actions of a history `<kind><seed>S` + one canonical key per action.
fn actions_of(history: &str, kind: char, seed: u64, moves: u64) -> Result<Vec<Action>, String> {
    let prefix = format!("{kind}{seed}S");
    let actions = history
        .strip_prefix(&prefix)
        .and_then(|keys| {
            keys.chars()
                .map(|k| Action::from_key(k).filter(|a| a.key() == k))
                .collect::<Option<Vec<_>>>()
        })
        .ok_or_else(|| format!("the key history is not {kind}<seed>S followed by moves"))?;
    if actions.len() as u64 != moves {
        return Err(format!(
            "the move count {moves} does not match the {} moves in the key history",
            actions.len()
        ));
    }
    Ok(actions)
}

impl PayloadV3 {
    /// Checks that the payload describes a consistent game and builds it: an exploration by
    /// its own checks, a classic game or a run as version 2 does.
    fn into_game(self, version: u32, encounters: Option<Encounters>) -> Result<GameState, String> {
        let Some(stored) = self.explore else {
            let v2 = PayloadV2 {
                format_version: self.format_version,
                seed: self.seed,
                width: self.width,
                height: self.height,
                settings: self.settings,
                terrain: self.terrain,
                avatar: self.avatar,
                exit: self.exit,
                rng: self.rng,
                status: self.status,
                moves: self.moves,
                history: self.history,
                features: self.features,
                run: self.run,
                visited: self.visited,
                seen: self.seen,
            };
            return v2.into_game(version);
        };
        if self.format_version != version {
            return Err(format!(
                "the payload says format version {}, the header {version}",
                self.format_version
            ));
        }
        self.settings
            .settings()
            .validate()
            .map_err(|e| e.to_string())?;
        // Saved before monsters existed (formats 3 to 5): it plays on without them.
        let explore = ExploreState::join(stored, encounters.unwrap_or_else(Encounters::off));
        if self.seed > MAX_SEED || explore.dungeon().seed() != self.seed {
            return Err(format!("seed {} is not the exploration's", self.seed));
        }
        if self.width != 0
            || self.height != 0
            || !self.terrain.is_empty()
            || !self.features.is_empty()
            || self.run.is_some()
            || !self.visited.is_empty()
            || !self.seen.is_empty()
        {
            return Err("an exploration keeps its tiles in its rooms, not in a world".into());
        }
        let ended = match explore.end() {
            None => LevelStatus::Playing,
            Some(crate::explore::play::ExploreEnd::Banked) => LevelStatus::Won,
            Some(crate::explore::play::ExploreEnd::Lost { .. }) => LevelStatus::Lost,
        };
        if ended != self.status {
            return Err("the exploration's end does not match its status".into());
        }
        explore.check()?;
        let actions = actions_of(&self.history, 'E', self.seed, self.moves)?;
        Ok(GameState {
            seed: self.seed,
            settings: self.settings.settings(),
            rng: self.rng,
            status: self.status,
            moves: self.moves,
            actions,
            board: Board::Explore(Box::new(explore)),
            log: VecDeque::new(),
        })
    }
}

impl PayloadV2 {
    /// Checks that the payload describes a consistent game and builds it.
    fn into_game(self, version: u32) -> Result<GameState, String> {
        let (width, height) = check_common(
            (self.format_version, version),
            (self.width, self.height),
            &self.settings,
            self.seed,
        )?;
        let tiles = self
            .terrain
            .iter()
            .map(|&id| match Tile::from_id(id) {
                Some(t @ (Tile::Floor | Tile::Wall | Tile::Nothing)) => Ok(t),
                _ => Err(format!(
                    "tile id {id} is not terrain (floor, wall or nothing)"
                )),
            })
            .collect::<Result<Vec<Tile>, String>>()?;
        let terrain = World::from_tiles(width, height, tiles).ok_or_else(|| {
            format!(
                "{} tiles stored for a {width} × {height} world",
                self.terrain.len()
            )
        })?;
        if !terrain.get(self.avatar).is_some_and(Tile::is_walkable) {
            return Err(format!("the avatar at {} is not on floor", self.avatar));
        }
        if terrain.get(self.exit) != Some(Tile::Wall) {
            return Err(format!("the exit at {} is not set into a wall", self.exit));
        }
        let mut seen: Vec<Pos> = Vec::with_capacity(self.features.len());
        for f in &self.features {
            if !terrain.get(f.pos).is_some_and(Tile::is_walkable) || seen.contains(&f.pos) {
                return Err(format!(
                    "a {} at {} is not on its own floor tile",
                    f.kind_name(),
                    f.pos
                ));
            }
            seen.push(f.pos);
        }
        let kind = match &self.run {
            Some(r) => {
                check_run(r, self.status)?;
                'R'
            }
            None => {
                if !self.features.is_empty() || self.status == LevelStatus::Lost {
                    return Err("a classic game has no features and cannot be lost".into());
                }
                'N'
            }
        };
        let actions = actions_of(&self.history, kind, self.seed, self.moves)?;
        let n = width * height;
        let visited = unpack(&self.visited, n).ok_or("the visited tiles do not fit the world")?;
        let seen = unpack(&self.seen, n).ok_or("the seen tiles do not fit the world")?;
        if !visited[terrain.index(self.avatar)] {
            return Err("the avatar stands on a tile it never visited".into());
        }
        Ok(GameState {
            seed: self.seed,
            settings: self.settings.settings(),
            rng: self.rng,
            status: self.status,
            moves: self.moves,
            actions,
            board: Board::Grid(GridBoard {
                terrain,
                avatar: self.avatar,
                exit: self.exit,
                features: self.features,
                run: self.run,
                visited,
                seen,
                seclusion: Vec::new(),
            }),
            log: VecDeque::new(),
        })
    }
}

/// A run's own numbers in range and in agreement with the status.
fn check_run(r: &RunState, status: LevelStatus) -> Result<(), String> {
    if !(1..=run::MAX_FLOORS).contains(&r.floors) || !(1..=r.floors).contains(&r.floor) {
        return Err(format!(
            "floor {} of {} is not a floor of a run",
            r.floor, r.floors
        ));
    }
    generator::check_size(r.max_width as usize, r.max_height as usize)
        .map_err(|e| e.to_string())?;
    if r.health > run::START_HEALTH {
        return Err(format!(
            "health {} is above {}",
            r.health,
            run::START_HEALTH
        ));
    }
    if (status == LevelStatus::Lost) != r.loss.is_some() {
        return Err("the run's loss does not match its status".into());
    }
    Ok(())
}

impl PayloadV1 {
    /// Checks that the payload describes a consistent game and builds it: the composed
    /// tiles are split back into terrain (FLOOR under the avatar, WALL under the exit) and
    /// things, and the history into actions.
    fn into_game(self, version: u32) -> Result<GameState, String> {
        let (width, height) = check_common(
            (self.format_version, version),
            (self.width, self.height),
            &self.settings,
            self.seed,
        )?;
        let tiles = self
            .tiles
            .iter()
            .map(|&id| Tile::from_id(id).ok_or_else(|| format!("unknown tile id {id}")))
            .collect::<Result<Vec<Tile>, String>>()?;
        let terrain = World::from_tiles(width, height, tiles).ok_or_else(|| {
            format!(
                "{} tiles stored for a {width} × {height} world",
                self.tiles.len()
            )
        })?;
        if terrain.get(self.avatar) != Some(Tile::Player) || terrain.count(Tile::Player) != 1 {
            return Err(format!(
                "the world does not hold exactly one avatar, at {}",
                self.avatar
            ));
        }
        let door = match self.status {
            LevelStatus::Playing => Tile::LockedDoor,
            LevelStatus::Won => Tile::UnlockedDoor,
            LevelStatus::Lost => return Err("a version 1 save cannot be lost".into()),
        };
        if terrain.get(self.exit) != Some(door) {
            return Err(format!("no {door:?} exit at {}", self.exit));
        }
        let terrain = terrain_under(terrain, self.avatar, self.exit);
        if terrain
            .tiles()
            .iter()
            .any(|t| !matches!(t, Tile::Floor | Tile::Wall | Tile::Nothing))
        {
            return Err(
                "a version 1 world holds only floor, wall, nothing, an avatar and an exit".into(),
            );
        }
        let actions = actions_of(&self.history, 'N', self.seed, self.moves)?;
        let game = GameState {
            seed: self.seed,
            settings: self.settings.settings(),
            rng: self.rng,
            status: self.status,
            moves: self.moves,
            actions,
            board: Board::Grid(GridBoard::new(
                terrain,
                self.avatar,
                self.exit,
                Vec::new(),
                None,
            )),
            log: VecDeque::new(),
        };
        Ok(with_memory_from_history(game))
    }
}

/// A version-1 game (saved before memory was) with its memory rebuilt by replaying its
/// history from the start: a classic game's own world, made again from its seed. If the
/// replay does not end where the save is (a save edited by hand), the game keeps only what
/// the avatar sees from where it stands.
fn with_memory_from_history(mut game: GameState) -> GameState {
    let Board::Grid(board) = &game.board else {
        return game;
    };
    let (width, height) = (board.terrain.width(), board.terrain.height());
    if let Ok(mut replayed) = GameState::new(game.seed, width, height, game.settings) {
        for &a in &game.actions {
            replayed.apply(a);
        }
        if let (Board::Grid(saved), Board::Grid(memory)) = (&mut game.board, replayed.board)
            && memory.terrain == saved.terrain
            && memory.avatar == saved.avatar
            && memory.features == saved.features
        {
            saved.visited = memory.visited;
            saved.seen = memory.seen;
        }
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crate::explore::ExploreSettings;
    use byog_worlds::generator::GeneratorSettings;

    /// A save made under rules version 3, when three potions could be carried, still loads
    /// with its three (today's games carry two at most: `MAX_POTIONS_SAVED`) and plays on;
    /// a fourth is refused as a save byog never made.
    #[test]
    fn an_old_save_carrying_three_potions_still_loads() {
        use crate::explore::monsters::{MAX_POTIONS, MAX_POTIONS_SAVED};
        let mut game = GameState::new_exploration(
            42,
            GeneratorSettings::default(),
            ExploreSettings::default(),
        )
        .unwrap();
        game.apply(Action::Move(byog_tile_engine::Direction::Up));
        const { assert!(MAX_POTIONS < MAX_POTIONS_SAVED) };
        game.explore_mut().unwrap().encounters_mut().potions = MAX_POTIONS_SAVED;
        let mut loaded = decode(&encode(&game), Path::new("old.bin")).expect("three potions load");
        assert_eq!(loaded, game);
        assert_eq!(loaded.explore().unwrap().potions(), MAX_POTIONS_SAVED);
        assert!(
            loaded
                .apply(Action::Move(byog_tile_engine::Direction::Down))
                .changed_game()
        );
        game.explore_mut().unwrap().encounters_mut().potions = MAX_POTIONS_SAVED + 1;
        assert!(decode(&encode(&game), Path::new("bad.bin")).is_err());
    }

    /// A save of `payload` in `version`'s codec, with a correct header and checksum.
    fn wrap(version: u32, body: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(body);
        let crc = crc32fast::hash(&out[MAGIC.len()..]);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// `E7S` walked north up the start room, short of its exit: no branch made yet.
    fn exploration() -> GameState {
        let mut game =
            GameState::new_exploration(7, GeneratorSettings::default(), ExploreSettings::default())
                .unwrap();
        for key in "WWWWW".chars() {
            game.apply(Action::from_key(key).unwrap());
        }
        game
    }

    /// The fuzz case of issue 31 (a 425-byte exploration save with a correct checksum, found
    /// by the `load_save` target): the avatar stands in the start room while its map is a
    /// branch with no room whose bounds are upside down, so the world it is drawn in has no
    /// tiles and the avatar is at (6, -2), outside it. Built here in both codecs, format 6
    /// (bincode) and format 7 (postcard): both are refused, naming the file.
    #[test]
    fn an_exploration_with_its_avatar_outside_its_world_is_refused() {
        let game = exploration();
        assert_eq!(game.explore().unwrap().branch(), None);
        let bytes = encode(&game);
        let mut p: PayloadV7 =
            postcard::from_bytes(&bytes[HEADER_LEN..bytes.len() - CHECKSUM_LEN]).unwrap();
        let explore = p.v6.v5.v4.v3.explore.take().unwrap();
        // The avatar's map: branch 0 (JSON edits the fields by name).
        let mut json = serde_json::to_value(&explore).unwrap();
        assert_eq!(json["branch"], serde_json::Value::Null);
        json["branch"] = serde_json::json!(0);
        let explore: StoredExploration = serde_json::from_value(json).unwrap();
        // Branch 0, with no room and upside-down bounds (0, 1, 0, 0), spliced into the
        // dungeon's postcard bytes: its empty list of branches and four empty start exits are
        // its last five bytes, the bounds an empty branch's last four (zigzag varints).
        let whole = postcard::to_allocvec(&explore).unwrap();
        let dungeon = postcard::to_allocvec(&explore.dungeon).unwrap();
        assert!(whole.starts_with(&dungeon) && dungeon.ends_with(&[0; 5]));
        let mut branch = postcard::to_allocvec(&crate::explore::orchestrator::Branch::new(
            7,
            0,
            byog_tile_engine::Direction::Up,
            0,
        ))
        .unwrap();
        assert!(branch.ends_with(&[0; 5]));
        let n = branch.len();
        branch[n - 3] = 2;
        let mut spliced = dungeon[..dungeon.len() - 5].to_vec();
        spliced.push(1);
        spliced.extend_from_slice(&branch);
        spliced.extend_from_slice(&[0; 4]);
        spliced.extend_from_slice(&whole[dungeon.len()..]);
        p.v6.v5.v4.v3.explore = Some(postcard::from_bytes(&spliced).unwrap());

        let mut v6 = PayloadV6 {
            v5: p.v6.v5,
            encounters: p.v6.encounters,
        };
        v6.v5.v4.v3.format_version = 6;
        let body6 = bincode::serde::encode_to_vec(&v6, bincode_config()).unwrap();
        v6.v5.v4.v3.format_version = 7;
        let p = PayloadV7 {
            summary: p.summary,
            v6,
            log: p.log,
        };
        let body7 = postcard::to_allocvec(&p).unwrap();
        let path = Path::new("saves/save.bin");
        for (version, body) in [(6, body6), (7, body7)] {
            let bytes = wrap(version, &body);
            let err = match decode(&bytes, path) {
                Ok(g) => panic!(
                    "format {version}, {} bytes: loads with the avatar at {} of a {:?} world",
                    bytes.len(),
                    g.avatar(),
                    g.rect()
                ),
                Err(e) => e.to_string(),
            };
            assert!(
                err.contains("saves/save.bin") && err.contains("world"),
                "format {version}: {err}"
            );
        }
    }

    #[test]
    fn the_summary_at_the_start_of_the_payload_is_the_games() {
        let mut game = exploration();
        game.log_message("the first message");
        let bytes = encode(&game);
        let prefix = &bytes[HEADER_LEN..HEADER_LEN + 64.min(bytes.len() - HEADER_LEN)];
        let summary = summary_of(prefix, Path::new("x")).unwrap();
        assert_eq!(summary, super::super::SaveSummary::of(&game));
        let back = decode(&bytes, Path::new("x")).unwrap();
        assert_eq!(back.log().iter().collect::<Vec<_>>(), ["the first message"]);
        assert_eq!(back, game);
    }
}
