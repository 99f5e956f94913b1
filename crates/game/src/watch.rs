//! Watching a save (`docs/sight.md`; the BYOW "replay" feature): the save's
//! history played back from its start, one action a step, through the same [`Interpreter`]
//! that played it, with pause, single step and speed. It reads the save once and never
//! writes: the interpreter it feeds keeps its saves in memory, and the history holds no `:Q`.
//!
//! Time is the front-end's: it calls [`Watch::tick`] with the seconds since it started, and
//! the watch says how far playback has come.

use crate::GameState;
use crate::interpreter::{InterpretError, Interpreter};
use crate::rules::Events;
use crate::save::{MemoryStore, SaveError, SaveStore};

/// Why a save cannot be watched.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// There is no save in the store.
    #[error("there is no saved game at {} (play, then save with :Q)", .0.display())]
    NoSave(std::path::PathBuf),
    /// The save cannot be read.
    #[error(transparent)]
    Load(#[from] SaveError),
    /// The save's first world cannot be made again.
    #[error("its world cannot be made again: {0}")]
    Remake(#[from] InterpretError),
}

/// Playback speeds in steps (actions) a second, slowest first.
pub const SPEEDS: [u32; 9] = [1, 2, 4, 8, 15, 30, 60, 120, 240];
/// The speed a watch starts at: an index into [`SPEEDS`] (8 steps a second).
pub const DEFAULT_SPEED: usize = 3;

/// How many steps `[` and `]` jump back or on while watching.
pub const SEEK_STEPS: usize = 100;
// The Home and End keys, where they were before the key vocabulary had its module.
pub use crate::keys::{END, HOME};

/// What a key does while watching (the same keys in every front-end; none of them reaches an
/// interpreter or a history).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Space: pause, or go on.
    Pause,
    /// `.` or `>`: one step, and pause.
    Step,
    /// `}`: faster.
    Faster,
    /// `{`: slower.
    Slower,
    /// `]`: [`SEEK_STEPS`] steps on (or to the end).
    Forward,
    /// `[`: [`SEEK_STEPS`] steps back (or to the start).
    Back,
    /// Home ([`HOME`]): back to the first step.
    First,
    /// End ([`END`]): on to the last step.
    Last,
    /// Esc or `Q`: stop watching (the front-end goes back to the menu, or closes when it
    /// was opened to watch).
    Leave,
}

impl Control {
    /// The control a key asks for, if any (other keys do nothing while watching).
    pub fn of_key(key: char) -> Option<Control> {
        match key {
            ' ' => Some(Control::Pause),
            '.' | '>' => Some(Control::Step),
            '}' => Some(Control::Faster),
            '{' => Some(Control::Slower),
            ']' => Some(Control::Forward),
            '[' => Some(Control::Back),
            HOME => Some(Control::First),
            END => Some(Control::Last),
            crate::keys::ESCAPE | 'q' | 'Q' => Some(Control::Leave),
            _ => None,
        }
    }
}

/// A key for the watch in `slot` (front-ends keep their watch in an `Option`): applies its
/// [`Control`], if any; on [`Control::Leave`] empties the slot and returns `true` (the
/// front-end goes back to the menu or closes).
///
/// # Errors
/// As [`Watch::step`].
pub fn feed_key(slot: &mut Option<Watch>, key: char) -> Result<bool, InterpretError> {
    let Some(watch) = slot else {
        return Ok(false);
    };
    match Control::of_key(key) {
        Some(Control::Leave) => {
            *slot = None;
            Ok(true)
        }
        Some(control) => watch.apply(control).map(|()| false),
        None => Ok(false),
    }
}

/// A save being watched: its history, how much of it has been played, and the playback
/// controls.
#[derive(Debug)]
pub struct Watch {
    /// The history's keys: the start (`N<seed>S`, `R<seed>S`) then one key per action.
    keys: Vec<char>,
    /// How many keys make the start.
    start: usize,
    /// How many keys have been fed.
    fed: usize,
    interpreter: Interpreter,
    /// The interpreter at the first step, to seek back from.
    first: Interpreter,
    store: MemoryStore,
    paused: bool,
    speed: usize,
    /// The time (seconds, the front-end's clock) the next step is due, while playing.
    due: Option<f64>,
}

impl Watch {
    /// A watch of `save` at its first step: the world it started from, nothing played yet,
    /// playing at [`DEFAULT_SPEED`].
    ///
    /// # Errors
    /// [`InterpretError`] when the save's world cannot be made again (its size or settings
    /// are refused by this build's generator).
    pub fn new(save: &GameState) -> Result<Watch, InterpretError> {
        let keys: Vec<char> = save.history().chars().collect();
        let start = keys
            .iter()
            .position(|&k| k == 'S')
            .map_or(keys.len(), |s| s + 1);
        let (width, height) = match save.run() {
            Some(run) => (run.max_width as usize, run.max_height as usize),
            None => (save.terrain().width(), save.terrain().height()),
        };
        let mut interpreter = Interpreter::new(width, height, *save.settings());
        if let Some(run) = save.run() {
            interpreter = interpreter.with_floors(run.floors);
        }
        if let Some(e) = save.explore() {
            interpreter = interpreter.with_explore(e.dungeon().settings());
        }
        let mut watch = Watch {
            keys,
            start,
            fed: 0,
            first: interpreter.clone(),
            interpreter,
            store: MemoryStore::default(),
            paused: false,
            speed: DEFAULT_SPEED,
            due: None,
        };
        while watch.fed < watch.start {
            watch.feed_next()?;
        }
        watch.first = watch.interpreter.clone();
        Ok(watch)
    }

    /// A watch of the save in `store` (read once, never written).
    ///
    /// # Errors
    /// [`WatchError`]: no save, a save that cannot be read, or one whose world cannot be
    /// made again.
    pub fn of_store(store: &dyn SaveStore) -> Result<Watch, WatchError> {
        let save = store
            .load()?
            .ok_or_else(|| WatchError::NoSave(store.location()))?;
        Ok(Watch::new(&save)?)
    }

    /// The game as it stood after [`Watch::step_count`] steps.
    pub fn game(&self) -> Option<&GameState> {
        self.interpreter.game()
    }

    /// Steps played so far.
    pub fn step_count(&self) -> usize {
        self.fed - self.start
    }

    /// Steps in the whole history.
    pub fn total_steps(&self) -> usize {
        self.keys.len() - self.start
    }

    /// The input string that makes the game as it stands: the history's first
    /// `start + step_count` keys.
    pub fn input(&self) -> String {
        self.keys[..self.fed].iter().collect()
    }

    /// Whether every step has been played.
    pub fn is_done(&self) -> bool {
        self.fed == self.keys.len()
    }

    /// Whether playback is paused (it also stops by itself at the end).
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The playback speed in steps a second.
    pub fn speed(&self) -> u32 {
        SPEEDS[self.speed]
    }

    /// Plays the next step, if any, and returns what it did.
    ///
    /// # Errors
    /// As [`Interpreter::feed`] (none is expected: the history was played once already).
    pub fn step(&mut self) -> Result<Option<Events>, InterpretError> {
        if self.is_done() {
            return Ok(None);
        }
        self.feed_next()
    }

    /// Jumps to step `to` (clamped to the history): back by playing the history again from
    /// the first step (replays are fast: millions of moves a second), on by playing the steps
    /// between. Pausing is left as it was.
    ///
    /// # Errors
    /// As [`Watch::step`].
    pub fn seek(&mut self, to: usize) -> Result<(), InterpretError> {
        let to = to.min(self.total_steps());
        if to < self.step_count() {
            self.interpreter = self.first.clone();
            self.store = MemoryStore::default();
            self.fed = self.start;
        }
        while self.step_count() < to {
            self.feed_next()?;
        }
        self.due = None;
        Ok(())
    }

    fn feed_next(&mut self) -> Result<Option<Events>, InterpretError> {
        let key = self.keys[self.fed];
        let outcome = self.interpreter.feed(key, &mut self.store)?;
        self.fed += 1;
        Ok(match outcome {
            crate::Outcome::Acted(events) => Some(events),
            _ => None,
        })
    }

    /// Applies a control key (all but [`Control::Leave`], which is the front-end's).
    ///
    /// # Errors
    /// As [`Watch::step`].
    pub fn apply(&mut self, control: Control) -> Result<(), InterpretError> {
        match control {
            Control::Pause => self.toggle_pause(),
            Control::Step => {
                self.step_once()?;
            }
            Control::Faster => self.faster(),
            Control::Forward => self.seek(self.step_count() + SEEK_STEPS)?,
            Control::Back => self.seek(self.step_count().saturating_sub(SEEK_STEPS))?,
            Control::First => self.seek(0)?,
            Control::Last => self.seek(self.total_steps())?,
            Control::Slower => self.slower(),
            Control::Leave => {}
        }
        Ok(())
    }

    /// Pauses, or resumes from now.
    pub fn toggle_pause(&mut self) {
        self.paused = !self.paused;
        self.due = None;
    }

    /// Pauses and plays exactly one step (the single-step key).
    ///
    /// # Errors
    /// As [`Watch::step`].
    pub fn step_once(&mut self) -> Result<Option<Events>, InterpretError> {
        self.paused = true;
        self.due = None;
        self.step()
    }

    /// One speed faster (up to the fastest).
    pub fn faster(&mut self) {
        self.speed = (self.speed + 1).min(SPEEDS.len() - 1);
        self.due = None;
    }

    /// One speed slower (down to the slowest).
    pub fn slower(&mut self) {
        self.speed = self.speed.saturating_sub(1);
        self.due = None;
    }

    /// Plays the steps due by `now` (seconds on the front-end's clock) at the current speed,
    /// unless paused; returns the events of each step played, in order. The first tick after
    /// a start, a resume or a speed change plays nothing and sets the pace from then.
    ///
    /// # Errors
    /// As [`Watch::step`].
    pub fn tick(&mut self, now: f64) -> Result<Vec<Events>, InterpretError> {
        let mut played = Vec::new();
        if self.paused || self.is_done() {
            return Ok(played);
        }
        let period = 1.0 / f64::from(self.speed());
        let mut due = *self.due.get_or_insert(now + period);
        // Never more than one second of steps in one tick (a stalled frame does not fast
        // forward through the save).
        let most = self.speed() as usize;
        while due <= now && played.len() < most && !self.is_done() {
            if let Some(events) = self.step()? {
                played.push(events);
            }
            due += period;
        }
        self.due = Some(if due <= now { now + period } else { due });
        Ok(played)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::replay;
    use crate::save::SaveStore;

    fn saved(keys: &str) -> GameState {
        let mut store = MemoryStore::default();
        let mut interpreter = Interpreter::new(80, 30, Default::default());
        replay(&mut interpreter, keys, &mut store, true, &mut |_| {}).unwrap();
        store.load().unwrap().expect("the keys end in :Q")
    }

    #[test]
    fn a_watch_starts_at_the_first_world_and_ends_at_the_save() {
        let save = saved("N1234SDDSSWWAA:Q");
        let mut watch = Watch::new(&save).unwrap();
        assert_eq!(watch.step_count(), 0);
        assert_eq!(watch.input(), "N1234S");
        while watch.step().unwrap().is_some() || !watch.is_done() {}
        assert_eq!(watch.step_count(), watch.total_steps());
        let end = watch.game().unwrap();
        assert_eq!(end.world(), save.world());
        assert_eq!(end.moves(), save.moves());
    }

    #[test]
    fn seeking_back_and_on_shows_the_prefix_replay_makes() {
        let keys = format!("N7S{}:Q", "DDSSAAWW".repeat(60));
        let save = saved(&keys);
        let mut watch = Watch::new(&save).unwrap();
        let total = watch.total_steps();
        assert!(total > 150, "{total}");
        let at = |watch: &Watch| {
            let mut store = MemoryStore::default();
            let mut interpreter = Interpreter::new(80, 30, Default::default());
            replay(
                &mut interpreter,
                &watch.input(),
                &mut store,
                true,
                &mut |_| {},
            )
            .unwrap();
            assert_eq!(
                watch.game().unwrap().world(),
                interpreter.game().unwrap().world()
            );
            watch.step_count()
        };
        watch.apply(Control::of_key(']').unwrap()).unwrap();
        assert_eq!(at(&watch), SEEK_STEPS);
        watch.apply(Control::of_key(END).unwrap()).unwrap();
        assert_eq!(at(&watch), total);
        watch.apply(Control::of_key('[').unwrap()).unwrap();
        assert_eq!(at(&watch), total - SEEK_STEPS);
        watch.apply(Control::of_key(HOME).unwrap()).unwrap();
        assert_eq!(at(&watch), 0);
        watch.apply(Control::of_key('[').unwrap()).unwrap();
        assert_eq!(at(&watch), 0);
        assert_eq!(Control::of_key('}'), Some(Control::Faster));
        assert_eq!(Control::of_key('{'), Some(Control::Slower));
    }

    #[test]
    fn ticks_follow_the_speed_and_pause() {
        let save = saved("N99SDDDDDDDDDDSSSSSSSSSS:Q");
        let mut watch = Watch::new(&save).unwrap();
        assert!(watch.total_steps() >= 4, "{}", watch.input());
        // 8 steps a second: the first tick sets the pace; one step each 1/8 s after.
        assert!(watch.tick(10.0).unwrap().is_empty());
        assert_eq!(watch.tick(10.124).unwrap().len(), 0);
        assert_eq!(watch.tick(10.126).unwrap().len(), 1);
        assert_eq!(watch.tick(10.38).unwrap().len(), 2);
        watch.toggle_pause();
        assert!(watch.tick(20.0).unwrap().is_empty());
        assert_eq!(watch.step_count(), 3);
        watch.step_once().unwrap();
        assert_eq!(watch.step_count(), 4);
        assert!(watch.is_paused());
        watch.faster();
        assert_eq!(watch.speed(), 15);
        for _ in 0..20 {
            watch.slower();
        }
        assert_eq!(watch.speed(), 1);
    }
}
