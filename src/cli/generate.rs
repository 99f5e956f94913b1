//! `byog gen`: prints the world(s) `N<seed>S` starts, as text, a debug view, JSON or a PNG.
//! A batch prints every world that can be made, in seed order, reports each seed that cannot
//! (its requirements unmet) on stderr, and exits 2 at the end if any failed.

use std::path::PathBuf;

use clap::Args;
use rayon::prelude::*;

use super::args::{
    Common, EXPLORE_FLAGS, FLOORS_FLAGS, SeedRange, parse_seed, parse_seed_range, parse_threads,
    seeds, thread_pool,
};
use super::errors;
use super::progress::progress_bar;
use super::views::{self, DebugView};
use super::{
    CliError, Color, Format, failed_of, format_of, reported, seed_failure, value_name, write_stdout,
};
use byog_catalog::Catalog;
use byog_game::GameState;
use byog_raster as raster;
use byog_tile_engine::Geometry;
use byog_worlds::generator::{self, GeneratorSettings, RoomRect};

/// Most seeds one `gen --seeds` run accepts.
const MAX_SEEDS_PER_RUN: u64 = 10_000_000;
/// Seeds generated in parallel before they are printed in order.
const CHUNK: u64 = 1024;

/// `gen`'s own flags.
#[derive(Debug, Clone, Args)]
pub struct GenArgs {
    /// One seed, 0..=9223372036854775807.
    #[arg(long, value_name = "N", value_parser = parse_seed, conflicts_with = "seeds",
          required_unless_present = "seeds", allow_hyphen_values = true)]
    seed: Option<u64>,
    /// A range of seeds: A..B (B excluded) or A..=B (B included), at most 10,000,000.
    #[arg(long, value_name = "RANGE", value_parser = parse_seed_range, allow_hyphen_values = true)]
    seeds: Option<SeedRange>,
    /// Output format: text (the world, or --view), json (one object a line: seed, width,
    /// height, avatar and exit as [x, y], rooms, rows), none (generate only, for timing).
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: Option<Format>,
    /// Short for --format json.
    #[arg(long)]
    json: bool,
    /// What the text shows: the world, or a debug view of it (text only).
    #[arg(long, value_enum)]
    view: Option<DebugView>,
    /// Colour the text with ANSI escapes: auto (a terminal, unless NO_COLOR is set), always,
    /// never.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Also draw the world as a PNG (16 pixels a tile, as the window draws it); one seed only.
    #[arg(long, value_name = "PATH", conflicts_with = "seeds")]
    png: Option<PathBuf>,
    /// How --png draws walls: java (`#`, the default) or box (joined lines); the text always
    /// prints `#`.
    #[arg(long, value_enum, value_name = "STYLE", default_value_t = super::Walls::Java)]
    walls: super::Walls,
    /// Threads for --seeds (0: one per core; at most 256).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_threads,
          allow_negative_numbers = true)]
    threads: usize,
    /// A seed catalog (SQLite, created when missing): remembered seeds start at the try that
    /// met the requirements; the worlds are the same.
    #[arg(long, value_name = "FILE")]
    catalog: Option<PathBuf>,
}

/// A world as `gen` makes it: the game `N<seed>S` starts and the rooms the generator carved.
struct Made {
    game: GameState,
    rooms: Vec<RoomRect>,
}

fn make(
    seed: u64,
    common: &Common,
    settings: GeneratorSettings,
    catalog: Option<&Catalog>,
) -> Result<Made, String> {
    let (w, h) = (common.width, common.height);
    let g = match catalog {
        Some(c) => generator::generate_for_seed_with(seed, w, h, &settings, &mut c.seed(seed)),
        None => generator::generate_for_seed(seed, w, h, &settings),
    }
    .map_err(|e| errors::generate(&e))?;
    let rooms = g.level.rooms.clone();
    Ok(Made {
        game: GameState::from_generated(seed, settings, g),
        rooms,
    })
}

/// Runs `gen`.
pub fn execute(common: &Common, args: GenArgs) -> Result<(), CliError> {
    common.ignored(
        FLOORS_FLAGS,
        "gen makes the worlds N<seed>S starts; floors are for runs",
    );
    common.ignored(
        EXPLORE_FLAGS,
        "gen makes the worlds N<seed>S starts; it is for explorations",
    );
    let (range, many) = seeds(args.seed, args.seeds)?;
    let format = format_of(args.format, args.json);
    if let Some(view) = args.view.filter(|&v| v != DebugView::Plain) {
        if format != Format::Text {
            return Err(CliError::Usage(format!(
                "--view {} draws text; it does not go with --format {}",
                value_name(view),
                value_name(format)
            )));
        }
        if args.png.is_some() {
            return Err(CliError::Usage(format!(
                "--png draws the world itself; it does not go with --view {}",
                value_name(view)
            )));
        }
    }
    let count = range.count();
    if count > MAX_SEEDS_PER_RUN {
        return Err(CliError::Usage(format!(
            "{count} seeds is more than one run makes ({MAX_SEEDS_PER_RUN}); split the range"
        )));
    }
    let settings = common.settings();
    let view = args.view.unwrap_or(DebugView::Plain);
    let color = args.color.enabled();
    let render = |made: &Made| -> String {
        match format {
            Format::Text => {
                let game = &made.game;
                let world = views::render(&game.world(), game.avatar(), game.exit(), view, color);
                if many {
                    format!("# seed {}\n{world}", game.seed())
                } else {
                    world
                }
            }
            Format::Json => format!("{}\n", world_json(made)),
            Format::None => String::new(),
        }
    };
    if let Some(path) = &args.png {
        // Checked before generating, which can take long at the largest sizes: the size, and
        // what stands at the path (a FIFO, a device, a folder or a link byog does not follow
        // is refused before anything is opened).
        check_png_size(common.width, common.height, path)?;
        byog_tile_engine::files::write_target(path).map_err(|refusal| {
            CliError::Usage(
                raster::RasterError {
                    path: path.clone(),
                    reason: refusal.into(),
                }
                .to_string(),
            )
        })?;
        let notice = super::progress::Notice::after("making the world");
        let made = make(range.first, common, settings, None).map_err(CliError::Usage);
        drop(notice);
        let made = made?;
        let mut world = made.game.world();
        if settings.generator == generator::GeneratorKind::LootQuest {
            world = views::with_critical_path_marked(&world, made.game.avatar(), made.game.exit());
        }
        let geometry = Geometry::new(world.width() as u32, world.height() as u32);
        raster::write_png_styled(&world, geometry, args.walls.style(), path)
            .map_err(|e| CliError::Usage(e.to_string()))?;
    }
    let pool = thread_pool(args.threads, count)?;
    let catalog = super::catalog::open(args.catalog.as_deref(), common, &settings);
    let bar = progress_bar(count);
    // One world at the largest sizes takes seconds: say so (a batch has its bar).
    let mut notice = (count == 1).then(|| super::progress::Notice::after("making the world"));
    let mut failed = 0u64;
    let mut single_failure = None;
    let mut first = range.first;
    loop {
        let last = range.last.min(first.saturating_add(CHUNK - 1));
        let work = || -> Vec<Result<String, String>> {
            (first..=last)
                .into_par_iter()
                .map(|seed| make(seed, common, settings, catalog.as_ref()).map(|m| render(&m)))
                .collect()
        };
        let texts = match &pool {
            Some(pool) => pool.install(work),
            None => work(),
        };
        drop(notice.take());
        write_stdout(|out| {
            for (seed, text) in (first..=last).zip(&texts) {
                match text {
                    Ok(t) => out.write_all(t.as_bytes())?,
                    Err(e) if many => {
                        // Flush what came before, so the report lands between its neighbours.
                        out.flush()?;
                        eprintln!("byog: error: {}", seed_failure(seed, e));
                    }
                    Err(e) => single_failure = Some(e.clone()),
                }
            }
            Ok(())
        })?;
        failed += texts.iter().filter(|t| t.is_err()).count() as u64;
        bar.inc(last - first + 1);
        if last == range.last {
            bar.finish_and_clear();
            break;
        }
        first = last + 1;
    }
    super::catalog::finish(catalog);
    if let Some(e) = single_failure {
        return Err(CliError::Usage(e));
    }
    match failed {
        0 => Ok(()),
        n => {
            let rest = match count - n {
                0 => "nothing was printed".to_owned(),
                1 => "the other one was printed".to_owned(),
                m => format!("the other {m} were printed"),
            };
            Err(CliError::Partial(format!(
                "{} {}; {rest}",
                failed_of(n, count, "seed", "could be made", "could not be made"),
                reported(n)
            )))
        }
    }
}

/// Refuses a `--png` of a world whose picture would be larger than the rasteriser draws
/// ([`raster::MAX_PIXELS`]), before any world is made.
///
/// # Errors
/// [`CliError::Usage`] with the rasteriser's own message, naming the file.
fn check_png_size(width: usize, height: usize, path: &std::path::Path) -> Result<(), CliError> {
    let side = u64::from(byog_tile_engine::TILE_SIZE);
    let (w, h) = (width as u64 * side, height as u64 * side);
    if w.saturating_mul(h) <= raster::MAX_PIXELS {
        return Ok(());
    }
    let e = raster::RasterError {
        path: path.to_path_buf(),
        reason: raster::RasterReason::TooLarge {
            width: w,
            height: h,
        },
    };
    Err(CliError::Usage(e.to_string()))
}

/// The JSON object `gen --format json` prints for a world: `seed`, `width`, `height`,
/// `avatar` and `exit` as `[x, y]` (y up, as `replay --json` gives them), `rooms` (`{"x",
/// "y", "width", "height"}`, `(x, y)` the bottom-left tile) and `rows` (top row first).
fn world_json(made: &Made) -> serde_json::Value {
    let game = &made.game;
    let world = game.world();
    let text = world.to_string();
    let rooms: Vec<serde_json::Value> = made
        .rooms
        .iter()
        .map(|r| serde_json::json!({ "x": r.x, "y": r.y, "width": r.width, "height": r.height }))
        .collect();
    serde_json::json!({
        "seed": game.seed(),
        "width": world.width(),
        "height": world.height(),
        "avatar": [game.avatar().x, game.avatar().y],
        "exit": [game.exit().x, game.exit().y],
        "rooms": rooms,
        "rows": text.lines().collect::<Vec<_>>(),
    })
}
