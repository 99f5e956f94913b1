//! Tactics: how a player who knows the turn order and the bestiary fights
//! (`docs/monsters.md`, `docs/balance.md`). Every explorations policy but `dive` fights so
//! before its own rule.
//!
//! What it reads is what the player sees: the monsters in sight (kind, tile, health, state),
//! the tiles seen, the HUD's moves, and what the help says of each kind
//! ([`byog_game::explore::monsters::KindStats`]: speed, reach, range, hit chance, trait). A
//! turn is a move (`moves` counts them), and after the player's action each awake monster
//! acts as its speed says on turn `moves` (a slow one on the even turns, a fast one twice),
//! so the player can tell, before acting, what each monster in sight can do to it this turn
//! from a tile `d` steps off (by the floor monsters walk):
//!
//! - a monster of normal speed strikes `a − (d − 1)` times when that is more than 0 (`a` its
//!   actions): at two tiles it arrives without a blow, so waiting for it gives the first blow
//!   to the player;
//! - a zombie, on the turn it acts, lunges up to two tiles and strikes: from 3 tiles or less,
//!   one blow whatever the player does (its idle turns are the free ones);
//! - an orc throws from up to 3 tiles in sight: one blow, near or not;
//! - a bat flits (half its steps go a random way) and flies off after a bite: beside the
//!   avatar it bites, two tiles off about every second time, farther never this turn;
//! - a rat's bite lands 15 points more often for every other monster beside the avatar.
//!
//! Each blow weighs its monster's chance to land times its mean damage. In that order: at
//! one heart with a potion and a monster awake, it drinks; beside a monster that does not act
//! this turn, it strikes it; beside slow monsters only, that act this turn, it steps to a
//! tile no blow reaches if there is one; beside others, it strikes the one with the least
//! health (a troll first of all: it heals when left). With no monster beside it and hunters
//! coming, it waits while no blow can reach it this turn, and otherwise takes the step (or
//! the wait) the fewest blows reach; when every choice is in reach of a thrower, it walks at
//! the nearest one (waiting only feeds it). It waits only for a hunter that can reach it over
//! the floor it has seen, and at most [`MAX_WAITS`] times in a row, so a monster that does not
//! come never holds it; then the policy's own rule decides.

use crate::agent::Sight;
use byog_game::action::Action;
use byog_game::explore::monsters::{PACK_BONUS, POTION_HEARTS, Speed, Trait};
use byog_game::explore::plot::plot_of;
use byog_game::explore::{Monster, MonsterKind, MonsterState};
use byog_game::run::START_HEALTH;
use byog_tile_engine::search::{Grid, UNREACHED, bfs};
use byog_tile_engine::{Direction, Pos, Tile};

/// Hearts at or under which a potion is drunk before anything else.
pub const DRINK_AT: u32 = 1;

/// Most waits in a row for hunters that do not come (a queue in a corridor, a way the
/// player has not seen): then the policy's own rule moves on.
pub const MAX_WAITS: u32 = 6;

/// The fighting rules, and the waits taken in a row.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tactics {
    /// Waits taken in a row, and the moves count after the last.
    waits: (u32, u64),
    /// The last action given and the moves count it was given at: if the count has not
    /// moved on, the rules refused it, and it is not given again.
    refused: Option<(u64, Action)>,
}

/// A hunter as the player sees it this turn.
struct Hunter {
    monster: Monster,
    /// Its actions this turn.
    acts: u32,
    /// Its mean damage times 100 (hundredths of a heart for a blow that lands).
    damage: u32,
}

impl Hunter {
    /// Its blows this turn, in hundredths, with the avatar `d` steps off over the floor
    /// (1: beside; [`UNREACHED`]: no way) and `cheb` tiles off along the larger axis.
    fn blows(&self, d: u32, cheb: u32) -> u32 {
        let stats = self.monster.kind.stats();
        if self.acts == 0 || d == 0 {
            return 0;
        }
        match stats.trait_ {
            Trait::Flits => match d {
                1 => 100,
                2 => 60,
                _ => 0,
            },
            _ if stats.range > 0 && (d == 1 || cheb <= stats.range) => 100 * self.acts,
            _ if d == UNREACHED => 0,
            // Each action closes up to `reach − 1` tiles and strikes: a lunge, a leap.
            _ => 100 * self.acts.saturating_sub(d.saturating_sub(stats.reach)),
        }
    }

    /// Its hit chance in percent with `crowd` other monsters beside the avatar (a rat's
    /// pack bonus).
    fn hit(&self, crowd: u32) -> u32 {
        let stats = self.monster.kind.stats();
        let bonus = if stats.trait_ == Trait::Pack {
            crowd * PACK_BONUS
        } else {
            0
        };
        (stats.hit_percent + bonus).min(100)
    }
}

/// How far around the avatar the fight is weighed, in tiles each way: sight's radius and a
/// few tiles on (monsters in sight stand within it; a monster's way round may leave it).
const REACH: i32 = 12;

/// The monsters' floor as the player sees it, in the square of [`REACH`] around the
/// avatar: plain floor (features, exits, the way up are not), never the start room, plus
/// the tiles monsters and the avatar stand on.
struct Floor {
    /// The square's bottom-left view tile.
    corner: Pos,
    grid: Grid,
    open: Vec<bool>,
}

impl Floor {
    fn of(sight: &Sight, origin: Pos) -> Floor {
        let a = sight.avatar;
        let side = 2 * REACH + 1;
        let corner = Pos::new(a.x - REACH, a.y - REACH);
        let grid = Grid::around(side as usize, side as usize);
        let mut open = vec![false; grid.len()];
        for j in 0..side {
            for i in 0..side {
                let p = Pos::new(corner.x + i, corner.y + j);
                let t = sight.tile(p);
                let plain =
                    t == Tile::Floor || t == Tile::Player || MonsterKind::of_tile(t).is_some();
                if plain && !plot_of(Pos::new(p.x + origin.x, p.y + origin.y)).is_start() {
                    open[(j as usize + 1) * grid.width + i as usize + 1] = true;
                }
            }
        }
        Floor { corner, grid, open }
    }

    /// The padded cell of view tile `p`, if it lies in the square.
    fn index(&self, p: Pos) -> Option<usize> {
        self.grid
            .index(Pos::new(p.x - self.corner.x, p.y - self.corner.y))
    }

    /// Steps over the floor from view tile `from` to every cell of the square.
    fn distances(&self, from: Pos) -> Vec<u32> {
        let mut dist = vec![UNREACHED; self.grid.len()];
        if let Some(source) = self.index(from) {
            bfs(self.grid, &self.open, &[source], &mut dist);
        }
        dist
    }
}

impl Tactics {
    /// The fighting action for `sight`, if the moment calls for one (a potion, a blow, a
    /// step back, a wait); `None`: no awake monster worth it, and the policy's own rule
    /// decides.
    pub fn act(&mut self, sight: &Sight) -> Option<Action> {
        if self.refused.is_some_and(|(at, _)| at != sight.moves) {
            self.refused = None;
        }
        let action = self.choose(sight);
        if let Some(a) = action {
            self.refused = Some((sight.moves, a));
        }
        if action == Some(Action::Wait) {
            let (n, at) = self.waits;
            let n = if at == sight.moves { n + 1 } else { 1 };
            self.waits = (n, sight.moves + 1);
        }
        action
    }

    fn choose(&self, sight: &Sight) -> Option<Action> {
        let e = sight.explore.as_ref()?;
        if e.end.is_some() {
            return None;
        }
        let turn = sight.moves;
        let hunters: Vec<Hunter> = e
            .monsters
            .iter()
            .filter(|m| m.state == MonsterState::Hunting)
            .map(|m| {
                let s = m.kind.stats();
                Hunter {
                    monster: *m,
                    acts: s.speed.actions(turn),
                    damage: 100 * (s.damage.0 + s.damage.1) / 2,
                }
            })
            .collect();
        if e.health + POTION_HEARTS <= START_HEALTH && e.potions > 0 {
            return Some(Action::Drink);
        }
        let beside: Vec<&Hunter> = hunters
            .iter()
            .filter(|h| h.monster.pos.manhattan(sight.avatar) == 1)
            .collect();
        if hunters.is_empty() {
            // A fleeing monster cornered beside the avatar still strikes: finish it.
            return e
                .monsters
                .iter()
                .find(|m| m.state == MonsterState::Fleeing && m.pos.manhattan(sight.avatar) == 1)
                .and_then(|m| direction(sight.avatar, m.pos))
                .map(Action::Move);
        }
        let floor = Floor::of(sight, e.origin);
        // Expected hearts lost this turn (hundredths of hundredths) with the avatar at `from`.
        let taken = |from: Pos| -> u32 {
            let dist = floor.distances(from);
            let crowd = e
                .monsters
                .iter()
                .filter(|m| m.pos.manhattan(from) == 1)
                .count() as u32;
            hunters
                .iter()
                .map(|h| {
                    let p = h.monster.pos;
                    let d = floor.index(p).map_or(UNREACHED, |i| dist[i]);
                    let cheb = p.x.abs_diff(from.x).max(p.y.abs_diff(from.y));
                    let others = crowd.saturating_sub(u32::from(p.manhattan(from) == 1));
                    h.blows(d, cheb) * h.hit(others) * h.damage / 100
                })
                .sum()
        };
        // Free tiles to step to: seen floor, no monster on it; with a monster beside the
        // avatar, not out of the room (its way back is closed in combat: the rules would
        // refuse the step), and never the step refused last turn.
        let plot = |p: Pos| plot_of(Pos::new(p.x + e.origin.x, p.y + e.origin.y));
        let steps: Vec<(Direction, u32)> = Direction::ALL
            .into_iter()
            .filter(|&d| {
                let to = sight.avatar + d;
                sight.tile(to) == Tile::Floor
                    && e.monsters.iter().all(|m| m.pos != to)
                    && (beside.is_empty() || plot(to) == plot(sight.avatar))
                    && self.refused != Some((sight.moves, Action::Move(d)))
            })
            .map(|d| (d, taken(sight.avatar + d)))
            .collect();
        let strike = |h: &Hunter| direction(sight.avatar, h.monster.pos).map(Action::Move);
        let here = floor.distances(sight.avatar);
        if !beside.is_empty() {
            // A monster beside the avatar that does not act this turn: a free blow.
            if let Some(h) = beside
                .iter()
                .filter(|h| h.acts == 0)
                .min_by_key(|h| (h.monster.health, h.monster.id))
            {
                return strike(h);
            }
            // Slow monsters only, acting this turn: step back where no blow reaches.
            let slow = beside
                .iter()
                .all(|h| h.monster.kind.stats().speed == Speed::Slow);
            if slow && let Some(&(d, _)) = steps.iter().find(|(_, t)| *t == 0) {
                return Some(Action::Move(d));
            }
            // A troll first (it heals when left alone), then the weakest.
            let h = beside.iter().min_by_key(|h| {
                (
                    h.monster.kind.stats().trait_ != Trait::Regenerates,
                    h.monster.health,
                    u32::MAX - h.damage * h.monster.kind.stats().hit_percent,
                    h.monster.id,
                )
            })?;
            return strike(h);
        }
        // Hunters coming: wait while no blow reaches the avatar this turn, for a hunter
        // that can reach it; else the step (or the wait) the fewest blows reach.
        let coming = hunters.iter().any(|h| {
            floor
                .index(h.monster.pos)
                .is_some_and(|i| here[i] != UNREACHED)
        });
        let (waited, at) = self.waits;
        if !coming || (at == sight.moves && waited >= MAX_WAITS) {
            return None;
        }
        let wait = taken(sight.avatar);
        if wait == 0 {
            return Some(Action::Wait);
        }
        let least = steps.iter().map(|&(_, t)| t).min().unwrap_or(u32::MAX);
        if least.min(wait) > 0 {
            // Every choice is in reach: a thrower in sight feeds on waiting; walk at the
            // nearest one.
            let thrower = hunters
                .iter()
                .filter(|h| h.monster.kind.stats().range > 0)
                .filter_map(|h| {
                    let i = floor.index(h.monster.pos)?;
                    (here[i] != UNREACHED).then_some((here[i], h.monster.id, h.monster.pos))
                })
                .min();
            if let Some((_, _, at)) = thrower {
                let dist = floor.distances(at);
                if let Some(&(d, _)) = steps.iter().min_by_key(|(d, _)| {
                    floor
                        .index(sight.avatar + *d)
                        .map_or(UNREACHED, |i| dist[i])
                }) {
                    return Some(Action::Move(d));
                }
            }
        }
        Some(match steps.iter().copied().min_by_key(|&(_, t)| t) {
            Some((d, t)) if t < wait => Action::Move(d),
            _ => Action::Wait,
        })
    }
}

/// The direction from `a` to its neighbour `b`, if they are neighbours.
fn direction(a: Pos, b: Pos) -> Option<Direction> {
    Direction::ALL.into_iter().find(|&d| a + d == b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use byog_game::explore::ExploreSettings;
    use byog_game::game::GameState;
    use byog_worlds::generator::GeneratorSettings;

    /// An exploration whose avatar stands in the first room above the start room (walked
    /// up from the centre, no monsters of its own), with `kind` added hunting at `dx, dy`
    /// tiles from the avatar, after `turns` waits (so `moves` is as asked: the turn order).
    fn scene(kind: MonsterKind, at: (i32, i32), odd_turn: bool) -> GameState {
        let quiet = ExploreSettings {
            monsters: false,
            ..ExploreSettings::default()
        };
        let mut game = GameState::new_exploration(3, GeneratorSettings::default(), quiet).unwrap();
        // Into the first room's middle: 7 steps to its edge, 6 more to its centre.
        for _ in 0..13 {
            game.apply(Action::Move(Direction::Up));
        }
        if game.moves() % 2 == u64::from(!odd_turn) {
            game.apply(Action::Wait);
        }
        let e = game.explore_mut().unwrap();
        let a = e.avatar();
        e.add_monsters(&[(Pos::new(a.x + at.0, a.y + at.1), kind)])
            .unwrap();
        game
    }

    fn act(game: &GameState) -> Option<Action> {
        Tactics::default().act(&Sight::of(game))
    }

    #[test]
    fn a_normal_monster_two_tiles_off_is_waited_for() {
        let game = scene(MonsterKind::Rat, (2, 0), false);
        assert_eq!(act(&game), Some(Action::Wait));
    }

    #[test]
    fn a_bat_two_tiles_off_is_stepped_back_from_and_three_off_waited_for() {
        // At 2 tiles the bat would arrive and strike: a step to 3 tiles off (up, the first
        // direction that does it) lets it spend both its actions arriving.
        let game = scene(MonsterKind::Bat, (2, 0), false);
        assert_eq!(act(&game), Some(Action::Move(Direction::Up)));
        let game = scene(MonsterKind::Bat, (3, 0), false);
        assert_eq!(act(&game), Some(Action::Wait));
    }

    #[test]
    fn a_zombie_beside_is_struck_whatever_its_turn() {
        // Turn parity: slow monsters act on the even turns (`moves` even before the action).
        let idle = scene(MonsterKind::Zombie, (1, 0), true);
        assert_eq!(idle.moves() % 2, 1);
        assert_eq!(act(&idle), Some(Action::Move(Direction::Right)));
        // On its turn a step away does not help (it lunges two tiles and strikes): struck.
        let active = scene(MonsterKind::Zombie, (1, 0), false);
        assert_eq!(active.moves() % 2, 0);
        assert_eq!(act(&active), Some(Action::Move(Direction::Right)));
    }

    #[test]
    fn a_monster_beside_is_struck() {
        let game = scene(MonsterKind::Goblin, (0, 1), false);
        assert_eq!(act(&game), Some(Action::Move(Direction::Up)));
    }
}
