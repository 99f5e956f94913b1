//! The save file: atomic writes (a temporary file in the same folder, flushed, synced and
//! renamed over the old save, so a failed or interrupted save leaves the previous one
//! intact) and careful reads (only a regular file, at most [`MAX_SAVE_BYTES`]). Loading
//! never changes or deletes the file.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::format::{MAX_SAVE_BYTES, decode, encode};
use super::{SAVE_FILE_NAME, SaveError, SaveStore};
use crate::game::GameState;

/// A save file: the slot `NAME` is `DIR/NAME.bin`; the default slot is `DIR/save.bin`.
#[derive(Debug, Clone)]
pub struct FileStore {
    path: PathBuf,
}

impl FileStore {
    /// The store for `save_dir/save.bin`: the default slot.
    pub fn in_dir(save_dir: impl AsRef<Path>) -> Self {
        FileStore {
            path: save_dir.as_ref().join(SAVE_FILE_NAME),
        }
    }

    /// The store for slot `name` of `save_dir`: `save_dir/NAME.bin`.
    ///
    /// # Errors
    /// The reason, when `name` is no slot name ([`super::check_slot_name`]).
    pub fn slot(save_dir: impl AsRef<Path>, name: &str) -> Result<Self, String> {
        super::check_slot_name(name)?;
        Ok(FileStore {
            path: save_dir.as_ref().join(format!("{name}.bin")),
        })
    }

    /// The slot's name: the file's name without `.bin`.
    pub fn slot_name(&self) -> String {
        self.path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
    }

    /// The save file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether a save file (or something in its place) exists.
    pub fn exists(&self) -> bool {
        self.path.exists()
    }

    /// The save folder (`.` for a bare file name).
    pub fn folder(&self) -> PathBuf {
        match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        }
    }

    /// The save's bytes, `None` when there is no save. Only a regular file is read (a
    /// symlink is followed to one), at most [`MAX_SAVE_BYTES`]: a directory, a FIFO, a device
    /// or an oversized file is refused without reading it (`docs/saves.md`).
    ///
    /// # Errors
    /// [`SaveError::IsDirectory`], [`SaveError::NotAFile`], [`SaveError::TooLarge`],
    /// [`SaveError::FolderIsAFile`] or [`SaveError::Read`].
    pub fn read_bytes(&self) -> Result<Option<Vec<u8>>, SaveError> {
        let read_err = |source: io::Error| SaveError::Read {
            path: self.path.clone(),
            source,
        };
        let meta = match fs::metadata(&self.path) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                check_folder(&self.folder())?;
                return Ok(None);
            }
            Err(e) if e.raw_os_error() == Some(20) => {
                // ENOTDIR: something not a folder stands where the save folder should be.
                check_folder(&self.folder())?;
                return Err(read_err(e));
            }
            Err(e) => return Err(read_err(e)),
        };
        self.check_regular(&meta)?;
        // Opened without blocking, so a FIFO swapped in after the check cannot hang the
        // open; checked again on the open file, then read through a bounded reader.
        let file = open_nonblocking(&self.path).map_err(read_err)?;
        self.check_regular(&file.metadata().map_err(read_err)?)?;
        let mut bytes = Vec::with_capacity(meta.len().min(MAX_SAVE_BYTES) as usize);
        file.take(MAX_SAVE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(read_err)?;
        if bytes.len() as u64 > MAX_SAVE_BYTES {
            return Err(SaveError::TooLarge {
                path: self.path.clone(),
                size: bytes.len() as u64,
            });
        }
        Ok(Some(bytes))
    }

    fn check_regular(&self, meta: &fs::Metadata) -> Result<(), SaveError> {
        let path = self.path.clone();
        let kind = meta.file_type();
        if kind.is_dir() {
            return Err(SaveError::IsDirectory { path });
        }
        if !kind.is_file() {
            return Err(SaveError::NotAFile {
                path,
                kind: describe(&kind),
            });
        }
        if meta.len() > MAX_SAVE_BYTES {
            return Err(SaveError::TooLarge {
                path,
                size: meta.len(),
            });
        }
        Ok(())
    }

    /// Writes `bytes` atomically: a temporary file in the same folder (created if missing),
    /// flushed and synced, then renamed over the save. A symlink in the save's place is
    /// followed: the file it points at is replaced and the link stays (as loading follows
    /// it); what is not a regular file (a FIFO, a device, a folder) is refused, never
    /// replaced.
    ///
    /// # Errors
    /// [`SaveError::Write`], [`SaveError::IsDirectory`], [`SaveError::NotAFile`] or
    /// [`SaveError::FolderIsAFile`]; the previous save is intact.
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
        check_folder(&self.folder())?;
        let target = self.write_target().map_err(write_err)?;
        match fs::metadata(&target) {
            Ok(meta) => {
                let kind = meta.file_type();
                if kind.is_dir() {
                    return Err(SaveError::IsDirectory { path: target });
                }
                if !kind.is_file() {
                    return Err(SaveError::NotAFile {
                        path: target,
                        kind: describe(&kind),
                    });
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(write_err(e)),
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        check_folder(&dir)?;
        fs::create_dir_all(&dir).map_err(write_err)?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".save-")
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(write_err)?;
        write(tmp.as_file_mut()).map_err(write_err)?;
        tmp.flush().map_err(write_err)?;
        keep_permissions(&target, tmp.as_file());
        tmp.as_file().sync_all().map_err(write_err)?;
        tmp.persist(&target).map_err(|e| write_err(e.error))?;
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
/// One slot of a save folder, as the menu lists it.
#[derive(Debug, Clone)]
pub struct Slot {
    /// Its name (`save` for `save.bin`).
    pub name: String,
    /// What it holds, or why it cannot be read.
    pub summary: Result<super::SaveSummary, String>,
    /// When it was last written.
    pub modified: Option<std::time::SystemTime>,
}

/// The slots of `save_dir`: every `NAME.bin` whose name is a slot name, sorted by name (a
/// missing folder has none). Each is read to say what it holds.
pub fn slots(save_dir: impl AsRef<Path>) -> Vec<Slot> {
    let Ok(entries) = fs::read_dir(save_dir.as_ref()) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".bin")?.to_owned();
            super::check_slot_name(&stem).is_ok().then_some(stem)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .filter_map(|name| {
            let store = FileStore::slot(save_dir.as_ref(), &name).ok()?;
            let summary = match store.load() {
                Ok(Some(game)) => Ok(super::SaveSummary::of(&game)),
                Ok(None) => return None,
                Err(e) => Err(e.to_string()),
            };
            let modified = fs::metadata(store.path()).and_then(|m| m.modified()).ok();
            Some(Slot {
                name,
                summary,
                modified,
            })
        })
        .collect()
}

impl FileStore {
    /// The file a save is written to: the save's path, or where the symlinks at that path
    /// lead (a dangling link's target is created), so a link in the save's place stays.
    fn write_target(&self) -> io::Result<PathBuf> {
        let mut path = self.path.clone();
        // Bounded, as the system's own resolution is: a loop of links is an error.
        for _ in 0..40 {
            match fs::symlink_metadata(&path) {
                Ok(m) if m.file_type().is_symlink() => {
                    let link = fs::read_link(&path)?;
                    path = match path.parent() {
                        Some(dir) if link.is_relative() => dir.join(link),
                        _ => link,
                    };
                }
                _ => return Ok(path),
            }
        }
        Err(io::Error::other(format!(
            "{} is a loop of symbolic links",
            self.path.display()
        )))
    }
}

/// Refuses a save folder that exists but is not a folder (a file, or a device such as
/// `/dev/null`).
fn check_folder(dir: &Path) -> Result<(), SaveError> {
    match fs::metadata(dir) {
        Ok(m) if !m.is_dir() => Err(SaveError::FolderIsAFile {
            path: dir.to_path_buf(),
            kind: if m.is_file() {
                "a file"
            } else {
                describe(&m.file_type())
            },
        }),
        _ => Ok(()),
    }
}

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
        match self.read_bytes()? {
            Some(bytes) => decode(&bytes, &self.path).map(Some),
            None => Ok(None),
        }
    }

    fn save(&mut self, game: &GameState) -> Result<(), SaveError> {
        self.write_bytes(&encode(game))
    }

    fn location(&self) -> PathBuf {
        self.path.clone()
    }

    fn has_save(&self) -> bool {
        self.exists()
    }
}

/// What a file type is, in words, for [`SaveError::NotAFile`].
fn describe(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = kind;
    "not a file"
}

/// Opens `path` for reading; on Unix with `O_NONBLOCK`, so opening a FIFO never waits for a
/// writer.
fn open_nonblocking(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}
