//! Criterion benchmarks for the docs/performance.md targets. Run with `cargo bench`; see
//! `docs/performance.md` for the table and how to read it (each result against the plain BFS
//! floor `bfs/*` measured in the same run).

use std::hint::black_box;
use std::time::Duration;

use byog_game::game::GameState;
use byog_game::interpreter::Interpreter;
use byog_game::save::{self, MemoryStore};
use byog_worlds::generator::{self, Carver, GeneratorSettings};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

#[path = "common/diving.rs"]
mod diving;
use rand::SeedableRng;
use rand_pcg::Pcg64;

const SIZES: [(usize, usize, &str); 2] = [(80, 30, "80x30"), (1000, 1000, "1000x1000")];

fn generate(c: &mut Criterion) {
    let settings = GeneratorSettings::default();
    let mut g = c.benchmark_group("generate");
    for (w, h, name) in SIZES {
        let mut seed = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut rng = Pcg64::seed_from_u64(seed);
                black_box(generator::generate(&mut rng, w, h, &settings).unwrap())
            })
        });
    }
    // The same pipeline with Hauberk's O(connectors × merges) merge loop, for comparison.
    let mut seed = 0u64;
    g.bench_function("80x30_hauberk_merge", |b| {
        b.iter(|| {
            seed += 1;
            let mut rng = Pcg64::seed_from_u64(seed);
            let mut c = Carver::new(80, 30);
            c.add_rooms(&mut rng, &settings);
            c.grow_mazes(&mut rng, settings.winding_percent);
            let connectors = c.find_connectors().positions();
            c.merge_regions_hauberk(&mut rng, connectors, settings.extra_connector_chance);
            c.remove_dead_ends();
            black_box(c.finish(&mut rng))
        })
    });
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("4096x4096", |b| {
        let mut rng = Pcg64::seed_from_u64(1);
        b.iter(|| black_box(generator::generate(&mut rng, 4096, 4096, &settings).unwrap()))
    });
    g.finish();
}

/// Each generator step on its own, from the state the previous steps leave.
fn steps(c: &mut Criterion) {
    let s = GeneratorSettings::default();
    let mut g = c.benchmark_group("step");
    for (w, h, name) in SIZES {
        let fresh = || (Carver::new(w, h), Pcg64::seed_from_u64(7));
        let after_rooms = || {
            let (mut carver, mut rng) = fresh();
            carver.add_rooms(&mut rng, &s);
            (carver, rng)
        };
        let after_mazes = || {
            let (mut carver, mut rng) = after_rooms();
            carver.grow_mazes(&mut rng, s.winding_percent);
            (carver, rng)
        };
        let after_connect = || {
            let (mut carver, mut rng) = after_mazes();
            carver.connect_regions(&mut rng, s.extra_connector_chance);
            (carver, rng)
        };
        let after_dead_ends = || {
            let (mut carver, rng) = after_connect();
            carver.remove_dead_ends();
            (carver, rng)
        };
        g.bench_function(format!("rooms/{name}"), |b| {
            b.iter_batched(
                fresh,
                |(mut c, mut r)| black_box(c.add_rooms(&mut r, &s)),
                BatchSize::LargeInput,
            )
        });
        g.bench_function(format!("mazes/{name}"), |b| {
            b.iter_batched(
                after_rooms,
                |(mut c, mut r)| c.grow_mazes(&mut r, s.winding_percent),
                BatchSize::LargeInput,
            )
        });
        g.bench_function(format!("connectors/{name}"), |b| {
            b.iter_batched(
                after_mazes,
                |(c, _)| black_box(c.find_connectors()),
                BatchSize::LargeInput,
            )
        });
        g.bench_function(format!("merge/{name}"), |b| {
            b.iter_batched(
                || {
                    let (c, r) = after_mazes();
                    let connectors = c.find_connectors();
                    (c, r, connectors)
                },
                |(mut c, mut r, k)| c.merge_regions(&mut r, k, s.extra_connector_chance),
                BatchSize::LargeInput,
            )
        });
        if w * h <= 100_000 {
            g.bench_function(format!("merge_hauberk/{name}"), |b| {
                b.iter_batched(
                    || {
                        let (c, r) = after_mazes();
                        let connectors = c.find_connectors().positions();
                        (c, r, connectors)
                    },
                    |(mut c, mut r, k)| {
                        c.merge_regions_hauberk(&mut r, k, s.extra_connector_chance)
                    },
                    BatchSize::LargeInput,
                )
            });
        }
        g.bench_function(format!("dead_ends/{name}"), |b| {
            b.iter_batched(
                after_connect,
                |(mut c, _)| c.remove_dead_ends(),
                BatchSize::LargeInput,
            )
        });
        g.bench_function(format!("placement/{name}"), |b| {
            b.iter_batched(
                after_dead_ends,
                |(c, mut r)| black_box(c.finish(&mut r)),
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

fn replay_and_saves(c: &mut Criterion) {
    let s = GeneratorSettings::default();
    let moves: String = "WASD".repeat(250_000);
    // A classic game of seed 1234 just started, and its store.
    let started = || {
        let mut i = Interpreter::new(80, 30, s);
        let mut store = MemoryStore::default();
        for k in "N1234S".chars() {
            i.feed(k, &mut store).unwrap();
        }
        (i, store)
    };
    c.bench_function("replay/1M_moves", |b| {
        b.iter_batched(
            started,
            |(mut i, mut store)| {
                for k in moves.chars() {
                    i.feed(k, &mut store).unwrap();
                }
                black_box(i)
            },
            BatchSize::LargeInput,
        )
    });
    // The same keys through `replay` (what `byog replay` runs: the keys' reports, not
    // every move's events).
    c.bench_function("replay/1M_moves_replayed", |b| {
        b.iter_batched(
            started,
            |(mut i, mut store)| {
                byog_game::replay::replay(&mut i, &moves, &mut store, false, &mut |_| ()).unwrap();
                black_box(i)
            },
            BatchSize::LargeInput,
        )
    });
    let game = GameState::new(1234, 80, 30, s).unwrap();
    c.bench_function("save/80x30", |b| {
        let dir = tempfile::tempdir().unwrap();
        let store = save::FileStore::in_dir(dir.path());
        b.iter(|| store.write_bytes(&save::encode(&game)).unwrap())
    });
    c.bench_function("encode/80x30", |b| {
        b.iter(|| black_box(save::encode(&game)))
    });
    let bytes = save::encode(&game);
    c.bench_function("load/80x30", |b| {
        let dir = tempfile::tempdir().unwrap();
        let mut store = save::FileStore::in_dir(dir.path());
        use byog_game::save::SaveStore;
        store.save(&game).unwrap();
        b.iter(|| black_box(store.load().unwrap()))
    });
    c.bench_function("decode/80x30", |b| {
        b.iter(|| black_box(save::decode(&bytes, "bench".as_ref()).unwrap()))
    });
    c.bench_function("to_string/80x30", |b| {
        b.iter(|| black_box(game.world().to_string()))
    });
}

/// The floor every result is read against: a plain BFS over an open grid of the same size.
/// The grid has a closed one-tile border (as every generated world does), so the search needs
/// no bounds checks, like the generator's own.
fn bfs(c: &mut Criterion) {
    let mut g = c.benchmark_group("bfs");
    for (w, h, name) in SIZES {
        let mut open = vec![false; w * h];
        for y in 1..h - 1 {
            open[y * w + 1..y * w + w - 1].fill(true);
        }
        let mut dist = vec![u32::MAX; w * h];
        let mut queue = Vec::with_capacity(w * h);
        g.bench_function(name, |b| {
            b.iter(|| {
                dist.fill(u32::MAX);
                queue.clear();
                let start = w + 1;
                dist[start] = 0;
                queue.push(start);
                let mut head = 0;
                while head < queue.len() {
                    let i = queue[head];
                    head += 1;
                    let d = dist[i] + 1;
                    for n in [i + w, i + 1, i - w, i - 1] {
                        if open[n] && dist[n] == u32::MAX {
                            dist[n] = d;
                            queue.push(n);
                        }
                    }
                }
                black_box(dist[w * (h - 1) - 2])
            })
        });
    }
    g.finish();
}

/// Runs (docs/performance.md): a floor (world, features, solvability check, par route) against the plain
/// world of the same size, the solver over a whole run, and the run's rules per key.
fn runs(c: &mut Criterion) {
    use byog_game::run::floor;
    use byog_players::solver;
    let s = GeneratorSettings::default();
    let mut g = c.benchmark_group("run");
    for (depth, name) in [(1, "floor_B1"), (10, "floor_B10")] {
        let p = byog_game::run::depth::params(depth, 10, 80, 30, &s);
        let mut seed = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                black_box(floor::make(seed, depth, 10, 80, 30, &s).unwrap())
            })
        });
        // The plain world of the same size and parameters, for the ratio.
        let mut seed = 0u64;
        g.bench_function(format!("world_{}x{}", p.width, p.height), |b| {
            b.iter(|| {
                seed += 1;
                let mut rng = Pcg64::seed_from_u64(seed);
                black_box(generator::generate(&mut rng, p.width, p.height, &p.settings).unwrap())
            })
        });
    }
    g.finish();
    // A whole 10-floor run solved from its start (`byog solve R<seed>S` less the process).
    let mut seed = 0u64;
    c.bench_function("solve/run", |b| {
        b.iter(|| {
            seed += 1;
            let game = GameState::new_run(seed, 80, 30, s, 10).unwrap();
            black_box(solver::solve(&game).unwrap())
        })
    });
    // The solver's route of one run fed key by key through the interpreter (about 3,500
    // keys and nine descents, each making the next floor).
    let route: String = {
        let game = GameState::new_run(1, 80, 30, s, 10).unwrap();
        solver::solve(&game)
            .unwrap()
            .iter()
            .map(|a| a.key())
            .collect()
    };
    c.bench_function("replay/run_route", |b| {
        b.iter_batched(
            || {
                let mut i = Interpreter::new(80, 30, s);
                let mut store = MemoryStore::default();
                for k in "R1S".chars() {
                    i.feed(k, &mut store).unwrap();
                }
                (i, store)
            },
            |(mut i, mut store)| {
                for k in route.chars() {
                    i.feed(k, &mut store).unwrap();
                }
                black_box(i)
            },
            BatchSize::LargeInput,
        )
    });
}

/// Field of view after one move (docs/performance.md: ≤ 3 µs at 80 × 30): symmetric shadowcasting at
/// radius 8 from each floor tile of a world in turn.
fn fov(c: &mut Criterion) {
    use byog_tile_engine::Map;
    use byog_tile_engine::fov::Visibility;
    let game = GameState::new(1234, 80, 30, GeneratorSettings::default()).unwrap();
    let world = game.world();
    let floors: Vec<_> = (0..world.tiles().len())
        .map(|i| world.pos_of(i))
        .filter(|&p| world.is_walkable(p))
        .collect();
    let mut v = Visibility::default();
    let mut k = 0;
    c.bench_function("fov/80x30", |b| {
        b.iter(|| {
            k = (k + 1) % floors.len();
            v.update(&world, floors[k], 8);
            black_box(v.area())
        })
    });
}

/// Explorations' room graph (issue 14's groundwork): making 10,000 rooms, walking from room to
/// room through the first unexplored exit, clearing locked rooms, jumping to a room with an
/// unexplored exit when the current one has none, and starting a new branch (the timer
/// passed) when a branch is fully explored. Per room: the time over 10,000. The graph alone
/// (the orchestrator draws each room's shape and features too, but nothing is painted or
/// seen): the share of `explore/new_room` that is not tiles or sight.
fn explore(c: &mut Criterion) {
    use byog_game::Direction;
    use byog_game::explore::{Dungeon, ExploreSettings};
    const ROOMS: usize = 10_000;
    let make = |seed: u64| {
        let settings = ExploreSettings {
            monsters: false,
            ..ExploreSettings::default()
        };
        let mut d = Dungeon::new(seed, settings).unwrap();
        let mut now = 0;
        let mut at = d.enter(Direction::Right, now);
        let mut made = usize::from(at.made);
        while made < ROOMS {
            d.clear_room(at.branch, at.pos).unwrap();
            let room = d.room(at.branch, at.pos).unwrap();
            let open = Direction::ALL
                .into_iter()
                .find(|&dir| room.exit(dir) == Some(byog_game::explore::Exit::Unexplored));
            if let Some(dir) = open {
                at = d.walk(at.branch, at.pos, dir).unwrap();
                made += usize::from(at.made);
                continue;
            }
            let branch = d.branch(at.branch).unwrap();
            match branch.rooms().values().find(|r| r.unexplored() > 0) {
                Some(r) => at.pos = r.pos,
                None => {
                    now += settings.branch_timer;
                    at = d.enter(Direction::Right, now);
                    made += usize::from(at.made);
                }
            }
        }
        d
    };
    let mut seed = 0;
    c.bench_function("explore/room_graph_10k_rooms", |b| {
        b.iter(|| {
            seed += 1;
            black_box(make(seed).branches().len())
        })
    });
}

/// Explorations with tiles (docs/performance.md), driven by the explorer (`core::players::explorer`):
/// - `explore/new_room`: the one move that crosses into an empty slot and makes the room there
///   (orchestrator, shape, features, sight), as a player meets it. The games are taken just
///   before such a move at 1,200 points of four explorations (rooms at every depth the
///   explorer reaches), cycled through; the clone of the game is set up outside the timing.
///   Target ≤ 20 µs.
/// - `explore/replay_10k_rooms`: an input string that makes 10,000 rooms (about 26 keys a
///   room, walks home from retired branches included), fed through the interpreter from the
///   menu. The keys are made once by the explorer, outside the timing. Target ≤ 200 ms.
fn explore_tiles(c: &mut Criterion) {
    use byog_game::Action;
    use byog_game::explore::ExploreSettings;
    use byog_players::explorer as bot;
    let settings = ExploreSettings {
        monsters: false,
        ..ExploreSettings::default()
    };
    let mut before = Vec::new();
    for seed in 0..4 {
        let mut game =
            GameState::new_exploration(seed, GeneratorSettings::default(), settings).unwrap();
        while before.len() < 300 * (seed as usize + 1) {
            let d = bot::next_move(&game).unwrap();
            if bot::makes_room(&game, d) {
                before.push((game.clone(), d));
            }
            game.apply(Action::Move(d));
        }
    }
    let mut k = 0;
    c.bench_function("explore/new_room", |b| {
        b.iter_batched(
            || {
                k = (k + 1) % before.len();
                before[k].clone()
            },
            |(mut game, d)| {
                let events = game.apply(Action::Move(d));
                (game, events)
            },
            BatchSize::SmallInput,
        )
    });

    const ROOMS: usize = 10_000;
    let keys = bot::keys_to_make(1, settings, ROOMS);
    let replayed = |keys: &str| {
        let mut i = Interpreter::new(80, 30, GeneratorSettings::default()).with_explore(settings);
        let mut store = MemoryStore::default();
        byog_game::replay::replay(&mut i, keys, &mut store, false, &mut |_| ()).unwrap();
        (i, store)
    };
    {
        let (i, _) = replayed(&keys);
        let game = i.game().unwrap();
        let rooms = game.explore().unwrap().dungeon().rooms_made();
        assert!(rooms >= ROOMS);
        let save = save::encode(game).len();
        eprintln!(
            "explore: E1S makes {rooms} rooms in {} keys ({:.1} a room); its save is {save} \
             bytes ({:.0} a room)",
            keys.len() - 3,
            (keys.len() - 3) as f64 / rooms as f64,
            save as f64 / rooms as f64
        );
    }
    let mut g = c.benchmark_group("explore");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("replay_10k_rooms", |b| {
        b.iter_batched(
            || (),
            |()| black_box(replayed(&keys)),
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

/// A large run starts at the cost of its first floor (docs/performance.md): `R<seed>S` at
/// 1000 × 1000 with the default 10 floors makes B1 (600 × 600) and nothing else, so
/// `run/start_1000x1000` is read against `run/floor_B1_1000x1000`, that floor alone.
fn run_start(c: &mut Criterion) {
    use byog_game::run::floor;
    let s = GeneratorSettings::default();
    let mut g = c.benchmark_group("run");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    let mut seed = 0u64;
    g.bench_function("start_1000x1000", |b| {
        b.iter(|| {
            seed += 1;
            black_box(GameState::new_run(seed, 1000, 1000, s, 10).unwrap())
        })
    });
    let mut seed = 0u64;
    g.bench_function("floor_B1_1000x1000", |b| {
        b.iter(|| {
            seed += 1;
            black_box(floor::make(seed, 1, 10, 1000, 1000, &s).unwrap())
        })
    });
    g.finish();
}

/// LootQuest dungeons at 80 × 30 (docs/lootquest.md): 7 rooms (critical path 4) and 12 rooms
/// (critical path 6), dead ends of at most 2 rooms, the default sizes and spacing; each
/// iteration a new seed, the rare layouts that fail to place included.
fn lootquest(c: &mut Criterion) {
    use byog_worlds::generator::LootQuestSettings;
    let mut g = c.benchmark_group("lootquest");
    for (rooms, critical_path) in [(7u32, 4u32), (12, 6)] {
        let l = LootQuestSettings {
            rooms,
            critical_path,
            max_dead_end: 2,
            ..LootQuestSettings::default()
        };
        let mut seed = 0u64;
        g.bench_function(format!("80x30_{rooms}_rooms"), |b| {
            b.iter(|| {
                seed += 1;
                let mut rng = Pcg64::seed_from_u64(seed);
                black_box(generator::lootquest::generate(&mut rng, 80, 30, &l).ok())
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    generate,
    lootquest,
    steps,
    replay_and_saves,
    bfs,
    runs,
    fov,
    explore,
    agent,
    explore_tiles,
    run_start,
    monsters,
    catalog
);
criterion_main!(benches);

// Programs that play (docs/agent.md): a step through `byog_players::agent` with its observation
// built, and a step of `byog agent` over JSON lines, driven through pipes as a program would.

use byog_players::agent::{Agent, AgentOptions};
use criterion::Throughput;

/// A walk that keeps moving about the start of N1234S (bumps included) and never reaches
/// the exit, so every step is played and observed.
const AGENT_WALK: &str = "WASDDSAWWDSA";

fn agent(c: &mut Criterion) {
    let mut g = c.benchmark_group("agent");
    g.throughput(Throughput::Elements(1));
    let mut agent = Agent::new(AgentOptions::default());
    agent.reset("N1234S").unwrap();
    let keys: Vec<String> = AGENT_WALK.chars().map(String::from).collect();
    let mut i = 0;
    g.bench_function("step_in_process", |b| {
        b.iter(|| {
            i = (i + 1) % keys.len();
            black_box(agent.step(&keys[i]).unwrap())
        })
    });
    let observation = agent.observe();
    g.bench_function("observation_json", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            out.clear();
            observation.write_json(&mut out);
            black_box(out.len())
        })
    });
    g.bench_function("pipe", |b| {
        use std::io::{BufRead, Write};
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_byog"))
            .args(["agent", "--save-dir"])
            .arg(std::env::temp_dir().join("byog-bench-agent-no-save"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        let mut output = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut answer = String::new();
        let mut send = |line: &str, answer: &mut String| {
            input.write_all(line.as_bytes()).unwrap();
            input.write_all(b"\n").unwrap();
            input.flush().unwrap();
            answer.clear();
            output.read_line(answer).unwrap();
            assert!(answer.starts_with("{\"avatar\":"), "{answer}");
        };
        send(r#"{"reset":"N1234S"}"#, &mut answer);
        let lines: Vec<String> = AGENT_WALK.chars().map(|k| format!("\"{k}\"")).collect();
        let mut i = 0;
        b.iter_custom(|iters| {
            let start = std::time::Instant::now();
            for _ in 0..iters {
                i = (i + 1) % lines.len();
                send(&lines[i], &mut answer);
            }
            start.elapsed()
        });
        drop(input);
        child.wait().unwrap();
    });
    g.finish();
}

// Monsters (docs/monsters.md, docs/performance.md).

/// - `monsters/turn_50_awake`: one step of the avatar in a big branch map (150 rooms made in
///   one branch) with 50 hunting monsters (orcs) within the hunt radius: the step, the distance map
///   and 50 monsters acting. `monsters/step_alone` is the same step with no monster, to read
///   the monsters' share. Target ≤ 20 µs.
/// - `explore/replay_1M_keys_monsters`: 1,000,000 keys of a diving bot (the explorer, a
///   potion at one heart, a strike at any monster beside it, a new exploration after each
///   death), replayed with monsters and,
///   as `explore/replay_1M_keys_no_monsters`, the same keys with `--no-monsters`. Target ≤ 4 ×.
fn monsters(c: &mut Criterion) {
    use byog_game::Action;
    use byog_game::explore::{ExploreSettings, MonsterKind};
    use byog_players::explorer as bot;
    use byog_tile_engine::{Pos, Tile};
    let quiet = ExploreSettings {
        max_unexplored: 8,
        branch_timer: 1_000_000_000,
        monsters: false,
    };
    let mut game = GameState::new_exploration(11, GeneratorSettings::default(), quiet).unwrap();
    bot::make_rooms(&mut game, 150, &mut |_| ());
    let e = game.explore().unwrap();
    let a = e.avatar();
    let step = byog_tile_engine::Direction::ALL
        .into_iter()
        .find(|d| e.tile_at(a + *d) == Tile::Floor)
        .expect("a floor tile beside the avatar");
    let mut spots: Vec<Pos> = Vec::new();
    for dy in -12..=12 {
        for dx in -12..=12 {
            let p = Pos::new(a.x + dx, a.y + dy);
            let far = dx.abs() + dy.abs() >= 3;
            if far && e.tile_at(p) == Tile::Floor {
                spots.push(p);
            }
        }
    }
    spots.sort_by_key(|p| ((p.x - a.x).abs() + (p.y - a.y).abs(), p.y, p.x));
    let mut with = game.clone();
    let mut placed = 0;
    for p in spots {
        let ex = with.explore_mut().unwrap();
        if placed < 50 && ex.add_monsters(&[(p, MonsterKind::Orc)]).is_ok() {
            placed += 1;
        }
    }
    assert_eq!(placed, 50, "room for 50 monsters");
    let mut g = c.benchmark_group("monsters");
    g.bench_function("turn_50_awake", |b| {
        b.iter_batched(
            || with.clone(),
            |mut game| {
                let events = game.apply(Action::Move(step));
                (game, events)
            },
            BatchSize::SmallInput,
        )
    });
    g.bench_function("step_alone", |b| {
        b.iter_batched(
            || game.clone(),
            |mut game| {
                let events = game.apply(Action::Move(step));
                (game, events)
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();

    // A million keys of a diving bot, dying and starting again.
    let keys = diving::diving_keys();
    let replayed = |keys: &str, monsters: bool| {
        let explore = ExploreSettings {
            monsters,
            ..ExploreSettings::default()
        };
        let mut i = Interpreter::new(80, 30, GeneratorSettings::default()).with_explore(explore);
        let mut store = MemoryStore::default();
        byog_game::replay::replay(&mut i, keys, &mut store, false, &mut |_| ()).unwrap();
        i
    };
    let mut g = c.benchmark_group("explore");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("replay_1M_keys_monsters", |b| {
        b.iter_batched(
            || (),
            |()| black_box(replayed(&keys, true)),
            BatchSize::PerIteration,
        )
    });
    g.bench_function("replay_1M_keys_no_monsters", |b| {
        b.iter_batched(
            || (),
            |()| black_box(replayed(&keys, false)),
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

// The seed catalog (docs/catalog.md): a batch of 10,000 seeds under requirements that make
// about 3.1 tries a seed, re-run through a catalog that remembers them (one try a seed: the
// remembered pass, its hash checked and its requirements measured) against the same batch
// without it. One thread, as the other targets.

use byog_catalog::Catalog;
use byog_worlds::metrics::Requirements;

fn catalog(c: &mut Criterion) {
    const SEEDS: u64 = 10_000;
    let settings = GeneratorSettings {
        requirements: Requirements {
            min_rooms: Some(18),
            min_exit_distance: Some(150),
            ..Requirements::default()
        },
        max_tries: 1000,
        ..GeneratorSettings::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.db");
    let batch = |catalog: Option<&Catalog>| -> u64 {
        (0..SEEDS)
            .map(|s| {
                let g = match catalog {
                    Some(c) => {
                        generator::generate_for_seed_with(s, 80, 30, &settings, &mut c.seed(s))
                    }
                    None => generator::generate_for_seed(s, 80, 30, &settings),
                };
                u64::from(black_box(g.unwrap()).tries)
            })
            .sum()
    };
    let filled = Catalog::open(&path, 80, 30, &settings).unwrap();
    let tries = batch(Some(&filled));
    let first = filled.finish();
    drop(filled);
    let again = Catalog::open(&path, 80, 30, &settings).unwrap();
    batch(Some(&again));
    let rerun = again.finish();
    drop(again);
    assert_eq!(rerun.tries_made, SEEDS, "a re-run makes one try a seed");
    eprintln!(
        "catalog: {SEEDS} seeds, {tries} tries without the catalog (and on its first run: {}), \
         {} on a re-run with it ({} remembered failed tries skipped)",
        first.tries_made, rerun.tries_made, rerun.tries_skipped
    );
    let mut g = c.benchmark_group("catalog");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    g.bench_function("rerun_10k_seeds", |b| {
        b.iter(|| {
            let catalog = Catalog::open(&path, 80, 30, &settings).unwrap();
            let t = batch(Some(&catalog));
            assert_eq!(catalog.finish().tries_made, SEEDS);
            t
        })
    });
    g.bench_function("10k_seeds_without_catalog", |b| b.iter(|| batch(None)));
    g.finish();
}
