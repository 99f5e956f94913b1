//! Field of view (docs/sight.md): `byog_tile_engine::fov` against a slow reference, a direct
//! transcription of the pseudocode of Albert Ford's "Symmetric Shadowcasting" (2021) with
//! exact rational slopes and recursion, on 1,000+ random worlds and positions; and the
//! properties the article claims, checked directly: symmetry between floor tiles, expansive
//! walls, no blind corners, and the light radius.

use byog_tile_engine::fov::{self, Visibility};
use byog_tile_engine::{Map, Pos, Tile, World};
use byog_worlds::generator::{self, GeneratorSettings};
use rand::SeedableRng;
use rand_pcg::Pcg64;

use crate::common;
use common::Rng;

// ---------------------------------------------------------------------------------------------
// The reference: the article's pseudocode, transcribed
// ---------------------------------------------------------------------------------------------

/// An exact fraction with a positive denominator.
#[derive(Debug, Clone, Copy)]
struct Fraction {
    n: i64,
    d: i64,
}

impl Fraction {
    fn new(n: i64, d: i64) -> Fraction {
        if d < 0 {
            Fraction { n: -n, d: -d }
        } else {
            Fraction { n, d }
        }
    }
    fn times(self, k: i64) -> Fraction {
        Fraction::new(self.n * k, self.d)
    }
}

/// `math.floor(n + 0.5)`.
fn round_ties_up(f: Fraction) -> i64 {
    (2 * f.n + f.d).div_euclid(2 * f.d)
}

/// `math.ceil(n - 0.5)`.
fn round_ties_down(f: Fraction) -> i64 {
    -((-(2 * f.n - f.d)).div_euclid(2 * f.d))
}

/// `a <= b` for fractions.
fn le(a: Fraction, b: Fraction) -> bool {
    a.n * b.d <= b.n * a.d
}

#[derive(Clone, Copy)]
struct Quadrant {
    cardinal: u8,
    ox: i32,
    oy: i32,
}

impl Quadrant {
    /// The article's `transform`, in its coordinates (north is y − 1 on screen); here y is
    /// up, so north is y + 1.
    fn transform(&self, (row, col): (i64, i64)) -> (i32, i32) {
        let (row, col) = (row as i32, col as i32);
        match self.cardinal {
            0 => (self.ox + col, self.oy + row), // north
            2 => (self.ox + col, self.oy - row), // south
            1 => (self.ox + row, self.oy + col), // east
            _ => (self.ox - row, self.oy + col), // west
        }
    }
}

#[derive(Clone, Copy)]
struct Row {
    depth: i64,
    start_slope: Fraction,
    end_slope: Fraction,
}

impl Row {
    fn tiles(&self) -> Vec<(i64, i64)> {
        let min_col = round_ties_up(self.start_slope.times(self.depth));
        let max_col = round_ties_down(self.end_slope.times(self.depth));
        (min_col..=max_col).map(|col| (self.depth, col)).collect()
    }
    fn next(&self) -> Row {
        Row {
            depth: self.depth + 1,
            ..*self
        }
    }
}

fn slope((row_depth, col): (i64, i64)) -> Fraction {
    Fraction::new(2 * col - 1, 2 * row_depth)
}

fn is_symmetric(row: &Row, (_, col): (i64, i64)) -> bool {
    le(row.start_slope.times(row.depth), Fraction::new(col, 1))
        && le(Fraction::new(col, 1), row.end_slope.times(row.depth))
}

/// The article's `compute_fov`, with the light radius as this crate defines it: rows deeper
/// than the radius are not scanned and tiles beyond it (Euclidean) are not revealed.
fn reference(world: &World, origin: Pos, radius: i64) -> Vec<bool> {
    let (w, h) = (world.width() as i32, world.height() as i32);
    let mut seen = vec![false; (w * h) as usize];
    let inside = |x: i32, y: i32| x >= 0 && y >= 0 && x < w && y < h;
    let blocking = |x: i32, y: i32| !inside(x, y) || world.tile(Pos::new(x, y)).blocks_sight();
    let mut mark = |x: i32, y: i32| {
        let (dx, dy) = (i64::from(x - origin.x), i64::from(y - origin.y));
        if inside(x, y) && dx * dx + dy * dy <= radius * radius {
            seen[(y * w + x) as usize] = true;
        }
    };
    mark(origin.x, origin.y);
    for cardinal in 0..4 {
        let q = Quadrant {
            cardinal,
            ox: origin.x,
            oy: origin.y,
        };
        fn scan(
            row: Row,
            q: Quadrant,
            radius: i64,
            blocking: &dyn Fn(i32, i32) -> bool,
            mark: &mut dyn FnMut(i32, i32),
        ) {
            if row.depth > radius {
                return;
            }
            let mut row = row;
            let is_wall = |t: Option<(i64, i64)>| {
                t.is_some_and(|t| {
                    let (x, y) = q.transform(t);
                    blocking(x, y)
                })
            };
            let is_floor = |t: Option<(i64, i64)>| {
                t.is_some_and(|t| {
                    let (x, y) = q.transform(t);
                    !blocking(x, y)
                })
            };
            let mut prev_tile = None;
            for tile in row.tiles() {
                if is_wall(Some(tile)) || is_symmetric(&row, tile) {
                    let (x, y) = q.transform(tile);
                    mark(x, y);
                }
                if is_wall(prev_tile) && is_floor(Some(tile)) {
                    row.start_slope = slope(tile);
                }
                if is_floor(prev_tile) && is_wall(Some(tile)) {
                    let mut next_row = row.next();
                    next_row.end_slope = slope(tile);
                    scan(next_row, q, radius, blocking, mark);
                }
                prev_tile = Some(tile);
            }
            if is_floor(prev_tile) {
                scan(row.next(), q, radius, blocking, mark);
            }
        }
        let first = Row {
            depth: 1,
            start_slope: Fraction::new(-1, 1),
            end_slope: Fraction::new(1, 1),
        };
        scan(first, q, radius, &blocking, &mut mark);
    }
    seen
}

// ---------------------------------------------------------------------------------------------
// Worlds and helpers
// ---------------------------------------------------------------------------------------------

/// A world: a generated rooms-and-mazes one, or noise (walls with some density) for the
/// shapes a generator never makes (diagonal gaps, lone pillars).
fn random_world(rng: &mut Rng, k: u64) -> World {
    if k.is_multiple_of(2) {
        let w = 7 + rng.below(60) as usize;
        let h = 7 + rng.below(30) as usize;
        let mut g = Pcg64::seed_from_u64(rng.next());
        generator::generate(&mut g, w, h, &GeneratorSettings::default())
            .unwrap()
            .world
    } else {
        let (w, h) = (3 + rng.below(30) as usize, 3 + rng.below(20) as usize);
        let density = rng.below(60);
        let tiles = (0..w * h)
            .map(|_| {
                if rng.below(100) < density {
                    Tile::Wall
                } else {
                    Tile::Floor
                }
            })
            .collect();
        World::from_tiles(w, h, tiles).unwrap()
    }
}

fn floors(world: &World) -> Vec<Pos> {
    (0..world.tiles().len())
        .map(|i| world.pos_of(i))
        .filter(|&p| !world.blocks_sight(p))
        .collect()
}

fn visibility(world: &World, origin: Pos, radius: u32) -> Visibility {
    let mut v = Visibility::default();
    v.update(world, origin, radius);
    v
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[test]
fn the_fast_field_of_view_equals_the_articles_algorithm() {
    let mut rng = Rng(0xF0F0);
    let mut compared = 0;
    for k in 0..1200u64 {
        let world = random_world(&mut rng, k);
        let floors = floors(&world);
        if floors.is_empty() {
            continue;
        }
        for _ in 0..3 {
            let origin = floors[rng.below(floors.len() as u64) as usize];
            let radius = [1, 2, 5, 8, 12, 100][rng.below(6) as usize];
            let fast = visibility(&world, origin, radius);
            let slow = reference(&world, origin, i64::from(radius));
            let fast: Vec<bool> = world
                .rect()
                .positions()
                .map(|p| fast.is_visible(p))
                .collect();
            assert_eq!(
                fast, slow,
                "world {k} from {origin} radius {radius}:\n{world}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 3000, "{compared}");
}

#[test]
fn floor_tiles_see_each_other_symmetrically() {
    let mut rng = Rng(0x5117);
    for k in 0..300u64 {
        let world = random_world(&mut rng, k);
        let floors = floors(&world);
        if floors.len() < 2 {
            continue;
        }
        let radius = [3, 6, 10, 50][rng.below(4) as usize];
        // Every pair among a sample of floor tiles.
        let sample: Vec<Pos> = (0..12)
            .map(|_| floors[rng.below(floors.len() as u64) as usize])
            .collect();
        let views: Vec<Visibility> = sample
            .iter()
            .map(|&p| visibility(&world, p, radius))
            .collect();
        for (i, &a) in sample.iter().enumerate() {
            for (j, &b) in sample.iter().enumerate() {
                assert_eq!(
                    views[i].is_visible(b),
                    views[j].is_visible(a),
                    "world {k}: {a} and {b} at radius {radius}\n{world}"
                );
            }
        }
    }
}

#[test]
fn every_wall_of_a_convex_room_is_seen_from_anywhere_in_it() {
    // Expansive walls: rectangular rooms of every small size, from every floor tile.
    for w in 3..=12 {
        for h in 3..=9 {
            let mut world = World::filled(w, h, Tile::Wall);
            for y in 1..h - 1 {
                for x in 1..w - 1 {
                    world.set(Pos::new(x as i32, y as i32), Tile::Floor);
                }
            }
            for origin in floors(&world) {
                let v = visibility(&world, origin, 100);
                for i in 0..world.tiles().len() {
                    let p = world.pos_of(i);
                    assert!(v.is_visible(p), "{w}x{h} room from {origin}: {p} unseen");
                }
            }
        }
    }
}

#[test]
fn there_are_no_blind_corners() {
    // A corridor turning a corner (y up; the text prints the top row first):
    //   ######   y = 5
    //   ·····#   y = 4: the corridor round the corner, x = 0..4
    //   ####·#   y = 3: (4, 3) is next to the corner's wall (3, 3)
    //      #·#
    //      #·#   y = 1
    //      ###
    // Standing next to the corner, the tiles just round it are seen (the wall does not hide
    // them, as it would with a plain shadowcaster that ignores the corner's far edge).
    let text = concat!(
        "######\n", //
        "·····#\n", //
        "####·#\n", //
        "   #·#\n", //
        "   #·#\n", //
        "   ###\n",
    );
    let world = World::from_text(text).unwrap();
    let v = visibility(&world, Pos::new(4, 3), 100);
    assert!(v.is_visible(Pos::new(4, 4)), "the bend");
    assert!(v.is_visible(Pos::new(3, 4)), "one round the corner");
    assert!(v.is_visible(Pos::new(2, 4)), "two round the corner");
    assert!(v.is_visible(Pos::new(3, 3)), "the corner's wall");
    // Symmetric: from round the corner, the tile next to it is seen.
    let back = visibility(&world, Pos::new(2, 4), 100);
    assert!(back.is_visible(Pos::new(4, 3)));
    // Farther down the corridor, the corner hides what is round it.
    let far = visibility(&world, Pos::new(4, 1), 100);
    assert!(far.is_visible(Pos::new(4, 4)) && !far.is_visible(Pos::new(2, 4)));
}

#[test]
fn nothing_beyond_the_radius_is_seen_and_everything_within_an_open_field_is() {
    let world = World::filled(41, 41, Tile::Floor);
    let origin = Pos::new(20, 20);
    for radius in 0..=20u32 {
        let v = visibility(&world, origin, radius);
        for i in 0..world.tiles().len() {
            let p = world.pos_of(i);
            let (dx, dy) = (i64::from(p.x - 20), i64::from(p.y - 20));
            let inside = dx * dx + dy * dy <= i64::from(radius * radius);
            assert_eq!(v.is_visible(p), inside, "{p} at radius {radius}");
        }
    }
    // Outside the map, nothing is revealed and nothing panics.
    let mut revealed = 0;
    fov::compute(&world, Pos::new(-1, 3), 5, &mut |_| revealed += 1);
    assert_eq!(revealed, 0);
    let v = visibility(&world, Pos::new(0, 0), 3);
    assert!(v.is_visible(Pos::new(0, 3)) && !v.is_visible(Pos::new(-1, 0)));
}
