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

use super::{Carver, JUNCTION, ROCK, UnionFind};
use crate::tile_engine::random_utils;

/// A connector and the regions of its four neighbours (up, right, down, left; `ROCK` for rock)
/// when the connectors were found.
#[derive(Debug, Clone, Copy)]
struct Connector {
    at: u32,
    around: [u32; 4],
}

impl Carver {
    /// Finds the connectors, opens a spanning tree of them plus a few extra, and leaves one
    /// region. Opened connectors take the region of one of their neighbours and are marked as
    /// junctions.
    pub fn connect_regions<R: Rng + ?Sized>(&mut self, rng: &mut R, extra_connector_chance: u32) {
        let connectors = self.find_connectors();
        self.merge_regions(rng, connectors, extra_connector_chance);
    }

    /// The merge half of [`Carver::connect_regions`]: shuffles `connectors` and opens a
    /// spanning tree of them plus the extra loops.
    pub fn merge_regions<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        connectors: Vec<u32>,
        extra_connector_chance: u32,
    ) {
        // Each connector carries its neighbours' regions, read here in row-major order, so
        // the loop below reads the shuffled list in order instead of jumping around the
        // region map (which at 4096 × 4096 is 64 MiB: a cache miss a connector).
        let mut list: Vec<Connector> = connectors
            .iter()
            .map(|&at| Connector {
                at,
                around: self.cardinal(at as usize).map(|n| self.regions[n]),
            })
            .collect();
        drop(connectors);
        random_utils::shuffle(rng, &mut list);
        self.junctions = vec![0; self.regions.len().div_ceil(64)];
        let mut merged = UnionFind::new(self.region_count as usize + 1);
        let mut deferred = Vec::new();
        for k in &list {
            let c = k.at as usize;
            if self.touches_junction(c) {
                deferred.push(c);
                continue;
            }
            // No neighbour is a junction, so the regions read when the list was made are still
            // the neighbours' regions. Once everything is one region every connector is
            // redundant: skip the look-up.
            if merged.sets() > 1 && self.join_around(c, k.around, &mut merged) {
                continue;
            }
            if extra_connector_chance > 0
                && random_utils::below(rng, u64::from(extra_connector_chance)) == 0
            {
                self.open_junction_around(c, k.around);
            }
        }
        // A connector skipped for touching a junction may be the only link left between two
        // regions; open such ones now so that everything is connected.
        for c in deferred {
            if merged.sets() <= 1 {
                break;
            }
            self.join(c, &mut merged);
        }
        self.junctions = Vec::new();
    }

    /// Every rock tile inside the area with two or more different regions among its cardinal
    /// neighbours, in row-major order.
    ///
    /// After [`grow_mazes`](Carver::grow_mazes) every odd `(x, y)` cell is carved, and rooms
    /// and maze passages never carve an even `(x, y)` next to rock, so a rock tile at (even x,
    /// odd y) has rock above and below and is a connector exactly when its left and right
    /// regions differ; at (odd x, even y) the same holds for above and below. Only (even,
    /// even) tiles, at room edges, need all four neighbours looked at.
    pub fn find_connectors(&self) -> Vec<u32> {
        let (w, aw, ah) = (self.width, self.area_width, self.area_height);
        let differ = |a: u32, b: u32| a != ROCK && b != ROCK && a != b;
        let mut connectors = Vec::with_capacity(aw * ah / 8);
        for y in 1..ah - 1 {
            let start = y * w;
            // The row and its neighbours, each `aw` tiles from x = 0; `k` below is x - 1.
            let row = &self.regions[start..start + aw];
            let above = &self.regions[start + w + 1..start + w + aw - 1];
            let below = &self.regions[start - w + 1..start - w + aw - 1];
            let tiles = row.windows(3).zip(above.iter().zip(below)).enumerate();
            if y % 2 == 1 {
                for (k, (t, _)) in tiles.skip(1).step_by(2) {
                    if t[1] == ROCK && differ(t[0], t[2]) {
                        connectors.push((start + k + 1) as u32);
                    }
                }
                continue;
            }
            for (k, (t, (&up, &down))) in tiles {
                if t[1] != ROCK {
                    continue;
                }
                let (left, right) = (t[0], t[2]);
                let connector = if k % 2 == 0 {
                    differ(up, down)
                } else {
                    differ(left, right)
                        || differ(up, down)
                        || differ(up, left)
                        || differ(up, right)
                        || differ(down, left)
                        || differ(down, right)
                };
                if connector {
                    connectors.push((start + k + 1) as u32);
                }
            }
        }
        connectors
    }

    /// Opens connector `c` if its neighbours belong to two or more merged regions, and merges
    /// them. Returns whether it did.
    fn join(&mut self, c: usize, merged: &mut UnionFind) -> bool {
        let around = self.cardinal(c).map(|n| self.regions[n]);
        self.join_around(c, around, merged)
    }

    /// [`Carver::join`] with the neighbours' regions (up, right, down, left) given.
    fn join_around(&mut self, c: usize, around: [u32; 4], merged: &mut UnionFind) -> bool {
        let mut roots = [u32::MAX; 4];
        let mut n = 0;
        for r in around {
            if r == ROCK {
                continue;
            }
            let root = merged.find(r & !JUNCTION);
            if !roots[..n].contains(&root) {
                roots[n] = root;
                n += 1;
            }
        }
        if n < 2 {
            return false;
        }
        for &r in &roots[1..n] {
            merged.union(roots[0], r);
        }
        self.open_junction_around(c, around);
        true
    }

    fn open_junction(&mut self, c: usize) {
        let around = self.cardinal(c).map(|n| self.regions[n]);
        self.open_junction_around(c, around);
    }

    /// Opens connector `c`, giving it the region of its first carved neighbour in `around`
    /// (up, right, down, left).
    fn open_junction_around(&mut self, c: usize, around: [u32; 4]) {
        let region = around.into_iter().find(|&r| r != ROCK).unwrap_or(1);
        self.regions[c] = (region & !JUNCTION) | JUNCTION;
        if let Some(word) = self.junctions.get_mut(c / 64) {
            *word |= 1 << (c % 64);
        }
    }

    /// Whether any of the 8 tiles around `c` is an opened connector (read from the junction
    /// bitset, which `merge_regions` keeps).
    fn touches_junction(&self, c: usize) -> bool {
        let bit = |i: usize| self.junctions[i / 64] >> (i % 64) & 1 != 0;
        let w = self.width;
        [
            c + w - 1,
            c + w,
            c + w + 1,
            c - 1,
            c + 1,
            c - w - 1,
            c - w,
            c - w + 1,
        ]
        .into_iter()
        .any(bit)
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
                let r = self.regions[n];
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
