//! Criterion benchmarks of the search module's searches that travel, the monsters and the
//! solver run many times a step (`docs/performance.md`). Run with
//! `cargo bench -p byog-tile-engine --bench search`; read each against `search/bfs/80x30`,
//! the plain BFS ([`search::bfs`]) over the same mask measured in the same run.
//!
//! The mask: an 80 × 30 map (a 25 × 25 square for the monsters' safety map), a quarter of
//! its tiles closed at random (a fixed linear congruential sequence), so searches wind
//! round obstacles as they do in a dungeon.
//!
//! - `search/bfs/80x30`: [`search::bfs`] from the first open tile (the reference).
//! - `search/nearest_where/80x30`: [`search::nearest_where`] from the same tile with a step
//!   rule (open, not costly unless allowed, a one-way column entered only rightwards) to the
//!   last open tile: travel's `X`, the whole map searched.
//! - `search/layered/80x30_3`: [`search::Layered::search`] over 3 layers (a heart kept of 3)
//!   with one open tile in 12 costly, then the steps into the last open tile a layer and the
//!   walk back: travel's `>` in a run.
//! - `search/relax/25x25`: the monsters' safety map, [`search::relax`] of a distance map times
//!   -1.2 (in tenths of a step) over the hunt square.

use std::hint::black_box;

use byog_tile_engine::Direction;
use byog_tile_engine::search::{self, Grid, Layered, UNREACHED};
use criterion::{Criterion, criterion_group, criterion_main};

/// A `w × h` map's padded grid, its open mask (three tiles in four) and its costly cells
/// (one open tile in twelve).
fn mask(w: usize, h: usize) -> (Grid, Vec<bool>, Vec<bool>) {
    let grid = Grid::around(w, h);
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    let (mut open, mut costly) = (vec![false; grid.len()], vec![false; grid.len()]);
    for y in 0..h {
        for x in 0..w {
            let i = (y + 1) * grid.width + x + 1;
            open[i] = next(4) != 0;
            costly[i] = open[i] && next(12) == 0;
        }
    }
    (grid, open, costly)
}

fn searches(c: &mut Criterion) {
    let (grid, open, costly) = mask(80, 30);
    let source = (0..grid.len()).find(|&i| open[i] && !costly[i]).unwrap();
    let target = (0..grid.len()).rev().find(|&i| open[i]).unwrap();
    let mut g = c.benchmark_group("search");
    g.bench_function("bfs/80x30", |b| {
        let mut dist = vec![UNREACHED; grid.len()];
        b.iter(|| {
            dist.fill(UNREACHED);
            search::bfs(grid, &open, &[source], &mut dist);
            black_box(dist[target])
        })
    });
    // A one-way column: entered only moving right.
    let one_way = grid.width / 2;
    let rule = |_: usize, d: Direction, n: usize| {
        open[n] && !costly[n] && (n % grid.width != one_way || d == Direction::Right)
    };
    g.bench_function("nearest_where/80x30", |b| {
        let mut dist = vec![UNREACHED; grid.len()];
        b.iter(|| {
            dist.fill(UNREACHED);
            black_box(search::nearest_where(
                grid,
                source,
                rule,
                |c| c == target,
                &mut dist,
            ))
        })
    });
    g.bench_function("layered/80x30_3", |b| {
        b.iter(|| {
            let (ways, _) = Layered::search(
                grid,
                source,
                3,
                |_, _, m| open[m],
                |m| costly[m],
                |_, _| false,
                |_, _| (),
            );
            let best = (0..3)
                .filter(|&l| ways.steps_into(l, target) != UNREACHED)
                .min_by_key(|&l| ways.steps_into(l, target));
            black_box(
                best.and_then(|l| ways.path_into_where(target, l, |m| costly[m], |_, _| true)),
            )
        })
    });
    let (square, square_open, _) = mask(25, 25);
    let centre = square.width * 13 + 13;
    let mut dist = vec![UNREACHED; square.len()];
    search::bfs(square, &square_open, &[centre], &mut dist);
    let scaled: Vec<i32> = dist
        .iter()
        .map(|&d| {
            if d == UNREACHED {
                i32::MAX
            } else {
                d as i32 * -12
            }
        })
        .collect();
    g.bench_function("relax/25x25", |b| {
        let mut values = scaled.clone();
        b.iter(|| {
            values.copy_from_slice(&scaled);
            search::relax(square, &square_open, &mut values, 10);
            black_box(values[centre])
        })
    });
    g.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
