//! `byog stats`: the metrics of one world, or the expressive range of the generator over a
//! range of seeds (min / median / p90 / max of every metric; Smith & Whitehead, "Analyzing
//! the expressive range of a level generator", 2010).
//!
//! Batches run on every core with `rayon`; results are collected in seed order and the
//! summaries are computed from sorted values, so the output is identical whatever the number
//! of threads.

use std::fmt::Write as _;
use std::io::IsTerminal;

use rayon::prelude::*;
use serde_json::{Map, Value, json};

use crate::core::generator::{self, GenerateError, GeneratorSettings};
use crate::core::metrics::{self, Metrics};

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
    let dist = |d: Option<u32>| d.map_or("unreachable".to_owned(), |d| format!("{d} tiles"));
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
        ("largest room", format!("{} tiles", m.largest_room_area)),
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
                .map_or("no rooms".into(), |v| format!("{v} tiles")),
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
