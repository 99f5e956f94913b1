//! Saves (`docs/saves.md`): where games are kept ([`SaveStore`]: a file,
//! memory, or a deferred wrapper), and why a save could not be read or written
//! ([`SaveError`]). The bytes themselves are stated in one place, [`mod@format`]; the file
//! handling (atomic writes, reading only regular files up to a size limit) in `file.rs`
//! ([`FileStore`]).

mod check;
mod file;
pub mod format;
mod partial;

pub use file::{FileStore, OLD_SUMMARY_BYTES, SUMMARY_PREFIX, Slot, slots};
pub use format::{
    CHECKSUM_LEN, FORMAT_VERSION, HEADER_LEN, Header, MAGIC, MAX_SAVE_BYTES, decode, encode,
    read_header,
};
pub use partial::{STALE_AGE, sweep};

use std::io;
use std::path::PathBuf;

use super::base::GameKind;
use super::game::GameState;

/// File name of the save inside the save folder: the default slot's.
pub const SAVE_FILE_NAME: &str = "save.bin";
/// The default slot (`--slot`): its file is [`SAVE_FILE_NAME`].
pub const DEFAULT_SLOT: &str = "save";
/// The longest slot name, in characters.
pub const MAX_SLOT_NAME: usize = 32;

/// Checks a slot name: 1 to [`MAX_SLOT_NAME`] letters, digits, `-` or `_` (so that the slot's
/// file, `NAME.bin`, is a plain file name in the save folder on every system).
///
/// # Errors
/// The reason, in a player's words.
pub fn check_slot_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.chars().count() > MAX_SLOT_NAME {
        return Err(format!(
            "a slot name is 1 to {MAX_SLOT_NAME} characters long"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Err(format!(
            "a slot name holds letters, digits, '-' and '_' only, not {c:?}"
        ));
    }
    Ok(())
}
/// Default save folder, relative to the current directory.
pub const DEFAULT_SAVE_DIR: &str = "saves";

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
    /// Something other than a regular file stands where the save should be (a FIFO, a
    /// device, a socket): it is never opened.
    #[error("{} is not a regular file ({kind}): byog reads saves only from regular files; move it away or choose another --save-dir", path.display())]
    NotAFile {
        /// The save file's path.
        path: PathBuf,
        /// What it is instead, e.g. "a FIFO".
        kind: &'static str,
    },
    /// A symbolic link stands where the save should be written, and byog does not write
    /// through it: it is another user's, dangling, or leads to something other than a regular
    /// file ([`byog_tile_engine::files`]).
    #[error("cannot write the save {}: {refusal} (the previous save, if any, is unchanged)", path.display())]
    Link {
        /// The save file's path (the link).
        path: PathBuf,
        /// Why, naming the link and its target.
        refusal: String,
    },
    /// A save of formats 1 to 6 larger than [`OLD_SUMMARY_BYTES`]: the slot list does not
    /// read it to say what it holds (it loads as usual).
    #[error("the save {} (format {version}, {size} bytes) says what it holds once it is loaded", path.display())]
    NotSummarised {
        /// The file.
        path: PathBuf,
        /// Its format version.
        version: u32,
        /// Its size in bytes.
        size: u64,
    },
    /// The file is larger than any save ([`MAX_SAVE_BYTES`]).
    #[error("the save {} is {size} bytes, more than the {MAX_SAVE_BYTES} bytes a save can hold: it is not a byog save", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// The save folder is not a folder (a file or a device such as `/dev/null` stands at its
    /// path).
    #[error("the save folder {} is not a folder (it is {kind}): choose another --save-dir (or BYOG_SAVE_DIR)", path.display())]
    FolderIsAFile {
        /// The folder's path.
        path: PathBuf,
        /// What it is instead, e.g. "a file" or "a character device".
        kind: &'static str,
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

/// What a save holds, in a few words: the kind of game, its seed, how far it went. The
/// menu and the messages about a replaced save name a save by it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveSummary {
    /// Classic game, run or exploration.
    pub kind: GameKind,
    /// The game's seed.
    pub seed: u64,
    /// Steps taken.
    pub moves: u64,
    /// A run's floor (1-based) and floors; `None` for other games.
    pub floor: Option<(u32, u32)>,
    /// Whether the game has ended (won or lost).
    pub ended: bool,
}

impl SaveSummary {
    /// The summary of `game`.
    pub fn of(game: &GameState) -> SaveSummary {
        SaveSummary {
            kind: game.kind(),
            seed: game.seed(),
            moves: game.moves(),
            floor: game.run().map(|r| (r.floor, r.floors)),
            ended: game.has_ended(),
        }
    }
}

impl std::fmt::Display for SaveSummary {
    /// "the run R7S (B2/10, 35 moves)", "the game N42S (ended, 12 moves)".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the {} {}{}S (",
            self.kind.noun(),
            self.kind.key(),
            self.seed
        )?;
        if let Some((floor, floors)) = self.floor {
            write!(f, "B{floor}/{floors}, ")?;
        }
        if self.ended {
            f.write_str("ended, ")?;
        }
        let plural = if self.moves == 1 { "" } else { "s" };
        write!(f, "{} move{plural})", self.moves)
    }
}

/// What a `:Q` wrote over, when it was not an earlier save of the same game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replaced {
    /// The save of another game.
    Other(SaveSummary),
    /// A save that could not be read (damaged, or of a newer byog), with the reason.
    Unreadable(String),
}

impl std::fmt::Display for Replaced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Replaced::Other(s) => write!(f, "it replaced the save of {s}"),
            Replaced::Unreadable(why) => {
                write!(f, "it replaced a save that could not be read ({why})")
            }
        }
    }
}

/// What saving `game` over what `store` holds replaces: nothing when the store is empty or
/// holds an earlier point of the same game (its history is the start of `game`'s).
pub fn replaced_by(store: &dyn SaveStore, game: &GameState) -> Option<Replaced> {
    match store.load() {
        Ok(None) => None,
        Ok(Some(old)) if game.history().starts_with(&old.history()) => None,
        Ok(Some(old)) => Some(Replaced::Other(SaveSummary::of(&old))),
        Err(e) => Some(Replaced::Unreadable(e.to_string())),
    }
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

    /// Whether a save (or something in its place) is there to load; the menu greys out
    /// "Load" without one. Never reads it.
    fn has_save(&self) -> bool;
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

    fn has_save(&self) -> bool {
        self.bytes.is_some()
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

    fn has_save(&self) -> bool {
        self.pending.is_some() || self.inner.has_save()
    }
}
