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
/// branch, room and depth by the seed, and health, score and moves below. A hidden seed
/// (`seed_label`, e.g. "daily 2026-11-28") is named by its label instead.
pub fn hud(
    game: &GameState,
    seed_label: Option<&str>,
    under_mouse: Option<Pos>,
    message: &str,
) -> Hud {
    let seed = super::seed_name(game, seed_label);
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
            .map(|(p, t)| format!("{}{}", describe(game, p, t), click_cost(game, p)))
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
                format!("{seed} · {branch} · room {} depth {depth}", e.room()),
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
                format!("{seed} · B{}/{} · {progress}", run.floor, run.floors),
                format!("B{}/{} · {progress}", run.floor, run.floors),
                format!(
                    "health {}/{} · {} moves left · score {}",
                    run.health,
                    byog_game::run::START_HEALTH,
                    run.moves_left,
                    run.score,
                ),
            )
        }
        (None, None) => (
            seed,
            String::new(),
            format!("{} · {}", game.avatar(), moves_text(game.moves())),
        ),
    };
    // A run's and an exploration's bottom row ends with what `X` would cost; the short form
    // (a narrow window) leaves it out.
    let (bottom, bottom_short) = match (game.run(), game.explore()) {
        (None, None) => (bottom, String::new()),
        _ => (format!("{bottom}{}", explore_cost(game)), bottom),
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
                right_short: bottom_short,
            },
        ],
    }
}

/// What a click on tile `p` will cost, before the walk starts
/// ([`byog_game::travel::preview`]): in a run ` · walk 14 steps → 166 left` (the moves left
/// once it arrives, what the features on the way pay counted), in an exploration
/// ` · walk 14 steps` and what the clock takes on the way (` (clock -6)`); nothing in a
/// classic game, on the avatar's tile, where no known way leads, or with a hunting monster
/// beside the avatar (no walk starts then: `preview`'s error).
fn click_cost(game: &GameState, p: Pos) -> String {
    use byog_game::travel::{Goal, preview};
    let playing = game.run().is_some() || game.explore().is_some();
    if !playing || game.has_ended() || p == game.avatar() {
        return String::new();
    }
    match preview(game, Goal::tile(game, p)) {
        Ok(w) => cost_text(game, "walk", &w),
        Err(_) => String::new(),
    }
}

/// What `X` will cost, before it starts ([`byog_game::travel::preview`]), its leg as planned
/// now. In a run ` · X 14 steps → 166 left`: it walks no more steps than that, never past
/// the point where the exit, or the nearest feature that pays, stops fitting the moves
/// left. In an exploration ` · X 252 steps (clock -49)`: the leg to the unexplored exit it
/// heads for, and the points the clock takes on it (it walks no further: rules version 9).
/// Nothing when `X` would not start (nothing to find, no known way, a
/// hunting monster beside the avatar: `preview`'s error).
fn explore_cost(game: &GameState) -> String {
    use byog_game::travel::{Goal, preview};
    if game.has_ended() {
        return String::new();
    }
    match preview(game, Goal::Explore) {
        Ok(w) => cost_text(game, "X", &w),
        Err(_) => String::new(),
    }
}

/// ` · {what} 14 steps → 166 left` for a previewed walk in a run; in an exploration
/// ` · {what} 252 steps (clock -49)`, the points the clock takes on the way from those
/// carried now ([`byog_game::travel::carried_at_the_end`]), or ` · {what} 14 steps` when
/// it takes none.
fn cost_text(game: &GameState, what: &str, w: &byog_game::travel::Preview) -> String {
    let steps = steps_text(u32::try_from(w.route.steps.len()).unwrap_or(u32::MAX));
    let taken = game
        .score()
        .zip(byog_game::travel::carried_at_the_end(game, &w.route))
        .map_or(0, |(now, after)| now.saturating_sub(after));
    match w.left_after {
        Some(left) => format!(" · {what} {steps} → {left} left"),
        None if taken > 0 => format!(" · {what} {steps} (clock -{taken})"),
        None => format!(" · {what} {steps}"),
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

/// A run's progress on its floor for the HUD: `chests 2/4 (+24) · traps 1/2 (+8)` (handled /
/// on the floor, and the moves one more pays the first time it is handled,
/// [`byog_game::run::feature_moves`]), then the exit's ways once it was seen
/// ([`byog_game::travel::exit_ways`]: `exit 189 away`, or `exit 189 · 107 through 2 traps`
/// when a way through armed traps the health allows is shorter; `exit seen` while no seen way
/// leads there). When the exit is beyond the moves left (the shortest way in that crosses
/// armed traps at most health − 1 times, [`byog_game::run::route::Router::escape`]): `the exit
/// needs 120 moves: handle a feature first` while features that still pay bring it back in
/// reach (as the solver would take them), else the warning `OUT OF REACH`
/// (the run can no longer be won). Before the exit is seen the warnings give no number (`the
/// exit is beyond your moves`): the HUD never says how far an unseen exit lies.
///
/// Remembered for the last few states asked (a frame is asked for on every pointer move,
/// and both searches cover the floor).
pub fn run_progress(game: &GameState) -> String {
    let Some(run) = game.run() else {
        return String::new();
    };
    let key = ProgressKey {
        seed: game.seed(),
        floor: run.floor,
        size: (game.terrain().width(), game.terrain().height()),
        moves: game.moves(),
        avatar: game.avatar(),
        health: run.health,
        moves_left: run.moves_left,
        features: game
            .features()
            .iter()
            .map(|f| (f.pos, f.kind as u8, f.handled, f.paid))
            .collect(),
        ended: game.has_ended(),
    };
    PROGRESS.with(|memo| {
        let mut memo = memo.borrow_mut();
        if let Some((_, text)) = memo.iter().find(|(k, _)| *k == key) {
            return text.clone();
        }
        let text = progress_text(game, run);
        if memo.len() == PROGRESS_MEMO {
            memo.pop_front();
        }
        memo.push_back((key, text.clone()));
        text
    })
}

/// How many states [`run_progress`] remembers on a thread (a web server's thread plays many
/// games in turn).
const PROGRESS_MEMO: usize = 16;

/// What [`run_progress`]'s text depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ProgressKey {
    seed: u64,
    floor: u32,
    size: (usize, usize),
    moves: u64,
    avatar: Pos,
    health: u32,
    moves_left: u64,
    features: Vec<(Pos, u8, bool, bool)>,
    ended: bool,
}

thread_local! {
    static PROGRESS: std::cell::RefCell<std::collections::VecDeque<(ProgressKey, String)>> =
        const { std::cell::RefCell::new(std::collections::VecDeque::new()) };
}

/// [`run_progress`]'s text, computed.
fn progress_text(game: &GameState, run: &byog_game::run::RunState) -> String {
    use byog_game::run::FeatureKind;
    let features = game.features();
    let count = |kind, handled: bool| {
        features
            .iter()
            .filter(|f| f.kind == kind && (!handled || f.handled))
            .count()
    };
    let weights = byog_game::run::weights(&features);
    let pays = |kind| byog_game::run::feature_moves(&run.info, weights, kind);
    let mut text = format!(
        "chests {}/{} (+{}) · traps {}/{} (+{})",
        count(FeatureKind::Chest, true),
        count(FeatureKind::Chest, false),
        pays(FeatureKind::Chest),
        count(FeatureKind::Trap, true),
        count(FeatureKind::Trap, false),
        pays(FeatureKind::Trap)
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
    // The number is the floor's, unseen tiles included: said only once the exit was seen,
    // so that the HUD never tells how far an unseen exit lies.
    let seen = game.has_seen(game.exit());
    if let Some(n) = needed.filter(|&n| n > run.moves_left)
        && a_feature_brings_the_exit_back(game, run)
    {
        text.push_str(&if seen {
            format!(" · the exit needs {n} moves: handle a feature first")
        } else {
            " · the exit is beyond your moves: handle a feature first".to_owned()
        });
        return text;
    }
    if needed.is_none_or(|n| n > run.moves_left) {
        text.push_str(&match needed {
            Some(n) if seen => format!(" · OUT OF REACH: the exit needs {n} moves"),
            Some(_) => " · OUT OF REACH: the exit is beyond your moves".to_owned(),
            None => " · OUT OF REACH: no way to the exit".to_owned(),
        });
        return text;
    }
    if let Some(ways) = byog_game::travel::exit_ways(game) {
        text.push_str(&exit_ways_text(ways));
    }
    text
}

/// Whether handling features first still brings the exit within the moves left, as the
/// solver plays it (`byog solve`): some first part of its tour of the features not handled
/// then the exit fits, or one feature that still pays, taken first, pays enough for the walk
/// from it into the exit ([`byog_game::run::route::Router::fits`]). Since rules version 4 a
/// feature pays the same moves however far off it stands, so one within reach may not.
fn a_feature_brings_the_exit_back(game: &GameState, run: &byog_game::run::RunState) -> bool {
    use byog_game::run::route::{Plan, Router};
    let features = game.features();
    let router = Router::new(game.terrain(), &features, game.avatar(), game.exit(), false);
    let pays = byog_game::run::unhandled_pays(&run.info, &features);
    let plan = router.plan();
    let left = run.moves_left;
    (0..plan.cost.len()).any(|j| router.fits(&plan, j, left, &pays))
        || (0..pays.len()).any(|t| {
            let one = Plan {
                order: vec![t],
                cost: Vec::new(),
            };
            router.fits(&one, 1, left, &pays)
        })
}

/// The exit's ways for the HUD: ` · exit 189 away`, ` · exit 189 · 107 through 2 traps`,
/// ` · exit 107 through 1 trap` (no way round), ` · exit seen` (no seen way).
pub fn exit_ways_text(ways: byog_game::travel::ExitWays) -> String {
    let through = |w: byog_game::travel::Way| {
        format!(
            "{} through {}",
            w.steps,
            if w.traps == 1 {
                "1 trap".to_owned()
            } else {
                format!("{} traps", w.traps)
            }
        )
    };
    match (ways.around, ways.through) {
        (Some(a), None) => format!(" · exit {} away", a.steps),
        (Some(a), Some(t)) => format!(" · exit {} · {}", a.steps, through(t)),
        (None, Some(t)) => format!(" · exit {}", through(t)),
        (None, None) => " · exit seen".to_owned(),
    }
}

/// The keys of a watch, for its HUD.
pub const WATCH_KEYS: &str =
    "Space pause · . step · { } speed · [ ] 100 steps · Home End · Esc leave";

/// The HUD while watching a save: the tile under the mouse and the game's seed (and floor)
/// on the top row; the message (or the watch's keys) and where playback stands below.
pub fn watch_hud(watch: &Watch, under_mouse: Option<Pos>, message: &str) -> Option<Hud> {
    let game = watch.game()?;
    let mut hud = hud(game, None, under_mouse, message);
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

#[cfg(test)]
mod tests {
    use super::{exit_ways_text, hud};
    use byog_game::GameState;
    use byog_game::travel::{ExitWays, Goal, Stop, Way, preview, walk};
    use byog_tile_engine::{Map, Pos};

    /// A run's HUD says what `X` and a click will cost before they start: the steps and the
    /// moves left after them, which the walk then takes and leaves (`X` walks one leg in a
    /// run: its figure is the walk's whenever the walk arrives, stopped by nothing seen).
    /// The walks are the interpreter's (`walk`), an oracle apart from `preview`.
    #[test]
    fn a_run_s_hud_shows_a_walk_s_cost_before_it_starts() {
        let settings = byog_worlds::generator::GeneratorSettings::default();
        let (mut clicks, mut xs, mut legs) = (0, 0, 0);
        for seed in 0..6 {
            let mut game = GameState::new_run(seed, 80, 30, settings, 10).unwrap();
            for _ in 0..8 {
                let left = game.run().unwrap().moves_left;
                let bottom = hud(&game, None, None, "").rows[1].right.clone();
                if let Some((_, x)) = bottom.split_once(" · X ") {
                    let (steps, after) = x
                        .split_once(" steps → ")
                        .unwrap_or_else(|| x.split_once(" step → ").expect(&bottom));
                    let steps: usize = steps.parse().unwrap();
                    let after: u64 = after.trim_end_matches(" left").parse().unwrap();
                    // The first leg the walk plans now, and the moves left after it.
                    let p = preview(&game, Goal::Explore).unwrap();
                    assert_eq!((steps, Some(after)), (p.route.steps.len(), p.left_after));
                    assert!(after + steps as u64 >= left, "{bottom}");
                    xs += 1;
                }
                // A click on a seen floor tile: the figure under the pointer is the walk's.
                let target = (0..game.rect().width)
                    .flat_map(|x| (0..game.rect().height).map(move |y| Pos::new(x, y)))
                    .rfind(|&p| game.has_seen(p) && game.is_walkable(p) && p != game.avatar());
                if let Some(t) = target {
                    let top = hud(&game, None, Some(t), "").rows[0].left.clone();
                    let mut copy = game.clone();
                    let w = walk(&mut copy, Goal::tile(&game, t));
                    if w.stop == Stop::Arrived {
                        let said = format!(
                            " · walk {} → {} left",
                            super::steps_text(w.steps),
                            copy.run().unwrap().moves_left
                        );
                        assert!(top.ends_with(&said), "{top:?} vs {said:?}");
                        clicks += 1;
                    }
                }
                let shown = bottom.split_once(" · X ").map(|(_, x)| format!(" · X {x}"));
                let w = walk(&mut game, Goal::Explore);
                if w.stop == Stop::Arrived {
                    let said = format!(
                        " · X {} → {} left",
                        super::steps_text(w.steps),
                        game.run().unwrap().moves_left
                    );
                    assert_eq!(shown.as_deref(), Some(said.as_str()), "{bottom}");
                    legs += 1;
                }
                if w.steps == 0 || game.has_ended() {
                    break;
                }
            }
        }
        assert!(
            clicks >= 10 && xs >= 10 && legs >= 5,
            "{clicks} clicks, {xs} X, {legs} legs walked to their end"
        );
    }

    /// The default generator, and explorations without monsters (no fight stops a walk).
    fn quiet_exploration() -> (
        byog_worlds::generator::GeneratorSettings,
        byog_game::explore::ExploreSettings,
    ) {
        let quiet = byog_game::explore::ExploreSettings {
            monsters: false,
            ..byog_game::explore::ExploreSettings::default()
        };
        (byog_worlds::generator::GeneratorSettings::default(), quiet)
    }

    /// An exploration's HUD says what `X` will cost before it starts: the steps of its leg
    /// and the points the clock takes on it. The oracle is the rules: the leg's moves taken
    /// one by one on a copy of the game, their score's falls summed; and the walk `X` then
    /// takes, which goes no further than that leg.
    #[test]
    fn an_exploration_s_hud_shows_what_the_clock_takes_on_x_s_walk() {
        use byog_game::action::Action;
        let (settings, quiet) = quiet_exploration();
        let (mut checked, mut taken_some, mut free, mut arrived) = (0, 0, 0, 0);
        for seed in 0..8 {
            let mut game = GameState::new_exploration(seed, settings, quiet).unwrap();
            for _ in 0..30 {
                let bottom = hud(&game, None, None, "").rows[1].right.clone();
                let Some((_, x)) = bottom.split_once(" · X ") else {
                    break;
                };
                let (steps, clock) = match x.split_once(" (clock -") {
                    Some((steps, clock)) => (steps, clock.trim_end_matches(')').parse().unwrap()),
                    None => (x, 0u64),
                };
                let steps: usize = steps.split(' ').next().unwrap().parse().unwrap();
                let p = preview(&game, Goal::Explore).unwrap();
                assert_eq!(steps, p.route.steps.len(), "{bottom}");
                // The rules' own count: the score's falls over the leg's moves (a leg that
                // steps onto a paying feature is left out: its rise would hide a tick).
                let mut copy = game.clone();
                let (mut fell, mut rose) = (0, false);
                for &d in &p.route.steps {
                    let before = copy.score().unwrap();
                    copy.apply(Action::Move(d));
                    let after = copy.score().unwrap();
                    fell += before.saturating_sub(after);
                    rose |= after > before;
                }
                if !rose {
                    assert_eq!(clock, fell, "seed {seed}: {bottom}");
                    checked += 1;
                    if clock > 0 {
                        taken_some += 1;
                    } else {
                        free += 1;
                    }
                }
                // `X` walks that leg and no further (rules version 9): a walk that arrives,
                // stopped by nothing it saw, took the steps shown, and the clock what it
                // said. The walk is the interpreter's (`walk`), an oracle apart from
                // `preview`.
                let score = game.score().unwrap();
                let w = walk(&mut game, Goal::Explore);
                if w.stop == Stop::Arrived {
                    assert_eq!(w.steps as usize, steps, "seed {seed}: {bottom}");
                    if !rose {
                        assert_eq!(
                            score - game.score().unwrap(),
                            clock,
                            "seed {seed}: {bottom}"
                        );
                    }
                    arrived += 1;
                }
                if game.has_ended() {
                    break;
                }
            }
        }
        assert!(
            checked >= 40 && taken_some >= 5 && free >= 5 && arrived >= 10,
            "{checked} legs checked: {taken_some} with the clock's cost, {free} without; \
             {arrived} walked to their end"
        );
    }

    /// No walk starts with a hunting monster beside the avatar, so the HUD offers none: the
    /// `X` cost and the click's are gone while a goblin stands beside it (seen playing
    /// `E77S`: `X 6 steps` beside a rat, and `X` refused).
    #[test]
    fn no_walk_s_cost_is_shown_while_a_monster_is_beside_the_avatar() {
        use byog_game::action::Action;
        use byog_game::explore::MonsterKind;
        let (settings, quiet) = quiet_exploration();
        let mut game = GameState::new_exploration(3, settings, quiet).unwrap();
        for _ in 0..13 {
            game.apply(Action::Move(byog_tile_engine::Direction::Up));
        }
        let a = game.avatar();
        let click = Pos::new(a.x, a.y - 2);
        let shown = |game: &GameState| {
            let h = hud(game, None, Some(click), "");
            (h.rows[1].right.clone(), h.rows[0].left.clone())
        };
        let (bottom, under) = shown(&game);
        assert!(bottom.contains(" · X "), "{bottom}");
        assert!(under.contains(" · walk "), "{under}");
        let e = game.explore_mut().unwrap();
        let at = e.avatar();
        e.add_monsters(&[(Pos::new(at.x + 1, at.y), MonsterKind::Goblin)])
            .unwrap();
        let (bottom, under) = shown(&game);
        assert!(!bottom.contains(" · X "), "{bottom}");
        assert!(!under.contains(" · walk "), "{under}");
    }

    #[test]
    fn the_exit_s_ways_read_as_the_player_chooses_between_them() {
        let way = |steps, traps| Some(Way { steps, traps });
        let text = |around, through| exit_ways_text(ExitWays { around, through });
        assert_eq!(text(way(12, 0), None), " · exit 12 away");
        assert_eq!(
            text(way(189, 0), way(107, 2)),
            " · exit 189 · 107 through 2 traps"
        );
        assert_eq!(text(None, way(40, 1)), " · exit 40 through 1 trap");
        assert_eq!(text(None, None), " · exit seen");
    }
}
