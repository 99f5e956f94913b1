//! `byog agent`: a game for programs that play (`docs/agent.md`). Each line of standard
//! input is a JSON string of keys (or `{"reset": "KEYS"}`); each is answered on standard
//! output with one line of JSON, the observation after those keys (what `replay --format
//! json --view sight` prints for every key played so far) or `{"error": "..."}`. The end of
//! the input ends the session (exit 0). `L` loads the slot `--slot` names (default `save`) of
//! `--save-dir`; nothing is ever saved. The protocol itself is [`byog_players::agent`].

use std::io::{self, BufWriter};

use clap::Args;

use super::CliError;
use super::args::Common;
use byog_players::agent::{Agent, AgentOptions, serve};

/// `agent`'s own flags: none (the common flags say how new games are made).
#[derive(Debug, Clone, Args)]
pub struct AgentArgs {}

/// Runs `agent` until the end of standard input.
pub fn execute(common: &Common, _args: AgentArgs) -> Result<(), CliError> {
    let mut agent = Agent::new(AgentOptions {
        game: common.game_options(),
        save_dir: Some(common.save_dir()?),
        slot: common.slot().to_owned(),
        record_keys: false,
    });
    let mut input = io::stdin().lock();
    let mut output = BufWriter::new(io::stdout().lock());
    match serve(&mut agent, &mut input, &mut output) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Internal(format!(
            "the agent session stopped: {e}"
        ))),
    }
}
