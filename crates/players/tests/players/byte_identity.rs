//! Speed work keeps every seed's world, floor, route and save byte for byte
//! (`docs/performance.md`): digests over 10,550 worlds, 10,800 floors, 40 solved runs and the
//! saves of games played through them. Each expected value was computed with the code as it
//! was before the speed work of 2026-11-28 (commit 39816a3), and every change since gives the
//! same; a digest that moves is a world (or floor, route, save) change, to be reviewed and
//! made deliberately, never by updating the number.

use byog_game::GameState;
use byog_game::run::floor;
use byog_game::save;
use byog_players::solver;
use byog_worlds::generator::{self, GeneratorKind, GeneratorSettings, LootQuestSettings};
use rand::RngExt;

/// FNV-1a, 64-bit: a fixed, dependency-free hash.
struct Digest(u64);

impl Digest {
    fn new() -> Self {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn num(&mut self, n: i64) {
        self.bytes(&n.to_le_bytes());
    }
}

fn lootquest(rooms: u32, critical_path: u32) -> GeneratorSettings {
    GeneratorSettings {
        generator: GeneratorKind::LootQuest,
        lootquest: LootQuestSettings {
            rooms,
            critical_path,
            ..LootQuestSettings::default()
        },
        ..GeneratorSettings::default()
    }
}

/// 10,550 worlds: the default at 80 × 30 and at the sizes of a default run's floors (B1
/// 47 × 17 to B10 79 × 29), tiny, odd, even and larger sizes, non-default settings and
/// LootQuest; each world's tiles, avatar, exit, rooms, tries and the generator's next draw.
#[test]
fn ten_thousand_worlds_are_unchanged() {
    let d = GeneratorSettings::default();
    let cases: Vec<(std::ops::Range<u64>, usize, usize, GeneratorSettings)> = vec![
        (0..4000, 80, 30, d),
        (10_000..11_500, 47, 17, d),
        (20_000..21_000, 79, 29, d),
        (30_000..31_000, 61, 23, d),
        (40_000..40_800, 21, 11, d),
        (50_000..50_500, 5, 5, d),
        (60_000..60_300, 7, 9, d),
        (70_000..70_200, 120, 40, d),
        (80_000..80_030, 400, 300, d),
        (
            90_000..90_200,
            60,
            24,
            GeneratorSettings {
                winding_percent: 0,
                extra_connector_chance: 0,
                ..d
            },
        ),
        (
            91_000..91_200,
            60,
            24,
            GeneratorSettings {
                winding_percent: 100,
                extra_connector_chance: 1,
                ..d
            },
        ),
        (
            92_000..92_200,
            61,
            25,
            GeneratorSettings {
                room_extra_size: 5,
                room_tries_per_1000_tiles: 200,
                ..d
            },
        ),
        (93_000..93_400, 80, 30, lootquest(9, 4)),
        (94_000..94_200, 80, 30, lootquest(12, 6)),
        (95_000..95_020, 2, 2, d), // refused: the error is part of the digest
    ];
    let mut digest = Digest::new();
    let mut count = 0;
    for (seeds, width, height, settings) in cases {
        for seed in seeds {
            count += 1;
            match generator::generate_for_seed(seed, width, height, &settings) {
                Ok(mut g) => {
                    digest.bytes(g.level.world.to_string().as_bytes());
                    for p in [g.level.avatar, g.level.exit] {
                        digest.num(p.x.into());
                        digest.num(p.y.into());
                    }
                    for r in &g.level.rooms {
                        for v in [r.x, r.y, r.width, r.height] {
                            digest.num(v.into());
                        }
                    }
                    digest.num(g.tries.into());
                    digest.num(g.rng.random::<u64>() as i64);
                }
                Err(e) => digest.bytes(e.to_string().as_bytes()),
            }
        }
    }
    assert_eq!(count, 10_550);
    assert_eq!(
        digest.0, WORLDS,
        "a seed's world changed: review it as a deliberate world change"
    );
}

/// 10,800 floors: 800 default runs of 10 floors at 80 × 30, 400 small runs (21 × 11, 4
/// floors), 100 runs of 6 floors with open, loopy settings and 60 LootQuest runs of 10
/// floors; each floor's terrain, avatar, exit, features, make (try, allowance, direct,
/// par), size and its generator's next draw.
#[test]
fn ten_thousand_floors_are_unchanged() {
    let d = GeneratorSettings::default();
    let open = GeneratorSettings {
        winding_percent: 0,
        extra_connector_chance: 1,
        room_extra_size: 4,
        ..d
    };
    let shapes: [(std::ops::Range<u64>, usize, usize, u32, GeneratorSettings); 4] = [
        (0..800, 80, 30, 10, d),
        (1000..1400, 21, 11, 4, d),
        (2000..2100, 61, 25, 6, open),
        (3000..3060, 80, 30, 10, lootquest(10, 4)),
    ];
    let mut digest = Digest::new();
    let mut allowances = Digest::new();
    let mut count = 0;
    for (seeds, width, height, floors, settings) in shapes {
        for seed in seeds {
            for depth in 1..=floors {
                count += 1;
                match floor::make(seed, depth, floors, width, height, &settings) {
                    Ok(mut f) => {
                        digest.bytes(f.terrain.to_string().as_bytes());
                        for p in [f.avatar, f.exit] {
                            digest.num(p.x.into());
                            digest.num(p.y.into());
                        }
                        for feature in &f.features {
                            digest.num(feature.pos.x.into());
                            digest.num(feature.pos.y.into());
                            digest.num(feature.kind as i64);
                            digest.num(i64::from(feature.handled));
                        }
                        let i = f.info;
                        for v in [i.attempt.into(), i.direct, i.par] {
                            digest.num(v as i64);
                        }
                        allowances.num(i.allowance as i64);
                        digest.num(f.params.width as i64);
                        digest.num(f.params.height as i64);
                        digest.num(f.rng.random::<u64>() as i64);
                    }
                    Err(e) => digest.bytes(e.to_string().as_bytes()),
                }
            }
        }
    }
    assert_eq!(count, 10_800);
    assert_eq!(
        digest.0, FLOORS,
        "a floor changed: review it as a deliberate floor change"
    );
    assert_eq!(
        allowances.0, ALLOWANCES,
        "a floor's move allowance changed: review it as a deliberate balance change"
    );
}

/// 40 runs solved from their start (the solver's keys), and the save of each game after
/// its route was played, plus classic games walked at random and saved.
#[test]
fn routes_and_saves_are_unchanged() {
    let d = GeneratorSettings::default();
    let mut digest = Digest::new();
    for seed in 0..40u64 {
        let (w, h) = if seed % 4 == 3 { (41, 21) } else { (80, 30) };
        let mut game = GameState::new_run(seed, w, h, d, 10).unwrap();
        let route = solver::solve(&game).unwrap();
        let keys: String = route.iter().map(|a| a.key()).collect();
        digest.bytes(keys.as_bytes());
        for a in route {
            game.apply(a);
        }
        digest.bytes(&save::encode(&game));
    }
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for seed in 0..12u64 {
        let mut game = GameState::new(seed, 80, 30, d).unwrap();
        for _ in 0..5_000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let key = b"WASD"[(state >> 62) as usize] as char;
            game.apply(byog_game::Action::from_key(key).unwrap());
        }
        digest.bytes(&save::encode(&game));
    }
    assert_eq!(
        digest.0, ROUTES_AND_SAVES,
        "a route or a save changed: review it as a deliberate change"
    );
}

/// The digests of the code before the speed work of 2026-11-28.
const WORLDS: u64 = 4_367_742_994_727_214_434;
/// The floors less their move allowance: the same before the balance change of 2026-11-27
/// and after it (taken on both).
const FLOORS: u64 = 13_650_564_395_404_422_481;
/// The floors' move allowances, from rules version 4 (the budget 145% → 140% of par; it was
/// 240% → 200% under rules version 3, digest 5,255,222,874,729,551,675; 250% → 210% from the
/// balance change of 2026-11-27, digest 7,005,659,624,759,865,866, and 220% → 180% before:
/// `docs/balance.md`).
const ALLOWANCES: u64 = 6_607_771_044_983_023_085;
/// Saves changed on purpose after these were taken: format 7 (a new codec and the message
/// log, `docs/saves.md`; the digest then was 8,561,857,249,676,441,332 on the code before the
/// speed work and after it), then the balance change of 2026-11-27 (a run's moves left: the
/// budget and the cap on moves carried down). The solver's keys are the same (`byog solve`
/// of seeds 0-3, 7 and 42 compared before and after). Then rules version 3 (features pay
/// their moves on their own floor, the budget 240% → 200%, the cap 100%: a run's moves left,
/// score and allowance in its save; digest 606,949,905,762,560,328 before): the solver's
/// keys are still its full tours, exactly the sum of the floors' pars for each of these 40
/// runs (`byog solve` against `byog stats --run`), so only the saves' run state changed.
/// Then rules version 4 and save format 8 (features pay points by seclusion, moves at a flat
/// rate, the budget 145% → 140%, the cap 130%, a move left at the win 2 × the depth; format
/// 8 stores each feature's seclusion; digest 6,493,664,224,049,519,241 before): the solver's
/// keys are again exactly the sum of the pars for all 40 runs, so only the saves changed
/// (their run state and format).
const ROUTES_AND_SAVES: u64 = 13_124_674_936_445_422_982;
