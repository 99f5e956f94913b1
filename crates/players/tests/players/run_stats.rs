//! The measurements of `docs/runs.md`, `#[ignore]`d: how far the solver's par route is from
//! the best tour, and the budget's slack and the regenerations over 10,000 run seeds; rerun
//! them with `cargo test --release -p byog-players --test players -- --ignored --nocapture
//! run_stats::`. `byog stats --run` and `--runs` as a user runs them are the root's
//! `tests/run_stats.rs`.

use std::collections::VecDeque;

use byog_game::run::route::Router;
use byog_game::run::{FeatureKind, Floor, floor};
use byog_tile_engine::{Pos, Tile};
use byog_worlds::generator::GeneratorSettings;

/// Every floor of run `seed`, B1 first.
fn floors_of(seed: u64, floors: u32, width: usize, height: usize) -> Vec<Floor> {
    (1..=floors)
        .map(|depth| {
            floor::make(
                seed,
                depth,
                floors,
                width,
                height,
                &GeneratorSettings::default(),
            )
            .unwrap()
        })
        .collect()
}

/// One floor's distances, worked out here apart from the solver with the same rules: walk
/// over floor tiles that hold no trap, enter a trap (only as a target) or the exit door from a
/// neighbour. Points: 0 the start, then each feature.
struct Distances {
    /// `leg[a][b]`: moves from point `a` into point `b`.
    leg: Vec<Vec<u64>>,
    /// `exit[a]`: moves from point `a` into the exit.
    exit: Vec<u64>,
}

fn distances(f: &Floor) -> Distances {
    let (w, h) = (f.terrain.width() as i32, f.terrain.height() as i32);
    let idx = |p: Pos| (p.y * w + p.x) as usize;
    let inside = |p: Pos| p.x >= 0 && p.y >= 0 && p.x < w && p.y < h;
    let mut safe: Vec<bool> = f
        .terrain
        .tiles()
        .iter()
        .map(|&t| t == Tile::Floor)
        .collect();
    for x in f.features.iter().filter(|x| x.kind == FeatureKind::Trap) {
        safe[idx(x.pos)] = false;
    }
    let points: Vec<Pos> = std::iter::once(f.avatar)
        .chain(f.features.iter().map(|x| x.pos))
        .collect();
    let steps = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut leg = Vec::new();
    let mut exit = Vec::new();
    for &from in &points {
        let mut d = vec![u64::MAX; (w * h) as usize];
        d[idx(from)] = 0;
        let mut queue = VecDeque::from([from]);
        while let Some(p) = queue.pop_front() {
            for (dx, dy) in steps {
                let n = Pos::new(p.x + dx, p.y + dy);
                if inside(n) && safe[idx(n)] && d[idx(n)] == u64::MAX {
                    d[idx(n)] = d[idx(p)] + 1;
                    queue.push_back(n);
                }
            }
        }
        let into = |to: Pos| {
            if safe[idx(to)] && d[idx(to)] != u64::MAX {
                return d[idx(to)];
            }
            steps
                .iter()
                .map(|&(dx, dy)| Pos::new(to.x + dx, to.y + dy))
                .filter(|&n| inside(n) && d[idx(n)] != u64::MAX)
                .map(|n| d[idx(n)] + 1)
                .min()
                .unwrap_or(u64::MAX)
        };
        leg.push(points.iter().map(|&to| into(to)).collect());
        exit.push(into(f.exit));
    }
    Distances { leg, exit }
}

/// The best tour by trying every order (branch and bound over the orders).
fn brute_force(d: &Distances) -> u64 {
    fn go(d: &Distances, at: usize, left: &mut Vec<usize>, walked: u64, best: &mut u64) {
        if walked >= *best {
            return;
        }
        if left.is_empty() {
            *best = (*best).min(walked + d.exit[at]);
            return;
        }
        for k in 0..left.len() {
            let next = left.swap_remove(k);
            go(d, next, left, walked + d.leg[at][next], best);
            left.push(next);
            let last = left.len() - 1;
            left.swap(k, last);
        }
    }
    let mut left: Vec<usize> = (1..d.exit.len()).collect();
    let mut best = u64::MAX;
    go(d, 0, &mut left, 0, &mut best);
    best
}

/// The best tour by Held-Karp (`2ⁿ n²`), for every floor size.
fn held_karp(d: &Distances) -> u64 {
    let n = d.exit.len() - 1;
    if n == 0 {
        return d.exit[0];
    }
    let full = (1usize << n) - 1;
    // best[set × n + j]: from the start through every feature of `set`, ending at j (in set).
    let mut best = vec![u64::MAX; (full + 1) * n];
    for j in 0..n {
        best[(1 << j) * n + j] = d.leg[0][j + 1];
    }
    for set in 1..=full {
        for j in (0..n).filter(|&j| set & (1 << j) != 0) {
            let here = best[set * n + j];
            if here == u64::MAX {
                continue;
            }
            for k in (0..n).filter(|&k| set & (1 << k) == 0) {
                let next = (set | (1 << k)) * n + k;
                best[next] = best[next].min(here + d.leg[j + 1][k + 1]);
            }
        }
    }
    (0..n)
        .map(|j| best[full * n + j].saturating_add(d.exit[j + 1]))
        .min()
        .unwrap()
}

#[test]
#[ignore = "a measurement for docs/runs.md: cargo test --release --test main -- --ignored --nocapture run_stats::"]
fn solver_par_against_the_best_tour() {
    const FLOORS: u64 = 200;
    println!(
        "depth  features  floors  optimal  mean excess  mean excess %  max excess  max excess %"
    );
    for depth in 1..=10u32 {
        let (mut optimal, mut excess, mut relative, mut worst, mut worst_rel) =
            (0u64, 0u64, 0f64, 0u64, 0f64);
        let mut features = Vec::new();
        for seed in 0..FLOORS {
            let f = floor::make(seed, depth, 10, 80, 30, &GeneratorSettings::default()).unwrap();
            features.push(f.features.len());
            let d = distances(&f);
            // This oracle agrees with the solver: the solver's own order costs its par here.
            let plan = Router::new(&f.terrain, &f.features, f.avatar, f.exit, true).plan();
            let mut at = 0;
            let mut walked = 0;
            for &t in &plan.order {
                walked += d.leg[at][t + 1];
                at = t + 1;
            }
            assert_eq!(walked + d.exit[at], f.info.par, "seed {seed} B{depth}");
            let best = held_karp(&d);
            if f.features.len() <= 8 {
                assert_eq!(brute_force(&d), best, "seed {seed} B{depth}");
            }
            assert!(best <= f.info.par);
            let over = f.info.par - best;
            optimal += u64::from(over == 0);
            excess += over;
            relative += over as f64 * 100.0 / best as f64;
            worst = worst.max(over);
            worst_rel = worst_rel.max(over as f64 * 100.0 / best as f64);
        }
        features.sort_unstable();
        features.dedup();
        println!(
            "B{depth:<4}  {:>8}  {FLOORS:>6}  {optimal:>7}  {:>11.2}  {:>12.2}%  {worst:>10}  {worst_rel:>11.1}%",
            format!("{features:?}"),
            excess as f64 / FLOORS as f64,
            relative / FLOORS as f64,
        );
    }
}

#[test]
#[ignore = "a measurement for docs/runs.md: cargo test --release --test main -- --ignored --nocapture run_stats::"]
fn slack_and_regeneration_over_run_seeds() {
    const RUNS: u64 = 10_000;
    const BELOW: [f64; 4] = [105.0, 110.0, 125.0, 150.0];
    let mut below = [[0u64; BELOW.len()]; 10];
    let mut tries = [[0u64; 5]; 10];
    let mut runs_regenerated = 0;
    for seed in 0..RUNS {
        let mut regenerated = false;
        for (k, f) in floors_of(seed, 10, 80, 30).iter().enumerate() {
            let slack = f.info.allowance as f64 * 100.0 / f.info.par as f64;
            for (n, &limit) in below[k].iter_mut().zip(&BELOW) {
                *n += u64::from(slack < limit);
            }
            tries[k][(f.info.attempt as usize).min(4)] += 1;
            regenerated |= f.info.attempt > 0;
        }
        runs_regenerated += u64::from(regenerated);
    }
    println!("run seeds 0..{RUNS}: {runs_regenerated} runs had a floor regenerated");
    println!("depth  slack <105%  <110%  <125%  <150%   accepted on try 0 / 1 / 2 / 3 / 4+");
    for k in 0..10 {
        let share = |n: u64| format!("{:.1}%", n as f64 * 100.0 / RUNS as f64);
        println!(
            "B{:<4}  {:>11}  {:>5}  {:>5}  {:>5}   {:?}",
            k + 1,
            share(below[k][0]),
            share(below[k][1]),
            share(below[k][2]),
            share(below[k][3]),
            tries[k]
        );
    }
}
