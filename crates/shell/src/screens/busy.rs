//! The screen while a key takes long (a huge world or floor, a load, a save).

use super::{Line, Style, TextScreen};
use byog_worlds::progress::Report;

/// The screen while a key takes long: what is being made, for how long (`seconds`), the
/// step it is at and how far along when the work reports it (`progress`:
/// `placing the traps · 42%` over a bar of [`BAR_CELLS`] cells), and how to quit now
/// (`quit`: the front-end's words, e.g. "Ctrl-C quits").
pub fn busy_screen(what: &str, seconds: f64, progress: Option<Report>, quit: &str) -> TextScreen {
    let dots = ".".repeat(1 + (seconds * 2.0) as usize % 3);
    let mut lines = vec![
        Line::new(format!("{what}{dots}"), Style::Title),
        Line::blank(),
    ];
    match progress {
        Some(report) => {
            let done = report.done.clamp(0.0, 1.0);
            let percent = (done * 100.0).floor() as u32;
            let filled = (done * BAR_CELLS as f32).floor() as usize;
            lines.push(Line::new(
                format!("{} · {percent}% · {seconds:.1} s", report.stage.name()),
                Style::Normal,
            ));
            lines.push(Line::new(
                format!("[{}{}]", "#".repeat(filled), ".".repeat(BAR_CELLS - filled)),
                Style::Normal,
            ));
        }
        None => lines.push(Line::new(format!("{seconds:.1} s"), Style::Normal)),
    }
    lines.push(Line::blank());
    lines.push(Line::new(format!("{quit}; nothing is saved"), Style::Hint));
    TextScreen {
        lines,
        message: None,
    }
}

/// Cells of the busy screen's progress bar (characters).
pub const BAR_CELLS: usize = 30;

#[cfg(test)]
mod tests {
    use super::*;
    use byog_worlds::progress::Stage;

    fn text(screen: &TextScreen) -> Vec<String> {
        screen.lines.iter().map(|l| l.text.clone()).collect()
    }

    #[test]
    fn without_a_report_the_screen_says_only_the_time() {
        let lines = text(&busy_screen("making the world", 1.25, None, "Ctrl-C quits"));
        assert_eq!(lines[0], "making the world...");
        assert_eq!(lines[2], "1.2 s");
        assert!(lines.iter().all(|l| !l.contains('%')));
    }

    #[test]
    fn a_report_shows_its_step_its_share_and_a_bar_as_full() {
        let report = Report {
            stage: Stage::Traps,
            done: 0.5,
        };
        let lines = text(&busy_screen(
            "making floor B3",
            2.0,
            Some(report),
            "Ctrl-C quits",
        ));
        assert_eq!(lines[2], "placing the traps · 50% · 2.0 s");
        let bar = &lines[3];
        assert_eq!(bar.chars().filter(|&c| c == '#').count(), BAR_CELLS / 2);
        assert_eq!(bar.chars().count(), BAR_CELLS + 2);
        let full = busy_screen(
            "w",
            0.0,
            Some(Report {
                done: 1.0,
                ..report
            }),
            "q",
        );
        assert!(text(&full)[3].contains(&"#".repeat(BAR_CELLS)));
    }
}
