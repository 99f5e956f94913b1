//! The seed catalog on the command line (`docs/catalog.md`): `gen` and `stats` open one with
//! `--catalog FILE` ([`open`], [`finish`]), and `byog catalog FILE` lists and queries it
//! ([`execute`]). A catalog that cannot be used is reported once on stderr and the command goes on
//! without it: its output is the same either way.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use byog_catalog::Value;
use clap::Args;

use super::args::{Common, EXPLORE_FLAGS, FLOORS_FLAGS, GENERATOR_FLAGS, SIZE_FLAGS};
use super::{CliError, Format, format_of, plural, value_name, write_stdout};
use byog_catalog::query::{self, Filter, Query, Row};
use byog_catalog::{self as catalog, Catalog};
use byog_worlds::generator::{GENERATOR_VERSION, GeneratorSettings};

/// Opens `path` for worlds of `common`'s size made with `settings`; a catalog that cannot be
/// used is reported on stderr (`byog: warning: …; going on without it`) and `None` returned.
pub fn open(path: Option<&Path>, common: &Common, settings: &GeneratorSettings) -> Option<Catalog> {
    let path = path?;
    match Catalog::open(path, common.width, common.height, settings) {
        Ok(c) => Some(c),
        Err(e) => {
            eprintln!("byog: warning: {e}; going on without it (the output is the same)");
            None
        }
    }
}

/// Waits for the catalog's writes and reports on stderr what it did: `byog: catalog FILE: 10
/// seeds, 10 tries made (9 remembered passes and 1 seed's remembered failures confirmed, 23
/// remembered failed tries skipped), 0 stale entries rewritten`, and the first problem met, if
/// any.
pub fn finish(catalog: Option<Catalog>) {
    let Some(catalog) = catalog else { return };
    let r = catalog.finish();
    if let Some(problem) = &r.problem {
        eprintln!(
            "byog: warning: seed catalog {}: {problem}; the rest went on without it (the output \
             is the same)",
            catalog.path().display()
        );
    }
    eprintln!(
        "byog: catalog {}: {}, {} made ({} and {} confirmed, {} skipped), {} rewritten",
        catalog.path().display(),
        count(r.seeds, "seed", "seeds"),
        count(r.tries_made, "try", "tries"),
        count(r.hits, "remembered pass", "remembered passes"),
        count(
            r.resumed,
            "seed's remembered failures",
            "seeds' remembered failures"
        ),
        count(
            r.tries_skipped,
            "remembered failed try",
            "remembered failed tries"
        ),
        count(r.stale, "stale entry", "stale entries"),
    );
}

/// "1 try", "2 tries".
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Parses `--where`.
fn parse_where(text: &str) -> Result<Filter, String> {
    query::parse(text).map_err(|e| e.to_string())
}

/// `byog catalog`'s own flags.
#[derive(Debug, Clone, Args)]
pub struct CatalogArgs {
    /// The catalog file (written by gen or stats with --catalog).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Only seeds whose metrics pass this filter: tests `NAME OP NUMBER` (OP one of < <= > >=
    /// = !=) joined by `and` / `or`, with parentheses; NAME a metric of `byog stats`, `seed`,
    /// `tries` or `tried`. E.g. 'room_count >= 8 and loops <= 1'.
    #[arg(long = "where", value_name = "FILTER", value_parser = parse_where)]
    filter: Option<Filter>,
    /// Output format: text (a table) or json (one object a seed, a line each).
    #[arg(long, value_name = "FORMAT", value_parser = super::text_or_json())]
    format: Option<Format>,
    /// Short for --format json.
    #[arg(long)]
    json: bool,
    /// At most this many seeds.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    /// List the parameter sets (world size and generator settings) instead of seeds.
    #[arg(long)]
    sets: bool,
    /// Seeds of every generator version, not only this byog's (older ones are never used).
    #[arg(long)]
    all_versions: bool,
}

/// The metric columns the text table shows after those the filter names (those present).
const SHOWN: [&str; 7] = [
    "room_count",
    "openness_percent",
    "exit_distance",
    "loops",
    "critical_path_rooms",
    "critical_path",
    "max_dead_end",
];

/// Runs `byog catalog`.
pub fn execute(common: &Common, args: CatalogArgs) -> Result<(), CliError> {
    let format = format_of(args.format, args.json);
    if format == Format::None {
        return Err(CliError::Usage(format!(
            "catalog prints text or json, not --format {}",
            value_name(format)
        )));
    }
    common.ignored(FLOORS_FLAGS, "the catalog remembers worlds, not runs");
    common.ignored(
        EXPLORE_FLAGS,
        "the catalog remembers worlds, not explorations",
    );
    common.ignored(
        &["max-tries"],
        "a parameter set leaves it out: a try's world does not depend on it",
    );
    let (conn, missing) =
        catalog::open_existing(&args.file).map_err(|e| CliError::Usage(e.to_string()))?;
    let sqlite = |e: query::QueryError| CliError::Usage(format!("{}: {e}", args.file.display()));
    if args.sets {
        let sets = query::sets(&conn).map_err(sqlite)?;
        let text = if format == Format::Json {
            sets.iter()
                .map(|s| {
                    format!(
                        "{}\n",
                        serde_json::json!({
                            "set": s.id,
                            "generator_version": s.generator_version,
                            "width": s.width,
                            "height": s.height,
                            "settings": settings_json(&s.settings),
                            "seeds": s.seeds,
                            "passed": s.passed,
                            "failed_tries": s.failed_tries,
                        })
                    )
                })
                .collect()
        } else {
            let mut out = format!(
                "{:>4} {:>7} {:>11} {:>8} {:>8} {:>12}  settings\n",
                "set", "version", "size", "seeds", "passed", "failed tries"
            );
            for s in &sets {
                let _ = writeln!(
                    out,
                    "{:>4} {:>7} {:>11} {:>8} {:>8} {:>12}  {}",
                    s.id,
                    s.generator_version,
                    format!("{} × {}", s.width, s.height),
                    s.seeds,
                    s.passed,
                    s.failed_tries,
                    s.settings
                );
            }
            out
        };
        return write_stdout(|out| out.write_all(text.as_bytes()));
    }
    let shaping: Vec<&str> = SIZE_FLAGS
        .iter()
        .chain(GENERATOR_FLAGS.iter().filter(|&&f| f != "max-tries"))
        .copied()
        .chain(super::args::requirement_flags())
        .collect();
    let params = shaping.iter().any(|f| common.given(f)).then(|| {
        (
            common.width,
            common.height,
            catalog::parameter_set(&common.settings()),
        )
    });
    let q = Query {
        filter: args.filter.clone(),
        generator_version: (!args.all_versions).then_some(GENERATOR_VERSION),
        params,
        limit: args.limit,
    };
    let rows = query::select(&conn, &missing, &q).map_err(sqlite)?;
    let text = if format == Format::Json {
        rows.iter().map(|r| format!("{}\n", row_json(r))).collect()
    } else {
        table(&rows, args.filter.as_ref(), &missing)
    };
    if rows.is_empty() && q.params.is_some() {
        eprintln!(
            "byog: no seed of this parameter set (the size, generator and requirement flags \
             given); `byog catalog {} --sets` lists the sets",
            args.file.display()
        );
    }
    write_stdout(|out| out.write_all(text.as_bytes()))
}

/// A settings text as JSON (as stored; a string if it does not parse).
fn settings_json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|_| serde_json::Value::String(text.into()))
}

/// A stored value as JSON.
fn value_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Integer(i) => serde_json::json!(i),
        Value::Real(f) => serde_json::json!(f),
        Value::Text(t) => serde_json::json!(t),
        Value::Null | Value::Blob(_) => serde_json::Value::Null,
    }
}

/// A stored value as table text ("-" for NULL).
fn value_text(v: &Value) -> String {
    match v {
        Value::Integer(i) => i.to_string(),
        Value::Real(f) => format!("{f:.1}"),
        Value::Text(t) => t.clone(),
        Value::Null | Value::Blob(_) => "-".into(),
    }
}

/// One seed as the JSON object `byog catalog --json` prints: `seed`, `set`,
/// `generator_version`, `width`, `height`, `settings`, `tried`, `passed_try` (0-based, null
/// when none passed), `tries` (1-based, as `stats` counts), `hash`, `failed` (a list of
/// `{"try", "missed", "detail"}`), then every metric by name, as `stats --seed --json` names
/// them.
fn row_json(r: &Row) -> serde_json::Value {
    let mut o = serde_json::Map::new();
    o.insert("seed".into(), r.seed.into());
    o.insert("set".into(), r.params.into());
    o.insert("generator_version".into(), r.generator_version.into());
    o.insert("width".into(), r.width.into());
    o.insert("height".into(), r.height.into());
    o.insert("settings".into(), settings_json(&r.settings));
    o.insert("tried".into(), r.tried.into());
    o.insert("passed_try".into(), serde_json::json!(r.passed_try));
    o.insert(
        "tries".into(),
        serde_json::json!(r.passed_try.map(|p| p + 1)),
    );
    o.insert("hash".into(), serde_json::json!(r.hash));
    let failed: Vec<serde_json::Value> = r
        .failed
        .iter()
        .map(|(t, missed, detail)| {
            let missed: Vec<&str> = missed.split(',').filter(|m| !m.is_empty()).collect();
            serde_json::json!({ "try": t, "missed": missed, "detail": detail })
        })
        .collect();
    o.insert("failed".into(), failed.into());
    for (name, v) in &r.metrics {
        o.insert((*name).into(), value_json(v));
    }
    serde_json::Value::Object(o)
}

/// The text table: seed, parameter set, the passing try (1-based), failed tries, hash, then
/// the metrics the filter names and a few more.
fn table(rows: &[Row], filter: Option<&Filter>, missing: &[&str]) -> String {
    let mut shown: Vec<&str> = filter.map(Filter::names).unwrap_or_default();
    shown.retain(|n| !query::OTHER_NAMES.contains(n));
    for s in SHOWN {
        if !shown.contains(&s) {
            shown.push(s);
        }
    }
    shown.retain(|n| !missing.contains(n) && catalog::metric_columns().any(|m| m == *n));
    let mut out = String::new();
    let _ = write!(
        out,
        "{:>20} {:>4} {:>6} {:>6} {:>16}",
        "seed", "set", "tries", "failed", "hash"
    );
    for n in &shown {
        let _ = write!(out, " {n:>w$}", w = n.len().max(6));
    }
    out.push('\n');
    for r in rows {
        let tries = r
            .passed_try
            .map_or_else(|| "none".to_owned(), |p| (p + 1).to_string());
        let _ = write!(
            out,
            "{:>20} {:>4} {:>6} {:>6} {:>16}",
            r.seed,
            r.params,
            tries,
            r.failed.len(),
            r.hash.as_deref().unwrap_or("-")
        );
        for n in &shown {
            let v = r
                .metrics
                .iter()
                .find(|(m, _)| m == n)
                .map_or_else(|| "-".to_owned(), |(_, v)| value_text(v));
            let _ = write!(out, " {v:>w$}", w = n.len().max(6));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{}", plural(rows.len() as u64, "seed"));
    out
}
