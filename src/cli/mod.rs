//! The command line (`docs/cli.md`): a thin layer over the library. This
//! module holds the clap types and the dispatch; each command has its own module.
//!
//! | command | does | module |
//! |---|---|---|
//! | `byog` / `byog play` | opens the window at the menu (`--terminal`: plays in the terminal) | `cli/play.rs` |
//! | `byog INPUT` / `byog replay INPUT` | runs the input string headless, prints the world | `cli/replay.rs` |
//! | `byog gen --seed N` / `--seeds A..B` | prints the world(s) `N<seed>S` starts | `cli/generate.rs` |
//! | `byog stats ...` | dungeon metrics and expressive range | `cli/stats.rs` |
//!
//! Exit codes: 0 success, 2 bad input, arguments or save (message on stderr), 1 internal error.
//! `replay`, `gen` and `stats` never open a window.

mod args;
mod generate;
pub mod json;
mod play;
mod replay;
mod solve;
mod stats;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use args::Common;
pub use args::{MAX_THREADS, SeedRange, parse_seed, parse_seed_range, parse_threads};

/// byog: rooms-and-mazes tile worlds, played with the keyboard or replayed from input strings.
#[derive(Debug, Parser)]
#[command(
    name = "byog",
    version,
    disable_help_subcommand = true,
    after_help = "Examples:\n  byog                      open the window (N new game, L load, Q quit)\n  byog N1234SSSSS:Q         replay keys headless, print the world, save on :Q\n  byog replay LWW           load the save and move up twice\n  byog gen --seed 42        print the world seed 42 starts\n\nKeys: N new game, digits then S start it, W A S D move, :Q save and quit, L load, Q quit."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// An input string to replay headless, e.g. N1234SSSSS:Q (short for `byog replay INPUT`).
    #[arg(value_name = "INPUT")]
    input: Option<String>,
    /// With INPUT: stop at the first ignored or refused key (exit 2, nothing saved).
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play with the keyboard from the menu: in the window (the default), or in this terminal
    /// with --terminal; --watch plays a save back.
    Play(play::PlayArgs),
    /// Run an input string headless, print the world, save on :Q.
    Replay(replay::ReplayArgs),
    /// Print the world(s) that N<seed>S starts.
    Gen(generate::GenArgs),
    /// Measure worlds: openness, rooms, corridors, loops, dead ends, critical path, seclusion.
    Stats(stats::StatsArgs),
    /// Print the keys that, appended to INPUT, win the run INPUT reaches.
    Solve(solve::SolveArgs),
}

/// When to colour text output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// When stdout is a terminal and NO_COLOR is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl Color {
    /// Whether to colour: `auto` colours a terminal unless `NO_COLOR` is set and not empty
    /// (<https://no-color.org>).
    pub fn enabled(self) -> bool {
        match self {
            Color::Auto => {
                io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
            Color::Always => true,
            Color::Never => false,
        }
    }
}

/// `--walls`: how pictures draw walls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Walls {
    /// The Java skeleton's `#` on grey.
    Java,
    /// Box-drawing lines that join neighbouring walls.
    Box,
}

impl Walls {
    /// The tile engine's style.
    pub fn style(self) -> crate::tile_engine::WallStyle {
        match self {
            Walls::Java => crate::tile_engine::WallStyle::Java,
            Walls::Box => crate::tile_engine::WallStyle::Box,
        }
    }
}

/// A failure that ends the program with a message.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input, arguments or save: exit 2.
    #[error("{0}")]
    Usage(String),
    /// Something that should not happen: exit 1.
    #[error("{0}")]
    Internal(String),
    /// The command did its work but some of it failed (a batch with seeds that could not be
    /// made); each failure was already reported: exit 2 with this summary.
    #[error("{0}")]
    Partial(String),
}

impl CliError {
    fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) | CliError::Partial(_) => 2,
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
    common.validate()?;
    if cli.strict && !matches!(cli.command, None | Some(Command::Replay(_))) {
        return Err(CliError::Usage(
            "--strict goes with an input string: byog --strict INPUT, or byog replay --strict INPUT"
                .into(),
        ));
    }
    match (cli.command, cli.input) {
        (Some(_), Some(input)) => Err(CliError::Usage(format!(
            "the input string '{input}' comes before a command; put it after the command \
             (byog replay {input}) or give it alone (byog {input})"
        ))),
        (Some(Command::Replay(args)), None) => replay::run(&common, args, cli.strict),
        (None, Some(input)) => replay::run(&common, replay::ReplayArgs::of(input), cli.strict),
        (Some(Command::Gen(args)), None) => generate::run(&common, args),
        (Some(Command::Stats(args)), None) => stats::run(&common, args),
        (Some(Command::Solve(args)), None) => solve::run(&common, args),
        (Some(Command::Play(args)), None) => play::run(&common, args),
        (None, None) => play::run(&common, play::PlayArgs::default()),
    }
}

/// Output formats of `replay`, `gen` and `stats` (`--json` is short for `--format json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Text: the Java `TETile.toString` world, or a table.
    Text,
    /// JSON: one object per world or result, one per line.
    Json,
    /// Nothing (gen: generate only, for timing).
    None,
}

/// `--format` and its `--json` short form.
fn format_of(format: Option<Format>, json: bool) -> Format {
    match (format, json) {
        (_, true) => Format::Json,
        (Some(f), false) => f,
        (None, false) => Format::Text,
    }
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

/// The name of a clap value, as typed on the command line (`regions`, `json`).
fn value_name(v: impl ValueEnum) -> String {
    v.to_possible_value()
        .map_or_else(String::new, |p| p.get_name().to_owned())
}

/// "1 world", "2 worlds".
fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// How a batch reports a seed that could not be made: `seed N: why`, naming the seed once
/// (the generator's own message may already start with `seed N: `).
fn seed_failure(seed: u64, why: &str) -> String {
    let prefix = format!("seed {seed}: ");
    if why.starts_with(&prefix) {
        why.to_owned()
    } else {
        format!("{prefix}{why}")
    }
}

/// A path as the user wrote it, for messages.
fn shown(path: &std::path::Path) -> String {
    path.display().to_string()
}
