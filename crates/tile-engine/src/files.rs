//! Writing over files byog may not have made: where a write to a path lands, and what is
//! refused (`docs/saves.md`, "Writing never damages the previous save"). Saves (`:Q`), PNG
//! pictures (`gen --png`) and screenshots (`play --screenshot`) share these rules:
//!
//! - a regular file, or nothing, at the path: written there (atomically, by the caller: a
//!   temporary file in the same folder renamed over it);
//! - a symbolic link: followed, link by link, only when each link is owned by the user running
//!   byog (the rule of Linux's `fs.protected_symlinks`, which stops a link planted by someone
//!   else from redirecting a write) and the last one leads to an existing regular file, which
//!   is replaced while the links stay; a dangling link is refused, and no folder is ever made
//!   for one;
//! - anything else (a folder, a FIFO, a device, a socket) is refused and never opened, so a
//!   FIFO with no reader cannot block and a device such as `/dev/full` is never replaced.
//!
//! The check runs before the temporary file is made; the rename at the end replaces a
//! directory entry and never writes into whatever was swapped in since.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Why a write to a path was refused.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// A folder stands at the path.
    #[error("{} is a folder, not a file", path.display())]
    Directory {
        /// The folder.
        path: PathBuf,
    },
    /// Something other than a regular file or a folder stands at the path.
    #[error("{} is not a regular file ({kind}): byog writes only regular files", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is, e.g. "a FIFO" ([`describe`]).
        kind: &'static str,
    },
    /// A symbolic link that byog does not write through.
    #[error(
        "{} is a symbolic link to {}, {why}: byog writes through a link only when you own it \
         and it leads to an existing regular file; remove the link or choose another path",
        link.display(),
        target.display()
    )]
    Link {
        /// The link.
        link: PathBuf,
        /// Where it points (as written in the link, joined to the link's folder when
        /// relative).
        target: PathBuf,
        /// Why it is not followed, in words: "which does not exist", "owned by another user
        /// (uid 1001)", "which is a FIFO", "a loop of links".
        why: String,
    },
    /// The path could not be examined.
    #[error("cannot examine {}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
}

/// The most links followed before a chain counts as a loop (Linux's own limit).
const MAX_LINKS: usize = 40;

/// Where a write to `path` lands under the rules of this module: `path` itself when nothing
/// or a regular file stands there, or the regular file a chain of links owned by the user
/// leads to.
///
/// # Errors
/// [`Refusal`]: a folder, a non-regular file, a link byog does not follow (another user's,
/// dangling, to a non-regular file, a loop), or a path that cannot be examined.
pub fn write_target(path: &Path) -> Result<PathBuf, Refusal> {
    let mut at = path.to_path_buf();
    let mut first_link: Option<PathBuf> = None;
    for _ in 0..=MAX_LINKS {
        let meta = match fs::symlink_metadata(&at) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return match first_link {
                    None => Ok(at),
                    Some(link) => Err(Refusal::Link {
                        link,
                        target: at,
                        why: "which does not exist".into(),
                    }),
                };
            }
            Err(source) => return Err(Refusal::Io { path: at, source }),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let link_path = at.clone();
            let pointed = fs::read_link(&at).map_err(|source| Refusal::Io {
                path: at.clone(),
                source,
            })?;
            let next = match at.parent() {
                Some(dir) if pointed.is_relative() => dir.join(&pointed),
                _ => pointed,
            };
            if let Some(owner) = foreign_owner(&meta) {
                return Err(Refusal::Link {
                    link: link_path,
                    target: next,
                    why: format!("and the link is owned by another user (uid {owner})"),
                });
            }
            first_link.get_or_insert(link_path);
            at = next;
            continue;
        }
        if kind.is_file() {
            return Ok(at);
        }
        let refusal = match &first_link {
            Some(link) => Refusal::Link {
                link: link.clone(),
                target: at,
                why: if kind.is_dir() {
                    "which is a folder".into()
                } else {
                    format!("which is {}", describe(&kind))
                },
            },
            None if kind.is_dir() => Refusal::Directory { path: at },
            None => Refusal::NotAFile {
                path: at,
                kind: describe(&kind),
            },
        };
        return Err(refusal);
    }
    Err(Refusal::Link {
        link: path.to_path_buf(),
        target: at,
        why: format!("a chain of more than {MAX_LINKS} links (a loop)"),
    })
}

/// The owner of a link when it is not the user running byog (the effective user id, which
/// is what the kernel compares); `None` when the user owns it, and always on systems without
/// owners.
fn foreign_owner(meta: &fs::Metadata) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        #[allow(
            unsafe_code,
            reason = "libc's geteuid: std has no way to ask the user id"
        )]
        let me = unsafe { libc::geteuid() };
        (meta.uid() != me).then_some(meta.uid())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// What a file type is, in words: "a FIFO", "a character device", "a block device", "a
/// socket", "a folder", "a symbolic link", "a file".
pub fn describe(kind: &fs::FileType) -> &'static str {
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
    if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_file() {
        "a file"
    } else {
        "not a file"
    }
}

/// The folder a file at `path` lives in: its parent, or `.` for a bare name.
pub fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_plain_path_and_a_regular_file_are_written_in_place() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("a.png");
        assert_eq!(write_target(&p).unwrap(), p);
        fs::write(&p, b"x").unwrap();
        assert_eq!(write_target(&p).unwrap(), p);
    }

    #[test]
    fn an_own_link_to_a_regular_file_is_followed_through_a_chain() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real.bin");
        fs::write(&real, b"x").unwrap();
        symlink("real.bin", tmp.path().join("one")).unwrap();
        symlink(tmp.path().join("one"), tmp.path().join("two")).unwrap();
        assert_eq!(write_target(&tmp.path().join("two")).unwrap(), real);
    }

    #[test]
    fn a_dangling_link_a_loop_and_a_link_to_a_folder_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let link = tmp.path().join("dangling");
        symlink("/nonexistent/deeper/save.bin", &link).unwrap();
        let e = write_target(&link).unwrap_err().to_string();
        assert!(e.contains("dangling") && e.contains("/nonexistent/deeper/save.bin"));
        assert!(e.contains("does not exist"), "{e}");
        symlink("loop-b", tmp.path().join("loop-a")).unwrap();
        symlink("loop-a", tmp.path().join("loop-b")).unwrap();
        let e = write_target(&tmp.path().join("loop-a")).unwrap_err();
        assert!(e.to_string().contains("loop"), "{e}");
        symlink(tmp.path(), tmp.path().join("to-dir")).unwrap();
        let e = write_target(&tmp.path().join("to-dir")).unwrap_err();
        assert!(e.to_string().contains("which is a folder"), "{e}");
        let e = write_target(tmp.path()).unwrap_err();
        assert!(matches!(e, Refusal::Directory { .. }), "{e}");
    }

    #[test]
    fn a_device_is_refused() {
        let e = write_target(Path::new("/dev/null")).unwrap_err();
        assert!(
            matches!(
                e,
                Refusal::NotAFile {
                    kind: "a character device",
                    ..
                }
            ),
            "{e}"
        );
    }
}
