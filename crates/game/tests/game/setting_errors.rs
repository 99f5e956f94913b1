//! Which setting failed, said by the library in its own words (`GenerateError`, `Setting`)
//! and by the command line with its flags.

use byog_game::run::survey::measure_runs;
use byog_worlds::generator::{GenerateError, GeneratorSettings, Setting};
use byog_worlds::metrics::{Requirement, Requirements, RequirementsError};

/// A change that puts one setting out of its range, the setting, its value and its range.
type Case = (fn(&mut GeneratorSettings), Setting, u64, u64, u64);

#[test]
fn each_generator_setting_out_of_range_is_named() {
    let cases: [Case; 5] = [
        (
            |s| s.room_tries_per_1000_tiles = 1001,
            Setting::RoomTries,
            1001,
            0,
            1000,
        ),
        (
            |s| s.room_extra_size = 21,
            Setting::RoomExtraSize,
            21,
            0,
            20,
        ),
        (
            |s| s.winding_percent = 101,
            Setting::WindingPercent,
            101,
            0,
            100,
        ),
        (
            |s| s.extra_connector_chance = 1_000_001,
            Setting::ExtraConnectorChance,
            1_000_001,
            0,
            1_000_000,
        ),
        (|s| s.max_tries = 0, Setting::MaxTries, 0, 1, 10_000),
    ];
    for (spoil, setting, value, lo, hi) in cases {
        let mut settings = GeneratorSettings::default();
        spoil(&mut settings);
        let err = settings.validate().unwrap_err();
        assert_eq!(
            err,
            GenerateError::InvalidSetting {
                setting,
                value,
                range: lo..=hi,
            }
        );
        // The library's words: no flag, no dashes.
        let text = err.to_string();
        assert_eq!(
            text,
            format!("{setting} {value} is out of range {lo}..={hi}")
        );
        assert!(!text.contains("--"), "{text}");
    }
    let settings = GeneratorSettings {
        winding_percent: 101,
        ..GeneratorSettings::default()
    };
    assert_eq!(
        settings.validate().unwrap_err().to_string(),
        "winding percent 101 is out of range 0..=100"
    );
}

#[test]
fn requirements_out_of_range_or_contradictory_are_named() {
    let over = Requirements {
        max_openness_percent: Some(150),
        ..Requirements::default()
    };
    assert_eq!(
        over.validate(),
        Err(RequirementsError::OutOfRange {
            requirement: Requirement::MaxOpenness,
            bound: 150,
            max: 100,
        })
    );
    let settings = GeneratorSettings {
        requirements: over,
        ..GeneratorSettings::default()
    };
    let err = settings.validate().unwrap_err();
    assert_eq!(
        err,
        GenerateError::InvalidSetting {
            setting: Setting::Requirement(Requirement::MaxOpenness),
            value: 150,
            range: 0..=100,
        }
    );
    assert_eq!(
        err.to_string(),
        "maximum openness 150 is out of range 0..=100"
    );
    let both = GeneratorSettings {
        requirements: Requirements {
            min_rooms: Some(9),
            max_rooms: Some(3),
            ..Requirements::default()
        },
        ..GeneratorSettings::default()
    };
    let err = both.validate().unwrap_err();
    assert_eq!(
        err,
        GenerateError::ContradictoryRequirements {
            minimum: Requirement::MinRooms,
            minimum_bound: 9,
            maximum: Requirement::MaxRooms,
            maximum_bound: 3,
        }
    );
    assert_eq!(
        err.to_string(),
        "minimum room count 9 is above maximum room count 3: no world can meet both"
    );
}

#[test]
fn a_batch_of_runs_names_the_floor_count() {
    let err = measure_runs(
        0..=1,
        0,
        80,
        30,
        &GeneratorSettings::default(),
        None,
        &|| {},
    )
    .unwrap_err();
    assert_eq!(
        err,
        GenerateError::InvalidSetting {
            setting: Setting::Floors,
            value: 0,
            range: 1..=99,
        }
    );
    assert_eq!(err.to_string(), "floors 0 is out of range 1..=99");
}

#[test]
fn unmet_requirements_are_said_in_the_library_s_words() {
    let settings = GeneratorSettings {
        requirements: Requirements {
            min_openness_percent: Some(99),
            ..Requirements::default()
        },
        max_tries: 2,
        ..GeneratorSettings::default()
    };
    let err = byog_worlds::generator::generate_for_seed(7, 80, 30, &settings).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("seed 7: no world met the requirements in 2 tries; minimum openness failed most often (2 of 2 tries)"),
        "{text}"
    );
    assert!(!text.contains("--"), "{text}");
}
