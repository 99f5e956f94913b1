//! What a walk knows (the module's documentation): the tiles of a window around the avatar
//! that the player has seen (a classic game's whole map), kept between steps and brought up
//! to date, and the searches over them as the rules let a walk step: to the nearest goal
//! (the search module's [`search::nearest_where`]) and through armed traps ([`Layered`]).

use crate::base::GameKind;
use crate::game::GameState;
use crate::run::FeatureKind;
use byog_tile_engine::search::{self, Grid, Layered, UNREACHED};
use byog_tile_engine::{Direction, Map, Pos, Rect, Tile};

/// Whether `game`'s walks plan over its whole map: a classic game shows it (module
/// documentation).
pub(super) fn whole_map(game: &GameState) -> bool {
    game.kind() == GameKind::Classic
}

/// Whether a walk knows world tile `pos`: seen, or any tile of a classic game.
pub(super) fn knows(game: &GameState, pos: Pos) -> bool {
    if whole_map(game) {
        game.contains(pos)
    } else {
        game.has_seen(pos)
    }
}

/// What a walk knows of a window of the game's current frame, on the window's padded grid
/// (its ring of border cells is closed, but their `unseen` is true to the map). A walk keeps
/// it between steps and brings it up to date around the tiles the avatar stood on since
/// ([`Known::catch_up`]), so a plan costs its search, not a fresh look at the world.
#[derive(Debug, Clone)]
pub(super) struct Known {
    /// The window, in world tiles of the current frame.
    area: Rect,
    /// The game's frame when the window was made: its origin and rectangle (an
    /// exploration's changes as its map grows or the avatar changes maps).
    frame: (Pos, Rect),
    /// The window's padded grid (the search module's).
    pub(super) grid: Grid,
    /// Known and walkable.
    ground: Vec<bool>,
    /// `ground`, less the tiles of monsters in sight, the avatar's tile always open.
    pub(super) open: Vec<bool>,
    /// Tiles of the map never seen (the ring included).
    unseen: Vec<bool>,
    /// Armed traps.
    pub(super) armed: Vec<bool>,
    /// Seen unexplored exits of an exploration: where `X` steps into the unknown.
    unexplored: Vec<bool>,
    /// A one-way exit's cell: 1 + the index of the only direction a step may enter it by;
    /// 0 for any other cell.
    entry: Vec<u8>,
    /// The least number of steps from the avatar to a tile of the map outside the window
    /// (`u32::MAX` when the window is the whole map): a search is exact within it.
    pub(super) margin: u32,
    /// The window's cells on a side beyond which the map goes on.
    edge: Vec<bool>,
    /// The tiles the avatar stood on since the window was last brought up to date: the
    /// corners of their bounding box.
    stood: Option<(Pos, Pos)>,
}

impl Known {
    /// The window of half-side `reach` around the avatar (the map's frame clipped), marked
    /// for the avatar where it stands ([`Known::mark`]).
    pub(super) fn around(game: &GameState, reach: i32) -> Known {
        let a = game.avatar();
        let map = game.rect();
        let area =
            Rect::new(a.x - reach, a.y - reach, 2 * reach + 1, 2 * reach + 1).intersection(&map);
        let grid = Grid::around(area.width as usize, area.height as usize);
        let n = grid.len();
        let mut known = Known {
            area,
            frame: (game.origin(), map),
            grid,
            ground: vec![false; n],
            open: vec![false; n],
            unseen: vec![false; n],
            armed: vec![false; n],
            unexplored: vec![false; n],
            entry: vec![0; n],
            margin: u32::MAX,
            edge: vec![false; n],
            stood: None,
        };
        known.fill(game, known.padded());
        let sides = known.open_sides();
        for y in area.y..area.top() {
            for x in area.x..area.right() {
                let on_edge = (x == area.x && sides[0])
                    || (x == area.right() - 1 && sides[1])
                    || (y == area.y && sides[2])
                    || (y == area.top() - 1 && sides[3]);
                if on_edge && let Some(c) = known.cell(Pos::new(x, y)) {
                    known.edge[c] = true;
                }
            }
        }
        known.mark(game);
        known
    }

    /// The window with its ring, in world tiles.
    fn padded(&self) -> Rect {
        let a = self.area;
        Rect::new(a.x - 1, a.y - 1, a.width + 2, a.height + 2)
    }

    /// Which of the window's sides (left, right, bottom, top) the map goes on beyond.
    fn open_sides(&self) -> [bool; 4] {
        let (a, map) = (self.area, self.frame.1);
        [
            a.x > map.x,
            a.right() < map.right(),
            a.y > map.y,
            a.top() < map.top(),
        ]
    }

    /// Reads the tiles of `region` (world tiles, clipped to the padded window) from the game:
    /// what is known of each, and whether it can be walked.
    fn fill(&mut self, game: &GameState, region: Rect) {
        let region = region.intersection(&self.padded());
        if region.is_empty() {
            return;
        }
        let map = self.frame.1;
        let (rw, rh) = (region.width as usize, region.height as usize);
        let mut tiles = vec![Tile::Nothing; rw * rh];
        let mut seen = vec![false; rw * rh];
        // Tiles of an exploration's plots that hold nothing to learn from the avatar's map
        // (no room of it, and not a side of the start room): never unseen, so no tile beside
        // them is a frontier. A frontier there would differ as the map does (a branch's or
        // the start room's) and send `X` back and forth across the start room.
        let mut void = vec![false; rw * rh];
        match (game.grid(), game.explore()) {
            (Some(g), _) => {
                let whole = whole_map(game);
                let tw = g.terrain.width();
                let inside = region.intersection(&g.terrain.rect());
                for y in inside.y..inside.top() {
                    let row = (y - region.y) as usize * rw;
                    let from = y as usize * tw + inside.x as usize;
                    let len = inside.width as usize;
                    let at = row + (inside.x - region.x) as usize;
                    tiles[at..at + len].copy_from_slice(&g.terrain.tiles()[from..from + len]);
                    if whole {
                        seen[at..at + len].fill(true);
                    } else {
                        seen[at..at + len].copy_from_slice(&g.seen[from..from + len]);
                    }
                }
            }
            (None, Some(e)) => {
                let o = game.origin();
                let dungeon =
                    Rect::new(region.x + o.x, region.y + o.y, region.width, region.height);
                e.paint_into(dungeon, &mut tiles);
                e.seen_into(dungeon, &mut seen);
                // A plot at a time: its rectangle of the mask, when the map has nothing there.
                use crate::explore::plot::{PLOT, plot_of};
                let low = plot_of(Pos::new(dungeon.x, dungeon.y));
                let high = plot_of(Pos::new(dungeon.right() - 1, dungeon.top() - 1));
                for py in low.y..=high.y {
                    for px in low.x..=high.x {
                        let plot = crate::explore::RoomPos::new(px, py);
                        if e.map_reaches(plot) {
                            continue;
                        }
                        let area =
                            Rect::new(px * PLOT, py * PLOT, PLOT, PLOT).intersection(&dungeon);
                        for y in area.y..area.top() {
                            let row = (y - dungeon.y) as usize * rw;
                            let x0 = row + (area.x - dungeon.x) as usize;
                            void[x0..x0 + area.width as usize].fill(true);
                        }
                    }
                }
            }
            (None, None) => {}
        }
        for y in region.y..region.top() {
            for x in region.x..region.right() {
                let k = (y - region.y) as usize * rw + (x - region.x) as usize;
                let c = ((y - self.area.y + 1) as usize) * self.grid.width
                    + (x - self.area.x + 1) as usize;
                let p = Pos::new(x, y);
                let (seen, t) = (seen[k], tiles[k]);
                let in_map = map.contains(p);
                let interior = self.area.contains(p) && in_map && seen;
                self.unseen[c] = in_map && !seen && !void[k];
                self.ground[c] = interior && t.is_walkable();
                self.unexplored[c] = interior && t == Tile::ExitUnexplored;
                self.entry[c] = match t {
                    _ if !interior => 0,
                    Tile::OneWayUp => 1 + Direction::Up.index() as u8,
                    Tile::OneWayRight => 1 + Direction::Right.index() as u8,
                    Tile::OneWayDown => 1 + Direction::Down.index() as u8,
                    Tile::OneWayLeft => 1 + Direction::Left.index() as u8,
                    _ => 0,
                };
            }
        }
    }

    /// Whether the window still belongs to `game`'s frame and holds the avatar.
    pub(super) fn fits(&self, game: &GameState) -> bool {
        self.frame == (game.origin(), game.rect()) && self.area.contains(game.avatar())
    }

    /// Notes that the avatar stands where it stands now: what it saw from there is read in
    /// by the next [`Known::catch_up`].
    pub(super) fn stood_on(&mut self, at: Pos) {
        self.stood = Some(match self.stood {
            None => (at, at),
            Some((lo, hi)) => (
                Pos::new(lo.x.min(at.x), lo.y.min(at.y)),
                Pos::new(hi.x.max(at.x), hi.y.max(at.y)),
            ),
        });
    }

    /// Reads in what the avatar saw from the tiles it stood on since the last time: the
    /// light radius' square around each (their bounding box, grown by the radius).
    pub(super) fn catch_up(&mut self, game: &GameState) {
        if let Some((lo, hi)) = self.stood.take() {
            let r = crate::base::SIGHT_RADIUS as i32 + 1;
            let region = Rect::new(
                lo.x - r,
                lo.y - r,
                hi.x - lo.x + 2 * r + 1,
                hi.y - lo.y + 2 * r + 1,
            );
            self.fill(game, region);
        }
    }

    /// Marks what changes from one plan to the next: the armed traps, the monsters in sight
    /// (in the way), the avatar's tile (open: it leaves from there) and the margin from the
    /// avatar to the window's open sides.
    pub(super) fn mark(&mut self, game: &GameState) {
        self.open.copy_from_slice(&self.ground);
        self.armed.fill(false);
        for f in game.features().iter() {
            if f.kind == FeatureKind::Trap
                && f.handled
                && let Some(c) = self.cell(f.pos)
            {
                self.armed[c] = true;
            }
        }
        if let Some(e) = game.explore() {
            let sight = e.sight();
            let o = game.origin();
            for m in e.monsters().filter(|m| sight.contains(m.pos)) {
                if let Some(c) = self.cell(Pos::new(m.pos.x - o.x, m.pos.y - o.y)) {
                    self.open[c] = false;
                }
            }
        }
        let a = game.avatar();
        if let Some(c) = self.cell(a) {
            self.open[c] = true;
        }
        let area = self.area;
        let steps = [
            a.x - area.x,
            area.right() - 1 - a.x,
            a.y - area.y,
            area.top() - 1 - a.y,
        ];
        self.margin = self
            .open_sides()
            .into_iter()
            .zip(steps)
            .filter(|&(open, _)| open)
            .map(|(_, s)| s.max(0) as u32)
            .min()
            .unwrap_or(u32::MAX);
    }

    /// Whether the window is the whole map.
    pub(super) fn whole(&self) -> bool {
        self.margin == u32::MAX
    }

    /// The padded cell of world tile `p`, if it lies in the window.
    pub(super) fn cell(&self, p: Pos) -> Option<usize> {
        self.grid
            .index(Pos::new(p.x - self.area.x, p.y - self.area.y))
    }

    /// The world tile of padded cell `c`.
    pub(super) fn pos(&self, c: usize) -> Pos {
        let p = self.grid.pos(c);
        Pos::new(p.x + self.area.x, p.y + self.area.y)
    }

    /// Whether a step in direction `d` may enter cell `c` (a one-way exit only in its
    /// direction).
    pub(super) fn may_enter(&self, c: usize, d: Direction) -> bool {
        let e = self.entry[c];
        e == 0 || usize::from(e - 1) == d.index()
    }

    /// Whether cell `c` is a seen unexplored exit of an exploration.
    pub(super) fn is_unexplored(&self, c: usize) -> bool {
        self.unexplored[c]
    }

    /// Whether open cell `c` is a tile to explore towards: beside an unseen tile of the map,
    /// or an exploration's unexplored exit.
    pub(super) fn is_frontier(&self, c: usize) -> bool {
        self.open[c]
            && (self.unexplored[c] || self.grid.neighbours(c).into_iter().any(|n| self.unseen[n]))
    }

    /// A breadth-first search from `source` over the open cells (armed traps closed unless
    /// `through_traps`), each step allowed only as the rules allow it ([`Known::may_enter`]):
    /// the search module's [`search::nearest_where`], stopped at the first cell where `goal`
    /// holds (in search order: nearest first, ties in neighbour order). The distances of the
    /// cells searched are in `dist` (all [`UNREACHED`] on entry); returns the goal found and
    /// whether the search reached the window's edge.
    pub(super) fn search(
        &self,
        through_traps: bool,
        source: usize,
        goal: impl Fn(usize) -> bool,
        dist: &mut [u32],
    ) -> (Option<usize>, bool) {
        let mut touched = false;
        let found = search::nearest_where(
            self.grid,
            source,
            |_, d, n| self.open[n] && (through_traps || !self.armed[n]) && self.may_enter(n, d),
            |c| {
                touched |= self.edge[c];
                goal(c)
            },
            dist,
        );
        (found, touched)
    }

    /// The nearest cell other than `source` where `goal` holds, crossing at most `layers − 1`
    /// armed traps on the way (the layered search of [`Known::layered`], stopped at the
    /// first such cell: fewest steps first): the cell and its steps, and whether the search
    /// reached the window's edge.
    pub(super) fn nearest_layered(
        &self,
        source: usize,
        layers: usize,
        goal: impl Fn(usize) -> bool,
    ) -> (Option<(usize, u32)>, bool) {
        let (ways, found, touched) =
            self.layered_search(source, layers, |c, _| c != source && goal(c));
        let n = self.grid.len();
        let found = found.map(|s| (s % n, ways.steps(s / n, s % n)));
        (found, touched)
    }

    /// The search module's layered search from `source` over `layers` layers (armed traps
    /// crossed: 0 to `layers − 1`), each step as the rules allow it, stopped at the first
    /// cell (by steps) where `stop` holds: the distances, that cell's state (`layer × cells
    /// + cell`), and whether the search reached the window's edge. `stop(cell, layer)`.
    pub(super) fn layered_search(
        &self,
        source: usize,
        layers: usize,
        stop: impl Fn(usize, usize) -> bool,
    ) -> (Layered, Option<usize>, bool) {
        let mut touched = false;
        let (ways, found) = Layered::search(
            self.grid,
            source,
            layers,
            |_, d, m| self.open[m] && self.may_enter(m, d),
            |m| self.armed[m],
            |c, layer| {
                touched |= self.edge[c];
                stop(c, layer)
            },
            |_, _| (),
        );
        (ways, found, touched)
    }

    /// The cells of the shortest walk from the search's source into `target` by `dist` (as
    /// the search module's `path_into`: a target not reached itself is entered from its
    /// reached neighbour nearest the source, the first in neighbour order on ties; each cell
    /// steps back onto the first neighbour one step nearer from which the rules allow the
    /// step), source first.
    pub(super) fn path(&self, dist: &[u32], target: usize) -> Option<Vec<usize>> {
        byog_tile_engine::search::path_into_where(self.grid, dist, target, |c, d| {
            self.may_enter(c, d.opposite())
        })
    }

    /// The shortest ways from `source` into `target` crossing at most `k` armed traps, for
    /// each `k` in `0..layers`: the search module's layered search ([`Layered`], as the
    /// solver's escape, `run::route::Router::escape`), each step as the rules allow it,
    /// linear in cells × layers. Returns, a layer, the steps into the target (`UNREACHED`
    /// when none), with the search's distances, and whether it reached the window's edge.
    ///
    /// The search stops once the way round every trap is found (the target taken up in
    /// layer 0, or for a closed target like the exit door, its first neighbour there): every
    /// state nearer has been reached by then, so each layer's way shorter than that one, all
    /// [`Ways::best`] and [`Ways::path`] can choose, is as the whole search finds it (a longer
    /// one may be left [`UNREACHED`]; the edge is then reached only if a nearer state did).
    pub(super) fn layered(&self, source: usize, target: usize, layers: usize) -> Ways {
        let closed = !self.open[target];
        let neighbours = self.grid.neighbours(target);
        let (ways, _, touched) = self.layered_search(source, layers, |c, layer| {
            layer == 0 && (c == target || (closed && neighbours.contains(&c)))
        });
        let into = (0..layers).map(|l| ways.steps_into(l, target)).collect();
        Ways {
            ways,
            into,
            touched,
        }
    }
}

/// A layered search's result ([`Known::layered`]).
pub(super) struct Ways {
    /// The search's distances, a layer each.
    ways: Layered,
    /// Steps into the target, a layer (`into[k]`: the shortest way that ends having crossed
    /// `k` armed traps; `UNREACHED` when none).
    pub(super) into: Vec<u32>,
    /// Whether the search reached the window's edge.
    pub(super) touched: bool,
}

impl Ways {
    /// The shortest way into the target crossing at most `k` traps: `(steps, layer)`, the
    /// fewest traps among the shortest.
    pub(super) fn best(&self, k: usize) -> Option<(u32, usize)> {
        let mut best: Option<(u32, usize)> = None;
        for (l, &d) in self.into.iter().enumerate().take(k + 1) {
            if d != UNREACHED && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, l));
            }
        }
        best
    }

    /// The cells of that way, source first (as [`Known::path`], a layer at a time).
    pub(super) fn path(&self, known: &Known, target: usize, layer: usize) -> Option<Vec<usize>> {
        self.ways.path_into_where(
            target,
            layer,
            |c| known.armed[c],
            |c, d| known.may_enter(c, d.opposite()),
        )
    }
}

/// Whether world tile `pos` of an exploration is an unexplored exit (the avatar may stand on
/// it: what is under the avatar counts).
pub(super) fn is_unexplored_exit(game: &GameState, pos: Pos) -> bool {
    game.explore().is_some_and(|e| {
        let o = game.origin();
        game.rect().contains(pos)
            && e.tile_at(Pos::new(pos.x + o.x, pos.y + o.y)) == Tile::ExitUnexplored
    })
}
