//! The rescan of a Dijkstra map: a map of values relaxed over open cells.

use std::collections::VecDeque;

use super::Grid;

/// Relaxes a map of values over `open` cells, as a Dijkstra search seeded with every value
/// at once: each cell ends with the least of its own value and any open neighbour's value
/// plus `step` (`step ≥ 0`; values and `step` in any one unit, e.g. tenths of a tile). Cells
/// holding `i32::MAX` are unreached (they stay so unless a neighbour lowers them); a value
/// spreads from any cell that holds one, open or not, but only into open cells. This is the
/// "rescan" of a Dijkstra map (Brogue; Pender, "The Incredible Power of Dijkstra Maps",
/// RogueBasin 2010): a distance map scaled by a negative factor and relaxed again is a
/// *safety map*, whose downhill leads away from the sources without running into dead ends
/// (the monsters' flight, `docs/monsters.md`).
///
/// Every step adds the same `step`, so no heap is needed: the cells settle in the order of
/// their values by merging the sources, sorted by value, with a first-in first-out queue of
/// the cells they lower, which is sorted by construction (each value queued is a value taken
/// out plus `step`, and values come out in order). The map is the least one that satisfies
/// the rule, so it is unique: ties need no breaking. The cost is the sort of the sources
/// (`O(s log s)`) and one pass over the cells reached.
pub fn relax(grid: Grid, open: &[bool], values: &mut [i32], step: i32) {
    debug_assert!(step >= 0, "a relaxation steps up or stays level");
    let mut sources: Vec<(i32, usize)> = values
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != i32::MAX)
        .map(|(i, &v)| (v, i))
        .collect();
    sources.sort_unstable();
    let mut queue: VecDeque<(i32, usize)> = VecDeque::with_capacity(sources.len());
    let mut next_source = 0;
    loop {
        let from_sources = match (sources.get(next_source), queue.front()) {
            (Some(s), Some(q)) => s.0 <= q.0,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let (v, i) = if from_sources {
            next_source += 1;
            sources[next_source - 1]
        } else {
            queue.pop_front().unwrap_or_default()
        };
        if v > values[i] {
            continue;
        }
        let next = v.saturating_add(step);
        for n in grid.neighbours(i) {
            if open[n] && next < values[n] {
                values[n] = next;
                queue.push_back((next, n));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule itself, by rounds until nothing changes (Bellman and Ford's relaxation of
    /// every edge): each open cell takes the least of its value and a neighbour's plus `step`.
    fn relax_by_rounds(grid: Grid, open: &[bool], values: &mut [i32], step: i32) {
        loop {
            let mut changed = false;
            for i in 0..values.len() {
                if !open[i] || i < grid.width || i >= grid.len() - grid.width {
                    continue;
                }
                for n in grid.neighbours(i) {
                    if values[n] != i32::MAX && values[n].saturating_add(step) < values[i] {
                        values[i] = values[n] + step;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// The queue's map is the rule's, cell for cell, on random squares with negative and
    /// positive sources (a safety map's, and a distance map's), sources open or not.
    #[test]
    fn relax_gives_the_least_map_the_rule_allows() {
        let mut state = 0x0005_DEEC_E66D_u64;
        let mut next = |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % m) as i32
        };
        let mut reached_far = false;
        for round in 0..400 {
            let (w, h) = (1 + next(29) as usize, 1 + next(29) as usize);
            let grid = Grid::around(w, h);
            let mut open = vec![false; grid.len()];
            let mut values = vec![i32::MAX; grid.len()];
            for y in 0..h {
                for x in 0..w {
                    let i = (y + 1) * grid.width + x + 1;
                    open[i] = next(100) < 70;
                    if next(100) < 15 {
                        values[i] = if round % 2 == 0 {
                            -12 * next(40)
                        } else {
                            next(40)
                        };
                    }
                }
            }
            let step = [10, 1, 0][round % 3];
            let mut expected = values.clone();
            relax_by_rounds(grid, &open, &mut expected, step);
            let before = values.clone();
            relax(grid, &open, &mut values, step);
            assert_eq!(values, expected, "round {round}");
            reached_far |= (0..values.len())
                .any(|i| before[i] == i32::MAX && values[i] != i32::MAX && values[i] > 3 * step);
        }
        assert!(reached_far, "some values spread several steps");
    }
}
