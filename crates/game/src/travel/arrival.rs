//! What a walk into an exploration's way up banks: the points carried now, less what the
//! clock takes on the way (`docs/explore.md`, "The clock").

use super::plan::Route;
use crate::explore::play::{decay_loss, decays_at};
use crate::explore::plot::plot_of;
use crate::game::GameState;
use byog_tile_engine::Pos;

/// The points `game`'s exploration would carry at the end of `route`, a walk planned from
/// where the avatar stands: the points carried now, less each tick of the clock the walk
/// meets (on every [`DECAY_EVERY`](crate::explore::play::DECAY_EVERY)th move with the avatar
/// then outside the start room; never on a step onto the way up, which banks and ends the
/// exploration). Only the clock is counted: what a feature on the way pays is not. Exact for
/// the walk as planned: a walk that meets a fight, a monster or a trap on the way changes
/// it. `None` outside an exploration.
pub fn carried_at_the_end(game: &GameState, route: &Route) -> Option<u64> {
    game.explore()?;
    let o = game.origin();
    let mut points = game.score()?;
    for (i, p) in route.tiles.iter().enumerate() {
        if *p == game.exit() {
            break;
        }
        let moves = game.moves() + i as u64 + 1;
        let outside = !plot_of(Pos::new(p.x + o.x, p.y + o.y)).is_start();
        if outside && decays_at(moves) {
            points -= decay_loss(points);
        }
    }
    Some(points)
}

/// The points `game`'s exploration would bank at the end of `route`, a walk whose last tile
/// is the way up: [`carried_at_the_end`]. `None` outside an exploration, or when the route
/// does not end in the way up.
pub fn banked_at_the_end(game: &GameState, route: &Route) -> Option<u64> {
    (route.tiles.last() == Some(&game.exit()))
        .then(|| carried_at_the_end(game, route))
        .flatten()
}
