//! Debug views of a world for `byog gen --view` (text, optionally ANSI-coloured): what the
//! level designer looks at when tuning the generator (after the debug views of Cogmind's
//! "Dungeon Metrics" post and Nystrom's region colouring in "Rooms and Mazes").
//!
//! Every view is one character a tile, rows top first, like [`TETile::to_string`]. With
//! colour, each character is wrapped in 24-bit ANSI escapes (`ESC[38;2;r;g;bm`) and each row
//! ends with a reset (`ESC[0m`).
//!
//! [`TETile::to_string`]: byog_tile_engine::TETile::to_string

use std::fmt::Write as _;

use clap::ValueEnum;

use byog_tile_engine::{Pos, Rgb, Tile, World};
use byog_worlds::metrics::{self, NO_ROOM};

/// Which debug view to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DebugView {
    /// The world as `to_string` prints it (coloured with the Tileset's text colours).
    Plain,
    /// Walkable (`.`: floor, avatar) against not walkable (`#`), nothing else.
    Monochrome,
    /// Each room as a letter (`a`-`z`, `A`-`Z`, then again) in its own colour; corridors `·`.
    Regions,
    /// Walkable tiles shaded by BFS distance from the avatar: `0` nearest to `9` farthest
    /// tenth; unreachable `?`.
    Distance,
    /// Rooms shaded by seclusion (BFS distance from the critical path): `0` on the path to
    /// `9` most secluded tenth; the critical path `*`, other corridors `·`.
    Seclusion,
    /// The critical path over the room graph (LootQuest's): tiles of the rooms and corridors
    /// on it `*`; every other room as its dead-end length, `1`-`9` rooms away from the path
    /// (`+` beyond 9, `?` cut off); other corridors `·`.
    CriticalPath,
}

const ROOM_LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const GREY: Rgb = Rgb::new(110, 110, 110);

/// One printed tile: its character and, for coloured output, its colour.
type Cell = (char, Rgb);

/// Renders `view` of `world` (avatar at `avatar`, exit at `exit`); `color` adds ANSI colours.
pub fn render(world: &World, avatar: Pos, exit: Pos, view: DebugView, color: bool) -> String {
    let cells: Vec<Cell> = match view {
        DebugView::Plain => world
            .tiles()
            .iter()
            .map(|t| (t.character(), t.tetile().text_color()))
            .collect(),
        DebugView::Monochrome => world
            .tiles()
            .iter()
            .map(|&t| {
                if metrics::is_open(t) {
                    ('.', Rgb::new(255, 255, 255))
                } else {
                    ('#', GREY)
                }
            })
            .collect(),
        DebugView::Regions => regions(world),
        DebugView::Distance => distance(world, avatar),
        DebugView::Seclusion => seclusion(world, avatar, exit),
        DebugView::CriticalPath => critical_path(world, avatar, exit),
    };
    let mut out = String::with_capacity(cells.len() * if color { 24 } else { 2 });
    for row in cells.chunks(world.width().max(1)).rev() {
        for &(c, rgb) in row {
            if color && c != ' ' {
                let _ = write!(out, "\x1b[38;2;{};{};{}m{c}", rgb.r, rgb.g, rgb.b);
            } else {
                out.push(c);
            }
        }
        if color {
            out.push_str("\x1b[0m");
        }
        out.push('\n');
    }
    out
}

/// The character of a tile that a view leaves as it is (walls, nothing, avatar, exit).
fn plain(t: Tile) -> Cell {
    (t.character(), t.tetile().text_color())
}

fn regions(world: &World) -> Vec<Cell> {
    let ids = metrics::room_ids(world);
    world
        .tiles()
        .iter()
        .zip(&ids)
        .map(|(&t, &id)| match (t, id) {
            (Tile::Floor, NO_ROOM) => ('·', GREY),
            (Tile::Floor, id) => (
                char::from(ROOM_LETTERS[id as usize % ROOM_LETTERS.len()]),
                palette(id),
            ),
            _ => plain(t),
        })
        .collect()
}

fn distance(world: &World, avatar: Pos) -> Vec<Cell> {
    let dist = metrics::distances_from(world, avatar);
    let far = dist
        .iter()
        .filter(|&&d| d != u32::MAX)
        .max()
        .copied()
        .unwrap_or(0);
    world
        .tiles()
        .iter()
        .zip(&dist)
        .map(|(&t, &d)| match t {
            Tile::Floor if d == u32::MAX => ('?', Rgb::new(255, 0, 0)),
            Tile::Floor => shade(d, far),
            _ => plain(t),
        })
        .collect()
}

fn seclusion(world: &World, avatar: Pos, exit: Pos) -> Vec<Cell> {
    let m = metrics::measure(world, avatar, exit);
    let ids = metrics::room_ids(world);
    let mut on_path = vec![false; world.tiles().len()];
    for p in metrics::critical_path(world, avatar, exit).unwrap_or_default() {
        on_path[world.index(p)] = true;
    }
    let far = m
        .rooms
        .iter()
        .filter_map(|r| r.seclusion)
        .max()
        .unwrap_or(0);
    world
        .tiles()
        .iter()
        .zip(&ids)
        .zip(&on_path)
        .map(|((&t, &id), &path)| match (t, id) {
            (Tile::Floor, NO_ROOM) if path => ('*', Rgb::new(255, 255, 0)),
            (Tile::Floor, NO_ROOM) => ('·', GREY),
            (Tile::Floor, id) => match m.rooms.get(id as usize).and_then(|r| r.seclusion) {
                Some(s) => shade(s, far),
                None => ('?', Rgb::new(255, 0, 0)),
            },
            _ => plain(t),
        })
        .collect()
}

fn critical_path(world: &World, avatar: Pos, exit: Pos) -> Vec<Cell> {
    let on_path = metrics::critical_path_tiles(world, avatar, exit);
    let paths = metrics::room_paths(world, avatar, exit);
    let ids = metrics::room_ids(world);
    world
        .tiles()
        .iter()
        .zip(&ids)
        .zip(&on_path)
        .map(|((&t, &id), &path)| match (t, id) {
            (Tile::Floor, _) if path => ('*', Rgb::new(255, 255, 0)),
            (Tile::Floor, NO_ROOM) => ('·', GREY),
            (Tile::Floor, id) => match paths.dead_end.get(id as usize).copied().flatten() {
                Some(d @ 1..=9) => (char::from(b'0' + d as u8), palette(d)),
                Some(_) => ('+', Rgb::new(255, 0, 0)),
                None => ('?', Rgb::new(255, 0, 0)),
            },
            _ => plain(t),
        })
        .collect()
}

/// The world as `gen --png` draws a LootQuest dungeon: the floor of the critical path's rooms
/// and corridors (see [`metrics::critical_path_tiles`]) drawn as SAND, so the path stands
/// out in yellow.
pub fn with_critical_path_marked(world: &World, avatar: Pos, exit: Pos) -> World {
    let on_path = metrics::critical_path_tiles(world, avatar, exit);
    let mut marked = world.clone();
    for (t, &path) in marked.tiles_mut().iter_mut().zip(&on_path) {
        if path && *t == Tile::Floor {
            *t = Tile::Sand;
        }
    }
    marked
}

/// A digit `0`-`9` for `value` in `0..=max` (tenths of the range), coloured from green (0) to
/// red (max).
fn shade(value: u32, max: u32) -> Cell {
    let tenth = (u64::from(value) * 10 / (u64::from(max) + 1)) as u8;
    let red = (u32::from(tenth) * 255 / 9) as u8;
    (char::from(b'0' + tenth), Rgb::new(red, 255 - red, 64))
}

/// A distinct, readable colour for room `id`.
fn palette(id: u32) -> Rgb {
    const COLORS: [Rgb; 12] = [
        Rgb::new(230, 25, 75),
        Rgb::new(60, 180, 75),
        Rgb::new(255, 225, 25),
        Rgb::new(67, 99, 216),
        Rgb::new(245, 130, 49),
        Rgb::new(145, 30, 180),
        Rgb::new(66, 212, 244),
        Rgb::new(240, 50, 230),
        Rgb::new(191, 239, 69),
        Rgb::new(250, 190, 212),
        Rgb::new(70, 153, 144),
        Rgb::new(220, 190, 255),
    ];
    COLORS[id as usize % COLORS.len()]
}
