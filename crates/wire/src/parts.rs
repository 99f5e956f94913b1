//! The pieces the state and the observation share: a tile as `[x, y]`, a chest or trap, a
//! monster, a world's rows, a map keyed by sides. Every object's keys are in alphabetical
//! order, as `serde_json` prints its maps, so each struct declares its fields that way.

use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

use byog_game::explore::Monster;
use byog_game::run::Feature;
use byog_tile_engine::{Direction, Pos, World};

/// A tile as the JSON writes it: `[x, y]`, in tiles, `x` to the right and `y` up.
pub fn xy(p: Pos) -> [i32; 2] {
    [p.x, p.y]
}

/// A chest or a trap: `{"kind", "state", "x", "y"}`, `kind` `"chest"` (`state` `"empty"`
/// or `"full"`) or `"trap"` (`"sprung"` or `"armed"`), at tile `[x, y]` of the world
/// printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FeatureJson {
    /// `"chest"` or `"trap"` ([`Feature::kind_name`]).
    pub kind: &'static str,
    /// `"empty"`/`"full"` for a chest, `"sprung"`/`"armed"` for a trap
    /// ([`Feature::state_name`]).
    pub state: &'static str,
    /// Its column, in tiles from the left.
    pub x: i32,
    /// Its row, in tiles from the bottom.
    pub y: i32,
}

impl FeatureJson {
    /// The JSON of `f`, at its own tile.
    pub fn of(f: &Feature) -> FeatureJson {
        FeatureJson {
            kind: f.kind_name(),
            state: f.state_name(),
            x: f.pos.x,
            y: f.pos.y,
        }
    }
}

/// A list of features written as [`FeatureJson`] objects, in their order (row by row from
/// the bottom), without copying them.
#[derive(Debug, Clone, Copy)]
pub struct FeaturesJson<'a>(pub &'a [Feature]);

impl Serialize for FeaturesJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(FeatureJson::of))
    }
}

/// A monster: `{"health", "id", "kind", "state", "x", "y"}`: health left, its id (monsters
/// act in id order), its kind (`"rat"` … `"troll"`), `"asleep"`, `"hunting"` or
/// `"fleeing"`, and its tile `[x, y]` in the world printed (`docs/monsters.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MonsterJson {
    /// Health left.
    pub health: u32,
    /// Its id.
    pub id: u32,
    /// Its kind's name ([`byog_game::explore::MonsterKind::name`]).
    pub kind: &'static str,
    /// Its state's name ([`byog_game::explore::MonsterState::as_str`]).
    pub state: &'static str,
    /// Its column, in tiles from the left of the world printed.
    pub x: i32,
    /// Its row, in tiles from the bottom.
    pub y: i32,
}

impl MonsterJson {
    /// The JSON of `m` standing at `pos` (a tile of the world printed, which may not be its
    /// dungeon tile `m.pos`).
    pub fn of(m: &Monster, pos: Pos) -> MonsterJson {
        MonsterJson {
            health: m.health,
            id: m.id,
            kind: m.kind.name(),
            state: m.state.as_str(),
            x: pos.x,
            y: pos.y,
        }
    }
}

/// Monsters already at the world's tiles, written as [`MonsterJson`] objects in their
/// order, without copying them.
#[derive(Debug, Clone, Copy)]
pub struct MonstersJson<'a>(pub &'a [Monster]);

impl Serialize for MonstersJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|m| MonsterJson::of(m, m.pos)))
    }
}

/// A world's rows as the JSON writes them: an array of strings, the top row first, each the
/// row's `width` characters ([`byog_tile_engine::Tile::character`]): the lines of the
/// world's `to_string`. Each row is built in one reused buffer.
#[derive(Debug, Clone, Copy)]
pub struct RowsJson<'a>(pub &'a World);

impl Serialize for RowsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        rows(self.0, serializer)
    }
}

/// Serialises `world`'s rows as [`RowsJson`] does (for `#[serde(serialize_with)]`).
///
/// # Errors
/// Those of `serializer`.
pub fn rows<S: Serializer>(world: &World, serializer: S) -> Result<S::Ok, S::Error> {
    let mut seq = serializer.serialize_seq(Some(world.height()))?;
    let mut line = String::with_capacity(world.width() * 3);
    for row in world.tiles().chunks(world.width().max(1)).rev() {
        line.clear();
        line.extend(row.iter().map(|t| t.character()));
        seq.serialize_element(line.as_str())?;
    }
    seq.end()
}

/// A map from sides to values, written as an object keyed by the sides' names
/// ([`Direction::name`]: `"up"`, `"right"`, `"down"`, `"left"`) in alphabetical order;
/// sides left out are not written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sides<T>(Vec<(Direction, T)>);

impl<T> Sides<T> {
    /// The map of `entries` (each side at most once), put in the names' order.
    pub fn new(entries: impl IntoIterator<Item = (Direction, T)>) -> Sides<T> {
        let mut entries: Vec<(Direction, T)> = entries.into_iter().collect();
        entries.sort_by_key(|(d, _)| d.name());
        Sides(entries)
    }

    /// The entries, in the names' alphabetical order.
    pub fn entries(&self) -> &[(Direction, T)] {
        &self.0
    }
}

impl<T: Serialize> Serialize for Sides<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(d, v)| (d.name(), v)))
    }
}
