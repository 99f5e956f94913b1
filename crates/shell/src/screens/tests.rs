//! The screens' tests.

use super::*;
use crate::FrontEnd;
use byog_game::GameState;
use byog_game::interpreter::{Interpreter, Outcome};
use byog_game::save::{MemoryStore, SaveStore};
use byog_tile_engine::Pos;
use byog_worlds::generator::GeneratorSettings;
use std::path::Path;

fn feed(i: &mut Interpreter, keys: &str) -> Vec<Outcome> {
    let mut store = MemoryStore::default();
    keys.chars()
        .map(|k| i.feed(k, &mut store).unwrap())
        .collect()
}

#[test]
fn every_state_has_a_screen_in_a_players_words() {
    let mut i = Interpreter::new(20, 12, GeneratorSettings::default());
    let ctx = Context {
        save: &SaveState::Missing,
        others: 0,
        message: "",
        under_mouse: None,
        seed_label: None,
        end_note: None,
        front_end: FrontEnd::Terminal,
    };
    let Screen::Text(menu) = screen(&i, ctx) else {
        panic!("the menu is text")
    };
    assert!(menu.lines.iter().any(|l| l.text == "New Game (N)"));
    assert!(menu.lines.iter().any(|l| l.text == "Run: B1 to B10 (R)"));
    assert!(
        menu.lines
            .iter()
            .any(|l| l.style == Style::Dim && l.text.contains("no saved game"))
    );
    // No save, nothing to watch; with one, V watches it. A run of --floors 3 says so.
    assert!(!menu.lines.iter().any(|l| l.text.contains("(V)")));
    let three = Interpreter::new(20, 12, GeneratorSettings::default()).with_floors(3);
    let Screen::Text(menu) = screen(
        &three,
        Context {
            save: &SaveState::Ready,
            ..ctx
        },
    ) else {
        panic!("the menu is text")
    };
    assert!(menu.lines.iter().any(|l| l.text == "Run: B1 to B3 (R)"));
    assert!(
        menu.lines
            .iter()
            .any(|l| l.text == "Watch the Saved Game (V)")
    );
    feed(&mut i, "N12");
    let Screen::Text(prompt) = screen(&i, ctx) else {
        panic!("the prompt is text")
    };
    assert!(prompt.lines.iter().any(|l| l.text == "12_"));
    feed(&mut i, "S");
    let Screen::Game(hud) = screen(
        &i,
        Context {
            under_mouse: Some(Pos::new(0, 0)),
            ..ctx
        },
    ) else {
        panic!("a game shows the world")
    };
    assert_eq!(hud.rows[0].right, "seed 12");
    // A hidden seed is named by its label, here and on the end screen.
    let Screen::Game(hidden) = screen(
        &i,
        Context {
            seed_label: Some("daily 2026-11-28"),
            ..ctx
        },
    ) else {
        panic!("a game shows the world")
    };
    assert_eq!(hidden.rows[0].right, "daily 2026-11-28");
    assert!(hud.rows[1].right.ends_with("0 moves"));
}

#[test]
fn long_lines_wrap_at_spaces() {
    assert_eq!(wrap("ab cd ef", 5), vec!["ab cd", "ef"]);
    assert_eq!(wrap("abcdefgh", 3), vec!["abc", "def", "gh"]);
    assert_eq!(wrap("", 3), vec![""]);
    assert_eq!(ellipsize("abcdef", 4), "abc…");
    assert_eq!(ellipsize("abc", 4), "abc");
    assert_eq!(ellipsize("abc", 0), "");
}

fn row(left: &str, style: Style, right: &str) -> HudRow {
    HudRow {
        left: left.to_owned(),
        left_style: style,
        right: right.to_owned(),
        right_short: String::new(),
    }
}

#[test]
fn the_hud_layout_lets_the_message_win_and_cuts_the_rest() {
    let hud = Hud {
        rows: [
            row("a wall under the mouse", Style::Normal, "seed 7"),
            row("one two three four", Style::Message, "9 moves"),
        ],
    };
    // Everything fits at 40: the HUD's two rows as they are.
    assert_eq!(hud_lines(&hud, 40), hud.rows.to_vec());
    // At 20 the description is cut, the message wraps and the status follows it on its
    // last row.
    assert_eq!(
        hud_lines(&hud, 20),
        vec![
            row("a wall unde…", Style::Normal, "seed 7"),
            row("one two three four", Style::Message, ""),
            row("", Style::Message, "9 moves"),
        ]
    );
    assert_eq!(
        hud_lines(&hud, 13),
        vec![
            row("a wa…", Style::Normal, "seed 7"),
            row("one two three", Style::Message, ""),
            row("four", Style::Message, "9 moves"),
        ]
    );
    // Every row fits its width, and no left text meets its right one.
    for width in 1..40 {
        for r in hud_lines(&hud, width) {
            let (l, rt) = (r.left.chars().count(), r.right.chars().count());
            assert!(l <= width && rt <= width, "{width}: {r:?}");
            assert!(
                l == 0 || rt == 0 || l + HUD_GAP + rt <= width,
                "{width}: {r:?}"
            );
        }
    }
}

/// A message too long for its row's status keeps to the HUD's two rows when it can, and
/// keeps the full statuses (the bottom one ends with what `X` costs) where it can: begun on
/// the top row when nothing is named under the pointer, else beside the short status; with
/// something named there and no room beside the short status, it takes rows of its own.
#[test]
fn a_long_message_keeps_to_the_hud_s_two_rows_where_it_can() {
    let status = |right: &str, short: &str| HudRow {
        right: right.to_owned(),
        right_short: short.to_owned(),
        ..row("", Style::Message, "")
    };
    let message = "one two three four five six";
    let mut hud = Hud {
        rows: [
            HudRow {
                left_style: Style::Normal,
                ..status("seed 7 · B1", "B1")
            },
            HudRow {
                left: message.to_owned(),
                ..status("health 3 · X 9", "health 3")
            },
        ],
    };
    // At 40 the message fits beside the short status only, but broken over the two rows it
    // fits beside both full ones: `X 9` stays on the HUD (seen in an 80-column terminal,
    // where an explanation beside the status hid what `X` costs).
    assert_eq!(
        hud_lines(&hud, 40),
        vec![
            row("one two three four five", Style::Message, "seed 7 · B1"),
            row("six", Style::Message, "health 3 · X 9"),
        ]
    );
    // At 26 it does not: it begins on the top row, as much of it as fits there (beside the
    // top's short status), and ends beside the bottom's full one.
    assert_eq!(
        hud_lines(&hud, 26),
        vec![
            row("one two three four", Style::Message, "B1"),
            row("five six", Style::Message, "health 3 · X 9"),
        ]
    );
    // With a tile named under the pointer, the top row is its: the message goes beside the
    // short status when it fits there, else takes its rows.
    hud.rows[0].left = "a wall".to_owned();
    assert_eq!(
        hud_lines(&hud, 40),
        vec![
            row("a wall", Style::Normal, "seed 7 · B1"),
            row(message, Style::Message, "health 3"),
        ]
    );
    let rows = hud_lines(&hud, 26);
    assert!(rows.len() > 2 && rows[0].left == "a wall", "{rows:?}");
}

/// Problem 13: a save that cannot be read is not offered as if it could: the menu says
/// why, and offers neither Load nor Watch.
#[test]
fn an_unreadable_save_is_not_offered() {
    let store = MemoryStore {
        bytes: Some(b"not a save".to_vec()),
    };
    let state = SaveState::of(&store);
    let SaveState::Unreadable(why) = &state else {
        panic!("{state:?}")
    };
    assert!(why.contains("not a byog save"), "{why}");
    let menu = menu(&state, 0, 10, FrontEnd::Terminal, "");
    let texts: Vec<&str> = menu.lines.iter().map(|l| l.text.as_str()).collect();
    assert!(
        texts.contains(&"Load Game (L): the save cannot be read"),
        "{texts:?}"
    );
    assert!(texts.contains(&why.as_str()), "{texts:?}");
    assert!(!texts.iter().any(|t| t.contains("Watch")), "{texts:?}");
    assert!(!texts.contains(&"Load Game (L)"), "{texts:?}");
    // A readable save is offered; none is not.
    let mut store = MemoryStore::default();
    assert_eq!(SaveState::of(&store), SaveState::Missing);
    let game = GameState::new(3, 20, 12, GeneratorSettings::default()).unwrap();
    store.save(&game).unwrap();
    assert_eq!(SaveState::of(&store), SaveState::Ready);
}

/// Problem 19: after `:` the HUD (and an end screen) says that it waits for `Q`.
#[test]
fn a_colon_says_it_waits_for_q() {
    let mut i = Interpreter::new(20, 12, GeneratorSettings::default());
    let ctx = Context {
        save: &SaveState::Missing,
        others: 0,
        message: "",
        under_mouse: None,
        seed_label: None,
        end_note: None,
        front_end: FrontEnd::Terminal,
    };
    feed(&mut i, "N12S:");
    let Screen::Game(hud) = screen(&i, ctx) else {
        panic!("a game shows the world")
    };
    assert_eq!(hud.rows[1].left, COLON_PROMPT);
    // Another key drops the colon, and the prompt with it.
    feed(&mut i, "X");
    let Screen::Game(hud) = screen(&i, ctx) else {
        panic!("a game shows the world")
    };
    assert_eq!(hud.rows[1].left, "");
}

/// Problem 19: counts agree with their nouns ("1 branch", never "1 branches").
#[test]
fn one_room_in_one_branch_is_singular() {
    let mut i = Interpreter::new(20, 12, GeneratorSettings::default());
    // Into the first room behind the start room's north door, back, and up the way up.
    feed(&mut i, "E42SWWWWWWWWWWWSSSSSSSSSSSWWAA");
    let game = i.game().unwrap();
    let summary = run_summary(game).expect("the exploration has ended");
    assert!(summary.contains(", 1 room in 1 branch,"), "{summary}");
    let end = end_screen(game, None, None, FrontEnd::Terminal, "");
    assert!(
        end.lines
            .iter()
            .any(|l| l.text.contains(" 1 room made in 1 branch ")),
        "{end:?}"
    );
    let saved = saved_line(game, Path::new("saves/save.bin"));
    assert_eq!(saved, "saved to saves/save.bin (E42S…, 26 moves)");
    let fresh = GameState::new(1234, 20, 12, GeneratorSettings::default()).unwrap();
    assert_eq!(
        saved_line(&fresh, Path::new("s.bin")),
        "saved to s.bin (N1234S, 0 moves)"
    );
}

#[test]
fn messages_never_show_input_positions() {
    let mut i = Interpreter::new(20, 12, GeneratorSettings::default());
    let outcomes = feed(&mut i, "X");
    let f = feedback(&outcomes[0], Path::new("saves/save.bin"));
    assert!(
        f.message.starts_with("'X': not a menu key"),
        "{}",
        f.message
    );
    assert!(!f.message.contains("position"));
}

/// Issue 30: a run ends on the Upkeeper's verse for how it ended, one per cause.
#[test]
fn a_run_ends_on_the_verse_of_its_cause() {
    use byog_game::run::Loss;
    let verses = [None, Some(Loss::OutOfMoves), Some(Loss::OutOfHealth)].map(end_verse);
    assert!(verses[0] != verses[1] && verses[1] != verses[2] && verses[0] != verses[2]);
    for v in verses.iter().flatten() {
        assert!(v.chars().count() <= 60, "{v}");
    }
    // Walked back and forth until the moves run out: the verse of running out of moves.
    let mut i = Interpreter::new(40, 20, GeneratorSettings::default());
    let mut store = MemoryStore::default();
    for k in "R7S".chars().chain("AD".repeat(2000).chars()) {
        if i.game().is_some_and(|g| g.has_ended()) {
            break;
        }
        i.feed(k, &mut store).unwrap();
    }
    let game = i.game().unwrap();
    assert_eq!(
        game.run().unwrap().loss,
        Some(Loss::OutOfMoves),
        "{}",
        game.history()
    );
    let end = end_screen(game, None, None, FrontEnd::Terminal, "");
    let texts: Vec<&str> = end.lines.iter().map(|l| l.text.as_str()).collect();
    for v in end_verse(Some(Loss::OutOfMoves)) {
        assert!(texts.contains(&v), "{texts:?}");
    }
}

/// Issue "The key log is the game": in the browser the menu offers only what works there
/// (no Load, no Watch, no Quit: the lobby resumes and leaves games), and the end screen
/// says exactly the page's keys; the window and the terminal keep theirs.
#[test]
fn the_browser_is_offered_only_the_keys_that_work_there() {
    let i = Interpreter::new(20, 12, GeneratorSettings::default());
    let texts = |screen: Screen| match screen {
        Screen::Text(t) => t.lines.into_iter().map(|l| l.text).collect::<Vec<_>>(),
        Screen::Game(_) => panic!("a text screen"),
    };
    fn ctx(front_end: FrontEnd, save: &SaveState) -> Context<'_> {
        Context {
            save,
            others: 2,
            message: "",
            under_mouse: None,
            seed_label: None,
            end_note: None,
            front_end,
        }
    }
    let desktop = texts(screen(&i, ctx(FrontEnd::Terminal, &SaveState::Ready)));
    assert!(
        desktop.iter().any(|t| t.starts_with("Load Game (L)")),
        "{desktop:?}"
    );
    assert!(desktop.iter().any(|t| t == "Quit (Q)"), "{desktop:?}");
    for save in [
        SaveState::Missing,
        SaveState::Ready,
        SaveState::Unreadable("damaged".to_owned()),
    ] {
        let browser = texts(screen(&i, ctx(FrontEnd::Browser, &save)));
        assert_eq!(
            browser,
            [
                "BYOG: BUILD YOUR OWN GAME",
                "",
                "New Game (N)",
                "Run: B1 to B10 (R)",
                "Exploration: rooms made as you enter (E)",
            ],
            "{save:?}"
        );
    }

    // An exploration banked (the same keys as `one_room_in_one_branch_is_singular`).
    let mut i = Interpreter::new(20, 12, GeneratorSettings::default());
    feed(&mut i, "E42SWWWWWWWWWWWSSSSSSSSSSSWWAA");
    assert!(i.game().is_some_and(|g| g.has_ended()));
    let desktop = texts(screen(&i, ctx(FrontEnd::Window, &SaveState::Missing)));
    assert_eq!(desktop.last().map(String::as_str), Some(END_KEYS));
    assert!(END_KEYS.contains(":Q") && END_KEYS.contains("Esc menu"));
    let browser = texts(screen(&i, ctx(FrontEnd::Browser, &SaveState::Missing)));
    assert_eq!(
        browser.last().map(String::as_str),
        Some("N new game · R run · E exploration · Esc lobby")
    );
    assert!(
        !browser
            .iter()
            .any(|t| t.contains(":Q") || t.contains("menu")),
        "{browser:?}"
    );
    // Everything above the keys is the same in both.
    assert_eq!(browser[..browser.len() - 1], desktop[..desktop.len() - 1]);
}
