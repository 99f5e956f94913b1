//! `byog solve INPUT`: replays INPUT headless (saving nothing) and prints the keys that,
//! appended to INPUT, win the run from there (`docs/runs.md`).

use clap::Args;

use super::args::Common;
use super::replay::Watched;
use super::{CliError, write_stdout};
use byog_game::interpreter::{Interpreter, Phase};
use byog_game::replay;
use byog_game::save::DeferredStore;
use byog_players::solver;

/// `solve`'s own flags.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// The keys so far, e.g. R42S or R42SDDW (a run; `L` loads the saved one).
    #[arg(value_name = "INPUT")]
    input: String,
}

/// Runs `solve`.
pub fn execute(common: &Common, args: SolveArgs) -> Result<(), CliError> {
    let mut interpreter = Interpreter::new(common.width, common.height, common.settings())
        .with_floors(common.floors)
        .with_explore(common.explore_settings());
    let mut file = common.store()?;
    let mut watched = Watched::new(&mut file);
    // Loads come from the save folder; a `:Q` in INPUT saves nowhere.
    let mut store = DeferredStore::new(&mut watched);
    let run = replay::replay_into(&mut interpreter, &args.input, &mut store, &mut |report| {
        eprintln!("byog: warning: {report}");
    })
    .map_err(|e| CliError::Usage(super::errors::replay(&e)))?;
    if run.nothing_to_load {
        return Err(CliError::Usage(
            "no saved game to load (L): start a run with R<seed>S".into(),
        ));
    }
    if let Phase::Closed(_) = interpreter.phase() {
        return Err(CliError::Usage(
            "the input string quits (Q or :Q), so no key after it would be played: \
             leave out the :Q"
                .into(),
        ));
    }
    if let Phase::Playing { colon: true } | Phase::Ended { colon: true } = interpreter.phase() {
        return Err(CliError::Usage(
            "the input string ends with a lone ':': leave it out".into(),
        ));
    }
    let Some(game) = interpreter.game_in_play() else {
        return Err(CliError::Usage(
            "the input string starts no run: begin it with R<seed>S".into(),
        ));
    };
    drop(store);
    common.report_unused(game.kind().key(), watched.loaded(game));
    let actions = solver::solve(game).map_err(|e| CliError::Usage(e.to_string()))?;
    let keys: String = actions.iter().map(|a| a.key()).collect();
    write_stdout(|out| writeln!(out, "{keys}"))
}
