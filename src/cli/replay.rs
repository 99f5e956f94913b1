//! `byog replay INPUT` (and `byog INPUT`): feeds an input string to the interpreter headless,
//! prints the world (or the JSON state), and writes the save on `:Q`.

use std::io;
use std::path::{Path, PathBuf};

use clap::Args;

use super::args::Common;
use super::{CliError, Format, format_of, json, shown, write_stdout};
use crate::core::interpreter::Interpreter;
use crate::core::replay;
use crate::core::save::FileStore;

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
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,
    /// Short for --format json.
    #[arg(long)]
    pub json: bool,
    /// What the text shows: the whole world (plain, the default), or only what the avatar
    /// sees and remembers (sight; unseen tiles are blank).
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
pub fn run(common: &Common, args: ReplayArgs) -> Result<(), CliError> {
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
    let mut store = FileStore::in_dir(common.save_dir()?);
    let mut shown_reports = 0usize;
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
    let run = result.map_err(|e| CliError::Usage(e.to_string()))?;
    if run.reported > MAX_REPORTS_SHOWN {
        eprintln!(
            "byog: warning: {} more keys ignored ({} in all)",
            run.reported - MAX_REPORTS_SHOWN,
            run.reported
        );
    }
    if run.nothing_to_load {
        eprintln!(
            "byog: no saved game at {}; nothing to load",
            shown(store.path())
        );
    }
    if let Some(summary) = interpreter.game().and_then(crate::screens::run_summary) {
        eprintln!("byog: {summary}");
    }
    if format == Format::Json {
        let state = json::state(&interpreter);
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

/// The keys in a file (`-`: standard input), line breaks removed. Only a regular file (or
/// standard input) is read, up to [`MAX_KEY_FILE_BYTES`].
fn read_keys(path: &Path) -> Result<String, CliError> {
    let fail =
        |why: String| CliError::Usage(format!("cannot read keys from {}: {why}", shown(path)));
    let text = if path.as_os_str() == "-" {
        let mut text = String::new();
        io::Read::read_to_string(
            &mut io::Read::take(io::stdin(), MAX_KEY_FILE_BYTES),
            &mut text,
        )
        .map_err(|e| fail(e.to_string()))?;
        text
    } else {
        let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
        if !meta.is_file() {
            return Err(fail("it is not a regular file".into()));
        }
        if meta.len() > MAX_KEY_FILE_BYTES {
            return Err(fail(format!(
                "it is {} bytes, more than the {MAX_KEY_FILE_BYTES} a key file may hold",
                meta.len()
            )));
        }
        std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?
    };
    Ok(text.chars().filter(|c| !matches!(c, '\n' | '\r')).collect())
}
