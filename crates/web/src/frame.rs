//! A frame on the wire: the shell's [`Frame`] as one compact JSON object (`docs/web.md`,
//! "frame"). Every frame is whole: the page keeps nothing from one frame to the next but
//! what the last frame said.
//!
//! The view's `cols × rows` cells are sent as
//! - `text`: the rows' glyphs, top row first, each row's trailing blanks cut (the page pads
//!   them back; the rows are also the text mirror of the grid);
//! - `styles`: the frame's palette, one string a distinct look, `RRGGBBrrggbbL`: the glyph's
//!   colour, the background's, and the light (`s` shown, `l` lit, `r` remembered, `u`
//!   unseen; upper case when the cell is on a route waiting for `Y`);
//! - `runs`: the palette index of every cell, row by row from the top, as pairs
//!   `[index, count]` flattened (`[0, 120, 3, 2, …]`), the counts adding up to `cols × rows`.
//!
//! A lit room fades with the distance to the avatar, so a frame holds a few dozen looks and
//! a few hundred runs: an 80 × 30 view of a run is 3 to 6 KB of JSON against some 150 KB
//! for the cells as objects (`docs/web.md` has the measured sizes).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use serde::Serialize;

use byog_game::GameState;
use byog_shell::frame::Corner;
use byog_shell::screens::{Line, Screen, Style};
use byog_shell::{Frame, Light, MinimapFrame, View};
use byog_tile_engine::Rgb;

/// `rrggbb` of a colour (hex, no `#`).
pub fn hex(c: Rgb) -> String {
    let mut s = String::with_capacity(6);
    push_hex(&mut s, &[c.r, c.g, c.b]);
    s
}

/// Appends each byte of `bytes` to `s` as two lower-case hex digits (no `core::fmt`: a
/// frame's palette is written on every key, `docs/web.md`, "Measured").
fn push_hex(s: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for &b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
}

/// A hasher for the palette's keys, which are already well mixed by [`look_key`]'s
/// multiplication: the table is only looked up, never walked, so the palette's order stays
/// the order of first use whatever the hashing.
#[derive(Default)]
struct PaletteHasher(u64);

impl Hasher for PaletteHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        // Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4): the high bits mix every input bit.
        self.0 = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Palette indices by look, looked up only.
type Palette = HashMap<u64, u32, BuildHasherDefault<PaletteHasher>>;

/// A style's name on the wire (the page sizes titles and headings by it).
fn style_name(style: Style) -> &'static str {
    match style {
        Style::Title => "title",
        Style::Heading => "heading",
        Style::Normal => "normal",
        Style::Dim => "dim",
        Style::Hint => "hint",
        Style::Input => "input",
        Style::Message => "message",
    }
}

/// A line of text: `[text, colour, style, glyph]`, the glyph a legend's `[character,
/// colour, background]` drawn two cells before the words, or `null`.
type WireLine = (String, String, &'static str, Option<(char, String, String)>);

fn line(l: &Line) -> WireLine {
    (
        l.text.clone(),
        hex(l.style.color()),
        style_name(l.style),
        l.glyph.map(|g| (g.ch, hex(g.fg), hex(g.bg))),
    )
}

/// The screen on the wire.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum WireScreen {
    /// Centred lines, and the message line.
    Text {
        /// The lines, top first.
        lines: Vec<WireLine>,
        /// The message line.
        message: Option<WireLine>,
    },
    /// The HUD's rows over the world: `[left, left colour, right, right when short of
    /// room]` (the last empty when the right text has no shorter form).
    Game {
        /// The rows, top first.
        hud: Vec<(String, String, String, String)>,
    },
}

impl WireScreen {
    /// The wire form of `screen`.
    pub fn of(screen: &Screen) -> WireScreen {
        match screen {
            Screen::Text(t) => WireScreen::Text {
                lines: t.lines.iter().map(line).collect(),
                message: t.message.as_ref().map(line),
            },
            Screen::Game(hud) => WireScreen::Game {
                hud: hud
                    .rows
                    .iter()
                    .map(|r| {
                        (
                            r.left.clone(),
                            hex(r.left_style.color()),
                            r.right.clone(),
                            r.right_short.clone(),
                        )
                    })
                    .collect(),
            },
        }
    }
}

/// The view on the wire.
#[derive(Debug, Serialize)]
pub struct WireView {
    /// Cells across.
    pub cols: u32,
    /// Cells down.
    pub rows: u32,
    /// The world tile of the view's bottom-left cell, `[x, y]`.
    pub origin: [i32; 2],
    /// The rows' glyphs, top first, trailing blanks cut.
    pub text: Vec<String>,
    /// The palette: `RRGGBBrrggbbL` a look.
    pub styles: Vec<String>,
    /// `[index, count]` pairs flattened, row by row from the top.
    pub runs: Vec<u32>,
}

/// A cell's look packed in a word: its colours' six channels, then its light letter (an
/// ASCII letter) in the seventh byte.
fn look_key(c: &byog_shell::Cell) -> u64 {
    u64::from_le_bytes([
        c.fg.r,
        c.fg.g,
        c.fg.b,
        c.bg.r,
        c.bg.g,
        c.bg.b,
        light_letter(c.light, c.route) as u8,
        0,
    ])
}

fn light_letter(light: Light, route: bool) -> char {
    let c = match light {
        Light::Shown => 's',
        Light::Lit => 'l',
        Light::Remembered => 'r',
        Light::Unseen => 'u',
    };
    if route { c.to_ascii_uppercase() } else { c }
}

impl WireView {
    /// The wire form of `view`.
    pub fn of(view: &View) -> WireView {
        let cols = view.cols as usize;
        let mut text = Vec::with_capacity(view.rows as usize);
        for row in view.cells.chunks(cols.max(1)) {
            let used = row
                .iter()
                .rposition(|c| c.glyph != ' ')
                .map_or(0, |i| i + 1);
            let mut s = String::with_capacity(used);
            s.extend(row[..used].iter().map(|c| c.glyph));
            text.push(s);
        }
        // The looks seen so far, in order of first use (a few dozen; up to one a cell in a
        // large view). A run continues while the look does not change, so the table is
        // asked once a run, not once a cell.
        let mut styles: Vec<String> = Vec::with_capacity(64);
        let mut palette = Palette::with_capacity_and_hasher(64, Default::default());
        let mut runs: Vec<u32> = Vec::with_capacity(512);
        let mut last: Option<u64> = None;
        for c in &view.cells {
            let k = look_key(c);
            if last == Some(k) {
                if let Some(n) = runs.last_mut() {
                    *n += 1;
                }
                continue;
            }
            last = Some(k);
            let i = *palette.entry(k).or_insert_with(|| {
                let mut s = String::with_capacity(13);
                push_hex(&mut s, &k.to_le_bytes()[..6]);
                s.push(k.to_le_bytes()[6] as char);
                styles.push(s);
                (styles.len() - 1) as u32
            });
            match runs.len() {
                n if n >= 2 && runs[n - 2] == i => runs[n - 1] += 1,
                _ => runs.extend([i, 1]),
            }
        }
        WireView {
            cols: view.cols,
            rows: view.rows,
            origin: [view.origin.x, view.origin.y],
            text,
            styles,
            runs,
        }
    }
}

/// The minimap on the wire: its pixels as a palette of `RRGGBBAA` colours and runs
/// `[index, count]` flattened, row by row from the top (most of a minimap is one of three
/// colours, so a few hundred numbers).
#[derive(Debug, Serialize)]
pub struct WireMinimap {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// The colours, `RRGGBBAA` (alpha 00: nothing known).
    pub colours: Vec<String>,
    /// `[index, count]` pairs.
    pub runs: Vec<u32>,
    /// The avatar's pixel.
    pub avatar: Option<(u32, u32)>,
    /// The exit's pixel, once seen.
    pub exit: Option<(u32, u32)>,
    /// The view's outline: x, y, width, height in pixels.
    pub outline: (u32, u32, u32, u32),
    /// The view's corner to draw it in (`"TopRight"`, `"TopLeft"`, `"BottomRight"` or
    /// `"BottomLeft"`): the frame's choice, where it covers no tile seen.
    pub corner: Corner,
}

impl WireMinimap {
    /// The wire form of `m`.
    pub fn of(m: &MinimapFrame) -> WireMinimap {
        let mut palette: Vec<[u8; 4]> = Vec::new();
        let mut runs: Vec<u32> = Vec::new();
        for px in m.rgba.chunks_exact(4) {
            let c = [px[0], px[1], px[2], px[3]];
            let i = match palette.iter().position(|p| *p == c) {
                Some(i) => i,
                None => {
                    palette.push(c);
                    palette.len() - 1
                }
            } as u32;
            match runs.len() {
                n if n >= 2 && runs[n - 2] == i => runs[n - 1] += 1,
                _ => runs.extend([i, 1]),
            }
        }
        WireMinimap {
            width: m.width,
            height: m.height,
            colours: palette
                .iter()
                .map(|c| {
                    let mut s = String::with_capacity(8);
                    push_hex(&mut s, c);
                    s
                })
                .collect(),
            runs,
            avatar: m.avatar,
            exit: m.exit,
            outline: m.outline,
            corner: m.corner,
        }
    }
}

/// The game's numbers beside the frame, for the page's title and end-of-game choices.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// `classic`, `run` or `explore` ([`byog_game::GameKind::name`]).
    pub mode: &'static str,
    /// `playing`, `won` or `lost` ([`byog_game::LevelStatus::name`]).
    pub status: &'static str,
    /// Points (runs and explorations).
    pub score: Option<u64>,
    /// Steps taken.
    pub moves: u64,
}

impl GameSummary {
    /// The summary of `game`.
    pub fn of(game: &GameState) -> GameSummary {
        GameSummary {
            mode: game.kind().name(),
            status: game.status().name(),
            score: game.score(),
            moves: game.moves(),
        }
    }
}

/// One frame message (`"type": "frame"`).
#[derive(Debug, Serialize)]
pub struct FrameMessage<'a> {
    /// Always `frame`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The game's id.
    pub game: &'a str,
    /// The frame's number in its game (a watcher sees gaps when it skipped frames).
    pub seq: u64,
    /// The last batch of keys this frame answers (the player's numbering).
    pub ack: u64,
    /// The session ended (`:Q`): the page goes back to the lobby.
    pub over: bool,
    /// The screen.
    pub screen: WireScreen,
    /// The world's view, when the world is shown.
    pub view: Option<WireView>,
    /// The minimap, when shown.
    pub minimap: Option<WireMinimap>,
    /// The game's numbers, once a game started.
    pub summary: Option<GameSummary>,
}

/// Encodes `frame` as a frame message.
pub fn encode(
    game_id: &str,
    seq: u64,
    ack: u64,
    over: bool,
    frame: &Frame,
    summary: Option<GameSummary>,
) -> String {
    let msg = FrameMessage {
        kind: "frame",
        game: game_id,
        seq,
        ack,
        over,
        screen: WireScreen::of(&frame.screen),
        view: frame.view.as_ref().map(WireView::of),
        minimap: frame.minimap.as_ref().map(WireMinimap::of),
        summary,
    };
    serde_json::to_string(&msg).unwrap_or_default()
}

/// The cells of a wire view decoded back (the page's work, for tests): `(glyph, style)`
/// row by row from the top.
pub fn decode_cells(view: &serde_json::Value) -> Vec<(char, String)> {
    let cols = view["cols"].as_u64().unwrap_or(0) as usize;
    let styles: Vec<String> = view["styles"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().unwrap_or("").to_owned())
                .collect()
        })
        .unwrap_or_default();
    let mut looks = Vec::new();
    if let Some(runs) = view["runs"].as_array() {
        for pair in runs.chunks(2) {
            let (i, n) = (
                pair[0].as_u64().unwrap_or(0) as usize,
                pair.get(1).and_then(|v| v.as_u64()).unwrap_or(0),
            );
            for _ in 0..n {
                looks.push(styles.get(i).cloned().unwrap_or_default());
            }
        }
    }
    let mut out = Vec::with_capacity(looks.len());
    if let Some(rows) = view["text"].as_array() {
        for (y, row) in rows.iter().enumerate() {
            let glyphs: Vec<char> = row.as_str().unwrap_or("").chars().collect();
            for x in 0..cols {
                let look = looks.get(y * cols + x).cloned().unwrap_or_default();
                out.push((glyphs.get(x).copied().unwrap_or(' '), look));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use byog_shell::screens::{Hud, HudRow};
    use byog_shell::{Cell, Light, View};
    use byog_tile_engine::Pos;

    fn cell(glyph: char, v: u8, light: Light) -> Cell {
        Cell {
            glyph,
            fg: Rgb::new(v, v, v),
            bg: Rgb::new(0, 0, 0),
            light,
            route: false,
        }
    }

    #[test]
    fn a_view_goes_out_as_rows_palette_and_runs_and_comes_back_whole() {
        let mut cells = vec![cell(' ', 0, Light::Unseen); 12];
        cells[1] = cell('#', 200, Light::Lit);
        cells[2] = cell('#', 200, Light::Lit);
        cells[5] = cell('@', 255, Light::Lit);
        cells[6] = Cell {
            route: true,
            ..cell('·', 90, Light::Remembered)
        };
        let view = View {
            cols: 4,
            rows: 3,
            origin: Pos::new(3, 7),
            cells: cells.clone(),
        };
        let wire = WireView::of(&view);
        assert_eq!(wire.text, [" ##", " @·", ""]);
        assert_eq!(wire.styles[0], "000000000000u");
        assert_eq!(wire.styles[3], "5a5a5a000000R");
        assert_eq!(wire.runs.iter().skip(1).step_by(2).sum::<u32>(), 12);
        assert_eq!(wire.runs, [0, 1, 1, 2, 0, 2, 2, 1, 3, 1, 0, 5]);
        let json = serde_json::to_value(&wire).unwrap();
        let back = decode_cells(&json);
        assert_eq!(back.len(), 12);
        for (c, (g, look)) in cells.iter().zip(&back) {
            assert_eq!(c.glyph, *g);
            assert_eq!(&look[..6], hex(c.fg));
            assert_eq!(&look[6..12], hex(c.bg));
        }
    }

    /// The plain encoder the fast one replaced (one string a row by `collect`, a list
    /// searched for each look, `format!` for the hex): the oracle.
    fn plain_view(view: &View) -> WireView {
        let cols = view.cols as usize;
        let text: Vec<String> = view
            .cells
            .chunks(cols.max(1))
            .map(|row| {
                let s: String = row.iter().map(|c| c.glyph).collect();
                s.trim_end_matches(' ').to_owned()
            })
            .collect();
        let mut looks: Vec<String> = Vec::new();
        let mut runs: Vec<u32> = Vec::new();
        for c in &view.cells {
            let look = format!(
                "{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}{}",
                c.fg.r,
                c.fg.g,
                c.fg.b,
                c.bg.r,
                c.bg.g,
                c.bg.b,
                light_letter(c.light, c.route)
            );
            let i = match looks.iter().position(|l| *l == look) {
                Some(i) => i as u32,
                None => {
                    looks.push(look);
                    (looks.len() - 1) as u32
                }
            };
            match runs.len() {
                n if n >= 2 && runs[n - 2] == i => runs[n - 1] += 1,
                _ => runs.extend([i, 1]),
            }
        }
        WireView {
            cols: view.cols,
            rows: view.rows,
            origin: [view.origin.x, view.origin.y],
            text,
            styles: looks,
            runs,
        }
    }

    #[test]
    fn the_fast_encoder_writes_what_the_plain_one_writes_for_real_frames() {
        use crate::GameOptions;
        use crate::games::shell_options;
        use byog_shell::{FrameRequest, Shell};
        let (mut frames, mut minimaps) = (0, 0);
        for keys in [
            "R42SDDDDWWWWAAAA",
            "R7SSSSDDDDDDDDWWWW",
            "E7SWWWWWWWWWDDDD",
            "E123SAAAASSSSDDDD",
            "N1234SWWDD",
            "N99SDDDDDDSSSS",
        ] {
            let mut shell = Shell::replayed(shell_options(&GameOptions::default(), None), keys)
                .expect("replays");
            for (cols, rows) in [(80, 30), (41, 17), (200, 60), (7, 3)] {
                let req = FrameRequest {
                    view_cols: cols,
                    view_rows: rows,
                    minimap: Some((20, 10)),
                    pointer: None,
                };
                let frame = shell.frame(0.0, &req);
                let view = frame.view.as_ref().expect("a game shows its world");
                assert_eq!(
                    serde_json::to_string(&WireView::of(view)).unwrap(),
                    serde_json::to_string(&plain_view(view)).unwrap(),
                    "{keys} at {cols}x{rows}"
                );
                let Some(m) = frame.minimap.as_ref() else {
                    frames += 1;
                    continue;
                };
                minimaps += 1;
                let colours: Vec<String> = WireMinimap::of(m).colours;
                for c in &colours {
                    assert_eq!(c.len(), 8);
                }
                let plain: Vec<String> = {
                    let mut p: Vec<String> = Vec::new();
                    for px in m.rgba.chunks_exact(4) {
                        let s = format!("{:02x}{:02x}{:02x}{:02x}", px[0], px[1], px[2], px[3]);
                        if !p.contains(&s) {
                            p.push(s);
                        }
                    }
                    p
                };
                assert_eq!(colours, plain);
                frames += 1;
            }
        }
        assert_eq!(frames, 24);
        assert!(minimaps >= 6, "{minimaps} minimaps compared");
        assert_eq!(hex(Rgb::new(0, 0x0f, 0xf0)), "000ff0");
    }

    /// The page draws the minimap in the corner the wire names (`paint.js`), so the wire
    /// must carry the frame's choice: walking an exploration in the browser's default view
    /// (80 × 49 cells, where seen rooms reach the top-right corner), the corner moves and
    /// the wire follows it. (Until 2026-11-29 the wire left it out and the page always drew
    /// top-right, over the rooms the frame had moved it off.)
    #[test]
    fn the_wire_minimap_names_the_frames_corner() {
        use crate::GameOptions;
        use crate::games::shell_options;
        use byog_shell::{FrameRequest, Shell};
        let mut shell = Shell::new(shell_options(&GameOptions::default(), None)).unwrap();
        let req = FrameRequest {
            view_cols: 80,
            view_rows: 49,
            minimap: Some((20, 16)),
            pointer: None,
        };
        let mut corners = Vec::new();
        for key in "E1729S".chars().chain(std::iter::repeat_n('X', 40)) {
            shell.key(key, 0.0);
            shell.finish_walk(0.0);
            let frame = shell.frame(0.0, &req);
            let Some(m) = frame.minimap.as_ref() else {
                continue;
            };
            let wire: serde_json::Value =
                serde_json::from_str(&encode("g", 0, 0, false, &frame, None)).unwrap();
            assert_eq!(
                wire["minimap"]["corner"],
                serde_json::to_value(m.corner).unwrap(),
                "{}",
                wire["minimap"]["corner"]
            );
            corners.push(m.corner);
        }
        assert!(corners.len() > 20, "{} minimaps", corners.len());
        assert!(corners.contains(&Corner::TopRight), "{corners:?}");
        assert!(
            corners.iter().any(|c| *c != Corner::TopRight),
            "the minimap never left the top-right corner: {corners:?}"
        );
    }

    #[test]
    fn a_hud_keeps_its_colours() {
        let screen = Screen::Game(Hud {
            rows: [
                HudRow {
                    left: "blocked".into(),
                    left_style: Style::Message,
                    right: "seed 7".into(),
                    right_short: String::new(),
                },
                HudRow {
                    left: String::new(),
                    left_style: Style::Normal,
                    right: "moves 3".into(),
                    right_short: String::new(),
                },
            ],
        });
        let json = serde_json::to_value(WireScreen::of(&screen)).unwrap();
        assert_eq!(json["kind"], "game");
        assert_eq!(json["hud"][0][0], "blocked");
        assert_eq!(json["hud"][0][1], "ffc800");
        assert_eq!(json["hud"][1][2], "moves 3");
    }
}
