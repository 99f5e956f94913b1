//! The low pieces every part of the game shares, kept below the game state and the rules so
//! that nothing has to import upwards for them: the game's random generator, the largest
//! seed, the light radius and the lifting of things off generated tiles.

use rand_pcg::Pcg64;

use byog_tile_engine::{Pos, Tile, World};

/// Largest seed: Java's `Long.MAX_VALUE`, so every seed a Java input string accepts works.
pub const MAX_SEED: u64 = i64::MAX as u64;

/// The random generator of a game: PCG XSL RR 128/64 (`rand_pcg::Pcg64`), seeded with
/// `Pcg64::seed_from_u64(seed)`.
pub type GameRng = Pcg64;

/// The light radius, in tiles: how far the avatar sees (Euclidean), in runs, explorations
/// and a classic game with sight on (`docs/sight.md`).
pub const SIGHT_RADIUS: u32 = 8;

/// The terrain under a world whose avatar and exit are drawn in as tiles: FLOOR under the
/// avatar and WALL under the exit, as the generator carved them. Generation, run floors and
/// version-1 saves lift their things off the tiles with it.
pub(crate) fn terrain_under(mut world: World, avatar: Pos, exit: Pos) -> World {
    world.set(avatar, Tile::Floor);
    world.set(exit, Tile::Wall);
    world
}

/// The three ways to play, chosen at the menu (`docs/keys.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GameKind {
    /// `N`: the classic Java BYoG game.
    Classic,
    /// `R`: a run of floors B1..B10 (`docs/runs.md`).
    Run,
    /// `E`: an exploration (`docs/explore.md`).
    Exploration,
}

impl GameKind {
    /// The menu key: `N`, `R` or `E`.
    pub const fn key(self) -> char {
        match self {
            GameKind::Classic => 'N',
            GameKind::Run => 'R',
            GameKind::Exploration => 'E',
        }
    }

    /// The kind a menu key starts (either case).
    pub fn from_key(key: char) -> Option<GameKind> {
        match key.to_ascii_uppercase() {
            'N' => Some(GameKind::Classic),
            'R' => Some(GameKind::Run),
            'E' => Some(GameKind::Exploration),
            _ => None,
        }
    }

    /// Its name in the game's JSON, the web server's messages and its database: `"classic"`,
    /// `"run"` or `"explore"` (the `mode` field, `docs/json.md`). The one spelling of it.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Classic => "classic",
            GameKind::Run => "run",
            GameKind::Exploration => "explore",
        }
    }

    /// The kind [`GameKind::name`] names (`"classic"`, `"run"` or `"explore"`, exactly);
    /// `None` for any other string.
    pub fn from_name(name: &str) -> Option<GameKind> {
        [GameKind::Classic, GameKind::Run, GameKind::Exploration]
            .into_iter()
            .find(|k| k.name() == name)
    }

    /// What the player calls it: "game", "run", "exploration".
    pub const fn noun(self) -> &'static str {
        match self {
            GameKind::Classic => "game",
            GameKind::Run => "run",
            GameKind::Exploration => "exploration",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::GameKind;

    #[test]
    fn each_kind_has_one_name_and_its_name_gives_it_back() {
        let kinds = [GameKind::Classic, GameKind::Run, GameKind::Exploration];
        let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
        assert_eq!(names, ["classic", "run", "explore"]);
        for k in kinds {
            assert_eq!(GameKind::from_name(k.name()), Some(k));
            assert_eq!(GameKind::from_key(k.key()), Some(k));
        }
        for other in ["", "menu", "Classic", "exploration", "run "] {
            assert_eq!(GameKind::from_name(other), None, "{other:?}");
        }
    }
}
