//! The command line (`../shared/SPEC.md`, section 5).
//!
//! | command | does |
//! |---|---|
//! | `byog` / `byog play` | opens the window at the menu |
//! | `byog INPUT` / `byog replay INPUT` | runs the input string headless, prints the world |
//! | `byog gen --seed N` / `--seeds A..B` | prints the world(s) `N<seed>S` starts |
//!
//! Exit codes: 0 success, 2 bad input, arguments or save (message on stderr), 1 internal error.
//! `replay` and `gen` never open a window.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::core::game::{GameState, HEIGHT, MAX_SEED, WIDTH};
use crate::core::generator::{self, GeneratorSettings};
use crate::core::interpreter::{Ending, Interpreter};
use crate::core::replay::{self, ReplayError};
use crate::core::save::{DEFAULT_SAVE_DIR, FileStore};
use crate::window::{self, WindowOptions};

/// How many ignored keys `replay` reports one by one before it only counts them.
const MAX_REPORTS_SHOWN: usize = 20;
/// Most seeds one `gen --seeds` run accepts.
const MAX_SEEDS_PER_RUN: u64 = 10_000_000;

/// byog: rooms-and-mazes tile worlds, played with the keyboard or replayed from input strings.
#[derive(Debug, Parser)]
#[command(
    name = "byog",
    version,
    args_conflicts_with_subcommands = true,
    disable_help_subcommand = true,
    after_help = "Examples:\n  byog                      open the window (N new, L load, Q quit)\n  byog N1234SWWDD:Q         replay keys headless, print the world, save on :Q\n  byog replay LSS           load the save and move down twice\n  byog gen --seed 42        print the world seed 42 starts\n\nKeys: N new game, digits then S start it, W A S D move, :Q save and quit, L load, Q quit."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// An input string to replay headless, e.g. N1234SWWDD:Q (short for `byog replay INPUT`).
    #[arg(value_name = "INPUT")]
    input: Option<String>,
    /// Stop at the first ignored or refused key (exit 2, nothing saved).
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    common: Common,
}

/// Flags every command takes.
#[derive(Debug, Clone, Args)]
pub struct Common {
    /// Folder of the save file save.bin (created when missing).
    #[arg(long, global = true, env = "BYOG_SAVE_DIR", value_name = "DIR", default_value = DEFAULT_SAVE_DIR)]
    save_dir: PathBuf,
    /// Width of new worlds, in tiles.
    #[arg(long, global = true, value_name = "TILES", default_value_t = WIDTH)]
    width: usize,
    /// Height of new worlds, in tiles.
    #[arg(long, global = true, value_name = "TILES", default_value_t = HEIGHT)]
    height: usize,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Open the window at the menu and play with the keyboard (the default).
    Play {
        /// Keys fed to the game before keyboard play starts, e.g. N42S.
        #[arg(long, value_name = "KEYS", default_value = "")]
        keys: String,
        /// Write a PNG of the first frame (after --keys) to PATH and exit.
        #[arg(long, value_name = "PATH")]
        screenshot: Option<PathBuf>,
    },
    /// Run an input string headless, print the world, save on :Q.
    Replay {
        /// The keys, e.g. N1234SWWDD:Q (case-insensitive).
        #[arg(value_name = "INPUT")]
        input: String,
        /// Stop at the first ignored or refused key (exit 2, nothing saved).
        #[arg(long)]
        strict: bool,
    },
    /// Print the world(s) that N<seed>S starts.
    Gen {
        /// One seed, 0..=9223372036854775807.
        #[arg(long, value_name = "N", value_parser = parse_seed, conflicts_with = "seeds", required_unless_present = "seeds")]
        seed: Option<u64>,
        /// A range of seeds: A..B (B excluded) or A..=B (B included).
        #[arg(long, value_name = "RANGE", value_parser = parse_seed_range)]
        seeds: Option<SeedRange>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

/// `gen` output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// The Java `TETile.toString` text; with --seeds, each world follows a `# seed N` line.
    Text,
    /// One JSON object per line: seed, width, height, avatar, exit, rooms, rows (top first).
    Json,
    /// Generate only (for timing).
    None,
}

/// An inclusive range of seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedRange {
    /// First seed.
    pub first: u64,
    /// Last seed (included).
    pub last: u64,
}

/// Parses a seed: a decimal integer in `0..=9223372036854775807` (Java `Long.MAX_VALUE`).
///
/// # Errors
/// A message saying what is wrong with the text.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(seed) if seed <= MAX_SEED => Ok(seed),
        Ok(_) => Err(format!(
            "seed {text} is above {MAX_SEED} (the largest Java long)"
        )),
        Err(_) => Err(format!(
            "'{text}' is not a seed: use a whole number from 0 to {MAX_SEED}"
        )),
    }
}

/// Parses `A..B` (B excluded) or `A..=B` (B included).
///
/// # Errors
/// A message for a malformed, out-of-range, empty or reversed range.
pub fn parse_seed_range(text: &str) -> Result<SeedRange, String> {
    let (a, b, inclusive) = if let Some((a, b)) = text.split_once("..=") {
        (a, b, true)
    } else if let Some((a, b)) = text.split_once("..") {
        (a, b, false)
    } else {
        return Err(format!(
            "'{text}' is not a seed range: write A..B (B excluded) or A..=B (B included)"
        ));
    };
    let first = parse_seed(a)?;
    let end = parse_seed(b)?;
    let last = if inclusive {
        Some(end)
    } else {
        end.checked_sub(1)
    };
    match last {
        Some(last) if last >= first => Ok(SeedRange { first, last }),
        _ => Err(format!(
            "seed range {text} is empty or reversed: the start must come before the end"
        )),
    }
}

/// A failure that ends the program with a message.
#[derive(Debug, thiserror::Error)]
enum CliError {
    /// Bad input, arguments or save: exit 2.
    #[error("{0}")]
    Usage(String),
    /// Something that should not happen: exit 1.
    #[error("{0}")]
    Internal(String),
}

impl CliError {
    fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Internal(_) => 1,
        }
    }
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("byog: error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    let common = cli.common;
    generator::check_size(common.width, common.height)
        .map_err(|e| CliError::Usage(format!("{e} (see --width and --height)")))?;
    match (cli.command, cli.input) {
        (Some(Command::Replay { input, strict }), _) => {
            run_replay(&common, &input, strict || cli.strict)
        }
        (None, Some(input)) => run_replay(&common, &input, cli.strict),
        (
            Some(Command::Gen {
                seed,
                seeds,
                format,
            }),
            _,
        ) => {
            let range = match (seed, seeds) {
                (Some(s), _) => SeedRange { first: s, last: s },
                (None, Some(r)) => r,
                (None, None) => {
                    return Err(CliError::Usage("gen needs --seed N or --seeds A..B".into()));
                }
            };
            run_gen(&common, range, seed.is_none(), format)
        }
        (Some(Command::Play { keys, screenshot }), _) => run_play(&common, keys, screenshot),
        (None, None) => run_play(&common, String::new(), None),
    }
}

fn run_play(common: &Common, keys: String, screenshot: Option<PathBuf>) -> Result<(), CliError> {
    window::run(WindowOptions {
        width: common.width,
        height: common.height,
        settings: GeneratorSettings::default(),
        save_dir: common.save_dir.clone(),
        keys,
        screenshot,
    })
    .map_err(CliError::Usage)
}

fn run_replay(common: &Common, input: &str, strict: bool) -> Result<(), CliError> {
    let mut interpreter =
        Interpreter::new(common.width, common.height, GeneratorSettings::default());
    let mut store = FileStore::in_dir(&common.save_dir);
    let mut shown = 0usize;
    let result = replay::replay(&mut interpreter, input, &mut store, strict, &mut |report| {
        if shown < MAX_REPORTS_SHOWN {
            eprintln!("byog: warning: {report}");
        }
        shown += 1;
    });
    let run = result.map_err(|e| match e {
        ReplayError::Strict(_) | ReplayError::Key { .. } | ReplayError::Save(_) => {
            CliError::Usage(e.to_string())
        }
    })?;
    if run.reported > MAX_REPORTS_SHOWN {
        eprintln!(
            "byog: warning: {} more keys ignored ({} in all)",
            run.reported - MAX_REPORTS_SHOWN,
            run.reported
        );
    }
    if run.ending == Some(Ending::NothingToLoad) {
        eprintln!(
            "byog: no saved game at {}; nothing to load",
            store.path().display()
        );
    }
    if let Some(game) = interpreter.game() {
        write_stdout(|out| write!(out, "{}", game.world()))?;
    } else if run.ending.is_none() {
        eprintln!("byog: no world was started (start one with N<seed>S, or load one with L)");
    }
    Ok(())
}

fn run_gen(
    common: &Common,
    range: SeedRange,
    headers: bool,
    format: Format,
) -> Result<(), CliError> {
    let count = range.last - range.first + 1;
    if count > MAX_SEEDS_PER_RUN {
        return Err(CliError::Usage(format!(
            "{count} seeds is more than one run makes ({MAX_SEEDS_PER_RUN}); split the range"
        )));
    }
    write_stdout(|out| {
        for seed in range.first..=range.last {
            let game = GameState::new(
                seed,
                common.width,
                common.height,
                GeneratorSettings::default(),
            )
            .map_err(|e| io::Error::other(e.to_string()))?;
            match format {
                Format::Text => {
                    if headers {
                        writeln!(out, "# seed {seed}")?;
                    }
                    write!(out, "{}", game.world())?;
                }
                Format::Json => writeln!(out, "{}", world_json(&game))?,
                Format::None => {}
            }
        }
        Ok(())
    })
}

/// The JSON object `gen --format json` prints for a game.
fn world_json(game: &GameState) -> serde_json::Value {
    let world = game.world();
    let text = world.to_string();
    serde_json::json!({
        "seed": game.seed(),
        "width": world.width(),
        "height": world.height(),
        "avatar": { "x": game.avatar().x, "y": game.avatar().y },
        "exit": { "x": game.exit().x, "y": game.exit().y },
        "rows": text.lines().collect::<Vec<_>>(),
    })
}

/// Runs `f` on a buffered stdout. A closed pipe (`byog gen ... | head`) ends quietly.
fn write_stdout(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), CliError> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match f(&mut out).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Internal(format!("cannot write the output: {e}"))),
    }
}
