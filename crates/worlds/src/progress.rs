//! Progress while one large world or floor is made: the steps report how far they are to
//! whoever watches the thread they run on, and nobody pays for it when nobody watches.
//!
//! A front-end that makes a world (or lets the interpreter make one, or a run's floor) and
//! wants to show how far it is installs a sink on that thread for as long as the work runs:
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use byog_worlds::generator::{self, GeneratorSettings};
//! use byog_worlds::progress::{self, Report};
//!
//! let seen: Arc<Mutex<Vec<Report>>> = Arc::default();
//! let sink = Arc::clone(&seen);
//! let watch = progress::watch(move |r| sink.lock().unwrap().push(r));
//! generator::generate_for_seed(7, 300, 200, &GeneratorSettings::default()).unwrap();
//! drop(watch); // the thread is no longer watched
//! let seen = seen.lock().unwrap();
//! assert!(seen.windows(2).all(|w| w[0].done <= w[1].done));
//! assert_eq!(seen.last().unwrap().done, 1.0);
//! ```
//!
//! Every report carries the stage (the generator's steps, then a run floor's) and `done`, the
//! fraction of the whole work watched (0 to 1, never going back). The sink is called on the
//! working thread, between steps and every few rows inside the long ones, so it must be quick
//! (store the report where another thread draws it, as `byog`'s command line and the busy
//! screen do). What a sink sees never changes what is made: worlds and floors are the same
//! watched or not (`crates/game/tests/game/progress.rs`).
//!
//! A sink is a thread's own: work on other threads (a batch's `rayon` workers) reports
//! nothing. Work made of parts ([`part`]) maps each part's reports into its share of the
//! whole: a run's floor gives its world [`FLOOR_WORLD_SHARE`] of its progress.
//!
//! The shares of the steps are their shares of the time of a run's B1 at 2400 × 2400
//! (`--width 4000 --height 4000`, release build, 2026-11-28: the world 0.28 s of 1.53 s),
//! measured by watching it: they make the fraction move at an even pace, no more.

use std::cell::RefCell;

/// What is being done when a report is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Rooms and mazes, step 1: rooms placed.
    Rooms,
    /// Step 2: mazes grown between them.
    Mazes,
    /// Step 3: the connectors between regions found.
    Connectors,
    /// Step 3: the regions joined through them.
    Merge,
    /// Step 4: dead ends filled in.
    DeadEnds,
    /// Step 5: walls, the avatar, the exit (a search from the avatar).
    Placement,
    /// LootQuest: a layout tried.
    Layouts,
    /// A run's floor: the critical path and every tile's distance from it.
    Paths,
    /// A run's floor: the traps placed (the cut points of the open tiles found first).
    Traps,
    /// A run's floor: the chests placed in the rooms.
    Chests,
    /// A run's floor: the solvability check.
    Check,
    /// A run's floor: the par route and the move allowance.
    Route,
}

impl Stage {
    /// The stage in a player's words: "growing the mazes", "placing the traps".
    pub fn name(self) -> &'static str {
        match self {
            Stage::Rooms => "placing the rooms",
            Stage::Mazes => "growing the mazes",
            Stage::Connectors => "finding the connectors",
            Stage::Merge => "joining the regions",
            Stage::DeadEnds => "filling the dead ends",
            Stage::Placement => "placing the avatar and the exit",
            Stage::Layouts => "laying out the rooms",
            Stage::Paths => "finding the critical path",
            Stage::Traps => "placing the traps",
            Stage::Chests => "placing the chests",
            Stage::Check => "checking the floor",
            Stage::Route => "finding the par route",
        }
    }

    /// Where the stage starts and ends in its work (a world's, or a floor's placement after
    /// its world), as fractions.
    fn span(self) -> (f32, f32) {
        match self {
            Stage::Rooms => (0.0, 0.16),
            Stage::Mazes => (0.16, 0.41),
            Stage::Connectors => (0.41, 0.49),
            Stage::Merge => (0.49, 0.76),
            Stage::DeadEnds => (0.76, 0.81),
            Stage::Placement => (0.81, 1.0),
            Stage::Layouts => (0.0, 1.0),
            Stage::Paths => (FLOOR_WORLD_SHARE, 0.35),
            Stage::Traps => (0.35, 0.68),
            Stage::Chests => (0.68, 0.8),
            Stage::Check => (0.8, 0.82),
            Stage::Route => (0.82, 1.0),
        }
    }
}

/// The share of a run floor's progress that its world takes; the rest is placing its
/// features, checking it and its par route.
pub const FLOOR_WORLD_SHARE: f32 = 0.19;

/// A report: the stage and how much of the whole watched work is done.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Report {
    /// What is being done.
    pub stage: Stage,
    /// The fraction of the work watched that is done, 0 to 1; it never goes back while the
    /// same watch lasts, but for a world or floor tried again (requirements not met, a floor
    /// over its budget), which starts from its own beginning.
    pub done: f32,
}

/// The sink of a thread and the share of the whole that the part being made covers.
struct Watcher {
    sink: Box<dyn FnMut(Report)>,
    lo: f32,
    hi: f32,
}

thread_local! {
    static WATCHER: RefCell<Option<Watcher>> = const { RefCell::new(None) };
}

/// A watch of this thread: while it lives, reports go to its sink; dropped, the thread is
/// watched by whatever watched it before (or nothing).
#[must_use = "the thread is watched only while the watch lives"]
pub struct ProgressWatch {
    previous: Option<Watcher>,
}

impl std::fmt::Debug for ProgressWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgressWatch").finish_non_exhaustive()
    }
}

/// Watches this thread: worlds and floors made on it report to `sink` until the returned
/// [`ProgressWatch`] is dropped.
pub fn watch(sink: impl FnMut(Report) + 'static) -> ProgressWatch {
    let watcher = Watcher {
        sink: Box::new(sink),
        lo: 0.0,
        hi: 1.0,
    };
    ProgressWatch {
        previous: WATCHER.with(|w| w.borrow_mut().replace(watcher)),
    }
}

impl Drop for ProgressWatch {
    fn drop(&mut self) {
        let previous = self.previous.take();
        WATCHER.with(|w| *w.borrow_mut() = previous);
    }
}

/// Whether this thread is watched (the steps check it once, and report only then).
pub fn is_watched() -> bool {
    WATCHER.with(|w| w.borrow().is_some())
}

/// Reports `stage`, `within` of it done (0 to 1), to this thread's sink, if any.
pub fn report(stage: Stage, within: f32) {
    WATCHER.with(|w| {
        if let Some(w) = w.borrow_mut().as_mut() {
            let (start, end) = stage.span();
            let f = start + (end - start) * within.clamp(0.0, 1.0);
            (w.sink)(Report {
                stage,
                done: w.lo + (w.hi - w.lo) * f,
            });
        }
    });
}

/// Runs `work` as the part `lo..hi` (fractions) of the work being watched: its reports are
/// mapped into that share.
pub fn part<R>(lo: f32, hi: f32, work: impl FnOnce() -> R) -> R {
    let outer = WATCHER.with(|w| {
        w.borrow_mut().as_mut().map(|w| {
            let outer = (w.lo, w.hi);
            let span = w.hi - w.lo;
            (w.lo, w.hi) = (outer.0 + span * lo, outer.0 + span * hi);
            outer
        })
    });
    let result = work();
    if let Some((lo, hi)) = outer {
        WATCHER.with(|w| {
            if let Some(w) = w.borrow_mut().as_mut() {
                (w.lo, w.hi) = (lo, hi);
            }
        });
    }
    result
}

/// Reports inside a long loop: about [`Ticker::TICKS`] times over its `total` steps, and only
/// when the thread is watched (else [`ticker`] gives none and the loop pays one check a
/// step).
#[derive(Debug, Clone)]
pub struct Ticker {
    stage: Stage,
    total: usize,
    every: usize,
    next: usize,
}

impl Ticker {
    /// Reports a loop makes at most.
    pub const TICKS: usize = 64;

    /// `done` of the loop's steps are done: a report when another share is.
    #[inline]
    pub fn tick(&mut self, done: usize) {
        if done >= self.next {
            self.next = done + self.every;
            report(self.stage, done as f32 / self.total as f32);
        }
    }
}

/// A [`Ticker`] for a loop of `total` steps of `stage`, when this thread is watched and the
/// loop is long enough to be worth it (over [`Ticker::TICKS`] steps).
pub fn ticker(stage: Stage, total: usize) -> Option<Ticker> {
    (total > Ticker::TICKS && is_watched()).then_some(Ticker {
        stage,
        total,
        every: total / Ticker::TICKS,
        next: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn parts_map_their_reports_into_their_share_and_watches_nest() {
        let seen: Arc<Mutex<Vec<(Stage, f32)>>> = Arc::default();
        assert!(!is_watched());
        report(Stage::Rooms, 0.5); // nobody watches: nothing happens
        let sink = Arc::clone(&seen);
        let outer = watch(move |r| sink.lock().unwrap().push((r.stage, r.done)));
        assert!(is_watched());
        part(0.5, 1.0, || report(Stage::Layouts, 0.5));
        report(Stage::Route, 1.0);
        {
            let inner = watch(|_| {});
            report(Stage::Rooms, 1.0); // to the inner sink only
            drop(inner);
        }
        report(Stage::Layouts, 0.0);
        drop(outer);
        assert!(!is_watched());
        assert_eq!(
            *seen.lock().unwrap(),
            [
                (Stage::Layouts, 0.75),
                (Stage::Route, 1.0),
                (Stage::Layouts, 0.0)
            ]
        );
    }
}
