//! The help of each mode, in pages short enough for the default window (1280 × 512) and an
//! 80 × 24 terminal: the goal and the rules, a legend of every glyph drawn as the game draws
//! it, and the keys. A run's help opens on the Upkeeper's song, which teaches the rules and
//! is also the screen of the first run ever played. `?` shows the help; `→` (or `D`, Space,
//! Enter) turns a page, `←` (or `A`) turns back, any other key closes it.

use byog_game::explore::{monsters, play};
use byog_game::interpreter::GameKind;
use byog_tile_engine::{Tile, autotile, look};

use super::numbers::{self, HudItem};
use super::{Glyph, Line, Style, TextScreen};

/// The most lines a help page holds below its heading: 8 lines of the help's size fit the
/// default window's text grid (32 rows) above its footer, and an 80 × 24 terminal.
pub const HELP_PAGE_LINES: usize = 8;

/// Which way a key turns the help's pages: `Some(1)` forward, `Some(-1)` back, `None` for a
/// key that closes it.
pub fn page_turn(key: char) -> Option<i32> {
    match key.to_ascii_uppercase() {
        'D' | 'L' | '6' | ' ' | '\r' | '\n' => Some(1),
        'A' | 'H' | '4' => Some(-1),
        _ => None,
    }
}

/// How `tile` is drawn in a game of `kind`: a run's and an exploration's in the play view's
/// look at full light (`docs/look.md`; walls as their box-drawing glyph), the classic game's
/// in the Tileset's colours.
pub fn glyph_of(tile: Tile, kind: Option<GameKind>) -> Glyph {
    let t = tile.tetile();
    match kind {
        Some(GameKind::Run | GameKind::Exploration) => {
            let (fg, bg, _) = look::lit(tile, 256);
            let ch = if tile == Tile::Wall {
                autotile::box_char(autotile::LEFT | autotile::RIGHT)
            } else {
                t.character()
            };
            Glyph { ch, fg, bg }
        }
        _ => Glyph {
            ch: t.character(),
            fg: t.text_color(),
            bg: autotile::background(tile, byog_tile_engine::WallStyle::Java),
        },
    }
}

/// One glyph of a legend: the tile as a game of `kind` draws it, and what it means.
fn legend(tile: Tile, kind: Option<GameKind>, meaning: &str) -> Line {
    Line::legend(glyph_of(tile, kind), meaning)
}

/// The help's pages for a game of `kind` (`None`: the menu): each a heading and at most
/// [`HELP_PAGE_LINES`] lines.
fn pages(kind: Option<GameKind>) -> Vec<(String, Vec<Line>)> {
    let normal = |t: &str| Line::new(t, Style::Normal);
    let keys = || -> Vec<Line> { key_lines(kind).iter().map(|l| normal(l)).collect() };
    // The HUD's numbers of a game of `kind`: a page for the top row's, one for the bottom
    // row's (one page when they fit on it).
    let numbers = |kind: GameKind| -> Vec<(String, Vec<Line>)> {
        let (top, bottom) = HudItem::of_mode(kind);
        let lines = |items: &[HudItem]| -> Vec<Line> {
            numbers::help_lines(items, kind)
                .iter()
                .map(|l| normal(l))
                .collect()
        };
        if top.len() + bottom.len() <= HELP_PAGE_LINES {
            let mut all = top;
            all.extend(bottom);
            vec![("HELP: THE NUMBERS".to_owned(), lines(&all))]
        } else {
            vec![
                ("HELP: THE NUMBERS, TOP ROW".to_owned(), lines(&top)),
                ("HELP: THE NUMBERS, BOTTOM ROW".to_owned(), lines(&bottom)),
            ]
        }
    };
    match kind {
        None => vec![(
            "HELP".to_owned(),
            vec![
                normal("N a classic game: find the exit of one world"),
                normal("R a run: refill chests and rearm traps on ten floors"),
                normal("E an exploration: rooms made as you walk in; bank at <"),
                normal("then type the seed's digits and S"),
                normal("(Backspace deletes a digit, Esc goes back)"),
                normal("L loads a save, V watches it, Q quits, ? this help"),
            ],
        )],
        Some(GameKind::Classic) => [(
            "HELP: A CLASSIC GAME".to_owned(),
            vec![
                normal("Goal: walk into the exit (a locked door) to unlock it."),
                normal("A step into a wall is no move; Tab shows only what you see."),
                Line::blank(),
                legend(Tile::Player, kind, "you"),
                legend(Tile::Floor, kind, "floor"),
                legend(Tile::Wall, kind, "wall"),
                legend(Tile::LockedDoor, kind, "the exit, locked"),
                legend(Tile::UnlockedDoor, kind, "the exit, unlocked: won"),
            ],
        )]
        .into_iter()
        .chain(numbers(GameKind::Classic))
        .chain([("HELP: KEYS".to_owned(), keys())])
        .collect(),
        Some(GameKind::Run) => [
            song(),
            (
                "HELP: A RUN".to_owned(),
                vec![
                    normal("Goal: refill every chest and rearm every trap, then take"),
                    normal("the exit, floor after floor to the last, before the moves"),
                    normal("run out. Each chest and trap pays moves when first handled."),
                    normal("An armed trap costs a heart (3 in all); each feature pays once."),
                    normal("> walks to the exit: round armed traps when that fits the moves"),
                    normal("left, else through the fewest (Y first). X explores."),
                ],
            ),
            (
                "HELP: WHAT YOU SEE".to_owned(),
                vec![
                    legend(Tile::Player, kind, "you, the upkeeper"),
                    legend(
                        Tile::ChestEmpty,
                        kind,
                        "an empty chest: step on it to refill it",
                    ),
                    legend(Tile::ChestFull, kind, "a full chest"),
                    legend(
                        Tile::TrapSprung,
                        kind,
                        "a sprung trap: step on it to rearm it",
                    ),
                    legend(Tile::TrapArmed, kind, "an armed trap: it springs on you"),
                    legend(Tile::LockedDoor, kind, "the floor's exit: down to the next"),
                    legend(Tile::Wall, kind, "a wall"),
                    legend(Tile::Floor, kind, "floor"),
                ],
            ),
        ]
        .into_iter()
        .chain(numbers(GameKind::Run))
        .chain([("HELP: KEYS".to_owned(), keys())])
        .collect(),
        Some(GameKind::Exploration) => vec![
            (
                "HELP: AN EXPLORATION".to_owned(),
                vec![
                    normal("Goal: go deep for points and come back up the way up (<)"),
                    normal("to bank them; at 0 health they are lost, score and all."),
                    normal(&format!(
                        "A chest pays {} at depth 4-5, {} from 6 (zombies, orcs, trolls).",
                        byog_game::explore::depth_row(4).chest_points,
                        byog_game::explore::depth_row(6).chest_points
                    )),
                    normal(&format!(
                        "Points carried fade {}% every {} moves outside the start room.",
                        play::DECAY_PERCENT,
                        play::DECAY_EVERY
                    )),
                    normal("A room's exits open once its features are handled and its"),
                    normal("monsters slain (walk into one); beside one the way back is shut."),
                    normal(&format!(
                        "A chest holds a potion while you carry fewer than {} ({} in 100",
                        monsters::MAX_POTIONS,
                        monsters::FULL_PACK_POTION_PERCENT
                    )),
                    normal(&format!(
                        "with {} carried, left behind): U drinks one (+{} health).",
                        monsters::MAX_POTIONS,
                        monsters::POTION_HEARTS
                    )),
                    normal("An unexplored exit shows the depth of the room behind it,"),
                    normal("in violet when that room is no deeper than yours."),
                ],
            ),
            (
                "HELP: WHAT YOU SEE".to_owned(),
                vec![
                    legend(Tile::Player, kind, "you"),
                    legend(Tile::WayUp, kind, "the way up: bank the score"),
                    Line::legend(
                        Glyph {
                            ch: '3',
                            ..glyph_of(Tile::ExitUnexplored, kind)
                        },
                        "an unexplored exit to a depth-3 room (+ from 10)",
                    ),
                    legend(
                        Tile::LockedDoor,
                        kind,
                        "a locked exit: clear this room first",
                    ),
                    legend(
                        Tile::OneWayUp,
                        kind,
                        "a one-way exit (↑ → ↓ ←): only that way",
                    ),
                    legend(Tile::ChestEmpty, kind, "an empty chest: refill it"),
                    legend(Tile::TrapSprung, kind, "a sprung trap: rearm it"),
                    legend(Tile::TrapArmed, kind, "an armed trap: it costs a heart"),
                ],
            ),
        ]
        .into_iter()
        .chain(super::bestiary_pages())
        .chain(numbers(GameKind::Exploration))
        .chain([("HELP: KEYS".to_owned(), keys())])
        .collect(),
    }
}

/// The Upkeeper's song: a run's rules as the goblin who keeps the dungeon sings them (the
/// first page of a run's help, and the screen of the first run ever played).
fn song() -> (String, Vec<Line>) {
    let verse = |t: &str| Line::new(t, Style::Normal);
    (
        "THE UPKEEPER'S SONG".to_owned(),
        vec![
            verse("The heroes came, the heroes went,"),
            verse("the chests are bare, the traps are spent:"),
            verse("refill each chest, rearm each trap,"),
            verse("then down the stairs, and mind the map."),
            verse("Each step you take, the candle burns;"),
            verse("a tidy floor buys back your turns."),
            verse("Three hearts you have: an armed trap bites,"),
            verse("so tread round teeth you set last night."),
        ],
    )
}

/// How many pages the help of a game of `kind` has.
pub fn help_pages(kind: Option<GameKind>) -> usize {
    pages(kind).len()
}

/// Page `page` (0-based, clamped to the last) of the help screen for a game of `kind`
/// (`None`: the menu), with a footer that says which page and how to turn.
pub fn help_screen(kind: Option<GameKind>, page: usize) -> TextScreen {
    let mut all = pages(kind);
    let count = all.len();
    let page = page.min(count - 1);
    let (heading, body) = all.swap_remove(page);
    let mut lines = vec![Line::new(heading, Style::Heading)];
    lines.extend(aligned(body));
    let footer = if count == 1 {
        "any key closes this help".to_owned()
    } else {
        format!(
            "page {} of {count} · → or Space: next · ←: back · any other key closes",
            page + 1
        )
    };
    TextScreen {
        lines,
        message: Some(Line::new(footer, Style::Hint)),
    }
}

/// A page's legend lines (and its lines of numbers) made one width, padded with spaces at
/// their end, so that every front-end, centring each line, puts their glyphs in one column and
/// their meanings in the next. Other lines are left as they are.
fn aligned(mut lines: Vec<Line>) -> Vec<Line> {
    let width = lines
        .iter()
        .filter(|l| l.glyph.is_some() || l.text.contains("  "))
        .map(|l| l.text.chars().count())
        .max()
        .unwrap_or(0);
    for l in lines
        .iter_mut()
        .filter(|l| l.glyph.is_some() || l.text.contains("  "))
    {
        let pad = width - l.text.chars().count();
        l.text.extend(std::iter::repeat_n(' ', pad));
    }
    lines
}

/// The screen of the first run ever played in a save folder: the Upkeeper's song, then any
/// key to start.
pub fn tutorial_screen() -> TextScreen {
    let (heading, body) = song();
    let mut lines = vec![Line::new(heading, Style::Heading)];
    lines.extend(body);
    TextScreen {
        lines,
        message: Some(Line::new(
            "your first key plays · ? sings it again, with the rules",
            Style::Hint,
        )),
    }
}

/// The keys a mode takes, a group a line (the help's last page): every key the game and the
/// shell take while a game of `kind` is played (`None`: the menu and the seed's digits).
pub fn key_lines(kind: Option<GameKind>) -> Vec<String> {
    let Some(kind) = kind else {
        return [
            "N R E a game, then digits and S",
            "Backspace deletes a digit, Esc goes back",
            "L loads a save, V watches it, Q quits",
            "? help",
        ]
        .map(str::to_owned)
        .to_vec();
    };
    let mut lines = vec!["W A S D, arrows, h j k l, numpad 2 4 6 8 move".to_owned()];
    lines.push(". or numpad 5 wait a turn".to_owned());
    match kind {
        GameKind::Classic => {
            lines.push("Tab what you see only, or the whole map again".to_owned());
        }
        GameKind::Run => {}
        GameKind::Exploration => lines.push("U drink a potion".to_owned()),
    }
    lines.push("X explore · > to the exit · click: walk there".to_owned());
    if kind != GameKind::Classic {
        lines.push("Y yes, when asked (a walk over armed traps)".to_owned());
    }
    lines.push(":Q save and quit".to_owned());
    lines.push("P messages · M minimap · ? help".to_owned());
    lines
}

/// The keys a mode takes, on one line ([`key_lines`] with ` · ` between groups).
pub fn help_keys(kind: Option<GameKind>) -> String {
    format!("keys: {}", key_lines(kind).join(" · "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The headings of the help of `kind`, page by page.
    fn headings(kind: Option<GameKind>) -> Vec<String> {
        (0..help_pages(kind))
            .map(|p| help_screen(kind, p).lines[0].text.clone())
            .collect()
    }

    /// An exploration's help: its rules and legend, the bestiary, the numbers of an
    /// exploration's HUD, the keys last; a run's: the song, its rules and legend, its numbers,
    /// the keys; a classic game's: its page, its numbers, the keys.
    #[test]
    fn each_mode_s_help_runs_rules_then_numbers_then_keys() {
        let numbers = |kind: GameKind| -> Vec<String> {
            let (top, bottom) = HudItem::of_mode(kind);
            if top.len() + bottom.len() <= HELP_PAGE_LINES {
                vec!["HELP: THE NUMBERS".to_owned()]
            } else {
                vec![
                    "HELP: THE NUMBERS, TOP ROW".to_owned(),
                    "HELP: THE NUMBERS, BOTTOM ROW".to_owned(),
                ]
            }
        };
        let keys = vec!["HELP: KEYS".to_owned()];
        let mut want = vec![
            "HELP: AN EXPLORATION".to_owned(),
            "HELP: WHAT YOU SEE".to_owned(),
        ];
        want.extend(super::super::bestiary_pages().into_iter().map(|(h, _)| h));
        want.extend(numbers(GameKind::Exploration));
        want.extend(keys.clone());
        assert_eq!(headings(Some(GameKind::Exploration)), want);
        let mut want = vec![
            "THE UPKEEPER'S SONG".to_owned(),
            "HELP: A RUN".to_owned(),
            "HELP: WHAT YOU SEE".to_owned(),
        ];
        want.extend(numbers(GameKind::Run));
        want.extend(keys.clone());
        assert_eq!(headings(Some(GameKind::Run)), want);
        let mut want = vec!["HELP: A CLASSIC GAME".to_owned()];
        want.extend(numbers(GameKind::Classic));
        want.extend(keys);
        assert_eq!(headings(Some(GameKind::Classic)), want);
        // The numbers pages are each mode's own: an exploration's show its HUD's items (the
        // words compared: a page lays out its own columns).
        let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        for kind in [GameKind::Classic, GameKind::Run, GameKind::Exploration] {
            let shown: Vec<String> = (0..help_pages(Some(kind)))
                .map(|p| help_screen(Some(kind), p).lines)
                .filter(|l| l[0].text.starts_with("HELP: THE NUMBERS"))
                .flat_map(|l| l.into_iter().skip(1).map(|l| words(&l.text)))
                .filter(|t| !t.is_empty() && !t.starts_with('←') && !t.contains("closes"))
                .collect();
            let (mut items, bottom) = HudItem::of_mode(kind);
            items.extend(bottom);
            let want: Vec<String> = numbers::help_lines(&items, kind)
                .iter()
                .map(|l| words(l))
                .collect();
            assert_eq!(shown, want, "{kind:?}");
        }
    }
}
