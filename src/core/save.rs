//! Saves (`../shared/SPEC.md`, section 4): a checked binary file written atomically.
//!
//! Layout, all integers little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `BYOGSAVE` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 8 | payload length `n` in bytes |
//! | n | payload: the `bincode` 2 (serde, standard config) encoding of the game state |
//! | 4 | CRC-32 (IEEE) of the version, length and payload bytes |
//!
//! The payload holds the format version, seed, world size, generator settings, tiles, avatar,
//! exit, the random generator's state, the level status, the move count and the canonical key
//! history since `N`. An 80 × 30 game takes about 2.5 KiB plus one byte a move.
//!
//! Writing goes to a temporary file in the same folder, which is flushed, synced and renamed
//! over the old save, so a failed or interrupted save leaves the previous one intact. Loading
//! only reads.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::game::{GameRng, GameState, LevelStatus};
use super::generator::{self, GeneratorSettings};
use crate::tile_engine::{Pos, Tile, World};

/// The first 8 bytes of every save.
pub const MAGIC: &[u8; 8] = b"BYOGSAVE";
/// The save format this build writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;
/// File name of the save inside the save folder.
pub const SAVE_FILE_NAME: &str = "save.bin";
/// Default save folder, relative to the current directory.
pub const DEFAULT_SAVE_DIR: &str = "saves";

const HEADER_LEN: usize = 8 + 4 + 8;
const CHECKSUM_LEN: usize = 4;
/// Upper bound on what `bincode` may allocate while decoding a payload (1 GiB: a 16384 ×
/// 16384 world is 256 MiB of tiles).
const DECODE_LIMIT: usize = 1 << 30;

/// Why a save could not be read or written. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Reading failed (permissions, I/O error).
    #[error("cannot read the save {}: {source}", path.display())]
    Read {
        /// The save file.
        path: PathBuf,
        /// The operating system's reason.
        source: io::Error,
    },
    /// Writing failed; the previous save, if any, is unchanged.
    #[error("cannot write the save {}: {source} (the previous save, if any, is unchanged)", path.display())]
    Write {
        /// The save file.
        path: PathBuf,
        /// The operating system's reason.
        source: io::Error,
    },
    /// A directory stands where the save file should be.
    #[error("{} is a directory, not a save file: move it away or choose another --save-dir", path.display())]
    IsDirectory {
        /// The save file's path.
        path: PathBuf,
    },
    /// The file does not start with the magic header.
    #[error("{} is not a byog save (it does not start with the BYOGSAVE header)", path.display())]
    NotASave {
        /// The file.
        path: PathBuf,
    },
    /// The file ends before its header or payload does.
    #[error("the save {} is truncated: {detail}", path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
        /// What is missing.
        detail: String,
    },
    /// The checksum does not match the content: the file was damaged.
    #[error("the save {} is damaged: checksum {computed:08x} does not match the stored {stored:08x}", path.display())]
    Checksum {
        /// The file.
        path: PathBuf,
        /// The CRC-32 stored in the file.
        stored: u32,
        /// The CRC-32 of the bytes read.
        computed: u32,
    },
    /// The save was written by a newer byog.
    #[error("the save {} has format version {found}, newer than this byog reads ({supported}): update byog", path.display())]
    FutureVersion {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// [`FORMAT_VERSION`].
        supported: u32,
    },
    /// The payload does not decode into a consistent game.
    #[error("the save {} is damaged: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is inconsistent.
        reason: String,
    },
}

/// Where games are saved and loaded from. The interpreter uses this, so the same keys work
/// with a file ([`FileStore`]) or in memory ([`MemoryStore`], for tests).
pub trait SaveStore {
    /// The saved game, `Ok(None)` when there is none.
    ///
    /// # Errors
    /// [`SaveError`] when a save exists but cannot be read or is damaged.
    fn load(&self) -> Result<Option<GameState>, SaveError>;

    /// Saves `game`, replacing any previous save.
    ///
    /// # Errors
    /// [`SaveError::Write`] (or [`SaveError::IsDirectory`]); the previous save is then intact.
    fn save(&mut self, game: &GameState) -> Result<(), SaveError>;

    /// Where the save lives, for messages.
    fn location(&self) -> PathBuf;
}

/// The on-disk form of a game (format version 1).
#[derive(Serialize, Deserialize)]
struct Payload {
    format_version: u32,
    seed: u64,
    width: u32,
    height: u32,
    settings: GeneratorSettings,
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
// anything is allocated (issue 6, found with the load_save fuzz target: docs/robustness.md).
// Decoded as owned values, bincode allocates a `String`'s declared length (zeroed) before
// reading it, so a 46-byte file declaring a 1 GiB history made `decode` allocate 1 GiB; and
// serde reserves up to 1 MiB for a declared `Vec` length. The bytes on disk are the same
// either way (a length, then one byte an element), so saves written before this still load.

fn bytes_from_file<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    <&'de [u8]>::deserialize(d).map(<[u8]>::to_vec)
}

fn string_from_file<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    <&'de str>::deserialize(d).map(str::to_owned)
}

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<DECODE_LIMIT>()
}

/// Encodes a game as the bytes of a save file.
pub fn encode(game: &GameState) -> Vec<u8> {
    let payload = Payload {
        format_version: FORMAT_VERSION,
        seed: game.seed,
        width: game.world.width() as u32,
        height: game.world.height() as u32,
        settings: game.settings,
        tiles: game.world.tiles().iter().map(|t| t.id()).collect(),
        avatar: game.avatar,
        exit: game.exit,
        rng: game.rng.clone(),
        status: game.status,
        moves: game.moves,
        history: game.history.clone(),
    };
    // Encoding into a Vec cannot fail: every field is a plain value and the world is far
    // below the limit. Should it ever, an empty payload fails its own checks on load.
    let body = bincode::serde::encode_to_vec(&payload, bincode_config()).unwrap_or_default();
    let mut out = Vec::with_capacity(HEADER_LEN + body.len() + CHECKSUM_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    let crc = crc32fast::hash(&out[MAGIC.len()..]);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Decodes the bytes of a save file; `path` is only used in errors.
///
/// # Errors
/// [`SaveError::NotASave`], [`SaveError::Truncated`], [`SaveError::FutureVersion`],
/// [`SaveError::Checksum`] or [`SaveError::Corrupt`]; never a panic, whatever the bytes.
pub fn decode(bytes: &[u8], path: &Path) -> Result<GameState, SaveError> {
    let path = || path.to_path_buf();
    let truncated = |detail: String| SaveError::Truncated {
        path: path(),
        detail,
    };
    if bytes.len() < MAGIC.len() {
        return Err(if MAGIC.starts_with(bytes) {
            truncated(format!("{} bytes, shorter than the header", bytes.len()))
        } else {
            SaveError::NotASave { path: path() }
        });
    }
    if &bytes[..MAGIC.len()] != MAGIC {
        return Err(SaveError::NotASave { path: path() });
    }
    if bytes.len() < HEADER_LEN {
        return Err(truncated(format!(
            "{} bytes, shorter than the {HEADER_LEN}-byte header",
            bytes.len()
        )));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap_or_default());
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
    let declared = u64::from_le_bytes(bytes[12..20].try_into().unwrap_or_default());
    let available = (bytes.len() - HEADER_LEN) as u64;
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
    let (payload, used): (Payload, usize) =
        bincode::serde::decode_from_slice(&bytes[HEADER_LEN..end], bincode_config())
            .map_err(|e| corrupt(format!("cannot decode the game state: {e}")))?;
    if used != end - HEADER_LEN {
        return Err(corrupt("the game state is shorter than its payload".into()));
    }
    payload.into_game().map_err(corrupt)
}

impl Payload {
    /// Checks that the payload describes a consistent game and builds it.
    fn into_game(self) -> Result<GameState, String> {
        if self.format_version != FORMAT_VERSION {
            return Err(format!(
                "the payload says format version {}, the header {FORMAT_VERSION}",
                self.format_version
            ));
        }
        let (width, height) = (self.width as usize, self.height as usize);
        generator::check_size(width, height).map_err(|e| e.to_string())?;
        self.settings.validate().map_err(|e| e.to_string())?;
        if self.seed > super::game::MAX_SEED {
            return Err(format!(
                "seed {} is above {}",
                self.seed,
                super::game::MAX_SEED
            ));
        }
        let tiles = self
            .tiles
            .iter()
            .map(|&id| Tile::from_id(id).ok_or_else(|| format!("unknown tile id {id}")))
            .collect::<Result<Vec<Tile>, String>>()?;
        let world = World::from_tiles(width, height, tiles).ok_or_else(|| {
            format!(
                "{} tiles stored for a {width} × {height} world",
                self.tiles.len()
            )
        })?;
        if !world.contains(self.avatar) {
            return Err(format!(
                "the avatar at {} is outside the world",
                self.avatar
            ));
        }
        if world.get(self.avatar) != Some(Tile::Player) || world.count(Tile::Player) != 1 {
            return Err(format!(
                "the world does not hold exactly one avatar, at {}",
                self.avatar
            ));
        }
        let exit_tile = match self.status {
            LevelStatus::Playing => Tile::LockedDoor,
            LevelStatus::Won => Tile::UnlockedDoor,
        };
        if world.get(self.exit) != Some(exit_tile) {
            return Err(format!("no {:?} exit at {}", exit_tile, self.exit));
        }
        let prefix = format!("N{}S", self.seed);
        if !self.history.starts_with(&prefix)
            || !self.history[prefix.len()..]
                .chars()
                .all(|c| matches!(c, 'W' | 'A' | 'S' | 'D'))
        {
            return Err("the key history is not N<seed>S followed by moves".into());
        }
        let recorded = (self.history.len() - prefix.len()) as u64;
        if recorded != self.moves {
            return Err(format!(
                "the move count {} does not match the {recorded} moves in the key history",
                self.moves
            ));
        }
        Ok(GameState {
            seed: self.seed,
            settings: self.settings,
            world,
            avatar: self.avatar,
            exit: self.exit,
            rng: self.rng,
            status: self.status,
            moves: self.moves,
            history: self.history,
        })
    }
}

/// The save file `DIR/save.bin`.
#[derive(Debug, Clone)]
pub struct FileStore {
    path: PathBuf,
}

impl FileStore {
    /// The store for `save_dir/save.bin`.
    pub fn in_dir(save_dir: impl AsRef<Path>) -> Self {
        FileStore {
            path: save_dir.as_ref().join(SAVE_FILE_NAME),
        }
    }

    /// The save file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether a save file (or something in its place) exists.
    pub fn exists(&self) -> bool {
        self.path.exists()
    }

    /// Writes `bytes` atomically: a temporary file in the same folder (created if missing),
    /// flushed and synced, then renamed over the save.
    ///
    /// # Errors
    /// [`SaveError::Write`] or [`SaveError::IsDirectory`]; the previous save is intact.
    pub fn write_bytes(&self, bytes: &[u8]) -> Result<(), SaveError> {
        self.write_with(|file| file.write_all(bytes))
    }

    /// [`FileStore::write_bytes`] with the writing of the temporary file's content left to
    /// `write`: the seam tests use to simulate a full disk or a write that fails midway. When
    /// `write` fails, the temporary file is removed and the previous save is untouched.
    ///
    /// # Errors
    /// As [`FileStore::write_bytes`].
    pub fn write_with(
        &self,
        write: impl FnOnce(&mut fs::File) -> io::Result<()>,
    ) -> Result<(), SaveError> {
        let write_err = |source: io::Error| SaveError::Write {
            path: self.path.clone(),
            source,
        };
        if self.path.is_dir() {
            return Err(SaveError::IsDirectory {
                path: self.path.clone(),
            });
        }
        let dir = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&dir).map_err(write_err)?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".save-")
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(write_err)?;
        write(tmp.as_file_mut()).map_err(write_err)?;
        tmp.flush().map_err(write_err)?;
        keep_permissions(&self.path, tmp.as_file());
        tmp.as_file().sync_all().map_err(write_err)?;
        tmp.persist(&self.path).map_err(|e| write_err(e.error))?;
        // Make the rename itself durable; not every platform can open a folder, so this is
        // best effort.
        if let Ok(d) = fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// Gives the new save the old one's permissions, or `rw-r--r--` for a first save (temporary
/// files are created `rw-------`). Best effort: a failure here never fails the save.
fn keep_permissions(old: &Path, new: &fs::File) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(old).map_or(0o644, |m| m.permissions().mode() & 0o777);
        let _ = new.set_permissions(fs::Permissions::from_mode(mode));
    }
    #[cfg(not(unix))]
    let _ = (old, new);
}

impl SaveStore for FileStore {
    fn load(&self) -> Result<Option<GameState>, SaveError> {
        if self.path.is_dir() {
            return Err(SaveError::IsDirectory {
                path: self.path.clone(),
            });
        }
        match fs::read(&self.path) {
            Ok(bytes) => decode(&bytes, &self.path).map(Some),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(SaveError::Read {
                path: self.path.clone(),
                source,
            }),
        }
    }

    fn save(&mut self, game: &GameState) -> Result<(), SaveError> {
        self.write_bytes(&encode(game))
    }

    fn location(&self) -> PathBuf {
        self.path.clone()
    }
}

/// A save kept in memory (the same bytes a file would hold), for tests and embedding.
#[derive(Debug, Clone, Default)]
pub struct MemoryStore {
    /// The save file's bytes, `None` when nothing was saved.
    pub bytes: Option<Vec<u8>>,
}

impl SaveStore for MemoryStore {
    fn load(&self) -> Result<Option<GameState>, SaveError> {
        self.bytes
            .as_deref()
            .map(|b| decode(b, &self.location()))
            .transpose()
    }

    fn save(&mut self, game: &GameState) -> Result<(), SaveError> {
        self.bytes = Some(encode(game));
        Ok(())
    }

    fn location(&self) -> PathBuf {
        PathBuf::from("<memory>")
    }
}

/// Loads from `inner` but keeps saves in memory until [`DeferredStore::commit`]: `replay`
/// uses it so that `--strict` can refuse an input string without having saved anything.
pub struct DeferredStore<'a, S: SaveStore> {
    inner: &'a mut S,
    pending: Option<GameState>,
}

impl<'a, S: SaveStore> DeferredStore<'a, S> {
    /// Wraps `inner`.
    pub fn new(inner: &'a mut S) -> Self {
        DeferredStore {
            inner,
            pending: None,
        }
    }

    /// Writes the pending save, if any, to the wrapped store; returns whether it wrote one.
    ///
    /// # Errors
    /// The wrapped store's [`SaveError`].
    pub fn commit(self) -> Result<bool, SaveError> {
        match self.pending {
            Some(game) => self.inner.save(&game).map(|()| true),
            None => Ok(false),
        }
    }
}

impl<S: SaveStore> SaveStore for DeferredStore<'_, S> {
    fn load(&self) -> Result<Option<GameState>, SaveError> {
        match &self.pending {
            Some(game) => Ok(Some(game.clone())),
            None => self.inner.load(),
        }
    }

    fn save(&mut self, game: &GameState) -> Result<(), SaveError> {
        self.pending = Some(game.clone());
        Ok(())
    }

    fn location(&self) -> PathBuf {
        self.inner.location()
    }
}
