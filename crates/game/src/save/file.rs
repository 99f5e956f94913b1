//! The save file: atomic writes (a temporary file in the same folder, flushed, synced and
//! renamed over the old save, so a failed or interrupted save leaves the previous one
//! intact) and careful reads (only a regular file, at most [`MAX_SAVE_BYTES`]). Loading
//! never changes or deletes the file.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::format::{HEADER_LEN, MAX_SAVE_BYTES, decode, encode, read_header, summary_of};
use super::partial::Partial;
use super::{SAVE_FILE_NAME, SaveError, SaveStore};
use crate::game::GameState;
use byog_tile_engine::files::{self, Refusal};

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
    /// or an oversized file is refused without reading it (`docs/saves.md`). The header is
    /// read and checked first (magic, version, and the payload length it states against the
    /// file's size), so a file that is not a save is refused after 20 bytes, whatever its
    /// size.
    ///
    /// # Errors
    /// [`SaveError::IsDirectory`], [`SaveError::NotAFile`], [`SaveError::TooLarge`],
    /// [`SaveError::FolderIsAFile`], [`SaveError::Read`], or what
    /// [`read_header`](super::format::read_header) refuses.
    pub fn read_bytes(&self) -> Result<Option<Vec<u8>>, SaveError> {
        let Some((mut file, size, header)) = self.open_save()? else {
            return Ok(None);
        };
        read_header(&header, size, &self.path)?;
        // Asked for, not assumed: under a memory limit a large save is an error, not an abort.
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(size as usize)
            .map_err(|_| SaveError::Read {
                path: self.path.clone(),
                source: io::Error::new(
                    io::ErrorKind::OutOfMemory,
                    format!("not enough memory to read its {size} bytes"),
                ),
            })?;
        bytes.extend_from_slice(&header);
        (&mut file)
            .take(size - header.len() as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|source| SaveError::Read {
                path: self.path.clone(),
                source,
            })?;
        if bytes.len() as u64 != size {
            // Changed while it was read: the checks on the bytes themselves say how.
            read_header(&header, bytes.len() as u64, &self.path)?;
        }
        Ok(Some(bytes))
    }

    /// Opens the save for reading after the checks of [`FileStore::read_bytes`]: the open
    /// file, its size and its first [`HEADER_LEN`] bytes (fewer when it is shorter); `None`
    /// when there is no save.
    fn open_save(&self) -> Result<Option<(fs::File, u64, Vec<u8>)>, SaveError> {
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
        // open; checked again on the open file.
        let file = open_nonblocking(&self.path).map_err(read_err)?;
        let meta = file.metadata().map_err(read_err)?;
        self.check_regular(&meta)?;
        let mut header = Vec::with_capacity(HEADER_LEN);
        (&file)
            .take(HEADER_LEN as u64)
            .read_to_end(&mut header)
            .map_err(read_err)?;
        Ok(Some((file, meta.len(), header)))
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

    /// Writes `bytes` atomically: a temporary file in the same folder (the save folder is
    /// created if missing), flushed and synced, then renamed over the save. A symlink in the
    /// save's place is followed only when the user running byog owns it and it leads to an
    /// existing regular file, which is replaced while the link stays; a dangling link or
    /// another user's is refused, and no folder is made for a link. What is not a regular
    /// file (a FIFO, a device, a folder) is refused, never replaced
    /// ([`byog_tile_engine::files`]). Stale partial saves of the folder are swept first, and
    /// the temporary file is removed if a SIGINT, SIGTERM or SIGHUP arrives while it is
    /// written (`partial.rs`).
    ///
    /// # Errors
    /// [`SaveError::Write`], [`SaveError::IsDirectory`], [`SaveError::NotAFile`],
    /// [`SaveError::Link`] or [`SaveError::FolderIsAFile`]; the previous save is intact.
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
        let target = files::write_target(&self.path).map_err(|refusal| match refusal {
            Refusal::Directory { path } => SaveError::IsDirectory { path },
            Refusal::NotAFile { path, kind } => SaveError::NotAFile { path, kind },
            Refusal::Io { source, .. } => write_err(source),
            link @ Refusal::Link { .. } => SaveError::Link {
                path: self.path.clone(),
                refusal: link.to_string(),
            },
        })?;
        let dir = files::folder_of(&target);
        if target == self.path {
            // The save folder itself, never a link's.
            fs::create_dir_all(&dir).map_err(write_err)?;
        }
        let mut tmp = Partial::create(&dir).map_err(write_err)?;
        write(tmp.file()).map_err(write_err)?;
        tmp.file().flush().map_err(write_err)?;
        keep_permissions(&target, tmp.file());
        tmp.file().sync_all().map_err(write_err)?;
        tmp.persist(&target).map_err(write_err)?;
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
/// missing folder has none). Each says what it holds from its header only
/// ([`FileStore::summary`]): a folder of huge files lists at once.
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
            let summary = match store.summary() {
                Ok(Some(summary)) => Ok(summary),
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
    /// What the save holds, without loading it: the header is checked as
    /// [`FileStore::read_bytes`] checks it, then the summary is read from the start of the
    /// payload (format 7 on: at most [`SUMMARY_PREFIX`] bytes). A save of formats 1 to 6, whose
    /// payload has no summary up front, is read whole only when it is at most
    /// [`OLD_SUMMARY_BYTES`]; a larger one says its format and size. `None` when there is no
    /// save. The checksum is checked only when the whole file is read: loading checks
    /// everything.
    ///
    /// # Errors
    /// As [`FileStore::read_bytes`], [`SaveError::Corrupt`] for a summary that does not
    /// decode, [`SaveError::NotSummarised`] for a large save of formats 1 to 6.
    pub fn summary(&self) -> Result<Option<super::SaveSummary>, SaveError> {
        let Some((file, size, header)) = self.open_save()? else {
            return Ok(None);
        };
        let h = read_header(&header, size, &self.path)?;
        if h.version >= super::format::SUMMARY_VERSION {
            let mut prefix = Vec::with_capacity(SUMMARY_PREFIX);
            (&file)
                .take(SUMMARY_PREFIX.min(h.payload_len as usize) as u64)
                .read_to_end(&mut prefix)
                .map_err(|source| SaveError::Read {
                    path: self.path.clone(),
                    source,
                })?;
            return summary_of(&prefix, &self.path).map(Some);
        }
        if size > OLD_SUMMARY_BYTES {
            return Err(SaveError::NotSummarised {
                path: self.path.clone(),
                version: h.version,
                size,
            });
        }
        match self.load()? {
            Some(game) => Ok(Some(super::SaveSummary::of(&game))),
            None => Ok(None),
        }
    }
}

/// The most bytes of a payload [`FileStore::summary`] reads (a summary takes at most 40).
pub const SUMMARY_PREFIX: usize = 64;
/// The largest save of formats 1 to 6 that [`FileStore::summary`] reads whole (1 MiB; an
/// 80 × 30 game's is about 3 KiB).
pub const OLD_SUMMARY_BYTES: u64 = 1 << 20;

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
    files::describe(kind)
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
