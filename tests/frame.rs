//! One frame, two painters: the shell decides a frame once ([`byog::shell::Shell::frame`]),
//! and the window's layout of it ([`byog::window::paint`]) and the terminal's
//! ([`byog::terminal::paint`]) agree cell by cell on the view (glyph and colours) and text
//! by text on the HUD and the text screens, on a run, an exploration with a monster in sight,
//! and the help screen. Neither painter can decide a colour or a glyph of its own: where they
//! differ, this fails.

use std::collections::BTreeSet;

use byog::core::explore::MonsterKind;
use byog::core::players::explorer;
use byog::shell::{Frame, Light, Saves, Shell, ShellOptions};
use byog::terminal::{CellGrid, paint as terminal};
use byog::tile_engine::{Rgb, autotile};
use byog::window::paint::{self as window, Mark, Measure};

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
    let dir = tempfile::tempdir().unwrap();
    let shell = Shell::new(ShellOptions {
        width: 80,
        height: 30,
        settings: Default::default(),
        floors: 10,
        explore: Default::default(),
        saves: Saves::Folder {
            dir: dir.path().to_owned(),
            slot: "save".to_owned(),
        },
        walls: None,
        watch: false,
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
        let key = byog::core::Action::Move(d).key();
        keys(&mut s, &key.to_string());
        f = frame(&mut s);
    }
    assert!(monster(&f), "the explorer met no monster");
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
    keys(&mut s, "E7S?");
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
