//! The library's errors in the command line's words: the library names a setting ("width",
//! "minimum openness"); here each [`Setting`] becomes the flag that sets it (`--width`,
//! `--min-openness`), so a message tells the user what to type differently.

use byog_game::interpreter::InterpretError;
use byog_game::replay::ReplayError;
use byog_game::run::survey::RunFailure;
use byog_worlds::generator::{GenerateError, Setting};

/// The flag that sets `setting`, with its dashes: `--width`, `--min-openness`.
pub fn flag(setting: Setting) -> String {
    let name = match setting {
        Setting::Width => "width",
        Setting::Height => "height",
        Setting::RoomTries => "room-tries",
        Setting::RoomExtraSize => "room-extra-size",
        Setting::WindingPercent => "winding-percent",
        Setting::ExtraConnectorChance => "extra-connector-chance",
        Setting::MaxTries => "max-tries",
        Setting::Floors => "floors",
        Setting::MaxUnexplored => "max-unexplored",
        Setting::BranchTimer => "branch-timer",
        Setting::Rooms => "rooms",
        Setting::CriticalPath => "critical-path",
        Setting::MaxDeadEnd => "max-dead-end",
        Setting::RoomSize => "room-size",
        Setting::RoomSpacing => "room-spacing",
        Setting::Loops => "loops",
        Setting::Requirement(r) => r.flag(),
    };
    format!("--{name}")
}

/// "1 try", "3 tries".
fn tries(n: u32) -> String {
    if n == 1 {
        "1 try".to_owned()
    } else {
        format!("{n} tries")
    }
}

/// A [`GenerateError`] naming flags: "--winding-percent 101 is out of range: it takes
/// 0..=100", "seed 7: no world met the requirements in 3 tries (--max-tries);
/// --min-openness failed most often …".
pub fn generate(e: &GenerateError) -> String {
    match e {
        GenerateError::InvalidSize { .. } => format!("{e} (see --width and --height)"),
        GenerateError::InvalidSetting {
            setting,
            value,
            range,
        } => format!(
            "{} {value} is out of range: it takes {}..={}",
            flag(*setting),
            range.start(),
            range.end()
        ),
        GenerateError::ReversedRange { setting, min, max } => format!(
            "{} {min}..{max}: the minimum is above the maximum; write MIN..MAX",
            flag(*setting)
        ),
        GenerateError::LootQuestUnmet {
            critical_path,
            width,
            height,
            room_min,
            room_max,
            spacing_min,
            spacing_max,
            tries: n,
            fits,
            floor,
        } => format!(
            "no LootQuest dungeon with --critical-path {critical_path} fits {} with \
             --room-size {room_min}..{room_max} and --room-spacing {spacing_min}..{spacing_max} \
             ({}): {}",
            match floor {
                Some(k) => format!(
                    "floor B{k} ({width} × {height} tiles, sized from --width/--height by the \
                     depth table)"
                ),
                None => format!("--width {width} --height {height}"),
            },
            if *n == 0 {
                "checked before placing any room".to_owned()
            } else {
                format!("{} layouts tried", n)
            },
            fits.replace("a critical path of ", "--critical-path ")
                .replace(" rooms or less", " or less")
                .replace(
                    "smaller rooms or corridors",
                    "a smaller --room-size or --room-spacing"
                )
                .replace("smaller rooms", "a smaller --room-size")
                .replace("a larger world", "a larger --width/--height")
        ),
        GenerateError::ContradictoryRequirements {
            minimum,
            minimum_bound,
            maximum,
            maximum_bound,
        } => format!(
            "--{} {minimum_bound} is above --{} {maximum_bound}: no world can meet both",
            minimum.flag(),
            maximum.flag()
        ),
        GenerateError::NoFloorFits {
            seed,
            floor,
            tries: n,
        } => format!(
            "run seed {seed}: no try of floor B{floor} fits its move budget in {}; try another \
             seed, or a larger --width/--height (small floors fit their budget less often)",
            tries(*n)
        ),
        GenerateError::FloorRequirementsUnmet {
            seed,
            floor,
            width,
            height,
            tries: n,
            requirement,
            failures,
            closest,
        } => format!(
            "run seed {seed}: no world for floor B{floor} ({width} × {height} tiles) met the \
             requirements in {} (--max-tries); --{} failed most often ({failures} of {}), and \
             the closest value reached was: {closest}",
            tries(*n),
            requirement.flag(),
            tries(*n)
        ),
        GenerateError::RequirementsUnmet {
            seed,
            tries: n,
            requirement,
            failures,
            closest,
        } => format!(
            "seed {seed}: no world met the requirements in {} (--max-tries); --{} failed most \
             often ({failures} of {}), and the closest value reached was: {closest}",
            tries(*n),
            requirement.flag(),
            tries(*n)
        ),
    }
}

/// A run that could not be made, naming flags: "run seed 3: floor B1: seed …: no world met
/// the requirements …".
pub fn run_failure(f: &RunFailure) -> String {
    match &f.error {
        // Names the run and the floor already.
        e @ GenerateError::NoFloorFits { .. } => generate(e),
        e => format!("run seed {}: floor B{}: {}", f.seed, f.depth, generate(e)),
    }
}

/// A replay that stopped, naming flags where a world could not be made.
pub fn replay(e: &ReplayError) -> String {
    match e {
        ReplayError::Key {
            key,
            position,
            source: InterpretError::Generate(g),
        } => format!(
            "key '{}' at position {position}: {}",
            key.escape_debug(),
            generate(g)
        ),
        e => e.to_string(),
    }
}
