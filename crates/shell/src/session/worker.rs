//! Keys fed to the interpreter, here or on a worker thread, and what each did.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use byog_game::GameState;
use byog_game::interpreter::{Closing, GameKind, InterpretError, Interpreter, Outcome, Phase};
use byog_game::save;

use super::walk::Walking;
use super::{Session, Shell, Showing, State};
use crate::screens;
use crate::store::SessionStore;

/// How long a key may take before the session shows that it is working on it (seconds).
pub const BUSY_AFTER_SECONDS: f64 = 0.2;

/// What a key fed on a worker thread gives back.
pub(super) type Fed = (Box<Session>, Result<Outcome, InterpretError>);

/// A key that is taking long, fed on a worker thread: the session is with it until it is
/// done.
#[derive(Debug)]
pub(super) struct Busy {
    /// The key being fed.
    pub(super) key: char,
    /// What it is making, in a player's words ("making the world of seed 7 …").
    pub(super) what: String,
    /// When the key was fed (front-end seconds).
    pub(super) since: f64,
    /// The worker's result.
    pub(super) done: mpsc::Receiver<Fed>,
    /// The walk whose step it is, if it is one.
    pub(super) walking: Option<Box<Walking>>,
    /// Keys typed meanwhile, fed once it is done.
    pub(super) queued: VecDeque<char>,
    /// The worker's last progress report, if the work reports any
    /// ([`byog_worlds::progress`]: a world's or a floor's steps).
    pub(super) progress: Arc<Mutex<Option<byog_worlds::progress::Report>>>,
}

impl Shell {
    /// Feeds one key to the interpreter and keeps what it said. A key that may take long
    /// ([`long_work`]) is fed on a worker thread; if it is not done within
    /// [`BUSY_AFTER_SECONDS`] the session is busy until [`Shell::tick`] sees it done.
    pub(super) fn feed(&mut self, key: char, now: f64) {
        let State::Ready { session, .. } = &self.state else {
            return;
        };
        let Some(what) = long_work(
            &session.interpreter,
            key,
            self.options.seed_label.as_deref(),
        )
        .filter(|_| self.workers) else {
            return self.feed_now(key, now);
        };
        let (tx, done) = mpsc::channel();
        let ready = std::mem::replace(
            &mut self.state,
            State::Busy(Busy {
                key,
                what,
                since: now,
                done,
                walking: None,
                queued: VecDeque::new(),
                progress: Arc::default(),
            }),
        );
        let State::Ready { mut session, view } = ready else {
            unreachable!("checked ready above")
        };
        if let (State::Busy(busy), Showing::Walking(walking)) = (&mut self.state, view) {
            busy.walking = Some(walking);
        }
        let progress = match &self.state {
            State::Busy(busy) => Arc::clone(&busy.progress),
            State::Ready { .. } => unreachable!("just set"),
        };
        std::thread::spawn(move || {
            let watch = byog_worlds::progress::watch(move |report| {
                if let Ok(mut last) = progress.lock() {
                    *last = Some(report);
                }
            });
            let outcome = session.interpreter.feed(key, &mut session.store);
            drop(watch);
            let _ = tx.send((session, outcome));
        });
        let State::Busy(busy) = &self.state else {
            unreachable!("just set")
        };
        if let Ok(fed) = busy
            .done
            .recv_timeout(Duration::from_secs_f64(BUSY_AFTER_SECONDS))
        {
            self.finish(fed, now);
        }
    }

    /// Feeds one key to the interpreter here and now.
    pub(super) fn feed_now(&mut self, key: char, now: f64) {
        let State::Ready { session, .. } = &mut self.state else {
            return;
        };
        let outcome = session.interpreter.feed(key, &mut session.store);
        self.fed(key, outcome, now);
    }

    /// A key fed on a worker thread is done: the session comes back, with the walk it was a
    /// step of; then the keys typed meanwhile, in order, until one is busy again.
    pub(super) fn finish(&mut self, (session, outcome): Fed, now: f64) {
        let State::Busy(busy) = &mut self.state else {
            return;
        };
        let view = busy.walking.take().map_or(Showing::Plain, Showing::Walking);
        let queued = std::mem::take(&mut busy.queued);
        let key = busy.key;
        self.state = State::Ready { session, view };
        self.fed(key, outcome, now);
        for key in queued {
            if matches!(self.state, State::Busy(_)) {
                if let State::Busy(busy) = &mut self.state {
                    busy.queued.push_back(key);
                }
            } else {
                self.key(key, now);
            }
        }
    }

    /// Keeps what a key did: the key in the key log if the interpreter consumed it
    /// ([`Shell::take_fed`]), the message, the screen between floors, the goodbye.
    fn fed(&mut self, key: char, outcome: Result<Outcome, InterpretError>, now: f64) {
        let State::Ready { session, view } = &mut self.state else {
            return;
        };
        let acted = matches!(outcome, Ok(Outcome::Acted(_)));
        let mut kept = false;
        log_key(
            &mut self.fed,
            &mut self.colon_held,
            key,
            &outcome,
            session.interpreter.phase(),
        );
        // A key ends the floor screen.
        if matches!(view, Showing::Floor { .. }) {
            *view = Showing::Plain;
        }
        match outcome {
            Ok(outcome) => {
                let location = save::SaveStore::location(&session.store);
                // A key played past the song (a session rebuilt by [`Shell::replayed`] feeds
                // its keys without the song's own first key) leaves it.
                if matches!(view, Showing::Song) && !matches!(outcome, Outcome::Started) {
                    *view = Showing::Plain;
                }
                match &outcome {
                    Outcome::Started => {
                        self.camera = None;
                        if session.interpreter.game().map(GameState::kind) == Some(GameKind::Run)
                            && !self.song_sung
                            && first_song(&session.store)
                        {
                            *view = Showing::Song;
                        }
                        self.song_sung |=
                            session.interpreter.game().map(GameState::kind) == Some(GameKind::Run);
                    }
                    Outcome::Acted(events) => {
                        self.last_events = Some(*events);
                        if let Some(screen) =
                            screens::descent_screen(events, session.interpreter.game())
                        {
                            self.camera = None;
                            if matches!(view, Showing::Plain) {
                                *view = Showing::Floor {
                                    until: now + screens::FLOOR_SCREEN_SECONDS,
                                    screen,
                                };
                            }
                        }
                    }
                    Outcome::Closed(Closing::SavedAndQuit) => {
                        self.farewell = session.interpreter.game().map(|game| {
                            let mut line = screens::saved_line(game, &location);
                            if let Some(replaced) = session.interpreter.replaced() {
                                line.push_str(&format!("; {replaced}"));
                            }
                            line
                        });
                    }
                    _ => {}
                }
                let f = screens::feedback(&outcome, &location);
                // A silent step of a walk leaves what an earlier step of it said ("back in
                // the start room") on the line, rather than blanking it; it is logged once.
                kept = f.message.is_empty() && matches!(view, Showing::Walking(w) if w.said);
                if let Showing::Walking(w) = view {
                    w.said |= !f.message.is_empty();
                }
                if !kept {
                    self.message = f.message;
                }
                if let Some(note) = session.interpreter.take_note() {
                    // A `:` the key dropped: said first, then what the key did.
                    let note = note.player_message();
                    self.message = if self.message.is_empty() {
                        note
                    } else {
                        format!("{note} · {}", self.message)
                    };
                }
                if let (Outcome::Closed(Closing::SavedAndQuit), Some(replaced)) =
                    (&outcome, session.interpreter.replaced())
                {
                    self.message = format!("{} ({replaced})", self.message);
                }
                if f.closing {
                    *view = Showing::Closing {
                        at: now + screens::GOODBYE_SECONDS,
                    };
                }
            }
            Err(e) => self.message = e.to_string(),
        }
        if !kept {
            self.log_message();
        }
        if let State::Ready { session, .. } = &self.state
            && let Some(game) = session.interpreter.game()
        {
            let events = self.last_events.filter(|_| acted);
            let events = events.as_ref().map_or(&[][..], |e| e.as_slice());
            self.explainer.note(game, events);
        }
    }
}

/// The file in a save folder that says the Upkeeper's song was sung there (the first run
/// played with that folder shows it).
pub const SONG_SUNG: &str = ".upkeeper-song-sung";

/// Whether the first run of `store`'s save folder is starting: true once per folder (it leaves
/// [`SONG_SUNG`] there; a folder that cannot be written sings every time), and for a session
/// with no save folder.
fn first_song(store: &SessionStore) -> bool {
    let Some(file) = store.file() else {
        return true;
    };
    let marker = file.folder().join(SONG_SUNG);
    if marker.exists() {
        return false;
    }
    let _ = std::fs::create_dir_all(file.folder())
        .and_then(|()| std::fs::write(&marker, "the Upkeeper's song was sung here\n"));
    true
}

/// Keeps `key` in the key log `fed` when the interpreter consumed it (its `outcome`, the
/// interpreter now in `phase`): not when it was reported (ignored or refused), found no save,
/// or failed. A `:` that leaves the interpreter waiting for `Q` is held (`colon_held`) and
/// enters the log only as the `:Q` that closed the session; a held `:` is dropped by any
/// other key, as the interpreter drops it.
fn log_key(
    fed: &mut String,
    colon_held: &mut bool,
    key: char,
    outcome: &Result<Outcome, InterpretError>,
    phase: Phase,
) {
    let held = std::mem::replace(colon_held, false);
    if matches!(
        phase,
        Phase::Playing { colon: true } | Phase::Ended { colon: true }
    ) {
        *colon_held = true;
        return;
    }
    match outcome {
        Ok(Outcome::Closed(Closing::SavedAndQuit)) if held => fed.push_str(":Q"),
        Ok(Outcome::Reported(_) | Outcome::NoSave) | Err(_) => {}
        Ok(_) => fed.push(key),
    }
}

/// What `key` makes when it may take long, in a player's words: `S` starting a game (a
/// world, a run's first floor), `L` loading the save, `Q` after `:` saving, and a move in a
/// run (into an exit: the next floor). `None` for the keys that never take long.
/// A hidden seed (`seed_label`) is named by its label.
fn long_work(interpreter: &Interpreter, key: char, seed_label: Option<&str>) -> Option<String> {
    let upper = key.to_ascii_uppercase();
    let (w, h) = (interpreter.width(), interpreter.height());
    match interpreter.phase() {
        Phase::SeedEntry { kind, seed, .. } if upper == 'S' => Some(format!(
            "making the {} of {} ({w} × {h} tiles at most)",
            kind.noun(),
            seed_label.map_or_else(|| format!("seed {seed}"), str::to_owned)
        )),
        Phase::Menu if upper == 'L' => Some("loading the save".to_owned()),
        Phase::Playing { colon: true } | Phase::Ended { colon: true } if upper == 'Q' => {
            Some("saving the game".to_owned())
        }
        Phase::Playing { colon: false }
            if "WASD".contains(upper) && interpreter.game()?.run().is_some() =>
        {
            Some("making the next floor".to_owned())
        }
        _ => None,
    }
}
