//! Step 5: L- and cross-shaped rooms, by cutting corners that hold no door.

use rand::Rng;

use super::layout::Layout;
use super::place::Placed;
use super::{below, between};

/// Step 5: non-rectangular rooms by post-processing. Each room at least 5 tiles a side
/// becomes, with one draw in four each, an L (one corner cut) or, at least 7 tiles a side, a
/// cross (all four corners cut); the rest stay rectangles. A cut is at most `(side − 3) / 2`
/// tiles deep on each axis, so it never reaches a door ([`door_zone`]) and every arm stays
/// at least 3 tiles wide (every tile still a room tile).
pub(super) fn shape_rooms<R: Rng + ?Sized>(rng: &mut R, layout: &mut Layout, placed: &Placed) {
    for r in &placed.rooms {
        if r.width < 5 || r.height < 5 {
            continue;
        }
        let shape = between(rng, 0, 3);
        let (mx, my) = ((r.width - 3) / 2, (r.height - 3) / 2);
        let corners: &[usize] = match shape {
            2 => &[0],
            3 if r.width >= 7 && r.height >= 7 => &[0, 1, 2, 3],
            _ => continue,
        };
        let cx = between(rng, 1, mx as u32) as i32;
        let cy = between(rng, 1, my as u32) as i32;
        let turn = if corners.len() == 1 { below(rng, 4) } else { 0 };
        for &c in corners {
            // Corner 0 bottom-left, then clockwise.
            let (left, bottom) = match (c + turn) % 4 {
                0 => (true, true),
                1 => (true, false),
                2 => (false, false),
                _ => (false, true),
            };
            let xs = if left {
                r.x..r.x + cx
            } else {
                r.x + r.width - cx..r.x + r.width
            };
            for y in if bottom {
                r.y..r.y + cy
            } else {
                r.y + r.height - cy..r.y + r.height
            } {
                for x in xs.clone() {
                    let i = layout.idx(x, y);
                    layout.open[i] = 0;
                }
            }
        }
    }
}
