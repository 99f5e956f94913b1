//! A run's measures (`docs/runs.md`): one row a floor of a run ([`measure_run`]: size,
//! features, par, budget, slack, the try accepted, openness and the chests' seclusion), and a
//! summary of every floor depth over a range of run seeds ([`measure_runs`]: min / median /
//! p90 / max of par, budget, direct distance, slack, chests and traps, and how many floors
//! were regenerated). Floors are made with [`floor::make`], exactly as a run makes them;
//! presenting the numbers is the front-end's job.

use rayon::prelude::*;

use crate::run::{self, FeatureKind, Floor, floor};
use byog_worlds::generator::{GenerateError, GeneratorSettings};
use byog_worlds::metrics::{NO_ROOM, measure, room_ids};
use byog_worlds::survey::{MAX_FAILURES_KEPT, Summary, summarise};

/// One floor of a run, measured.
#[derive(Debug, Clone, PartialEq)]
pub struct FloorStats {
    /// The floor's depth, 1-based (B1 = 1).
    pub depth: u32,
    /// Width in tiles (the depth table's).
    pub width: usize,
    /// Height in tiles (the depth table's).
    pub height: usize,
    /// Chests placed (empty, to refill).
    pub chests: u32,
    /// Traps placed (sprung, to rearm).
    pub traps: u32,
    /// The solver's route, every feature then the exit, in moves ([`run::FloorInfo::par`]).
    pub par: u64,
    /// The move allowance, the floor's budget ([`run::FloorInfo::allowance`]).
    pub allowance: u64,
    /// The direct distance from the start into the exit without stepping on a trap
    /// ([`run::FloorInfo::direct`]).
    pub direct: u64,
    /// The try accepted, 0 for the first ([`run::FloorInfo::attempt`]).
    pub attempt: u32,
    /// Open (walkable) tiles.
    pub open_tiles: u32,
    /// Open tiles / all tiles, in percent.
    pub openness_percent: f64,
    /// The mean over the chests of the seclusion of the room each stands in, in tiles; `None`
    /// when no chest stands in a room that reaches the critical path.
    pub seclusion_mean: Option<f64>,
    /// The largest of those seclusions, in tiles.
    pub seclusion_max: Option<u32>,
}

impl FloorStats {
    /// The budget's slack: allowance / par, in percent.
    pub fn slack_percent(&self) -> f64 {
        slack_percent(self.allowance, self.par)
    }
}

/// Allowance / par in percent (par is at least one move: the step into the exit).
pub fn slack_percent(allowance: u64, par: u64) -> f64 {
    allowance as f64 * 100.0 / par.max(1) as f64
}

/// Measures one made floor: its info, its openness and its chests' seclusion (each chest's
/// room, from [`room_ids`], and that room's seclusion from [`measure`] on
/// the floor's terrain with its avatar and exit; a chest outside every room has none).
pub fn measure_floor(floor: &Floor) -> FloorStats {
    let terrain = &floor.terrain;
    let m = measure(terrain, floor.avatar, floor.exit);
    let ids = room_ids(terrain);
    let seclusions: Vec<u32> = floor
        .features
        .iter()
        .filter(|f| f.kind == FeatureKind::Chest && terrain.contains(f.pos))
        .filter_map(|f| match ids[terrain.index(f.pos)] {
            NO_ROOM => None,
            r => m.rooms.get(r as usize).and_then(|room| room.seclusion),
        })
        .collect();
    let count = |kind| floor.features.iter().filter(|f| f.kind == kind).count() as u32;
    FloorStats {
        depth: floor.params.depth,
        width: terrain.width(),
        height: terrain.height(),
        chests: count(FeatureKind::Chest),
        traps: count(FeatureKind::Trap),
        par: floor.info.par,
        allowance: floor.info.allowance,
        direct: floor.info.direct,
        attempt: floor.info.attempt,
        open_tiles: m.open_tiles,
        openness_percent: m.openness_percent,
        seclusion_mean: (!seclusions.is_empty()).then(|| {
            seclusions.iter().map(|&s| f64::from(s)).sum::<f64>() / seclusions.len() as f64
        }),
        seclusion_max: seclusions.iter().copied().max(),
    }
}

/// A run that cannot be made: its seed, the first floor that failed and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunFailure {
    /// The run's seed.
    pub seed: u64,
    /// The floor that failed, 1-based.
    pub depth: u32,
    /// Why.
    pub error: GenerateError,
}

impl std::fmt::Display for RunFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.error {
            // Names the run and the floor already.
            e @ GenerateError::NoFloorFits { .. } => write!(f, "{e}"),
            e => write!(f, "run seed {}: floor B{}: {e}", self.seed, self.depth),
        }
    }
}

impl std::error::Error for RunFailure {}

/// Makes and measures every floor of run `seed` (`floors` floors of at most
/// `width × height` tiles, with `settings`), B1 first, with [`floor::make`].
///
/// # Errors
/// The first floor that cannot be made, and why.
pub fn measure_run(
    seed: u64,
    floors: u32,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
) -> Result<Vec<FloorStats>, RunFailure> {
    (1..=floors)
        .map(|depth| {
            floor::make(seed, depth, floors, width, height, settings)
                .map(|f| measure_floor(&f))
                .map_err(|error| RunFailure { seed, depth, error })
        })
        .collect()
}

/// The values a run batch summarises for every depth, in order: par, allowance, direct,
/// slack in percent, chests, traps ([`FloorStats`]' names).
pub const RUN_SUMMARY: [&str; 6] = [
    "par",
    "allowance",
    "direct",
    "slack_percent",
    "chests",
    "traps",
];

/// One made floor as a range keeps it: [`RUN_SUMMARY`]'s values and the try accepted.
#[derive(Debug, Clone, Copy)]
struct FloorRecord {
    values: [f64; RUN_SUMMARY.len()],
    attempt: u32,
}

fn record(floor: &Floor) -> FloorRecord {
    let info = floor.info;
    let count = |kind| floor.features.iter().filter(|f| f.kind == kind).count() as f64;
    FloorRecord {
        values: [
            info.par as f64,
            info.allowance as f64,
            info.direct as f64,
            slack_percent(info.allowance, info.par),
            count(FeatureKind::Chest),
            count(FeatureKind::Trap),
        ],
        attempt: info.attempt,
    }
}

/// One depth over a range of run seeds.
#[derive(Debug, Clone)]
pub struct DepthStats {
    /// The depth, 1-based (B1 = 1).
    pub depth: u32,
    /// Its width in tiles (the depth table's, the same for every seed).
    pub width: usize,
    /// Its height in tiles.
    pub height: usize,
    /// Floors made at this depth.
    pub made: u64,
    /// Floors that could not be made (no try fitted, or requirements unmet).
    pub failed: u64,
    /// Floors made on a later try than the first: regenerated at least once.
    pub regenerated: u64,
    /// Tries rejected in all: the sum of the accepted tries' numbers.
    pub regenerations: u64,
    /// The largest try accepted (0 = the first); `None` when no floor was made.
    pub max_attempt: Option<u32>,
    /// Each of [`RUN_SUMMARY`]'s values and its summary (`None` when no floor was made).
    pub metrics: Vec<(&'static str, Option<Summary>)>,
}

/// Every depth of a range of run seeds.
#[derive(Debug, Clone)]
pub struct RunRangeStats {
    /// First run seed.
    pub first: u64,
    /// Last run seed (included).
    pub last: u64,
    /// Floors a run has (`--floors`).
    pub floors: u32,
    /// The largest floor's width (`--width`).
    pub width: usize,
    /// The largest floor's height (`--height`).
    pub height: usize,
    /// Runs whose every floor was made.
    pub runs: u64,
    /// Runs with a floor that could not be made.
    pub failed: u64,
    /// The first failure, if any.
    pub first_failure: Option<RunFailure>,
    /// Each failed run and why (its first failing floor), in seed order (the first
    /// [`MAX_FAILURES_KEPT`]).
    pub failures: Vec<(u64, RunFailure)>,
    /// One entry a depth, B1 first.
    pub depths: Vec<DepthStats>,
}

impl RunRangeStats {
    /// Floors made, over every depth.
    pub fn floors_made(&self) -> u64 {
        self.depths.iter().map(|d| d.made).sum()
    }

    /// Floors regenerated at least once, over every depth.
    pub fn regenerated(&self) -> u64 {
        self.depths.iter().map(|d| d.regenerated).sum()
    }

    /// Tries rejected, over every depth.
    pub fn regenerations(&self) -> u64 {
        self.depths.iter().map(|d| d.regenerations).sum()
    }

    /// The largest try accepted over every depth.
    pub fn max_attempt(&self) -> Option<u32> {
        self.depths.iter().filter_map(|d| d.max_attempt).max()
    }
}

/// Run seeds made in parallel before they are added to the summaries (bounds the memory).
const RUN_CHUNK: u64 = 4096;

/// Makes every floor of every run of `seeds` (`floors` floors of at most `width ×
/// height` tiles, `settings`) on `pool` (`None`: the current one) and summarises each depth;
/// `on_run` is called once a run, from any thread, as each is made (a progress bar). Floors
/// are made from (run seed, depth) alone, so every floor that can be made is counted, a
/// failed run's other floors too.
///
/// # Errors
/// [`GenerateError`] for a bad size, setting or floor count, before any run is made. Runs
/// that cannot be made are counted in [`RunRangeStats::failed`], not errors.
pub fn measure_runs(
    seeds: std::ops::RangeInclusive<u64>,
    floors: u32,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
    pool: Option<&rayon::ThreadPool>,
    on_run: &(dyn Fn() + Sync),
) -> Result<RunRangeStats, GenerateError> {
    let (first, last) = (*seeds.start(), *seeds.end());
    run::check_run(width, height, settings, floors)?;
    let depths = floors as usize;
    let mut columns: Vec<Vec<Vec<f64>>> = vec![vec![Vec::new(); RUN_SUMMARY.len()]; depths];
    let mut stats: Vec<DepthStats> = (1..=floors)
        .map(|depth| {
            let p = run::depth::params(depth, floors, width, height, settings);
            DepthStats {
                depth,
                width: p.width,
                height: p.height,
                made: 0,
                failed: 0,
                regenerated: 0,
                regenerations: 0,
                max_attempt: None,
                metrics: Vec::new(),
            }
        })
        .collect();
    let (mut runs, mut failed) = (0u64, 0u64);
    let mut first_failure = None;
    let mut failures = Vec::new();
    let mut start = first;
    loop {
        let end = last.min(start.saturating_add(RUN_CHUNK - 1));
        let work = || -> Vec<Vec<Result<FloorRecord, RunFailure>>> {
            (start..=end)
                .into_par_iter()
                .map(|seed| {
                    let made = (1..=floors)
                        .map(|depth| {
                            floor::make(seed, depth, floors, width, height, settings)
                                .map(|f| record(&f))
                                .map_err(|error| RunFailure { seed, depth, error })
                        })
                        .collect();
                    on_run();
                    made
                })
                .collect()
        };
        let results = match pool {
            Some(pool) => pool.install(work),
            None => work(),
        };
        for (seed, made) in (start..=end).zip(results) {
            let mut failure = None;
            for ((floor, d), columns) in made.into_iter().zip(&mut stats).zip(&mut columns) {
                match floor {
                    Ok(r) => {
                        d.made += 1;
                        d.regenerated += u64::from(r.attempt > 0);
                        d.regenerations += u64::from(r.attempt);
                        d.max_attempt = Some(d.max_attempt.map_or(r.attempt, |m| m.max(r.attempt)));
                        for (column, v) in columns.iter_mut().zip(r.values) {
                            column.push(v);
                        }
                    }
                    Err(e) => {
                        d.failed += 1;
                        failure.get_or_insert(e);
                    }
                }
            }
            match failure {
                None => runs += 1,
                Some(e) => {
                    failed += 1;
                    if failures.len() < MAX_FAILURES_KEPT {
                        failures.push((seed, e.clone()));
                    }
                    first_failure.get_or_insert(e);
                }
            }
        }
        if end == last {
            break;
        }
        start = end + 1;
    }
    for (d, columns) in stats.iter_mut().zip(columns) {
        d.metrics = RUN_SUMMARY
            .iter()
            .zip(columns)
            .map(|(&name, v)| (name, summarise(v)))
            .collect();
    }
    Ok(RunRangeStats {
        first,
        last,
        floors,
        width,
        height,
        runs,
        failed,
        first_failure,
        failures,
        depths: stats,
    })
}
