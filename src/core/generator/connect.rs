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

/// A connector and the two regions it joins, `first` being the one that comes first among its
/// neighbours in the order up, right, down, left (the region an opened connector takes).
#[derive(Debug, Clone, Copy)]
struct Connector {
    at: u32,
    first: u32,
    second: u32,
}

impl Carver {
    /// Finds the connectors, opens a spanning tree of them plus a few extra, and leaves one
    /// region. Opened connectors take the region of one of their neighbours and are marked as
    /// junctions.
    pub fn connect_regions<R: Rng + ?Sized>(&mut self, rng: &mut R, extra_connector_chance: u32) {
        let connectors = self.find_connectors();
        self.merge_regions(rng, connectors, extra_connector_chance);
    }

    /// The merge half of [`Carver::connect_regions`]: shuffles `connectors` (as
    /// [`find_connectors`](Carver::find_connectors) returns them) and opens a spanning tree of
    /// them plus the extra loops.
    pub fn merge_regions<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        connectors: Vec<u32>,
        extra_connector_chance: u32,
    ) {
        // Each connector carries the two regions it joins, read here in row-major order, so
        // the loop below reads the shuffled list in order instead of jumping around the
        // region map (which at 4096 × 4096 is 64 MiB: a cache miss a connector). A connector
        // has exactly two carved neighbours, opposite each other (see `find_connectors`):
        // up and down, or right and left.
        let mut list: Vec<Connector> = connectors
            .iter()
            .map(|&at| {
                let [up, right, down, left] = self.cardinal(at as usize).map(|n| self.regions[n]);
                let (first, second) = if up != ROCK {
                    (up, down)
                } else {
                    (right, left)
                };
                Connector { at, first, second }
            })
            .collect();
        drop(connectors);
        random_utils::shuffle(rng, &mut list);
        self.near_junction = vec![0; self.regions.len().div_ceil(64)];
        let mut merged = UnionFind::new(self.region_count as usize + 1);
        let mut deferred = Vec::new();
        for k in &list {
            let c = k.at as usize;
            if self.is_near_junction(c) {
                deferred.push(*k);
                continue;
            }
            // No neighbour is a junction, so the regions read when the list was made are still
            // the neighbours' regions. Once everything is one region every connector is
            // redundant: skip the look-up.
            if merged.sets() > 1 && merged.union(k.first, k.second) {
                self.open_junction_as(c, k.first);
                continue;
            }
            if extra_connector_chance > 0
                && random_utils::below(rng, u64::from(extra_connector_chance)) == 0
            {
                self.open_junction_as(c, k.first);
            }
        }
        // A connector skipped for being next to a junction may be the only link left between
        // two regions; open such ones now so that everything is connected. A junction next to
        // it joins the same two regions (its carved neighbours touch the same cells), so the
        // two regions the connector carries are still all there is to merge.
        self.near_junction = Vec::new();
        for k in deferred {
            if merged.sets() <= 1 {
                break;
            }
            if merged.union(k.first, k.second) {
                self.open_junction_as(k.at as usize, k.first);
            }
        }
    }

    /// Every rock tile inside the area with two or more different regions among its cardinal
    /// neighbours, in row-major order.
    ///
    /// The test needs only two comparisons a tile, left against right and up against down,
    /// because two carved neighbours at a right angle (say up and left) always share a region:
    /// both touch the same cell, and a maze passage has its cells' region while a room tile's
    /// neighbours inside the room are the room. So a rock tile sees two regions exactly when
    /// its left and right, or its up and down, neighbours are carved and differ. (At (even x,
    /// odd y) up and down are always rock, at (odd, even) left and right are, and (even, even)
    /// tiles are the corners where room edges and corridors meet.)
    pub fn find_connectors(&self) -> Vec<u32> {
        let (w, aw, ah) = (self.width, self.area_width, self.area_height);
        let differ = |a: u32, b: u32| (a != ROCK) & (b != ROCK) & (a != b);
        let mut connectors: Vec<u32> = Vec::with_capacity(aw * ah / 6);
        let mut flags = vec![0u8; aw - 2];
        for y in 1..ah - 1 {
            let start = y * w;
            let row = &self.regions[start..start + aw];
            let up = &self.regions[start + w + 1..start + w + aw - 1];
            let down = &self.regions[start - w + 1..start - w + aw - 1];
            // First a flag a tile, straight-line code the compiler vectorises ...
            for (f, (t, (&u, &d))) in flags
                .iter_mut()
                .zip(row.windows(3).zip(up.iter().zip(down)))
            {
                *f = u8::from((t[1] == ROCK) & (differ(t[0], t[2]) | differ(u, d)));
            }
            // ... then, branch-free (whether a tile is a connector is as unpredictable as the
            // maze), each tile is written at the list's end and the end moves on for a flag.
            let mut len = connectors.len();
            connectors.resize(len + aw, 0);
            let slots = &mut connectors[..];
            for (i, &f) in (start as u32 + 1..).zip(&flags) {
                slots[len] = i;
                len += usize::from(f);
            }
            connectors.truncate(len);
        }
        connectors
    }

    /// Opens connector `c`, giving it the region of its first carved neighbour (up, right,
    /// down, left).
    fn open_junction(&mut self, c: usize) {
        let region = self
            .cardinal(c)
            .map(|n| self.regions[n])
            .into_iter()
            .find(|&r| r != ROCK)
            .unwrap_or(1);
        self.open_junction_as(c, region);
    }

    /// Opens connector `c` as part of `region`, and marks the 3 × 3 tiles around it as next
    /// to a junction (while [`Carver::merge_regions`] runs).
    fn open_junction_as(&mut self, c: usize, region: u32) {
        self.regions[c] = (region & !JUNCTION) | JUNCTION;
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
