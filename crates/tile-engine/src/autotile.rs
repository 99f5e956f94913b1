//! Autotiled walls (LootQuest's bitmask autotiling): a wall's look from the 4-bit mask of the
//! wall neighbours it joins, as a box-drawing character (`─ │ ┌ ┐ └ ┘ ├ ┤ ┬ ┴ ┼` and the end
//! pieces `╵ ╶ ╷ ╴`; `■` for a wall that joins none). Doors count as wall, since they are set
//! into walls. `to_string`, replay's text and the snapshots keep the Java `#`; the pictures
//! (window, PNG) draw the character's strokes as cell-wide lines, so that neighbouring walls
//! join (the font's box glyphs are narrower than a 16-pixel cell at 14 points).
//!
//! Box walls draw the edge between walls and open ground, so which neighbours a wall joins
//! ([`wall_mask`]) follows two rules:
//!
//! - **Only what is shown joins.** A neighbour joins only when it is drawn (in sight: seen),
//!   and so does the open ground that makes the join (below): a wall seen at the edge of
//!   what the avatar has seen ends there, never reaching towards walls not seen yet.
//! - **Walls join along open ground.** Two side-by-side walls join only when open ground
//!   (shown) lies beside them across the join: for a join to the right, on the tile above or
//!   below either of them. So a wall two tiles thick draws as two parallel lines, one for
//!   each side's room (`││`, `┘└`), never as a ladder of junctions (`├┤`). A wall with no open
//!   ground among its eight neighbours, shown or not, is inside solid rock: it is drawn
//!   blank. Open ground is any tile but a wall, a door and nothing.

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

/// Whether walls are drawn along `tile`: open ground (neither a wall, a door nor nothing).
pub fn is_open(tile: Tile) -> bool {
    !joins(tile) && tile != Tile::Nothing
}

/// How the wall at `pos` is drawn, from the tiles around it (`tile_at`: `None` off the map)
/// and which of them are shown (`shown`; in sight: seen): `None` for a wall inside solid
/// rock (no open ground among its eight neighbours, shown or not), drawn blank; else the
/// 4-bit mask ([`UP`] | [`RIGHT`] | [`DOWN`] | [`LEFT`]) of the neighbours it joins (see the
/// module's rules: a shown wall or door, with shown open ground beside the two across the
/// join).
pub fn wall_mask(
    tile_at: impl Fn(Pos) -> Option<Tile>,
    shown: impl Fn(Pos) -> bool,
    pos: Pos,
) -> Option<u8> {
    let open = |p: Pos| tile_at(p).is_some_and(is_open);
    let rock = (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| Pos::new(pos.x + dx, pos.y + dy)))
        .all(|p| !open(p));
    if rock {
        return None;
    }
    let open_shown = |p: Pos| shown(p) && open(p);
    let mask = Direction::ALL
        .into_iter()
        .zip([UP, RIGHT, DOWN, LEFT])
        .filter(|&(d, _)| {
            let next = pos + d;
            let (dx, dy) = d.delta();
            // The two sides across the join: perpendicular to it.
            let (sx, sy) = (dy, dx);
            shown(next)
                && tile_at(next).is_some_and(joins)
                && [pos, next].into_iter().any(|p| {
                    open_shown(Pos::new(p.x + sx, p.y + sy))
                        || open_shown(Pos::new(p.x - sx, p.y - sy))
                })
        })
        .fold(0, |m, (_, bit)| m | bit);
    Some(mask)
}

/// [`wall_mask`] in a world drawn whole (every tile shown).
pub fn wall_mask_in(world: &World, pos: Pos) -> Option<u8> {
    wall_mask(|p| world.get(p), |_| true, pos)
}

/// The character of a wall drawn as [`wall_mask`] says: its box-drawing character, or a
/// blank inside solid rock.
pub const fn wall_char(mask: Option<u8>) -> char {
    match mask {
        Some(m) => box_char(m),
        None => ' ',
    }
}

/// The box-drawing characters of the masks `0..16` ([`box_char`]).
const BOX_CHARS: [char; 16] = [
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

/// The box-drawing character of a mask.
pub const fn box_char(mask: u8) -> char {
    BOX_CHARS[(mask & 15) as usize]
}

/// The mask whose box-drawing character is `c` ([`box_char`]'s inverse), `None` for any
/// other character: a painter that draws box walls as strokes reads them back from glyphs.
pub fn mask_of_box_char(c: char) -> Option<u8> {
    BOX_CHARS.iter().position(|&b| b == c).map(|m| m as u8)
}

/// `world`'s text with every wall as its box-drawing character, or blank inside solid rock
/// (for terminals; rows top first, like `to_string`).
pub fn box_text(world: &World) -> String {
    let mut out = String::with_capacity(world.tiles().len() * 3 + world.height());
    for y in (0..world.height() as i32).rev() {
        for x in 0..world.width() as i32 {
            let p = Pos::new(x, y);
            let t = world.tile(p);
            out.push(if t == Tile::Wall {
                wall_char(wall_mask_in(world, p))
            } else {
                t.character()
            });
        }
        out.push('\n');
    }
    out
}

/// The strokes of a box wall in a cell of `side` pixels ([`wall_mask`]'s look), as
/// rectangles `(left, top, width, height)` in pixels from the cell's top-left: a centred
/// square for the hub, and a line from it to the edge for each bit of the mask; a pillar
/// (no bit) is a larger centred square, and a wall inside solid rock (`None`) has none.
/// Lines are `side / 8` thick (2 pixels at 16).
pub fn strokes(mask: Option<u8>, side: u32) -> Vec<(u32, u32, u32, u32)> {
    let Some(mask) = mask else {
        return Vec::new();
    };
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

    fn boxed(text: &str) -> String {
        box_text(&World::from_text(text).unwrap())
    }

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
        let at = |x, y| wall_char(wall_mask_in(&w, Pos::new(x, y)));
        assert_eq!(at(0, 0), '└');
        assert_eq!(at(4, 4), '┐');
        assert_eq!(at(2, 0), '─');
        assert_eq!(at(0, 2), '│');
        // The door joins the wall it is set into.
        assert_eq!(at(4, 3), '│');
        // A pillar with no wall beside it.
        assert_eq!(at(2, 2), '■');
        let text = box_text(&w);
        assert!(text.starts_with("┌───┐\n"), "{text}");
        let mut seen: Vec<char> = (0..16).map(box_char).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 16, "every mask has its own character");
    }

    /// Problem 18: walls two tiles thick are two lines, one along each side's open ground,
    /// never knots of junctions; walls inside solid rock are blank.
    #[test]
    fn thick_walls_draw_one_line_a_side() {
        // Two rooms side by side, a wall two tiles thick between them.
        assert_eq!(
            boxed(concat!(
                "########\n",
                "#··##··#\n",
                "#··##··#\n",
                "########\n",
            )),
            concat!("┌──┐┌──┐\n", "│··││··│\n", "│··││··│\n", "└──┘└──┘\n",)
        );
        // A room in a wall two tiles thick all round: the outer ring is solid rock.
        assert_eq!(
            boxed(concat!(
                "########\n",
                "########\n",
                "##····##\n",
                "##····##\n",
                "########\n",
                "########\n",
            )),
            concat!(
                "        \n",
                " ┌────┐ \n",
                " │····│ \n",
                " │····│ \n",
                " └────┘ \n",
                "        \n",
            )
        );
        // A corridor through thick walls into a hall: corners where it opens, rock beside
        // it, lines that end at the world's edge.
        assert_eq!(
            boxed(concat!("#######\n", "·······\n", "###·###\n", "###·###\n",)),
            concat!("╶─────╴\n", "·······\n", "╶─┐·┌─╴\n", "  ╵·╵  \n",)
        );
    }

    /// Problem 18, in sight: a shown wall joins only shown walls, across shown open ground.
    #[test]
    fn only_shown_walls_join() {
        let w = World::from_text(concat!(
            "#####\n", //
            "#···#\n", //
            "#####\n",
        ))
        .unwrap();
        // The left two columns seen, the rest not yet.
        let seen = |p: Pos| p.x <= 1;
        let at = |x, y| wall_char(wall_mask(|p| w.get(p), seen, Pos::new(x, y)));
        assert_eq!(at(0, 0), '└');
        assert_eq!(at(0, 2), '┌');
        // The seen wall next to an unseen one ends there instead of joining it.
        assert_eq!(at(1, 0), '╴');
        assert_eq!(at(1, 2), '╴');
        // Seen in full, the same walls join on.
        assert_eq!(wall_char(wall_mask_in(&w, Pos::new(1, 0))), '─');
        // A wall whose open ground is not seen joins nothing: a pillar, not a line.
        let floor_unseen = |p: Pos| p.y != 1;
        assert_eq!(
            wall_char(wall_mask(|p| w.get(p), floor_unseen, Pos::new(2, 0))),
            '■'
        );
    }
}
