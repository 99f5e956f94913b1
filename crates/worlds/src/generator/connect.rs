//! Step 3: join every region into one through connectors (Nystrom 2014, Hauberk
//! `_connectRegions`).
//!
//! Hauberk repeatedly picks a random connector, opens it, merges its regions and then scans
//! every remaining connector to drop the redundant ones (O(connectors²)). Here the connectors
//! are shuffled once and visited in that order, Kruskal-style, with union-find telling whether
//! a connector still joins two different merged regions: the same random spanning tree
//! process in O(connectors · α). As in Hauberk, a redundant connector is opened with a
//! 1-in-`extra_connector_chance` chance (a loop), and no connector is opened next to
//! (8-neighbourhood) one already open, so openings are one tile wide.

use rand::Rng;

use super::{Carver, ROCK, UnionFind};
use crate::progress::{self, Stage};
use byog_tile_engine::random_utils;

/// A connector and the two regions it joins, `first` being the one that comes first among its
/// neighbours in the order up, right, down, left.
#[derive(Debug, Clone, Copy, Default)]
struct Connector {
    at: u32,
    first: u32,
    second: u32,
}

/// The connectors [`Carver::find_connectors`] found, in row-major order, each with the two
/// regions it joins (12 bytes a connector).
#[derive(Debug, Clone)]
pub struct Connectors {
    list: Vec<Connector>,
}

impl Connectors {
    /// How many connectors there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none (a world of one room).
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The connectors' tile indices (`y × width + x`), in row-major order.
    pub fn positions(&self) -> Vec<u32> {
        self.list.iter().map(|k| k.at).collect()
    }
}

impl Carver {
    /// Finds the connectors, opens a spanning tree of them plus a few extra, and leaves one
    /// region. Opened connectors (junctions) become open ground.
    pub fn connect_regions<R: Rng + ?Sized>(&mut self, rng: &mut R, extra_connector_chance: u32) {
        let watched = progress::is_watched();
        if watched {
            progress::report(Stage::Connectors, 0.0);
        }
        let connectors = self.find_connectors();
        if watched {
            progress::report(Stage::Merge, 0.0);
        }
        self.merge_regions(rng, connectors, extra_connector_chance);
    }

    /// The merge half of [`Carver::connect_regions`]: shuffles the connectors and opens a
    /// spanning tree of them plus the extra loops.
    pub fn merge_regions<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        connectors: Connectors,
        extra_connector_chance: u32,
    ) {
        // Each connector carries the two regions it joins, so the loop below reads the
        // shuffled list in order instead of jumping around the map.
        let mut list = connectors.list;
        random_utils::shuffle(rng, &mut list);
        self.near_junction = vec![0; self.open.len().div_ceil(64)];
        let mut merged = UnionFind::new(self.region_count as usize + 1);
        let mut deferred = Vec::with_capacity(list.len() / 4);
        let mut ticker = progress::ticker(Stage::Merge, list.len());
        for (n, k) in list.iter().enumerate() {
            if let Some(t) = &mut ticker {
                t.tick(n);
            }
            let c = k.at as usize;
            if self.is_near_junction(c) {
                deferred.push(*k);
                continue;
            }
            // Once everything is one region every connector is redundant: skip the look-up.
            if merged.sets() > 1 && merged.union(k.first, k.second) {
                self.open_junction(c);
                continue;
            }
            if extra_connector_chance > 0
                && random_utils::below(rng, u64::from(extra_connector_chance)) == 0
            {
                self.open_junction(c);
            }
        }
        // A connector skipped for being next to a junction may be the only link left between
        // two regions; open such ones now so that everything is connected. (A junction next
        // to it joins the same two regions, as its carved neighbours touch the same cells.)
        self.near_junction = Vec::new();
        for k in deferred {
            if merged.sets() <= 1 {
                break;
            }
            if merged.union(k.first, k.second) {
                self.open_junction(k.at as usize);
            }
        }
    }

    /// Every rock tile inside the area with two or more different regions among its cardinal
    /// neighbours, in row-major order, with the two regions.
    ///
    /// The test needs only two comparisons a tile, left against right and up against down,
    /// because two carved neighbours at a right angle (say up and left) always share a region:
    /// both touch the same cell, and a maze passage has its cells' region while a room tile's
    /// neighbours inside the room are the room. So a rock tile sees two regions exactly when
    /// its left and right, or its up and down, neighbours are carved and differ, and these two
    /// are the regions it joins.
    ///
    /// And the regions are read off the cells, never spread over tiles: a rock tile at (even
    /// x, odd y) lies between two cells, left and right (its up and down neighbours are rock:
    /// were one carved, it would be a room's, and the tile inside that room); at (odd x, even
    /// y) between two cells, down and up; and at (even, even), the corner where four
    /// passages may meet, its carved neighbours have the regions of the cells at their
    /// bottom-left. (All cells are carved by now.) One pass over each row's candidates: a flag
    /// a tile in straight-line code, then the row's few connectors listed branch-free.
    pub fn find_connectors(&self) -> Connectors {
        let (aw, ah, w) = (self.area_width, self.area_height, self.width);
        let columns = (aw - 1) / 2;
        let regions = &self.cell_regions;
        let open = &self.open;
        let mut list: Vec<Connector> = Vec::with_capacity(aw * ah / 6);
        let mut flags = vec![0u8; aw];
        let mut xs = vec![0u32; aw];
        let mut ticker = progress::ticker(Stage::Connectors, ah);
        for y in 1..ah - 1 {
            if let Some(t) = &mut ticker {
                t.tick(y);
            }
            let start = y * w;
            let tiles = &open[start..start + aw];
            if y % 2 == 1 {
                // Tiles x = 2c + 2 between cells c and c + 1 of this row of cells.
                let cells = &regions[self.cell(1, y)..][..columns];
                for (c, pair) in cells.windows(2).enumerate() {
                    let x = 2 * c + 2;
                    flags[x] = u8::from((tiles[x] == 0) & (pair[0] != pair[1]));
                }
                let mut count = 0;
                for x in (2..aw - 1).step_by(2) {
                    xs[count] = x as u32;
                    count += usize::from(flags[x]);
                }
                list.extend(xs[..count].iter().map(|&x| {
                    let c = (x as usize - 2) / 2;
                    Connector {
                        at: (start as u32) + x,
                        first: cells[c + 1],
                        second: cells[c],
                    }
                }));
            } else {
                // Between the rows of cells below (`lo`) and above (`hi`): tiles x = 2c + 1
                // between cells c of both rows, and the corners x = 2c + 2.
                let lo = &regions[self.cell(1, y - 1)..][..columns];
                let hi = &regions[self.cell(1, y + 1)..][..columns];
                for c in 0..columns {
                    let x = 2 * c + 1;
                    flags[x] = u8::from((tiles[x] == 0) & (lo[c] != hi[c]));
                }
                let (below, above) = (&open[start - w..], &open[start + w..]);
                for c in 0..columns - 1 {
                    let x = 2 * c + 2;
                    let across = (tiles[x - 1] & tiles[x + 1] == 1) & (lo[c] != lo[c + 1]);
                    let upright = (below[x] & above[x] == 1) & (lo[c] != hi[c]);
                    flags[x] = u8::from((tiles[x] == 0) & (across | upright));
                }
                let mut count = 0;
                for (x, &f) in flags[..aw - 1].iter().enumerate().skip(1) {
                    xs[count] = x as u32;
                    count += usize::from(f);
                }
                list.extend(xs[..count].iter().map(|&x| {
                    let x = x as usize;
                    let (first, second) = if x % 2 == 1 {
                        let c = (x - 1) / 2;
                        (hi[c], lo[c])
                    } else if above[x] == 1 {
                        // Up and down: the cells at their bottom-left.
                        let c = (x - 2) / 2;
                        (hi[c], lo[c])
                    } else {
                        // Right and left.
                        let c = (x - 2) / 2;
                        (lo[c + 1], lo[c])
                    };
                    Connector {
                        at: (start + x) as u32,
                        first,
                        second,
                    }
                }));
            }
        }
        Connectors { list }
    }

    /// Opens connector `c`, and while [`Carver::merge_regions`] runs marks the 3 × 3 tiles
    /// around it as next to a junction.
    fn open_junction(&mut self, c: usize) {
        self.open[c] = 1;
        if self.near_junction.is_empty() {
            return;
        }
        let w = self.width;
        for row in [c - w, c, c + w] {
            for i in row - 1..=row + 1 {
                self.near_junction[i / 64] |= 1 << (i % 64);
            }
        }
    }

    /// Whether an opened connector is among the 8 tiles around `c` (or is `c` itself), read
    /// from the bitset [`Carver::merge_regions`] keeps: one bit instead of eight tiles.
    fn is_near_junction(&self, c: usize) -> bool {
        self.near_junction[c / 64] >> (c % 64) & 1 != 0
    }
}

impl Carver {
    /// Hauberk's `_connectRegions` loop as Nystrom wrote it, kept as the reference for the
    /// benchmarks (`docs/performance.md`): pick a random remaining connector, open it, relabel
    /// every region merged into it, then scan all remaining connectors to drop the redundant
    /// ones (each opened with a 1-in-`extra_connector_chance` chance). O(connectors × merges).
    /// It draws random numbers in another order than [`Carver::merge_regions`], so it makes
    /// other (equally valid) worlds; the game never uses it.
    pub fn merge_regions_hauberk<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        connectors: Vec<u32>,
        extra_connector_chance: u32,
    ) {
        let regions_of = |c: usize| -> Vec<u32> {
            let mut rs: Vec<u32> = Vec::with_capacity(4);
            for n in self.cardinal(c) {
                let r = self.region_at(n);
                if r != ROCK && !rs.contains(&r) {
                    rs.push(r);
                }
            }
            rs
        };
        let mut remaining: Vec<(usize, Vec<u32>)> = connectors
            .iter()
            .map(|&c| (c as usize, regions_of(c as usize)))
            .collect();
        let mut merged: Vec<u32> = (0..=self.region_count).collect();
        let mut open_regions = self.region_count as usize;
        let w = self.width as isize;
        while open_regions > 1 && !remaining.is_empty() {
            let pick = random_utils::below(rng, remaining.len() as u64) as usize;
            let (connector, regions) = remaining.swap_remove(pick);
            self.open_junction(connector);
            let mut rs: Vec<u32> = regions.iter().map(|&r| merged[r as usize]).collect();
            rs.dedup();
            let dest = rs[0];
            let sources = &rs[1..];
            for m in merged.iter_mut() {
                if sources.contains(m) {
                    *m = dest;
                }
            }
            open_regions = open_regions.saturating_sub(sources.len());
            let (cx, cy) = (connector as isize % w, connector as isize / w);
            let mut kept = Vec::with_capacity(remaining.len());
            for (pos, regions) in remaining {
                let (px, py) = (pos as isize % w, pos as isize / w);
                if (px - cx).abs() <= 1 && (py - cy).abs() <= 1 {
                    continue;
                }
                let mut now: Vec<u32> = regions.iter().map(|&r| merged[r as usize]).collect();
                now.sort_unstable();
                now.dedup();
                if now.len() > 1 {
                    kept.push((pos, regions));
                    continue;
                }
                if extra_connector_chance > 0
                    && random_utils::below(rng, u64::from(extra_connector_chance)) == 0
                {
                    self.open_junction(pos);
                }
            }
            remaining = kept;
        }
    }
}

#[cfg(test)]
impl Carver {
    /// [`Carver::find_connectors`] as it was first written, tile by tile over rows of
    /// regions spread over the tiles: the oracle of its test. Every rock tile inside the area
    /// with two or more different regions among its cardinal neighbours, in row-major order,
    /// with the two regions.
    ///
    /// The test needs only two comparisons a tile, left against right and up against down,
    /// because two carved neighbours at a right angle (say up and left) always share a region:
    /// both touch the same cell, and a maze passage has its cells' region while a room tile's
    /// neighbours inside the room are the room. So a rock tile sees two regions exactly when
    /// its left and right, or its up and down, neighbours are carved and differ, and these two
    /// are the regions it joins. (At (even x, odd y) up and down are always rock, at (odd,
    /// even) left and right are, and (even, even) tiles are the corners where room edges and
    /// corridors meet.)
    fn find_connectors_by_tile(&self) -> Connectors {
        let (aw, ah) = (self.area_width, self.area_height);
        let differ = |a: u32, b: u32| (a != ROCK) & (b != ROCK) & (a != b);
        let mut list: Vec<Connector> = Vec::with_capacity(aw * ah / 6);
        // The regions of three rows of tiles, from x = 0, rolled up the area.
        let mut below = vec![ROCK; aw];
        let mut row = vec![ROCK; aw];
        let mut above = vec![ROCK; aw];
        self.tile_regions(1, &mut row);
        let mut flags = vec![0u8; aw - 2];
        let mut xs = vec![0usize; aw];
        for y in 1..ah - 1 {
            self.tile_regions(y + 1, &mut above);
            // First a flag a tile, straight-line code the compiler vectorises ...
            let tiles = row.windows(3).zip(above[1..].iter().zip(&below[1..]));
            for (f, (t, (&u, &d))) in flags.iter_mut().zip(tiles) {
                *f = u8::from((t[1] == ROCK) & (differ(t[0], t[2]) | differ(u, d)));
            }
            // ... then, branch-free (whether a tile is a connector is as unpredictable as the
            // maze), each tile's x is written at the row's end and the end moves on for a flag
            // ...
            let mut count = 0;
            for (x, &f) in (1..).zip(&flags) {
                xs[count] = x;
                count += usize::from(f);
            }
            // ... and the row's few connectors take their regions from the rows at hand.
            let start = y * self.width;
            list.extend(xs[..count].iter().map(|&x| {
                let (up, down) = (above[x], below[x]);
                // Branch-free: whether the pair is up-down or right-left is a coin toss.
                let vertical = 0u32.wrapping_sub(u32::from(up != ROCK));
                let first = (up & vertical) | (row[x + 1] & !vertical);
                let second = (down & vertical) | (row[x - 1] & !vertical);
                Connector {
                    at: (start + x) as u32,
                    first,
                    second,
                }
            }));
            std::mem::swap(&mut below, &mut row);
            std::mem::swap(&mut row, &mut above);
        }
        Connectors { list }
    }

    /// The regions of row `y`'s tiles from x = 0 (`ROCK` where not carved) into `out` (the
    /// area's width long): a carved tile has the region of the cell at its bottom-left.
    fn tile_regions(&self, y: usize, out: &mut [u32]) {
        out.fill(ROCK);
        if y == 0 || y + 1 >= self.area_height {
            return;
        }
        let start = y * self.width;
        let open = &self.open[start + 1..start + self.area_width];
        let cells = &self.cell_regions[self.cell(1, y)..];
        // Tiles x = 2c + 1 and 2c + 2 share cell c.
        for ((pair, o), &region) in out[1..]
            .chunks_exact_mut(2)
            .zip(open.chunks_exact(2))
            .zip(cells)
        {
            pair[0] = region & 0u32.wrapping_sub(u32::from(o[0]));
            pair[1] = region & 0u32.wrapping_sub(u32::from(o[1]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::GeneratorSettings;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    /// The connectors read off the cells are the ones found tile by tile, in order, with
    /// the same two regions, over many sizes and settings.
    #[test]
    fn connectors_read_off_the_cells_are_those_found_tile_by_tile() {
        let d = GeneratorSettings::default();
        let settings = [
            d,
            GeneratorSettings {
                winding_percent: 0,
                room_extra_size: 5,
                room_tries_per_1000_tiles: 200,
                ..d
            },
            GeneratorSettings {
                winding_percent: 100,
                room_tries_per_1000_tiles: 0,
                ..d
            },
        ];
        let mut compared = 0;
        for (k, s) in settings.iter().enumerate() {
            for (w, h) in [
                (80, 30),
                (5, 5),
                (7, 9),
                (21, 11),
                (81, 31),
                (60, 24),
                (123, 57),
            ] {
                for seed in 0..40 {
                    let mut rng = Pcg64::seed_from_u64(seed * 7 + k as u64);
                    let mut c = Carver::new(w, h);
                    c.add_rooms(&mut rng, s);
                    c.grow_mazes(&mut rng, s.winding_percent);
                    let (fast, slow) = (c.find_connectors(), c.find_connectors_by_tile());
                    let key = |k: &Connector| (k.at, k.first, k.second);
                    assert_eq!(
                        fast.list.iter().map(key).collect::<Vec<_>>(),
                        slow.list.iter().map(key).collect::<Vec<_>>(),
                        "{w} × {h}, seed {seed}, settings {k}"
                    );
                    compared += fast.len();
                }
            }
        }
        assert!(compared > 10_000, "{compared}");
    }
}
