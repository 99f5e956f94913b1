//! Explorations' room graph (`docs/explore.md`): an independent checker of every
//! rule over random walks, the branch timer, determinism, and the save/load split at the graph
//! level. The checker reads only the public state (rooms, exits, depths, branches) and
//! recomputes everything itself; it calls none of the orchestrator's helpers.

use std::collections::BTreeMap;

use byog_game::Direction;
use byog_game::explore::{
    BranchId, Dungeon, Exit, ExitState, ExploreSettings, Room, RoomPos, WalkError,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

// ---------------------------------------------------------------- the independent checker

/// `d = floor(sqrt(x² + y²))` without a square root: `d² ≤ x² + y² < (d + 1)²`.
fn depth_ok(pos: RoomPos, d: u32) -> bool {
    let n = i128::from(pos.x) * i128::from(pos.x) + i128::from(pos.y) * i128::from(pos.y);
    let d = i128::from(d);
    d * d <= n && n < (d + 1) * (d + 1)
}

fn next(pos: RoomPos, dir: Direction) -> RoomPos {
    let (dx, dy) = dir.delta();
    RoomPos::new(pos.x + dx, pos.y + dy)
}

fn is_start(pos: RoomPos) -> bool {
    pos.x == 0 && pos.y == 0
}

fn rooms(d: &Dungeon, b: BranchId) -> &BTreeMap<RoomPos, Room> {
    d.branch(b).expect("branch").rooms()
}

fn count_exits(rooms: &BTreeMap<RoomPos, Room>, kind: Exit) -> u32 {
    rooms
        .values()
        .flat_map(|r| r.exits.iter())
        .filter(|e| **e == Some(kind))
        .count() as u32
}

/// What the checker records before a walk through an unexplored exit.
struct Pre {
    branch: BranchId,
    from: RoomPos,
    dir: Direction,
    unexplored_before: u32,
    /// Other rooms' unexplored exits into the slot about to be made.
    pointing: Vec<(RoomPos, Direction)>,
    snapshot: Option<BTreeMap<RoomPos, Room>>,
}

/// The checker's own bookkeeping: one-way exits each branch must hold (from conversions it
/// saw), dead ends seen, forced dead ends seen, rooms made.
#[derive(Default)]
struct Checker {
    conversions: BTreeMap<BranchId, u32>,
    rooms_made: u64,
    dead_ends: u64,
    forced_dead_ends: u64,
    one_way_made: u64,
    full_snapshots: bool,
    largest: usize,
}

impl Checker {
    fn pre(&self, d: &Dungeon, branch: BranchId, from: RoomPos, dir: Direction) -> Pre {
        let slot = next(from, dir);
        let map = if is_start(from) && d.branch(branch).is_none() {
            None
        } else {
            Some(rooms(d, branch))
        };
        let mut pointing = Vec::new();
        if let Some(map) = map {
            assert!(!map.contains_key(&slot), "an unexplored exit into a room");
            for side in Direction::ALL {
                let c = next(slot, side);
                if c == from {
                    continue;
                }
                if let Some(room) = map.get(&c)
                    && room.exits[side.opposite().index()] == Some(Exit::Unexplored)
                {
                    pointing.push((c, side.opposite()));
                }
            }
        }
        Pre {
            branch,
            from,
            dir,
            unexplored_before: map.map_or(0, |m| count_exits(m, Exit::Unexplored)),
            pointing,
            snapshot: if self.full_snapshots {
                map.cloned()
            } else {
                None
            },
        }
    }

    /// Every rule about the room just made, then the whole branch and the start room.
    fn made(&mut self, d: &Dungeon, pre: Pre) {
        self.rooms_made += 1;
        self.largest = self.largest.max(rooms(d, pre.branch).len());
        let max = d.settings().max_unexplored;
        let map = rooms(d, pre.branch);
        let slot = next(pre.from, pre.dir);
        let back = pre.dir.opposite();
        let room = map.get(&slot).expect("the room made");
        assert_eq!(room.pos, slot);
        assert!(depth_ok(slot, room.depth), "depth of {slot}");
        assert_eq!(room.back, Some(back));
        assert_eq!(room.exits[back.index()], Some(Exit::TwoWay), "the way back");
        if is_start(pre.from) {
            assert_eq!(d.start().exits[pre.dir.index()], Some(Exit::TwoWay));
            assert_eq!(d.current_branch(pre.dir), Some(pre.branch));
        } else {
            assert_eq!(
                map[&pre.from].exits[pre.dir.index()],
                Some(Exit::TwoWay),
                "the walked exit"
            );
        }
        // One-way exits: exactly the other unexplored exits into this slot.
        for &(c, s) in &pre.pointing {
            assert_eq!(map[&c].exits[s.index()], Some(Exit::OneWay));
            assert_eq!(room.exits[s.opposite().index()], None);
        }
        *self.conversions.entry(pre.branch).or_default() += pre.pointing.len() as u32;
        self.one_way_made += pre.pointing.len() as u64;
        // New exits: unexplored, into empty slots that are not the start.
        let mut new = 0;
        let mut free = 0;
        for side in Direction::ALL {
            if side == back {
                continue;
            }
            let t = next(slot, side);
            let is_free = !is_start(t) && !map.contains_key(&t);
            free += u32::from(is_free);
            match room.exits[side.index()] {
                None => {}
                Some(Exit::Unexplored) => {
                    assert!(is_free, "a new exit into a room or the start");
                    new += 1;
                }
                Some(e) => panic!("a new room with a {e:?} exit besides its way back"),
            }
        }
        let used = u32::from(!is_start(pre.from));
        let after = count_exits(map, Exit::Unexplored);
        assert_eq!(
            after,
            pre.unexplored_before - used - pre.pointing.len() as u32 + new,
            "unexplored exits"
        );
        assert!(after <= max, "{after} unexplored exits > {max}");
        if new == 0 {
            self.dead_ends += 1;
            if after == 0 {
                assert_eq!(free, 0, "a dead end with no unexplored exit left");
                self.forced_dead_ends += 1;
            }
        }
        assert_eq!(room.clear, room.features == 0);
        if room.depth <= 1 {
            assert_eq!(room.features, 0);
        }
        if let Some(snap) = pre.snapshot {
            assert_eq!(map.len(), snap.len() + 1);
            for (pos, old) in &snap {
                let mut want = old.clone();
                if *pos == pre.from {
                    want.exits[pre.dir.index()] = Some(Exit::TwoWay);
                }
                for &(c, s) in &pre.pointing {
                    if c == *pos {
                        want.exits[s.index()] = Some(Exit::OneWay);
                    }
                }
                assert_eq!(&map[pos], &want, "an unrelated room changed");
            }
        }
        self.branch(d, pre.branch);
        self.start(d);
    }

    /// Every rule over one whole branch.
    fn branch(&self, d: &Dungeon, id: BranchId) {
        let b = d.branch(id).expect("branch");
        let max = d.settings().max_unexplored;
        let entrance = b.entrance();
        let first = next(RoomPos::new(0, 0), entrance);
        let map = b.rooms();
        assert!(map.contains_key(&first), "a branch without its first room");
        let mut unexplored = 0;
        let mut one_way = 0;
        for (pos, room) in map {
            assert_eq!(*pos, room.pos);
            assert!(!is_start(*pos), "a room at the start slot");
            assert!(depth_ok(*pos, room.depth));
            assert_eq!(room.clear, room.features == 0);
            let back = room.back.expect("a way back");
            for side in Direction::ALL {
                let Some(e) = room.exits[side.index()] else {
                    continue;
                };
                let t = next(*pos, side);
                if is_start(t) {
                    assert!(
                        *pos == first && side == entrance.opposite(),
                        "into the start"
                    );
                    let want = if b.retired() {
                        Exit::OneWay
                    } else {
                        Exit::TwoWay
                    };
                    assert_eq!(e, want, "the branch's way back to the start");
                    if !b.retired() {
                        assert_eq!(d.current_branch(entrance), Some(id));
                    }
                } else {
                    match e {
                        Exit::Unexplored => assert!(!map.contains_key(&t)),
                        Exit::TwoWay => assert_eq!(
                            map.get(&t).expect("two-way into nothing").exits
                                [side.opposite().index()],
                            Some(Exit::TwoWay)
                        ),
                        Exit::OneWay => assert_eq!(
                            map.get(&t).expect("one-way into nothing").exits
                                [side.opposite().index()],
                            None
                        ),
                    }
                }
                match e {
                    Exit::Unexplored => unexplored += 1,
                    Exit::OneWay => one_way += 1,
                    Exit::TwoWay => {}
                }
                // Locked until clear; the way back always open.
                let state = room.exit_state(side).expect("state");
                if side == back {
                    assert_ne!(state, ExitState::Locked);
                    assert!(matches!(e, Exit::TwoWay | Exit::OneWay));
                } else if !room.clear {
                    assert_eq!(state, ExitState::Locked);
                } else {
                    assert_ne!(state, ExitState::Locked);
                }
            }
        }
        assert!(unexplored <= max);
        assert_eq!(unexplored, b.unexplored());
        let want_one_way = self.conversions.get(&id).copied().unwrap_or(0) + u32::from(b.retired());
        assert_eq!(one_way, want_one_way, "one-way exits out of nowhere");
    }

    /// The start room: (0, 0), depth 0, clear, four exits, two-way exactly into a current
    /// branch's first room.
    fn start(&self, d: &Dungeon) {
        let s = d.start();
        assert!(is_start(s.pos));
        assert_eq!(s.depth, 0);
        assert!(s.clear);
        for dir in Direction::ALL {
            let made = d
                .current_branch(dir)
                .and_then(|b| d.branch(b))
                .is_some_and(|b| !b.retired() && b.room(next(s.pos, dir)).is_some());
            let want = if made { Exit::TwoWay } else { Exit::Unexplored };
            assert_eq!(s.exits[dir.index()], Some(want));
        }
    }

    /// Everything, plus: from every room the start is reachable over open exits (the way back
    /// always open).
    fn all(&self, d: &Dungeon) {
        self.start(d);
        for b in d.branches() {
            self.branch(d, b.id());
            let map = b.rooms();
            // Reverse reachability from the start over walkable exits.
            let mut into: BTreeMap<RoomPos, Vec<RoomPos>> = BTreeMap::new();
            for (pos, room) in map {
                for side in Direction::ALL {
                    if let Some(state) = room.exit_state(side)
                        && matches!(state, ExitState::TwoWay | ExitState::OneWay)
                    {
                        into.entry(next(*pos, side)).or_default().push(*pos);
                    }
                }
            }
            let mut seen = std::collections::BTreeSet::new();
            let mut stack = vec![RoomPos::new(0, 0)];
            while let Some(p) = stack.pop() {
                for q in into.get(&p).into_iter().flatten() {
                    if seen.insert(*q) {
                        stack.push(*q);
                    }
                }
            }
            assert_eq!(
                seen.len(),
                map.len(),
                "a room with no way back to the start"
            );
        }
    }
}

// ---------------------------------------------------------------- the random walker

#[derive(Debug, Clone, Copy, PartialEq)]
enum At {
    Start,
    Room(BranchId, RoomPos),
}

#[derive(Clone)]
struct Walker {
    rng: Pcg64,
    at: At,
    moves: u64,
    /// Chance per 1,000 steps of going straight back to the start.
    home: usize,
    /// Whether it favours unexplored exits.
    curious: bool,
}

impl Walker {
    fn new(seed: u64) -> Self {
        Walker {
            rng: Pcg64::seed_from_u64(seed ^ 0x005E_ED0F_57E9),
            at: At::Start,
            moves: 0,
            home: [1, 5, 20][(seed % 3) as usize],
            curious: seed.is_multiple_of(2),
        }
    }

    fn pick(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n as u32) as usize
    }
}

fn settings_for(seed: u64) -> ExploreSettings {
    let mut rng = Pcg64::seed_from_u64(seed.wrapping_mul(31) ^ 0xABCD);
    ExploreSettings {
        max_unexplored: rng.random_range(1..=6u32),
        branch_timer: u64::from(rng.random_range(20..=2000u32)),
        monsters: true, // the serde default: a Dungeon alone places none
    }
}

/// One step of the walk; with a checker, every rule is checked after every room made.
fn step(d: &mut Dungeon, w: &mut Walker, mut ck: Option<&mut Checker>) {
    match w.at {
        At::Start => {
            if w.pick(10) == 0 {
                w.moves += d.settings().branch_timer;
            }
            let dir = Direction::ALL[w.pick(4)];
            let old = d.current_branch(dir);
            let expiring = old
                .filter(|&b| w.moves - d.branch(b).unwrap().made_at() >= d.settings().branch_timer);
            let old_rooms = expiring.map(|b| rooms(d, b).clone());
            let fresh = old.is_none() || expiring.is_some();
            let pre = ck
                .as_deref()
                .filter(|_| fresh)
                .map(|c| c.pre(d, d.branches().len() as BranchId, RoomPos::new(0, 0), dir));
            let walked = d.enter(dir, w.moves);
            assert_eq!(walked.pos, next(RoomPos::new(0, 0), dir));
            assert_eq!(walked.new_branch, old.is_none() || expiring.is_some());
            if let (Some(b), Some(before)) = (expiring, old_rooms) {
                // The old branch: retired, its way back one-way, its rooms otherwise unchanged.
                let ob = d.branch(b).unwrap();
                assert!(ob.retired());
                assert_ne!(walked.branch, b);
                let first = next(RoomPos::new(0, 0), dir);
                for (pos, room) in &before {
                    let mut want = room.clone();
                    if *pos == first {
                        assert_eq!(want.exits[dir.opposite().index()], Some(Exit::TwoWay));
                        want.exits[dir.opposite().index()] = Some(Exit::OneWay);
                    }
                    assert_eq!(&ob.rooms()[pos], &want);
                }
                assert_eq!(ob.rooms().len(), before.len());
            }
            if walked.made {
                if let (Some(c), Some(pre)) = (ck.as_deref_mut(), pre) {
                    assert_eq!(pre.branch, walked.branch);
                    c.made(d, pre);
                }
            } else {
                assert!(!walked.new_branch);
            }
            w.at = At::Room(walked.branch, walked.pos);
        }
        At::Room(b, pos) => {
            w.moves += 1 + w.pick(8) as u64;
            let r = w.pick(1000);
            if r < w.home {
                // Back to the start (the way back is always open; the checker proves it).
                w.at = At::Start;
                return;
            }
            if r < w.home + 10 {
                d.advance(w.moves);
                return;
            }
            let room = d.room(b, pos).expect("current room").clone();
            if !room.clear && r < 400 {
                d.clear_room(b, pos).unwrap();
                let cleared = d.room(b, pos).unwrap();
                assert!(cleared.clear && cleared.features == 0);
                for side in Direction::ALL {
                    assert_ne!(cleared.exit_state(side), Some(ExitState::Locked));
                }
                return;
            }
            let mut dir = Direction::ALL[w.pick(4)];
            if w.curious && w.pick(2) == 0 {
                // Half the seeds favour unexplored exits, for large branches.
                if let Some(s) = Direction::ALL
                    .into_iter()
                    .find(|s| room.exit_state(*s) == Some(ExitState::Unexplored))
                {
                    dir = s;
                }
            }
            let state = room.exit_state(dir);
            let open = |s: Option<ExitState>| {
                matches!(
                    s,
                    Some(ExitState::TwoWay | ExitState::OneWay | ExitState::Unexplored)
                )
            };
            if !open(state) {
                // A refused walk changes nothing.
                let before = rooms(d, b).len();
                let err = d.walk(b, pos, dir).unwrap_err();
                match state {
                    Some(ExitState::Locked) => assert_eq!(err, WalkError::Locked(dir)),
                    _ => {
                        let into =
                            d.branch(b).unwrap().room(next(pos, dir)).is_some_and(|t| {
                                t.exits[dir.opposite().index()] == Some(Exit::OneWay)
                            });
                        if into {
                            assert_eq!(err, WalkError::OneWayWrongWay(dir));
                        } else {
                            assert_eq!(err, WalkError::NoExit(dir));
                        }
                    }
                }
                assert_eq!(rooms(d, b).len(), before);
                // Then walk one open exit instead.
                let open_dirs: Vec<Direction> = Direction::ALL
                    .into_iter()
                    .filter(|s| open(room.exit_state(*s)))
                    .collect();
                assert!(!open_dirs.is_empty(), "a room with no open exit");
                let dir = open_dirs[w.pick(open_dirs.len())];
                walk_open(d, w, ck, b, pos, dir);
            } else {
                walk_open(d, w, ck, b, pos, dir);
            }
        }
    }
}

fn walk_open(
    d: &mut Dungeon,
    w: &mut Walker,
    ck: Option<&mut Checker>,
    b: BranchId,
    pos: RoomPos,
    dir: Direction,
) {
    let unexplored = d.room(b, pos).unwrap().exit_state(dir) == Some(ExitState::Unexplored);
    let pre = ck
        .as_deref()
        .filter(|_| unexplored)
        .map(|c| c.pre(d, b, pos, dir));
    let walked = d.walk(b, pos, dir).expect("an open exit");
    assert_eq!(walked.made, unexplored);
    assert_eq!(walked.pos, next(pos, dir));
    assert_eq!(walked.branch, b);
    if let (Some(c), Some(pre)) = (ck, pre) {
        c.made(d, pre);
    }
    w.at = if walked.is_start() {
        At::Start
    } else {
        At::Room(b, walked.pos)
    };
}

fn walk(seed: u64, steps: usize, ck: Option<&mut Checker>) -> (Dungeon, Walker) {
    let mut d = Dungeon::new(seed, settings_for(seed)).unwrap();
    let mut w = Walker::new(seed);
    let mut ck = ck;
    for i in 0..steps {
        step(&mut d, &mut w, ck.as_deref_mut());
        if i % 500 == 499
            && let Some(c) = ck.as_deref()
        {
            c.all(&d);
        }
    }
    if let Some(c) = ck.as_deref() {
        c.all(&d);
    }
    (d, w)
}

fn bytes(d: &Dungeon) -> Vec<u8> {
    bincode::serde::encode_to_vec(d, bincode::config::standard()).unwrap()
}

// ---------------------------------------------------------------- the tests

const SEEDS: u64 = 500;
const STEPS: usize = 2_000;

fn checked_walks(seeds: std::ops::Range<u64>) -> Checker {
    let mut total = Checker::default();
    for seed in seeds {
        let mut ck = Checker {
            full_snapshots: true,
            ..Checker::default()
        };
        walk(seed, STEPS, Some(&mut ck));
        total.rooms_made += ck.rooms_made;
        total.dead_ends += ck.dead_ends;
        total.forced_dead_ends += ck.forced_dead_ends;
        total.one_way_made += ck.one_way_made;
        total.largest = total.largest.max(ck.largest);
    }
    total
}

#[test]
fn random_walks_keep_every_rule_first_half() {
    let t = checked_walks(0..SEEDS / 2);
    assert!(t.rooms_made > 10_000 && t.dead_ends > 0 && t.one_way_made > 0);
    eprintln!(
        "rooms {} dead ends {} (forced {}) one-way {} largest branch {}",
        t.rooms_made, t.dead_ends, t.forced_dead_ends, t.one_way_made, t.largest
    );
}

#[test]
fn random_walks_keep_every_rule_second_half() {
    let t = checked_walks(SEEDS / 2..SEEDS);
    assert!(t.rooms_made > 10_000 && t.dead_ends > 0 && t.one_way_made > 0);
}

#[test]
fn walking_back_and_forth_is_free() {
    // Walking an explored exit makes nothing and changes nothing.
    let (mut d, _) = walk(3, 300, None);
    let before = bytes(&d);
    let b = d.current_branch(Direction::Up);
    if let Some(b) = b {
        let first = RoomPos::new(0, 1);
        assert!(d.walk(b, first, Direction::Down).unwrap().is_start());
    }
    assert_eq!(
        d.walk(0, RoomPos::new(0, 0), Direction::Up),
        Err(WalkError::FromStart)
    );
    assert_eq!(
        d.walk(999, RoomPos::new(0, 1), Direction::Up),
        Err(WalkError::UnknownBranch(999))
    );
    assert_eq!(bytes(&d), before);
}

/// The branch's rooms walked back from `pos` to the start, through the ways back.
fn back_to_start(d: &mut Dungeon, b: BranchId, mut pos: RoomPos) {
    while !is_start(pos) {
        let back = d.room(b, pos).unwrap().back.unwrap();
        pos = d.walk(b, pos, back).unwrap().pos;
    }
}

/// Walks `n` rooms deep (or as far as it can), clearing rooms on the way; returns the room
/// reached.
fn wander(d: &mut Dungeon, b: BranchId, mut pos: RoomPos, n: usize) -> RoomPos {
    for _ in 0..n {
        d.clear_room(b, pos).unwrap();
        let room = d.room(b, pos).unwrap();
        let Some(dir) = Direction::ALL
            .into_iter()
            .find(|s| room.exit_state(*s) == Some(ExitState::Unexplored))
        else {
            break;
        };
        pos = d.walk(b, pos, dir).unwrap().pos;
    }
    pos
}

#[test]
fn the_branch_timer_makes_a_new_branch() {
    let settings = ExploreSettings {
        max_unexplored: 4,
        branch_timer: 500,
        monsters: true, // the serde default: a Dungeon alone places none
    };
    let mut d = Dungeon::new(42, settings).unwrap();
    let first = RoomPos::new(0, 1);
    let e = d.enter(Direction::Up, 0);
    assert!(e.new_branch && e.made && e.branch == 0 && e.pos == first);
    let deep = wander(&mut d, 0, first, 6);
    back_to_start(&mut d, 0, deep);
    let old = d.branch(0).unwrap().clone();
    assert!(old.rooms().len() >= 2);

    // Before the timer: the same branch, nothing made.
    let e = d.enter(Direction::Up, 499);
    assert!(!e.new_branch && !e.made && e.branch == 0);
    assert_eq!(d.branch(0).unwrap(), &old);
    // Another start exit has its own branch and timer.
    let e = d.enter(Direction::Right, 450);
    assert!(e.new_branch && e.branch == 1 && e.pos == RoomPos::new(1, 0));
    d.walk(1, e.pos, Direction::Left).unwrap();

    // At the timer: a new branch behind the up exit; the old one retired, way back one-way.
    let e = d.enter(Direction::Up, 500);
    assert!(e.new_branch && e.made && e.branch == 2 && e.pos == first);
    assert_eq!(d.current_branch(Direction::Up), Some(2));
    assert_eq!(d.current_branch(Direction::Right), Some(1));
    let retired = d.branch(0).unwrap();
    assert!(retired.retired());
    assert_eq!(retired.rooms().len(), old.rooms().len());
    for (pos, room) in old.rooms() {
        let mut want = room.clone();
        if *pos == first {
            want.exits[Direction::Down.index()] = Some(Exit::OneWay);
        }
        assert_eq!(&retired.rooms()[pos], &want);
    }
    assert_eq!(
        retired.room(first).unwrap().exit_state(Direction::Down),
        Some(ExitState::OneWay)
    );
    // The old branch can still be left to the start (one-way), never re-entered.
    assert!(d.walk(0, first, Direction::Down).unwrap().is_start());
    assert_eq!(d.enter(Direction::Up, 600).branch, 2);
    // The new branch's first room is its own: new exits, a way back two-way.
    let fresh = d.branch(2).unwrap();
    assert_eq!(fresh.rooms().len(), 1);
    assert_eq!(
        fresh.room(first).unwrap().exit(Direction::Down),
        Some(Exit::TwoWay)
    );
    // The right branch expires on its own clock (made at 450).
    d.advance(949);
    assert_eq!(d.current_branch(Direction::Right), Some(1));
    d.advance(950);
    assert_eq!(d.current_branch(Direction::Right), None);
    assert!(d.branch(1).unwrap().retired());
    assert_eq!(
        d.start().exits[Direction::Right.index()],
        Some(Exit::Unexplored)
    );
    let mut ck = Checker::default();
    // Conversions are unknown to this fresh checker; count them from the state instead.
    for b in d.branches() {
        let ones = count_exits(b.rooms(), Exit::OneWay) - u32::from(b.retired());
        ck.conversions.insert(b.id(), ones);
    }
    ck.all(&d);
}

#[test]
fn the_same_seed_and_walk_give_the_same_dungeon() {
    for seed in [0, 1, 99, 123_456_789, u64::MAX] {
        let (a, wa) = walk(seed, 1_500, None);
        let (b, wb) = walk(seed, 1_500, None);
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        assert_eq!(bytes(&a), bytes(&b));
        assert_eq!(wa.at, wb.at);
        assert_eq!(a, b);
    }
    let (a, _) = walk(5, 1_000, None);
    let (b, _) = walk(6, 1_000, None);
    assert_ne!(bytes(&a), bytes(&b));
}

#[test]
fn a_save_round_trip_continues_the_walk_identically() {
    for seed in 0..40u64 {
        let split = 50 + (seed as usize * 37) % 900;
        let (mut d, mut w) = walk(seed, split, None);
        let saved = bytes(&d);
        let (mut loaded, _): (Dungeon, usize) =
            bincode::serde::decode_from_slice(&saved, bincode::config::standard()).unwrap();
        assert_eq!(loaded, d);
        let mut w2 = w.clone();
        for _ in split..1_000 {
            step(&mut d, &mut w, None);
            step(&mut loaded, &mut w2, None);
        }
        assert_eq!(bytes(&d), bytes(&loaded));
        // And the split changes nothing: the same as walking without stopping.
        let (straight, _) = walk(seed, 1_000, None);
        assert_eq!(bytes(&straight), bytes(&loaded));
    }
}
