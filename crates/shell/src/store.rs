//! Where a session keeps its games: a folder of save slots (`--save-dir`, `--slot`), or
//! nowhere but memory (the web server keeps its games as key logs instead), and what the
//! menu offers of the save ([`SaveCheck`]).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use byog_game::GameState;
use byog_game::save::{self, FileStore, MemoryStore, SaveError, SaveStore, Slot};

use crate::screens::SaveState;

/// Where a session's games are saved (`:Q`) and loaded from (`L`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Saves {
    /// A slot of folder `dir` (`save` is `save.bin`).
    Folder {
        /// The save folder.
        dir: PathBuf,
        /// The slot `:Q` saves to and `L` loads from, when one was chosen (`--slot`): `L`
        /// loads it. `None`: the default slot (`save`), and `L` at the menu lists the
        /// folder's saves when it holds more than that one.
        slot: Option<String>,
    },
    /// No file at all: `:Q` keeps the game in the session's memory only (a front-end that
    /// keeps games its own way, as the web server does by their key logs).
    None,
}

/// The store a session feeds its interpreter.
#[derive(Debug, Clone)]
pub(crate) enum SessionStore {
    File(FileStore),
    Memory(MemoryStore),
}

impl SessionStore {
    /// The store `saves` names; a slot name that is not valid falls back to the folder's
    /// default slot (the command line has refused it already).
    pub(crate) fn of(saves: &Saves) -> SessionStore {
        match saves {
            Saves::Folder { dir, slot } => SessionStore::File(
                FileStore::slot(dir, slot.as_deref().unwrap_or(save::DEFAULT_SLOT))
                    .unwrap_or_else(|_| FileStore::in_dir(dir)),
            ),
            Saves::None => SessionStore::Memory(MemoryStore::default()),
        }
    }

    /// The file store, when saves go to files.
    pub(crate) fn file(&self) -> Option<&FileStore> {
        match self {
            SessionStore::File(f) => Some(f),
            SessionStore::Memory(_) => None,
        }
    }

    /// The slot's name (`save` for `save.bin`); empty in memory.
    pub(crate) fn slot_name(&self) -> String {
        self.file().map(FileStore::slot_name).unwrap_or_default()
    }

    /// The slots of the save folder (`L`'s list); none in memory.
    pub(crate) fn slots(&self) -> Vec<Slot> {
        self.file()
            .map(|f| save::slots(f.folder()))
            .unwrap_or_default()
    }

    /// The store of slot `name` in the same folder.
    pub(crate) fn sibling(&self, name: &str) -> Option<SessionStore> {
        FileStore::slot(self.file()?.folder(), name)
            .ok()
            .map(SessionStore::File)
    }

    /// Whether something is saved there.
    pub(crate) fn exists(&self) -> bool {
        match self {
            SessionStore::File(f) => f.exists(),
            SessionStore::Memory(m) => m.has_save(),
        }
    }
}

impl SaveStore for SessionStore {
    fn load(&self) -> Result<Option<GameState>, SaveError> {
        match self {
            SessionStore::File(f) => f.load(),
            SessionStore::Memory(m) => m.load(),
        }
    }

    fn save(&mut self, game: &GameState) -> Result<(), SaveError> {
        match self {
            SessionStore::File(f) => f.save(game),
            SessionStore::Memory(m) => m.save(game),
        }
    }

    fn location(&self) -> PathBuf {
        match self {
            SessionStore::File(f) => f.location(),
            SessionStore::Memory(m) => m.location(),
        }
    }

    fn has_save(&self) -> bool {
        match self {
            SessionStore::File(f) => f.has_save(),
            SessionStore::Memory(m) => m.has_save(),
        }
    }
}

/// A file's size and modification time (`None`: no file, or none that can be read).
type Stamp = Option<(u64, Option<SystemTime>)>;

/// What the menu offers of the save ([`SaveState`]), read again only when the save file
/// changed (its size or modification time): a stat a frame, a read only now and then.
#[derive(Debug, Clone, Default)]
pub struct SaveCheck {
    /// The file's size and modification time when last read, and what the read found.
    last: Option<(Stamp, SaveState)>,
    /// The folder's modification time when its slots were last listed, and how many saves
    /// it held besides the current slot's.
    others: Option<(Stamp, usize)>,
}

impl SaveCheck {
    /// The save's state now, read again when the file changed since the last call.
    pub(crate) fn state(&mut self, store: &FileStore) -> &SaveState {
        let stamp = stamp(store.path());
        match &mut self.last {
            Some((was, _)) if *was == stamp => {}
            last => *last = Some((stamp, SaveState::of(store))),
        }
        &self.last.as_ref().expect("just set").1
    }

    /// How many saves `store`'s folder holds besides its own slot's, listed again when the
    /// folder changed (its modification time): what `L` would offer to choose from.
    pub(crate) fn others(&mut self, store: &SessionStore) -> usize {
        let Some(file) = store.file() else {
            return 0;
        };
        let stamp = stamp(&file.folder());
        match &self.others {
            Some((was, n)) if *was == stamp && stamp.is_some() => *n,
            _ => {
                let current = file.slot_name();
                let n = store.slots().iter().filter(|s| s.name != current).count();
                self.others = Some((stamp, n));
                n
            }
        }
    }

    /// The state of any store: a file's as [`SaveCheck::state`], memory's read every time
    /// (it costs nothing).
    pub(crate) fn state_of(&mut self, store: &SessionStore) -> SaveState {
        match store {
            SessionStore::File(f) => self.state(f).clone(),
            SessionStore::Memory(m) => SaveState::of(m),
        }
    }
}

/// A file's size and modification time, `None` when it cannot be read.
fn stamp(path: &Path) -> Stamp {
    std::fs::metadata(path)
        .ok()
        .map(|m| (m.len(), m.modified().ok()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_save_is_read_again_when_the_file_changes() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::in_dir(dir.path());
        let mut check = SaveCheck::default();
        assert_eq!(check.state(&store), &SaveState::Missing);
        std::fs::write(store.path(), b"not a save").unwrap();
        assert!(matches!(check.state(&store), SaveState::Unreadable(_)));
        std::fs::remove_file(store.path()).unwrap();
        assert_eq!(check.state(&store), &SaveState::Missing);
    }
}
