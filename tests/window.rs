//! The real window, under Xvfb: the program is started as a user starts it, keys are typed
//! with `xdotool`, the mouse is moved over known tiles, and screenshots are read pixel by
//! pixel and compared with what `byog replay` prints for the same keys.
//!
//! What stays here is the window's own: one game played end to end and compared with `byog
//! replay` (the smoke test, [`playing_in_a_real_window_matches_replay`]: the menu, the
//! world's cells in pixels, the mouse naming tiles, a click's walk, a resize, `:Q` and the
//! line printed after), the screenshot flags and their agreement with `gen --png`, the tile
//! under the mouse after scrolling and zooming (and the minimap drawn), zooming an
//! exploration, the window's size and name, the menu and seed entry typed as X keys, the
//! HUD's layout under zoom, and the look's pixels (tile size, contrast). The shell's
//! scenarios (what a run or an exploration shows, monsters in sight, scrolling, watching a
//! save, the colon, an unreadable save, the wait and vi keys, help and the log, clicks and
//! walks) are played headless on the shell's frame, once for every front-end, in
//! `crates/shell/tests/shell/scenarios.rs`.
//!
//! Needs `Xvfb`, `xdotool`, `xwd` (x11-apps) and `convert` (ImageMagick) from Debian's
//! packages and Mesa's software OpenGL (`libgl1-mesa-dri`). The tests that need them are
//! `#[ignore]`d with that reason, so a plain `cargo test` reports them as ignored (never as
//! passed unrun); `cargo test --test main -- --include-ignored window::` runs them, and then a
//! missing tool fails them with the reason. With `BYOG_REQUIRE_WINDOW_TESTS=1` (CI),
//! [`required_window_tests_are_not_left_ignored`] fails a run that leaves them out.

#![cfg(feature = "window")]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use image::RgbaImage;

use crate::common;

use common::byog_in as byog;

const TILE: u32 = 16;
const HUD_ROWS: u32 = 2;
const WALL_BG: [u8; 3] = [64, 64, 64];

/// An Xvfb server on a free display, killed when dropped.
struct Xvfb {
    display: String,
    child: Child,
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Starts Xvfb, or says why it cannot.
fn start_xvfb() -> Result<Xvfb, String> {
    for tool in ["Xvfb", "xdotool", "xwd", "convert", "timeout"] {
        if !have(tool) {
            return Err(format!(
                "{tool} is not installed (apt-get install xvfb xdotool x11-apps imagemagick libgl1-mesa-dri)"
            ));
        }
    }
    // `-displayfd 1`: Xvfb picks a free display itself and writes its number on stdout once
    // it accepts connections, so tests running in parallel never share or race for one.
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "2600x1100x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start Xvfb: {e}"))?;
    let mut line = String::new();
    let read = child
        .stdout
        .take()
        .map(|out| std::io::BufRead::read_line(&mut std::io::BufReader::new(out), &mut line));
    let number = line.trim().to_owned();
    let server = Xvfb {
        display: format!(":{number}"),
        child,
    };
    match read {
        Some(Ok(_)) if !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) => {
            Ok(server)
        }
        _ => Err(format!("Xvfb did not report a display (read {line:?})")),
    }
}

/// An X server for a window test (one that was asked for: these tests are `#[ignore]`d); a
/// missing tool fails it with the reason.
#[track_caller]
fn xvfb() -> Xvfb {
    start_xvfb().unwrap_or_else(|why| panic!("the window tests need a virtual X server: {why}"))
}

/// The window tests are `#[ignore]`d, so that `cargo test` without Xvfb reports them as
/// ignored rather than passed. With `BYOG_REQUIRE_WINDOW_TESTS=1` (CI) they must run too:
/// this fails a run of this file that leaves them out (without `--include-ignored`).
#[test]
fn required_window_tests_are_not_left_ignored() {
    common::assert_required_tests_run("BYOG_REQUIRE_WINDOW_TESTS", "window");
}

/// Problem 9: every test that needs a virtual X server is `#[ignore]`d, so that `cargo test` without it
/// reports the test as ignored, never as passed unrun: the tests of this file whose body
/// calls `xvfb()` are the ones this test binary lists as ignored.
#[test]
fn every_test_that_needs_xvfb_is_marked_ignored() {
    // Put together here, so that this test's own text does not match it.
    let call = ["= ", "xvfb()"].concat();
    common::assert_tool_tests_are_ignored(module_path!(), include_str!("window.rs"), &call);
}

/// Runs `byog play ARGS --screenshot PNG` on the X server and returns the picture.
fn play_screenshot(x: &Xvfb, save_dir: &Path, args: &[&str], png: &Path) -> RgbaImage {
    let status = Command::new(env!("CARGO_BIN_EXE_byog"))
        .arg("play")
        .args(args)
        .arg("--screenshot")
        .arg(png)
        .arg("--save-dir")
        .arg(save_dir)
        .env("DISPLAY", &x.display)
        .status()
        .unwrap();
    assert!(status.success(), "byog play {args:?} --screenshot failed");
    image::open(png).unwrap().to_rgba8()
}

/// The text `byog replay KEYS` prints, as rows of characters, top row first.
fn replay_rows(keys: &str) -> Vec<Vec<char>> {
    let dir = tempfile::tempdir().unwrap();
    let out = byog(dir.path(), &[keys]);
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.chars().collect())
        .collect()
}

/// A running `byog` window.
struct Window<'a> {
    x: &'a Xvfb,
    child: Child,
    id: String,
}

impl Drop for Window<'_> {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn xdotool(x: &Xvfb, args: &[&str]) -> String {
    let out = Command::new("timeout")
        .args(["20", "xdotool"])
        .args(args)
        .env("DISPLAY", &x.display)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

impl<'a> Window<'a> {
    fn open(x: &'a Xvfb, save_dir: &Path) -> Window<'a> {
        Window::open_with(x, save_dir, &[])
    }

    fn open_with(x: &'a Xvfb, save_dir: &Path, args: &[&str]) -> Window<'a> {
        Window::open_to(x, save_dir, args, Stdio::null())
    }

    /// [`Window::open_with`], the program's standard output going to `stdout`.
    fn open_to(x: &'a Xvfb, save_dir: &Path, args: &[&str], stdout: Stdio) -> Window<'a> {
        let child = Command::new(env!("CARGO_BIN_EXE_byog"))
            .arg("play")
            .args(args)
            .arg("--save-dir")
            .arg(save_dir)
            .env("DISPLAY", &x.display)
            .env_remove("BYOG_SAVE_DIR")
            .stdout(stdout)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Owned by the Window from here on, so it is killed and reaped on every path.
        let mut w = Window {
            x,
            child,
            id: String::new(),
        };
        let start = Instant::now();
        while w.id.is_empty() {
            let found = xdotool(x, &["search", "--onlyvisible", "--name", "^byog$"]);
            w.id = found.lines().next().unwrap_or_default().to_owned();
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the byog window did not appear"
            );
            sleep(Duration::from_millis(100));
        }
        xdotool(x, &["windowfocus", "--sync", &w.id]);
        w.wait_frames();
        w
    }

    /// Gives the window time to draw a few frames after input.
    fn wait_frames(&mut self) {
        sleep(Duration::from_millis(700));
    }

    /// Presses named keys (`BackSpace`, `Escape`, `Up`, …).
    fn press(&mut self, keys: &[&str]) {
        xdotool(self.x, &["windowfocus", "--sync", &self.id]);
        let mut args = vec!["key", "--delay", "60"];
        args.extend_from_slice(keys);
        xdotool(self.x, &args);
        self.wait_frames();
    }

    /// Whether the program is still running.
    fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    fn type_keys(&mut self, keys: &str) {
        xdotool(self.x, &["windowfocus", "--sync", &self.id]);
        xdotool(self.x, &["type", "--delay", "60", keys]);
        self.wait_frames();
    }

    /// Moves the pointer to the centre of view cell `cell` (from the view's bottom-left) of
    /// `view`, and returns the HUD's description pixels (the HUD at `hud_scale` × 16 pixels a
    /// row) once they differ from `before` (the pointer moved to another kind of tile), or
    /// after 10 seconds (a slow machine draws late; the caller's assertion then explains).
    fn point_at_cell(
        &mut self,
        cell: (u32, u32),
        view: View,
        hud_scale: u32,
        before: &[u8],
    ) -> Vec<u8> {
        let (px, py) = view.centre(cell);
        xdotool(
            self.x,
            &[
                "mousemove",
                "--window",
                &self.id,
                &px.to_string(),
                &py.to_string(),
            ],
        );
        self.wait_frames();
        let start = Instant::now();
        loop {
            let now = description_pixels(&self.screenshot(), hud_scale);
            if now != before || start.elapsed() > Duration::from_secs(10) {
                return now;
            }
            sleep(Duration::from_millis(250));
        }
    }

    /// Points at a wall, a floor and another wall (view cells, as [`Window::point_at_cell`])
    /// and checks the HUD: it changes from wall to floor and says the same for both walls.
    /// Each reading waits for the HUD to change from the one before (`start` first). Returns
    /// the wall's and the floor's readings.
    fn assert_hud_names(
        &mut self,
        [wall, floor, wall2]: [(u32, u32); 3],
        view: View,
        hud_scale: u32,
        start: &[u8],
    ) -> (Vec<u8>, Vec<u8>) {
        let over_wall = self.point_at_cell(wall, view, hud_scale, start);
        let over_floor = self.point_at_cell(floor, view, hud_scale, &over_wall);
        let over_wall2 = self.point_at_cell(wall2, view, hud_scale, &over_floor);
        assert!(
            over_wall != over_floor,
            "the HUD changes from wall to floor"
        );
        assert!(
            over_wall == over_wall2,
            "the HUD says the same for two walls"
        );
        (over_wall, over_floor)
    }

    /// Captures the window with `xwd -id` (a plain XGetImage: no grabs, no waiting for
    /// events) and converts it with ImageMagick. Every step runs under `timeout`, and a
    /// capture that fails is tried again, so a stuck X tool fails the test instead of hanging
    /// it.
    fn screenshot(&self) -> RgbaImage {
        let dir = tempfile::tempdir().unwrap();
        let (xwd, png) = (dir.path().join("w.xwd"), dir.path().join("w.png"));
        let mut errors = Vec::new();
        for _ in 0..3 {
            let run = |cmd: &mut Command| match cmd.output() {
                Ok(o) if o.status.success() => Ok(()),
                Ok(o) => Err(format!(
                    "{}: {}",
                    o.status,
                    String::from_utf8_lossy(&o.stderr)
                )),
                Err(e) => Err(e.to_string()),
            };
            let xwd_cmd = || {
                let mut c = Command::new("timeout");
                c.args(["20", "xwd", "-silent", "-id", &self.id, "-out"])
                    .arg(&xwd)
                    .env("DISPLAY", &self.x.display);
                c
            };
            let convert_cmd = || {
                let mut c = Command::new("timeout");
                c.args(["20", "convert"])
                    .arg(format!("xwd:{}", xwd.display()))
                    .arg(format!("png:{}", png.display()));
                c
            };
            let result = run(&mut xwd_cmd())
                .and_then(|()| run(&mut convert_cmd()))
                .and_then(|()| image::open(&png).map_err(|e| e.to_string()));
            match result {
                Ok(img) => return img.to_rgba8(),
                Err(e) => errors.push(e),
            }
            sleep(Duration::from_millis(500));
        }
        panic!(
            "could not capture the window (xwd -id {} then convert): {errors:?}",
            self.id
        );
    }

    /// A screenshot once `ready` holds for it (tried for up to 20 seconds; the last one is
    /// returned either way, for the caller's assertions to explain).
    fn screenshot_when(&self, ready: impl Fn(&RgbaImage) -> bool) -> RgbaImage {
        let start = Instant::now();
        loop {
            let shot = self.screenshot();
            if ready(&shot) || start.elapsed() > Duration::from_secs(20) {
                return shot;
            }
            sleep(Duration::from_millis(250));
        }
    }

    /// Waits for the program to end by itself; returns its exit code.
    fn wait_exit(&mut self, limit: Duration) -> Option<i32> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            sleep(Duration::from_millis(100));
        }
        None
    }
}

/// The world's view in a window: its top-left pixel, its cells' side in pixels and its rows.
#[derive(Debug, Clone, Copy)]
struct View {
    left: u32,
    top: u32,
    side: u32,
    rows: u32,
}

impl View {
    /// The view right below a HUD of `side`-pixel rows, `rows` rows of `side`-pixel cells
    /// from the window's left edge (a window that is a whole number of cells).
    fn below_hud(side: u32, rows: u32) -> View {
        View {
            left: 0,
            top: HUD_ROWS * side,
            side,
            rows,
        }
    }

    /// The view of a `width × height` pixel window zoomed to `side`-pixel cells: the HUD
    /// keeps its two 16-pixel rows, and the view fills the rest with whole cells, centred.
    fn zoomed(width: u32, height: u32, side: u32) -> (View, u32) {
        let below = height - HUD_ROWS * TILE;
        let (cols, rows) = (width / side, below / side);
        let view = View {
            left: (width - cols * side) / 2,
            top: HUD_ROWS * TILE + (below - rows * side) / 2,
            side,
            rows,
        };
        (view, cols)
    }

    /// The centre pixel of view cell `(cx, cy)` (from the view's bottom-left).
    fn centre(&self, (cx, cy): (u32, u32)) -> (u32, u32) {
        (
            self.left + cx * self.side + self.side / 2,
            self.top + (self.rows - 1 - cy) * self.side + self.side / 2,
        )
    }
}

fn pixel(img: &RgbaImage, x: u32, y: u32) -> [u8; 3] {
    let p = img.get_pixel(x, y).0;
    [p[0], p[1], p[2]]
}

/// For each world cell, whether its background is WALL's (sampled near the cell's top-left
/// and bottom-right corners, where no glyph ink falls).
fn wall_cells(img: &RgbaImage, width: u32, height: u32, scale: u32) -> Vec<Vec<bool>> {
    (0..height)
        .map(|row| {
            (0..width)
                .map(|x| {
                    let (left, top) = (x * TILE * scale, (HUD_ROWS + row) * TILE * scale);
                    let far = (TILE - 1) * scale - 1;
                    pixel(img, left + scale, top + scale) == WALL_BG
                        && pixel(img, left + far, top + far) == WALL_BG
                })
                .collect()
        })
        .collect()
}

/// The world cell (x, y) whose pixels include the avatar's white glyph ink (bright grey
/// after anti-aliasing on black: no other tile's ink or background is a bright grey).
fn avatar_cell(img: &RgbaImage, width: u32, height: u32) -> Option<(u32, u32)> {
    avatar_cell_at(img, width, height, 1)
}

/// [`avatar_cell`] in a picture drawn at `scale` × 16 pixels a cell.
fn avatar_cell_at(img: &RgbaImage, width: u32, height: u32, scale: u32) -> Option<(u32, u32)> {
    let side = TILE * scale;
    for row in 0..height {
        for x in 0..width {
            let white = (0..side * side).any(|k| {
                let px = x * side + k % side;
                let py = (HUD_ROWS + row) * side + k / side;
                let [r, g, b] = pixel(img, px, py);
                r == g && g == b && r >= 150
            });
            if white {
                return Some((x, height - 1 - row));
            }
        }
    }
    None
}

/// The pixels of the left half of the top HUD row, where the tile description is written.
fn description_pixels(img: &RgbaImage, scale: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for y in 0..TILE * scale {
        for x in 0..img.width() / 2 {
            out.extend_from_slice(&pixel(img, x, y));
        }
    }
    out
}

/// The cells `(x, y, replay's char)` whose background disagrees with replay's rows.
fn walls_disagreeing(img: &RgbaImage, rows: &[Vec<char>], scale: u32) -> Vec<(usize, usize, char)> {
    let (w, h) = (rows[0].len() as u32, rows.len() as u32);
    let cells = wall_cells(img, w, h, scale);
    let mut wrong = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (x, c) in row.iter().enumerate() {
            if cells[r][x] != (*c == '#') {
                wrong.push((x, h as usize - 1 - r, *c));
            }
        }
    }
    wrong
}

fn assert_walls_match(img: &RgbaImage, rows: &[Vec<char>], scale: u32) {
    let wrong = walls_disagreeing(img, rows, scale);
    assert!(
        wrong.is_empty(),
        "cells whose background disagrees with replay: {wrong:?}"
    );
}

/// A wall tile and a floor tile of the world, as (x, y).
fn find_tile(rows: &[Vec<char>], c: char, nth: usize) -> (u32, u32) {
    let h = rows.len();
    rows.iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.iter()
                .enumerate()
                .filter(move |(_, t)| **t == c)
                .map(move |(x, _)| (x as u32, (h - 1 - r) as u32))
        })
        .nth(nth)
        .unwrap()
}

#[test]
#[ignore = "needs Xvfb, xdotool, xwd and ImageMagick: cargo test --test main -- --include-ignored window::"]
fn playing_in_a_real_window_matches_replay() {
    let x = xvfb();
    let saves = tempfile::tempdir().unwrap();
    let log = saves.path().join("stdout.log");
    let out = std::fs::File::create(&log).unwrap();
    let mut window = Window::open_to(&x, saves.path(), &[], out.into());

    // (a) The menu: text on black, no world yet.
    let menu = window.screenshot();
    assert_eq!(menu.dimensions(), (80 * TILE, (30 + HUD_ROWS) * TILE));
    let lit = menu.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();
    assert!(lit > 500, "the menu shows text ({lit} lit pixels)");
    assert!(
        wall_cells(&menu, 80, 30, 1).iter().flatten().all(|w| !w),
        "no world is drawn on the menu"
    );

    // (b) N1234S: every cell's background matches the world replay prints.
    window.type_keys("n1234s");
    let rows = replay_rows("N1234S");
    let world = window.screenshot();
    assert_walls_match(&world, &rows, 1);
    let expected = find_tile(&rows, '@', 0);
    assert_eq!(avatar_cell(&world, 80, 30), Some(expected));

    // (c) Moves put the avatar where replay says.
    window.type_keys("wwddsssaa");
    let moved = window.screenshot();
    let rows_moved = replay_rows("N1234SWWDDSSSAA");
    assert_eq!(
        avatar_cell(&moved, 80, 30),
        Some(find_tile(&rows_moved, '@', 0))
    );
    assert_ne!(rows_moved, rows, "the moves moved the avatar");

    // A click walks the shortest known way to the tile clicked: two steps along a line of
    // floor.
    let (ax, ay) = find_tile(&rows_moved, '@', 0);
    let floor = |x: i64, y: i64| {
        let (Ok(x), Ok(row)) = (usize::try_from(x), usize::try_from(29 - y)) else {
            return false;
        };
        rows_moved.get(row).and_then(|r| r.get(x)) == Some(&'·')
    };
    let (ax, ay) = (i64::from(ax), i64::from(ay));
    let (key, dx, dy) = [('W', 0, 1), ('A', -1, 0), ('S', 0, -1), ('D', 1, 0)]
        .into_iter()
        .find(|&(_, dx, dy)| floor(ax + dx, ay + dy) && floor(ax + 2 * dx, ay + 2 * dy))
        .expect("two floor tiles in a line from the avatar");
    let target = ((ax + 2 * dx) as u32, (ay + 2 * dy) as u32);
    let (px, py) = View::below_hud(TILE, 30).centre(target);
    xdotool(
        &x,
        &[
            "mousemove",
            "--window",
            &window.id,
            &px.to_string(),
            &py.to_string(),
        ],
    );
    window.wait_frames();
    xdotool(&x, &["click", "1"]);
    let clicked = window.screenshot_when(|img| avatar_cell(img, 80, 30) == Some(target));
    assert_eq!(avatar_cell(&clicked, 80, 30), Some(target), "the walk");
    let rows_moved = replay_rows(&format!("N1234SWWDDSSSAA{key}{key}"));
    let moved = clicked;

    // (e) The HUD describes the tile under the mouse: wall and floor differ, two walls agree.
    let wall = find_tile(&rows_moved, '#', 10);
    let wall2 = find_tile(&rows_moved, '#', 200);
    let floor = find_tile(&rows_moved, '·', 10);
    // The 80 x 30 world fills the view: view cells are world tiles. Each reading waits for
    // the HUD to change from the one before (wall, floor, wall: each differs if right).
    window.assert_hud_names(
        [wall, floor, wall2],
        View::below_hud(TILE, 30),
        1,
        &description_pixels(&moved, 1),
    );

    // Resized to twice the size, the world scales and the mouse still finds the tiles.
    xdotool(&x, &["windowsize", "--sync", &window.id, "2560", "1024"]);
    window.wait_frames();
    // Under load the X server can hand back a frame drawn while the window was still being
    // resized: wait for one drawn whole at the new size (20 s at most), then check it.
    let big = window.screenshot_when(|img| {
        img.dimensions() == (2560, 1024)
            && avatar_cell_at(img, 80, 30, 2).is_some()
            && walls_disagreeing(img, &rows_moved, 2).is_empty()
    });
    if big.dimensions() == (2560, 1024) {
        assert_walls_match(&big, &rows_moved, 2);
        window.assert_hud_names(
            [wall, floor, wall2],
            View::below_hud(2 * TILE, 30),
            2,
            &description_pixels(&big, 2),
        );
    } else {
        eprintln!("note: the X server did not resize the window; resize not checked");
    }

    // (d) :Q saves and closes the window; replay L loads the same game.
    window.type_keys(":q");
    assert_eq!(
        window.wait_exit(Duration::from_secs(10)),
        Some(0),
        "the window closes after :Q"
    );
    let loaded = byog(saves.path(), &["L"]);
    assert!(loaded.status.success());
    let loaded_rows: Vec<Vec<char>> = String::from_utf8(loaded.stdout)
        .unwrap()
        .lines()
        .map(|l| l.chars().collect())
        .collect();
    assert_eq!(loaded_rows, rows_moved);
    // The program printed where the game went, once the window was gone.
    let loaded = byog(saves.path(), &["replay", "L", "--json"]);
    let state: serde_json::Value =
        serde_json::from_str(String::from_utf8(loaded.stdout).unwrap().trim_end()).unwrap();
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!(
            "saved to {} (N1234S…, {} moves)\n",
            saves.path().join("save.bin").display(),
            state["moves"]
        )
    );
}

#[test]
#[ignore = "needs Xvfb, xdotool, xwd and ImageMagick: cargo test --test main -- --include-ignored window::"]
fn screenshot_flag_draws_the_world_after_keys() {
    let x = xvfb();
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("shot.png");
    let img = play_screenshot(
        &x,
        dir.path(),
        &["--width", "50", "--height", "22", "--keys", "N77SDDWW"],
        &png,
    );
    assert_eq!(img.dimensions(), (50 * TILE, (22 + HUD_ROWS) * TILE));
    let dir2 = tempfile::tempdir().unwrap();
    let out = byog(
        dir2.path(),
        &["N77SDDWW", "--width", "50", "--height", "22"],
    );
    let rows: Vec<Vec<char>> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.chars().collect())
        .collect();
    assert_walls_match(&img, &rows, 1);
    assert_eq!(avatar_cell(&img, 50, 22), Some(find_tile(&rows, '@', 0)));
    assert!(!dir.path().join("save.bin").exists(), "no :Q, no save");
}

/// Issue 31, problem 14: a world that takes longer than the busy screen's 0.2 s to make is
/// screenshotted once it is there (the HUD above the world), never the "making the game"
/// screen.
#[test]
#[ignore = "needs Xvfb, xdotool, xwd and ImageMagick: cargo test --test main -- --include-ignored window::"]
fn the_screenshot_waits_for_a_world_that_takes_long() {
    let x = xvfb();
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("shot.png");
    let img = play_screenshot(
        &x,
        dir.path(),
        &["--width", "3000", "--height", "3000", "--keys", "N5S"],
        &png,
    );
    assert!(
        !hud_ink(&img).is_empty(),
        "the screenshot shows no HUD: the busy screen was taken"
    );
}

#[test]
#[ignore = "needs Xvfb, xdotool, xwd and ImageMagick: cargo test --test main -- --include-ignored window::"]
fn screenshot_and_gen_png_agree_cell_by_cell() {
    let x = xvfb();
    let dir = tempfile::tempdir().unwrap();
    let shot_path = dir.path().join("shot.png");
    let png = dir.path().join("gen.png");
    let shot = play_screenshot(&x, dir.path(), &["--keys", "N2018S"], &shot_path);
    let out = byog(
        dir.path(),
        &[
            "gen",
            "--seed",
            "2018",
            "--format",
            "none",
            "--png",
            png.to_str().unwrap(),
        ],
    );
    assert!(out.status.success());
    let gen_png = image::open(&png).unwrap().to_rgba8();
    assert_eq!(gen_png.dimensions(), (80 * TILE, 30 * TILE));
    // The window has the HUD rows above the world; the PNG is the world alone.
    let mut cells_differing = Vec::new();
    for cy in 0..30 {
        for cx in 0..80 {
            let mut worst = 0;
            for k in 0..TILE * TILE {
                let (px, py) = (cx * TILE + k % TILE, cy * TILE + k / TILE);
                let a = pixel(&shot, px, py + HUD_ROWS * TILE);
                let b = pixel(&gen_png, px, py);
                for c in 0..3 {
                    worst = worst.max(a[c].abs_diff(b[c]));
                }
            }
            if worst > 2 {
                cells_differing.push((cx, cy, worst));
            }
        }
    }
    assert!(
        cells_differing.is_empty(),
        "cells (x, row from top, worst channel difference) that differ: {cells_differing:?}"
    );
}

/// The text `byog replay ARGS` prints (sizes and keys), as rows of characters, top row first.
fn replay_rows_with(args: &[&str]) -> Vec<Vec<char>> {
    let dir = tempfile::tempdir().unwrap();
    let out = byog(dir.path(), args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.chars().collect())
        .collect()
}

/// The view of a screenshot at 16 pixels a tile: its size in cells below the HUD.
fn view_cells(img: &RgbaImage) -> (u32, u32) {
    (img.width() / TILE, img.height() / TILE - HUD_ROWS)
}

/// Checks a scrolled view against replay's rows: finds the avatar's cell, takes the camera's
/// offset from where replay puts the avatar, and compares every cell's wall background with
/// the world tile the offset puts there (off the world: no wall). Returns the world tile in
/// the view's bottom-left cell.
fn assert_view_matches(img: &RgbaImage, rows: &[Vec<char>]) -> (i32, i32) {
    let (cols, view_rows) = view_cells(img);
    let (h, w) = (rows.len() as i32, rows[0].len() as i32);
    let (cx, cy) = avatar_cell(img, cols, view_rows).expect("the avatar is on screen");
    let (ax, ay) = find_tile(rows, '@', 0);
    let origin = (ax as i32 - cx as i32, ay as i32 - cy as i32);
    let cells = wall_cells(img, cols, view_rows, 1);
    let minimap = minimap_box(img);
    let mut wrong = Vec::new();
    for (r, line) in cells.iter().enumerate() {
        for (vx, &is_wall) in line.iter().enumerate() {
            let (left, top) = (vx as u32 * TILE, (HUD_ROWS + r as u32) * TILE);
            let under_minimap = minimap.is_some_and(|(x0, y0, x1, y1)| {
                left < x1 && left + TILE > x0 && top < y1 && top + TILE > y0
            });
            if under_minimap {
                continue;
            }
            let (x, y) = (
                origin.0 + vx as i32,
                origin.1 + (view_rows as i32 - 1 - r as i32),
            );
            let tile = (x >= 0 && y >= 0 && x < w && y < h)
                .then(|| rows[(h - 1 - y) as usize][x as usize]);
            if is_wall != (tile == Some('#')) {
                wrong.push((x, y, tile));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} cells disagree with replay at origin {origin:?}, the first: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(12)]
    );
    origin
}

/// The pixel box `(x0, y0, x1, y1)` (ends excluded) of the minimap's frame, if one is drawn
/// (the cells under it do not show the world).
fn minimap_box(img: &RgbaImage) -> Option<(u32, u32, u32, u32)> {
    // In any corner of the view: the one the avatar's light leaves clear.
    let mut found: Option<(u32, u32, u32, u32)> = None;
    for y in 0..img.height() {
        for x in 0..img.width() {
            if pixel(img, x, y) == MINIMAP_FRAME {
                let b = found.get_or_insert((x, y, x + 1, y + 1));
                *b = (b.0.min(x), b.1.min(y), b.2.max(x + 1), b.3.max(y + 1));
            }
        }
    }
    found
}

/// Keys that walk the avatar at most `steps` steps along a shortest path towards the floor
/// tile farthest from it (a BFS over replay's text).
fn walk_far(rows: &[Vec<char>], steps: usize) -> String {
    let h = rows.len() as i32;
    let w = rows[0].len() as i32;
    let floor = |x: i32, y: i32| {
        x >= 0 && y >= 0 && x < w && y < h && rows[(h - 1 - y) as usize][x as usize] == '·'
    };
    let (ax, ay) = find_tile(rows, '@', 0);
    let start = (ax as i32, ay as i32);
    let mut prev = std::collections::BTreeMap::new();
    prev.insert(start, (start, ' '));
    let mut queue = std::collections::VecDeque::from([start]);
    let mut last = start;
    while let Some((x, y)) = queue.pop_front() {
        last = (x, y);
        for (k, dx, dy) in [('W', 0, 1), ('A', -1, 0), ('S', 0, -1), ('D', 1, 0)] {
            let n = (x + dx, y + dy);
            if floor(n.0, n.1) && !prev.contains_key(&n) {
                prev.insert(n, ((x, y), k));
                queue.push_back(n);
            }
        }
    }
    let mut keys = Vec::new();
    let mut p = last;
    while p != start {
        let (q, key) = prev[&p];
        keys.push(key);
        p = q;
    }
    keys.into_iter().rev().take(steps).collect()
}

/// The pixels of a colour in a region of a picture.
fn count_color(img: &RgbaImage, x0: u32, y0: u32, x1: u32, y1: u32, color: [u8; 3]) -> usize {
    let mut n = 0;
    for y in y0..y1.min(img.height()) {
        for x in x0..x1.min(img.width()) {
            n += usize::from(pixel(img, x, y) == color);
        }
    }
    n
}

/// The minimap's frame and the avatar's dot on it (`tile_engine::minimap`).
const MINIMAP_FRAME: [u8; 3] = [90, 90, 100];
const MINIMAP_AVATAR: [u8; 3] = [255, 220, 0];

/// docs/sight.md: the HUD names the tile under the mouse after the view has scrolled and after
/// zooming (checked against replay's world through the camera's offset).
#[test]
#[ignore = "needs Xvfb, xdotool, xwd and ImageMagick: cargo test --test main -- --include-ignored window::"]
fn the_hud_names_the_tile_under_the_mouse_after_scrolling_and_zooming() {
    let x = xvfb();
    let saves = tempfile::tempdir().unwrap();
    let size = ["--width", "600", "--height", "300"];
    let rows = replay_rows_with(&[size[0], size[1], size[2], size[3], "N8S"]);
    let keys = format!("N8S{}", walk_far(&rows, 300));
    let walked = replay_rows_with(&[size[0], size[1], size[2], size[3], &keys]);
    let mut args = size.to_vec();
    args.extend(["--keys", &keys]);
    let mut window = Window::open_with(&x, saves.path(), &args);
    // The keys (a world to make, a long walk) run before the first frame: wait for it.
    let shot = window.screenshot_when(|img| {
        let (cols, rows) = view_cells(img);
        avatar_cell(img, cols, rows).is_some()
    });
    let origin = assert_view_matches(&shot, &walked);
    let (cols, view_rows) = view_cells(&shot);
    let minimap = minimap_box(&shot);
    // A world larger than the view has a minimap: its frame, and the avatar's dot in it.
    let (x0, y0, x1, y1) = minimap.expect("a world larger than the view has a minimap");
    assert!(
        count_color(&shot, x0, y0, x1, y1, MINIMAP_AVATAR) > 0,
        "the avatar's dot"
    );
    // World tiles on the view (not under the minimap): walls and floors, found through the
    // offset.
    let on_view = |c: char| -> Vec<(u32, u32)> {
        let h = walked.len() as i32;
        let mut found = Vec::new();
        for vy in 0..view_rows as i32 {
            for vx in 0..cols as i32 {
                let (tx, ty) = (origin.0 + vx, origin.1 + vy);
                let (left, top) = (
                    vx as u32 * TILE,
                    (HUD_ROWS + view_rows - 1 - vy as u32) * TILE,
                );
                let under_minimap = minimap.is_some_and(|(x0, y0, x1, y1)| {
                    left < x1 && left + TILE > x0 && top < y1 && top + TILE > y0
                });
                if !under_minimap
                    && tx >= 0
                    && ty >= 0
                    && ty < h
                    && (tx as usize) < walked[0].len()
                    && walked[(h - 1 - ty) as usize][tx as usize] == c
                {
                    found.push((vx as u32, vy as u32));
                }
            }
        }
        found
    };
    let (walls, floors) = (on_view('#'), on_view('·'));
    assert!(walls.len() > 10 && floors.len() > 10);
    // The cells nearest the left and right of the view, so a wrong offset names another tile.
    // Each tile pointed at is of another kind than the one before, so each reading waits
    // for the HUD to change.
    let (over_wall, over_floor) = window.assert_hud_names(
        [walls[0], floors[0], walls[walls.len() - 1]],
        View::below_hud(TILE, view_rows),
        1,
        &description_pixels(&shot, 1),
    );
    // Off the world's cells (over the HUD) nothing is named.
    xdotool(&x, &["mousemove", "--window", &window.id, "5", "5"]);
    window.wait_frames();
    let nothing = description_pixels(
        &window.screenshot_when(|img| description_pixels(img, 1) != over_wall),
        1,
    );
    assert!(
        nothing != over_floor && nothing != over_wall,
        "over the HUD"
    );
    // Zoomed in to 24 pixels a tile, the camera follows and the mouse still names tiles;
    // the HUD keeps its two 16-pixel rows, the view of 24-pixel cells fills the rest.
    window.type_keys("++");
    let zoomed = window.screenshot();
    let (view, zcols) = View::zoomed(zoomed.width(), zoomed.height(), 24);
    let (side, zrows) = (view.side, view.rows);
    // Find the avatar's cell at this size (its white ink), then a wall and a floor near it.
    let mut avatar = None;
    'find: for r in 0..zrows {
        for c in 0..zcols {
            let ink = (0..side * side).any(|k| {
                let [red, g, b] = pixel(
                    &zoomed,
                    view.left + c * side + k % side,
                    view.top + r * side + k / side,
                );
                red == g && g == b && red >= 150
            });
            if ink {
                avatar = Some((c, zrows - 1 - r));
                break 'find;
            }
        }
    }
    let (acx, acy) = avatar.expect("the avatar is on screen after zooming");
    let (ax, ay) = find_tile(&walked, '@', 0);
    let zorigin = (ax as i32 - acx as i32, ay as i32 - acy as i32);
    let h = walked.len() as i32;
    let tile_of = |c: u32, r: u32| {
        let (tx, ty) = (zorigin.0 + c as i32, zorigin.1 + r as i32);
        (tx >= 0 && ty >= 0 && ty < h && (tx as usize) < walked[0].len())
            .then(|| walked[(h - 1 - ty) as usize][tx as usize])
    };
    let near = |want: char| {
        (0..zrows)
            .flat_map(|r| (0..zcols / 2).map(move |c| (c, r)))
            .find(|&(c, r)| tile_of(c, r) == Some(want))
            .expect("a tile on the view's left half")
    };
    let zoomed_wall = window.point_at_cell(near('#'), view, 1, &nothing);
    let zoomed_floor = window.point_at_cell(near('·'), view, 1, &zoomed_wall);
    assert!(zoomed_wall != zoomed_floor, "zoomed: wall and floor differ");
    window.type_keys(":q");
}

/// Bug 8: a tiny world gets a window large enough for the menu; the window's class is byog.
#[test]
#[ignore = "needs Xvfb, xdotool, xwd and ImageMagick: cargo test --test main -- --include-ignored window::"]
fn a_tiny_world_gets_a_readable_window_named_byog() {
    let x = xvfb();
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("tiny.png");
    let img = play_screenshot(&x, dir.path(), &["--width", "5", "--height", "5"], &png);
    assert_eq!(
        img.dimensions(),
        (48 * TILE, 24 * TILE),
        "the minimum window"
    );
    // The title is drawn whole: lit pixels, none in the outermost columns (not clipped).
    let lit = |px: u32| (0..img.height()).any(|py| pixel(&img, px, py) != [0, 0, 0]);
    assert!((0..img.width()).filter(|&px| lit(px)).count() > 100);
    assert!(!lit(0) && !lit(img.width() - 1), "the menu is not clipped");

    let mut window = Window::open_with(&x, dir.path(), &["--width", "5", "--height", "5"]);
    let by_class = xdotool(&x, &["search", "--class", "^byog$"]);
    assert!(
        by_class.lines().any(|id| id == window.id),
        "class: {by_class:?}"
    );
    window.type_keys("q");
    assert_eq!(window.wait_exit(Duration::from_secs(10)), Some(0));
}

/// Bug 8: L with no save keeps the window at the menu (it used to quit); Backspace and
/// Escape edit the seed; after a win N then Escape lead back to the menu; a save too large
/// for the screen is refused at L without closing the window.
#[test]
#[ignore = "needs Xvfb, xdotool, xwd and ImageMagick: cargo test --test main -- --include-ignored window::"]
fn the_menu_and_seed_entry_behave_as_the_spec_says() {
    let x = xvfb();
    let saves = tempfile::tempdir().unwrap();
    let mut window = Window::open(&x, saves.path());
    let menu = window.screenshot();

    // L with no save: still running, still the menu (plus a message).
    window.type_keys("l");
    assert!(window.is_running(), "L with no save must not quit");
    let after_l = window.screenshot();
    assert!(wall_cells(&after_l, 80, 30, 1).iter().flatten().all(|w| !w));
    assert_ne!(after_l, menu, "a message says there is no save");

    // N 1 2 Backspace 3 S plays seed 13.
    window.type_keys("n12");
    window.press(&["BackSpace"]);
    window.type_keys("3s");
    let rows = replay_rows("N13S");
    assert_walls_match(&window.screenshot(), &rows, 1);

    // Walk into the exit, then N and Escape: back at the menu, no world drawn.
    let path = keys_to_exit_of(&rows);
    window.type_keys(&path.to_ascii_lowercase());
    let won = window.screenshot();
    assert!(
        wall_cells(&won, 80, 30, 1).iter().flatten().all(|w| !w),
        "the end screen"
    );
    window.type_keys("n");
    window.press(&["Escape"]);
    let back = window.screenshot();
    assert!(wall_cells(&back, 80, 30, 1).iter().flatten().all(|w| !w));
    // Escape from seed entry, then a new game from the menu.
    window.type_keys("n9");
    window.press(&["Escape"]);
    window.type_keys("n5s");
    assert_walls_match(&window.screenshot(), &replay_rows("N5S"), 1);
    window.type_keys(":q");
    assert_eq!(window.wait_exit(Duration::from_secs(10)), Some(0));

    // A save of a world wider than the window (and the screen): L loads it into the same
    // window, which scrolls to the avatar.
    let big = byog(saves.path(), &["--width", "400", "--height", "40", "N3S:Q"]);
    assert!(big.status.success());
    let mut window = Window::open(&x, saves.path());
    window.type_keys("l");
    assert!(window.is_running());
    let shot = window.screenshot_when(|img| {
        let (cols, rows) = view_cells(img);
        avatar_cell(img, cols, rows).is_some()
    });
    assert_eq!(shot.dimensions(), (80 * TILE, (30 + HUD_ROWS) * TILE));
    let rows = replay_rows_with(&["--width", "400", "--height", "40", "N3S"]);
    assert_view_matches(&shot, &rows);
    window.type_keys(":q");
    assert_eq!(window.wait_exit(Duration::from_secs(10)), Some(0));
}

/// The keys from the avatar into the exit of a world given as replay's rows (a BFS over the
/// text; `█` is entered from a neighbour).
fn keys_to_exit_of(rows: &[Vec<char>]) -> String {
    let h = rows.len() as i32;
    let w = rows[0].len() as i32;
    let at = |x: i32, y: i32| {
        (x >= 0 && y >= 0 && x < w && y < h).then(|| rows[(h - 1 - y) as usize][x as usize])
    };
    let (ax, ay) = find_tile(rows, '@', 0);
    let start = (ax as i32, ay as i32);
    let mut prev = std::collections::BTreeMap::new();
    prev.insert(start, (start, ' '));
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some((x, y)) = queue.pop_front() {
        for (k, dx, dy) in [('W', 0, 1), ('A', -1, 0), ('S', 0, -1), ('D', 1, 0)] {
            let n = (x + dx, y + dy);
            if prev.contains_key(&n) {
                continue;
            }
            match at(n.0, n.1) {
                Some('█') => {
                    let mut keys = vec![k];
                    let mut p = (x, y);
                    while p != start {
                        let (q, key) = prev[&p];
                        keys.push(key);
                        p = q;
                    }
                    return keys.into_iter().rev().collect();
                }
                Some('·') => {
                    prev.insert(n, ((x, y), k));
                    queue.push_back(n);
                }
                _ => {}
            }
        }
    }
    panic!("no way to the exit");
}

/// Zoom in an exploration (the window's own key): the start room (the 39 x 39 hub) does not
/// fit the view at the light's tile size, so a minimap shows; zoomed out to 16 pixels a tile,
/// the first room of a branch (13 x 26 tiles) fits, so no minimap, and not the hub's left
/// behind.
#[test]
#[ignore = "needs Xvfb, xdotool, xwd and ImageMagick: cargo test --test main -- --include-ignored window::"]
fn zooming_out_until_an_exploration_s_room_fits_hides_the_minimap() {
    let x = xvfb();
    let saves = tempfile::tempdir().unwrap();
    let mut window = Window::open(&x, saves.path());
    window.type_keys("e7sw");
    let hub = window.screenshot_when(|img| minimap_box(img).is_some());
    assert!(
        minimap_box(&hub).is_some(),
        "the hub does not fit: a minimap"
    );
    window.type_keys(&"w".repeat(11));
    // 25, 24, 20, then 16 pixels a tile: 30 rows.
    window.press(&["minus", "minus", "minus"]);
    let first =
        window.screenshot_when(|img| minimap_box(img).is_none() && avatar_centre(img).is_some());
    assert_eq!(minimap_box(&first), None, "a map that fits has no minimap");
}

/// The HUD's background colour (`screens::HUD_BACKGROUND`).
const HUD_BG: [u8; 3] = [24, 24, 32];

/// For each 16-pixel band from the top that is a HUD row (its background at its left
/// edge), the columns of message ink (yellow: red well above blue) and of status ink
/// (grey: red, green and blue alike, blue a little above on the HUD's bluish background).
fn hud_ink(img: &RgbaImage) -> Vec<(u32, Vec<u32>, Vec<u32>)> {
    let mut bands = Vec::new();
    for band in 0..img.height() / TILE {
        let y0 = band * TILE;
        let left = (0..img.width() / 2).find(|&x| pixel(img, x, y0 + 1) == HUD_BG);
        let Some(left) = left else { continue };
        if pixel(img, left, y0 + TILE - 1) != HUD_BG {
            continue;
        }
        let (mut yellow, mut grey) = (Vec::new(), Vec::new());
        for x in 0..img.width() {
            for y in y0..y0 + TILE {
                let [r, g, b] = pixel(img, x, y);
                let (r, g, b) = (i32::from(r), i32::from(g), i32::from(b));
                if r > 120 && g > 90 && b < 60 {
                    yellow.push(x);
                } else if r > 50 && (r - g).abs() <= 3 && b >= r - 4 && b <= r + 12 {
                    grey.push(x);
                }
            }
        }
        bands.push((band, yellow, grey));
    }
    bands
}

/// Checks that no HUD row has its message's ink and its status's ink in the same columns:
/// the message ends before the status begins.
#[track_caller]
fn assert_hud_apart(img: &RgbaImage) {
    let bands = hud_ink(img);
    assert!(bands.len() >= 2, "the HUD's rows: {}", bands.len());
    for (band, yellow, grey) in &bands {
        if let (Some(end), Some(start)) = (yellow.iter().max(), grey.iter().min()) {
            assert!(
                end < start,
                "HUD row {band}: the message reaches x = {end}, the status starts at x = {start}"
            );
        }
    }
    assert!(
        bands.iter().any(|(_, y, _)| !y.is_empty()),
        "a message is shown"
    );
}

/// Problem 7: in a 700-pixel-wide window a long message and the run's status never overlap,
/// and zooming (`+`) neither moves nor scales the HUD (its top row has the same pixels).
#[test]
#[ignore = "needs Xvfb, xdotool, xwd and ImageMagick: cargo test --test main -- --include-ignored window::"]
fn the_hud_never_overlaps_and_never_follows_the_zoom() {
    let x = xvfb();
    let saves = tempfile::tempdir().unwrap();
    // 'Z' is not a game key: a long message ("'Z': not a game key (W A S D move, …)").
    let mut window = Window::open_with(&x, saves.path(), &["--keys", "R77SZ"]);
    xdotool(&x, &["windowsize", "--sync", &window.id, "700", "512"]);
    // The pointer over the HUD: no tile is named.
    xdotool(&x, &["mousemove", "--window", &window.id, "3", "3"]);
    window.wait_frames();
    let shot = window.screenshot_when(|img| {
        img.dimensions() == (700, 512) && hud_ink(img).iter().any(|(_, y, _)| !y.is_empty())
    });
    assert_eq!(shot.dimensions(), (700, 512), "the window was not resized");
    assert_hud_apart(&shot);
    // The top row's status ink (grey), where it is and how wide: the message beside it
    // (yellow) may change, the status may not move or scale. The long message first laid
    // the rows out otherwise (it begins on the top row); from the first zoom on, each zoom
    // says its size in a message of one length, so the rows are laid out alike.
    let top_row = |img: &RgbaImage| -> Option<(u32, Vec<u32>)> {
        hud_ink(img)
            .into_iter()
            .next()
            .map(|(band, _, grey)| (band, grey))
    };
    let before = window.screenshot();
    window.type_keys("+");
    let shot = window.screenshot_when(|img| *img != before);
    assert!(
        top_row(&shot).is_some_and(|(_, grey)| !grey.is_empty()),
        "the top row shows the status"
    );
    for zoom in ["+", "-", "-"] {
        let before = window.screenshot();
        window.type_keys(zoom);
        let zoomed = window.screenshot_when(|img| *img != before);
        assert_hud_apart(&zoomed);
        assert!(
            top_row(&zoomed) == top_row(&shot),
            "the HUD's top row moved or changed size with the zoom"
        );
    }
    window.type_keys(":q");
}

/// WCAG 2.x relative luminance of an sRGB pixel (the tests' own: channels linearised,
/// weighted 0.2126, 0.7152, 0.0722).
fn wcag_luminance([r, g, b]: [u8; 3]) -> f64 {
    let lin = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// WCAG 2.x contrast ratio of two pixels.
fn wcag_contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (wcag_luminance(a), wcag_luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The centre of the avatar's white ink (greys of 170 and up, channels within 12 of each
/// other after anti-aliasing over the warm floor: no other glyph or fill of the play view, nor
/// the minimap's walls, is so grey and bright), below the HUD, in pixels.
fn avatar_centre(img: &RgbaImage) -> Option<(f64, f64)> {
    let (mut n, mut sx, mut sy) = (0.0, 0.0, 0.0);
    for y in 2 * TILE..img.height() {
        for x in 0..img.width() {
            let [r, g, b] = pixel(img, x, y);
            if r.min(g).min(b) >= 170 && r.max(g).max(b) - r.min(g).min(b) <= 12 {
                n += 1.0;
                sx += f64::from(x);
                sy += f64::from(y);
            }
        }
    }
    (n > 0.0).then(|| (sx / n, sy / n))
}

/// The pixels of the cell `(dx, dy)` tiles from the avatar's (y up), cells of `side` pixels
/// centred on the avatar's ink centre `centre`.
fn cell_pixels(
    img: &RgbaImage,
    centre: (f64, f64),
    side: f64,
    (dx, dy): (i64, i64),
) -> Vec<[u8; 3]> {
    let left = (centre.0 + dx as f64 * side - side / 2.0).round() as i64;
    let top = (centre.1 - dy as f64 * side - side / 2.0).round() as i64;
    let s = side.round() as i64;
    let mut out = Vec::new();
    // A pixel in from each edge: the neighbours' anti-aliasing stays out.
    for y in top + 1..top + s - 1 {
        for x in left + 1..left + s - 1 {
            if x >= 0 && y >= 0 && (x as u32) < img.width() && (y as u32) < img.height() {
                out.push(pixel(img, x as u32, y as u32));
            }
        }
    }
    out
}

/// The most common pixel of a cell: its background (or a wall's fill).
fn mode(pixels: &[[u8; 3]]) -> [u8; 3] {
    let mut counts = std::collections::BTreeMap::new();
    for p in pixels {
        *counts.entry(*p).or_insert(0) += 1;
    }
    counts
        .into_iter()
        .max_by_key(|&(_, n)| n)
        .map(|(p, _)| p)
        .unwrap_or([0; 3])
}

/// The contrast of a cell's glyph against its background: its inked pixel farthest from the
/// background.
fn glyph_contrast(pixels: &[[u8; 3]]) -> f64 {
    let bg = mode(pixels);
    pixels
        .iter()
        .map(|&p| wcag_contrast(p, bg))
        .fold(1.0, f64::max)
}

/// The play view's look (docs/look.md), measured in screenshots of the default 1280 × 512
/// window: the tile size (the avatar's ink moves by one tile a step), and the WCAG contrast
/// of every glyph class against the pixels around it: the floor in sight and remembered, a
/// wall's fill against the floor beside it, a chest, a trap and the exit just come into sight
/// (explore stops then, so each is in sight), and the avatar.
#[test]
#[ignore = "needs Xvfb, xdotool, xwd and ImageMagick: cargo test --test main -- --include-ignored window::"]
fn the_look_is_readable_tiles_of_24_pixels_and_contrast_of_4_5() {
    use byog_game::travel::{self, Goal, Stop, Thing};
    let x = xvfb();
    let dir = tempfile::tempdir().unwrap();
    // Key strings whose last X stopped on a chest, a trap, the exit coming into sight.
    let mut found: Vec<(Thing, String)> = Vec::new();
    for seed in 1..=12u64 {
        let mut game = byog_game::GameState::new_run(seed, 80, 30, Default::default(), 10).unwrap();
        for _ in 0..30 {
            let walk = travel::walk(&mut game, Goal::Explore);
            if let Stop::Sighted(thing) = walk.stop
                && !found.iter().any(|(t, _)| *t == thing)
                && game.run().unwrap().floor == 1
            {
                found.push((thing, game.history()));
            }
            if walk.stop == Stop::Explored || game.has_ended() {
                break;
            }
        }
    }
    for thing in [Thing::Chest, Thing::Trap, Thing::Exit] {
        assert!(found.iter().any(|(t, _)| *t == thing), "no {thing} sighted");
    }
    let mut measured: Vec<(String, f64)> = Vec::new();
    let mut side = None;
    for (n, (thing, keys)) in found.iter().enumerate() {
        let rows = replay_rows_with(&["replay", "--view", "sight", keys]);
        let (h, w) = (rows.len() as i64, rows[0].len() as i64);
        let (ax, ay) = find_tile(&rows, '@', 0);
        let (ax, ay) = (i64::from(ax), i64::from(ay));
        let at = |x: i64, y: i64| -> char {
            if (0..w).contains(&x) && (0..h).contains(&y) {
                rows[(h - 1 - y) as usize][x as usize]
            } else {
                ' '
            }
        };
        let png = dir.path().join(format!("look{n}.png"));
        let img = play_screenshot(&x, dir.path(), &["--keys", keys], &png);
        assert_eq!(img.dimensions(), (1280, 512), "the default window");
        let centre = avatar_centre(&img).expect("the avatar is drawn");
        // The tile size: one step to a floor neighbour moves the avatar's ink by one tile
        // (the camera's dead zone keeps the view still for one step).
        let side = *side.get_or_insert_with(|| {
            let (key, (dx, dy)) = [('D', (1, 0)), ('A', (-1, 0)), ('W', (0, 1)), ('S', (0, -1))]
                .into_iter()
                .find(|&(_, (dx, dy))| at(ax + dx, ay + dy) == '·')
                .expect("a floor beside the avatar");
            let png = dir.path().join("step.png");
            let moved = play_screenshot(&x, dir.path(), &["--keys", &format!("{keys}{key}")], &png);
            let after = avatar_centre(&moved).unwrap();
            let px = ((after.0 - centre.0).abs() + (after.1 - centre.1).abs())
                / (dx.abs() + dy.abs()) as f64;
            measured.push(("tile size (pixels)".into(), px));
            px
        });
        assert!(side >= 24.0, "the default tile is {side} pixels");
        let cell = |dx: i64, dy: i64| cell_pixels(&img, centre, side, (dx, dy));
        let mut check = |name: &str, c: f64| {
            measured.push((format!("{name} ({thing})"), c));
            assert!(c >= 4.5, "{name}: contrast {c:.2} in {keys}");
        };
        check("avatar", glyph_contrast(&cell(0, 0)));
        // The thing just sighted: the nearest of its kind.
        let glyphs: &[char] = match thing {
            Thing::Chest => &['◇', '◆'],
            Thing::Trap => &['△', '▴'],
            Thing::Exit => &['█'],
            Thing::Monster => &['r', 'b', 'g', 'z', 'o', 'T'],
        };
        let mut things: Vec<(i64, i64)> = (0..w)
            .flat_map(|x| (0..h).map(move |y| (x, y)))
            .filter(|&(x, y)| glyphs.contains(&at(x, y)))
            .collect();
        things.sort_by_key(|&(x, y)| (x - ax).pow(2) + (y - ay).pow(2));
        let (tx, ty) = things[0];
        assert!(
            (tx - ax).pow(2) + (ty - ay).pow(2) <= 64,
            "the {thing} is in the light"
        );
        let name = match thing {
            Thing::Chest => "chest",
            Thing::Trap => "trap",
            Thing::Exit => "exit",
            Thing::Monster => "monster",
        };
        check(name, glyph_contrast(&cell(tx - ax, ty - ay)));
        // The floor beside the avatar is in sight; floor beyond the light is remembered.
        for (dx, dy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            if at(ax + dx, ay + dy) == '·' {
                check("floor in sight", glyph_contrast(&cell(dx, dy)));
                break;
            }
        }
        if let Some((x, y)) = (0..w)
            .flat_map(|x| (0..h).map(move |y| (x, y)))
            .filter(|&(x, y)| at(x, y) == '·' && (x - ax).pow(2) + (y - ay).pow(2) > 100)
            .filter(|&(x, y)| {
                (x - ax).abs() * (side as i64) < 600 && (y - ay).abs() * (side as i64) < 200
            })
            .min_by_key(|&(x, y)| (x - ax).pow(2) + (y - ay).pow(2))
        {
            check("remembered floor", glyph_contrast(&cell(x - ax, y - ay)));
        }
        // A wall beside the avatar (or a floor beside it): its fill against that floor.
        'wall: for (fx, fy) in [(0, 0), (0, 1), (1, 0), (0, -1), (-1, 0)] {
            let (fx, fy) = (ax + fx, ay + fy);
            if !"·@".contains(at(fx, fy)) {
                continue;
            }
            for (dx, dy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                if at(fx + dx, fy + dy) == '#' && at(fx, fy) == '·' {
                    let wall = mode(&cell(fx + dx - ax, fy + dy - ay));
                    let floor = mode(&cell(fx - ax, fy - ay));
                    check("wall", wcag_contrast(wall, floor));
                    break 'wall;
                }
            }
        }
    }
    for (name, value) in &measured {
        eprintln!("look: {name}: {value:.2}");
    }
    for class in [
        "avatar",
        "chest",
        "trap",
        "exit",
        "floor in sight",
        "remembered floor",
        "wall",
    ] {
        assert!(
            measured.iter().any(|(n, _)| n.starts_with(class)),
            "{class} was not measured: {measured:?}"
        );
    }
}
