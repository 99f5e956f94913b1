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
//!
//! Two entries, one algorithm: [`compute`] asks a [`Map`] tile by tile; [`compute_in`]
//! reads an [`Opacity`] patch (the square of the radius around the origin as rows of bits,
//! radius at most [`Opacity::MAX_RADIUS`]), which a caller that knows its terrain fills a
//! row or a rectangle at a time: the game's own sight (a grid board's look, an exploration's
//! look) goes that way. Both reveal the same tiles (a test compares them on random maps).

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

/// What blocks sight in the square of a light radius `r` around an origin, for
/// [`compute_in`]: row `j` holds the tiles at `dy = j − r`, bit `i` of it the tile at
/// `dx = i − r`, set when it blocks sight. Tiles outside the map block sight and are also
/// marked outside (never revealed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opacity {
    radius: u32,
    // 32 rows, one more than the widest patch needs, so that a row index masked to 5 bits
    // needs no bounds check.
    opaque: [u32; 32],
    outside: [u32; 32],
}

impl Opacity {
    /// The largest radius a patch holds (its rows are 32-bit words: `2 × 15 + 1` tiles).
    pub const MAX_RADIUS: u32 = 15;
    const SIDE: usize = 2 * Opacity::MAX_RADIUS as usize + 1;

    /// A patch of radius `radius` (at most [`Opacity::MAX_RADIUS`]) where every tile is
    /// inside the map and blocks sight.
    pub fn opaque(radius: u32) -> Opacity {
        assert!(
            radius <= Opacity::MAX_RADIUS,
            "an opacity patch's radius is at most 15"
        );
        let full = Opacity::row_mask(radius);
        Opacity {
            radius,
            opaque: [full; 32],
            outside: [0; 32],
        }
    }

    /// The bits of a row: `2 r + 1` of them.
    fn row_mask(radius: u32) -> u32 {
        u32::MAX >> (31 - 2 * radius)
    }

    /// The patch's side, in tiles.
    pub fn side(&self) -> usize {
        2 * self.radius as usize + 1
    }

    /// Sets whether the patch tiles `i0..i1` of row `j` block sight (`i1` at most the side;
    /// an empty range does nothing).
    pub fn set_run(&mut self, j: usize, i0: usize, i1: usize, blocks: bool) {
        if i0 >= i1 {
            return;
        }
        let bits = (u32::MAX >> (32 - (i1 - i0))) << i0;
        if blocks {
            self.opaque[j] |= bits;
        } else {
            self.opaque[j] &= !bits;
        }
    }

    /// Sets row `j` from a bit mask of the tiles that block sight (bit `i` for tile `i`).
    pub fn set_row(&mut self, j: usize, blocks: u32) {
        self.opaque[j] = blocks & Opacity::row_mask(self.radius);
    }

    /// Marks the patch tiles `i0..i1` of row `j` as outside the map: they block sight and
    /// are never revealed.
    pub fn set_outside(&mut self, j: usize, i0: usize, i1: usize) {
        self.set_run(j, i0, i1, true);
        if i0 < i1 {
            self.outside[j] |= (u32::MAX >> (32 - (i1 - i0))) << i0;
        }
    }

    /// Whether patch tile `(i, j)` blocks sight.
    #[inline(always)]
    fn blocks(&self, i: i32, j: i32) -> bool {
        (self.opaque[j as usize & 31] >> i) & 1 != 0
    }

    /// Whether patch tile `(i, j)` lies inside the map.
    #[inline(always)]
    fn inside(&self, i: i32, j: i32) -> bool {
        (self.outside[j as usize & 31] >> i) & 1 == 0
    }
}

/// `WIDEST[r][d]`: the widest column offset within radius `r` at depth `d`, the largest `c`
/// with `c² + d² ≤ r²` (`-1` past the radius).
const WIDEST: [[i32; Opacity::SIDE + 1]; Opacity::MAX_RADIUS as usize + 1] = {
    let mut table = [[-1; Opacity::SIDE + 1]; Opacity::MAX_RADIUS as usize + 1];
    let mut r = 0;
    while r <= Opacity::MAX_RADIUS as i32 {
        let mut d = 0;
        while d <= r {
            let mut c = 0;
            while (c + 1) * (c + 1) + d * d <= r * r {
                c += 1;
            }
            table[r as usize][d as usize] = c;
            d += 1;
        }
        r += 1;
    }
    table
};

/// A row of [`compute_in`]'s scan: the tiles at `depth` between two slopes, each
/// `num / den` with `den > 0`, kept in bytes (in a patch, `|num| < 2 × 16` and `den ≤ 2 × 16`)
/// and worked out in 32-bit integers.
#[derive(Debug, Clone, Copy, Default)]
struct PatchRow {
    depth: i8,
    start: (i8, i8),
    end: (i8, i8),
}

/// [`compute`] on an [`Opacity`] patch around `origin` (the map tile at its centre), within
/// the patch's radius: the same scan, so the same tiles revealed, with each opacity a bit
/// read, each row's columns stepped through without transforming each tile, and whether a
/// tile's centre lies in the sector settled once a row as a range of columns.
pub fn compute_in(patch: &Opacity, origin: Pos, reveal: &mut impl FnMut(Pos)) {
    let r = patch.radius as i32;
    if !patch.inside(r, r) {
        return;
    }
    reveal(origin);
    let widest = &WIDEST[patch.radius as usize];
    // The rows still to scan, depth first: at most `1 + r (r + 3) / 2` at once.
    let mut rows = [PatchRow::default(); 1 + 15 * 18 / 2];
    // The slope through the left edge of tile `col` at `depth`: `(2 col − 1) / (2 depth)`.
    let left_edge = |depth: i32, col: i32| ((2 * col - 1) as i8, (2 * depth) as i8);
    for q in 0..4 {
        // Quadrant `q`'s tile `(depth, col)` is patch tile `(r, r) + depth × down + col ×
        // step`.
        let (down, step) = match q {
            0 => ((0, 1), (1, 0)),
            1 => ((1, 0), (0, -1)),
            2 => ((0, -1), (-1, 0)),
            _ => ((-1, 0), (0, 1)),
        };
        rows[0] = PatchRow {
            depth: 1,
            start: (-1, 1),
            end: (1, 1),
        };
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let mut row = rows[len];
            let d = i32::from(row.depth);
            if d > r {
                continue;
            }
            // The columns: round_ties_up(d × start) ..= round_ties_down(d × end); those whose
            // centre is in the sector: d × start ≤ col ≤ d × end.
            let (sn, sd) = (i32::from(row.start.0), i32::from(row.start.1));
            let (en, ed) = (i32::from(row.end.0), i32::from(row.end.1));
            let first = (2 * d * sn + sd).div_euclid(2 * sd);
            let last = -((-(2 * d * en - ed)).div_euclid(2 * ed));
            let mut centred_from = -((-(d * sn)).div_euclid(sd));
            let centred_to = (d * en).div_euclid(ed);
            let wide = widest[d as usize];
            let (mut i, mut j) = (
                r + d * down.0 + first * step.0,
                r + d * down.1 + first * step.1,
            );
            // The previous tile: 0 none, 1 floor, 2 wall.
            let mut prev = 0;
            for col in first..=last {
                let wall = patch.blocks(i, j);
                if (wall || (centred_from..=centred_to).contains(&col))
                    && col.abs() <= wide
                    && patch.inside(i, j)
                {
                    reveal(Pos::new(origin.x + i - r, origin.y + j - r));
                }
                if prev == 2 && !wall {
                    // The sector now starts at this tile's left edge: every tile from here
                    // on has its centre past the start.
                    row.start = left_edge(d, col);
                    centred_from = col;
                }
                if prev == 1 && wall {
                    rows[len] = PatchRow {
                        depth: row.depth + 1,
                        start: row.start,
                        end: left_edge(d, col),
                    };
                    len += 1;
                }
                prev = if wall { 2 } else { 1 };
                (i, j) = (i + step.0, j + step.1);
            }
            if prev == 1 {
                rows[len] = PatchRow {
                    depth: row.depth + 1,
                    ..row
                };
                len += 1;
            }
        }
    }
}

/// The tiles [`compute_in`] reveals from the centre of `patch`, as rows of bits laid out as
/// the patch's (row `j`, bit `i`: the tile at `dx = i − r`, `dy = j − r`).
pub fn lit_in(patch: &Opacity) -> [u32; 32] {
    let r = patch.radius as i32;
    let mut lit = [0u32; 32];
    compute_in(patch, Pos::new(r, r), &mut |p| {
        lit[p.y as usize & 31] |= 1 << p.x;
    });
    lit
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
    use crate::World;

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

    /// The bit patch reveals exactly the tiles the map-asking scan reveals, on random maps,
    /// from every origin, at several radii, near the edges too.
    #[test]
    fn the_bit_patch_sees_what_the_map_sees() {
        let mut state = 0x5851_F42D_4C95_7F2Du64;
        for round in 0..60 {
            let (w, h) = (9 + round % 23, 7 + round % 17);
            let mut text = String::new();
            for _ in 0..h {
                for _ in 0..w {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    text.push(if (state >> 33).is_multiple_of(3 + round % 4) {
                        '#'
                    } else {
                        '·'
                    });
                }
                text.push('\n');
            }
            let world = World::from_text(&text).unwrap();
            for radius in [1, 3, 8, 15] {
                for y in 0..h as i32 {
                    for x in 0..w as i32 {
                        let origin = Pos::new(x, y);
                        let mut want = std::collections::BTreeSet::new();
                        compute(&world, origin, radius, &mut |p| {
                            want.insert((p.x, p.y));
                        });
                        let r = radius as i32;
                        let mut patch = Opacity::opaque(radius);
                        for j in 0..patch.side() {
                            for i in 0..patch.side() {
                                let p = Pos::new(x + i as i32 - r, y + j as i32 - r);
                                if !world.contains(p) {
                                    patch.set_outside(j, i, i + 1);
                                } else {
                                    patch.set_run(j, i, i + 1, world.blocks_sight(p));
                                }
                            }
                        }
                        let mut got = std::collections::BTreeSet::new();
                        compute_in(&patch, origin, &mut |p| {
                            got.insert((p.x, p.y));
                        });
                        assert_eq!(got, want, "radius {radius} from {origin:?}\n{text}");
                    }
                }
            }
        }
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
