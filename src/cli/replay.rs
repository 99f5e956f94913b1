//! `byog replay INPUT` (and `byog INPUT`): feeds an input string to the interpreter headless,
//! prints the world (or the JSON state), and writes the save on `:Q`.

use std::cell::RefCell;
use std::io;
use std::path::{Path, PathBuf};

use clap::Args;

use super::args::Common;
use super::{CliError, Format, format_of, shown, write_stdout};
use byog_game::GameState;
use byog_game::interpreter::Interpreter;
use byog_game::replay;
use byog_game::save::{SaveError, SaveStore};

/// How many ignored keys `replay` reports one by one before it only counts them.
const MAX_REPORTS_SHOWN: usize = 20;
/// The largest key file `--file` reads (1 GiB: a billion keys).
const MAX_KEY_FILE_BYTES: u64 = 1 << 30;

/// `replay`'s own flags.
#[derive(Debug, Clone, Args)]
pub struct ReplayArgs {
    /// The keys, e.g. N1234SSSSS:Q (case-insensitive).
    #[arg(
        value_name = "INPUT",
        required_unless_present = "file",
        conflicts_with = "file"
    )]
    input: Option<String>,
    #[command(flatten)]
    flags: ReplayFlags,
}

/// The flags of a replay, taken by `byog replay INPUT` and by its short form `byog INPUT`
/// alike (`byog --json N1S` is `byog replay --json N1S`).
#[derive(Debug, Clone, Default, Args)]
pub struct ReplayFlags {
    /// Read the keys from a file instead (`-` for standard input; a pipe such as
    /// `<(echo N5SDD)` too), for input strings longer than a command line holds; line breaks
    /// are ignored.
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// Stop at the first ignored or refused key, or at an input that ends mid-command
    /// (exit 2, nothing saved).
    #[arg(long)]
    pub strict: bool,
    /// What to print: the world as text, or the game's state as one JSON object.
    #[arg(long, value_name = "FORMAT", value_parser = super::text_or_json())]
    pub format: Option<Format>,
    /// Short for --format json.
    #[arg(long)]
    pub json: bool,
    /// What is shown: the whole world (plain, the default), or only what the avatar sees and
    /// remembers (sight; unseen tiles are blank; with --format json, only the seen rows,
    /// exit and features, and the HUD's numbers).
    #[arg(long, value_enum, value_name = "VIEW")]
    pub view: Option<ReplayView>,
}

impl ReplayFlags {
    /// The flags given, as typed (`--json`, `--file`, …), for messages that refuse them.
    pub fn given(&self) -> Vec<&'static str> {
        let mut given = Vec::new();
        if self.file.is_some() {
            given.push("--file");
        }
        if self.strict {
            given.push("--strict");
        }
        if self.format.is_some() {
            given.push("--format");
        }
        if self.json {
            given.push("--json");
        }
        if self.view.is_some() {
            given.push("--view");
        }
        given
    }
}

/// `replay --view`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReplayView {
    /// The whole world, as `to_string` prints it.
    Plain,
    /// Only what has been seen (docs/sight.md); never-seen tiles are spaces.
    Sight,
}

impl ReplayArgs {
    /// The arguments of `byog INPUT`: the input string (or none, with `--file`) and the
    /// replay flags given before or after it.
    pub fn of(input: Option<String>, flags: ReplayFlags) -> ReplayArgs {
        ReplayArgs { input, flags }
    }
}

/// Runs `replay`.
pub fn execute(common: &Common, args: ReplayArgs) -> Result<(), CliError> {
    let ReplayArgs { input, flags: args } = args;
    let format = format_of(args.format, args.json);
    if format == Format::None {
        return Err(CliError::Usage(
            "replay prints text or json (--format none is for gen)".into(),
        ));
    }
    let input = match (input, args.file) {
        (Some(input), _) => input,
        (None, Some(path)) => read_keys(&path)?,
        (None, None) => return Err(CliError::Usage("replay needs INPUT or --file".into())),
    };
    let strict = args.strict;
    let mut interpreter = Interpreter::new(common.width, common.height, common.settings())
        .with_floors(common.floors)
        .with_explore(common.explore_settings());
    let mut file = common.store()?;
    let mut store = Watched::new(&mut file);
    let mut shown_reports = 0usize;
    let notice = super::progress::Notice::after("making worlds and floors for the input");
    let result = replay::replay(
        &mut interpreter,
        &input,
        &mut store,
        strict,
        &mut |report| {
            if shown_reports < MAX_REPORTS_SHOWN {
                eprintln!("byog: warning: {report}");
            }
            shown_reports += 1;
        },
    );
    drop(notice);
    let run = result.map_err(|e| CliError::Usage(super::errors::replay(&e)))?;
    if run.reported > MAX_REPORTS_SHOWN {
        eprintln!(
            "byog: warning: {} more keys ignored ({} in all)",
            run.reported - MAX_REPORTS_SHOWN,
            run.reported
        );
    }
    if let Some(game) = interpreter.game() {
        common.report_unused(game.kind().key(), store.loaded(game));
    }
    if let Some(replaced) = interpreter.replaced() {
        eprintln!("byog: saved to {}; {replaced}", shown(store.inner.path()));
    }
    if run.nothing_to_load {
        eprintln!(
            "byog: no saved game at {}; nothing to load",
            shown(store.inner.path())
        );
    }
    if let Some(summary) = interpreter
        .game()
        .and_then(byog_shell::screens::run_summary)
    {
        eprintln!("byog: {summary}");
    }
    if format == Format::Json {
        let state = match args.view {
            Some(ReplayView::Sight) => byog_wire::sight_json(&interpreter),
            _ => byog_wire::state_json(&interpreter),
        };
        return write_stdout(|out| writeln!(out, "{state}"));
    }
    if let Some(game) = interpreter.game() {
        let world = match args.view.unwrap_or(ReplayView::Plain) {
            ReplayView::Plain => game.world(),
            ReplayView::Sight => game.compose_seen(game.rect()),
        };
        write_stdout(|out| write!(out, "{world}"))
    } else {
        if !run.nothing_to_load && run.closing.is_none() {
            eprintln!("byog: no world was started (start one with N<seed>S, or load one with L)");
        }
        Ok(())
    }
}

/// A save store that remembers the history of the last game it loaded, so that a replay can
/// tell a loaded game (whose own size and settings win over the flags) from a new one.
pub struct Watched<'a, S: SaveStore> {
    /// The store itself.
    pub inner: &'a mut S,
    loaded: RefCell<Option<String>>,
}

impl<'a, S: SaveStore> Watched<'a, S> {
    /// Watches `inner`.
    pub fn new(inner: &'a mut S) -> Self {
        Watched {
            inner,
            loaded: RefCell::new(None),
        }
    }

    /// Whether `game` is the game last loaded, played on: its history goes on from the
    /// loaded one's (a new game's starts with its own `N<seed>S`).
    pub fn loaded(&self, game: &GameState) -> bool {
        self.loaded
            .borrow()
            .as_ref()
            .is_some_and(|h| game.history().starts_with(h.as_str()))
    }
}

impl<S: SaveStore> SaveStore for Watched<'_, S> {
    fn load(&self) -> Result<Option<GameState>, SaveError> {
        let game = self.inner.load()?;
        if let Some(game) = &game {
            *self.loaded.borrow_mut() = Some(game.history());
        }
        Ok(game)
    }

    fn save(&mut self, game: &GameState) -> Result<(), SaveError> {
        self.inner.save(game)
    }

    fn location(&self) -> PathBuf {
        self.inner.location()
    }

    fn has_save(&self) -> bool {
        self.inner.has_save()
    }
}

/// The keys in a file (`-`: standard input), line breaks removed. A regular file is read up
/// to [`MAX_KEY_FILE_BYTES`]; so is a pipe (`<(echo N5SDD)`, a FIFO made with `mkfifo`),
/// until its writer closes it, provided something writes to it or closes it within
/// [`PIPE_WAIT`]: a FIFO nothing ever opens for writing would never end. Anything else (a
/// folder, a device, a socket) is refused.
fn read_keys(path: &Path) -> Result<String, CliError> {
    let fail =
        |why: String| CliError::Usage(format!("cannot read keys from {}: {why}", shown(path)));
    let bytes = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        io::Read::read_to_end(
            &mut io::Read::take(io::stdin(), MAX_KEY_FILE_BYTES + 1),
            &mut bytes,
        )
        .map_err(|e| fail(e.to_string()))?;
        bytes
    } else {
        let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
        if is_pipe(&meta) {
            read_pipe(path, PIPE_WAIT).map_err(fail)?
        } else if meta.is_file() {
            if meta.len() > MAX_KEY_FILE_BYTES {
                return Err(fail(too_long(meta.len())));
            }
            std::fs::read(path).map_err(|e| fail(e.to_string()))?
        } else {
            return Err(fail(format!(
                "it is {}, not a file or a pipe",
                super::args::file_kind(&meta)
            )));
        }
    };
    if bytes.len() as u64 > MAX_KEY_FILE_BYTES {
        return Err(fail(too_long(bytes.len() as u64)));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "it is not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(text.chars().filter(|c| !matches!(c, '\n' | '\r')).collect())
}

/// How long `--file` waits for a pipe's writer to write or close before giving up.
pub const PIPE_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// "it holds more than …": the message for a key file over [`MAX_KEY_FILE_BYTES`].
fn too_long(bytes: u64) -> String {
    format!("it is {bytes} bytes or more, more than the {MAX_KEY_FILE_BYTES} a key file may hold")
}

/// Whether `meta` is a pipe (a FIFO, or an anonymous pipe seen through `/dev/fd`).
fn is_pipe(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// Reads a pipe to its end: opened without blocking (so a FIFO with no writer cannot hang
/// the open), then read as data comes. Until the writer first writes or closes, it waits at
/// most `wait`; after that, as long as the writer keeps the pipe open (a slow writer ends
/// when it closes it).
///
/// # Errors
/// A sentence: nothing wrote within `wait`, more than [`MAX_KEY_FILE_BYTES`], or the
/// operating system's reason.
#[cfg(unix)]
fn read_pipe(path: &Path, wait: std::time::Duration) -> Result<Vec<u8>, String> {
    use std::io::Read;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;

    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !is_pipe(&meta) {
        return Err("it stopped being a pipe while it was opened".into());
    }
    let deadline = std::time::Instant::now() + wait;
    let mut heard = false;
    let mut bytes = Vec::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let timeout = if heard {
            -1
        } else {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            i32::try_from(left.as_millis()).unwrap_or(i32::MAX)
        };
        let mut fd = libc::pollfd {
            fd: file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, on a descriptor `file` keeps open, for the call.
        #[allow(unsafe_code, reason = "libc's poll: std has no read with a timeout")]
        let ready = unsafe { libc::poll(&mut fd, 1, timeout) };
        if ready < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e.to_string());
        }
        if ready == 0 {
            return Err(format!(
                "it is a pipe with no writer: nothing wrote to it or closed it within {} \
                 seconds (start the program that writes the keys first, or give a file)",
                wait.as_secs()
            ));
        }
        heard = true;
        match file.read(&mut buffer) {
            Ok(0) => return Ok(bytes),
            Ok(n) => {
                bytes.extend_from_slice(&buffer[..n]);
                if bytes.len() as u64 > MAX_KEY_FILE_BYTES {
                    return Err(too_long(bytes.len() as u64));
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) => {}
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// Pipes are read only on Unix; elsewhere they are refused like any other special file.
#[cfg(not(unix))]
fn read_pipe(_path: &Path, _wait: std::time::Duration) -> Result<Vec<u8>, String> {
    Err("it is a pipe, which byog reads only on Unix".into())
}
