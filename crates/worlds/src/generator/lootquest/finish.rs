//! Step 6: walls, the avatar in the start room and the exit door of the exit room.

use rand::Rng;

use super::below;
use super::layout::Layout;
use super::place::Placed;
use crate::generator::{Level, finish::walls_and_floors};
use byog_tile_engine::{Pos, Tile, World};

/// Step 6: FLOOR for open tiles, WALL for rock next to them (8-neighbourhood), NOTHING for
/// the rest; the avatar on a uniformly drawn tile of the start room; the exit, a
/// LOCKED_DOOR, on a uniformly drawn wall tile round the exit room's rectangle (the
/// critical path's last room; never in a cut corner) with exactly one open neighbour, a tile
/// of that room. `None` if there is no such tile.
pub(super) fn finish<R: Rng + ?Sized>(
    rng: &mut R,
    layout: &Layout,
    placed: &Placed,
) -> Option<Level> {
    let w = layout.width;
    let tiles = walls_and_floors(&layout.open, w);
    let mut world = World::from_tiles(layout.width, layout.height, tiles)
        .unwrap_or_else(|| World::new(layout.width, layout.height));
    let start = placed.rooms[0];
    let floor: Vec<Pos> = (start.y..start.y + start.height)
        .flat_map(|y| (start.x..start.x + start.width).map(move |x| Pos::new(x, y)))
        .filter(|p| layout.is_open(p.x, p.y))
        .collect();
    if floor.is_empty() {
        return None;
    }
    let avatar = floor[below(rng, floor.len())];
    let end = placed.rooms[placed.critical_path - 1];
    let exits: Vec<Pos> = (end.y - 1..=end.y + end.height)
        .flat_map(|y| (end.x - 1..=end.x + end.width).map(move |x| Pos::new(x, y)))
        // On the ring round the room's rectangle, never in a cut corner: the room stays a
        // rectangle of floor to whoever reads its rectangle (the run's par route does).
        .filter(|p| !end.contains(*p) && world.get(*p) == Some(Tile::Wall))
        .filter(|p| {
            let open: Vec<Pos> = p
                .neighbours()
                .into_iter()
                .filter(|n| world.get(*n).is_some_and(Tile::is_walkable))
                .collect();
            open.len() == 1 && end.contains(open[0])
        })
        .collect();
    if exits.is_empty() || floor.is_empty() {
        return None;
    }
    let exit = exits[below(rng, exits.len())];
    world.set(avatar, Tile::Player);
    world.set(exit, Tile::LockedDoor);
    Some(Level {
        world,
        avatar,
        exit,
        rooms: placed.rooms.clone(),
    })
}
