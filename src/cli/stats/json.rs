//! The JSON objects `byog stats --json` prints (`docs/json.md`), one a line: one world's
//! metrics (flat, with the generator's parameters beside them), a range's summaries, a run's
//! floors, a range of runs' depths. Keys are the metrics' own names.

use serde_json::{Map, Value, json};

use byog_game::run::survey::{FloorStats, RunRangeStats};
use byog_worlds::generator::GeneratorSettings;
use byog_worlds::survey::{self as batch, RangeStats, SeedStats};

use super::super::errors;

/// The generator's parameters as a JSON object (the flags' names).
/// A LootQuest world's are `generator` (`"lootquest"`) and `lootquest`, an object of its own
/// parameters (`rooms`, `critical_path`, `max_dead_end`, `room_size` and `room_spacing` as
/// `[min, max]`, `loops_percent`), nested so they never clash with the metrics' names.
pub fn settings_json(settings: &GeneratorSettings) -> Value {
    if settings.generator == byog_worlds::generator::GeneratorKind::LootQuest {
        let l = &settings.lootquest;
        return json!({
            "generator": settings.generator.name(),
            "lootquest": {
                "rooms": l.rooms,
                "critical_path": l.critical_path,
                "max_dead_end": l.max_dead_end,
                "room_size": [l.room_size_min, l.room_size_max],
                "room_spacing": [l.room_spacing_min, l.room_spacing_max],
                "loops_percent": l.loops_percent,
            },
        });
    }
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
    for (name, v) in batch::names().zip(batch::values(s)) {
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
        "first_failure": r.first_failure.as_ref().map(errors::generate),
        "metrics": metrics,
    })
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
        "first_failure": r.first_failure.as_ref().map(errors::run_failure),
        "floors_made": r.floors_made(),
        "regenerated": r.regenerated(),
        "regenerations": r.regenerations(),
        "max_attempt": r.max_attempt(),
        "depths": depths,
    })
}
