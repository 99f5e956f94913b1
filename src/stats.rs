//! `byog stats`: the metrics of one world, or the expressive range of the generator over a
//! range of seeds (min / median / p90 / max of every metric; Smith & Whitehead, "Analyzing
//! the expressive range of a level generator", 2010).
//!
//! Batches run on every core with `rayon`; results are collected in seed order and the
//! summaries are computed from sorted values, so the output is identical whatever the number
//! of threads.
//!
//! Runs (`docs/runs.md`) have their own measures: [`measure_run`] gives one
//! row a floor of a run (size, features, par, budget, slack, the try accepted, openness and
//! the chests' seclusion), and [`measure_runs`] summarises every floor depth over a range of
//! run seeds (`docs/runs.md` has the figures for the default table).

use std::fmt::Write as _;
use std::io::IsTerminal;

use rayon::prelude::*;
use serde_json::{Map, Value, json};

use crate::core::generator::{self, GenerateError, GeneratorSettings};
use crate::core::metrics::{self, Metrics, NO_ROOM, room_ids};
use crate::core::run::{self, FeatureKind, Floor, floor};

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

/// Generates and measures the world `N<seed>S` starts.
///
/// # Errors
/// [`GenerateError`] from generation (bad size or settings, requirements unmet).
pub fn measure_seed(
    seed: u64,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
) -> Result<SeedStats, GenerateError> {
    let g = generator::generate_for_seed(seed, width, height, settings)?;
    let d = &g.dungeon;
    Ok(SeedStats {
        seed,
        tries: g.tries,
        metrics: metrics::measure(&d.world, d.avatar, d.exit),
    })
}

/// The name of the last summarised value, after [`metrics::SUMMARY`]: worlds tried.
const TRIES: &str = "tries";

/// The names of the summarised values, in output order: every [`metrics::SUMMARY`] entry,
/// then [`TRIES`].
fn names() -> impl Iterator<Item = &'static str> {
    metrics::SUMMARY.iter().map(|m| m.name).chain([TRIES])
}

/// The value of each of [`names`] for a world (`None`: not defined, e.g. the exit distance
/// when the exit is unreachable, or seclusion with no rooms).
fn values(s: &SeedStats) -> Vec<Option<f64>> {
    metrics::SUMMARY
        .iter()
        .map(|m| (m.value)(&s.metrics))
        .chain([Some(f64::from(s.tries))])
        .collect()
}

/// The generator's parameters, as `stats` shows them.
pub fn settings_line(settings: &GeneratorSettings) -> String {
    let loops = match settings.extra_connector_chance {
        0 => "none".to_owned(),
        n => format!("1 in {n}"),
    };
    format!(
        "room tries {} per 1000 tiles, room extra size {}, winding {}%, extra connectors {loops}",
        settings.room_tries_per_1000_tiles, settings.room_extra_size, settings.winding_percent
    )
}

/// The generator's parameters as a JSON object (the flags' names).
pub fn settings_json(settings: &GeneratorSettings) -> Value {
    json!({
        "room_tries": settings.room_tries_per_1000_tiles,
        "room_extra_size": settings.room_extra_size,
        "winding_percent": settings.winding_percent,
        "extra_connector_chance": settings.extra_connector_chance,
    })
}

/// The flat JSON object `stats --seed N --json` prints.
pub fn seed_json(s: &SeedStats) -> Value {
    let m = &s.metrics;
    let mut o = Map::new();
    o.insert("seed".into(), json!(s.seed));
    o.insert("width".into(), json!(m.width));
    o.insert("height".into(), json!(m.height));
    for (name, v) in names().zip(values(s)) {
        let v = match v {
            // Whole numbers print as integers.
            Some(v) if v.fract() == 0.0 && name != "openness_percent" => json!(v as u64),
            Some(v) => json!(v),
            None => Value::Null,
        };
        o.insert(name.into(), v);
    }
    Value::Object(o)
}

/// The table `stats --seed N` prints: the world's metrics, then one line a room.
pub fn seed_table(s: &SeedStats) -> String {
    let m = &s.metrics;
    let mut out = String::new();
    let tries = if s.tries == 1 {
        "first try".to_owned()
    } else {
        format!("{} tries", s.tries)
    };
    let dist = |d: Option<u32>| d.map_or("unreachable".to_owned(), |d| plural(d.into(), "tile"));
    let _ = writeln!(
        out,
        "seed {} ({} × {} tiles, {tries})",
        s.seed, m.width, m.height
    );
    let rows: [(&str, String); 12] = [
        (
            "openness",
            format!(
                "{:.1}% ({} of {} tiles open)",
                m.openness_percent,
                m.open_tiles,
                u64::from(m.width) * u64::from(m.height)
            ),
        ),
        (
            "rooms",
            format!(
                "{} ({} small < {} tiles, {} medium, {} large > {} tiles)",
                m.room_count,
                m.rooms_small,
                metrics::SMALL_ROOM_BELOW,
                m.rooms_medium,
                m.rooms_large,
                metrics::LARGE_ROOM_ABOVE
            ),
        ),
        ("largest room", plural(m.largest_room_area.into(), "tile")),
        ("corridor tiles", m.corridor_tiles.to_string()),
        ("junctions", m.junctions.to_string()),
        ("loops", m.loops.to_string()),
        ("dead ends", m.dead_ends.to_string()),
        ("regions", m.regions.to_string()),
        ("exit distance", dist(m.exit_distance)),
        ("critical path", dist(m.critical_path_length)),
        ("critical rooms", m.critical_path_rooms.to_string()),
        (
            "max seclusion",
            m.max_seclusion()
                .map_or("no rooms".into(), |v| plural(v.into(), "tile")),
        ),
    ];
    for (name, value) in rows {
        let _ = writeln!(out, "{name:<16}{value}");
    }
    let _ = writeln!(
        out,
        "\n{:>4}  {:>10}  {:>5}  {:>8}  {:>6}  {:>13}  {:>9}",
        "room", "first tile", "area", "openings", "direct", "connectedness", "seclusion"
    );
    for r in &m.rooms {
        let _ = writeln!(
            out,
            "{:>4}  {:>10}  {:>5}  {:>8}  {:>6}  {:>13}  {:>9}",
            r.id,
            r.first_tile.to_string(),
            r.area,
            r.openings,
            r.direct_connections,
            r.connectedness,
            r.seclusion.map_or("-".into(), |s| s.to_string())
        );
    }
    out
}

/// The summary of one metric over a range: nearest-rank percentiles of the defined values.
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
    /// The first failure's message, if any.
    pub first_failure: Option<String>,
    /// Each failed seed and why, in seed order (the first [`MAX_FAILURES_KEPT`]).
    pub failures: Vec<(u64, String)>,
    /// Each metric's name and summary (`None` when no world defined it).
    pub metrics: Vec<(&'static str, Option<Summary>)>,
}

/// How many failures [`RangeStats::failures`] keeps with their messages.
pub const MAX_FAILURES_KEPT: usize = 10_000;

/// Measures every seed of `first..=last` on `threads` threads (0: one per core) and
/// summarises them. Shows a progress bar on stderr when it is a terminal and the batch is
/// large.
///
/// # Errors
/// A message for a bad size or setting, or a thread pool that cannot start. Seeds whose
/// requirements are unmet are counted in [`RangeStats::failed`], not errors.
pub fn measure_range(
    first: u64,
    last: u64,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
    threads: usize,
) -> Result<RangeStats, String> {
    generator::check_size(width, height).map_err(|e| e.to_string())?;
    settings.validate().map_err(|e| e.to_string())?;
    let count = last - first + 1;
    let bar = progress_bar(count);
    let measure = || -> Vec<Result<Vec<Option<f64>>, String>> {
        // Only the summarised values are kept a seed, not the per-room metrics.
        (first..=last)
            .into_par_iter()
            .map(|seed| {
                let r = measure_seed(seed, width, height, settings);
                bar.inc(1);
                r.map(|s| values(&s)).map_err(|e| e.to_string())
            })
            .collect()
    };
    // One seed needs no pool (building one for thousands of threads takes seconds).
    let results = if count == 1 {
        measure()
    } else {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?
            .install(measure)
    };
    bar.finish_and_clear();

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
        .map(|(name, mut v)| {
            v.sort_by(f64::total_cmp);
            let summary = (!v.is_empty()).then(|| Summary {
                min: v[0],
                median: percentile(&v, 50),
                p90: percentile(&v, 90),
                max: v[v.len() - 1],
            });
            (name, summary)
        })
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

/// A progress bar on stderr for a batch of `count` seeds: drawn only when stderr is a terminal
/// and the batch is large (2,000 seeds or more); hidden otherwise.
pub(crate) fn progress_bar(count: u64) -> indicatif::ProgressBar {
    if count >= 2000 && std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(count);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} seeds ({eta} left)")
        {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    }
}

/// "1 world", "2 worlds".
fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v}")
    } else {
        format!("{v:.1}")
    }
}

/// The table `stats --seeds A..B` prints.
pub fn range_table(r: &RangeStats) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "seeds {}..={}: {}, {} needed retries, {} failed the requirements",
        r.first,
        r.last,
        plural(r.worlds, "world"),
        r.retried,
        r.failed
    );
    if let Some(f) = &r.first_failure {
        let _ = writeln!(out, "first failure: {f}");
    }
    let _ = writeln!(
        out,
        "\n{:<22}{:>10}{:>10}{:>10}{:>10}",
        "metric", "min", "median", "p90", "max"
    );
    for (name, s) in &r.metrics {
        match s {
            Some(s) => {
                let _ = writeln!(
                    out,
                    "{name:<22}{:>10}{:>10}{:>10}{:>10}",
                    number(s.min),
                    number(s.median),
                    number(s.p90),
                    number(s.max)
                );
            }
            None => {
                let _ = writeln!(out, "{name:<22}{:>10}", "-");
            }
        }
    }
    out
}

/// The JSON object `stats --seeds A..B --json` prints.
pub fn range_json(r: &RangeStats) -> Value {
    let mut metrics = Map::new();
    for (name, s) in &r.metrics {
        let v = s.map_or(
            Value::Null,
            |s| json!({ "min": s.min, "median": s.median, "p90": s.p90, "max": s.max }),
        );
        metrics.insert((*name).into(), v);
    }
    json!({
        "first": r.first,
        "last": r.last,
        "worlds": r.worlds,
        "retried": r.retried,
        "failed": r.failed,
        "first_failure": r.first_failure,
        "metrics": metrics,
    })
}

// Runs (`stats --run SEED`, `stats --runs A..B`).

/// One floor of a run, as `stats --run` shows it.
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
/// room, from [`metrics::room_ids`], and that room's seclusion from [`metrics::measure`] on
/// the floor's terrain with its avatar and exit; a chest outside every room has none).
pub fn measure_floor(floor: &Floor) -> FloorStats {
    let terrain = &floor.terrain;
    let m = metrics::measure(terrain, floor.avatar, floor.exit);
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
/// `width × height` tiles, the flags' `settings`), B1 first, with [`floor::make`].
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

/// "B1", "B10".
fn floor_name(depth: u32) -> String {
    format!("B{depth}")
}

/// The table `stats --run SEED` prints: a title line, then one row a floor, then what the
/// columns mean.
pub fn run_table(seed: u64, width: usize, height: usize, rows: &[FloorStats]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "run seed {seed}: {} of at most {width} × {height} tiles",
        plural(rows.len() as u64, "floor")
    );
    let _ = writeln!(
        out,
        "\n{:<5}  {:>9}  {:>6}  {:>5}  {:>5}  {:>6}  {:>6}  {:>7}  {:>3}  {:>8}  {:>10}  {:>9}",
        "floor",
        "size",
        "chests",
        "traps",
        "par",
        "budget",
        "direct",
        "slack",
        "try",
        "openness",
        "secl. mean",
        "secl. max"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{:<5}  {:>9}  {:>6}  {:>5}  {:>5}  {:>6}  {:>6}  {:>7}  {:>3}  {:>8}  {:>10}  {:>9}",
            floor_name(r.depth),
            format!("{} × {}", r.width, r.height),
            r.chests,
            r.traps,
            r.par,
            r.allowance,
            r.direct,
            format!("{:.1}%", r.slack_percent()),
            r.attempt,
            format!("{:.1}%", r.openness_percent),
            r.seclusion_mean.map_or("-".into(), |s| format!("{s:.1}")),
            r.seclusion_max.map_or("-".into(), |s| s.to_string()),
        );
    }
    let _ = writeln!(
        out,
        "\npar: the solver's route (every feature, then the exit), in moves; budget: the move \
         allowance (open tiles × the depth's budget); direct: the walk into the exit avoiding \
         traps; slack: budget / par; try: the derived seed accepted (0 = the first); \
         openness: open tiles / all tiles; secl.: each chest's room's distance from the \
         critical path, in tiles (mean and max over the chests)"
    );
    out
}

/// The JSON object `stats --run SEED --json` prints (without the generator's parameters).
pub fn run_json(seed: u64, width: usize, height: usize, rows: &[FloorStats]) -> Value {
    let per_floor: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "floor": r.depth,
                "width": r.width,
                "height": r.height,
                "chests": r.chests,
                "traps": r.traps,
                "par": r.par,
                "allowance": r.allowance,
                "direct": r.direct,
                "slack_percent": r.slack_percent(),
                "attempt": r.attempt,
                "open_tiles": r.open_tiles,
                "openness_percent": r.openness_percent,
                "seclusion_mean": r.seclusion_mean,
                "seclusion_max": r.seclusion_max,
            })
        })
        .collect();
    json!({
        "seed": seed,
        "floors": rows.len(),
        "width": width,
        "height": height,
        "per_floor": per_floor,
    })
}

/// The values `stats --runs` summarises for every depth, in output order: the JSON key and
/// the table's label.
pub const RUN_SUMMARY: [(&str, &str); 6] = [
    ("par", "par moves"),
    ("allowance", "budget"),
    ("direct", "direct"),
    ("slack_percent", "slack %"),
    ("chests", "chests"),
    ("traps", "traps"),
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
    /// The first failure's message, if any.
    pub first_failure: Option<String>,
    /// Each failed run and why (its first failing floor), in seed order (the first
    /// [`MAX_FAILURES_KEPT`]).
    pub failures: Vec<(u64, String)>,
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

/// Makes every floor of every run `first..=last` on `threads` threads (0: one per core) and
/// summarises each depth. Floors are made from (run seed, depth) alone, so every floor that
/// can be made is counted, a failed run's other floors too. Shows a progress bar on stderr
/// when it is a terminal and the batch is large.
///
/// # Errors
/// A message for a bad size, setting or floor count, or a thread pool that cannot start.
/// Runs that cannot be made are counted in [`RunRangeStats::failed`], not errors.
pub fn measure_runs(
    first: u64,
    last: u64,
    floors: u32,
    width: usize,
    height: usize,
    settings: &GeneratorSettings,
    threads: usize,
) -> Result<RunRangeStats, String> {
    generator::check_size(width, height).map_err(|e| e.to_string())?;
    settings.validate().map_err(|e| e.to_string())?;
    if !(1..=run::MAX_FLOORS).contains(&floors) {
        return Err(format!(
            "--floors {floors} is out of range: it takes 1..={}",
            run::MAX_FLOORS
        ));
    }
    let count = last - first + 1;
    let pool = if count == 1 {
        None
    } else {
        Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| format!("cannot start {threads} threads: {e}"))?,
        )
    };
    let bar = progress_bar(count);
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
                    bar.inc(1);
                    made
                })
                .collect()
        };
        let results = match &pool {
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
                    let e = e.to_string();
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
    bar.finish_and_clear();
    for (d, columns) in stats.iter_mut().zip(columns) {
        d.metrics = RUN_SUMMARY
            .iter()
            .zip(columns)
            .map(|(&(name, _), v)| (name, summarise(v)))
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

/// Nearest-rank min / median / p90 / max of `v` (`None` when empty).
fn summarise(mut v: Vec<f64>) -> Option<Summary> {
    v.sort_by(f64::total_cmp);
    (!v.is_empty()).then(|| Summary {
        min: v[0],
        median: percentile(&v, 50),
        p90: percentile(&v, 90),
        max: v[v.len() - 1],
    })
}

/// "1 try", "2 tries".
fn tries(n: u64) -> String {
    if n == 1 {
        "1 try".to_owned()
    } else {
        format!("{n} tries")
    }
}

/// `part` of `whole` in percent, two decimals.
fn share(part: u64, whole: u64) -> String {
    format!("{:.2}%", part as f64 * 100.0 / whole.max(1) as f64)
}

/// The table `stats --runs A..B` prints: the runs and the regenerations in all, then each
/// depth's summary.
pub fn runs_table(r: &RunRangeStats) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "runs {}..={}: {} of at most {} × {} tiles each; {} made, {} failed",
        r.first,
        r.last,
        plural(u64::from(r.floors), "floor"),
        r.width,
        r.height,
        plural(r.runs, "run"),
        r.failed
    );
    if let Some(f) = &r.first_failure {
        let _ = writeln!(out, "first failure: {f}");
    }
    let attempt = |a: Option<u32>| a.map_or("-".to_owned(), |a| a.to_string());
    let _ = writeln!(
        out,
        "floors regenerated: {} of {} ({}), {} rejected in all, largest try {} (0 = the first)",
        r.regenerated(),
        r.floors_made(),
        share(r.regenerated(), r.floors_made()),
        tries(r.regenerations()),
        attempt(r.max_attempt())
    );
    for d in &r.depths {
        let _ = writeln!(
            out,
            "\n{} ({} × {} tiles): {} made, {} regenerated ({}), {} rejected, largest try {}, {} failed",
            floor_name(d.depth),
            d.width,
            d.height,
            plural(d.made, "floor"),
            d.regenerated,
            share(d.regenerated, d.made),
            tries(d.regenerations),
            attempt(d.max_attempt),
            d.failed
        );
        let _ = writeln!(
            out,
            "{:<22}{:>10}{:>10}{:>10}{:>10}",
            "value", "min", "median", "p90", "max"
        );
        // `metrics` is in RUN_SUMMARY's order.
        for ((_, s), (_, label)) in d.metrics.iter().zip(RUN_SUMMARY) {
            match s {
                Some(s) => {
                    let _ = writeln!(
                        out,
                        "{label:<22}{:>10}{:>10}{:>10}{:>10}",
                        number(s.min),
                        number(s.median),
                        number(s.p90),
                        number(s.max)
                    );
                }
                None => {
                    let _ = writeln!(out, "{label:<22}{:>10}", "-");
                }
            }
        }
    }
    out
}

/// The JSON object `stats --runs A..B --json` prints (without the generator's parameters).
pub fn runs_json(r: &RunRangeStats) -> Value {
    let depths: Vec<Value> = r
        .depths
        .iter()
        .map(|d| {
            let mut metrics = Map::new();
            for (name, s) in &d.metrics {
                let v = s.map_or(
                    Value::Null,
                    |s| json!({ "min": s.min, "median": s.median, "p90": s.p90, "max": s.max }),
                );
                metrics.insert((*name).into(), v);
            }
            json!({
                "floor": d.depth,
                "width": d.width,
                "height": d.height,
                "made": d.made,
                "failed": d.failed,
                "regenerated": d.regenerated,
                "regenerations": d.regenerations,
                "max_attempt": d.max_attempt,
                "metrics": metrics,
            })
        })
        .collect();
    json!({
        "first": r.first,
        "last": r.last,
        "floors": r.floors,
        "width": r.width,
        "height": r.height,
        "runs": r.runs,
        "failed": r.failed,
        "first_failure": r.first_failure,
        "floors_made": r.floors_made(),
        "regenerated": r.regenerated(),
        "regenerations": r.regenerations(),
        "max_attempt": r.max_attempt(),
        "depths": depths,
    })
}
