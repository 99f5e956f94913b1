//! The front-end session both the window and the terminal play through.
//!
//! So far: [`SaveCheck`], which knows whether the save can be loaded, for the menu, and
//! [`PlayError`], why a front-end could not play.

use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::core::save::FileStore;
use crate::core::watch::WatchError;
use crate::screens::SaveState;

/// Why keyboard play, in the window or the terminal, could not start or had to stop. Every
/// message says what failed and, where it helps, what works instead.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// `play --terminal` with standard output not a terminal.
    #[error(
        "byog play --terminal needs a terminal, and standard output is not one \
         (`byog replay INPUT` prints worlds anywhere)"
    )]
    NotATerminal,
    /// No display to open the window on (neither `DISPLAY` nor `WAYLAND_DISPLAY` set).
    #[error("cannot open the window: no display (DISPLAY and WAYLAND_DISPLAY are not set)")]
    NoDisplay,
    /// The window could not open (no X server answering, no OpenGL): the reason given.
    #[error("cannot open the window ({0}); `byog replay` and `byog gen` work without one")]
    Window(String),
    /// `--watch` with no save to watch, or one that cannot be watched.
    #[error("cannot watch the save: {0}")]
    Watch(#[from] WatchError),
    /// The terminal failed: setting it up, reading its events or writing to it (the
    /// terminal is restored first).
    #[error("{doing}: {source}")]
    Terminal {
        /// What was being done, e.g. "cannot set up the terminal".
        doing: &'static str,
        /// The operating system's reason.
        source: io::Error,
    },
    /// `--screenshot` could not write its PNG.
    #[error("cannot write the screenshot {}: {source}", path.display())]
    Screenshot {
        /// The PNG's path as given.
        path: PathBuf,
        /// The encoder's or the file system's reason.
        source: image::ImageError,
    },
}

impl PlayError {
    /// Whether the window could not open at all (the terminal may still play).
    pub fn is_no_window(&self) -> bool {
        matches!(self, PlayError::NoDisplay | PlayError::Window(_))
    }
}

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
