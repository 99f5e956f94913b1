// `byog serve` in a real browser: Debian's Chromium, headless, driven by playwright-core.
// Signs up, plays a run by key presses and by clicks to the end of B1, checks the text
// mirror against the frame the server sent, watches the game from a second page, and
// records a score that then shows on the board.
//
// BYOG names the byog binary (default: the workspace's target/debug/byog).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const BYOG = process.env.BYOG || join(here, "..", "..", "..", "target", "debug", "byog");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

let server, base, data, browser;

before(async () => {
  data = mkdtempSync(join(tmpdir(), "byog-web-"));
  server = spawn(BYOG, ["serve", "--bind", "127.0.0.1:0", "--data", data], { stdio: ["ignore", "ignore", "pipe"] });
  base = await new Promise((resolve, reject) => {
    let err = "";
    const t = setTimeout(() => reject(new Error("byog serve did not start: " + err)), 20000);
    server.stderr.on("data", (d) => {
      err += d;
      const m = /open (http:\/\/[0-9.:]+)\//.exec(err);
      if (m) { clearTimeout(t); resolve(m[1]); }
    });
    server.on("exit", (code) => reject(new Error(`byog serve exited ${code}: ${err}`)));
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
  rmSync(data, { recursive: true, force: true });
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
