//! The command line (`docs/cli.md`): a thin layer over the library. This
//! module holds the clap types and the dispatch; each command has its own module.
//!
//! | command | does | module |
//! |---|---|---|
//! | `byog` / `byog play` | opens the window at the menu (`--terminal`: plays in the terminal) | `cli/play.rs` |
//! | `byog INPUT` / `byog replay INPUT` | runs the input string headless, prints the world | `cli/replay.rs` |
//! | `byog gen --seed N` / `--seeds A..B` | prints the world(s) `N<seed>S` starts | `cli/generate.rs` |
//! | `byog stats ...` | dungeon metrics and expressive range | `cli/stats/` (tables, JSON) |
//! | `byog solve INPUT` | the keys that win the run INPUT reaches | `cli/solve.rs` |
//! | `byog agent` | plays JSON lines of keys from stdin, answers each with an observation | `cli/agent.rs` |
//! | `byog catalog FILE` | lists and queries a seed catalog (`gen`/`stats --catalog FILE`) | `cli/catalog.rs` |
//! | `byog serve` | plays byog in the browser: games, spectators, accounts, verified scores | `cli/serve.rs` |
//! | `byog help [COMMAND]` | the help of byog or of one command | clap |
//!
//! The short form `byog INPUT` takes `replay`'s flags (`byog --json N1S` is `byog replay
//! --json N1S`). A word that is not a command and cannot be meant as keys (`stat`, `gne`) is
//! refused with the closest command. Each command's help lists only the flags that do
//! something there; the common flags are accepted everywhere, and one given where it does
//! nothing (or where a loaded game's own setting wins) is reported on stderr as `ignored`.
//!
//! Beside the commands: `args.rs` the flags every command takes, `views.rs` `gen --view`'s
//! debug views, `progress.rs` the progress bar of long batches. The game's JSON (`replay
//! --format json`, `byog agent`) is written by `byog-wire`; [`json`] hands it over as values.
//!
//! Exit codes: 0 success, 2 bad input, arguments or save (message on stderr), 1 internal error.
//! `replay`, `gen` and `stats` never open a window.

mod agent;
mod args;
mod catalog;
mod errors;
mod generate;
pub use byog_players::json;
mod play;
mod progress;
mod replay;
mod serve;
mod solve;
mod stats;
mod views;

use std::ffi::OsString;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use args::Common;
pub use args::{MAX_THREADS, SeedRange, parse_seed, parse_seed_range, parse_threads};

/// byog: rooms-and-mazes tile worlds, played with the keyboard or replayed from input strings.
#[derive(Debug, Parser)]
#[command(
    name = "byog",
    version,
    after_help = "Examples:\n  byog                      open the window (N game, R run, E exploration, L load, Q quit)\n  byog N1234SSSSS:Q         replay keys headless, print the world, save on :Q\n  byog --json N1234S        the same, as the game's JSON state\n  byog replay LWW           load the save and move up twice\n  byog gen --seed 42        print the world seed 42 starts\n  byog help gen             the flags of one command\n\nKeys: N new game, R run, E exploration, digits then S start it, W A S D move, :Q save and quit, L load, Q quit."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// An input string to replay headless, e.g. N1234SSSSS:Q (short for `byog replay INPUT`).
    #[arg(value_name = "INPUT", conflicts_with = "file")]
    input: Option<String>,
    #[command(flatten)]
    common: Common,
    /// With INPUT, the flags of `byog replay` (last: the help heading stays on them).
    #[command(flatten, next_help_heading = "Replay (byog INPUT)")]
    replay: replay::ReplayFlags,
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
    /// Play for a program: one JSON string of keys a line on stdin, one JSON observation (what
    /// the player sees) a line on stdout.
    Agent(agent::AgentArgs),
    /// List and query a seed catalog (gen/stats --catalog): seeds by metric ranges.
    Catalog(catalog::CatalogArgs),
    /// Serve byog to browsers: play, watch, sign in, scores verified by replay.
    Serve(serve::ServeArgs),
}

impl Command {
    /// The command's name, as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Play(_) => "play",
            Command::Replay(_) => "replay",
            Command::Gen(_) => "gen",
            Command::Stats(_) => "stats",
            Command::Solve(_) => "solve",
            Command::Agent(_) => "agent",
            Command::Catalog(_) => "catalog",
            Command::Serve(_) => "serve",
        }
    }
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
    pub fn style(self) -> byog_tile_engine::WallStyle {
        match self {
            Walls::Java => byog_tile_engine::WallStyle::Java,
            Walls::Box => byog_tile_engine::WallStyle::Box,
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

/// The commands, for suggestions when one is mistyped.
const COMMANDS: [&str; 9] = [
    "play", "replay", "gen", "stats", "solve", "agent", "catalog", "serve", "help",
];

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let mut command = command();
    if let Some(word) = first_word(&command, &args)
        && let Some(meant) = mistyped_command(&word)
    {
        eprintln!(
            "byog: error: '{word}' is not a command: did you mean `byog {meant}`? (to replay \
             '{word}' as keys, use `byog replay {word}`; `byog help` lists the commands)"
        );
        return ExitCode::from(2);
    }
    let parsed = command
        .try_get_matches_from_mut(&args)
        .and_then(|matches| Ok((Cli::from_arg_matches(&matches)?, matches)));
    let (mut cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            if e.kind() == clap::error::ErrorKind::UnknownArgument
                && let Some(clap::error::ContextValue::String(flag)) =
                    e.get(clap::error::ContextKind::InvalidArg)
            {
                eprint!("{}", unknown_flag(&mut command, &args, flag));
                return ExitCode::from(2);
            }
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    cli.common.given = given_flags(&command, &matches);
    match dispatch(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("byog: error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// The clap command: [`Cli`], with each command's help listing only the flags that matter
/// to it. The others stay accepted everywhere (so `--save-dir` can always be given; a flag
/// given where it does nothing is reported as ignored): each command gets a hidden copy of
/// them, which clap then fills in as it does the global flag (by id).
fn command() -> clap::Command {
    let mut command = Cli::command();
    for (name, hidden) in args::HIDDEN {
        let copies: Vec<clap::Arg> = hidden
            .iter()
            .filter_map(|id| command.get_arguments().find(|a| a.get_id() == id))
            .map(|a| a.clone().hide(true))
            .collect();
        command = command.mut_subcommand(name, |sub| sub.args(copies));
    }
    command
}

/// The message for a flag no command knows: which command refused it, the flag of that
/// command it is closest to (within [`close_enough`]; clap's own guess took `--foo` for
/// `--floors` and printed a usage line built around its guess), the command's real usage
/// line and where its help is.
fn unknown_flag(command: &mut clap::Command, args: &[OsString], flag: &str) -> String {
    command.build();
    let sub = first_word(command, args)
        .filter(|w| command.find_subcommand(w).is_some())
        .and_then(|w| command.find_subcommand(&w).cloned());
    let (name, cmd) = match &sub {
        Some(c) => (format!("byog {}", c.get_name()), c),
        None => ("byog".to_owned(), &*command),
    };
    let given = flag.split('=').next().unwrap_or(flag);
    let mut out =
        format!("byog: error: unexpected argument '{given}' found: `{name}` has no such flag");
    if let Some(long) = given.strip_prefix("--")
        && let Some(meant) = closest_flag(cmd, long)
    {
        out.push_str(&format!("; did you mean '--{meant}'?"));
    }
    out.push('\n');
    let usage = cmd.clone().render_usage().to_string();
    let usage = usage.trim_end();
    let usage = match usage.strip_prefix("Usage: ") {
        Some(rest) if !rest.starts_with("byog") => format!("Usage: byog {rest}"),
        _ => usage.to_owned(),
    };
    out.push_str(&format!(
        "\n{usage}\n\nFor more information, try '{name} --help'.\n"
    ));
    out
}

/// The long flag of `command` closest to `long` (without its dashes) when it is
/// [`close_enough`]; visible flags first, then hidden ones, ties by name.
fn closest_flag(command: &clap::Command, long: &str) -> Option<String> {
    command
        .get_arguments()
        .filter_map(|a| Some((a.is_hide_set(), a.get_long()?)))
        .filter(|&(_, name)| close_enough(long, name))
        .min_by_key(|&(hidden, name)| (strsim::osa_distance(long, name), hidden, name))
        .map(|(_, name)| name.to_owned())
}

/// Whether `typed` may be a typo of `name`: at most one edit (an insertion, a deletion, a
/// substitution or a swap of neighbours: the optimal string alignment distance of `strsim`)
/// for names up to 4 letters, two for longer ones.
fn close_enough(typed: &str, name: &str) -> bool {
    let d = strsim::osa_distance(&typed.to_ascii_lowercase(), name);
    d <= if name.len() > 4 { 2 } else { 1 }
}

/// The first word of `args` that is neither a flag nor a flag's value (`args[0]`, the
/// program, skipped): the command, or the input string; `None` after `--`.
fn first_word(command: &clap::Command, args: &[OsString]) -> Option<String> {
    let mut words = args.iter().skip(1);
    while let Some(word) = words.next() {
        let word = word.to_str()?;
        if word == "--" {
            // What follows `--` is an input string on purpose: never taken for a command.
            return None;
        }
        if let Some(long) = word.strip_prefix("--") {
            let takes_value = !long.contains('=')
                && command
                    .get_arguments()
                    .find(|a| a.get_long() == Some(long))
                    .is_some_and(|a| a.get_action().takes_values());
            if takes_value {
                words.next();
            }
            continue;
        }
        if word.starts_with('-') && word.len() > 1 {
            continue;
        }
        return Some(word.to_owned());
    }
    None
}

/// The command `word` looks like a typo of, if it cannot be meant as an input string: a word
/// of letters only whose first key is not `L` (load) or `Q` (quit), so that as keys it would
/// start no game, within one edit of a short command or two of a longer one (`stat`, `gne`,
/// `sovle`).
fn mistyped_command(word: &str) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    if lower.len() < 2
        || !lower.bytes().all(|b| b.is_ascii_lowercase())
        || lower.starts_with(['l', 'q'])
        || COMMANDS.contains(&word)
    {
        return None;
    }
    COMMANDS
        .iter()
        .map(|&c| (strsim::osa_distance(&lower, c), c))
        .filter(|&(d, c)| d <= if c.len() >= 5 { 2 } else { 1 })
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// The long names of the flags the user gave on the command line (not defaults), from the
/// matches of the command that runs.
fn given_flags(command: &clap::Command, matches: &clap::ArgMatches) -> args::Given {
    let (command, matches) = match matches.subcommand() {
        Some((name, sub)) => match command.find_subcommand(name) {
            Some(c) => (c, sub),
            None => (command, matches),
        },
        None => (command, matches),
    };
    command
        .get_arguments()
        .filter(|a| {
            matches.value_source(a.get_id().as_str())
                == Some(clap::parser::ValueSource::CommandLine)
        })
        .filter_map(|a| a.get_long().map(str::to_owned))
        .collect()
}

fn dispatch(cli: Cli) -> Result<(), CliError> {
    let common = cli.common;
    common.validate()?;
    common.report_other_generator();
    let replay_flags = cli.replay.given();
    if let (Some(command), Some(flag)) = (&cli.command, replay_flags.first()) {
        let name = command.name();
        let own = matches!(
            (name, *flag),
            ("gen" | "stats", "--json" | "--format") | ("gen", "--view")
        );
        return Err(CliError::Usage(if own {
            format!("{flag} comes before the {name} command: put it after (byog {name} ... {flag})")
        } else {
            format!(
                "{flag} goes with an input string (byog {flag} INPUT, or byog replay {flag} \
                 INPUT), not with the {name} command"
            )
        }));
    }
    match (cli.command, cli.input) {
        (Some(_), Some(input)) => Err(CliError::Usage(format!(
            "the input string '{input}' comes before a command; put it after the command \
             (byog replay {input}) or give it alone (byog {input})"
        ))),
        (Some(Command::Replay(args)), None) => replay::execute(&common, args),
        (Some(Command::Gen(args)), None) => generate::execute(&common, args),
        (Some(Command::Stats(args)), None) => stats::execute(&common, args),
        (Some(Command::Solve(args)), None) => solve::execute(&common, args),
        (Some(Command::Play(args)), None) => play::execute(&common, args),
        (Some(Command::Agent(args)), None) => agent::execute(&common, args),
        (Some(Command::Catalog(args)), None) => catalog::execute(&common, args),
        (Some(Command::Serve(args)), None) => serve::execute(&common, args),
        (None, None) if cli.replay.file.is_none() => match replay_flags.first() {
            Some(flag) => Err(CliError::Usage(format!(
                "{flag} goes with an input string: byog {flag} INPUT, or byog replay {flag} INPUT"
            ))),
            None => play::execute(&common, play::PlayArgs::default()),
        },
        (None, input) => replay::execute(&common, replay::ReplayArgs::of(input, cli.replay)),
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

/// The `--format` of a command that prints text or JSON only (`replay`, `stats`, `catalog`):
/// its help and its error list exactly those two.
fn text_or_json() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("text").help("the world, or a table, as text"),
        PossibleValue::new("json").help("one JSON object per world or result, a line each"),
    ])
    .map(|s| {
        if s == "json" {
            Format::Json
        } else {
            Format::Text
        }
    })
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

/// How many of a batch of `count` failed, in words, for its closing summary:
/// "2 of 5 seeds could not be made", "none of the 5 seeds could be made", "the one seed
/// could not be made"; `can` and `cannot` are the verb, said of all or of some.
fn failed_of(failed: u64, count: u64, noun: &str, can: &str, cannot: &str) -> String {
    match (failed, count) {
        (1, 1) => format!("the one {noun} {cannot}"),
        (f, c) if f == c => format!("none of the {c} {noun}s {can}"),
        (f, c) => format!("{f} of {} {cannot}", plural(c, noun)),
    }
}

/// Where a batch's failures were reported: "(reported above)" for one, "(each is reported
/// above)" for more.
fn reported(failed: u64) -> &'static str {
    if failed == 1 {
        "(reported above)"
    } else {
        "(each is reported above)"
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

#[cfg(test)]
mod tests {
    use super::{close_enough, mistyped_command};

    #[test]
    fn a_swap_is_one_edit_and_far_names_are_not_close() {
        assert_eq!(strsim::osa_distance("gne", "gen"), 1);
        assert_eq!(strsim::osa_distance("sovle", "solve"), 1);
        assert!(close_enough("fromat", "format"));
        assert!(close_enough("sed", "seed"));
        assert!(!close_enough("foo", "floors"));
        assert!(!close_enough("xyz", "gen"));
    }

    #[test]
    fn only_words_that_cannot_be_keys_are_taken_for_commands() {
        for (word, meant) in [
            ("stat", "stats"),
            ("gne", "gen"),
            ("sovle", "solve"),
            ("rpelay", "replay"),
            ("plya", "play"),
            ("hlep", "help"),
            ("GEN", "gen"),
        ] {
            assert_eq!(mistyped_command(word), Some(meant), "{word}");
        }
        // Input strings: digits, ':', a load or a quit first, a single key, or far from
        // every command.
        for word in [
            "N1S", "R7SDD", "E3SW", "LSS", "lss", "LWWWDDD", "Q", "L", "N42S:Q", "gen1", "ls",
            "lplay", "qstats", "xyzzy", "W", "SSSS", "stats", "gen",
        ] {
            assert_eq!(mistyped_command(word), None, "{word}");
        }
    }
}
