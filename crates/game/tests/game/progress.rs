//! Progress while one large world or floor is made (`byog_worlds::progress`,
//! `docs/performance.md`): reports go to the thread's watcher in the order of the steps,
//! never going back, ending at 1; watched or not, the same worlds and floors are made.

use std::sync::{Arc, Mutex};

use byog_game::run::floor;
use byog_worlds::generator::{self, GeneratorKind, GeneratorSettings, LootQuestSettings};
use byog_worlds::progress::{self, Report, Stage};

/// Runs `work` watched, and returns its result and the reports.
fn watched<R>(work: impl FnOnce() -> R) -> (R, Vec<Report>) {
    let seen: Arc<Mutex<Vec<Report>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let watch = progress::watch(move |r| sink.lock().unwrap().push(r));
    let result = work();
    drop(watch);
    let reports = seen.lock().unwrap().clone();
    (result, reports)
}

/// The reports go forward (`done` never decreases), end at 1, and name the stages in the
/// order the steps run.
fn assert_forward(reports: &[Report], stages: &[Stage], what: &str) {
    assert!(!reports.is_empty(), "{what}: reports");
    assert!(
        reports.windows(2).all(|w| w[0].done <= w[1].done),
        "{what}: {reports:?}"
    );
    assert!(reports[0].done < 0.05, "{what}: {:?}", reports[0]);
    assert_eq!(reports.last().unwrap().done, 1.0, "{what}");
    let mut order: Vec<Stage> = reports.iter().map(|r| r.stage).collect();
    order.dedup();
    assert_eq!(order, stages, "{what}");
}

const WORLD: [Stage; 6] = [
    Stage::Rooms,
    Stage::Mazes,
    Stage::Connectors,
    Stage::Merge,
    Stage::DeadEnds,
    Stage::Placement,
];

#[test]
fn a_world_reports_its_steps_and_is_the_same_watched_or_not() {
    let d = GeneratorSettings::default();
    for (seed, w, h) in [(1, 80, 30), (2, 400, 300), (3, 9, 7)] {
        let plain = generator::generate_for_seed(seed, w, h, &d).unwrap();
        let (made, reports) = watched(|| generator::generate_for_seed(seed, w, h, &d).unwrap());
        assert_eq!(made.level, plain.level);
        assert_eq!(made.rng, plain.rng);
        assert_forward(&reports, &WORLD, &format!("{w} × {h}"));
        if w * h > 100_000 {
            // Inside the long steps too, not only between them.
            assert!(reports.len() > 100, "{}", reports.len());
        }
    }
    let lq = GeneratorSettings {
        generator: GeneratorKind::LootQuest,
        lootquest: LootQuestSettings::default(),
        ..d
    };
    let plain = generator::generate_for_seed(5, 80, 30, &lq).unwrap();
    let (made, reports) = watched(|| generator::generate_for_seed(5, 80, 30, &lq).unwrap());
    assert_eq!(made.level, plain.level);
    assert_forward(&reports, &[Stage::Layouts], "LootQuest");
}

#[test]
fn a_run_floor_reports_its_world_then_its_stages_and_is_the_same_watched_or_not() {
    let d = GeneratorSettings::default();
    for (seed, depth, w, h) in [(1, 1, 80, 30), (2, 10, 80, 30), (3, 1, 500, 400)] {
        let plain = floor::make(seed, depth, 10, w, h, &d).unwrap();
        let (made, reports) = watched(|| floor::make(seed, depth, 10, w, h, &d).unwrap());
        assert_eq!(made.terrain, plain.terrain);
        assert_eq!(made.features, plain.features);
        assert_eq!(made.info, plain.info);
        assert_eq!(made.rng, plain.rng);
        let mut stages = WORLD.to_vec();
        stages.extend([
            Stage::Paths,
            Stage::Traps,
            Stage::Chests,
            Stage::Check,
            Stage::Route,
        ]);
        assert_forward(&reports, &stages, &format!("B{depth} of {w} × {h}"));
        // The world is the first part of the floor's progress.
        let world_end = reports
            .iter()
            .filter(|r| r.stage == Stage::Placement)
            .map(|r| r.done)
            .fold(0.0, f32::max);
        assert_eq!(world_end, progress::FLOOR_WORLD_SHARE);
    }
}
