//! The depth table of a run (`docs/runs.md`): how every parameter of a floor
//! follows from its depth, B1 to B`floors`. Depth is difficulty, as in Evennia's dungeon: the
//! deeper, the larger the floor, the more features (and the larger the share of traps), the
//! twistier the maze with fewer loops, and the tighter the move budget, for more points.
//!
//! Every value is integer arithmetic on `t = (depth - 1) / (floors - 1)` (`t = 1` for a
//! one-floor run), written as `lerp(a, b) = a + (b - a) × (depth - 1) / (floors - 1)`,
//! rounded towards `a` (down for rising rows, up for falling ones):
//!
//! | parameter | B1 | last floor | pushes |
//! |---|---|---|---|
//! | width, height (tiles) | 3/5 of `--width`, `--height` (at least 21 × 11), odd | `--width`, `--height`, odd | more to walk |
//! | features | 4 | 13 | more to handle, more to earn |
//! | share of traps (percent) | 25 | 60 | traps hurt, chests do not |
//! | winding percent | `--winding-percent` | halfway from it to 100 | longer corridors |
//! | extra connector chance (1 in N) | `--extra-connector-chance` | twice it | fewer loops, fewer ways round |
//! | budget (allowance in percent of par) | 240 | 200 | less slack for the route |
//! | moves carried in from above, at most (percent of par) | 100 | 100 | slack does not snowball |
//! | points: chest, trap, perfect floor | 10, 15, 50 | × depth | deeper is worth more |
//!
//! A floor's move allowance is `par × budget / 100`, par being the solver's route (every
//! feature, then the exit) over the whole floor: a budget of 100 would fit the solver exactly,
//! and the rest is what a player who sees only what the avatar has seen needs to find the
//! features and the exit. The sight policy spends 1.6–1.9 × par on a floor at the median and
//! 2.1–2.5 × at p90 (`docs/balance.md`, which has the measurements and the choice). Before
//! 2026-11-24 the allowance was `open tiles × budget / 1000` with budgets 1000‰ → 650‰, which
//! left 2.2 × par at B1 and 1.4 × at B10: a player in the dark won about one run in five.
//! From 2026-11-27 at most [`CARRY_PERCENT`] of a floor's par is carried into it from the
//! floor above (the rest is paid as points), and a floor's features pay their moves when
//! they are handled, on the floor itself, instead of on the walk into the exit above
//! (`docs/runs.md`): a floor is reached with its direct distance, its perfect bonus after a
//! perfect floor and the moves carried, and the rest comes from its features. The budget
//! was 220 → 180 before that day, 250 → 210 with a cap of 20% for a few hours, and is
//! 240 → 200 with a cap of 100% since features pay on their floor (`docs/balance.md`).

use byog_worlds::generator::{GeneratorSettings, MIN_SIDE};

/// The allowance on B1, in percent of par (220 until 2026-11-27, then 250 while moves
/// were paid at the exit with a cap of 20, then 240 under rules version 3;
/// `docs/balance.md`).
pub const BUDGET_FIRST: u64 = 145;
/// The allowance on the last floor, in percent of par (180 until 2026-11-27, then 210,
/// then 200 under rules version 3).
pub const BUDGET_LAST: u64 = 140;
/// The most moves carried down into a floor, in percent of that floor's par: moves left
/// beyond it when the upkeeper walks into the exit above are paid as points, one a move
/// (`docs/runs.md`). Unlimited until 2026-11-27, when the slack snowballed to about 3 × par
/// from B4 on; then 20 while features paid at the exit; 100 under rules version 3; 130
/// since version 4, where a careful player's slack is what carries it through the deep
/// floors (`docs/balance.md`).
pub const CARRY_PERCENT: u64 = 130;
/// The points each move left over pays on winning, times the last floor's depth
/// ([`DepthParams::end_move_points`]): one a move until rules version 4, when a `greedy`
/// player's won runs scored about what a careful player's did (`docs/balance.md`).
pub const END_MOVE_POINTS: u64 = 2;
/// The points a feature pays a tile of its seclusion, times the depth
/// ([`DepthParams::seclusion_points`]; `docs/balance.md`).
pub const SECLUSION_POINTS: u64 = 3;

/// Default number of floors in a run (B1..B10).
pub const DEFAULT_FLOORS: u32 = 10;
/// Most floors a run may have (`--floors`).
pub const MAX_FLOORS: u32 = 99;

/// Everything a floor's depth decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DepthParams {
    /// The floor's depth, 1-based (B1 = 1).
    pub depth: u32,
    /// Width in tiles (odd).
    pub width: usize,
    /// Height in tiles (odd).
    pub height: usize,
    /// How many chests to place (empty, to refill).
    pub chests: u32,
    /// How many traps to place (sprung, to rearm).
    pub traps: u32,
    /// The generator's parameters for this floor.
    pub settings: GeneratorSettings,
    /// The move allowance in percent of the floor's par (the solver's route, every feature
    /// then the exit): the slack a player in the dark needs to find the features and the
    /// exit (`docs/balance.md` has the measurements behind the row).
    pub budget_percent: u64,
    /// Points for refilling a chest.
    pub chest_points: u64,
    /// Points for rearming a trap.
    pub trap_points: u64,
    /// Points for a perfect floor (every feature handled).
    pub perfect_points: u64,
    /// Points a feature pays for each tile of its seclusion (its distance from the floor's
    /// critical path), on top of its kind's points.
    pub seclusion_points: u64,
    /// Points each move left over pays when the run is won on this floor (the last).
    pub end_move_points: u64,
    /// The most moves carried into this floor from the one above, in percent of this
    /// floor's par: moves left beyond it when the upkeeper walks into the exit above are
    /// paid as points, one a move (as the moves left at the end of a run are), so the slack
    /// does not snowball down the run (`docs/balance.md`).
    pub carry_percent: u64,
}

/// `a + (b - a) × (depth - 1) / (floors - 1)`, exact in integers (`b` for one floor).
fn lerp(a: u64, b: u64, depth: u32, floors: u32) -> u64 {
    if floors <= 1 {
        return b;
    }
    let (k, n) = (u64::from(depth - 1), u64::from(floors - 1));
    if b >= a {
        a + (b - a) * k / n
    } else {
        a - (a - b) * k / n
    }
}

/// The largest odd side `<= side` (at least [`MIN_SIDE`]).
fn odd(side: u64) -> usize {
    let s = side.max(MIN_SIDE as u64) as usize;
    if s.is_multiple_of(2) { s - 1 } else { s }
}

/// The parameters of floor `depth` (1-based) of a run of `floors` floors whose largest floor
/// is `max_width × max_height` tiles, generated from the `base` settings (the flags).
pub fn params(
    depth: u32,
    floors: u32,
    max_width: usize,
    max_height: usize,
    base: &GeneratorSettings,
) -> DepthParams {
    let side = |max: usize, least: u64| {
        let max = max as u64;
        let first = (max * 3 / 5).max(least).min(max);
        odd(lerp(first, max, depth, floors)).min(max_odd(max))
    };
    let features = lerp(4, 13, depth, floors);
    let trap_share = lerp(25, 60, depth, floors);
    let traps = (features * trap_share + 50) / 100;
    let winding = u64::from(base.winding_percent);
    let winding = lerp(
        winding,
        winding + (100 - winding.min(100)) / 2,
        depth,
        floors,
    );
    let loops = u64::from(base.extra_connector_chance);
    let loops = lerp(loops, loops * 2, depth, floors);
    let d = u64::from(depth);
    DepthParams {
        depth,
        width: side(max_width, 21),
        height: side(max_height, 11),
        chests: (features - traps) as u32,
        traps: traps as u32,
        settings: GeneratorSettings {
            winding_percent: winding.min(100) as u32,
            extra_connector_chance: loops.min(1_000_000) as u32,
            ..*base
        },
        budget_percent: lerp(BUDGET_FIRST, BUDGET_LAST, depth, floors),
        chest_points: 10 * d,
        trap_points: 15 * d,
        perfect_points: 50 * d,
        seclusion_points: SECLUSION_POINTS * d,
        end_move_points: END_MOVE_POINTS * d,
        carry_percent: CARRY_PERCENT,
    }
}

/// The largest odd side that fits in `max` (at least [`MIN_SIDE`]).
fn max_odd(max: u64) -> usize {
    odd(max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_grows_with_depth_and_ends_at_the_flags() {
        let base = GeneratorSettings::default();
        let first = params(1, 10, 80, 30, &base);
        let last = params(10, 10, 80, 30, &base);
        assert_eq!((first.width, first.height), (47, 17));
        assert_eq!((last.width, last.height), (79, 29));
        assert_eq!(first.chests + first.traps, 4);
        assert_eq!(last.chests + last.traps, 13);
        assert_eq!((first.traps, last.traps), (1, 8));
        assert_eq!(first.settings.winding_percent, 30);
        assert_eq!(last.settings.winding_percent, 65);
        assert_eq!(last.settings.extra_connector_chance, 40);
        assert!(first.budget_percent > last.budget_percent);
        assert_eq!((first.budget_percent, last.budget_percent), (145, 140));
        assert_eq!((first.carry_percent, last.carry_percent), (130, 130));
        assert_eq!((first.seclusion_points, last.seclusion_points), (3, 30));
        assert_eq!((first.end_move_points, last.end_move_points), (2, 20));
        let mut previous = first;
        for depth in 2..=10 {
            let p = params(depth, 10, 80, 30, &base);
            assert!(p.width >= previous.width && p.height >= previous.height);
            assert!(p.chests + p.traps >= previous.chests + previous.traps);
            assert!(p.budget_percent <= previous.budget_percent);
            assert!(p.budget_percent >= 100, "the solver's route always fits");
            assert_eq!(p.width % 2, 1);
            previous = p;
        }
        // One floor is the last floor; tiny worlds stay valid sizes.
        assert_eq!(params(1, 1, 80, 30, &base).width, 79);
        let tiny = params(1, 10, 5, 5, &base);
        assert_eq!((tiny.width, tiny.height), (5, 5));
    }
}
