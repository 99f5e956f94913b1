//! The progress long work shows on stderr: the bar of long batches (`gen --seeds`, `stats
//! --seeds`, `stats --runs`), and the notice of one world, game or floor that takes long
//! (`replay`, `gen` at the largest sizes), with the step it is at and how far it is
//! ([`byog_worlds::progress`]).

use std::io::IsTerminal;
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use byog_worlds::progress::{self, ProgressWatch, Report};

/// How long work goes on before its notice shows.
pub const NOTICE_AFTER: Duration = Duration::from_millis(200);

/// A notice on stderr while some work takes long: nothing for the first [`NOTICE_AFTER`],
/// then a spinner with the work's name, the step the world or floor being made is at and
/// how far it is, and the time spent, until it is dropped (and cleared): "byog: making
/// worlds and floors for the input: growing the mazes, 34% (2s; Ctrl-C stops)". Drawn only
/// when stderr is a terminal. Ctrl-C still ends the program at once.
///
/// The notice watches the thread it is made on ([`progress::watch`]): worlds and floors made
/// on it, through the interpreter or directly, report to it while it lives.
pub struct Notice {
    done: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
    watch: Option<ProgressWatch>,
}

impl Notice {
    /// Starts the notice for work called `what` ("making the world").
    pub fn after(what: &str) -> Notice {
        if !std::io::stderr().is_terminal() {
            return Notice {
                done: None,
                thread: None,
                watch: None,
            };
        }
        let latest: Arc<Mutex<Option<Report>>> = Arc::default();
        let sink = Arc::clone(&latest);
        let watch = progress::watch(move |r| {
            if let Ok(mut latest) = sink.lock() {
                *latest = Some(r);
            }
        });
        let (done, wait) = mpsc::channel::<()>();
        let what = what.to_owned();
        let thread = std::thread::spawn(move || {
            if wait.recv_timeout(NOTICE_AFTER).is_ok() {
                return;
            }
            let spinner = indicatif::ProgressBar::new_spinner();
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{spinner} byog: {msg} ({elapsed}; Ctrl-C stops)",
            ) {
                spinner.set_style(style);
            }
            spinner.enable_steady_tick(Duration::from_millis(100));
            // Until the work is done (a message) or the notice is gone (disconnected).
            loop {
                let report = latest.lock().ok().and_then(|r| *r);
                spinner.set_message(message(&what, report));
                match wait.recv_timeout(Duration::from_millis(100)) {
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    _ => break,
                }
            }
            spinner.finish_and_clear();
        });
        Notice {
            done: Some(done),
            thread: Some(thread),
            watch: Some(watch),
        }
    }
}

/// The notice's words: the work, and the step and share done of the world or floor being
/// made, once one reported.
fn message(what: &str, report: Option<Report>) -> String {
    match report {
        Some(r) => format!(
            "{what}: {}, {:.0}%",
            r.stage.name(),
            (r.done * 100.0).clamp(0.0, 100.0).floor()
        ),
        None => what.to_owned(),
    }
}

impl Drop for Notice {
    fn drop(&mut self) {
        self.watch = None;
        if let Some(done) = self.done.take() {
            let _ = done.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A progress bar on stderr for a batch of `count` seeds: drawn only when stderr is a terminal
/// and the batch is large (2,000 seeds or more); hidden otherwise.
pub fn progress_bar(count: u64) -> indicatif::ProgressBar {
    if count >= 2000 && std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(count);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} seeds ({eta} left)")
        {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    }
}

/// A progress bar on stderr for `count` games played by a policy (`stats --policy`): a game
/// takes far longer than a world, so it is drawn from 20 games, when stderr is a terminal.
pub fn games_bar(count: u64) -> indicatif::ProgressBar {
    if count >= 20 && std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(count);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games ({eta} left)")
        {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use byog_worlds::progress::Stage;

    #[test]
    fn the_notice_names_the_step_and_the_share_done() {
        assert_eq!(message("making the world", None), "making the world");
        let r = Report {
            stage: Stage::Mazes,
            done: 0.347,
        };
        assert_eq!(
            message("making the world", Some(r)),
            "making the world: growing the mazes, 34%"
        );
    }
}
