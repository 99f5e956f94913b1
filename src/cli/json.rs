//! The JSON state `replay --format json` prints (`../shared/SPEC.md`, section 5): one object
//! describing where the interpreter is and the game's state, for tools and tests.
//!
//! Fields: `mode` (`"classic"`, `"run"`, or `"menu"` when no game was started), `seed`,
//! `status` (`"playing"`, `"won"`, `"lost"`), `width`, `height`, `rows` (the `to_string`
//! rows, top first), `avatar` and `exit` as `[x, y]` (y up), `moves`, and `history` (the
//! canonical input string), and `seen` (the rows of what the avatar has seen on this floor,
//! never-seen tiles as spaces). A run adds `floor` (1-based), `floors`, `score`, `health`,
//! `moves_left`, `perfect_floors`, `features` (`{"kind", "x", "y", "state"}`: `"chest"`
//! `"empty"`/`"full"`, `"trap"` `"sprung"`/`"armed"`), the floor's `allowance` and `par`, and
//! `loss` (why it was lost, or `null`). Without a game, `mode` is `"menu"` and the game's
//! fields are `null`.

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
        LevelStatus::Lost => "lost",
    };
    let mut state = json!({
        "mode": if game.run().is_some() { "run" } else { "classic" },
        "seed": game.seed(),
        "status": status,
        "width": world.width(),
        "height": world.height(),
        "rows": text.lines().collect::<Vec<_>>(),
        "avatar": [game.avatar().x, game.avatar().y],
        "exit": [game.exit().x, game.exit().y],
        "moves": game.moves(),
        "history": game.history(),
        "seen": game.compose_seen(game.terrain().rect()).to_string().lines().collect::<Vec<_>>(),
    });
    if let Some(run) = game.run() {
        let features: Vec<Value> = game
            .features()
            .iter()
            .map(|f| json!({"kind": f.kind_name(), "x": f.pos.x, "y": f.pos.y, "state": f.state_name()}))
            .collect();
        let extra = json!({
            "floor": run.floor,
            "floors": run.floors,
            "score": run.score,
            "health": run.health,
            "moves_left": run.moves_left,
            "perfect_floors": run.perfect_floors,
            "features": features,
            "allowance": run.info.allowance,
            "par": run.info.par,
            "loss": run.loss.map(|l| l.reason()),
        });
        if let (Some(o), Value::Object(e)) = (state.as_object_mut(), extra) {
            o.extend(e);
        }
    }
    state
}
