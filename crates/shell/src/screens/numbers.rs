//! What each number of the HUD means, said once: on the help's pages of numbers (`?`), and on
//! the message line the first time it appears in a game ([`Explainer`]).
//!
//! Every part of the HUD's status texts (the parts between ` · `) is one [`HudItem`]
//! ([`HudItem::of_part`]); the shell's tests play every mode and check that no part is left
//! without one, so a number added to the HUD without its meaning fails them.

use std::collections::{BTreeSet, VecDeque};

use byog_game::GameState;
use byog_game::interpreter::GameKind;
use byog_game::rules::Event;

use super::Hud;

/// One number (or word) of the HUD's status texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum HudItem {
    /// `seed 42` (or a hidden seed's label, `daily 2026-11-28`).
    Seed,
    /// A classic game's `(12, 5)`.
    Position,
    /// A classic game's and an exploration's `34 moves`.
    Moves,
    /// A run's `B3/10`.
    Floor,
    /// A run's `chests 2/4 (+24)`.
    Chests,
    /// A run's `traps 1/2 (+8)`.
    Traps,
    /// A run's `exit 189 away` (or `exit seen`).
    Exit,
    /// A run's `107 through 2 traps`.
    ExitThrough,
    /// A run's `the exit needs 120 moves: handle a feature first`.
    ExitNeeds,
    /// A run's `OUT OF REACH: …`.
    OutOfReach,
    /// `health 3/3`.
    Health,
    /// A run's `412 moves left`.
    MovesLeft,
    /// `score 120`.
    Score,
    /// A run's `X 14 steps → 166 left`; an exploration's `X 252 steps (clock -49)`.
    ExploreCost,
    /// A run's `walk 9 steps → 171 left`, under the pointer; an exploration's
    /// `walk 9 steps (clock -6)`.
    WalkCost,
    /// A run's descent message, `(missed 1 chest: -98)`.
    Missed,
    /// An exploration's `start room`.
    StartRoom,
    /// An exploration's `branch 2 (timer 218)`.
    Branch,
    /// An exploration's `room (-1, -4)`.
    Room,
    /// An exploration's `depth 3`.
    Depth,
    /// An exploration's `potions 2`.
    Potions,
}

impl HudItem {
    /// The item as the HUD shows it, with example numbers (the help's left column), and what
    /// it means.
    pub fn example_and_meaning(self, kind: GameKind) -> (&'static str, &'static str) {
        match (self, kind) {
            (HudItem::Seed, GameKind::Classic) => {
                ("seed 42", "the world's seed; the same seed, the same world")
            }
            (HudItem::Seed, GameKind::Run) => {
                ("seed 42", "the run's seed; the same seed, the same floors")
            }
            (HudItem::Seed, GameKind::Exploration) => (
                "seed 42",
                "the exploration's seed; the same seed, the same rooms",
            ),
            (HudItem::Position, _) => ("(12, 5)", "where you stand, across from the left and up"),
            (HudItem::Moves, _) => ("34 moves", "the moves made so far"),
            (HudItem::Floor, _) => ("B3/10", "the floor you are on, of the run's floors"),
            (HudItem::Chests, _) => (
                "chests 2/4 (+24)",
                "chests refilled of the floor's; the moves one pays",
            ),
            (HudItem::Traps, _) => (
                "traps 1/2 (+8)",
                "traps rearmed of the floor's; the moves one pays",
            ),
            (HudItem::Exit, _) => ("exit 189 away", "steps to the exit seen, round armed traps"),
            (HudItem::ExitThrough, _) => (
                "107 through 2 traps",
                "a shorter way to the exit, over armed traps",
            ),
            (HudItem::ExitNeeds, _) => (
                "the exit needs 120",
                "more moves than you have; handle a feature first",
            ),
            (HudItem::OutOfReach, _) => (
                "OUT OF REACH",
                "the exit no longer fits the moves; no win now",
            ),
            (HudItem::Health, GameKind::Run) => {
                ("health 3/3", "hearts left of 3; an armed trap takes one")
            }
            (HudItem::Health, _) => ("health 3/3", "hearts left; at 0 the score is lost"),
            (HudItem::MovesLeft, _) => ("412 moves left", "a step costs one; at 0 the run is lost"),
            (HudItem::Score, GameKind::Exploration) => {
                ("score 340", "points carried, banked at the way up (<)")
            }
            (HudItem::Score, _) => ("score 120", "points from features and from spare moves"),
            (HudItem::ExploreCost, GameKind::Exploration) => (
                "X 252 steps (clock -49)",
                "the most steps X walks now, and the points the clock takes on them",
            ),
            (HudItem::WalkCost, GameKind::Exploration) => (
                "walk 9 steps (clock -6)",
                "a click's walk to the tile under the pointer",
            ),
            (HudItem::ExploreCost, _) => (
                "X 14 steps → 166 left",
                "X's next walk, and the moves left after it",
            ),
            (HudItem::WalkCost, _) => (
                "walk 9 steps → 171 left",
                "a click's walk to the tile under the pointer",
            ),
            (HudItem::Missed, _) => (
                "missed 1 chest: -98",
                "on the way down, the moves an untidy floor lost",
            ),
            (HudItem::StartRoom, _) => ("start room", "the room of the way up (<)"),
            (HudItem::Branch, _) => (
                "branch 2 (timer 218)",
                "your branch; moves before its door opens a new one",
            ),
            (HudItem::Room, _) => ("room (-1, -4)", "the room's place, in rooms right and up"),
            (HudItem::Depth, _) => ("depth 3", "rooms from the start; deeper pays more"),
            (HudItem::Potions, _) => ("potions 2", "potions carried; U drinks one"),
        }
    }

    /// The items of a mode's HUD, as the help lists them: the top row's, then the bottom
    /// row's (and what is shown under the pointer or said on the way down).
    pub fn of_mode(kind: GameKind) -> (Vec<HudItem>, Vec<HudItem>) {
        use HudItem::*;
        match kind {
            GameKind::Classic => (vec![Seed], vec![Position, Moves]),
            GameKind::Run => (
                vec![
                    Seed,
                    Floor,
                    Chests,
                    Traps,
                    Exit,
                    ExitThrough,
                    ExitNeeds,
                    OutOfReach,
                ],
                vec![Health, MovesLeft, Score, ExploreCost, WalkCost, Missed],
            ),
            GameKind::Exploration => (
                vec![Seed, StartRoom, Branch, Room, Depth],
                vec![Health, Potions, Score, Moves, ExploreCost, WalkCost],
            ),
        }
    }

    /// The item one part of a HUD's status text (between ` · `) shows, in a game of `kind`;
    /// `None` for a part no item names. `seed_label` names a hidden seed.
    pub fn of_part(part: &str, kind: GameKind, seed_label: Option<&str>) -> Option<HudItem> {
        let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
        let words: Vec<&str> = part.split(' ').collect();
        Some(match words.as_slice() {
            ["seed", n] if digits(n) => HudItem::Seed,
            _ if seed_label == Some(part) => HudItem::Seed,
            [p, ..] if p.starts_with('(') && kind == GameKind::Classic => HudItem::Position,
            [n, "moves" | "move"] if digits(n) => HudItem::Moves,
            [b] if b.starts_with('B') && b.contains('/') => HudItem::Floor,
            ["chests", ..] => HudItem::Chests,
            ["traps", ..] => HudItem::Traps,
            ["exit", ..] if part.contains(" through ") && !part.contains(" away") => {
                HudItem::ExitThrough
            }
            ["exit", ..] => HudItem::Exit,
            [n, "through", ..] if digits(n) => HudItem::ExitThrough,
            ["the", "exit", ..] => HudItem::ExitNeeds,
            ["OUT", "OF", ..] => HudItem::OutOfReach,
            ["health", ..] => HudItem::Health,
            [n, "moves" | "move", "left"] if digits(n) => HudItem::MovesLeft,
            ["score", ..] => HudItem::Score,
            ["X", ..] => HudItem::ExploreCost,
            ["walk", ..] => HudItem::WalkCost,
            ["start", "room"] => HudItem::StartRoom,
            ["branch", ..] => HudItem::Branch,
            ["room", ..] => HudItem::Room,
            ["depth", n] if digits(n) => HudItem::Depth,
            ["potions", ..] => HudItem::Potions,
            _ => return None,
        })
    }
}

/// The parts of a HUD text: between ` · `, and an exploration's `room (1, 2) depth 2` as its
/// room and its depth.
pub fn parts(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(" · ")
        .flat_map(|p| p.split(" depth ").enumerate())
        .filter(|(_, p)| !p.is_empty())
        .map(|(k, p)| {
            if k == 0 {
                p.to_owned()
            } else {
                format!("depth {p}")
            }
        })
}

/// The help's lines for `items` of a game of `kind`: each example then its meaning, the
/// meanings in one column.
pub fn help_lines(items: &[HudItem], kind: GameKind) -> Vec<String> {
    let width = items
        .iter()
        .map(|i| i.example_and_meaning(kind).0.chars().count())
        .max()
        .unwrap_or(0);
    items
        .iter()
        .map(|i| {
            let (example, meaning) = i.example_and_meaning(kind);
            let pad = width - example.chars().count();
            format!("{example}{}  {meaning}", " ".repeat(pad))
        })
        .collect()
}

/// The HUD items a game shows now that are cheap to tell (no search of the floor): those its
/// HUD always shows in its mode (a run's `X` cost among them: shown unless `X` has nowhere to
/// go, when its explanation gives the help's example), the exit's ways once the exit was seen, an exploration's
/// branch once in one, and a descent that missed features (`events`, the last key's).
fn present(game: &GameState, events: &[Event]) -> Vec<HudItem> {
    use HudItem::*;
    let mut items = match (game.run(), game.explore()) {
        (Some(_), _) => {
            let mut v = vec![
                Seed,
                Floor,
                Chests,
                Traps,
                Health,
                MovesLeft,
                Score,
                ExploreCost,
                WalkCost,
            ];
            // The exit's ways and warnings, as the HUD words them now (`exit 189 · 107
            // through 2 traps`, `the exit needs …`, `OUT OF REACH …`).
            v.extend(
                super::hud::run_progress(game)
                    .split(" · ")
                    .filter_map(|part| HudItem::of_part(part, GameKind::Run, None)),
            );
            v
        }
        (_, Some(e)) => {
            let mut v = vec![Seed, StartRoom, Room, Depth, Health, Score, Moves];
            if e.encounters().enabled {
                v.push(Potions);
            }
            if e.branch().is_some() {
                v.push(Branch);
            }
            v
        }
        (None, None) => vec![Seed, Position, Moves],
    };
    let missed = events.iter().any(|e| {
        matches!(e, Event::Descended { missed_chests, missed_traps, .. }
            if missed_chests + missed_traps > 0)
    });
    if missed {
        items.push(Missed);
    }
    items
}

/// The first-time explanations of a game's HUD (the shell keeps one a session): which items
/// the game has shown, which wait to be explained, and the one explained now. It follows the
/// keys fed ([`Explainer::note`], the same in a game played and one rebuilt from its keys) and
/// the keys the player pressed ([`Explainer::advance`]); never the clock, and never the game:
/// nothing of it is saved, logged or fed.
#[derive(Debug, Clone, Default)]
pub struct Explainer {
    /// The game explained: its kind and seed (a new one starts over).
    game: Option<(GameKind, u64)>,
    /// Items the game has shown.
    seen: BTreeSet<HudItem>,
    /// Items shown but not explained yet, in the order they appeared.
    pending: VecDeque<HudItem>,
    /// The item explained on the message line now.
    showing: Option<HudItem>,
}

impl Explainer {
    /// After a key fed to `game` with these `events`: the items it shows for the first time
    /// wait to be explained. A game of another kind or seed (a new game, a load) starts over.
    pub fn note(&mut self, game: &GameState, events: &[Event]) {
        let id = (game.kind(), game.seed());
        if self.game != Some(id) {
            *self = Explainer {
                game: Some(id),
                ..Explainer::default()
            };
        }
        for item in present(game, events) {
            if self.seen.insert(item) {
                self.pending.push_back(item);
            }
        }
    }

    /// After a key the player pressed in play, whose message is `message`: the next waiting
    /// item is explained when the message line is free; a message of the game's own wins the
    /// line (the explanation waits for the next free one).
    pub fn advance(&mut self, message: &str) {
        self.showing = if message.is_empty() {
            self.pending.pop_front()
        } else {
            None
        };
    }

    /// The explanation on the message line now, for `hud` (the game's HUD with the message
    /// line free) of a game of `kind`: the item as the HUD shows it now, then its meaning
    /// (`chests 0/3 (+63): chests refilled of the floor's; the moves one pays`).
    pub fn message(&self, hud: &Hud, kind: GameKind, seed_label: Option<&str>) -> Option<String> {
        let item = self.showing?;
        let shown = hud
            .rows
            .iter()
            .flat_map(|r| parts(&r.right).chain(parts(&r.left)))
            .find(|part| HudItem::of_part(part, kind, seed_label) == Some(item));
        let (example, meaning) = item.example_and_meaning(kind);
        Some(format!(
            "{}: {meaning}",
            shown.as_deref().unwrap_or(example)
        ))
    }

    /// The items still waiting to be explained.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }
}
