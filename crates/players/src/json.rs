//! The JSON state `replay --format json` prints (`docs/cli.md`): one object
//! describing where the interpreter is and the game's state, for tools and tests.
//!
//! Fields: `mode` (`"classic"`, `"run"`, `"explore"`, or `"menu"` when no game was started), `seed`,
//! `status` (`"playing"`, `"won"`, `"lost"`), `width`, `height`, `rows` (the `to_string`
//! rows, top first), `avatar` and `exit` as `[x, y]` (y up), `moves`, and `history` (the
//! canonical input string), and `seen` (the rows of what the avatar has seen on this floor,
//! never-seen tiles as spaces). A run adds `floor` (1-based), `floors`, `score`, `health`,
//! `moves_left`, `perfect_floors`, `features` (`{"kind", "x", "y", "state"}`: `"chest"`
//! `"empty"`/`"full"`, `"trap"` `"sprung"`/`"armed"`), the floor's `allowance` and `par`, and
//! `loss` (why it was lost, or `null`). An exploration (`mode` `"explore"`, section 9) adds
//! `health`, `score`, `features` (those of its map's rooms, as for a run), `branch` (the id
//! of the branch whose map the avatar is in, `null` in the start room), `room` (`[rx, ry]` of
//! the avatar's room) and its `depth`, `origin` (the dungeon tile of the frame's `(0, 0)`:
//! a room `[rx, ry]` covers the dungeon tiles from `[rx·13, ry·13]`, 13 × 13), `slot` (13, the side of a room's plot),
//! `max_unexplored`, `branch_timer`, `end` (`"banked"`, `"lost"` or `null`), `forfeited`
//! (points lost with the last health), `current` (start exit → the branch it leads into now,
//! or `null`), `branches` (`{"id", "entrance", "made_at", "retired", "unexplored", "rooms"}`)
//! and `rooms`: every room made, the start room first, then branch by branch, each
//! `{"branch", "pos": [x, y], "depth", "clear", "features", "monsters", "back", "exits"}`
//! (`monsters`: how many living monsters call it home; `back`: the side of its way back, or
//! `null` for the start room) with `exits` mapping
//! each side that has one (`"up"`, `"right"`, `"down"`, `"left"`) to `"two-way"`,
//! `"one-way"`, `"unexplored"` or `"locked"`. With monsters (`docs/monsters.md`) an
//! exploration adds `monsters` (those of the avatar's map: `{"id", "kind", "x", "y",
//! "health", "state"}`, `state` `"asleep"`, `"hunting"` or `"fleeing"`), `monsters_on`
//! (whether its rooms get monsters), `potions` (carried) and `killed_by` (the kind that took
//! the last heart, or `null`). Without a game, `mode` is `"menu"` and the
//! game's fields are `null`.
//!
//! `replay --format json --view sight` prints [`sight_state`] instead: only what the player
//! has seen, the very observation `byog agent` answers with ([`crate::agent::Observation`]).

use serde_json::{Value, json};

use byog_game::GameState;
use byog_game::explore::play::ExploreEnd;
use byog_game::explore::{self, Direction, ExploreState, Monster, Room};
use byog_game::game::LevelStatus;
use byog_game::interpreter::Interpreter;
use byog_game::run::Feature;
use byog_tile_engine::Pos;

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

/// The JSON that `replay --format json --view sight` prints for `interpreter`: what its
/// player sees (`rows` as seen, the exit and the features once seen, the HUD's numbers), one
/// line without its newline. It is [`Observation::to_json`](crate::agent::Observation), the
/// same object `byog agent` answers with.
pub fn sight_state(interpreter: &Interpreter) -> String {
    crate::agent::Observation::of(interpreter).to_json()
}

/// The features as the JSON lists them.
fn features_json(features: &[Feature]) -> Vec<Value> {
    features
        .iter()
        .map(
            |f| json!({"kind": f.kind_name(), "x": f.pos.x, "y": f.pos.y, "state": f.state_name()}),
        )
        .collect()
}

/// One monster as the JSON lists it, at `pos` (a world position).
pub fn monster_json(m: &Monster, pos: byog_tile_engine::Pos) -> Value {
    json!({
        "id": m.id,
        "kind": m.kind.name(),
        "x": pos.x,
        "y": pos.y,
        "health": m.health,
        "state": m.state.as_str(),
    })
}

/// One room as the JSON lists it (`branch`: `None` for the start room); `monsters` is how
/// many living monsters call it home.
fn room_json(room: &Room, branch: Option<u32>, monsters: u32) -> Value {
    let mut exits = serde_json::Map::new();
    for d in Direction::ALL {
        if let Some(state) = room.exit_state(d) {
            exits.insert(d.name().into(), state.as_str().into());
        }
    }
    json!({
        "branch": branch,
        "pos": [room.pos.x, room.pos.y],
        "depth": room.depth,
        "clear": room.clear,
        "features": room.features,
        "monsters": monsters,
        "back": room.back.map(|d| d.name()),
        "exits": exits,
    })
}

/// The fields an exploration adds (see the module's documentation).
fn explore_json(game: &GameState, e: &ExploreState) -> Value {
    let d = e.dungeon();
    let enc = e.encounters();
    let mut rooms = vec![room_json(d.start(), None, 0)];
    let mut branches = Vec::new();
    for b in d.branches() {
        rooms.extend(
            b.rooms()
                .values()
                .map(|r| room_json(r, Some(b.id()), enc.living_in(b.id(), r.pos))),
        );
        branches.push(json!({
            "id": b.id(),
            "entrance": b.entrance().name(),
            "made_at": b.made_at(),
            "retired": b.retired(),
            "unexplored": b.unexplored(),
            "rooms": b.rooms().len(),
        }));
    }
    let mut current = serde_json::Map::new();
    for dir in Direction::ALL {
        current.insert(dir.name().into(), d.current_branch(dir).into());
    }
    let (end, forfeited) = match e.end() {
        None => (None, 0),
        Some(ExploreEnd::Banked) => (Some("banked"), 0),
        Some(ExploreEnd::Lost { forfeited }) => (Some("lost"), forfeited),
    };
    let origin = game.origin();
    let monsters: Vec<Value> = e
        .monsters()
        .map(|m| monster_json(m, Pos::new(m.pos.x - origin.x, m.pos.y - origin.y)))
        .collect();
    json!({
        "monsters": monsters,
        "monsters_on": enc.enabled,
        "potions": enc.potions,
        "killed_by": e.killed_by().map(|k| k.name()),
        "health": e.health(),
        "score": e.score(),
        "features": features_json(&game.features()),
        "branch": e.branch(),
        "room": [e.room().x, e.room().y],
        "depth": explore::depth(e.room()),
        "origin": [origin.x, origin.y],
        "slot": explore::PLOT,
        "max_unexplored": d.settings().max_unexplored,
        "branch_timer": d.settings().branch_timer,
        "end": end,
        "forfeited": forfeited,
        "current": current,
        "branches": branches,
        "rooms": rooms,
    })
}

/// The JSON state of one game: classic, run or exploration.
pub fn game_state(game: &GameState) -> Value {
    let world = game.world();
    let text = world.to_string();
    let status = match game.status() {
        LevelStatus::Playing => "playing",
        LevelStatus::Won => "won",
        LevelStatus::Lost => "lost",
    };
    let mut state = json!({
        "mode": match game.kind().key() {
            'E' => "explore",
            'R' => "run",
            _ => "classic",
        },
        "seed": game.seed(),
        "status": status,
        "width": world.width(),
        "height": world.height(),
        "rows": text.lines().collect::<Vec<_>>(),
        "avatar": [game.avatar().x, game.avatar().y],
        "exit": [game.exit().x, game.exit().y],
        "moves": game.moves(),
        "history": game.history(),
        "seen": game.compose_seen(game.rect()).to_string().lines().collect::<Vec<_>>(),
    });
    if let Some(e) = game.explore()
        && let (Some(o), Value::Object(extra)) = (state.as_object_mut(), explore_json(game, e))
    {
        o.extend(extra);
    }
    if let Some(run) = game.run() {
        let features = features_json(&game.features());
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
