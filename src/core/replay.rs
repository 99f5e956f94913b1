//! Running an input string through the interpreter, headless (`byog replay`, Java
//! `playWithInputString`).

use super::interpreter::{Ending, InterpretError, Interpreter, Outcome, Report};
use super::save::{DeferredStore, SaveStore};

/// How a replay ended (the game itself stays in the interpreter).
#[derive(Debug)]
pub struct ReplayRun {
    /// How the program ended, if it did (`Q`, `:Q`, or `L` with no save).
    pub ending: Option<Ending>,
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
    Strict(Report),
    /// Writing the save at the end failed.
    #[error(transparent)]
    Save(#[from] super::save::SaveError),
}

/// Feeds every character of `input` to `interpreter`, calling `on_report` for each ignored or
/// refused key. A save made by `:Q` is written to `store` once the whole string has run; with
/// `strict`, the first report stops the run with [`ReplayError::Strict`] and nothing is saved.
///
/// Memory use is the world plus a constant: keys are streamed, reports are not kept.
///
/// # Errors
/// [`ReplayError`] as above.
pub fn replay<S: SaveStore>(
    interpreter: &mut Interpreter,
    input: &str,
    store: &mut S,
    strict: bool,
    on_report: &mut dyn FnMut(&Report),
) -> Result<ReplayRun, ReplayError> {
    let mut deferred = DeferredStore::new(store);
    let mut reported = 0;
    let mut ending = None;
    for key in input.chars() {
        let position = interpreter.position();
        match interpreter.feed(key, &mut deferred) {
            Ok(Outcome::Reported(report)) => {
                if strict {
                    return Err(ReplayError::Strict(report));
                }
                reported += 1;
                on_report(&report);
            }
            Ok(Outcome::Ended(e)) => ending = Some(e),
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
    let saved = deferred.commit()?;
    Ok(ReplayRun {
        ending,
        reported,
        saved,
    })
}
