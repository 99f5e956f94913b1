//! The tables `byog stats` prints: one world's metrics and rooms, a range's expressive
//! range, a run's floors and a range of runs' depths, each headed as the command heads it
//! (the generator's parameters are added by the command). The numbers come from
//! [`byog_worlds::metrics`]; the words, the columns and the rounding are decided here.

use std::fmt::Write as _;

use byog_game::run::survey::{FloorStats, RunRangeStats};
use byog_worlds::generator::GeneratorSettings;
use byog_worlds::metrics::{self};
use byog_worlds::survey::{RangeStats, SeedStats};

use super::super::errors;

/// The table's label of each of [`RUN_SUMMARY`](byog_game::run::survey::RUN_SUMMARY)'s
/// values, in its order.
const RUN_LABELS: [&str; 6] = [
    "par moves",
    "budget",
    "direct",
    "slack %",
    "chests",
    "traps",
];

/// The generator's parameters, as `stats` shows them.
pub fn settings_line(settings: &GeneratorSettings) -> String {
    if settings.generator == byog_worlds::generator::GeneratorKind::LootQuest {
        let l = &settings.lootquest;
        return format!(
            "lootquest: {} rooms, critical path {}, dead ends at most {}, room size {}..{}, \
             spacing {}..{}, loops {}%",
            l.rooms,
            l.critical_path,
            l.max_dead_end,
            l.room_size_min,
            l.room_size_max,
            l.room_spacing_min,
            l.room_spacing_max,
            l.loops_percent
        );
    }
    let loops = match settings.extra_connector_chance {
        0 => "none".to_owned(),
        n => format!("1 in {n}"),
    };
    format!(
        "room tries {} per 1000 tiles, room extra size {}, winding {}%, extra connectors {loops}",
        settings.room_tries_per_1000_tiles, settings.room_extra_size, settings.winding_percent
    )
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
    let rows: [(&str, String); 14] = [
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
        ("room path", plural(m.critical_path.into(), "room")),
        ("max dead end", plural(m.max_dead_end.into(), "room")),
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
        let _ = writeln!(out, "first failure: {}", errors::generate(f));
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
         allowance (par × the depth's budget, in percent); direct: the walk into the exit avoiding \
         traps; slack: budget / par; try: the derived seed accepted (0 = the first); \
         openness: open tiles / all tiles; secl.: each chest's room's distance from the \
         critical path, in tiles (mean and max over the chests)"
    );
    out
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
        let _ = writeln!(out, "first failure: {}", errors::run_failure(f));
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
        for ((_, s), label) in d.metrics.iter().zip(RUN_LABELS) {
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
