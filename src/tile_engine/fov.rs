//! Field of view by symmetric shadowcasting (Albert Ford, "Symmetric Shadowcasting", 2021,
//! <https://www.albertford.com/shadowcasting/>), on the [`Map`] seam.
//!
//! The article's properties hold: **symmetric** (if floor tile A sees floor tile B, B sees
//! A), **expansive walls** (standing in a convex room, every wall of it is seen), **no blind
//! corners** (looking along a wall, the corner at its end is seen) and no artifacts; walls
//! and other opaque tiles are seen when light reaches them, floor tiles only when their
//! centre lies inside the lit sector (that is what makes it symmetric).
//!
//! Ported from the article's pseudocode, not its reference Python (which has typos): the
//! four quadrants are scanned row by row outwards from the origin; each row keeps the slopes
//! of the lit sector as exact fractions `(2 × col − 1) / (2 × depth)` and every comparison is
//! integer cross-multiplication, so there is no floating point and no rounding drift. The
//! recursion of the article is an explicit stack of rows here. A light radius `r` limits the
//! rows to depth `r` and the seen tiles to those with `dx² + dy² ≤ r²` (Euclidean, which is
//! symmetric as well).
//!
//! Cost: each tile of the lit area is looked at a few times; at radius 8 that is about 200
//! tiles whatever the map's size (`benches/byog.rs`, `fov/80x30`).

use super::geometry::{Pos, Rect};
use super::map::Map;

/// A sector's slope, `num / den` with `den > 0`: the column offset per row of depth.
#[derive(Debug, Clone, Copy)]
struct Slope {
    num: i64,
    den: i64,
}

impl Slope {
    /// The slope through the left edge of tile `col` at `depth`: `(2 col − 1) / (2 depth)`.
    fn left_edge(depth: i64, col: i64) -> Slope {
        Slope {
            num: 2 * col - 1,
            den: 2 * depth,
        }
    }
}

/// One row of a quadrant's scan: the tiles at `depth` between two slopes.
#[derive(Debug, Clone, Copy)]
struct Row {
    depth: i64,
    start: Slope,
    end: Slope,
}

impl Row {
    /// `round_ties_up(depth × start)`: `floor(depth × n / d + 1/2)`.
    fn min_col(&self) -> i64 {
        (2 * self.depth * self.start.num + self.start.den).div_euclid(2 * self.start.den)
    }

    /// `round_ties_down(depth × end)`: `ceil(depth × n / d − 1/2)`.
    fn max_col(&self) -> i64 {
        let (n, d) = (
            2 * self.depth * self.end.num - self.end.den,
            2 * self.end.den,
        );
        -((-n).div_euclid(d))
    }

    /// Whether tile `col`'s centre lies inside the sector:
    /// `depth × start ≤ col ≤ depth × end`.
    fn is_symmetric(&self, col: i64) -> bool {
        col * self.start.den >= self.depth * self.start.num
            && col * self.end.den <= self.depth * self.end.num
    }
}

/// The tile at `(depth, col)` of quadrant `q` (0 up, 1 right, 2 down, 3 left) around
/// `origin`, y up.
fn transform(q: u8, origin: Pos, depth: i64, col: i64) -> Pos {
    let (d, c) = (depth as i32, col as i32);
    match q {
        0 => Pos::new(origin.x + c, origin.y + d),
        1 => Pos::new(origin.x + d, origin.y - c),
        2 => Pos::new(origin.x - c, origin.y - d),
        _ => Pos::new(origin.x - d, origin.y + c),
    }
}

/// Calls `reveal` for every tile seen from `origin` on `map` within `radius` tiles
/// (Euclidean), the origin included; a tile may be revealed more than once. Opaque tiles
/// are those [`Map::blocks_sight`] says; positions outside the map block sight and are
/// never revealed.
pub fn compute(map: &(impl Map + ?Sized), origin: Pos, radius: u32, reveal: &mut impl FnMut(Pos)) {
    if !map.contains(origin) {
        return;
    }
    reveal(origin);
    let r = i64::from(radius);
    let within = |p: Pos| {
        let (dx, dy) = (i64::from(p.x - origin.x), i64::from(p.y - origin.y));
        dx * dx + dy * dy <= r * r
    };
    let mut rows: Vec<Row> = Vec::with_capacity(32);
    for q in 0..4u8 {
        rows.push(Row {
            depth: 1,
            start: Slope { num: -1, den: 1 },
            end: Slope { num: 1, den: 1 },
        });
        while let Some(mut row) = rows.pop() {
            if row.depth > r {
                continue;
            }
            // `prev`: whether the previous tile of the row was a wall (`Some(true)`), a
            // floor (`Some(false)`), or there was none.
            let mut prev: Option<bool> = None;
            for col in row.min_col()..=row.max_col() {
                let tile = transform(q, origin, row.depth, col);
                let wall = map.blocks_sight(tile);
                if (wall || row.is_symmetric(col)) && map.contains(tile) && within(tile) {
                    reveal(tile);
                }
                if prev == Some(true) && !wall {
                    row.start = Slope::left_edge(row.depth, col);
                }
                if prev == Some(false) && wall {
                    rows.push(Row {
                        depth: row.depth + 1,
                        start: row.start,
                        end: Slope::left_edge(row.depth, col),
                    });
                }
                prev = Some(wall);
            }
            if prev == Some(false) {
                rows.push(Row {
                    depth: row.depth + 1,
                    ..row
                });
            }
        }
    }
}

/// What can be seen from a tile: a mask over the square of the light radius around it (never
/// the whole map, so a frame of a huge world costs the radius), reused from move to move (no
/// allocation once it has grown to the radius).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Visibility {
    /// The tiles the mask covers: the radius' square around the origin, clipped to the map.
    area: Rect,
    /// Row-major from the area's bottom row.
    visible: Vec<bool>,
}

impl Visibility {
    /// Recomputes the mask for `map` seen from `origin` within `radius` tiles.
    pub fn update(&mut self, map: &(impl Map + ?Sized), origin: Pos, radius: u32) {
        let r = i64::from(radius);
        let side = |at: i32, size: usize| {
            let low = (i64::from(at) - r).max(0);
            let high = (i64::from(at) + r + 1).min(size as i64);
            (low as i32, (high - low).max(0) as i32)
        };
        let (x, width) = side(origin.x, map.width());
        let (y, height) = side(origin.y, map.height());
        self.area = Rect::new(x, y, width, height);
        self.visible.clear();
        self.visible.resize(self.area.area() as usize, false);
        let (area, visible) = (self.area, &mut self.visible);
        compute(map, origin, radius, &mut |p| {
            if area.contains(p) {
                visible[((p.y - area.y) * area.width + (p.x - area.x)) as usize] = true;
            }
        });
    }

    /// Whether `pos` is seen (false outside the map).
    pub fn is_visible(&self, pos: Pos) -> bool {
        self.area.contains(pos)
            && self.visible
                [((pos.y - self.area.y) * self.area.width + (pos.x - self.area.x)) as usize]
    }

    /// The tiles the mask covers (every visible tile is inside): the light radius' square
    /// around the origin, clipped to the map.
    pub fn area(&self) -> Rect {
        self.area
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile_engine::World;

    fn seen(text: &str, origin: Pos, radius: u32) -> String {
        let w = World::from_text(text).unwrap();
        let mut v = Visibility::default();
        v.update(&w, origin, radius);
        let mut out = String::new();
        for y in (0..w.height() as i32).rev() {
            for x in 0..w.width() as i32 {
                out.push(if v.is_visible(Pos::new(x, y)) {
                    'o'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out
    }

    #[test]
    fn a_pillar_casts_a_shadow_and_walls_are_seen() {
        let text = concat!(
            "#######\n", //
            "#·····#\n", //
            "#·····#\n", //
            "#··#··#\n", //
            "#·····#\n", //
            "#·····#\n", //
            "#######\n",
        );
        // Seen from just below the pillar, the tiles right behind it are in its shadow, the
        // shadow widens with distance, and everything below the pillar's row is seen.
        let w = World::from_text(text).unwrap();
        let mut v = Visibility::default();
        v.update(&w, Pos::new(3, 2), 20);
        let at = |x, y| v.is_visible(Pos::new(x, y));
        assert!(at(3, 3), "the pillar itself");
        assert!(!at(3, 4) && !at(3, 5), "behind the pillar");
        assert!(at(2, 4) && at(4, 4), "the shadow starts one tile wide");
        assert!(!at(2, 5) && !at(4, 5), "and widens");
        for y in 0..=3 {
            for x in 0..7 {
                assert!(at(x, y), "({x}, {y}) below the pillar's far edge");
            }
        }
        let view = seen(text, Pos::new(3, 2), 20);
        assert!(view.starts_with("oo...oo\noo...oo\n"), "{view}");
    }

    #[test]
    fn the_radius_limits_the_view() {
        let text = "···········\n".repeat(11);
        let view = seen(&text, Pos::new(5, 5), 3);
        let count = view.matches('o').count();
        // Tiles with dx² + dy² ≤ 9: 29 of them.
        assert_eq!(count, 29, "{view}");
    }
}
