//! `byog play` (and `byog` alone): keyboard play in the window (the `window` feature).

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use super::args::Common;

/// `play`'s own flags.
#[derive(Debug, Clone, Default, Args)]
pub struct PlayArgs {
    /// Keys fed to the game before keyboard play starts, e.g. N42S.
    #[arg(long, value_name = "KEYS", default_value = "")]
    keys: String,
    /// Write a PNG of the first frame (after --keys) to PATH and exit.
    #[arg(long, value_name = "PATH")]
    screenshot: Option<PathBuf>,
    /// How walls are drawn: java (`#`) or box (lines joining neighbouring walls); default: box
    /// in runs, java in the classic game.
    #[arg(long, value_enum, value_name = "STYLE")]
    walls: Option<super::Walls>,
    /// Watch the save from its start instead of playing: Space pauses, . steps, [ and ]
    /// change the speed, Esc leaves. The save is not changed.
    #[arg(long)]
    watch: bool,
    /// Print the mean and 99th percentile frame time after N frames, and exit (a benchmark
    /// of drawing; docs/performance.md).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    frame_stats: Option<u32>,
}

/// Runs `play`: opens the window at the menu.
#[cfg(feature = "window")]
pub fn run(common: &Common, args: PlayArgs) -> Result<(), CliError> {
    crate::window::run(crate::window::WindowOptions {
        width: common.width,
        height: common.height,
        settings: common.settings(),
        save_dir: common.save_dir()?,
        keys: args.keys,
        screenshot: args.screenshot,
        walls: args.walls.map(super::Walls::style),
        floors: common.floors,
        watch: args.watch,
        frame_stats: args.frame_stats,
    })
    .map_err(CliError::Usage)
}

/// Runs `play` in a build without the window: says so.
#[cfg(not(feature = "window"))]
pub fn run(common: &Common, args: PlayArgs) -> Result<(), CliError> {
    let _ = (common, args);
    Err(CliError::Usage(
        "this byog was built without the window (cargo's `window` feature); \
         `byog replay`, `byog gen` and `byog stats` work without one"
            .into(),
    ))
}
