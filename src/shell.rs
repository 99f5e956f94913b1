//! The front-end session both the window and the terminal play through.
//!
//! So far: [`SaveCheck`], which knows whether the save can be loaded, for the menu.

use std::path::Path;
use std::time::SystemTime;

use crate::core::save::FileStore;
use crate::screens::SaveState;

/// A file's size and modification time (`None`: no file, or none that can be read).
type Stamp = Option<(u64, Option<SystemTime>)>;

/// What the menu offers of the save ([`SaveState`]), read again only when the save file
/// changed (its size or modification time): a stat a frame, a read only now and then.
#[derive(Debug, Clone, Default)]
pub struct SaveCheck {
    /// The file's size and modification time when last read (`None`: no file then), and
    /// what the read found.
    last: Option<(Stamp, SaveState)>,
}

impl SaveCheck {
    /// The save's state now, read again when the file changed since the last call.
    pub fn state(&mut self, store: &FileStore) -> &SaveState {
        let stamp = stamp(store.path());
        match &mut self.last {
            Some((was, _)) if *was == stamp => {}
            last => *last = Some((stamp, SaveState::of(store))),
        }
        &self.last.as_ref().expect("just set").1
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
