use super::*;
use std::path::Path;
use std::time::Duration;

use byog_game::GameOptions;
use byog_game::explore::ExploreSettings;
use byog_game::interpreter::GameKind;
use byog_tile_engine::WallStyle;
use byog_worlds::generator::GeneratorSettings;

use crate::FrontEnd;
use crate::screens::{self, Screen};
use crate::store::Saves;

fn options(dir: &Path) -> ShellOptions {
    ShellOptions {
        game: GameOptions {
            width: 80,
            height: 30,
            settings: GeneratorSettings::default(),
            floors: 3,
            explore: ExploreSettings::default(),
            one_game: false,
        },
        saves: Saves::Folder {
            dir: dir.to_owned(),
            slot: None,
        },
        walls: None,
        watch: false,
        front_end: FrontEnd::Terminal,
        seed_label: None,
    }
}

fn shell(dir: &Path) -> Shell {
    Shell::new(options(dir)).unwrap()
}

/// Types `keys` at `now`, each once the one before is done: a key fed on a worker thread
/// (a world made) is waited for, so a test does not depend on the machine's speed (under a
/// loaded test run an 80 × 30 world can take longer than [`BUSY_AFTER_SECONDS`]).
fn keys(shell: &mut Shell, keys: &str, now: f64) {
    for k in keys.chars() {
        shell.key(k, now);
        while shell.is_busy() {
            std::thread::sleep(Duration::from_millis(2));
            shell.tick(now);
        }
    }
}

/// Types `keys` at `now` without waiting for a key on a worker thread: typed meanwhile.
fn keys_meanwhile(shell: &mut Shell, keys: &str, now: f64) {
    for k in keys.chars() {
        shell.key(k, now);
    }
}

#[test]
fn a_key_that_takes_long_keeps_the_keys_typed_meanwhile_for_after_it() {
    // A world of 4096 × 4096 tiles takes longer than BUSY_AFTER_SECONDS in any build.
    let dir = tempfile::tempdir().unwrap();
    let base = options(dir.path());
    let mut s = Shell::new(ShellOptions {
        game: GameOptions {
            width: 4096,
            height: 4096,
            ..base.game
        },
        ..base
    })
    .unwrap();
    keys_meanwhile(&mut s, "N77S", 0.0);
    assert!(s.is_busy(), "the world is made on a worker thread");
    assert_eq!(s.shown_game(), None);
    let Screen::Text(busy) = s.screen(1.0, None) else {
        panic!("a text screen while busy");
    };
    assert!(busy.lines[0].text.starts_with("making the game of seed 77"));
    // The generator reports from its first step on (byog_worlds::progress), on the
    // worker's thread: the screen names the step and the share done over a bar.
    let stages = [
        "placing the rooms",
        "growing the mazes",
        "finding the connectors",
        "joining the regions",
        "filling the dead ends",
        "placing the avatar and the exit",
    ];
    let step = &busy.lines[2].text;
    assert!(step.ends_with("% · 1.0 s"), "{step}");
    assert!(stages.iter().any(|s| step.starts_with(s)), "{step}");
    assert!(busy.lines[3].text.starts_with('['), "{:?}", busy.lines[3]);
    // In the words of the front-end playing (issue 31, problem 17: no window here).
    assert_eq!(
        busy.lines.last().unwrap().text,
        "Ctrl-C quits; nothing is saved"
    );
    // Typed while busy: kept, and fed in order once the world is there.
    keys_meanwhile(&mut s, "WA\t:Q", 1.0);
    let mut now = 1.0;
    let mut shares = Vec::new();
    while s.is_busy() {
        if let Screen::Text(busy) = s.screen(now, None) {
            let line = &busy.lines[2].text;
            if let Some((share, _)) = line.split(" · ").nth(1).and_then(|p| p.split_once('%')) {
                shares.push(share.parse::<u32>().unwrap());
            }
        }
        std::thread::sleep(Duration::from_millis(20));
        now += 0.02;
        assert!(s.tick(now));
    }
    // The share never goes back within one world (one attempt: the default settings'
    // 4096² world meets its requirements on the first).
    assert!(shares.windows(2).all(|w| w[0] <= w[1]), "{shares:?}");
    let game = s.shown_game().expect("the game, once made");
    assert_eq!(game.history(), replayed_history("N77SWA", 4096, 4096));
    assert!(s.in_sight(game), "Tab, typed meanwhile, toggled sight");
    assert!(s.farewell().is_some(), ":Q, typed meanwhile, saved");
}

#[test]
fn a_dropped_colon_and_a_replaced_save_are_said() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell(dir.path());
    keys(&mut s, "N1S:D", 0.0);
    assert!(s.message.contains("colon"), "{}", s.message);
    keys(&mut s, ":Q", 0.0);
    assert!(s.farewell().unwrap().starts_with("saved to "));
    assert!(!s.farewell().unwrap().contains("replaced"));
    // Another game saved over it asks first (Y saves over it), then says what it
    // replaced, in the HUD and on the way out.
    let mut s = shell(dir.path());
    keys(&mut s, "R2S:Q", 0.0);
    let Screen::Text(ask) = s.screen(0.0, None) else {
        panic!("the question is a text screen");
    };
    assert_eq!(ask.lines[0].text, "SAVE OVER ANOTHER GAME?");
    assert!(ask.lines[1].text.contains("holds the game N1S"), "{ask:?}");
    keys(&mut s, "y", 0.0);
    assert!(
        s.message.contains("replaced the save of the game N1S"),
        "{}",
        s.message
    );
    assert!(
        s.farewell()
            .unwrap()
            .ends_with("; it replaced the save of the game N1S (0 moves)"),
        "{:?}",
        s.farewell()
    );
}

#[test]
fn vi_keys_and_the_numpad_move_in_play_and_only_there() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell(dir.path());
    // At the menu `l` is still Load (there is no save), in seed entry digits are digits.
    keys(&mut s, "l", 0.0);
    assert!(s.message.contains("no saved game"), "{}", s.message);
    keys(&mut s, "N1248S", 0.0);
    assert_eq!(s.shown_game().unwrap().seed(), 1248);
    keys(&mut s, "hjkl2468", 0.0);
    let vi = s.shown_game().unwrap().history();
    assert_eq!(vi, replayed_history("N1248SASWDSADW", 80, 30));
    assert!(vi.chars().skip(6).all(|c| "WASD".contains(c)), "{vi}");
}

/// Issue 31, problem 9: with `--slot` naming a slot, `L` loads that slot (never the list,
/// which would swallow the keys after it), and the menu says what `L` will do: load the
/// chosen slot, say it holds nothing, or list the folder's saves when none was chosen.
#[test]
fn l_loads_the_slot_chosen_and_the_menu_says_what_l_does() {
    let dir = tempfile::tempdir().unwrap();
    let chosen = |slot: Option<&str>| {
        Shell::new(ShellOptions {
            saves: Saves::Folder {
                dir: dir.path().to_owned(),
                slot: slot.map(str::to_owned),
            },
            ..options(dir.path())
        })
        .unwrap()
    };
    for (slot, keys_) in [
        (None, "R7SDD:Q"),
        (Some("n42"), "N42SDD:Q"),
        (Some("r77"), "R77SA:Q"),
    ] {
        let mut s = chosen(slot);
        keys(&mut s, keys_, 0.0);
        assert!(s.farewell().is_some(), "{slot:?} saved");
    }
    let menu_lines = |s: &mut Shell| -> Vec<String> {
        let Screen::Text(menu) = s.screen(0.0, None) else {
            panic!("the menu is text");
        };
        menu.lines.into_iter().map(|l| l.text).collect()
    };
    // --slot r77: L loads it at once; the key after it plays.
    let mut s = chosen(Some("r77"));
    assert!(menu_lines(&mut s).contains(&"Load Game (L)".to_owned()));
    keys(&mut s, "LD", 0.0);
    assert!(s.shown_game().unwrap().history().starts_with("R77S"));
    assert_eq!(s.take_fed(), "LD");
    // --slot naming a new slot: the menu and L agree that it holds nothing.
    let mut s = chosen(Some("new"));
    let lines = menu_lines(&mut s);
    assert!(
        lines.contains(&"Load Game (L): no saved game".to_owned()),
        "{lines:?}"
    );
    keys(&mut s, "L", 0.0);
    assert!(s.message.contains("no saved game"), "{}", s.message);
    assert_eq!(s.phase(), Some(Phase::Menu));
    // No --slot: L lists the folder's three saves, and the menu says so.
    let mut s = chosen(None);
    let lines = menu_lines(&mut s);
    assert!(
        lines.contains(&"Load Game (L): choose among 3 saves".to_owned()),
        "{lines:?}"
    );
    keys(&mut s, "L", 0.0);
    let Screen::Text(list) = s.screen(0.0, None) else {
        panic!("the list");
    };
    assert_eq!(list.lines[0].text, "LOAD WHICH SAVE?");
}

/// Issue 31, problem 10: the message log (`P`) is the game's and is saved with it: after
/// `:Q` and `L` in a new session it shows the same messages.
#[test]
fn the_message_log_survives_saving_and_loading() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell(dir.path());
    keys(&mut s, "N1SFYZ:Q", 0.0);
    assert!(s.farewell().is_some());
    let log = |s: &mut Shell| -> Vec<String> {
        keys(s, "P", 0.0);
        let Screen::Text(log) = s.screen(0.0, None) else {
            panic!("the log is a text screen");
        };
        keys(s, "x", 0.0);
        log.lines.into_iter().skip(1).map(|l| l.text).collect()
    };
    let mut loaded = shell(dir.path());
    keys(&mut loaded, "L", 0.0);
    let shown = log(&mut loaded);
    assert!(shown.len() >= 3, "{shown:?}");
    assert!(shown.iter().any(|l| l.starts_with("'F'")), "{shown:?}");
    assert!(shown.last().unwrap().starts_with("'Z'"), "{shown:?}");
}

/// Issue 31, problem 13: a `:Q` that cannot save says why and the game goes on (the `:`
/// answered, so the next `Q` is not swallowed as a save).
#[test]
#[cfg(target_os = "linux")]
fn a_save_that_fails_says_why_and_play_goes_on() {
    // A folder that holds no save and where none can be made, even by root: /proc takes
    // no new folders.
    let folder = Path::new("/proc/byog-cannot-save-here");
    let mut s = shell(folder);
    keys(&mut s, "N3S:Q", 0.0);
    assert!(!s.is_over(10.0), "still playing");
    assert!(s.message.starts_with("cannot"), "{}", s.message);
    let Screen::Game(hud) = s.screen(0.0, None) else {
        panic!("the game is on screen");
    };
    assert_eq!(
        hud.rows[1].left, s.message,
        "the HUD says why, not the colon prompt"
    );
    assert_eq!(s.phase(), Some(Phase::Playing { colon: false }));
    keys(&mut s, "D", 0.0);
    assert_eq!(
        s.take_fed(),
        "N3SD",
        "the next key plays; the :Q that failed is not in the key log"
    );
}

/// Issue 30: the first run played with a save folder opens on the Upkeeper's song; the
/// first key plays (it is not lost); the next run in that folder starts at once.
#[test]
fn the_first_run_of_a_folder_sings_the_song_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell(dir.path());
    keys(&mut s, "R7S", 0.0);
    let Screen::Text(song) = s.screen(0.0, None) else {
        panic!("the song is a text screen");
    };
    assert_eq!(song.lines[0].text, "THE UPKEEPER'S SONG");
    assert!(song.lines.len() > 6, "{song:?}");
    keys(&mut s, "D", 0.0);
    assert!(s.shows_world());
    assert_eq!(s.take_fed(), "R7SD", "the first key plays");
    let mut again = shell(dir.path());
    keys(&mut again, "R8S", 0.0);
    assert!(again.shows_world(), "sung once a folder");
    // A classic game or an exploration never sings it.
    let other = tempfile::tempdir().unwrap();
    let mut s = shell(other.path());
    keys(&mut s, "E7S", 0.0);
    assert!(s.shows_world());
}

#[test]
fn help_and_the_message_log_are_view_keys_over_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell(dir.path());
    keys(&mut s, "?", 0.0);
    let Screen::Text(help) = s.screen(0.0, None) else {
        panic!("help is a text screen");
    };
    assert_eq!(help.lines[0].text, "HELP");
    keys(&mut s, "x", 0.0);
    assert!(s.message.is_empty(), "the key that closes help is not fed");
    keys(&mut s, "R7S?", 0.0);
    let Screen::Text(help) = s.screen(0.0, None) else {
        panic!("help over a run");
    };
    assert_eq!(
        help.lines[0].text, "THE UPKEEPER'S SONG",
        "a run's help sings first"
    );
    assert!(!s.shows_world());
    // D (or → or Space) turns the pages, A turns back; past the last, it closes.
    keys(&mut s, "D", 0.0);
    let Screen::Text(help) = s.screen(0.0, None) else {
        panic!("the next page");
    };
    assert_eq!(help.lines[0].text, "HELP: A RUN");
    let pages = screens::help_pages(Some(GameKind::Run));
    assert!(pages >= 3, "{pages}");
    keys(&mut s, "A", 0.0);
    let Screen::Text(help) = s.screen(0.0, None) else {
        panic!("back a page");
    };
    assert_eq!(help.lines[0].text, "THE UPKEEPER'S SONG");
    keys(&mut s, &" ".repeat(pages - 1), 0.0);
    let Screen::Text(last) = s.screen(0.0, None) else {
        panic!("the last page");
    };
    assert_eq!(last.lines[0].text, "HELP: KEYS");
    keys(&mut s, "W", 0.0);
    assert!(s.shows_world(), "any other key closes the help");
    assert_eq!(s.shown_game().unwrap().moves(), 0, "and is not fed");
    // Every message of this game is in the log, newest at the bottom.
    keys(&mut s, "FYZ", 0.0);
    keys(&mut s, "p", 0.0);
    let Screen::Text(log) = s.screen(0.0, None) else {
        panic!("the log is a text screen");
    };
    assert_eq!(log.lines[0].text, "MESSAGES");
    assert!(log.lines.last().unwrap().text.starts_with("'Z'"), "{log:?}");
    assert!(log.lines[log.lines.len() - 3].text.starts_with("'F'"));
    keys(&mut s, "W", 0.0);
    let Screen::Text(up) = s.screen(0.0, None) else {
        panic!("still the log");
    };
    assert!(
        up.lines.last().unwrap().text.starts_with("'Y'"),
        "scrolled one back"
    );
    keys(&mut s, "q", 0.0);
    assert!(s.shows_world());
    assert_eq!(
        s.shown_game().unwrap().history(),
        "R7S",
        "view keys never enter it"
    );
}

#[test]
fn slots_keep_two_games_and_l_lists_them() {
    let dir = tempfile::tempdir().unwrap();
    // A run in the default slot; then a classic game that would save over it keeps it
    // instead (N: a new slot named after the game).
    let mut s = shell(dir.path());
    keys(&mut s, "R7SDD:Q", 0.0);
    let mut s = shell(dir.path());
    keys(&mut s, "N42SDD:Q", 0.0);
    let Screen::Text(ask) = s.screen(0.0, None) else {
        panic!("asked before saving over the run");
    };
    assert!(ask.lines[1].text.contains("the run R7S"), "{ask:?}");
    keys(&mut s, "n", 0.0);
    assert!(
        s.farewell().unwrap().contains("n42.bin"),
        "{:?}",
        s.farewell()
    );
    let names: Vec<String> = byog_game::save::slots(dir.path())
        .into_iter()
        .map(|slot| slot.name)
        .collect();
    assert_eq!(names, ["n42", "save"]);
    // L lists both, with what each holds; a number loads that one.
    let mut s = shell(dir.path());
    keys(&mut s, "L", 0.0);
    let Screen::Text(list) = s.screen(0.0, None) else {
        panic!("the slots are listed");
    };
    assert!(
        list.lines[1].text.starts_with("1 n42: the game N42S ("),
        "{list:?}"
    );
    assert!(
        list.lines[2]
            .text
            .starts_with("2 save (current): the run R7S (B1/3, "),
        "{list:?}"
    );
    keys(&mut s, "1", 0.0);
    assert_eq!(
        s.shown_game().unwrap().history(),
        replayed_history("N42SDD", 80, 30)
    );
    let mut s = shell(dir.path());
    keys(&mut s, "L2", 0.0);
    assert_eq!(
        s.shown_game().unwrap().history(),
        replayed_history("R7SDD", 80, 30)
    );
    // Any other key goes back to the menu.
    let mut s = shell(dir.path());
    keys(&mut s, "Lx", 0.0);
    assert_eq!(s.phase(), Some(Phase::Menu));
    assert!(s.shown_game().is_none());
}

/// The history replay gives for `keys` (bumps dropped) at `w × h`.
fn replayed_history(keys: &str, w: usize, h: usize) -> String {
    let mut i = Interpreter::new(w, h, GeneratorSettings::default());
    let mut store = byog_game::save::MemoryStore::default();
    byog_game::replay::replay(&mut i, keys, &mut store, true, &mut |_| ()).unwrap();
    i.into_game().unwrap().history()
}

#[test]
fn a_session_rebuilt_by_replay_shows_the_game_not_the_song() {
    // The web server rebuilds a game from its key log: the song's first key is among
    // them as a plain move, so the rebuilt session shows the game, as the first did.
    let dir = tempfile::tempdir().unwrap();
    let mut first = shell(dir.path());
    keys(&mut first, "R42S", 0.0);
    assert!(
        matches!(first.screen(0.0, None), Screen::Text(_)),
        "the song"
    );
    keys(&mut first, "DD", 0.0);
    assert!(matches!(first.screen(0.0, None), Screen::Game(_)));
    let dir = tempfile::tempdir().unwrap();
    let mut rebuilt = Shell::replayed(options(dir.path()), &first.take_fed()).unwrap();
    assert!(matches!(rebuilt.screen(0.0, None), Screen::Game(_)));
    // Keys that only start the run still open on the song.
    let dir = tempfile::tempdir().unwrap();
    let mut started = Shell::replayed(options(dir.path()), "R42S").unwrap();
    assert!(matches!(started.screen(0.0, None), Screen::Text(_)));
}

#[test]
fn the_numpad_s_5_waits_in_play_and_types_a_seed_digit_before() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell(dir.path());
    keys(&mut s, "R5S", 0.0);
    let left = s.shown_game().unwrap().run().unwrap().moves_left;
    keys(&mut s, "5.", 0.0);
    let game = s.shown_game().unwrap();
    assert_eq!(game.seed(), 5, "5 typed the seed at the seed prompt");
    assert_eq!(
        game.run().unwrap().moves_left,
        left - 2,
        "each wait paid a move"
    );
    assert_eq!(game.history(), replayed_history("R5S..", 80, 30));
    assert_eq!(s.message, "you wait a turn");
}

#[test]
fn a_walk_goes_one_step_a_tick_takes_the_interpreters_steps_and_stops_at_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell(dir.path());
    keys(&mut s, "R1SX", 0.0);
    assert!(s.is_walking());
    let mut now = 0.0;
    // The first step is taken at once.
    let mut last = s.shown_game().unwrap().moves();
    assert_eq!(last, 1);
    for _ in 0..5 {
        now += TRAVEL_STEP_SECONDS;
        assert!(s.tick(now));
        let moves = s.shown_game().unwrap().moves();
        assert!(moves <= last + 1, "one step a tick");
        last = moves;
    }
    assert!(s.is_walking() && last >= 3);
    // A key stops it, and is not fed.
    keys(&mut s, "D", now);
    assert!(!s.is_walking());
    assert_eq!(s.message, "travel stopped by a key");
    let stopped = s.shown_game().unwrap().history();
    assert_eq!(s.shown_game().unwrap().moves(), last);
    // Walked to its end, X takes exactly the steps the interpreter takes for it.
    let mut s = shell(dir.path());
    keys(&mut s, "R1SX", 0.0);
    s.finish_walk(0.0);
    let walked = s.shown_game().unwrap().history();
    assert_eq!(walked, replayed_history("R1SX", 80, 30));
    assert!(walked.starts_with(&stopped), "{walked} {stopped}");
}

#[test]
fn view_keys_never_reach_the_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell(dir.path());
    keys(&mut s, "N1234S\tA\t", 0.0);
    let game = s.shown_game().unwrap();
    assert_eq!(game.history(), "N1234SA");
    assert!(!s.in_sight(game), "Tab twice: sight off again");
    assert_eq!(s.walls(game), WallStyle::Java);
    // :Q saves, says goodbye, ends after the goodbye, and leaves a line to print.
    keys(&mut s, ":Q", 1.0);
    assert!(!s.is_over(1.0));
    assert_eq!(s.deadline(), Some(1.0 + screens::GOODBYE_SECONDS));
    assert!(s.is_over(1.0 + screens::GOODBYE_SECONDS));
    let line = s.farewell().unwrap();
    assert!(line.starts_with("saved to ") && line.ends_with("(N1234S…, 1 move)"));
}

#[test]
fn the_camera_follows_the_avatar_and_recentres_for_a_watch() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell(dir.path());
    assert_eq!(s.follow(20, 10), None, "the menu shows no world");
    // An exploration: its frame moves as rooms are made and maps change; the avatar
    // stays on the view after every key.
    keys(&mut s, "E42S", 0.0);
    let walk = "WWWWWWWWWWWWWAAAAAAAAAAAAAWWWWWWWWWWWWWWWWWWWWSSSSSSSAAAAAAADDDDDDDDDD";
    let mut origins = std::collections::BTreeSet::new();
    for k in walk.chars() {
        s.key(k, 0.0);
        let camera = s.follow(20, 10).unwrap();
        let game = s.shown_game().unwrap();
        origins.insert((game.origin().x, game.origin().y));
        assert!(camera.cell_of(game.avatar()).is_some(), "{k}: {camera:?}");
    }
    assert!(origins.len() > 1, "the walk moved the frame");
    // Saved, then watched from the menu: the watch starts at the first world, the camera
    // centred on its avatar.
    keys(&mut s, ":Q", 1.0);
    let mut s = shell(dir.path());
    keys(&mut s, "V", 0.0);
    let game = s.shown_game().unwrap();
    assert_eq!(game.history(), "E42S");
    let (scene, at) = (Scene::of(game), game.avatar());
    let camera = s.follow(20, 10).unwrap();
    assert_eq!(
        camera,
        Camera::centred(20, 10, scene.width, scene.height, at)
    );
    // Leaving the watch goes back to the menu.
    s.key(byog_game::keys::ESCAPE, 0.0);
    assert!(!s.shows_world());
    assert!(
        !s.is_over(10.0),
        "a watch started at the menu returns to it"
    );
}

#[test]
fn a_walk_that_would_bank_an_exploration_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell(dir.path());
    keys(&mut s, "E2S>", 0.0);
    assert!(!s.is_walking(), "the walk waits for an answer");
    assert!(
        s.message.contains("banks your 0 points") && s.message.contains("Y goes"),
        "{}",
        s.message
    );
    // Any other key stays: nothing walked, the exploration in play.
    keys(&mut s, "n", 0.0);
    assert_eq!(s.message, "travel cancelled");
    let game = s.shown_game().unwrap();
    assert_eq!(game.moves(), 0);
    assert!(!game.has_ended());
    // Y walks into the way up: the same steps as the interpreter's `>` then `Y`.
    keys(&mut s, ">Y", 0.0);
    s.finish_walk(0.0);
    let game = s.shown_game().unwrap();
    assert!(game.has_ended(), "banked");
    assert_eq!(game.history(), replayed_history("E2S>Y", 80, 30));
}

#[test]
fn no_walk_is_offered_with_a_hunting_monster_beside_the_avatar() {
    // Exploration 100 after the walks `X` took before rules version 9, as plain moves, and
    // the step that wakes the rat (it lurks since rules version 10): a rat stands beside the
    // avatar. `>` would bank; it asks nothing and says why no walk starts.
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell(dir.path());
    keys(
        &mut s,
        "E100SSSSSSSSWWWWWWWAAAAAAADDDDDDDDDDDDDDAAAAWWWAAAWWWWWWWWWWWWWWWWWWWWWD",
        0.0,
    );
    let before = s.shown_game().unwrap().moves();
    keys(&mut s, ">", 0.0);
    assert!(!s.is_walking());
    assert_eq!(
        s.message,
        "the rat is beside you: fight it first (walk into it)"
    );
    keys(&mut s, "Y", 0.0);
    s.finish_walk(0.0);
    assert_eq!(s.shown_game().unwrap().moves(), before, "nothing walked");
}
