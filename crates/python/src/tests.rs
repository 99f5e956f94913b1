//! The arrays against `byog agent`'s observation (the in-process agent answers each line as
//! the process does): the same keys give the same tiles, avatar, exit and HUD numbers, and a
//! key the agent refuses is the action the game refuses. Independent of how the arrays are
//! built: the agent's observation is its own code (`byog_players::agent`).

use byog_game::game::GameKind;
use byog_players::agent::Agent;
use serde_json::Value as Json;

use crate::game::{ACTION_KEYS, CHAR_OF_GLYPH, MESSAGE_BYTES, Out, STATS, Stat};
use crate::options::{ObservedArea, Options, Value};
use crate::{Batch, BatchOut, Game};

/// A small deterministic generator for the walks.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Arrays for one game's observation.
#[derive(Clone, PartialEq, Debug)]
struct Arrays {
    glyphs: Vec<u16>,
    chars: Vec<u32>,
    colors: Vec<u8>,
    stats: Vec<i64>,
    message: Vec<u8>,
}

impl Arrays {
    fn new(o: &Options) -> Arrays {
        let (r, c) = o.view_shape();
        Arrays {
            glyphs: vec![7; r * c],
            chars: vec![7; r * c],
            colors: vec![7; r * c],
            stats: vec![7; STATS.len()],
            message: vec![7; MESSAGE_BYTES],
        }
    }

    fn out(&mut self) -> Out<'_> {
        Out {
            glyphs: Some(&mut self.glyphs),
            chars: Some(&mut self.chars),
            colors: Some(&mut self.colors),
            stats: Some(&mut self.stats),
            message: Some(&mut self.message),
        }
    }

    fn stat(&self, s: Stat) -> i64 {
        self.stats[s as usize]
    }
}

/// The JSON number at `key`, or -1 when absent or null.
fn num(obs: &Json, key: &str) -> i64 {
    obs.get(key).and_then(Json::as_i64).unwrap_or(-1)
}

/// Checks the arrays against the agent's observation `obs`.
fn check(o: &Options, a: &Arrays, obs: &Json, what: &str) {
    let rows: Vec<Vec<char>> = obs["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().collect())
        .collect();
    let (h, w) = (rows.len() as i64, rows.first().map_or(0, Vec::len) as i64);
    assert_eq!(a.stat(Stat::WorldWidth), w, "{what}");
    assert_eq!(a.stat(Stat::WorldHeight), h, "{what}");
    let avatar = obs["avatar"].as_array().unwrap();
    let (ax, ay) = (avatar[0].as_i64().unwrap(), avatar[1].as_i64().unwrap());
    assert_eq!((a.stat(Stat::X), a.stat(Stat::Y)), (ax, ay), "{what}");
    // The tile seen at world (x, y), ' ' outside.
    let at = |x: i64, y: i64| -> char {
        if x < 0 || y < 0 || x >= w || y >= h {
            ' '
        } else {
            rows[(h - 1 - y) as usize][x as usize]
        }
    };
    let (vr, vc) = o.view_shape();
    for r in 0..vr {
        for c in 0..vc {
            let (x, y) = match o.view {
                ObservedArea::World => (c as i64, h - 1 - r as i64),
                ObservedArea::Crop { rows, cols } => (
                    ax - (cols / 2) as i64 + c as i64,
                    ay + (rows / 2) as i64 - r as i64,
                ),
            };
            let want = at(x, y);
            let i = r * vc + c;
            assert_eq!(
                char::from_u32(a.chars[i]),
                Some(want),
                "{what}: row {r} col {c}"
            );
            assert_eq!(a.chars[i], CHAR_OF_GLYPH[a.glyphs[i] as usize], "{what}");
            assert_eq!(a.colors[i] as u16, a.glyphs[i], "{what}");
        }
    }
    match obs["exit"].as_array() {
        Some(e) => assert_eq!(
            (a.stat(Stat::ExitX), a.stat(Stat::ExitY)),
            (e[0].as_i64().unwrap(), e[1].as_i64().unwrap()),
            "{what}"
        ),
        None => assert_eq!(
            (a.stat(Stat::ExitX), a.stat(Stat::ExitY)),
            (-1, -1),
            "{what}"
        ),
    }
    assert_eq!(a.stat(Stat::Moves), num(obs, "moves"), "{what}");
    let status = match obs["status"].as_str().unwrap() {
        "playing" => 0,
        "won" if obs["mode"] == "explore" => 3,
        "won" => 1,
        _ => 2,
    };
    assert_eq!(a.stat(Stat::Status), status, "{what}");
    for (stat, key) in [
        (Stat::Health, "health"),
        (Stat::MovesLeft, "moves_left"),
        (Stat::Floor, "floor"),
        (Stat::Floors, "floors"),
        (Stat::Depth, "depth"),
        (Stat::Potions, "potions"),
        (Stat::PerfectFloors, "perfect_floors"),
        (Stat::ChestsTotal, "chests_total"),
        (Stat::TrapsTotal, "traps_total"),
        (Stat::ChestMoves, "chest_moves"),
        (Stat::TrapMoves, "trap_moves"),
    ] {
        assert_eq!(a.stat(stat), num(obs, key), "{what}: {key}");
    }
    assert_eq!(a.stat(Stat::Score), num(obs, "score").max(0), "{what}");
    if obs["mode"] == "explore" {
        let monsters = obs["monsters"].as_array().unwrap().len() as i64;
        assert_eq!(a.stat(Stat::Monsters), monsters, "{what}");
        let room = obs["room"].as_array().unwrap();
        assert_eq!(a.stat(Stat::RoomX), room[0].as_i64().unwrap(), "{what}");
        assert_eq!(a.stat(Stat::RoomY), room[1].as_i64().unwrap(), "{what}");
        assert_eq!(a.stat(Stat::Branch), num(obs, "branch"), "{what}");
    }
}

/// Plays `steps` random actions in a game and in the agent, comparing after each, and the
/// arrays written a change at a time against arrays written whole.
fn walk(mut o: Options, start: &str, steps: usize, seed: u64) -> (usize, usize) {
    o.travel = true;
    o.max_steps = None;
    let mut game = Game::new(&o);
    let mut agent = Agent::new(o.agent_options());
    let seed_of = |s: &str| s[1..s.len() - 1].parse::<u64>().unwrap();
    game.reset(seed_of(start)).unwrap();
    let mut kept = Arrays::new(&o);
    game.write(&mut kept.out(), true);
    let obs: Json = serde_json::from_str(&agent.reset(start).unwrap().to_json()).unwrap();
    check(&o, &kept, &obs, start);
    let mut rng = Lcg(seed);
    let (mut refused, mut ended) = (0, 0);
    for step in 0..steps {
        // Moves mostly, so the walks go somewhere; every key now and then.
        let action = if rng.below(4) == 0 {
            rng.below(8)
        } else {
            rng.below(4)
        } as usize;
        let key = ACTION_KEYS[action];
        let before = kept.clone();
        let result = game.step(action);
        game.write(&mut kept.out(), false);
        let mut whole = Arrays::new(&o);
        game.write(&mut whole.out(), true);
        assert_eq!(
            kept, whole,
            "{start} step {step}: written a change at a time"
        );
        let what = format!("{start} step {step} key {key}");
        let mut answer = agent.step(&key.to_string());
        // An agent's `>` that banked an exploration answered the way up's question (`Y`).
        if key == '>' && answer.is_ok() && kept.stat(Stat::Status) == 3 {
            answer = agent.step("Y");
        }
        match answer {
            Ok(seen) => {
                assert!(!result.refused, "{what}: the agent played it");
                let obs: Json = serde_json::from_str(&seen.to_json()).unwrap();
                check(&o, &kept, &obs, &what);
            }
            Err(e) => {
                assert!(result.refused, "{what}: the agent refused it: {e}");
                assert_eq!(kept.stat(Stat::Refused), 1);
                assert_eq!(kept.glyphs, before.glyphs, "{what}");
                refused += 1;
            }
        }
        if result.terminated {
            ended += 1;
            // The episode's keys replay to the same game.
            let keys = game.episode_keys().unwrap().to_owned();
            let replayed = agent.reset(&keys).unwrap();
            let obs: Json = serde_json::from_str(&replayed.to_json()).unwrap();
            check(&o, &kept, &obs, &format!("{what}: replayed"));
            let next = format!("{}{}S", &start[..1], seed_of(start) + ended as u64);
            game.reset(seed_of(&next)).unwrap();
            game.write(&mut kept.out(), true);
            let obs: Json = serde_json::from_str(&agent.reset(&next).unwrap().to_json()).unwrap();
            check(&o, &kept, &obs, &next);
        }
    }
    (refused, ended)
}

fn small(mode: GameKind) -> Options {
    let mut o = Options::new(mode);
    o.set("width", &Value::Int(30)).unwrap();
    o.set("height", &Value::Int(14)).unwrap();
    o.set("floors", &Value::Int(3)).unwrap();
    o
}

#[test]
fn a_classic_game_shows_what_the_agent_shows() {
    let (refused, ended) = walk(small(GameKind::Classic), "N5S", 3000, 1);
    assert!(refused > 0 && ended > 0, "{refused} refused, {ended} ended");
    let mut o = small(GameKind::Classic);
    o.set("crop", &Value::Pair(9, 13)).unwrap();
    walk(o, "N6S", 1500, 2);
}

#[test]
fn a_run_shows_what_the_agent_shows() {
    let (refused, ended) = walk(small(GameKind::Run), "R3S", 4000, 3);
    assert!(refused > 0 && ended > 0, "{refused} refused, {ended} ended");
    let mut o = small(GameKind::Run);
    o.set("crop", &Value::Int(11)).unwrap();
    walk(o, "R4S", 2000, 4);
}

#[test]
fn an_exploration_shows_what_the_agent_shows() {
    // Random keys, several draws, so that the games meet refusals and both answers are
    // compared (one draw meets a few at most: a random player banks an exploration every
    // 30 keys or so, and where `X` stops changed with rules version 9).
    let refused: usize = (5..13)
        .map(|draw| walk(Options::new(GameKind::Exploration), "E7S", 3000, draw).0)
        .sum();
    assert!(refused > 0);
}

/// The batch's games are the games stepped one by one: the same arrays, rewards and flags,
/// with one thread or two; an ended game starts its next seed on the step after.
#[test]
fn a_batch_is_its_games_stepped_alone() {
    let mut o = small(GameKind::Run);
    o.max_steps = Some(300);
    let n = 5;
    let (r, c) = o.view_shape();
    let run = |threads: usize| {
        let mut batch = Batch::new(&o, n, threads, true).unwrap();
        let mut glyphs = vec![0u16; n * r * c];
        let mut stats = vec![0i64; n * STATS.len()];
        let (mut rewards, mut term, mut trunc) = (vec![0.0; n], vec![false; n], vec![false; n]);
        let mut log = Vec::new();
        batch
            .reset(
                40,
                BatchOut {
                    glyphs: Some(&mut glyphs),
                    chars: None,
                    colors: None,
                    stats: Some(&mut stats),
                    message: None,
                    rewards: &mut rewards,
                    terminated: &mut term,
                    truncated: &mut trunc,
                },
            )
            .unwrap();
        let mut rng = Lcg(9);
        for _ in 0..700 {
            let actions: Vec<i64> = (0..n).map(|_| rng.below(5) as i64).collect();
            batch
                .step(
                    &actions,
                    BatchOut {
                        glyphs: Some(&mut glyphs),
                        chars: None,
                        colors: None,
                        stats: Some(&mut stats),
                        message: None,
                        rewards: &mut rewards,
                        terminated: &mut term,
                        truncated: &mut trunc,
                    },
                )
                .unwrap();
            log.push((
                actions,
                glyphs.clone(),
                stats.clone(),
                rewards.clone(),
                term.clone(),
                trunc.clone(),
            ));
        }
        log
    };
    let one = run(1);
    assert_eq!(one, run(2), "threads change nothing");
    // Game i alone: seed 40 + i, then 40 + i + n after its episode ends.
    for i in 0..n {
        let mut game = Game::new(&o);
        let mut seed = 40 + i as u64;
        game.reset(seed).unwrap();
        let mut a = Arrays::new(&o);
        let mut done = false;
        let mut episodes = 0;
        for (actions, glyphs, stats, rewards, term, trunc) in &one {
            if done {
                seed += n as u64;
                game.reset(seed).unwrap();
                game.write(&mut a.out(), true);
                assert_eq!((rewards[i], term[i], trunc[i]), (0.0, false, false));
                done = false;
                episodes += 1;
            } else {
                let s = game.step(actions[i] as usize);
                game.write(&mut a.out(), true);
                assert_eq!(
                    (rewards[i], term[i], trunc[i]),
                    (s.reward, s.terminated, s.truncated)
                );
                done = s.terminated || s.truncated;
            }
            assert_eq!(&glyphs[i * r * c..(i + 1) * r * c], &a.glyphs[..]);
            assert_eq!(&stats[i * STATS.len()..(i + 1) * STATS.len()], &a.stats[..]);
            assert_eq!(a.stat(Stat::Seed), seed as i64);
        }
        assert!(episodes >= 1, "game {i} started a second episode");
    }
}
