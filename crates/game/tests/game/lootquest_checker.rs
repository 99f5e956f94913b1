//! The LootQuest checker, independent of the generator: its own room graph read from the
//! printed tiles (`to_string`) and the rooms the generator reports (`gen --json`'s `rooms`),
//! its own breadth-first searches. The game's `lootquest.rs` and the root's
//! `tests/lootquest_cli.rs` (which includes this file) check worlds with it.

#![allow(dead_code)] // each test binary uses its own subset

use std::collections::{BTreeSet, VecDeque};

use byog_worlds::generator::RoomRect;

/// The printed world as characters, `cells[y][x]` with y up (row 0 of the text is the top).
pub(crate) struct Printed {
    w: i32,
    h: i32,
    cells: Vec<Vec<char>>,
}

impl Printed {
    fn parse(text: &str) -> Printed {
        let mut cells: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
        cells.reverse();
        Printed {
            w: cells[0].len() as i32,
            h: cells.len() as i32,
            cells,
        }
    }
    fn at(&self, x: i32, y: i32) -> char {
        if x < 0 || y < 0 || x >= self.w || y >= self.h {
            ' '
        } else {
            self.cells[y as usize][x as usize]
        }
    }
    fn open(&self, x: i32, y: i32) -> bool {
        matches!(self.at(x, y), '·' | '@')
    }
    fn find(&self, c: char) -> Vec<(i32, i32)> {
        let mut v = Vec::new();
        for y in 0..self.h {
            for x in 0..self.w {
                if self.at(x, y) == c {
                    v.push((x, y));
                }
            }
        }
        v
    }
}

pub(crate) fn around((x, y): (i32, i32)) -> [(i32, i32); 4] {
    [(x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)]
}

/// Labels the 4-connected components of the tiles `member` holds: a label a tile (`None`
/// outside) and the count.
pub(crate) fn components(
    p: &Printed,
    member: &dyn Fn(i32, i32) -> bool,
) -> (Vec<Option<usize>>, usize) {
    let mut label = vec![None; (p.w * p.h) as usize];
    let mut n = 0;
    for y in 0..p.h {
        for x in 0..p.w {
            if !member(x, y) || label[(y * p.w + x) as usize].is_some() {
                continue;
            }
            let mut stack = vec![(x, y)];
            label[(y * p.w + x) as usize] = Some(n);
            while let Some(t) = stack.pop() {
                for (a, b) in around(t) {
                    if a >= 0 && b >= 0 && a < p.w && b < p.h && member(a, b) {
                        let i = (b * p.w + a) as usize;
                        if label[i].is_none() {
                            label[i] = Some(n);
                            stack.push((a, b));
                        }
                    }
                }
            }
            n += 1;
        }
    }
    (label, n)
}

/// What the checker reads from a printed dungeon.
#[derive(Debug)]
pub(crate) struct Read {
    pub(crate) rooms: usize,
    pub(crate) critical_path: u32,
    pub(crate) max_dead_end: u32,
    pub(crate) all_reachable: bool,
    pub(crate) avatar_room_is_first: bool,
    pub(crate) exit_room_is_last: bool,
}

/// The independent checker: rooms are components of open tiles inside a 3 × 3 block of open
/// tiles; two rooms are joined when a component of the other open tiles (a corridor) touches
/// both; hops between rooms by BFS.
pub(crate) fn check(text: &str, reported: &[RoomRect], critical_path: u32) -> Read {
    let p = Printed::parse(text);
    let block =
        |cx: i32, cy: i32| (cx - 1..=cx + 1).all(|x| (cy - 1..=cy + 1).all(|y| p.open(x, y)));
    let is_room = |x: i32, y: i32| {
        p.open(x, y) && (x - 1..=x + 1).any(|cx| (y - 1..=y + 1).any(|cy| block(cx, cy)))
    };
    let (room, rooms) = components(&p, &is_room);
    let (corridor, corridors) = components(&p, &|x, y| p.open(x, y) && !is_room(x, y));
    let idx = |(x, y): (i32, i32)| (y * p.w + x) as usize;
    // Room adjacency through corridors.
    let mut touches: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); corridors];
    for y in 0..p.h {
        for x in 0..p.w {
            if let Some(c) = corridor[idx((x, y))] {
                for (a, b) in around((x, y)) {
                    if p.open(a, b)
                        && let Some(r) = room[idx((a, b))]
                    {
                        touches[c].insert(r);
                    }
                }
            }
        }
    }
    let mut adj: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); rooms];
    for t in &touches {
        for &a in t {
            for &b in t {
                if a != b {
                    adj[a].insert(b);
                }
            }
        }
    }
    let hops = |from: &[usize]| {
        let mut d = vec![u32::MAX; rooms];
        let mut q = VecDeque::new();
        for &f in from {
            d[f] = 0;
            q.push_back(f);
        }
        while let Some(r) = q.pop_front() {
            for &n in &adj[r] {
                if d[n] == u32::MAX {
                    d[n] = d[r] + 1;
                    q.push_back(n);
                }
            }
        }
        d
    };
    let avatar = p.find('@')[0];
    let exits = p.find('█');
    assert_eq!(exits.len(), 1, "one exit door\n{text}");
    let exit = exits[0];
    let beside: Vec<(i32, i32)> = around(exit)
        .into_iter()
        .filter(|&(x, y)| p.open(x, y))
        .collect();
    assert_eq!(
        beside.len(),
        1,
        "the exit is set into an outer wall\n{text}"
    );
    let start_room = room[idx(avatar)].expect("the avatar stands in a room");
    let exit_room = room[idx(beside[0])].expect("the exit opens into a room");
    let from_start = hops(&[start_room]);
    let from_exit = hops(&[exit_room]);
    let path_hops = from_start[exit_room];
    let on_path: Vec<usize> = (0..rooms)
        .filter(|&r| {
            from_start[r] != u32::MAX
                && from_exit[r] != u32::MAX
                && from_start[r] + from_exit[r] == path_hops
        })
        .collect();
    let away = hops(&on_path);
    // Every open tile reachable from the avatar, by BFS over tiles.
    let mut seen = vec![false; (p.w * p.h) as usize];
    let mut q = VecDeque::from([avatar]);
    seen[idx(avatar)] = true;
    while let Some(t) = q.pop_front() {
        for n in around(t) {
            if p.open(n.0, n.1) && !seen[idx(n)] {
                seen[idx(n)] = true;
                q.push_back(n);
            }
        }
    }
    let all_reachable = (0..p.h).all(|y| (0..p.w).all(|x| !p.open(x, y) || seen[idx((x, y))]));
    let inside = |r: &RoomRect, (x, y): (i32, i32)| {
        x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
    };
    Read {
        rooms,
        critical_path: path_hops.saturating_add(1),
        max_dead_end: away
            .iter()
            .copied()
            .filter(|&d| d != u32::MAX)
            .max()
            .unwrap_or(0),
        all_reachable,
        avatar_room_is_first: inside(&reported[0], avatar),
        exit_room_is_last: inside(&reported[critical_path as usize - 1], beside[0]),
    }
}
