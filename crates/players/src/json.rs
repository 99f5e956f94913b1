//! The game's JSON as values, for tests and tools that read it back (`docs/json.md`). It is
//! written in one place, the `byog-wire` package ([`byog_wire::State`] for
//! `replay --format json`, [`byog_wire::Observation`] for `--view sight` and the agent);
//! these functions hand its objects over as [`serde_json::Value`]s.

use serde_json::Value;

use byog_game::GameState;
use byog_game::explore::Monster;
use byog_game::interpreter::Interpreter;
use byog_tile_engine::Pos;
use byog_wire::parts::MonsterJson;
use byog_wire::{MENU_JSON, State};

/// The JSON state of `interpreter` (its game in play, or the last one played; the menu
/// object without one), as `byog replay --format json` prints it ([`byog_wire::state_json`]),
/// as a value: its `to_string()` is the same bytes.
pub fn state(interpreter: &Interpreter) -> Value {
    match interpreter.game() {
        Some(game) => game_state(game),
        None => serde_json::from_str(MENU_JSON).unwrap_or_default(),
    }
}

/// The JSON that `replay --format json --view sight` prints for `interpreter`: what its
/// player sees (`rows` as seen, the exit and the features once seen, the HUD's numbers), one
/// line without its newline ([`byog_wire::sight_json`]): the same object `byog agent`
/// answers with.
pub fn sight_state(interpreter: &Interpreter) -> String {
    byog_wire::sight_json(interpreter)
}

/// One monster as the JSON lists it, at `pos` (a tile of the world printed):
/// `{"health", "id", "kind", "state", "x", "y"}` ([`MonsterJson`]).
pub fn monster_json(m: &Monster, pos: Pos) -> Value {
    serde_json::to_value(MonsterJson::of(m, pos)).unwrap_or_default()
}

/// The JSON state of one game (classic, run or exploration) as a value ([`State::of`]).
pub fn game_state(game: &GameState) -> Value {
    serde_json::to_value(State::of(game)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use byog_worlds::generator::GeneratorSettings;

    /// The values are the documents: `to_string` of each is what `byog-wire` writes, keys
    /// in the same order, in every mode and at the menu.
    #[test]
    fn the_values_print_the_same_bytes_as_the_writer() {
        let mut it = Interpreter::new(30, 15, GeneratorSettings::default()).with_floors(2);
        assert_eq!(state(&it).to_string(), MENU_JSON);
        let mut store = byog_game::save::MemoryStore::default();
        for keys in ["N3SDDWW", "R4SWWDDXX", "E5SWWWWWWWWWWWWXX"] {
            it = Interpreter::new(30, 15, GeneratorSettings::default()).with_floors(2);
            for k in keys.chars() {
                let _ = it.feed(k, &mut store);
            }
            let game = it.game().unwrap();
            assert_eq!(state(&it).to_string(), byog_wire::state_json(&it), "{keys}");
            assert_eq!(game_state(game).to_string(), State::of(game).to_json());
        }
    }
}
