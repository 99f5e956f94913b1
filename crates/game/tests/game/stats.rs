//! Requirements met by the library and batches measured on any pool. `byog stats` as a user
//! runs it is the root's `tests/stats.rs`.

use byog_worlds::generator::{self, GenerateError, GeneratorSettings};
use byog_worlds::metrics::{self, Requirements};

fn with(requirements: Requirements, max_tries: u32) -> GeneratorSettings {
    GeneratorSettings {
        requirements,
        max_tries,
        ..GeneratorSettings::default()
    }
}

#[test]
fn requirements_that_can_be_met_are_met() {
    let req = Requirements {
        min_exit_distance: Some(200),
        min_rooms: Some(20),
        min_critical_path_rooms: Some(3),
        ..Requirements::default()
    };
    let mut retried = 0;
    for seed in 0..30 {
        let g = generator::generate_for_seed(seed, 80, 30, &with(req, 100)).unwrap();
        let d = &g.level;
        let m = metrics::measure(&d.world, d.avatar, d.exit);
        assert!(req.check(&m).is_ok(), "seed {seed}: {m:?}");
        assert!(m.exit_distance.unwrap() >= 200 && m.room_count >= 20);
        retried += u32::from(g.tries > 1);
        // The same seed and requirements always give the same world.
        let again = generator::generate_for_seed(seed, 80, 30, &with(req, 100)).unwrap();
        assert_eq!(again.level, g.level);
        assert_eq!(again.tries, g.tries);
    }
    assert!(retried > 0, "these requirements make some seeds retry");
}

#[test]
fn default_requirements_keep_every_seed_on_its_first_try() {
    for seed in [0, 1, 42, 999, 1234, 9223372036854775807] {
        let g = generator::generate_for_seed(seed, 80, 30, &GeneratorSettings::default()).unwrap();
        assert_eq!(g.tries, 1);
    }
}

#[test]
fn batches_are_measured_by_the_library_on_any_pool() {
    use byog_worlds::survey as batch;
    use std::sync::atomic::{AtomicU64, Ordering};
    let settings = GeneratorSettings::default();
    let seen = AtomicU64::new(0);
    let count = || {
        seen.fetch_add(1, Ordering::Relaxed);
    };
    let on_current = batch::measure_range(0..=9, 40, 20, &settings, None, &count).unwrap();
    assert_eq!(seen.load(Ordering::Relaxed), 10, "once a seed");
    assert_eq!((on_current.worlds, on_current.failed), (10, 0));
    let names: Vec<&str> = on_current.metrics.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, batch::names().collect::<Vec<_>>());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let on_two = batch::measure_range(0..=9, 40, 20, &settings, Some(&pool), &|| {}).unwrap();
    assert_eq!(on_two.metrics, on_current.metrics);
    // The summary of the open tiles, worked out here from each seed's own measure.
    let mut open: Vec<f64> = (0..=9)
        .map(|seed| {
            let s = batch::measure_seed(seed, 40, 20, &settings).unwrap();
            f64::from(s.metrics.open_tiles)
        })
        .collect();
    open.sort_by(f64::total_cmp);
    let summary = on_current
        .metrics
        .iter()
        .find(|(n, _)| *n == "open_tiles")
        .and_then(|(_, s)| *s)
        .unwrap();
    assert_eq!((summary.min, summary.max), (open[0], open[9]));
    assert_eq!(summary.median, open[4], "nearest rank: the 5th of 10");
    // Bad settings are refused before any seed is measured.
    let bad = GeneratorSettings {
        winding_percent: 101,
        ..GeneratorSettings::default()
    };
    let err = batch::measure_range(0..=9, 40, 20, &bad, None, &|| panic!("measured")).unwrap_err();
    assert_eq!(
        err,
        GenerateError::InvalidSetting {
            setting: generator::Setting::WindingPercent,
            value: 101,
            range: 0..=100,
        }
    );
}
