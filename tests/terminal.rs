//! The real terminal game (`byog play --terminal`) in a detached tmux session of a fixed
//! size: the program is started from a shell in the pane as a user starts it, keys are typed
//! with `send-keys`, the screen is read with `capture-pane` and compared with what
//! `byog replay` prints for the same keys. Each test has its own tmux server (`-L`) and save
//! folder, so they run in parallel; every wait polls the screen with a deadline.
//!
//! The tests that need `tmux` are `#[ignore]`d with that reason, so a plain `cargo test`
//! reports them as ignored (never as passed unrun); `cargo test --test main -- terminal:: --
//! --include-ignored` runs them, and then a missing `tmux` fails them with the reason. With
//! `BYOG_REQUIRE_TERMINAL_TESTS=1` (CI), [`required_terminal_tests_are_not_left_ignored`]
//! fails a run that leaves them out.

use std::path::Path;
use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::common;

use byog::core::GameState;
use byog::core::generator::GeneratorSettings;
use common::{byog_in as byog, json_rows, keys_to_exit, stderr, stdout};

/// The pane's size in most tests: an 80 × 30 world fits with its HUD.
const COLS: u16 = 100;
const ROWS: u16 = 40;
/// Rows of HUD at the top of the screen.
const HUD_ROWS: usize = 2;
/// The longest any one thing may take to appear on the screen.
const PATIENCE: Duration = Duration::from_secs(15);
/// What the shell prints before `byog` starts; the command line shows `$((6*7))`, so only the
/// shell's output matches.
const BEFORE: &str = "BEFORE-42";

/// A tmux server with one session `t` running `sh` in a `cols × rows` pane; the server is
/// killed, and its socket file removed, when dropped.
struct Tmux {
    socket: String,
    /// The socket's file, once the server runs.
    socket_path: Option<String>,
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
        if let Some(path) = &self.socket_path {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Tmux {
    /// Starts a server on its own socket, or says why it cannot.
    fn start(name: &str, cols: u16, rows: u16) -> Result<Tmux, String> {
        let version = Command::new("tmux").arg("-V").output();
        if !version.is_ok_and(|o| o.status.success()) {
            return Err("tmux is not installed (apt-get install tmux)".to_owned());
        }
        let mut server = Tmux {
            socket: format!("byog-{name}-{}", std::process::id()),
            socket_path: None,
        };
        let (cols, rows) = (cols.to_string(), rows.to_string());
        let out = server.tmux(&[
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            &cols,
            "-y",
            &rows,
            "env PS1='$ ' sh",
        ]);
        if !out.status.success() {
            return Err(format!("tmux new-session failed: {}", stderr(&out)));
        }
        let path = stdout(&server.tmux(&["display-message", "-p", "#{socket_path}"]));
        server.socket_path = Some(path.trim().to_owned()).filter(|p| !p.is_empty());
        // Keys typed before the shell's first prompt would be echoed ahead of it.
        server.wait_for("the shell's prompt", |s| {
            s.iter().any(|l| l.trim_end() == "$")
        });
        Ok(server)
    }

    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .env("TERM", "xterm-256color")
            .env_remove("TMUX")
            .output()
            .expect("tmux runs")
    }

    /// Types `text` literally.
    fn type_text(&self, text: &str) {
        assert!(
            self.tmux(&["send-keys", "-t", "t", "-l", text])
                .status
                .success()
        );
    }

    /// Presses keys by tmux's names (`Enter`, `Tab`, `C-c`).
    fn press(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        assert!(self.tmux(&args).status.success());
    }

    /// Runs a shell command line in the pane.
    fn run(&self, line: &str) {
        self.type_text(line);
        self.press(&["Enter"]);
    }

    /// The pane's rows, top first.
    fn screen(&self) -> Vec<String> {
        stdout(&self.tmux(&["capture-pane", "-p", "-t", "t"]))
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Polls the screen until `ready` holds and returns it; fails with the last screen after
    /// [`PATIENCE`].
    #[track_caller]
    fn wait_for(&self, what: &str, ready: impl Fn(&[String]) -> bool) -> Vec<String> {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "timed out waiting for {what}; the screen:\n{}",
                screen.join("\n")
            );
            sleep(Duration::from_millis(40));
        }
    }

    /// Waits for `text` anywhere on the screen.
    #[track_caller]
    fn wait_text(&self, text: &str) -> Vec<String> {
        self.wait_for(text, |s| s.iter().any(|l| l.contains(text)))
    }

    /// Starts `byog play --terminal ARGS --save-dir DIR` from the shell, after it prints
    /// [`BEFORE`], and waits for the first screen (`first`).
    fn play(&self, prefix: &str, save_dir: &Path, args: &str, first: &str) {
        self.run(&format!(
            "echo BEFORE-$((6*7)); {prefix}{} play --terminal --save-dir '{}' {args}; echo STATUS-$?",
            env!("CARGO_BIN_EXE_byog"),
            save_dir.display()
        ));
        self.wait_text(first);
    }

    /// Waits until byog has ended and the shell's screen is back: what the shell printed
    /// before it and the exit status after it are on screen.
    #[track_caller]
    fn wait_for_shell(&self) -> Vec<String> {
        self.wait_for("the shell's screen", |s| {
            s.iter().any(|l| l == BEFORE) && s.iter().any(|l| l.starts_with("STATUS-"))
        })
    }

    /// Checks with `stty -a` that the terminal is back in cooked mode (echo, icanon).
    #[track_caller]
    fn assert_cooked(&self) {
        // The command line ends in `:ST""TY`, so only the output's line ends in `:STTY`.
        self.run(
            r#"stty -a | tr ' ;' '\n\n' | grep -x -e echo -e icanon | tr '\n' ' '; echo :ST""TY"#,
        );
        let screen = self.wait_for("stty", |s| s.iter().any(|l| l.ends_with(":STTY")));
        let line = screen.iter().find(|l| l.ends_with(":STTY")).unwrap();
        assert!(
            line.contains("icanon") && line.contains("echo"),
            "the terminal was not restored: {line}"
        );
    }
}

/// A tmux server for a test (one that was asked for: these tests are `#[ignore]`d); a
/// missing tmux fails it with the reason.
#[track_caller]
fn tmux(name: &str, cols: u16, rows: u16) -> Tmux {
    Tmux::start(name, cols, rows)
        .unwrap_or_else(|why| panic!("the terminal tests need tmux: {why}"))
}

/// The tmux tests are `#[ignore]`d, so that `cargo test` without tmux reports them as
/// ignored rather than passed. With `BYOG_REQUIRE_TERMINAL_TESTS=1` (CI) they must run too:
/// this fails a run of this file that leaves them out (without `--include-ignored`).
#[test]
fn required_terminal_tests_are_not_left_ignored() {
    common::assert_required_tests_run("BYOG_REQUIRE_TERMINAL_TESTS", "terminal");
}

/// Problem 9: every test that needs tmux is `#[ignore]`d, so that `cargo test` without it
/// reports the test as ignored, never as passed unrun: the tests of this file whose body
/// calls `tmux()` are the ones this test binary lists as ignored.
#[test]
fn every_test_that_needs_tmux_is_marked_ignored() {
    // Put together here, so that this test's own text does not match it.
    let call = ["= ", "tmux("].concat();
    common::assert_tool_tests_are_ignored(module_path!(), include_str!("terminal.rs"), &call);
}

/// `byog replay KEYS --json` in a fresh save folder.
fn replay_json(keys: &str) -> serde_json::Value {
    replay_json_with(keys, &[])
}

/// `byog replay KEYS --json FLAGS` in a fresh save folder.
fn replay_json_with(keys: &str, flags: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["replay", keys, "--json"];
    args.extend_from_slice(flags);
    let out = byog(dir.path(), &args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(stdout(&out).trim_end()).unwrap()
}

/// The `w × h` world as a `COLS × ROWS` terminal shows it: centred in the view below the
/// HUD (the camera centres a world that fits: `(view - world) / 2` cells left and below).
fn world_on_screen(screen: &[String], w: usize, h: usize) -> Vec<String> {
    let (left, top) = world_corner(w, h);
    screen[top..top + h]
        .iter()
        .map(|l| l.chars().skip(left).take(w).collect::<String>())
        .map(|l| l.trim_end().to_owned())
        .collect()
}

/// The screen cell `(column, row)` of the top-left tile of a `w × h` world that fits.
fn world_corner(w: usize, h: usize) -> (usize, usize) {
    let view_rows = usize::from(ROWS) - HUD_ROWS;
    let left = (usize::from(COLS) - w) / 2;
    let below = (view_rows - h) / 2;
    (left, HUD_ROWS + view_rows - below - h)
}

fn trimmed(rows: &[&str]) -> Vec<String> {
    rows.iter().map(|r| r.trim_end().to_owned()).collect()
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn a_classic_game_shows_replays_world_and_saves_for_replay() {
    let t = tmux("classic", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play("", dir.path(), "--color never --walls java", "New Game (N)");
    let keys = "N1234SAAASSDW";
    t.type_text(keys);
    let state = replay_json(keys);
    let moves = state["moves"].as_u64().unwrap();
    let (x, y) = (
        state["avatar"][0].as_i64().unwrap(),
        state["avatar"][1].as_i64().unwrap(),
    );
    let hud = format!("({x}, {y}) · {moves} moves");
    let (w, h) = (80, 30);
    // tmux may show a frame half written: wait for the whole of it (or time out and say).
    let screen = t.wait_for("the HUD and the world", |s| {
        s[1].contains(&hud) && world_on_screen(s, w, h) == trimmed(&json_rows(&state))
    });
    assert!(screen[0].trim_end().ends_with("seed 1234"), "{}", screen[0]);
    assert!(screen[1].trim_end().ends_with(&hud), "{}", screen[1]);
    // Nothing but the HUD and the world: the rows between are blank.
    assert!(screen[HUD_ROWS..6].iter().all(|l| l.trim().is_empty()));
    // The HUD names the tile under the mouse, from the terminal's mouse reports (an SGR
    // motion report, as the terminal sends one with mouse capture on; 1-based cells).
    let (left, top) = world_corner(w, h);
    let (wall_y, wall_x) = json_rows(&state)
        .iter()
        .enumerate()
        .find_map(|(y, r)| r.chars().position(|c| c == '#').map(|x| (y, x)))
        .unwrap();
    t.type_text(&format!(
        "\x1b[<35;{};{}M",
        left + wall_x + 1,
        top + wall_y + 1
    ));
    t.wait_for("the tile under the mouse", |s| s[0].starts_with(" wall "));

    // :Q saves, says goodbye, and gives the shell its screen back.
    t.type_text(":Q");
    t.wait_text("Goodbye.");
    let shell = t.wait_for_shell();
    assert!(shell.iter().any(|l| l == "STATUS-0"), "{shell:?}");
    assert!(
        !shell
            .iter()
            .any(|l| l.contains('@') || l.contains("seed 1234")),
        "the game is still on screen: {shell:?}"
    );
    // The save continues exactly as the same keys in one go.
    let more = "DDWWA";
    let loaded = byog(dir.path(), &["replay", &format!("L{more}"), "--json"]);
    assert!(loaded.status.success(), "{}", stderr(&loaded));
    let loaded: serde_json::Value = serde_json::from_str(stdout(&loaded).trim_end()).unwrap();
    let straight = replay_json(&format!("{keys}{more}"));
    assert_eq!(json_rows(&loaded), json_rows(&straight));
    assert_eq!(loaded["moves"], straight["moves"]);
    t.assert_cooked();
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn a_run_shows_only_what_the_avatar_has_seen() {
    let t = tmux("run", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play("", dir.path(), "--color never --walls java", "New Game (N)");
    let keys = "R77SDDDSSSAW";
    t.type_text(keys);
    let state = replay_json(keys);
    let left = state["moves_left"].as_u64().unwrap();
    let hud = format!("health {}/3 · {left} moves left · score", state["health"]);
    let screen = t.wait_text(&hud);
    assert!(screen[0].contains("seed 77 · B1/10"), "{}", screen[0]);
    let dir2 = tempfile::tempdir().unwrap();
    let sight = byog(dir2.path(), &["replay", keys, "--view", "sight"]);
    assert!(sight.status.success(), "{}", stderr(&sight));
    let sight = stdout(&sight);
    let rows: Vec<&str> = sight.lines().collect();
    let (w, h) = (rows[0].chars().count(), rows.len());
    let screen = t.wait_for("the seen world", |s| {
        world_on_screen(s, w, h) == trimmed(&rows)
    });
    assert!(screen[0].contains("seed 77 · B1/10"), "{}", screen[0]);
    // Some of the floor has not been seen yet: the screen is not the whole world.
    assert_ne!(trimmed(&rows), trimmed(&json_rows(&state)));
    t.press(&["C-c"]);
    t.wait_for_shell();
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn the_wait_key_and_the_numpad_s_5_pass_a_turn() {
    let t = tmux("wait", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play("", dir.path(), "--color never", "New Game (N)");
    t.type_text("R77SSS");
    let moved = replay_json("R77SSS");
    t.wait_text(&format!("{} moves left", moved["moves_left"]));
    // `.` and the numpad's `5` (a `5` in play, with Num Lock on).
    t.type_text(".5");
    let waited = replay_json("R77SSS..");
    assert_eq!(
        waited["moves_left"].as_u64().unwrap() + 2,
        moved["moves_left"].as_u64().unwrap()
    );
    let screen = t.wait_text(&format!("{} moves left", waited["moves_left"]));
    assert!(screen[1].contains("you wait a turn"), "{}", screen[1]);
    t.type_text(":Q");
    t.wait_for_shell();
    let loaded = byog(dir.path(), &["replay", "L", "--json"]);
    assert!(loaded.status.success(), "{}", stderr(&loaded));
    let loaded: serde_json::Value = serde_json::from_str(stdout(&loaded).trim_end()).unwrap();
    assert_eq!(loaded["history"], "R77SSS..", "recorded as two waits");
}

/// Where `c` stands in `rows` (column, row from the top), the first one.
fn find_char(rows: &[Vec<char>], c: char) -> Option<(usize, usize)> {
    rows.iter()
        .enumerate()
        .find_map(|(r, line)| line.iter().position(|&x| x == c).map(|col| (col, r)))
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn an_exploration_shows_what_replay_sees_around_the_avatar() {
    let t = tmux("explore", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play(
        "",
        dir.path(),
        "--color never --walls java --no-monsters",
        "New Game (N)",
    );
    // A part of the scripted walk that made several rooms and refilled chests (written
    // before monsters: played without them).
    let keys = &common::EXPLORE_WALK_42[..240];
    t.type_text(keys);
    let state = replay_json_with(keys, &["--no-monsters"]);
    let hud = format!(
        "health {}/3 · score {} · {} moves",
        state["health"], state["score"], state["moves"]
    );
    // The top row: the branch (and its timer), then the room and its depth.
    let branch = format!("seed 42 · branch {}", state["branch"]);
    let room = format!(
        "room ({}, {}) depth {}",
        state["room"][0], state["room"][1], state["depth"]
    );
    let screen = t.wait_for(&hud, |s| {
        s[1].contains(&hud) && s[0].contains(&branch) && s[0].contains(&room)
    });
    let compared = assert_screen_is_sight(&screen, dir.path(), keys, &["--no-monsters"]);
    assert!(compared > 300, "only {compared} seen tiles on screen");
    t.press(&["C-c"]);
    t.wait_for_shell();
}

/// Every cell of the view in `screen` shows what `replay KEYS --view sight` (with `flags`)
/// has at the tile the avatar's offset puts there: the terminal draws the same map, frame,
/// memory and monsters in sight. Returns how many seen tiles were compared.
fn assert_screen_is_sight(
    screen: &[String],
    dir: &std::path::Path,
    keys: &str,
    flags: &[&str],
) -> usize {
    let mut args = vec!["replay", keys, "--view", "sight"];
    args.extend_from_slice(flags);
    let sight = byog(dir, &args);
    assert!(sight.status.success(), "{}", stderr(&sight));
    let rows: Vec<Vec<char>> = stdout(&sight)
        .lines()
        .map(|l| l.chars().collect())
        .collect();
    let view: Vec<Vec<char>> = screen[HUD_ROWS..]
        .iter()
        .map(|l| l.chars().collect())
        .collect();
    let (ax, ay) = find_char(&rows, '@').expect("the avatar in replay's text");
    let (sx, sy) = find_char(&view, '@').expect("the avatar on screen");
    let mut compared = 0;
    for (vy, line) in view.iter().enumerate() {
        for vx in 0..usize::from(COLS) {
            let shown = line.get(vx).copied().unwrap_or(' ');
            if shown == '▒' || shown == '●' || minimap_cell(vx, vy) {
                // The minimap (docs/terminal.md) covers these cells.
                continue;
            }
            let (x, y) = (
                ax as i64 + vx as i64 - sx as i64,
                ay as i64 + vy as i64 - sy as i64,
            );
            let want = usize::try_from(y)
                .ok()
                .zip(usize::try_from(x).ok())
                .and_then(|(y, x)| rows.get(y).and_then(|r| r.get(x)).copied())
                .unwrap_or(' ');
            if want == '+' && shown.is_ascii_digit() {
                // An unexplored exit shows the depth of the room behind it (docs/explore.md).
                compared += 1;
                continue;
            }
            assert_eq!(shown, want, "screen cell ({vx}, {vy}) is tile ({x}, {y})");
            compared += usize::from(want != ' ');
        }
    }
    compared
}

/// A monster in sight is drawn where the JSON says, one out of sight is not (docs/monsters.md).
#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn monsters_in_sight_are_drawn_where_the_json_says_and_no_others() {
    // E3S and the explorer's first 80 keys: one monster in sight, one of the branch out of it.
    const KEYS: &str =
        "E3SWWWWWWWWWWWWWAAAAAAAAAAWAAAWWWWWWWWWWAWWWDWWWWWWWWWWWWWAAAAAAAAAAAAAWWWWWWW";
    let full = replay_json(KEYS);
    let sight = replay_json_with(KEYS, &["--view", "sight"]);
    let (all, seen) = (
        full["monsters"].as_array().unwrap(),
        sight["monsters"].as_array().unwrap(),
    );
    assert!(
        !seen.is_empty() && all.len() > seen.len(),
        "{all:?} / {seen:?}"
    );
    let t = tmux("monsters", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play("", dir.path(), "--color never --walls java", "New Game (N)");
    t.type_text(KEYS);
    let moves = format!("· {} moves", full["moves"]);
    let screen = t.wait_for(&moves, |s| s[1].contains(&moves));
    assert_screen_is_sight(&screen, dir.path(), KEYS, &[]);
    // The monster out of sight: its glyph is not at its tile's cell.
    let view: Vec<Vec<char>> = screen[HUD_ROWS..]
        .iter()
        .map(|l| l.chars().collect())
        .collect();
    let (sx, sy) = find_char(&view, '@').expect("the avatar on screen");
    let avatar = (
        full["avatar"][0].as_i64().unwrap(),
        full["avatar"][1].as_i64().unwrap(),
    );
    for m in all.iter().filter(|m| !seen.contains(m)) {
        let (dx, dy) = (
            m["x"].as_i64().unwrap() - avatar.0,
            m["y"].as_i64().unwrap() - avatar.1,
        );
        let (cx, cy) = (sx as i64 + dx, sy as i64 - dy);
        let shown = usize::try_from(cy)
            .ok()
            .and_then(|y| view.get(y))
            .and_then(|l| usize::try_from(cx).ok().and_then(|x| l.get(x)))
            .copied()
            .unwrap_or(' ');
        assert!(
            !"rbgzoT".contains(shown),
            "monster {m} out of sight is drawn"
        );
    }
    t.press(&["C-c"]);
    t.wait_for_shell();
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn resizing_redraws_at_the_new_size() {
    let t = tmux("resize", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play("", dir.path(), "--color never --keys N1234S", "seed 1234");
    let resize = |cols: u16, rows: u16| {
        let out = t.tmux(&[
            "resize-window",
            "-t",
            "t",
            "-x",
            &cols.to_string(),
            "-y",
            &rows.to_string(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    };
    resize(40, 12);
    let small = t.wait_text("terminal too small");
    assert!(
        small.join(" ").contains("48 × 24"),
        "the message names the size it needs: {small:?}"
    );
    // A key typed while the game cannot be seen is not fed to it.
    t.type_text("A");
    resize(120, 45);
    let large = t.wait_for("the world again", |s| {
        s.iter().any(|l| l.contains('@')) && s[0].contains("seed 1234")
    });
    assert_eq!(large.len(), 45);
    assert!(
        large[1].contains("0 moves"),
        "the key was not fed: {}",
        large[1]
    );
    assert!(!large.iter().any(|l| l.contains("too small")));
    t.press(&["C-c"]);
    t.wait_for_shell();
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn ctrl_c_and_sigterm_restore_the_terminal() {
    let t = tmux("signals", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play("", dir.path(), "--color never", "New Game (N)");
    t.type_text("N5S");
    t.wait_text("seed 5");
    t.press(&["C-c"]);
    let shell = t.wait_for_shell();
    assert!(shell.iter().any(|l| l == "STATUS-0"), "{shell:?}");
    assert!(
        !dir.path().join("save.bin").exists(),
        "Ctrl-C saves nothing"
    );
    t.assert_cooked();

    t.run("clear");
    t.wait_for("a clear screen", |s| {
        !s.iter().any(|l| l.contains("STATUS"))
    });
    let pid_file = dir.path().join("pid");
    let prefix = format!(
        "sh -c 'echo $$ > {}; exec \"$0\" \"$@\"' ",
        pid_file.display()
    );
    t.play(&prefix, dir.path(), "--color never", "New Game (N)");
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let killed = Command::new("kill")
        .args(["-TERM", pid.trim()])
        .status()
        .unwrap();
    assert!(killed.success());
    let shell = t.wait_for_shell();
    // The program died of SIGTERM (128 + 15), after restoring the terminal.
    assert!(shell.iter().any(|l| l == "STATUS-143"), "{shell:?}");
    assert!(!shell.iter().any(|l| l.contains("New Game")), "{shell:?}");
    t.assert_cooked();
}

/// Every signal whose default action ends the process restores the terminal first, as
/// SIGTERM does: cooked mode, the normal screen, the cursor shown and no mouse reports
/// (issue 31, problem 15: SIGQUIT, SIGUSR1 and SIGALRM left it raw).
#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn every_ending_signal_restores_the_terminal() {
    let t = tmux("signals-all", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let prefix = format!(
        "sh -c 'echo $$ > {}; exec \"$0\" \"$@\"' ",
        pid_file.display()
    );
    for (signal, number) in [("QUIT", 3), ("USR1", 10), ("USR2", 12), ("ALRM", 14)] {
        t.run("clear");
        t.wait_for("a clear screen", |s| {
            !s.iter()
                .any(|l| l.contains("STATUS") || l.contains("New Game"))
        });
        t.play(&prefix, dir.path(), "--color never", "New Game (N)");
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), pid.trim()])
            .status()
            .unwrap();
        assert!(killed.success());
        let shell = t.wait_for_shell();
        let status = format!("STATUS-{}", 128 + number);
        assert!(shell.iter().any(|l| l == &status), "SIG{signal}: {shell:?}");
        assert!(
            !shell.iter().any(|l| l.contains("New Game")),
            "SIG{signal} left the alternate screen up: {shell:?}"
        );
        let flags = stdout(&t.tmux(&[
            "display-message",
            "-p",
            "#{cursor_flag} #{mouse_any_flag} #{alternate_on}",
        ]));
        assert_eq!(
            flags.trim(),
            "1 0 0",
            "SIG{signal}: cursor shown, no mouse, normal screen"
        );
        t.assert_cooked();
    }
}

/// The bytes written since the pipe started, once they stop growing.
fn settled_size(path: &Path) -> u64 {
    let size = || std::fs::metadata(path).map_or(0, |m| m.len());
    let mut last = size();
    let mut since = Instant::now();
    while since.elapsed() < Duration::from_millis(300) {
        sleep(Duration::from_millis(30));
        let now = size();
        if now != last {
            last = now;
            since = Instant::now();
        }
    }
    last
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn a_move_writes_only_what_changed() {
    let t = tmux("bytes", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("bytes.log");
    t.play(
        "COLORTERM=truecolor ",
        dir.path(),
        "--color always --walls box --keys N1234",
        "1234_",
    );
    let piped = t.tmux(&[
        "pipe-pane",
        "-o",
        "-t",
        "t",
        &format!("cat >> '{}'", log.display()),
    ]);
    assert!(piped.status.success(), "{}", stderr(&piped));
    // The whole world appears: a full screen, in true colour.
    t.type_text("S");
    t.wait_text("0 moves");
    let full = settled_size(&log);
    // One step left (seed 1234 starts with floor to the avatar's left).
    t.type_text("A");
    t.wait_text("1 move");
    let step = settled_size(&log) - full;
    eprintln!("bytes: the first world frame {full}, one move {step}");
    assert!(full > 80 * 30, "a full screen writes every cell: {full}");
    // A quarter of a full 80 × 30 screen of cells, and of the frame just measured.
    assert!(step < 80 * 30 / 4, "one move wrote {step} bytes");
    assert!(step * 4 < full, "one move wrote {step} bytes of {full}");
    t.press(&["C-c"]);
    t.wait_for_shell();
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn a_world_larger_than_the_terminal_scrolls_with_the_avatar() {
    let t = tmux("camera", COLS, ROWS);
    let (w, h, seed) = (300, 120, 42);
    let dir = tempfile::tempdir().unwrap();
    t.play(
        "",
        dir.path(),
        &format!("--color never --width {w} --height {h} --keys N{seed}S"),
        &format!("seed {seed}"),
    );
    let on_screen = |s: &[String]| s[HUD_ROWS..].iter().any(|l| l.contains('@'));
    assert!(
        on_screen(&t.screen()),
        "the avatar is on screen at the start"
    );
    // Walk all the way to the tile before the exit.
    let mut game = GameState::new(seed, w, h, GeneratorSettings::default()).unwrap();
    let start = game.avatar();
    let mut path = keys_to_exit(&game);
    path.pop();
    common::play(&mut game, &path);
    let end = game.avatar();
    t.type_text(&path);
    let hud = format!("({}, {}) · {} moves", end.x, end.y, game.moves());
    let screen = t.wait_for(&hud, |s| s[1].contains(&hud) && on_screen(s));
    assert_eq!(
        screen[HUD_ROWS..]
            .iter()
            .map(|l| l.matches('@').count())
            .sum::<usize>(),
        1
    );
    eprintln!("walked from {start} to {end} ({} keys)", path.len());
    t.press(&["C-c"]);
    t.wait_for_shell();
}

#[test]
fn play_without_a_display_points_to_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(["play", "--save-dir"])
        .arg(dir.path())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("byog play --terminal"),
        "{}",
        stderr(&out)
    );
    // The terminal game needs a terminal: with output to a pipe it says so.
    let out = byog(dir.path(), &["play", "--terminal"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("needs a terminal"),
        "{}",
        stderr(&out)
    );
}

/// docs/sight.md, watching a save in the terminal: `--watch` plays the save's history from its
/// start; paused after k single steps the screen shows the world replay prints for the
/// history's first k actions; V at the menu watches it too; the save is only read.
#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn watching_a_save_shows_each_prefix_of_its_history() {
    let t = tmux("watch", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    let out = byog(dir.path(), &["replay", "N1234SAAASSDWWDDDD:Q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let save = dir.path().join("save.bin");
    let before = std::fs::read(&save).unwrap();
    let history = replay_json("N1234SAAASSDWWDDDD")["history"]
        .as_str()
        .unwrap()
        .to_owned();
    let start = "N1234S".len();
    let steps = history.len() - start;
    assert!(steps >= 6, "{history}");
    for k in [0, 2, steps] {
        let keys = format!(" {}", ".".repeat(k));
        t.play(
            "",
            dir.path(),
            &format!("--color never --walls java --watch --keys '{keys}'"),
            "watching",
        );
        let expected = trimmed(&json_rows(&replay_json(&history[..start + k])));
        let step = format!("step {k}/{steps}");
        t.wait_for(&format!("the world at step {k}"), |s| {
            s[1].contains(&step) && world_on_screen(s, 80, 30) == expected
        });
        t.press(&["Escape"]);
        let shell = t.wait_for_shell();
        assert!(shell.iter().any(|l| l == "STATUS-0"), "{shell:?}");
    }
    // V at the menu; Esc goes back to the menu, not out.
    t.play("", dir.path(), "--color never", "Watch the Saved Game (V)");
    t.type_text("v ");
    t.wait_text("paused · step 0/");
    t.press(&["Escape"]);
    t.wait_text("Watch the Saved Game (V)");
    t.type_text("q");
    t.wait_for_shell();
    assert_eq!(
        std::fs::read(&save).unwrap(),
        before,
        "the save is untouched"
    );
}

/// When the terminal goes away under the game (an SSH connection drops, the tmux server is
/// killed), the program ends by itself instead of spinning on a terminal that is not there.
#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn the_game_ends_when_its_terminal_goes_away() {
    let t = tmux("hangup", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play("", dir.path(), "--color never", "New Game (N)");
    t.type_text("N5S");
    t.wait_text("seed 5");
    let marker = dir.path().display().to_string();
    let running = || {
        Command::new("pgrep")
            .args(["-f", &format!("save-dir {marker}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    assert!(running(), "byog is running");
    let _ = t.tmux(&["kill-server"]);
    let start = Instant::now();
    while running() {
        assert!(
            start.elapsed() < PATIENCE,
            "byog still runs after its terminal went away"
        );
        sleep(Duration::from_millis(100));
    }
    assert!(!dir.path().join("save.bin").exists(), "nothing was saved");
}

/// Problem 2: `NO_COLOR=1 byog play --terminal --color always` writes colours (the flag wins
/// over the variable), remembered tiles dimmed among them: a run played a few steps, then a
/// resize that repaints every cell, in true colour.
/// Whether view cell `(vx, vy)` may lie under the minimap (docs/terminal.md): at most a
/// quarter of the view's width at its right and a third of its rows at its top.
fn minimap_cell(vx: usize, vy: usize) -> bool {
    vx >= usize::from(COLS) * 3 / 4 && vy <= (usize::from(ROWS) - HUD_ROWS) / 3
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn color_always_wins_over_no_color() {
    let t = tmux("nocolor", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("bytes.log");
    t.play(
        "NO_COLOR=1 COLORTERM=truecolor ",
        dir.path(),
        "--color always --keys R77SDDDSSSAW",
        "seed 77",
    );
    let piped = t.tmux(&[
        "pipe-pane",
        "-o",
        "-t",
        "t",
        &format!("cat >> '{}'", log.display()),
    ]);
    assert!(piped.status.success(), "{}", stderr(&piped));
    let resized = t.tmux(&["resize-window", "-t", "t", "-x", "110", "-y", "42"]);
    assert!(resized.status.success(), "{}", stderr(&resized));
    t.wait_for("the repainted screen", |s| {
        s.len() == 42 && s[0].contains("seed 77")
    });
    settled_size(&log);
    let bytes = String::from_utf8_lossy(&std::fs::read(&log).unwrap()).into_owned();
    // In sight, the look's colours (docs/look.md): the avatar white, remembered tiles in the
    // one cool colour.
    let look = byog::tile_engine::look::MEMORY;
    let avatar = byog::tile_engine::look::thing(byog::tile_engine::Tile::Player).unwrap();
    for (what, rgb) in [("avatar", avatar), ("remembered", look)] {
        let sgr = format!("\x1b[38;2;{};{};{}m", rgb.r, rgb.g, rgb.b);
        assert!(
            bytes.contains(&sgr),
            "no {what} colour {sgr:?} in {} bytes: {:?}",
            bytes.len(),
            &bytes[..bytes.len().min(400)]
        );
    }
    t.press(&["C-c"]);
    t.wait_for_shell();
}

/// Problem 5: SIGTSTP (`kill -TSTP`; Ctrl-Z is a key in raw mode) gives the shell its screen
/// and cooked mode back before the program stops; after `fg` (SIGCONT) the game is drawn
/// whole again and keys act without Enter.
#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn sigtstp_gives_the_terminal_back_and_fg_resumes_play() {
    let t = tmux("tstp", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    t.run("echo BEFORE-$((6*7))");
    t.wait_for("the shell's output", |s| s.iter().any(|l| l == BEFORE));
    t.run(&format!(
        "sh -c 'echo $$ > {}; exec \"$0\" \"$@\"' {} play --terminal --save-dir '{}' --color never --keys N1234S",
        pid_file.display(),
        env!("CARGO_BIN_EXE_byog"),
        dir.path().display()
    ));
    t.wait_for("the game", |s| {
        s[0].contains("seed 1234") && s[1].contains("0 moves")
    });
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let signal = |name: &str| {
        let sent = Command::new("kill")
            .args([&format!("-{name}"), pid.trim()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -{name}");
    };
    signal("TSTP");
    // The shell's own screen is back (what it printed before), the game's is gone.
    let shell = t.wait_for("the shell's screen", |s| s.iter().any(|l| l == BEFORE));
    assert!(
        !shell.iter().any(|l| l.contains("seed 1234")),
        "the game is still on screen: {shell:?}"
    );
    t.assert_cooked();
    // fg continues it: the whole game is drawn again, without the shell's lines.
    t.run("fg");
    let screen = t.wait_for("the game again", |s| {
        s[0].contains("seed 1234")
            && s[1].contains("0 moves")
            && s[HUD_ROWS..].iter().any(|l| l.contains('@'))
            && !s.iter().any(|l| l.contains(BEFORE) || l.contains(":STTY"))
    });
    assert_eq!(screen.len(), usize::from(ROWS));
    // A key acts at once, without Enter (raw mode is back): seed 1234 has floor to the left.
    t.type_text("A");
    t.wait_for("the move", |s| s[1].contains("1 move"));
    t.press(&["C-c"]);
    t.wait_for("the shell", |s| s.iter().any(|l| l == BEFORE));
    t.assert_cooked();
}

/// Problem 19: after `:` the HUD says that it waits for `Q`; after `:Q` the shell is told
/// where the game was saved, once its screen is back.
#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn a_colon_waits_for_q_and_the_shell_learns_where_the_game_went() {
    let t = tmux("colon", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play("", dir.path(), "--color never --keys N1234S", "seed 1234");
    t.type_text("AA:");
    let screen = t.wait_text(byog::screens::COLON_PROMPT);
    assert!(screen[1].contains("2 moves"), "{}", screen[1]);
    t.type_text("Q");
    let shell = t.wait_for_shell();
    let said = format!(
        "saved to {} (N1234S…, 2 moves)",
        dir.path().join("save.bin").display()
    );
    assert!(shell.iter().any(|l| l == &said), "{said:?} in {shell:#?}");
    assert!(shell.iter().any(|l| l == "STATUS-0"), "{shell:?}");
}

/// Problem 13: a save that cannot be read is not offered as if it could be: the menu says
/// that it cannot be read and why, and offers no watching.
#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn the_menu_says_when_the_save_cannot_be_read() {
    let t = tmux("unreadable", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("save.bin"), b"not a save").unwrap();
    t.play("", dir.path(), "--color never", "New Game (N)");
    let screen = t.wait_text("the save cannot be read");
    let text = screen.join("\n");
    assert!(text.contains("is not a byog save"), "the reason: {text}");
    assert!(!text.contains("Watch the Saved Game"), "{text}");
    assert!(
        !screen.iter().any(|l| l.trim() == "Load Game (L)"),
        "{text}"
    );
    t.type_text("q");
    t.wait_for_shell();
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn a_long_generation_shows_what_it_makes_and_ctrl_c_quits_at_once() {
    // A user found 17 s of blank terminal while a 16384 × 16384 world was made, and Ctrl-C
    // ignored until it was. The world (well over 10 s in a test build) is made on a worker
    // thread: the screen says what is being made and for how long, and Ctrl-C ends the
    // program at once, restoring the terminal.
    let t = tmux("busy", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play(
        "",
        dir.path(),
        "--color never --width 16384 --height 16384",
        "New Game (N)",
    );
    t.type_text("N1S");
    let screen = t.wait_text("making the game of seed 1");
    assert!(screen.iter().any(|l| l.contains("Ctrl-C")), "{screen:?}");
    // The time shown moves on while the world is made.
    // (`placing the rooms · 0% · 1.2 s`: the step and the share done, then the time.)
    t.wait_for("the time to pass a second", |s| {
        s.iter()
            .any(|l| l.contains(" · 1.") && l.trim_end().ends_with(" s"))
    });
    let asked = Instant::now();
    t.press(&["C-c"]);
    let shell = t.wait_for_shell();
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "Ctrl-C waited {:?} for the world",
        asked.elapsed()
    );
    assert!(shell.iter().any(|l| l == "STATUS-0"), "{shell:?}");
    t.assert_cooked();
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn a_large_world_on_the_command_line_says_it_is_being_made() {
    // A user found 17 s of blank terminal while `byog` made a 16384 × 16384 world.
    let t = tmux("notice", COLS, ROWS);
    t.run(&format!(
        "echo BEFORE-$((6*7)); {} gen --seed 1 --width 16384 --height 16384 --format none; echo STATUS-$?",
        env!("CARGO_BIN_EXE_byog")
    ));
    let screen = t.wait_text("byog: making the world");
    assert!(
        screen.iter().any(|l| l.contains("Ctrl-C stops")),
        "{screen:?}"
    );
    t.press(&["C-c"]);
    // The shell is back (Ctrl-C ends the whole command line, the `echo` after it too).
    t.wait_for("the shell's prompt", |s| {
        s.iter()
            .rposition(|l| !l.trim().is_empty())
            .is_some_and(|i| s[i].trim() == "$" && s[..i].iter().any(|l| l.contains("^C")))
    });
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn vi_keys_the_numpad_help_and_the_log_in_the_terminal() {
    let t = tmux("tools", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play("", dir.path(), "--color never --walls java", "New Game (N)");
    // h j k l and 4 2 8 6 walk as A S W D do.
    t.type_text("N1234Shhjj4422");
    let state = replay_json("N1234SAASSAASS");
    let (x, y) = (
        state["avatar"][0].as_i64().unwrap(),
        state["avatar"][1].as_i64().unwrap(),
    );
    let moves = state["moves"].as_u64().unwrap();
    t.wait_for("the moves of the vi-keys and the numpad", |s| {
        s[1].contains(&format!("({x}, {y}) · {moves} moves"))
    });
    // ? shows the mode's help, its glyphs on the first page and its keys on the next (D or
    // → turns it); any other key closes it.
    t.type_text("?");
    let help = t.wait_text("HELP: A CLASSIC GAME");
    assert!(help.iter().any(|l| l.contains("#  wall")), "{help:?}");
    t.type_text("D");
    let keys = t.wait_text("HELP: KEYS");
    assert!(keys.iter().any(|l| l.contains("h j k l")), "{keys:?}");
    t.type_text("x");
    t.wait_for("the game again", |s| {
        s[1].contains(&format!("{moves} moves"))
    });
    // P shows the messages of this game, the newest at the bottom.
    t.type_text("ZP");
    let log = t.wait_text("MESSAGES");
    let last = log
        .iter()
        .rposition(|l| l.contains("'Z'"))
        .expect("the message of Z");
    assert!(log[last + 1..].iter().all(|l| !l.contains('\'')), "{log:?}");
}

/// The tests' own breadth-first distances over the seen rows of a JSON state (top row
/// first): floor and the avatar walkable, 4 neighbours. Returns `(x, y, distance)` of every
/// reached tile, `y` counted from the bottom as the JSON's positions are.
fn seen_distances(state: &serde_json::Value) -> Vec<(i64, i64, u32)> {
    let rows: Vec<Vec<char>> = state["seen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().collect())
        .collect();
    let h = rows.len() as i64;
    let w = rows[0].len() as i64;
    let (ax, ay) = (
        state["avatar"][0].as_i64().unwrap(),
        state["avatar"][1].as_i64().unwrap(),
    );
    let open = |x: i64, y: i64| {
        (0..w).contains(&x)
            && (0..h).contains(&y)
            && "·@".contains(rows[(h - 1 - y) as usize][x as usize])
    };
    let mut dist = std::collections::BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([(ax, ay)]);
    dist.insert((ax, ay), 0u32);
    while let Some((x, y)) = queue.pop_front() {
        let d = dist[&(x, y)];
        for (dx, dy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            let (nx, ny) = (x + dx, y + dy);
            if open(nx, ny) && !dist.contains_key(&(nx, ny)) {
                dist.insert((nx, ny), d + 1);
                queue.push_back((nx, ny));
            }
        }
    }
    dist.into_iter().map(|((x, y), d)| (x, y, d)).collect()
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn a_click_walks_the_shortest_known_way_and_a_walk_stops_at_a_key() {
    let t = tmux("click", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play("", dir.path(), "--color never --walls java", "New Game (N)");
    let keys = "N1234S";
    t.type_text(keys);
    let state = replay_json(keys);
    let (w, h) = (80, 30);
    // The seen floor tile farthest from the avatar, at most 8 steps away.
    let (x, y, d) = seen_distances(&state)
        .into_iter()
        .filter(|&(_, _, d)| d <= 8)
        .max_by_key(|&(x, y, d)| (d, -y, -x))
        .unwrap();
    assert!(d >= 3, "a walk of {d} steps");
    t.wait_for("the game", |s| s[1].contains(" · 0 moves"));
    // A left click, as the terminal reports it with mouse capture on (SGR, 1-based cells):
    // press then release.
    let (left, top) = world_corner(w, h);
    let (col, row) = (left + x as usize + 1, top + (h - 1 - y as usize) + 1);
    t.type_text(&format!("\x1b[<0;{col};{row}M\x1b[<0;{col};{row}m"));
    t.wait_for("the walk to the tile clicked", |s| {
        s[1].contains(&format!("({x}, {y}) · {d} moves"))
    });
    // `>` travels to the exit: many steps for one key. (`X` has nothing to explore in a
    // classic game, whose whole map is shown: it says so and takes no step.)
    t.type_text("X");
    t.wait_for("X's word", |s| s[1].contains("nothing left to find"));
    t.type_text(">");
    let screen = t.wait_for("a walk of >", |s| {
        s[1].split(" · ")
            .find_map(|p| p.strip_suffix(" moves"))
            .and_then(|m| m.trim().parse::<u64>().ok())
            .is_some_and(|m| m > u64::from(d) + 5)
    });
    // Any key stops a walk under way (and is dropped): the moves stay put.
    t.type_text("Z");
    let moves = |s: &[String]| {
        s[1].split(" · ")
            .find_map(|p| p.strip_suffix(" moves").map(str::to_owned))
    };
    sleep(Duration::from_millis(500));
    let stopped = moves(&t.screen());
    sleep(Duration::from_millis(500));
    assert_eq!(moves(&t.screen()), stopped, "the walk stopped");
    // Saved, the history is the plain moves, and it replays to the same place.
    t.type_text(":Q");
    t.wait_for_shell();
    let loaded = byog(dir.path(), &["replay", "L", "--json"]);
    let loaded: serde_json::Value = serde_json::from_str(stdout(&loaded).trim_end()).unwrap();
    let history = loaded["history"].as_str().unwrap();
    assert!(
        history[keys.len()..].chars().all(|c| "WASD".contains(c)),
        "{history}"
    );
    let again = replay_json(history);
    assert_eq!(again["avatar"], loaded["avatar"]);
    assert!(screen.len() > 2);
}

#[test]
#[ignore = "needs tmux: cargo test --test main -- --include-ignored terminal::"]
fn the_minimap_shows_a_world_larger_than_the_terminal_and_m_hides_it() {
    let t = tmux("minimap", COLS, ROWS);
    let dir = tempfile::tempdir().unwrap();
    t.play(
        "",
        dir.path(),
        "--color never --walls java --width 200 --height 90",
        "New Game (N)",
    );
    t.type_text("N5S");
    // Without colour the minimap marks what is known `▒` and the avatar `●`, in the view's
    // top-right quarter below the HUD.
    let box_of = |s: &[String]| -> Vec<String> {
        s[HUD_ROWS..HUD_ROWS + 12]
            .iter()
            .map(|l| l.chars().skip(usize::from(COLS) * 3 / 4).collect())
            .collect()
    };
    t.wait_for("the minimap", |s| {
        let b = box_of(s);
        b.iter().any(|l| l.contains('▒')) && b.iter().any(|l| l.contains('●'))
    });
    t.type_text("M");
    t.wait_for("the minimap hidden", |s| {
        box_of(s).iter().all(|l| !l.contains('▒'))
    });
    // `M` is a view key: nothing was reported, no move was made.
    let screen = t.screen();
    assert!(screen[1].contains(" · 0 moves"), "{}", screen[1]);
    t.type_text("M");
    t.wait_for("the minimap again", |s| {
        box_of(s).iter().any(|l| l.contains('▒'))
    });
}
