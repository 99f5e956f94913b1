//! Criterion benchmarks of play (`docs/performance.md`): what a step of travel costs as the
//! world grows. Run with `cargo bench --bench play`. (What monsters add to a replayed
//! exploration is `explore/replay_1M_keys_monsters` in `benches/byog.rs`.)
//!
//! - `travel/x_step/80x30` and `travel/x_step/4096x4096`: the first 400 steps of `X` keys on
//!   a one-floor run's floor of that size (the floor is the whole size), a step at a time
//!   (criterion's throughput is in steps). Target: at most 1 ms a step at 4096 × 4096, and
//!   within 2 × of 80 × 30's step (a step costs what lies between the avatar and its goal,
//!   not the world).
//! - `travel/x_steps_as_keys/…`: the same steps fed as plain keys, the rules alone (what a
//!   step costs before travel plans it).
//! - `travel/exit_walk/80x30` and `travel/exit_walk/4096x4096`: `>` on the same floors once
//!   the `X` keys saw the exit, or else the walk to the farthest tile seen: one plan and its
//!   walk, a step at a time.

use std::time::Duration;

use byog_game::game::GameState;
use byog_game::travel::{self, Goal, Stop};
use byog_worlds::generator::GeneratorSettings;
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};

/// Steps of `X` a `travel/x_step` iteration walks.
const X_STEPS: u32 = 400;

/// Walks `X` keys on `game` until `X_STEPS` steps were taken or `X` takes none: the steps.
fn explore_steps(game: &mut GameState) -> u32 {
    let mut steps = 0;
    while steps < X_STEPS && !game.has_ended() {
        let walk = travel::walk(game, Goal::Explore);
        steps += walk.steps;
        if walk.steps == 0 {
            break;
        }
    }
    steps
}

fn travel_cost(c: &mut Criterion) {
    let mut g = c.benchmark_group("travel");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for (w, h, name) in [(80, 30, "80x30"), (4096, 4096, "4096x4096")] {
        // A one-floor run: its floor is the whole size.
        let start = GameState::new_run(1, w, h, GeneratorSettings::default(), 1).unwrap();
        let mut probe = start.clone();
        let steps = explore_steps(&mut probe);
        assert!(steps >= X_STEPS / 2, "{name}: X walked {steps} steps");
        g.throughput(Throughput::Elements(u64::from(steps)));
        g.bench_function(format!("x_step/{name}"), |b| {
            b.iter_batched(
                || start.clone(),
                |mut game| {
                    let steps = explore_steps(&mut game);
                    (game, steps)
                },
                BatchSize::PerIteration,
            )
        });
        // The same steps as plain keys, by the rules alone: what a step costs before travel
        // plans it.
        let actions: Vec<byog_game::Action> = probe.actions().to_vec();
        g.bench_function(format!("x_steps_as_keys/{name}"), |b| {
            b.iter_batched(
                || start.clone(),
                |mut game| {
                    for &a in &actions {
                        game.apply(a);
                    }
                    game
                },
                BatchSize::PerIteration,
            )
        });
        // `>` from where the X keys left the avatar (the exit, or else a click on the seen
        // tile farthest from it: a long walk over what was seen).
        let goal = if travel::plan(&probe, Goal::Exit).is_ok() {
            Goal::Exit
        } else {
            let dist = byog_tile_engine::search::distances(&probe, &[probe.avatar()]);
            let far = probe
                .rect()
                .positions()
                .filter(|&p| probe.has_seen(p) && dist.get(p).is_some())
                .max_by_key(|&p| (dist.get(p), p.y, p.x))
                .unwrap();
            Goal::tile(&probe, far)
        };
        let mut walked = probe.clone();
        let walk = travel::walk(&mut walked, goal);
        assert!(walk.steps > 10, "{name}: {walk:?}");
        assert_ne!(walk.stop, Stop::Blocked);
        g.throughput(Throughput::Elements(u64::from(walk.steps)));
        g.bench_function(format!("exit_walk/{name}"), |b| {
            b.iter_batched(
                || probe.clone(),
                |mut game| {
                    let walk = travel::walk(&mut game, goal);
                    (game, walk)
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, travel_cost);
criterion_main!(benches);
