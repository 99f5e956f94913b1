//! The minimap: the explored world shrunk to a small picture, for worlds larger than the view
//! (`docs/sight.md`). Each minimap pixel stands for a `block × block` square
//! of tiles and shows the most telling thing in it (floor over wall over nothing), so a
//! one-tile corridor still shows when a pixel covers many tiles.
//!
//! It is kept up to date piece by piece: [`Minimap::redraw`] recomputes only the pixels over
//! a rectangle of tiles (what the avatar just saw), so a move costs the light radius, never
//! the world; a whole redraw happens once per world. It holds RGBA bytes for a front-end to
//! turn into a texture; it draws nothing itself.

use super::geometry::{Pos, Rect};
use super::tetile::Rgb;

/// What a minimap pixel shows, in rising priority: a pixel shows the highest mark among its
/// block's tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Nothing known (never seen, or outside the world): transparent.
    Empty,
    /// A wall.
    Wall,
    /// Ground the avatar can walk on.
    Floor,
}

impl Mark {
    /// The mark's colour and alpha on the minimap.
    pub const fn rgba(self) -> [u8; 4] {
        match self {
            Mark::Empty => [0, 0, 0, 0],
            Mark::Wall => [150, 150, 160, 255],
            Mark::Floor => [60, 70, 110, 255],
        }
    }
}

/// Largest side of a minimap, in pixels (blocks), by default.
pub const MAX_SIDE: u32 = 240;

/// A world of `world_w × world_h` tiles shrunk to `width × height` pixels, `block` tiles a
/// pixel side. Pixel `(0, 0)` is the top-left (image order); world row 0 is the bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Minimap {
    world_w: usize,
    world_h: usize,
    block: u32,
    width: u32,
    height: u32,
    rgba: Vec<u8>,
    changed: bool,
}

impl Minimap {
    /// An empty minimap of a `world_w × world_h` world no larger than `max_w × max_h` pixels
    /// (each at least 1): the smallest whole block that fits.
    pub fn new(world_w: usize, world_h: usize, max_w: u32, max_h: u32) -> Minimap {
        let per = |world: usize, max: u32| (world as u64).div_ceil(u64::from(max.max(1)));
        let block = per(world_w, max_w).max(per(world_h, max_h)).max(1) as u32;
        let width = (world_w as u64).div_ceil(u64::from(block)) as u32;
        let height = (world_h as u64).div_ceil(u64::from(block)) as u32;
        Minimap {
            world_w,
            world_h,
            block,
            width,
            height,
            rgba: vec![0; width as usize * height as usize * 4],
            changed: true,
        }
    }

    /// Tiles per pixel side.
    pub fn block(&self) -> u32 {
        self.block
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels, RGBA, rows from the top.
    pub fn rgba(&self) -> &[u8] {
        &self.rgba
    }

    /// Whether pixels changed since the last [`Minimap::take_changed`] (the front-end's cue to
    /// upload its texture again).
    pub fn take_changed(&mut self) -> bool {
        std::mem::take(&mut self.changed)
    }

    /// The pixel `(x, y)` (from the top-left) that shows world tile `pos`, or `None` outside
    /// the world.
    pub fn pixel_of(&self, pos: Pos) -> Option<(u32, u32)> {
        let inside = pos.x >= 0
            && pos.y >= 0
            && (pos.x as usize) < self.world_w
            && (pos.y as usize) < self.world_h;
        inside.then(|| {
            (
                pos.x as u32 / self.block,
                self.height - 1 - pos.y as u32 / self.block,
            )
        })
    }

    /// Recomputes the pixels over the tiles of `area` (clipped to the world) from `mark`,
    /// which is asked about every tile of those pixels' blocks.
    pub fn redraw(&mut self, area: Rect, mark: impl Fn(Pos) -> Mark) {
        let world = Rect::of_size(self.world_w, self.world_h);
        let area = area.intersection(&world);
        if area.is_empty() {
            return;
        }
        let b = self.block as i32;
        for by in area.y / b..=(area.top() - 1) / b {
            for bx in area.x / b..=(area.right() - 1) / b {
                let tiles = Rect::new(bx * b, by * b, b, b).intersection(&world);
                let best = tiles
                    .positions()
                    .map(&mark)
                    .try_fold(Mark::Empty, |best, m| {
                        // Floor is the top mark: stop looking once one is found.
                        if m == Mark::Floor {
                            Err(m)
                        } else {
                            Ok(best.max(m))
                        }
                    })
                    .unwrap_or_else(|floor| floor);
                let row = self.height as usize - 1 - by as usize;
                let i = (row * self.width as usize + bx as usize) * 4;
                let rgba = best.rgba();
                if self.rgba[i..i + 4] != rgba {
                    self.rgba[i..i + 4].copy_from_slice(&rgba);
                    self.changed = true;
                }
            }
        }
    }
}

/// The view rectangle's outline colour on a minimap.
pub const VIEW_OUTLINE: Rgb = Rgb::new(120, 200, 255);
/// The minimap's frame colour.
pub const FRAME: Rgb = Rgb::new(90, 90, 100);
/// The avatar's colour on a minimap.
pub const AVATAR: Rgb = Rgb::new(255, 220, 0);
/// The exit's colour on a minimap.
pub const EXIT: Rgb = Rgb::new(255, 120, 40);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_the_smallest_that_fit() {
        let m = Minimap::new(1000, 500, 240, 240);
        assert_eq!((m.block(), m.width(), m.height()), (5, 200, 100));
        let m = Minimap::new(4096, 4096, 240, 240);
        assert_eq!((m.block(), m.width(), m.height()), (18, 228, 228));
        let m = Minimap::new(100, 40, 240, 240);
        assert_eq!((m.block(), m.width(), m.height()), (1, 100, 40));
    }

    #[test]
    fn a_pixel_shows_the_highest_mark_of_its_block() {
        // 10 × 10 tiles, blocks of 5: one floor tile in the bottom-left block, walls in the
        // top-right one.
        let mut m = Minimap::new(10, 10, 2, 2);
        assert_eq!(m.block(), 5);
        let floor = Pos::new(1, 3);
        m.redraw(Rect::of_size(10, 10), |p| {
            if p == floor {
                Mark::Floor
            } else if p.x >= 5 && p.y >= 5 {
                Mark::Wall
            } else {
                Mark::Empty
            }
        });
        assert!(m.take_changed());
        let px = |x: usize, y: usize| &m.rgba()[(y * 2 + x) * 4..(y * 2 + x) * 4 + 4];
        // Image rows from the top: the bottom-left block is pixel (0, 1).
        assert_eq!(px(0, 1), Mark::Floor.rgba());
        assert_eq!(px(1, 0), Mark::Wall.rgba());
        assert_eq!(px(0, 0), Mark::Empty.rgba());
        assert_eq!(px(1, 1), Mark::Empty.rgba());
        assert_eq!(m.pixel_of(floor), Some((0, 1)));
        assert_eq!(m.pixel_of(Pos::new(10, 0)), None);
        // Redrawing the same marks changes nothing.
        m.redraw(Rect::new(0, 0, 3, 3), |p| {
            if p == floor { Mark::Floor } else { Mark::Empty }
        });
        assert!(!m.take_changed());
    }

    /// A redraw of a small area matches a whole redraw, block for block.
    #[test]
    fn partial_redraws_agree_with_a_whole_redraw() {
        let mark = |p: Pos| match (p.x * 7 + p.y * 13) % 11 {
            0 => Mark::Floor,
            1..=3 => Mark::Wall,
            _ => Mark::Empty,
        };
        let mut whole = Minimap::new(97, 61, 20, 20);
        whole.redraw(Rect::of_size(97, 61), mark);
        let mut pieces = Minimap::new(97, 61, 20, 20);
        for y in (0..61).step_by(9) {
            for x in (0..97).step_by(11) {
                pieces.redraw(Rect::new(x, y, 11, 9), mark);
            }
        }
        assert_eq!(whole.rgba(), pieces.rgba());
    }
}
