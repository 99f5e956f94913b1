//! The checks every loaded game passes, whatever its mode and format version
//! (`docs/saves.md`, "Loading checks everything"). Each format's own decoding checks what its
//! fields say (sizes, ids, the history against the move count, an exploration's room graph and
//! monsters: `ExploreState::check`); these check the game as a player meets it, through the
//! same accessors play uses, so a save whose parts are each plausible but do not fit together
//! (an avatar outside the map it stands in, a way up outside the frame, two things on one
//! tile, more chests than the floor's table places) is refused with the first that fails.

use crate::game::{GameState, LevelStatus};
use crate::run::{self, FeatureKind};
use byog_tile_engine::{Map, Tile};

/// Checks `game` as loaded: the first invariant that fails, in words.
pub(crate) fn check_game(game: &GameState) -> Result<(), String> {
    let rect = game.rect();
    if rect.is_empty() {
        return Err("the game's world has no tiles".into());
    }
    let avatar = game.avatar();
    if !rect.contains(avatar) {
        return Err(format!(
            "the avatar at {avatar} is outside its {} × {} world",
            rect.width, rect.height
        ));
    }
    if !game.is_walkable(avatar) {
        return Err(format!("the avatar at {avatar} does not stand on floor"));
    }
    let exit = game.exit();
    if !rect.contains(exit) {
        return Err(format!("the exit at {exit} is outside the world"));
    }
    let want = if game.explore().is_some() {
        Tile::WayUp
    } else if game.status() == LevelStatus::Won {
        Tile::UnlockedDoor
    } else {
        Tile::LockedDoor
    };
    if game.tile_at(exit) != Some(want) {
        return Err(format!("the exit at {exit} is not a {want:?}"));
    }
    let features = game.features();
    for (i, f) in features.iter().enumerate() {
        if !rect.contains(f.pos) {
            return Err(format!(
                "a {} at {} is outside the world",
                f.kind_name(),
                f.pos
            ));
        }
        if f.pos == exit || features[..i].iter().any(|g| g.pos == f.pos) {
            return Err(format!("a {} at {} shares its tile", f.kind_name(), f.pos));
        }
    }
    if let Some(e) = game.explore() {
        // Every room of every branch, not only the avatar's map: its features within its
        // depth's row of the table, not stacked, and no more left to handle than it holds.
        for b in e.dungeon().branches() {
            for (pos, room) in b.rooms() {
                let most = crate::explore::feature_range(room.depth).1 as usize;
                let stacked = room
                    .items
                    .iter()
                    .enumerate()
                    .any(|(i, f)| room.items[..i].iter().any(|g| g.pos == f.pos));
                if room.items.len() > most || stacked || room.features as usize > room.items.len() {
                    return Err(format!(
                        "room {pos} of branch {} holds {} features ({} left), where its depth's \
                         table allows {most}, or two on one tile",
                        b.id(),
                        room.items.len(),
                        room.features
                    ));
                }
            }
        }
        for m in e.monsters() {
            let p = game.in_frame(m.pos);
            if !rect.contains(p) {
                return Err(format!("monster {} stands outside the world", m.id));
            }
        }
    }
    if let Some(r) = game.run() {
        let p = run::depth::params(
            r.floor,
            r.floors,
            r.max_width as usize,
            r.max_height as usize,
            game.settings(),
        );
        if rect.width as usize > p.width || rect.height as usize > p.height {
            return Err(format!(
                "floor B{} is {} × {}, larger than its table's {} × {}",
                r.floor, rect.width, rect.height, p.width, p.height
            ));
        }
        let count = |kind| features.iter().filter(|f| f.kind == kind).count() as u32;
        let (chests, traps) = (count(FeatureKind::Chest), count(FeatureKind::Trap));
        if chests > p.chests || traps > p.traps {
            return Err(format!(
                "floor B{} holds {chests} chests and {traps} traps, more than its table's {} \
                 and {}",
                r.floor, p.chests, p.traps
            ));
        }
    }
    if let Some(health) = game.health()
        && health > run::START_HEALTH
    {
        return Err(format!("health {health} is above {}", run::START_HEALTH));
    }
    Ok(())
}
