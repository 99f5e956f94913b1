//! The help screen of each mode: the goal, the rules, the keys and a legend of every glyph.

use byog_game::explore::MonsterKind;
use byog_game::interpreter::GameKind;
use byog_tile_engine::Tile;

use super::{Line, Style, TextScreen};

/// One glyph of a legend: the tile and what it means.
fn legend(tile: Tile, meaning: &str) -> Line {
    Line::new(
        format!("{}  {meaning}", tile.tetile().character()),
        Style::Glyph(tile),
    )
}

/// The help screen for a game of `kind` (`None`: the menu): the goal and the rules in two
/// lines each, the keys it takes, and a legend of every glyph in its colour. `?` shows it,
/// any key closes it.
pub fn help_screen(kind: Option<GameKind>) -> TextScreen {
    let mut lines = Vec::new();
    let heading = |t: &str| Line::new(t, Style::Heading);
    let normal = |t: &str| Line::new(t, Style::Normal);
    let hint = |t: &str| Line::new(t, Style::Hint);
    match kind {
        None => {
            lines.push(heading("HELP"));
            lines.push(normal("N a classic game: find the exit of one world"));
            lines.push(normal(
                "R a run: refill chests and rearm traps on ten floors",
            ));
            lines.push(normal(
                "E an exploration: rooms made as you walk in; bank at <",
            ));
            lines.push(normal(
                "then type the seed's digits and S; L loads, V watches, Q quits",
            ));
        }
        Some(GameKind::Classic) => {
            lines.push(heading("HELP: A CLASSIC GAME"));
            lines.push(normal(
                "Goal: walk into the exit (a locked door) to unlock it.",
            ));
            lines.push(normal(
                "A step into a wall is no move; Tab shows only what you see.",
            ));
            lines.push(Line::blank());
            lines.push(legend(Tile::Player, "you"));
            lines.push(legend(Tile::Floor, "floor"));
            lines.push(legend(Tile::Wall, "wall"));
            lines.push(legend(Tile::LockedDoor, "the exit, locked"));
            lines.push(legend(Tile::UnlockedDoor, "the exit, unlocked: won"));
        }
        Some(GameKind::Run) => {
            lines.push(heading("HELP: A RUN"));
            lines.push(normal(
                "Goal: refill every chest and rearm every trap, then take the",
            ));
            lines.push(normal(
                "exit, floor after floor to B10, before the moves run out.",
            ));
            lines.push(normal(
                "An armed trap costs a heart (3 in all); each feature pays once.",
            ));
            lines.push(Line::blank());
            lines.push(legend(Tile::Player, "you, the upkeeper"));
            lines.push(legend(
                Tile::ChestEmpty,
                "an empty chest: step on it to refill it",
            ));
            lines.push(legend(Tile::ChestFull, "a full chest"));
            lines.push(legend(
                Tile::TrapSprung,
                "a sprung trap: step on it to rearm it",
            ));
            lines.push(legend(Tile::TrapArmed, "an armed trap: it springs on you"));
            lines.push(legend(
                Tile::LockedDoor,
                "the floor's exit: down to the next",
            ));
        }
        Some(GameKind::Exploration) => {
            lines.push(heading("HELP: AN EXPLORATION"));
            lines.push(normal(
                "Goal: go deep for points and come back up the way up (<)",
            ));
            lines.push(normal(
                "to bank them; at 0 health they are lost, score and all.",
            ));
            lines.push(normal(
                "A room's exits open once its chests and traps are handled",
            ));
            lines.push(normal(
                "and its monsters slain: walk into one to strike it. Chests",
            ));
            lines.push(normal(
                "hold potions (U drinks one: +2 health); beside a monster",
            ));
            lines.push(normal("the way back is closed until you step away."));
            lines.push(Line::blank());
            lines.push(legend(Tile::Player, "you"));
            lines.push(legend(Tile::WayUp, "the way up: bank the score"));
            lines.push(legend(
                Tile::ExitUnexplored,
                "an unexplored exit: a new room behind",
            ));
            lines.push(legend(
                Tile::LockedDoor,
                "a locked exit: clear this room first",
            ));
            lines.push(legend(
                Tile::OneWayUp,
                "a one-way exit (↑ → ↓ ←): only that way",
            ));
            lines.push(legend(Tile::ChestEmpty, "an empty chest: refill it"));
            lines.push(legend(Tile::TrapSprung, "a sprung trap: rearm it"));
            lines.push(legend(Tile::TrapArmed, "an armed trap: it costs a heart"));
            for kind in MonsterKind::ALL {
                let k = kind.stats();
                lines.push(legend(
                    k.tile,
                    format!(
                        "a {}: {} health, hits for {}{}, from depth {}",
                        k.name,
                        k.health,
                        k.damage.0,
                        if k.damage.1 > k.damage.0 {
                            format!("-{}", k.damage.1)
                        } else {
                            String::new()
                        },
                        k.first_depth
                    )
                    .as_str(),
                ));
            }
        }
    }
    lines.push(Line::blank());
    lines.push(hint(&help_keys(kind)));
    TextScreen {
        lines,
        message: Some(Line::new("any key closes this help", Style::Hint)),
    }
}

/// The keys a mode takes, on one line of the help screen.
pub fn help_keys(kind: Option<GameKind>) -> String {
    match kind {
        None => "keys: N R E, digits, S, Backspace, Esc, L, V, Q, ? help".to_owned(),
        Some(k) => {
            let sight = if k == GameKind::Classic {
                " · Tab sight"
            } else {
                ""
            };
            let drink = if k == GameKind::Exploration {
                " · U drink a potion"
            } else {
                ""
            };
            format!(
                "keys: W A S D, arrows, h j k l, numpad 2 4 6 8 move{drink} · X explore · > to the exit \
                 · click: walk there · :Q save and quit{sight} · P messages · ? help"
            )
        }
    }
}
