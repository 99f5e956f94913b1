//! Java parity (docs/java-parity.md): the Tileset table value by value, `TETile` and `toString`, the
//! renderer geometry and RandomUtils.

use byog_tile_engine::random_utils::{self, RandomUtilsError};
use byog_tile_engine::{Geometry, Pos, Rgb, TETile, TILE_SIZE, Tile, Tileset, World};
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// docs/java-parity.md, "Tileset (exact values, read from the compiled sp18 skeleton)".
/// Constant name, tile, character, text RGB, background RGB, description.
type Row = (&'static str, TETile, char, [u8; 3], [u8; 3], &'static str);

const TABLE: &[Row] = &[
    (
        "PLAYER",
        Tileset::PLAYER,
        '\u{40}',
        [255, 255, 255],
        [0, 0, 0],
        "player",
    ),
    (
        "WALL",
        Tileset::WALL,
        '\u{23}',
        [216, 128, 128],
        [64, 64, 64],
        "wall",
    ),
    (
        "FLOOR",
        Tileset::FLOOR,
        '\u{B7}',
        [128, 192, 128],
        [0, 0, 0],
        "floor",
    ),
    (
        "NOTHING",
        Tileset::NOTHING,
        '\u{20}',
        [0, 0, 0],
        [0, 0, 0],
        "nothing",
    ),
    (
        "GRASS",
        Tileset::GRASS,
        '\u{22}',
        [0, 255, 0],
        [0, 0, 0],
        "grass",
    ),
    (
        "WATER",
        Tileset::WATER,
        '\u{2248}',
        [0, 0, 255],
        [0, 0, 0],
        "water",
    ),
    (
        "FLOWER",
        Tileset::FLOWER,
        '\u{2740}',
        [255, 0, 255],
        [255, 175, 175],
        "flower",
    ),
    (
        "LOCKED_DOOR",
        Tileset::LOCKED_DOOR,
        '\u{2588}',
        [255, 200, 0],
        [0, 0, 0],
        "locked door",
    ),
    (
        "UNLOCKED_DOOR",
        Tileset::UNLOCKED_DOOR,
        '\u{25A2}',
        [255, 200, 0],
        [0, 0, 0],
        "unlocked door",
    ),
    (
        "SAND",
        Tileset::SAND,
        '\u{2592}',
        [255, 255, 0],
        [0, 0, 0],
        "sand",
    ),
    (
        "MOUNTAIN",
        Tileset::MOUNTAIN,
        '\u{25B2}',
        [128, 128, 128],
        [0, 0, 0],
        "mountain",
    ),
    (
        "TREE",
        Tileset::TREE,
        '\u{2660}',
        [0, 255, 0],
        [0, 0, 0],
        "tree",
    ),
];

#[test]
fn tileset_matches_the_sp18_skeleton_value_by_value() {
    for (name, tile, c, text, background, description) in TABLE {
        assert_eq!(tile.character(), *c, "{name} character");
        assert_eq!(
            tile.text_color(),
            Rgb::new(text[0], text[1], text[2]),
            "{name} text colour"
        );
        assert_eq!(
            tile.background_color(),
            Rgb::new(background[0], background[1], background[2]),
            "{name} background colour"
        );
        assert_eq!(tile.description(), *description, "{name} description");
        assert_eq!(tile.filepath(), None, "{name} has no image");
    }
}

#[test]
fn avatar_is_an_alias_of_player() {
    assert_eq!(Tileset::AVATAR, Tileset::PLAYER);
}

#[test]
fn every_tile_kind_has_a_unique_character_and_round_trips() {
    let mut chars: Vec<char> = Tile::ALL.iter().map(|t| t.character()).collect();
    chars.sort_unstable();
    chars.dedup();
    assert_eq!(chars.len(), Tile::ALL.len());
    for t in Tile::ALL {
        assert_eq!(Tile::from_char(t.character()), Some(t));
        assert_eq!(Tile::from_id(t.id()), Some(t));
    }
    assert_eq!(Tile::from_id(Tile::COUNT as u8), None);
    // The compact ids look up the same values as the Tileset constants.
    assert_eq!(Tile::Wall.tetile(), &Tileset::WALL);
    assert_eq!(Tile::LockedDoor.tetile(), &Tileset::LOCKED_DOOR);
    assert_eq!(std::mem::size_of::<Tile>(), 1, "at most 2 bytes a tile");
}

#[test]
fn to_string_prints_rows_top_down_each_ended_by_newline() {
    // A 3 × 2 world: (0,0) bottom-left.
    let mut world = World::new(3, 2);
    world.set(Pos::new(0, 0), Tile::Wall);
    world.set(Pos::new(1, 0), Tile::Floor);
    world.set(Pos::new(2, 1), Tile::Player);
    world.set(Pos::new(0, 1), Tile::Flower);
    assert_eq!(TETile::to_string(&world), "❀ @\n#· \n");
    assert!(!TETile::to_string(&world).contains('\r'));
    assert_eq!(World::from_text("❀ @\n#· \n"), Some(world.clone()));
    assert_eq!(TETile::copy_of(&world), world);
}

#[test]
fn tetile_constructors() {
    let t = TETile::new('x', Rgb::new(1, 2, 3), Rgb::new(4, 5, 6), "thing")
        .with_filepath("img/thing.png");
    assert_eq!(t.character(), 'x');
    assert_eq!(t.description(), "thing");
    assert_eq!(t.filepath(), Some("img/thing.png"));
}

#[test]
fn color_variant_shifts_text_colour_within_bounds_and_clamps() {
    let mut rng = Pcg64::seed_from_u64(7);
    let mut seen_low = false;
    let mut seen_high = false;
    for _ in 0..2000 {
        let v = TETile::color_variant(&Tileset::WALL, 10, 0, 30, &mut rng);
        let c = v.text_color();
        assert!((206..=226).contains(&c.r), "red {}", c.r);
        assert_eq!(c.g, 128, "dg = 0 leaves green alone");
        assert!((98..=158).contains(&c.b), "blue {}", c.b);
        seen_low |= c.r == 206;
        seen_high |= c.r == 226;
        assert_eq!(v.background_color(), Tileset::WALL.background_color());
        assert_eq!(v.character(), '#');
        assert_eq!(v.description(), "wall");
    }
    assert!(seen_low && seen_high, "both ends of [-d, d] are reachable");
    // 255 + up to 100 clamps to 255; 0 - up to 100 clamps to 0.
    for _ in 0..200 {
        let v = TETile::color_variant(&Tileset::PLAYER, 100, 100, 100, &mut rng);
        let w = TETile::color_variant(&Tileset::NOTHING, 100, 100, 100, &mut rng);
        assert!(v.text_color().r >= 155 && w.text_color().r <= 100);
    }
}

#[test]
fn renderer_geometry_is_16_pixel_cells_from_the_bottom_left() {
    assert_eq!(TILE_SIZE, 16);
    // initialize(80, 32, 0, 0): an 80 × 30 world with 2 HUD rows above it.
    let g = Geometry::with_offset(80, 32, 0, 0);
    assert_eq!(g.window_size(), (1280, 512));
    let fit = g.fit(1280.0, 512.0);
    assert_eq!(fit.scale, 1.0);
    // World tile (0, 0) is the bottom-left cell: screen pixels x 0..16, y 496..512.
    assert_eq!(g.cell_rect(fit, 0, 0), (0.0, 496.0, 16.0));
    assert_eq!(g.tile_at(fit, 0.0, 511.0, 80, 30), Some(Pos::new(0, 0)));
    assert_eq!(
        g.tile_at(fit, 1279.0, 512.0 - 30.0 * 16.0, 80, 30),
        Some(Pos::new(79, 29))
    );
    // The HUD rows above the world are not world tiles.
    assert_eq!(g.tile_at(fit, 10.0, 10.0, 80, 30), None);
    assert_eq!(g.tile_at(fit, -1.0, 500.0, 80, 30), None);
    // With offsets: tile (x, y) sits in cell (x + 2, y + 3).
    let g = Geometry::with_offset(10, 10, 2, 3);
    let fit = g.fit(160.0, 160.0);
    let (x, y, _) = g.cell_rect(fit, 2, 3);
    assert_eq!(g.tile_at(fit, x + 1.0, y + 1.0, 5, 5), Some(Pos::new(0, 0)));
    // A window twice the size scales every cell to 32 pixels.
    let g = Geometry::new(80, 32);
    let fit = g.fit(2560.0, 1024.0);
    assert_eq!(fit.scale, 2.0);
    assert_eq!(g.tile_at(fit, 40.0, 1023.0, 80, 30), Some(Pos::new(1, 0)));
}

#[test]
fn random_utils_behave_like_stdrandom() {
    let mut rng = Pcg64::seed_from_u64(61);
    for _ in 0..1000 {
        let u = random_utils::uniform(&mut rng);
        assert!((0.0..1.0).contains(&u));
        let i = random_utils::uniform_int(&mut rng, 7).unwrap();
        assert!((0..7).contains(&i));
        let j = random_utils::uniform_range(&mut rng, -3, 4).unwrap();
        assert!((-3..4).contains(&j));
        let f = random_utils::uniform_range_f64(&mut rng, 2.0, 2.5).unwrap();
        assert!((2.0..2.5).contains(&f));
        assert!(!random_utils::bernoulli(&mut rng, 0.0).unwrap());
        assert!(random_utils::bernoulli(&mut rng, 1.0).unwrap());
        assert_eq!(
            random_utils::discrete(&mut rng, &[0.0, 1.0, 0.0]).unwrap(),
            1
        );
    }
    assert!(matches!(
        random_utils::uniform_int(&mut rng, 0),
        Err(RandomUtilsError::EmptyRange(_))
    ));
    assert!(random_utils::uniform_range(&mut rng, 5, 5).is_err());
    assert!(random_utils::uniform_range_f64(&mut rng, 1.0, f64::NAN).is_err());
    assert!(random_utils::bernoulli(&mut rng, 1.5).is_err());
    assert!(random_utils::discrete(&mut rng, &[0.5, 0.4]).is_err());
    assert!(random_utils::discrete(&mut rng, &[1.5, -0.5]).is_err());

    let n = 20_000;
    let mean: f64 = (0..n)
        .map(|_| random_utils::gaussian(&mut rng))
        .sum::<f64>()
        / n as f64;
    assert!(mean.abs() < 0.05, "gaussian mean {mean}");
    let m: f64 = (0..n)
        .map(|_| random_utils::gaussian_with(&mut rng, 10.0, 2.0))
        .sum::<f64>()
        / n as f64;
    assert!((m - 10.0).abs() < 0.1, "gaussian_with mean {m}");

    let mut p = random_utils::permutation(&mut rng, 50);
    p.sort_unstable();
    assert_eq!(p, (0..50).collect::<Vec<u32>>());
    let mut items = [1, 2, 3, 4, 5, 6, 7, 8];
    random_utils::shuffle(&mut rng, &mut items);
    let mut sorted = items;
    sorted.sort_unstable();
    assert_eq!(sorted, [1, 2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn random_utils_are_deterministic_per_seed() {
    let draw = |seed| {
        let mut rng = Pcg64::seed_from_u64(seed);
        (0..20)
            .map(|_| random_utils::uniform_int(&mut rng, 1000).unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(draw(5), draw(5));
    assert_ne!(draw(5), draw(6));
}
