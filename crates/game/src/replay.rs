//! Running an input string through the interpreter, headless (`byog replay`, Java
//! `playWithInputString`).

use super::interpreter::{Closing, InterpretError, Interpreter, Outcome, Phase, Refused};
use super::save::{DeferredStore, SaveStore};

/// How a replay ended (the game itself stays in the interpreter).
#[derive(Debug)]
pub struct ReplayRun {
    /// Whether the program closed (`Q`, or `:Q` which saved).
    pub closing: Option<Closing>,
    /// `L` found no save: the replay stopped there (sp18: "end with no errors produced").
    pub nothing_to_load: bool,
    /// How many keys were ignored or refused.
    pub reported: usize,
    /// Whether a save was written (on `:Q`).
    pub saved: bool,
}

/// Why a replay stopped.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A key could not be carried out (a damaged save on `L`, a failed save on `:Q`).
    #[error("key '{}' at position {position}: {source}", key.escape_debug())]
    Key {
        /// The key.
        key: char,
        /// Its 0-based position in the input string.
        position: usize,
        /// What failed.
        source: InterpretError,
    },
    /// `--strict`: the first ignored or refused key.
    #[error("{0} (--strict refuses the whole input string; nothing was saved)")]
    Strict(Refused),
    /// `--strict`: the input string stops in the middle of a command.
    #[error(
        "the input string ends {0} (--strict refuses the whole input string; nothing was saved)"
    )]
    Unfinished(&'static str),
    /// Writing the save at the end failed.
    #[error(transparent)]
    Save(#[from] super::save::SaveError),
}

/// Feeds every character of `input` to `interpreter` and leaves whatever it saved in
/// `store` (no `--strict`, no commit): `solve` and tools that look at a state use it.
///
/// # Errors
/// [`ReplayError::Key`] when a key cannot be carried out.
pub fn replay_into(
    interpreter: &mut Interpreter,
    input: &str,
    store: &mut dyn SaveStore,
    on_report: &mut dyn FnMut(&Refused),
) -> Result<ReplayRun, ReplayError> {
    feed_keys(interpreter, input, store, &mut |r| {
        on_report(r);
        Ok(())
    })
}

/// Feeds the keys of `input` until they end or `L` finds no save; each report goes to
/// `on_report`, which may stop the run.
fn feed_keys(
    interpreter: &mut Interpreter,
    input: &str,
    store: &mut dyn SaveStore,
    on_report: &mut dyn FnMut(&Refused) -> Result<(), ReplayError>,
) -> Result<ReplayRun, ReplayError> {
    let mut run = ReplayRun {
        closing: None,
        nothing_to_load: false,
        reported: 0,
        saved: false,
    };
    for key in input.chars() {
        if interpreter.play_move(key) {
            // A move played: it reports nothing (a bump is an event, not a report).
            if let Some(note) = interpreter.take_note() {
                on_report(&note)?;
                run.reported += 1;
            }
            continue;
        }
        let position = interpreter.position();
        let outcome = interpreter.feed(key, store);
        if let Some(note) = interpreter.take_note() {
            on_report(&note)?;
            run.reported += 1;
        }
        match outcome {
            Ok(Outcome::Reported(report)) => {
                on_report(&report)?;
                run.reported += 1;
            }
            Ok(Outcome::Closed(c)) => run.closing = Some(c),
            Ok(Outcome::NoSave) => {
                run.nothing_to_load = true;
                break;
            }
            Ok(_) => {}
            Err(source) => {
                return Err(ReplayError::Key {
                    key,
                    position,
                    source,
                });
            }
        }
    }
    Ok(run)
}

/// Feeds every character of `input` to `interpreter`, calling `on_report` for each ignored or
/// refused key. A save made by `:Q` is written to `store` once the whole string has run. `L`
/// with no save ends the replay there. With `strict`, the first report stops the run with
/// [`ReplayError::Strict`], and a string that stops mid-command (in seed entry, or after a
/// lone `:`) with [`ReplayError::Unfinished`]; nothing is saved then.
///
/// Memory use is the game plus a constant: keys are streamed, reports are not kept.
///
/// # Errors
/// [`ReplayError`] as above.
pub fn replay<S: SaveStore>(
    interpreter: &mut Interpreter,
    input: &str,
    store: &mut S,
    strict: bool,
    on_report: &mut dyn FnMut(&Refused),
) -> Result<ReplayRun, ReplayError> {
    let mut deferred = DeferredStore::new(store);
    let mut run = feed_keys(interpreter, input, &mut deferred, &mut |report| {
        if strict {
            return Err(ReplayError::Strict(*report));
        }
        on_report(report);
        Ok(())
    })?;
    if strict {
        match interpreter.phase() {
            Phase::SeedEntry { digits: 0, .. } => {
                return Err(ReplayError::Unfinished(
                    "in seed entry with no digit (type the seed's digits, then S)",
                ));
            }
            Phase::SeedEntry { .. } => {
                return Err(ReplayError::Unfinished(
                    "in seed entry (add S to start the world)",
                ));
            }
            Phase::Playing { colon: true } | Phase::Ended { colon: true } => {
                return Err(ReplayError::Unfinished(
                    "with a lone ':' (add Q to save and quit)",
                ));
            }
            _ => {}
        }
    }
    run.saved = deferred.commit()?;
    Ok(run)
}
