//! The real terminal game (`byog play --terminal`) in a detached tmux session of a fixed
//! size: the program is started from a shell in the pane as a user starts it, keys are typed
//! with `send-keys`, the screen is read with `capture-pane`. Each test has its own tmux server
//! (`-L`) and save folder, so they run in parallel; every wait polls the screen with a
//! deadline.
//!
//! What stays here is the terminal's own: one game played end to end and compared with
//! `byog replay` (the smoke test,
//! [`a_classic_game_shows_replays_world_and_saves_for_replay`]: the world and the HUD
//! painted in cells, the mouse reports (the tile named, a click's walk), `:` and `:Q` and
//! the line the shell is told), resizing, Ctrl-C, the ending signals and SIGTSTP giving the
//! terminal back, writing only what changed, the colour flags, the terminal going away, the
//! minimap painted in characters, and the notices of a long generation. The shell's
//! scenarios (what a run or an exploration shows, monsters in sight, scrolling, watching a
//! save, the colon, an unreadable save, the wait and vi keys, help and the log, clicks and
//! walks) are played headless on the shell's frame, once for every front-end, in
//! `crates/shell/tests/shell/scenarios.rs`.
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

use common::{byog_in as byog, json_rows, stderr, stdout};

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
            // `ends_with`: a prompt printed late shares the output's line (`$ BEFORE-42`); the
            // command line itself shows `$((6*7))`, never the number.
            s.iter().any(|l| l.ends_with(BEFORE)) && s.iter().any(|l| l.starts_with("STATUS-"))
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
    let dir = tempfile::tempdir().unwrap();
    let out = byog(dir.path(), &["replay", keys, "--json"]);
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
    // A left click (SGR: press, then release) walks the shortest known way to the tile
    // clicked: two steps along a line of floor.
    let rows: Vec<Vec<char>> = json_rows(&state)
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    let floor = |x: i64, y: i64| {
        let (Ok(row), Ok(col)) = (usize::try_from(h as i64 - 1 - y), usize::try_from(x)) else {
            return false;
        };
        rows.get(row).and_then(|r| r.get(col)) == Some(&'·')
    };
    let (key, dx, dy) = [('W', 0, 1), ('A', -1, 0), ('S', 0, -1), ('D', 1, 0)]
        .into_iter()
        .find(|&(_, dx, dy)| floor(x + dx, y + dy) && floor(x + 2 * dx, y + 2 * dy))
        .expect("two floor tiles in a line from the avatar");
    let (cx, cy) = (x + 2 * dx, y + 2 * dy);
    let (col, row) = (left + cx as usize + 1, top + (h - 1 - cy as usize) + 1);
    t.type_text(&format!("\x1b[<0;{col};{row}M\x1b[<0;{col};{row}m"));
    let moves = moves + 2;
    let walked = format!("({cx}, {cy}) · {moves} moves");
    t.wait_for("the walk to the tile clicked", |s| s[1].contains(&walked));
    let keys = format!("{keys}{key}{key}");

    // `:` waits for its `Q`, and says so; :Q saves, says goodbye, gives the shell its screen
    // back and tells it where the game went.
    t.type_text(":");
    t.wait_text(byog_shell::screens::COLON_PROMPT);
    t.type_text("Q");
    t.wait_text("Goodbye.");
    let shell = t.wait_for_shell();
    assert!(shell.iter().any(|l| l == "STATUS-0"), "{shell:?}");
    let said = format!(
        "saved to {} (N1234S…, {moves} moves)",
        dir.path().join("save.bin").display()
    );
    assert!(shell.iter().any(|l| l == &said), "{said:?} in {shell:#?}");
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
        // The prompt after the clear, before typing: keys typed ahead are echoed before the
        // prompt, which then lands on the line of the command's output.
        t.wait_for("a clear screen and the prompt", |s| {
            !s.iter()
                .any(|l| l.contains("STATUS") || l.contains("New Game"))
                && s.iter().any(|l| l.trim_end() == "$")
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
    let look = byog_tile_engine::look::MEMORY;
    let avatar = byog_tile_engine::look::thing(byog_tile_engine::Tile::Player).unwrap();
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
