//! The `Tileset` table (Java `byog.TileEngine.Tileset`) and the compact [`Tile`] id the world
//! stores.

use super::tetile::{Rgb, TETile};

/// The standard tiles, with the exact values of the compiled CS 61B sp18 skeleton
/// (`docs/java-parity.md`).
pub struct Tileset;

const BLACK: Rgb = Rgb::new(0, 0, 0);

impl Tileset {
    /// `@`, the avatar.
    pub const PLAYER: TETile = TETile::new_static('@', Rgb::new(255, 255, 255), BLACK, "player");
    /// The sp21 BYOW name of [`Tileset::PLAYER`], so ported code compiles.
    pub const AVATAR: TETile = Tileset::PLAYER;
    /// `#`, rock that touches open ground.
    pub const WALL: TETile =
        TETile::new_static('#', Rgb::new(216, 128, 128), Rgb::new(64, 64, 64), "wall");
    /// `·` (U+00B7), walkable ground.
    pub const FLOOR: TETile = TETile::new_static('·', Rgb::new(128, 192, 128), BLACK, "floor");
    /// ` `, outside the dungeon.
    pub const NOTHING: TETile = TETile::new_static(' ', BLACK, BLACK, "nothing");
    /// `"`.
    pub const GRASS: TETile = TETile::new_static('"', Rgb::new(0, 255, 0), BLACK, "grass");
    /// `≈` (U+2248).
    pub const WATER: TETile = TETile::new_static('≈', Rgb::new(0, 0, 255), BLACK, "water");
    /// `❀` (U+2740).
    pub const FLOWER: TETile = TETile::new_static(
        '❀',
        Rgb::new(255, 0, 255),
        Rgb::new(255, 175, 175),
        "flower",
    );
    /// `█` (U+2588), the exit before the avatar reaches it.
    pub const LOCKED_DOOR: TETile =
        TETile::new_static('█', Rgb::new(255, 200, 0), BLACK, "locked door");
    /// `▢` (U+25A2), the exit once reached.
    pub const UNLOCKED_DOOR: TETile =
        TETile::new_static('▢', Rgb::new(255, 200, 0), BLACK, "unlocked door");
    /// `▒` (U+2592).
    pub const SAND: TETile = TETile::new_static('▒', Rgb::new(255, 255, 0), BLACK, "sand");
    /// `▲` (U+25B2).
    pub const MOUNTAIN: TETile =
        TETile::new_static('▲', Rgb::new(128, 128, 128), BLACK, "mountain");
    /// `♠` (U+2660).
    pub const TREE: TETile = TETile::new_static('♠', Rgb::new(0, 255, 0), BLACK, "tree");

    // Not in the sp18 skeleton: the features of a run (`docs/runs.md`), after
    // Dungeon Upkeeper (2022). Hollow shapes are the ones the upkeeper still has to handle.

    /// `◇` (U+25C7), a chest the adventurer emptied: step on it to refill it.
    pub const CHEST_EMPTY: TETile =
        TETile::new_static('◇', Rgb::new(225, 150, 70), BLACK, "empty chest");
    /// `◆` (U+25C6), a refilled chest.
    pub const CHEST_FULL: TETile =
        TETile::new_static('◆', Rgb::new(255, 200, 60), BLACK, "full chest");
    /// `△` (U+25B3), a trap the adventurer set off: step on it to rearm it.
    pub const TRAP_SPRUNG: TETile =
        TETile::new_static('△', Rgb::new(180, 180, 190), BLACK, "sprung trap");
    /// `▴` (U+25B4), an armed trap: stepping on it springs it on the upkeeper (one health).
    pub const TRAP_ARMED: TETile =
        TETile::new_static('▴', Rgb::new(230, 70, 60), BLACK, "armed trap");

    // Not in the sp18 skeleton: the exits of an exploration (`docs/explore.md`),
    // drawn on the last corridor tile of a room slot, where the avatar crosses into the next
    // slot. A two-way exit is plain floor; a locked one is [`Tileset::LOCKED_DOOR`].

    /// `<`, the start room's way up: walking into it ends the exploration and banks the score.
    pub const WAY_UP: TETile = TETile::new_static('<', Rgb::new(120, 220, 255), BLACK, "way up");
    /// `+`, an unexplored exit: walking through it makes the room behind it.
    pub const EXIT_UNEXPLORED: TETile =
        TETile::new_static('+', Rgb::new(200, 160, 90), BLACK, "unexplored exit");
    /// `↑` (U+2191), a one-way exit up: it can be walked up only.
    pub const ONE_WAY_UP: TETile =
        TETile::new_static('↑', Rgb::new(170, 170, 255), BLACK, "one-way exit up");
    /// `→` (U+2192), a one-way exit to the right.
    pub const ONE_WAY_RIGHT: TETile =
        TETile::new_static('→', Rgb::new(170, 170, 255), BLACK, "one-way exit right");
    /// `↓` (U+2193), a one-way exit down.
    pub const ONE_WAY_DOWN: TETile =
        TETile::new_static('↓', Rgb::new(170, 170, 255), BLACK, "one-way exit down");
    /// `←` (U+2190), a one-way exit to the left.
    pub const ONE_WAY_LEFT: TETile =
        TETile::new_static('←', Rgb::new(170, 170, 255), BLACK, "one-way exit left");

    // Not in the sp18 skeleton: an exploration's monsters (`docs/monsters.md`), one letter
    // each, in bright colours apart from the features' and the floor's.

    /// `r`, a rat.
    pub const RAT: TETile = TETile::new_static('r', Rgb::new(210, 170, 120), BLACK, "rat");
    /// `b`, a bat (fast).
    pub const BAT: TETile = TETile::new_static('b', Rgb::new(200, 140, 255), BLACK, "bat");
    /// `g`, a goblin.
    pub const GOBLIN: TETile = TETile::new_static('g', Rgb::new(130, 230, 90), BLACK, "goblin");
    /// `z`, a zombie (slow).
    pub const ZOMBIE: TETile = TETile::new_static('z', Rgb::new(150, 210, 190), BLACK, "zombie");
    /// `o`, an orc.
    pub const ORC: TETile = TETile::new_static('o', Rgb::new(255, 120, 60), BLACK, "orc");
    /// `T`, a troll.
    pub const TROLL: TETile = TETile::new_static('T', Rgb::new(80, 220, 230), BLACK, "troll");
}

/// One world cell: a 1-byte id of a [`Tileset`] entry. The world stores these, so a world of
/// `w × h` tiles takes `w × h` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
#[repr(u8)]
pub enum Tile {
    /// [`Tileset::NOTHING`].
    #[default]
    Nothing = 0,
    /// [`Tileset::WALL`].
    Wall = 1,
    /// [`Tileset::FLOOR`].
    Floor = 2,
    /// [`Tileset::PLAYER`].
    Player = 3,
    /// [`Tileset::GRASS`].
    Grass = 4,
    /// [`Tileset::WATER`].
    Water = 5,
    /// [`Tileset::FLOWER`].
    Flower = 6,
    /// [`Tileset::LOCKED_DOOR`].
    LockedDoor = 7,
    /// [`Tileset::UNLOCKED_DOOR`].
    UnlockedDoor = 8,
    /// [`Tileset::SAND`].
    Sand = 9,
    /// [`Tileset::MOUNTAIN`].
    Mountain = 10,
    /// [`Tileset::TREE`].
    Tree = 11,
    /// [`Tileset::CHEST_EMPTY`].
    ChestEmpty = 12,
    /// [`Tileset::CHEST_FULL`].
    ChestFull = 13,
    /// [`Tileset::TRAP_SPRUNG`].
    TrapSprung = 14,
    /// [`Tileset::TRAP_ARMED`].
    TrapArmed = 15,
    /// [`Tileset::WAY_UP`].
    WayUp = 16,
    /// [`Tileset::EXIT_UNEXPLORED`].
    ExitUnexplored = 17,
    /// [`Tileset::ONE_WAY_UP`].
    OneWayUp = 18,
    /// [`Tileset::ONE_WAY_RIGHT`].
    OneWayRight = 19,
    /// [`Tileset::ONE_WAY_DOWN`].
    OneWayDown = 20,
    /// [`Tileset::ONE_WAY_LEFT`].
    OneWayLeft = 21,
    /// [`Tileset::RAT`].
    Rat = 22,
    /// [`Tileset::BAT`].
    Bat = 23,
    /// [`Tileset::GOBLIN`].
    Goblin = 24,
    /// [`Tileset::ZOMBIE`].
    Zombie = 25,
    /// [`Tileset::ORC`].
    Orc = 26,
    /// [`Tileset::TROLL`].
    Troll = 27,
}

/// The `TETile` of each [`Tile`], indexed by its id.
static TILESET: [TETile; Tile::COUNT] = [
    Tileset::NOTHING,
    Tileset::WALL,
    Tileset::FLOOR,
    Tileset::PLAYER,
    Tileset::GRASS,
    Tileset::WATER,
    Tileset::FLOWER,
    Tileset::LOCKED_DOOR,
    Tileset::UNLOCKED_DOOR,
    Tileset::SAND,
    Tileset::MOUNTAIN,
    Tileset::TREE,
    Tileset::CHEST_EMPTY,
    Tileset::CHEST_FULL,
    Tileset::TRAP_SPRUNG,
    Tileset::TRAP_ARMED,
    Tileset::WAY_UP,
    Tileset::EXIT_UNEXPLORED,
    Tileset::ONE_WAY_UP,
    Tileset::ONE_WAY_RIGHT,
    Tileset::ONE_WAY_DOWN,
    Tileset::ONE_WAY_LEFT,
    Tileset::RAT,
    Tileset::BAT,
    Tileset::GOBLIN,
    Tileset::ZOMBIE,
    Tileset::ORC,
    Tileset::TROLL,
];

impl Tile {
    /// How many tile kinds there are.
    pub const COUNT: usize = 28;

    /// Every tile kind, in id order.
    pub const ALL: [Tile; Tile::COUNT] = [
        Tile::Nothing,
        Tile::Wall,
        Tile::Floor,
        Tile::Player,
        Tile::Grass,
        Tile::Water,
        Tile::Flower,
        Tile::LockedDoor,
        Tile::UnlockedDoor,
        Tile::Sand,
        Tile::Mountain,
        Tile::Tree,
        Tile::ChestEmpty,
        Tile::ChestFull,
        Tile::TrapSprung,
        Tile::TrapArmed,
        Tile::WayUp,
        Tile::ExitUnexplored,
        Tile::OneWayUp,
        Tile::OneWayRight,
        Tile::OneWayDown,
        Tile::OneWayLeft,
        Tile::Rat,
        Tile::Bat,
        Tile::Goblin,
        Tile::Zombie,
        Tile::Orc,
        Tile::Troll,
    ];

    /// The full `TETile` (character, colours, description) of this tile.
    pub fn tetile(self) -> &'static TETile {
        &TILESET[self as usize]
    }

    /// The character [`TETile::to_string`] prints for this tile.
    pub fn character(self) -> char {
        self.tetile().character()
    }

    /// The tile with this id, or `None` for an id outside `0..Tile::COUNT` (e.g. in a damaged
    /// save).
    pub fn from_id(id: u8) -> Option<Tile> {
        Tile::ALL.get(usize::from(id)).copied()
    }

    /// The tile printed as `c`, or `None`: every tile kind has a unique character.
    pub fn from_char(c: char) -> Option<Tile> {
        Tile::ALL.into_iter().find(|t| t.character() == c)
    }

    /// Whether the avatar can stand on this tile: [`Tile::Floor`], and what stands on floor
    /// ([`Tile::Player`], chests, traps, and an exploration's unexplored and one-way exits,
    /// which the rules let be crossed one way only). Everything else, the exit door and the
    /// way up included, is
    /// closed: the exit is *entered* from a neighbouring floor tile (the sp18 spec). This is
    /// the one definition of "walkable" the map seam ([`Map`](super::Map)), the rules, the
    /// metrics and the searches share.
    pub const fn is_walkable(self) -> bool {
        matches!(
            self,
            Tile::Floor
                | Tile::Player
                | Tile::ChestEmpty
                | Tile::ChestFull
                | Tile::TrapSprung
                | Tile::TrapArmed
                | Tile::ExitUnexplored
                | Tile::OneWayUp
                | Tile::OneWayRight
                | Tile::OneWayDown
                | Tile::OneWayLeft
        )
    }

    /// Whether this tile stops sight: walls, rock (NOTHING), closed doors (an unexplored
    /// exit too: what lies behind it is not made yet), mountains and trees. Floor, the
    /// avatar, water, grass, sand, flowers, an open door, the way up and one-way exits let
    /// light through.
    pub const fn blocks_sight(self) -> bool {
        matches!(
            self,
            Tile::Wall
                | Tile::Nothing
                | Tile::LockedDoor
                | Tile::ExitUnexplored
                | Tile::Mountain
                | Tile::Tree
        )
    }

    /// This tile's 1-byte id.
    pub fn id(self) -> u8 {
        self as u8
    }
}

/// The play view's look in sight (`docs/look.md`): the colours the window and the terminal
/// draw runs and explorations with (and a classic game with sight on). The sp18 [`Tileset`]
/// above stays as it is for the Java text, PNG export and the classic game.
///
/// - Tiles in sight are lit by the avatar's light, which falls off linearly with distance from
///   full at the avatar to [`look::MIN_LIGHT`] at the light radius (Brogue's light sources:
///   intensity fading linearly to the radius). The floor and the walls take the light; things
///   (the avatar, features, the exit, exits) keep their full colour, so they stand out.
/// - Walls are filled cells ([`look::WALL`]) with their box edges drawn in a darker tone.
/// - Remembered tiles, out of sight, are drawn on a near-black blue: the floor in one dim cool
///   colour ([`look::MEMORY`]), walls as dim blue cells edged in that colour, and things
///   (chests, traps, the exit, exits) in their own hue dimmed ([`look::remembered_thing`]).
///
/// Every glyph class reaches a WCAG 2.x contrast ratio of at least 4.5 against its background
/// at every light level ([`look::contrast`]; the tests check it, and the window test measures
/// it in a screenshot).
pub mod look {
    use super::{Rgb, Tile};

    /// The light at the light radius, in 256ths (about 0.7): dimmest tiles in sight.
    pub const MIN_LIGHT: u32 = 180;
    /// The floor's background in full light (warm, dark).
    pub const FLOOR_BG: Rgb = Rgb::new(34, 30, 24);
    /// The floor's dot in full light.
    pub const FLOOR_DOT: Rgb = Rgb::new(235, 215, 160);
    /// A wall's fill in full light.
    pub const WALL: Rgb = Rgb::new(200, 190, 170);
    /// A wall's box edges in full light.
    pub const WALL_EDGE: Rgb = Rgb::new(92, 80, 66);
    /// Remembered glyphs and walls (one cool colour).
    pub const MEMORY: Rgb = Rgb::new(120, 135, 180);
    /// The background of remembered tiles.
    pub const MEMORY_BG: Rgb = Rgb::new(10, 12, 22);
    /// A remembered wall's fill (dim: walls out of sight recede).
    pub const MEMORY_WALL: Rgb = Rgb::new(36, 42, 64);
    /// The background of cells never seen.
    pub const DARK: Rgb = Rgb::new(0, 0, 0);
    /// The tint of a route's tiles waiting for confirmation.
    pub const ROUTE: Rgb = Rgb::new(70, 40, 110);

    /// The glyph colour of a thing in sight: bright, each kind its own hue.
    pub const fn thing(tile: Tile) -> Option<Rgb> {
        Some(match tile {
            Tile::Player => Rgb::new(255, 255, 255),
            Tile::ChestEmpty => Rgb::new(255, 170, 40),
            Tile::ChestFull => Rgb::new(255, 225, 90),
            Tile::TrapSprung => Rgb::new(90, 215, 255),
            Tile::TrapArmed => Rgb::new(255, 90, 90),
            Tile::LockedDoor | Tile::UnlockedDoor => Rgb::new(120, 255, 120),
            Tile::WayUp => Rgb::new(120, 255, 120),
            Tile::ExitUnexplored => Rgb::new(255, 140, 220),
            Tile::OneWayUp | Tile::OneWayRight | Tile::OneWayDown | Tile::OneWayLeft => {
                Rgb::new(190, 190, 255)
            }
            _ => return None,
        })
    }

    /// The light at squared distance `d2` (tiles²) from the avatar with light radius `r`, in
    /// 256ths: 256 at the avatar, [`MIN_LIGHT`] at the radius and beyond.
    pub fn light(d2: i64, r: u32) -> u32 {
        let d = (d2.max(0) as f64).sqrt();
        let k = (d / f64::from(r.max(1))).min(1.0);
        (256.0 - k * f64::from(256 - MIN_LIGHT)).round() as u32
    }

    fn scaled(c: Rgb, light: u32) -> Rgb {
        let s = |v: u8| ((u32::from(v) * light) / 256).min(255) as u8;
        Rgb::new(s(c.r), s(c.g), s(c.b))
    }

    /// What a cell in sight shows, at `light` (256ths): the glyph's colour, the cell's
    /// background, and for a wall the colour of its box edges (the background is the fill).
    pub fn lit(tile: Tile, light: u32) -> (Rgb, Rgb, Option<Rgb>) {
        let bg = scaled(FLOOR_BG, light);
        match tile {
            Tile::Wall => (
                scaled(WALL_EDGE, light),
                scaled(WALL, light),
                Some(scaled(WALL_EDGE, light)),
            ),
            Tile::Nothing => (DARK, DARK, None),
            Tile::Floor => (scaled(FLOOR_DOT, light), bg, None),
            t => (
                thing(t).unwrap_or_else(|| t.tetile().text_color()),
                bg,
                None,
            ),
        }
    }

    /// What a remembered cell shows: as [`lit`], on the memory background. The floor (and
    /// anything [`thing`] gives no hue) in the one cool colour, walls as dim blue cells; a thing
    /// (a chest, a trap, the exit, an exploration's exits) in its own hue, dimmed
    /// ([`remembered_thing`]), so that a remembered exit is found again by its colour (as DCSS
    /// and Brogue keep remembered features in their own colours).
    pub fn remembered(tile: Tile) -> (Rgb, Rgb, Option<Rgb>) {
        match tile {
            Tile::Wall => (MEMORY, MEMORY_WALL, Some(MEMORY)),
            Tile::Nothing => (DARK, DARK, None),
            t => (remembered_thing(t).unwrap_or(MEMORY), MEMORY_BG, None),
        }
    }

    /// How far a remembered thing's colour is mixed toward [`MEMORY_BG`] at most, in 100ths.
    pub const MEMORY_DIM: u32 = 45;

    /// The glyph colour of a remembered thing: its [`thing`] colour mixed toward
    /// [`MEMORY_BG`] by [`MEMORY_DIM`]% (in steps of 5% less while the mix would fall below a
    /// WCAG contrast of 4.5 on [`MEMORY_BG`]); `None` for a tile [`thing`] gives no hue.
    pub fn remembered_thing(tile: Tile) -> Option<Rgb> {
        static DIMMED: std::sync::LazyLock<[Option<Rgb>; Tile::COUNT]> =
            std::sync::LazyLock::new(|| Tile::ALL.map(|t| thing(t).map(dimmed)));
        DIMMED[tile as usize]
    }

    /// `c` mixed toward [`MEMORY_BG`] as far as [`MEMORY_DIM`] and a contrast of 4.5 allow.
    fn dimmed(c: Rgb) -> Rgb {
        let mix = |k: u32| {
            let m = |a: u8, b: u8| ((u32::from(a) * (100 - k) + u32::from(b) * k + 50) / 100) as u8;
            Rgb::new(
                m(c.r, MEMORY_BG.r),
                m(c.g, MEMORY_BG.g),
                m(c.b, MEMORY_BG.b),
            )
        };
        (0..=MEMORY_DIM / 5)
            .rev()
            .map(|s| mix(s * 5))
            .find(|&d| contrast(d, MEMORY_BG) >= 4.5)
            .unwrap_or(c)
    }

    /// The relative luminance of a colour (WCAG 2.x: sRGB channels linearised, weighted
    /// 0.2126, 0.7152, 0.0722).
    pub fn luminance(c: Rgb) -> f64 {
        let lin = |v: u8| {
            let s = f64::from(v) / 255.0;
            if s <= 0.04045 {
                s / 12.92
            } else {
                ((s + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)
    }

    /// The WCAG 2.x contrast ratio of two colours, 1 to 21: `(L1 + 0.05) / (L2 + 0.05)`, the
    /// lighter over the darker.
    pub fn contrast(a: Rgb, b: Rgb) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn every_glyph_class_reaches_4_5_at_every_light() {
            for light in [MIN_LIGHT, 200, 230, 256] {
                for tile in [
                    Tile::Floor,
                    Tile::Player,
                    Tile::ChestEmpty,
                    Tile::ChestFull,
                    Tile::TrapSprung,
                    Tile::TrapArmed,
                    Tile::LockedDoor,
                    Tile::WayUp,
                    Tile::ExitUnexplored,
                ] {
                    let (fg, bg, _) = lit(tile, light);
                    let c = contrast(fg, bg);
                    assert!(c >= 4.5, "{tile:?} at {light}: {c:.2}");
                    let (fg, bg, _) = remembered(tile);
                    assert!(contrast(fg, bg) >= 4.5, "remembered {tile:?}");
                }
                // A wall's fill against the floor around it, and its edges against the fill.
                let (_, fill, edge) = lit(Tile::Wall, light);
                let (_, floor, _) = lit(Tile::Floor, light);
                assert!(
                    contrast(fill, floor) >= 4.5,
                    "wall at {light}: {:.2}",
                    contrast(fill, floor)
                );
                assert!(contrast(fill, edge.unwrap()) >= 3.0);
            }
            assert!(contrast(MEMORY, MEMORY_BG) >= 4.5);
            // The anchors of the formula: black on white is 21.
            assert!((contrast(Rgb::new(0, 0, 0), Rgb::new(255, 255, 255)) - 21.0).abs() < 1e-9);
        }

        /// A colour's chromaticity: its channels over their sum (what is left of a hue when
        /// brightness is set aside).
        fn chroma(c: Rgb) -> [f64; 3] {
            let sum = f64::from(u32::from(c.r) + u32::from(c.g) + u32::from(c.b)).max(1.0);
            [c.r, c.g, c.b].map(|v| f64::from(v) / sum)
        }

        fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
            (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
        }

        #[test]
        fn remembered_things_keep_their_own_hue_dimmed_and_readable() {
            let things: Vec<Tile> = Tile::ALL
                .into_iter()
                .filter(|&t| thing(t).is_some() && t != Tile::Player)
                .collect();
            assert!(things.len() >= 12, "{things:?}");
            // The hues a remembered glyph could be taken for: every thing's, and memory's.
            let mut hues: Vec<Rgb> = things.iter().filter_map(|&t| thing(t)).collect();
            hues.push(MEMORY);
            for &t in &things {
                let own = thing(t).unwrap();
                let (fg, bg, _) = remembered(t);
                assert_eq!(bg, MEMORY_BG, "{t:?}");
                // Readable on the memory background.
                assert!(
                    contrast(fg, bg) >= 4.5,
                    "remembered {t:?}: {:.2}",
                    contrast(fg, bg)
                );
                // Its own hue: no other thing's colour (nor memory's) is nearer in
                // chromaticity.
                let nearest = hues
                    .iter()
                    .copied()
                    .min_by(|a, b| {
                        distance(chroma(fg), chroma(*a))
                            .total_cmp(&distance(chroma(fg), chroma(*b)))
                    })
                    .unwrap();
                assert_eq!(
                    nearest, own,
                    "remembered {t:?} is {fg:?}, nearest {nearest:?}"
                );
                // Dimmed: darker than in sight at any light (things keep their colour in
                // sight), so remembered is never taken for seen.
                for light in [MIN_LIGHT, 256] {
                    let (seen, _, _) = lit(t, light);
                    assert!(
                        luminance(fg) < luminance(seen) * 0.9,
                        "{t:?}: remembered {fg:?} vs lit {seen:?}"
                    );
                }
            }
            // The floor and walls remembered stay in the one cool colour.
            assert_eq!(remembered(Tile::Floor), (MEMORY, MEMORY_BG, None));
            assert_eq!(remembered(Tile::Wall), (MEMORY, MEMORY_WALL, Some(MEMORY)));
        }

        #[test]
        fn light_falls_off_to_the_radius() {
            assert_eq!(light(0, 8), 256);
            assert_eq!(light(64, 8), MIN_LIGHT);
            assert_eq!(light(1000, 8), MIN_LIGHT);
            assert!(light(16, 8) < 256 && light(16, 8) > MIN_LIGHT);
        }

        #[test]
        fn features_differ_from_each_other_and_the_floor() {
            let kinds = [
                Tile::ChestEmpty,
                Tile::TrapSprung,
                Tile::TrapArmed,
                Tile::LockedDoor,
                Tile::Player,
            ];
            for (i, a) in kinds.iter().enumerate() {
                for b in &kinds[i + 1..] {
                    assert_ne!(thing(*a), thing(*b));
                }
                assert_ne!(thing(*a), Some(FLOOR_DOT));
            }
        }
    }
}
