//! The screens every front-end shows, as text and styles, made in one place: the menu, the
//! seed prompt, the HUD above the world, the end screens and the messages a player reads
//! ("blocked by a wall", never an input position). The window lays these out in pixels, the
//! terminal in character cells; neither writes a word of its own.
//!
//! Nothing here draws or reads a key: [`screen`] turns the interpreter's state (plus what
//! only a front-end knows: whether a save exists, the last message, the tile under the
//! mouse) into a [`Screen`], and [`feedback`] turns what a key did into the message shown.

use std::path::Path;

use byog_game::explore::MonsterKind;
use byog_game::interpreter::{Closing, GameKind, Interpreter, Outcome, Phase};
use byog_game::rules::Event;
use byog_game::save::SaveStore;
use byog_game::watch::Watch;
use byog_game::{GameState, LevelStatus};
use byog_tile_engine::{Geometry, Pos, Rgb, Tile};

/// The key that shows the help screen of the current mode (a view key).
pub const HELP_KEY: char = '?';
/// The key that shows the message log (a view key).
pub const LOG_KEY: char = 'P';
/// Messages the log keeps, oldest dropped first.
pub const LOG_LENGTH: usize = 100;
/// Lines of the log shown at once.
pub const LOG_PAGE: usize = 15;

/// The HUD rows' background colour.
pub const HUD_BACKGROUND: Rgb = Rgb::new(24, 24, 32);

impl Style {
    /// The style's text colour, the same in every front-end: white, grey (dim text and
    /// hints) or yellow (what is typed, messages).
    pub fn color(self) -> Rgb {
        match self {
            Style::Title | Style::Heading | Style::Normal => Rgb::new(255, 255, 255),
            Style::Dim | Style::Hint => Rgb::new(128, 128, 128),
            Style::Input | Style::Message => Rgb::new(255, 200, 0),
            Style::Glyph(tile) => tile.tetile().text_color(),
        }
    }
}

/// Rows of HUD above the world, in tiles (cells).
pub const HUD_ROWS: usize = 2;

/// Smallest window width, in cells (16 pixels at scale 1): the menu's widest line fits.
pub const MIN_COLS: u32 = 48;
/// Smallest window height, in cells, HUD included.
pub const MIN_ROWS: u32 = 24;
/// The window's geometry for a world of `width × height` tiles: at least [`MIN_COLS`] ×
/// [`MIN_ROWS`] cells, the world centred across and below the HUD's rows, which are the top
/// [`HUD_ROWS`] rows. For a world at least that large the world sits at cell `(0, 0)`.
pub fn window_geometry(width: usize, height: usize) -> Geometry {
    framed_geometry(width, height, width, height)
}

/// The window's geometry for a `width × height` world shown in a frame sized for a
/// `frame_width × frame_height` world (a run's floors grow up to `--width × --height`; the
/// window keeps the largest floor's size and centres each floor in it).
pub fn framed_geometry(
    frame_width: usize,
    frame_height: usize,
    width: usize,
    height: usize,
) -> Geometry {
    let cols = (frame_width.max(width) as u32).max(MIN_COLS);
    let rows = (frame_height.max(height) as u32 + HUD_ROWS as u32).max(MIN_ROWS);
    let x_offset = (cols - width as u32) / 2;
    let y_offset = (rows - HUD_ROWS as u32 - height as u32) / 2;
    Geometry::with_offset(cols, rows, x_offset as i32, y_offset as i32)
}

/// The window geometry for a game: its world, in a frame of its run's largest floor.
pub fn game_geometry(game: &GameState) -> Geometry {
    let world = game.rect();
    let (w, h) = (world.width as usize, world.height as usize);
    let (fw, fh) = game
        .run()
        .map_or((w, h), |r| (r.max_width as usize, r.max_height as usize));
    framed_geometry(fw, fh, w, h)
}

/// How a line of text is meant to look; each front-end maps styles to sizes and colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// The game's title: largest.
    Title,
    /// A screen's heading ("YOU FOUND THE EXIT!", "Enter a seed").
    Heading,
    /// A choice or a fact.
    Normal,
    /// Something unavailable or secondary (greyed).
    Dim,
    /// A line of key hints (small and greyed).
    Hint,
    /// What the player is typing (the seed).
    Input,
    /// The last message (a refused key, a bump, a save).
    Message,
    /// A legend line led by a tile's glyph: drawn in that tile's own text colour.
    Glyph(Tile),
}

/// One line of a text screen. An empty `text` is a blank line (spacing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The words.
    pub text: String,
    /// How they look.
    pub style: Style,
}

impl Line {
    /// A line of `text` in `style`.
    pub fn new(text: impl Into<String>, style: Style) -> Line {
        Line {
            text: text.into(),
            style,
        }
    }

    /// A blank line.
    pub fn blank() -> Line {
        Line::new("", Style::Normal)
    }
}

/// A screen of centred lines (menu, seed prompt, end screens, goodbye), read top-down, and
/// the last message, shown near the bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextScreen {
    /// The lines, top first.
    pub lines: Vec<Line>,
    /// The message line, if any.
    pub message: Option<Line>,
}

/// One HUD row: text at the left (the message, or the tile under the mouse) and at the right
/// (seed, position, moves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HudRow {
    /// Left-aligned text.
    pub left: String,
    /// Its style.
    pub left_style: Style,
    /// Right-aligned text.
    pub right: String,
}

/// The HUD above the world: [`HUD_ROWS`] rows, top first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hud {
    /// The rows, top first.
    pub rows: [HudRow; HUD_ROWS],
}

/// What a front-end shows now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Screen {
    /// Centred text.
    Text(TextScreen),
    /// The world of the game in play, with this HUD above it.
    Game(Hud),
}

/// The save as the menu offers it: missing, ready to load and watch, or there but
/// unreadable (and why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveState {
    /// No save: "Load" is greyed out, "Watch" not offered.
    Missing,
    /// A save that reads: "Load" and "Watch" are offered.
    Ready,
    /// A save that cannot be read: "Load" is greyed out with the reason, "Watch" not offered.
    Unreadable(String),
}

impl SaveState {
    /// The state of the save in `store`, read (and decoded) to know.
    pub fn of(store: &dyn SaveStore) -> SaveState {
        match store.load() {
            Ok(Some(_)) => SaveState::Ready,
            Ok(None) => SaveState::Missing,
            Err(e) => SaveState::Unreadable(e.to_string()),
        }
    }
}

/// What only a front-end knows, for [`screen`].
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The save, as the menu offers it.
    pub save: &'a SaveState,
    /// The last message ([`feedback`]), empty for none.
    pub message: &'a str,
    /// The world tile under the mouse pointer, if any.
    pub under_mouse: Option<Pos>,
}

/// What the HUD and the end screens say while a `:` waits for its `Q`.
pub const COLON_PROMPT: &str = ": — press Q to save and quit";

/// The screen for the interpreter's state. While a `:` waits for its `Q` the message is
/// [`COLON_PROMPT`].
pub fn screen(interpreter: &Interpreter, context: Context<'_>) -> Screen {
    let colon = matches!(
        interpreter.phase(),
        Phase::Playing { colon: true } | Phase::Ended { colon: true }
    );
    let message = if colon { COLON_PROMPT } else { context.message };
    match (interpreter.phase(), interpreter.game()) {
        (Phase::Menu, _) => Screen::Text(menu(context.save, interpreter.floors(), message)),
        (Phase::SeedEntry { kind, seed, digits }, _) => {
            Screen::Text(seed_prompt(kind, seed, digits, message))
        }
        (Phase::Ended { .. }, Some(game)) => Screen::Text(end_screen(game, message)),
        (Phase::Playing { .. }, Some(game)) => {
            Screen::Game(hud(game, context.under_mouse, message))
        }
        (Phase::Closed(_) | Phase::Playing { .. } | Phase::Ended { .. }, _) => {
            Screen::Text(TextScreen {
                lines: vec![Line::new(message, Style::Heading)],
                message: None,
            })
        }
    }
}

fn message_line(message: &str) -> Option<Line> {
    (!message.is_empty()).then(|| Line::new(message, Style::Message))
}

/// The menu key that watches the save ([`byog_game::watch`]): a front-end key, never fed
/// to the interpreter.
pub const WATCH_KEY: char = 'V';

/// The title menu (`floors`: a run's floors, `--floors`): N new game, R run, E exploration,
/// L load (greyed without a readable save; for an unreadable one, why), V watch the save
/// (with a readable one), Q quit.
pub fn menu(save: &SaveState, floors: u32, message: &str) -> TextScreen {
    let run = format!("Run: B1 to B{floors}");
    let mut lines = vec![
        Line::new("BYOG: BUILD YOUR OWN GAME", Style::Title),
        Line::blank(),
        Line::new("New Game (N)", Style::Normal),
    ];
    for (kind, name) in [
        (GameKind::Run, run.as_str()),
        (
            GameKind::Exploration,
            "Exploration: rooms made as you enter",
        ),
    ] {
        lines.push(Line::new(format!("{name} ({})", kind.key()), Style::Normal));
    }
    match save {
        SaveState::Ready => {
            lines.push(Line::new("Load Game (L)", Style::Normal));
            lines.push(Line::new(
                format!("Watch the Saved Game ({WATCH_KEY})"),
                Style::Normal,
            ));
        }
        SaveState::Missing => {
            lines.push(Line::new("Load Game (L): no saved game", Style::Dim));
        }
        SaveState::Unreadable(why) => {
            lines.push(Line::new(
                "Load Game (L): the save cannot be read",
                Style::Dim,
            ));
            lines.push(Line::new(why.clone(), Style::Hint));
        }
    }
    lines.push(Line::new("Quit (Q)", Style::Normal));
    TextScreen {
        lines,
        message: message_line(message),
    }
}

/// The seed prompt: what is typed so far, and the keys.
pub fn seed_prompt(kind: GameKind, seed: u64, digits: u32, message: &str) -> TextScreen {
    let typed = if digits == 0 {
        "_".to_owned()
    } else {
        format!("{seed}_")
    };
    TextScreen {
        lines: vec![
            Line::new(
                format!("Enter a seed for a new {}", kind.noun()),
                Style::Heading,
            ),
            Line::blank(),
            Line::new(typed, Style::Input),
            Line::blank(),
            Line::new(
                "digits, then S to start · Backspace deletes · Esc back to the menu",
                Style::Hint,
            ),
        ],
        message: message_line(message),
    }
}

/// The end screen of a game that was won, or of a run won or lost (and why).
pub fn end_screen(game: &GameState, message: &str) -> TextScreen {
    let mut lines = Vec::new();
    match (game.run(), game.status()) {
        (None, status) if game.explore().is_some() => {
            let e = game.explore().map(exploration_numbers).unwrap_or_default();
            let won = status == LevelStatus::Won;
            lines.push(Line::new(
                if won {
                    "BACK UP WITH THE LOOT"
                } else {
                    "LOST IN THE DUNGEON"
                },
                Style::Title,
            ));
            lines.push(Line::new(
                if won {
                    format!("{} points banked", e.score)
                } else {
                    match game.explore().and_then(|e| e.killed_by()) {
                        Some(kind) => format!(
                            "killed by a {}, and {} points lost with you",
                            kind.name(),
                            e.forfeited
                        ),
                        None => {
                            format!("the last heart is gone, and {} points with it", e.forfeited)
                        }
                    }
                },
                Style::Heading,
            ));
            lines.push(Line::blank());
            lines.push(Line::new(
                format!(
                    "seed {} · {} made in {} · deepest {}",
                    game.seed(),
                    plural(e.rooms as u64, "room", "rooms"),
                    plural(e.branches as u64, "branch", "branches"),
                    e.deepest
                ),
                Style::Normal,
            ));
            lines.push(Line::new(moves_text(game.moves()), Style::Normal));
        }
        (None, _) => {
            lines.push(Line::new("YOU FOUND THE EXIT!", Style::Title));
            lines.push(Line::blank());
            lines.push(Line::new(format!("seed {}", game.seed()), Style::Normal));
            lines.push(Line::new(moves_text(game.moves()), Style::Normal));
        }
        (Some(run), status) => {
            let won = status == LevelStatus::Won;
            lines.push(Line::new(
                if won {
                    "THE DUNGEON IS READY"
                } else {
                    "THE RUN IS OVER"
                },
                Style::Title,
            ));
            lines.push(Line::new(
                if won {
                    format!("every floor upkept, B1 to B{}", run.floors)
                } else {
                    format!(
                        "lost on B{}: {}",
                        run.floor,
                        run.loss.map_or("lost", byog_game::run::Loss::reason)
                    )
                },
                Style::Heading,
            ));
            lines.push(Line::blank());
            lines.push(Line::new(
                format!("seed {} · score {}", game.seed(), run.score),
                Style::Normal,
            ));
            lines.push(Line::new(
                format!(
                    "{} · {} perfect of {} floors",
                    moves_text(game.moves()),
                    run.perfect_floors,
                    run.floors
                ),
                Style::Normal,
            ));
        }
    }
    lines.push(Line::blank());
    lines.push(Line::new(
        "N new game · R run · E exploration · Esc menu · :Q save and quit",
        Style::Hint,
    ));
    TextScreen {
        lines,
        message: message_line(message),
    }
}

/// What the end screen and the summary say of an exploration.
#[derive(Debug, Clone, Copy, Default)]
struct ExplorationNumbers {
    score: u64,
    forfeited: u64,
    rooms: usize,
    branches: usize,
    deepest: u32,
}

fn exploration_numbers(e: &byog_game::explore::ExploreState) -> ExplorationNumbers {
    let d = e.dungeon();
    let rooms = d.branches().iter().flat_map(|b| b.rooms().values());
    ExplorationNumbers {
        score: e.score(),
        forfeited: match e.end() {
            Some(byog_game::explore::play::ExploreEnd::Lost { forfeited }) => forfeited,
            _ => 0,
        },
        rooms: d.rooms_made(),
        branches: d.branches().len(),
        deepest: rooms.map(|r| r.depth).max().unwrap_or(0),
    }
}

/// The one-line summary of a finished run (`replay` prints it on stderr); `None` for a run
/// still played or a classic game.
pub fn run_summary(game: &GameState) -> Option<String> {
    if let Some(e) = game.explore() {
        let n = exploration_numbers(e);
        let tail = format!(
            "seed {}, {} in {}, deepest {}, {}",
            game.seed(),
            plural(n.rooms as u64, "room", "rooms"),
            plural(n.branches as u64, "branch", "branches"),
            n.deepest,
            moves_text(game.moves())
        );
        return match game.status() {
            LevelStatus::Playing => None,
            LevelStatus::Won => Some(format!("exploration banked {} points: {tail}", n.score)),
            LevelStatus::Lost => Some(format!(
                "exploration lost at 0 health{} with {} points: {tail}",
                e.killed_by()
                    .map_or_else(String::new, |k| format!(" (killed by a {})", k.name())),
                n.forfeited
            )),
        };
    }
    let run = game.run()?;
    let tail = format!(
        "seed {}, score {}, {}, {} perfect of {} floors",
        game.seed(),
        run.score,
        moves_text(game.moves()),
        run.perfect_floors,
        run.floors
    );
    match game.status() {
        LevelStatus::Playing => None,
        LevelStatus::Won => Some(format!("run won on B{}/{}: {tail}", run.floor, run.floors)),
        LevelStatus::Lost => Some(format!(
            "run lost on B{}/{} ({}): {tail}",
            run.floor,
            run.floors,
            run.loss.map_or("lost", byog_game::run::Loss::reason)
        )),
    }
}

/// How long the screen between two floors stays, in seconds (a key ends it sooner).
pub const FLOOR_SCREEN_SECONDS: f64 = 1.5;
/// How long the goodbye message stays before the program closes, in seconds.
pub const GOODBYE_SECONDS: f64 = 0.8;

/// The screen between two floors when `events` descended to one in `game`'s run (each
/// front-end shows it for [`FLOOR_SCREEN_SECONDS`]).
pub fn descent_screen(events: &byog_game::Events, game: Option<&GameState>) -> Option<TextScreen> {
    let floors = game?.run()?.floors;
    events.as_slice().iter().find_map(|e| match *e {
        Event::Descended {
            floor,
            earned,
            missed_chests,
            missed_traps,
            forgone,
            ..
        } => Some(floor_screen(
            floor,
            floors,
            earned.into(),
            Missed {
                chests: missed_chests,
                traps: missed_traps,
                forgone: forgone.into(),
            },
        )),
        _ => None,
    })
}

/// What the floor just left was left without: chests left empty, traps left sprung, and the
/// moves a perfect floor would have earned beyond what was earned.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Missed {
    /// Chests left empty.
    pub chests: u32,
    /// Traps left sprung.
    pub traps: u32,
    /// Moves forgone.
    pub forgone: u64,
}

/// The short screen between two floors of a run, after walking into an exit: the moves
/// earned, and either the perfect floor or what was missed and what it cost.
pub fn floor_screen(floor: u32, floors: u32, earned: u64, missed: Missed) -> TextScreen {
    let mut lines = vec![
        Line::new(format!("B{floor}"), Style::Title),
        Line::new(format!("floor {floor} of {floors}"), Style::Heading),
        Line::blank(),
        Line::new(format!("+{earned} moves"), Style::Normal),
    ];
    if missed.chests + missed.traps == 0 {
        lines.push(Line::new(
            "perfect floor: every chest and trap upkept",
            Style::Input,
        ));
    } else {
        lines.push(Line::new(
            format!(
                "missed on B{}: {}: -{} moves",
                floor - 1,
                missed_text(missed.chests, missed.traps),
                missed.forgone
            ),
            Style::Message,
        ));
    }
    TextScreen {
        lines,
        message: None,
    }
}

/// "1 chest", "2 traps", "1 chest and 2 traps".
fn missed_text(chests: u32, traps: u32) -> String {
    let c = plural(u64::from(chests), "chest", "chests");
    let t = plural(u64::from(traps), "trap", "traps");
    match (chests, traps) {
        (0, _) => t,
        (_, 0) => c,
        _ => format!("{c} and {t}"),
    }
}

/// "1 room", "2 rooms"; "1 branch", "3 branches".
fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// "1 move", "12 moves".
fn moves_text(moves: u64) -> String {
    plural(moves, "move", "moves")
}

/// The line a front-end prints on its way out after `:Q`, once the terminal is the shell's
/// again: where the game was saved, how its history starts (`N1234S`, then `…` when moves
/// follow) and its moves, e.g. `saved to saves/save.bin (N1234S…, 12 moves)`.
pub fn saved_line(game: &GameState, save: &Path) -> String {
    let history = game.history();
    let start = history.find(['S', 's']).map_or(history.len(), |s| s + 1);
    let more = if start < history.len() { "…" } else { "" };
    format!(
        "saved to {} ({}{more}, {})",
        save.display(),
        &history[..start],
        moves_text(game.moves())
    )
}

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
    let (top, bottom) = match (game.run(), game.explore()) {
        (_, Some(e)) => (
            format!(
                "seed {} · {} · room {} depth {}",
                game.seed(),
                e.branch().map_or_else(
                    || "start room".to_owned(),
                    |b| format!("branch {b}{}", branch_timer(game, e, b))
                ),
                e.room(),
                byog_game::explore::depth(e.room())
            ),
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
        ),
        (Some(run), _) => (
            format!(
                "seed {} · B{}/{} · {}",
                game.seed(),
                run.floor,
                run.floors,
                run_progress(game)
            ),
            format!(
                "health {}/{} · {} moves left · score {}",
                run.health,
                byog_game::run::START_HEALTH,
                run.moves_left,
                run.score
            ),
        ),
        (None, None) => (
            format!("seed {}", game.seed()),
            format!("{} · {}", game.avatar(), moves_text(game.moves())),
        ),
    };
    Hud {
        rows: [
            HudRow {
                left: described,
                left_style: Style::Normal,
                right: top,
            },
            HudRow {
                left: message.to_owned(),
                left_style: Style::Message,
                right: bottom,
            },
        ],
    }
}

/// The tile under the mouse in words; an exploration's exit also says the depth of the room
/// it leads into (`unexplored exit: to a depth-4 room`).
fn describe(game: &GameState, p: Pos, tile: Tile) -> String {
    let words = tile.tetile().description().to_owned();
    if game.explore().is_none() {
        return words;
    }
    use byog_game::explore::plot::{edge, in_plot, plot_of};
    let exit_tile = matches!(
        tile,
        Tile::ExitUnexplored
            | Tile::LockedDoor
            | Tile::OneWayUp
            | Tile::OneWayRight
            | Tile::OneWayDown
            | Tile::OneWayLeft
    );
    let o = game.origin();
    let at = Pos::new(p.x + o.x, p.y + o.y);
    let side = byog_tile_engine::Direction::ALL
        .into_iter()
        .find(|&d| edge(d) == in_plot(at));
    match side {
        Some(d) if exit_tile && game.has_seen(p) => {
            let depth = byog_game::explore::depth(plot_of(at).step(d));
            format!("{words}: to a depth-{depth} room")
        }
        _ => words,
    }
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

/// Characters kept between a HUD row's left and right texts.
pub const HUD_GAP: usize = 2;

/// `text` cut into lines of at most `width` characters, at spaces where it can be (a word
/// longer than a line is cut inside); at least one line, empty for empty text.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        let len = line.chars().count();
        if len > 0 && len + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        while word.len() > width {
            let rest = word.split_off(width);
            lines.push(word.into_iter().collect());
            word = rest;
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.extend(word);
    }
    lines.push(line);
    lines
}

/// `text` cut to at most `width` characters, its end replaced by `…` when cut.
pub fn ellipsize(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    if width == 0 {
        return String::new();
    }
    let mut cut: String = text.chars().take(width - 1).collect();
    cut.push('…');
    cut
}

/// The HUD's rows laid out in rows `width` characters wide (the text's width, margins left
/// out), so that no two texts overlap and the message is never cut. Each row's left text and
/// right text are kept on one row when they fit with [`HUD_GAP`] characters between them.
/// When they do not:
///
/// - the message (a [`Style::Message`] left text: what the last key did) wins the space: it
///   takes whole rows, wrapped at spaces, and its row's right text (the status) follows on
///   the message's last row when it fits there, else on a row of its own below;
/// - any other left text (the tile under the mouse, the watch's keys) is cut with `…` to
///   leave its right text whole;
/// - a right text wider than the row is cut with `…` itself.
///
/// The first [`HUD_ROWS`] rows are the HUD's own; rows past them (a long message's) are
/// drawn over the top of the world, on the HUD's background, for as long as the message
/// shows.
pub fn hud_lines(hud: &Hud, width: usize) -> Vec<HudRow> {
    let len = |s: &str| s.chars().count();
    let mut out = Vec::with_capacity(HUD_ROWS);
    for row in &hud.rows {
        let right = ellipsize(&row.right, width);
        let fits = |left: &str| {
            left.is_empty() || right.is_empty() || len(left) + HUD_GAP + len(&right) <= width
        };
        let line = |left: String, right: String| HudRow {
            left,
            left_style: row.left_style,
            right,
        };
        if fits(&row.left) && len(&row.left) <= width {
            out.push(line(row.left.clone(), right));
        } else if row.left_style == Style::Message {
            let mut lines = wrap(&row.left, width);
            let last = lines.pop().unwrap_or_default();
            out.extend(lines.into_iter().map(|l| line(l, String::new())));
            if fits(&last) {
                out.push(line(last, right));
            } else {
                out.push(line(last, String::new()));
                out.push(line(String::new(), right));
            }
        } else {
            let room = width.saturating_sub(len(&right) + HUD_GAP);
            out.push(line(ellipsize(&row.left, room), right));
        }
    }
    out
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
fn steps_text(n: u32) -> String {
    plural(u64::from(n), "step", "steps")
}

/// The message after a zoom key: the tile size now.
pub fn zoom_message(tile_pixels: u32) -> String {
    format!("zoom: tiles of {tile_pixels} pixels (+ and - zoom, 0 fits)")
}

/// The message when the watch key finds no save to watch, or one that cannot be watched.
pub fn watch_refused(why: &str) -> String {
    format!("cannot watch the save: {why}")
}

/// What the player is told after a key: the message, and whether the program now closes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    /// The message (empty: clear the last one).
    pub message: String,
    /// Whether the program closes (after `Q` or `:Q`).
    pub closing: bool,
}

/// The feedback for what a key did. `save` is where the save lives, for messages that name
/// it.
pub fn feedback(outcome: &Outcome, save: &Path) -> Feedback {
    let say = |message: String| Feedback {
        message,
        closing: false,
    };
    match outcome {
        Outcome::Reported(report) => say(report.player_message()),
        Outcome::Accepted | Outcome::Started => say(String::new()),
        // Every event worth a word, in order: "chest refilled · room clear: its exits open".
        Outcome::Acted(events) => say(events
            .as_slice()
            .iter()
            .filter_map(event_message)
            .collect::<Vec<_>>()
            .join(" · ")),
        Outcome::NoSave => say(format!("no saved game at {}", save.display())),
        Outcome::Closed(Closing::Quit) => Feedback {
            message: "Goodbye.".into(),
            closing: true,
        },
        Outcome::Closed(Closing::SavedAndQuit) => Feedback {
            message: format!("Saved to {}. Goodbye.", save.display()),
            closing: true,
        },
    }
}

/// The message for one event, if it deserves one.
fn event_message(event: &Event) -> Option<String> {
    match event {
        Event::Blocked {
            tile: Tile::LockedDoor,
            ..
        } => Some("locked: handle this room's chests and traps first".into()),
        Event::Blocked {
            tile: Tile::OneWayUp | Tile::OneWayRight | Tile::OneWayDown | Tile::OneWayLeft,
            ..
        } => Some("that exit is one-way: it cannot be walked back".into()),
        Event::Blocked { tile, .. } => Some(format!("blocked by {}", with_article(*tile))),
        Event::Entered {
            room,
            made: true,
            new_branch,
            ..
        } => Some(format!(
            "{} room {room}, depth {}",
            if *new_branch {
                "a new branch:"
            } else {
                "a new"
            },
            byog_game::explore::depth(*room)
        )),
        Event::Entered { room, .. } if room.is_start() => Some("back in the start room".into()),
        Event::Cleared { .. } => Some("room clear: its exits open".into()),
        Event::AlreadyOver => Some("the game is over".into()),
        Event::Refilled { .. } => Some("chest refilled".into()),
        Event::Rearmed { .. } => Some("trap rearmed".into()),
        Event::Hurt { health, .. } => Some(format!(
            "an armed trap springs on you! {health} health left"
        )),
        Event::Descended {
            floor,
            earned,
            perfect,
            missed_chests,
            missed_traps,
            forgone,
        } => Some(if *perfect {
            format!("down to B{floor}: +{earned} moves (perfect floor)")
        } else {
            format!(
                "down to B{floor}: +{earned} moves (missed {}: -{forgone})",
                missed_text(*missed_chests, *missed_traps)
            )
        }),
        Event::Attacked {
            kind,
            damage,
            killed: true,
            ..
        } => Some(format!(
            "you hit the {} for {damage}: it dies (+{} points)",
            kind.name(),
            kind.stats().points
        )),
        Event::Attacked { kind, damage, .. } => {
            Some(format!("you hit the {} for {damage}", kind.name()))
        }
        Event::Spotted { kind, count: 1 } => Some(format!("a {} sees you!", kind.name())),
        Event::Spotted { kind, count } => {
            Some(format!("a {} and {} more see you!", kind.name(), count - 1))
        }
        Event::Struck { by, hits: 0, .. } => Some(format!("the {} misses you", by.name())),
        Event::Struck {
            by, damage, health, ..
        } => Some(format!(
            "the {} hits you for {damage}! {health} health left",
            by.name()
        )),
        Event::FoundPotion { potions } => Some(format!(
            "a potion in the chest ({potions} carried; U drinks)"
        )),
        Event::Drank { health, potions } => Some(format!(
            "you drink a potion: {health} health, {} left",
            plural(u64::from(*potions), "potion", "potions")
        )),
        Event::Fled { kind } => Some(format!("the {} flees!", kind.name())),
        Event::InCombat { .. } => Some("you are locked in combat: step away first".into()),
        Event::CannotDrink { full: true } => Some("your health is full".into()),
        Event::CannotDrink { full: false } => Some("no potion to drink".into()),
        // The end screen says these.
        Event::Won
        | Event::Lost(_)
        | Event::Moved { .. }
        | Event::Unlocked { .. }
        | Event::Entered { .. }
        | Event::Banked { .. }
        | Event::Waited
        | Event::PotionLeft { .. } => None,
    }
}

/// "a wall", "the dark" for NOTHING, "a locked door".
fn with_article(tile: Tile) -> String {
    match tile {
        Tile::Nothing => "the dark".into(),
        t => format!("a {}", t.tetile().description()),
    }
}

/// One glyph of a legend: the tile and what it means.
fn legend(tile: Tile, meaning: &str) -> Line {
    Line::new(
        format!("{}  {meaning}", tile.tetile().character()),
        Style::Glyph(tile),
    )
}

/// The help screen for a game of `kind` (`None`: the menu): the goal and the rules in two
/// lines each, the keys it takes, and a legend of every glyph in its colour. `?` shows it,
/// any key closes it.
pub fn help_screen(kind: Option<GameKind>) -> TextScreen {
    let mut lines = Vec::new();
    let heading = |t: &str| Line::new(t, Style::Heading);
    let normal = |t: &str| Line::new(t, Style::Normal);
    let hint = |t: &str| Line::new(t, Style::Hint);
    match kind {
        None => {
            lines.push(heading("HELP"));
            lines.push(normal("N a classic game: find the exit of one world"));
            lines.push(normal(
                "R a run: refill chests and rearm traps on ten floors",
            ));
            lines.push(normal(
                "E an exploration: rooms made as you walk in; bank at <",
            ));
            lines.push(normal(
                "then type the seed's digits and S; L loads, V watches, Q quits",
            ));
        }
        Some(GameKind::Classic) => {
            lines.push(heading("HELP: A CLASSIC GAME"));
            lines.push(normal(
                "Goal: walk into the exit (a locked door) to unlock it.",
            ));
            lines.push(normal(
                "A step into a wall is no move; Tab shows only what you see.",
            ));
            lines.push(Line::blank());
            lines.push(legend(Tile::Player, "you"));
            lines.push(legend(Tile::Floor, "floor"));
            lines.push(legend(Tile::Wall, "wall"));
            lines.push(legend(Tile::LockedDoor, "the exit, locked"));
            lines.push(legend(Tile::UnlockedDoor, "the exit, unlocked: won"));
        }
        Some(GameKind::Run) => {
            lines.push(heading("HELP: A RUN"));
            lines.push(normal(
                "Goal: refill every chest and rearm every trap, then take the",
            ));
            lines.push(normal(
                "exit, floor after floor to B10, before the moves run out.",
            ));
            lines.push(normal(
                "An armed trap costs a heart (3 in all); each feature pays once.",
            ));
            lines.push(Line::blank());
            lines.push(legend(Tile::Player, "you, the upkeeper"));
            lines.push(legend(
                Tile::ChestEmpty,
                "an empty chest: step on it to refill it",
            ));
            lines.push(legend(Tile::ChestFull, "a full chest"));
            lines.push(legend(
                Tile::TrapSprung,
                "a sprung trap: step on it to rearm it",
            ));
            lines.push(legend(Tile::TrapArmed, "an armed trap: it springs on you"));
            lines.push(legend(
                Tile::LockedDoor,
                "the floor's exit: down to the next",
            ));
        }
        Some(GameKind::Exploration) => {
            lines.push(heading("HELP: AN EXPLORATION"));
            lines.push(normal(
                "Goal: go deep for points and come back up the way up (<)",
            ));
            lines.push(normal(
                "to bank them; at 0 health they are lost, score and all.",
            ));
            lines.push(normal(
                "A room's exits open once its chests and traps are handled",
            ));
            lines.push(normal(
                "and its monsters slain: walk into one to strike it. Chests",
            ));
            lines.push(normal(
                "hold potions (U drinks one: +2 health); beside a monster",
            ));
            lines.push(normal("the way back is closed until you step away."));
            lines.push(Line::blank());
            lines.push(legend(Tile::Player, "you"));
            lines.push(legend(Tile::WayUp, "the way up: bank the score"));
            lines.push(legend(
                Tile::ExitUnexplored,
                "an unexplored exit: a new room behind",
            ));
            lines.push(legend(
                Tile::LockedDoor,
                "a locked exit: clear this room first",
            ));
            lines.push(legend(
                Tile::OneWayUp,
                "a one-way exit (↑ → ↓ ←): only that way",
            ));
            lines.push(legend(Tile::ChestEmpty, "an empty chest: refill it"));
            lines.push(legend(Tile::TrapSprung, "a sprung trap: rearm it"));
            lines.push(legend(Tile::TrapArmed, "an armed trap: it costs a heart"));
            for kind in MonsterKind::ALL {
                let k = kind.stats();
                lines.push(legend(
                    k.tile,
                    format!(
                        "a {}: {} health, hits for {}{}, from depth {}",
                        k.name,
                        k.health,
                        k.damage.0,
                        if k.damage.1 > k.damage.0 {
                            format!("-{}", k.damage.1)
                        } else {
                            String::new()
                        },
                        k.first_depth
                    )
                    .as_str(),
                ));
            }
        }
    }
    lines.push(Line::blank());
    lines.push(hint(&help_keys(kind)));
    TextScreen {
        lines,
        message: Some(Line::new("any key closes this help", Style::Hint)),
    }
}

/// The keys a mode takes, on one line of the help screen.
pub fn help_keys(kind: Option<GameKind>) -> String {
    match kind {
        None => "keys: N R E, digits, S, Backspace, Esc, L, V, Q, ? help".to_owned(),
        Some(k) => {
            let sight = if k == GameKind::Classic {
                " · Tab sight"
            } else {
                ""
            };
            let drink = if k == GameKind::Exploration {
                " · U drink a potion"
            } else {
                ""
            };
            format!(
                "keys: W A S D, arrows, h j k l, numpad 2 4 6 8 move{drink} · X explore · > to the exit \
                 · click: walk there · :Q save and quit{sight} · P messages · ? help"
            )
        }
    }
}

/// The message log: the last [`LOG_PAGE`] messages `back` messages from the newest, newest
/// at the bottom; W/S (or the arrows) scroll, any other key closes it.
pub fn log_screen(log: &[String], back: usize) -> TextScreen {
    let end = log.len().saturating_sub(back);
    let start = end.saturating_sub(LOG_PAGE);
    let mut lines = vec![Line::new("MESSAGES", Style::Heading)];
    if log.is_empty() {
        lines.push(Line::new("no message yet", Style::Dim));
    }
    lines.extend(
        log[start..end]
            .iter()
            .map(|m| Line::new(m.clone(), Style::Normal)),
    );
    TextScreen {
        lines,
        message: Some(Line::new(
            format!(
                "{}-{} of {} · W/S scroll · any other key closes",
                start + usize::from(end > start),
                end,
                log.len()
            ),
            Style::Hint,
        )),
    }
}

/// The save slots to load from (`L` at the menu when the save folder holds more than the
/// current slot): each with what it holds (mode, seed, floor, moves) and when it was saved,
/// numbered for the key that loads it.
pub fn slots_screen(slots: &[byog_game::save::Slot], current: &str) -> TextScreen {
    let mut lines = vec![Line::new("LOAD WHICH SAVE?", Style::Heading)];
    for (i, slot) in slots.iter().take(9).enumerate() {
        let what = match &slot.summary {
            Ok(summary) => summary.to_string(),
            Err(why) => format!("cannot be read: {why}"),
        };
        let age = slot
            .modified
            .and_then(|m| m.elapsed().ok())
            .map(|d| format!(", saved {} ago", age_text(d.as_secs())))
            .unwrap_or_default();
        let mark = if slot.name == current {
            " (current)"
        } else {
            ""
        };
        let style = if slot.summary.is_ok() {
            Style::Normal
        } else {
            Style::Dim
        };
        lines.push(Line::new(
            format!("{} {}{mark}: {what}{age}", i + 1, slot.name),
            style,
        ));
    }
    if slots.len() > 9 {
        lines.push(Line::new(
            format!(
                "… and {} more (byog --slot NAME loads any)",
                slots.len() - 9
            ),
            Style::Dim,
        ));
    }
    TextScreen {
        lines,
        message: Some(Line::new(
            "type a slot's number to load it; any other key goes back",
            Style::Hint,
        )),
    }
}

/// "12 s", "5 min", "3 h", "2 days".
fn age_text(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min", secs / 60),
        3600..86400 => format!("{} h", secs / 3600),
        _ => format!("{} days", secs / 86400),
    }
}

/// The question `:Q` asks before writing over slot `slot` when it holds another game.
pub fn replace_screen(replaced: &byog_game::save::Replaced, slot: &str) -> TextScreen {
    let held = match replaced {
        byog_game::save::Replaced::Other(summary) => format!("holds {summary}"),
        byog_game::save::Replaced::Unreadable(why) => {
            format!("holds a save that cannot be read ({why})")
        }
    };
    TextScreen {
        lines: vec![
            Line::new("SAVE OVER ANOTHER GAME?", Style::Heading),
            Line::new(format!("the slot '{slot}' {held}"), Style::Normal),
            Line::blank(),
            Line::new("Y saves over it", Style::Normal),
            Line::new("N saves to a new slot and keeps it", Style::Normal),
            Line::new("any other key goes back to the game, unsaved", Style::Hint),
        ],
        message: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use byog_game::save::MemoryStore;
    use byog_worlds::generator::GeneratorSettings;

    fn feed(i: &mut Interpreter, keys: &str) -> Vec<Outcome> {
        let mut store = MemoryStore::default();
        keys.chars()
            .map(|k| i.feed(k, &mut store).unwrap())
            .collect()
    }

    #[test]
    fn every_state_has_a_screen_in_a_players_words() {
        let mut i = Interpreter::new(20, 12, GeneratorSettings::default());
        let ctx = Context {
            save: &SaveState::Missing,
            message: "",
            under_mouse: None,
        };
        let Screen::Text(menu) = screen(&i, ctx) else {
            panic!("the menu is text")
        };
        assert!(menu.lines.iter().any(|l| l.text == "New Game (N)"));
        assert!(menu.lines.iter().any(|l| l.text == "Run: B1 to B10 (R)"));
        assert!(
            menu.lines
                .iter()
                .any(|l| l.style == Style::Dim && l.text.contains("no saved game"))
        );
        // No save, nothing to watch; with one, V watches it. A run of --floors 3 says so.
        assert!(!menu.lines.iter().any(|l| l.text.contains("(V)")));
        let three = Interpreter::new(20, 12, GeneratorSettings::default()).with_floors(3);
        let Screen::Text(menu) = screen(
            &three,
            Context {
                save: &SaveState::Ready,
                ..ctx
            },
        ) else {
            panic!("the menu is text")
        };
        assert!(menu.lines.iter().any(|l| l.text == "Run: B1 to B3 (R)"));
        assert!(
            menu.lines
                .iter()
                .any(|l| l.text == "Watch the Saved Game (V)")
        );
        feed(&mut i, "N12");
        let Screen::Text(prompt) = screen(&i, ctx) else {
            panic!("the prompt is text")
        };
        assert!(prompt.lines.iter().any(|l| l.text == "12_"));
        feed(&mut i, "S");
        let Screen::Game(hud) = screen(
            &i,
            Context {
                under_mouse: Some(Pos::new(0, 0)),
                ..ctx
            },
        ) else {
            panic!("a game shows the world")
        };
        assert_eq!(hud.rows[0].right, "seed 12");
        assert!(hud.rows[1].right.ends_with("0 moves"));
    }

    #[test]
    fn long_lines_wrap_at_spaces() {
        assert_eq!(wrap("ab cd ef", 5), vec!["ab cd", "ef"]);
        assert_eq!(wrap("abcdefgh", 3), vec!["abc", "def", "gh"]);
        assert_eq!(wrap("", 3), vec![""]);
        assert_eq!(ellipsize("abcdef", 4), "abc…");
        assert_eq!(ellipsize("abc", 4), "abc");
        assert_eq!(ellipsize("abc", 0), "");
    }

    fn row(left: &str, style: Style, right: &str) -> HudRow {
        HudRow {
            left: left.to_owned(),
            left_style: style,
            right: right.to_owned(),
        }
    }

    #[test]
    fn the_hud_layout_lets_the_message_win_and_cuts_the_rest() {
        let hud = Hud {
            rows: [
                row("a wall under the mouse", Style::Normal, "seed 7"),
                row("one two three four", Style::Message, "9 moves"),
            ],
        };
        // Everything fits at 40: the HUD's two rows as they are.
        assert_eq!(hud_lines(&hud, 40), hud.rows.to_vec());
        // At 20 the description is cut, the message wraps and the status follows it on its
        // last row.
        assert_eq!(
            hud_lines(&hud, 20),
            vec![
                row("a wall unde…", Style::Normal, "seed 7"),
                row("one two three four", Style::Message, ""),
                row("", Style::Message, "9 moves"),
            ]
        );
        assert_eq!(
            hud_lines(&hud, 13),
            vec![
                row("a wa…", Style::Normal, "seed 7"),
                row("one two three", Style::Message, ""),
                row("four", Style::Message, "9 moves"),
            ]
        );
        // Every row fits its width, and no left text meets its right one.
        for width in 1..40 {
            for r in hud_lines(&hud, width) {
                let (l, rt) = (r.left.chars().count(), r.right.chars().count());
                assert!(l <= width && rt <= width, "{width}: {r:?}");
                assert!(
                    l == 0 || rt == 0 || l + HUD_GAP + rt <= width,
                    "{width}: {r:?}"
                );
            }
        }
    }

    /// Problem 13: a save that cannot be read is not offered as if it could: the menu says
    /// why, and offers neither Load nor Watch.
    #[test]
    fn an_unreadable_save_is_not_offered() {
        let store = MemoryStore {
            bytes: Some(b"not a save".to_vec()),
        };
        let state = SaveState::of(&store);
        let SaveState::Unreadable(why) = &state else {
            panic!("{state:?}")
        };
        assert!(why.contains("not a byog save"), "{why}");
        let menu = menu(&state, 10, "");
        let texts: Vec<&str> = menu.lines.iter().map(|l| l.text.as_str()).collect();
        assert!(
            texts.contains(&"Load Game (L): the save cannot be read"),
            "{texts:?}"
        );
        assert!(texts.contains(&why.as_str()), "{texts:?}");
        assert!(!texts.iter().any(|t| t.contains("Watch")), "{texts:?}");
        assert!(!texts.contains(&"Load Game (L)"), "{texts:?}");
        // A readable save is offered; none is not.
        let mut store = MemoryStore::default();
        assert_eq!(SaveState::of(&store), SaveState::Missing);
        let game = GameState::new(3, 20, 12, GeneratorSettings::default()).unwrap();
        store.save(&game).unwrap();
        assert_eq!(SaveState::of(&store), SaveState::Ready);
    }

    /// Problem 19: after `:` the HUD (and an end screen) says that it waits for `Q`.
    #[test]
    fn a_colon_says_it_waits_for_q() {
        let mut i = Interpreter::new(20, 12, GeneratorSettings::default());
        let ctx = Context {
            save: &SaveState::Missing,
            message: "",
            under_mouse: None,
        };
        feed(&mut i, "N12S:");
        let Screen::Game(hud) = screen(&i, ctx) else {
            panic!("a game shows the world")
        };
        assert_eq!(hud.rows[1].left, COLON_PROMPT);
        // Another key drops the colon, and the prompt with it.
        feed(&mut i, "X");
        let Screen::Game(hud) = screen(&i, ctx) else {
            panic!("a game shows the world")
        };
        assert_eq!(hud.rows[1].left, "");
    }

    /// Problem 19: counts agree with their nouns ("1 branch", never "1 branches").
    #[test]
    fn one_room_in_one_branch_is_singular() {
        let mut i = Interpreter::new(20, 12, GeneratorSettings::default());
        // Into the first room behind the start room's north door, back, and up the way up.
        feed(&mut i, "E42SWWWWWWWWWWWSSSSSSSSSSSWWAA");
        let game = i.game().unwrap();
        let summary = run_summary(game).expect("the exploration has ended");
        assert!(summary.contains(", 1 room in 1 branch,"), "{summary}");
        let end = end_screen(game, "");
        assert!(
            end.lines
                .iter()
                .any(|l| l.text.contains(" 1 room made in 1 branch ")),
            "{end:?}"
        );
        let saved = saved_line(game, Path::new("saves/save.bin"));
        assert_eq!(saved, "saved to saves/save.bin (E42S…, 26 moves)");
        let fresh = GameState::new(1234, 20, 12, GeneratorSettings::default()).unwrap();
        assert_eq!(
            saved_line(&fresh, Path::new("s.bin")),
            "saved to s.bin (N1234S, 0 moves)"
        );
    }

    #[test]
    fn messages_never_show_input_positions() {
        let mut i = Interpreter::new(20, 12, GeneratorSettings::default());
        let outcomes = feed(&mut i, "X");
        let f = feedback(&outcomes[0], Path::new("saves/save.bin"));
        assert!(
            f.message.starts_with("'X': not a menu key"),
            "{}",
            f.message
        );
        assert!(!f.message.contains("position"));
    }
}
