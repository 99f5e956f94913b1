// The websocket to the server (docs/web.md, "The websocket"): plays or watches one game.
// A player's keys go out in numbered batches; a batch stays pending until a frame
// acknowledges it, and after a reconnect every pending batch is sent again, in order
// (the server knows the ones it already played by their numbers). Nothing the player
// typed is lost to a dropped connection, and nothing is played twice.

export class Connection {
  // role: "play" or "watch"; hello: the fields of the first message (game, secret);
  // on: { frame(msg), welcome(msg), error(msg), state(text), observation(msg) }.
  constructor(role, hello, on) {
    this.role = role;
    this.hello = hello;
    this.on = on;
    this.next = 1;          // the number of the next batch
    this.pending = [];      // batches sent (or to send) and not yet acknowledged
    this.acked = 0;
    this.view = null;
    this.closed = false;
    this.delay = 250;
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws`;
  }

  open() {
    if (this.closed) return;
    this.on.state?.("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: this.role, ...this.hello };
      if (this.view) Object.assign(hello, this.view);
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ready = false;
      if (this.closed) return;
      this.on.state?.("reconnecting");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }

  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.ready = true;
        this.delay = 250;
        this.on.state?.("connected");
        if (this.role === "play") {
          this.acknowledge(msg.acked);
          // The batches the server has not played yet, again and in order.
          for (const b of this.pending) this.ws.send(JSON.stringify(b));
          if (this.view) this.ws.send(JSON.stringify({ type: "view", ...this.view }));
        }
        this.on.welcome?.(msg);
        break;
      case "frame":
        if (this.role === "play") this.acknowledge(msg.ack);
        this.on.frame?.(msg);
        break;
      case "observation":
        this.on.observation?.(msg);
        break;
      case "error":
        if (msg.code === "rate" && msg.n !== undefined) {
          // Not played: send it again in a moment.
          setTimeout(() => this.resend(msg.n), 300);
        }
        if (msg.code === "replaced" || msg.code === "not-yours" || msg.code === "no-game" || msg.code === "hidden") {
          this.closed = true;
        }
        this.on.error?.(msg);
        break;
    }
  }

  acknowledge(n) {
    if (typeof n !== "number") return;
    this.acked = Math.max(this.acked, n);
    this.pending = this.pending.filter((b) => b.n > this.acked);
    if (this.next <= this.acked) this.next = this.acked + 1;
  }

  resend(n) {
    const b = this.pending.find((p) => p.n === n);
    if (b && this.ready) this.ws.send(JSON.stringify(b));
  }

  batch(fields) {
    const b = { n: this.next++, ...fields };
    this.pending.push(b);
    if (this.ready) this.ws.send(JSON.stringify(b));
    return b.n;
  }

  keys(keys) { return this.batch({ type: "keys", keys }); }
  click(x, y) { return this.batch({ type: "click", x, y }); }

  setView(cols, rows) {
    this.view = { cols, rows };
    if (this.ready) this.ws.send(JSON.stringify({ type: "view", cols, rows }));
  }

  pointer(cell) {
    if (!this.ready) return;
    const msg = cell ? { type: "pointer", x: cell[0], y: cell[1] } : { type: "pointer" };
    this.ws.send(JSON.stringify(msg));
  }

  observe() {
    if (this.ready) this.ws.send(JSON.stringify({ type: "observe" }));
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}
