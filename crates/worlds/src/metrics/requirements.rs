//! Requirements: constraints a world must meet, checked on its [`Metrics`] (Cogmind's map
//! requirements: reject a map that misses one and generate another).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::Metrics;

/// The one list of requirements. Each entry makes a field of [`Requirements`], a variant of
/// [`Requirement`], its command-line flag, its help text and how its value is read from the
/// [`Metrics`]: a new requirement is one more entry here (and nothing else).
macro_rules! requirements {
    ($(
        $(#[$doc:meta])*
        $variant:ident {
            field: $field:ident,
            flag: $flag:literal,
            value_name: $value_name:literal,
            minimum: $minimum:literal,
            metric: $metric:literal,
            help: $help:literal,
            reached: $reached:expr $(,)?
        }
    ),* $(,)?) => {
        /// Constraints a world must meet (Cogmind's map requirements: reject a map that misses
        /// one and generate another). Every field is optional; [`Requirements::default`]
        /// constrains nothing.
        ///
        /// All bounds are whole numbers and inclusive, and every comparison is exact integer
        /// arithmetic on [`Metrics`], so a world meets or misses a requirement the same way on
        /// every platform: openness is compared as `open_tiles × 100` against `bound × width ×
        /// height`, never through the rounded `openness_percent`. The fields' order is part of
        /// the save format.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
        pub struct Requirements {
            $( $(#[$doc])* pub $field: Option<u32>, )*
        }

        /// One kind of requirement: a field of [`Requirements`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum Requirement {
            $( $(#[$doc])* $variant, )*
        }

        impl Requirement {
            /// Every requirement, in the order [`Requirements::check`] reports them.
            pub const ALL: &'static [Requirement] = &[$(Requirement::$variant),*];

            /// The name of its [`Requirements`] field, e.g. `"min_openness_percent"`.
            pub fn name(self) -> &'static str {
                match self { $(Requirement::$variant => stringify!($field),)* }
            }

            /// Its command-line flag without the dashes, e.g. `"min-openness"`.
            pub fn flag(self) -> &'static str {
                match self { $(Requirement::$variant => $flag,)* }
            }

            /// The flag's value name in help, e.g. `"PERCENT"`.
            pub fn value_name(self) -> &'static str {
                match self { $(Requirement::$variant => $value_name,)* }
            }

            /// One line of help for the flag.
            pub fn help(self) -> &'static str {
                match self { $(Requirement::$variant => $help,)* }
            }

            /// Whether the bound is a minimum (else a maximum).
            pub fn is_minimum(self) -> bool {
                match self { $(Requirement::$variant => $minimum,)* }
            }

            /// The metric it bounds, as words for messages: `"openness"`, `"exit distance"`, ….
            pub fn metric(self) -> &'static str {
                match self { $(Requirement::$variant => $metric,)* }
            }

            /// The bound this requirement has in `requirements`, if any.
            pub fn bound_in(self, requirements: &Requirements) -> Option<u32> {
                match self { $(Requirement::$variant => requirements.$field,)* }
            }

            /// The bound's slot in `requirements`.
            pub fn bound_mut(self, requirements: &mut Requirements) -> &mut Option<u32> {
                match self { $(Requirement::$variant => &mut requirements.$field,)* }
            }

            /// The value of its metric in `metrics`.
            pub fn reached(self, metrics: &Metrics) -> Reached {
                match self { $(Requirement::$variant => ($reached)(metrics),)* }
            }
        }
    };
}

fn openness(m: &Metrics) -> Reached {
    Reached::Openness {
        open: m.open_tiles,
        tiles: u64::from(m.width) * u64::from(m.height),
    }
}

requirements! {
    /// Least openness, in whole percent: `open_tiles × 100 ≥ bound × tiles`.
    MinOpenness {
        field: min_openness_percent, flag: "min-openness", value_name: "PERCENT",
        minimum: true, metric: "openness",
        help: "Least openness: open tiles in whole percent of all tiles (0..=100)",
        reached: openness,
    },
    /// Most openness, in whole percent: `open_tiles × 100 ≤ bound × tiles`.
    MaxOpenness {
        field: max_openness_percent, flag: "max-openness", value_name: "PERCENT",
        minimum: false, metric: "openness",
        help: "Most openness, in whole percent (0..=100)",
        reached: openness,
    },
    /// Least avatar→exit distance, in tiles; an unreachable exit never meets it.
    MinExitDistance {
        field: min_exit_distance, flag: "min-exit-distance", value_name: "TILES",
        minimum: true, metric: "exit distance",
        help: "Least BFS distance from the avatar to the exit, in tiles",
        reached: |m: &Metrics| m.exit_distance.map_or(Reached::Unreachable, Reached::Count),
    },
    /// Least number of rooms.
    MinRooms {
        field: min_rooms, flag: "min-rooms", value_name: "N",
        minimum: true, metric: "room count",
        help: "Least number of rooms",
        reached: |m: &Metrics| Reached::Count(m.room_count),
    },
    /// Most rooms.
    MaxRooms {
        field: max_rooms, flag: "max-rooms", value_name: "N",
        minimum: false, metric: "room count",
        help: "Most rooms",
        reached: |m: &Metrics| Reached::Count(m.room_count),
    },
    /// Most dead ends, in tiles.
    MaxDeadEnds {
        field: max_dead_ends, flag: "max-dead-ends", value_name: "N",
        minimum: false, metric: "dead-end count",
        help: "Most dead-end tiles",
        reached: |m: &Metrics| Reached::Count(m.dead_ends),
    },
    /// Least number of rooms on the critical path.
    MinCriticalPathRooms {
        field: min_critical_path_rooms, flag: "min-critical-path-rooms", value_name: "N",
        minimum: true, metric: "critical-path room count",
        help: "Least number of rooms on the avatar-to-exit shortest path",
        reached: |m: &Metrics| Reached::Count(m.critical_path_rooms),
    },
    /// Least critical path over the room graph (LootQuest's), in rooms.
    MinCriticalPath {
        field: min_critical_path, flag: "min-critical-path", value_name: "ROOMS",
        minimum: true, metric: "critical path",
        help: "Least critical path: the fewest rooms on a way from the start to the exit room, both counted",
        reached: |m: &Metrics| Reached::Count(m.critical_path),
    },
    /// Most critical path over the room graph, in rooms.
    MaxCriticalPath {
        field: max_critical_path, flag: "max-critical-path", value_name: "ROOMS",
        minimum: false, metric: "critical path",
        help: "Most critical path, in rooms",
        reached: |m: &Metrics| Reached::Count(m.critical_path),
    },
    /// Longest dead end allowed over the room graph, in rooms away from the critical path.
    MaxDeadEndLength {
        field: max_dead_end_length, flag: "max-dead-end-length", value_name: "ROOMS",
        minimum: false, metric: "dead-end length",
        help: "Longest dead end: the most rooms a room may lie away from the critical path",
        reached: |m: &Metrics| Reached::Count(m.max_dead_end),
    },
}

impl fmt::Display for Requirement {
    /// The requirement in words: "minimum openness", "maximum room count", "minimum exit
    /// distance" (its flag is [`Requirement::flag`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = if self.is_minimum() {
            "minimum"
        } else {
            "maximum"
        };
        write!(f, "{side} {}", self.metric())
    }
}

/// Requirements that no world could meet, whatever it is: found by
/// [`Requirements::validate`] before any world is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RequirementsError {
    /// An openness bound above 100 percent.
    #[error("{requirement} {bound} is out of range 0..={max} (a percentage of all tiles)")]
    OutOfRange {
        /// The requirement.
        requirement: Requirement,
        /// Its bound.
        bound: u32,
        /// The largest bound it takes (100).
        max: u32,
    },
    /// A minimum above the maximum of the same metric.
    #[error("{minimum} {minimum_bound} is above {maximum} {maximum_bound}: no world can meet both")]
    Contradictory {
        /// The minimum.
        minimum: Requirement,
        /// Its bound.
        minimum_bound: u32,
        /// The maximum.
        maximum: Requirement,
        /// Its bound.
        maximum_bound: u32,
    },
}

/// The value a world reached for a requirement's metric, exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reached {
    /// A count: tiles for the exit distance, rooms, dead-end tiles.
    Count(u32),
    /// Openness as a fraction: `open` open tiles out of `tiles`.
    Openness {
        /// Open tiles.
        open: u32,
        /// All tiles, `width × height`.
        tiles: u64,
    },
    /// The exit cannot be reached (for the exit distance).
    Unreachable,
}

impl Reached {
    /// The value in the requirement's unit (percent for openness): `None` when unreachable.
    pub fn value(self) -> Option<f64> {
        match self {
            Reached::Count(n) => Some(f64::from(n)),
            Reached::Openness { tiles: 0, .. } => Some(0.0),
            Reached::Openness { open, tiles } => Some(f64::from(open) * 100.0 / tiles as f64),
            Reached::Unreachable => None,
        }
    }

    /// Whether the value is at least `bound` (openness: at least `bound` percent), exactly.
    fn at_least(self, bound: u32) -> bool {
        match self {
            Reached::Count(n) => n >= bound,
            Reached::Openness { open, tiles } => {
                u128::from(open) * 100 >= u128::from(bound) * u128::from(tiles)
            }
            Reached::Unreachable => false,
        }
    }

    /// Whether the value is at most `bound` (openness: at most `bound` percent), exactly.
    fn at_most(self, bound: u32) -> bool {
        match self {
            Reached::Count(n) => n <= bound,
            Reached::Openness { open, tiles } => {
                u128::from(open) * 100 <= u128::from(bound) * u128::from(tiles)
            }
            Reached::Unreachable => false,
        }
    }
}

/// A requirement a world did not meet: which one, its bound and the value reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unmet {
    /// The requirement.
    pub requirement: Requirement,
    /// Its bound, in its unit (whole percent for openness).
    pub bound: u32,
    /// What the world reached.
    pub reached: Reached,
}

impl Unmet {
    /// How far the value reached is from the bound, in the requirement's unit (percentage
    /// points for openness, tiles or rooms otherwise): always > 0 for an unmet requirement,
    /// `f64::INFINITY` for an unreachable exit. The smaller, the closer; a caller retrying
    /// generation keeps the smallest to report the closest value reached.
    pub fn gap(&self) -> f64 {
        self.reached
            .value()
            .map_or(f64::INFINITY, |v| (v - f64::from(self.bound)).abs())
    }
}

impl fmt::Display for Unmet {
    /// E.g. "openness 34.2% is below the minimum 40%", "room count 30 is above the maximum
    /// 25", "the exit is unreachable (minimum exit distance 40 tiles)". Openness is shown to
    /// a tenth of a percent, rounded away from the bound (down below a minimum, up above a
    /// maximum), so the value shown never seems to meet it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.requirement;
        let side = if r.is_minimum() {
            "below the minimum"
        } else {
            "above the maximum"
        };
        match self.reached {
            Reached::Unreachable => write!(
                f,
                "the exit is unreachable (minimum {} {})",
                r.metric(),
                tiles(self.bound)
            ),
            Reached::Openness { open, tiles } => {
                let tiles = u128::from(tiles.max(1));
                let scaled = u128::from(open) * 1000;
                let tenths = if r.is_minimum() {
                    scaled / tiles
                } else {
                    scaled.div_ceil(tiles)
                };
                write!(
                    f,
                    "openness {}.{}% is {side} {}%",
                    tenths / 10,
                    tenths % 10,
                    self.bound
                )
            }
            Reached::Count(n) if r == Requirement::MinExitDistance => {
                write!(
                    f,
                    "exit distance {} is {side} {}",
                    tiles(n),
                    tiles(self.bound)
                )
            }
            Reached::Count(n) => write!(f, "{} {n} is {side} {}", r.metric(), self.bound),
        }
    }
}

/// "1 tile", "40 tiles".
fn tiles(n: u32) -> String {
    if n == 1 {
        "1 tile".to_owned()
    } else {
        format!("{n} tiles")
    }
}

impl Requirements {
    /// Whether this constrains nothing (the default).
    pub fn is_unconstrained(&self) -> bool {
        *self == Requirements::default()
    }

    /// Checks the requirements themselves: openness bounds at most 100, and no minimum above
    /// its maximum. Requirements that pass can still be impossible for a generator (e.g. 99%
    /// openness), which only trying finds out.
    ///
    /// # Errors
    /// [`RequirementsError`] naming the out-of-range or contradictory requirement.
    pub fn validate(&self) -> Result<(), RequirementsError> {
        for r in [Requirement::MinOpenness, Requirement::MaxOpenness] {
            if let Some(b) = r.bound_in(self).filter(|&b| b > 100) {
                return Err(RequirementsError::OutOfRange {
                    requirement: r,
                    bound: b,
                    max: 100,
                });
            }
        }
        for (lo, hi) in [
            (Requirement::MinOpenness, Requirement::MaxOpenness),
            (Requirement::MinRooms, Requirement::MaxRooms),
            (Requirement::MinCriticalPath, Requirement::MaxCriticalPath),
        ] {
            if let (Some(a), Some(b)) = (lo.bound_in(self), hi.bound_in(self))
                && a > b
            {
                return Err(RequirementsError::Contradictory {
                    minimum: lo,
                    minimum_bound: a,
                    maximum: hi,
                    maximum_bound: b,
                });
            }
        }
        Ok(())
    }

    /// Checks `metrics` against every requirement.
    ///
    /// # Errors
    /// Every requirement missed, in the order of [`Requirement::ALL`].
    pub fn check(&self, metrics: &Metrics) -> Result<(), Vec<Unmet>> {
        let unmet: Vec<Unmet> = Requirement::ALL
            .iter()
            .copied()
            .filter_map(|requirement| {
                let bound = requirement.bound_in(self)?;
                let reached = requirement.reached(metrics);
                let met = if requirement.is_minimum() {
                    reached.at_least(bound)
                } else {
                    reached.at_most(bound)
                };
                (!met).then_some(Unmet {
                    requirement,
                    bound,
                    reached,
                })
            })
            .collect();
        if unmet.is_empty() { Ok(()) } else { Err(unmet) }
    }
}
