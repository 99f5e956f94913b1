//! Travel: the player's tools that walk many steps for one key (`docs/keys.md`, after Brogue's
//! travel and explore). `>` walks to the exit (a run's or a classic game's door, an
//! exploration's way up) once it is known; `X` explores, walking again and again to the
//! nearest reachable tile beside the unseen; a click walks to a known tile.
//!
//! **What a walk knows.** Runs and explorations are played in the dark: a walk plans over the
//! tiles the player has seen, never through the unseen (the one step into the unknown is
//! through an exploration's unexplored exit, which is how rooms are made). A classic game
//! shows its whole map (`docs/sight.md`; Tab's sight there is a way of looking, a view key the
//! game never hears), so its walks plan over the whole map: `>` goes to the exit from the
//! first move, and `X` has nothing to find. Monsters the avatar sees are in the way; one out of
//! sight is not known to be there.
//!
//! **Which way.** A walk steps only where the rules let it: a one-way exit is entered only in
//! its direction (so no walk plans against one, and the way home through a retired branch's
//! one-way exit is found). It goes round armed traps wherever a known way does; in a run `>`
//! takes the shortest way that fits the moves left: round the armed traps when that fits,
//! else through the fewest traps the health allows (a heart kept), else it does not start and
//! says so ([`Stop::OutOfReach`]). Front-ends ask the player (`Y`) before a way through armed
//! traps; an input string has no one to ask, so there `>` takes that way, as the player who
//! typed it asked for the exit ([`walk`]). [`exit_ways`] gives the HUD both ways
//! (`exit 189 · 107 through 2 traps`).
//!
//! **When it stops** ([`Stop`]): when something new comes into sight
//! ([`Sighting::update`], the hook every new kind of thing extends; a monster that leaves
//! sight and comes back stops a walk once), when health drops, when a
//! step does more than move (a feature handled, a bump, a new floor, the end), when it
//! arrives, after [`MAX_STEPS`] steps, or when a step is refused (then it says why: a walk is
//! never a silent no-op). `X` does not start when nothing is left to find: every chest and
//! trap handled and the exit known with a known way into it ([`Stop::NothingLeft`]; with the
//! exit seen but no way in known yet, `X` explores towards the exit: the frontier tile with
//! the least steps there plus tiles on to the exit). In a run, `X` keeps a [`Refuge`] in
//! reach ([`refuge`]): the exit when its shortest known way fits the moves left, else the
//! nearest seen feature that still pays its moves. It stops once that refuge needs all but
//! [`EXIT_RESERVE`] of the moves left, and does not start there ([`Stop::ExitAtTheLimit`],
//! [`Stop::FeatureAtTheLimit`]; [`explore_limit`]): a step costs a move and lengthens the way
//! by at most one, so `X` never walks past the point where its refuge no longer fits, however
//! often it is pressed (until rules version 4 a walk that began at the limit walked on). With
//! no refuge in reach it explores on: nothing it could keep is lost.
//!
//! **Cost, before it starts** ([`preview`]): the route a walk plans now (for `X` its first
//! leg), its steps, the moves left after it (what the features on it pay counted) and, for
//! `X`, its refuge and the moves to spare, so a front-end can show what one key will spend.
//! `X` walks one leg a key: no more steps than that first plan (it plans again on the way as
//! more comes into sight). In a run since 2026-11-28, with the rules' version unchanged (only
//! input strings hold `X`; a key log holds a walk's plain moves); in an exploration since
//! rules version 9 (before, it walked on until something stopped it).
//!
//! **Cost.** A plan searches a window around the avatar, not the world: a square of
//! [`FIRST_REACH`] tiles each way, doubled while the answer could lie outside it (a way out
//! of the window could be shorter, or the search reached its edge without an answer). A
//! breadth-first search within `r` tiles of its source is the search over the whole map for
//! every cell nearer than `r`, ties included, so the steps are those the whole map gives; a
//! step costs what lies between the avatar and its goal, not the world's size
//! (`benches/play.rs`, `docs/performance.md`). A walk keeps its plan between steps and plans
//! again only when the avatar is off it or `X`'s goal no longer lies beside the unseen.
//!
//! Every step is an ordinary [`Action::Move`](crate::Action::Move) applied by the rules, so
//! the history records it as the `W`/`A`/`S`/`D` key it is: replays and saves need nothing
//! new. The interpreter expands `X` and `>` in an input string with [`walk`]; the front-ends
//! drive the same [`Travel`] one step a frame, so they can also stop it on a key, and the
//! steps they take are the ones the interpreter would take.
//!
//! One file a concern, each using only those named before it: why a walk stops (`stop.rs`),
//! what a walk knows (`known.rs`: the window of known tiles and the searches over it, which
//! are the search module's), what the player has seen of the things that stop a walk
//! (`sighting.rs`), planning over what is known (`plan.rs`) and walking (`walk.rs`).

mod arrival;
mod known;
mod plan;
mod sighting;
mod stop;
mod walk;

pub use arrival::{banked_at_the_end, carried_at_the_end};
pub use plan::{
    ExitWays, Preview, Refuge, Route, Way, exit_ways, explore_limit, monster_beside, nothing_left,
    plan, preview, refuge,
};
pub use sighting::{Sighting, sighting};
pub use stop::{Stop, Thing};
pub use walk::{Kept, Travel, Walk, walk, walk_on};

use crate::game::GameState;
use byog_tile_engine::Pos;

/// The most steps one `X`, `>` or click takes (then it stops, and the key can be given again).
pub const MAX_STEPS: u32 = 1000;

/// The half-side, in tiles, of the first window a plan searches around the avatar (then
/// doubled as needed). 16: two light radii, so most of `X`'s goals are found in the first
/// window of 33 × 33 tiles.
pub const FIRST_REACH: i32 = 16;

/// The moves to spare beyond the exit's shortest known way at which `X` stops in a run
/// ([`Stop::ExitAtTheLimit`]): a step away costs a move and can lengthen the way by one, so
/// with more than 2 to spare before a step at least 1 is left after it.
pub const EXIT_RESERVE: i64 = 2;

/// Where a walk goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// `X`: the nearest reachable tile beside the unseen, again and again.
    Explore,
    /// `>`: the exit (a run's or a classic game's door; an exploration's way up), into it.
    Exit,
    /// A click: this tile, in the dungeon's tiles (a world position plus
    /// [`GameState::origin`], so it stays put when an exploration's frame moves).
    To(Pos),
}

impl Goal {
    /// The goal of a click on world tile `pos` of `game`'s current frame.
    pub fn tile(game: &GameState, pos: Pos) -> Goal {
        let o = game.origin();
        Goal::To(Pos::new(pos.x + o.x, pos.y + o.y))
    }
}

#[cfg(test)]
mod tests;
