//! What an exploration keeps between the monsters' turns ([`super::turn`]), for as long as
//! the avatar stands on the same tile of an unchanged map: what the avatar sees
//! ([`InSight`], for waking) and the monsters' maps around it. Below both the exploration in
//! play ([`super::play`], which holds the cache and fills in the sight when it looks) and
//! the monsters' turn (which reads and fills it), so neither imports the other for it.

use byog_tile_engine::search::Grid;
use byog_tile_engine::{Pos, Rect};

/// What the avatar sees at one moment ([`super::ExploreState::sight`]): bit `i` of row `j`
/// is dungeon tile `(origin.x + i, origin.y + j)`, over the light radius' square.
#[derive(Debug, Clone, Copy)]
pub struct InSight {
    origin: Pos,
    rows: [u32; 32],
}

impl InSight {
    /// The sight whose bottom-left tile is dungeon tile `origin` and whose row `j` has bit
    /// `i` set for each tile `(origin.x + i, origin.y + j)` seen.
    pub(crate) fn new(origin: Pos, rows: [u32; 32]) -> InSight {
        InSight { origin, rows }
    }

    /// Whether dungeon tile `p` is seen (false outside the square).
    pub fn contains(&self, p: Pos) -> bool {
        let (i, j) = (p.x - self.origin.x, p.y - self.origin.y);
        (0..32).contains(&i) && (0..32).contains(&j) && self.rows[j as usize] >> i & 1 == 1
    }
}

/// The square around the avatar the monsters' maps cover: its rectangle in dungeon tiles and
/// its padded grid.
#[derive(Debug, Clone)]
pub(crate) struct Square {
    /// The square, in dungeon tiles.
    pub(crate) area: Rect,
    /// Its padded grid (the search module's).
    pub(crate) grid: Grid,
}

impl Square {
    /// The padded cell of dungeon tile `p`, if it lies in the square.
    pub(crate) fn index(&self, p: Pos) -> Option<usize> {
        self.grid
            .index(Pos::new(p.x - self.area.x, p.y - self.area.y))
    }

    /// The dungeon tile of padded cell `i`.
    pub(crate) fn pos(&self, i: usize) -> Pos {
        let p = self.grid.pos(i);
        Pos::new(p.x + self.area.x, p.y + self.area.y)
    }
}

/// The monsters' maps around one tile of the avatar: the square, where monsters may walk in
/// it, the distance map to the avatar and (once a monster fled) the safety map.
#[derive(Debug, Clone)]
pub(crate) struct Maps {
    /// The square the maps cover.
    pub(crate) square: Square,
    /// Where monsters may walk, a cell of the square's padded grid each.
    pub(crate) open: Vec<bool>,
    /// Steps to the avatar, a cell each (`UNREACHED` where none leads).
    pub(crate) dist: Vec<u32>,
    /// The safety map (tenths of a step), once a monster fled.
    pub(crate) safety: Option<Vec<i32>>,
}

/// What the monsters' turn keeps between turns, for as long as the avatar stands on the same
/// tile of an unchanged map (a fight, a wait, a potion): what the avatar sees (for waking)
/// and the monsters' maps. Any change to the map's tiles (a room made or cleared, another
/// map, a branch retired) counts as a new `version`, which drops them. Never saved and never
/// compared: two games equal in everything else are equal.
#[derive(Debug, Clone, Default)]
pub(crate) struct TurnCache {
    /// Counts the changes to the tiles of the avatar's map.
    pub(crate) version: u64,
    /// What the avatar sees, from the tile and version it was looked from.
    pub(crate) sight: Option<(Pos, u64, InSight)>,
    /// The monsters' maps, around the tile and at the version they were made for.
    pub(crate) maps: Option<(Pos, u64, Maps)>,
}

impl TurnCache {
    /// What the avatar sees from `at` now (the look that marks the memory computed it).
    pub(crate) fn saw(&mut self, at: Pos, sight: InSight) {
        self.sight = Some((at, self.version, sight));
    }

    /// The map's tiles may have changed: what was kept is dropped.
    pub(crate) fn changed(&mut self) {
        self.version += 1;
        self.sight = None;
        self.maps = None;
    }
}

impl PartialEq for TurnCache {
    fn eq(&self, _: &TurnCache) -> bool {
        true
    }
}

impl Eq for TurnCache {}
