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

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use rayon::prelude::*;

use crate::core::game::{GameState, HEIGHT, MAX_SEED, WIDTH};
use crate::core::generator::{self, DEFAULT_MAX_TRIES, GeneratorSettings};
use crate::core::interpreter::{Ending, Interpreter};
use crate::core::metrics::Requirements;
use crate::core::replay::{self, ReplayError};
use crate::core::save::{DEFAULT_SAVE_DIR, FileStore};
use crate::stats;
use crate::tile_engine::{Geometry, raster};
use crate::views::{self, View};
use crate::window::{self, WindowOptions};

/// How many ignored keys `replay` reports one by one before it only counts them.
const MAX_REPORTS_SHOWN: usize = 20;
/// Most seeds one `gen --seeds` run accepts.
const MAX_SEEDS_PER_RUN: u64 = 10_000_000;
/// Most seeds one `stats --seeds` run accepts (it keeps 17 numbers a seed).
const MAX_STATS_SEEDS: u64 = 1_000_000;
/// Seeds `gen --seeds` generates in parallel before printing them in order.
const GEN_CHUNK: u64 = 1024;

/// byog: rooms-and-mazes tile worlds, played with the keyboard or replayed from input strings.
#[derive(Debug, Parser)]
#[command(
    name = "byog",
    version,
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
    #[command(flatten)]
    requirements: RequirementArgs,
}

/// What every new world must meet (see `byog stats`); a world that misses one is generated
/// again from a seed derived from (seed, try), up to --max-tries times.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Requirements")]
pub struct RequirementArgs {
    /// Least openness: open tiles in whole percent of all tiles.
    #[arg(long, global = true, value_name = "PERCENT")]
    min_openness: Option<u32>,
    /// Most openness, in whole percent.
    #[arg(long, global = true, value_name = "PERCENT")]
    max_openness: Option<u32>,
    /// Least BFS distance from the avatar to the exit.
    #[arg(long, global = true, value_name = "TILES")]
    min_exit_distance: Option<u32>,
    /// Least number of rooms.
    #[arg(long, global = true, value_name = "N")]
    min_rooms: Option<u32>,
    /// Most rooms.
    #[arg(long, global = true, value_name = "N")]
    max_rooms: Option<u32>,
    /// Most dead-end tiles.
    #[arg(long, global = true, value_name = "N")]
    max_dead_ends: Option<u32>,
    /// Least number of rooms on the avatar-to-exit shortest path.
    #[arg(long, global = true, value_name = "N")]
    min_critical_path_rooms: Option<u32>,
    /// Worlds tried per seed before giving up on the requirements (1..=10000).
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MAX_TRIES)]
    max_tries: u32,
}

impl Common {
    /// The generator settings these flags ask for.
    fn settings(&self) -> GeneratorSettings {
        let r = &self.requirements;
        GeneratorSettings {
            requirements: Requirements {
                min_openness_percent: r.min_openness,
                max_openness_percent: r.max_openness,
                min_exit_distance: r.min_exit_distance,
                min_rooms: r.min_rooms,
                max_rooms: r.max_rooms,
                max_dead_ends: r.max_dead_ends,
                min_critical_path_rooms: r.min_critical_path_rooms,
            },
            max_tries: r.max_tries,
            ..GeneratorSettings::default()
        }
    }
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
        #[arg(
            value_name = "INPUT",
            required_unless_present = "file",
            conflicts_with = "file"
        )]
        input: Option<String>,
        /// Read the keys from a file instead (`-` for standard input), for input strings
        /// longer than a command line holds; line breaks are ignored.
        #[arg(long, value_name = "PATH")]
        file: Option<PathBuf>,
        /// Stop at the first ignored or refused key (exit 2, nothing saved).
        #[arg(long)]
        strict: bool,
    },
    /// Print the world(s) that N<seed>S starts.
    Gen {
        /// One seed, 0..=9223372036854775807.
        #[arg(long, value_name = "N", value_parser = parse_seed, conflicts_with = "seeds", required_unless_present = "seeds", allow_hyphen_values = true)]
        seed: Option<u64>,
        /// A range of seeds: A..B (B excluded) or A..=B (B included).
        #[arg(long, value_name = "RANGE", value_parser = parse_seed_range, allow_hyphen_values = true)]
        seeds: Option<SeedRange>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// What the text shows: the world, or a debug view of it.
        #[arg(long, value_enum, default_value_t = View::Plain)]
        view: View,
        /// Colour the text with ANSI escapes: auto (when stdout is a terminal), always, never.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
        /// Also draw the world as a PNG (16 pixels a tile, as the window draws it).
        #[arg(long, value_name = "PATH", conflicts_with = "seeds")]
        png: Option<PathBuf>,
        /// Threads for --seeds (0: one per core).
        #[arg(long, value_name = "N", default_value_t = 0)]
        threads: usize,
    },
    /// Measure worlds: openness, rooms, corridors, loops, dead ends, critical path, seclusion.
    Stats {
        /// One seed: a table of its world's metrics and rooms.
        #[arg(long, value_name = "N", value_parser = parse_seed, conflicts_with = "seeds", required_unless_present = "seeds", allow_hyphen_values = true)]
        seed: Option<u64>,
        /// A range of seeds: min / median / p90 / max of every metric (expressive range).
        #[arg(long, value_name = "RANGE", value_parser = parse_seed_range, allow_hyphen_values = true)]
        seeds: Option<SeedRange>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Threads for --seeds (0: one per core); the output is the same for any number.
        #[arg(long, value_name = "N", default_value_t = 0)]
        threads: usize,
    },
}

/// When to colour text output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    /// When stdout is a terminal.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
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
    common
        .settings()
        .validate()
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let range = |seed: Option<u64>, seeds: Option<SeedRange>| match (seed, seeds) {
        (Some(s), _) => Ok((SeedRange { first: s, last: s }, false)),
        (None, Some(r)) => Ok((r, true)),
        (None, None) => Err(CliError::Usage("give --seed N or --seeds A..B".into())),
    };
    match (cli.command, cli.input) {
        (
            Some(Command::Replay {
                input,
                file,
                strict,
            }),
            _,
        ) => {
            let input = match (input, file) {
                (Some(input), _) => input,
                (None, Some(path)) => read_keys(&path)?,
                (None, None) => return Err(CliError::Usage("replay needs INPUT or --file".into())),
            };
            run_replay(&common, &input, strict || cli.strict)
        }
        (None, Some(input)) => run_replay(&common, &input, cli.strict),
        (
            Some(Command::Gen {
                seed,
                seeds,
                format,
                view,
                color,
                png,
                threads,
            }),
            _,
        ) => {
            let (range, many) = range(seed, seeds)?;
            let color = match color {
                Color::Auto => io::stdout().is_terminal(),
                Color::Always => true,
                Color::Never => false,
            };
            let output = GenOutput {
                format,
                view,
                color,
                headers: many,
            };
            run_gen(&common, range, output, png, threads)
        }
        (
            Some(Command::Stats {
                seed,
                seeds,
                json,
                threads,
            }),
            _,
        ) => {
            let (range, many) = range(seed, seeds)?;
            run_stats(&common, range, many, json, threads)
        }
        (Some(Command::Play { keys, screenshot }), _) => run_play(&common, keys, screenshot),
        (None, None) => run_play(&common, String::new(), None),
    }
}

fn run_play(common: &Common, keys: String, screenshot: Option<PathBuf>) -> Result<(), CliError> {
    window::run(WindowOptions {
        width: common.width,
        height: common.height,
        settings: common.settings(),
        save_dir: common.save_dir.clone(),
        keys,
        screenshot,
    })
    .map_err(CliError::Usage)
}

/// The keys in a file (`-`: standard input), line breaks removed.
fn read_keys(path: &std::path::Path) -> Result<String, CliError> {
    let text = if path.as_os_str() == "-" {
        io::read_to_string(io::stdin())
    } else {
        std::fs::read_to_string(path)
    }
    .map_err(|e| CliError::Usage(format!("cannot read keys from {}: {e}", path.display())))?;
    Ok(text.chars().filter(|c| !matches!(c, '\n' | '\r')).collect())
}

fn run_replay(common: &Common, input: &str, strict: bool) -> Result<(), CliError> {
    let mut interpreter = Interpreter::new(common.width, common.height, common.settings());
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

/// How `gen` prints each world.
#[derive(Debug, Clone, Copy)]
struct GenOutput {
    format: Format,
    view: View,
    color: bool,
    /// A `# seed N` line before each text world (with --seeds).
    headers: bool,
}

impl GenOutput {
    fn render(&self, game: &GameState) -> String {
        match self.format {
            Format::Text => {
                let world = views::render(
                    game.world(),
                    game.avatar(),
                    game.exit(),
                    self.view,
                    self.color,
                );
                if self.headers {
                    format!("# seed {}\n{world}", game.seed())
                } else {
                    world
                }
            }
            Format::Json => format!("{}\n", world_json(game)),
            Format::None => String::new(),
        }
    }
}

fn run_gen(
    common: &Common,
    range: SeedRange,
    output: GenOutput,
    png: Option<PathBuf>,
    threads: usize,
) -> Result<(), CliError> {
    let count = range.last - range.first + 1;
    if count > MAX_SEEDS_PER_RUN {
        return Err(CliError::Usage(format!(
            "{count} seeds is more than one run makes ({MAX_SEEDS_PER_RUN}); split the range"
        )));
    }
    let settings = common.settings();
    let pool = thread_pool(threads)?;
    let generate = |seed| {
        GameState::new(seed, common.width, common.height, settings)
            .map_err(|e| CliError::Usage(e.to_string()))
    };
    if let Some(path) = png {
        let game = generate(range.first)?;
        let world = game.world();
        let geometry = Geometry::new(world.width() as u32, world.height() as u32);
        raster::write_png(world, geometry, &path).map_err(|e| CliError::Usage(e.to_string()))?;
    }
    // Chunks of seeds are generated in parallel and printed in seed order.
    let bar = stats::progress_bar(count);
    let mut first = range.first;
    loop {
        let last = range.last.min(first.saturating_add(GEN_CHUNK - 1));
        let texts: Vec<Result<String, CliError>> = pool.install(|| {
            (first..=last)
                .into_par_iter()
                .map(|seed| generate(seed).map(|g| output.render(&g)))
                .collect()
        });
        let texts = texts
            .into_iter()
            .collect::<Result<Vec<String>, CliError>>()?;
        write_stdout(|out| texts.iter().try_for_each(|t| out.write_all(t.as_bytes())))?;
        bar.inc(last - first + 1);
        if last == range.last {
            bar.finish_and_clear();
            return Ok(());
        }
        first = last + 1;
    }
}

fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Internal(format!("cannot start {threads} threads: {e}")))
}

fn run_stats(
    common: &Common,
    range: SeedRange,
    many: bool,
    json: bool,
    threads: usize,
) -> Result<(), CliError> {
    let settings = common.settings();
    let text = if many {
        let count = range.last - range.first + 1;
        if count > MAX_STATS_SEEDS {
            return Err(CliError::Usage(format!(
                "{count} seeds is more than one stats run measures ({MAX_STATS_SEEDS}); split the range"
            )));
        }
        let r = stats::measure_range(
            range.first,
            range.last,
            common.width,
            common.height,
            &settings,
            threads,
        )
        .map_err(CliError::Usage)?;
        if json {
            format!("{}\n", stats::range_json(&r))
        } else {
            stats::range_table(&r)
        }
    } else {
        let s = stats::measure_seed(range.first, common.width, common.height, &settings)
            .map_err(|e| CliError::Usage(e.to_string()))?;
        if json {
            format!("{}\n", stats::seed_json(&s))
        } else {
            stats::seed_table(&s)
        }
    };
    write_stdout(|out| out.write_all(text.as_bytes()))
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
