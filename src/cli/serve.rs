//! `byog serve`: plays byog in the browser (`docs/web.md`). The server and the page are the
//! `byog-web` package; this module only turns the flags into its options.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::CliError;
use super::args::Common;

/// How hard the database syncs a commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SyncChoice {
    /// A killed server loses nothing acknowledged (SQLite's WAL with synchronous=NORMAL).
    Normal,
    /// A power loss neither (synchronous=FULL: an fsync a commit).
    Full,
}

/// `serve`'s own flags.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The address to listen on, ADDRESS:PORT.
    #[arg(long, value_name = "ADDRESS:PORT", default_value = "127.0.0.1:8080")]
    bind: String,
    /// The folder of the server's database (byog.sqlite3; created when missing).
    #[arg(long, value_name = "DIR", default_value = "byog-data")]
    data: PathBuf,
    /// An origin accepted beside the server's own, e.g. https://byog.example behind a
    /// proxy (repeatable).
    #[arg(long, value_name = "URL")]
    origin: Vec<String>,
    /// Seconds a game stays in memory with no player and no watcher (1..=86400); it comes
    /// back by replaying its keys.
    #[arg(long, value_name = "SECONDS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    idle_seconds: u64,
    /// Keys a second one connection may send, on average (1..=1000).
    #[arg(long, value_name = "N", default_value_t = 40,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    keys_per_second: u32,
    /// Websocket connections open at once from one address (1..=100000).
    #[arg(long, value_name = "N", default_value_t = 32,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_connections_per_address: u32,
    /// How hard the database syncs each commit.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = SyncChoice::Normal)]
    sync: SyncChoice,
    /// Start even when the database fails its checks at start: what reads back is copied
    /// into a fresh database, the damaged files are kept beside it, and what was dropped is
    /// said.
    #[arg(long)]
    recover: bool,
}

/// Runs the server until Ctrl-C.
pub fn execute(common: &Common, args: ServeArgs) -> Result<(), CliError> {
    common.ignored(
        &["save-dir", "slot"],
        "the server keeps games in its database, --data",
    );
    let limits = byog_web::Limits {
        keys_per_second: f64::from(args.keys_per_second),
        keys_burst: f64::from(args.keys_per_second) * 2.0,
        connections_per_address: args.max_connections_per_address,
        ..byog_web::Limits::default()
    };
    let options = byog_web::ServeOptions {
        bind: args.bind,
        data: args.data,
        game: common.game_options(),
        limits,
        origins: args.origin,
        idle: Duration::from_secs(args.idle_seconds),
        sync: match args.sync {
            SyncChoice::Normal => byog_web::SyncMode::Normal,
            SyncChoice::Full => byog_web::SyncMode::Full,
        },
        recover: args.recover,
    };
    byog_web::serve(options).map_err(|e| match e {
        byog_web::ServeError::Io(e) => CliError::Internal(format!("byog serve failed: {e}")),
        e => CliError::Usage(e.to_string()),
    })
}
