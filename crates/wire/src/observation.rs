//! What the player sees (`docs/json.md`, "`replay --format json --view sight`";
//! `docs/agent.md`): an [`Observation`] of a game, typed, and its JSON. `byog replay
//! --format json --view sight`, `byog agent`, the library's agent and the web server's
//! observation all make it here, so they are the same bytes for the same game.

use serde::Serialize;

use byog_game::GameState;
use byog_game::explore::play::ExploreEnd;
use byog_game::explore::{self, BranchId, Monster, MonsterKind, RoomPos};
use byog_game::game::{GameKind, LevelStatus};
use byog_game::interpreter::Interpreter;
use byog_game::run::{self, Feature, FeatureKind, Loss, RunState};
use byog_tile_engine::{Pos, Tile, World};

use crate::MENU_JSON;
use crate::parts::{FeaturesJson, MonstersJson, RowsJson, xy};

/// What the player sees: the game in play (or the last one played), in sight; `game` is
/// `None` when no game was started or loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    /// The game as seen, or `None` at the menu.
    pub game: Option<Sight>,
    /// Keys of the line left unplayed because the game ended before them (0 but for the
    /// answer to such a line; the JSON's `unplayed`, written only when not 0).
    pub unplayed: usize,
}

/// A game as its player sees it: the tiles seen, where the avatar stands, the exit and the
/// features once seen, and the HUD's numbers. Never a tile that was not seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sight {
    /// Classic (`N`), run (`R`) or exploration (`E`).
    pub kind: GameKind,
    /// The seed typed after `N`, `R` or `E`.
    pub seed: u64,
    /// Playing, won or lost.
    pub status: LevelStatus,
    /// The world as seen: the size of the world (a run's current floor, an exploration's
    /// frame), every tile seen on this floor (in an exploration, in the rooms of the
    /// avatar's map) drawn as it is now, every other tile [`Tile::Nothing`]. `(0, 0)` is the
    /// bottom-left tile.
    pub view: World,
    /// The avatar's tile.
    pub avatar: Pos,
    /// The exit door's tile (an exploration's way up), once seen.
    pub exit: Option<Pos>,
    /// Steps taken since the game started (bumps are not steps).
    pub moves: u64,
    /// The chests and traps seen, row by row from the bottom (none in a classic game).
    pub features: Vec<Feature>,
    /// A run's numbers.
    pub run: Option<RunHud>,
    /// An exploration's numbers.
    pub explore: Option<ExploreHud>,
}

/// A run's numbers, as its HUD and end screens show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunHud {
    /// The current floor, 1-based (B1 = 1).
    pub floor: u32,
    /// Floors in the run.
    pub floors: u32,
    /// Hearts left (3 at the start).
    pub health: u32,
    /// Points so far.
    pub score: u64,
    /// Moves left before the run is lost.
    pub moves_left: u64,
    /// Floors left with every feature handled.
    pub perfect_floors: u32,
    /// Chests on this floor, seen or not (the HUD's `chests 2/4` total).
    pub chests_total: u32,
    /// Traps on this floor, seen or not (the HUD's `traps 1/2` total).
    pub traps_total: u32,
    /// Moves a chest of this floor pays the first time it is refilled (the HUD's
    /// `chest +24`; [`byog_game::run::feature_moves`]).
    pub chest_moves: u64,
    /// Moves a trap of this floor pays the first time it is rearmed (the HUD's `trap +8`).
    pub trap_moves: u64,
    /// Why the run was lost, once it is.
    pub loss: Option<Loss>,
}

/// An exploration's numbers, as its HUD and end screen show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExploreHud {
    /// Hearts left (3 at the start).
    pub health: u32,
    /// Points gathered.
    pub score: u64,
    /// The branch whose map the avatar is in; `None` in the start room.
    pub branch: Option<BranchId>,
    /// The avatar's room, in rooms (`[0, 0]` the start room).
    pub room: RoomPos,
    /// That room's depth.
    pub depth: u32,
    /// The dungeon tile of the view's `(0, 0)`: view tile `(x, y)` is dungeon tile
    /// `(x + origin.x, y + origin.y)`.
    pub origin: Pos,
    /// Banked or lost, once ended.
    pub end: Option<ExploreEnd>,
    /// Potions carried.
    pub potions: u32,
    /// The monsters the avatar sees now, by id, at view positions.
    pub monsters: Vec<Monster>,
    /// What took the last heart, once something did.
    pub killed_by: Option<MonsterKind>,
}

impl Observation {
    /// What the player of `interpreter`'s game (in play, or the last one played) sees.
    pub fn of(interpreter: &Interpreter) -> Observation {
        Observation {
            game: interpreter.game().map(Sight::of),
            unplayed: 0,
        }
    }

    /// The observation as one line of JSON (no newline): `byog replay --format json --view
    /// sight` prints exactly this. Keys in alphabetical order; `docs/json.md` lists them.
    pub fn to_json(&self) -> String {
        let mut out = Vec::with_capacity(self.game.as_ref().map_or(128, |g| {
            g.view.width() * g.view.height() * 2 + 64 * g.features.len() + 256
        }));
        self.write_json(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Appends [`Observation::to_json`] to `out` (no newline), allocating nothing else but
    /// one row's buffer.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        match &self.game {
            None => out.extend_from_slice(MENU_JSON.as_bytes()),
            Some(sight) => {
                let mut ser = serde_json::Serializer::new(out);
                // Writing into memory cannot fail, and every key is a string.
                let _ = SightJson::of(sight, self.unplayed).serialize(&mut ser);
            }
        }
    }

    /// The rows of the view as text (top row first, never-seen tiles as spaces): the JSON's
    /// `rows`, and `byog replay --view sight`'s lines. Empty at the menu.
    pub fn rows(&self) -> Vec<String> {
        self.game.as_ref().map_or_else(Vec::new, |g| {
            g.view.to_string().lines().map(str::to_owned).collect()
        })
    }
}

impl Sight {
    /// What the player of `game` sees.
    pub fn of(game: &GameState) -> Sight {
        Sight::with_view(game, game.compose_seen(game.rect()))
    }

    /// What the player of `game` sees, its view made already: `view` must be
    /// [`GameState::compose_seen`] of the whole world ([`GameState::rect`]), as
    /// [`Sight::of`] makes it; a caller that keeps the view from one step to the next
    /// ([`GameState::refresh_seen`]) passes its copy.
    pub fn with_view(game: &GameState, view: World) -> Sight {
        let all = game.features();
        let count = |kind| all.iter().filter(|f| f.kind == kind).count() as u32;
        let (chests_total, traps_total) = (count(FeatureKind::Chest), count(FeatureKind::Trap));
        let weights = run::weights(&all);
        let pays = |r: &RunState, kind| run::feature_moves(&r.info, weights, kind);
        let run = game.run().map(|r| RunHud {
            chest_moves: pays(r, FeatureKind::Chest),
            trap_moves: pays(r, FeatureKind::Trap),
            floor: r.floor,
            floors: r.floors,
            health: r.health,
            score: r.score,
            moves_left: r.moves_left,
            perfect_floors: r.perfect_floors,
            chests_total,
            traps_total,
            loss: r.loss,
        });
        let explore = game.explore().map(|e| {
            let origin = game.origin();
            let sight = e.sight();
            ExploreHud {
                health: e.health(),
                score: e.score(),
                branch: e.branch(),
                room: e.room(),
                depth: explore::depth(e.room()),
                origin,
                end: e.end(),
                potions: e.potions(),
                monsters: e
                    .monsters()
                    .filter(|m| sight.contains(m.pos))
                    .map(|m| Monster {
                        pos: Pos::new(m.pos.x - origin.x, m.pos.y - origin.y),
                        ..*m
                    })
                    .collect(),
                killed_by: e.killed_by(),
            }
        });
        let exit = game.exit();
        Sight {
            kind: game.kind(),
            seed: game.seed(),
            status: game.status(),
            view,
            avatar: game.avatar(),
            exit: game.has_seen(exit).then_some(exit),
            moves: game.moves(),
            features: all
                .iter()
                .filter(|f| game.has_seen(f.pos))
                .copied()
                .collect(),
            run,
            explore,
        }
    }

    /// The tile seen at `pos`: [`Tile::Nothing`] when it was never seen (or lies outside
    /// the view).
    pub fn tile(&self, pos: Pos) -> Tile {
        self.view.tile(pos)
    }
}

/// The JSON of a [`Sight`], its fields in alphabetical order (as `serde_json`'s maps print
/// them, so the object reads like every other `byog` JSON). Phase-specific fields are left
/// out when `None`; an inner `None` prints as `null`.
#[derive(Serialize)]
struct SightJson<'a> {
    avatar: [i32; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    branch: Option<Option<BranchId>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chest_moves: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chests_total: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end: Option<Option<&'static str>>,
    exit: Option<[i32; 2]>,
    features: FeaturesJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    floor: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    floors: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    forfeited: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    health: Option<u32>,
    height: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    killed_by: Option<Option<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loss: Option<Option<&'static str>>,
    mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    monsters: Option<MonstersJson<'a>>,
    moves: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves_left: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    origin: Option<[i32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    perfect_floors: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    potions: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    room: Option<[i32; 2]>,
    rows: RowsJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<u64>,
    seed: u64,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    trap_moves: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    traps_total: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unplayed: Option<usize>,
    width: usize,
}

impl<'a> SightJson<'a> {
    fn of(s: &'a Sight, unplayed: usize) -> SightJson<'a> {
        let (run, e) = (s.run.as_ref(), s.explore.as_ref());
        SightJson {
            avatar: xy(s.avatar),
            branch: e.map(|e| e.branch),
            chest_moves: run.map(|r| r.chest_moves),
            chests_total: run.map(|r| r.chests_total),
            depth: e.map(|e| e.depth),
            end: e.map(|e| e.end.map(ExploreEnd::name)),
            exit: s.exit.map(xy),
            features: FeaturesJson(&s.features),
            floor: run.map(|r| r.floor),
            floors: run.map(|r| r.floors),
            forfeited: e.map(|e| e.end.map_or(0, ExploreEnd::forfeited)),
            health: run.map(|r| r.health).or(e.map(|e| e.health)),
            height: s.view.height(),
            killed_by: e.map(|e| e.killed_by.map(MonsterKind::name)),
            loss: run.map(|r| r.loss.map(Loss::reason)),
            monsters: e.map(|e| MonstersJson(&e.monsters)),
            mode: s.kind.name(),
            moves: s.moves,
            moves_left: run.map(|r| r.moves_left),
            origin: e.map(|e| xy(e.origin)),
            perfect_floors: run.map(|r| r.perfect_floors),
            potions: e.map(|e| e.potions),
            room: e.map(|e| [e.room.x, e.room.y]),
            rows: RowsJson(&s.view),
            score: run.map(|r| r.score).or(e.map(|e| e.score)),
            seed: s.seed,
            status: s.status.name(),
            trap_moves: run.map(|r| r.trap_moves),
            traps_total: run.map(|r| r.traps_total),
            unplayed: (unplayed > 0).then_some(unplayed),
            width: s.view.width(),
        }
    }
}
