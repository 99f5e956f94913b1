//! The one interpreter of keys (`../shared/SPEC.md`, section 2): a state machine fed one key
//! at a time. The window feeds it keys from the keyboard, `replay` the characters of an input
//! string, so the same keys always give the same game.
//!
//! | state | key | effect |
//! |---|---|---|
//! | menu | `N` | start seed entry |
//! | menu | `L` | load the save; with none, the program ends cleanly |
//! | menu | `Q` | quit without saving |
//! | seed entry | `0`-`9` | append a digit (refused past 9223372036854775807) |
//! | seed entry | `S` | generate the world and play (refused with no digits) |
//! | playing | `W` `A` `S` `D` | move up / left / down / right |
//! | playing | `:` `Q` | save, then quit; later keys are ignored |
//! | playing | `:` other | the colon is dropped, the key acts as usual |
//! | any | anything else | ignored and reported |
//!
//! Keys are case-insensitive.

use std::fmt;

use super::game::{Direction, GameState, MAX_SEED, MoveResult};
use super::generator::{GenerateError, GeneratorSettings};
use super::save::{SaveError, SaveStore};

/// Where the interpreter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The title menu: `N`, `L`, `Q`.
    Menu,
    /// Typing a seed after `N`.
    SeedEntry {
        /// The seed typed so far.
        seed: u64,
        /// How many digits were typed (0 until the first).
        digits: u32,
    },
    /// A world is in play.
    Playing {
        /// Whether the previous key was a `:` waiting for `Q`.
        colon: bool,
    },
    /// The program is ending; every further key is ignored.
    Ended(Ending),
}

/// Why the program ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `Q` in the menu: quit without saving.
    Quit,
    /// `:Q` while playing: the game was saved.
    SavedAndQuit,
    /// `L` with no save to load (sp18: the game ends with no errors).
    NothingToLoad,
}

/// Why a key was ignored or refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The key means nothing in the current state.
    NotACommand(&'static str),
    /// The digit would push the seed past `MAX_SEED`.
    SeedTooLarge,
    /// `S` before any seed digit.
    EmptySeed,
    /// The level is won; only `:Q` is left to do.
    LevelWon,
    /// The program has already ended (after `:Q`, `Q`, or `L` with no save).
    AfterEnd,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotACommand(state) => write!(f, "not a key {state}"),
            Refusal::SeedTooLarge => write!(
                f,
                "the seed would exceed {MAX_SEED} (the largest Java long)"
            ),
            Refusal::EmptySeed => write!(f, "type at least one seed digit before S"),
            Refusal::LevelWon => write!(f, "the level is won; type :Q to save and quit"),
            Refusal::AfterEnd => write!(f, "the game has already ended"),
        }
    }
}

/// A key that was ignored or refused: which key, its 0-based position among all keys fed,
/// and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    /// The key as received.
    pub key: char,
    /// 0-based position of the key in the input (characters, not bytes).
    pub position: usize,
    /// Why it did nothing.
    pub reason: Refusal,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "key '{}' at position {} ignored: {}",
            self.key.escape_debug(),
            self.position,
            self.reason
        )
    }
}

/// What one key did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The key was taken (`N`, a digit, a `:`).
    Accepted,
    /// A world is now in play (after `S`, or `L` with a save).
    Started,
    /// A movement key was taken.
    Moved(MoveResult),
    /// The key did nothing; the report says why.
    Reported(Report),
    /// The program should end now.
    Ended(Ending),
}

/// A failure that stops the interpreter: the key is not taken and the state is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum InterpretError {
    /// Loading or saving failed.
    #[error(transparent)]
    Save(#[from] SaveError),
    /// The world could not be generated (size or settings out of range).
    #[error(transparent)]
    Generate(#[from] GenerateError),
}

/// The key interpreter. See the module documentation for the table of keys.
#[derive(Debug, Clone)]
pub struct Interpreter {
    mode: Mode,
    game: Option<GameState>,
    width: usize,
    height: usize,
    settings: GeneratorSettings,
    position: usize,
}

impl Interpreter {
    /// An interpreter at the menu that makes new worlds of `width × height` tiles with
    /// `settings` (loaded games keep their own size and settings).
    pub fn new(width: usize, height: usize, settings: GeneratorSettings) -> Self {
        Interpreter {
            mode: Mode::Menu,
            game: None,
            width,
            height,
            settings,
            position: 0,
        }
    }

    /// The current state.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The game in play (or last played), if any.
    pub fn game(&self) -> Option<&GameState> {
        self.game.as_ref()
    }

    /// Takes the game out of the interpreter.
    pub fn into_game(self) -> Option<GameState> {
        self.game
    }

    /// How many keys have been fed.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Whether the program has ended.
    pub fn has_ended(&self) -> bool {
        matches!(self.mode, Mode::Ended(_))
    }

    /// Feeds one key. `store` is used for `L` (load) and `:Q` (save).
    ///
    /// # Errors
    /// [`InterpretError`] when loading or saving fails (the key then has no effect and the
    /// state is unchanged), or a new world cannot be generated.
    pub fn feed(
        &mut self,
        key: char,
        store: &mut dyn SaveStore,
    ) -> Result<Outcome, InterpretError> {
        let outcome = self.step(key, store);
        if outcome.is_ok() {
            self.position += 1;
        }
        outcome
    }

    fn step(&mut self, key: char, store: &mut dyn SaveStore) -> Result<Outcome, InterpretError> {
        let upper = key.to_ascii_uppercase();
        let position = self.position;
        let refuse = |reason| {
            Ok(Outcome::Reported(Report {
                key,
                position,
                reason,
            }))
        };
        match self.mode {
            Mode::Menu => match upper {
                'N' => {
                    self.mode = Mode::SeedEntry { seed: 0, digits: 0 };
                    Ok(Outcome::Accepted)
                }
                'L' => match store.load()? {
                    Some(game) => {
                        self.game = Some(game);
                        self.mode = Mode::Playing { colon: false };
                        Ok(Outcome::Started)
                    }
                    None => Ok(self.end(Ending::NothingToLoad)),
                },
                'Q' => Ok(self.end(Ending::Quit)),
                _ => refuse(Refusal::NotACommand("in the menu (N new, L load, Q quit)")),
            },
            Mode::SeedEntry { seed, digits } => match upper {
                '0'..='9' => {
                    let d = u64::from(upper as u8 - b'0');
                    match seed.checked_mul(10).and_then(|s| s.checked_add(d)) {
                        Some(next) if next <= MAX_SEED => {
                            self.mode = Mode::SeedEntry {
                                seed: next,
                                digits: digits + 1,
                            };
                            Ok(Outcome::Accepted)
                        }
                        _ => refuse(Refusal::SeedTooLarge),
                    }
                }
                'S' if digits == 0 => refuse(Refusal::EmptySeed),
                'S' => {
                    self.game = Some(GameState::new(
                        seed,
                        self.width,
                        self.height,
                        self.settings,
                    )?);
                    self.mode = Mode::Playing { colon: false };
                    Ok(Outcome::Started)
                }
                _ => refuse(Refusal::NotACommand("in seed entry (digits, then S)")),
            },
            Mode::Playing { colon } => {
                if colon && upper == 'Q' {
                    if let Some(game) = &self.game {
                        store.save(game)?;
                    }
                    return Ok(self.end(Ending::SavedAndQuit));
                }
                self.mode = Mode::Playing { colon: false };
                if upper == ':' {
                    self.mode = Mode::Playing { colon: true };
                    return Ok(Outcome::Accepted);
                }
                let (Some(dir), Some(game)) = (Direction::from_key(upper), self.game.as_mut())
                else {
                    return refuse(Refusal::NotACommand("while playing (W A S D, :Q)"));
                };
                if game.status() == super::game::LevelStatus::Won {
                    return refuse(Refusal::LevelWon);
                }
                Ok(Outcome::Moved(game.step(dir)))
            }
            Mode::Ended(_) => refuse(Refusal::AfterEnd),
        }
    }

    fn end(&mut self, ending: Ending) -> Outcome {
        self.mode = Mode::Ended(ending);
        Outcome::Ended(ending)
    }
}
