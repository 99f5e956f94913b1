//! The store the agent plays with: `L` reads a slot of the save folder, once a session, and
//! every save is refused (an agent never saves, `docs/agent.md`).

use std::cell::RefCell;
use std::io;
use std::path::PathBuf;

use byog_game::GameState;
use byog_game::save::{FileStore, SaveError, SaveStore};

/// The agent's save store: `L` reads the slot of the save folder (once a session: every
/// later load sees that same game), and a save is refused.
#[derive(Debug)]
pub(super) struct ReadOnlyStore {
    /// The slot's file, or why the slot name is none.
    file: Option<Result<FileStore, (PathBuf, String)>>,
    /// The game the first load found (`Some(None)`: none), kept for every later load.
    loaded: RefCell<Option<Option<GameState>>>,
    /// Whether a save was asked for (and refused) since the flag was last cleared.
    pub(super) save_refused: bool,
}

impl ReadOnlyStore {
    /// The store of slot `slot` of `dir` (`None`: `L` finds no save).
    pub(super) fn new(dir: Option<&PathBuf>, slot: &str) -> Self {
        ReadOnlyStore {
            file: dir.map(|d| FileStore::slot(d, slot).map_err(|why| (d.join(slot), why))),
            loaded: RefCell::new(None),
            save_refused: false,
        }
    }
}

impl SaveStore for ReadOnlyStore {
    fn load(&self) -> Result<Option<GameState>, SaveError> {
        if let Some(game) = &*self.loaded.borrow() {
            return Ok(game.clone());
        }
        let game = match &self.file {
            Some(Ok(file)) => file.load()?,
            Some(Err((path, why))) => {
                return Err(SaveError::Read {
                    path: path.clone(),
                    source: io::Error::new(io::ErrorKind::InvalidInput, why.clone()),
                });
            }
            None => None,
        };
        *self.loaded.borrow_mut() = Some(game.clone());
        Ok(game)
    }

    fn save(&mut self, _game: &GameState) -> Result<(), SaveError> {
        self.save_refused = true;
        Err(SaveError::Write {
            path: self.location(),
            source: io::Error::other("an agent session never saves"),
        })
    }

    fn location(&self) -> PathBuf {
        match &self.file {
            Some(Ok(file)) => file.location(),
            Some(Err((path, _))) => path.clone(),
            None => PathBuf::new(),
        }
    }

    fn has_save(&self) -> bool {
        match &*self.loaded.borrow() {
            Some(game) => game.is_some(),
            None => matches!(&self.file, Some(Ok(file)) if file.has_save()),
        }
    }
}
