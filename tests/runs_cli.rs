//! Runs (`docs/runs.md`) through the `byog` binary and the shell's screens: the solver's
//! wins replayed by `byog replay`, save/load splits, both ways to lose (and what the binary
//! says of them), snapshots of `byog replay --json`, a floor missing the requirements named,
//! and what the HUD and the floor screens say. The library's part is in the players' test
//! binary (`crates/players/tests/players/runs.rs`).

use std::time::Instant;

use byog_game::interpreter::{GameKind, Interpreter, Outcome, Phase, Refusal};
use byog_game::replay;
use byog_game::rules::Event;
use byog_game::run::{FeatureKind, Loss, floor};
use byog_game::save::MemoryStore;
use byog_game::{GameState, LevelStatus};
use byog_players::solver;
use byog_worlds::generator::GeneratorSettings;

use crate::common;
use common::{Rng, byog_in, json_rows, stderr, stdout};

use crate::run_oracle::*;

fn insta_settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

// ---------------------------------------------------------------------------------------
// 2. The solver wins every run perfectly.
// ---------------------------------------------------------------------------------------

#[test]
fn the_solver_wins_two_hundred_runs_perfectly() {
    let started = Instant::now();
    let mut rng = Rng(0x5EED_0002);
    let seeds: Vec<u64> = (0..100)
        .chain((0..100).map(|_| random_seed(&mut rng)))
        .collect();
    for &seed in &seeds {
        let mut game = new_run(seed);
        let actions = solver::solve(&game).unwrap_or_else(|e| panic!("R{seed}S: {e}"));
        let mut descents = 0;
        for &a in &actions {
            assert_eq!(game.status(), LevelStatus::Playing, "R{seed}S");
            let floor_before = game.run().unwrap().floor;
            let handled_all = game.features().iter().all(|f| f.handled);
            let events = game.apply(a);
            for e in &events {
                if let Event::Descended { floor, perfect, .. } = *e {
                    descents += 1;
                    assert_eq!(floor, floor_before + 1, "R{seed}S");
                    assert!(
                        perfect && handled_all,
                        "R{seed}S: B{floor_before} not perfect"
                    );
                }
                assert!(
                    !matches!(e, Event::Hurt { .. } | Event::Blocked { .. }),
                    "R{seed}S: the solver's route {e:?}"
                );
            }
        }
        let run = game.run().unwrap();
        assert_eq!(game.status(), LevelStatus::Won, "R{seed}S: {run:?}");
        assert_eq!(descents, FLOORS - 1, "R{seed}S");
        assert_eq!(run.floor, FLOORS, "R{seed}S");
        assert_eq!(run.perfect_floors, FLOORS, "R{seed}S");
        assert_eq!(run.health, 3, "R{seed}S");
        assert_eq!(run.loss, None, "R{seed}S");
        assert!(game.features().iter().all(|f| f.handled), "R{seed}S");
        assert_eq!(game.history(), format!("R{seed}S{}", keys_of(&actions)));
        // Solving a won run has nothing to give.
        let err = solver::solve(&game).unwrap_err();
        assert!(err.to_string().contains("won"), "{err}");
    }
    eprintln!("{} runs solved in {:?}", seeds.len(), started.elapsed());

    // The same through the binary.
    let dir = tempfile::tempdir().unwrap();
    for seed in [0, 42, 2018, MAX_SEED] {
        let start = format!("R{seed}S");
        let out = byog_in(dir.path(), &["solve", &start]);
        assert!(out.status.success(), "solve {start}: {}", stderr(&out));
        let keys = stdout(&out).trim().to_string();
        assert_eq!(keys, solve_keys(seed), "byog solve {start}");
        let out = byog_in(dir.path(), &["replay", &format!("{start}{keys}")]);
        assert!(out.status.success(), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("run won"), "{start}: {err}");
        assert!(
            err.contains(&format!("{FLOORS} perfect of {FLOORS} floors")),
            "{err}"
        );
        // The last floor's world is printed, its door unlocked.
        assert!(stdout(&out).contains('▢'), "{}", stdout(&out));
    }
}

// ---------------------------------------------------------------------------------------
// 3. The solver decides exactly whether a run can still be won.
// ---------------------------------------------------------------------------------------

/// Steps back and forth between the avatar's tile and a plain floor neighbour `2 × pairs`
/// times; `false` (and nothing done) when the avatar stands on a feature or has no such
/// neighbour.
fn burn(game: &mut GameState, pairs: u64) -> bool {
    let g = Chars::of_game(game);
    if game.features().iter().any(|f| f.pos == game.avatar()) {
        return false;
    }
    let Some((there, back)) = [('W', 'S'), ('S', 'W'), ('A', 'D'), ('D', 'A')]
        .into_iter()
        .find(|&(k, _)| {
            let (_, dx, dy) = STEPS.iter().copied().find(|s| s.0 == k).unwrap();
            g.at(game.avatar().offset(dx, dy)) == Some(FLOOR)
        })
    else {
        return false;
    };
    for _ in 0..pairs {
        game.apply(act(there));
        game.apply(act(back));
    }
    true
}

// ---------------------------------------------------------------------------------------
// 5. Save and load anywhere in a run.
// ---------------------------------------------------------------------------------------

#[test]
fn a_run_saved_and_loaded_anywhere_is_the_same_run() {
    let mut rng = Rng(0x5EED_0005);
    for seed in [5, 64, 1999, 123_456_789] {
        // A random walk (bumps, maybe a trap or two), then the solver's keys from there.
        let mut game = new_run(seed);
        let walk: String = (0..40).map(|_| STEPS[rng.below(4) as usize].0).collect();
        play(&mut game, &walk);
        let rest = keys_of(&solver::solve(&game).unwrap());
        let keys = format!("{walk}{rest}");
        // Where each floor starts: the index just after the key that descends.
        let mut g = new_run(seed);
        let mut after_descent = Vec::new();
        for (i, events) in play(&mut g, &keys).iter().enumerate() {
            if events.iter().any(|e| matches!(e, Event::Descended { .. })) {
                after_descent.push(i + 1);
            }
        }
        assert_eq!(g.status(), LevelStatus::Won);
        assert_eq!(after_descent.len(), FLOORS as usize - 1);
        let n = keys.len();
        let d = |k: usize| after_descent[k];
        let mut splits = vec![
            0,
            1,
            1 + rng.below(d(0) as u64 - 1) as usize, // on B1
            d(0) - 1,                                // just before walking into B1's exit
            d(0),                                    // right after the descent into B2
            d(0) + 1,
            d(0) + rng.below((d(1) - d(0)) as u64) as usize, // on B2
            d(1),
            d(4) - 1,
            d(4),
            d(8),
            n - 1,
            n, // after the win
        ];
        splits.sort_unstable();
        splits.dedup();
        let start = format!("R{seed}S");
        let expected = game_after(&[&format!("{start}{keys}")]);
        assert_eq!(expected, g, "R{seed}S: replay and apply agree");
        for &s in &splits {
            let first = format!("{start}{}:Q", &keys[..s]);
            let second = format!("L{}", &keys[s..]);
            let got = game_after(&[&first, &second]);
            assert!(got == expected, "R{seed}S split at {s} of {n} differs");
        }
        // Several saves and loads in a row, one on each side of a descent and a :Q on a
        // loaded game that did nothing.
        let cuts = [d(0) - 1, d(0), d(0), d(2) + 3, d(6), n];
        let mut inputs = vec![format!("{start}{}:Q", &keys[..cuts[0]])];
        for w in cuts.windows(2) {
            inputs.push(format!("L{}:Q", &keys[w[0]..w[1]]));
        }
        inputs.push("L".into());
        let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        assert!(game_after(&refs) == expected, "R{seed}S: {cuts:?}");
    }
}

// ---------------------------------------------------------------------------------------
// 6. Losing, both ways, and keys after the end.
// ---------------------------------------------------------------------------------------

/// Runs `input` in a fresh interpreter, then feeds `after` key by key; the outcomes.
fn outcomes_after(input: &str, after: &str) -> (Interpreter, Vec<Outcome>) {
    let mut store = MemoryStore::default();
    let mut it = interpreter();
    replay::replay(&mut it, input, &mut store, true, &mut |_| {}).unwrap();
    let outs = after
        .chars()
        .map(|c| it.feed(c, &mut store).unwrap())
        .collect();
    (it, outs)
}

fn check_keys_after_a_lost_run(lost: &GameState, why: &str) {
    let input = lost.history();
    let (it, outs) = outcomes_after(&input, "wD:X");
    assert_eq!(it.phase(), Phase::Ended { colon: false });
    for o in &outs[..2] {
        assert!(
            matches!(o, Outcome::Reported(r) if r.reason == Refusal::GameOver),
            "{o:?}"
        );
    }
    assert!(it.game().unwrap() == lost, "refused keys changed the game");
    // N and R start a new game / run.
    for (key, kind) in [('N', GameKind::Classic), ('r', GameKind::Run)] {
        let (it, outs) = outcomes_after(&input, &format!("{key}7S"));
        assert_eq!(outs[0], Outcome::Accepted);
        assert_eq!(outs[2], Outcome::Started);
        let g = it.game_in_play().unwrap();
        assert_eq!(g.status(), LevelStatus::Playing);
        assert_eq!(g.seed(), 7);
        assert_eq!(g.run().is_some(), kind == GameKind::Run);
        let (it, _) = outcomes_after(&input, &key.to_string());
        assert!(
            matches!(it.phase(), Phase::SeedEntry { kind: k, digits: 0, .. } if k == kind),
            "{:?}",
            it.phase()
        );
    }
    // The binary: a lost run is a result, not an error.
    let dir = tempfile::tempdir().unwrap();
    let out = byog_in(dir.path(), &["replay", &input]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("run lost"), "{err}");
    assert!(err.contains(why), "{err}");
    let out = byog_in(dir.path(), &["replay", "--json", &input]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["status"], "lost");
    assert_eq!(v["loss"], why_reason(why));
    // solve has nothing to give, and says why.
    let out = byog_in(dir.path(), &["solve", &input]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("lost"), "{}", stderr(&out));
}

fn why_reason(why: &str) -> &'static str {
    if why.contains("health") {
        Loss::OutOfHealth.reason()
    } else {
        Loss::OutOfMoves.reason()
    }
}

#[test]
fn a_run_is_lost_out_of_health_on_armed_traps() {
    for seed in [8, 101, 2024] {
        let mut game = new_run(seed);
        let trap = game
            .features()
            .iter()
            .find(|f| f.kind == FeatureKind::Trap)
            .expect("B1 has a trap")
            .pos;
        // Walk onto it over plain floor (no other feature on the way).
        let g = Chars::of_game(&game);
        let keys = route(&g, game.avatar(), trap, &plain).expect("a plain way to the trap");
        let events = play(&mut game, &keys);
        assert!(
            events
                .last()
                .unwrap()
                .contains(&Event::Rearmed { at: trap }),
            "{events:?}"
        );
        // A plain floor neighbour to step off to.
        let g = Chars::of_game(&game);
        let (off, on) = [('W', 'S'), ('S', 'W'), ('A', 'D'), ('D', 'A')]
            .into_iter()
            .find(|&(k, _)| {
                let (_, dx, dy) = STEPS.iter().copied().find(|s| s.0 == k).unwrap();
                g.at(trap.offset(dx, dy)) == Some(FLOOR)
            })
            .expect("a floor tile next to the trap");
        for health in (0..3).rev() {
            let left = game.run().unwrap().moves_left;
            game.apply(act(off));
            let events = game.apply(act(on));
            assert_eq!(game.run().unwrap().moves_left, left - 2);
            assert_eq!(events.as_slice()[1], Event::Hurt { at: trap, health });
            assert_eq!(game.run().unwrap().health, health);
            assert!(
                !game.feature_at(trap).unwrap().handled,
                "sprung on the upkeeper"
            );
            if health > 0 {
                assert_eq!(game.status(), LevelStatus::Playing);
                // Off and on again: rearmed, no harm.
                game.apply(act(off));
                let events = game.apply(act(on));
                assert!(events.as_slice().contains(&Event::Rearmed { at: trap }));
                assert_eq!(game.run().unwrap().health, health);
            } else {
                assert_eq!(
                    events.as_slice().last(),
                    Some(&Event::Lost(Loss::OutOfHealth))
                );
            }
        }
        assert_eq!(game.status(), LevelStatus::Lost);
        assert_eq!(game.run().unwrap().loss, Some(Loss::OutOfHealth));
        // Nothing more happens.
        let before = game.clone();
        assert_eq!(game.apply(act(off)).as_slice(), &[Event::AlreadyOver]);
        assert!(game == before);
        let err = solver::solve(&game).unwrap_err().to_string();
        assert!(err.contains("lost"), "{err}");
        check_keys_after_a_lost_run(&game, "out of health");
    }
}

#[test]
fn a_run_is_lost_out_of_moves_and_bumps_are_free() {
    let mut bumped = 0;
    for seed in [9, 314, 27182] {
        let mut game = new_run(seed);
        let g = Chars::of_game(&game);
        let start = game.avatar();
        // A bump into a wall costs no move and is not in the history.
        let wall = STEPS
            .iter()
            .find(|&&(_, dx, dy)| g.at(start.offset(dx, dy)) == Some('#'))
            .map(|s| s.0);
        let left = game.run().unwrap().moves_left;
        if let Some(k) = wall {
            bumped += 1;
            let events = game.apply(act(k));
            assert!(events.blocked().is_some(), "{events:?}");
            assert_eq!(game.run().unwrap().moves_left, left);
            assert_eq!(game.moves(), 0);
            assert_eq!(game.history(), format!("R{seed}S"));
        }
        let (there, back) = [('W', 'S'), ('S', 'W'), ('A', 'D'), ('D', 'A')]
            .into_iter()
            .find(|&(k, _)| {
                let (_, dx, dy) = STEPS.iter().copied().find(|s| s.0 == k).unwrap();
                g.at(start.offset(dx, dy)) == Some(FLOOR)
            })
            .expect("plain floor next to the start");
        // Back and forth: every step costs one; the last one loses.
        for i in 0..left {
            assert_eq!(game.status(), LevelStatus::Playing);
            assert_eq!(game.run().unwrap().moves_left, left - i);
            let events = game.apply(act(if i % 2 == 0 { there } else { back }));
            assert_eq!(game.run().unwrap().moves_left, left - i - 1);
            assert_eq!(events.lost(), i == left - 1, "step {i}: {events:?}");
            if i == left - 1 {
                assert_eq!(
                    events.as_slice().last(),
                    Some(&Event::Lost(Loss::OutOfMoves))
                );
            }
            // Back on the start, a bump now and then still costs nothing.
            if let Some(k) = wall
                && i % 2 == 1
                && i % 50 == 1
                && i < left - 1
            {
                let before = game.run().unwrap().moves_left;
                assert!(game.apply(act(k)).blocked().is_some());
                assert_eq!(game.run().unwrap().moves_left, before);
            }
        }
        let run = game.run().unwrap();
        assert_eq!(game.status(), LevelStatus::Lost);
        assert_eq!(run.loss, Some(Loss::OutOfMoves));
        assert_eq!(run.moves_left, 0);
        assert_eq!(run.health, 3);
        assert_eq!(game.moves(), left);
        check_keys_after_a_lost_run(&game, "out of moves");
    }
    assert!(bumped > 0, "no start had a wall to bump into");
}

// ---------------------------------------------------------------------------------------
// 7. Snapshots: run floors and the JSON state.
// ---------------------------------------------------------------------------------------

#[test]
fn run_json_states_are_locked() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases: Vec<(String, String)> = Vec::new();
    for seed in [42, 2018] {
        let start = format!("R{seed}S");
        let keys = solve_keys(seed);
        let mut game = new_run(seed);
        let (mut refill, mut descent) = (None, None);
        for (i, events) in play(&mut game, &keys).iter().enumerate() {
            if refill.is_none() && events.iter().any(|e| matches!(e, Event::Refilled { .. })) {
                refill = Some(i + 1);
            }
            if descent.is_none() && events.iter().any(|e| matches!(e, Event::Descended { .. })) {
                descent = Some(i + 1);
            }
        }
        cases.push((format!("run_json_{seed}_start"), start.clone()));
        cases.push((
            format!("run_json_{seed}_refill"),
            format!("{start}{}", &keys[..refill.unwrap()]),
        ));
        cases.push((
            format!("run_json_{seed}_descent"),
            format!("{start}{}", &keys[..descent.unwrap()]),
        ));
        cases.push((format!("run_json_{seed}_won"), format!("{start}{keys}")));
    }
    insta_settings().bind(|| {
        for (name, input) in cases {
            let out = byog_in(dir.path(), &["replay", "--json", &input]);
            assert!(out.status.success(), "{name}: {}", stderr(&out));
            let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
            // Cross-checks against the library's game.
            let game = game_after(&[&input]);
            let run = game.run().unwrap();
            assert_eq!(v["mode"], "run");
            assert_eq!(v["floor"], run.floor);
            assert_eq!(v["floors"], FLOORS);
            assert_eq!(v["health"], run.health);
            assert_eq!(v["moves_left"], run.moves_left);
            assert_eq!(v["score"], run.score);
            assert_eq!(
                v["avatar"],
                serde_json::json!([game.avatar().x, game.avatar().y])
            );
            assert_eq!(v["exit"], serde_json::json!([game.exit().x, game.exit().y]));
            assert_eq!(
                v["features"].as_array().unwrap().len(),
                game.features().len()
            );
            let rows = json_rows(&v);
            assert_eq!(rows.join("\n") + "\n", game.world().to_string());
            let pretty = serde_json::to_string_pretty(&v).unwrap();
            insta::assert_snapshot!(name, format!("input: {input}\n{pretty}"));
        }
    });
}

/// A user found a run whose floor misses the requirements named an internal seed
/// (`--min-openness 99 R1S`: "seed 6398341483084266690"): it names the run's seed and floor.
#[test]
fn a_floor_that_misses_the_requirements_is_named_by_the_runs_seed_and_floor() {
    let dir = tempfile::tempdir().unwrap();
    let out = byog_in(dir.path(), &["--min-openness", "99", "R1S"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("run seed 1: no world for floor B1"), "{err}");
    let internal = floor::floor_seed(1, 1, 0).to_string();
    assert!(!err.contains(&internal), "{err}");
    // A later floor that misses them (larger floors hold more rooms) is found when the run
    // starts, never mid-run: B1 can be made, B7 cannot.
    let settings = GeneratorSettings {
        requirements: byog_worlds::metrics::Requirements {
            max_rooms: Some(8),
            ..Default::default()
        },
        ..GeneratorSettings::default()
    };
    let floors: Vec<bool> = (1..=10)
        .map(|d| floor::make(1, d, 10, 80, 30, &settings).is_ok())
        .collect();
    assert!(floors[0] && !floors.iter().all(|&ok| ok), "{floors:?}");
    let first_bad = floors.iter().position(|ok| !ok).unwrap() + 1;
    let err = GameState::new_run(1, 80, 30, settings, 10).unwrap_err();
    assert!(
        err.to_string().contains(&format!("floor B{first_bad} ")),
        "{err}"
    );
}

/// The run's HUD says what is left on the floor and what one more pays (`chests 0/3 (+N) ·
/// traps 0/1 (+M)` on B1 of run 77, which the depth table gives 3 chests and 1 trap), and
/// the floor screen names what was
/// missed and what it cost.
#[test]
fn the_hud_counts_the_features_and_the_floor_screen_names_the_misses() {
    let game = new_run(77);
    let run = game.run().unwrap();
    let features = game.features();
    let chests = features
        .iter()
        .filter(|f| f.kind == byog_game::run::FeatureKind::Chest)
        .count();
    let text = byog_shell::screens::run_progress(&game);
    assert!(
        text.starts_with(&format!(
            "chests 0/{chests} (+{}) · traps 0/{} (+{})",
            byog_game::run::feature_moves(
                &run.info,
                byog_game::run::weights(&features),
                byog_game::run::FeatureKind::Chest
            ),
            features.len() - chests,
            byog_game::run::feature_moves(
                &run.info,
                byog_game::run::weights(&features),
                byog_game::run::FeatureKind::Trap
            ),
        )),
        "{text}"
    );
    // The exit is not seen at the start, and it is in reach: no distance, no warning.
    assert!(
        !text.contains("exit") && !text.contains("OUT OF REACH"),
        "{text}"
    );
    assert!(run.moves_left > 0);
    let screen = byog_shell::screens::floor_screen(
        3,
        10,
        120,
        byog_shell::screens::Missed {
            chests: 1,
            traps: 2,
            forgone: 52,
        },
    );
    let lines: Vec<&str> = screen.lines.iter().map(|l| l.text.as_str()).collect();
    assert!(
        lines.contains(&"missed on B2: 1 chest and 2 traps: -52 moves"),
        "{lines:?}"
    );
    let perfect =
        byog_shell::screens::floor_screen(3, 10, 120, byog_shell::screens::Missed::default());
    assert!(
        perfect
            .lines
            .iter()
            .any(|l| l.text.starts_with("perfect floor"))
    );
}

/// The HUD warns exactly when the solver says the exit is out of reach: burning moves in
/// place on B1 of run 77 until the way into the exit no longer fits.
#[test]
fn the_hud_warns_when_the_exit_is_out_of_reach() {
    let mut game = new_run(77);
    let (mut warned, mut unseen_warned) = (false, false);
    while !game.has_ended() {
        let text = byog_shell::screens::run_progress(&game);
        let lost_cause = byog_players::solver::solve(&game).is_err();
        assert_eq!(text.contains("OUT OF REACH"), lost_cause, "{text}");
        // An exit not seen yet: the warning never says how far it lies.
        if !game.has_seen(game.exit()) {
            assert!(!text.contains("needs"), "{text}");
            unseen_warned |= lost_cause;
        }
        warned |= lost_cause;
        if !burn(&mut game, 1) {
            break;
        }
    }
    assert!(warned, "the moves ran out without a warning");
    assert!(
        unseen_warned,
        "the exit was seen: the unseen case was not tried"
    );
}

/// The moves not carried down are said, in the message line and on the screen between floors,
/// and are exactly the points the descent added (a step into the exit handles nothing).
#[test]
fn spare_moves_paid_at_a_descent_are_said_and_scored() {
    let mut said = 0;
    for seed in [1, 42, 555] {
        let mut game = new_run(seed);
        for k in solve_keys(seed).chars() {
            let score = game.run().unwrap().score;
            let events = game.apply(act(k));
            if !events
                .as_slice()
                .iter()
                .any(|e| matches!(e, Event::Descended { .. }))
            {
                continue;
            }
            // Besides the spare moves, a perfect floor pays its bonus on the way down.
            let left_behind = game.run().unwrap().floor - 1;
            let perfect = events
                .as_slice()
                .iter()
                .any(|e| matches!(e, Event::Descended { perfect: true, .. }));
            let bonus = if perfect {
                let settings = GeneratorSettings::default();
                byog_game::run::depth::params(left_behind, FLOORS, W, H, &settings).perfect_points
            } else {
                0
            };
            let gained = game.run().unwrap().score - score - bonus;
            let paid = events.as_slice().iter().find_map(|e| match *e {
                Event::PaidOver { moves } => Some(u64::from(moves)),
                _ => None,
            });
            assert_eq!(
                paid.unwrap_or(0),
                gained,
                "R{seed}S: the points are the moves paid"
            );
            let Some(paid) = paid else { continue };
            said += 1;
            let screen = byog_shell::screens::descent_screen(&events, Some(&game)).unwrap();
            let lines: Vec<&str> = screen.lines.iter().map(|l| l.text.as_str()).collect();
            assert!(
                lines.contains(
                    &format!("{paid} spare moves not carried down: +{paid} points").as_str()
                ) || (paid == 1 && lines.contains(&"1 spare move not carried down: +1 point")),
                "{lines:?}"
            );
            if game.run().unwrap().floor == 4 {
                break;
            }
        }
    }
    assert!(said >= 3, "only {said} descents paid spare moves");
}

/// A feature handled the first time pays its points and moves at once, and the message line
/// says both after the feature's own words (`chest refilled: +30 points, +69 moves`); the
/// moves are the HUD's `(+N)` for its kind, and exactly what the moves left gained.
#[test]
fn a_feature_handled_says_its_points_and_moves() {
    let (mut chests, mut traps) = (0, 0);
    for seed in [1, 42, 555] {
        let mut game = new_run(seed);
        for k in solve_keys(seed).chars() {
            let before = *game.run().unwrap();
            let hud = byog_shell::screens::run_progress(&game);
            let events = game.apply(act(k));
            let Some((moves, points)) = events.as_slice().iter().find_map(|e| match *e {
                Event::Earned { moves, points } => Some((moves, points)),
                _ => None,
            }) else {
                continue;
            };
            if events
                .as_slice()
                .iter()
                .any(|e| matches!(e, Event::Descended { .. }))
            {
                continue;
            }
            let after = game.run().unwrap();
            assert_eq!(after.moves_left, before.moves_left - 1 + u64::from(moves));
            assert_eq!(after.score, before.score + u64::from(points));
            let line = byog_shell::screens::feedback(
                &Outcome::Acted(events),
                std::path::Path::new("save.bin"),
            )
            .message;
            let chest = events
                .as_slice()
                .iter()
                .any(|e| matches!(e, Event::Refilled { .. }));
            let (name, kind) = if chest {
                chests += 1;
                ("chest refilled", "chests")
            } else {
                traps += 1;
                ("trap rearmed", "traps")
            };
            assert_eq!(
                line,
                format!("{name}: +{points} points, +{moves} moves"),
                "R{seed}S"
            );
            assert!(hud.contains(&format!("(+{moves})")), "{hud}");
            assert!(hud.contains(kind), "{hud}");
            if after.floor == 3 {
                break;
            }
        }
    }
    assert!(chests >= 6 && traps >= 3, "{chests} chests, {traps} traps");
}
