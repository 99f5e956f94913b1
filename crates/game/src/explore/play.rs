//! An exploration in play (`docs/explore.md`): the room graph ([`Dungeon`]), the
//! avatar on the dungeon's tiles, which map it is in, its health and score. The rules
//! ([`crate::rules`]) move it; this module answers what stands where, paints tiles for
//! the compose step and keeps the memory of what was seen.
//!
//! **Maps.** Each branch is its own map: its rooms and the start room. The avatar stands in a
//! branch's map while in one of its rooms; in the start room it stands in the *hub*: the start
//! room and the first room of the branch each start exit leads into now (those four plots
//! never clash). The *frame* of a map is the rectangle of its plots, in dungeon tiles; the
//! compose step, `replay`'s text, the JSON and the front-ends see the map through it, with
//! the frame's bottom-left tile as `(0, 0)`.
//!
//! **Memory** is kept per room (a bit a plot tile), so what was seen of a room shows in every
//! map it belongs to. Nothing is sized by the unbounded grid: memory grows with rooms made.

use serde::{Deserialize, Serialize};

pub use super::cache::InSight;
use super::cache::TurnCache;
use super::monsters::{self, Encounters, Monster, MonsterState};
use super::plot::{self, MID, Memory, PLOT, WAY_UP};
use super::{BranchId, Dungeon, ExitState, ExploreSettings, Room, RoomPos, SettingsError};
use crate::run::{Feature, START_HEALTH};
use byog_tile_engine::fov::{self, Opacity};
use byog_tile_engine::{Direction, Pos, Rect, Tile};

/// The light radius in an exploration, in tiles (the same as in runs).
pub const SIGHT_RADIUS: u32 = crate::base::SIGHT_RADIUS;

/// The side of the square of tiles the field of view is computed over.
const PATCH: i32 = 2 * SIGHT_RADIUS as i32 + 1;

// Sight never reaches past the next plot, so what is seen lies in the 3 × 3 plots around the
// avatar's.
const _: () = assert!(SIGHT_RADIUS < PLOT as u32);

/// The clock of an exploration (`docs/explore.md`): every this many moves, the points
/// carried outside the start room lose [`DECAY_PERCENT`] percent of themselves. Staying
/// longer pays less and less: what is carried settles where its decay eats what is gathered.
pub const DECAY_EVERY: u64 = 20;

/// The percent of the points carried that each tick of the clock takes ([`DECAY_EVERY`]),
/// rounded up: about a half-life of 340 moves.
pub const DECAY_PERCENT: u64 = 4;

/// Whether the clock ticks on move `moves` (counted from the start; [`DECAY_EVERY`]).
pub fn decays_at(moves: u64) -> bool {
    moves > 0 && moves.is_multiple_of(DECAY_EVERY)
}

/// The points a tick of the clock takes from `score` carried: [`DECAY_PERCENT`] percent,
/// rounded up, so a few points carried long enough fade to none.
pub fn decay_loss(score: u64) -> u64 {
    (score.saturating_mul(DECAY_PERCENT)).div_ceil(100)
}

/// How an exploration ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExploreEnd {
    /// The avatar took the way up: the score is banked.
    Banked,
    /// Health reached 0: the score was lost with it (`forfeited` points).
    Lost {
        /// The points the avatar carried when it fell.
        forfeited: u64,
    },
}

impl ExploreEnd {
    /// Its name in the game's JSON: `"banked"` or `"lost"` (the `end` field,
    /// `docs/json.md`).
    pub const fn name(self) -> &'static str {
        match self {
            ExploreEnd::Banked => "banked",
            ExploreEnd::Lost { .. } => "lost",
        }
    }

    /// The points lost with the last heart: `forfeited` for [`ExploreEnd::Lost`], else 0
    /// (the JSON's `forfeited`).
    pub const fn forfeited(self) -> u64 {
        match self {
            ExploreEnd::Banked => 0,
            ExploreEnd::Lost { forfeited } => forfeited,
        }
    }
}

/// An exploration as saves store it (formats 3 on): [`ExploreState`] without its monsters,
/// field for field the bytes the exploration had before monsters existed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredExploration {
    pub(crate) dungeon: Dungeon,
    avatar: Pos,
    branch: Option<BranchId>,
    health: u32,
    score: u64,
    pub(crate) end: Option<ExploreEnd>,
}

/// An exploration: the dungeon, where the avatar stands and what it carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExploreState {
    dungeon: Dungeon,
    /// The avatar's tile, in dungeon tiles (plot `(rx, ry)` covers `rx·PLOT..` × `ry·PLOT..`).
    avatar: Pos,
    /// The branch whose map the avatar is in; `None` in the start room (the hub).
    branch: Option<BranchId>,
    health: u32,
    score: u64,
    end: Option<ExploreEnd>,
    /// The monsters and the potions (saves from format 6 on).
    encounters: Encounters,
    /// What the monsters' turn keeps between turns while the avatar's map and tile stay
    /// the same ([`super::turn`]); never saved, never compared.
    #[serde(skip)]
    pub(crate) cache: TurnCache,
}

impl ExploreState {
    /// The exploration `E<seed>S` starts: the start room alone, the avatar on its centre,
    /// full health ([`START_HEALTH`]), no score.
    ///
    /// # Errors
    /// [`SettingsError`] for settings a dungeon cannot be made with.
    pub fn new(seed: u64, settings: ExploreSettings) -> Result<ExploreState, SettingsError> {
        let mut state = ExploreState {
            dungeon: Dungeon::new(seed, settings)?,
            avatar: Pos::new(MID, MID),
            branch: None,
            health: START_HEALTH,
            score: 0,
            end: None,
            encounters: Encounters::new(settings.monsters),
            cache: Default::default(),
        };
        state.look();
        Ok(state)
    }

    /// The exploration as saves store it: everything but the monsters (the bytes of
    /// formats 3 to 5), and the monsters apart.
    pub(crate) fn split(self) -> (StoredExploration, Encounters) {
        (
            StoredExploration {
                dungeon: self.dungeon,
                avatar: self.avatar,
                branch: self.branch,
                health: self.health,
                score: self.score,
                end: self.end,
            },
            self.encounters,
        )
    }

    /// An exploration from what a save holds: `encounters` is [`Encounters::off`] for a
    /// save written before monsters (formats 3 to 5), which plays on without them.
    pub(crate) fn join(stored: StoredExploration, encounters: Encounters) -> ExploreState {
        let mut dungeon = stored.dungeon;
        dungeon.set_monsters(encounters.enabled);
        ExploreState {
            dungeon,
            avatar: stored.avatar,
            branch: stored.branch,
            health: stored.health,
            score: stored.score,
            end: stored.end,
            encounters,
            cache: Default::default(),
        }
    }

    /// The monsters and the potions.
    pub fn encounters(&self) -> &Encounters {
        &self.encounters
    }

    /// The monsters and the potions, to change (the rules' and [`super::turn`]'s side).
    pub(crate) fn encounters_mut(&mut self) -> &mut Encounters {
        &mut self.encounters
    }

    /// Potions carried (0..=3).
    pub fn potions(&self) -> u32 {
        self.encounters.potions
    }

    /// What killed the avatar, once something did.
    pub fn killed_by(&self) -> Option<monsters::MonsterKind> {
        self.encounters.killed_by
    }

    /// The living monsters of the avatar's map (its branch's; in the start room, those
    /// standing in the first rooms it shows), by id, at their dungeon tiles.
    pub fn monsters(&self) -> impl Iterator<Item = &Monster> {
        self.encounters
            .monsters
            .iter()
            .filter(move |m| self.in_view_map(m))
    }

    /// Whether monster `m` stands in the avatar's map.
    pub(crate) fn in_view_map(&self, m: &Monster) -> bool {
        match self.branch {
            Some(b) => m.branch == b,
            None => self.view_branch(plot::plot_of(m.pos)) == Some(m.branch),
        }
    }

    /// The monster of the avatar's map at dungeon tile `p`, if any.
    pub fn monster_at(&self, p: Pos) -> Option<&Monster> {
        self.monsters().find(|m| m.pos == p)
    }

    /// Adds hunting monsters of `kinds` at dungeon tiles of the avatar's branch (a scenario
    /// for benchmarks, tests and tools: a fight set up by hand). Each one's home is the room
    /// it stands in, which is then not clear; monsters are switched on.
    ///
    /// # Errors
    /// A sentence naming the first monster that cannot stand where asked (no branch: the
    /// avatar is in the start room; off a room's floor; on another monster or the avatar);
    /// nothing is changed then.
    pub fn add_monsters(
        &mut self,
        monsters: &[(Pos, monsters::MonsterKind)],
    ) -> Result<(), String> {
        let Some(branch) = self.branch else {
            return Err("monsters are added to the avatar's branch: leave the start room".into());
        };
        let before = (self.encounters.clone(), self.dungeon.clone());
        self.cache.changed();
        self.encounters.enabled = true;
        self.dungeon.set_monsters(true);
        for &(pos, kind) in monsters {
            let id = self.encounters.next_id;
            self.encounters.next_id += 1;
            let home = plot::plot_of(pos);
            if let Some(room) = self.dungeon.room_mut(branch, home) {
                room.clear = false;
            }
            self.encounters.monsters.push(Monster {
                id,
                kind,
                branch,
                home,
                pos,
                health: kind.stats().health,
                state: MonsterState::Hunting,
            });
        }
        if let Err(e) = self.check_monsters() {
            (self.encounters, self.dungeon) = before;
            return Err(e);
        }
        Ok(())
    }

    /// Settles room `pos` of branch `branch` ([`Room::settle`], with the monsters that still
    /// hold it): whether it became clear now. The start room (`None`) is always clear.
    pub(crate) fn settle_room(&mut self, branch: Option<BranchId>, pos: RoomPos) -> bool {
        let Some(branch) = branch else {
            return false;
        };
        let left = self.encounters.living_in(branch, pos);
        let cleared = self
            .dungeon
            .room_mut(branch, pos)
            .is_some_and(|room| room.settle(left));
        if cleared {
            // Its exits open: the map's tiles changed.
            self.cache.changed();
        }
        cleared
    }

    /// Runs the branch timer at move `now_moves` ([`Dungeon::advance`]); a branch retired
    /// changes the start room's exits.
    pub(crate) fn advance(&mut self, now_moves: u64) {
        let before = (0..4).map(|i| self.dungeon.current_branch(Direction::ALL[i]));
        let before: Vec<Option<BranchId>> = before.collect();
        self.dungeon.advance(now_moves);
        if Direction::ALL
            .into_iter()
            .zip(before)
            .any(|(d, b)| self.dungeon.current_branch(d) != b)
        {
            self.cache.changed();
        }
    }

    /// Places the monsters of room `pos` of branch `branch`, just made
    /// ([`monsters::place`]); a room that gets any is not clear until they are gone.
    pub(crate) fn populate(&mut self, branch: BranchId, pos: RoomPos) {
        if !self.encounters.enabled || pos.is_start() {
            return;
        }
        let seed = self.dungeon.seed();
        let Some(room) = self.dungeon.room_mut(branch, pos) else {
            return;
        };
        let placed = monsters::place(seed, branch, pos, room.shape, &room.items);
        if placed.is_empty() {
            return;
        }
        room.clear = false;
        for (at, kind) in placed {
            let id = self.encounters.next_id;
            self.encounters.next_id += 1;
            self.encounters.monsters.push(Monster {
                id,
                kind,
                branch,
                home: pos,
                pos: plot::tile_of(pos, at.x, at.y),
                health: kind.stats().health,
                state: MonsterState::Asleep,
            });
        }
    }

    /// What the avatar sees now: the same field of view that marks the memory, over the
    /// light radius' square around it.
    pub fn sight(&self) -> InSight {
        let r = SIGHT_RADIUS as i32;
        let origin = Pos::new(self.avatar.x - r, self.avatar.y - r);
        InSight::new(origin, fov::lit_in(&self.opacity(origin)))
    }

    /// Whether dungeon tile `p` is in the avatar's sight now.
    pub fn in_sight(&self, p: Pos) -> bool {
        let r = SIGHT_RADIUS as i32;
        if (p.x - self.avatar.x).abs() > r || (p.y - self.avatar.y).abs() > r {
            return false;
        }
        self.sight().contains(p)
    }

    /// Every feature of every room, in the order saves store their bits
    /// ([`Dungeon::items_mut`]).
    pub(crate) fn items_mut(&mut self) -> impl Iterator<Item = &mut Feature> {
        self.dungeon.items_mut()
    }

    /// The room graph.
    pub fn dungeon(&self) -> &Dungeon {
        &self.dungeon
    }

    /// The avatar's tile, in dungeon tiles.
    pub fn avatar(&self) -> Pos {
        self.avatar
    }

    /// The plot of the room the avatar stands in.
    pub fn room(&self) -> RoomPos {
        plot::plot_of(self.avatar)
    }

    /// The branch whose map the avatar is in; `None` in the start room.
    pub fn branch(&self) -> Option<BranchId> {
        self.branch
    }

    /// Health left (3 at the start; 0 loses the exploration).
    pub fn health(&self) -> u32 {
        self.health
    }

    /// Points carried (banked by the way up; lost at 0 health, when this reads 0).
    pub fn score(&self) -> u64 {
        self.score
    }

    /// How it ended, once it has.
    pub fn end(&self) -> Option<ExploreEnd> {
        self.end
    }

    /// The way up, in dungeon tiles (in the start room).
    pub fn way_up(&self) -> Pos {
        plot::tile_of(RoomPos::START, WAY_UP.x, WAY_UP.y)
    }

    /// The rectangle of the avatar's map, in dungeon tiles: the plots of its branch's rooms
    /// and the start room, or the hub's 3 × 3 plots.
    pub fn frame(&self) -> Rect {
        let (x0, y0, x1, y1) = match self.branch.and_then(|b| self.dungeon.branch(b)) {
            Some(b) => b.bounds(),
            None => (-1, -1, 1, 1),
        };
        Rect::new(
            x0 * PLOT,
            y0 * PLOT,
            (x1 - x0 + 1) * PLOT,
            (y1 - y0 + 1) * PLOT,
        )
    }

    /// The room at `plot` in the avatar's map, with its branch (`None` for the start room).
    pub fn view_room(&self, plot: RoomPos) -> Option<(&Room, Option<BranchId>)> {
        if plot.is_start() {
            return Some((self.dungeon.start(), None));
        }
        let branch = self.view_branch(plot)?;
        Some((self.dungeon.branch(branch)?.room(plot)?, Some(branch)))
    }

    /// Whether plot `plot` has anything to show in the avatar's map: a room of the map, or a
    /// side of the start room (a step through the start room's exit there enters the room
    /// of that side's current branch, made then if need be). Any other plot stays blank in
    /// this map whatever the avatar does in it: a branch's plots outside its rooms, or the
    /// hub's corners.
    pub fn map_reaches(&self, plot: RoomPos) -> bool {
        self.view_room(plot).is_some() || plot.beside_start().is_some()
    }

    /// The branch whose room at `plot` (not the start) belongs to the avatar's map.
    fn view_branch(&self, plot: RoomPos) -> Option<BranchId> {
        match self.branch {
            Some(b) => Some(b),
            None => plot
                .beside_start()
                .and_then(|d| self.dungeon.current_branch(d)),
        }
    }

    /// The room at `plot` in the avatar's map, to change.
    pub(crate) fn view_room_mut(&mut self, plot: RoomPos) -> Option<&mut Room> {
        let branch = if plot.is_start() {
            0
        } else {
            self.view_branch(plot)?
        };
        self.dungeon.room_mut(branch, plot)
    }

    /// How room `room`'s exit on side `dir` is drawn on its edge tile, if it is drawn: an
    /// unexplored exit, a locked door or a one-way arrow; a two-way exit is plain floor.
    fn exit_tile(room: &Room, dir: Direction) -> Option<Tile> {
        match room.exit_state(dir)? {
            ExitState::TwoWay => None,
            ExitState::OneWay => Some(plot::one_way_tile(dir)),
            ExitState::Unexplored => Some(Tile::ExitUnexplored),
            ExitState::Locked => Some(Tile::LockedDoor),
        }
    }

    /// Paints the avatar's map over `area` (dungeon tiles): `paint(pos, tile)` for every tile
    /// of a room of the map inside the area, its terrain first, then its exits, features and
    /// (in the start room) the way up over it. Tiles of empty plots are not painted. Costs
    /// the area, plus a room lookup a plot.
    pub fn paint(&self, area: Rect, paint: &mut impl FnMut(Pos, Tile)) {
        for (at, room) in self.rooms_over(area) {
            Self::paint_room(room, at, area, paint);
        }
        let up = self.way_up();
        if area.contains(up) {
            paint(up, Tile::WayUp);
        }
    }

    /// The rooms of the avatar's map whose plots meet `area` (dungeon tiles), with their
    /// plots, row by row from the bottom: one room lookup a plot.
    fn rooms_over(&self, area: Rect) -> impl Iterator<Item = (RoomPos, &Room)> {
        let low = plot::plot_of(Pos::new(area.x, area.y));
        let high = plot::plot_of(Pos::new(area.right() - 1, area.top() - 1));
        let plots = if area.is_empty() {
            Rect::default()
        } else {
            Rect::new(low.x, low.y, high.x - low.x + 1, high.y - low.y + 1)
        };
        plots.positions().filter_map(move |p| {
            let at = RoomPos::new(p.x, p.y);
            self.view_room(at).map(|(room, _)| (at, room))
        })
    }

    fn paint_room(room: &Room, at: RoomPos, area: Rect, paint: &mut impl FnMut(Pos, Tile)) {
        let slot_rect = Rect::new(at.x * PLOT, at.y * PLOT, PLOT, PLOT);
        let part = slot_rect.intersection(&area);
        for p in part.positions() {
            paint(p, room.shape.tile(p.x - slot_rect.x, p.y - slot_rect.y));
        }
        Self::paint_things(room, at, part, paint);
    }

    /// A room's exits and features over `part` of its plot.
    fn paint_things(room: &Room, at: RoomPos, part: Rect, paint: &mut impl FnMut(Pos, Tile)) {
        for dir in Direction::ALL {
            if let Some(tile) = Self::exit_tile(room, dir) {
                let (ex, ey) = plot::edge(dir);
                let p = plot::tile_of(at, ex, ey);
                if part.contains(p) {
                    paint(p, tile);
                }
            }
        }
        for f in &room.items {
            let p = plot::tile_of(at, f.pos.x, f.pos.y);
            if part.contains(p) {
                paint(p, f.tile());
            }
        }
    }

    /// [`ExploreState::paint`] into a grid: `out` holds `area`'s tiles (dungeon tiles),
    /// row-major from its bottom row, and is written where the map has rooms (the rest is
    /// left as it was). Terrain is filled a rectangle at a time: what the compose step and
    /// sight use, costing the area and a room lookup a plot.
    pub fn paint_into(&self, area: Rect, out: &mut [Tile]) {
        debug_assert_eq!(out.len() as u64, area.area());
        if area.is_empty() {
            return;
        }
        let index = |p: Pos| ((p.y - area.y) * area.width + (p.x - area.x)) as usize;
        for (at, room) in self.rooms_over(area) {
            let corner = plot::tile_of(at, 0, 0);
            room.shape.fill(corner, area, out);
            let part = Rect::new(corner.x, corner.y, PLOT, PLOT).intersection(&area);
            Self::paint_things(room, at, part, &mut |p, t| out[index(p)] = t);
        }
        let up = self.way_up();
        if area.contains(up) {
            out[index(up)] = Tile::WayUp;
        }
    }

    /// Which tiles of `area` (dungeon tiles) of the avatar's map were ever seen, into `out`
    /// (`area`'s tiles row-major from its bottom row; tiles of empty plots are left as they
    /// were): what travel plans over (`crate::travel`), at a room lookup a plot rather
    /// than a tile.
    pub fn seen_into(&self, area: Rect, out: &mut [bool]) {
        debug_assert_eq!(out.len() as u64, area.area());
        if area.is_empty() {
            return;
        }
        let w = area.width as usize;
        for (at, room) in self.rooms_over(area) {
            let corner = plot::tile_of(at, 0, 0);
            let part = Rect::new(corner.x, corner.y, PLOT, PLOT).intersection(&area);
            for y in part.y..part.top() {
                let row = (y - area.y) as usize * w;
                for x in part.x..part.right() {
                    out[row + (x - area.x) as usize] =
                        room.memory.has_seen(x - corner.x, y - corner.y);
                }
            }
        }
    }

    /// The chests and traps of the avatar's map's rooms, at their dungeon tiles, row by row
    /// from the bottom.
    pub fn features(&self) -> Vec<Feature> {
        let mut out: Vec<Feature> = self
            .rooms_over(self.frame())
            .flat_map(|(at, room)| {
                room.items.iter().map(move |f| Feature {
                    pos: plot::tile_of(at, f.pos.x, f.pos.y),
                    ..*f
                })
            })
            .collect();
        out.sort_by_key(|f| (f.pos.y, f.pos.x));
        out
    }

    /// What stands at dungeon tile `p` in the avatar's map, the avatar left out: NOTHING on
    /// an empty plot.
    pub fn tile_at(&self, p: Pos) -> Tile {
        if p == self.way_up() {
            return Tile::WayUp;
        }
        let at = plot::plot_of(p);
        let Some((room, _)) = self.view_room(at) else {
            return Tile::Nothing;
        };
        let (tx, ty) = plot::in_plot(p);
        if let Some(f) = room.items.iter().find(|f| (f.pos.x, f.pos.y) == (tx, ty)) {
            return f.tile();
        }
        Direction::ALL
            .into_iter()
            .find(|&d| plot::edge(d) == (tx, ty))
            .and_then(|d| Self::exit_tile(room, d))
            .unwrap_or_else(|| room.shape.tile(tx, ty))
    }

    /// Whether dungeon tile `p` of the avatar's map was ever seen.
    pub fn has_seen(&self, p: Pos) -> bool {
        let (tx, ty) = plot::in_plot(p);
        self.view_room(plot::plot_of(p))
            .is_some_and(|(room, _)| room.memory.has_seen(tx, ty))
    }

    /// The feature at dungeon tile `p` of the avatar's map, with its room's plot, to change.
    pub(crate) fn feature_mut(&mut self, p: Pos) -> Option<&mut Feature> {
        let (tx, ty) = plot::in_plot(p);
        let room = self.view_room_mut(plot::plot_of(p))?;
        room.items
            .iter_mut()
            .find(|f| f.pos.x == tx && f.pos.y == ty)
    }

    /// Marks what the avatar sees as seen, the first time it stands on its tile (sight
    /// from a tile changes only when an exit opens or a room is made, which the avatar sees
    /// again from the next tile it stands on).
    pub(crate) fn look(&mut self) {
        self.look_if(false);
    }

    /// As [`ExploreState::look`], but looks even from a tile stood on before when `changed`
    /// (a room was just made or cleared: what is in sight from here changed).
    pub(crate) fn look_if(&mut self, changed: bool) {
        let at = self.avatar;
        let (tx, ty) = plot::in_plot(at);
        let Some(room) = self.view_room_mut(plot::plot_of(at)) else {
            return;
        };
        if room.memory.visit(tx, ty) || changed {
            self.look_around();
        }
    }

    /// What blocks sight in the light radius' square whose bottom-left tile is `origin`:
    /// empty plots and walls do, the rooms' floors do not, and their exits, features and the
    /// way up as their tiles say (what `paint_into` paints, as sight sees it; monsters do not
    /// block sight).
    fn opacity(&self, origin: Pos) -> Opacity {
        let area = Rect::new(origin.x, origin.y, PATCH, PATCH);
        let mut patch = Opacity::opaque(SIGHT_RADIUS);
        let mark = |patch: &mut Opacity, p: Pos, t: Tile| {
            let (i, j) = ((p.x - origin.x) as usize, (p.y - origin.y) as usize);
            patch.set_run(j, i, i + 1, t.blocks_sight());
        };
        for (at, room) in self.rooms_over(area) {
            let corner = plot::tile_of(at, 0, 0);
            room.shape.light_floor(corner, area, &mut patch);
            let part = Rect::new(corner.x, corner.y, PLOT, PLOT).intersection(&area);
            Self::paint_things(room, at, part, &mut |p, t| mark(&mut patch, p, t));
        }
        let up = self.way_up();
        if area.contains(up) {
            mark(&mut patch, up, Tile::WayUp);
        }
        patch
    }

    /// Looks from where the avatar stands and marks what it sees.
    fn look_around(&mut self) {
        let r = SIGHT_RADIUS as i32;
        let origin = Pos::new(self.avatar.x - r, self.avatar.y - r);
        let patch = self.opacity(origin);
        // Lit tiles lie at most one plot from the avatar's (the radius is under a plot): they
        // are gathered a plot's memory at a time, a run of a row at a time, then each of those
        // 3 × 3 plots' rooms is looked up once, not once a tile.
        let lit_rows = fov::lit_in(&patch);
        // The monsters' turn wakes what the avatar sees from here: the same field of view.
        self.cache.saw(self.avatar, InSight::new(origin, lit_rows));
        let home = plot::plot_of(self.avatar);
        let mut lit = [Memory::default(); 9];
        // The patch's columns cut at the plots' borders: where each part starts in the
        // patch, its plot (0..3 from the one left of the avatar's), its first tile in the plot
        // and its length.
        let mut parts = [(0usize, 0usize, 0i32, 0usize); 3];
        let mut count = 0;
        let mut column = 0;
        while column < PATCH {
            let x = origin.x + column;
            let tx = x.rem_euclid(PLOT);
            let len = (PLOT - tx).min(PATCH - column);
            let sx = (x.div_euclid(PLOT) - home.x + 1) as usize;
            parts[count] = (column as usize, sx, tx, len as usize);
            count += 1;
            column += len;
        }
        for (j, &row) in lit_rows.iter().enumerate().take(PATCH as usize) {
            if row == 0 {
                continue;
            }
            let y = origin.y + j as i32;
            let (sy, ty) = (
                (y.div_euclid(PLOT) - home.y + 1) as usize,
                y.rem_euclid(PLOT),
            );
            for &(start, sx, tx, len) in &parts[..count] {
                let bits = (row >> start) & (u32::MAX >> (32 - len));
                if bits != 0 {
                    lit[sy * 3 + sx].see_run(tx, ty, bits);
                }
            }
        }
        for (k, seen) in lit.iter().enumerate() {
            if seen.seen == [0; 3] {
                continue;
            }
            let at = RoomPos::new(home.x + k as i32 % 3 - 1, home.y + k as i32 / 3 - 1);
            if let Some(room) = self.view_room_mut(at) {
                room.memory.see_all(seen);
            }
        }
    }

    /// Checks a loaded save's monster counts: monsters are placed only when their room is
    /// made, at most the depth table's `monsters_most` for its depth (a table that has only
    /// grown since saves held monsters, so an older save meets it too), and each keeps the
    /// room it was placed in as its home. Not part of [`ExploreState::add_monsters`]'s
    /// check: a test or a benchmark sets fights up by hand.
    fn check_monster_counts(&self) -> Result<(), String> {
        let e = &self.encounters;
        let bad = |what: &str| Err(format!("the exploration's monsters are damaged: {what}"));
        for b in self.dungeon.branches() {
            for (pos, room) in b.rooms() {
                let most = super::depth_row(room.depth).monsters_most as usize;
                let placed = e
                    .monsters
                    .iter()
                    .filter(|m| m.branch == b.id() && m.home == *pos)
                    .count();
                if placed > most {
                    return bad(&format!(
                        "room {pos} of branch {} is home to {placed} monsters, where its \
                         depth's table allows {most}",
                        b.id()
                    ));
                }
            }
        }
        Ok(())
    }

    /// Checks a loaded save's monsters: ids in order and below the next id, each on a floor
    /// tile of a room of its branch (never the start room) with health, none sharing a tile
    /// or standing on the avatar, at most three potions, and every room that is not clear
    /// holding a feature or a monster.
    fn check_monsters(&self) -> Result<(), String> {
        let e = &self.encounters;
        let bad = |what: &str| Err(format!("the exploration's monsters are damaged: {what}"));
        if e.potions > monsters::MAX_POTIONS_SAVED {
            return bad("more than 3 potions");
        }
        if let Some(m) = e.monsters.iter().find(|m| {
            self.dungeon
                .branch(m.branch)
                .is_none_or(|b| b.room(m.home).is_none())
        }) {
            return bad(&format!("monster {} has no room for a home", m.id));
        }
        let mut last = None;
        for m in &e.monsters {
            if last.is_some_and(|l| l >= m.id) || m.id >= e.next_id {
                return bad("ids out of order");
            }
            last = Some(m.id);
            let at = plot::plot_of(m.pos);
            let (tx, ty) = plot::in_plot(m.pos);
            let room = self.dungeon.branch(m.branch).and_then(|b| b.room(at));
            let on_floor = room.is_some_and(|r| r.shape.tile(tx, ty) == Tile::Floor);
            if at.is_start() || !on_floor || m.health == 0 || m.health > m.kind.stats().health {
                return bad(&format!("monster {} stands nowhere it can", m.id));
            }
            if e.monsters
                .iter()
                .any(|o| o.id != m.id && o.pos == m.pos && o.branch == m.branch)
                || (self.in_view_map(m) && m.pos == self.avatar)
            {
                return bad(&format!("monster {} shares its tile", m.id));
            }
        }
        for b in self.dungeon.branches() {
            for (pos, room) in b.rooms() {
                if !room.clear && room.features == 0 && e.living_in(b.id(), *pos) == 0 {
                    return bad(&format!(
                        "room {pos} of branch {} waits for nothing",
                        b.id()
                    ));
                }
            }
        }
        Ok(())
    }

    // The rules' side (crate::rules) --------------------------------------------

    /// Moves the avatar to dungeon tile `to` of the map of `branch` (`None`: the hub).
    pub(crate) fn place(&mut self, to: Pos, branch: Option<BranchId>) {
        if branch != self.branch || plot::plot_of(to) != plot::plot_of(self.avatar) {
            // Another room, maybe another map (or a room just made).
            self.cache.changed();
        }
        self.avatar = to;
        self.branch = branch;
    }

    /// The clock at move `moves` (`docs/explore.md`, "The clock"): on every
    /// [`DECAY_EVERY`]-th move, with the avatar outside the start room, the points carried
    /// lose [`DECAY_PERCENT`] percent of themselves, rounded up ([`decay_loss`]).
    pub(crate) fn decay(&mut self, moves: u64) {
        if self.end.is_none() && decays_at(moves) && !self.room().is_start() {
            self.score -= decay_loss(self.score);
        }
    }

    /// Moves until the points carried next lose [`DECAY_PERCENT`] percent (1 to
    /// [`DECAY_EVERY`]; they do only if the avatar is then outside the start room), after
    /// `moves` moves: for the HUD.
    pub fn decays_in(moves: u64) -> u64 {
        DECAY_EVERY - moves % DECAY_EVERY
    }

    /// The room graph, to walk.
    pub(crate) fn dungeon_mut(&mut self) -> &mut Dungeon {
        &mut self.dungeon
    }

    /// Health, to lose.
    pub(crate) fn health_mut(&mut self) -> &mut u32 {
        &mut self.health
    }

    /// The score, to add to.
    pub(crate) fn score_mut(&mut self) -> &mut u64 {
        &mut self.score
    }

    /// Ends the exploration: banked by the way up (health restored), or lost (the score
    /// goes with it).
    pub(crate) fn finish(&mut self, end: ExploreEnd) {
        match end {
            ExploreEnd::Lost { .. } => self.score = 0,
            ExploreEnd::Banked => self.health = self.health.max(START_HEALTH),
        }
        self.end = Some(end);
    }

    /// Checks what a loaded save holds beyond its types: the avatar on a walkable tile of
    /// a room of its map, health and the end agreeing, every room's shape and memory valid.
    pub fn check(&self) -> Result<(), String> {
        if self
            .branch
            .is_some_and(|b| self.dungeon.branch(b).is_none())
        {
            return Err("the exploration's avatar is in a branch that does not exist".into());
        }
        if self.view_room(self.room()).is_none() {
            return Err(format!(
                "the exploration's avatar stands in room {} that was never made",
                self.room()
            ));
        }
        if !self.tile_at(self.avatar).is_walkable() {
            return Err("the exploration's avatar does not stand on floor".into());
        }
        if (self.health == 0) != matches!(self.end, Some(ExploreEnd::Lost { .. })) {
            return Err("the exploration's health and its end disagree".into());
        }
        let rooms = std::iter::once(self.dungeon.start()).chain(
            self.dungeon
                .branches()
                .iter()
                .flat_map(|b| b.rooms().values()),
        );
        for room in rooms {
            if !room.shape.is_valid() || !room.memory.is_valid() {
                return Err(format!("room {} of the exploration is damaged", room.pos));
            }
            for f in &room.items {
                if !room.shape.is_room_floor(f.pos.x, f.pos.y) {
                    return Err(format!("a feature of room {} is off its floor", room.pos));
                }
            }
        }
        self.check_monster_counts()?;
        self.check_monsters()?;
        self.dungeon.check()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An exploration of seed 3 without monsters, the avatar walked `steps` up from the
    /// centre of the start room (13: the middle of the room above), carrying `score`.
    fn carrying(steps: usize, score: u64) -> crate::game::GameState {
        let quiet = ExploreSettings {
            monsters: false,
            ..ExploreSettings::default()
        };
        let mut game = crate::game::GameState::new_exploration(
            3,
            byog_worlds::generator::GeneratorSettings::default(),
            quiet,
        )
        .unwrap();
        for _ in 0..steps {
            game.apply(crate::action::Action::Move(Direction::Up));
        }
        game.explore_mut().unwrap().score = score;
        game
    }

    #[test]
    fn points_carried_outside_the_start_room_fade_on_the_clock() {
        let mut game = carrying(13, 1000);
        assert!(!game.explore().unwrap().room().is_start());
        let wait = |g: &mut crate::game::GameState| {
            g.apply(crate::action::Action::Wait);
        };
        while !(game.moves() + 1).is_multiple_of(DECAY_EVERY) {
            wait(&mut game);
            assert_eq!(game.explore().unwrap().score(), 1000, "no tick yet");
        }
        wait(&mut game);
        // 4% of 1,000, on the 20th move.
        assert_eq!(game.explore().unwrap().score(), 960);
        for _ in 0..DECAY_EVERY {
            wait(&mut game);
        }
        // 4% of 960 is 38.4, rounded up.
        assert_eq!(game.explore().unwrap().score(), 921);
        // Three points carried long enough fade to none (each tick takes at least one).
        let mut game = carrying(13, 3);
        for _ in 0..3 * DECAY_EVERY {
            wait(&mut game);
        }
        assert_eq!(game.explore().unwrap().score(), 0);
    }

    #[test]
    fn points_carried_in_the_start_room_keep() {
        let mut game = carrying(0, 1000);
        assert!(game.explore().unwrap().room().is_start());
        for _ in 0..3 * DECAY_EVERY {
            game.apply(crate::action::Action::Wait);
        }
        assert_eq!(game.explore().unwrap().score(), 1000);
    }

    #[test]
    fn a_save_whose_room_is_home_to_more_monsters_than_its_table_allows_is_refused() {
        // `E42S…`: a hunting rat in the avatar's room (tests/travel.rs has the same keys).
        let keys = "E42SWWWWWWWWWWWWWAAAAAAAAAAAAAWWWWWWWWWSSSSSSSSSSSSSSSSSSSSD.";
        let mut it = crate::interpreter::Interpreter::new(
            80,
            30,
            byog_worlds::generator::GeneratorSettings::default(),
        );
        let mut store = crate::save::MemoryStore::default();
        crate::replay::replay(&mut it, keys, &mut store, true, &mut |_| ()).unwrap();
        let mut game = it.into_game().unwrap();
        let e = game.explore_mut().unwrap();
        assert_eq!(e.check(), Ok(()));
        let rat = e.encounters.monsters[0];
        let room = e
            .dungeon
            .branch(rat.branch)
            .unwrap()
            .room(rat.home)
            .unwrap();
        let most = super::super::depth_row(room.depth).monsters_most as usize;
        let homed = |e: &ExploreState| {
            e.encounters
                .monsters
                .iter()
                .filter(|m| m.branch == rat.branch && m.home == rat.home)
                .count()
        };
        let push = |e: &mut ExploreState| {
            let id = e.encounters.next_id;
            e.encounters.next_id += 1;
            e.encounters.monsters.push(Monster { id, ..rat });
        };
        // Up to the table's most (standing on the rat's tile, which is refused for that),
        // then one more: refused for the count, naming the room.
        while homed(e) < most {
            push(e);
            let checked = e.check();
            assert!(
                checked.as_ref().is_err_and(|m| !m.contains("is home to")),
                "{checked:?}"
            );
        }
        push(e);
        let message = e.check().unwrap_err();
        assert!(
            message.contains(&format!("is home to {} monsters", most + 1)),
            "{message}"
        );
    }

    #[test]
    fn the_start_is_the_hub_with_the_way_up() {
        let e = ExploreState::new(1, ExploreSettings::default()).unwrap();
        assert_eq!(e.room(), RoomPos::START);
        assert_eq!(e.branch(), None);
        assert_eq!(e.frame(), Rect::new(-PLOT, -PLOT, 3 * PLOT, 3 * PLOT));
        assert_eq!(e.tile_at(e.way_up()), Tile::WayUp);
        assert_eq!(e.tile_at(e.avatar()), Tile::Floor);
        for d in Direction::ALL {
            let (ex, ey) = plot::edge(d);
            assert_eq!(
                e.tile_at(plot::tile_of(RoomPos::START, ex, ey)),
                Tile::ExitUnexplored
            );
        }
        // The avatar saw the start room's floor from the centre, but not past its doors.
        assert!(e.has_seen(Pos::new(MID - 3, MID - 3)));
        assert!(!e.has_seen(Pos::new(MID, PLOT + 2)));
    }
}
