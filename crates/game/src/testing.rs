//! Test support (the `test-support` feature; never in a release build of byog): the parts of
//! a classic game's or a run's board that tests of the packages above change by hand, to
//! build states the rules would take long to reach (moves without limit) or to prove that
//! a player never reads what it has not seen (tiles it never saw changed under it).

use byog_tile_engine::{Pos, World};

use crate::game::{Board, GameState};
use crate::run::{Feature, RunState};

/// A grid board's parts, borrowed for change ([`grid_mut`]).
#[derive(Debug)]
pub struct GridMut<'a> {
    /// Terrain only: floor, wall and nothing (the exit's tile is wall).
    pub terrain: &'a mut World,
    /// The avatar's tile.
    pub avatar: Pos,
    /// The exit door's tile.
    pub exit: Pos,
    /// The floor's chests and traps, in row-major order (keep them so).
    pub features: &'a mut Vec<Feature>,
    /// The run's state, in a run.
    pub run: Option<&'a mut RunState>,
    /// The floor's memory: tiles seen, row-major from the bottom row.
    pub seen: &'a [bool],
}

/// The board of a classic game or a run, for change; `None` for an exploration.
pub fn grid_mut(game: &mut GameState) -> Option<GridMut<'_>> {
    match &mut game.board {
        Board::Grid(g) => Some(GridMut {
            terrain: &mut g.terrain,
            avatar: g.avatar,
            exit: g.exit,
            features: &mut g.features,
            run: g.run.as_mut(),
            seen: &g.seen,
        }),
        Board::Explore(_) => None,
    }
}
