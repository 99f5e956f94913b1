//! Autotiled walls (LootQuest's bitmask autotiling): a wall's look from the 4-bit mask of its
//! wall neighbours, as a box-drawing character (`─ │ ┌ ┐ └ ┘ ├ ┤ ┬ ┴ ┼` and the end pieces
//! `╵ ╶ ╷ ╴`; `■` for a wall with no wall beside it). Doors count as wall, since they are set
//! into walls. `to_string`, replay's text and the snapshots keep the Java `#`; the pictures
//! (window, PNG) draw the character's strokes as cell-wide lines, so that neighbouring walls
//! join (the font's box glyphs are narrower than a 16-pixel cell at 14 points).

use super::geometry::{Direction, Pos};
use super::tileset::Tile;
use super::world::World;

/// How walls are drawn in pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WallStyle {
    /// The Java skeleton's `#` on grey (the classic game's default).
    #[default]
    Java,
    /// Box-drawing lines joining neighbouring walls (runs' and explorations' default).
    Box,
}

/// A tile's background colour in `style`: box walls are lines on black.
pub fn background(tile: Tile, style: WallStyle) -> super::Rgb {
    if style == WallStyle::Box && tile == Tile::Wall {
        super::Rgb::new(0, 0, 0)
    } else {
        tile.tetile().background_color()
    }
}

/// Mask bit of a wall neighbour above (+y).
pub const UP: u8 = 1;
/// Mask bit of a wall neighbour to the right.
pub const RIGHT: u8 = 2;
/// Mask bit of a wall neighbour below.
pub const DOWN: u8 = 4;
/// Mask bit of a wall neighbour to the left.
pub const LEFT: u8 = 8;

/// Whether a tile joins walls: a wall, or a door set into one.
pub fn joins(tile: Tile) -> bool {
    matches!(tile, Tile::Wall | Tile::LockedDoor | Tile::UnlockedDoor)
}

/// The 4-bit mask of `pos`'s wall neighbours in `world` ([`UP`] | [`RIGHT`] | [`DOWN`] |
/// [`LEFT`]); outside the world counts as no wall.
pub fn wall_mask(world: &World, pos: Pos) -> u8 {
    Direction::ALL
        .into_iter()
        .zip([UP, RIGHT, DOWN, LEFT])
        .filter(|&(d, _)| world.get(pos + d).is_some_and(joins))
        .fold(0, |m, (_, bit)| m | bit)
}

/// The box-drawing character of a mask.
pub const fn box_char(mask: u8) -> char {
    const CHARS: [char; 16] = [
        '■', // none
        '╵', // up
        '╶', // right
        '└', // up right
        '╷', // down
        '│', // up down
        '┌', // right down
        '├', // up right down
        '╴', // left
        '┘', // up left
        '─', // right left
        '┴', // up right left
        '┐', // down left
        '┤', // up down left
        '┬', // right down left
        '┼', // all
    ];
    CHARS[(mask & 15) as usize]
}

/// `world`'s text with every wall as its box-drawing character (for terminals; rows top
/// first, like `to_string`).
pub fn box_text(world: &World) -> String {
    let mut out = String::with_capacity(world.tiles().len() * 3 + world.height());
    for y in (0..world.height() as i32).rev() {
        for x in 0..world.width() as i32 {
            let p = Pos::new(x, y);
            let t = world.tile(p);
            out.push(if t == Tile::Wall {
                box_char(wall_mask(world, p))
            } else {
                t.character()
            });
        }
        out.push('\n');
    }
    out
}

/// The strokes of a box character in a cell of `side` pixels, as rectangles `(left, top,
/// width, height)` in pixels from the cell's top-left: a centred square for the hub, and a
/// line from it to the edge for each bit of the mask. Lines are `side / 8` thick (2 pixels at
/// 16).
pub fn strokes(mask: u8, side: u32) -> Vec<(u32, u32, u32, u32)> {
    let t = (side / 8).max(1);
    let mid = (side - t) / 2;
    if mask & 15 == 0 {
        let q = side / 4;
        return vec![(q, q, side - 2 * q, side - 2 * q)];
    }
    let mut r = vec![(mid, mid, t, t)];
    if mask & UP != 0 {
        r.push((mid, 0, t, mid + t));
    }
    if mask & DOWN != 0 {
        r.push((mid, mid, t, side - mid));
    }
    if mask & LEFT != 0 {
        r.push((0, mid, mid + t, t));
    }
    if mask & RIGHT != 0 {
        r.push((mid, mid, side - mid, t));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_pick_their_box_characters() {
        let w = World::from_text(concat!(
            "#####\n", //
            "#···#\n", //
            "#·#·█\n", //
            "#···#\n", //
            "#####\n",
        ))
        .unwrap();
        assert_eq!(box_char(wall_mask(&w, Pos::new(0, 0))), '└');
        assert_eq!(box_char(wall_mask(&w, Pos::new(4, 4))), '┐');
        assert_eq!(box_char(wall_mask(&w, Pos::new(2, 0))), '─');
        assert_eq!(box_char(wall_mask(&w, Pos::new(0, 2))), '│');
        // The door joins the wall it is set into.
        assert_eq!(box_char(wall_mask(&w, Pos::new(4, 3))), '│');
        // A pillar with no wall beside it.
        assert_eq!(box_char(wall_mask(&w, Pos::new(2, 2))), '■');
        let text = box_text(&w);
        assert!(text.starts_with("┌───┐\n"), "{text}");
        let mut seen: Vec<char> = (0..16).map(box_char).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 16, "every mask has its own character");
    }
}
