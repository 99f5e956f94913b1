//! The shell's scenarios, played headless: keys and clicks go to a [`Shell`] as a front-end
//! sends them, and its [`Frame`] (the HUD's words, the text screens, the view's cells, the
//! minimap) is checked against the game the same keys give when replayed by the game
//! package alone (what the avatar has seen, where the monsters stand, the world's tiles).
//! The window and the terminal paint this one frame; their own tests (`tests/window.rs`,
//! `tests/terminal.rs` at the top) keep only what is theirs, plus one game played end to end
//! through each.

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;

use byog_game::GameState;
use byog_game::explore::ExploreSettings;
use byog_game::interpreter::{Interpreter, Phase};
use byog_game::replay::replay;
use byog_game::save::MemoryStore;
use byog_shell::frame::{Frame, FrameRequest, Light, View};
use byog_shell::screens::{COLON_PROMPT, Screen};
use byog_shell::{FrontEnd, GameOptions, Saves, Shell, ShellOptions};
use byog_tile_engine::{Pos, Tile, WallStyle, World};
use byog_worlds::generator::GeneratorSettings;

/// The view of an 80 × 30 world in a 100 × 40 terminal: 38 rows below the HUD.
const COLS: u32 = 100;
const ROWS: u32 = 38;

/// A session of a `width × height` world as the terminal starts it with `--walls java` (walls
/// drawn `#`, as the game's text prints them), saving to `saves`.
fn options(width: usize, height: usize, saves: Saves) -> ShellOptions {
    ShellOptions {
        game: GameOptions {
            width,
            height,
            settings: GeneratorSettings::default(),
            floors: 10,
            explore: ExploreSettings::default(),
            one_game: false,
        },
        saves,
        walls: Some(WallStyle::Java),
        watch: false,
        front_end: FrontEnd::Terminal,
        seed_label: None,
    }
}

/// A session of an 80 × 30 world that saves nowhere.
fn shell() -> Shell {
    Shell::new(options(80, 30, Saves::None))
        .unwrap()
        .on_this_thread()
}

/// A session saving to folder `dir`'s default slot.
fn shell_in(dir: &Path) -> Shell {
    Shell::new(options(80, 30, folder(dir)))
        .unwrap()
        .on_this_thread()
}

fn folder(dir: &Path) -> Saves {
    Saves::Folder {
        dir: dir.to_owned(),
        slot: None,
    }
}

/// Types `keys` at time 0, each walk walked to its end before the next key.
fn type_keys(shell: &mut Shell, keys: &str) {
    for k in keys.chars() {
        shell.key(k, 0.0);
        shell.finish_walk(0.0);
    }
}

/// The oracle: the game `keys` give an interpreter of a `width × height` world, fed by the
/// game package's replay (no shell).
fn replayed(keys: &str, width: usize, height: usize) -> GameState {
    let mut i = Interpreter::new(width, height, GeneratorSettings::default())
        .with_floors(10)
        .with_explore(ExploreSettings::default());
    let _ = replay(
        &mut i,
        keys,
        &mut MemoryStore::default(),
        false,
        &mut |_| (),
    );
    i.game().expect("the keys start a game").clone()
}

/// The frame of a `COLS × ROWS` view, without a minimap or a pointer.
fn frame(shell: &mut Shell) -> Frame {
    frame_with(shell, None)
}

fn frame_with(shell: &mut Shell, minimap: Option<(u32, u32)>) -> Frame {
    shell.frame(
        0.0,
        &FrameRequest {
            view_cols: COLS,
            view_rows: ROWS,
            minimap,
            pointer: None,
        },
    )
}

/// The HUD's two rows as text, each its left then its right words; panics on a text screen.
fn hud(frame: &Frame) -> [String; 2] {
    let Screen::Game(hud) = &frame.screen else {
        panic!("a text screen, not the game: {:?}", frame.screen);
    };
    hud.rows
        .clone()
        .map(|r| format!("{} | {}", r.left, r.right))
}

/// A text screen's lines and message, a line each; panics on the game's screen.
fn text(frame: &Frame) -> Vec<String> {
    let Screen::Text(t) = &frame.screen else {
        panic!("the game, not a text screen");
    };
    t.lines
        .iter()
        .chain(&t.message)
        .map(byog_shell::screens::Line::plain)
        .collect()
}

/// The character world tile `p` of `world` (a world of `game`'s rectangle) shows, `' '`
/// outside it.
fn char_at(game: &GameState, world: &World, p: Pos) -> char {
    let r = game.rect();
    world
        .get(Pos::new(p.x - r.x, p.y - r.y))
        .map_or(' ', Tile::character)
}

/// Every cell of `view` shows what `oracle` has seen at its tile, as the game's text prints
/// it (`replay --view sight`): never-seen tiles blank, an unexplored exit as the depth
/// behind it. Returns how many seen tiles were compared.
fn assert_view_is_sight(view: &View, oracle: &GameState) -> usize {
    let seen = oracle.compose_seen(oracle.rect());
    let mut compared = 0;
    for row in 0..view.rows {
        for col in 0..view.cols {
            let p = view.tile_at(col, row);
            let cell = view.cell(col, row).unwrap();
            let want = char_at(oracle, &seen, p);
            if want == Tile::ExitUnexplored.character()
                && (cell.glyph.is_ascii_digit() || cell.glyph == '+')
            {
                compared += 1;
                continue;
            }
            assert_eq!(cell.glyph, want, "view cell ({col}, {row}) is tile {p}");
            assert_eq!(
                cell.light == Light::Unseen,
                want == ' ',
                "the light of tile {p}"
            );
            compared += usize::from(want != ' ');
        }
    }
    compared
}

/// Every cell of `view` shows `oracle`'s whole world at its tile (a classic game's map).
fn assert_view_is_world(view: &View, oracle: &GameState) {
    let world = oracle.world();
    for row in 0..view.rows {
        for col in 0..view.cols {
            let p = view.tile_at(col, row);
            assert_eq!(
                view.cell(col, row).unwrap().glyph,
                char_at(oracle, &world, p),
                "view cell ({col}, {row}) is tile {p}"
            );
        }
    }
}

/// The view cell showing world tile `p`.
fn cell_of(view: &View, p: Pos) -> (u32, u32) {
    let col = u32::try_from(p.x - view.origin.x).unwrap();
    let row = view.rows - 1 - u32::try_from(p.y - view.origin.y).unwrap();
    assert_eq!(view.tile_at(col, row), p);
    (col, row)
}

/// The tests' own breadth-first walk over `world` (a world at `(0, 0)`) from `from`: floor
/// and `from` walkable, 4 neighbours. Returns every reached tile with its distance and the
/// `W`/`A`/`S`/`D` keys of one shortest way there.
fn walks(world: &World, from: Pos) -> BTreeMap<(i32, i32), (u32, String)> {
    let mut reached = BTreeMap::from([((from.x, from.y), (0, String::new()))]);
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        let (d, keys) = reached[&(p.x, p.y)].clone();
        for (key, dx, dy) in [('W', 0, 1), ('A', -1, 0), ('S', 0, -1), ('D', 1, 0)] {
            let n = Pos::new(p.x + dx, p.y + dy);
            if world.get(n) == Some(Tile::Floor) && !reached.contains_key(&(n.x, n.y)) {
                reached.insert((n.x, n.y), (d + 1, format!("{keys}{key}")));
                queue.push_back(n);
            }
        }
    }
    reached
}

#[test]
fn the_wait_key_and_the_numpad_s_5_pass_a_turn() {
    let mut s = shell();
    type_keys(&mut s, "R77SSS");
    let left = |g: &GameState| g.run().unwrap().moves_left;
    let moved = left(&replayed("R77SSS", 80, 30));
    assert!(hud(&frame(&mut s))[1].contains(&format!("{moved} moves left")));
    // `.` and the numpad's `5` (a `5` in play, with Num Lock on).
    type_keys(&mut s, ".5");
    let waited = replayed("R77SSS..", 80, 30);
    assert_eq!(left(&waited) + 2, moved, "two turns passed");
    let rows = hud(&frame(&mut s));
    assert!(
        rows[1].contains(&format!("{} moves left", left(&waited))),
        "{rows:?}"
    );
    assert!(rows[1].contains("you wait a turn"), "{rows:?}");
    assert_eq!(s.shown_game().unwrap().history(), "R77SSS..");
    assert_eq!(s.take_fed(), "R77SSS..", "recorded as two waits");
}

#[test]
fn a_run_shows_only_what_the_avatar_has_seen() {
    let keys = "R77SDDDSSSAW";
    let mut s = shell();
    type_keys(&mut s, keys);
    let oracle = replayed(keys, 80, 30);
    let f = frame(&mut s);
    let rows = hud(&f);
    let run = oracle.run().unwrap();
    assert!(rows[0].contains("seed 77 · B1/10"), "{rows:?}");
    assert!(
        rows[1].contains(&format!(
            "health {}/3 · {} moves left · score",
            oracle.health().unwrap(),
            run.moves_left
        )),
        "{rows:?}"
    );
    let view = f.view.unwrap();
    let compared = assert_view_is_sight(&view, &oracle);
    // Some of the floor has not been seen yet: the view is not the whole world.
    let whole = oracle.world();
    let hidden = (0..view.rows)
        .flat_map(|r| (0..view.cols).map(move |c| (c, r)))
        .filter(|&(c, r)| {
            view.cell(c, r).unwrap().glyph == ' '
                && char_at(&oracle, &whole, view.tile_at(c, r)) != ' '
        })
        .count();
    assert!(
        compared > 20 && hidden > 100,
        "{compared} seen, {hidden} not"
    );
}

#[test]
fn an_exploration_shows_what_replay_sees_around_the_avatar() {
    // Seed 7 explored by `X` (each a walk to the nearest unexplored place; seed 42's walks
    // stop at a rat that holds the way, which `X` never strikes).
    let keys = format!("E7S{}", "X".repeat(25));
    let mut s = shell();
    type_keys(&mut s, &keys);
    let oracle = replayed(&keys, 80, 30);
    let f = frame(&mut s);
    let rows = hud(&f);
    let e = oracle.explore().unwrap();
    let branch = e
        .branch()
        .map_or_else(|| "start room".to_owned(), |b| format!("branch {b}"));
    let room = format!(
        "room {} depth {}",
        e.room(),
        byog_game::explore::depth(e.room())
    );
    assert!(
        rows[0].contains(&format!("seed 7 · {branch}")) && rows[0].contains(&room),
        "{rows:?}"
    );
    assert!(
        rows[1].contains(&format!("health {}/3", oracle.health().unwrap()))
            && rows[1].contains(&format!(
                "score {} · {} moves",
                oracle.score().unwrap(),
                oracle.moves()
            )),
        "{rows:?}"
    );
    let compared = assert_view_is_sight(&f.view.unwrap(), &oracle);
    assert!(compared > 300, "only {compared} seen tiles in the view");
}

/// Checks each monster of `oracle`'s map in `view`: its glyph at its cell exactly when the
/// avatar sees it. Returns how many were in sight, and how many out of sight stood on a tile
/// seen before (drawn, but as the tile, never who stands there).
fn assert_monsters(view: &View, oracle: &GameState) -> (usize, usize) {
    let e = oracle.explore().unwrap();
    // Monsters stand on dungeon tiles; the world (and the view) starts at the game's origin.
    let o = oracle.origin();
    let (mut drawn, mut remembered) = (0, 0);
    for m in e.monsters() {
        let p = Pos::new(m.pos.x - o.x, m.pos.y - o.y);
        let (Ok(col), Ok(up)) = (
            u32::try_from(p.x - view.origin.x),
            u32::try_from(p.y - view.origin.y),
        ) else {
            continue;
        };
        if col >= view.cols || up >= view.rows {
            continue;
        }
        let glyph = view.cell(col, view.rows - 1 - up).unwrap().glyph;
        let own = m.kind.stats().tile.character();
        if e.in_sight(m.pos) {
            assert_eq!(glyph, own, "monster {m:?} in sight");
            drawn += 1;
        } else {
            assert_ne!(glyph, own, "monster {m:?} out of sight");
            remembered += usize::from(oracle.has_seen(p));
        }
    }
    (drawn, remembered)
}

/// A monster in sight is drawn where the game has it, one out of sight is not, not even on
/// a tile the avatar remembers (docs/monsters.md).
#[test]
fn monsters_in_sight_are_drawn_where_the_game_says_and_no_others() {
    // E3S and the explorer's first 48 keys: a rat in sight, asleep (rats lurk since rules
    // version 10); three steps back, out of sight, on a tile seen before.
    const KEYS: &str = "E3SWWWWWWWWWWWWWAAAAAAAAAAWAAAWWWWWWWWWWAWWWDWWWWWW";
    let mut s = shell();
    type_keys(&mut s, KEYS);
    let oracle = replayed(KEYS, 80, 30);
    let view = frame(&mut s).view.unwrap();
    let (drawn, _) = assert_monsters(&view, &oracle);
    assert_view_is_sight(&view, &oracle);
    type_keys(&mut s, "SSS");
    let oracle = replayed(&format!("{KEYS}SSS"), 80, 30);
    let view = frame(&mut s).view.unwrap();
    let (_, remembered) = assert_monsters(&view, &oracle);
    assert_view_is_sight(&view, &oracle);
    assert!(
        drawn >= 1 && remembered >= 1,
        "{drawn} in sight, {remembered} out of it on a seen tile"
    );
}

#[test]
fn a_world_larger_than_the_view_scrolls_with_the_avatar() {
    let (w, h) = (300, 120);
    let mut s = Shell::new(options(w, h, Saves::None))
        .unwrap()
        .on_this_thread();
    type_keys(&mut s, "N42S");
    let start = frame(&mut s).view.unwrap();
    let game = replayed("N42S", w, h);
    let at = game.avatar();
    assert_eq!(
        start
            .cell(cell_of(&start, at).0, cell_of(&start, at).1)
            .unwrap()
            .glyph,
        '@'
    );
    // Walk to the tile before the exit, the shortest way over floor.
    let exit = game.exit();
    let world = game.world();
    let ways = walks(&world, at);
    let (_, path) = [(0, 1), (1, 0), (0, -1), (-1, 0)]
        .iter()
        .filter_map(|&(dx, dy)| ways.get(&(exit.x + dx, exit.y + dy)))
        .min()
        .expect("a way to the exit")
        .clone();
    type_keys(&mut s, &path);
    let oracle = replayed(&format!("N42S{path}"), w, h);
    let end = oracle.avatar();
    assert!(
        end.x.abs_diff(at.x) > COLS || end.y.abs_diff(at.y) > ROWS,
        "{at} → {end}"
    );
    let f = frame(&mut s);
    let rows = hud(&f);
    assert!(
        rows[1].contains(&format!(
            "({}, {}) · {} moves",
            end.x,
            end.y,
            oracle.moves()
        )),
        "{rows:?}"
    );
    let view = f.view.unwrap();
    assert_ne!(view.origin, start.origin, "the view scrolled");
    let avatars: Vec<_> = view
        .lines()
        .iter()
        .enumerate()
        .flat_map(|(r, l)| {
            l.chars()
                .enumerate()
                .filter(|&(_, c)| c == '@')
                .map(move |(c, _)| (c as u32, r as u32))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(
        avatars,
        [cell_of(&view, end)],
        "one avatar, where it stands"
    );
    assert_view_is_world(&view, &oracle);
}

/// docs/sight.md, watching a save: paused after k single steps the view shows the world the
/// history's first k actions give; V at the menu watches it too; the save is only read.
#[test]
fn watching_a_save_shows_each_prefix_of_its_history() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell_in(dir.path());
    type_keys(&mut s, "N1234SAAASSDWWDDDD:Q");
    let save = dir.path().join("save.bin");
    let before = std::fs::read(&save).unwrap();
    let history = replayed("N1234SAAASSDWWDDDD", 80, 30).history();
    let start = "N1234S".len();
    let steps = history.len() - start;
    assert!(steps >= 6, "{history}");
    for k in [0, 2, steps] {
        let mut o = options(80, 30, folder(dir.path()));
        o.watch = true;
        let mut w = Shell::new(o).unwrap().on_this_thread();
        type_keys(&mut w, &format!(" {}", ".".repeat(k)));
        let f = frame(&mut w);
        let rows = hud(&f);
        assert!(
            rows.iter()
                .any(|r| r.contains(&format!("step {k}/{steps}"))),
            "{rows:?}"
        );
        assert_view_is_world(&f.view.unwrap(), &replayed(&history[..start + k], 80, 30));
        // Esc ends a watch started by `--watch`.
        w.key('\u{1b}', 0.0);
        assert!(w.is_over(10.0), "Esc leaves");
    }
    // V at the menu; Esc goes back to the menu, not out.
    let mut s = shell_in(dir.path());
    let menu = text(&frame(&mut s));
    assert!(
        menu.iter().any(|l| l.contains("Watch the Saved Game (V)")),
        "{menu:?}"
    );
    type_keys(&mut s, "v ");
    assert!(
        hud(&frame(&mut s))
            .iter()
            .any(|r| r.contains("paused · step 0/"))
    );
    s.key('\u{1b}', 0.0);
    assert!(
        text(&frame(&mut s))
            .iter()
            .any(|l| l.contains("Watch the Saved Game (V)"))
    );
    assert!(!s.is_over(10.0));
    assert_eq!(
        std::fs::read(&save).unwrap(),
        before,
        "the save is untouched"
    );
}

/// Problem 19: after `:` the HUD says that it waits for `Q`; after `:Q` the front-end is
/// told where the game was saved.
#[test]
fn a_colon_waits_for_q_and_the_shell_learns_where_the_game_went() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = shell_in(dir.path());
    type_keys(&mut s, "N1234SAA");
    assert!(!hud(&frame(&mut s))[0].contains(COLON_PROMPT));
    type_keys(&mut s, ":");
    let rows = hud(&frame(&mut s));
    assert!(rows.iter().any(|r| r.contains(COLON_PROMPT)), "{rows:?}");
    assert!(rows[1].contains("2 moves"), "{rows:?}");
    assert_eq!(s.phase(), Some(Phase::Playing { colon: true }));
    assert_eq!(s.farewell(), None);
    type_keys(&mut s, "Q");
    let said = format!(
        "saved to {} (N1234S…, 2 moves)",
        dir.path().join("save.bin").display()
    );
    assert_eq!(s.farewell(), Some(said.as_str()));
    assert!(s.is_over(10.0), "the goodbye ends");
    // What was saved is the game.
    let mut again = shell_in(dir.path());
    type_keys(&mut again, "L");
    assert_eq!(
        again.shown_game().unwrap().history(),
        replayed("N1234SAA", 80, 30).history()
    );
}

/// Problem 13: a save that cannot be read is not offered as if it could be: the menu says
/// that it cannot be read and why, and offers no watching.
#[test]
fn the_menu_says_when_the_save_cannot_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let none = text(&frame(&mut shell_in(dir.path())));
    let mut s = shell_in(dir.path());
    type_keys(&mut s, "N5S:Q");
    let good = text(&frame(&mut shell_in(dir.path())));
    assert!(good.iter().any(|l| l.trim() == "Load Game (L)"), "{good:?}");
    assert!(
        good.iter().any(|l| l.contains("Watch the Saved Game")),
        "{good:?}"
    );
    std::fs::write(dir.path().join("save.bin"), b"not a save").unwrap();
    let bad = text(&frame(&mut shell_in(dir.path())));
    let all = bad.join("\n");
    assert!(all.contains("the save cannot be read"), "{all}");
    assert!(all.contains("is not a byog save"), "the reason: {all}");
    assert!(!all.contains("Watch the Saved Game"), "{all}");
    assert!(!bad.iter().any(|l| l.trim() == "Load Game (L)"), "{all}");
    assert_ne!(bad, none, "an unreadable save is shown as no save");
}

#[test]
fn vi_keys_the_numpad_help_and_the_log() {
    let mut s = shell();
    // h l j k and 4 6 2 8 walk as A D S W do (each of these 16 keys a step, none a bump).
    type_keys(&mut s, "N1234Shhlljjkk44662288");
    let oracle = replayed("N1234SAADDSSWWAADDSSWW", 80, 30);
    assert_eq!(oracle.history(), "N1234SAADDSSWWAADDSSWW");
    assert_eq!(s.shown_game().unwrap().history(), oracle.history());
    let at = oracle.avatar();
    let moves = oracle.moves();
    assert_eq!(moves, 16);
    let rows = hud(&frame(&mut s));
    assert!(
        rows[1].contains(&format!("({}, {}) · {moves} moves", at.x, at.y)),
        "{rows:?}"
    );
    // ? shows the mode's help, its glyphs on the first page, the HUD's numbers on the next
    // and its keys on the last (D turns a page); any other key closes it.
    type_keys(&mut s, "?");
    let help = text(&frame(&mut s));
    assert!(
        help.iter().any(|l| l.contains("HELP: A CLASSIC GAME")),
        "{help:?}"
    );
    assert!(help.iter().any(|l| l.contains("#  wall")), "{help:?}");
    type_keys(&mut s, "D");
    let numbers = text(&frame(&mut s));
    assert!(
        numbers.iter().any(|l| l.contains("HELP: THE NUMBERS")),
        "{numbers:?}"
    );
    type_keys(&mut s, "D");
    let keys = text(&frame(&mut s));
    assert!(keys.iter().any(|l| l.contains("HELP: KEYS")), "{keys:?}");
    assert!(keys.iter().any(|l| l.contains("h j k l")), "{keys:?}");
    type_keys(&mut s, "x");
    assert!(hud(&frame(&mut s))[1].contains(&format!("{moves} moves")));
    // P shows the messages of this game, the newest at the bottom.
    type_keys(&mut s, "ZP");
    let log = text(&frame(&mut s));
    assert!(log.iter().any(|l| l.contains("MESSAGES")), "{log:?}");
    let last = log
        .iter()
        .rposition(|l| l.contains("'Z'"))
        .expect("the message of Z");
    assert!(log[last + 1..].iter().all(|l| !l.contains('\'')), "{log:?}");
    type_keys(&mut s, " ");
    assert!(
        matches!(frame(&mut s).screen, Screen::Game(_)),
        "a key closes the log"
    );
    assert_eq!(
        s.shown_game().unwrap().history(),
        oracle.history(),
        "view keys move nothing"
    );
}

#[test]
fn a_click_walks_the_shortest_known_way_and_a_walk_stops_at_a_key() {
    let keys = "N1234S";
    let mut s = shell();
    type_keys(&mut s, keys);
    let oracle = replayed(keys, 80, 30);
    // The seen floor tile farthest from the avatar, at most 8 steps away (the tests' own
    // search over what has been seen).
    let seen = oracle.compose_seen(oracle.rect());
    let ((x, y), (d, _)) = walks(&seen, oracle.avatar())
        .into_iter()
        .filter(|(_, (d, _))| *d <= 8)
        .max_by_key(|&((x, y), (d, _))| (d, -y, -x))
        .unwrap();
    assert!(d >= 3, "a walk of {d} steps");
    let view = frame(&mut s).view.unwrap();
    let (col, row) = cell_of(&view, Pos::new(x, y));
    s.click(col, row, 0.0);
    assert!(s.is_walking());
    s.finish_walk(0.0);
    let game = s.shown_game().unwrap();
    assert_eq!(
        (game.avatar(), game.moves()),
        (Pos::new(x, y), u64::from(d))
    );
    assert!(hud(&frame(&mut s))[1].contains(&format!("({x}, {y}) · {d} moves")));
    // `X` has nothing to explore in a classic game, whose whole map is shown: it says so.
    type_keys(&mut s, "X");
    assert!(hud(&frame(&mut s))[1].contains("nothing left to find"));
    // `>` travels to the exit, a step at a time; any key stops the walk (and is dropped).
    s.key('>', 0.0);
    let mut now = 0.0;
    for _ in 0..6 {
        now += 1.0;
        s.tick(now);
    }
    assert!(s.is_walking());
    let walked = s.shown_game().unwrap().moves();
    assert!(walked > u64::from(d) + 3, "{walked} moves");
    s.key('Z', now);
    assert!(!s.is_walking());
    for _ in 0..6 {
        now += 1.0;
        s.tick(now);
    }
    assert_eq!(s.shown_game().unwrap().moves(), walked, "the walk stopped");
    // The log is the plain moves, and it replays to the same place.
    let log = s.take_fed();
    assert!(
        log[keys.len()..].chars().all(|c| "WASD".contains(c)),
        "{log}"
    );
    assert_eq!(
        replayed(&log, 80, 30).avatar(),
        s.shown_game().unwrap().avatar()
    );
}

#[test]
fn the_minimap_shows_a_world_larger_than_the_view_and_m_hides_it() {
    let mut s = Shell::new(options(200, 90, Saves::None))
        .unwrap()
        .on_this_thread();
    type_keys(&mut s, "N5S");
    let max = Some((COLS / 4, ROWS / 3));
    let f = frame_with(&mut s, max);
    let map = f
        .minimap
        .expect("the minimap of a world larger than the view");
    assert!(map.width <= COLS / 4 && map.height <= ROWS / 3);
    let (ax, ay) = map.avatar.expect("the avatar on the minimap");
    // The avatar's pixel is the block of tiles it stands in.
    let at = s.shown_game().unwrap().avatar();
    let (bw, bh) = (200_u32.div_ceil(map.width), 90_u32.div_ceil(map.height));
    assert!(
        ax.abs_diff(at.x as u32 / bw) <= 1 && (map.height - 1 - ay).abs_diff(at.y as u32 / bh) <= 1,
        "{:?} for {at}",
        (ax, ay)
    );
    type_keys(&mut s, "M");
    assert_eq!(frame_with(&mut s, max).minimap, None, "M hides it");
    // `M` is a view key: no move was made, nothing was logged.
    assert_eq!(s.shown_game().unwrap().moves(), 0);
    assert_eq!(s.take_fed(), "N5S");
    type_keys(&mut s, "M");
    assert!(
        frame_with(&mut s, max).minimap.is_some(),
        "M shows it again"
    );
}

/// The cells (column, row from the view's top-left) the terminal paints minimap `m` on in a
/// `cols × rows` view: `m.width` columns and two pixels a row, in the frame's corner.
fn minimap_box(m: &byog_shell::MinimapFrame, cols: u32, rows: u32) -> Vec<(u32, u32)> {
    use byog_shell::frame::Corner;
    let (w, h) = (m.width, m.height.div_ceil(2));
    let left = match m.corner {
        Corner::TopRight | Corner::BottomRight => cols - w,
        Corner::TopLeft | Corner::BottomLeft => 0,
    };
    let top = match m.corner {
        Corner::TopRight | Corner::TopLeft => 0,
        Corner::BottomRight | Corner::BottomLeft => rows - h,
    };
    (top..top + h)
        .flat_map(|r| (left..left + w).map(move |c| (c, r)))
        .collect()
}

/// In sight, the minimap yields to what was seen: it is drawn in a corner whose cells show no
/// tile seen (lit or remembered), and not at all while every corner shows some (played by `X`
/// through an exploration and a run whose floors are larger than the view).
#[test]
fn the_minimap_never_covers_a_tile_seen() {
    let (mut shown, mut hidden, mut moved) = (0, 0, 0);
    let games = [
        ("E42S", 80, 30),
        ("E7S", 80, 30),
        ("R3S", 200, 90),
        ("R5S", 200, 90),
    ];
    // An 80 × 24 terminal's view and a smaller one, with their minimaps' largest sizes.
    for ((start, width, height), (cols, rows)) in games
        .into_iter()
        .flat_map(|g| [(g, (80, 22)), (g, (40, 16))])
    {
        let request = FrameRequest {
            view_cols: cols,
            view_rows: rows,
            minimap: Some(((cols / 4).max(4), (rows / 3).max(2) * 2)),
            pointer: None,
        };
        let mut s = Shell::new(options(width, height, Saves::None))
            .unwrap()
            .on_this_thread();
        type_keys(&mut s, start);
        for _ in 0..60 {
            // `Y` answers a walk through armed traps (else it is no key: nothing happens).
            type_keys(&mut s, "XY");
            let f = s.frame(0.0, &request);
            let Some(view) = f.view.as_ref() else {
                continue; // the screen between floors
            };
            let seen = |c: u32, r: u32| view.cell(c, r).unwrap().light != Light::Unseen;
            match &f.minimap {
                Some(m) => {
                    let covered: Vec<_> = minimap_box(m, view.cols, view.rows)
                        .into_iter()
                        .filter(|&(c, r)| seen(c, r))
                        .collect();
                    assert!(
                        covered.is_empty(),
                        "{start}: {:?} covers {covered:?}",
                        m.corner
                    );
                    shown += 1;
                    moved += usize::from(m.corner != byog_shell::frame::Corner::TopRight);
                }
                None => {
                    // The world does not fit the view (else no minimap is asked for): every
                    // corner holds a tile seen within the largest box a front-end draws the
                    // minimap in (a quarter of the view's width and a third of its height,
                    // and a cell of margin).
                    let game = s.shown_game().unwrap();
                    let r = game.rect();
                    if r.width as u32 <= view.cols && r.height as u32 <= view.rows {
                        continue;
                    }
                    let (w, h) = (view.cols.div_ceil(4) + 1, view.rows.div_ceil(3) + 1);
                    let corners = [
                        (0, 0),
                        (view.cols - w, 0),
                        (0, view.rows - h),
                        (view.cols - w, view.rows - h),
                    ];
                    for (x0, y0) in corners {
                        assert!(
                            (y0..y0 + h).any(|r| (x0..x0 + w).any(|c| seen(c, r))),
                            "{start}: the corner at ({x0}, {y0}) is clear, yet no minimap"
                        );
                    }
                    hidden += 1;
                }
            }
            if s.shown_game().unwrap().has_ended() {
                break;
            }
        }
    }
    eprintln!("minimap shown {shown} times ({moved} moved), hidden {hidden}");
    assert!(shown >= 10 && moved >= 1, "shown {shown}, moved {moved}");
}

/// Remembered chests, traps and exits keep their own hue, dimmed, in the frame (so in every
/// front-end, which paint its cells): never the floor's one memory colour, and never their
/// colour in sight; the remembered floor keeps the memory colour.
#[test]
fn remembered_features_keep_their_own_hue_in_the_frame() {
    use byog_tile_engine::look;
    let mut remembered = BTreeMap::<char, usize>::new();
    let mut floor = 0;
    for start in ["R77S", "R3S", "E42S", "E7S"] {
        let mut s = shell();
        type_keys(&mut s, start);
        for _ in 0..12 {
            type_keys(&mut s, "XY");
            let f = frame(&mut s);
            let Some(view) = f.view else { continue };
            for c in view.cells.iter().filter(|c| c.light == Light::Remembered) {
                // An unexplored exit shows the depth behind it.
                let tile = if c.glyph.is_ascii_digit() {
                    Some(Tile::ExitUnexplored)
                } else {
                    Tile::from_char(c.glyph)
                };
                match tile {
                    Some(Tile::Floor) => {
                        assert_eq!((c.fg, c.bg), (look::MEMORY, look::MEMORY_BG));
                        floor += 1;
                    }
                    Some(t) if look::thing(t).is_some() => {
                        let own = look::thing(t).unwrap();
                        assert_ne!(c.fg, look::MEMORY, "remembered {t:?}");
                        assert_ne!(c.fg, own, "remembered {t:?} as if in sight");
                        assert_eq!(c.bg, look::MEMORY_BG);
                        // Its own hue, or (an exit to a room no deeper) the one-way exits'.
                        let dimmed = |t| look::remembered(t).0;
                        assert!(
                            c.fg == dimmed(t)
                                || (t == Tile::ExitUnexplored && c.fg == dimmed(Tile::OneWayUp)),
                            "remembered {t:?}: {:?}",
                            c.fg
                        );
                        *remembered.entry(c.glyph).or_default() += 1;
                    }
                    _ => {}
                }
            }
        }
    }
    // Chests, traps and exits were seen and left behind.
    assert!(
        floor > 100 && remembered.len() >= 3,
        "{remembered:?}, floor {floor}"
    );
}
