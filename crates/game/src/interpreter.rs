//! The one interpreter of keys (`docs/keys.md`): a state machine fed one key
//! at a time. The window and the terminal feed it keys from the keyboard, `replay` the
//! characters of an input string, so the same keys always give the same game. Keys become
//! [`Action`]s here; the [`rules`](super::rules) apply them.
//!
//! | state | key | effect |
//! |---|---|---|
//! | menu | `N` | seed entry for a classic game |
//! | menu | `R` | seed entry for a run (floors B1..B10) |
//! | menu | `E` | seed entry for an exploration (rooms made as you enter them) |
//! | menu | `L` | load the save; with none, [`Outcome::NoSave`] and the menu stays |
//! | menu | `Q` | quit without saving |
//! | seed entry | `0`-`9` | append a digit (refused past 9223372036854775807) |
//! | seed entry | Backspace (U+0008) | delete the last digit |
//! | seed entry, ended | Escape (U+001B) | back to the menu, nothing saved |
//! | seed entry | `S` | generate the world and play (refused with no digits) |
//! | playing | `W` `A` `S` `D` | move up / left / down / right ([`Action::Move`]) |
//! | playing | `.` | wait a turn: the monsters act, a run pays a move ([`Action::Wait`]) |
//! | playing | `X` | explore: walk to the nearest unseen area, step by step ([`travel`]) |
//! | playing | `>` | travel to the exit once seen ([`travel`]); in an exploration, to beside the way up, then ask |
//! | playing, asked | `Y` | after `>` beside an exploration's way up: step into it (bank) |
//! | playing, ended | `:` `Q` | save, then quit; later keys are ignored |
//! | playing, ended | `:` other | the colon is dropped, the key acts as usual |
//! | ended | `N`, `R`, `E` | seed entry for a new game, run or exploration (the ended one stays as it was saved) |
//! | any | anything else | ignored and reported ([`Outcome::Reported`]) |
//!
//! Keys are case-insensitive. "Ended" is a game that was won (or, in runs, lost).

use std::fmt;

use super::action::Action;
pub use super::base::GameKind;
use super::base::MAX_SEED;
use super::explore::ExploreSettings;
use super::game::GameState;
use super::rules::Events;
use super::save::{Replaced, SaveError, SaveStore};
use super::travel::{self, Goal, Stop};
use byog_tile_engine::Direction;
use byog_worlds::generator::{GenerateError, GeneratorSettings};

// The keys' names, where they were before the key vocabulary had its module.
pub use super::keys::{BACKSPACE, ESCAPE, key_name};

/// Where the interpreter is, as front-ends see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The title menu.
    Menu,
    /// Typing a seed after `N` (or `R`, `E`).
    SeedEntry {
        /// What the seed will start.
        kind: GameKind,
        /// The seed typed so far.
        seed: u64,
        /// How many digits were typed (0 until the first).
        digits: u32,
    },
    /// A game is in play.
    Playing {
        /// Whether the previous key was a `:` waiting for `Q`.
        colon: bool,
    },
    /// The game in play has ended (won or lost); `N` starts another, `:Q` saves and quits.
    Ended {
        /// Whether the previous key was a `:` waiting for `Q`.
        colon: bool,
    },
    /// The program is closing; every further key is ignored.
    Closed(Closing),
}

/// Why the program closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closing {
    /// `Q` in the menu: quit without saving.
    Quit,
    /// `:Q` in a game: the game was saved.
    SavedAndQuit,
}

/// Which state a key was not understood in, for the player's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhaseKind {
    /// At the menu.
    Menu,
    /// During seed entry.
    SeedEntry,
    /// In a game being played.
    Playing,
    /// In a game that has ended.
    Ended,
}

/// Why a key was ignored or refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The key means nothing in this state.
    UnknownKey(PhaseKind),
    /// The digit would push the seed past [`MAX_SEED`].
    SeedTooLarge,
    /// `S` before any seed digit.
    EmptySeed,
    /// Backspace with no digit typed.
    NothingToDelete,
    /// A move after the game ended.
    GameOver,
    /// Any key after the game ended, in an interpreter that plays one game
    /// ([`Interpreter::with_one_game`]).
    OneGameOver,
    /// The program has already closed (after `:Q` or `Q`).
    AfterQuit,
    /// A `:` was followed by a key other than `Q`: the colon was dropped and that key acted
    /// as usual.
    ColonDropped,
    /// `X` or `>` took no step: why ([`Stop`]): nothing to walk to, no way that the hearts
    /// or the moves left allow, or a first step the rules refused.
    Travel(Stop),
}

impl fmt::Display for Refusal {
    /// The reason in a player's words, without the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::UnknownKey(PhaseKind::Menu) => {
                f.write_str("not a menu key (N new game, R run, E exploration, L load, Q quit)")
            }
            Refusal::UnknownKey(PhaseKind::SeedEntry) => f.write_str(
                "not a seed key (type digits, then S; Backspace deletes, Esc goes back)",
            ),
            Refusal::UnknownKey(PhaseKind::Playing) => {
                f.write_str("not a game key (W A S D move, X explores, > travels to the exit, :Q saves and quits)")
            }
            Refusal::UnknownKey(PhaseKind::Ended) => f.write_str(
                "the game is over (N new game, R run, E exploration, Esc menu, :Q saves and quits)",
            ),
            Refusal::SeedTooLarge => write!(f, "a seed can be at most {MAX_SEED}"),
            Refusal::EmptySeed => f.write_str("type at least one digit before S"),
            Refusal::NothingToDelete => f.write_str("there is no digit to delete"),
            Refusal::GameOver => f.write_str(
                "the game is over (N new game, R run, E exploration, Esc menu, :Q saves and quits)",
            ),
            Refusal::OneGameOver => f.write_str("the game is over"),
            Refusal::AfterQuit => f.write_str("byog has quit; keys do nothing any more"),
            Refusal::Travel(stop) => write!(f, "{stop}"),
            Refusal::ColonDropped => f.write_str(
                "a colon saves only before Q (:Q saves and quits); it was dropped and the next key acted as usual",
            ),
        }
    }
}

/// A key that was ignored or refused: which key, its 0-based position among all keys fed,
/// and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused {
    /// The key as received.
    pub key: char,
    /// 0-based position of the key in the input (characters, not bytes).
    pub position: usize,
    /// Why it did nothing.
    pub reason: Refusal,
}

impl Refused {
    /// The message a player sees (the window's and the terminal's HUD): the key and the
    /// reason, never a position, e.g. "')': not a game key (W A S D move, …, :Q saves and
    /// quits)".
    pub fn player_message(&self) -> String {
        match self.reason {
            Refusal::SeedTooLarge
            | Refusal::EmptySeed
            | Refusal::NothingToDelete
            | Refusal::GameOver
            | Refusal::OneGameOver
            | Refusal::AfterQuit
            | Refusal::ColonDropped
            | Refusal::Travel(_) => self.reason.to_string(),
            Refusal::UnknownKey(_) => format!("{}: {}", key_name(self.key), self.reason),
        }
    }
}

impl fmt::Display for Refused {
    /// The replay form, with the position: "key ')' at position 5 ignored: …".
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
    /// The key was taken and changed only the screen (a menu key, a digit, Backspace, Esc,
    /// a `:`).
    Accepted,
    /// A game is now in play (after `S`, or `L` with a save).
    Started,
    /// An action was applied to the game; the events say what happened (a bump is a
    /// [`Event::Blocked`](super::rules::Event::Blocked) event, not a report).
    Acted(Events),
    /// `L` with no save: nothing was loaded and the menu stays. `replay` ends here; the
    /// window and the terminal say so and stay at the menu.
    NoSave,
    /// The key did nothing; the report says why.
    Reported(Refused),
    /// The program should close now.
    Closed(Closing),
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

/// The interpreter's state. A game in play is held by the state itself, so "playing without
/// a game" cannot be represented.
#[derive(Debug, Clone)]
enum State {
    Menu,
    SeedEntry {
        kind: GameKind,
        seed: u64,
        digits: u32,
    },
    InGame {
        game: Box<GameState>,
        colon: bool,
        /// Whether the last key was a `>` that stopped beside an exploration's way up: a `Y`
        /// now steps into it (banks).
        asked: bool,
        /// What the last walk left for the next ([`travel::Kept`]).
        kept: Box<travel::Kept>,
    },
    Closed(Closing),
}

/// The key interpreter. See the module documentation for the table of keys.
#[derive(Debug, Clone)]
pub struct Interpreter {
    state: State,
    /// The last game played, once the player has left it (for `replay` to print and the
    /// front-ends to show); never the game in play.
    previous: Option<Box<GameState>>,
    width: usize,
    height: usize,
    settings: GeneratorSettings,
    floors: u32,
    explore: ExploreSettings,
    position: usize,
    /// A report about an earlier key that the last key made certain (a `:` it dropped),
    /// waiting for [`Interpreter::take_note`].
    note: Option<Refused>,
    /// What the last `:Q` wrote over, if it was not an earlier save of the same game.
    replaced: Option<Replaced>,
    /// Whether a game that has ended takes no key at all ([`Interpreter::with_one_game`]).
    one_game: bool,
}

impl Interpreter {
    /// The same interpreter, making runs of `floors` floors (`--floors`, 1..=99; default 10).
    pub fn with_floors(mut self, floors: u32) -> Self {
        self.floors = floors;
        self
    }

    /// An interpreter at the menu that makes new worlds of `width × height` tiles with
    /// `settings` (loaded games keep their own size and settings).
    pub fn new(width: usize, height: usize, settings: GeneratorSettings) -> Self {
        Interpreter {
            state: State::Menu,
            previous: None,
            width,
            height,
            settings,
            floors: crate::run::DEFAULT_FLOORS,
            explore: ExploreSettings::default(),
            position: 0,
            note: None,
            replaced: None,
            one_game: false,
        }
    }

    /// The same interpreter, playing one game: once it has ended (won, lost or banked), every
    /// key is refused ([`Refusal::GameOver`]): no `N`, `R`, `E`, Esc or `:Q`. A web server's
    /// game is one game; what comes next is the page's business, and the game's key log ends
    /// with its last move.
    pub fn with_one_game(mut self) -> Self {
        self.one_game = true;
        self
    }

    /// The same interpreter, making explorations with `settings` (`--max-unexplored`,
    /// `--branch-timer`).
    pub fn with_explore(mut self, settings: ExploreSettings) -> Self {
        self.explore = settings;
        self
    }

    /// The settings of the explorations this interpreter makes.
    pub fn explore_settings(&self) -> ExploreSettings {
        self.explore
    }

    /// The size of the worlds this interpreter makes, in tiles (a run's largest floor).
    pub fn width(&self) -> usize {
        self.width
    }

    /// See [`Interpreter::width`].
    pub fn height(&self) -> usize {
        self.height
    }

    /// Floors in the runs this interpreter makes (`--floors`).
    pub fn floors(&self) -> u32 {
        self.floors
    }

    /// The current state.
    pub fn phase(&self) -> Phase {
        match &self.state {
            State::Menu => Phase::Menu,
            State::SeedEntry { kind, seed, digits } => Phase::SeedEntry {
                kind: *kind,
                seed: *seed,
                digits: *digits,
            },
            State::InGame { game, colon, .. } if game.has_ended() => Phase::Ended { colon: *colon },
            State::InGame { colon, .. } => Phase::Playing { colon: *colon },
            State::Closed(c) => Phase::Closed(*c),
        }
    }

    /// The game in play, or else the last one played, if any.
    pub fn game(&self) -> Option<&GameState> {
        match &self.state {
            State::InGame { game, .. } => Some(game),
            _ => self.previous.as_deref(),
        }
    }

    /// The game in play (not one the player has left).
    pub fn game_in_play(&self) -> Option<&GameState> {
        match &self.state {
            State::InGame { game, .. } => Some(game),
            _ => None,
        }
    }

    /// Takes the game out of the interpreter (see [`Interpreter::game`]).
    pub fn into_game(self) -> Option<GameState> {
        match self.state {
            State::InGame { game, .. } => Some(*game),
            _ => self.previous.map(|g| *g),
        }
    }

    /// A report about an earlier key that the last key fed made certain, once: a `:` that
    /// the key after it dropped (it was not `Q`). `replay` reports it like any ignored key
    /// (before the key's own report, if any; `--strict` refuses it), the front-ends show it.
    pub fn take_note(&mut self) -> Option<Refused> {
        self.note.take()
    }

    /// What the `:Q` that closed the program wrote over, when that was not an earlier save
    /// of the same game (the save of another game, or an unreadable file): `replay` says so
    /// on stderr and the front-ends on the way out.
    pub fn replaced(&self) -> Option<&Replaced> {
        self.replaced.as_ref()
    }

    /// How many keys have been fed.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Appends `message` to the message log of the game in play, or else of the last one
    /// played (a front-end's words for what a key did: [`GameState::log_message`]); nothing
    /// without a game.
    pub fn log_message(&mut self, message: impl Into<String>) {
        match &mut self.state {
            State::InGame { game, .. } => game.log_message(message),
            _ => {
                if let Some(game) = self.previous.as_deref_mut() {
                    game.log_message(message);
                }
            }
        }
    }

    /// Whether the last key was a `>` that stopped beside an exploration's way up, so that a
    /// `Y` now steps into it and banks (any other key drops the question and acts as usual).
    pub fn asks_to_bank(&self) -> bool {
        matches!(self.state, State::InGame { asked: true, .. })
    }

    /// Whether the program has closed (`Q` or `:Q`).
    pub fn has_closed(&self) -> bool {
        matches!(self.state, State::Closed(_))
    }

    /// Forgets the actions the games held recorded (their [`GameState::history`]), for a
    /// session that never saves: the agent (`byog_players::agent`), whose memory then stays
    /// flat however many keys it plays. Nothing else changes.
    pub fn forget_history(&mut self) {
        let held = match &mut self.state {
            State::InGame { game, .. } => Some(game),
            _ => None,
        };
        for game in held.into_iter().chain(self.previous.as_mut()) {
            game.actions.clear();
            game.actions.shrink_to(64);
        }
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
        // The hot path of a replay: a move in a game in play (what `step` does with it,
        // without the rest of the state machine).
        if let State::InGame {
            game,
            colon: false,
            asked,
            ..
        } = &mut self.state
            && let Some(action @ Action::Move(_)) = Action::from_key(key)
            && !game.has_ended()
        {
            *asked = false;
            self.position += 1;
            return Ok(Outcome::Acted(game.apply(action)));
        }
        let outcome = self.step(key, store);
        if outcome.is_ok() {
            self.position += 1;
        }
        outcome
    }

    /// [`Interpreter::feed`]'s hot path alone, for a replay that does not look at a move's
    /// events: when `key` is a move of a game in play, plays it and returns `true`; else does
    /// nothing and returns `false` (feed the key). Saves copying the move's events out
    /// ([`Events`] is 200 bytes; a million keys of `replay` spend 4-5 ms on that copy).
    pub fn play_move(&mut self, key: char) -> bool {
        if let State::InGame {
            game,
            colon: false,
            asked,
            ..
        } = &mut self.state
            && let Some(action @ Action::Move(_)) = Action::from_key(key)
            && !game.has_ended()
        {
            *asked = false;
            self.position += 1;
            game.apply(action);
            return true;
        }
        false
    }

    fn step(&mut self, key: char, store: &mut dyn SaveStore) -> Result<Outcome, InterpretError> {
        let upper = key.to_ascii_uppercase();
        let report = |reason| {
            Ok(Outcome::Reported(Refused {
                key,
                position: self.position,
                reason,
            }))
        };
        match &mut self.state {
            State::Menu => match upper {
                'L' => match store.load()? {
                    Some(game) => {
                        self.start(game);
                        Ok(Outcome::Started)
                    }
                    None => Ok(Outcome::NoSave),
                },
                'Q' => Ok(self.close(Closing::Quit)),
                _ => match GameKind::from_key(upper) {
                    Some(kind) => Ok(self.enter_seed(kind)),
                    None => report(Refusal::UnknownKey(PhaseKind::Menu)),
                },
            },
            State::SeedEntry { kind, seed, digits } => match upper {
                '0'..='9' => {
                    let d = u64::from(upper as u8 - b'0');
                    match seed.checked_mul(10).and_then(|s| s.checked_add(d)) {
                        Some(next) if next <= MAX_SEED => {
                            *seed = next;
                            *digits += 1;
                            Ok(Outcome::Accepted)
                        }
                        _ => report(Refusal::SeedTooLarge),
                    }
                }
                BACKSPACE if *digits == 0 => report(Refusal::NothingToDelete),
                BACKSPACE => {
                    *seed /= 10;
                    *digits -= 1;
                    Ok(Outcome::Accepted)
                }
                ESCAPE => {
                    self.state = State::Menu;
                    Ok(Outcome::Accepted)
                }
                'S' if *digits == 0 => report(Refusal::EmptySeed),
                'S' => {
                    let (kind, seed) = (*kind, *seed);
                    let game = match kind {
                        GameKind::Run => GameState::new_run(
                            seed,
                            self.width,
                            self.height,
                            self.settings,
                            self.floors,
                        )?,
                        GameKind::Exploration => {
                            GameState::new_exploration(seed, self.settings, self.explore)?
                        }
                        GameKind::Classic => {
                            GameState::new(seed, self.width, self.height, self.settings)?
                        }
                    };
                    self.start(game);
                    Ok(Outcome::Started)
                }
                _ => report(Refusal::UnknownKey(PhaseKind::SeedEntry)),
            },
            State::InGame { game, .. } if self.one_game && game.has_ended() => {
                report(Refusal::OneGameOver)
            }
            State::InGame {
                game,
                colon,
                asked,
                kept,
            } => {
                if std::mem::take(asked) && upper == 'Y' && !*colon {
                    // docs/keys.md: `>` stopped beside the way up; `Y` takes the step in.
                    if let Some(d) = Direction::ALL
                        .into_iter()
                        .find(|&d| game.avatar() + d == game.exit())
                    {
                        return Ok(Outcome::Acted(game.apply(Action::Move(d))));
                    }
                }
                if *colon && upper == 'Q' {
                    let replaced = super::save::replaced_by(store, game);
                    if let Err(e) = store.save(game) {
                        // Not saved: the game goes on, the `:` answered (a front-end says
                        // why rather than waiting for another `Q`).
                        *colon = false;
                        return Err(e.into());
                    }
                    self.replaced = replaced;
                    return Ok(self.close(Closing::SavedAndQuit));
                }
                if *colon {
                    self.note = Some(Refused {
                        key: ':',
                        position: self.position - 1,
                        reason: Refusal::ColonDropped,
                    });
                }
                *colon = upper == ':';
                if *colon {
                    return Ok(Outcome::Accepted);
                }
                let ended = game.has_ended();
                // docs/keys.md: `X` and `>` walk many steps, each an ordinary move; a walk
                // that takes none (nothing to walk to, or a first step refused) is reported
                // with the reason, so `replay` prints it and `--strict` refuses it.
                if !ended && let Some(goal) = travel_goal(upper) {
                    let walk = travel::walk_on(game, goal, kept);
                    // Beside an exploration's way up, `>` asks: a `Y` next banks.
                    *asked = walk.stop == Stop::AtTheWayUp;
                    return match walk.last {
                        Some(events) => Ok(Outcome::Acted(events)),
                        None if *asked => Ok(Outcome::Accepted),
                        None => report(Refusal::Travel(walk.stop)),
                    };
                }
                // `U` (drink) is an exploration's key only: elsewhere it is unknown, as before.
                let action = Action::from_key(upper)
                    .filter(|a| *a != Action::Drink || game.kind() == GameKind::Exploration);
                match (action, ended) {
                    (Some(action), false) => Ok(Outcome::Acted(game.apply(action))),
                    (Some(_), true) => report(Refusal::GameOver),
                    // docs/keys.md: Escape leaves an ended game for the menu (nothing saved; the
                    // game stays as the last one played).
                    (None, true) if key == ESCAPE => {
                        self.leave_game(State::Menu);
                        Ok(Outcome::Accepted)
                    }
                    (None, true) => match GameKind::from_key(upper) {
                        Some(kind) => Ok(self.enter_seed(kind)),
                        None => report(Refusal::UnknownKey(PhaseKind::Ended)),
                    },
                    (None, false) => report(Refusal::UnknownKey(PhaseKind::Playing)),
                }
            }
            State::Closed(_) => report(Refusal::AfterQuit),
        }
    }

    /// Seed entry for `kind`, leaving any game in play as it is.
    fn enter_seed(&mut self, kind: GameKind) -> Outcome {
        self.leave_game(State::SeedEntry {
            kind,
            seed: 0,
            digits: 0,
        });
        Outcome::Accepted
    }

    fn start(&mut self, game: GameState) {
        self.state = State::InGame {
            game: Box::new(game),
            colon: false,
            asked: false,
            kept: Box::default(),
        };
        self.previous = None;
    }

    fn close(&mut self, closing: Closing) -> Outcome {
        self.leave_game(State::Closed(closing));
        Outcome::Closed(closing)
    }

    /// Moves to `next`, keeping the game in play (if any) as the previous game.
    fn leave_game(&mut self, next: State) {
        if let State::InGame { game, .. } = std::mem::replace(&mut self.state, next) {
            self.previous = Some(game);
        }
    }
}

/// The walk a key asks for in a game: `X` explores, `>` travels to the exit.
pub fn travel_goal(key: char) -> Option<Goal> {
    match key.to_ascii_uppercase() {
        'X' => Some(Goal::Explore),
        '>' => Some(Goal::Exit),
        _ => None,
    }
}
