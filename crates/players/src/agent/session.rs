//! The agent in process: [`Agent`] plays lines of keys on one interpreter, each whole or not
//! at all, and observes the game after each ([`Observation`]); [`AgentOptions`] says how
//! new games are made and what `L` loads; [`AgentError`] says why a line was not played.

use std::path::PathBuf;

use byog_game::GameOptions;
use byog_game::action::Action;
use byog_game::interpreter::{
    BACKSPACE, ESCAPE, InterpretError, Interpreter, Outcome, Phase, PhaseKind, Refusal, Refused,
    key_name,
};
use byog_game::save::DEFAULT_SLOT;
use byog_wire::{Observation, Sight};

use super::store::ReadOnlyStore;
use super::view::ViewCache;

/// `{"error": message}`, as one line of JSON (no newline): the protocol's answer to a line
/// that was not played.
pub fn error_json(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

/// What new games are made with, as the common flags of the command line give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentOptions {
    /// What new games are made with ([`GameOptions::default`]: 80 × 30 worlds, runs of 10
    /// floors); it builds the agent's interpreter ([`GameOptions::interpreter`]).
    pub game: GameOptions,
    /// The folder whose slot `L` loads; `None`: `L` finds no save. Never written.
    pub save_dir: Option<PathBuf>,
    /// The slot `L` loads from `save_dir`: `save_dir/SLOT.bin` (`--slot`; 1 to 32 letters,
    /// digits, `-` or `_`); default `save`. A name that is no slot name makes `L` fail with
    /// an error naming it.
    pub slot: String,
    /// Whether the agent keeps the keys played since the last reset ([`Agent::keys`]), one
    /// byte a key; default `false`, so a session's memory does not grow with its keys.
    pub record_keys: bool,
}

impl Default for AgentOptions {
    /// 80 × 30 worlds, the default generator, runs of 10 floors, the default explorations,
    /// no save folder (slot `save`), no keys recorded.
    fn default() -> Self {
        AgentOptions {
            game: GameOptions::default(),
            save_dir: None,
            slot: DEFAULT_SLOT.to_owned(),
            record_keys: false,
        }
    }
}

/// Why a line of keys was not played. The game is as it was before the line.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The interpreter ignored or refused a key (strict rules: the whole line is refused).
    /// `position` counts characters from the line's start (0-based).
    #[error("key {} at position {position} of the line was refused: {}; the line was not played", key_name(*.key), refusal_text(*.reason))]
    Refused {
        /// The key.
        key: char,
        /// Its 0-based position in the line.
        position: usize,
        /// Why, in a player's words.
        reason: Refusal,
    },
    /// The line ends with a `:`, which waits for a `Q` to save, and an agent never saves.
    #[error(
        "the line ends with a ':', which waits for Q to save, and an agent session never saves; the line was not played"
    )]
    LoneColon,
    /// `L` found no save (or the agent has no save folder).
    #[error(
        "key 'L' at position {position} of the line found no save to load; the line was not played"
    )]
    NoSave {
        /// The 0-based position of the `L` in the line.
        position: usize,
    },
    /// `:Q`: an agent never saves.
    #[error(
        "key 'Q' at position {position} of the line would save: an agent session never saves (send {{\"reset\": KEYS}} to start again); the line was not played"
    )]
    SavingOff {
        /// The 0-based position of the `Q` in the line.
        position: usize,
    },
    /// A key could not be carried out: a damaged save on `L`, a world that cannot be made.
    #[error("key {} at position {position} of the line failed: {source}; the line was not played", key_name(*.key))]
    Failed {
        /// The key.
        key: char,
        /// Its 0-based position in the line.
        position: usize,
        /// What failed.
        source: InterpretError,
    },
}

/// Why a key was refused, in a player's words; for a dropped colon, in an agent's.
fn refusal_text(reason: Refusal) -> String {
    match reason {
        Refusal::ColonDropped => {
            "a colon waits for Q, which saves, and an agent session never saves".into()
        }
        other => other.to_string(),
    }
}

impl AgentError {
    /// The error object of the protocol: `{"error": "<message>"}`.
    pub fn to_json(&self) -> String {
        error_json(&self.to_string())
    }
}

/// A game played by a program: keys in, [`Observation`]s out.
///
/// ```
/// use byog_players::agent::{Agent, AgentOptions};
/// let mut agent = Agent::new(AgentOptions::default());
/// let start = agent.reset("R42S").unwrap();
/// let sight = start.game.as_ref().unwrap();
/// assert_eq!(sight.run.unwrap().floor, 1);
/// let after = agent.step("D").unwrap();
/// assert!(after.to_json().starts_with("{\"avatar\":"));
/// assert!(agent.step("Z").is_err()); // not a key: refused, the game unchanged
/// assert_eq!(agent.observe(), after);
/// ```
///
/// Memory: the game, a copy of its view (a byte a tile) and, for a line that could be
/// refused after some of its keys were played, a copy of the game taken before the line; no
/// log of the keys (unless [`AgentOptions::record_keys`]) nor of the game's actions, so a
/// session's memory stays flat however many keys it plays.
#[derive(Debug)]
pub struct Agent {
    options: AgentOptions,
    interpreter: Interpreter,
    store: ReadOnlyStore,
    /// Every key played since the last reset, when [`AgentOptions::record_keys`] asks for
    /// them: `byog replay` of them gives this state.
    keys: Option<String>,
    /// The view of a grid game as of the last observation, kept up to date a patch at a
    /// time.
    view: ViewCache,
    /// Keys of the last line left unplayed after its game ended.
    unplayed: usize,
}

impl Agent {
    /// An agent at the menu (no game yet) that makes new games with `options`. Sizes or
    /// settings out of range are reported when a game is started (`S`), as an error.
    pub fn new(options: AgentOptions) -> Agent {
        let store = ReadOnlyStore::new(options.save_dir.as_ref(), &options.slot);
        Agent {
            interpreter: options.game.interpreter(),
            keys: options.record_keys.then(String::new),
            options,
            store,
            view: ViewCache::default(),
            unplayed: 0,
        }
    }

    /// The options games are made with.
    pub fn options(&self) -> &AgentOptions {
        &self.options
    }

    /// The keys played since the last reset (the reset's own keys first), when
    /// [`AgentOptions::record_keys`] asked for them (else empty): `byog replay --format json
    /// --view sight` of them prints [`Agent::observe`]'s JSON. Keys a line left unplayed
    /// after its game ended are not among them.
    pub fn keys(&self) -> &str {
        self.keys.as_deref().unwrap_or_default()
    }

    /// What the player sees now (with no keys unplayed).
    pub fn observe(&self) -> Observation {
        match (
            self.view.current(&self.interpreter),
            self.interpreter.game(),
        ) {
            (Some(view), Some(game)) => Observation {
                game: Some(Sight::with_view(game, view.clone())),
                unplayed: 0,
            },
            _ => Observation::of(&self.interpreter),
        }
    }

    /// Starts afresh from the menu (a new interpreter, the save folder read anew) and plays
    /// `keys`, e.g. `"R42S"`.
    ///
    /// # Errors
    /// [`AgentError`] when a key of `keys` is refused or fails; the agent then goes on with
    /// the game it had before the reset.
    pub fn reset(&mut self, keys: &str) -> Result<Observation, AgentError> {
        let mut fresh = Agent::new(self.options.clone());
        fresh.play(keys)?;
        *self = fresh;
        Ok(self.observation())
    }

    /// Plays `keys` (any number, e.g. `"D"` or `"WWAS"`) and observes the result; when the
    /// game ended before the last key, the keys after the one that ended it are left
    /// unplayed and [`Observation::unplayed`] counts them.
    ///
    /// # Errors
    /// [`AgentError`] when a key is refused or fails; the game is then as it was before.
    pub fn step(&mut self, keys: &str) -> Result<Observation, AgentError> {
        self.play(keys)?;
        Ok(self.observation())
    }

    /// The observation after the last line, its view brought up to date from the tiles that
    /// may have changed since the one before (the patches of sight round the avatar's tiles;
    /// the whole view after anything but moves).
    fn observation(&mut self) -> Observation {
        let unplayed = self.unplayed;
        let Some(game) = self.interpreter.game() else {
            return Observation {
                game: None,
                unplayed,
            };
        };
        let game = match self.view.update(game) {
            Some(view) => Sight::with_view(game, view.clone()),
            None => Sight::of(game),
        };
        Observation {
            game: Some(game),
            unplayed,
        }
    }

    /// Plays `keys` without building an observation (see [`Agent::step`]).
    ///
    /// Keys are fed to the interpreter one by one. A refused line is undone at no cost when
    /// its first key is refused (a refused key changes nothing), and otherwise by restoring a
    /// copy of the game taken before the line; a line that cannot be refused after its first
    /// key (one key, or only moves in a game in play) takes no copy. When the game ends
    /// (won or lost) before the line's last key, the keys after the one that ended it are
    /// left unplayed ([`Observation::unplayed`] counts them), unless one of them is no key at
    /// all (docs/keys.md): then the whole line is refused.
    ///
    /// # Errors
    /// As [`Agent::step`].
    pub fn play(&mut self, keys: &str) -> Result<(), AgentError> {
        self.unplayed = 0;
        let before = self.interpreter.phase();
        let start = self.interpreter.position();
        let moves_only = matches!(before, Phase::Playing { colon: false })
            && keys
                .chars()
                .all(|k| matches!(Action::from_key(k), Some(Action::Move(_))));
        let refusable = keys.contains(':') || (keys.chars().nth(1).is_some() && !moves_only);
        let snapshot = refusable.then(|| self.interpreter.clone());
        if !keys.is_empty() {
            self.view.touched(&self.interpreter, None);
        }
        let mut played = keys.len();
        for (position, (at, key)) in keys.char_indices().enumerate() {
            let playing = matches!(self.interpreter.phase(), Phase::Playing { .. });
            let fresh = ViewCache::unvisited_target(&self.interpreter, key);
            let outcome = self.interpreter.feed(key, &mut self.store);
            let note = self.interpreter.take_note();
            let moved = matches!(outcome, Ok(Outcome::Acted(_)))
                && matches!(Action::from_key(key), Some(Action::Move(_)));
            let error = match (note, outcome) {
                // A line never leaves a colon pending, so a dropped one is in this line.
                (Some(note), _) => Some(AgentError::Refused {
                    key: note.key,
                    position: note.position.saturating_sub(start),
                    reason: note.reason,
                }),
                (None, Ok(Outcome::Reported(Refused { key, reason, .. }))) => {
                    Some(AgentError::Refused {
                        key,
                        position,
                        reason,
                    })
                }
                (None, Ok(Outcome::NoSave)) => Some(AgentError::NoSave { position }),
                (None, Ok(_)) => None,
                (None, Err(_)) if self.store.save_refused => {
                    Some(AgentError::SavingOff { position })
                }
                (None, Err(source)) => Some(AgentError::Failed {
                    key,
                    position,
                    source,
                }),
            };
            if let Some(error) = error {
                if position > 0 || self.interpreter.phase() != before {
                    self.restore(snapshot);
                }
                self.store.save_refused = false;
                self.view.forget();
                return Err(error);
            }
            if moved {
                self.view.touched(&self.interpreter, fresh);
            } else {
                self.view.forget();
            }
            if playing && matches!(self.interpreter.phase(), Phase::Ended { .. }) {
                // The game ended: the rest of the line is left unplayed, if it is keys.
                let rest = &keys[at + key.len_utf8()..];
                if let Some((k, c)) = rest.chars().enumerate().find(|&(_, c)| !is_key(c)) {
                    self.restore(snapshot);
                    self.view.forget();
                    return Err(AgentError::Refused {
                        key: c,
                        position: position + 1 + k,
                        reason: Refusal::UnknownKey(PhaseKind::Ended),
                    });
                }
                self.unplayed = rest.chars().count();
                played = at + key.len_utf8();
                break;
            }
        }
        if let Phase::Playing { colon: true } | Phase::Ended { colon: true } =
            self.interpreter.phase()
        {
            self.restore(snapshot);
            self.view.forget();
            return Err(AgentError::LoneColon);
        }
        if let Some(record) = &mut self.keys {
            record.push_str(&keys[..played]);
        }
        // The agent never saves: the game's own record of its actions is not needed.
        self.interpreter.forget_history();
        Ok(())
    }

    /// Puts the interpreter back as it was before a refused line.
    fn restore(&mut self, snapshot: Option<Interpreter>) {
        debug_assert!(
            snapshot.is_some(),
            "a line that can be refused after its first key takes a copy first"
        );
        if let Some(interpreter) = snapshot {
            self.interpreter = interpreter;
        }
        self.store.save_refused = false;
    }
}

/// Whether `c` is a key of input strings in some state (`docs/keys.md`): the letters N R E
/// L Q S W A D U X, the digits, `>`, `:`, Backspace and Esc, in either case.
fn is_key(c: char) -> bool {
    matches!(
        c.to_ascii_uppercase(),
        'N' | 'R' | 'E' | 'L' | 'Q' | 'S' | 'W' | 'A' | 'D' | 'U' | 'X' | '0'..='9' | '>' | ':'
    ) || c == BACKSPACE
        || c == ESCAPE
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The view kept a patch at a time, and the one made whole, are the game's own compose
    /// step with sight ([`GameState::compose_seen`]) after every line: moves one or several
    /// a line, bumps, travel, wins and descents, refused and partly played lines, new games.
    #[test]
    fn the_view_kept_a_patch_at_a_time_is_the_game_composed_with_sight() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        const KEYS: &[u8] = b"WASDWASDWASDwasdWASDX>Z:N";
        let mut checked = 0;
        for start in ["N3S", "R5S", "N8S", "R2S"] {
            let mut agent = Agent::new(AgentOptions {
                game: GameOptions {
                    width: 30,
                    height: 15,
                    floors: 3,
                    ..GameOptions::default()
                },
                ..AgentOptions::default()
            });
            agent.reset(start).unwrap();
            for _ in 0..400 {
                let long = next(5) == 0;
                let len = 1 + next(if long { 12 } else { 3 });
                let keys: String = (0..len)
                    .map(|_| KEYS[next(KEYS.len() as u64) as usize] as char)
                    .collect();
                let Ok(obs) = agent.step(&keys) else {
                    continue;
                };
                let Some(game) = agent.interpreter.game() else {
                    continue;
                };
                let sight = obs.game.as_ref().unwrap();
                assert_eq!(sight.view, game.compose_seen(game.rect()), "{keys}");
                assert_eq!(agent.observe().game, obs.game);
                assert_eq!(Observation::of(&agent.interpreter).game, obs.game);
                checked += 1;
                if game.has_ended() || !matches!(agent.interpreter.phase(), Phase::Playing { .. }) {
                    agent.reset(start).unwrap();
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
