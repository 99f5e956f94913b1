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
