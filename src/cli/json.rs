//! The JSON state `replay --format json` prints (`../shared/SPEC.md`, section 5): one object
//! describing where the interpreter is and the game's state, for tools and tests.
//!
//! Fields: `mode` (`"classic"`, or `"menu"` when no game was started), `seed`, `status`
//! (`"playing"`, `"won"`), `width`, `height`, `rows` (the `to_string` rows, top first),
//! `avatar` and `exit` as `[x, y]` (y up), `moves`, and `history` (the canonical input
//! string). Without a game, `mode` is `"menu"` and the game's fields are `null`.

use serde_json::{Value, json};

use crate::core::GameState;
use crate::core::game::LevelStatus;
use crate::core::interpreter::Interpreter;

/// The JSON state of `interpreter` (its game in play, or the last one played).
pub fn state(interpreter: &Interpreter) -> Value {
    match interpreter.game() {
        Some(game) => game_state(game),
        None => json!({
            "mode": "menu",
            "seed": null,
            "status": null,
            "width": null,
            "height": null,
            "rows": [],
            "avatar": null,
            "exit": null,
            "moves": 0,
        }),
    }
}

/// The JSON state of one classic game.
pub fn game_state(game: &GameState) -> Value {
    let world = game.world();
    let text = world.to_string();
    let status = match game.status() {
        LevelStatus::Playing => "playing",
        LevelStatus::Won => "won",
    };
    json!({
        "mode": "classic",
        "seed": game.seed(),
        "status": status,
        "width": world.width(),
        "height": world.height(),
        "rows": text.lines().collect::<Vec<_>>(),
        "avatar": [game.avatar().x, game.avatar().y],
        "exit": [game.exit().x, game.exit().y],
        "moves": game.moves(),
        "history": game.history(),
    })
}
