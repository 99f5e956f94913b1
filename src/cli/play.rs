//! `byog play` (and `byog` alone): keyboard play in the window (the `window` feature), or in
//! the terminal with `--terminal` (every build).

use std::path::PathBuf;

use clap::Args;

use super::args::Common;
use super::{CliError, Color};
use byog_shell::ShellOptions;

/// `play`'s own flags.
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// Keys fed to the game before keyboard play starts, e.g. N42S.
    #[arg(long, value_name = "KEYS", default_value = "")]
    keys: String,
    /// Write a PNG of the first frame (after --keys) to PATH and exit.
    #[arg(long, value_name = "PATH", conflicts_with = "terminal")]
    screenshot: Option<PathBuf>,
    /// How walls are drawn: java (`#`) or box (lines joining neighbouring walls); default: box
    /// in runs and explorations, java in the classic game.
    #[arg(long, value_enum, value_name = "STYLE")]
    walls: Option<super::Walls>,
    /// Watch the save from its start instead of playing: Space pauses, . steps, [ and ]
    /// change the speed, Esc leaves. The save is not changed.
    #[arg(long)]
    watch: bool,
    /// Print the mean and 99th percentile frame time after N frames, and exit (a benchmark
    /// of drawing in the window; docs/performance.md).
    #[arg(long, value_name = "N", conflicts_with = "terminal",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    frame_stats: Option<u32>,
    /// Play in this terminal instead of a window (over SSH, or with no display).
    #[arg(long)]
    terminal: bool,
    /// With --terminal: when to colour (auto: unless NO_COLOR is set; true colour when
    /// COLORTERM is truecolor or 24bit, else 256 colours).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Color::Auto, requires = "terminal")]
    color: Color,
}

impl Default for PlayArgs {
    fn default() -> Self {
        PlayArgs {
            keys: String::new(),
            screenshot: None,
            walls: None,
            watch: false,
            frame_stats: None,
            terminal: false,
            color: Color::Auto,
        }
    }
}

/// Runs `play`: the terminal game with `--terminal`, else the window at the menu.
pub fn execute(common: &Common, args: PlayArgs) -> Result<(), CliError> {
    // Before anything opens: a FIFO with no reader would block the screenshot for ever, and
    // a device or another user's link must never be written over (as `gen --png`).
    if let Some(path) = &args.screenshot {
        byog_tile_engine::files::write_target(path).map_err(|refusal| {
            CliError::Usage(format!(
                "cannot write the screenshot {}: {refusal}",
                path.display()
            ))
        })?;
    }
    let shell = ShellOptions {
        game: common.game_options(),
        saves: byog_shell::Saves::Folder {
            dir: common.save_dir()?,
            slot: common.chosen_slot().map(str::to_owned),
        },
        walls: args.walls.map(super::Walls::style),
        watch: args.watch,
        // Each front-end sets its own.
        front_end: Default::default(),
        seed_label: None,
    };
    if args.terminal {
        let colorterm = std::env::var("COLORTERM").ok();
        return byog_terminal::play(byog_terminal::TerminalOptions {
            shell,
            keys: args.keys,
            colour: byog_terminal::ColorMode::detect(args.color.enabled(), colorterm.as_deref()),
        })
        .map_err(|e| CliError::Usage(e.to_string()));
    }
    window(shell, args)
}

/// The command line's error for the window's: bad input, arguments or save (exit 2), and
/// when the window cannot open, a pointer to the terminal.
#[cfg(feature = "window")]
fn window_error(e: byog_window::WindowError) -> CliError {
    CliError::Usage(if e.is_no_window() {
        format!("{e}; {TRY_TERMINAL}")
    } else {
        e.to_string()
    })
}

/// How to play without the window, for messages that refuse it.
const TRY_TERMINAL: &str = "play in this terminal with `byog play --terminal`";

/// Opens the window at the menu; without a display, says so and points to `--terminal`.
#[cfg(feature = "window")]
fn window(shell: ShellOptions, args: PlayArgs) -> Result<(), CliError> {
    byog_window::play(byog_window::WindowOptions {
        shell,
        keys: args.keys,
        screenshot: args.screenshot,
        frame_stats: args.frame_stats,
    })
    .map_err(window_error)
}

/// Runs `play` in a build without the window: says so and points to `--terminal`.
#[cfg(not(feature = "window"))]
fn window(shell: ShellOptions, args: PlayArgs) -> Result<(), CliError> {
    let _ = (shell, args);
    Err(built_without_the_window())
}

/// The usage error (exit 2) of `play` in a build without the window. Compiled in every
/// build, so the default build's tests check the headless build's message too.
#[cfg(any(test, not(feature = "window")))]
fn built_without_the_window() -> CliError {
    CliError::Usage(format!(
        "this byog was built without the window (cargo's `window` feature); {TRY_TERMINAL} \
         (`byog replay`, `byog gen` and `byog stats` work too)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_without_the_window_says_so_and_points_to_the_terminal() {
        let CliError::Usage(m) = built_without_the_window() else {
            panic!("exit 2")
        };
        assert!(m.contains("built without the window"), "{m}");
        assert!(m.contains("byog play --terminal"), "{m}");
    }

    #[cfg(feature = "window")]
    #[test]
    fn no_window_points_to_the_terminal_and_other_errors_do_not() {
        use byog_window::WindowError;
        for e in [WindowError::NoDisplay, WindowError::Open("no GL".into())] {
            let CliError::Usage(m) = window_error(e) else {
                panic!("exit 2")
            };
            assert!(m.starts_with("cannot open the window"), "{m}");
            assert!(m.ends_with(TRY_TERMINAL), "{m}");
        }
        let screenshot = WindowError::Screenshot {
            path: "shot.png".into(),
            source: std::io::Error::other("disk full").into(),
        };
        let CliError::Usage(m) = window_error(screenshot) else {
            panic!("exit 2")
        };
        assert!(
            m.starts_with("cannot write the screenshot shot.png") && !m.contains(TRY_TERMINAL),
            "{m}"
        );
    }
}
