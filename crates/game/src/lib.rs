//! The game (Java package `byog.Core`): world generation, the game state (terrain apart from
//! things), actions and the rules that apply them, the one key interpreter, headless replay,
//! metrics and saves. It knows nothing of any front-end: the window, the terminal and the
//! command line drive it.

pub mod action;
mod base;
pub mod board;
pub mod explore;
pub mod game;
pub mod interpreter;
pub mod keys;
pub mod options;
pub mod replay;
pub mod rules;
pub mod run;
pub mod save;
#[cfg(feature = "test-support")]
pub mod testing;
pub mod travel;
pub mod watch;

pub use action::Action;
/// The version of the rules: bumped whenever the same keys can end a game differently
/// (balance, a rule, a generator change that reaches play). A score is verified only under
/// the rules it was played by (`byog serve`). 1: the rules until 2026-11-27; 2: monsters
/// retuned by depth, a run's moves carried down capped (the rest paid as points), the wait
/// key (`docs/balance.md`); 3: a run's features pay their moves when handled, on their own
/// floor, the budget 240 → 200 and the cap 100% of par (`docs/runs.md`); 4: a run's
/// features pay points by their seclusion and moves at a flat rate (some cost more than
/// they return), a move left at the win 2 × the depth, the budget 145 → 140, the cap 130% of
/// par, and `X` keeps the exit (or a paying feature) in reach however often it is pressed
/// (`docs/balance.md`); 5: an exploration's clock (points carried outside the start room
/// fade), potions in about half the chests and two carried at most, and the bestiary's
/// traits (`docs/monsters.md`); 6: a chest holds a potion whenever the pack has room (12 in
/// 100 when it is full), trolls from depth 7, and goblins' blows 50% (`docs/balance.md`);
/// 7: an exploration's rooms of depth 4-5 pay less and those of depth 6 and deeper far more
/// (chests and traps 15/20 at depth 4-5, 100/110 at 6-8), so going deep beats farming the
/// shallow rooms (`docs/balance.md`); 8: `X` in an exploration no longer counts the blank
/// beyond the start room's side exits (seen from a branch) or beyond a neighbour's corner
/// exits (seen from the start room) as the unknown, so it stops walking back and forth
/// across the start room (`docs/keys.md`); 9: `X` in an exploration walks one leg a key, no
/// more steps than the plan whose cost the HUD showed before it started (as in a run; a leg
/// that ends on an unexplored exit steps through it), and an unexplored exit no deeper than
/// the avatar's room waits until that room is looked over (`docs/keys.md`); 10: rats and
/// bats lurk (asleep, they wake only when the avatar stands beside them), bats dodge half
/// the blows at them, rats have 3 health and bite 50%, goblins hit 40%, orcs 65%, trolls
/// 60%, a chest holds a potion 65 times in 100 while the pack has room, and rooms of depth 6
/// and deeper pay half as much again (`docs/balance.md`). There is one ruleset in a build:
/// a game of an older version is not replayed under its own rules, and the server refuses
/// its score.
pub const RULES_VERSION: u32 = 10;

pub use byog_tile_engine::Direction;
pub use game::{Board, GameKind, GameState, GridBoard, LevelStatus};
pub use interpreter::{Closing, Interpreter, Outcome, Phase, Refused};
pub use options::GameOptions;
pub use rules::{Event, Events};
