//! Travel's own tests: windows plan as the whole map does, a kept window walks as a fresh one.

use super::known::Known;
use super::plan::plan_avoiding;
use super::*;
use crate::game::GameState;
use byog_worlds::generator::GeneratorSettings;

/// [`plan`] over the whole map at once (one window holding it all: exact by definition).
fn plan_whole(game: &GameState, goal: Goal) -> Result<Route, Stop> {
    let mut kept = Some(Known::around(game, i32::MAX / 4));
    plan_avoiding(game, goal, &[], &mut kept)
}

/// Games part-way through: runs and explorations after some `X` keys, a classic game.
fn games() -> Vec<GameState> {
    let mut out = Vec::new();
    for seed in 0..12u64 {
        let mut run = GameState::new_run(seed, 80, 30, GeneratorSettings::default(), 3).unwrap();
        let mut explore = GameState::new_exploration(
            seed,
            GeneratorSettings::default(),
            crate::explore::ExploreSettings::default(),
        )
        .unwrap();
        for _ in 0..8 {
            walk(&mut run, Goal::Explore);
            walk(&mut explore, Goal::Explore);
            out.push(run.clone());
            out.push(explore.clone());
        }
        out.push(GameState::new(seed, 80, 30, GeneratorSettings::default()).unwrap());
    }
    // A large floor, where windows are a small part of it.
    for seed in 0..2u64 {
        let mut big = GameState::new_run(seed, 301, 201, GeneratorSettings::default(), 1).unwrap();
        for _ in 0..12 {
            walk(&mut big, Goal::Explore);
            out.push(big.clone());
        }
    }
    out
}

/// A plan searched in windows is the plan over the whole map: the same steps, ties and
/// all (the windows grow until nothing outside them could be nearer).
#[test]
fn windows_plan_as_the_whole_map_does() {
    let mut compared = 0;
    for game in games() {
        for goal in [Goal::Explore, Goal::Exit] {
            assert_eq!(
                plan(&game, goal),
                plan_whole(&game, goal),
                "{}",
                game.history()
            );
            compared += 1;
        }
    }
    assert!(compared > 300);
}

/// A walk that keeps its window between steps takes the steps of one that makes a new
/// window for every plan.
#[test]
fn a_kept_window_walks_as_a_fresh_one() {
    for game in games() {
        for goal in [Goal::Explore, Goal::Exit] {
            let (mut kept, mut fresh) = (game.clone(), game.clone());
            let (mut a, mut b) = (Travel::new(&kept, goal), Travel::new(&fresh, goal));
            loop {
                b.map = None;
                let (x, y) = (a.next(&kept), b.next(&fresh));
                assert_eq!(x, y, "{}", game.history());
                let Ok(action) = x else { break };
                let (ex, ey) = (kept.apply(action), fresh.apply(action));
                b.map = None;
                b.exit_bound = None;
                let (sx, sy) = (a.observe(&kept, &ex), b.observe(&fresh, &ey));
                assert_eq!(sx, sy);
                if sx.is_some() {
                    break;
                }
            }
            assert_eq!(kept, fresh);
        }
    }
}

/// Walks that keep the window between keys ([`walk_on`], the interpreter's) take the steps
/// of walks that each read a fresh one ([`walk`]), with plain keys between some of them (the
/// kept window is then dropped) and goals mixed.
#[test]
fn a_window_kept_between_keys_walks_as_fresh_walks() {
    use crate::action::Action;
    use byog_tile_engine::Direction;
    let mut kept_walks = 0;
    for game in games() {
        let (mut kept, mut fresh) = (game.clone(), game.clone());
        let mut window = Kept::default();
        for k in 0..24 {
            if k % 7 == 6 {
                // Plain keys between walks: the game moves on (seeing more, perhaps entering
                // a room) without the walk's knowledge.
                for i in 0..6 {
                    let d = Direction::ALL[(k / 7 + i / 3) % 4];
                    kept.apply(Action::Move(d));
                    fresh.apply(Action::Move(d));
                }
                continue;
            }
            let goal = if k % 5 == 4 {
                Goal::Exit
            } else {
                Goal::Explore
            };
            let (x, y) = (
                walk_on(&mut kept, goal, &mut window),
                walk(&mut fresh, goal),
            );
            assert_eq!(x, y, "key {k} of {}", game.history());
            assert_eq!(kept, fresh, "key {k} of {}", game.history());
            kept_walks += usize::from(window.map.is_some() && x.steps > 0);
        }
    }
    // The window really was kept (and so reused by the next key) most of the time.
    assert!(kept_walks > 500, "{kept_walks}");
}

/// The ways into a tile stop searching once the way round every trap is found
/// ([`Known::layered`]); what they choose is what the whole layered search gives: the same
/// best way for every number of traps allowed, and the same cells along it. Targets: the
/// exit, and seen tiles at every distance.
#[test]
fn the_ways_into_a_tile_are_the_whole_searchs() {
    use byog_tile_engine::search::UNREACHED;
    let (mut compared, mut through) = (0, 0);
    for game in games() {
        let known = Known::around(&game, i32::MAX / 4);
        let Some(source) = known.cell(game.avatar()) else {
            continue;
        };
        let layers = game.health().unwrap_or(1).max(1) as usize + 1;
        let (whole, _, _) = known.layered_search(source, layers, |_, _| false);
        let mut targets: Vec<usize> = (0..known.grid.len())
            .filter(|&c| known.open[c] || known.pos(c) == game.exit())
            .step_by(17)
            .collect();
        targets.extend(known.cell(game.exit()));
        for t in targets {
            let ways = known.layered(source, t, layers);
            let into: Vec<u32> = (0..layers).map(|l| whole.steps_into(l, t)).collect();
            for k in 0..layers {
                // The whole search's best way with at most k traps: (steps, layer), fewest
                // traps among the shortest.
                let best = (0..=k)
                    .filter(|&l| into[l] != UNREACHED)
                    .min_by_key(|&l| (into[l], l))
                    .map(|l| (into[l], l));
                assert_eq!(ways.best(k), best, "{} into {t}", game.history());
                if let Some((_, layer)) = best {
                    let cells = whole.path_into_where(
                        t,
                        layer,
                        |c| known.armed[c],
                        |c, d| known.may_enter(c, d.opposite()),
                    );
                    assert_eq!(ways.path(&known, t, layer), cells);
                    through += usize::from(layer > 0);
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
    // Ways through traps, shorter than the way round, were among them.
    assert!(through > 0, "{through}");
}

/// `X` in a run searches what it keeps in reach only when a step could bring it to the limit
/// ([`Travel`]'s bound on the exit's way): keys of `X` walk exactly as walks that search at
/// every step, down to the limit's stop, on runs played by `X` and `>` to their end.
#[test]
fn x_stops_at_the_limit_as_a_search_at_every_step_does() {
    let (mut skipped, mut limits) = (0, 0);
    for seed in 0..30u64 {
        let mut run = GameState::new_run(seed, 80, 30, GeneratorSettings::default(), 3).unwrap();
        for key in 0..400 {
            if run.has_ended() {
                break;
            }
            let goal = if key % 9 == 8 {
                Goal::Exit
            } else {
                Goal::Explore
            };
            let (mut a, mut b) = (run.clone(), run.clone());
            let (mut ta, mut tb) = (Travel::new(&a, goal), Travel::new(&b, goal));
            loop {
                let (x, y) = (ta.next(&a), tb.next(&b));
                assert_eq!(x, y, "R{seed}S key {key}: {}", run.history());
                let Ok(action) = x else { break };
                let (ea, eb) = (a.apply(action), b.apply(action));
                tb.exit_bound = None;
                let before = ta.exit_bound;
                let (sa, sb) = (ta.observe(&a, &ea), tb.observe(&b, &eb));
                skipped += usize::from(before.is_some() && ta.exit_bound == before.map(|n| n + 1));
                assert_eq!(sa, sb, "R{seed}S key {key}: {}", run.history());
                if let Some(stop) = sa {
                    limits += usize::from(matches!(stop, Stop::ExitAtTheLimit { .. }));
                    break;
                }
            }
            assert_eq!(a, b);
            run = a;
        }
    }
    // The bound saved searches, and walks still stopped at the exit's limit.
    assert!(
        skipped > 1000 && limits > 10,
        "{skipped} skipped, {limits} at the limit"
    );
}

/// Exploration 3 without monsters of its own, the avatar in the middle of the first room
/// above the start room (7 steps to its edge, 6 more to its centre): a scene to add monsters
/// to.
fn in_the_first_room() -> GameState {
    let quiet = crate::explore::ExploreSettings {
        monsters: false,
        ..crate::explore::ExploreSettings::default()
    };
    let mut game = GameState::new_exploration(3, GeneratorSettings::default(), quiet).unwrap();
    for _ in 0..13 {
        game.apply(crate::action::Action::Move(crate::Direction::Up));
    }
    game
}

#[test]
fn a_monster_seen_once_in_a_walk_is_not_new_when_it_comes_back_into_sight() {
    use crate::explore::MonsterKind;
    let mut game = in_the_first_room();
    let e = game.explore_mut().unwrap();
    let a = e.avatar();
    let near = Pos::new(a.x + 2, a.y);
    e.add_monsters(&[(near, MonsterKind::Bat)]).unwrap();
    assert!(e.sight().contains(near));
    let mut walk = sighting(&game);
    let away = Pos::new(a.x + 60, a.y + 60);
    let set = |game: &mut GameState, at: Pos| {
        game.explore_mut().unwrap().encounters_mut().monsters[0].pos = at;
    };
    set(&mut game, away);
    assert!(!game.explore().unwrap().sight().contains(away));
    assert_eq!(walk.update(&game), None, "out of sight: nothing new");
    // What the step before saw (the bat out of sight): it would call the bat new.
    let step_before = sighting(&game);
    set(&mut game, near);
    assert_eq!(step_before.clone().update(&game), Some(Thing::Monster));
    assert_eq!(walk.update(&game), None, "seen earlier in the walk");
    // Another monster is new all the same.
    let other = Pos::new(a.x - 2, a.y);
    game.explore_mut()
        .unwrap()
        .add_monsters(&[(other, MonsterKind::Rat)])
        .unwrap();
    assert_eq!(walk.update(&game), Some(Thing::Monster));
}

#[test]
fn what_a_walk_into_the_way_up_banks_is_what_the_rules_bank() {
    use crate::action::Action;
    use crate::explore::ExploreSettings;
    // Quiet explorations (no fight stops a walk), part-way through: the walk planned into the
    // way up, taken step by step by the rules, banks what banked_at_the_end said.
    let quiet = ExploreSettings {
        monsters: false,
        ..ExploreSettings::default()
    };
    let (mut checked, mut faded) = (0, 0);
    for seed in 0..10u64 {
        let mut game =
            GameState::new_exploration(seed, GeneratorSettings::default(), quiet).unwrap();
        for _ in 0..30 {
            walk(&mut game, Goal::Explore);
            let Ok(route) = plan(&game, Goal::Exit) else {
                continue;
            };
            let Some(banked) = banked_at_the_end(&game, &route) else {
                continue;
            };
            let mut taken = game.clone();
            for &d in &route.steps {
                taken.apply(Action::Move(d));
            }
            assert!(taken.has_ended(), "seed {seed}: the walk banks");
            assert_eq!(taken.score(), Some(banked), "seed {seed}");
            checked += 1;
            faded += u32::from(banked < game.score().unwrap());
        }
    }
    // The clock mattered on some of the walks, and not on others.
    assert!(
        checked > 50 && faded > 10 && faded < checked,
        "{checked} {faded}"
    );
}

#[test]
fn a_walk_never_strikes_a_monster_that_steps_onto_its_way() {
    use crate::explore::MonsterKind;
    // A walk 4 tiles right in the first room.
    let mut game = in_the_first_room();
    let a = game.avatar();
    let goal = Goal::tile(&game, Pos::new(a.x + 4, a.y));
    let route = plan(&game, goal).unwrap();
    assert_eq!(route.steps.len(), 4);
    let mut travel = Travel::new(&game, goal);
    let step = travel.next(&game).unwrap();
    assert_eq!(step, crate::action::Action::Move(route.steps[0]));
    let events = game.apply(step);
    assert_eq!(travel.observe(&game, &events), None);
    // A rat steps onto the next tile of the way.
    let o = game.origin();
    let next = route.tiles[1];
    game.explore_mut()
        .unwrap()
        .add_monsters(&[(Pos::new(next.x + o.x, next.y + o.y), MonsterKind::Rat)])
        .unwrap();
    assert_eq!(
        travel.next(&game),
        Err(Stop::MonsterInTheWay(MonsterKind::Rat))
    );
}

#[test]
fn a_walk_does_not_start_with_a_hunting_monster_beside_the_avatar() {
    use crate::explore::MonsterKind;
    let mut game = in_the_first_room();
    let goal = Goal::Explore;
    assert!(Travel::new(&game, goal).next(&game).is_ok());
    let a = game.explore().unwrap().avatar();
    game.explore_mut()
        .unwrap()
        .add_monsters(&[(Pos::new(a.x + 1, a.y), MonsterKind::Goblin)])
        .unwrap();
    assert_eq!(
        Travel::new(&game, goal).next(&game),
        Err(Stop::MonsterBeside(MonsterKind::Goblin))
    );
}
