//! The bestiary: the help's pages on an exploration's monsters, each kind's speed, reach,
//! hit chance, damage, health, depth and trait read from the game's own table
//! ([`MonsterKind::stats`]: one source, no number typed twice), the ground that marks the
//! monsters that act after the next key ([`ACTS_NEXT`]), and the message of a step the
//! rules refused because a monster is beside the avatar ([`in_combat`]).

use byog_game::explore::MonsterKind;
use byog_game::explore::monsters::{KindStats, PACK_BONUS, Trait};
use byog_game::interpreter::GameKind;
use byog_tile_engine::{Rgb, Tile};

use super::help::glyph_of;
use super::{Glyph, Line, Style, with_a};

/// The background of a monster that acts after the player's next key (the frame draws it in
/// every front-end): a dark red, apart from every tile's ground.
pub const ACTS_NEXT: Rgb = Rgb::new(120, 24, 24);

/// Kinds on one page of the bestiary (two lines each, within the help's eight).
const KINDS_A_PAGE: usize = 3;

/// A kind's line: its health, how often it acts, its reach and its hit chance, in a
/// player's words (`"a goblin: 5 hp, acts every turn, reach 1, hits 45% for 1, depth 4+"`;
/// a rat's pack bonus and an orc's throw said too).
pub fn kind_line(k: &KindStats) -> String {
    let damage = if k.damage.1 > k.damage.0 {
        format!("{}-{}", k.damage.0, k.damage.1)
    } else {
        k.damage.0.to_string()
    };
    let reach = reach_text(k);
    let bonus = if k.trait_ == Trait::Pack {
        format!(" +{PACK_BONUS} a mate")
    } else {
        String::new()
    };
    let dodges = if k.evade_percent > 0 {
        format!(", dodges {}%", k.evade_percent)
    } else {
        String::new()
    };
    format!(
        "{}: {} hp, acts {}, {reach}, hits {}%{bonus} for {damage}, depth {}+{dodges}",
        with_a(k.name),
        k.health,
        k.speed.describe(),
        k.hit_percent,
        k.first_depth
    )
}

/// The line that names the kinds that lurk ([`KindStats::lurks`]): `"rats and bats sleep
/// until you stand beside them"`; `None` when no kind does.
pub fn lurkers_line() -> Option<String> {
    let names: Vec<String> = MonsterKind::ALL
        .iter()
        .filter(|m| m.stats().lurks)
        .map(|m| format!("{}s", m.name()))
        .collect();
    let (last, rest) = names.split_last()?;
    let who = if rest.is_empty() {
        last.clone()
    } else {
        format!("{} and {last}", rest.join(", "))
    };
    Some(format!(
        "{who} sleep until you stand beside them (diagonals too)"
    ))
}

/// A kind's reach: `"reach 1"` (tiles from which its action ends in a blow), or a thrower's
/// `"throws from 3"`.
fn reach_text(k: &KindStats) -> String {
    if k.range > 0 {
        format!("throws from {}", k.range)
    } else {
        format!("reach {}", k.reach)
    }
}

/// The bestiary's pages (heading and lines): two lines a kind, shallowest first, then what
/// the marked ground means.
pub fn bestiary_pages() -> Vec<(String, Vec<Line>)> {
    let kind = Some(GameKind::Exploration);
    let chunks: Vec<&[MonsterKind]> = MonsterKind::ALL.chunks(KINDS_A_PAGE).collect();
    let count = chunks.len();
    // The lurkers' line goes on the page of the first kind that lurks.
    let lurkers_page = MonsterKind::ALL
        .iter()
        .position(|m| m.stats().lurks)
        .map(|f| f / KINDS_A_PAGE);
    chunks
        .into_iter()
        .enumerate()
        .map(|(i, kinds)| {
            let mut lines = Vec::new();
            for m in kinds {
                let k = m.stats();
                lines.push(Line::legend(glyph_of(k.tile, kind), kind_line(k)));
                lines.push(Line::new(format!("   {}", k.trait_.describe()), Style::Dim));
            }
            // The lurkers' line, indented as the traits are (so the help's alignment puts
            // it in their column).
            if lurkers_page == Some(i)
                && let Some(line) = lurkers_line()
            {
                lines.push(Line::new(format!("   {line}"), Style::Normal));
            }
            if i + 1 == count {
                lines.push(Line::legend(
                    Glyph {
                        bg: ACTS_NEXT,
                        ..glyph_of(Tile::Rat, kind)
                    },
                    "on a red ground: it acts after your next key",
                ));
            }
            (format!("HELP: MONSTERS ({} of {count})", i + 1), lines)
        })
        .collect()
}

/// What refused a step through a room's way back: a monster of `kind` beside the avatar
/// (the way back stays shut while one is; every other step is allowed).
pub fn in_combat(kind: MonsterKind) -> String {
    format!(
        "the way back stays shut while {} is beside you",
        with_a(kind.name())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screens::help::HELP_PAGE_LINES;

    /// Every kind's numbers on the help come from its stats: change a number of the table and
    /// the page changes (the words are built from [`KindStats`], checked against each field).
    #[test]
    fn the_bestiary_gives_each_kinds_speed_reach_and_hit_chance_from_its_stats() {
        let pages = bestiary_pages();
        let text: Vec<String> = pages
            .iter()
            .flat_map(|(_, l)| l.iter().map(|l| l.text.clone()))
            .collect();
        for m in MonsterKind::ALL {
            let k = m.stats();
            let line = text
                .iter()
                .find(|t| t.starts_with(&with_a(k.name)))
                .unwrap_or_else(|| panic!("{} is on the bestiary", k.name));
            assert!(line.contains(k.speed.describe()), "{line}");
            assert!(line.contains(&format!("hits {}%", k.hit_percent)), "{line}");
            assert!(line.contains(&format!("{} hp", k.health)), "{line}");
            assert!(
                line.contains(&format!("depth {}+", k.first_depth)),
                "{line}"
            );
            let reach = if k.range > 0 {
                format!("throws from {}", k.range)
            } else {
                format!("reach {}", k.reach)
            };
            assert!(line.contains(&reach), "{line}");
            assert!(
                text.iter().any(|t| t.trim() == k.trait_.describe()),
                "{}'s trait",
                k.name
            );
            assert_eq!(
                line.contains(&format!("dodges {}%", k.evade_percent)),
                k.evade_percent > 0,
                "{line}"
            );
            let lurkers = text
                .iter()
                .find(|t| t.contains("sleep until you stand beside"));
            let named = lurkers.is_some_and(|t| t.contains(&format!("{}s", k.name)));
            assert_eq!(named, k.lurks, "{}: {lurkers:?}", k.name);
        }
        for (heading, lines) in &pages {
            assert!(lines.len() <= HELP_PAGE_LINES, "{heading}");
            for l in lines {
                assert!(l.text.chars().count() <= 78, "too wide: {}", l.text);
            }
        }
    }

    #[test]
    fn the_refused_way_back_names_the_monster_beside() {
        let m = in_combat(MonsterKind::Zombie);
        assert!(m.contains("way back") && m.contains("a zombie"), "{m}");
        assert!(!m.contains("step away"), "{m}");
    }

    /// The view of `game` (an exploration) centred on the avatar: the background of the cell
    /// that draws a zombie.
    fn zombie_ground(game: &byog_game::game::GameState) -> Rgb {
        use crate::frame::{Look, view_of};
        use byog_tile_engine::{Camera, WallStyle};
        let r = game.rect();
        let camera = Camera::centred(41, 21, r.width as usize, r.height as usize, game.avatar());
        let look = Look {
            walls: WallStyle::Box,
            sight: true,
        };
        let view = view_of(game, &camera, look, &[]);
        let z = Tile::Zombie.character();
        let cells: Vec<_> = view.cells.iter().filter(|c| c.glyph == z).collect();
        assert_eq!(cells.len(), 1, "one zombie drawn");
        cells[0].bg
    }

    #[test]
    fn the_monster_that_acts_next_is_drawn_on_its_own_ground() {
        use byog_game::action::Action;
        use byog_game::explore::ExploreSettings;
        use byog_game::game::GameState;
        use byog_tile_engine::{Direction, Pos};
        let quiet = ExploreSettings {
            monsters: false,
            ..ExploreSettings::default()
        };
        let mut game = GameState::new_exploration(
            3,
            byog_worlds::generator::GeneratorSettings::default(),
            quiet,
        )
        .unwrap();
        // Into the middle of the room above the start room; a zombie hunting 3 tiles off.
        for _ in 0..13 {
            game.apply(Action::Move(Direction::Up));
        }
        let e = game.explore_mut().unwrap();
        let a = e.avatar();
        e.add_monsters(&[(Pos::new(a.x + 3, a.y), MonsterKind::Zombie)])
            .unwrap();
        // Its first turn is one it acts on (zombies act every second turn).
        assert_eq!(zombie_ground(&game), ACTS_NEXT);
        game.apply(Action::Wait);
        // It lunged beside the avatar; on the next turn it idles: unmarked.
        assert_ne!(zombie_ground(&game), ACTS_NEXT);
        game.apply(Action::Wait);
        assert_eq!(zombie_ground(&game), ACTS_NEXT);
    }
}
