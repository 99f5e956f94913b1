//! Step 7: the proof by search over the placed tiles.

use super::LootQuestSettings;
use super::place::Placed;
use crate::generator::Level;
use crate::metrics;
use byog_tile_engine::search::{Grid, UNREACHED, bfs};

/// Step 7: the proof by search over the placed tiles. One breadth-first search from the
/// avatar ([`byog_tile_engine::search::bfs`]) reaches every open tile and a neighbour of
/// the exit; the room graph read from the tiles ([`metrics::room_paths`]) holds every placed
/// room, its critical path is the one asked and no dead end is longer than allowed.
///
/// # Errors
/// What failed, in words.
pub(super) fn validate(
    level: &Level,
    placed: &Placed,
    s: &LootQuestSettings,
) -> Result<(), String> {
    let (grid, open) = Grid::walkable_mask(&level.world);
    let (Some(a), Some(e)) = (grid.index(level.avatar), grid.index(level.exit)) else {
        return Err("the avatar or the exit is outside the world".into());
    };
    let mut dist = vec![UNREACHED; grid.len()];
    bfs(grid, &open, &[a], &mut dist);
    if (0..grid.len()).any(|i| open[i] && dist[i] == UNREACHED) {
        return Err("an open tile cannot be reached".into());
    }
    if grid.neighbours(e).iter().all(|&n| dist[n] == UNREACHED) {
        return Err("the exit cannot be reached".into());
    }
    let paths = metrics::room_paths(&level.world, level.avatar, level.exit);
    if paths.rooms != placed.rooms.len() as u32 {
        return Err(format!(
            "{} rooms read from the tiles, {} placed",
            paths.rooms,
            placed.rooms.len()
        ));
    }
    if paths.critical_path != s.critical_path {
        return Err(format!(
            "critical path {} rooms, {} asked",
            paths.critical_path, s.critical_path
        ));
    }
    if paths.max_dead_end > s.max_dead_end {
        return Err(format!(
            "a dead end of {} rooms, at most {} asked",
            paths.max_dead_end, s.max_dead_end
        ));
    }
    Ok(())
}
