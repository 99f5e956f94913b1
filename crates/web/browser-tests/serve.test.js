// `byog serve` in a real browser: Debian's Chromium, headless, driven by playwright-core.
// Signs up, plays a run by key presses and by clicks to the end of B1, checks the text
// mirror against the frame the server sent, watches the game from a second page, and
// records a score that then shows on the board. Then: a server killed with SIGKILL and
// started again while a game is played (the page resumes by itself, and the game's key log
// replayed is what the page shows); a burst of keys far over the server's limit (every key
// played, in order, a "slow down" sign that goes away; and after a reload of the tab in the
// middle of another burst, still every key); the end screen's keys (N, R and E
// start the next game, Esc goes back to the lobby); a phone-sized page.
//
// BYOG names the byog binary (default: the workspace's target/debug/byog). Screenshots go
// to the system's temporary folder (byog-web-*.png).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const BYOG = process.env.BYOG || join(here, "..", "..", "..", "target", "debug", "byog");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

let server, base, data, browser;
const servers = [];
const folders = [];

// Starts `byog serve` on `bind` (a free port by default) with the database in `dir` (a new
// folder by default) and the flags `extra`; resolves once it listens.
async function startServer(extra = [], { bind = "127.0.0.1:0", dir = null } = {}) {
  const folder = dir ?? mkdtempSync(join(tmpdir(), "byog-web-"));
  if (!dir) folders.push(folder);
  const proc = spawn(BYOG, ["serve", "--bind", bind, "--data", folder, ...extra], { stdio: ["ignore", "ignore", "pipe"] });
  servers.push(proc);
  const url = await new Promise((resolve, reject) => {
    let err = "";
    const t = setTimeout(() => reject(new Error("byog serve did not start: " + err)), 20000);
    proc.stderr.on("data", (d) => {
      err += d;
      const m = /open (http:\/\/[0-9.:]+)\//.exec(err);
      if (m) { clearTimeout(t); resolve(m[1]); }
    });
    proc.on("exit", (code, signal) => { clearTimeout(t); reject(new Error(`byog serve exited ${code ?? signal}: ${err}`)); });
  });
  return { proc, base: url, data: folder };
}

before(async () => {
  ({ proc: server, base, data } = await startServer());
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
});

after(async () => {
  await browser?.close();
  for (const p of servers) if (p.exitCode === null && p.signalCode === null) p.kill();
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

// The frames the server sends a page, as it sent them (read off the websocket).
function recordFrames(page) {
  const frames = [];
  page.on("websocket", (ws) => ws.on("framereceived", (f) => {
    try {
      const m = JSON.parse(f.payload);
      if (m.type === "frame") frames.push(m);
    } catch { /* not JSON */ }
  }));
  return frames;
}

// What the text mirror must show for a frame: the HUD's rows (left · right), then the
// view's rows; or the text screen's lines.
function expectedMirror(f) {
  const lines = [];
  if (f.screen.kind === "text") {
    for (const [t, , , glyph] of f.screen.lines) lines.push(glyph ? `${glyph[0]}  ${t}` : t);
    if (f.screen.message) lines.push("", f.screen.message[0]);
  } else {
    for (const [left, , right] of f.screen.hud) lines.push(left ? `${left} · ${right}` : right);
    for (const row of f.view?.text ?? []) lines.push(row);
  }
  return lines.join("\n");
}

const frameOf = (page) => page.evaluate(() => window.byog.frame);
const mirrorOf = (f) => expectedMirror(f);
const hudOf = (f) => f.screen.kind === "game" ? f.screen.hud.map((r) => r[0] + " " + r[2]).join(" ") : "";

// Waits until the page's frame satisfies `pred`.
async function until(page, pred, what, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    const f = await frameOf(page);
    if (f && pred(f)) return f;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(f?.screen)}`);
    await page.waitForTimeout(50);
  }
}

// Clicks view cell (col, row) of the canvas.
async function clickCell(page, col, row) {
  const box = await page.locator("#screen").boundingBox();
  const f = await frameOf(page);
  const cell = box.width / f.view.cols;
  await page.mouse.click(box.x + (col + 0.5) * cell, box.y + (row + 2.5) * cell);
}

test("sign up, play a run to the end of B1 by keys and clicks, watch it, record a score", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const frames = recordFrames(page);

  // Sign up.
  await page.goto(base + "/account");
  await page.fill("input[name=name]", "tester");
  await page.fill("input[name=password]", "a long password");
  await page.click("button[value=signup]");
  await page.waitForURL(base + "/");
  await page.waitForFunction(() => document.getElementById("account-link").textContent === "tester");

  // A seeded run.
  await page.check("input[name=mode][value=run]");
  await page.check("input[name=board][value=seeded]");
  await page.fill("input[name=seed]", "42");
  await page.click("#start");
  await page.waitForURL(/\/play\/[0-9a-f]+$/);
  const game = page.url().split("/").pop();
  // The run's first frame (the Upkeeper's song, or the floor: the first key plays either way).
  let f = await until(page, (f) => f.summary?.mode === "run", "the run's first frame");

  // Key presses: arrows, vi-keys, WASD.
  for (const k of ["ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight", "h", "l", "s", "w"]) {
    await page.keyboard.press(k);
  }
  f = await until(page, (f) => f.ack >= 8 && f.view && /B1\/10/.test(hudOf(f)), "eight batches acknowledged, on B1");

  // The text mirror is the frame the server sent, word for word.
  await page.waitForTimeout(200);
  const last = frames[frames.length - 1];
  assert.equal(await page.textContent("#mirror"), expectedMirror(last));
  assert.equal(last.seq, (await frameOf(page)).seq);

  // A second page watches the game and sees the same frames.
  const watcher = await context.newPage();
  await watcher.goto(`${base}/watch/${game}`);
  await until(watcher, (w) => w.view, "the watcher's first frame");
  await page.keyboard.press("d");
  const played = await until(page, (f) => f.ack >= 9, "batch 9");
  const watched = await until(watcher, (w) => w.seq === played.seq, "the watcher to catch up");
  assert.equal(await watcher.textContent("#mirror"), await page.textContent("#mirror"));
  assert.deepEqual(watched.view, played.view);
  // The watcher's keys are not the game's.
  await watcher.keyboard.press("ArrowUp");
  await watcher.waitForTimeout(300);
  assert.equal((await frameOf(page)).ack, 9);

  // A click on a seen floor tile far from the avatar: travel there.
  f = await frameOf(page);
  const rows = f.view.text;
  let target = null;
  for (let r = 0; r < rows.length && !target; r++) {
    const chars = Array.from(rows[r]);
    for (let c = 0; c < chars.length; c++) {
      if (chars[c] === "·" && !target) {
        const at = rows.findIndex((row) => row.includes("@"));
        if (Math.abs(r - at) + Math.abs(c - Array.from(rows[at]).indexOf("@")) > 4) target = [c, r];
      }
    }
  }
  assert.ok(target, "a seen floor tile to click");
  const movesBefore = f.summary.moves;
  await clickCell(page, target[0], target[1]);
  await until(page, (g) => g.summary.moves > movesBefore + 2, "the click's walk");

  // Explore (X) until the exit is seen, then > to it, answering Y through traps.
  for (let i = 0; i < 40; i++) {
    f = await frameOf(page);
    if (f.view.text.some((row) => row.includes("█")) || /B2\/10/.test(hudOf(f))) break;
    await page.keyboard.press("x");
    await page.waitForTimeout(700);
  }
  for (let i = 0; i < 20 && !/B2\/10/.test(hudOf(await frameOf(page))); i++) {
    f = await frameOf(page);
    if (/Y goes/.test(hudOf(f))) await page.keyboard.press("y");
    else if (f.screen.kind === "game") await page.keyboard.press(">");
    await page.waitForTimeout(800);
  }
  await until(page, (g) => /B2\/10/.test(hudOf(g)), "B2: the end of B1", 20000);
  await page.screenshot({ path: join(tmpdir(), "byog-web-b2.png") });
  await watcher.close();

  // A score: a run won elsewhere (byog solve's keys), recorded and on the board.
  const solution = execFileSync(BYOG, ["solve", "R7S"], { encoding: "utf8" }).trim();
  await page.goto(base + "/boards");
  await page.fill("textarea[name=keys]", "R7S" + solution);
  await page.click("button[value=record]");
  await page.waitForFunction(() => /^recorded: run 7, won/.test(document.getElementById("submit-result").textContent));
  await page.selectOption("select[name=board]", "seeded");
  await page.selectOption("select[name=mode]", "run");
  await page.click("#board-pick button");
  await page.waitForFunction(() => document.querySelector("#board tbody td:nth-child(2)")?.textContent === "tester");
  const row = await page.textContent("#board tbody tr");
  assert.match(row, /tester/);
  assert.deepEqual(errors, []);
  await context.close();
});

// A small classic world: `>` walks to its exit from the first move, and wins.
const SMALL = ["--width", "30", "--height", "16"];

// Starts a game from the lobby at `url`.
async function newGame(page, url, mode, board, seed) {
  await page.goto(url + "/");
  await page.check(`input[name=mode][value=${mode}]`);
  await page.check(`input[name=board][value=${board}]`);
  if (seed !== undefined) await page.fill("input[name=seed]", String(seed));
  await page.click("#start");
  await page.waitForURL(/\/play\/[0-9a-f]+$/);
  return page.url().split("/").pop();
}

const idOf = (page) => new URL(page.url()).pathname.split("/").pop();

// The sign the page shows now ("" for none).
const signOf = (page) => page.evaluate(() => {
  const s = document.getElementById("conn-sign");
  return s.hidden ? "" : s.textContent;
});

// What the page's connection holds: the last batch acknowledged, the batches pending.
const connOf = (page) => page.evaluate(() => ({ acked: window.byog.conn.acked, pending: window.byog.conn.unacknowledged }));

// The observation the page asks the server for (`{"type": "observe"}`).
function observe(page) {
  return page.evaluate(() => new Promise((resolve, reject) => {
    const before = window.byog.observation;
    window.byog.conn.observe();
    const end = Date.now() + 10000;
    const t = setInterval(() => {
      if (window.byog.observation !== before) { clearInterval(t); resolve(window.byog.observation); }
      else if (Date.now() > end) { clearInterval(t); reject(new Error("no observation")); }
    }, 20);
  }));
}

// `byog replay --format json --view sight` of `keys`, with the server's game flags.
function replaySight(keys, flags) {
  return JSON.parse(execFileSync(BYOG, ["replay", "--format", "json", "--view", "sight", ...flags, keys], { encoding: "utf8" }));
}

async function getJson(url) {
  const r = await fetch(url);
  assert.ok(r.ok, `${url}: ${r.status}`);
  return r.json();
}

const isEndScreen = (f) => f.summary && f.summary.status !== "playing" && f.screen.kind === "text"
  && /Esc lobby$/.test(f.screen.lines[f.screen.lines.length - 1][0]);

test("a server killed with SIGKILL and started again: the page resumes by itself, and the key log replayed is what it shows", async () => {
  let s = await startServer(SMALL);
  const port = new URL(s.base).port;
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const game = await newGame(page, s.base, "classic", "seeded", 7);
  await until(page, (f) => f.summary?.mode === "classic" && f.view, "the classic game's first frame");

  const typed = [];
  const press = async (k) => { await page.keyboard.press(k); typed.push(k); };
  for (const k of ["d", "d", "s", "s", "a", "w"]) await press(k);
  await page.waitForFunction((n) => window.byog.conn.acked === n, typed.length);

  // SIGKILL: no goodbye. The page says it is reconnecting and keeps what is typed meanwhile.
  s.proc.kill("SIGKILL");
  await once(s.proc, "exit");
  await page.waitForFunction(() => /reconnecting/.test(document.getElementById("conn-sign").textContent));
  for (const k of ["d", "s", "d"]) await press(k);
  assert.deepEqual(await connOf(page), { acked: 6, pending: 3 });
  await page.screenshot({ path: join(tmpdir(), "byog-web-reconnecting.png") });
  await page.waitForTimeout(1500);

  // The same server again, on the same port and data: nobody reloads the page.
  s = await startServer(SMALL, { bind: `127.0.0.1:${port}`, dir: s.data });
  await page.waitForFunction((n) => window.byog.conn.acked === n && window.byog.conn.unacknowledged === 0,
    typed.length, { timeout: 20000 });
  assert.equal(await signOf(page), "");
  for (const k of ["a", "w", ">"]) await press(k);
  const won = await until(page, (f) => f.summary?.status === "won", "the classic game won", 20000);
  assert.equal((await connOf(page)).acked, typed.length);

  // The finished game's key log, replayed, is what the page shows; so are the keys typed.
  const seen = await observe(page);
  const row = await getJson(`${s.base}/api/games/${game}`);
  assert.equal(row.state, "finished");
  assert.match(row.keys, /^N7S[WASD]+$/i);
  assert.deepEqual(replaySight(row.keys, SMALL), seen);
  assert.deepEqual(replaySight("N7S" + typed.join(""), SMALL), seen);
  assert.equal(seen.status, "won");
  assert.equal(await page.textContent("#mirror"), expectedMirror(await frameOf(page)));
  assert.ok(isEndScreen(won) || isEndScreen(await frameOf(page)));
  assert.deepEqual(errors, []);
  await context.close();
});

test("a burst far over the key limit: every key played, in order, under a 'slow down' sign that goes away", async () => {
  const flags = ["--width", "60", "--height", "30"];
  const s = await startServer(["--keys-per-second", "10", ...flags]);
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await newGame(page, s.base, "classic", "seeded", 11);
  await until(page, (f) => f.summary?.mode === "classic" && f.view, "the classic game's first frame");

  // 90 keys as fast as the browser takes them: the server plays 20 at once, then 10 a
  // second, and refuses the rest with `rate` until the page sends them again.
  const burst = "ddddssssaaaawwwwdsdsdsaw".repeat(4).slice(0, 90).padEnd(90, "d").split("");
  for (const k of burst) await page.keyboard.press(k);
  await page.waitForFunction(() => document.getElementById("conn-sign").textContent === "slow down" && !document.getElementById("conn-sign").hidden);
  await page.screenshot({ path: join(tmpdir(), "byog-web-slow-down.png") });
  await page.waitForFunction((n) => window.byog.conn.acked === n && window.byog.conn.unacknowledged === 0,
    burst.length, { timeout: 60000 });
  assert.equal(await signOf(page), "");
  const signs = await page.evaluate(() => window.byog.signs);
  assert.ok(signs.includes("slow down"), JSON.stringify(signs));
  // Nothing the server said reached the player: only the page's own signs.
  for (const text of signs) assert.doesNotMatch(text, /batch|rate|gap|send/);
  assert.doesNotMatch(await page.textContent("#bar"), /batch|rate|gap/);

  // Every key played, once, in order: the keys typed replayed are the game.
  let seen = await observe(page);
  assert.deepEqual(replaySight("N11S" + burst.join(""), flags), seen);

  // Another burst, and the tab reloaded while most of it waits: the pending keys are kept
  // (in the tab's sessionStorage) and sent once the page is back.
  const again = "wwwwaaaassssddddwawasdsd".repeat(3).slice(0, 60).split("");
  for (const k of again) await page.keyboard.press(k);
  const before = await connOf(page);
  assert.ok(before.pending > 0, `keys still pending at the reload: ${JSON.stringify(before)}`);
  await page.reload();
  const all = burst.length + again.length;
  await page.waitForFunction((n) => window.byog.conn?.acked === n && window.byog.conn.unacknowledged === 0,
    all, { timeout: 60000 });
  await page.waitForFunction(() => document.getElementById("conn-sign").hidden);
  seen = await observe(page);
  assert.deepEqual(replaySight("N11S" + burst.join("") + again.join(""), flags), seen);
  assert.deepEqual(errors, []);
  await context.close();
});

test("after the end: N, R and E start the next game of their mode, Esc goes back to the lobby", async () => {
  const s = await startServer(SMALL);
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // Signed in: today's daily game, one attempt, then a seeded game.
  await page.goto(s.base + "/account");
  await page.fill("input[name=name]", "ender");
  await page.fill("input[name=password]", "a long password");
  await page.click("button[value=signup]");
  await page.waitForURL(s.base + "/");

  const daily = await newGame(page, s.base, "classic", "daily");
  await until(page, (f) => f.summary?.mode === "classic" && f.view, "the daily game's first frame");
  await page.keyboard.press(">");
  await until(page, isEndScreen, "the daily game's end screen", 20000);
  const mirror = await page.textContent("#mirror");
  assert.match(mirror, /\nN new game · R run · E exploration · Esc lobby$/m);
  assert.doesNotMatch(mirror, /Esc menu|:Q/);
  await page.screenshot({ path: join(tmpdir(), "byog-web-end.png") });

  // N: a classic game, seeded (the daily game is one attempt), its seed drawn by the server.
  await page.keyboard.press("n");
  await page.waitForURL((u) => /^\/play\/[0-9a-f]+$/.test(u.pathname) && !u.pathname.endsWith(daily));
  const second = idOf(page);
  await until(page, (f) => f.summary?.mode === "classic" && f.summary.status === "playing", "the next classic game");
  const row = await getJson(`${s.base}/api/games/${second}`);
  assert.equal(row.board, "seeded");
  assert.equal(row.mode, "classic");
  assert.equal(typeof row.seed, "number");
  await page.keyboard.press(">");
  await until(page, isEndScreen, "the second game's end screen", 20000);

  // R: a run, on the same (seeded) board.
  await page.keyboard.press("R");
  await page.waitForURL((u) => !u.pathname.endsWith(second));
  const run = idOf(page);
  await until(page, (f) => f.summary?.mode === "run", "the run");
  assert.equal((await getJson(`${s.base}/api/games/${run}`)).board, "seeded");

  // Back on the ended game: E, an exploration.
  await page.goBack();
  await until(page, isEndScreen, "the second game's end screen again");
  await page.keyboard.press("e");
  await page.waitForURL((u) => !u.pathname.endsWith(second));
  const explore = idOf(page);
  await until(page, (f) => f.summary?.mode === "explore", "the exploration");
  assert.equal((await getJson(`${s.base}/api/games/${explore}`)).board, "seeded");

  // Help over the end screen: Esc closes it (the server's), the next Esc is the lobby.
  await page.goBack();
  await until(page, isEndScreen, "the second game's end screen, once more");
  await page.keyboard.press("?");
  await until(page, (f) => f.screen.kind === "text" && !isEndScreen(f), "the help over the end screen");
  await page.keyboard.press("Escape");
  await until(page, isEndScreen, "the end screen after the help");
  assert.equal(idOf(page), second);
  await page.keyboard.press("Escape");
  await page.waitForURL(s.base + "/");
  assert.equal(await page.isVisible("#lobby"), true);

  // The shell's menu in the browser offers what works there: no Load, Watch or Quit.
  await newGame(page, s.base, "menu", "seeded");
  await until(page, (f) => f.screen.kind === "text", "the menu");
  const menu = await page.textContent("#mirror");
  assert.match(menu, /New Game \(N\)/);
  assert.match(menu, /\(R\)\n.*\(E\)$/);
  assert.doesNotMatch(menu, /Load|Quit|Watch/);
  await page.screenshot({ path: join(tmpdir(), "byog-web-menu.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

// The bounding box, in canvas pixels, of the minimap's view outline (the one #808080 stroke
// the page draws), or null when none is painted.
const outlineBox = (page) => page.evaluate(() => {
  const c = document.getElementById("screen");
  const { width, height } = c;
  const d = c.getContext("2d").getImageData(0, 0, width, height).data;
  let box = null;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (d[i] === 0x80 && d[i + 1] === 0x80 && d[i + 2] === 0x80) {
        box = box ?? { x0: x, y0: y, x1: x, y1: y };
        box.x0 = Math.min(box.x0, x); box.y0 = Math.min(box.y0, y);
        box.x1 = Math.max(box.x1, x); box.y1 = Math.max(box.y1, y);
      }
    }
  }
  return box && { ...box, width, height };
});

test("the minimap moves off the rooms seen, to the corner the frame names", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await newGame(page, base, "explore", "seeded", 1729);
  await until(page, (f) => f.summary?.mode === "explore" && f.view, "the exploration's first frame");
  // X until the frame moves the minimap off the top-right corner (seed 1729's rooms reach
  // it after a few walks in this view).
  const painted = {};
  for (let n = 0; n < 40 && Object.keys(painted).length < 2; n++) {
    const before = (await frameOf(page)).seq;
    await page.keyboard.press("x");
    let f = await until(page, (f) => f.seq > before, "the frame after X");
    // The walk's last frame: none newer for 300 ms.
    for (;;) {
      await page.waitForTimeout(300);
      const next = await frameOf(page);
      if (next.seq === f.seq) break;
      f = next;
    }
    if (!f.minimap) continue;
    const corner = f.minimap.corner;
    assert.ok(["TopRight", "TopLeft", "BottomRight", "BottomLeft"].includes(corner), `corner ${corner}`);
    const box = await outlineBox(page);
    assert.ok(box, `a minimap in ${corner}, but no outline painted`);
    // The outline lies in the half of the canvas the corner names.
    const right = box.x0 > box.width / 2, top = box.y1 < box.height / 2;
    assert.equal(`${top ? "Top" : "Bottom"}${right ? "Right" : "Left"}`, corner, JSON.stringify(box));
    painted[corner] = true;
  }
  assert.ok(painted.TopRight, `painted in ${Object.keys(painted)}`);
  assert.ok(Object.keys(painted).length >= 2, `the minimap never left the top-right corner: ${Object.keys(painted)}`);
  await page.screenshot({ path: join(tmpdir(), "byog-web-minimap-corner.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a phone-sized page: every mode by touch from the menu, the pad a cross, named keys, nothing cut off", async () => {
  const s = await startServer(SMALL);
  const W = 390, H = 844;
  const context = await browser.newContext({
    viewport: { width: W, height: H }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(s.base + "/");
  await page.screenshot({ path: join(tmpdir(), "byog-web-phone-lobby.png") });

  // Inside the viewport, and shown.
  const inside = async (locator, what = String(locator)) => {
    const b = await locator.boundingBox();
    assert.ok(b && b.width > 0 && b.height > 0, `${what} is shown`);
    assert.ok(b.x >= 0 && b.y >= 0 && b.x + b.width <= W + 0.5 && b.y + b.height <= H + 0.5,
      `${what} inside ${W} × ${H}: ${JSON.stringify(b)}`);
    return b;
  };
  const sel = (selector) => page.locator(selector);
  // A pad key by its name, as a screen reader reads it (only the one shown).
  const key = (name) => page.getByRole("button", { name, exact: true }).locator("visible=true");
  // Every pad key shown: inside the viewport, its name words or a letter, never the name of
  // the glyph drawn on it ("black up-pointing triangle").
  const padShown = async () => {
    const names = [];
    for (const b of await sel("#pad button").all()) {
      if (!(await b.isVisible())) continue;
      const name = (await b.getAttribute("aria-label")) ?? (await b.textContent());
      assert.doesNotMatch(name, /[▲▼◀▶⌫]/, `a pad key named ${name}`);
      assert.ok(name.trim().length > 0, "a pad key without a name");
      await inside(b, `the pad key ${name}`);
      names.push(name);
    }
    return names;
  };
  // Canvas, bar and pad inside the viewport, the pad below the canvas.
  const laidOut = async () => {
    const canvas = await inside(sel("#screen"), "the canvas");
    for (const part of ["#bar", "#status", "#mute", "#leave", "#pad"]) await inside(sel(part), part);
    const pad = await inside(sel("#pad"), "the pad");
    assert.ok(pad.y >= canvas.y + canvas.height - 0.5, "the pad is below the canvas, not over it");
    const header = await sel("header").boundingBox(), bar = await sel("#bar").boundingBox();
    assert.ok(canvas.y >= header.y + header.height - 0.5, `the canvas under the header: ${JSON.stringify([canvas, header])}`);
    assert.ok(canvas.y + canvas.height <= bar.y + 0.5, `the canvas above the bar: ${JSON.stringify([canvas, bar])}`);
    // The bar's words whole, never cut with "…".
    const cut = await page.evaluate(() => {
      const e = document.getElementById("status");
      return e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1;
    });
    assert.equal(cut, false, `the bar's words are cut: ${await page.textContent("#status")}`);
    return canvas;
  };

  // The shell's menu: its letters and digits are on the pad.
  await page.tap("input[name=mode][value=menu]");
  await page.tap("#start");
  await page.waitForURL(/\/play\/[0-9a-f]+$/);
  await until(page, (g) => g.screen.kind === "text" && /New Game \(N\)/.test(mirrorOf(g)), "the menu");
  await laidOut();
  const menuKeys = await padShown();
  for (const name of ["N: a classic game", "R: a run", "E: an exploration", "S: start", "backspace", "escape", "0", "5", "9"]) {
    assert.ok(menuKeys.includes(name), `the menu's pad has ${name}: ${menuKeys}`);
  }
  assert.equal(await key("up").count(), 0, "no cross at the menu");
  await page.screenshot({ path: join(tmpdir(), "byog-web-phone-menu.png") });

  // N, a seed typed by touch (a wrong digit taken back), S: a classic game.
  for (const name of ["N: a classic game", "5", "7", "backspace", "S: start"]) await key(name).tap();
  let f = await until(page, (g) => g.summary?.mode === "classic" && g.view, "the classic game typed on the pad");
  assert.match(mirrorOf(f), /seed 5\b/);
  const canvas = await laidOut();
  assert.ok(canvas.width / f.view.cols >= 14, `cells of ${canvas.width / f.view.cols} px`);

  // The pad is a cross: up above wait above down, left and right beside wait.
  const box = {};
  for (const name of ["up", "left", "wait a turn", "right", "down"]) box[name] = await inside(key(name), name);
  const mid = (b) => [b.x + b.width / 2, b.y + b.height / 2];
  const [cx, cy] = mid(box["wait a turn"]);
  assert.ok(Math.abs(mid(box.up)[0] - cx) < 2 && Math.abs(mid(box.down)[0] - cx) < 2, "up and down in wait's column");
  assert.ok(Math.abs(mid(box.left)[1] - cy) < 2 && Math.abs(mid(box.right)[1] - cy) < 2, "left and right in wait's row");
  assert.ok(mid(box.up)[1] < cy && cy < mid(box.down)[1] && mid(box.left)[0] < cx && cx < mid(box.right)[0], "a cross");
  const playKeys = await padShown();
  for (const name of ["explore (X)", "to the exit (>)", "yes (Y)", "help (?)", "messages (P)", "minimap (M)", "sight (Tab)"]) {
    assert.ok(playKeys.includes(name), `the pad in play has ${name}: ${playKeys}`);
  }

  // The pad's keys play: each tap one batch.
  const acked = await page.evaluate(() => window.byog.conn.acked);
  for (const name of ["right", "right", "down", "left"]) await key(name).tap();
  await page.waitForFunction((n) => window.byog.conn.acked === n, acked + 4);
  await page.screenshot({ path: join(tmpdir(), "byog-web-phone-play.png") });

  // To the exit, and from the end screen the pad's own keys: a run.
  await key("to the exit (>)").tap();
  await until(page, isEndScreen, "the phone's end screen", 20000);
  for (const label of ["N new game", "R run", "E exploration", "Lobby"]) await inside(sel(`#pad button:text-is("${label}")`), label);
  assert.equal(await key("right").count(), 0, "no cross after the end");
  await page.screenshot({ path: join(tmpdir(), "byog-web-phone-end.png") });
  const ended = idOf(page);
  await page.tap(`#pad button:text-is("R run")`);
  await page.waitForURL((u) => !u.pathname.endsWith(ended));
  f = await until(page, (g) => g.summary?.mode === "run", "the run from the pad");
  // The first run of a server opens on the Upkeeper's song: its first key plays.
  if (f.screen.kind === "text") await key("help (?)").tap();
  if ((await frameOf(page)).screen.kind === "text") await key("escape").tap();
  f = await until(page, (g) => g.screen.kind === "game" && g.view, "the run in play");
  await laidOut();

  // The bar says what the HUD says: a run's moves left, not the moves used.
  const hudStatus = (g) => g.screen.hud[1][2];
  assert.match(hudStatus(f), /moves left/);
  assert.equal(await page.textContent("#status"), `run · ${hudStatus(f)}`);

  // Screen readers: a message, and the same message again; never a plain move.
  const heard = () => page.evaluate(() => window.byog.announced.length);
  let before = await heard();
  await key("wait a turn").tap();
  f = await until(page, (g) => /you wait a turn/.test(g.screen.hud[1][0]), "the first wait");
  await key("wait a turn").tap();
  const ack = f.ack;
  f = await until(page, (g) => g.ack === ack + 1, "the second wait");
  await page.waitForTimeout(100);
  const said = await page.evaluate(() => window.byog.announced.slice());
  assert.deepEqual(said.slice(before), ["you wait a turn", "you wait a turn"]);
  assert.equal(await page.textContent("#status"), `run · ${hudStatus(f)}`);
  assert.equal(await sel("#status").getAttribute("role"), null, "the bar is no live region");
  assert.equal(await sel("#message").getAttribute("aria-live"), "polite");
  // A move with no message is not announced.
  for (const dir of ["left", "right", "up", "down"]) {
    before = await heard();
    const a = (await frameOf(page)).ack;
    await key(dir).tap();
    f = await until(page, (g) => g.ack === a + 1, `a step ${dir}`);
    await page.waitForTimeout(50);
    if (!f.screen.hud?.[1][0]) assert.equal(await heard(), before, `a step ${dir} announced`);
  }
  await page.screenshot({ path: join(tmpdir(), "byog-web-phone-run.png") });

  // Help, turned and closed by touch; then an exploration from the menu.
  await key("help (?)").tap();
  await until(page, (g) => g.screen.kind === "text" && /page 1 of/.test(mirrorOf(g)), "the help");
  await padShown();
  await key("next (D)").tap();
  await until(page, (g) => /page 2 of/.test(mirrorOf(g)), "the help's second page");
  await page.screenshot({ path: join(tmpdir(), "byog-web-phone-help.png") });
  await key("escape").tap();
  await until(page, (g) => g.screen.kind === "game", "the help closed");
  await page.goto(s.base + "/");
  await page.tap("input[name=mode][value=menu]");
  await page.tap("#start");
  await page.waitForURL(/\/play\/[0-9a-f]+$/);
  await until(page, (g) => g.screen.kind === "text" && /New Game \(N\)/.test(mirrorOf(g)), "the menu again");
  for (const name of ["E: an exploration", "3", "S: start"]) await key(name).tap();
  f = await until(page, (g) => g.summary?.mode === "explore" && g.view, "the exploration typed on the pad");
  await laidOut();
  assert.ok((await padShown()).includes("drink a potion (U)"));
  await page.screenshot({ path: join(tmpdir(), "byog-web-phone-explore.png") });
  assert.deepEqual(errors, []);
  await context.close();
});
