//! The screens every front-end shows, as text and styles, made in one place: the menu, the
//! seed prompt, the HUD above the world, the end screens and the messages a player reads
//! ("blocked by a wall", never an input position). The window lays these out in pixels, the
//! terminal in character cells; neither writes a word of its own.
//!
//! Nothing here draws or reads a key: [`screen`] turns the interpreter's state (plus what
//! only a front-end knows: whether a save exists, the last message, the tile under the
//! mouse) into a [`Screen`], and [`feedback`] turns what a key did into the message shown.

use byog_game::GameState;
use byog_game::interpreter::{Interpreter, Phase};
use byog_tile_engine::{Geometry, Pos, Rgb};

mod bestiary;
mod busy;
mod end;
mod floor;
mod help;
mod hud;
mod log;
mod menu;
mod messages;
mod numbers;
mod slots;
#[cfg(test)]
mod tests;

pub use bestiary::{ACTS_NEXT, bestiary_pages, in_combat};
pub use busy::{BAR_CELLS, busy_screen};
pub use end::{BROWSER_END_KEYS, END_KEYS, end_keys, end_screen, end_verse, run_summary};
pub use floor::{FLOOR_SCREEN_SECONDS, Missed, descent_screen, floor_screen};
pub use help::{
    HELP_PAGE_LINES, glyph_of, help_keys, help_pages, help_screen, key_lines, page_turn,
    tutorial_screen,
};
pub use hud::{WATCH_KEYS, exit_depth, exit_ways_text, hud, run_progress, watch_hud};
pub use log::log_screen;
pub use menu::{SaveState, menu, seed_prompt};
pub use messages::{Feedback, GOODBYE_SECONDS, feedback, saved_line, watch_refused, zoom_message};
pub use numbers::{Explainer, HudItem, parts as hud_parts};
pub use slots::{replace_screen, slots_screen};

/// Which front-end plays a session: the words for how to quit differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FrontEnd {
    /// The macroquad window.
    #[default]
    Window,
    /// A terminal.
    Terminal,
    /// A browser, through the web server.
    Browser,
}

impl FrontEnd {
    /// How to quit at once while the session is busy, in a player's words.
    pub fn quit_now(self) -> &'static str {
        match self {
            FrontEnd::Window => "Ctrl-C (or closing the window) quits",
            FrontEnd::Terminal => "Ctrl-C quits",
            FrontEnd::Browser => "closing the tab leaves",
        }
    }
}

/// Messages the log keeps, oldest dropped first (the game keeps them: saves hold them).
pub use byog_game::game::LOG_LENGTH;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
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
}

/// A glyph as the game draws it: a character in a colour on a background (a legend's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Glyph {
    /// The character.
    pub ch: char,
    /// Its colour.
    pub fg: Rgb,
    /// Its cell's background.
    pub bg: Rgb,
}

/// One line of a text screen. An empty `text` is a blank line (spacing).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Line {
    /// The words.
    pub text: String,
    /// How they look.
    pub style: Style,
    /// A legend's glyph, drawn as the game draws it two characters before the words.
    pub glyph: Option<Glyph>,
}

impl Line {
    /// A line of `text` in `style`.
    pub fn new(text: impl Into<String>, style: Style) -> Line {
        Line {
            text: text.into(),
            style,
            glyph: None,
        }
    }

    /// A legend's line: `glyph` as the game draws it, then what it means.
    pub fn legend(glyph: Glyph, meaning: impl Into<String>) -> Line {
        Line {
            text: meaning.into(),
            style: Style::Normal,
            glyph: Some(glyph),
        }
    }

    /// The line as plain text: a legend's glyph, two spaces, then its words.
    pub fn plain(&self) -> String {
        match self.glyph {
            Some(g) => format!("{}  {}", g.ch, self.text),
            None => self.text.clone(),
        }
    }

    /// A blank line.
    pub fn blank() -> Line {
        Line::new("", Style::Normal)
    }
}

/// A screen of centred lines (menu, seed prompt, end screens, goodbye), read top-down, and
/// the last message, shown near the bottom.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TextScreen {
    /// The lines, top first.
    pub lines: Vec<Line>,
    /// The message line, if any.
    pub message: Option<Line>,
}

/// One HUD row: text at the left (the message, or the tile under the mouse) and at the right
/// (seed, position, moves).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HudRow {
    /// Left-aligned text.
    pub left: String,
    /// Its style.
    pub left_style: Style,
    /// Right-aligned text.
    pub right: String,
    /// The right text when it is wider than its row: what matters most first, so that what
    /// is cut last matters least (empty: cut the right text itself).
    pub right_short: String,
}

/// The HUD above the world: [`HUD_ROWS`] rows, top first.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Hud {
    /// The rows, top first.
    pub rows: [HudRow; HUD_ROWS],
}

/// What a front-end shows now.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Screen {
    /// Centred text.
    Text(TextScreen),
    /// The world of the game in play, with this HUD above it.
    Game(Hud),
}

/// What only a front-end knows, for [`screen`].
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The save of the current slot, as the menu offers it.
    pub save: &'a SaveState,
    /// How many saves `L` lists to choose from besides the current slot's (0 when a slot
    /// was chosen with `--slot`: `L` loads it).
    pub others: usize,
    /// The last message ([`feedback`]), empty for none.
    pub message: &'a str,
    /// The world tile under the mouse pointer, if any.
    pub under_mouse: Option<Pos>,
    /// What names the game's seed when it is hidden (a server's daily or live game: "daily
    /// 2026-11-28"); `None` shows "seed N".
    pub seed_label: Option<&'a str>,
    /// A line the end screen shows under the game's numbers ([`end_screen`]'s `note`).
    pub end_note: Option<&'a str>,
    /// The front-end showing the screen: the menu and the end screens offer only the keys
    /// that work there.
    pub front_end: FrontEnd,
}

/// How the HUD and the end screens name `game`'s seed: "seed 42", or `label` when the seed
/// is hidden.
pub fn seed_name(game: &GameState, label: Option<&str>) -> String {
    label.map_or_else(|| format!("seed {}", game.seed()), str::to_owned)
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
        (Phase::Menu, _) => Screen::Text(menu(
            context.save,
            context.others,
            interpreter.floors(),
            context.front_end,
            message,
        )),
        (Phase::SeedEntry { kind, seed, digits }, _) => {
            Screen::Text(seed_prompt(kind, seed, digits, message))
        }
        (Phase::Ended { .. }, Some(game)) => Screen::Text(end_screen(
            game,
            context.seed_label,
            context.end_note,
            context.front_end,
            message,
        )),
        (Phase::Playing { .. }, Some(game)) => {
            Screen::Game(hud(game, context.seed_label, context.under_mouse, message))
        }
        (Phase::Closed(_) | Phase::Playing { .. } | Phase::Ended { .. }, _) => {
            Screen::Text(TextScreen {
                lines: vec![Line::new(message, Style::Heading)],
                message: None,
            })
        }
    }
}

/// `word` with its indefinite article: "a rat", "an orc" (by its first letter: the game's
/// nouns have no silent h or sounded u).
pub fn with_a(word: &str) -> String {
    let vowel = word
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {word}", if vowel { "an" } else { "a" })
}

pub(crate) fn message_line(message: &str) -> Option<Line> {
    (!message.is_empty()).then(|| Line::new(message, Style::Message))
}

/// "1 room", "2 rooms"; "1 branch", "3 branches".
pub(crate) fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// "1 move", "12 moves".
pub(crate) fn moves_text(moves: u64) -> String {
    plural(moves, "move", "moves")
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

/// The HUD in its two rows when the message (the bottom row's [`Style::Message`] left text)
/// does not fit beside its row's full status. The full statuses are kept where they can be
/// (the bottom one ends with what `X` costs): first, when the top row names nothing under
/// the pointer, the message broken at a space beside both full statuses, its first part on
/// the top row and the rest on the bottom; else the message on its row beside the short
/// status; else broken so beside the statuses that fit (each the full one, else the short
/// one). `None` when none fits, or when the message fits beside the full status anyway (the
/// usual layout).
fn two_row_message(hud: &Hud, width: usize) -> Option<Vec<HudRow>> {
    let len = |s: &str| s.chars().count();
    let [top, bottom] = &hud.rows;
    let message = &bottom.left;
    if bottom.left_style != Style::Message || message.is_empty() {
        return None;
    }
    let room = |right: &str| width.checked_sub(len(right) + HUD_GAP);
    // The status a row shows: the full one when it fits beside `need` characters, else the
    // short one when that does.
    let status = |row: &HudRow, need: usize| -> Option<String> {
        [&row.right, &row.right_short]
            .into_iter()
            .filter(|r| !r.is_empty() || row.right.is_empty())
            .find(|r| room(r).is_some_and(|m| m >= need))
            .map(|r| r.to_owned())
    };
    if room(&bottom.right).is_some_and(|m| len(message) <= m) {
        return None;
    }
    let row = |left: &str, style: Style, right: String| HudRow {
        left: left.to_owned(),
        left_style: style,
        right,
        right_short: String::new(),
    };
    // The break that leaves the most on the top row: at a space, its first part beside the
    // top status, the rest beside the bottom one (each as `status` gives it).
    let words: Vec<&str> = message.split(' ').collect();
    let broken = |status: &dyn Fn(&HudRow, usize) -> Option<String>| {
        if !top.left.is_empty() {
            return None;
        }
        (1..words.len()).rev().find_map(|k| {
            let (first, rest) = (words[..k].join(" "), words[k..].join(" "));
            let top_status = status(top, len(&first))?;
            let bottom_status = status(bottom, len(&rest))?;
            Some(vec![
                row(&first, Style::Message, top_status),
                row(&rest, Style::Message, bottom_status),
            ])
        })
    };
    let full = |r: &HudRow, need: usize| {
        room(&r.right)
            .is_some_and(|m| m >= need)
            .then(|| r.right.clone())
    };
    if let Some(rows) = broken(&full) {
        return Some(rows);
    }
    if let Some(right) = status(bottom, len(message)) {
        let first = hud_lines_row(top, width);
        return Some(vec![first, row(message, Style::Message, right)]);
    }
    broken(&status)
}

/// One HUD row that is not the message's, laid out in `width` characters as [`hud_lines`]
/// lays it: its right text (or the short one) whole, its left text cut with `…`.
fn hud_lines_row(row: &HudRow, width: usize) -> HudRow {
    let one = Hud {
        rows: [
            row.clone(),
            HudRow {
                left: String::new(),
                left_style: Style::Normal,
                right: String::new(),
                right_short: String::new(),
            },
        ],
    };
    hud_lines(&one, width).swap_remove(0)
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
/// - a right text wider than the row gives way to its short form, and that is cut with `…`
///   when it too is wider.
///
/// The first [`HUD_ROWS`] rows are the HUD's own; rows past them (a long message's) are
/// drawn over the top of the world, on the HUD's background, for as long as the message
/// shows. Before a message takes a row of its own, it keeps to the HUD's two rows if it can:
/// beside its row's short status, or (with nothing under the pointer to name) begun on the
/// top row, left of the top status, and ended on its own row.
pub fn hud_lines(hud: &Hud, width: usize) -> Vec<HudRow> {
    if let Some(rows) = two_row_message(hud, width) {
        return rows;
    }
    let len = |s: &str| s.chars().count();
    let mut out = Vec::with_capacity(HUD_ROWS);
    for row in &hud.rows {
        let right = if len(&row.right) > width && !row.right_short.is_empty() {
            &row.right_short
        } else {
            &row.right
        };
        let right = ellipsize(right, width);
        let fits = |left: &str| {
            left.is_empty() || right.is_empty() || len(left) + HUD_GAP + len(&right) <= width
        };
        let line = |left: String, right: String| HudRow {
            left,
            left_style: row.left_style,
            right,
            right_short: String::new(),
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
