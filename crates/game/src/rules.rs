//! The rules: one function, [`apply`], takes a game and an action and returns the events it
//! caused. Front-ends and the interpreter never change a game any other way, so the window,
//! the terminal and `replay` play by exactly the same rules.
//!
//! Classic game (the sp18 spec): a step onto walkable terrain moves the avatar; a step into
//! the exit unlocks it and wins (the avatar stays where it is); a step into anything else
//! is a bump, which changes nothing and is not a move (`docs/keys.md`). A wait (`.`) passes
//! a turn and counts as a move in every game (a run pays for it, an exploration's monsters
//! act). An ended game takes no action.
//!
//! A run adds (`docs/runs.md`, after Dungeon Upkeeper): every step costs one of the moves left;
//! stepping onto an empty chest refills it, onto a sprung trap rearms it (points and moves
//! for both, the first time: [`crate::run::feature_moves`]), onto an armed trap springs it
//! on the upkeeper (one health lost); walking into the exit descends to the next floor,
//! whose arrival moves ([`crate::run::arrival`]) join the moves carried down, or wins on the
//! last floor (every move left over pays 2 × its depth); the run is lost at 0 health, or at 0 moves
//! away from an exit (after what the step's feature paid).
//!
//! An exploration (`docs/explore.md`, after Evennia's dungeon) moves the avatar over the rooms of its
//! map; a step across a plot border walks the exit there ([`Dungeon::enter`] from the start
//! room, [`Dungeon::walk`] from a branch's room), which makes the room behind an unexplored
//! exit and switches maps; a step the room graph refuses (against a one-way exit) is a bump.
//! Features are handled as in runs, with points from the depth table; once a room's last
//! feature is handled the room is clear and its exits open. Walking into the way up banks
//! the score and wins; at 0 health the exploration is lost with its score. Every move also
//! runs the branch timer ([`Dungeon::advance`]).
//!
//! [`Dungeon::enter`]: super::explore::Dungeon::enter
//! [`Dungeon::walk`]: super::explore::Dungeon::walk
//! [`Dungeon::advance`]: super::explore::Dungeon::advance

use super::action::Action;
use super::board::{Board, GridBoard};
use super::explore::monsters::{self, MonsterKind};
use super::explore::play::ExploreEnd;
use super::explore::{self, BranchId, ExploreState, RoomPos, plot};
use super::game::{GameState, LevelStatus};
use super::run::{self, Feature, FeatureKind, Loss};
use rand::RngExt;

use byog_tile_engine::{Direction, Pos, Tile};

/// Something an action caused, in the order it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The avatar stepped one tile (it came from `to + direction.opposite()`).
    Moved {
        /// Where it stands now.
        to: Pos,
        /// The direction of the step.
        direction: Direction,
    },
    /// The step was blocked; nothing changed and no move was counted.
    Blocked {
        /// The tile that blocked it.
        at: Pos,
        /// What is there (WALL, NOTHING, …), for the player's message.
        tile: Tile,
        /// The direction of the attempted step.
        direction: Direction,
    },
    /// The avatar walked into the exit, which is now an UNLOCKED_DOOR.
    Unlocked {
        /// The exit's tile.
        at: Pos,
    },
    /// A run's chest was refilled (points scored).
    Refilled {
        /// Its tile.
        at: Pos,
    },
    /// A run's trap was rearmed (points scored).
    Rearmed {
        /// Its tile.
        at: Pos,
    },
    /// An armed trap sprang on the upkeeper: one health lost.
    Hurt {
        /// Its tile.
        at: Pos,
        /// Health left.
        health: u32,
    },
    /// A run's chest or trap was handled for the first time on its floor: it paid its points
    /// and its moves, at once ([`crate::run::feature_moves`]); comes just after
    /// [`Event::Refilled`] or [`Event::Rearmed`].
    Earned {
        /// Moves added to the moves left (saturated at `u32::MAX`).
        moves: u32,
        /// Points scored.
        points: u32,
    },
    /// Walking into a run's exit, the moves left beyond what may be carried down
    /// ([`crate::run::depth::DepthParams::carry_percent`] of the next floor's par) were paid
    /// as points, one a move; comes just after [`Event::Descended`].
    PaidOver {
        /// Moves paid, and points earned (saturated at `u32::MAX`).
        moves: u32,
    },
    /// The run went down to the next floor.
    Descended {
        /// The new floor, 1-based.
        floor: u32,
        /// Moves the new floor handed over on arrival ([`crate::run::arrival`]: its direct
        /// distance, and its perfect bonus when the floor left was perfect), besides the
        /// moves carried down (u32, saturated: an event stays 24 bytes, so a key's events
        /// stay small on the replay's hot path).
        earned: u32,
        /// Whether every feature of that floor was handled.
        perfect: bool,
        /// Chests of that floor left empty.
        missed_chests: u32,
        /// Traps of that floor left sprung.
        missed_traps: u32,
        /// What the misses cost: the moves the missed features would have paid on the floor
        /// left, plus the new floor's perfect bonus (saturated as `earned`).
        forgone: u32,
    },
    /// An exploration's avatar walked through an exit into another room.
    Entered {
        /// The room's plot.
        room: RoomPos,
        /// The branch whose map it is now in (`None`: the start room).
        branch: Option<BranchId>,
        /// Whether the room was made by this step.
        made: bool,
        /// Whether a new branch was made for it (its first room).
        new_branch: bool,
    },
    /// An exploration's room had its last feature handled: it is clear, its exits open.
    Cleared {
        /// The room's plot.
        room: RoomPos,
    },
    /// The exploration's avatar took the way up with this many points: banked.
    Banked {
        /// Points banked.
        score: u64,
    },
    /// The avatar struck a monster (a bump into it is an attack: a turn).
    Attacked {
        /// The monster's tile.
        at: Pos,
        /// Its kind.
        kind: MonsterKind,
        /// Damage dealt (0: it evaded the blow, [`monsters::KindStats::evade_percent`]).
        damage: u32,
        /// Whether it died (its points are scored).
        killed: bool,
    },
    /// Monsters that the avatar now sees woke up.
    Spotted {
        /// The kind of the first.
        kind: MonsterKind,
        /// How many woke.
        count: u32,
    },
    /// Monsters struck at the avatar this turn.
    Struck {
        /// The kind of the last monster that struck.
        by: MonsterKind,
        /// Blows that landed.
        hits: u32,
        /// Blows that missed.
        misses: u32,
        /// Hearts lost.
        damage: u32,
        /// Hearts left.
        health: u32,
    },
    /// A chest held a potion, now carried.
    FoundPotion {
        /// Potions carried now.
        potions: u32,
    },
    /// A chest held a potion, but the pack was full ([`monsters::MAX_POTIONS`] carried): the
    /// potion was left behind (the chest is refilled all the same).
    PotionLeft {
        /// Potions carried (the most there is room for).
        potions: u32,
    },
    /// The avatar waited a turn (`.`): the monsters acted, a run paid a move.
    Waited,
    /// The avatar drank a potion.
    Drank {
        /// Hearts now.
        health: u32,
        /// Potions left.
        potions: u32,
    },
    /// The step through the room's way back (the exit towards the start) was refused: a
    /// monster is beside the avatar, and the way back stays shut while one is. Nothing
    /// changed; not a turn. Any other step, away from the monster too, is allowed.
    InCombat {
        /// The direction of the refused step.
        direction: Direction,
        /// The kind of the monster beside the avatar (the first in id order).
        kind: MonsterKind,
    },
    /// A monster began to flee (at a quarter of its health): it gives its room up.
    Fled {
        /// Its kind.
        kind: MonsterKind,
    },
    /// `U` was refused: no potion carried, or health is full. Nothing changed.
    CannotDrink {
        /// Whether it was refused for full health (else for no potion).
        full: bool,
    },
    /// The game is won.
    Won,
    /// The run is lost.
    Lost(Loss),
    /// The game had already ended; the action was not applied.
    AlreadyOver,
}

/// The events of one action: at most [`Events::CAPACITY`], kept inline (no allocation, so a
/// million replayed moves cost no heap traffic).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Events {
    list: [Event; Events::CAPACITY],
    len: u8,
}

impl Events {
    /// The most events one action keeps (a step in an exploration: moved, a feature, a
    /// potion, a room cleared, monsters spotted, one fled, struck, lost). Past it, later
    /// events are dropped (the rare ninth: a fled monster's room cleared in the same turn as
    /// all the others); the game's state is changed all the same.
    pub const CAPACITY: usize = 8;

    /// One event (built whole, so the value is written once: returning events assembled
    /// piece by piece costs a store-forwarding stall a key in the interpreter).
    #[inline(always)]
    pub const fn one(e: Event) -> Events {
        Events {
            list: [e; Events::CAPACITY],
            len: 1,
        }
    }

    /// No events.
    pub const fn none() -> Events {
        Events {
            list: [Event::AlreadyOver; Events::CAPACITY],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, e: Event) {
        if (self.len as usize) < Events::CAPACITY {
            self.list[self.len as usize] = e;
            self.len += 1;
        }
    }

    /// The events, in order.
    pub fn as_slice(&self) -> &[Event] {
        &self.list[..self.len as usize]
    }

    /// Whether the action changed the game (anything but a bump or a refusal).
    pub fn changed_game(&self) -> bool {
        self.as_slice().iter().any(|e| {
            !matches!(
                e,
                Event::Blocked { .. }
                    | Event::AlreadyOver
                    | Event::InCombat { .. }
                    | Event::CannotDrink { .. }
            )
        })
    }

    /// Whether the action won the game.
    pub fn won(&self) -> bool {
        self.as_slice().contains(&Event::Won)
    }

    /// Whether the action lost the run.
    pub fn lost(&self) -> bool {
        self.as_slice().iter().any(|e| matches!(e, Event::Lost(_)))
    }

    /// The bump, if the action was blocked.
    pub fn blocked(&self) -> Option<(Pos, Tile, Direction)> {
        self.as_slice().iter().find_map(|e| match *e {
            Event::Blocked {
                at,
                tile,
                direction,
            } => Some((at, tile, direction)),
            _ => None,
        })
    }
}

impl<'a> IntoIterator for &'a Events {
    type Item = &'a Event;
    type IntoIter = std::slice::Iter<'a, Event>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl GameState {
    /// Applies one action by the rules ([`apply`]) and returns what happened.
    // Inlined into the interpreter: returning the events through memory costs a
    // store-forwarding stall a key (replay/1M_moves 35 -> 20 ms: docs/performance.md).
    #[inline(always)]
    pub fn apply(&mut self, action: Action) -> Events {
        apply(self, action)
    }
}

/// Applies `action` to `game` and returns what happened. An action that changed the game is
/// added to its history; a bump or an action on an ended game changes nothing at all.
#[inline(always)]
pub fn apply(game: &mut GameState, action: Action) -> Events {
    if game.status != LevelStatus::Playing {
        return Events::one(Event::AlreadyOver);
    }
    let Board::Grid(board) = &mut game.board else {
        // An exploration keeps no terrain grid (its rooms hold its tiles): every one of its
        // steps lands here, off the classic game's hot path.
        return explore_step(game, action);
    };
    let direction = match action {
        Action::Move(direction) => direction,
        Action::Wait => return grid_wait(game),
        // Potions are an exploration's: nothing to drink here.
        Action::Drink => return Events::one(Event::CannotDrink { full: false }),
    };
    let to = board.avatar + direction;
    if to == board.exit {
        let mut events = Events::none();
        game.moves += 1;
        events.push(Event::Unlocked { at: to });
        if board.run.is_some() {
            descend(game, &mut events);
        } else {
            game.status = LevelStatus::Won;
            events.push(Event::Won);
        }
        game.actions.push(action);
        events
    } else if let Some(i) = board.walkable_index(to) {
        game.moves += 1;
        board.avatar = to;
        board.look_at(i);
        game.actions.push(action);
        let moved = Event::Moved { to, direction };
        if board.run.is_none() {
            return Events::one(moved);
        }
        let mut events = Events::none();
        events.push(moved);
        if let Some(loss) = run_step(board, &game.settings, to, &mut events) {
            game.status = LevelStatus::Lost;
            events.push(Event::Lost(loss));
        }
        events
    } else {
        // A bump: only terrain blocks here (the exit was handled above and the avatar never
        // bumps into itself); nothing changes and nothing is recorded.
        Events::one(Event::Blocked {
            at: to,
            tile: board.terrain.tile(to),
            direction,
        })
    }
}

/// A wait (`.`) in a classic game or a run: a turn passes, counted as a move; a run pays a
/// move for it and is lost when that was its last. Out of line: the replay's hot path is the
/// step.
#[inline(never)]
fn grid_wait(game: &mut GameState) -> Events {
    let Board::Grid(board) = &mut game.board else {
        return Events::none();
    };
    game.moves += 1;
    game.actions.push(Action::Wait);
    let mut events = Events::one(Event::Waited);
    if let Some(run) = board.run.as_mut() {
        run.moves_left = run.moves_left.saturating_sub(1);
        if run.moves_left == 0 {
            run.loss = Some(Loss::OutOfMoves);
            game.status = LevelStatus::Lost;
            events.push(Event::Lost(Loss::OutOfMoves));
        }
    }
    events
}

/// A run's step onto `to`: the move's cost and what stands there; the loss it caused, if
/// any (recorded in the run's state).
fn run_step(
    board: &mut GridBoard,
    settings: &byog_worlds::generator::GeneratorSettings,
    to: Pos,
    events: &mut Events,
) -> Option<Loss> {
    let run = board.run.as_mut()?;
    run.moves_left = run.moves_left.saturating_sub(1);
    if let Some(i) = board.features.iter().position(|f| f.pos == to) {
        let weights = run::weights(&board.features);
        let f = &mut board.features[i];
        let (w, h) = (run.max_width as usize, run.max_height as usize);
        let points = if f.paid {
            0
        } else {
            let params = run::depth::params(run.floor, run.floors, w, h, settings);
            let seclusion = board.seclusion.get(i).copied().unwrap_or(0);
            run::feature_points(&params, f.kind, seclusion)
        };
        let points = (points, points);
        let (paid, score) = (f.paid, run.score);
        if let Some(e) = step_on(f, to, points, &mut run.score, &mut run.health) {
            events.push(e);
        }
        if f.paid && !paid {
            // The first time handled: the feature pays its moves at once, before the loss
            // check, so a step onto it with the last move is saved by what it pays.
            let moves = run::feature_moves(&run.info, weights, f.kind);
            run.moves_left += moves;
            events.push(Event::Earned {
                moves: u32::try_from(moves).unwrap_or(u32::MAX),
                points: u32::try_from(run.score - score).unwrap_or(u32::MAX),
            });
        }
    }
    let loss = if run.health == 0 {
        Some(Loss::OutOfHealth)
    } else if run.moves_left == 0 {
        Some(Loss::OutOfMoves)
    } else {
        None
    };
    run.loss = loss;
    loss
}

/// The avatar steps onto feature `f` at `at` (the same in runs and explorations): an empty
/// chest is refilled and a sprung trap rearmed, each paying its points (`(chest, trap)`) the
/// first time only: a feature pays once a floor, so a trap rearmed, sprung and rearmed again
/// pays nothing more. An armed trap springs on the avatar (one health lost) and needs
/// rearming again; a full chest does nothing.
fn step_on(
    f: &mut Feature,
    at: Pos,
    (chest_points, trap_points): (u64, u64),
    score: &mut u64,
    health: &mut u32,
) -> Option<Event> {
    let points = match f.kind {
        FeatureKind::Chest => chest_points,
        FeatureKind::Trap => trap_points,
    };
    let mut pay = || {
        if !f.paid {
            f.paid = true;
            *score += points;
        }
    };
    match (f.kind, f.handled) {
        (FeatureKind::Chest, false) => {
            pay();
            f.handled = true;
            Some(Event::Refilled { at })
        }
        (FeatureKind::Trap, false) => {
            pay();
            f.handled = true;
            Some(Event::Rearmed { at })
        }
        (FeatureKind::Trap, true) => {
            f.handled = false;
            *health = health.saturating_sub(1);
            Some(Event::Hurt {
                at,
                health: *health,
            })
        }
        (FeatureKind::Chest, true) => None,
    }
}

/// An exploration's step (see the module's documentation). Positions in the events are in
/// the frame of the map the avatar is in after the step. Kept out of line: `apply` is inlined
/// into the interpreter's loop, which a classic game's million moves must keep tight.
#[inline(never)]
fn explore_step(game: &mut GameState, action: Action) -> Events {
    let Board::Explore(ex) = &mut game.board else {
        return Events::none();
    };
    let ex: &mut ExploreState = ex;
    let local = |frame: byog_tile_engine::Rect, p: Pos| Pos::new(p.x - frame.x, p.y - frame.y);
    let mut events = Events::none();
    let direction = match action {
        Action::Move(d) => d,
        Action::Wait => {
            game.moves += 1;
            events.push(Event::Waited);
            return end_turn(game, action, events, false);
        }
        Action::Drink => {
            let full = ex.health() >= run::START_HEALTH;
            if full || ex.potions() == 0 {
                return Events::one(Event::CannotDrink { full });
            }
            ex.encounters_mut().potions -= 1;
            let health = (ex.health() + monsters::POTION_HEARTS).min(run::START_HEALTH);
            *ex.health_mut() = health;
            game.moves += 1;
            events.push(Event::Drank {
                health,
                potions: ex.potions(),
            });
            return end_turn(game, action, events, false);
        }
    };
    let from = ex.avatar();
    let to = from + direction;
    if let Some(m) = ex.monster_at(to).copied() {
        // A bump into a monster is an attack.
        game.moves += 1;
        let mut damage = game.rng.random_range(monsters::PLAYER_DAMAGE);
        // A kind that evades (bats, since rules version 10) makes the blow miss so often,
        // drawn after its damage.
        let evade = m.kind.stats().evade_percent;
        if evade > 0 && game.rng.random_range(0..100) < evade {
            damage = 0;
        }
        let killed = damage >= m.health;
        let mut cleared = None;
        {
            let e = ex.encounters_mut();
            let k = e.monsters.iter().position(|x| x.id == m.id).unwrap_or(0);
            if killed {
                e.monsters.remove(k);
            } else {
                e.monsters[k].health -= damage;
            }
        }
        if killed {
            *ex.score_mut() += m.kind.stats().points;
            if ex.settle_room(Some(m.branch), m.home) {
                cleared = Some(m.home);
            }
        }
        events.push(Event::Attacked {
            at: local(ex.frame(), to),
            kind: m.kind,
            damage,
            killed,
        });
        if let Some(room) = cleared {
            events.push(Event::Cleared { room });
        }
        return end_turn(game, action, events, cleared.is_some());
    }
    if to == ex.way_up() {
        game.moves += 1;
        ex.finish(ExploreEnd::Banked);
        game.status = LevelStatus::Won;
        game.actions.push(action);
        events.push(Event::Banked { score: ex.score() });
        events.push(Event::Won);
        return events;
    }
    let (from_plot, to_plot) = (plot::plot_of(from), plot::plot_of(to));
    let mut changed_sight = false;
    if from_plot == to_plot {
        let tile = ex.tile_at(to);
        if !tile.is_walkable() {
            return Events::one(Event::Blocked {
                at: local(ex.frame(), to),
                tile,
                direction,
            });
        }
        game.moves += 1;
        ex.place(to, ex.branch());
        events.push(Event::Moved {
            to: local(ex.frame(), to),
            direction,
        });
        let points = explore::depth_row(explore::depth(to_plot));
        let points = (points.chest_points, points.trap_points);
        let (mut score, mut health) = (ex.score(), ex.health());
        let at = local(ex.frame(), to);
        let stepped = ex
            .feature_mut(to)
            .and_then(|f| step_on(f, at, points, &mut score, &mut health));
        if let Some(e) = stepped {
            *ex.score_mut() = score;
            *ex.health_mut() = health;
            events.push(e);
            if matches!(e, Event::Refilled { .. })
                && ex.encounters().enabled
                && let Some(e) = chest_potion(
                    &mut ex.encounters_mut().potions,
                    game.rng.random_range(0..100),
                )
            {
                events.push(e);
            }
            if clear_if_done(ex, to_plot) {
                events.push(Event::Cleared { room: to_plot });
                changed_sight = true;
            }
            if health == 0 {
                ex.finish(ExploreEnd::Lost { forfeited: score });
                game.status = LevelStatus::Lost;
                events.push(Event::Lost(Loss::OutOfHealth));
            }
        }
    } else {
        // The way back is shut while a monster is beside the avatar.
        if from_plot != RoomPos::START
            && ex.view_room(from_plot).and_then(|(r, _)| r.back) == Some(direction)
            && let Some(kind) = ex
                .monsters()
                .find(|m| from.manhattan(m.pos) == 1)
                .map(|m| m.kind)
        {
            return Events::one(Event::InCombat { direction, kind });
        }
        let Ok(w) = walked_or_refused(ex, game.moves, from_plot, direction) else {
            return Events::one(Event::Blocked {
                at: local(ex.frame(), to),
                tile: ex.tile_at(to),
                direction,
            });
        };
        game.moves += 1;
        let branch = (!w.pos.is_start()).then_some(w.branch);
        ex.place(to, branch);
        events.push(Event::Moved {
            to: local(ex.frame(), to),
            direction,
        });
        events.push(Event::Entered {
            room: w.pos,
            branch,
            made: w.made,
            new_branch: w.new_branch,
        });
        if w.made {
            ex.populate(w.branch, w.pos);
        }
        changed_sight = w.made;
    }
    end_turn(game, action, events, changed_sight)
}

/// The walk across a plot border from `from_plot` in `direction` (at move `moves`): into
/// the start room's branch, or along the room graph.
fn walked_or_refused(
    ex: &mut ExploreState,
    moves: u64,
    from_plot: RoomPos,
    direction: Direction,
) -> Result<explore::Walked, explore::WalkError> {
    match ex.branch() {
        _ if from_plot.is_start() => Ok(ex.dungeon_mut().enter(direction, moves + 1)),
        Some(b) => ex.dungeon_mut().walk(b, from_plot, direction),
        None => Err(explore::WalkError::FromStart),
    }
}

/// What a chest refilled in an exploration gives, with `draw` the game's draw in `0..100`:
/// a potion when `draw` is under [`monsters::potion_percent`] of the potions carried (65 in
/// 100 with room in the pack, 12 in 100 with it full), carried while `potions` is under
/// [`monsters::MAX_POTIONS`] ([`Event::FoundPotion`]), else left behind
/// ([`Event::PotionLeft`]); nothing otherwise.
fn chest_potion(potions: &mut u32, draw: u32) -> Option<Event> {
    if draw >= monsters::potion_percent(*potions) {
        return None;
    }
    Some(if *potions < monsters::MAX_POTIONS {
        *potions += 1;
        Event::FoundPotion { potions: *potions }
    } else {
        Event::PotionLeft { potions: *potions }
    })
}

/// The end of an exploration's turn (an action that counted): the branch timer, sight,
/// the monsters' turn, the loss at 0 health, and the action written to the history.
fn end_turn(
    game: &mut GameState,
    action: Action,
    mut events: Events,
    changed_sight: bool,
) -> Events {
    let Board::Explore(ex) = &mut game.board else {
        return events;
    };
    ex.advance(game.moves);
    ex.decay(game.moves);
    ex.look_if(changed_sight);
    game.actions.push(action);
    if ex.end().is_some() {
        return events;
    }
    let report = ex.monsters_turn(&mut game.rng);
    if let Some((kind, count)) = report.woke {
        events.push(Event::Spotted { kind, count });
    }
    if let Some(&(kind, ..)) = report.fled.first() {
        events.push(Event::Fled { kind });
    }
    for &(_, branch, home) in &report.fled {
        if ex.settle_room(Some(branch), home) {
            events.push(Event::Cleared { room: home });
        }
    }
    if let Some(by) = report.by {
        events.push(Event::Struck {
            by,
            hits: report.hits,
            misses: report.misses,
            damage: report.damage,
            health: ex.health(),
        });
    }
    if ex.health() == 0 {
        let forfeited = ex.score();
        ex.finish(ExploreEnd::Lost { forfeited });
        game.status = LevelStatus::Lost;
        events.push(Event::Lost(Loss::OutOfHealth));
    }
    events
}

/// Settles room `plot` of the avatar's map ([`explore::Room::settle`]): whether it became
/// clear now.
fn clear_if_done(ex: &mut ExploreState, plot: RoomPos) -> bool {
    let branch = ex.view_room(plot).and_then(|(_, branch)| branch);
    ex.settle_room(branch, plot)
}

/// A run's step into the exit: the perfect-floor points, then the next floor with the moves
/// carried down (at most its cap, the rest paid as points) and its arrival moves, or the win
/// on the last floor.
fn descend(game: &mut GameState, events: &mut Events) {
    let Board::Grid(board) = &mut game.board else {
        return;
    };
    let Some(mut state) = board.run else {
        return;
    };
    state.moves_left = state.moves_left.saturating_sub(1);
    let total: u64 = board.features.iter().map(|f| run::weight(f.kind)).sum();
    let handled: u64 = board
        .features
        .iter()
        .filter(|f| f.handled)
        .map(|f| run::weight(f.kind))
        .sum();
    let perfect = handled == total;
    let (w, h) = (state.max_width as usize, state.max_height as usize);
    let points = run::depth::params(state.floor, state.floors, w, h, &game.settings);
    if perfect {
        state.score += points.perfect_points;
        state.perfect_floors += 1;
    }
    if state.floor >= state.floors {
        // Every move left over pays 2 × the depth (`docs/runs.md`): two perfect runs score
        // differently, and a run won with moves to spare beats one that scraped through.
        state.score += state.moves_left * points.end_move_points;
        board.run = Some(state);
        game.status = LevelStatus::Won;
        events.push(Event::Won);
        return;
    }
    let next = state.floor + 1;
    let Ok(floor) = run::floor::make(game.seed, next, state.floors, w, h, &game.settings) else {
        // A run with requirements made every floor when it started, and without them every
        // floor can be made (`GameState::new_run`), so this cannot fail; should it, the run
        // ends won on the floor it reached rather than panicking.
        debug_assert!(false, "floor B{next} can be made");
        board.run = Some(state);
        game.status = LevelStatus::Won;
        events.push(Event::Won);
        return;
    };
    let (missed_chests, missed_traps) = (
        board
            .features
            .iter()
            .filter(|f| f.kind == FeatureKind::Chest && !f.handled)
            .count() as u32,
        board
            .features
            .iter()
            .filter(|f| f.kind == FeatureKind::Trap && !f.handled)
            .count() as u32,
    );
    // The features never paid on this floor, and the next floor's bonus when this one is
    // not perfect: what the misses cost.
    let unpaid: u64 = board
        .features
        .iter()
        .filter(|f| !f.paid)
        .map(|f| run::feature_moves(&state.info, total, f.kind))
        .sum();
    let next_weights = run::weights(&floor.features);
    let earned = run::arrival(&floor.info, next_weights, perfect);
    let forgone = unpaid
        + if perfect {
            0
        } else {
            run::perfect_bonus(&floor.info, next_weights)
        };
    // Moves carried down beyond the next floor's cap are paid as points (docs/runs.md).
    let carry = run::depth::params(next, state.floors, w, h, &game.settings).carry_percent;
    let cap = floor.info.par.saturating_mul(carry) / 100;
    let over = state.moves_left.saturating_sub(cap);
    state.score += over;
    state.moves_left = state.moves_left - over + earned;
    state.floor = next;
    state.info = floor.info;
    *board = GridBoard::new(
        floor.terrain,
        floor.avatar,
        floor.exit,
        floor.features,
        Some(state),
    );
    board.seclusion = floor.seclusion;
    game.rng = floor.rng;
    events.push(Event::Descended {
        floor: next,
        earned: u32::try_from(earned).unwrap_or(u32::MAX),
        perfect,
        missed_chests,
        missed_traps,
        forgone: u32::try_from(forgone).unwrap_or(u32::MAX),
    });
    if over > 0 {
        events.push(Event::PaidOver {
            moves: u32::try_from(over).unwrap_or(u32::MAX),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chest_holds_a_potion_65_in_100_while_the_pack_has_room_and_12_in_100_when_it_is_full() {
        // Every draw of 0..100 once, by the potions carried: with room (0 or 1 carried) 65
        // draws in 100 find one (rules version 10; every draw until 9); with a full pack (2,
        // or an old save's 3) 12 draws in 100 do, and that potion is left behind.
        for carried in 0..=3u32 {
            let mut found = 0;
            let mut left = 0;
            for d in 0..100 {
                let mut potions = carried;
                match chest_potion(&mut potions, d) {
                    Some(Event::FoundPotion { potions: p }) => {
                        assert_eq!((p, potions), (carried + 1, carried + 1));
                        found += 1;
                    }
                    Some(Event::PotionLeft { potions: p }) => {
                        assert_eq!((p, potions), (carried, carried));
                        left += 1;
                    }
                    None => assert_eq!(potions, carried),
                    other => panic!("{other:?}"),
                }
            }
            let expected = if carried < 2 { (65, 0) } else { (0, 12) };
            assert_eq!((found, left), expected, "{carried} carried");
        }
    }

    #[test]
    fn each_feature_pays_once_in_runs_and_explorations_alike() {
        let at = Pos::new(3, 4);
        let (mut score, mut health) = (0, 3);
        let mut trap = Feature {
            pos: at,
            kind: FeatureKind::Trap,
            handled: false,
            paid: false,
        };
        let mut step = |f: &mut Feature| step_on(f, at, (10, 15), &mut score, &mut health);
        assert_eq!(step(&mut trap), Some(Event::Rearmed { at }));
        assert_eq!(step(&mut trap), Some(Event::Hurt { at, health: 2 }));
        assert_eq!(step(&mut trap), Some(Event::Rearmed { at }));
        assert!(trap.handled && trap.paid);
        let mut chest = Feature {
            kind: FeatureKind::Chest,
            ..trap
        };
        chest.handled = false;
        chest.paid = false;
        assert_eq!(step(&mut chest), Some(Event::Refilled { at }));
        assert_eq!(step(&mut chest), None);
        assert_eq!((score, health), (15 + 10, 2));
    }

    /// A fresh run of seed `seed` at the defaults (80 × 30, 10 floors).
    fn run_game(seed: u64) -> GameState {
        let settings = byog_worlds::generator::GeneratorSettings::default();
        GameState::new_run(seed, 80, 30, settings, 10).unwrap()
    }

    /// The moves of the solver's route over the current floor: every feature still to
    /// handle in the tour's order, then the exit.
    fn tour(game: &GameState) -> Vec<Direction> {
        let features = game.features();
        let router =
            run::route::Router::new(game.terrain(), &features, game.avatar(), game.exit(), false);
        let plan = router.plan();
        router.moves(&plan, plan.order.len())
    }

    /// Plays `moves`, returning every event and the moves every `Earned` paid in all.
    fn play(game: &mut GameState, moves: &[Direction]) -> (Vec<Event>, u64) {
        let mut all = Vec::new();
        for &d in moves {
            all.extend(game.apply(Action::Move(d)).as_slice().iter().copied());
        }
        let paid = all
            .iter()
            .map(|e| match *e {
                Event::Earned { moves, .. } => u64::from(moves),
                _ => 0,
            })
            .sum();
        (all, paid)
    }

    #[test]
    fn a_feature_pays_its_moves_at_once_and_only_the_first_time() {
        let (mut chests, mut traps) = (0, 0);
        for seed in 0..20 {
            let mut game = run_game(seed);
            let info = game.run().unwrap().info;
            let features = game.features();
            let weights = run::weights(&features);
            // The rule by hand: 80% of the spare moves, shared equally, rounded down.
            let unit = (info.allowance - info.direct) * 80 / 100 / features.len() as u64;
            assert_eq!(run::feature_unit(&info, weights), unit, "R{seed}S");
            for kind in [FeatureKind::Chest, FeatureKind::Trap] {
                assert_eq!(run::feature_moves(&info, weights, kind), unit, "R{seed}S");
            }
            for d in tour(&game) {
                let before = game.run().unwrap().moves_left;
                let events = game.apply(Action::Move(d));
                let Some(&handled) = events
                    .as_slice()
                    .iter()
                    .find(|e| matches!(e, Event::Refilled { .. } | Event::Rearmed { .. }))
                else {
                    assert!(
                        !events
                            .as_slice()
                            .iter()
                            .any(|e| matches!(e, Event::Earned { .. })),
                        "R{seed}S: moves paid without a feature handled"
                    );
                    continue;
                };
                let (chest, at) = match handled {
                    Event::Refilled { at } => (true, at),
                    Event::Rearmed { at } => (false, at),
                    _ => unreachable!(),
                };
                chests += u32::from(chest);
                traps += u32::from(!chest);
                let moves = unit;
                assert!(
                    events.as_slice().iter().any(
                        |e| matches!(*e, Event::Earned { moves: m, .. } if u64::from(m) == moves)
                    ),
                    "R{seed}S {events:?}"
                );
                assert_eq!(game.run().unwrap().moves_left, before - 1 + moves);
                if chest {
                    // Off the chest and back on: a full chest pays nothing more.
                    let back = d.opposite();
                    let mut left = game.run().unwrap().moves_left;
                    for step in [back, d] {
                        let e = game.apply(Action::Move(step));
                        assert!(
                            !e.as_slice()
                                .iter()
                                .any(|e| matches!(e, Event::Earned { .. })),
                            "R{seed}S: {at:?} paid twice"
                        );
                        left -= 1;
                        assert_eq!(game.run().unwrap().moves_left, left);
                    }
                }
            }
        }
        assert!(chests > 20 && traps > 5, "{chests} chests, {traps} traps");
    }

    #[test]
    fn a_trap_sprung_and_rearmed_again_pays_no_more_moves() {
        let (mut rearmed_twice, mut seed) = (0, 0);
        while rearmed_twice < 3 && seed < 50 {
            let mut game = run_game(seed);
            seed += 1;
            for d in tour(&game) {
                let events = game.apply(Action::Move(d));
                if !matches!(events.as_slice().first(), Some(Event::Moved { .. }))
                    || !events
                        .as_slice()
                        .iter()
                        .any(|e| matches!(e, Event::Rearmed { .. }))
                {
                    continue;
                }
                // Off the trap and back: it springs (a heart); off and back again: rearmed,
                // with no moves and no points.
                let left = game.run().unwrap().moves_left;
                let mut all = Vec::new();
                for step in [d.opposite(), d, d.opposite(), d] {
                    all.extend(game.apply(Action::Move(step)).as_slice().iter().copied());
                }
                assert!(all.iter().any(|e| matches!(e, Event::Hurt { .. })));
                assert!(all.iter().any(|e| matches!(e, Event::Rearmed { .. })));
                assert!(!all.iter().any(|e| matches!(e, Event::Earned { .. })));
                assert_eq!(game.run().unwrap().moves_left, left - 4);
                rearmed_twice += 1;
                break;
            }
        }
        assert_eq!(rearmed_twice, 3);
    }

    #[test]
    fn a_perfect_floor_hands_over_its_allowance_and_the_arrival_follows_the_formula() {
        for seed in [1, 7, 42, 555, 31337] {
            let mut game = run_game(seed);
            // B1 is reached as if from a perfect floor above that carried down 60% of B1's
            // par: D + slack + bonus + par × 60%.
            let info = game.run().unwrap().info;
            let weights = run::weights(&game.features());
            let bonus = run::perfect_bonus(&info, weights);
            let slack = run::arrival_slack(&info, weights);
            let spare = info.allowance - info.direct;
            assert_eq!(
                bonus,
                spare / 10,
                "R{seed}S: the bonus is 10% of the spare moves"
            );
            let start = info.par * 60 / 100;
            assert_eq!(
                game.run().unwrap().moves_left,
                info.direct + slack + bonus + start
            );
            assert_eq!(
                info.direct + slack + bonus + run::feature_unit(&info, weights) * weights,
                info.allowance,
                "R{seed}S: the slack is the rest of the spare moves"
            );
            assert!(
                slack >= spare / 10 && slack <= spare / 10 + weights + 1,
                "R{seed}S"
            );
            let mut carried = start;
            for floor in 1..=4 {
                let run = *game.run().unwrap();
                assert_eq!(run.floor, floor);
                let arrived = run.moves_left;
                let moves = tour(&game);
                let (before_exit, last) = moves.split_at(moves.len() - 1);
                let (_, paid) = play(&mut game, before_exit);
                // Every move of the floor: what it handed over on arrival and what its
                // features paid, A + the moves carried in, in all.
                assert_eq!(
                    arrived + paid,
                    run.info.allowance + carried,
                    "R{seed}S B{floor}"
                );
                let left = game.run().unwrap().moves_left;
                let (events, _) = play(&mut game, last);
                let next = *game.run().unwrap();
                let next_weights = run::weights(&game.features());
                let cap = next.info.par * run::depth::CARRY_PERCENT / 100;
                carried = (left - 1).min(cap);
                let earned = run::arrival(&next.info, next_weights, true);
                assert_eq!(
                    earned,
                    next.info.direct
                        + run::arrival_slack(&next.info, next_weights)
                        + run::perfect_bonus(&next.info, next_weights)
                );
                assert_eq!(next.moves_left, carried + earned, "R{seed}S B{}", floor + 1);
                assert!(events.contains(&Event::Descended {
                    floor: floor + 1,
                    earned: earned as u32,
                    perfect: true,
                    missed_chests: 0,
                    missed_traps: 0,
                    forgone: 0,
                }));
            }
        }
    }

    /// The test's own seclusion of every feature of a floor: breadth-first searches over the
    /// floor's walkable tiles (traps too: the floor as made) from the start and from the
    /// tiles beside the exit, then `(d(start, f) + d(f, exit) − d(start, exit)) / 2`.
    fn seclusion_by_hand(floor: &run::Floor) -> Vec<u32> {
        use std::collections::VecDeque;
        let t = &floor.terrain;
        let (w, h) = (t.width() as i32, t.height() as i32);
        let open = |p: Pos| p.x >= 0 && p.y >= 0 && p.x < w && p.y < h && t.tile(p).is_walkable();
        let search = |sources: Vec<Pos>| {
            let mut dist = vec![u32::MAX; (w * h) as usize];
            let mut queue = VecDeque::new();
            for p in sources {
                dist[(p.y * w + p.x) as usize] = 0;
                queue.push_back(p);
            }
            while let Some(p) = queue.pop_front() {
                let d = dist[(p.y * w + p.x) as usize];
                for dir in Direction::ALL {
                    let q = p + dir;
                    if open(q) && dist[(q.y * w + q.x) as usize] == u32::MAX {
                        dist[(q.y * w + q.x) as usize] = d + 1;
                        queue.push_back(q);
                    }
                }
            }
            dist
        };
        let doors: Vec<Pos> = Direction::ALL
            .into_iter()
            .map(|d| floor.exit + d)
            .filter(|&p| open(p))
            .collect();
        let (from_start, from_exit) = (search(vec![floor.avatar]), search(doors.clone()));
        let at = |d: &[u32], p: Pos| d[(p.y * w + p.x) as usize];
        let direct = doors.iter().map(|&p| at(&from_start, p)).min().unwrap();
        floor
            .features
            .iter()
            .map(|f| (at(&from_start, f.pos) + at(&from_exit, f.pos) - direct) / 2)
            .collect()
    }

    /// A feature pays its kind's points plus 3 × depth a tile of its seclusion, the first
    /// time it is handled: the seclusion the floor gives its features is the test's own, and
    /// the points each `Earned` says are the rule's, on the floors of the solver's runs.
    #[test]
    fn a_features_points_grow_with_its_seclusion() {
        let settings = byog_worlds::generator::GeneratorSettings::default();
        let (mut far, mut near) = (0, 0);
        for seed in 0..12 {
            for depth in 1..=10 {
                let floor = run::floor::make(seed, depth, 10, 80, 30, &settings).unwrap();
                let by_hand = seclusion_by_hand(&floor);
                assert_eq!(floor.seclusion, by_hand, "R{seed}S B{depth}");
                far += by_hand.iter().filter(|&&s| s >= 10).count();
                near += by_hand.iter().filter(|&&s| s <= 1).count();
            }
            let mut game = run_game(seed);
            for _ in 1..=3 {
                let floor = game.run().unwrap().floor;
                let made = run::floor::make(seed, floor, 10, 80, 30, &settings).unwrap();
                let seclusion = seclusion_by_hand(&made);
                for d in tour(&game) {
                    let events = game.apply(Action::Move(d));
                    let Some(points) = events.as_slice().iter().find_map(|e| match *e {
                        Event::Earned { points, .. } => Some(u64::from(points)),
                        _ => None,
                    }) else {
                        continue;
                    };
                    let at = game.avatar();
                    let k = made.features.iter().position(|f| f.pos == at).unwrap();
                    let base = match made.features[k].kind {
                        FeatureKind::Chest => 10,
                        FeatureKind::Trap => 15,
                    };
                    let depth = u64::from(floor);
                    assert_eq!(
                        points,
                        base * depth + u64::from(seclusion[k]) * 3 * depth,
                        "R{seed}S B{floor} at {at:?}"
                    );
                }
            }
        }
        assert!(far > 100 && near > 100, "{far} far, {near} near");
    }

    /// Winning pays the last floor's perfect bonus and 2 × its depth a move left over: on
    /// 3- and 10-floor runs walked by the solver's tours, the step into the last exit adds
    /// exactly 50 × depth + moves left × 2 × depth (the rule by hand).
    #[test]
    fn a_won_run_pays_its_moves_left_by_depth() {
        let settings = byog_worlds::generator::GeneratorSettings::default();
        for (seed, floors) in [(3, 3), (8, 3), (42, 10)] {
            let mut game = GameState::new_run(seed, 80, 30, settings, floors).unwrap();
            while game.run().unwrap().floor < floors {
                let moves = tour(&game);
                play(&mut game, &moves);
            }
            let moves = tour(&game);
            let (last, rest) = moves.split_last().unwrap();
            play(&mut game, rest);
            let before = *game.run().unwrap();
            assert!(game.features().iter().all(|f| f.handled), "R{seed}S");
            let events = game.apply(Action::Move(*last));
            assert!(events.as_slice().contains(&Event::Won), "R{seed}S");
            let after = *game.run().unwrap();
            let depth = u64::from(floors);
            let left = before.moves_left - 1;
            assert_eq!(after.moves_left, left);
            assert!(left > 0, "R{seed}S");
            assert_eq!(
                after.score,
                before.score + 50 * depth + left * 2 * depth,
                "R{seed}S"
            );
        }
    }

    /// The same points when the game was loaded from a save (format 8 keeps each feature's
    /// seclusion), played on on another thread.
    #[test]
    fn a_loaded_game_pays_the_same_points() {
        let mut game = run_game(42);
        let mut rest = tour(&game);
        let first: Vec<Direction> = rest.drain(..rest.len() / 2).collect();
        play(&mut game, &first);
        let bytes = crate::save::encode(&game);
        let replay = rest.clone();
        let loaded = std::thread::spawn(move || {
            let path = std::path::Path::new("save.bin");
            let mut loaded = crate::save::decode(&bytes, path).unwrap();
            assert!(matches!(&loaded.board, Board::Grid(g) if !g.seclusion.is_empty()));
            let (events, _) = play(&mut loaded, &replay);
            events
        })
        .join()
        .unwrap();
        let (events, _) = play(&mut game, &rest);
        assert_eq!(events, loaded);
        assert!(events.iter().any(|e| matches!(e, Event::Earned { .. })));
    }

    /// Flat moves and points by seclusion make some features cost more moves than they pay:
    /// on most floors from B7 on, some feature's detour (twice its seclusion, at least: the
    /// walk from the start into the exit through it, less the direct walk, with no trap in
    /// the way) is more than the moves every feature of the floor pays.
    #[test]
    fn most_deep_floors_hold_a_feature_that_costs_more_than_it_pays() {
        let settings = byog_worlds::generator::GeneratorSettings::default();
        let (mut floors, mut with_one) = (0, 0);
        for seed in 0..20 {
            for depth in 7..=10 {
                let floor = run::floor::make(seed, depth, 10, 80, 30, &settings).unwrap();
                let pays = run::feature_unit(&floor.info, run::weights(&floor.features));
                floors += 1;
                with_one += usize::from(
                    seclusion_by_hand(&floor)
                        .iter()
                        .any(|&s| 2 * u64::from(s) > pays),
                );
            }
        }
        assert!(with_one * 2 > floors, "{with_one} of {floors} floors");
    }
}
