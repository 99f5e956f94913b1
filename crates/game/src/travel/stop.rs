//! Why a walk stops, and the things whose first sighting stops it.

use std::fmt;

use super::MAX_STEPS;
use crate::explore::MonsterKind;

/// Something whose first sighting stops a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Thing {
    /// A chest.
    Chest,
    /// A trap.
    Trap,
    /// The exit (an exploration's way up).
    Exit,
    /// A monster (`docs/monsters.md`): one the avatar did not see the step before.
    Monster,
}

impl fmt::Display for Thing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Thing::Chest => "a chest",
            Thing::Trap => "a trap",
            Thing::Exit => "the exit",
            Thing::Monster => "a monster",
        })
    }
}

/// Why a walk stopped (or did not start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It reached its tile.
    Arrived,
    /// `X` with no reachable tile left beside the unseen.
    Explored,
    /// `X` with nothing left to find: every chest and trap of the floor handled, the exit
    /// known and a known way into it (a classic game, whose map is shown, from the start).
    NothingLeft,
    /// `>` before the exit was seen.
    ExitUnseen,
    /// A click on a tile never seen.
    Unseen,
    /// No known way leads there.
    NoWay,
    /// `>` in a run: no known way into the exit fits the moves left, round the armed traps or
    /// through as many as the health allows.
    OutOfReach {
        /// Moves the shortest of those ways needs.
        needs: u32,
        /// Moves left.
        left: u64,
    },
    /// Every known way there crosses more armed traps than the health can pay for (a heart
    /// is always kept).
    TooManyTraps {
        /// Hearts left.
        health: u32,
    },
    /// Something came into sight for the first time.
    Sighted(Thing),
    /// Health dropped.
    Hurt,
    /// A step did more than move: a feature handled, a bump, a new floor or room cleared.
    Event,
    /// The game ended.
    Over,
    /// [`MAX_STEPS`] steps were taken.
    Limit,
    /// A key stopped it (front-ends).
    Key,
    /// The rules refused the next step (the way is closed there): nothing changed.
    Blocked,
    /// The next step was the way back out of a room while a monster is beside the avatar:
    /// the rules refuse it ("locked in combat").
    InCombat,
    /// No known way leads on but through a monster in sight (a walk never plans through
    /// one): the nearest of those monsters.
    MonsterInTheWay(MonsterKind),
    /// A walk does not start with a hunting monster beside the avatar: it would follow and
    /// strike at every step (the first such monster in the order they act).
    MonsterBeside(MonsterKind),
    /// `X` in an exploration with no way on: the avatar's room is not clear while a monster
    /// in sight stands in it (its exits stay locked until the room is clear): the nearest.
    RoomHeld(MonsterKind),
    /// `>` in an exploration: the next step is into the way up, which banks the points
    /// carried and ends the exploration, so the walk stops beside it and asks first (`Y`
    /// takes the step: `docs/keys.md`).
    AtTheWayUp,
    /// `X` in a run: the shortest known way into the exit needs all but at most
    /// [`EXIT_RESERVE`](super::EXIT_RESERVE) of the moves left, so a step further away
    /// could leave the exit out of reach: `X` stops there (or does not start). `X` never
    /// walks a run out of reach of a known exit that was in reach ([`super::Refuge`]).
    ExitAtTheLimit {
        /// Moves the shortest known way into the exit needs.
        needs: u32,
        /// Moves left.
        left: u64,
    },
    /// `X` in a run with no known way into the exit that fits the moves left: the nearest
    /// seen feature that still pays its moves needs all but at most
    /// [`EXIT_RESERVE`](super::EXIT_RESERVE) of them, so a step further away could leave it
    /// out of reach too ([`super::Refuge::Feature`]).
    FeatureAtTheLimit {
        /// The feature.
        thing: Thing,
        /// Moves the walk into it needs.
        needs: u32,
        /// Moves left.
        left: u64,
    },
}

impl fmt::Display for Stop {
    /// In a player's words, e.g. "a chest comes into sight".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Arrived => f.write_str("arrived"),
            Stop::Explored => f.write_str("nothing left to explore that can be reached"),
            Stop::NothingLeft => f.write_str(
                "nothing left to find: every chest and trap is handled and the exit is known (> goes there)",
            ),
            Stop::ExitUnseen => f.write_str("the exit has not been seen yet (X explores)"),
            Stop::Unseen => f.write_str("that tile has not been seen"),
            Stop::NoWay => f.write_str("no known way leads there"),
            Stop::OutOfReach { needs, left } => write!(
                f,
                "the exit is out of reach: the shortest way your hearts allow needs {needs} moves, {left} are left"
            ),
            Stop::TooManyTraps { health } => write!(
                f,
                "every known way there crosses more armed traps than your {health} heart{} can pay for",
                if *health == 1 { "" } else { "s" }
            ),
            Stop::Sighted(t) => write!(f, "{t} comes into sight"),
            Stop::Hurt => f.write_str("hurt: travel stopped"),
            Stop::Event => f.write_str("travel stopped"),
            Stop::Over => f.write_str("the game is over"),
            Stop::Limit => write!(f, "travel stopped after {MAX_STEPS} steps"),
            Stop::Key => f.write_str("travel stopped by a key"),
            Stop::Blocked => f.write_str("the way is closed there: travel stopped"),
            Stop::InCombat => {
                f.write_str("the way back is shut while a monster is beside you: travel stopped")
            }
            Stop::MonsterInTheWay(kind) => write!(
                f,
                "the {} is in the way: fight it (walk into it) or wait (.)",
                kind.name()
            ),
            Stop::MonsterBeside(kind) => write!(
                f,
                "the {} is beside you: fight it first (walk into it)",
                kind.name()
            ),
            Stop::RoomHeld(kind) => write!(
                f,
                "the {} holds this room: its exits open once it is clear (walk into it to fight)",
                kind.name()
            ),
            Stop::AtTheWayUp => f.write_str(
                "the way up is next: it banks your points and ends the exploration (Y takes it)",
            ),
            Stop::ExitAtTheLimit { needs, left } => write!(
                f,
                "the exit needs {needs} of your {left} moves: exploring stopped (> goes there)"
            ),
            Stop::FeatureAtTheLimit { thing, needs, left } => write!(
                f,
                "{thing}, the nearest that pays moves, needs {needs} of your {left}: exploring stopped"
            ),
        }
    }
}
