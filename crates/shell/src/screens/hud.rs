//! The HUD above the world: the tile under the pointer, the seed and the game's progress,
//! the last message and the status; the watch's HUD.

use byog_game::GameState;
use byog_game::explore::MonsterKind;
use byog_game::watch::Watch;
use byog_tile_engine::{Pos, Tile};

use super::{Hud, HudRow, Style, moves_text, plural};

/// The HUD of a game in play: the tile under the mouse and the seed on the top row, the
/// last message and the avatar's position and moves below it. A run shows its floor
/// (B3/10) by the seed, and health, moves left and score below. An exploration shows its
/// branch, room and depth by the seed, and health, score and moves below.
pub fn hud(game: &GameState, under_mouse: Option<Pos>, message: &str) -> Hud {
    let described = match under_mouse.and_then(|p| game.monster_in_sight(p)) {
        Some(m) => format!(
            "{} · {}/{} health · {}",
            m.kind.name(),
            m.health,
            m.kind.stats().health,
            m.state.as_str()
        ),
        None => under_mouse
            .and_then(|p| Some((p, game.tile_at(p)?)))
            .filter(|(_, t)| MonsterKind::of_tile(*t).is_none())
            .map(|(p, t)| describe(game, p, t))
            .unwrap_or_default(),
    };
    let (top, short, bottom) = match (game.run(), game.explore()) {
        (_, Some(e)) => {
            let branch = e.branch().map_or_else(
                || "start room".to_owned(),
                |b| format!("branch {b}{}", branch_timer(game, e, b)),
            );
            let depth = byog_game::explore::depth(e.room());
            (
                format!(
                    "seed {} · {branch} · room {} depth {depth}",
                    game.seed(),
                    e.room()
                ),
                format!("depth {depth} · room {} · {branch}", e.room()),
                format!(
                    "health {}/{}{} · score {} · {}",
                    e.health(),
                    byog_game::run::START_HEALTH,
                    if e.encounters().enabled {
                        format!(" · potions {}", e.potions())
                    } else {
                        String::new()
                    },
                    e.score(),
                    moves_text(game.moves())
                ),
            )
        }
        (Some(run), _) => {
            let progress = run_progress(game);
            (
                format!(
                    "seed {} · B{}/{} · {progress}",
                    game.seed(),
                    run.floor,
                    run.floors
                ),
                format!("B{}/{} · {progress}", run.floor, run.floors),
                format!(
                    "health {}/{} · {} moves left · score {}",
                    run.health,
                    byog_game::run::START_HEALTH,
                    run.moves_left,
                    run.score
                ),
            )
        }
        (None, None) => (
            format!("seed {}", game.seed()),
            String::new(),
            format!("{} · {}", game.avatar(), moves_text(game.moves())),
        ),
    };
    Hud {
        rows: [
            HudRow {
                left: described,
                left_style: Style::Normal,
                right: top,
                right_short: short,
            },
            HudRow {
                left: message.to_owned(),
                left_style: Style::Message,
                right: bottom,
                right_short: String::new(),
            },
        ],
    }
}

/// The tile under the mouse in words; an exploration's exit also says the depth of the room
/// it leads into (`unexplored exit: to a depth-4 room`).
fn describe(game: &GameState, p: Pos, tile: Tile) -> String {
    let words = tile.tetile().description().to_owned();
    match exit_depth(game, p, tile) {
        Some(depth) if game.has_seen(p) => format!("{words}: to a depth-{depth} room"),
        _ => words,
    }
}

/// The depth of the room an exploration's exit at world tile `p` (showing `tile`) leads
/// into: for an exit tile (unexplored, locked or one-way) on the edge of its room's plot;
/// `None` for anything else, and outside explorations.
pub fn exit_depth(game: &GameState, p: Pos, tile: Tile) -> Option<u32> {
    use byog_game::explore::plot::{edge, in_plot, plot_of};
    game.explore()?;
    let exit_tile = matches!(
        tile,
        Tile::ExitUnexplored
            | Tile::LockedDoor
            | Tile::OneWayUp
            | Tile::OneWayRight
            | Tile::OneWayDown
            | Tile::OneWayLeft
    );
    if !exit_tile {
        return None;
    }
    let o = game.origin();
    let at = Pos::new(p.x + o.x, p.y + o.y);
    let side = byog_tile_engine::Direction::ALL
        .into_iter()
        .find(|&d| edge(d) == in_plot(at))?;
    Some(byog_game::explore::depth(plot_of(at).step(side)))
}

/// ` (new door in 240 moves)`: the moves left before branch `b`'s timer runs out and its
/// start exit leads into a new branch; ` (retired)` once it has.
fn branch_timer(
    game: &GameState,
    e: &byog_game::explore::ExploreState,
    b: byog_game::explore::BranchId,
) -> String {
    let dungeon = e.dungeon();
    let Some(branch) = dungeon.branch(b) else {
        return String::new();
    };
    if branch.retired() {
        return " (retired)".to_owned();
    }
    let timer = dungeon.settings().branch_timer;
    let left = (branch.made_at() + timer).saturating_sub(game.moves());
    format!(" (timer {left})")
}

/// A run's progress on its floor for the HUD: `chests 2/4 · traps 1/2` (handled / on the
/// floor), then the exit's distance once it was seen (steps over the tiles seen, armed traps
/// avoided; `exit seen` while no seen way leads there), or, when the exit is out of reach
/// with the moves left (the solver's exact test: the shortest way in that crosses armed
/// traps at most health − 1 times, [`byog_game::run::route::Router::escape`]), a warning.
pub fn run_progress(game: &GameState) -> String {
    use byog_game::run::FeatureKind;
    let Some(run) = game.run() else {
        return String::new();
    };
    let features = game.features();
    let count = |kind, handled: bool| {
        features
            .iter()
            .filter(|f| f.kind == kind && (!handled || f.handled))
            .count()
    };
    let mut text = format!(
        "chests {}/{} · traps {}/{}",
        count(FeatureKind::Chest, true),
        count(FeatureKind::Chest, false),
        count(FeatureKind::Trap, true),
        count(FeatureKind::Trap, false)
    );
    if game.has_ended() {
        return text;
    }
    let traps: Vec<_> = features
        .iter()
        .filter(|f| f.kind == FeatureKind::Trap)
        .copied()
        .collect();
    let router = byog_game::run::route::Router::new(
        game.terrain(),
        &traps,
        game.avatar(),
        game.exit(),
        false,
    );
    let needed = router
        .escape(run.health.saturating_sub(1))
        .map(|m| m.len() as u64);
    if needed.is_none_or(|n| n > run.moves_left) {
        text.push_str(&match needed {
            Some(n) => format!(" · OUT OF REACH: the exit needs {n} moves"),
            None => " · OUT OF REACH: no way to the exit".to_owned(),
        });
        return text;
    }
    let exit = game.exit();
    if game.has_seen(exit) {
        text.push_str(&match seen_steps_to_exit(game) {
            Some(n) => format!(" · exit {n} away"),
            None => " · exit seen".to_owned(),
        });
    }
    text
}

/// Steps from the avatar into the exit over the tiles seen, armed traps avoided.
fn seen_steps_to_exit(game: &GameState) -> Option<u64> {
    use byog_tile_engine::search::{Grid, UNREACHED, bfs};
    let view = game.compose_seen(game.rect());
    let (grid, mut open) = Grid::walkable_mask(&view);
    for (k, &t) in view.tiles().iter().enumerate() {
        if t == Tile::TrapArmed {
            open[(k / view.width() + 1) * grid.width + k % view.width() + 1] = false;
        }
    }
    let mut dist = vec![UNREACHED; grid.len()];
    bfs(grid, &open, &[grid.index(game.avatar())?], &mut dist);
    grid.neighbours(grid.index(game.exit())?)
        .into_iter()
        .filter(|&n| dist[n] != UNREACHED)
        .map(|n| u64::from(dist[n]) + 1)
        .min()
}

/// The keys of a watch, for its HUD.
pub const WATCH_KEYS: &str =
    "Space pause · . step · { } speed · [ ] 100 steps · Home End · Esc leave";

/// The HUD while watching a save: the tile under the mouse and the game's seed (and floor)
/// on the top row; the message (or the watch's keys) and where playback stands below.
pub fn watch_hud(watch: &Watch, under_mouse: Option<Pos>, message: &str) -> Option<Hud> {
    let game = watch.game()?;
    let mut hud = hud(game, under_mouse, message);
    let (step, total) = (watch.step_count(), watch.total_steps());
    hud.rows[0].right = format!("watching · {}", hud.rows[0].right);
    if !hud.rows[0].right_short.is_empty() {
        hud.rows[0].right_short = format!("watching · {}", hud.rows[0].right_short);
    }
    hud.rows[1].right = if watch.is_done() {
        format!("end of the save · step {step}/{total}")
    } else if watch.is_paused() {
        format!("paused · step {step}/{total}")
    } else {
        format!(
            "step {step}/{total} · {} a second",
            steps_text(watch.speed())
        )
    };
    if message.is_empty() {
        hud.rows[1].left = WATCH_KEYS.to_owned();
        hud.rows[1].left_style = Style::Hint;
    }
    Some(hud)
}

/// "1 step", "8 steps".
pub(super) fn steps_text(n: u32) -> String {
    plural(u64::from(n), "step", "steps")
}
