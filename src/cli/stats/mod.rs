//! `byog stats`: the metrics of one world (`--seed`) or the expressive range of the generator
//! over a range of seeds (`--seeds`), or, for runs (`docs/runs.md`), one row a
//! floor of one run (`--run`) or a summary of every floor depth over a range of run seeds
//! (`--runs`), as a table or JSON, with the generator's parameters. The four are mutually
//! exclusive. A range reports each seed (or run) that could not be made on stderr and exits 2
//! at the end if any could not, like `gen`; one seed or run that cannot be made is exit 2
//! with the reason.
//!
//! The measuring is [`byog_worlds::metrics`]' ([`batch`] and [`run`](mod@run)); this module
//! holds the command, [`text`] its tables and [`json`] its JSON.

mod json;
pub mod policy;
mod text;

use clap::{ArgGroup, Args};

use super::args::{
    Common, EXPLORE_FLAGS, FLOORS_FLAGS, SeedRange, parse_seed, parse_seed_range, parse_threads,
    seeds, thread_pool,
};
use super::errors;
use super::progress::{games_bar, progress_bar};
use super::{
    CliError, Format, failed_of, format_of, plural, reported, seed_failure, value_name,
    write_stdout,
};
use byog_game::run::survey as run;
use byog_worlds::survey as batch;

/// Most seeds one `stats --seeds` run accepts (it keeps 17 numbers a seed).
const MAX_STATS_SEEDS: u64 = 1_000_000;
/// Most run seeds one `stats --runs` accepts (it keeps 6 numbers a floor, 10 floors a run by
/// default).
const MAX_STATS_RUNS: u64 = 100_000;

/// `stats`'s own flags.
#[derive(Debug, Clone, Args)]
#[command(group(ArgGroup::new("measured").required(true).args(["seed", "seeds", "run", "runs", "explorations"])))]
pub struct StatsArgs {
    /// One seed: a table of its world's metrics and rooms.
    #[arg(long, value_name = "N", value_parser = parse_seed, allow_hyphen_values = true)]
    seed: Option<u64>,
    /// A range of seeds (A..B or A..=B, at most 1,000,000): min / median / p90 / max of every
    /// metric (expressive range).
    #[arg(long, value_name = "RANGE", value_parser = parse_seed_range, allow_hyphen_values = true)]
    seeds: Option<SeedRange>,
    /// One run (R<SEED>S): a row a floor, B1 to B<--floors>: size, chests, traps, par moves,
    /// budget, direct distance, slack, the try accepted, openness, the chests' seclusion.
    #[arg(long, value_name = "SEED", value_parser = parse_seed, allow_hyphen_values = true)]
    run: Option<u64>,
    /// A range of run seeds (A..B or A..=B, at most 100,000): for every floor depth, min /
    /// median / p90 / max of par, budget, direct, slack, chests and traps, and how many floors
    /// were regenerated.
    #[arg(long, value_name = "RANGE", value_parser = parse_seed_range, allow_hyphen_values = true)]
    runs: Option<SeedRange>,
    /// A range of exploration seeds (A..B or A..=B, at most 100,000), each played by
    /// --policy (dive, tactics, cautious, bank-at-2, or a banking rule bank:depth=D,...).
    #[arg(long, value_name = "RANGE", value_parser = parse_seed_range, allow_hyphen_values = true,
          requires = "policy")]
    explorations: Option<SeedRange>,
    /// Play every seed of --runs (solver, sight, sight-miss, hurry) or --explorations (dive,
    /// tactics, cautious, bank-at-2, or a rule of the banking family
    /// bank:depth=D,hearts=H,potions=K,points=P,reached=R, each setting optional) with this
    /// policy: wins, losses by cause, floor or depth reached, scores and moves
    /// (docs/balance.md).
    #[arg(long, value_name = "NAME")]
    policy: Option<String>,
    /// With --explorations: the session's length, the moves after which a game is stopped
    /// (the banking policies walk home before it ends); 1 to 1,000,000.
    #[arg(long, value_name = "N", default_value_t = byog_players::policy::EXPLORE_MOVE_CAP,
          value_parser = parse_move_cap)]
    move_cap: u64,
    /// Output format: text (a table) or json.
    #[arg(long, value_name = "FORMAT", value_parser = crate::cli::text_or_json())]
    format: Option<Format>,
    /// Short for --format json.
    #[arg(long)]
    json: bool,
    /// Threads for --seeds and --runs (0: one per core; at most 256); the output is the same
    /// for any number.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_threads,
          allow_negative_numbers = true)]
    threads: usize,
    /// A seed catalog for --seed and --seeds (SQLite, created when missing): remembered seeds
    /// start at the try that met the requirements; the numbers are the same.
    #[arg(long, value_name = "FILE")]
    catalog: Option<std::path::PathBuf>,
}

/// Runs `stats`.
pub fn execute(common: &Common, args: StatsArgs) -> Result<(), CliError> {
    let format = format_of(args.format, args.json);
    if format == Format::None {
        return Err(CliError::Usage(format!(
            "stats prints text or json, not --format {}",
            value_name(format)
        )));
    }
    let json = format == Format::Json;
    if let Some(name) = &args.policy {
        return policies(common, &args, name, json);
    }
    common.ignored(
        EXPLORE_FLAGS,
        "stats measures worlds and runs; it is for explorations",
    );
    if args.run.is_none() && args.runs.is_none() {
        common.ignored(FLOORS_FLAGS, "it goes with --run or --runs");
    }
    if args.catalog.is_some() && (args.run.is_some() || args.runs.is_some()) {
        eprintln!(
            "byog: ignored: --catalog (it remembers the worlds of --seed and --seeds, not run floors)"
        );
    }
    if let Some(seed) = args.run {
        return one_run(common, seed, json);
    }
    if let Some(range) = args.runs {
        return many_runs(common, range, args.threads, json);
    }
    let (range, many) = seeds(args.seed, args.seeds)?;
    let settings = common.settings();
    let catalog = super::catalog::open(args.catalog.as_deref(), common, &settings);
    if !many {
        let s = batch::measure_seed_with(
            range.first,
            common.width,
            common.height,
            &settings,
            catalog
                .as_ref()
                .map(|c| c as &dyn byog_worlds::generator::SeedMemory),
        )
        .map_err(|e| CliError::Usage(errors::generate(&e)));
        super::catalog::finish(catalog);
        let s = s?;
        let text = if json {
            // Flat: the generator's parameters sit beside the metrics.
            let mut v = json::seed_json(&s);
            if let (Some(o), serde_json::Value::Object(g)) =
                (v.as_object_mut(), json::settings_json(&settings))
            {
                o.extend(g);
            }
            format!("{v}\n")
        } else {
            let table = text::seed_table(&s);
            let (first, rest) = table.split_once('\n').unwrap_or((&table, ""));
            format!(
                "{first}\n{:<16}{}\n{rest}",
                "generator",
                text::settings_line(&settings)
            )
        };
        return write_stdout(|out| out.write_all(text.as_bytes()));
    }
    let count = range.count();
    if count > MAX_STATS_SEEDS {
        return Err(CliError::Usage(format!(
            "{count} seeds is more than one stats run measures ({MAX_STATS_SEEDS}); split the range"
        )));
    }
    let pool = thread_pool(args.threads, count)?;
    let bar = progress_bar(count);
    let r = batch::measure_range_with(
        range.first..=range.last,
        common.width,
        common.height,
        &settings,
        pool.as_ref(),
        &|| bar.inc(1),
        catalog
            .as_ref()
            .map(|c| c as &dyn byog_worlds::generator::SeedMemory),
    )
    .map_err(|e| CliError::Usage(errors::generate(&e)))?;
    bar.finish_and_clear();
    super::catalog::finish(catalog);
    let messages = r
        .failures
        .iter()
        .map(|(seed, why)| seed_failure(*seed, &errors::generate(why)));
    report_failures(messages, r.failed, "seed");
    let json_value = || json::range_json(&r);
    print_batch(json, &settings, json_value, || text::range_table(&r))?;
    match r.failed {
        0 => Ok(()),
        n => {
            let rest = match count - n {
                0 => "there was nothing to summarise".to_owned(),
                1 => "the summary covers the other one".to_owned(),
                m => format!("the summary covers the other {m}"),
            };
            Err(CliError::Partial(format!(
                "{} {}; {rest}",
                failed_of(
                    n,
                    count,
                    "seed",
                    "met the requirements",
                    "failed the requirements"
                ),
                reported(n)
            )))
        }
    }
}

/// `stats --run SEED`: one row a floor.
fn one_run(common: &Common, seed: u64, json: bool) -> Result<(), CliError> {
    let settings = common.settings();
    let (width, height) = (common.width, common.height);
    let rows = run::measure_run(seed, common.floors, width, height, &settings)
        .map_err(|e| CliError::Usage(errors::run_failure(&e)))?;
    let text = if json {
        let mut v = json::run_json(seed, width, height, &rows);
        v["generator"] = json::settings_json(&settings);
        format!("{v}\n")
    } else {
        let table = text::run_table(seed, width, height, &rows);
        let (first, rest) = table.split_once('\n').unwrap_or((&table, ""));
        format!(
            "{first}\ngenerator: {}\n{rest}",
            text::settings_line(&settings)
        )
    };
    write_stdout(|out| out.write_all(text.as_bytes()))
}

/// `stats --runs A..B`: every depth summarised; each run that cannot be made is reported on
/// stderr, and the command exits 2 at the end if any could not.
fn many_runs(
    common: &Common,
    range: SeedRange,
    threads: usize,
    json: bool,
) -> Result<(), CliError> {
    let count = range.count();
    if count > MAX_STATS_RUNS {
        return Err(CliError::Usage(format!(
            "--runs: {count} runs is more than one stats run measures ({MAX_STATS_RUNS}); \
             split the range"
        )));
    }
    let settings = common.settings();
    let pool = thread_pool(threads, count)?;
    let bar = progress_bar(count);
    let r = run::measure_runs(
        range.first..=range.last,
        common.floors,
        common.width,
        common.height,
        &settings,
        pool.as_ref(),
        &|| bar.inc(1),
    )
    .map_err(|e| CliError::Usage(errors::generate(&e)))?;
    bar.finish_and_clear();
    report_failures(
        r.failures.iter().map(|(_, why)| errors::run_failure(why)),
        r.failed,
        "run",
    );
    print_batch(
        json,
        &settings,
        || json::runs_json(&r),
        || text::runs_table(&r),
    )?;
    match r.failed {
        0 => Ok(()),
        n => Err(CliError::Partial(format!(
            "{} {}; the summary covers every floor that could be made",
            failed_of(n, count, "run", "could be made", "could not be made"),
            reported(n)
        ))),
    }
}

/// `stats --runs A..B --policy NAME` or `--explorations A..B --policy NAME`.
fn policies(common: &Common, args: &StatsArgs, name: &str, json: bool) -> Result<(), CliError> {
    use byog_players::policy::{GameMode, RunSetup};
    let (range, mode) = match (args.runs, args.explorations) {
        (Some(r), None) => (r, GameMode::Runs),
        (None, Some(r)) => (r, GameMode::Explorations),
        _ => {
            return Err(CliError::Usage(
                "--policy plays --runs A..B or --explorations A..B (one of them)".into(),
            ));
        }
    };
    let policy = policy::policy_for(name, mode)?;
    match mode {
        GameMode::Runs => {
            common.ignored(EXPLORE_FLAGS, "it goes with --explorations");
            if args.move_cap != byog_players::policy::EXPLORE_MOVE_CAP {
                eprintln!("byog: ignored: --move-cap (it goes with --explorations)");
            }
        }
        GameMode::Explorations => common.ignored(FLOORS_FLAGS, "it goes with --runs"),
    }
    let count = range.count();
    if count > MAX_STATS_RUNS {
        return Err(CliError::Usage(format!(
            "{count} games is more than one stats run plays ({MAX_STATS_RUNS}); split the range"
        )));
    }
    let setup = RunSetup {
        width: common.width,
        height: common.height,
        settings: common.settings(),
        floors: common.floors,
    };
    if mode == GameMode::Runs {
        byog_game::run::check_run(setup.width, setup.height, &setup.settings, setup.floors)
            .map_err(|e| CliError::Usage(errors::generate(&e)))?;
    }
    let explore = common.explore_settings();
    let pool = thread_pool(args.threads, count)?;
    let bar = games_bar(count);
    let batch = policy::play_batch(
        policy,
        range,
        &setup,
        (explore, args.move_cap),
        pool.as_ref(),
        &|| {
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    report_failures(
        batch
            .failures
            .iter()
            .map(|(seed, why)| seed_failure(*seed, why)),
        batch.failures.len() as u64,
        "game",
    );
    let text = if json {
        let mut v = batch.json(&setup, explore, args.move_cap);
        if mode == GameMode::Runs {
            v["generator"] = json::settings_json(&setup.settings);
        }
        format!("{v}\n")
    } else {
        let mut t = batch.table(&setup, explore, args.move_cap);
        if mode == GameMode::Runs {
            t = format!("generator: {}\n{t}", text::settings_line(&setup.settings));
        }
        t
    };
    write_stdout(|out| out.write_all(text.as_bytes()))?;
    match batch.failures.len() as u64 {
        0 => Ok(()),
        n => Err(CliError::Partial(format!(
            "{} {}; the summary covers the others",
            failed_of(n, count, "game", "could be made", "could not be made"),
            reported(n)
        ))),
    }
}

/// `--move-cap`: a whole number of moves from 1 to 1,000,000.
fn parse_move_cap(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n @ 1..=1_000_000) => Ok(n),
        Ok(n) => Err(format!("{n} is not between 1 and 1,000,000 moves")),
        Err(_) => Err(format!("{text:?} is not a whole number of moves")),
    }
}

/// Reports each failure of a batch on stderr, then how many more there were than listed.
fn report_failures(messages: impl ExactSizeIterator<Item = String>, failed: u64, noun: &str) {
    let listed = messages.len() as u64;
    for message in messages {
        eprintln!("byog: error: {message}");
    }
    if failed > listed {
        eprintln!("byog: error: and {} more", plural(failed - listed, noun));
    }
}

/// Prints a batch's summary, headed by the generator's parameters: JSON with them under
/// `generator`, or a `generator:` line above the table.
fn print_batch(
    json: bool,
    settings: &byog_worlds::generator::GeneratorSettings,
    json_value: impl FnOnce() -> serde_json::Value,
    table: impl FnOnce() -> String,
) -> Result<(), CliError> {
    let text = if json {
        let mut v = json_value();
        v["generator"] = json::settings_json(settings);
        format!("{v}\n")
    } else {
        format!("generator: {}\n{}", text::settings_line(settings), table())
    };
    write_stdout(|out| out.write_all(text.as_bytes()))
}
