//! What the screen says: every number of the HUD explained (in the help, and once on the
//! message line the first time it appears), the help's legend in columns and its keys page
//! complete.

use std::collections::BTreeMap;

use byog_game::interpreter::GameKind;
use byog_game::keys::{is_typed, key_name};
use byog_shell::frame::{Frame, FrameRequest};
use byog_shell::screens::{self, HudItem, Screen, help_pages, help_screen};
use byog_shell::{FrontEnd, GameOptions, Saves, Shell, ShellOptions};
use byog_tile_engine::WallStyle;
use byog_worlds::generator::GeneratorSettings;

const KINDS: [GameKind; 3] = [GameKind::Classic, GameKind::Run, GameKind::Exploration];

fn options() -> ShellOptions {
    ShellOptions {
        game: GameOptions {
            width: 80,
            height: 30,
            settings: GeneratorSettings::default(),
            floors: 10,
            explore: byog_game::explore::ExploreSettings::default(),
            one_game: false,
        },
        saves: Saves::None,
        walls: Some(WallStyle::Box),
        watch: false,
        front_end: FrontEnd::Terminal,
        seed_label: None,
    }
}

fn shell() -> Shell {
    Shell::new(options()).unwrap().on_this_thread()
}

/// A view smaller than the worlds (so that `M` shows a minimap), a minimap, the pointer on
/// view cell `pointer`.
fn request(pointer: Option<(u32, u32)>) -> FrameRequest {
    FrameRequest {
        view_cols: 40,
        view_rows: 16,
        minimap: Some((10, 10)),
        pointer,
    }
}

fn frame(s: &mut Shell) -> Frame {
    s.frame(0.0, &request(None))
}

fn type_keys(s: &mut Shell, keys: &str) {
    for k in keys.chars() {
        s.key(k, 0.0);
        s.finish_walk(0.0);
    }
}

fn hud(f: &Frame) -> &screens::Hud {
    match &f.screen {
        Screen::Game(h) => h,
        Screen::Text(t) => panic!("a text screen: {:?}", t.lines),
    }
}

/// The words of every page of the help of `kind`, a line each.
fn help_text(kind: Option<GameKind>) -> Vec<String> {
    (0..help_pages(kind))
        .flat_map(|p| {
            let t = help_screen(kind, p);
            t.lines.iter().map(|l| l.plain()).collect::<Vec<_>>()
        })
        .collect()
}

/// Games of every mode played by moves, waits and `X` (with `Y` to go over armed traps):
/// the keys of each, a game a string.
const GAMES: [&str; 6] = [
    "N42SDDDDSSSSXXXX",
    "N7SXXXXXXXX",
    "R77SDXXYXXYXXYXXYXXYXXYXXYXXY>Y",
    "R3SDXYXYXYXYXYXYXYXYXY>Y>Y",
    "E42SDXXXXXXXXXXXXXXXXXXXX",
    "E7SD.XYXYXYXYXYXYXYXYXYXYXYX",
];

/// Every part of every status text the HUD showed while those games were played, with the
/// pointer over every fifth cell, is one of the HUD's numbers of its mode, and the help of
/// that mode explains it: its example, as the help's left column gives it, has the same
/// words as the part with every number replaced.
#[test]
fn every_number_the_hud_shows_is_explained_in_the_help() {
    let shape = |s: &str| -> String {
        let mut out = String::new();
        for c in s.chars() {
            if c.is_ascii_digit() || c == '-' {
                if !out.ends_with('#') {
                    out.push('#');
                }
            } else {
                out.push(c);
            }
        }
        // "1 step" and "9 steps" read alike.
        out.split(' ')
            .map(|w| w.strip_suffix('s').unwrap_or(w))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut seen: BTreeMap<(GameKind, HudItem), String> = BTreeMap::new();
    for keys in GAMES {
        let mut s = shell();
        let kind = match &keys[..1] {
            "N" => GameKind::Classic,
            "R" => GameKind::Run,
            _ => GameKind::Exploration,
        };
        let (top, bottom) = HudItem::of_mode(kind);
        let help = help_text(Some(kind));
        for k in keys.chars() {
            type_keys(&mut s, &k.to_string());
            for pointer in (0..40 * 16).step_by(5).map(|i| Some((i % 40, i / 40))) {
                let f = s.frame(0.0, &request(pointer));
                let Screen::Game(h) = &f.screen else { continue };
                let texts = [&h.rows[0].right, &h.rows[1].right];
                // Under the pointer, a walk's cost after the tile's name (a monster's line,
                // `rat · 2/2 health · hunting`, names no number of the HUD's).
                let monster = byog_game::explore::MonsterKind::ALL
                    .iter()
                    .any(|k| h.rows[0].left.starts_with(&format!("{} · ", k.name())));
                let under = h.rows[0]
                    .left
                    .split(" · ")
                    .skip(1)
                    .filter(|_| !monster)
                    .map(str::to_owned);
                for part in texts
                    .iter()
                    .flat_map(|t| screens::hud_parts(t))
                    .chain(under)
                {
                    let item = HudItem::of_part(&part, kind, None)
                        .unwrap_or_else(|| panic!("{kind:?}: {part:?} is no number of the HUD"));
                    assert!(
                        top.contains(&item) || bottom.contains(&item),
                        "{kind:?}: {item:?} ({part:?}) is not in its help"
                    );
                    // The help's line for it has the part's words.
                    let (example, _) = item.example_and_meaning(kind);
                    assert!(
                        help.iter().any(|l| l.trim_start().starts_with(example)),
                        "{kind:?}: no help line for {example:?}"
                    );
                    let (a, b) = (shape(example), shape(&part));
                    assert!(
                        b.starts_with(&a) || a.starts_with(&b) || b.contains(&a),
                        "{kind:?}: {part:?} read as {example:?}"
                    );
                    seen.entry((kind, item)).or_insert(part);
                }
            }
        }
    }
    // The games showed most numbers of every mode.
    for kind in KINDS {
        let (top, bottom) = HudItem::of_mode(kind);
        let shown = seen.keys().filter(|(k, _)| *k == kind).count();
        assert!(
            shown * 10 >= (top.len() + bottom.len()) * 6,
            "{kind:?}: only {shown} shown: {seen:?}"
        );
    }
}

/// The meaning of the HUD item a message explains, if it is an explanation.
fn explained(message: &str, kind: GameKind) -> Option<HudItem> {
    let (top, bottom) = HudItem::of_mode(kind);
    top.into_iter()
        .chain(bottom)
        .find(|i| message.ends_with(&format!(": {}", i.example_and_meaning(kind).1)))
}

/// The first time a number shows in a game, the message line says what it means, once: each
/// number the game shows from its start is explained exactly once, in the order the keys
/// free the line; a message of the game's own (one it keeps in its log) is never hidden by
/// an explanation, and no explanation enters the log, the key log or the game.
#[test]
fn each_number_is_explained_once_the_first_time_it_shows() {
    for (keys, kind) in [
        ("R77SDDSSAAWWDDSSAAWWDDSSAAWWDDSS", GameKind::Run),
        ("E42SDDSSAAWWDDSSAAWWDDSSAAWWXXXX", GameKind::Exploration),
        ("N42SDDSSAAWWDDSSAAWW", GameKind::Classic),
    ] {
        let mut s = shell();
        let mut counts: BTreeMap<HudItem, usize> = BTreeMap::new();
        let mut order = Vec::new();
        let start = keys.find('S').unwrap();
        type_keys(&mut s, &keys[..start]);
        for k in keys[start..].chars() {
            let logged = s.shown_game().map_or(0, |g| g.log().len());
            type_keys(&mut s, &k.to_string());
            let f = frame(&mut s);
            if matches!(f.screen, Screen::Text(_)) {
                continue; // the Upkeeper's song over a run's first floor
            }
            let message = hud(&f).rows[1].left.clone();
            let log = s.shown_game().unwrap().log();
            if log.len() > logged {
                // The game's own message of this key is shown, not an explanation.
                assert_eq!(Some(&message), log.back(), "{keys}: key {k}");
            }
            assert!(
                log.iter().all(|m| explained(m, kind).is_none()),
                "{keys}: an explanation was logged: {log:?}"
            );
            if let Some(item) = explained(&message, kind) {
                order.push(item);
                // Said with the number the HUD shows now.
                let part = message.split(": ").next().unwrap();
                let h = hud(&f);
                assert!(
                    h.rows
                        .iter()
                        .any(|r| r.right.contains(part) || r.left.starts_with(part)),
                    "{keys}: {message:?} names no number of {h:?}"
                );
                // The HUD keeps to its two rows in a 100-column terminal.
                let rows = screens::hud_lines(h, 98);
                assert!(
                    rows.len() <= 2,
                    "{keys}: {message:?} takes {} rows",
                    rows.len()
                );
            }
        }
        // Each explanation shows for one key (the next free line takes the next): count the
        // keys on which each item was explained, in a row.
        let mut runs: Vec<HudItem> = order.clone();
        runs.dedup();
        for item in &runs {
            *counts.entry(*item).or_default() += 1;
        }
        let (top, bottom) = HudItem::of_mode(kind);
        let always: Vec<HudItem> = top
            .iter()
            .chain(&bottom)
            .copied()
            .filter(|i| {
                matches!(
                    i,
                    HudItem::Seed
                        | HudItem::Floor
                        | HudItem::Chests
                        | HudItem::Traps
                        | HudItem::Health
                        | HudItem::MovesLeft
                        | HudItem::Score
                        | HudItem::Position
                        | HudItem::Moves
                        | HudItem::StartRoom
                        | HudItem::Room
                        | HudItem::Depth
                        | HudItem::Potions
                )
            })
            .collect();
        for item in &always {
            assert_eq!(counts.get(item), Some(&1), "{keys}: {item:?} in {order:?}");
        }
        assert!(counts.values().all(|&n| n == 1), "{keys}: {counts:?}");
        // The game and its key log are the keys' own: replayed, they give the same game.
        let fed = s.take_fed();
        let again = Shell::replayed(options(), &fed).unwrap();
        let (live, rebuilt) = (s.shown_game().unwrap(), again.shown_game().unwrap());
        assert_eq!(live.history(), rebuilt.history(), "{keys}");
    }
}

/// The explanations follow the keys, never the clock: two sessions given the same keys (at
/// different times) show the same messages, and a session rebuilt from a game's key log shows
/// the explanation the session that played it showed.
#[test]
fn the_explanations_follow_the_keys() {
    let keys = "R77SDDSSAAWW.DDS";
    let (mut a, mut b) = (shell(), shell());
    let mut said = Vec::new();
    for (i, k) in keys.chars().enumerate() {
        a.key(k, 0.0);
        b.key(k, 1000.0 + i as f64 * 7.3);
        let (fa, fb) = (frame(&mut a), b.frame(5000.0, &request(None)));
        assert_eq!(fa.screen, fb.screen, "after key {i} of {keys}");
        if let Screen::Game(h) = &fa.screen {
            said.push(h.rows[1].left.clone());
        }
    }
    assert!(
        said.iter()
            .filter(|m| explained(m, GameKind::Run).is_some())
            .count()
            >= 5,
        "{said:?}"
    );
    let fed = a.take_fed();
    let mut rebuilt = Shell::replayed(options(), &fed).unwrap();
    assert_eq!(frame(&mut rebuilt).screen, frame(&mut a).screen);
}

/// Whether the keys page `page` (its lines) names `key`: alone as a word (either case), in
/// `:Q`, as `Tab`, `Space`, `Backspace`, `Esc`, or a digit among `digits`.
fn names(page: &[String], key: char) -> bool {
    let words: Vec<&str> = page
        .iter()
        .flat_map(|l| l.split([' ', ',', '(', ')']))
        .filter(|w| !w.is_empty())
        .collect();
    let name = key_name(key);
    words.iter().any(|w| {
        w.chars().count() == 1 && w.eq_ignore_ascii_case(&key.to_string())
            || (*w == ":Q" && (key == ':' || key.eq_ignore_ascii_case(&'Q')))
            || *w == name
            || (*w == "digits" && key.is_ascii_digit())
    })
}

/// The last page of a help: its keys.
fn keys_page(kind: Option<GameKind>) -> Vec<String> {
    let t = help_screen(kind, help_pages(kind) - 1);
    t.lines.iter().map(|l| l.plain()).collect()
}

/// Whether `key`, pressed in the state `prefix` leaves a session in, is taken: the game
/// takes it (it enters the key log) or the screen changes and does not say the key is
/// unknown. Tested on a fresh session rebuilt from `prefix` each time.
fn taken(prefix: &str, key: char) -> bool {
    let mut s = Shell::replayed(options(), prefix).unwrap();
    let before = frame(&mut s);
    s.key(key, 0.0);
    s.finish_walk(0.0);
    let after = frame(&mut s);
    let refused = match &after.screen {
        Screen::Game(h) => h.rows[1].left.starts_with(&format!("{}: ", key_name(key))),
        Screen::Text(t) => t
            .message
            .as_ref()
            .is_some_and(|m| m.text.starts_with(&format!("{}: ", key_name(key)))),
    };
    !s.take_fed().is_empty() || (after != before && !refused)
}

/// Every key a player can type that the game or the shell takes while a game of each mode is
/// played (and at the menu and the seed's digits) is named on the help's keys page: found by
/// pressing each key in turn, not read off a list. A question's `Y` (a walk over armed traps)
/// too, in a run where `>` asks it.
#[test]
fn the_keys_page_names_every_key_taken() {
    let typed: Vec<char> = (0..=0x7f_u8)
        .map(char::from)
        .filter(|&c| is_typed(c))
        .collect();
    let mut taken_keys = BTreeMap::new();
    for (kind, prefix) in [
        (None, ""),
        (None, "N4"),
        (Some(GameKind::Classic), "N42SD"),
        (Some(GameKind::Run), "R77SD"),
        (Some(GameKind::Exploration), "E42SD"),
    ] {
        let page = keys_page(kind);
        for &key in &typed {
            if taken(prefix, key) {
                assert!(
                    names(&page, key),
                    "{kind:?}: {} is taken after {prefix:?} but not on the keys page {page:?}",
                    key_name(key)
                );
                taken_keys
                    .entry(format!("{kind:?}"))
                    .or_insert_with(Vec::new)
                    .push(key);
            }
        }
    }
    // The oracle finds keys: moves, X, the view keys.
    let run = &taken_keys["Some(Run)"];
    for k in ['W', 'd', 'X', '>', '?', 'P', '.', '5', 'h'] {
        assert!(run.contains(&k), "{k:?} not found taken in a run: {run:?}");
    }
    assert!(
        taken_keys["Some(Classic)"].contains(&'\t'),
        "Tab in a classic game"
    );
    assert!(
        taken_keys["Some(Exploration)"].contains(&'U'),
        "U in an exploration"
    );
    // A question: a click whose way crosses an armed trap asks for `Y`; the key that answers
    // it is on the run's keys page. Found by the travel planner over seeds and `X` walks.
    let asked = (0..30).find_map(|seed| {
        let mut s = shell();
        type_keys(&mut s, &format!("R{seed}SD"));
        for _ in 0..10 {
            type_keys(&mut s, "X");
            let game = s.shown_game()?;
            if game.has_ended() || game.run().is_none() {
                return None;
            }
            let r = game.rect();
            let target = (r.x..r.x + r.width)
                .flat_map(|x| (r.y..r.y + r.height).map(move |y| byog_tile_engine::Pos::new(x, y)))
                .find(|&p| {
                    game.has_seen(p)
                        && byog_game::travel::plan(game, byog_game::travel::Goal::tile(game, p))
                            .is_ok_and(|route| route.armed > 0 && route.steps.len() > 1)
                });
            if let Some(p) = target {
                return Some((s.take_fed(), p));
            }
        }
        None
    });
    let (prefix, target) = asked.expect("a run where a click's way crosses an armed trap");
    // Asks, from a session rebuilt from the keys, the click on the target's cell.
    let ask = || {
        let mut s = Shell::replayed(options(), &prefix).unwrap();
        let f = frame(&mut s);
        let view = f.view.unwrap();
        let cell = (0..view.rows)
            .flat_map(|r| (0..view.cols).map(move |c| (c, r)))
            .find(|&(c, r)| view.tile_at(c, r) == target)
            .expect("the target in view");
        s.click(cell.0, cell.1, 0.0);
        assert!(s.route().is_some(), "the click asks");
        s
    };
    ask();
    let answers: Vec<char> = typed
        .iter()
        .copied()
        .filter(|&k| {
            let mut s = ask();
            s.key(k, 0.0);
            s.finish_walk(0.0);
            !s.take_fed().is_empty()
        })
        .collect();
    assert_eq!(answers, ['Y', 'y'], "{prefix}");
    let page = keys_page(Some(GameKind::Run));
    assert!(names(&page, 'Y'), "{page:?}");
}

/// The help's legends are columns: on every page of every help, the lines with a glyph
/// (and the lines of numbers) are one width, so every front-end, centring each line, puts
/// their glyphs in one column and their meanings in the next, in an 80- and a 100-column
/// terminal and a window of any width.
#[test]
fn the_help_s_legends_are_columns() {
    let mut legends = 0;
    for kind in [
        None,
        Some(GameKind::Classic),
        Some(GameKind::Run),
        Some(GameKind::Exploration),
    ] {
        for page in 0..help_pages(kind) {
            let t = help_screen(kind, page);
            let glyphs: Vec<_> = t.lines.iter().filter(|l| l.glyph.is_some()).collect();
            if glyphs.is_empty() {
                continue;
            }
            legends += 1;
            for cols in [80_usize, 100] {
                // Where a painter centring the line puts the glyph and the meaning.
                let columns: Vec<(usize, usize)> = glyphs
                    .iter()
                    .map(|l| {
                        let plain = l.plain();
                        let at = (cols - plain.chars().count()) / 2;
                        let meaning = plain.chars().skip(1).take_while(|c| *c == ' ').count();
                        (at, at + 1 + meaning)
                    })
                    .collect();
                assert!(
                    columns.windows(2).all(|w| w[0] == w[1]),
                    "{kind:?} page {page} at {cols}: {columns:?} for {:?}",
                    glyphs.iter().map(|l| l.plain()).collect::<Vec<_>>()
                );
            }
        }
    }
    assert!(legends >= 4, "{legends} legends");
}

/// The run's warnings are explained the first time they show: a run whose moves are burnt
/// stepping to and fro until the HUD says the exit is beyond them (`the exit needs …` or
/// `OUT OF REACH`) explains that warning once, on the first free line after it appears, and
/// a run's walk cost (under the pointer) is explained too.
#[test]
fn the_run_s_warnings_are_explained_when_they_first_show() {
    let mut explained_warnings = 0;
    for seed in [3u64, 77, 1234] {
        let mut s = shell();
        type_keys(&mut s, &format!("R{seed}S"));
        // A way to and fro that moves (a step into a wall costs nothing).
        let moves = |s: &Shell| s.shown_game().map_or(0, |g| g.moves());
        let pair = ["DA", "AD", "WS", "SW"]
            .into_iter()
            .find(|p| {
                let mut t = Shell::replayed(options(), &format!("R{seed}S")).unwrap();
                type_keys(&mut t, p);
                moves(&t) == 2
            })
            .unwrap();
        let mut order = Vec::new();
        let mut warned_at = None;
        for i in 0..900 {
            type_keys(&mut s, &pair[i % 2..i % 2 + 1]);
            let f = frame(&mut s);
            let Screen::Game(h) = &f.screen else { continue };
            let warning = [HudItem::ExitNeeds, HudItem::OutOfReach]
                .into_iter()
                .find(|&w| {
                    screens::hud_parts(&h.rows[0].right)
                        .any(|p| HudItem::of_part(&p, GameKind::Run, None) == Some(w))
                });
            if let (Some(w), None) = (warning, warned_at) {
                warned_at = Some((w, order.len()));
            }
            if let Some(item) = explained(&h.rows[1].left, GameKind::Run)
                && order.last() != Some(&item)
            {
                order.push(item);
            }
            if s.shown_game().is_none_or(|g| g.has_ended()) {
                break;
            }
        }
        let Some((warning, at)) = warned_at else {
            panic!("R{seed}S: no warning in 900 keys");
        };
        // Explained once, and only once it had shown.
        let when: Vec<usize> = (0..order.len()).filter(|&i| order[i] == warning).collect();
        assert_eq!(when.len(), 1, "R{seed}S: {warning:?} in {order:?}");
        assert!(
            when[0] >= at,
            "R{seed}S: {warning:?} explained before it showed"
        );
        assert!(order.contains(&HudItem::WalkCost), "R{seed}S: {order:?}");
        explained_warnings += 1;
    }
    assert_eq!(explained_warnings, 3);
}
