//! The progress bar long batches (`gen --seeds`, `stats --seeds`, `stats --runs`) draw on
//! stderr.

use std::io::IsTerminal;

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
