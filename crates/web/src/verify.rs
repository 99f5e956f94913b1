//! Scores verified by replay (`docs/web.md`, "Verified scores"): an input string is fed to
//! the one interpreter, key by key, with the server's game options, and the score is the
//! one the replayed game ends with, never a claimed one. No shell is needed: a game is its
//! keys.
//!
//! Refused: a string over [`MAX_KEYS`] keys, one that does not start `N`, `R` or `E`, then
//! digits, then `S`; `L` (a load: the game would not be its keys) and `:` (`:Q` saves and
//! quits; a lone colon is dropped and reported) anywhere; any key the interpreter reports
//! (ignored or refused, as `replay --strict` refuses them); a second game in one string;
//! keys after the game ended; a game that has not ended. Each verified game carries the
//! hash of its canonical history (the history the game itself records: travel expanded,
//! bumps dropped), which the database keeps unique per ruleset and options, and a state
//! hash every [`HASH_EVERY`] keys, so that a replay that drifts on another build is found at
//! the first thousand keys where it parts (as Brogue's RNG checks find it).

use blake2::{Blake2b, Digest, digest::consts::U32};
use serde::Serialize;

use byog_game::GameState;
use byog_game::explore::ExploreSettings;
use byog_game::interpreter::Outcome;
use byog_game::save::MemoryStore;
use byog_worlds::generator::GeneratorSettings;

/// The rules a score was played under: this build's version and the rules' version
/// (`byog_game::RULES_VERSION`). A score of another ruleset is refused by `POST /api/verify`
/// (its replay would be another game).
pub const RULESET: &str = concat!(
    "byog-",
    env!("CARGO_PKG_VERSION"),
    "/rules-",
    "10" // byog_game::RULES_VERSION, checked by a test
);

/// The most keys a submitted string may hold: 262,144 (a 10-floor run takes 2,000 to
/// 5,000; an exploration of a thousand rooms some 60,000).
pub const MAX_KEYS: usize = 1 << 18;

/// Keys between two state hashes.
pub const HASH_EVERY: usize = 1000;

/// The game options every game of the server is made with (the command line's flags): the
/// game's one options type, which builds the interpreter ([`GameOptions::interpreter`]).
pub use byog_game::GameOptions;

/// The options as the one JSON string the database keeps, field order fixed:
/// `{"width":…,"height":…,"floors":…,"settings":{…},"explore":{…},"monsters":…}` (whether
/// explorations have monsters is not in `explore`'s serialised form; whether a game is one
/// game is not kept: every game of the server is).
pub fn canonical(options: &GameOptions) -> String {
    /// The kept form, field by field.
    #[derive(Serialize)]
    struct Kept<'a> {
        width: usize,
        height: usize,
        floors: u32,
        settings: &'a GeneratorSettings,
        explore: &'a ExploreSettings,
        monsters: bool,
    }
    serde_json::to_string(&Kept {
        width: options.width,
        height: options.height,
        floors: options.floors,
        settings: &options.settings,
        explore: &options.explore,
        monsters: options.explore.monsters,
    })
    .unwrap_or_default()
}

/// A game verified by replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verified {
    /// `classic`, `run` or `explore`.
    pub mode: &'static str,
    /// The seed.
    pub seed: u64,
    /// `won` or `lost`.
    pub status: &'static str,
    /// The points the replayed game ends with (0 for a classic game).
    pub score: u64,
    /// Its steps.
    pub moves: u64,
    /// BLAKE2b-256 of the game's canonical history, hex.
    pub keys_hash: String,
    /// BLAKE2b-256 of the game's save bytes after every [`HASH_EVERY`] keys, hex (the
    /// first 16 digits of each).
    pub state_hashes: Vec<String>,
    /// The game's canonical history.
    #[serde(skip)]
    pub history: String,
    /// The ruleset.
    pub ruleset: &'static str,
}

/// Why a string was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// Longer than [`MAX_KEYS`].
    #[error("the input string has {len} keys; at most {MAX_KEYS} are verified")]
    TooLong {
        /// Its length in keys.
        len: usize,
    },
    /// Does not start `N|R|E<digits>S`.
    #[error(
        "the input string must start with N, R or E, then the seed's digits, then S (e.g. R42S…)"
    )]
    BadStart,
    /// `L` or `:` at `position`.
    #[error("key '{key}' at position {position} is not allowed in a verified game ({why})")]
    Forbidden {
        /// The key.
        key: char,
        /// Its 0-based position.
        position: usize,
        /// Why.
        why: &'static str,
    },
    /// A key the interpreter ignored or refused.
    #[error("{0}")]
    Refused(String),
    /// The game did not end.
    #[error("the game has not ended ({moves} moves played): only won or lost games are scored")]
    Unfinished {
        /// Moves played.
        moves: u64,
    },
    /// Another ruleset than this server's.
    #[error("the game was played under ruleset '{0}'; this server verifies '{RULESET}'")]
    Ruleset(String),
    /// The interpreter failed (a world that cannot be made with these options).
    #[error("the game cannot be replayed: {0}")]
    Failed(String),
}

impl VerifyError {
    /// A short code for the API (`too-long`, `bad-start`, `forbidden`, `refused`,
    /// `unfinished`, `ruleset`, `failed`).
    pub fn code(&self) -> &'static str {
        match self {
            VerifyError::TooLong { .. } => "too-long",
            VerifyError::BadStart => "bad-start",
            VerifyError::Forbidden { .. } => "forbidden",
            VerifyError::Refused(_) => "refused",
            VerifyError::Unfinished { .. } => "unfinished",
            VerifyError::Ruleset(_) => "ruleset",
            VerifyError::Failed(_) => "failed",
        }
    }
}

/// BLAKE2b-256 of `bytes`, as 64 hex digits.
pub fn blake2b_hex(bytes: &[u8]) -> String {
    let digest = Blake2b::<U32>::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The state hash of `game`: the first 16 hex digits of BLAKE2b-256 of its save bytes.
pub fn state_hash(game: &GameState) -> String {
    blake2b_hex(&byog_game::save::encode(game))[..16].to_owned()
}

/// Whether `keys` starts `N|R|E<digits>S` (any case).
pub fn starts_a_game(keys: &str) -> bool {
    let b = keys.as_bytes();
    if b.is_empty() || !matches!(b[0].to_ascii_uppercase(), b'N' | b'R' | b'E') {
        return false;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    digits > 0
        && b.get(1 + digits)
            .is_some_and(|c| c.eq_ignore_ascii_case(&b'S'))
}

/// Replays `keys` with `options` and returns the game's verified result.
///
/// # Errors
/// [`VerifyError`] for every refusal listed in the module's doc.
pub fn verify(keys: &str, options: &GameOptions) -> Result<Verified, VerifyError> {
    let len = keys.chars().count();
    if len > MAX_KEYS {
        return Err(VerifyError::TooLong { len });
    }
    if !starts_a_game(keys) {
        return Err(VerifyError::BadStart);
    }
    for (position, key) in keys.chars().enumerate() {
        let why = match key {
            'L' | 'l' => "L loads a save: a verified game is its keys alone",
            ':' => ":Q saves and quits, and a lone colon is dropped",
            _ => continue,
        };
        return Err(VerifyError::Forbidden { key, position, why });
    }
    let mut interpreter = options.interpreter();
    let mut store = MemoryStore::default();
    let mut started = false;
    let mut hashes = Vec::new();
    for (i, key) in keys.chars().enumerate() {
        if interpreter.game().is_some_and(GameState::has_ended) {
            return Err(VerifyError::Refused(format!(
                "key '{}' at position {i} comes after the game ended",
                key.escape_debug()
            )));
        }
        let outcome = interpreter
            .feed(key, &mut store)
            .map_err(|e| VerifyError::Failed(e.to_string()))?;
        if let Some(note) = interpreter.take_note() {
            return Err(VerifyError::Refused(note.to_string()));
        }
        match outcome {
            Outcome::Reported(r) => return Err(VerifyError::Refused(r.to_string())),
            Outcome::Started if started => {
                return Err(VerifyError::Refused(format!(
                    "key '{key}' at position {i} starts a second game: one game a string"
                )));
            }
            Outcome::Started => started = true,
            Outcome::NoSave | Outcome::Closed(_) => {
                return Err(VerifyError::Refused(format!(
                    "key '{key}' at position {i} leaves the game"
                )));
            }
            Outcome::Accepted | Outcome::Acted(_) => {}
        }
        if (i + 1) % HASH_EVERY == 0
            && let Some(game) = interpreter.game()
        {
            hashes.push(state_hash(game));
        }
    }
    let game = interpreter.game().ok_or(VerifyError::BadStart)?;
    if !game.has_ended() {
        return Err(VerifyError::Unfinished {
            moves: game.moves(),
        });
    }
    let history = game.history();
    Ok(Verified {
        mode: game.kind().name(),
        seed: game.seed(),
        status: game.status().name(),
        score: game.score().unwrap_or(0),
        moves: game.moves(),
        keys_hash: blake2b_hex(history.as_bytes()),
        state_hashes: hashes,
        history,
        ruleset: RULESET,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept options are the JSON the database has always kept: the fields in their
    /// order, whether explorations have monsters last, and nothing of one game or many.
    #[test]
    fn the_canonical_options_keep_their_fields_and_order() {
        let default = GameOptions::default();
        let kept = canonical(&default);
        let settings = serde_json::to_string(&default.settings).unwrap();
        let explore = serde_json::to_string(&default.explore).unwrap();
        assert_eq!(
            kept,
            format!(
                r#"{{"width":80,"height":30,"floors":10,"settings":{settings},"explore":{explore},"monsters":true}}"#
            )
        );
        let one = GameOptions {
            one_game: true,
            ..default
        };
        assert_eq!(canonical(&one), kept);
        let quiet = GameOptions {
            explore: ExploreSettings {
                monsters: false,
                ..default.explore
            },
            ..default
        };
        assert_eq!(
            canonical(&quiet),
            kept.replace(r#""monsters":true}"#, r#""monsters":false}"#)
        );
    }

    #[test]
    fn the_ruleset_names_this_builds_rules() {
        assert!(RULESET.ends_with(&format!("/rules-{}", byog_game::RULES_VERSION)));
    }

    #[test]
    fn the_start_is_checked_before_anything_is_replayed() {
        assert!(starts_a_game("R42S"));
        assert!(starts_a_game("n1sww"));
        for bad in ["", "R", "RS", "R42", "X42S", "42S", "R4a2S", "LWW"] {
            assert!(!starts_a_game(bad), "{bad}");
            assert_eq!(
                verify(bad, &GameOptions::default()),
                Err(VerifyError::BadStart)
            );
        }
    }
}
