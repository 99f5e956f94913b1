//! Measuring many worlds at once: the metrics of the world each seed of a range starts,
//! summarised as min / median / p90 / max of every metric (the expressive range of the
//! generator; Smith & Whitehead, "Analyzing the expressive range of a level generator", 2010).
//!
//! Seeds are measured in parallel with `rayon` (on the pool the caller gives, or the global
//! one); results are collected in seed order and the summaries are computed from sorted
//! values, so a batch gives the same numbers whatever the number of threads. Presenting them
//! (tables, JSON, a progress bar) is the front-end's job.

use rayon::prelude::*;

use crate::generator::{self, GenerateError, GeneratorSettings, NoMemory, SeedMemory};
use crate::metrics::{Metrics, SUMMARY, measure};

/// One measured world.
#[derive(Debug, Clone)]
pub struct SeedStats {
    /// The seed.
    pub seed: u64,
    /// Worlds tried before one met the requirements (1 = the first).
    pub tries: u32,
    /// The world's metrics.
    pub metrics: Metrics,
}

/// Generates and measures the world `N<seed>S` starts, `width × height` tiles.
///
/// # Errors
/// [`GenerateError`] from generation (bad size or settings, requirements unmet).
pub fn measure_seed(
    seed: u64,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
) -> Result<SeedStats, GenerateError> {
    measure_seed_with(seed, width, height, settings, None)
}

/// [`measure_seed`] through a memory of tries such as the seed catalog, when one is given: the same world and numbers,
/// made from the remembered passing try.
///
/// # Errors
/// As [`measure_seed`].
pub fn measure_seed_with(
    seed: u64,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
    memory: Option<&dyn SeedMemory>,
) -> Result<SeedStats, GenerateError> {
    let g = match memory {
        Some(m) => {
            generator::generate_for_seed_with(seed, width, height, settings, &mut *m.tries(seed))?
        }
        None => generator::generate_for_seed_with(seed, width, height, settings, &mut NoMemory)?,
    };
    let d = &g.level;
    Ok(SeedStats {
        seed,
        tries: g.tries,
        metrics: measure(&d.world, d.avatar, d.exit),
    })
}

/// The name of the last summarised value, after [`SUMMARY`]: worlds tried.
pub const TRIES: &str = "tries";

/// The names of the summarised values, in output order: every [`SUMMARY`] entry, then
/// [`TRIES`].
pub fn names() -> impl Iterator<Item = &'static str> {
    SUMMARY.iter().map(|m| m.name).chain([TRIES])
}

/// The value of each of [`names`] for a world (`None`: not defined, e.g. the exit distance
/// when the exit is unreachable, or seclusion with no rooms).
pub fn values(s: &SeedStats) -> Vec<Option<f64>> {
    SUMMARY
        .iter()
        .map(|m| (m.value)(&s.metrics))
        .chain([Some(f64::from(s.tries))])
        .collect()
}

/// The summary of one value over a batch: nearest-rank percentiles of the defined values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// Smallest value.
    pub min: f64,
    /// 50th percentile (nearest rank).
    pub median: f64,
    /// 90th percentile (nearest rank).
    pub p90: f64,
    /// Largest value.
    pub max: f64,
}

/// Nearest-rank percentile `p` (0..=100) of sorted, non-empty `v`.
fn percentile(v: &[f64], p: u64) -> f64 {
    let rank = (p * v.len() as u64).div_ceil(100).max(1) as usize;
    v[rank - 1]
}

/// Nearest-rank min / median / p90 / max of `v` (`None` when empty).
pub fn summarise(mut v: Vec<f64>) -> Option<Summary> {
    v.sort_by(f64::total_cmp);
    (!v.is_empty()).then(|| Summary {
        min: v[0],
        median: percentile(&v, 50),
        p90: percentile(&v, 90),
        max: v[v.len() - 1],
    })
}

/// The expressive range of a batch of seeds.
#[derive(Debug, Clone)]
pub struct RangeStats {
    /// First seed.
    pub first: u64,
    /// Last seed (included).
    pub last: u64,
    /// Worlds measured.
    pub worlds: u64,
    /// Worlds that needed more than one try.
    pub retried: u64,
    /// Seeds whose requirements no try met.
    pub failed: u64,
    /// The first failure, if any.
    pub first_failure: Option<GenerateError>,
    /// Each failed seed and why, in seed order (the first [`MAX_FAILURES_KEPT`]).
    pub failures: Vec<(u64, GenerateError)>,
    /// Each of [`names`] and its summary (`None` when no world defined it).
    pub metrics: Vec<(&'static str, Option<Summary>)>,
}

/// How many failures [`RangeStats::failures`] (and a run batch's) keeps with their reasons.
pub const MAX_FAILURES_KEPT: usize = 10_000;

/// Measures every seed of `seeds` (`width × height` tiles, `settings`) on `pool`
/// (`None`: the current one) and summarises them; `on_seed` is called once a seed, from any
/// thread, as each is measured (a progress bar).
///
/// # Errors
/// [`GenerateError`] for a bad size or setting, before any seed is measured. Seeds whose
/// requirements are unmet are counted in [`RangeStats::failed`], not errors.
pub fn measure_range(
    seeds: std::ops::RangeInclusive<u64>,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
    pool: Option<&rayon::ThreadPool>,
    on_seed: &(dyn Fn() + Sync),
) -> Result<RangeStats, GenerateError> {
    measure_range_with(seeds, width, height, settings, pool, on_seed, None)
}

/// [`measure_range`] through a memory of tries such as the seed catalog, when one is given (shared by the threads): the
/// same numbers, each remembered seed made in one try.
///
/// # Errors
/// As [`measure_range`].
pub fn measure_range_with(
    seeds: std::ops::RangeInclusive<u64>,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
    pool: Option<&rayon::ThreadPool>,
    on_seed: &(dyn Fn() + Sync),
    memory: Option<&dyn SeedMemory>,
) -> Result<RangeStats, GenerateError> {
    let (first, last) = (*seeds.start(), *seeds.end());
    generator::check_size(width, height)?;
    settings.validate()?;
    let measure = || -> Vec<Result<Vec<Option<f64>>, GenerateError>> {
        // Only the summarised values are kept a seed, not the per-room metrics.
        (first..=last)
            .into_par_iter()
            .map(|seed| {
                let r = measure_seed_with(seed, width, height, settings, memory);
                on_seed();
                r.map(|s| values(&s))
            })
            .collect()
    };
    let results = match pool {
        Some(pool) => pool.install(measure),
        None => measure(),
    };

    let mut columns: Vec<Vec<f64>> = vec![Vec::new(); names().count()];
    let (mut worlds, mut retried, mut failed) = (0, 0, 0);
    let mut first_failure = None;
    let mut failures = Vec::new();
    for (seed, r) in (first..=last).zip(results) {
        match r {
            Ok(v) => {
                worlds += 1;
                retried += u64::from(v.last().copied().flatten().is_some_and(|tries| tries > 1.0));
                for (column, value) in columns.iter_mut().zip(v) {
                    column.extend(value);
                }
            }
            Err(e) => {
                failed += 1;
                if failures.len() < MAX_FAILURES_KEPT {
                    failures.push((seed, e.clone()));
                }
                first_failure.get_or_insert(e);
            }
        }
    }
    let metrics = names()
        .zip(columns)
        .map(|(name, v)| (name, summarise(v)))
        .collect();
    Ok(RangeStats {
        first,
        last,
        worlds,
        retried,
        failed,
        first_failure,
        failures,
        metrics,
    })
}
