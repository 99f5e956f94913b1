//! The game's state as `byog replay --format json` prints it (`docs/json.md`, "`replay
//! --format json`"): the whole map and every number, for tools and tests. [`State`] is the
//! object, one field a key; [`state_json`] writes it for an interpreter (the menu object
//! when no game was started or loaded).

use serde::Serialize;

use byog_game::GameState;
use byog_game::explore::{self, BranchId, Direction, ExploreState, Room};
use byog_game::interpreter::Interpreter;
use byog_tile_engine::{Pos, World};

use crate::MENU_JSON;
use crate::parts::{self, FeatureJson, MonsterJson, Sides, xy};

/// The JSON state of one game (classic, run or exploration), its fields in alphabetical
/// order (the keys of the object). Fields marked "run" or "explore" are there only in that
/// mode (`None` leaves them out); `Some(None)` writes `null`. Coordinates are `[x, y]` in
/// tiles of the world printed, `(0, 0)` its bottom-left tile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct State {
    /// Run: the floor's move allowance (its par × the depth's budget), in moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowance: Option<u64>,
    /// The avatar's tile.
    pub avatar: [i32; 2],
    /// Explore: the branch whose map the avatar is in; `Some(None)` in the start room.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<Option<BranchId>>,
    /// Explore: `--branch-timer`, in moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch_timer: Option<u64>,
    /// Explore: every branch made, by id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branches: Option<Vec<BranchJson>>,
    /// Explore: each side of the start room and the branch its door leads into now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<Sides<Option<BranchId>>>,
    /// Explore: the depth of the avatar's room, in rooms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Explore: `"banked"`, `"lost"`, or `Some(None)` while playing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<Option<&'static str>>,
    /// The exit door's tile (an exploration's way up).
    pub exit: [i32; 2],
    /// Run and explore: the chests and traps (of the floor; of the avatar's map).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub features: Option<Vec<FeatureJson>>,
    /// Run: the current floor, 1-based.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floor: Option<u32>,
    /// Run: floors in the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floors: Option<u32>,
    /// Explore: the points lost with the last heart (0 unless lost).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forfeited: Option<u64>,
    /// Run and explore: hearts left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub health: Option<u32>,
    /// The world's height, in tiles.
    pub height: usize,
    /// The canonical input string that makes this game from the menu.
    pub history: String,
    /// Explore: the kind of monster that took the last heart, or `Some(None)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub killed_by: Option<Option<&'static str>>,
    /// Run: why the run was lost ([`byog_game::run::Loss::reason`]), or `Some(None)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss: Option<Option<&'static str>>,
    /// Explore: `--max-unexplored`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unexplored: Option<u32>,
    /// `"classic"`, `"run"` or `"explore"` ([`byog_game::GameKind::name`]).
    pub mode: &'static str,
    /// Explore: the living monsters of the avatar's map, by id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monsters: Option<Vec<MonsterJson>>,
    /// Explore: whether new rooms get monsters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monsters_on: Option<bool>,
    /// Steps taken since the game started (in a run, over every floor).
    pub moves: u64,
    /// Run: moves left before the run is lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_left: Option<u64>,
    /// Explore: the dungeon tile of the world's `(0, 0)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<[i32; 2]>,
    /// Run: the solver's route on this floor, in moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub par: Option<u64>,
    /// Run: floors left with every feature handled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perfect_floors: Option<u32>,
    /// Explore: potions carried.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub potions: Option<u32>,
    /// Explore: the avatar's room `[rx, ry]`, in rooms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room: Option<[i32; 2]>,
    /// Explore: every room made, the start room first, then branch by branch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rooms: Option<Vec<RoomJson>>,
    /// The world, whole ([`GameState::world`]); written as its rows, top row first.
    #[serde(serialize_with = "parts::rows")]
    pub rows: World,
    /// Run and explore: points so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u64>,
    /// The seed typed after `N`, `R` or `E`.
    pub seed: u64,
    /// The world as seen ([`GameState::compose_seen`]; never-seen tiles blank), as rows.
    #[serde(serialize_with = "parts::rows")]
    pub seen: World,
    /// Explore: the side of a room's slot, in tiles (13).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot: Option<i32>,
    /// `"playing"`, `"won"` or `"lost"` ([`byog_game::game::LevelStatus::name`]).
    pub status: &'static str,
    /// The world's width, in tiles.
    pub width: usize,
}

/// A branch of an exploration: `{"entrance", "id", "made_at", "retired", "rooms",
/// "unexplored"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BranchJson {
    /// The side of the start room it was entered from.
    pub entrance: &'static str,
    /// Its id.
    pub id: BranchId,
    /// The move count when it was made.
    pub made_at: u64,
    /// Whether its timer ran out.
    pub retired: bool,
    /// How many rooms it has.
    pub rooms: usize,
    /// How many unexplored exits its rooms hold (locked ones included).
    pub unexplored: u32,
}

/// A room of an exploration: `{"back", "branch", "clear", "depth", "exits", "features",
/// "monsters", "pos"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoomJson {
    /// The side of its way back; `None` (`null`) for the start room.
    pub back: Option<&'static str>,
    /// Its branch; `None` (`null`) for the start room.
    pub branch: Option<BranchId>,
    /// Whether it is clear.
    pub clear: bool,
    /// Its depth, in rooms.
    pub depth: u32,
    /// Each side with an exit and how it shows: `"two-way"`, `"one-way"`, `"unexplored"` or
    /// `"locked"`.
    pub exits: Sides<&'static str>,
    /// Features still to handle.
    pub features: u32,
    /// Living monsters that call it home.
    pub monsters: u32,
    /// `[rx, ry]`, in rooms.
    pub pos: [i32; 2],
}

impl RoomJson {
    /// The JSON of `room` of `branch` (`None`: the start room), `monsters` living there.
    pub fn of(room: &Room, branch: Option<BranchId>, monsters: u32) -> RoomJson {
        RoomJson {
            back: room.back.map(Direction::name),
            branch,
            clear: room.clear,
            depth: room.depth,
            exits: Sides::new(
                Direction::ALL
                    .into_iter()
                    .filter_map(|d| room.exit_state(d).map(|s| (d, s.as_str()))),
            ),
            features: room.features,
            monsters,
            pos: [room.pos.x, room.pos.y],
        }
    }
}

impl State {
    /// The state of `game`: its world composed whole and as seen, and every number of its
    /// mode.
    pub fn of(game: &GameState) -> State {
        let world = game.world();
        let run = game.run();
        let e = game.explore();
        let features = (run.is_some() || e.is_some())
            .then(|| game.features().iter().map(FeatureJson::of).collect());
        let mut state = State {
            allowance: run.map(|r| r.info.allowance),
            avatar: xy(game.avatar()),
            branch: None,
            branch_timer: None,
            branches: None,
            current: None,
            depth: None,
            end: None,
            exit: xy(game.exit()),
            features,
            floor: run.map(|r| r.floor),
            floors: run.map(|r| r.floors),
            forfeited: None,
            health: run.map(|r| r.health).or(e.map(ExploreState::health)),
            height: world.height(),
            history: game.history(),
            killed_by: None,
            loss: run.map(|r| r.loss.map(|l| l.reason())),
            max_unexplored: None,
            mode: game.kind().name(),
            monsters: None,
            monsters_on: None,
            moves: game.moves(),
            moves_left: run.map(|r| r.moves_left),
            origin: None,
            par: run.map(|r| r.info.par),
            perfect_floors: run.map(|r| r.perfect_floors),
            potions: None,
            room: None,
            rooms: None,
            score: run.map(|r| r.score).or(e.map(ExploreState::score)),
            seed: game.seed(),
            seen: game.compose_seen(game.rect()),
            slot: None,
            status: game.status().name(),
            width: world.width(),
            rows: world,
        };
        if let Some(e) = e {
            state.add_exploration(game, e);
        }
        state
    }

    /// The fields an exploration adds.
    fn add_exploration(&mut self, game: &GameState, e: &ExploreState) {
        let d = e.dungeon();
        let enc = e.encounters();
        let mut rooms = vec![RoomJson::of(d.start(), None, 0)];
        let mut branches = Vec::with_capacity(d.branches().len());
        for b in d.branches() {
            rooms.extend(
                b.rooms()
                    .values()
                    .map(|r| RoomJson::of(r, Some(b.id()), enc.living_in(b.id(), r.pos))),
            );
            branches.push(BranchJson {
                entrance: b.entrance().name(),
                id: b.id(),
                made_at: b.made_at(),
                retired: b.retired(),
                rooms: b.rooms().len(),
                unexplored: b.unexplored(),
            });
        }
        let origin = game.origin();
        let room = e.room();
        self.branch = Some(e.branch());
        self.branch_timer = Some(d.settings().branch_timer);
        self.branches = Some(branches);
        self.current = Some(Sides::new(
            Direction::ALL.map(|dir| (dir, d.current_branch(dir))),
        ));
        self.depth = Some(explore::depth(room));
        self.end = Some(e.end().map(|end| end.name()));
        self.forfeited = Some(e.end().map_or(0, |end| end.forfeited()));
        self.killed_by = Some(e.killed_by().map(|k| k.name()));
        self.max_unexplored = Some(d.settings().max_unexplored);
        self.monsters = Some(
            e.monsters()
                .map(|m| MonsterJson::of(m, Pos::new(m.pos.x - origin.x, m.pos.y - origin.y)))
                .collect(),
        );
        self.monsters_on = Some(enc.enabled);
        self.origin = Some(xy(origin));
        self.potions = Some(enc.potions);
        self.room = Some([room.x, room.y]);
        self.rooms = Some(rooms);
        self.slot = Some(explore::PLOT);
    }

    /// The state as one line of JSON (no newline), as `byog replay --format json` prints
    /// it.
    pub fn to_json(&self) -> String {
        let mut out = Vec::with_capacity(self.rows.width() * self.rows.height() * 6 + 1024);
        self.write_json(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Appends [`State::to_json`] to `out` (no newline).
    pub fn write_json(&self, out: &mut Vec<u8>) {
        // Writing into memory cannot fail, and every key is a string.
        let _ = serde_json::to_writer(out, self);
    }
}

/// The JSON `byog replay --format json` prints for `interpreter` (without its newline): the
/// state of its game in play, or of the last one played; [`MENU_JSON`] when no game was
/// started or loaded.
pub fn state_json(interpreter: &Interpreter) -> String {
    match interpreter.game() {
        Some(game) => State::of(game).to_json(),
        None => MENU_JSON.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Observation;
    use byog_game::save::MemoryStore;
    use byog_worlds::generator::GeneratorSettings;

    /// Plays `keys` on a fresh 30 × 15 interpreter (runs of 2 floors).
    fn played(keys: &str) -> Interpreter {
        let mut it = Interpreter::new(30, 15, GeneratorSettings::default()).with_floors(2);
        let mut store = MemoryStore::default();
        for k in keys.chars() {
            let _ = it.feed(k, &mut store);
        }
        it
    }

    /// `s` printed again by `serde_json`'s own map (a `BTreeMap`: keys sorted) is `s`: every
    /// object's keys, nested ones too, are in alphabetical order and nothing else differs.
    fn assert_sorted(s: &str) {
        let value: serde_json::Value = serde_json::from_str(s).unwrap();
        assert_eq!(value.to_string(), s);
    }

    #[test]
    fn the_menu_is_one_object_with_or_without_sight() {
        let it = played("N42");
        assert!(it.game().is_none());
        assert_eq!(state_json(&it), MENU_JSON);
        assert_eq!(Observation::of(&it).to_json(), MENU_JSON);
        assert_sorted(MENU_JSON);
    }

    /// In every mode, playing, won and lost, with monsters, branches and rooms: the state
    /// and the observation are one line each, keys in alphabetical order, and the state's
    /// fields are the mode's (`docs/json.md`).
    #[test]
    fn every_object_has_its_keys_in_order_and_its_modes_fields() {
        let mut walk = String::new();
        let mut x = 7u64;
        for _ in 0..3000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            walk.push(['W', 'A', 'S', 'D', 'X', 'X'][(x >> 33) as usize % 6]);
        }
        let mut seen_modes = Vec::new();
        for start in ["N1S", "N2S", "R3S", "R4S", "E5S", "E6S"] {
            for cut in [0, 10, 300, 3000] {
                let it = played(&format!("{start}{}", &walk[..cut]));
                let game = it.game().unwrap();
                let state = state_json(&it);
                let sight = Observation::of(&it).to_json();
                assert_sorted(&state);
                assert_sorted(&sight);
                assert!(!state.contains('\n') && !sight.contains('\n'));
                let v: serde_json::Value = serde_json::from_str(&state).unwrap();
                assert_eq!(v["mode"], game.kind().name());
                assert_eq!(v["status"], game.status().name());
                assert_eq!(
                    v["rows"].as_array().unwrap().len(),
                    game.rect().height as usize
                );
                assert_eq!(
                    v["rows"][0].as_str().unwrap().chars().count(),
                    game.rect().width as usize
                );
                let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
                let n = match game.kind() {
                    byog_game::GameKind::Classic => 11,
                    byog_game::GameKind::Run => 21,
                    byog_game::GameKind::Exploration => 30,
                };
                assert_eq!(keys.len(), n, "{start}: {keys:?}");
                seen_modes.push((game.kind(), game.status()));
            }
        }
        let ended = seen_modes
            .iter()
            .filter(|(_, s)| *s != byog_game::LevelStatus::Playing)
            .count();
        assert!(ended > 0, "{seen_modes:?}");
    }
}
