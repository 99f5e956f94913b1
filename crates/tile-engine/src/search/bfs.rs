//! Breadth-first searches on a padded [`Grid`]: distances from many sources over an open
//! mask ([`bfs`]), the search whose steps obey a rule and that stops at a goal
//! ([`nearest_where`]), connected components ([`label_components`]) and the walk back along
//! a search's distances ([`path_into`], [`path_into_where`]).

use super::{Grid, UNREACHED};
use crate::geometry::Direction;

/// Breadth-first search over `open` cells from every cell of `sources` (distance 0, open or
/// not), neighbours in the fixed order. `dist` must be all [`UNREACHED`] on entry; it ends
/// with the distance of every reached cell, in steps.
pub fn bfs(grid: Grid, open: &[bool], sources: &[usize], dist: &mut [u32]) {
    // Each cell is queued once at most, and each neighbour is written past the queue's end
    // before it is known to be new: room for all cells and four more, as 4-byte indices.
    let mut queue = vec![0u32; grid.len() + 4];
    let mut tail = 0;
    for &s in sources {
        if dist[s] == UNREACHED {
            dist[s] = 0;
            queue[tail] = s as u32;
            tail += 1;
        }
    }
    let mut head = 0;
    while head < tail {
        let i = queue[head] as usize;
        head += 1;
        let d = dist[i] + 1;
        // Branch-free (whether a neighbour is new is a coin toss in a maze): the queue's end
        // moves on by 0 or 1 and the distance is written either way.
        let Some(slots) = queue[tail..].first_chunk_mut::<4>() else {
            break;
        };
        // The rows around `i` as one window: one bounds check a cell, not eight. Up, right,
        // down, left are `2w`, `w + 1`, `0` and `w - 1` in it.
        let w = grid.width;
        let (o, near) = (&open[i - w..=i + w], &mut dist[i - w..=i + w]);
        let mut new_cells = 0;
        for k in [2 * w, w + 1, 0, w - 1] {
            let new = o[k] & (near[k] == UNREACHED);
            near[k] = if new { d } else { near[k] };
            slots[new_cells & 3] = (i - w + k) as u32;
            new_cells += usize::from(new);
        }
        tail += new_cells;
    }
}

/// Breadth-first search from `source` (distance 0) in which the step from a cell `from` in
/// direction `d` onto its neighbour `to` is taken only where `may_step(from, d, to)` allows
/// (a closed cell, a one-way cell entered against its direction, a cell this search keeps
/// out of), neighbours in [`Direction::ALL`] order. It stops at the first cell, in search
/// order (nearest first, ties in neighbour order), where `goal` holds, and returns it.
/// `goal` is asked of every cell as the search takes it up, the source first, so a goal that
/// notes what it is asked sees every cell the search took up (travel notes whether its
/// window's edge was reached). `dist` must be all [`UNREACHED`] on entry; on return every
/// cell reached has its distance in steps (every cell nearer than the goal among them), so
/// [`path_into_where`] walks to the goal. Linear in the cells reached. Travel's `X` uses it
/// (`docs/keys.md`): the nearest tile beside the unseen, at the cost of the tiles nearer than
/// it, stepping only where the rules let a walk step.
pub fn nearest_where(
    grid: Grid,
    source: usize,
    may_step: impl Fn(usize, Direction, usize) -> bool,
    mut goal: impl FnMut(usize) -> bool,
    dist: &mut [u32],
) -> Option<usize> {
    let mut queue = Vec::with_capacity(256);
    let mut head = 0;
    dist[source] = 0;
    queue.push(source);
    while head < queue.len() {
        let c = queue[head];
        head += 1;
        if goal(c) {
            return Some(c);
        }
        for (n, d) in grid.neighbours(c).into_iter().zip(Direction::ALL) {
            if dist[n] == UNREACHED && may_step(c, d, n) {
                dist[n] = dist[c] + 1;
                queue.push(n);
            }
        }
    }
    None
}

/// [`nearest_where`] over `open` cells (a step may enter any open cell): the first cell, in
/// search order, where `goal` holds. `goal` is asked of every reached cell, the source
/// included (only open cells are reached beyond the source); `dist` must be all
/// [`UNREACHED`] on entry, and on return every cell nearer than the goal has its distance,
/// so [`path_into`] walks to it.
pub fn nearest(
    grid: Grid,
    open: &[bool],
    source: usize,
    goal: impl FnMut(usize) -> bool,
    dist: &mut [u32],
) -> Option<usize> {
    nearest_where(grid, source, |_, _, n| open[n], goal, dist)
}

/// Labels the 4-connected components of the cells where `member` holds, numbered from 0 in
/// row-major order of their first cell; other cells get [`UNREACHED`]. Returns the labels
/// and, per component, its first cell and its size in tiles.
pub fn label_components(grid: Grid, member: &[bool]) -> (Vec<u32>, Vec<(usize, u32)>) {
    let mut label = vec![UNREACHED; grid.len()];
    let mut found = Vec::new();
    let mut stack = Vec::new();
    for start in 0..grid.len() {
        if !member[start] || label[start] != UNREACHED {
            continue;
        }
        let id = found.len() as u32;
        label[start] = id;
        stack.push(start);
        let mut size = 0u32;
        while let Some(i) = stack.pop() {
            size += 1;
            for n in grid.neighbours(i) {
                if member[n] && label[n] == UNREACHED {
                    label[n] = id;
                    stack.push(n);
                }
            }
        }
        found.push((start, size));
    }
    (label, found)
}

/// The shortest walk from the BFS source (distance 0 in `dist`) into `target`, as padded
/// indices, source first and target last; `None` when `target` cannot be entered.
///
/// `target` need not be walkable itself (the exit door is entered, never stood on): the walk
/// enters it from its reached neighbour nearest the source (the first in neighbour order on
/// ties), and from each cell steps back towards the source onto the first neighbour, in
/// neighbour order, one step nearer to it. A target that was reached itself is the end of
/// its own walk.
pub fn path_into(grid: Grid, dist: &[u32], target: usize) -> Option<Vec<usize>> {
    path_into_where(grid, dist, target, |_, _| true)
}

/// [`path_into`], stepping back from a cell only towards a neighbour `may_step_back(cell,
/// direction)` allows, `direction` leading from the cell to that neighbour (a walk whose
/// search honoured one-way cells steps back along the ways it could take).
pub fn path_into_where(
    grid: Grid,
    dist: &[u32],
    target: usize,
    may_step_back: impl Fn(usize, Direction) -> bool,
) -> Option<Vec<usize>> {
    if dist[target] == 0 {
        return Some(vec![target]);
    }
    let last = if dist[target] != UNREACHED {
        target
    } else {
        let mut best = None::<usize>;
        for n in grid.neighbours(target) {
            if dist[n] != UNREACHED && best.is_none_or(|b| dist[n] < dist[b]) {
                best = Some(n);
            }
        }
        best?
    };
    let mut path = Vec::with_capacity(dist[last] as usize + 2);
    if last != target {
        path.push(target);
    }
    let mut i = last;
    path.push(i);
    while dist[i] > 0 {
        // The first neighbour, in neighbour order, one step closer to the source. BFS
        // distances guarantee one exists.
        let from = i;
        i = grid
            .neighbours(from)
            .into_iter()
            .zip(Direction::ALL)
            .find(|&(n, d)| dist[n] == dist[from] - 1 && may_step_back(from, d))?
            .0;
        path.push(i);
    }
    path.reverse();
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Pos;

    /// A small random open mask on a `w × h` map (a linear congruential generator: the
    /// tests need no seeded library).
    fn mask(w: usize, h: usize, state: &mut u64) -> (Grid, Vec<bool>) {
        let grid = Grid::around(w, h);
        let mut open = vec![false; grid.len()];
        for y in 0..h {
            for x in 0..w {
                *state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                open[grid.index(Pos::new(x as i32, y as i32)).unwrap()] =
                    !(*state >> 33).is_multiple_of(4);
            }
        }
        (grid, open)
    }

    /// With a step rule that only asks for open cells, the search's distances are the plain
    /// BFS's for every cell it reached, and it stops at the nearest goal (the first in the
    /// BFS's own order on ties: least distance, then first reached).
    #[test]
    fn nearest_where_is_the_bfs_stopped_at_the_first_goal() {
        let mut state = 7u64;
        for _ in 0..300 {
            let (grid, open) = mask(11, 8, &mut state);
            let Some(source) = (0..grid.len()).find(|&i| open[i]) else {
                continue;
            };
            let mut full = vec![UNREACHED; grid.len()];
            bfs(grid, &open, &[source], &mut full);
            let goal_cell = |c: usize| c % 7 == 3 && c != source;
            let mut dist = vec![UNREACHED; grid.len()];
            let mut asked = Vec::new();
            let found = nearest_where(
                grid,
                source,
                |_, _, n| open[n],
                |c| {
                    asked.push(c);
                    goal_cell(c)
                },
                &mut dist,
            );
            for c in 0..grid.len() {
                assert!(dist[c] == UNREACHED || dist[c] == full[c]);
            }
            let least = (0..grid.len())
                .filter(|&c| full[c] != UNREACHED && goal_cell(c))
                .map(|c| full[c])
                .min();
            assert_eq!(found.map(|c| full[c]), least);
            // Every cell asked before the goal was no goal, in non-decreasing distance.
            assert!(asked.windows(2).all(|w| full[w[0]] <= full[w[1]]));
            assert_eq!(
                asked.iter().filter(|&&c| goal_cell(c)).count(),
                usize::from(found.is_some())
            );
            assert_eq!(asked.last().copied().filter(|&c| goal_cell(c)), found);
        }
    }

    /// A rule that lets cells be entered only moving right or up (one-way cells) reaches
    /// exactly the cells up and to the right along open runs, and [`path_into_where`] walks
    /// back along steps the rule allowed.
    #[test]
    fn a_step_rule_is_obeyed_and_the_walk_back_follows_it() {
        let mut state = 99u64;
        for _ in 0..200 {
            let (grid, open) = mask(9, 9, &mut state);
            let Some(source) = (0..grid.len()).find(|&i| open[i]) else {
                continue;
            };
            let rule = |_: usize, d: Direction, n: usize| {
                open[n] && matches!(d, Direction::Up | Direction::Right)
            };
            let mut dist = vec![UNREACHED; grid.len()];
            assert_eq!(
                nearest_where(grid, source, rule, |_| false, &mut dist),
                None
            );
            let s = grid.pos(source);
            for c in 0..grid.len() {
                if dist[c] == UNREACHED || c == source {
                    continue;
                }
                let p = grid.pos(c);
                // Only up and right: the distance is the Manhattan distance.
                assert_eq!(dist[c], (p.x - s.x + p.y - s.y) as u32);
                let walk =
                    path_into_where(grid, &dist, c, |from, d| rule(0, d.opposite(), from)).unwrap();
                assert_eq!(walk.first(), Some(&source));
                assert_eq!(walk.last(), Some(&c));
                for d in grid.directions(&walk) {
                    assert!(matches!(d, Direction::Up | Direction::Right));
                }
            }
        }
    }
}
