// The page: a lobby, a game (played or watched), the boards and the account, each at its
// own address (/, /play/ID, /watch/ID, /watch, /boards, /account).

import { Connection, SIGNS } from "./net.js";
import { Painter, HUD_ROWS, NARROW_HUD_ROWS, mirrorText, messageOf } from "./paint.js";
import { keyOf, MUTE_KEY } from "./keys.js";
import * as sound from "./sound.js";
import { api, secrets, remember, showLiveGames, showMyGames, showBoard } from "./lobby.js";

const $ = (id) => document.getElementById(id);
const painter = new Painter($("screen"));
let conn = null;
let last = null;          // the last frame
let role = null;          // "play" or "watch"
let pointerCell = null;
let refresh = null;
let playing = null;       // the game played here: { id, board } (board once known)
let starting = false;     // a next game is being asked for
const signs = [];         // every sign shown, in order (for tests and the curious)
const announced = [];     // every message given to screen readers, in order (likewise)
let observation = null;   // the last observation asked for

// For tests and the curious: the last frame, the connection, the signs shown.
window.byog = {
  get frame() { return last; },
  get conn() { return conn; },
  get signs() { return signs; },
  get announced() { return announced; },
  get observation() { return observation; },
};

function show(id) {
  for (const s of ["lobby", "game", "watch", "boards", "account"]) $(s).hidden = s !== id;
}

function go(path) {
  history.pushState({}, "", path);
  route();
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (a && a.origin === location.origin) {
    e.preventDefault();
    go(a.pathname);
  }
});
window.addEventListener("popstate", route);

function stop() {
  conn?.close();
  conn = null;
  last = null;
  role = null;
  playing = null;
  showSign(null);
  clearInterval(refresh);
  refresh = null;
}

async function route() {
  stop();
  api("/api/me").then(signedIn).catch(() => {});
  const path = location.pathname;
  const [, first, id] = path.split("/");
  if (first === "play" && id) return startGame("play", id);
  if (first === "watch" && id) return startGame("watch", id);
  if (first === "watch") {
    show("watch");
    const load = () => showLiveGames($("watch-games")).catch(() => {});
    load();
    refresh = setInterval(load, 3000);
    return;
  }
  if (first === "boards") {
    show("boards");
    return showBoard($("board-pick"), $("board"), $("board-note")).catch((e) => ($("board-note").textContent = e.message));
  }
  if (first === "account") {
    show("account");
    return account();
  }
  show("lobby");
  const load = () => {
    showLiveGames($("live-games")).catch(() => {});
  };
  showMyGames($("my-games")).catch(() => {});
  load();
  refresh = setInterval(load, 5000);
}

function signedIn(me) {
  $("account-link").textContent = me.name ? me.name : "Sign in";
  return me;
}

// The view that fits the stage: cells of 10 to 24 pixels (14 at least on a touch screen),
// an 80 × 30 world whole when it fits; on a narrow stage (a phone) the HUD takes four rows,
// so that its numbers are never cut.
function layout() {
  const stage = $("stage");
  const w = stage.clientWidth, h = stage.clientHeight;
  const coarse = window.matchMedia("(pointer: coarse)").matches;
  const min = coarse ? 14 : 10;
  const hudRows = w < 600 ? NARROW_HUD_ROWS : HUD_ROWS;
  const cell = Math.max(min, Math.min(24, Math.floor(w / 80), Math.floor(h / (30 + hudRows))));
  const cols = Math.max(10, Math.floor(w / cell));
  const rows = Math.max(5, Math.floor(h / cell) - hudRows);
  painter.resize(cols, rows, cell, hudRows);
  if (last) painter.paint(last);
  return [cols, rows];
}

// The stage changes size with the window and with the pad (its keys differ in play, on a
// text screen and after the end): the view follows it.
let laidOut = "";
new ResizeObserver(() => {
  const stage = $("stage");
  const size = `${stage.clientWidth}x${stage.clientHeight}`;
  if (!conn || $("game").hidden || size === laidOut) return;
  laidOut = size;
  const [cols, rows] = layout();
  if (role === "play") conn.setView(cols, rows);
}).observe($("stage"));

function startGame(kind, id) {
  show("game");
  role = kind;
  const [cols, rows] = layout();
  $("status").textContent = "";
  $("leave").textContent = kind === "play" ? "Lobby" : "Stop watching";
  $("pad").style.visibility = kind === "play" ? "" : "hidden";
  $("game").classList.remove("ended");
  const hello = kind === "play" ? { game: id, secret: secrets()[id] } : { game: id };
  if (kind === "play") {
    playing = { id, board: null };
    const mine = playing;
    api(`/api/games/${id}`).then((g) => { mine.board = g.board; }).catch(() => {});
  }
  let message = "";
  let acked = -1;
  conn = new Connection(kind, hello, {
    frame(f) {
      const before = last?.summary;
      last = f;
      painter.paint(f);
      $("mirror").textContent = mirrorText(f);
      const m = messageOf(f);
      // Screen readers hear a new message, and the same one again when a key brought it
      // again (a second bump); never the numbers a move changes.
      const keyed = f.ack !== undefined && f.ack !== acked;
      acked = f.ack;
      if (m && (m !== message || (keyed && kind === "play"))) announce(m);
      message = m;
      if (kind === "play") sound.react(before, f.summary, m);
      status(f);
      $("game").classList.toggle("ended", kind === "play" && hasEnded(f));
      $("game").classList.toggle("texting", f.screen.kind === "text");
      if (f.over && kind === "play") {
        $("status").textContent = "saved on the server: resume it from the lobby any time";
        setTimeout(() => { if (last === f) go("/"); }, 1500);
      }
    },
    observation(o) { observation = o.observation; },
    sign: showSign,
  });
  if (kind === "play") conn.setView(cols, rows);
}

// Gives `text` to the live region. The same text twice in a row is told apart by a
// no-break space at its end, so that screen readers announce the repeat.
function announce(text) {
  const region = $("message");
  region.textContent = region.textContent === text ? text + "\u00a0" : text;
  announced.push(text);
}

// A short sign of what the connection is doing ("reconnecting…", "slow down"), or none.
function showSign(kind) {
  const text = kind ? SIGNS[kind] ?? SIGNS.broken : "";
  if (text) signs.push(text);
  $("conn-sign").textContent = text;
  $("conn-sign").hidden = !text;
}

// Whether the frame's game has ended (won, lost or banked).
function hasEnded(f) {
  return !!f?.summary && f.summary.status !== "playing";
}

// Whether the frame shows the end screen itself (not help or the log over it): its last line
// is the keys the browser's end screen offers.
function isEndScreen(f) {
  const lines = f?.screen?.kind === "text" ? f.screen.lines : [];
  return hasEnded(f) && lines.length > 0 && /· Esc lobby$/.test(lines[lines.length - 1][0]);
}

// The modes N, R and E start, as the terminal's menu and end screens have them.
const NEXT = { N: "classic", R: "run", E: "explore" };

// The next game after the end: a new game of `mode` on the same board (a daily game is one
// attempt a day: then a seed the server draws, on the seeded board), and the page goes there.
async function nextGame(mode) {
  if (starting || !playing) return;
  starting = true;
  try {
    if (!playing.board) playing.board = (await api(`/api/games/${playing.id}`)).board;
    const board = playing.board === "live" ? "live" : "seeded";
    const r = await api("/api/play", { mode, board, seed: null });
    remember(r.game, r.secret);
    go(`/play/${r.game}`);
  } catch (err) {
    console.warn("byog: no next game:", err.message);
    $("status").textContent = "no new game now: the lobby has more";
  } finally {
    starting = false;
  }
}

// A key of the page's own once the game has ended: N, R and E start the next game, and Esc
// on the end screen goes back to the lobby. True when the key was the page's.
function afterEnd(key) {
  if (role !== "play" || !hasEnded(last)) return false;
  const mode = NEXT[key.toUpperCase()];
  if (mode) { nextGame(mode); return true; }
  if (key === "\u001b" && isEndScreen(last)) { go("/"); return true; }
  return false;
}

// The bar under the canvas: the mode, and in play the same numbers as the HUD's status row
// (a run's moves left, never the moves used beside them); after the end, the score.
function status(f) {
  const s = f.summary;
  const who = role === "watch" ? "watching · " : "";
  if (!s) { $("status").textContent = who + "at the menu"; return; }
  if (f.screen.kind === "game") {
    $("status").textContent = `${who}${s.mode} · ${f.screen.hud[1][2]}`;
    return;
  }
  const score = s.score != null ? ` · ${s.score} points` : "";
  const end = s.status === "playing" ? "" : ` · ${s.status}`;
  $("status").textContent = `${who}${s.mode}${end}${score}`;
}

document.addEventListener("keydown", (e) => {
  if ($("game").hidden || !conn) return;
  if (e.key === MUTE_KEY) {
    e.preventDefault();
    $("mute").textContent = sound.toggle() ? "sound off" : "sound on";
    return;
  }
  if (role !== "play") return;
  if (e.target.closest("input, textarea, select")) return;
  const inPlay = last?.screen?.kind === "game";
  const key = keyOf(e, inPlay);
  if (key === null) return;
  e.preventDefault();
  sound.wake();
  if (afterEnd(key)) return;
  conn.keys(key);
});

$("screen").addEventListener("click", (e) => {
  if (role !== "play" || !conn) return;
  sound.wake();
  const cell = painter.cellAt(e.offsetX, e.offsetY);
  if (cell) conn.click(cell[0], cell[1]);
});

let pointerTimer = null;
$("screen").addEventListener("mousemove", (e) => {
  if (role !== "play" || !conn) return;
  const cell = painter.cellAt(e.offsetX, e.offsetY);
  const same = cell && pointerCell && cell[0] === pointerCell[0] && cell[1] === pointerCell[1];
  if (same || (!cell && !pointerCell)) return;
  pointerCell = cell;
  clearTimeout(pointerTimer);
  pointerTimer = setTimeout(() => conn?.pointer(pointerCell), 60);
});

// The pad's keys named as the keyboard names them.
const PAD_NAMED = { Tab: "\t", Backspace: "\b", Escape: "\u001b" };

for (const b of document.querySelectorAll("#pad button")) {
  b.addEventListener("click", () => {
    sound.wake();
    if (b.dataset.action === "lobby") { go("/"); return; }
    const key = PAD_NAMED[b.dataset.key] ?? b.dataset.key;
    if (conn && role === "play" && !afterEnd(key)) conn.keys(key);
  });
}
$("mute").textContent = sound.isMuted() ? "sound off" : "sound on";
$("mute").addEventListener("click", () => { $("mute").textContent = sound.toggle() ? "sound off" : "sound on"; });
$("leave").addEventListener("click", () => go(role === "watch" ? "/watch" : "/"));

$("new-game").addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(e.target);
  $("play-error").textContent = "";
  try {
    const body = { mode: data.get("mode"), board: data.get("board"), seed: data.get("seed") || null };
    const r = await api("/api/play", body);
    remember(r.game, r.secret);
    go(`/play/${r.game}`);
  } catch (err) {
    $("play-error").textContent = err.message;
  }
});

$("board-pick").addEventListener("submit", (e) => {
  e.preventDefault();
  showBoard(e.target, $("board"), $("board-note")).catch((err) => ($("board-note").textContent = err.message));
});

$("submit").addEventListener("submit", async (e) => {
  e.preventDefault();
  const what = e.submitter?.value ?? "verify";
  const keys = new FormData(e.target).get("keys").trim();
  try {
    const v = await api(what === "record" ? "/api/scores" : "/api/verify", { keys });
    $("submit-result").textContent = `${what === "record" ? "recorded" : "verified"}: ${v.mode} ${v.seed}, ${v.status}, ${v.score} points in ${v.moves} moves`;
  } catch (err) {
    $("submit-result").textContent = err.message;
  }
});

async function account() {
  const me = signedIn(await api("/api/me").catch(() => ({})));
  $("sign").hidden = !!me.name;
  $("signed-in").hidden = !me.name;
  $("me").textContent = me.name ?? "";
  $("account-title").textContent = me.name ? "Account" : "Sign in";
}

$("sign").addEventListener("submit", async (e) => {
  e.preventDefault();
  const what = e.submitter?.value ?? "login";
  const data = new FormData(e.target);
  $("sign-error").textContent = "";
  try {
    await api(what === "signup" ? "/api/signup" : "/api/login", { name: data.get("name"), password: data.get("password") });
    go("/");
  } catch (err) {
    $("sign-error").textContent = err.message;
  }
});

$("logout").addEventListener("click", async () => {
  await api("/api/logout", {});
  go("/");
});

route();
