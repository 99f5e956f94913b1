//! Policies (`docs/balance.md`): deterministic players that see only what the player sees,
//! and the games they play, so that balance is a number (how often a player who plays by a
//! given rule wins).
//!
//! Every policy but `solver` reads nothing but the [`Sight`] that `byog agent` gives (the
//! Rust observation, in process): the tiles seen, the features seen, the exit once seen, the
//! HUD's numbers. `solver` knows the whole floor ([`crate::solver`]) and is
//! the reference: it wins every run.
//!
//! - runs: [`Policy::Solver`], [`Policy::Sight`] ([`sight`]), [`Policy::SightMiss`] (the
//!   same, missing one feature on B2), [`Policy::Hurry`] ([`hurry`]);
//! - explorations: [`Policy::Dive`] ([`dive`]: strikes blindly, never banks), and divers
//!   that fight with [`tactics`] and bank by a rule ([`cautious`]): [`Policy::Tactics`]
//!   (never on its own), [`Policy::Cautious`] (health, potions, depth),
//!   [`Policy::BankAt2`] (once at depth 2), and the family [`Policy::Bank`] of every rule
//!   of that kind (`bank:depth=7,hearts=1,points=400`: [`cautious::BankRule`]), which a
//!   sweep plays.
//!
//! [`play_run`] and [`play_exploration`] play one game with a policy and say how it ended.
//! The same seed and policy always give the same keys. Nothing in `core` imports this module
//! (it sits above the agent).

pub mod cautious;
pub mod dive;
pub mod greedy;
pub mod hurry;
pub mod seen;
pub mod selective;
pub mod sight;
pub mod tactics;

use std::fmt;

use crate::agent::Sight;
use crate::solver;
use byog_game::action::Action;
use byog_game::explore::play::ExploreEnd;
use byog_game::explore::{ExploreSettings, MonsterKind};
use byog_game::game::{GameState, LevelStatus};
use byog_game::rules::Event;
use byog_game::run::Loss;
use byog_tile_engine::Direction;
use byog_worlds::generator::{GenerateError, GeneratorSettings};

/// The floor on which `sight-miss` misses one feature (B2).
pub const MISS_FLOOR: u32 = 2;

/// Most moves an exploration is played by a policy before it is stopped, by default (a
/// policy that never banks, with nothing to lose it, would play for ever): the session's
/// length, which the banking policies know (they walk home before it ends). `byog stats
/// --move-cap N` plays other lengths ([`play_exploration_with`]).
pub const EXPLORE_MOVE_CAP: u64 = 3_000;

/// Most keys a run is played by a policy: far beyond any budget (every step costs a move),
/// so only a policy that keeps bumping meets it.
const RUN_KEY_CAP: u64 = 1_000_000;

/// A policy by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Policy {
    /// Runs: the solver's route, the whole floor known (the reference).
    Solver,
    /// Runs: explores, handles the features it sees, goes to the exit ([`sight`]).
    Sight,
    /// Runs: `sight`, but on B2 it misses the first feature it sees.
    SightMiss,
    /// Runs: ignores the features, explores until the exit is seen, goes to it ([`hurry`]).
    Hurry,
    /// Runs: every feature it sees, never looking at the moves left ([`greedy`]).
    Greedy,
    /// Runs: `greedy`, but a feature only when its detour fits its refund and the moves to
    /// spare, and exploring only while the exit fits (`X`'s stop rule) ([`selective`]).
    Selective,
    /// Explorations: always the deepest unexplored exit, strikes what stands beside it,
    /// never banks ([`dive`]).
    Dive,
    /// Explorations: dives, fights with [`tactics`], never banks on its own (home only when
    /// the session's moves run out).
    Tactics,
    /// Explorations: dives, fights with [`tactics`], banks by a rule: its health, potions
    /// and depth ([`cautious`]).
    Cautious,
    /// Explorations: dives, fights with [`tactics`], banks once it stood at depth 2.
    BankAt2,
    /// Explorations: dives, fights with [`tactics`], banks by the rule given (the family the
    /// three above belong to: `bank:depth=5,hearts=1` plays as `cautious`).
    Bank(cautious::BankRule),
}

/// What a policy plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameMode {
    /// Runs (`R<seed>S`).
    Runs,
    /// Explorations (`E<seed>S`).
    Explorations,
}

impl Policy {
    /// Every named policy, runs' first (the family [`Policy::Bank`] is named by its rule).
    pub const ALL: [Policy; 10] = [
        Policy::Solver,
        Policy::Sight,
        Policy::SightMiss,
        Policy::Hurry,
        Policy::Greedy,
        Policy::Selective,
        Policy::Dive,
        Policy::Tactics,
        Policy::Cautious,
        Policy::BankAt2,
    ];

    /// Its name on the command line (a rule of the family: `bank:` and its settings,
    /// [`cautious::BankRule::name`]).
    pub fn name(self) -> String {
        match self {
            Policy::Solver => "solver".into(),
            Policy::Sight => "sight".into(),
            Policy::SightMiss => "sight-miss".into(),
            Policy::Hurry => "hurry".into(),
            Policy::Greedy => "greedy".into(),
            Policy::Selective => "selective".into(),
            Policy::Dive => "dive".into(),
            Policy::Tactics => "tactics".into(),
            Policy::Cautious => "cautious".into(),
            Policy::BankAt2 => "bank-at-2".into(),
            Policy::Bank(rule) => rule.name(),
        }
    }

    /// The policy named `name`, if any: a named one, or a rule of the family
    /// (`bank:depth=7,hearts=1`, [`cautious::BankRule::parse`]).
    pub fn from_name(name: &str) -> Option<Policy> {
        Policy::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .or_else(|| cautious::BankRule::parse(name).ok().map(Policy::Bank))
    }

    /// What it plays.
    pub fn mode(self) -> GameMode {
        match self {
            Policy::Dive
            | Policy::Tactics
            | Policy::Cautious
            | Policy::BankAt2
            | Policy::Bank(_) => GameMode::Explorations,
            _ => GameMode::Runs,
        }
    }

    /// The names of the policies of `mode`, comma-separated (with the family's form for
    /// explorations).
    pub fn names_of(mode: GameMode) -> String {
        let mut names: Vec<String> = Policy::ALL
            .into_iter()
            .filter(|p| p.mode() == mode)
            .map(Policy::name)
            .collect();
        if mode == GameMode::Explorations {
            names.push(cautious::BankRule::FORM.into());
        }
        names.join(", ")
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A policy that reads observations (every one but `solver`).
#[derive(Debug, Clone)]
pub enum Player {
    /// `sight`, `sight-miss` or `hurry`.
    Runs(sight::SightPolicy),
    /// `greedy`.
    Greedy(greedy::GreedyPolicy),
    /// `selective`.
    Selective(selective::SelectivePolicy),
    /// `dive`.
    Dive(dive::DivePolicy),
    /// `tactics`, `cautious`, `bank-at-2`.
    Bank(cautious::BankingPolicy),
}

impl Player {
    /// A fresh player for `policy`; `None` for `solver`, which reads the game itself.
    /// Explorations' banking players walk home before [`EXPLORE_MOVE_CAP`] moves.
    pub fn new(policy: Policy) -> Option<Player> {
        Player::with_session(policy, EXPLORE_MOVE_CAP)
    }

    /// [`Player::new`], for explorations played for at most `session` moves (the banking
    /// players walk home before it ends).
    pub fn with_session(policy: Policy, session: u64) -> Option<Player> {
        let bank = |rule| Player::Bank(cautious::BankingPolicy::new(rule).with_session(session));
        Some(match policy {
            Policy::Solver => return None,
            Policy::Sight => Player::Runs(sight::SightPolicy::new()),
            Policy::SightMiss => Player::Runs(sight::SightPolicy::missing(MISS_FLOOR)),
            Policy::Hurry => Player::Runs(hurry::hurry()),
            Policy::Greedy => Player::Greedy(greedy::GreedyPolicy::new()),
            Policy::Selective => Player::Selective(selective::SelectivePolicy::new()),
            Policy::Dive => Player::Dive(dive::DivePolicy::new()),
            Policy::Tactics => bank(cautious::BankRule::NEVER),
            Policy::Cautious => bank(cautious::BankRule::CAUTIOUS),
            Policy::BankAt2 => bank(cautious::BankRule::AT_DEPTH_2),
            Policy::Bank(rule) => bank(rule),
        })
    }

    /// The next step for what the player sees; `None`: the player has nothing to do.
    pub fn next(&mut self, sight: &Sight) -> Option<Direction> {
        match self {
            Player::Runs(p) => p.next(sight),
            Player::Greedy(p) => p.next(sight),
            Player::Selective(p) => p.next(sight),
            Player::Dive(p) => p.next(sight),
            Player::Bank(p) => p.next(sight),
        }
    }

    /// The next action in an exploration: `dive` strikes what stands beside it
    /// (`fight`) before its rule; the others fight with [`tactics`] (a blow, a step back, a
    /// wait, a potion). `None`: nothing to do.
    pub fn act(&mut self, sight: &Sight) -> Option<Action> {
        match self {
            Player::Bank(p) => p.act(sight),
            _ => fight(sight).or_else(|| self.next(sight).map(Action::Move)),
        }
    }
}

/// What runs are made with (the command line's `--width`, `--height`, generator flags and
/// `--floors`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunSetup {
    /// The largest floor's width in tiles.
    pub width: usize,
    /// The largest floor's height in tiles.
    pub height: usize,
    /// The generator's settings.
    pub settings: GeneratorSettings,
    /// Floors in a run.
    pub floors: u32,
}

impl Default for RunSetup {
    /// 80 × 30, the default generator, 10 floors.
    fn default() -> Self {
        RunSetup {
            width: byog_game::game::WIDTH,
            height: byog_game::game::HEIGHT,
            settings: GeneratorSettings::default(),
            floors: byog_game::run::DEFAULT_FLOORS,
        }
    }
}

impl RunSetup {
    /// The run `R<seed>S` made with this setup.
    ///
    /// # Errors
    /// [`GenerateError`] for settings out of range.
    pub fn start(&self, seed: u64) -> Result<GameState, GenerateError> {
        GameState::new_run(seed, self.width, self.height, self.settings, self.floors)
    }
}

/// How a game played by a policy ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ending {
    /// A run won.
    Won,
    /// A run lost: the moves ran out.
    OutOfMoves,
    /// Lost: the last heart went (a run's armed trap, an exploration's).
    OutOfHealth,
    /// An exploration banked at the way up.
    Banked,
    /// The policy had nothing left to do (no step it could take) with the game in play.
    Stuck,
    /// An exploration still in play after [`EXPLORE_MOVE_CAP`] moves.
    Capped,
}

impl Ending {
    /// In a table's words (and the JSON's): `"won"`, `"moves"`, `"health"`, `"banked"`,
    /// `"stuck"`, `"capped"`.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Won => "won",
            Ending::OutOfMoves => "moves",
            Ending::OutOfHealth => "health",
            Ending::Banked => "banked",
            Ending::Stuck => "stuck",
            Ending::Capped => "capped",
        }
    }
}

/// One game a policy played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// The game's seed.
    pub seed: u64,
    /// How it ended.
    pub ending: Ending,
    /// A run's last floor (1-based), an exploration's deepest room depth stood in.
    pub reached: u32,
    /// Points: a run's score; an exploration's points carried (banked or not; 0 once lost).
    pub score: u64,
    /// Steps taken.
    pub moves: u64,
    /// Hearts left.
    pub health: u32,
    /// A run's floors finished with every feature handled (0 for explorations).
    pub perfect_floors: u32,
    /// Whether the exit (a run's, on the last floor played) was ever seen; for explorations,
    /// rooms made.
    pub extra: u64,
    /// Explorations: the kind of monster that took the last heart, once one did.
    pub killed_by: Option<MonsterKind>,
    /// Explorations: chests refilled.
    pub chests: u32,
    /// Explorations: potions found in them and carried.
    pub potions_found: u32,
    /// Explorations: potions found in them and left behind (the pack was full).
    pub potions_left: u32,
}

/// Plays run `R<seed>S` with `policy` (a runs policy), calling `on_key` with each step.
///
/// # Errors
/// [`GenerateError`] when a floor cannot be made.
///
/// # Panics
/// If `policy` plays explorations.
pub fn play_run(
    seed: u64,
    policy: Policy,
    setup: &RunSetup,
    on_key: &mut dyn FnMut(Direction),
) -> Result<Played, GenerateError> {
    play_run_with(seed, policy, setup, on_key, &mut |_| {})
}

/// A floor reached in a run: how many moves the player arrived with, against the floor's
/// par (`docs/balance.md`: from B3 on, `sight` arrives with 1.3–2.2 × par at the median).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    /// The floor reached, 1-based (B2 is the first arrival; B1 is the start).
    pub floor: u32,
    /// Moves left on arrival.
    pub moves_left: u64,
    /// The floor's par (the solver's route: every feature, then the exit).
    pub par: u64,
}

/// [`play_run`], calling `on_arrival` on each floor reached after B1.
///
/// # Errors
/// [`GenerateError`] when a floor cannot be made.
///
/// # Panics
/// If `policy` plays explorations.
pub fn play_run_with(
    seed: u64,
    policy: Policy,
    setup: &RunSetup,
    on_key: &mut dyn FnMut(Direction),
    on_arrival: &mut dyn FnMut(Arrival),
) -> Result<Played, GenerateError> {
    assert_eq!(policy.mode(), GameMode::Runs, "{policy} plays explorations");
    let mut game = setup.start(seed)?;
    let mut floor = 1;
    let mut arrived = |game: &GameState| {
        if let Some(run) = game.run()
            && run.floor != floor
        {
            floor = run.floor;
            on_arrival(Arrival {
                floor,
                moves_left: run.moves_left,
                par: run.info.par,
            });
        }
    };
    match Player::new(policy) {
        None => {
            // The solver's keys win every run (every floor is solvable by construction).
            if let Ok(actions) = solver::solve(&game) {
                for action in actions {
                    if let Action::Move(d) = action {
                        on_key(d);
                    }
                    game.apply(action);
                    arrived(&game);
                }
            }
        }
        Some(mut player) => play_on(
            &mut game,
            &mut player,
            RUN_KEY_CAP,
            &mut |d| on_key(d),
            &mut arrived,
        ),
    }
    Ok(run_outcome(seed, &game))
}

/// Plays `game` with `player` until it ends, the player has nothing to do, or `cap` keys,
/// calling `after` with the game after each key. A refused step (a bump) is a key too.
pub fn play_on(
    game: &mut GameState,
    player: &mut Player,
    cap: u64,
    on_key: &mut dyn FnMut(Direction),
    after: &mut dyn FnMut(&GameState),
) {
    let mut keys = 0;
    while !game.has_ended() && keys < cap {
        let sight = Sight::of(game);
        let Some(d) = player.next(&sight) else {
            break;
        };
        on_key(d);
        game.apply(Action::Move(d));
        after(game);
        keys += 1;
    }
}

/// How run `game` stands, as an [`Played`].
fn run_outcome(seed: u64, game: &GameState) -> Played {
    let run = game.run().copied();
    let ending = match (game.status(), run.and_then(|r| r.loss)) {
        (LevelStatus::Won, _) => Ending::Won,
        (LevelStatus::Lost, Some(Loss::OutOfHealth)) => Ending::OutOfHealth,
        (LevelStatus::Lost, _) => Ending::OutOfMoves,
        (LevelStatus::Playing, _) => Ending::Stuck,
    };
    Played {
        seed,
        ending,
        reached: run.map_or(0, |r| r.floor),
        score: run.map_or(0, |r| r.score),
        moves: game.moves(),
        health: run.map_or(0, |r| r.health),
        perfect_floors: run.map_or(0, |r| r.perfect_floors),
        extra: u64::from(game.has_seen(game.exit())),
        killed_by: None,
        chests: 0,
        potions_found: 0,
        potions_left: 0,
    }
}

/// Plays exploration `E<seed>S` with `policy` (an explorations policy) and `settings`, for
/// at most [`EXPLORE_MOVE_CAP`] moves, calling `on_key` with each action (a step, a blow, a
/// potion, a wait). Before its own rule, `dive` drinks at one heart and strikes a monster
/// beside it (`fight`); the others fight with [`tactics`].
///
/// # Errors
/// [`GenerateError`] for settings out of range.
///
/// # Panics
/// If `policy` plays runs.
pub fn play_exploration(
    seed: u64,
    policy: Policy,
    settings: ExploreSettings,
    on_key: &mut dyn FnMut(Action),
) -> Result<Played, GenerateError> {
    play_exploration_with(seed, policy, settings, EXPLORE_MOVE_CAP, on_key)
}

/// [`play_exploration`] for a session of at most `move_cap` moves (`byog stats
/// --move-cap`): the game is stopped there, and the banking policies know it (they walk
/// home before it ends).
///
/// # Errors
/// [`GenerateError`] for settings out of range.
///
/// # Panics
/// If `policy` plays runs.
pub fn play_exploration_with(
    seed: u64,
    policy: Policy,
    settings: ExploreSettings,
    move_cap: u64,
    on_key: &mut dyn FnMut(Action),
) -> Result<Played, GenerateError> {
    assert_eq!(policy.mode(), GameMode::Explorations, "{policy} plays runs");
    let mut game = GameState::new_exploration(seed, GeneratorSettings::default(), settings)?;
    let mut player =
        Player::with_session(policy, move_cap).expect("an explorations policy reads observations");
    let mut deepest = 0;
    let mut keys = 0u64;
    let (mut chests, mut found, mut left) = (0, 0, 0);
    // A refused step (a bump) is a key but no move: a policy that keeps bumping is stopped.
    while !game.has_ended() && game.moves() < move_cap && keys < 2 * move_cap {
        let sight = Sight::of(&game);
        deepest = deepest.max(sight.explore.as_ref().map_or(0, |e| e.depth));
        let Some(action) = player.act(&sight) else {
            break;
        };
        on_key(action);
        for event in &game.apply(action) {
            match event {
                Event::Refilled { .. } => chests += 1,
                Event::FoundPotion { .. } => found += 1,
                Event::PotionLeft { .. } => left += 1,
                _ => {}
            }
        }
        keys += 1;
    }
    let ex = game.explore();
    let end = ex.and_then(|e| e.end());
    let ending = match end {
        Some(ExploreEnd::Banked) => Ending::Banked,
        Some(ExploreEnd::Lost { .. }) => Ending::OutOfHealth,
        None if game.moves() >= move_cap => Ending::Capped,
        None => Ending::Stuck,
    };
    Ok(Played {
        seed,
        ending,
        reached: deepest.max(ex.map_or(0, |e| byog_game::explore::depth(e.room()))),
        score: ex.map_or(0, |e| e.score()),
        moves: game.moves(),
        health: ex.map_or(0, |e| e.health()),
        perfect_floors: 0,
        extra: ex.map_or(0, |e| e.dungeon().rooms_made() as u64),
        killed_by: ex.and_then(|e| e.killed_by()),
        chests,
        potions_found: found,
        potions_left: left,
    })
}

/// What every explorations policy does before its own rule (`docs/monsters.md`): at one
/// heart with a potion, drink it; with a monster it sees beside the avatar, strike it (the
/// way back is closed in combat, so stepping away first is no escape from it). `None`: the
/// policy's rule decides.
fn fight(sight: &Sight) -> Option<Action> {
    let e = sight.explore.as_ref()?;
    if e.end.is_some() {
        return None;
    }
    if e.health <= 1 && e.potions > 0 {
        return Some(Action::Drink);
    }
    Direction::ALL
        .into_iter()
        .find(|d| e.monsters.iter().any(|m| m.pos == sight.avatar + *d))
        .map(Action::Move)
}

#[cfg(test)]
mod tests {
    use super::*;
    use byog_game::testing;

    /// Plays `policy` on run `seed` with the moves left kept unlimited, and returns, a
    /// floor, `(depth, moves spent, par, direct, allowance)`.
    fn floor_costs(seed: u64, policy: Policy) -> Vec<(u32, u64, u64, u64, u64)> {
        let setup = RunSetup::default();
        let mut game = setup.start(seed).unwrap();
        let mut player = Player::new(policy).unwrap();
        let mut out = Vec::new();
        let mut start = 0;
        let mut floor = 1;
        let mut info = game.run().unwrap().info;
        while !game.has_ended() && game.moves() < 100_000 {
            if let Some(g) = testing::grid_mut(&mut game)
                && let Some(r) = g.run
            {
                r.moves_left = 1_000_000;
            }
            let sight = Sight::of(&game);
            let Some(d) = player.next(&sight) else { break };
            game.apply(Action::Move(d));
            let run = *game.run().unwrap();
            if run.floor != floor || game.has_ended() {
                out.push((
                    floor,
                    game.moves() - start,
                    info.par,
                    info.direct,
                    info.allowance,
                ));
                start = game.moves();
                floor = run.floor;
                info = run.info;
            }
        }
        out
    }

    /// The seen mask of a run's current floor (terrain row-major, bottom row first).
    fn seen_mask(game: &GameState) -> Vec<bool> {
        let mut game = game.clone();
        testing::grid_mut(&mut game).map_or_else(Vec::new, |g| g.seen.to_vec())
    }

    /// `game` (a run at a floor's arrival) with every tile of its floor that `seen` says was
    /// never seen changed: walls and rock swapped (both closed and opaque, so what the avatar
    /// sees stays the same), and every feature on an unseen tile moved to another unseen
    /// floor tile (the floor keeps its counts).
    fn perturbed(game: &GameState, seen: &[bool]) -> GameState {
        use byog_tile_engine::{Pos, Tile};
        let mut out = game.clone();
        let Some(g) = testing::grid_mut(&mut out) else {
            unreachable!("a run")
        };
        let w = g.terrain.width();
        let pos = |k: usize| Pos::new((k % w) as i32, (k / w) as i32);
        let mut free: Vec<Pos> = Vec::new();
        for (k, &was_seen) in seen.iter().enumerate() {
            if was_seen {
                continue;
            }
            let p = pos(k);
            match g.terrain.tile(p) {
                Tile::Wall if p != g.exit => g.terrain.set(p, Tile::Nothing),
                Tile::Nothing => g.terrain.set(p, Tile::Wall),
                Tile::Floor if p != g.avatar && g.features.iter().all(|f| f.pos != p) => {
                    free.push(p);
                }
                _ => {}
            }
        }
        // Last free tiles first: far from where the unseen features stood, in most floors.
        for f in g.features.iter_mut() {
            let k = (f.pos.y as usize) * w + f.pos.x as usize;
            if !seen[k]
                && let Some(p) = free.pop()
            {
                f.pos = p;
            }
        }
        g.features.sort_unstable_by_key(|f| (f.pos.y, f.pos.x));
        out
    }

    /// Each sighted policy plays a run; then each floor is played again from its arrival
    /// with every tile it never saw on that floor changed (`perturbed`): the keys are the
    /// same. The floors are changed in the game itself, so a policy that read the game
    /// instead of its observation would see the change.
    #[test]
    fn policies_never_read_unseen_tiles() {
        let setup = RunSetup {
            floors: 3,
            ..RunSetup::default()
        };
        for policy in [
            Policy::Sight,
            Policy::SightMiss,
            Policy::Hurry,
            Policy::Greedy,
            Policy::Selective,
        ] {
            for seed in [1, 7] {
                let mut game = setup.start(seed).unwrap();
                let mut player = Player::new(policy).unwrap();
                let mut keys = Vec::new();
                // (the game and the player at a floor's arrival, the key index, the floor's
                // seen mask when it was left)
                let mut floors: Vec<(GameState, Player, usize, Vec<bool>)> = Vec::new();
                let mut arrival = (game.clone(), player.clone(), 0);
                let mut seen;
                while !game.has_ended() {
                    let Some(d) = player.next(&Sight::of(&game)) else {
                        break;
                    };
                    let floor = game.run().unwrap().floor;
                    seen = seen_mask(&game);
                    keys.push(d);
                    game.apply(Action::Move(d));
                    if game.run().unwrap().floor != floor {
                        floors.push((arrival.0, arrival.1, arrival.2, seen.clone()));
                        arrival = (game.clone(), player.clone(), keys.len());
                    }
                }
                if !game.has_ended() || game.run().unwrap().floor == arrival.0.run().unwrap().floor
                {
                    floors.push((arrival.0, arrival.1, arrival.2, seen_mask(&game)));
                }
                let mut changed = 0;
                let ends: Vec<usize> = floors
                    .iter()
                    .skip(1)
                    .map(|f| f.2)
                    .chain([keys.len()])
                    .collect();
                for ((at, who, start, seen), end) in floors.into_iter().zip(ends) {
                    let mut other = perturbed(&at, &seen);
                    changed += usize::from(other != at);
                    let mut who = who;
                    let floor = at.run().unwrap().floor;
                    let mut again = Vec::new();
                    while !other.has_ended() && other.run().unwrap().floor == floor {
                        let Some(d) = who.next(&Sight::of(&other)) else {
                            break;
                        };
                        again.push(d);
                        other.apply(Action::Move(d));
                    }
                    assert_eq!(again, &keys[start..end], "{policy} R{seed}S B{floor}");
                }
                assert!(changed > 0, "{policy} R{seed}S: nothing was changed");
            }
        }
    }

    /// A floor's steps, par, direct distance and allowance.
    type Row = (u64, u64, u64, u64);

    #[test]
    #[ignore = "a measurement: prints what each policy spends a floor"]
    fn measure_floor_costs() {
        for policy in [Policy::Sight, Policy::Hurry] {
            let mut rows: Vec<Vec<Row>> = vec![Vec::new(); 11];
            for seed in 0..200 {
                for (d, spent, par, direct, allowance) in floor_costs(seed, policy) {
                    rows[d as usize].push((spent, par, direct, allowance));
                }
            }
            println!(
                "{policy}: depth, floors, median spent, spent/par p50 p90, spent/allowance p50 p90 p95, spent/direct p50"
            );
            for (d, r) in rows.iter().enumerate().skip(1) {
                let q = |mut v: Vec<f64>, p: usize| {
                    v.sort_by(f64::total_cmp);
                    v[(v.len() * p).div_ceil(100).max(1) - 1]
                };
                let ratio = |f: &dyn Fn(&Row) -> f64| r.iter().map(f).collect::<Vec<f64>>();
                let spent = ratio(&|x| x.0 as f64);
                let sp = ratio(&|x| x.0 as f64 / x.1 as f64);
                let sa = ratio(&|x| x.0 as f64 / x.3 as f64);
                let sd = ratio(&|x| x.0 as f64 / x.2 as f64);
                println!(
                    "B{d} {} {:.0} {:.2} {:.2} {:.2} {:.2} {:.2} {:.2}",
                    r.len(),
                    q(spent, 50),
                    q(sp.clone(), 50),
                    q(sp, 90),
                    q(sa.clone(), 50),
                    q(sa.clone(), 90),
                    q(sa, 95),
                    q(sd, 50)
                );
            }
        }
    }
}
