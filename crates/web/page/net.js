// The websocket to the server (docs/web.md, "The websocket"): plays or watches one game.
//
// A player's keys go out in numbered batches, one key (or one click) a batch. A batch stays
// pending until a frame acknowledges it; the server plays batch n only right after batch
// n - 1, so whatever is sent again, nothing is played twice or out of order. The page never
// stalls:
// - a dropped connection (a server restarted, killed, a network gone) is opened again,
//   after 0.25 s, then twice as long each time up to 5 s; the welcome says the last batch
//   the server wrote, and the pending batches after it go out again, in order;
// - a batch refused (`rate`: too many keys; `gap`: one came before its turn; `store`: the
//   keys could not be written) stops the sending for a while (0.25 s, twice as long after
//   each refusal without progress, up to 5 s), then it starts again from the first batch
//   not acknowledged, in order. Refusals of batches sent before that pause are its echoes
//   and are not counted again. At most `window` batches are out at once: halved by a
//   `rate`, grown by one for each batch acknowledged;
// - the pending batches are kept in sessionStorage, by game: a reload of the tab sends
//   them when it is back, so typed keys are never dropped.
// The player sees a short sign for each of these ("reconnecting", "slow down"), never the
// server's words, which go to the console.

const BASE_DELAY = 250;
const MAX_DELAY = 5000;
const MIN_WINDOW = 1;
const MAX_WINDOW = 64;
const FIRST_WINDOW = 32;

// The signs a player may see, by what happened (null: none).
export const SIGNS = {
  connecting: "connecting…",
  reconnecting: "reconnecting…",
  rate: "slow down",
  gap: "catching up…",
  store: "not saved yet: trying again…",
  replaced: "opened in another tab",
  "not-yours": "this game is another player's",
  "no-game": "no such game",
  hidden: "hidden until its day is over",
  closed: "this daily game has closed",
  broken: "something went wrong: reload the page",
};

// Errors after which the connection gives up: the game cannot be played from here.
const FINAL = new Set(["replaced", "not-yours", "no-game", "hidden"]);

// Errors that refuse a batch: send again, later, from the first one not acknowledged.
const RETRY = new Set(["rate", "gap", "store"]);

function storageKey(game) {
  return `byog.pending.${game}`;
}

function loadPending(game) {
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey(game)) || "[]");
    return Array.isArray(stored) ? stored.filter((b) => b && (b.type === "keys" || b.type === "click")) : [];
  } catch {
    return [];
  }
}

export class Connection {
  // role: "play" or "watch"; hello: the fields of the first message (game, secret);
  // on: { frame(msg), welcome(msg), error(msg), sign(kind), observation(msg), log(msg) }.
  constructor(role, hello, on) {
    this.role = role;
    this.hello = hello;
    this.on = on;
    // Batches sent (or to send) and not acknowledged, in order. Until the first welcome
    // says where the game stands, new batches have no number (n: null).
    this.pending = role === "play" ? loadPending(hello.game) : [];
    this.known = false;     // the first welcome came: numbers are the server's
    this.acked = 0;         // the last batch the server acknowledged
    this.sent = 0;          // the last batch sent since the last (re)start of sending
    this.window = FIRST_WINDOW;
    this.paused = null;     // the timer of a pause after a refusal
    this.backoff = BASE_DELAY;
    this.delay = BASE_DELAY;
    this.view = null;
    this.closed = false;
    this.ready = false;
    this.signKind = null;
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws`;
  }

  sign(kind) {
    if (kind === this.signKind) return;
    this.signKind = kind;
    this.on.sign?.(kind);
  }

  open() {
    if (this.closed) return;
    this.sign(this.known ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: this.role, ...this.hello };
      if (this.view) Object.assign(hello, this.view);
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      let msg;
      try { msg = JSON.parse(e.data); } catch { console.warn("byog: not JSON from the server", e.data); return; }
      this.receive(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ready = false;
      this.unpause();
      if (this.closed) return;
      this.sign("reconnecting");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, MAX_DELAY);
    };
  }

  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.ready = true;
        this.delay = BASE_DELAY;
        if (this.role === "play") this.welcome(msg.acked ?? 0);
        else this.sign(null);
        this.on.welcome?.(msg);
        break;
      case "frame":
        if (this.role === "play") this.acknowledge(msg.ack);
        this.on.frame?.(msg);
        break;
      case "observation":
        this.on.observation?.(msg);
        break;
      case "log":
        this.on.log?.(msg);
        break;
      case "error":
        this.refused(msg);
        break;
    }
  }

  // The server's word on where the game stands: batches up to `acked` were played; the
  // rest are numbered on from there and sent, in order.
  welcome(acked) {
    this.known = true;
    this.acked = Math.max(0, acked);
    this.pending = this.pending.filter((b) => b.n === null || b.n > this.acked);
    // None of these was played (the server says so): numbered on from `acked`, they keep
    // their order. (Numbers already right stay as they are.)
    this.pending.forEach((b, i) => { b.n = this.acked + 1 + i; });
    this.sent = this.acked;
    this.unpause();
    this.save();
    this.sign(null);
    if (this.view) this.send({ type: "view", ...this.view });
    this.pump();
  }

  acknowledge(n) {
    if (typeof n !== "number" || !this.known || n <= this.acked) return;
    const progress = this.pending.filter((b) => b.n <= n).length;
    this.acked = n;
    this.pending = this.pending.filter((b) => b.n > n);
    if (this.sent < n) this.sent = n;
    if (progress) {
      this.window = Math.min(MAX_WINDOW, this.window + progress);
      this.backoff = Math.max(BASE_DELAY, this.backoff / 2);
    }
    this.save();
    if (!this.pending.length && this.signKind && RETRY.has(this.signKind)) this.sign(null);
    this.pump();
  }

  refused(msg) {
    // The server's words are for the console; the player gets a sign.
    const words = `byog: the server says ${msg.code}${msg.n !== undefined ? ` (batch ${msg.n})` : ""}: ${msg.message}`;
    if (RETRY.has(msg.code) && this.role === "play") {
      if (typeof msg.acked === "number") this.acknowledge(msg.acked);
      // An echo of a batch sent before this pause, or of one played since: nothing to do.
      if (this.paused || !this.pending.length || (typeof msg.n === "number" && msg.n <= this.acked)) {
        console.debug(words);
        return;
      }
      console.warn(words);
      if (msg.code === "rate") this.window = Math.max(MIN_WINDOW, Math.floor(this.window / 2));
      this.sign(msg.code);
      const wait = this.backoff;
      this.backoff = Math.min(this.backoff * 2, MAX_DELAY);
      this.paused = setTimeout(() => {
        this.paused = null;
        this.sent = this.acked; // from the first batch not acknowledged
        if (!this.pending.length) this.sign(null);
        this.pump();
      }, wait);
      return;
    }
    console.warn(words);
    if (FINAL.has(msg.code)) {
      this.closed = true;
      this.unpause();
      // Another tab plays this game now: what this one still holds is not sent from here.
      if (msg.code === "replaced") this.forget();
      this.sign(msg.code);
    } else if (msg.code === "closed") {
      // A daily attempt past its close: no key is played any more.
      this.closed = true;
      this.forget();
      this.sign("closed");
    } else if (msg.code === "bad-keys" || msg.code === "bad-message" || msg.code === "binary") {
      this.sign("broken");
    }
    this.on.error?.(msg);
  }

  unpause() {
    clearTimeout(this.paused);
    this.paused = null;
  }

  // Sends the pending batches after the last one sent, while fewer than `window` are out.
  pump() {
    if (this.role !== "play" || !this.ready || this.paused || this.closed) return;
    for (const b of this.pending) {
      if (b.n <= this.sent) continue;
      if (b.n - this.acked > this.window) break;
      this.send(b);
      this.sent = b.n;
    }
  }

  send(msg) {
    if (this.ready && this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  // Keeps the pending batches for a reload of this tab.
  save() {
    if (this.role !== "play") return;
    try {
      if (this.pending.length) sessionStorage.setItem(storageKey(this.hello.game), JSON.stringify(this.pending));
      else sessionStorage.removeItem(storageKey(this.hello.game));
    } catch { /* storage full or off: the keys are still kept here */ }
  }

  forget() {
    this.pending = [];
    this.save();
  }

  batch(fields) {
    // Once numbered, the pending batches run on from `acked + 1` without a hole.
    const b = { ...fields, n: this.known ? this.acked + 1 + this.pending.length : null };
    this.pending.push(b);
    this.save();
    this.pump();
    return b.n;
  }

  keys(keys) { return this.batch({ type: "keys", keys }); }
  click(x, y) { return this.batch({ type: "click", x, y }); }

  // Batches not acknowledged yet.
  get unacknowledged() { return this.pending.length; }

  setView(cols, rows) {
    this.view = { cols, rows };
    this.send({ type: "view", cols, rows });
  }

  pointer(cell) {
    this.send(cell ? { type: "pointer", x: cell[0], y: cell[1] } : { type: "pointer" });
  }

  observe() { this.send({ type: "observe" }); }

  close() {
    this.closed = true;
    this.unpause();
    this.ws?.close();
  }
}
