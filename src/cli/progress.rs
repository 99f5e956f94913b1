//! The progress long work shows on stderr: the bar of long batches (`gen --seeds`, `stats
//! --seeds`, `stats --runs`), and the notice of one world, game or floor that takes long
//! (`replay`, `gen` at the largest sizes).

use std::io::IsTerminal;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How long work goes on before its notice shows.
pub const NOTICE_AFTER: Duration = Duration::from_millis(200);

/// A notice on stderr while some work takes long: nothing for the first [`NOTICE_AFTER`],
/// then a spinner with the work's name and the time spent, until it is dropped (and
/// cleared). Drawn only when stderr is a terminal. Ctrl-C still ends the program at once.
pub struct Notice {
    done: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Notice {
    /// Starts the notice for work called `what` ("making the world").
    pub fn after(what: &str) -> Notice {
        if !std::io::stderr().is_terminal() {
            return Notice {
                done: None,
                thread: None,
            };
        }
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
            spinner.set_message(what);
            spinner.enable_steady_tick(Duration::from_millis(100));
            // Until the work is done (a message) or the notice is gone (disconnected).
            let _ = wait.recv();
            spinner.finish_and_clear();
        });
        Notice {
            done: Some(done),
            thread: Some(thread),
        }
    }
}

impl Drop for Notice {
    fn drop(&mut self) {
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
