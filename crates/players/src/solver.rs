//! `byog solve`: a player of runs that knows the whole floor. It plays by the rules, on a
//! copy of the game, the routes of [`byog_game::run::route`].
//!
//! **Solving** a run from any state: on the current floor, the longest prefix of the tour
//! (prefix, then the exit) that fits the moves left, counting the moves each feature pays
//! when first handled ([`Router::fits`]: the moves never reach 0 away from the exit); if
//! even the exit alone does not fit by that route, the shortest way to the exit that steps
//! on armed traps at most `health − 1` times (stepping on a sprung trap just rearms it; an
//! armed one costs a health); else one feature that still pays and, once handled, leaves
//! the exit in reach. Then the run goes on floor by floor, each fresh floor by the longest
//! prefix of its tour that fits (the whole tour on every floor of run seeds 0..1000:
//! `docs/runs.md`). The run is winnable from every arrival (see [`byog_game::run`] on
//! moves); when the solver finds nothing, no feature taken first rescues it and no prefix of
//! its tour does (`docs/runs.md` says why that is not an exhaustive search).

use std::fmt;

use byog_game::action::Action;
use byog_game::game::{GameState, LevelStatus};
use byog_game::run::route::{Plan, Router};
use byog_game::run::{self, Loss};

/// Why `byog solve` has no keys to give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// The game is not a run (`R<seed>S`).
    NotARun,
    /// The run is already won.
    AlreadyWon,
    /// The run is already lost.
    Lost(&'static str),
    /// The current floor's exit is out of reach with the moves left.
    OutOfReach {
        /// The floor, 1-based.
        floor: u32,
        /// Moves left.
        moves_left: u64,
        /// The fewest moves into the exit without stepping on an armed trap (`None`: no way).
        needed: Option<u64>,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::NotARun => f.write_str(
                "the input does not reach a run: start one with R<seed>S (solve plans runs only)",
            ),
            SolveError::AlreadyWon => {
                f.write_str("the run is already won: there is nothing left to do")
            }
            SolveError::Lost(why) => write!(f, "the run is already lost ({why})"),
            SolveError::OutOfReach {
                floor,
                moves_left,
                needed: Some(needed),
            } => write!(
                f,
                "the run can no longer be won: on B{floor} the exit is {needed} moves away \
                 (without stepping on an armed trap) but only {moves_left} moves are left"
            ),
            SolveError::OutOfReach { floor, .. } => write!(
                f,
                "the run can no longer be won: on B{floor} no way to the exit avoids the armed traps"
            ),
        }
    }
}

/// The moves that win the run from `game`'s state: on each floor every feature it still can
/// handle, then the exit (see the module documentation).
///
/// # Errors
/// [`SolveError`] when `game` is not a run, is over, or can no longer be won.
pub fn solve(game: &GameState) -> Result<Vec<Action>, SolveError> {
    let mut game = game.clone();
    let mut actions = Vec::new();
    loop {
        let Some(&run) = game.run() else {
            return Err(SolveError::NotARun);
        };
        match game.status() {
            LevelStatus::Won => {
                return if actions.is_empty() {
                    Err(SolveError::AlreadyWon)
                } else {
                    Ok(actions)
                };
            }
            LevelStatus::Lost => {
                return Err(SolveError::Lost(run.loss.map_or("lost", Loss::reason)));
            }
            LevelStatus::Playing => {}
        }
        let router = Router::new(
            game.terrain(),
            &game.features(),
            game.avatar(),
            game.exit(),
            false,
        );
        let plan = router.plan();
        // What each target (the features not handled, in the router's order) pays when
        // reached: its moves the first time it is handled, nothing after.
        let pays = run::unhandled_pays(&run.info, &game.features());
        let rescue = (0..pays.len()).find(|&t| {
            let one = Plan {
                order: vec![t],
                cost: Vec::new(),
            };
            router.fits(&one, 1, run.moves_left, &pays)
        });
        let moves = match (0..plan.cost.len())
            .rev()
            .find(|&j| router.fits(&plan, j, run.moves_left, &pays))
        {
            Some(j) => router.moves(&plan, j),
            None => match router.escape(run.health.saturating_sub(1)) {
                Some(m) if m.len() as u64 <= run.moves_left => m,
                // No prefix of the tour fits, nor the way in: one feature that still pays,
                // taken first, may bring the exit back in reach (the next turn of the loop
                // plans from there).
                _ if rescue.is_some() => {
                    let one = Plan {
                        order: rescue.into_iter().collect(),
                        cost: Vec::new(),
                    };
                    router.moves(&one, 1)
                }
                other => {
                    return Err(SolveError::OutOfReach {
                        floor: run.floor,
                        moves_left: run.moves_left,
                        needed: other.map(|m| m.len() as u64),
                    });
                }
            },
        };
        let floor = run.floor;
        for d in moves {
            let action = Action::Move(d);
            game.apply(action);
            actions.push(action);
            if game.status() != LevelStatus::Playing {
                break;
            }
        }
        if game.status() == LevelStatus::Playing && game.run().is_some_and(|r| r.floor == floor) {
            // The route did not leave the floor: a bug, never a hang.
            debug_assert!(false, "a solver route ends in the exit");
            return Err(SolveError::OutOfReach {
                floor,
                moves_left: game.run().map_or(0, |r| r.moves_left),
                needed: None,
            });
        }
    }
}
