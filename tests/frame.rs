//! One frame, two painters: the shell decides a frame once ([`byog_shell::Shell::frame`]),
//! and the window's layout of it ([`byog_window::paint`]) and the terminal's
//! ([`byog_terminal::paint`]) agree cell by cell on the view (glyph and colours) and text
//! by text on the HUD and the text screens, on a run, an exploration with a monster in sight,
//! and the help screen. Neither painter can decide a colour or a glyph of its own: where they
//! differ, this fails.

#![cfg(feature = "window")]

use std::collections::BTreeSet;

use byog_game::explore::MonsterKind;
use byog_game::interpreter::GameKind;
use byog_players::explorer;
use byog_shell::screens::{Screen, glyph_of, help_pages, help_screen};
use byog_shell::{Frame, Light, Saves, Shell, ShellOptions};
use byog_terminal::{CellGrid, paint as terminal};
use byog_tile_engine::{Rgb, autotile};
use byog_window::paint::{self as window, Mark, Measure};

/// A monospaced font one cell wide a character at scale 1: the window's grid then holds as
/// many characters a row as the terminal's when it is one column narrower (the window keeps
/// half a cell of margin each side, the terminal one column).
struct Mono;

impl Measure for Mono {
    fn width_cells(&self, text: &str, scale: f32) -> f32 {
        text.chars().count() as f32 * scale
    }
}

/// The terminal's size in the test, and its view (less the HUD's two rows).
const COLS: u16 = 60;
const ROWS: u16 = 24;

fn shell() -> (tempfile::TempDir, Shell) {
    shell_with(Default::default())
}

/// A shell over a fresh save folder playing games made with `game`: the folder (kept alive
/// while the shell lives) and the shell.
fn shell_with(game: byog_game::GameOptions) -> (tempfile::TempDir, Shell) {
    let dir = tempfile::tempdir().unwrap();
    let shell = Shell::new(ShellOptions {
        game,
        saves: Saves::Folder {
            dir: dir.path().to_owned(),
            slot: None,
        },
        walls: None,
        watch: false,
        front_end: Default::default(),
        seed_label: None,
    })
    .unwrap();
    (dir, shell)
}

fn keys(shell: &mut Shell, keys: &str) {
    for k in keys.chars() {
        shell.key(k, 0.0);
        shell.finish_walk(0.0);
    }
}

/// The frame the terminal would ask for, with no minimap (it covers the view's corner in the
/// terminal and is a texture in the window) and the pointer at the view's centre.
fn frame(shell: &mut Shell) -> Frame {
    let mut request = terminal::request(COLS, ROWS, Some((COLS / 2, ROWS / 2)));
    request.minimap = None;
    shell.frame(0.0, &request)
}

/// Both painters' output of `frame`: the terminal's grid and the window's layout.
fn painted(frame: &Frame, colour: bool) -> (CellGrid, window::Painted) {
    painted_at(frame, colour, COLS, ROWS, ROWS)
}

/// Both painters' output of `frame` on a terminal of `cols × rows` and a window whose HUD
/// grid is one column narrower and `window_rows` high.
fn painted_at(
    frame: &Frame,
    colour: bool,
    cols: u16,
    rows: u16,
    window_rows: u16,
) -> (CellGrid, window::Painted) {
    let mut grid = CellGrid::new(cols, rows);
    terminal::paint(&mut grid, frame, colour);
    let laid = window::paint(frame, u32::from(cols) - 1, u32::from(window_rows), &Mono);
    (grid, laid)
}

/// The view's cells agree: every cell the window draws is the terminal's cell below the HUD
/// (the glyph, a box wall's strokes as its box-drawing character, the colours), and every
/// cell the window leaves black the terminal leaves blank. Rows a long message's HUD rows
/// cover (both painters draw them over the view's top) are left out. Returns how many cells
/// were compared.
fn assert_cells_agree(frame: &Frame, grid: &CellGrid, laid: &window::Painted) -> usize {
    let view = frame.view.as_ref().expect("a game's frame has a view");
    let covered = (laid.hud_rows.len() as u32).saturating_sub(2);
    let mut drawn = BTreeSet::new();
    for c in laid.cells.iter().filter(|c| c.row >= covered) {
        let t = grid.get(c.col as u16, c.row as u16 + 2).unwrap();
        let glyph = match c.mark {
            Mark::Nothing => ' ',
            Mark::Glyph(ch) => ch,
            Mark::Wall(mask) => autotile::box_char(mask),
        };
        assert_eq!(t.ch, glyph, "cell ({}, {})", c.col, c.row);
        assert_eq!(t.bg, c.bg, "background of ({}, {})", c.col, c.row);
        if c.mark != Mark::Nothing {
            assert_eq!(t.fg, c.fg, "colour of ({}, {})", c.col, c.row);
        }
        drawn.insert((c.col, c.row));
    }
    for row in covered..view.rows {
        for col in 0..view.cols {
            if !drawn.contains(&(col, row)) {
                let t = grid.get(col as u16, row as u16 + 2).unwrap();
                assert_eq!((t.ch, t.bg), (' ', Rgb::new(0, 0, 0)), "({col}, {row})");
            }
        }
    }
    drawn.len()
}

/// Words of text with their colours, in reading order: the window's texts, and the
/// terminal's rows (each run of equally coloured text a piece), so that the two are compared
/// whatever their wrapping and centring.
fn words_of_window(laid: &window::Painted) -> Vec<(String, Rgb)> {
    // The window draws in rows from the bottom: top rows first, left to right.
    let mut texts: Vec<&window::TextDraw> = laid.texts.iter().collect();
    texts.sort_by(|a, b| b.row.cmp(&a.row).then(a.x.total_cmp(&b.x)));
    texts
        .iter()
        .flat_map(|t| t.text.split_whitespace().map(|w| (w.to_owned(), t.color)))
        .collect()
}

fn words_of_terminal(grid: &CellGrid, rows: std::ops::Range<u16>) -> Vec<(String, Rgb)> {
    let mut out = Vec::new();
    for y in rows {
        let mut word = String::new();
        let mut colour = Rgb::new(0, 0, 0);
        for x in 0..grid.cols() {
            let c = grid.get(x, y).unwrap();
            if c.ch == ' ' {
                if !word.is_empty() {
                    out.push((std::mem::take(&mut word), colour));
                }
            } else {
                if word.is_empty() {
                    colour = c.fg;
                }
                word.push(c.ch);
            }
        }
        if !word.is_empty() {
            out.push((word, colour));
        }
    }
    out
}

#[test]
fn a_run_is_painted_alike_by_the_window_and_the_terminal() {
    let (_dir, mut s) = shell();
    keys(&mut s, "R7SX");
    let f = frame(&mut s);
    for colour in [true, false] {
        let (grid, laid) = painted(&f, colour);
        let drawn = assert_cells_agree(&f, &grid, &laid);
        assert!(drawn > 50, "the run's view shows its first room: {drawn}");
        // The HUD: the same words in the same colours, row by row.
        let rows = laid.hud_rows.len() as u16;
        assert!(rows >= 2);
        assert_eq!(words_of_window(&laid), words_of_terminal(&grid, 0..rows));
    }
    // What is lit, remembered and unseen is the frame's: both painters drew walls as box
    // strokes and the floor's dots in the light's colours.
    let view = f.view.as_ref().unwrap();
    // The help's legend draws the avatar as the game does (issue 30).
    let avatar = view.cells.iter().find(|c| c.glyph == '@').unwrap();
    let legend = glyph_of(byog_tile_engine::Tile::Player, Some(GameKind::Run));
    assert_eq!((legend.ch, legend.fg), ('@', avatar.fg));
    assert!(view.cells.iter().any(|c| c.box_wall().is_some()));
    assert!(view.cells.iter().any(|c| c.light == Light::Lit));
    assert!(view.cells.iter().any(|c| c.light == Light::Unseen));
}

#[test]
fn an_exploration_with_a_monster_in_sight_is_painted_alike() {
    let (_dir, mut s) = shell();
    keys(&mut s, "E7S");
    let monster = |f: &Frame| {
        f.view.as_ref().is_some_and(|v| {
            v.cells.iter().any(|c| {
                c.light == Light::Lit
                    && MonsterKind::ALL
                        .iter()
                        .any(|k| k.stats().tile.character() == c.glyph)
            })
        })
    };
    // The explorer's steps until a monster comes into sight.
    let mut f = frame(&mut s);
    for _ in 0..3000 {
        if monster(&f) {
            break;
        }
        let Some(d) = s.shown_game().and_then(explorer::next_move) else {
            break;
        };
        let key = byog_game::Action::Move(d).key();
        keys(&mut s, &key.to_string());
        f = frame(&mut s);
    }
    assert!(monster(&f), "the explorer met no monster");
    // The help's legend draws each monster in the colour the game draws it in (issue 30).
    let view = f.view.as_ref().unwrap();
    for kind in MonsterKind::ALL {
        let tile = kind.stats().tile;
        if let Some(c) = view
            .cells
            .iter()
            .find(|c| c.light == Light::Lit && c.glyph == tile.character())
        {
            let legend = glyph_of(tile, Some(GameKind::Exploration));
            assert_eq!(legend.fg, c.fg, "{}", kind.name());
        }
    }
    for colour in [true, false] {
        let (grid, laid) = painted(&f, colour);
        assert_cells_agree(&f, &grid, &laid);
        let rows = laid.hud_rows.len() as u16;
        assert_eq!(words_of_window(&laid), words_of_terminal(&grid, 0..rows));
    }
}

#[test]
fn the_help_screen_is_painted_alike() {
    let (_dir, mut s) = shell();
    keys(&mut s, "E7S?D"); // the help's second page: what you see
    let f = frame(&mut s);
    assert!(f.view.is_none(), "help is a text screen");
    // Tall enough that neither clips the help (paging it is the help's own business).
    let (grid, laid) = painted_at(&f, true, 100, 60, 90);
    let window = words_of_window(&laid);
    let terminal = words_of_terminal(&grid, 0..60);
    assert!(window.len() > 40, "{window:?}");
    assert_eq!(window, terminal);
    // The legend's glyphs are drawn in colours of their own, not all white.
    let colours: BTreeSet<(u8, u8, u8)> = window.iter().map(|(_, c)| (c.r, c.g, c.b)).collect();
    assert!(colours.len() > 4, "{colours:?}");
}

/// DejaVu Sans Mono, the window's font: an advance of about 0.53 of a 16-pixel cell at 14
/// points.
struct DejaVu;

impl Measure for DejaVu {
    fn width_cells(&self, text: &str, scale: f32) -> f32 {
        text.chars().count() as f32 * 0.527 * scale
    }
}

/// Issue 30: every page of every help fits the default window (1280 × 512: a text grid of 80
/// × 32 cells) and an 80 × 24 terminal: every line of a page is drawn whole, in order, above
/// the footer, and the footer says how to turn the pages; nothing of the help is unreachable.
#[test]
fn every_help_page_fits_the_default_window_and_an_80_by_24_terminal() {
    for kind in [
        None,
        Some(GameKind::Classic),
        Some(GameKind::Run),
        Some(GameKind::Exploration),
    ] {
        let pages = help_pages(kind);
        assert!(pages >= 1);
        for page in 0..pages {
            let text = help_screen(kind, page);
            let footer = text.message.clone().expect("a footer");
            if pages > 1 {
                assert!(
                    footer
                        .text
                        .contains(&format!("page {} of {pages}", page + 1))
                );
            }
            let want: Vec<String> = text
                .lines
                .iter()
                .flat_map(|l| {
                    l.plain()
                        .split_whitespace()
                        .map(str::to_owned)
                        .collect::<Vec<_>>()
                })
                .collect();
            let frame = Frame {
                screen: Screen::Text(text),
                view: None,
                minimap: None,
            };
            // The terminal: the lines above its footer (three rows from the bottom).
            let mut grid = CellGrid::new(80, 24);
            terminal::paint(&mut grid, &frame, true);
            let body: Vec<String> = words_of_terminal(&grid, 0..21)
                .into_iter()
                .map(|(w, _)| w)
                .collect();
            assert_eq!(body, want, "{kind:?} page {page} in 80 × 24");
            let foot: Vec<String> = words_of_terminal(&grid, 21..24)
                .into_iter()
                .map(|(w, _)| w)
                .collect();
            assert_eq!(foot.join(" "), footer.text, "{kind:?} page {page}");
            // The window: every line in rows of the grid, above the footer's (rows 0-2).
            let laid = window::paint(&frame, 80, 32, &DejaVu);
            let (lines, foot): (Vec<_>, Vec<_>) = laid
                .texts
                .iter()
                .partition(|t| !footer.text.contains(t.text.trim()) || t.row > 2);
            for t in &lines {
                assert!(
                    (3..32).contains(&t.row),
                    "{kind:?} page {page}: {:?} at row {}",
                    t.text,
                    t.row
                );
            }
            assert!(foot.iter().all(|t| t.row <= 2), "{foot:?}");
            let shown: Vec<String> = lines
                .iter()
                .flat_map(|t| t.text.split_whitespace().map(str::to_owned))
                .collect();
            assert_eq!(shown, want, "{kind:?} page {page} in 1280 × 512");
        }
    }
}

/// Issue 31, problem 16: the minimap never covers what the avatar sees. Along an explorer's
/// walk, whenever the frame has a minimap, none of the view's cells under it (where the
/// terminal draws it: its corner, a cell for two of its pixel rows) is lit.
#[test]
fn the_minimap_never_hides_what_the_avatar_sees() {
    use byog_shell::frame::Corner;
    // The explorer walks and never fights, so the exploration has no monsters: since rules
    // version 10 a rat it wakes in passing ends its walk at depth 2 within 50 moves.
    let mut game = byog_game::GameOptions::default();
    game.explore.monsters = false;
    let (_dir, mut s) = shell_with(game);
    keys(&mut s, "E7S");
    let mut shown = 0;
    for _ in 0..600 {
        let f = s.frame(0.0, &terminal::request(COLS, ROWS, None));
        if let (Some(view), Some(m)) = (&f.view, &f.minimap) {
            shown += 1;
            let (w, h) = (m.width, m.height.div_ceil(2));
            let left = match m.corner {
                Corner::TopRight | Corner::BottomRight => view.cols - w,
                _ => 0,
            };
            let top = match m.corner {
                Corner::TopRight | Corner::TopLeft => 0,
                _ => view.rows - h,
            };
            for row in top..top + h {
                for col in left..left + w {
                    let c = view.cell(col, row).unwrap();
                    assert_ne!(
                        c.light,
                        Light::Lit,
                        "the minimap covers a lit cell ({col}, {row})"
                    );
                }
            }
        }
        let Some(d) = s.shown_game().and_then(explorer::next_move) else {
            break;
        };
        keys(&mut s, &byog_game::Action::Move(d).key().to_string());
    }
    assert!(shown > 100, "the minimap showed in {shown} frames");
}
