//! Policies (docs/balance.md): the win-rate targets of runs, the moves a run arrives on a
//! floor with, and the explorations' targets (fights with tactics, banking as a decision),
//! over few seeds here and over 1,000 held-out seeds in the ignored tests.

use byog_players::policy::{
    Ending, Played, Policy, RunSetup, play_exploration, play_run, play_run_with,
};

/// Wins of `policy` over `seeds`.
fn wins(policy: Policy, seeds: std::ops::Range<u64>) -> (u64, Vec<Played>) {
    let setup = RunSetup::default();
    let outcomes: Vec<Played> = seeds
        .map(|s| play_run(s, policy, &setup, &mut |_| {}).unwrap())
        .collect();
    let won = outcomes.iter().filter(|o| o.ending == Ending::Won).count() as u64;
    (won, outcomes)
}

/// Bounds on the wins of each run policy over a range of seeds, as fractions
/// `(numerator, denominator)` of the games.
struct Bounds {
    /// `sight` wins at least the first and at most the second.
    sight: ((u64, u64), (u64, u64)),
    /// `sight-miss` wins at least this.
    miss: (u64, u64),
    /// `hurry` wins at most this.
    hurry: (u64, u64),
    /// `greedy` wins at most this.
    greedy: (u64, u64),
    /// `selective` wins at least this more than `greedy` (in points of the games).
    selective_over_greedy: (u64, u64),
}

/// The targets over `seeds`: `solver` wins all, the others within `bounds`.
fn assert_targets(seeds: std::ops::Range<u64>, bounds: Bounds) {
    let n = seeds.end - seeds.start;
    let (solver, _) = wins(Policy::Solver, seeds.clone());
    assert_eq!(solver, n, "solver wins every run");
    let mut won_by = std::collections::BTreeMap::new();
    for (policy, (num, den), at_least) in [
        (Policy::Sight, bounds.sight.0, true),
        (Policy::Sight, bounds.sight.1, false),
        (Policy::SightMiss, bounds.miss, true),
        (Policy::Hurry, bounds.hurry, false),
        (Policy::Greedy, bounds.greedy, false),
        (Policy::Selective, (0, 1), true),
    ] {
        let (won, outcomes) = wins(policy, seeds.clone());
        won_by.insert(policy.name(), won);
        let ok = if at_least {
            won * den >= num * n
        } else {
            won * den <= num * n
        };
        let lost: Vec<(u64, &str, u32)> = outcomes
            .iter()
            .filter(|o| o.ending != Ending::Won)
            .map(|o| (o.seed, o.ending.name(), o.reached))
            .collect();
        assert!(
            ok,
            "{policy} won {won} of {n}, the bound is {} {num}/{den}; lost: {lost:?}",
            if at_least { "at least" } else { "at most" }
        );
    }
    let (num, den) = bounds.selective_over_greedy;
    let (selective, greedy) = (won_by["selective"], won_by["greedy"]);
    assert!(
        selective * den >= (greedy * den + num * n),
        "selective won {selective} of {n}, greedy {greedy}: the bound is {num}/{den} more"
    );
}

/// 48 held-out seeds (never used in tuning), in a debug build well under a minute. The
/// bounds are the targets (rules version 4: sight 65-80%, greedy ≤ 50%, selective 10
/// points above greedy; sight-miss ≥ 50%, hurry ≤ 10% from before) widened by about two standard
/// deviations of a 48-game sample at the rates measured over run seeds 1000..2000 (sight
/// 76%, sight-miss 71%, greedy 5%, selective 16%, hurry 6%): sight 1/2 to 11/12,
/// sight-miss ≥ 1/3, greedy ≤ 1/2, selective ≥ greedy, hurry ≤ 1/6. The games are
/// deterministic: the test fails only when a change moves these very runs.
#[test]
fn the_win_rate_targets_hold_on_a_few_held_out_seeds() {
    assert_targets(
        5000..5048,
        Bounds {
            sight: ((1, 2), (11, 12)),
            miss: (1, 3),
            hurry: (1, 6),
            greedy: (1, 2),
            selective_over_greedy: (0, 1),
        },
    );
}

/// The targets themselves over 1,000 held-out seeds (run seeds 1000..2000; docs/balance.md):
/// `cargo test --release -p byog-players --test players -- --ignored policies::` (a few minutes).
#[test]
#[ignore = "1,000 runs a policy: run in release, docs/balance.md"]
fn the_win_rate_targets_hold_over_1000_held_out_seeds() {
    assert_targets(
        1000..2000,
        Bounds {
            sight: ((65, 100), (80, 100)),
            miss: (50, 100),
            hurry: (10, 100),
            greedy: (50, 100),
            selective_over_greedy: (10, 100),
        },
    );
}

/// Explorations without monsters (`--no-monsters`: nothing takes health but armed traps,
/// which the policies step around): `cautious` banks once it stood at depth 5; `dive` never
/// banks and goes deeper, until the move cap. With monsters the numbers are measured, not
/// asserted (docs/monsters.md).
#[test]
fn cautious_banks_and_dive_goes_deeper() {
    use byog_players::policy::{EXPLORE_MOVE_CAP, play_exploration};
    let settings = byog_game::explore::ExploreSettings {
        monsters: false,
        ..Default::default()
    };
    for seed in 0..3 {
        let c = play_exploration(seed, Policy::Cautious, settings, &mut |_| {}).unwrap();
        assert_eq!(c.ending, Ending::Banked, "E{seed}S {c:?}");
        assert_eq!(
            c.reached,
            byog_players::policy::cautious::DEEPEST,
            "E{seed}S {c:?}"
        );
        assert_eq!(c.health, 3);
    }
    let d = play_exploration(1, Policy::Dive, settings, &mut |_| {}).unwrap();
    assert_eq!(d.ending, Ending::Capped, "{d:?}");
    assert_eq!(d.moves, EXPLORE_MOVE_CAP);
    assert!(d.reached > byog_players::policy::cautious::DEEPEST, "{d:?}");
    assert!(d.score > 0 && d.extra > 20, "{d:?}");
}

/// Per floor from B3 on, the median (nearest rank) of the moves `sight` arrives with, in
/// percent of the floor's par, over `seeds`.
fn sight_arrivals(seeds: std::ops::Range<u64>) -> Vec<(u32, u64)> {
    let setup = RunSetup::default();
    let mut ratios: Vec<Vec<u64>> = vec![Vec::new(); setup.floors as usize + 1];
    for seed in seeds {
        play_run_with(seed, Policy::Sight, &setup, &mut |_| {}, &mut |a| {
            ratios[a.floor as usize].push(a.moves_left * 100 / a.par);
        })
        .unwrap();
    }
    (3..=setup.floors)
        .filter_map(|floor| {
            let r = &mut ratios[floor as usize];
            r.sort_unstable();
            let median = *r.get(r.len().div_ceil(2).checked_sub(1)?)?;
            Some((floor, median))
        })
        .collect()
}

/// The moves carried down no longer snowball, and the middle floors have tension
/// (`docs/runs.md`: features pay their moves when handled, on their own floor, and at most a
/// floor's par is carried into it): from B3 on, `sight` arrives on each floor with 1.3–2.2 ×
/// par at the median, the target itself (1.5–1.65 × on these seeds). It arrived with
/// 2.9–3.3 × before the cap, 2.3–2.6 × with the cap alone (`docs/balance.md`).
#[test]
fn sight_arrives_without_a_snowball_on_a_few_held_out_seeds() {
    let medians = sight_arrivals(5000..5048);
    assert!(medians.len() >= 7, "{medians:?}");
    for &(floor, median) in &medians {
        assert!(
            (130..=220).contains(&median),
            "B{floor}: {median}% of par; {medians:?}"
        );
    }
}

/// The same over run seeds 1000..2000 (`docs/balance.md`'s after figures): the target,
/// 1.3 × to 2.2 × par.
#[test]
#[ignore = "1,000 runs: run in release, docs/balance.md"]
fn sight_arrives_without_a_snowball_over_1000_held_out_seeds() {
    let medians = sight_arrivals(1000..2000);
    assert_eq!(medians.len(), 8, "{medians:?}");
    for &(floor, median) in &medians {
        assert!(
            (130..=220).contains(&median),
            "B{floor}: {median}% of par; {medians:?}"
        );
    }
}

/// Explorations with monsters over `seeds` with `policy`.
fn explorations(policy: Policy, seeds: std::ops::Range<u64>) -> Vec<Played> {
    let settings = byog_game::explore::ExploreSettings::default();
    seeds
        .map(|s| play_exploration(s, policy, settings, &mut |_| {}).unwrap())
        .collect()
}

/// The banked score summed over the games (a lost or unfinished game banks 0): the mean
/// banked score times the games.
fn banked(games: &[Played]) -> u64 {
    games
        .iter()
        .filter(|o| o.ending == Ending::Banked)
        .map(|o| o.score)
        .sum()
}

/// The best banking rule of `docs/balance.md`'s sweep under rules version 10: home once it
/// carries 300 points.
const BEST_BANK: Policy = Policy::Bank(byog_players::policy::cautious::BankRule {
    points: Some(300),
    ..byog_players::policy::cautious::BankRule::NEVER
});

/// The explorations' targets (the third pass, `docs/balance.md`) over `seeds`, percents and
/// ratios in whole percent: `tactics` (dives, fights by the turn order, never banks on its
/// own) loses `lost` (a range, % of its games) before depth 8, and `dive` (blind) loses at
/// most `gap` points more; the best banking rule of the sweep banks at least `over_never` %
/// of what never banking (`tactics`) banks; `cautious` banks at least `over_two` % of
/// `bank-at-2`.
fn assert_exploration_targets(
    seeds: std::ops::Range<u64>,
    lost: std::ops::RangeInclusive<u64>,
    gap: u64,
    over_never: u64,
    over_two: u64,
) {
    let n = seeds.end - seeds.start;
    let lost_early = |games: &[Played]| {
        100 * games
            .iter()
            .filter(|o| o.ending == Ending::OutOfHealth && o.reached < 8)
            .count() as u64
            / n
    };
    let never = explorations(Policy::Tactics, seeds.clone());
    let (tactics, dive) = (
        lost_early(&never),
        lost_early(&explorations(Policy::Dive, seeds.clone())),
    );
    assert!(
        lost.contains(&tactics),
        "tactics lost {tactics}% before depth 8, the bound is {lost:?}%"
    );
    assert!(
        dive <= tactics + gap,
        "dive lost {dive}% before depth 8, tactics {tactics}%: the gap's bound is {gap} points"
    );
    let (never, best) = (
        banked(&never),
        banked(&explorations(BEST_BANK, seeds.clone())),
    );
    assert!(
        best * 100 >= never * over_never,
        "the best banking rule banked {best} in all, tactics {never}: the bound is {over_never}%"
    );
    let cautious = banked(&explorations(Policy::Cautious, seeds.clone()));
    let two = banked(&explorations(Policy::BankAt2, seeds));
    assert!(
        cautious * 100 >= two * over_two,
        "cautious banked {cautious} in all, bank-at-2 {two}: the bound is {over_two}%"
    );
}

/// Explorations 5000..5032 (never used in tuning). Bounds: the targets widened for a
/// 32-game sample (`docs/balance.md`), about two standard deviations: `tactics` loses 30-70%
/// before depth 8 (target 40-60%, 43.75% here), `dive` at most 25 points more (target 10,
/// 21.9 here); the best banking rule banks at least 1.5 × `tactics` (target 1.5 ×, 2.0 ×
/// here) and `cautious` at least 3 × `bank-at-2`.
#[test]
fn the_exploration_targets_hold_on_a_few_held_out_seeds() {
    assert_exploration_targets(5000..5032, 30..=70, 25, 150, 300);
}

/// The targets themselves over explorations 2000..3000 (`docs/balance.md`'s after figures;
/// 2000..2500 was measured once before rules version 10 was chosen, 2500..3000 was not looked
/// at in the trials).
#[test]
#[ignore = "5,000 explorations: run in release, docs/balance.md"]
fn the_exploration_targets_hold_over_1000_held_out_seeds() {
    assert_exploration_targets(2000..3000, 40..=60, 10, 150, 300);
}
