//! Step 1: the coordinate-free room graph, and step 2's check of it.

use rand::Rng;

use super::{LootQuestSettings, SIDES, below};

/// The coordinate-free room graph: a tree. Room 0 is the start room, rooms
/// `0..critical_path` are the main path in order (the last one the exit room), the others
/// branch rooms; a room's parent always has a smaller index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomGraph {
    /// The room each room hangs on (`None` for the start room).
    pub parent: Vec<Option<usize>>,
    /// Rooms away from the critical path: 0 on it, `k` for a branch room `k` rooms out.
    pub depth: Vec<u32>,
    /// Rooms on the main path.
    pub critical_path: usize,
}

/// Step 1: the main path of `critical_path` rooms, then `rooms − critical_path` branch
/// rooms, each hung on a uniformly drawn room that is less than `max_dead_end` rooms from the
/// main path and has a free side (at most one corridor a side). When no room can take
/// another, the room count gives way.
pub fn make_room_graph<R: Rng + ?Sized>(rng: &mut R, s: &LootQuestSettings) -> RoomGraph {
    let cp = s.critical_path as usize;
    let total = (s.rooms as usize).max(cp);
    let mut parent: Vec<Option<usize>> = (0..cp).map(|i| i.checked_sub(1)).collect();
    let mut depth = vec![0u32; cp];
    let mut degree: Vec<usize> = (0..cp)
        .map(|i| usize::from(i > 0) + usize::from(i + 1 < cp))
        .collect();
    let mut open: Vec<usize> = Vec::with_capacity(total);
    while parent.len() < total {
        open.clear();
        open.extend(
            (0..parent.len()).filter(|&r| depth[r] < s.max_dead_end && degree[r] < sides_of(r, cp)),
        );
        if open.is_empty() {
            break;
        }
        let p = open[below(rng, open.len())];
        parent.push(Some(p));
        depth.push(depth[p] + 1);
        degree[p] += 1;
        degree.push(1);
    }
    RoomGraph {
        parent,
        depth,
        critical_path: cp,
    }
}

/// The most corridors room `r` may have: one a side, but the exit room keeps a side for the
/// exit door.
fn sides_of(r: usize, critical_path: usize) -> usize {
    if r + 1 == critical_path {
        SIDES - 1
    } else {
        SIDES
    }
}

/// Step 2: the graph is what was asked: the main path is a chain of `critical_path` rooms,
/// every branch room hangs on an earlier room one room nearer the critical path, no branch
/// is deeper than `max_dead_end`, no room has more corridors than sides.
///
/// # Errors
/// What is wrong, in words.
pub fn check_room_graph(g: &RoomGraph, s: &LootQuestSettings) -> Result<(), String> {
    if g.critical_path != s.critical_path as usize || g.parent.len() < g.critical_path {
        return Err("the main path is not the critical path asked".into());
    }
    let mut degree = vec![0usize; g.parent.len()];
    for (r, &p) in g.parent.iter().enumerate() {
        let main = r < g.critical_path;
        match p {
            None if r == 0 => {}
            Some(p) if main && p + 1 == r => {}
            Some(p) if !main && p < r && g.depth[r] == g.depth[p] + 1 => {}
            _ => return Err(format!("room {r} does not hang where the graph says")),
        }
        if main != (g.depth[r] == 0) || g.depth[r] > s.max_dead_end {
            return Err(format!("room {r} is {} rooms off the path", g.depth[r]));
        }
        if let Some(p) = p {
            degree[p] += 1;
            degree[r] += 1;
        }
    }
    if degree
        .iter()
        .enumerate()
        .any(|(r, &d)| d > sides_of(r, g.critical_path))
    {
        return Err("a room has more corridors than sides".into());
    }
    Ok(())
}
