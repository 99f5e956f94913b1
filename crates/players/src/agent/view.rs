//! The view an agent keeps from one answer to the next: the session knows which keys it
//! played, so it knows where the view may have changed; the game composes it
//! ([`GameState::compose_seen`] whole, [`GameState::refresh_seen`] a patch at a time).

use byog_game::action::Action;
use byog_game::game::{GameKind, GameState, SIGHT_RADIUS};
use byog_game::interpreter::Interpreter;
use byog_tile_engine::{Pos, World};

/// The view of a grid game (a classic game or a run's floor) kept from one observation to
/// the next, and what may have changed in it since: the view shows every tile seen as it is
/// now, and between two observations only moves change it: at the tile the avatar left, at
/// the one it reached (a chest or trap changes only under the avatar) and, when it reached a
/// tile it never stood on, in the patch of sight round it (all a look from a new tile can
/// mark as seen), and at the exit (its door opens on a win). Anything else (a new game or
/// floor, a load, travel, an undone line) makes it compose the whole view again.
#[derive(Debug, Clone, Default)]
pub(super) struct ViewCache {
    /// The view as of the last observation (`None` when there is none to build on).
    view: Option<World>,
    /// The game and floor it shows: kind, seed, the run's floor.
    floor: (Option<GameKind>, u64, u32),
    /// The avatar's tiles since the view was made, where it may have changed, each with the
    /// radius round it in tiles ([`SIGHT_RADIUS`] when the avatar looked around from it for
    /// the first time then, 0 otherwise); `None` when all of the view may have.
    near: Option<Vec<(Pos, u32)>>,
}

/// The most tiles round which a view is brought up to date a patch at a time: a longer line
/// of moves composes the whole view again.
const MOST_PATCHES: usize = 8;

impl ViewCache {
    /// The tile move `key` of the game in play leads to, when the avatar never stood on it
    /// (stepping there makes it look around): `None` otherwise.
    pub(super) fn unvisited_target(interpreter: &Interpreter, key: char) -> Option<Pos> {
        let Some(Action::Move(d)) = Action::from_key(key) else {
            return None;
        };
        let game = interpreter.game_in_play()?;
        let target = game.avatar() + d;
        let terrain = game.terrain();
        let visited = game.grid()?.visited();
        (terrain.contains(target) && !visited[terrain.index(target)]).then_some(target)
    }

    /// Notes the avatar's tile (before or after a move) as one where the view may change;
    /// `fresh`: the tile the move led to when the avatar had never stood there.
    pub(super) fn touched(&mut self, interpreter: &Interpreter, fresh: Option<Pos>) {
        let avatar = interpreter.game_in_play().filter(|g| g.grid().is_some());
        match (&mut self.near, avatar) {
            (Some(near), Some(game)) if near.len() < MOST_PATCHES => {
                let at = game.avatar();
                near.push((at, if fresh == Some(at) { SIGHT_RADIUS } else { 0 }));
            }
            _ => self.forget(),
        }
    }

    /// Anything may have changed: the next observation composes the whole view.
    pub(super) fn forget(&mut self) {
        self.near = None;
    }

    /// The view, when it is up to date with `interpreter`'s game.
    pub(super) fn current(&self, interpreter: &Interpreter) -> Option<&World> {
        let game = interpreter.game()?;
        let clean = self.near.as_ref().is_some_and(Vec::is_empty);
        (clean && self.floor == floor_of(game))
            .then_some(self.view.as_ref())
            .flatten()
    }

    /// Brings the view up to date with `game` and returns it; `None` for an exploration
    /// (whose view is composed whole each time).
    pub(super) fn update(&mut self, game: &GameState) -> Option<&World> {
        if game.grid().is_none() {
            self.forget();
            self.view = None;
            return None;
        }
        let floor = floor_of(game);
        let kept = match (&mut self.view, self.near.take()) {
            (Some(view), Some(near)) if self.floor == floor => game.refresh_seen(view, &near),
            _ => false,
        };
        if !kept {
            self.view = Some(game.compose_seen(game.rect()));
        }
        self.floor = floor;
        self.near = Some(Vec::with_capacity(MOST_PATCHES));
        self.view.as_ref()
    }
}

/// Which game and floor a view shows.
fn floor_of(game: &GameState) -> (Option<GameKind>, u64, u32) {
    (
        Some(game.kind()),
        game.seed(),
        game.run().map_or(0, |r| r.floor),
    )
}
