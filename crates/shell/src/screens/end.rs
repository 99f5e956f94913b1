//! The end screens of a game won or lost, and the one-line summary `replay` prints.

use byog_game::{GameState, LevelStatus};

use super::{Line, Style, TextScreen, message_line, moves_text, plural, with_a};
use crate::FrontEnd;

/// The keys an end screen offers in the window and the terminal: the interpreter's own
/// (`docs/keys.md`, "ended").
pub const END_KEYS: &str = "N new game · R run · E exploration · Esc menu · :Q save and quit";

/// The keys an end screen offers in the browser. A server's game is one game (its key log
/// ends with it): there `N`, `R` and `E` are the page's, which starts the next game of that
/// mode, and Esc goes back to the lobby; there is nothing to save.
pub const BROWSER_END_KEYS: &str = "N new game · R run · E exploration · Esc lobby";

/// The keys an end screen offers in `front_end`: [`END_KEYS`] or [`BROWSER_END_KEYS`].
pub fn end_keys(front_end: FrontEnd) -> &'static str {
    match front_end {
        FrontEnd::Window | FrontEnd::Terminal => END_KEYS,
        FrontEnd::Browser => BROWSER_END_KEYS,
    }
}

/// The end screen of a game that was won, or of a run won or lost (and why). A hidden seed
/// (`seed_label`, e.g. "daily 2026-11-28") is named by its label instead; `note` is a line
/// the front-end adds under the numbers (a server's "scored: 707 points on the seeded
/// board", or why the game was not scored). Its last line is the keys that work there, in
/// `front_end` ([`end_keys`]).
pub fn end_screen(
    game: &GameState,
    seed_label: Option<&str>,
    note: Option<&str>,
    front_end: FrontEnd,
    message: &str,
) -> TextScreen {
    let seed = super::seed_name(game, seed_label);
    let mut lines = Vec::new();
    match (game.run(), game.status()) {
        (None, status) if game.explore().is_some() => {
            let e = game.explore().map(exploration_numbers).unwrap_or_default();
            let won = status == LevelStatus::Won;
            lines.push(Line::new(
                if won {
                    "BACK UP WITH THE LOOT"
                } else {
                    "LOST IN THE DUNGEON"
                },
                Style::Title,
            ));
            lines.push(Line::new(
                if won {
                    format!("{} points banked", e.score)
                } else {
                    match game.explore().and_then(|e| e.killed_by()) {
                        Some(kind) => format!(
                            "killed by {}, and {} points lost with you",
                            with_a(kind.name()),
                            e.forfeited
                        ),
                        None => {
                            format!("the last heart is gone, and {} points with it", e.forfeited)
                        }
                    }
                },
                Style::Heading,
            ));
            lines.push(Line::blank());
            lines.push(Line::new(
                format!(
                    "{seed} · {} made in {} · deepest {}",
                    plural(e.rooms as u64, "room", "rooms"),
                    plural(e.branches as u64, "branch", "branches"),
                    e.deepest
                ),
                Style::Normal,
            ));
            lines.push(Line::new(moves_text(game.moves()), Style::Normal));
        }
        (None, _) => {
            lines.push(Line::new("YOU FOUND THE EXIT!", Style::Title));
            lines.push(Line::blank());
            lines.push(Line::new(seed, Style::Normal));
            lines.push(Line::new(moves_text(game.moves()), Style::Normal));
        }
        (Some(run), status) => {
            let won = status == LevelStatus::Won;
            lines.push(Line::new(
                if won {
                    "THE DUNGEON IS READY"
                } else {
                    "THE RUN IS OVER"
                },
                Style::Title,
            ));
            lines.push(Line::new(
                if won {
                    format!("every floor upkept, B1 to B{}", run.floors)
                } else {
                    format!(
                        "lost on B{}: {}",
                        run.floor,
                        run.loss.map_or("lost", byog_game::run::Loss::reason)
                    )
                },
                Style::Heading,
            ));
            lines.push(Line::blank());
            for verse in end_verse(if won { None } else { run.loss }) {
                lines.push(Line::new(verse, Style::Input));
            }
            lines.push(Line::blank());
            lines.push(Line::new(
                format!("{seed} · score {}", run.score),
                Style::Normal,
            ));
            lines.push(Line::new(
                format!(
                    "{} · {} perfect of {} floors",
                    moves_text(game.moves()),
                    run.perfect_floors,
                    run.floors
                ),
                Style::Normal,
            ));
        }
    }
    if let Some(note) = note {
        lines.push(Line::new(note, Style::Heading));
    }
    lines.push(Line::blank());
    lines.push(Line::new(end_keys(front_end), Style::Hint));
    TextScreen {
        lines,
        message: message_line(message),
    }
}

/// The Upkeeper's verse for how a run ended: won (`None`), out of moves or out of health.
pub fn end_verse(loss: Option<byog_game::run::Loss>) -> [&'static str; 2] {
    use byog_game::run::Loss;
    match loss {
        None => [
            "Each chest is fat, each trap is set:",
            "walk in, brave heroes, you'll regret it yet.",
        ],
        Some(Loss::OutOfMoves) => [
            "The candle's spent, the chores undone;",
            "the heroes came, and saw, and won.",
        ],
        Some(Loss::OutOfHealth) => [
            "You set the trap, then stepped in too:",
            "the dungeon keeps a keeper's shoe.",
        ],
    }
}

/// What the end screen and the summary say of an exploration.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ExplorationNumbers {
    score: u64,
    forfeited: u64,
    rooms: usize,
    branches: usize,
    deepest: u32,
}

pub(super) fn exploration_numbers(e: &byog_game::explore::ExploreState) -> ExplorationNumbers {
    let d = e.dungeon();
    let rooms = d.branches().iter().flat_map(|b| b.rooms().values());
    ExplorationNumbers {
        score: e.score(),
        forfeited: match e.end() {
            Some(byog_game::explore::play::ExploreEnd::Lost { forfeited }) => forfeited,
            _ => 0,
        },
        rooms: d.rooms_made(),
        branches: d.branches().len(),
        deepest: rooms.map(|r| r.depth).max().unwrap_or(0),
    }
}

/// The one-line summary of a finished run (`replay` prints it on stderr); `None` for a run
/// still played or a classic game.
pub fn run_summary(game: &GameState) -> Option<String> {
    if let Some(e) = game.explore() {
        let n = exploration_numbers(e);
        let tail = format!(
            "seed {}, {} in {}, deepest {}, {}",
            game.seed(),
            plural(n.rooms as u64, "room", "rooms"),
            plural(n.branches as u64, "branch", "branches"),
            n.deepest,
            moves_text(game.moves())
        );
        return match game.status() {
            LevelStatus::Playing => None,
            LevelStatus::Won => Some(format!("exploration banked {} points: {tail}", n.score)),
            LevelStatus::Lost => Some(format!(
                "exploration lost at 0 health{} with {} points: {tail}",
                e.killed_by().map_or_else(String::new, |k| format!(
                    " (killed by {})",
                    with_a(k.name())
                )),
                n.forfeited
            )),
        };
    }
    let run = game.run()?;
    let tail = format!(
        "seed {}, score {}, {}, {} perfect of {} floors",
        game.seed(),
        run.score,
        moves_text(game.moves()),
        run.perfect_floors,
        run.floors
    );
    match game.status() {
        LevelStatus::Playing => None,
        LevelStatus::Won => Some(format!("run won on B{}/{}: {tail}", run.floor, run.floors)),
        LevelStatus::Lost => Some(format!(
            "run lost on B{}/{} ({}): {tail}",
            run.floor,
            run.floors,
            run.loss.map_or("lost", byog_game::run::Loss::reason)
        )),
    }
}
